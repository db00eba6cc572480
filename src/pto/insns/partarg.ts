/**
 * TPARTARGMAX / TPARTARGMIN (pto-isa docs/isa/TPARTARGMAX.md, TPARTARGMIN.md;
 * include/pto/cpu/TPartArgMax.hpp, TPartArgMin.hpp, TPartArgCommon.hpp, TPartOp.hpp `TPartInstr2`):
 * over dst's valid region, where both value sources are valid the pair (value, index) of src0 is taken
 * when src0 > src1 (max) / src0 < src1 (min), else src1's (ties and NaN go to src1); where only one is
 * valid its pair is copied; elsewhere value and index are 0. The index tiles are addressed with the
 * value tiles' element offsets (as the simulator does), and copied bit for bit.
 */
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { copyElem, type ExecCtx, INTS, type OpDef, off, reject } from '../op.ts';
import type { Tile } from '../tile.ts';

const CPU_TYPES: readonly DType[] = ['i32', 'i16', 'f16', 'bf16', 'f32', 'i8', 'u8'];

function zero(t: Tile, o: number): void {
  t.bytes.fill(0, o * t.elemBytes, (o + 1) * t.elemBytes);
}

function partArg(ctx: ExecCtx, max: boolean): void {
  const dv = ctx.tiles.dst!;
  const di = ctx.tiles.dstIdx!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const i0 = ctx.tiles.src0Idx!;
  const i1 = ctx.tiles.src1Idx!;
  const A = anyArith(s0.dtype, ctx.profile);
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  for (let r = 0; r < dv.validRow; r++) {
    for (let c = 0; c < dv.validCol; c++) {
      const o = off(dv, r, c);
      const in0 = r < s0.validRow && c < s0.validCol;
      const in1 = r < s1.validRow && c < s1.validCol;
      let from: 0 | 1 | -1 = -1;
      const o0 = in0 ? off(s0, r, c) : 0;
      const o1 = in1 ? off(s1, r, c) : 0;
      if (in0 && in1) {
        const a = A.load(v0, o0);
        const b = A.load(v1, o1);
        from = (max ? A.lt(b, a) : A.lt(a, b)) ? 0 : 1;
      } else if (in0) from = 0;
      else if (in1) from = 1;
      if (from === 0) {
        copyElem(s0, o0, dv, o);
        copyElem(i0, o0, di, o);
      } else if (from === 1) {
        copyElem(s1, o1, dv, o);
        copyElem(i1, o1, di, o);
      } else {
        zero(dv, o);
        zero(di, o);
      }
    }
  }
}

function op(name: 'TPARTARGMAX' | 'TPARTARGMIN'): OpDef {
  const max = name === 'TPARTARGMAX';
  return {
    name,
    family: 'part',
    summary: `(dst, dstIdx) = the (value, index) pair of the ${max ? 'larger' : 'smaller'} valid source (src1 on ties)`,
    ref: `pto-isa docs/isa/${name}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'dstIdx', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile' },
      { name: 'src0Idx', kind: 'tile' },
      { name: 'src1Idx', kind: 'tile' },
    ],
    attrs: [],
    primary: 'src0',
    dtypes: { cpu: CPU_TYPES, a2a3: ['f16', 'f32'], a5: ['f16', 'f32'] },
    check: (ctx) => {
      const t = ctx.tiles;
      const s0 = t.src0!;
      for (const n of ['dst', 'src1'])
        if (t[n]!.dtype !== s0.dtype)
          reject(name, s0.dtype, `${n} (${t[n]!.dtype}) must have src0's element type`, ctx.profile);
      const ix = t.dstIdx!;
      if (!INTS.includes(ix.dtype) || t.src0Idx!.dtype !== ix.dtype || t.src1Idx!.dtype !== ix.dtype)
        reject(name, s0.dtype, 'the three index tiles must share one integer type', ctx.profile);
      // TPARTARGMAX.md: f16 values take 16- or 32-bit indices, f32 values 32-bit ones
      const ok = s0.dtype === 'f16' ? ['i16', 'u16', 'i32', 'u32'] : ['i32', 'u32'];
      if (ctx.profile !== 'cpu' && !ok.includes(ix.dtype))
        reject(name, s0.dtype, `${ix.dtype} indices do not go with ${s0.dtype} values`, ctx.profile);
    },
    exec: (ctx) => partArg(ctx, max),
  };
}

export const PARTARG_OPS: readonly OpDef[] = [op('TPARTARGMAX'), op('TPARTARGMIN')];
