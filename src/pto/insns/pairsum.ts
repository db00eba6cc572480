/**
 * TPAIRREDUCESUM (pto-isa docs/isa/TPairReduceSum.md, include/pto/cpu/TPairReduceSum.hpp): the whole
 * dst tile is zeroed, then for each row r < dst.validRow, dst(r, c) = src(r, 2c) + src(r, 2c + 1)
 * for c < ceil(validCol / 2), the last pair of an odd row being src(r, 2c) + 0 (the C++ adds an
 * integer 0, so -0 becomes +0). The sum is computed in the element type as C++ does (f16: float
 * then rounded). With no valid columns the simulator's loop bound `mid - 1` wraps around
 * (UndefinedBehaviour).
 */
import { undefinedBehaviour } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { type ExecCtx, INTS, type OpDef, off, reject } from '../op.ts';

function pairSum(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const vr = d.validRow;
  const vc = d.validCol;
  if (vr > 0 && vc === 0)
    throw undefinedBehaviour('TPAIRREDUCESUM: no valid columns: the simulator loops past the tile');
  const A = anyArith(d.dtype, ctx.profile);
  const dv = A.view(d.bytes);
  const sv = A.view(s.bytes);
  d.bytes.fill(0);
  const mid = Math.ceil(vc / 2);
  for (let r = 0; r < vr; r++) {
    for (let c = 0; c < mid; c++) {
      const a = A.load(sv, off(s, r, 2 * c));
      const b = 2 * c + 1 < vc ? A.load(sv, off(s, r, 2 * c + 1)) : A.zero;
      A.store(dv, off(d, r, c), A.add(a, b));
    }
  }
}

const CPU_TYPES: readonly DType[] = [...INTS, 'f16', 'bf16', 'f32'];

export const PAIRSUM_OPS: readonly OpDef[] = [
  {
    name: 'TPAIRREDUCESUM',
    family: 'reduce',
    summary: 'dst(r, c) = src(r, 2c) + src(r, 2c+1) for c < ceil(validCol/2); the rest of dst is 0',
    ref: 'pto-isa docs/isa/TPairReduceSum.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
    ],
    attrs: [],
    dtypes: { cpu: CPU_TYPES, a2a3: ['f16', 'f32'], a5: ['f16', 'f32'] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      if (d.dtype !== s.dtype)
        reject('TPAIRREDUCESUM', d.dtype, `src (${s.dtype}) must have dst's element type`, ctx.profile);
      if (d.blayout !== 'row' || s.blayout !== 'row')
        reject('TPAIRREDUCESUM', `${d.dtype}(ColMajor)`, 'src and dst must be RowMajor', ctx.profile);
      if (ctx.profile !== 'cpu' && (s.validRow !== d.validRow || s.validCol !== d.validCol))
        reject('TPAIRREDUCESUM', d.dtype, 'src and dst must have the same valid shape', ctx.profile);
    },
    exec: pairSum,
  },
];
