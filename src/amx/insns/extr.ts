/**
 * extrx / extrh (opcode 8) and extry / extrv (opcode 9), per corsix/amx extr_x.md, extr_y.md,
 * extr_h.md, extr_v.md. Opcode 8 with bit 27 = 1 and bit 26 = 0 is extrx (copy a Y register to an X
 * register); opcode 9 likewise is extry. Otherwise bit 26 chooses between the older form (26 = 0:
 * plain row/column moves with a 7-bit enable) and the newer one (26 = 1: lane-width modes from bit 63
 * and bits 11-14, integer shift/saturate or f32 -> f16/bf16 narrowing, 9-bit enable, destination X
 * or Y by bit 10, and on M2+ bit 31 repeats over 2 or 4 vectors).
 */
import { writemask } from '../common.ts';
import { bf16FromF32Bits, f16FromF32Bits } from '../fp.ts';
import type { AmxState } from '../state.ts';

const buffer = new Uint8Array(64);
const enable = new Uint8Array(64);

/** Lane-width decode of the 26 = 1 form: [xyBytes, zBytes, stride]. */
export function widths(ver: number, lo: number, hi: number): number {
  const key = ((hi >>> 31) << 4) | ((lo >>> 11) & 15);
  // packed as xy | z << 4 | stride << 8
  switch (key) {
    case 0:
      return 1 | (1 << 4);
    case 8:
      return 4 | (4 << 4);
    case 9:
      return 2 | (4 << 4) | (1 << 8);
    case 10:
      return 2 | (4 << 4) | (2 << 8);
    case 11:
      return 1 | (4 << 4) | (1 << 8);
    case 13:
      return 1 | (2 << 4) | (1 << 8);
    case 17:
      return 8 | (8 << 4);
    case 24:
      return 4 | (4 << 4);
    case 25:
      return ver >= 2 ? 2 | (4 << 4) | (1 << 8) : 2 | (2 << 4);
    case 26:
      return ver >= 2 ? 2 | (4 << 4) | (2 << 8) : 2 | (2 << 4);
    default:
      return 2 | (2 << 4);
  }
}

/**
 * The per-lane transform of the mixed-width modes: bit 63 = 1 narrows f32 to f16 (or bf16 when
 * bit 62 is set); otherwise an optionally rounding (bit 54) right shift by bits 58-62, then optional
 * saturation (bit 55) to `outBits` as signed (bit 56) or unsigned, from signed (bit 57) or unsigned Z.
 */
function extrAlu(val: number, hi: number, outBits: number): number {
  const shift = (hi >>> 26) & 31;
  if (hi >>> 31) {
    const b = val >>> 0;
    return shift >= 16 ? bf16FromF32Bits(b) : f16FromF32Bits(b);
  }
  if (shift !== 0 && (hi >>> 22) & 1) val += 2 ** (shift - 1);
  val = Math.floor(val / 2 ** shift);
  if ((hi >>> 23) & 1) {
    const signedOut = (hi >>> 24) & 1;
    const bits = signedOut ? outBits - 1 : outBits;
    const top = 2 ** bits;
    if ((hi >>> 25) & 1) {
      const low = signedOut ? -top : 0;
      if (val < low) val = low;
      if (val >= top) val = top - 1;
    } else if (val >= top) {
      val = top - 1;
    }
  }
  return val;
}

function loadZ(z: Uint8Array, off: number, bytes: number, signed: boolean): number {
  switch (bytes) {
    case 1:
      return signed ? (z[off]! << 24) >> 24 : z[off]!;
    case 2: {
      const v = z[off]! | (z[off + 1]! << 8);
      return signed ? (v << 16) >> 16 : v;
    }
    case 4: {
      const v = z[off]! | (z[off + 1]! << 8) | (z[off + 2]! << 16) | (z[off + 3]! << 24);
      return signed ? v : v >>> 0;
    }
    default:
      return 0; // 8-byte lanes never go through the ALU; copied bytewise by the caller
  }
}

function storeBuf(off: number, bytes: number, v: number): void {
  // Truncating little-endian store of an integer-valued double (ToInt32 is exact modulo 2^32).
  const w = v | 0;
  buffer[off] = w & 255;
  if (bytes === 2) buffer[off + 1] = (w >>> 8) & 255;
}

function storeRow(dst: Uint8Array, off: number): void {
  for (let i = 0; i < 64; i++) if (enable[i] !== 0) dst[(off + i) & 0x1ff] = buffer[i]!;
}

