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
import { AxsimError, badInput } from '../../errors.ts';
import { archTables } from '../asm/tables.ts';
import type { Arch } from '../encoding.ts';
import { type Cond, condUses, type Loc, notYet, type TraceOp, type Tti } from './trace.ts';

/** A machine instruction on virtual registers; `args` builds the macro arguments (tt-llk order). */
export interface MInsn {
  name: string;
  /** Virtual register written (a new value). */
  def?: number;
  /** Virtual registers read. */
  uses: number[];
  /** `def` must be placed in the register of this (dying) value: conditional writes. */
  tied?: number;
  /**
   * With `tied`: the instruction overwrites that operand (SFPIADD, SFPAND, SFPADDI, …); when the
   * operand is still read later, or is a constant register, regalloc copies it first (SFPMOV).
   */
  copy?: boolean;
  /** Read-modify-write of `def`'s own register (the LOWER half of an SFPLOADI pair). */
  rw?: boolean;
  /** The SFPMOV of a conditional assignment (fuseCmov may let the value's definition write in place). */
  cmov?: boolean;
  /** `.lreg`: the value lives in this LReg from the start; `.lwrite`: the value must end up in it. */
  pin?: number;
  /** A commutative in-place instruction's other form: overwriting the other operand instead. */
  alt?: { tied: number; uses: number[]; args: MInsn['args'] };
  /** A second value written in place of a dying one (SFPSWAP writes both of its registers). */
  def2?: { def: number; tied: number };
  /** Operands that must be in given physical LRegs when this instruction runs (SFPLUT: table 0..2, input 3). */
  wantUses?: [number, number][];
  /** SFPTRANSP: each [new value, old value] pair shares the old value's LReg (all written in place). */
  inPlace?: [number, number][];
  /** A value read only to steer the instruction (SFPLUTFP32's LReg 7): the result does not take its register. */
  scratch?: number;
  /** A raw TTI_ word: the LRegs it reads and writes (values live across it are kept out of them). */
  tti?: Tti;
  /** An SFPNOP always follows, on both arches (sfpi-gcc's gold listings after SFPSHFT2, SFPLUT; SFPSWAP). */
  nopAfter?: boolean;
  args: (reg: (v: number) => number) => number[];
  at: Loc;
}

const MAD_CLASS = new Set(['SFPMAD', 'SFPADD', 'SFPMUL', 'SFPMULI', 'SFPADDI']);
/** Blackhole: instructions whose VD read the MAD stall logic does not see (BH SFPMAD.md). */
const BH_MISSED = new Set(['SFPIADD', 'SFPSHFT', 'SFPAND', 'SFPOR', 'SFPSHFT2']);
/** Fixed constant LRegs (VectorUnit.md): 0.8373, 0.0, 1.0, -1.0 (firmware-loaded L11). */
export const L_0 = 9;
export const L_1 = 10;
export const L_NEG1 = 11;

function usesOf(op: TraceOp): number[] {
  switch (op.k) {
    case 'store':
    case 'lwrite':
      return [op.src];
    case 'op': {
      // (no spreads: this runs for every node in several passes, before the engine optimises it)
      const r = [op.a];
      if (op.b >= 0) r.push(op.b);
      if (op.c !== undefined) r.push(op.c);
      return r;
    }
    case 'opi':
      return [op.a];
    case 'swap':
      return [op.a, op.b];
    case 'transp':
      return op.srcs;
    case 'lut':
    case 'lut2': {
      const r = [op.v];
      for (const x of op.l) r.push(x);
      return r;
    }
    case 'cmov':
      return op.old >= 0 ? [op.old, op.src] : [op.src];
    case 'cond':
    case 'condval':
      return condUses(op.cond);
    case 'insn':
      return op.vregs.map((x) => x[1]);
    default:
      return [];
  }
}
const defOf = (op: TraceOp): number | undefined =>
  'id' in op ? op.id : op.k === 'swap' ? op.ida : op.k === 'transp' ? op.ids[0] : undefined;
const isCc = (op: TraceOp) =>
  op.k === 'if' || op.k === 'else' || op.k === 'elseif' || op.k === 'endif' || op.k === 'cond';

/** combine: a*b+c / c+a*b -> mad when the product has one use and no CC change lies between; then DCE. */
export function combine(input: readonly TraceOp[]): TraceOp[] {
  const ops = input.map((o) => ({ ...o })) as TraceOp[];
  const count = () => {
    const n = new Map<number, number>();
    for (const o of ops) for (const u of usesOf(o)) n.set(u, (n.get(u) ?? 0) + 1);
    return n;
  };
  const uses = count();
  // v_if (y) with y made from a condition and read nowhere else: test the condition itself, and y goes
  // (gold vcond.S vcond_inside_inline; a y also read elsewhere is tested as y != 0, test_conditional_outside_vif)
  const folded = new Set<number>();
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (o.k === 'cond' && o.cond.k === 'icmp' && o.cond.fold && uses.get(o.cond.a) === 1) {
      folded.add(o.cond.a);
      ops[i] = { ...o, cond: o.cond.fold };
    }
  }
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
      // nothing but loads between: no CC change, and no other arithmetic, store or assignment (sfpi-gcc
      // fuses only a product the add follows directly; gold combine.S mad_maybe_future1, mad_reg_pressure_no4)
      // (the add's other operand may be computed between: gold coverage.S test_mad `vConst0 * -b + -a`)
      const between = ops.slice(j + 1, i);
      if (
        between.some(
          (x) =>
            isCc(x) ||
            x.k === 'store' ||
            x.k === 'cmov' ||
            (x.k === 'raw' && x.tti !== undefined) ||
            ((x.k === 'op' || x.k === 'opi') && x.id !== other),
        )
      )
        continue;
      ops[i] = { k: 'op', id: o.id, op: 'mad', a: p.a, b: p.b, c: other, at: o.at };
      dead.add(j);
      break;
    }
  }
  let out = ops.filter((o, i) => !dead.has(i) && !(o.k === 'condval' && folded.has(o.id)));
  // dead values: pure nodes whose value nobody reads (repeat: removing one may free its inputs)
  for (;;) {
    const n = new Map<number, number>();
    for (const o of out) for (const u of usesOf(o)) n.set(u, (n.get(u) ?? 0) + 1);
    const keep = out.filter((o) => {
      const d = defOf(o);
      // SFPLOAD stays (sfpi-gcc keeps every Dst read, used or not; gold coverage.S test_load_store)
      // and so does every arithmetic operation: sfpi-gcc's SFPU patterns are unspec_volatile (rvtt-wh.md),
      // so GCC never deletes one whose result is unused (gold coverage.S test_shft, test_complex; combine.S
      // iadd_*_no*; SFPLUT / SFPLUTFP32 too: gcc smoke.S ends in an SFPLUT whose result is unread). What
      // goes is a constant load (sfpxloadi's expander is a plain unspec) and the operations MAD fusion replaced.
      return (
        d === undefined ||
        o.k === 'cmov' ||
        o.k === 'load' ||
        o.k === 'condval' ||
        o.k === 'swap' ||
        o.k === 'transp' ||
        o.k === 'lut' ||
        o.k === 'lut2' ||
        (o.k === 'insn' && o.keep) ||
        o.k === 'op' ||
        o.k === 'opi' ||
        (n.get(d) ?? 0) > 0
      );
    });
    if (keep.length === out.length) break;
    out = keep;
  }
  return out;
}

const SETCC_MOD: Record<string, number> = { lt: 0, ne: 2, ge: 4, eq: 6 };
const NEGATE: Record<string, string> = { lt: 'ge', ge: 'lt', eq: 'ne', ne: 'eq', gt: 'le', le: 'gt' };

/**
 * copies: a conditional assignment (`cmov`) writes into its old value's register, so when that old
 * value is still read after the assignment, or is a constant register, the variable first gets its
 * own copy — placed before the outermost `v_if` around the assignment, where every lane is enabled.
 */
