/**
 * Integer and bitwise instructions: SFPIADD, SFPAND, SFPOR, SFPXOR, SFPNOT, SFPLZ, SFPABS, SFPSHFT
 * (tt-isa-documentation WormholeB0 pages of the same names; BlackholeA0 SFPSHFT/SFPAND/SFPOR for
 * the arithmetic shift, the VC-source shift and the three-operand AND/OR). SFPABS's float mode
 * follows ttsim (SFPU-NOTES.md A1: only values above 0xff800000, the negative NaNs, keep their sign).
 * Callers pass VD 8..11 as the SINK row where the document drops the write.
 */
import { LANES, type TensixState } from '../state.ts';

/**
 * SFPIADD: VD = VC + VD, VC - VD (Mod1 bit 1) or VC + imm12 (bit 0; takes priority). Unless bit 2
 * (CC_NONE), LaneFlags = result < 0; bit 3 (CC_GTE0) then inverts LaneFlags. Flags only for VD < 8,
 * and only in the enabled lanes.
 */
export function sfpiadd(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  imm: number,
  flags: boolean,
): void {
  const L = st.lreg;
  const C = vc * LANES;
  const D = vd * LANES;
  let neg = 0;
  if (mask === -1) {
    const wantNeg = flags && !(mod1 & 4);
    if (mod1 & 1) {
      for (let l = 0; l < LANES; l += 4) {
        L[D + l] = L[C + l]! + imm;
        L[D + l + 1] = L[C + l + 1]! + imm;
        L[D + l + 2] = L[C + l + 2]! + imm;
        L[D + l + 3] = L[C + l + 3]! + imm;
      }
    } else if (mod1 & 2) {
      for (let l = 0; l < LANES; l += 4) {
        L[D + l] = L[C + l]! - L[D + l]!;
        L[D + l + 1] = L[C + l + 1]! - L[D + l + 1]!;
        L[D + l + 2] = L[C + l + 2]! - L[D + l + 2]!;
        L[D + l + 3] = L[C + l + 3]! - L[D + l + 3]!;
      }
    } else {
      for (let l = 0; l < LANES; l += 4) {
        L[D + l] = L[C + l]! + L[D + l]!;
        L[D + l + 1] = L[C + l + 1]! + L[D + l + 1]!;
        L[D + l + 2] = L[C + l + 2]! + L[D + l + 2]!;
        L[D + l + 3] = L[C + l + 3]! + L[D + l + 3]!;
      }
    }
    if (wantNeg) for (let l = 0; l < LANES; l++) neg |= (L[D + l]! >>> 31) << l;
  } else if (!flags || mod1 & 4) {
    // Partial mask, LaneFlags untouched: iterate over the enabled lanes only.
    if (mod1 & 1) {
      for (let m = mask; m !== 0; ) {
        // highest enabled lane first (int32-only arithmetic: -m would overflow for lane 31)
        const l = 31 - Math.clz32(m);
        m ^= 1 << l;
        L[D + l] = L[C + l]! + imm;
      }
    } else if (mod1 & 2) {
      for (let m = mask; m !== 0; ) {
        // highest enabled lane first (int32-only arithmetic: -m would overflow for lane 31)
        const l = 31 - Math.clz32(m);
        m ^= 1 << l;
        L[D + l] = L[C + l]! - L[D + l]!;
      }
    } else {
      for (let m = mask; m !== 0; ) {
        // highest enabled lane first (int32-only arithmetic: -m would overflow for lane 31)
        const l = 31 - Math.clz32(m);
        m ^= 1 << l;
        L[D + l] = L[C + l]! + L[D + l]!;
      }
    }
  } else {
    const kind = mod1 & 1 ? 0 : mod1 & 2 ? 1 : 2;
    for (let m = mask; m !== 0; ) {
      // highest enabled lane first (int32-only arithmetic: -m would overflow for lane 31)
      const l = 31 - Math.clz32(m);
      m ^= 1 << l;
      const c = L[C + l]!;
      const r = kind === 0 ? (c + imm) | 0 : kind === 1 ? (c - L[D + l]!) | 0 : (c + L[D + l]!) | 0;
      L[D + l] = r;
      neg |= (r >>> 31) << l;
    }
  }
  if (flags) {
    const f = st.laneFlags;
    const next = (mod1 & 4 ? f : neg) ^ (mod1 & 8 ? -1 : 0);
    st.laneFlags = (f & ~mask) | (next & mask);
  }
}

/** SFPAND: VD = LReg[vb] & LReg[vc]. */
export function sfpand(st: TensixState, mask: number, vd: number, vb: number, vc: number): void {
  const L = st.lreg;
  const B = vb * LANES;
  const C = vc * LANES;
  const D = vd * LANES;
  if (mask === -1) {
    for (let l = 0; l < LANES; l += 4) {
      L[D + l] = L[B + l]! & L[C + l]!;
      L[D + l + 1] = L[B + l + 1]! & L[C + l + 1]!;
      L[D + l + 2] = L[B + l + 2]! & L[C + l + 2]!;
      L[D + l + 3] = L[B + l + 3]! & L[C + l + 3]!;
    }
  } else {
    for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[D + l] = L[B + l]! & L[C + l]!;
  }
}

