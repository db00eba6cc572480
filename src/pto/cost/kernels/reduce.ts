/**
 * Reductions and expansions of the A2/A3 kernels, re-expressed from pto-isa @3186c381
 * include/pto/npu/a2a3/{TRowReduceOps,TRowSum,TRowMax,TRowMin,TColReduceOps,TColSum,TColMax,
 * TColMin,TRowExpand,TRowExpandBinOp,TRowExpand{Add,Sub,Mul,Div}}.hpp.
 */
import { type Trace, u64 } from '../trace.ts';
import type { CostInput } from '../types.ts';
import { BLOCK_BYTES, REPEAT_BYTE, REPEAT_MAX } from './elementwise.ts';

/** include/pto/common/constants.hpp TMP_UB_OFFSET: the UB scratch area of the row-expand kernels. */
const TMP_UB_OFFSET = 184 * 1024;

const B16_REPEAT_MAX = 65535;
const GROUP: Record<string, string> = { TROWSUM: 'vcgadd', TROWMAX: 'vcgmax', TROWMIN: 'vcgmin' };

/** pto_copy_ubuf_to_ubuf(dst, src, nBurst, lenBurst, srcGap, dstGap): lenBurst in 32-byte blocks. */
export function copyUbToUb(t: Trace, nBurst: number, lenBurst: number, srcGap: number, dstGap: number): void {
  t.mem('copy_ubuf_to_ubuf', 'UB_TO_UB', nBurst * lenBurst * BLOCK_BYTES, [
    0,
    nBurst,
    lenBurst,
    srcGap,
    dstGap,
  ]);
}

interface RowOps {
  bin: string;
  reduce: string;
  /** TRowSum's own FillTmp/TmpProc (pairwise tree) instead of the generic sequential ones. */
  sumTree: boolean;
  /** Initial value of the integer kernel's accumulator block. */
  intInit: (dtype: string) => number;
}

const ROW_OPS: Record<string, RowOps> = {
  TROWSUM: { bin: 'vadd', reduce: 'vcadd', sumTree: true, intInit: () => 0 },
  TROWMAX: {
    bin: 'vmax',
    reduce: 'vcmax',
    sumTree: false,
    intInit: (d) => (d === 'i16' ? -32768 : -(2 ** 31)),
  },
  TROWMIN: {
    bin: 'vmin',
    reduce: 'vcmin',
    sumTree: false,
    intInit: (d) => (d === 'i16' ? 32767 : 2 ** 31 - 1),
  },
};

/**
 * TROWSUM / TROWMAX / TROWMIN. `inp` describes the source tile; the destination's static column
 * count is `inp.dstCols` (the conformance driver's destination is a row-major one-block column:
 * 32 bytes of elements), the tmp tile has the source's shape.
 */
