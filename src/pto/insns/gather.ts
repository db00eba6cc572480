/**
 * Irregular data movement inside tiles (pto-isa docs/isa/tile/ops/irregular-and-complex/):
 *
 * - TGATHER, index form (include/pto/cpu/TGather.hpp): over dst's valid region,
 *   dst(r, c) = src(k / src.cols, k % src.cols) with k = indices(r, c) (a 32-bit integer tile);
 *   a negative k or k >= src.rows*src.cols gives 0. (tgather.md says the CPU simulator "clamps"
 *   such indices; its code writes 0, which the `cpu` profile follows. On A2/A3 / A5 the page calls the
 *   result undefined: those profiles raise UndefinedBehaviour.)
 * - TGATHER, mask form (attribute `maskPattern` P0101 P1010 P0001 P0010 P0100 P1000 P1111, `axis`
 *   row|col): the source elements (row axis: columns, col axis: rows) the pattern selects over the
 *   source valid region, packed in order; bits copied (equal element sizes).
 * - TGATHERB (TGatherB.hpp): 32-byte blocks. For r < dst.validRow and b < dst.validCol / (32/size),
 *   the u32 byte offset at raw element r*offset.cols + b of `offset` selects 32 source bytes, copied to
 *   dst's row r, block b (row-major dst); an offset whose block passes the end of src leaves the dst
 *   block unchanged on `cpu` (tgatherb.md: "clamped"; the code skips it) and is undefined on A2/A3 / A5.
 * - TSCATTER, index form (TScatter.hpp): over the index tile's valid region,
 *   dst.raw[unsigned(indexes(i, j))] = src(i, j): the index is a flat element offset in dst's storage
 *   order; one outside dst's buffer is undefined behaviour.
 */
import { undefinedBehaviour } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { ALL, copyElem, type ExecCtx, INTS, type OpDef, off, reject } from '../op.ts';
import type { Tile } from '../tile.ts';
import { copyRegion } from './copy.ts';
import { checkGatherCompare, gatherCompare } from './gather-cmp.ts';

const REF = 'pto-isa docs/isa/tile/ops/irregular-and-complex';

export const MASK_PATTERNS = ['P0101', 'P1010', 'P0001', 'P0010', 'P0100', 'P1000', 'P1111'] as const;

/** TGather.hpp MaskSelect: does the pattern keep position i? */
function selected(pattern: string, i: number): boolean {
  switch (pattern) {
    case 'P0101':
      return i % 2 === 0;
    case 'P1010':
      return i % 2 === 1;
    case 'P0001':
      return i % 4 === 0;
    case 'P0010':
      return i % 4 === 1;
    case 'P0100':
      return i % 4 === 2;
    case 'P1000':
      return i % 4 === 3;
    default:
      return true;
  }
}

/** Index element (r, c) of an integer tile as `static_cast<unsigned>` / a signed value. */
function readIndex(t: Tile, o: number, profile: ExecCtx['profile']): number {
  const A = anyArith(t.dtype, profile);
  const v = A.load(A.view(t.bytes), o);
  return typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : (v as number);
}

function outside(ctx: ExecCtx, what: string): never {
  throw undefinedBehaviour(`${ctx.op.name}: ${what}`, {
    hint:
      ctx.profile === 'cpu'
        ? 'the reference simulator would access memory outside the tile'
        : `the ${ctx.profile} result is undefined (${ctx.op.ref})`,
  });
}

function gatherIndex(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const ix = ctx.tiles.indices!;
  const numel = s.rows * s.cols;
  const n = d.elemBytes;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const k = readIndex(ix, off(ix, r, c), ctx.profile);
      const o = off(d, r, c);
      // u32 indices are never negative; i32 ones are (IndexInBounds)
      if (k < 0 || k >= numel) {
        if (ctx.profile !== 'cpu')
          outside(ctx, `index ${k} at (${r}, ${c}) is outside the ${numel}-element source`);
        d.bytes.fill(0, o * n, o * n + n);
        continue;
      }
      copyElem(s, off(s, Math.floor(k / s.cols), k % s.cols), d, o);
    }
  }
}

function gatherMask(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const pattern = String(ctx.attrs.maskPattern ?? 'P1111');
  if (ctx.attrs.axis === 'col') {
    let dr = 0;
    for (let r = 0; r < s.validRow; r++) {
      if (!selected(pattern, r)) continue;
      for (let c = 0; c < s.validCol; c++) copyElem(s, off(s, r, c), d, off(d, dr, c));
      dr++;
    }
    return;
  }
  // row axis: selected elements are appended one after another from dst's first element
  let o = d.offset(0, 0);
  for (let r = 0; r < s.validRow; r++) {
    for (let c = 0; c < s.validCol; c++) {
      if (!selected(pattern, c)) continue;
      if (o >= d.numel) outside(ctx, `the gathered elements run past the ${d.numel}-element destination`);
      copyElem(s, off(s, r, c), d, o);
      o++;
    }
  }
}

