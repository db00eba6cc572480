/**
 * fma16 fma32 fma64 fms16 fms32 fms64 (opcodes 15, 12, 10, 16, 13, 11), per corsix/amx fma.md and
 * fms.md: vector mode (bit 63) z[row][i] (+|-)= x[i]*y[i]; matrix mode z[j][i] (+|-)= x[i]*y[j];
 * bits 27-29 skip Z / Y / X inputs, 7-bit X and Y enables at 41 and 32, Z row at 20, X offset at
 * 10, Y offset at 0; fma32 bits 61/60 read X/Y as f16 (low half of each 32-bit lane); fma16 bit 62
 * (matrix only) accumulates into f32 Z over all 64 rows as interleaved pairs.
 *
 * fms negates x before the multiply (z - x*y = fma(-x, y, z)); the "-x"/"-y" skip modes are pure
 * sign flips that keep NaN payloads. NaNs from arithmetic are the default NaN (FPCR.DN = 1).
 */
import { loadXY, writemask } from '../common.ts';
import { fma64Simd } from '../fma64-simd.ts';
import {
  F16_TO_F32_BITS,
  F16_TO_F64,
  F32_DEFAULT_NAN,
  F64_DEFAULT_NAN_HI,
  f16FromDouble,
  fma16,
  fma32,
  fma64,
} from '../fp.ts';
import type { AmxState } from '../state.ts';

const xb = new Uint8Array(64);
const yb = new Uint8Array(64);
const x16 = new Uint16Array(xb.buffer);
const y16 = new Uint16Array(yb.buffer);
const x32 = new Uint32Array(xb.buffer);
const y32 = new Uint32Array(yb.buffer);
const xf32 = new Float32Array(xb.buffer);
const yf32 = new Float32Array(yb.buffer);
const xf64 = new Float64Array(xb.buffer);
const yf64 = new Float64Array(yb.buffer);
const xen = new Uint8Array(64);
const yen = new Uint8Array(64);
/** Lane values as doubles and (for the raw skip modes) as bit patterns. */
const xv = new Float64Array(32);
const yv = new Float64Array(32);
const xr = new Uint32Array(32);
const yr = new Uint32Array(32);

function loadPools(s: AmxState, lo: number): void {
  const xoff = (lo >>> 10) & 0x1ff;
  const yoff = lo & 0x1ff;
  if ((xoff & 3) === 0) {
    const w = xoff >>> 2;
    const p = s.x32;
    for (let k = 0; k < 16; k++) x32[k] = p[(w + k) & 127]!;
  } else loadXY(xb, s.x, xoff);
  if ((yoff & 3) === 0) {
    const w = yoff >>> 2;
    const p = s.y32;
    for (let k = 0; k < 16; k++) y32[k] = p[(w + k) & 127]!;
  } else loadXY(yb, s.y, yoff);
}

/**
 * One f32 FMA lane z[zi] = x*y + z, rounded once. The common case (x*y + z exact in double, as
 * TwoSum's zero error term shows) costs one fround; otherwise the round-to-odd path of fp.ts.
 */
function fmaLane32(zf: Float32Array, z32: Uint32Array, zi: number, x: number, y: number): void {
  const z = zf[zi]!;
  const p = x * y;
  const sum = p + z;
  // sum is exact iff both differences give the other addend back (Fast2Sum: whichever addend is
  // larger, the difference with it is exact, so a rounding error shows up as a mismatch). NaNs
  // and infinities fail the test and take the general path, which handles them.
  // The Float32Array store is itself the (single) round-to-nearest-even to f32.
  if (sum - p === z && sum - z === p) zf[zi] = sum;
  else fmaSlow32(zf, z32, zi, x, y);
}

/** The inexact (or non-finite) case of fmaLane32: round to odd in double, then to f32 (fp.ts). */
function fmaSlow32(zf: Float32Array, z32: Uint32Array, zi: number, x: number, y: number): void {
  const r = fma32(x, y, zf[zi]!);
  if (Number.isNaN(r)) z32[zi] = F32_DEFAULT_NAN;
  else zf[zi] = r;
}

