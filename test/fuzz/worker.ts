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

async function main(): Promise<void> {
  const [front, seedS, fromS, toS, markPath] = process.argv.slice(2);
  const seed = Number(seedS);
  const to = Number(toS);
  const mark = markPath ? openSync(markPath, 'r+') : undefined;
  await prepare();
  for (let i = Number(fromS); i < to; i++) {
    if (!process.connected) process.exit(0); // the parent is gone
    markStart(mark, i); // (the parent reads which input runs from the mark file, not from a message)
    let input: Uint8Array;
    try {
      input = generate(front!, seed, i);
    } catch (e) {
      process.send!({ done: i, outcome: 'crash', sig: `generator: ${(e as Error).message}` });
      continue;
    }
    const r = await runOne(front!, input);
    process.send!({ done: i, ...r });
  }
  process.send!({ finished: true }, () => process.exit(0));
}

if (process.send && process.argv[1]?.endsWith('worker.ts')) await main();
