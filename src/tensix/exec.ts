/**
 * The execution core: runs pre-decoded records (program.ts) against a TensixState, strictly in
 * order (each instruction completes before the next, as ttsim and the conformance vectors assume).
 * Dispatch is a switch on a small integer; every instruction body is a monomorphic function over
 * typed arrays with no per-lane allocation.
 */
import { AxsimError, badInput, undefinedBehaviour, unsupported } from '../errors.ts';
import { byOpcode, decode } from './encoding.ts';
import { sfparecip, sfpmul24 } from './insns/bh.ts';
import { sfpconfig, templateLoad } from './insns/config.ts';
import { sfpcmp, sfpcompc, sfpencc, sfppopc, sfppushc, sfpsetcc } from './insns/flags.ts';
import { sfpdivp2, sfpexexp, sfpexman, sfpmov, sfpsetexp, sfpsetman, sfpsetsgn } from './insns/fpfields.ts';
import { sfpabs, sfpand, sfpiadd, sfplz, sfpnot, sfpor, sfpshft, sfpxor } from './insns/intops.ts';
import { sfpshft2, sfptransp } from './insns/lanemove.ts';
import { sfpload, sfpstore } from './insns/ldst.ts';
import { sfploadi } from './insns/loadi.ts';
import { sfpaddi, sfplut, sfplutfp32, sfpmad, sfpmadGeneral, sfpmuli } from './insns/mad.ts';
import { sfpcast, sfpstochrnd } from './insns/round.ts';
import { incrwc, rmwcib, setc16, setrwc } from './insns/rwc.ts';
import { sfpswap } from './insns/swap.ts';
import { compiledProgram, type JitHooks } from './jit.ts';
import { STRIDE } from './ops.ts';
import { AUX_TEN2932, type Program, predecode } from './program.ts';
import { LANES, LC, LC_GROUP, LC_SPLIT, type TensixState } from './state.ts';

const scratch = new Int32Array(STRIDE);
/** RWC state saved around the per-group runs of a load/store (execSplit). */
const rwcSave = new Int32Array(8);

function saveRwc(st: TensixState): void {
  rwcSave[0] = st.rwcDst;
  rwcSave[1] = st.rwcDstCr;
  rwcSave[2] = st.rwcSrcA;
  rwcSave[3] = st.rwcSrcACr;
  rwcSave[4] = st.rwcSrcB;
  rwcSave[5] = st.rwcSrcBCr;
  rwcSave[6] = st.extraAddrModBit;
  rwcSave[7] = st.rwcSp;
}
function loadRwc(st: TensixState): void {
  st.rwcDst = rwcSave[0]!;
  st.rwcDstCr = rwcSave[1]!;
  st.rwcSrcA = rwcSave[2]!;
  st.rwcSrcACr = rwcSave[3]!;
  st.rwcSrcB = rwcSave[4]!;
  st.rwcSrcBCr = rwcSave[5]!;
  st.extraAddrModBit = rwcSave[6]!;
  st.rwcSp = rwcSave[7]!;
}

/**
 * Runs a record while lanes hold different LaneConfig values (LC_SPLIT). Only SFPLOAD, SFPSTORE,
 * SFPLOADMACRO, SFPSWAP and SFPMOV read LaneConfig bits per lane (the documents'
 * `LaneConfig[Lane].X`); they run once per group of lanes sharing a value, with that value as
 * `laneConfig` and the group as `groupMask`; the RWC side effects of a load/store happen once (each
 * group computes the same address from the same RWCs). Every other instruction depends on
 * LaneConfig only through ROW_MASK (`LaneConfig[Lane & 7]`, folded into the lane mask here) and
 * the TEN-2932 check. SFPCONFIG writes the per-lane state itself; a template record stores the
 * word in the lanes without DISABLE_BACKDOOR_LOAD and executes it in the others.
 */
