/**
 * Unary ops: TABS TNEG TEXP TLOG TSQRT TRSQRT TRECIP TRELU. pto-isa docs/isa/tile/ops/elementwise-unary
 * and CPU simulator ElementOp.h, TAbs.hpp, TSqrt.hpp, TRSqrt.hpp. Transcendentals go through double
 * (`std::exp/log/sqrt`) and one conversion to the element type; f16 TEXP uses `expf`.
 */
import { DTYPE_INFO } from '../dtype.ts';
import { glibcExp } from '../glibc.ts';
import { crLog } from '../libm.ts';
import { ALL, copyElem, type OpDef, type OperandSpec, off, per, requireRowMajor, tileArith } from '../op.ts';
import { requireSameTileType } from './binary.ts';
import { requireDstType, unaryLoop } from './kernels.ts';

const REF = 'pto-isa docs/isa/tile/ops/elementwise-unary';
const TS: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true },
  { name: 'src', kind: 'tile' },
];
const TSTMP: readonly OperandSpec[] = [...TS, { name: 'tmp', kind: 'tile', scratch: true, optional: true }];

type F = Parameters<typeof unaryLoop>[2];

/**
 * TNEG / TABS on f32 work on the sign bit: the CPU simulator's `-src` is a sign flip (x86
 * `xorps`) and `src < 0 ? -src : src` copies a NaN (the comparison is false), so a signalling NaN
 * keeps its bytes (0x7fa00000 stays signalling; TNEG gives 0xffa00000). Going through a JS number
 * would quiet it (0x7fe00000). Other types (integers wrap; f16/bf16, `_Float16` computed in float)
 * use the element arithmetic.
 */
function signLoop(ctx: Parameters<typeof unaryLoop>[0], kind: 'neg' | 'abs', f: F): void {
  const d = ctx.tiles.dst!;
  if (d.dtype !== 'f32') {
    unaryLoop(ctx, 'src', f);
    return;
  }
  requireDstType(ctx, ['src']);
  const s = ctx.tiles.src!;
  const n = d.elemBytes;
  const A = tileArith(ctx, 'dst');
  const sv = A.view(s.bytes);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const so = off(s, r, c);
      const dOff = off(d, r, c);
      const flip = kind === 'neg' || A.lt(A.load(sv, so), A.zero);
      copyElem(s, so, d, dOff);
      if (flip) d.bytes[dOff * n + n - 1]! ^= 0x80;
    }
  }
}
function un(name: string, summary: string, f: F, opts: Partial<OpDef> = {}): OpDef {
  return {
    name,
    family: 'unary',
    summary,
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: TS,
    attrs: [],
    dtypes: per(ALL),
    exec: (ctx) => unaryLoop(ctx, 'src', f),
    ...opts,
  };
}

export const UNARY_OPS: readonly OpDef[] = [
  un('TABS', 'dst = src < 0 ? -src : src', (A, a) => (A.lt(a, A.zero) ? A.neg(a) : a), {
    dtypes: per(['i32', 'i16', 'i8', 'f16', 'bf16', 'f32']),
    check: (ctx) => requireSameTileType(ctx, ['dst', 'src']),
    exec: (ctx) => signLoop(ctx, 'abs', (A, a) => (A.lt(a, A.zero) ? A.neg(a) : a)),
  }),
  un('TNEG', 'dst = -src', (A, a) => A.neg(a), { exec: (ctx) => signLoop(ctx, 'neg', (A, a) => A.neg(a)) }),
  un('TEXP', 'dst = exp(src)', (A, a) =>
    // f16 calls expf: rounding glibc's double exp to float gives the same half for all 65 536 inputs
    A.dtype === 'f16' ? A.fromF64(Math.fround(glibcExp(A.toF64(a)))) : A.fromF64(glibcExp(A.toF64(a))),
  ),
  un('TLOG', 'dst = log(src)', (A, a) => A.fromF64(crLog(A.toF64(a)))),
  un('TSQRT', 'dst = sqrt(src)', (A, a) => A.fromF64(Math.sqrt(A.toF64(a))), {
    dtypes: per(['f32', 'f16', 'bf16']),
  }),
  un('TRSQRT', 'dst = 1 / sqrt(src) (in double)', (A, a) => A.fromF64(1 / Math.sqrt(A.toF64(a))), {
    dtypes: per(['f32', 'f16']),
    operands: TSTMP,
  }),
  un(
    'TRECIP',
    'dst = 1 / src (the simulator routes it through TDIVS(dst, 1, src))',
    (A, a) => A.div(A.one, a),
    {
      check: (ctx) =>
        requireRowMajor(ctx, ['dst', 'src'], 'TDIVS (which TRECIP uses) requires RowMajor tiles'),
    },
  ),
  un('TRELU', 'dst = std::max(src, 0)', () => 0, {
    exec: (ctx) => {
      requireDstType(ctx, ['src']);
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const A = tileArith(ctx, 'dst');
      const dv = A.view(d.bytes);
      const sv = A.view(s.bytes);
      for (let r = 0; r < d.validRow; r++) {
        for (let c = 0; c < d.validCol; c++) {
          const so = off(s, r, c);
          if (A.lt(A.load(sv, so), A.zero)) A.store(dv, off(d, r, c), A.zero);
          else copyElem(s, so, d, off(d, r, c));
        }
      }
    },
  }),
];

export const isFloatType = (d: keyof typeof DTYPE_INFO) => DTYPE_INFO[d].float;
