/**
 * Indexed global-memory gather / scatter (pto-isa docs/isa/tile/ops/memory-and-data-movement/
 * mgather.md, mscatter.md; include/pto/cpu/MGather.hpp, MScatter.hpp):
 *
 * - MGATHER(dst tile, src global, idx tile). `coalesce = 'elem'`: over dst's valid region,
 *   dst(i, j) = table[idx(i, j)], the index a flat element offset from the tensor's first element
 *   (`src.data()[idx]`, strides not applied), capacity = the product of the five shape dims.
 *   `coalesce = 'row'`: dst(i, :) = table row idx.raw[i] (element i of the index buffer), element
 *   (k, j) at k·stride[3] + j·stride[4], capacity = shape[3] rows (A2/A3: shape[0]·…·shape[3]).
 *   Out-of-range handling `oob`: 'undefined' (default: an index outside the tensor's memory is
 *   UndefinedBehaviour), 'clamp' (to capacity − 1), 'wrap' (modulo capacity), 'zero' (writes 0).
 * - MSCATTER(dst global, src tile, idx tile): the inverse walk over src's valid region, in row-major
 *   order (the last writer wins); `atomic` 'none' | 'add' | 'max' | 'min' (read-modify-write in the
 *   element type), `oob` 'undefined' | 'skip' | 'clamp' | 'wrap'.
 *
 * Decisions (docs/pto.md): the default `coalesce` is 'elem' on `cpu` (at pto-isa 3186c381 the
 * untemplated MGATHER/MSCATTER reach `MGATHER_IMPL<Coalesce::Elem>`), 'row' on a2a3/a5 (the pages'
 * default). Index conversion: the simulator casts the index to `size_t` (a negative i32 becomes
 * 2^64 − |k|), the pages to `uint32_t` (2^32 − |k|); this only shows with 'wrap'. The simulator's
 * row-mode atomic max/min compares with `base[idx]` (the row number used as an element offset)
 * instead of the destination element; kept on `cpu`, a2a3/a5 compare with the destination element.
 */
import { badInput, undefinedBehaviour, unsupported } from '../../errors.ts';
import { type Arith, anyArith, type ElemView } from '../arith.ts';
import { DTYPE_INFO, type DType } from '../dtype.ts';
import { ALL, type ExecCtx, INTS, type OpDef, off, reject } from '../op.ts';
import type { GlobalTensor, Tile } from '../tile.ts';

const REF = 'pto-isa docs/isa/tile/ops/memory-and-data-movement';

const TWO64 = 2n ** 64n;

/** The index at raw element `o` as the C++ unsigned value (size_t on cpu, uint32_t elsewhere). */
function readIndex(t: Tile, o: number, ctx: ExecCtx): bigint {
  const A = anyArith(t.dtype, ctx.profile);
  const v = A.load(A.view(t.bytes), o);
  const b = typeof v === 'bigint' ? v : BigInt(v as number);
  return ctx.profile === 'cpu' ? BigInt.asUintN(64, b < 0n ? TWO64 + b : b) : BigInt.asUintN(32, b);
}

/** Applies the OOB policy; returns the element/row number or -1 to skip / zero. */
function resolve(k: bigint, capacity: number, mode: string): number {
  const cap = BigInt(capacity);
  if (mode === 'clamp') return Number(k >= cap ? cap - 1n : k);
  if (mode === 'wrap') return capacity === 0 ? -1 : Number(k % cap);
  if (mode === 'zero' || mode === 'skip') return k >= cap ? -1 : Number(k);
  // undefined: unchecked, bounds are checked against the memory itself by the caller
  return k > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(k);
}

function elemsOf(g: GlobalTensor): number {
  return g.bytes.length / DTYPE_INFO[g.dtype].bytes;
}

function outside(ctx: ExecCtx, what: string): never {
  throw undefinedBehaviour(`${ctx.op.name}: ${what}`, {
    hint: "the index is not checked with oob = 'undefined'; pick 'clamp', 'wrap' or 'zero'/'skip'",
  });
}

