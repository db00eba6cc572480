/**
 * `npm run fuzz -- --front <name|all> --n <count> --seed <s> [--from <i>] [--jobs <k>] [--heavy-n <count>] [--save] [--json FILE]`
 *
 * Runs `count` generated inputs through each front end (test/fuzz/fronts.ts) in worker processes.
 * An input that runs past 30 s or makes its worker grow past 2 GB is killed and counted as
 * `timeout` / `memory`; a non-AxsimError throw is `crash`; an `Internal` error is `Internal`. Those
 * four are failures: with --save, each distinct failure is minimised and written to
 * test/fuzz-corpus/<front>/ (the unit suite replays that folder). Exit status 1 when any failed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRONTS, ROOT } from './fronts.ts';
import { generate, type Outcome, runOne } from './worker.ts';

/** The V8 flags the CLI runs with (bin/v8-flags.js), given to the workers too (throughput only). */
const { CLI_V8_FLAGS } = (await import(new URL('../../bin/v8-flags.js', import.meta.url).href)) as {
  CLI_V8_FLAGS: string[];
};

interface Args {
  fronts: string[];
  n: number;
  /** Inputs for the heavy front ends (Front.heavy); default n. */
  heavyN?: number;
  seed: number;
  /** First input index (a campaign continued after a stop: inputs from .. from+n-1). */
  from: number;
  jobs: number;
  save: boolean;
  json?: string;
  timeoutMs: number;
  rssMb: number;
}

