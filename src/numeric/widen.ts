/**
 * Conversions INTO fp32 bits from wider or exact sources, with a chosen rounding mode:
 * fp64 -> fp32 (`f64ToF32Bits`) and decimal text -> fp32 (`decimalToF32Bits`, exact, BigInt).
 *
 * Besides the four usual modes they offer 'odd' (round to odd / "jamming": truncate, then set the
 * last bit if anything was discarded). Rounding to odd first and then to a format with at least two
 * fewer significand bits gives the same result as rounding the exact value directly, for
 * rne / rtz / rna (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
 * using rounding to odd", IEEE TC 2008). fp32 has 24 bits and every small format here has at most
 * 11 (TF32), so x -> fp32 (odd) -> format (mode) is exact for those modes. Overflow in 'odd' mode
 * gives ±max fp32 (odd), which every small format then treats as overflow.
 */
import { badInput } from '../errors.ts';
import { f64HiBits, f64LoBits } from './bits.ts';
import type { RoundMode } from './minifloat.ts';

/** Rounding modes for conversions into fp32: the usual deterministic ones plus round-to-odd. */
export type WidenRoundMode = Exclude<RoundMode, 'stochastic'> | 'odd';

function roundUp(mode: WidenRoundMode, q: number, cmpHalf: number): boolean {
  // cmpHalf: sign of (discarded - half); only called when something was discarded.
  if (mode === 'rne') return cmpHalf > 0 || (cmpHalf === 0 && q % 2 === 1);
  if (mode === 'rna') return cmpHalf >= 0;
  return false;
}

function overflowBits(sign: number, mode: WidenRoundMode): number {
  return (sign | (mode === 'rne' || mode === 'rna' ? 0x7f800000 : 0x7f7fffff)) >>> 0;
}

/**
 * fp64 value -> fp32 bits with rounding `mode` (exact integer arithmetic on the 53-bit
 * significand held in a double). NaNs keep sign and the top 22 payload bits, quiet bit set.
 */
export function f64ToF32Bits(x: number, mode: WidenRoundMode = 'rne'): number {
  const hi = f64HiBits(x);
  const lo = f64LoBits(x);
  const sign = (hi & 0x80000000) >>> 0;
  const e64 = (hi >>> 20) & 0x7ff;
  const mHi = hi & 0xfffff;
  if (e64 === 0x7ff) {
    if (mHi === 0 && lo === 0) return (sign | 0x7f800000) >>> 0;
    return (sign | 0x7fc00000 | ((mHi << 3) | (lo >>> 29))) >>> 0;
  }
  if (e64 === 0 && mHi === 0 && lo === 0) return sign;
  // Value = sig * 2^(E - 52), sig < 2^53 exact in a double. fp64 subnormals are far below fp32's
  // range; treating them with E = -1022 is enough to round them correctly.
  const E = e64 === 0 ? -1022 : e64 - 1023;
  const sig = (e64 === 0 ? 0 : 2 ** 52) + mHi * 2 ** 32 + lo;
  if (E > 127) return overflowBits(sign, mode);
  const Eeff = Math.max(E, -126);
  const shift = 29 + (Eeff - E);
  let q: number;
  let discarded: boolean;
  let cmpHalf: number;
  if (shift > 54) {
    q = 0;
    discarded = true;
    cmpHalf = -1; // sig < 2^53 <= half
  } else {
    const unit = 2 ** shift;
    q = Math.floor(sig / unit);
    const rem = sig - q * unit;
    discarded = rem !== 0;
    cmpHalf = Math.sign(rem - unit / 2);
  }
  if (discarded) {
    if (mode === 'odd') q = q % 2 === 1 ? q : q + 1;
    else if (mode !== 'rtz' && roundUp(mode, q, cmpHalf)) q++;
    else if (mode !== 'rtz' && mode !== 'rne' && mode !== 'rna') throw badMode(mode);
  }
  const code = (Eeff + 126) * 2 ** 23 + q;
  if (code >= 0x7f800000) return overflowBits(sign, mode);
  return (sign | code) >>> 0;
}

function badMode(mode: string) {
  return badInput(`unknown rounding mode '${mode}' for a conversion to fp32`, {
    hint: 'use rne, rtz, rna or odd',
  });
}

const DECIMAL = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(16).length * 4 - Math.clz32(Number.parseInt(n.toString(16)[0]!, 16)) + 28;
}

/**
 * Decimal text (e.g. "-1.5e-3", "65520", "inf", "nan") -> fp32 bits, rounded from the exact
 * decimal value with `mode`. Throws BadInput for anything else.
 */
export function decimalToF32Bits(text: string, mode: WidenRoundMode = 'rne'): number {
  const t = text.trim();
  const sp = SPECIAL.exec(t);
  if (sp) {
    const sign = sp[1] === '-' ? 0x80000000 : 0;
    return (sign | (sp[2]!.toLowerCase() === 'nan' ? 0x7fc00000 : 0x7f800000)) >>> 0;
  }
  const m = DECIMAL.exec(t);
  if (!m) {
    throw badInput(`'${text}' is not a decimal number`, { hint: 'write e.g. 1.5, -3e-5, 65520, inf or nan' });
  }
  const sign = m[1] === '-' ? 0x80000000 : 0;
  const intPart = m[2] ?? '';
  const frac = m[3] ?? m[4] ?? '';
  const exp = Number.parseInt(m[5] ?? '0', 10);
  const digits = (intPart + frac).replace(/^0+/, '');
  if (digits === '') return sign >>> 0;
  const exp10 = exp - frac.length;
  // Far outside fp32's range: decide without building enormous integers.
  if (exp10 + digits.length > 60) return overflowBits(sign, mode);
  if (exp10 + digits.length < -60) {
    // Nonzero but below 2^-190: only 'odd' (and no other mode) rounds it away from zero.
    return mode === 'odd' ? (sign | 1) >>> 0 : sign >>> 0;
  }
  let N = BigInt(digits);
  let D = 1n;
  if (exp10 >= 0) N *= 10n ** BigInt(exp10);
  else D = 10n ** BigInt(-exp10);
  // e = floor(log2(N / D)).
  let e = bitLength(N) - bitLength(D);
  if (e >= 0 ? N < D << BigInt(e) : N << BigInt(-e) < D) e--;
  if (e > 127) return overflowBits(sign, mode);
  const Eeff = Math.max(e, -126);
  const qe = Eeff - 23; // exponent of the quantum
  let num = N;
  let den = D;
  if (qe >= 0) den <<= BigInt(qe);
  else num <<= BigInt(-qe);
  let q = num / den;
  const r = num % den;
  if (r !== 0n) {
    const c = 2n * r - den;
    const cmpHalf = c > 0n ? 1 : c < 0n ? -1 : 0;
    if (mode === 'odd') {
      if (q % 2n === 0n) q++;
    } else if (mode === 'rne' || mode === 'rna') {
      if (roundUp(mode, Number(q % 2n), cmpHalf)) q++;
    } else if (mode !== 'rtz') {
      throw badMode(mode);
    }
  }
  const code = (Eeff + 126) * 2 ** 23 + Number(q);
  if (code >= 0x7f800000) return overflowBits(sign, mode);
  return (sign | code) >>> 0;
}
