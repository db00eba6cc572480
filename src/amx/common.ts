/**
 * Helpers shared by the instruction families: the X/Y circular-buffer reads,
 * write-enable masks, shuffles and indexed loads (corsix/amx RegisterFile.md).
 *
 * Operands travel as two unsigned 32-bit halves (lo = bits 0..31, hi = bits 32..63) so that the
 * executors never touch BigInt.
 */

/**
 * Copies the 64 bytes at byte offset `off` (mod 512) of a 512-byte X/Y pool into dst[0..63],
 * wrapping around the end of the pool.
 */
export function loadXY(dst: Uint8Array, pool: Uint8Array, off: number): void {
  off &= 0x1ff;
  // A plain loop: subarray() would allocate a view per call in the hot path.
  for (let i = 0; i < 64; i++) dst[i] = pool[(off + i) & 0x1ff]!;
}

/**
 * Fills en[0..63] with the byte-granular write-enable of a 7-bit or 9-bit mask field `val`
 * (the field's bits at position 0 upward), for lanes of `g` bytes. Lane i is enabled when
 * en[i*g] is 1. Semantics per corsix/amx RegisterFile.md "Per-byte write-enable" and the
 * per-instruction tables: mode 0 values 0/1/2 = all/odd/even (9-bit: 3..5 also enable all),
 * 1 = only lane N, 2/3 = first/last N (0 = all), 4/5 = first/last N (0 = none), 6/7 = none.
 * Lane numbers are taken modulo 64 bytes (N*g mod 64).
 */
export function writemask(en: Uint8Array, val: number, g: number, maskBits: number): void {
  const mode = maskBits >= 9 ? (val >>> 6) & 7 : (val >>> 5) & 3;
  let v = val;
  if (mode !== 0) v = v * g;
  v &= 0x3f;
  switch (mode) {
    case 0: {
      if (v === 0 || (maskBits >= 9 && v < 6 && v > 2)) {
        en.fill(1);
      } else if (v === 1 || v === 2) {
        const odd = v === 1 ? 1 : 0;
        for (let b = 0; b < 64; b++) en[b] = (Math.floor(b / g) & 1) === odd ? 1 : 0;
      } else {
        en.fill(0);
      }
      return;
    }
    case 1:
      en.fill(0);
      for (let b = v; b < v + g && b < 64; b++) en[b] = 1;
      return;
    case 2:
    case 4:
      if (mode === 2 && v === 0) {
        en.fill(1);
        return;
      }
      for (let b = 0; b < 64; b++) en[b] = b < v ? 1 : 0;
      return;
    case 3:
    case 5:
      if (mode === 3 && v === 0) {
        en.fill(1);
        return;
      }
      for (let b = 0; b < 64; b++) en[b] = b >= 64 - v ? 1 : 0;
      return;
    default:
      en.fill(0);
  }
}

const shuffleTmp = new Uint8Array(64);
/**
 * Applies shuffle S0..S3 in place to a 64-byte vector of `eb`-byte lanes (RegisterFile.md
 * "Shuffles": S0 is the identity, S1 moves lane 1 to lane 2, S2 to lane 4, S3 to lane 8). The
 * source walks in steps of 64 >> s bytes, moving on by one lane each time it wraps; for 8-lane
 * vectors this makes S3 the identity, as the table on that page shows.
 */
export function shuffle(v: Uint8Array, s: number, eb: number): void {
  if (s === 0) return;
  shuffleTmp.set(v);
  const step = 64 >>> s;
  let soff = 0;
  for (let doff = 0; doff < 64; doff += eb) {
    for (let k = 0; k < eb; k++) v[doff + k] = shuffleTmp[soff + k]!;
    soff += step;
    if (soff & 64) soff += eb;
    soff &= 63;
  }
}

const idxTmp = new Uint8Array(48);
/**
 * Indexed load (RegisterFile.md "Indexed loads"): the first (512 / ebits) * ibits / 8 bytes of `v`
 * hold packed `ibits`-bit indices, lane 0 in the lowest bits; each selects an `ebits`-bit lane of
 * the 64-byte `table` at tableOff. The 64-byte result replaces v. Lane offsets wrap at 64 bytes, so
 * for 64-bit lanes with 4-bit indices only the low 3 index bits matter.
 */
