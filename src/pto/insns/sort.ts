/**
 * Sorting (pto-isa docs/isa/tile/ops/irregular-and-complex/tsort32.md, tmrgsort.md):
 *
 * - TSORT32 (include/pto/cpu/TSort32.hpp): for every row r of src's valid region and every block of
 *   32 columns, the (value, index) pairs (src(r, c), idx(r, c)) are sorted by value, descending,
 *   ties by the smaller index, and written as 8-byte records: f32/i32 `[value, index]`, f16/bf16/i16
 *   `[value, 0, index lo, index hi]` (the index is the u32's bytes). On `cpu` block b's records start
 *   at dst column 2·32·b whatever the element size (`GetTileElementOffset(i, 2 * j)`), so with 16-bit
 *   elements block b+1 overwrites the second half of block b — the simulator's behaviour, kept. The
 *   manual (and so a2a3/a5) places block b at column 32·b·coef (coef 2 for f32, 4 for f16). A tail
 *   block shorter than 32 sorts its valid elements only on `cpu`; on a2a3/a5 it needs the `tmp`
 *   operand (the 4-argument form) and is padded to 32 with -inf values (their indices are the index
 *   tile's elements at those columns), without `tmp` it is rejected (validCol % 32 == 0); a one-row
 *   index tile is broadcast to every source row there.
 *   The C++ sort is libstdc++'s `std::stable_sort`; `stableSortDesc` below is that algorithm (buffered
 *   merge sort: insertion-sorted runs of 7, pairwise merges, a final merge of two halves), so inputs
 *   with NaN values, for which the comparison is not a strict weak order, come out in the same order.
 * - TMRGSORT (TMrgSort.hpp): 1-row RowMajor tiles of 8-byte records (as TSORT32 writes them), merged
 *   by the record's first element, descending (a strictly greater key wins; on equal keys the list
 *   with the lower number, or the earlier block, goes first).
 *   Single-list form (attribute `blockLen`, elements per block): for each group of four consecutive
 *   blocks that fits in dst's valid columns (cpu; the manual: src's, which must be a multiple of
 *   4·blockLen), the four blocks are merged into dst at the same columns; a blockLen of 0 or not a
 *   multiple of the record size does nothing on cpu (a2a3/a5: blockLen must be a multiple of 64).
 *   Multi-list form (src0, src1 [, src2 [, src3]], tmp): lists of validCol / (8/size) records merged
 *   into dst until dst's valid records are written or the lists run out; with `exhausted` the merge
 *   stops as soon as one list is used up. The numbers of records taken from each list go to the
 *   optional `executed` operand (u16/i16 tile, elements 0..3), the `MrgSortExecutedNumList`.
 */
import { badInput, undefinedBehaviour } from '../../errors.ts';
import { type Arith, anyArith, type ElemView } from '../arith.ts';
import { DTYPES, type DType } from '../dtype.ts';
import { type ExecCtx, type OpDef, off, reject } from '../op.ts';
import type { Tile } from '../tile.ts';

const REF = 'pto-isa docs/isa/tile/ops/irregular-and-complex';
/** Bytes of one sorted record (value + u32 index). */
const RECORD = 8;

// ------------------------------------------------------------------ libstdc++ std::stable_sort

/** TSort32's comparator: a before b when a's score is greater, or equal with a smaller index. */
function before(ka: number, ia: number, kb: number, ib: number): boolean {
  // `a.score != b.score` is true for NaN operands, and then `a.score > b.score` is false
  if (ka !== kb) return ka > kb;
  return ia < ib;
}

// ------------------------------------------------------------------ TSORT32

function outside(ctx: ExecCtx, what: string): never {
  throw undefinedBehaviour(`${ctx.op.name}: ${what}`, {
    hint:
      ctx.profile === 'cpu'
        ? 'the reference simulator would write memory outside the tile'
        : `the ${ctx.profile} result is undefined (${ctx.op.ref})`,
  });
}

function copyBytes(src: Uint8Array, so: number, dst: Uint8Array, d: number, n: number): void {
  for (let k = 0; k < n; k++) dst[d + k] = src[so + k]!;
}

