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
import * as K from './checks.ts';
import type { LlkApiKind, LlkVectorMode } from './driver.ts';
import { compileLlk, type KernelCompiler, runCompiled } from './run.ts';

export type FileKind = 'tti' | 'mixed' | 'sfpi' | 'none';
export type FnKind = 'tti' | 'mixed' | 'sfpi' | 'plain';

export interface CorpusFunction {
  name: string;
  line: number;
  kind: FnKind;
  /** Uses SFPLOADMACRO / DISABLE_SFPLOADMACRO in its body. */
  macro: boolean;
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
  /\bv(Float|Int|UInt)\b|\bv_if\b|dst_reg\s*\[|l_reg\s*\[|sfpi::(abs|exexp|setsgn|float_to|int32_to|reinterpret|lz|addexp|setexp|setman|exman|shft|approx|vec_min|vec_max|reciprocal|s2vFloat)|\bvConst(0|1|Neg1|0p8373)\b|_sfpu_exp_|_sfpu_reciprocal_|_round_even_|_floor_body_|_ceil_body_|_trunc_body_/;
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

function stripComments(s: string): string {
  return s.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/\/\/[^\n]*/g, '');
}

/** Classifies one kernel file and lists its public functions (definitions only). */
export function classify(arch: Arch, path: string, text: string): CorpusFile {
  const src = stripComments(text);
  const tti = TTI_RE.test(src);
  const sfpi = SFPI_RE.test(src);
  const kind: FileKind = tti && sfpi ? 'mixed' : tti ? 'tti' : sfpi ? 'sfpi' : 'none';
  const functions: CorpusFunction[] = [];
  const re =
    /(?:template\s*<(?:[^<>]|<[^<>]*>)*>\s*)?(?:(?:inline|static|constexpr|sfpi_inline)\s+)*[\w:]+(?:<[^>]*>)?[\s*&]+(\w+)\s*\(([^;{]*)\)\s*\{/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const name = m[1]!;
    if (!(name.startsWith('_calculate_') || name.startsWith('_init_') || PRIMARY.has(name))) continue;
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let end = open;
    for (; end < src.length; end++) {
      if (src[end] === '{') depth++;
      else if (src[end] === '}' && --depth === 0) break;
    }
    const body = src.slice(open, end + 1);
    const t = TTI_RE.test(body);
    const s = SFPI_RE.test(body);
    functions.push({
      name,
      line: src.slice(0, m.index + m[0].indexOf(name)).split('\n').length,
      kind: t && s ? 'mixed' : t ? 'tti' : s ? 'sfpi' : 'plain',
      macro: body.includes('SFPLOADMACRO'),
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
    .filter((c) => c.kind === 'tti' || c.kind === 'mixed');
}

// ---- cases ---------------------------------------------------------------------------------------------

type InKind = 'fp32' | 'int32' | 'uint16' | 'uint32' | 'shift';
type OutView = 'raw32' | 'lo16' | 'hi16';

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
  out: { tile: number; view: OutView };
  /** The definition: expected output element from the input elements (undefined = not checked). */
  expect: (...xs: number[]) => number | undefined;
  what: string;
}

const T = (name: string) => `_calculate_typecast_${name}_`;
const I = (name: string) => `_init_typecast_${name}_`;

function typecast(
  name: string,
  inKind: InKind,
  view: OutView,
  f: (x: number) => number | undefined,
  init = true,
): CorpusCase {
  return {
    file: 'typecast',
    covers: init ? [T(name), I(name)] : [T(name)],
    entry: `${T(name)}<false, 8>`,
    init: init ? [`${I(name)}<false>`] : [],
    sfpuType: 'typecast',
    inputs: [inKind],
    out: { tile: 0, view },
    expect: f,
    what: name.replace(/_to_/, ' -> '),
  };
}

const hiBf16 = (f: (x: number) => number) => (x: number) => f(x) >>> 16;

function binaryInt(
  file: string,
  fn: string,
  tmpl: string,
  expect: (a: number, b: number) => number,
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

export const CASES: CorpusCase[] = [
  typecast('fp32_to_uint16', 'fp32', 'lo16', K.fp32ToUint16),
  typecast('uint16_to_fp16b', 'uint16', 'hi16', hiBf16(K.uint16ToFp16b)),
  typecast('int32_to_fp16b', 'int32', 'hi16', hiBf16(K.int32ToFp16b)),
  typecast('fp32_to_int32', 'fp32', 'raw32', K.fp32ToInt32, false),
  typecast('fp32_to_uint32', 'fp32', 'raw32', K.fp32ToUint32, false),
  typecast('fp32_to_fp16b', 'fp32', 'hi16', (x) => K.bf16Rne(x)),
  typecast('uint16_to_fp32', 'uint16', 'raw32', K.uint16ToFp32),
  typecast('int32_to_fp32', 'int32', 'raw32', K.int32ToFp32),
  typecast('uint32_to_fp16b', 'uint32', 'hi16', hiBf16(K.uint32ToFp16b)),
  typecast('uint32_to_fp32', 'uint32', 'raw32', K.uint32ToFp32),
  typecast('uint16_to_uint32', 'uint16', 'raw32', (x) => x & 0xffff),
  typecast('uint32_to_uint16', 'uint32', 'lo16', K.uint32ToUint16),
  typecast('int32_to_uint16', 'int32', 'lo16', K.int32ToUint16),
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
    out: { tile: 0, view: 'lo16' },
    what: 'uint16 * uint16 (low 16 bits)',
  },
  binaryInt(
    'shift',
    '_calculate_binary_left_shift_',
    'false, 8, InstrModLoadStore::INT32, false',
    K.shl32,
    'shift',
  ),
  binaryInt(
    'shift',
    '_calculate_binary_right_shift_',
    'false, 8, InstrModLoadStore::INT32, false',
    K.sar32,
    'shift',
  ),
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
    out: { tile: 0, view: 'raw32' },
    expect: K.squareFp32,
    what: 'x*x (fp32, one rounding)',
  },
  {
    file: 'cast_fp32_to_fp16a',
    covers: ['_cast_fp32_to_fp16a_'],
    entry: '_cast_fp32_to_fp16a_<false, 8>(8)',
    inputs: ['fp32'],
    out: { tile: 0, view: 'hi16' },
    expect: (x) => (K.isNanBits(x) ? undefined : K.fp32ToFp16a(x)),
    what: 'fp32 -> fp16 (IEEE half)',
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
    out: { tile: 0, view: 'raw32' },
    expect: (x) => {
      if (K.isNanBits(x)) return undefined;
      if (!(x & 0x80000000)) return x;
      // x * 0.2f: one rounding; denormal operands read as zero and denormal results flush to zero
      const xv = (x >>> 23) & 0xff ? K.bitsToF32(x) : 0;
      const r = K.f32ToBits(Math.fround(xv * K.bitsToF32(0x3e4ccccd)));
      return (r >>> 23) & 0xff ? r : r & 0x80000000;
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
    expect: (c, a, b) => ((c & 0x7fffffff) !== 0 ? a : b),
    what: 'where(c != 0, a, b)',
  },
];

// ---- running ---------------------------------------------------------------------------------------------

export type Status = 'ok' | 'wrong' | 'error';
export interface CorpusRow {
  arch: Arch;
  file: string;
  function: string;
  status: Status;
  detail: string;
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
  }
}

function view(v: number, how: OutView): number {
  return how === 'lo16' ? v & 0xffff : how === 'hi16' ? v >>> 16 : v >>> 0;
}

const hex = (v: number) => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;

/** Runs one case in one form; returns null when it passed, else the failure. */
export function runCase(
  compile: KernelCompiler,
  root: string,
  arch: Arch,
  c: CorpusCase,
  form: { macro: boolean },
  seed = 1,
): { status: Status; detail: string } {
  const path = join(root, ARCH_DIRS[arch], 'common/inc/sfpu', `ckernel_sfpu_${c.file}.h`);
  const m = new TensixMachine(arch);
  m.configure({ sfpuFp32: true });
  const rng = new K.Rng(seed);
  const ins = c.inputs.map((k, i) => makeInputs(k, rng, c.file === 'where' && i === 0));
  ins.forEach((v, t) => {
    m.writeDstTile(t, v, 'int32');
  });
  try {
    const inc = [join(root, ARCH_DIRS[arch], 'common/inc/sfpu'), join(root, ARCH_DIRS[arch], 'common/inc')];
    const { compiled } = compileLlk(compile, m, {
      source: readFileSync(path, 'utf8'),
      file: path,
      entry: c.entry,
      init: c.init,
      api: c.api,
      sfpuType: c.sfpuType,
      vectorMode: c.vectorMode,
      includeDirs: inc,
      defines: form.macro ? {} : { DISABLE_SFPLOADMACRO: 1 },
    });
    const r = runCompiled(m, compiled, { timed: form.macro, hazards: 'warn' });
    const out = m.readDstTile(c.out.tile, 'int32');
    let bad = 0;
    let first = '';
    let checked = 0;
    for (let i = 0; i < out.length; i++) {
      const e = c.expect(...ins.map((v) => v[i]!));
      if (e === undefined) continue;
      checked++;
      const got = view(out[i]!, c.out.view);
      if (got !== e >>> 0) {
        if (!bad)
          first = `element ${i}: in ${ins.map((v) => hex(v[i]!)).join(', ')} -> ${hex(got)}, expected ${hex(e)}`;
        bad++;
      }
    }
    const hz = r.hazards.length ? `; ${r.hazards.length} hazards (first: ${r.hazards[0]!.id})` : '';
    if (bad) return { status: 'wrong', detail: `${bad}/${checked} wrong; ${first}${hz}` };
    return { status: 'ok', detail: `${checked} elements exact (${c.what})${hz}` };
  } catch (err) {
    const e = err as { format?: () => string; message?: string };
    return { status: 'error', detail: (e.format?.() ?? String(e.message ?? err)).split('\n')[0]! };
  }
}

/** The whole table: one row per (arch, file, public function). */
export function runCorpus(
  compile: KernelCompiler,
  root: string,
  arches: Arch[] = ['wormhole', 'blackhole'],
): CorpusRow[] {
  const rows: CorpusRow[] = [];
  for (const arch of arches) {
    for (const f of discover(root, arch)) {
      const short = f.file.replace(/^ckernel_sfpu_/, '').replace(/\.h$/, '');
      const results = new Map<string, { status: Status; detail: string }[]>();
      for (const c of CASES) {
        if (c.file !== short || (c.arches && !c.arches.includes(arch))) continue;
        const fnMacro = f.functions.some((g) => c.covers.includes(g.name) && g.macro);
        const forms = fnMacro ? [{ macro: true }, { macro: false }] : [{ macro: false }];
        for (const form of forms) {
          const r = runCase(compile, root, arch, c, form);
          const tag = fnMacro ? (form.macro ? '[SFPLOADMACRO] ' : '[DISABLE_SFPLOADMACRO] ') : '';
          for (const name of c.covers) {
            const list = results.get(name) ?? [];
            list.push({ status: r.status, detail: `${tag}${r.detail}` });
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
        } else if (g.kind === 'sfpi') {
          status = 'error';
          detail = 'SFPI vector code: needs the SFPI compiler (issue 12)';
        } else {
          status = 'error';
          detail = 'no corpus case yet (no independent check written for it)';
        }
        rows.push({ arch, file: f.file, function: g.name, status, detail });
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
  return (['wormhole', 'blackhole'] as Arch[])
    .map((a) => {
      const rs = by(a);
      const ok = rs.filter((r) => r.status === 'ok').length;
      const wrong = rs.filter((r) => r.status === 'wrong').length;
      return `${a}: ${ok}/${rs.length} ok, ${wrong} wrong, ${rs.length - ok - wrong} error (${new Set(rs.map((r) => r.file)).size} files)`;
    })
    .join('\n');
}