function tgatherb(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const ot = ctx.tiles.offset!;
  const block = 32;
  const per = block / d.elemBytes;
  const blocks = Math.floor(d.validCol / per);
  for (let r = 0; r < d.validRow; r++) {
    for (let b = 0; b < blocks; b++) {
      const idx = r * ot.cols + b;
      if (idx >= ot.numel) outside(ctx, `offset element ${idx} lies outside the offset tile`);
      const at = readIndex(ot, idx, ctx.profile) >>> 0;
      const to = (r * d.cols + b * per) * d.elemBytes;
      if (to + block > d.bytes.length) outside(ctx, `block ${b} of row ${r} lies outside the destination`);
      if (at + block > s.bytes.length) {
        if (ctx.profile !== 'cpu')
          outside(ctx, `byte offset ${at} is outside the ${s.bytes.length}-byte source`);
        continue;
      }
      for (let k = 0; k < block; k++) d.bytes[to + k] = s.bytes[at + k]!;
    }
  }
}

function tscatter(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const ix = ctx.tiles.indexes;
  if (!ix) {
    scatterMask(ctx);
    return;
  }
  for (let i = 0; i < ix.validRow; i++) {
    for (let j = 0; j < ix.validCol; j++) {
      const k = readIndex(ix, off(ix, i, j), ctx.profile);
      // static_cast<unsigned>: negative indices become huge
      const at = k < 0 ? 2 ** 32 + (k % 2 ** 32) : k;
      if (at >= d.numel)
        outside(ctx, `index ${k} at (${i}, ${j}) is outside the ${d.numel}-element destination`);
      copyElem(s, off(s, i, j), d, at);
    }
  }
}

/**
 * TSCATTER mask form (TScatter.hpp TSCATTER_IMPL<maskPattern, axis>): P1111 is TMOV; the row axis
 * walks dst's valid columns of rows < src.validRow, filling selected columns from the source read
 * linearly (wrapping at src.cols) and the others with 0; the col axis fills selected dst rows from
 * consecutive source rows and zeroes the others. Elements convert like the C++ static_cast.
 */
function scatterMask(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const pattern = String(ctx.attrs.maskPattern ?? 'P1111');
  if (pattern === 'P1111') {
    copyRegion(ctx.profile, s, d, s.validRow, s.validCol);
    return;
  }
  const S = anyArith(s.dtype, ctx.profile);
  const D = anyArith(d.dtype, ctx.profile);
  const sv = S.view(s.bytes);
  const dv = D.view(d.bytes);
  const put = (o: number, so: number): void => {
    if (s.dtype === d.dtype) copyElem(s, so, d, o);
    else D.store(dv, o, D.fromF64(S.toF64(S.load(sv, so))));
  };
  const zero = (o: number): void => {
    d.bytes.fill(0, o * d.elemBytes, (o + 1) * d.elemBytes);
  };
  if (ctx.attrs.axis === 'col') {
    let sr = 0;
    for (let r = 0; r < d.validRow; r++) {
      const keep = selected(pattern, r);
      for (let c = 0; c < d.validCol; c++) {
        if (keep) put(off(d, r, c), off(s, sr, c));
        else zero(off(d, r, c));
      }
      if (keep) sr++;
    }
    return;
  }
  let sr = 0;
  let sc = 0;
  for (let r = 0; r < s.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      if (!selected(pattern, c)) {
        zero(off(d, r, c));
        continue;
      }
      put(off(d, r, c), off(s, sr, sc));
      if (++sc === s.cols) {
        sc = 0;
        sr++;
      }
    }
  }
}

const B16_B32: readonly DType[] = ['i16', 'u16', 'i32', 'u32', 'f16', 'bf16', 'f32'];
const SCATTER_TYPES: readonly DType[] = ['i32', 'i16', 'i8', 'f16', 'f32', 'u32', 'u16', 'u8', 'bf16'];

