/**
 * TCVT: element type conversion with a rounding mode and a saturation mode, following the pto-isa
 * CPU simulator (include/pto/cpu/TCvt.hpp):
 * - iterates the *source* valid region (dst valid shape ignored);
 * - rounding modes apply only float -> integer (RINT, ROUND = ties away, FLOOR, CEIL, TRUNC,
 *   ODD = nearest with ties to odd, NONE = plain truncating cast); everything else is a C++ cast;
 * - SaturationMode::ON clamps in double to the intersection of both types' ranges (f16 +-65504,
 *   fp8 types have no numeric_limits specialisation so their range is [0, 0]), NaN clamps to the
 *   maximum, and the clamped value is cast back to the source type before converting.
 */

import { badInput } from '../../errors.ts';
import { bitsToF32 } from '../../numeric/index.ts';
import { type Arith, anyArith } from '../arith.ts';
import { DTYPE_INFO, type DType } from '../dtype.ts';
import { cvt64, mxEncodeHi } from '../hostcast.ts';
import { ALL, type ExecCtx, type OpDef, off, type PtoRoundMode, per, ROUND_MODES, reject } from '../op.ts';
import { TCVT_PAIRS } from '../support.ts';
import { tcvtIsa, wrapInt32 } from './convert-isa.ts';

const F32_MAX = bitsToF32(0x7f7fffff);

/** std::numeric_limits<T>::lowest()/max() as the simulator's SafeLimits sees them. */
function limits(d: DType): [number, number] {
  switch (d) {
    case 'f32':
      return [-F32_MAX, F32_MAX];
    case 'f16':
      return [-65504, 65504];
    case 'bf16':
      return [-bitsToF32(0x7f7f0000), bitsToF32(0x7f7f0000)];
    case 'f8e4m3':
    case 'f8e5m2':
      return [0, 0];
    case 'i8':
      return [-128, 127];
    case 'u8':
      return [0, 255];
    case 'i16':
      return [-32768, 32767];
    case 'u16':
      return [0, 65535];
    case 'i32':
      return [-2147483648, 2147483647];
    case 'u32':
      return [0, 4294967295];
    case 'i64':
      return [-(2 ** 63), 2 ** 63];
    case 'u64':
      return [0, 2 ** 64];
  }
}

/** TCvt.hpp applyRoundingToIntegral. */
export function roundToIntegral(v: number, mode: PtoRoundMode): number {
  switch (mode) {
    case 'CAST_RINT': {
      // round half to even (std::rint in the default rounding mode)
      if (!Number.isFinite(v)) return v;
      const r = Math.round(v);
      return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
    }
    case 'CAST_ROUND':
      // std::round: halfway cases away from zero
      if (!Number.isFinite(v)) return v;
      return v < 0 ? -roundHalfAway(-v) : roundHalfAway(v);
    case 'CAST_FLOOR':
      return Math.floor(v);
    case 'CAST_CEIL':
      return Math.ceil(v);
    case 'CAST_TRUNC':
      return Math.trunc(v);
    case 'CAST_ODD': {
      const f = Math.floor(v);
      const frac = v - f;
      if (frac > 0.5) return f + 1;
      if (frac < 0.5) return f;
      const i = cvt64(f);
      return i & 1n ? f : f + 1;
    }
    default:
      return v;
  }
}

function roundHalfAway(v: number): number {
  const f = Math.floor(v);
  return v - f >= 0.5 ? f + 1 : f;
}

function roundMode(ctx: ExecCtx): PtoRoundMode {
  const m = ctx.attrs.roundMode ?? 'CAST_RINT';
  if (typeof m === 'number' && ROUND_MODES[m] !== undefined) return ROUND_MODES[m]!;
  const s = String(m).toUpperCase();
  const name = (s.startsWith('CAST_') ? s : `CAST_${s}`) as PtoRoundMode;
  if (!ROUND_MODES.includes(name))
    throw badInput(`TCVT: roundMode ${JSON.stringify(m)} is not one of ${ROUND_MODES.join(' ')}`);
  return name;
}

/** double bits (high word) of a float NaN element as cvtss2sd / half->double give it (quieted). */
function nanHiWord(d: DType, bytes: Uint8Array, o: number): number {
  if (d === 'f32') {
    const b = (bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24)) >>> 0;
    return ((b & 0x80000000) | 0x7ff00000 | (((b & 0x7fffff) | 0x400000) >>> 3)) >>> 0;
  }
  const h = bytes[o]! | (bytes[o + 1]! << 8);
  const man = d === 'f16' ? (h & 0x3ff) << 13 : (h & 0x7f) << 16;
  return (((h & 0x8000) << 16) | 0x7ff00000 | ((man | 0x400000) >>> 3)) >>> 0;
}

function isFloatLike(d: DType): boolean {
  return d === 'f32' || d === 'f16' || d === 'bf16';
}

