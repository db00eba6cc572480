/**
 * fp64 -> fp32 and decimal -> fp32 with every rounding mode. Oracles: the host's Math.fround for
 * RNE (IEEE 754 round-to-nearest-even, independent of this code), and for the other modes the
 * defining inequalities checked with exact double arithmetic (fp32 values and the differences used
 * are exact in doubles by Sterbenz's lemma). decimalToF32Bits (BigInt) and f64ToF32Bits (doubles)
 * are two independent implementations and must agree on exact decimal expansions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { f16round } from '@petamoriken/float16';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import {
  BF16,
  bitsToF32,
  decimalToF32Bits,
  E4M3,
  encodeFromF64,
  FP16,
  FP32,
  f32ToBits,
  f64ToBits,
  f64ToF32Bits,
  fp16ToF32Bits,
  rationalToF32Bits,
  type WidenRoundMode,
} from './index.ts';
import { buildTable, K, oracleEncodeScaled } from './testing/oracle.ts';

const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -(2 ** -120), max: 2 ** -120, noNaN: true }),
  fc.double({ min: 3e38, max: 3.5e38, noNaN: true }),
  // fp32 values and their neighbourhood (midpoints, ties).
  fc.tuple(fc.integer({ min: 0, max: 0x7f7ffffe }), fc.integer({ min: -4, max: 4 })).map(([b, k]) => {
    const v = bitsToF32(b);
    const next = bitsToF32(b + 1);
    return v + ((next - v) * (k + 4)) / 8;
  }),
);

/** Magnitude-monotone fp32 neighbours of a finite non-negative fp32 pattern. */
const up = (b: number) => (b === 0x7f7fffff ? Number.POSITIVE_INFINITY : bitsToF32(b + 1));

function checkModes(x: number) {
  const ax = Math.abs(x);
  const neg = x < 0 || Object.is(x, -0);
  const r = (m: WidenRoundMode) => {
    const b = f64ToF32Bits(x, m);
    assert.equal(b >>> 31, neg ? 1 : 0, `sign of ${x} ${m}`);
    return b & 0x7fffffff;
  };
  // RNE: the host.
  assert.equal(f64ToF32Bits(x, 'rne'), f32ToBits(Math.fround(x)), `rne ${x}`);
  // RTZ: largest fp32 magnitude <= |x| (max finite when beyond).
  const z = r('rtz');
  assert.ok(bitsToF32(z) <= ax && (up(z) > ax || z === 0x7f7fffff), `rtz ${x}`);
  // Odd: rtz when exact, else the odd one of rtz and its successor.
  const o = r('odd');
  if (bitsToF32(z) === ax) assert.equal(o, z, `odd exact ${x}`);
  else assert.equal(o, z % 2 === 1 ? z : z + 1, `odd ${x}`);
  // RNA: nearest, ties away from zero.
  const a = r('rna');
  if (ax >= 2 ** 128 - 2 ** 103) assert.equal(a, 0x7f800000, `rna overflow ${x}`);
  else if (bitsToF32(z) === ax) assert.equal(a, z);
  else {
    const lo = bitsToF32(z);
    const hi = up(z);
    const d1 = ax - lo;
    const d2 = hi - ax;
    assert.equal(a, d1 < d2 ? z : z + 1, `rna ${x}`);
  }
}

test('f64ToF32Bits: rne = Math.fround; rtz/rna/odd satisfy their definitions', () => {
  fc.assert(
    fc.property(anyDouble, (x) => checkModes(x)),
    { numRuns: 20000 },
  );
  for (const x of [
    0,
    -0,
    2 ** -149,
    2 ** -150,
    3 * 2 ** -151,
    2 ** -126,
    65520,
    3.4028235677973366e38,
    1e300,
    -1e-300,
  ]) {
    checkModes(x);
  }
  assert.equal(f64ToF32Bits(Number.NEGATIVE_INFINITY, 'rtz'), 0xff800000); // Inf is exact
  assert.equal(f64ToF32Bits(Number.NaN), 0x7fc00000);
});

/** The exact decimal expansion of a double (every double is a finite decimal). */
function exactDecimal(x: number): string {
  const bits = f64ToBits(x);
  const neg = bits >> 63n === 1n;
  const e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let p: number;
  if (e === 0) p = -1074;
  else {
    m += 1n << 52n;
    p = e - 1075;
  }
  let s: string;
  if (p >= 0) s = (m << BigInt(p)).toString();
  else {
    const digits = (m * 5n ** BigInt(-p)).toString().padStart(-p + 1, '0');
    s = `${digits.slice(0, digits.length + p)}.${digits.slice(digits.length + p)}`;
  }
  return (neg ? '-' : '') + s;
}

test('decimalToF32Bits agrees with f64ToF32Bits on exact decimal expansions, every mode', () => {
  fc.assert(
    fc.property(anyDouble, fc.constantFrom<WidenRoundMode>('rne', 'rtz', 'rna', 'odd'), (x, m) => {
      assert.equal(decimalToF32Bits(exactDecimal(x), m), f64ToF32Bits(x, m), `${x} ${m}`);
    }),
    { numRuns: 3000 },
  );
});

