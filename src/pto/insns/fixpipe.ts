/**
 * TSTORE_FP (accumulator tile -> GlobalTensor) and TMOV_FP (accumulator tile -> tile) through the
 * fix-pipe with a quantisation vector `fp` (a u64 tile; element (0, i) is the 64-bit quant word of
 * channel i). pto-isa include/pto/cpu/TStore.hpp (the `fp` overload), TMov.hpp (TMOV with fp =
 * TEXTRACT_FP at (0, 0)), TExtract.hpp, common.hpp (`GetVectorPreQuantMode`, `quantize_element`);
 * docs/isa/TSTORE_FP.md, TMOV_FP.md.
 *
 * Modes by (source, destination) type: f32 -> i8/u8 VQF322B8_PRE, i32 -> i8/u8 VREQ8, i32 -> f16
 * VDEQF16, i32 -> i16 VSHIFTS322S16; any other pair is a plain C++ conversion. For a quant word q:
 *   scale = the 19-bit "m1" float in bits 13..31 (sign, 8-bit exponent, 10-bit fraction; 0 when both
 *           are 0), computed in float as sign * (1 + frac/1024) * 2^(exp - 127);
 *   x = float(src) * scale (float);
 *   B8 modes: nearbyint(x + offset) (offset = bits 37..45, added in float, ties to even), clamped to
 *             [-128, 127] when bit 46 is set, else [0, 255], then converted (x86 cvtt for NaN);
 *   VDEQF16: x clamped to +-65504, rounded to half;   VSHIFTS322S16: int16(src >> (bits 32..35 + 1)).
 * Which quant word an element uses differs: TSTORE_FP indexes the vector by column for a RowMajor
 * source but by *row* for a ColMajor one (an accumulator tile) — `scalars[isRowMajor ? col : row]`;
 * TMOV_FP always by column. A word past fp's valid columns is outside the simulator's vector
 * (UndefinedBehaviour). The ReLU variants are not modelled (no PTO-AS spelling reaches them).
 */
