/**
 * The SFPI compiler's passes over a trace (trace.ts), each on its own (docs/sfpi.md):
 *   combine  — MAD fusion of a*b+c (the product used once, no CC change between), dead-value removal
 *              (sfpi-gcc gimple-rvtt-combine.cc does the fusion; GCC's DCE the rest)
 *   lower    — trace nodes to SFPU instructions on virtual registers (sfpi include/sfpi.h,
 *              sfpi_lib.h: which instruction each operation is; sfpi-gcc rvtt.cc for SFPLOADI
 *              single vs pair and the CC sequence: no PUSHC/POPC at the outermost level, SFPENCC 3,10
 *              at its end, PUSHC/COMPC/POPC inside)
 *   regalloc — the 8 general LRegs, constants in their fixed LRegs 8..11; no spilling: a kernel that
 *              needs a 9th live value is the compiler's "cannot store sfpu register (register spill)"
 *              error at the line that needs it
 *   nops     — Wormhole: an SFPNOP after a MAD-class instruction whose result the next instruction
 *              reads (sfpi-gcc rtl-rvtt-schedule.cc); Blackhole: none (the hardware waits)
 */
import { badInput } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { type Loc, notYet, type TraceOp } from './trace.ts';

/** A machine instruction on virtual registers; `args` builds the macro arguments (tt-llk order). */
export interface MInsn {
  name: string;
  /** Virtual register written (a new value). */
  def?: number;
  /** Virtual registers read. */
  uses: number[];
  /** `def` must be placed in the register of this (dying) value: conditional writes. */
  tied?: number;
  /** Read-modify-write of `def`'s own register (the UPPER half of an SFPLOADI pair). */
  rw?: boolean;
  args: (reg: (v: number) => number) => number[];
  at: Loc;
}

const MAD_CLASS = new Set(['SFPMAD', 'SFPADD', 'SFPMUL', 'SFPMULI', 'SFPADDI']);
/** Fixed constant LRegs (VectorUnit.md): 0.8373, 0.0, 1.0, -1.0 (firmware-loaded L11). */
export const L_0 = 9;
export const L_1 = 10;
export const L_NEG1 = 11;

function usesOf(op: TraceOp): number[] {
  switch (op.k) {
    case 'store':
      return [op.src];
    case 'op':
      return [op.a, ...(op.b >= 0 ? [op.b] : []), ...(op.c !== undefined ? [op.c] : [])];
    case 'opi':
    case 'cmpz':
      return [op.a];
    case 'cmov':
      return op.old >= 0 ? [op.old, op.src] : [op.src];
    case 'cmp':
      return [op.a, op.b];
    default:
      return [];
  }
}
const defOf = (op: TraceOp): number | undefined => ('id' in op ? op.id : undefined);
const isCc = (op: TraceOp) =>
  op.k === 'if' || op.k === 'else' || op.k === 'endif' || op.k === 'cmp' || op.k === 'cmpz';

/** combine: a*b+c / c+a*b -> mad when the product has one use and no CC change lies between; then DCE. */
export function combine(input: readonly TraceOp[]): TraceOp[] {
  const ops = input.map((o) => ({ ...o })) as TraceOp[];
  const count = () => {
    const n = new Map<number, number>();
    for (const o of ops) for (const u of usesOf(o)) n.set(u, (n.get(u) ?? 0) + 1);
    return n;
  };
  const uses = count();
  const defAt = new Map<number, number>();
  ops.forEach((o, i) => {
    const d = defOf(o);
    if (d !== undefined) defAt.set(d, i);
  });
  const dead = new Set<number>();
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (o.k !== 'op' || o.op !== 'add') continue;
    for (const [m, other] of [
      [o.a, o.b],
      [o.b, o.a],
    ] as const) {
      const j = defAt.get(m);
      if (j === undefined) continue;
      const p = ops[j]!;
      if (p.k !== 'op' || p.op !== 'mul' || uses.get(m) !== 1) continue;
      if (ops.slice(j + 1, i).some(isCc)) continue;
      ops[i] = { k: 'op', id: o.id, op: 'mad', a: p.a, b: p.b, c: other, at: o.at };
      dead.add(j);
      break;
    }
  }
  let out = ops.filter((_, i) => !dead.has(i));
  // dead values: pure nodes whose value nobody reads (repeat: removing one may free its inputs)
  for (;;) {
    const n = new Map<number, number>();
    for (const o of out) for (const u of usesOf(o)) n.set(u, (n.get(u) ?? 0) + 1);
    const keep = out.filter((o) => {
      const d = defOf(o);
      return d === undefined || o.k === 'cmov' || (n.get(d) ?? 0) > 0;
    });
    if (keep.length === out.length) break;
    out = keep;
  }
  return out;
}

