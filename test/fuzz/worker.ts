/**
 * Fuzz worker (a child process): generates inputs `from .. to-1` of one front end and runs each under
 * the fuzz budget, writing the index of the input it starts (with its CPU time) to the parent's
 * mark file and sending each outcome over IPC. The parent kills the worker when an input runs past 30 s or the process grows past 2 GB.
 */
import { openSync, writeSync } from 'node:fs';
import { AxsimError } from '../../src/errors.ts';
import { FRONTS, fuzzBudget, prepare } from './fronts.ts';
import { rngFor } from './mutate.ts';

export type Outcome =
  | 'ok'
  | 'BadInput'
  | 'ResourceLimit'
  | 'Unsupported'
  | 'UndefinedBehaviour'
  | 'NonContractual'
  | 'Internal'
  | 'crash'
  | 'timeout'
  | 'memory';

/** Runs one input; returns its outcome and, for failures, a one-line signature. */
export async function runOne(front: string, input: Uint8Array): Promise<{ outcome: Outcome; sig?: string }> {
  const f = FRONTS[front];
  if (!f) throw new Error(`unknown front ${front}`);
  try {
    await f.run(input, fuzzBudget());
    return { outcome: 'ok' };
  } catch (e) {
    if (e instanceof AxsimError) {
      return e.category === 'Internal'
        ? { outcome: 'Internal', sig: `Internal: ${e.message.slice(0, 120)}` }
        : { outcome: e.category };
    }
    const err = e as Error;
    const frame = (err?.stack ?? '').split('\n').find((l) => l.includes('/src/')) ?? '';
    return {
      outcome: 'crash',
      sig: `${err?.name ?? typeof e}: ${String(err?.message ?? e).slice(0, 120)} ${frame.trim().replace(/^at /, '')}`,
    };
  }
}

export function generate(front: string, seed: number, index: number): Uint8Array {
  return FRONTS[front]!.generate(rngFor(seed, index));
}

/**
 * Records, in the parent's mark file, the input about to run with this process's CPU and wall time
 * (fixed-size, overwritten in place: one small write per input).
 */
function markStart(fd: number | undefined, i: number): void {
  if (fd === undefined) return;
  const u = process.cpuUsage();
  const line = `${i} ${Math.round((u.user + u.system) / 1000)} ${Date.now()}`.padEnd(63);
  writeSync(fd, `${line}\n`, 0);
}

/** What one input ended with, as the worker reports it to the parent. */
export type Done = { done: number; outcome: Outcome; sig?: string };

/**
 * Runs inputs `from .. to-1` of (front, seed), calling `before(i)` as each starts and `done` as each
 * ends (`before` returning false stops the loop).
 *
 * Between two inputs the loop yields to the event loop (one `setImmediate`). Without that, a worker
 * ran its whole range in one task: the library's FinalizationRegistry callbacks never ran, so the
 * PTO SIMD pool never got its blocks back and grew towards its 1 GiB cap (a pto-ptoas worker peaked
 * at 1940 MB over 10^6 inputs, with a 15 MB live heap), and outcome messages the parent had not yet
 * read were queued in the worker instead of being written.
 *
 * V8 clears FinalizationRegistry targets only in a full (mark-compact) collection, and the pool's
 * WebAssembly memory is not counted as heap, so with a 30-40 MB heap such collections were too rare
 * to recycle the pool: every 64 inputs the loop checks the process's RSS and, when it has grown by
 * 256 MB since the last check that collected, runs a full collection (`gc`, exposed to workers by
 * main.ts with --expose-gc). The measured peak RSS is then what inputs keep alive, not garbage.
 */
export async function runInputs(
  front: string,
  seed: number,
  from: number,
  to: number,
  done: (d: Done) => void,
  before: (i: number) => boolean = () => true,
): Promise<void> {
  for (let i = from; i < to; i++) {
    if (!before(i)) return;
    let input: Uint8Array;
    try {
      input = generate(front, seed, i);
    } catch (e) {
      done({ done: i, outcome: 'crash', sig: `generator: ${(e as Error).message}` });
      continue;
    }
    done({ done: i, ...(await runOne(front, input)) });
    if (gc && (i & 63) === 63) {
      const rss = process.memoryUsage.rss();
      if (rss > collectedAt + GC_STEP) {
        gc();
        collectedAt = process.memoryUsage.rss();
      }
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** RSS growth (bytes) after which the worker runs a full collection (see runInputs). */
const GC_STEP = 256 << 20;
const gc = (globalThis as { gc?: () => void }).gc;
let collectedAt = 0;

async function main(): Promise<void> {
  const [front, seedS, fromS, toS, markPath] = process.argv.slice(2);
  const mark = markPath ? openSync(markPath, 'r+') : undefined;
  await prepare();
  await runInputs(
    front!,
    Number(seedS),
    Number(fromS),
    Number(toS),
    (d) => process.send!(d),
    (i) => {
      if (!process.connected) process.exit(0); // the parent is gone
      markStart(mark, i); // (the parent reads which input runs from the mark file, not from a message)
      return true;
    },
  );
  process.send!({ finished: true }, () => process.exit(0));
}

if (process.send && process.argv[1]?.endsWith('worker.ts')) await main();
