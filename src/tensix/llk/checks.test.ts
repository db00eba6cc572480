import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bf16Rne,
  fp32ToFp16a,
  fp32ToInt32,
  fp32ToUint16,
  fp32ToUint32,
  int32ToFp32,
  int32ToUint16,
  intToF32Bits,
  madF32,
  mulInt32,
  sar32,
  shl32,
  shr32,
  squareFp32,
  uint32ToFp32,
  uint32ToUint16,
} from './checks.ts';

// Expected values below are worked by hand from IEEE-754 encodings.
describe('llk checks: independent definitions', () => {
  it('integer -> FP32 rounds to nearest even on the integer', () => {
    assert.equal(intToF32Bits(1n), 0x3f800000);
    assert.equal(intToF32Bits(-2n), 0xc0000000);
    assert.equal(intToF32Bits(16777217n), 0x4b800000); // 2^24 + 1: tie, to even (2^24)
    assert.equal(intToF32Bits(16777219n), 0x4b800002); // 2^24 + 3: tie, to even (2^24 + 4)
    assert.equal(int32ToFp32(-0x80000000), 0xcf000000); // -2^31
    assert.equal(uint32ToFp32(0xffffffff), 0x4f800000); // rounds up to 2^32
    assert.equal(uint32ToFp32(0x80000000), 0x4f000000);
  });
  it("FP32 -> integers: truncation and the kernels' saturation rules", () => {
    assert.equal(fp32ToInt32(0x3fc00000), 1); // 1.5
    assert.equal(fp32ToInt32(0xbfc00000), 0xffffffff); // -1.5 -> -1
    assert.equal(fp32ToInt32(0x3f7fffff), 0); // just below 1
    assert.equal(fp32ToInt32(0x4f000000), 0x80000000); // 2^31 -> INT_MIN
    assert.equal(fp32ToInt32(0x7fc00000), 0x80000000); // NaN -> INT_MIN
    assert.equal(fp32ToInt32(0x4effffff), 0x7fffff80); // largest FP32 below 2^31
    assert.equal(fp32ToUint32(0xbf800000), 0); // -1
    assert.equal(fp32ToUint32(0x4f800000), 0xffffffff); // 2^32
    assert.equal(fp32ToUint32(0x4f7fffff), 0xffffff00);
    assert.equal(fp32ToUint16(0x3fc00000), 2); // 1.5 -> 2 (ties to even)
    assert.equal(fp32ToUint16(0x40200000), 2); // 2.5 -> 2
    assert.equal(fp32ToUint16(0x477fff80), 65535); // 65535.5 saturates
    assert.equal(fp32ToUint16(0xc0000000), 0);
    assert.equal(fp32ToUint16(0x7fc00000), undefined);
    assert.equal(int32ToUint16(-5), 0);
    assert.equal(int32ToUint16(70000), 65535);
    assert.equal(uint32ToUint16(0xffffffff), 65535);
  });
  it('FP32 -> BF16 and FP16 rounding', () => {
    assert.equal(bf16Rne(0x3f808000), 0x3f80); // tie, even stays
    assert.equal(bf16Rne(0x3f818000), 0x3f82); // tie, odd rounds up
    assert.equal(bf16Rne(0x3f80ffff), 0x3f81);
    assert.equal(fp32ToFp16a(0x3f800000), 0x3c00);
    assert.equal(fp32ToFp16a(0x477fe000), 0x7bff); // 65504
    assert.equal(fp32ToFp16a(0x477ff000), 0x7c00); // 65520: tie above the max rounds to Inf
    assert.equal(fp32ToFp16a(0x33800000), 0x0001); // 2^-24, smallest subnormal
    assert.equal(fp32ToFp16a(0x33000000), 0x0000); // 2^-25: tie to even (0)
    assert.equal(fp32ToFp16a(0xb8800000), 0x8400); // -2^-14, smallest normal
    assert.equal(fp32ToFp16a(0xff800000), 0xfc00);
  });
  it('integer arithmetic and shifts', () => {
    assert.equal(mulInt32(0x10000, 0x10000), 0);
    assert.equal(mulInt32(0xffffffff, 3), 0xfffffffd);
    assert.equal(shl32(1, 31), 0x80000000);
    assert.equal(shl32(1, 32), 0);
    assert.equal(shl32(1, -1), 0);
    assert.equal(sar32(0x80000000, 4), 0xf8000000);
    assert.equal(shr32(0x80000000, 4), 0x08000000);
  });
  it('square: one rounding, denormals flushed', () => {
    assert.equal(squareFp32(0x40400000), 0x41100000); // 3*3 = 9
    assert.equal(squareFp32(0x1f800000), 0); // (2^-64)^2 underflows
    assert.equal(squareFp32(0x00000001), 0);
  });
  it("SFPMAD partial fusion (SFPU-NOTES B1): the notes' worked examples", () => {
    // (1 + 2^-23) * (1 - 2^-24) - 1: the product keeps 26 fraction bits, so 1.5 * 2^-25, not 2^-24 - 2^-47
    assert.equal(madF32(0x3f800001, 0x3f7fffff, 0xbf800000), 0x33400000);
    assert.equal(madF32(0xc0b82000, 0xc195e41f, 0xc2d79d69), 0xb7d80000);
    assert.equal(madF32(0x4b063be7, 0xc9e84d8e, 0x55739deb), 0x4a580000);
    // exact cases: 1.5 * 2 + 1 = 4; 3 * 0.5 - 1.5 = 0; a denormal input reads as zero, so C passes
    assert.equal(madF32(0x3fc00000, 0x40000000, 0x3f800000), 0x40800000);
    assert.equal(madF32(0x40400000, 0x3f000000, 0xbfc00000), 0);
    assert.equal(madF32(0x00000001, 0x7f000000, 0x3f800000), 0x3f800000);
    assert.throws(() => madF32(0x7f800000, 0x3f800000, 0));
  });
});
