/**
 * Pre-decoding: instruction words -> a compact program of fixed-size integer records (ops.ts).
 * Every check that depends only on the word happens here, once; `exec.ts` then runs the records.
 *
 * Checks and their categories (docs/tensix.md lists each decision):
 * - unknown opcode, bits set outside the fields: UndefinedBehaviour (as ttsim's decoder);
 * - a mode bit the documents leave undefined: NonContractual (ttsim's category for reserved bits);
 * - a mode the documents call undefined: UndefinedBehaviour;
 * - what axsim does not model (SFPLOADMACRO's scheduled part): Unsupported.
 * Words with VD 12..15 on opcodes 0x72..0x99 (not SFPCONFIG/SFPLOADMACRO) become TEMPLATE records;
 * whether they execute or write LoadMacroConfig depends on LaneConfig at run time.
 */

import { type Budget, defaultBudget, limitError } from '../budget.ts';
import { AxsimError, nonContractual, undefinedBehaviour, unsupported } from '../errors.ts';
import { type Arch, byOpcode, type DecodedInsn, decode, templateLoadSlot } from './encoding.ts';
import { Op, S, STRIDE } from './ops.ts';
import { SINK } from './state.ts';

export interface Program {
  readonly arch: Arch;
  /** STRIDE int32 slots per executed instruction. */
  readonly code: Int32Array;
  /** Number of records. */
  readonly length: number;
  /** The word behind each record (after REPLAY expansion) and its index in the source words. */
  readonly words: Uint32Array;
  readonly sourceIndex: Int32Array;
}

export interface CompileOptions {
  /** REPLAY buffer contents before the program (32 words); updated in place. */
  replayBuffer?: Uint32Array;
  /**
   * Resource budget (src/budget.ts; defaults when absent): REPLAY expansion is charged to `loops`
   * and the compiled program's memory (about 56 bytes per executed instruction) to `liveBytes`,
   * so a small program that REPLAYs itself 64-fold is refused instead of exhausting memory. The
   * compiled length (the instructions one run executes) is charged to `steps`.
   */
  budget?: Budget;
}

/** Bytes one compiled record costs while compiling: the record, its word and index, and the lists. */
const RECORD_BYTES = STRIDE * 4 + 8 + 16;

function signExtend(v: number, bits: number): number {
  return (v << (32 - bits)) >> (32 - bits);
}

/** Dst-writing register: VD 8..11 (and 12..15 reached with the backdoor disabled) write nowhere. */
function wreg(vd: number): number {
  return vd < 8 || vd === 16 ? vd : SINK;
}

/** Bit 30 of AUX: TEN-2932 check applies (VD 4..7 on an opcode 0x73..0x99 other than 0x91-0x93). */
export const AUX_TEN2932 = 1 << 30;

/**
 * Fills one record for a decoded instruction. `highVd` is true when the word has VD >= 12 and is
 * being executed (DISABLE_BACKDOOR_LOAD set).
 */