function usage(msg: string): never {
  process.stderr.write(
    `fuzz: ${msg}\nusage: npm run fuzz -- --front <${Object.keys(FRONTS).join('|')}|all> --n <count> --seed <s> [--from <i>] [--jobs <k>] [--heavy-n <count>] [--save] [--json FILE]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    fronts: [],
    n: 1000,
    seed: 1,
    from: 0,
    jobs: 1,
    save: false,
    timeoutMs: 30_000,
    rssMb: 2048,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = () => argv[++i] ?? usage(`${k} needs a value`);
    if (k === '--front') a.fronts.push(...v().split(','));
    else if (k === '--n') a.n = Number(v());
    else if (k === '--heavy-n') a.heavyN = Number(v());
    else if (k === '--seed') a.seed = Number(v());
    else if (k === '--from') a.from = Number(v());
    else if (k === '--jobs') a.jobs = Number(v());
    else if (k === '--save') a.save = true;
    else if (k === '--json') a.json = v();
    else if (k === '--timeout-ms') a.timeoutMs = Number(v());
    else if (k === '--rss-mb') a.rssMb = Number(v());
    else usage(`unknown option ${k}`);
  }
  if (a.fronts.length === 0 || a.fronts.includes('all')) a.fronts = Object.keys(FRONTS);
  for (const f of a.fronts) if (!FRONTS[f]) usage(`unknown front end '${f}'`);
  for (const [k, v] of [
    ['--n', a.n],
    ['--heavy-n', a.heavyN ?? 0],
    ['--seed', a.seed],
    ['--from', a.from],
    ['--jobs', a.jobs],
  ] as const)
    if (!Number.isInteger(v) || v < 0) usage(`${k} must be a non-negative integer`);
  return a;
}

/**
 * CPU milliseconds (user + system) a process has used, from /proc/PID/stat; undefined where that
 * is not readable. The watchdog measures an input's CPU time, not its wall time: on a shared
 * machine a niced worker can wait tens of seconds for a core, which is not the input's doing.
 */
function cpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may contain spaces) start at the last ')'
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return undefined;
  }
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

interface Failure {
  index: number;
  outcome: Outcome;
  sig: string;
}

interface FrontResult {
  front: string;
  n: number;
  counts: Partial<Record<Outcome, number>>;
  failures: Failure[];
  peakRssMb: number;
  seconds: number;
}

const FAILING: ReadonlySet<Outcome> = new Set(['crash', 'Internal', 'timeout', 'memory']);

/** The input a worker is running, as it wrote it before starting (worker.ts `markStart`). */
function readMark(path: string): { index: number; cpuMs: number; wallMs: number } | undefined {
  try {
    const [i, c, w] = readFileSync(path, 'latin1').trim().split(' ').map(Number);
    return i === undefined || !(i >= 0) ? undefined : { index: i, cpuMs: c!, wallMs: w! };
  } catch {
    return undefined;
  }
}

let markSerial = 0;
/** Mark files of running workers (removed when a campaign is stopped by a signal). */
const markFiles = new Set<string>();
/** Running workers: killed when the campaign is stopped (they would otherwise run on without a parent). */
const workers = new Set<ChildProcess>();

/**
 * Runs inputs [from, to) in one worker at a time, restarting after a kill. The watchdog reads which
 * input the worker is on from a small file the worker rewrites before each input (with its CPU time
 * then), not from the IPC messages: on a loaded machine the parent may read those many seconds late,
 * and judging the input by a stale message killed workers that were running fast (issue 18).
 */
function runRange(
  front: string,
  seed: number,
  from: number,
  to: number,
  args: Args,
  res: FrontResult,
): Promise<void> {
  return new Promise((resolve) => {
    let next = from;
    let child: ChildProcess;
    let timer: NodeJS.Timeout;
    const markFile = join(tmpdir(), `axsim-fuzz-${process.pid}-${markSerial++}.mark`);
    markFiles.add(markFile);
    const record = (index: number, outcome: Outcome, sig?: string) => {
      res.counts[outcome] = (res.counts[outcome] ?? 0) + 1;
      if (FAILING.has(outcome)) res.failures.push({ index, outcome, sig: sig ?? outcome });
    };
    const finish = () => {
      rmSync(markFile, { force: true });
      markFiles.delete(markFile);
      resolve();
    };
    const spawnWorker = () => {
      if (next >= to) {
        finish();
        return;
      }
      const first = next;
      writeFileSync(markFile, '-1');
      child = fork(
        join(ROOT, 'test/fuzz/worker.ts'),
        [front, String(seed), String(next), String(to), markFile],
        {
          execArgv: [...CLI_V8_FLAGS, '--import', 'tsx', '--max-old-space-size=3072', '--expose-gc'],
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        },
      );
      const self = child;
      workers.add(self);
      self.on('exit', () => workers.delete(self));
      child.stderr!.on('data', () => {});
      child.on('message', (m: { done?: number; outcome?: Outcome; sig?: string; finished?: boolean }) => {
        if (m.done !== undefined) {
          record(m.done, m.outcome!, m.sig);
          next = m.done + 1;
        }
      });
      let killed: { index: number; outcome: Outcome } | undefined;
      // handled once the process has exited and its IPC channel is drained (every message read)
      let pending = 2;
      let exitWith = '';
      const ended = () => {
        if (--pending > 0) return;
        clearInterval(timer);
        // the input the worker was running when it ended: the mark file names the input it started
        // (every outcome it sent has been read by now, so an input at `next` is one without an outcome)
        const mark = readMark(markFile);
        const current = mark && mark.index >= next ? mark.index : -1;
        if (killed) {
          next = killed.index + 1;
        } else if (current < 0 && next === first) {
          // died before running anything: a broken front end, not an input
          process.stderr.write(`fuzz: the ${front} worker exited (${exitWith}) before its first input\n`);
          res.counts.crash = (res.counts.crash ?? 0) + (to - next);
          res.failures.push({ index: next, outcome: 'crash', sig: `worker could not start (${exitWith})` });
          finish();
          return;
        } else if (current >= 0) {
          // the worker died on an input without being killed by us: V8 out of memory, stack, abort
          record(current, 'crash', `worker exit ${exitWith}`);
          next = current + 1;
        }
        spawnWorker();
      };
      child.on('exit', (code, signal) => {
        exitWith = String(code ?? signal);
        ended();
      });
      child.on('disconnect', ended);
      timer = setInterval(() => {
        if (child.pid === undefined || killed) return;
        const mark = readMark(markFile);
        if (!mark) return;
        const rss = rssMb(child.pid);
        if (rss > res.peakRssMb) res.peakRssMb = rss;
        // the input's CPU time past the limit (wall time only as a backstop, 20x the limit)
        const cpu = cpuMs(child.pid);
        const spent = cpu === undefined ? Date.now() - mark.wallMs : cpu - mark.cpuMs;
        const late = spent > args.timeoutMs || Date.now() - mark.wallMs > 20 * args.timeoutMs;
        const over: Outcome | undefined = late ? 'timeout' : rss > args.rssMb ? 'memory' : undefined;
        if (over) {
          killed = { index: mark.index, outcome: over }; // recorded once
          record(
            mark.index,
            over,
            `${over} (${over === 'memory' ? `${rss | 0} MB` : `${args.timeoutMs} ms CPU`})`,
          );
          child.kill('SIGKILL');
        }
      }, 200);
    };
    spawnWorker();
  });
}

/** Shrinks a failing input while it keeps failing the same way (in-process, for crash/Internal). */
async function minimise(front: string, input: Uint8Array, sig: string): Promise<Uint8Array> {
  const same = async (b: Uint8Array) => {
    const r = await runOne(front, b);
    return FAILING.has(r.outcome) && r.sig === sig;
  };
  let cur = input;
  const deadline = Date.now() + 20_000;
  for (let chunk = Math.max(1, cur.length >> 1); chunk >= 1 && Date.now() < deadline; chunk >>= 1) {
    for (let at = 0; at < cur.length && Date.now() < deadline; ) {
      const cand = new Uint8Array(cur.length - Math.min(chunk, cur.length - at));
      cand.set(cur.subarray(0, at));
      cand.set(cur.subarray(at + chunk), at);
      if (await same(cand)) cur = cand;
      else at += chunk;
    }
  }
  return cur;
}

function countsText(res: FrontResult): string {
  return Object.entries(res.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const results: FrontResult[] = [];
  let failed = 0;
  let current: { res: FrontResult; t0: number } | undefined;
  const writeJson = (partial: boolean) => {
    if (!args.json) return;
    const all = [...results];
    if (partial && current) {
      // inputs are counted as they finish: with --jobs 1 these are inputs 0 .. done-1 of the seed
      const done = Object.values(current.res.counts).reduce((a, b) => a + (b ?? 0), 0);
      all.push({ ...current.res, n: done, seconds: (Date.now() - current.t0) / 1000 });
    }
    writeFileSync(
      args.json,
      `${JSON.stringify({ seed: args.seed, from: args.from, date: new Date().toISOString(), partial, results: all }, null, 2)}\n`,
    );
  };
  // a campaign stopped with SIGTERM/SIGINT still records what it counted (marked partial)
  for (const sig of ['SIGTERM', 'SIGINT'] as const)
    process.on(sig, () => {
      writeJson(true);
      for (const w of workers) w.kill('SIGKILL');
      for (const f of markFiles) rmSync(f, { force: true });
      if (current)
        process.stdout.write(`${current.res.front}: stopped (${sig}): ${countsText(current.res)}\n`);
      process.exit(130);
    });
  const progress = setInterval(() => {
    if (current) {
      process.stdout.write(
        `  … ${current.res.front}: ${((Date.now() - current.t0) / 1000).toFixed(0)} s: ${countsText(current.res)}\n`,
      );
      writeJson(true);
    }
  }, 300_000);
  progress.unref();
  for (const front of args.fronts) {
    const t0 = Date.now();
    const n = FRONTS[front]!.heavy ? (args.heavyN ?? args.n) : args.n;
    const res: FrontResult = { front, n, counts: {}, failures: [], peakRssMb: 0, seconds: 0 };
    current = { res, t0 };
    const per = Math.ceil(n / args.jobs);
    const parts: Promise<void>[] = [];
    for (let j = 0; j < args.jobs; j++) {
      const from = args.from + j * per;
      const to = Math.min(args.from + n, from + per);
      if (from < to) parts.push(runRange(front, args.seed, from, to, args, res));
    }
    await Promise.all(parts);
    res.seconds = (Date.now() - t0) / 1000;
    results.push(res);
    current = undefined;
    const counts = countsText(res);
    process.stdout.write(
      `${front}: ${n} inputs (seed ${args.seed}${args.from ? `, from ${args.from}` : ''}) in ${res.seconds.toFixed(1)} s, peak worker RSS ${res.peakRssMb | 0} MB: ${counts}\n`,
    );
    const bySig = new Map<string, Failure>();
    for (const f of res.failures) if (!bySig.has(f.sig)) bySig.set(f.sig, f);
    for (const f of bySig.values()) {
      failed++;
      process.stdout.write(`  FAIL [${f.outcome}] input ${f.index}: ${f.sig}\n`);
      if (!args.save) continue;
      let input = generate(front, args.seed, f.index);
      if (f.outcome === 'crash' || f.outcome === 'Internal') input = await minimise(front, input, f.sig);
      const dir = join(ROOT, 'test/fuzz-corpus', front);
      mkdirSync(dir, { recursive: true });
      const name = `${createHash('sha1').update(input).digest('hex').slice(0, 12)}.in`;
      writeFileSync(join(dir, name), input);
      process.stdout.write(`    saved test/fuzz-corpus/${front}/${name} (${input.length} bytes)\n`);
    }
  }
  writeJson(false);
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
