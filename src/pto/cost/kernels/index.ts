/**
 * The A2/A3 kernels the pto-isa cost-model build compiles (first `#ifdef __COSTMODEL` block of
 * pto_instr_impl.hpp), each re-expressed as "which intrinsics does it issue". An op missing here is
 * one the reference build rejects ("use of undeclared identifier X_IMPL") — Unsupported.
 */

import { unsupported } from '../../../errors.ts';
import { f32BitsToFp16, f32ToBits } from '../../../numeric/index.ts';
import { BYTES } from '../bytes.ts';
import type { Trace } from '../trace.ts';
import type { CostInput } from '../types.ts';
import { madVariant, tloadMat, tmov, tstoreAcc, tstoreMat } from './cube.ts';
import { colExpandBinary, texpands, tfillpad } from './derived.ts';
import { type BinIssue, binaryInstr, binSInstr, type Geo, type UnIssue, unaryInstr } from './elementwise.ts';
import { tload, tmatmul, tstore } from './memory.ts';
import { tcmp, tcmps, tcvt, tdivs, tsel, tsels, ttrans } from './misc.ts';
import {
  colReduce,
  rowExpand,
  rowExpandBinary,
  rowExpandBrcb,
  rowExpandBrcbApplies,
  rowReduce,
} from './reduce.ts';

export interface KernelInfo {
  path: string;
  /** Valid rows × cols of the instruction's first tile argument (for the fitted-estimate rule). */
  firstTile: [number, number];
  firstDtype?: string;
}

export { BYTES };

export type Kernel = (inp: CostInput, t: Trace) => KernelInfo;

export function bytesOf(inp: CostInput): number {
  const b = BYTES[inp.dtype];
  if (!b) throw unsupported(`pto-isa A2/A3 model: element type ${inp.dtype} has no A2/A3 kernel`);
  return b;
}

export function requireRowMajor(inp: CostInput): void {
  if (inp.layout !== undefined && inp.layout !== 'RM') {
    // the A2/A3 elementwise kernels static_assert isRowMajor
    throw unsupported(`pto-isa A2/A3 model: ${inp.op} supports row-major tiles only (got ${inp.layout})`);
  }
}

export function requireDtypes(inp: CostInput, allowed: string[]): void {
  if (!allowed.includes(inp.dtype)) {
    throw unsupported(`pto-isa A2/A3 model: ${inp.op} has no A2/A3 kernel for ${inp.dtype}`, {
      hint: `the kernel's static_assert allows ${allowed.join(', ')}`,
    });
  }
}

const geo = (inp: CostInput, bytes = bytesOf(inp)): Geo => ({
  rows: inp.rows,
  cols: inp.cols,
  bytes,
  // Tile::RowStride: Cols for row-major tiles, 1 for col-major ones (pto_tile.hpp)
  rowStride: inp.layout === 'CM' ? 1 : inp.cols,
  staticValidCol: inp.staticValidCol ?? -1,
});

/** The bit pattern the trace records for a scalar of type `dtype` (unknown → wildcard). */
export function scalarArg(dtype: string, v: number | undefined): number | null {
  if (v === undefined) return null;
  if (dtype === 'f32') return f32ToBits(v);
  if (dtype === 'f16') return f32BitsToFp16(f32ToBits(v));
  return v < 0 ? Number(2n ** 64n + BigInt(Math.trunc(v))) : Math.trunc(v);
}

const F_I = ['f32', 'f16', 'i32', 'i16'];
const F = ['f32', 'f16'];

function binary(intr: string, dtypes: string[]): Kernel {
  return (inp, t) => {
    requireDtypes(inp, dtypes);
    requireRowMajor(inp);
    const op: BinIssue = (r, d, s0, s1) => t.vec(intr, r, [r, 1, 1, 1, d, s0, s1]);
    return {
      path: binaryInstr(t, op, geo(inp), inp.validRow, inp.validCol),
      firstTile: [inp.validRow, inp.validCol],
    };
  };
}

