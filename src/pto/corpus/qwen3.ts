/**
 * The memory-planned Qwen3 decode kernels of hw-native-sys/PTOAS (`test/samples/Qwen3DecodeA3/`,
 * 17 `qwen3_decode_incore_N.pto` files, read from a local checkout: never committed here) run on
 * random inputs and compared with an independent double-precision computation of what each kernel
 * computes — RMSNorm, K-looped matmuls, RoPE, attention scores, softmax prepare, online softmax,
 * SiLU gating, residual adds — written here from the model's mathematics, not from axsim. Every
 * reference value carries an error bound for a binary32 pipeline (bound.ts); an output matches
 * when |axsim − exact| <= bound. Elements a kernel must not write are checked to be unchanged.
 *
 * Arrays are sized to cover every element a kernel addresses (a view's declared shape may be
 * larger; the runner refuses any access past an array's end), and only the addressed parts of the
 * large weight matrices are filled.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import type { Profile } from '../arith.ts';
import { parsePtoAs, runProgram, verifyModule } from '../asm/index.ts';
import {
  add,
  type Bounded,
  bf16Bits,
  bf16Value,
  div,
  dot,
  exact,
  exp,
  max,
  mul,
  sqrt,
  sub,
  sum,
  toBf16,
} from './bound.ts';

export const QWEN3_DIR = 'test/samples/Qwen3DecodeA3';
/** The same 17 kernels lowered for A5 (only `pto.target_arch` differs at a56b18c3). */
export const QWEN3_DIR_A5 = 'test/samples/Qwen3DecodeA5';

/** Expected values of one output array: flat element index -> bounded reference. */
interface Expect {
  arg: string;
  want: Map<number, Bounded>;
}

interface Built {
  args: Record<string, NpyArray | number>;
  expect: Expect[];
}

export interface Qwen3Case {
  n: number;
  /** What the kernel computes. */
  what: string;
  /** Scalar arguments chosen (documented in the table). */
  scalars: string;
  build(rng: () => number): Built;
}

export interface Qwen3Result {
  n: number;
  file: string;
  what: string;
  scalars: string;
  status: 'match' | 'mismatch' | 'error';
  /** Elements compared against the reference, and elements checked unchanged. */
  checked: number;
  unchanged: number;
  /** Largest |axsim − exact| / bound over the compared elements (<= 1 when matching). */
  worst: number;
  detail: string;
  instructions: number;
}

// ---- arrays -----------------------------------------------------------------------------

const bf16Array = (n: number): NpyArray => ({ dtype: 'u2', shape: [n], data: new Uint16Array(n) });
const f32Array = (n: number): NpyArray => ({ dtype: 'f4', shape: [n], data: new Float32Array(n) });

/** Element `i` of an input array as the kernel reads it (bf16 arrays are u2 bit patterns). */
function val(a: NpyArray, i: number): number {
  const d = a.data as Uint16Array | Float32Array;
  return a.dtype === 'u2' ? bf16Value(d[i]!) : d[i]!;
}

/** Fills rows [r0, r0+nr) x cols [c0, c0+nc) of a row-major array (row stride `ld`). */
function fill(
  a: NpyArray,
  ld: number,
  r0: number,
  nr: number,
  c0: number,
  nc: number,
  g: () => number,
): void {
  const d = a.data as Uint16Array | Float32Array;
  for (let r = r0; r < r0 + nr; r++) {
    for (let c = c0; c < c0 + nc; c++) d[r * ld + c] = a.dtype === 'u2' ? bf16Bits(g()) : g();
  }
}

const fillAll = (a: NpyArray, g: () => number) => fill(a, a.shape[0]!, 0, 1, 0, a.shape[0]!, g);

/** Deterministic generator (mulberry32). */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uniform = (rng: () => number, lo: number, hi: number) => () => lo + (hi - lo) * rng();

// ---- shared computations ----------------------------------------------------------------

