/**
 * SFPLOADI: write a 16-bit immediate, widened per Mod0, to the enabled lanes of LReg[VD]
 * (tt-isa-documentation WormholeB0 SFPLOADI.md; ttsim agrees, SFPU-NOTES.md E).
 */
import { LANES, type TensixState } from '../state.ts';

export const LOADI_MOD0 = { FLOATB: 0, FLOATA: 1, USHORT: 2, SHORT: 4, UPPER: 8, LOWER: 10 } as const;

/** The 32-bit value for the whole-register modes 0/1/2/4 (FP16 is a plain exponent rebias). */
export function loadiValue(mod0: number, imm16: number): number {
  switch (mod0) {
    case LOADI_MOD0.FLOATB:
      return (imm16 << 16) >>> 0;
    case LOADI_MOD0.FLOATA:
      return (((imm16 & 0x8000) << 16) | (((imm16 & 0x7fff) + (112 << 10)) << 13)) >>> 0;
    case LOADI_MOD0.USHORT:
      return imm16;
    default: // SHORT
      return ((imm16 << 16) >> 16) >>> 0;
  }
}

export function sfploadi(st: TensixState, mask: number, vd: number, mod0: number, imm16: number): void {
  const L = st.lreg;
  const base = vd * LANES;
  if (mod0 === LOADI_MOD0.UPPER) {
    const hi = imm16 << 16;
    for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[base + l] = (L[base + l]! & 0xffff) | hi;
  } else if (mod0 === LOADI_MOD0.LOWER) {
    for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[base + l] = (L[base + l]! & 0xffff0000) | imm16;
  } else {
    const v = loadiValue(mod0, imm16);
    for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[base + l] = v;
  }
}
