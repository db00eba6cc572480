/**
 * Read-back views of Dst: the data types of tt-isa-documentation WormholeB0 Dst.md "Data types"
 * (the same on Blackhole), each as the numbers a user wants in a `.npy`, independent of the format
 * the input was written in. A view is one of the storage formats of dst.ts (which rows, which
 * shuffling) plus a decoding of the bit pattern:
 *
 * | view | Dst.md type | rows | value | npy dtype |
 * |---|---|---|---|---|
 * | fp32 | FP32 | Dst32b | IEEE bits | f4 |
 * | fp16a (fp16) | FP16 | Dst16b | IEEE half bits | f2 |
 * | fp16b (bf16) | BF16 | Dst16b | widened to FP32 exactly | f4 |
 * | int32 | the 32-bit pattern | Dst32b | the bits as two's complement (what SFPSTORE INT32 leaves) | i4 |
 * | int32sm | Integer "32" (sign, 31-bit magnitude) | Dst32b | ±magnitude (-0 reads 0) | i4 |
 * | uint32 | the 32-bit pattern | Dst32b | the bits, unsigned | u4 |
 * | uint16 | Integer "16" as opaque 16 bits | Dst16b | the bits, unsigned | u2 |
 * | int16 | Integer "16" (sign, 15-bit magnitude) | Dst16b | ±magnitude | i2 |
 * | int8 | Integer "8" (sign bit 15, 10-bit magnitude in bits 14:5) | Dst16b | ±magnitude (-1023..1023) | i2 |
 * | raw16 / raw32 | storage words | Dst16b / Dst32b | as stored (shuffled) | u2 / u4 |
 *
 * Views over Dst16b address 1024 rows (16 tiles); views over Dst32b 512 rows (8 tiles). The same tile
 * index in a 16-bit and a 32-bit view names different storage (Dst.md, Adj32).
 */
import { badInput } from '../errors.ts';
import type { NpyArray } from '../io/index.ts';
import type { DstFormat } from './dst.ts';

export type DstView =
  | 'fp32'
  | 'fp16a'
  | 'fp16b'
  | 'int32'
  | 'int32sm'
  | 'uint32'
  | 'uint16'
  | 'int16'
  | 'int8'
  | 'raw16'
  | 'raw32';

interface ViewInfo {
  /** The storage format whose bit patterns the view decodes (dst.ts). */
  base: DstFormat;
  dtype: NpyArray['dtype'];
  decode: (bits: Uint32Array) => NpyArray['data'];
}

/** Sign-magnitude decode: sign at `signBit`, magnitude in the `magBits` bits from `shift`; -0 is 0. */
function signMag(
  bits: Uint32Array,
  signBit: number,
  shift: number,
  magBits: number,
  out: Int16Array | Int32Array,
): Int16Array | Int32Array {
  const mask = magBits === 31 ? 0x7fffffff : (1 << magBits) - 1;
  for (let i = 0; i < bits.length; i++) {
    const b = bits[i]!;
    const mag = (b >>> shift) & mask;
    out[i] = (b >>> signBit) & 1 && mag !== 0 ? -mag : mag;
  }
  return out;
}

export const DST_VIEWS: Record<DstView, ViewInfo> = {
  fp32: { base: 'fp32', dtype: 'f4', decode: (b) => new Float32Array(b.slice().buffer) },
  fp16a: { base: 'fp16', dtype: 'f2', decode: (b) => Uint16Array.from(b) },
  fp16b: {
    base: 'bf16',
    dtype: 'f4',
    decode: (b) => new Float32Array(Uint32Array.from(b, (x) => (x << 16) >>> 0).buffer),
  },
  int32: { base: 'int32', dtype: 'i4', decode: (b) => new Int32Array(b.slice().buffer) },
  int32sm: { base: 'int32', dtype: 'i4', decode: (b) => signMag(b, 31, 0, 31, new Int32Array(b.length)) },
  uint32: { base: 'int32', dtype: 'u4', decode: (b) => b.slice() },
  uint16: { base: 'raw16', dtype: 'u2', decode: (b) => Uint16Array.from(b) },
  int16: { base: 'raw16', dtype: 'i2', decode: (b) => signMag(b, 15, 0, 15, new Int16Array(b.length)) },
  int8: { base: 'raw16', dtype: 'i2', decode: (b) => signMag(b, 15, 5, 10, new Int16Array(b.length)) },
  raw16: { base: 'raw16', dtype: 'u2', decode: (b) => Uint16Array.from(b) },
  raw32: { base: 'raw32', dtype: 'u4', decode: (b) => b.slice() },
};

const ALIASES: Record<string, DstView> = { fp16: 'fp16a', bf16: 'fp16b' };

export const DST_VIEW_NAMES: readonly string[] = [...Object.keys(DST_VIEWS), ...Object.keys(ALIASES)];

export function parseDstView(s: string): DstView {
  const k = s.toLowerCase();
  if (k in DST_VIEWS) return k as DstView;
  const a = ALIASES[k];
  if (a) return a;
  throw badInput(`unknown Dst view '${s}'`, { hint: `use one of ${DST_VIEW_NAMES.join(', ')}` });
}

/** The storage format a view reads (for row counts and the raw read). */
export function dstViewBase(view: DstView): DstFormat {
  return DST_VIEWS[view].base;
}

/** Decodes bit patterns read in the view's base format (readDstElements) into the view's values. */
export function decodeDstView(
  view: DstView,
  bits: Uint32Array,
): { dtype: NpyArray['dtype']; data: NpyArray['data'] } {
  const v = DST_VIEWS[view];
  return { dtype: v.dtype, data: v.decode(bits) };
}
