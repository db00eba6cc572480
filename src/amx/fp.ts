/**
 * Floating-point arithmetic exactly as the AMX units compute it (per corsix/amx: AArch64 semantics
 * with FPCR.DN = 1, round-to-nearest-even, no flush-to-zero).
 *
 * The host (JavaScript) only has binary64 arithmetic, so every operation here is arranged to round
 * exactly once to the target width:
 * - f32 / f16 multiply and add: the double result is rounded once more to the target. That second
 *   rounding is innocuous because 53 >= 2p + 2 for p = 24 and p = 11 (Figueroa, "When is double
 *   rounding innocuous?", 1995).
 * - f32 / f16 fused multiply-add: x*y is exact in double (<= 48 significant bits), but x*y + z is
 *   not; the sum is computed in round-to-odd (TwoSum error term + a one-ulp nudge), which makes the
 *   final rounding to the narrow format correct (Boldo & Melquiond 2008: round-to-odd in precision
 *   p' >= p + 2 followed by round-to-nearest equals one direct round-to-nearest).
 * - f64 fused multiply-add: Dekker's exact product + TwoSum + round-to-odd (Boldo & Melquiond's
 *   FMA emulation), with an exact BigInt path for the inputs where that algorithm's no-overflow /
 *   no-underflow preconditions fail, and for infinities and NaNs.
 */

const f64buf = new Float64Array(1);
const u32buf = new Uint32Array(f64buf.buffer);
const f32buf = new Float32Array(1);
const f32u = new Uint32Array(f32buf.buffer);

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  // Typed-array views are used as little-endian register images throughout src/amx.
  throw new Error('axsim amx requires a little-endian host');
}

export const F32_DEFAULT_NAN = 0x7fc00000;
export const F16_DEFAULT_NAN = 0x7e00;
export const BF16_DEFAULT_NAN = 0x7fc0;
/** High word of the f64 default NaN 0x7ff8000000000000 (low word 0). */
export const F64_DEFAULT_NAN_HI = 0x7ff80000;

/** f32 bit pattern of a double that is already an f32 value (NaN -> default NaN). */
export function f32Bits(v: number): number {
  if (Number.isNaN(v)) return F32_DEFAULT_NAN;
  f32buf[0] = v;
  return f32u[0]!;
}

/** The f32 value of a bit pattern (signalling NaNs may be quietened: only use for arithmetic). */
export function f32FromBits(b: number): number {
  f32u[0] = b;
  return f32buf[0]!;
}

/**
 * Round-to-odd of the exact sum s + e, where s = RN(a + b) and e is the exact error term (TwoSum).
 * Returns s unchanged when e is 0 or s already has an odd last mantissa bit; otherwise s moved one
 * ulp towards e. s must be finite and non-zero when e is non-zero (always true for a TwoSum pair).
 */
export function roundOdd(s: number, e: number): number {
  f64buf[0] = s;
  const lo = u32buf[0]!;
  if ((lo & 1) !== 0) return s;
  if (e > 0 === s > 0) {
    u32buf[0] = lo + 1; // lo is even, so no carry into the high word
  } else if (lo === 0) {
    u32buf[0] = 0xffffffff;
    u32buf[1] = u32buf[1]! - 1;
  } else {
    u32buf[0] = lo - 1;
  }
  return f64buf[0]!;
}

/** Exact x*y + z rounded once to f32; inputs are f32 values (as doubles). NaN results are NaN. */
export function fma32(x: number, y: number, z: number): number {
  const p = x * y; // exact: 24 + 24 significant bits
  const s = p + z;
  const bb = s - p;
  const e = p - (s - bb) + (z - bb);
  if (e !== 0 && !Number.isNaN(e)) return Math.fround(roundOdd(s, e));
  return Math.fround(s);
}

// --- f16 -----------------------------------------------------------------------------------------

