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
import { isMeasured, KINDS, MACHINE } from './params.ts';
import { FMA_TABLES } from './tables.ts';

export { isMeasured, KINDS, MACHINE } from './params.ts';
export { FMA_TABLES } from './tables.ts';

export function predictGflops(kind: string, accumulators: number, threads: number): number {
  checkConfig(kind, accumulators, threads);
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

/** The performance-model kind of an operation: a measured table's name, or an assumed class. */
export function kindOf(op: number, operand: bigint): string {
  const v = BigInt.asUintN(64, operand);
  return kindOfRaw(op, Number(v & 0xffffffffn), Number(v >> 32n));
}

function kindOfRaw(op: number, lo: number, hi: number): string {
  const vector = hi >>> 31 === 1;
  const lane = (hi >>> 10) & 15; // matfp / vecfp lane width mode, operand bits 42-45
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
    case 14: {
      // mac16.md: bit 62 Z i32, bits 61/60 X/Y i8; the tables split "both i8" from "any i16"
      const i8 = ((hi >>> 28) & 3) === 3 ? 'i8' : 'i16';
      if (vector) return `mac16-vector-${i8}`;
      return (hi >>> 30) & 1 ? `mac16-matrix-${i8}-i32z` : `mac16-matrix-${i8}`;
    }
    case 21:
      return MATFP_LANES[lane] ?? 'other';
    case 19:
      return lo >>> 31 ? 'other' : (VECFP_LANES[lane] ?? 'other'); // multi-vector: not measured on M1
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
    case 8:
    case 9:
      return 'extr';
    case 18:
      return 'vecint';
    case 20:
      return 'matint';
    case 22:
      return 'genlut';
    default:
      return 'other';
  }
}

const MATFP_LANES: Record<number, string> = {
  2: 'matfp-f16',
  3: 'matfp-f16-f32z',
  4: 'matfp-f32',
  7: 'matfp-f64',
};
const VECFP_LANES: Record<number, string> = {
  2: 'vecfp-f16',
  3: 'vecfp-f16-f32z',
  4: 'vecfp-f32',
  7: 'vecfp-f64',
};

/**
 * Distinct Z accumulators a kind has, and why (the Z rows one instruction of the kind writes):
 * a configuration asking for more per thread does not exist on the hardware.
 */
export const ACCUMULATOR_LIMITS: Record<string, { max: number; rule: string }> = (() => {
  const m = (max: number, rule: string) => ({ max, rule });
  const r4 = m(
    4,
    'f32 matrix mode writes one Z row of each four (fma.md), so Z holds 4 f32[16][16] accumulators',
  );
  const r8 = m(
    8,
    'f64 matrix mode writes one Z row of each eight (fma.md), so Z holds 8 f64[8][8] accumulators',
  );
  const r2 = m(
    2,
    '16-bit matrix mode writes one Z row of each two, so Z holds 2 [32][32] accumulators of 16-bit lanes',
  );
  const r1 = m(
    1,
    'matrix mode with 32-bit Z from 16-bit inputs writes all 64 Z rows, so Z holds 1 accumulator',
  );
  const v64 = m(64, 'vector mode writes one Z row, so Z holds 64 accumulators');
  const v32 = m(32, 'f16 -> f32 vector mode writes two Z rows (an f32[2][16] accumulator), so Z holds 32');
  return {
    'fma16-matrix': r2,
    'fma16-matrix-f32z': r1,
    'fma32-matrix': r4,
    'fma64-matrix': r8,
    'fma16-vector': v64,
    'fma32-vector': v64,
    'fma64-vector': v64,
    'mac16-matrix-i8': r2,
    'mac16-matrix-i16': r2,
    'mac16-matrix-i8-i32z': r1,
    'mac16-matrix-i16-i32z': r1,
    'mac16-vector-i8': v64,
    'mac16-vector-i16': v64,
    'matfp-f16': r2,
    'matfp-f16-f32z': r1,
    'matfp-f32': r4,
    'matfp-f64': r8,
    'vecfp-f16': v64,
    'vecfp-f16-f32z': v32,
    'vecfp-f32': v64,
    'vecfp-f64': v64,
  };
})();

/**
 * Rejects configurations the hardware cannot run, naming the rule: more Z accumulators per thread
 * than the kind has, or more threads than the machine has performance cores. Returns warnings for
 * configurations that exist but lie outside the measured range.
 */
export function checkConfig(kind: string, accumulators: number, threads: number): string[] {
  if (!Number.isInteger(accumulators) || accumulators < 1)
    throw badInput(`accumulators must be a positive integer, got ${accumulators}`);
  const lim = ACCUMULATOR_LIMITS[kind];
  if (lim && accumulators > lim.max)
    throw badInput(`${kind} cannot use ${accumulators} accumulators per thread: at most ${lim.max}`, {
      hint: lim.rule,
    });
  const cores = MACHINE.pCores.value;
  if (Number.isInteger(threads) && threads > cores)
    throw badInput(`${threads} threads exceed the M1 Max's ${cores} performance cores`, {
      hint: `${MACHINE.pCores.source}; each AMX thread needs its own P-core's AMX context (threads beyond that would time-share, which the model does not cover)`,
    });
  sharing(threads);
  const warnings: string[] = [];
  const tb = FMA_TABLES[kind];
  if (threads > MACHINE.measuredThreads.value)
    warnings.push(`${threads} threads: beyond the measured 1-${MACHINE.measuredThreads.value}, extrapolated`);
  if (tb && accumulators > tb.rows.length)
    warnings.push(`${accumulators} accumulators: beyond the measured 1-${tb.rows.length}, extrapolated`);
  return warnings;
}