/** Copies `bytes` bytes of Z at zoff into buffer at boff, or runs the ALU when `stride` says so. */
function lane(
  s: AmxState,
  zoff: number,
  boff: number,
  xy: number,
  zb: number,
  stride: number,
  hi: number,
): void {
  if (stride === 0) {
    // Same width: a byte copy (the value's low xy bytes).
    for (let k = 0; k < xy; k++) buffer[boff + k] = s.z[zoff + k]!;
    return;
  }
  const v = loadZ(s.z, zoff, zb, ((hi >>> 25) & 1) === 1);
  storeBuf(boff, xy, extrAlu(v, hi, xy * 8));
}

export function execExtrH(s: AmxState, lo: number, hi: number): void {
  execExtr(s, lo, hi, true);
}

export function execExtrV(s: AmxState, lo: number, hi: number): void {
  execExtr(s, lo, hi, false);
}

/** extrh (horizontal: Z rows, into X) and extrv (vertical: Z columns, into Y), opcodes 8 / 9. */
function execExtr(s: AmxState, lo: number, hi: number, horizontal: boolean): void {
  if ((lo >>> 26) & 1) {
    extrNew(s, lo, hi, horizontal);
    return;
  }
  if ((lo >>> 27) & 1) {
    // extrx: x[(op >> 16) & 7] = y[(op >> 20) & 7]; extry: y[(op >> 6) & 7] = x[(op >> 20) & 7]
    const d = (lo >>> (horizontal ? 16 : 6)) & 7;
    const src = ((lo >>> 20) & 7) * 64;
    if (horizontal) s.x.set(s.y.subarray(src, src + 64), d * 64);
    else s.y.set(s.x.subarray(src, src + 64), d * 64);
    return;
  }
  // Older form: lane width 8 >> bits 28-29 (1 byte means 16-bit lanes, low bytes only), 7-bit
  // enable at bit 41 (extrh) or 32 (extrv).
  let xy = 8 >>> ((lo >>> 28) & 3);
  let evenOnly = false;
  if (xy === 1) {
    xy = 2;
    evenOnly = true;
  }
  writemask(enable, horizontal ? hi >>> 9 : hi, xy, 7);
  if (evenOnly) for (let i = 1; i < 64; i += 2) enable[i] = 0;
  const sel = (lo >>> 20) & 63;
  if (horizontal) {
    // X <- Z row
    buffer.set(s.z.subarray(sel * 64, sel * 64 + 64));
    storeRow(s.x, (lo >>> 10) & 0x1ff);
    return;
  }
  // Y <- Z column: lane j (of xy bytes) comes from Z row (j & ~(xy-1)) | (zcol & (xy-1)),
  // bytes zcol & -xy.
  const colByte = sel & -xy;
  for (let j = 0; j < 64; j += xy) {
    const row = (j & ~(xy - 1)) | (sel & (xy - 1));
    for (let k = 0; k < xy; k++) buffer[j + k] = s.z[row * 64 + colByte + k]!;
  }
  if ((hi & 0x1ff) === 3) buffer.fill(0);
  storeRow(s.y, lo & 0x1ff);
}

/** The 26 = 1 form of extrh (horizontal: a Z row) or extrv (vertical: a Z column). */
function extrNew(s: AmxState, lo: number, hi: number, horizontal: boolean): void {
  const dst = (lo >>> 10) & 1 ? s.y : s.x;
  let dstOff = lo & 0x1ff;
  const w = widths(s.ver, lo, hi);
  const xy = w & 15;
  const zb = (w >>> 4) & 15;
  const stride = w >>> 8;
  let sel = (lo >>> 20) & 63;
  let step = 64;
  let maskField = hi & 0x1ff;
  if (s.ver >= 2 && (lo >>> 31) & 1) {
    maskField = 0;
    step = sel & 32 ? 16 : 32;
    if (s.ver >= 4) dstOff &= ~63;
  }
  writemask(enable, maskField, xy, 9);
  const zeroAll = maskField === 3;
  for (sel &= step - 1; sel <= 63; sel += step) {
    for (let i = 0; i < 64; i += xy) {
      const sub = (((i & (zb - 1)) / xy) | 0) * stride;
      let zoff: number;
      if (horizontal) {
        const row = (sel & ~(zb - 1)) | ((sel + sub) & (zb - 1));
        zoff = row * 64 + (i & -zb);
      } else {
        const row = (i & ~(zb - 1)) | ((sel + sub) & (zb - 1));
        zoff = row * 64 + (sel & -zb);
      }
      lane(s, zoff, i, xy, zb, stride, hi);
    }
    if (zeroAll) buffer.fill(0);
    storeRow(dst, dstOff & 0x1ff);
    dstOff += 64;
  }
}