export function copies(input: readonly TraceOp[]): TraceOp[] {
  // One pass of facts about the input, then the copies placed; linear in the trace (an unrolled
  // 8-iteration kernel is thousands of nodes). Every index below is into `input`: a copy never
  // defines a value an original node defines, nor is it a v_if/v_endif, so the facts stay valid.
  const n = input.length;
  const defAt = new Map<number, number>(); // value -> its first definition
  const lastUse = new Map<number, number>();
  const outerAt = new Int32Array(n); // the last depth-0 v_if before each node (-1: none)
  let depth = 0;
  let outer = -1;
  for (let i = 0; i < n; i++) {
    const x = input[i]!;
    outerAt[i] = outer;
    const d = defOf(x);
    if (d !== undefined && !defAt.has(d)) defAt.set(d, i);
    for (const u of usesOf(x)) lastUse.set(u, i);
    if (x.k === 'if') {
      if (depth === 0) outer = i;
      depth++;
    } else if (x.k === 'endif') depth--;
  }
  const ops = [...input];
  const before = new Map<number, TraceOp[]>(); // copies placed right before input[k], in order
  let next = 1_000_000_000; // fresh ids for the copies, apart from the tracer's
  for (let i = 0; i < n; i++) {
    const o = ops[i]!;
    if (o.k !== 'cmov' || o.old < 0) continue;
    const old = o.old;
    const d = defAt.get(old) ?? -1;
    const fixedOld = input[d]?.k === 'creg';
    const readLater = (lastUse.get(old) ?? -1) > i;
    if (!fixedOld && !readLater) continue;
    // at the outermost v_if open before it (all lanes enabled there), but after the definition
    const at = Math.max(outerAt[i]!, d + 1);
    const id = next++;
    const list = before.get(at) ?? [];
    list.push({ k: 'op', id, op: 'copy', a: old, b: -1, at: o.at });
    before.set(at, list);
    ops[i] = { ...o, old: id };
  }
  if (!before.size) return ops;
  const out: TraceOp[] = [];
  for (let k = 0; k < n; k++) {
    const b = before.get(k);
    if (b) out.push(...b);
    out.push(ops[k]!);
  }
  return out;
}

/** bf16 (fp16b) bits of a float when its low half is zero (SFPADDI/SFPMULI/SFPLOADI FLOATB take it). */
const fp16b = (bits: number) => ((bits & 0xffff) === 0 ? (bits >>> 16) & 0xffff : undefined);

/**
 * immediates: `x + c` / `x * c` with c a float literal that fits fp16b and x's last use becomes
 * SFPADDI/SFPMULI in x's register (sfpi-gcc gimple-rvtt-combine.cc); when x is still read later the
 * compiler keeps SFPLOADI + SFPADD/SFPMUL, and so does axsim.
 */
export function immediates(input: readonly TraceOp[]): TraceOp[] {
  const ops = [...input];
  const defAt = new Map<number, number>();
  // value -> indices of the nodes reading it (a node rewritten below still reads its `x`, and
  // no rewritten node is read as a constant, so the lists stay true)
  const readers = new Map<number, number[]>();
  ops.forEach((o, i) => {
    const d = defOf(o);
    if (d !== undefined) defAt.set(d, i);
    for (const u of new Set(usesOf(o))) {
      const l = readers.get(u);
      if (l) l.push(i);
      else readers.set(u, [i]);
    }
  });
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (o.k !== 'op' || (o.op !== 'add' && o.op !== 'mul')) continue;
    // the result feeds only a conditional assignment to another variable: SFPADD/SFPMUL straight
    // into that variable's register beats SFPADDI + a move (gold combine.S addi_live_no2)
    const users = (readers.get(o.id) ?? []).map((j) => ops[j]!);
    const cmovInto =
      users.length === 1 && users[0]!.k === 'cmov' && users[0]!.src === o.id ? users[0]!.old : undefined;
    for (const [x, c] of [
      [o.b, o.a],
      [o.a, o.b],
    ] as const) {
      const cd = ops[defAt.get(c) ?? -1];
      // an fp16b-representable float, or an s2vFloat16b pattern (SFPLOADI FLOATB: the same 16 bits;
      // gold coverage.S test_muli_addi). An s2vFloat16a (FLOATA) is not an ADDI/MULI immediate.
      const imm = cd?.k === 'fimm' ? fp16b(cd.bits) : cd?.k === 'loadi' && cd.mod === 0 ? cd.imm : undefined;
      if (imm === undefined) continue;
      const xd = ops[defAt.get(x) ?? -1];
      if (!xd || xd.k === 'creg' || x === c) continue;
      if (cmovInto !== undefined && cmovInto !== x) continue;
      // x's last use (a conditional assignment of this result back into x does not count)
      if (
        (readers.get(x) ?? []).some((j) => {
          const y = ops[j]!;
          return j > i && !(y.k === 'cmov' && y.old === x && y.src === o.id);
        })
      )
        continue;
      ops[i] = {
        k: 'opi',
        id: o.id,
        op: o.op === 'add' ? 'addi' : 'muli',
        a: x,
        imm,
        at: o.at,
      };
      break;
    }
  }
  // constants no longer read
  const used = new Set<number>();
  for (const o of ops) for (const u of usesOf(o)) used.add(u);
  return ops.filter((o) => (o.k !== 'fimm' && o.k !== 'loadi') || used.has(o.id));
}

