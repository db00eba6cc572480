/**
 * Bit-exact replicas of the host C library functions the pto-isa CPU simulator calls: glibc's
 * double `exp` and `pow` (ElementOp.h / TPow.hpp call `std::exp(double)` and `std::pow(double,
 * double)` for every element type except f16 TEXP, which calls `expf`). They are not correctly
 * rounded (< 0.52 ulp), so a correctly rounded result differs from the reference's on rare inputs,
 * which shows after a cast to a 64-bit integer (e.g. TPOWS i64: pow(-99, 8)).
 *
 * The algorithms are the ones glibc >= 2.28 uses (which came from Arm's optimized-routines: a
 * 128-entry 2^(k/128) table and a degree-5 polynomial; pow = log with a 128-entry table in
 * double-double, then exp of the product). On x86-64 glibc
 * picks at load time between a plain SSE2 build and one compiled with FMA (`__exp_fma`,
 * `__pow_fma`) on CPUs with FMA + AVX2 — every x86-64 server since 2013, and the machine that made
 * the reference vectors is assumed to be one. This file reproduces the FMA build: the explicit
 * `__builtin_fma` calls and every `a * b + c` GCC contracted into an fma (found by comparing with a
 * glibc 2.36 libm on such a CPU: about 2.6 million random exp and 600 000 pow arguments, all equal;
 * see docs/pto.md). The tables are computed here from their definitions; the polynomial
 * coefficients and ln 2 splits are the published constants (see "numeric constants" below). The
 * code is written from the algorithm's description; the order of the floating-point operations is
 * the part that must (and does) match, since any other order rounds differently.
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

// ---- numeric constants
//
// The ln 2 splits, the rounding shift and the two minimax polynomials below are the published
// constants of the exp/pow routines glibc took from Arm's optimized-routines (MIT OR Apache-2.0
// WITH LLVM-exception), written here as exact hex fractions. A minimax fit cannot be re-derived
// bit for bit, and the replica is only exact with exactly these numbers.

const N_PER_LN2 = (0x171547652b82fe / 2 ** 52) * 128; // 128 / ln 2
const LN2_OVER_N_HI = -0x162e42fefa0000 / 2 ** 60; // -(ln 2 / 128), leading bits
const LN2_OVER_N_LO = -0x1cf79abc9e3b3a / 2 ** 99; // -(ln 2 / 128), the rest
const ROUND_SHIFT = 0x18000000000000; // 1.5 * 2^52: adding it leaves round(v) in the low mantissa bits
// e^r - 1 - r ~= r^2 (E2 + r E3) + r^4 (E4 + r E5) on |r| <= ln 2 / 256
const E2 = 0x1ffffffffffdbd / 2 ** 54;
const E3 = 0x1555555555543c / 2 ** 55;
const E4 = 0x155555cf172b91 / 2 ** 57;
const E5 = 0x11111167a4d017 / 2 ** 59;

/**
 * e^(x + xLow), negated when `negate` (pow's sign of an odd power). With n = round(128 x / ln 2)
 * and x = n ln 2 / 128 + red: e^x = 2^(n/128) e^red, where 2^(n mod 128 / 128) comes from EXP_TAB
 * as scale * (1 + tabTail) and e^red - 1 from the polynomial. `inPow` selects pow's handling of
 * huge, infinite and NaN arguments (its caller has filtered them) and of tiny results.
 */