function tsort32(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const ix = ctx.tiles.idx!;
  const cpu = ctx.profile === 'cpu';
  const vr = s.validRow;
  const vc = s.validCol;
  if (vr === 0 || vc === 0) return;
  // TSORT32_IMPL returns without writing when the index tile's valid shape differs
  if (cpu && (ix.validRow !== vr || ix.validCol !== vc)) return;
  const A = anyArith(s.dtype, ctx.profile);
  const sv = A.view(s.bytes);
  const n = s.elemBytes;
  const iv = new DataView(ix.bytes.buffer, ix.bytes.byteOffset, ix.bytes.byteLength);
  const per = RECORD / n; // elements per record
  const bcast = !cpu && ix.rows === 1 && vr > 1;
  const stepCols = cpu ? 2 * 32 : 32 * per;
  const work = arr3(32);
  const buf = arr3(32);
  // the values' own bytes travel with them (C++ copies the T, NaN payloads included)
  const vals = new Uint8Array(32 * n);
  const padBits = n === 4 ? 0xff800000 : 0xfc00; // -inf (f32 / f16)
  for (let r = 0; r < vr; r++) {
    for (let j = 0; j < vc; j += 32) {
      const valid = Math.min(32, vc - j);
      const count = cpu ? valid : 32;
      const so = off(s, r, j);
      // tsort32.md: on the NPU a 1 x C index tile is broadcast to every row
      const io = off(ix, bcast ? 0 : r, j);
      for (let k = 0; k < count; k++) {
        if (k < valid) {
          if (so + k >= s.numel) outside(ctx, `source element ${so + k} lies outside the source`);
          work.k[k] = A.toF64(A.load(sv, so + k));
          copyBytes(s.bytes, (so + k) * n, vals, k * n, n);
        } else {
          work.k[k] = Number.NEGATIVE_INFINITY;
          for (let b = 0; b < n; b++) vals[k * n + b] = (padBits >>> (8 * b)) & 0xff;
        }
        if (io + k >= ix.numel) outside(ctx, `index element ${io + k} lies outside the index tile`);
        work.i[k] = iv.getUint32((io + k) * 4, true);
        work.p[k] = k;
      }
      stableSortDesc(work, count, buf);
      const dOff = off(d, r, (j / 32) * stepCols);
      if ((dOff + count * per) * n > d.bytes.length)
        outside(ctx, `the records of row ${r} run past the destination buffer`);
      for (let k = 0; k < count; k++) {
        const at = (dOff + k * per) * n;
        copyBytes(vals, work.p[k]! * n, d.bytes, at, n);
        if (n === 2) {
          d.bytes[at + 2] = 0;
          d.bytes[at + 3] = 0;
        }
        const v = work.i[k]!;
        d.bytes[at + 4] = v & 0xff;
        d.bytes[at + 5] = (v >>> 8) & 0xff;
        d.bytes[at + 6] = (v >>> 16) & 0xff;
        d.bytes[at + 7] = v >>> 24;
      }
    }
  }
}

/**
 * libstdc++'s `std::stable_sort` with its temporary buffer (bits/stl_algo.h: `__stable_sort_adaptive`
 * = `__merge_sort_with_buffer` (insertion-sorted runs of 7, then pairwise `__merge_sort_loop`s) on
 * both halves, middle = (n + 1) / 2, and `__merge_adaptive`), on (key, index) pairs; `p` (the
 * original positions) moves with them. Element 0..n-1 of the arrays are sorted.
 */
export function stableSortDesc(s: Arr3, n: number, b: Arr3): void {
  if (n < 2) return;
  const mid = (n + 1) >> 1;
  msortBuf(s, 0, mid, b);
  msortBuf(s, mid, n, b);
  madaptive(s, 0, mid, n, b);
}

export function arr3(n: number): Arr3 {
  return { k: new Float64Array(n), i: new Uint32Array(n), p: new Uint32Array(n) };
}

export interface Arr3 {
  k: Float64Array;
  i: Uint32Array;
  p: Uint32Array;
}

function mv(s: Arr3, a: number, d: Arr3, b: number): void {
  d.k[b] = s.k[a]!;
  d.i[b] = s.i[a]!;
  d.p[b] = s.p[a]!;
}

function lt3(a: Arr3, x: number, b: Arr3, y: number): boolean {
  return before(a.k[x]!, a.i[x]!, b.k[y]!, b.i[y]!);
}

