/**
 * The tt-llk corpus runner (issue 11 acceptance): every public `_calculate_*` / `_init_*` function of
 * tt-llk's TTI-style and mixed `ckernel_sfpu_*.h` files, run unchanged with the LLK environment on a
 * local checkout (AXSIM_TT_LLK), its Dst output compared with the independent definitions of
 * checks.ts, in both the SFPLOADMACRO and the DISABLE_SFPLOADMACRO form where the function has them.
 * The checkout is read at run time; nothing of it is stored in the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { EXTRA_CASES } from './cases-extra.ts';
import { SFPI_CASES, type SfpiCheck, sfpiStats } from './cases-sfpi.ts';
import * as K from './checks.ts';
import type { LlkApiKind, LlkVectorMode } from './driver.ts';
import { applyHwConfigure, compileLlk, type KernelCompiler, runCompiled } from './run.ts';

export type FileKind = 'tti' | 'mixed' | 'sfpi' | 'none';
export type FnKind = 'tti' | 'mixed' | 'sfpi' | 'plain';

export interface CorpusFunction {
  name: string;
  line: number;
  kind: FnKind;
  /** Uses SFPLOADMACRO / DISABLE_SFPLOADMACRO in its body. */
  macro: boolean;
  /** The text between `template <` and `>` (absent for a plain function), and the parameter list. */
  template?: string;
  params?: string;
}
export interface CorpusFile {
  arch: Arch;
  file: string;
  path: string;
  kind: FileKind;
  functions: CorpusFunction[];
}

export const ARCH_DIRS: Record<Arch, string> = {
  wormhole: 'tt_llk_wormhole_b0',
  blackhole: 'tt_llk_blackhole',
};

