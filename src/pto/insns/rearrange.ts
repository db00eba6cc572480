/**
 * Row-wise rearrangement (pto-isa docs/isa/tile/ops/layout-and-rearrangement/tconcat.md,
 * docs/isa/TINTERLEAVE.md, docs/isa/TDEINTERLEAVE.md; include/pto/cpu/TConcat.hpp, TInterleave.hpp,
 * TDeinterleave.hpp). Elements are copied bit for bit.
 *
 * - TCONCAT: for each row r < dst.validRow, dst(r, 0..n0-1) = src0(r, ·), dst(r, n0..n0+n1-1) =
 *   src1(r, ·) with n0/n1 = src0/src1.validCol. The index form takes n0/n1 per row from
 *   src0Idx(r, 0) / src1Idx(r, 0) divided by the index element size (both the simulator and the A5
 *   kernel divide by sizeof(index type)); the optional dstIdx(r, 0) receives the sum of the two raw
 *   values. On `cpu` nothing is clamped (the simulator's size checks are `assert`s, compiled out: a
 *   write outside dst's buffer is UndefinedBehaviour); a2a3/a5 follow the A5 kernel: n0 = min(k0,
 *   dst.validCol), n1 = min(k1, dst.validCol − n0), dstIdx = min(k0 + k1, dst.validCol) · size.
 * - TINTERLEAVE(dst0, dst1, src0, src1): per row, the stream src0(r,0) src1(r,0) src0(r,1) … of
 *   length 2C (C = dst0.validCol) is split: its first C elements go to dst0, the rest to dst1 (the
 *   simulator walks C/2 pairs; C must be even).
 * - TDEINTERLEAVE: the inverse; two-source form: dst0 = even elements, dst1 = odd elements of the
 *   stream src0(r, ·) ++ src1(r, ·) (C columns each); one-source form: of src(r, 0..2C-1).
 */
import { badInput } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { copyElem, type ExecCtx, INTS, type OpDef, off, reject } from '../op.ts';
import type { Tile } from '../tile.ts';

const LAYOUT = 'pto-isa docs/isa/tile/ops/layout-and-rearrangement';
const CONCAT_TYPES: readonly DType[] = ['i32', 'i16', 'i8', 'u32', 'u16', 'u8', 'f16', 'f32', 'bf16'];
const IDX_TYPES: readonly DType[] = ['i32', 'i16', 'i8', 'u32', 'u16', 'u8'];

function sameTypes(ctx: ExecCtx, names: readonly string[], ref: Tile): void {
  for (const n of names) {
    const t = ctx.tiles[n];
    if (t && t.dtype !== ref.dtype)
      reject(
        ctx.op.name,
        ref.dtype,
        `${n} (${t.dtype}) must have the element type ${ref.dtype}`,
        ctx.profile,
      );
  }
}

function vecRowMajor(ctx: ExecCtx, names: readonly string[], ref: Tile): void {
  for (const n of names) {
    const t = ctx.tiles[n];
    if (t && (t.loc !== 'vec' || (t.blayout !== 'row' && ctx.profile !== 'cpu')))
      reject(ctx.op.name, ref.dtype, `${n} must be a RowMajor vec tile`, ctx.profile);
  }
}

function readCount(t: Tile, r: number, ctx: ExecCtx): number {
  const A = anyArith(t.dtype, ctx.profile);
  return Number(A.load(A.view(t.bytes), off(t, r, 0)));
}

