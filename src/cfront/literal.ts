/**
 * C floating literals, converted exactly: the literal's value as a rational number, rounded once
 * to binary32 (`f` suffix) or binary64 (none), ties to even (C17 6.4.4.2 with IEEE 754 rounding).
 * `Math.fround(Number(text))` would round twice (decimal -> double -> float) and can be off by one
 * ulp for literals close to a binary32 midpoint.
 */

/** A parsed floating literal, or undefined when `text` is not one. */
export function parseFloatLiteral(
  text: string,
): { value: number; single: boolean; longDouble: boolean } | undefined {
  const t = text.replace(/'/g, '');
  let m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)([fFlL]?)$/.exec(t);
  if (m) {
    const int = m[1]!;
    const frac = m[2] ?? '';
    if (int === '' && frac === '') return undefined;
    const mant = BigInt(`0x${int + frac || '0'}`);
    const exp2 = Number(m[3]) - 4 * frac.length;
    const suffix = m[4]!.toLowerCase();
    const single = suffix === 'f';
    return { value: roundRational(mant, 1n, exp2, single), single, longDouble: suffix === 'l' };
  }
  m = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?([fFlL]?)$/.exec(t);
  if (!m) return undefined;
  const int = m[1]!;
  const frac = m[2];
  const exp = m[3];
  if (int === '' && (frac === undefined || frac === '')) return undefined;
  if (frac === undefined && exp === undefined) return undefined; // an integer literal
  const suffix = m[4]!.toLowerCase();
  const single = suffix === 'f';
  if (!single)
    return { value: Number(`${int || '0'}.${frac ?? ''}e${exp ?? 0}`), single, longDouble: suffix === 'l' };
  const digits = BigInt(`${int}${frac ?? ''}` || '0');
  const e10 = Number(exp ?? 0) - (frac?.length ?? 0);
  if (digits === 0n) return { value: 0, single, longDouble: false };
  if (e10 > 400) return { value: Number.POSITIVE_INFINITY, single, longDouble: false };
  if (e10 < -400 - `${digits}`.length) return { value: 0, single, longDouble: false };
  const num = e10 >= 0 ? digits * 10n ** BigInt(e10) : digits;
  const den = e10 >= 0 ? 1n : 10n ** BigInt(-e10);
  return { value: roundRational(num, den, 0, true), single, longDouble: false };
}

/** num/den * 2^exp2 (num, den > 0), rounded to nearest-even binary32 or binary64. */
export function roundRational(num: bigint, den: bigint, exp2: number, single: boolean): number {
  if (num === 0n) return 0;
  const P = single ? 24 : 53;
  const EMIN = single ? -126 : -1022;
  const EMAX = single ? 127 : 1023;
  // find e with 2^(P-1) <= num/den * 2^(exp2 - e) < 2^P
  const bl = (v: bigint) => v.toString(2).length;
  let e = exp2 + bl(num) - bl(den) - P;
  const scaled = (k: number) => {
    const s = exp2 - k;
    return s >= 0 ? { n: num << BigInt(s), d: den } : { n: num, d: den << BigInt(-s) };
  };
  let { n, d } = scaled(e);
  if (n / d >= 1n << BigInt(P)) {
    e++;
    ({ n, d } = scaled(e));
  } else if (n / d < 1n << BigInt(P - 1)) {
    e--;
    ({ n, d } = scaled(e));
  }
  // subnormals: the exponent of the lowest mantissa bit is at least EMIN - (P - 1)
  const minE = EMIN - (P - 1);
  if (e < minE) {
    e = minE;
    ({ n, d } = scaled(e));
  }
  let q = n / d;
  const r = n - q * d;
  if (2n * r > d || (2n * r === d && (q & 1n) === 1n)) q++;
  if (q === 1n << BigInt(P)) {
    q >>= 1n;
    e++;
  }
  if (e + P - 1 > EMAX) return Number.POSITIVE_INFINITY;
  // q < 2^53 and the scale is a power of two: exact in a double (binary32 values too)
  return Number(q) * 2 ** e;
}

/**
 * binary16 (`_Float16`): the nearest binary16 value of a double, ties to even, as a double
 * (overflow to infinity at 65520 = 65504 + half an ulp; subnormals in steps of 2^-24). Rounding a
 * double result once more is exact for + - * / of binary16 operands (53 >= 2 * 11 + 2 bits).
 */
export function roundHalf(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const a = Math.abs(v);
  let r: number;
  if (a >= 65520) r = Number.POSITIVE_INFINITY;
  else {
    // the quantum: 2^-24 for subnormals, else 2^(e - 10) for a in [2^e, 2^(e+1))
    const e = a < 2 ** -14 ? -14 : exponentOf(a);
    const q = 2 ** (e - 10);
    const x = a / q;
    const f = Math.floor(x);
    const d = x - f;
    r = (d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f) * q;
  }
  return v < 0 ? -r : r;
}

/** floor(log2(a)) of a positive normal double, from its exponent field. */
function exponentOf(a: number): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, a);
  return ((dv.getUint16(0) >>> 4) & 0x7ff) - 1023;
}

/** The binary16 encoding of a value already rounded to binary16 (not NaN). */
export function halfBits(v: number): number {
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Number.POSITIVE_INFINITY) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | (a / 2 ** -24);
  const e = exponentOf(a);
  return sign | ((e + 15) << 10) | (a / 2 ** (e - 10) - 1024);
}

/** The value of a binary16 encoding (NaN for the NaN encodings). */
export function halfValue(h: number): number {
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  const s = h & 0x8000 ? -1 : 1;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * (1024 + m) * 2 ** (e - 25);
}
