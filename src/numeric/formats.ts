/**
 * The named formats, as instances of the parametric codec, and the public per-format functions.
 *
 * - binary16 (IEEE 754; Tensix "fp16a"): E5M10, bias 15, Inf/NaN.
 * - bfloat16 (Tensix "fp16b"): E8M7, bias 127, Inf/NaN — the top half of an fp32.
 * - TF32: E8M10, bias 127, Inf/NaN — a 19-bit format; `f32BitsToTf32` returns it in the fp32
 *   container (low 13 bits zero), as NVIDIA and the Tensix SFPSTOCHRND do.
 * - OCP fp8 E4M3 ("E4M3FN"): bias 7, no Inf, only S.1111.111 is NaN, max 448.
 * - OCP fp8 E5M2: bias 15, IEEE-like (Inf and NaN), max 57344.
 * - OCP MX fp6 E3M2 / E2M3 and fp4 E2M1: no Inf, no NaN (OCP Microscaling Formats v1.0 §5.3).
 * References: IEEE 754-2019 §3.6; OCP 8-bit Floating Point Specification (OFP8) rev 1.0 §3, §5;
 * OCP Microscaling Formats (MX) v1.0 §5.3.
 */
import { f32BitsToBf16Rne, f32BitsToE4m3Rne, f32BitsToFp16Rne } from './fast.ts';
import { BF16, E4M3, E5M2, FP16, TF32 } from './instances.ts';
import {
  type DecodeOptions,
  decodeToF32Bits,
  type EncodeOptions,
  encodeFromF32Bits,
  type RoundMode,
} from './minifloat.ts';

export { BF16, E2M1, E2M3, E3M2, E4M3, E5M2, FORMATS, FP16, FP32, TF32 } from './instances.ts';

// ---- binary16 ----
export function fp16ToF32Bits(h: number, opts?: DecodeOptions): number {
  return decodeToF32Bits(FP16, h, opts);
}
export function f32BitsToFp16(b: number, mode: RoundMode = 'rne', opts?: EncodeOptions): number {
  if (mode === 'rne' && opts === undefined) return f32BitsToFp16Rne(b);
  return encodeFromF32Bits(FP16, b, mode, opts);
}

// ---- bfloat16 ----
export function bf16ToF32Bits(h: number, opts?: DecodeOptions): number {
  if (opts === undefined || opts.flushIn !== true) return (h << 16) >>> 0;
  return decodeToF32Bits(BF16, h, opts);
}
export function f32BitsToBf16(b: number, mode: RoundMode = 'rne', opts?: EncodeOptions): number {
  if (mode === 'rne' && opts === undefined) return f32BitsToBf16Rne(b, BF16);
  return encodeFromF32Bits(BF16, b, mode, opts);
}

// ---- TF32 (in the fp32 container) ----
/** Rounds fp32 bits to TF32 and returns them in the fp32 container (low 13 bits zero). */
export function f32BitsToTf32(b: number, mode: RoundMode = 'rne', opts?: EncodeOptions): number {
  return (encodeFromF32Bits(TF32, b, mode, opts) << 13) >>> 0;
}
/** TF32 as a 19-bit code -> fp32 bits. */
export function tf32ToF32Bits(c: number, opts?: DecodeOptions): number {
  return decodeToF32Bits(TF32, c, opts);
}

// ---- OCP fp8 ----
export function e4m3ToF32Bits(c: number, opts?: DecodeOptions): number {
  return decodeToF32Bits(E4M3, c, opts);
}
export function f32BitsToE4m3(b: number, mode: RoundMode = 'rne', opts?: EncodeOptions): number {
  if (mode === 'rne' && opts === undefined) return f32BitsToE4m3Rne(b);
  return encodeFromF32Bits(E4M3, b, mode, opts);
}
export function e5m2ToF32Bits(c: number, opts?: DecodeOptions): number {
  return decodeToF32Bits(E5M2, c, opts);
}
export function f32BitsToE5m2(b: number, mode: RoundMode = 'rne', opts?: EncodeOptions): number {
  return encodeFromF32Bits(E5M2, b, mode, opts);
}
