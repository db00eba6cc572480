/**
 * Compare, select, divide-by-scalar and conversion kernels of the A2/A3 cost-model build,
 * re-expressed from pto-isa @3186c381 include/pto/npu/a2a3/{TCmp,TCmps,TSel,TSels,TDivS,TCvt}.hpp.
 */
import { unsupported } from '../../../errors.ts';
import { f32BitsToFp16, f32ToBits } from '../../../numeric/index.ts';
import { BYTES } from '../bytes.ts';
import type { Trace } from '../trace.ts';
import type { CostInput } from '../types.ts';
import { binSInstr, type Geo, REPEAT_BYTE, REPEAT_MAX } from './elementwise.ts';

const ceilDiv = (a: number, b: number) => Math.floor((a + b - 1) / b);
const TCMP_REPEAT_MAX = 240;

/** Compare mode of a cost input (the conformance driver compares with LT). */
function cmpMode(inp: CostInput): string {
  return (inp.cmpMode ?? 'LT').toUpperCase();
}

function floatArg(dtype: string, v: number | undefined): number | null {
  if (v === undefined) return null;
  if (dtype === 'f32') return f32ToBits(v);
  if (dtype === 'f16') return f32BitsToFp16(f32ToBits(v));
  return Math.trunc(v) >= 0 ? Math.trunc(v) : null;
}

/** TCMP: per valid row, ⌈validCol/EPR⌉ repeats (in chunks of 240); NE adds a vnot pass. */
export function tcmp(inp: CostInput, t: Trace, bytes: number): string {
  const epr = REPEAT_BYTE / bytes;
  const perLine = ceilDiv(inp.validCol, epr);
  const mode = cmpMode(inp);
  const intr =
    inp.dtype === 'i32' || mode === 'EQ' || mode === 'NE' ? 'vcmpv_eq' : `vcmpv_${mode.toLowerCase()}`;
  const loop = Math.floor(perLine / TCMP_REPEAT_MAX);
  const rem = perLine % TCMP_REPEAT_MAX;
  t.ctl('set_mask_norm');
  t.fullMask();
  for (let i = 0; i < inp.validRow; i++) {
    for (let j = 0; j < loop; j++) t.vec(intr, TCMP_REPEAT_MAX, [TCMP_REPEAT_MAX, 1, 1, 1, 8, 8, 8]);
    if (rem) t.vec(intr, rem, [rem, 1, 1, 1, 8, 8, 8]);
  }
  if (mode === 'NE') notPass(inp, t);
  return 'per-row compare';
}

function notPass(inp: CostInput, t: Trace): void {
  // the destination mask tile: u8, one bit per element, rows padded to its static columns
  const dstCols = inp.dstCols ?? 32;
  t.barrier('PIPE_V');
  t.ctl('set_mask_count');
  t.mask(0, Math.floor((inp.validRow * dstCols) / 2));
  t.vec('vnot', 0, [0, 1, 1, 8, 8]);
  t.ctl('set_mask_norm');
  t.fullMask();
}

/** TCMPS with a scalar: rows × 240-repeat chunks first, then the per-row remainder. */
export function tcmps(inp: CostInput, t: Trace, bytes: number): string {
  const epr = REPEAT_BYTE / bytes;
  const perLine = ceilDiv(inp.validCol, epr);
  const mode = cmpMode(inp);
  const intr =
    inp.dtype === 'i32'
      ? 'vcmpvs_eq'
      : `vcmpvs_${['LT', 'GT', 'GE', 'LE'].includes(mode) ? mode.toLowerCase() : 'eq'}`;
  // 16-bit inputs compare as half; an integer scalar's bits are reinterpreted
  const s = inp.scalar;
  const sv =
    s === undefined
      ? null
      : inp.dtype === 'i16' || inp.dtype === 'u16'
        ? Math.trunc(s) & 0xffff
        : inp.dtype === 'i32'
          ? Math.trunc(s) < 0
            ? null
            : Math.trunc(s)
          : floatArg(inp.dtype, s);
  const loop = Math.floor(perLine / TCMP_REPEAT_MAX);
  const rem = perLine % TCMP_REPEAT_MAX;
  t.ctl('set_mask_norm');
  t.fullMask();
  for (let i = 0; i < inp.validRow; i++) {
    for (let j = 0; j < loop; j++) t.vec(intr, TCMP_REPEAT_MAX, [sv, TCMP_REPEAT_MAX, 1, 1, 8, 8]);
  }
  if (rem) for (let i = 0; i < inp.validRow; i++) t.vec(intr, rem, [sv, rem, 1, 1, 8, 8]);
  if (mode === 'NE') notPass(inp, t);
  return 'per-row compare with scalar';
}

