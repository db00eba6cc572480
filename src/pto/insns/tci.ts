/**
 * TCI: a contiguous integer sequence, dst[0, j] = start + j (or start - j when `descending`) for
 * j < dst.validCol, computed in the element type (pto-isa include/pto/cpu/TCI.hpp,
 * docs/isa/tile/ops/irregular-and-complex/tci.md). Only row 0 is written: the implementation takes
 * validCol as the length and never consults validRow. The CPU simulator only compiles one-row tiles;
 * the A2/A3 / A5 implementation checks require Cols != 1 and a 16/32-bit integer type.
 */
import { INTS, type OpDef, off, reject, tileArith } from '../op.ts';

export const TCI_OPS: readonly OpDef[] = [
  {
    name: 'TCI',
    family: 'irregular',
    summary: 'dst[0, j] = start + j (start - j when descending), j < dst.validCol',
    ref: 'pto-isa docs/isa/tile/ops/irregular-and-complex/tci.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
    ],
    attrs: [
      { name: 'scalar', kind: 'scalar' },
      { name: 'descending', kind: 'flag', optional: true, values: ['true', 'false'] },
    ],
    dtypes: { cpu: INTS, a2a3: ['i32', 'u32', 'i16', 'u16'], a5: ['i32', 'u32', 'i16', 'u16'] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      if (ctx.profile === 'cpu' && d.rows !== 1)
        reject('TCI', d.dtype, `TCI only supports 1-row tiles (dst has ${d.rows} rows)`, ctx.profile);
      if (ctx.profile !== 'cpu' && d.cols === 1)
        reject('TCI', d.dtype, 'the destination needs Cols != 1', ctx.profile);
    },
    exec: (ctx) => {
      const d = ctx.tiles.dst!;
      const A = tileArith(ctx, 'dst');
      const v = A.view(d.bytes);
      const desc = ctx.attrs.descending === true || ctx.attrs.descending === 'true';
      const start = ctx.scalar;
      for (let j = 0; j < d.validCol; j++) {
        const k = A.fromF64(j);
        A.store(v, off(d, 0, j), desc ? A.sub(start, k) : A.add(start, k));
      }
    },
  },
];
