import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Budget } from '../budget.ts';
import { AxsimError } from '../errors.ts';
import { IncludeCache } from './include-cache.ts';
import type { Token } from './lex.ts';
import { type PreprocessOptions, preprocess } from './preprocess.ts';

// Everything a preprocessing run produces, in comparable form (tokens with every field, hide sets
// sorted; macros by content; warnings and the error by their formatted text).
function outcome(src: string, opts: PreprocessOptions): unknown {
  try {
    const r = preprocess(src, 'main.c', opts);
    const tok = (t: Token) => ({ ...t, hide: t.hide ? [...t.hide].sort() : undefined });
    return {
      tokens: r.tokens.map(tok),
      files: r.files,
      warnings: r.warnings.map((w) => w.format()),
      macros: [...r.macros].map(([k, m]) => [k, m.params, m.variadic, m.where, m.body.map(tok), !!m.builtin]),
    };
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    return { error: e.format() };
  }
}

const HEADERS: Record<string, string> = {
  'inc/base.h': '#pragma once\n#define TWICE(x) ((x) + (x))\ntypedef int base_t;\n',
  'inc/mid.h': [
    '#pragma once',
    '#include "base.h"',
    '#ifdef WIDE',
    'typedef long mid_t;',
    '#else',
    'typedef short mid_t;',
    '#endif',
    '#if __has_include("opt.h")',
    'int has_opt = OPT;',
    '#endif',
    '#ifndef QUIET',
    '#warning mid.h: not quiet',
    '#endif',
    'int m = TWICE(LEVEL) + __LINE__;',
    'const char *f = __FILE__;',
    '',
  ].join('\n'),
  'inc/guarded.h': '#ifndef GUARDED_H\n#define GUARDED_H\nint g = TWICE(2);\n#endif\n',
  'inc/bad.h': '#ifdef BREAK\n#error bad.h is broken\n#endif\nint ok_bad;\n',
  'inc/counter.h': 'int c = __COUNTER__;\n',
  'inc/guarded2.h': '#ifndef GUARDED_H\n#define GUARDED_H\nint g = TWICE(2);\n#endif\n',
  'inc/plain.h': '#pragma once\nint plain;\n',
  'inc/useplain.h': '#include "plain.h"\nint up;\n',
  // P expands to Q expands to 1: two expansions counted against the expression-size limit
  'inc/pq.h': '#define P Q\n#define Q 1\nint z = P\n', // (no ';': the count is 2 at its end)
  'inc/ifp.h': '#if P\n#endif\nint w;\n',
  'inc/q.h': 'int q;\n',
  'inc/w.h': '#include "q.h"\n',
};

const A = '#define LEVEL 1\n#include "inc/mid.h"\n#include "inc/guarded.h"\nint main(void) { return m; }\n';
const B =
  '#define WIDE\n#define LEVEL 2\n#include "inc/mid.h"\n#include "inc/guarded.h"\n#include "inc/mid.h"\n';
const C =
  '#define QUIET\n#define LEVEL 3\n#include "inc/guarded.h"\n#include "inc/mid.h"\n#include "inc/bad.h"\n';
const D = '#define BREAK\n#define LEVEL 1\n#include "inc/mid.h"\n#include "inc/bad.h"\n';
const E = 'int c0 = __COUNTER__;\n#include "inc/counter.h"\n#define LEVEL 4\n#include "inc/mid.h"\n';
const E2 = 'int c0 = __COUNTER__ + __COUNTER__;\n#include "inc/counter.h"\n';
const G1 = '#define TWICE(x) x\n#include "inc/guarded.h"\n';
const G2 = '#define TWICE(x) x\n#include "inc/guarded2.h"\n'; // same text, another path
const P1 = '#include "inc/useplain.h"\n';
const P2 = '#include "inc/plain.h"\n#include "inc/useplain.h"\n'; // same macros, plain.h already once
// the count of expansions since the last token read from a file continues across an #include line
const X1 = '#include "inc/pq.h"\n#if P\n#endif\n';
const X2 = '#define P Q\n#define Q 1\n#include "inc/ifp.h"\n';
const W1 = '#include "inc/q.h"\n';
const W2 = '#include "inc/w.h"\n'; // q.h one level deeper, in the same state
const X3 = '#define P Q\n#define Q 1\nint a = P\n#include "inc/ifp.h"\n';

