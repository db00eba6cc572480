/**
 * vecfp (opcode 19), per corsix/amx vecfp.md: pointwise floating-point ops between an X vector, a
 * Y vector and one Z row (or an interleaved pair of rows for 16 -> 32-bit lane modes), with indexed
 * loads (bit 53), shuffles (bits 27-30), 9-bit write enable / Y-lane broadcast (bits 32-40), and on
 * M2+ bit 31 repeating over 2 or 4 Z rows with the broadcast modes of bits 32-34 and bf16 lane modes.
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
import { bf16ToF32Bits, F16_TO_F32_BITS } from '../fp.ts';
import type { AmxState } from '../state.ts';
import { alu16, alu32, alu64, aluBf16 } from './fpalu.ts';

const xb = new Uint8Array(64);
const yb = new Uint8Array(64);
const x16 = new Uint16Array(xb.buffer);
const y16 = new Uint16Array(yb.buffer);
const x32 = new Uint32Array(xb.buffer);
const y32 = new Uint32Array(yb.buffer);
const en = new Uint8Array(64);
const out = new Uint32Array(2);

/** Lane-width decode shared with matfp: xyBits | zBits << 8 | bf16 << 16. */
export function fpLaneWidths(ver: number, lwm: number): number {
  switch (lwm) {
    case 0:
      return 16 | (16 << 8) | (ver >= 2 ? 1 << 16 : 0);
    case 1:
      return ver >= 2 ? 16 | (32 << 8) | (1 << 16) : 16 | (16 << 8);
    case 3:
      return 16 | (32 << 8);
    case 4:
      return 32 | (32 << 8);
    case 7:
      return 64 | (64 << 8);
    default:
      return 16 | (16 << 8);
  }
}

export function execVecfp(s: AmxState, lo: number, hi: number): void {
  if ((hi >>> 22) & 7) return; // bits 54-56 must be zero
  hi &= ~(1 << 5); // bit 37 ignored
  const indexed = (hi >>> 21) & 1;
  const alu = indexed ? 0 : (hi >>> 15) & 0x3f;
  if (!(alu === 0 || alu === 1 || alu === 4 || alu === 5 || alu === 7)) {
    if (!(s.ver >= 2 && alu >= 10 && alu <= 12)) return;
  }
  const w = fpLaneWidths(s.ver, (hi >>> 10) & 15);
  const xyBits = w & 0xff;
  const zBits = (w >>> 8) & 0xff;
  const bf16 = w >>> 16;
  const xyBytes = xyBits >>> 3;
  decodeVecMulti(s.ver, lo, hi);
  decodeVecOffsets(s.ver, lo, indexed === 1, xyBits, xyBits);
  const m = vecOperand;
  hi = m.hi;
  let { zrow, xoff, yoff } = m;
  const { zStep, xStep, yStep, xLane0 } = m;
  const ibits = (hi >>> 16) & 1 ? 4 : 2;
  const idxY = (hi >>> 15) & 1;
  const emode = (hi >>> 6) & 7;
  const broadcastY = emode === 1;
  const ev = hi & 0x3f;
  for (; zrow <= 63; zrow += zStep) {
    loadXY(xb, s.x, xoff);
    xoff = (xoff + xStep) & 0x1ff;
    loadXY(yb, s.y, yoff);
    yoff = (yoff + yStep) & 0x1ff;
    if (indexed) {
      const src = ((hi >>> 17) & 7) * 64;
      if (idxY) indexedLoad(yb, s.y, src, ibits, xyBits);
      else indexedLoad(xb, s.x, src, ibits, xyBits);
    }
    shuffle(xb, (lo >>> 29) & 3, xyBytes);
    shuffle(yb, (lo >>> 27) & 3, xyBytes);
    writemask(en, hi, xyBytes, 9);
    let zeroOut = false;
    if (broadcastY) en.fill(1);
    else if (emode === 0) {
      if (ev === 3) zeroOut = true;
      else if (ev === 4) xb.fill(0);
      else if (ev === 5) yb.fill(0);
    }
    if (zBits === 16) {
      const z16 = s.z16;
      for (let i = 0; i < 32; i++) {
        if (en[i * 2] === 0) continue;
        const j = broadcastY ? hi & 0x1f : i;
        const zi = zrow * 32 + i;
        const xv = x16[xLane0 ? 0 : i]!;
        z16[zi] = zeroOut
          ? 0
          : bf16
            ? aluBf16(xv, y16[j]!, z16[zi]!, alu)
            : alu16(xv, y16[j]!, z16[zi]!, alu);
      }
    } else if (xyBits === 16) {
      const z32 = s.z32;
      for (let i = 0; i < 32; i++) {
        if (en[i * 2] === 0) continue;
        const j = broadcastY ? hi & 0x1f : i;
        const zi = ((zrow & ~1) | (i & 1)) * 16 + (i >>> 1);
        const xh = x16[xLane0 ? 0 : i]!;
        const xf = bf16 ? bf16ToF32Bits(xh) : F16_TO_F32_BITS[xh]!;
        const yf = bf16 ? bf16ToF32Bits(y16[j]!) : F16_TO_F32_BITS[y16[j]!]!;
        z32[zi] = zeroOut ? 0 : alu32(xf, yf, z32[zi]!, alu);
      }
    } else if (xyBits === 32) {
      const z32 = s.z32;
      for (let i = 0; i < 16; i++) {
        if (en[i * 4] === 0) continue;
        const j = broadcastY ? hi & 0xf : i;
        const zi = zrow * 16 + i;
        z32[zi] = zeroOut ? 0 : alu32(x32[xLane0 ? 0 : i]!, y32[j]!, z32[zi]!, alu);
      }
    } else {
      const z32 = s.z32;
      for (let i = 0; i < 8; i++) {
        if (en[i * 8] === 0) continue;
        const j = broadcastY ? hi & 7 : i;
        const zi = zrow * 8 + i;
        if (zeroOut) {
          z32[2 * zi] = 0;
          z32[2 * zi + 1] = 0;
          continue;
        }
        alu64(x32, xLane0 ? 0 : i, y32, j, z32, zi, alu, out);
        z32[2 * zi] = out[0]!;
        z32[2 * zi + 1] = out[1]!;
      }
    }
  }
}
