/**
 * Cube-side data movement of the A2/A3 cost-model build: TMOV between on-chip buffers, TLOAD into
 * L1 (mat tiles), TSTORE from L0C (acc tiles), and the bias / GEMV forms of the `mad` kernel.
 *
 * Re-expressed from reading pto-isa @3186c381: include/pto/npu/a2a3/TMov.hpp, TExtract.hpp,
 * TLoad.hpp, TStore.hpp, TMatmul.hpp, include/pto/common/arch/memory/{tmov,textract,tload,tstore}
 * _common.hpp, include/pto/common/arch_cce_intrinsic.hpp (which A2/A3 intrinsic a wrapper calls),
 * and the stubs cce_costmodel_memory.hpp / _cube.hpp / _sync.hpp that price them. What each stub
 * charges:
 *   - copies: floor(bytes / 2^30 / BW · 1.85e9) on their pipe (trace.ts `bandwidthCycles`), with
 *     bytes = nBurst·lenBurst·32 (copy_gm_to_cbuf, copy_ubuf_to_ubuf), ndNum·n·d·sizeof
 *     (nd2nz loads), repeat·16·32 (load_cbuf_to_ca/cb and their _transpose forms), stepK·stepM·2
 *     (img2colv2_cbuf_to_ca/cb, whatever the element size), nSize·mSize·2 (copy_matrix_cc_to_cbuf;
 *     copy_matrix_cc_to_gm reads m and n back out of its Xm register), nBurst·lenBurst·64
 *     (copy_cbuf_to_bt);
 *   - set_fmatrix / set_fmatrix_b / set_nd_para: 1 cycle each;
 *   - mad: 6 + (2 if A is f32 else 1)·⌈m/16⌉·⌈k/(32/sizeof A)⌉·⌈n/16⌉.
 * Paths the A2/A3 build rejects (static_assert) or cannot compile are Unsupported.
 */
import { unsupported } from '../../../errors.ts';
import type { Trace } from '../trace.ts';
import type { CostInput, TileFacts } from '../types.ts';
import { BYTES } from './index.ts';

const ceilDiv = (a: number, b: number) => Math.floor((a + b - 1) / b);
const u16 = (v: number) => v & 0xffff;

function size(t: TileFacts, op: string): number {
  const b = BYTES[t.dtype];
  if (!b) throw unsupported(`pto-isa A2/A3 model: ${op} has no A2/A3 kernel for ${t.dtype}`);
  return b;
}

/** GetTileLayoutCustom: ND, DN, NZ, ZN (the last two only with 512-byte fractals). */
function tileLayout(t: TileFacts): 'ND' | 'DN' | 'NZ' | 'ZN' | 'other' {
  const rowMajor = t.blayout === 'row_major';
  if (t.slayout === 'none_box') return rowMajor ? 'ND' : 'DN';
  if (t.fractal !== 512) return 'other';
  if (!rowMajor && t.slayout === 'row_major') return 'NZ';
  if (rowMajor && t.slayout === 'col_major') return 'ZN';
  return 'other';
}

const isNz = (t: TileFacts) => t.blayout === 'col_major' && t.slayout === 'row_major';

interface Gm2d {
  /** gShape3 / gShape4 and gStride3 / gStride4 of the 5-D global tensor. */
  r: number;
  c: number;
  s3: number;
  s4: number;
  layout: 'ND' | 'DN';
}

/** The global view as the kernels see it: a 2-D ND (unit inner stride) or DN (unit outer stride) tensor. */
function gm2d(inp: CostInput): Gm2d {
  const shape = inp.gmShape;
  const strides = inp.gmStrides;
  if (!shape || !strides || shape.length === 0) {
    throw unsupported(
      `pto-isa A2/A3 model: ${inp.op} on a cube tile needs the global view's shape and strides`,
    );
  }
  const lead = shape.slice(0, -2).reduce((a, b) => a * b, 1);
  if (lead !== 1) {
    throw unsupported(
      `pto-isa A2/A3 model: ${inp.op} of a cube tile from a view with outer dims is not modelled`,
      {
        hint: 'the nd2nz / L0C copies take 2-D global tensors (Shape0..2 = 1)',
      },
    );
  }
  const r = shape.length >= 2 ? shape[shape.length - 2]! : 1;
  const c = shape[shape.length - 1]!;
  const s4 = strides[strides.length - 1]!;
  const s3 = strides.length >= 2 ? strides[strides.length - 2]! : c * s4;
  if (s4 === 1) return { r, c, s3, s4, layout: 'ND' };
  if (s3 === 1) return { r, c, s3, s4, layout: 'DN' };
  throw unsupported(
    `pto-isa A2/A3 model: ${inp.op}: global view strides [${strides.join(', ')}] are neither ND nor DN`,
  );
}

