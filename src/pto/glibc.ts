/**
 * Bit-exact replicas of the host C library functions the pto-isa CPU simulator calls: glibc's
 * double `exp` and `pow` (ElementOp.h / TPow.hpp call `std::exp(double)` and `std::pow(double,
 * double)` for every element type except f16 TEXP, which calls `expf`). They are not correctly
 * rounded (< 0.52 ulp), so a correctly rounded result differs from the reference's on rare inputs,
 * which shows after a cast to a 64-bit integer (e.g. TPOWS i64: pow(-99, 8)).
 *
 * The algorithms are the ones glibc >= 2.28 uses (sysdeps/ieee754/dbl-64/e_exp.c, e_pow.c: a
 * 128-entry 2^(k/128) table and a degree-5 polynomial; pow = log with a 128-entry table in
 * double-double, then exp of the product), written here from their description. On x86-64 glibc
 * picks at load time between a plain SSE2 build and one compiled with FMA (`__exp_fma`,
 * `__pow_fma`) on CPUs with FMA + AVX2 — every x86-64 server since 2013, and the machine that made
 * the reference vectors is assumed to be one. This file reproduces the FMA build: the explicit
 * `__builtin_fma` calls and every `a * b + c` GCC contracted into an fma (found by comparing with a
 * glibc 2.36 libm on such a CPU: 2.4 million random exp and 600 000 pow arguments, all equal; see
 * docs/pto.md). The tables are computed here from their definitions; the handful of polynomial
 * coefficients and split constants are glibc's (e_exp_data.c, e_pow_log_data.c), since a minimax fit
 * cannot be re-derived bit for bit.
 */

// ---- exact double fma (a * b + c rounded once), without hardware fma

const F = new Float64Array(1);
const U = new Uint32Array(F.buffer); // little-endian: U[0] low word, U[1] high word
const SPLIT = 134217729; // 2^27 + 1 (Veltkamp splitting)
let prodLo = 0;

/** a * b = result + prodLo exactly (Dekker); valid while a * b and the split do not overflow. */
function twoProd(a: number, b: number): number {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  prodLo = ah * bh - p + ah * bl + al * bh + al * bl;
  return p;
}

/**
 * fma(a, b, c) for the operand ranges these functions use (no overflow, products above the
 * subnormal range): a * b = uh + ul exactly, c + uh = th + tl exactly, and RN(th + RO(tl + ul)) is
 * the correctly rounded a * b + c when RO rounds to odd (Boldo & Melquiond, "Emulation of FMA and
 * correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008).
 */
export function fma64(a: number, b: number, c: number): number {
  const uh = twoProd(a, b);
  const ul = prodLo;
  if (ul === 0) return uh + c;
  const th = c + uh;
  const bb = th - c;
  const tl = c - (th - bb) + (uh - bb);
  let v = tl + ul;
  const b2 = v - tl;
  const e = tl - (v - b2) + (ul - b2);
  if (e !== 0) {
    // round to odd: truncate toward zero, then set the last mantissa bit
    F[0] = v;
    if (v > 0 !== e > 0) {
      if (U[0] === 0) {
        U[1] = U[1]! - 1;
        U[0] = 0xffffffff;
      } else U[0] = U[0]! - 1;
    }
    U[0] = U[0]! | 1;
    v = F[0]!;
  }
  return th + v;
}

function fromBits(hi: number, lo: number): number {
  U[1] = hi >>> 0;
  U[0] = lo >>> 0;
  return F[0]!;
}

// ---- tables, computed from their definitions with integer arithmetic

const BP = 200n; // fixed-point precision of the table computations

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * exp table: 2^(k/128) ~= H * (1 + T) with H = 2^(k/128) rounded to double and T the rounded
 * relative remainder; per k four words: T (low, high), then H's bits minus k << 45 (low, high), so
 * that adding the integer k's bits << 45 gives 2^(k/128) scaled by 2^floor(k/128).
 */
