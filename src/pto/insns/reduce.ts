/**
 * Row and column reductions: TROWSUM TROWMAX TROWMIN TROWPROD, TCOLSUM TCOLMAX TCOLMIN TCOLPROD.
 * They iterate the *source* valid region (the dst valid shape is ignored) and write column 0 (row
 * reductions) or row 0 (column reductions) of dst. pto-isa include/pto/cpu/TRow*.hpp, TCol*.hpp:
 * TROWSUM accumulates in float for f16/bf16 destinations and in the destination type otherwise;
 * TCOLSUM and the products accumulate in the destination type; max/min start from the first
 * element and replace only on a strict comparison.
 */
import { type Arith, anyArith } from '../arith.ts';
import { DTYPE_INFO, type DType } from '../dtype.ts';
import { type Fp8Name, MX_TABLE, mxEncode } from '../hostcast.ts';
import { ALL, copyElem, type ExecCtx, type OpDef, off, per, reject } from '../op.ts';
import type { Tile } from '../tile.ts';

const REF = 'pto-isa docs/isa/tile/ops/reduce-and-expand';

/** Converts a source value to the destination type (a C++ static_cast between element types). */
function converter(S: Arith<unknown>, D: Arith<unknown>): (x: unknown) => unknown {
  if (S.dtype === D.dtype) return (x) => x;
  if (S.big || D.big || (!isF(S.dtype) && !isF(D.dtype))) {
    return (x) => D.fromF64(S.toF64(x));
  }
  return (x) => D.fromF64(S.toF64(x));
}
function isF(d: DType): boolean {
  return d === 'f32' || d === 'f16' || d === 'bf16' || d === 'f8e4m3' || d === 'f8e5m2';
}

type Dir = 'row' | 'col';

/** Iterates (outer, inner) over the source valid region along `dir`; returns src/dst coordinates. */
function lanes(
  src: Tile,
  dir: Dir,
): { outer: number; inner: number; at: (o: number, i: number) => [number, number] } {
  return dir === 'row'
    ? { outer: src.validRow, inner: src.validCol, at: (o, i) => [o, i] }
    : { outer: src.validCol, inner: src.validRow, at: (o, i) => [i, o] };
}

function dstAt(dir: Dir, o: number): [number, number] {
  return dir === 'row' ? [o, 0] : [0, o];
}

function sum(ctx: ExecCtx, dir: Dir): void {
  const src = ctx.tiles.src!;
  const dst = ctx.tiles.dst!;
  const S = anyArith(src.dtype, ctx.profile);
  const D = anyArith(dst.dtype, ctx.profile);
  // TROWSUM: TypeSum<TileDst> is float for half/bfloat16 destinations
  const T = dir === 'row' && (dst.dtype === 'f16' || dst.dtype === 'bf16') ? anyArith('f32', ctx.profile) : D;
  const toT = converter(S, T);
  const sv = S.view(src.bytes);
  const dv = D.view(dst.bytes);
  const L = lanes(src, dir);
  if (dir === 'row' && T.dtype === 'f32' && src.blayout === 'row' && src.slayout === 'none') {
    rowSumVectorised(ctx, S, D, toT as (x: unknown) => number);
    return;
  }
  for (let o = 0; o < L.outer; o++) {
    let acc = T.zero;
    for (let i = 0; i < L.inner; i++) {
      const [r, c] = L.at(o, i);
      acc = T.add(acc, toT(S.load(sv, off(src, r, c))));
      if (T === D) acc = D.round(acc);
    }
    const [dr, dc] = dstAt(dir, o);
    D.store(dv, off(dst, dr, dc), T === D ? acc : D.fromF64(T.toF64(acc)));
  }
}

/**
 * TROWSUM with a float accumulator over a RowMajor NoneBox source, in the order the optimised
 * reference build sums (PTO-NOTES §0.5: clang vectorises the PTO_CPU_VECTORIZE_LOOP with two
 * interleaved 4-lane accumulators): lanes j%8 < 4 and j%8 >= 4 accumulate separately over the
 * first floor(N/8)*8 elements, the two vectors are added lane-wise, the four lanes are summed in
 * order and added to the start value 0, and the remaining elements are added one by one. Rows
 * shorter than 8 are summed sequentially. (Unoptimised builds sum sequentially: `alt_out`.)
 */