const SFPI_RE =
  /\bv(Float|Int|UInt)\b|\bv_if\b|dst_reg\s*\[|l_reg\s*\[|sfpi::(abs|exexp|setsgn|float_to|int32_to|reinterpret|lz|addexp|setexp|setman|exman|shft|approx|vec_min|vec_max|reciprocal|s2vFloat)|\bvConst(0|1|Neg1|0p8373)\b|_sfpu_exp_|_sfpu_reciprocal_/;
const TTI_RE = /\bTTI?_[A-Z]/;
/** The LLK-level entry points of the TTI files whose names are not _calculate_* / _init_*. */
const PRIMARY = new Set([
  '_add_int_',
  '_sub_int_',
  '_mul_int_',
  '_cast_fp32_to_fp16a_',
  '_quant_int32_',
  '_dequant_int32_',
  '_requant_int32_',
  '_relu_max_',
  '_relu_min_',
  '_cumsum_init_',
  '_init_topk',
  '_bitonic_topk_phases_steps',
  '_bitonic_topk_merge',
  '_bitonic_topk_rebuild',
  '_sfpu_load_imm32_',
  '_sfpu_load_imm16_',
  '_sfpu_load_config32_',
  '_init_sfpu_config_reg',
]);

/** Blanks comments (keeping newlines, so line numbers hold), scanning left to right so that `//***` is a
 * line comment and comment-like text inside string and character literals stays. */
export function stripComments(s: string): string {
  return s.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (m) =>
    m.startsWith('//') || m.startsWith('/*') ? m.replace(/[^\n]/g, ' ') : m,
  );
}

/** Classifies one kernel file and lists its public functions (definitions only). */
export function classify(
  arch: Arch,
  path: string,
  text: string,
  isPublic: (name: string) => boolean = (name) =>
    name.startsWith('_calculate_') || name.startsWith('_init_') || PRIMARY.has(name),
): CorpusFile {
  const src = stripComments(text);
  const tti = TTI_RE.test(src);
  const sfpi = SFPI_RE.test(src);
  const kind: FileKind = tti && sfpi ? 'mixed' : tti ? 'tti' : sfpi ? 'sfpi' : 'none';
  const functions: CorpusFunction[] = [];
  const re =
    /(?:template\s*<((?:[^<>]|<[^<>]*>)*)>\s*)?(?:(?:inline|static|constexpr|sfpi_inline)\s+)*[\w:]+(?:<[^>]*>)?[\s*&]+(\w+)\s*\(([^;{]*)\)\s*\{/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const name = m[2]!;
    if (!isPublic(name)) continue;
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let end = open;
    for (; end < src.length; end++) {
      if (src[end] === '{') depth++;
      else if (src[end] === '}' && --depth === 0) break;
    }
    const body = src.slice(open, end + 1);
    const t = TTI_RE.test(body);
    const s = SFPI_RE.test(m[0] + body);
    functions.push({
      name,
      line: src.slice(0, m.index + m[0].indexOf(name)).split('\n').length,
      kind: t && s ? 'mixed' : t ? 'tti' : s ? 'sfpi' : 'plain',
      macro: body.includes('SFPLOADMACRO'),
      ...(m[1] !== undefined ? { template: m[1] } : {}),
      params: m[3]!,
    });
  }
  const file = path.split('/').pop()!;
  return { arch, file, path, kind, functions };
}

/** The TTI and mixed kernel files of a checkout (sorted), classified. */
export function discover(root: string, arch: Arch): CorpusFile[] {
  const dir = join(root, ARCH_DIRS[arch], 'common/inc/sfpu');
  return readdirSync(dir)
    .filter((f) => /^ckernel_sfpu_\w+\.h$/.test(f))
    .sort()
    .map((f) => classify(arch, join(dir, f), readFileSync(join(dir, f), 'utf8')))
    .filter((c) => c.kind === 'tti' || c.kind === 'mixed' || c.kind === 'sfpi');
}

// ---- cases ---------------------------------------------------------------------------------------------

type InKind = 'fp32' | 'int32' | 'uint16' | 'uint32' | 'shift' | 'bf16';
/** raw32: the 32-bit view; hi16: its high half (BF16 results); bf16of32: the 32-bit view with the low half
 * cleared (a BF16 result whose low half the kernel leaves undefined), compared as FP32; raw16: the 16-bit view as stored (LO16
 * stores; with DBG_FEATURE_DISABLE bit 11, the high halves of 32-bit rows); bf16 / fp16: the 16-bit view
 * unshuffled (SFPSTORE FP16B / FP16A). */
type OutView = 'raw32' | 'hi16' | 'raw16' | 'bf16' | 'fp16' | 'bf16of32' | 'bf16w';

export interface CorpusCase {
  /** Kernel file (`typecast` for ckernel_sfpu_typecast.h). */
  file: string;
  /** Public functions this case runs (the entry's, and its init's). */
  covers: string[];
  arches?: Arch[];
  entry: string;
  init?: string[];
  api?: LlkApiKind;
  sfpuType?: string;
  vectorMode?: LlkVectorMode;
  /** Input tiles, tile i at Dst tile i (32-bit view). */
  inputs: InKind[];
  /** Output tile and how its 32-bit elements are read. */
  /** `float`: an FP32 result, whose denormals the SFPU's FP32 store flushes to zero (SFPU-NOTES A2). */
  out: { tile: number; view: OutView; float?: boolean; lreg?: number };
  /** A check of the whole output tile at once (returns a failure text, or null): for random results. */
  tileCheck?: (ins: Uint32Array[], out: Uint32Array, m: TensixMachine) => string | null;
  /** A check on machine state instead of Dst (returns a failure text, or null). */
  stateCheck?: (m: TensixMachine) => string | null;
  /** The definition: expected output element from the input elements (undefined = not checked). */
  expect?: (...xs: number[]) => Expected;
  /** Or for whole-tile operations: the expected 1024 output elements (undefined = not checked). */
  expectTile?: (ins: Uint32Array[]) => Expected[];
  /** How inputs are generated (default by kind). */
  gen?: (rng: K.Rng, tile: number) => Uint32Array;
  /** Calls / options beyond the defaults. */
  seed?: number;
  /** The unpacked data format `_llk_math_hw_configure_` is given (default from the first input). */
  dataFormat?: string;
  /** Evidence for a finding: run sequentially (each instruction completes before the next) instead of
   * on the cycle model; `forms` limits the forms run. The detail says so. */
  sequential?: boolean;
  forms?: ('macro' | 'disable')[];
  /** is_fp32_dest_acc_en (default true); false = a 16-bit Dst (tiles of 64 16-bit rows). */
  fp32Dest?: boolean;
  /** L1 blocks the kernel's RISC-V code reads (e.g. a row map behind a pointer argument). */
  memory?: (ins: Uint32Array[]) => { name: string; base: number; bytes: Uint8Array }[];
  /** Declarations placed before the driver function (e.g. a variable passed by reference). */
  globals?: string[];
  /** What we know about a failure of this case (added to the detail when it fails). */
  note?: string;
  what: string;
  /** SFPI cases (cases-sfpi.ts): the double reference for the max ULP error and a PCC tolerance; the
   * run also reports cycles per 32 elements (the kernel's cycles over a baseline run without it). */
  sfpi?: SfpiCheck;
  /** C++ appended after the kernel file (axsim's own code): a loop around a function that works on one
   * vFloat (`_calculate_exponential_body_(v)`, `_calculate_cdf_appx_(v)`, ...), for the entry to call. */
  harness?: string;
}

const T = (name: string) => `_calculate_typecast_${name}_`;
const I = (name: string) => `_init_typecast_${name}_`;

function typecast(
  name: string,
  inKind: InKind,
  view: OutView,
  f: (x: number) => Expected,
  init = true,
): CorpusCase {
  return {
    file: 'typecast',
    covers: init ? [T(name), I(name)] : [T(name)],
    entry: `${T(name)}<false, 8>`,
    init: init ? [`${I(name)}<false>`] : [],
    sfpuType: 'typecast',
    inputs: [inKind],
    out: { tile: 0, view, float: name.endsWith('fp32') || name.endsWith('fp16b') },
    expect: f,
    what: name.replace(/_to_/, ' -> '),
  };
}

/** An FP32 result (`mant` mantissa bits: 23, or 7 for BF16 in the high half) within `ulps` units in
 * the last place of `bits`. */
function withinUlps(bits: number, ulps: number, mant = 23): Expected {
  const v = K.bitsToF32(bits);
  return { value: bits, tol: ulps * 2 ** (Math.floor(Math.log2(Math.abs(v) || 1)) - mant) };
}

function binaryInt(
  file: string,
  fn: string,
  tmpl: string,
  expect: (a: number, b: number) => Expected,
  second: InKind = 'int32',
  sfpuType?: string,
  init?: string[],
): CorpusCase {
  return {
    file,
    covers: [fn, ...(init ?? []).map((s) => s.replace(/<.*$/, ''))],
    entry: `${fn}<${tmpl}>(0, 1, 0)`,
    init,
    api: 'binary',
    sfpuType,
    inputs: ['int32', second],
    out: { tile: 0, view: 'raw32' },
    expect,
    what: fn,
  };
}

/** The exponential kernel's case; the evidence row below runs its DISABLE form without timing. */
const EXP_CASE: CorpusCase = {
  file: 'exp',
  covers: ['_calculate_exponential_', '_init_exponential_'],
  entry: '_calculate_exponential_<true, false, 8, true, false, true>(0x3F80)',
  init: ['_init_exponential_<true, true, 0x3F800000, true>()'],
  inputs: ['fp32'],
  gen: rangeInputs(-95, 88),
  out: { tile: 0, view: 'raw32', float: true },
  expectTile: (ins) =>
    Array.from(ins[0]!, (x) => {
      const e = Math.exp(K.bitsToF32(x));
      return { value: K.f32ToBits(Math.fround(e)), tol: 0.065 * e + 2 ** -126 };
    }),
  what: 'e^x, fast approximation: relative error <= 6.5% (Schraudolph: 2^f ~ 1+f is at most 6.14% high), below 2^-126 any value under 2^-126',
  note:
    'Wormhole DISABLE_SFPLOADMACRO form: SFP_STOCH_RND reads the SFPMAD result in the next instruction, which SFPMAD.md ' +
    '("Instruction scheduling") forbids on Wormhole (no SFPNOP); run sequentially, ignoring timing, it equals the macro form bit for bit',
};

export const CASES: CorpusCase[] = [
  // SFP_STOCH_RND rounds to nearest with ties away from zero (spec 003, SFPU-NOTES B5); SFPCAST
  // (int -> FP32) rounds ties to even. The kernels' conversions are those steps, in that order.
  typecast('fp32_to_uint16', 'fp32', 'raw16', K.fp32ToUint16TiesAway),
  typecast('uint16_to_fp16b', 'uint16', 'hi16', (x) => K.bf16TiesAway(K.uint16ToFp32(x))),
  typecast('int32_to_fp16b', 'int32', 'hi16', (x) => K.bf16TiesAway(K.int32ToFp32(x))),
  typecast('fp32_to_int32', 'fp32', 'raw32', K.fp32ToInt32, false),
  typecast('fp32_to_uint32', 'fp32', 'raw32', K.fp32ToUint32, false),
  // its own integer rounding (bits + 0x7fff + lsb), stored with SFPSTORE FP16B (16 bits)
  typecast('fp32_to_fp16b', 'fp32', 'bf16', (x) => K.bf16Rne(x)),
  typecast('uint16_to_fp32', 'uint16', 'raw32', K.uint16ToFp32),
  typecast('int32_to_fp32', 'int32', 'raw32', K.int32ToFp32),
  // uint32 -> FP32 converts the low 31 bits, then adds 2^31 (two roundings): within 1 ulp
  {
    ...typecast('uint32_to_fp16b', 'uint32', 'raw32', (x) =>
      withinUlps((K.bf16TiesAway(K.uint32ToFp32(x)) << 16) >>> 0, 1, 7),
    ),
    note:
      'the SFPLOADMACRO form takes the sign with SFPSHFT2 SHFT_LREG by LReg[12], which _init_typecast_uint32_to_fp16b_ never sets to -31 ' +
      '(the uint32/int32_to_fp32 and int32_to_fp16b inits do; its reset value, 1/65536 per SoftReset.md, shifts by 0); with ' +
      "'(sfpi::vConstIntPrgm0 = -31)' added as an --init the macro form passes on both arches",
  },
  // evidence for the finding above: the macro form with the constant it needs set first
  {
    ...typecast('uint32_to_fp16b', 'uint32', 'raw32', (x) =>
      withinUlps((K.bf16TiesAway(K.uint32ToFp32(x)) << 16) >>> 0, 1, 7),
    ),
    init: ['_init_typecast_uint32_to_fp16b_<false>', '(sfpi::vConstIntPrgm0 = -31)'],
    forms: ['macro'],
    what: "uint32 -> fp16b [evidence: with '(sfpi::vConstIntPrgm0 = -31)' as one more --init]",
  },
  typecast('uint32_to_fp32', 'uint32', 'raw32', (x) => withinUlps(K.uint32ToFp32(x), 1)),
  typecast('uint16_to_uint32', 'uint16', 'raw32', (x) => x & 0xffff),
  // the kernel reads the uint32's high half with a 16-bit load at the same address: consistent only with
  // DBG_FEATURE_DISABLE bit 11, which _llk_math_hw_configure_ sets for UInt16 data with a 32-bit Dst
  { ...typecast('uint32_to_uint16', 'uint32', 'raw16', K.uint32ToUint16), dataFormat: 'UInt16' },
  typecast('int32_to_uint16', 'int32', 'raw16', K.int32ToUint16),
  binaryInt('add_int', '_add_int_', 'false, 8, InstrModLoadStore::INT32, false', K.addInt32),
  binaryInt('sub_int', '_sub_int_', 'false, 8, InstrModLoadStore::INT32, false', K.subInt32),
  {
    ...binaryInt(
      'mul_int',
      '_mul_int_',
      'false, 8',
      (a, b) => ((a & 0xffff) * (b & 0xffff)) & 0xffff,
      'uint16',
      'mul_uint16',
      ['_init_mul_int_<false>'],
    ),
    inputs: ['uint16', 'uint16'],
    out: { tile: 0, view: 'raw16' },
    what: 'uint16 * uint16 (low 16 bits)',
  },
  binaryInt(
    'shift',
    '_calculate_binary_left_shift_',
    'false, 8, InstrModLoadStore::INT32, false',
    K.shl32,
    'shift',
  ),
  // arithmetic right shift: the amounts 0..31 the operation is defined for ...
  {
    ...binaryInt(
      'shift',
      '_calculate_binary_right_shift_',
      'false, 8, InstrModLoadStore::INT32, false',
      (a, b) => ((b | 0) < 0 || (b | 0) > 31 ? undefined : K.sar32(a, b)),
      'shift',
    ),
    what: 'arithmetic right shift, amounts 0..31',
  },
  // ... and the rule the kernel's comment gives for the others ("shift_amount < 0 OR >= 32 -> 0")
  {
    ...binaryInt(
      'shift',
      '_calculate_binary_right_shift_',
      'false, 8, InstrModLoadStore::INT32, false',
      (_a, b) => ((b | 0) < 0 || (b | 0) > 31 ? 0 : undefined),
      'shift',
    ),
    what: "amounts < 0 or >= 32 give 0 (the kernel's comment)",
    note:
      'its SFPSETCC Mod1 4 (LREG_GTE0, SFPSETCC.md) leaves negative amounts out of the zeroing, so they shift left by -amount; ' +
      'for a negative value and an amount >= 32 the ones-filling block then runs on the zeroed value (0x3fffffff for 34); ' +
      'the logical and left shifts apply the rule',
  },
  binaryInt(
    'shift',
    '_calculate_logical_right_shift_',
    'false, 8, InstrModLoadStore::INT32, false',
    K.shr32,
    'shift',
  ),
  ...(['AND', 'OR', 'XOR'] as const).map((op) => ({
    ...binaryInt(
      'binary_bitwise',
      '_calculate_sfpu_binary_bitwise_',
      `false, BinaryBitwiseOp::${op}, InstrModLoadStore::INT32, 8`,
      op === 'AND'
        ? (a, b) => (a & b) >>> 0
        : op === 'OR'
          ? (a, b) => (a | b) >>> 0
          : (a, b) => (a ^ b) >>> 0,
    ),
    what: `bitwise ${op}`,
  })),
  {
    file: 'square',
    covers: ['_calculate_square_'],
    entry: '_calculate_square_<false, 8>',
    inputs: ['fp32'],
    out: { tile: 0, view: 'raw32', float: true },
    expect: K.squareFp32,
    what: 'x*x (fp32, one rounding)',
  },
  {
    file: 'cast_fp32_to_fp16a',
    covers: ['_cast_fp32_to_fp16a_'],
    entry: '_cast_fp32_to_fp16a_<false, 8>(8)',
    inputs: ['fp32'],
    out: { tile: 0, view: 'fp16', float: true },
    expect: K.fp32ToFp16aTensix,
    what: 'fp32 -> Tensix FP16A (ties away; saturating, no denormals)',
  },
  {
    file: 'fill',
    covers: ['_calculate_fill_int_'],
    entry: '_calculate_fill_int_<false, InstrModLoadStore::INT32, 8>(0x8765431u)',
    inputs: ['int32'],
    out: { tile: 0, view: 'raw32' },
    expect: () => 0x8765431,
    what: 'fill int32',
  },
  {
    file: 'relu',
    covers: ['_calculate_lrelu_'],
    entry: '_calculate_lrelu_<false>(8, 0x3e4ccccdu)',
    inputs: ['fp32'],
    out: { tile: 0, view: 'raw32', float: true },
    expect: (x) => {
      if (K.isNanBits(x) || (x & 0x7fffffff) === 0x7f800000) return x & 0x80000000 ? undefined : x;
      // negative lanes: SFPMUL x * slope + 0.0 (one rounding; denormals read and flush as zero)
      return x & 0x80000000 ? K.fmaF32(x, 0x3e4ccccd, 0) : x;
    },
    what: 'leaky relu, slope 0.2',
  },
  {
    file: 'where',
    covers: ['_calculate_where_', '_init_where_'],
    entry: '_calculate_where_<false, DataFormat::Float32, 8>(0, 1, 2, 0)',
    init: ['_init_where_<false>'],
    api: 'ternary',
    sfpuType: 'where',
    inputs: ['fp32', 'fp32', 'fp32'],
    out: { tile: 0, view: 'raw32' },
    // the kernel loads the condition as INT32 bits and tests them against 0, so -0.0 selects a
    expect: (c, a, b) => (c !== 0 ? a : b),
    what: 'where(bits(c) != 0, a, b)',
  },
];

/** Tile element index of row r, column c (row-major 32x32). */
const at = (r: number, c: number) => r * 32 + c;

function columnwise(f: (col: number[]) => Expected): (ins: Uint32Array[]) => Expected[] {
  return (ins) => {
    const out: Expected[] = new Array(1024).fill(undefined);
    for (let c = 0; c < 32; c++) out[at(0, c)] = f(Array.from({ length: 32 }, (_, r) => ins[0]![at(r, c)]!));
    return out;
  };
}

/** Column sums in FP32: the exact sum rounded once, with the error bound of any summation order of n
 * terms, (n-1) * 2^-24 * sum|x| (each partial sum rounded once; denormal terms read as zero). */
function fsumColumn(scale = 1): (col: number[]) => Expected {
  return (col) => {
    let exact = 0n;
    let absSum = 0;
    const e0 = -149 - 24;
    for (const b of col) {
      if (((b >>> 23) & 0xff) === 0) continue;
      const v = K.bitsToF32(b);
      absSum += Math.abs(v);
      const m = BigInt((b & 0x7fffff) | 0x800000) << BigInt(((b >>> 23) & 0xff) - 150 - e0);
      exact += b & 0x80000000 ? -m : m;
    }
    const value = exact === 0n ? 0 : K.roundToF32(exact < 0n, exact < 0n ? -exact : exact, e0);
    return {
      value: K.f32ToBits(K.bitsToF32(value) * scale),
      tol: (31 * 2 ** -24 * absSum + 2 ** -126) * scale,
    };
  };
}

const byValue = (pick: (a: number, b: number) => boolean) => (col: number[]) => {
  let best = col[0]!;
  for (const b of col) {
    const v = ((b >>> 23) & 0xff) === 0 ? 0 : K.bitsToF32(b);
    const w = ((best >>> 23) & 0xff) === 0 ? 0 : K.bitsToF32(best);
    if (pick(v, w)) best = b;
  }
  return ((best >>> 23) & 0xff) === 0 ? 0 : best;
};

function reduceCase(
  pool: string,
  fmt: string,
  expect: (col: number[]) => Expected,
  gen: 'f' | 'u',
): CorpusCase {
  return {
    file: 'reduce',
    covers: ['_calculate_reduce_', '_init_reduce_'],
    entry: `_calculate_reduce_<PoolType::${pool}, REDUCE_COL, DataFormat::${fmt}>()`,
    init: [`_init_reduce_<PoolType::${pool}, DataFormat::${fmt}>()`],
    vectorMode: 'none',
    inputs: [gen === 'f' ? 'fp32' : 'uint32'],
    gen: gen === 'f' ? (rng) => K.finiteFp32Inputs(rng) : undefined,
    out: { tile: 0, view: 'raw32', float: gen === 'f' },
    expectTile: columnwise(expect),
    what: `column ${pool.toLowerCase()} (${fmt}) into row 0`,
  };
}

CASES.push(
  {
    file: 'cumsum',
    covers: ['_calculate_cumsum_', '_cumsum_init_'],
    entry: '_calculate_cumsum_<false, 8>(true)',
    init: ['_cumsum_init_<false>()'],
    vectorMode: 'none',
    inputs: ['fp32'],
    gen: (rng) => K.finiteFp32Inputs(rng),
    out: { tile: 0, view: 'raw32', float: true },
    expectTile: (ins) => {
      const out: Expected[] = new Array(1024);
      for (let c = 0; c < 32; c++) {
        let acc = 0;
        for (let r = 0; r < 32; r++) {
          acc = K.addF32(acc, ins[0]![at(r, c)]!);
          out[at(r, c)] = acc;
        }
      }
      return out;
    },
    what: 'running sum down each column, one FP32 rounding per step',
  },
  reduceCase('SUM', 'Float32', fsumColumn(), 'f'),
  reduceCase('AVG', 'Float32', fsumColumn(1 / 32), 'f'),
  reduceCase(
    'MAX',
    'Float32',
    byValue((v, w) => v > w),
    'f',
  ),
  reduceCase(
    'MIN',
    'Float32',
    byValue((v, w) => v < w),
    'f',
  ),
  reduceCase('SUM', 'UInt32', (col) => col.reduce((a, b) => (a + b) >>> 0, 0), 'u'),
);

const recipTol = (bits: number) => (x: number) => {
  const v = K.bitsToF32(x);
  const r = 1 / v;
  return { value: K.f32ToBits(Math.fround(r)), tol: Math.abs(r) * 2 ** -bits };
};

/** Normal FP32 values with |x| in [2^-100, 2^100], both signs, plus ±1, ±2, ±0.5. */
function normalInputs(rng: K.Rng): Uint32Array {
  const v = new Uint32Array(1024);
  const fixed = [0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x3f000000, 0xbf000000, 0x3fc00000];
  for (let i = 0; i < 1024; i++)
    v[i] = i < fixed.length ? fixed[i]! : ((rng.next() & 0x807fffff) | ((27 + rng.below(201)) << 23)) >>> 0;
  return v;
}

/** Uniform FP32 values in [lo, hi) on a 1/1024 grid, plus some exact halves. */
function rangeInputs(lo: number, hi: number): (rng: K.Rng) => Uint32Array {
  return (rng) => {
    const v = new Uint32Array(1024);
    for (let i = 0; i < 1024; i++) {
      const x = lo + ((hi - lo) * rng.below(1 << 20)) / (1 << 20);
      v[i] = K.f32ToBits(i % 16 === 3 ? Math.round(x) + 0.5 : x);
    }
    return v;
  };
}

/** Rounds to an integer with ties away from zero (SFP_STOCH_RND's non-stochastic integer rounding). */
const roundHalfAway = (x: number) => Math.sign(x) * Math.floor(Math.abs(x) + 0.5);
/** A signmag32 integer (sign bit + 31-bit magnitude), -0 normalised to +0. */
const signMag = (v: number) => (v < 0 ? (0x80000000 | -v) >>> 0 : v >>> 0);
const fromSignMag = (b: number) => (b & 0x80000000 ? -(b & 0x7fffffff) : b & 0x7fffffff);

const ZP = 0x40400000; // zero point 3.0f
const QSCALE = (rng: K.Rng) => {
  const v = new Uint32Array(1024);
  for (let i = 0; i < 1024; i++) v[i] = K.f32ToBits(0.25 + (rng.below(1 << 16) / (1 << 16)) * 1.5);
  return v;
};
const int8Of = (f: number) => signMag(Math.max(-127, Math.min(127, roundHalfAway(K.bitsToF32(f)))));

CASES.push(
  ...(['Float32', 'UInt32'] as const).map(
    (fmt): CorpusCase => ({
      file: 'add_top_row',
      covers: ['_calculate_add_top_row_', '_init_add_top_row_'],
      entry: `_calculate_add_top_row_<DataFormat::${fmt}>(0, 1, 2)`,
      init: ['_init_add_top_row_()'],
      vectorMode: 'none',
      inputs: fmt === 'Float32' ? ['fp32', 'fp32'] : ['uint32', 'uint32'],
      gen: fmt === 'Float32' ? (rng) => K.finiteFp32Inputs(rng) : undefined,
      out: { tile: 2, view: 'raw32', float: fmt === 'Float32' },
      expectTile: (ins) =>
        Array.from({ length: 1024 }, (_, i) =>
          i < 128
            ? fmt === 'Float32'
              ? K.addF32(ins[0]![i]!, ins[1]![i]!)
              : (ins[0]![i]! + ins[1]![i]!) >>> 0
            : undefined,
        ),
      what: `tile 2 rows 0-3 = tile 0 rows 0-3 + tile 1 rows 0-3 (${fmt})`,
    }),
  ),
  {
    file: 'quant',
    covers: ['_quant_int32_', '_init_quant_zero_point_'],
    entry: '_quant_int32_<false, 8, true>(0, 1, 0)',
    init: [`_init_quant_zero_point_<false>(0x${ZP.toString(16)}u)`],
    api: 'binary',
    inputs: ['fp32', 'fp32'],
    gen: (rng, t) => (t === 0 ? rangeInputs(-200, 200)(rng) : QSCALE(rng)),
    out: { tile: 0, view: 'raw32' },
    expect: (a, s) => int8Of(K.fmaF32(a, s, ZP)),
    what: 'clamp(round(a*scale + zp), ±127) as signmag32 (ties away from zero)',
  },
  {
    file: 'quant',
    covers: ['_requant_int32_', '_init_quant_zero_point_'],
    entry: '_requant_int32_<false, 8, true>(0, 1, 0)',
    init: [`_init_quant_zero_point_<false>(0x${ZP.toString(16)}u)`],
    api: 'binary',
    inputs: ['int32', 'fp32'],
    gen: (rng, t) => {
      if (t === 1) return QSCALE(rng);
      const v = new Uint32Array(1024);
      for (let i = 0; i < 1024; i++) v[i] = signMag(rng.below(601) - 300);
      return v;
    },
    out: { tile: 0, view: 'raw32' },
    expect: (a, s) => int8Of(K.fmaF32(K.intToF32Bits(BigInt(fromSignMag(a))), s, ZP)),
    what: 'clamp(round(int(a)*scale + zp), ±127), signmag32 in and out',
  },
  {
    file: 'quant',
    covers: ['_dequant_int32_', '_init_quant_zero_point_'],
    entry: '_dequant_int32_<false, 8, true>(0, 1, 0)',
    init: [`_init_quant_zero_point_<false>(0x${((ZP | 0x80000000) >>> 0).toString(16)}u)`],
    api: 'binary',
    inputs: ['int32', 'fp32'],
    gen: (rng, t) => {
      if (t === 1) return QSCALE(rng);
      const v = new Uint32Array(1024);
      for (let i = 0; i < 1024; i++) v[i] = signMag(rng.below(255) - 127);
      return v;
    },
    out: { tile: 0, view: 'raw32', float: true },
    expect: (a, s) => K.fmaF32(K.addF32(K.intToF32Bits(BigInt(fromSignMag(a))), ZP | 0x80000000), s, 0),
    what: '(a - zp) * scale in FP32 (zp passed negated), two roundings',
  },
  EXP_CASE,
  {
    ...EXP_CASE,
    arches: ['wormhole'],
    sequential: true,
    forms: ['disable'],
    what: `the DISABLE form without timing: ${EXP_CASE.what}`,
  },
  ...(
    [
      ['7b', 7],
      ['8b_3c', 7],
      ['24b_5c', 22],
    ] as const
  ).map(
    ([v, bits]): CorpusCase => ({
      file: 'recip',
      arches: ['blackhole'],
      covers: [`_calculate_reciprocal_fast_${v}_`, `_init_reciprocal_fast_${v}_`],
      entry: `_calculate_reciprocal_fast_${v}_(8)`,
      init: [`_init_reciprocal_fast_${v}_()`],
      sfpuType: 'reciprocal',
      // 8b_3c is the BF16 kernel: _calculate_reciprocal_internal_ picks it only for a 16-bit Dst
      // (is_fp32_dest_acc_en false), and its LO16_ONLY / LO16 reloads of stored BF16 words assume one
      ...(v === '8b_3c'
        ? {
            fp32Dest: false,
            inputs: ['bf16'],
            gen: (rng: K.Rng) => normalInputs(rng).map((x) => x >>> 16),
            out: { tile: 0, view: 'bf16w', float: true },
            expect: (x: number) => recipTol(bits)((x << 16) >>> 0),
          }
        : {
            inputs: ['fp32'],
            gen: normalInputs,
            out: { tile: 0, view: 'raw32', float: true },
            expect: recipTol(bits),
          }),
      what: `1/x within 2^-${bits} relative${v === '8b_3c' ? ' (BF16 in a 16-bit Dst)' : ''}`,
    }),
  ),
  {
    file: 'load_config',
    covers: ['_sfpu_load_imm32_'],
    entry: '_sfpu_load_imm32_(3, 0x89abcdefu)',
    vectorMode: 'none',
    inputs: [],
    out: { tile: 0, view: 'raw32', lreg: 3 },
    expectTile: () => new Array(32).fill(0x89abcdef),
    what: 'L3 = 0x89abcdef in every lane',
  },
  {
    file: 'load_config',
    covers: ['_sfpu_load_imm16_'],
    entry: '_sfpu_load_imm16_(5, 0xfedcu)',
    vectorMode: 'none',
    inputs: [],
    out: { tile: 0, view: 'raw32', lreg: 5 },
    expectTile: () => new Array(32).fill(0xfedc),
    what: 'L5 = 0xfedc zero-extended',
  },
  {
    file: 'load_config',
    covers: ['_sfpu_load_config32_'],
    entry: '_sfpu_load_config32_(13, 0x4049u, 0x0fdbu)',
    vectorMode: 'none',
    inputs: [],
    out: { tile: 0, view: 'raw32', lreg: 13 },
    expectTile: () => new Array(32).fill(0x40490fdb),
    what: 'programmable constant LReg[13] = 0x40490fdb',
  },
  {
    file: 'load_config',
    covers: ['_init_sfpu_config_reg'],
    entry: '_init_sfpu_config_reg()',
    init: ['_sfpu_load_imm32_(0, 0x104u)', 'TTI_SFPCONFIG(0, 15, 0)'],
    vectorMode: 'none',
    inputs: [],
    out: { tile: 0, view: 'raw32' },
    stateCheck: (m) =>
      m.state.laneConfigOf(0) === 0 && m.state.laneConfigOf(31) === 0
        ? null
        : `LaneConfig is 0x${m.state.laneConfigOf(0).toString(16)} after it, expected its default 0`,
    what: 'LaneConfig back to 0 (after setting 0x104)',
  },
);

/** Rounding to an integral FP32 value: finite inputs only (NaN/Inf not checked); zeros of either sign
 * match a zero result. |x| >= 2^23 is already integral. */
function rounding(name: 'floor' | 'ceil' | 'trunc' | 'frac', f: (x: number) => number): CorpusCase {
  return {
    file: 'rounding_ops',
    covers: [`_calculate_${name}_`],
    entry: `_calculate_${name}_<false, 8>`,
    inputs: ['fp32'],
    gen: rangeInputs(-3000, 3000),
    out: { tile: 0, view: 'raw32', float: true },
    expect: (x) => (((x >>> 23) & 0xff) === 255 ? undefined : K.f32ToBits(f(K.bitsToF32(x)))),
    what: `${name}(x)`,
  };
}

CASES.push(
  rounding('floor', Math.floor),
  rounding('ceil', Math.ceil),
  rounding('trunc', Math.trunc),
  rounding('frac', (x) => x - Math.trunc(x)),
);

CASES.push(
  {
    file: 'dropout',
    covers: ['_calculate_dropout_', '_init_dropout_'],
    // probability 2^30 of 2^31 (one half), scale 2.0f
    entry: '_calculate_dropout_<false, 8>(8, 0x40000000u, 0x40000000u)',
    init: ['_init_dropout_(1234u)'],
    inputs: ['fp32'],
    gen: rangeInputs(-1000, 1000),
    out: { tile: 0, view: 'raw32', float: true },
    tileCheck: (ins, out) => {
      let dropped = 0;
      for (let i = 0; i < out.length; i++) {
        const kept = K.fmaF32(ins[0]![i]!, 0x40000000, 0);
        if ((out[i]! & 0x7fffffff) === 0 && (kept & 0x7fffffff) !== 0) dropped++;
        else if (out[i] !== kept && !((out[i]! & 0x7fffffff) === 0 && (kept & 0x7fffffff) === 0))
          return `element ${i}: ${hex(out[i]!)} is neither 0 nor x * 2 = ${hex(kept)}`;
      }
      // the PRNG is poor (adjacent lanes share 30 of 32 bits, spec 003), so only a loose bound
      return Math.abs(dropped / out.length - 0.5) <= 0.15
        ? null
        : `${dropped}/1024 dropped, expected about half`;
    },
    what: 'every element 0 or x * 2.0, about half dropped (PRNG seeded by _init_dropout_)',
  },
  {
    file: 'rounding_ops',
    covers: ['_calculate_stochastic_round_'],
    entry: '_calculate_stochastic_round_<false, 8>',
    seed: 99,
    inputs: ['fp32'],
    gen: (rng) => K.finiteFp32Inputs(rng),
    out: { tile: 0, view: 'raw32', float: true },
    tileCheck: (ins, out) => {
      let up = 0;
      let inexact = 0;
      for (let i = 0; i < out.length; i++) {
        const x = ins[0]![i]!;
        if (((x >>> 23) & 0xff) === 0) continue; // denormals: read as zero
        const down = (x & 0xffff0000) >>> 0; // toward zero, on the magnitude
        const upv = (down + 0x10000) >>> 0;
        if ((x & 0xffff) === 0) {
          if (out[i] !== x) return `element ${i}: ${hex(x)} is a BF16 value but became ${hex(out[i]!)}`;
          continue;
        }
        inexact++;
        if (out[i] === upv) up++;
        else if (out[i] !== down)
          return `element ${i}: ${hex(x)} -> ${hex(out[i]!)}, not ${hex(down)} or ${hex(upv)}`;
      }
      return up > 0 && up < inexact ? null : `${up}/${inexact} inexact values rounded up: not stochastic`;
    },
    what: 'each value rounded to one of its two BF16 neighbours, both directions taken (--seed 99)',
  },
);

// Blackhole's dispatching reciprocal: approximate -> the 7-bit kernel; else FP32 Dst -> the 24-bit one
CASES.push(
  ...(
    [
      ['true, 8, true', 'true, true', 7],
      ['false, 8, true', 'false, true', 22],
      ['false, 8, false', 'false, false', 7], // 16-bit Dst: the BF16 kernel
    ] as const
  ).map(
    ([ct, it, bits]): CorpusCase => ({
      file: 'recip',
      arches: ['blackhole'],
      covers: ['_calculate_reciprocal_', '_calculate_reciprocal_internal_', '_init_reciprocal_'],
      entry: `_calculate_reciprocal_<${ct}>(8)`,
      init: [`_init_reciprocal_<${it}>()`],
      sfpuType: 'reciprocal',
      ...(ct.endsWith('false')
        ? {
            fp32Dest: false,
            inputs: ['bf16'],
            gen: (rng: K.Rng) => normalInputs(rng).map((x) => x >>> 16),
            out: { tile: 0, view: 'bf16w', float: true },
            expect: (x: number) => recipTol(bits)((x << 16) >>> 0),
          }
        : {
            inputs: ['fp32'],
            gen: normalInputs,
            out: { tile: 0, view: 'raw32', float: true },
            expect: recipTol(bits),
          }),
      what: `1/x within 2^-${bits} relative (<${ct}>)`,
    }),
  ),
);

/** SFPSWAP's order: FP32 bit patterns compared as sign-magnitude integers (SFPSWAP.md). */
function smLess(a: number, b: number): boolean {
  const sa = a >>> 31;
  const sb = b >>> 31;
  if (sa !== sb) return sa === 1;
  return sa === 0 ? (a & 0x7fffffff) < (b & 0x7fffffff) : (a & 0x7fffffff) > (b & 0x7fffffff);
}

CASES.push({
  file: 'max_pool_indices',
  covers: ['_calculate_max_pool_with_indices_', '_init_max_pool_with_indices_'],
  entry: '_calculate_max_pool_with_indices_<false, true, 8>(0, 1, 0)',
  init: ['_init_max_pool_with_indices_()'],
  vectorMode: 'none',
  inputs: ['fp32', 'int32'],
  // rows 0..8 of each column distinct (no ties to break); indices arbitrary words
  gen: (rng, t) => {
    const v = new Uint32Array(1024);
    for (let i = 0; i < 1024; i++) v[i] = t === 1 ? rng.next() : ((i >> 5) << 27) ^ (rng.next() & 0x87ffffff);
    return v;
  },
  out: { tile: 0, view: 'raw32', float: true },
  tileCheck: (ins, out, m) => {
    const idx = m.readDstTile(1, 'int32');
    for (let c = 0; c < 32; c++) {
      let best = 0;
      for (let r = 1; r < 9; r++) if (smLess(ins[0]![best * 32 + c]!, ins[0]![r * 32 + c]!)) best = r;
      const want = ins[0]![best * 32 + c]!;
      const flushed = ((want >>> 23) & 0xff) === 0 ? (want & 0x80000000) >>> 0 : want;
      if (out[c] !== flushed && !((out[c]! & 0x7fffffff) === 0 && (flushed & 0x7fffffff) === 0))
        return `column ${c}: max ${hex(out[c]!)}, expected ${hex(flushed)} (row ${best})`;
      if (idx[c] !== ins[1]![best * 32 + c])
        return `column ${c}: index ${hex(idx[c]!)}, expected ${hex(ins[1]![best * 32 + c]!)} (row ${best})`;
    }
    return null;
  },
  what: 'row 0: each column maximum over rows 0..8 (sign-magnitude order) and the index that came with it',
});

CASES.push(...EXTRA_CASES);
CASES.push(...SFPI_CASES);

// ---- running ---------------------------------------------------------------------------------------------

/** An expected output element: exact bits, or an FP32 value with an absolute tolerance. */
export type Expected = number | undefined | { value: number; tol: number };

export type Status = 'ok' | 'wrong' | 'error';
export interface CorpusRow {
  arch: Arch;
  file: string;
  function: string;
  status: Status;
  detail: string;
  /** Written in SFPI (an SFPI-only file, or an SFPI function of a mixed one): issue 12's part. */
  sfpi?: boolean;
}

function makeInputs(kind: InKind, rng: K.Rng, cond = false): Uint32Array {
  switch (kind) {
    case 'fp32': {
      const v = K.fp32Inputs(rng);
      if (cond) for (let i = 0; i < v.length; i += 3) v[i] = i % 2 ? 0 : 0x80000000; // many ±0 conditions
      return v;
    }
    case 'int32':
    case 'uint32':
      return K.int32Inputs(rng);
    case 'uint16': {
      const v = K.int32Inputs(rng);
      for (let i = 0; i < v.length; i++) v[i] = v[i]! & 0xffff;
      return v;
    }
    case 'shift':
      return K.int32Inputs(rng, 1024, -3, 35);
    case 'bf16': {
      const v = K.fp32Inputs(rng);
      for (let i = 0; i < v.length; i++) v[i] = v[i]! >>> 16;
      return v;
    }
  }
}

function view(v: number, how: OutView): number {
  return how === 'hi16' ? v >>> 16 : how === 'bf16of32' ? (v & 0xffff0000) >>> 0 : v >>> 0;
}

/** Exact bits, except that any zero matches a zero (the sign of a zero or flushed result differs between
 * Wormhole and Blackhole, SFPU-NOTES B3/C2), and tolerances compare FP32 values. For a float result, an
 * expected denormal is a zero: the SFPU's stores flush them (SFPU-NOTES A2). */
function matches(
  got: number,
  e: number | { value: number; tol: number },
  float: boolean,
  view: OutView,
): boolean {
  const narrow = view === 'raw16' || view === 'bf16' || view === 'fp16' || view === 'hi16';
  const signBit = narrow ? 0x8000 : 0x80000000;
  const expField =
    view === 'fp16'
      ? (x: number) => (x >>> 10) & 0x1f
      : narrow
        ? (x: number) => (x >>> 7) & 0xff
        : (x: number) => (x >>> 23) & 0xff;
  if (typeof e === 'number' && float && expField(e) === 0) e = (e & signBit) >>> 0;
  const isZero = (x: number) => (x & (signBit - 1)) === 0;
  if (typeof e === 'number' && float && view === 'raw32' && K.isNanBits(e)) return K.isNanBits(got);
  if (typeof e === 'number') return got === e >>> 0 || (float && isZero(got) && isZero(e));
  const g = K.bitsToF32(got);
  const w = K.bitsToF32(e.value);
  return Math.abs(g - w) <= e.tol;
}

const hex = (v: number) => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;

/** Where a case's kernel file is and what its includes search; `cycles`: always report cycles/32 elements. */
export interface KernelLocation {
  path: string;
  includeDirs: string[];
  cycles?: boolean;
}

/** A tt-llk kernel file of the checkout `root` and tt-llk's own include directories. */
export function llkLocation(root: string, arch: Arch, file: string): KernelLocation {
  return {
    path: join(root, ARCH_DIRS[arch], 'common/inc/sfpu', `ckernel_sfpu_${file}.h`),
    includeDirs: [join(root, ARCH_DIRS[arch], 'common/inc/sfpu'), join(root, ARCH_DIRS[arch], 'common/inc')],
  };
}

/** Runs one case in one form; returns null when it passed, else the failure. */
export function runCase(
  compile: KernelCompiler,
  root: string,
  arch: Arch,
  c: CorpusCase,
  form: { macro: boolean },
  seed = 1,
  loc: KernelLocation = llkLocation(root, arch, c.file),
): { status: Status; detail: string; out?: Uint32Array } {
  const path = loc.path;
  const m = new TensixMachine(arch);
  const fmt =
    c.dataFormat ??
    {
      fp32: 'Float32',
      int32: 'Int32',
      uint16: 'UInt16',
      uint32: 'UInt32',
      shift: 'Int32',
      bf16: 'Float16_b',
    }[c.inputs[0] ?? 'fp32'];
  applyHwConfigure(m, { fp32Dest: c.fp32Dest ?? true, srcA: fmt });
  const rng = new K.Rng(seed);
  const ins = c.inputs.map((k, i) =>
    c.gen ? c.gen(rng, i) : makeInputs(k, rng, c.file === 'where' && i === 0),
  );
  ins.forEach((v, t) => {
    // 16-bit data in a 32-bit Dst (DBG_FEATURE_DISABLE bit 11): the raw high halves of the rows
    if (c.inputs[t] === 'bf16') m.writeDstTile(t, v, 'bf16');
    else if (c.inputs[t] === 'uint16')
      m.writeDstTile(
        t,
        Array.from(v, (x) => (x << 16) >>> 0),
        'raw32',
      );
    else m.writeDstTile(t, v, 'int32');
  });
  try {
    const inc = loc.includeDirs;
    const { compiled } = compileLlk(compile, m, {
      source: readFileSync(path, 'utf8') + (c.harness ?? ''),
      file: path,
      entry: c.entry,
      init: c.init,
      api: c.api,
      sfpuType: c.sfpuType,
      vectorMode: c.vectorMode,
      seed: c.seed,
      includeDirs: inc,
      memory: c.memory?.(ins),
      globals: c.globals,
      defines: form.macro ? {} : { DISABLE_SFPLOADMACRO: 1 },
    });
    // both forms run on the cycle model (the hardware's answer), which also counts hazards
    const r = runCompiled(m, compiled, { timed: !c.sequential, hazards: 'warn' });
    const h0 = r.hazards[0];
    const at = h0?.location ? ` at ${h0.location.file ?? ''}:${h0.location.line}` : '';
    const w0 = compiled.warnings[0];
    const hz =
      (h0 ? `; ${r.hazards.length} hazards (first: ${h0.id}${at})` : '') +
      (w0
        ? `; ${compiled.warnings.length} compile warning(s) (first: line ${w0.location?.line ?? '?'}: ${w0.message})`
        : '');
    if (c.stateCheck) {
      const f = c.stateCheck(m);
      return f ? { status: 'wrong', detail: `${f}${hz}` } : { status: 'ok', detail: `${c.what}${hz}` };
    }
    const out =
      c.out.lreg !== undefined
        ? m.lreg(c.out.lreg)
        : c.out.view === 'raw16'
          ? m
              .readDstTile(c.out.tile, m.state.dst16bHigh ? 'raw32' : 'raw16')
              .map((x) => (m.state.dst16bHigh ? x >>> 16 : x))
          : c.out.view === 'bf16' || c.out.view === 'fp16'
            ? m.readDstTile(c.out.tile, c.out.view)
            : c.out.view === 'bf16w' // a BF16 result widened to its FP32 bits
              ? m.readDstTile(c.out.tile, 'bf16').map((x) => (x << 16) >>> 0)
              : m.readDstTile(c.out.tile, 'int32');
    if (c.tileCheck) {
      const f = c.tileCheck(ins, out, m);
      return f
        ? { status: 'wrong', detail: `${f}${hz}`, out }
        : { status: 'ok', detail: `${c.what}${hz}`, out };
    }
    const want: Expected[] = c.expectTile
      ? c.expectTile(ins)
      : Array.from(out, (_, i) => c.expect!(...ins.map((v) => v[i]!)));
    let bad = 0;
    let first = '';
    let checked = 0;
    for (let i = 0; i < out.length; i++) {
      const e = want[i];
      if (e === undefined) continue;
      checked++;
      const got = view(out[i]!, c.out.view);
      if (!matches(got, e, c.out.float === true, c.out.view)) {
        if (!bad)
          first = `element ${i}: in ${ins.map((v) => hex(v[i]!)).join(', ')} -> ${hex(got)}, expected ${typeof e === 'number' ? hex(e) : `${K.bitsToF32(e.value)} ± ${e.tol}`}`;
        bad++;
      }
    }
    let extra = '';
    // every SFPI case reports its error and its cycles: the float cases against their double
    // reference (ULP, PCC); the exact ones (classification, integers) are bit-exact when they pass
    if (c.sfpi || SFPI_CASES.includes(c) || loc.cycles) {
      if (c.sfpi) {
        const st = sfpiStats(c.sfpi, ins, out);
        if (st.failure && !bad) {
          bad = 1;
          first = st.failure;
        }
        extra = `; max ULP error ${Number.isFinite(st.maxUlp) ? +st.maxUlp.toPrecision(3) : 'inf'}${st.pcc !== undefined ? `, PCC ${st.pcc.toFixed(6)}` : ''}`;
      } else if (!bad && checked) extra = '; max error 0 (bit-exact)';
      const base = baselineCycles(compile, arch, c, form, loc);
      if (r.cycles !== undefined && base !== undefined) {
        const rows = (c.vectorMode ?? 'rc') === 'rc' ? 32 : (c.vectorMode ?? 'rc') === 'none' ? 8 : 16;
        extra += `; ${+((r.cycles - base) / rows).toFixed(2)} cycles/32 elements`;
      }
    }
    if (bad)
      return {
        status: 'wrong',
        detail: `${bad}/${checked} wrong; ${first}${extra}${hz}${c.note ? ` — ${c.note}` : ''}`,
        out,
      };
    const tol = want.some((e) => typeof e === 'object');
    return {
      status: 'ok',
      detail: `${checked} elements ${tol ? 'within tolerance' : 'exact'} (${c.what})${extra}${hz}`,
      out,
    };
  } catch (err) {
    const e = err as { format?: () => string; message?: string };
    return { status: 'error', detail: (e.format?.() ?? String(e.message ?? err)).split('\n')[0]! };
  }
}

/** Cycles of the same set-up (driver, inits) with an empty entry: the part of a run that is not the kernel. */
function baselineCycles(
  compile: KernelCompiler,
  arch: Arch,
  c: CorpusCase,
  form: { macro: boolean },
  loc: KernelLocation,
): number | undefined {
  const path = loc.path;
  const m = new TensixMachine(arch);
  applyHwConfigure(m, { fp32Dest: true, srcA: 'Float32' });
  try {
    const inc = loc.includeDirs;
    const { compiled } = compileLlk(compile, m, {
      source: readFileSync(path, 'utf8') + (c.harness ?? ''),
      file: path,
      entry: 'static_cast<void>(0)',
      init: c.init,
      api: c.api,
      sfpuType: c.sfpuType,
      vectorMode: c.vectorMode,
      seed: c.seed,
      includeDirs: inc,
      defines: form.macro ? {} : { DISABLE_SFPLOADMACRO: 1 },
    });
    return runCompiled(m, compiled, { timed: true, hazards: 'off' }).cycles;
  } catch {
    return undefined;
  }
}

/** The whole table: one row per (arch, file, public function). */
export function runCorpus(
  compile: KernelCompiler,
  root: string,
  arches: Arch[] = ['wormhole', 'blackhole'],
  files?: string[],
): CorpusRow[] {
  const rows: CorpusRow[] = [];
  for (const arch of arches) {
    for (const f of discover(root, arch)) {
      const short = f.file.replace(/^ckernel_sfpu_/, '').replace(/\.h$/, '');
      if (files && !files.includes(short)) continue;
      const results = new Map<string, { status: Status; detail: string }[]>();
      for (const c of CASES) {
        if (c.file !== short || (c.arches && !c.arches.includes(arch))) continue;
        const fnMacro = f.functions.some((g) => c.covers.includes(g.name) && g.macro);
        const forms = (fnMacro ? [{ macro: true }, { macro: false }] : [{ macro: false }]).filter(
          (f) => !c.forms || c.forms.includes(f.macro ? 'macro' : 'disable'),
        );
        let macroOut: Uint32Array | undefined;
        for (const form of forms) {
          const r = runCase(compile, root, arch, c, form);
          const tag =
            (fnMacro ? (form.macro ? '[SFPLOADMACRO] ' : '[DISABLE_SFPLOADMACRO] ') : '') +
            (c.sequential ? '[evidence: run sequentially, no timing] ' : '');
          if (form.macro) macroOut = r.out;
          // the two forms compared with each other, bit for bit
          let agree = '';
          if (!form.macro && fnMacro && macroOut && r.out) {
            let n = 0;
            for (let i = 0; i < r.out.length; i++) if (r.out[i] !== macroOut[i]) n++;
            agree = n
              ? `; the forms differ in ${n}/${r.out.length} elements`
              : '; the forms agree bit for bit';
          }
          for (const name of c.covers) {
            const list = results.get(name) ?? [];
            list.push({ status: r.status, detail: `${tag}${r.detail}${agree}` });
            results.set(name, list);
          }
        }
      }
      for (const g of f.functions) {
        const rs = results.get(g.name);
        let status: Status;
        let detail: string;
        if (rs?.length) {
          status = rs.some((r) => r.status === 'error')
            ? 'error'
            : rs.some((r) => r.status === 'wrong')
              ? 'wrong'
              : 'ok';
          detail = rs.map((r) => r.detail).join(' | ');
        } else if (g.kind === 'sfpi' || f.kind === 'sfpi') {
          status = 'error';
          detail = 'SFPI: no corpus case yet (no independent check written for it)';
        } else {
          status = 'error';
          detail = 'no corpus case yet (no independent check written for it)';
        }
        rows.push({
          arch,
          file: f.file,
          function: g.name,
          status,
          detail,
          ...(g.kind === 'sfpi' || f.kind === 'sfpi' ? { sfpi: true } : {}),
        });
      }
    }
  }
  return rows;
}

export function tableMarkdown(rows: CorpusRow[]): string {
  const L = ['| arch | file | function | status | detail |', '|---|---|---|---|---|'];
  for (const r of rows)
    L.push(
      `| ${r.arch} | ${r.file.replace(/^ckernel_sfpu_/, '')} | \`${r.function}\` | ${r.status} | ${r.detail.replace(/\|/g, '\\|')} |`,
    );
  return L.join('\n');
}

export function summary(rows: CorpusRow[]): string {
  const by = (a: Arch) => rows.filter((r) => r.arch === a);
  const sfpi = (r: CorpusRow) => r.sfpi === true;
  return (['wormhole', 'blackhole'] as Arch[])
    .filter((a) => by(a).length)
    .map((a) => {
      const rs = by(a);
      const ok = rs.filter((r) => r.status === 'ok').length;
      const wrong = rs.filter((r) => r.status === 'wrong').length;
      const n = rs.filter((r) => !sfpi(r)).length;
      const ss = rs.filter(sfpi);
      const sOk = ss.filter((r) => r.status === 'ok').length;
      const sWrong = ss.filter((r) => r.status === 'wrong').length;
      return (
        `${a}: ${ok}/${rs.length} ok, ${wrong} wrong, ${rs.length - ok - wrong} error (${new Set(rs.map((r) => r.file)).size} files); ` +
        `TTI functions ${rs.filter((r) => !sfpi(r) && r.status === 'ok').length}/${n} ok; ` +
        `SFPI functions (issue 12) ${sOk}/${ss.length} ok, ${sWrong} wrong, ${ss.length - sOk - sWrong} error`
      );
    })
    .join('\n');
}
