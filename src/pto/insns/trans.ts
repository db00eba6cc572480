/**
 * TTRANS: dst[c][r] = src[r][c] over the source valid region (pto-isa include/pto/cpu/TTrans.hpp);
 * the element sizes must match (static_assert), the elements are copied unchanged.
 */
import { ALL, type OpDef, per, reject } from '../op.ts';
import { copyRegion } from './copy.ts';

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
      copyRegion(ctx.profile, s, ctx.tiles.dst!, s.validRow, s.validCol, { transpose: true });
    },
  },
];
