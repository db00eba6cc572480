/**
 * Sign-magnitude integers as the Tensix Dst formats use them (signmag8/11/16/32): the top bit of a
 * `width`-bit field is the sign, the low width-1 bits the magnitude. Negative zero exists in the
 * encoding and reads as 0. Conversions from two's complement clamp the magnitude to
 * 2^(width-1) - 1 (the largest representable), which only matters for -2^(width-1) and beyond.
 * See tt-isa-documentation WormholeB0 Dst.md / SFPLOAD.md / SFPSTORE.md for where each is used.
 */
import { badInput } from '../errors.ts';

function checkWidth(width: number): void {
  if (!Number.isInteger(width) || width < 2 || width > 32) {
    throw badInput(`sign-magnitude width must be an integer in 2..32, got ${width}`);
  }
}

/** Sign-magnitude pattern of `width` bits (higher bits ignored) -> integer (i32 range). */
export function signMagToInt(bits: number, width: number): number {
  checkWidth(width);
  const mag = width === 32 ? bits & 0x7fffffff : bits & ((1 << (width - 1)) - 1);
  const neg = width === 32 ? bits >>> 31 : (bits >>> (width - 1)) & 1;
  return neg === 1 ? 0 - mag : mag;
}

/**
 * Integer -> sign-magnitude pattern of `width` bits (unsigned). |v| is clamped to 2^(width-1) - 1;
 * zero is always +0. `v` may be any safe integer.
 */
export function intToSignMag(v: number, width: number): number {
  checkWidth(width);
  const maxMag = 2 ** (width - 1) - 1;
  if (v < 0) {
    const mag = Math.min(-v, maxMag);
    return (2 ** (width - 1) + mag) >>> 0;
  }
  return Math.min(v, maxMag);
}

/** Sign-magnitude 32-bit pattern -> i32 (the Dst "signmag32 -> int32" direction). */
export function signMag32ToInt32(bits: number): number {
  const mag = bits & 0x7fffffff;
  return bits >>> 31 === 1 ? -mag | 0 : mag;
}

/** i32 -> sign-magnitude 32-bit pattern; -2^31 clamps to magnitude 2^31 - 1. */
export function int32ToSignMag32(v: number): number {
  v |= 0;
  if (v >= 0) return v;
  if (v === -2147483648) return 0xffffffff;
  return (0x80000000 | -v) >>> 0;
}
