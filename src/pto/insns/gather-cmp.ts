/**
 * TGATHER's comparison form (pto-isa docs/isa/tile/ops/irregular-and-complex/tgather.md, C++
 * `TGATHER<…, CmpMode>(dst, src0, k_value, cdst, tmp, offset)`): for every row i of src's valid
 * region, the columns j whose element compares GT (or EQ) with the row's threshold k_value[i] are
 * found; dst row i receives their indices `offset + i·src.cols + j` in column order (packed from
 * column 0, the rest of the row untouched) and cdst element i the number of matches.
 *
 * The page describes the result only in those words; the index numbering (a flat position over
 * src's physical rows) and the raw element i of k_value / cdst follow the A2/A3 kernel
 * (include/pto/npu/a2a3/TGather.hpp: `indexTmp[i] = offset + i` over Rows·Cols, one `vreducev2` per
 * row with src's row stride, `cdst[i] = count`). The threshold is converted to src's element type
 * (an integer k to float for float sources, as `vconv_s322f32` / `(float)k` do). Only the NPU
 * headers implement this overload: the CPU simulator has none, so the `cpu` profile rejects it
 * (Unsupported, as the reference build would fail to compile). Not modelled: A5's f32 GT path, which
 * converts scores to integers before an unsigned comparison (a kernel detail the page does not state).
 */
import { badInput } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { type ExecCtx, off, reject } from '../op.ts';

const SRC_TYPES: Record<'a2a3' | 'a5', readonly DType[]> = {
  a2a3: ['f32', 'f16', 'i32'],
  a5: ['i16', 'u16', 'i32', 'u32', 'f16', 'f32'],
};
const K_TYPES: Record<'a2a3' | 'a5', readonly DType[]> = { a2a3: ['i32', 'u32'], a5: ['u16', 'u32'] };

export function checkGatherCompare(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const k = ctx.tiles.kValue;
  const c = ctx.tiles.cdst;
  if (ctx.profile === 'cpu')
    reject(
      'TGATHER',
      s.dtype,
      'the comparison form (k_value, cdst) exists only in the NPU implementations',
      'cpu',
    );
  const p = ctx.profile;
  if (!c || !k)
    throw badInput(
      'TGATHER: the comparison form needs both k_value (per-row thresholds) and cdst (match counts)',
    );
  if (ctx.tiles.indices || ctx.attrs.maskPattern !== undefined)
    throw badInput('TGATHER: give k_value/cdst, an index tile or a maskPattern — one form at a time');
  const mode = String(ctx.attrs.cmpMode ?? '');
  if (mode !== 'GT' && mode !== 'EQ')
    reject('TGATHER', s.dtype, `the comparison form takes cmpMode GT or EQ, not '${mode}'`, p);
  if (!SRC_TYPES[p].includes(s.dtype))
    reject('TGATHER', s.dtype, `not a comparison-form source type on ${p} (tgather.md)`, p);
  if (p === 'a2a3' && s.dtype === 'i32' && mode !== 'EQ')
    reject('TGATHER', s.dtype, 'i32 sources compare with EQ only on a2a3', p);
  if (d.dtype !== 'i32' && d.dtype !== 'u32')
    reject('TGATHER', s.dtype, `dst receives indices: i32 or u32, not ${d.dtype}`, p);
  if (!K_TYPES[p].includes(k.dtype))
    reject('TGATHER', s.dtype, `k_value must be ${K_TYPES[p].join(' or ')}, not ${k.dtype}`, p);
  if (!['i32', 'u32', 'i16', 'u16'].includes(c.dtype))
    reject('TGATHER', s.dtype, `cdst receives counts: an integer tile, not ${c.dtype}`, p);
  const off0 = ctx.attrs.offset ?? 0;
  if (typeof off0 !== 'number' || !Number.isInteger(off0) || off0 < -(2 ** 31) || off0 >= 2 ** 32)
    throw badInput(`TGATHER: offset ${String(off0)} is not a 32-bit integer`);
  if (k.numel < s.validRow || c.numel < s.validRow)
    throw badInput(`TGATHER: k_value and cdst need one element per source row (${s.validRow})`);
  if (d.validCol < s.validCol || d.rows < s.validRow)
    throw badInput(
      `TGATHER: dst (${d.rows}x${d.validCol} valid columns) cannot hold up to ${s.validCol} indices for each of ${s.validRow} rows`,
    );
}

export function gatherCompare(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const k = ctx.tiles.kValue!;
  const c = ctx.tiles.cdst!;
  const gt = ctx.attrs.cmpMode === 'GT';
  const base = Number(ctx.attrs.offset ?? 0) >>> 0;
  const S = anyArith(s.dtype, ctx.profile);
  const K = anyArith(k.dtype, ctx.profile);
  const D = anyArith(d.dtype, ctx.profile);
  const C = anyArith(c.dtype, ctx.profile);
  const sv = S.view(s.bytes);
  const kv = K.view(k.bytes);
  const dv = D.view(d.bytes);
  const cv = C.view(c.bytes);
  for (let i = 0; i < s.validRow; i++) {
    // the threshold in the source's type (int -> float conversion for float sources)
    const kk = S.fromF64(K.toF64(K.load(kv, i)));
    let n = 0;
    for (let j = 0; j < s.validCol; j++) {
      const x = S.load(sv, off(s, i, j));
      if (gt ? S.lt(kk, x) : S.eq(x, kk)) {
        D.store(dv, off(d, i, n), D.fromF64((base + i * s.cols + j) >>> 0));
        n++;
      }
    }
    C.store(cv, i, C.fromF64(n));
  }
}