/** Copies one element between buffers of equal element size, converting like C++ when types differ. */
function moveElem(
  from: Uint8Array,
  fo: number,
  fd: DType,
  to: Uint8Array,
  tOff: number,
  td: DType,
  ctx: ExecCtx,
): void {
  const n = DTYPE_INFO[td].bytes;
  if (fd === td || (!DTYPE_INFO[fd].float && !DTYPE_INFO[td].float)) {
    for (let b = 0; b < n; b++) to[tOff * n + b] = from[fo * n + b]!;
    return;
  }
  const F = anyArith(fd, ctx.profile);
  const T = anyArith(td, ctx.profile);
  const x = F.load(F.view(from), fo);
  T.store(T.view(to), tOff, T.fromF64(F.toF64(x)));
}

function coalesceOf(ctx: ExecCtx): 'row' | 'elem' {
  const c = ctx.attrs.coalesce;
  if (c === 'row' || c === 'elem') return c;
  return ctx.profile === 'cpu' ? 'elem' : 'row';
}

function rowCapacity(g: GlobalTensor, ctx: ExecCtx): number {
  return ctx.profile === 'a2a3' ? g.shape[0] * g.shape[1] * g.shape[2] * g.shape[3] : g.shape[3];
}

function mgather(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const g = ctx.globals.src!;
  const ix = ctx.tiles.idx!;
  const mode = String(ctx.attrs.oob ?? 'undefined');
  const n = d.elemBytes;
  const total = elemsOf(g);
  if (d.validRow === 0 || d.validCol === 0) return;
  if (coalesceOf(ctx) === 'elem') {
    const cap = g.shape.reduce((a, b) => a * b, 1);
    for (let i = 0; i < d.validRow; i++) {
      for (let j = 0; j < d.validCol; j++) {
        const k = resolve(readIndex(ix, off(ix, i, j), ctx), cap, mode);
        const o = off(d, i, j);
        if (k < 0) {
          d.bytes.fill(0, o * n, o * n + n);
          continue;
        }
        if (k >= total) outside(ctx, `index ${k} at (${i}, ${j}) lies outside the ${total}-element tensor`);
        moveElem(g.bytes, k, g.dtype, d.bytes, o, d.dtype, ctx);
      }
    }
    return;
  }
  const cap = rowCapacity(g, ctx);
  for (let i = 0; i < d.validRow; i++) {
    if (i >= ix.numel) outside(ctx, `row index ${i} lies outside the index tile`);
    const row = resolve(readIndex(ix, i, ctx), cap, mode);
    for (let j = 0; j < d.validCol; j++) {
      const o = off(d, i, j);
      if (row < 0) {
        d.bytes.fill(0, o * n, o * n + n);
        continue;
      }
      const at = row * g.stride[3] + j * g.stride[4];
      if (at >= total) outside(ctx, `row ${row} element ${j} lies outside the ${total}-element tensor`);
      moveElem(g.bytes, at, g.dtype, d.bytes, o, d.dtype, ctx);
    }
  }
}

/** table[at] op= src element `so` (std::max/std::min copy the chosen operand's bytes). */
function scatterElem(
  ctx: ExecCtx,
  A: Arith<unknown>,
  gv: ElemView,
  g: GlobalTensor,
  at: number,
  cmpAt: number,
  s: Tile,
  sv: ElemView,
  so: number,
  atomic: string,
): void {
  if (atomic === 'none') {
    moveElem(s.bytes, so, s.dtype, g.bytes, at, g.dtype, ctx);
    return;
  }
  const x = A.load(sv, so);
  const cur = A.load(gv, cmpAt);
  if (atomic === 'add') {
    A.store(gv, at, A.add(A.load(gv, at), x));
    return;
  }
  // std::max(a, b) = (a < b) ? b : a;  std::min(a, b) = (b < a) ? b : a
  const takeSrc = atomic === 'max' ? A.lt(cur, x) : A.lt(x, cur);
  if (takeSrc) moveElem(s.bytes, so, s.dtype, g.bytes, at, g.dtype, ctx);
  else if (cmpAt !== at) {
    const n = s.elemBytes;
    for (let b = 0; b < n; b++) g.bytes[at * n + b] = g.bytes[cmpAt * n + b]!;
  }
}

