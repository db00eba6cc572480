/**
 * Data movement: TLOAD (GlobalTensor -> tile, whole tile filled with the pad value first), TSTORE
 * (tile valid region -> GlobalTensor), TMOV (tile -> tile between locations). pto-isa
 * include/pto/cpu/TLoad.hpp, TStore.hpp, TMov.hpp; global offsets per `GlobalTensor.offsetOf`.
 *
 * Pad values: the `cpu` profile reproduces the simulator built with libstdc++ 12 (Null/Zero -> 0,
 * Max/Min -> +-inf for f32, 0 for f16/bf16 and fp8 (no numeric_limits specialisation), the integer
 * limits otherwise); `a2a3`/`a5` use the documented values (largest / most negative finite).
 */
import { undefinedBehaviour } from '../../errors.ts';
import { anyArith, type Profile } from '../arith.ts';
import { DTYPE_INFO, type DType } from '../dtype.ts';
import { ALL, invalidForReference, type OpDef, off, per, reject } from '../op.ts';
import type { GlobalTensor, PadValue, Tile } from '../tile.ts';
import { checkStore, convertStoreValue, type StoreOptions, storeElement, storeOptions } from './acc-store.ts';
import { copyRegion } from './copy.ts';

/** Raw little-endian bytes of one pad element. */
export function padBytes(d: DType, pad: PadValue, profile: Profile): Uint8Array {
  const n = DTYPE_INFO[d].bytes;
  const out = new Uint8Array(n);
  if (pad === 'null' || pad === 'zero') return out;
  const max = pad === 'max';
  const info = DTYPE_INFO[d];
  let bits: bigint;
  if (!info.float) {
    const w = BigInt(n * 8);
    if (info.signed) bits = max ? (1n << (w - 1n)) - 1n : 1n << (w - 1n);
    else bits = max ? (1n << w) - 1n : 0n;
  } else if (profile === 'cpu') {
    if (d !== 'f32') return out;
    bits = max ? 0x7f800000n : 0xff800000n;
  } else {
    const finiteMax: Record<string, bigint> = {
      f32: 0x7f7fffffn,
      f16: 0x7bffn,
      bf16: 0x7f7fn,
      f8e4m3: 0x7en,
      f8e5m2: 0x7bn,
    };
    const signBit = 1n << BigInt(n * 8 - 1);
    bits = max ? finiteMax[d]! : finiteMax[d]! | signBit;
  }
  for (let i = 0; i < n; i++) out[i] = Number((bits >> BigInt(8 * i)) & 0xffn);
  return out;
}

/** Element offset of (r, c) in a global tensor, raising UndefinedBehaviour outside its memory. */
export function gOff(g: GlobalTensor, r: number, c: number): number {
  const o = g.offsetOf(r, c);
  if (o < 0 || (o + 1) * DTYPE_INFO[g.dtype].bytes > g.bytes.length) {
    throw undefinedBehaviour(`global element (${r}, ${c}) maps to offset ${o}, outside the tensor's memory`);
  }
  return o;
}

/**
 * Rows of the tile's valid region are contiguous runs in both buffers when the global view is ND
 * with unit column stride (offsetOf(r, c) = offsetOf(r, 0) + c) and the tile is RowMajor without
 * boxes (offset r*cols + c): then TLOAD / TSTORE copy whole rows. Returns the byte offset of row r in
 * g, or -1 when the row needs the per-element path (which also reports accesses out of bounds).
 */
function rowRun(t: Tile, g: GlobalTensor, r: number): number {
  const go = g.offsetOf(r, 0);
  const n = t.elemBytes;
  return go < 0 || (go + t.validCol) * n > g.bytes.length ? -1 : go * n;
}

function rowsContiguous(t: Tile, g: GlobalTensor): boolean {
  return g.layout === 'ND' && g.stride[4] === 1 && t.blayout === 'row' && t.slayout === 'none';
}

/** Copies n raw bytes (no subarray views: this runs once per element). */
function copyBytes(src: Uint8Array, s: number, dst: Uint8Array, d: number, n: number): void {
  for (let k = 0; k < n; k++) dst[d + k] = src[s + k]!;
}

/**
 * TLOAD / TSTORE element types (pto-isa docs/isa/TLOAD.md, TSTORE.md "Implementation checks"):
 * A2/A3 take the 8/16/32/64-bit integers, half, bfloat16 and float; A5 any 1/2/4/8-byte type.
 */
const MOVE_DTYPES = per(ALL, {
  a2a3: ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f16', 'bf16', 'f32'],
  a5: ALL,
});