function execSplit(st: TensixState, code: Int32Array, o: number, subset: number): void {
  const op = code[o]!;
  const C = st.laneCfgLanes;
  if (op === 33) {
    sfpconfig(st, code[o + 1]!, code[o + 5]!, code[o + 6]!);
    return;
  }
  if (op === 40) {
    const word = code[o + 6]! >>> 0;
    let exe = 0;
    for (let l = 0; l < LANES; l++) if (C[l]! & LC.DISABLE_BACKDOOR_LOAD) exe |= 1 << l;
    exe &= subset;
    if (subset & ~exe) templateLoad(st, subset & ~exe, code[o + 5]!, word);
    if (exe === 0) return;
    predecode(decode(word, st.arch), st.arch, scratch, 0);
    code = scratch;
    o = 0;
    subset = exe;
  }
  const saved = st.laneConfig;
  const en = st.enabledMask() & subset;
  const op2 = code[o]!;
  try {
    if (op2 !== 1 && op2 !== 2 && op2 !== 44 && op2 !== 34 && op2 !== 16) {
      let any = 0;
      for (let l = 0; l < LANES; l++) if ((subset >>> l) & 1) any |= C[l]!;
      st.laneConfig = LC_GROUP | (any & LC.ENABLE_DEST_INDEX);
      st.groupMask = en;
      st.groupLanes = subset;
      execRecord(st, code, o);
      return;
    }
    const rwc = op2 !== 34 && op2 !== 16;
    if (rwc) saveRwc(st);
    let after = false;
    let todo = subset;
    while (todo !== 0) {
      const v = C[31 - Math.clz32(todo & -todo)]!;
      let g = 0;
      for (let l = 0; l < LANES; l++) if ((todo >>> l) & 1 && C[l] === v) g |= 1 << l;
      todo &= ~g;
      st.laneConfig = v | LC_GROUP; // its ROW_MASK agrees with `en` on the group's lanes (l & 7 has v)
      st.groupMask = en & g;
      st.groupLanes = g;
      if (after) loadRwc(st);
      execRecord(st, code, o);
      after = rwc;
    }
  } finally {
    st.laneConfig = saved;
    st.groupMask = -1;
    st.groupLanes = -1;
  }
}

/**
 * Executes the record at offset `o` of `code`. Cases and slot offsets are numeric literals (the
 * values of `Op` and `S` in ops.ts) so that V8 compiles the switch to a jump table.
 */
