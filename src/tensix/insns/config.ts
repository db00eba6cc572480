/**
 * SFPCONFIG and the "backdoor" template load (tt-isa-documentation WormholeB0/BlackholeA0
 * SFPCONFIG.md, SFPLOADMACRO.md; SFPU-FORMAT.md "Backdoor template load").
 *
 * SFPCONFIG broadcasts LReg[0] lanes 0..7 (lane l takes lane l & 7's value, and its enable from the
 * Imm16 mask bit and the LaneFlags of lane l & 7) or an immediate into LoadMacroConfig, LaneConfig
 * or LReg[11..14]. The documents keep LoadMacroConfig and LaneConfig per lane; axsim keeps one
 * value while all lanes agree (the common case, and all that ttsim supports) and switches to the
 * per-lane arrays of `TensixState` (`laneCfgLanes` with LC_SPLIT, `lmLanes` with `lmSplit`) when a
 * write makes lanes differ, and back when they agree again.
 */
import { LANES, LC_BITS, LC_SPLIT, LM_ROWS, type TensixState } from '../state.ts';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function bitsOf(x: number): number {
  f32[0] = x;
  return u32[0]!;
}
/** The MOD1_IMM16_IS_VALUE defaults of LReg[11..14] (SFPCONFIG.md). */
export const PRGM_DEFAULTS = [bitsOf(-1), bitsOf(1 / 65536), bitsOf(-0.67487759), bitsOf(-0.34484843)];

/** Mod1 & 6: write, OR, AND, XOR (SFPCONFIG.md MOD1_BITWISE_*). */
function combine(op: number, orig: number, v: number): number {
  return op === 0 ? v : op === 2 ? orig | v : op === 4 ? orig & v : orig ^ v;
}

/** Switches LoadMacroConfig to per-lane storage (every lane gets the shared value). */
function lmMaterialize(st: TensixState): void {
  if (st.lmSplit) return;
  const M = st.lmLanes;
  for (let k = 0; k < LM_ROWS; k++) M.fill(st.loadMacroOf(k, 0), k * LANES, (k + 1) * LANES);
  st.lmSplit = 1;
}

/** After a per-lane write: mirror lane 0 into the shared fields; leave per-lane mode if all agree. */
function lmNormalize(st: TensixState): void {
  const M = st.lmLanes;
  let same = true;
  for (let k = 0; k < LM_ROWS && same; k++) {
    const v = M[k * LANES]!;
    for (let l = 1; l < LANES; l++) {
      if (M[k * LANES + l] !== v) {
        same = false;
        break;
      }
    }
  }
  for (let k = 0; k < 4; k++) st.lmTemplates[k] = M[k * LANES]!;
  for (let k = 0; k < 4; k++) st.lmSequence[k] = M[(4 + k) * LANES]!;
  st.lmMisc = M[8 * LANES]!;
  if (same) st.lmSplit = 0;
}

/** After a per-lane LaneConfig write: LC_SPLIT unless every lane holds lane 0's value. */
function lcNormalize(st: TensixState): void {
  const C = st.laneCfgLanes;
  const v = C[0]!;
  let same = true;
  for (let l = 1; l < LANES; l++) if (C[l] !== v) same = false;
  st.laneConfig = same ? v : v | LC_SPLIT;
}