/** One line of the program-cycle breakdown: all operations of one kind. */
export interface KindBreakdown {
  kind: string;
  count: number;
  /** Cycles the kind's operations occupy the issue slot: count / (the thread's share of T). */
  issueCycles: number;
  /** Cycles issue waited for a Z accumulator an operation of this kind reads (its latency chain). */
  stallCycles: number;
  /** 'latency' when waiting for accumulators took longer than issuing, else 'throughput'. */
  bound: 'latency' | 'throughput';
  latency: number;
  throughput: number;
  /** Measured (a published table, with its source) or an assumption. */
  measured: boolean;
  source: string;
  /** Distinct Z accumulators (row groups) the kind's operations write. */
  accumulators: number;
  /** Of the kind's limit, when it has one. */
  maxAccumulators?: number;
  /** Accumulators needed to keep the unit busy: ceil(L * T) (latency x throughput). */
  accumulatorsToSaturate: number;
  /** Issue rate the accumulators in use allow: min(acc / L, T) per cycle, and as a share of T. */
  rateLimit: number;
  rateShare: number;
  /** Operations (flops / int ops) per operation when the kind has a table. */
  opsPerInstr?: number;
}

export interface CycleBreakdown {
  /** Cycles until the last result is written (fractional; `cycles` rounds it up). */
  total: number;
  cycles: number;
  threads: number;
  kinds: KindBreakdown[];
  /** Latency of the last operations after the final issue slot (part of the total). */
  drainCycles: number;
  notes: string[];
}

/**
 * Cycle estimate for a program with its explanation: in-order issue, each operation taking 1 / T
 * of the issue slot for its kind, and an operation that writes Z waits until the previous write to
 * an overlapping Z accumulator is `latency` cycles old. With `threads` > 1, that many threads run
 * the same program at once and share the units as in predictGflops (latency x (1 + gamma(k - 1)),
 * eta_k / k of the throughput); the result is that of one thread on the busiest unit.
 * The total is the sum of every kind's issue and stall cycles plus the final drain.
 */
export function explainProgramCycles(ops: readonly AmxOp[], opts: { threads?: number } = {}): CycleBreakdown {
  const threads = opts.threads ?? 1;
  const sh = sharing(threads);
  const per = new Map<string, { count: number; issue: number; stall: number; acc: Set<number> }>();
  let issue = 0;
  let end = 0;
  const ready = new Float64Array(64);
  const rows: number[] = [];
  for (const o of ops) {
    if (o.op === 17) continue;
    const v = BigInt.asUintN(64, o.operand);
    const lo = Number(v & 0xffffffffn);
    const hi = Number(v >> 32n);
    const kind = kindOfRaw(o.op, lo, hi);
    const p = KINDS[kind]!;
    zRowsWrittenRaw(o.op, lo, hi, rows);
    const latency = p.latency.value * sh.latencyScale;
    let t = issue;
    for (const r of rows) t = Math.max(t, ready[r]!);
    // stores and extracts read a Z row: they wait for the last write to it as well
    const zr = zRowRead(o.op, lo, hi);
    if (zr >= 0) t = Math.max(t, ready[zr]!);
    for (const r of rows) ready[r] = t + latency;
    const slot = 1 / (p.throughput.value * sh.throughputShare);
    let e = per.get(kind);
    if (!e) {
      e = { count: 0, issue: 0, stall: 0, acc: new Set() };
      per.set(kind, e);
    }
    e.count++;
    e.issue += slot;
    e.stall += t - issue;
    if (rows.length > 0) e.acc.add(rows[0]!);
    issue = t + slot;
    end = Math.max(end, t + latency);
  }
  const total = Math.max(end, issue);
  const kinds: KindBreakdown[] = [];
  for (const [kind, e] of per) {
    const p = KINDS[kind]!;
    const L = p.latency.value * sh.latencyScale;
    const T = p.throughput.value * sh.throughputShare;
    const lim = ACCUMULATOR_LIMITS[kind];
    const acc = e.acc.size;
    const rateLimit = acc > 0 ? Math.min(acc / L, T) : T;
    kinds.push({
      kind,
      count: e.count,
      issueCycles: e.issue,
      stallCycles: e.stall,
      bound: e.stall > e.issue ? 'latency' : 'throughput',
      latency: L,
      throughput: T,
      measured: isMeasured(p),
      source: isMeasured(p) ? (FMA_TABLES[kind]?.source ?? p.latency.source) : p.latency.source,
      accumulators: acc,
      maxAccumulators: lim?.max,
      accumulatorsToSaturate: Math.ceil(L * T - 1e-9),
      rateLimit,
      rateShare: rateLimit / T,
      opsPerInstr: FMA_TABLES[kind]?.flopsPerInstr,
    });
  }
  const notes: string[] = [];
  for (const k of kinds) {
    if (k.accumulators > 0 && k.accumulators < k.accumulatorsToSaturate) {
      const cap = k.maxAccumulators !== undefined && k.maxAccumulators < k.accumulatorsToSaturate;
      notes.push(
        `${k.kind}: ${k.accumulators} accumulator(s) allow ${k.rateLimit.toFixed(3)} instr/cycle = ${(k.rateShare * 100).toFixed(0)}% of the unit's ${k.throughput.toFixed(3)}; saturating it needs ${k.accumulatorsToSaturate} (L ${k.latency.toFixed(2)} x T ${k.throughput.toFixed(3)})${cap ? `, more than the ${k.maxAccumulators} that exist` : ''}`,
      );
    }
  }
  const issueEnd = kinds.reduce((a, k) => a + k.issueCycles + k.stallCycles, 0);
  const drain = total - issueEnd;
  return {
    total,
    cycles: Math.ceil(total - 1e-9),
    threads,
    kinds,
    drainCycles: Math.abs(drain) < 1e-9 ? 0 : drain,
    notes,
  };
}

