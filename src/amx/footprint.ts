/**
 * The access footprint of one AMX instruction: which bytes of X, Y, Z and memory it reads and which
 * it writes, worked out from the operand fields alone (the same corsix/amx pages the executors
 * follow: ldst.md, extr_*.md, fma.md, mac16.md, vecint.md, vecfp.md, matint.md, matfp.md,
 * genlut.md, setclr.md). It is computed on demand for tools (the playground highlights these
 * cells); the executors in insns/ are not involved and stay as they are.
 *
 * "Read" means the byte's value can influence the result: a lane that is disabled, a skipped input
 * (fma's skip bits), an input the ALU mode ignores (vecfp min/max ignore Y), an input the enable
 * field's zeroing modes replace by 0, or a lane whose result is forced to 0 is not read, even though
 * the executors may copy it to a buffer first. Where the byte read depends on data (an indexed
 * load's table lane; genlut's table search), the footprint holds every byte the operand lets the
 * data select: the table lanes an index of that width can name, the whole table for genlut's
 * search. "Written" means the byte is stored to (possibly with its old value).
 */
import { decodeVecMulti, decodeVecOffsets, shuffle, vecOperand, writemask } from './common.ts';
import { widths as extrWidths } from './insns/extr.ts';
import { MODES as GENLUT_MODES } from './insns/genlut.ts';
import { fpLaneWidths } from './insns/vecfp.ts';
import { AMX_GENS, type AmxGen } from './state.ts';

export interface AmxMemRange {
  /** First byte (56-bit address). */
  readonly addr: bigint;
  readonly len: number;
}

/** One side (reads or writes) of a footprint: a 0/1 flag per register byte, and memory ranges. */
export interface AmxAccessSet {
  /** 512 flags, X row r byte b at r * 64 + b. */
  readonly x: Uint8Array;
  readonly y: Uint8Array;
  /** 4096 flags, Z row r byte b at r * 64 + b. */
  readonly z: Uint8Array;
  readonly mem: AmxMemRange[];
}

export interface AmxFootprint {
  readonly reads: AmxAccessSet;
  readonly writes: AmxAccessSet;
  /**
   * True when some of the reads depend on register data (indexed loads, genlut): the footprint then
   * holds every byte the data could select.
   */
  readonly dataDependent: boolean;
}

function accessSet(): AmxAccessSet {
  return { x: new Uint8Array(512), y: new Uint8Array(512), z: new Uint8Array(4096), mem: [] };
}

/** Marks `n` bytes of a 512-byte X/Y pool from `off`, wrapping around the pool. */
function markPool(pool: Uint8Array, off: number, n: number): void {
  for (let k = 0; k < n; k++) pool[(off + k) & 0x1ff] = 1;
}

function markZ(z: Uint8Array, off: number, n: number): void {
  for (let k = 0; k < n; k++) z[off + k] = 1;
}

/**
 * Where each byte of an X/Y input vector comes from: pool byte positions for the 64 bytes after the
 * optional indexed load and the shuffle; with an indexed load, a byte's position is its lane's index
 * byte and `table` lists the table bytes an index can select.
 */
interface VectorSource {
  readonly pos: Int16Array;
  readonly table: number[];
}

const perm = new Uint8Array(64);

function vectorSource(
  poolOff: number,
  shuf: number,
  laneBytes: number,
  index: { tableReg: number; ibits: number } | null,
): VectorSource {
  const pre = new Int16Array(64);
  const table: number[] = [];
  if (index) {
    // RegisterFile.md "Indexed loads": lane L's index is bits L*ibits.. of the vector (one byte,
    // as ibits divides 8); it names table lane idx, at byte (idx * laneBytes) mod 64.
    for (let b = 0; b < 64; b++)
      pre[b] = (poolOff + ((Math.floor(b / laneBytes) * index.ibits) >>> 3)) & 0x1ff;
    const seen = new Uint8Array(64);
    for (let idx = 0; idx < 1 << index.ibits; idx++)
      for (let k = 0; k < laneBytes; k++) seen[((idx * laneBytes) & 0x3f) + k] = 1;
    for (let b = 0; b < 64; b++) if (seen[b]) table.push(index.tableReg * 64 + b);
  } else {
    for (let b = 0; b < 64; b++) pre[b] = (poolOff + b) & 0x1ff;
  }
  for (let b = 0; b < 64; b++) perm[b] = b;
  shuffle(perm, shuf, laneBytes);
  const pos = new Int16Array(64);
  for (let b = 0; b < 64; b++) pos[b] = pre[perm[b]!]!;
  return { pos, table };
}

