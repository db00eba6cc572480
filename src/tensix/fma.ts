/**
 * The Vector Unit's multiply-add (SFPMAD, and every instruction defined "as per SFPMAD"): one
 * routine for both generations, on raw FP32 bit patterns, the generation being a parameter.
 *
 * What it computes, from SFPMAD.md (WormholeB0) and the exact bits in SFPU-NOTES.md:
 * - Inputs with exponent field 0 are zero (SFPMAD.md: "denormal inputs are treated as zero").
 * - The product is kept "in higher precision than FP32, but not infinite" (SFPMAD.md); B1 fixes
 *   how much: 26 fraction bits (the 23 of FP32 plus three guard bits), with everything below
 *   folded into the last bit as a sticky bit.
 * - A product below 2^-126 (its exponent field would be negative) is dropped and C passes
 *   through unchanged (A6).
 * - Product and C meet at the larger exponent. The smaller one is shifted down; the sticky bit
 *   records lost bits only when something of the operand survives the shift (B1's "semi-sticky"
 *   alignment), so an operand shifted out entirely vanishes without trace.
 * - One round-to-nearest-even step after normalisation (B1).
 * - Zero, denormal and special results (B2, B3, A5 for Wormhole; C2 for Blackhole) depend on
 *   the generation; see {@link madLanes}.
 *
 * Representation: each operand is a signed integer significand with 26 fraction bits and a biased
 * exponent. The 48-bit significand product is formed exactly in a double (< 2^53) and split
 * with one power-of-two scaling, so no 64-bit integer arithmetic is needed; the sum is an ordinary
 * signed int32 (< 2^29 in magnitude). Nothing depends on the host's floating-point rounding.
 */
import type { Arch } from './encoding.ts';

const SCRATCH = new Uint32Array(4);
// the sign bit as an int32 (what `|` and `&` produce)
const SIGN = 0x80000000 | 0;
const TWO_POW_M20 = 1 / 1048576;

/**
 * The significand product (two 24-bit integers) with 26 fraction bits: the exact 46-fraction-bit
 * product scaled down by 2^20, with bit 0 set if any of the 20 bits below were set. The high part
 * comes from the double product (below 2^48, so exact), the low bits from Math.imul (exact mod 2^32).
 */
function productSignificand(xm: number, ym: number): number {
  const kept = (xm * ym * TWO_POW_M20) | 0; // below 2^28; truncation is the floor here
  return (Math.imul(xm, ym) & 0xfffff) === 0 ? kept : kept | 1;
}

/** v / 2^d, truncated; bit 0 is set when bits were lost, but only if something is left (B1). */
function alignDown(v: number, d: number): number {
  if (d >= 31) return 0;
  const q = v >>> d;
  return q === 0 || q << d === v ? q : q | 1;
}

/** x*y + z for one lane on the given generation. */
export function mad(x: number, y: number, z: number, arch: Arch): number {
  SCRATCH[0] = x;
  SCRATCH[1] = y;
  SCRATCH[2] = z;
  madLanes(SCRATCH, 1, 0, 0, 1, 0, 2, 0, 3, 0, arch);
  return SCRATCH[3]!;
}

/** x*y + z on Wormhole B0. */
export function fmaWh(x: number, y: number, z: number): number {
  return mad(x, y, z, 'wormhole');
}

/** x*y + z on Blackhole. */
export function fmaBh(x: number, y: number, z: number): number {
  return mad(x, y, z, 'blackhole');
}

/**
 * {@link madLanes} for Wormhole without negation (every Wormhole caller): the same rules with the
 * Blackhole branches and the helper calls folded away, which the optimiser does not do by itself
 * (about 20 % faster on the MAD-heavy workload). Must stay bit-identical to the generic loop.
 */