/**
 * Four Z rows (rb, rb + 64, rb + 128, rb + 192, i.e. Y lanes j..j+3) of the all-lanes f32 matrix
 * FMA: z[row + i] = x[i] * y + z[row + i] for the 16 X values in xv, each rounded once. A function
 * of its own so that V8 inlines fmaLane32 into a small loop that loads each X value once for the
 * four rows; the slow path (fmaSlow32) stays out of line. Measured on workload (a), CPU s per
 * 10^6: per-lane loop 0.422, two rows 0.378, four rows 0.372 (four rows unrolled by two: 0.439).
 */
function fmaRows32(
  zf: Float32Array,
  z32: Uint32Array,
  rb: number,
  y0: number,
  y1: number,
  y2: number,
  y3: number,
): void {
  for (let i = 0; i < 16; i++) {
    const x = xv[i]!;
    fmaLane32(zf, z32, rb + i, x, y0);
    fmaLane32(zf, z32, rb + 64 + i, x, y1);
    fmaLane32(zf, z32, rb + 128 + i, x, y2);
    fmaLane32(zf, z32, rb + 192 + i, x, y3);
  }
}

// ---------------------------------------------------------------------------------------- f64 ---

/** One f64 lane: z at f64 index zi, per skip mode `alu` (bits 27-29), fms when neg. */
function alu64(s: AmxState, zi: number, i: number, j: number, alu: number, neg: boolean): void {
  const zf = s.zf64;
  let r: number;
  switch (alu) {
    case 0:
      r = fma64(neg ? -xf64[i]! : xf64[i]!, yf64[j]!, zf[zi]!);
      break;
    case 1:
      r = neg ? fma64(-xf64[i]!, yf64[j]!, -0) : xf64[i]! * yf64[j]!;
      break;
    case 2:
      r = neg ? zf[zi]! - xf64[i]! : zf[zi]! + xf64[i]!;
      break;
    case 3:
      s.z32[2 * zi] = x32[2 * i]!;
      s.z32[2 * zi + 1] = neg ? (x32[2 * i + 1]! ^ 0x80000000) >>> 0 : x32[2 * i + 1]!;
      return;
    case 4:
      r = neg ? zf[zi]! - yf64[j]! : zf[zi]! + yf64[j]!;
      break;
    case 5:
      s.z32[2 * zi] = y32[2 * j]!;
      s.z32[2 * zi + 1] = neg ? (y32[2 * j + 1]! ^ 0x80000000) >>> 0 : y32[2 * j + 1]!;
      return;
    case 6:
      return;
    default:
      r = neg ? -0 : 0;
  }
  if (Number.isNaN(r)) {
    s.z32[2 * zi] = 0;
    s.z32[2 * zi + 1] = F64_DEFAULT_NAN_HI;
  } else {
    zf[zi] = r;
  }
}

/**
 * The vector-mode hot path of fma64/fms64: z[base + i] = (+|-)x[xi + i] * y[yi + i] + z[base + i]
 * for the 8 lanes, each rounded once (fp.ts fma64), a NaN result stored as the default NaN. A small
 * function of its own so that V8 inlines fma64 into the lane loop (inside execFma64, with the
 * general paths beside it, it did not).
 */
function fmaRow64(
  zf: Float64Array,
  z32: Uint32Array,
  base: number,
  xs: Float64Array,
  xi: number,
  ys: Float64Array,
  yi: number,
  neg: boolean,
): void {
  for (let i = 0; i < 8; i++) {
    const zi = base + i;
    const r = fma64(neg ? -xs[xi + i]! : xs[xi + i]!, ys[yi + i]!, zf[zi]!);
    if (Number.isNaN(r)) {
      z32[2 * zi] = 0;
      z32[2 * zi + 1] = F64_DEFAULT_NAN_HI;
    } else zf[zi] = r;
  }
}

