/**
 * The SIMD fma64/fms64 vector path (fma64-simd.ts) against an exact computation written here: each
 * double split into sign, integer significand and exponent, x*y + z formed exactly as a BigInt
 * times a power of two, rounded once to the nearest double (ties to even, subnormals, overflow)
 * by the rounding below. Rows of binary32 values take the kernel (checked: it reports them
 * handled); rows with one other double fall back to the scalar path, and must give the same bits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fma64Simd, fma64SimdAvailable } from './fma64-simd.ts';
import { AmxState, executeRaw } from './index.ts';

const dv = new DataView(new ArrayBuffer(8));

function bitsOf(v: number): bigint {
  dv.setFloat64(0, v, true);
  return dv.getBigUint64(0, true);
}

/** |v| = m * 2^e (v finite), and its sign. */
function parts(v: number): { neg: boolean; m: bigint; e: number } {
  const b = bitsOf(v);
  const be = Number((b >> 52n) & 0x7ffn);
  const f = b & ((1n << 52n) - 1n);
  return { neg: b >> 63n === 1n, m: be === 0 ? f : f | (1n << 52n), e: be === 0 ? -1074 : be - 1075 };
}

/** S * 2^E (S a non-zero BigInt) rounded to the nearest double, ties to even. */
function roundToDouble(S: bigint, E: number): number {
  const neg = S < 0n;
  let M = neg ? -S : S;
  const len = M.toString(2).length;
  const top = E + len - 1; // exponent of the leading bit
  const Q = Math.max(top - 52, -1074); // exponent of the last kept bit
  let e = E;
  if (Q > E) {
    const sh = BigInt(Q - E);
    const q = M >> sh;
    const rem = M - (q << sh);
    const half = 1n << (sh - 1n);
    M = rem > half || (rem === half && (q & 1n) === 1n) ? q + 1n : q;
    e = Q;
  }
  // M <= 2^53: exact as a Number; the product with 2^e is exact unless it overflows (then Infinity,
  // which is round-to-nearest's overflow result since M * 2^e is already rounded to 53 bits)
  const r = e >= -1022 ? Number(M) * 2 ** e : Number(M) * 2 ** (e + 60) * 2 ** -60;
  return neg ? -r : r;
}

/** The IEEE 754 fused multiply-add x*y + z (round to nearest even), computed exactly. */
function exactFma(x: number, y: number, z: number): number {
  if (Number.isNaN(x) || Number.isNaN(y) || Number.isNaN(z)) return Number.NaN;
  const pNeg = (Object.is(x, -0) || x < 0) !== (Object.is(y, -0) || y < 0);
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    if (x === 0 || y === 0) return Number.NaN; // inf * 0
    if (!Number.isFinite(z) && z < 0 !== pNeg) return Number.NaN; // inf - inf
    return pNeg ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!Number.isFinite(z)) return z;
  if (x === 0 || y === 0) {
    // an exact zero product: z, or a zero whose sign is negative only if both are
    if (z !== 0) return z;
    return pNeg && Object.is(z, -0) ? -0 : 0;
  }
  const a = parts(x);
  const b = parts(y);
  const c = parts(z);
  const pe = a.e + b.e;
  const pm = a.m * b.m;
  const E = z === 0 ? pe : Math.min(pe, c.e);
  const S =
    (pNeg ? -pm : pm) * (1n << BigInt(pe - E)) +
    (z === 0 ? 0n : (c.neg ? -c.m : c.m) * (1n << BigInt(c.e - E)));
  if (S === 0n) return 0; // exact cancellation: +0 in round-to-nearest
  return roundToDouble(S, E);
}

const DEFAULT_NAN = 0x7ff8000000000000n;
const want = (v: number): bigint => (Number.isNaN(v) ? DEFAULT_NAN : bitsOf(v));

describe('the exact fused multiply-add of this test', () => {
  it('gives hand-computed results', () => {
    // (1 + 2^-52) * (1 - 2^-53) - 1 = 2^-53 - 2^-105: a product rounded first would give 2^-52 - 1 rounding
    assert.equal(exactFma(1 + 2 ** -52, 1 - 2 ** -53, -1), 2 ** -53 - 2 ** -105);
    // a tie: 1 + 2^-53 is halfway between 1 and 1 + 2^-52, to even: 1
    assert.equal(exactFma(2 ** -27, 2 ** -26, 1), 1);
    // just above the tie: rounds up
    assert.equal(exactFma(2 ** -27 + 2 ** -79, 2 ** -26, 1), 1 + 2 ** -52);
    // overflow, and a product beyond the range brought back by z
    assert.equal(exactFma(2 ** 600, 2 ** 600, 0), Number.POSITIVE_INFINITY);
    assert.equal(exactFma(2 ** 1000, 2 ** 24, -Number.MAX_VALUE), 2 ** 971); // MAX = 2^1024 - 2^971
    // subnormal result: 2^-1074 * 0.5 rounds to 0 (tie to even), * 0.75 to 2^-1074
    assert.equal(exactFma(5e-324, 0.5, 0), 0);
    assert.equal(exactFma(5e-324, 0.75, 0), 5e-324);
    // signed zeros
    assert.ok(Object.is(exactFma(-0, 1, -0), -0));
    assert.ok(Object.is(exactFma(1, 1, -1), 0));
  });
});