export function madLanesWh(
  L: Uint32Array,
  mask: number,
  a: number,
  sa: number,
  b: number,
  sb: number,
  c: number,
  sc: number,
  d: number,
): void {
  for (let l = 0, ia = a - sa, ib = b - sb, ic = c - sc; l < 32; l++) {
    ia += sa;
    ib += sb;
    ic += sc;
    if (((mask >>> l) & 1) === 0) continue;
    const x = L[ia]! | 0;
    const y = L[ib]! | 0;
    const z = L[ic]! | 0;
    const out = d + l;
    const xe = (x >>> 23) & 255;
    const ye = (y >>> 23) & 255;
    const ze = (z >>> 23) & 255;
    const pSign = (x ^ y) >> 31;
    const zSign = z >> 31;
    let pe = xe + ye - 127;
    let nanBits = 0;
    if (pe >= 255 || (((xe + 1) | (ye + 1) | (ze + 1)) & 256) !== 0) {
      const invalidProduct =
        (xe === 255 && ((x & 0x7fffff) !== 0 || ye === 0)) ||
        (ye === 255 && ((y & 0x7fffff) !== 0 || xe === 0));
      const zNaN = ze === 255 && (z & 0x7fffff) !== 0;
      const zInf = ze === 255 && !zNaN;
      const infMinusInf = zInf && pSign !== zSign && (xe === 255 || ye === 255 || pe >= 255);
      if (invalidProduct || infMinusInf) nanBits = (pSign & SIGN) | 0x7f800001;
      else if (zNaN) nanBits = (zSign & SIGN) | 0x7f800001;
      else {
        L[out] = zInf ? z : (pSign & SIGN) | 0x7f800000;
        continue;
      }
      if (pe > 255) pe = 255;
    }
    if (xe === 0 || ye === 0 || pe < 0) {
      if (nanBits !== 0) L[out] = ze !== 0 && ze !== 255 ? nanBits | (z & 0x7fffffff) : nanBits;
      else L[out] = ze !== 0 ? z : 0;
      continue;
    }
    const xm = (x & 0x7fffff) | 0x800000;
    const ym = (y & 0x7fffff) | 0x800000;
    let pm = (xm * ym * TWO_POW_M20) | 0;
    if ((Math.imul(xm, ym) & 0xfffff) !== 0) pm |= 1;
    let zm = ze === 0 ? 0 : ((z & 0x7fffff) | 0x800000) << 3;
    let e = pe;
    if (pe >= ze) {
      const dd = pe - ze;
      if (dd >= 31) zm = 0;
      else if (dd !== 0) {
        const q = zm >>> dd;
        zm = q === 0 || q << dd === zm ? q : q | 1;
      }
    } else {
      e = ze;
      const dd = ze - pe;
      if (dd >= 31) pm = 0;
      else {
        const q = pm >>> dd;
        pm = q === 0 || q << dd === pm ? q : q | 1;
      }
    }
    const sum = (pm ^ pSign) - pSign + ((zm ^ zSign) - zSign);
    if (sum === 0) {
      L[out] = nanBits;
      continue;
    }
    const rSign = sum >> 31;
    let s = (sum ^ rSign) - rSign;
    if (s > 0x0fffffff) s &= ~2;
    const sh = Math.clz32(s) - 3;
    const sn = s << sh;
    e += 2 - sh;
    if (e >= 255) {
      L[out] = nanBits !== 0 ? nanBits : (rSign & SIGN) | 0x7f800000;
      continue;
    }
    if (e < 0) {
      L[out] = nanBits;
      continue;
    }
    const r = ((e - 1) << 23) + ((sn + 15 + ((sn >>> 5) & 1)) >>> 5);
    if (r >>> 23 === 0) L[out] = nanBits;
    else L[out] = nanBits !== 0 ? nanBits | r : r | (rSign & SIGN);
  }
}

/**
 * The multiply-add over the lanes of `mask`: for each enabled lane l,
 * L[d+l] = (L[a+sa*l] ^ negA) * L[b+sb*l] + (L[c+sc*l] ^ negC), where `flip` bit 0 negates A and
 * bit 1 negates C (strides are 1 for registers, 0 for a broadcast operand). The lane loop is in
 * here so that 32-bit patterns never cross a call boundary (they are not small integers to V8).
 *
 * Generation rules:
 * - Special inputs. Both: a NaN operand, Inf·0 (a denormal counts as 0), or Inf−Inf give NaN;
 *   otherwise an infinite C wins, otherwise an infinite or overflowing product gives ±Inf with
 *   the product's sign. Wormhole counts a finite product that overflows as infinite in the Inf−Inf
 *   test (A5); Blackhole does not (C2).
 * - NaN bits. Blackhole: always 0x7fc00000 (C2). Wormhole (B2): sign|0x7f800001, the sign being
 *   the product's unless C is the only NaN; the finite datapath still runs (product exponent
 *   capped at 255) and its exponent and mantissa bits are OR'd in.
 * - Zero results. Wormhole: always +0 (B3). Blackhole: C's sign if the product was dropped and
 *   C is zero, −0 only when both signs are negative; +0 for an exact cancellation (C2).
 * - Below the normal range. Wormhole: exponent field < 0 after normalisation is +0 at once;
 *   field 0 is rounded as if it were normal and kept only if rounding carries it to 2^-126 (B3).
 *   Blackhole: the value is rounded one bit further down (field 0's denormal grid) and is
 *   kept only if that carries to 2^-126, otherwise it is a zero with the result's sign (C2).
 * - Wormhole's normalising right shift keeps the sticky bit (bit 0) but loses any other bit it
 *   shifts out below the round position: bit 1 when the sum carries by two bits.
 */
export function madLanes(
  L: Uint32Array,
  mask: number,
  a: number,
  sa: number,
  b: number,
  sb: number,
  c: number,
  sc: number,
  d: number,
  flip: number,
  arch: Arch,
): void {
  if (arch === 'wormhole' && flip === 0) madLanesWh(L, mask, a, sa, b, sb, c, sc, d);
  else madLanesAny(L, mask, a, sa, b, sb, c, sc, d, flip, arch === 'blackhole');
}

/**
 * The loop of {@link madLanes} for any generation (Blackhole, or negation requested). A function of
 * its own so that its type feedback and optimised code do not depend on which generation ran first
 * in the process (in one function, Blackhole after Wormhole ran about 30 % slower).
 */
