/**
 * `npm run bench`: every workload of ../shared/perf/ (SFPU-PERF.md (i)-(iv) on Wormhole B0 and
 * Blackhole, AMX-PERF.md (a)-(d2), PTO-PERF.md TADD/TMATMUL), each checked (published digests for
 * SFPU and AMX, an independent result check for PTO, see bench/pto-workloads.ts) and timed, printed
 * as one table with the reference figure beside axsim's and the ratio (axsim / reference, > 1 =
 * axsim faster).
 *
 *   npm run bench                      full procedure, median of 3 repetitions (several minutes)
 *   npm run bench -- --quick           smoke test: 1 repetition, smaller N (ratios are rough)
 *   npm run bench -- --json            one JSON array of {workload, arch, unit, axsim, reference, ratio, digestOk}
 *   npm run bench -- --only=sfpu       only workloads whose "<part> <id>" name contains the text (sfpu, amx, pto, (ii), ...)
 *
 * Rates are over the CPU time (user + system, process.cpuUsage) of the timed loop only: on a shared
 * machine wall time also counts time spent waiting for a core. The per-part scripts
 * (bench/tensix.bench.ts, amx.bench.ts, pto.bench.ts) print wall-clock figures and more detail.
 *
 * digestOk: true / false when a digest or result check was made; null when the workload publishes
 * no digest for the N that was run (AMX (b), (d1), (d2) in --quick mode, whose digests exist only
 * for N = 10^6). SFPU always checks the published digests at N = 0, 1 and the small N, and in the
 * full mode also after the timed N. The exit code is 1 if any check failed.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { executeRaw, fnv1a64 } from '../src/amx/index.ts';
import type { Tile } from '../src/pto/index.ts';
import { configureThreads } from '../src/pto/simd.ts';
import { type Arch, compile, runProgram, TensixState } from '../src/tensix/index.ts';
import { amxCRows } from './amx-c.bench.ts';
import { AMX_WORKLOADS, setUp } from './amx-workloads.ts';
import { PTO_WORKLOADS, taddCase, vecTile } from './pto-workloads.ts';
import {
  cliUsesSource,
  TARGET_MS as SFPI_COMPILE_TARGET_MS,
  sfpiCompileBench,
  sfpiFreshBench,
} from './sfpi-compile.bench.ts';
import { digest, SFPU_WORKLOADS } from './sfpu-workloads.ts';

export interface BenchRow {
  workload: string;
  arch: string;
  unit: string;
  axsim: number;
  reference: number;
  /** axsim / reference (higher is better for axsim). */
  ratio: number;
  digestOk: boolean | null;
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const json = args.includes('--json');
const only = args.find((a) => a.startsWith('--only='))?.slice(7);
const reps = quick ? 1 : 3;
const log = (s: string) => {
  if (!json) console.log(s);
  else process.stderr.write(`${s}\n`);
};

