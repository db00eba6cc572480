/**
 * vecint (opcode 18), per corsix/amx vecint.md: pointwise integer ops on an X vector, a Y vector and
 * one Z row (or 2 / 4 interleaved rows for mixed widths), ALU modes 0-6 (and 10-12 on M2+), mode 4
 * rewriting Z alone with rounding shift and saturation, signedness bits 63 (X or Z) and 26 (Y or
 * saturation), indexed loads, shuffles, 9-bit enable / Y broadcast, and M2+ multi-vector bit 31.
 */
import {
  decodeVecMulti,
  decodeVecOffsets,
  indexedLoad,
  loadXY,
  shuffle,
  vecOperand,
  writemask,
} from '../common.ts';
import type { AmxState } from '../state.ts';
import { intAlu, intAluMode4, loadInt, storeInt } from './intalu.ts';

const xb = new Uint8Array(64);
const yb = new Uint8Array(64);
const xen = new Uint8Array(64);
const yen = new Uint8Array(64);

export function execVecint(s: AmxState, lo: number, hi: number): void {
  if ((hi >>> 22) & 7) return;
  decodeVecMulti(s.ver, lo, hi);
  const m = vecOperand;
  hi = m.hi;
  let zrow = m.zrow;
  const zStep = m.zStep;
  const zeroOut = (hi & 0x1ff) === 3;
  const broadcastY = ((hi >>> 6) & 7) === 1;
  const indexed = (hi >>> 21) & 1;
  const alu = indexed ? 0 : (hi >>> 15) & 0x3f;
  let shift = (hi >>> 26) & 31;
  const lwm = (hi >>> 10) & 15;
  let xBits = 16;
  let yBits = 16;
  let zBits = 16;
  if (alu === 4) {
    let sat = 16;
    switch (lwm) {
      case 3:
        zBits = 32;
        break;
      case 4:
        zBits = 32;
        sat = 32;
        break;
      case 9:
        zBits = 8;
        sat = 8;
        break;
      case 10:
        zBits = 32;
        sat = 8;
        break;
      case 11:
        sat = 8;
        break;
    }
    const zBytes = zBits >>> 3;
    writemask(xen, hi, zBytes, 9);
    if (broadcastY) xen.fill(1);
    const zSigned = hi >>> 31 === 1;
    for (; zrow <= 63; zrow += zStep) {
      for (let i = 0; i < 64; i += zBytes) {
        if (xen[i] === 0) continue;
        const off = zrow * 64 + i;
        const v = intAluMode4(loadInt(s.z, off, zBytes, zSigned), sat, lo, hi);
        storeInt(s.z, off, zBytes, zeroOut ? 0 : v);
      }
    }
    return;
  }
  if (alu === 5 || alu === 6) {
    shift = 15;
  } else if (alu >= 7 && !(s.ver >= 2 && alu >= 10 && alu <= 12)) {
    return;
  } else {
    switch (lwm) {
      case 3:
        zBits = 32;
        break;
      case 10:
        xBits = 8;
        yBits = 8;
        zBits = 32;
        break;
      case 11:
        xBits = 8;
        yBits = 8;
        break;
      case 12:
        xBits = 8;
        zBits = 32;
        break;
      case 13:
        yBits = 8;
        zBits = 32;
        break;
    }
  }
  const xBytes = xBits >>> 3;
  const yBytes = yBits >>> 3;
  const zBytes = zBits >>> 3;
  decodeVecOffsets(s.ver, lo, indexed === 1, xBits, yBits);
  let { xoff, yoff } = m;
  const { xStep, yStep, xLane0 } = m;
  const ibits = (hi >>> 16) & 1 ? 4 : 2;
  const idxY = (hi >>> 15) & 1;
  const xSigned = hi >>> 31 === 1;
  const ySigned = ((lo >>> 26) & 1) === 1;
  const step = Math.min(xBytes, yBytes);
  const zmask = zBytes / step - 1;
  for (; zrow <= 63; zrow += zStep) {
    loadXY(xb, s.x, xoff);
    xoff = (xoff + xStep) & 0x1ff;
    loadXY(yb, s.y, yoff);
    yoff = (yoff + yStep) & 0x1ff;
    if (indexed) {
      const src = ((hi >>> 17) & 7) * 64;
      if (idxY) indexedLoad(yb, s.y, src, ibits, yBits);
      else indexedLoad(xb, s.x, src, ibits, xBits);
    }
    shuffle(xb, (lo >>> 29) & 3, xBytes);
    shuffle(yb, (lo >>> 27) & 3, yBytes);
    writemask(xen, hi, xBytes, 9);
    writemask(yen, hi, yBytes, 9);
    if (broadcastY) {
      xen.fill(1);
      yen.fill(1);
    } else if (((hi >>> 6) & 7) === 0) {
      const v = hi & 0x3f;
      if (v === 4) xb.fill(0);
      else if (v === 5) yb.fill(0);
    }
    for (let i = 0; i < 64; i += step) {
      const xi = xLane0 ? 0 : i & -xBytes;
      if (xen[xi] === 0) continue;
      const yj = broadcastY ? (hi * yBytes) & 0x3f : i & -yBytes;
      if (yen[yj] === 0) continue;
      const xv = loadInt(xb, xi, xBytes, xSigned);
      const yv = loadInt(yb, yj, yBytes, ySigned);
      const row = (zrow & ~zmask) | ((i / step) & zmask);
      const zoff = row * 64 + (i & -zBytes);
      const zv = loadInt(s.z, zoff, zBytes, true);
      const r = intAlu(xv, yv, zv, alu, shift, xBits);
      storeInt(s.z, zoff, zBytes, zeroOut ? 0 : r);
    }
  }
}