/** f16 bit pattern -> double value (NaN for NaNs). Built once; 512 KiB. */
export const F16_TO_F64 = new Float64Array(65536);
/** f16 bit pattern -> f32 bit pattern as AArch64 FCVT with DN=1 produces it (NaN -> 0x7fc00000). */
export const F16_TO_F32_BITS = new Uint32Array(65536);
for (let h = 0; h < 65536; h++) {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 31;
  const m = h & 1023;
  let v: number;
  if (e === 31) v = m === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  else if (e === 0) v = sign * m * 2 ** -24;
  else v = sign * (1024 + m) * 2 ** (e - 25);
  F16_TO_F64[h] = v;
  F16_TO_F32_BITS[h] = f32Bits(v);
}

const POW2 = new Float64Array(2100);
for (let i = 0; i < 2100; i++) POW2[i] = 2 ** (i - 1075);
/** 2**k for -1075 <= k < 1025, exactly. */
function pow2(k: number): number {
  return POW2[k + 1075]!;
}

function rneInt(q: number): number {
  const fl = Math.floor(q);
  const d = q - fl;
  if (d > 0.5) return fl + 1;
  if (d < 0.5) return fl;
  return fl + (fl & 1);
}

/**
 * Rounds a double to f16 (round to nearest even, subnormals kept, overflow to infinity, NaN to the
 * default NaN 0x7e00). Correct for any double; a double that is itself the round-to-odd of an exact
 * value gives the correctly rounded f16 of that exact value.
 */
export function f16FromDouble(d: number): number {
  if (Number.isNaN(d)) return F16_DEFAULT_NAN;
  let sign = 0;
  if (d < 0 || (d === 0 && 1 / d < 0)) {
    sign = 0x8000;
    d = -d;
  }
  if (d >= 65520) return sign | 0x7c00;
  if (d < 2 ** -14) return sign | rneInt(d * 2 ** 24); // 1024 here encodes the smallest normal
  f64buf[0] = d;
  let ex = (u32buf[1]! >>> 20) - 1023;
  let r = rneInt(d * pow2(10 - ex));
  if (r === 2048) {
    r = 1024;
    ex++;
  }
  return sign | ((ex + 15) << 10) | (r - 1024);
}

/** Exact x*y + z rounded once to f16 (inputs are f16 values as doubles). */
export function fma16(x: number, y: number, z: number): number {
  const p = x * y; // exact: 11 + 11 significant bits
  const s = p + z;
  const bb = s - p;
  const e = p - (s - bb) + (z - bb);
  if (e !== 0 && !Number.isNaN(e)) return f16FromDouble(roundOdd(s, e));
  return f16FromDouble(s);
}

/** f32 bits -> f16 bits as AArch64 FCVT Hd, Sn with DN = 1 and RNE. */
export function f16FromF32Bits(b: number): number {
  return f16FromDouble(f32FromBits(b));
}

// --- bf16 (integer model, following the description in corsix/amx vecfp.md / vecfp.c) ----------

/** bf16 -> f32 bits; every NaN becomes the default NaN 0x7fc00000. */
export function bf16ToF32Bits(h: number): number {
  if ((h & 0x7fff) > 0x7f80) return F32_DEFAULT_NAN;
  return (h << 16) >>> 0;
}

/** f32 bits -> bf16 with round-to-nearest-even, NaN -> 0x7fc0 (the model's own routine). */
export function bf16FromF32Bits(f: number): number {
  if ((f & 0x7fffffff) >>> 0 > 0x7f800000) return BF16_DEFAULT_NAN;
  const low = f & 0xffff;
  const hi = f >>> 16;
  return (hi + (low + (hi & 1) > 0x8000 ? 1 : 0)) & 0xffff;
}

function clz32(v: number): number {
  return Math.clz32(v);
}

/** A sticky right shift: shifted-out non-zero bits are ORed into bit 0. */
function sticky(v: number, s: number): number {
  if (s >= 32) return v !== 0 ? 1 : 0;
  if (s <= 0) return v >>> 0;
  const r = v >>> s;
  return (r | ((r << s) >>> 0 !== v >>> 0 ? 1 : 0)) >>> 0;
}

