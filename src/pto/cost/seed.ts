/**
 * The `seed` cost model: the A2/A3 binary elementwise model exactly as spec 002 states it
 * ("Performance / A2/A3 Throughput"): cycles = startup + completion + 2·R + (R−1)·interval with
 * R repeats of 8 elements, and the three shape-dependent paths of its "Shape-Dependent
 * Optimizations" table. (PTO-NOTES §4.1: the current pto-isa no longer contains this model; the
 * `pto-isa` model in cce.ts is the current one.)
 *
 * Decisions where the spec is brief (docs/pto-as.md "Seed cost model"):
 *  - small-tile path (Bin1LNormModeSmall, "1 repeat covers entire row"): physical cols smaller
 *    than one repeat (8) and rows ≤ 255 (one instruction's repeat limit): R = validRow;
 *  - continuous path (RowMajor, valid columns = physical columns): R = ⌈validRow·validCol / 8⌉;
 *  - general path (RowMajor with validCol < cols: stride-dependent repeats per row):
 *    R = validRow · ⌈validCol / 8⌉; ColMajor walks columns: R = validCol · ⌈validRow / 8⌉;
 *  - an empty valid region issues nothing: 0 cycles.
 */
import { unsupported } from '../../errors.ts';
import { perfSimFallbackCycles, perfSimStage } from './perfsim.ts';
import type { CostConstant, CostInput, CostResult } from './types.ts';

const SPEC = 'spec 002 pto.tadd, Performance: A2/A3 Throughput';

export const SEED_CONSTANTS = {
  startup: { value: 14, name: 'A2A3_STARTUP_BINARY', source: SPEC },
  completionFp: { value: 19, name: 'A2A3_COMPL_FP_BINOP', source: SPEC },
  completionInt: { value: 17, name: 'A2A3_COMPL_INT_BINOP', source: SPEC },
  perRepeat: { value: 2, name: 'A2A3_RPT_2', source: SPEC },
  interval: { value: 18, name: 'A2A3_INTERVAL', source: SPEC },
  elementsPerRepeat: { value: 8, source: `${SPEC} ("R = validRow × validCol / 8")` },
  maxRepeat: { value: 255, source: 'repeat field limit of one CCE vector instruction (PTO-NOTES §4.3)' },
} as const satisfies Record<string, CostConstant>;

/**
 * The instructions spec 002's model prices: the binary tile-tile elementwise family (two source
 * tiles and a destination of one element type, lane-wise, "compiled to CCE vector instructions"
 * with the `…_BINARY` / `…_BINOP` constants). TPRELU belongs to it (a binary lane-wise tile-tile
 * op; its tmp operand is scratch). Not in it: tile-scalar ops (TADDS…), unary ops (TEXP…), the
 * ternary TADDC/TSUBC, TCMP/TSEL (mask results or operands) and TPARTADD/MAX/MIN (they combine
 * tiles of different valid regions, which the model's single iteration domain does not describe):
 * spec 002 gives no constants for those, so they are reported as outside the seed model.
 */
export const SEED_OPS: ReadonlySet<string> = new Set([
  'TADD',
  'TSUB',
  'TMUL',
  'TDIV',
  'TMAX',
  'TMIN',
  'TAND',
  'TOR',
  'TXOR',
  'TSHL',
  'TSHR',
  'TREM',
  'TFMOD',
  'TPOW',
  'TPRELU',
]);

const INT_TYPES = new Set(['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64']);

export function seedRepeats(inp: CostInput): { repeats: number; path: string } {
  const epr = SEED_CONSTANTS.elementsPerRepeat.value;
  const { rows, cols, validRow, validCol } = inp;
  const layout = inp.layout ?? 'RM';
  if (validRow <= 0 || validCol <= 0) return { repeats: 0, path: 'empty' };
  if (layout === 'CM') return { repeats: validCol * Math.ceil(validRow / epr), path: 'general (col-major)' };
  if (layout !== 'RM')
    throw unsupported(`seed model: layout ${layout} is not modelled`, {
      hint: 'spec 002 sends zigzag (boxed) tiles down the general path but gives no repeat count for them; RowMajor and ColMajor are modelled',
    });
  if (cols < epr && rows <= SEED_CONSTANTS.maxRepeat.value)
    return { repeats: validRow, path: 'small-tile (Bin1LNormModeSmall)' };
  if (validCol === cols) return { repeats: Math.ceil((validRow * validCol) / epr), path: 'continuous' };
  return { repeats: validRow * Math.ceil(validCol / epr), path: 'general' };
}

/**
 * Issue 13's named ops outside spec 002 (transfers, TEXPANDS, TCOLEXPANDMUL, TFILLPAD) get a derived
 * price: pto-isa Perf-Sim's own duration for an instruction its models do not price
 * (`FallbackCycles` on the destination's valid rows x columns, cost/perfsim.ts).
 */
const DERIVED_OPS = new Set(['TLOAD', 'TSTORE', 'TEXPANDS', 'TCOLEXPANDMUL', 'TFILLPAD']);

export function seedCost(inp: CostInput, opts: { derived?: boolean } = {}): CostResult {
  if (opts.derived && DERIVED_OPS.has(inp.op)) {
    const cycles = perfSimFallbackCycles(inp.op, inp.validRow, inp.validCol);
    return {
      cycles,
      pendingVectorTail: 0,
      terms: [{ name: `Perf-Sim FallbackCycles (${perfSimStage(inp.op)})`, cycles }],
      path: `derived: Perf-Sim FallbackCycles (${perfSimStage(inp.op)}, ${inp.validRow}x${inp.validCol} elements; outside spec 002)`,
    };
  }
  if (!SEED_OPS.has(inp.op)) {
    throw unsupported(
      `${inp.op} is outside the seed model (spec 002 prices the binary tile-tile elementwise family only)`,
      { hint: 'use --model pto-isa or --model formula for other instructions' },
    );
  }
  const { repeats: R, path } = seedRepeats(inp);
  if (R === 0) return { cycles: 0, pendingVectorTail: 0, terms: [], path };
  const c = SEED_CONSTANTS;
  const compl = INT_TYPES.has(inp.dtype) ? c.completionInt : c.completionFp;
  const terms = [
    { name: 'startup', cycles: c.startup.value },
    { name: INT_TYPES.has(inp.dtype) ? 'completion (INT)' : 'completion (FP)', cycles: compl.value },
    { name: 'repeats', cycles: c.perRepeat.value * R, args: [R] },
    { name: 'intervals', cycles: (R - 1) * c.interval.value, args: [R - 1] },
  ];
  return { cycles: terms.reduce((s, t) => s + t.cycles, 0), pendingVectorTail: 0, terms, path };
}