/** TSEL: per row, build the compare mask from the mask tile, then one vsel in count mode. */
export function tsel(inp: CostInput, t: Trace, bytes: number): string {
  const cmpmaskLen = bytes === 2 ? 4 : 2;
  t.ctl('set_mask_count');
  for (let i = 0; i < inp.validRow; i++) {
    t.mask(0, cmpmaskLen);
    // the duplicated value is the mask row's address (not reproducible)
    t.vec('vector_dup', 1, [null, 1, 1, 1, 8, 0]);
    t.barrier('PIPE_V');
    t.ctl('set_cmpmask');
    t.barrier('PIPE_V');
    t.mask(0, inp.validCol);
    t.vec('vsel', 1, [1, 1, 1, 1, 8, 8, 8, 2]);
  }
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'per-row vsel (tensor-tensor mode)';
}

/** TSELS: one compare-mask setup, then one vsel per row (tensor-scalar mode). */
export function tsels(inp: CostInput, t: Trace): string {
  t.ctl('set_mask_count');
  t.mask(0, inp.validCol);
  t.ctl('set_cmpmask');
  t.barrier('PIPE_V');
  for (let i = 0; i < inp.validRow; i++) t.vec('vsel', 1, [1, 1, 1, 1, 8, 8, 8, 1]);
  t.ctl('set_mask_norm');
  t.fullMask();
  return 'per-row vsel (tensor-scalar mode)';
}

/**
 * TDIVS on floats (tile ÷ scalar, or scalar ÷ tile as TRECIP uses it): per issued chunk a
 * vector_dup of the scalar, a barrier and a vdiv; in place (dst == src) the tile ÷ scalar form
 * multiplies by the reciprocal instead. Integer TDIVS is a scalar loop (no intrinsics).
 */
export function tdivs(
  inp: CostInput,
  t: Trace,
  bytes: number,
  scalarFirst: boolean,
  scalar: number | undefined,
): string {
  // TDivS.hpp calls the kernel only for a non-empty valid region (both forms)
  if (inp.validRow === 0 || inp.validCol === 0) return 'empty valid region (not issued)';
  if (inp.dtype === 'i16' || inp.dtype === 'i32') {
    if (scalarFirst) {
      throw unsupported(
        `pto-isa A2/A3 model: ${inp.op} on ${inp.dtype} crashes the reference cost-model build`,
        {
          hint: 'its scalar loop divides by the unassigned tile contents (SIGFPE)',
        },
      );
    }
    if (scalar === 0) {
      throw unsupported(
        `pto-isa A2/A3 model: ${inp.op} on ${inp.dtype} by 0 crashes the reference cost-model build`,
        {
          hint: 'its scalar loop divides by the scalar (SIGFPE)',
        },
      );
    }
    return 'scalar loop (no vector intrinsics)';
  }
  const g: Geo = {
    rows: inp.rows,
    cols: inp.cols,
    bytes,
    rowStride: inp.layout === 'CM' ? 1 : inp.cols,
    staticValidCol: inp.staticValidCol ?? -1,
  };
  const sv = floatArg(inp.dtype, scalar);
  if (inp.inPlace && !scalarFirst) {
    const inv = scalar === undefined ? null : floatArg(inp.dtype, 1 / scalar);
    return binSInstr(
      t,
      (r, d) => t.vec('vmuls', r, [inv, r & 0xff, 1, 1, d, d]),
      g,
      inp.validRow,
      inp.validCol,
    );
  }
  return binSInstr(
    t,
    (r, d, s) => {
      t.vec('vector_dup', r, [sv, r & 0xff, 1, 1, d, 0]);
      t.barrier('PIPE_V');
      t.vec('vdiv', r, scalarFirst ? [r & 0xff, 1, 1, 1, d, d, s] : [r & 0xff, 1, 1, 1, d, s, d]);
    },
    g,
    inp.validRow,
    inp.validCol,
  );
}

// ---- TCVT ---------------------------------------------------------------------------------------

const SUFFIX: Record<string, string> = {
  CAST_RINT: 'r',
  CAST_ROUND: 'a',
  CAST_FLOOR: 'f',
  CAST_CEIL: 'c',
  CAST_TRUNC: 'z',
  CAST_ODD: 'o',
};

