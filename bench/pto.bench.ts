/**
 * The PTO workloads of shared/perf/PTO-PERF.md: TADD f32 64x64 and 256x256 on RowMajor Vec tiles
 * (dynamic valid shape = full), TMATMUL f32 64x64x64 on Left/Right/Acc tiles (Nz/Zn/Nz), FLOPs
 * counted as 2*M*N*K. Each call goes through the public `execute` (name lookup, operand binding,
 * support-table checks) like a user's program would. The workloads live in bench/pto-workloads.ts.
 *
 * Run: node --import tsx bench/pto.bench.ts
 */
import { Bench } from 'tinybench';
import { PTO_WORKLOADS } from './pto-workloads.ts';

const cases = PTO_WORKLOADS.map((w) => ({ w, ...w.make() }));

const bench = new Bench({ time: 2000, warmupIterations: 10 });
for (const c of cases) bench.add(c.w.name, c.run);

await bench.run();

/**
 * The same workloads timed by this process's CPU time (process.cpuUsage) instead of wall time: on a
 * shared, oversubscribed machine the wall-clock median includes time the process spent waiting for
 * a core; CPU time does not. Both are reported.
 */
function cpuRate(fn: () => void, work: number): number {
  for (let i = 0; i < 50; i++) fn();
  let n = 16;
  for (;;) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const d = process.cpuUsage(t0);
    const sec = (d.user + d.system) / 1e6;
    if (sec > 1) return (n * work) / sec / 1e9;
    n *= 2;
  }
}
const cpu = cases.map((c) => cpuRate(c.run, c.w.work));

console.log(
  '| workload | axsim (wall p50) | axsim (CPU time) | unit | µs/op (wall) | reference (PTO-PERF.md) | target | ok (wall) | result |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [k, c] of cases.entries()) {
  const r = c.w;
  const res = bench.tasks.find((t) => t.name === r.name)!.result;
  if (res.state !== 'completed') throw new Error(`benchmark ${r.name} did not complete: ${res.state}`);
  const mean = res.latency.p50; // ms, median
  const rate = r.work / (mean / 1000) / 1e9;
  console.log(
    `| ${r.name} | ${rate.toFixed(2)} | ${cpu[k]!.toFixed(2)} | ${r.unit} | ${(mean * 1000).toFixed(2)} | ${r.refText} | >= ${r.target} | ${rate >= r.target ? 'yes' : 'NO'} | ${c.check() ? 'checked' : 'WRONG'} |`,
  );
}