function expScaled(x: number, xLow: number, negate: boolean, inPow: boolean): number {
  F[0] = x;
  let top = (U[1]! >>> 20) & 0x7ff; // biased exponent of |x|
  if (top < 0x3c9 || top >= 0x408) {
    if (top < 0x3c9) {
      // |x| < 2^-54: e^x rounds to 1 + x
      const v = 1 + x;
      return negate ? -v : v;
    }
    if (top >= 0x409) {
      // |x| >= 1024 (and, for exp itself, infinities and NaN)
      if (!inPow) {
        if (x === Number.NEGATIVE_INFINITY) return 0;
        if (top >= 0x7ff) return 1 + x;
      }
      const v = x < 0 ? 0 : Number.POSITIVE_INFINITY;
      return negate ? -v : v;
    }
    top = 0; // 512 <= |x| < 1024: the result may leave the normal range; see expNearLimits
  }
  // n and red, with the multiply-adds the FMA build performs
  const shifted = fma64(N_PER_LN2, x, ROUND_SHIFT);
  F[0] = shifted;
  const nBits = U[0]!; // n as a 32-bit two's-complement integer
  const n = shifted - ROUND_SHIFT;
  let red = fma64(n, LN2_OVER_N_LO, fma64(n, LN2_OVER_N_HI, x));
  if (inPow) red += xLow;
  const at = 4 * (nBits & 127);
  const tabTail = fromBits(EXP_TAB[at + 1]!, EXP_TAB[at]!);
  const scaleLo = EXP_TAB[at + 2]!;
  // the table holds 2^(j/128) minus j << 45; adding n << 45 also applies 2^floor(n/128), and the
  // sign bit for a negated result
  const scaleHi = (EXP_TAB[at + 3]! + (((nBits + (negate ? 0x40000 : 0)) & 0x7ffff) << 13)) >>> 0;
  const red2 = red * red;
  const poly = fma64(red2 * red2, fma64(red, E5, E4), fma64(red2, fma64(red, E3, E2), tabTail + red));
  if (top === 0) return expNearLimits(poly, scaleHi, scaleLo, nBits, inPow);
  const scale = fromBits(scaleHi, scaleLo);
  return fma64(scale, poly, scale);
}

/**
 * scale * (1 + poly) when the scale's exponent field would overflow or underflow: apply 2^1009
 * (n > 0) or 2^-1022 (n < 0) separately; in the subnormal range add the parts so that the result
 * is rounded once, at the final precision.
 */
function expNearLimits(
  poly: number,
  scaleHi: number,
  scaleLo: number,
  nBits: number,
  inPow: boolean,
): number {
  if ((nBits & 0x80000000) === 0) {
    const scale = fromBits((scaleHi - (1009 << 20)) >>> 0, scaleLo);
    return fma64(scale, poly, scale) * 2 ** 1009;
  }
  const upHi = (scaleHi + (1022 << 20)) >>> 0;
  const scale = fromBits(upHi, scaleLo);
  const prod = scale * poly; // not fused: the product is reused below
  let sum = scale + prod;
  if (inPow ? Math.abs(sum) < 1 : sum < 1) {
    const unit = sum < 0 ? -1 : 1;
    let err = scale - sum + prod;
    const biased = unit + sum;
    err = unit - biased + sum + err;
    sum = biased + err - unit;
    if (sum === 0) sum = inPow && upHi >= 0x80000000 ? -0 : 0;
  }
  return 2 ** -1022 * sum;
}

/** glibc `exp` (x86-64 FMA build), bit for bit. */
export function glibcExp(x: number): number {
  return expScaled(x, 0, false, false);
}

// ---- pow = exp(y log x), log x in double-double

const LN2_HI = 0x162e42fefa3800 / 2 ** 53; // ln 2, leading bits
const LN2_LO = 0x1ef35793c76730 / 2 ** 97; // ln 2, the rest
// log(1 + r) - r ~= hr^2 (with hr = -r/2) + hr^3 Q(r); stored pre-multiplied so that Q's
// coefficients are B1 + r B2 + ... (the factors -2, 4, -8 undo the powers of -1/2)
const B1 = (0x1555555555556 / 2 ** 50) * -2;
const B2 = (-0x10000000000006 / 2 ** 54) * -2;
const B3 = (0x1999999959554e / 2 ** 55) * 4;
const B4 = (-0x1555555529a47a / 2 ** 55) * 4;
const B5 = (0x12495b9b4845e9 / 2 ** 55) * -8;
const B6 = (-0x10002b8b263fc3 / 2 ** 55) * -8;

/** The low part of the last logHiLo result. */
let logLow = 0;