/**
 * bf16 fused multiply-add x*y + z with one rounding, computed on integers the way the reference's
 * bf16 routine does it (its result is what M2+ hardware produces). Inputs/outputs are bf16 bits.
 */
export function bf16Fma(x: number, y: number, z: number): number {
  let xe = (x >>> 7) & 255;
  let xm = (x & 127) ^ 128;
  if (xe === 0) {
    xm ^= 128;
    xe = 25 - (xm === 0 ? 32 : clz32(xm));
    xm = xm << (1 - xe);
  }
  let ye = (y >>> 7) & 255;
  let ym = (y & 127) ^ 128;
  if (ye === 0) {
    ym ^= 128;
    ye = 25 - (ym === 0 ? 32 : clz32(ym));
    ym = ym << (1 - ye);
  }
  let ze = (z >>> 7) & 255;
  let zm = (z & 127) ^ 128;
  if (ze === 0) {
    zm ^= 128;
    ze = 25 - (zm === 0 ? 32 : clz32(zm));
    zm = zm << (1 - ze);
  }
  const zSign = z & 0x8000;
  const pSign = (x ^ y) & 0x8000;
  if (xe === 255 || ye === 255 || ze === 255) {
    if (
      (xe === 255 && (xm !== 128 || ym === 0)) ||
      (ye === 255 && (ym !== 128 || xm === 0)) ||
      (ze === 255 && zm !== 128) ||
      (ze === 255 && (xe === 255 || ye === 255) && zSign !== pSign)
    ) {
      return BF16_DEFAULT_NAN;
    }
    if (ze === 255) return z;
    return pSign | 0x7f80;
  }
  let pm = (xm * ym) >>> 0;
  const pe = xe + ye - 7 - 127;
  if (pm === 0) return z & (zm !== 0 ? z : pSign);
  zm = (zm << 7) >>> 0;
  ze -= 7;
  pm = (pm << 3) >>> 0;
  zm = (zm << 3) >>> 0;
  let re = Math.max(pe, ze);
  if (pe < re) pm = sticky(pm, re - pe);
  if (ze < re) zm = sticky(zm, re - ze);
  const rSign = pm >= zm ? pSign : zSign;
  if (zSign !== rSign) zm = ~zm >>> 0;
  if (pSign !== rSign) pm = ~pm >>> 0;
  let rm = (zm + pm + (pSign !== zSign ? 1 : 0)) >>> 0;
  if (rm === 0) return zSign & pSign;
  const n = 21 - clz32(rm);
  re += n;
  if (n < 0) rm = (rm << -n) >>> 0;
  else rm = sticky(rm, n);
  if (re >= 255) return rSign | 0x7f80;
  if (re <= 0) {
    rm = sticky(rm, 1 - re);
    re = 0;
  }
  const r = rSign | (re << 7) | ((rm >>> 3) & 0x7f);
  return (r + ((rm & 7) + (r & 1) > 4 ? 1 : 0)) & 0xffff;
}

// --- f64 -----------------------------------------------------------------------------------------

const SPLIT = 134217729; // 2^27 + 1 (Veltkamp)

/** Exact x*y + z rounded once to binary64 (IEEE fusedMultiplyAdd, RNE). NaN results are NaN. */
export function fma64(a: number, b: number, c: number): number {
  const p = a * b;
  // Operands that are f32 values (24 significant bits each, as data widened from f32/f16/integers
  // usually is) have an exact double product, so one rounding of p + c is the FMA. This also
  // covers infinities; NaNs fail the test and take the general path.
  if (Math.fround(a) === a && Math.fround(b) === b) return p + c;
  const ap = Math.abs(p);
  // Preconditions of the fast algorithm: no overflow in the splits or sums, no underflow in the
  // product's error term. Outside them (and for every non-finite input) use the exact path.
  if (
    !(ap >= 1e-270 && ap <= 1e270 && Math.abs(a) <= 1e290 && Math.abs(b) <= 1e290 && Math.abs(c) <= 1e300)
  ) {
    return fma64Exact(a, b, c);
  }
  // Dekker's TwoProduct: p + pl = a*b exactly.
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  const pl = al * bl - (p - ah * bh - al * bh - ah * bl);
  if (pl === 0) return p + c;
  return fma64Tail(p, pl, c);
}

