import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFloat16 } from '@petamoriken/float16';
import fc from 'fast-check';
import { roundExact } from '../numeric/testing/oracle.ts';
import {
  bf16Fma,
  F16_TO_F64,
  f16FromDouble,
  f32Bits,
  f32FromBits,
  fma16,
  fma32,
  fma64,
  fma64Exact,
} from './fp.ts';

function exact(x: number, y: number, z: number): { neg: boolean; m: bigint; e: number } | number {
  // All inputs finite with |v| = integer * 2^-1100 at most: scale to integers.
  const S = 1100;
  const toBig = (v: number): bigint => {
    // v * 2^S is an integer for all doubles >= 2^-1074.
    let r = 0n;
    let a = Math.abs(v);
    let k = 0;
    while (a !== Math.floor(a)) {
      a *= 2;
      k++;
    }
    r = BigInt(a) << BigInt(S - k);
    return v < 0 ? -r : r;
  };
  const p = toBig(x) * toBig(y);
  const sum = p + (toBig(z) << BigInt(S));
  if (sum === 0n) return 0;
  return { neg: sum < 0n, m: sum < 0n ? -sum : sum, e: -2 * S };
}

test('fma32: worked lanes of AMX-FORMAT.md §3.6', () => {
  const cases = [
    [0xd9632bc3, 0xab60c4d1, 0x92238702, 0x454774f2],
    [0xc6f336c0, 0x61867f44, 0x80000000, 0xe8ff8f23],
    [0xd03f8000, 0x7a6659f0, 0x8e762586, 0xff800000],
    [0xd0ed8813, 0x477fefff, 0x0fad6cc7, 0xd8ed793a],
  ];
  for (const [x, y, z, r] of cases) {
    assert.equal(f32Bits(fma32(f32FromBits(x!), f32FromBits(y!), f32FromBits(z!))), r);
  }
});

test('fma32 rounds once: matches the exact oracle on random and tie-heavy operands', () => {
  const f32 = fc.oneof(
    fc.float({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -4096, max: 4096 }).map((k) => Math.fround(1 + k * 2 ** -23)),
    fc.integer({ min: -64, max: 64 }).map((k) => Math.fround(k * 2 ** -24)),
  );
  fc.assert(
    fc.property(f32, f32, f32, (x, y, z) => {
      const ex = exact(x, y, z);
      const want =
        typeof ex === 'number'
          ? Object.is(x * y + z, -0)
            ? -0
            : 0
          : roundExact(ex.neg, ex.m, ex.e, 24, -126, 127);
      const got = fma32(x, y, z);
      return Object.is(got, want) || (got === 0 && want === 0 && typeof ex === 'number');
    }),
    { numRuns: 3000 },
  );
  // A double-rounding trap: 8(1 + 2^-23) * 8(1 - 2^-23) + (2^30 + 128) = 2^30 + 192 - 2^-40 exactly.
  // In double the sum is 2^30 + 192, an f32 tie that would go to the even 2^30 + 256; rounded once
  // the exact value is below the tie, so the answer is 2^30 + 128.
  assert.equal(fma32(8 * (1 + 2 ** -23), 8 * (1 - 2 ** -23), 2 ** 30 + 128), 2 ** 30 + 128);
  assert.equal(Math.fround(8 * (1 + 2 ** -23) * 8 * (1 - 2 ** -23) + 2 ** 30 + 128), 2 ** 30 + 256);
});

test('fma16 rounds once: matches the exact oracle (and float16 for exact products)', () => {
  const h = fc.integer({ min: 0, max: 0xffff }).filter((b) => (b & 0x7c00) !== 0x7c00);
  fc.assert(
    fc.property(h, h, h, (a, b, c) => {
      const x = F16_TO_F64[a]!;
      const y = F16_TO_F64[b]!;
      const z = F16_TO_F64[c]!;
      const ex = exact(x, y, z);
      const want = typeof ex === 'number' ? 0 : roundExact(ex.neg, ex.m, ex.e, 11, -14, 15);
      const got = F16_TO_F64[fma16(x, y, z)]!;
      return typeof ex === 'number' ? got === 0 : Object.is(got, want);
    }),
    { numRuns: 5000 },
  );
  // f16FromDouble agrees with the float16 package's (RNE) conversion on a sweep.
  const dv = new DataView(new ArrayBuffer(2));
  for (let k = -70000; k <= 70000; k += 7.37) {
    setFloat16(dv, 0, k / 97, true);
    assert.equal(f16FromDouble(k / 97), dv.getUint16(0, true) & 0xffff, `at ${k / 97}`);
  }
});

