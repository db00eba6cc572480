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
 * axsim has no E8M0 element type: scale tiles are u8 tiles holding the E8M0 codes. FP4 operand
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
import { type ExecCtx, type OpDef, type OperandSpec, off, reject } from '../op.ts';

const REF = 'pto-isa docs/isa/tile/ops/matrix-and-matrix-vector/tmatmul-mx.md';
const FP8: readonly DType[] = ['f8e4m3', 'f8e5m2'];
const fr = Math.fround;

/** E8M0 scale codes as doubles: 2^(code - 127). */
const E8M0 = Float64Array.from({ length: 256 }, (_, c) => 2 ** (c - 127));

function check(ctx: ExecCtx): void {
  const { a, b, c, aScale, bScale, cin, bias } = ctx.tiles;
  const name = ctx.op.name;
  const d = a!.dtype;
  if (!FP8.includes(b!.dtype) || c!.dtype !== 'f32')
    reject(
      name,
      d,
      `${d} x ${b!.dtype} -> ${c!.dtype}: MX matmul takes fp8 operands and an f32 result`,
      ctx.profile,
    );
  if (aScale!.dtype !== 'u8' || bScale!.dtype !== 'u8')
    reject(
      name,
      d,
      `scale tiles of ${aScale!.dtype} / ${bScale!.dtype}: TMATMUL_MX.md's scale tiles are float8_e8m0_t (axsim: u8 tiles of E8M0 codes)`,
      ctx.profile,
    );
  if (a!.cols % 64 !== 0)
    reject(
      name,
      d,
      `a's columns (${a!.cols}) must be a multiple of 64 (npu/a5/TMatmul.hpp CheckMadMxValid)`,
      ctx.profile,
    );
  const okA = a!.loc === 'left' && a!.blayout === 'col' && a!.slayout === 'row';
  const okB = b!.loc === 'right' && b!.blayout === 'row' && b!.slayout === 'col';
  const okC = c!.loc === 'acc' && c!.blayout === 'col' && c!.slayout === 'row';
  if (!okA || !okB || !okC)
    reject(name, d, 'non-conforming matrix fractal (need Left Nz, Right Zn, Acc Nz)', ctx.profile);
  if (cin && (cin.dtype !== 'f32' || cin.rows !== c!.rows || cin.cols !== c!.cols))
    reject(name, d, 'cin must have the tile type of c', ctx.profile);
  if (bias && (bias.dtype !== 'f32' || bias.rows !== 1 || bias.loc !== 'bias' || bias.blayout !== 'row'))
    reject(name, d, 'bias must be a one-row RowMajor f32 bias tile', ctx.profile);
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
  for (let i = 0; i < M; i++)
    for (let g = 0; g < G; g++) sa[i * G + g] = E8M0[aScale!.bytes[off(aScale!, i, g)]!]!;
  for (let j = 0; j < N; j++)
    for (let g = 0; g < G; g++) sb[j * G + g] = E8M0[bScale!.bytes[off(bScale!, g, j)]!]!;
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
