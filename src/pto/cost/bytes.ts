/**
 * Element sizes (bytes) of the types the A2/A3 cost models have kernels for — one table for the
 * pto-isa trace kernels (kernels/*.ts) and the formula model (formula.ts). Types outside it (64-bit
 * integers, fp8) have no A2/A3 kernel: callers raise Unsupported on a missing entry.
 */
export const BYTES: Readonly<Record<string, number>> = {
  i8: 1,
  u8: 1,
  f16: 2,
  i16: 2,
  u16: 2,
  bf16: 2,
  f32: 4,
  i32: 4,
  u32: 4,
};
