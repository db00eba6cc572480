/**
 * Helper threads for the f32 elementwise kernels of simd.ts on large tiles (issue 17).
 *
 * The pto-isa CPU simulator runs an elementwise op on std::threads when it has more than 16 384
 * elements (PTO_CPU_PARALLEL_THRESHOLD_ELEMS, shared/perf/PTO-PERF.md). axsim does the same with
 * worker_threads that instantiate the same kernel module on the same shared WebAssembly memory as
 * the tiles, started once, lazily, on the first call that needs them. A call is split into parts,
 * one per thread (the calling thread is part 0), each cut into chunks; a thread runs the chunks of
 * its own part, then takes what is left of the others'. The calling thread never waits for a
 * thread that has not started a chunk: if the workers are slow to wake (a loaded machine) or have
 * not started yet, it runs every chunk itself, and the call costs what the single-threaded kernel
 * costs plus a few atomic operations. It waits (Atomics.wait) only for chunks already under way.
 *
 * Every element is read and written by itself, so the result does not depend on which thread runs
 * which chunk, in which order, as long as d does not partly overlap a source (the callers split
 * only when d and each source start together or are disjoint, the kernel's own condition for
 * running backwards).
 *
 * By default one worker per core but the calling one (`AXSIM_PTO_THREADS=auto`, see DEFAULT_WORKERS);
 * `AXSIM_PTO_THREADS=N` asks for N, `0` for none. There are none (and every call
 * runs on the calling thread, as before) outside Node.js (the browser playground: no
 * `process.getBuiltinModule`; a page that is not cross-origin isolated has no shared memory
 * either), on a host with fewer than two cores (`os.availableParallelism()`), when the pool is not
 * shared, or when starting a worker fails. Workers are unref'd, so they never keep a process alive.
 */
import { badInput, internalError } from '../errors.ts';
import type { WasmMemory } from '../wasm.ts';

/** d = a (op) b over n f32 elements at byte addresses d, a, b. */
export type F32Kernel = (d: number, a: number, b: number, n: number) => void;

// ---- the control block: an Int32Array over a SharedArrayBuffer ----
// word 0 is the job number (1 .. 2^23 - 1, then 1 again), which workers wait on; 1-5 the job
// (op, d, a, b, n); 6 parts, 7 chunks per part, 8 elements per chunk, 9 1 when this job's chunks
// run last to first (and each backwards), 10 chunks finished, 11 1 once a kernel threw, 12 the
// number of workers running, 13 chunks run by workers (all jobs); from 16 one claim word per part:
// job number << 8 | next chunk.
const GEN = 0;
const PARTS = 6;
const CHUNKS = 7;
const DONE = 10;
const FAILED = 11;
const LIVE = 12;
const WORKER_CHUNKS = 13;
const CLAIM = 16;
/** Most chunks per part (the claim word's low 8 bits count them). */
const MAX_CHUNKS = 16;
/**
 * Worker threads when neither the caller nor AXSIM_PTO_THREADS (a number, or `auto` for one per
 * core but the calling one) says: `auto`, as the reference splits its large elementwise ops by
 * default. Measured with a free second core (docs/performance-pto.md, session 8, 02:55 UTC, load
 * 2-3.6): TADD f32 1024x1024 5.6-6.1 G elem/s with one worker against 3.3 on one thread (wall
 * clock). Without a free core the calling thread runs the chunks no worker has started, so the
 * cost is a few atomic operations (split calls measured 0-12 % slower on a loaded machine).
 * `AXSIM_PTO_THREADS=0` turns them off.
 */
const DEFAULT_WORKERS = 'auto';

/**
 * AXSIM_PTO_THREADS read: unset or empty = the default, `auto` = one per core but the calling one, a
 * whole number = that many (at most MAX_WORKERS are started). Anything else is BadInput naming the
 * variable (it is not silently read as 0).
 */
export function threadsFromEnv(value: string | undefined): number | 'auto' {
  const v = value?.trim();
  if (!v) return DEFAULT_WORKERS;
  if (v === 'auto') return 'auto';
  if (/^\d+$/.test(v)) return Number(v);
  throw badInput(`AXSIM_PTO_THREADS='${value}' is neither a whole number nor 'auto'`, {
    hint: 'AXSIM_PTO_THREADS=0 runs without helper threads, =N starts N (at most 7), =auto (the default) one per core but the calling one',
  });
}
/** Most worker threads (beyond this the memory bandwidth of common machines is spent). */
const MAX_WORKERS = 7;

/**
 * Claims and runs chunks of job `g` for thread `t`: its own part first, then the others'. A chunk is
 * claimed by a compare-exchange on its part's claim word, which also checks the job number, so a
 * thread that read a job which has since been replaced claims nothing. Self-contained (no free
 * names but its parameters and globals): it is also the workers' code, through `toString`.
 */
