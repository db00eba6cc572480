/**
 * One parametric codec for the small binary floating-point formats (binary16, bfloat16, TF32, OCP
 * fp8 E4M3/E5M2, OCP MX fp6/fp4, ...). Every named format in `formats.ts` is an instance of it.
 *
 * Codes are unsigned integers `sign | exponent | mantissa` of width 1 + expBits + manBits.
 * Encoding starts from an fp32 bit pattern and rounds exactly on integers (never through host
 * floating point), so every rounding mode is available and results are host-independent.
 *
 * Restrictions (checked by `defineMinifloat`): the format's finite range and precision must fit in
 * fp32 (expBits <= 8, manBits <= 23, 1 - bias >= -126, emax <= 127), so decoding to fp32 is exact.
 */
import { badInput, undefinedBehaviour } from '../errors.ts';

/** Rounding modes: nearest-even, toward zero, nearest ties-away-from-zero, stochastic. */
export type RoundMode = 'rne' | 'rtz' | 'rna' | 'stochastic';
export const ROUND_MODES: readonly RoundMode[] = ['rne', 'rtz', 'rna', 'stochastic'];

/**
 * What a NaN input becomes when encoded:
 * - 'quiet' (default, IEEE 754 §6.2.3 style): sign and the top payload bits kept, quiet bit set;
 * - 'preserve': sign and top payload bits kept as they are (a signalling NaN stays signalling);
 *   if the kept payload would be all zero (which would read as Infinity) the quiet bit is set;
 * - 'canonical': the format's canonical NaN (`canonicalNaN`), whatever the input.
 * Formats with a single NaN code per sign (E4M3) keep only the sign ('canonical' gives +NaN).
 */
export type NanPolicy = 'quiet' | 'preserve' | 'canonical';

export interface EncodeOptions {
  /** Overflow goes to ±max finite instead of ±Inf (or NaN for formats without Inf); ±Inf too. */
  saturate?: boolean;
  /** fp32 subnormal inputs are read as signed zero before rounding (denormal flush on input). */
  flushIn?: boolean;
  /** Results that are subnormal in the target format (after rounding) become signed zero. */
  flushOut?: boolean;
  nan?: NanPolicy;
  /**
   * For 'stochastic': an unsigned 32-bit random word. The discarded bits, as a 32-bit fraction
   * aligned at their most significant bit, are added to it; a carry out rounds the magnitude up.
   * So the probability of rounding up is the discarded fraction (truncated to 32 bits).
   */
  rand?: number;
}

export interface DecodeOptions {
  /** Subnormal codes decode as signed zero (denormal flush on input). */
  flushIn?: boolean;
}

/**
 * How the all-ones exponent is used:
 * - 'ieee': mantissa 0 = ±Inf, anything else NaN (binary16, bfloat16, TF32, E5M2);
 * - 'fn': finite values; only the all-ones code (exponent and mantissa) per sign is NaN, no Inf
 *   (OCP E4M3);
 * - 'none': every code is finite; no Inf, no NaN (OCP MX fp6/fp4).
 */
export type SpecialEncoding = 'ieee' | 'fn' | 'none';

export interface MinifloatSpec {
  name: string;
  expBits: number;
  manBits: number;
  bias: number;
  special: SpecialEncoding;
}

export interface Minifloat extends Readonly<MinifloatSpec> {
  /** Total width in bits (sign + exponent + mantissa). */
  readonly width: number;
  /** Bit position of the sign (width - 1). */
  readonly signShift: number;
  readonly manMask: number;
  /** Mask of everything but the sign. */
  readonly magMask: number;
  /** Biased exponent value with all bits set. */
  readonly expAllOnes: number;
  /** Unbiased exponent of the smallest normal (1 - bias). */
  readonly emin: number;
  /** Unbiased exponent of the largest finite binade. */
  readonly emax: number;
  /** Magnitude code of the largest finite value. */
  readonly maxFiniteCode: number;
  /** Magnitude code of +Inf, or -1 when the format has none. */
  readonly infCode: number;
  /** Magnitude code of the positive NaN this library treats as canonical, or -1 when none. */
  readonly nanCode: number;
  /** Mantissa MSB (the IEEE quiet bit) for 'ieee' formats, else 0. */
  readonly quietBit: number;
  /** 2^manBits (multiplication keeps 23-bit mantissa formats clear of int32 shift overflow). */
  readonly manScale: number;
}

