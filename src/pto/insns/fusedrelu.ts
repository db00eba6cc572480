/**
 * Fused ReLU forms (pto-isa docs/isa/TFUSEDMULADDRELU.md, TADDReluConv.md, TSUBReluConv.md,
 * TAddDeqRelu.md):
 *
 * - TFUSEDMULADDRELU: dst = ReLU(round(round(src0 · dst) + src1)) over dst's valid region, each step
 *   rounded to the element type (include/pto/cpu/ElementOp.h `OP_FUSEDMULADDRELU` with
 *   `CpuSimRoundElement`); ReLU(x) = x > 0 ? x : 0, so NaN and -0 give +0.
 * - TADDRELUCONV / TSUBRELUCONV: dst = convert(ReLU(src0 ± src1)), source -> destination pairs
 *   f32 -> f16, f16 -> i8, i16 -> i8; the sum is formed in the source type (f16 rounded, i16 wrapping
 *   as the vector add does), the conversion rounds to nearest even and saturates (f16: +-65504; i8:
 *   0..127 after the ReLU). Only the NPU headers implement them: `cpu` rejects them (Unsupported).
 * - TADDDEQRELU: i32 sources, f16 destination, float `deqScale`. cpu (include/pto/cpu/TAddDeqRelu.hpp):
 *   ReLU(half(deqScale · float(src0 + src1))) — the i32 sum wraps, the half conversion overflows to
 *   inf. a2a3/a5 (the page): ((float(x) · 2^-17) · deqScale) · 2^17 in float, ReLU, then a saturating
 *   round-to-nearest-even conversion to half.
 */
import { badInput } from '../../errors.ts';
import { bitsToF32, f32BitsToFp16, f32ToBits, fp16ToF32Bits } from '../../numeric/index.ts';
import type { DType } from '../dtype.ts';
import { ALL, type ExecCtx, type OpDef, type OperandSpec, off, reject } from '../op.ts';
import { ternaryLoop } from './kernels.ts';

const fr = Math.fround;
const T3: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true },
  { name: 'src0', kind: 'tile' },
  { name: 'src1', kind: 'tile' },
];

function sameValid(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  for (const n of ['src0', 'src1']) {
    const t = ctx.tiles[n]!;
    if (t.validRow !== d.validRow || t.validCol !== d.validCol)
      throw badInput(
        `${ctx.op.name}: ${n}'s valid shape ${t.validRow}x${t.validCol} differs from dst's ${d.validRow}x${d.validCol}`,
      );
  }
  if (d.validRow === 0 || d.validCol === 0) throw badInput(`${ctx.op.name}: the valid region is empty`);
}

function rowMajorVec(ctx: ExecCtx, names: readonly string[]): void {
  for (const n of names) {
    const t = ctx.tiles[n];
    if (t && (t.blayout !== 'row' || t.loc !== 'vec'))
      reject(ctx.op.name, t.dtype, `${n} must be a RowMajor vec tile`, ctx.profile);
  }
}

const f16Bits = (x: number) => f32BitsToFp16(f32ToBits(x), 'rne');
const f16Sat = (x: number) => f32BitsToFp16(f32ToBits(x), 'rne', { saturate: true });
const f16Val = (h: number) => bitsToF32(fp16ToF32Bits(h));

/** RNE to an integer, then clamp (NaN is excluded by the ReLU before). */
function toI8(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  const r = d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
  return Math.min(127, Math.max(-128, r));
}

function reluConv(ctx: ExecCtx, sub: boolean): void {
  const d = ctx.tiles.dst!;
  const a = ctx.tiles.src0!;
  const b = ctx.tiles.src1!;
  const av = new DataView(a.bytes.buffer, a.bytes.byteOffset, a.bytes.byteLength);
  const bv = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
  const dv = new DataView(d.bytes.buffer, d.bytes.byteOffset, d.bytes.byteLength);
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const ao = off(a, r, c);
      const bo = off(b, r, c);
      const o = off(d, r, c);
      if (a.dtype === 'f32') {
        const x = fr(
          sub
            ? av.getFloat32(4 * ao, true) - bv.getFloat32(4 * bo, true)
            : av.getFloat32(4 * ao, true) + bv.getFloat32(4 * bo, true),
        );
        // biome-ignore lint/complexity/useMathMinMax: ReLU maps NaN to 0, Math.max would keep NaN
        dv.setUint16(2 * o, f16Sat(x > 0 ? x : 0), true);
      } else if (a.dtype === 'f16') {
        const p = f16Val(av.getUint16(2 * ao, true));
        const q = f16Val(bv.getUint16(2 * bo, true));
        const x = f16Val(f16Bits(fr(sub ? p - q : p + q)));
        dv.setInt8(o, x > 0 ? toI8(x) : 0);
      } else {
        const p = av.getInt16(2 * ao, true);
        const q = bv.getInt16(2 * bo, true);
        const x = ((sub ? p - q : p + q) << 16) >> 16;
        dv.setInt8(o, x > 0 ? Math.min(127, x) : 0);
      }
    }
  }
}

const CONV_PAIRS: Record<string, DType> = { f32: 'f16', f16: 'i8', i16: 'i8' };