/** copy_gm_to_cbuf_multi_nd2nz_b8/b16/b32s (pto_copy_gm_to_cbuf_multi_nd2nz on A2/A3). */
function nd2nz(t: Trace, bytes: number, n: number, d: number, srcD: number, c0Stride: number): void {
  const name = `copy_gm_to_cbuf_multi_nd2nz_${bytes === 1 ? 'b8' : bytes === 2 ? 'b16' : 'b32s'}`;
  // (sid, ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride, dstNzMatrixStride)
  t.mem(name, 'GM_TO_L1', u16(n) * u16(d) * bytes, [0, 1, u16(n), u16(d), 0, u16(srcD), u16(c0Stride), 1, 1]);
}

/** TLOAD into a mat (L1) tile: TLOAD_TILE_IMPL's Mat branch (TLoadGm2L1 / Nd2nz / Dn2zn). */
export function tloadMat(inp: CostInput, t: Trace): string {
  const tile = inp.dst!;
  const b = size(tile, 'TLOAD');
  const tl = tileLayout(tile);
  const g = gm2d(inp);
  if (g.layout === 'ND' && tl === 'ND') {
    if (tile.rows === 1) {
      nd2nz(t, b, g.r, g.c, g.s3, tile.rows);
      return 'GM → L1 ND vector (nd2nz)';
    }
    // TLoadGm2L1Nd2nd: one copy_gm_to_cbuf of gShape3 bursts of validCol·sizeof bytes (32-byte units)
    const nBurst = u16(g.r);
    const lenBurst = u16((tile.validCol * b) >> 5);
    const gmGap = u16(((g.s3 - g.c) * b) >> 5);
    const l1Gap = u16(((tile.cols - tile.validCol) * b) >> 5);
    t.mem('copy_gm_to_cbuf', 'GM_TO_L1', nBurst * lenBurst * 32, [0, nBurst, lenBurst, gmGap, l1Gap, 0]);
    return 'GM → L1 ND → ND burst copy';
  }
  if (g.layout === 'DN' && tl === 'DN') {
    if (tile.cols === 1) {
      nd2nz(t, b, g.c, g.r, g.s3, tile.cols);
      return 'GM → L1 DN vector (nd2nz)';
    }
    const nBurst = u16(g.c);
    const lenBurst = u16((tile.validRow * b) >> 5);
    const gmGap = u16(((g.s4 - g.r) * b) >> 5);
    const l1Gap = u16(((tile.rows - g.r) * b) >> 5);
    t.mem('copy_gm_to_cbuf', 'GM_TO_L1', nBurst * lenBurst * 32, [0, nBurst, lenBurst, gmGap, l1Gap, 0]);
    return 'GM → L1 DN → DN burst copy';
  }
  if (g.layout === 'ND' && tl === 'NZ') {
    nd2nz(t, b, g.r, g.c, g.s3, tile.rows);
    return 'GM → L1 ND → NZ (nd2nz)';
  }
  if (g.layout === 'DN' && tl === 'ZN') {
    nd2nz(t, b, g.c, g.r, g.s4, tile.cols);
    return 'GM → L1 DN → ZN (nd2nz)';
  }
  throw unsupported(`pto-isa A2/A3 model: TLOAD of a ${g.layout} view into a ${tl} mat tile`, {
    hint: 'the A2/A3 kernel accepts ND→ND, DN→DN, ND→NZ (col_major/row_major) and DN→ZN (row_major/col_major)',
  });
}

/**
 * TSTORE from a mat (L1) tile: TStoreMat, one `copy_cbuf_to_gm` of 32-byte bursts (ND tiles: one
 * burst per row; DN tiles: one per column). CheckStaticForVecAndMat requires the view's layout to
 * match the tile's, except for one-row / one-column tiles.
 */
