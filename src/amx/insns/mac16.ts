/**
 * mac16 (opcode 14), per corsix/amx mac16.md: integer multiply-accumulate on i16 lanes, optionally
 * reading X / Y as i8 (bits 61 / 60: the low byte of each 16-bit lane, sign-extended), right shift
 * of the product by bits 55-59, skip bits 27-29, and in matrix mode bit 62 selects i32 Z over all
 * 64 rows (interleaved pairs) instead of i16 Z (one row of each two).
 */
import { loadXY, writemask } from '../common.ts';
import type { AmxState } from '../state.ts';

const xb = new Uint8Array(64);
const yb = new Uint8Array(64);
const x16 = new Int16Array(xb.buffer);
const y16 = new Int16Array(yb.buffer);
const xen = new Uint8Array(64);
const yen = new Uint8Array(64);
const xv = new Int32Array(32);
const yv = new Int32Array(32);

export function execMac16(s: AmxState, lo: number, hi: number): void {
  loadXY(xb, s.x, (lo >>> 10) & 0x1ff);
  loadXY(yb, s.y, lo & 0x1ff);
  const zrow = (lo >>> 20) & 63;
  const xi8 = (hi >>> 29) & 1;
  const yi8 = (hi >>> 28) & 1;
  for (let i = 0; i < 32; i++) {
    xv[i] = xi8 ? (x16[i]! << 24) >> 24 : x16[i]!;
    yv[i] = yi8 ? (y16[i]! << 24) >> 24 : y16[i]!;
  }
  const sel = (lo >>> 28) & 3; // 0: x*y, 1: x (Y skipped), 2: y (X skipped), 3: 0
  const skipZ = (lo >>> 27) & 1;
  const shift = (hi >>> 23) & 31;
  writemask(xen, hi >>> 9, 2, 7);
  const zi16 = s.zi16;
  const zi32 = s.zi32;
  if (hi >>> 31) {
    const base = zrow * 32;
    for (let i = 0; i < 32; i++) {
      if (xen[i * 2] === 0) continue;
      const v = sel === 0 ? Math.imul(xv[i]!, yv[i]!) : sel === 1 ? xv[i]! : sel === 2 ? yv[i]! : 0;
      const t = v >> shift;
      zi16[base + i] = skipZ ? t : t + zi16[base + i]!;
    }
    return;
  }
  writemask(yen, hi, 2, 7);
  const wide = (hi >>> 30) & 1;
  const zr = zrow & 1;
  for (let i = 0; i < 32; i++) {
    if (xen[i * 2] === 0) continue;
    for (let j = 0; j < 32; j++) {
      if (yen[j * 2] === 0) continue;
      const v = sel === 0 ? Math.imul(xv[i]!, yv[j]!) : sel === 1 ? xv[i]! : sel === 2 ? yv[j]! : 0;
      const t = v >> shift;
      if (wide) {
        const zi = (j * 2 + (i & 1)) * 16 + (i >>> 1);
        zi32[zi] = skipZ ? t : (t + zi32[zi]!) | 0;
      } else {
        const zi = (j * 2 + zr) * 32 + i;
        zi16[zi] = skipZ ? t : t + zi16[zi]!;
      }
    }
  }
}