export function execFma64(s: AmxState, lo: number, hi: number, neg: boolean): void {
  const zrow = (lo >>> 20) & 63;
  const alu = (lo >>> 27) & 7;
  if (hi >>> 31) {
    const zf = s.zf64;
    const z32 = s.z32;
    const base = zrow * 8;
    const xoff = (lo >>> 10) & 0x1ff;
    const yoff = lo & 0x1ff;
    if (alu === 0 && ((hi >>> 9) & 0x7f) === 0 && ((xoff | yoff) & 7) === 0 && xoff <= 448 && yoff <= 448) {
      // Hot path: aligned, non-wrapping operands read in place; every lane enabled, full FMA.
      // all sixteen operands binary32 values: the SIMD kernel (fma64-simd.ts), in place
      const ra = s.regAddr;
      if (ra >= 0 && fma64Simd(ra + xoff, ra + 512 + yoff, ra + 1024 + base * 8, neg ? 1 : 0) === 0) return;
      fmaRow64(zf, z32, base, s.xf64, xoff >>> 3, s.yf64, yoff >>> 3, neg);
      return;
    }
    loadPools(s, lo);
    writemask(xen, hi >>> 9, 8, 7);
    for (let i = 0; i < 8; i++) if (xen[i * 8] !== 0) alu64(s, base + i, i, i, alu, neg);
    return;
  }
  loadPools(s, lo);
  writemask(xen, hi >>> 9, 8, 7);
  writemask(yen, hi, 8, 7);
  const zr = zrow & 7;
  for (let i = 0; i < 8; i++) {
    if (xen[i * 8] === 0) continue;
    for (let j = 0; j < 8; j++) {
      if (yen[j * 8] === 0) continue;
      alu64(s, (j * 8 + zr) * 8 + i, i, j, alu, neg);
    }
  }
}

// ---------------------------------------------------------------------------------------- f32 ---

/** One f32 lane with inputs already in xv/yv (values) and xr/yr (raw bits, fms-adjusted). */
function alu32(s: AmxState, zi: number, i: number, j: number, alu: number, neg: boolean): void {
  const zf = s.zf32;
  let r: number;
  switch (alu) {
    case 0:
      r = fma32(neg ? -xv[i]! : xv[i]!, yv[j]!, zf[zi]!);
      break;
    case 1:
      r = neg ? fma32(-xv[i]!, yv[j]!, -0) : Math.fround(xv[i]! * yv[j]!);
      break;
    case 2:
      r = Math.fround(neg ? zf[zi]! - xv[i]! : zf[zi]! + xv[i]!);
      break;
    case 3:
      s.z32[zi] = xr[i]!;
      return;
    case 4:
      r = Math.fround(neg ? zf[zi]! - yv[j]! : zf[zi]! + yv[j]!);
      break;
    case 5:
      s.z32[zi] = yr[j]!;
      return;
    case 6:
      return;
    default:
      r = neg ? -0 : 0;
  }
  if (Number.isNaN(r)) s.z32[zi] = F32_DEFAULT_NAN;
  else zf[zi] = r;
}

/**
 * Fills xv/xr (or yv/yr) for `n` f32 lanes: from f32 lanes, or from f16 values in the low half of
 * each 32-bit lane (`f16`, fma32 bits 60/61) or of 16-bit lanes (`stride16`, fma16 into f32 Z).
 * raw bits are what the "x"/"-x" skip modes write: widened NaNs are the default NaN.
 */
function prepare32(
  v: Float64Array,
  r: Uint32Array,
  f32: Float32Array,
  b32: Uint32Array,
  b16: Uint16Array,
  n: number,
  half: number, // 0: f32 lanes; 1: f16 in low half of 32-bit lanes; 2: f16 lanes
  neg: boolean,
): void {
  for (let i = 0; i < n; i++) {
    if (half === 0) {
      v[i] = f32[i]!;
      r[i] = neg ? (b32[i]! ^ 0x80000000) >>> 0 : b32[i]!;
    } else {
      const h = half === 1 ? b16[2 * i]! : b16[i]!;
      v[i] = F16_TO_F64[h]!;
      const w = F16_TO_F32_BITS[h]!;
      // A widened NaN is the default NaN; fms's negation of it yields +default NaN again.
      r[i] = w === F32_DEFAULT_NAN ? w : neg ? (w ^ 0x80000000) >>> 0 : w;
    }
  }
}

