/**
 * The tt-metal SFPU corpus runner: every public `calculate_*` / `_calculate_*_` function of tt-metal's
 * own kernel files (`tt_metal/hw/ckernels/{wormhole_b0,blackhole}/metal/llk_api/llk_sfpu/ckernel_sfpu_*.h`),
 * code nobody wrote for axsim, compiled and run with the LLK environment and tt-llk's headers (the
 * tt-llk checkout of AXSIM_TT_LLK; tt-metal's files include tt-llk's `sfpu/ckernel_sfpu_*.h`).
 *
 * The kernel files are read at run time from AXSIM_TT_METAL_SFPU: a tt-metal checkout, or a directory
 * with `wormhole_b0/` and `blackhole/` holding a sample of those files (docs/tensix-metal-corpus.md says
 * which files and commits). Nothing of them is stored in the repository.
 *
 * Each function runs once per arch: with a case of its own (METAL_CASES: an entry, and the check of the
 * same operation the tt-llk corpus already has, cases-sfpi.ts), or else with an entry built from its
 * template and parameter lists (runs, reports cycles and hazards, values unchecked). The machinery is
 * corpus.ts's (runCase); only where the file lives and which entry is called differ.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Arch } from '../encoding.ts';
import { COMPARE_PCC, floatCase, SFPI_CASES, uniform } from './cases-sfpi.ts';
import * as K from './checks.ts';
import {
  type CorpusCase,
  type CorpusFile,
  type CorpusFunction,
  classify,
  type KernelLocation,
  runCase,
} from './corpus.ts';
import type { KernelCompiler } from './run.ts';

export const METAL_ARCH_DIRS: Record<Arch, string> = { wormhole: 'wormhole_b0', blackhole: 'blackhole' };

/** The directory of one arch's kernel files: inside a tt-metal checkout, or `<root>/<arch dir>`. */
export function metalDir(root: string, arch: Arch): string {
  const full = join(root, 'tt_metal/hw/ckernels', METAL_ARCH_DIRS[arch], 'metal/llk_api/llk_sfpu');
  return existsSync(full) ? full : join(root, METAL_ARCH_DIRS[arch]);
}

/** tt-metal's public kernel functions: `calculate_*` and tt-llk-style `_calculate_*_`. */
export const isMetalPublic = (name: string) => /^(calculate_\w+|_calculate_\w+_)$/.test(name);

/** The SFPI (or mixed) kernel files of one arch, sorted and classified. */
export function discoverMetal(root: string, arch: Arch): CorpusFile[] {
  const dir = metalDir(root, arch);
  if (!existsSync(dir)) return [];
  return (
    readdirSync(dir)
      .filter((f) => /^ckernel_sfpu_\w+\.h$/.test(f))
      .sort()
      .map((f) => classify(arch, join(dir, f), readFileSync(join(dir, f), 'utf8'), isMetalPublic))
      // SFPI files, and wrappers of tt-llk's SFPI functions (no SFPI token of their own; TTI-only files are not this sweep's)
      .filter((c) => c.kind === 'sfpi' || c.kind === 'mixed' || (c.kind === 'none' && c.functions.length > 0))
  );
}

/** Splits a template or parameter list at its top-level commas. */
export function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '<' || ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === '>' || ch === ')' || ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const FP32_DEST = /^(is_)?fp32_(dest_)?acc(_to_dest_mode|_en)?$|^is_fp32_dest_acc_en$/;

/**
 * The call a function gets when no case names one: template arguments for what has no default
 * (APPROXIMATION_MODE false, ITERATIONS 8, the FP32-Dst flag true: the runs use a 32-bit Dst, other
 * bools false), and runtime arguments by parameter name (Dst indices in0 = 0, in1 = 1, in2 = 2, out = 0;
 * other integers the bits of 1.0f, a shift amount 3). A template parameter of another kind without a
 * default (an enum, a type) cannot be chosen blindly: the result says which.
 */
