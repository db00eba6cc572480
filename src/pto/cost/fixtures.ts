/** Shared test input of the cost-model tests: spec 002's worked example (16x64 f32 RowMajor TADD). */
import type { CostInput } from './types.ts';

/** The worked-example input with the given fields replaced. */
export const inp = (o: Partial<CostInput>): CostInput => ({
  op: 'TADD',
  dtype: 'f32',
  rows: 16,
  cols: 64,
  validRow: 16,
  validCol: 64,
  layout: 'RM',
  ...o,
});