const EXP_TAB: Uint32Array = (() => {
  const one = 1n << BP;
  // r[j] = 2^(2^-j) in fixed point, j = 1..7
  const roots: bigint[] = [2n * one];
  for (let j = 1; j <= 7; j++) roots.push(isqrt(roots[j - 1]! << BP));
  const tab = new Uint32Array(4 * 128);
  for (let k = 0; k < 128; k++) {
    let v = one;
    for (let j = 1; j <= 7; j++) if ((k >> (7 - j)) & 1) v = (v * roots[j]!) >> BP;
    const h = Number(v) / 2 ** Number(BP); // rounded once to double
    const hs = BigInt(h * 2 ** 52) << (BP - 52n); // exact
    const t = Number(((v - hs) << 120n) / hs) / 2 ** 120;
    F[0] = t;
    tab[4 * k] = U[0]!;
    tab[4 * k + 1] = U[1]!;
    F[0] = h;
    tab[4 * k + 2] = U[0]!;
    tab[4 * k + 3] = (U[1]! - (k << 13)) >>> 0;
  }
  return tab;
})();

/** log(num / den) in fixed point (atanh series; num / den near 1). */
function fixedLog(num: bigint, den: bigint): bigint {
  const negative = num < den;
  const u = ((negative ? den - num : num - den) << BP) / (num + den); // |u| < 1/5 here
  const u2 = (u * u) >> BP;
  let term = u;
  let sum = 0n;
  for (let n = 1n; term !== 0n; n += 2n) {
    sum += term / n;
    term = (term * u2) >> BP;
  }
  return negative ? -2n * sum : 2n * sum;
}

/** fixed-point value * 2^-BP rounded to double (one rounding: Number() of the integer is exact-ish). */
function fixedToDouble(v: bigint): number {
  return v < 0n ? -Number(-v) / 2 ** Number(BP) : Number(v) / 2 ** Number(BP);
}

const POW_OFF_HI = 0x3fe69555; // high word of glibc's OFF: z ranges over [0x1.69555p-1, 0x1.69555p0)

/**
 * pow's log table, per subinterval i of z (the top 7 mantissa bits above OFF): invc = 1/c where
 * 1/c = round(128/center)/128 (center < 1) or round(256/center)/256, logc = log(c) rounded to a
 * multiple of 2^-43, logctail = log(c) - logc rounded to double (e_pow_log_data.c describes it).
 */
const POW_TAB: Float64Array = (() => {
  const tab = new Float64Array(3 * 128);
  for (let i = 0; i < 128; i++) {
    const center = (fromBits(POW_OFF_HI + (i << 13), 0) + fromBits(POW_OFF_HI + ((i + 1) << 13), 0)) / 2;
    const invc = center < 1 ? Math.round(128 / center) / 128 : Math.round(256 / center) / 256;
    const logc = -fixedLog(BigInt(invc * 256), 256n); // log(c) = -log(invc), invc = j/256
    const q = (logc * (1n << 43n) + (1n << (BP - 1n))) >> BP; // round(2^43 log c)
    tab[3 * i] = invc;
    tab[3 * i + 1] = Number(q) / 2 ** 43;
    tab[3 * i + 2] = fixedToDouble(logc - (q << (BP - 43n)));
  }
  return tab;
})();

// ---- constants (glibc e_exp_data.c, N = 128, EXP_POLY_ORDER = 5)

const INV_LN2_N = (0x171547652b82fe / 2 ** 52) * 128; // 0x1.71547652b82fep0 * 128
const NEG_LN2_HI_N = -0x162e42fefa0000 / 2 ** 60; // -0x1.62e42fefa0000p-8
const NEG_LN2_LO_N = -0x1cf79abc9e3b3a / 2 ** 99; // -0x1.cf79abc9e3b3ap-47
const SHIFT = 0x18000000000000; // 0x1.8p52: adding it rounds to an integer held in the low bits
const C2 = 0x1ffffffffffdbd / 2 ** 54; // 0x1.ffffffffffdbdp-2
const C3 = 0x1555555555543c / 2 ** 55; // 0x1.555555555543cp-3
const C4 = 0x155555cf172b91 / 2 ** 57; // 0x1.55555cf172b91p-5
const C5 = 0x11111167a4d017 / 2 ** 59; // 0x1.1111167a4d017p-7

/**
 * e^(x + xtail) with sign (glibc's exp and pow's exp_inline; exp passes xtail = 0, neg = false).
 * x = k ln2/128 + r; result = 2^(k/128) (1 + tail) (1 + poly(r)).
 */