function rowSumVectorised(
  ctx: ExecCtx,
  S: Arith<unknown>,
  D: Arith<unknown>,
  toF: (x: unknown) => number,
): void {
  const src = ctx.tiles.src!;
  const dst = ctx.tiles.dst!;
  const sv = S.view(src.bytes);
  const dv = D.view(dst.bytes);
  const fr = Math.fround;
  const a0 = new Float64Array(4);
  const a1 = new Float64Array(4);
  const n = src.validCol;
  const m = Math.floor(n / 8);
  for (let r = 0; r < src.validRow; r++) {
    const x = (j: number) => toF(S.load(sv, off(src, r, j)));
    let sum = 0;
    if (m === 0) {
      for (let j = 0; j < n; j++) sum = fr(sum + x(j));
    } else {
      a0.fill(0);
      a1.fill(0);
      for (let k = 0; k < m; k++) {
        for (let l = 0; l < 4; l++) {
          a0[l] = fr(a0[l]! + x(8 * k + l));
          a1[l] = fr(a1[l]! + x(8 * k + 4 + l));
        }
      }
      let v = fr(a0[0]! + a1[0]!);
      for (let l = 1; l < 4; l++) v = fr(v + fr(a0[l]! + a1[l]!));
      sum = fr(0 + v);
      for (let j = 8 * m; j < n; j++) sum = fr(sum + x(j));
    }
    D.store(dv, off(dst, r, 0), D.fromF64(sum));
  }
}

function prod(ctx: ExecCtx, dir: Dir): void {
  const src = ctx.tiles.src!;
  const dst = ctx.tiles.dst!;
  const S = anyArith(src.dtype, ctx.profile);
  const D = anyArith(dst.dtype, ctx.profile);
  const toD = converter(S, D);
  const sv = S.view(src.bytes);
  const dv = D.view(dst.bytes);
  const L = lanes(src, dir);
  // The simulator's fp8 product is an MXType: keep its code, not the decoded value, between steps
  // (decode -> encode is not the identity for every code).
  const mx = DTYPE_INFO[dst.dtype].fp8 && ctx.profile !== 'a5' ? (dst.dtype as Fp8Name) : undefined;
  for (let o = 0; o < L.outer; o++) {
    let p = D.one;
    let code = mx ? mxEncode(mx, 1) : 0;
    for (let i = 0; i < L.inner; i++) {
      const [r, c] = L.at(o, i);
      const x = toD(S.load(sv, off(src, r, c)));
      if (mx) code = mxEncode(mx, MX_TABLE[mx][code]! * (x as number));
      else p = D.round(D.mul(p, x));
    }
    const [dr, dc] = dstAt(dir, o);
    if (mx) dst.bytes[off(dst, dr, dc)] = code;
    else D.store(dv, off(dst, dr, dc), p);
  }
}

