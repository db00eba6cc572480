/**
 * SFPLOADMACRO's scheduling part: turning LoadMacroConfig (Misc, Sequence[4], InstructionTemplate[4])
 * into up to four instructions for the Simple, MAD, Round and Store sub-units, exactly as the
 * functional model of tt-isa-documentation WormholeB0/BlackholeA0 SFPLOADMACRO.md (and spec 000)
 * describes. The instructions are executed later by the cycle model (engine.ts).
 *
 * Per sub-unit i (0 Simple, 1 MAD, 2 Round, 3 Store), with SequenceBits = Sequence[macro] >> 8i:
 * - Delay = bits 5:3; if the selector (bits 2:0) is not 0 and Delay != 7, the sub-unit forgets any
 *   pending instruction whose delay counter is Delay. Spec 000's model skips a zero selector before
 *   forgetting; the ISA documents' model forgets first. We follow spec 000: with the ISA order,
 *   tt-llk's _calculate_reciprocal_fast_8b_3c_ loses its SFPIADD (macro 2's all-zero Simple byte
 *   would forget it the cycle it counts down to 0), and that kernel is in production. The
 *   decision and this evidence are in docs/tensix-timing.md.
 * - selector bits 2:0: 0 nothing, 1 undefined behaviour, 2 SFPNOP, 3 SFPSTORE with VD = 0,
 *   4..7 InstructionTemplate[selector - 4] parsed as an instruction.
 * - an instruction the sub-unit cannot execute becomes SFPNOP; on the Store sub-unit that is
 *   undefined behaviour.
 * - Simple/MAD/Round: bit 7 set -> VB = VD (and VC = Insn.VD if the instruction has no VC);
 *   clear -> VC = VD (and VB = Insn.VD if it has no VB); then VD = bit 6 ? 16 : VD.
 * - Store: bit 6 -> VD = 16; else bit 7 clear -> VD = VD; Mod0 = UsesLoadMod0ForStore[macro] ?
 *   Mod0 : StoreMod0; the address is the one SFPLOADMACRO computed and no ADDR_MOD is applied.
 * - Delay kind = UnitDelayKind bit i ? WaitForElapsedInstructions : WaitForElapsedCycles.
 * - scheduled instructions see DISABLE_BACKDOOR_LOAD as true (so a VD 12..15 never becomes a
 *   template write): they are pre-decoded directly, never through the backdoor interception.
 */
import { badInput, undefinedBehaviour } from '../../errors.ts';
import { type Arch, byOpcode, type DecodedInsn, decode } from '../encoding.ts';
import { Op, S, STRIDE } from '../ops.ts';
import { predecode } from '../program.ts';
import type { TensixState } from '../state.ts';
import { type Deps, depsOf } from './deps.ts';
import { canExecuteOn, timingOf, U, UNITS } from './tables.ts';

export const KIND_CYCLES = 0;
export const KIND_INSTRUCTIONS = 1;

/** One instruction scheduled by SFPLOADMACRO for future execution. */
export interface Scheduled {
  /** U.SIMPLE, U.MAD, U.ROUND or U.STORE. */
  unit: number;
  name: string;
  /** Pre-decoded record to execute (for the Store sub-unit: an SFPSTORE record; see `store`). */
  rec: Int32Array;
  /**
   * The instruction reads "VB" through its VD register (Simple-unit instructions whose functional
   * model has `VB = VD`, and SFPMULI/SFPADDI's `VC = VD`): before it runs, this row is copied into
   * the VD row, and the VD row's disabled lanes are restored afterwards. -1: nothing to do.
   */
  precopyFrom: number;
  /** Store sub-unit: the Dst address computed by SFPLOADMACRO (RWC and offset at that time). */
  storeRwc: number;
  storeOffset: number;
  /** Delay counter and kind; `readyAt` is the cycle it executes once the counter reached zero. */
  counter: number;
  kind: number;
  readyAt: number;
  /** The cycle it was scheduled in and the record index of the SFPLOADMACRO. */
  scheduledAt: number;
  index: number;
  /** SFPLOADMACRO's VD (for the `[x]` notation) and the final VD of the instruction. */
  macroVd: number;
  vd: number;
  latency: number;
  deps: Deps;
  /** Short text for the timeline. */
  text: string;
  /** The template instruction the sub-unit cannot execute, which became SFPNOP (SFPLOADMACRO.md). */
  demoted?: string;
}