function isort(s: Arr3, first: number, last: number): void {
  const t: Arr3 = { k: new Float64Array(1), i: new Uint32Array(1), p: new Uint32Array(1) };
  for (let i = first + 1; i < last; i++) {
    mv(s, i, t, 0);
    if (lt3(t, 0, s, first)) {
      for (let j = i; j > first; j--) mv(s, j - 1, s, j);
      mv(t, 0, s, first);
    } else {
      let j = i;
      while (lt3(t, 0, s, j - 1)) {
        mv(s, j - 1, s, j);
        j--;
      }
      mv(t, 0, s, j);
    }
  }
}

function mmerge(s: Arr3, a1: number, a2: number, b1: number, b2: number, d: Arr3, r: number): number {
  while (a1 !== a2 && b1 !== b2) {
    if (lt3(s, b1, s, a1)) mv(s, b1++, d, r++);
    else mv(s, a1++, d, r++);
  }
  while (a1 !== a2) mv(s, a1++, d, r++);
  while (b1 !== b2) mv(s, b1++, d, r++);
  return r;
}

function mloop(s: Arr3, first: number, last: number, d: Arr3, out: number, step: number): void {
  const two = 2 * step;
  let f = first;
  let r = out;
  while (last - f >= two) {
    r = mmerge(s, f, f + step, f + step, f + two, d, r);
    f += two;
  }
  const st = Math.min(last - f, step);
  mmerge(s, f, f + st, f + st, last, d, r);
}

function msortBuf(s: Arr3, first: number, last: number, b: Arr3): void {
  const len = last - first;
  let step = 7;
  let f = first;
  while (last - f >= step) {
    isort(s, f, f + step);
    f += step;
  }
  isort(s, f, last);
  while (step < len) {
    mloop(s, first, last, b, 0, step);
    step *= 2;
    mloop(b, 0, len, s, first, step);
    step *= 2;
  }
}

function madaptive(s: Arr3, first: number, middle: number, last: number, b: Arr3): void {
  const len1 = middle - first;
  const len2 = last - middle;
  if (len1 <= len2) {
    for (let i = 0; i < len1; i++) mv(s, first + i, b, i);
    let a = 0;
    let c = middle;
    let r = first;
    while (a !== len1 && c !== last) {
      if (lt3(s, c, b, a)) mv(s, c++, s, r++);
      else mv(b, a++, s, r++);
    }
    while (a !== len1) mv(b, a++, s, r++);
    return;
  }
  for (let i = 0; i < len2; i++) mv(s, middle + i, b, i);
  let l1 = middle - 1;
  let l2 = len2 - 1;
  let r = last;
  for (;;) {
    if (lt3(b, l2, s, l1)) {
      mv(s, l1, s, --r);
      if (l1 === first) {
        for (let i = l2; i >= 0; i--) mv(b, i, s, --r);
        return;
      }
      l1--;
    } else {
      mv(b, l2, s, --r);
      if (l2 === 0) return;
      l2--;
    }
  }
}

// ------------------------------------------------------------------ TMRGSORT

/** `a > b` in the element type (C++ `v[0] > vPick[0]`; false when either is NaN). */
function greater(A: Arith<unknown>, v: ElemView, a: number, b: number): boolean {
  return A.lt(A.load(v, b), A.load(v, a));
}

function greaterAcross(A: Arith<unknown>, va: ElemView, a: number, vb: ElemView, b: number): boolean {
  return A.lt(A.load(vb, b), A.load(va, a));
}

function copyRecord(s: Tile, so: number, d: Tile, dOff: number, per: number, ctx: ExecCtx): void {
  const n = s.elemBytes;
  if ((so + per) * n > s.bytes.length) outside(ctx, `record at element ${so} lies outside a source`);
  if ((dOff + per) * n > d.bytes.length)
    outside(ctx, `record at element ${dOff} lies outside the destination`);
  copyBytes(s.bytes, so * n, d.bytes, dOff * n, per * n);
}

