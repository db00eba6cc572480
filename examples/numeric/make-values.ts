/**
 * Writes examples/numeric/values.npy (<f4, 24 values) with axsim's own .npy writer: values that
 * exercise every interesting case of the small formats. Run from the repository root:
 *   node --import tsx examples/numeric/make-values.ts
 */
import { fileURLToPath } from 'node:url';
import { writeNpy } from '../../src/io/index.ts';
import { bitsToF32 } from '../../src/numeric/index.ts';

const values: number[] = [
  0,
  -0,
  1,
  -1.5,
  1 / 3,
  0.1,
  bitsToF32(0x3f808000), // 1 + 2^-8: a bfloat16 tie (rounds to even 1.0 under rne)
  bitsToF32(0x3f818000), // 1 + 3*2^-8: a bfloat16 tie (rounds up to 1 + 2^-6)
  1 + 2 ** -11, // a binary16 tie (rounds to 1.0)
  2 ** -20, // a binary16 subnormal
  2 ** -130, // an fp32 subnormal that is also a bfloat16 subnormal
  1e-40, // an fp32 subnormal
  1e-8,
  448, // E4M3 max
  464, // E4M3 tie between 448 and the NaN code
  57344, // E5M2 max
  65504, // binary16 max
  65520, // binary16 overflow tie: rne -> Inf, rtz -> 65504
  bitsToF32(0x7f7fffff), // fp32 max: overflows bfloat16 under rne
  -1e30,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.NaN,
  Math.PI,
];

const out = fileURLToPath(new URL('./values.npy', import.meta.url));
writeNpy(out, { dtype: 'f4', shape: [values.length], data: Float32Array.from(values) });
console.log(`wrote ${out} (${values.length} values)`);