import { undefinedBehaviour } from '../../errors.ts';
import { type Arith, anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { type ExecCtx, type OpDef, off, reject } from '../op.ts';
import type { Tile } from '../tile.ts';
import { clamp, roundHalfEven } from './acc-store.ts';
import { index } from './extract.ts';
import { gOff } from './memory.ts';

type Mode = 'B8' | 'DEQF16' | 'SHIFT16' | null;
const fr = Math.fround;

/** GetVectorPreQuantMode (VQF322B8_PRE and VREQ8 share the B8 arithmetic). */
function modeOf(s: DType, d: DType): Mode {
  if (s === 'f32') return d === 'i8' || d === 'u8' ? 'B8' : null;
  if (s === 'i32') {
    if (d === 'i8' || d === 'u8') return 'B8';
    if (d === 'f16') return 'DEQF16';
    if (d === 'i16') return 'SHIFT16';
  }
  return null;
}

/** The m1 scale of a vector quant word (extract_m1_from_quant<true>), in float arithmetic. */
export function m1Scale(q: bigint): number {
  const m1 = Number((q >> 13n) & 0x7ffffn);
  const exp = (m1 >>> 10) & 0xff;
  const frac = m1 & 0x3ff;
  if (exp === 0 && frac === 0) return 0;
  const mant = (m1 >>> 18) & 1 ? -(1 + frac / 1024) : 1 + frac / 1024;
  return fr(mant * fr(2 ** (exp - 127)));
}

/** quantize_element for the vector modes: the value handed to the destination's store. */
function quantize(mode: Exclude<Mode, null>, x: number, q: bigint, D: Arith<unknown>): unknown {
  if (mode === 'SHIFT16') {
    const shift = Number((q >> 32n) & 0xfn) + 1;
    return ((x >> shift) << 16) >> 16;
  }
  const y = fr(fr(x) * m1Scale(q));
  if (mode === 'DEQF16') return D.fromF64(clamp(y, -65504, 65504));
  const offset = Number((q >> 37n) & 0x1ffn);
  const signed = ((q >> 46n) & 1n) === 1n;
  const r = roundHalfEven(fr(y + offset));
  const lo = signed ? -128 : 0;
  const hi = signed ? 127 : 255;
  return D.fromF64(clamp(r, lo, hi));
}

/**
 * The quant words: fp(0, i) for i < fp.validCol of a u64 tile. A scaling tile of another element
 * type (PTOAS programs declare f32 ones) is what the fix-pipe reads through the same address:
 * its bytes as little-endian 64-bit words, in storage order (pto-isa npu/a2a3 TExtract.hpp /
 * TInsert.hpp `TEXTRACT_IMPL(dst, src, fp, …)` only require `FpTileData::Loc == Scaling` and hand
 * `fp.data()` to `SetFPC`, which points the fix-pipe at it).
 */
function quantWords(fp: Tile): BigUint64Array {
  if (fp.dtype !== 'u64') {
    const dv = new DataView(fp.bytes.buffer, fp.bytes.byteOffset, fp.bytes.byteLength);
    const out = new BigUint64Array(Math.floor(fp.bytes.byteLength / 8));
    for (let i = 0; i < out.length; i++) out[i] = dv.getBigUint64(i * 8, true);
    return out;
  }
  const v = new BigUint64Array(fp.bytes.buffer, fp.bytes.byteOffset, fp.numel);
  const out = new BigUint64Array(fp.validCol);
  for (let i = 0; i < fp.validCol; i++) out[i] = v[off(fp, 0, i)]!;
  return out;
}

function word(ctx: ExecCtx, words: BigUint64Array, i: number): bigint {
  if (i >= words.length) {
    throw undefinedBehaviour(
      `${ctx.op.name}: quant word ${i} is past the fp tile's ${words.length} valid columns`,
      {
        hint: 'the simulator indexes its quant vector out of range here',
      },
    );
  }
  return words[i]!;
}

function checkFp(ctx: ExecCtx, src: Tile): void {
  const fp = ctx.tiles.fp!;
  if (fp.dtype !== 'u64' && (ctx.profile === 'cpu' || fp.loc !== 'scaling' || fp.bytes.byteLength % 8 !== 0))
    reject(
      ctx.op.name,
      src.dtype,
      `fp holds 64-bit quant words: give it as a u64 tile, not ${fp.dtype} (on a2a3 / a5 a scaling tile of whole 64-bit words may have another element type)`,
      ctx.profile,
    );
  if (ctx.profile !== 'cpu' && src.dtype !== 'f32' && src.dtype !== 'i32')
    reject(ctx.op.name, src.dtype, 'the fix-pipe source must be an f32 or i32 accumulator', ctx.profile);
}

export const FIXPIPE_OPS: readonly OpDef[] = [
  {
    name: 'TSTORE_FP',
    family: 'memory',
    summary: 'gm[map(r,c)] = quantise(tile[r,c], fp word) over the tile valid region',
    ref: 'pto-isa docs/isa/TSTORE_FP.md',
    operands: [
      { name: 'gm', kind: 'global', out: true },
      { name: 'tile', kind: 'tile' },
      { name: 'fp', kind: 'tile' },
    ],
    attrs: [],
    primary: 'tile',
    dtypes: { cpu: ['f32', 'i32'], a2a3: ['f32', 'i32'], a5: ['f32', 'i32'] },
    check: (ctx) => checkFp(ctx, ctx.tiles.tile!),
    exec: (ctx) => {
      const t = ctx.tiles.tile!;
      const g = ctx.globals.gm!;
      const S = anyArith(t.dtype, ctx.profile);
      const D = anyArith(g.dtype, ctx.profile);
      const sv = S.view(t.bytes);
      const eb = D.view(new Uint8Array(8)).BYTES_PER_ELEMENT;
      const dv = D.view(g.bytes.subarray(0, Math.floor(g.bytes.length / eb) * eb));
      const mode = modeOf(t.dtype, g.dtype);
      const words = quantWords(ctx.tiles.fp!);
      const byRow = t.blayout !== 'row';
      for (let r = 0; r < t.validRow; r++) {
        for (let c = 0; c < t.validCol; c++) {
          const x = S.toF64(S.load(sv, off(t, r, c)));
          const v = mode ? quantize(mode, x, word(ctx, words, byRow ? r : c), D) : D.fromF64(x);
          D.store(dv, gOff(g, r, c), v);
        }
      }
    },
  },
  {
    name: 'TMOV_FP',
    family: 'memory',
    summary: 'dst[r,c] = quantise(src[r,c], fp word of column c) over the dst valid region',
    ref: 'pto-isa docs/isa/TMOV_FP.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'fp', kind: 'tile' },
    ],
    attrs: [],
    primary: 'src',
    dtypes: { cpu: ['f32', 'i32'], a2a3: ['f32', 'i32'], a5: ['f32', 'i32'] },
    check: (ctx) => checkFp(ctx, ctx.tiles.src!),
    exec: (ctx) => {
      const s = ctx.tiles.src!;
      const d = ctx.tiles.dst!;
      const S = anyArith(s.dtype, ctx.profile);
      const D = anyArith(d.dtype, ctx.profile);
      const sv = S.view(s.bytes);
      const dv = D.view(d.bytes);
      const mode = modeOf(s.dtype, d.dtype);
      const words = quantWords(ctx.tiles.fp!);
      for (let c = 0; c < d.validCol; c++) {
        for (let r = 0; r < d.validRow; r++) {
          const x = S.toF64(S.load(sv, off(s, r, c)));
          D.store(dv, off(d, r, c), mode ? quantize(mode, x, word(ctx, words, c), D) : D.fromF64(x));
        }
      }
    },
  },
  // TExtract.hpp / TInsert.hpp `fp` overloads: a window through the fix-pipe. TEXTRACT_FP walks dst's
  // valid region and takes the word of the *source* column (scalars[c + indexCol]); TINSERT_FP walks
  // src's valid region and takes the word of its column c. (TMOV_FP above = TEXTRACT_FP at (0, 0).)
  fixpipeWindow('TEXTRACT_FP', 'dst(r,c) = quantise(src(indexRow + r, indexCol + c), fp word indexCol + c)'),
  fixpipeWindow('TINSERT_FP', 'dst(indexRow + r, indexCol + c) = quantise(src(r,c), fp word c)'),
];