/** Builds a format descriptor, validating that fp32 can hold every value exactly. */
export function defineMinifloat(spec: MinifloatSpec): Minifloat {
  const { name, expBits, manBits, bias, special } = spec;
  const okInt = (v: number) => Number.isInteger(v);
  if (!okInt(expBits) || expBits < 1 || expBits > 8) {
    throw badInput(`format ${name}: expBits must be an integer in 1..8, got ${expBits}`);
  }
  if (!okInt(manBits) || manBits < 0 || manBits > 23) {
    throw badInput(`format ${name}: manBits must be an integer in 0..23, got ${manBits}`);
  }
  if (special === 'ieee' && manBits < 1) {
    throw badInput(`format ${name}: an IEEE-style format needs manBits >= 1 to tell Inf from NaN`);
  }
  if (special === 'fn' && expBits + manBits < 2) {
    throw badInput(`format ${name}: a 'fn' format needs at least one finite non-zero code`);
  }
  const expAllOnes = (1 << expBits) - 1;
  const emin = 1 - bias;
  const emax = (special === 'ieee' ? expAllOnes - 1 : expAllOnes) - bias;
  if (!okInt(bias) || emin < -126 || emax > 127) {
    throw badInput(
      `format ${name}: bias ${bias} puts the exponent range [${emin}, ${emax}] outside fp32's [-126, 127]`,
    );
  }
  const width = 1 + expBits + manBits;
  const manMask = (1 << manBits) - 1;
  const magMask = (1 << (expBits + manBits)) - 1;
  let maxFiniteCode: number;
  let infCode = -1;
  let nanCode = -1;
  let quietBit = 0;
  if (special === 'ieee') {
    infCode = expAllOnes << manBits;
    maxFiniteCode = infCode - 1;
    quietBit = 1 << (manBits - 1);
    nanCode = infCode | quietBit;
  } else if (special === 'fn') {
    nanCode = magMask;
    maxFiniteCode = magMask - 1;
  } else {
    maxFiniteCode = magMask;
  }
  return Object.freeze({
    name,
    expBits,
    manBits,
    bias,
    special,
    width,
    signShift: width - 1,
    manMask,
    magMask,
    expAllOnes,
    emin,
    emax,
    maxFiniteCode,
    infCode,
    nanCode,
    quietBit,
    manScale: 2 ** manBits,
  });
}

/** Is `code` a NaN of format `f`? */
export function isNaNCode(f: Minifloat, code: number): boolean {
  const mag = code & f.magMask;
  if (f.special === 'ieee') return mag > f.infCode;
  if (f.special === 'fn') return mag === f.nanCode;
  return false;
}

/** Is `code` ±Inf of format `f`? */
export function isInfCode(f: Minifloat, code: number): boolean {
  return f.special === 'ieee' && (code & f.magMask) === f.infCode;
}

/** The canonical (positive, quiet, payload-free) NaN code of `f`; throws if `f` has no NaN. */
export function canonicalNaNCode(f: Minifloat): number {
  if (f.nanCode < 0) throw badInput(`format ${f.name} has no NaN encoding`);
  return f.nanCode;
}

/**
 * Decodes a code of format `f` to the fp32 bit pattern of the same value (exact). NaN payloads
 * are carried over bit for bit (left-aligned, not quieted), so a signalling NaN stays signalling;
 * the single NaN of 'fn' formats decodes to the fp32 quiet NaN with the same sign.
 */
export function decodeToF32Bits(f: Minifloat, code: number, opts?: DecodeOptions): number {
  const manBits = f.manBits;
  const sign = ((code >>> f.signShift) & 1) << 31;
  const e = (code >>> manBits) & f.expAllOnes;
  const m = code & f.manMask;
  if (e === f.expAllOnes) {
    if (f.special === 'ieee') {
      return (sign | 0x7f800000 | (m << (23 - manBits))) >>> 0;
    }
    if (f.special === 'fn' && m === f.manMask) return (sign | 0x7fc00000) >>> 0;
  }
  if (e === 0) {
    if (m === 0 || (opts !== undefined && opts.flushIn === true)) return sign >>> 0;
    // Subnormal: value = m * 2^(emin - manBits). Normalise for fp32 when it has the range.
    const p = 31 - Math.clz32(m);
    const exp = f.emin - manBits + p;
    if (exp >= -126) {
      return (sign | ((exp + 127) << 23) | ((m << (23 - p)) & 0x7fffff)) >>> 0;
    }
    return (sign | (m << (f.emin - manBits + 149))) >>> 0;
  }
  return (sign | ((e - f.bias + 127) << 23) | (m << (23 - manBits))) >>> 0;
}

/** Code of the value to return on overflow of the finite range, before the sign is added. */
function overflowCode(f: Minifloat, mode: RoundMode, saturate: boolean): number {
  // Round-toward-zero never rounds a magnitude up, so like IEEE 754 §7.4 it yields max finite.
  if (saturate || mode === 'rtz' || f.special === 'none') return f.maxFiniteCode;
  return f.special === 'ieee' ? f.infCode : f.nanCode;
}

function nanResult(f: Minifloat, sign: number, m32: number, policy: NanPolicy | undefined): number {
  if (f.special === 'none') {
    throw undefinedBehaviour(`NaN has no encoding in format ${f.name}`, {
      hint: 'filter NaNs before converting, or use a format with a NaN code',
    });
  }
  if (policy === 'canonical') return f.nanCode;
  if (f.special === 'fn') return (sign | f.nanCode) >>> 0;
  let payload = m32 >>> (23 - f.manBits);
  if (policy === 'preserve') {
    if (payload === 0) payload = f.quietBit;
  } else {
    payload |= f.quietBit;
  }
  return (sign | f.infCode | payload) >>> 0;
}