export function rowReduce(inp: CostInput, t: Trace, bytes: number): string {
  const ops = ROW_OPS[inp.op]!;
  const vr = inp.validRow;
  const vc = inp.validCol;
  const epb = BLOCK_BYTES / bytes;
  const epr = REPEAT_BYTE / bytes;
  if (inp.dtype === 'i16' || inp.dtype === 'i32') {
    const blocks = Math.floor(vc / epb);
    const rest = vc % epb;
    t.ctl('set_mask_count');
    for (let r = 0; r < vr; r++) {
      t.mask(0, epb);
      t.vec('vector_dup', 1, [u64(ops.intInit(inp.dtype)), 1, 1, 1, 0, 0]);
      t.barrier('PIPE_V');
      for (let b = 0; b < blocks; b++) {
        t.vec(ops.bin, 1, [1, 0, 0, 1, 0, 0, 1]);
        t.barrier('PIPE_V');
      }
      if (rest > 0) {
        t.mask(0, rest);
        t.vec(ops.bin, 1, [1, 0, 0, 1, 0, 0, 1]);
        t.barrier('PIPE_V');
      }
    }
    t.ctl('set_mask_norm');
    t.fullMask();
    return 'integer block accumulation';
  }
  // TryOptimizeFP32Reduce: static f32 shapes with a col-major one-column destination
  if (inp.dtype === 'f32' && inp.dstColMajor && inp.dstStaticValidCol === 1 && inp.srcStaticFull) {
    const group = (rpt: number) => t.vec(GROUP[inp.op]!, rpt, [rpt & 0xff, 1, 1, 8]);
    const fold = (rpt: number) => t.vec(ops.bin, rpt, [rpt & 0xff, 1, 2, 2, 8, 16, 16]);
    const steps: Record<string, (() => void)[]> = {
      '64x128': [() => group(vr * 2), () => fold(vr / 8), () => group(vr / 8)],
      '32x256': [() => group(vr * 4), () => fold(vr / 4), () => fold(vr / 8), () => group(vr / 8)],
      '16x512': [() => group(vr * 8), () => group(vr), () => group(vr / 8)],
      '8x1024': [() => group(vr * 16), () => group(vr * 2), () => fold(vr / 8), () => group(vr / 8)],
    };
    const plan = steps[`${inp.rows}x${inp.cols}`];
    if (plan && vr === inp.rows && vc === inp.cols) {
      for (const step of plan) {
        step();
        t.barrier('PIPE_V');
      }
      return 'f32 group-reduce shortcut (static shape)';
    }
  }
  const dstCols = inp.dstCols ?? epb;
  const srcCols = inp.cols;
  const D = dstCols;
  const S = srcCols / epb;
  const T = srcCols / epb;
  const reduce = (rpt: number, dStride: number, sStride: number) =>
    t.vec(ops.reduce, rpt, [rpt & 0xff, dStride & 0xffff, 1, sStride & 0xffff, 0]);
  const bin = (rpt: number, d: number, s0: number, s1: number) =>
    t.vec(ops.bin, rpt, [rpt & 0xff, 1, 1, 1, d & 0xffff, s0 & 0xffff, s1 & 0xffff]);
  const reduceByMode = (cnt: boolean, rpt: number, dStride: number, sStride: number) => {
    if (dStride > B16_REPEAT_MAX) {
      for (let i = 0; i < rpt; i++) reduce(1, 0, 0);
    } else if (cnt) {
      t.ctl('set_mask_count');
      t.mask(0, (rpt * epr) >>> 0);
      reduce(0, dStride, sStride);
      t.ctl('set_mask_norm');
      t.fullMask();
    } else reduce(rpt, dStride, sStride);
  };
  const binByMode = (cnt: boolean, rpt: number, d: number, s0: number, s1: number) => {
    if (d > REPEAT_MAX || s0 > REPEAT_MAX || s1 > REPEAT_MAX) {
      for (let i = 0; i < rpt; i++) bin(1, 0, 0, 0);
    } else if (cnt) {
      t.ctl('set_mask_count');
      t.mask(0, rpt * epr);
      bin(0, d, s0, s1);
      t.ctl('set_mask_norm');
      t.fullMask();
    } else bin(rpt, d, s0, s1);
  };
  const srcRptPerRow = Math.floor(vc / epr);
  const remain = vc % epr;
  let rowRptTimes = Math.floor(vr / REPEAT_MAX);
  if (vc <= epr) {
    if (vc === epr) {
      reduceByMode(true, vr, D, S);
      t.barrier('PIPE_V');
      return 'one repeat per row, count mode';
    }
    t.contMask(remain);
    do {
      const rpt = rowRptTimes === 0 ? vr % REPEAT_MAX : REPEAT_MAX;
      reduceByMode(false, rpt, D, S);
      t.barrier('PIPE_V');
      rowRptTimes -= 1;
    } while (rowRptTimes >= 0);
    t.fullMask();
    return 'one masked repeat per row';
  }
  if (vc < 2 * epr) {
    if (S < 8 || T < 8) return 'nothing issued';
    copyUbToUb(t, vr, 8, S - 8, T - 8);
    t.barrier('PIPE_V');
  }
  if (ops.sumTree) {
    for (let i = 0; i < Math.floor(srcRptPerRow / 2); i++) {
      binByMode(true, vr, T, S, S);
      t.barrier('PIPE_V');
    }
    if (srcRptPerRow !== 1 && srcRptPerRow % 2 === 1) {
      binByMode(true, vr, T, T, S);
      t.barrier('PIPE_V');
    }
  } else if (vc >= 2 * epr) {
    binByMode(true, vr, T, S, S);
    t.barrier('PIPE_V');
  }
  if (remain > 0) {
    t.contMask(remain);
    do {
      const rpt = rowRptTimes === 0 ? vr % REPEAT_MAX : REPEAT_MAX;
      binByMode(false, rpt, T, T, S);
      rowRptTimes -= 1;
    } while (rowRptTimes >= 0);
    t.fullMask();
    t.barrier('PIPE_V');
  }
  if (ops.sumTree) {
    let curLen = Math.floor(srcRptPerRow / 2);
    while (curLen > 1) {
      for (let i = 0; i < Math.floor(curLen / 2); i++) {
        binByMode(true, vr, T, T, T);
        t.barrier('PIPE_V');
      }
      const loopRemain = curLen % 2;
      curLen = Math.floor(curLen / 2);
      if (loopRemain > 0) {
        binByMode(true, vr, T, T, T);
        t.barrier('PIPE_V');
      }
    }
  } else {
    for (let i = 2; i < srcRptPerRow; i++) {
      binByMode(true, vr, T, T, S);
      t.barrier('PIPE_V');
    }
  }
  reduceByMode(true, vr, D, T);
  t.barrier('PIPE_V');
  return 'fold into tmp, then reduce';
}