function tconcat(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const i0 = ctx.tiles.src0Idx;
  const i1 = ctx.tiles.src1Idx;
  const di = ctx.tiles.dstIdx;
  const cpu = ctx.profile === 'cpu';
  for (let r = 0; r < d.validRow; r++) {
    let n0 = s0.validCol;
    let n1 = s1.validCol;
    if (i0 && i1) {
      const size = i0.elemBytes;
      const b0 = readCount(i0, r, ctx);
      const b1 = readCount(i1, r, ctx);
      const k0 = Math.floor(b0 / size);
      const k1 = Math.floor(b1 / size);
      if (di) {
        const D = anyArith(di.dtype, ctx.profile);
        // cpu: byte0 + byte1 stored; A5: min(k0 + k1, dst.validCol) * size
        const v = cpu ? b0 + b1 : Math.min(k0 + k1, d.validCol) * size;
        D.store(D.view(di.bytes), off(di, r, 0), D.fromF64(v));
      }
      if (cpu) {
        n0 = k0;
        n1 = k1;
      } else {
        n0 = Math.min(k0, d.validCol);
        n1 = Math.min(k1, d.validCol - n0);
      }
    }
    for (let c = 0; c < n0; c++) copyElem(s0, off(s0, r, c), d, off(d, r, c));
    for (let c = 0; c < n1; c++) copyElem(s1, off(s1, r, c), d, off(d, r, n0 + c));
  }
}

function tinterleave(ctx: ExecCtx): void {
  const d0 = ctx.tiles.dst0!;
  const d1 = ctx.tiles.dst1!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const mid = Math.floor(d0.validCol / 2);
  for (let r = 0; r < d0.validRow; r++) {
    for (let c = 0; c < mid; c++) {
      const left = [off(s0, r, c), off(s1, r, c)] as const;
      const right = [off(s0, r, c + mid), off(s1, r, c + mid)] as const;
      copyElem(s0, left[0], d0, off(d0, r, 2 * c));
      copyElem(s1, left[1], d0, off(d0, r, 2 * c + 1));
      copyElem(s0, right[0], d1, off(d1, r, 2 * c));
      copyElem(s1, right[1], d1, off(d1, r, 2 * c + 1));
    }
  }
}

function tdeinterleave(ctx: ExecCtx): void {
  const d0 = ctx.tiles.dst0!;
  const d1 = ctx.tiles.dst1!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1;
  const vr = d0.validRow;
  const vc = d0.validCol;
  if (!s1) {
    for (let r = 0; r < vr; r++) {
      for (let c = 0; c < vc; c++) {
        copyElem(s0, off(s0, r, 2 * c), d0, off(d0, r, c));
        copyElem(s0, off(s0, r, 2 * c + 1), d1, off(d1, r, c));
      }
    }
    return;
  }
  const mid = Math.floor(vc / 2);
  for (let r = 0; r < vr; r++) {
    for (let c = 0; c < mid; c++) {
      copyElem(s0, off(s0, r, 2 * c), d0, off(d0, r, c));
      copyElem(s0, off(s0, r, 2 * c + 1), d1, off(d1, r, c));
      copyElem(s1, off(s1, r, 2 * c), d0, off(d0, r, c + mid));
      copyElem(s1, off(s1, r, 2 * c + 1), d1, off(d1, r, c + mid));
    }
  }
}

/** The pages' shape rules for the interleave pair (A5): one valid shape, even columns. */
function checkPair(ctx: ExecCtx, oneSource: boolean): void {
  const d0 = ctx.tiles.dst0!;
  const s0 = ctx.tiles.src0!;
  sameTypes(ctx, ['dst0', 'dst1', 'src0', 'src1'], d0);
  if (['dst0', 'dst1', 'src0', 'src1'].some((n) => ctx.tiles[n] && ctx.tiles[n]!.blayout !== 'row'))
    reject(ctx.op.name, `${d0.dtype}(ColMajor)`, 'the tiles must be RowMajor', ctx.profile);
  if (ctx.profile === 'cpu') return; // the simulator's shape checks are asserts (compiled out)
  const vc = d0.validCol;
  const same = (t: Tile | undefined, cols: number) =>
    !t || (t.validRow === d0.validRow && t.validCol === cols);
  const ok =
    vc % 2 === 0 &&
    same(ctx.tiles.dst1, vc) &&
    (oneSource ? same(s0, 2 * vc) : same(s0, vc) && same(ctx.tiles.src1, vc));
  if (!ok)
    throw badInput(`${ctx.op.name}: the tiles need one valid shape with an even column count`, {
      hint: oneSource
        ? 'src has twice the columns of dst0/dst1'
        : 'dst0, dst1, src0, src1 share one valid shape',
    });
}

