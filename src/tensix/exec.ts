/**
 * The execution core: runs pre-decoded records (program.ts) against a TensixState, strictly in
 * order (each instruction completes before the next, as ttsim and the conformance vectors assume).
 * Dispatch is a switch on a small integer; every instruction body is a monomorphic function over
 * typed arrays with no per-lane allocation.
 */
import { AxsimError, undefinedBehaviour, unsupported } from '../errors.ts';
import { decode } from './encoding.ts';
import { sfparecip, sfpmul24 } from './insns/bh.ts';
import { sfpconfig, templateLoad } from './insns/config.ts';
import { sfpcmp, sfpcompc, sfpencc, sfppopc, sfppushc, sfpsetcc } from './insns/flags.ts';
import { sfpdivp2, sfpexexp, sfpexman, sfpmov, sfpsetexp, sfpsetman, sfpsetsgn } from './insns/fpfields.ts';
import { sfpabs, sfpbitwise, sfpiadd, sfplz, sfpshft } from './insns/intops.ts';
import { sfpshft2, sfptransp } from './insns/lanemove.ts';
import { sfpload, sfpstore } from './insns/ldst.ts';
import { sfploadi } from './insns/loadi.ts';
import { sfpaddi, sfplut, sfplutfp32, sfpmad, sfpmadGeneral, sfpmuli } from './insns/mad.ts';
import { sfpcast, sfpstochrnd } from './insns/round.ts';
import { incrwc, setc16, setrwc } from './insns/rwc.ts';
import { sfpswap } from './insns/swap.ts';
import { Op, S, STRIDE } from './ops.ts';
import { AUX_TEN2932, type Program, predecode } from './program.ts';
import { LC, type TensixState } from './state.ts';

const scratch = new Int32Array(STRIDE);

