/**
 * Which LRegs a pre-decoded record (program.ts / ops.ts) reads and writes, as bit masks over
 * LReg[0..16] (bit r = LReg[r]). Used for the cycle model's two-cycle result tracking and hazard
 * checks. Where an instruction's reads depend on lane data (indirect modes) the masks are the
 * documented conservative ones (BlackholeA0 SFPMAD.md: INDIRECT_VA "reads every LReg", INDIRECT_VD
 * "writes every LReg"). `stallReads` is what Blackhole's automatic stalling logic believes is read,
 * including the detection bugs listed in BlackholeA0 SFPMAD.md "Instruction scheduling".
 */
import { Op, S } from '../ops.ts';

const ALL = 0x1ff_ff; // LReg[0..16]
const LOW8 = 0xff;

function bit(r: number): number {
  return r >= 0 && r <= 16 ? 1 << r : 0;
}

export interface Deps {
  reads: number;
  writes: number;
  /** Blackhole stall logic's view of the reads. */
  stallReads: number;
}

export function depsOf(code: Int32Array, o: number): Deps {
  const op = code[o + S.OP]!;
  const vd = code[o + S.VD]!;
  const vc = code[o + S.VC]!;
  const vb = code[o + S.VB]!;
  const va = code[o + S.VA]!;
  const mod = code[o + S.MOD]!;
  let reads = 0;
  let writes = 0;
  let stallReads = -1; // -1: same as reads
  switch (op) {
    case Op.LOAD:
    case Op.LOADMACRO:
    case Op.LOADI:
      writes = bit(vd);
      break;
    case Op.STORE:
      reads = bit(vd);
      break;
    case Op.LUT:
      reads = 0xf | (mod & 8 ? bit(7) : 0);
      writes = mod & 8 ? LOW8 : bit(vd);
      break;
    case Op.LUTFP32:
      reads = 0x7f | (mod & 8 ? bit(7) : 0);
      writes = mod & 8 ? LOW8 : bit(vd);
      break;
    case Op.MAD:
      reads = bit(va) | bit(vb) | bit(vc);
      writes = bit(vd);
      break;
    case Op.MULI:
    case Op.ADDI:
      reads = bit(vd);
      writes = bit(vd);
      break;
    case Op.MAD_SLOW: {
      const m1 = mod & 255;
      if (mod & 256) reads = bit(vd);
      else reads = bit(va) | bit(vb) | bit(vc);
      if (m1 & 4) reads = ALL;
      if (m1 & 8) {
        reads |= bit(7);
        writes = vd === 16 ? bit(16) : LOW8;
      } else writes = bit(vd);
      break;
    }
    case Op.MUL24:
      reads = bit(va) | bit(vb);
      writes = mod & 8 ? LOW8 : bit(vd);
      break;
    case Op.DIVP2:
    case Op.EXMAN:
    case Op.MOV:
    case Op.ABS:
    case Op.NOT:
    case Op.CAST:
      reads = bit(vc);
      writes = bit(vd);
      break;
    case Op.EXEXP:
    case Op.LZ:
      reads = bit(vc);
      writes = vd < 8 || vd === 16 ? bit(vd) : 0;
      break;
    case Op.STOCHRND: {
      // Only the IntInt flavour (Mod1 & 7 = 4, 5) without UseImm5 (bit 3) reads VB, its shift
      // (SFPSTOCHRND_*.md). The BH stall logic is taken to see VB regardless: BlackholeA0
      // SFPSTOCHRND_FloatInt.md tells software to set VB = VC against a false dependency.
      const f = mod & 7;
      reads = bit(vc) | ((f === 4 || f === 5) && !(mod & 8) ? bit(vb) : 0);
      writes = bit(vd);
      stallReads = bit(vc) | bit(vb);
      break;
    }
    case Op.ARECIP:
      reads = bit(vc) | (mod === 1 ? bit(vb) : 0);
      writes = bit(vd);
      break;
    case Op.IADD:
      reads = bit(vc) | (mod & 1 ? 0 : bit(vd));
      writes = bit(vd);
      stallReads = bit(vc); // BH bug: the stall logic does not see the VD read
      break;
    case Op.SHFT:
      // SFPSHFT.md: the value is LReg[VB] (= VD); the amount is LReg[VC] unless Mod1 bit 0 (ARG_IMM)
      // takes Imm12. BH: with ARG_IMM, bit 2 (USE_VC) takes the value from LReg[VC] instead.
      if (!(mod & 1)) reads = bit(vc) | bit(vd);
      else reads = mod & 4 ? bit(vc) : bit(vd);
      writes = bit(vd);
      stallReads = bit(vc);
      break;
    case Op.AND:
    case Op.OR:
      reads = bit(vb) | bit(vc);
      writes = bit(vd);
      stallReads = bit(vd) | bit(vc); // BH bug: USE_VB ignored, VD assumed read
      break;
    case Op.XOR:
    case Op.SETEXP:
    case Op.SETMAN:
    case Op.SETSGN:
    case Op.LE:
    case Op.GT:
      reads = bit(vc) | bit(vd);
      writes = bit(vd);
      break;
    case Op.SETCC:
      reads = bit(vc);
      break;
    case Op.TRANSP:
      reads = LOW8;
      writes = LOW8;
      break;
    case Op.CONFIG:
      reads = bit(0);
      stallReads = 0; // BH bug: the LReg[0] read is not seen
      if (vd >= 11 && vd <= 14) writes = bit(vd);
      break;
    case Op.SWAP:
      // VB: the row read as the "VD" operand (= VD unless SFPLOADMACRO scheduled it; insns/swap.ts)
      reads = bit(vc) | bit(vb);
      writes = bit(vc) | bit(vd);
      break;
    case Op.SHFT2: {
      if (mod <= 2) {
        reads = 0xf | (mod === 2 ? bit(vc) : 0);
        writes = 0xf;
      } else if (mod <= 4) {
        reads = bit(vc);
        writes = bit(vd);
      } else {
        reads = (mod === 5 ? bit(vc) : 0) | bit(vb); // SHFT_LREG: amount from VC; SHFT_IMM: from Imm12
        writes = bit(vd);
      }
      // BH bugs: modes 2-4 are not seen to read anything; 5-6 are thought to read VD, not VB.
      stallReads = mod >= 2 && mod <= 4 ? 0 : mod >= 5 ? bit(vc) | bit(vd) : reads;
      break;
    }
    default:
      break;
  }
  // LReg[8..15] are constants: writes to them are dropped, reads never conflict with pending writes.
  writes &= 0x100ff;
  return { reads, writes, stallReads: stallReads === -1 ? reads : stallReads };
}