/** The vconv intrinsic(s) GenCastCall issues for (src → dst, round mode); [] when it has no path. */
function castIntrinsics(src: string, dst: string, mode: string): { name: string; deq?: boolean }[] {
  const sfx = SUFFIX[mode];
  const by = (base: string, dflt: string, allowOdd = false) => {
    if (sfx && (sfx !== 'o' || allowOdd)) return [{ name: `${base}${sfx}` }];
    return [{ name: dflt }];
  };
  const key = `${src}>${dst}`;
  switch (key) {
    case 'f32>f16':
      return by('vconv_f322f16', 'vconv_f322f16r', true);
    case 'f32>f32':
      return by('vconv_f322f32', 'vconv_f322f32r');
    case 'f32>i32':
      return by('vconv_f322s32', 'vconv_f322s32z');
    case 'f32>i16':
      return by('vconv_f322s16', 'vconv_f322s16z');
    case 'f32>bf16':
      return by('vconv_f322bf16', 'vconv_f322bf16r');
    case 'f16>i32':
      return by('vconv_f162s32', 'vconv_f162s32z');
    case 'f16>i16':
      return by('vconv_f162s16', 'vconv_f162s16z');
    case 'f16>i8':
      return by('vconv_f162s8', 'vconv_f162s8z');
    case 'f16>u8':
      return by('vconv_f162u8', 'vconv_f162u8z');
    case 'bf16>i32':
      return by('vconv_bf162s32', 'vconv_bf162s32z');
    case 'i16>f16':
      return by('vconv_s162f16', 'vconv_s162f16');
    case 'i32>f32':
      return by('vconv_s322f32', 'vconv_s322f32');
    case 'f16>f32':
      return [{ name: 'vconv_f162f32' }];
    case 'bf16>f32':
      return [{ name: 'vconv_bf162f32' }];
    case 'u8>f16':
      return [{ name: 'vconv_u82f16' }];
    case 'i8>f16':
      return [{ name: 'vconv_s82f16' }];
    case 'i16>f32':
      return [{ name: 'vconv_s162f32' }];
    case 'i32>i16':
      return [{ name: 'vconv_s322s16' }];
    case 'i32>f16':
      return [{ name: 'vconv_deq', deq: true }];
    default:
      return [];
  }
}

const NARROWING = new Set(['f16>u8', 'f16>i8', 'f32>i16', 'f16>i16', 'i64>i32', 'i32>i16']);
/** sbitset1(0, SAT_MODE_BIT = 59) on a 32-bit int: x86 shifts by 59 mod 32 = 27. */
const SAT_BIT_VALUE = 2 ** 27;
export function tcvt(inp: CostInput, t: Trace): string {
  const src = inp.dtype;
  const dst = inp.dstDtype;
  if (!dst || !BYTES[src] || !BYTES[dst])
    throw unsupported(`pto-isa A2/A3 model: TCVT ${src} → ${dst} is not modelled`);
  const mode = inp.roundMode ?? 'CAST_RINT';
  const key = `${src}>${dst}`;
  const sat = inp.satMode ?? (NARROWING.has(key) ? 'OFF' : 'ON');
  const satOff = NARROWING.has(key) && sat === 'OFF';
  const sS = BYTES[src]!;
  const sD = BYTES[dst]!;
  const width = Math.max(sS, sD);
  const dRS = width === sD ? 8 : (8 / sS) * sD;
  const sRS = width === sS ? 8 : (8 / sD) * sS;
  const epr = REPEAT_BYTE / width;
  // the kernel sizes everything by the destination's valid shape; src and dst share rows/cols
  const vr = inp.validRow;
  const vc = inp.validCol;
  const perLine = Math.floor(vc / epr);
  const remain = vc % epr;
  const intrs = castIntrinsics(src, dst, mode);
  const cast = (rpt: number, d: number, s: number) => {
    for (const it of intrs) {
      if (it.deq) {
        t.ctl('set_deqscale', 0x3c00);
        t.barrier('PIPE_V');
      }
      t.vec(it.name, rpt, [rpt & 0xff, 1, 1, d, s], [14, 2, 18]);
    }
  };
  // ApplySatMode: set_ctrl(sbitset1/0(get_ctrl() = 0, SAT_MODE_BIT))
  t.ctl('set_ctrl', satOff ? SAT_BIT_VALUE : 0);
  if (perLine > 0) {
    const loop = Math.floor(perLine / REPEAT_MAX);
    const rem = perLine % REPEAT_MAX;
    for (let i = 0; i < vr; i++) {
      for (let j = 0; j < loop; j++) cast(REPEAT_MAX, dRS, sRS);
      if (rem > 0) cast(rem, dRS, sRS);
    }
  }
  if (remain > 0) {
    const dEpb = 32 / sD;
    const sEpb = 32 / sS;
    // TCvt.hpp strides by Tile::RowStride (Cols row-major, 1 col-major)
    const rowStride = inp.layout === 'CM' ? 1 : inp.cols;
    const dStride = Math.floor(rowStride / dEpb);
    const sStride = Math.floor(rowStride / sEpb);
    t.contMask(remain);
    for (let j = 0; j < Math.floor(vr / REPEAT_MAX); j++) cast(REPEAT_MAX, dStride, sStride);
    if (vr % REPEAT_MAX) cast(vr % REPEAT_MAX, dStride, sStride);
    t.fullMask();
  }
  // RestoreSatMode: the original mode (get_ctrl() = 0) was "saturation on"
  t.ctl('set_ctrl', 0);
  return intrs.length
    ? `${intrs.map((i) => i.name).join('+')} per row chunk`
    : 'no conversion path (control only)';
}

