/**
 * Hand-specialised round-to-nearest-even encoders for the three hot conversions (fp32 -> binary16,
 * bfloat16, E4M3 non-saturating), used when no options are given. They must agree bit for bit with
 * the parametric codec (`encodeFromF32Bits`); the tests check this on every rounding boundary and
 * on random patterns, and both against the independent oracle.
 *
 * The common trick: adding (half quantum - 1) + (lsb of the kept part) to the magnitude bits and
 * truncating rounds to nearest, ties to even; a mantissa carry bumps the exponent field as it must.
 */
import { encodeFromF32Bits, type Minifloat } from './minifloat.ts';

/** fp32 bits -> binary16, RNE, IEEE overflow to Inf, NaN quieted (payload top bits kept). */
export function f32BitsToFp16Rne(b: number, fp16: Minifloat): number {
  const sign = (b >>> 16) & 0x8000;
  const a = b & 0x7fffffff;
  if (a >= 0x477ff000) {
    // >= 65520 (the tie above 65504, whose mantissa is odd) -> Inf; or Inf/NaN input.
    if (a > 0x7f800000) return encodeFromF32Bits(fp16, b, 'rne');
    return sign | 0x7c00;
  }
  if (a >= 0x38800000) {
    // Normal binary16 range [2^-14, 65520): round at bit 13, rebias 127 -> 15 (112 << 23).
    return sign | ((a + 0x0fff + ((a >>> 13) & 1) - 0x38000000) >>> 13);
  }
  if (a <= 0x33000000) return sign; // <= 2^-25: at most half the smallest subnormal (tie -> 0)
  // Subnormal result in units of 2^-24: sig * 2^(e - 126).
  const shift = 126 - (a >>> 23);
  const sig = (a & 0x7fffff) | 0x800000;
  let q = sig >>> shift;
  const rem = sig & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  if (rem > half || (rem === half && (q & 1) === 1)) q++;
  return sign | q;
}

/** fp32 bits -> bfloat16, RNE, overflow to Inf, NaN quieted. Same exponent range: one add. */
export function f32BitsToBf16Rne(b: number, bf16: Minifloat): number {
  if ((b & 0x7fffffff) > 0x7f800000) return encodeFromF32Bits(bf16, b, 'rne');
  return (b + 0x7fff + ((b >>> 16) & 1)) >>> 16;
}

/** fp32 bits -> OCP E4M3, RNE, non-saturating (overflow, Inf and NaN -> NaN with the sign). */
export function f32BitsToE4m3Rne(b: number): number {
  const sign = (b >>> 24) & 0x80;
  const a = b & 0x7fffffff;
  // Above 464 (the tie between 448, mantissa 110 = even, and 480 which would be the NaN code).
  if (a > 0x43e80000) return sign | 0x7f;
  if (a >= 0x3c800000) {
    // Normal range [2^-6, 464]: round at bit 20, rebias 127 -> 7 (120 << 23).
    return sign | ((a + 0x7ffff + ((a >>> 20) & 1) - 0x3c000000) >>> 20);
  }
  if (a <= 0x3a800000) return sign; // <= 2^-10: at most half the smallest subnormal 2^-9
  // Subnormal result in units of 2^-9: sig * 2^(e - 141).
  const shift = 141 - (a >>> 23);
  const sig = (a & 0x7fffff) | 0x800000;
  let q = sig >>> shift;
  const rem = sig & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  if (rem > half || (rem === half && (q & 1) === 1)) q++;
  return sign | q;
}