/**
 * Encodes the fp32 value with bit pattern `b` into format `f` with rounding `mode`.
 * Exact integer rounding; see `EncodeOptions` for saturation, denormal flush, NaN policy and the
 * random word of stochastic rounding. Throws BadInput for 'stochastic' without `opts.rand`.
 */
export function encodeFromF32Bits(
  f: Minifloat,
  b: number,
  mode: RoundMode = 'rne',
  opts?: EncodeOptions,
): number {
  const signBit = b >>> 31;
  const sign = signBit === 0 ? 0 : (1 << f.signShift) >>> 0;
  const e32 = (b >>> 23) & 0xff;
  const m32 = b & 0x7fffff;
  let saturate = false;
  let flushOut = false;
  if (opts !== undefined) {
    saturate = opts.saturate === true;
    flushOut = opts.flushOut === true;
  }
  if (e32 === 0xff) {
    if (m32 !== 0) return nanResult(f, sign, m32, opts?.nan);
    if (f.special === 'ieee' && !saturate) return (sign | f.infCode) >>> 0;
    if (f.special === 'fn' && !saturate) return (sign | f.nanCode) >>> 0;
    return (sign | f.maxFiniteCode) >>> 0;
  }
  // Value = sig * 2^(E - 23), sig < 2^24.
  let E: number;
  let sig: number;
  if (e32 === 0) {
    if (m32 === 0 || (opts !== undefined && opts.flushIn === true)) return sign;
    E = -126;
    sig = m32;
  } else {
    E = e32 - 127;
    sig = m32 | 0x800000;
  }
  const manBits = f.manBits;
  if (E > f.emax) {
    return (sign | overflowCode(f, mode, saturate)) >>> 0;
  }
  // Exponent of the quantum: the binade's, but never below the subnormal range's.
  // biome-ignore lint/complexity/useMathMinMax: Math.max measured several times slower in this hot path
  const Eeff = E < f.emin ? f.emin : E;
  const shift = 23 - manBits + (Eeff - E);
  let q: number;
  if (shift === 0) {
    q = sig;
  } else if (shift <= 24) {
    q = sig >>> shift;
    const rem = sig & ((1 << shift) - 1);
    if (rem !== 0) {
      if (mode === 'rne') {
        const half = 1 << (shift - 1);
        if (rem > half || (rem === half && (q & 1) === 1)) q++;
      } else if (mode === 'rna') {
        if (rem >= 1 << (shift - 1)) q++;
      } else if (mode === 'stochastic') {
        const rand = randWord(opts);
        // rem / 2^shift as a 32-bit fraction; exact in doubles (< 2^32).
        if (rem * POW2_32_MINUS[shift]! + rand >= 4294967296) q++;
      } else if (mode !== 'rtz') {
        throw badMode(mode);
      }
    }
  } else {
    // Everything is shifted out and sig < 2^24 <= half: below half, only stochastic can round up.
    q = 0;
    if (mode === 'stochastic') {
      const rand = randWord(opts);
      if (Math.floor(sig * (shift < 128 ? POW2_32_MINUS[shift]! : 0)) + rand >= 4294967296) q = 1;
    } else if (mode !== 'rne' && mode !== 'rna' && mode !== 'rtz') {
      throw badMode(mode);
    }
  }
  // Biased exponent (Eeff + bias) minus one, plus q which carries the implicit bit: a carry out of
  // the mantissa bumps the exponent, and in the subnormal range this is just q.
  const code = (Eeff + f.bias - 1) * f.manScale + q;
  if (code > f.maxFiniteCode) return (sign | overflowCode(f, mode, saturate)) >>> 0;
  if (flushOut && code < 1 << manBits) return sign;
  return (sign | code) >>> 0;
}

/** POW2_32_MINUS[s] = 2^(32 - s): aligns s discarded bits to a 32-bit fraction (exact in doubles). */
const POW2_32_MINUS = Float64Array.from({ length: 128 }, (_, s) => 2 ** (32 - s));

function randWord(opts: EncodeOptions | undefined): number {
  const r = opts?.rand;
  if (r === undefined || !Number.isInteger(r) || r < 0 || r > 0xffffffff) {
    throw badInput(`stochastic rounding needs opts.rand, an unsigned 32-bit integer (got ${String(r)})`);
  }
  return r;
}

function badMode(mode: string) {
  return badInput(`unknown rounding mode '${mode}'`, { hint: `use one of ${ROUND_MODES.join(', ')}` });
}

/** Decodes a code of `f` to a JS number (exact; NaN payloads are lost in the number). */
export function decodeToNumber(f: Minifloat, code: number, opts?: DecodeOptions): number {
  return f32FromBits(decodeToF32Bits(f, code, opts));
}

const cast = new DataView(new ArrayBuffer(4));
function f32FromBits(b: number): number {
  cast.setUint32(0, b);
  return cast.getFloat32(0);
}