const PAIR_TYPES: readonly DType[] = ['i32', 'u32', 'f32', 'i16', 'u16', 'f16', 'bf16', 'u8', 'i8'];

export const REARRANGE_OPS: readonly OpDef[] = [
  {
    name: 'TCONCAT',
    family: 'layout',
    summary: 'dst(r,:) = src0(r, 0..n0-1) ++ src1(r, 0..n1-1); n0/n1 = valid columns or per-row index tiles',
    ref: `${LAYOUT}/tconcat.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile' },
      { name: 'src0Idx', kind: 'tile', optional: true },
      { name: 'src1Idx', kind: 'tile', optional: true },
      { name: 'dstIdx', kind: 'tile', out: true, optional: true },
    ],
    attrs: [],
    primary: 'dst',
    dtypes: { cpu: CONCAT_TYPES, a2a3: CONCAT_TYPES, a5: CONCAT_TYPES },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      sameTypes(ctx, ['src0', 'src1'], d);
      vecRowMajor(ctx, ['dst', 'src0', 'src1', 'src0Idx', 'src1Idx', 'dstIdx'], d);
      const i0 = ctx.tiles.src0Idx;
      const i1 = ctx.tiles.src1Idx;
      const di = ctx.tiles.dstIdx;
      if (!i0 !== !i1) throw badInput('TCONCAT: give both src0Idx and src1Idx, or neither');
      if (di && !i0) throw badInput('TCONCAT: dstIdx needs src0Idx and src1Idx');
      if (i0 && i1) {
        if (!IDX_TYPES.includes(i0.dtype) || i1.dtype !== i0.dtype || (di && di.dtype !== i0.dtype))
          reject('TCONCAT', d.dtype, 'the index tiles must share one 8/16/32-bit integer type', ctx.profile);
      }
      if (ctx.profile !== 'cpu' && !i0) {
        const s0 = ctx.tiles.src0!;
        const s1 = ctx.tiles.src1!;
        if (
          s0.validRow !== d.validRow ||
          s1.validRow !== d.validRow ||
          d.validCol !== s0.validCol + s1.validCol
        )
          throw badInput(
            `TCONCAT: dst valid ${d.validRow}x${d.validCol} must be ${s0.validRow} rows by ${s0.validCol} + ${s1.validCol} columns`,
          );
      }
    },
    exec: tconcat,
  },
  {
    name: 'TINTERLEAVE',
    family: 'layout',
    summary: 'per row, src0/src1 interleaved; first half to dst0, second half to dst1',
    ref: 'pto-isa docs/isa/TINTERLEAVE.md',
    operands: [
      { name: 'dst0', kind: 'tile', out: true },
      { name: 'dst1', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile' },
    ],
    attrs: [],
    primary: 'dst0',
    dtypes: { cpu: [...INTS, 'f16', 'bf16', 'f32', 'f8e4m3', 'f8e5m2'], a2a3: [], a5: PAIR_TYPES },
    check: (ctx) => checkPair(ctx, false),
    exec: tinterleave,
  },
  {
    name: 'TDEINTERLEAVE',
    family: 'layout',
    summary: 'per row, even elements of src0 ++ src1 (or of src) to dst0, odd ones to dst1',
    ref: 'pto-isa docs/isa/TDEINTERLEAVE.md',
    operands: [
      { name: 'dst0', kind: 'tile', out: true },
      { name: 'dst1', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile', optional: true },
    ],
    attrs: [],
    primary: 'dst0',
    dtypes: { cpu: [...INTS, 'f16', 'bf16', 'f32', 'f8e4m3', 'f8e5m2'], a2a3: [], a5: PAIR_TYPES },
    check: (ctx) => checkPair(ctx, !ctx.tiles.src1),
    exec: tdeinterleave,
  },
];
