/**
 * Kernels the pto-isa cost-model build does not wire (its `__COSTMODEL` block of pto_instr_impl.hpp
 * has no TEXPANDS, TCOLEXPAND* or TFILLPAD), so the reference prints no cycles for them. axsim
 * derives a price the way the build prices every wired op: the A2/A3 device kernel's intrinsic
 * sequence (pto-isa @3186c381 include/pto/npu/a2a3/TExpandS.hpp, TColExpandBinOp.hpp,
 * TColExpandMul.hpp, TFillPad.hpp), each intrinsic priced by its cce_costmodel stub (`VEC_COST`:
 * vector_dup and vcopy 11 / 1 / 13, vmul 10 / 2 / 15; control intrinsics 1). Paths chosen from the
 * tiles' static facts as the kernels' `if constexpr` do; docs/pto-as.md "Derived prices".
 */
import { unsupported } from '../../../errors.ts';
import type { Trace } from '../trace.ts';
import type { CostInput, TileFacts } from '../types.ts';
import { REPEAT_BYTE, REPEAT_MAX } from './elementwise.ts';

const ceilDiv = (a: number, b: number) => Math.floor((a + b - 1) / b);
const rowMajor = (f: TileFacts | undefined) => f === undefined || f.blayout !== 'col_major';

/**
 * TEXPANDS on a Vec tile (TExpandS.hpp `TExpandS`): count mode, one vector_dup of `n` elements
 * (repeat 0) for a contiguous region, else one per valid row. 8-bit types are duplicated as 16-bit
 * pairs (B82B16Trait: half the element count).
 */
export function texpands(inp: CostInput, t: Trace, bytes: number, scalar: number | null): string {
  if (inp.layout === 'CM' || (inp.dst && inp.dst.loc !== 'vec'))
    throw unsupported('pto-isa A2/A3 model (derived): TEXPANDS prices row-major Vec tiles only', {
      hint: 'Mat tiles use pto_create_cbuf_matrix, which the cost build has no stub for',
    });
  const trans = (n: number) => (bytes === 1 ? ceilDiv(n, 2) : n);
  const sv = inp.staticValidCol ?? inp.dst?.vCol ?? -1;
  const continuous = inp.rows === 1 || sv === inp.cols || inp.validRow === 1 || inp.validCol === sv;
  const dup = () => t.vec('vector_dup', 0, [scalar, 0, 1, 1, 8, 8]);
  t.ctl('set_mask_count');
  if (continuous) {
    t.mask(0, trans(inp.validRow * inp.validCol));
    dup();
  } else {
    t.mask(0, trans(inp.validCol));
    for (let r = 0; r < inp.validRow; r++) dup();
  }
  t.ctl('set_mask_norm');
  t.fullMask();
  return continuous ? 'derived: TExpandsVec1D (count mode)' : 'derived: TExpandsVec2D (count mode, per row)';
}

/**
 * TCOLEXPAND{ADD,SUB,MUL,DIV,MAX,MIN} (TColExpandBinOp.hpp): with dst's columns all valid (static) or
 * one row, norm mode — one `intr` of validRow repeats per 256-byte column chunk (a tail chunk under
 * a continuous mask), src1's repeat stride 0; else count mode, one `intr` per row.
 */
export function colExpandBinary(inp: CostInput, t: Trace, bytes: number, intr: string): string {
  const dst = inp.dst;
  const full = inp.src;
  if (!rowMajor(dst) || !rowMajor(full))
    throw unsupported(
      'pto-isa A2/A3 model (derived): TCOLEXPAND* takes row-major tiles (static_assert isRowMajor)',
    );
  const rows = dst?.rows ?? inp.rows;
  const cols = dst?.cols ?? inp.cols;
  const vr = dst?.validRow ?? inp.validRow;
  const vc = dst?.validCol ?? inp.validCol;
  const staticFull = (dst?.vCol ?? inp.staticValidCol ?? -1) === cols;
  const blockElems = 32 / bytes;
  const epr = REPEAT_BYTE / bytes;
  if (staticFull || rows === 1) {
    const dstStride = cols;
    const srcStride = full?.cols ?? cols;
    const dRS = Math.floor(dstStride / blockElems);
    const sRS = Math.floor(srcStride / blockElems);
    const issue = () => t.vec(intr, vr, [vr & 0xff, 1, 1, 1, dRS & 0xff, sRS & 0xff, 0]);
    if (dstStride < epr && srcStride < epr) {
      t.contMask(vc);
      issue();
      t.fullMask();
    } else {
      const loops = Math.floor(vc / epr);
      const rem = vc % epr;
      for (let i = 0; i < loops; i++) issue();
      if (rem) {
        t.contMask(rem);
        issue();
        t.fullMask();
      }
    }
    return 'derived: TColExpandBinaryNormMode';
  }
  t.ctl('set_mask_count');
  t.mask(0, vc);
  for (let r = 0; r < vr; r++) t.vec(intr, 0, [0, 1, 1, 1, 8, 8, 8]);
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'derived: TColExpandBinaryCountMode (per row)';
}

