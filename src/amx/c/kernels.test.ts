/**
 * The project's AMX C kernels (examples/amx/c/*.c) run through the C front end on every
 * generation, against results computed here independently: plain loops over the same inputs, with
 * either data whose sums are exact (so the order of operations cannot matter) or, where rounding
 * matters, an exact BigInt FMA applied in the order the kernel documents.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { NpyDtype } from '../../io/index.ts';
import { explainProgramCycles, FMA_TABLES, MACHINE } from '../perf/index.ts';
import { AMX_GENS } from '../state.ts';
import { type AmxCArray, runAmxC, zeroArray } from './run.ts';

const kernel = (name: string) =>
  readFileSync(new URL(`../../../examples/amx/c/${name}`, import.meta.url), 'utf8');

/** A deterministic generator (64-bit LCG, high bits) so the inputs are reproducible. */
function rng(seed: number): () => number {
  let s = BigInt(seed) | 1n;
  return () => {
    s = BigInt.asUintN(64, s * 6364136223846793005n + 1442695040888963407n);
    return Number(s >> 33n) / 2 ** 31;
  };
}
const smallInt = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

function arr(dtype: NpyDtype, shape: number[], data: ArrayBufferView): AmxCArray {
  return { dtype, shape, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice() };
}
const f32s = (a: AmxCArray) => new Float32Array(a.bytes.buffer, a.bytes.byteOffset, a.bytes.length / 4);

/**
 * Exact f32 fused multiply-add, round to nearest even: a * b + c computed on integers (every
 * finite f32 is m * 2^e with integer m), then rounded once to 24 significant bits (subnormals at
 * 2^-149, overflow to infinity). Finite inputs only.
 */