/** TCOLSUM (2-argument form, or `form: tmp,isBinary=…`), TCOLMAX, TCOLMIN. */
export function colReduce(inp: CostInput, t: Trace, bytes: number): string {
  const vr = inp.validRow;
  const vc = inp.validCol;
  if (vr === 0 || vc === 0) return 'empty';
  const lenBurst = Math.floor((vc * bytes + BLOCK_BYTES - 1) / BLOCK_BYTES);
  const vadd0 = () => t.vec('vadd', 0, [0, 1, 1, 1, 8, 8, 8]);
  if (inp.op === 'TCOLSUM') {
    const form = inp.form ?? '';
    const withTmp = form.startsWith('tmp');
    const binary = /isBinary=true/.test(form);
    const sequential = () => {
      t.ctl('set_mask_count');
      t.mask(0, vc);
      for (let i = 1; i < vr; i++) {
        vadd0();
        t.barrier('PIPE_V');
      }
      t.ctl('set_mask_norm');
      t.fullMask();
    };
    if (!withTmp) {
      copyUbToUb(t, 1, lenBurst, 0, 0);
      if (vr > 1) {
        t.barrier('PIPE_V');
        sequential();
      }
      return 'sequential column sum';
    }
    if (vr === 1) {
      copyUbToUb(t, 1, lenBurst, 0, 0);
      t.barrier('PIPE_V');
      return 'single row copy';
    }
    if (!binary) {
      copyUbToUb(t, 1, lenBurst, 0, 0);
      t.barrier('PIPE_V');
      sequential();
      return 'sequential column sum';
    }
    const binarySum = (rows: number) => {
      t.ctl('set_mask_count');
      t.mask(0, vc);
      for (let i = 0; i < Math.floor(rows / 2); i++) vadd0();
      t.barrier('PIPE_V');
      if (rows % 2 === 1) {
        vadd0();
        t.barrier('PIPE_V');
      }
      t.ctl('set_mask_norm');
      t.fullMask();
    };
    binarySum(vr);
    let cnt = Math.floor(vr / 2);
    while (cnt > 1) {
      binarySum(cnt);
      t.barrier('PIPE_V');
      cnt = Math.floor(cnt / 2);
    }
    copyUbToUb(t, 1, lenBurst, 0, 0);
    t.barrier('PIPE_V');
    return 'binary-tree column sum';
  }
  const intr = inp.op === 'TCOLMAX' ? 'vmax' : 'vmin';
  copyUbToUb(t, 1, lenBurst, 0, 0);
  t.barrier('PIPE_V');
  if (vr === 1) return 'single row copy';
  const epr = REPEAT_BYTE / bytes;
  const perLine = Math.floor(vc / epr);
  const remain = vc % epr;
  if (perLine > 0) {
    t.ctl('set_mask_count');
    t.mask(0, perLine * epr);
    for (let i = 1; i < vr; i++) {
      t.vec(intr, 0, [0, 1, 1, 1, 8, 8, 8]);
      t.barrier('PIPE_V');
    }
    t.ctl('set_mask_norm');
    t.fullMask();
  }
  if (remain > 0) {
    t.contMask(remain);
    for (let i = 1; i < vr; i++) {
      t.vec(intr, 1, [1, 1, 1, 1, 8, 8, 8]);
      t.barrier('PIPE_V');
    }
    t.fullMask();
  }
  t.barrier('PIPE_V');
  return 'row-by-row column reduce';
}

/** TROWEXPAND: one count-mode vector_dup per valid row (B82B16Trait packs 8-bit pairs). */
/**
 * TROWEXPAND's compile-time broadcast (TRowExpandBrcb): b16/b32 tiles whose valid shapes are
 * static and full, a one-row row-major [1, M] or one-column col-major [M, 1] source and an
 * [M, 32 B] destination. `vbrcb` copies one element to one 32-byte block, 8 per repeat, in
 * chunks of at most 254 repeats (keeping the source offset 32-byte aligned).
 */
export function rowExpandBrcbApplies(inp: CostInput, bytes: number): boolean {
  const s = inp.src;
  const d = inp.dst;
  if (!s || !d || (bytes !== 2 && bytes !== 4)) return false;
  const full = (x: NonNullable<CostInput['src']>) => x.vRow === x.rows && x.vCol === x.cols;
  if (!full(s) || !full(d)) return false;
  const epb = BLOCK_BYTES / bytes;
  if (d.cols !== epb) return false;
  return s.blayout === 'row_major' ? s.rows === 1 && s.cols === d.rows : s.cols === 1 && s.rows === d.rows;
}

