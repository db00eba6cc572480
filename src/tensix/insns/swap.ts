/**
 * SFPSWAP: unconditional swap, or min/max (argmin/argmax with ENABLE_DEST_INDEX) of VD and VC in the
 * sign-magnitude total order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN
 * (tt-isa-documentation WormholeB0/BlackholeA0 SFPSWAP.md). Mod1 9 (VD gets the max in every lane)
 * is what ttsim and the Blackhole page define; the Blackhole page also gives 10..15 that meaning, and
 * the Wormhole page (585749d) calls it the current silicon behaviour of 10..15 (NonContractual; ttsim
 * refuses them). axsim runs 10..15 as 9 on both arches: tt-llk's Wormhole typecasts use Mod1 15.
 *
 * `vb` is the row read as the "VD" operand: VD itself for a regular SFPSWAP, but for one scheduled
 * by SFPLOADMACRO the Simple sub-unit reads it through VB, which the macro logic sets (SFPLOADMACRO.md:
 * "the usual `VB = VD` is skipped" for Simple sub-unit instructions; without sequence bit 7 that is
 * the template's VD while VC = VD = the macro's VD). When VC and VD name the same LReg the VC value
 * (written on SFPSWAP's second cycle) is the one that remains: that is what tt-llk's Wormhole exp
 * sanitize macro (ckernel_sfpu_exp.h, CLAMP_NEGATIVE) relies on to clamp at -88.5, and what its
 * DISABLE_SFPLOADMACRO form computes. For a regular SFPSWAP the two values are equal then (same
 * row read twice), so the order is invisible there. docs/tensix-timing.md records the choice.
 */
import { LANES, LC, type TensixState } from '../state.ts';

/** VDGetsMin lane masks for Mod1 1..8 (SFPSWAP.md); 9+ -> 0. */
export const VD_GETS_MIN = [
  0, -1, 0x0000ffff, 0x00ff00ff, 0xff0000ff, 0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000,
];

function smKey(x: number): number {
  return (x ^ ((x >> 30) >>> 1)) | 0;
}

export function sfpswap(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  vb: number = vd,
): void {
  const L = st.lreg;
  const lc = st.laneConfig;
  const vdGetsMin = mod1 < 9 ? VD_GETS_MIN[mod1]! : 0;
  const invert = (lc & LC.EXCHANGE_SRCB_SRCC) !== 0;
  const destIndex = (lc & LC.ENABLE_DEST_INDEX) !== 0;
  const C = vc * LANES;
  const D = vd * LANES;
  const B = vb * LANES;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const c = L[C + l]!;
    const d = L[B + l]!;
    let swap = true;
    if (mod1 !== 0) {
      const smaller = smKey(c) < smKey(d);
      swap = (vdGetsMin >>> l) & 1 ? smaller : !smaller;
      if (invert) swap = !swap;
    }
    if (!swap) continue;
    if (destIndex) {
      if (vd < 4) L[D + l] = c;
      if (vc < 4) L[C + l] = d;
      const ca = (4 + (vc & 3)) * LANES + l;
      const da = (4 + (vd & 3)) * LANES + l;
      const t = L[ca]!;
      L[ca] = L[da]!;
      L[da] = t;
    } else {
      if (vd < 8) L[D + l] = c;
      if (vc < 8) L[C + l] = d;
    }
  }
}
