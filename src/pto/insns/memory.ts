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
import { ALL, type OpDef, off, per, reject } from '../op.ts';
import type { GlobalTensor, PadValue, Tile } from '../tile.ts';
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
    attrs: [],
    primary: 'tile',
    dtypes: MOVE_DTYPES,
    check: (ctx) => {
      const t = ctx.tiles.tile!;
      const g = ctx.globals.gm!;
      if (g.dtype !== t.dtype) {
        // TSTORE.md "ACC-to-GM dtype support": without a pre-quant scalar an f32 accumulator stores
        // as float / half / bfloat16 and an i32 one as int32 only; the quantising forms are
        // TSTORE(dst, acc, preQuantScalar) and TSTORE_FP
        const why =
          t.loc === 'acc' && t.dtype === 'f32' && (g.dtype === 'f16' || g.dtype === 'bf16')
            ? `the fix-pipe's f32 -> ${g.dtype} conversion on the way out (TSTORE.md allows it) is not modelled`
            : t.loc === 'acc'
              ? `an ${t.dtype} accumulator stored to ${g.dtype} without quantisation is not in TSTORE.md's ACC-to-GM table (${t.dtype === 'f32' ? 'f32 -> f32 / f16 / bf16' : 'i32 -> i32'}); the pre-quant-scalar form is not modelled`
              : `global dtype ${g.dtype} differs: TSTORE.md requires sizeof(tile dtype) == sizeof(global dtype) and converts nothing`;
        reject('TSTORE', t.dtype, why, ctx.profile);
      }
    },
    exec: (ctx) => {
      const t = ctx.tiles.tile!;
      const g = ctx.globals.gm!;
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
    dtypes: per(ALL),
    exec: (ctx) => {
      const s = ctx.tiles.src!;
      copyRegion(ctx.profile, s, ctx.tiles.dst!, s.validRow, s.validCol);
    },
  },
];

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
