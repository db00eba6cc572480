/**
 * sfpi's compiler tests as a corpus (issue 12): every function of `tests/{wormhole,blackhole}/sfpi/*.cc`
 * and `tests/{arch}/gcc/*.cc` is compiled by axsim and its instruction sequence compared with the
 * gold listing (`gold/*.S`, sfpi-gcc's output) up to register renaming and NOP placement.
 *
 * - Gold listings are read as text: per function, its Tensix instructions in order, TTREPLAY
 *   expanded (a recording `TTREPLAY start, len, exec, 1` keeps the next `len` instructions when
 *   `exec` is 1 and drops them otherwise; a replay `TTREPLAY start, len, 0, 0` inserts them), SFPNOP
 *   dropped. RISC-V instructions are counted: a function with RISC-V code besides `ret` (run-time
 *   operands written through the instruction buffer, branches on run-time arguments) has no
 *   single instruction sequence to compare with, and is reported as such.
 * - axsim's words are decoded with the macro table and printed in the listing's operand order.
 * - Registers L0..L7 are renamed by a bijection built while comparing; L8..L15 (constants) must match.
 *
 * Nothing of sfpi is stored here: the runner reads a local checkout (`AXSIM_SFPI`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AxsimError } from '../../errors.ts';
import { archTables } from '../asm/tables.ts';
import type { Arch } from '../encoding.ts';
import { runGoldRiscv } from './goldrv.ts';

/** One instruction in the listing's form: name and operands ('L3' or a number). */
export interface GoldInsn {
  name: string;
  ops: (string | number)[];
}

export interface GoldFunction {
  /** The mangled name (`_Z8test_addv`). */
  symbol: string;
  /** The C++ name (`test_add`) and its parameter count (from the mangling). */
  name: string;
  params: number;
  /** Tensix instructions after replay expansion, NOPs dropped. */
  insns: GoldInsn[];
  /** RISC-V instructions other than `ret` (run-time operands, branches, calls). */
  riscv: number;
  /** The function's lines in order (labels, Tensix and RISC-V instructions), for goldrv.ts. */
  lines: GoldLine[];
}

/** One line of a gold function: a local label, or an instruction with its operand text. */
export interface GoldLine {
  label?: string;
  name?: string;
  args?: string;
}

const TENSIX = /^(SFP\w+|TT\w+)$/;

/** Operand positions that are 12-bit / 16-bit immediates, per instruction (listing order). */
const IMM12: Record<string, number> = {
  SFPIADD: 2,
  SFPSHFT: 2,
  SFPSETEXP: 2,
  SFPSETMAN: 2,
  SFPSETSGN: 2,
  SFPDIVP2: 2,
  SFPSETCC: 1,
  SFPENCC: 0,
};
const IMM16: Record<string, number> = { SFPLOADI: 1, SFPADDI: 1, SFPMULI: 1 };

/**
 * Operands an instruction does not read in the form it has, written as any register by the compilers:
 * not compared. SFPSHFT with mod1 bit 0 (the immediate form) shifts VD by the immediate; its VC field
 * is unused (sfpi-gcc writes L0, rvtt-wh.md `SFPSHFT %0, L0, %2, 1`; the ISA's SFPSHFT reads VC only
 * in the register form). Likewise SFPSETCC's VC with Mod1 CLEAR or IMM_BIT0.
 */
export function unread(i: GoldInsn): number[] {
  if (i.name === 'SFPSHFT' && typeof i.ops[3] === 'number' && (i.ops[3] & 1) === 1) return [1];
  // SFPSETCC with Mod1 CLEAR (8) or IMM_BIT0 (1) sets the flags without reading VC (SFPSETCC.md)
  if (i.name === 'SFPSETCC' && typeof i.ops[2] === 'number' && (i.ops[2] & 9) !== 0) return [0];
  return [];
}

function parseOperand(s: string): string | number {
  const t = s.trim();
  if (/^L\d+$/.test(t)) return t;
  if (/^-?\d+$/.test(t)) return Number(t);
  if (/^0x[0-9a-f]+$/i.test(t)) return Number(t);
  return t;
}

