/**
 * Integer helpers on 32-bit lanes, written so that the wrap/saturate/shift behaviour is explicit at
 * every call site instead of inherited from JS's double arithmetic.
 *
 * Conventions: an `i32` is a JS number in [-2^31, 2^31); a `u32` is in [0, 2^32). Bit patterns are
 * always returned as u32 unless the name says i32.
 */

/** Count of leading zero bits of the 32-bit pattern (32 for 0). */
export function clz32(x: number): number {
  return Math.clz32(x);
}

/** Count of trailing zero bits (32 for 0). */
export function ctz32(x: number): number {
  x >>>= 0;
  if (x === 0) return 32;
  return 31 - Math.clz32(x & -x);
}

/** Number of set bits of the 32-bit pattern. */
export function popcount32(x: number): number {
  x >>>= 0;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

// ---- wrapping arithmetic (mod 2^32) ----
export function addI32(a: number, b: number): number {
  return (a + b) | 0;
}
export function subI32(a: number, b: number): number {
  return (a - b) | 0;
}
export function mulI32(a: number, b: number): number {
  return Math.imul(a, b);
}
export function addU32(a: number, b: number): number {
  return (a + b) >>> 0;
}
export function subU32(a: number, b: number): number {
  return (a - b) >>> 0;
}
export function mulU32(a: number, b: number): number {
  return Math.imul(a, b) >>> 0;
}
/** Reinterprets a 32-bit pattern as i32. */
export function toI32(x: number): number {
  return x | 0;
}
/** Reinterprets a 32-bit pattern as u32. */
export function toU32(x: number): number {
  return x >>> 0;
}

// ---- saturation ----
/**
 * Clamps an integer (any safe integer, e.g. the exact sum of two i32s) to the signed range of
 * `bits` bits, [-2^(bits-1), 2^(bits-1) - 1]; bits in 1..32.
 */
export function saturateI(v: number, bits: number): number {
  const hi = 2 ** (bits - 1) - 1;
  const lo = -(2 ** (bits - 1));
  return v > hi ? hi : Math.max(v, lo);
}
/** Clamps an integer to the unsigned range of `bits` bits, [0, 2^bits - 1]; bits in 1..32. */
export function saturateU(v: number, bits: number): number {
  const hi = 2 ** bits - 1;
  return v > hi ? hi : Math.max(v, 0);
}
/** Saturating i32 add / sub (exact in doubles, then clamped). */
export function addSatI32(a: number, b: number): number {
  return saturateI(a + b, 32);
}
export function subSatI32(a: number, b: number): number {
  return saturateI(a - b, 32);
}
export function addSatU32(a: number, b: number): number {
  return saturateU(a + b, 32);
}
export function subSatU32(a: number, b: number): number {
  return saturateU(a - b, 32);
}

// ---- shifts ----
// JS masks shift amounts to 5 bits (x << 33 === x << 1). Hardware differs per instruction, so
// each helper states its rule and ISA code picks the one its documentation gives.

/** Logical left shift where amounts >= 32 give 0 (the shifted-out rule); negative amounts are 0 too. */
export function shlSat(x: number, n: number): number {
  return n >= 32 || n < 0 ? 0 : (x << n) >>> 0;
}
/** Logical right shift where amounts >= 32 give 0. */
export function shrlSat(x: number, n: number): number {
  return n >= 32 || n < 0 ? 0 : x >>> n;
}
/** Arithmetic right shift where amounts >= 32 fill with the sign (0 or -1 as i32 pattern). */
export function shraSat(x: number, n: number): number {
  return n >= 32 ? x >> 31 : n < 0 ? x | 0 : x >> n;
}
/** Left shift by `n mod 32` (the amount's low five bits, as x86 SHL and JS do). */
export function shlMod32(x: number, n: number): number {
  return (x << (n & 31)) >>> 0;
}
/** Logical right shift by `n mod 32`. */
export function shrlMod32(x: number, n: number): number {
  return x >>> (n & 31);
}
/** Arithmetic right shift by `n mod 32`. */
export function shraMod32(x: number, n: number): number {
  return x >> (n & 31);
}
