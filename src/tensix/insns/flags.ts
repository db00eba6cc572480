/**
 * Lane flags and the flag stack: SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC, and Blackhole's
 * SFPLE / SFPGT (tt-isa-documentation WormholeB0 and BlackholeA0 pages of the same names).
 *
 * UseLaneFlagsForLaneEnable and the stack are uniform across lanes (every operation on them is), so
 * one copy is kept. Decisions (docs/tensix.md): SFPENCC's immediate form takes its two bits from
 * Imm2 as ttsim does (SFPU-NOTES.md A4); SFPSETCC with flags disabled and SFPCOMPC with a disabled
 * context clear LaneFlags as the documents say (ttsim refuses both); overflow/underflow of the stack
 * is undefined behaviour by default, or wraps as the spec-003 article describes with the 'wrap'
 * policy (a 4-bit size counter over 8 entries; popping at 0 gives all lanes active).
 */
import { undefinedBehaviour } from '../../errors.ts';
import { LANES, type TensixState } from '../state.ts';

/** SFPSETCC: refine LaneFlags in the enabled lanes (Mod1: 0 VC<0, 2 VC!=0, 4 VC>=0, 6 VC==0; bit 0 Imm1; bit 3 clear). */
export function sfpsetcc(st: TensixState, mask: number, vc: number, mod1: number, imm1: number): void {
  const L = st.lreg;
  const C = vc * LANES;
  let cond = 0;
  if (!st.useLaneFlags || mod1 & 8) cond = 0;
  else if (mod1 & 1) cond = imm1 !== 0 ? -1 : 0;
  else if (mask !== 0) {
    let bits = 0;
    // only the groups of 4 lanes from the lowest to the highest enabled lane are evaluated
    // (int32-only arithmetic: Math.imul(mask, -1) where -mask would overflow for lane 31)
    const lo = (31 - Math.clz32(mask & Math.imul(mask, -1))) & ~3;
    const hi = 32 - Math.clz32(mask);
    if (mod1 === 0 || mod1 === 4) {
      // sign bits
      for (let l = lo; l < hi; l += 4) {
        bits |=
          ((L[C + l]! >>> 31) << l) |
          ((L[C + l + 1]! >>> 31) << (l + 1)) |
          ((L[C + l + 2]! >>> 31) << (l + 2)) |
          ((L[C + l + 3]! >>> 31) << (l + 3));
      }
      cond = mod1 === 0 ? bits : ~bits;
    } else {
      // zero tests
      for (let l = lo; l < hi; l += 4) {
        bits |=
          (+(L[C + l]! === 0) << l) |
          (+(L[C + l + 1]! === 0) << (l + 1)) |
          (+(L[C + l + 2]! === 0) << (l + 2)) |
          (+(L[C + l + 3]! === 0) << (l + 3));
      }
      cond = mod1 === 6 ? bits : ~bits;
    }
  }
  st.laneFlags = (st.laneFlags & ~mask) | (cond & mask);
}

/** SFPENCC: bit 1 (EI) sets the enable from Imm bit 0, else bit 0 (EC) inverts it; bit 3 (RI) sets LaneFlags from Imm bit 1, else all set. */
export function sfpencc(st: TensixState, mod1: number, imm2: number): void {
  if (mod1 & 2) st.useLaneFlags = imm2 & 1;
  else if (mod1 & 1) st.useLaneFlags ^= 1;
  st.laneFlags = mod1 & 8 ? (imm2 & 2 ? -1 : 0) : -1;
}

function booleanOp(mod1: number, a: number, b: number): number {
  switch (mod1) {
    case 1:
      return b;
    case 2:
      return ~b;
    case 3:
      return a & b;
    case 4:
      return a | b;
    case 5:
      return a & ~b;
    case 6:
      return a | ~b;
    case 7:
      return ~a & b;
    case 8:
      return ~a | b;
    case 9:
      return ~a & ~b;
    case 10:
      return ~a | ~b;
    case 11:
      return a ^ b;
    default:
      return ~(a ^ b);
  }
}

function topIndex(st: TensixState): number {
  return (st.stackSize - 1) & 7;
}

