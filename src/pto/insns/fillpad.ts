/**
 * TFILLPAD / TFILLPAD_EXPAND: copy src's valid region into dst and fill every other element of dst's
 * whole physical tile with dst's pad value (pto-isa include/pto/cpu/TFillPad.hpp,
 * docs/isa/tile/ops/layout-and-rearrangement/tfillpad.md, tfillpad-expand.md).
 *
 * - The pad value is the one TLOAD uses for the profile (`padBytes`): on `cpu` the simulator's
 *   numeric_limits choices (f32 Max/Min = +-inf, f16/bf16/fp8 0, integer limits).
 * - A Mat tile uses the single-type overload, whose pad is always Zero.
 * - dst's pad must not be Null; element sizes must match (1, 2 or 4 bytes); TFILLPAD needs equal
 *   shapes, TFILLPAD_EXPAND a dst at least as large as src; a dst with an empty valid region is left
 *   unchanged. Different element types of one size convert like the C++ assignment.
 */
import { anyArith } from '../arith.ts';
import { ALL, copyElem, type ExecCtx, type OpDef, off, reject } from '../op.ts';
import { padBytes } from './memory.ts';

const REF = 'pto-isa docs/isa/tile/ops/layout-and-rearrangement';
const NOT_64 = ALL.filter((d) => d !== 'i64' && d !== 'u64');

function check(ctx: ExecCtx, expand: boolean): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const name = ctx.op.name;
  if (d.elemBytes !== s.elemBytes)
    reject(name, s.dtype, `src and dst (${d.dtype}) element sizes must be the same`, ctx.profile);
  if (d.loc !== 'vec' && d.loc !== 'mat')
    reject(name, s.dtype, `dst is a ${d.loc} tile; TFILLPAD works on vec and mat tiles`, ctx.profile);
  if (d.loc === 'mat') {
    if (expand) reject(name, s.dtype, 'the expanding form needs vec tiles', ctx.profile);
    if (d.dtype !== s.dtype || d.rows !== s.rows || d.cols !== s.cols || s.loc !== 'mat')
      reject(name, s.dtype, 'a mat TFILLPAD takes src and dst of one tile type', ctx.profile);
    return;
  }
  if (s.loc !== 'vec')
    reject(name, s.dtype, `src is a ${s.loc} tile; a vec dst needs a vec src`, ctx.profile);
  if (d.pad === 'null') reject(name, s.dtype, "dst's pad value can't be Null", ctx.profile);
  const fits = expand ? d.rows >= s.rows && d.cols >= s.cols : d.rows === s.rows && d.cols === s.cols;
  if (!fits) {
    reject(
      name,
      s.dtype,
      `dst ${d.rows}x${d.cols} must ${expand ? 'be at least as large as' : 'have the shape of'} src ${s.rows}x${s.cols}`,
      ctx.profile,
    );
  }
}

function fillpad(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  if (d.validRow === 0 || d.validCol === 0) return;
  const pad = padBytes(d.dtype, d.loc === 'mat' ? 'zero' : d.pad, ctx.profile);
  const n = d.elemBytes;
  const same = d.dtype === s.dtype;
  const S = anyArith(s.dtype, ctx.profile);
  const D = anyArith(d.dtype, ctx.profile);
  const sv = S.view(s.bytes);
  const dv = D.view(d.bytes);
  for (let r = 0; r < d.rows; r++) {
    for (let c = 0; c < d.cols; c++) {
      const o = off(d, r, c);
      if (r < s.validRow && c < s.validCol) {
        const so = off(s, r, c);
        if (same) copyElem(s, so, d, o);
        else D.store(dv, o, D.fromF64(S.toF64(S.load(sv, so))));
      } else {
        for (let k = 0; k < n; k++) d.bytes[o * n + k] = pad[k]!;
      }
    }
  }
}

function op(name: string, expand: boolean, summary: string): OpDef {
  return {
    name,
    family: 'layout',
    summary,
    ref: `${REF}/${expand ? 'tfillpad-expand' : 'tfillpad'}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [],
    primary: 'src',
    dtypes: { cpu: NOT_64, a2a3: NOT_64.filter((d) => d !== 'f8e4m3' && d !== 'f8e5m2'), a5: NOT_64 },
    check: (ctx) => check(ctx, expand),
    exec: fillpad,
  };
}

export const FILLPAD_OPS: readonly OpDef[] = [
  op('TFILLPAD', false, "dst = src over src's valid region, dst's pad value on the rest of the tile"),
  op('TFILLPAD_EXPAND', true, "like TFILLPAD into a larger dst: src's valid region, pad everywhere else"),
  {
    // TFILLPAD<TFillPadMode::InPlace> (vec tiles only): on the CPU simulator the same loop as TFILLPAD,
    // meant for dst == src (tfillpad-inplace.md)
    ...op('TFILLPAD_INPLACE', false, 'TFILLPAD with dst = src: pad the tile outside its valid region'),
    ref: `${REF}/tfillpad-inplace.md`,
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      if (d.loc !== 'vec' || ctx.tiles.src!.loc !== 'vec')
        reject('TFILLPAD_INPLACE', d.dtype, 'the in-place form takes vec tiles', ctx.profile);
      check(ctx, false);
    },
  },
];
