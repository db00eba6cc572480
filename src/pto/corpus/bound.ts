/**
 * Reference values that carry an error bound: `v` is the exact mathematical result computed in
 * double precision from the inputs, `e` bounds how far a binary32 pipeline computing the same
 * formula (each operation rounded to nearest, relative error <= u = 2^-24) can be from `v`. The
 * Qwen3 decode check (qwen3.ts) compares axsim's outputs against `v` with tolerance `e`, so every
 * tolerance follows from first-order forward error analysis of the operations the kernel performs,
 * not from a guess.
 *
 * Each function adds the propagated input error (|df/dx| times the input bounds, plus the product
 * of bounds for multiplication) and the rounding error of the operation's own result. Double
 * rounding of the reference is negligible (2^-53 against 2^-24) and covered by the `SLACK` factor.
 */

/** Unit roundoff of binary32 round-to-nearest. */
export const U32 = 2 ** -24;
/** Safety factor over the first-order bound (double evaluation, second-order terms). */
const SLACK = 1 + 2 ** -20;

export interface Bounded {
  /** Exact value (double). */
  v: number;
  /** Bound on |computed - v|. */
  e: number;
}

/** An input read exactly (a value stored in the tile's element type). */
export const exact = (v: number): Bounded => ({ v, e: 0 });

/**
 * The rounding of a binary32 result near `v` with bound `e`: half an ulp of the largest magnitude,
 * and at least half the smallest subnormal (2^-150) where results underflow.
 */
function round32(v: number, e: number): number {
  return U32 * (Math.abs(v) + e) + TINY;
}
const TINY = 2 ** -150;

export function add(a: Bounded, b: Bounded): Bounded {
  const v = a.v + b.v;
  const e = a.e + b.e;
  return { v, e: (e + round32(v, e)) * SLACK };
}

export function sub(a: Bounded, b: Bounded): Bounded {
  return add(a, { v: -b.v, e: b.e });
}

export function mul(a: Bounded, b: Bounded): Bounded {
  const v = a.v * b.v;
  const e = Math.abs(a.v) * b.e + Math.abs(b.v) * a.e + a.e * b.e;
  return { v, e: (e + round32(v, e)) * SLACK };
}

/** a / b for |b| > b.e (the divisor keeps its sign). */
export function div(a: Bounded, b: Bounded): Bounded {
  const lo = Math.abs(b.v) - b.e;
  if (!(lo > 0)) throw new Error(`div: divisor ${b.v} ± ${b.e} may be zero`);
  const v = a.v / b.v;
  // |a'/b' - a/b| <= (|a - a'| + |a/b| |b - b'|) / |b'|
  const e = (a.e + Math.abs(v) * b.e) / lo;
  return { v, e: (e + round32(v, e)) * SLACK };
}

export function sqrt(a: Bounded): Bounded {
  const v = Math.sqrt(a.v);
  const lo = Math.max(a.v - a.e, 0);
  // |sqrt(x') - sqrt(x)| = |x' - x| / (sqrt(x') + sqrt(x))
  const e = a.e / (Math.sqrt(lo) + v);
  return { v, e: (e + round32(v, e)) * SLACK };
}

/**
 * exp as a binary32 library function: the argument's error moves the result by up to
 * exp(v)(exp(e) - 1); the result itself is within `ulps` binary32 ulps (2 by default: glibc's
 * exp is within one, the device's vector exp is documented to the same order).
 */
export function exp(a: Bounded, ulps = 2): Bounded {
  const v = Math.exp(a.v);
  const e = v * Math.expm1(a.e);
  return { v, e: (e + 2 * ulps * round32(v, e)) * SLACK };
}

export function max(a: Bounded, b: Bounded): Bounded {
  // max is 1-Lipschitz in each argument and exact
  return { v: Math.max(a.v, b.v), e: Math.max(a.e, b.e) };
}

/**
 * A dot product / sum of products accumulated in binary32 in any order, one rounding per step
 * (fused multiply-add chains or multiply-then-add): |computed - exact| <= gamma_{n+1} sum |a_i b_i|
 * (Higham, Accuracy and Stability of Numerical Algorithms, 3.1) plus the inputs' propagated errors.
 */
export function dot(a: readonly Bounded[], b: readonly Bounded[]): Bounded {
  let v = 0;
  let abs = 0;
  let e = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    v += x.v * y.v;
    abs += Math.abs(x.v * y.v);
    e += Math.abs(x.v) * y.e + Math.abs(y.v) * x.e + x.e * y.e;
  }
  const n = a.length + 1;
  return { v, e: (e + (n * U32 * (abs + e)) / (1 - n * U32) + 2 * n * TINY) * SLACK };
}

/** A sum of n terms in binary32 in any order (gamma_{n-1} sum |x_i| plus the terms' errors). */
export function sum(xs: readonly Bounded[]): Bounded {
  let v = 0;
  let abs = 0;
  let e = 0;
  for (const x of xs) {
    v += x.v;
    abs += Math.abs(x.v) + x.e;
    e += x.e;
  }
  const n = xs.length;
  return { v, e: (e + (n * U32 * abs) / (1 - n * U32) + n * TINY) * SLACK };
}

/** Half an ulp of bfloat16 (8 significant bits) at magnitude |x|, for normal numbers. */
export function bf16HalfUlp(x: number): number {
  const a = Math.abs(x);
  if (a === 0) return 0;
  if (!Number.isFinite(a)) return Number.POSITIVE_INFINITY;
  const ex = Math.max(Math.floor(Math.log2(a)), -126);
  return 2 ** (ex - 8);
}

/**
 * The binary32 value rounded to bfloat16 by a round-to-nearest mode (RNE or ties away, the TCVT
 * ROUND mode): within half a bf16 ulp of the value it rounded, so within e + half an ulp of v.
 */
export function toBf16(a: Bounded): Bounded {
  return { v: a.v, e: (a.e + bf16HalfUlp(Math.abs(a.v) + a.e)) * SLACK };
}

/** bfloat16 bits -> value. */
export function bf16Value(bits: number): number {
  BF_U32[0] = (bits & 0xffff) << 16;
  return BF_F32[0]!;
}

/** value -> bfloat16 bits, round to nearest even (for making inputs). */
export function bf16Bits(x: number): number {
  BF_F32[0] = x;
  const u = BF_U32[0]!;
  if ((u & 0x7fffffff) > 0x7f800000) return (u >>> 16) | 0x40;
  return ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) & 0xffff;
}

const BF_F32 = new Float32Array(1);
const BF_U32 = new Uint32Array(BF_F32.buffer);