/** RN(p + pl + c) for an exact product p + pl (Boldo & Melquiond: TwoSum, then round-to-odd). */
function fma64Tail(p: number, pl: number, c: number): number {
  const th = c + p;
  const bb = th - c;
  const tl = c - (th - bb) + (p - bb);
  let v = tl + pl;
  const vb = v - tl;
  const ve = tl - (v - vb) + (pl - vb);
  if (ve !== 0) v = roundOdd(v, ve);
  return th + v;
}

/** Splits a finite double into sign, integer mantissa and exponent: |v| = m * 2^e. */
function decompose(v: number): { neg: boolean; m: bigint; e: number } {
  f64buf[0] = v;
  const hi = u32buf[1]!;
  const lo = u32buf[0]!;
  const neg = hi >>> 31 === 1;
  const be = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (be === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = be - 1075;
  }
  return { neg, m, e };
}

function bitLength(v: bigint): number {
  return v === 0n ? 0 : v.toString(2).length;
}

/** Rounds (-1)^neg * m * 2^e (m > 0) to the nearest double, ties to even. */
export function roundBigToDouble(neg: boolean, m: bigint, e: number): number {
  const len = bitLength(m);
  const top = e + len - 1; // exponent of the leading bit
  let shift = len - 53;
  if (top < -1022) shift = -1074 - e; // subnormal: units of 2^-1074
  let q: bigint;
  let qe: number;
  if (shift > 0) {
    const sh = BigInt(shift);
    q = m >> sh;
    const rem = m - (q << sh);
    const half = 1n << (sh - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    qe = e + shift;
  } else {
    q = m;
    qe = e;
  }
  // q <= 2^53 now; value = q * 2^qe
  if (q === 0n) return neg ? -0 : 0;
  const qlen = bitLength(q);
  if (qe + qlen - 1 > 1023) return neg ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  let r = Number(q);
  // Scale in two steps so that neither factor over/underflows; the result is exact.
  const k1 = Math.trunc(qe / 2);
  r = r * 2 ** k1 * 2 ** (qe - k1);
  return neg ? -r : r;
}

/** The exact (BigInt) fused multiply-add, used for special and extreme operands. */
export function fma64Exact(a: number, b: number, c: number): number {
  if (Number.isNaN(a) || Number.isNaN(b) || Number.isNaN(c)) return Number.NaN;
  const pInf = !Number.isFinite(a) || !Number.isFinite(b);
  if (pInf) {
    if (a === 0 || b === 0) return Number.NaN; // inf * 0
    const pNeg = a < 0 !== b < 0;
    if (!Number.isFinite(c) && c < 0 !== pNeg) return Number.NaN;
    return pNeg ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!Number.isFinite(c)) return c;
  const pNeg = (a < 0 || Object.is(a, -0)) !== (b < 0 || Object.is(b, -0));
  if (a === 0 || b === 0) {
    if (c === 0) {
      const cNeg = Object.is(c, -0);
      return pNeg && cNeg ? -0 : 0;
    }
    return c;
  }
  const da = decompose(a);
  const db = decompose(b);
  const pm = da.m * db.m;
  const pe = da.e + db.e;
  if (c === 0) return roundBigToDouble(pNeg, pm, pe);
  const dc = decompose(c);
  const e = Math.min(pe, dc.e);
  const ps = (pNeg ? -pm : pm) << BigInt(pe - e);
  const cs = (dc.neg ? -dc.m : dc.m) << BigInt(dc.e - e);
  const sum = ps + cs;
  if (sum === 0n) return 0;
  return sum < 0n ? roundBigToDouble(true, -sum, e) : roundBigToDouble(false, sum, e);
}