function cpuSeconds(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

function wanted(name: string): boolean {
  return !only || name.toLowerCase().includes(only.toLowerCase());
}

function row(
  workload: string,
  arch: string,
  unit: string,
  axsim: number,
  reference: number,
  ok: boolean | null,
) {
  return { workload, arch, unit, axsim, reference, ratio: axsim / reference, digestOk: ok };
}

function sfpuRows(): BenchRow[] {
  const out: BenchRow[] = [];
  for (const arch of ['wormhole', 'blackhole'] as Arch[]) {
    for (const w of SFPU_WORKLOADS) {
      const name = `SFPU ${w.id} ${w.what}`;
      if (!wanted(name)) continue;
      const prog = compile(w.words, arch);
      const st = new TensixState(arch);
      let ok = true;
      for (const n of [0, 1, w.small]) {
        w.init(st);
        runProgram(st, prog, n);
        if (digest(st) !== w.digests[n]) ok = false;
      }
      const N = quick ? Math.max(1, Math.floor(w.n / 100)) : w.n;
      const times: number[] = [];
      for (let k = 0; k < reps; k++) {
        w.init(st);
        runProgram(st, prog, Math.floor(N / 20));
        w.init(st);
        times.push(cpuSeconds(() => runProgram(st, prog, N)));
        if (!quick && digest(st) !== w.digests[w.n]) ok = false;
      }
      const ips = (N * w.words.length) / median(times) / 1e6;
      const ref = (arch === 'wormhole' ? w.ref : w.refBh) / 1e6;
      out.push(row(name, arch, 'M instr/s', ips, ref, ok));
    }
  }
  return out;
}

function amxRows(): BenchRow[] {
  const out: BenchRow[] = [];
  for (const w of AMX_WORKLOADS) {
    const name = `AMX ${w.id} ${w.what}`;
    if (!wanted(name)) continue;
    const lo = Number(w.operand & 0xffffffffn);
    const hi = Number(w.operand >> 32n);
    // The digests are published for N = 10^6 (and for (c) also 10^7, its reference's own long run:
    // at 10^6 (c) times only 20 ms); --quick keeps N = 10^6 where the reference runs it in under a
    // second, else 10^5 without a digest.
    const long = !quick && w.digest10M !== undefined;
    const N = long ? 10_000_000 : quick && w.refInstrPerSec < 1e6 ? 100_000 : 1_000_000;
    const want = long ? w.digest10M : w.digest;
    let ok: boolean | null = N >= 1_000_000 ? true : null;
    const times: number[] = [];
    for (let k = 0; k < reps; k++) {
      let s = setUp(w);
      for (let n = 0; n < 10_000; n++) executeRaw(s, w.op, lo, hi);
      s = setUp(w);
      times.push(
        cpuSeconds(() => {
          for (let n = 0; n < N; n++) executeRaw(s, w.op, lo, hi);
        }),
      );
      if (ok !== null && fnv1a64(s.registerImage()) !== want) ok = false;
    }
    out.push(row(name, 'm4', 'M instr/s', N / median(times) / 1e6, w.refInstrPerSec / 1e6, ok));
  }
  return out;
}

/**
 * Issue 14's rows: AMX C kernels through the front end against the same instructions as words
 * (bench/amx-c.bench.ts). "reference" is axsim's own words rate; ratio = C rate / words rate
 * (target > 0.5: the C layer adds < 2x); the check: the C run's result equals the words run's.
 */
function amxCRowsForTable(): BenchRow[] {
  const name = 'AMX C sgemm (C layer vs words)';
  if (!wanted(name)) return [];
  return amxCRows(quick ? 256 : 1024, quick ? 3 : 11, quick ? 5 : 15).map((r) =>
    row(
      `AMX C ${r.label}`,
      'm1',
      'k instr/s',
      r.instructions / r.cMs,
      r.instructions / r.wordsMs,
      r.sameResult,
    ),
  );
}

/** One timing of `run` repeated until >= minSeconds of wall-clock time: work units per wall and per CPU second (10^9). */
function ptoTiming(run: () => void, work: number): { wall: number; cpu: number } {
  const minSeconds = quick ? 0.05 : 0.5;
  let n = 4;
  for (;;) {
    const t0 = performance.now();
    const sec = cpuSeconds(() => {
      for (let i = 0; i < n; i++) run();
    });
    const wall = (performance.now() - t0) / 1000;
    if (wall >= minSeconds && sec > 0) return { wall: (n * work) / wall / 1e9, cpu: (n * work) / sec / 1e9 };
    n *= 2;
  }
}

/** Median over the repetitions of work units per CPU second (in 10^9), each timing >= minSeconds. */
function ptoRate(run: () => void, work: number): number {
  for (let i = 0; i < 10; i++) run();
  const rates: number[] = [];
  for (let k = 0; k < reps; k++) rates.push(ptoTiming(run, work).cpu);
  return median(rates);
}

function ptoRows(): BenchRow[] {
  const out: BenchRow[] = [];
  for (const w of PTO_WORKLOADS) {
    const name = `PTO ${w.name}`;
    if (!wanted(name)) continue;
    const c = w.make();
    out.push(row(`${name} (vs ${w.refBuild})`, 'cpu', w.unit, ptoRate(c.run, w.work), w.ref, c.check()));
  }
  // Issue 17's cliff rows: large tiles and many live tiles against axsim's own 512x512 rate in the
  // same run (the acceptance: ratio >= 0.8), each timing alternating with one of the 512x512 base
  // so that both see the same load. Over CPU time like the other rows, except the row with helper
  // threads (src/pto/threads.ts, on by default, AXSIM_PTO_THREADS=0 turns them off; this row starts one worker per
  // core but the calling one, none on a one-core host): its throughput is wall-clock time, like the
  // reference's steady_clock, since the CPU time of the threads adds up; its CPU-time rate is
  // printed as a row of its own.
  const workers = Math.min(availableParallelism() - 1, 7);
  const cliff = [
    { name: 'PTO TADD f32 1024x1024 (vs axsim 512x512)', n: 1024, live: 0, workers: -1 },
    {
      name: `PTO TADD f32 1024x1024 with ${workers} helper thread(s) (vs axsim 512x512)`,
      n: 1024,
      live: 0,
      workers,
    },
    {
      name: 'PTO TADD f32 512x512 with 100 live 512x512 tiles (vs axsim 512x512)',
      n: 512,
      live: 100,
      workers: -1,
    },
  ].filter((c) => wanted(c.name) && c.workers !== 0);
  if (cliff.length > 0) {
    const base = taddCase(512);
    for (let i = 0; i < 10; i++) base.run();
    const baseOk = base.check();
    for (const c of cliff) {
      const live: Tile[] = [];
      for (let i = 0; i < c.live; i++) live.push(vecTile(512, i + 2));
      const t = taddCase(c.n);
      // the other rows on the calling thread alone (the default would start helper threads)
      const threads = c.workers > 0 ? configureThreads({ workers: c.workers }) : configureThreads(false);
      // wait (up to 5 s) for the workers to start: they would otherwise join during the timings
      const sleep = new Int32Array(new SharedArrayBuffer(4));
      for (let i = 0; threads && threads.live() < c.workers && i < 1000; i++) Atomics.wait(sleep, 0, 0, 5);
      for (let i = 0; i < 10; i++) t.run();
      const b: { wall: number; cpu: number }[] = [];
      const r: { wall: number; cpu: number }[] = [];
      for (let k = 0; k < reps; k++) {
        b.push(ptoTiming(base.run, 512 * 512));
        r.push(ptoTiming(t.run, c.n * c.n));
      }
      const ok = baseOk && t.check();
      const m = (xs: { wall: number; cpu: number }[], f: 'wall' | 'cpu') => median(xs.map((x) => x[f]));
      if (threads) out.push(row(`${c.name}, wall clock`, 'cpu', 'G elem/s', m(r, 'wall'), m(b, 'wall'), ok));
      out.push(
        row(`${c.name}${threads ? ', CPU time' : ''}`, 'cpu', 'G elem/s', m(r, 'cpu'), m(b, 'cpu'), ok),
      );
      if (threads) configureThreads(false);
      if (live.length !== c.live) throw new Error('unreachable');
    }
  }
  return out;
}

/**
 * Issue 17's cold-start rows: the first 1000 SFPU / AMX instructions in a fresh process
 * (bench/coldstart.ts), CPU time, median over the repetitions (one process each). Expressed as a
 * rate so that the ratio reads like the others: instructions per ms against the budget's 1000 per
 * 20 ms (ratio >= 1: under 20 ms).
 */
function coldRows(): BenchRow[] {
  const out: BenchRow[] = [];
  for (const part of ['sfpu', 'amx']) {
    const name = `cold start: first 1000 ${part.toUpperCase()} instructions (vs 20 ms)`;
    if (!wanted(name)) continue;
    const ms: number[] = [];
    let ok = true;
    for (let k = 0; k < reps; k++) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/coldstart.ts', part], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        encoding: 'utf8',
      });
      const res = JSON.parse(r.stdout) as { ms: number; cpuMs: number; ok: boolean };
      ms.push(res.cpuMs);
      ok &&= res.ok;
    }
    out.push(row(name, part === 'sfpu' ? 'wormhole' : 'm4', 'instr/ms (cold)', 1000 / median(ms), 50, ok));
  }
  return out;
}

