/**
 * axsim's Ascend PTO tile ISA, part 1: the public library API.
 *
 *   import { createTile, execute, readTile } from './src/pto/index.ts';
 *   const a = createTile({ dtype: 'f32', rows: 4, cols: 8 }, Float32Array.from({ length: 32 }, (_, i) => i));
 *   const b = createTile({ dtype: 'f32', rows: 4, cols: 8 }, new Float32Array(32).fill(1));
 *   const d = createTile({ dtype: 'f32', rows: 4, cols: 8, validRow: 2, validCol: 3 });
 *   execute('TADD', { dst: d, src0: a, src1: b }, {}, { profile: 'cpu' });
 *   readTile(d, { valid: true }); // [[1, 2, 3], [9, 10, 11]]
 *
 * Tiles keep the raw little-endian bytes of their whole physical buffer (`tile.bytes`); element
 * offsets follow each layout (`tile.offset(r, c)`). Instructions are data (`OPS`: operand names and
 * kinds, attributes, element types per profile, reference page) and run by name with `execute`.
 * Profiles: 'cpu' (bit-compatible with the pto-isa CPU simulator), 'a2a3', 'a5' (ISA documents).
 * See docs/pto.md.
 */
import { badInput } from '../errors.ts';
import type { NpyArray, NpyDtype } from '../io/index.ts';
import { anyArith, type Profile } from './arith.ts';
import { DTYPE_INFO, type DType } from './dtype.ts';
import { padBytes } from './insns/memory.ts';
import {
  type GlobalLayout,
  GlobalTensor,
  type NamedLayout,
  namedLayout,
  Tile,
  type TileSpec,
} from './tile.ts';

export { type Arith, arithOf, PROFILES, type Profile } from './arith.ts';
export { makePtoRunner, type PtoRunnerOptions, registerCostRunner } from './conformance.ts';
export { DTYPE_INFO, DTYPES, type DType, type DTypeInfo, isDType } from './dtype.ts';
export { F16_TABLE, mxDecode, mxEncode, OCP_TABLE, ocpEncode } from './hostcast.ts';
export { padBytes } from './insns/memory.ts';
export {
  type AttrKind,
  type AttrSpec,
  CMP_MODES,
  type CmpMode,
  type OpDef,
  type OperandKind,
  type OperandSpec,
  type PtoRoundMode,
  ROUND_MODES,
} from './op.ts';
export {
  convertScalar,
  type ExecOptions,
  execute,
  getOp,
  OPS,
  type Operand,
  onesOutsideValid,
  type PreparedInstruction,
  prepare,
  type ScalarInput,
} from './registry.ts';
export {
  type BLayout,
  type GlobalLayout,
  GlobalTensor,
  type NamedLayout,
  namedLayout,
  type PadValue,
  type SLayout,
  TILE_LOCS,
  Tile,
  type TileLoc,
  type TileSpec,
} from './tile.ts';

/** Values accepted as tile contents. */
export type TileData = Uint8Array | ArrayLike<number> | ArrayLike<bigint> | readonly (number | bigint)[];

/**
 * Creates a tile. `data` is either the raw bytes of the whole physical buffer (a Uint8Array of
 * rows*cols*size bytes, in physical order) or `rows*cols` element values in *logical* row-major
 * order (r * cols + c), converted like a C++ `static_cast` (numbers) or taken as integers (bigint).
 * Typed arrays of the element's own storage type (Float32Array for f32, Uint16Array bits for f16 /
 * bf16, Uint8Array codes for fp8 when `raw: true`) are stored bit for bit.
 */
