/**
 * SFPCONFIG and the "backdoor" template load (tt-isa-documentation WormholeB0/BlackholeA0
 * SFPCONFIG.md, SFPLOADMACRO.md; SFPU-FORMAT.md "Backdoor template load").
 *
 * SFPCONFIG broadcasts LReg[0] lanes 0..7 (lane enables taken from lane & 7) or an immediate into
 * LoadMacroConfig, LaneConfig or LReg[11..14]. LReg[11..14] are kept per lane, so those writes are
 * exactly the documented ones. LoadMacroConfig and LaneConfig are kept as one copy (as ttsim does):
 * a write that would leave lanes with different values is reported as Unsupported.
 */
import { unsupported } from '../../errors.ts';
import { LANES, type TensixState } from '../state.ts';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function bitsOf(x: number): number {
  f32[0] = x;
  return u32[0]!;
}
/** The MOD1_IMM16_IS_VALUE defaults of LReg[11..14] (SFPCONFIG.md). */
export const PRGM_DEFAULTS = [bitsOf(-1), bitsOf(1 / 65536), bitsOf(-0.67487759), bitsOf(-0.34484843)];

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
  if (vd === 9 || vd === 10) return; // documented as doing nothing
  if (lanes === 0) return;
  // One-copy state: the value must be the same in every lane and every lane must take part.
  let value = immIsValue && vd >= 4 ? imm16 : L[0]!;
  if (!(immIsValue && vd >= 4)) {
    for (let c = 1; c < 8; c++) {
      if (L[c]! !== value) {
        throw unsupported(
          `SFPCONFIG VD=${vd} from LReg[0] lanes 0..7 that differ (lane ${c}: 0x${L[c]!.toString(16)}, lane 0: 0x${value.toString(16)})`,
          { hint: 'axsim keeps one LoadMacroConfig/LaneConfig for all lanes (as ttsim does)' },
        );
      }
    }
  }
  if (lanes !== -1) {
    throw unsupported(
      `SFPCONFIG VD=${vd} with only some lanes enabled (mask 0x${(lanes >>> 0).toString(16)})`,
      {
        hint: 'axsim keeps one LoadMacroConfig/LaneConfig for all lanes (as ttsim does)',
      },
    );
  }
  value >>>= 0;
  if (vd < 4) {
    st.lmTemplates[vd] = L[0]!;
  } else if (vd < 8) {
    st.lmSequence[vd - 4] = value;
  } else if (vd === 8) {
    const v = value & 0xfff;
    const op = mod1 & 6;
    st.lmMisc = op === 0 ? v : op === 2 ? st.lmMisc | v : op === 4 ? st.lmMisc & v : st.lmMisc ^ v;
  } else {
    // VD 15: LaneConfig (18 bits)
    const orig = st.laneConfig;
    const v = value & 0x3ffff;
    const op = mod1 & 6;
    let n = op === 0 ? v : op === 2 ? orig | v : op === 4 ? orig & v : orig ^ v;
    if (immIsValue) n |= orig & ~0xffff;
    st.laneConfig = n & 0x3ffff;
  }
}

/** A word with VD 12..15 stored as InstructionTemplate[slot] instead of executing. */
export function templateLoad(st: TensixState, mask: number, slot: number, word: number): void {
  if (mask !== -1) {
    throw unsupported(
      `instruction template load (0x${(word >>> 0).toString(16)} -> template ${slot}) with lanes disabled (mask 0x${(mask >>> 0).toString(16)})`,
      { hint: 'axsim keeps one LoadMacroConfig for all lanes (as ttsim does); enable every lane first' },
    );
  }
  st.lmTemplates[slot] = word >>> 0;
}
