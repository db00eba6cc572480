import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AMX_VIRTUAL_FILES } from '../amx/c/header.ts';
import { AxsimError } from '../errors.ts';
import type { Value } from './eval.ts';
import { loadProgram } from './index.ts';

const load = (src: string, compile: boolean, model: 'ilp32' | 'lp64' = 'lp64') => {
  const p = loadProgram(src, { file: 'k.c', model });
  if (!compile) (p.ev as { jit: unknown }).jit = undefined;
  return p.ev;
};
const compiled = (src: string, name: string, model: 'ilp32' | 'lp64' = 'lp64') => {
  const ev = load(src, true, model);
  const f = ev.functionDecls().find((d) => d.name === name)!.decl;
  return ev.jit!.get(f) !== undefined;
};
/** The result (or the error, as category, location and message) of `entry` in one mode. */
const outcome = (src: string, entry: string, compile: boolean, model: 'ilp32' | 'lp64' = 'lp64') => {
  try {
    const v: Value = load(src, compile, model).callEntry(entry);
    if (v.k === 'int') return `int ${v.v}`;
    if (v.k === 'float') return `float ${Object.is(v.v, -0) ? '-0' : v.v} ${v.nan ?? ''}`;
    if (v.k === 'ptr') return `ptr ${v.addr}`;
    return v.k;
  } catch (e) {
    if (!(e instanceof AxsimError)) throw e;
    return `${e.category} ${e.location?.line}:${e.location?.col} ${e.message}`;
  }
};

const ARITH = `
typedef unsigned long long u64; typedef long long i64;
u64 ops64(u64 a, u64 b, int s) {
  u64 r = a + b; r ^= a - b; r += a * b; r ^= a << (s & 63); r += a >> (s & 63);
  i64 x = (i64)a; r ^= (u64)(x >> (s & 63)); r += (x < (i64)b) ? 3 : 5; r ^= ~a; r += -b;
  if (b != 0) { r += a / b; r ^= a % b; }
  if ((i64)b != 0 && !((i64)b == -1 && x == (-9223372036854775807LL - 1))) { r += (u64)(x / (i64)b); r ^= (u64)(x % (i64)b); }
  return r;
}
int ops32(int a, int b, unsigned c) {
  int r = a + b; r ^= a - b; r += a * b; r ^= a << (c & 31); r += a >> (c & 31);
  unsigned u = (unsigned)a; r ^= (int)(u >> (c & 31)); r += u < c; r ^= ~a; r += -b;
  if (b != 0 && !(b == -1 && a == -2147483647 - 1)) { r += a / b; r ^= a % b; }
  if (c != 0) { r += (int)(u / c); r ^= (int)(u % c); }
  short h = (short)a; unsigned char q = (unsigned char)b; signed char sc = (signed char)c;
  r += h * q - sc; r += (a > b) + (a <= (int)c) * 2 + (a == b) * 4;
  return r;
}
double fl(float a, double b, int i) {
  float x = a * a + (float)i; double y = b / 3.0 - x; x -= (float)y; y *= (double)x;
  float z = (float)(long long)i; return y + z + (x < y) + (a != a);
}
long long conv(double d) { long long r = (long long)d; unsigned u = (unsigned)(d < 0 ? -d : d); return r * 3 + u; }
`;
/** Shapes the compiler specialises (operators with a constant or a local operand, folded calls). */
const SPEC = `
typedef unsigned long long u64; typedef long long i64;
static inline u64 pack(u64 a, u64 b, u64 c) { return (a & 0x1ff) | ((b & 0x1ff) << 10) | (c << 20); }
static inline int shifty(int n) { return 1 << n; }
u64 spec64(u64 a, u64 b) {
  u64 r = a | 0x123456789abcdefull; r ^= b & 0xff00ff00ff00ff00ull; r += a ^ 0x5555ull; r -= b + 7; r ^= a * 3;
  r += a - 0x100000000ull; r ^= a << 5; r += a << 40; r ^= a >> 7; r += a >> 40; r ^= b << 0; r += b | 0;
  r ^= (a | b) + (a & b) + (a ^ b) + a * b - (a - b); r += (a == b) + (a != b) * 2;
  r ^= (r | a) & (r & b); r += (u64)(i64)a;
  r ^= pack(1, 2, 3) | pack(0x3ff, 0x3ff, 0xffffffffffull); r += pack(a, b, 9); r += shifty(4);
  u64 first = a == 0 ? 1ull << 27 : 0; r ^= pack(0, 64, 2) | first;
  return r;
}
int spec32(int a, int b, unsigned c, unsigned d) {
  int r = a + 5; r ^= a * 7; r += a - 9; r ^= a & 0xff0; r += a | 0x1001; r ^= a << 3; r += a >> 2;
  unsigned u = c + 5u; u ^= c * 7u; u += c - 9u; u ^= c & 0xff0u; u += c | 0x1001u; u ^= c << 3; u += c >> 2;
  r += (a < 3) + (a == 4) * 2 + (a != 5) * 4 + (a < b) * 8 + (c < d) * 16 + (c < 7u) * 32;
  r += a + b; u += c + d; r ^= a * b; u ^= c * d; r += (a & b) ^ (a | b); u += (c - d) ^ (c & d) ^ (c | d);
  r += (a == b) + (a != b) + (c == d) + (r < a) + ((a + b) < (c < d));
  int i = b; r += (i + a) * b; r += (a + 1) + i; r += (a - b) < (i * 3);
  return r ^ (int)u;
}
long long ptrs(int k) {
  float *p = (float *)0x10000; float *q = p + 3 - 1; float *w = q + k; float *v = w - 5;
  return (q - p) * 1000 + (v - p);
}
`;
const i64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const i32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