/**
 * log(x) as a double-double (the returned value plus `logLow`), x given by its bits (a subnormal
 * pre-normalised, with a negative exponent). x = 2^e z with z in [OFF, 2 OFF); z c ~= 1 for the
 * table's c, so log x = e ln 2 + log c + log(1 + (z/c - 1)), the last from the polynomial.
 */
function logHiLo(hiBits: number, loBits: number): number {
  const fromOff = (hiBits - POW_OFF_HI) | 0;
  const sub = (fromOff >>> 13) & 127; // subinterval of z
  const e = fromOff >> 20;
  const z = fromBits((hiBits - (fromOff & 0xfff00000)) >>> 0, loBits);
  const red = fma64(z, POW_TAB[3 * sub]!, -1); // z/c - 1, exact: 1/c has few bits
  const base = fma64(e, LN2_HI, POW_TAB[3 * sub + 1]!); // e ln2 + log c, leading part
  const head = base + red;
  const baseErr = fma64(e, LN2_LO, POW_TAB[3 * sub + 2]!);
  const headErr = base - head + red;
  const hr = -0.5 * red;
  const sq = red * hr; // -r^2/2
  const cube = red * sq;
  const top = head + sq;
  const sqErr = fma64(hr, red, -sq);
  const topErr = head - top + sq;
  const q = fma64(sq, fma64(sq, fma64(red, B6, B5), fma64(red, B4, B3)), fma64(red, B2, B1));
  const rest = fma64(cube, q, baseErr + headErr + sqErr + topErr);
  const v = top + rest;
  logLow = top - v + rest;
  return v;
}

/** 0: y is not an integer, 1: an odd integer, 2: an even integer (y finite, non-zero). */
function integerKind(y: number): number {
  if (!Number.isInteger(y)) return 0;
  if (Math.abs(y) >= 2 ** 53) return 2;
  return y % 2 === 0 ? 2 : 1;
}

/** glibc `pow` (x86-64 FMA build), bit for bit, including C's special cases. */
export function glibcPow(x: number, y: number): number {
  F[0] = x;
  let xHi = U[1]!;
  let xLo = U[0]!;
  F[0] = y;
  const yTop = (U[1]! >>> 20) & 0x7ff;
  const xTop = xHi >>> 20;
  let negate = false;
  const yExtreme = yTop < 0x3be || yTop >= 0x43e; // |y| < 2^-65, |y| >= 2^63, 0, inf, nan
  if (xTop === 0 || xTop >= 0x7ff || yExtreme) {
    if (y === 0 || !Number.isFinite(y)) {
      if (y === 0 || x === 1) return 1;
      if (Number.isNaN(x) || Number.isNaN(y)) return x + y;
      if (Math.abs(x) === 1) return 1;
      return Math.abs(x) < 1 === y > 0 ? 0 : y * y;
    }
    if (x === 0 || !Number.isFinite(x)) {
      let sq = x * x;
      if ((x < 0 || Object.is(x, -0)) && integerKind(y) === 1) sq = -sq;
      return y < 0 ? 1 / sq : sq;
    }
    if (x < 0) {
      const kind = integerKind(y);
      if (kind === 0) return Number.NaN;
      negate = kind === 1;
      xHi &= 0x7fffffff;
    }
    if (yExtreme) {
      const above = xHi > 0x3ff00000 || (xHi === 0x3ff00000 && xLo > 0);
      if (xHi === 0x3ff00000 && xLo === 0) return 1;
      if (yTop < 0x3be) return above ? 1 + y : 1 - y;
      return above === y > 0 ? Number.POSITIVE_INFINITY : 0;
    }
    if (xHi >>> 20 === 0) {
      // subnormal |x|: normalise, letting the exponent go negative
      F[0] = Math.abs(x) * 2 ** 52;
      xHi = ((U[1]! & 0x7fffffff) - (52 << 20)) >>> 0;
      xLo = U[0]!;
    }
  }
  const lx = logHiLo(xHi, xLo);
  const lxLow = logLow;
  const prod = y * lx; // y log x as prod + prodErr
  const prodErr = fma64(y, lxLow, fma64(y, lx, -prod));
  return expScaled(prod, prodErr, negate, true);
}
