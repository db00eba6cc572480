/**
 * Public API of the PTO cost models: `seed` (spec 002's A2/A3 formula), `pto-isa` (the current
 * pto-isa A2/A3 instruction-level model, cce_trace) and `formula` (its fitted estimator, A2/A3 and
 * A5). `costCaseRunner` runs pto-cost.jsonl.gz rows; the CLI registers it with part 1's
 * `axsim pto conformance` (src/pto/conformance.ts registerCostRunner).
 */
import { badInput } from '../../errors.ts';
import { ptoIsaCost } from './cce.ts';
import { formulaCost } from './formula.ts';
import { newPipeState } from './pipes.ts';
import type { CostFn } from './program.ts';
import { seedCost } from './seed.ts';
import type { CostArch, CostInput, CostModelName, CostResult } from './types.ts';

export { estimateInstrCycles, ptoIsaCost } from './cce.ts';
export { costCaseRunner, costInputFromRow } from './conformance.ts';
export { a2a3FormulaCycles, a5FormulaCycles, formulaCost } from './formula.ts';
export { newPipeState, type PipeState } from './pipes.ts';
export {
  type CostFn,
  costInputOf,
  costProgram,
  formatProgramCost,
  type InstructionCost,
  type ProgramCost,
} from './program.ts';
export { SEED_CONSTANTS, SEED_OPS, seedCost, seedRepeats } from './seed.ts';
export { PIPE_BW, VEC_COST } from './trace.ts';
export type { CostArch, CostConstant, CostInput, CostModelName, CostResult, CostTerm } from './types.ts';

export const COST_MODELS: readonly CostModelName[] = ['seed', 'pto-isa', 'formula'];

/**
 * The cost function of a model for an arch, as program totals use it: with the prices axsim derives
 * where the reference has none (`derived`, docs/pto-as.md "Derived prices"), each marked `derived:`
 * in its path. `seed` and `pto-isa` are A2/A3 models.
 */
export function costFunction(model: CostModelName, arch: CostArch): CostFn {
  switch (model) {
    case 'seed':
      if (arch !== 'a2a3') {
        throw badInput('the seed model describes A2/A3 only', {
          hint: 'use --profile a2a3, or --model formula for a5',
        });
      }
      return (inp) => seedCost(inp, { derived: true });
    case 'pto-isa':
      if (arch !== 'a2a3') {
        throw badInput(
          'the pto-isa instruction-level model is A2/A3 only (the A5 one needs an LLVM plugin)',
          {
            hint: 'use --model formula --profile a5',
          },
        );
      }
      return (inp, st) => ptoIsaCost(inp, st, { derived: true });
    case 'formula':
      return (inp) => formulaCost(inp, arch, { derived: true });
    default:
      throw badInput(`unknown cost model '${model as string}'`, { hint: 'one of seed, pto-isa, formula' });
  }
}

/** Costs one instruction in isolation (fresh pipe state). */
export function costInstruction(model: CostModelName, arch: CostArch, inp: CostInput): CostResult {
  return costFunction(model, arch)(inp, newPipeState());
}