test('decimalToF32Bits: syntax, specials, and values where decimal -> double -> fp32 double-rounds', () => {
  assert.equal(decimalToF32Bits('1'), 0x3f800000);
  assert.equal(decimalToF32Bits('.5'), 0x3f000000);
  assert.equal(decimalToF32Bits('-0'), 0x80000000);
  assert.equal(decimalToF32Bits('+Inf'), 0x7f800000);
  assert.equal(decimalToF32Bits('-nan'), 0xffc00000);
  assert.equal(decimalToF32Bits('1e-400'), 0);
  assert.equal(decimalToF32Bits('1e-400', 'odd'), 1);
  assert.equal(decimalToF32Bits('1e400', 'rtz'), 0x7f7fffff);
  // 1 + 2^-24 + 2^-80: just above the fp32 midpoint between 1 and 1 + 2^-23, so RNE rounds up;
  // as a double it is 1 + 2^-24 exactly (a tie), which Math.fround would round down to 1.
  const justAbove =
    '1.000000059604644775390625000000827180612553027674871408692069962853565812110900878906250';
  assert.equal(decimalToF32Bits(justAbove, 'rne'), 0x3f800001);
  assert.equal(f32ToBits(Math.fround(Number(justAbove))), 0x3f800000);
  // Exact fractions: 1/3 = 0x3eaaaaab under rne (0.0101... pattern, next bit 1, sticky), 0x3eaaaaaa rtz.
  assert.equal(decimalToF32Bits('1/3'), 0x3eaaaaab);
  assert.equal(decimalToF32Bits('1/3', 'rtz'), 0x3eaaaaaa);
  assert.equal(decimalToF32Bits('-2/3', 'rtz'), 0xbf2aaaaa);
  assert.equal(decimalToF32Bits('0.5/0.25'), 0x40000000);
  assert.equal(decimalToF32Bits('-0/5'), 0x80000000);
  assert.equal(decimalToF32Bits('1/-4'), 0xbe800000);
  for (const bad of ['', '1.2.3', '0x10', 'e5', '1e', '--1', 'one', '1/0', '1/2/3', '1/']) {
    assert.throws(
      () => decimalToF32Bits(bad),
      (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
      bad,
    );
  }
});

test('encodeFromF64: double -> binary16 RNE equals f16round (no double rounding through fp32)', () => {
  // 1 + 2^-11 + 2^-40 is above the binary16 midpoint, but rounds to that midpoint in fp32.
  const x = 1 + 2 ** -11 + 2 ** -40;
  assert.equal(encodeFromF64(FP16, x), 0x3c01);
  assert.equal(encodeFromF64(FP16, Math.fround(x)), 0x3c00);
  const doubles = fc.oneof(
    fc.double({ noNaN: true }),
    fc.double({ min: -70000, max: 70000, noNaN: true }),
    fc.double({ min: -(2 ** -12), max: 2 ** -12, noNaN: true }),
    // Binary16 midpoints nudged by tiny amounts below fp32 resolution.
    fc.tuple(fc.integer({ min: 0, max: 0x7bfe }), fc.integer({ min: -3, max: 3 })).map(([h, k]) => {
      const lo = bitsToF32(fp16ToF32Bits(h));
      const hi = bitsToF32(fp16ToF32Bits(h + 1));
      return (lo + hi) / 2 + k * (hi - lo) * 2 ** -30;
    }),
  );
  fc.assert(
    fc.property(doubles, (d) => {
      const got = bitsToF32(fp16ToF32Bits(encodeFromF64(FP16, d)));
      assert.ok(Object.is(got, f16round(d)), `${d}: got ${got}, f16round ${f16round(d)}`);
    }),
    { numRuns: 20000 },
  );
});

/** Exact value of a double with |x| >= 2^-140 as x * 2^-K (the oracle's scale). */
function doubleToScaled(x: number): bigint {
  const bits = f64ToBits(Math.abs(x));
  const e = Number(bits >> 52n);
  const m = (bits & ((1n << 52n) - 1n)) + (1n << 52n);
  return m << BigInt(e - 1075 + Number(K));
}

test('encodeFromF64 equals the BigInt oracle on the exact double in rne / rtz / rna (bf16, e4m3, fp16)', () => {
  const doubles = fc.oneof(
    fc.double({ min: 2 ** -140, max: 2 ** 127, noNaN: true }),
    fc.double({ min: 2 ** -140, max: 1000, noNaN: true }),
    // Just around fp32 values (so the fp32 intermediate is inexact but close to boundaries).
    fc
      .tuple(fc.integer({ min: 0x0a000000, max: 0x7effffff }), fc.integer({ min: -3, max: 3 }))
      .map(([b, k]) => {
        const v = bitsToF32(b);
        return v + k * (bitsToF32(b + 1) - v) * 2 ** -20;
      }),
  );
  for (const f of [BF16, E4M3, FP16]) {
    const t = buildTable({ expBits: f.expBits, manBits: f.manBits, bias: f.bias, special: f.special });
    fc.assert(
      fc.property(doubles, fc.boolean(), fc.constantFrom('rtz', 'rna', 'rne' as const), (d, neg, m) => {
        const x = neg ? -d : d;
        assert.equal(
          encodeFromF64(f, x, m),
          oracleEncodeScaled(t, neg, doubleToScaled(x), m),
          `${f.name} ${x} ${m}`,
        );
      }),
      { numRuns: 3000 },
    );
  }
  assert.equal(encodeFromF64(FP32, 0.1, 'rtz'), 0x3dcccccc);
  assert.throws(
    () => encodeFromF64(FP32, 0.1, 'stochastic', { rand: 1 }),
    (e: unknown) => e instanceof AxsimError,
  );
  assert.equal(rationalToF32Bits(1n, 3n), 0x3eaaaaab);
});
