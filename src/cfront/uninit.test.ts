/**
 * Reads of automatic storage never written (docs/cfront.md "Uninitialised reads"). Each expected
 * outcome follows from the C++ rules by hand: an object of automatic storage duration declared
 * without an initialiser has an indeterminate value ([dcl.init]/12, [basic.indet]), and so do the
 * members a constructor leaves alone; static storage is zero-initialised first ([basic.start.static]);
 * `T x{}` / `= {}` value-initialise, aggregate initialisation zero-initialises the members it is not
 * given ([dcl.init.aggr]/5); copies copy the bytes as they are. Reading an indeterminate value is
 * UndefinedBehaviour at the read (file:line:col), in the tree walker and in compiled functions alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import { loadProgram } from './index.ts';

/** The result, or the error as `UB line:col message | hint`, of `entry` with or without the compiler. */
function outcome(src: string, entry: string, jit: boolean): string {
  const p = loadProgram(src, { file: 'k.cpp', model: 'lp64' });
  if (!jit) (p.ev as { jit: unknown }).jit = undefined;
  try {
    const v = p.ev.callEntry(entry);
    if (v.k === 'int') return `int ${v.v}`;
    if (v.k === 'float') return `float ${v.v}`;
    return v.k;
  } catch (e) {
    if (!(e instanceof AxsimError)) throw e;
    return `${e.category} ${e.location?.file}:${e.location?.line}:${e.location?.col} ${e.message} | ${e.hint}`;
  }
}

/** Both modes give `want` (an `int N`, or the start of an error outcome). */
function both(src: string, entry: string, want: string): void {
  for (const jit of [false, true]) {
    const got = outcome(src, entry, jit);
    assert.ok(
      got === want || (want.startsWith('UndefinedBehaviour') && got.startsWith(want)),
      `${entry} jit=${jit}: ${got}`,
    );
  }
}

/** 1-based column of the `k`-th occurrence of `needle` in line `line` (1-based) of `src`. */
function col(src: string, line: number, needle: string, k = 1): number {
  const text = src.split('\n')[line - 1]!;
  let i = -1;
  for (let j = 0; j < k; j++) i = text.indexOf(needle, i + 1);
  assert.ok(i >= 0, `${needle} on line ${line}`);
  return i + 1;
}

/** The error at the read: a member access is located at its `.`, an element access at its `[`. */
const ub = (line: number, c: number, what: string, copied = false) =>
  `UndefinedBehaviour k.cpp:${line}:${c} read of an uninitialised value${copied ? ' copied from' : ':'} '${what}'`;

