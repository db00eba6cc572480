/**
 * Writes examples/tensix/tile.npy: one 32x32 fp32 tile for the Tensix examples, with axsim's own
 * .npy writer. Row r, column c holds (c - 15.5) * 2^(r % 8 - 4), so every row mixes negative and
 * positive values of several magnitudes; a few cells hold ±0, ±Inf, NaN, a denormal and the
 * largest finite value. Run from the repository root:
 *   node --import tsx examples/tensix/make-tile.ts
 */
import { fileURLToPath } from 'node:url';
import { writeNpy } from '../../src/io/index.ts';
import { bitsToF32 } from '../../src/numeric/index.ts';

const data = new Float32Array(32 * 32);
for (let r = 0; r < 32; r++) for (let c = 0; c < 32; c++) data[r * 32 + c] = (c - 15.5) * 2 ** ((r % 8) - 4);
data[0] = 0;
data[1] = -0;
data[2] = Number.POSITIVE_INFINITY;
data[3] = Number.NEGATIVE_INFINITY;
data[4] = Number.NaN;
data[5] = bitsToF32(0x00000001); // the smallest fp32 denormal
data[6] = bitsToF32(0x7f7fffff); // the largest finite fp32

const out = fileURLToPath(new URL('./tile.npy', import.meta.url));
writeNpy(out, { dtype: 'f4', shape: [32, 32], data });
console.log(`wrote ${out}`);