export function rowExpandBrcb(inp: CostInput, t: Trace): string {
  const s = inp.src!;
  const repeat = Math.floor((s.rows * s.cols) / 8);
  const loop = Math.floor(repeat / 254);
  const remain = repeat % 254;
  for (let i = 0; i < loop; i++) t.vec('vbrcb', 254, [1, 8, 254]);
  if (remain > 0) t.vec('vbrcb', remain, [1, 8, remain]);
  return 'static broadcast (vbrcb)';
}

export function rowExpand(inp: CostInput, t: Trace, bytes: number): string {
  const vc = bytes === 1 ? Math.ceil(inp.validCol / 2) : inp.validCol;
  t.ctl('set_mask_count');
  t.mask(0, vc);
  for (let i = 0; i < inp.validRow; i++) t.vec('vector_dup', 0, [null, 0, 1, 1, 8, 0]);
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'per-row vector_dup';
}

/**
 * TROWEXPANDADD/SUB/MUL/DIV with a row-major src1 of one 32-byte block per row
 * (TRowExpandBinaryInstr32B); `Rows` static rows of dst, dst and src0 share the row stride.
 */
export function rowExpandBinary(inp: CostInput, t: Trace, bytes: number, intr: string): string {
  const epr = REPEAT_BYTE / bytes;
  const epb = BLOCK_BYTES / bytes;
  const stride = inp.cols;
  const vr = inp.validRow;
  const vc = inp.validCol;
  const dRS = Math.floor(stride / epb) & 0xff;
  const overflow = stride / epb > 255;
  const useCount = overflow || Math.floor(vc / epr) > vr;
  // a col-major src1 is read from the broadcast copy at TMP_UB_OFFSET: an integer address the trace
  // keeps (the tile pointers are host pointers and dropped)
  const src1Addr = inp.src1ColMajor ? [TMP_UB_OFFSET] : [];
  const countMode = () => {
    t.ctl('set_mask_count');
    t.mask(0, vc);
    // per row, src1 advances one 32-byte block (row i of the broadcast copy)
    for (let i = 0; i < vr; i++) {
      const a = src1Addr.length ? [TMP_UB_OFFSET + i * BLOCK_BYTES] : [];
      t.vec(intr, 0, [...a, 0, 1, 1, 0, 8, 8, 0]);
    }
    t.ctl('set_mask_norm');
    t.fullMask();
    return 'per-row count mode';
  };
  const normTail = (rows: number) => {
    const issue = () => t.vec(intr, rows, [...src1Addr, rows & 0xff, 1, 1, 0, dRS, dRS, 1]);
    if (stride < epr) {
      t.contMask(vc);
      issue();
      t.fullMask();
      return;
    }
    const loop = Math.floor(vc / epr);
    const rem = vc % epr;
    for (let i = 0; i < loop; i++) issue();
    if (rem) {
      t.contMask(rem);
      issue();
      t.fullMask();
    }
  };
  if (inp.src1ColMajor) {
    // TRowExpandBinaryInstr: a column src1 (rows × 1) is first broadcast to one 32-byte block per
    // row in the 8 KB tmp buffer with vbrcb (8 rows per repeat), then used like the 32-byte form
    // its destination is the fixed UB scratch address TMP_UB_OFFSET = 184 KiB (constants.hpp), an
    // integer the trace keeps (only host pointers are dropped)
    const brcb = (rpt: number) => {
      t.vec('vbrcb', rpt, [TMP_UB_OFFSET, 1, 8, rpt & 0xff]);
      t.barrier('PIPE_V');
    };
    if (inp.rows < 256 || vr < 256) {
      brcb(Math.ceil(vr / 8));
      if (useCount) return `vbrcb + ${countMode()}`;
      normTail(vr);
      return 'vbrcb + row-repeat mode';
    }
    // more than 255 rows: 30-repeat (240-row) vbrcb slices
    const repeatTimes = Math.ceil(vr / 8);
    for (let i = 0; i < Math.floor(repeatTimes / 30); i++) {
      brcb(30);
      normTail(240);
      t.barrier('PIPE_V');
    }
    if (repeatTimes % 30) {
      brcb(repeatTimes % 30);
      normTail(vr % 240);
    }
    return 'vbrcb + row-repeat mode in 240-row slices';
  }
  if (inp.rows < 256 || vr < 256) {
    if (useCount) return countMode();
    normTail(vr);
    return 'row-repeat mode';
  }
  for (let i = 0; i < Math.floor(vr / REPEAT_MAX); i++) normTail(REPEAT_MAX);
  if (vr % REPEAT_MAX) normTail(vr % REPEAT_MAX);
  return 'row-repeat mode in 255-row slices';
}
