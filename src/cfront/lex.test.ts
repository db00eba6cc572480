import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import { loadProgram } from './index.ts';
import { lex, stringValue } from './lex.ts';

// A text without backslashes or CRs is lexed without per-character position arrays (a forward
// cursor over its newlines gives each token's line and column); a text with one takes the splicing
// path, which fills the arrays. Appending `\n//\` (a comment holding a backslash) sends a text down
// the splicing path without changing any token before it: both paths must give the same tokens at
// the same positions, and the same error at the same place.
const FRAGMENTS = [
  'int',
  'x_1',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '42',
  '0x1fU',
  '1e+5',
  '.5',
  '"str"',
  "'c'",
  'u8"s"',
  'R"d(raw\n)d"',
  '/* c */',
  '/* two\nlines */',
  '// note\n',
  '+=',
  '>>=',
  '->',
  '::',
  '(',
  ')',
  '{',
  '}',
  ';',
  '#',
  '%:',
  'é',
  '𝑥',
  '\u2028',
];
const textArb = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((a) => a.join(''));

function outcome(text: string): { toks: unknown[] } | { error: string } {
  try {
    return { toks: lex(text, 'f.c').filter((t) => t.kind !== 'eof') };
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    return { error: `${JSON.stringify(e.location)} ${e.message}` };
  }
}

test('lex: positions without splicing equal the splicing path (same tokens, lines, columns, errors)', () => {
  fc.assert(
    fc.property(
      textArb,
      fc.option(fc.constantFrom('"open', '/* open', '\u0001', "'x"), { nil: undefined }),
      (t, bad) => {
        const text = bad === undefined ? t : t + bad;
        assert.deepEqual(outcome(text), outcome(`${text}\n//\\`));
      },
    ),
    { numRuns: 600 },
  );
});

test('lex: the end-of-file token is on the line after the last character, column 1', () => {
  fc.assert(
    fc.property(textArb, (text) => {
      let toks: ReturnType<typeof lex>;
      try {
        toks = lex(text, 'f.c');
      } catch {
        return; // (a string literal across a newline: an error, compared in the test above)
      }
      const eof = toks[toks.length - 1]!;
      assert.equal(eof.kind, 'eof');
      // independent count: newlines before the last character, plus one for the line after it
      let nl = 0;
      for (let k = 0; k < text.length - 1; k++) if (text[k] === '\n') nl++;
      assert.deepEqual(
        { line: eof.line, col: eof.col },
        text.length === 0 ? { line: 1, col: 1 } : { line: nl + 2, col: 1 },
      );
    }),
    { numRuns: 300 },
  );
});

test('lex: token positions counted by hand', () => {
  const toks = lex('int a;\n  /* x\n y */ b\n\n"s"', 'f.c');
  assert.deepEqual(
    toks.map((t) => [t.text, t.line, t.col]),
    [
      ['int', 1, 1],
      ['a', 1, 5],
      [';', 1, 6],
      ['b', 3, 7],
      ['"s"', 5, 1],
      ['', 6, 1],
    ],
  );
});

// Fuzz campaign (tensix-asm, seed 2, inputs 98138 and 104571): `'\u'` and `'\U'` made
// String.fromCodePoint(NaN) throw a RangeError (Internal). An ill-formed escape is BadInput at the
// literal; well-formed ones keep their values.
function badAt(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    assert.equal(e.category, 'BadInput', e.message);
    return `${e.location?.line}:${e.location?.col} ${e.message}`;
  }
  assert.fail('no error');
}

test('escapes: \\u, \\U, \\x without their digits and invalid code points are BadInput at the literal', () => {
  const cases: [string, RegExp][] = [
    ["'\\u'", /^2:9 incomplete universal character name \\u: it needs 4 hex digits/],
    ['"\\U0001F6"', /^2:9 incomplete universal character name \\U: it needs 8 hex digits/],
    ['"ab\\x"', /^2:9 \\x used with no following hex digits/],
    ['"\\U00110000"', /^2:9 \\U00110000 is not a valid universal character name/],
    ["'\\uD800'", /^2:9 \\uD800 is not a valid universal character name/],
  ];
  for (const [lit, want] of cases) {
    const msg = badAt(() => loadProgram(`// x\nint c = ${lit};\n`, { file: 'k.c' }));
    assert.match(msg, want, lit);
  }
  // in the preprocessor: a character constant in #if, an #include name
  assert.match(
    badAt(() => loadProgram("#if '\\u' \n#endif\n", { file: 'k.c' })),
    /^1:5 incomplete universal/,
  );
  assert.match(
    badAt(() => loadProgram('#include "a\\U1"\n', { file: 'k.c' })),
    /^1:10 incomplete universal/,
  );
});

test('escapes: well-formed universal character names and hex escapes keep their values', () => {
  assert.equal(stringValue('"\\u00e9\\U0001F600\\x41\\101"'), '\u00e9\u{1F600}AA');
  assert.equal(stringValue('"\\U0010FFFF"'), String.fromCharCode(0xdbff, 0xdfff));
});

// Fuzz campaign (tensix-asm, seed 2, input 344662): `UR'…'` was lexed as one character literal with
// a raw prefix, which the parser's literal pattern does not accept (TypeError on a null match,
// Internal). R prefixes string literals only.
test("lex: R, UR, LR, uR, u8R before a quote ' are identifiers; the character literal follows", () => {
  for (const p of ['R', 'UR', 'LR', 'uR', 'u8R']) {
    const toks = lex(`${p}'x' L'y' u8'z'`, 'f.c');
    assert.deepEqual(
      toks.map((t) => [t.kind, t.text, t.col]),
      [
        ['ident', p, 1],
        ['char', "'x'", p.length + 1],
        ['char', "L'y'", p.length + 5],
        ['char', "u8'z'", p.length + 10],
        ['eof', '', 1],
      ],
    );
  }
  // through the parser: BadInput at the character literal that follows the identifier, not Internal
  assert.match(
    badAt(() => loadProgram("int c = UR'x';\n", { file: 'k.c' })),
    /^1:11 expected ';'/,
  );
});