const SETCC_MOD: Record<string, number> = { lt: 0, ne: 2, ge: 4, eq: 6 };

/** lower: trace nodes -> instructions on virtual registers (value id = virtual register). */
export function lower(ops: readonly TraceOp[], arch: Arch): { insns: MInsn[]; fixed: Map<number, number> } {
  const noinc = arch === 'wormhole' ? 3 : 7; // SFPLOAD/SFPSTORE_ADDR_MODE_NOINC (sfpi_constants.h)
  const insns: MInsn[] = [];
  const fixed = new Map<number, number>();
  let temp = -1; // virtual registers for temporaries (negative ids)
  const loadi = (dst: number, bits: number, at: Loc, isInt: boolean) => {
    const lo = bits & 0xffff;
    const hi = (bits >>> 16) & 0xffff;
    if (!isInt && lo === 0) {
      insns.push({ name: 'SFPLOADI', def: dst, uses: [], args: (r) => [r(dst), 0, hi], at }); // FLOATB
    } else if (isInt && (bits | 0) >= -32768 && (bits | 0) <= 32767) {
      insns.push({ name: 'SFPLOADI', def: dst, uses: [], args: (r) => [r(dst), 4, lo], at }); // SHORT
    } else if (isInt && bits >>> 0 <= 0xffff) {
      insns.push({ name: 'SFPLOADI', def: dst, uses: [], args: (r) => [r(dst), 2, lo], at }); // USHORT
    } else {
      insns.push({ name: 'SFPLOADI', def: dst, uses: [], args: (r) => [r(dst), 2, lo], at }); // USHORT
      insns.push({ name: 'SFPLOADI', def: dst, rw: true, uses: [], args: (r) => [r(dst), 8, hi], at }); // UPPER
    }
  };
  const setcc = (v: number, cmp: string, at: Loc) => {
    const mods = cmp === 'gt' ? [4, 2] : [SETCC_MOD[cmp]!];
    for (const m of mods) insns.push({ name: 'SFPSETCC', uses: [v], args: (r) => [0, r(v), 0, m], at });
  };
  for (const o of ops) {
    const at = o.at;
    switch (o.k) {
      case 'load':
        insns.push({ name: 'SFPLOAD', def: o.id, uses: [], args: (r) => [r(o.id), 0, noinc, o.addr], at });
        break;
      case 'store':
        insns.push({ name: 'SFPSTORE', uses: [o.src], args: (r) => [r(o.src), 0, noinc, o.addr], at });
        break;
      case 'fimm':
        loadi(o.id, o.bits, at, false);
        break;
      case 'iimm':
        loadi(o.id, o.value >>> 0, at, true);
        break;
      case 'creg':
        fixed.set(o.id, o.lreg);
        break;
      case 'op': {
        const { id, a, b } = o;
        const mad = (x: (r: (v: number) => number) => number[], uses: number[]) =>
          insns.push({ name: 'SFPMAD', def: id, uses, args: (r) => [...x(r), r(id), 0], at });
        if (o.op === 'add') mad((r) => [r(a), L_1, r(b)], [a, b]);
        else if (o.op === 'sub') mad((r) => [r(b), L_NEG1, r(a)], [a, b]);
        else if (o.op === 'mul') mad((r) => [r(a), r(b), L_0], [a, b]);
        else if (o.op === 'mad') mad((r) => [r(a), r(b), r(o.c!)], [a, b, o.c!]);
        else if (o.op === 'neg')
          insns.push({ name: 'SFPMOV', def: id, uses: [a], args: (r) => [0, r(a), r(id), 1], at }); // COMPSIGN
        else if (o.op === 'fabs')
          insns.push({ name: 'SFPABS', def: id, uses: [a], args: (r) => [0, r(a), r(id), 1], at }); // FLOAT
        else if (o.op === 'exexp' || o.op === 'exexp_nodebias') {
          const m = o.op === 'exexp' ? 0 : 1;
          insns.push({ name: 'SFPEXEXP', def: id, uses: [a], args: (r) => [0, r(a), r(id), m], at });
        } else throw notYet(`operation '${o.op}'`, at);
        break;
      }
      case 'opi': {
        const name = o.op === 'setsgn' ? 'SFPSETSGN' : o.op === 'setexp' ? 'SFPSETEXP' : undefined;
        if (!name) throw notYet(`operation '${o.op}'`, at);
        const imm = o.imm & 0xfff;
        insns.push({ name, def: o.id, uses: [o.a], args: (r) => [imm, r(o.a), r(o.id), 1], at });
        break;
      }
      case 'cmov':
        insns.push({
          name: 'SFPMOV',
          def: o.id,
          uses: [o.src],
          tied: o.old >= 0 ? o.old : undefined,
          args: (r) => [0, r(o.src), r(o.id), 0],
          at,
        });
        break;
      case 'cmpz':
        if (o.cmp === 'le') {
          // x <= 0 as (0 - x) >= 0: MAD x * -1.0 + 0.0 (+0 for both zeros, so 0 <= 0 holds), SFPSETCC GTE0
          const t = temp--;
          insns.push({
            name: 'SFPMAD',
            def: t,
            uses: [o.a],
            args: (r) => [r(o.a), L_NEG1, L_0, r(t), 0],
            at,
          });
          setcc(t, 'ge', at);
        } else setcc(o.a, o.cmp, at);
        break;
      case 'cmp': {
        if (o.cmp === 'le') {
          // a <= b as (b - a) >= 0: MAD a * -1.0 + b, SFPSETCC GTE0
          const t = temp--;
          insns.push({
            name: 'SFPMAD',
            def: t,
            uses: [o.a, o.b],
            args: (r) => [r(o.a), L_NEG1, r(o.b), r(t), 0],
            at,
          });
          setcc(t, 'ge', at);
          break;
        }
        // a <op> b as (a - b) <op> 0: MAD b * -1.0 + a, then SFPSETCC on the difference (sfpi-gcc's
        // float compare; sfpi_imp.h / rvtt.cc)
        const t = temp--;
        insns.push({
          name: 'SFPMAD',
          def: t,
          uses: [o.a, o.b],
          args: (r) => [r(o.b), L_NEG1, r(o.a), r(t), 0],
          at,
        });
        setcc(t, o.cmp, at);
        break;
      }
      case 'if':
        if (o.depth > 0) insns.push({ name: 'SFPPUSHC', uses: [], args: () => [0, 0, 0, 0], at });
        break;
      case 'else':
        insns.push({ name: 'SFPCOMPC', uses: [], args: () => [0, 0, 0, 0], at });
        break;
      case 'elseif':
        // lanes of no earlier branch: complement, then a new level for this condition (sfpi's gold
        // listings: SFPCOMPC, SFPPUSHC, the compare, …, SFPPOPC before the chain's end)
        insns.push({ name: 'SFPCOMPC', uses: [], args: () => [0, 0, 0, 0], at });
        insns.push({ name: 'SFPPUSHC', uses: [], args: () => [0, 0, 0, 0], at });
        break;
      case 'endif':
        for (let k = 0; k < o.pops; k++)
          insns.push({ name: 'SFPPOPC', uses: [], args: () => [0, 0, 0, 0], at });
        if (o.depth > 0) insns.push({ name: 'SFPPOPC', uses: [], args: () => [0, 0, 0, 0], at });
        else insns.push({ name: 'SFPENCC', uses: [], args: () => [3, 0, 0, 10], at });
        break;
      case 'raw':
        insns.push({ name: '.word', uses: [], args: () => [o.word], at });
        break;
    }
  }
  return { insns, fixed };
}