export function tstoreMat(inp: CostInput, t: Trace): string {
  const tile = inp.src!;
  const b = size(tile, 'TSTORE');
  const tl = tileLayout(tile);
  const g = gm2d(inp);
  const vector = tile.rows === 1 || tile.cols === 1;
  const copy = (nBurst: number, lenBurst: number, srcStride: number, dstStride: number) =>
    t.mem('copy_cbuf_to_gm', 'L1_TO_GM', u16(nBurst) * u16(lenBurst) * 32, [
      0,
      u16(nBurst),
      u16(lenBurst),
      u16(srcStride),
      u16(dstStride),
    ]);
  if (tl === 'ND' && (g.layout === 'ND' || vector)) {
    // TStoreMat2GmNd2Nd: gShape3 bursts of validCol·sizeof bytes
    copy(g.r, (tile.validCol * b) >> 5, ((tile.cols - tile.validCol) * b) >> 5, ((g.s3 - g.c) * b) >> 5);
    return 'L1 → GM ND burst copy';
  }
  if (tl === 'DN' && (g.layout === 'DN' || vector)) {
    // TStoreMat2GmDn2Dn: gShape4 bursts of validRow·sizeof bytes
    copy(g.c, (tile.validRow * b) >> 5, ((tile.rows - g.r) * b) >> 5, ((g.s4 - g.r) * b) >> 5);
    return 'L1 → GM DN burst copy';
  }
  throw unsupported(`pto-isa A2/A3 model: TSTORE of a ${tl} mat tile to a ${g.layout} view`, {
    hint: 'the A2/A3 kernel stores ND tiles to ND views and DN tiles to DN views (NZ tiles need an NZ tensor)',
  });
}

/** GetCastPreQuantMode: f32 → f16 is F322F16 (1), f32 → bf16 is F322BF16 (16), else NoQuant. */
function castQuant(src: string, dst: string): number {
  if (src !== 'f32') return 0;
  return dst === 'f16' ? 1 : dst === 'bf16' ? 16 : 0;
}

/** TSTORE from an acc (L0C) tile to an ND global tensor: TStoreAccNz2nd. */
export function tstoreAcc(inp: CostInput, t: Trace): string {
  const tile = inp.src!;
  if (tile.dtype !== 'f32' && tile.dtype !== 'i32') {
    throw unsupported(`pto-isa A2/A3 model: TSTORE from an acc tile of ${tile.dtype} (f32/i32 only)`);
  }
  const gd = inp.gmDtype ?? tile.dtype;
  if (!['i32', 'f32', 'f16', 'bf16'].includes(gd)) {
    throw unsupported(`pto-isa A2/A3 model: TSTORE from acc to a ${gd} tensor needs a quantizing store`);
  }
  const g = gm2d(inp);
  if (g.layout !== 'ND') {
    throw unsupported('pto-isa A2/A3 model: TSTORE from acc to a DN view', {
      hint: 'the A2/A3 kernel writes ND, NZ, NC1HWC0 or NDC1HWC0 tensors',
    });
  }
  if (tile.cols < 1 || tile.cols > 4095 || tile.rows > 8192) {
    throw unsupported(
      'pto-isa A2/A3 model: TSTORE from acc: Cols must be in [1, 4095] and Rows in [1, 8192]',
    );
  }
  const m = u16(tile.validRow);
  const n = u16(tile.validCol);
  const dstStride = g.s3;
  const xm = BigInt(n & 0xfff) * 16n + BigInt(m) * 65536n + BigInt(dstStride >>> 0) * 2n ** 32n;
  // Xt: source stride (the tile's Rows), quant mode at bit 34, nz2nd enable at bit 43
  const xt = BigInt(u16(tile.rows)) + BigInt(castQuant(tile.dtype, gd)) * 2n ** 34n + 2n ** 43n;
  // ND_PARA holds the ND count (validCol / gShape4 = 1), the source ND stride Rows·16·gShape4 and
  // the destination ND stride gStride2, which depends on how the view is padded to 5-D: recorded
  // as an unknown argument
  t.ctl('set_nd_para', 0);
  t.terms[t.terms.length - 1]!.args = [null];
  // copy_matrix_cc_to_gm prices m·n·2 bytes on L0C → GM whatever the element size
  t.mem('copy_matrix_cc_to_gm', 'L0C_TO_GM', m * n * 2, [Number(xm), Number(xt)]);
  return 'L0C → GM NZ → ND (copy_matrix_cc_to_gm)';
}