export function execRecord(st: TensixState, code: Int32Array, o: number): void {
  const op = code[o + 0]!;
  const lc = st.laneConfig;
  let mask = st.useLaneFlags ? st.laneFlags : -1;
  if (lc !== 0) {
    if (lc & LC_SPLIT) {
      execSplit(st, code, o, -1);
      return;
    }
    if (lc & 0xf000) mask = st.enabledMask();
    if (lc & LC_GROUP) mask &= st.groupMask;
    if (lc & LC.ENABLE_DEST_INDEX && code[o + 7]! & AUX_TEN2932) {
      throw undefinedBehaviour(
        'erratum TEN-2932: with LaneConfig.ENABLE_DEST_INDEX set, this instruction writes an undefined value to LReg[4..7]',
        { hint: 'ttsim refuses this; write results to LReg[0..3] or clear ENABLE_DEST_INDEX' },
      );
    }
  }
  switch (op) {
    case 0: // NOP
      return;
    case 1: // LOAD
      sfpload(st, mask, code[o + 1]!, code[o + 5]!, code[o + 4]!, code[o + 6]!);
      return;
    case 2: // STORE
      sfpstore(st, mask, code[o + 1]!, code[o + 5]!, code[o + 4]!, code[o + 6]!);
      return;
    case 44: {
      // LOADMACRO
      const macro = code[o + 7]!;
      let seq = st.lmSequence[macro]!;
      if (st.lmSplit) for (let l = 0; l < LANES; l++) seq |= st.lmLanes[(4 + macro) * LANES + l]!;
      if ((seq & 0x07070707) !== 0) {
        throw unsupported(
          `SFPLOADMACRO macro ${macro} schedules instructions (Sequence[${macro}] = 0x${(seq >>> 0).toString(16)}); the functional mode cannot run them, their meaning depends on timing`,
          {
            hint: 'use the timed mode (docs/tensix-timing.md): `axsim tensix run PROGRAM --timeline text` (or `--hazards warn|strict`; plain `axsim tensix run` switches to it for SFPLOADMACRO programs), or in code runTimedProgram(machine, words, { hazards: "warn" }) from src/tensix/index.ts',
          },
        );
      }
      sfpload(st, mask, code[o + 1]!, code[o + 5]!, code[o + 4]!, code[o + 6]!);
      return;
    }
    case 3: // LOADI
      sfploadi(st, mask, code[o + 1]!, code[o + 5]!, code[o + 6]!);
      return;
    case 4: // LUT
      sfplut(st, mask, code[o + 1]!, code[o + 5]!);
      return;
    case 5: // LUTFP32
      sfplutfp32(st, mask, code[o + 1]!, code[o + 5]!);
      return;
    case 6: // MAD
      sfpmad(st, mask, code[o + 1]!, code[o + 4]!, code[o + 3]!, code[o + 2]!, code[o + 5]!);
      return;
    case 7: // MULI
      sfpmuli(st, mask, code[o + 1]!, code[o + 6]!);
      return;
    case 8: // ADDI
      sfpaddi(st, mask, code[o + 1]!, code[o + 6]!);
      return;
    case 9: {
      // MAD_SLOW
      const mod = code[o + 5]!;
      const kind = mod & 256 ? code[o + 4]! : 0;
      sfpmadGeneral(
        st,
        mask,
        kind,
        code[o + 1]!,
        code[o + 4]!,
        code[o + 3]!,
        code[o + 2]!,
        mod & 255,
        code[o + 6]!,
      );
      return;
    }
    case 10: // DIVP2
      sfpdivp2(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!, code[o + 6]!);
      return;
    case 11: {
      // EXEXP
      const vd = code[o + 1]!;
      sfpexexp(st, mask, vd, code[o + 2]!, code[o + 5]!, vd < 8);
      return;
    }
    case 12: // EXMAN
      sfpexman(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!);
      return;
    case 13: {
      // IADD
      const vd = code[o + 1]!;
      sfpiadd(st, mask, vd, code[o + 2]!, code[o + 5]!, code[o + 6]!, vd < 8);
      return;
    }
    case 14: // SHFT
      sfpshft(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!, code[o + 6]!);
      return;
    case 15: // SETCC
      sfpsetcc(st, mask, code[o + 2]!, code[o + 5]!, code[o + 6]!);
      return;
    case 16: // MOV
      sfpmov(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!);
      return;
    case 17: // ABS
      sfpabs(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!);
      return;
    case 18: // AND
      sfpand(st, mask, code[o + 1]!, code[o + 3]!, code[o + 2]!);
      return;
    case 19: // OR
      sfpor(st, mask, code[o + 1]!, code[o + 3]!, code[o + 2]!);
      return;
    case 20: // XOR
      sfpxor(st, mask, code[o + 1]!, code[o + 2]!);
      return;
    case 21: // NOT
      sfpnot(st, mask, code[o + 1]!, code[o + 2]!);
      return;
    case 22: {
      // LZ
      const vd = code[o + 1]!;
      sfplz(st, mask, vd, code[o + 2]!, code[o + 5]!, vd < 8);
      return;
    }
    case 23: // SETEXP
      sfpsetexp(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!, code[o + 6]!);
      return;
    case 24: // SETMAN
      sfpsetman(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!, code[o + 6]!);
      return;
    case 25: // SETSGN
      sfpsetsgn(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!, code[o + 6]!);
      return;
    case 26: // PUSHC
      sfppushc(st, code[o + 5]!);
      return;
    case 27: // POPC
      sfppopc(st, code[o + 5]!);
      return;
    case 28: // ENCC
      sfpencc(st, code[o + 5]!, code[o + 6]!);
      return;
    case 29: // COMPC
      sfpcompc(st);
      return;
    case 30: // TRANSP
      sfptransp(st, mask);
      return;
    case 31: // STOCHRND
      sfpstochrnd(
        st,
        mask,
        code[o + 1]!,
        code[o + 2]!,
        code[o + 3]!,
        code[o + 5]!,
        code[o + 7]! & 3,
        code[o + 6]!,
      );
      return;
    case 32: // CAST
      sfpcast(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!);
      return;
    case 33: // CONFIG
      sfpconfig(st, code[o + 1]!, code[o + 5]!, code[o + 6]!);
      return;
    case 34: // SWAP
      sfpswap(st, mask, code[o + 1]!, code[o + 2]!, code[o + 5]!, code[o + 3]!);
      return;
    case 35: // SHFT2
      sfpshft2(st, mask, code[o + 1]!, code[o + 2]!, code[o + 3]!, code[o + 5]!, code[o + 6]!);
      return;
    case 36: // LE
    case 37: // GT
      sfpcmp(st, mask, code[o + 1]!, code[o + 3]!, code[o + 2]!, code[o + 5]!, op === 37);
      return;
    case 38: // MUL24
      sfpmul24(st, mask, code[o + 1]!, code[o + 4]!, code[o + 3]!, code[o + 2]!, code[o + 5]!);
      return;
    case 39: // ARECIP
      sfparecip(st, mask, code[o + 1]!, code[o + 2]!, code[o + 3]!, code[o + 5]!);
      return;
    case 40: {
      // TEMPLATE
      const word = code[o + 6]! >>> 0;
      if (lc & LC.DISABLE_BACKDOOR_LOAD) {
        // The word executes as an ordinary instruction with VD >= 12.
        predecode(decode(word, st.arch), st.arch, scratch, 0);
        execRecord(st, scratch, 0);
        return;
      }
      templateLoad(st, -1, code[o + 5]!, word);
      return;
    }
    case 41: // SETRWC
      setrwc(st, code[o + 5]!, code[o + 2]!, code[o + 4]!, code[o + 3]!, code[o + 1]!);
      return;
    case 42: // INCRWC
      incrwc(st, code[o + 2]!, code[o + 4]!, code[o + 3]!, code[o + 1]!);
      return;
    case 43: // SETC16
      setc16(st, code[o + 5]!, code[o + 6]!);
      return;
    case 46: // RMWCIB
      rmwcib(st, code[o + 1]!, code[o + 5]!, code[o + 3]!, code[o + 4]!);
      return;
    default:
      throw new Error(`internal: unknown op ${op}`);
  }
}