/** C[r, c] = sum_k A[r0 + r, k] * B[k, c0 + c] for a K-looped matmul (bf16 inputs, f32 acc). */
function matmul(
  A: NpyArray,
  lda: number,
  r0: number,
  M: number,
  B: NpyArray,
  ldb: number,
  c0: number,
  N: number,
  K: number,
): Bounded[][] {
  const out: Bounded[][] = [];
  const a: Bounded[] = new Array(K);
  const b: Bounded[] = new Array(K);
  for (let r = 0; r < M; r++) {
    const row: Bounded[] = [];
    for (let k = 0; k < K; k++) a[k] = exact(val(A, (r0 + r) * lda + k));
    for (let c = 0; c < N; c++) {
      for (let k = 0; k < K; k++) b[k] = exact(val(B, k * ldb + c0 + c));
      row.push(dot(a, b));
    }
    out.push(row);
  }
  return out;
}

/** RMSNorm of rows x[r, 0..H) (H = 8192), weights gamma[0..H), result rounded to bf16. */
function rmsNorm(x: (r: number, k: number) => number, gamma: (k: number) => number): Bounded[][] {
  const H = 8192;
  const out: Bounded[][] = [];
  // the kernel's constants as the f32 values the text denotes: 1/8192 and 1e-6
  const inv = exact(Math.fround(1.220703125e-4));
  const eps = exact(Math.fround(Number('9.99999999999999955e-7')));
  for (let r = 0; r < 16; r++) {
    const xs = Array.from({ length: H }, (_, k) => exact(x(r, k)));
    const rms = sqrt(add(mul(dot(xs, xs), inv), eps));
    const scale = div(exact(1), rms);
    out.push(xs.map((xv, k) => toBf16(mul(mul(xv, scale), exact(gamma(k))))));
  }
  return out;
}

/** Sets want[(r0 + r) * ld + c0 + c] = m[r][c]. */
function place(want: Map<number, Bounded>, m: Bounded[][], ld: number, r0: number, c0: number): void {
  m.forEach((row, r) => {
    row.forEach((b, c) => {
      want.set((r0 + r) * ld + c0 + c, b);
    });
  });
}

/** a*cos_a - b*sin_a, b*cos_b + a*sin_b (RoPE on one half-split head), bf16 results. */
function rope(
  lo: number[],
  hi: number[],
  cosLo: number[],
  cosHi: number[],
  sinLo: number[],
  sinHi: number[],
): Bounded[] {
  const rl = lo.map((l, j) =>
    toBf16(sub(mul(exact(l), exact(cosLo[j]!)), mul(exact(hi[j]!), exact(sinLo[j]!)))),
  );
  const rh = hi.map((h, j) =>
    toBf16(add(mul(exact(h), exact(cosHi[j]!)), mul(exact(lo[j]!), exact(sinHi[j]!)))),
  );
  return [...rl, ...rh];
}

// ---- the cases --------------------------------------------------------------------------