/** TMOV mat → left (TMovToLeft with CompactMode::Null, the only mode PTO-AS tile types express). */
function movToLeft(src: TileFacts, dst: TileFacts, t: Trace): string {
  const b = size(src, 'TMOV');
  if (src.rows === 1 && src.blayout === 'row_major') {
    // TExtractToAVector calls load_cbuf_to_ca with 9 arguments; the A2/A3 stub takes 7, so the
    // reference cost build cannot compile this path
    throw unsupported('pto-isa A2/A3 model: TMOV of a one-row mat tile to left (TExtractToAVector)', {
      hint: 'the cost build has no load_cbuf_to_ca overload for this call',
    });
  }
  const c0 = 32 / b;
  if (src.slayout === dst.slayout) {
    if (src.rows % 16 || src.cols % c0 || dst.rows % 16 || dst.cols % c0) {
      throw unsupported(`pto-isa A2/A3 model: TMOV to left needs rows % 16 = 0 and cols % ${c0} = 0`);
    }
    t.ctl('set_fmatrix', src.rows + 65536);
    // img2colv2_cbuf_to_ca(stepK = dstCol, stepM = dstRow, posK, posM, strides/filters/dilations 1,
    // highFilterW/H, transpose, fmatrixCtrl, channelSize = srcCol)
    t.mem('img2colv2_cbuf_to_ca', 'L1_TO_L0A', dst.cols * dst.rows * 2, [
      dst.cols,
      dst.rows,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      0,
      0,
      src.cols,
    ]);
    return 'L1 → L0A img2colv2 (no transpose)';
  }
  const frac = b === 1 ? 32 : 16;
  // TExtractToA (16/32-bit) static_asserts source and destination alignment; the 8-bit compact
  // path (TExtractToACompact) only the source's
  if (src.rows % frac || src.cols % frac || (b !== 1 && (dst.rows % frac || dst.cols % frac))) {
    throw unsupported(`pto-isa A2/A3 model: transposing TMOV to left needs rows and cols % ${frac} = 0`);
  }
  if (b !== 1) {
    t.ctl('set_fmatrix', src.cols + 65536);
    t.mem('img2colv2_cbuf_to_ca', 'L1_TO_L0A', dst.rows * dst.cols * 2, [
      dst.rows,
      dst.cols,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      1,
      0,
      src.rows,
    ]);
    return 'L1 → L0A img2colv2 (transpose)';
  }
  // 8-bit: the compact transpose path (TExtractToATransposeCompact) on the valid region rounded
  // up to 32, in 32×32 fractal pairs
  const rowAlign = ceilDiv(dst.validRow, 32) * 32;
  const colAlign = ceilDiv(dst.validCol, 32) * 32;
  const srcColNum = src.cols >> 5;
  const dstColNum = colAlign >> 5;
  const dstRowNum = rowAlign >> 5;
  const fracGap = dstColNum - 1;
  if (dstRowNum >= dstColNum) {
    for (let i = 0; i < dstColNum; i++) {
      const rpt = dstRowNum & 0xff;
      t.mem('load_cbuf_to_ca_transpose', 'L1_TO_L0A', rpt * 16 * 32, [
        i,
        rpt,
        srcColNum,
        2 * dstColNum - 1,
        0,
        fracGap,
      ]);
    }
  } else {
    for (let i = 0; i < dstRowNum; i++) {
      const rpt = dstColNum & 0xff;
      t.mem('load_cbuf_to_ca_transpose', 'L1_TO_L0A', rpt * 16 * 32, [i * srcColNum, rpt, 1, 0, 0, fracGap]);
    }
  }
  return 'L1 → L0A load_cbuf_to_ca_transpose (8-bit)';
}

