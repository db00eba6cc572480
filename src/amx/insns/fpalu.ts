/**
 * The per-lane floating-point ALU shared by vecfp and matfp (corsix/amx vecfp.md "ALU modes"):
 * 0 z + x*y, 1 z - x*y, 4 x <= 0 ? 0 : y, 5 min(x, z), 7 max(x, z), and on M2+ 10 x*y, 11 z + x,
 * 12 z + y. Inputs and results are bit patterns; min/max follow AArch64 FMIN/FMAX (any NaN gives the
 * default NaN, -0 < +0), the selection mode moves y's bits unchanged.
 */
import {
  BF16_DEFAULT_NAN,
  bf16Fma,
  F16_DEFAULT_NAN,
  F16_TO_F64,
  F32_DEFAULT_NAN,
  f16FromDouble,
  f32Bits,
  f32FromBits,
  fma16,
  fma32,
  fma64,
} from '../fp.ts';

export function alu16(x: number, y: number, z: number, mode: number): number {
  const xv = F16_TO_F64[x]!;
  switch (mode) {
    case 0:
      return fma16(xv, F16_TO_F64[y]!, F16_TO_F64[z]!);
    case 1:
      return fma16(-xv, F16_TO_F64[y]!, F16_TO_F64[z]!);
    case 4:
      return xv <= 0 ? 0 : y;
    case 5:
    case 7: {
      const zv = F16_TO_F64[z]!;
      if (Number.isNaN(xv) || Number.isNaN(zv)) return F16_DEFAULT_NAN;
      if (xv < zv) return mode === 5 ? x : z;
      if (zv < xv) return mode === 5 ? z : x;
      return mode === 5 ? x | z : x & z; // equal: only the sign of zero can differ
    }
    case 10:
      return f16FromDouble(xv * F16_TO_F64[y]!);
    case 11:
      return f16FromDouble(F16_TO_F64[z]! + xv);
    case 12:
      return f16FromDouble(F16_TO_F64[z]! + F16_TO_F64[y]!);
    default:
      return z;
  }
}

function ordBf16(v: number): number {
  const s = (v << 16) >> 16;
  return s ^ ((s >> 15) & 0x7fff);
}

export function aluBf16(x: number, y: number, z: number, mode: number): number {
  switch (mode) {
    case 0:
      return bf16Fma(x, y, z);
    case 1:
      return bf16Fma(x ^ 0x8000, y, z);
    case 4:
      return x === 0 || (x << 16) >> 16 <= -128 ? 0 : y;
    case 5:
      if ((x & 0x7fff) > 0x7f80 || (z & 0x7fff) > 0x7f80) return BF16_DEFAULT_NAN;
      return ordBf16(x) < ordBf16(z) ? x : z;
    case 7:
      if ((x & 0x7fff) > 0x7f80 || (z & 0x7fff) > 0x7f80) return BF16_DEFAULT_NAN;
      return ordBf16(x) > ordBf16(z) ? x : z;
    case 10:
      return bf16Fma(x, y, 0x8000);
    case 11:
      return bf16Fma(x, 0x3f80, z);
    case 12:
      return bf16Fma(0x3f80, y, z);
    default:
      return z;
  }
}

/** f32 lanes as bit patterns (inputs already widened from f16/bf16 where the mode says so). */
export function alu32(x: number, y: number, z: number, mode: number): number {
  const xv = f32FromBits(x);
  switch (mode) {
    case 0:
      return f32Bits(fma32(xv, f32FromBits(y), f32FromBits(z)));
    case 1:
      return f32Bits(fma32(-xv, f32FromBits(y), f32FromBits(z)));
    case 4:
      return xv <= 0 ? 0 : y;
    case 5:
    case 7: {
      const zv = f32FromBits(z);
      if (Number.isNaN(xv) || Number.isNaN(zv)) return F32_DEFAULT_NAN;
      if (xv < zv) return mode === 5 ? x : z;
      if (zv < xv) return mode === 5 ? z : x;
      return (mode === 5 ? x | z : x & z) >>> 0;
    }
    case 10:
      return f32Bits(Math.fround(xv * f32FromBits(y)));
    case 11:
      return f32Bits(Math.fround(f32FromBits(z) + xv));
    case 12:
      return f32Bits(Math.fround(f32FromBits(z) + f32FromBits(y)));
    default:
      return z;
  }
}

const d = new Float64Array(1);
const dw = new Uint32Array(d.buffer);

/**
 * f64 lanes: operands are (lo, hi) word pairs at index 2k in the given arrays; the result is written
 * to out[0..1].
 */
export function alu64(
  xs: Uint32Array,
  xi: number,
  ys: Uint32Array,
  yi: number,
  zs: Uint32Array,
  zi: number,
  mode: number,
  out: Uint32Array,
): void {
  const xv = wordsToF64(xs, xi);
  let r: number;
  switch (mode) {
    case 0:
      r = fma64(xv, wordsToF64(ys, yi), wordsToF64(zs, zi));
      break;
    case 1:
      r = fma64(-xv, wordsToF64(ys, yi), wordsToF64(zs, zi));
      break;
    case 4:
      if (xv <= 0) {
        out[0] = 0;
        out[1] = 0;
      } else {
        out[0] = ys[2 * yi]!;
        out[1] = ys[2 * yi + 1]!;
      }
      return;
    case 5:
    case 7: {
      const zv = wordsToF64(zs, zi);
      if (Number.isNaN(xv) || Number.isNaN(zv)) {
        out[0] = 0;
        out[1] = 0x7ff80000;
        return;
      }
      let pickX: boolean;
      if (xv < zv) pickX = mode === 5;
      else if (zv < xv) pickX = mode === 7;
      else {
        out[0] = xs[2 * xi]!;
        out[1] = (mode === 5 ? xs[2 * xi + 1]! | zs[2 * zi + 1]! : xs[2 * xi + 1]! & zs[2 * zi + 1]!) >>> 0;
        return;
      }
      const src = pickX ? xs : zs;
      const k = pickX ? xi : zi;
      out[0] = src[2 * k]!;
      out[1] = src[2 * k + 1]!;
      return;
    }
    case 10:
      r = xv * wordsToF64(ys, yi);
      break;
    case 11:
      r = wordsToF64(zs, zi) + xv;
      break;
    case 12:
      r = wordsToF64(zs, zi) + wordsToF64(ys, yi);
      break;
    default:
      out[0] = zs[2 * zi]!;
      out[1] = zs[2 * zi + 1]!;
      return;
  }
  if (Number.isNaN(r)) {
    out[0] = 0;
    out[1] = 0x7ff80000;
  } else {
    d[0] = r;
    out[0] = dw[0]!;
    out[1] = dw[1]!;
  }
}

function wordsToF64(a: Uint32Array, k: number): number {
  dw[0] = a[2 * k]!;
  dw[1] = a[2 * k + 1]!;
  return d[0]!;
}
