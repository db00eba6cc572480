/**
 * Independent definitions of the operations tt-llk's TTI-style SFPU kernels compute, for the corpus
 * runner (docs/tensix-llk-corpus.md). Each is written from the operation's meaning (IEEE-754 on bit
 * patterns, BigInt integer arithmetic), never from axsim's instruction models: a kernel passes when
 * what it left in Dst equals what these functions say, bit for bit unless a tolerance is stated.
 *
 * Where a kernel's documented algorithm defines a case the maths leaves open (out-of-range integer
 * conversions, NaN), the definition follows the comment in the kernel that states it, and says so.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function bitsToF32(b: number): number {
  u32[0] = b >>> 0;
  return f32[0]!;
}
export function f32ToBits(x: number): number {
  f32[0] = x;
  return u32[0]!;
}
export function isNanBits(b: number): boolean {
  return (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;
}
const isInfBits = (b: number) => (b & 0x7fffffff) === 0x7f800000;
const expOf = (b: number) => (b >>> 23) & 0xff;

/** Rounds FP32 bits to BF16 (round to nearest, ties to even) by the integer formula; returns 16 bits. */
export function bf16Rne(b: number): number {
  return ((b >>> 0) + 0x7fff + ((b >>> 16) & 1)) >>> 16;
}

/** Round a finite non-negative double to the nearest integer, ties to even. */
function rne(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/**
 * An integer (exactly representable in a double up to 2^53; callers pass |v| < 2^33) to FP32 bits,
 * round to nearest even: done on the integer, not by the host's conversion.
 */
export function intToF32Bits(v: bigint): number {
  if (v === 0n) return 0;
  const neg = v < 0n;
  let m = neg ? -v : v;
  let e = m.toString(2).length - 1; // m in [2^e, 2^(e+1))
  if (e > 23) {
    const sh = BigInt(e - 23);
    const q = m >> sh;
    const r = m - (q << sh);
    const half = 1n << (sh - 1n);
    m = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
    if (m === 1n << 24n) {
      m >>= 1n;
      e += 1;
    }
  } else m <<= BigInt(23 - e);
  const bits = ((e + 127) << 23) | Number(m & 0x7fffffn);
  return (neg ? bits | 0x80000000 : bits) >>> 0;
}

/** FP32 bits -> the real value as an exact rational split (for truncation): sign, |x| as a double. */
function absValue(b: number): number {
  return Math.abs(bitsToF32(b));
}

// ---- typecasts -------------------------------------------------------------------------------------

/** fp32 -> int32: truncation toward zero; |x| >= 2^31, ±Inf and NaN give INT_MIN (0x80000000), as the
 * kernel states ("result = INT_MIN" when the exponent is >= 31, then negated for negative inputs). */
export function fp32ToInt32(b: number): number {
  const e = expOf(b);
  if (e < 127) return 0;
  if (e - 127 >= 31) return 0x80000000;
  const t = Math.trunc(absValue(b));
  return (b & 0x80000000 ? -t : t) >>> 0;
}

/** fp32 -> uint32: negative inputs (incl. -0, -Inf, NaN with the sign set) give 0; truncation toward
 * zero; x >= 2^32, +Inf and positive NaN give 0xFFFFFFFF (the kernel's "result = 0xffffffff"). */
export function fp32ToUint32(b: number): number {
  if (b & 0x80000000) return 0;
  const e = expOf(b);
  if (e < 127) return 0;
  if (e - 127 >= 32) return 0xffffffff;
  return Math.trunc(absValue(b)) >>> 0;
}

/** fp32 -> uint16: max(x, 0), round to nearest even, saturate at 65535. NaN: undefined (not checked). */
export function fp32ToUint16(b: number): number | undefined {
  if (isNanBits(b)) return undefined;
  const x = bitsToF32(b);
  if (!(x > 0)) return 0;
  if (x >= 65535) return 65535;
  return rne(x);
}

/** fp32 -> bf16 (as FP32 bits with the low half zero): round to nearest even on the bits. NaN inputs:
 * the kernel's integer rounding formula (the definition it documents) is applied to them too. */
export function fp32ToFp16b(b: number): number {
  return (bf16Rne(b) << 16) >>> 0;
}

export const int32ToFp32 = (v: number): number => intToF32Bits(BigInt(v | 0));
export const uint32ToFp32 = (v: number): number => intToF32Bits(BigInt(v >>> 0));
export const int32ToFp16b = (v: number): number => fp32ToFp16b(int32ToFp32(v));
export const uint32ToFp16b = (v: number): number => fp32ToFp16b(uint32ToFp32(v));
export const uint16ToFp32 = (v: number): number => intToF32Bits(BigInt(v & 0xffff));
export const uint16ToFp16b = (v: number): number => fp32ToFp16b(uint16ToFp32(v));
/** int32 -> uint16: clamp to [0, 65535]. */
export function int32ToUint16(v: number): number {
  const s = v | 0;
  return Math.min(Math.max(s, 0), 65535);
}
/** uint32 -> uint16: saturate at 65535. */
export function uint32ToUint16(v: number): number {
  const u = v >>> 0;
  return Math.min(u, 65535);
}

/** FP32 -> FP16 (IEEE half, "fp16a") bits, round to nearest even; overflow to ±Inf, NaN stays NaN. */
export function fp32ToFp16a(b: number): number {
  const sign = (b >>> 16) & 0x8000;
  if (isNanBits(b)) return sign | 0x7e00;
  if (isInfBits(b)) return sign | 0x7c00;
  const x = absValue(b);
  if (x === 0) return sign;
  // scale to units of the smallest FP16 subnormal (2^-24) or of the ulp of the binade
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e -= 1;
  if (2 ** (e + 1) <= x) e += 1;
  if (e < -14) {
    const q = rne(x / 2 ** -24); // exact: x is an FP32, the division by a power of two is exact
    return sign | q; // q may be 0x400 = the smallest normal, which is the right encoding
  }
  const q = rne(x / 2 ** (e - 10)); // in [1024, 2048]
  let ee = e + 15;
  let m = q;
  if (m === 2048) {
    m = 1024;
    ee += 1;
  }
  if (ee >= 31) return sign | 0x7c00;
  return sign | (ee << 10) | (m - 1024);
}

// ---- integer arithmetic ------------------------------------------------------------------------------

export const addInt32 = (a: number, b: number): number => (a + b) >>> 0;
export const subInt32 = (a: number, b: number): number => (a - b) >>> 0;
export const mulInt32 = (a: number, b: number): number =>
  Number((BigInt(a >>> 0) * BigInt(b >>> 0)) & 0xffffffffn);
/** Left shift by b (0..31), 0 when b < 0 or b >= 32 (the kernel's stated rule). */
export function shl32(a: number, b: number): number {
  const s = b | 0;
  return s < 0 || s >= 32 ? 0 : (a << s) >>> 0;
}
/** Arithmetic right shift; out-of-range amounts give 0 (kernel's rule). */
export function sar32(a: number, b: number): number {
  const s = b | 0;
  return s < 0 || s >= 32 ? 0 : (a >> s) >>> 0;
}
export function shr32(a: number, b: number): number {
  const s = b | 0;
  return s < 0 || s >= 32 ? 0 : (a >>> s) >>> 0;
}

// ---- float arithmetic ----------------------------------------------------------------------------------

/** x*x in FP32. The SFPU MAD rounds the exact product once (round to nearest even); the product of two
 * FP32 values is exact in a double (48-bit significand), so one Math.fround is one rounding. Denormal
 * results are flushed to zero and denormal inputs read as zero (SFPU MAD, SFPMAD.md). */
export function squareFp32(b: number): number | undefined {
  if (isNanBits(b)) return undefined;
  const x = expOf(b) === 0 ? 0 : bitsToF32(b);
  const r = Math.fround(x * x);
  const rb = f32ToBits(r);
  return expOf(rb) === 0 ? 0 : rb;
}

// ---- input generation ------------------------------------------------------------------------------

/** A small deterministic PRNG (xorshift32) so that corpus runs are reproducible. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  below(n: number): number {
    return this.next() % n;
  }
}

export const FP32_EDGES = [
  0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x00000001, 0x807fffff,
  0x00800000, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000, 0x4effffff, 0x4f000000,
  0xcf000000, 0xcf000001, 0x4f800000, 0x477fff00, 0x477fff80, 0x477fffff, 0x47800000, 0x7f7fffff, 0xff7fffff,
  0x3effffff, 0x3f7fffff, 0x4b7fffff, 0x4b800001, 0x3f808000, 0x3f818000, 0x3f80ffff,
];
export const INT32_EDGES = [
  0, 1, -1, 2, 0x7fffffff, -0x80000000, -0x7fffffff, 65535, 65536, -65535, 0xffff, 0x10000, 0x1000001,
  0x7fffff80, 0xffffff, 0x1000000, -0x1000001, 0x7fff, 0x8000, 123456789, -123456789,
];

/** 1024 FP32 patterns: the edges, then random patterns of all exponents, then random moderate values. */
export function fp32Inputs(rng: Rng, n = 1024): Uint32Array {
  const out = new Uint32Array(n);
  let i = 0;
  for (const e of FP32_EDGES) if (i < n) out[i++] = e;
  while (i < n) {
    const r = rng.next();
    out[i++] = i % 2 ? r : f32ToBits((rng.below(200001) - 100000) / 8);
  }
  return out;
}

export function int32Inputs(rng: Rng, n = 1024, lo?: number, hi?: number): Uint32Array {
  const out = new Uint32Array(n);
  let i = 0;
  if (lo === undefined) for (const e of INT32_EDGES) if (i < n) out[i++] = e >>> 0;
  while (i < n) {
    const r = rng.next();
    if (lo !== undefined && hi !== undefined) out[i++] = (lo + (r % (hi - lo + 1))) >>> 0;
    else out[i++] = i % 3 === 0 ? r : i % 3 === 1 ? (r & 0xffff) >>> 0 : (r >> 8) >>> 0;
  }
  return out;
}

// ---- exact FP32 addition (for sums the kernels compute with SFPADD = a*1.0 + b) ----------------------

/** An FP32 value as sign * m * 2^e with BigInt m (finite values only). Denormals read as zero (the SFPU
 * MAD treats denormal inputs as zero, SFPMAD.md). */
function decompose(b: number): { neg: boolean; m: bigint; e: number } {
  const ex = expOf(b);
  const neg = (b & 0x80000000) !== 0;
  if (ex === 0) return { neg, m: 0n, e: 0 };
  return { neg, m: BigInt((b & 0x7fffff) | 0x800000), e: ex - 150 };
}

/** Rounds sign * m * 2^e (exact) to FP32 bits, nearest even; results below 2^-126 flush to +0; overflow
 * gives ±Inf. */
export function roundToF32(neg: boolean, m: bigint, e: number): number {
  if (m === 0n) return 0;
  let bits = m.toString(2).length; // m in [2^(bits-1), 2^bits)
  let exp = e + bits - 1; // value in [2^exp, 2^(exp+1))
  if (bits > 24) {
    const sh = BigInt(bits - 24);
    const q = m >> sh;
    const r = m - (q << sh);
    const half = 1n << (sh - 1n);
    m = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
    if (m === 1n << 24n) {
      m >>= 1n;
      exp += 1;
    }
  } else m <<= BigInt(24 - bits);
  bits = 24;
  if (exp < -126) return 0;
  if (exp > 127) return (neg ? 0xff800000 : 0x7f800000) >>> 0;
  const out = ((exp + 127) << 23) | Number(m & 0x7fffffn);
  return (neg ? out | 0x80000000 : out) >>> 0;
}

/** a + b in FP32 with one rounding (exact sum first). NaN/Inf operands follow IEEE-754. */
export function addF32(a: number, b: number): number {
  const na = isNanBits(a) || isInfBits(a);
  const nb = isNanBits(b) || isInfBits(b);
  if (na || nb) return f32ToBits(Math.fround(bitsToF32(a) + bitsToF32(b)));
  const x = decompose(a);
  const y = decompose(b);
  const e = Math.min(x.e, y.e);
  const mx = (x.neg ? -x.m : x.m) << BigInt(x.e - e);
  const my = (y.neg ? -y.m : y.m) << BigInt(y.e - e);
  const s = mx + my;
  if (s === 0n) return x.m === 0n && y.m === 0n && x.neg && y.neg ? 0x80000000 : 0;
  return roundToF32(s < 0n, s < 0n ? -s : s, e);
}

/** a * b + c in FP32, the product exact and one rounding of the sum (finite operands). */
export function fmaF32(a: number, b: number, c: number): number {
  const x = decompose(a);
  const y = decompose(b);
  const z = decompose(c);
  const pe = x.e + y.e;
  const pm = x.m * y.m;
  const pneg = x.neg !== y.neg;
  const e = Math.min(pe, z.e);
  const s = (pneg ? -pm : pm) * (1n << BigInt(pe - e)) + (z.neg ? -z.m : z.m) * (1n << BigInt(z.e - e));
  if (s === 0n) return pm === 0n && z.m === 0n && pneg && z.neg ? 0x80000000 : 0;
  return roundToF32(s < 0n, s < 0n ? -s : s, e);
}

/** Moderate random FP32 values (no NaN/Inf): |x| spread over 2^-20 .. 2^20, some ±0 and denormals. */
export function finiteFp32Inputs(rng: Rng, n = 1024): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    if (i % 97 === 5) out[i] = i % 2 ? 0 : 0x80000000;
    else if (i % 89 === 7)
      out[i] = r & 0x807fffff; // a denormal
    else out[i] = ((r & 0x807fffff) | ((107 + (rng.next() % 40)) << 23)) >>> 0;
  }
  return out;
}