/**
 * TFILLPAD Vec -> Vec (TFillPad.hpp `TFILLPAD_IMPL` / `TFillPad`): vcopy the source's valid rows,
 * then (pad values differ) dup the pad into each row's last 32-byte block, dup the pad right of
 * row 0 and vcopy it to the other rows, and dup the pad into the rows below.
 */
export function tfillpad(inp: CostInput, t: Trace, bytes: number): string {
  const src = inp.src;
  const dst = inp.dst;
  if (!src || !dst || src.loc !== 'vec' || dst.loc !== 'vec')
    throw unsupported('pto-isa A2/A3 model (derived): TFILLPAD prices Vec -> Vec only');
  if (dst.validRow === 0 || dst.validCol === 0) return 'empty destination (not issued)';
  const b8 = bytes === 1;
  const copySrcCols = b8 ? Math.floor(src.cols / 2) : src.cols;
  const copyDstCols = b8 ? Math.floor(dst.cols / 2) : dst.cols;
  const sRS = Math.floor((src.cols * bytes) / 32);
  const dRS = Math.floor((dst.cols * bytes) / 32);
  t.ctl('set_mask_count');
  t.mask(0, copySrcCols);
  let rows = src.validRow;
  if (src.rows > REPEAT_MAX) {
    while (rows > REPEAT_MAX) {
      t.vec('vcopy', REPEAT_MAX, [REPEAT_MAX, 1, 1, dRS, sRS]);
      rows -= REPEAT_MAX;
    }
  }
  t.vec('vcopy', rows & 0xff, [rows & 0xff, 1, 1, dRS, sRS]);
  const epb = b8 ? 16 : 32 / bytes;
  const vc32 = b8 ? ceilDiv(ceilDiv(src.validCol, 2), epb) * epb : ceilDiv(src.validCol, epb) * epb;
  const padCols = copyDstCols - vc32;
  if ((dst.pad ?? 0) !== (src.pad ?? 0)) {
    if (b8) {
      // PtoSetWaitFlag<PIPE_V, PIPE_S>, scalar stores, dsb(DSB_UB)
      t.ctl('set_flag');
      t.ctl('wait_flag');
      t.ctl('dsb');
    } else {
      t.ctl('set_mask_norm');
      // the mask selects the pad lanes of the last 32-byte block of each row
      const shift = epb - (vc32 - src.validCol);
      t.mask(0, ((bytes === 4 ? 0xff : 0xffff) >>> shift) << shift);
      let fill = src.validRow;
      if (src.rows > REPEAT_MAX && fill > REPEAT_MAX) {
        t.vec('vector_dup', REPEAT_MAX, [null, REPEAT_MAX, 1, 1, dRS, 0]);
        fill -= REPEAT_MAX;
      }
      if (fill) t.vec('vector_dup', fill & 0xff, [null, fill & 0xff, 1, 1, dRS, 0]);
      t.barrier('PIPE_V');
    }
  }
  // PadRightSingleRow
  t.ctl('set_mask_count');
  t.mask(0, padCols);
  t.vec('vector_dup', 1, [null, 1, 1, 1, 8, 0]);
  t.barrier('PIPE_V');
  // PadRightRemainingRows
  if (src.rows > 1) {
    let fill = src.validRow > 0 ? src.validRow - 1 : 0;
    if (src.rows > REPEAT_MAX) {
      while (fill > REPEAT_MAX) {
        t.vec('vcopy', REPEAT_MAX, [REPEAT_MAX, 1, 0, dRS, 0]);
        fill -= REPEAT_MAX;
      }
    }
    if (fill & 0xff) t.vec('vcopy', fill & 0xff, [fill & 0xff, 1, 0, dRS, 0]);
  }
  // PadBottomRows
  const padRows = dst.validRow - src.validRow;
  if (padRows > 0) {
    t.mask(0, padRows * copyDstCols);
    t.vec('vector_dup', 1, [null, 1, 1, 1, 8, 0]);
  }
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'derived: TFillPad (vcopy rows, dup the pad right and below)';
}
