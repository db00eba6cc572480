/**
 * FP32 field manipulation and moves: SFPEXEXP, SFPEXMAN, SFPDIVP2, SFPSETEXP, SFPSETMAN, SFPSETSGN,
 * SFPMOV (tt-isa-documentation WormholeB0 pages of the same names). SFPMOV's FROM_SPECIAL mode
 * reads LoadMacroConfig, the PRNG (advancing it) or LaneConfig.
 */
import { LANES, LC_BITS, stepPrng, type TensixState } from '../state.ts';

/** SFPEXEXP: VD = exponent (minus 127 unless Mod1 bit 0); bit 1 sets LaneFlags = VD < 0, bit 3 inverts. */
export function sfpexexp(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  flags: boolean,
): void {
  const L = st.lreg;
  const C = vc * LANES;
  const D = vd * LANES;
  const bias = mod1 & 1 ? 0 : 127;
  let f = st.laneFlags;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const r = ((L[C + l]! >>> 23) & 255) - bias;
    L[D + l] = r;
    if (flags) {
      const bit = 1 << l;
      if (mod1 & 2) f = r < 0 ? f | bit : f & ~bit;
      if (mod1 & 8) f ^= bit;
    }
  }
  st.laneFlags = f;
}

/** SFPEXMAN: VD = mantissa, with the hidden bit unless Mod1 bit 0 (PAD9). */
export function sfpexman(st: TensixState, mask: number, vd: number, vc: number, mod1: number): void {
  const L = st.lreg;
  const hidden = mod1 & 1 ? 0 : 0x800000;
  for (let l = 0; l < LANES; l++)
    if ((mask >>> l) & 1) L[vd * LANES + l] = (L[vc * LANES + l]! & 0x7fffff) | hidden;
}

/** SFPDIVP2: exponent = imm8 (Mod1 0) or exponent + imm8 wrapping mod 256 (Mod1 1; Inf/NaN kept). */
export function sfpdivp2(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  imm8: number,
): void {
  const L = st.lreg;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const c = L[vc * LANES + l]!;
    let e = (c >>> 23) & 255;
    if (mod1 & 1) {
      if (e !== 255) e = (e + imm8) & 255;
    } else {
      e = imm8;
    }
    L[vd * LANES + l] = (c & 0x807fffff) | (e << 23);
  }
}

/** SFPSETEXP: sign and mantissa of VC with exponent from imm8 (bit 0), VD's exponent (bit 1) or VD's low 8 bits. */
export function sfpsetexp(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  imm8: number,
): void {
  const L = st.lreg;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const b = L[vd * LANES + l]!;
    const e = mod1 & 1 ? imm8 : mod1 & 2 ? (b >>> 23) & 255 : b & 255;
    L[vd * LANES + l] = (L[vc * LANES + l]! & 0x807fffff) | (e << 23);
  }
}

/** SFPSETMAN: sign and exponent of VC with mantissa imm12 << 11 (bit 0) or VD's low 23 bits. */
export function sfpsetman(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  imm12: number,
): void {
  const L = st.lreg;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const m = mod1 & 1 ? imm12 << 11 : L[vd * LANES + l]! & 0x7fffff;
    L[vd * LANES + l] = (L[vc * LANES + l]! & 0xff800000) | m;
  }
}

/** SFPSETSGN: exponent and mantissa of VC with the sign from imm1 (bit 0) or from VD. */
export function sfpsetsgn(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  imm1: number,
): void {
  const L = st.lreg;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const s = mod1 & 1 ? imm1 << 31 : L[vd * LANES + l]! & 0x80000000;
    L[vd * LANES + l] = (L[vc * LANES + l]! & 0x7fffffff) | s;
  }
}

/**
 * SFPMOV: VD = VC (bit 0 flips the sign); Mod1 == 2 ignores the lane enables; bit 3 reads a special
 * source selected by VC: 0-3 InstructionTemplate, 4-7 Sequence, 8 Misc, 9 the PRNG (advanced), 15
 * LaneConfig, others 0.
 */
export function sfpmov(st: TensixState, mask: number, vd: number, vc: number, mod1: number): void {
  const L = st.lreg;
  if (mod1 === 2) mask = st.groupLanes; // every lane (of the LaneConfig group, exec.ts)
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    let x: number;
    if (mod1 & 8) {
      if (vc <= 8) x = st.loadMacroOf(vc, l);
      else if (vc === 9) {
        x = st.prng[l]!;
        st.prng[l] = stepPrng(x);
      } else if (vc === 15) {
        x = st.laneConfig & LC_BITS; // when lanes differ, exec.ts runs each group with its own value
      } else x = 0;
    } else {
      x = L[vc * LANES + l]!;
      if (mod1 & 1) x ^= 0x80000000;
    }
    L[vd * LANES + l] = x;
  }
}