function work(
  c: Int32Array,
  g: number,
  t: number,
  kernels: readonly F32Kernel[],
  dir: { value: number },
): void {
  const k = kernels[Atomics.load(c, 1)]!;
  const d = Atomics.load(c, 2);
  const a = Atomics.load(c, 3);
  const b = Atomics.load(c, 4);
  const n = Atomics.load(c, 5);
  const P = Atomics.load(c, 6);
  const K = Atomics.load(c, 7);
  const S = Atomics.load(c, 8);
  const rev = Atomics.load(c, 9);
  const total = P * K;
  for (let i = 0; i < P; i++) {
    const p = (t + i) % P;
    for (;;) {
      const cur = Atomics.load(c, 16 + p);
      if (cur >>> 8 !== g || (cur & 255) >= K) break;
      if (Atomics.compareExchange(c, 16 + p, cur, cur + 1) !== cur) continue;
      const j = cur & 255;
      const off = (p * K + (rev ? K - 1 - j : j)) * S;
      if (off < n) {
        try {
          // the kernel turns round before it runs: 0 makes it run backwards, 1 forwards
          dir.value = rev ? 0 : 1;
          k(d + 4 * off, a + 4 * off, b + 4 * off, Math.min(S, n - off));
        } catch {
          Atomics.store(c, 11, 1);
        }
      }
      if (t > 0) Atomics.add(c, 13, 1);
      if (Atomics.add(c, 10, 1) + 1 === total) Atomics.notify(c, 10);
    }
  }
}

/**
 * A worker's program: instantiate the kernels on the shared memory, then wait for jobs and take
 * part in each (unless the job reaches past the memory this thread can see). After a job it polls
 * the job number for `spin` rounds before it sleeps, so that back-to-back calls find it awake.
 */
function workerSource(spin: number): string {
  return `'use strict';
const { workerData } = process.getBuiltinModule('node:worker_threads');
const { memory, bytes, ctrl, index } = workerData;
const ex = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { m: memory } }).exports;
const kernels = [ex.add, ex.sub, ex.mul, ex.div];
const c = new Int32Array(ctrl);
const work = ${work.toString()};
Atomics.add(c, ${LIVE}, 1);
let seen = Atomics.load(c, ${GEN});
for (;;) {
  let g = Atomics.load(c, ${GEN});
  for (let s = 0; g === seen && s < ${spin}; s++) g = Atomics.load(c, ${GEN});
  if (g === seen) {
    Atomics.wait(c, ${GEN}, seen);
    continue;
  }
  seen = g;
  const end = Math.max(Atomics.load(c, 2), Atomics.load(c, 3), Atomics.load(c, 4)) + 4 * Atomics.load(c, 5);
  if (memory.buffer.byteLength >= end) work(c, g, index, kernels, ex.dir);
}
`;
}

type GetBuiltin = (id: string) => unknown;
interface WorkerLike {
  unref(): void;
  terminate(): Promise<number>;
  on(event: string, f: (...args: unknown[]) => void): unknown;
}
interface WorkerThreadsModule {
  Worker: new (src: string, opts: { eval: true; workerData: unknown; execArgv: string[] }) => WorkerLike;
}
interface OsModule {
  availableParallelism?: () => number;
  cpus(): unknown[];
}

/** Options of {@link F32Threads.start}. */
export interface ThreadOptions {
  /** Worker threads to start, at most 7 (default: AXSIM_PTO_THREADS, else one per core but the calling one). */
  workers?: number;
  /** Rounds a worker polls for the next job before it sleeps. */
  spin?: number;
}

/** The workers sharing one kernel module and memory, and the calling thread's side of a job. */
export class F32Threads {
  private readonly c: Int32Array;
  private gen = 0;
  private rev = 0;
  /** Parts per job: the calling thread and every worker started (started or not yet running). */
  private readonly parts: number;

  private constructor(
    ctrl: SharedArrayBuffer,
    private readonly workers: readonly WorkerLike[],
    private readonly kernels: readonly F32Kernel[],
    private readonly dir: { value: number },
  ) {
    this.c = new Int32Array(ctrl);
    this.parts = workers.length + 1;
  }

  /** The worker threads started (the calling thread not counted). */
  get workerCount(): number {
    return this.workers.length;
  }