/** Marks the `n` bytes of lane byte offset `b` of a vector as read from `pool`. */
function markLane(pool: Uint8Array, src: VectorSource, b: number, n: number): void {
  for (let k = 0; k < n; k++) pool[src.pos[b + k]!] = 1;
  for (const t of src.table) pool[t] = 1;
}

const xen = new Uint8Array(64);
const yen = new Uint8Array(64);

/**
 * The footprint of opcode `op` (0-22, as in the A64 word) with a 64-bit operand (set/clr: the
 * immediate) on generation `gen`. An instruction that does nothing for this operand (e.g. a
 * reserved ALU mode) has an empty footprint.
 */
export function amxFootprint(gen: AmxGen, op: number, operand: bigint): AmxFootprint {
  const ver = AMX_GENS.indexOf(gen) + 1;
  const v = BigInt.asUintN(64, operand);
  const lo = Number(v & 0xffffffffn);
  const hi = Number(v >> 32n);
  const r = accessSet();
  const w = accessSet();
  let dataDependent = false;
  switch (op) {
    case 0:
    case 1:
      loadXY(ver, hi, op === 0 ? w.x : w.y);
      break;
    case 2:
    case 3: {
      const rn = (hi >>> 24) & 7;
      markPool(op === 2 ? r.x : r.y, rn * 64, 64);
      if ((hi >>> 30) & 1) markPool(op === 2 ? r.x : r.y, ((rn + 1) & 7) * 64, 64);
      break;
    }
    case 4:
    case 5: {
      const rn = (hi >>> 24) & 63;
      const z = op === 4 ? w.z : r.z;
      markZ(z, rn * 64, 64);
      if ((hi >>> 30) & 1) markZ(z, ((rn + 1) & 63) * 64, 64);
      break;
    }
    case 6:
    case 7: {
      // ldst.md's interleaving: memory u32 lane i <-> Z row (pair base | (i & 1)), u32 lane
      // half * 8 + (i >> 1), half = bit 56.
      const rn = (hi >>> 24) & 63;
      const half = (rn & 1) << 3;
      const z = op === 6 ? w.z : r.z;
      for (let i = 0; i < 16; i++) markZ(z, (((rn & ~1) | (i & 1)) * 16 + half + (i >>> 1)) * 4, 4);
      break;
    }
    case 8:
    case 9:
      extr(ver, lo, hi, op === 8, r, w);
      break;
    case 10:
    case 11:
      fma(64, lo, hi, r, w);
      break;
    case 12:
    case 13:
      fma(32, lo, hi, r, w);
      break;
    case 15:
    case 16:
      fma(16, lo, hi, r, w);
      break;
    case 14:
      mac16(lo, hi, r, w);
      break;
    case 17:
      if (lo === 0) {
        w.x.fill(1);
        w.y.fill(1);
        w.z.fill(1);
      }
      break;
    case 18:
      dataDependent = vecint(ver, lo, hi, r, w);
      break;
    case 19:
      dataDependent = vecfp(ver, lo, hi, r, w);
      break;
    case 20:
      dataDependent = matint(ver, lo, hi, r, w);
      break;
    case 21:
      dataDependent = matfp(ver, lo, hi, r, w);
      break;
    case 22:
      genlut(lo, hi, r, w);
      dataDependent = true;
      break;
    default:
      break;
  }
  const m = amxMemoryAccess(gen, op, v);
  if (m.read) r.mem.push(m.read);
  if (m.write) w.mem.push(m.write);
  return { reads: r, writes: w, dataDependent };
}

/**
 * The memory range a load (ldx ldy ldz ldzi) reads or a store (stx sty stz stzi) writes; nothing
 * for the other instructions. Cheap (no register masks), for tools that record memory per op.
 */
