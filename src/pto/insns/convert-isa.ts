/**
 * TCVT on the a2a3 / a5 profiles, per the ISA page (docs/isa/tile/ops/elementwise-tile-tile/tcvt.md)
 * rather than the CPU simulator: the round mode is "the rounding policy" of the conversion, so it
 * applies to float -> float narrowing as well as float -> integer; `SaturationMode::ON` clamps to
 * the destination range (NaN -> 0 for integers, +-max finite for floats), OFF lets integers wrap
 * (the page's "PyTorch-compatible non-saturating narrowing") and floats overflow to Inf (or NaN for
 * E4M3, which has no Inf). The iteration domain is the destination's valid region, as the page
 * states. Where the page is silent these are axsim's choices (docs/pto.md).
 */
import {
  BF16,
  decodeToNumber,
  E4M3,
  E5M2,
  encodeFromF64,
  FP16,
  f64ToF32Bits,
  type Minifloat,
} from '../../numeric/index.ts';
import { anyArith } from '../arith.ts';
import { DTYPE_INFO, type DType } from '../dtype.ts';
import type { ExecCtx, PtoRoundMode } from '../op.ts';
import { off } from '../op.ts';

const FORMAT: Partial<Record<DType, Minifloat>> = { f16: FP16, bf16: BF16, f8e4m3: E4M3, f8e5m2: E5M2 };

/** Integer value of x rounded with `mode` (CAST_NONE truncates, like a plain cast). */
function roundInt(x: number, mode: PtoRoundMode): number {
  switch (mode) {
    case 'CAST_RINT': {
      const r = Math.round(x);
      return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
    }
    case 'CAST_ROUND':
      return x < 0 ? -Math.floor(-x + 0.5) : Math.floor(x + 0.5);
    case 'CAST_FLOOR':
      return Math.floor(x);
    case 'CAST_CEIL':
      return Math.ceil(x);
    case 'CAST_ODD': {
      const f = Math.floor(x);
      if (x - f !== 0.5) return x - f > 0.5 ? f + 1 : f;
      return f % 2 !== 0 ? f : f + 1;
    }
    default:
      return Math.trunc(x);
  }
}

/** Bits of x in binary32 / a small format under a PTO round mode (directed modes via rtz + one step). */
function encodeFloat(d: DType, x: number, mode: PtoRoundMode, sat: boolean): number {
  const f = FORMAT[d];
  const base = mode === 'CAST_RINT' || mode === 'CAST_NONE' ? 'rne' : mode === 'CAST_ROUND' ? 'rna' : 'rtz';
  let code: number;
  let exact: boolean;
  let maxCode: number;
  let signBit: number;
  if (f === undefined) {
    code = f64ToF32Bits(x, base);
    exact = Math.fround(x) === x || Number.isNaN(x);
    maxCode = 0x7f7fffff;
    signBit = 0x80000000;
  } else {
    code = encodeFromF64(f, x, base);
    exact = Number.isNaN(x) || decodeToNumber(f, code) === x;
    maxCode = f.maxFiniteCode;
    signBit = 1 << (f.expBits + f.manBits);
  }
  const neg = x < 0;
  const mag = (code & ~signBit) >>> 0;
  if (!exact && !Number.isNaN(x)) {
    const away = (mode === 'CAST_FLOOR' && neg) || (mode === 'CAST_CEIL' && !neg);
    if (away && mag < maxCode + 1) code = (code + 1) >>> 0;
    if (mode === 'CAST_ODD') code = (code | 1) >>> 0;
  }
  if (sat && Number.isFinite(x) && (code & ~signBit) >>> 0 > maxCode) {
    code = ((neg ? signBit : 0) | maxCode) >>> 0;
  }
  return code >>> 0;
}

/**
 * An integer value converted to an integer type of at most 32 bits, modulo 2^width (exact for any
 * finite integer-valued double: the bit operations take it modulo 2^32 first).
 */
export function wrapInt32(d: DType, v: number): number {
  switch (d) {
    case 'i8':
      return (v << 24) >> 24;
    case 'u8':
      return v & 0xff;
    case 'i16':
      return (v << 16) >> 16;
    case 'u16':
      return v & 0xffff;
    case 'i32':
      return v | 0;
    default:
      return v >>> 0;
  }
}

export function tcvtIsa(ctx: ExecCtx, mode: PtoRoundMode, sat: boolean): void {
  const src = ctx.tiles.src!;
  const dst = ctx.tiles.dst!;
  const S = anyArith(src.dtype, ctx.profile);
  const D = anyArith(dst.dtype, ctx.profile);
  const sv = S.view(src.bytes);
  const dv = D.view(dst.bytes);
  const dInfo = DTYPE_INFO[dst.dtype];
  const w = BigInt(dInfo.bytes * 8);
  const lo = dInfo.signed ? -(1n << (w - 1n)) : 0n;
  const hi = dInfo.signed ? (1n << (w - 1n)) - 1n : (1n << w) - 1n;
  const sInt = !DTYPE_INFO[src.dtype].float;
  const small = !dInfo.float && !D.big && !S.big;
  const loN = Number(lo);
  const hiN = Number(hi);
  for (let i = 0; i < dst.validRow; i++) {
    for (let j = 0; j < dst.validCol; j++) {
      const v = S.load(sv, off(src, i, j));
      const o = off(dst, i, j);
      if (small) {
        // <= 32-bit integer destination from a <= 32-bit source: Number arithmetic, no bigint
        let r: number;
        if (sInt) r = v as number;
        else {
          const x = S.toF64(v);
          r = Number.isNaN(x) ? 0 : Number.isFinite(x) ? roundInt(x, mode) : x > 0 ? hiN : loN;
        }
        D.store(
          dv,
          o,
          sat || Math.abs(r) > 2 ** 64 ? Math.min(Math.max(r, loN), hiN) : wrapInt32(dst.dtype, r),
        );
      } else if (!dInfo.float) {
        let n: bigint;
        if (sInt) n = typeof v === 'bigint' ? v : BigInt(v as number);
        else {
          const x = S.toF64(v);
          if (Number.isNaN(x)) n = 0n;
          else if (!Number.isFinite(x)) n = x > 0 ? hi : lo;
          else n = BigInt(roundInt(x, mode));
        }
        if (sat || n < -(1n << 64n) || n > 1n << 64n) n = n < lo ? lo : n > hi ? hi : n;
        else n = dInfo.signed ? BigInt.asIntN(Number(w), n) : BigInt.asUintN(Number(w), n);
        D.store(dv, o, D.big ? n : Number(n));
      } else {
        const code = encodeFloat(dst.dtype, S.toF64(v), mode, sat);
        for (let k = 0; k < dInfo.bytes; k++) dst.bytes[o * dInfo.bytes + k] = (code >>> (8 * k)) & 0xff;
      }
    }
  }
}