describe('compile: closures for plain scalar C', () => {
  it('compiles the sgemm example and leaves C it does not cover to the tree walker', () => {
    const src = readFileSync(new URL('../../examples/amx/c/sgemm_fma32.c', import.meta.url), 'utf8');
    const p = loadProgram(src, {
      file: 'sgemm.c',
      model: 'lp64',
      virtualFiles: { ...AMX_VIRTUAL_FILES },
      host: { builtins: new Map([['__axsim_amx', () => undefined]]) },
    });
    for (const name of ['sgemm', 'sgemm_ref', 'fma32_operand']) {
      const f = p.ev.functionDecls().find((d) => d.name === name)!.decl;
      assert.ok(p.ev.jit!.get(f), name);
    }
    assert.ok(compiled(ARITH, 'ops64') && compiled(ARITH, 'ops32') && compiled(ARITH, 'fl'));
    assert.equal(compiled('int f() { int a[2] = {1, 2}; return a[1]; }', 'f'), false); // arrays
    assert.equal(compiled('int f(int x) { int *p = &x; return *p; }', 'f'), false); // address taken
  });
  it('computes what the tree walker computes (random operands)', () => {
    fc.assert(
      fc.property(u64, u64, fc.integer({ min: 0, max: 200 }), (a, b, s) => {
        const e = `ops64(${a}ull, ${b}ull, ${s})`;
        assert.equal(outcome(ARITH, e, true), outcome(ARITH, e, false));
      }),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(i32, i32, fc.integer({ min: 0, max: 2 ** 32 - 1 }), (a, b, c) => {
        const e = `ops32(${a}, ${b}, ${c}u)`;
        assert.equal(outcome(ARITH, e, true), outcome(ARITH, e, false));
        assert.equal(outcome(ARITH, e, true, 'ilp32'), outcome(ARITH, e, false, 'ilp32'));
      }),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(fc.float({ noNaN: true }), fc.double({ noNaN: true }), i32, (a, b, i) => {
        const e = `fl(${a === 0 && 1 / a < 0 ? '-0.0' : a}f, ${b === 0 && 1 / b < 0 ? '-0.0' : b}, ${i})`;
        if (!Number.isFinite(a) || !Number.isFinite(b)) return;
        assert.equal(outcome(ARITH, e, true), outcome(ARITH, e, false));
      }),
      { numRuns: 60 },
    );
    for (const d of ['0.5', '-7.9', '1e300', '-1e19', '9.2e18', '4294967295.5'])
      assert.equal(outcome(ARITH, `conv(${d})`, true), outcome(ARITH, `conv(${d})`, false), d);
  });
  it('specialised operators and folded calls compute what the tree walker computes', () => {
    assert.ok(compiled(SPEC, 'spec64') && compiled(SPEC, 'spec32') && compiled(SPEC, 'ptrs'));
    const edge64 = fc.oneof(
      u64,
      fc.constantFrom(0n, 1n, (1n << 64n) - 1n, 1n << 63n, 0xffffffffn, 1n << 32n),
    );
    fc.assert(
      fc.property(edge64, edge64, (a, b) => {
        const e = `spec64(${a}ull, ${b}ull)`;
        assert.equal(outcome(SPEC, e, true), outcome(SPEC, e, false));
      }),
      { numRuns: 80 },
    );
    const edge32 = fc.oneof(i32, fc.constantFrom(0, 1, -1, 3, 4, 5, 2 ** 31 - 1, -(2 ** 31)));
    const u32 = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 1, 7, 2 ** 32 - 1));
    fc.assert(
      fc.property(edge32, edge32, u32, u32, (a, b, c, d) => {
        const e = `spec32(${a}, ${b}, ${c}u, ${d}u)`;
        assert.equal(outcome(SPEC, e, true), outcome(SPEC, e, false));
        assert.equal(outcome(SPEC, e, true, 'ilp32'), outcome(SPEC, e, false, 'ilp32'));
      }),
      { numRuns: 80 },
    );
    for (const k of [0, 1, 7, -3]) assert.equal(outcome(SPEC, `ptrs(${k})`, true), `int ${2000 + 2 + k - 5}`);
    // the folded call charges what the call charges
    const steps = (compile: boolean) => {
      const ev = load(SPEC, compile);
      ev.callEntry('spec64(5ull, 9ull)');
      return [ev.budget.steps, ev.budget.loops];
    };
    assert.deepEqual(steps(true), steps(false));
  });
  it('uninitialised locals and ?: arm types agree with the tree walker', () => {
    const src = `int g(int k) { int x; if (k) x = 5; return x; }
int h(void) { return g(1) * 10 + g(0); }
long long loop(int n) { long long s = 0; for (int i = 0; i < n; i++) { long long x; double d; int *p; s += x + (long long)d + (p == 0); x = i; d = i; s += x; } return s; }
int c1(int k) { return (k ? 1ull << 40 : 0) - 1 > 0; }
int c2(int k, unsigned u) { return (k ? 0 : u + 1u) - 1 > 0; }
int c3(int k) { return (k ? -(1 << 3) : ~0u >> 1) < 0; }
int c4(int k) { return (k ? 'a' : 2.5) < 3; }`;
    assert.ok(compiled(src, 'g') && compiled(src, 'loop') && compiled(src, 'c1'));
    // a local declared without an initialiser is indeterminate until written (C++ [basic.indet]):
    // reading it is UndefinedBehaviour at the read, in both modes. g(1) writes x first: 5; g(0)
    // reads it unwritten at `return x` (line 1, column 44). In loop, `s += x + …` reads x (the
    // right operand is evaluated first) in the first iteration, before `x = i`; a local declared
    // in a loop body is a new object each iteration, so even a later iteration reads it unwritten.
    const line3 = src.split('\n')[2]!;
    const ux = (line: number, col: number) =>
      `UndefinedBehaviour ${line}:${col} read of an uninitialised value: 'x'`;
    for (const jit of [true, false]) {
      assert.equal(outcome(src, 'g(1)', jit), 'int 5');
      assert.equal(outcome(src, 'h()', jit), ux(1, 44));
      assert.equal(outcome(src, 'loop(0)', jit), 'int 0');
      assert.equal(outcome(src, 'loop(4)', jit), ux(3, line3.indexOf('s += x') + 6));
    }
    // both arms convert to their common type (C17 6.5.15p5): 0 as unsigned long long, u + 1u, ...
    for (const [e, v] of [
      ['c1(0)', 1],
      ['c1(1)', 1],
      ['c2(0, 0u)', 0],
      ['c2(1, 5u)', 1],
      ['c3(1)', 0],
      ['c3(0)', 0],
      ['c4(1)', 0],
      ['c4(0)', 1],
    ] as const) {
      assert.equal(outcome(src, e, true), `int ${v}`, e);
      assert.equal(outcome(src, e, false), `int ${v}`, e);
    }
  });
  it('64-bit operations equal BigInt arithmetic', () => {
    const src =
      'unsigned long long m(unsigned long long a, unsigned long long b) { return a * b + (a >> 7) - (b << 9); }\n' +
      'long long sh(long long a, int s) { return a >> s; }';
    const mask = (1n << 64n) - 1n;
    fc.assert(
      fc.property(u64, u64, i64, fc.integer({ min: 0, max: 63 }), (a, b, x, s) => {
        assert.equal(
          outcome(src, `m(${a}ull, ${b}ull)`, true),
          `int ${(a * b + (a >> 7n) - (b << 9n)) & mask}`,
        );
        assert.equal(
          outcome(src, `sh((long long)${BigInt.asUintN(64, x)}ull, ${s})`, true),
          `int ${x >> BigInt(s)}`,
        );
      }),
      { numRuns: 100 },
    );
  });
  it('reports errors at the same place as the tree walker', () => {
    const src = `int d(int a, int b) {\n  int q = 0;\n  for (int i = 0; i < 3; i++)\n    q += a / (b - i);\n  return q;\n}
int s(int a, int n) { return a << n; }
int *np(void) { return (int *)0; }
int ld(int k) { int *p = np(); return p[k]; }
int noret(int x) { if (x) return 1; }
unsigned char f2u(float f) { return (unsigned char)f; }
int rec(int n) { return n ? rec(n - 1) + 1 : 0; }
int unmapped(void) { volatile unsigned char *p = (volatile unsigned char *)0x30010; return p[0]; }`;
    for (const e of [
      'd(5, 2)',
      's(1, 33)',
      's(1, -1)',
      'ld(3)',
      'noret(0)',
      'noret(2)',
      'f2u(300.0f)',
      'f2u(-1.5f)',
      'rec(20)',
    ])
      assert.equal(outcome(src, e, true), outcome(src, e, false), e);
    assert.match(outcome(src, 'd(5, 2)', true), /^UndefinedBehaviour 4:12 division by zero/);
    assert.match(outcome(src, 'unmapped()', false), /^UndefinedBehaviour 13:93 access to unmapped memory/);
  });
  it('charges the same steps and loop iterations', () => {
    const src =
      'int f(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i & 1) continue; s += i; } while (n > 0) n--; return s; }';
    const steps = (compile: boolean) => {
      const ev = load(src, compile);
      ev.callEntry('f(50)');
      return [ev.budget.steps, ev.budget.loops];
    };
    assert.deepEqual(steps(true), steps(false));
  });
});