export function createTile(
  spec: TileSpec & { layout?: NamedLayout },
  data?: TileData,
  opts: { raw?: boolean; profile?: Profile } = {},
): Tile {
  const { layout, ...rest } = spec;
  const full: TileSpec = layout ? { ...rest, ...namedLayout(layout) } : rest;
  const probe = new Tile(full);
  if (data === undefined) return probe;
  const n = probe.numel;
  if (
    data instanceof Uint8Array &&
    !opts.raw &&
    data.length === n * probe.elemBytes &&
    probe.elemBytes !== 1
  ) {
    probe.bytes.set(data); // a copy, in the SIMD pool when there is room (as data.slice() is not)
    return probe;
  }
  if (data.length !== n) {
    throw badInput(`tile data has ${data.length} values, a ${probe.rows}x${probe.cols} tile needs ${n}`, {
      hint: 'pass rows*cols values in row-major order, or the raw bytes of the buffer',
    });
  }
  const A = anyArith(probe.dtype, opts.profile ?? 'cpu');
  const view = A.view(probe.bytes);
  const bitsStorage =
    (probe.dtype === 'f32' && data instanceof Float32Array) ||
    ((probe.dtype === 'f16' || probe.dtype === 'bf16') && data instanceof Uint16Array) ||
    (DTYPE_INFO[probe.dtype].fp8 && data instanceof Uint8Array);
  for (let r = 0; r < probe.rows; r++) {
    for (let c = 0; c < probe.cols; c++) {
      const v = data[r * probe.cols + c]!;
      const o = probe.offset(r, c);
      if (bitsStorage) {
        (view as Uint16Array)[o] = v as number;
      } else if (typeof v === 'bigint') {
        if (A.big)
          A.store(view, o, DTYPE_INFO[probe.dtype].signed ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
        else A.store(view, o, A.fromF64(Number(v)));
      } else if (typeof v === 'number') {
        A.store(view, o, A.fromF64(v));
      } else {
        throw badInput(`tile value ${String(v)} at (${r}, ${c}) is not a number or bigint`);
      }
    }
  }
  return probe;
}

/** Decoded element (r, c) of a tile: a number, or a bigint for i64/u64. */
export function readElement(t: Tile, r: number, c: number, profile: Profile = 'cpu'): number | bigint {
  if (r < 0 || c < 0 || r >= t.rows || c >= t.cols)
    throw badInput(`(${r}, ${c}) is outside the ${t.rows}x${t.cols} tile`);
  const A = anyArith(t.dtype, profile);
  const v = A.load(A.view(t.bytes), t.offset(r, c));
  return A.big ? (v as bigint) : A.toF64(v);
}

/** Raw bits of element (r, c) as an unsigned integer (bigint for 8-byte types). */
export function readBits(t: Tile, r: number, c: number): number | bigint {
  const o = t.offset(r, c) * t.elemBytes;
  let v = 0n;
  for (let k = t.elemBytes - 1; k >= 0; k--) v = (v << 8n) | BigInt(t.bytes[o + k]!);
  return t.elemBytes === 8 ? v : Number(v);
}

/** The tile's values in logical row-major order: the whole physical tile, or only the valid region. */
export function readTile(t: Tile, opts: { valid?: boolean; profile?: Profile } = {}): (number | bigint)[][] {
  const rows = opts.valid ? t.validRow : t.rows;
  const cols = opts.valid ? t.validCol : t.cols;
  const out: (number | bigint)[][] = [];
  for (let r = 0; r < rows; r++) {
    const row: (number | bigint)[] = [];
    for (let c = 0; c < cols; c++) row.push(readElement(t, r, c, opts.profile));
    out.push(row);
  }
  return out;
}

/** A tile's valid region and padding as the ISA describes them. */
export interface TileRegion {
  rows: number;
  cols: number;
  validRow: number;
  validCol: number;
  dynamic: boolean;
  pad: Tile['pad'];
  /** Raw bytes TLOAD writes outside the valid region under `profile`. */
  padBits: Uint8Array;
  /** Number of elements outside the valid region. */
  padElements: number;
}

export function validRegion(t: Tile, profile: Profile = 'cpu'): TileRegion {
  return {
    rows: t.rows,
    cols: t.cols,
    validRow: t.validRow,
    validCol: t.validCol,
    dynamic: t.dynamic,
    pad: t.pad,
    padBits: padBytes(t.dtype, t.pad, profile),
    padElements: t.numel - t.validRow * t.validCol,
  };
}

const NPY_TO_DTYPE: Partial<Record<NpyDtype, DType>> = {
  f2: 'f16',
  f4: 'f32',
  i1: 'i8',
  i2: 'i16',
  i4: 'i32',
  i8: 'i64',
  u1: 'u8',
  u2: 'u16',
  u4: 'u32',
  u8: 'u64',
};

/**
 * A tile from a 1-D or 2-D `.npy` array (src/io). The element type follows the array (f2 -> f16,
 * f4 -> f32, i1..u8 -> the integer types; pass `dtype: 'bf16' | 'f8e4m3' | 'f8e5m2'` to read u2/u1
 * arrays as raw codes); values land at their logical (r, c) in the chosen layout.
 */
export function tileFromNpy(arr: NpyArray, spec: Partial<TileSpec> & { layout?: NamedLayout } = {}): Tile {
  if (arr.shape.length > 2)
    throw badInput(`a tile holds a 1-D or 2-D array, this one is ${arr.shape.length}-D`);
  const rows = arr.shape.length === 2 ? arr.shape[0]! : 1;
  const cols = arr.shape.length === 2 ? arr.shape[1]! : (arr.shape[0] ?? 1);
  const natural = NPY_TO_DTYPE[arr.dtype];
  let dtype = spec.dtype ?? natural;
  if (dtype === undefined)
    throw badInput(`.npy dtype ${arr.dtype} has no PTO element type`, { hint: 'pass dtype' });
  const codes =
    (dtype === 'bf16' && arr.dtype === 'u2') ||
    (dtype === 'f16' && arr.dtype === 'f2') ||
    (DTYPE_INFO[dtype].fp8 && arr.dtype === 'u1');
  if (!codes && natural !== dtype && arr.dtype !== 'f8') {
    throw badInput(`.npy dtype ${arr.dtype} does not hold ${dtype} values`, {
      hint: 'convert the array or pick a matching dtype',
    });
  }
  if (arr.dtype === 'f8') dtype = spec.dtype ?? 'f32';
  return createTile(
    { ...spec, dtype, rows: spec.rows ?? rows, cols: spec.cols ?? cols },
    arr.data as TileData,
    { raw: codes },
  );
}

/** The tile (or its valid region) as a 2-D `.npy` array of its storage type (f16/bf16 as u2/f2 bits). */
export function tileToNpy(t: Tile, opts: { valid?: boolean } = {}): NpyArray {
  const rows = opts.valid ? t.validRow : t.rows;
  const cols = opts.valid ? t.validCol : t.cols;
  const map: Record<DType, NpyDtype> = {
    f32: 'f4',
    f16: 'f2',
    bf16: 'u2',
    i8: 'i1',
    i16: 'i2',
    i32: 'i4',
    i64: 'i8',
    u8: 'u1',
    u16: 'u2',
    u32: 'u4',
    u64: 'u8',
    f8e4m3: 'u1',
    f8e5m2: 'u1',
  };
  const n = rows * cols;
  const eb = t.elemBytes;
  const buf = new Uint8Array(n * eb);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const o = t.offset(r, c) * eb;
      buf.set(t.bytes.subarray(o, o + eb), (r * cols + c) * eb);
    }
  }
  const dt = map[t.dtype];
  const ab = buf.buffer;
  const data =
    dt === 'f4'
      ? new Float32Array(ab)
      : dt === 'f2' || dt === 'u2'
        ? new Uint16Array(ab)
        : dt === 'i1'
          ? new Int8Array(ab)
          : dt === 'i2'
            ? new Int16Array(ab)
            : dt === 'i4'
              ? new Int32Array(ab)
              : dt === 'i8'
                ? new BigInt64Array(ab)
                : dt === 'u4'
                  ? new Uint32Array(ab)
                  : dt === 'u8'
                    ? new BigUint64Array(ab)
                    : buf;
  return { dtype: dt, shape: [rows, cols], data };
}

/**
 * A GlobalTensor over a `.npy` array's bytes (the array is the memory the view addresses). Default
 * view: ND, shape [1, 1, 1, rows, cols] with contiguous strides.
 */
export function globalFromNpy(
  arr: NpyArray,
  view: { dtype?: DType; shape?: number[]; stride?: number[]; layout?: GlobalLayout } = {},
): GlobalTensor {
  const dtype = view.dtype ?? NPY_TO_DTYPE[arr.dtype];
  if (dtype === undefined)
    throw badInput(`.npy dtype ${arr.dtype} has no PTO element type`, { hint: 'pass dtype' });
  const rows = arr.shape.length >= 2 ? arr.shape.slice(0, -1).reduce((a, b) => a * b, 1) : 1;
  const cols = arr.shape.at(-1) ?? 1;
  const shape = view.shape ?? [1, 1, 1, rows, cols];
  const stride = view.stride ?? [rows * cols, rows * cols, rows * cols, cols, 1];
  const d = arr.data;
  const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  return new GlobalTensor(dtype, shape, stride, view.layout ?? 'ND', bytes);
}