function fma32Exact(a: number, b: number, c: number): number {
  const split = (x: number): [bigint, number] => {
    if (x === 0) return [0n, 0];
    const dv = new DataView(new ArrayBuffer(4));
    dv.setFloat32(0, x);
    const bits = dv.getUint32(0);
    const e = (bits >>> 23) & 0xff;
    const m = BigInt(e === 0 ? bits & 0x7fffff : (bits & 0x7fffff) | 0x800000);
    return [bits >>> 31 ? -m : m, (e === 0 ? 1 : e) - 150];
  };
  const [ma, ea] = split(a);
  const [mb, eb] = split(b);
  const [mc, ec] = split(c);
  const ep = ea + eb;
  const e0 = Math.min(ep, ec);
  let s = ((ma * mb) << BigInt(ep - e0)) + (mc << BigInt(ec - e0)); // exact: value = s * 2^e0
  if (s === 0n) return Object.is(c, -0) && Object.is(a * b, -0) ? -0 : 0; // exact zero: +0 unless both -0
  const neg = s < 0n;
  if (neg) s = -s;
  // the result has 24 significant bits and an exponent of at least -149 (subnormals)
  const len = s.toString(2).length;
  const shift = Math.max(len - 24, -149 - e0);
  let q: bigint;
  if (shift > 0) {
    const bs = BigInt(shift);
    q = s >> bs;
    const rem = s - (q << bs);
    const half = 1n << (bs - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  } else q = s << BigInt(-shift);
  const v = Number(q) * 2 ** (e0 + shift);
  const r = Math.fround(v); // exact unless it overflows (then infinity, as round-to-nearest gives)
  return neg ? -r : r;
}

test('fma32Exact agrees with hand-computed single roundings', () => {
  // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: even -> 1. (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 needs
  // 25 bits and is a tie: even -> 2^-22. (1 + 2^-23)(1 + 2^-22) - 1 = 2^-22 + 2^-23 + 2^-45 fits.
  assert.equal(fma32Exact(1, 1, 2 ** -24), 1);
  assert.equal(fma32Exact(1 + 2 ** -23, 1 + 2 ** -23, -1), 2 ** -22);
  assert.equal(fma32Exact(1 + 2 ** -23, 1 + 2 ** -22, -1), 2 ** -22 + 2 ** -23 + 2 ** -45);
  // (1 + 2^-23)(2^-24 + 2^-47) + 1 = 1 + 2^-24 + 2^-46 + 2^-70: above the tie -> 1 + 2^-23;
  // (1 + 2^-23)(2^-24 - 2^-47) + 1 = 1 + 2^-24 - 2^-70: below it -> 1
  assert.equal(fma32Exact(1 + 2 ** -23, 2 ** -24 + 2 ** -47, 1), 1 + 2 ** -23);
  assert.equal(fma32Exact(1 + 2 ** -23, 2 ** -24 - 2 ** -47, 1), 1);
  assert.equal(fma32Exact(2 ** -100, 2 ** -60, 0), 2 ** -149 * Math.round(2 ** -160 / 2 ** -149));
  assert.equal(fma32Exact(2 ** 100, 2 ** 100, 0), Number.POSITIVE_INFINITY);
});

test('sgemm_fma32.c: exact data on every generation (64 x 32 x 8, two column tiles)', () => {
  const r = rng(1);
  const [M, N, K] = [64, 32, 8];
  const A = Float32Array.from({ length: K * M }, () => smallInt(r, -12, 12) / 8);
  const B = Float32Array.from({ length: K * N }, () => smallInt(r, -6, 6) / 4);
  const want = new Float32Array(N * M);
  for (let n = 0; n < N; n++)
    for (let m = 0; m < M; m++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += A[k * M + m]! * B[k * N + n]!;
      want[n * M + m] = s; // |s| < 2^8 with steps of 2^-5: exact in f32 and in any order
    }
  for (const gen of AMX_GENS) {
    const res = runAmxC(kernel('sgemm_fma32.c'), {
      file: 'sgemm_fma32.c',
      gen,
      entry: `sgemm(${M}, ${N}, ${K}, A, B, C)`,
      args: { A: arr('f4', [K, M], A), B: arr('f4', [K, N], B), C: zeroArray('f4', [N, M]) },
    });
    assert.deepEqual(f32s(res.arrays.C!), want, gen);
    assert.equal(res.issued, 2 + 2 * (8 * K + 64), gen); // set, clr; per tile K x (4 ld + 4 fma), 64 stz
  }
});

test('sgemm_fma32.c: random f32 data bit-exact against single-rounded FMAs in k order', () => {
  const r = rng(7);
  const [M, N, K] = [32, 32, 24];
  const rnd = () => Math.fround((r() - 0.5) * 2 ** smallInt(r, -6, 6));
  const A = Float32Array.from({ length: K * M }, rnd);
  const B = Float32Array.from({ length: K * N }, rnd);
  const want = new Float32Array(N * M);
  for (let n = 0; n < N; n++)
    for (let m = 0; m < M; m++) {
      let z = fma32Exact(A[m]!, B[n]!, 0); // first step: z = x * y (skip_z), one rounding
      for (let k = 1; k < K; k++) z = fma32Exact(A[k * M + m]!, B[k * N + n]!, z);
      want[n * M + m] = z;
    }
  const res = runAmxC(kernel('sgemm_fma32.c'), {
    gen: 'm2',
    entry: `sgemm(${M}, ${N}, ${K}, A, B, C)`,
    args: { A: arr('f4', [K, M], A), B: arr('f4', [K, N], B), C: zeroArray('f4', [N, M]) },
  });
  const got = f32s(res.arrays.C!);
  let differ = 0;
  for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) differ++;
  assert.equal(differ, 0);
  // and a plain double-precision sum would not have been bit-exact (the test can tell rounding apart)
  let naive = 0;
  for (let i = 0; i < N * M; i++) {
    const n = Math.floor(i / M);
    const m = i % M;
    let s = 0;
    for (let k = 0; k < K; k++) s += A[k * M + m]! * B[k * N + n]!;
    if (Math.fround(s) !== want[i]) naive++;
  }
  assert.ok(naive > 0, 'data too tame to tell orders of rounding apart');
});

