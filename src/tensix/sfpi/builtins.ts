/**
 * sfpi-gcc's raw builtins (`__builtin_rvtt_wh_*` on Wormhole, `__builtin_rvtt_bh_*` on Blackhole, and
 * the common `__builtin_rvtt_sfpassignlreg` / `sfppreservelreg`), as sfpi's `tests/<arch>/gcc/*.cc`
 * call them on GCC vector values (`typedef float v64sf __attribute__((vector_size(256)))`). Each
 * builtin is nearly one instruction; this table says, per builtin parameter, what it is — read from
 * sfpi-gcc's builtin list (`gcc/config/riscv/rvtt-insn.h`: the parameter types) and the instruction
 * patterns (`rvtt-wh.md`: which operand is the destination, which is tied to it, the output template,
 * the immediate ranges). The text of this table is ours.
 *
 * Roles of a parameter:
 *   p            the instruction-buffer pointer (only used by sfpi-gcc for run-time operands): ignored
 *   x            a run-time-operand helper register / offset: ignored (must be a compile-time value)
 *   L            the `_lv` live value: the result is written over its register (lanes the CC
 *                disables keep it), so it is the result's tied operand
 *   T:field      a vector operand overwritten by the result (constraint "0"): tied, and in `field`
 *                (a field other than the result's: the instruction also reads it there, SFPGT / SFPLE)
 *   V:field      a vector operand read from `field`
 *   U:field:bits an unsigned immediate (0 .. 2^bits-1) / S:field:bits a signed one / I:field:16 either
 *   M:field      a mode field (masked to the field's width)
 *
 * A v64sf value is carried by the evaluator as an int handle (HANDLE + the traced value's id); the
 * builtins refuse anything else, so arithmetic on a v64sf (which sfpi-gcc does not lower) is an error
 * at its use, never a number.
 */
import type { BuiltinCtx, BuiltinFn, Value } from '../../cfront/eval.ts';
import type { SrcLoc } from '../../cfront/lex.ts';
import { I32 } from '../../cfront/types.ts';
import { badInput } from '../../errors.ts';
import { archTables } from '../asm/tables.ts';
import type { Arch } from '../encoding.ts';
import { type Cond, type Loc, notYet, type Trace } from './trace.ts';

/** v64sf handles: the traced value id plus this (no small integer a program computes is one). */
export const HANDLE = 0x5f000000;
/** A condition made by a compare / sfpxbool pseudo-builtin: COND_HANDLE + its index in the trace's conditions. */
export const COND_HANDLE = 0x5e000000;

export interface RawSpec {
  /** The instruction (tt-llk macro name). */
  insn: string;
  /** One role per builtin parameter (see the module comment). */
  params: string[];
  /** The field the result is written to (none: the builtin returns nothing). */
  dst?: string;
  /** Fields with fixed values (constant registers, mode bits the pattern writes). */
  fixed?: Record<string, number>;
  /** Removed when its result is not read (sfpi-gcc drops an unused sfpxloadi; gold smoke.S). */
  dce?: boolean;
  /** A Blackhole instruction: sfpi-gcc has the builtin for Blackhole only. */
  bhOnly?: boolean;
}

const simple = (insn: string): RawSpec => ({
  insn,
  params: ['V:lreg_c', 'M:instr_mod1'],
  dst: 'lreg_dest',
});
const simpleLv = (insn: string): RawSpec => ({
  insn,
  params: ['L', 'V:lreg_c', 'M:instr_mod1'],
  dst: 'lreg_dest',
});
const inPlace = (insn: string, fixed: Record<string, number> = {}): RawSpec => ({
  insn,
  params: ['T:lreg_dest', 'V:lreg_c'],
  dst: 'lreg_dest',
  fixed,
});