export function amxMemoryAccess(
  gen: AmxGen,
  op: number,
  operand: bigint,
): { read?: AmxMemRange; write?: AmxMemRange } {
  if (op < 0 || op > 7) return {};
  const ver = AMX_GENS.indexOf(gen) + 1;
  const v = BigInt.asUintN(64, operand);
  const hi = Number(v >> 32n);
  const addr = BigInt.asUintN(56, v);
  const pair = (hi >>> 30) & 1;
  let len = 64;
  if (op <= 1 && pair) len = ver >= 2 && ((hi >>> 28) & 1) === 1 ? 256 : 128;
  else if (op <= 5 && pair) len = 128;
  const load = op === 0 || op === 1 || op === 4 || op === 6;
  return load ? { read: { addr, len } } : { write: { addr, len } };
}

/** ldx / ldy: one register, or 2 / 4 (M2+ bit 60) spread by 1, 2 or 4 (M3+ bit 61). */
function loadXY(ver: number, hi: number, pool: Uint8Array): void {
  const rn = (hi >>> 24) & 7;
  let n = 1;
  let rs = 1;
  if ((hi >>> 30) & 1) {
    n = ver >= 2 && ((hi >>> 28) & 1) === 1 ? 4 : 2;
    if (ver >= 3 && ((hi >>> 29) & 1) === 1) rs = ((hi >>> 28) & 1) === 1 ? 2 : 4;
  }
  for (let k = 0; k < n; k++) markPool(pool, ((rn + rs * k) & 7) * 64, 64);
}

/** extrx / extry (bit 27, bit 26 = 0), the older extrh / extrv (26 = 0) and the newer form (26 = 1). */
function extr(
  ver: number,
  lo: number,
  hi: number,
  horizontal: boolean,
  r: AmxAccessSet,
  w: AmxAccessSet,
): void {
  if (!((lo >>> 26) & 1) && (lo >>> 27) & 1) {
    // extrx: X[bits 16-18] = Y[bits 20-22]; extry: Y[bits 6-8] = X[bits 20-22]
    const d = (lo >>> (horizontal ? 16 : 6)) & 7;
    const src = (lo >>> 20) & 7;
    markPool(horizontal ? r.y : r.x, src * 64, 64);
    markPool(horizontal ? w.x : w.y, d * 64, 64);
    return;
  }
  if (!((lo >>> 26) & 1)) {
    let xy = 8 >>> ((lo >>> 28) & 3);
    let evenOnly = false;
    if (xy === 1) {
      xy = 2;
      evenOnly = true;
    }
    writemask(xen, horizontal ? hi >>> 9 : hi, xy, 7);
    if (evenOnly) for (let i = 1; i < 64; i += 2) xen[i] = 0;
    const sel = (lo >>> 20) & 63;
    if (horizontal) {
      const off = (lo >>> 10) & 0x1ff;
      for (let i = 0; i < 64; i++) {
        if (!xen[i]) continue;
        r.z[sel * 64 + i] = 1;
        w.x[(off + i) & 0x1ff] = 1;
      }
      return;
    }
    const colByte = sel & -xy;
    const zero = (hi & 0x1ff) === 3;
    const off = lo & 0x1ff;
    for (let j = 0; j < 64; j += xy) {
      const row = (j & ~(xy - 1)) | (sel & (xy - 1));
      for (let k = 0; k < xy; k++) {
        if (!xen[j + k]) continue;
        if (!zero) r.z[row * 64 + colByte + k] = 1;
        w.y[(off + j + k) & 0x1ff] = 1;
      }
    }
    return;
  }
  const dst = (lo >>> 10) & 1 ? w.y : w.x;
  let dstOff = lo & 0x1ff;
  const wd = extrWidths(ver, lo, hi);
  const xy = wd & 15;
  const zb = (wd >>> 4) & 15;
  const stride = wd >>> 8;
  let sel = (lo >>> 20) & 63;
  let step = 64;
  let maskField = hi & 0x1ff;
  if (ver >= 2 && (lo >>> 31) & 1) {
    maskField = 0;
    step = sel & 32 ? 16 : 32;
    if (ver >= 4) dstOff &= ~63;
  }
  writemask(xen, maskField, xy, 9);
  const zeroAll = maskField === 3;
  for (sel &= step - 1; sel <= 63; sel += step) {
    for (let i = 0; i < 64; i += xy) {
      if (!xen[i] || zeroAll) continue;
      const sub = (((i & (zb - 1)) / xy) | 0) * stride;
      const zoff = horizontal
        ? ((sel & ~(zb - 1)) | ((sel + sub) & (zb - 1))) * 64 + (i & -zb)
        : ((i & ~(zb - 1)) | ((sel + sub) & (zb - 1))) * 64 + (sel & -zb);
      markZ(r.z, zoff, stride === 0 ? xy : zb);
    }
    for (let b = 0; b < 64; b++) if (xen[b]) dst[(dstOff + b) & 0x1ff] = 1;
    dstOff += 64;
  }
}

