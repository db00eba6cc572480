/** Helpers for the Vector Unit tests: a machine, instruction words by name, register set-up. */
import { AxsimError } from '../errors.ts';
import { type Arch, byOpcode, encode } from './encoding.ts';
import { run } from './exec.ts';
import type { TensixMachine } from './index.ts';
import { compile } from './program.ts';
import { LANES, TensixState } from './state.ts';

export function machine(arch: Arch = 'wormhole'): TensixState {
  const st = new TensixState(arch);
  st.useLaneFlags = 0;
  st.laneFlags = 0;
  return st;
}

/** An instruction word from its name and ttsim field values. */
export function w(name: string, fields: Record<string, number> = {}, arch: Arch = 'wormhole'): number {
  return encode(name, fields, arch);
}

/**
 * Instructions (by arch, then name) that `exec` ran to completion, counted for coverage.test.ts:
 * a word counts once it has executed without raising.
 */
export const executed: Record<Arch, Map<string, number>> = { wormhole: new Map(), blackhole: new Map() };

function countExecuted(arch: Arch, words: readonly number[], end: number): void {
  const m = executed[arch];
  for (let i = 0; i < end; i++) {
    const name = byOpcode(words[i]! >>> 24, arch)?.name;
    if (name) m.set(name, (m.get(name) ?? 0) + 1);
  }
}

/** Runs `words` on a TensixMachine (REPLAY needs its replay buffer), counted like `exec`. */
export function execOn(m: TensixMachine, words: number[]): void {
  m.run(words);
  countExecuted(m.arch, words, words.length);
}

export function exec(st: TensixState, words: number[]): void {
  try {
    run(st, compile(words, st.arch));
  } catch (e) {
    // the words before the one that raised did execute
    const at = e instanceof AxsimError ? e.location?.index : undefined;
    if (typeof at === 'number') countExecuted(st.arch, words, Math.min(at, words.length));
    throw e;
  }
  countExecuted(st.arch, words, words.length);
}

/** Sets LReg[r] lane by lane (a shorter array repeats). */
export function setL(st: TensixState, r: number, vals: number[] | number): void {
  for (let l = 0; l < LANES; l++) {
    const v = typeof vals === 'number' ? vals : vals[l % vals.length]!;
    st.lreg[r * LANES + l] = v >>> 0;
  }
}

export function getL(st: TensixState, r: number): number[] {
  return Array.from(st.lreg.subarray(r * LANES, (r + 1) * LANES));
}

export const hex = (v: number) => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;
