/**
 * TRESHAPE (pto-isa docs/isa/tile/ops/layout-and-rearrangement/treshape.md,
 * include/pto/cpu/TReshape.hpp) and SYNCALL (docs/isa/SYNCALL.md).
 *
 * - TRESHAPE: the same bytes seen as another tile type. The simulator re-points dst at src's storage
 *   (`dst.data() = src.data()`); the NPU branch copies the bytes. Library tiles own their buffers, so
 *   `execute('TRESHAPE', …)` copies src's bytes into dst (what the NPU path does; the aliasing form is
 *   PTO-AS `pto.treshape`, where the runner gives the result the source's buffer). Static checks as
 *   the header: same location, same byte size, element types equal or both float or both integer,
 *   boxed to boxed or unboxed to unboxed.
 * - SYNCALL: a cross-core barrier; with one simulated core it orders nothing (as TSYNC).
 */
import type { DType } from '../dtype.ts';
import { DTYPE_INFO } from '../dtype.ts';
import { ALL, type OpDef, reject } from '../op.ts';

const isFloat = (d: DType) => DTYPE_INFO[d].float;

export const RESHAPE_OPS: readonly OpDef[] = [
  {
    name: 'TRESHAPE',
    family: 'layout',
    summary: "dst = src's bytes under dst's tile type (same byte size, compatible element types)",
    ref: 'pto-isa docs/isa/tile/ops/layout-and-rearrangement/treshape.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [],
    primary: 'src',
    dtypes: { cpu: ALL, a2a3: ALL, a5: ALL },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const why =
        d.loc !== s.loc
          ? 'source and target TileType must be the same'
          : d.bytes.length !== s.bytes.length
            ? `total byte size must match (${s.bytes.length} vs ${d.bytes.length})`
            : d.dtype !== s.dtype && isFloat(d.dtype) !== isFloat(s.dtype)
              ? `element types ${s.dtype} and ${d.dtype} are not compatible (float vs integer)`
              : (d.slayout === 'none') !== (s.slayout === 'none')
                ? 'cannot reshape between boxed and non-boxed layouts'
                : undefined;
      if (why) reject('TRESHAPE', s.dtype, why, ctx.profile);
    },
    exec: (ctx) => {
      ctx.tiles.dst!.bytes.set(ctx.tiles.src!.bytes);
    },
  },
  {
    name: 'SYNCALL',
    family: 'sync',
    summary: 'cross-core barrier (no effect with one simulated core)',
    ref: 'pto-isa docs/isa/SYNCALL.md',
    operands: [],
    attrs: [],
    dtypes: { cpu: ALL, a2a3: ALL, a5: ALL },
    exec: () => {},
  },
];
