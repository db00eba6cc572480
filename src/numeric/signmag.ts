/**
 * Sign-magnitude integers as the Tensix Dst/LReg formats use them (signmag8/11/16/32): the top bit
 * of a `width`-bit field is the sign, the low width-1 bits the magnitude; negative zero exists in
 * the encoding and reads as 0.
 *
 * Two families of int -> sign-magnitude conversion exist, because the documents give two rules:
 * - `intToSignMag` / `int32ToSignMag32Sat` clamp |v| to 2^(width-1) - 1 (saturation, the safe rule
 *   for general use and the one SFPSTOCHRND-style clamps need);
 * - `int32ToSignMag32` is the SFPSTORE `ToSignMag` functional model (tt-isa-documentation
 *   WormholeB0 SFPSTORE.md, MOD0_FMT_INT32_SM): sign kept, magnitude = two's-complement negation
 *   masked to 31 bits. Its documented input range excludes -2^31, which it maps to 0x80000000 (-0).
 * `signMag32ToInt32` is SFPLOAD's `SignMagToTwosComp` (SFPLOAD.md): -0 reads as 0.
 * The packed 16-bit Dst layouts of signmag8/11/16 are Tensix-specific and live in src/tensix/.
 */
import { badInput } from '../errors.ts';

function checkWidth(width: number): void {
  if (!Number.isInteger(width) || width < 2 || width > 32) {
    throw badInput(`sign-magnitude width must be an integer in 2..32, got ${width}`);
  }
}

/** Sign-magnitude pattern of `width` bits (higher bits ignored) -> integer; -0 gives 0. */
export function signMagToInt(bits: number, width: number): number {
  checkWidth(width);
  const mag = width === 32 ? bits & 0x7fffffff : bits & ((1 << (width - 1)) - 1);
  const neg = width === 32 ? bits >>> 31 : (bits >>> (width - 1)) & 1;
  return neg === 1 ? 0 - mag : mag;
}

/**
 * Integer -> sign-magnitude pattern of `width` bits (unsigned). |v| is clamped to 2^(width-1) - 1
 * (so -2^(width-1) and beyond saturate); zero is always +0. `v` may be any safe integer.
 */
export function intToSignMag(v: number, width: number): number {
  checkWidth(width);
  const maxMag = 2 ** (width - 1) - 1;
  if (v < 0) return (2 ** (width - 1) + Math.min(-v, maxMag)) >>> 0;
  return Math.min(v, maxMag);
}

/** signmag32 pattern -> i32 (SFPLOAD SignMagToTwosComp): -magnitude for sign 1, -0 -> 0. */
export function signMag32ToInt32(bits: number): number {
  const mag = bits & 0x7fffffff;
  return bits >>> 31 === 1 ? -mag | 0 : mag;
}

/**
 * i32 (or its u32 pattern) -> signmag32 pattern exactly as SFPSTORE's ToSignMag computes it:
 * -2^31 (outside the documented input range) becomes 0x80000000, i.e. -0.
 */
export function int32ToSignMag32(v: number): number {
  v |= 0;
  if (v >= 0) return v;
  return (0x80000000 | (-v & 0x7fffffff)) >>> 0;
}

/** i32 -> signmag32 pattern with saturation: -2^31 clamps to magnitude 2^31 - 1 (0xFFFFFFFF). */
export function int32ToSignMag32Sat(v: number): number {
  return intToSignMag(v | 0, 32);
}

/**
 * Clamps the magnitude of a signmag32 pattern to `maxMag` (kept in the low bits, sign unchanged)
 * and normalises -0 to +0 — the post-processing the SFPSTOCHRND integer modes describe
 * ("when the magnitude is clamped, it stays in the low bits ... -0 is normalised to +0").
 */
export function clampSignMag32(bits: number, maxMag: number): number {
  const mag = Math.min(bits & 0x7fffffff, maxMag);
  if (mag === 0) return 0;
  return bits >>> 31 === 1 ? (0x80000000 | mag) >>> 0 : mag;
}

/** Sign-magnitude `width`-bit pattern -> `toWidth`-bit pattern, clamping the magnitude. */
export function resizeSignMag(bits: number, width: number, toWidth: number): number {
  return intToSignMag(signMagToInt(bits, width), toWidth);
}
