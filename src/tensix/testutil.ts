/** Helpers for the Vector Unit tests: a machine, instruction words by name, register set-up. */
import { type Arch, encode } from './encoding.ts';
import { run } from './exec.ts';
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

export function exec(st: TensixState, words: number[]): void {
  run(st, compile(words, st.arch));
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