function normaliseImm(name: string, ops: (string | number)[]): (string | number)[] {
  const out = [...ops];
  const i12 = IMM12[name];
  if (i12 !== undefined && typeof out[i12] === 'number') out[i12] = (out[i12] as number) & 0xfff;
  // SFPSETSGN's immediate is one bit (Imm1, the new sign: tt-isa-documentation SFPSETSGN.md); sfpi-gcc
  // prints the 12-bit value it was given, axsim's encoder keeps the field the ISA defines
  if (name === 'SFPSETSGN' && typeof out[2] === 'number') out[2] = (out[2] as number) & 1;
  const i16 = IMM16[name];
  if (i16 !== undefined && typeof out[i16] === 'number') out[i16] = (out[i16] as number) & 0xffff;
  return out;
}

/** Expands TTREPLAY (see the module comment); SFPNOP is dropped after expansion. */
export function expandReplay(insns: readonly GoldInsn[]): GoldInsn[] {
  const slots = new Map<number, GoldInsn>();
  const out: GoldInsn[] = [];
  let rec: { at: number; left: number; exec: boolean } | undefined;
  for (const i of insns) {
    if (i.name === 'TTREPLAY' || i.name === 'REPLAY') {
      const [start, len, exec, load] = i.ops as number[];
      if (load) rec = { at: start!, left: len!, exec: !!exec };
      else for (let k = 0; k < len!; k++) if (slots.has(start! + k)) out.push(slots.get(start! + k)!);
      continue;
    }
    if (rec && rec.left > 0) {
      slots.set(rec.at++, i);
      rec.left--;
      if (rec.exec) out.push(i);
      continue;
    }
    out.push(i);
  }
  return out.filter((i) => i.name !== 'SFPNOP');
}

/**
 * `_Z8test_addv` -> test_add, 0 parameters; `_Z13calculate_absILb0EEvv` -> calculate_abs<false>
 * (template arguments: bool, int, enum values; the return type follows them). Other forms (and
 * `.isra` clones, whose parameters the compiler rewrote) give params -1.
 */
export function demangle(symbol: string): { name: string; params: number } {
  const m = /^_Z(\d+)(.*)$/.exec(symbol);
  if (!m || symbol.includes('.')) return { name: symbol, params: -1 };
  const n = Number(m[1]);
  let name = m[2]!.slice(0, n);
  let rest = m[2]!.slice(n);
  if (rest.startsWith('I')) {
    const targs: string[] = [];
    rest = rest.slice(1);
    for (;;) {
      let t: RegExpExecArray | null;
      if ((t = /^Lb([01])E/.exec(rest))) targs.push(t[1] === '1' ? 'true' : 'false');
      else if ((t = /^L[ijlmst](n?)(\d+)E/.exec(rest))) targs.push(`${t[1] ? '-' : ''}${t[2]}`);
      else if ((t = /^L(\d+)(\w+?)(\d+)E/.exec(rest)) && t[2]!.length === Number(t[1]))
        targs.push(`static_cast<${t[2]}>(${t[3]})`);
      else break;
      rest = rest.slice(t[0].length);
    }
    if (!rest.startsWith('E') || !rest.startsWith('Ev')) return { name: symbol, params: -1 };
    name = `${name}<${targs.join(', ')}>`;
    rest = rest.slice(2); // E, then the return type (void)
  }
  if (rest === 'v') return { name, params: 0 };
  if (/^[ijlmsthabcfd]+$/.test(rest)) return { name, params: rest.length };
  return { name, params: -1 };
}

/** A Tensix instruction line of a listing in the comparison's form; undefined for other lines. */
export function parseTensixLine(name: string, args: string | undefined): GoldInsn | undefined {
  if (!TENSIX.test(name)) return undefined;
  const ops = args ? args.split(',').map(parseOperand) : [];
  return { name, ops: normaliseImm(name, ops) };
}

/**
 * The functions of a gold listing (sfpi-gcc `-S` output). With `arch`, a raw `.word (N)` (a TTI_ macro
 * in the source, emitted as inline asm after TRISC_OP_SWIZZLE) is decoded as the instruction it is; without, it is skipped.
 */
