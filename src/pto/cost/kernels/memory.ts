/**
 * Data movement and cube kernels of the A2/A3 cost-model build, re-expressed from pto-isa
 * @3186c381 include/pto/common/arch/memory/tload_common.hpp (TLoadGm2ubNd2nd),
 * include/pto/npu/a2a3/TStore.hpp (TStoreUb2gm), TMatmul.hpp and the cost stubs
 * cce_costmodel_memory.hpp / cce_costmodel_cube.hpp.
 */
import { unsupported } from '../../../errors.ts';
import type { Trace } from '../trace.ts';
import type { CostInput } from '../types.ts';

const ceilDiv = (a: number, b: number) => Math.floor((a + b - 1) / b);

/** The global row stride a row describes: `gm: "ND contiguous"` or `"ND row stride N"`. */
function gmRowStride(inp: CostInput): number {
  const g = inp.gm ?? 'ND contiguous';
  const m = /row stride (\d+)/.exec(g);
  if (m) return Number(m[1]);
  if (g === 'ND contiguous' || g === '') return inp.validCol;
  throw unsupported(`pto-isa A2/A3 model: global layout '${g}' is not modelled`, {
    hint: 'ND global tensors only',
  });
}

/**
 * TStore picks the copy by the *tile's* layout: a col-major (DN) vector tile takes the DN2DN burst
 * scheme. With an ND global view the static check (CheckStaticForVecAndMat) accepts that only for
 * the one-column special case (`Cols == 1`).
 */
function isOneColumnDn(inp: CostInput): boolean {
  return inp.layout === 'CM' && inp.cols === 1;
}

function requireNdTile(inp: CostInput): void {
  if (inp.layout !== undefined && inp.layout !== 'RM') {
    throw unsupported(`pto-isa A2/A3 model: ${inp.op} between an ND view and a ${inp.layout} tile`, {
      hint: 'the kernel static_asserts matching layouts (ND/DN/NZ) or a one-row / one-column tile',
    });
  }
}

/**
 * TStoreUb2gmDn2dn on the 2-D ND view (shape [.., vr, vc], strides [.., g, 1]):
 * nBurst = shape4 = vc, lenBurst = validRow·size, gmGap = (stride4 − shape3)·size as uint32 (it
 * wraps: stride4 is 1), ubGap = (Rows − shape3)·size >> 5.
 */
function dnBursts(inp: CostInput, bytes: number) {
  return {
    nBurst: inp.validCol,
    lenBurst: inp.validRow * bytes,
    gmGap: ((1 - inp.validRow) * bytes) >>> 0,
    ubGap: Math.floor(((inp.rows - inp.validRow) * bytes) / 32),
  };
}

function suffix(bytes: number): string {
  return bytes === 1 ? 'b8' : bytes === 2 ? 'b16' : 'b32';
}

/** TLOAD of an ND global tensor into a row-major vector tile (one copy per outer index, here 1). */
export function tload(inp: CostInput, t: Trace, bytes: number): string {
  // TLoad.hpp: "TLOAD(VecTile, GlobalTensor) only support ND2ND/DN2DN/NZ2NZ!" (no one-column
  // exception, unlike TSTORE)
  requireNdTile(inp);
  // tload_common.hpp TLoadGm2ubNd2nd: static_assert(TileData::Rows < 4096)
  if (inp.rows >= 4096)
    throw unsupported('pto-isa A2/A3 model: TLOAD into a vector tile of 4096 or more rows');
  const nBurst = inp.validRow;
  const lenBurst = inp.validCol * bytes;
  const gmGap = (gmRowStride(inp) - inp.validCol) * bytes;
  const ubGap = Math.floor(((inp.cols - inp.validCol) * bytes) / 32);
  // ubPad is non-zero only for tiles with a pad value (PadValue != Null)
  const ubPad = 0;
  t.mem(`copy_gm_to_ubuf_align_${suffix(bytes)}`, 'GM_TO_UB', nBurst * lenBurst, [
    0,
    nBurst,
    lenBurst,
    0,
    ubPad,
    gmGap,
    ubGap,
  ]);
  return 'ND → UB burst copy';
}

/** TSTORE of a row-major vector tile to an ND global tensor. */
export function tstore(inp: CostInput, t: Trace, bytes: number): string {
  if (isOneColumnDn(inp)) {
    const d = dnBursts(inp, bytes);
    t.mem(`copy_ubuf_to_gm_align_${suffix(bytes)}`, 'UB_TO_GM', d.nBurst * d.lenBurst, [
      0,
      d.nBurst,
      d.lenBurst,
      0,
      0,
      d.ubGap,
      d.gmGap,
    ]);
    return 'UB → DN burst copy (one-column col-major tile)';
  }
  requireNdTile(inp);
  const nBurst = inp.validRow;
  const lenBurst = inp.validCol * bytes;
  const gmGap = (gmRowStride(inp) - inp.validCol) * bytes;
  const ubGap = Math.floor(((inp.cols - inp.validCol) * bytes) / 32);
  t.mem(`copy_ubuf_to_gm_align_${suffix(bytes)}`, 'UB_TO_GM', nBurst * lenBurst, [
    0,
    nBurst,
    lenBurst,
    0,
    0,
    ubGap,
    gmGap,
  ]);
  return 'UB → ND burst copy';
}

/** TMATMUL / TMATMUL_ACC: one `mad` (m forced to 16 when it is 1 to avoid the GEMV mode). */
export function tmatmul(inp: CostInput, t: Trace): string {
  const a = inp.dtype;
  const ok =
    (a === 'i8' && (inp.accDtype ?? 'i32') === 'i32') ||
    ((a === 'f16' || a === 'f32' || a === 'bf16') && (inp.accDtype ?? 'f32') === 'f32');
  if (!ok)
    throw unsupported(`pto-isa A2/A3 model: TMATMUL ${a} → ${inp.accDtype} is not a supported combination`);
  // the Left/Right/Acc tile types static_assert whole fractal boxes: Left M×K in 16 × (32/size)
  // boxes, Right K×N in (32/size) × 16, Acc M×N in 16 × 16 (pto_tile.hpp "divisible by inner box")
  const kBox = 32 / (a === 'f32' ? 4 : a === 'i8' ? 1 : 2);
  const { M, K, N } = inp;
  if (
    (M !== undefined && M % 16 !== 0) ||
    (N !== undefined && N % 16 !== 0) ||
    (K !== undefined && K % kBox !== 0)
  )
    throw unsupported(
      `pto-isa A2/A3 model: TMATMUL tiles ${M}x${K}x${N} are not whole fractal boxes for ${a}`,
      {
        hint: `M and N must be multiples of 16, K of ${kBox}`,
      },
    );
  let m = inp.validM ?? inp.M ?? inp.validRow;
  const k = inp.validK ?? inp.K ?? 0;
  const n = inp.validN ?? inp.N ?? inp.validCol;
  if (m === 1) m = 16;
  const aBytes = a === 'f32' ? 4 : a === 'i8' ? 1 : 2;
  const per = a === 'f32' ? 2 : 1;
  const repeats = ceilDiv(m, 16) * ceilDiv(k, 32 / aBytes) * ceilDiv(n, 16);
  // mad(c, a, b, m, k, n, phase, kDirectionAlign, cmatrixSource, cmatrixInitVal)
  t.cube('mad', 6 + per * repeats, [m, k, n, 0, 0, 0, inp.op === 'TMATMUL' ? 1 : 0]);
  return 'mad';
}