export function indexedLoad(
  v: Uint8Array,
  table: Uint8Array,
  tableOff: number,
  ibits: number,
  ebits: number,
): void {
  idxTmp.set(v.subarray(0, 40));
  const eb = ebits >>> 3;
  const lanes = 64 / eb;
  const imask = (1 << ibits) - 1;
  for (let lane = 0; lane < lanes; lane++) {
    const bitPos = lane * ibits;
    const byte = bitPos >>> 3;
    const word = idxTmp[byte]! | (idxTmp[byte + 1]! << 8);
    const idx = (word >>> (bitPos & 7)) & imask;
    const toff = (idx * eb) & 0x3f;
    for (let k = 0; k < eb; k++) v[lane * eb + k] = table[tableOff + toff + k]!;
  }
}

/**
 * The operand decode vecfp and vecint share (vecfp.md / vecint.md): M2+ multi-vector bit 31 with
 * the broadcast modes of bits 32-34 (which rewrite the 9-bit enable field), the Z row step, the
 * per-row X/Y offset steps (indexed loads step by the packed index size), and M4's masking of the
 * low X/Y offset bits in multi-vector forms. Filled in place (one object, no allocation).
 */
export const vecOperand = {
  /** The operand's high half after the broadcast mode rewrote bits 32-40. */
  hi: 0,
  /** First Z row (already reduced modulo zStep) and the step between rows (64: one row). */
  zrow: 0,
  zStep: 64,
  xoff: 0,
  yoff: 0,
  xStep: 64,
  yStep: 64,
  /** Broadcast mode 6: X lane 0 to every lane. */
  xLane0: false,
};

/** Multi-vector part: hi, zrow, zStep, xStep/yStep (0 for a broadcast register), xLane0. */
export function decodeVecMulti(ver: number, lo: number, hi: number): void {
  const m = vecOperand;
  let zStep = 64;
  let xStep = 64;
  let yStep = 64;
  let xLane0 = false;
  const zrow = (lo >>> 20) & 63;
  if (ver >= 2 && lo >>> 31) {
    const bmode = hi & 7;
    hi &= ~0x1ff;
    switch (bmode) {
      case 1:
        hi |= 3;
        break;
      case 2:
        xStep = 0;
        break;
      case 3:
        yStep = 0;
        break;
      case 4:
        hi |= 4;
        break;
      case 5:
        hi |= 5;
        break;
      case 6:
        xStep = 0;
        xLane0 = true;
        break;
      case 7:
        yStep = 0;
        hi |= 1 << 6;
        break;
    }
    zStep = zrow & 32 ? 16 : 32;
  }
  m.hi = hi;
  m.zrow = zrow & (zStep - 1);
  m.zStep = zStep;
  m.xStep = xStep;
  m.yStep = yStep;
  m.xLane0 = xLane0;
}

/**
 * Offset part (after decodeVecMulti): xoff/yoff from bits 10-18 / 0-8; with indexed loads
 * (bit 53; bit 47 = indices index Y, bit 48 = 4-bit indices) the indexed register steps by the
 * index bytes a row uses; on M4 multi-vector forms ignore the low offset bits (whole register,
 * one element for the broadcast modes, one index block for indexed loads).
 */
export function decodeVecOffsets(
  ver: number,
  lo: number,
  indexed: boolean,
  xBits: number,
  yBits: number,
): void {
  const m = vecOperand;
  const hi = m.hi;
  const ibits = (hi >>> 16) & 1 ? 4 : 2;
  const idxY = (hi >>> 15) & 1;
  const xBytes = xBits >>> 3;
  const yBytes = yBits >>> 3;
  let xoff = (lo >>> 10) & 0x1ff;
  let yoff = lo & 0x1ff;
  if (indexed) {
    if (idxY) m.yStep = (m.yStep * ibits) / yBits;
    else m.xStep = (m.xStep * ibits) / xBits;
  }
  if (ver >= 4 && m.zStep < 64) {
    const zStep = m.zStep;
    if (indexed && !idxY) xoff &= -Math.min(64, (512 * ibits) / (xBytes * zStep));
    else if (m.xLane0) xoff &= -xBytes;
    else xoff &= -64;
    if (indexed && idxY) yoff &= -Math.min(64, (512 * ibits) / (yBytes * zStep));
    else if (((hi >>> 6) & 7) === 1)
      yoff &= -yBytes; // broadcast mode 7: one Y element
    else yoff &= -64;
  }
  m.xoff = xoff;
  m.yoff = yoff;
}
