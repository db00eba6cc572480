/**
 * Integer lane helpers shared by vecint and matint (corsix/amx vecint.md / matint.md ALU modes).
 * Values are exact integers held in doubles (all products here are below 2^34 in magnitude).
 */

/** Reads a little-endian integer of `bytes` (1, 2 or 4) at b[off], sign- or zero-extended. */
export function loadInt(b: Uint8Array, off: number, bytes: number, signed: boolean): number {
  switch (bytes) {
    case 1:
      return signed ? (b[off]! << 24) >> 24 : b[off]!;
    case 2: {
      const v = b[off]! | (b[off + 1]! << 8);
      return signed ? (v << 16) >> 16 : v;
    }
    default: {
      const v = b[off]! | (b[off + 1]! << 8) | (b[off + 2]! << 16) | (b[off + 3]! << 24);
      return signed ? v : v >>> 0;
    }
  }
}

/** Stores the low `bytes` bytes of an integer-valued double (two's complement truncation). */
export function storeInt(b: Uint8Array, off: number, bytes: number, v: number): void {
  const w = v | 0; // ToInt32: exact reduction modulo 2^32
  b[off] = w & 255;
  if (bytes >= 2) b[off + 1] = (w >>> 8) & 255;
  if (bytes === 4) {
    b[off + 2] = (w >>> 16) & 255;
    b[off + 3] = (w >>> 24) & 255;
  }
}

function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 63;
}

/**
 * The binary integer ALU: 0 z + (x*y >> s), 1 z - (x*y >> s), 2 z + ((x+y) >> s), 3 z - ((x+y) >> s),
 * 5 / 6 sat_i16(z +/- ((x*y + 2^14) >> 15)) (SQRDMLAH / SQRDMLSH), 8 as 0, 9 z + popcount of the low
 * `bits` bits of ~(x ^ y), 10 x*y >> s (no z), 11 z + (x >> s), 12 z + (y >> s).
 */
export function intAlu(x: number, y: number, z: number, mode: number, shift: number, bits: number): number {
  let v = x * y;
  if (mode === 5 || mode === 6) v += 2 ** (shift - 1);
  else if (mode === 2 || mode === 3) v = x + y;
  else if (mode === 9) {
    const m = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
    return z + popcount32(~(x ^ y) & m);
  } else if (mode === 11) v = x;
  else if (mode === 12) v = y;
  v = Math.floor(v / 2 ** shift);
  if (mode === 1 || mode === 3 || mode === 6) v = -v;
  if (mode !== 10) v += z;
  if (mode === 5 || mode === 6) {
    if (v > 32767) v = 32767;
    if (v < -32768) v = -32768;
  }
  return v;
}

/**
 * ALU mode 4: z = [saturate]([rounding] z >> s). Bits: shift 58-62, rounding (vecint/matint bit 29),
 * saturate (bit 30), signed output (bit 26), signed Z (bit 63).
 */
export function intAluMode4(v: number, satBits: number, lo: number, hi: number): number {
  const shift = (hi >>> 26) & 31;
  if (shift !== 0 && (lo >>> 29) & 1) v += 2 ** (shift - 1);
  v = Math.floor(v / 2 ** shift);
  if ((lo >>> 30) & 1) {
    const signedOut = (lo >>> 26) & 1;
    const top = 2 ** (signedOut ? satBits - 1 : satBits);
    if (hi >>> 31) {
      const low = signedOut ? -top : 0;
      if (v < low) v = low;
      if (v >= top) v = top - 1;
    } else if (v >= top) {
      v = top - 1;
    }
  }
  return v;
}
