// Hand-computed bit patterns (IEEE 754 binary16/binary32 layouts, OCP OFP8 rev 1.0 Table 1).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bf16ToF32Bits,
  bitsToF32,
  bitsToF64,
  clz32,
  e4m3ToF32Bits,
  e5m2ToF32Bits,
  f32BitsToBf16,
  f32BitsToE4m3,
  f32BitsToE5m2,
  f32BitsToFp16,
  f32BitsToTf32,
  f32ToBits,
  f64HiBits,
  f64LoBits,
  f64ToBits,
  fp16ToF32Bits,
  intToSignMag,
  signMagToInt,
  wordsToF64,
} from './index.ts';

test('fp32 and fp64 bit casts', () => {
  assert.equal(f32ToBits(1), 0x3f800000);
  assert.equal(f32ToBits(-2), 0xc0000000);
  assert.equal(f32ToBits(-0), 0x80000000);
  assert.equal(bitsToF32(0x40490fdb), Math.fround(Math.PI));
  assert.equal(bitsToF32(0x00000001), 2 ** -149);
  assert.equal(f64ToBits(1), 0x3ff0000000000000n);
  assert.equal(f64ToBits(-0), 0x8000000000000000n);
  assert.equal(bitsToF64(0x4000000000000000n), 2);
  assert.equal(f64HiBits(1.5), 0x3ff80000);
  assert.equal(f64LoBits(1 + 2 ** -52), 1);
  assert.equal(wordsToF64(0xc0000000, 0), -2);
});

test('binary16 decode of known patterns', () => {
  assert.equal(fp16ToF32Bits(0x3c00), 0x3f800000); // 1
  assert.equal(fp16ToF32Bits(0x7bff), f32ToBits(65504)); // max
  assert.equal(fp16ToF32Bits(0x0001), f32ToBits(2 ** -24)); // min subnormal
  assert.equal(fp16ToF32Bits(0x0400), f32ToBits(2 ** -14)); // min normal
  assert.equal(fp16ToF32Bits(0xfc00), 0xff800000); // -Inf
  assert.equal(fp16ToF32Bits(0x7e00), 0x7fc00000); // qNaN
  assert.equal(fp16ToF32Bits(0x8000), 0x80000000);
});

test('binary16 encode rne / rtz / rna', () => {
  assert.equal(f32BitsToFp16(f32ToBits(1)), 0x3c00);
  assert.equal(f32BitsToFp16(f32ToBits(65504)), 0x7bff);
  // 65520 is the midpoint between 65504 and 65536 (would-be next): ties-to-even -> Inf.
  assert.equal(f32BitsToFp16(f32ToBits(65520), 'rne'), 0x7c00);
  assert.equal(f32BitsToFp16(f32ToBits(65520), 'rtz'), 0x7bff);
  assert.equal(f32BitsToFp16(f32ToBits(65519), 'rne'), 0x7bff);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1.
  assert.equal(f32BitsToFp16(f32ToBits(1 + 2 ** -11), 'rne'), 0x3c00);
  assert.equal(f32BitsToFp16(f32ToBits(1 + 2 ** -11), 'rna'), 0x3c01);
  assert.equal(f32BitsToFp16(f32ToBits(1 + 3 * 2 ** -11), 'rne'), 0x3c02);
  // 2^-25 is half the smallest subnormal: rne -> 0, rna -> 0x0001.
  assert.equal(f32BitsToFp16(f32ToBits(2 ** -25), 'rne'), 0x0000);
  assert.equal(f32BitsToFp16(f32ToBits(2 ** -25), 'rna'), 0x0001);
  assert.equal(f32BitsToFp16(f32ToBits(-(2 ** -25) * 3), 'rne'), 0x8002);
  assert.equal(f32BitsToFp16(0x7f800000), 0x7c00);
  assert.equal(f32BitsToFp16(0x7fc00000), 0x7e00);
});