/** Executes the record at offset `o` of `code`. */
export function execRecord(st: TensixState, code: Int32Array, o: number): void {
  const op = code[o + S.OP]!;
  const lc = st.laneConfig;
  let mask = st.useLaneFlags ? st.laneFlags : -1;
  if (lc !== 0) {
    if (lc & 0xf000) mask = st.enabledMask();
    if (lc & LC.ENABLE_DEST_INDEX && code[o + S.AUX]! & AUX_TEN2932) {
      throw undefinedBehaviour(
        'erratum TEN-2932: with LaneConfig.ENABLE_DEST_INDEX set, this instruction writes an undefined value to LReg[4..7]',
        { hint: 'ttsim refuses this; write results to LReg[0..3] or clear ENABLE_DEST_INDEX' },
      );
    }
  }
  switch (op) {
    case Op.NOP:
      return;
    case Op.LOAD:
      sfpload(st, mask, code[o + S.VD]!, code[o + S.MOD]!, code[o + S.VA]!, code[o + S.IMM]!);
      return;
    case Op.STORE:
      sfpstore(st, mask, code[o + S.VD]!, code[o + S.MOD]!, code[o + S.VA]!, code[o + S.IMM]!);
      return;
    case Op.LOADMACRO: {
      const macro = code[o + S.AUX]!;
      const seq = st.lmSequence[macro]!;
      if ((seq & 0x07070707) !== 0) {
        throw unsupported(
          `SFPLOADMACRO macro ${macro} schedules instructions (Sequence[${macro}] = 0x${(seq >>> 0).toString(16)}); their scheduling belongs to the timing model`,
          { hint: 'axsim runs the SFPLOAD part only; a macro whose Sequence schedules nothing runs' },
        );
      }
      sfpload(st, mask, code[o + S.VD]!, code[o + S.MOD]!, code[o + S.VA]!, code[o + S.IMM]!);
      return;
    }
    case Op.LOADI:
      sfploadi(st, mask, code[o + S.VD]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.LUT:
      sfplut(st, mask, code[o + S.VD]!, code[o + S.MOD]!);
      return;
    case Op.LUTFP32:
      sfplutfp32(st, mask, code[o + S.VD]!, code[o + S.MOD]!);
      return;
    case Op.MAD:
      sfpmad(st, mask, code[o + S.VD]!, code[o + S.VA]!, code[o + S.VB]!, code[o + S.VC]!, code[o + S.MOD]!);
      return;
    case Op.MULI:
      sfpmuli(st, mask, code[o + S.VD]!, code[o + S.IMM]!);
      return;
    case Op.ADDI:
      sfpaddi(st, mask, code[o + S.VD]!, code[o + S.IMM]!);
      return;
    case Op.MAD_SLOW: {
      const mod = code[o + S.MOD]!;
      const kind = mod & 256 ? code[o + S.VA]! : 0;
      sfpmadGeneral(
        st,
        mask,
        kind,
        code[o + S.VD]!,
        code[o + S.VA]!,
        code[o + S.VB]!,
        code[o + S.VC]!,
        mod & 255,
        code[o + S.IMM]!,
      );
      return;
    }
    case Op.DIVP2:
      sfpdivp2(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.EXEXP: {
      const vd = code[o + S.VD]!;
      sfpexexp(st, mask, vd, code[o + S.VC]!, code[o + S.MOD]!, vd < 8);
      return;
    }
    case Op.EXMAN:
      sfpexman(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!);
      return;
    case Op.IADD: {
      const vd = code[o + S.VD]!;
      sfpiadd(st, mask, vd, code[o + S.VC]!, code[o + S.MOD]!, code[o + S.IMM]!, vd < 8);
      return;
    }
    case Op.SHFT:
      sfpshft(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.SETCC:
      sfpsetcc(st, mask, code[o + S.VC]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.MOV:
      sfpmov(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!);
      return;
    case Op.ABS:
      sfpabs(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!);
      return;
    case Op.AND:
      sfpbitwise(st, mask, 0, code[o + S.VD]!, code[o + S.VB]!, code[o + S.VC]!);
      return;
    case Op.OR:
      sfpbitwise(st, mask, 1, code[o + S.VD]!, code[o + S.VB]!, code[o + S.VC]!);
      return;
    case Op.XOR:
      sfpbitwise(st, mask, 2, code[o + S.VD]!, code[o + S.VB]!, code[o + S.VC]!);
      return;
    case Op.NOT:
      sfpbitwise(st, mask, 3, code[o + S.VD]!, code[o + S.VB]!, code[o + S.VC]!);
      return;
    case Op.LZ: {
      const vd = code[o + S.VD]!;
      sfplz(st, mask, vd, code[o + S.VC]!, code[o + S.MOD]!, vd < 8);
      return;
    }
    case Op.SETEXP:
      sfpsetexp(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.SETMAN:
      sfpsetman(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.SETSGN:
      sfpsetsgn(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.PUSHC:
      sfppushc(st, code[o + S.MOD]!);
      return;
    case Op.POPC:
      sfppopc(st, code[o + S.MOD]!);
      return;
    case Op.ENCC:
      sfpencc(st, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.COMPC:
      sfpcompc(st);
      return;
    case Op.TRANSP:
      sfptransp(st, mask);
      return;
    case Op.STOCHRND:
      sfpstochrnd(
        st,
        mask,
        code[o + S.VD]!,
        code[o + S.VC]!,
        code[o + S.VB]!,
        code[o + S.MOD]!,
        code[o + S.AUX]! & 3,
        code[o + S.IMM]!,
      );
      return;
    case Op.CAST:
      sfpcast(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!);
      return;
    case Op.CONFIG:
      sfpconfig(st, code[o + S.VD]!, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    case Op.SWAP:
      sfpswap(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.MOD]!);
      return;
    case Op.SHFT2:
      sfpshft2(
        st,
        mask,
        code[o + S.VD]!,
        code[o + S.VC]!,
        code[o + S.VB]!,
        code[o + S.MOD]!,
        code[o + S.IMM]!,
      );
      return;
    case Op.LE:
    case Op.GT:
      sfpcmp(st, mask, code[o + S.VD]!, code[o + S.VB]!, code[o + S.VC]!, code[o + S.MOD]!, op === Op.GT);
      return;
    case Op.MUL24:
      sfpmul24(
        st,
        mask,
        code[o + S.VD]!,
        code[o + S.VA]!,
        code[o + S.VB]!,
        code[o + S.VC]!,
        code[o + S.MOD]!,
      );
      return;
    case Op.ARECIP:
      sfparecip(st, mask, code[o + S.VD]!, code[o + S.VC]!, code[o + S.VB]!, code[o + S.MOD]!);
      return;
    case Op.TEMPLATE: {
      const word = code[o + S.IMM]! >>> 0;
      if (lc & LC.DISABLE_BACKDOOR_LOAD) {
        // The word executes as an ordinary instruction with VD >= 12.
        predecode(decode(word, st.arch), st.arch, scratch, 0);
        execRecord(st, scratch, 0);
        return;
      }
      templateLoad(st, mask, code[o + S.MOD]!, word);
      return;
    }
    case Op.SETRWC:
      setrwc(st, code[o + S.MOD]!, code[o + S.VC]!, code[o + S.VA]!, code[o + S.VB]!, code[o + S.VD]!);
      return;
    case Op.INCRWC:
      incrwc(st, code[o + S.VC]!, code[o + S.VA]!, code[o + S.VB]!, code[o + S.VD]!);
      return;
    case Op.SETC16:
      setc16(st, code[o + S.MOD]!, code[o + S.IMM]!);
      return;
    default:
      throw new Error(`internal: unknown op ${op}`);
  }
}

/**
 * Runs `prog` `reps` times back to back. An AxsimError raised by an instruction gets the
 * instruction's index (in the source words) as its location; the state keeps the effects of the
 * instructions before it.
 */
export function run(st: TensixState, prog: Program, reps = 1): void {
  if (prog.arch !== st.arch) throw unsupported(`program compiled for ${prog.arch}, machine is ${st.arch}`);
  const code = prog.code;
  const end = prog.length * STRIDE;
  let o = 0;
  try {
    for (let r = 0; r < reps; r++) {
      for (o = 0; o < end; o += STRIDE) execRecord(st, code, o);
    }
  } catch (e) {
    if (e instanceof AxsimError) throw e.at({ index: prog.sourceIndex[o / STRIDE] });
    throw e;
  }
}
