/**
 * Public AMX C code tried unchanged (docs/amx-c-corpus.md): corsix/amx's own C programs and the
 * aaplmx micro-kernels of xrq-phys/blis_apple (BLIS for Apple's matrix coprocessor). The files are
 * read from local checkouts (`AXSIM_AMX_CORPUS`, see scripts/corpus-amx.ts); nothing of them is in
 * this repository. Each case names its file and entry, binds its arguments and checks the result
 * against an expectation computed here (plain loops on exact data, or the answer the code is
 * documented to give). axsim provides its own `aarch64.h`/`amx.h` (header.ts) and small stand-ins
 * for headers outside the kernels (`blis.h`, `arm_neon.h`, macOS system headers), written here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { halfBits } from '../../cfront/literal.ts';
import { AxsimError } from '../../errors.ts';
import { AMX_GENS, type AmxGen } from '../state.ts';
import { type AmxCArray, runAmxC } from './run.ts';

/** axsim's stand-in for BLIS's `blis.h`: the types and accessors the aaplmx micro-kernels use. */
export const BLIS_SHIM = `#pragma once
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <assert.h>
typedef int64_t dim_t;
typedef int64_t inc_t;
typedef struct axsim_auxinfo { void *a_next; void *b_next; } auxinfo_t;
typedef struct axsim_cntx { int unused; } cntx_t;
#define bli_auxinfo_next_a(data) ((data)->a_next)
#define bli_auxinfo_next_b(data) ((data)->b_next)
#define BLIS_INLINE static inline
`;

/** ACLE element types the kernels name (`float16_t` is `_Float16`, as in clang's arm_neon.h). */
export const ARM_NEON_SHIM = `#pragma once
typedef float float32_t;
typedef double float64_t;
typedef _Float16 float16_t;
`;

export type CorpusRepo = 'corsix/amx' | 'xrq-phys/blis_apple';

export interface CorpusCase {
  repo: CorpusRepo;
  /** Path inside the checkout. */
  file: string;
  /** Other files of the checkout compiled in the same unit (what the build links with it). */
  with?: string[];
  entry: string;
  what: string;
  gens: readonly AmxGen[];
  /** Builds the arguments and checks the result; returns a description of the check. */
  run: (src: string, file: string, gen: AmxGen, includeDirs: string[]) => string;
}

export interface CorpusResult {
  repo: CorpusRepo;
  file: string;
  entry: string;
  what: string;
  gen: AmxGen;
  status: 'ran unchanged, matches' | 'mismatch' | 'error';
  detail: string;
}

const EXTRA_FILES: Record<string, string> = {
  'blis.h': BLIS_SHIM,
  'arm_neon.h': ARM_NEON_SHIM,
  'time.h': '',
  'dispatch/dispatch.h': '',
};

function arr(dtype: AmxCArray['dtype'], shape: number[], data: ArrayBufferView): AmxCArray {
  return { dtype, shape, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice() };
}

/** Deterministic small dyadic values: every product and sum below is exact. */
function values(n: number, seed: number, scale: number): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return ((s >> 8) % 33) - 16;
  }).map((v) => v / scale);
}

function compare(got: ArrayLike<number>, want: ArrayLike<number>, what: string): string {
  let bad = 0;
  let first = -1;
  for (let i = 0; i < want.length; i++)
    if (!Object.is(got[i], want[i])) {
      bad++;
      if (first < 0) first = i;
    }
  if (bad > 0)
    throw new Mismatch(
      `${what}: ${bad} of ${want.length} differ (first at ${first}: ${got[first]} vs ${want[first]})`,
    );
  return `${what}: all ${want.length} equal`;
}

class Mismatch extends Error {}

/**
 * The expected C of a packed GEMM micro-kernel, column-major with column stride `ld`:
 * C := alpha A B + beta C with A packed as a[mr p + i] and B as b[nr p + j].
 */
function gemmReference(
  av: number[],
  bv: number[],
  cv: number[],
  dims: { mr: number; nr: number; k: number; ld: number },
  alpha: number,
  beta: number,
): number[] {
  const { mr, nr, k, ld } = dims;
  const want = cv.slice();
  for (let j = 0; j < nr; j++)
    for (let i = 0; i < mr; i++) {
      let sum = 0;
      for (let p = 0; p < k; p++) sum += av[mr * p + i]! * bv[nr * p + j]!;
      want[i + j * ld] = alpha * sum + beta * cv[i + j * ld]!;
    }
  return want;
}

/** Runs `entry` with `args` bound (and the header stand-ins) and returns the bytes of array C after. */
function runForC(
  src: string,
  file: string,
  gen: AmxGen,
  includeDirs: string[],
  entry: string,
  args: Record<string, AmxCArray>,
): Uint8Array {
  const r = runAmxC(src, { file, gen, entry, args, includeDirs, virtualFiles: EXTRA_FILES });
  return r.arrays.C!.bytes;
}

/**
 * A packed BLIS micro-kernel call `f(k, alpha, a, b, beta, c, rs_c, cs_c, data, cntx)` with
 * column-major C (rs_c = 1): C := beta C + A B, A packed as a[mr p + i], B as b[nr p + j].
 */