function mrgsortSingle(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src0!;
  const n = s.elemBytes;
  const per = RECORD / n;
  const blockLen = Number(ctx.attrs.blockLen);
  if (blockLen === 0 || blockLen % per !== 0) return; // TMrgsort returns early (cpu)
  const spb = blockLen / per;
  const group = 4 * blockLen;
  const A = anyArith(s.dtype, ctx.profile);
  const sv = A.view(s.bytes);
  // cpu: `cBase + groupElems <= maxCols` with maxCols = dst.GetValidCol(); the manual: src's columns
  const limit = ctx.profile === 'cpu' ? d.validCol : s.validCol;
  const taken = [0, 0, 0, 0];
  for (let cBase = 0; cBase + group <= limit; cBase += group) {
    taken.fill(0);
    for (let out = 0; out < 4 * spb; out++) {
      let pick = -1;
      let pickAt = 0;
      for (let b = 0; b < 4; b++) {
        if (taken[b]! >= spb) continue;
        const at = s.offset(0, cBase + b * blockLen + taken[b]! * per);
        if (at >= s.numel) outside(ctx, `record of block ${b} lies outside the source`);
        if (pick < 0 || greater(A, sv, at, pickAt)) {
          pick = b;
          pickAt = at;
        }
      }
      if (pick < 0) break;
      copyRecord(s, pickAt, d, d.offset(0, cBase + out * per), per, ctx);
      taken[pick]!++;
    }
  }
}

function mrgsortLists(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const lists: Tile[] = [ctx.tiles.src0!, ctx.tiles.src1!];
  if (ctx.tiles.src2) lists.push(ctx.tiles.src2);
  if (ctx.tiles.src3) lists.push(ctx.tiles.src3);
  const n = d.elemBytes;
  const per = RECORD / n;
  const A = anyArith(d.dtype, ctx.profile);
  const views = lists.map((t) => A.view(t.bytes));
  const sizes = lists.map((t) => Math.floor(t.validCol / per));
  const outRecords = Math.floor(d.validCol / per);
  const exhausted = ctx.attrs.exhausted === true || ctx.attrs.exhausted === 'true';
  const taken = [0, 0, 0, 0];
  let out = 0;
  while (out < outRecords) {
    let pick = -1;
    let pickAt = 0;
    for (let l = 0; l < lists.length; l++) {
      if (taken[l]! >= sizes[l]!) continue;
      const t = lists[l]!;
      const at = t.offset(0, taken[l]! * per);
      if (at >= t.numel) outside(ctx, `record ${taken[l]} of list ${l} lies outside its tile`);
      if (pick < 0 || greaterAcross(A, views[l]!, at, views[pick]!, pickAt)) {
        pick = l;
        pickAt = at;
      }
    }
    if (pick < 0) break;
    copyRecord(lists[pick]!, pickAt, d, d.offset(0, out * per), per, ctx);
    out++;
    taken[pick]!++;
    if (exhausted && lists.some((_, l) => taken[l] === sizes[l])) break;
  }
  const ex = ctx.tiles.executed;
  if (ex) {
    // MrgSortExecutedNumList: four uint16_t counts
    for (let l = 0; l < 4; l++) {
      ex.bytes[2 * l] = taken[l]! & 0xff;
      ex.bytes[2 * l + 1] = (taken[l]! >>> 8) & 0xff;
    }
  }
}

// ------------------------------------------------------------------ definitions

function requireVecRow1(ctx: ExecCtx, names: readonly string[], needRows1: boolean): void {
  for (const nm of names) {
    const t = ctx.tiles[nm];
    if (!t) continue;
    if (t.loc !== 'vec' || t.blayout !== 'row' || t.slayout !== 'none')
      reject(ctx.op.name, t.dtype, `operand '${nm}' must be a RowMajor vec tile without boxes`, ctx.profile);
    if (needRows1 && t.rows !== 1)
      throw badInput(
        `${ctx.op.name}: operand '${nm}' has ${t.rows} rows; the tiles must have exactly 1 row`,
        {
          hint: 'TMRGSORT works on 1-row tiles of (value, index) records',
        },
      );
  }
}

const SORT32_CPU: readonly DType[] = ['i32', 'i16', 'f16', 'bf16', 'f32'];
const HALF_FLOAT: readonly DType[] = ['f16', 'f32'];
// TMRGSORT on cpu: every element type axsim has.
const MRG_CPU: readonly DType[] = DTYPES;