test('fma64: fast path agrees with the exact path and the oracle', () => {
  const d = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.double({ min: -4, max: 4, noNaN: true }),
    fc.integer({ min: -1000, max: 1000 }).map((k) => 1 + k * 2 ** -52),
  );
  fc.assert(
    fc.property(d, d, d, (x, y, z) => {
      const a = fma64(x, y, z);
      const b = fma64Exact(x, y, z);
      return Object.is(a, b);
    }),
    { numRuns: 5000 },
  );
  // Hand-computed: (1 + 2^-52)^2 - 1 = 2^-51 + 2^-104 exactly; a plain double product would lose 2^-104.
  assert.equal(fma64(1 + 2 ** -52, 1 + 2 ** -52, -1), 2 ** -51 + 2 ** -104);
  assert.equal(fma64(1 + 2 ** -52, 1 - 2 ** -52, -1), -(2 ** -104));
  assert.ok(Number.isNaN(fma64(Infinity, 0, 1)));
  assert.ok(Number.isNaN(fma64(Infinity, 1, -Infinity)));
  assert.ok(Object.is(fma64(-0, 1, -0), -0));
  assert.ok(Object.is(fma64(1, 1, -1), 0));
  // Product overflows binary64 but the sum does not.
  assert.equal(fma64(1.5 * 2 ** 1023, 1.5, -Number.MAX_VALUE), 2 ** 1021 + 2 ** 971);
  const exOracle = exact(3, 1 / 3, -1);
  assert.ok(typeof exOracle !== 'number');
  assert.equal(fma64(3, 1 / 3, -1), roundExact(exOracle.neg, exOracle.m, exOracle.e, 53, -1022, 1023));
});

test('bf16 fma: hand-computed values', () => {
  assert.equal(bf16Fma(0x3f80, 0x3f80, 0x3f80), 0x4000); // 1*1+1 = 2
  assert.equal(bf16Fma(0x4040, 0x4000, 0x0000), 0x40c0); // 3*2 = 6
  assert.equal(bf16Fma(0x3f81, 0x3f81, 0x0000), 0x3f82); // (1+2^-7)^2 = 1 + 2^-6 + 2^-14 -> 1 + 2^-6
  assert.equal(bf16Fma(0x7f80, 0x0000, 0x3f80), 0x7fc0); // inf * 0 -> default NaN
  assert.equal(bf16Fma(0x3f80, 0x3f80, 0xbf80), 0x0000); // 1 - 1 = +0
  assert.equal(bf16Fma(0x7fc1, 0x3f80, 0x3f80), 0x7fc0); // NaN in -> default NaN
});

test('AMX f16 / bf16 codecs agree with src/numeric on every non-NaN value (NaNs differ only by DN)', async () => {
  const num = await import('../numeric/index.ts');
  const { F16_TO_F32_BITS, f16FromF32Bits, bf16FromF32Bits, bf16ToF32Bits } = await import('./fp.ts');
  for (let h = 0; h < 65536; h++) {
    const isNaN16 = (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
    if (isNaN16)
      assert.equal(F16_TO_F32_BITS[h], 0x7fc00000); // FPCR.DN = 1
    else assert.equal(F16_TO_F32_BITS[h], num.fp16ToF32Bits(h) >>> 0, `f16 ${h}`);
    const isNaNb = (h & 0x7f80) === 0x7f80 && (h & 0x7f) !== 0;
    if (!isNaNb) assert.equal(bf16ToF32Bits(h), num.bf16ToF32Bits(h) >>> 0, `bf16 ${h}`);
  }
  let x = 0x12345678;
  for (let n = 0; n < 200000; n++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const b = x >>> 0;
    if ((b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0) continue;
    assert.equal(f16FromF32Bits(b), num.f32BitsToFp16(b), `f32 0x${b.toString(16)} -> f16`);
    assert.equal(bf16FromF32Bits(b), num.f32BitsToBf16(b), `f32 0x${b.toString(16)} -> bf16`);
  }
});