function blisGemmCase(
  file: string,
  fn: string,
  mr: number,
  nr: number,
  dtype: 'f4' | 'f8',
  beta: number,
  k: number,
  opts: { with?: string[]; inputF16?: boolean } = {},
): CorpusCase {
  return {
    repo: 'xrq-phys/blis_apple',
    file,
    with: opts.with,
    entry: `${fn}(${k}, ALPHA, A, B, BETA, C, 1, ${mr + 8}, 0, 0)`,
    what: `${mr}x${nr} ${opts.inputF16 ? 'f16 -> f32' : dtype === 'f4' ? 'f32' : 'f64'} GEMM, k = ${k}, beta = ${beta}`,
    gens: AMX_GENS,
    run(src, f, gen, includeDirs) {
      const ld = mr + 8; // column stride of C (padded, so the kernel must honour cs_c)
      const av = values(k * mr, 11 + k, 8);
      const bv = values(k * nr, 29 + k, 4);
      const cv = values(ld * nr, 5, 2);
      const Float = dtype === 'f4' ? Float32Array : Float64Array;
      const want = Float.from(gemmReference(av, bv, cv, { mr, nr, k, ld }, 1, beta));
      const f16 = (v: number) => {
        // exact f16 of a small dyadic (|v| <= 4, steps of 1/8): sign, exponent, 10-bit mantissa
        if (v === 0) return 0;
        const e = Math.floor(Math.log2(Math.abs(v)));
        return (v < 0 ? 0x8000 : 0) | ((e + 15) << 10) | ((Math.abs(v) / 2 ** e - 1) * 1024);
      };
      const args = {
        ALPHA: arr(dtype, [1], Float.from([1])),
        BETA: arr(dtype, [1], Float.from([beta])),
        A: opts.inputF16
          ? arr('u2', [k, mr], Uint16Array.from(av, f16))
          : arr(dtype, [k, mr], Float.from(av)),
        B: opts.inputF16
          ? arr('u2', [k, nr], Uint16Array.from(bv, f16))
          : arr(dtype, [k, nr], Float.from(bv)),
        C: arr(dtype, [nr, ld], Float.from(cv)),
      };
      const c = runForC(src, f, gen, includeDirs, this.entry, args);
      return compare(new Float(c.slice().buffer, 0, c.length / Float.BYTES_PER_ELEMENT), want, 'C');
    },
  };
}

/**
 * BLIS's 16-bit 64 x 32 micro-kernels (bli_gemm_aaplmx_mac_sh64x32.c): `sh` (f16 in, f16 out, fma16)
 * and `i16` (int16, mac16), C := alpha A B + beta C with alpha and beta compared and broadcast in C
 * (`*alpha != (TypeName) 1`). The data keep every partial sum exact (f16: multiples of 1/16 below
 * 2048/16; int16: far from wrapping), so the result does not depend on the order of operations.
 */
function blis16Case(kind: 'sh' | 'i16', alpha: number, beta: number, k: number): CorpusCase {
  const mr = 64;
  const nr = 32;
  const fn = `bli_${kind}gemm_aaplmx_mac_64x32`;
  return {
    repo: 'xrq-phys/blis_apple',
    file: 'kernels/aaplmx/3/bli_gemm_aaplmx_mac_sh64x32.c',
    with: ['kernels/aaplmx/3/bli_gemm_aaplmx_mac_d16x16.c'],
    entry: `${fn}(${k}, ALPHA, A, B, BETA, C, 1, ${mr + 8}, 0, 0)`,
    what: `${mr}x${nr} ${kind === 'sh' ? 'f16' : 'int16'} GEMM, k = ${k}, alpha = ${alpha}, beta = ${beta}`,
    gens: AMX_GENS,
    run(src, f, gen, includeDirs) {
      const ld = mr + 8;
      const f16 = kind === 'sh';
      const av = values(k * mr, 11 + k, f16 ? 4 : 1);
      const bv = values(k * nr, 29 + k, f16 ? 4 : 1);
      const cv = values(ld * nr, 5, f16 ? 2 : 1);
      const want = gemmReference(av, bv, cv, { mr, nr, k, ld }, alpha, beta);
      // bit patterns: binary16 of the (exact) values, or int16 two's complement
      const enc = (v: number) => (f16 ? halfBits(v) : v & 0xffff);
      const u16 = (v: number[]) => Uint16Array.from(v, enc);
      const args = {
        ALPHA: arr('u2', [1], u16([alpha])),
        BETA: arr('u2', [1], u16([beta])),
        A: arr('u2', [k, mr], u16(av)),
        B: arr('u2', [k, nr], u16(bv)),
        C: arr('u2', [nr, ld], u16(cv)),
      };
      const c = runForC(src, f, gen, includeDirs, this.entry, args);
      return compare(new Uint16Array(c.slice().buffer), u16(want), 'C');
    },
  };
}