function fixpipeWindow(name: 'TEXTRACT_FP' | 'TINSERT_FP', summary: string): OpDef {
  const insert = name === 'TINSERT_FP';
  return {
    name,
    family: 'memory',
    summary,
    ref: `pto-isa docs/isa/${name}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'fp', kind: 'tile' },
    ],
    attrs: [
      { name: 'indexRow', kind: 'index', optional: true },
      { name: 'indexCol', kind: 'index', optional: true },
    ],
    primary: 'src',
    dtypes: { cpu: ['f32', 'i32'], a2a3: ['f32', 'i32'], a5: ['f32', 'i32'] },
    check: (ctx) => {
      checkFp(ctx, ctx.tiles.src!);
      index(ctx, 'indexRow');
      index(ctx, 'indexCol');
    },
    exec: (ctx) => {
      const s = ctx.tiles.src!;
      const d = ctx.tiles.dst!;
      const ir = index(ctx, 'indexRow');
      const ic = index(ctx, 'indexCol');
      const S = anyArith(s.dtype, ctx.profile);
      const D = anyArith(d.dtype, ctx.profile);
      const sv = S.view(s.bytes);
      const dv = D.view(d.bytes);
      const mode = modeOf(s.dtype, d.dtype);
      const words = quantWords(ctx.tiles.fp!);
      const rows = insert ? s.validRow : d.validRow;
      const cols = insert ? s.validCol : d.validCol;
      for (let c = 0; c < cols; c++) {
        for (let r = 0; r < rows; r++) {
          const x = S.toF64(S.load(sv, insert ? off(s, r, c) : off(s, ir + r, ic + c)));
          const v = mode ? quantize(mode, x, word(ctx, words, insert ? c : ic + c), D) : D.fromF64(x);
          D.store(dv, insert ? off(d, ir + r, ic + c) : off(d, r, c), v);
        }
      }
    },
  };
}