/**
 * Issue 12's row: compiling a ~900-line SFPI kernel file (tt-llk exp.h when AXSIM_TT_LLK is set,
 * else a generated one; bench/sfpi-compile.bench.ts), in compiles per second of CPU time after a
 * first (cold) compile; reference = the target, 1 / 200 ms; check = every compile gave the same words.
 */
async function sfpiCompileRowsForTable(): Promise<BenchRow[]> {
  const name = 'SFPI compile ~900-line kernel file';
  if (!wanted(name)) return [];
  const r = await sfpiCompileBench(quick ? 3 : 15);
  return [
    row(
      `${name} (${process.env.AXSIM_TT_LLK ? 'tt-llk exp.h' : 'generated'}, ${r.lines} lines)`,
      'wormhole',
      'compiles/s',
      1000 / r.medianMs,
      1000 / SFPI_COMPILE_TARGET_MS,
      r.sameWords,
    ),
  ];
}

/**
 * Issue 12's first-compile rows: the same compile as the first one of a fresh `node` process (the
 * library imported, nothing compiled yet), median over fresh processes (3 with --quick, else 10), in
 * compiles per second of CPU time; reference = 1 / 200 ms. Two rows: the process as the CLI runs it
 * (its V8 flags, bin/v8-flags.js, and the code bin/which-build.js picks: dist/ after a build, else
 * src/ through tsx — what one `axsim tensix compile` pays) and with V8's default flags through tsx
 * (a library user's process).
 */
