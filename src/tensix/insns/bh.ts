/**
 * Blackhole-only arithmetic: SFPMUL24 and SFPARECIP (jasondavies/tt-isa-documentation BlackholeA0
 * SFPMUL24.md, SFPARECIP.md; ttsim agrees on the modes it implements, SFPU-NOTES.md C1).
 */
import { LANES, type TensixState } from '../state.ts';

/** 23-bit products: Mod1 bit 0 clear -> (a*b) & 0x7fffff; set -> ((a & 0x7fffff) * (b & 0x7fffff)) >> 23. */
export function mul24(a: number, b: number, upper: boolean): number {
  if (!upper) return Math.imul(a, b) & 0x7fffff;
  const x = a & 0x7fffff;
  const y = b & 0x7fffff;
  // 46-bit product >> 23, exactly, via 12/11-bit splits of y.
  const yh = y >>> 12;
  const yl = y & 0xfff;
  const ph = x * yh; // < 2^34
  const pl = x * yl; // < 2^35
  return Math.floor((ph * 4096 + pl) / 8388608) & 0xffffffff;
}

/** Mul24ShiftAdd (SFPMUL24.md): fold a normal FP32 VC into the 23-bit product; VC = 0 leaves it unchanged. */
export function mul24ShiftAdd(pm: number, z: number): number {
  const ze = (z >>> 23) & 0xff;
  if (ze === 0) return pm;
  const pe = 129;
  const re = Math.max(pe, ze);
  const s = (re - ze) & 31;
  const zmGrs = (((1 << 23) + (z & 0x7fffff)) << 3) >>> 0;
  pm = pm >>> ((re - pe) & 31);
  const zm = zmGrs >>> s;
  if (zm) {
    pm = (pm + zm) >>> 0;
    pm = (pm + ((((zm << s) >>> 0) ^ zmGrs) >>> 0 > 0xffff ? 1 << 16 : 0)) >>> 0;
    pm &= 0x7fffff;
  }
  return pm;
}

export function sfpmul24(
  st: TensixState,
  mask: number,
  vd: number,
  va: number,
  vb: number,
  vc: number,
  mod1: number,
): void {
  const L = st.lreg;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const ra = mod1 & 4 ? L[7 * LANES + l]! & 15 : va;
    let d = mul24(L[ra * LANES + l]!, L[vb * LANES + l]!, (mod1 & 1) !== 0);
    d = mul24ShiftAdd(d, L[vc * LANES + l]!);
    const t = mod1 & 8 && vd !== 16 ? L[7 * LANES + l]! & 15 : vd;
    if (t < 8 || t === 16) L[t * LANES + l] = d >>> 0;
  }
}

/**
 * The 7-bit reciprocal table of SFPARECIP: entry i approximates the mantissa of 1/(1 + (i+0.5)/128),
 * i.e. round(256 / (1 + (i + 0.5)/128)) - 128. This formula reproduces the 128 entries listed on the
 * BlackholeA0 SFPARECIP.md page (checked entry by entry in the tests).
 */
export const RECIP_LUT: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (let i = 0; i < 128; i++) t[i] = Math.round(256 / (1 + (i + 0.5) / 128)) - 128;
  return t;
})();

/** ApproxRecip on a non-negative FP32 pattern: Inf below 2^-126, 0 from 2^126 up. */
export function approxRecip(x: number): number {
  if (x < 0x00800000) return 0x7f800000;
  if (x < 0x7e800000) return (((253 - (x >>> 23)) << 23) | (RECIP_LUT[(x >>> 16) & 0x7f]! << 16)) >>> 0;
  return 0;
}

/** SFPARECIP Mod1 0: VD = sign(x) * ApproxRecip(|x|); Mod1 1: only where LReg[VB] < 0, result without sign. */
export function sfparecip(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  vb: number,
  mod1: number,
): void {
  const L = st.lreg;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    let x = L[vc * LANES + l]!;
    const s = x & 0x80000000;
    if (mod1 === 0) x = (s | approxRecip((x & 0x7fffffff) >>> 0)) >>> 0;
    else if ((L[vb * LANES + l]! | 0) < 0) x = approxRecip((x & 0x7fffffff) >>> 0);
    L[vd * LANES + l] = x;
  }
}