// binary32 values (the kernel's case), special binary32 values, and other doubles
const f32Special = fc.constantFrom(
  0,
  -0,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1.401298464324817e-45,
  3.4028234663852886e38,
  -1,
  0.5,
);
const f32Lane = fc.oneof(
  { arbitrary: fc.float({ noNaN: true }).map((v) => v as number), weight: 6 },
  { arbitrary: f32Special, weight: 1 },
);
const anyLane = fc.oneof(
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.constantFrom(Number.NaN, 5e-324, Number.MAX_VALUE, 1 + 2 ** -52), weight: 1 },
);
const f32Row = fc.array(f32Lane, { minLength: 8, maxLength: 8 });
/** Z may hold any double (the kernel's test is on X and Y only). */
const zRow = fc.array(fc.oneof(f32Lane, anyLane), { minLength: 8, maxLength: 8 });

function runCase(
  xs: number[],
  ys: number[],
  zs: number[],
  xr: number,
  yr: number,
  zrow: number,
  fms: boolean,
): bigint[] {
  const s = new AmxState({ gen: 'm4' });
  s.enabled = true;
  for (let i = 0; i < 8; i++) {
    s.xf64[xr * 8 + i] = xs[i]!;
    s.yf64[yr * 8 + i] = ys[i]!;
    s.zf64[zrow * 8 + i] = zs[i]!;
  }
  executeRaw(s, fms ? 11 : 10, (zrow << 20) | ((xr * 64) << 10) | (yr * 64), 0x80000000);
  const zw = new BigUint64Array(s.z.buffer, s.z.byteOffset, 512);
  return Array.from(zw.subarray(zrow * 8, zrow * 8 + 8));
}

describe('fma64 / fms64 vector mode with the SIMD kernel', () => {
  it('the kernel is available here and the registers are in its memory', () => {
    assert.ok(fma64SimdAvailable(), 'WebAssembly SIMD is expected on Node 20');
    assert.ok(new AmxState().regAddr >= 0);
  });

  it('handles rows of binary32 values, refuses a row with another double (writes nothing)', () => {
    const s = new AmxState();
    s.xf64.set([1, 2, 3, 4, 5, 6, 7, 8]);
    s.yf64.set([0.5, 0.25, -1, 3, Math.fround(1e-10), 0, -0, 2]);
    s.zf64.fill(1, 0, 8);
    assert.equal(fma64Simd(s.regAddr, s.regAddr + 512, s.regAddr + 1024, 0), 0);
    assert.deepEqual(Array.from(s.zf64.subarray(0, 8)), [
      1.5,
      1.5,
      -2,
      13,
      1 + Math.fround(1e-10) * 5,
      1,
      1,
      17,
    ]);
    s.yf64[3] = 0.1; // not a binary32 value
    assert.equal(fma64Simd(s.regAddr, s.regAddr + 512, s.regAddr + 1024, 0), 1);
    assert.deepEqual(Array.from(s.zf64.subarray(0, 8)), [
      1.5,
      1.5,
      -2,
      13,
      1 + Math.fround(1e-10) * 5,
      1,
      1,
      17,
    ]);
    s.yf64[3] = Number.NaN;
    assert.equal(fma64Simd(s.regAddr, s.regAddr + 512, s.regAddr + 1024, 1), 1);
  });

  it('equals the exact fused multiply-add per lane on binary32 rows (kernel) and mixed rows (fallback)', () => {
    fc.assert(
      fc.property(
        f32Row,
        f32Row,
        zRow,
        fc.option(fc.tuple(fc.nat(7), fc.boolean(), anyLane), { freq: 3 }),
        fc.nat(7),
        fc.nat(7),
        fc.nat(63),
        fc.boolean(),
        (xs, ys, zs, odd, xr, yr, zrow, fms) => {
          if (odd) (odd[1] ? xs : ys)[odd[0]] = odd[2]; // one lane that is not (always) binary32
          const got = runCase(xs, ys, zs, xr, yr, zrow, fms);
          for (let i = 0; i < 8; i++) {
            const w = want(exactFma(fms ? -xs[i]! : xs[i]!, ys[i]!, zs[i]!));
            assert.equal(got[i], w, `lane ${i}: ${fms ? '-' : ''}${xs[i]} * ${ys[i]} + ${zs[i]}`);
          }
        },
      ),
      { numRuns: 4000, seed: 1717 },
    );
  });

  it('states beyond the pool use ordinary arrays and the scalar path, with the same bits', () => {
    const keep: AmxState[] = [];
    let s = new AmxState();
    while (s.regAddr >= 0 && keep.length < 2000) {
      keep.push(s);
      s = new AmxState();
    }
    assert.equal(s.regAddr, -1, 'the pool holds fewer than 2000 states');
    s.enabled = true;
    const xs = [1.5, -2, 3, 0, Number.POSITIVE_INFINITY, 0.75, 1e30, -7];
    const ys = [2, 0.5, -0.25, Number.POSITIVE_INFINITY, 0, 4, 1e-30, 1];
    const zs = [1, 1, 1, 1, 1, 1, 1, Number.NEGATIVE_INFINITY];
    for (let i = 0; i < 8; i++) {
      s.xf64[i] = Math.fround(xs[i]!);
      s.yf64[i] = Math.fround(ys[i]!);
      s.zf64[i] = zs[i]!;
    }
    executeRaw(s, 10, 0, 0x80000000);
    const zw = new BigUint64Array(s.z.buffer, s.z.byteOffset, 8);
    for (let i = 0; i < 8; i++)
      assert.equal(zw[i], want(exactFma(Math.fround(xs[i]!), Math.fround(ys[i]!), zs[i]!)), `lane ${i}`);
  });
});
