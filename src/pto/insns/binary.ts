/**
 * Binary tile-tile arithmetic: TADD TSUB TMUL TDIV TMAX TMIN TREM TFMOD TPOW TSUBRELU TPRELU.
 * pto-isa docs/isa/tile/ops/elementwise-tile-tile/*.md; CPU simulator ElementOp.h, TAdd.hpp,
 * TDiv.hpp, TMax.hpp, TPow.hpp (the `cpu` profile follows the simulator, see docs/pto.md).
 */
import { type Arith, arithOf } from '../arith.ts';
import { DTYPE_INFO, type DType } from '../dtype.ts';
import { ALL, CTX_FREE, type ExecCtx, type OpDef, type OperandSpec, per, reject } from '../op.ts';
import { simdF32At, simdF32Split, simdKernel, THREAD_MIN_ELEMS } from '../simd.ts';
import { binaryLoop, binaryLoopDstOffsets, cPow, pickLoop } from './kernels.ts';

const OPS3: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true },
  { name: 'src0', kind: 'tile' },
  { name: 'src1', kind: 'tile' },
];
const OPS3TMP: readonly OperandSpec[] = [
  ...OPS3,
  { name: 'tmp', kind: 'tile', scratch: true, optional: true },
];
const REF = 'pto-isa docs/isa/tile/ops/elementwise-tile-tile';
const NO_FP8 = ALL.filter((d) => d !== 'f8e4m3' && d !== 'f8e5m2');

/** TADD and the other single-template ops need all tiles of one C++ type (same shape and layout). */
export function requireSameTileType(ctx: ExecCtx, names: readonly string[]): void {
  const t0 = ctx.tiles[names[0]!]!;
  for (const n of names.slice(1)) {
    const t = ctx.tiles[n]!;
    if (t.rows !== t0.rows || t.cols !== t0.cols || t.blayout !== t0.blayout || t.slayout !== t0.slayout) {
      reject(
        ctx.op.name,
        t.dtype,
        `${n} must have the same tile type (shape and layout) as ${names[0]}`,
        ctx.profile,
      );
    }
  }
}

function bin(
  name: string,
  summary: string,
  f: (A: Arith<unknown>, a: unknown, b: unknown) => unknown,
  opts: { dtypes?: readonly DType[]; sameType?: boolean; tmp?: boolean } = {},
): OpDef {
  return {
    name,
    family: 'binary',
    summary,
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: opts.tmp ? OPS3TMP : OPS3,
    attrs: [],
    dtypes: per(opts.dtypes ?? ALL),
    check: opts.sameType ? (ctx) => requireSameTileType(ctx, ['dst', 'src0', 'src1']) : undefined,
    exec: (ctx) => binaryLoop(ctx, 'src0', 'src1', f),
  };
}

/** REM: fmod / % and then, when the signs differ and the result is non-zero, add the divisor. */
export function flooredRem(A: Arith<unknown>, a: unknown, b: unknown): unknown {
  let r = A.rem(a, b);
  if (A.nonNeg(a) !== A.nonNeg(b) && !A.eq(r, A.zero)) r = A.add(r, b);
  return r;
}

/** pto-isa TPow.hpp integer_pow: repeated squaring in the element type; negative exponents give 0. */
function intPow(A: Arith<unknown>, base: unknown, e: unknown): unknown {
  const big = A.big;
  // static_cast<int64_t>(exp): for u64 values >= 2^63 this is negative
  let ex: bigint = big ? BigInt.asIntN(64, e as bigint) : BigInt(e as number);
  const minusOne = A.fromF64(-1);
  if (ex === 0n || A.eq(base, A.one)) return A.one;
  if (ex < 0n) {
    if (A.eq(base, minusOne)) return ex % 2n === 0n ? A.one : minusOne;
    return A.zero;
  }
  let result = A.one;
  let b = base;
  while (ex > 0n) {
    if (ex & 1n) result = A.mul(result, b);
    b = A.mul(b, b);
    ex >>= 1n;
  }
  return result;
}

function powOp(A: Arith<unknown>, a: unknown, b: unknown): unknown {
  if (!DTYPE_INFO[A.dtype].float) return intPow(A, a, b);
  const p = cPow(A.toF64(a), A.toF64(b));
  // f16: double -> float -> half (TPow.hpp compute_pow)
  return A.dtype === 'f16' ? A.fromF64(Math.fround(p)) : A.fromF64(p);
}

/** ReLU(x) = x > 0 ? x : 0 on the promoted value (8/16-bit integers are not wrapped first). */
function subRelu(A: Arith<unknown>, a: unknown, b: unknown): unknown {
  const info = DTYPE_INFO[A.dtype];
  if (!info.float && info.bytes <= 2) {
    const x = (a as number) - (b as number);
    return Math.max(x, 0);
  }
  const x = A.sub(a, b);
  return A.lt(A.zero, x) ? x : A.zero;
}