function unary(intr: string, dtypes: string[]): Kernel {
  return (inp, t) => {
    requireDtypes(inp, dtypes);
    requireRowMajor(inp);
    const op: UnIssue = (r, d, s) => t.vec(intr, r, [r, 1, 1, d, s]);
    return {
      path: unaryInstr(t, op, geo(inp), inp.validRow, inp.validCol),
      firstTile: [inp.validRow, inp.validCol],
    };
  };
}

/** TNOT reinterprets 32-bit and 8-bit data as 16-bit lanes (B322B16Trait / B82B16Trait). */
const tnot: Kernel = (inp, t) => {
  requireDtypes(inp, ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'f16']);
  requireRowMajor(inp);
  const b = bytesOf(inp);
  const scale = (n: number) => (b === 4 ? n * 2 : b === 1 ? Math.floor(n / 2) : n);
  const vc = b === 1 ? Math.ceil(inp.validCol / 2) : b === 4 ? inp.validCol * 2 : inp.validCol;
  const sv = inp.staticValidCol;
  const g: Geo = {
    rows: inp.rows,
    cols: scale(inp.cols),
    bytes: 2,
    rowStride: scale(inp.cols),
    staticValidCol: sv === undefined || sv < 0 ? -1 : scale(sv),
  };
  const op: UnIssue = (r, d, s) => t.vec('vnot', r, [r, 1, 1, d, s]);
  return { path: unaryInstr(t, op, g, inp.validRow, vc), firstTile: [inp.validRow, inp.validCol] };
};

/**
 * `skipEmpty`: the op's _IMPL only calls the kernel when the valid region is non-empty (TAddS.hpp,
 * TSubS.hpp, TMins.hpp test `validRow != 0 && validCol != 0`; TMulS.hpp and TMaxS.hpp do not).
 */
function binS(
  intr: string,
  dtypes: string[],
  scalar: (inp: CostInput) => number | undefined,
  skipEmpty = false,
): Kernel {
  return (inp, t) => {
    requireDtypes(inp, dtypes);
    // TBinSOp.hpp has no layout static_assert: a col-major tile runs with its static Rows/Cols
    if (skipEmpty && (inp.validRow === 0 || inp.validCol === 0)) {
      return { path: 'empty valid region (not issued)', firstTile: [inp.validRow, inp.validCol] };
    }
    const sv = scalarArg(inp.dtype, scalar(inp));
    const op: UnIssue = (r, d, s) => t.vec(intr, r, [sv, r, 1, 1, d, s]);
    return {
      path: binSInstr(t, op, geo(inp), inp.validRow, inp.validCol),
      firstTile: [inp.validRow, inp.validCol],
    };
  };
}

const given = (inp: CostInput) => inp.scalar;

const I16_32 = ['f32', 'f16', 'i32', 'i16'];

function rowRed(): Kernel {
  return (inp, t) => {
    requireDtypes(inp, I16_32);
    requireRowMajor(inp);
    const b = bytesOf(inp);
    // first tile argument: dst, valid rows × 1
    return { path: rowReduce(inp, t, b), firstTile: [inp.validRow, 1] };
  };
}

function colRed(): Kernel {
  return (inp, t) => {
    requireDtypes(inp, I16_32);
    requireRowMajor(inp);
    return { path: colReduce(inp, t, bytesOf(inp)), firstTile: [1, inp.validCol] };
  };
}

function rowExpBin(intr: string, dtypes: string[]): Kernel {
  return (inp, t) => {
    requireDtypes(inp, dtypes);
    requireRowMajor(inp);
    return { path: rowExpandBinary(inp, t, bytesOf(inp), intr), firstTile: [inp.validRow, inp.validCol] };
  };
}

/** The `mad` variants: first tile argument is the accumulator (m × n). */
const madKernel: Kernel = (inp, t) => ({
  path: madVariant(inp, t),
  firstTile: [inp.validM ?? inp.validRow, inp.validN ?? inp.validCol],
  firstDtype: inp.accDtype,
});

