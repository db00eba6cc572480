/**
 * AMX performance model (M1 Max). Each thread issues a stream of independent-accumulator FMAs; a
 * unit sustains `throughput` instructions per cycle, a dependency chain on one Z accumulator one
 * instruction per `latency` cycles. Threads alternate between the two AMX units; k threads on one
 * unit see latency L(1 + gamma(k-1)) and share eta_k * T. As in the measurement (fma.md), every
 * thread does the same work, so the slowest unit sets the pace:
 *   GFLOPS(t, n) = t * min(n / L_k, eta_k T / k) * flops/instr * GHz, with k = ceil(t / units).
 */
import { badInput } from '../../errors.ts';
import type { AmxOp } from '../asm.ts';
import { KINDS, MACHINE } from './params.ts';
import { FMA_TABLES } from './tables.ts';

export { KINDS, MACHINE } from './params.ts';
export { FMA_TABLES } from './tables.ts';

export function predictGflops(kind: string, accumulators: number, threads: number): number {
  const p = KINDS[kind];
  const tb = FMA_TABLES[kind];
  if (!p || !tb)
    throw badInput(`no measured table / parameters for '${kind}'`, {
      hint: Object.keys(FMA_TABLES).join(', '),
    });
  const sh = sharing(threads);
  const L = p.latency.value * sh.latencyScale;
  const perThread = Math.min(accumulators / L, p.throughput.value * sh.throughputShare);
  return threads * perThread * tb.flopsPerInstr * MACHINE.ghz.value;
}

/**
 * How `threads` threads doing the same work share the units: k = ceil(threads / units) of them
 * on the busiest unit, each seeing latency L(1 + gamma(k - 1)) and eta_k T / k of its throughput.
 */
export function sharing(threads: number): { k: number; latencyScale: number; throughputShare: number } {
  if (!Number.isInteger(threads) || threads < 1)
    throw badInput(`threads must be a positive integer, got ${threads}`);
  const k = Math.ceil(threads / MACHINE.units.value);
  const eta = k === 1 ? 1 : k === 2 ? MACHINE.eta2.value : MACHINE.eta3.value;
  return { k, latencyScale: 1 + MACHINE.gamma.value * (k - 1), throughputShare: eta / k };
}

export interface CellError {
  table: string;
  accumulators: number;
  threads: number;
  measured: number;
  predicted: number;
  relError: number;
}

/** Every cell of every seed table with its prediction and relative error. */
export function allCells(): CellError[] {
  const out: CellError[] = [];
  for (const [table, tb] of Object.entries(FMA_TABLES)) {
    tb.rows.forEach((row, ni) => {
      row.forEach((measured, ti) => {
        const predicted = predictGflops(table, ni + 1, ti + 1);
        out.push({
          table,
          accumulators: ni + 1,
          threads: ti + 1,
          measured,
          predicted,
          relError: Math.abs(predicted / measured - 1),
        });
      });
    });
  }
  return out;
}

export function perfTableReport(name: string): { name: string; text: string; cells: CellError[] } {
  const tb = FMA_TABLES[name];
  if (!tb) {
    const known = Object.keys(FMA_TABLES).join(', ');
    throw badInput(`unknown performance table '${name}'`, { hint: `known: ${known}` });
  }
  const cells = allCells().filter((c) => c.table === name);
  const lines = [
    `${name} (GFLOPS, M1 Max): predicted / measured (error)`,
    `| Z acc | ${[1, 2, 3, 4, 5, 6].map((t) => `${t} thr`).join(' | ')} |`,
  ];
  lines.push(`|---:|${'---:|'.repeat(6)}`);
  tb.rows.forEach((_row, ni) => {
    const cs = cells.filter((c) => c.accumulators === ni + 1);
    lines.push(
      `| ${ni + 1} | ${cs.map((c) => `${c.predicted.toFixed(0)} / ${c.measured} (${(c.relError * 100).toFixed(0)}%)`).join(' | ')} |`,
    );
  });
  return { name, text: lines.join('\n'), cells };
}

/** The performance-model kind of an operation (fma/fms families; others by broad class). */
export function kindOf(op: number, operand: bigint): string {
  const hi = Number(BigInt.asUintN(64, operand) >> 32n);
  const vector = hi >>> 31 === 1;
  switch (op) {
    case 10:
    case 11:
      return vector ? 'fma64-vector' : 'fma64-matrix';
    case 12:
    case 13:
      return vector ? 'fma32-vector' : 'fma32-matrix';
    case 15:
    case 16:
      return vector ? 'fma16-vector' : (hi >>> 30) & 1 ? 'fma16-matrix-f32z' : 'fma16-matrix';
    case 0:
    case 1:
    case 4:
    case 6:
      return 'load';
    case 2:
    case 3:
    case 5:
    case 7:
      return 'store';
    default:
      return 'other';
  }
}

/**
 * Cycle estimate for a program: in-order issue at the kind's throughput, and an instruction that
 * writes Z waits `latency` cycles after the previous write to an overlapping Z accumulator
 * (accumulators identified by the Z rows the op touches). With `threads` > 1, that many threads
 * run the same program at once and share the units as in predictGflops (each thread sees the
 * latency scaled by 1 + gamma(k - 1) and eta_k / k of the throughput); the result is the cycles
 * until every thread has finished, i.e. those of one thread on the busiest unit.
 */
export function predictProgramCycles(ops: readonly AmxOp[], opts: { threads?: number } = {}): number {
  const sh = sharing(opts.threads ?? 1);
  let issue = 0;
  let end = 0;
  const ready = new Float64Array(64);
  for (const o of ops) {
    if (o.op === 17) continue;
    const kind = kindOf(o.op, o.operand);
    const p = KINDS[kind]!;
    const rows = zRowsWritten(o.op, o.operand);
    const latency = p.latency.value * sh.latencyScale;
    let t = issue;
    for (const r of rows) t = Math.max(t, ready[r]!);
    for (const r of rows) ready[r] = t + latency;
    issue = t + 1 / (p.throughput.value * sh.throughputShare);
    end = Math.max(end, t + latency);
  }
  return Math.ceil(end);
}

function zRowsWritten(op: number, operand: bigint): number[] {
  const v = BigInt.asUintN(64, operand);
  const lo = Number(v & 0xffffffffn);
  const hi = Number(v >> 32n);
  const zrow = (lo >>> 20) & 63;
  const all = (step: number, start: number) => {
    const r: number[] = [];
    for (let k = start % step; k < 64; k += step) r.push(k);
    return r;
  };
  switch (op) {
    case 10:
    case 11:
      return hi >>> 31 ? [zrow] : all(8, zrow);
    case 12:
    case 13:
      return hi >>> 31 ? [zrow] : all(4, zrow);
    case 14:
    case 15:
    case 16:
      return hi >>> 31 ? [zrow] : (hi >>> 30) & 1 ? all(1, 0) : all(2, zrow);
    case 4:
    case 6:
      return [(hi >>> 24) & 63];
    case 18:
    case 19:
    case 20:
    case 21:
      return all(1, 0);
    default:
      return [];
  }
}
