/**
 * TEXTRACT: dst(r, c) = src(indexRow + r, indexCol + c) over dst's valid region, columns outermost
 * (pto-isa include/pto/cpu/TExtract.hpp, the plain form without quantisation or ReLU;
 * docs/isa/tile/ops/layout-and-rearrangement/textract.md). The simulator's bound check is an
 * `assert` (gone in the release build): reads past src's valid region see whatever the buffer holds,
 * reads past its physical buffer are UndefinedBehaviour. The page requires equal element types and
 * indexRow + dst.rows <= src.rows, indexCol + dst.cols <= src.cols; the A2/A3 / A5 profiles enforce
 * both, the `cpu` profile converts a different element type like the C++ assignment.
 */
import { badInput } from '../../errors.ts';
import { ALL, type ExecCtx, type OpDef, reject } from '../op.ts';
import { copyRegion } from './copy.ts';

export function index(ctx: ExecCtx, name: string): number {
  const v = ctx.attrs[name] ?? 0;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffff)
    throw badInput(`${ctx.op.name}: ${name} must be an integer in 0..65535, got ${String(v)}`);
  return n;
}

/** The optional `relu` switch (registry.ts `execute` has already refused a non-boolean). */
function reluFlag(ctx: ExecCtx): boolean {
  return ctx.attrs.relu === true;
}

export const EXTRACT_OPS: readonly OpDef[] = [
  {
    name: 'TEXTRACT',
    family: 'layout',
    summary: 'dst(r,c) = src(indexRow + r, indexCol + c) over the dst valid region',
    ref: 'pto-isa docs/isa/tile/ops/layout-and-rearrangement/textract.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [
      { name: 'indexRow', kind: 'index', optional: true },
      { name: 'indexCol', kind: 'index', optional: true },
      // ReluPreMode::NormalRelu (TExtract.hpp `applyRelu`)
      { name: 'relu', kind: 'flag', optional: true },
    ],
    primary: 'src',
    dtypes: {
      cpu: ALL,
      // textract.md "Supported Element Types" (the ones axsim has; fp8 only exists on A5)
      a2a3: ['i8', 'f16', 'bf16', 'f32'],
      a5: ['i8', 'f16', 'bf16', 'f32', 'f8e4m3', 'f8e5m2'],
    },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const ir = index(ctx, 'indexRow');
      const ic = index(ctx, 'indexCol');
      if (ctx.profile === 'cpu') return;
      if (d.dtype !== s.dtype)
        reject('TEXTRACT', s.dtype, `dst (${d.dtype}) must have the source element type`, ctx.profile);
      if (ir + d.rows > s.rows || ic + d.cols > s.cols) {
        throw badInput(
          `TEXTRACT: a ${d.rows}x${d.cols} window at (${ir}, ${ic}) does not fit the ${s.rows}x${s.cols} source`,
          { hint: 'textract.md: indexRow + dst rows <= src rows and indexCol + dst cols <= src cols' },
        );
      }
    },
    exec: (ctx) => {
      const d = ctx.tiles.dst!;
      copyRegion(ctx.profile, ctx.tiles.src!, d, d.validRow, d.validCol, {
        srcRow: index(ctx, 'indexRow'),
        srcCol: index(ctx, 'indexCol'),
        relu: reluFlag(ctx),
      });
    },
  },
  {
    // TInsert.hpp (plain form): dst(indexRow + r, indexCol + c) = src(r, c) over src's valid region,
    // columns outermost, converting like SetElement; the bound check is an `assert` (cpu: writes past
    // dst's valid region land in its buffer, past the buffer are UndefinedBehaviour). tinsert.md:
    // Acc -> Mat on A2/A3 (A5 adds Vec sources); the window must fit dst there.
    name: 'TINSERT',
    family: 'layout',
    summary: 'dst(indexRow + r, indexCol + c) = src(r,c) over the src valid region',
    ref: 'pto-isa docs/isa/tile/ops/layout-and-rearrangement/tinsert.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [
      { name: 'indexRow', kind: 'index', optional: true },
      { name: 'indexCol', kind: 'index', optional: true },
      // ReluPreMode::NormalRelu (TInsert.hpp `applyRelu`)
      { name: 'relu', kind: 'flag', optional: true },
    ],
    primary: 'dst',
    dtypes: {
      cpu: ALL,
      // tinsert.md "Supported Element Types" (those axsim has)
      a2a3: ['i8', 'f16', 'bf16', 'f32'],
      a5: ['i8', 'f16', 'bf16', 'f32', 'f8e4m3', 'f8e5m2'],
    },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const ir = index(ctx, 'indexRow');
      const ic = index(ctx, 'indexCol');
      if (ctx.profile === 'cpu') return;
      const okLoc = d.loc === 'mat' && (s.loc === 'acc' || (ctx.profile === 'a5' && s.loc === 'vec'));
      if (!okLoc && !(ctx.profile === 'a5' && s.loc === 'vec' && d.loc === 'vec'))
        reject(
          'TINSERT',
          d.dtype,
          `a ${s.loc} -> ${d.loc} insert is not a documented pair on ${ctx.profile}`,
          ctx.profile,
        );
      if (ir + s.validRow > d.rows || ic + s.validCol > d.cols) {
        throw badInput(
          `TINSERT: a ${s.validRow}x${s.validCol} source at (${ir}, ${ic}) does not fit the ${d.rows}x${d.cols} destination`,
        );
      }
    },
    exec: (ctx) => {
      const s = ctx.tiles.src!;
      copyRegion(ctx.profile, s, ctx.tiles.dst!, s.validRow, s.validCol, {
        dstRow: index(ctx, 'indexRow'),
        dstCol: index(ctx, 'indexCol'),
        relu: reluFlag(ctx),
      });
    },
  },
];
