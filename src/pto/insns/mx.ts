/**
 * TMATMUL_MX / TMATMUL_MX_ACC / TMATMUL_MX_BIAS: fp8 x fp8 -> f32 matmul with per-32-element block
 * scales, as the CPU simulator computes it (pto-isa include/pto/cpu/TMatmul.hpp `TMatmulMX`;
 * docs/isa/tile/ops/matrix-and-matrix-vector/tmatmul-mx.md):
 *
 *   M = a.validRow, K = a.validCol, N = b.validCol; for each (i, j), from acc = 0 (float):
 *     acc = float(double(acc) + a(i,k) * b(k,j) * (aScale(i, k/32) * bScale(k/32, j)))   k = 0..K-1
 *   with a, b decoded to double by the simulator's MXType and each scale an E8M0 code worth
 *   2^(code - 127); the product chain is exact in double, so the JS double sum followed by
 *   Math.fround is the C++ `float += double`. _ACC writes cin(i,j) + acc (a float sum); _BIAS adds
 *   bias[0, c] over c's valid region afterwards, like TMATMUL_BIAS.
 *
 * axsim has no E8M0 element type: scale tiles are u8 tiles holding the E8M0 codes; a scale tile of
 * a float type (f16 in PTOAS's tests) is read by value, as the simulator's GetElement does. FP4 operand
 * types (float4_e2m1x2_t / e1m2x2) do not exist in axsim either. The tile page calls the role of
 * the scales target-defined; docs/isa/TMATMUL_MX.md pins it for A5, where the instruction is
 * implemented (npu/a5/TMatmul.hpp): C float, A/B any pair of float8_e4m3_t / float8_e5m2_t, scale
 * tiles float8_e8m0_t, A's columns a multiple of 64 and the Left Nz / Right Zn / Acc Nz fractals
 * (`CheckMadMxValid`). So `cpu` and `a5` run them with the simulator's arithmetic (OCP MX block
 * scales, f32 accumulation per step; the products are exact in f32, as for TMATMUL); A2/A3 have
 * no MX matmul.
 */
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { type ExecCtx, invalidForReference, type OpDef, type OperandSpec, off, reject } from '../op.ts';
import type { Tile } from '../tile.ts';

const REF = 'pto-isa docs/isa/tile/ops/matrix-and-matrix-vector/tmatmul-mx.md';
const FP8: readonly DType[] = ['f8e4m3', 'f8e5m2'];
const fr = Math.fround;

/** E8M0 scale codes as doubles: 2^(code - 127). */
const E8M0 = Float64Array.from({ length: 256 }, (_, c) => 2 ** (c - 127));

const MX_CHECK = 'pto-isa include/pto/npu/a5/TMatmul.hpp and include/pto/cpu/TMatmul.hpp CheckMadMxValid';
/** Scale tiles: u8 = E8M0 codes (axsim's spelling of float8_e8m0_t), or a float type read by value. */
const SCALE_DTYPES: readonly DType[] = ['u8', 'f16', 'bf16', 'f32'];

function check(ctx: ExecCtx): void {
  const { a, b, c, aScale, bScale, cin, bias } = ctx.tiles;
  const name = ctx.op.name;
  const d = a!.dtype;
  // CheckMadMxValid static_asserts (the same in the CPU simulator and the A5 kernel): the program
  // cannot be built, so these are BadInput
  if (!FP8.includes(b!.dtype) || c!.dtype !== 'f32')
    invalidForReference(
      name,
      `${d} x ${b!.dtype} -> ${c!.dtype}: static_assert "TMatmulMX:No supported data type combination." (fp8 operands, f32 result)`,
      MX_CHECK,
    );
  if (a!.cols % 64 !== 0)
    invalidForReference(
      name,
      `a has ${a!.cols} columns: static_assert "TMatmulMX: aMatrixCol must be a multiple of 64."`,
      MX_CHECK,
    );
  const okA = a!.loc === 'left' && a!.blayout === 'col' && a!.slayout === 'row';
  const okB = b!.loc === 'right' && b!.blayout === 'row' && b!.slayout === 'col';
  const okC = c!.loc === 'acc' && c!.blayout === 'col' && c!.slayout === 'row';
  if (!okA || !okB || !okC)
    invalidForReference(
      name,
      'static_assert "TMatmulMX:Non-conforming matrix fractal" (Left Nz, Right Zn, Acc Nz)',
      MX_CHECK,
    );
  if (!SCALE_DTYPES.includes(aScale!.dtype) || !SCALE_DTYPES.includes(bScale!.dtype))
    reject(
      name,
      d,
      `scale tiles of ${aScale!.dtype} / ${bScale!.dtype}: axsim reads u8 tiles as E8M0 codes and float tiles by value`,
      ctx.profile,
    );
  if (cin && (cin.dtype !== 'f32' || cin.rows !== c!.rows || cin.cols !== c!.cols))
    reject(name, d, 'cin must have the tile type of c', ctx.profile);
  if (bias && (bias.dtype !== 'f32' || bias.rows !== 1 || bias.loc !== 'bias' || bias.blayout !== 'row'))
    reject(name, d, 'bias must be a one-row RowMajor f32 bias tile', ctx.profile);
}