/** SFPPUSHC. WH: always a push. BH: Mod1 0 pushes, 1..15 rewrite the top entry. */
export function sfppushc(st: TensixState, mod1: number): void {
  if (st.arch === 'blackhole' && mod1 !== 0) {
    if (st.stackSize === 0) {
      throw undefinedBehaviour('SFPPUSHC with Mod1 != 0 on an empty flag stack', {
        hint: 'BlackholeA0 SFPPUSHC.md: software should avoid Mod1 != 0 when the stack is empty',
      });
    }
    const t = topIndex(st);
    if (mod1 <= 12) {
      st.stackEn[t] = st.useLaneFlags;
      st.stackFlags[t] = booleanOp(mod1, st.stackFlags[t]!, st.laneFlags);
    } else if (mod1 === 13) {
      st.laneFlags = ~st.laneFlags;
      st.stackEn[t] = st.useLaneFlags;
      st.stackFlags[t] = st.laneFlags;
    } else {
      st.stackEn[t] = 1;
      st.stackFlags[t] = mod1 === 14 ? -1 : 0;
    }
    return;
  }
  if (st.stackSize >= 8 && st.flagStackPolicy === 'error') {
    throw undefinedBehaviour('SFPPUSHC on a full flag stack (8 entries)', {
      hint: 'the hardware overwrites older entries; set flagStackPolicy to "wrap" to model that',
    });
  }
  const k = st.stackSize & 7;
  st.stackEn[k] = st.useLaneFlags;
  st.stackFlags[k] = st.laneFlags;
  st.stackSize = (st.stackSize + 1) & 15;
}

/** SFPPOPC: Mod1 0 pops into the flags; 1..12 combine with the top; 13 inverts; 14/15 set constants. */
export function sfppopc(st: TensixState, mod1: number): void {
  const empty = st.stackSize === 0;
  let topEn = 0;
  let topFlags = 0;
  if (!empty) {
    const t = topIndex(st);
    topEn = st.stackEn[t]!;
    topFlags = st.stackFlags[t]! | 0;
  }
  if (mod1 === 0) {
    if (empty) {
      if (st.flagStackPolicy === 'error') {
        throw undefinedBehaviour('SFPPOPC on an empty flag stack', {
          hint: 'the hardware underflows its size counter; set flagStackPolicy to "wrap" to model that',
        });
      }
      // spec 003: the counter underflows to 15 and all lanes become active.
      st.stackSize = 15;
      st.useLaneFlags = 0;
      st.laneFlags = -1;
      return;
    }
    st.stackSize = (st.stackSize - 1) & 15;
    st.useLaneFlags = topEn;
    st.laneFlags = topFlags;
    return;
  }
  if (st.arch === 'wormhole' && st.stackSize === 8) {
    // Hardware bug (WormholeB0 SFPPOPC.md): the bottom entry is overwritten with the top one.
    st.stackEn[0] = topEn;
    st.stackFlags[0] = topFlags;
  }
  if (mod1 <= 12) {
    st.useLaneFlags = topEn;
    st.laneFlags = booleanOp(mod1, st.laneFlags, topFlags);
  } else if (mod1 === 13) {
    st.laneFlags = ~st.laneFlags;
  } else {
    st.useLaneFlags = 1;
    st.laneFlags = mod1 === 14 ? -1 : 0;
  }
}

/** SFPCOMPC: LaneFlags = top.LaneFlags & ~LaneFlags when both the top and the current state use flags, else 0. */
export function sfpcompc(st: TensixState): void {
  let topEn = 1;
  let topFlags = -1;
  if (st.stackSize !== 0) {
    const t = topIndex(st);
    topEn = st.stackEn[t]!;
    topFlags = st.stackFlags[t]! | 0;
  }
  st.laneFlags = topEn && st.useLaneFlags ? topFlags & ~st.laneFlags : 0;
}

function smKey(x: number): number {
  return (x ^ ((x >> 30) >>> 1)) | 0;
}

/**
 * SFPLE (gt = false: VD <= VC) and SFPGT (gt = true: VD > VC) in sign-magnitude total order.
 * Mod1: 1 sets LaneFlags, 8 writes -1/0 to VD, 2 ANDs (4: ORs) the result into the top of the stack.
 */
export function sfpcmp(
  st: TensixState,
  mask: number,
  vd: number,
  vdWrite: number,
  vc: number,
  mod1: number,
  gt: boolean,
): void {
  const L = st.lreg;
  let f = st.laneFlags;
  let all = 0;
  for (let l = 0; l < LANES; l++) {
    const c = smKey(L[vc * LANES + l]!);
    const d = smKey(L[vd * LANES + l]!);
    const r = gt ? c < d : !(c < d);
    if (r) all |= 1 << l;
    if (!((mask >>> l) & 1)) continue;
    if (mod1 & 8) L[vdWrite * LANES + l] = r ? 0xffffffff : 0;
    if (mod1 & 1) f = r ? f | (1 << l) : f & ~(1 << l);
  }
  st.laneFlags = f;
  if (mod1 & 2 && st.stackSize !== 0) {
    const t = topIndex(st);
    st.stackFlags[t] = mod1 & 4 ? st.stackFlags[t]! | all : st.stackFlags[t]! & all;
  }
}