export function predecode(d: DecodedInsn, arch: Arch, out: Int32Array, at: number): void {
  const f = d.fields;
  const name = d.name;
  const bh = arch === 'blackhole';
  const o = at * STRIDE;
  out.fill(0, o, o + STRIDE);
  const set = (op: number, vd = 0, vc = 0, vb = 0, va = 0, mod = 0, imm = 0) => {
    out[o + S.OP] = op;
    out[o + S.VD] = vd;
    out[o + S.VC] = vc;
    out[o + S.VB] = vb;
    out[o + S.VA] = va;
    out[o + S.MOD] = mod;
    out[o + S.IMM] = imm;
  };
  const reserved = (field: string, value: number, why: string) =>
    nonContractual(`${name} ${field}=${value}: ${why}`, { hint: `see ${d.def.doc}` });
  const mod1 = f.instr_mod1 ?? 0;
  const vd = f.lreg_dest ?? 0;
  const vc = f.lreg_c ?? f.lreg_src_c ?? 0;
  switch (name) {
    case 'NOP':
    case 'SFPNOP':
    case 'STALLWAIT':
      set(Op.NOP);
      break;
    case 'SFPLOAD':
    case 'SFPLOADMACRO': {
      const macro = name === 'SFPLOADMACRO';
      // SFPLOADMACRO.md: VD = VDHi << 2 | VDLo (VDHi is bit 0 of Imm10, VDLo the low bits of
      // lreg_ind), Imm10 = dest_reg_addr; the MacroIndex (lreg_ind >> 2) goes to AUX.
      const reg = macro ? ((f.dest_reg_addr! & 1) << 2) | (f.lreg_ind! & 3) : f.lreg_ind!;
      set(macro ? Op.LOADMACRO : Op.LOAD, reg, 0, 0, f.sfpu_addr_mode!, f.instr_mod0!, f.dest_reg_addr!);
      if (macro) out[o + S.AUX] = f.lreg_ind! >> 2;
      break;
    }
    case 'SFPSTORE':
      set(Op.STORE, f.lreg_ind!, 0, 0, f.sfpu_addr_mode!, f.instr_mod0!, f.dest_reg_addr!);
      break;
    case 'SFPLOADI': {
      const m = f.instr_mod0!;
      if (m !== 0 && m !== 1 && m !== 2 && m !== 4 && m !== 8 && m !== 10) {
        throw undefinedBehaviour(`SFPLOADI instr_mod0=${m} is undefined`, {
          hint: 'defined: 0, 1, 2, 4, 8, 10',
        });
      }
      if (f.lreg_ind! >= 8) set(Op.NOP);
      else set(Op.LOADI, f.lreg_ind!, 0, 0, 0, m, f.imm16!);
      break;
    }
    case 'SFPLUT': {
      const m = f.instr_mod0!;
      if (m & 3) throw reserved('instr_mod0', m, 'only bits 2 (SGN_RETAIN) and 3 (INDIRECT_VD) are defined');
      set(Op.LUT, f.lreg_ind! >= 8 && f.lreg_ind !== 16 && !(m & 8) ? SINK : f.lreg_ind!, 0, 0, 0, m);
      break;
    }
    case 'SFPLUTFP32':
      set(Op.LUTFP32, mod1 & 8 ? vd : wreg(vd), 0, 0, 0, mod1);
      break;
    case 'SFPMAD':
    case 'SFPADD':
    case 'SFPMUL': {
      if (!bh && mod1 & 3) throw reserved('instr_mod1', mod1, 'bits 0-1 are reserved on Wormhole');
      if (mod1 & 12) set(Op.MAD_SLOW, vd, vc, f.lreg_src_b!, f.lreg_src_a!, mod1);
      else set(Op.MAD, wreg(vd), vc, f.lreg_src_b!, f.lreg_src_a!, mod1);
      break;
    }
    case 'SFPMULI':
    case 'SFPADDI': {
      const defined = bh ? 10 : 8;
      if (mod1 & ~defined)
        throw reserved('instr_mod1', mod1, bh ? 'defined bits: 1, 3' : 'defined bit: 3 (INDIRECT_VD)');
      const imm = f.imm16_math! << 16;
      if (mod1 === 0) set(name === 'SFPMULI' ? Op.MULI : Op.ADDI, wreg(vd), 0, 0, 0, 0, imm);
      else set(Op.MAD_SLOW, vd, 0, 0, name === 'SFPMULI' ? 1 : 2, mod1 | (1 << 8), imm);
      break;
    }
    case 'SFPDIVP2':
      if (mod1 > 1) throw reserved('instr_mod1', mod1, 'only bit 0 (ADD) is defined');
      set(Op.DIVP2, wreg(vd), vc, 0, 0, mod1, f.imm12_math! & 0xff);
      break;
    case 'SFPEXEXP':
      if (mod1 & 4) throw reserved('instr_mod1', mod1, 'bit 2 is reserved');
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(Op.EXEXP, vd, vc, 0, 0, mod1);
      break;
    case 'SFPEXMAN':
      if (mod1 > 1) throw reserved('instr_mod1', mod1, 'only bit 0 (PAD9) is defined');
      set(Op.EXMAN, wreg(vd), vc, 0, 0, mod1);
      break;
    case 'SFPIADD':
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(Op.IADD, vd, vc, 0, 0, mod1, signExtend(f.imm12_math!, 12));
      break;
    case 'SFPSHFT':
      if (bh ? mod1 & 8 : mod1 > 1)
        throw reserved('instr_mod1', mod1, bh ? 'bit 3 is reserved' : 'only bit 0 is defined on Wormhole');
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(Op.SHFT, vd, vc, 0, 0, mod1, signExtend(f.imm12_math!, 12));
      break;
    case 'SFPSETCC':
      set(Op.SETCC, 0, vc, 0, 0, mod1, f.imm12_math!);
      break;
    case 'SFPMOV':
      if (mod1 & 4) throw reserved('instr_mod1', mod1, 'bit 2 is reserved');
      set(Op.MOV, wreg(vd), vc, 0, 0, mod1);
      break;
    case 'SFPABS':
      if (mod1 > 1) throw reserved('instr_mod1', mod1, 'only bit 0 (FLOAT) is defined');
      set(Op.ABS, wreg(vd), vc, 0, 0, mod1);
      break;
    case 'SFPAND':
    case 'SFPOR': {
      if (mod1 > (bh ? 1 : 0))
        throw reserved('instr_mod1', mod1, bh ? 'only bit 0 (USE_VB) is defined' : 'no modes on Wormhole');
      const vb = bh && mod1 & 1 ? f.imm12_math! : vd;
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(name === 'SFPAND' ? Op.AND : Op.OR, vd, vc, vb);
      break;
    }
    case 'SFPXOR':
    case 'SFPNOT':
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(name === 'SFPXOR' ? Op.XOR : Op.NOT, vd, vc, vd);
      break;
    case 'SFPLZ':
      if (mod1 & 1) throw reserved('instr_mod1', mod1, 'bit 0 is reserved');
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(Op.LZ, vd, vc, 0, 0, mod1);
      break;
    case 'SFPSETEXP':
      if (mod1 > 3) throw reserved('instr_mod1', mod1, 'only bits 0-1 are defined');
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(Op.SETEXP, vd, vc, 0, 0, mod1, f.imm12_math!);
      break;
    case 'SFPSETMAN':
      if (mod1 > 1) throw reserved('instr_mod1', mod1, 'only bit 0 is defined');
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(Op.SETMAN, vd, vc, 0, 0, mod1, f.imm12_math!);
      break;
    case 'SFPSETSGN':
      if (mod1 > 1) throw reserved('instr_mod1', mod1, 'only bit 0 is defined');
      if (vd >= 8 && vd !== 16) set(Op.NOP);
      else set(Op.SETSGN, vd, vc, 0, 0, mod1, f.imm12_math!);
      break;
    case 'SFPPUSHC':
      set(Op.PUSHC, 0, 0, 0, 0, mod1);
      break;
    case 'SFPPOPC':
      set(Op.POPC, 0, 0, 0, 0, mod1);
      break;
    case 'SFPENCC':
      if (mod1 & 4) throw reserved('instr_mod1', mod1, 'bit 2 is reserved');
      set(Op.ENCC, 0, 0, 0, 0, mod1, f.imm12_math!);
      break;
    case 'SFPCOMPC':
      set(Op.COMPC);
      break;
    case 'SFPTRANSP':
      set(Op.TRANSP);
      break;
    case 'SFP_STOCH_RND': {
      // instr_mod1 is UseImm5 << 3 | Mod1 (SFPSTOCHRND_IntInt.md syntax; sfpi's CONV_MASK 7 / IMM8 8):
      // Mod1 (bits 2:0) picks the flavour, and only the IntInt flavour (4, 5) reads UseImm5. So
      // 8-11, 14, 15 are the float flavours with an ignored bit 3 (ttsim refuses them; tt-llk's exp
      // template uses 14 and sfpi sets bit 3 on every immediate form). docs/tensix.md, decisions.
      if (bh && f.rnd_mode === 3)
        throw undefinedBehaviour('SFP_STOCH_RND rnd_mode=3 is undefined on Blackhole');
      set(Op.STOCHRND, wreg(vd), vc, f.lreg_src_b!, 0, mod1, f.imm8_math!);
      out[o + S.AUX] = f.rnd_mode!;
      break;
    }
    case 'SFPCAST': {
      let m = mod1;
      if (bh) m &= 3;
      else if (m > 1) throw reserved('instr_mod1', mod1, 'only bit 0 (RND_STOCH) is defined on Wormhole');
      set(Op.CAST, wreg(vd), vc, 0, 0, m);
      break;
    }
    case 'SFPCONFIG':
      set(Op.CONFIG, f.config_dest!, 0, 0, 0, mod1, f.imm16_math!);
      break;
    case 'SFPSWAP':
      // Mod1 10-15 (both arches): VD gets the max, VC the min, as Mod1 9. Blackhole's page defines it;
      // Wormhole's (tt-isa-documentation 585749d SFPSWAP.md) calls it the current silicon behaviour,
      // NonContractual, and tt-llk's production Wormhole typecasts rely on it (docs/tensix.md).
      // VB slot: the row read as the "VD" operand (VD itself, except when SFPLOADMACRO schedules it).
      set(Op.SWAP, vd, vc, vd, 0, mod1);
      break;
    case 'SFPSHFT2': {
      if (mod1 > 6)
        throw undefinedBehaviour(`SFPSHFT2 instr_mod1=${mod1} is undefined`, { hint: 'defined: 0-6' });
      const imm = f.imm12_math!;
      set(Op.SHFT2, wreg(vd), vc, imm & 15, 0, mod1, signExtend(imm, 12));
      break;
    }
    case 'SFPLE':
    case 'SFPGT':
      set(name === 'SFPLE' ? Op.LE : Op.GT, vd, vc, wreg(vd), 0, mod1);
      break;
    case 'SFPMUL24':
      if (mod1 & 2) throw reserved('instr_mod1', mod1, 'bit 1 is reserved');
      set(Op.MUL24, mod1 & 8 ? vd : wreg(vd), vc, f.lreg_src_b!, f.lreg_src_a!, mod1);
      break;
    case 'SFPARECIP':
      // Mod1 0 RECIP, 1 COND_RECIP, anything else EXP (SFPARECIP.md's `default:`).
      set(Op.ARECIP, wreg(vd), f.lreg_c!, f.imm12_math!, 0, mod1);
      break;
    case 'SETRWC':
      set(Op.SETRWC, f.rwc_d!, f.rwc_cr!, f.rwc_b!, f.rwc_a!, f.bit_mask!);
      break;
    case 'INCRWC':
      set(Op.INCRWC, f.rwc_d!, f.rwc_cr!, f.rwc_b!, f.rwc_a!);
      break;
    case 'SETC16':
      set(Op.SETC16, 0, 0, 0, 0, f.setc16_reg!, f.setc16_value!);
      break;
    case 'RMWCIB0':
    case 'RMWCIB1':
    case 'RMWCIB2':
    case 'RMWCIB3':
      set(Op.RMWCIB, Number(name[6]), 0, f.data!, f.mask!, f.cfg_reg_addr!);
      break;
    default:
      throw unsupported(`${name} is not executed by axsim's Vector Unit model`);
  }
  const op = d.word >>> 24;
  if (op >= 0x73 && op <= 0x99 && op !== 0x91 && op !== 0x92 && op !== 0x93) {
    const v = op === 0x73 ? (d.word >>> 20) & 15 : (d.word >>> 4) & 15;
    if (v >= 4 && v < 8) out[o + S.AUX] |= AUX_TEN2932;
  }
}

