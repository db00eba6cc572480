/** Test helpers shared by the SFPI tests (not part of the library). */
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { f32ToBits } from '../llk/checks.ts';
import { type LlkRunOptions, runLlkKernel } from '../llk/run.ts';

/** Element i of the input tile: (i % 17) - 8, so -8..8 with zeros (as +0); exact in binary32. */
export const tileInput = (i: number) => (i % 17) - 8;

/**
 * Runs `entry` of `source` in the LLK environment on a machine whose Dst tile 0 holds
 * {@link tileInput} as fp32; returns the run's result and tile 0 afterwards (as unsigned bits).
 */
export async function runOnTile(
  arch: Arch,
  source: string,
  file: string,
  entry: string,
  opts: Partial<LlkRunOptions> = {},
) {
  const m = new TensixMachine(arch);
  m.writeDstTile(
    0,
    Array.from({ length: 1024 }, (_, i) => f32ToBits(tileInput(i))),
    'fp32',
  );
  const r = await runLlkKernel(m, { ...opts, source, file, entry });
  return { r, out: Array.from(m.readDstTile(0, 'fp32'), (b) => b >>> 0) };
}
