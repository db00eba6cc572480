/**
 * Tile-scalar ops: TADDS TSUBS TMULS TDIVS (both operand orders) TMAXS TMINS TLRELU TREMS TFMODS
 * TPOWS TEXPANDS. The scalar has the tile's element type (`typename TileSrc::DType scalar`).
 * The simulator `static_assert`s RowMajor for TADDS TMULS TDIVS TMAXS TLRELU TPOWS (TBinSOps.hpp).
 * pto-isa docs/isa/tile/ops/elementwise-tile-scalar/*.md.
 */
import { DTYPE_INFO } from '../dtype.ts';
import {
  ALL,
  copyElem,
  type ExecCtx,
  isFloat,
  type OpDef,
  type OperandSpec,
  off,
  per,
  reject,
  requireRowMajor,
  tileArith,
} from '../op.ts';
import { flooredRem } from './binary.ts';
import { cPow, unaryLoop } from './kernels.ts';

const REF = 'pto-isa docs/isa/tile/ops/elementwise-tile-scalar';
const TS: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true },
  { name: 'src', kind: 'tile' },
];
const TSTMP: readonly OperandSpec[] = [...TS, { name: 'tmp', kind: 'tile', scratch: true, optional: true }];
const SCALAR = [{ name: 'scalar', kind: 'scalar' as const }];
const NO_FP8 = ALL.filter((d) => !DTYPE_INFO[d].fp8);

type F = (A: Parameters<Parameters<typeof unaryLoop>[2]>[0], a: unknown, s: unknown) => unknown;
const rowMajor = (ctx: ExecCtx) =>
  requireRowMajor(ctx, ['dst', 'src'], 'tile-scalar ops of this kind static_assert RowMajor tiles');

function ts(name: string, summary: string, f: F, opts: Partial<OpDef> & { rm?: boolean } = {}): OpDef {
  const { rm, ...rest } = opts;
  return {
    name,
    family: 'tile-scalar',
    summary,
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: TS,
    attrs: SCALAR,
    dtypes: per(ALL),
    check: rm ? rowMajor : undefined,
    exec: (ctx) => {
      const s = ctx.scalar;
      unaryLoop(ctx, 'src', (A, a) => f(A, a, s));
    },
    ...rest,
  };
}

/** std::max/min with a scalar: copies the tile element's bytes, or the scalar's. */
function pickScalar(
  ctx: ExecCtx,
  takeScalar: (A: ReturnType<typeof tileArith>, a: unknown, s: unknown) => boolean,
): void {
  const d = ctx.tiles.dst!;
  const src = ctx.tiles.src!;
  const A = tileArith(ctx, 'dst');
  const dv = A.view(d.bytes);
  const sv = A.view(src.bytes);
  const s = ctx.scalar;
  const raw = ctx.attrs.scalarBytes as Uint8Array | undefined;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const so = off(src, r, c);
      const o = off(d, r, c);
      if (takeScalar(A, A.load(sv, so), s)) {
        if (raw) d.bytes.set(raw, o * d.elemBytes);
        else A.store(dv, o, s);
      } else copyElem(src, so, d, o);
    }
  }
}

/**
 * TREMS (with tmp) and TFMODS test `scalar != 0` and otherwise only PTO_ASSERT, which release builds
 * compile out: a zero scalar leaves dst untouched (TBinSOps.hpp).
 */
function skipZeroScalar(f: F): (ctx: ExecCtx) => void {
  return (ctx) => {
    const s = ctx.scalar;
    const A = tileArith(ctx, 'dst');
    if (A.eq(s, A.zero)) return;
    unaryLoop(ctx, 'src', (B, a) => f(B, a, s));
  };
}

export const SCALAR_OPS: readonly OpDef[] = [
  ts('TADDS', 'dst = src + scalar', (A, a, s) => A.add(a, s), { rm: true }),
  ts('TSUBS', 'dst = src - scalar', (A, a, s) => A.sub(a, s)),
  ts('TMULS', 'dst = src * scalar', (A, a, s) => A.mul(a, s), { rm: true }),
  {
    ...ts('TDIVS', 'dst = src / scalar, or scalar / src with order=scalar_first', () => 0, { rm: true }),
    attrs: [
      ...SCALAR,
      { name: 'order', kind: 'order', optional: true, values: ['tile_first', 'scalar_first'] },
    ],
    exec: (ctx) => {
      const s = ctx.scalar;
      if (ctx.attrs.order === 'scalar_first') unaryLoop(ctx, 'src', (A, a) => A.div(s, a));
      else if (ctx.profile === 'a5' && isFloat(ctx.tiles.dst!.dtype)) {
        // tdivs.md: on A5 the tile/scalar form multiplies by the reciprocal (1/0 -> +inf)
        unaryLoop(ctx, 'src', (A, a) => A.mul(a, A.div(A.one, s)));
      } else unaryLoop(ctx, 'src', (A, a) => A.div(a, s));
    },
  },
  {
    ...ts('TMAXS', 'dst = std::max(src, scalar)', () => 0, { rm: true }),
    exec: (ctx) => pickScalar(ctx, (A, a, s) => A.lt(a, s)),
  },
  {
    ...ts('TMINS', 'dst = std::min(src, scalar)', () => 0),
    exec: (ctx) => pickScalar(ctx, (A, a, s) => A.lt(s, a)),
  },
  ts('TLRELU', 'dst = src > 0 ? src : src * scalar', (A, a, s) => (A.lt(A.zero, a) ? a : A.mul(a, s)), {
    rm: true,
    dtypes: per(NO_FP8),
  }),
  ts('TREMS', 'floored remainder by the scalar', (A, a, s) => flooredRem(A, a, s), {
    dtypes: per(NO_FP8),
    operands: TSTMP,
    exec: skipZeroScalar((A, a, s) => flooredRem(A, a, s)),
  }),
  ts('TFMODS', 'truncated remainder by the scalar', (A, a, s) => A.rem(a, s), {
    exec: skipZeroScalar((A, a, s) => A.rem(a, s)),
  }),
  ts('TPOWS', 'dst = pow(src, scalar) in double', (A, a, s) => A.fromF64(cPow(A.toF64(a), A.toF64(s))), {
    rm: true,
    operands: TSTMP,
  }),
  {
    name: 'TEXPANDS',
    family: 'tile-scalar',
    summary: 'dst = scalar over the valid region',
    ref: `${REF}/texpands.md`,
    operands: [{ name: 'dst', kind: 'tile', out: true }],
    attrs: SCALAR,
    dtypes: per(ALL),
    exec: (ctx) => {
      const d = ctx.tiles.dst!;
      const A = tileArith(ctx, 'dst');
      const dv = A.view(d.bytes);
      const raw = ctx.attrs.scalarBytes as Uint8Array | undefined;
      for (let r = 0; r < d.validRow; r++) {
        for (let c = 0; c < d.validCol; c++) {
          const o = off(d, r, c);
          if (raw) d.bytes.set(raw, o * d.elemBytes);
          else A.store(dv, o, ctx.scalar);
        }
      }
    },
  },
];

export { reject };
