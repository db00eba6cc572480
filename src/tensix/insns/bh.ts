/**
 * Blackhole-only arithmetic: SFPMUL24 and SFPARECIP (jasondavies/tt-isa-documentation BlackholeA0
 * SFPMUL24.md, SFPARECIP.md; ttsim agrees on the modes it implements, SFPU-NOTES.md C1; it refuses
 * SFPARECIP's Mod1 >= 1, so COND_RECIP and EXP follow the page).
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

/**
 * The 896-entry table of SFPARECIP's ApproxExp, one entry per BF16 input 0x3c80..0x3fff
 * (2^-6 <= x < 2). Entry i is e^x for x = the BF16 value 0x3c80 + i, truncated to BF16 and taken
 * relative to 0x3f80 (1.0) below 0x3f32 and to 0x4000 (2.0) from there on: i.e. the low 8 bits of
 * trunc_bf16(e^x) - base (entries >= 128 carry into the exponent, giving 4.0..8.0). This reproduces
 * all 896 entries listed in BlackholeA0 SFPARECIP.md (checked entry by entry in the tests; the
 * nearest e^x comes to a truncation boundary is 1.3e-3 of a BF16 step, far above Math.exp's error).
 */
export const EXP_LUT: Uint8Array = (() => {
  const t = new Uint8Array(896);
  const view = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < 896; i++) {
    const h = 0x3c80 + i;
    view.setUint32(0, h << 16);
    const x = view.getFloat32(0);
    view.setFloat64(0, Math.exp(x));
    const hi = view.getUint32(0); // sign 0, 11-bit exponent, top 20 mantissa bits
    const bf16 = ((((hi >>> 20) - 1023 + 127) << 7) | ((hi >>> 13) & 0x7f)) >>> 0;
    t[i] = bf16 - (h < 0x3f32 ? 0x3f80 : 0x4000);
  }
  return t;
})();

/** ApproxExp on a non-negative FP32 pattern (SFPARECIP.md); the low 16 bits of x pass through. */
export function approxExp(x: number): number {
  if (x < 0x00800000) return 0x3f800000;
  const lo = x & 0xffff;
  if (x < 0x3c800000) return (0x3f810000 | lo) >>> 0;
  if (x < 0x3f320000) return (0x3f800000 | (EXP_LUT[(x >>> 16) - 0x3c80]! << 16) | lo) >>> 0;
  if (x < 0x40000000) return (0x40000000 | (EXP_LUT[(x >>> 16) - 0x3c80]! << 16) | lo) >>> 0;
  return (0x40800000 | lo) >>> 0;
}

/**
 * SFPARECIP (SFPARECIP.md): Mod1 0 (RECIP): VD = sign(x) * ApproxRecip(|x|); Mod1 1 (COND_RECIP):
 * only where LReg[VB] < 0, result without sign; any other Mod1 (EXP, the page's `default:`):
 * VD = sign(x) * ApproxExp(|x|).
 */
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
    else if (mod1 === 1) {
      if ((L[vb * LANES + l]! | 0) < 0) x = approxRecip((x & 0x7fffffff) >>> 0);
    } else x = (s | approxExp((x & 0x7fffffff) >>> 0)) >>> 0;
    L[vd * LANES + l] = x;
  }
}