// ---- SFP_STOCH_RND conversions (round to nearest, ties away from zero: spec 003 "Rounding and
// clamping", SFPU-NOTES B5) ---------------------------------------------------------------------------

/** FP32 -> BF16 bits (16), nearest with ties away from zero on the magnitude (finite inputs). */
export function bf16TiesAway(b: number): number {
  return (((b & 0x7fffffff) + 0x8000) >>> 16) | ((b >>> 16) & 0x8000);
}

/** FP32 -> uint16 as SFP_STOCH_RND FP32_TO_UINT16 after max(x, 0): nearest, ties away, saturating
 * at 65535; a positive NaN saturates too (NaN saturates to the maximum magnitude, SFPU-NOTES B5),
 * anything with the sign bit set (after max(x, 0) as a sign-magnitude comparison) gives 0. */
export function fp32ToUint16TiesAway(b: number): number {
  if (b & 0x80000000) return 0;
  if (expOf(b) === 255) return 65535;
  const x = bitsToF32(b);
  if (x >= 65535) return 65535;
  return Math.floor(x + 0.5); // x >= 0: ties away = floor(x + 0.5), exact in a double
}

/** FP32 -> Tensix FP16A as SFP_STOCH_RND (10 mantissa bits, ties away) then SFPSTORE FP16A: exponent
 * 31 is an ordinary binade, larger values, Inf and NaN saturate to 0x7FFF, results below 2^-14
 * become ±0 (SFPU-NOTES B6). Returns 16 bits. */