export const MEMORY_OPS: readonly OpDef[] = [
  {
    name: 'TLOAD',
    family: 'memory',
    summary: 'tile = pad; tile[r,c] = gm[map(r,c)] over the tile valid region',
    ref: 'pto-isa docs/isa/tile/ops/memory-and-data-movement/tload.md',
    operands: [
      { name: 'tile', kind: 'tile', out: true },
      { name: 'gm', kind: 'global' },
    ],
    attrs: [],
    dtypes: MOVE_DTYPES,
    check: (ctx) => {
      const t = ctx.tiles.tile!;
      const g = ctx.globals.gm!;
      if (DTYPE_INFO[g.dtype].bytes !== t.elemBytes)
        reject('TLOAD', t.dtype, `global dtype ${g.dtype} has a different size`);
    },
    exec: (ctx) => {
      const t = ctx.tiles.tile!;
      const g = ctx.globals.gm!;
      const pad = padBytes(t.dtype, t.pad, ctx.profile);
      const n = t.elemBytes;
      if (pad.every((b) => b === pad[0])) t.bytes.fill(pad[0]!);
      else for (let i = 0; i < t.numel; i++) copyBytes(pad, 0, t.bytes, i * n, n);
      const same = g.dtype === t.dtype;
      const G = anyArith(g.dtype, ctx.profile);
      const T = anyArith(t.dtype, ctx.profile);
      const gv = G.view(g.bytes.subarray(0, Math.floor(g.bytes.length / n) * n));
      const tv = T.view(t.bytes);
      const rows = same && rowsContiguous(t, g);
      for (let r = 0; r < t.validRow; r++) {
        const run = rows ? rowRun(t, g, r) : -1;
        if (run >= 0) {
          t.bytes.set(g.bytes.subarray(run, run + t.validCol * n), r * t.cols * n);
          continue;
        }
        for (let c = 0; c < t.validCol; c++) {
          const go = gOff(g, r, c);
          const o = off(t, r, c);
          if (same) copyBytes(g.bytes, go * n, t.bytes, o * n, n);
          else T.store(tv, o, T.fromF64(G.toF64(G.load(gv, go))));
        }
      }
    },
  },
  {
    name: 'TSTORE',
    family: 'memory',
    summary: 'gm[map(r,c)] = tile[r,c] over the tile valid region',
    ref: 'pto-isa docs/isa/tile/ops/memory-and-data-movement/tstore.md',
    operands: [
      { name: 'gm', kind: 'global', out: true },
      { name: 'tile', kind: 'tile' },
    ],
    attrs: [
      { name: 'atomicType', kind: 'pattern', optional: true, values: ['atomic_none', 'atomic_add'] },
      { name: 'reluPreMode', kind: 'pattern', optional: true, values: ['no_relu', 'normal_relu'] },
      // the 64-bit word of TSTORE(dst, acc, preQuantScalar)
      { name: 'preQuant', kind: 'number', optional: true },
    ],
    primary: 'tile',
    dtypes: MOVE_DTYPES,
    check: (ctx) => checkStore(ctx.tiles.tile!, ctx.globals.gm!.dtype, storeOptions(ctx.attrs), ctx.profile),
    exec: (ctx) => {
      const t = ctx.tiles.tile!;
      const g = ctx.globals.gm!;
      const o = storeOptions(ctx.attrs);
      if (g.dtype !== t.dtype || o.atomicAdd || o.relu || o.preQuant !== undefined) {
        convertingStore(ctx.profile, t, g, o);
        return;
      }
      const n = t.elemBytes;
      const rows = rowsContiguous(t, g);
      for (let r = 0; r < t.validRow; r++) {
        const run = rows ? rowRun(t, g, r) : -1;
        if (run >= 0) {
          // one view per row (not per element); the row lies inside both buffers
          g.bytes.set(t.bytes.subarray(r * t.cols * n, (r * t.cols + t.validCol) * n), run);
          continue;
        }
        for (let c = 0; c < t.validCol; c++)
          copyBytes(t.bytes, off(t, r, c) * n, g.bytes, gOff(g, r, c) * n, n);
      }
    },
  },
  {
    name: 'TMOV',
    family: 'memory',
    summary: 'dst[r,c] = src[r,c] over the source valid region (between locations / layouts)',
    ref: 'pto-isa docs/isa/tile/ops/memory-and-data-movement/tmov.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [],
    primary: 'src',
    // A2/A3 moves int8 too: the L1 -> L0A/L0B path of an s8 matmul (npu/a2a3/TExtract.hpp allows
    // int8_t, half, bfloat16_t, float)
    dtypes: per(ALL, { a2a3: ['f32', 'f16', 'bf16', 'i32', 'i16', 'i8'] }),
    exec: (ctx) => {
      const s = ctx.tiles.src!;
      const d = ctx.tiles.dst!;
      if (ctx.profile === 'a2a3' && s.loc === 'vec' && d.loc === 'vec' && (!isNd(s) || !isNd(d))) {
        tmovToVecBlocks(s, d);
        return;
      }
      copyRegion(ctx.profile, s, d, s.validRow, s.validCol);
    },
  },
];

