import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import { IncludeCache } from './include-cache.ts';
import { loadProgram } from './index.ts';
import { ParseMemo } from './parse-memo.ts';

// Headers whose parse depends on what the program declared before including them: whether T and
// Foo are types, W a template, N a macro, which namespace they are included in.
const HEADERS: Record<string, string> = {
  'env.h': [
    '#pragma once',
    '#ifndef N',
    '#define N 1',
    '#endif',
    'namespace env {',
    'template <typename A> struct Box { A a; A get() const { return a; } };',
    'typedef unsigned int U;',
    'constexpr int K = N;',
    'struct Pair { int x; int y; int sum() const { return x + y + K; } };',
    'inline int twice(int v) { return v * 2; }',
    'int counter = 0;',
    'inline int bump() { counter += 1; return counter; }',
    '}',
    '',
  ].join('\n'),
  // a declaration or an expression statement (T a type or a variable), a template or a comparison,
  // a member defined out of its class (Foo a record or not), `>>` closing two argument lists
  'ambig.h': [
    'T * p;',
    'W < int > w;',
    'int Foo::g() { return k; }',
    'env::Box<env::Box<int>> bb;',
    'int after = sizeof(bb);',
    '',
  ].join('\n'),
  // no include guard: included twice, in two namespaces
  'twice.h':
    'struct Q { int q = 2; int get() { return q + env::twice(q); } };\ninline int qv() { Q x; return x.get(); }\n',
};

const PREFIXES = [
  '',
  'typedef int T;\n',
  'int T = 3;\nint p = 2;\n',
  'struct T;\n',
  'template <typename X> struct W { X v; };\n',
  'int W = 5;\nint w = 1;\n',
  '#define N 4\n',
  'struct Foo { int g(); int k = 5; };\n',
  'namespace env { typedef int Extra; }\n',
  'template <int I> struct Box { int b = I; };\n',
  '#define twice(x) (x)\n',
  'typedef int Pair;\n',
  'namespace env { int counter2 = 9; }\n',
  'int k = 11;\n',
  'namespace Foo { int k = 13; }\n',
];

const BODIES = [
  'int main() { return env::twice(env::K); }',
  'int main() { env::Pair q{1, 2}; return q.sum(); }',
  'int main() { env::Box<int> b{6}; return b.get() + env::bump() + env::bump(); }',
  'int main() { return qv() + inner::qv(); }',
  'int main() { Foo f; return f.g(); }',
  'int main() { return after; }',
  'int main() { env::counter = 40; return env::bump(); }',
  'int main() { return T; }',
  'int main() { return Foo::g(); }',
];

const INCLUDES = [
  '#include "env.h"\n',
  '#include "env.h"\n#include "ambig.h"\n',
  '#include "env.h"\n#include "twice.h"\nnamespace inner {\n#include "twice.h"\n}\n',
  'namespace outer {\n#include "env.h"\n}\nusing namespace outer;\n',
];

type Spec = { prefix: number[]; include: number; body: number; mode: 'run' | 'ast' };

const specOf = fc.record({
  prefix: fc.array(fc.nat(PREFIXES.length - 1), { maxLength: 3 }),
  include: fc.nat(INCLUDES.length - 1),
  body: fc.nat(BODIES.length - 1),
  mode: fc.constantFrom('run' as const, 'ast' as const),
});

const source = (s: Spec) =>
  `${s.prefix.map((k) => PREFIXES[k]).join('')}${INCLUDES[s.include]}${BODIES[s.body]}\n`;

const errorText = (e: unknown) => {
  assert.ok(e instanceof AxsimError, String(e));
  return e.format();
};

/** The syntax tree as JSON (bigints as text; a member's owner, set by the evaluator, by name). */
const json = (x: unknown) =>
  JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? `${v}n` : k === 'owner' ? `owner ${v.name}` : v));

/**
 * A program's outcome: `run` evaluates it (its main's value or the error), `ast` parses every
 * function body and gives the whole syntax tree (with positions and body token ranges).
 */
