// How raw bits are shown. The bit casts are the library's (src/numeric); this file only chooses
// text. Element types of byte arrays are read little-endian, as AMX and .npy store them.
import { bitsToF32, fp16ToF32Bits } from '../../src/numeric/index.ts';

export type NumFormat = 'float' | 'hex' | 'int';

export function hex32(b: number): string {
  return `0x${(b >>> 0).toString(16).padStart(8, '0')}`;
}

/** Shortest text that reads back as the same float (up to 7 significant digits for f32). */
export function fmtFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-4) return x.toExponential(3);
  return String(Number(x.toPrecision(7)));
}

export function fmtBits32(b: number, f: NumFormat): string {
  if (f === 'hex') return hex32(b);
  if (f === 'int') return String(b | 0);
  return fmtFloat(bitsToF32(b));
}

/** A number that orders values for a heat map colour (float value, or the signed integer). */
export function heatOf(b: number, f: NumFormat): number {
  return f === 'float' ? bitsToF32(b) : b | 0;
}

export const ELEMENT_TYPES = ['f32', 'f16', 'f64', 'i32', 'u32', 'i16', 'u16', 'i8', 'u8'] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

export function elementSize(t: ElementType): number {
  return t === 'f64' ? 8 : t === 'f32' || t === 'i32' || t === 'u32' ? 4 : t === 'i8' || t === 'u8' ? 1 : 2;
}

/** Element i of a little-endian byte array in type t. */
export function readElementLE(bytes: ArrayLike<number>, i: number, t: ElementType): number {
  const n = elementSize(t);
  const o = i * n;
  let u = 0;
  if (n <= 4) {
    for (let k = n - 1; k >= 0; k--) u = u * 256 + (bytes[o + k] ?? 0);
  }
  switch (t) {
    case 'f32':
      return bitsToF32(u);
    case 'f16':
      return bitsToF32(fp16ToF32Bits(u));
    case 'f64': {
      const b = new Uint8Array(8);
      for (let k = 0; k < 8; k++) b[k] = bytes[o + k] ?? 0;
      return new DataView(b.buffer).getFloat64(0, true);
    }
    case 'i32':
      return u | 0;
    case 'i16':
      return (u << 16) >> 16;
    case 'i8':
      return (u << 24) >> 24;
    default:
      return u;
  }
}

export function fmtElement(v: number, t: ElementType): string {
  return t.startsWith('f') ? fmtFloat(v) : String(v);
}
