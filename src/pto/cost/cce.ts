/**
 * The `pto-isa` cost model: pto-isa's current A2/A3 instruction-level model (`-D__COSTMODEL`), i.e.
 * the real A2/A3 kernels (`include/pto/npu/a2a3/*.hpp`) choosing which CCE intrinsics to issue, and
 * the intrinsic cost stubs (`include/pto/costmodel/a2a3/cce_costmodel/*.hpp`) pricing them, with the
 * trace bookkeeping of `include/pto/costmodel/trace.hpp` (pending vector tail, queue-empty head).
 * Followed: pto-isa @3186c381 and shared/conformance/PTO-NOTES.md §4; re-expressed in TypeScript
 * from reading those sources, family by family (kernels in ./kernels/).
 *
 * The conformance driver's tiles all have dynamic valid shapes (`Tile<…, -1, -1>`), so every
 * compile-time "ValidCol == Cols" test in the kernels is false; axsim prices programs the same way.
 */
import { unsupported } from '../../errors.ts';
import { a2a3FormulaCycles } from './formula.ts';
import { DERIVED_KERNELS, KERNELS } from './kernels/index.ts';
import { perfSimFallbackCycles } from './perfsim.ts';
import type { PipeState } from './pipes.ts';
import { Trace } from './trace.ts';
import type { CostInput, CostResult } from './types.ts';

export { Trace } from './trace.ts';

const DTYPE_STR: Record<string, string> = {
  f32: 'fp32',
  f16: 'fp16',
  i8: 'int8',
  i16: 'int16',
  i32: 'int32',
  u8: 'uint8',
  u16: 'uint16',
  u32: 'uint32',
  bf16: 'bf16',
};

/**
 * `perf_sim::EstimateInstrCycles(opcode, rows, cols, dtype)` (costmodel_provider.hpp): the
 * lightweight formula on the first tile argument's valid shape, else Perf-Sim's per-stage
 * `FallbackCycles` (perfsim.ts).
 */
export function estimateInstrCycles(op: string, rows: number, cols: number, dtype: string): number {
  const ds = DTYPE_STR[dtype] ?? 'unknown';
  if (op === 'TDIVS' && (ds === 'int16' || ds === 'int32')) return 4;
  const LIGHTWEIGHT_OPS = new Set([
    'TADD',
    'TSUB',
    'TMUL',
    'TDIV',
    'TADDS',
    'TSUBS',
    'TMULS',
    'TDIVS',
    'TMINS',
    'TMAXS',
    'TABS',
    'TNEG',
    'TEXP',
    'TSQRT',
    'TRSQRT',
    'TLOG',
    'TRELU',
    'TLRELU',
    'TNOT',
    'TROWSUM',
    'TROWMAX',
    'TROWMIN',
    'TROWPROD',
    'TCOLSUM',
    'TCOLMAX',
    'TCOLMIN',
    'TCOLPROD',
    'TMATMUL',
    'TGEMV',
    'TCVT',
    'TMOV',
    'TLOAD',
    'TSTORE',
    'TTRANS',
    'TPREFETCH',
    'TSORT32',
    'TMRGSORT',
    'TSEL',
    'TSCATTER',
    'TEXTRACT',
    'TINSERT',
    'TROWEXPAND',
    'TCOLEXPAND',
    'TLOADCONV',
  ]);
  if (LIGHTWEIGHT_OPS.has(op)) {
    // MapDType: unknown names map to Half; the lightweight estimator prices f32/f16 only
    const lwDtype = ds === 'fp32' ? 'f32' : ds === 'fp16' || !(ds in REVERSE) ? 'f16' : dtype;
    const est = a2a3FormulaCycles({
      op,
      dtype: lwDtype,
      rows,
      cols,
      validRow: rows,
      validCol: cols,
      K: op === 'TMATMUL' || op === 'TGEMV' ? cols : undefined,
      // tile_type is not set by the perf_sim bridge, so transfers fall through to 0
      tileType: 'Unknown',
    });
    if (est && est.cycles > 0) return Math.trunc(est.cycles);
  }
  return perfSimFallbackCycles(op, rows, cols);
}
const REVERSE: Record<string, true> = {
  fp32: true,
  fp16: true,
  int8: true,
  int16: true,
  int32: true,
  uint8: true,
  uint16: true,
  uint32: true,
  bf16: true,
};

/** The `pto-isa` model for one instruction. Throws Unsupported where the A2/A3 build rejects it. */
export function ptoIsaCost(inp: CostInput, _state?: PipeState, opts: { derived?: boolean } = {}): CostResult {
  if (opts.derived && (inp.op === 'TLOAD' || inp.op === 'TSTORE') && inp.dtype === 'bf16') {
    // TLOAD.md / TSTORE.md: A2/A3 move bfloat16; the kernels' copies depend on the element size
    // only and the reference cost build has no bfloat16 on the host: priced as the 2-byte path
    const r = ptoIsaCost(
      { ...inp, dtype: 'f16', gmDtype: inp.gmDtype === 'bf16' ? 'f16' : inp.gmDtype },
      _state,
    );
    return { ...r, path: `derived: bf16 as the 2-byte path — ${r.path}` };
  }
  const kernel = KERNELS[inp.op] ?? (opts.derived ? DERIVED_KERNELS[inp.op] : undefined);
  if (!kernel) {
    throw unsupported(`pto-isa A2/A3 model: ${inp.op} is not wired into the cost-model build`, {
      hint: 'PTO-NOTES §4.2 lists the kernels the A2/A3 cost model compiles',
    });
  }
  const t = new Trace();
  const info = kernel(inp, t);
  let cycles = t.cycles;
  let path = info.path;
  // the opcode RecordInstr sees: the cost build's TRECIP is MAP_INSTR_IMPL(TDIVS, dst, 1, src)
  const recOp = inp.op === 'TRECIP' ? 'TDIVS' : inp.op;
  const est = estimateInstrCycles(recOp, info.firstTile[0], info.firstTile[1], info.firstDtype ?? inp.dtype);
  const useEst =
    cycles === 0 ||
    (recOp === 'TROWEXPAND' && est > cycles) ||
    (recOp === 'TDIVS' && (inp.dtype === 'i16' || inp.dtype === 'i32'));
  if (useEst) {
    cycles = est;
    path += ' (fitted estimate substituted)';
  }
  return { cycles, pendingVectorTail: t.pendingTail(), terms: t.terms, path };
}
