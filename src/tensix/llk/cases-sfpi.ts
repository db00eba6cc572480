/**
 * The tt-llk corpus cases of the SFPI kernel files (issue 12 acceptance): each public `_calculate_*` /
 * `_init_*` function run unchanged (SFPI compiled by src/tensix/sfpi), its Dst output compared with the
 * operation computed independently here in double precision, within the tolerance tt-metal's own unit
 * test of that op uses (cited per case), with the maximum ULP error, the cycles per 32 elements of the
 * cycle model and the hazards reported by the runner (corpus.ts). docs/tensix-llk-corpus.md.
 *
 * The references are the operations' mathematical definitions (Math.* in binary64), not the kernels'
 * algorithms; the parameters the kernels take in encoded form (FP16A/FP16B patterns, FP32 bit patterns)
 * are decoded here from their definitions.
 */

import * as K from './checks.ts';
import type { CorpusCase, Expected } from './corpus.ts';

/** A tolerance as a tt-metal unit test states it, with where it is stated. */
export interface SfpiTol {
  /** `torch.equal` / `assert_equal`: bit-exact (any zero matches a zero, NaN matches NaN). */
  exact?: boolean;
  /** `torch.allclose` / `assert_allclose`: |got - ref| <= atol + rtol * |ref|. */
  rtol?: number;
  atol?: number;
  /** `assert_with_pcc`: Pearson correlation of the whole tile against the reference. */
  pcc?: number;
  /** tt-metal file and test the numbers come from. */
  cite: string;
}

const TEST_UNARY = 'tt-metal tests/ttnn/unit_tests/operations/eltwise/test_unary.py';

/** The FP32 value of an FP16B (bfloat16) pattern. */
export const bf16Value = (h: number) => K.bitsToF32((h & 0xffff) << 16);
/** The value of a Tensix FP16A pattern (IEEE half layout: 5-bit exponent bias 15, no Inf/NaN: the top
 * exponent is an ordinary binade, SFPU spec 003 "FP16A"). */
export function fp16aValue(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  return s * (e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15));
}

/** ulp of an FP32 value (binade of |x|, at least the smallest normal's). */
export function ulpF32(x: number): number {
  const a = Math.abs(x);
  const e = a === 0 ? -126 : Math.max(-126, Math.floor(Math.log2(a)));
  return 2 ** (e - 23);
}

/** Expected FP32 result from a double reference under a tolerance; undefined reference = not checked. */
function expected(ref: number | undefined, tol: SfpiTol): Expected {
  if (ref === undefined) return undefined;
  const r = Math.fround(ref);
  if (Number.isNaN(ref)) return 0x7fc00000; // matched as "some NaN" (sfpiMatches)
  if (tol.exact || !Number.isFinite(ref)) return K.f32ToBits(r);
  // PCC alone: no per-element bound (the correlation over the tile is checked by sfpiStats)
  if (tol.rtol === undefined && tol.atol === undefined)
    return { value: K.f32ToBits(r), tol: Number.POSITIVE_INFINITY };
  return { value: K.f32ToBits(r), tol: (tol.atol ?? 0) + (tol.rtol ?? 0) * Math.abs(ref) };
}

/** A float unary SFPI case: one FP32 input tile, FP32 result in place. */
export interface FloatCase {
  file: string;
  covers: string[];
  entry: string;
  init?: string[];
  harness?: string;
  arches?: CorpusCase['arches'];
  ref: (x: number) => number | undefined;
  tol: SfpiTol;
  gen?: (rng: K.Rng) => Uint32Array;
  what: string;
  note?: string;
}

export function floatCase(c: FloatCase): CorpusCase {
  return {
    file: c.file,
    covers: c.covers,
    arches: c.arches,
    entry: c.entry,
    init: c.init,
    harness: c.harness,
    inputs: ['fp32'],
    gen: c.gen ? (rng) => c.gen!(rng) : undefined,
    out: { tile: 0, view: 'raw32', float: true },
    expect: (x) => expected(c.ref(K.bitsToF32(x)), c.tol),
    sfpi: { ref: (xs) => c.ref(K.bitsToF32(xs[0]!)), tol: c.tol },
    what: `${c.what}; tolerance ${describeTol(c.tol)}`,
    note: c.note,
  };
}

function describeTol(t: SfpiTol): string {
  const parts: string[] = [];
  if (t.exact) parts.push('exact');
  if (t.rtol !== undefined || t.atol !== undefined) parts.push(`rtol ${t.rtol ?? 0} atol ${t.atol ?? 0}`);
  if (t.pcc !== undefined) parts.push(`PCC >= ${t.pcc}`);
  return `${parts.join(' + ')} (${t.cite})`;
}

/** What the runner adds for SFPI cases: max ULP error against the double reference and the PCC check. */
export interface SfpiCheck {
  ref: (xs: number[]) => number | undefined;
  tol: SfpiTol;
}

/**
 * Statistics of one run: the largest |got - ref| in FP32 ulps of ref over the elements whose reference
 * and result are finite, and the Pearson correlation when the tolerance is one (null = it holds).
 */