/** lower: trace nodes -> instructions on virtual registers (value id = virtual register). */
export function lower(ops: readonly TraceOp[], arch: Arch): { insns: MInsn[]; fixed: Map<number, number> } {
  const noinc = arch === 'wormhole' ? 3 : 7; // SFPLOAD/SFPSTORE_ADDR_MODE_NOINC (sfpi_hw.h)
  const addrMask = arch === 'wormhole' ? 0x3fff : 0x1fff; // the Dst address field's width
  const insns: MInsn[] = [];
  const macros = archTables(arch).macros;
  const fixed = new Map<number, number>();
  let temp = -1; // virtual registers for temporaries (negative ids)
  // Operands a condition expression itself makes are made right before the compare that reads them,
  // not where the tracer recorded them: the C++ evaluates the whole condition tree before the v_if
  // tests it, so all of them would be live at once. sfpi-gcc's expand pass leaves each compare where
  // the C++ evaluated it (gimple-rvtt-expand.cc process_tree_node: the sfpxfcmps stays in place, the
  // CC fences go around it), so its operands are made next to it (gold coverage.S stupid_example:
  // `SFPLOADI L1, 16640, 0` then `SFPMAD L1, L1, L11, L0` per leaf). That covers the scalar operand
  // of a compare (`v < 2.5f`: sfpxfcmps takes the literal; SFPLOADI is not volatile in sfpi-gcc, so
  // each compare reading it gets its own load) and a dst_reg[] read inside the condition read by one
  // compare only (`dst_reg[0] == 3.0f`); a vector variable made before the v_if stays where it is
  // (gold combine.S iadd_i_no1, vcond.S vcond_asbool_inline2). Made under the narrowed CC is enough:
  // the compare reads only the lanes still enabled.
  const atLeaf = new Map<number, TraceOp & { k: 'fimm' | 'iimm' | 'load' }>();
  {
    const otherUse = new Set<number>();
    const leafUses = new Map<number, number>();
    const defAt = new Map<number, number>();
    let lastCc = -1; // the last node that changed the CC or wrote Dst: a condition's own operands follow it
    ops.forEach((o, i) => {
      if ((o.k === 'fimm' || o.k === 'iimm') && o.cmp) atLeaf.set(o.id, o);
      if (o.k === 'load') atLeaf.set(o.id, o);
      const d = defOf(o);
      if (d !== undefined) defAt.set(d, i);
      if (o.k === 'cond' || o.k === 'condval') {
        for (const u of condUses(o.cond)) {
          leafUses.set(u, (leafUses.get(u) ?? 0) + 1);
          if ((defAt.get(u) ?? -1) < lastCc) otherUse.add(u); // made before this condition's expression
        }
      } else for (const u of usesOf(o)) otherUse.add(u);
      if (isCc(o) || o.k === 'condval' || o.k === 'store' || o.k === 'raw' || o.k === 'insn') lastCc = i;
    });
    for (const [id, o] of [...atLeaf])
      if (otherUse.has(id) || !leafUses.has(id) || (o.k === 'load' && leafUses.get(id) !== 1))
        atLeaf.delete(id);
  }
  const ins = (name: string, m: Partial<MInsn> & { args: MInsn['args']; at: Loc }) =>
    insns.push({ name, uses: [], ...m });
  const loadi = (dst: number, bits: number, at: Loc, kind: 'f' | 's' | 'u') => {
    const lo = bits & 0xffff;
    const hi = (bits >>> 16) & 0xffff;
    const fp16a = kind === 'f' ? toFp16a(bits) : undefined;
    if (kind === 'f' && lo === 0)
      ins('SFPLOADI', { def: dst, args: (r) => [r(dst), 0, hi], at }); // FLOATB
    else if (fp16a !== undefined)
      ins('SFPLOADI', { def: dst, args: (r) => [r(dst), 1, fp16a], at }); // FLOATA
    else if (kind === 's' && (bits | 0) >= -32768 && (bits | 0) <= 32767)
      ins('SFPLOADI', { def: dst, args: (r) => [r(dst), 4, lo], at }); // SHORT
    else if (kind === 'u' && bits >>> 0 <= 0xffff)
      ins('SFPLOADI', { def: dst, args: (r) => [r(dst), 2, lo], at }); // USHORT
    else {
      // a 32-bit value: UPPER then LOWER (sfpi-gcc's order in the gold listings)
      ins('SFPLOADI', { def: dst, args: (r) => [r(dst), 8, hi], at });
      ins('SFPLOADI', { def: dst, rw: true, args: (r) => [r(dst), 10, lo], at });
    }
  };
  const sfpload = (dst: number, o: TraceOp & { k: 'load' }, at: Loc) => {
    const addr = o.addr & addrMask;
    ins('SFPLOAD', { def: dst, args: (r) => [r(dst), o.fmt ?? 0, noinc, addr], at });
  };
  /** An instruction that writes its result over the operand `x` (copied first when x lives on). */
  const inPlace = (
    name: string,
    id: number,
    x: number,
    uses: number[],
    args: MInsn['args'],
    at: Loc,
    commute?: MInsn['args'],
  ) =>
    ins(name, {
      def: id,
      uses: [x, ...uses],
      tied: x,
      copy: true,
      args,
      at,
      ...(commute ? { alt: { tied: uses[0]!, uses: [uses[0]!, x], args: commute } } : {}),
    });

  // ---- conditions: a tree of compares lowered to CC narrowing (sfpi-gcc gimple-rvtt-expand.cc) ----
  /** Whether the CC equals the top of the CC stack (nothing narrowed it since the level opened). */
  let atTop = true;
  /** The v_if nesting depth at this point of the trace. */
  let depth = 0;
  type Prim = { k: 'set'; v: number; mod: number } | { k: 'and'; a: Prim; b: Prim } | { k: 'not'; a: Prim };
  const setcc = (v: number, mod: number, at: Loc) =>
    ins('SFPSETCC', { uses: [v], args: (r) => [0, r(v), 0, mod], at });
  const emitPrim = (p: Prim, top: boolean, at: Loc): void => {
    if (p.k === 'set') setcc(p.v, p.mod, at);
    else if (p.k === 'and') {
      emitPrim(p.a, top, at);
      emitPrim(p.b, false, at);
    } else notOf(() => emitPrim(p.a, true, at), top, at);
  };
  /** !X for X that is not a single compare: SFPCOMPC at the top of a level, else through a flag. */
  const notOf = (emit: () => void, top: boolean, at: Loc, complement = true) => {
    if (top) {
      emit();
      if (complement) ins('SFPCOMPC', { args: () => [0, 0, 0, 0], at });
      return;
    }
    // flag = 1; push; X; complement; flag = 0; pop; CC &= flag == 0 (the gold listings' sequence)
    const t = temp--;
    ins('SFPLOADI', { def: t, args: (r) => [r(t), 4, 1], at });
    ins('SFPPUSHC', { args: () => [0, 0, 0, 0], at });
    emit();
    if (complement) ins('SFPCOMPC', { args: () => [0, 0, 0, 0], at });
    ins('SFPLOADI', { def: t, rw: true, args: (r) => [r(t), 4, 0], at });
    ins('SFPPOPC', { args: () => [0, 0, 0, 0], at });
    setcc(t, SETCC_MOD.eq!, at);
  };
  /** The CC test of `d OP 0` as primitives: > is (>= and != 0), <= is !(>). */
  const primOf = (d: number, cmp: string): Prim => {
    if (cmp === 'gt') return { k: 'and', a: { k: 'set', v: d, mod: 4 }, b: { k: 'set', v: d, mod: 2 } };
    if (cmp === 'le') return { k: 'not', a: primOf(d, 'gt') };
    return { k: 'set', v: d, mod: SETCC_MOD[cmp]! };
  };
  const emitLeaf = (c0: Cond & { k: 'fcmp' | 'icmp' }, cmp: string, top: boolean) => {
    const at = c0.at;
    const leafLoad = (v: number) => {
      const k = atLeaf.get(v);
      if (!k) return v;
      const t = temp--;
      if (k.k === 'fimm') loadi(t, k.bits, at, 'f');
      else if (k.k === 'iimm') loadi(t, k.value >>> 0, at, k.signed === false ? 'u' : 's');
      else sfpload(t, k, at);
      return t;
    };
    // (the operands may now be temporaries, whose ids are negative: "no b" is read from c0)
    const hasB = c0.b >= 0;
    const c = { ...c0, a: leafLoad(c0.a), b: hasB ? leafLoad(c0.b) : c0.b };
    if (c.k === 'fcmp') {
      let d = c.a;
      if (hasB) {
        // a OP b as (a - b) OP 0: MAD b * -1.0 + a into a temporary (sfpi-gcc's float compare)
        d = temp--;
        const [x, y] = [c.a, c.b];
        ins('SFPMAD', { def: d, uses: [y, x], args: (r) => [r(y), L_NEG1, r(x), r(d), 0], at });
      }
      emitPrim(primOf(d, cmp), top, at);
      return;
    }
    if (!hasB && c.imm === 0) {
      const p = primOf(c.a, cmp);
      emitPrim(p, top, at);
      return;
    }
    // integer: the difference by SFPIADD, whose CC mode does the first LT0/GTE0 test itself
    const d = temp--;
    const p = primOf(d, cmp);
    const first = p.k === 'set' ? p : p.k === 'and' ? p.a : p.a.k === 'and' ? p.a.a : undefined;
    const fold = first?.k === 'set' && (first.mod === 0 || first.mod === 4) ? first : undefined;
    const ccMode = fold ? (fold.mod === 0 ? 0 : 8) : 4; // SFPIADD_MOD1_CC_LT0 / GTE0 / NONE
    if (!hasB && (-c.imm < -2048 || -c.imm > 2047)) {
      // beyond the 12-bit immediate: the value is loaded, then compared as a vector (a - t)
      const t = temp--;
      loadi(t, c.imm, at, 's');
      const a = c.a;
      ins('SFPIADD', {
        def: d,
        uses: [a, t],
        tied: t,
        copy: true,
        args: (r) => [0, r(a), r(d), 2 | ccMode],
        at,
      });
    } else if (!hasB) {
      const imm = -c.imm & 0xfff;
      ins('SFPIADD', { def: d, uses: [c.a], args: (r) => [imm, r(c.a), r(d), 1 | ccMode], at });
    } else {
      // a - b: copy b, then SFPIADD with the 2's complement of the destination
      const [a, b] = [c.a, c.b];
      ins('SFPIADD', {
        def: d,
        uses: [a, b],
        tied: b,
        copy: true,
        args: (r) => [0, r(a), r(d), 2 | ccMode],
        at,
      });
    }
    const rest = (q: Prim): Prim | undefined => {
      if (q === fold) return undefined;
      if (q.k === 'and') {
        const a = rest(q.a);
        return a ? { k: 'and', a, b: q.b } : q.b;
      }
      if (q.k === 'not') {
        const a = rest(q.a);
        return a ? { k: 'not', a } : undefined;
      }
      return q;
    };
    if (p.k === 'not' && fold) {
      // !(x >= 0 && x != 0) with the >= in the SFPIADD: the remaining test, then the complement
      const inner = rest(p.a);
      notOf(() => inner && emitPrim(inner, false, at), top, at);
      return;
    }
    const r = rest(p);
    if (r) emitPrim(r, false, at);
  };
  const emitCond = (c: Cond, top: boolean): void => {
    if (c.k === 'fcmp' || c.k === 'icmp') emitLeaf(c, c.cmp, top);
    else if (c.k === 'and') {
      emitCond(c.a, top);
      emitCond(c.b, false);
    } else if (c.k === 'or')
      emitCond({ k: 'not', a: { k: 'and', a: { k: 'not', a: c.a }, b: { k: 'not', a: c.b } } }, top);
    else {
      const x = c.a;
      if (x.k === 'fcmp' || x.k === 'icmp') emitLeaf(x, NEGATE[x.cmp]!, top);
      else if (x.k === 'not') emitCond(x.a, top);
      // !(a || b) = !a && !b (De Morgan; no double complement); below the top of a level it is
      // evaluated at the top of a level of its own and carried back by a flag (gold lots_of_conditionals)
      else if (x.k === 'or') {
        const both: Cond = { k: 'and', a: { k: 'not', a: x.a }, b: { k: 'not', a: x.b } };
        if (top || !needsTop(both)) emitCond(both, top);
        else notOf(() => emitCond(both, true), false, condAt(x), false);
      } else notOf(() => emitCond(x, true), top, condAt(x));
    }
  };

  for (const o of ops) {
    const at = o.at;
    switch (o.k) {
      case 'loadi':
        ins('SFPLOADI', { def: o.id, args: (r) => [r(o.id), o.mod, o.imm], at });
        break;
      case 'lut':
        ins('SFPLUT', {
          def: o.id,
          uses: [o.v, ...o.l],
          wantUses: [
            [o.v, 3],
            [o.l[0], 0],
            [o.l[1], 1],
            [o.l[2], 2],
          ],
          nopAfter: true,
          args: (r) => [r(o.id), o.mod, 0],
          at,
        });
        break;
      case 'lut2':
        if (o.l.length === 3) {
          // FP16_3ENTRY_TABLE (Mod1 10) shares its bit 3 with INDIRECT_VD: the result goes to
          // LReg[LReg[7] & 15] (SFPLUTFP32.md, "due to a hardware bug"), so LReg 7 is first loaded with
          // the result's register number, as sfpi-gcc does (gold coverage.S test_lut2a: SFPLOADI L7, 4, 2
          // (USHORT) then SFPLUTFP32 L4, 14). Operand order l0, l1, l2, v: sfplutfp32_3r's.
          const t = temp--;
          const id = o.id;
          ins('SFPLOADI', { def: t, args: (r) => [r(t), 2, r(id)], at });
          ins('SFPLUTFP32', {
            def: id,
            uses: [...o.l, o.v, t],
            scratch: t,
            wantUses: [...o.l.map((v, k): [number, number] => [v, k]), [o.v, 3], [t, 7]],
            nopAfter: true,
            args: (r) => [r(id), o.mod],
            at,
          });
          break;
        }
        ins('SFPLUTFP32', {
          def: o.id,
          uses: [o.v, ...o.l],
          wantUses: [[o.v, 3], ...o.l.map((v, k): [number, number] => [v, k < 3 ? k : k + 1])],
          nopAfter: true,
          args: (r) => [r(o.id), o.mod],
          at,
        });
        break;
      case 'swap':
        // SFPSWAP VD = a (min), VC = b (max): both written in place, so the new values take the registers of
        // the old ones, which must die here (a later read of an old value is reported)
        ins('SFPSWAP', {
          def: o.ida,
          tied: o.a,
          def2: { def: o.idb, tied: o.b },
          uses: [o.a, o.b],
          nopAfter: true,
          args: (r) => [0, r(o.b), r(o.ida), o.mod],
          at,
        });
        break;
      case 'load':
        if (!atLeaf.has(o.id)) sfpload(o.id, o, at);
        break;
      case 'transp':
        // SFPTRANSP (sfpi-gcc rvtt_wh_sfptransp: operands "+x0".."+x3"): the four values in LRegs 0..3,
        // rewritten in place; it also transposes LRegs 4..7 (regalloc keeps live values out of them)
        ins('SFPTRANSP', {
          def: o.ids[0],
          tied: o.srcs[0],
          inPlace: o.ids.map((d, k): [number, number] => [d, o.srcs[k]!]),
          uses: o.srcs,
          wantUses: o.srcs.map((v, k): [number, number] => [v, k]),
          args: () => [0, 0, 0, 0],
          at,
        });
        break;
      case 'store': {
        const addr = o.addr & addrMask;
        ins('SFPSTORE', { uses: [o.src], args: (r) => [r(o.src), o.fmt ?? 0, noinc, addr], at });
        break;
      }
      case 'fimm':
        if (!atLeaf.has(o.id)) loadi(o.id, o.bits, at, 'f');
        break;
      case 'iimm':
        if (!atLeaf.has(o.id)) loadi(o.id, o.value >>> 0, at, o.signed === false ? 'u' : 's');
        break;
      case 'creg':
        fixed.set(o.id, o.lreg);
        break;
      case 'lreg':
        // no instruction: the value is in LReg N from the start (regalloc keeps N for it)
        ins('.lreg', { def: o.id, pin: o.lreg, args: () => [], at });
        break;
      case 'lwrite':
        ins('.lwrite', { uses: [o.src], pin: o.lreg, args: (r) => [0, r(o.src), o.lreg, 0], at });
        break;
      case 'op': {
        const { id, a, b } = o;
        const madc = (name: string, x: MInsn['args'], uses: number[]) =>
          ins(name, { def: id, uses, args: (r) => [...x(r), r(id), 0], at });
        if (o.op === 'add')
          madc('SFPADD', (r) => [L_1, r(a), r(b)], [a, b]); // 1.0 * a + b
        else if (o.op === 'sub')
          madc('SFPMAD', (r) => [L_NEG1, r(b), r(a)], [a, b]); // -1.0 * b + a
        else if (o.op === 'mul')
          madc('SFPMUL', (r) => [r(a), r(b), L_0], [a, b]); // a * b + 0.0
        else if (o.op === 'mad') madc('SFPMAD', (r) => [r(a), r(b), r(o.c!)], [a, b, o.c!]);
        else if (o.op === 'neg')
          ins('SFPMOV', { def: id, uses: [a], args: (r) => [0, r(a), r(id), 1], at }); // COMPSIGN
        else if (o.op === 'copy') ins('SFPMOV', { def: id, uses: [a], args: (r) => [0, r(a), r(id), 0], at });
        else if (o.op === 'i2u8' || o.op === 'i2u8s' || o.op === 'i2i8' || o.op === 'i2i8s') {
          // int32_to_(u)int8 with a vector descale: SFP_STOCH_RND src_b = the shift, src_c = the value
          const rnd = o.op.endsWith('s') ? 1 : 0;
          const mod = o.op.startsWith('i2u8') ? 4 : 5;
          ins('SFP_STOCH_RND', { def: id, uses: [a, b], args: (r) => [rnd, 0, r(b), r(a), r(id), mod], at });
        } else if (o.op === 'fabs' || o.op === 'iabs')
          ins('SFPABS', { def: id, uses: [a], args: (r) => [0, r(a), r(id), o.op === 'fabs' ? 1 : 0], at }); // FLOAT / INT
        else if (o.op === 'exexp' || o.op === 'exexp_nodebias') {
          const m = o.op === 'exexp' ? 0 : 1;
          ins('SFPEXEXP', { def: id, uses: [a], args: (r) => [0, r(a), r(id), m], at });
        } else if (o.op === 'setsgn_v')
          // SFPSETSGN register form: the sign source's register is also the result's (sfpi_lib.h: "dst is
          // both sgn and result"; copied first when the sign source lives on)
          inPlace('SFPSETSGN', id, b, [a], (r) => [0, r(a), r(id), 0], at);
        else if (o.op === 'setexp_v' || o.op === 'setman_v')
          // register form: the exponent's / mantissa's register is also the result's (sfpi_lib.h)
          inPlace(
            o.op === 'setexp_v' ? 'SFPSETEXP' : 'SFPSETMAN',
            id,
            b,
            [a],
            (r) => [0, r(a), r(id), 0],
            at,
          );
        else if (o.op === 'shflror1' || o.op === 'shflshr1') {
          const m = o.op === 'shflror1' ? 3 : 4;
          // SHFLSHR1 on Wormhole puts into lane 8k not 0 but lane 8k+7 of the VC the last SHFLROR1 with
          // VD < 12 read (SFPSHFT2.md "HardwareBug()"); a SHFLROR1 with VD = VC = 9 (the constant 0.0,
          // VD not written) first makes that 0. sfpi-gcc emits it before every SHFLSHR1, on both arches
          // (gold coverage.S subvec_shfl: SFPSHFT2 L9, L9, 0, 3 + SFPNOP)
          if (m === 4) ins('SFPSHFT2', { nopAfter: true, args: () => [0, L_0, L_0, 3], at });
          ins('SFPSHFT2', { def: id, uses: [a], nopAfter: true, args: (r) => [0, r(a), r(id), m], at });
        } else if (o.op === 'arecip' || o.op === 'arecip_cond' || o.op === 'aexp') {
          if (arch !== 'blackhole')
            throw badInput(
              `approx_${o.op === 'aexp' ? 'exp' : 'recip'} exists on Blackhole only (SFPARECIP)`,
              {
                location: at,
              },
            );
          const m = o.op === 'arecip' ? 0 : o.op === 'arecip_cond' ? 1 : 2;
          ins('SFPARECIP', { def: id, uses: [a], args: (r) => [0, r(a), r(id), m], at });
        } else if (o.op === 'exman8' || o.op === 'exman9') {
          const m = o.op === 'exman8' ? 0 : 1;
          ins('SFPEXMAN', { def: id, uses: [a], args: (r) => [0, r(a), r(id), m], at });
        } else if (o.op === 'lz' || o.op === 'lz_nosgn') {
          const m = o.op === 'lz' ? 0 : 4;
          ins('SFPLZ', { def: id, uses: [a], args: (r) => [0, r(a), r(id), m], at });
        } else if (o.op === 'iadd')
          inPlace(
            'SFPIADD',
            id,
            a,
            [b],
            (r) => [0, r(b), r(id), 4],
            at,
            (r) => [0, r(a), r(id), 4],
          ); // a += b
        else if (o.op === 'isub')
          inPlace('SFPIADD', id, a, [b], (r) => [0, r(b), r(id), 6], at); // b - a
        else if (o.op === 'and' || o.op === 'or' || o.op === 'xor') {
          const name = o.op === 'and' ? 'SFPAND' : o.op === 'or' ? 'SFPOR' : 'SFPXOR';
          inPlace(
            name,
            id,
            a,
            [b],
            (r) => [0, r(b), r(id), 0],
            at,
            (r) => [0, r(a), r(id), 0],
          );
        } else if (o.op === 'not')
          ins('SFPNOT', { def: id, uses: [a], args: (r) => [0, r(a), r(id), 0], at });
        else if (o.op === 'shl' || o.op === 'sar') {
          if (o.op === 'sar' && arch === 'wormhole')
            throw notYet("'>>' of a vInt on Wormhole (sfpi defines it on Blackhole only)", at);
          inPlace('SFPSHFT', id, a, [b], (r) => [0, r(b), r(id), o.op === 'sar' ? 2 : 0], at);
        } else throw notYet(`operation '${o.op}'`, at);
        break;
      }
      case 'opi': {
        const { id, a, imm } = o;
        if (o.op === 'setman') {
          // SFPSETMAN imm12 (the mantissa's top 12 bits)
          ins('SFPSETMAN', { def: id, uses: [a], args: (r) => [imm & 0xfff, r(a), r(id), 1], at });
        } else if (o.op === 'cast')
          ins('SFPCAST', { def: id, uses: [a], args: (r) => [r(a), r(id), imm], at });
        else if (o.op === 'stoch' || o.op === 'istoch') {
          // SFP_STOCH_RND(rnd_mode, imm8, src_b, src_c, dest, mod1): src_b = src_c = the input (gold);
          // int32_to_(u)int8 with an immediate descale: imm8 = the shift, Mod1 | IMM8
          const rnd = imm & 0x10 ? 1 : 0;
          const imm8 = (imm >>> 8) & 0x1f;
          ins('SFP_STOCH_RND', {
            def: id,
            uses: [a],
            args: (r) => [rnd, imm8, r(a), r(a), r(id), imm & 0xf],
            at,
          });
        } else if (o.op === 'setsgn' || o.op === 'setexp' || o.op === 'addexp') {
          // addexp = SFPDIVP2 with Mod1 ADD (sfpi_lib.h)
          const name = o.op === 'setsgn' ? 'SFPSETSGN' : o.op === 'setexp' ? 'SFPSETEXP' : 'SFPDIVP2';
          ins(name, { def: id, uses: [a], args: (r) => [imm & 0xfff, r(a), r(id), 1], at });
        } else if (o.op === 'addi' || o.op === 'muli')
          inPlace(o.op === 'addi' ? 'SFPADDI' : 'SFPMULI', id, a, [], (r) => [imm, r(id), 0], at);
        else if (o.op === 'iaddi') {
          if (imm < -2048 || imm > 2047) {
            // beyond SFPIADD's 12-bit immediate: the value is loaded (SFPLOADI as an int32 constant), then
            // the register form VD = VC + VD (ARG_LREG_DST 0 | CC_NONE 4), as sfpi-gcc's sfpxiadd_i does
            const t = temp--;
            loadi(t, imm, at, 's');
            ins('SFPIADD', {
              def: id,
              uses: [a, t],
              tied: t,
              copy: true,
              args: (r) => [0, r(a), r(id), 4],
              at,
            });
          } else ins('SFPIADD', { def: id, uses: [a], args: (r) => [imm & 0xfff, r(a), r(id), 5], at }); // imm, CC none
        } else if (o.op === 'shli' || o.op === 'sari') {
          if (o.op === 'sari' && arch === 'wormhole')
            throw notYet("'>>' of a vInt on Wormhole (sfpi defines it on Blackhole only)", at);
          inPlace('SFPSHFT', id, a, [], (r) => [imm & 0xfff, 0, r(id), o.op === 'sari' ? 3 : 1], at);
        } else throw notYet(`operation '${o.op}'`, at);
        break;
      }
      case 'cmov':
        ins('SFPMOV', {
          def: o.id,
          uses: [o.src],
          cmov: true,
          tied: o.old >= 0 ? o.old : undefined,
          args: (r) => [0, r(o.src), r(o.id), 0],
          at,
        });
        break;
      case 'cond':
        emitCond(o.cond, atTop);
        atTop = false;
        break;
      case 'condval': {
        // 0 everywhere, then 1 where the condition holds; the CC is restored after (sfpi-gcc's
        // sfpxcondi; gold vcond.S: SFPLOADI 0, the compare, SFPLOADI 1, SFPENCC 3, 10)
        const t = o.id;
        ins('SFPLOADI', { def: t, args: (r) => [r(t), 4, 0], at });
        if (depth > 0) ins('SFPPUSHC', { args: () => [0, 0, 0, 0], at });
        emitCond(o.cond, depth > 0 || atTop);
        ins('SFPLOADI', { def: t, rw: true, args: (r) => [r(t), 4, 1], at });
        if (depth > 0) ins('SFPPOPC', { args: () => [0, 0, 0, 0], at });
        else ins('SFPENCC', { args: () => [3, 0, 0, 10], at });
        break;
      }
      case 'if':
        if (o.depth > 0) ins('SFPPUSHC', { args: () => [0, 0, 0, 0], at });
        depth = o.depth + 1;
        atTop = true;
        break;
      case 'else':
        ins('SFPCOMPC', { args: () => [0, 0, 0, 0], at });
        atTop = false;
        break;
      case 'elseif':
        // lanes of no earlier branch: complement, then a new level for this condition (sfpi's gold
        // listings: SFPCOMPC, SFPPUSHC, the compare, …, SFPPOPC before the chain's end)
        ins('SFPCOMPC', { args: () => [0, 0, 0, 0], at });
        ins('SFPPUSHC', { args: () => [0, 0, 0, 0], at });
        atTop = true;
        break;
      case 'endif':
        for (let k = 0; k < o.pops; k++) ins('SFPPOPC', { args: () => [0, 0, 0, 0], at });
        if (o.depth > 0) ins('SFPPOPC', { args: () => [0, 0, 0, 0], at });
        else ins('SFPENCC', { args: () => [3, 0, 0, 10], at });
        depth = o.depth;
        atTop = false;
        break;
      case 'insn': {
        const def = macros.get(o.name);
        if (!def) throw badInput(`no instruction ${o.name} on ${arch}`, { location: at });
        const fields = new Map(o.vregs.filter((x) => x[0]));
        const { id, dst } = o;
        ins(o.name, {
          ...(id !== undefined ? { def: id } : {}),
          uses: [...new Set(o.vregs.map((x) => x[1]))],
          ...(o.tied !== undefined ? { tied: o.tied, copy: true } : {}),
          args: (r) =>
            def.args.map((a) =>
              a.name === dst && id !== undefined
                ? r(id)
                : fields.has(a.name)
                  ? r(fields.get(a.name)!)
                  : (o.fields[a.name] ?? 0),
            ),
          ...(o.name === 'SFPSHFT2' || o.name === 'SFPLUT' ? { nopAfter: true } : {}),
          ...(o.want ? { wantUses: o.want } : {}),
          at,
        });
        break;
      }
      case 'raw':
        ins('.word', { args: () => [o.word], at, ...(o.tti ? { tti: o.tti } : {}) });
        break;
    }
  }
  return { insns, fixed };
}

