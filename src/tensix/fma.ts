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

const SCRATCH = new Uint32Array(4);

/** Shift right by s (> 0); if anything non-zero remains, OR in whether any 1 bits were lost. */
function semiSticky(v: number, s: number): number {
  if (s >= 32) return 0;
  const r = v >>> s;
  if (r === 0) return 0;
  return v << (32 - s) !== 0 ? r | 1 : r; // any of the s low bits set (int32-only arithmetic)
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

/** x*y + z on Wormhole B0 (ttsim fma_model_wh). */
export function fmaWh(x: number, y: number, z: number): number {
  SCRATCH[0] = x;
  SCRATCH[1] = y;
  SCRATCH[2] = z;
  fmaWhLanes(SCRATCH, 1, 0, 0, 1, 0, 2, 0, 3, 0);
  return SCRATCH[3]!;
}

/**
 * The Wormhole B0 multiply-add over the lanes of `mask`: for each enabled lane l,
 * L[d+l] = (L[a+sa*l] ^ negA) * L[b+sb*l] + (L[c+sc*l] ^ negC), where `flip` bit 0 negates A and bit 1 negates C
 * (strides are 1 for registers, 0 for a broadcast operand). The lane loop is inside so that the
 * 32-bit patterns never cross a call boundary.
 */
export function fmaWhLanes(
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
): void {
  const negA = (flip & 1) << 31;
  const negC = (flip & 2) << 30;
  for (let l = 0; l < 32; l++) {
    if (!((mask >>> l) & 1)) continue;
    const x = L[a + sa * l]! ^ negA;
    const y = L[b + sb * l]!;
    const z = L[c + sc * l]! ^ negC;
    const id = d + l;
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
        L[id] = z | 0;
        continue;
      } else {
        L[id] = ps | 0x7f800000 | 0;
        continue;
      }
      if (pe > 255) pe = 255;
    }

    if (pm === 0 || pe < 0) {
      if (nan === 0) {
        L[id] = zm !== 0 ? z | 0 : 0;
        continue;
      }
      pm = 0;
      pe = 0;
    }

    let re = Math.max(pe, ze);
    if (pe < re) pm = semiSticky(pm, re - pe);
    if (ze < re) {
      zm = semiSticky(zm, re - ze);
      ze = re;
    }
    // Signed magnitude add: same signs add, otherwise the larger minus the smaller keeps its sign
    // (ttsim forms this as a one's-complement sum plus one; the result is the same).
    let rs = ps;
    let rm: number;
    if (ps === zs) rm = pm + zm;
    else if (pm >= zm) rm = pm - zm;
    else {
      rm = zm - pm;
      rs = zs;
    }
    if (rm === 0) {
      L[id] = nan | 0;
      continue;
    }

    const n = 5 - Math.clz32(rm);
    re += n;
    if (re >= 255) {
      L[id] = (nan !== 0 ? nan : rs | 0x7f800000) | 0;
      continue;
    }
    if (re < 0) {
      // blatant denormal: flushed before rounding, sign dropped
      L[id] = nan | 0;
      continue;
    }
    if (n <= 0) rm = rm << -n;
    else rm = (rm >>> n) | (rm & 1);
    let r = (re << 23) + ((rm >>> 3) & 0x7fffff);
    if ((rm & 7) + (r & 1) > 4) r++;
    if (r >>> 23 === 0) {
      // denormal after rounding: +0 (or the NaN)
      L[id] = nan | 0;
      continue;
    }
    L[id] = (nan !== 0 ? nan : rs) | r | 0;
  }
}

/** x*y + z on Blackhole (ttsim fma_model_bh). */
export function fmaBh(x: number, y: number, z: number): number {
  SCRATCH[0] = x;
  SCRATCH[1] = y;
  SCRATCH[2] = z;
  fmaBhLanes(SCRATCH, 1, 0, 0, 1, 0, 2, 0, 3, 0);
  return SCRATCH[3]!;
}

/**
 * The Blackhole multiply-add over the lanes of `mask`: for each enabled lane l,
 * L[d+l] = (L[a+sa*l] ^ negA) * L[b+sb*l] + (L[c+sc*l] ^ negC), where `flip` bit 0 negates A and bit 1 negates C
 * (strides are 1 for registers, 0 for a broadcast operand). The lane loop is inside so that the
 * 32-bit patterns never cross a call boundary.
 */
export function fmaBhLanes(
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
): void {
  const negA = (flip & 1) << 31;
  const negC = (flip & 2) << 30;
  for (let l = 0; l < 32; l++) {
    if (!((mask >>> l) & 1)) continue;
    const x = L[a + sa * l]! ^ negA;
    const y = L[b + sb * l]!;
    const z = L[c + sc * l]! ^ negC;
    const id = d + l;
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
        L[id] = 0x7fc00000;
        continue;
      }
      if (ze === 255) {
        L[id] = z | 0;
        continue;
      }
      L[id] = ps | 0x7f800000 | 0;
      continue;
    }

    if (pm === 0 || pe < 0) {
      L[id] = zm !== 0 ? z | 0 : (zs & ps) | 0;
      continue;
    }

    let re = Math.max(pe, ze);
    if (pe < re) pm = semiSticky(pm, re - pe);
    if (ze < re) {
      zm = semiSticky(zm, re - ze);
      ze = re;
    }
    // Signed magnitude add: same signs add, otherwise the larger minus the smaller keeps its sign
    // (ttsim forms this as a one's-complement sum plus one; the result is the same).
    let rs = ps;
    let rm: number;
    if (ps === zs) rm = pm + zm;
    else if (pm >= zm) rm = pm - zm;
    else {
      rm = zm - pm;
      rs = zs;
    }
    if (rm === 0) {
      L[id] = (zs & ps) | 0;
      continue;
    }

    let n = 5 - Math.clz32(rm);
    re += n;
    if (re >= 255) {
      L[id] = rs | 0x7f800000 | 0;
      continue;
    }
    if (re <= 0) {
      n += 1;
      re = 0;
    }
    if (n <= 0) rm = rm << -n;
    else rm = (rm >>> n) | ((rm & (n | 1)) !== 0 ? 1 : 0);
    let r = (re << 23) + ((rm >>> 3) & 0x7fffff);
    if ((rm & 7) + (r & 1) > 4) r++;
    if (r >>> 23 === 0) r = 0; // flush denormals after rounding, keeping the sign
    L[id] = rs | r | 0;
  }
}
