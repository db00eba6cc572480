/**
 * exp / log / pow in double, correctly rounded (double-double arithmetic, ~100 bits, one rounding).
 * The instructions use glibc.ts's bit-exact replicas of glibc's exp and pow instead; `crLog` stands
 * in for glibc's log (not replicated: on every f16, 8/16-bit integer and fp8 input, and on the
 * integers up to 70 000, the two differ on 3 inputs, by one ulp of a double, which never survives
 * the conversion to the element type). crExp / crPow remain as oracles for glibc.test.ts. V8's
 * Math.exp/log/pow can be one ulp off, which shows after a cast to a wide integer.
 */

// ---- double-double helpers (Dekker / Knuth error-free transformations, no FMA needed)

const SPLIT = 134217729; // 2^27 + 1

function twoSum(a: number, b: number, out: Float64Array): void {
  const s = a + b;
  const bb = s - a;
  out[0] = s;
  out[1] = a - (s - bb) + (b - bb);
}

function twoProd(a: number, b: number, out: Float64Array): void {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  out[0] = p;
  out[1] = ah * bh - p + ah * bl + al * bh + al * bl;
}

const T1 = new Float64Array(2);
const T2 = new Float64Array(2);

/** (ah, al) * (bh, bl) -> [hi, lo] */
function ddMul(ah: number, al: number, bh: number, bl: number, out: Float64Array): void {
  twoProd(ah, bh, T1);
  const lo = T1[1]! + (ah * bl + al * bh);
  twoSum(T1[0]!, lo, out);
}

function ddAdd(ah: number, al: number, bh: number, bl: number, out: Float64Array): void {
  twoSum(ah, bh, T2);
  const lo = T2[1]! + al + bl;
  twoSum(T2[0]!, lo, out);
}

function ddDiv(ah: number, al: number, bh: number, bl: number, out: Float64Array): void {
  const q1 = ah / bh;
  // r = a - q1 * b
  ddMul(q1, 0, bh, bl, out);
  const rh = out[0]!;
  const rl = out[1]!;
  ddAdd(ah, al, -rh, -rl, out);
  const q2 = out[0]! / bh;
  ddMul(q2, 0, bh, bl, out);
  const sh = out[0]!;
  const sl = out[1]!;
  ddAdd(ah, al, -rh, -rl, out);
  ddAdd(out[0]!, out[1]!, -sh, -sl, out);
  const q3 = out[0]! / bh;
  twoSum(q1, q2, out);
  ddAdd(out[0]!, out[1]!, q3, 0, out);
}

const LN2_HI = Math.LN2;
const LN2_LO = 2.3190468138462996e-17;
const LOG2E = Math.LOG2E;

// 1/n! as double-double, n = 0..27
const INV_FACT: Float64Array = (() => {
  const t = new Float64Array(56);
  const o = new Float64Array(2);
  t[0] = 1;
  t[1] = 0;
  for (let n = 1; n < 28; n++) {
    ddDiv(t[2 * (n - 1)]!, t[2 * (n - 1) + 1]!, n, 0, o);
    t[2 * n] = o[0]!;
    t[2 * n + 1] = o[1]!;
  }
  return t;
})();

const W = new Float64Array(2);
const V = new Float64Array(2);