/** K-looped matmul kernels: out[or0.., oc0..] = A[ar0.., 0..K) @ W[0..K, wc0..). */
function matmulCase(
  n: number,
  what: string,
  o: {
    aArg: string;
    wArg: string;
    outArg: string;
    lda: number;
    ldw: number;
    ldo: number;
    outRows: number;
    K: number;
    /** Column blocks of W written: [wc0, width, output column]. */
    blocks: [number, number, number][];
    scalars: Record<string, number>;
    scalarText: string;
    extraOut?: { wArg: string; outArg: string };
  },
): Qwen3Case {
  return {
    n,
    what,
    scalars: o.scalarText,
    build(rng) {
      const g = uniform(rng, -1, 1);
      const A = bf16Array(16 * o.lda);
      fill(A, o.lda, 0, 16, 0, o.K, g);
      const maxCol = Math.max(...o.blocks.map(([c, w]) => c + w));
      const mk = () => {
        const W = bf16Array((o.K - 1) * o.ldw + maxCol);
        for (const [c, w] of o.blocks) fill(W, o.ldw, 0, o.K, c, w, g);
        return W;
      };
      const W = mk();
      const out = f32Array(o.outRows * o.ldo);
      fillAll(out, g);
      const args: Record<string, NpyArray | number> = {
        [o.aArg]: A,
        [o.wArg]: W,
        [o.outArg]: out,
        ...o.scalars,
      };
      const want = new Map<number, Bounded>();
      for (const [c, w, oc] of o.blocks)
        place(want, matmul(A, o.lda, 0, 16, W, o.ldw, c, w, o.K), o.ldo, 0, oc);
      const expect: Expect[] = [{ arg: o.outArg, want }];
      if (o.extraOut) {
        const W2 = mk();
        const out2 = f32Array(o.outRows * o.ldo);
        fillAll(out2, g);
        args[o.extraOut.wArg] = W2;
        args[o.extraOut.outArg] = out2;
        const want2 = new Map<number, Bounded>();
        for (const [c, w, oc] of o.blocks)
          place(want2, matmul(A, o.lda, 0, 16, W2, o.ldw, c, w, o.K), o.ldo, 0, oc);
        expect.push({ arg: o.extraOut.outArg, want: want2 });
      }
      return { args, expect };
    },
  };
}