export const CORPUS: CorpusCase[] = [
  {
    repo: 'corsix/amx',
    file: 'test.c',
    entry: 'detect_amx_hardware_version()',
    what: 'hardware generation probe (ldx pair/quad, vecint multi-vector, stz)',
    gens: AMX_GENS,
    run(src, f, gen, includeDirs) {
      const r = runAmxC(src, { file: f, gen, entry: this.entry, includeDirs, virtualFiles: EXTRA_FILES });
      const want = BigInt(AMX_GENS.indexOf(gen) + 1); // documented: 1 + buf[0] = the M generation
      if (r.returned !== want) throw new Mismatch(`returned ${r.returned}, expected ${want}`);
      return `returned ${want}`;
    },
  },
  {
    repo: 'corsix/amx',
    file: 'perf.c',
    entry: 'detect_hardware_m2_flag()',
    what: 'M2 probe (ldx of 256 bytes as two or four registers)',
    gens: AMX_GENS,
    run(src, f, gen, includeDirs) {
      const r = runAmxC(src, { file: f, gen, entry: this.entry, includeDirs, virtualFiles: EXTRA_FILES });
      const want = gen === 'm1' ? 0n : 4n; // FLAG_M2 = 4 from M2 on
      if (r.returned !== want) throw new Mismatch(`returned ${r.returned}, expected ${want}`);
      return `returned ${want}`;
    },
  },
  blisGemmCase(
    'kernels/aaplmx/3/bli_gemm_aaplmx_mac_d16x16.c',
    'bli_sgemm_aaplmx_mac_32x32',
    32,
    32,
    'f4',
    0,
    9,
  ),
  blisGemmCase(
    'kernels/aaplmx/3/bli_gemm_aaplmx_mac_d16x16.c',
    'bli_sgemm_aaplmx_mac_32x32',
    32,
    32,
    'f4',
    1,
    6,
  ),
  blisGemmCase(
    'kernels/aaplmx/3/bli_gemm_aaplmx_mac_d16x16.c',
    'bli_dgemm_aaplmx_mac_16x16',
    16,
    16,
    'f8',
    0,
    5,
  ),
  blisGemmCase(
    'kernels/aaplmx/3/bli_gemm_aaplmx_mac_d32x16.c',
    'bli_dgemm_aaplmx_mac_32x16',
    32,
    16,
    'f8',
    0,
    7,
    {
      with: ['kernels/aaplmx/3/bli_gemm_aaplmx_mac_d16x16.c'],
    },
  ),
  blisGemmCase(
    'kernels/aaplmx/3/bli_gemm_aaplmx_mac_d32x16.c',
    'bli_dgemm_aaplmx_mac_32x16',
    32,
    16,
    'f8',
    1,
    3,
    {
      with: ['kernels/aaplmx/3/bli_gemm_aaplmx_mac_d16x16.c'],
    },
  ),
  blisGemmCase(
    'kernels/aaplmx/3/bli_gemm_aaplmx_mac_s_sh32x32.c',
    'bli_s_shgemm_aaplmx_mac_32x32',
    32,
    32,
    'f4',
    0,
    8,
    {
      with: ['kernels/aaplmx/3/bli_gemm_aaplmx_mac_d16x16.c'],
      inputF16: true,
    },
  ),
  blis16Case('sh', 1, 1, 5),
  blis16Case('sh', 2, 0, 4),
  blis16Case('i16', 1, 1, 5),
  blis16Case('i16', 3, 0, 4),
];

/** Which checkout a directory is: corsix/amx has aarch64.h and fma.md, blis_apple kernels/aaplmx. */
export function repoOf(dir: string): CorpusRepo | undefined {
  if (existsSync(join(dir, 'aarch64.h')) && existsSync(join(dir, 'fma.md'))) return 'corsix/amx';
  if (existsSync(join(dir, 'kernels/aaplmx'))) return 'xrq-phys/blis_apple';
  return undefined;
}

/** Runs every case whose repository is among `roots`, on each generation it supports. */
export function runCorpus(roots: string[], gens: readonly AmxGen[] = AMX_GENS): CorpusResult[] {
  const byRepo = new Map<CorpusRepo, string>();
  for (const r of roots) {
    const repo = repoOf(r);
    if (repo) byRepo.set(repo, r);
  }
  const out: CorpusResult[] = [];
  for (const c of CORPUS) {
    const root = byRepo.get(c.repo);
    if (!root) continue;
    const path = join(root, c.file);
    // the files the build links together, as one translation unit of unchanged files
    const src = [...(c.with ?? []), c.file].map((f) => `#include "${join(root, f)}"`).join('\n');
    for (const gen of c.gens.filter((g) => gens.includes(g))) {
      const base = { repo: c.repo, file: c.file, entry: c.entry, what: c.what, gen };
      try {
        const detail = c.run(c.with ? src : readFileSync(path, 'utf8'), path, gen, [dirname(path)]);
        out.push({ ...base, status: 'ran unchanged, matches', detail });
      } catch (e) {
        if (e instanceof Mismatch) out.push({ ...base, status: 'mismatch', detail: e.message });
        else if (e instanceof AxsimError) out.push({ ...base, status: 'error', detail: e.format() });
        else throw e;
      }
    }
  }
  return out;
}