function reluConvOp(name: 'TADDRELUCONV' | 'TSUBRELUCONV'): OpDef {
  const sub = name === 'TSUBRELUCONV';
  return {
    name,
    family: 'binary',
    summary: `dst = convert(max(0, src0 ${sub ? '-' : '+'} src1)), saturating`,
    ref: `pto-isa docs/isa/${sub ? 'TSUBReluConv' : 'TADDReluConv'}.md`,
    operands: T3,
    attrs: [],
    primary: 'src0',
    dtypes: { cpu: ['f32', 'f16', 'i16'], a2a3: ['f32', 'f16', 'i16'], a5: ['f32', 'f16', 'i16'] },
    check: (ctx) => {
      const s = ctx.tiles.src0!;
      if (ctx.profile === 'cpu')
        reject(name, s.dtype, 'only the NPU implementations define it (no CPU-simulator overload)', 'cpu');
      if (ctx.tiles.src1!.dtype !== s.dtype)
        reject(name, s.dtype, 'src0 and src1 must have the same element type', ctx.profile);
      if (ctx.tiles.dst!.dtype !== CONV_PAIRS[s.dtype])
        reject(
          name,
          s.dtype,
          `converts ${s.dtype} to ${CONV_PAIRS[s.dtype]}, not ${ctx.tiles.dst!.dtype}`,
          ctx.profile,
        );
      rowMajorVec(ctx, ['dst', 'src0', 'src1']);
      sameValid(ctx);
    },
    exec: (ctx) => reluConv(ctx, sub),
  };
}

function addDeqRelu(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const a = ctx.tiles.src0!;
  const b = ctx.tiles.src1!;
  const q = fr(Number(ctx.attrs.deqScale));
  const cpu = ctx.profile === 'cpu';
  const av = new DataView(a.bytes.buffer, a.bytes.byteOffset, a.bytes.byteLength);
  const bv = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
  const dv = new DataView(d.bytes.buffer, d.bytes.byteOffset, d.bytes.byteLength);
  const lo = 2 ** -17;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const x = fr((av.getInt32(4 * off(a, r, c), true) + bv.getInt32(4 * off(b, r, c), true)) | 0);
      let h: number;
      if (cpu) {
        // static_cast<half>(deqScale * (float)sum), then ReLU on the half
        const bits = f16Bits(fr(q * x));
        h = f16Val(bits) > 0 ? bits : 0;
      } else {
        const y = fr(fr(fr(x * lo) * q) * 2 ** 17);
        // biome-ignore lint/complexity/useMathMinMax: ReLU maps NaN to 0, Math.max would keep NaN
        h = f16Sat(y > 0 ? y : 0);
      }
      dv.setUint16(2 * off(d, r, c), h, true);
    }
  }
}

export const FUSEDRELU_OPS: readonly OpDef[] = [
  {
    name: 'TFUSEDMULADDRELU',
    family: 'ternary',
    summary: 'dst = ReLU(src0 * dst + src1), each step rounded to the element type',
    ref: 'pto-isa docs/isa/TFUSEDMULADDRELU.md',
    operands: [{ ...T3[0]!, inout: true }, T3[1]!, T3[2]!],
    attrs: [],
    dtypes: { cpu: ALL, a2a3: ['f16', 'f32'], a5: ['f16', 'f32'] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      for (const n of ['src0', 'src1'])
        if (ctx.tiles[n]!.dtype !== d.dtype)
          reject('TFUSEDMULADDRELU', d.dtype, `${n} must have dst's element type`, ctx.profile);
      if (ctx.profile !== 'cpu') rowMajorVec(ctx, ['dst', 'src0', 'src1']);
    },
    exec: (ctx) =>
      ternaryLoop(ctx, 'src0', 'src1', 'dst', (A, a, b, dd) => {
        const x = A.round(A.add(A.round(A.mul(a, dd)), b));
        return A.lt(A.zero, x) ? x : A.zero;
      }),
  },
  reluConvOp('TADDRELUCONV'),
  reluConvOp('TSUBRELUCONV'),
  {
    name: 'TADDDEQRELU',
    family: 'binary',
    summary: 'dst(f16) = ReLU(deqScale * float(src0 + src1)) from i32 sources',
    ref: 'pto-isa docs/isa/TAddDeqRelu.md',
    operands: [...T3, { name: 'tmp', kind: 'tile', scratch: true, optional: true }],
    attrs: [{ name: 'deqScale', kind: 'number' }],
    primary: 'src0',
    dtypes: { cpu: ['i32'], a2a3: ['i32'], a5: ['i32'] },
    check: (ctx) => {
      const v = ctx.attrs.deqScale;
      if (typeof v !== 'number') throw badInput('TADDDEQRELU: the deqScale attribute (a number) is missing');
      if (ctx.tiles.src1!.dtype !== 'i32' || ctx.tiles.dst!.dtype !== 'f16')
        reject('TADDDEQRELU', ctx.tiles.src0!.dtype, 'sources are i32 and dst is f16', ctx.profile);
      if (ctx.profile !== 'cpu') {
        rowMajorVec(ctx, ['dst', 'src0', 'src1']);
        sameValid(ctx);
      }
    },
    exec: addDeqRelu,
  },
];