export const SORT_OPS: readonly OpDef[] = [
  {
    name: 'TSORT32',
    family: 'irregular',
    summary: 'sort each 32-column block of src (descending) with its u32 indices into (value, index) records',
    ref: `${REF}/tsort32.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'idx', kind: 'tile' },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
    ],
    attrs: [],
    primary: 'src',
    dtypes: { cpu: SORT32_CPU, a2a3: HALF_FLOAT, a5: HALF_FLOAT },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const ix = ctx.tiles.idx!;
      if (d.dtype !== s.dtype)
        reject('TSORT32', s.dtype, `dst (${d.dtype}) and src must have the same type`, ctx.profile);
      if (ix.dtype !== 'u32')
        reject('TSORT32', s.dtype, `the index tile must be u32, not ${ix.dtype}`, ctx.profile);
      requireVecRow1(ctx, ['dst', 'src', 'idx'], false);
      if (s.cols !== ix.cols)
        throw badInput(`TSORT32: src has ${s.cols} columns per row but idx has ${ix.cols}`, {
          hint: 'the source and index tiles must have the same row stride',
        });
      if (ctx.profile !== 'cpu' && s.validCol % 32 !== 0 && !ctx.tiles.tmp)
        throw badInput(`TSORT32: validCol ${s.validCol} is not a multiple of 32`, {
          hint: 'pass a tmp tile (the 4-operand form) to sort a tail block (tsort32.md)',
        });
    },
    exec: tsort32,
  },
  {
    name: 'TMRGSORT',
    family: 'irregular',
    summary:
      'merge sorted (value, index) records: four blocks of blockLen elements of src0, or lists src0..src3',
    ref: `${REF}/tmrgsort.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile', optional: true },
      { name: 'src2', kind: 'tile', optional: true },
      { name: 'src3', kind: 'tile', optional: true },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
      { name: 'executed', kind: 'tile', out: true, optional: true },
    ],
    attrs: [
      { name: 'blockLen', kind: 'index', optional: true },
      { name: 'exhausted', kind: 'flag', optional: true },
    ],
    primary: 'src0',
    dtypes: { cpu: MRG_CPU, a2a3: HALF_FLOAT, a5: HALF_FLOAT },
    check: (ctx) => {
      const t = ctx.tiles;
      const s = t.src0!;
      const names = ['dst', 'src0', 'src1', 'src2', 'src3', 'tmp'];
      for (const nm of names) {
        const x = t[nm];
        if (x && x.dtype !== s.dtype)
          reject('TMRGSORT', s.dtype, `${nm} (${x.dtype}) and src0 must have the same type`, ctx.profile);
      }
      requireVecRow1(ctx, names, true);
      if (t.src2 && !t.src1) throw badInput('TMRGSORT: src2 given without src1');
      if (t.src3 && !t.src2) throw badInput('TMRGSORT: src3 given without src2');
      const ex = t.executed;
      if (ex && ((ex.dtype !== 'u16' && ex.dtype !== 'i16') || ex.numel < 4))
        throw badInput(`TMRGSORT: executed must be a u16 tile of at least 4 elements, got ${ex.describe()}`, {
          hint: 'it receives MrgSortExecutedNumList (four uint16_t counts)',
        });
      const bl = ctx.attrs.blockLen;
      if (!t.src1) {
        if (bl === undefined)
          throw badInput('TMRGSORT: the single-list form needs the blockLen attribute', {
            hint: 'give blockLen (elements per pre-sorted block), or two to four source lists',
          });
        if (typeof bl !== 'number' || !Number.isInteger(bl) || bl < 0 || bl > 0xffffffff)
          throw badInput(`TMRGSORT: blockLen ${String(bl)} is not a uint32_t`);
        if (ctx.attrs.exhausted !== undefined || ex)
          throw badInput('TMRGSORT: exhausted / executed belong to the multi-list form');
        if (ctx.profile !== 'cpu') {
          // tmrgsort.md Variant A constraints
          const reps = s.validCol / (4 * bl);
          if (bl === 0 || bl % 64 !== 0 || !Number.isInteger(reps) || reps < 1 || reps > 255)
            throw badInput(
              `TMRGSORT: blockLen ${bl} with src validCol ${s.validCol} breaks the single-list constraints`,
              { hint: 'blockLen a multiple of 64; src validCol = 4 * blockLen * repeat, repeat in 1..255' },
            );
        }
        return;
      }
      if (bl !== undefined) throw badInput('TMRGSORT: blockLen belongs to the single-list form');
    },
    exec: (ctx) => (ctx.tiles.src1 ? mrgsortLists(ctx) : mrgsortSingle(ctx)),
  },
];
