/**
 * runLlkKernel: compile a tt-llk-style kernel file with the LLK environment (headers.ts) and the
 * generated set-up driver (driver.ts), then run it on a TensixMachine — sequentially, or under the
 * cycle model (which also runs SFPLOADMACRO schedules). Config-register writes the RISC-V makes
 * (init_prng_seed's store through get_cfg_pointer) arrive from the front end as events between words
 * and are applied here at their place in the stream (docs/tensix-llk.md).
 */
import { AxsimError, badInput, unsupported } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import type { TensixMachine } from '../index.ts';
import { type Hazard, type HazardMode, runTimedProgram } from '../timing/index.ts';
import { DRIVER_ENTRY, DRIVER_FILE, driverSource, type LlkDriverOptions } from './driver.ts';
import { llkHeaders, PRNG_SEED_ADDR32 } from './headers.ts';

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

/** What the front end's compileKernel returns (NOTES/cfront-api.md). */
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
}

export type KernelCompiler = (source: string, opts: CompileKernelOptions) => CompiledKernel;

export interface LlkRunOptions extends Omit<LlkDriverOptions, 'arch'> {
  /** The kernel file's text and its path (for locations and relative includes). */
  source: string;
  file: string;
  defines?: Record<string, string | number | bigint>;
  /** Directories searched for includes the environment does not provide (e.g. tt-llk's sfpu/). */
  includeDirs?: string[];
  /** Run under the cycle model (needed for SFPLOADMACRO schedules); default sequential. */
  timed?: boolean;
  hazards?: HazardMode;
}

export interface LlkRunResult {
  words: Uint32Array;
  sources: SourceLoc[];
  warnings: AxsimError[];
  events: CfgWriteEvent[];
  driver: string;
  hazards: Hazard[];
  cycles?: number;
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
    defines: o.defines,
    includeDirs: o.includeDirs,
    virtualFiles: { ...llkHeaders(m.arch), [DRIVER_FILE]: driver },
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
        const r = runTimedProgram(m, words, { hazards: opts.hazards ?? 'warn' });
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
export async function runLlkKernel(m: TensixMachine, o: LlkRunOptions): Promise<LlkRunResult> {
  const compile = await loadKernelCompiler();
  const { driver, compiled } = compileLlk(compile, m, o);
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