/** Whether emitting the condition uses SFPCOMPC, which needs the CC at the top of a level. */
function needsTop(c: Cond): boolean {
  if (c.k === 'fcmp' || c.k === 'icmp') return c.cmp === 'le';
  if (c.k === 'and') return needsTop(c.a) || needsTop(c.b);
  if (c.k === 'or') return true;
  const x = c.a;
  if (x.k === 'fcmp' || x.k === 'icmp') return x.cmp === 'gt';
  if (x.k === 'not') return needsTop(x.a);
  return x.k === 'and' || needsTop({ k: 'and', a: { k: 'not', a: x.a }, b: { k: 'not', a: x.b } });
}

function condAt(c: Cond): Loc {
  return c.k === 'fcmp' || c.k === 'icmp' ? c.at : condAt(c.a);
}

/** The fp16a (IEEE half) bits of a float when it converts exactly, else undefined. */
function toFp16a(bits: number): number | undefined {
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const man = bits & 0x7fffff;
  if (exp === 0 && man === 0) return undefined; // zero: FLOATB covers it
  const e = exp - 127 + 15;
  if (e < 1 || e > 30 || (man & 0x1fff) !== 0) return undefined; // normal halves only
  return sign | (e << 10) | (man >>> 13);
}

const CC_INSNS = new Set(['SFPSETCC', 'SFPPUSHC', 'SFPPOPC', 'SFPCOMPC', 'SFPENCC']);
const changesCc = (m: MInsn) =>
  CC_INSNS.has(m.name) || m.tti !== undefined || (m.name === 'SFPIADD' && (m.args((v) => v)[3]! & 0xc) !== 4);