// ---- TTRANS (TTrans.hpp TTransOperation) --------------------------------------------------------

/**
 * TTRANS of a row-major tile through a tmp buffer: 16×8 (b32) / 16×16 (b16) / 32×32 (b8) sub-tiles
 * by scatter_vnchwconv, then one UB→UB copy into the destination. Strides that are not multiples
 * of the sub-tile shape take the kernel's scalar loop (no intrinsics). The destination's row
 * stride is `inp.dstCols` (default: the source rows rounded up to one 32-byte block).
 */
export function ttrans(inp: CostInput, t: Trace, bytes: number): string {
  const epb = 32 / bytes;
  const yTile = bytes === 1 ? 32 : 16;
  const vr = inp.validRow;
  const vc = inp.validCol;
  const srcStride = inp.cols;
  const dstStride = inp.dstCols ?? Math.ceil(inp.rows / epb) * epb;
  const tmpStride = Math.ceil(vr / yTile) * yTile;
  if (dstStride % yTile !== 0 || srcStride % epb !== 0 || tmpStride % yTile !== 0)
    return 'scalar transpose loop';
  const setVa = (regs: number[]) => {
    for (const r of regs) t.ctl('set_va_reg_sb', r);
  };
  const trans = (repeat: number, dS: number, sS: number) => {
    const r = repeat & 0xff;
    if (bytes === 1) {
      t.vec('scatter_vnchwconv_b8', r, [0, 2, r, dS & 0xffff, sS & 0xffff, 0, 0]);
      t.vec('scatter_vnchwconv_b8', r, [6, 2, r, dS & 0xffff, sS & 0xffff, 0, 1]);
      t.vec('scatter_vnchwconv_b8', r, [0, 4, r, dS & 0xffff, sS & 0xffff, 1, 0]);
      t.vec('scatter_vnchwconv_b8', r, [6, 4, r, dS & 0xffff, sS & 0xffff, 1, 1]);
    } else
      t.vec(bytes === 2 ? 'scatter_vnchwconv_b16' : 'scatter_vnchwconv_b32', r, [
        0,
        2,
        r,
        dS & 0xffff,
        sS & 0xffff,
      ]);
  };
  const nX = Math.ceil(vc / epb);
  const nY = Math.floor(vr / yTile);
  if (nY > 0) {
    if (bytes === 1) {
      const vconvSrcStride = Math.floor((32 * srcStride) / 32);
      for (let i = 0; i < nX; i++) {
        setVa([2, 3, 0, 1, 4, 5, 6, 7]);
        if (nY === 1) trans(1, 0, 0);
        else trans(nY, 1, vconvSrcStride);
      }
    } else {
      const vconvSrcStride = Math.floor((16 * srcStride * bytes) / 32);
      for (let i = 0; i < nX; i++) {
        setVa([2, 3, 0, 1]);
        if (nY === 1) trans(1, 0, 0);
        else trans(nY, bytes === 2 ? 1 : 2, vconvSrcStride);
      }
    }
  }
  const remainY = vr % yTile;
  if (remainY > 0) {
    setVa(bytes === 1 ? [2, 3, 0, 1, 4, 5, 6, 7] : [2, 3, 0, 1]);
    const stride =
      bytes === 1 ? Math.floor((32 * tmpStride) / 32) : Math.floor((epb * tmpStride * bytes) / 32);
    if (nX === 1) trans(1, 0, 0);
    else trans(nX, stride, 1);
  }
  const lenBurst = Math.ceil((vr * bytes) / 32);
  const srcGap = Math.floor((tmpStride * bytes) / 32) - lenBurst;
  const dstGap = Math.floor((dstStride * bytes) / 32) - lenBurst;
  t.barrier('PIPE_V');
  t.mem('copy_ubuf_to_ubuf', 'UB_TO_UB', vc * lenBurst * 32, [
    0,
    vc,
    lenBurst,
    srcGap & 0xffff,
    dstGap & 0xffff,
  ]);
  return 'scatter_vnchwconv sub-tiles + copy';
}