test('include cache: runs A, B, A … give exactly what runs without the cache give', () => {
  const cache = new IncludeCache();
  const withOpt = { ...HEADERS, 'inc/opt.h': '#define OPT 7\n' };
  const cases: [string, PreprocessOptions][] = [
    [A, { virtualFiles: HEADERS }],
    [B, { virtualFiles: HEADERS }],
    [A, { virtualFiles: HEADERS }],
    [C, { virtualFiles: HEADERS }],
    [D, { virtualFiles: HEADERS }], // #error in an included file
    [A, { virtualFiles: HEADERS }],
    [A, { virtualFiles: withOpt }], // __has_include now true: a dependency of mid.h changed
    [A, { virtualFiles: HEADERS }],
    [E, { virtualFiles: HEADERS }], // __COUNTER__ inside an include
    [E, { virtualFiles: HEADERS }],
    [E2, { virtualFiles: HEADERS }],
    [G1, { virtualFiles: HEADERS }],
    [G2, { virtualFiles: HEADERS }],
    [P1, { virtualFiles: HEADERS }],
    [P2, { virtualFiles: HEADERS }],
    [X1, { virtualFiles: HEADERS }],
    [X1, { virtualFiles: HEADERS, budget: new Budget({ exprSize: 3 }) }],
    [X1, { virtualFiles: HEADERS, budget: new Budget({ exprSize: 3 }) }],
    [X1, { virtualFiles: HEADERS, maxExpansions: 3 }], // 2 in pq.h, 2 more in the #if after it
    [X1, { virtualFiles: HEADERS, maxExpansions: 3 }],
    [X1, { virtualFiles: HEADERS, maxExpansions: 1 }], // a hit would pass the limit inside pq.h
    [W1, { virtualFiles: HEADERS, budget: new Budget({ depth: 2 }) }],
    [W2, { virtualFiles: HEADERS, budget: new Budget({ depth: 2 }) }],
    [X2, { virtualFiles: HEADERS, budget: new Budget({ exprSize: 3 }) }],
    [X3, { virtualFiles: HEADERS, budget: new Budget({ exprSize: 3 }) }],
    [A, { virtualFiles: HEADERS, defines: { QUIET: 1 } }],
    [A, { virtualFiles: { ...HEADERS, 'inc/base.h': '#pragma once\n#define TWICE(x) (2 * (x))\n' } }],
    [B, { virtualFiles: HEADERS, budget: new Budget({ depth: 2 }) }], // include depth 3 > 2
    [B, { virtualFiles: HEADERS }],
    [A, { virtualFiles: HEADERS }],
  ];
  const seen = new Set<string>();
  for (const [k, [src, opts]] of cases.entries()) {
    const cached = outcome(src, { ...opts, includeCache: cache });
    const plain = outcome(src, opts);
    assert.deepEqual(cached, plain, `case ${k}`);
    seen.add(JSON.stringify(plain));
  }
  // the cases really differ (a cache that replayed the first run would fail above)
  assert.equal(seen.size, 22);
  const s = cache.stats();
  assert.ok(s.hits > 5, `hits ${s.hits}`);
  assert.ok(s.misses > 5, `misses ${s.misses}`);
});

test('include cache: a header changed on disk between runs is read again', () => {
  const cache = new IncludeCache();
  const disk: Record<string, string> = { '/d/h.h': '#define V 1\nint v = V;\n' };
  const opts = { includeDirs: ['/d'], readFile: (p: string) => disk[p], includeCache: cache };
  const src = '#include <h.h>\n#include "x.h"\n';
  const vf = { 'x.h': '#include <h.h>\nint x = V;\n' };
  const first = outcome(src, { ...opts, virtualFiles: vf });
  disk['/d/h.h'] = '#define V 2\nint v = V;\n';
  const second = outcome(src, { ...opts, virtualFiles: vf });
  assert.notDeepEqual(first, second);
  assert.deepEqual(
    second,
    outcome(src, { includeDirs: ['/d'], readFile: (p: string) => disk[p], virtualFiles: vf }),
  );
});

test('include cache: cached tokens are frozen and the parser-facing token array is the run’s own', () => {
  const cache = new IncludeCache();
  const r1 = preprocess(A, 'main.c', { virtualFiles: HEADERS, includeCache: cache });
  const r2 = preprocess(A, 'main.c', { virtualFiles: HEADERS, includeCache: cache });
  assert.notEqual(r1.tokens, r2.tokens);
  const shared = r2.tokens.find((t) => t.file === 'inc/mid.h')!;
  assert.ok(Object.isFrozen(shared));
  assert.throws(() => {
    (shared as { text: string }).text = 'x';
  }, TypeError);
});

test('include cache: bounded (least recently used entries go past maxTokens) and still exact', () => {
  const cache = new IncludeCache(40);
  for (let level = 0; level < 20; level++) {
    const src = `#define LEVEL ${level}\n#include "inc/mid.h"\n`;
    assert.deepEqual(
      outcome(src, { virtualFiles: HEADERS, includeCache: cache }),
      outcome(src, { virtualFiles: HEADERS }),
    );
    assert.ok(cache.stats().tokens <= 40);
  }
  // least recently used first: L0, L1, L0 again (a hit), then L2 needs room — L1 goes, L0 stays
  const run = (c: IncludeCache, level: number) =>
    preprocess(`#define LEVEL ${level}\n#include "inc/mid.h"\n`, 'main.c', {
      virtualFiles: HEADERS,
      includeCache: c,
    });
  const probe = new IncludeCache();
  run(probe, 0);
  const one = probe.stats().tokens; // what one level's entries hold (mid.h and the base.h inside it)
  const lru = new IncludeCache(2 * one + 1);
  for (const level of [0, 1, 0, 2]) run(lru, level);
  const hits = lru.stats().hits;
  run(lru, 0);
  assert.equal(lru.stats().hits, hits + 1, 'level 0 was used last but one: still cached');
  run(lru, 1);
  assert.equal(lru.stats().hits, hits + 1, 'level 1 was the least recently used: evicted');
});

test('include cache: a header of more tokens than one block of the replay (16384) replays whole and in order', () => {
  // `int v [ ] = {` (6 tokens), `k ,` twelve thousand times, `} ;`
  const big = `int v[] = {${Array.from({ length: 12000 }, (_, k) => `${k},`).join('')}};\n`;
  const vf = { 'big.h': big };
  const src = 'int a;\n#include "big.h"\nint b;\n';
  const cache = new IncludeCache();
  const plain = outcome(src, { virtualFiles: vf }) as { tokens: Token[] };
  assert.equal(plain.tokens.length, 3 + 6 + 24000 + 2 + 3 + 1); // `int a ;`, big.h, `int b ;`, end of file
  assert.deepEqual(outcome(src, { virtualFiles: vf, includeCache: cache }), plain);
  assert.deepEqual(outcome(src, { virtualFiles: vf, includeCache: cache }), plain);
  assert.equal(cache.stats().hits, 1);
});