function expCore(x: number, xtail: number, neg: boolean, forPow: boolean): number {
  F[0] = x;
  let abstop = (U[1]! >>> 20) & 0x7ff;
  if (abstop < 0x3c9 || abstop >= 0x408) {
    // |x| < 2^-54 or |x| >= 512
    if (abstop < 0x3c9) {
      const one = 1 + x;
      return neg ? -one : one;
    }
    if (abstop >= 0x409) {
      // |x| >= 1024 (exp: also inf / nan)
      if (!forPow) {
        if (x === Number.NEGATIVE_INFINITY) return 0;
        if (abstop >= 0x7ff) return 1 + x;
      }
      const r = x < 0 ? 0 : Number.POSITIVE_INFINITY;
      return neg ? -r : r;
    }
    abstop = 0; // large |x|: scale in two steps below
  }
  const kd0 = fma64(INV_LN2_N, x, SHIFT);
  F[0] = kd0;
  const ki = U[0]!;
  const kd = kd0 - SHIFT;
  let r = fma64(kd, NEG_LN2_LO_N, fma64(kd, NEG_LN2_HI_N, x));
  if (forPow) r += xtail;
  const j = 4 * (ki & 127);
  const tail = fromBits(EXP_TAB[j + 1]!, EXP_TAB[j]!);
  const sLo = EXP_TAB[j + 2]!;
  const sHi = (EXP_TAB[j + 3]! + (((ki + (neg ? 0x40000 : 0)) & 0x7ffff) << 13)) >>> 0;
  const r2 = r * r;
  const tmp = fma64(r2 * r2, fma64(r, C5, C4), fma64(r2, fma64(r, C3, C2), tail + r));
  if (abstop === 0) return expSpecial(tmp, sHi, sLo, ki, forPow);
  const scale = fromBits(sHi, sLo);
  return fma64(scale, tmp, scale);
}

/** Results that may overflow or reach the subnormal range: scale by 2^1009 or 2^-1022 apart. */
function expSpecial(tmp: number, sHi: number, sLo: number, ki: number, forPow: boolean): number {
  if ((ki & 0x80000000) === 0) {
    const scale = fromBits((sHi - (1009 << 20)) >>> 0, sLo);
    return fma64(scale, tmp, scale) * 2 ** 1009;
  }
  const hi2 = (sHi + (1022 << 20)) >>> 0;
  const scale = fromBits(hi2, sLo);
  // here the product is shared with the branch below, so GCC did not fuse it
  const st = scale * tmp;
  let y = scale + st;
  if (forPow ? Math.abs(y) < 1 : y < 1) {
    // round once at the final precision before scaling into the subnormal range
    const one = y < 0 ? -1 : 1;
    let lo = scale - y + st;
    const hi = one + y;
    lo = one - hi + y + lo;
    y = hi + lo - one;
    if (y === 0) y = forPow && hi2 >= 0x80000000 ? -0 : 0;
  }
  return 2 ** -1022 * y;
}

/** glibc `exp` (x86-64 FMA build), bit for bit. */
export function glibcExp(x: number): number {
  return expCore(x, 0, false, false);
}

// ---- pow (glibc e_pow_log_data.c, POW_LOG_TABLE_BITS = 7, POW_LOG_POLY_ORDER = 8)

const LN2_HI = 0x162e42fefa3800 / 2 ** 53; // 0x1.62e42fefa3800p-1
const LN2_LO = 0x1ef35793c76730 / 2 ** 97; // 0x1.ef35793c76730p-45
// polynomial coefficients, pre-scaled as glibc stores them (A[0] = -0.5)
const A1 = (0x1555555555556 / 2 ** 50) * -2; // 0x1.555555555556p-2 * -2
const A2 = (-0x10000000000006 / 2 ** 54) * -2; // -0x1.0000000000006p-2 * -2
const A3 = (0x1999999959554e / 2 ** 55) * 4; // 0x1.999999959554ep-3 * 4
const A4 = (-0x1555555529a47a / 2 ** 55) * 4; // -0x1.555555529a47ap-3 * 4
const A5 = (0x12495b9b4845e9 / 2 ** 55) * -8; // 0x1.2495b9b4845e9p-3 * -8
const A6 = (-0x10002b8b263fc3 / 2 ** 55) * -8; // -0x1.0002b8b263fc3p-3 * -8

