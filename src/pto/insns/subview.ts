/**
 * TSUBVIEW (pto-isa docs/isa/TSUBVIEW.md, docs/isa/tile/ops/sync-and-config/subview.md,
 * include/pto/cpu/TSubView.hpp): dst becomes a view of src at (rowIdx, colIdx):
 * dst(i, j) = src(rowIdx + i, colIdx + j). The simulator re-points dst's data pointer
 * (`src.data() + rowIdx·RowStride + colIdx·ColStride`), so later writes through either tile are seen
 * by both. Library tiles own their buffers: `execute('TSUBVIEW', …)` copies the window over dst's
 * valid region (the values at the moment of the call); the PTO-AS runner (`pto.subview`) keeps dst as
 * a live window of src, as it does for `pto.subset`. Checks: same location; on a2a3/a5 also the same
 * base layout and src's valid region at least dst's (the page's Auto-mode checks).
 */
import { badInput } from '../../errors.ts';
import { ALL, copyElem, type OpDef, off, reject } from '../op.ts';

export const SUBVIEW_OPS: readonly OpDef[] = [
  {
    name: 'TSUBVIEW',
    family: 'layout',
    summary: 'dst = the view of src at (rowIdx, colIdx) (a copy in the library, a live window in PTO-AS)',
    ref: 'pto-isa docs/isa/TSUBVIEW.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [
      { name: 'rowIdx', kind: 'index', optional: true },
      { name: 'colIdx', kind: 'index', optional: true },
    ],
    primary: 'src',
    dtypes: { cpu: ALL, a2a3: ALL, a5: ALL },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      for (const k of ['rowIdx', 'colIdx']) {
        const v = ctx.attrs[k] ?? 0;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffff)
          throw badInput(`TSUBVIEW: ${k} must be an integer in 0..65535, got ${String(v)}`);
      }
      if (d.loc !== s.loc)
        reject(
          'TSUBVIEW',
          s.dtype,
          'the destination and source tiles must have the same TileType',
          ctx.profile,
        );
      if (d.dtype !== s.dtype)
        reject('TSUBVIEW', s.dtype, `dst (${d.dtype}) views src's elements: same type`, ctx.profile);
      if (
        ctx.profile !== 'cpu' &&
        (d.blayout !== s.blayout || d.validRow > s.validRow || d.validCol > s.validCol)
      )
        reject(
          'TSUBVIEW',
          s.dtype,
          "same BLayout and a source valid region at least the destination's",
          ctx.profile,
        );
    },
    exec: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const r0 = Number(ctx.attrs.rowIdx ?? 0);
      const c0 = Number(ctx.attrs.colIdx ?? 0);
      for (let i = 0; i < d.validRow; i++)
        for (let j = 0; j < d.validCol; j++) copyElem(s, off(s, r0 + i, c0 + j), d, off(d, i, j));
    },
  },
];
