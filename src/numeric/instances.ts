/**
 * The named format instances (see formats.ts for what each is). Kept in their own module so that
 * fast.ts can build its tables from them without an import cycle.
 */
import { defineMinifloat, type Minifloat } from './minifloat.ts';

export const FP16 = defineMinifloat({ name: 'fp16', expBits: 5, manBits: 10, bias: 15, special: 'ieee' });
export const BF16 = defineMinifloat({ name: 'bf16', expBits: 8, manBits: 7, bias: 127, special: 'ieee' });
export const TF32 = defineMinifloat({ name: 'tf32', expBits: 8, manBits: 10, bias: 127, special: 'ieee' });
export const E4M3 = defineMinifloat({ name: 'e4m3', expBits: 4, manBits: 3, bias: 7, special: 'fn' });
export const E5M2 = defineMinifloat({ name: 'e5m2', expBits: 5, manBits: 2, bias: 15, special: 'ieee' });
export const E3M2 = defineMinifloat({ name: 'e3m2', expBits: 3, manBits: 2, bias: 3, special: 'none' });
export const E2M3 = defineMinifloat({ name: 'e2m3', expBits: 2, manBits: 3, bias: 1, special: 'none' });
export const E2M1 = defineMinifloat({ name: 'e2m1', expBits: 2, manBits: 1, bias: 1, special: 'none' });
/** fp32 itself as a codec instance (useful for re-rounding modes on fp32 bits: identity). */
export const FP32 = defineMinifloat({ name: 'f32', expBits: 8, manBits: 23, bias: 127, special: 'ieee' });

/** Every named format by name (CLI and docs use these names). */
export const FORMATS: Readonly<Record<string, Minifloat>> = Object.freeze({
  fp16: FP16,
  bf16: BF16,
  tf32: TF32,
  e4m3: E4M3,
  e5m2: E5M2,
  e3m2: E3M2,
  e2m3: E2M3,
  e2m1: E2M1,
  f32: FP32,
});