describe('uninitialised reads', () => {
  it('a scalar local read before any write is an error at the read, naming the declaration', () => {
    const src = ['int f(int k) {', '  int x;', '  if (k) x = 5;', '  return x + 1;', '}'].join('\n');
    both(src, 'f(1)', 'int 6');
    both(src, 'f(0)', `${ub(4, col(src, 4, 'x'), 'x')} | 'x' is declared at k.cpp:2 without an initialiser`);
  });

  it('globals and statics are zero-initialised; initialisers and value-initialisation write every byte', () => {
    const src = [
      'struct P { int x; int y; };',
      'int g; int ga[3]; P gp;',
      'int f() {',
      '  static int s; static int sa[2]; static P sp;',
      '  int a{}; int b = {}; int c[4] = {7}; P p = {1}; P q{}; P r = {};',
      '  return g + ga[2] + gp.y + s + sa[1] + sp.x + a + b + c[3] + c[0] + p.y + p.x + q.y + r.x;',
      '}',
    ].join('\n');
    // 0s everywhere but c[0] = 7 and p.x = 1
    both(src, 'f()', 'int 8');
  });

  it('memset and memcpy write; a copy of a partly written struct carries the unwritten bytes along', () => {
    const src = [
      'struct S { int a; int b; };',
      'int f(int k) {',
      '  S s; S z; int w[4];',
      '  s.a = 3;',
      '  memset(&z, 0, sizeof z); memset(w, 1, sizeof w);',
      '  S t = s; S u; u = t; S m; memcpy(&m, &u, sizeof m);',
      '  if (k == 0) return u.a + m.a + z.b + (w[3] & 0xff);',
      '  if (k == 1) return u.b;',
      '  return m.b;',
      '}',
    ].join('\n');
    both(src, 'f(0)', 'int 7');
    // u and m are copies of s, whose b was never written: the copy itself is fine, the read is not
    both(src, 'f(1)', ub(8, col(src, 8, 'u.b') + 1, 's.b', true));
    both(src, 'f(2)', ub(9, col(src, 9, 'm.b') + 1, 's.b', true));
  });

  it('passing by value reads the argument; a struct passed by value keeps its unwritten members', () => {
    const src = [
      'struct S { int a; int b; };',
      'int id(int v) { return v; }',
      'int ga(S v) { return v.a; }',
      'int gb(S v) { return v.b; }',
      'int f(int k) {',
      '  S s; int x;',
      '  s.a = 1;',
      '  if (k == 0) return ga(s);',
      '  if (k == 1) return gb(s);',
      '  return id(x);',
      '}',
    ].join('\n');
    both(src, 'f(0)', 'int 1');
    both(src, 'f(1)', ub(4, col(src, 4, 'v.b') + 1, 's.b', true));
    // binding x to the by-value parameter is the read: at the argument
    both(src, 'f(2)', ub(10, col(src, 10, 'x'), 'x'));
  });

  it('out-parameters through references and pointers are written, not read', () => {
    const src = [
      'void set(int &r, int *p, float &q) { r = 1; *p = 2; q = 0.5f; }',
      'void divmod(int a, int b, int &q, int &r) { q = a / b; r = a % b; }',
      'int f() {',
      '  int a; int b; float c; int q; int r;',
      '  set(a, &b, c); divmod(17, 5, q, r);',
      '  return a * 10 + b + (int)(c * 4) + q * 100 + r * 1000;',
      '}',
    ].join('\n');
    both(src, 'f()', `int ${10 + 2 + 2 + 300 + 2000}`);
  });

  it("a callee reading the caller's unwritten local through a pointer is the error, at the callee's read", () => {
    const src = [
      'int rd(const int *p, int i) { return p[i]; }',
      'void fill(int *p, int n) { for (int i = 0; i < n; i++) p[i] = i + 1; }',
      'int f(int i) {',
      '  int a[4]; int b[4]; int *q = b;',
      '  fill(a, 3); fill(q, 2);',
      '  return i < 4 ? rd(a, i) : rd(q, i - 4);',
      '}',
    ].join('\n');
    both(src, 'f(2)', 'int 3');
    both(src, 'f(3)', ub(1, col(src, 1, 'p[i]') + 1, 'a[3]'));
    // through a pointer variable the compiled fill and rd run (with the compiler on): their stores
    // and loads see the same marks
    both(src, 'f(5)', 'int 2');
    both(src, 'f(6)', ub(1, col(src, 1, 'p[i]') + 1, 'b[2]'));
  });

  it('constructors: what they do not write stays unwritten; members and elements of class type are constructed', () => {
    const src = [
      'struct C { int a; int b; C() : a(4) {} int sum() const { return a + b; } };',
      'struct V { int k; V() { k = 9; } };',
      'struct W { V v; int n; W(int x) : n(x) {} };',
      'struct A { int n; V vs[2]; }; struct D : V { int n; D(int x) : n(x) {} };',
      'int f(int k) {',
      '  C c; W w(1); V vs[3]; A ag; D dd(2); C cv{};',
      '  if (k == 0) return c.a + w.v.k + w.n + vs[2].k + ag.vs[1].k + dd.k + dd.n;',
      '  if (k == 1) return ag.n; if (k == 3) return cv.b;',
      '  return c.sum();',
      '}',
    ].join('\n');
    // C's constructor writes a only; W's runs V's for v and D's runs its base V's; arrays and
    // aggregates construct their V elements
    both(src, 'f(0)', `int ${4 + 9 + 1 + 9 + 9 + 9 + 2}`);
    both(src, 'f(1)', ub(8, col(src, 8, 'ag.n') + 2, 'ag.n'));
    both(src, 'f(2)', ub(1, col(src, 1, 'a + b') + 4, 'c.b'));
    // C() is user-provided, so C cv{} only runs it ([dcl.init]/8): cv.b stays unwritten
    both(src, 'f(3)', ub(8, col(src, 8, 'cv.b') + 2, 'cv.b'));
  });

  it('a struct returned by value keeps its unwritten members; a local in a loop body is new each iteration', () => {
    const src = [
      'struct S { int a; int b; };',
      'S mk() { S s; s.a = 2; return s; }',
      'int f(int k) {',
      '  S t = mk();',
      '  if (k == 0) return t.a;',
      '  if (k == 1) return t.b;',
      '  int sum = 0;',
      '  for (int i = 0; i < 3; i++) {',
      '    int x;',
      '    if (i == 0) x = 1;',
      '    sum += x;',
      '  }',
      '  return sum;',
      '}',
    ].join('\n');
    both(src, 'f(0)', 'int 2');
    both(src, 'f(1)', ub(6, col(src, 6, 't.b') + 1, 's.b', true));
    // i = 0 writes x; i = 1 declares a new x and reads it unwritten
    both(src, 'f(2)', ub(11, col(src, 11, 'x'), 'x'));
  });

  it('partial writes, unions, `(void)x` and `x;` (no read) and SFPI-style handle classes', () => {
    const src = [
      'union U { int i; float f; };',
      'struct H { int k; int v; H() { k = 1; v = -1; } H& operator=(const H& o) { v = o.v + k; k = 1; return *this; } };',
      'int f(int c) {',
      '  U u; u.f = 1.0f;',
      '  int x; (void)x; x;',
      '  H r; H a; a.v = 5;',
      '  if (c) { r = a; } else { r = a; r = a; }',
      '  if (c == 2) { int y; *(char *)&y = 1; return y; }',
      '  return (u.i == 0x3f800000) * 100 + r.v;',
      '}',
    ].join('\n');
    // H() writes both fields, so r declared without an initialiser is fine: operator= reads k = 1
    both(src, 'f(1)', `int ${100 + 6}`);
    both(src, 'f(0)', `int ${100 + 6}`);
    // one byte of y written: reading the int reads three unwritten bytes
    both(src, 'f(2)', ub(8, col(src, 8, 'return y') + 7, 'y'));
  });

  it('random straight-line programs: the first read of an unwritten object is the error, else the sum', () => {
    // objects: scalars v0..v2 (some declared with an initialiser), array a[3], struct s {p, q};
    // the elements of a[] are also written and read through a pointer by the (compiled) put/get.
    // With scalars only, f itself is compiled: both the guard slots and the shadow are tried.
    const all = ['v0', 'v1', 'v2', 'a[0]', 'a[1]', 'a[2]', 's.p', 's.q'];
    const stmt = fc.record({
      write: fc.boolean(),
      t: fc.integer({ min: 0, max: 7 }),
      c: fc.integer({ min: -9, max: 9 }),
      via: fc.boolean(),
    });
    const helpers = 'void put(int *p, int v) { *p = v; } int get(const int *p) { return *p; }';
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.array(stmt, { maxLength: 12 }),
        (aggregates, inits, body) => {
          const targets = aggregates ? all : all.slice(0, 3);
          const lines = ['struct S { int p; int q; };', helpers, 'int f() {', '  int acc = 0;'];
          const val = new Map<string, number>();
          inits.forEach((hasInit, i) => {
            lines.push(hasInit ? `  int v${i} = ${i + 1};` : `  int v${i};`);
            if (hasInit) val.set(`v${i}`, i + 1);
          });
          if (aggregates) lines.push('  int a[3];', '  S s;', '  int *pa = a;');
          let want: string | undefined;
          let acc = 0;
          for (const st of body) {
            const t = targets[st.t % targets.length]!;
            const k = t.startsWith('a[') && st.via ? t[2] : undefined;
            if (st.write) {
              lines.push(k ? `  put(pa + ${k}, ${st.c});` : `  ${t} = ${st.c};`);
              if (!want) val.set(t, st.c);
            } else {
              lines.push(k ? `  acc += get(pa + ${k});` : `  acc += ${t};`);
              if (!want) {
                // `  acc += T;`: T starts at column 10; an element or member read is at its `[` / `.`;
                // through get, at get's `*p` (line 2)
                if (!val.has(t))
                  want = k
                    ? ub(2, helpers.indexOf('*p; }') + 1, t)
                    : ub(lines.length, 10 + Math.max(0, t.search(/[[.]/)), t);
                else acc += val.get(t)!;
              }
            }
          }
          lines.push('  return acc;', '}');
          const src = lines.join('\n');
          if (!aggregates) {
            const ev = loadProgram(src, { file: 'k.cpp', model: 'lp64' }).ev;
            assert.ok(ev.jit!.get(ev.functionDecls().find((d) => d.name === 'f')!.decl));
          }
          both(src, 'f()', want ?? `int ${acc}`);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});