let logTail = 0;

/** log(x) as hi + logTail (about 68 bits), x given by its bits (subnormals pre-normalised). */
function logInline(ixHi: number, ixLo: number): number {
  const tmpHi = (ixHi - POW_OFF_HI) | 0;
  const i = (tmpHi >>> 13) & 127;
  const k = tmpHi >> 20;
  const z = fromBits((ixHi - (tmpHi & 0xfff00000)) >>> 0, ixLo);
  const invc = POW_TAB[3 * i]!;
  const r = fma64(z, invc, -1); // exact: 1/c has few bits
  const t1 = fma64(k, LN2_HI, POW_TAB[3 * i + 1]!);
  const t2 = t1 + r;
  const lo1 = fma64(k, LN2_LO, POW_TAB[3 * i + 2]!);
  const lo2 = t1 - t2 + r;
  const ar = -0.5 * r;
  const ar2 = r * ar;
  const ar3 = r * ar2;
  const hi = t2 + ar2;
  const lo3 = fma64(ar, r, -ar2);
  const lo4 = t2 - hi + ar2;
  const q = fma64(ar2, fma64(ar2, fma64(r, A6, A5), fma64(r, A4, A3)), fma64(r, A2, A1));
  const lo = fma64(ar3, q, lo1 + lo2 + lo3 + lo4);
  const y = hi + lo;
  logTail = hi - y + lo;
  return y;
}

/** 0: y is not an integer, 1: odd integer, 2: even integer (y finite, non-zero). */
function checkInt(y: number): number {
  if (!Number.isInteger(y)) return 0;
  if (Math.abs(y) >= 2 ** 53) return 2;
  return y % 2 === 0 ? 2 : 1;
}

/** glibc `pow` (x86-64 FMA build), bit for bit, including C's special cases. */
export function glibcPow(x: number, y: number): number {
  F[0] = x;
  let ixHi = U[1]!;
  let ixLo = U[0]!;
  F[0] = y;
  const topy = (U[1]! >>> 20) & 0x7ff;
  const topx = ixHi >>> 20;
  let neg = false;
  const yExtreme = topy < 0x3be || topy >= 0x43e; // |y| < 2^-65, |y| >= 2^63, 0, inf, nan
  if (topx === 0 || topx >= 0x7ff || yExtreme) {
    if (y === 0 || !Number.isFinite(y)) {
      if (y === 0 || x === 1) return 1;
      if (Number.isNaN(x) || Number.isNaN(y)) return x + y;
      if (Math.abs(x) === 1) return 1;
      return Math.abs(x) < 1 === y > 0 ? 0 : y * y;
    }
    if (x === 0 || !Number.isFinite(x)) {
      let x2 = x * x;
      if ((x < 0 || Object.is(x, -0)) && checkInt(y) === 1) x2 = -x2;
      return y < 0 ? 1 / x2 : x2;
    }
    if (x < 0) {
      const yint = checkInt(y);
      if (yint === 0) return Number.NaN;
      neg = yint === 1;
      ixHi &= 0x7fffffff;
    }
    if (yExtreme) {
      const above = ixHi > 0x3ff00000 || (ixHi === 0x3ff00000 && ixLo > 0);
      if (ixHi === 0x3ff00000 && ixLo === 0) return 1;
      if (topy < 0x3be) return above ? 1 + y : 1 - y;
      return above === y > 0 ? Number.POSITIVE_INFINITY : 0;
    }
    if (ixHi >>> 20 === 0) {
      // subnormal |x|: normalise, letting the exponent go negative
      F[0] = Math.abs(x) * 2 ** 52;
      ixHi = ((U[1]! & 0x7fffffff) - (52 << 20)) >>> 0;
      ixLo = U[0]!;
    }
  }
  const hi = logInline(ixHi, ixLo);
  const lo = logTail;
  const ehi = y * hi;
  const elo = fma64(y, lo, fma64(y, hi, -ehi));
  return expCore(ehi, elo, neg, true);
}
