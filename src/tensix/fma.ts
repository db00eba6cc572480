/**
 * The Vector Unit's multiply-add, bit-exact per generation, on raw FP32 bit patterns.
 *
 * Behaviour follows the models of tenstorrent/ttsim `src/fma.cpp` (`fma_model_wh`, `fma_model_bh`),
 * which Tenstorrent validates against silicon (SFPU-NOTES.md A5, A6, B1-B3, C2):
 * - denormal inputs count as zero;
 * - the 48-bit product keeps 26 fraction bits (23 + guard/round/sticky), everything below folded
 *   into a sticky bit; a product below 2^-126 is dropped and the result is C unchanged;
 * - alignment with C uses a "semi-sticky" shift (sticky only if something non-zero is left);
 * - one round-to-nearest-even step after normalisation;
 * - WH: zero/denormal results become +0, NaNs are sign|0x7f800001 with datapath bits OR'd in;
 *   BH: denormal results are rounded then flushed keeping the sign, NaN is 0x7fc00000.
 * Everything is exact 32-bit integer arithmetic; nothing depends on the host's floating-point
 * rounding.
 */

/** Shift right by s (> 0); if anything non-zero remains, OR in whether any 1 bits were lost. */
function semiSticky(v: number, s: number): number {
  if (s >= 32) return 0;
  const r = v >>> s;
  if (r === 0) return 0;
  return (v & ((1 << s) - 1)) !== 0 ? r | 1 : r;
}

/**
 * The 48-bit product of two 24-bit mantissas shifted right by 20 (i.e. 26 fraction bits once the
 * 3 guard bits are counted), with every bit shifted out OR'd into bit 0. Uses 12-bit halves so that
 * everything stays in exact 32-bit integer arithmetic.
 */
function productHi(xm: number, ym: number): number {
  const xh = xm >>> 12;
  const xl = xm & 0xfff;
  const yh = ym >>> 12;
  const yl = ym & 0xfff;
  const mid = xh * yl + xl * yh; // < 2^25
  const t = xl * yl + ((mid & 0xfff) << 12); // < 2^25
  const upper = xh * yh + (mid >>> 12) + (t >>> 24); // product = upper * 2^24 + (t & 0xffffff)
  const hi = (upper << 4) | ((t >>> 20) & 15);
  return t & 0xfffff ? hi | 1 : hi;
}

/**
 * L[id] = (L[ia] ^ negA) * L[ib] + (L[ic] ^ negC) on Wormhole B0 (ttsim fma_model_wh); `flip` bit 0
 * negates A, bit 1 negates C. Operands and result stay in the typed array, so the 32-bit patterns
 * never cross a call boundary as boxed numbers.
 */
export function fmaWhL(L: Uint32Array, ia: number, ib: number, ic: number, flip: number, id: number): void {
  L[id] = fmaWhCore(L[ia]! ^ ((flip & 1) << 31), L[ib]!, L[ic]! ^ ((flip & 2) << 30));
}

/** x*y + z on Wormhole B0 (ttsim fma_model_wh). */
export function fmaWh(x: number, y: number, z: number): number {
  return fmaWhCore(x, y, z) >>> 0;
}