test('dgemm_fma64.c: 16 x 16 f64 on every generation', () => {
  const r = rng(2);
  const K = 12;
  const A = Float64Array.from({ length: K * 16 }, () => smallInt(r, -1000, 1000) / 64);
  const B = Float64Array.from({ length: K * 16 }, () => smallInt(r, -1000, 1000) / 32);
  const want = new Float64Array(256);
  for (let n = 0; n < 16; n++)
    for (let m = 0; m < 16; m++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += A[16 * k + m]! * B[16 * k + n]!;
      want[16 * n + m] = s; // integers / 2^11 below 2^24: exact
    }
  for (const gen of AMX_GENS) {
    const res = runAmxC(kernel('dgemm_fma64.c'), {
      gen,
      entry: `dgemm16(${K}, A, B, C)`,
      args: { A: arr('f8', [K, 16], A), B: arr('f8', [K, 16], B), C: zeroArray('f8', [16, 16]) },
    });
    const got = new Float64Array(res.arrays.C!.bytes.buffer);
    assert.deepEqual(got, want, gen);
  }
});

/** f16 bit pattern of a small dyadic value (exact by construction: |v| < 2^11 steps of 2^-4). */
function f16Of(v: number): number {
  if (v === 0) return 0;
  const s = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  const m = a / 2 ** e - 1;
  const mant = m * 1024;
  assert.ok(Number.isInteger(mant) && e >= -14 && e <= 15, `${v} is not an exact normal f16`);
  return s | ((e + 15) << 10) | mant;
}

test('hgemm_fma16.c: f16 inputs, f32 accumulation, on every generation', () => {
  const r = rng(3);
  const K = 16;
  const av = Array.from({ length: K * 32 }, () => smallInt(r, -40, 40) / 16);
  const bv = Array.from({ length: K * 32 }, () => smallInt(r, -40, 40) / 8);
  const A = Uint16Array.from(av, f16Of);
  const B = Uint16Array.from(bv, f16Of);
  const want = new Float32Array(32 * 32);
  for (let n = 0; n < 32; n++)
    for (let m = 0; m < 32; m++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += av[32 * k + m]! * bv[32 * k + n]!;
      want[32 * n + m] = s;
    }
  for (const gen of AMX_GENS) {
    const res = runAmxC(kernel('hgemm_fma16.c'), {
      gen,
      entry: `hgemm32(${K}, A, B, C, Z)`,
      args: {
        A: arr('u2', [K, 32], A),
        B: arr('u2', [K, 32], B),
        C: zeroArray('f4', [32, 32]),
        Z: zeroArray('f4', [64, 16]),
      },
    });
    assert.deepEqual(f32s(res.arrays.C!), want, gen);
  }
});

test('igemm_matint.c: int8 GEMM with matint mac8 (i32 sums), kernel and its C reference', () => {
  const r = rng(4);
  const K = 32;
  const A = Int8Array.from({ length: K * 64 }, () => smallInt(r, -128, 127));
  const B = Int8Array.from({ length: K * 16 }, () => smallInt(r, -128, 127));
  const want = new Int32Array(16 * 64);
  for (let n = 0; n < 16; n++)
    for (let m = 0; m < 64; m++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += A[64 * k + m]! * B[16 * k + n]!;
      want[64 * n + m] = s;
    }
  for (const entry of ['igemm', 'igemm_ref'])
    for (const gen of entry === 'igemm' ? AMX_GENS : (['m1'] as const)) {
      const res = runAmxC(kernel('igemm_matint.c'), {
        gen,
        entry: `${entry}(${K}, A, B, C, Y, Z)`,
        args: {
          A: arr('i1', [K, 64], A),
          B: arr('i1', [K, 16], B),
          C: zeroArray('i4', [16, 64]),
          Y: zeroArray('i1', [64]),
          Z: zeroArray('i4', [64, 16]),
        },
      });
      assert.deepEqual(new Int32Array(res.arrays.C!.bytes.buffer), want, `${entry} ${gen}`);
    }
});

