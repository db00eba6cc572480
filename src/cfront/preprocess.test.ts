import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../errors.ts';
import { tokLoc } from './lex.ts';
import { type PreprocessOptions, preprocess } from './preprocess.ts';
import { throwsAt } from './testkit.ts';

/** The output tokens as one space-separated string. */
const pp = (src: string, opts: PreprocessOptions = {}) =>
  preprocess(src, 'main.c', opts)
    .tokens.filter((t) => t.kind !== 'eof')
    .map((t) => t.text)
    .join(' ');

describe('preprocess: macros', () => {
  it('refuses #pragma pack with an alignment (layout not modelled), passes the harmless forms', () => {
    throwsAt(
      () => pp('int a;\n#pragma pack(push, 1)\nstruct S { char c; int i; };'),
      2,
      2,
      /#pragma pack/,
      'Unsupported',
    );
    throwsAt(() => pp('int a;\n  _Pragma("pack(2)") struct S;'), 2, 11, /#pragma pack/, 'Unsupported');
    assert.equal(
      pp('#pragma pack(push)\n#pragma pack(pop)\n#pragma pack()\n#pragma GCC unroll 4\nint x;'),
      'int x ;',
    );
  });
  it('expands object-like and function-like macros', () => {
    assert.equal(
      pp('#define N 4\n#define SQ(x) ((x) * (x))\nint a = SQ(N + 1);'),
      'int a = ( ( 4 + 1 ) * ( 4 + 1 ) ) ;',
    );
  });
  it('does not expand a function-like macro name without (', () => {
    assert.equal(pp('#define f(x) x+1\nint f; f (2)'), 'int f ; 2 + 1');
  });
  it('stops self-reference (hide sets), C17 6.10.3.4 example', () => {
    assert.equal(pp('#define x (4 + y)\n#define y (2 * x)\nx y'), '( 4 + ( 2 * x ) ) ( 2 * ( 4 + y ) )');
  });
  it('stringifies and pastes', () => {
    assert.equal(
      pp('#define S(a) #a\n#define CAT(a, b) a ## b\nS(p  +  "q") CAT(TTI_, SFPNOP) CAT(1, 2)'),
      '"p + \\"q\\"" TTI_SFPNOP 12',
    );
  });
  it('does not expand the operands of ## before pasting, but rescans the result', () => {
    assert.equal(pp('#define AB done\n#define A x\n#define CAT(a,b) a##b\nCAT(A,B)'), 'done');
  });
  it('handles __VA_ARGS__, __VA_OPT__ and the GNU comma', () => {
    assert.equal(pp('#define F(fmt, ...) g(fmt, __VA_ARGS__)\nF(1, 2, 3)'), 'g ( 1 , 2 , 3 )');
    assert.equal(
      pp('#define G(fmt, ...) g(fmt __VA_OPT__(,) __VA_ARGS__)\nG(1) G(1, 2)'),
      'g ( 1 ) g ( 1 , 2 )',
    );
    assert.equal(pp('#define H(fmt, args...) g(fmt, ## args)\nH(1) H(1, 2)'), 'g ( 1 ) g ( 1 , 2 )');
  });
  it('passes nested parentheses and commas inside them as one argument', () => {
    assert.equal(pp('#define ID(x) x\nID((a, b))'), '( a , b )');
  });
  it('takes -D defines and undefines', () => {
    assert.equal(pp('A B', { defines: { A: 7, B: '' } }), '7 1');
    assert.equal(pp('#ifdef A\nyes\n#endif', { defines: { A: 1 }, undefines: ['A'] }), '');
    assert.equal(pp('F(2)', { defines: { 'F(x)': 'x*x' } }), '2 * 2');
  });
  it('gives __LINE__ and __FILE__ of the use site', () => {
    assert.equal(pp('\n\n__LINE__ __FILE__'), '3 "main.c"');
  });
  it('maps expanded tokens to the use site and keeps the chain', () => {
    const r = preprocess('#define ONE TTI_SFPNOP\n#define TWO ONE\n  TWO;', 'k.h');
    const t = r.tokens[0]!;
    assert.equal(t.text, 'TTI_SFPNOP');
    assert.deepEqual(tokLoc(t), { file: 'k.h', line: 3, col: 3 });
    assert.deepEqual(t.via, ['TWO', 'ONE']);
    assert.equal(t.line, 1); // where it was spelled
  });
  it('keeps argument tokens at their own position', () => {
    const r = preprocess('#define ID(x) x\nID(\n  abc)', 'k.h');
    assert.deepEqual(tokLoc(r.tokens[0]!), { file: 'k.h', line: 3, col: 3 });
  });
  it('reports wrong argument counts and bad pastes', () => {
    throwsAt(() => pp('#define F(a,b) a\nF(1)'), 2, 1, 'takes 2 argument(s) but got 1');
    throwsAt(() => pp('#define P(a,b) a##b\nP(+,/)'), 2, 3, "pasting '+' and '/'");
    throwsAt(() => pp('#define F(a) a\nF(1'), 2, 1, 'unterminated call of macro F');
  });
});

describe('preprocess: conditionals', () => {
  it('selects #if/#elif/#else branches, nested, with defined()', () => {
    const src = `#define A 2
#if A == 1
one
#elif defined(A) && A > 1
#  ifdef B
b
#  else
two
#  endif
#else
other
#endif`;
    assert.equal(pp(src), 'two');
    assert.equal(pp(src, { defines: { B: 1 } }), 'b');
  });
  it('treats unknown identifiers as 0 and evaluates C operators', () => {
    assert.equal(pp('#if UNKNOWN\nx\n#elif (1 << 4) - 1 == 15 && !0 && (3 ? 1 : 0)\ny\n#endif'), 'y');
    assert.equal(pp('#if -1 < 0 && 10 / 3 == 3 && 10 % 3 == 1 && ~0 == -1\nz\n#endif'), 'z');
  });
  it('skips directives inside inactive branches', () => {
    assert.equal(pp('#if 0\n#error no\n#include "missing.h"\n#bogus\n#endif\nok'), 'ok');
  });
  it('takes the #ifndef DISABLE_SFPLOADMACRO shape both ways', () => {
    const src = '#ifndef DISABLE_SFPLOADMACRO\nmacro\n#else\nplain\n#endif';
    assert.equal(pp(src), 'macro');
    assert.equal(pp(src, { defines: { DISABLE_SFPLOADMACRO: '' } }), 'plain');
  });
  it('reports unbalanced conditionals and #error', () => {
    throwsAt(() => pp('#if 1\nx'), 1, 2, 'without a matching #endif');
    throwsAt(() => pp('x\n#endif'), 2, 2, '#endif without #if');
    throwsAt(() => pp('#else'), 1, 2, '#else without #if');
    throwsAt(() => pp('#if 1\n#else\n#else\n#endif'), 3, 2, '#else after #else');
    throwsAt(() => pp('#error stop here'), 1, 2, '#error stop here');
    throwsAt(() => pp('#frobnicate'), 1, 2, 'unknown preprocessor directive #frobnicate');
  });
});

describe('preprocess: includes', () => {
  const files = {
    'inc/a.h': '#pragma once\nint a;\n#include "b.h"',
    'inc/b.h': '#ifndef B_H\n#define B_H\nint b;\n#endif',
    'sfpu/c.h': 'int c = __LINE__;',
  };
  it('resolves quoted and angled includes through virtual files and include dirs', () => {
    const src = '#include "a.h"\n#include <a.h>\n#include "b.h"\n#include "sfpu/c.h"';
    assert.equal(pp(src, { virtualFiles: files, includeDirs: ['inc'] }), 'int a ; int b ; int c = 1 ;');
  });
  it('names the file and line of included tokens', () => {
    const r = preprocess('#include "b.h"', 'main.c', { virtualFiles: files, includeDirs: ['inc'] });
    assert.deepEqual(tokLoc(r.tokens[0]!), { file: 'inc/b.h', line: 3, col: 1 });
    assert.deepEqual(r.files, ['main.c', 'inc/b.h']);
  });
  it('answers __has_include', () => {
    assert.equal(
      pp('#if __has_include("b.h") && !__has_include(<nope.h>)\nyes\n#endif', {
        virtualFiles: files,
        includeDirs: ['inc'],
      }),
      'yes',
    );
  });
  it("reads a quoted include from disk in the including file's directory first, then the -I directories, also for a file with no directory", () => {
    const disk: Record<string, string> = { 'inc/cfg.h': 'int from_inc;' };
    const asked: string[] = [];
    const readFile = (p: string) => {
      asked.push(p);
      return disk[p];
    };
    // main.c has no directory: its own directory is '.', so "cfg.h" is looked for as cfg.h, then inc/cfg.h
    assert.equal(
      pp('#include "cfg.h"', { includeDirs: ['inc'], readFile, systemHeaders: false }),
      'int from_inc ;',
    );
    assert.deepEqual(asked, ['cfg.h', 'inc/cfg.h']);
    disk['cfg.h'] = 'int from_here;';
    assert.equal(
      pp('#include "cfg.h"', { includeDirs: ['inc'], readFile, systemHeaders: false }),
      'int from_here ;',
    );
    // angled: only the -I directories
    asked.length = 0;
    assert.equal(
      pp('#include <cfg.h>', { includeDirs: ['inc'], readFile, systemHeaders: false }),
      'int from_inc ;',
    );
    assert.deepEqual(asked, ['inc/cfg.h']);
  });
  it('reports a missing include at the directive, and runaway recursion', () => {
    throwsAt(() => pp('\n#include "nope.h"', { includeDirs: ['x'] }), 2, 2, 'cannot find "nope.h"');
    throwsAt(
      () => pp('#include "self.h"', { virtualFiles: { 'self.h': '#include "self.h"' } }),
      1,
      2,
      'nested more than',
    );
  });
});

describe('preprocess: budgets', () => {
  it('stops an exponential macro chain with ResourceLimit at its use', async () => {
    const { Budget } = await import('../budget.ts');
    let src = '#define A0 x\n';
    for (let k = 1; k <= 24; k++) src += `#define A${k} (A${k - 1} * A${k - 1})\n`;
    src += 'int v = A24;';
    assert.throws(
      () => preprocess(src, 'k.h', { budget: new Budget({ exprSize: 10_000 }) }),
      (e: unknown) =>
        e instanceof AxsimError &&
        e.category === 'ResourceLimit' &&
        /expression size/.test(e.message) &&
        e.location?.line === 26,
    );
  });

  it('stops a long macro body used many times at the use that passes the output limit', () => {
    // B is 1000 tokens (500 times `x ,`); each `B;` line adds 1001 tokens to the output, so with a
    // limit of 10 000 tokens the 10th use (line 11) is the first to pass it: 10 * 1001 > 10 000.
    const src = `#define B ${'x , '.repeat(500)}\n${'B;\n'.repeat(20)}`;
    throwsAt(
      () => preprocess(src, 'k.c', { maxTokens: 10_000 }),
      11,
      1,
      'exceeds 10000 tokens',
      'ResourceLimit',
    );
    // under the limit: 9 uses are 9009 tokens plus the end-of-input token
    assert.equal(
      preprocess(`#define B ${'x , '.repeat(500)}\n${'B;\n'.repeat(9)}`, 'k.c', { maxTokens: 10_000 }).tokens
        .length,
      9010,
    );
  });
});

describe('#line and line markers', () => {
  it('are not applied, and say so once per file (Unsupported warning at the directive)', () => {
    const src = 'int a = __LINE__;\n#line 500 "other.h"\nint b = __LINE__;\n# 9 "gen.c"\nint c = __LINE__;\n';
    const r = preprocess(src, 'main.c', {});
    const texts = r.tokens.filter((t) => t.kind !== 'eof').map((t) => t.text);
    // physical lines: __LINE__ is 1, 3 and 5 (not 500 / 9); the file stays main.c
    assert.deepEqual(
      texts.filter((t) => /^\d+$/.test(t)),
      ['1', '3', '5'],
    );
    assert.ok(r.tokens.every((t) => t.kind === 'eof' || tokLoc(t).file === 'main.c'));
    assert.equal(r.warnings.length, 1, 'one warning for the file');
    const w = r.warnings[0]!;
    assert.equal(w.category, 'Unsupported');
    assert.deepEqual([w.location?.file, w.location?.line, w.location?.col], ['main.c', 2, 2]);
    assert.match(w.message, /#line and line markers are not applied/);
    // a line marker alone warns too, at its number
    const m = preprocess('# 7 "gen.c"\nint x;\n', 'marker.c', {});
    assert.deepEqual(
      m.warnings.map((x) => [x.category, x.location?.line, x.location?.col]),
      [['Unsupported', 1, 3]],
    );
  });
});