function mscatter(ctx: ExecCtx): void {
  const g = ctx.globals.dst!;
  const s = ctx.tiles.src!;
  const ix = ctx.tiles.idx!;
  const mode = String(ctx.attrs.oob ?? 'undefined');
  const atomic = String(ctx.attrs.atomic ?? 'none');
  const total = elemsOf(g);
  const A = anyArith(s.dtype, ctx.profile);
  const gv = A.view(g.bytes);
  const sv = A.view(s.bytes);
  if (s.validRow === 0 || s.validCol === 0) return;
  if (coalesceOf(ctx) === 'elem') {
    const cap = g.shape.reduce((a, b) => a * b, 1);
    for (let i = 0; i < s.validRow; i++) {
      for (let j = 0; j < s.validCol; j++) {
        const k = resolve(readIndex(ix, off(ix, i, j), ctx), cap, mode);
        if (k < 0) continue;
        if (k >= total) outside(ctx, `index ${k} at (${i}, ${j}) lies outside the ${total}-element tensor`);
        scatterElem(ctx, A, gv, g, k, k, s, sv, off(s, i, j), atomic);
      }
    }
    return;
  }
  const cap = rowCapacity(g, ctx);
  for (let i = 0; i < s.validRow; i++) {
    if (i >= ix.numel) outside(ctx, `row index ${i} lies outside the index tile`);
    const row = resolve(readIndex(ix, i, ctx), cap, mode);
    if (row < 0) continue;
    for (let j = 0; j < s.validCol; j++) {
      const at = row * g.stride[3] + j * g.stride[4];
      if (at >= total) outside(ctx, `row ${row} element ${j} lies outside the ${total}-element tensor`);
      // MScatter.hpp row mode: std::max(base[idx], …) reads the row number as an element offset
      const cmpAt = ctx.profile === 'cpu' && (atomic === 'max' || atomic === 'min') ? row : at;
      if (cmpAt >= total) outside(ctx, `element ${cmpAt} lies outside the ${total}-element tensor`);
      scatterElem(ctx, A, gv, g, at, cmpAt, s, sv, off(s, i, j), atomic);
    }
  }
}

const NPU_TYPES: readonly DType[] = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'f16', 'bf16', 'f32'];
const A5_TYPES: readonly DType[] = [...NPU_TYPES, 'f8e4m3', 'f8e5m2'];
const GATHER_OOB = ['undefined', 'clamp', 'wrap', 'zero'] as const;
const SCATTER_OOB = ['undefined', 'skip', 'clamp', 'wrap'] as const;
const ATOMICS = ['none', 'add', 'max', 'min'] as const;

/** Element types each profile accepts for an atomic scatter (mscatter.md "Atomic Type Support"). */
const ATOMIC_TYPES: Record<'a2a3' | 'a5', Record<string, readonly DType[]>> = {
  a2a3: { add: ['i8', 'i16', 'i32', 'f16', 'bf16', 'f32'], max: [], min: [] },
  a5: { add: ['i32', 'u32', 'f32', 'f16', 'bf16'], max: ['i32', 'u32', 'f32'], min: ['i32', 'u32', 'f32'] },
};

function checkCommon(ctx: ExecCtx, tile: Tile, g: GlobalTensor, ix: Tile, oobs: readonly string[]): void {
  const name = ctx.op.name;
  if (tile.elemBytes !== DTYPE_INFO[g.dtype].bytes)
    reject(
      name,
      tile.dtype,
      `the tile (${tile.dtype}) and tensor (${g.dtype}) element sizes differ`,
      ctx.profile,
    );
  if (ctx.profile !== 'cpu' && tile.dtype !== g.dtype)
    reject(name, tile.dtype, `the tensor must hold ${tile.dtype}, not ${g.dtype}`, ctx.profile);
  const idxTypes = ctx.profile === 'cpu' ? INTS : ['i32', 'u32'];
  if (!idxTypes.includes(ix.dtype))
    reject(
      name,
      tile.dtype,
      `indices must be ${ctx.profile === 'cpu' ? 'an integer' : 'an i32/u32'} tile, not ${ix.dtype}`,
      ctx.profile,
    );
  for (const [a, vals] of [
    ['coalesce', ['row', 'elem']],
    ['oob', oobs],
  ] as const) {
    const v = ctx.attrs[a];
    if (v !== undefined && !(vals as readonly unknown[]).includes(v))
      throw badInput(`${name}: ${a} '${String(v)}' is not one of ${vals.join(' ')}`);
  }
  if (ctx.profile !== 'cpu') {
    if (tile.loc !== 'vec' || ix.loc !== 'vec')
      reject(name, tile.dtype, 'the tile and the index tile must be vec tiles', ctx.profile);
    const rows = coalesceOf(ctx) === 'row';
    const vr = tile.validRow;
    const vc = tile.validCol;
    if (
      rows
        ? ix.validRow * ix.validCol !== vr || (ix.validRow !== 1 && ix.validCol !== 1)
        : ix.validRow !== vr || ix.validCol !== vc
    )
      throw badInput(
        `${name}: index valid shape ${ix.validRow}x${ix.validCol} does not fit the ${vr}x${vc} tile (${rows ? 'row' : 'elem'} mode)`,
        {
          hint: rows
            ? 'row mode takes a [1, R] (or [R, 1]) index tile'
            : 'elem mode takes an index tile of the same valid shape',
        },
      );
    if (rows && ctx.profile === 'a5' && g.shape[4] !== vc)
      throw badInput(
        `${name}: on a5 the table rows are packed: shape[4] (${g.shape[4]}) must equal the tile's validCol ${vc}`,
      );
  }
}