test('lut_genlut.c: 16-entry table lookup with genlut and extrh, on every generation', () => {
  const r = rng(5);
  const groups = 10;
  const table = Float32Array.from({ length: 16 }, () => Math.fround(r() * 100 - 50));
  const idx = Uint8Array.from({ length: 8 * groups + 56 }, () => smallInt(r, 0, 255));
  const want = new Float32Array(16 * groups);
  for (let g = 0; g < groups; g++)
    for (let t = 0; t < 16; t++) want[16 * g + t] = table[(idx[8 * g + (t >> 1)]! >> (4 * (t & 1))) & 15]!;
  for (const gen of AMX_GENS) {
    const res = runAmxC(kernel('lut_genlut.c'), {
      gen,
      entry: `lut16(${groups}, T, I, O)`,
      args: { T: arr('f4', [16], table), I: arr('u1', [idx.length], idx), O: zeroArray('f4', [groups, 16]) },
    });
    assert.deepEqual(f32s(res.arrays.O!), want, gen);
  }
});

test('blis_ukr.c: K loop by 4 plus remainder, beta 0/1, full tiles and edges, row and column strides', () => {
  const r = rng(6);
  const cases = [
    { m: 32, n: 32, k: 7, beta: 0, rs: 1, cs: 32 },
    { m: 32, n: 32, k: 9, beta: 1, rs: 1, cs: 40 },
    { m: 20, n: 13, k: 5, beta: 1, rs: 1, cs: 24 },
    { m: 32, n: 32, k: 4, beta: 1, rs: 36, cs: 1 },
    { m: 7, n: 31, k: 1, beta: 0, rs: 31, cs: 1 },
  ];
  for (const [ci, c] of cases.entries()) {
    const a = Float32Array.from({ length: c.k * 32 }, () => smallInt(r, -16, 16) / 16);
    const b = Float32Array.from({ length: c.k * 32 }, () => smallInt(r, -16, 16) / 8);
    const size = Math.max((c.m - 1) * c.rs + (c.n - 1) * c.cs + 1, 1);
    const c0 = Float32Array.from({ length: size }, () => smallInt(r, -64, 64) / 4);
    const want = c0.slice();
    for (let j = 0; j < c.n; j++)
      for (let i = 0; i < c.m; i++) {
        let s = 0;
        for (let p = 0; p < c.k; p++) s += a[32 * p + i]! * b[32 * p + j]!;
        want[i * c.rs + j * c.cs] = c.beta === 1 ? c0[i * c.rs + j * c.cs]! + s : s; // exact
      }
    for (const entry of ['bli_sgemm_axsim_32x32', 'bli_sgemm_ref_32x32'])
      for (const gen of entry === 'bli_sgemm_ref_32x32' ? (['m1'] as const) : AMX_GENS) {
        const res = runAmxC(kernel('blis_ukr.c'), {
          gen,
          entry: `${entry}(${c.m}, ${c.n}, ${c.k}, ONE, A, B, BETA, C, ${c.rs}, ${c.cs}, CT)`,
          args: {
            ONE: arr('f4', [1], new Float32Array([1])),
            BETA: arr('f4', [1], new Float32Array([c.beta])),
            A: arr('f4', [c.k, 32], a),
            B: arr('f4', [c.k, 32], b),
            C: arr('f4', [size], c0),
            CT: zeroArray('f4', [32, 32]),
          },
        });
        assert.deepEqual(f32s(res.arrays.C!), want, `case ${ci} ${entry} ${gen}`);
      }
  }
});

test('errors from C kernels carry the C line:col', () => {
  const src = [
    '#include "aarch64.h"',
    'void f(float *p) {',
    '    AMX_SET();',
    '    AMX_LDX((uint64_t)p | 1ull << 62);',
    '}',
  ].join('\n');
  const p = new Float32Array(64);
  // a pair load needs a 128-byte aligned address: p + 1 (bound at 128-aligned) is not
  const e = (() => {
    try {
      runAmxC(src.replace('(uint64_t)p', '(uint64_t)(p + 1)'), {
        file: 'k.c',
        entry: 'f(P)',
        args: { P: arr('f4', [64], p) },
      });
    } catch (err) {
      return err as AxsimError;
    }
    return undefined;
  })();
  assert.ok(e instanceof AxsimError);
  assert.equal(e.location?.file, 'k.c');
  assert.equal(e.location?.line, 4);
  assert.match(e.message, /ldx/);
  // an AMX instruction before AMX_SET is refused, at its line
  assert.throws(
    () => runAmxC('#include "aarch64.h"\nvoid g(void) {\n  AMX_FMA32(0);\n}', { file: 'g.c', entry: 'g()' }),
    (err: AxsimError) => err.location?.line === 3 && /disabled/.test(err.message),
  );
});