/** Compiles one word into record `at` (template-load interception first, as ttsim's decoder does). */
export function compileWord(word: number, arch: Arch, out: Int32Array, at: number): void {
  const slot = templateLoadSlot(word, arch);
  const o = at * STRIDE;
  if (slot >= 0 && byOpcode(word >>> 24, arch)) {
    out.fill(0, o, o + STRIDE);
    out[o + S.OP] = Op.TEMPLATE;
    out[o + S.MOD] = slot;
    out[o + S.IMM] = word | 0;
    return;
  }
  const op = word >>> 24;
  if ((op === 0x72 || op === 0x73) && ((word >>> 20) & 15) >= 12) {
    // SFPSTORE / SFPLUT with VD >= 12: template write unless DISABLE_BACKDOOR_LOAD (decided at run time).
    decode(word, arch);
    out.fill(0, o, o + STRIDE);
    out[o + S.OP] = Op.TEMPLATE;
    out[o + S.MOD] = ((word >>> 20) & 15) - 12;
    out[o + S.IMM] = word | 0;
    return;
  }
  predecode(decode(word, arch), arch, out, at);
}

/**
 * Compiles a list of instruction words. REPLAY is expanded here (it is a frontend instruction:
 * REPLAY.md's Replay Expander), using and updating `opts.replayBuffer`.
 */
