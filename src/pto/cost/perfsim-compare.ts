/**
 * axsim's per-op cycles next to pto-isa Perf-Sim's per-op durations (cost/perfsim.ts), for the
 * comparison table of docs/pto-as.md ("Perf-Sim as an anchor"); `scripts/perfsim-table.ts` prints it.
 */
import type { Module } from '../asm/ast.ts';
import { ptoIsaCost } from './cce.ts';
import { costFunction } from './index.ts';
import { type CostFn, costProgram } from './program.ts';

/** One source op of a program: axsim's per-op cycles next to Perf-Sim's per-op duration. */
export interface PerfSimRow {
  line: number;
  col: number;
  op: string;
  shape: string;
  count: number;
  /** axsim `pto-isa` (with derived prices) and `formula` (a2a3) cycles of the first execution. */
  ptoIsa: number | null;
  ptoIsaPath: string;
  formula: number | null;
  /** Perf-Sim's duration: the reference cost build's trace cycles (null: it cannot build the op). */
  perfSim: number | null;
}

/**
 * Perf-Sim's per-op durations for function `func` of `m` (A2/A3, CceMock durations as RecordInstr
 * takes them: the trace cycles, the fitted estimate where the kernel issued nothing, for TROWEXPAND
 * when larger and for i16/i32 TDIVS — exactly axsim's `pto-isa` model without derived prices),
 * next to axsim's `pto-isa` (derived prices on) and `formula` per-op cycles.
 */
export function comparePerfSim(
  m: Module,
  opts: { func?: string; scalars?: Record<string, number> } = {},
): PerfSimRow[] {
  const run = (fn: CostFn, model: 'pto-isa' | 'formula') =>
    costProgram(m, model, 'a2a3', fn, opts).instructions;
  const isa = run(costFunction('pto-isa', 'a2a3'), 'pto-isa');
  const fo = run(costFunction('formula', 'a2a3'), 'formula');
  const ps = run((inp, st) => ptoIsaCost(inp, st), 'pto-isa');
  const key = (r: { line: number; col: number }) => `${r.line}:${r.col}`;
  const foBy = new Map(fo.map((r) => [key(r), r]));
  const psBy = new Map(ps.map((r) => [key(r), r]));
  return isa
    .filter((r) => r.path !== 'ordering (no intrinsics)')
    .map((r) => ({
      line: r.line,
      col: r.col,
      op: r.op,
      shape: r.shape,
      count: r.count,
      ptoIsa: r.cycles === null ? null : r.first,
      ptoIsaPath: r.path,
      formula: foBy.get(key(r))?.cycles === null ? null : (foBy.get(key(r))?.first ?? null),
      perfSim: psBy.get(key(r))?.cycles === null ? null : (psBy.get(key(r))?.first ?? null),
    }));
}