function field(f: Record<string, number>, ...names: string[]): string | undefined {
  for (const n of names) if (n in f) return n;
  return undefined;
}

const INSN_NAMES: Record<number, string> = {};
export function opName(op: number): string {
  if (!INSN_NAMES[-1]) {
    for (const [k, v] of Object.entries(Op)) INSN_NAMES[v] = k;
    INSN_NAMES[-1] = 'x';
  }
  return INSN_NAMES[op] ?? `op${op}`;
}

/** Ops whose functional model reads "VB" as LReg[VD] (the `VB = VD` assignment macro scheduling skips). */
const VB_VIA_VD = new Set<number>([Op.IADD, Op.SHFT, Op.XOR, Op.SETEXP, Op.SETMAN, Op.SETSGN, Op.LE, Op.GT]);

/**
 * Builds the instruction for sub-unit `i` of macro `macro`, or undefined if the selector is 0.
 * `vd`, `mod0`, `imm10` are the SFPLOADMACRO's VD, Mod0 and Imm10.
 */
export function buildScheduled(
  st: TensixState,
  i: number,
  macro: number,
  vd: number,
  mod0: number,
  seqBits: number,
): Scheduled | undefined {
  const arch: Arch = st.arch;
  const unitName = UNITS[i + 1]!;
  const sel = seqBits & 7;
  if (sel === 0) return undefined;
  if (sel === 1) {
    throw undefinedBehaviour(
      `SFPLOADMACRO macro ${macro}: Sequence selector 1 for the ${unitName} sub-unit is undefined`,
      { hint: 'SFPLOADMACRO.md: selector 0 = nothing, 2 = SFPNOP, 3 = SFPSTORE, 4..7 = templates' },
    );
  }
  let d: DecodedInsn;
  if (sel === 2) d = decode(0x8f000000, arch);
  else if (sel === 3)
    d = decode(0x72000000, arch); // SFPSTORE, VD = 0, all fields 0
  else {
    const w = st.lmTemplates[sel - 4]! >>> 0;
    if (!byOpcode(w >>> 24, arch)) {
      throw undefinedBehaviour(
        `SFPLOADMACRO macro ${macro}: InstructionTemplate[${sel - 4}] = 0x${w.toString(16)} is not an instruction`,
      );
    }
    d = decode(w, arch, { allowReserved: true });
  }
  let name = d.name;
  let demoted: string | undefined;
  const f: Record<string, number> = { ...d.fields };
  if (!canExecuteOn(unitName, name, arch)) {
    if (unitName === 'store') {
      throw undefinedBehaviour(
        `SFPLOADMACRO macro ${macro}: the Store sub-unit would be fed SFPNOP (template is ${name})`,
        { hint: 'SFPLOADMACRO.md: the Store sub-unit should not be fed SFPNOP; only SFPSTORE may go there' },
      );
    }
    demoted = `${name} (InstructionTemplate[${sel - 4}])`;
    name = 'SFPNOP';
    for (const k of Object.keys(f)) delete f[k];
    d = decode(0x8f000000, arch);
  }
  const rec = new Int32Array(STRIDE);
  let precopyFrom = -1;
  let finalVd = vd;
  if (i !== 3) {
    const vdName = field(f, 'lreg_dest');
    const vcName = field(f, 'lreg_c', 'lreg_src_c');
    const insnVd = vdName ? f[vdName]! : 0;
    const hasVc = vcName !== undefined && name !== 'SFPCONFIG';
    // "VB" as a field: lreg_src_b (MAD family, SFP_STOCH_RND, SFPMUL24), imm12 on BH SFPARECIP,
    // BH SFPAND/SFPOR with USE_VB, SFPSHFT2's shift modes (VB = Imm12 & 15 unless overridden).
    const mod1 = f.instr_mod1 ?? 0;
    let vbField: string | undefined = field(f, 'lreg_src_b');
    if (!vbField && name === 'SFPARECIP') vbField = 'imm12_math';
    let vb: number | undefined;
    let vc: number | undefined = hasVc ? f[vcName!] : undefined;
    if (vbField) vb = f[vbField]! & 15;
    if ((name === 'SFPAND' || name === 'SFPOR') && arch === 'blackhole' && mod1 & 1) vb = f.imm12_math! & 15;
    if (name === 'SFPSHFT2' && (mod1 === 5 || mod1 === 6)) vb = f.imm12_math! & 15;
    if (seqBits & 0x80) {
      vb = vd;
      if (vc === undefined) vc = insnVd;
    } else {
      vc = vd;
      if (vb === undefined) vb = insnVd;
    }
    finalVd = seqBits & 0x40 ? 16 : vd;
    if (vdName) f[vdName] = finalVd;
    if (hasVc) f[vcName!] = vc;
    if (vbField && vbField !== 'imm12_math') f[vbField] = vb;
    const dd: DecodedInsn = { ...d, fields: f, name: d.name };
    if (name !== 'SFPNOP') predecode(dd, arch, rec, 0);
    else rec[S.OP] = Op.NOP;
    const op = rec[S.OP]!;
    // Wire the macro-determined VB / VC into the record where the pre-decoded form implies them.
    if (op === Op.AND || op === Op.OR || op === Op.ARECIP || op === Op.SWAP) rec[S.VB] = vb;
    else if (op === Op.SHFT2 && (mod1 === 5 || mod1 === 6)) rec[S.VB] = vb;
    else if (VB_VIA_VD.has(op) && vb !== finalVd) precopyFrom = vb;
    else if ((op === Op.MULI || op === Op.ADDI) && vc !== finalVd) precopyFrom = vc;
    else if (op === Op.MAD_SLOW && rec[S.MOD]! & 256 && vc !== finalVd) precopyFrom = vc;
  } else {
    // Store sub-unit
    let svd = f.lreg_ind!;
    if (seqBits & 0x40) svd = 16;
    else if (!(seqBits & 0x80)) svd = vd;
    finalVd = svd;
    const storeMod0 = (st.lmMisc >>> 4) & (1 << macro) ? mod0 : st.lmMisc & 15;
    rec[S.OP] = Op.STORE;
    rec[S.VD] = svd;
    rec[S.MOD] = storeMod0;
  }
  const delay = (seqBits >>> 3) & 7;
  const kind = (st.lmMisc >>> 8) & (1 << i) ? KIND_INSTRUCTIONS : KIND_CYCLES;
  const t = timingOf(name, arch, f.instr_mod1 ?? 0);
  return {
    unit: i + 1,
    name,
    rec,
    precopyFrom,
    storeRwc: 0,
    storeOffset: 0,
    counter: delay,
    kind,
    readyAt: -1,
    scheduledAt: -1,
    index: -1,
    macroVd: vd,
    vd: finalVd,
    latency: t?.latency ?? 1,
    deps: scheduledDeps(rec, precopyFrom),
    text: '',
    ...(demoted ? { demoted } : {}),
  };
}

function scheduledDeps(rec: Int32Array, precopyFrom: number): Deps {
  const d = depsOf(rec, 0);
  if (precopyFrom >= 0 && precopyFrom <= 16) {
    const vd = rec[S.VD]!;
    const r = d.reads & ~(vd <= 16 ? 1 << vd : 0);
    return { reads: r | (1 << precopyFrom), writes: d.writes, stallReads: 0 };
  }
  return { ...d, stallReads: 0 };
}

/** Validates a macro index for the library helpers. */
export function checkMacroIndex(m: number): void {
  if (!Number.isInteger(m) || m < 0 || m > 3) throw badInput(`macro index ${m} is not 0..3`);
}

export { U };