export const QWEN3_CASES: readonly Qwen3Case[] = [
  {
    n: 0,
    what: 'RMSNorm of 16 bf16 rows of 8192 (sum of squares in 16 chunks of 512), f32 gamma, bf16 out',
    scalars: 'arg3 (row) = 0',
    build(rng) {
      const x = bf16Array(16 * 8192);
      fillAll(x, uniform(rng, -2, 2));
      const gamma = f32Array(8192);
      fillAll(gamma, uniform(rng, 0.5, 1.5));
      const out = bf16Array(16 * 8192);
      fillAll(out, uniform(rng, -9, 9));
      const want = new Map<number, Bounded>();
      place(
        want,
        rmsNorm(
          (r, k) => val(x, r * 8192 + k),
          (k) => val(gamma, k),
        ),
        8192,
        0,
        0,
      );
      return { args: { arg0: x, arg1: gamma, arg2: out, arg3: 0 }, expect: [{ arg: 'arg2', want }] };
    },
  },
  matmulCase(1, 'q projection: 16x8192 bf16 @ 8192x64 bf16 blocks, K loop of 16 x 512 in L0C (f32)', {
    aArg: 'arg0',
    wArg: 'arg2',
    outArg: 'arg1',
    lda: 8192,
    ldw: 8192,
    ldo: 8192,
    outRows: 16,
    K: 8192,
    blocks: [0, 1, 2, 3].map((i) => [(4 + i) * 64, 64, (4 + i) * 64] as [number, number, number]),
    scalars: { arg3: 0, arg4: 1 },
    scalarText: 'arg3 (row) = 0, arg4 (block group) = 1: blocks 4..7',
  }),
  matmulCase(2, 'k and v projections: 16x8192 @ 8192x64 blocks (two K loops of 16 x 512)', {
    aArg: 'arg1',
    wArg: 'arg3',
    outArg: 'arg0',
    lda: 8192,
    ldw: 1024,
    ldo: 1024,
    outRows: 16,
    K: 8192,
    blocks: [0, 1, 2, 3].map((i) => [(8 + i) * 64, 64, (8 + i) * 64] as [number, number, number]),
    scalars: { arg5: 0, arg6: 2 },
    scalarText: 'arg5 (row) = 0, arg6 (block group) = 2: blocks 8..11',
    extraOut: { wArg: 'arg4', outArg: 'arg2' },
  }),
  {
    n: 3,
    what: 'zero the 8 padding rows of every 16-row head group (texpands 0 -> tcvt bf16 -> tstore)',
    scalars: '-',
    build(rng) {
      const q = bf16Array(2048 * 128);
      fillAll(q, uniform(rng, -1, 1));
      const want = new Map<number, Bounded>();
      for (let r = 0; r < 2048; r++)
        if (r % 16 >= 8) for (let c = 0; c < 128; c++) want.set(r * 128 + c, exact(0));
      return { args: { arg0: q }, expect: [{ arg: 'arg0', want }] };
    },
  },
  {
    n: 4,
    what: 'RoPE of k (8 kv heads) and q (8 x 8 heads) into the bf16 caches / padded q, v copied to its cache',
    scalars: 'arg10 (batch row) = 1, arg11 (group) = 0, arg12 (pos) = 5',
    build(rng) {
      const g = uniform(rng, -1, 1);
      const b = 1;
      const pos = 5;
      const qPad = bf16Array(2048 * 128);
      fillAll(qPad, g);
      const tab = () => {
        const t = f32Array(64);
        fillAll(t, g);
        return t;
      };
      const [cosHi, cosLo, sinHi, sinLo] = [tab(), tab(), tab(), tab()];
      const rows = b * 32768 + 7 * 4096 + pos + 1;
      const kCache = bf16Array(rows * 128);
      const vCache = bf16Array(rows * 128);
      const kProj = f32Array(16 * 1024);
      const qProj = f32Array(16 * 8192);
      const vProj = f32Array(16 * 1024);
      for (const a of [kProj, qProj, vProj]) fillAll(a, g);
      const row = (a: NpyArray, ld: number, r: number, c0: number, n: number) =>
        Array.from({ length: n }, (_, j) => val(a, r * ld + c0 + j));
      const T = (a: NpyArray) => row(a, 64, 0, 0, 64);
      const [cl, ch, sl, sh] = [T(cosLo), T(cosHi), T(sinLo), T(sinHi)];
      const wk = new Map<number, Bounded>();
      const wv = new Map<number, Bounded>();
      const wq = new Map<number, Bounded>();
      for (let kvh = 0; kvh < 8; kvh++) {
        const cacheRow = b * 32768 + kvh * 4096 + pos;
        const k = rope(
          row(kProj, 1024, b, kvh * 128, 64),
          row(kProj, 1024, b, kvh * 128 + 64, 64),
          cl,
          ch,
          sl,
          sh,
        );
        k.forEach((x, j) => {
          wk.set(cacheRow * 128 + j, x);
        });
        row(vProj, 1024, b, kvh * 128, 128).forEach((x, j) => {
          wv.set(cacheRow * 128 + j, toBf16(exact(x)));
        });
        for (let qi = 0; qi < 8; qi++) {
          const qc = (kvh * 8 + qi) * 128;
          const q = rope(row(qProj, 8192, b, qc, 64), row(qProj, 8192, b, qc + 64, 64), cl, ch, sl, sh);
          const qRow = b * 128 + kvh * 16 + qi;
          q.forEach((x, j) => {
            wq.set(qRow * 128 + j, x);
          });
        }
      }
      return {
        args: {
          arg0: qPad,
          arg1: cosHi,
          arg2: cosLo,
          arg3: kCache,
          arg4: kProj,
          arg5: qProj,
          arg6: sinHi,
          arg7: sinLo,
          arg8: vCache,
          arg9: vProj,
          arg10: b,
          arg11: 0,
          arg12: pos,
        },
        expect: [
          { arg: 'arg0', want: wq },
          { arg: 'arg3', want: wk },
          { arg: 'arg8', want: wv },
        ],
      };
    },
  },
  {
    n: 5,
    what: 'attention scores: padded q 16x128 @ K^T (K from the bf16 cache through a DN view), per 64-key block',
    scalars: 'arg3 (batch) = 0, arg4 (ctx blocks) = 5, arg5 (kv head) = 3, arg6 (group) = 0',
    build(rng) {
      const g = uniform(rng, -1, 1);
      const kvh = 3;
      const blocks = 5;
      const out = f32Array(1024 * 64);
      fillAll(out, g);
      const rows = kvh * 4096 + blocks * 64;
      const kCache = bf16Array(rows * 128);
      fill(kCache, 128, kvh * 4096, blocks * 64, 0, 128, g);
      const q = bf16Array(16 * 128);
      fillAll(q, g);
      const want = new Map<number, Bounded>();
      for (let sb = 0; sb < blocks; sb++) {
        const s0 = kvh * 4096 + sb * 64;
        for (let r = 0; r < 16; r++) {
          const qr = Array.from({ length: 128 }, (_, d) => exact(val(q, r * 128 + d)));
          for (let s = 0; s < 64; s++) {
            const kr = Array.from({ length: 128 }, (_, d) => exact(val(kCache, (s0 + s) * 128 + d)));
            want.set((sb * 16 + r) * 64 + s, dot(qr, kr));
          }
        }
      }
      return {
        args: { arg0: out, arg1: kCache, arg2: q, arg3: 0, arg4: blocks, arg5: kvh, arg6: 0 },
        expect: [{ arg: 'arg0', want }],
      };
    },
  },
  {
    n: 6,
    what: 'softmax prepare: scores x 1/sqrt(128) with the tail past ctx_len padded (tfillpad, pad Min), row max, exp(x - max) to bf16, row sum of the bf16 values',
    scalars: 'arg4 (ctx blocks) = 4, arg5 (ctx len) = 209, arg6 (group) = 0',
    build(rng) {
      const g = uniform(rng, -4, 4);
      const blocks = 4;
      const ctxLen = 3 * 64 + 17;
      const li = f32Array(512);
      const mi = f32Array(512);
      const expOut = bf16Array(1024 * 64);
      const raw = f32Array(1024 * 64);
      for (const a of [li, mi, expOut, raw]) fillAll(a, g);
      // the kernel's literal (1/sqrt(128)) as an f32 constant
      const scale = exact(Math.fround(Number('8.83883476483184327e-2')));
      const wl = new Map<number, Bounded>();
      const wm = new Map<number, Bounded>();
      const we = new Map<number, Bounded>();
      for (let sb = 0; sb < blocks; sb++) {
        const valid = Math.min(ctxLen - sb * 64, 64);
        for (let r = 0; r < 8; r++) {
          const row = sb * 16 + r;
          const s = Array.from({ length: valid }, (_, c) => mul(exact(val(raw, row * 64 + c)), scale));
          const m = s.reduce((a, b) => max(a, b));
          const e: Bounded[] = [];
          for (let c = 0; c < 64; c++) {
            // padded lanes: (most negative value) * scale - max underflows exp to exactly 0
            e.push(c < valid ? toBf16(exp(sub(s[c]!, m))) : exact(0));
            we.set(row * 64 + c, e[c]!);
          }
          wm.set(sb * 8 + r, m);
          wl.set(sb * 8 + r, sum(e));
        }
      }
      return {
        args: { arg0: li, arg1: mi, arg2: expOut, arg3: raw, arg4: blocks, arg5: ctxLen, arg6: 0 },
        expect: [
          { arg: 'arg0', want: wl },
          { arg: 'arg1', want: wm },
          { arg: 'arg2', want: we },
        ],
      };
    },
  },
  {
    n: 7,
    what: 'attention values: exp scores 16x64 bf16 @ V 64x128 bf16 (from the cache) per 64-key block',
    scalars: 'arg3 (batch) = 1, arg4 (ctx blocks) = 3, arg5 (kv head) = 2, arg6 (group) = 0',
    build(rng) {
      const g = uniform(rng, -1, 1);
      const b = 1;
      const kvh = 2;
      const blocks = 3;
      const expIn = bf16Array(1024 * 64);
      fillAll(expIn, uniform(rng, 0, 1));
      const out = f32Array(1024 * 128);
      fillAll(out, g);
      const base = b * 32768 + kvh * 4096;
      const vCache = bf16Array((base + blocks * 64) * 128);
      fill(vCache, 128, base, blocks * 64, 0, 128, g);
      const want = new Map<number, Bounded>();
      for (let sb = 0; sb < blocks; sb++) {
        const m = matmul(expIn, 64, sb * 16, 16, bf16Slice(vCache, (base + sb * 64) * 128), 128, 0, 128, 64);
        place(want, m, 128, sb * 16, 0);
      }
      return {
        args: { arg0: expIn, arg1: out, arg2: vCache, arg3: b, arg4: blocks, arg5: kvh, arg6: 0 },
        expect: [{ arg: 'arg1', want }],
      };
    },
  },
  {
    n: 8,
    what: 'online softmax over the blocks (running max, rescale by exp(m - m_new), running sum and output), divide, bf16',
    scalars: 'arg4 (ctx blocks) = 5, arg5 (q base) = 24',
    build(rng) {
      const g = uniform(rng, -1, 1);
      const blocks = 5;
      const qBase = 24;
      const li = f32Array(512);
      fillAll(li, uniform(rng, 0.25, 1.5));
      const mi = f32Array(512);
      fillAll(mi, g);
      const oi = f32Array(1024 * 128);
      fillAll(oi, g);
      const attn = bf16Array(8192);
      fillAll(attn, g);
      const want = new Map<number, Bounded>();
      for (let r = 0; r < 8; r++) {
        let m = exact(val(mi, r));
        let l = exact(val(li, r));
        let o = Array.from({ length: 128 }, (_, c) => exact(val(oi, r * 128 + c)));
        for (let sb = 1; sb < blocks; sb++) {
          const cm = exact(val(mi, sb * 8 + r));
          const cl = exact(val(li, sb * 8 + r));
          const mNew = max(m, cm);
          const alpha = exp(sub(m, mNew));
          const beta = exp(sub(cm, mNew));
          l = add(mul(alpha, l), mul(beta, cl));
          o = o.map((x, c) => add(mul(x, alpha), mul(exact(val(oi, (sb * 16 + r) * 128 + c)), beta)));
          m = mNew;
        }
        o.forEach((x, c) => {
          want.set(qBase * 128 + r * 128 + c, toBf16(div(x, l)));
        });
      }
      return {
        args: { arg0: li, arg1: mi, arg2: oi, arg3: attn, arg4: blocks, arg5: qBase },
        expect: [{ arg: 'arg3', want }],
      };
    },
  },
  matmulCase(9, 'output projection: 16x8192 @ 8192x64, K loop of 64 x 128', {
    aArg: 'arg0',
    wArg: 'arg1',
    outArg: 'arg2',
    lda: 8192,
    ldw: 8192,
    ldo: 64,
    outRows: 16,
    K: 8192,
    blocks: [[640, 64, 0]],
    scalars: { arg3: 0, arg4: 640 },
    scalarText: 'arg3 (row) = 0, arg4 (column) = 640',
  }),
  {
    n: 10,
    what: 'residual add: f32 projection + bf16 hidden state (16x64 at a column offset)',
    scalars: 'arg3 (row) = 0, arg4 (column) = 1024',
    build(rng) {
      const g = uniform(rng, -1, 1);
      const hid = bf16Array(16 * 8192);
      fillAll(hid, g);
      const acc = f32Array(16 * 64);
      fillAll(acc, g);
      const out = f32Array(16 * 8192);
      fillAll(out, g);
      const want = new Map<number, Bounded>();
      for (let r = 0; r < 16; r++)
        for (let c = 0; c < 64; c++)
          want.set(
            r * 8192 + 1024 + c,
            add(exact(val(acc, r * 64 + c)), exact(val(hid, r * 8192 + 1024 + c))),
          );
      return {
        args: { arg0: hid, arg1: acc, arg2: out, arg3: 0, arg4: 1024 },
        expect: [{ arg: 'arg2', want }],
      };
    },
  },
  {
    n: 11,
    what: 'post-attention RMSNorm of 16 f32 rows of 8192 (64 chunks of 128), bf16 out',
    scalars: '-',
    build(rng) {
      const out = bf16Array(16 * 8192);
      fillAll(out, uniform(rng, -9, 9));
      const gamma = f32Array(8192);
      fillAll(gamma, uniform(rng, 0.5, 1.5));
      const x = f32Array(16 * 8192);
      fillAll(x, uniform(rng, -2, 2));
      const want = new Map<number, Bounded>();
      place(
        want,
        rmsNorm(
          (r, k) => val(x, r * 8192 + k),
          (k) => val(gamma, k),
        ),
        8192,
        0,
        0,
      );
      return { args: { arg0: out, arg1: gamma, arg2: x }, expect: [{ arg: 'arg0', want }] };
    },
  },
  matmulCase(12, 'MLP gate projection: 16x8192 @ 8192x256 (of 25600), K loop of 64 x 128', {
    aArg: 'arg0',
    wArg: 'arg1',
    outArg: 'arg2',
    lda: 8192,
    ldw: 25600,
    ldo: 256,
    outRows: 16,
    K: 8192,
    blocks: [[5120, 256, 0]],
    scalars: { arg3: 5120 },
    scalarText: 'arg3 (column) = 5120',
  }),
  matmulCase(13, 'MLP up projection: 16x8192 @ 8192x256 (of 25600), K loop of 64 x 128', {
    aArg: 'arg0',
    wArg: 'arg1',
    outArg: 'arg2',
    lda: 8192,
    ldw: 25600,
    ldo: 256,
    outRows: 16,
    K: 8192,
    blocks: [[256, 256, 0]],
    scalars: { arg3: 256 },
    scalarText: 'arg3 (column) = 256',
  }),
  {
    n: 14,
    what: 'SiLU gating: gate * 1/(1 + exp(-gate)) * up, bf16 into a 25600-wide row',
    scalars: '-',
    build(rng) {
      const gate = f32Array(16 * 256);
      fillAll(gate, uniform(rng, -6, 6));
      const up = f32Array(16 * 256);
      fillAll(up, uniform(rng, -2, 2));
      const out = bf16Array(15 * 25600 + 256);
      fillAll(out, uniform(rng, -9, 9));
      const want = new Map<number, Bounded>();
      for (let r = 0; r < 16; r++) {
        for (let c = 0; c < 256; c++) {
          const x = exact(val(gate, r * 256 + c));
          const sig = div(exact(1), add(exp(exact(-x.v)), exact(1)));
          want.set(r * 25600 + c, toBf16(mul(mul(x, sig), exact(val(up, r * 256 + c)))));
        }
      }
      return { args: { arg0: gate, arg1: up, arg2: out }, expect: [{ arg: 'arg2', want }] };
    },
  },
  matmulCase(15, 'MLP down projection: 16x25600 @ 25600x128 (of 8192), K loop of 100 x 256', {
    aArg: 'arg0',
    wArg: 'arg1',
    outArg: 'arg2',
    lda: 25600,
    ldw: 8192,
    ldo: 128,
    outRows: 16,
    K: 25600,
    blocks: [[4096, 128, 0]],
    scalars: { arg3: 4096 },
    scalarText: 'arg3 (column) = 4096',
  }),
  {
    n: 16,
    what: 'final residual add: f32 down projection + f32 residual, bf16 out',
    scalars: 'arg3 (row) = 0, arg4 (column) = 2048',
    build(rng) {
      const g = uniform(rng, -1, 1);
      const down = f32Array(16 * 128);
      fillAll(down, g);
      const out = bf16Array(16 * 8192);
      fillAll(out, g);
      const resid = f32Array(16 * 8192);
      fillAll(resid, g);
      const want = new Map<number, Bounded>();
      for (let r = 0; r < 16; r++)
        for (let c = 0; c < 128; c++)
          want.set(
            r * 8192 + 2048 + c,
            toBf16(add(exact(val(down, r * 128 + c)), exact(val(resid, r * 8192 + 2048 + c)))),
          );
      return {
        args: { arg0: down, arg1: out, arg2: resid, arg3: 0, arg4: 2048 },
        expect: [{ arg: 'arg1', want }],
      };
    },
  },
];

