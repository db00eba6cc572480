/**
 * Intrinsic selection of the A2/A3 elementwise kernels, re-expressed from pto-isa @3186c381
 * include/pto/npu/a2a3/TBinOp.hpp (binary), TUnaryOp.hpp (unary, TNOT's 16-bit reinterpretation),
 * TBinSOp.hpp (tile-scalar). Constants: REPEAT_BYTE 256, BLOCK_BYTE_SIZE 32, REPEAT_MAX 255,
 * REPEAT_STRIDE_MAX 255, SMALL_RPT 4 (include/pto/common/constants.hpp, the kernel headers).
 *
 * `Rows`/`Cols` are the static tile shape, `vr`/`vc` the runtime valid shape. The static ValidCol
 * of the conformance driver's tiles is dynamic, so "continuous at compile time" means Rows == 1.
 */
import type { Trace } from '../trace.ts';

export const REPEAT_BYTE = 256;
export const BLOCK_BYTES = 32;
export const REPEAT_MAX = 255;
export const REPEAT_STRIDE_MAX = 255;
const SMALL_RPT = 4;

export interface Geo {
  rows: number;
  cols: number;
  /** Element size in bytes. */
  bytes: number;
  /** Row stride in elements (Cols for row-major tiles). */
  rowStride: number;
  /**
   * The tiles' static valid column count (`Tile<…, ValidCol>`), or -1 when it is dynamic (the
   * conformance driver's tiles). The kernels' compile-time "ValidCol == Cols" tests read it.
   */
  staticValidCol?: number;
}

/** Issues one binary intrinsic: repeat and repeat strides (block strides are 1). */
export type BinIssue = (repeat: number, dRS: number, s0RS: number, s1RS: number) => void;
export type UnIssue = (repeat: number, dRS: number, sRS: number) => void;

const ceilDiv = (a: number, b: number) => Math.floor((a + b - 1) / b);

// ---- binary (TBinOp.hpp BinaryInstr, equal row strides) ------------------------------------------

function bin1LCount(t: Trace, op: BinIssue, vr: number, vc: number): string {
  t.ctl('set_mask_count');
  t.mask(0, vr * vc);
  op(0, 8, 8, 8);
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'count mode';
}

function bin1LNorm(t: Trace, op: BinIssue, epr: number, vr: number, vc: number): string {
  const n = vr * vc;
  const head = Math.floor(n / epr);
  const tail = n % epr;
  op(head, 8, 8, 8);
  if (tail) {
    t.contMask(tail);
    op(1, 8, 8, 8);
    t.fullMask();
  }
  return 'norm mode';
}

function bin2LCount(t: Trace, op: BinIssue, vr: number, vc: number): string {
  t.ctl('set_mask_count');
  t.mask(0, vc);
  for (let i = 0; i < vr; i++) op(0, 8, 8, 8);
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'per-row count mode';
}

function bin2LColAlign(op: BinIssue, epr: number, vr: number, vc: number): string {
  const head = Math.floor(vc / epr);
  for (let i = 0; i < vr; i++) op(head, 8, 8, 8);
  return 'per-row norm mode';
}

function bin2LHead(op: BinIssue, vr: number, perLine: number): void {
  if (perLine <= 0) return;
  const loop = Math.floor(perLine / REPEAT_MAX);
  const rem = perLine % REPEAT_MAX;
  for (let i = 0; i < vr; i++) {
    for (let j = 0; j < loop; j++) op(REPEAT_MAX, 8, 8, 8);
    if (rem) op(rem, 8, 8, 8);
  }
}

