/**
 * One view of a tile op whatever form it was written in (Level-2 DPS, Level-1 SSA, or the
 * assembly form): its signature, inputs with types, the destination, and its attributes. The
 * verifier, the runner and the cost models all work on this.
 */
import type { Attr, NamedAttr, Op, Pos, Type, Use } from './ast.ts';
import { OP_SIGS, type OpSig } from './ops.ts';

export interface CallInput {
  /** The SSA value (undefined for an immediate). */
  use: Use | undefined;
  /** The immediate (assembly and SSA forms allow numeric literals). */
  imm: Attr | undefined;
  /** The written type; undefined for assembly-form scalars (their type is the definition's). */
  type: Type | undefined;
  pos: Pos;
}

export interface TileCall {
  op: Op;
  sig: OpSig;
  /** `pto.tadd` — the spelling used in messages. */
  name: string;
  ins: CallInput[];
  /** The destination buffer (DPS outs, assembly-form first operand) or the fresh SSA result. */
  out: { use: Use; type: Type | undefined };
  /** True when `out` is a new value (Level-1 SSA result, or `%d = tadd …`), not an existing buffer. */
  outIsResult: boolean;
  /** Further `outs(…)` operands after the first (tsort32's index tile, tmrgsort's tmp / executed). */
  extraOuts: { use: Use; type: Type | undefined }[];
  attrs: NamedAttr[];
}

/** Returns the normalised call for a tile op, or undefined for any other op. */
export function tileCall(op: Op): TileCall | undefined {
  if (op.kind === 'dps') {
    const sig = OP_SIGS.get(op.name.slice(4))!;
    const out = op.outs[0];
    // ops without a destination (pto.tprint, pto.tsync) are not tile calls
    if (!out) return undefined;
    const o1 = op.outs[1];
    if (
      op.name === 'pto.tmrgsort' &&
      op.ins.length >= 3 &&
      op.outs.length === 2 &&
      o1?.type.kind === 'vector'
    ) {
      // PTOAS @a56b18c3 format 2: ins(%s0, …, %tmp {exhausted}) outs(%dst, %executed) — the
      // scratch tile is the last input; axsim's order is outs(%dst, %tmp, %executed)
      const tmp = op.ins[op.ins.length - 1]!;
      return {
        op,
        sig,
        name: op.name,
        ins: op.ins.slice(0, -1).map((i) => ({ use: i.use, imm: undefined, type: i.type, pos: i.use.pos })),
        out: { use: out.use, type: out.type },
        outIsResult: false,
        extraOuts: [
          { use: tmp.use, type: tmp.type },
          { use: o1.use, type: o1.type },
        ],
        attrs: [...(op.insAttrs ?? []), ...(op.attrs ?? [])],
      };
    }
    return {
      op,
      sig,
      name: op.name,
      ins: op.ins.map((i) => ({ use: i.use, imm: undefined, type: i.type, pos: i.use.pos })),
      out: { use: out.use, type: out.type },
      outIsResult: false,
      extraOuts: op.outs.slice(1).map((o) => ({ use: o.use, type: o.type })),
      attrs: [...(op.insAttrs ?? []), ...(op.attrs ?? [])],
    };
  }
  if (op.kind === 'ssa') {
    const sig = OP_SIGS.get(op.name.slice(4))!;
    return {
      op,
      sig,
      name: op.name,
      ins: op.operands.map((o, i) =>
        o.kind === 'value'
          ? { use: o.use, imm: undefined, type: op.operandTypes[i], pos: o.use.pos }
          : { use: undefined, imm: o.value, type: op.operandTypes[i], pos: o.pos },
      ),
      out: { use: op.results[0]!, type: op.resultType },
      outIsResult: true,
      extraOuts: [],
      attrs: op.attrs ?? [],
    };
  }
  if (op.kind === 'asm') {
    const sig = OP_SIGS.get(op.mnemonic)!;
    const hasResult = op.results.length > 0;
    const operands = hasResult ? op.operands : op.operands.slice(1);
    const dst = hasResult
      ? op.results[0]!
      : op.operands[0]?.kind === 'value'
        ? op.operands[0].use
        : undefined;
    if (!dst) return undefined;
    const attrs: NamedAttr[] = op.hashAttrs.map((a) => ({ name: a.name, value: a.value }));
    return {
      op,
      sig,
      name: op.mnemonic,
      ins: operands.map((o, i) => {
        const kind = sig.ins[Math.min(i, sig.ins.length - 1)];
        const tileKind = kind === 'T' || kind === 'T?' || kind === 'T*' || kind === 'A' || kind === 'A*';
        return o.kind === 'value'
          ? { use: o.use, imm: undefined, type: tileKind ? op.type : undefined, pos: o.use.pos }
          : { use: undefined, imm: o.value, type: undefined, pos: o.pos };
      }),
      out: { use: dst, type: op.type },
      outIsResult: hasResult,
      extraOuts: [],
      attrs,
    };
  }
  return undefined;
}

/** The compare mode of tcmp/tcmps in any spelling (`cmpMode = #pto<cmp lt>`, `cmp = "lt"`, `#cmp=lt`). */
export function attrWord(attrs: NamedAttr[], names: string[]): { word: string; attr: NamedAttr } | undefined {
  for (const a of attrs) {
    if (!names.includes(a.name)) continue;
    const v = a.value;
    if (v.kind === 'enum') return { word: v.words[v.words.length - 1]!, attr: a };
    if (v.kind === 'string') return { word: v.value, attr: a };
    if (v.kind === 'word') return { word: v.value, attr: a };
    return { word: '', attr: a };
  }
  return undefined;
}
