/**
 * NaN policy helpers per width. "Canonical" here means the positive quiet NaN with an all-zero
 * payload (the RISC-V canonical NaN and the Arm default NaN): fp32 0x7FC00000, fp64
 * 0x7FF8000000000000, binary16 0x7E00, bfloat16 0x7FC0, TF32 0x7FC00000 (fp32 container),
 * E5M2 0x7E, E4M3 0x7F (its only NaN code besides 0xFF).
 */
import { BF16, E4M3, E5M2, FP16, FP32, TF32 } from './formats.ts';
import type { Minifloat } from './minifloat.ts';

export const CANONICAL_NAN_F32 = 0x7fc00000;
export const CANONICAL_NAN_F64 = 0x7ff8000000000000n;
export const CANONICAL_NAN_FP16 = FP16.nanCode;
export const CANONICAL_NAN_BF16 = BF16.nanCode;
export const CANONICAL_NAN_TF32 = (TF32.nanCode << 13) >>> 0;
export const CANONICAL_NAN_E4M3 = E4M3.nanCode;
export const CANONICAL_NAN_E5M2 = E5M2.nanCode;

/** Is the fp32 pattern a NaN? */
export function isNaNF32(b: number): boolean {
  return (b & 0x7fffffff) > 0x7f800000;
}
/** Is the fp32 NaN pattern signalling (quiet bit clear)? False for non-NaNs. */
export function isSignalingNaNF32(b: number): boolean {
  return isNaNF32(b) && (b & 0x00400000) === 0;
}
/** Sets the quiet bit of an fp32 NaN, keeping sign and payload; other values pass through. */
export function quietF32(b: number): number {
  return isNaNF32(b) ? (b | 0x00400000) >>> 0 : b >>> 0;
}
/** Replaces any fp32 NaN with the canonical NaN (as FPCR.DN=1 / RISC-V do); others pass through. */
export function canonicalizeF32(b: number): number {
  return isNaNF32(b) ? CANONICAL_NAN_F32 : b >>> 0;
}

/** Is the fp64 pattern a NaN? */
export function isNaNF64(b: bigint): boolean {
  return (b & 0x7fffffffffffffffn) > 0x7ff0000000000000n;
}
/** Sets the quiet bit of an fp64 NaN pattern; other values pass through. */
export function quietF64(b: bigint): bigint {
  return isNaNF64(b) ? b | 0x0008000000000000n : b;
}

/** Is `code` a NaN of the given small format? */
export function isNaNOf(f: Minifloat, code: number): boolean {
  const mag = code & f.magMask;
  if (f.special === 'ieee') return mag > f.infCode;
  if (f.special === 'fn') return mag === f.nanCode;
  return false;
}
/** Sets the quiet bit of a NaN code of an IEEE-style format; other codes pass through. */
export function quietOf(f: Minifloat, code: number): number {
  return f.special === 'ieee' && isNaNOf(f, code) ? (code | f.quietBit) >>> 0 : code;
}
/** The canonical NaN of a small format, or for fp32 (`FP32`) the fp32 canonical NaN. */
export function canonicalNaN(f: Minifloat): number {
  return f === FP32 ? CANONICAL_NAN_F32 : f.nanCode;
}
