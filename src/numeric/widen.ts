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
import { badInput, unsupported } from '../errors.ts';
import { f64HiBits, f64LoBits } from './bits.ts';
import { type EncodeOptions, encodeFromF32Bits, type Minifloat, type RoundMode } from './minifloat.ts';

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

/** Parses an exact decimal literal into a signed fraction N / D (D > 0), or undefined. */
function parseDecimal(t: string): { N: bigint; D: bigint } | { huge: boolean; neg: boolean } | undefined {
  const m = DECIMAL.exec(t);
  if (!m) return undefined;
  const neg = m[1] === '-';
  const intPart = m[2] ?? '';
  const frac = m[3] ?? m[4] ?? '';
  const exp = Number.parseInt(m[5] ?? '0', 10);
  const digits = (intPart + frac).replace(/^0+/, '');
  if (digits === '') return { N: neg ? -0n : 0n, D: neg ? -1n : 1n };
  const exp10 = exp - frac.length;
  // Far outside fp32's range: decide without building enormous integers.
  if (exp10 + digits.length > 60) return { huge: true, neg };
  if (exp10 + digits.length < -60) return { huge: false, neg };
  const N = BigInt(digits) * (exp10 > 0 ? 10n ** BigInt(exp10) : 1n);
  const D = exp10 < 0 ? 10n ** BigInt(-exp10) : 1n;
  return { N: neg ? -N : N, D };
}

/**
 * Decimal text (e.g. "-1.5e-3", "65520", "inf", "nan") or an exact fraction of two decimals
 * ("1/3", "-2/7e3") -> fp32 bits, rounded from the exact value with `mode`. Throws BadInput for
 * anything else (and for a zero denominator).
 */
export function decimalToF32Bits(text: string, mode: WidenRoundMode = 'rne'): number {
  const t = text.trim();
  const sp = SPECIAL.exec(t);
  if (sp) {
    const sign = sp[1] === '-' ? 0x80000000 : 0;
    return (sign | (sp[2]!.toLowerCase() === 'nan' ? 0x7fc00000 : 0x7f800000)) >>> 0;
  }
  const parts = t.split('/');
  const parsed = parts.length <= 2 ? parts.map((p) => parseDecimal(p.trim())) : [undefined];
  if (parsed.some((p) => p === undefined)) {
    throw badInput(`'${text}' is not a decimal number or fraction`, {
      hint: 'write e.g. 1.5, -3e-5, 65520, 1/3, inf or nan',
    });
  }
  const [a, b] = parsed as ({ N: bigint; D: bigint } | { huge: boolean; neg: boolean })[];
  if (b === undefined) {
    if ('huge' in a!) return extreme(a.huge, a.neg, mode);
    return rationalToF32Bits(a!.N, a!.D, mode, a!.D < 0n);
  }
  if (!('huge' in b) && b.N === 0n) throw badInput(`'${text}': division by zero`);
  if ('huge' in a! || 'huge' in b) {
    throw badInput(`'${text}': fractions need numerator and denominator within 1e-60 .. 1e60`);
  }
  const neg = (a!.N < 0n || a!.D < 0n) !== (b.N < 0n || b.D < 0n);
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const n = abs(a!.N) * abs(b.D);
  return rationalToF32Bits(neg ? -n : n, abs(a!.D) * abs(b.N), mode, neg);
}

function extreme(huge: boolean, neg: boolean, mode: WidenRoundMode): number {
  const sign = neg ? 0x80000000 : 0;
  if (huge) return overflowBits(sign, mode);
  // Nonzero but below 2^-190: only 'odd' rounds it away from zero.
  return mode === 'odd' ? (sign | 1) >>> 0 : sign >>> 0;
}

/**
 * The exact rational N / D (D != 0; the sign is taken from N and D, or from `negZero` when N = 0)
 * -> fp32 bits rounded with `mode`.
 */
export function rationalToF32Bits(
  num: bigint,
  den: bigint,
  mode: WidenRoundMode = 'rne',
  negZero = false,
): number {
  if (den === 0n) throw badInput('rationalToF32Bits: zero denominator');
  const neg = num === 0n ? negZero : num < 0n !== den < 0n;
  const sign = neg ? 0x80000000 : 0;
  const N = num < 0n ? -num : num;
  const D = den < 0n ? -den : den;
  if (N === 0n) return sign >>> 0;
  // e = floor(log2(N / D)).
  let e = bitLength(N) - bitLength(D);
  if (e >= 0 ? N < D << BigInt(e) : N << BigInt(-e) < D) e--;
  if (e > 127) return overflowBits(sign, mode);
  const Eeff = Math.max(e, -126);
  const qe = Eeff - 23; // exponent of the quantum
  let n = N;
  let d = D;
  if (qe >= 0) d <<= BigInt(qe);
  else n <<= BigInt(-qe);
  let q = n / d;
  const r = n % d;
  if (r !== 0n) {
    const c = 2n * r - d;
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

/**
 * Encodes an fp64 value (a JS number) into format `f`, correctly rounded from the exact double for
 * rne / rtz / rna: the double is first rounded to odd at fp32 (exact for formats with <= 22
 * significand bits, see above), then encoded. For 'stochastic' the random fraction is that of the
 * fp32 intermediate (its discarded bits beyond fp32 act as a sticky bit), and `opts.flushIn` applies
 * to the fp32 intermediate. fp32 itself (manBits 23) is encoded with `f64ToF32Bits` directly.
 */
export function encodeFromF64(
  f: Minifloat,
  x: number,
  mode: RoundMode = 'rne',
  opts?: EncodeOptions,
): number {
  if (f.manBits > 21) {
    if (
      f.manBits === 23 &&
      f.expBits === 8 &&
      f.bias === 127 &&
      mode !== 'stochastic' &&
      opts === undefined
    ) {
      return f64ToF32Bits(x, mode);
    }
    throw unsupported(`encodeFromF64: format ${f.name} (${f.manBits} mantissa bits) with these options`, {
      hint: 'encode from fp32 bits with encodeFromF32Bits, or use f64ToF32Bits for fp32',
    });
  }
  return encodeFromF32Bits(f, f64ToF32Bits(x, 'odd'), mode, opts);
}