/** regalloc: virtual -> physical LRegs 0..7 (linear scan over the straight-line code). */
export function regalloc(insns: readonly MInsn[], fixed: ReadonlyMap<number, number>): Map<number, number> {
  const last = new Map<number, number>();
  insns.forEach((m, i) => {
    for (const u of m.uses) last.set(u, i);
    if (m.tied !== undefined) last.set(m.tied, i);
    if (m.def !== undefined && !last.has(m.def)) last.set(m.def, i);
    if (m.rw && m.def !== undefined) last.set(m.def, i);
  });
  const phys = new Map<number, number>(fixed);
  const busy = new Set<number>();
  insns.forEach((m, i) => {
    for (const u of m.uses) if (last.get(u) === i && !fixed.has(u) && phys.has(u)) busy.delete(phys.get(u)!);
    if (m.def === undefined || m.rw) return;
    if (m.tied !== undefined) {
      if (fixed.has(m.tied))
        throw notYet('conditional assignment to a variable that holds a constant register (vConst*)', m.at);
      if (last.get(m.tied) !== i)
        throw notYet('conditional assignment to a variable whose earlier value is still used (a copy)', m.at);
      phys.set(m.def, phys.get(m.tied)!);
      return;
    }
    let r = 0;
    while (r < 8 && busy.has(r)) r++;
    if (r === 8)
      throw badInput('cannot store sfpu register (register spill): more than 8 SFPI values are live here', {
        location: m.at,
        hint: 'the SFPU has 8 general LRegs and SFPI does not spill; reload or recompute a value later instead of keeping it live',
      });
    busy.add(r);
    phys.set(m.def, r);
    if (last.get(m.def) === i) busy.delete(r);
  });
  return phys;
}

