/**
 * matint (opcode 20), per corsix/amx matint.md: outer-product integer ops z[j][i] = f(x[i], y[j],
 * z[j][i]) with ALU modes 0-3, 5, 6, 8 (i8 x i8 -> i16/i32, and i8 x i16 -> i32 on M3+), 9 (XNOR
 * popcount), mode 4 rewriting Z alone (rounding shift + saturation), 9-bit enable applied to X or to
 * Y (bit 25), indexed loads (bit 54 then selects mode 8), shuffles and signedness bits 63 / 26.
 */
import { indexedLoad, loadXY, shuffle, writemask } from '../common.ts';
import type { AmxState } from '../state.ts';
import { intAlu, intAluMode4, loadInt, storeInt } from './intalu.ts';

const xb = new Uint8Array(64);
const yb = new Uint8Array(64);
const en = new Uint8Array(64);
const xi8 = new Int8Array(xb.buffer);
const yi8 = new Int8Array(yb.buffer);

export function execMatint(s: AmxState, lo: number, hi: number): void {
  if ((hi >>> 23) & 3) return; // bits 55-56 must be zero
  const indexed = (hi >>> 21) & 1;
  const b54 = (hi >>> 22) & 1;
  if (b54 && !indexed) return;
  const zrow = (lo >>> 20) & 3;
  const zeroOut = (hi & 0x1ff) === 3;
  const alu = indexed ? (b54 ? 8 : 0) : (hi >>> 15) & 0x3f;
  let shift = (hi >>> 26) & 31;
  const lwm = (hi >>> 10) & 15;
  const enableY = ((lo >>> 25) & 1) === 1;
  let xBits = 16;
  let yBits = 16;
  let zBits = 16;
  if (alu === 4) {
    let sat = 16;
    if (lwm === 3) zBits = 32;
    else if (lwm === 4) {
      zBits = 32;
      sat = 32;
    } else if (lwm === 10) {
      zBits = 32;
      sat = 8;
    } else if (lwm === 11) sat = 8;
    const zb = zBits >>> 3;
    writemask(en, hi, zb, 9);
    const zSigned = hi >>> 31 === 1;
    for (let j = 0; j < 64; j += zb) {
      const row = (j & ~(zb - 1)) | (zrow & (zb - 1));
      for (let i = 0; i < 64; i += zb) {
        if (en[enableY ? j : i] === 0) continue;
        const off = row * 64 + i;
        const v = intAluMode4(loadInt(s.z, off, zb, zSigned), sat, lo, hi);
        storeInt(s.z, off, zb, zeroOut ? 0 : v);
      }
    }
    return;
  }
  if (alu === 5 || alu === 6) {
    shift = 15;
  } else if (alu === 8) {
    xBits = 8;
    yBits = 8;
    if (lwm === 10) zBits = 32;
    else if (lwm === 12 && s.ver >= 3) {
      yBits = 16;
      zBits = 32;
    }
  } else if (alu === 9) {
    if (lwm === 3) zBits = 32;
    else if (lwm === 4) {
      xBits = 32;
      yBits = 32;
      zBits = 32;
    }
    shift = 64 - xBits;
  } else if (alu === 7 || alu >= 10) {
    return;
  } else if (lwm === 3) {
    zBits = 32;
  }
  const xBytes = xBits >>> 3;
  const yBytes = yBits >>> 3;
  const zBytes = zBits >>> 3;
  loadXY(xb, s.x, (lo >>> 10) & 0x1ff);
  loadXY(yb, s.y, lo & 0x1ff);
  if (indexed) {
    const src = ((hi >>> 17) & 7) * 64;
    const ibits = (hi >>> 16) & 1 ? 4 : 2;
    if ((hi >>> 15) & 1) indexedLoad(yb, s.y, src, ibits, yBits);
    else indexedLoad(xb, s.x, src, ibits, xBits);
  }
  shuffle(xb, (lo >>> 29) & 3, xBytes);
  shuffle(yb, (lo >>> 27) & 3, yBytes);
  writemask(en, hi, enableY ? yBytes : xBytes, 9);
  if (((hi >>> 6) & 7) === 0) {
    const v = hi & 0x3f;
    if (v === 4 || v === 5) (enableY ? yb : xb).fill(0);
  }
  const xSigned = hi >>> 31 === 1;
  const ySigned = ((lo >>> 26) & 1) === 1;
  const zmask = zBytes / xBytes - 1;
  const step = xBytes === 1 ? zBytes : xBytes;
  if (alu === 8 && shift === 0 && xBytes === 1 && yBytes === 1 && !zeroOut) {
    mac8(s, zBytes, step, zmask, enableY, xSigned, ySigned);
    return;
  }
  for (let j = 0; j < 64; j += step) {
    if (enableY && en[j] === 0) continue;
    const yv = loadInt(yb, j, yBytes, ySigned);
    const inner = (j & ~(xBytes - 1)) | (zrow & (xBytes - 1));
    for (let i = 0; i < 64; i += xBytes) {
      if (!enableY && en[i] === 0) continue;
      const xv = loadInt(xb, i, xBytes, xSigned);
      const row = (inner & ~zmask) | ((i / xBytes) & zmask);
      const zoff = row * 64 + (i & -zBytes);
      const zv = loadInt(s.z, zoff, zBytes, true);
      const r = intAlu(xv, yv, zv, alu, shift, xBits);
      storeInt(s.z, zoff, zBytes, zeroOut ? 0 : r);
    }
  }
}

/** Mode 8 with i8 X and Y and no shift: z += x*y into i16 or i32 lanes (the common int8 GEMM form). */
function mac8(
  s: AmxState,
  zBytes: number,
  step: number,
  zmask: number,
  enableY: boolean,
  xSigned: boolean,
  ySigned: boolean,
): void {
  const z16 = s.zi16;
  const z32 = s.zi32;
  for (let j = 0; j < 64; j += step) {
    if (enableY && en[j] === 0) continue;
    const yv = ySigned ? yi8[j]! : yb[j]!;
    for (let i = 0; i < 64; i++) {
      if (!enableY && en[i] === 0) continue;
      const xv = xSigned ? xi8[i]! : xb[i]!;
      const row = (j & ~zmask) | (i & zmask);
      if (zBytes === 2) {
        const k = row * 32 + (i >>> 1);
        z16[k] = z16[k]! + xv * yv;
      } else {
        const k = row * 16 + (i >>> 2);
        z32[k] = (z32[k]! + xv * yv) | 0;
      }
    }
  }
}
