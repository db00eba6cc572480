/** Helpers shared by the timing tests: assemble a snippet, run it timed, build LoadMacroConfig lines. */
import { assemble } from '../asm/index.ts';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import type { TimedOptions, TimedResult, TimelineEntry } from './engine.ts';
import { runTimedProgram } from './index.ts';

export function machine(arch: Arch, fp32 = true): TensixMachine {
  const m = new TensixMachine(arch);
  m.configure({ sfpuFp32: fp32 });
  return m;
}

export function runSrc(
  m: TensixMachine,
  src: string,
  opts: TimedOptions = {},
): TimedResult & { timeline: TimelineEntry[] } {
  const words = assemble(src, m.arch).words;
  const r = runTimedProgram(m, words, { timeline: true, ...opts });
  return r as TimedResult & { timeline: TimelineEntry[] };
}

/** Lines that load a 32-bit value into all lanes of LReg[r] (SFPLOADI LOWER then UPPER). */
export function loadConst(r: number, v: number): string {
  return `TTI_SFPLOADI(${r}, 10, ${v & 0xffff});\nTTI_SFPLOADI(${r}, 8, ${(v >>> 16) & 0xffff});\n`;
}

/** Sequence byte: bit 7 VB/VC select, bit 6 LReg[16], bits 5:3 delay, bits 2:0 selector. */
export function seqByte(sel: number, delay = 0, b7 = false, b6 = false): number {
  return (b7 ? 0x80 : 0) | (b6 ? 0x40 : 0) | ((delay & 7) << 3) | (sel & 7);
}

/** Lines that write Sequence[macro] = simple | mad << 8 | round << 16 | store << 24 via LReg[0]. */
export function setSequence(macro: number, simple: number, mad = 0, round = 0, store = 0): string {
  const v = (simple | (mad << 8) | (round << 16) | (store << 24)) >>> 0;
  return `${loadConst(0, v)}TTI_SFPCONFIG(0, ${4 + macro}, 0);\n`;
}

/** Misc = StoreMod0 | UsesLoadMod0ForStore << 4 | UnitDelayKind << 8 (SFPCONFIG immediate form). */
export function setMisc(storeMod0: number, usesLoadMod0: number, unitDelayKind: number): string {
  return `TTI_SFPCONFIG(${(storeMod0 & 15) | ((usesLoadMod0 & 15) << 4) | ((unitDelayKind & 15) << 8)}, 8, 1);\n`;
}

/** SFPLOADMACRO with the documented fields (SFPLOADMACRO.md syntax). */
export function loadMacro(macro: number, vd: number, mod0: number, addrMod: number, imm9: number): string {
  return `TTI_SFPLOADMACRO(${(macro << 2) | (vd & 3)}, ${mod0}, ${addrMod}, ${(imm9 << 1) | (vd >> 2)});\n`;
}

/** Timeline entries of scheduled instructions on a unit. */
export function scheduledOn(r: { timeline: TimelineEntry[] }, unit: string): TimelineEntry[] {
  return r.timeline.filter((e) => e.scheduled && e.unit === unit);
}

/** Cycle at which the program record with source index `i` was issued (from the timeline). */
export function issuedAt(r: { timeline: TimelineEntry[] }, i: number): number {
  const e = r.timeline.find((x) => !x.scheduled && x.index === i && x.note === undefined);
  return e ? e.cycle : -1;
}