/**
 * Fast path for f32 on plain (NoneBox) tiles: a Float32Array store rounds exactly like the C++
 * float operation, so no per-element dispatch is needed. Returns false when not applicable.
 */
function f32Fast(ctx: ExecCtx, op: 0 | 1 | 2 | 3): boolean {
  if (!f32FastApplies(ctx)) return false;
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const R = d.validRow;
  const C = d.validCol;
  const dc = d.cols;
  const ac = s0.cols;
  const bc = s1.cols;
  const pd = d.poolAddr;
  const pa = s0.poolAddr;
  const pb = s1.poolAddr;
  if (pd >= 0 && pa >= 0 && pb >= 0) {
    // all three in the SIMD pool (addresses found when the tiles were made)
    if (dc === C && ac === C && bc === C) simdF32Split(op, pd, pa, pb, R * C);
    else for (let r = 0; r < R; r++) simdF32At(op, pd + r * dc * 4, pa + r * ac * 4, pb + r * bc * 4, C);
    return true;
  }
  const k = F32_KERNELS[op];
  const dv = d.f32();
  const a = s0.f32();
  const b = s1.f32();
  if (dc === C && ac === C && bc === C) {
    k(dv, 0, a, 0, b, 0, R * C);
    return true;
  }
  for (let r = 0; r < R; r++) k(dv, r * dc, a, r * ac, b, r * bc, C);
  return true;
}

/** Whether {@link f32Fast} applies: f32 NoneBox RowMajor tiles whose valid region is in range. */
function f32FastApplies(ctx: ExecCtx): boolean {
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  // (a source of another type falls through to the checked loop, which rejects it)
  if (d.dtype !== 'f32' || s0.dtype !== 'f32' || s1.dtype !== 'f32') return false;
  if (d.slayout !== 'none' || s0.slayout !== 'none' || s1.slayout !== 'none') return false;
  if (d.blayout !== 'row' || s0.blayout !== 'row' || s1.blayout !== 'row') return false;
  const R = d.validRow;
  const C = d.validCol;
  // every read must stay inside its buffer (otherwise the checked loop reports it)
  return !(R > 0 && C > 0 && ((R - 1) * s0.cols + C > s0.numel || (R - 1) * s1.cols + C > s1.numel));
}

/**
 * {@link f32Fast} specialised to bound operands (OpDef.specialise, for prepared instructions): the
 * shape, addresses and kernel are fixed, so a run of contiguous pooled tiles is one kernel call.
 */
function f32Specialise(ctx: ExecCtx, op: 0 | 1 | 2 | 3): (() => void) | undefined {
  if (!f32FastApplies(ctx)) return undefined;
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const n = d.validRow * d.validCol;
  const C = d.validCol;
  const pd = d.poolAddr;
  const pa = s0.poolAddr;
  const pb = s1.poolAddr;
  const k = simdKernel(op);
  if (k !== undefined && pd >= 0 && pa >= 0 && pb >= 0 && d.cols === C && s0.cols === C && s1.cols === C) {
    const run = n >= THREAD_MIN_ELEMS ? () => simdF32Split(op, pd, pa, pb, n) : () => k(pd, pa, pb, n);
    CTX_FREE.add(run);
    return run;
  }
  return () => {
    f32Fast(ctx, op);
  };
}

