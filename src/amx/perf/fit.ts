/**
 * How the per-kind latency and throughput of params.ts were obtained: a grid search for the pair
 * (L, T) with the least worst-case relative error over one measured table, the shared parameters
 * (gamma, eta2, eta3, units, GHz) held at their values in MACHINE. Run
 * `node --import tsx src/amx/perf/fit.ts [TABLE...]` to redo it; the result is copied into
 * params.ts by hand (with its source), so that the model never changes silently.
 */
import { fileURLToPath } from 'node:url';
import { MACHINE } from './params.ts';
import { FMA_TABLES, type PerfTable } from './tables.ts';

function shares(threads: number): { latencyScale: number; throughputShare: number } {
  const k = Math.ceil(threads / MACHINE.units.value);
  const eta = k === 1 ? 1 : k === 2 ? MACHINE.eta2.value : MACHINE.eta3.value;
  return { latencyScale: 1 + MACHINE.gamma.value * (k - 1), throughputShare: eta / k };
}

export function tableError(tb: PerfTable, L: number, T: number): { worst: number; median: number } {
  const errs: number[] = [];
  tb.rows.forEach((row, ni) => {
    row.forEach((measured, ti) => {
      const t = ti + 1;
      const sh = shares(t);
      const per = Math.min((ni + 1) / (L * sh.latencyScale), T * sh.throughputShare);
      errs.push(Math.abs((t * per * tb.flopsPerInstr * MACHINE.ghz.value) / measured - 1));
    });
  });
  errs.sort((a, b) => a - b);
  return { worst: errs[errs.length - 1]!, median: errs[Math.floor(errs.length / 2)]! };
}

export function fitTable(tb: PerfTable): { L: number; T: number; worst: number; median: number } {
  let best = { L: 0, T: 0, worst: Number.POSITIVE_INFINITY, median: 0 };
  for (let Li = 0; Li <= 40; Li++) {
    const L = 3.5 + Li * 0.05;
    for (let Ti = 0; Ti <= 290; Ti++) {
      const T = 0.1 + Ti * 0.01;
      const e = tableError(tb, L, T);
      if (e.worst < best.worst - 1e-12) best = { L: +L.toFixed(2), T: +T.toFixed(2), ...e };
    }
  }
  return best;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(FMA_TABLES);
  for (const n of names) {
    const r = fitTable(FMA_TABLES[n]!);
    process.stdout.write(
      `${n}: L=${r.L} T=${r.T} worst ${(r.worst * 100).toFixed(1)}% median ${(r.median * 100).toFixed(1)}%\n`,
    );
  }
}