/**
 * fuseCmov: a conditional assignment whose value is computed just for it, under the same CC, is
 * computed straight into the variable's register (the SFPMOV goes): sfpi-gcc writes in place
 * (gold pushpop.S: `SFPLOADI L0, 2, 4` inside the v_if, no move).
 */
export function fuseCmov(input: readonly MInsn[]): MInsn[] {
  // Indexed once and kept up to date (removed instructions leave a hole), so the pass is linear in
  // the trace apart from the stretch between each fused definition and its move.
  const insns: (MInsn | undefined)[] = [...input];
  const defsOf = new Map<number, number[]>(); // value -> indices writing it, in order
  const refs = new Map<number, number>(); // value -> instructions reading it (uses or tied)
  const refSet = (x: MInsn) => new Set(x.tied !== undefined ? [...x.uses, x.tied] : x.uses);
  const count = (x: MInsn, d: number) => {
    for (const v of refSet(x)) refs.set(v, (refs.get(v) ?? 0) + d);
  };
  insns.forEach((x, j) => {
    if (x!.def !== undefined) {
      const l = defsOf.get(x!.def);
      if (l) l.push(j);
      else defsOf.set(x!.def, [j]);
    }
    count(x!, 1);
  });
  for (let i = 0; i < insns.length; i++) {
    const m = insns[i];
    if (!m?.cmov || m.tied === undefined) continue;
    const src = m.uses[0]!;
    const old = m.tied;
    const defs = defsOf.get(src) ?? [];
    if (!defs.length) continue;
    const first = defs[0]!;
    // read by another instruction than this move
    const usedElsewhere = (refs.get(src) ?? 0) - (refSet(m).has(src) ? 1 : 0) > 0;
    const dm = insns[first]!;
    // (not the three-register SFPLUTFP32: the SFPLOADI before it has the result's register as its
    // immediate, read through the result's own id)
    let blocked =
      usedElsewhere ||
      (dm.tied !== undefined && dm.tied !== old) ||
      dm.name === '.word' ||
      dm.scratch !== undefined ||
      dm.inPlace !== undefined;
    for (let j = first; !blocked && j < i; j++) {
      const x = insns[j];
      if (!x) continue;
      if (changesCc(x) || (j !== first && (x.uses.includes(old) || x.tied === old))) blocked = true;
    }
    if (blocked) continue;
    const id = m.def!;
    for (const j of defs) {
      const x = insns[j]!;
      const origArgs = x.args;
      const remap = (r: (v: number) => number) => (v: number) => r(v === src ? id : v);
      let y: MInsn = { ...x, def: id, args: (r) => origArgs(remap(r)) };
      if (j === first && !x.rw) y = { ...y, tied: old, copy: false };
      count(x, -1);
      count(y, 1);
      insns[j] = y;
    }
    count(m, -1);
    insns[i] = undefined;
    defsOf.set(id, [...defs, ...(defsOf.get(id) ?? []).filter((j) => j !== i)]);
    defsOf.delete(src);
  }
  return insns.filter((x): x is MInsn => x !== undefined);
}

