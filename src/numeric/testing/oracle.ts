/**
 * Test-only reference model for encoding fp32 values into small float formats, written from the
 * format definitions (IEEE 754-2019 §4.3, §7.4; OCP OFP8 rev 1.0 §3, §5) and NOT from the code under
 * test: every value is an exact BigInt multiple of 2^-K, the representable values of the target
 * format are enumerated from their field formula into a sorted table, and rounding picks between
 * the two table neighbours by exact comparison. Slow but obviously right; tests use it as oracle.
 */

/** Values are stored as integers n meaning n * 2^-K; 2^-K is far below fp32's 2^-149. */
export const K = 200n;

export interface OracleFormat {
  expBits: number;
  manBits: number;
  bias: number;
  /** 'ieee': Inf + NaNs in the top binade; 'fn': top binade finite except all-ones = NaN; 'none'. */
  special: 'ieee' | 'fn' | 'none';
}

export interface OracleOptions {
  saturate?: boolean;
  flushIn?: boolean;
  flushOut?: boolean;
  nan?: 'quiet' | 'preserve' | 'canonical';
  rand?: number;
}

/** Exact value of a positive fp32 magnitude pattern (no Inf/NaN), scaled by 2^K. */
export function f32MagToScaled(mag: number): bigint {
  const e = mag >>> 23;
  const m = BigInt(mag & 0x7fffff);
  if (e === 0) return m << (K - 149n);
  return (m + (1n << 23n)) << (K + BigInt(e) - 150n);
}

/** Inverse of f32MagToScaled for values that fp32 represents exactly; throws otherwise. */
export function scaledToF32Mag(n: bigint): number {
  if (n === 0n) return 0;
  const lg = BigInt(n.toString(2).length - 1) - K; // floor(log2(value))
  if (lg < -126n) {
    const unit = K - 149n;
    if (n % (1n << unit) !== 0n) throw new Error('not an fp32 value');
    return Number(n >> unit);
  }
  if (lg > 127n) throw new Error('beyond fp32');
  const unit = K + lg - 23n;
  if (n % (1n << unit) !== 0n) throw new Error('not an fp32 value');
  return ((Number(lg) + 127) * 2 ** 23 + Number((n >> unit) - (1n << 23n))) >>> 0;
}

export interface FormatTable {
  fmt: OracleFormat;
  /** values[c] = value of magnitude code c, for c = 0 .. maxCode + 1 (last = "next above max"). */
  values: bigint[];
  maxCode: number;
  infCode: number;
  nanCode: number;
  minNormal: bigint;
}

/** Enumerates the non-negative finite values of `fmt` from the field formula. */
export function buildTable(fmt: OracleFormat): FormatTable {
  const { expBits, manBits, bias, special } = fmt;
  const topExp = 2 ** expBits - 1;
  const codes = 2 ** (expBits + manBits);
  const codeValue = (c: number): bigint => {
    const e = Math.floor(c / 2 ** manBits);
    const m = BigInt(c % 2 ** manBits);
    const shiftE = (e === 0 ? 1 : e) - bias - manBits; // value = sig * 2^shiftE
    const sig = e === 0 ? m : m + (1n << BigInt(manBits));
    return sig << (K + BigInt(shiftE));
  };
  let maxCode: number;
  let infCode = -1;
  let nanCode = -1;
  if (special === 'ieee') {
    maxCode = topExp * 2 ** manBits - 1;
    infCode = maxCode + 1;
    nanCode = infCode + 2 ** (manBits - 1);
  } else if (special === 'fn') {
    maxCode = codes - 2;
    nanCode = codes - 1;
  } else {
    maxCode = codes - 1;
  }
  const values: bigint[] = [];
  for (let c = 0; c <= maxCode; c++) values.push(codeValue(c));
  // The value the next code would have with an unbounded exponent range: max + ulp(max).
  const top = values[maxCode]!;
  values.push(top + (top - values[maxCode - 1]!) * (maxCode % 2 ** manBits === 0 && manBits > 0 ? 2n : 1n));
  return { fmt, values, maxCode, infCode, nanCode, minNormal: codeValue(2 ** manBits) };
}