function bin2LTail(
  t: Trace,
  op: BinIssue,
  g: Geo,
  vr: number,
  remainPerLine: number,
  strides: [number, number, number],
): void {
  const blk = BLOCK_BYTES / g.bytes;
  const overflow = strides.some((s) => Math.floor(s / blk) > REPEAT_STRIDE_MAX);
  const rs = strides.map((s) => Math.floor(s / blk) & 0xff) as [number, number, number];
  t.contMask(remainPerLine);
  let loop = 0;
  let remain = vr;
  if (g.rows > REPEAT_MAX) {
    loop = Math.floor(vr / REPEAT_MAX);
    for (let i = 0; i < loop; i++) {
      if (overflow) for (let j = 0; j < REPEAT_MAX; j++) op(1, 1, 1, 1);
      else op(REPEAT_MAX, rs[0], rs[1], rs[2]);
    }
    remain = vr % REPEAT_MAX;
  }
  if (remain) {
    if (overflow) for (let j = 0; j < remain; j++) op(1, 1, 1, 1);
    else op(remain, rs[0], rs[1], rs[2]);
  }
  t.fullMask();
}

function bin2LRowRpt(t: Trace, op: BinIssue, g: Geo, epr: number, vr: number, vc: number): string {
  const blk = BLOCK_BYTES / g.bytes;
  // integer division, as the kernels' `rowStride / blockSizeElem` (a partial block rounds down)
  const rs = Math.floor(g.rowStride / blk);
  if (g.rows <= REPEAT_MAX && rs <= REPEAT_STRIDE_MAX) {
    const loop = Math.floor(vc / epr);
    const tail = vc % epr;
    for (let i = 0; i < loop; i++) op(vr, rs, rs, rs);
    if (tail) {
      t.contMask(tail);
      op(vr, rs, rs, rs);
      t.fullMask();
    }
    return 'row-repeat mode';
  }
  let remainPerLine = vc;
  if (g.rows > epr) {
    const perLine = Math.floor(vc / epr);
    remainPerLine = vc % epr;
    bin2LHead(op, vr, perLine);
  }
  if (remainPerLine) bin2LTail(t, op, g, vr, remainPerLine, [g.rowStride, g.rowStride, g.rowStride]);
  return 'per-row loops';
}

/** TBinOp.hpp BinaryInstr for dst/src0/src1 tiles of one shape. */
export function binaryInstr(t: Trace, op: BinIssue, g: Geo, vr: number, vc: number): string {
  const epr = REPEAT_BYTE / g.bytes;
  const blk = BLOCK_BYTES / g.bytes;
  if (g.rows <= REPEAT_MAX && g.cols < epr) {
    const rs = Math.floor(g.rowStride / blk) & 0xff;
    t.contMask(vc);
    op(vr, rs, rs, rs);
    t.fullMask();
    return 'small tile';
  }
  if (g.rows === 1 || g.staticValidCol === g.cols) {
    const total = ceilDiv(g.rows * g.cols, epr);
    const nonVL = g.cols % epr !== 0 && g.cols > epr;
    return nonVL || total > REPEAT_MAX ? bin1LCount(t, op, vr, vc) : bin1LNorm(t, op, epr, vr, vc);
  }
  if (g.cols === vc || vr === 1) {
    const total = ceilDiv(vr * vc, epr);
    const nonVL = vc > epr && vc % epr !== 0;
    return nonVL || total > REPEAT_MAX ? bin1LCount(t, op, vr, vc) : bin1LNorm(t, op, epr, vr, vc);
  }
  const ncr = Math.floor(g.cols / epr);
  if (ncr > 1 && g.rows * ncr < SMALL_RPT) return bin2LCount(t, op, vr, vc);
  if (g.rows < ncr + 1) return vc % epr > 0 ? bin2LCount(t, op, vr, vc) : bin2LColAlign(op, epr, vr, vc);
  return bin2LRowRpt(t, op, g, epr, vr, vc);
}

/**
 * TBinOp.hpp's second BinaryInstr (row strides differ between dst/src0/src1): always the
 * row-repeat head/tail scheme with per-operand strides.
 */