/**
 * elidePushPop: a SFPPUSHC whose SFPPOPC is followed at once by another SFPPOPC or the closing
 * SFPENCC, with no SFPCOMPC of its own level between, is not needed (the outer restore covers it):
 * sfpi-gcc drops such pairs (gold coverage.S test_icmp_i: the last v_elseif has no push).
 */
export function elidePushPop(input: readonly MInsn[]): MInsn[] {
  const insns = [...input];
  let changed = true;
  while (changed) {
    changed = false;
    const stack: number[] = [];
    const compc = new Set<number>(); // push indices with a COMPC at their own level
    for (let i = 0; i < insns.length; i++) {
      const n = insns[i]!.name;
      if (n === 'SFPPUSHC') stack.push(i);
      else if (n === 'SFPCOMPC' && stack.length) compc.add(stack[stack.length - 1]!);
      else if (n === 'SFPPOPC') {
        const p = stack.pop();
        const next = insns[i + 1]?.name;
        if (p !== undefined && !compc.has(p) && (next === 'SFPPOPC' || next === 'SFPENCC')) {
          insns.splice(i, 1);
          insns.splice(p, 1);
          changed = true;
          break;
        }
      }
    }
  }
  return insns;
}

/**
 * fuseSetcc: an SFPSETCC LT0/GTE0 right after the SFPIADD or SFPEXEXP that computed its operand is
 * done by that instruction's own CC mode (SFPIADD_MOD1_CC_LT0/GTE0; SFPEXEXP_MOD1_SET_CC_SGN_EXP /
 * _SGN_COMP_EXP), as sfpi-gcc combines them (gold combine.S iadd_*_yes*, exexp_yes*).
 */
export function fuseSetcc(input: readonly MInsn[]): MInsn[] {
  const out: MInsn[] = [];
  for (let i = 0; i < input.length; i++) {
    const m = input[i]!;
    const n = input[i + 1];
    const mod = n?.name === 'SFPSETCC' ? n.args((v) => v)[3] : undefined;
    if (n && m.def !== undefined && n.uses[0] === m.def && (mod === 0 || mod === 4)) {
      const own = m.args((v) => v)[3]!;
      let cc: number | undefined;
      if (m.name === 'SFPIADD' && (own & 0xc) === 4) cc = (own & 3) | (mod === 0 ? 0 : 8);
      else if (m.name === 'SFPEXEXP' && (own & 0xa) === 0) cc = own | (mod === 0 ? 2 : 10);
      if (cc !== undefined) {
        const orig = m.args;
        const v = cc;
        out.push({
          ...m,
          args: (r) => {
            const a = orig(r);
            a[3] = v;
            return a;
          },
        });
        i++;
        continue;
      }
    }
    out.push(m);
  }
  return out;
}

/**
 * regalloc: virtual -> physical LRegs 0..7 (linear scan over the straight-line code). Returns the
 * register of every value and the instructions with the copies in-place instructions need.
 */
