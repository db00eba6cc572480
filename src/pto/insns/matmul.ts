/**
 * TMATMUL / TMATMUL_ACC / TMATMUL_BIAS on Left (Nz) x Right (Zn) -> Acc (Nz 16x16) tiles, after
 * pto-isa include/pto/cpu/TMatmul.hpp: M = a.validRow, K = a.validCol, N = b.validCol (b.validRow and
 * c's valid shape are ignored for the product, which writes the whole M x N block). f32
 * accumulation is `acc = fmaf(a_ik, b_kj, acc)` for k = 0..K-1 from 0 (inputs converted to float);
 * i8 x i8 accumulates in wrapping i32. _ACC adds the product to cin once; _BIAS adds bias[0,c] over
 * c's valid region afterwards.
 */
import { anyArith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { type ExecCtx, invalidForReference, type OpDef, type OperandSpec, off, per, reject } from '../op.ts';

const fr = Math.fround;

/**
 * fmaf: the binary32 rounding of a*b + c computed exactly. a*b of two floats is exact in double;
 * the double sum can only mis-round when it lands exactly on a binary32 midpoint, in which case the
 * sign of the TwoSum error decides.
 */
export function fmaF32(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const r = fr(s);
  if (r === s) return r;
  // 2s - r is the other binary32 neighbour exactly when s is a midpoint (the only mis-rounding case)
  const t = s + (s - r);
  if (fr(t) !== t || !Number.isFinite(r)) return r;
  const bb = s - p;
  const e = p - (s - bb) + (c - bb);
  if (e === 0) return r;
  // s is halfway between r and t: the exact sum lies on the side of e
  return e > 0 ? Math.max(r, t) : Math.min(r, t);
}

/** One fmaf step; the rare binary32-midpoint case goes to fmaF32. */
function step(x: number, y: number, acc: number): number {
  const s = x * y + acc;
  const r = fr(s);
  if (r === s) return r;
  const t = s + (s - r);
  return fr(t) !== t ? r : fmaF32(x, y, acc);
}

/** dot products of one A row with four consecutive B columns (four independent chains). */
function dotF32x4(
  a: Float64Array,
  ai: number,
  b: Float64Array,
  b0: number,
  K: number,
  out: Float64Array,
): void {
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  const b1 = b0 + K;
  const b2 = b1 + K;
  const b3 = b2 + K;
  for (let k = 0; k < K; k++) {
    const x = a[ai + k]!;
    c0 = step(x, b[b0 + k]!, c0);
    c1 = step(x, b[b1 + k]!, c1);
    c2 = step(x, b[b2 + k]!, c2);
    c3 = step(x, b[b3 + k]!, c3);
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/** fmaf chain of one output element. */
function dotF32(a: Float64Array, ai: number, b: Float64Array, bj: number, K: number): number {
  let acc = 0;
  for (let k = 0; k < K; k++) acc = step(a[ai + k]!, b[bj + k]!, acc);
  return acc;
}

const PAIRS: Record<string, DType> = { i8: 'i32', f16: 'f32', bf16: 'f32', f32: 'f32' };

function check(ctx: ExecCtx, out: string): void {
  const a = ctx.tiles.a!;
  const b = ctx.tiles.b!;
  const c = ctx.tiles[out]!;
  const name = ctx.op.name;
  if (b.dtype !== a.dtype || PAIRS[a.dtype] !== c.dtype) {
    reject(
      name,
      a.dtype,
      `${a.dtype} x ${b.dtype} -> ${c.dtype} is not a supported matmul type combination`,
      ctx.profile,
    );
  }
  if (a.rows !== c.rows || a.cols !== b.rows || b.cols !== c.cols) {
    reject(
      name,
      a.dtype,
      `inconsistent m, k, n: a ${a.rows}x${a.cols}, b ${b.rows}x${b.cols}, c ${c.rows}x${c.cols}`,
      ctx.profile,
    );
  }
  const okA = a.loc === 'left' && a.slayout === 'row';
  const okB = b.loc === 'right' && b.blayout === 'row' && b.slayout === 'col';
  const okC = c.loc === 'acc' && c.blayout === 'col' && c.slayout === 'row';
  if (!okA || !okB || !okC) {
    const lay = (t: typeof a) => `${t.loc} ${t.blayout}/${t.slayout}`;
    const got = `${lay(a)}, ${lay(b)}, ${lay(c)}`;
    // a memref in the left/right/acc space gets PTOAS's default tile config (RowMajor, NoneBox).
    // pto-isa cannot build it: the CPU simulator's CheckMadValid and the A5 kernel static_assert the
    // fractals; the A2/A3 kernel does not check, but its L1 -> L0 loads (img2colv2_cbuf_to_ca) and
    // mmad work in fractal units, so TMATMUL's result is only defined for these layouts
    // (docs/pto-as.md decision 25)
    invalidForReference(
      name,
      `static_assert "Non-conforming matrix fractal" (need Left Nz, Right Zn, Acc Nz; got ${got})`,
      ctx.profile === 'a5'
        ? 'pto-isa include/pto/npu/a5/TMatmul.hpp CheckMadValid'
        : 'pto-isa include/pto/cpu/TMatmul.hpp CheckMadValid; docs/isa/TMATMUL.md',
      'give the operands the cube layouts: left blayout=col_major slayout=row_major, right row_major/col_major, acc col_major/row_major',
    );
  }
  const cin = ctx.tiles.cin;
  if (cin && (cin.dtype !== c.dtype || cin.rows !== c.rows || cin.cols !== c.cols)) {
    reject(name, a.dtype, 'cin must have the tile type of c', ctx.profile);
  }
  const bias = ctx.tiles.bias;
  if (bias && (bias.dtype !== c.dtype || bias.rows !== 1 || bias.blayout !== 'row')) {
    reject(name, a.dtype, 'bias must be a one-row RowMajor tile of the accumulator type', ctx.profile);
  }
}

function matmul(ctx: ExecCtx): void {
  const a = ctx.tiles.a!;
  const b = ctx.tiles.b!;
  const c = ctx.tiles.c!;
  const cin = ctx.tiles.cin;
  const A = anyArith(a.dtype, ctx.profile);
  const C = anyArith(c.dtype, ctx.profile);
  const M = a.validRow;
  const K = a.validCol;
  const N = b.validCol;
  const av = A.view(a.bytes);
  const bv = A.view(b.bytes);
  const cv = C.view(c.bytes);
  const isInt = c.dtype === 'i32';
  // gather operands once: rows of A and columns of B as plain numbers
  const ar = new Float64Array(M * K);
  const bc = new Float64Array(N * K);
  if (M > 0 && K > 0) off(a, M - 1, K - 1); // bounds (the offset functions are monotone per box)
  if (N > 0 && K > 0) off(b, K - 1, N - 1);
  if (a.dtype === 'f32') {
    // f32 operands: read the typed view directly (the generic Arith path costs more than the math)
    const af = a.f32();
    const bf = b.f32();
    for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) ar[i * K + k] = af[a.offset(i, k)]!;
    for (let j = 0; j < N; j++) for (let k = 0; k < K; k++) bc[j * K + k] = bf[b.offset(k, j)]!;
  } else {
    for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) ar[i * K + k] = A.toF64(A.load(av, off(a, i, k)));
    for (let j = 0; j < N; j++) for (let k = 0; k < K; k++) bc[j * K + k] = A.toF64(A.load(bv, off(b, k, j)));
  }
  const civ = cin ? C.view(cin.bytes) : undefined;
  if (M > 0 && N > 0) off(c, M - 1, N - 1);
  if (cin && M > 0 && N > 0) off(cin, M - 1, N - 1);
  const cf = isInt ? undefined : c.f32();
  const store = (i: number, j: number, v: number): void => {
    let acc = v;
    if (cin && civ) {
      const x = C.load(civ, cin.offset(i, j)) as number;
      acc = isInt ? (x + acc) | 0 : fr(x + acc);
    }
    if (cf) cf[c.offset(i, j)] = acc;
    else C.store(cv, c.offset(i, j), acc);
  };
  const out = new Float64Array(4);
  for (let i = 0; i < M; i++) {
    const ai = i * K;
    let j = 0;
    if (!isInt) {
      // four output elements at a time: independent fmaf chains overlap in the CPU
      for (; j + 4 <= N; j += 4) {
        dotF32x4(ar, ai, bc, j * K, K, out);
        for (let q = 0; q < 4; q++) store(i, j + q, out[q]!);
      }
    }
    for (; j < N; j++) {
      const bj = j * K;
      let acc = 0;
      if (isInt) {
        for (let k = 0; k < K; k++) acc = (acc + ar[ai + k]! * bc[bj + k]!) | 0;
      } else {
        acc = dotF32(ar, ai, bc, bj, K);
      }
      store(i, j, acc);
    }
  }
  const bias = ctx.tiles.bias;
  if (bias) {
    const bv2 = C.view(bias.bytes);
    for (let col = 0; col < c.validCol; col++) {
      const x = C.load(bv2, off(bias, 0, col)) as number;
      for (let r = 0; r < c.validRow; r++) {
        const o = off(c, r, col);
        const y = C.load(cv, o) as number;
        C.store(cv, o, isInt ? (y + x) | 0 : fr(y + x));
      }
    }
  }
}

const MM = ['i8', 'f16', 'bf16', 'f32', 'i16', 'f8e4m3', 'f8e5m2'] as const;

const REF = 'pto-isa docs/isa/tile/ops/matrix-and-matrix-vector';
const C_OUT: OperandSpec = { name: 'c', kind: 'tile', out: true };
const A_B: readonly OperandSpec[] = [
  { name: 'a', kind: 'tile' },
  { name: 'b', kind: 'tile' },
];

function mm(name: string, summary: string, page: string, operands: readonly OperandSpec[]): OpDef {
  return {
    name,
    family: 'matmul',
    summary,
    ref: `${REF}/${page}.md`,
    operands,
    attrs: [],
    primary: 'a',
    dtypes: per([...MM], { a2a3: ['i8', 'f16', 'bf16', 'f32'], a5: ['i8', 'f16', 'bf16', 'f32'] }),
    check: (ctx) => check(ctx, 'c'),
    exec: matmul,
  };
}

export const MATMUL_OPS: readonly OpDef[] = [
  mm('TMATMUL', 'c = a x b (M = a.validRow, K = a.validCol, N = b.validCol)', 'tmatmul', [C_OUT, ...A_B]),
  mm('TMATMUL_ACC', 'c = cin + a x b', 'tmatmul-acc', [C_OUT, { name: 'cin', kind: 'tile' }, ...A_B]),
  mm('TMATMUL_BIAS', 'c = a x b + bias[0, c]', 'tmatmul-bias', [
    C_OUT,
    ...A_B,
    { name: 'bias', kind: 'tile' },
  ]),
];