function tcvt(ctx: ExecCtx): void {
  const src = ctx.tiles.src!;
  const dst = ctx.tiles.dst!;
  const S = anyArith(src.dtype, ctx.profile) as Arith<unknown>;
  const D = anyArith(dst.dtype, ctx.profile) as Arith<unknown>;
  const sv = S.view(src.bytes);
  const dv = D.view(dst.bytes);
  const mode = roundMode(ctx);
  const sat = ctx.attrs.satMode === 'ON' || ctx.attrs.satMode === true;
  if (ctx.profile !== 'cpu') {
    tcvtIsa(ctx, mode, sat);
    return;
  }
  const [sLo, sHi] = limits(src.dtype);
  const [dLo, dHi] = limits(dst.dtype);
  const lo = Math.max(sLo, dLo);
  const hi = Math.min(sHi, dHi);
  const sInt = !DTYPE_INFO[src.dtype].float;
  const dInt = !DTYPE_INFO[dst.dtype].float;
  const dFp8 = DTYPE_INFO[dst.dtype].fp8;
  const sFloat = isFloatLike(src.dtype);
  const dName = dst.dtype as 'f8e4m3' | 'f8e5m2';
  // integer -> integer of at most 32 bits: plain number arithmetic (bigint only for 64-bit types)
  const smallInts = sInt && dInt && !S.big && !D.big;
  // fp8 -> the same fp8 type without saturation is `static_cast<D>(val)` with D = S: a copy, so the
  // code survives even where decode + encode would change it (e4m3 codes 4..7, e5m2 2..3, 0x80);
  // found by differential runs against the CPU simulator (docs/pto-status.md)
  const copyFp8 = !sat && dFp8 && src.dtype === dst.dtype;
  for (let i = 0; i < src.validRow; i++) {
    for (let j = 0; j < src.validCol; j++) {
      const so = off(src, i, j);
      if (copyFp8) {
        dst.bytes[off(dst, i, j)] = src.bytes[so]!;
        continue;
      }
      let val = S.load(sv, so);
      let nanHi = 0;
      if (sat) {
        let dval = S.toF64(val);
        // clamp_value = std::max(lowest, std::min(max, v)): a NaN becomes max
        if (!(dval < hi)) dval = hi;
        if (!(lo < dval)) dval = lo;
        val = S.fromF64(dval);
      } else if (sFloat && dFp8 && Number.isNaN(S.toF64(val))) {
        nanHi = nanHiWord(src.dtype, src.bytes, so * src.elemBytes);
      }
      let out: unknown;
      if (sFloat && dInt) {
        const r = roundToIntegral(S.toF64(val), mode);
        out = dst.dtype === 'u8' ? Number(BigInt.asUintN(8, cvt64(r))) : D.fromF64(r);
      } else if (smallInts) {
        out = wrapInt32(dst.dtype, val as number);
      } else if (sInt && dInt) {
        const b = typeof val === 'bigint' ? val : BigInt(val as number);
        const w = DTYPE_INFO[dst.dtype].bytes * 8;
        const x = DTYPE_INFO[dst.dtype].signed ? BigInt.asIntN(w, b) : BigInt.asUintN(w, b);
        out = D.big ? x : Number(x);
      } else if (nanHi !== 0) {
        out = D.fromF64(Number.NaN);
        D.store(dv, off(dst, i, j), out);
        dst.bytes[off(dst, i, j)] = mxEncodeHi(dName, nanHi);
        continue;
      } else {
        out = D.fromF64(S.toF64(val));
      }
      D.store(dv, off(dst, i, j), out);
    }
  }
}

export const CONVERT_OPS: readonly OpDef[] = [
  {
    name: 'TCVT',
    family: 'convert',
    summary: 'dst = convert(src) with a round mode and saturation (source valid region)',
    ref: 'pto-isa docs/isa/tile/ops/elementwise-unary/tcvt.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [
      { name: 'roundMode', kind: 'roundMode', values: ROUND_MODES },
      { name: 'satMode', kind: 'satMode', optional: true, values: ['ON', 'OFF'] },
    ],
    primary: 'src',
    dtypes: per(ALL, {
      a2a3: Object.keys(TCVT_PAIRS.a2a3) as DType[],
      a5: Object.keys(TCVT_PAIRS.a5) as DType[],
    }),
    check: (ctx) => {
      if (ctx.profile === 'cpu') return;
      const s = ctx.tiles.src!.dtype;
      const d = ctx.tiles.dst!.dtype;
      if (!TCVT_PAIRS[ctx.profile][s]?.includes(d)) {
        reject('TCVT', `${s}→${d}`, `no ${ctx.profile} conversion path from ${s} to ${d}`, ctx.profile);
      }
    },
    exec: tcvt,
  },
];
