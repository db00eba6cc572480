/**
 * matfp (opcode 21), per corsix/amx matfp.md: outer-product floating-point ops z[j][i] = f(x[i],
 * y[j], z[j][i]) with ALU modes 0 (z + x*y), 1 (z - x*y), 4 (x <= 0 ? 0 : y), indexed loads,
 * shuffles, 9-bit X enable (bits 32-40) and 9-bit Y enable (value bits 58-63, mode bits 23-25),
 * Z row bits 20-22, and the lane-width modes shared with vecfp (bf16 on M2+).
 */
import { indexedLoad, loadXY, shuffle, writemask } from '../common.ts';
import { bf16ToF32Bits, F16_TO_F32_BITS } from '../fp.ts';
import type { AmxState } from '../state.ts';
import { alu16, alu32, alu64, aluBf16 } from './fpalu.ts';
import { fpLaneWidths } from './vecfp.ts';

const xb = new Uint8Array(64);
const yb = new Uint8Array(64);
const x16 = new Uint16Array(xb.buffer);
const y16 = new Uint16Array(yb.buffer);
const x32 = new Uint32Array(xb.buffer);
const y32 = new Uint32Array(yb.buffer);
const xen = new Uint8Array(64);
const yen = new Uint8Array(64);
const xw = new Uint32Array(32);
const yw = new Uint32Array(32);
const out = new Uint32Array(2);

export function execMatfp(s: AmxState, lo: number, hi: number): void {
  if ((hi >>> 22) & 7) return;
  hi &= ~(1 << 5);
  hi &= 0x7fffffff; // bit 63 ignored
  const indexed = (hi >>> 21) & 1;
  const alu = indexed ? 0 : (hi >>> 15) & 0x3f;
  if (alu === 2 || alu === 3 || alu >= 5) return;
  const w = fpLaneWidths(s.ver, (hi >>> 10) & 15);
  const xyBits = w & 0xff;
  const zBits = (w >>> 8) & 0xff;
  const bf16 = w >>> 16;
  const xyBytes = xyBits >>> 3;
  loadXY(xb, s.x, (lo >>> 10) & 0x1ff);
  loadXY(yb, s.y, lo & 0x1ff);
  if (indexed) {
    const src = ((hi >>> 17) & 7) * 64;
    const ibits = (hi >>> 16) & 1 ? 4 : 2;
    if ((hi >>> 15) & 1) indexedLoad(yb, s.y, src, ibits, xyBits);
    else indexedLoad(xb, s.x, src, ibits, xyBits);
  }
  shuffle(xb, (lo >>> 29) & 3, xyBytes);
  shuffle(yb, (lo >>> 27) & 3, xyBytes);
  const ymode = (lo >>> 23) & 7;
  const yval = (hi >>> 26) & 0x3f;
  writemask(xen, hi, xyBytes, 9);
  writemask(yen, (ymode << 6) | yval, xyBytes, 9);
  let zeroOut = false;
  if (((hi >>> 6) & 7) === 0) {
    const v = hi & 0x3f;
    if (v === 3) zeroOut = true;
    else if (v === 4 || v === 5) xb.fill(0);
  }
  if (ymode === 0) {
    if (yval === 3) zeroOut = true;
    else if (yval === 4 || yval === 5) yb.fill(0);
  }
  const zrow = (lo >>> 20) & 7;
  if (zBits === 16) {
    const z16 = s.z16;
    for (let j = 0; j < 32; j++) {
      if (yen[j * 2] === 0) continue;
      const rowBase = (2 * j + (zrow & 1)) * 32;
      for (let i = 0; i < 32; i++) {
        if (xen[i * 2] === 0) continue;
        const zi = rowBase + i;
        z16[zi] = zeroOut
          ? 0
          : bf16
            ? aluBf16(x16[i]!, y16[j]!, z16[zi]!, alu)
            : alu16(x16[i]!, y16[j]!, z16[zi]!, alu);
      }
    }
  } else if (xyBits === 16) {
    for (let k = 0; k < 32; k++) {
      xw[k] = bf16 ? bf16ToF32Bits(x16[k]!) : F16_TO_F32_BITS[x16[k]!]!;
      yw[k] = bf16 ? bf16ToF32Bits(y16[k]!) : F16_TO_F32_BITS[y16[k]!]!;
    }
    const z32 = s.z32;
    for (let j = 0; j < 32; j++) {
      if (yen[j * 2] === 0) continue;
      for (let i = 0; i < 32; i++) {
        if (xen[i * 2] === 0) continue;
        const zi = (2 * j + (i & 1)) * 16 + (i >>> 1);
        z32[zi] = zeroOut ? 0 : alu32(xw[i]!, yw[j]!, z32[zi]!, alu);
      }
    }
  } else if (xyBits === 32) {
    const z32 = s.z32;
    for (let j = 0; j < 16; j++) {
      if (yen[j * 4] === 0) continue;
      const rowBase = (4 * j + (zrow & 3)) * 16;
      for (let i = 0; i < 16; i++) {
        if (xen[i * 4] === 0) continue;
        const zi = rowBase + i;
        z32[zi] = zeroOut ? 0 : alu32(x32[i]!, y32[j]!, z32[zi]!, alu);
      }
    }
  } else {
    const z32 = s.z32;
    for (let j = 0; j < 8; j++) {
      if (yen[j * 8] === 0) continue;
      const rowBase = (8 * j + zrow) * 8;
      for (let i = 0; i < 8; i++) {
        if (xen[i * 8] === 0) continue;
        const zi = rowBase + i;
        if (zeroOut) {
          z32[2 * zi] = 0;
          z32[2 * zi + 1] = 0;
          continue;
        }
        alu64(x32, i, y32, j, z32, zi, alu, out);
        z32[2 * zi] = out[0]!;
        z32[2 * zi + 1] = out[1]!;
      }
    }
  }
}