export function regalloc(
  input: readonly MInsn[],
  fixed: ReadonlyMap<number, number>,
): { phys: Map<number, number>; insns: MInsn[] } {
  const last = new Map<number, number>();
  input.forEach((m, i) => {
    for (const u of m.uses) last.set(u, i);
    if (m.tied !== undefined) last.set(m.tied, i);
    if (m.def !== undefined && !last.has(m.def)) last.set(m.def, i);
    if (m.rw && m.def !== undefined) last.set(m.def, i);
  });
  const phys = new Map<number, number>(fixed);
  const busy = new Set<number>();
  const out: MInsn[] = [];
  // operands an instruction needs in given LRegs (SFPLUT / SFPLUTFP32): value -> LReg, and where each is defined
  const want = new Map<number, number>();
  for (const m of input)
    for (const [v, reg] of m.wantUses ?? []) {
      const w = want.get(v);
      if (w !== undefined && w !== reg)
        throw notYet(`a value needed in LReg ${w} and in LReg ${reg} (a copy)`, m.at);
      if (fixed.has(v)) throw notYet(`a constant register as an operand that must be in LReg ${reg}`, m.at);
      want.set(v, reg);
    }
  // a wanted value made in place over an operand that dies there (SFPMULI / SFPADDI on a temporary):
  // that operand is wanted in the same LReg, so its own definition is placed there
  for (let i = input.length - 1; i >= 0; i--) {
    const m = input[i]!;
    if (m.def === undefined || m.tied === undefined || m.rw) continue;
    const w = want.get(m.def);
    if (w === undefined || fixed.has(m.tied) || want.has(m.tied) || last.get(m.tied) !== i) continue;
    want.set(m.tied, w);
  }
  const defIndex = new Map<number, number>();
  input.forEach((m, i) => {
    if (m.def !== undefined && !m.rw && !defIndex.has(m.def)) defIndex.set(m.def, i);
    if (m.def2) {
      last.set(m.def2.tied, i);
      if (!last.has(m.def2.def)) last.set(m.def2.def, i);
    }
    for (const [d] of m.inPlace ?? []) {
      if (!last.has(d)) last.set(d, i);
      if (!defIndex.has(d)) defIndex.set(d, i);
    }
  });
  // SFPTRANSP transposes LRegs 4..7 as well as its operands in 0..3: a value live across one is kept
  // out of 4..7 when the allocator has the choice (and reported when it has not, below)
  const transps: number[] = [];
  input.forEach((m, i) => {
    if (m.name === 'SFPTRANSP') transps.push(i);
  });
  const HIGH = [4, 5, 6, 7];
  // where the register a value is given stays busy: a result written in place over a value that dies
  // there (a conditional assignment, SFPIADD, SFPTRANSP, ...) takes over its register, so the register
  // is held to the end of that chain
  const chainEnd = new Map<number, number>();
  for (let i = input.length - 1; i >= 0; i--) {
    const m = input[i]!;
    const pairs: [number, number][] = [...(m.inPlace ?? [])];
    if (m.def !== undefined && m.tied !== undefined && !m.rw) pairs.push([m.def, m.tied]);
    if (m.def2) pairs.push([m.def2.def, m.def2.tied]);
    for (const [d, t] of pairs) {
      if (fixed.has(t) || last.get(t) !== i) continue;
      const end = Math.max(chainEnd.get(d) ?? last.get(d) ?? i, last.get(t) ?? i);
      chainEnd.set(t, Math.max(chainEnd.get(t) ?? 0, end));
    }
  }
  const endOf = (v: number, i: number) => chainEnd.get(v) ?? last.get(v) ?? i;
  const spansTransp = (from: number, to: number) => transps.some((t) => t > from && t < to);
  // a raw TTI_ word among the SFPI code: a value live across it is kept out of the LRegs it reads or
  // writes (checked after allocation, below)
  const ttis: [number, number][] = [];
  input.forEach((m, i) => {
    if (m.tti) ttis.push([i, (m.tti.reads | m.tti.writes) & 0xff]);
  });
  const ttiRegs = (from: number, to: number, into: Set<number>) => {
    for (const [k, mask] of ttis)
      if (k > from && k < to) for (let r = 0; r < 8; r++) if (mask & (1 << r)) into.add(r);
  };
  /** Registers that values defined within (from, to] must get: kept free over that stretch. */
  const wantedBetween = (from: number, to: number) => {
    const regs = new Set<number>();
    for (const [v, reg] of want) {
      const d = defIndex.get(v);
      if (d !== undefined && d > from && d <= to) regs.add(reg);
    }
    return regs;
  };
  const take = (at: Loc, avoid?: Set<number>) => {
    let r = 0;
    while (r < 8 && (busy.has(r) || avoid?.has(r))) r++;
    if (r === 8) {
      r = 0;
      while (r < 8 && busy.has(r)) r++;
    }
    if (r === 8) {
      // say which values hold the eight LRegs (the line that made each), so the user sees what to
      // recompute or reload later
      const held: string[] = [];
      for (let p = 0; p < 8; p++) {
        let v: number | undefined;
        for (const [x, q] of phys)
          if (q === p && !fixed.has(x) && (last.get(x) ?? -1) >= cur && (defIndex.get(x) ?? 0) <= cur) v = x;
        const d = v === undefined ? undefined : input[defIndex.get(v) ?? -1];
        const where = d ? `${d.at.file === at.file ? '' : `${d.at.file}:`}${d.at.line}` : '';
        held.push(
          `L${p} ${d ? `${d.name.replace(/^\./, '')} (line ${where})` : kept.has(p) ? 'an l_reg[] write' : 'an l_reg[] read'}`,
        );
      }
      throw badInput(
        `cannot store sfpu register (register spill): more than 8 SFPI values are live here (${held.join(', ')})`,
        {
          location: at,
          hint: 'the SFPU has 8 general LRegs and SFPI does not spill; reload or recompute a value later instead of keeping it live',
        },
      );
    }
    busy.add(r);
    return r;
  };
  // l_reg[N] reads: LReg N holds that value from the start, so nothing else may take N before it
  for (const m of input) if (m.name === '.lreg') busy.add(m.pin!);
  /** LRegs an l_reg[N] write has filled: kept to the end. */
  const kept = new Set<number>();
  /** The instruction being allocated (for the spill error's list of live values). */
  let cur = 0;
  input.forEach((m0, i) => {
    cur = i;
    const dying = (v: number) => last.get(v) === i && !fixed.has(v) && phys.has(v) && !kept.has(phys.get(v)!);
    if (m0.name === '.lreg') {
      phys.set(m0.def!, m0.pin!);
      if (last.get(m0.def!) === i) busy.delete(m0.pin!);
      return;
    }
    if (m0.name === '.lwrite') {
      const src = m0.uses[0]!;
      const n = m0.pin!;
      const p = phys.get(src);
      if (p !== n) {
        if (busy.has(n))
          throw notYet(`l_reg[${n}] written while LReg ${n} holds another live SFPI value`, m0.at);
        // a register move of the allocator: sfpi-gcc's move pattern copies every lane (SFPMOV mod 2; gold smoke.S smokier)
        out.push({ name: 'SFPMOV', uses: [src], args: (rg) => [0, rg(src), n, 2], at: m0.at });
      }
      if (dying(src) && p !== n) busy.delete(p!);
      busy.add(n);
      kept.add(n);
      return;
    }
    for (const [v, reg] of m0.wantUses ?? [])
      if (phys.get(v) !== reg)
        throw notYet(
          `an operand of ${m0.name} that must be in LReg ${reg} (it is in LReg ${phys.get(v)})`,
          m0.at,
        );
    if (m0.inPlace) {
      // SFPTRANSP: each new value in its old value's LReg (0..3), the old values dying here
      for (const [, t] of m0.inPlace)
        if (fixed.has(t) || last.get(t) !== i)
          throw notYet(
            'subvec_transp of a value still used afterwards (a copy), or of a constant register',
            m0.at,
          );
      // it transposes LRegs 4..7 too (SFPTRANSP.md Transpose4(4)): a value living across it there would
      // be scrambled (sfpi-gcc's pattern does not say so either: rvtt-wh.md names only LRegs 0..3)
      for (const [v, p] of phys) {
        if (p < 4 || p > 7 || fixed.has(v) || (defIndex.get(v) ?? i) >= i || (last.get(v) ?? -1) <= i)
          continue;
        const d = input[defIndex.get(v)!]!;
        throw badInput(
          `subvec_transp (SFPTRANSP) also transposes LRegs 4..7, and LReg ${p} holds a value still needed after it (made at line ${d.at.line})`,
          {
            location: m0.at,
            hint: 'fewer values may live across subvec_transp: four besides its operands, kept in LRegs 0..3; recompute or reload the others after it',
          },
        );
      }
      for (const p of kept)
        if (p >= 4)
          throw badInput(
            `subvec_transp (SFPTRANSP) also transposes LRegs 4..7 and would scramble the l_reg[${p}] written before it`,
            {
              location: m0.at,
            },
          );
      for (const [d, t] of m0.inPlace) {
        const p = phys.get(t)!;
        phys.set(d, p);
        if (last.get(d) === i) busy.delete(p);
      }
      out.push(m0);
      return;
    }
    if (m0.def2 && m0.tied !== undefined && m0.def !== undefined) {
      // SFPSWAP: both results in place of their (dying) operands
      const a = m0.tied;
      const b = m0.def2.tied;
      if (fixed.has(a) || fixed.has(b) || last.get(a) !== i || last.get(b) !== i)
        throw notYet(
          'vec_min_max/vec_swap of a value still used afterwards, or of a constant register',
          m0.at,
        );
      phys.set(m0.def, phys.get(a)!);
      phys.set(m0.def2.def, phys.get(b)!);
      out.push(m0);
      // a result nobody reads (the min of vec_min_max(lo, x) when only x is kept) frees its LReg
      if (last.get(m0.def) === i) busy.delete(phys.get(a)!);
      if (last.get(m0.def2.def) === i) busy.delete(phys.get(b)!);
      return;
    }
    const w = m0.def !== undefined && !m0.rw && m0.tied === undefined ? want.get(m0.def) : undefined;
    if (w !== undefined) {
      // a value an SFPLUT needs in LReg w is made there
      for (const u of m0.uses) if (dying(u)) busy.delete(phys.get(u)!);
      // an l_reg[w] write holds LReg w only up to itself in sfpi-gcc (sfppreservelreg is a use of the
      // value in that register, nothing after): a later value that must be in w takes it over
      if (busy.has(w) && kept.has(w)) {
        kept.delete(w);
        busy.delete(w);
      }
      if (busy.has(w)) {
        let line = '';
        for (const [v, p] of phys)
          if (p === w && !fixed.has(v) && (defIndex.get(v) ?? i) < i && (last.get(v) ?? -1) >= i)
            line = ` (made at line ${input[defIndex.get(v)!]!.at.line})`;
        throw notYet(
          `a value that must be in LReg ${w} while LReg ${w} holds another live value${line}`,
          m0.at,
        );
      }
      busy.add(w);
      phys.set(m0.def!, w);
      out.push(m0);
      if (last.get(m0.def!) === i) busy.delete(w);
      return;
    }
    // a commutative in-place instruction overwrites whichever operand dies here (gold regmov.S)
    const m =
      m0.alt && m0.tied !== undefined && !dying(m0.tied) && dying(m0.alt.tied) ? { ...m0, ...m0.alt } : m0;
    if (m.def !== undefined && !m.rw && m.tied !== undefined) {
      const t = m.tied;
      if (fixed.has(t) || last.get(t) !== i) {
        if (!m.copy) {
          if (fixed.has(t))
            throw notYet(
              'conditional assignment to a variable that holds a constant register (vConst*)',
              m.at,
            );
          throw notYet(
            'conditional assignment to a variable whose earlier value is still used (a copy)',
            m.at,
          );
        }
        // the operand lives on: the result goes into a fresh register holding a copy of it (taken
        // before the other operands' registers are freed: the copy is written before they are read)
        const r = take(m.at);
        for (const u of m.uses) if (u !== t && dying(u)) busy.delete(phys.get(u)!);
        phys.set(m.def, r);
        const src = t;
        const d = m.def;
        out.push({ name: 'SFPMOV', def: d, uses: [src], args: (rg) => [0, rg(src), rg(d), 0], at: m.at });
        out.push({ ...m, tied: undefined });
        if (last.get(m.def) === i) busy.delete(r);
        return;
      }
      for (const u of m.uses) if (dying(u) && u !== t) busy.delete(phys.get(u)!);
      phys.set(m.def, phys.get(t)!);
      out.push(m);
      if (last.get(m.def) === i) busy.delete(phys.get(t)!);
      return;
    }
    // the result reuses the register of the first operand (in the instruction's operand order)
    // whose last use this is, as sfpi-gcc's allocator does in the gold listings
    const reuse = m.uses.find((u) => dying(u) && u !== m.scratch);
    for (const u of m.uses) if (dying(u)) busy.delete(phys.get(u)!);
    out.push(m);
    if (m.def === undefined || m.rw) return;
    const avoid = wantedBetween(i, endOf(m.def, i));
    if (spansTransp(i, endOf(m.def, i))) for (const h of HIGH) avoid.add(h);
    if (ttis.length) ttiRegs(i, endOf(m.def, i), avoid);
    const r =
      reuse !== undefined && m.def !== undefined && !avoid.has(phys.get(reuse)!)
        ? phys.get(reuse)!
        : take(m.at, avoid);
    busy.add(r);
    phys.set(m.def, r);
    if (last.get(m.def) === i) busy.delete(r);
  });
  // no SFPI value may be live across a TTI_ word in an LReg that word reads or writes: the word would
  // change it, or its result would depend on where the allocator put the value
  for (const [k, mask] of ttis)
    for (const [v, p] of phys) {
      if (fixed.has(v) || p > 7 || !(mask & (1 << p))) continue;
      const d = defIndex.get(v);
      if (d === undefined || d >= k || (last.get(v) ?? -1) <= k) continue;
      const m = input[k]!;
      const rw = m.tti!.writes & (1 << p) ? 'writes' : 'reads';
      throw badInput(
        `this TTI_ word ${rw} LReg ${p}, which holds an SFPI value still needed after it (made at line ${input[d]!.at.line}): no free LReg the word does not touch is left for it`,
        {
          location: m.at,
          hint: 'fewer SFPI values may live across a TTI_ word that uses many LRegs; reload or recompute the value after it',
        },
      );
    }
  return { phys, insns: out };
}

