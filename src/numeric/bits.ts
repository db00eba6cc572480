/**
 * Bit casts between host numbers and IEEE 754 bit patterns. fp32 patterns are unsigned 32-bit
 * integers held in a JS number; fp64 patterns are BigInt at the API edge, or two u32 words where
 * the caller wants to stay allocation-free.
 */

// One shared scratch buffer: the casts are synchronous, so reuse is safe and allocation-free.
const scratch = new ArrayBuffer(8);
const f32v = new Float32Array(scratch, 0, 1);
const u32v = new Uint32Array(scratch, 0, 2);
const f64v = new Float64Array(scratch, 0, 1);
const u64v = new BigUint64Array(scratch, 0, 1);
// The host byte order decides which u32 word of an f64 holds the sign/exponent.
const HI = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0;
const LO = 1 - HI;

/** fp32 value -> its 32-bit pattern (unsigned). `x` is first rounded to fp32 (as Math.fround). */
export function f32ToBits(x: number): number {
  f32v[0] = x;
  return u32v[0]!;
}

/**
 * 32-bit pattern -> fp32 value (as a JS number, exact). NaN payloads are NOT observable through a
 * JS number (engines may canonicalise them); keep NaNs as bits when the payload matters.
 */
export function bitsToF32(b: number): number {
  u32v[0] = b;
  return f32v[0]!;
}

/** fp64 value -> its 64-bit pattern as an unsigned BigInt. */
export function f64ToBits(x: number): bigint {
  f64v[0] = x;
  return u64v[0]!;
}

/** 64-bit pattern (unsigned BigInt; only the low 64 bits are used) -> fp64 value. */
export function bitsToF64(b: bigint): number {
  u64v[0] = BigInt.asUintN(64, b);
  return f64v[0]!;
}

/** High word (sign, exponent, top 20 mantissa bits) of an fp64's pattern, unsigned. */
export function f64HiBits(x: number): number {
  f64v[0] = x;
  return u32v[HI]!;
}

/** Low word (bottom 32 mantissa bits) of an fp64's pattern, unsigned. */
export function f64LoBits(x: number): number {
  f64v[0] = x;
  return u32v[LO]!;
}

/** fp64 value from its two 32-bit words. */
export function wordsToF64(hi: number, lo: number): number {
  u32v[HI] = hi;
  u32v[LO] = lo;
  return f64v[0]!;
}

/** Is this fp32 pattern a NaN (exponent all ones, mantissa non-zero)? */
export function isNaNF32Bits(b: number): boolean {
  return (b & 0x7fffffff) > 0x7f800000;
}
