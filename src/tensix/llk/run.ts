/**
 * runLlkKernel: compile a tt-llk-style kernel file with the LLK environment (headers.ts) and the
 * generated set-up driver (driver.ts), then run it on a TensixMachine — sequentially, or under the
 * cycle model (which also runs SFPLOADMACRO schedules). Config-register writes the RISC-V makes
 * (init_prng_seed's store through get_cfg_pointer) arrive from the front end as events between words
 * and are applied here at their place in the stream (docs/tensix-llk.md).
 */
import type { Budget } from '../../budget.ts';
import { IncludeCache } from '../../cfront/include-cache.ts';
import { ParseMemo } from '../../cfront/parse-memo.ts';
import { AxsimError, badInput, unsupported } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import type { TensixMachine } from '../index.ts';
import { type Hazard, type HazardMode, runTimedProgram } from '../timing/index.ts';
import { DRIVER_ENTRY, DRIVER_FILE, driverSource, type LlkDriverOptions } from './driver.ts';
import { llkBuildDefines, llkHeaders, PRNG_SEED_ADDR32 } from './headers.ts';

export interface SourceLoc {
  file: string;
  line: number;
  col: number;
}

export interface CfgWriteEvent {
  at: number;
  kind: 'cfg_write';
  addr: number;
  value: number;
  source?: SourceLoc;
}

/** What the front end's compileKernel returns (src/tensix/asm/kernel.ts, docs/cfront.md). */
export interface CompiledKernel {
  words: Uint32Array;
  sources?: SourceLoc[];
  warnings: AxsimError[];
  events?: CfgWriteEvent[];
}

export interface CompileKernelOptions {
  arch: Arch;
  file?: string;
  entry?: string;
  defines?: Record<string, string | number | bigint>;
  includeDirs?: string[];
  virtualFiles?: Record<string, string>;
  /** Plain memory the kernel's RISC-V code reads (an L1 buffer), mapped at `base`. */
  memory?: { name: string; base: number; bytes: Uint8Array }[];
  /** Resource limits of the C++ evaluation (src/budget.ts); the defaults when absent. */
  budget?: Budget;
  includeCache?: IncludeCache;
  parseMemo?: ParseMemo;
}

export type KernelCompiler = (source: string, opts: CompileKernelOptions) => CompiledKernel;

export interface LlkRunOptions extends Omit<LlkDriverOptions, 'arch'> {
  /** The kernel file's text and its path (for locations and relative includes). */
  source: string;
  file: string;
  defines?: Record<string, string | number | bigint>;
  /** Directories searched for includes the environment does not provide (e.g. tt-llk's sfpu/). */
  includeDirs?: string[];
  /** L1 contents the kernel reads through a pointer (mapped for the compile-time RISC-V code). */
  memory?: { name: string; base: number; bytes: Uint8Array }[];
  /** Run under the cycle model (needed for SFPLOADMACRO schedules); default sequential. */
  timed?: boolean;
  /** `_llk_math_hw_configure_` arguments; applied before the run unless `bare`. */
  hw?: HwConfig;
  hazards?: HazardMode;
  /** Resource limits of the compile (src/budget.ts); the defaults when absent. */
  budget?: Budget;
  /**
   * Reuse of the environment headers' preprocessing across compiles (exact: src/cfront/include-cache.ts).
   * Default: one cache per process, shared by every LLK compile; `false` preprocesses everything anew.
   */
  includeCache?: IncludeCache | false;
  /**
   * Reuse of the environment's parsed declarations across compiles (exact: src/cfront/parse-memo.ts).
   * Default: one memo per process (with the default include cache; none when includeCache is false).
   */
  parseMemo?: ParseMemo | false;
}

/** The process's cache of the LLK environment's preprocessed headers (bounded, see IncludeCache). */
export const LLK_INCLUDE_CACHE = new IncludeCache();
/** The process's memo of the LLK environment's parsed declarations (bounded, see ParseMemo). */
export const LLK_PARSE_MEMO = new ParseMemo();