function fmaWhCore(x: number, y: number, z: number): number {
  const xe = (x >>> 23) & 255;
  const ye = (y >>> 23) & 255;
  let ze = (z >>> 23) & 255;
  const xm = xe === 0 ? 0 : (x & 0x7fffff) | 0x800000;
  const ym = ye === 0 ? 0 : (y & 0x7fffff) | 0x800000;
  let zm = ze === 0 ? 0 : ((z & 0x7fffff) | 0x800000) << 3;
  const zs = z & 0x80000000;
  const ps = (x ^ y) & 0x80000000;
  let pm = productHi(xm, ym);
  let pe = xe + ye - 127;

  let nan = 0;
  if (xe === 255 || ye === 255 || pe >= 255 || ze === 255) {
    if (
      (xe === 255 && (xm !== 0x800000 || ym === 0)) ||
      (ye === 255 && (ym !== 0x800000 || xm === 0)) ||
      (ze === 255 && zm === 0x4000000 && (xe === 255 || ye === 255 || pe >= 255) && zs !== ps)
    ) {
      nan = ps | 0x7f800001;
    } else if (ze === 255 && zm !== 0x4000000) {
      nan = zs | 0x7f800001;
    } else if (ze === 255) {
      return z | 0;
    } else {
      return ps | 0x7f800000 | 0;
    }
    if (pe > 255) pe = 255;
  }

  if (pm === 0 || pe < 0) {
    if (nan === 0) return zm !== 0 ? z | 0 : 0;
    pm = 0;
    pe = 0;
  }

  let re = Math.max(pe, ze);
  if (pe < re) pm = semiSticky(pm, re - pe);
  if (ze < re) {
    zm = semiSticky(zm, re - ze);
    ze = re;
  }
  const rs = pm >= zm ? ps : zs;
  const a = zs !== rs ? ~zm : zm;
  const b = ps !== rs ? ~pm : pm;
  let rm = (a + b + (ps !== zs ? 1 : 0)) | 0;
  if (rm === 0) return nan | 0;

  const n = 5 - Math.clz32(rm);
  re += n;
  if (re >= 255) return (nan !== 0 ? nan : rs | 0x7f800000) | 0;
  if (re < 0) return nan | 0; // blatant denormal: flushed before rounding, sign dropped
  if (n <= 0) rm = rm << -n;
  else rm = (rm >>> n) | (rm & 1);
  let r = (re << 23) + ((rm >>> 3) & 0x7fffff);
  if ((rm & 7) + (r & 1) > 4) r++;
  if (r >>> 23 === 0) return nan | 0; // denormal after rounding: +0 (or the NaN)
  return (nan !== 0 ? nan : rs) | r | 0;
}

/** The Blackhole counterpart of fmaWhL (ttsim fma_model_bh). */
export function fmaBhL(L: Uint32Array, ia: number, ib: number, ic: number, flip: number, id: number): void {
  L[id] = fmaBhCore(L[ia]! ^ ((flip & 1) << 31), L[ib]!, L[ic]! ^ ((flip & 2) << 30));
}

/** x*y + z on Blackhole (ttsim fma_model_bh). */
export function fmaBh(x: number, y: number, z: number): number {
  return fmaBhCore(x, y, z) >>> 0;
}

function fmaBhCore(x: number, y: number, z: number): number {
  const xe = (x >>> 23) & 255;
  const ye = (y >>> 23) & 255;
  let ze = (z >>> 23) & 255;
  const xm = xe === 0 ? 0 : (x & 0x7fffff) | 0x800000;
  const ym = ye === 0 ? 0 : (y & 0x7fffff) | 0x800000;
  let zm = ze === 0 ? 0 : ((z & 0x7fffff) | 0x800000) << 3;
  const zs = z & 0x80000000;
  const ps = (x ^ y) & 0x80000000;
  let pm = productHi(xm, ym);
  const pe = xe + ye - 127;

  if (xe === 255 || ye === 255 || pe >= 255 || ze === 255) {
    if (
      (xe === 255 && (xm !== 0x800000 || ym === 0)) ||
      (ye === 255 && (ym !== 0x800000 || xm === 0)) ||
      (ze === 255 && zm !== 0x4000000) ||
      (ze === 255 && (xe === 255 || ye === 255) && zs !== ps)
    ) {
      return 0x7fc00000;
    }
    if (ze === 255) return z | 0;
    return ps | 0x7f800000 | 0;
  }

  if (pm === 0 || pe < 0) return zm !== 0 ? z | 0 : (zs & ps) | 0;

  let re = Math.max(pe, ze);
  if (pe < re) pm = semiSticky(pm, re - pe);
  if (ze < re) {
    zm = semiSticky(zm, re - ze);
    ze = re;
  }
  const rs = pm >= zm ? ps : zs;
  const a = zs !== rs ? ~zm : zm;
  const b = ps !== rs ? ~pm : pm;
  let rm = (a + b + (ps !== zs ? 1 : 0)) | 0;
  if (rm === 0) return (zs & ps) | 0;

  let n = 5 - Math.clz32(rm);
  re += n;
  if (re >= 255) return rs | 0x7f800000 | 0;
  if (re <= 0) {
    n += 1;
    re = 0;
  }
  if (n <= 0) rm = rm << -n;
  else rm = (rm >>> n) | ((rm & (n | 1)) !== 0 ? 1 : 0);
  let r = (re << 23) + ((rm >>> 3) & 0x7fffff);
  if ((rm & 7) + (r & 1) > 4) r++;
  if (r >>> 23 === 0) r = 0; // flush denormals after rounding, keeping the sign
  return rs | r | 0;
}