export function binaryInstrStrided(
  t: Trace,
  op: BinIssue,
  bytes: number,
  strides: [number, number, number],
  vr: number,
  vc: number,
): string {
  const epr = REPEAT_BYTE / bytes;
  const blk = BLOCK_BYTES / bytes;
  const perLine = Math.floor(vc / epr);
  const remain = vc % epr;
  bin2LHead(op, vr, perLine);
  if (remain) {
    const overflow = strides.some((s) => Math.floor(s / blk) > REPEAT_STRIDE_MAX);
    const rs = strides.map((s) => Math.floor(s / blk) & 0xff) as [number, number, number];
    t.contMask(remain);
    const loop = Math.floor(vr / REPEAT_MAX);
    for (let i = 0; i < loop; i++) {
      if (overflow) for (let j = 0; j < REPEAT_MAX; j++) op(1, 1, 1, 1);
      else op(REPEAT_MAX, rs[0], rs[1], rs[2]);
    }
    const rem = vr % REPEAT_MAX;
    if (rem) {
      if (overflow) for (let j = 0; j < rem; j++) op(1, 1, 1, 1);
      else op(rem, rs[0], rs[1], rs[2]);
    }
    t.fullMask();
  }
  return 'strided row loops';
}

// ---- unary (TUnaryOp.hpp) -----------------------------------------------------------------------

function un1LCount(t: Trace, op: UnIssue, vr: number, vc: number): string {
  t.ctl('set_mask_count');
  t.mask(0, vr * vc);
  op(0, 8, 8);
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'count mode';
}

function un1LNorm(t: Trace, op: UnIssue, epr: number, vr: number, vc: number): string {
  const n = vr * vc;
  const head = Math.floor(n / epr);
  const tail = n % epr;
  op(head, 8, 8);
  if (tail) {
    t.contMask(tail);
    op(1, 8, 8);
    t.fullMask();
  }
  return 'norm mode';
}

function un2LCount(t: Trace, op: UnIssue, vr: number, vc: number): string {
  t.ctl('set_mask_count');
  t.mask(0, vc);
  for (let i = 0; i < vr; i++) op(0, 8, 8);
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'per-row count mode';
}

function un2LProcess(t: Trace, op: UnIssue, g: Geo, epr: number, vr: number, vc: number): string {
  const blk = BLOCK_BYTES / g.bytes;
  const ncr = Math.floor(g.cols / epr);
  if (ncr > 1 && g.rows * ncr < SMALL_RPT) return un2LCount(t, op, vr, vc);
  if (g.rows < ncr + 1) {
    if (vc % epr) return un2LCount(t, op, vr, vc);
    const head = Math.floor(vc / epr);
    for (let i = 0; i < vr; i++) op(head, 8, 8);
    return 'per-row norm mode';
  }
  const s = Math.floor(g.rowStride / blk);
  if (g.rows <= REPEAT_MAX && s <= REPEAT_STRIDE_MAX) {
    const loop = Math.floor(vc / epr);
    const tail = vc % epr;
    for (let i = 0; i < loop; i++) op(vr, s, s);
    if (tail) {
      t.contMask(tail);
      op(vr, s, s);
      t.fullMask();
    }
    return 'row-repeat mode';
  }
  let remain = vc % epr;
  const perLine = Math.floor(vc / epr);
  if (g.rows > epr) {
    if (perLine) {
      const loop = Math.floor(perLine / REPEAT_MAX);
      const rem = perLine % REPEAT_MAX;
      for (let i = 0; i < vr; i++) {
        for (let j = 0; j < loop; j++) op(REPEAT_MAX, 8, 8);
        if (rem) op(rem, 8, 8);
      }
    }
  } else remain = vc % epr;
  if (remain) {
    const overflow = s > REPEAT_STRIDE_MAX;
    const ss = s & 0xff;
    t.contMask(remain);
    let loop = 0;
    let rem = vr;
    if (g.rows > REPEAT_MAX) {
      loop = Math.floor(vr / REPEAT_MAX);
      for (let i = 0; i < loop; i++) {
        if (overflow) for (let j = 0; j < REPEAT_MAX; j++) op(1, 1, 1);
        else op(REPEAT_MAX, ss, ss);
      }
      rem = vr % REPEAT_MAX;
    }
    if (rem) {
      if (overflow) for (let j = 0; j < rem; j++) op(1, 1, 1);
      else op(rem, ss, ss);
    }
    t.fullMask();
  }
  return 'per-row loops';
}

