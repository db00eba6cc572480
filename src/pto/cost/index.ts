/** Public API of the PTO cost models: `seed`, `pto-isa` (cce_trace), `formula`. */
import { badInput } from '../../errors.ts';
import { ptoIsaCost } from './cce.ts';
import { formulaCost } from './formula.ts';
import { newPipeState, type PipeState } from './pipes.ts';
import { type CostFn, costProgram, formatProgramCost } from './program.ts';
import { seedCost } from './seed.ts';
import type { CostArch, CostInput, CostModelName, CostResult } from './types.ts';

export { newPipeState, type PipeState } from './pipes.ts';
export {
  costInputOf,
  costProgram,
  formatProgramCost,
  type InstructionCost,
  type ProgramCost,
} from './program.ts';
export { SEED_CONSTANTS, seedCost, seedRepeats } from './seed.ts';
export type { CostArch, CostConstant, CostInput, CostModelName, CostResult, CostTerm } from './types.ts';

export const COST_MODELS: readonly CostModelName[] = ['seed', 'pto-isa', 'formula'];

/** The cost function of a model for an arch. `seed` and `pto-isa` are A2/A3 models. */
export function costFunction(model: CostModelName, arch: CostArch): CostFn {
  switch (model) {
    case 'seed':
      if (arch !== 'a2a3')
        throw badInput('the seed model describes A2/A3 only', {
          hint: 'use --profile a2a3, or --model formula for a5',
        });
      return (inp) => seedCost(inp);
    case 'pto-isa':
      if (arch !== 'a2a3') {
        throw badInput(
          'the pto-isa instruction-level model is A2/A3 only (the A5 one needs an LLVM plugin)',
          {
            hint: 'use --model formula --profile a5',
          },
        );
      }
      return (inp, st) => ptoIsaCost(inp, st);
    case 'formula':
      return (inp) => formulaCost(inp, arch);
    default:
      throw badInput(`unknown cost model '${model as string}'`, { hint: 'one of seed, pto-isa, formula' });
  }
}

/** Costs one instruction in isolation (fresh pipe state). */
export function costInstruction(model: CostModelName, arch: CostArch, inp: CostInput): CostResult {
  return costFunction(model, arch)(inp, newPipeState());
}

export { formatProgramCost as formatCostTable };

void costProgram;
void (null as unknown as PipeState);