function outcome(s: Spec, cache?: { inc: IncludeCache; memo: ParseMemo }): string {
  try {
    const prog = loadProgram(source(s), {
      file: 'main.cc',
      virtualFiles: HEADERS,
      script: true,
      ...(cache ? { includeCache: cache.inc, parseMemo: cache.memo } : {}),
    });
    if (s.mode === 'ast') {
      const bodies = prog.parser.lazy.map((f) => {
        try {
          return json(prog.parser.parseBody(f));
        } catch (e) {
          return errorText(e);
        }
      });
      return json({ decls: prog.tu.decls, bodies });
    }
    prog.ev.runTopLevel();
    const v = prog.ev.callEntry('main');
    return v.k === 'int' ? `value ${v.v}` : `value of kind ${v.k}`;
  } catch (e) {
    return errorText(e);
  }
}

test('parse memo: programs in any order parse and run exactly as without the memo (property)', () => {
  let hits = 0;
  const outcomes = new Set<string>();
  fc.assert(
    fc.property(fc.array(specOf, { minLength: 2, maxLength: 8 }), (specs) => {
      const cache = { inc: new IncludeCache(), memo: new ParseMemo() };
      // each program twice: the second time after the others put their states in the memo
      for (const s of [...specs, ...specs]) {
        const plain = outcome(s);
        outcomes.add(plain.slice(0, 40));
        assert.equal(outcome(s, cache), plain, source(s));
      }
      hits += cache.memo.hits;
    }),
    { numRuns: 40, seed: 18 },
  );
  // the memo was used, and the programs differ (values, errors, trees)
  assert.ok(hits > 100, `hits ${hits}`);
  assert.ok(outcomes.size > 10, [...outcomes].join('\n'));
});

test('parse memo: a replay gives each run its own function declarations (the evaluator annotates them)', () => {
  const cache = { inc: new IncludeCache(), memo: new ParseMemo() };
  // with Foo declared first, ambig.h's `int Foo::g() { return k; }` is Foo's method (k its member);
  // without, a free function named Foo::g (k the global): the owner the evaluator gave the
  // declaration in the first run must not reach the second
  const withFoo: Spec = { prefix: [7, 1, 4], include: 1, body: 4, mode: 'run' };
  const withoutFoo: Spec = { prefix: [13, 14, 1, 4], include: 1, body: 8, mode: 'run' };
  const a = outcome(withFoo, cache);
  const b = outcome(withoutFoo, cache);
  assert.equal(a, 'value 5');
  assert.equal(b, 'value 11');
  assert.equal(b, outcome(withoutFoo));
  assert.equal(outcome(withFoo, cache), 'value 5');
  // env.h's namespace, recorded once, replayed in the later runs
  assert.ok(cache.memo.hits >= 2, JSON.stringify(cache.memo.stats()));
});

test('parse memo: the names a recorded parse asked about decide whether it replays', () => {
  const cache = { inc: new IncludeCache(), memo: new ParseMemo() };
  // `T * p;` is a declaration when T is a type, else an expression statement
  const asType: Spec = { prefix: [1, 4], include: 1, body: 5, mode: 'ast' };
  const asVar: Spec = { prefix: [2, 5], include: 1, body: 5, mode: 'ast' };
  const t1 = outcome(asType, cache);
  const v1 = outcome(asVar, cache);
  assert.notEqual(t1, v1);
  assert.equal(t1, outcome(asType));
  assert.equal(v1, outcome(asVar));
  assert.match(t1, /"kind":"var","name":"p"/);
  assert.match(v1, /"kind":"binary","op":"\*"/);
  assert.equal(outcome(asType, cache), t1);
  assert.equal(outcome(asVar, cache), v1);
});

test('parse memo: bounded (least recently used entries go past maxTokens) and still exact', () => {
  // env.h's namespace is 96 tokens: one entry at a time
  const cache = { inc: new IncludeCache(), memo: new ParseMemo(120) };
  const specs: Spec[] = [0, 1, 2, 3].map((include) => ({ prefix: [], include, body: 0, mode: 'ast' }));
  for (const s of [...specs, ...specs]) assert.equal(outcome(s, cache), outcome(s));
  const st = cache.memo.stats();
  assert.ok(st.tokens <= 120, JSON.stringify(st));
  assert.ok(st.hits > 0, JSON.stringify(st));
});