/**
 * fma16/32/64 and fms16/32/64 (fma.md): skip bits 27 (Z), 28 (Y), 29 (X) give the ALU modes
 * 0 x*y+z, 1 x*y, 2 z+x, 3 x, 4 z+y, 5 y, 6 nothing, 7 zero.
 */
function fma(width: 16 | 32 | 64, lo: number, hi: number, r: AmxAccessSet, w: AmxAccessSet): void {
  const alu = (lo >>> 27) & 7;
  const useX = alu <= 3;
  const useY = alu === 0 || alu === 1 || alu === 4 || alu === 5;
  const useZ = alu === 0 || alu === 2 || alu === 4;
  const writes = alu !== 6;
  const zrow = (lo >>> 20) & 63;
  const xoff = (lo >>> 10) & 0x1ff;
  const yoff = lo & 0x1ff;
  const g = width >>> 3;
  // bytes of each input lane that are read: fma32 bits 61/60 read f16 in the low half
  const xb = width === 32 && (hi >>> 29) & 1 ? 2 : g;
  const yb = width === 32 && (hi >>> 28) & 1 ? 2 : g;
  writemask(xen, hi >>> 9, g, 7);
  const lane = (i: number, j: number, zoff: number, zbytes: number, lb: number): void => {
    if (useX) markPool(r.x, xoff + i * lb, lb === g ? xb : lb);
    if (useY) markPool(r.y, yoff + j * lb, lb === g ? yb : lb);
    if (useZ) markZ(r.z, zoff, zbytes);
    if (writes) markZ(w.z, zoff, zbytes);
  };
  const lanes = 64 / g;
  if (hi >>> 31) {
    for (let i = 0; i < lanes; i++) if (xen[i * g]) lane(i, i, zrow * 64 + i * g, g, g);
    return;
  }
  writemask(yen, hi, g, 7);
  if (width === 16 && (hi >>> 30) & 1) {
    // f16 x f16 -> f32 over all 64 rows: z[2j + (i & 1)].f32[i >> 1]
    for (let i = 0; i < 32; i++) {
      if (!xen[i * 2]) continue;
      for (let j = 0; j < 32; j++) if (yen[j * 2]) lane(i, j, ((j * 2 + (i & 1)) * 16 + (i >>> 1)) * 4, 4, 2);
    }
    return;
  }
  const rowsEach = 64 / lanes;
  const zr = zrow & (rowsEach - 1);
  for (let i = 0; i < lanes; i++) {
    if (!xen[i * g]) continue;
    for (let j = 0; j < lanes; j++) if (yen[j * g]) lane(i, j, (j * rowsEach + zr) * 64 + i * g, g, g);
  }
}

/** mac16 (mac16.md): bits 28 / 29 skip Y / X, bit 27 skips Z; bits 61 / 60 read i8 (low byte). */
function mac16(lo: number, hi: number, r: AmxAccessSet, w: AmxAccessSet): void {
  const sel = (lo >>> 28) & 3;
  const useX = sel === 0 || sel === 1;
  const useY = sel === 0 || sel === 2;
  const useZ = ((lo >>> 27) & 1) === 0;
  const zrow = (lo >>> 20) & 63;
  const xoff = (lo >>> 10) & 0x1ff;
  const yoff = lo & 0x1ff;
  const xb = (hi >>> 29) & 1 ? 1 : 2;
  const yb = (hi >>> 28) & 1 ? 1 : 2;
  writemask(xen, hi >>> 9, 2, 7);
  const lane = (i: number, j: number, zoff: number, zbytes: number): void => {
    if (useX) markPool(r.x, xoff + 2 * i, xb);
    if (useY) markPool(r.y, yoff + 2 * j, yb);
    if (useZ) markZ(r.z, zoff, zbytes);
    markZ(w.z, zoff, zbytes);
  };
  if (hi >>> 31) {
    for (let i = 0; i < 32; i++) if (xen[i * 2]) lane(i, i, zrow * 64 + 2 * i, 2);
    return;
  }
  writemask(yen, hi, 2, 7);
  const wide = (hi >>> 30) & 1;
  for (let i = 0; i < 32; i++) {
    if (!xen[i * 2]) continue;
    for (let j = 0; j < 32; j++) {
      if (!yen[j * 2]) continue;
      if (wide) lane(i, j, ((j * 2 + (i & 1)) * 16 + (i >>> 1)) * 4, 4);
      else lane(i, j, ((j * 2 + (zrow & 1)) * 32 + i) * 2, 2);
    }
  }
}