export interface LlkRunResult {
  words: Uint32Array;
  sources: SourceLoc[];
  warnings: AxsimError[];
  events: CfgWriteEvent[];
  driver: string;
  hazards: Hazard[];
  cycles?: number;
}

/** tt-metal DataFormat codes (tensix_types.h) of the formats `_llk_math_hw_configure_` tests. */
export const DATA_FORMATS: Record<string, number> = {
  Float32: 0,
  Float16: 1,
  Bfp8: 2,
  Bfp4: 3,
  Tf32: 4,
  Float16_b: 5,
  Bfp8_b: 6,
  Bfp4_b: 7,
  Int32: 8,
  UInt16: 9,
  Lf8: 10,
  Bfp2: 11,
  Int8: 14,
  Bfp2_b: 15,
  UInt32: 24,
  UInt8: 30,
};

/** What `_llk_math_hw_configure_<is_fp32_dest_acc_en>(srca, srcb)` is given. */
export interface HwConfig {
  /** is_fp32_dest_acc_en: 32-bit Dst (ALU_ACC_CTRL_SFPU_Fp32_enabled). Default true. */
  fp32Dest?: boolean;
  /** The unpacked data formats (DataFormat names). Default Float32. */
  srcA?: string;
  srcB?: string;
}

/**
 * `_llk_math_hw_configure_` (tt-llk llk_lib/llk_math_common.h), applied to the machine directly (it is
 * RISC-V configuration work): SFPU FP32 mode, the SrcB format, and DBG_FEATURE_DISABLE bit 11 (16-bit
 * Dst accesses reach the high halves of 32-bit rows) when the data is Int8/UInt8/Int32 ("int8 math")
 * or UInt16 with a 32-bit Dst.
 */
export function applyHwConfigure(m: TensixMachine, hw: HwConfig = {}): void {
  const code = (name: string | undefined) => {
    const v = DATA_FORMATS[name ?? 'Float32'];
    if (v === undefined)
      throw badInput(`unknown data format '${name}'`, { hint: Object.keys(DATA_FORMATS).join(', ') });
    return v;
  };
  const a = code(hw.srcA);
  const b = code(hw.srcB ?? hw.srcA);
  const fp32 = hw.fp32Dest ?? true;
  const int8Math = (a & 15) === 14 || (b & 15) === 14 || a === 8 || b === 8;
  const uint16Fp32 = fp32 && (a === 9 || b === 9);
  m.configure({ sfpuFp32: fp32, srcBFormat: b & 15, dst16bHigh: int8Math || uint16Fp32 });
}

let compilerCache: KernelCompiler | undefined;

/** The project's C++ front end (src/cfront via the Tensix emitter), loaded on first use. */
export async function loadKernelCompiler(): Promise<KernelCompiler> {
  if (compilerCache) return compilerCache;
  const mod = (await import('../asm/index.ts')) as Record<string, unknown>;
  const f = mod.compileKernel;
  if (typeof f !== 'function')
    throw unsupported('the C++ kernel front end (compileKernel) is not available in this build', {
      hint: 'issue 11 item 1 (src/cfront) provides it',
    });
  compilerCache = f as KernelCompiler;
  return compilerCache;
}

/** Compiles kernel + environment + driver to words (nothing is run). */
export function compileLlk(compile: KernelCompiler, m: TensixMachine, o: LlkRunOptions) {
  const driver = driverSource({ ...o, arch: m.arch });
  const source = `${o.source}${o.source.endsWith('\n') ? '' : '\n'}#include "${DRIVER_FILE}"\n`;
  const compiled = compile(source, {
    arch: m.arch,
    file: o.file,
    entry: DRIVER_ENTRY,
    // what a tt-metal build defines before any kernel header (headers.ts)
    defines: {
      ...llkBuildDefines(m.arch),
      ...o.defines,
    },
    includeDirs: o.includeDirs,
    virtualFiles: { ...llkHeaders(m.arch), [DRIVER_FILE]: driver },
    memory: o.memory,
    ...(o.budget ? { budget: o.budget } : {}),
    ...(o.includeCache === false ? {} : { includeCache: o.includeCache ?? LLK_INCLUDE_CACHE }),
    ...(o.parseMemo === false || (o.parseMemo === undefined && o.includeCache === false)
      ? {}
      : { parseMemo: o.parseMemo ?? LLK_PARSE_MEMO }),
  });
  return { driver, compiled };
}