export function sfpconfig(st: TensixState, vd: number, mod1: number, imm16: number): void {
  const L = st.lreg;
  const immIsValue = (mod1 & 1) !== 0;
  // Which lanes take part: lane mask from Imm16 bits 0,2,..,14 (Mod1 bit 3) and the flags of lane & 7.
  let lanes = 0;
  for (let l = 0; l < LANES; l++) {
    const c = l & 7;
    if (mod1 & 8 && !((imm16 >>> (c * 2)) & 1)) continue;
    if (st.useLaneFlags && !((st.laneFlags >>> c) & 1)) continue;
    lanes |= 1 << l;
  }
  if (vd >= 11 && vd <= 14) {
    const base = vd * LANES;
    for (let l = 0; l < LANES; l++) {
      if (!((lanes >>> l) & 1)) continue;
      L[base + l] = immIsValue ? PRGM_DEFAULTS[vd - 11]! : L[l & 7]!;
    }
    return;
  }
  if (vd === 9 || vd === 10 || lanes === 0) return; // 9, 10: documented as doing nothing
  const op = mod1 & 6;
  // The value lane l receives: Imm16 (Sequence, Misc, LaneConfig with MOD1_IMM16_IS_VALUE) or
  // LReg[0][l & 7]. `uniform`: every lane receives the same value.
  const fromImm = immIsValue && vd >= 4;
  let uniform = fromImm;
  if (!fromImm) {
    uniform = true;
    for (let c = 1; c < 8; c++) if (L[c] !== L[0]) uniform = false;
  }
  if (vd === 15) {
    if (lanes === -1 && uniform && !(st.laneConfig & LC_SPLIT)) {
      // All lanes, one value: the shared LaneConfig.
      const orig = st.laneConfig;
      let n = combine(op, orig, (fromImm ? imm16 : L[0]!) & LC_BITS);
      if (immIsValue) n |= orig & ~0xffff;
      st.laneConfig = n & LC_BITS;
      return;
    }
    const C = st.laneCfgLanes;
    if (!(st.laneConfig & LC_SPLIT)) C.fill(st.laneConfig & LC_BITS);
    for (let l = 0; l < LANES; l++) {
      if (!((lanes >>> l) & 1)) continue;
      const orig = C[l]!;
      let n = combine(op, orig, (fromImm ? imm16 : L[l & 7]!) & LC_BITS);
      if (immIsValue) n |= orig & ~0xffff;
      C[l] = n & LC_BITS;
    }
    lcNormalize(st);
    return;
  }
  // VD 0..8: LoadMacroConfig (templates ignore MOD1_IMM16_IS_VALUE; Misc is 12 bits).
  const mask = vd === 8 ? 0xfff : 0xffffffff;
  if (lanes === -1 && uniform && !st.lmSplit) {
    const v = ((fromImm ? imm16 : L[0]!) & mask) >>> 0;
    if (vd < 4) st.lmTemplates[vd] = v;
    else if (vd < 8) st.lmSequence[vd - 4] = v;
    else st.lmMisc = combine(op, st.lmMisc, v);
    return;
  }
  lmMaterialize(st);
  const M = st.lmLanes;
  for (let l = 0; l < LANES; l++) {
    if (!((lanes >>> l) & 1)) continue;
    const v = ((fromImm ? imm16 : L[l & 7]!) & mask) >>> 0;
    M[vd * LANES + l] = vd === 8 ? combine(op, M[vd * LANES + l]!, v) : v;
  }
  lmNormalize(st);
}

/**
 * A word with VD 12..15 stored as InstructionTemplate[slot] instead of executing, in the lanes of
 * `lanes` (those whose LaneConfig.DISABLE_BACKDOOR_LOAD is clear). LaneEnabled does not gate it:
 * in every functional model (e.g. SFPMAD.md) the `LaneEnabled` test sits inside the
 * `VD < 12 || DISABLE_BACKDOOR_LOAD` branch, and SFPCONFIG.md describes the backdoor write without
 * a lane condition (docs/tensix.md records this reading; ttsim requires all lanes enabled).
 */
export function templateLoad(st: TensixState, lanes: number, slot: number, word: number): void {
  if (lanes === -1 && !st.lmSplit) {
    st.lmTemplates[slot] = word >>> 0;
    return;
  }
  lmMaterialize(st);
  const base = slot * LANES;
  for (let l = 0; l < LANES; l++) if ((lanes >>> l) & 1) st.lmLanes[base + l] = word >>> 0;
  lmNormalize(st);
}
