/**
 * Three-input elementwise ops: TADDC TSUBC (plain three-operand add/sub in the simulator, not
 * carry/saturating as the docs' suffix table suggests), TADDSC TSUBSC (with a scalar),
 * TFUSEDMULADD (dst = src0*dst + src1), TMULADDDST (dst = src0*src1 + dst, product rounded to the
 * element type first) and TAXPY (dst = dst + src*scalar). pto-isa ElementOp.h, ElementTileOp.h,
 * ElementTileScalarOp.h, TBinSOps.hpp.
 */
import { badInput } from '../../errors.ts';
import { type Arith, arithOf } from '../arith.ts';
import { F16_TABLE, f64ToF16Bits } from '../hostcast.ts';
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
      const src = ctx.tiles.src!;
      const st = src.dtype;
      if (st === 'f16' && d.dtype === 'f32') {
        // taxpy.md "Supported Input Dtypes": dst f32, src0 f16, scalar f16 — src0 is widened to
        // FP32 before accumulating. An f16 x f16 product has at most 22 significant bits, exact in
        // f32, so the result is dst + src0 * scalar rounded once to f32.
        const D = arithOf('f32', ctx.profile) as Arith<number>;
        const S = arithOf('f16', ctx.profile) as Arith<number>;
        const dv = D.view(d.bytes);
        const sv = S.view(src.bytes);
        if (src.validRow !== d.validRow || src.validCol !== d.validCol)
          throw badInput(
            `TAXPY: src valid region ${src.validRow}x${src.validCol} differs from dst's ${d.validRow}x${d.validCol}`,
          );
        const a = F16_TABLE[f64ToF16Bits(Number(s))]!;
        for (let r = 0; r < d.validRow; r++) {
          for (let c = 0; c < d.validCol; c++) {
            const i = d.offset(r, c);
            D.store(dv, i, D.add(D.load(dv, i), S.load(sv, src.offset(r, c)) * a));
          }
        }
        return;
      }
      // the other mixed pairs are refused (taxpy.md: "A half dst with a float src0 is illegal")
      if (st !== d.dtype)
        reject(
          'TAXPY',
          d.dtype,
          `src of type ${st}: only equal types or dst f32 with src f16 (taxpy.md)`,
          ctx.profile,
        );
      // dst is read in place: route it through the ternary loop as its own third operand
      ternaryLoop(ctx, 'src', 'src', 'dst', (A, a, _b, x) =>
        A.add(x, f16 ? A.round(A.mul(a, s)) : A.mul(a, s)),
      );
    },
  },
];

export { unaryLoop };