// One small monomorphic loop per operation, unrolled by four (V8 runs it about twice as fast).
type F32Kernel = (
  d: Float32Array,
  od: number,
  a: Float32Array,
  oa: number,
  b: Float32Array,
  ob: number,
  n: number,
) => void;
function addF32(
  d: Float32Array,
  od: number,
  a: Float32Array,
  oa: number,
  b: Float32Array,
  ob: number,
  n: number,
): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const x0 = a[oa + i]! + b[ob + i]!;
    const x1 = a[oa + i + 1]! + b[ob + i + 1]!;
    const x2 = a[oa + i + 2]! + b[ob + i + 2]!;
    const x3 = a[oa + i + 3]! + b[ob + i + 3]!;
    d[od + i] = x0;
    d[od + i + 1] = x1;
    d[od + i + 2] = x2;
    d[od + i + 3] = x3;
  }
  for (; i < n; i++) d[od + i] = a[oa + i]! + b[ob + i]!;
}
function subF32(
  d: Float32Array,
  od: number,
  a: Float32Array,
  oa: number,
  b: Float32Array,
  ob: number,
  n: number,
): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const x0 = a[oa + i]! - b[ob + i]!;
    const x1 = a[oa + i + 1]! - b[ob + i + 1]!;
    const x2 = a[oa + i + 2]! - b[ob + i + 2]!;
    const x3 = a[oa + i + 3]! - b[ob + i + 3]!;
    d[od + i] = x0;
    d[od + i + 1] = x1;
    d[od + i + 2] = x2;
    d[od + i + 3] = x3;
  }
  for (; i < n; i++) d[od + i] = a[oa + i]! - b[ob + i]!;
}
function divF32(
  d: Float32Array,
  od: number,
  a: Float32Array,
  oa: number,
  b: Float32Array,
  ob: number,
  n: number,
): void {
  for (let i = 0; i < n; i++) d[od + i] = a[oa + i]! / b[ob + i]!;
}
function mulF32(
  d: Float32Array,
  od: number,
  a: Float32Array,
  oa: number,
  b: Float32Array,
  ob: number,
  n: number,
): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const x0 = a[oa + i]! * b[ob + i]!;
    const x1 = a[oa + i + 1]! * b[ob + i + 1]!;
    const x2 = a[oa + i + 2]! * b[ob + i + 2]!;
    const x3 = a[oa + i + 3]! * b[ob + i + 3]!;
    d[od + i] = x0;
    d[od + i + 1] = x1;
    d[od + i + 2] = x2;
    d[od + i + 3] = x3;
  }
  for (; i < n; i++) d[od + i] = a[oa + i]! * b[ob + i]!;
}
const F32_KERNELS: readonly F32Kernel[] = [addF32, subF32, mulF32, divF32];

function fastOr(
  op: 0 | 1 | 2 | 3,
  f: (A: Arith<unknown>, a: unknown, b: unknown) => unknown,
): Pick<OpDef, 'exec' | 'specialise'> {
  return {
    exec: (ctx) => {
      if (!f32Fast(ctx, op)) binaryLoop(ctx, 'src0', 'src1', f);
    },
    specialise: (ctx) => f32Specialise(ctx, op),
  };
}

export const BINARY_OPS: readonly OpDef[] = [
  {
    ...bin('TADD', 'dst = src0 + src1', (A, a, b) => A.add(a, b), { sameType: true }),
    ...fastOr(0, (A, a, b) => A.add(a, b)),
  },
  {
    ...bin('TSUB', 'dst = src0 - src1', (A, a, b) => A.sub(a, b)),
    ...fastOr(1, (A, a, b) => A.sub(a, b)),
  },
  {
    ...bin('TMUL', 'dst = src0 * src1', (A, a, b) => A.mul(a, b)),
    ...fastOr(2, (A, a, b) => A.mul(a, b)),
  },
  {
    ...bin('TDIV', 'dst = src0 / src1 (integer division by zero is undefined)', (A, a, b) => A.div(a, b)),
    ...fastOr(3, (A, a, b) => A.div(a, b)),
  },
  {
    ...bin('TMAX', 'dst = std::max(src0, src1): src1 only when src0 < src1', () => 0),
    exec: (ctx) => pickLoop(ctx, 'src0', 'src1', (A, a, b) => (A.lt(a, b) ? 1 : 0)),
  },
  {
    ...bin('TMIN', 'dst = std::min(src0, src1): src1 only when src1 < src0', () => 0),
    exec: (ctx) => pickLoop(ctx, 'src0', 'src1', (A, a, b) => (A.lt(b, a) ? 1 : 0)),
  },
  {
    ...bin('TREM', 'floored remainder (sign of the divisor)', flooredRem, { dtypes: NO_FP8, tmp: true }),
    check: (ctx) => {
      const d = ctx.tiles.dst!.dtype;
      if (DTYPE_INFO[d].fp8) reject('TREM', d, "no viable overloaded '+=' for the fp8 type", ctx.profile);
    },
  },
  bin('TFMOD', 'truncated remainder (sign of the dividend)', (A, a, b) => A.rem(a, b)),
  {
    ...bin('TPOW', 'dst = src0 ^ src1', powOp, { tmp: true }),
    // TPow.hpp indexes base and exponent with the dst tile's offsets (TPow_Impl<DstTile>)
    exec: (ctx) => binaryLoopDstOffsets(ctx, 'src0', 'src1', powOp),
  },
  bin('TSUBRELU', 'dst = max(src0 - src1, 0)', subRelu),
  bin('TPRELU', 'dst = src0 > 0 ? src0 : src0 * src1', (A, a, b) => (A.lt(A.zero, a) ? a : A.mul(a, b)), {
    dtypes: NO_FP8,
    tmp: true,
  }),
];

export { arithOf };
