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
const COMPARE_PCC: SfpiTol = {
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