/** exp of the double-double (xh, xl), rounded to double. */
function expDD(xh: number, xl: number): number {
  if (Number.isNaN(xh)) return Number.NaN;
  if (xh > 709.8) return Number.POSITIVE_INFINITY;
  if (xh < -745.2) return 0;
  const k = Math.round(xh * LOG2E);
  // r = x - k*ln2 in double-double
  twoProd(k, LN2_HI, W);
  ddAdd(xh, xl, -W[0]!, -W[1]!, V);
  ddAdd(V[0]!, V[1]!, -k * LN2_LO, 0, V);
  const rh = V[0]!;
  const rl = V[1]!;
  // Horner on the Taylor series
  let ph = INV_FACT[54]!;
  let pl = INV_FACT[55]!;
  for (let n = 26; n >= 0; n--) {
    ddMul(ph, pl, rh, rl, W);
    ddAdd(W[0]!, W[1]!, INV_FACT[2 * n]!, INV_FACT[2 * n + 1]!, W);
    ph = W[0]!;
    pl = W[1]!;
  }
  // scale by 2^k in two steps so that huge/tiny k cannot overflow the factor
  const k1 = Math.trunc(k / 2);
  const k2 = k - k1;
  if (k < -1000) {
    // subnormal result: round once from the double-double sum at the final scale
    const s = (ph * 2 ** k1 + pl * 2 ** k1) * 2 ** k2;
    return s;
  }
  return (ph + pl) * 2 ** k1 * 2 ** k2;
}

/** Correctly rounded e^x. */
export function crExp(x: number): number {
  if (x === 0) return 1;
  return expDD(x, 0);
}

const SQRT1_2 = Math.SQRT1_2;

/** log of a positive finite double as double-double into `out`. */
function logDD(x: number, out: Float64Array): void {
  let e = Math.floor(Math.log2(x));
  let m = x / 2 ** e;
  if (m >= 2) {
    m /= 2;
    e++;
  } else if (m < 1) {
    m *= 2;
    e--;
  }
  if (m > Math.SQRT2) {
    m /= 2;
    e++;
  }
  if (m < SQRT1_2) {
    m *= 2;
    e--;
  }
  // exact: m - 1 (Sterbenz) and m + 1 with its rounding error
  const num = m - 1;
  twoSum(m, 1, W);
  ddDiv(num, 0, W[0]!, W[1]!, V);
  const uh = V[0]!;
  const ul = V[1]!;
  ddMul(uh, ul, uh, ul, W);
  const u2h = W[0]!;
  const u2l = W[1]!;
  // 2 * sum_{n>=0} u^(2n+1)/(2n+1), Horner in u^2
  let sh = 1 / 61;
  let sl = 0;
  const o = new Float64Array(2);
  for (let n = 29; n >= 0; n--) {
    ddMul(sh, sl, u2h, u2l, o);
    ddDiv(1, 0, 2 * n + 1, 0, W);
    ddAdd(o[0]!, o[1]!, W[0]!, W[1]!, o);
    sh = o[0]!;
    sl = o[1]!;
  }
  ddMul(sh, sl, uh, ul, o);
  const lh = 2 * o[0]!;
  const ll = 2 * o[1]!;
  // + e * ln2
  twoProd(e, LN2_HI, W);
  ddAdd(W[0]!, W[1]! + e * LN2_LO, lh, ll, out);
}

/** Correctly rounded natural logarithm. */
export function crLog(x: number): number {
  if (Number.isNaN(x) || x < 0) return Number.NaN;
  if (x === 0) return Number.NEGATIVE_INFINITY;
  if (x === Number.POSITIVE_INFINITY) return x;
  if (x === 1) return 0;
  const o = new Float64Array(2);
  logDD(x, o);
  return o[0]! + o[1]!;
}

/** C pow (C11 F.10.4.4 special cases), correctly rounded for finite non-zero operands. */
export function crPow(x: number, y: number): number {
  if (x === 1 || y === 0) return 1;
  if (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) return 1;
  if (Number.isNaN(x) || Number.isNaN(y) || x === 0 || !Number.isFinite(x) || !Number.isFinite(y))
    return x ** y;
  let neg = false;
  let ax = x;
  if (x < 0) {
    if (!Number.isInteger(y)) return Number.NaN;
    neg = Math.abs(y) < 2 ** 53 && Math.abs(y % 2) === 1;
    ax = -x;
  }
  const o = new Float64Array(2);
  logDD(ax, o);
  const p = new Float64Array(2);
  ddMul(o[0]!, o[1]!, y, 0, p);
  const r = expDD(p[0]!, p[1]!);
  return neg ? -r : r;
}