export function fp32ToFp16aTensix(b: number): number {
  const sign = (b >>> 16) & 0x8000;
  const e = expOf(b);
  if (e === 255) return sign | 0x7fff;
  if (e === 0) return sign;
  const r = ((b & 0x7fffffff) + 0x1000) >>> 0; // ties away on the discarded 13 bits
  const E = ((r >>> 23) & 0xff) - 127 + 15;
  if (E >= 32) return sign | 0x7fff;
  if (E <= 0) return sign;
  return sign | (E << 10) | ((r >>> 13) & 0x3ff);
}

// ---- the SFPU multiply-add as documented (SFPU-NOTES B1) ------------------------------------------------

/**
 * SFPMAD's "partially fused" a * b + c for finite operands (SFPU-NOTES B1, A6, B3), in BigInt: denormal
 * inputs are zero; the 48-bit significand product keeps 26 fraction bits, everything below folded into
 * its last bit; a product whose exponent field would be below 0 is dropped (C passes); C gets 3 guard
 * bits; the operand with the smaller exponent is shifted to the larger one with a "semi-sticky" shift
 * (the sticky bit only when something is left); the sum is normalised and rounded once to nearest even.
 * Results below 2^-126 are a zero (either sign; the caller compares zeros as equal); above the range
 * ±Inf. Kernels that chain MADs (EMA, Welford) are only bit-exact against this model, not against an
 * exact fused multiply-add.
 */