/** Which of X, Y, Z the integer ALU of vecint/matint consumes (intalu.ts, vecint.md). */
function intUses(alu: number): [boolean, boolean, boolean] {
  return [alu !== 12, alu !== 11, alu !== 10];
}

/** Which of X, Y, Z the floating-point ALU of vecfp/matfp consumes (fpalu.ts, vecfp.md). */
function fpUses(alu: number): [boolean, boolean, boolean] {
  const x = alu !== 12;
  const y = alu === 0 || alu === 1 || alu === 4 || alu === 10 || alu === 12;
  const z = alu !== 4 && alu !== 10;
  return [x, y, z];
}

function vecint(ver: number, lo: number, hi0: number, r: AmxAccessSet, w: AmxAccessSet): boolean {
  if ((hi0 >>> 22) & 7) return false;
  decodeVecMulti(ver, lo, hi0);
  const m = vecOperand;
  const hi = m.hi;
  const zStep = m.zStep;
  const zeroOut = (hi & 0x1ff) === 3;
  const broadcastY = ((hi >>> 6) & 7) === 1;
  const indexed = (hi >>> 21) & 1;
  const alu = indexed ? 0 : (hi >>> 15) & 0x3f;
  const lwm = (hi >>> 10) & 15;
  let xBits = 16;
  let yBits = 16;
  let zBits = 16;
  if (alu === 4) {
    if (lwm === 3 || lwm === 4 || lwm === 10) zBits = 32;
    else if (lwm === 9) zBits = 8;
    const zBytes = zBits >>> 3;
    writemask(xen, hi, zBytes, 9);
    if (broadcastY) xen.fill(1);
    for (let zrow = m.zrow; zrow <= 63; zrow += zStep) {
      for (let i = 0; i < 64; i += zBytes) {
        if (!xen[i]) continue;
        if (!zeroOut) markZ(r.z, zrow * 64 + i, zBytes);
        markZ(w.z, zrow * 64 + i, zBytes);
      }
    }
    return false;
  }
  if (alu === 5 || alu === 6) {
    // 16-bit lanes
  } else if (alu >= 7 && !(ver >= 2 && alu >= 10 && alu <= 12)) {
    return false;
  } else if (lwm === 3) zBits = 32;
  else if (lwm === 10) {
    xBits = 8;
    yBits = 8;
    zBits = 32;
  } else if (lwm === 11) {
    xBits = 8;
    yBits = 8;
  } else if (lwm === 12) {
    xBits = 8;
    zBits = 32;
  } else if (lwm === 13) {
    yBits = 8;
    zBits = 32;
  }
  const xBytes = xBits >>> 3;
  const yBytes = yBits >>> 3;
  const zBytes = zBits >>> 3;
  decodeVecOffsets(ver, lo, indexed === 1, xBits, yBits);
  let { xoff, yoff } = m;
  const { xStep, yStep, xLane0 } = m;
  const ibits = (hi >>> 16) & 1 ? 4 : 2;
  const idxY = (hi >>> 15) & 1;
  const tableReg = (hi >>> 17) & 7;
  const [useX0, useY0, useZ0] = intUses(alu);
  const ev = hi & 0x3f;
  const emode = (hi >>> 6) & 7;
  const useX = useX0 && !zeroOut && !(emode === 0 && ev === 4);
  const useY = useY0 && !zeroOut && !(emode === 0 && ev === 5);
  const useZ = useZ0 && !zeroOut;
  writemask(xen, hi, xBytes, 9);
  writemask(yen, hi, yBytes, 9);
  if (broadcastY) {
    xen.fill(1);
    yen.fill(1);
  }
  const step = Math.min(xBytes, yBytes);
  const zmask = zBytes / step - 1;
  for (let zrow = m.zrow; zrow <= 63; zrow += zStep) {
    const xs = vectorSource(xoff, (lo >>> 29) & 3, xBytes, indexed && !idxY ? { tableReg, ibits } : null);
    const ys = vectorSource(yoff, (lo >>> 27) & 3, yBytes, indexed && idxY ? { tableReg, ibits } : null);
    xoff = (xoff + xStep) & 0x1ff;
    yoff = (yoff + yStep) & 0x1ff;
    for (let i = 0; i < 64; i += step) {
      const xi = xLane0 ? 0 : i & -xBytes;
      if (!xen[xi]) continue;
      const yj = broadcastY ? (hi * yBytes) & 0x3f : i & -yBytes;
      if (!yen[yj]) continue;
      if (useX) markLane(r.x, xs, xi, xBytes);
      if (useY) markLane(r.y, ys, yj, yBytes);
      const row = (zrow & ~zmask) | ((i / step) & zmask);
      const zoff = row * 64 + (i & -zBytes);
      if (useZ) markZ(r.z, zoff, zBytes);
      markZ(w.z, zoff, zBytes);
    }
  }
  return indexed === 1 && (useX || useY);
}

