/**
 * TQUANT (integer forms) and TDEQUANT (pto-isa docs/isa/tile/ops/irregular-and-complex/tquant.md,
 * tdequant.md; include/pto/cpu/TQuant.hpp, TDeQuant.hpp):
 *
 * - TQUANT, `quantType` INT8_SYM (dst i8) / INT8_ASYM (dst u8, needs `offset`): over src's valid region
 *   (f32), dst(r, c) = clamp(nearbyint(src(r, c) · p [+ z])) into [-128, 127] / [0, 255], where p =
 *   scale(min(r, scale.validRow − 1), 0) and z likewise from `offset`, all in float (two roundings:
 *   the product, then the sum). A NaN goes through the x86 float -> int conversion (0x80000000, low
 *   byte 0). The simulator multiplies by the parameter (it calls it `invScale`); the page writes
 *   round(x / scale) — axsim multiplies on every profile and records the reading in docs/pto.md.
 *   The MX forms (MXFP8 / MXFP4 with exponent/max/scaling tiles) are not modelled.
 * - TDEQUANT: over dst's valid region, dst(r, c) = (D(src(r, c)) − D(offset(r, k))) · D(scale(r, k))
 *   computed in dst's element type D, with k = min(c, max(1, scale.validCol) − 1) (a per-row scalar
 *   when the parameter tiles have one column).
 */
import { badInput, undefinedBehaviour } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { ALL, type ExecCtx, type OpDef, off, reject } from '../op.ts';
import type { Tile } from '../tile.ts';

const fr = Math.fround;

/** std::nearbyint in the default rounding mode: ties to even. */
function nearbyint(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

function param(ctx: ExecCtx, t: Tile, r: number): number {
  if (t.validRow === 0 || t.validCol === 0)
    throw undefinedBehaviour(`${ctx.op.name}: the parameter tile has an empty valid region`);
  const A = anyArith(t.dtype, ctx.profile);
  return fr(A.toF64(A.load(A.view(t.bytes), off(t, Math.min(r, t.validRow - 1), 0))));
}

function tquant(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const asym = ctx.attrs.quantType === 'INT8_ASYM';
  const sv = new DataView(s.bytes.buffer, s.bytes.byteOffset, s.bytes.byteLength);
  const lo = asym ? 0 : -128;
  const hi = asym ? 255 : 127;
  for (let r = 0; r < s.validRow; r++) {
    const p = param(ctx, ctx.tiles.scale!, r);
    const z = asym ? param(ctx, ctx.tiles.offset!, r) : 0;
    for (let c = 0; c < s.validCol; c++) {
      const x = sv.getFloat32(4 * off(s, r, c), true);
      const v = asym ? fr(fr(x * p) + z) : fr(x * p);
      const q = Number.isNaN(v) ? 0 : Math.min(hi, Math.max(lo, nearbyint(v)));
      d.bytes[off(d, r, c)] = q & 0xff;
    }
  }
}

function tdequant(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const sc = ctx.tiles.scale!;
  const of = ctx.tiles.offset!;
  const D = anyArith(d.dtype, ctx.profile);
  const S = anyArith(s.dtype, ctx.profile);
  const P = anyArith(sc.dtype, ctx.profile);
  const dv = D.view(d.bytes);
  const sv = S.view(s.bytes);
  const scv = P.view(sc.bytes);
  const ofv = P.view(of.bytes);
  const paraCols = Math.max(1, sc.validCol);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const k = Math.min(c, paraCols - 1);
      const x = D.fromF64(S.toF64(S.load(sv, off(s, r, c))));
      const o = D.fromF64(P.toF64(P.load(ofv, off(of, r, k))));
      const m = D.fromF64(P.toF64(P.load(scv, off(sc, r, k))));
      D.store(dv, off(d, r, c), D.mul(D.sub(x, o), m));
    }
  }
}

const NPU_DEQ_SRC: readonly DType[] = ['i8', 'i16'];

export const QUANT_OPS: readonly OpDef[] = [
  {
    name: 'TQUANT',
    family: 'irregular',
    summary: 'dst = clamp(nearbyint(src * scale[r] (+ offset[r]))) to int8 (INT8_SYM) or uint8 (INT8_ASYM)',
    ref: 'pto-isa docs/isa/tile/ops/irregular-and-complex/tquant.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'scale', kind: 'tile' },
      { name: 'offset', kind: 'tile', optional: true },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
    ],
    attrs: [{ name: 'quantType', kind: 'pattern', optional: true, values: ['INT8_SYM', 'INT8_ASYM'] }],
    primary: 'src',
    dtypes: { cpu: ['f32'], a2a3: ['f32'], a5: ['f32'] },
    check: (ctx) => {
      const q = ctx.attrs.quantType ?? 'INT8_SYM';
      const d = ctx.tiles.dst!;
      if (q === 'MXFP8' || q === 'MXFP4_E2M1')
        reject('TQUANT', 'f32', `the ${q} form is not modelled by axsim`, ctx.profile);
      if (q !== 'INT8_SYM' && q !== 'INT8_ASYM')
        throw badInput(`TQUANT: quantType '${String(q)}' is not INT8_SYM or INT8_ASYM`);
      const want = q === 'INT8_SYM' ? 'i8' : 'u8';
      if (d.dtype !== want) reject('TQUANT', 'f32', `${q} writes ${want}, not ${d.dtype}`, ctx.profile);
      if (q === 'INT8_ASYM' && !ctx.tiles.offset) throw badInput('TQUANT: INT8_ASYM needs the offset tile');
      for (const n of ['scale', 'offset'] as const) {
        const t = ctx.tiles[n];
        if (t && t.dtype !== 'f32' && ctx.profile !== 'cpu')
          reject('TQUANT', 'f32', `${n} is an f32 tile, not ${t.dtype}`, ctx.profile);
      }
    },
    exec: tquant,
  },
  {
    name: 'TDEQUANT',
    family: 'irregular',
    summary: "dst = (src - offset[r, k]) * scale[r, k] in dst's type",
    ref: 'pto-isa docs/isa/tile/ops/irregular-and-complex/tdequant.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'scale', kind: 'tile' },
      { name: 'offset', kind: 'tile' },
    ],
    attrs: [],
    primary: 'dst',
    dtypes: { cpu: ALL, a2a3: ['f32'], a5: ['f32'] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const sc = ctx.tiles.scale!;
      const of = ctx.tiles.offset!;
      if (sc.dtype !== of.dtype)
        reject('TDEQUANT', d.dtype, 'scale and offset share one tile type (TileDataPara)', ctx.profile);
      if (ctx.profile === 'cpu') return;
      if (!NPU_DEQ_SRC.includes(s.dtype) || sc.dtype !== d.dtype)
        reject(
          'TDEQUANT',
          d.dtype,
          `src must be i8/i16 and scale/offset ${d.dtype} (tdequant.md)`,
          ctx.profile,
        );
      if (s.validRow !== d.validRow || s.validCol !== d.validCol || sc.validRow !== d.validRow)
        throw badInput("TDEQUANT: src, scale and offset must match dst's valid rows (and src its columns)");
      for (const t of [d, s, sc, of])
        if (t.blayout !== 'row')
          reject('TDEQUANT', `${d.dtype}(ColMajor)`, 'the tiles must be RowMajor', ctx.profile);
    },
    exec: tdequant,
  },
];