export function compile(words: ArrayLike<number>, arch: Arch, opts: CompileOptions = {}): Program {
  const replay = opts.replayBuffer ?? new Uint32Array(32);
  const budget = opts.budget ?? defaultBudget();
  const bytes = words.length * RECORD_BYTES;
  budget.alloc(bytes, { index: 0 });
  let charged = bytes;
  const flat: number[] = [];
  const src: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!Number.isInteger(w) || w < 0 || w > 0xffffffff) {
      throw undefinedBehaviour(`word ${w} is not a 32-bit instruction`).at({ index: i });
    }
    if (w >>> 24 !== 0x04) {
      flat.push(w);
      src.push(i);
      continue;
    }
    let d: DecodedInsn;
    try {
      d = decode(w, arch);
    } catch (e) {
      throw e instanceof AxsimError ? e.at({ index: i }) : e;
    }
    const count = d.fields.len! & 63 || 64;
    const index = d.fields.start_idx!;
    if (d.fields.len! > 64 || index > 31) {
      throw undefinedBehaviour(
        `REPLAY start_idx=${index} len=${d.fields.len}: the buffer has 32 entries and Count is 6 bits`,
        {
          location: { index: i },
        },
      );
    }
    if (d.fields.load_mode) {
      for (let k = 0; k < count; k++) {
        i++;
        if (i >= words.length) {
          throw undefinedBehaviour(`REPLAY load of ${count} instructions runs past the end of the program`, {
            location: { index: i - 1 - k },
          });
        }
        replay[(index + k) % 32] = words[i]!;
        if (d.fields.execute_while_loading) {
          flat.push(words[i]!);
          src.push(i);
        }
      }
    } else {
      budget.loop(count, { index: i });
      budget.alloc(count * RECORD_BYTES, { index: i });
      charged += count * RECORD_BYTES;
      for (let k = 0; k < count; k++) {
        flat.push(replay[(index + k) % 32]!);
        src.push(i);
      }
    }
  }
  // the lists are garbage once the program is built; the program itself stays with the caller
  budget.free(charged);
  // one run executes every record once: refused here, naming the word that crosses the limit
  const room = budget.limits.steps - budget.steps;
  if (flat.length > room)
    throw limitError('steps', budget.steps + flat.length, budget.limits.steps, {
      index: src[Math.max(0, Math.floor(room))] ?? 0,
    });
  budget.steps += flat.length;
  const code = new Int32Array(flat.length * STRIDE);
  for (let k = 0; k < flat.length; k++) {
    try {
      compileWord(flat[k]!, arch, code, k);
    } catch (e) {
      throw e instanceof AxsimError ? e.at({ index: src[k]! }) : e;
    }
  }
  return {
    arch,
    code,
    length: flat.length,
    words: Uint32Array.from(flat),
    sourceIndex: Int32Array.from(src),
  };
}