function vecfp(ver: number, lo: number, hi0: number, r: AmxAccessSet, w: AmxAccessSet): boolean {
  if ((hi0 >>> 22) & 7) return false;
  const h = hi0 & ~(1 << 5);
  const indexed = (h >>> 21) & 1;
  const alu = indexed ? 0 : (h >>> 15) & 0x3f;
  if (!(alu === 0 || alu === 1 || alu === 4 || alu === 5 || alu === 7)) {
    if (!(ver >= 2 && alu >= 10 && alu <= 12)) return false;
  }
  const wd = fpLaneWidths(ver, (h >>> 10) & 15);
  const xyBits = wd & 0xff;
  const zBits = (wd >>> 8) & 0xff;
  const xyBytes = xyBits >>> 3;
  decodeVecMulti(ver, lo, h);
  decodeVecOffsets(ver, lo, indexed === 1, xyBits, xyBits);
  const m = vecOperand;
  const hi = m.hi;
  let { xoff, yoff } = m;
  const { zStep, xStep, yStep, xLane0 } = m;
  const ibits = (hi >>> 16) & 1 ? 4 : 2;
  const idxY = (hi >>> 15) & 1;
  const tableReg = (hi >>> 17) & 7;
  const emode = (hi >>> 6) & 7;
  const broadcastY = emode === 1;
  const ev = hi & 0x3f;
  writemask(xen, hi, xyBytes, 9);
  let zeroOut = false;
  let xZero = false;
  let yZero = false;
  if (broadcastY) xen.fill(1);
  else if (emode === 0) {
    zeroOut = ev === 3;
    xZero = ev === 4;
    yZero = ev === 5;
  }
  const [ux, uy, uz] = fpUses(alu);
  const useX = ux && !zeroOut && !xZero;
  const useY = uy && !zeroOut && !yZero;
  const useZ = uz && !zeroOut;
  const lanes = 64 / xyBytes;
  const bmask = lanes - 1;
  for (let zrow = m.zrow; zrow <= 63; zrow += zStep) {
    const xs = vectorSource(xoff, (lo >>> 29) & 3, xyBytes, indexed && !idxY ? { tableReg, ibits } : null);
    const ys = vectorSource(yoff, (lo >>> 27) & 3, xyBytes, indexed && idxY ? { tableReg, ibits } : null);
    xoff = (xoff + xStep) & 0x1ff;
    yoff = (yoff + yStep) & 0x1ff;
    for (let i = 0; i < lanes; i++) {
      if (!xen[i * xyBytes]) continue;
      const j = broadcastY ? hi & bmask : i;
      if (useX) markLane(r.x, xs, (xLane0 ? 0 : i) * xyBytes, xyBytes);
      if (useY) markLane(r.y, ys, j * xyBytes, xyBytes);
      let zoff: number;
      let zb: number;
      if (zBits === xyBits) {
        zb = xyBytes;
        zoff = zrow * 64 + i * xyBytes;
      } else {
        // 16-bit inputs into 32-bit Z: an interleaved pair of rows
        zb = 4;
        zoff = ((zrow & ~1) | (i & 1)) * 64 + (i >>> 1) * 4;
      }
      if (useZ) markZ(r.z, zoff, zb);
      markZ(w.z, zoff, zb);
    }
  }
  return indexed === 1 && (useX || useY);
}

