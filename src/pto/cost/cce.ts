/** The pto-isa A2/A3 instruction-level model (cce_trace). */
import { unsupported } from '../../errors.ts';
import type { PipeState } from './pipes.ts';
import type { CostInput, CostResult } from './types.ts';

export function ptoIsaCost(inp: CostInput, _st: PipeState): CostResult {
  throw unsupported(`pto-isa model: ${inp.op} is not modelled yet`);
}