export function execFma32(s: AmxState, lo: number, hi: number, neg: boolean): void {
  const zrow = (lo >>> 20) & 63;
  const alu = (lo >>> 27) & 7;
  const xh = (hi >>> 29) & 1;
  const yh = (hi >>> 28) & 1;
  const allX = ((hi >>> 9) & 0x7f) === 0;
  if (alu === 0 && xh === 0 && yh === 0 && hi >>> 31 === 0) {
    // Hot path: f32 matrix FMA / FMS, unrolled by four lanes (what V8 compiles best). Aligned,
    // non-wrapping X/Y operands are read in place.
    const xoff = (lo >>> 10) & 0x1ff;
    const yoff = lo & 0x1ff;
    let xs = xf32;
    let xb0 = 0;
    let ys = yf32;
    let yb0 = 0;
    if ((xoff & 3) === 0 && xoff <= 448) {
      xs = s.xf32;
      xb0 = xoff >>> 2;
    } else loadXY(xb, s.x, xoff);
    if ((yoff & 3) === 0 && yoff <= 448) {
      ys = s.yf32;
      yb0 = yoff >>> 2;
    } else loadXY(yb, s.y, yoff);
    const allY = (hi & 0x7f) === 0;
    if (!allY) writemask(yen, hi, 4, 7);
    if (!allX) writemask(xen, hi >>> 9, 4, 7);
    for (let i = 0; i < 16; i++) xv[i] = neg ? -xs[xb0 + i]! : xs[xb0 + i]!;
    const zf = s.zf32;
    const z32 = s.z32;
    const zr = zrow & 3;
    if (allX && allY) {
      // every lane enabled: one tight loop per four Z rows (see fmaRows32)
      for (let j = 0; j < 16; j += 4)
        fmaRows32(
          zf,
          z32,
          (j * 4 + zr) * 16,
          ys[yb0 + j]!,
          ys[yb0 + j + 1]!,
          ys[yb0 + j + 2]!,
          ys[yb0 + j + 3]!,
        );
      return;
    }
    for (let j = 0; j < 16; j++) {
      if (!allY && yen[j * 4] === 0) continue;
      const yj = ys[yb0 + j]!;
      const rowBase = (j * 4 + zr) * 16;
      if (allX) {
        for (let i = 0; i < 16; i += 4) {
          fmaLane32(zf, z32, rowBase + i, xv[i]!, yj);
          fmaLane32(zf, z32, rowBase + i + 1, xv[i + 1]!, yj);
          fmaLane32(zf, z32, rowBase + i + 2, xv[i + 2]!, yj);
          fmaLane32(zf, z32, rowBase + i + 3, xv[i + 3]!, yj);
        }
      } else {
        for (let i = 0; i < 16; i++) if (xen[i * 4] !== 0) fmaLane32(zf, z32, rowBase + i, xv[i]!, yj);
      }
    }
    return;
  }
  loadPools(s, lo);
  writemask(xen, hi >>> 9, 4, 7);
  prepare32(xv, xr, xf32, x32, x16, 16, xh, neg);
  prepare32(yv, yr, yf32, y32, y16, 16, yh, neg);
  if (hi >>> 31) {
    const base = zrow * 16;
    for (let i = 0; i < 16; i++) if (xen[i * 4] !== 0) alu32(s, base + i, i, i, alu, neg);
    return;
  }
  writemask(yen, hi, 4, 7);
  const zr = zrow & 3;
  for (let i = 0; i < 16; i++) {
    if (xen[i * 4] === 0) continue;
    for (let j = 0; j < 16; j++) {
      if (yen[j * 4] === 0) continue;
      alu32(s, (j * 4 + zr) * 16 + i, i, j, alu, neg);
    }
  }
}