export function madLanesAny(
  L: Uint32Array,
  mask: number,
  a: number,
  sa: number,
  b: number,
  sb: number,
  c: number,
  sc: number,
  d: number,
  flip: number,
  bh: boolean,
): void {
  // sums above this lose bit 1 when normalised (Wormhole); a Blackhole sum (< 2^29) never exceeds it
  const carry2Limit = bh ? 0x7fffffff : 0x0fffffff;
  const negA = (flip & 1) << 31;
  const negC = (flip & 2) << 30;
  for (let l = 0, ia = a - sa, ib = b - sb, ic = c - sc; l < 32; l++) {
    ia += sa;
    ib += sb;
    ic += sc;
    if (((mask >>> l) & 1) === 0) continue;
    const x = L[ia]! ^ negA;
    const y = L[ib]! | 0;
    const z = L[ic]! ^ negC;
    const out = d + l;
    const xe = (x >>> 23) & 255;
    const ye = (y >>> 23) & 255;
    const ze = (z >>> 23) & 255;
    // sign masks: -1 for negative, 0 for positive
    const pSign = (x ^ y) >> 31;
    const zSign = z >> 31;
    let pe = xe + ye - 127;
    let nanBits = 0;

    if (xe === 255 || ye === 255 || ze === 255 || pe >= 255) {
      const invalidProduct =
        (xe === 255 && ((x & 0x7fffff) !== 0 || ye === 0)) ||
        (ye === 255 && ((y & 0x7fffff) !== 0 || xe === 0));
      const zNaN = ze === 255 && (z & 0x7fffff) !== 0;
      const zInf = ze === 255 && !zNaN;
      const infMinusInf = zInf && pSign !== zSign && (xe === 255 || ye === 255 || (!bh && pe >= 255));
      if (bh) {
        if (invalidProduct || zNaN || infMinusInf) L[out] = 0x7fc00000;
        else if (zInf) L[out] = z;
        else L[out] = (pSign & SIGN) | 0x7f800000;
        continue;
      }
      if (invalidProduct || infMinusInf) nanBits = (pSign & SIGN) | 0x7f800001;
      else if (zNaN) nanBits = (zSign & SIGN) | 0x7f800001;
      else {
        L[out] = zInf ? z : (pSign & SIGN) | 0x7f800000;
        continue;
      }
      if (pe > 255) pe = 255;
    }

    const pm = productSignificand(
      xe === 0 ? 0 : (x & 0x7fffff) | 0x800000,
      ye === 0 ? 0 : (y & 0x7fffff) | 0x800000,
    );
    const zm = ze === 0 ? 0 : ((z & 0x7fffff) | 0x800000) << 3;
    if (pm === 0 || pe < 0) {
      // the product is dropped (A6): C passes through
      if (nanBits !== 0) L[out] = ze !== 0 && ze !== 255 ? nanBits | (z & 0x7fffffff) : nanBits;
      else if (zm !== 0) L[out] = z;
      else L[out] = bh ? pSign & zSign & SIGN : 0;
      continue;
    }

    let e: number;
    let pAligned = pm;
    let zAligned = zm;
    if (pe >= ze) {
      e = pe;
      zAligned = alignDown(zm, pe - ze);
    } else {
      e = ze;
      pAligned = alignDown(pm, ze - pe);
    }
    const sum = (pAligned ^ pSign) - pSign + ((zAligned ^ zSign) - zSign);
    if (sum === 0) {
      L[out] = nanBits;
      continue;
    }
    const rSign = sum >> 31;
    let s = (sum ^ rSign) - rSign;
    // A sum that carried two bits (2^28 and up) is shifted right by 2 to normalise; Wormhole keeps
    // bit 0 (the sticky bit) but loses bit 1 in that shift.
    if (s > carry2Limit) s &= ~2;

    // Normalise by moving the leading one to bit 28 (the sum is below 2^29, so this is a left
    // shift and loses nothing); the 24-bit significand is then bits 28..5, bits 4..0 round it.
    const sh = Math.clz32(s) - 3;
    const sn = s << sh;
    e += 2 - sh;
    if (e >= 255) {
      L[out] = nanBits !== 0 ? nanBits : (rSign & SIGN) | 0x7f800000;
      continue;
    }
    // round to nearest even: add just under half an ulp, plus the kept LSB, and truncate
    let sig: number;
    if (e > 0 || !bh) {
      if (e < 0) {
        L[out] = nanBits; // Wormhole: flushed before rounding
        continue;
      }
      sig = (sn + 15 + ((sn >>> 5) & 1)) >>> 5;
    } else {
      // Blackhole below the normal range: one significant bit fewer, on exponent field 1's scale
      // (field 0's denormal grid)
      sig = (sn + 31 + ((sn >>> 6) & 1)) >>> 6;
      e = 1;
    }
    // the implicit bit (2^23 in sig) lands in the exponent field; a carry moves it up by one
    const r = ((e - 1) << 23) + sig;
    if (r >>> 23 === 0) L[out] = bh ? rSign & SIGN : nanBits;
    else L[out] = nanBits !== 0 ? nanBits | r : r | (rSign & SIGN);
  }
}
