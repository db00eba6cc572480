/**
 * TTRI (pto-isa docs/isa/TTRI.md, include/pto/cpu/TTRI.hpp): a triangular mask of ones and zeros
 * over dst's valid region. Lower (`upper` false): dst(i, j) = 1 when j <= i + diagonal, else 0;
 * upper: 0 when j < i + diagonal, else 1. The simulator writes row r at `r * Cols + c` (RowMajor
 * only). The constants are stored as the element type's 1 and 0.
 */
import { badInput } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { type ExecCtx, type OpDef, off, reject } from '../op.ts';

const CPU_TYPES: readonly DType[] = ['i32', 'i16', 'u32', 'u16', 'f16', 'bf16', 'f32'];
const A2A3_TYPES: readonly DType[] = ['i32', 'i16', 'u32', 'u16', 'f16', 'f32'];
const A5_TYPES: readonly DType[] = [
  'i32',
  'i16',
  'i8',
  'u32',
  'i64',
  'u64',
  'u16',
  'u8',
  'f16',
  'f32',
  'bf16',
];

function ttri(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const A = anyArith(d.dtype, ctx.profile);
  const v = A.view(d.bytes);
  const one = A.one;
  const zero = A.zero;
  const diag = Number(ctx.attrs.diagonal ?? 0);
  const upper = ctx.attrs.upper === true || ctx.attrs.upper === 1;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const set = upper ? c >= r + diag : c <= r + diag;
      A.store(v, off(d, r, c), set ? one : zero);
    }
  }
}

export const TRI_OPS: readonly OpDef[] = [
  {
    name: 'TTRI',
    family: 'irregular',
    summary: 'triangular 0/1 mask: lower dst(i,j) = j <= i + diagonal; upper dst(i,j) = j >= i + diagonal',
    ref: 'pto-isa docs/isa/TTRI.md',
    operands: [{ name: 'dst', kind: 'tile', out: true }],
    attrs: [
      { name: 'diagonal', kind: 'index', optional: true },
      { name: 'upper', kind: 'flag', optional: true },
    ],
    dtypes: { cpu: CPU_TYPES, a2a3: A2A3_TYPES, a5: A5_TYPES },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const k = ctx.attrs.diagonal ?? 0;
      if (typeof k !== 'number' || !Number.isInteger(k) || Math.abs(k) > 2 ** 31)
        throw badInput(`TTRI: diagonal ${String(k)} is not a 32-bit integer`);
      const u = ctx.attrs.upper;
      if (u !== undefined && u !== true && u !== false && u !== 0 && u !== 1)
        throw badInput(`TTRI: upper must be a boolean (isUpperOrLower 0 or 1), got ${String(u)}`);
      if (d.blayout !== 'row' || d.slayout !== 'none')
        reject('TTRI', `${d.dtype}(ColMajor)`, 'TTRI only supports row major layout', ctx.profile);
    },
    exec: ttri,
  },
];