/** nops: Wormhole needs an independent instruction after a MAD-class one before its result is read. */
export function nops(insns: readonly MInsn[], phys: ReadonlyMap<number, number>, arch: Arch): MInsn[] {
  if (arch !== 'wormhole') return [...insns];
  const out: MInsn[] = [];
  insns.forEach((m, i) => {
    out.push(m);
    const n = insns[i + 1];
    if (!n || !MAD_CLASS.has(m.name) || m.def === undefined) return;
    const d = phys.get(m.def);
    const reads = [
      ...n.uses,
      ...(n.tied !== undefined ? [n.tied] : []),
      ...(n.rw && n.def !== undefined ? [n.def] : []),
    ];
    if (reads.some((u) => phys.get(u) === d))
      out.push({ name: 'SFPNOP', uses: [], args: () => [], at: m.at });
  });
  return out;
}

/** The instruction name and macro arguments of each instruction, registers resolved. */
export function resolve(
  insns: readonly MInsn[],
  phys: ReadonlyMap<number, number>,
): { name: string; args: number[]; at: Loc }[] {
  const reg = (v: number) => {
    const p = phys.get(v);
    if (p === undefined) throw new Error(`sfpi: virtual register ${v} has no register`);
    return p;
  };
  return insns.map((m) => ({ name: m.name, args: m.args(reg), at: m.at }));
}

/** All passes: trace -> resolved instructions. */
export function compileTrace(ops: readonly TraceOp[], arch: Arch) {
  const combined = combine(ops);
  const { insns, fixed } = lower(combined, arch);
  const phys = regalloc(insns, fixed);
  return resolve(nops(insns, phys, arch), phys);
}
