/**
 * ldx ldy stx sty ldz stz ldzi stzi: moves between memory and AMX registers.
 * Per corsix/amx ldst.md: pointer = operand bits 0..55, register index from bit 56 up, bit 62 =
 * pair (two registers / 128 bytes); for ldx/ldy on M2+ bit 60 makes the "pair" four registers, on
 * M3+ bit 61 spreads them (n, n+4 or n, n+2, n+4, n+6).
 */
import { undefinedBehaviour } from '../../errors.ts';
import type { AmxState } from '../state.ts';

const buf = new Uint8Array(256);

function checkAligned(lo: number, what: string): void {
  if ((lo & 127) !== 0) {
    throw undefinedBehaviour(`${what} of a register pair needs a 128-byte aligned address`, {
      hint: 'corsix/amx ldst.md: pair/quad moves must be aligned to 128 bytes; the result is not defined otherwise',
    });
  }
}

/** ldx (pool = x) / ldy (pool = y). */
export function execLdXY(s: AmxState, pool: Uint8Array, lo: number, hi: number, what: string): void {
  const ptrHi = hi & 0xffffff;
  const rn = (hi >>> 24) & 7;
  const multiple = (hi >>> 30) & 1;
  if (!multiple) {
    s.mem.read(lo, ptrHi, buf, 0, 64);
    pool.set(buf.subarray(0, 64), rn * 64);
    return;
  }
  checkAligned(lo, what);
  const four = s.ver >= 2 && ((hi >>> 28) & 1) === 1;
  let rs = 1;
  if (s.ver >= 3 && ((hi >>> 29) & 1) === 1) rs = ((hi >>> 28) & 1) === 1 ? 2 : 4;
  const n = four ? 4 : 2;
  s.mem.read(lo, ptrHi, buf, 0, 64 * n);
  for (let k = 0; k < n; k++) pool.set(buf.subarray(64 * k, 64 * k + 64), ((rn + rs * k) & 7) * 64);
}

/** stx (pool = x) / sty (pool = y). */
export function execStXY(s: AmxState, pool: Uint8Array, lo: number, hi: number, what: string): void {
  const ptrHi = hi & 0xffffff;
  const rn = (hi >>> 24) & 7;
  buf.set(pool.subarray(rn * 64, rn * 64 + 64), 0);
  if ((hi >>> 30) & 1) {
    checkAligned(lo, what);
    const r2 = (rn + 1) & 7;
    buf.set(pool.subarray(r2 * 64, r2 * 64 + 64), 64);
    s.mem.write(lo, ptrHi, buf, 0, 128);
  } else {
    s.mem.write(lo, ptrHi, buf, 0, 64);
  }
}

export function execLdz(s: AmxState, lo: number, hi: number): void {
  const rn = (hi >>> 24) & 63;
  if ((hi >>> 30) & 1) {
    checkAligned(lo, 'ldz');
    s.mem.read(lo, hi & 0xffffff, buf, 0, 128);
    s.z.set(buf.subarray(0, 64), rn * 64);
    s.z.set(buf.subarray(64, 128), ((rn + 1) & 63) * 64);
  } else {
    s.mem.read(lo, hi & 0xffffff, s.z, rn * 64, 64);
  }
}

export function execStz(s: AmxState, lo: number, hi: number): void {
  const rn = (hi >>> 24) & 63;
  buf.set(s.z.subarray(rn * 64, rn * 64 + 64), 0);
  if ((hi >>> 30) & 1) {
    checkAligned(lo, 'stz');
    const r2 = (rn + 1) & 63;
    buf.set(s.z.subarray(r2 * 64, r2 * 64 + 64), 64);
    s.mem.write(lo, hi & 0xffffff, buf, 0, 128);
  } else {
    s.mem.write(lo, hi & 0xffffff, buf, 0, 64);
  }
}

/**
 * ldzi: memory u32 lane i goes to Z register (pair base | (i & 1)), u32 lane half*8 + (i >> 1),
 * where pair base = Z row with bit 0 cleared and half = bit 56 (ldst.md's interleaving table).
 */
export function execLdzi(s: AmxState, lo: number, hi: number): void {
  const rn = (hi >>> 24) & 63;
  const half = (rn & 1) << 3;
  s.mem.read(lo, hi & 0xffffff, buf, 0, 64);
  const base = rn & ~1;
  for (let i = 0; i < 16; i++) {
    const dst = ((base | (i & 1)) * 16 + half + (i >>> 1)) * 4;
    for (let k = 0; k < 4; k++) s.z[dst + k] = buf[i * 4 + k]!;
  }
}

export function execStzi(s: AmxState, lo: number, hi: number): void {
  const rn = (hi >>> 24) & 63;
  const half = (rn & 1) << 3;
  const base = rn & ~1;
  for (let i = 0; i < 16; i++) {
    const src = ((base | (i & 1)) * 16 + half + (i >>> 1)) * 4;
    for (let k = 0; k < 4; k++) buf[i * 4 + k] = s.z[src + k]!;
  }
  s.mem.write(lo, hi & 0xffffff, buf, 0, 64);
}
