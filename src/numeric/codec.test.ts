/**
 * Codec behaviour beyond the boundary sweep: random fp32 patterns (fast-check) against the oracle
 * and @petamoriken/float16, the specialised RNE fast paths against the generic codec, NaN policy,
 * option validation.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { f16round } from '@petamoriken/float16';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import {
  BF16,
  bitsToF32,
  CANONICAL_NAN_BF16,
  CANONICAL_NAN_E4M3,
  CANONICAL_NAN_E5M2,
  CANONICAL_NAN_F32,
  CANONICAL_NAN_FP16,
  CANONICAL_NAN_TF32,
  canonicalizeF32,
  decodeArray,
  defineMinifloat,
  E2M1,
  E4M3,
  E5M2,
  encodeArray,
  encodeFromF32Bits,
  FORMATS,
  FP16,
  f32BitsToBf16,
  f32BitsToE4m3,
  f32BitsToFp16,
  f32BitsToTf32,
  fp16ToF32Bits,
  isSignalingNaNF32,
  quietF32,
  quietF64,
  TF32,
} from './index.ts';
import { buildTable, oracleEncode } from './testing/oracle.ts';

const u32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });

test('binary16 RNE equals f16round for random fp32 patterns', () => {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  fc.assert(
    fc.property(u32, (b) => {
      u[0] = b;
      const ref = f16round(f[0]!);
      const got = bitsToF32(fp16ToF32Bits(f32BitsToFp16(b)));
      if (Number.isNaN(ref)) return Number.isNaN(got);
      return Object.is(got, ref);
    }),
    { numRuns: 20000 },
  );
});

test('random fp32 patterns: every format and mode agrees with the oracle', () => {
  const tables = [FP16, BF16, TF32, E4M3, E5M2].map((f) => ({
    f,
    t: buildTable({ expBits: f.expBits, manBits: f.manBits, bias: f.bias, special: f.special }),
  }));
  fc.assert(
    fc.property(
      u32,
      fc.constantFrom('rne', 'rtz', 'rna', 'stochastic' as const),
      u32,
      fc.boolean(),
      (b, mode, rand, saturate) => {
        for (const { f, t } of tables) {
          const o = { rand, saturate };
          assert.equal(
            encodeFromF32Bits(f, b, mode, o),
            oracleEncode(t, b, mode, o),
            `${f.name} 0x${b.toString(16)}`,
          );
        }
      },
    ),
    { numRuns: 3000 },
  );
});

test('specialised RNE paths equal the generic codec on random and structured patterns', () => {
  const check = (b: number) => {
    assert.equal(f32BitsToFp16(b), encodeFromF32Bits(FP16, b, 'rne', {}));
    assert.equal(f32BitsToBf16(b), encodeFromF32Bits(BF16, b, 'rne', {}));
    assert.equal(f32BitsToE4m3(b), encodeFromF32Bits(E4M3, b, 'rne', {}));
  };
  fc.assert(
    fc.property(u32, (b) => check(b)),
    { numRuns: 20000 },
  );
  // Every exponent with mantissas around the round bits of all three formats, both signs.
  for (let e = 0; e < 256; e++) {
    for (const m of [
      0, 1, 0xfff, 0x1000, 0x1001, 0x2000, 0x3000, 0x7fff, 0x8000, 0x18000, 0x7ffff, 0x80000, 0x7fffff,
    ]) {
      check(((e << 23) | m) >>> 0);
      check(((1 << 31) | (e << 23) | m) >>> 0);
    }
  }
  const src = new Uint32Array(4096).map((_, i) => Math.imul(i, 2654435761) >>> 0);
  for (const f of [FP16, BF16, E4M3]) {
    const fast = encodeArray(f, src, new Uint16Array(src.length));
    const slow = encodeArray(f, src, new Uint16Array(src.length), 'rne', {});
    assert.deepEqual(fast, slow);
  }
});

test('fp32 patterns may also be passed as signed int32 (e.g. from an Int32Array)', () => {
  fc.assert(
    fc.property(u32, fc.constantFrom('rne', 'rtz', 'rna' as const), (b, m) => {
      const s = b | 0;
      assert.equal(f32BitsToFp16(s, m), f32BitsToFp16(b, m));
      assert.equal(f32BitsToBf16(s, m), f32BitsToBf16(b, m));
      assert.equal(f32BitsToE4m3(s, m), f32BitsToE4m3(b, m));
      assert.equal(f32BitsToTf32(s, m), f32BitsToTf32(b, m));
      assert.equal(
        encodeFromF32Bits(E5M2, s, m, { saturate: true }),
        encodeFromF32Bits(E5M2, b, m, { saturate: true }),
      );
    }),
    { numRuns: 5000 },
  );
});

test('NaN policy: quiet (default), preserve, canonical; canonical NaN per width', () => {
  const sNaN = 0x7fa00001; // signalling fp32 NaN, payload 0x200001
  assert.equal(f32BitsToFp16(sNaN), 0x7e00 | (0x200001 >>> 13)); // quiet bit + top payload bits
  assert.equal(f32BitsToFp16(sNaN, 'rne', { nan: 'preserve' }), 0x7c00 | (0x200001 >>> 13));
  assert.equal(f32BitsToFp16(0xff800001, 'rne', { nan: 'preserve' }), 0xfe00); // payload lost -> quiet bit
  assert.equal(f32BitsToFp16(0xff800001, 'rtz', { nan: 'canonical' }), 0x7e00);
  assert.equal(f32BitsToBf16(0xff800001, 'rtz'), 0xffc0);
  assert.equal(f32BitsToBf16(0xff800001, 'rtz', { nan: 'preserve' }), 0xffc0);
  assert.equal(f32BitsToBf16(0x7f810000, 'rtz', { nan: 'preserve' }), 0x7f81);
  assert.equal(f32BitsToE4m3(0xffc00000), 0xff);
  assert.equal(f32BitsToE4m3(0xffc00000, 'rne', { nan: 'canonical' }), 0x7f);
  assert.equal(f32BitsToE4m3(0xffc00000, 'rne', { saturate: true }), 0xff); // NaN stays NaN
  assert.equal(f32BitsToTf32(0x7f800001), 0x7fc00000);
  assert.deepEqual(
    [
      CANONICAL_NAN_F32,
      CANONICAL_NAN_FP16,
      CANONICAL_NAN_BF16,
      CANONICAL_NAN_TF32,
      CANONICAL_NAN_E4M3,
      CANONICAL_NAN_E5M2,
    ],
    [0x7fc00000, 0x7e00, 0x7fc0, 0x7fc00000, 0x7f, 0x7e],
  );
  assert.equal(quietF32(sNaN), 0x7fe00001);
  assert.equal(quietF32(0x3f800000), 0x3f800000);
  assert.equal(canonicalizeF32(0xffffffff), 0x7fc00000);
  assert.ok(isSignalingNaNF32(sNaN));
  assert.ok(!isSignalingNaNF32(0x7fc00000));
  assert.equal(quietF64(0x7ff0000000000001n), 0x7ff8000000000001n);
  // Formats without NaN refuse NaN input.
  assert.throws(
    () => encodeFromF32Bits(E2M1, 0x7fc00000),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
});

test('stochastic rounding needs an explicit random word; unknown modes are BadInput', () => {
  const bad = (e: unknown) => e instanceof AxsimError && e.category === 'BadInput';
  assert.throws(() => f32BitsToFp16(0x3f800001, 'stochastic'), bad);
  assert.throws(() => f32BitsToFp16(0x3f800001, 'stochastic', { rand: -1 }), bad);
  assert.throws(() => f32BitsToFp16(0x3f800001, 'up' as never, {}), bad);
  // Exact values never consult the random word.
  assert.equal(f32BitsToFp16(0x3f800000, 'stochastic', {}), 0x3c00);
});

test('saturation and Inf inputs', () => {
  assert.equal(encodeFromF32Bits(E5M2, 0x7f800000, 'rne'), 0x7c);
  assert.equal(encodeFromF32Bits(E5M2, 0x7f800000, 'rne', { saturate: true }), 0x7b);
  assert.equal(encodeFromF32Bits(E4M3, 0x7f800000, 'rne'), 0x7f);
  assert.equal(encodeFromF32Bits(E2M1, 0xff800000, 'rne'), 0xf); // no Inf, no NaN: -6.0
  assert.equal(encodeFromF32Bits(FP16, 0x7f800000, 'rtz'), 0x7c00); // Inf is exact, not an overflow
});

test('defineMinifloat validates parameters; FORMATS lists the named instances', () => {
  const bad = (e: unknown) => e instanceof AxsimError && e.category === 'BadInput';
  assert.throws(() => defineMinifloat({ name: 'x', expBits: 9, manBits: 3, bias: 7, special: 'ieee' }), bad);
  assert.throws(() => defineMinifloat({ name: 'x', expBits: 4, manBits: 0, bias: 7, special: 'ieee' }), bad);
  assert.throws(
    () => defineMinifloat({ name: 'x', expBits: 8, manBits: 3, bias: 140, special: 'ieee' }),
    bad,
  );
  assert.deepEqual(Object.keys(FORMATS).sort(), [
    'bf16',
    'e2m1',
    'e2m3',
    'e3m2',
    'e4m3',
    'e5m2',
    'f32',
    'fp16',
    'tf32',
  ]);
});

test('decodeArray / encodeArray check lengths and widths', () => {
  const bad = (e: unknown) => e instanceof AxsimError && e.category === 'BadInput';
  assert.throws(() => encodeArray(FP16, new Uint32Array(2), new Uint16Array(3)), bad);
  assert.throws(() => encodeArray(FP16, new Uint32Array(2), new Uint8Array(2)), bad);
  const codes = new Uint16Array([0x3c00, 0xc000, 0x7c00]);
  assert.deepEqual([...decodeArray(FP16, codes, new Uint32Array(3))], [0x3f800000, 0xc0000000, 0x7f800000]);
});