export function sfpiStats(
  s: SfpiCheck,
  ins: Uint32Array[],
  out: Uint32Array,
): { maxUlp: number; pcc?: number; failure?: string } {
  let maxUlp = 0;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < out.length; i++) {
    const ref = s.ref(ins.map((v) => v[i]!));
    if (ref === undefined || !Number.isFinite(ref)) continue;
    const got = K.bitsToF32(out[i]!);
    if (!Number.isFinite(got)) {
      maxUlp = Number.POSITIVE_INFINITY;
      continue;
    }
    // a reference below the smallest normal is flushed by the SFPU's store (SFPU-NOTES A2)
    const r = Math.abs(ref) < 2 ** -126 ? 0 : ref;
    maxUlp = Math.max(maxUlp, Math.abs(got - r) / ulpF32(r));
    xs.push(r);
    ys.push(got);
  }
  if (s.tol.pcc === undefined) return { maxUlp };
  const pcc = pearson(xs, ys);
  return pcc >= s.tol.pcc
    ? { maxUlp, pcc }
    : { maxUlp, pcc, failure: `PCC ${pcc.toFixed(6)} below ${s.tol.pcc} (${s.tol.cite})` };
}

/** Pearson correlation; two constant vectors that are equal correlate 1 (torch's comp_pcc does the same). */
export function pearson(a: number[], b: number[]): number {
  const n = a.length;
  if (n === 0) return 1;
  const ma = a.reduce((s, x) => s + x, 0) / n;
  const mb = b.reduce((s, x) => s + x, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return a.every((x, i) => x === b[i]) ? 1 : 0;
  return sab / Math.sqrt(saa * sbb);
}

/** FP32 inputs uniform in [lo, hi) (random mantissas), with ±0 and the range ends. */
export function uniform(lo: number, hi: number): (rng: K.Rng) => Uint32Array {
  return (rng) => {
    const v = new Uint32Array(1024);
    const fixed = [0, -0, lo, Math.fround(hi - (hi - lo) * 2 ** -20)];
    for (let i = 0; i < 1024; i++)
      v[i] = K.f32ToBits(
        i < fixed.length ? fixed[i]! : Math.fround(lo + ((hi - lo) * (rng.next() >>> 8)) / 2 ** 24),
      );
    return v;
  };
}

/** Exact operations (a sign flip, a copy, a selection): bit-exact is the only sensible tolerance. */
const EXACT_UNARY: SfpiTol = { exact: true, cite: 'exact operation' };
const TEST_COMPOSITE = 'tt-metal tests/ttnn/unit_tests/operations/eltwise/test_composite.py';

export const SFPI_CASES: CorpusCase[] = [
  floatCase({
    file: 'abs',
    covers: ['_calculate_abs_'],
    entry: '_calculate_abs_<false, 8>(8)',
    ref: (x) => Math.abs(x),
    tol: EXACT_UNARY,
    what: '|x|',
  }),
  floatCase({
    file: 'negative',
    covers: ['_calculate_negative_'],
    entry: '_calculate_negative_<false, 8>',
    ref: (x) => -x,
    tol: EXACT_UNARY,
    what: '-x',
  }),
  floatCase({
    file: 'fill',
    covers: ['_calculate_fill_'],
    entry: '_calculate_fill_<false, 8>(-2.75f)',
    ref: () => -2.75,
    tol: EXACT_UNARY,
    what: 'fill -2.75',
  }),
  floatCase({
    file: 'fill',
    covers: ['_calculate_fill_bitcast_'],
    entry: '_calculate_fill_bitcast_<false, 8>(0x40490fdbu)',
    ref: () => K.bitsToF32(0x40490fdb),
    tol: EXACT_UNARY,
    what: 'fill bits 0x40490fdb (pi)',
  }),
  // sign: +1 / -1 / 0 for ±0 (param 1: the input came from an 8-bit-exponent format)
  floatCase({
    file: 'sign',
    covers: ['_calculate_sign_'],
    entry: '_calculate_sign_<false, 8>(8, 1)',
    ref: (x) => (Number.isNaN(x) || Object.is(x, -0) ? undefined : x === 0 ? 0 : x < 0 ? -1 : 1),
    tol: EXACT_UNARY,
    what: 'sign(x); -0.0 not checked: it gives -1 (SFPSETCC LT0 tests the sign bit and the FP32 SFPLOAD keeps -0, ISA SFPSETCC.md / SFPLOAD.md)',
  }),
  // clamp: FP16A min/max patterns, an FP16B offset added to the clamped value
  floatCase({
    file: 'clamp',
    covers: ['_calculate_clamp_'],
    entry: '_calculate_clamp_<false, 8>(8, 0xc100u, 0x4500u, 0x3c00u)',
    ref: (x) =>
      Number.isNaN(x)
        ? undefined
        : Math.min(Math.max(x, fp16aValue(0xc100)), fp16aValue(0x4500)) + bf16Value(0x3c00),
    tol: { rtol: 2 ** -24, atol: 0, cite: 'one FP32 rounding of the offset addition' },
    gen: uniform(-20, 20),
    what: 'clamp(x, -2.5, 5.0) + 0.0078125',
  }),
  // hardtanh(x, lo, hi) as three FP16B additions: p0 = -lo, p1 = -(hi - lo), p2 = hi (the kernel's
  // comment says -(hi) for p2; only +hi gives hardtanh: max(x - lo, 0) - (hi - lo) capped at 0, + hi)
  floatCase({
    file: 'hardtanh',
    covers: ['_calculate_hardtanh_'],
    entry: '_calculate_hardtanh_<false, 8>(8, 0x4000u, 0xc0a0u, 0x4040u)',
    ref: (x) => (Number.isNaN(x) ? undefined : Math.min(Math.max(x, -2), 3)),
    tol: { pcc: 0.99, cite: `${TEST_COMPOSITE} test_unary_composite_hardtanh_ttnn (compare_pcc)` },
    gen: uniform(-10, 10),
    what: 'hardtanh(x, -2, 3)',
  }),
];

/** FP32 inputs: half small integers -10..10 (so equalities with integer thresholds occur), half uniform. */
function intsAndUniform(rng: K.Rng): Uint32Array {
  const u = uniform(-10, 10)(rng);
  for (let i = 0; i < u.length; i += 2) u[i] = K.f32ToBits(rng.below(21) - 10);
  return u;
}

const TEST_EQUAL = `${TEST_UNARY} (torch.equal)`;
/** Comparisons against zero: -0.0 and NaN are excluded. SFPSETCC tests the bit pattern (LT0 = sign bit, EQ0
 * = all bits zero, ISA SFPSETCC.md) and the FP32 SFPLOAD keeps -0, so -0.0 counts as negative and non-zero. */
const zeroRef = (f: (x: number) => boolean) => (x: number) =>
  Number.isNaN(x) || Object.is(x, -0) ? undefined : f(x) ? 1 : 0;
const ZERO_NOTE = '-0.0 and NaN not checked (SFPSETCC tests the bit pattern: -0.0 is negative and non-zero)';

const ZERO_COMPS: [string, (x: number) => boolean][] = [
  ['equal_zero', (x) => x === 0],
  ['not_equal_zero', (x) => x !== 0],
  ['less_than_zero', (x) => x < 0],
  ['greater_than_equal_zero', (x) => x >= 0],
  ['greater_than_zero', (x) => x > 0],
  ['less_than_equal_zero', (x) => x <= 0],
];
const UNARY_COMPS: [string, (x: number, s: number) => boolean][] = [
  ['unary_eq', (x, s) => x === s],
  ['unary_ne', (x, s) => x !== s],
  ['unary_gt', (x, s) => x > s],
  ['unary_lt', (x, s) => x < s],
  ['unary_ge', (x, s) => x >= s],
  ['unary_le', (x, s) => x <= s],
];

SFPI_CASES.push(
  floatCase({
    file: 'relu',
    covers: ['_relu_max_'],
    entry: '_relu_max_<sfpi::vFloat, false, 8>(0x40000000u)',
    ref: (x) => (Number.isNaN(x) ? undefined : Math.max(0, Math.min(x, 2))),
    tol: { exact: true, cite: `${TEST_UNARY} test_relu_max (torch.equal)` },
    what: 'relu_max(x, 2.0) = clamp(x, 0, 2) (threshold as FP32 bits)',
  }),
  floatCase({
    file: 'relu',
    covers: ['_relu_min_'],
    entry: '_relu_min_<sfpi::vFloat, false, 8>(0x40000000u)',
    ref: (x) => (Number.isNaN(x) ? undefined : Math.max(x, 2)),
    tol: { exact: true, cite: `${TEST_UNARY} test_relu_min (torch.equal)` },
    what: 'relu_min(x, 2.0) = max(x, 2) (threshold as FP32 bits; SFPSWAP sign-magnitude order)',
  }),
  ...(
    [
      ['false, false, false, false', (x: number) => x < 0, 'ltz'],
      ['true, false, false, false', (x: number) => x >= 0, 'gez'],
      ['false, true, false, false', (x: number) => x === 0, 'eqz'],
      ['true, true, false, false', (x: number) => x !== 0, 'nez'],
    ] as const
  ).map(([t, f, name]) =>
    floatCase({
      file: 'comp',
      covers: ['_calculate_comp_', '_calculate_comp_init_flag_'],
      entry: `_calculate_comp_<false, ${t}, 8>(8, 1)`,
      ref: zeroRef(f),
      tol: { exact: true, cite: `${TEST_UNARY} test_unary_zero_comp_ttnn (torch.equal)` },
      gen: intsAndUniform,
      what: `${name}(x) as 1.0 / 0.0; ${ZERO_NOTE}`,
    }),
  ),
  ...ZERO_COMPS.map(([mode, f]) =>
    floatCase({
      file: 'comp',
      covers: ['_calculate_zero_comp_'],
      entry: `_calculate_zero_comp_<false, SfpuType::${mode}, 8>(1)`,
      ref: zeroRef(f),
      tol: { exact: true, cite: `${TEST_UNARY} test_unary_zero_comp_ttnn (torch.equal)` },
      gen: intsAndUniform,
      what: `${mode}(x) as 1.0 / 0.0; ${ZERO_NOTE}`,
    }),
  ),
  ...UNARY_COMPS.map(([mode, f]) =>
    floatCase({
      file: 'comp',
      covers: ['_calculate_comp_unary_'],
      // the scalar is converted to float by value (vFloat s = value)
      entry: `_calculate_comp_unary_<false, SfpuType::${mode}, 8>(2u)`,
      ref: (x) => (Number.isNaN(x) ? undefined : f(x, 2) ? 1 : 0),
      tol: { exact: true, cite: `${TEST_UNARY} test_unary_comp_ops (torch.equal)` },
      gen: intsAndUniform,
      what: `x ${mode.slice(6)} 2.0 as 1.0 / 0.0`,
    }),
  ),
);

/** tt-metal's compare_pcc (tests/ttnn/nightly/unit_tests/operations/eltwise/backward/utility_funcs.py), PCC
 * 0.99 by default: the check of the composite and backward op tests (tanh_bw, hardtanh, ...). */
export const COMPARE_PCC: SfpiTol = {
  pcc: 0.99,
  cite: 'tt-metal backward/utility_funcs.py compare_pcc (default PCC 0.99)',
};

SFPI_CASES.push(
  // tanh by SFPLUT: the table _init_tanh_ loads into LRegs 0..2 (three linear pieces on |x| < 1, < 2, >= 2)
  floatCase({
    file: 'tanh',
    covers: ['_calculate_tanh_', '_init_tanh_'],
    entry: '_calculate_tanh_<false, 8>(8)',
    init: ['_init_tanh_<false>'],
    ref: (x) => (Number.isNaN(x) ? undefined : Math.tanh(x)),
    tol: COMPARE_PCC,
    gen: uniform(-4, 4),
    what: 'tanh(x) (piecewise-linear SFPLUT approximation)',
  }),
  // with the tanh precomputed (WITH_PRECOMPUTED_TANH = 1): 1 - t^2 as one MAD t * -t + 1
  floatCase({
    file: 'tanh_derivative',
    covers: ['_calculate_tanh_derivative_'],
    entry: '_calculate_tanh_derivative_<false, 1, 8>(8)',
    ref: (t) => (Number.isNaN(t) ? undefined : 1 - t * t),
    tol: COMPARE_PCC,
    gen: uniform(-1, 1),
    what: "tanh'(x) = 1 - t^2 from t = tanh(x) in Dst",
  }),
);

// ---- the math kernels (most need SFPI constructs still being compiled: their rows show which) ----------

/** A loop over a face around `call` (a C++ expression of the vFloat `v`), for the functions that take and
 * return one vFloat. axsim's own harness code, appended to the kernel file. */
function harness(name: string, call: string): { harness: string; entry: string } {
  return {
    harness: `\nnamespace axsim_case {\ntemplate <int N>\ninline void ${name}() {\n  for (int d = 0; d < N; d++) {\n    sfpi::vFloat v = sfpi::dst_reg[0];\n    sfpi::dst_reg[0] = ${call};\n    sfpi::dst_reg++;\n  }\n}\n}  // namespace axsim_case\n`,
    entry: `axsim_case::${name}<8>`,
  };
}

const PCC = (pcc: number, test: string): SfpiTol => ({
  pcc,
  cite: `${TEST_UNARY} ${test} (assert_with_pcc ${pcc})`,
});
const finite = (f: (x: number) => number | undefined) => (x: number) =>
  Number.isFinite(x) ? f(x) : undefined;
const erf = (x: number) => {
  // Abramowitz-Stegun 7.1.26 is too coarse for a reference; a series/continued-fraction pair instead
  const ax = Math.abs(x);
  if (ax > 6) return Math.sign(x);
  if (ax < 2.5) {
    let sum = 0;
    let term = x;
    for (let n = 0; n < 200; n++) {
      sum += term / (2 * n + 1);
      term *= (-x * x) / (n + 1);
      if (Math.abs(term) < 1e-18) break;
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc continued fraction (Lentz) for the tail
  let f = ax;
  let c = ax;
  let d = 0;
  for (let n = 1; n < 300; n++) {
    const an = n / 2;
    d = ax + an * d;
    d = 1 / d;
    c = ax + an / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  const erfc = Math.exp(-ax * ax) / (f * Math.sqrt(Math.PI));
  return Math.sign(x) * (1 - erfc);
};
const gelu = (x: number) => 0.5 * x * (1 + erf(x / Math.SQRT2));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const cls =
  (f: (bits: number) => boolean): CorpusCase['expect'] =>
  (x) =>
    f(x) ? 0x3f800000 : 0;

SFPI_CASES.push(
  // exp2 in FP32 Dst mode (_sfpu_exp_fp32_accurate_ of x * ln 2)
  floatCase({
    file: 'exp2',
    covers: ['_calculate_exp2_', '_init_exp2_'],
    entry: '_calculate_exp2_<false, true, 8>',
    init: ['_init_exp2_<false>'],
    ref: finite((x) => 2 ** x),
    tol: PCC(0.9998, 'test_exp (the exp family)'),
    gen: uniform(-10, 10),
    what: '2^x',
  }),
  floatCase({
    file: 'elu',
    covers: ['_calculate_elu_'],
    entry: '_calculate_elu_<false, true, 8>(0x3f800000u)',
    ref: finite((x) => (x < 0 ? Math.expm1(x) : x)),
    tol: COMPARE_PCC,
    gen: uniform(-5, 5),
    what: 'elu(x, alpha 1.0)',
  }),
  floatCase({
    file: 'sigmoid',
    covers: ['_calculate_sigmoid_', '_init_sigmoid_'],
    entry: '_calculate_sigmoid_<false, 8>(8)',
    init: ['_init_sigmoid_<false>'],
    ref: finite(sigmoid),
    tol: PCC(0.999, 'test_sigmoid'),
    gen: uniform(-8, 8),
    what: 'sigmoid(x)',
  }),
  floatCase({
    file: 'silu',
    covers: ['_calculate_silu_'],
    entry: '_calculate_silu_<false, 8>',
    ref: finite((x) => x * sigmoid(x)),
    // Decision (docs/tensix-llk-corpus.md): the tolerance of the upstream test that runs this kernel
    // (tt-llk's eltwise unary SFPU test, Float32 output); tt-metal's silu test (atol 0.011) is stated
    // in the row, which this piecewise approximation misses on three bands of |x|
    tol: {
      rtol: 0.05,
      atol: 0.05,
      cite: 'tt-llk tests/python_tests/test_zzz_eltwise_unary_sfpu.py (the test of this kernel: helpers/utils.py passed_test, Float32 isclose atol 0.05, rtol 0.05)',
    },
    gen: uniform(-100, 100),
    what:
      "silu(x) = x * sigmoid(x) with the kernel's own sigmoid (0.229|x| + 0.5 up to 1, a degree-4 polynomial up to 5, " +
      "then 1; 1 - that for x < 0), which misses tt-metal's test_unary_silu_swish_ttnn bound (atol 0.011) for " +
      '2.56 <= |x| <= 3.21, 3.88 <= |x| <= 4.64 and 4.84 <= |x| <= 6.35 (its formula in binary64: 27 of these 1024 inputs)',
  }),
  floatCase({
    file: 'log',
    covers: ['_calculate_log_', '_calculate_log_body_', '_init_log_'],
    entry: '_calculate_log_<false, false, 8>(8, 0)',
    init: ['_init_log_<false>'],
    ref: finite((x) => (x > 0 ? Math.log(x) : undefined)),
    tol: PCC(0.9999, 'test_log'),
    gen: uniform(0.01, 100),
    what: 'ln(x), x in (0, 100)',
  }),
  floatCase({
    file: 'log',
    covers: ['_calculate_log_body_no_init_'],
    ...harness('log_no_init', 'ckernel::sfpu::_calculate_log_body_no_init_(v)'),
    ref: finite((x) => (x > 0 ? Math.log(x) : undefined)),
    tol: PCC(0.9999, 'test_log'),
    gen: uniform(0.01, 100),
    what: 'ln(x) (no programmable constants), x in (0, 100)',
  }),
  floatCase({
    file: 'recip',
    arches: ['wormhole'],
    covers: [
      '_calculate_reciprocal_',
      '_calculate_reciprocal_internal_',
      '_init_reciprocal_',
      '_init_sfpu_reciprocal_',
    ],
    entry: '_calculate_reciprocal_<false, 8, true>(8)',
    init: ['_init_reciprocal_<false, true>'],
    ref: finite((x) => 1 / x),
    tol: COMPARE_PCC,
    gen: (rng) => {
      const v = uniform(0.125, 8)(rng);
      for (let i = 0; i < v.length; i += 2) v[i] = (v[i]! | 0x80000000) >>> 0;
      return v;
    },
    what: '1/x, |x| in [1/8, 8)',
  }),
  floatCase({
    file: 'sqrt',
    covers: ['_calculate_sqrt_', '_calculate_sqrt_internal_', '_calculate_sqrt_body_', '_init_sqrt_'],
    entry: '_calculate_sqrt_<false, 8, true, false>(8)',
    init: ['_init_sqrt_<false>'],
    // x < 0.0F in the kernel is SFPSETCC LT0, a sign-bit test (SFPSETCC.md): -0.0 takes the NaN branch
    ref: finite((x) => (x >= 0 && !Object.is(x, -0) ? Math.sqrt(x) : undefined)),
    tol: COMPARE_PCC,
    gen: uniform(0, 100),
    what: 'sqrt(x), x in [0, 100); -0.0 not checked (the kernel tests x < 0 on the sign bit, so -0.0 gives NaN)',
  }),
  ...(
    [
      ['rsqrt_compat', (x: number) => 1 / Math.sqrt(x)],
      ['sqrt_compat', Math.sqrt],
      ['reciprocal_compat', (x: number) => 1 / x],
    ] as const
  ).map(([name, f]) =>
    floatCase({
      file: 'rsqrt_compat',
      covers: [`_calculate_${name}_`],
      entry: `_calculate_${name}_<false, 8, true>(8)`,
      ref: finite((x) => (x > 0 ? f(x) : undefined)),
      tol: COMPARE_PCC,
      gen: uniform(0.01, 100),
      what: `${name.replace('_compat', '')}(x), x in (0, 100)`,
    }),
  ),
  floatCase({
    file: 'gelu',
    covers: ['_calculate_gelu_', '_calculate_gelu_accurate_', '_init_gelu_'],
    entry: '_calculate_gelu_<false, 8>',
    init: ['_init_gelu_<false>'],
    ref: finite(gelu),
    tol: PCC(0.9996, 'test_gelu'),
    gen: uniform(-5, 5),
    what: 'gelu(x) (erf form)',
  }),
  floatCase({
    file: 'gelu',
    covers: ['_calculate_gelu_', '_calculate_gelu_appx_', '_init_gelu_'],
    entry: '_calculate_gelu_<true, 8>',
    init: ['_init_gelu_<true>'],
    ref: finite(gelu),
    tol: PCC(0.9996, 'test_gelu'),
    gen: uniform(-5, 5),
    what: 'gelu(x), approximate mode',
  }),
  floatCase({
    file: 'gelu',
    covers: ['_calculate_gelu_core_'],
    // the exact-mode core: the tanh argument sqrt(2/pi) * (x + 0.044715 x^3), constants as FP16B
    ...harness('gelu_core', 'ckernel::sfpu::_calculate_gelu_core_<false>(v)'),
    ref: finite((x) => Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)),
    tol: COMPARE_PCC,
    gen: uniform(-5, 5),
    what: 'gelu core: sqrt(2/pi) * (x + 0.044715 x^3)',
  }),
  floatCase({
    file: 'gelu',
    covers: ['_calculate_gelu_derivative_', '_init_gelu_derivative_'],
    entry: '_calculate_gelu_derivative_<false, 8>',
    init: ['_init_gelu_derivative_<false>'],
    ref: finite(
      (x) => 0.5 * (1 + erf(x / Math.SQRT2)) + (x * Math.exp(-0.5 * x * x)) / Math.sqrt(2 * Math.PI),
    ),
    tol: COMPARE_PCC,
    gen: uniform(-5, 5),
    what: "gelu'(x)",
  }),
  floatCase({
    file: 'trigonometry',
    covers: ['_calculate_sine_'],
    entry: '_calculate_sine_<false, 8>(8)',
    ref: finite(Math.sin),
    tol: PCC(0.9999, 'test_sin'),
    gen: uniform(-6, 6),
    what: 'sin(x)',
  }),
  floatCase({
    file: 'trigonometry',
    covers: ['_calculate_cosine_'],
    entry: '_calculate_cosine_<false, 8>(8)',
    ref: finite(Math.cos),
    tol: PCC(0.999, 'test_cos'),
    gen: uniform(-6, 6),
    what: 'cos(x)',
  }),
  floatCase({
    file: 'trigonometry',
    covers: ['_calculate_acosh_', '_init_inverse_hyperbolic_'],
    entry: '_calculate_acosh_<false, 8>',
    init: ['_init_inverse_hyperbolic_<false>'],
    ref: finite(Math.acosh),
    tol: { pcc: 0.999, cite: `${TEST_UNARY} test_unary_acosh_ttnn (assert_with_pcc 0.999)` },
    gen: uniform(1, 100),
    what: 'acosh(x), x in [1, 100)',
  }),
  floatCase({
    file: 'trigonometry',
    covers: ['_calculate_asinh_', '_init_inverse_hyperbolic_'],
    entry: '_calculate_asinh_<false, 8>',
    init: ['_init_inverse_hyperbolic_<false>'],
    ref: finite(Math.asinh),
    tol: { pcc: 0.9999, cite: `${TEST_UNARY} test_unary_asinh_ttnn (assert_with_pcc 0.9999)` },
    gen: uniform(-100, 100),
    what: 'asinh(x)',
  }),
  floatCase({
    file: 'trigonometry',
    covers: ['_calculate_atanh_', '_init_atanh_'],
    entry: '_calculate_atanh_<false, true, 8>',
    init: ['_init_atanh_<false>'],
    ref: finite(Math.atanh),
    tol: { pcc: 0.999, cite: `${TEST_UNARY} test_unary_atanh_ttnn (assert_with_pcc 0.999)` },
    gen: uniform(-0.9, 1),
    what: 'atanh(x), x in [-0.9, 1)',
  }),
  floatCase({
    file: 'cdf',
    covers: ['_calculate_cdf_appx_', '_calculate_pos_cdf_appx_'],
    ...harness('cdf', 'ckernel::sfpu::_calculate_cdf_appx_(v, false)'),
    ref: finite((x) => 0.5 * (1 + erf(x / Math.SQRT2))),
    tol: COMPARE_PCC,
    gen: uniform(-4, 4),
    what: 'normal CDF Phi(x) (approximation)',
  }),
  floatCase({
    file: 'exp',
    covers: ['_calculate_exponential_body_'],
    ...harness('exp_body', 'ckernel::sfpu::_calculate_exponential_body_<false>(v)'),
    init: ['_init_exponential_<false, false, 0x3F800000>'],
    ref: finite(Math.exp),
    tol: PCC(0.9998, 'test_exp'),
    gen: uniform(-10, 10),
    what: 'e^x (exact mode body)',
  }),
  floatCase({
    file: 'exp',
    covers: ['_calculate_exponential_approx_'],
    ...harness('exp_approx', 'ckernel::sfpu::_calculate_exponential_approx_(v)'),
    init: ['_init_exponential_<true, false, 0x3F800000>'],
    ref: finite(Math.exp),
    tol: PCC(0.9998, 'test_exp'),
    gen: uniform(-10, 10),
    what: 'e^x (approximate body)',
  }),
  floatCase({
    file: 'exp',
    covers: ['_calculate_exponential_piecewise_'],
    ...harness(
      'exp_piecewise',
      'ckernel::sfpu::_calculate_exponential_piecewise_<false, false, false>(v, 0x3f80)',
    ),
    init: ['_init_exponential_<false, false, 0x3F800000>'],
    ref: finite(Math.exp),
    tol: PCC(0.9998, 'test_exp'),
    gen: uniform(-10, 10),
    what: 'e^x (piecewise, exact mode)',
  }),
  floatCase({
    file: 'rounding_ops',
    covers: ['_calculate_round_'],
    entry: '_calculate_round_<false, 8>(2)',
    ref: finite((x) => Math.round(x * 100) / 100),
    tol: COMPARE_PCC,
    gen: uniform(-100, 100),
    what: 'round(x, 2 decimals)',
  }),
  floatCase({
    file: 'activations',
    covers: ['_calculate_activation_', '_init_hardsigmoid_'],
    entry: '_calculate_activation_<false, ActivationType::Hardsigmoid, 8>',
    init: ['_init_hardsigmoid_<false>'],
    ref: finite((x) => Math.min(Math.max(x / 6 + 0.5, 0), 1)),
    tol: {
      rtol: 1e-5,
      atol: 0.0004,
      cite: `${TEST_UNARY} test_unary_hardsigmoid_ttnn (float32: rtol 1e-5, atol 0.0004)`,
    },
    gen: uniform(-100, 100),
    what: 'hardsigmoid(x)',
  }),
  floatCase({
    file: 'activations',
    covers: ['_calculate_activation_'],
    // alpha 2.0, 1/alpha 0.5, as FP32 bit patterns (Converter::as_float)
    entry: '_calculate_activation_<false, ActivationType::Celu, 8>(0x40000000u, 0x3f000000u)',
    ref: finite((x) => (x < 0 ? 2 * Math.expm1(x / 2) : x)),
    tol: { pcc: 0.99, cite: `${TEST_COMPOSITE} test_unary_celu (compare_pcc)` },
    gen: uniform(-100, 100),
    what: 'celu(x, alpha 2.0)',
  }),
  floatCase({
    file: 'threshold',
    covers: ['_calculate_threshold_'],
    entry: '_calculate_threshold_<false, 8, float>(1.0f, 5.0f)',
    ref: (x) => (Number.isNaN(x) ? undefined : x <= 1 ? 5 : x),
    tol: EXACT_UNARY,
    what: 'threshold(x, 1.0, 5.0): x <= 1 -> 5',
  }),
);

/** isinf / isposinf / isneginf / isnan / isfinite through the dispatcher: 1.0 where it holds, else 0.0. */
const CLASSIFY: [string, (b: number) => boolean][] = [
  ['isinf', (b) => (b & 0x7fffffff) === 0x7f800000],
  ['isposinf', (b) => b >>> 0 === 0x7f800000],
  ['isneginf', (b) => b >>> 0 === 0xff800000],
  ['isnan', (b) => K.isNanBits(b)],
  ['isfinite', (b) => ((b >>> 23) & 0xff) !== 0xff],
];
SFPI_CASES.push(
  ...CLASSIFY.map(
    ([op, f]): CorpusCase => ({
      file: 'isinf_isnan',
      covers: ['_calculate_sfpu_isinf_isnan_', `_calculate_${op}_`],
      entry: `_calculate_sfpu_isinf_isnan_<SfpuType::${op}, false, 8>`,
      inputs: ['fp32'],
      out: { tile: 0, view: 'raw32' },
      expect: cls(f),
      what: `${op}(x) as 1.0 / 0.0 (tolerance exact: classification)`,
    }),
  ),
);

/** Integer kernels (Int32 Dst): exact. */
const INT_TOL = `${TEST_UNARY} test_unary_zero_comp_ttnn / test_unary_comp_ops (torch.equal)`;
SFPI_CASES.push(
  {
    file: 'negative',
    covers: ['_calculate_negative_int_'],
    entry: '_calculate_negative_int_<false, 8>',
    inputs: ['int32'],
    out: { tile: 0, view: 'raw32' },
    expect: (x) => -(x | 0) >>> 0,
    what: '-x (int32; exact)',
  },
  ...ZERO_COMPS.map(
    ([mode, f]): CorpusCase => ({
      file: 'comp',
      covers: ['_calculate_zero_comp_int_'],
      entry: `_calculate_zero_comp_int_<false, SfpuType::${mode}, 8>`,
      inputs: ['int32'],
      out: { tile: 0, view: 'raw32' },
      // INT_MIN is not checked: vInt loads read Dst in sign-magnitude (SFPLOAD INT32_TO_SM), where
      // 0x80000000 is -0, so it compares as zero
      expect: (x) => (x >>> 0 === 0x80000000 ? undefined : f(x | 0) ? 1 : 0),
      what: `${mode}(x) as 1 / 0 (int32; INT_MIN not checked: it reads as sign-magnitude -0; ${INT_TOL})`,
    }),
  ),
  ...UNARY_COMPS.map(
    ([mode, f]): CorpusCase => ({
      file: 'comp',
      covers: ['_calculate_comp_unary_int_'],
      entry: `_calculate_comp_unary_int_<false, SfpuType::${mode}, 8>(13)`,
      inputs: ['int32'],
      gen: (rng) => K.int32Inputs(rng, 1024, -40, 40),
      out: { tile: 0, view: 'raw32' },
      expect: (x) => (f(x | 0, 13) ? 1 : 0),
      what: `x ${mode.slice(6)} 13 as 1 / 0 (int32; ${INT_TOL})`,
    }),
  ),
);

/** tt-metal's FP32 binary checks (tests/ttnn/unit_tests/operations/eltwise/test_binary_fp32.py:
 * torch.allclose(..., atol=1e-10, rtol=1e-5)). */
const BINARY_FP32: SfpiTol = {
  rtol: 1e-5,
  atol: 1e-10,
  cite: 'tt-metal tests/ttnn/unit_tests/operations/eltwise/test_binary_fp32.py (allclose rtol 1e-5, atol 1e-10)',
};
/** Two FP32 input tiles: moderate values of both signs (|x| in [2^-20, 2^20]) and some zeros. */
const binaryGen = (rng: K.Rng) => K.finiteFp32Inputs(rng);

SFPI_CASES.push(
  ...(
    [
      ['ADD', (a: number, b: number) => a + b],
      ['SUB', (a: number, b: number) => a - b],
      ['MUL', (a: number, b: number) => a * b],
      ['RSUB', (a: number, b: number) => b - a],
      ['DIV', (a: number, b: number) => a / b],
    ] as const
  ).map(
    ([op, f]): CorpusCase => ({
      file: 'binary',
      covers: ['_calculate_sfpu_binary_'],
      entry: `_calculate_sfpu_binary_<false, BinaryOp::${op}, 8>(0, 1, 0)`,
      init: op === 'DIV' ? ['_sfpu_binary_init_<false, BinaryOp::DIV>'] : [],
      api: 'binary',
      inputs: ['fp32', 'fp32'],
      gen: binaryGen,
      out: { tile: 0, view: 'raw32', float: true },
      expect: (a, b) => {
        const x = K.bitsToF32(a);
        const y = K.bitsToF32(b);
        // denormal operands read as zero (SFPMAD.md); a zero divisor is not checked
        const xa = ((a >>> 23) & 0xff) === 0 ? 0 : x;
        const yb = ((b >>> 23) & 0xff) === 0 ? 0 : y;
        if (op === 'DIV' && yb === 0) return undefined;
        return expected(f(xa, yb), BINARY_FP32);
      },
      sfpi: {
        ref: ([a, b]) => {
          const xa = ((a! >>> 23) & 0xff) === 0 ? 0 : K.bitsToF32(a!);
          const yb = ((b! >>> 23) & 0xff) === 0 ? 0 : K.bitsToF32(b!);
          return op === 'DIV' && yb === 0 ? undefined : f(xa, yb);
        },
        tol: BINARY_FP32,
      },
      what: `${op.toLowerCase()}(a, b) in FP32; tolerance rtol 1e-5 atol 1e-10 (${BINARY_FP32.cite})`,
    }),
  ),
  {
    file: 'binary',
    covers: ['_calculate_sfpu_binary_', '_calculate_sfpu_binary_power_'],
    entry: '_calculate_sfpu_binary_<false, BinaryOp::POW, 8>(0, 1, 0)',
    init: ['_sfpu_binary_init_<false, BinaryOp::POW>'],
    api: 'binary',
    inputs: ['fp32', 'fp32'],
    gen: (rng, t) => (t === 0 ? uniform(0.1, 10)(rng) : uniform(-3, 3)(rng)),
    out: { tile: 0, view: 'raw32', float: true },
    expect: (a, b) => expected(K.bitsToF32(a) ** K.bitsToF32(b), COMPARE_PCC),
    sfpi: { ref: ([a, b]) => K.bitsToF32(a!) ** K.bitsToF32(b!), tol: COMPARE_PCC },
    what: `pow(a, b), a in [0.1, 10), b in [-3, 3); tolerance PCC >= 0.99 (${COMPARE_PCC.cite})`,
  },
);

// Blackhole: the SFPI reciprocal (approx_recip + two Newton steps) with its init's 2.0 in vConstFloatPrgm0
SFPI_CASES.push(
  floatCase({
    file: 'recip',
    arches: ['blackhole'],
    covers: ['_init_sfpu_reciprocal_'],
    ...harness('sfpu_recip', 'ckernel::sfpu::_sfpu_reciprocal_<2>(v)'),
    init: ['_init_sfpu_reciprocal_<false>'],
    ref: finite((x) => 1 / x),
    tol: COMPARE_PCC,
    gen: (rng) => {
      const v = uniform(0.125, 8)(rng);
      for (let i = 0; i < v.length; i += 2) v[i] = (v[i]! | 0x80000000) >>> 0;
      return v;
    },
    what: '1/x by approx_recip and two Newton-Raphson steps, |x| in [1/8, 8)',
  }),
);