/** How `run` executes: 'auto' (the default) compiles a program once it has run enough, see {@link run}. */
export type RunMode = 'auto' | 'compiled' | 'interpreted';

export interface RunOptions {
  mode?: RunMode;
}

/**
 * Records a program runs before 'auto' compiles it (cumulative over calls, or in one call): below
 * this, generating and optimising the code costs more than it saves.
 */
export const JIT_THRESHOLD = 4096;
/**
 * 'auto' compiles a program only once it has run each of its records at least this many times on
 * average: the generated code is straight-line, about 1.5 KB of JavaScript source a record, so a
 * long program run once costs far more to generate and compile than to interpret (a 524 224-word
 * program run once took 69 s and 3.5 GB compiled, under 2 s interpreted; fuzz input tensix-asm seed 3
 * #15366, test/fuzz-corpus/tensix-asm/9354d948bd36.in).
 */
export const JIT_MIN_RUNS_PER_RECORD = 2;
/**
 * The longest program 'auto' compiles (records): bounds the generated source (~25 MB) and the
 * engine's memory for it whatever the repetitions. Real kernels are a few thousand words at most.
 */
export const JIT_MAX_RECORDS = 16_384;
const executedRecords = new WeakMap<Program, number>();
const hooks: JitHooks = { execRecord, relocate: locateRecordError };

/**
 * Runs `prog` `reps` times back to back. An AxsimError raised by an instruction gets the
 * instruction's index (in the source words) as its location; the state keeps the effects of the
 * instructions before it.
 *
 * Mode 'interpreted' runs the reference interpreter ({@link runInterpreted}); 'compiled' runs the
 * program's compiled JavaScript form (jit.ts), bit-identical to it (src/tensix/jit.test.ts);
 * 'auto' interprets a program until it has executed {@link JIT_THRESHOLD} records and each of its
 * records {@link JIT_MIN_RUNS_PER_RECORD} times on average (this call's `reps` included), and then
 * compiles it, so that a program run once starts at once; a program longer than
 * {@link JIT_MAX_RECORDS} is always interpreted in 'auto' mode.
 */
export function run(st: TensixState, prog: Program, reps = 1, opts: RunOptions = {}): void {
  if (prog.arch !== st.arch) throw badInput(`program compiled for ${prog.arch}, machine is ${st.arch}`);
  const mode = opts.mode ?? 'auto';
  if (mode !== 'interpreted' && prog.length > 0 && reps > 0) {
    let go = mode === 'compiled';
    if (!go) {
      const seen = (executedRecords.get(prog) ?? 0) + reps * prog.length;
      executedRecords.set(prog, seen);
      go =
        seen >= JIT_THRESHOLD &&
        seen >= JIT_MIN_RUNS_PER_RECORD * prog.length &&
        prog.length <= JIT_MAX_RECORDS;
    }
    const f = go ? compiledProgram(prog, hooks) : null;
    if (f) {
      f(st, prog.code, reps);
      return;
    }
  }
  runInterpreted(st, prog, reps);
}