test('bfloat16 encode and decode', () => {
  assert.equal(bf16ToF32Bits(0x3f80), 0x3f800000);
  assert.equal(f32BitsToBf16(0x3f808000, 'rne'), 0x3f80); // tie, even stays
  assert.equal(f32BitsToBf16(0x3f818000, 'rne'), 0x3f82); // tie, odd rounds up
  assert.equal(f32BitsToBf16(0x3f818000, 'rtz'), 0x3f81);
  assert.equal(f32BitsToBf16(0x3f808000, 'rna'), 0x3f81);
  assert.equal(f32BitsToBf16(0x7f7fffff, 'rne'), 0x7f80); // overflow to Inf
  assert.equal(f32BitsToBf16(0x7f7fffff, 'rtz'), 0x7f7f);
  assert.equal(f32BitsToBf16(0x00000001, 'rne'), 0x0000);
  assert.equal(f32BitsToBf16(0x00008000, 'rne'), 0x0000); // tie with even 0
  assert.equal(f32BitsToBf16(0x00018000, 'rne'), 0x0002);
});

test('tf32 keeps 10 mantissa bits in the fp32 container', () => {
  assert.equal(f32BitsToTf32(0x3f801000, 'rne'), 0x3f800000); // tie, even
  assert.equal(f32BitsToTf32(0x3f803000, 'rne'), 0x3f804000); // tie, odd -> up
  assert.equal(f32BitsToTf32(0x3f801fff, 'rtz'), 0x3f800000);
});

test('OCP fp8 E4M3 and E5M2 key values', () => {
  assert.equal(e4m3ToF32Bits(0x7e), f32ToBits(448));
  assert.equal(e4m3ToF32Bits(0x01), f32ToBits(2 ** -9));
  assert.equal(e4m3ToF32Bits(0x08), f32ToBits(2 ** -6));
  assert.equal(e4m3ToF32Bits(0x78), f32ToBits(256)); // exponent all ones is finite in E4M3
  assert.equal(e4m3ToF32Bits(0xff), 0xffc00000);
  assert.equal(f32BitsToE4m3(f32ToBits(448), 'rne'), 0x7e);
  assert.equal(f32BitsToE4m3(f32ToBits(464), 'rne'), 0x7e); // tie between 448 (even) and 480
  assert.equal(f32BitsToE4m3(f32ToBits(465), 'rne'), 0x7f); // overflow -> NaN
  assert.equal(f32BitsToE4m3(f32ToBits(465), 'rne', { saturate: true }), 0x7e);
  assert.equal(f32BitsToE4m3(0xff800000, 'rne', { saturate: true }), 0xfe);
  assert.equal(f32BitsToE4m3(0xff800000, 'rne'), 0xff);
  assert.equal(e5m2ToF32Bits(0x7b), f32ToBits(57344));
  assert.equal(e5m2ToF32Bits(0x7c), 0x7f800000);
  assert.equal(f32BitsToE5m2(f32ToBits(61440), 'rne'), 0x7c); // midpoint to Inf (odd max)
  assert.equal(f32BitsToE5m2(f32ToBits(61440), 'rne', { saturate: true }), 0x7b);
  assert.equal(f32BitsToE5m2(f32ToBits(2 ** -16), 'rne'), 0x01);
});

test('sign-magnitude and clz', () => {
  assert.equal(signMagToInt(0x81, 8), -1);
  assert.equal(signMagToInt(0x80, 8), 0);
  assert.equal(signMagToInt(0x7f, 8), 127);
  assert.equal(intToSignMag(-5, 8), 0x85);
  assert.equal(intToSignMag(-200, 8), 0xff);
  assert.equal(intToSignMag(200, 8), 0x7f);
  assert.equal(intToSignMag(-(2 ** 31), 32), 0xffffffff);
  assert.equal(signMagToInt(0x80000001, 32), -1);
  assert.equal(clz32(0), 32);
  assert.equal(clz32(1), 31);
  assert.equal(clz32(0x80000000), 0);
});