// ---------------------------------------------------------------------------------------- f16 ---

function alu16(s: AmxState, zi: number, i: number, j: number, alu: number, neg: boolean): void {
  const z16 = s.z16;
  const zv = F16_TO_F64[z16[zi]!]!;
  const xval = F16_TO_F64[x16[i]!]!;
  const yval = F16_TO_F64[y16[j]!]!;
  switch (alu) {
    case 0:
      z16[zi] = fma16(neg ? -xval : xval, yval, zv);
      return;
    case 1:
      z16[zi] = neg ? fma16(-xval, yval, -0) : f16FromDouble(xval * yval);
      return;
    case 2:
      z16[zi] = f16FromDouble(neg ? zv - xval : zv + xval);
      return;
    case 3:
      z16[zi] = neg ? x16[i]! ^ 0x8000 : x16[i]!;
      return;
    case 4:
      z16[zi] = f16FromDouble(neg ? zv - yval : zv + yval);
      return;
    case 5:
      z16[zi] = neg ? y16[j]! ^ 0x8000 : y16[j]!;
      return;
    case 6:
      return;
    default:
      z16[zi] = neg ? 0x8000 : 0;
  }
}

export function execFma16(s: AmxState, lo: number, hi: number, neg: boolean): void {
  loadPools(s, lo);
  const zrow = (lo >>> 20) & 63;
  const alu = (lo >>> 27) & 7;
  writemask(xen, hi >>> 9, 2, 7);
  if (hi >>> 31) {
    const base = zrow * 32;
    for (let i = 0; i < 32; i++) if (xen[i * 2] !== 0) alu16(s, base + i, i, i, alu, neg);
    return;
  }
  writemask(yen, hi, 2, 7);
  if ((hi >>> 30) & 1) {
    // f16 x f16 -> f32 Z, all 64 rows: z[2j + (i & 1)].f32[i >> 1]
    prepare32(xv, xr, xf32, x32, x16, 32, 2, neg);
    prepare32(yv, yr, yf32, y32, y16, 32, 2, neg);
    if (alu === 0) {
      const zf = s.zf32;
      const z32 = s.z32;
      if (neg) for (let i = 0; i < 32; i++) xv[i] = -xv[i]!;
      const allX = ((hi >>> 9) & 0x7f) === 0;
      for (let j = 0; j < 32; j++) {
        if (yen[j * 2] === 0) continue;
        const yj = yv[j]!;
        const even = j * 32; // Z row 2j holds even X lanes, row 2j+1 the odd ones
        const odd = even + 16;
        if (allX) {
          for (let i = 0; i < 32; i += 4) {
            const k = i >>> 1;
            fmaLane32(zf, z32, even + k, xv[i]!, yj);
            fmaLane32(zf, z32, odd + k, xv[i + 1]!, yj);
            fmaLane32(zf, z32, even + k + 1, xv[i + 2]!, yj);
            fmaLane32(zf, z32, odd + k + 1, xv[i + 3]!, yj);
          }
        } else {
          for (let i = 0; i < 32; i++) {
            if (xen[i * 2] !== 0) fmaLane32(zf, z32, (i & 1 ? odd : even) + (i >>> 1), xv[i]!, yj);
          }
        }
      }
      return;
    }
    for (let i = 0; i < 32; i++) {
      if (xen[i * 2] === 0) continue;
      for (let j = 0; j < 32; j++) {
        if (yen[j * 2] === 0) continue;
        alu32(s, (j * 2 + (i & 1)) * 16 + (i >>> 1), i, j, alu, neg);
      }
    }
    return;
  }
  const zr = zrow & 1;
  for (let i = 0; i < 32; i++) {
    if (xen[i * 2] === 0) continue;
    for (let j = 0; j < 32; j++) {
      if (yen[j * 2] === 0) continue;
      alu16(s, (j * 2 + zr) * 32 + i, i, j, alu, neg);
    }
  }
}