/** The builtins by name without the `__builtin_rvtt_<arch>_` prefix (rvtt-insn.h / rvtt-wh.md). */
export const RAW_BUILTINS: Record<string, RawSpec> = {
  // SFPLOAD %0, addr, mod0, mode
  sfpload: {
    insn: 'SFPLOAD',
    params: ['p', 'M:instr_mod0', 'M:sfpu_addr_mode', 'U:dest_reg_addr:0', 'x', 'x'],
    dst: 'lreg_ind',
  },
  sfpload_lv: {
    insn: 'SFPLOAD',
    params: ['p', 'L', 'M:instr_mod0', 'M:sfpu_addr_mode', 'U:dest_reg_addr:0', 'x', 'x'],
    dst: 'lreg_ind',
  },
  // SFPLOADI %0, imm16, mod0 (mod0 16..18 are sfpi's 32-bit pseudo-modes: one or two SFPLOADIs)
  sfpxloadi: {
    insn: 'SFPLOADI',
    params: ['p', 'M:instr_mod0', 'I:imm16:16', 'x', 'x'],
    dst: 'lreg_ind',
    dce: true,
  },
  sfpxloadi_lv: {
    insn: 'SFPLOADI',
    params: ['p', 'L', 'M:instr_mod0', 'I:imm16:16', 'x', 'x'],
    dst: 'lreg_ind',
  },
  // SFPSTORE %0, addr, mod0, mode
  sfpstore: {
    insn: 'SFPSTORE',
    params: ['p', 'V:lreg_ind', 'M:instr_mod0', 'M:sfpu_addr_mode', 'U:dest_reg_addr:0', 'x', 'x'],
  },
  // SFPMAD %0, a, b, c, mod; SFPMUL %0, a, b, L9; SFPADD %0, L10, a, b
  sfpmad: {
    insn: 'SFPMAD',
    params: ['V:lreg_src_a', 'V:lreg_src_b', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  sfpmad_lv: {
    insn: 'SFPMAD',
    params: ['L', 'V:lreg_src_a', 'V:lreg_src_b', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  sfpmul: {
    insn: 'SFPMUL',
    params: ['V:lreg_src_a', 'V:lreg_src_b', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_c: 9 },
  },
  sfpmul_lv: {
    insn: 'SFPMUL',
    params: ['L', 'V:lreg_src_a', 'V:lreg_src_b', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_c: 9 },
  },
  sfpadd: {
    insn: 'SFPADD',
    params: ['V:lreg_src_b', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_a: 10 },
  },
  sfpadd_lv: {
    insn: 'SFPADD',
    params: ['L', 'V:lreg_src_b', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_a: 10 },
  },
  // SFPADDI / SFPMULI %0, imm16, mod (in place)
  sfpaddi: {
    insn: 'SFPADDI',
    params: ['p', 'T:lreg_dest', 'U:imm16_math:16', 'x', 'x', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  sfpmuli: {
    insn: 'SFPMULI',
    params: ['p', 'T:lreg_dest', 'U:imm16_math:16', 'x', 'x', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  // SFPDIVP2 %0, src, imm12 (signed), mod
  sfpdivp2: {
    insn: 'SFPDIVP2',
    params: ['p', 'S:imm12_math:12', 'x', 'x', 'V:lreg_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  sfpdivp2_lv: {
    insn: 'SFPDIVP2',
    params: ['p', 'L', 'S:imm12_math:12', 'x', 'x', 'V:lreg_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  sfpexexp: simple('SFPEXEXP'),
  sfpexexp_lv: simpleLv('SFPEXEXP'),
  sfpexman: simple('SFPEXMAN'),
  sfpexman_lv: simpleLv('SFPEXMAN'),
  sfpabs: simple('SFPABS'),
  sfpabs_lv: simpleLv('SFPABS'),
  sfpmov: simple('SFPMOV'),
  sfpmov_lv: simpleLv('SFPMOV'),
  sfplz: simple('SFPLZ'),
  sfplz_lv: simpleLv('SFPLZ'),
  sfpcast: { insn: 'SFPCAST', params: ['V:lreg_src_c', 'M:instr_mod1'], dst: 'lreg_dest' },
  sfpcast_lv: { insn: 'SFPCAST', params: ['L', 'V:lreg_src_c', 'M:instr_mod1'], dst: 'lreg_dest' },
  // Blackhole only (sfpi-gcc rvtt-bh.md; gold blackhole/gcc/smoke.S bh_specific):
  // SFPMUL24 %0, a, b, mod (VC written as L0); SFPARECIP %0, src, 0, mod; SFPGT / SFPLE %0, %0, 0, mod
  // (the compare reads its destination: the one vector operand is tied and read in VC too)
  sfpmul24: {
    insn: 'SFPMUL24',
    params: ['V:lreg_src_a', 'V:lreg_src_b', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_c: 0 },
    bhOnly: true,
  },
  sfpmul24_lv: {
    insn: 'SFPMUL24',
    params: ['L', 'V:lreg_src_a', 'V:lreg_src_b', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_c: 0 },
    bhOnly: true,
  },
  sfparecip: { ...simple('SFPARECIP'), bhOnly: true },
  sfparecip_lv: { ...simpleLv('SFPARECIP'), bhOnly: true },
  sfpgt: { insn: 'SFPGT', params: ['T:lreg_c', 'M:instr_mod1'], dst: 'lreg_dest', bhOnly: true },
  sfple: { insn: 'SFPLE', params: ['T:lreg_c', 'M:instr_mod1'], dst: 'lreg_dest', bhOnly: true },
  sfpshft2_e: { insn: 'SFPSHFT2', params: ['V:lreg_src_c', 'M:instr_mod1'], dst: 'lreg_dest' },
  sfpshft2_e_lv: { insn: 'SFPSHFT2', params: ['L', 'V:lreg_src_c', 'M:instr_mod1'], dst: 'lreg_dest' },
  // SFPNOT %0, src
  sfpnot: { insn: 'SFPNOT', params: ['V:lreg_c'], dst: 'lreg_dest' },
  sfpnot_lv: { insn: 'SFPNOT', params: ['L', 'V:lreg_c'], dst: 'lreg_dest' },
  // in place on the first operand: SFPAND/OR/XOR %0, src; SFPSET* %0, src, 0, 0; SFPSHFT %0, src, 0, 0
  sfpand: inPlace('SFPAND'),
  sfpor: inPlace('SFPOR'),
  sfpxor: inPlace('SFPXOR'),
  sfpsetexp_v: inPlace('SFPSETEXP'),
  sfpsetman_v: inPlace('SFPSETMAN'),
  sfpsetsgn_v: inPlace('SFPSETSGN'),
  sfpshft_v: inPlace('SFPSHFT'),
  // SFPSHFT %0, L0, imm12 (signed), 1: the immediate form (the VC field is not read; written as L0)
  sfpshft_i: {
    insn: 'SFPSHFT',
    params: ['p', 'T:lreg_dest', 'S:imm12_math:12', 'x', 'x'],
    dst: 'lreg_dest',
    fixed: { lreg_c: 0, instr_mod1: 1 },
  },
  // SFPSETEXP / SFPSETSGN / SFPSETMAN %0, src, imm12 (unsigned), 1 (sfpsetman_i's last argument does
  // not change the instruction: 0 and 1 both give mod1 1 in the gold listings, smoke.S / nonimm.S)
  sfpsetexp_i: {
    insn: 'SFPSETEXP',
    params: ['p', 'U:imm12_math:12', 'x', 'x', 'V:lreg_c'],
    dst: 'lreg_dest',
    fixed: { instr_mod1: 1 },
  },
  sfpsetexp_i_lv: {
    insn: 'SFPSETEXP',
    params: ['p', 'L', 'U:imm12_math:12', 'x', 'x', 'V:lreg_c'],
    dst: 'lreg_dest',
    fixed: { instr_mod1: 1 },
  },
  sfpsetsgn_i: {
    insn: 'SFPSETSGN',
    params: ['p', 'U:imm12_math:12', 'x', 'x', 'V:lreg_c'],
    dst: 'lreg_dest',
    fixed: { instr_mod1: 1 },
  },
  sfpsetsgn_i_lv: {
    insn: 'SFPSETSGN',
    params: ['p', 'L', 'U:imm12_math:12', 'x', 'x', 'V:lreg_c'],
    dst: 'lreg_dest',
    fixed: { instr_mod1: 1 },
  },
  sfpsetman_i: {
    insn: 'SFPSETMAN',
    params: ['p', 'U:imm12_math:12', 'x', 'x', 'V:lreg_c', 'x'],
    dst: 'lreg_dest',
    fixed: { instr_mod1: 1 },
  },
  sfpsetman_i_lv: {
    insn: 'SFPSETMAN',
    params: ['p', 'L', 'U:imm12_math:12', 'x', 'x', 'V:lreg_c', 'x'],
    dst: 'lreg_dest',
    fixed: { instr_mod1: 1 },
  },
  // SFPSTOCHRND %0, L0, src, mod, rnd_mode, imm (immediate form) / %0, b, c, mod, rnd_mode, 0
  sfpstochrnd_i: {
    insn: 'SFP_STOCH_RND',
    params: ['p', 'M:rnd_mode', 'U:imm8_math:5', 'x', 'x', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_b: 0 },
  },
  sfpstochrnd_i_lv: {
    insn: 'SFP_STOCH_RND',
    params: ['p', 'L', 'M:rnd_mode', 'U:imm8_math:5', 'x', 'x', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
    fixed: { lreg_src_b: 0 },
  },
  sfpstochrnd_v: {
    insn: 'SFP_STOCH_RND',
    params: ['M:rnd_mode', 'V:lreg_src_b', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  sfpstochrnd_v_lv: {
    insn: 'SFP_STOCH_RND',
    params: ['L', 'M:rnd_mode', 'V:lreg_src_b', 'V:lreg_src_c', 'M:instr_mod1'],
    dst: 'lreg_dest',
  },
  // SFPMOV %0, src, 0 into the live value's register
  sfpassign_lv: { insn: 'SFPMOV', params: ['L', 'V:lreg_c'], dst: 'lreg_dest' },
  // CC: SFPSETCC src, 0, mod / L0, imm, mod; SFPENCC imm, mod; SFPCOMPC; SFPNOP
  sfpsetcc_v: { insn: 'SFPSETCC', params: ['V:lreg_c', 'M:instr_mod1'] },
  sfpsetcc_i: { insn: 'SFPSETCC', params: ['U:imm12_math:1', 'M:instr_mod1'], fixed: { lreg_c: 0 } },
  sfpencc: { insn: 'SFPENCC', params: ['U:imm12_math:2', 'M:instr_mod1'] },
  sfpcompc: { insn: 'SFPCOMPC', params: [] },
  sfpnop: { insn: 'SFPNOP', params: [] },
};

/** sfpi-gcc's SFPXIADD_MOD1 bits (sfpi_hw.h): the compare in the low 3 bits, then these. */
const XIADD_SIGNED = 8;
const XIADD_SUB = 16;

const int = (v: number): Value => ({ k: 'int', t: I32, v: BigInt(v) }) as Value;

/** Registers the raw builtins of `arch` on an emitter's builtin map. */
export function installRawBuiltins(
  builtins: Map<string, BuiltinFn>,
  trace: Trace,
  arch: Arch,
  userLoc: (at: SrcLoc) => Loc,
): void {
  const tables = archTables(arch);
  const prefix = `__builtin_rvtt_${arch === 'wormhole' ? 'wh' : 'bh'}_`;
  const loc = (c: BuiltinCtx): Loc => {
    const u = userLoc(c.at);
    return { file: u.file, line: u.line, col: u.col };
  };
  const num = (c: BuiltinCtx, k: number): number => {
    const v = c.args[k];
    if (v?.k === 'int') return Number(v.v);
    throw badInput(`${c.name}: argument ${k + 1} must be a compile-time integer`, {
      location: loc(c),
      hint: 'axsim runs the scalar code with every argument known; this one is not an integer',
    });
  };
  const vec = (c: BuiltinCtx, k: number): number => {
    const h = num(c, k) - HANDLE;
    if (h < 0 || !trace.segOf.has(h))
      throw badInput(`${c.name}: argument ${k + 1} is not a vector value made by a __builtin_rvtt_* call`, {
        location: loc(c),
        hint: 'a v64sf must come from a builtin (sfpload, sfpxloadi, sfpassignlreg, ...); arithmetic on it is not lowered',
      });
    if (trace.segOf.get(h) !== trace.segment)
      throw notYet('value used across a TTI_ instruction or a function boundary of the run', loc(c));
    return h;
  };
  const fieldWidth = (insn: string, field: string) =>
    tables.macros.get(insn)?.args.find((a) => a.name === field)?.width ?? 32;
  /** CC stack depth of the raw PUSHC/POPC builtins: the outermost level is not pushed (sfpi-gcc). */
  let depth = 0;
  const push = (c: BuiltinCtx, insn: string, fields: Record<string, number> = {}) => {
    trace.push({ k: 'insn', name: insn, vregs: [], fields, keep: true, at: loc(c) });
  };

  for (const [name, spec] of Object.entries(RAW_BUILTINS)) {
    builtins.set(prefix + name, (c) => {
      const at = loc(c);
      if (spec.bhOnly && arch !== 'blackhole')
        throw badInput(
          `${c.name}: ${spec.insn} is a Blackhole instruction; sfpi-gcc has no such builtin for ${arch}`,
          {
            location: at,
            hint: `compile for Blackhole (__builtin_rvtt_bh_${name})`,
          },
        );
      if (c.args.length !== spec.params.length)
        throw badInput(`${c.name} takes ${spec.params.length} arguments, not ${c.args.length}`, {
          location: at,
        });
      const fields: Record<string, number> = { ...spec.fixed };
      // SFPLOADI's mode as written: 16..18 are sfpi's 32-bit pseudo-modes (wider than the field)
      const mod0 = spec.insn === 'SFPLOADI' ? num(c, spec.params.indexOf('M:instr_mod0')) : 0;
      const vregs: [string, number][] = [];
      let tied: number | undefined;
      spec.params.forEach((role, k) => {
        const [r, field, bitsText] = role.split(':') as [string, string?, string?];
        if (r === 'p') return;
        if (r === 'x') return;
        if (r === 'L') {
          tied = vec(c, k);
          vregs.push(['', tied]);
          return;
        }
        if (r === 'T' || r === 'V') {
          const v = vec(c, k);
          vregs.push([r === 'T' && field === spec.dst ? '' : field!, v]);
          if (r === 'T') tied = v;
          return;
        }
        const width = Number(bitsText) || fieldWidth(spec.insn, field!);
        const v = num(c, k);
        if (r === 'I' && mod0 >= 16) return; // a 32-bit pseudo-mode value (below)
        const lo = r === 'S' ? -(2 ** (width - 1)) : r === 'I' ? -(2 ** (width - 1)) : 0;
        const hi = r === 'S' ? 2 ** (width - 1) - 1 : 2 ** width - 1;
        if ((r === 'U' || r === 'S' || r === 'I') && (v < lo || v > hi))
          throw badInput(`${c.name}: immediate ${v} is outside ${lo}..${hi} (argument ${k + 1})`, {
            location: at,
            hint: 'sfpi-gcc refuses an immediate that does not fit the instruction field',
          });
        fields[field!] = v & (2 ** fieldWidth(spec.insn, field!) - 1);
      });
      if (mod0 >= 16) {
        // sfpi's pseudo-modes INT32 16 / UINT32 17 / FLOAT 18: one SFPLOADI when the value fits, else two
        const mod = mod0;
        const value = num(c, spec.params.indexOf('I:imm16:16'));
        if (tied !== undefined || mod > 18) throw notYet(`${c.name} with mode ${mod}`, at);
        const id = trace.newId();
        if (mod === 18) trace.push({ k: 'fimm', id, bits: value >>> 0, at });
        else trace.push({ k: 'iimm', id, value: value | 0, signed: mod === 16, at });
        return int(HANDLE + id);
      }
      // SUBVEC_SHFLSHR1 (4): sfpi-gcc first emits a SHFLROR1 with VD = VC = L9 (0.0; VD not written), the
      // workaround for Wormhole's lane-8k bug (SFPSHFT2.md HardwareBug()), on both arches (gold coverage.S
      // subvec_shfl, which calls this builtin through subvec_shflshr1)
      if (spec.insn === 'SFPSHFT2' && fields.instr_mod1 === 4)
        push(c, 'SFPSHFT2', { lreg_src_c: 9, lreg_dest: 9, instr_mod1: 3 });
      const id = spec.dst ? trace.newId() : undefined;
      trace.push({
        k: 'insn',
        ...(id !== undefined ? { id, dst: spec.dst } : {}),
        name: spec.insn,
        vregs,
        fields,
        ...(tied !== undefined ? { tied } : {}),
        keep: !spec.dce,
        at,
      });
      return id !== undefined ? int(HANDLE + id) : undefined;
    });
  }

  // SFPIADD with sfpi's extended mode: compare in the low 3 bits (none, <, ==, >=, !=), SIGNED, IS_SUB
  const xiaddI = (c: BuiltinCtx, live: boolean) => {
    const at = loc(c);
    const o = live ? 1 : 0;
    if (c.args.length !== 6 + o) throw badInput(`${c.name} takes ${6 + o} arguments`, { location: at });
    const tied = live ? vec(c, 1) : undefined;
    const src = vec(c, 1 + o);
    let imm = num(c, 2 + o);
    const mod = num(c, 5 + o);
    if (mod & XIADD_SUB) imm = -imm;
    const cmp = mod & 7;
    if (mod & ~(7 | XIADD_SIGNED | XIADD_SUB) || cmp > 4) throw notYet(`${c.name} with mode ${mod}`, at);
    if (imm < -2048 || imm > 2047)
      throw notYet(`${c.name} with an immediate beyond 12 bits (sfpi-gcc loads it first)`, at);
    // SFPIADD_MOD1_ARG_IMM 1 with CC_LT0 0 / CC_GTE0 8 / CC_NONE 4; == and != by an SFPSETCC after it
    const ccMode = cmp === 1 ? 0 : cmp === 3 ? 8 : 4;
    const id = trace.newId();
    trace.push({
      k: 'insn',
      id,
      dst: 'lreg_dest',
      name: 'SFPIADD',
      vregs: [['lreg_c', src], ...(tied !== undefined ? ([['', tied]] as [string, number][]) : [])],
      fields: { imm12_math: imm & 0xfff, instr_mod1: 1 | ccMode },
      ...(tied !== undefined ? { tied } : {}),
      keep: true,
      at,
    });
    if (cmp === 2 || cmp === 4)
      trace.push({
        k: 'insn',
        name: 'SFPSETCC',
        vregs: [['lreg_c', id]],
        fields: { instr_mod1: cmp === 2 ? 6 : 2 },
        keep: true,
        at,
      });
    return int(HANDLE + id);
  };
  builtins.set(`${prefix}sfpxiadd_i`, (c) => xiaddI(c, false));
  builtins.set(`${prefix}sfpxiadd_i_lv`, (c) => xiaddI(c, true));
  // SFPIADD %0, src, 0, mod: vector add (IS_SUB: the 2's complement of the destination's operand)
  builtins.set(`${prefix}sfpxiadd_v`, (c) => {
    const at = loc(c);
    const dstIn = vec(c, 0);
    const src = vec(c, 1);
    const mod = num(c, 2);
    if (mod & ~(XIADD_SIGNED | XIADD_SUB)) throw notYet(`${c.name} with mode ${mod}`, at);
    const id = trace.newId();
    trace.push({
      k: 'insn',
      id,
      dst: 'lreg_dest',
      name: 'SFPIADD',
      vregs: [
        ['', dstIn],
        ['lreg_c', src],
      ],
      fields: { instr_mod1: mod & XIADD_SUB ? 6 : 4 },
      tied: dstIn,
      keep: true,
      at,
    });
    return int(HANDLE + id);
  });
  // CC stack: the outermost PUSHC is not emitted and its POPC is SFPENCC 3, 10 (sfpi-gcc; gold whymov)
  builtins.set(`${prefix}sfppushc`, (c) => {
    if (depth++ > 0) push(c, 'SFPPUSHC', { instr_mod1: num(c, 0) });
    return undefined;
  });
  builtins.set(`${prefix}sfppopc`, (c) => {
    if (depth === 0) throw badInput(`${c.name} without a matching sfppushc`, { location: loc(c) });
    if (--depth > 0) push(c, 'SFPPOPC', { instr_mod1: num(c, 0) });
    else push(c, 'SFPENCC', { imm12_math: 3, instr_mod1: 10 });
    return undefined;
  });
  // SFPLUT: table in L0..L2, input and result in L3 (the `Q0..Q3` constraints)
  builtins.set(`${prefix}sfplut`, (c) => {
    const l: [number, number, number] = [vec(c, 0), vec(c, 1), vec(c, 2)];
    const v = vec(c, 3);
    const id = trace.newId();
    trace.push({ k: 'lut', id, mod: num(c, 4), v, l, at: loc(c) });
    return int(HANDLE + id);
  });
  // the three-register FP16 form (FP16_3ENTRY_TABLE): table in L0..L2, input in L3; LReg 7 is loaded with
  // the result's register number first (SFPLUTFP32.md hardware bug; gold coverage.S test_lut2a)
  builtins.set(`${prefix}sfplutfp32_3r`, (c) => {
    const l = [0, 1, 2].map((k) => vec(c, k));
    const v = vec(c, 3);
    const mod = num(c, 4);
    if ((mod & 10) !== 10)
      throw badInput(`${c.name}: mode ${mod} is not a three-register (FP16_3ENTRY_TABLE, 10) form`, {
        location: loc(c),
      });
    const id = trace.newId();
    trace.push({ k: 'lut2', id, mod, v, l, at: loc(c) });
    return int(HANDLE + id);
  });
  builtins.set(`${prefix}sfplutfp32_6r`, (c) => {
    const l = [0, 1, 2, 3, 4, 5].map((k) => vec(c, k));
    const v = vec(c, 6);
    const id = trace.newId();
    trace.push({ k: 'lut2', id, mod: num(c, 7), v, l, at: loc(c) });
    return int(HANDLE + id);
  });
  // LReg N as a value (N < 8: the value it holds on entry, kept there; 8..15: a constant register)
  builtins.set('__builtin_rvtt_sfpassignlreg', (c) => {
    const n = num(c, 0);
    if (!Number.isInteger(n) || n < 0 || n > 15)
      throw badInput(`${c.name}: LReg ${n} does not exist (0..15)`, { location: loc(c) });
    const id = trace.newId();
    trace.push(n < 8 ? { k: 'lreg', id, lreg: n, at: loc(c) } : { k: 'creg', id, lreg: n, at: loc(c) });
    return int(HANDLE + id);
  });
  builtins.set(`${prefix}sfppreservelreg`, (c) => {
    const n = num(c, 1);
    if (!Number.isInteger(n) || n < 0 || n > 7)
      throw badInput(`${c.name}: LRegs 0..7 only`, { location: loc(c) });
    trace.push({ k: 'lwrite', lreg: n, src: vec(c, 0), at: loc(c) });
    return undefined;
  });
  // The CC-expression pseudo-builtins sfpi.h's v_if is made of (sfpi-gcc gimple-rvtt-expand.cc lowers
  // them): compares and boolean nodes build a condition tree (the same Cond the SFPI classes build),
  // sfpxcondb narrows the current CC level by it, sfpxcondi makes it a 0/1 value. sfpxvif is the
  // level's marker only. Compare modes: SFPXCMP_MOD1_CC_LT 1, EQ 2, GTE 3, NE 4, LTE 5, GT 6
  // (sfpi_hw.h); scalar formats SFPXSCMP_MOD1_FMT_A 8, _B 16, _FLOAT 32.
  const CMP = ['', 'lt', 'eq', 'ge', 'ne', 'le', 'gt'];
  const SWAPPED: Record<string, string> = { lt: 'gt', gt: 'lt', le: 'ge', ge: 'le', eq: 'eq', ne: 'ne' };
  const cmpOf = (c: BuiltinCtx, k: number) => {
    const m = num(c, k) & 7;
    const cmp = CMP[m];
    if (!cmp)
      throw badInput(`${c.name}: compare mode ${m} is not one of SFPXCMP_MOD1_CC_LT..GT (1..6)`, {
        location: loc(c),
      });
    return cmp;
  };
  const newCond = (cc: Cond) => {
    trace.conds.push(cc);
    trace.condSeg.push(trace.segment);
    return int(COND_HANDLE + trace.conds.length - 1);
  };
  const condArg = (c: BuiltinCtx, k: number): Cond => {
    const h = num(c, k) - COND_HANDLE;
    const cc = trace.conds[h];
    if (h < 0 || !cc)
      throw badInput(
        `${c.name}: argument ${k + 1} is not a condition made by a compare or sfpxbool builtin`,
        {
          location: loc(c),
        },
      );
    if (trace.condSeg[h] !== trace.segment)
      throw notYet('condition used across a TTI_ instruction or a function boundary of the run', loc(c));
    return cc;
  };
  builtins.set('__builtin_rvtt_sfpxvif', () => int(0));
  // sfpxicmps(addr, v, imm, reg, ..., mod): v OP imm (as SFPIADD of -imm with a CC mode, or SETCC on 0)
  builtins.set('__builtin_rvtt_sfpxicmps', (c) => {
    const at = loc(c);
    const a = vec(c, 1);
    const imm = num(c, 2) | 0;
    const cmp = cmpOf(c, 5);
    if (-imm < -2048 || -imm > 2047) {
      const id = trace.newId();
      trace.push({ k: 'iimm', id, value: imm, signed: true, cmp: true, at });
      return newCond({ k: 'icmp', cmp, a, b: id, imm: 0, at });
    }
    return newCond({ k: 'icmp', cmp, a, b: -1, imm, at });
  });
  // sfpxicmpv(x, y, mod): sfpi-gcc subtracts into a copy of x (sfpxiadd_v IS_SUB: y - x), so x OP y is
  // tested as (y - x) OP' 0 with the sides swapped (gold gcc smoke.S: SFPMOV L4, L3; SFPIADD L4, L1, 0, 6)
  builtins.set('__builtin_rvtt_sfpxicmpv', (c) => {
    const cmp = cmpOf(c, 2);
    return newCond({ k: 'icmp', cmp: SWAPPED[cmp]!, a: vec(c, 1), b: vec(c, 0), imm: 0, at: loc(c) });
  });
  // sfpxfcmps(addr, v, imm, reg, ..., mod): v OP the scalar (0: SETCC on v itself; else loaded at the compare)
  builtins.set(`${prefix}sfpxfcmps`, (c) => {
    const at = loc(c);
    const a = vec(c, 1);
    const mod = num(c, 5);
    const cmp = cmpOf(c, 5);
    const imm = num(c, 2) >>> 0;
    const fmt = mod & 0x38;
    if (imm === 0) return newCond({ k: 'fcmp', cmp, a, b: -1, at });
    let bits: number;
    if (fmt === 16) bits = (imm << 16) >>> 0;
    else if (fmt === 32 || fmt === 0) bits = imm;
    else throw notYet(`${c.name} with an FP16A scalar`, at);
    const id = trace.newId();
    trace.push({ k: 'fimm', id, bits, cmp: true, at });
    return newCond({ k: 'fcmp', cmp, a, b: id, at });
  });
  // sfpxfcmpv(x, y, mod): x OP y as (x - y) OP 0, the difference by SFPMAD y * -1 + x (gold smoke.S)
  builtins.set(`${prefix}sfpxfcmpv`, (c) =>
    newCond({ k: 'fcmp', cmp: cmpOf(c, 2), a: vec(c, 0), b: vec(c, 1), at: loc(c) }),
  );
  // sfpxbool(op, a, b): SFPXBOOL_MOD1_OR 1, AND 2, NOT 3 (of a)
  builtins.set('__builtin_rvtt_sfpxbool', (c) => {
    const op = num(c, 0);
    const a = condArg(c, 1);
    if (op === 3) return newCond({ k: 'not', a });
    if (op !== 1 && op !== 2)
      throw badInput(`${c.name}: operation ${op} is not OR 1, AND 2 or NOT 3`, { location: loc(c) });
    return newCond({ k: op === 1 ? 'or' : 'and', a, b: condArg(c, 2) });
  });
  builtins.set('__builtin_rvtt_sfpxcondb', (c) => {
    trace.push({ k: 'cond', cond: condArg(c, 0), at: loc(c) });
    return undefined;
  });
  builtins.set('__builtin_rvtt_sfpxcondi', (c) => {
    const cc = condArg(c, 0);
    const id = trace.newId();
    trace.push({ k: 'condval', id, cond: cc, at: loc(c) });
    trace.condOf.set(id, cc);
    return int(HANDLE + id);
  });
  // sfpconfig_v(v, dest): SFPCONFIG dest from LReg 0 (rvtt-wh.md: the operand's constraint is "x0")
  builtins.set(`${prefix}sfpconfig_v`, (c) => {
    const v = vec(c, 0);
    trace.push({
      k: 'insn',
      name: 'SFPCONFIG',
      vregs: [['', v]],
      fields: { config_dest: num(c, 1) },
      want: [[v, 0]],
      keep: true,
      at: loc(c),
    });
    return undefined;
  });
  for (const n of [
    `${prefix.slice('__builtin_rvtt_'.length)}sfpswap`,
    `${prefix.slice('__builtin_rvtt_'.length)}sfptransp`,
  ])
    builtins.set(`__builtin_rvtt_${n}`, (c) => {
      throw notYet(`raw builtin ${c.name}`, loc(c));
    });
}
