/** pto-isa's lightweight fitted estimator (formula rows), A2/A3 and A5. */
import { unsupported } from '../../errors.ts';
import type { CostArch, CostInput, CostResult } from './types.ts';

export function formulaCost(inp: CostInput, arch: CostArch): CostResult {
  throw unsupported(`formula model (${arch}): ${inp.op} is not modelled yet`);
}
