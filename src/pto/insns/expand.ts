/**
 * Broadcasts: TROWEXPAND (dst[r,c] = src[r,0]), TCOLEXPAND (dst[r,c] = src[0,c]) and the fused
 * TROWEXPAND{ADD,SUB,MUL,DIV,MAX,MIN,EXPDIF} / TCOLEXPAND{...} forms. pto-isa TRowExpand*.hpp,
 * TColExpand*.hpp: the row forms index each operand as `src[r, c % src.validCol]` (so a RowMajor
 * per-row operand with 32 bytes of valid columns *cycles* across the row), the column forms use
 * `src1[0, c]`. Iteration domain: the dst valid region.
 */
import { undefinedBehaviour } from '../../errors.ts';
import { type Arith, anyArith } from '../arith.ts';
import { glibcExp } from '../glibc.ts';
import { ALL, copyElem, type ExecCtx, type OpDef, off, per, reject } from '../op.ts';

const REF = 'pto-isa docs/isa/tile/ops/reduce-and-expand';

type Kind = 'ADD' | 'SUB' | 'MUL' | 'DIV' | 'MAX' | 'MIN' | 'EXPDIF';
const KINDS: readonly Kind[] = ['ADD', 'SUB', 'MUL', 'DIV', 'MAX', 'MIN', 'EXPDIF'];

function allowed(kind: Kind, d: string): boolean {
  if (d === 'f32' || d === 'f16') return true;
  if (kind !== 'EXPDIF' && ['i32', 'i16', 'u32', 'u16'].includes(d)) return true;
  return kind === 'MUL' && d === 'u8';
}

/** Returns 0/1 for a pick of src0/src1 (MAX/MIN) or a computed value. */
function apply(A: Arith<unknown>, kind: Kind, a: unknown, b: unknown): unknown {
  switch (kind) {
    case 'ADD':
      return A.add(a, b);
    case 'SUB':
      return A.sub(a, b);
    case 'MUL':
      return A.mul(a, b);
    case 'DIV':
      return A.div(a, b);
    case 'EXPDIF':
      // static_cast<double>(src0 - src1): the cast rounds the (float-evaluated) half difference
      // to the element type first (C's excess-precision rule), then exp runs in double
      return A.fromF64(glibcExp(A.toF64(A.round(A.sub(a, b)))));
    default:
      return undefined;
  }
}

function expandOp(ctx: ExecCtx, kind: Kind, dir: 'row' | 'col'): void {
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const A = anyArith(d.dtype, ctx.profile);
  const dv = A.view(d.bytes);
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  if (dir === 'row' && (s0.validCol === 0 || s1.validCol === 0) && d.validRow > 0 && d.validCol > 0) {
    throw undefinedBehaviour(`${ctx.op.name}: an operand with 0 valid columns (c % 0 in the simulator)`);
  }
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const o0 = dir === 'row' ? off(s0, r, c % s0.validCol) : off(s0, r, c);
      const o1 = dir === 'row' ? off(s1, r, c % s1.validCol) : off(s1, 0, c);
      const o = off(d, r, c);
      const a = A.load(v0, o0);
      const b = A.load(v1, o1);
      if (kind === 'MAX') {
        if (A.lt(a, b)) copyElem(s1, o1, d, o);
        else copyElem(s0, o0, d, o);
      } else if (kind === 'MIN') {
        if (A.lt(b, a)) copyElem(s1, o1, d, o);
        else copyElem(s0, o0, d, o);
      } else {
        A.store(dv, o, apply(A, kind, a, b));
      }
    }
  }
}

function fused(dir: 'row' | 'col', kind: Kind): OpDef {
  const name = `T${dir.toUpperCase()}EXPAND${kind}`;
  return {
    name,
    family: 'expand',
    summary:
      dir === 'row'
        ? `dst[r,c] = src0[r, c % src0.validCol] ${kind} src1[r, c % src1.validCol]`
        : `dst[r,c] = src0[r,c] ${kind} src1[0,c]`,
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile' },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
    ],
    attrs: [],
    dtypes: per(ALL.filter((d) => allowed(kind, d))),
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      for (const n of ['src0', 'src1']) {
        if (ctx.tiles[n]!.dtype !== d.dtype)
          reject(name, d.dtype, `${n} must have the dst element type`, ctx.profile);
      }
      const rm = dir === 'row' ? [d] : [d, ctx.tiles.src0!, ctx.tiles.src1!];
      if (rm.some((t) => t.blayout !== 'row'))
        reject(name, `${d.dtype}(ColMajor)`, 'tiles must be RowMajor', ctx.profile);
    },
    exec: (ctx) => expandOp(ctx, kind, dir),
  };
}

function broadcast(ctx: ExecCtx, dir: 'row' | 'col'): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const S = anyArith(s.dtype, ctx.profile);
  const D = anyArith(d.dtype, ctx.profile);
  const sv = S.view(s.bytes);
  const dv = D.view(d.bytes);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const so = dir === 'row' ? off(s, r, 0) : off(s, 0, c);
      const o = off(d, r, c);
      if (s.dtype === d.dtype) copyElem(s, so, d, o);
      else D.store(dv, o, D.fromF64(S.toF64(S.load(sv, so))));
    }
  }
}

function plain(dir: 'row' | 'col'): OpDef {
  const name = `T${dir.toUpperCase()}EXPAND`;
  return {
    name,
    family: 'expand',
    summary: dir === 'row' ? 'dst[r,c] = src[r,0]' : 'dst[r,c] = src[0,c]',
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [],
    dtypes: per(ALL),
    exec: (ctx) => broadcast(ctx, dir),
  };
}

export const EXPAND_OPS: readonly OpDef[] = [
  plain('row'),
  plain('col'),
  ...KINDS.map((k) => fused('row', k)),
  ...KINDS.map((k) => fused('col', k)),
];