const ALL8 = ['f32', 'f16', 'i32', 'i16', 'i8', 'u8', 'u16', 'u32'];

const simple =
  (
    dtypes: string[],
    f: (inp: CostInput, t: Trace, b: number) => string,
    first?: (inp: CostInput) => [number, number],
    anyLayout = false,
  ): Kernel =>
  (inp, t) => {
    requireDtypes(inp, dtypes);
    if (!anyLayout) requireRowMajor(inp);
    return { path: f(inp, t, bytesOf(inp)), firstTile: first ? first(inp) : [inp.validRow, inp.validCol] };
  };

export const KERNELS: Record<string, Kernel> = {
  // TCmp.hpp has no layout static_assert; TCmps.hpp asserts only the (u8, row-major) destination,
  // so a col-major source runs with its static Rows/Cols
  TCMP: simple(['f32', 'f16', 'i32'], tcmp, undefined, true),
  // first tile argument: dst, valid validCol × validRow
  TTRANS: simple(ALL8, ttrans, (inp) => [inp.validCol, inp.validRow]),
  TCMPS: simple(['f32', 'f16', 'i32', 'i16', 'u16'], tcmps, undefined, true),
  TSEL: simple(['f32', 'f16', 'i32', 'i16', 'u16', 'u32'], tsel),
  TSELS: simple(['f32', 'f16', 'i32', 'i16', 'u16', 'u32'], (inp, t) => tsels(inp, t)),
  // TDivS.hpp has no layout static_assert (col-major tiles run with RowStride 1)
  TDIVS: simple(F_I, (inp, t, b) => tdivs(inp, t, b, inp.scalarFirst ?? false, inp.scalar), undefined, true),
  // pto_instr.hpp (costmodel): TRECIP(dst, src) is TDIVS(dst, 1, src), recorded as TDIVS
  TRECIP: simple(F_I, (inp, t, b) => tdivs(inp, t, b, true, 1), undefined, true),
  // TCvt.hpp has no layout static_assert
  TCVT: (inp, t) => {
    return { path: tcvt(inp, t), firstTile: [inp.validRow, inp.validCol], firstDtype: inp.dstDtype };
  },
  TROWSUM: rowRed(),
  TROWMAX: rowRed(),
  TROWMIN: rowRed(),
  TCOLSUM: colRed(),
  TCOLMAX: colRed(),
  TCOLMIN: colRed(),
  TROWEXPAND: (inp, t) => {
    requireDtypes(inp, ALL8);
    // TRowExpand.hpp: "dst layout must be ND" (the row's main tile is the destination)
    requireRowMajor(inp);
    const b = bytesOf(inp);
    const path = rowExpandBrcbApplies(inp, b) ? rowExpandBrcb(inp, t) : rowExpand(inp, t, b);
    return { path, firstTile: [inp.validRow, inp.validCol] };
  },
  TROWEXPANDADD: rowExpBin('vadd', F_I),
  TROWEXPANDSUB: rowExpBin('vsub', F_I),
  TROWEXPANDMUL: rowExpBin('vmul', F_I),
  TROWEXPANDDIV: rowExpBin('vdiv', F),
  TLOAD: (inp, t) => {
    requireDtypes(inp, ALL8);
    const loc = inp.dst?.loc ?? 'vec';
    if (loc === 'mat') return { path: tloadMat(inp, t), firstTile: [inp.validRow, inp.validCol] };
    if (loc !== 'vec') throw unsupported(`pto-isa A2/A3 model: TLOAD into a ${loc} tile (vec or mat only)`);
    return { path: tload(inp, t, bytesOf(inp)), firstTile: [inp.validRow, inp.validCol] };
  },
  TSTORE: (inp, t) => {
    requireDtypes(inp, ALL8);
    const loc = inp.src?.loc ?? 'vec';
    if (loc === 'acc') return { path: tstoreAcc(inp, t), firstTile: [inp.validRow, inp.validCol] };
    if (loc === 'mat') return { path: tstoreMat(inp, t), firstTile: [inp.validRow, inp.validCol] };
    if (loc !== 'vec') {
      throw unsupported(`pto-isa A2/A3 model: TSTORE from a ${loc} tile`, {
        hint: 'the A2/A3 kernel stores vec, mat and acc tiles',
      });
    }
    return { path: tstore(inp, t, bytesOf(inp)), firstTile: [inp.validRow, inp.validCol] };
  },
  // first tile argument: dst
  TMOV: (inp, t) => ({
    path: tmov(inp, t),
    firstTile: [inp.dst?.validRow ?? inp.validRow, inp.dst?.validCol ?? inp.validCol],
    firstDtype: inp.dst?.dtype,
  }),
  TMATMUL_BIAS: madKernel,
  TGEMV: madKernel,
  TGEMV_ACC: madKernel,
  TGEMV_BIAS: madKernel,
  TMATMUL: (inp, t) => ({
    path: tmatmul(inp, t),
    firstTile: [inp.validM ?? inp.validRow, inp.validN ?? inp.validCol],
    firstDtype: inp.accDtype,
  }),
  TMATMUL_ACC: (inp, t) => ({
    path: tmatmul(inp, t),
    firstTile: [inp.validM ?? inp.validRow, inp.validN ?? inp.validCol],
    firstDtype: inp.accDtype,
  }),
  TADD: binary('vadd', F_I),
  TSUB: binary('vsub', F_I),
  TMUL: binary('vmul', F_I),
  TDIV: binary('vdiv', F),
  TMAX: binary('vmax', F_I),
  TMIN: binary('vmin', F_I),
  TEXP: unary('vexp', F),
  TLOG: unary('vln', F),
  TSQRT: unary('vsqrt', F),
  TRSQRT: unary('vrsqrt', F),
  TABS: unary('vabs', F),
  TRELU: unary('vrelu', ['f32', 'f16', 'i32']),
  TNOT: tnot,
  TADDS: binS('vadds', F_I, given, true),
  TSUBS: binS('vadds', F_I, (inp) => (inp.scalar === undefined ? undefined : -inp.scalar), true),
  TMULS: binS('vmuls', F_I, given),
  TMAXS: binS('vmaxs', F_I, given),
  TMINS: binS('vmins', F_I, given, true),
  TNEG: binS('vmuls', F_I, () => -1),
};