export const GATHER_OPS: readonly OpDef[] = [
  {
    name: 'TGATHER',
    family: 'irregular',
    summary: 'dst(r,c) = src.flat[indices(r,c)] (0 when out of range); or a mask-pattern selection',
    ref: `${REF}/tgather.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'indices', kind: 'tile', optional: true },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
      // comparison form (gather-cmp.ts)
      { name: 'kValue', kind: 'tile', optional: true },
      { name: 'cdst', kind: 'tile', out: true, optional: true },
    ],
    attrs: [
      { name: 'maskPattern', kind: 'pattern', optional: true, values: MASK_PATTERNS },
      { name: 'axis', kind: 'pattern', optional: true, values: ['row', 'col'] },
      { name: 'cmpMode', kind: 'cmpMode', optional: true, values: ['GT', 'EQ'] },
      { name: 'offset', kind: 'index', optional: true },
    ],
    primary: 'src',
    dtypes: { cpu: ALL, a2a3: B16_B32, a5: ['i16', 'u16', 'i32', 'u32', 'f16', 'f32'] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const ix = ctx.tiles.indices;
      if (ctx.tiles.kValue || ctx.tiles.cdst) {
        checkGatherCompare(ctx);
        return;
      }
      if (ix) {
        if (ix.dtype !== 'i32' && ix.dtype !== 'u32')
          reject('TGATHER', s.dtype, `indices must be a 32-bit integer tile, not ${ix.dtype}`, ctx.profile);
        if (d.dtype !== s.dtype)
          reject('TGATHER', s.dtype, `dst (${d.dtype}) and src must have the same type`, ctx.profile);
        if (ctx.attrs.maskPattern !== undefined)
          reject('TGATHER', s.dtype, 'give either an index tile or a maskPattern, not both', ctx.profile);
        return;
      }
      const p = ctx.attrs.maskPattern ?? 'P1111';
      if (!(MASK_PATTERNS as readonly unknown[]).includes(p))
        reject(
          'TGATHER',
          s.dtype,
          `unknown maskPattern '${String(p)}' (${MASK_PATTERNS.join(' ')})`,
          ctx.profile,
        );
      if (d.elemBytes !== s.elemBytes)
        reject('TGATHER', s.dtype, `dst (${d.dtype}) and src element sizes differ`, ctx.profile);
      if (d.loc !== 'vec' || s.loc !== 'vec' || d.blayout !== 'row' || s.blayout !== 'row')
        reject('TGATHER', s.dtype, 'the mask form needs RowMajor vec tiles', ctx.profile);
    },
    exec: (ctx) =>
      ctx.tiles.kValue ? gatherCompare(ctx) : ctx.tiles.indices ? gatherIndex(ctx) : gatherMask(ctx),
  },
  {
    name: 'TGATHERB',
    family: 'irregular',
    summary: 'dst row r, 32-byte block b = 32 src bytes at byte offset offset[r*offset.cols + b]',
    ref: `${REF}/tgatherb.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'offset', kind: 'tile' },
    ],
    attrs: [],
    primary: 'dst',
    dtypes: { cpu: ALL, a2a3: [...SCATTER_TYPES], a5: [...SCATTER_TYPES] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const o = ctx.tiles.offset!;
      if (d.blayout !== 'row' || d.slayout !== 'none')
        reject('TGATHERB', d.dtype, 'the destination must be a RowMajor tile', ctx.profile);
      if (o.dtype !== 'u32' && o.dtype !== 'i32')
        reject('TGATHERB', d.dtype, `offsets are 32-bit byte offsets, not ${o.dtype}`, ctx.profile);
    },
    exec: tgatherb,
  },
  {
    name: 'TSCATTER',
    family: 'irregular',
    summary: 'dst.flat[indexes(i,j)] = src(i,j) over the index valid region; or a mask-pattern spread',
    ref: `${REF}/tscatter.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'indexes', kind: 'tile', optional: true },
    ],
    attrs: [
      { name: 'maskPattern', kind: 'pattern', optional: true, values: MASK_PATTERNS },
      { name: 'axis', kind: 'pattern', optional: true, values: ['row', 'col'] },
    ],
    primary: 'src',
    dtypes: { cpu: ALL, a2a3: SCATTER_TYPES, a5: SCATTER_TYPES },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const ix = ctx.tiles.indexes;
      if (!ix) {
        const p = ctx.attrs.maskPattern ?? 'P1111';
        if (!(MASK_PATTERNS as readonly unknown[]).includes(p))
          reject(
            'TSCATTER',
            s.dtype,
            `unknown maskPattern '${String(p)}' (${MASK_PATTERNS.join(' ')})`,
            ctx.profile,
          );
        if (p === 'P1111') return; // TMOV
        if (s.elemBytes !== d.elemBytes || (s.elemBytes !== 2 && s.elemBytes !== 4))
          reject('TSCATTER', s.dtype, 'the mask form needs 16- or 32-bit elements of one size', ctx.profile);
        if (d.loc !== 'vec' || s.loc !== 'vec' || d.blayout !== 'row' || s.blayout !== 'row')
          reject('TSCATTER', s.dtype, 'the mask form needs RowMajor vec tiles', ctx.profile);
        return;
      }
      if (ctx.attrs.maskPattern !== undefined)
        reject('TSCATTER', s.dtype, 'give either an index tile or a maskPattern, not both', ctx.profile);
      if (!INTS.includes(ix.dtype))
        reject('TSCATTER', s.dtype, `indexes must be an integer tile, not ${ix.dtype}`, ctx.profile);
      if (d.dtype !== s.dtype)
        reject('TSCATTER', s.dtype, `dst (${d.dtype}) and src must have the same type`, ctx.profile);
      if (ctx.profile !== 'cpu') {
        // tscatter.md: index types, and the index width that goes with each data width
        const want = s.elemBytes === 4 ? [4] : [2];
        if (!['i16', 'i32', 'u16', 'u32'].includes(ix.dtype) || !want.includes(ix.elemBytes))
          reject('TSCATTER', s.dtype, `${ix.dtype} indexes do not go with ${s.dtype} data`, ctx.profile);
      }
    },
    exec: tscatter,
  },
];