export const MGATHER_OPS: readonly OpDef[] = [
  {
    name: 'MGATHER',
    family: 'memory',
    summary: 'dst(i,j) = table[idx(i,j)] (elem) or dst(i,:) = table row idx[i] (row), from global memory',
    ref: `${REF}/mgather.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'global' },
      { name: 'idx', kind: 'tile' },
    ],
    attrs: [
      { name: 'coalesce', kind: 'pattern', optional: true, values: ['row', 'elem'] },
      { name: 'oob', kind: 'pattern', optional: true, values: GATHER_OOB },
    ],
    primary: 'dst',
    dtypes: { cpu: ALL, a2a3: NPU_TYPES, a5: A5_TYPES },
    check: (ctx) => checkCommon(ctx, ctx.tiles.dst!, ctx.globals.src!, ctx.tiles.idx!, GATHER_OOB),
    exec: mgather,
  },
  {
    name: 'MSCATTER',
    family: 'memory',
    summary:
      'table[idx(i,j)] (op)= src(i,j) (elem) or table row idx[i] (op)= src(i,:) (row), to global memory',
    ref: `${REF}/mscatter.md`,
    operands: [
      { name: 'dst', kind: 'global', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'idx', kind: 'tile' },
    ],
    attrs: [
      { name: 'coalesce', kind: 'pattern', optional: true, values: ['row', 'elem'] },
      { name: 'oob', kind: 'pattern', optional: true, values: SCATTER_OOB },
      { name: 'atomic', kind: 'pattern', optional: true, values: ATOMICS },
      { name: 'conflict', kind: 'pattern', optional: true, values: ['last', 'default'] },
    ],
    primary: 'src',
    dtypes: { cpu: ALL, a2a3: NPU_TYPES, a5: A5_TYPES },
    check: (ctx) => {
      const s = ctx.tiles.src!;
      const g = ctx.globals.dst!;
      checkCommon(ctx, s, g, ctx.tiles.idx!, SCATTER_OOB);
      const atomic = String(ctx.attrs.atomic ?? 'none');
      if (!(ATOMICS as readonly string[]).includes(atomic))
        throw badInput(`MSCATTER: atomic '${atomic}' is not one of ${ATOMICS.join(' ')}`);
      const conflict = ctx.attrs.conflict;
      if (conflict !== undefined && conflict !== 'last' && conflict !== 'default')
        throw badInput(`MSCATTER: conflict '${String(conflict)}' is not one of last default`);
      if (atomic === 'none') return;
      if (ctx.profile === 'cpu') {
        // MScatter.hpp static_assert: "Conflict::Last cannot be used together with Atomic operations"
        if (conflict === 'last')
          reject('MSCATTER', s.dtype, 'conflict = last cannot be combined with an atomic operation', 'cpu');
        if (s.dtype !== g.dtype)
          throw unsupported(
            `MSCATTER: an atomic scatter of ${s.dtype} into a ${g.dtype} tensor (mixed element types) is not modelled`,
          );
        return;
      }
      const ok = ATOMIC_TYPES[ctx.profile][atomic] ?? [];
      if (!ok.includes(s.dtype))
        reject(
          'MSCATTER',
          s.dtype,
          `atomic ${atomic} is not available for ${s.dtype} (mscatter.md)`,
          ctx.profile,
        );
    },
    exec: mscatter,
  },
];