/** nops: Wormhole needs an independent instruction after a MAD-class one before its result is read. */
export function nops(insns: readonly MInsn[], phys: ReadonlyMap<number, number>, arch: Arch): MInsn[] {
  const out: MInsn[] = [];
  insns.forEach((m, i) => {
    out.push(m);
    if (m.nopAfter) {
      out.push({ name: 'SFPNOP', uses: [], args: () => [], at: m.at });
      return;
    }
    const n = insns[i + 1];
    if (n?.tti && MAD_CLASS.has(m.name) && m.def !== undefined) {
      // a TTI_ word reading the MAD result: Wormhole always needs the NOP, Blackhole where its stall
      // logic does not see the read (timing/deps.ts stallReads); sfpi-gcc puts one before every asm
      const bit = 1 << phys.get(m.def)!;
      if (n.tti.reads & bit && (arch === 'wormhole' || !(n.tti.stallReads & bit)))
        out.push({ name: 'SFPNOP', uses: [], args: () => [], at: m.at });
      return;
    }
    if (arch !== 'wormhole') {
      // Blackhole stalls the next reader of a MAD-family result, except where its stall logic misses
      // the read (BH SFPMAD.md, docs/tensix-timing.md): the in-place operand (VD) of SFPIADD / SFPSHFT /
      // SFPAND / SFPOR / SFPSHFT2, and SFPCONFIG's LReg 0 — there an SFPNOP goes between
      if (!n || !MAD_CLASS.has(m.name) || m.def === undefined) return;
      const d = phys.get(m.def);
      const vd =
        n.tied !== undefined ? phys.get(n.tied) : n.rw && n.def !== undefined ? phys.get(n.def) : undefined;
      if ((BH_MISSED.has(n.name) && vd === d) || (n.name === 'SFPCONFIG' && d === 0))
        out.push({ name: 'SFPNOP', uses: [], args: () => [], at: m.at });
      return;
    }
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

/**
 * ttiPieces: splits a trace at its TTI_ words where no SFPI value is live across the word, so such a
 * kernel compiles as before (each stretch on its own); stretches a value crosses stay together and the
 * allocator keeps that value out of the word's LRegs. Each piece is a trace or a lone TTI_ word.
 */
export function ttiPieces(ops: readonly TraceOp[]): TraceOp[][] {
  const lastUse = new Map<number, number>();
  ops.forEach((o, i) => {
    for (const u of usesOf(o)) lastUse.set(u, i);
    if (o.k === 'cond' || o.k === 'condval') for (const u of condUses(o.cond)) lastUse.set(u, i);
  });
  // the furthest use so far of any value defined before each position
  const out: TraceOp[][] = [];
  let cur: TraceOp[] = [];
  let reach = -1;
  ops.forEach((o, i) => {
    if (o.k === 'raw' && o.tti && reach <= i) {
      if (cur.length) out.push(cur);
      out.push([o]);
      cur = [];
      return;
    }
    cur.push(o);
    const d = defOf(o);
    if (d !== undefined) reach = Math.max(reach, lastUse.get(d) ?? i);
    if (o.k === 'swap') reach = Math.max(reach, lastUse.get(o.idb) ?? i);
    if (o.k === 'transp') for (const x of o.ids) reach = Math.max(reach, lastUse.get(x) ?? i);
  });
  if (cur.length) out.push(cur);
  return out;
}

/** All passes: trace -> resolved instructions. */
export function compileTrace(ops: readonly TraceOp[], arch: Arch) {
  const run = (remat: boolean) => {
    let combined = immediates(copies(combine(ops)));
    if (remat) combined = rematerialise(combined);
    const lowered = lower(combined, arch);
    const { phys, insns } = regalloc(fuseSetcc(elidePushPop(fuseCmov(lowered.insns))), lowered.fixed);
    // a copy into its own register (an l_reg[] write of the value already there) is no instruction
    return resolve(nops(insns, phys, arch), phys).filter(
      (i) => !(i.name === 'SFPMOV' && i.args[3] === 0 && i.args[1] === i.args[2]),
    );
  };
  try {
    return run(false);
  } catch (e) {
    // out of LRegs: reload constants next to each use instead of keeping them live, as sfpi-gcc
    // does under register pressure; a kernel that still needs a 9th value gets the spill error
    if (!(e instanceof AxsimError && /register spill/.test(e.message))) throw e;
    return run(true);
  }
}

/**
 * rematerialise: every use of a constant (float/int literal) in an operation, store or condition gets
 * its own load right before it, so constants are live only at their uses. Not for a value that a
 * conditional assignment replaces (its lanes outside the condition must keep it).
 */
export function rematerialise(input: readonly TraceOp[]): TraceOp[] {
  const consts = new Map<number, TraceOp & { k: 'fimm' | 'iimm' }>();
  const pinned = new Set<number>();
  for (const o of input) {
    if (o.k === 'fimm' || o.k === 'iimm') consts.set(o.id, o);
    if (o.k === 'cmov') {
      pinned.add(o.old);
      pinned.add(o.src);
    }
    if (o.k === 'op' && o.op === 'copy') pinned.add(o.a);
    // operands placed in fixed LRegs or rewritten in place (SFPLUT/SFPLUTFP32/SFPSWAP) keep their one load
    if (o.k === 'lut' || o.k === 'lut2' || o.k === 'swap' || o.k === 'transp')
      for (const u of usesOf(o)) pinned.add(u);
  }
  let next = 2_000_000_000;
  const out: TraceOp[] = [];
  for (const o of input) {
    if ((o.k === 'fimm' || o.k === 'iimm') && !pinned.has(o.id)) continue; // re-emitted at each use
    const uses = usesOf(o).filter((u) => consts.has(u) && !pinned.has(u));
    if (
      !uses.length ||
      (o.k !== 'op' && o.k !== 'opi' && o.k !== 'store' && o.k !== 'cond' && o.k !== 'lwrite')
    ) {
      out.push(o);
      continue;
    }
    const fresh = new Map<number, number>();
    for (const u of new Set(uses)) {
      const id = next++;
      fresh.set(u, id);
      out.push({ ...consts.get(u)!, id, at: o.at });
    }
    out.push(renameUses(o, (v) => fresh.get(v) ?? v));
  }
  return out;
}

function renameUses(o: TraceOp, f: (v: number) => number): TraceOp {
  const rc = (c: Cond): Cond =>
    c.k === 'fcmp' || c.k === 'icmp'
      ? { ...c, a: f(c.a), b: c.b >= 0 ? f(c.b) : c.b }
      : c.k === 'not'
        ? { k: 'not', a: rc(c.a) }
        : { k: c.k, a: rc(c.a), b: rc(c.b) };
  switch (o.k) {
    case 'op':
      return { ...o, a: f(o.a), b: o.b >= 0 ? f(o.b) : o.b, ...(o.c !== undefined ? { c: f(o.c) } : {}) };
    case 'opi':
      return { ...o, a: f(o.a) };
    case 'store':
    case 'lwrite':
      return { ...o, src: f(o.src) };
    case 'cond':
      return { ...o, cond: rc(o.cond) };
    case 'insn':
      return {
        ...o,
        vregs: o.vregs.map(([k, v]) => [k, f(v)]),
        ...(o.tied !== undefined ? { tied: f(o.tied) } : {}),
      };
    default:
      return o;
  }
}