export function genericEntry(
  fn: CorpusFunction,
): { entry: string } | { missing: string } | { helper: string } {
  const targs: string[] = [];
  const tparams = fn.template !== undefined ? splitTopLevel(fn.template) : [];
  for (let i = 0; i < tparams.length; i++) {
    const p = tparams[i]!.replace(/\/\*.*?\*\//g, '').trim();
    // stop where the rest have defaults, unless the FP32-Dst flag is among them (the runs use a 32-bit Dst)
    const rest = tparams.slice(i);
    const flagName = (q: string) => /(\w+)\s*(?:=.*)?$/.exec(q.replace(/=.*$/, '').trim())?.[1] ?? '';
    if (rest.every((q) => q.includes('=') && !FP32_DEST.test(flagName(q)))) break;
    const m = /^(.*?)\s*(\w+)\s*(?:=\s*(.+))?$/.exec(p);
    const type = m?.[1]?.trim() ?? '';
    const name = m?.[2] ?? '';
    const def = m?.[3]?.trim();
    if (type === 'bool') targs.push(FP32_DEST.test(name) ? 'true' : (def ?? 'false'));
    else if (/^(int|unsigned|uint|std::uint32_t|uint32_t|std::size_t|size_t)$/.test(type))
      targs.push(name === 'ITERATIONS' ? '8' : (def ?? '0'));
    else if (def !== undefined) targs.push(def);
    else return { missing: `template parameter '${p}' has no default and no case chooses it` };
  }
  const args: string[] = [];
  const params = fn.params?.trim() ? splitTopLevel(fn.params) : [];
  const vec = params.find((q) => /\bv(Float|Int|UInt|SMag\w*|Mag)\b/.test(q));
  if (vec !== undefined)
    return {
      helper: `takes an SFPI vector ('${vec.trim()}'): a helper of the file's entry points, run through them`,
    };
  for (const q of params) {
    const p = q.replace(/\/\*(.*?)\*\//g, ' $1 ').trim();
    if (p === 'void') continue;
    const name = /(\w+)\s*(?:=.*)?$/.exec(p)?.[1] ?? '';
    if (/\bfloat\b/.test(p)) args.push('1.0f');
    else if (/dst_index_in0|dst_index_in$/.test(name)) args.push('0');
    else if (/dst_index_in1/.test(name)) args.push('1');
    else if (/dst_index_in2/.test(name)) args.push('2');
    else if (/dst_index/.test(name)) args.push('0');
    else if (/shift/.test(name)) args.push('3');
    else if (/[&*]/.test(p))
      return { missing: `parameter '${p}' is a reference or pointer; no case provides it` };
    else args.push('0x3f800000u');
  }
  const t = targs.length ? `<${targs.join(', ')}>` : fn.template !== undefined ? '<>' : '';
  return { entry: `${fn.name}${t}(${args.join(', ')})` };
}

/** The tt-llk corpus case that checks `llkFn` (first found), for reuse with another entry. */
function llkCheck(llkFn: string, pick: (c: CorpusCase) => boolean = () => true): CorpusCase {
  const c = SFPI_CASES.find((x) => x.covers.includes(llkFn) && pick(x));
  if (!c) throw new Error(`metal-corpus: no tt-llk corpus case covers ${llkFn}`);
  return c;
}

/** A metal case: the check of an existing tt-llk case of the same operation, called through tt-metal's entry. */
function reuse(
  file: string,
  fn: string,
  entry: string,
  llkFn: string,
  o: { init?: string[]; pick?: (c: CorpusCase) => boolean } = {},
): CorpusCase {
  const base = llkCheck(llkFn, o.pick);
  return { ...base, file, covers: [fn], entry, init: o.init ?? [], harness: undefined, note: undefined };
}

/** A case with the definition written here (the tt-llk corpus has no check of this operation). */
function own(file: string, fn: string, entry: string, c: Partial<CorpusCase> & { what: string }): CorpusCase {
  return { file, covers: [fn], entry, inputs: ['fp32'], out: { tile: 0, view: 'raw32', float: true }, ...c };
}

const f32 = K.bitsToF32;
const bits = K.f32ToBits;

/**
 * Checked metal functions: each reuses the definition and tolerance of the tt-llk case of the same
 * operation (cases-sfpi.ts), with tt-metal's entry and argument conventions (its wrappers lack the
 * tt-llk `iterations` argument; float parameters come as FP32 bit patterns).
 */
export const METAL_CASES: CorpusCase[] = [
  reuse('abs', 'calculate_abs', 'calculate_abs<false, 8>', '_calculate_abs_'),
  reuse('negative', 'calculate_negative', 'calculate_negative<false, 8>', '_calculate_negative_'),
  reuse('fill', 'calculate_fill', 'calculate_fill<false, 8>(0x40490fdbu)', '_calculate_fill_bitcast_'),
  reuse('sign', 'calculate_sign', 'calculate_sign<false, 8>(1)', '_calculate_sign_'),
  reuse(
    'clamp',
    'calculate_clamp',
    'calculate_clamp<false, 8>(0xc100u, 0x4500u, 0x3c00u)',
    '_calculate_clamp_',
  ),
  reuse('elu', 'calculate_elu', 'calculate_elu<false, true, 8>(0x3f800000u)', '_calculate_elu_'),
  reuse('sqrt', 'calculate_sqrt', 'calculate_sqrt<false, 8, true, false>', '_calculate_sqrt_', {
    init: ['sqrt_init<false>'],
  }),
  ...(['isinf', 'isposinf', 'isneginf', 'isnan', 'isfinite'] as const).map((op) => ({
    ...reuse(
      'isinf_isnan',
      'calculate_sfpu_isinf_isnan',
      `calculate_sfpu_isinf_isnan<SfpuType::${op}, false, 8>`,
      `_calculate_${op}_`,
    ),
    covers: ['calculate_sfpu_isinf_isnan', `calculate_${op}`],
  })),
  ...(['ADD', 'SUB', 'MUL'] as const).map((op) =>
    reuse(
      'binary',
      'calculate_sfpu_binary',
      `calculate_sfpu_binary<false, BinaryOp::${op}, 8, true>(0, 1, 0)`,
      '_calculate_sfpu_binary_',
      { pick: (c) => c.entry.includes(`BinaryOp::${op},`) },
    ),
  ),
  reuse(
    'binary',
    'calculate_sfpu_binary_mul',
    'calculate_sfpu_binary_mul<false, BinaryOp::MUL, 8, true>(0, 1, 0)',
    '_calculate_sfpu_binary_',
    { pick: (c) => c.entry.includes('BinaryOp::MUL,') },
  ),
  reuse(
    'binary',
    'calculate_sfpu_binary_div',
    'calculate_sfpu_binary_div<false, BinaryOp::DIV, 8, true>(0, 1, 0)',
    '_calculate_sfpu_binary_',
    { pick: (c) => c.entry.includes('BinaryOp::DIV,'), init: ['sfpu_binary_init<false, BinaryOp::DIV>'] },
  ),
  own('add1', 'calculate_add1', 'calculate_add1<false, 8>', {
    expect: (x) => (K.isNanBits(x) ? undefined : K.addF32(x, 0x3f800000)),
    what: 'x + 1 (one FP32 rounding)',
  }),
  own('square', 'calculate_square', 'calculate_square<false, true, 8>', {
    expect: (x) => K.squareFp32(x),
    what: 'x * x (one FP32 rounding)',
  }),
  own('identity', 'calculate_identity', 'calculate_identity<false, 8>', {
    expect: (x) => x,
    what: 'copy',
  }),
  own('heaviside', 'calculate_heaviside', 'calculate_heaviside<false, 8>(0x3f000000u)', {
    expect: (x) => {
      const v = f32(x);
      return Number.isNaN(v) || (x & 0x7fffffff) === 0
        ? Number.isNaN(v)
          ? undefined
          : 0x3f000000
        : v < 0
          ? 0
          : 0x3f800000;
    },
    what: 'heaviside(x, 0.5): 0 below zero, 1 above, 0.5 at ±0',
  }),
  ...(['ne', 'eq', 'gt', 'lt'] as const).map((op) =>
    own('unary_comp', `calculate_unary_${op}`, `calculate_unary_${op}<false, 8>(0x40000000u)`, {
      expect: (x) => {
        const v = f32(x);
        if (Number.isNaN(v)) return undefined;
        const r = op === 'ne' ? v !== 2 : op === 'eq' ? v === 2 : op === 'gt' ? v > 2 : v < 2;
        return r ? 0x3f800000 : 0;
      },
      what: `x ${{ ne: '!=', eq: '==', gt: '>', lt: '<' }[op]} 2.0 as 1.0 / 0.0`,
    }),
  ),
  ...(
    [
      ['wormhole', 'calculate_prelu<false, 8>(0, 0, 0x3e800000u)'],
      ['blackhole', 'calculate_prelu<false, 8>(0x3e800000u)'],
    ] as const
  ).map(([arch, entry]) => ({
    ...own('prelu', 'calculate_prelu', entry, {
      expect: (x) => {
        const v = f32(x);
        return Number.isNaN(v) ? undefined : v < 0 ? bits(Math.fround(v * 0.25)) : x;
      },
      what: 'prelu(x, 0.25): x below zero times 0.25 (exact: a power of two), else x',
    }),
    arches: [arch] as Arch[],
  })),
  own('logical_not_noti', 'calculate_logical_not_unary', 'calculate_logical_not_unary<false>', {
    // -0.0 not checked: \`v == 0\` is SFPSETCC EQ0, whose contract excludes -0 (tt-metal's own
    // ckernel_sfpu_binary.h records it measured: "a bare pow == 0.0f does not fire for pow == -0.0")
    expect: (x) => (Number.isNaN(f32(x)) || x === 0x80000000 ? undefined : x === 0 ? 0x3f800000 : 0),
    what: 'logical not: 1.0 for +0, else 0.0 (-0.0 not checked: SFPSETCC EQ0 is not specified for -0)',
  }),
  own('left_shift', 'calculate_left_shift', 'calculate_left_shift<false, 8>(3)', {
    inputs: ['int32'],
    out: { tile: 0, view: 'raw32' },
    // the kernel keeps the sign bit (setsgn(val << n, v)): the low 31 bits shift, bit 31 stays. INT_MIN
    // not checked: vInt loads read Dst as sign-magnitude (SFPLOAD Mod0 12), where 0x80000000 is -0
    expect: (a) => (a === 0x80000000 ? undefined : (((a << 3) & 0x7fffffff) | (a & 0x80000000)) >>> 0),
    what: 'x << 3 on the 31 magnitude bits, sign bit kept (INT_MIN not checked: it reads as sign-magnitude -0)',
  }),
  // trunc / floor / ceil: integer parts, exact. NaN and ±Inf come back unchanged (no fraction bits are
  // cleared when the exponent is >= 23), denormal inputs are not checked (whether the load flushes them
  // decides ±0 or ±1 for floor / ceil, and that is not what these kernels are about).
  ...(
    [
      ['trunc', Math.trunc],
      ['floor', Math.floor],
      ['ceil', Math.ceil],
    ] as const
  ).map(([op, g]) =>
    own('rounding_ops', `calculate_${op}`, `calculate_${op}<false, 8>`, {
      expect: (x: number) => {
        const e = (x >>> 23) & 0xff;
        if (e === 0 && (x & 0x7fffff) !== 0) return undefined;
        return e === 0xff ? x : bits(g(f32(x)));
      },
      what: `${op}(x), exact (denormal inputs not checked)`,
    }),
  ),
  reuse('rounding_ops', 'calculate_round', 'calculate_round<false, 8>(2)', '_calculate_round_'),
  own('identity', 'calculate_identity_uint', 'calculate_identity_uint<false, 8>', {
    inputs: ['int32'],
    out: { tile: 0, view: 'raw32' },
    // INT_MIN not checked: vUInt loads read Dst as sign-magnitude (SFPLOAD Mod0 12), where it is -0
    expect: (x) => (x === 0x80000000 ? undefined : x),
    what: 'copy (uint32; INT_MIN not checked: it reads as sign-magnitude -0)',
  }),
  own('mask', 'calculate_int_mask', 'calculate_int_mask<false, 8>', {
    inputs: ['int32', 'int32'],
    gen: (rng, t) => {
      const v = K.int32Inputs(rng);
      if (t === 1) for (let i = 0; i < v.length; i += 3) v[i] = 0; // many zero mask entries
      return v;
    },
    out: { tile: 0, view: 'raw32' },
    // x is written only where the mask (tile 1) is zero; a mask of INT_MIN (sign-magnitude -0) not checked
    expect: (x, m) => (m === 0x80000000 ? undefined : m === 0 ? 0 : x),
    what: 'x where the int mask (tile 1) is non-zero, else 0 (a mask of INT_MIN not checked: sign-magnitude -0)',
  }),
  own('relu', 'calculate_lrelu', 'calculate_lrelu<false, 8>(0x3e800000u)', {
    expect: (x) => {
      const v = f32(x);
      return Number.isNaN(v) ? undefined : v < 0 ? bits(Math.fround(v * 0.25)) : x;
    },
    what: 'leaky relu, slope 0.25: x below zero times 0.25 (exact: a power of two), else x',
  }),
  own('where', 'calculate_where_int32', 'calculate_where_int32<false, 8>(0, 1, 2, 0)', {
    inputs: ['int32', 'int32', 'int32'],
    gen: (rng, t) => {
      const v = K.int32Inputs(rng);
      if (t === 0) for (let i = 0; i < v.length; i += 3) v[i] = 0; // many false conditions
      return v;
    },
    out: { tile: 0, view: 'raw32' },
    // INT_MIN not checked in any operand: vInt loads read Dst as sign-magnitude, where it is -0 (stored back as 0)
    expect: (c, t, f) =>
      c === 0x80000000 || t === 0x80000000 || f === 0x80000000 ? undefined : c !== 0 ? t : f,
    what: 'cond != 0 ? true_value : false_value (int32; INT_MIN not checked: it reads as sign-magnitude -0)',
  }),
  floatCase({
    file: 'expm1',
    covers: ['calculate_expm1'],
    entry: 'calculate_expm1<false, true, 8>',
    init: ['expm1_init<false, true>'],
    ref: (x) => (Number.isFinite(x) ? Math.expm1(x) : undefined),
    tol: COMPARE_PCC,
    gen: uniform(-10, 10),
    what: 'expm1(x), x in [-10, 10)',
  }),
  floatCase({
    file: 'cbrt',
    covers: ['calculate_cube_root'],
    entry: 'calculate_cube_root<false, true, 8>',
    init: ['cube_root_init<false>'],
    ref: (x) => (Number.isFinite(x) ? Math.cbrt(x) : undefined),
    tol: COMPARE_PCC,
    gen: uniform(-1000, 1000),
    what: 'cbrt(x), x in [-1000, 1000)',
  }),
];

/** What is known about a case's failure (added to its detail when it is not ok). */
export const METAL_NOTES: Record<string, string> = Object.fromEntries(
  ['isinf', 'isposinf', 'isneginf', 'isnan', 'isfinite', 'sfpu_isinf_isnan'].map((op) => [
    `calculate_${op}`,
    'this (2024) version compares v == ±infinity() / quiet_NaN() / signaling_NaN(): SFPI compiles a compare with a ' +
      'float as SFPMAD v + (-s) then SFPSETCC EQ0 (`axsim tensix compile` shows it), and v - s is NaN for s = NaN and for ' +
      'v = s = ±Inf, so these compares never hold; later tt-metal versions classify on the bit pattern instead ' +
      "(ckernel_sfpu_binary.h's nextafter comment says why)",
  ]),
);

/** ok: ran, every checked element passed; ran: ran, values not checked; wrong: some element differs from the
 * definition; error: it did not compile or run (the first error, located); helper: not an entry point. */
export type MetalStatus = 'ok' | 'ran' | 'wrong' | 'error' | 'helper';
export interface MetalRow {
  arch: Arch;
  file: string;
  function: string;
  status: MetalStatus;
  /** The call that was made. */
  entry?: string;
  detail: string;
}

/** Include search of a metal file: its own directory, then tt-llk's sfpu/, common/inc and llk_lib. */
export function metalLocation(metalRoot: string, llkRoot: string, arch: Arch, file: string): KernelLocation {
  const llk = join(llkRoot, arch === 'wormhole' ? 'tt_llk_wormhole_b0' : 'tt_llk_blackhole');
  const dir = metalDir(metalRoot, arch);
  return {
    path: join(dir, file),
    includeDirs: [dir, join(llk, 'common/inc/sfpu'), join(llk, 'common/inc'), join(llk, 'llk_lib')],
    cycles: true,
  };
}

/** The whole sweep: one row per (arch, file, public function). */
export function runMetalCorpus(
  compile: KernelCompiler,
  metalRoot: string,
  llkRoot: string,
  arches: Arch[] = ['wormhole', 'blackhole'],
  files?: string[],
): MetalRow[] {
  const rows: MetalRow[] = [];
  for (const arch of arches) {
    for (const f of discoverMetal(metalRoot, arch)) {
      const short = f.file.replace(/^ckernel_sfpu_/, '').replace(/\.h$/, '');
      if (files && !files.includes(short)) continue;
      const loc = metalLocation(metalRoot, llkRoot, arch, f.file);
      for (const g of f.functions) {
        const cases = METAL_CASES.filter(
          (c) => c.file === short && c.covers.includes(g.name) && (!c.arches || c.arches.includes(arch)),
        );
        const forms = g.macro ? [{ macro: true }, { macro: false }] : [{ macro: false }];
        const results: { status: MetalStatus; detail: string; entry: string }[] = [];
        if (cases.length === 0) {
          const e = genericEntry(g);
          if ('missing' in e) {
            rows.push({
              arch,
              file: f.file,
              function: g.name,
              status: 'error',
              detail: `runner: ${e.missing}`,
            });
            continue;
          }
          if ('helper' in e) {
            rows.push({ arch, file: f.file, function: g.name, status: 'helper', detail: e.helper });
            continue;
          }
          const c: CorpusCase = {
            file: short,
            covers: [g.name],
            entry: e.entry,
            inputs: ['fp32'],
            out: { tile: 0, view: 'raw32' },
            expect: () => undefined,
            what: 'values not checked',
          };
          for (const form of forms) {
            const r = runCase(compile, metalRoot, arch, c, form, 1, loc);
            results.push({
              status: r.status === 'ok' ? 'ran' : r.status,
              detail: `${tag(g.macro, form.macro)}${r.detail.replace(/^0 elements exact \(values not checked\)(; )?/, '')}`,
              entry: e.entry,
            });
          }
        } else {
          for (const c of cases)
            for (const form of forms) {
              const r = runCase(compile, metalRoot, arch, c, form, 1, loc);
              const note = r.status === 'wrong' && METAL_NOTES[g.name] ? ` — ${METAL_NOTES[g.name]}` : '';
              results.push({
                status: r.status,
                detail: `${tag(g.macro, form.macro)}${r.detail}${note}`,
                entry: c.entry,
              });
            }
        }
        const order: MetalStatus[] = ['error', 'wrong', 'ran', 'ok'];
        const status = order.find((s) => results.some((r) => r.status === s)) ?? 'ok';
        rows.push({
          arch,
          file: f.file,
          function: g.name,
          status,
          entry: [...new Set(results.map((r) => r.entry))].join(' | '),
          detail: results.map((r) => r.detail).join(' | '),
        });
      }
    }
  }
  return rows;
}

function tag(fnMacro: boolean, macro: boolean): string {
  return fnMacro ? (macro ? '[SFPLOADMACRO] ' : '[DISABLE_SFPLOADMACRO] ') : '';
}

/** The table; `roots` (a path -> the name shown) shortens the checkout paths in the details. */
export function metalTableMarkdown(rows: MetalRow[], roots: Record<string, string> = {}): string {
  const L = ['| arch | file | function | status | call | detail |', '|---|---|---|---|---|---|'];
  const esc = (s: string) =>
    Object.entries(roots)
      .reduce((t, [from, to]) => t.split(from).join(to), s)
      .replace(/\|/g, '\\|');
  for (const r of rows)
    L.push(
      `| ${r.arch} | ${r.file.replace(/^ckernel_sfpu_/, '').replace(/\.h$/, '')} | \`${r.function}\` | ${r.status} | ${r.entry ? `\`${esc(r.entry)}\`` : ''} | ${esc(r.detail)} |`,
    );
  return L.join('\n');
}

export function metalSummary(rows: MetalRow[]): string {
  return (['wormhole', 'blackhole'] as Arch[])
    .filter((a) => rows.some((r) => r.arch === a))
    .map((a) => {
      const rs = rows.filter((r) => r.arch === a);
      const n = (s: MetalStatus) => rs.filter((r) => r.status === s).length;
      return `${a}: ${rs.length} functions in ${new Set(rs.map((r) => r.file)).size} files: ${n('ok')} ok (checked), ${n('ran')} ran (unchecked), ${n('wrong')} wrong, ${n('error')} error, ${n('helper')} helpers (run through their callers)`;
    })
    .join('\n');
}