function matfp(ver: number, lo: number, hi0: number, r: AmxAccessSet, w: AmxAccessSet): boolean {
  if ((hi0 >>> 22) & 7) return false;
  const hi = hi0 & ~(1 << 5) & 0x7fffffff;
  const indexed = (hi >>> 21) & 1;
  const alu = indexed ? 0 : (hi >>> 15) & 0x3f;
  if (alu === 2 || alu === 3 || alu >= 5) return false;
  const wd = fpLaneWidths(ver, (hi >>> 10) & 15);
  const xyBits = wd & 0xff;
  const zBits = (wd >>> 8) & 0xff;
  const xyBytes = xyBits >>> 3;
  const ibits = (hi >>> 16) & 1 ? 4 : 2;
  const idxY = (hi >>> 15) & 1;
  const tableReg = (hi >>> 17) & 7;
  const xs = vectorSource(
    (lo >>> 10) & 0x1ff,
    (lo >>> 29) & 3,
    xyBytes,
    indexed && !idxY ? { tableReg, ibits } : null,
  );
  const ys = vectorSource(lo & 0x1ff, (lo >>> 27) & 3, xyBytes, indexed && idxY ? { tableReg, ibits } : null);
  const ymode = (lo >>> 23) & 7;
  const yval = (hi >>> 26) & 0x3f;
  writemask(xen, hi, xyBytes, 9);
  writemask(yen, (ymode << 6) | yval, xyBytes, 9);
  let zeroOut = false;
  let xZero = false;
  let yZero = false;
  if (((hi >>> 6) & 7) === 0) {
    const ev = hi & 0x3f;
    if (ev === 3) zeroOut = true;
    else if (ev === 4 || ev === 5) xZero = true;
  }
  if (ymode === 0) {
    if (yval === 3) zeroOut = true;
    else if (yval === 4 || yval === 5) yZero = true;
  }
  const useX = !zeroOut && !xZero;
  const useY = !zeroOut && !yZero;
  const useZ = !zeroOut && alu !== 4;
  const lanes = 64 / xyBytes;
  const zrow = (lo >>> 20) & 7;
  for (let j = 0; j < lanes; j++) {
    if (!yen[j * xyBytes]) continue;
    for (let i = 0; i < lanes; i++) {
      if (!xen[i * xyBytes]) continue;
      if (useX) markLane(r.x, xs, i * xyBytes, xyBytes);
      if (useY) markLane(r.y, ys, j * xyBytes, xyBytes);
      let zoff: number;
      let zb = xyBytes;
      if (zBits === 16) zoff = (2 * j + (zrow & 1)) * 64 + i * 2;
      else if (xyBits === 16) {
        zb = 4;
        zoff = (2 * j + (i & 1)) * 64 + (i >>> 1) * 4;
      } else if (xyBits === 32) zoff = (4 * j + (zrow & 3)) * 64 + i * 4;
      else zoff = (8 * j + zrow) * 64 + i * 8;
      if (useZ) markZ(r.z, zoff, zb);
      markZ(w.z, zoff, zb);
    }
  }
  return indexed === 1 && (useX || useY);
}

