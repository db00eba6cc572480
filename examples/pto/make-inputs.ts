/**
 * Writes the input arrays the examples/pto programs take (see README.md there) with axsim's own
 * .npy writer. The values are deterministic and chosen so results are easy to check by hand:
 * small multiples of 1/4 (exact in f32 and f16, so the matmul's sums are exact), mixed signs,
 * and rows that differ from each other. Run from the repository root:
 *   node --import tsx examples/pto/make-inputs.ts
 */
import { fileURLToPath } from 'node:url';
import { type NpyArray, writeNpy } from '../../src/io/index.ts';
import { f32BitsToFp16, f32ToBits } from '../../src/numeric/index.ts';

/** A deterministic pseudo-random integer in [lo, hi] for element i of stream `seed`. */
function pick(seed: number, i: number, lo: number, hi: number): number {
  // one round of a 32-bit integer hash (xorshift-multiply), enough to scatter small indices
  let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(seed, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return lo + ((h >>> 0) % (hi - lo + 1));
}

function f32(rows: number, cols: number, f: (r: number, c: number) => number): NpyArray {
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) data[r * cols + c] = f(r, c);
  return { dtype: 'f4', shape: [rows, cols], data };
}

function f16(rows: number, cols: number, f: (r: number, c: number) => number): NpyArray {
  const data = new Uint16Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) data[r * cols + c] = f32BitsToFp16(f32ToBits(f(r, c)));
  }
  return { dtype: 'f2', shape: [rows, cols], data };
}

/** The example inputs by file name (also read by src/pto/asm/examples.test.ts). */
export const EXAMPLE_INPUTS: Record<string, NpyArray> = {
  // add.pto: C = A + B
  'A16x64.npy': f32(16, 64, (r, c) => pick(1, r * 64 + c, -400, 400) / 4),
  'B16x64.npy': f32(16, 64, (r, c) => r * 100 + c / 8),
  // add-scalar.pto: C = A + s
  'A16x16.npy': f32(16, 16, (r, c) => (r - 8) * 16 + c),
  // softmax.pto: rows with different maxima and spreads (x in [-8, 8])
  'X16x128.npy': f32(16, 128, (r, c) => (pick(2, r * 128 + c, -32, 32) / 4) * ((r % 4) + 1) * 0.25),
  // matmul.pto: f16 A (16x32) and B (32x16), small quarter-integers: every product and sum is exact
  'A16x32f16.npy': f16(16, 32, (r, c) => pick(3, r * 32 + c, -8, 8) / 4),
  'B32x16f16.npy': f16(32, 16, (r, c) => pick(4, r * 16 + c, -8, 8) / 4),
  // dynamic-valid.pto: ReLU of two rows with both signs; the last column is positive, so the
  // second iteration's 31 valid columns leave a visible unwritten element
  'X2x32.npy': f32(2, 32, (r, c) => (c % 3 === 2 ? -1 : 1) * (r * 32 + c + 0.5)),
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, arr] of Object.entries(EXAMPLE_INPUTS)) {
    const out = fileURLToPath(new URL(`./${name}`, import.meta.url));
    writeNpy(out, arr);
    console.log(`wrote ${out} (${arr.dtype} ${arr.shape.join('x')})`);
  }
}