async function sfpiFirstCompileRowsForTable(): Promise<BenchRow[]> {
  const name = 'SFPI first compile in a fresh process';
  if (!wanted(name)) return [];
  const rows: BenchRow[] = [];
  for (const cli of [true, false]) {
    // as the CLI runs: its flags, and dist/ when the `axsim` command would load it (a fresh build)
    const dist = cli && !cliUsesSource();
    const r = sfpiFreshBench(quick ? 3 : 10, dist, cli);
    rows.push(
      row(
        `${name}, ${cli ? `the CLI's V8 flags, ${dist ? 'dist/' : 'src/ through tsx'}` : "V8's default flags"} (${process.env.AXSIM_TT_LLK ? 'tt-llk exp.h' : 'generated'})`,
        'wormhole',
        'compiles/s',
        1000 / r.median.firstCpuMs,
        1000 / SFPI_COMPILE_TARGET_MS,
        r.sameWords,
      ),
    );
  }
  return rows;
}

function fmt(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toPrecision(3);
}

const started = new Date();
log(
  `axsim benchmarks, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ` +
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}${quick ? ', --quick (1 repetition, reduced N: rough figures)' : ', median of 3'}`,
);
const rows: BenchRow[] = [];
for (const part of [
  sfpuRows,
  amxRows,
  amxCRowsForTable,
  ptoRows,
  coldRows,
  sfpiCompileRowsForTable,
  sfpiFirstCompileRowsForTable,
]) {
  for (const r of await part()) {
    rows.push(r);
    log(`  ${r.workload} [${r.arch}]: ${fmt(r.axsim)} ${r.unit} (${r.ratio.toFixed(2)}x)`);
  }
}
const bad = rows.filter((r) => r.digestOk === false);
if (json) {
  console.log(JSON.stringify(rows));
} else {
  log('\n(rates over CPU time of the timed loop; references from ../shared/perf/*.md)\n');
  log('| workload | arch | unit | axsim | reference | ratio | digest |');
  log('|---|---|---|---:|---:|---:|---|');
  for (const r of rows) {
    const d = r.digestOk === null ? 'not checked' : r.digestOk ? 'match' : 'MISMATCH';
    log(
      `| ${r.workload} | ${r.arch} | ${r.unit} | ${fmt(r.axsim)} | ${fmt(r.reference)} | ${r.ratio.toFixed(2)}x | ${d} |`,
    );
  }
  log(bad.length === 0 ? '\nevery check made passed' : `\n${bad.length} CHECK(S) FAILED`);
}
if (bad.length > 0) process.exitCode = 1;