const isNd = (t: Tile): boolean => t.blayout === 'row' && t.slayout === 'none';

/**
 * A2/A3 TMOV Vec -> Vec with an NZ / DN operand (pto-isa npu/a2a3/TMov.hpp `TMovToVec` /
 * `TMovToVecImpl`): the kernel converts no layout, it copies 32-byte blocks of UB
 * (copy_ubuf_to_ubuf). Over validRow x validCol = the smaller of the two valid regions, with
 * RowStride = Cols for a RowMajor tile and 1 otherwise (pto_tile.hpp): when the tiles have the same
 * column count (or dst has one row), one run of ceil(dst.cols * validRow * size / 32) blocks if dst's
 * columns are all valid, else one run of ceil(validCol * size / 32) blocks per row at element
 * offset r * RowStride; with different column counts, that per-row copy. (axsim takes dst's valid
 * column count for the kernel's static `ValidCol`.) A block run past either tile's bytes is
 * UndefinedBehaviour.
 */
function tmovToVecBlocks(s: Tile, d: Tile): void {
  const n = s.elemBytes;
  if (d.elemBytes !== n)
    invalidForReference(
      'TMOV',
      `src ${s.dtype} and dst ${d.dtype} differ in size: static_assert "TMOV: src and dst data type is different!"`,
      'pto-isa include/pto/npu/a2a3/TMov.hpp TMovToVecImpl',
    );
  const vr = Math.min(s.validRow, d.validRow);
  const vc = Math.min(s.validCol, d.validCol);
  if (vr === 0 || vc === 0) return;
  const run = (dOff: number, sOff: number, blocks: number) => {
    const len = blocks * 32;
    if (sOff + len > s.bytes.length || dOff + len > d.bytes.length)
      throw undefinedBehaviour(
        `TMOV: the ${blocks}-block UB copy at element offset ${dOff / n} runs past a ${d.rows}x${d.cols} / ${s.rows}x${s.cols} tile`,
        { hint: 'pto-isa npu/a2a3/TMov.hpp TMovToVecImpl copies whole 32-byte blocks' },
      );
    d.bytes.set(s.bytes.subarray(sOff, sOff + len), dOff);
  };
  const sStride = s.blayout === 'row' ? s.cols : 1;
  const dStride = d.blayout === 'row' ? d.cols : 1;
  const perRow = Math.ceil((vc * n) / 32);
  if ((d.cols === s.cols || d.rows === 1) && (d.cols === d.validCol || d.cols === vc)) {
    run(0, 0, Math.ceil((d.cols * vr * n) / 32));
    return;
  }
  for (let r = 0; r < vr; r++) run(r * dStride * n, r * sStride * n, perRow);
}

/**
 * TSTORE with a conversion, ReLU, a pre-quant scalar or an atomic add: element by element as the
 * CPU simulator's `TStore` (insns/acc-store.ts). An accumulator is read by its tile layout (Nz).
 */
function convertingStore(profile: Profile, t: Tile, g: GlobalTensor, o: StoreOptions): void {
  const S = anyArith(t.dtype, profile);
  const D = anyArith(g.dtype, profile);
  const sv = S.view(t.bytes);
  const eb = DTYPE_INFO[g.dtype].bytes;
  const dv = D.view(g.bytes.subarray(0, Math.floor(g.bytes.length / eb) * eb));
  for (let r = 0; r < t.validRow; r++) {
    for (let c = 0; c < t.validCol; c++) {
      const x = S.toF64(S.load(sv, off(t, r, c)));
      storeElement(D, dv, gOff(g, r, c), convertStoreValue(x, t.dtype, D, o), o.atomicAdd);
    }
  }
}

/** Ordering ops: no effect in the functional model (they matter to the cost models). */
export const SYNC_OPS: readonly OpDef[] = ['TSYNC', 'RECORD_EVENT', 'WAIT_EVENT', 'BARRIER'].map((name) => ({
  name,
  family: 'sync',
  summary: 'ordering only; no functional effect',
  ref: 'pto-isa docs/isa/tile/ops/sync',
  operands: [],
  attrs: [{ name: 'events', kind: 'events' as const, optional: true }],
  dtypes: per(ALL),
  exec: () => {},
}));