test('assert, memcpy and memset as AMX kernels use them', () => {
  const src = [
    '#include <assert.h>',
    '#include <string.h>',
    '#include "amx.h"',
    'int f(float *p, float *q, int n) {',
    '    memset(q, 0, 64);',
    '    memcpy(q, p, 4 * n);',
    '    assert(n <= 16);',
    '    return (int)q[n - 1];',
    '}',
  ].join('\n');
  const P = arr(
    'f4',
    [16],
    Float32Array.from({ length: 16 }, (_, i) => i * 3),
  );
  const r = runAmxC(src, { entry: 'f(P, Q, 5)', args: { P, Q: zeroArray('f4', [16]) } });
  assert.equal(r.returned, 12n);
  assert.deepEqual(Array.from(f32s(r.arrays.Q!)), [0, 3, 6, 9, 12, ...new Array(11).fill(0)]);
  assert.throws(
    () =>
      runAmxC(src, {
        file: 'f.c',
        entry: 'f(P, Q, 17)',
        args: { P: zeroArray('f4', [32]), Q: zeroArray('f4', [32]) },
      }),
    (e: AxsimError) => /assertion failed: n <= 16/.test(e.message) && e.location?.line === 7,
  );
});

test('GNU asm statements: prefetch hints run as no-ops, other instructions are Unsupported at their line', () => {
  const src = [
    '#include "amx.h"',
    'int f(float *p) {',
    '    __asm__ volatile ("prfm PLDL1STRM, [%[a], 64*0] \\n\\t"',
    '                      "prfm PLDL2STRM, [%[a], 64*1] \\n\\t" : : [a] "r" (p));',
    '    return 7;',
    '}',
    'int g(int x) {',
    '    __asm volatile("mrs %0, fpcr" : "=r"(x));',
    '    return x;',
    '}',
  ].join('\n');
  const r = runAmxC(src, { entry: 'f(P)', args: { P: zeroArray('f4', [16]) } });
  assert.equal(r.returned, 7n);
  assert.equal(r.issued, 0);
  assert.throws(
    () => runAmxC(src, { file: 'a.c', entry: 'g(1)' }),
    (e: AxsimError) =>
      e.category === 'Unsupported' && e.location?.line === 8 && /mrs %0, fpcr/.test(e.message),
  );
});

test('the 32x32 sgemm micro-kernel from C: its explained cycle estimate sums to the total and its fma32 figures match the seed', () => {
  const k = 64;
  const res = runAmxC(kernel('blis_ukr.c'), {
    entry: `bli_sgemm_axsim_32x32(32, 32, ${k}, ONE, A, B, BETA, C, 1, 32, CT)`,
    args: {
      ONE: arr('f4', [1], new Float32Array([1])),
      BETA: arr('f4', [1], new Float32Array([0])),
      A: zeroArray('f4', [k, 32]),
      B: zeroArray('f4', [k, 32]),
      C: zeroArray('f4', [32, 32]),
      CT: zeroArray('f4', [32, 32]),
    },
    trace: true,
  });
  // set, 4 zeroing fma32, k x (4 loads + 4 fma32), 64 stz, clr
  assert.equal(res.ops.length, 2 + 4 + 8 * k + 64);
  for (let threads = 1; threads <= 6; threads++) {
    const b = explainProgramCycles(res.ops, { threads });
    const sum = b.kinds.reduce((a, x) => a + x.issueCycles + x.stallCycles, 0) + b.drainCycles;
    assert.ok(Math.abs(sum - b.total) < 1e-6);
    const f = b.kinds.find((x) => x.kind === 'fma32-matrix')!;
    assert.equal(f.accumulators, 4);
    const gflops = threads * f.rateLimit * 512 * MACHINE.ghz.value;
    const seed = FMA_TABLES['fma32-matrix']!.rows[3]![threads - 1]!; // 4 accumulators per thread
    assert.ok(Math.abs(gflops / seed - 1) <= 0.3, `${threads} threads: ${gflops} vs ${seed}`);
  }
});