/** The cycle estimate alone (see explainProgramCycles). */
export function predictProgramCycles(ops: readonly AmxOp[], opts: { threads?: number } = {}): number {
  return explainProgramCycles(ops, opts).cycles;
}

/** The breakdown as text: one line per kind, the sum, the accumulator notes. */
export function formatBreakdown(b: CycleBreakdown, ghz = MACHINE.ghz.value): string {
  const out = [
    `cycles: ${b.cycles} (model: M1 Max, ${b.threads} thread(s); ${b.total.toFixed(2)} = issue + stalls + drain below)`,
    '| kind | count | issue cycles | stall cycles | bound | L | T | accumulators | rate | figures |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|---|',
  ];
  for (const k of b.kinds) {
    const rate =
      k.opsPerInstr !== undefined && k.issueCycles + k.stallCycles > 0
        ? `${((k.count * k.opsPerInstr * ghz) / (k.issueCycles + k.stallCycles)).toFixed(0)} G/s`
        : '';
    out.push(
      `| ${k.kind} | ${k.count} | ${k.issueCycles.toFixed(2)} | ${k.stallCycles.toFixed(2)} | ${k.bound} | ${k.latency.toFixed(2)} | ${k.throughput.toFixed(3)} | ${k.accumulators > 0 ? `${k.accumulators}${k.maxAccumulators !== undefined ? `/${k.maxAccumulators}` : ''}` : '-'} | ${rate} | ${k.measured ? 'measured' : 'ASSUMPTION'}: ${k.source} |`,
    );
  }
  out.push(`| drain (last results) | | ${b.drainCycles.toFixed(2)} | | | | | | | |`);
  for (const n of b.notes) out.push(`note: ${n}`);
  return out.join('\n');
}

/** The Z row a store or extract reads (stz/stzi: bits 56-61; extrx/extry: bits 20-25), else -1. */
function zRowRead(op: number, lo: number, hi: number): number {
  if (op === 5 || op === 7) return (hi >>> 24) & 63;
  if (op === 8 || op === 9) return (lo >>> 20) & 63;
  return -1;
}

function zRowsWrittenRaw(op: number, lo: number, hi: number, out: number[]): void {
  out.length = 0;
  const zrow = (lo >>> 20) & 63;
  const all = (step: number, start: number) => {
    for (let k = start % step; k < 64; k += step) out.push(k);
  };
  switch (op) {
    case 10:
    case 11:
      if (hi >>> 31) out.push(zrow);
      else all(8, zrow);
      return;
    case 12:
    case 13:
      if (hi >>> 31) out.push(zrow);
      else all(4, zrow);
      return;
    case 14:
    case 15:
    case 16:
      if (hi >>> 31) out.push(zrow);
      else if ((hi >>> 30) & 1) all(1, 0);
      else all(2, zrow);
      return;
    case 4:
    case 6:
      out.push((hi >>> 24) & 63);
      return;
    case 19: {
      // vecfp.md: one Z row, or an interleaved pair for 16 -> 32-bit lanes; multi-vector forms
      // (M2+) conservatively as all rows
      const lane = (hi >>> 10) & 15;
      if (lo >>> 31) all(1, 0);
      else if (lane === 1 || lane === 3) out.push(zrow & ~1, zrow | 1);
      else out.push(zrow);
      return;
    }
    case 21: {
      // matfp.md: rows 2j + z (16-bit), all (16 -> 32-bit), 4j + z (f32), 8j + z (f64)
      const lane = (hi >>> 10) & 15;
      if (lane === 0 || lane === 2) all(2, zrow & 1);
      else if (lane === 4) all(4, zrow & 3);
      else if (lane === 7) all(8, zrow & 7);
      else all(1, 0);
      return;
    }
    case 18:
    case 20:
      all(1, 0); // vecint / matint: no measurement; conservatively one chain through all of Z
      return;
    default:
      return;
  }
}
