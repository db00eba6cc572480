/**
 * Conversions: SFP_STOCH_RND (FP32 -> FP16A/FP16B, FP32 -> [U]INT8/[U]INT16, INT32 -> [U]INT8) and
 * SFPCAST (sign-magnitude INT32 -> FP32; Blackhole adds INT32 abs and two's-complement ->
 * sign-magnitude) — tt-isa-documentation WormholeB0 SFPSTOCHRND_*.md, SFPCAST.md and BlackholeA0
 * SFPSTOCHRND_*.md, SFPCAST_*.md.
 *
 * Rounding: SFP_STOCH_RND's "nearest" compares the discarded bits against 0x400000, so ties round
 * away from zero (on the magnitude); SFPCAST rounds ties to even (SFPU-NOTES.md B5). Stochastic
 * rounding uses AdvancePRNG. Like ttsim (SFPU-NOTES.md A3, and the Blackhole page), every
 * SFP_STOCH_RND advances the PRNG of each enabled lane, whatever the rounding mode.
 */
import { LANES, stepPrng, type TensixState } from '../state.ts';

/**
 * SFP_STOCH_RND. `rnd`: 0 nearest, 1 stochastic, 2 toward zero (BH only). `mod1` 0..7 plus bit 3
 * (UseImm5) for the int->int modes; `imm5` the shift of those modes, `vb` its register alternative.
 */
export function sfpstochrnd(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  vb: number,
  mod1: number,
  rnd: number,
  imm5: number,
): void {
  const L = st.lreg;
  const bh = st.arch === 'blackhole';
  const m = mod1 & 7;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const p = st.prng[l]!;
    st.prng[l] = stepPrng(p);
    let bits = p & 0x7fffff;
    if (rnd === 0) bits = 0x400000;
    else if (rnd === 2) bits = 0x7fffff;
    const c = L[vc * LANES + l]!;
    let out: number;
    if (m <= 1) {
      const e = (c >>> 23) & 0xff;
      if (e === 0) out = 0;
      else if (e === 255) out = (c & 0xff800000) >>> 0;
      else {
        const keep = m === 0 ? 13 : 16; // FP16A keeps 10 mantissa bits, FP16B keeps 7
        const disc = c & ((1 << keep) - 1);
        out = c - disc;
        const up = bh ? disc >= bits >>> (23 - keep) : disc * (1 << (23 - keep)) >= bits;
        if (up) out += 1 << keep;
        out >>>= 0;
      }
    } else if (m === 4 || m === 5) {
      // INT32 (sign-magnitude) -> UINT8 / INT8 with a right shift
      let sign = c & 0x80000000;
      const shift = mod1 & 8 ? imm5 : L[vb * LANES + l]! & 31;
      const mag0 = c & 0x7fffffff;
      // (mag << 23) >> shift, split into integer part and 23 fraction bits without 64-bit integers
      const scaled = mag0 * 8388608;
      const q = Math.floor(scaled / 2 ** shift);
      const hi = Math.floor(q / 8388608);
      const lo = q - hi * 8388608;
      let mag = hi + (lo >= bits ? 1 : 0);
      if (m === 4) {
        if (mag > 255) mag = 255;
        sign = 0;
      } else {
        if (mag > 127) mag = 127;
        if (mag === 0) sign = 0;
      }
      out = (sign | mag) >>> 0;
    } else {
      // FP32 -> sign-magnitude integer: 2 UINT8, 3 INT8, 6 UINT16, 7 INT16
      const keepSign = m & 1;
      const max = m === 2 ? 255 : m === 3 ? 127 : m === 6 ? 65535 : 32767;
      let sign = keepSign ? c & 0x80000000 : 0;
      const e = ((c >>> 23) & 0xff) - 127;
      let mag: number;
      if (e < -1) {
        mag = 0;
        sign = 0;
      } else if (e >= 16) {
        mag = max;
      } else {
        const man = 0x800000 | (c & 0x7fffff);
        const v = e >= 0 ? man * 2 ** e : man / 2; // exact: < 2^39, or a half-integer
        const hi = Math.floor(v / 8388608);
        const lo = v - hi * 8388608; // 23 fraction bits (e = -1 drops the lowest bit, as >> 1 does)
        mag = hi + (Math.floor(lo) >= bits ? 1 : 0);
        if (mag > max) mag = max;
        if (mag === 0) sign = 0;
      }
      out = (sign | mag) >>> 0;
    }
    L[vd * LANES + l] = out;
  }
}

/**
 * SFPCAST. Mod1 0: sign-magnitude INT32 -> FP32, round to nearest even; 1: the same with
 * stochastic rounding (7 PRNG bits); BH 2: INT32 absolute value; BH 3: two's complement ->
 * sign-magnitude.
 */
export function sfpcast(st: TensixState, mask: number, vd: number, vc: number, mod1: number): void {
  const L = st.lreg;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const c = L[vc * LANES + l]!;
    let d: number;
    if (mod1 === 3) {
      const s = c & 0x80000000;
      d = (s | (s ? -c : c)) >>> 0;
    } else if (mod1 === 2) {
      d = c >= 0x80000000 ? -c >>> 0 : c;
    } else {
      const sign = c & 0x80000000;
      const mag = c & 0x7fffffff;
      const lz = mag ? Math.clz32(mag) : 157;
      const norm = (mag << (lz & 31)) >>> 0;
      d = (sign + ((157 - lz) << 23) + (norm >>> 8)) >>> 0;
      if (mod1 & 1) {
        const p = st.prng[l]!;
        st.prng[l] = stepPrng(p);
        if ((norm & 0xfe) > ((p >>> 9) & 0xfe)) d = (d + 1) >>> 0;
      } else if (norm & 0x80 && norm & 0x17f) {
        d = (d + 1) >>> 0;
      }
    }
    L[vd * LANES + l] = d;
  }
}