/**
 * Prices axsim derives where the reference cost build has none (issue 13; docs/pto-as.md "Derived
 * prices"): the A2/A3 device kernels of TEXPANDS, TCOLEXPAND{MUL,ADD,MAX,MIN} and TFILLPAD priced
 * by the same stubs (cost/kernels/derived.ts). Used for program totals, never for the conformance
 * rows (which reproduce the reference, Unsupported included).
 */
export const DERIVED_KERNELS: Record<string, Kernel> = {
  TEXPANDS: simple(
    [...ALL8, 'bf16'],
    (inp, t, b) => texpands(inp, t, b, scalarArg(inp.dtype, inp.scalar)),
    undefined,
    true,
  ),
  TCOLEXPANDMUL: simple(F_I, (inp, t, b) => colExpandBinary(inp, t, b, 'vmul'), undefined, true),
  TCOLEXPANDADD: simple(F_I, (inp, t, b) => colExpandBinary(inp, t, b, 'vadd'), undefined, true),
  TCOLEXPANDMAX: simple(F_I, (inp, t, b) => colExpandBinary(inp, t, b, 'vmax'), undefined, true),
  TCOLEXPANDMIN: simple(F_I, (inp, t, b) => colExpandBinary(inp, t, b, 'vmin'), undefined, true),
  TFILLPAD: simple([...ALL8, 'bf16'], tfillpad, undefined, true),
};