  /**
   * Starts the workers; undefined (the caller runs single-threaded) where there are none to start:
   * none asked for, not Node.js, fewer than two cores, no shared memory, or a failure.
   */
  static start(
    bytes: Uint8Array,
    memory: WasmMemory,
    kernels: readonly F32Kernel[],
    dir: { value: number },
    opts: ThreadOptions = {},
  ): F32Threads | undefined {
    // read outside the try below: a value that is not understood is the user's error, not a fallback
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const asked = opts.workers === undefined ? threadsFromEnv(env?.AXSIM_PTO_THREADS) : 0;
    try {
      const proc = (
        globalThis as {
          process?: { getBuiltinModule?: GetBuiltin; env?: Record<string, string | undefined> };
        }
      ).process;
      const wt = proc?.getBuiltinModule?.('node:worker_threads') as WorkerThreadsModule | undefined;
      const os = proc?.getBuiltinModule?.('node:os') as OsModule | undefined;
      if (!wt || !os || typeof SharedArrayBuffer !== 'function') return undefined;
      if (!(memory.buffer instanceof SharedArrayBuffer)) return undefined;
      const cores = os.availableParallelism?.() ?? os.cpus().length;
      let workers = opts.workers;
      if (workers === undefined) {
        workers = asked === 'auto' ? cores - 1 : asked;
        if (cores < 2) workers = 0;
      }
      workers = Math.min(workers, MAX_WORKERS);
      if (workers < 1) return undefined;
      const ctrl = new SharedArrayBuffer(4 * (CLAIM + workers + 1));
      const src = workerSource(opts.spin ?? 0);
      const started: WorkerLike[] = [];
      try {
        for (let i = 1; i <= workers; i++) {
          const workerData = { memory, bytes, ctrl, index: i };
          // no execArgv: the program is plain JavaScript (no loaders needed); eval'd as a script
          const w = new wt.Worker(src, { eval: true, workerData, execArgv: [] });
          started.push(w);
          w.unref();
          // a worker that dies claims nothing more; its part is taken by the others
          w.on('error', () => {});
        }
      } catch {
        for (const w of started) void w.terminate();
        return undefined;
      }
      return new F32Threads(ctrl, started, kernels, dir);
    } catch {
      return undefined;
    }
  }

  /** Ends the workers (calls made after this one must not use this object). */
  stop(): Promise<unknown> {
    return Promise.all(this.workers.map((w) => w.terminate()));
  }

  /** Workers running (for tests: they start asynchronously). */
  live(): number {
    return Atomics.load(this.c, LIVE);
  }

  /** Chunks the workers have run, over all jobs (the calling thread ran the rest). */
  workerChunks(): number {
    return Atomics.load(this.c, WORKER_CHUNKS);
  }

  /**
   * d = a (op) b over n f32 elements at byte addresses d, a, b, split across the threads. The
   * caller makes sure that d and each source start together or are disjoint. `callerWorks` false
   * (for tests) leaves every chunk to the workers, so it must only be used once one is running.
   */
  run(op: number, d: number, a: number, b: number, n: number, callerWorks = true): void {
    const c = this.c;
    const P = this.parts;
    // chunks: a multiple of 64 elements (the kernel's 256-byte blocks), at least 16 384 elements
    // (the reference's threshold; fewer claims), at most MAX_CHUNKS per part
    const S = Math.max(16384, (Math.ceil(n / (P * MAX_CHUNKS)) + 63) & ~63);
    const K = Math.ceil(Math.ceil(n / S) / P);
    const g = (this.gen = this.gen >= 0x7fffff ? 1 : this.gen + 1);
    this.rev ^= 1;
    // the claim words first: a worker still on the previous job can claim nothing from here on
    for (let p = 0; p < P; p++) Atomics.store(c, CLAIM + p, g << 8);
    Atomics.store(c, 1, op);
    Atomics.store(c, 2, d);
    Atomics.store(c, 3, a);
    Atomics.store(c, 4, b);
    Atomics.store(c, 5, n);
    Atomics.store(c, PARTS, P);
    Atomics.store(c, CHUNKS, K);
    Atomics.store(c, 8, S);
    Atomics.store(c, 9, this.rev);
    Atomics.store(c, DONE, 0);
    Atomics.store(c, GEN, g);
    Atomics.notify(c, GEN);
    if (callerWorks) work(c, g, 0, this.kernels, this.dir);
    const total = P * K;
    let done = Atomics.load(c, DONE);
    // wait for chunks other threads are still running: poll briefly, then sleep
    for (let s = 0; done < total && s < 4096; s++) done = Atomics.load(c, DONE);
    while (done < total) {
      Atomics.wait(c, DONE, done);
      done = Atomics.load(c, DONE);
    }
    if (Atomics.load(c, FAILED) !== 0) {
      throw internalError(
        'a PTO f32 kernel failed on a helper thread; unset AXSIM_PTO_THREADS to run without them',
      );
    }
  }
}