export function madF32(a: number, b: number, c: number): number {
  for (const v of [a, b, c])
    if (expOf(v) === 255) throw new Error(`madF32: non-finite operand 0x${(v >>> 0).toString(16)}`);
  const xe = expOf(a);
  const ye = expOf(b);
  const ze = expOf(c);
  const zNeg = (c & 0x80000000) !== 0;
  const pNeg = ((a ^ b) & 0x80000000) !== 0;
  const pe = xe + ye - 127; // the product's exponent field (significand product in [1, 4))
  if (xe === 0 || ye === 0 || pe < 0) return ze === 0 ? 0 : c >>> 0;
  const full = BigInt((a & 0x7fffff) | 0x800000) * BigInt((b & 0x7fffff) | 0x800000); // 46 fraction bits
  let pm = full >> 20n;
  if ((full & 0xfffffn) !== 0n) pm |= 1n;
  let zm = ze === 0 ? 0n : BigInt((c & 0x7fffff) | 0x800000) << 3n; // 26 fraction bits
  const semiSticky = (v: bigint, d: number): bigint => {
    const q = v >> BigInt(d);
    return q === 0n || q << BigInt(d) === v ? q : q | 1n;
  };
  let e = pe;
  if (pe >= ze) zm = semiSticky(zm, pe - ze);
  else {
    e = ze;
    pm = semiSticky(pm, ze - pe);
  }
  const s = (pNeg ? -pm : pm) + (zNeg ? -zm : zm);
  if (s === 0n) return 0;
  const neg = s < 0n;
  const mag = neg ? -s : s;
  const top = mag.toString(2).length - 1; // leading bit position
  let field = e - 26 + top; // biased exponent of the normalised result
  let q: bigint;
  if (top > 23) {
    const sh = BigInt(top - 23);
    q = mag >> sh;
    const rem = mag - (q << sh);
    const half = 1n << (sh - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    if (q === 1n << 24n) {
      q >>= 1n;
      field += 1;
    }
  } else q = mag << BigInt(23 - top);
  if (field <= 0) return 0;
  if (field >= 255) return (neg ? 0xff800000 : 0x7f800000) >>> 0;
  return ((neg ? 0x80000000 : 0) | (field << 23) | Number(q & 0x7fffffn)) >>> 0;
}
