/**
 * Dst storage formats and addressing (tt-isa-documentation WormholeB0 Dst.md, SFPLOAD.md /
 * SFPSTORE.md "Supporting definitions"; SFPU-FORMAT.md "Dst layout").
 *
 * Dst holds its data *shuffled*: BF16 as Sign,Man(7),Exp(8); FP16 as Sign,Man(10),Exp(5); FP32 and
 * INT32 as a BF16-shuffled high half plus the low 16 mantissa bits. The 32-bit view of row r uses
 * DstBits rows AdjRow(r) (high halves) and AdjRow(r)+8 (low halves).
 */
import { badInput } from '../errors.ts';
import { DST_COLS, DST_ROWS } from './state.ts';

/** Sign,Exp(8),Man(7) -> Sign,Man(7),Exp(8). */
export function bf16Shuffle(h: number): number {
  return (h & 0x8000) | ((h & 0x7f) << 8) | ((h >>> 7) & 0xff);
}
/** Sign,Man(7),Exp(8) -> Sign,Exp(8),Man(7). */
export function bf16Unshuffle(x: number): number {
  return (x & 0x8000) | ((x & 0xff) << 7) | ((x >>> 8) & 0x7f);
}
/** Sign,Exp(5),Man(10) -> Sign,Man(10),Exp(5). */
export function fp16Shuffle(h: number): number {
  return (h & 0x8000) | ((h & 0x3ff) << 5) | ((h >>> 10) & 0x1f);
}
/** Sign,Man(10),Exp(5) -> Sign,Exp(5),Man(10). */
export function fp16Unshuffle(x: number): number {
  return (x & 0x8000) | ((x & 0x1f) << 10) | ((x >>> 5) & 0x3ff);
}
/** IEEE FP32 (or INT32) bits -> the 32-bit Dst storage word (high half BF16-shuffled). */
export function fp32Shuffle(v: number): number {
  return ((bf16Shuffle(v >>> 16) << 16) | (v & 0xffff)) >>> 0;
}
/** The 32-bit Dst storage word -> IEEE FP32 (or INT32) bits. */
export function fp32Unshuffle(x: number): number {
  return ((bf16Unshuffle(x >>> 16) << 16) | (x & 0xffff)) >>> 0;
}

/** DstBits row holding the high halves of Dst32b row `row` (the low halves are 8 rows further). */
export function adjRow(row: number): number {
  return ((row & 0x1f8) << 1) | (row & 0x207);
}

/** Reads Dst32b[row][col] (raw storage word, not unshuffled). */
export function readDst32(dst: Uint16Array, row: number, col: number): number {
  const a = adjRow(row) * DST_COLS + col;
  return ((dst[a]! << 16) | dst[a + 8 * DST_COLS]!) >>> 0;
}

/** Writes Dst32b[row][col] (raw storage word). */
export function writeDst32(dst: Uint16Array, row: number, col: number, v: number): void {
  const a = adjRow(row) * DST_COLS + col;
  dst[a] = v >>> 16;
  dst[a + 8 * DST_COLS] = v & 0xffff;
}

/** The element formats Dst can be read and written in by the library API. */
export type DstFormat = 'fp32' | 'int32' | 'fp16' | 'bf16' | 'raw16' | 'raw32';
export const DST_FORMATS: readonly DstFormat[] = ['fp32', 'int32', 'fp16', 'bf16', 'raw16', 'raw32'];

/** 32-bit formats use the 512-row Dst32b view; 16-bit formats the 1024-row Dst16b view. */
export function dstFormatRows(fmt: DstFormat): number {
  return fmt === 'fp32' || fmt === 'int32' || fmt === 'raw32' ? DST_ROWS / 2 : DST_ROWS;
}

export function parseDstFormat(s: string): DstFormat {
  const k = s.toLowerCase() as DstFormat;
  if ((DST_FORMATS as readonly string[]).includes(k)) return k;
  throw badInput(`unknown Dst format '${s}'`, { hint: `use one of ${DST_FORMATS.join(', ')}` });
}

/**
 * Reads `count` elements of Dst starting at element (row, 0) in `fmt`, as raw bit patterns:
 * fp32/int32 -> IEEE/two's-complement bits (u32); fp16/bf16 -> IEEE half/bfloat16 bits (u16);
 * raw16/raw32 -> storage words as they sit in Dst. Rows are 16 elements wide.
 */
export function readDstElements(dst: Uint16Array, fmt: DstFormat, row: number, count: number): Uint32Array {
  const rows = dstFormatRows(fmt);
  if (!Number.isInteger(row) || row < 0 || row * DST_COLS + count > rows * DST_COLS) {
    throw badInput(`Dst ${fmt} read of ${count} elements at row ${row} is outside the ${rows}-row view`);
  }
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const r = row + Math.floor(i / DST_COLS);
    const c = i % DST_COLS;
    switch (fmt) {
      case 'fp32':
      case 'int32':
        out[i] = fp32Unshuffle(readDst32(dst, r, c));
        break;
      case 'raw32':
        out[i] = readDst32(dst, r, c);
        break;
      case 'bf16':
        out[i] = bf16Unshuffle(dst[r * DST_COLS + c]!);
        break;
      case 'fp16':
        out[i] = fp16Unshuffle(dst[r * DST_COLS + c]!);
        break;
      case 'raw16':
        out[i] = dst[r * DST_COLS + c]!;
        break;
    }
  }
  return out;
}

/** The inverse of readDstElements. Values must already be bit patterns of the format's width. */
export function writeDstElements(
  dst: Uint16Array,
  fmt: DstFormat,
  row: number,
  values: ArrayLike<number>,
): void {
  const rows = dstFormatRows(fmt);
  const count = values.length;
  if (!Number.isInteger(row) || row < 0 || row * DST_COLS + count > rows * DST_COLS) {
    throw badInput(`Dst ${fmt} write of ${count} elements at row ${row} is outside the ${rows}-row view`);
  }
  const wide = rows !== DST_ROWS;
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v) || v < 0 || v > (wide ? 0xffffffff : 0xffff)) {
      throw badInput(`element ${i} (${v}) is not a ${wide ? 32 : 16}-bit pattern for Dst format ${fmt}`);
    }
    const r = row + Math.floor(i / DST_COLS);
    const c = i % DST_COLS;
    switch (fmt) {
      case 'fp32':
      case 'int32':
        writeDst32(dst, r, c, fp32Shuffle(v));
        break;
      case 'raw32':
        writeDst32(dst, r, c, v);
        break;
      case 'bf16':
        dst[r * DST_COLS + c] = bf16Shuffle(v);
        break;
      case 'fp16':
        dst[r * DST_COLS + c] = fp16Shuffle(v);
        break;
      case 'raw16':
        dst[r * DST_COLS + c] = v;
        break;
    }
  }
}