function extreme(ctx: ExecCtx, dir: Dir, max: boolean): void {
  const src = ctx.tiles.src!;
  const dst = ctx.tiles.dst!;
  const S = anyArith(src.dtype, ctx.profile);
  const D = anyArith(dst.dtype, ctx.profile);
  const toD = converter(S, D);
  const sv = S.view(src.bytes);
  const dv = D.view(dst.bytes);
  const L = lanes(src, dir);
  if (L.inner === 0) return;
  // TColMin/TColMax.hpp (and TRowMin/Max for a source that is not plain RowMajor) compare the raw
  // source element with the accumulator in the destination type (`src[idx] < minVal`, usual
  // arithmetic conversions); the plain RowMajor row loop converts first (`std::min(minVal,
  // static_cast<DstT>(src))`). Only a narrowing float pair can tell them apart: f32 -> f16 TCOLMIN
  // with -1e-10 after +0 keeps -0 (the reference's output; differential runs, docs/pto-status.md).
  const rawCompare =
    (dir === 'col' || src.blayout !== 'row' || src.slayout !== 'none') &&
    S.dtype === 'f32' &&
    (D.dtype === 'f16' || D.dtype === 'bf16');
  for (let o = 0; o < L.outer; o++) {
    const [r0, c0] = L.at(o, 0);
    let bestOff = off(src, r0, c0);
    let best = toD(S.load(sv, bestOff));
    for (let i = 1; i < L.inner; i++) {
      const [r, c] = L.at(o, i);
      const so = off(src, r, c);
      const raw = S.load(sv, so);
      const x = toD(raw);
      const better = rawCompare
        ? max
          ? (raw as number) > (best as number)
          : (raw as number) < (best as number)
        : max
          ? D.lt(best, x)
          : D.lt(x, best);
      if (better) {
        best = x;
        bestOff = so;
      }
    }
    const [dr, dc] = dstAt(dir, o);
    const d = off(dst, dr, dc);
    if (src.dtype === dst.dtype) copyElem(src, bestOff, dst, d);
    // re-convert the chosen element right before the store (an fp8 result keeps its code)
    else D.store(dv, d, toD(S.load(sv, bestOff)));
  }
}

function pairCheck(allowed: readonly string[], what: 'Rows' | 'Cols') {
  return (ctx: ExecCtx) => {
    const s = ctx.tiles.src!;
    const d = ctx.tiles.dst!;
    const pair = `${s.dtype}>${d.dtype}`;
    const name = s.dtype === d.dtype ? s.dtype : `${s.dtype}→${d.dtype}`;
    if (!allowed.includes(pair))
      reject(ctx.op.name, name, 'not a supported source/destination type pair', ctx.profile);
    if (what === 'Rows' ? s.rows !== d.rows : s.cols !== d.cols) {
      reject(
        ctx.op.name,
        name,
        `source and destination must have the same number of ${what.toLowerCase()}`,
        ctx.profile,
      );
    }
  };
}

const ROWSUM_PAIRS = [
  'f16>f16',
  'bf16>bf16',
  'f16>f32',
  'bf16>f32',
  'f32>f32',
  'i16>i16',
  'i16>i32',
  'i32>i32',
];
const COLSUM_PAIRS = ['f16>f16', 'bf16>bf16', 'bf16>f32', 'f16>f32', 'f32>f32'];
const COLMAX_PAIRS = ['bf16>bf16', 'f16>f16', 'f16>f32', 'bf16>f32', 'f32>f32', 'i8>i8', 'u8>u8'];

function red(
  name: string,
  summary: string,
  exec: (ctx: ExecCtx) => void,
  check?: (ctx: ExecCtx) => void,
  tmp = true,
): OpDef {
  return {
    name,
    family: 'reduce',
    summary,
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      ...(tmp ? [{ name: 'tmp', kind: 'tile' as const, scratch: true, optional: true }] : []),
    ],
    attrs: [],
    primary: 'src',
    dtypes: per(ALL),
    check,
    exec,
  };
}

export const REDUCE_OPS: readonly OpDef[] = [
  red('TROWSUM', 'dst[r,0] = sum of src row r', (c) => sum(c, 'row'), pairCheck(ROWSUM_PAIRS, 'Rows')),
  red('TROWMAX', 'dst[r,0] = max of src row r', (c) => extreme(c, 'row', true)),
  red('TROWMIN', 'dst[r,0] = min of src row r', (c) => extreme(c, 'row', false)),
  red('TROWPROD', 'dst[r,0] = product of src row r', (c) => prod(c, 'row')),
  red('TCOLSUM', 'dst[0,c] = sum of src column c', (c) => sum(c, 'col'), pairCheck(COLSUM_PAIRS, 'Cols')),
  red(
    'TCOLMAX',
    'dst[0,c] = max of src column c',
    (c) => extreme(c, 'col', true),
    pairCheck(COLMAX_PAIRS, 'Cols'),
    false,
  ),
  red('TCOLMIN', 'dst[0,c] = min of src column c', (c) => extreme(c, 'col', false), undefined, false),
  red('TCOLPROD', 'dst[0,c] = product of src column c', (c) => prod(c, 'col'), undefined, false),
];
