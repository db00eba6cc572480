/**
 * `axsim tensix run kernel.h --entry ...`: the CLI side of the LLK environment (docs/tensix-llk.md).
 * Parses the environment options and compiles the kernel with runLlk's pieces; running stays in
 * the `run` command so that the Dst loading, timing and printing are shared with word programs.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Budget } from '../budget.ts';
import { badInput } from '../errors.ts';
import type { Arch } from '../tensix/encoding.ts';
import { TensixMachine } from '../tensix/index.ts';
import { inferLlkApi, type LlkApiKind, type LlkVectorMode } from '../tensix/llk/driver.ts';
import { type CompiledKernel, compileLlk, loadKernelCompiler } from '../tensix/llk/run.ts';
import { readInputText } from './files.ts';

export interface LlkCliOptions {
  entry?: string;
  init?: string[];
  define?: string[];
  include?: string[];
  seed?: string;
  bare?: boolean;
  api?: string;
  sfpuType?: string;
  vectorMode?: string;
  dstTile?: string;
  dataFormat?: string;
  /** `ADDR=FILE`: the file's bytes mapped at ADDR for the kernel's RISC-V code (an L1 buffer). */
  l1?: string[];
}

/** Commander collector for repeatable options. */
export function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
}

function int(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw badInput(`${what} '${v}' is not an integer`);
  return n;
}

/** Compiles `file` (a C++ kernel) with the LLK environment for `run`. */
export async function compileLlkFromCli(
  file: string,
  arch: Arch,
  o: LlkCliOptions,
  budget?: Budget,
): Promise<{ compiled: CompiledKernel; note: string }> {
  const api = o.api as LlkApiKind | undefined;
  if (api !== undefined && !['unary', 'binary', 'ternary'].includes(api))
    throw badInput(`--api ${api}: use unary, binary or ternary`);
  const mode = o.vectorMode as LlkVectorMode | undefined;
  if (mode !== undefined && !['rc', 'r', 'c', 'none'].includes(mode))
    throw badInput(`--vector-mode ${mode}: use rc, r, c or none`);
  const defines: Record<string, string> = {};
  for (const d of o.define ?? []) {
    const k = d.indexOf('=');
    const name = k < 0 ? d : d.slice(0, k);
    if (!/^[A-Za-z_]\w*$/.test(name)) throw badInput(`-D ${d}: '${name}' is not a macro name`);
    defines[name] = k < 0 ? '1' : d.slice(k + 1);
  }
  const inferred = o.sfpuType === undefined && api === undefined ? inferLlkApi(file) : undefined;
  const dir = dirname(file);
  const compile = await loadKernelCompiler();
  const { compiled } = compileLlk(compile, new TensixMachine(arch), {
    source: readInputText(file),
    file,
    entry: o.entry!,
    init: o.init,
    defines,
    // the kernel's directory, then its parent (tt-llk kernels include "sfpu/..." and siblings)
    includeDirs: [dir, dirname(dir), ...(o.include ?? [])],
    api: api ?? inferred?.api,
    sfpuType: o.sfpuType ?? inferred?.sfpuType,
    vectorMode: mode,
    dstTile: int(o.dstTile, '--dst-tile'),
    seed: int(o.seed, '--seed'),
    bare: o.bare,
    memory: (o.l1 ?? []).map(l1Block),
    budget,
  });
  const note = o.bare
    ? 'LLK set-up: none (--bare)'
    : `LLK set-up: ${api ?? inferred?.api ?? 'unary'} SFPU API, SfpuType::${o.sfpuType ?? inferred?.sfpuType ?? 'unused'}${inferred ? ' (from the file name)' : ''}, faces ${mode ?? 'rc'}${o.seed !== undefined ? `, PRNG seed ${o.seed}` : ''}`;
  return { compiled, note };
}

/** `--l1 ADDR=FILE` -> a memory block (the file's bytes at ADDR). */
function l1Block(spec: string, k: number): { name: string; base: number; bytes: Uint8Array } {
  const m = /^(0x[0-9a-fA-F]+|\d+)=(.+)$/.exec(spec);
  if (!m) throw badInput(`--l1 ${spec}: expected ADDR=FILE (e.g. 0x20000=map.bin)`);
  return { name: `l1-${k}`, base: Number(m[1]), bytes: new Uint8Array(readFileSync(m[2]!)) };
}

/** `file:line:col` of word `index` of a compiled kernel, or `[instruction index]`. */
export function llkWhere(c: CompiledKernel, index: number): string {
  const s = c.sources?.[index];
  return s ? `${s.file}:${s.line}:${s.col}` : `[instruction ${index}]`;
}
