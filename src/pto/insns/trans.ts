/**
 * TTRANS: dst[c][r] = src[r][c] over the source valid region (pto-isa include/pto/cpu/TTrans.hpp);
 * the element sizes must match (static_assert), the elements are copied unchanged.
 */
import { anyArith } from '../arith.ts';
import { ALL, copyElem, type OpDef, off, per, reject } from '../op.ts';

export const TRANS_OPS: readonly OpDef[] = [
  {
    name: 'TTRANS',
    family: 'trans',
    summary: 'dst[c,r] = src[r,c] over the source valid region',
    ref: 'pto-isa docs/isa/tile/ops/layout-and-rearrangement/ttrans.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
    ],
    attrs: [],
    primary: 'src',
    dtypes: per(ALL),
    check: (ctx) => {
      const s = ctx.tiles.src!;
      const d = ctx.tiles.dst!;
      if (s.elemBytes !== d.elemBytes)
        reject('TTRANS', s.dtype, `element sizes differ (dst is ${d.dtype})`, ctx.profile);
    },
    exec: (ctx) => {
      const s = ctx.tiles.src!;
      const d = ctx.tiles.dst!;
      const S = anyArith(s.dtype, ctx.profile);
      const D = anyArith(d.dtype, ctx.profile);
      const sv = S.view(s.bytes);
      const dv = D.view(d.bytes);
      for (let c = 0; c < s.validCol; c++) {
        for (let r = 0; r < s.validRow; r++) {
          const so = off(s, r, c);
          const o = off(d, c, r);
          if (s.dtype === d.dtype) copyElem(s, so, d, o);
          else D.store(dv, o, D.fromF64(S.toF64(S.load(sv, so))));
        }
      }
    },
  },
];