/**
 * A scale element as the simulator's `scale.GetElement(r, c)` gives it: a u8 tile holds E8M0 codes
 * (2^(code - 127)); an f16 / bf16 / f32 tile (PTOAS programs declare f16 ones) is read by value, as
 * the CPU simulator does for whatever element type the scale tile has. Its product of two scales,
 * `double scaleFactor = s0 * s1`, is exact for these types.
 */
function scaleReader(t: Tile, profile: ExecCtx['profile']): (r: number, c: number) => number {
  if (t.dtype === 'u8') return (r, c) => E8M0[t.bytes[off(t, r, c)]!]!;
  const S = anyArith(t.dtype, profile);
  const v = S.view(t.bytes);
  return (r, c) => S.toF64(S.load(v, off(t, r, c)));
}

function exec(ctx: ExecCtx): void {
  const { a, b, c, aScale, bScale, cin, bias } = ctx.tiles as Required<typeof ctx.tiles>;
  const A = anyArith(a!.dtype, ctx.profile);
  const B = anyArith(b!.dtype, ctx.profile);
  const av = A.view(a!.bytes);
  const bv = B.view(b!.bytes);
  const cv = c!.f32();
  const M = a!.validRow;
  const K = a!.validCol;
  const N = b!.validCol;
  // operands decoded once (a row-wise, b column-wise), scales as doubles
  const ar = new Float64Array(M * K);
  const bc = new Float64Array(N * K);
  for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) ar[i * K + k] = A.toF64(A.load(av, off(a!, i, k)));
  for (let j = 0; j < N; j++) for (let k = 0; k < K; k++) bc[j * K + k] = B.toF64(B.load(bv, off(b!, k, j)));
  const G = Math.ceil(K / 32);
  const sa = new Float64Array(M * G);
  const sb = new Float64Array(N * G);
  const ra = scaleReader(aScale!, ctx.profile);
  const rb = scaleReader(bScale!, ctx.profile);
  for (let i = 0; i < M; i++) for (let g = 0; g < G; g++) sa[i * G + g] = ra(i, g);
  for (let j = 0; j < N; j++) for (let g = 0; g < G; g++) sb[j * G + g] = rb(g, j);
  const ci = cin ? cin.f32() : undefined;
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let acc = 0;
      for (let k = 0; k < K; k++) {
        const g = k >> 5;
        acc = fr(acc + ar[i * K + k]! * bc[j * K + k]! * (sa[i * G + g]! * sb[j * G + g]!));
      }
      const o = off(c!, i, j);
      cv[o] = ci ? fr(ci[off(cin!, i, j)]! + acc) : acc;
    }
  }
  if (bias) {
    const bv2 = bias.f32();
    for (let col = 0; col < c!.validCol; col++) {
      const x = bv2[off(bias, 0, col)]!;
      for (let r = 0; r < c!.validRow; r++) {
        const o = off(c!, r, col);
        cv[o] = fr(cv[o]! + x);
      }
    }
  }
}

function op(name: string, summary: string, operands: readonly OperandSpec[]): OpDef {
  return {
    name,
    family: 'matmul',
    summary,
    ref: REF,
    operands,
    attrs: [],
    primary: 'a',
    dtypes: { cpu: FP8, a2a3: [], a5: FP8 },
    check,
    exec,
  };
}

const C: OperandSpec = { name: 'c', kind: 'tile', out: true };
const MID: readonly OperandSpec[] = [
  { name: 'a', kind: 'tile' },
  { name: 'aScale', kind: 'tile' },
  { name: 'b', kind: 'tile' },
  { name: 'bScale', kind: 'tile' },
];

/** Operand orders follow PTOAS TMatmulMx*Op: (a, a_scale, b, b_scale), c_in first, bias last. */
export const MX_OPS: readonly OpDef[] = [
  op('TMATMUL_MX', 'c = sum_k a(i,k) b(k,j) aScale(i,k/32) bScale(k/32,j) (fp8 -> f32)', [C, ...MID]),
  op('TMATMUL_MX_ACC', 'c = cin + the MX product', [C, { name: 'cin', kind: 'tile' }, ...MID]),
  op('TMATMUL_MX_BIAS', 'c = the MX product + bias[0, c]', [C, ...MID, { name: 'bias', kind: 'tile' }]),
];