function matint(ver: number, lo: number, hi: number, r: AmxAccessSet, w: AmxAccessSet): boolean {
  if ((hi >>> 23) & 3) return false;
  const indexed = (hi >>> 21) & 1;
  const b54 = (hi >>> 22) & 1;
  if (b54 && !indexed) return false;
  const zrow = (lo >>> 20) & 3;
  const zeroOut = (hi & 0x1ff) === 3;
  const alu = indexed ? (b54 ? 8 : 0) : (hi >>> 15) & 0x3f;
  const lwm = (hi >>> 10) & 15;
  const enableY = ((lo >>> 25) & 1) === 1;
  let xBits = 16;
  let yBits = 16;
  let zBits = 16;
  if (alu === 4) {
    if (lwm === 3 || lwm === 4 || lwm === 10) zBits = 32;
    const zb = zBits >>> 3;
    writemask(xen, hi, zb, 9);
    for (let j = 0; j < 64; j += zb) {
      const row = (j & ~(zb - 1)) | (zrow & (zb - 1));
      for (let i = 0; i < 64; i += zb) {
        if (!xen[enableY ? j : i]) continue;
        if (!zeroOut) markZ(r.z, row * 64 + i, zb);
        markZ(w.z, row * 64 + i, zb);
      }
    }
    return false;
  }
  if (alu === 5 || alu === 6) {
    // 16-bit lanes
  } else if (alu === 8) {
    xBits = 8;
    yBits = 8;
    if (lwm === 10) zBits = 32;
    else if (lwm === 12 && ver >= 3) {
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
  } else if (alu === 7 || alu >= 10) {
    return false;
  } else if (lwm === 3) {
    zBits = 32;
  }
  const xBytes = xBits >>> 3;
  const yBytes = yBits >>> 3;
  const zBytes = zBits >>> 3;
  const ibits = (hi >>> 16) & 1 ? 4 : 2;
  const idxY = (hi >>> 15) & 1;
  const tableReg = (hi >>> 17) & 7;
  const xs = vectorSource(
    (lo >>> 10) & 0x1ff,
    (lo >>> 29) & 3,
    xBytes,
    indexed && !idxY ? { tableReg, ibits } : null,
  );
  const ys = vectorSource(lo & 0x1ff, (lo >>> 27) & 3, yBytes, indexed && idxY ? { tableReg, ibits } : null);
  writemask(xen, hi, enableY ? yBytes : xBytes, 9);
  let enabledZero = false;
  if (((hi >>> 6) & 7) === 0) {
    const ev = hi & 0x3f;
    enabledZero = ev === 4 || ev === 5;
  }
  const useX = !zeroOut && !(enabledZero && !enableY);
  const useY = !zeroOut && !(enabledZero && enableY);
  const useZ = !zeroOut;
  const zmask = zBytes / xBytes - 1;
  const step = xBytes === 1 ? zBytes : xBytes;
  for (let j = 0; j < 64; j += step) {
    if (enableY && !xen[j]) continue;
    const inner = (j & ~(xBytes - 1)) | (zrow & (xBytes - 1));
    for (let i = 0; i < 64; i += xBytes) {
      if (!enableY && !xen[i]) continue;
      if (useX) markLane(r.x, xs, i, xBytes);
      if (useY) markLane(r.y, ys, j, yBytes);
      const row = (inner & ~zmask) | ((i / xBytes) & zmask);
      const zoff = row * 64 + (i & -zBytes);
      if (useZ) markZ(r.z, zoff, zBytes);
      markZ(w.z, zoff, zBytes);
    }
  }
  return indexed === 1 && (useX || useY);
}

/**
 * genlut (genlut.md): modes 0-6 search a table register for every lane of the source vector and
 * write packed indices to a whole X/Y register; modes 7-15 look the source's packed indices up in
 * the table and write a whole X, Y or Z register.
 */
function genlut(lo: number, hi: number, r: AmxAccessSet, w: AmxAccessSet): void {
  const mode = (hi >>> 21) & 15;
  const src = (lo >>> 10) & 1 ? r.y : r.x;
  const table = (hi >>> 27) & 1 ? r.y : r.x;
  const treg = (hi >>> 28) & 7;
  const soff = lo & 0x1ff;
  const [ibits, ebits] = GENLUT_MODES[mode]!;
  const dstReg = (lo >>> 20) & 7;
  if (mode <= 6) {
    markPool(src, soff, 64);
    markPool(table, treg * 64, 64);
    markPool((lo >>> 25) & 1 ? w.y : w.x, dstReg * 64, 64);
    return;
  }
  const eb = ebits >>> 3;
  markPool(src, soff, ((64 / eb) * ibits) >>> 3);
  const seen = new Uint8Array(64);
  for (let idx = 0; idx < 1 << ibits; idx++) for (let k = 0; k < eb; k++) seen[((idx * eb) & 0x3f) + k] = 1;
  for (let b = 0; b < 64; b++) if (seen[b]) table[treg * 64 + b] = 1;
  if ((lo >>> 26) & 1) markZ(w.z, ((lo >>> 20) & 63) * 64, 64);
  else markPool((lo >>> 25) & 1 ? w.y : w.x, dstReg * 64, 64);
}
