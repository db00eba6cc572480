/**
 * TPREFETCH (pto-isa docs/isa/tile/ops/memory-and-data-movement/tprefetch.md,
 * include/pto/cpu/TPrefetch.hpp): fills the tile from global memory. The CPU simulator copies, for
 * r < validRow and c < validCol, element r·Cols + c of the tensor's memory (from its first element,
 * strides not applied) to element r·Cols + c of the tile buffer; `cpu` does exactly that. The page
 * describes a transfer of the GM region into the tile buffer, i.e. a TLOAD: a2a3/a5 map element
 * (r, c) through the tensor's shape and strides into the tile's layout.
 *
 * TPREFETCH_ASYNC (docs/isa/TPREFETCH_ASYNC.md, include/pto/cpu/TPrefetchAsync.hpp) only warms the
 * L2 cache: no architectural state changes (the simulator's implementation is a no-op).
 */
import { undefinedBehaviour } from '../../errors.ts';
import { DTYPE_INFO } from '../dtype.ts';
import { ALL, type ExecCtx, type OpDef, off, reject } from '../op.ts';
import { gOff } from './memory.ts';

function prefetch(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const g = ctx.globals.src!;
  const n = d.elemBytes;
  const total = g.bytes.length / n;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const so = ctx.profile === 'cpu' ? r * d.cols + c : gOff(g, r, c);
      const to = ctx.profile === 'cpu' ? r * d.cols + c : off(d, r, c);
      if (so >= total || to >= d.numel)
        throw undefinedBehaviour(`TPREFETCH: element (${r}, ${c}) lies outside the tensor or the tile`);
      for (let b = 0; b < n; b++) d.bytes[to * n + b] = g.bytes[so * n + b]!;
    }
  }
}

export const PREFETCH_OPS: readonly OpDef[] = [
  {
    name: 'TPREFETCH',
    family: 'memory',
    summary: 'tile <- global memory over the valid region (a blocking load on the CPU simulator)',
    ref: 'pto-isa docs/isa/tile/ops/memory-and-data-movement/tprefetch.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'global' },
    ],
    attrs: [],
    primary: 'dst',
    dtypes: { cpu: ALL, a2a3: ALL.filter((d) => !d.startsWith('f8')), a5: ALL },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const g = ctx.globals.src!;
      if (DTYPE_INFO[g.dtype].bytes !== d.elemBytes)
        reject(
          'TPREFETCH',
          d.dtype,
          `the tensor's ${g.dtype} elements differ in size from the tile's`,
          ctx.profile,
        );
    },
    exec: prefetch,
  },
  {
    name: 'TPREFETCH_ASYNC',
    family: 'memory',
    summary: 'L2 cache prefetch of a global tensor (no functional effect)',
    ref: 'pto-isa docs/isa/TPREFETCH_ASYNC.md',
    operands: [{ name: 'src', kind: 'global' }],
    attrs: [],
    dtypes: { cpu: ALL, a2a3: ALL, a5: ALL },
    exec: () => {},
  },
];