/** TUnaryOp.hpp TUnaryOp for src and dst tiles of one shape (already reinterpreted for TNOT). */
export function unaryInstr(t: Trace, op: UnIssue, g: Geo, vr: number, vc: number): string {
  const epr = REPEAT_BYTE / g.bytes;
  if (g.rows === 1 || g.staticValidCol === g.cols) {
    const total = ceilDiv(g.rows * g.cols, epr);
    return total > REPEAT_MAX ? un1LCount(t, op, vr, vc) : un1LNorm(t, op, epr, vr, vc);
  }
  if (vc === g.cols || vr === 1) {
    const total = ceilDiv(vr * vc, epr);
    return total > REPEAT_MAX ? un1LCount(t, op, vr, vc) : un1LNorm(t, op, epr, vr, vc);
  }
  return un2LProcess(t, op, g, epr, vr, vc);
}

// ---- tile-scalar (TBinSOp.hpp TBinSInstr) -------------------------------------------------------

/** TBinSOp.hpp: `op(repeat, dstRepeatStride, srcRepeatStride)`. */
export function binSInstr(t: Trace, op: UnIssue, g: Geo, vr: number, vc: number): string {
  const epr = REPEAT_BYTE / g.bytes;
  const blk = BLOCK_BYTES / g.bytes;
  if (g.rows === 1 || g.staticValidCol === g.cols) {
    const total = ceilDiv(g.rows * g.cols, epr);
    const nonVL = g.cols % epr !== 0 && g.cols > epr;
    return nonVL || total > REPEAT_MAX ? un1LCount(t, op, vr, vc) : un1LNorm(t, op, epr, vr, vc);
  }
  // (the kernel's runtime "continuous" re-check repeats the compile-time one, so it is never taken)
  const ncr = Math.floor(g.cols / epr);
  if (ncr > 1 && g.rows * ncr < SMALL_RPT) return un2LCount(t, op, vr, vc);
  if (g.rows < ncr + 1) {
    if (vc % epr) return un2LCount(t, op, vr, vc);
    const head = Math.floor(vc / epr);
    for (let i = 0; i < vr; i++) op(head, 8, 8);
    return 'per-row norm mode';
  }
  const s = Math.floor(g.rowStride / blk);
  if (g.rows <= REPEAT_MAX && s <= REPEAT_STRIDE_MAX) {
    const loop = Math.floor(vc / epr);
    const tail = vc % epr;
    for (let i = 0; i < loop; i++) op(vr, s, s);
    if (tail) {
      t.contMask(tail);
      op(vr, s, s);
      t.fullMask();
    }
    return 'row-repeat mode';
  }
  let remain = vc;
  if (g.rows > epr) {
    const perLine = Math.floor(vc / epr);
    remain = vc % epr;
    if (perLine > 0) {
      const loop = Math.floor(perLine / REPEAT_MAX);
      const rem = perLine % REPEAT_MAX;
      for (let i = 0; i < vr; i++) {
        for (let j = 0; j < loop; j++) op(REPEAT_MAX, 8, 8);
        if (rem) op(rem, 8, 8);
      }
    }
  }
  if (remain) {
    const overflow = s > REPEAT_STRIDE_MAX;
    const ss = s & 0xff;
    t.contMask(remain);
    let loop = 0;
    let rem = vr;
    if (g.rows > REPEAT_MAX) {
      loop = Math.floor(vr / REPEAT_MAX);
      for (let i = 0; i < loop; i++) {
        if (overflow) for (let j = 0; j < REPEAT_MAX; j++) op(1, 1, 1);
        else op(REPEAT_MAX, ss, ss);
      }
      rem = vr % REPEAT_MAX;
    }
    if (rem) {
      if (overflow) for (let j = 0; j < rem; j++) op(1, 1, 1);
      else op(rem, ss, ss);
    }
    t.fullMask();
  }
  return 'per-row loops';
}