export function parseGold(text: string, arch?: Arch): GoldFunction[] {
  const out: GoldFunction[] = [];
  let cur: { symbol: string; raw: GoldInsn[]; riscv: number; lines: GoldLine[] } | undefined;
  const finish = () => {
    if (!cur) return;
    const { name, params } = demangle(cur.symbol);
    out.push({
      symbol: cur.symbol,
      name,
      params,
      insns: expandReplay(cur.raw),
      riscv: cur.riscv,
      lines: cur.lines,
    });
    cur = undefined;
  };
  for (const line of text.split('\n')) {
    const label = /^([A-Za-z_.$][\w.$]*):\s*$/.exec(line);
    if (label) {
      if (label[1]!.startsWith('_Z') && !label[1]!.startsWith('_ZN')) {
        finish();
        cur = { symbol: label[1]!, raw: [], riscv: 0, lines: [] };
      } else cur?.lines.push({ label: label[1]! });
      continue;
    }
    if (!cur) continue;
    const t = line.replace(/#.*$/, '').trim();
    const word = arch ? /^\.word\s+\(?\s*(-?\d+)\s*\)?$/.exec(t) : null;
    if (word) {
      // the macro's word went through TRISC_OP_SWIZZLE (ckernel_ops.h): rotated left by 2
      const n = Number(word[1]) >>> 0;
      cur.raw.push(decodeWord(((n >>> 2) | ((n & 3) << 30)) >>> 0, arch!));
      continue;
    }
    if (!t || t.startsWith('.')) {
      if (t.startsWith('.size')) finish();
      continue;
    }
    const sp = t.search(/\s/);
    const name = sp < 0 ? t : t.slice(0, sp);
    const args = sp < 0 ? '' : t.slice(sp).trim();
    cur.lines.push({ name, args });
    const tensix = parseTensixLine(name, args);
    if (tensix) cur.raw.push(tensix);
    else if (name !== 'ret') cur.riscv++;
  }
  finish();
  return out;
}

/** The listing's operand order for axsim's instructions, by tt-llk macro argument name ('L' = register). */
const ORDER: Record<string, string[]> = {
  SFPLOAD: ['Llreg_ind', 'dest_reg_addr', 'instr_mod0', 'sfpu_addr_mode'],
  SFPSTORE: ['dest_reg_addr', 'Llreg_ind', 'instr_mod0', 'sfpu_addr_mode'],
  SFPLOADI: ['Llreg_ind', 'imm16', 'instr_mod0'],
  SFPMAD: ['Llreg_dest', 'Llreg_src_a', 'Llreg_src_b', 'Llreg_src_c', 'instr_mod1'],
  SFPADD: ['Llreg_dest', 'Llreg_src_a', 'Llreg_src_b', 'Llreg_src_c', 'instr_mod1'],
  SFPMUL: ['Llreg_dest', 'Llreg_src_a', 'Llreg_src_b', 'Llreg_src_c', 'instr_mod1'],
  SFPMUL24: ['Llreg_dest', 'Llreg_src_a', 'Llreg_src_b', 'Llreg_src_c', 'instr_mod1'],
  SFPARECIP: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPGT: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPLE: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPADDI: ['Llreg_dest', 'imm16_math', 'instr_mod1'],
  SFPMULI: ['Llreg_dest', 'imm16_math', 'instr_mod1'],
  SFPSETCC: ['Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPENCC: ['imm12_math', 'instr_mod1'],
  SFPPUSHC: ['instr_mod1'],
  SFPPOPC: ['instr_mod1'],
  SFPCOMPC: [],
  SFPNOP: [],
  SFPAND: ['Llreg_dest', 'Llreg_c'],
  SFPOR: ['Llreg_dest', 'Llreg_c'],
  SFPXOR: ['Llreg_dest', 'Llreg_c'],
  SFPMOV: ['Llreg_dest', 'Llreg_c', 'instr_mod1'],
  SFPABS: ['Llreg_dest', 'Llreg_c', 'instr_mod1'],
  SFPEXEXP: ['Llreg_dest', 'Llreg_c', 'instr_mod1'],
  SFPEXMAN: ['Llreg_dest', 'Llreg_c', 'instr_mod1'],
  SFPNOT: ['Llreg_dest', 'Llreg_c'],
  SFPLZ: ['Llreg_dest', 'Llreg_c', 'instr_mod1'],
  SFPCAST: ['Llreg_dest', 'Llreg_src_c', 'instr_mod1'],
  SFPIADD: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPSHFT: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPSETEXP: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPSETMAN: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPSETSGN: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPDIVP2: ['Llreg_dest', 'Llreg_c', 'imm12_math', 'instr_mod1'],
  SFPSHFT2: ['Llreg_dest', 'Llreg_src_c', 'imm12_math', 'instr_mod1'],
  SFPLUT: ['Llreg_ind', 'instr_mod0'],
  SFPLUTFP32: ['Llreg_dest', 'instr_mod1'],
  SFPCONFIG: ['config_dest', 'imm16_math', 'instr_mod1'],
  SFPSTOCHRND: ['Llreg_dest', 'Llreg_src_b', 'Llreg_src_c', 'instr_mod1', 'rnd_mode', 'imm8_math'],
  INCRWC: ['rwc_cr', 'rwc_d', 'rwc_b', 'rwc_a'],
  REPLAY: ['start_idx', 'len', 'execute_while_loading', 'load_mode'],
};
/** axsim's macro name -> the listing's mnemonic where they differ. */
const MNEMONIC: Record<string, string> = {
  INCRWC: 'TTINCRWC',
  REPLAY: 'TTREPLAY',
  SFP_STOCH_RND: 'SFPSTOCHRND',
};

/** One instruction word in the listing's form. */
export function decodeWord(word: number, arch: Arch): GoldInsn {
  const w = word >>> 0;
  const def = archTables(arch).macroByOpcode.get(w >>> 24);
  if (!def) return { name: `?0x${w.toString(16)}`, ops: [] };
  const val = new Map(def.args.map((a) => [a.name, (w >>> a.shift) & (2 ** a.width - 1)]));
  const mnemonic = MNEMONIC[def.name] ?? def.name;
  const order = ORDER[def.name === 'SFP_STOCH_RND' ? 'SFPSTOCHRND' : def.name];
  const ops = order
    ? order.map((f) => (f.startsWith('L') ? `L${val.get(f.slice(1)) ?? 0}` : (val.get(f) ?? 0)))
    : def.args.map((a) => val.get(a.name)!);
  return { name: mnemonic, ops: normaliseImm(mnemonic, ops) };
}

/** axsim's words in the listing's form (replays expanded, NOPs dropped). */
export function wordsAsListing(words: ArrayLike<number>, arch: Arch): GoldInsn[] {
  const out: GoldInsn[] = [];
  for (let k = 0; k < words.length; k++) out.push(decodeWord(words[k]!, arch));
  return expandReplay(out);
}

export type Verdict = 'identical' | 'reordered' | 'differs' | 'not comparable' | 'error';

export interface Comparison {
  verdict: Verdict;
  /** First differing position and both instructions, for 'differs'. */
  detail?: string;
}

const text = (i: GoldInsn | undefined) => (i ? `${i.name} ${i.ops.join(', ')}`.trim() : '(end)');

/** How each listing operand is used: written, read, read and written, or not a register. */
type Use = 'w' | 'r' | 'rw' | '-';
const SIG: Record<string, Use[]> = {
  SFPLOAD: ['w', '-', '-', '-'],
  SFPSTORE: ['-', 'r', '-', '-'],
  SFPLOADI: ['w', '-', '-'],
  SFPMAD: ['w', 'r', 'r', 'r', '-'],
  SFPADD: ['w', 'r', 'r', 'r', '-'],
  SFPMUL: ['w', 'r', 'r', 'r', '-'],
  SFPADDI: ['rw', '-', '-'],
  SFPMULI: ['rw', '-', '-'],
  SFPSETCC: ['r', '-', '-'],
  SFPAND: ['rw', 'r'],
  SFPOR: ['rw', 'r'],
  SFPXOR: ['rw', 'r'],
  SFPMOV: ['w', 'r', '-'],
  SFPABS: ['w', 'r', '-'],
  SFPEXEXP: ['w', 'r', '-'],
  SFPEXMAN: ['w', 'r', '-'],
  SFPNOT: ['w', 'r'],
  SFPLZ: ['w', 'r', '-'],
  SFPCAST: ['w', 'r', '-'],
  SFPIADD: ['w', 'r', '-', '-'],
  SFPSHFT: ['rw', 'r', '-', '-'],
  SFPSETEXP: ['w', 'r', '-', '-'],
  SFPSETMAN: ['w', 'r', '-', '-'],
  SFPSETSGN: ['w', 'r', '-', '-'],
  SFPDIVP2: ['w', 'r', '-', '-'],
  SFPSHFT2: ['w', 'r', '-', '-'],
  SFPSTOCHRND: ['w', 'r', 'r', '-', '-', '-'],
  SFPLUT: ['rw', '-'],
  SFPLUTFP32: ['w', '-'],
  SFPENCC: ['-', '-'],
  SFPPUSHC: ['-'],
  SFPPOPC: ['-'],
  SFPCOMPC: [],
};

/**
 * The operand uses of one instruction (by its mode where the mode decides), and the registers it reads
 * without naming them (SFPLUT's table L0..L2, SFPLUTFP32's L0..L6, SFPCONFIG's L0). Undefined: an
 * instruction this table does not know; its operands are compared as written.
 */
function usesOfInsn(i: GoldInsn): { sig: Use[]; implicit: string[] } | undefined {
  const base = SIG[i.name];
  if (i.name === 'SFPCONFIG') return { sig: ['-', '-', '-'], implicit: ['L0'] };
  if (!base || base.length !== i.ops.length) return undefined;
  const sig = [...base];
  const mod = (k: number) => (typeof i.ops[k] === 'number' ? (i.ops[k] as number) : 0);
  // SFPIADD: VD = VC + VD (mod1 0) / VC - VD (2); the immediate form (1) only writes VD
  if (i.name === 'SFPIADD' && (mod(3) & 3) !== 1) sig[0] = 'rw';
  // SFPSETEXP/MAN/SGN register form (mod1 bit 0 clear) take a part of VD
  if ((i.name === 'SFPSETEXP' || i.name === 'SFPSETMAN' || i.name === 'SFPSETSGN') && (mod(3) & 1) === 0)
    sig[0] = 'rw';
  // SFPSHFT immediate form: VC unread (see unread())
  if (i.name === 'SFPSHFT' && (mod(3) & 1) === 1) sig[1] = '-';
  // SFPLOADI LOWER (10) keeps the upper half written before it
  if (i.name === 'SFPLOADI' && mod(2) === 10) sig[0] = 'rw';
  const implicit =
    i.name === 'SFPLUT'
      ? ['L0', 'L1', 'L2']
      : i.name === 'SFPLUTFP32'
        ? ['L0', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6']
        : [];
  return { sig, implicit };
}

/** Whether an instruction leaves lanes disabled (a later write then keeps the old value in them). */
function ccAfter(i: GoldInsn, cc: boolean): boolean {
  const m = (k: number) => (typeof i.ops[k] === 'number' ? (i.ops[k] as number) : 0);
  if (i.name === 'SFPSETCC' || i.name === 'SFPCOMPC') return true;
  if (i.name === 'SFPENCC') return !(m(0) === 3 && m(1) === 10); // ENCC 3, 10: every lane enabled, CC off
  if (i.name === 'SFPIADD' && (m(3) & 4) === 0) return true; // a CC mode (LT0 / GTE0)
  if ((i.name === 'SFPEXEXP' || i.name === 'SFPLZ') && (m(2) & 2) !== 0) return true;
  return cc;
}

/**
 * Compares two sequences up to register renaming, by dataflow: the same instructions with the same
 * immediates and constant registers (L8..L15) in the same order, where every register an instruction
 * reads holds the value the same earlier instruction wrote (or the same register's value on entry).
 * An instruction that keeps part of its destination (SFPADDI, SFPAND, …, by its mode SFPIADD,
 * SFPSETEXP, …) reads it; so does any write while lanes may be disabled, when the old value was read
 * before (a conditional assignment keeps the variable's old value in the disabled lanes). Registers an
 * instruction reads implicitly (SFPLUT's table in L0..L2, SFPCONFIG's L0) are compared the same way.
 */
export function compareListings(gold: readonly GoldInsn[], ours: readonly GoldInsn[]): Comparison {
  type Side = { writer: Map<string, number>; read: Set<string>; cc: boolean };
  const side = (): Side => ({ writer: new Map(), read: new Set(), cc: false });
  const g = side();
  const a = side();
  const isL = (o: unknown): o is string => typeof o === 'string' && /^L[0-7]$/.test(o);
  /** The version a register holds: the index of its writer, or its name on entry. */
  const ver = (s: Side, r: string) => (s.writer.has(r) ? `@${s.writer.get(r)}` : `in:${r}`);
  /**
   * Writes made while lanes may be disabled keep the old value in those lanes. Which old value matters
   * only once the result is read with more lanes enabled (after a POPC / COMPC / ENCC): then the old
   * values must be the same, or both never read before (undefined in both).
   */
  const merged = new Map<string, { g: string; a: string; epoch: number; undef: boolean }>();
  let epoch = 0;
  const n = Math.max(gold.length, ours.length);
  const fail = (k: number): Comparison => ({
    verdict: sameMultiset(gold, ours) ? 'reordered' : 'differs',
    detail: `#${k + 1}: gold '${text(gold[k])}', axsim '${text(ours[k])}'`,
  });
  /** A read of register p (gold) / q (axsim): the same version, and its kept lanes the same. */
  const readOk = (p: string, q: string): boolean => {
    const vg = ver(g, p);
    if (vg !== ver(a, q)) return false;
    const m = merged.get(vg);
    if (m && epoch > m.epoch && m.g !== m.a && !m.undef) return false;
    g.read.add(vg);
    a.read.add(vg);
    return true;
  };
  for (let k = 0; k < n; k++) {
    const x = gold[k];
    const y = ours[k];
    if (!x || !y || x.name !== y.name || x.ops.length !== y.ops.length) return fail(k);
    const u = usesOfInsn(x);
    const skip = unread(x);
    const writes: [string, string][] = [];
    for (let j = 0; j < x.ops.length; j++) {
      if (skip.includes(j)) continue;
      const p = x.ops[j];
      const q = y.ops[j];
      const use = u?.sig[j] ?? '-';
      if (!u || use === '-' || !isL(p) || !isL(q)) {
        if (p !== q) return fail(k);
        continue;
      }
      // a lone SFPLOADI LOWER keeps the upper half of whatever the register held: when that was never
      // read (an entry value or a dead one) it is undefined in both (sfpi-gcc's live operand `E`)
      const undefinedHalf =
        x.name === 'SFPLOADI' &&
        !g.read.has(ver(g, p)) &&
        !a.read.has(ver(a, q)) &&
        g.writer.get(p) !== k - 1;
      if ((use === 'r' || (use === 'rw' && !undefinedHalf)) && !readOk(p, q)) return fail(k);
      if (use !== 'r') writes.push([p, q]);
    }
    for (const r of u?.implicit ?? []) if (!readOk(r, r)) return fail(k);
    // (SFPMOV mod 2, sfpi-gcc's register move, copies every lane whatever the CC)
    const merges = (g.cc || a.cc) && !(x.name === 'SFPMOV' && x.ops[2] === 2);
    for (const [p, q] of writes) {
      const og = ver(g, p);
      const oa = ver(a, q);
      if (merges) merged.set(`@${k}`, { g: og, a: oa, epoch, undef: !g.read.has(og) && !a.read.has(oa) });
      g.writer.set(p, k);
      a.writer.set(q, k);
    }
    g.cc = ccAfter(x, g.cc);
    a.cc = ccAfter(y, a.cc);
    if (x.name === 'SFPPOPC' || x.name === 'SFPCOMPC' || x.name === 'SFPENCC') epoch++;
  }
  return { verdict: 'identical' };
}

function sameMultiset(a: readonly GoldInsn[], b: readonly GoldInsn[]): boolean {
  if (a.length !== b.length) return false;
  const key = (i: GoldInsn) =>
    `${i.name} ${i.ops.map((o, k) => (unread(i).includes(k) ? '-' : typeof o === 'string' && /^L[0-7]$/.test(o) ? 'L' : o)).join(',')}`;
  const m = new Map<string, number>();
  for (const i of a) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  for (const i of b) {
    const c = m.get(key(i));
    if (!c) return false;
    m.set(key(i), c - 1);
  }
  return true;
}

/** One row of the corpus table. */
export interface GoldRow {
  arch: Arch;
  file: string;
  fn: string;
  verdict: Verdict;
  gold: number;
  axsim?: number;
  detail?: string;
  /** A function with RISC-V code: the comparison of its run with the arguments bound (not counted). */
  bound?: Verdict;
}

/** Compiles one function of a test file to words (injected: the runner passes compileSfpi). */
export type CompileFn = (
  source: string,
  arch: Arch,
  file: string,
  entry: string,
  includeDirs: string[],
) => number[];

/** The test files and their gold listings under a checkout of tenstorrent/sfpi. */
export function goldFiles(root: string, arch: Arch): { cc: string; gold: string }[] {
  const out: { cc: string; gold: string }[] = [];
  for (const sub of ['sfpi', 'gcc']) {
    const dir = join(root, 'tests', arch, sub);
    if (!existsSync(join(dir, 'gold'))) continue;
    for (const g of readdirSync(join(dir, 'gold')).sort()) {
      if (!g.endsWith('.S')) continue;
      const cc = join(dir, g.replace(/\.S$/, '.cc'));
      if (existsSync(cc)) out.push({ cc, gold: join(dir, 'gold', g) });
    }
  }
  return out;
}

/**
 * The argument values a function with RISC-V code is compared at: every parameter bound to the same
 * value, once per value (3: a loop count, Dst address or immediate that is neither 0 nor 1; 0: the
 * other side of a test against zero).
 */
export const BINDINGS = [3, 0];

export function runGoldCorpus(
  root: string,
  arches: readonly Arch[],
  compile: CompileFn,
  only?: string[],
): GoldRow[] {
  const rows: GoldRow[] = [];
  for (const arch of arches) {
    for (const { cc, gold } of goldFiles(root, arch)) {
      const file = `${basename(dirname(cc))}/${basename(cc)}`;
      if (only && !only.some((o) => file.includes(o))) continue;
      const source = readFileSync(cc, 'utf8');
      const includeDirs = [dirname(cc), join(root, 'tests', 'common', 'include')];
      for (const fn of parseGold(readFileSync(gold, 'utf8'), arch)) {
        const row: GoldRow = { arch, file, fn: fn.name, verdict: 'error', gold: fn.insns.length };
        rows.push(row);
        if (fn.params < 0) {
          row.verdict = 'not comparable';
          row.detail = 'not a plain function (a GCC clone with rewritten parameters)';
          continue;
        }
        // with RISC-V code: the gold function run with its arguments bound (goldrv.ts), once per binding
        const bindings = fn.riscv > 0 ? BINDINGS : [0];
        const golds: GoldInsn[][] = [];
        let built = 0;
        try {
          for (const v of bindings) {
            if (fn.riscv === 0) golds.push(fn.insns);
            else {
              const r = runGoldRiscv(fn.lines, Array(fn.params).fill(v), arch);
              golds.push(r.insns);
              if (golds.length === 1) built = r.built;
            }
          }
        } catch (e) {
          row.verdict = 'not comparable';
          row.detail = e instanceof AxsimError ? e.message.split('\n')[0] : String(e);
          continue;
        }
        try {
          let last: Comparison = { verdict: 'identical' };
          let at = bindings[0]!;
          for (let b = 0; b < bindings.length; b++) {
            const args = Array(fn.params).fill(String(bindings[b])).join(', ');
            const entry = fn.params === 0 ? fn.name : `${fn.name}(${args})`;
            const ours = wordsAsListing(compile(source, arch, cc, entry, includeDirs), arch);
            row.gold = golds[b]!.length;
            row.axsim = ours.length;
            last = compareListings(golds[b]!, ours);
            at = bindings[b]!;
            if (last.verdict !== 'identical') break;
          }
          row.verdict = last.verdict;
          row.detail = last.detail;
          if (fn.riscv > 0) {
            // The gold is sfpi-gcc's code for arguments it does not know: instruction words built at run
            // time (the non-immediate path those tests exist for), or code for both outcomes of a run-time
            // test (values computed before the branch that only one side reads). axsim knows the
            // arguments and emits the code of one case, so the two differ by construction: the bound
            // comparison is reported, not counted (docs/sfpi-gold.md).
            const kind =
              built > 0 ? `builds ${built} instruction words at run time` : 'branches on its arguments';
            row.detail = `the gold ${kind}; executed with the arguments bound: ${last.verdict}${last.verdict === 'identical' ? ` (bound to ${bindings.join(' and ')})` : ` — ${last.detail} (bound to ${at})`}`;
            row.bound = last.verdict;
            row.verdict = 'not comparable';
          }
        } catch (e) {
          row.verdict = fn.riscv > 0 ? 'not comparable' : 'error';
          row.detail = e instanceof AxsimError ? e.message.split('\n')[0] : `internal: ${String(e)}`;
          if (fn.riscv > 0) row.detail = `the gold has RISC-V code; axsim does not compile it: ${row.detail}`;
        }
      }
    }
  }
  return rows;
}

export function goldSummary(rows: readonly GoldRow[]): string {
  const lines: string[] = [];
  for (const arch of new Set(rows.map((r) => r.arch))) {
    const rs = rows.filter((r) => r.arch === arch);
    const n = (v: Verdict) => rs.filter((r) => r.verdict === v).length;
    const comparable = rs.length - n('not comparable');
    const bound = rs.filter((r) => r.bound !== undefined);
    lines.push(
      `${arch}: ${rs.length} functions; ${comparable} comparable: ${n('identical')} identical (${((100 * n('identical')) / comparable).toFixed(1)}%), ${n('reordered')} same instructions in another order, ${n('differs')} differ, ${n('error')} not compiled; ${n('not comparable')} not comparable (${bound.length} run with their arguments bound: ${bound.filter((r) => r.bound === 'identical').length} identical)`,
    );
  }
  return lines.join('\n');
}

/** One row per test function: the verdict per arch, and the first difference or reason (per arch when they differ). */
export function goldTable(rows: readonly GoldRow[]): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  const arches = [...new Set(rows.map((r) => r.arch))];
  const keys: string[] = [];
  const by = new Map<string, Map<Arch, GoldRow>>();
  for (const r of rows) {
    const k = `${r.file}\u0000${r.fn}`;
    if (!by.has(k)) {
      by.set(k, new Map());
      keys.push(k);
    }
    by.get(k)!.set(r.arch, r);
  }
  const out = [
    `| file | function | ${arches.join(' | ')} | gold / axsim instructions | first difference or reason |`,
    `|---|---|${arches.map(() => '---|').join('')}---|---|`,
  ];
  for (const k of keys) {
    const m = by.get(k)!;
    const first = m.get(arches[0]!) ?? [...m.values()][0]!;
    const details = [...new Set([...m.values()].map((r) => r.detail ?? ''))];
    const detail =
      details.length === 1
        ? details[0]!
        : [...m.values()].map((r) => `${r.arch}: ${r.detail ?? ''}`).join('; ');
    out.push(
      `| ${first.file} | ${first.fn} | ${arches.map((a) => m.get(a)?.verdict ?? '-').join(' | ')} | ${first.gold} / ${first.axsim ?? '-'} | ${esc(detail)} |`,
    );
  }
  return out.join('\n');
}