/** A bf16 array viewing `a` from element `start` (no copy). */
function bf16Slice(a: NpyArray, start: number): NpyArray {
  const d = (a.data as Uint16Array).subarray(start);
  return { dtype: 'u2', shape: [d.length], data: d };
}

/** Runs case `c` from `root` (a PTOAS checkout) and compares. */
export function runQwen3Case(
  root: string,
  c: Qwen3Case,
  opts: { profile?: Profile; seed?: number } = {},
): Qwen3Result {
  const file = join(QWEN3_DIR, `qwen3_decode_incore_${c.n}.pto`);
  const base = {
    n: c.n,
    file,
    what: c.what,
    scalars: c.scalars,
    checked: 0,
    unchanged: 0,
    worst: 0,
    instructions: 0,
  };
  let built: Built;
  try {
    built = c.build(mulberry32(opts.seed ?? 1000 + c.n));
  } catch (e) {
    return { ...base, status: 'error', detail: `building inputs: ${(e as Error).message}` };
  }
  const before = new Map<string, Uint8Array>();
  for (const x of built.expect) before.set(x.arg, bytesOf(built.args[x.arg] as NpyArray).slice());
  let instructions = 0;
  try {
    const path = join(root, file);
    const m = parsePtoAs(readFileSync(path, 'utf8'), { file: path });
    verifyModule(m, { file: path, profile: opts.profile ?? 'a2a3' });
    instructions = runProgram(m, built.args, { file: path, profile: opts.profile ?? 'a2a3' }).instructions;
  } catch (e) {
    const msg = e instanceof AxsimError ? e.format() : String(e);
    return { ...base, status: 'error', detail: msg.split('\n')[0]! };
  }
  let checked = 0;
  let unchanged = 0;
  let worst = 0;
  let bad = 0;
  let first = '';
  for (const x of built.expect) {
    const arr = built.args[x.arg] as NpyArray;
    const now = bytesOf(arr);
    const old = before.get(x.arg)!;
    const eb = arr.dtype === 'u2' ? 2 : 4;
    const n = now.length / eb;
    for (let i = 0; i < n; i++) {
      const w = x.want.get(i);
      if (!w) {
        let same = true;
        for (let k = 0; k < eb; k++) if (now[i * eb + k] !== old[i * eb + k]) same = false;
        unchanged++;
        if (!same) {
          bad++;
          if (!first) first = `%${x.arg}[${i}] changed but the kernel must not write it`;
        }
        continue;
      }
      checked++;
      const got = val(arr, i);
      const diff = Math.abs(got - w.v);
      const ratio = diff === 0 ? 0 : w.e > 0 ? diff / w.e : Number.POSITIVE_INFINITY;
      if (!(ratio <= 1)) {
        bad++;
        if (!first) first = `%${x.arg}[${i}] = ${got}, exact ${w.v} ± ${w.e.toPrecision(3)}`;
      }
      if (ratio > worst || Number.isNaN(ratio))
        worst = Number.isNaN(ratio) ? Number.POSITIVE_INFINITY : ratio;
    }
  }
  return {
    ...base,
    checked,
    unchanged,
    worst,
    instructions,
    status: bad ? 'mismatch' : 'match',
    detail: bad ? `${bad} element(s) outside the bound; first: ${first}` : 'all within the bound',
  };
}

function bytesOf(a: NpyArray): Uint8Array {
  const d = a.data as unknown as ArrayBufferView;
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}