/** Largest index i with values[i] <= x (x >= 0). */
function floorIndex(values: bigint[], x: bigint): number {
  let lo = 0;
  let hi = values.length - 1;
  if (x >= values[hi]!) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

// One-entry memo: tests ask about the same magnitude in many modes in a row, so the exact
// comparisons are done once per magnitude.
interface Located {
  /** Largest code whose value is <= x (or values.length - 1 when beyond the overflow threshold). */
  i: number;
  exact: boolean;
  /** Sign of (x - lo) - (hi - x): which neighbour is nearer (0 = tie). */
  cmp: number;
  /** floor(2^32 * (x - lo) / (hi - lo)). */
  frac32: number;
}
let memoTable: FormatTable | undefined;
let memoMag = -1;
const memo: Located = { i: 0, exact: true, cmp: 0, frac32: 0 };
function locate(t: FormatTable, mag: number): Located {
  if (t !== memoTable || mag !== memoMag) {
    memoTable = t;
    memoMag = mag;
    locateScaled(t, f32MagToScaled(mag), memo);
  }
  return memo;
}

function locateScaled(t: FormatTable, x: bigint, out: Located): Located {
  const i = floorIndex(t.values, x);
  out.i = i;
  out.exact = i >= t.values.length - 1 || x === t.values[i];
  if (!out.exact) {
    const d1 = x - t.values[i]!;
    const d2 = t.values[i + 1]! - x;
    out.cmp = d1 < d2 ? -1 : d1 > d2 ? 1 : 0;
    out.frac32 = Number((d1 << 32n) / (d1 + d2));
  }
  return out;
}

/**
 * Reference encoding of an exact positive value x * 2^-K (x > 0n) with the given sign: for inputs
 * that are not fp32 values (e.g. doubles). No flushIn (that is defined on fp32 inputs only).
 */
export function oracleEncodeScaled(
  t: FormatTable,
  neg: boolean,
  x: bigint,
  mode: string,
  o: OracleOptions = {},
): number {
  const sign = neg ? 2 ** (t.fmt.expBits + t.fmt.manBits) : 0;
  return roundLocated(t, sign, locateScaled(t, x, { i: 0, exact: true, cmp: 0, frac32: 0 }), mode, o);
}

/**
 * The stochastic-rounding fraction floor(2^32 * (x - lo) / (hi - lo)) of a finite fp32 magnitude,
 * or -1 when x is representable or beyond the overflow threshold. Tests pick random words at
 * 2^32 - frac (must round up) and 2^32 - frac - 1 (must not).
 */
export function oracleFrac32(t: FormatTable, mag: number): number {
  const l = locate(t, mag);
  return l.exact ? -1 : l.frac32;
}

function overflowOf(t: FormatTable, sign: number, mode: string, o: OracleOptions): number {
  if (o.saturate || mode === 'rtz' || t.fmt.special === 'none') return sign + t.maxCode;
  return sign + (t.fmt.special === 'ieee' ? t.infCode : t.nanCode);
}

/**
 * Reference encoding of fp32 bits `b` into the table's format with `mode`. Returns the code
 * (unsigned, sign at bit expBits + manBits). Stochastic: round up iff
 * floor(2^32 * (x - lo) / (hi - lo)) + rand >= 2^32.
 */
export function oracleEncode(t: FormatTable, b: number, mode: string, o: OracleOptions = {}): number {
  const { expBits, manBits, special } = t.fmt;
  const signBit = 2 ** (expBits + manBits);
  const neg = b >= 0x80000000;
  const sign = neg ? signBit : 0;
  const mag = neg ? b - 0x80000000 : b;
  if (mag >= 0x7f800000) {
    if (mag === 0x7f800000) {
      if (o.saturate || special === 'none') return sign + t.maxCode;
      return sign + (special === 'ieee' ? t.infCode : t.nanCode);
    }
    if (special === 'none') throw new Error('NaN not encodable');
    if (o.nan === 'canonical') return t.nanCode;
    if (special === 'fn') return sign + t.nanCode;
    let payload = Math.floor((mag % 2 ** 23) / 2 ** (23 - manBits));
    const quiet = 2 ** (manBits - 1);
    if (o.nan === 'preserve') {
      if (payload === 0) payload = quiet;
    } else if (payload < quiet) {
      payload += quiet;
    }
    return sign + t.infCode + payload;
  }
  if (mag < 0x00800000 && o.flushIn) return sign;
  return roundLocated(t, sign, locate(t, mag), mode, o);
}

function roundLocated(t: FormatTable, sign: number, l: Located, mode: string, o: OracleOptions): number {
  const i = l.i;
  let code: number;
  if (i >= t.values.length - 1) {
    // At or beyond the first value past max: every mode's unbounded result exceeds max.
    return overflowOf(t, sign, mode, o);
  }
  if (l.exact) {
    code = i;
  } else if (mode === 'rtz') {
    code = i;
  } else if (mode === 'rne') {
    code = l.cmp < 0 ? i : l.cmp > 0 ? i + 1 : i % 2 === 0 ? i : i + 1;
  } else if (mode === 'rna') {
    code = l.cmp < 0 ? i : i + 1;
  } else if (mode === 'stochastic') {
    code = l.frac32 + (o.rand ?? Number.NaN) >= 2 ** 32 ? i + 1 : i;
  } else {
    throw new Error(`bad mode ${mode}`);
  }
  if (code > t.maxCode) return overflowOf(t, sign, mode, o);
  if (o.flushOut && code !== 0 && t.values[code]! < t.minNormal) return sign;
  return sign + code;
}

/**
 * The fp32 magnitudes near every rounding boundary of the table: each representable value, its
 * fp32 neighbours, each midpoint and its fp32 neighbours, for the intervals whose lower code is in
 * `codes` (default: all, including the interval [max, next]) plus points beyond the overflow
 * threshold and the fp32 subnormal edges.
 */
export function boundaryPoints(t: FormatTable, codes?: Iterable<number>): number[] {
  const out = new Set<number>();
  const add = (m: number) => {
    if (m >= 0 && m < 0x7f800000) out.add(m);
  };
  const list = codes ?? Array.from({ length: t.maxCode + 1 }, (_, c) => c);
  for (const c of list) {
    const v = scaledToF32Mag(t.values[c]!);
    const mid = scaledToF32Mag((t.values[c]! + t.values[c + 1]!) / 2n);
    for (const p of [v - 1, v, v + 1, mid - 1, mid, mid + 1]) add(p);
  }
  const next = t.values[t.maxCode + 1]!;
  if (next < 1n << (K + 128n)) {
    const n = scaledToF32Mag(next);
    for (const p of [n - 1, n, n + 1, Math.min(n + 0x800000, 0x7f7fffff)]) add(p);
  }
  for (const p of [0, 1, 2, 0x3fffff, 0x400000, 0x7fffff, 0x800000, 0x800001, 0x7f7fffff]) add(p);
  return [...out].sort((a, b) => a - b);
}

/** Test oracle: round (-1)^neg * m * 2^e exactly to a binary format with p bits, min exponent emin. */
export function roundExact(
  neg: boolean,
  m: bigint,
  e: number,
  p: number,
  emin: number,
  emax: number,
): number {
  if (m === 0n) return neg ? -0 : 0;
  const len = m.toString(2).length;
  let shift = len - p;
  if (e + len - 1 < emin) shift = emin - (p - 1) - e;
  let q = m;
  let qe = e;
  if (shift > 0) {
    const sh = BigInt(shift);
    q = m >> sh;
    const rem = m - (q << sh);
    const half = 1n << (sh - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    qe += shift;
  }
  if (q === 0n) return neg ? -0 : 0;
  if (qe + q.toString(2).length - 1 > emax) return neg ? -Infinity : Infinity;
  const v = Number(q) * 2 ** qe;
  return neg ? -v : v;
}
