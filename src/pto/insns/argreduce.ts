/**
 * Arg-reductions (pto-isa docs/isa/tile/ops/reduce-and-expand/trowargmax.md, trowargmin.md,
 * tcolargmax.md, tcolargmin.md; include/pto/cpu/TReduceIdx.hpp):
 *
 * - TROWARGMAX / TROWARGMIN: for each row r < src.validRow, the column of the largest / smallest
 *   element among src(r, 0..validCol-1) goes to dst(r, 0) (an i32/u32 index); with the optional
 *   `dstVal` operand that element goes to dstVal(r, 0) as well.
 * - TCOLARGMAX / TCOLARGMIN: the same per column c < src.validCol, into dst(0, c) / dstVal(0, c).
 *
 * An empty scan (no valid columns / rows) still writes index 0 and element 0, as the loops do.
 * The scan starts from element 0 and moves to a later element only when it is strictly greater
 * (smaller), so ties keep the first one and a NaN is never chosen after the first element (a NaN at
 * element 0 stays). The `tmp` operand is scratch (A2/A3 only). On `cpu` the simulator's static
 * checks apply: an integer, f16, bf16 or f32 source; the value form of TCOLARG* goes through the
 * row checks (`TColReduceValImpl` calls `CheckRowArgTiles`), so it needs a RowMajor source there.
 */
import { badInput } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { copyElem, type ExecCtx, INTS, type OpDef, off, reject } from '../op.ts';

const REF = 'pto-isa docs/isa/tile/ops/reduce-and-expand';
const CPU_TYPES: readonly DType[] = [...INTS, 'f16', 'bf16', 'f32'];
const NPU_TYPES: readonly DType[] = ['f16', 'f32'];

function argReduce(ctx: ExecCtx, rows: boolean, max: boolean): void {
  const s = ctx.tiles.src!;
  const d = ctx.tiles.dst!;
  const dv = ctx.tiles.dstVal;
  const A = anyArith(s.dtype, ctx.profile);
  const sv = A.view(s.bytes);
  const I = anyArith(d.dtype, ctx.profile);
  const iv = I.view(d.bytes);
  const outer = rows ? s.validRow : s.validCol;
  const inner = rows ? s.validCol : s.validRow;
  for (let k = 0; k < outer; k++) {
    let bestAt = rows ? off(s, k, 0) : off(s, 0, k);
    let best = A.load(sv, bestAt);
    let bestIdx = 0;
    for (let j = 1; j < inner; j++) {
      const at = rows ? off(s, k, j) : off(s, j, k);
      const x = A.load(sv, at);
      if (max ? A.lt(best, x) : A.lt(x, best)) {
        best = x;
        bestAt = at;
        bestIdx = j;
      }
    }
    I.store(iv, rows ? off(d, k, 0) : off(d, 0, k), I.fromF64(bestIdx));
    if (dv) copyElem(s, bestAt, dv, rows ? off(dv, k, 0) : off(dv, 0, k));
  }
}

function check(ctx: ExecCtx, rows: boolean): void {
  const name = ctx.op.name;
  const s = ctx.tiles.src!;
  const d = ctx.tiles.dst!;
  const dv = ctx.tiles.dstVal;
  if (d.dtype !== 'i32' && d.dtype !== 'u32')
    reject(name, s.dtype, `the index destination must be i32 or u32, not ${d.dtype}`, ctx.profile);
  if (dv && dv.dtype !== s.dtype)
    reject(name, s.dtype, `dstVal (${dv.dtype}) and src must have the same type`, ctx.profile);
  for (const [nm, t] of [
    ['src', s],
    ['dst', d],
    ['dstVal', dv],
  ] as const) {
    if (t && t.loc !== 'vec') reject(name, s.dtype, `${nm} must be a vec tile`, ctx.profile);
    if (t && t.slayout !== 'none') reject(name, s.dtype, `${nm} must not use a boxed layout`, ctx.profile);
  }
  // row forms (and, on cpu, the value form of the column ones): the source is RowMajor
  if ((rows || (ctx.profile === 'cpu' && dv)) && s.blayout !== 'row')
    reject(name, `${s.dtype}(ColMajor)`, 'the source must be RowMajor (ND)', ctx.profile);
  if (!rows && d.blayout !== 'row')
    reject(name, s.dtype, 'the index destination must be RowMajor (ND)', ctx.profile);
  if (ctx.profile !== 'cpu') {
    // the pages' runtime checks
    if (s.validRow === 0 || s.validCol === 0) throw badInput(`${name}: the source valid region is empty`);
    const outs = [d, ...(dv ? [dv] : [])];
    for (const t of outs) {
      if (rows ? t.validRow !== s.validRow : t.validRow !== 1 || t.validCol !== s.validCol)
        throw badInput(
          `${name}: destination valid shape ${t.validRow}x${t.validCol} does not match the ${rows ? 'rows' : 'columns'} of the ${s.validRow}x${s.validCol} source`,
          { hint: rows ? 'one row per source row, one column' : 'one row, one column per source column' },
        );
    }
  }
}

function argOp(name: string, rows: boolean, max: boolean): OpDef {
  const what = `${rows ? 'column' : 'row'} of the ${max ? 'largest' : 'smallest'} element of each ${rows ? 'row' : 'column'}`;
  return {
    name,
    family: 'reduce',
    summary: `dst = index of the ${what} (first one on ties); dstVal = that element`,
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
      { name: 'dstVal', kind: 'tile', out: true, optional: true },
    ],
    attrs: [],
    primary: 'src',
    dtypes: { cpu: CPU_TYPES, a2a3: NPU_TYPES, a5: NPU_TYPES },
    check: (ctx) => check(ctx, rows),
    exec: (ctx) => argReduce(ctx, rows, max),
  };
}

export const ARGREDUCE_OPS: readonly OpDef[] = [
  argOp('TROWARGMAX', true, true),
  argOp('TROWARGMIN', true, false),
  argOp('TCOLARGMAX', false, true),
  argOp('TCOLARGMIN', false, false),
];
