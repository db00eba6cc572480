/**
 * pto-isa's pipeline simulator ("Perf-Sim", docs/costmodel/perf-sim-user-guide.md) as an anchor for
 * axsim's per-op cycles. Perf-Sim records each PTO instruction with a duration
 * (include/pto/costmodel/pto_instr.hpp `RecordInstr`): the instruction's cce trace cycles when the
 * cost build priced it (non-zero), else — and for TROWEXPAND when larger, and for i16/i32 TDIVS —
 * `perf_sim::EstimateInstrCycles(opcode, validRow, validCol, dtype)` on the first tile argument
 * (costmodel_provider.hpp): the lightweight formula when it has a curve, else `FallbackCycles`, a
 * per-pipe line in the element count. Followed: pto-isa @3186c381 include/pto/costmodel/perf_sim/
 * {costmodel_provider.hpp, latency.hpp, recorder.hpp}. The pipeline scheduling itself (overlap of
 * MTE2 / V / M / FIX / MTE3) is not modelled here: this is the per-op duration Perf-Sim schedules.
 */
import type { CostConstant } from './types.ts';

export const PERFSIM_SOURCE = 'pto-isa @3186c381 include/pto/costmodel/perf_sim/costmodel_provider.hpp';

export const PERFSIM_CONSTANTS = {
  matrixLatencyBase: { value: 4, name: 'kMatrixLatencyBase', source: PERFSIM_SOURCE },
  elemsPerMatrixUnit: { value: 16, name: 'kElemsPerMatrixUnit', source: PERFSIM_SOURCE },
  gmLatencyBase: { value: 3, name: 'kGMLatencyBase', source: PERFSIM_SOURCE },
  gmCycleMultiplier: { value: 2, name: 'kGMCycleMultiplier', source: PERFSIM_SOURCE },
  gmElemsPerUnit: { value: 64, name: 'kGMElemsPerUnit', source: PERFSIM_SOURCE },
  mte1LatencyBase: { value: 1, name: 'kMTE1LatencyBase', source: PERFSIM_SOURCE },
  mte1ElemsPerUnit: { value: 64, name: 'kMTE1ElemsPerUnit', source: PERFSIM_SOURCE },
  defaultLatencyBase: { value: 2, name: 'kDefaultLatencyBase', source: PERFSIM_SOURCE },
  defaultElemsPerUnit: { value: 32, name: 'kDefaultElemsPerUnit', source: PERFSIM_SOURCE },
} as const satisfies Record<string, CostConstant>;

export type PerfSimStage = 'Scalar' | 'Matrix' | 'MTE1' | 'MTE2_AIV' | 'MTE3' | 'Vector';

const SCALAR_OPS = new Set([
  'TSYNC',
  'TRESHAPE',
  'TASSIGN',
  'TPRINT',
  'TGET_SCALE_ADDR',
  'TSUBVIEW',
  'TALLOC',
  'TFREE',
  'TPUSH',
  'TPOP',
]);
const MATRIX_OPS = new Set(['TMATMUL', 'TMATMUL_ACC', 'TMATMUL_BIAS', 'TGEMV', 'TGEMV_ACC', 'TGEMV_BIAS']);

/** latency.hpp `StaticPipeStageLookup` (the stage FallbackCycles prices by). */
export function perfSimStage(op: string): PerfSimStage {
  if (SCALAR_OPS.has(op)) return 'Scalar';
  if (MATRIX_OPS.has(op)) return 'Matrix';
  if (op === 'TIMG2COL' || op === 'TTRANS') return 'MTE1';
  if (op === 'TLOAD' || op === 'TPREFETCH') return 'MTE2_AIV';
  if (op === 'TSTORE') return 'MTE3';
  return 'Vector';
}

/** costmodel_provider.hpp `FallbackCycles(opcode, rows, cols)` (uint64 arithmetic). */
export function perfSimFallbackCycles(op: string, rows: number, cols: number): number {
  const elems = rows * cols;
  const k = PERFSIM_CONSTANTS;
  switch (perfSimStage(op)) {
    case 'Scalar':
      return 1;
    case 'Matrix':
      return k.matrixLatencyBase.value + Math.floor(elems / k.elemsPerMatrixUnit.value);
    case 'MTE2_AIV':
    case 'MTE3':
      return k.gmLatencyBase.value + Math.floor((elems * k.gmCycleMultiplier.value) / k.gmElemsPerUnit.value);
    case 'MTE1':
      return k.mte1LatencyBase.value + Math.floor(elems / k.mte1ElemsPerUnit.value);
    default:
      return k.defaultLatencyBase.value + Math.floor(elems / k.defaultElemsPerUnit.value);
  }
}