/** TMOV mat → right (TMovToRight with CompactMode::Null). */
function movToRight(src: TileFacts, dst: TileFacts, t: Trace): string {
  const b = size(src, 'TMOV');
  const c0 = 32 / b;
  if (src.slayout === dst.slayout) {
    if (src.rows % c0 || src.cols % 16 || dst.rows % c0 || dst.cols % 16) {
      throw unsupported(`pto-isa A2/A3 model: TMOV to right needs rows % ${c0} = 0 and cols % 16 = 0`);
    }
    // TExtractToBNonTranspose: 512-byte fractals, one load_cbuf_to_cb per fractal column (or row)
    const dstRowNum = (dst.rows * b) >> 5;
    const dstColNum = dst.cols >> 4;
    const srcColNum = src.cols >> 4;
    if (dstRowNum >= dstColNum) {
      for (let i = 0; i < dstColNum; i++) {
        const rpt = dstRowNum & 0xff;
        t.mem('load_cbuf_to_cb', 'L1_TO_L0B', rpt * 16 * 32, [i, rpt, srcColNum, dstColNum - 1, 0, 0, 0]);
      }
    } else {
      for (let i = 0; i < dstRowNum; i++) {
        const rpt = dstColNum & 0xff;
        t.mem('load_cbuf_to_cb', 'L1_TO_L0B', rpt * 16 * 32, [i * srcColNum, rpt, 1, 0, 0, 0, 0]);
      }
    }
    return 'L1 → L0B load_cbuf_to_cb (no transpose)';
  }
  const frac = b === 1 ? 32 : 16;
  // TExtractToB (16/32-bit) static_asserts source and destination alignment; the 8-bit compact path
  // (TExtractToBCompact) the source's and dst rows % 32, dst cols % 16
  const dstBad = b === 1 ? dst.rows % 32 || dst.cols % 16 : dst.rows % frac || dst.cols % frac;
  if (src.rows % frac || src.cols % frac || dstBad) {
    throw unsupported(`pto-isa A2/A3 model: transposing TMOV to right needs rows and cols % ${frac} = 0`);
  }
  if (b !== 1) {
    t.ctl('set_fmatrix_b', src.rows + 65536);
    t.mem('img2colv2_cbuf_to_cb', 'L1_TO_L0B', dst.cols * dst.rows * 2, [
      dst.cols,
      dst.rows,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      0,
      1,
      src.cols,
    ]);
    return 'L1 → L0B img2colv2 (transpose)';
  }
  // 8-bit: TExtractToBTransposeCompact, one load_cbuf_to_cb_transpose per 32-row fractal band
  const rowAlign = ceilDiv(dst.validRow, 32) * 32;
  const colAlign = ceilDiv(dst.validCol, 32) * 32;
  const srcRowNum = src.rows >> 5;
  const dstColNum = colAlign >> 5;
  const dstRowNum = rowAlign >> 5;
  for (let i = 0; i < dstRowNum; i++) {
    const rpt = dstColNum & 0xff;
    t.mem('load_cbuf_to_cb_transpose', 'L1_TO_L0B', rpt * 16 * 32, [i, rpt, srcRowNum, 1, 0, 0]);
  }
  return 'L1 → L0B load_cbuf_to_cb_transpose (8-bit)';
}

/** TMOV vec → vec (TMovToVec): UB → UB block copies. */
function movToVec(src: TileFacts, dst: TileFacts, t: Trace): string {
  const b = size(src, 'TMOV');
  if (BYTES[dst.dtype] !== b) throw unsupported('pto-isa A2/A3 model: TMOV vec → vec between element sizes');
  const validRow = Math.min(src.validRow, dst.validRow);
  const validCol = Math.min(src.validCol, dst.validCol);
  if (validRow === 0 || validCol === 0) return 'empty valid region (no copy)';
  const copy = (len: number, srcGap: number, dstGap: number) =>
    t.mem('copy_ubuf_to_ubuf', 'UB_TO_UB', u16(len) * 32, [0, 1, u16(len), u16(srcGap), u16(dstGap)]);
  if (dst.cols === src.cols || dst.rows === 1) {
    if (dst.vCol === dst.cols || validCol === dst.cols) {
      copy(ceilDiv(dst.cols * validRow * b, 32), 0, 0);
      return 'UB → UB one block copy';
    }
    const len = ceilDiv(validCol * b, 32);
    for (let i = 0; i < validRow; i++) copy(len, 0, 0);
    return 'UB → UB one copy per valid row';
  }
  const len = ceilDiv(validCol * b, 32);
  const srcGap = ceilDiv(src.cols * b, 32) - len;
  const dstGap = ceilDiv(dst.cols * b, 32) - len;
  for (let i = 0; i < validRow; i++) copy(len, srcGap, dstGap);
  return 'UB → UB one strided copy per valid row';
}

/** TMOV acc → mat (TMovCcToCb with the cast quant mode): copy_matrix_cc_to_cbuf. */
function movAccToMat(src: TileFacts, dst: TileFacts, t: Trace): string {
  const db = size(dst, 'TMOV');
  if (src.dtype !== 'f32' || (dst.dtype !== 'f16' && dst.dtype !== 'bf16')) {
    throw unsupported(`pto-isa A2/A3 model: TMOV acc → mat ${src.dtype} → ${dst.dtype}`, {
      hint: 'the cast form takes f32 accumulators to f16 or bf16 mat tiles',
    });
  }
  if (!isNz(src) || !isNz(dst) || dst.fractal !== 512 || (dst.cols * db) % 32) {
    throw unsupported(
      'pto-isa A2/A3 model: TMOV acc → mat needs NZ tiles (col_major / row_major, 512-byte fractals)',
    );
  }
  const c0 = 32 / db;
  const nSize = u16(ceilDiv(src.validCol, c0) * c0);
  const mSize = u16(src.rows);
  // (sid, nSize, mSize, dstStrideD = dst Rows, srcStride = src Rows, reserved, quantPre, relu, flags)
  t.mem('copy_matrix_cc_to_cbuf', 'L0C_TO_L1', nSize * mSize * 2, [
    0,
    nSize,
    mSize,
    dst.rows,
    u16(src.rows),
    0,
    castQuant(src.dtype, dst.dtype),
    0,
    0,
    0,
  ]);
  return 'L0C → L1 copy_matrix_cc_to_cbuf';
}