/** The reference interpreter: {@link run} in mode 'interpreted'. */
export function runInterpreted(st: TensixState, prog: Program, reps = 1): void {
  if (prog.arch !== st.arch) throw badInput(`program compiled for ${prog.arch}, machine is ${st.arch}`);
  const code = prog.code;
  const end = prog.length * STRIDE;
  let o = 0;
  try {
    for (let r = 0; r < reps; r++) {
      for (o = 0; o < end; o += STRIDE) {
        // The common instructions are dispatched here, saving a call; the rest, and everything
        // while a LaneConfig is active (ROW_MASK, TEN-2932 checks, split lanes), goes through
        // execRecord. With LaneConfig 0, AUX's only meaning for these ops (the TEN-2932 bit) is
        // irrelevant. (Op ids: see ops.ts.)
        if (st.laneConfig !== 0) {
          execRecord(st, code, o);
          continue;
        }
        const op = code[o]!;
        switch (op) {
          case 26: // PUSHC
            sfppushc(st, code[o + 5]!);
            break;
          case 27: // POPC
            sfppopc(st, code[o + 5]!);
            break;
          case 29: // COMPC
            sfpcompc(st);
            break;
          case 13: // IADD
            {
              const vd = code[o + 1]!;
              sfpiadd(
                st,
                st.useLaneFlags ? st.laneFlags : -1,
                vd,
                code[o + 2]!,
                code[o + 5]!,
                code[o + 6]!,
                vd < 8,
              );
            }
            break;
          case 14: // SHFT
            sfpshft(
              st,
              st.useLaneFlags ? st.laneFlags : -1,
              code[o + 1]!,
              code[o + 2]!,
              code[o + 5]!,
              code[o + 6]!,
            );
            break;
          case 15: // SETCC
            sfpsetcc(st, st.useLaneFlags ? st.laneFlags : -1, code[o + 2]!, code[o + 5]!, code[o + 6]!);
            break;
          case 18: // AND
            sfpand(st, st.useLaneFlags ? st.laneFlags : -1, code[o + 1]!, code[o + 3]!, code[o + 2]!);
            break;
          case 19: // OR
            sfpor(st, st.useLaneFlags ? st.laneFlags : -1, code[o + 1]!, code[o + 3]!, code[o + 2]!);
            break;
          case 20: // XOR
            sfpxor(st, st.useLaneFlags ? st.laneFlags : -1, code[o + 1]!, code[o + 2]!);
            break;
          case 21: // NOT
            sfpnot(st, st.useLaneFlags ? st.laneFlags : -1, code[o + 1]!, code[o + 2]!);
            break;
          case 6: // MAD
            sfpmad(
              st,
              st.useLaneFlags ? st.laneFlags : -1,
              code[o + 1]!,
              code[o + 4]!,
              code[o + 3]!,
              code[o + 2]!,
              code[o + 5]!,
            );
            break;
          case 7: // MULI
            sfpmuli(st, st.useLaneFlags ? st.laneFlags : -1, code[o + 1]!, code[o + 6]!);
            break;
          case 8: // ADDI
            sfpaddi(st, st.useLaneFlags ? st.laneFlags : -1, code[o + 1]!, code[o + 6]!);
            break;
          case 1: // LOAD
            sfpload(
              st,
              st.useLaneFlags ? st.laneFlags : -1,
              code[o + 1]!,
              code[o + 5]!,
              code[o + 4]!,
              code[o + 6]!,
            );
            break;
          case 2: // STORE
            sfpstore(
              st,
              st.useLaneFlags ? st.laneFlags : -1,
              code[o + 1]!,
              code[o + 5]!,
              code[o + 4]!,
              code[o + 6]!,
            );
            break;
          default:
            execRecord(st, code, o);
        }
      }
    }
  } catch (e) {
    throw locateRecordError(e, prog, o / STRIDE);
  }
}

/** An error of record `k`: the instruction and its word named in the message, its source index set. */
function locateRecordError(e: unknown, prog: Program, k: number): unknown {
  if (!(e instanceof AxsimError)) return e;
  // Name the instruction and its word in the message, and locate it in the source words.
  const word = prog.words[k] ?? 0;
  const name = byOpcode(word >>> 24, prog.arch)?.name ?? 'instruction';
  const msg = e.message.startsWith(name)
    ? e.message
    : `${name} 0x${word.toString(16).padStart(8, '0')}: ${e.message}`;
  return new AxsimError(e.category, msg, {
    location: { ...e.location, index: prog.sourceIndex[k] },
    hint: e.hint,
    cause: e.cause,
  });
}

/**
 * Runs records `from` .. `to - 1` of a program one at a time through `execRecord` (the general path
 * `run` takes whenever a LaneConfig is active), for steppers: the state after k instructions is a
 * run of records [0, k) from the start. Errors are located as `run` locates them.
 */
export function runRange(st: TensixState, prog: Program, from: number, to: number): void {
  if (prog.arch !== st.arch) throw badInput(`program compiled for ${prog.arch}, machine is ${st.arch}`);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > prog.length || from > to) {
    throw badInput(`records ${from}..${to} are not a range of the program's ${prog.length} instructions`);
  }
  let k = from;
  try {
    for (; k < to; k++) execRecord(st, prog.code, k * STRIDE);
  } catch (e) {
    throw locateRecordError(e, prog, k);
  }
}