/** Applies one RISC-V config-register write to the machine. */
export function applyCfgWrite(m: TensixMachine, e: CfgWriteEvent): void {
  const st = m.state;
  if (e.addr === PRNG_SEED_ADDR32) {
    st.seedPrng(e.value >>> 0);
    return;
  }
  if (e.addr >= 0 && e.addr < st.params.cfgSize) {
    st.cfg[st.cfgIndex(e.addr)] = e.value >>> 0;
    return;
  }
  const at = e.source ? `${e.source.file}:${e.source.line}:${e.source.col}: ` : '';
  throw unsupported(`${at}config register ${e.addr} (written from the RISC-V side) is not modelled`, {
    hint: `modelled: PRNG_SEED_Seed_Val (${PRNG_SEED_ADDR32}) and the ${st.params.cfgSize} registers RMWCIB reaches`,
  });
}

/** Runs compiled words with their config events in order; sequential unless `timed`. */
export function runCompiled(
  m: TensixMachine,
  c: CompiledKernel,
  opts: { timed?: boolean; hazards?: HazardMode } = {},
): { hazards: Hazard[]; cycles?: number } {
  const events = [...(c.events ?? [])].sort((a, b) => a.at - b.at);
  const hazards: Hazard[] = [];
  let cycles: number | undefined = opts.timed ? 0 : undefined;
  let from = 0;
  const runChunk = (to: number) => {
    if (to <= from) return;
    const words = c.words.subarray(from, to);
    try {
      if (opts.timed) {
        // chunk-relative source map: hazards and errors then name the kernel's file:line:col
        const r = runTimedProgram(m, words, {
          hazards: opts.hazards ?? 'warn',
          sources: c.sources?.slice(from, to),
        });
        for (const h of r.hazards) hazards.push(h.index >= 0 ? { ...h, index: h.index + from } : h);
        cycles = (cycles ?? 0) + r.cycles;
      } else m.run(words);
    } catch (err) {
      throw locateError(err, c, from);
    }
    from = to;
  };
  for (const e of events) {
    if (e.at < from || e.at > c.words.length) throw badInput(`config event at word ${e.at} is out of order`);
    runChunk(e.at);
    applyCfgWrite(m, e);
  }
  runChunk(c.words.length);
  return { hazards, cycles };
}

/** Adds the kernel source location of the failing word to a run-time error (source mapping). */
export function locateError(err: unknown, c: CompiledKernel, offset: number): unknown {
  if (!(err instanceof AxsimError) || !c.sources) return err;
  const idx = err.location?.index;
  if (idx === undefined) return err;
  const s = c.sources[offset + idx];
  if (!s) return err;
  return new AxsimError(err.category, err.message, {
    location: { file: s.file, line: s.line, col: s.col, index: offset + idx },
    hint: err.hint,
    cause: err,
  });
}

/** Compile and run a kernel with the LLK environment on `m` (its Dst holds the inputs). */
export async function runLlkKernel(
  m: TensixMachine,
  o: LlkRunOptions,
  compiler?: KernelCompiler,
): Promise<LlkRunResult> {
  const compile = compiler ?? (await loadKernelCompiler());
  const { driver, compiled } = compileLlk(compile, m, o);
  if (!o.bare) applyHwConfigure(m, o.hw);
  const r = runCompiled(m, compiled, { timed: o.timed, hazards: o.hazards });
  return {
    words: compiled.words,
    sources: compiled.sources ?? [],
    warnings: compiled.warnings,
    events: compiled.events ?? [],
    driver,
    hazards: r.hazards,
    cycles: r.cycles,
  };
}