/** TMOV (TMOV_TILE_IMPL): the source and destination locations choose the path. */
export function tmov(inp: CostInput, t: Trace): string {
  const src = inp.src;
  const dst = inp.dst;
  if (!src || !dst) throw unsupported('pto-isa A2/A3 model: TMOV needs both tiles');
  if (src.rows !== dst.rows || src.cols !== dst.cols) {
    throw unsupported('pto-isa A2/A3 model: TMOV between tiles of different shapes', {
      hint: 'TMOV_TILE_IMPL static_asserts equal Rows and Cols',
    });
  }
  const pair = `${src.loc}→${dst.loc}`;
  switch (pair) {
    case 'mat→left':
      return movToLeft(src, dst, t);
    case 'mat→right':
      return movToRight(src, dst, t);
    case 'mat→bias': {
      const sb = size(src, 'TMOV');
      const ok =
        ((src.dtype === 'f32' || src.dtype === 'i32') && dst.dtype === src.dtype) ||
        (src.dtype === 'f16' && dst.dtype === 'f32');
      if (!ok || src.rows !== 1 || (src.cols * sb) % 64) {
        throw unsupported(
          'pto-isa A2/A3 model: TMOV mat → bias needs one row of 64-byte multiples (f32/i32, f16 → f32)',
        );
      }
      const burstLen = u16((src.cols * sb) / 64);
      const conv = src.dtype === 'f16' ? 1 : 0;
      t.mem('copy_cbuf_to_bt', 'L1_TO_BT', burstLen * 64, [conv, 1, burstLen, 0, 0]);
      return 'L1 → bias table copy_cbuf_to_bt';
    }
    case 'vec→vec':
      return movToVec(src, dst, t);
    case 'acc→mat':
      return movAccToMat(src, dst, t);
    default:
      // mat → scaling needs 64-bit elements, which PTO-AS tile types here do not carry
      throw unsupported(`pto-isa A2/A3 model: TMOV ${pair} has no A2/A3 path`, {
        hint: 'A2/A3 TMOV moves mat → left/right/bias/scaling, vec → vec and acc → mat',
      });
  }
}

/**
 * TMATMUL_BIAS and TGEMV / TGEMV_ACC / TGEMV_BIAS: the same single `mad` as TMATMUL, with the
 * bias (cmatrixSource = 1, init 0) or GEMV (m = 1, k and n from the right tile) arguments.
 */
export function madVariant(inp: CostInput, t: Trace): string {
  const a = inp.dtype;
  const acc = inp.accDtype ?? (a === 'i8' ? 'i32' : 'f32');
  const ok = (a === 'i8' && acc === 'i32') || ((a === 'f16' || a === 'f32' || a === 'bf16') && acc === 'f32');
  if (!ok) throw unsupported(`pto-isa A2/A3 model: ${inp.op} ${a} → ${acc} is not a supported combination`);
  const gemv = inp.op.startsWith('TGEMV');
  let m = gemv ? 1 : (inp.validM ?? inp.M ?? inp.validRow);
  const k = gemv ? (inp.rightValidRow ?? inp.validK ?? 0) : (inp.validK ?? inp.K ?? 0);
  const n = inp.validN ?? inp.N ?? inp.validCol;
  if (!gemv && m === 1) m = 16;
  const bias = inp.op.endsWith('_BIAS');
  const init = !bias && !inp.op.endsWith('_ACC');
  const aBytes = a === 'f32' ? 4 : a === 'i8' ? 1 : 2;
  const per = a === 'f32' ? 2 : 1;
  const repeats = ceilDiv(m, 16) * ceilDiv(k, 32 / aBytes) * ceilDiv(n, 16);
  t.cube('mad', 6 + per * repeats, [u16(m), u16(k), u16(n), 0, 0, bias ? 1 : 0, init ? 1 : 0]);
  return gemv ? 'mad (GEMV, m = 1)' : 'mad (bias table)';
}
