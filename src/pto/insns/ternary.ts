/**
 * Three-input elementwise ops: TADDC TSUBC (plain three-operand add/sub in the simulator, not
 * carry/saturating as the docs' suffix table suggests), TADDSC TSUBSC (with a scalar),
 * TFUSEDMULADD (dst = src0*dst + src1), TMULADDDST (dst = src0*src1 + dst, product rounded to the
 * element type first) and TAXPY (dst = dst + src*scalar). pto-isa ElementOp.h, ElementTileOp.h,
 * ElementTileScalarOp.h, TBinSOps.hpp.
 */
import type { Arith } from '../arith.ts';
import { ALL, type OpDef, type OperandSpec, per, reject } from '../op.ts';
import { requireSameTileType } from './binary.ts';
import { ternaryLoop, unaryLoop } from './kernels.ts';

const REF = 'pto-isa docs/isa/tile/ops';
const T4: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true },
  { name: 'src0', kind: 'tile' },
  { name: 'src1', kind: 'tile' },
  { name: 'src2', kind: 'tile' },
];
const T3IO: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true, inout: true },
  { name: 'src0', kind: 'tile' },
  { name: 'src1', kind: 'tile' },
];
const SCALAR = [{ name: 'scalar', kind: 'scalar' as const }];
const all = per(ALL);

/** TADDC / TSUBC: dst = src0 (+|-) src1 + src2 over one tile type. */
function carry(name: string, sign: '+' | '-'): OpDef {
  const f =
    sign === '+'
      ? (A: Arith<unknown>, a: unknown, b: unknown) => A.add(a, b)
      : (A: Arith<unknown>, a: unknown, b: unknown) => A.sub(a, b);
  return {
    name,
    family: 'ternary',
    summary: `dst = src0 ${sign} src1 + src2`,
    ref: `${REF}/elementwise-tile-tile/${name.toLowerCase()}.md`,
    operands: T4,
    attrs: [],
    dtypes: all,
    check: (ctx) => requireSameTileType(ctx, ['dst', 'src0', 'src1', 'src2']),
    exec: (ctx) => ternaryLoop(ctx, 'src0', 'src1', 'src2', (A, a, b, c) => A.add(f(A, a, b), c)),
  };
}

/** TADDSC / TSUBSC: dst = src0 (+|-) scalar + src1. */
function scalarCarry(name: string, sign: '+' | '-'): OpDef {
  const f =
    sign === '+'
      ? (A: Arith<unknown>, a: unknown, s: unknown) => A.add(a, s)
      : (A: Arith<unknown>, a: unknown, s: unknown) => A.sub(a, s);
  return {
    name,
    family: 'ternary',
    summary: `dst = src0 ${sign} scalar + src1`,
    ref: `${REF}/elementwise-tile-scalar/${name.toLowerCase()}.md`,
    operands: T3IO.map((o) => (o.name === 'dst' ? { ...o, inout: false } : o)),
    attrs: SCALAR,
    dtypes: all,
    check: (ctx) => requireSameTileType(ctx, ['dst', 'src0', 'src1']),
    exec: (ctx) => {
      const s = ctx.scalar;
      ternaryLoop(ctx, 'src0', 'src1', 'src1', (A, a, b) => A.add(f(A, a, s), b));
    },
  };
}

export const TERNARY_OPS: readonly OpDef[] = [
  carry('TADDC', '+'),
  carry('TSUBC', '-'),
  scalarCarry('TADDSC', '+'),
  scalarCarry('TSUBSC', '-'),
  {
    name: 'TFUSEDMULADD',
    family: 'ternary',
    summary: 'dst = src0 * dst + src1',
    ref: `${REF}/elementwise-tile-tile/tfusedmuladd.md`,
    operands: T3IO,
    attrs: [],
    dtypes: all,
    exec: (ctx) => ternaryLoop(ctx, 'src0', 'src1', 'dst', (A, a, b, d) => A.add(A.mul(a, d), b)),
  },
  {
    name: 'TMULADDDST',
    family: 'ternary',
    summary: 'dst = src0 * src1 + dst (the product is rounded to the element type first)',
    ref: `${REF}/elementwise-tile-tile/tmuladddst.md`,
    operands: T3IO,
    attrs: [],
    dtypes: all,
    exec: (ctx) => ternaryLoop(ctx, 'src0', 'src1', 'dst', (A, a, b, d) => A.add(A.round(A.mul(a, b)), d)),
  },
  {
    name: 'TAXPY',
    family: 'ternary',
    summary: 'dst = dst + src * scalar (f16 rounds the product first)',
    ref: `${REF}/elementwise-tile-scalar/taxpy.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true, inout: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: SCALAR,
    dtypes: all,
    exec: (ctx) => {
      const s = ctx.scalar;
      const d = ctx.tiles.dst!;
      const f16 = d.dtype === 'f16';
      // TBinSOps.hpp TAXPY_IMPL also compiles for a src type other than dst's (C++ promotion of
      // dst + src * scalar); that mixed form is not modelled, so it is refused rather than computed
      // through dst's view of the source bytes.
      const st = ctx.tiles.src!.dtype;
      if (st !== d.dtype)
        reject('TAXPY', d.dtype, `src of type ${st}: the mixed-type form is not modelled`, ctx.profile);
      // dst is read in place: route it through the ternary loop as its own third operand
      ternaryLoop(ctx, 'src', 'src', 'dst', (A, a, _b, x) =>
        A.add(x, f16 ? A.round(A.mul(a, s)) : A.mul(a, s)),
      );
    },
  },
];

export { unaryLoop };