/** SFPOR: VD = LReg[vb] | LReg[vc]. */
export function sfpor(st: TensixState, mask: number, vd: number, vb: number, vc: number): void {
  const L = st.lreg;
  const B = vb * LANES;
  const C = vc * LANES;
  const D = vd * LANES;
  if (mask === -1) {
    for (let l = 0; l < LANES; l += 4) {
      L[D + l] = L[B + l]! | L[C + l]!;
      L[D + l + 1] = L[B + l + 1]! | L[C + l + 1]!;
      L[D + l + 2] = L[B + l + 2]! | L[C + l + 2]!;
      L[D + l + 3] = L[B + l + 3]! | L[C + l + 3]!;
    }
  } else {
    for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[D + l] = L[B + l]! | L[C + l]!;
  }
}

/** SFPXOR: VD = VD ^ LReg[vc]. */
export function sfpxor(st: TensixState, mask: number, vd: number, vc: number): void {
  const L = st.lreg;
  const C = vc * LANES;
  const D = vd * LANES;
  if (mask === -1) {
    for (let l = 0; l < LANES; l += 4) {
      L[D + l] = L[D + l]! ^ L[C + l]!;
      L[D + l + 1] = L[D + l + 1]! ^ L[C + l + 1]!;
      L[D + l + 2] = L[D + l + 2]! ^ L[C + l + 2]!;
      L[D + l + 3] = L[D + l + 3]! ^ L[C + l + 3]!;
    }
  } else
    for (let m = mask; m !== 0; ) {
      // highest enabled lane first (int32-only arithmetic: -m would overflow for lane 31)
      const l = 31 - Math.clz32(m);
      m ^= 1 << l;
      L[D + l] = L[D + l]! ^ L[C + l]!;
    }
}

/** SFPNOT: VD = ~LReg[vc]. */
export function sfpnot(st: TensixState, mask: number, vd: number, vc: number): void {
  const L = st.lreg;
  const C = vc * LANES;
  const D = vd * LANES;
  if (mask === -1) {
    for (let l = 0; l < LANES; l += 4) {
      L[D + l] = ~L[C + l]!;
      L[D + l + 1] = ~L[C + l + 1]!;
      L[D + l + 2] = ~L[C + l + 2]!;
      L[D + l + 3] = ~L[C + l + 3]!;
    }
  } else for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[D + l] = ~L[C + l]!;
}

/** SFPLZ: VD = clz(VC) (32 for 0); bit 2 masks the sign bit first, bit 1 sets LaneFlags = VC != 0, bit 3 inverts. */
export function sfplz(
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
  let f = st.laneFlags;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    let c = L[C + l]!;
    if (mod1 & 4) c &= 0x7fffffff;
    L[D + l] = Math.clz32(c);
    if (flags) {
      const bit = 1 << l;
      if (mod1 & 2) f = c !== 0 ? f | bit : f & ~bit;
      if (mod1 & 8) f ^= bit;
    }
  }
  st.laneFlags = f;
}

/** SFPABS: integer mode negates negative values (INT32_MIN stays); float mode clears the sign except for -NaN. */
export function sfpabs(st: TensixState, mask: number, vd: number, vc: number, mod1: number): void {
  const L = st.lreg;
  const C = vc * LANES;
  const D = vd * LANES;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    let x = L[C + l]!;
    if (mod1 & 1) {
      if (x <= 0xff800000) x &= 0x7fffffff;
    } else if (x >= 0x80000000) {
      x = Math.imul(x, -1); // two's complement negation; INT32_MIN stays
    }
    L[D + l] = x;
  }
}

/**
 * SFPSHFT: shift LReg[VD] (or, on BH with Mod1 bits 0 and 2, LReg[VC]) by imm12 (bit 0) or by
 * LReg[VC]; positive amounts shift left, negative right (logical; arithmetic with BH bit 1), mod 32.
 */
export function sfpshft(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  mod1: number,
  imm: number,
): void {
  const L = st.lreg;
  const C = vc * LANES;
  const D = vd * LANES;
  if ((mod1 & 7) === 1 && mask === -1) {
    // Plain immediate shift of VD, all lanes (the common case).
    if (imm >= 0) {
      const a = imm & 31;
      for (let l = 0; l < LANES; l += 4) {
        L[D + l] = L[D + l]! << a;
        L[D + l + 1] = L[D + l + 1]! << a;
        L[D + l + 2] = L[D + l + 2]! << a;
        L[D + l + 3] = L[D + l + 3]! << a;
      }
    } else {
      const a = (32 - (imm & 31)) & 31; // -imm mod 32 without an int32 negation
      for (let l = 0; l < LANES; l += 4) {
        L[D + l] = L[D + l]! >>> a;
        L[D + l + 1] = L[D + l + 1]! >>> a;
        L[D + l + 2] = L[D + l + 2]! >>> a;
        L[D + l + 3] = L[D + l + 3]! >>> a;
      }
    }
    return;
  }
  if (mod1 === 0 && mask === -1) {
    // Branch-free: the shift amounts are data (often random-signed), so select left/right by mask.
    for (let l = 0; l < LANES; l++) {
      const amt = L[C + l]! | 0;
      const x = L[D + l]!;
      const neg = amt >> 31;
      L[D + l] = ((x << (amt & 31)) & ~neg) | ((x >>> ((32 - (amt & 31)) & 31)) & neg);
    }
    return;
  }
  const useVc = (mod1 & 5) === 5;
  const arith = (mod1 & 2) !== 0;
  const byImm = (mod1 & 1) !== 0;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const x = useVc ? L[C + l]! : L[D + l]!;
    const amt = byImm ? imm : L[C + l]! | 0;
    let r: number;
    if (amt >= 0) r = x << (amt & 31);
    else if (arith) r = (x | 0) >> ((32 - (amt & 31)) & 31);
    else r = x >>> ((32 - (amt & 31)) & 31);
    L[D + l] = r;
  }
}
