/** Helpers over PTO-AS types: element types, tile-ness, MLIR names ↔ part 1's DType. */
import { DTYPE_INFO, type DType } from '../dtype.ts';
import type { ScalarType, TileBufType, Type } from './ast.ts';

/** MLIR builtin element type name → axsim DType (signless iN is signed, uiN unsigned). */
const MLIR_TO_DTYPE: Record<string, DType> = {
  f32: 'f32',
  f16: 'f16',
  bf16: 'bf16',
  i8: 'i8',
  si8: 'i8',
  i16: 'i16',
  si16: 'i16',
  i32: 'i32',
  si32: 'i32',
  i64: 'i64',
  si64: 'i64',
  ui8: 'u8',
  ui16: 'u16',
  ui32: 'u32',
  ui64: 'u64',
  f8E4M3FN: 'f8e4m3',
  f8E4M3: 'f8e4m3',
  f8e4m3: 'f8e4m3',
  f8E5M2: 'f8e5m2',
  f8e5m2: 'f8e5m2',
  // MX block scales (E8M0 codes): part 1 keeps them as u8 tiles (src/pto/insns/mx.ts)
  f8E8M0FNU: 'u8',
};

/** The axsim DType of an MLIR element type name, or undefined (index, i1, f64, …). */
export function dtypeOfName(name: string): DType | undefined {
  return MLIR_TO_DTYPE[name];
}

/** A memref in the `gm` address space: a global tensor, not a tile buffer. */
export function isGlobalMemref(t: Type): boolean {
  return t.kind === 'memref' && t.space === 'gm';
}

export function isTileLike(t: Type): boolean {
  return t.kind === 'tile_buf' || t.kind === 'tile' || (t.kind === 'memref' && !isGlobalMemref(t));
}

/** What TLOAD reads and TSTORE writes: a partition view or a `gm` memref. */
export function isViewLike(t: Type): boolean {
  return t.kind === 'partition_tensor_view' || isGlobalMemref(t);
}

/** Element type of a tile, view, memref or pointer; the type itself for scalars. */
export function elemOf(t: Type): ScalarType {
  switch (t.kind) {
    case 'scalar':
      return t;
    case 'tile_buf':
      return t.dtype;
    case 'other':
      // opaque dialect types have no element type; callers check kinds first
      return { kind: 'scalar', name: t.text };
    default:
      return t.elem;
  }
}

export function isIntType(t: Type): boolean {
  return t.kind === 'scalar' && (/^(u|s)?i\d+$/.test(t.name) || t.name === 'index');
}

export function isFloatType(t: Type): boolean {
  return t.kind === 'scalar' && /^(f|bf|tf)\d/.test(t.name);
}

/** Shape facts of a tile-like type: physical rows×cols, static valid dims (-1 = dynamic). */
export interface TileShape {
  rows: number;
  cols: number;
  vRow: number;
  vCol: number;
  loc: string;
  blayout: string;
}

export function tileShape(t: Type): TileShape | undefined {
  if (t.kind === 'tile_buf') {
    return { rows: t.rows, cols: t.cols, vRow: t.vRow, vCol: t.vCol, loc: t.loc, blayout: t.blayout };
  }
  if (t.kind === 'tile' || t.kind === 'memref') {
    // Level-1 tiles and memrefs: the last two dims (a 1-D shape is one row); fully valid, row-major
    const s = t.shape;
    const rows = s.length >= 2 ? s.slice(0, -1).reduce((a, b) => a * b, 1) : 1;
    const cols = s.length >= 1 ? s[s.length - 1]! : 1;
    const loc = t.kind === 'memref' ? (t.space ?? 'vec') : 'vec';
    return { rows, cols, vRow: rows, vCol: cols, loc, blayout: 'row_major' };
  }
  return undefined;
}

export function typesEqual(a: Type, b: Type): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'scalar':
      return a.name === (b as typeof a).name;
    case 'tile_buf': {
      const o = b as typeof a;
      return (
        a.loc === o.loc &&
        a.dtype.name === o.dtype.name &&
        a.rows === o.rows &&
        a.cols === o.cols &&
        a.vRow === o.vRow &&
        a.vCol === o.vCol &&
        a.blayout === o.blayout &&
        a.slayout === o.slayout &&
        a.fractal === o.fractal &&
        a.pad === o.pad &&
        (a.compact ?? 0) === (o.compact ?? 0)
      );
    }
    case 'ptr':
      return a.elem.name === (b as typeof a).elem.name;
    case 'memref': {
      const o = b as typeof a;
      return a.elem.name === o.elem.name && a.space === o.space && sameDims(a.shape, o.shape);
    }
    case 'other':
      return a.text === (b as typeof a).text;
    default: {
      const o = b as typeof a;
      return a.elem.name === o.elem.name && sameDims(a.shape, o.shape);
    }
  }
}

function sameDims(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A Level-2 buffer type describing a Level-1 tile (for the runner/cost model). */
export function asTileBuf(t: Type): TileBufType | undefined {
  if (t.kind === 'tile_buf') return t;
  const s = tileShape(t);
  if (!s) return undefined;
  const loc = s.loc === 'gm' ? 'vec' : (s.loc as TileBufType['loc']);
  return {
    kind: 'tile_buf',
    loc,
    dtype: elemOf(t),
    rows: s.rows,
    cols: s.cols,
    vRow: s.vRow,
    vCol: s.vCol,
    blayout: 'row_major',
    slayout: 'none_box',
    fractal: 512,
    pad: 0,
  };
}

/** Inner box shape of a tile_buf (1x1 without boxes), as PTOAS `computeInnerShape` derives it. */
export function innerShape(t: TileBufType): [number, number] {
  if (t.slayout === 'none_box') return [1, 1];
  if (t.fractal === 1024) return [16, 16];
  const d = dtypeOfName(t.dtype.name);
  const bytes = d ? DTYPE_INFO[d].bytes : 4;
  return t.slayout === 'row_major' ? [16, 32 / bytes] : [32 / bytes, 16];
}

/**
 * The result type of `pto.subset %src[o0, o1] sizes [r, c]` (PTOAS `SubsetOp::inferReturnTypes`):
 * rows×cols = sizes, the source's location, element type and tile config; each valid dim is
 * min(size, pv − (off mod pv)) for a static parent valid dim pv and a constant offset (the parent
 * valid dims read as a period, so a ping/pong half at offset pv is fully valid), else dynamic (-1).
 */
export function subsetType(src: TileBufType, sizes: number[], offsets: (number | undefined)[]): TileBufType {
  const valid = (i: number): number => {
    const pv = i === 0 ? src.vRow : src.vCol;
    const off = offsets[i];
    if (pv < 0 || off === undefined) return -1;
    const diff = pv > 0 ? pv - (((off % pv) + pv) % pv) : 0;
    return Math.min(sizes[i]!, diff);
  };
  return { ...src, rows: sizes[0]!, cols: sizes[1]!, vRow: valid(0), vCol: valid(1) };
}
