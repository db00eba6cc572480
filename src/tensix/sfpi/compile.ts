/**
 * `compileSfpi(source, arch, opts)`: an SFPI kernel file compiled in the LLK environment (its
 * `ckernel.h`/`sfpi.h` served by src/tensix/llk/headers.ts, and the definitions a tt-metal build has
 * before any kernel header, llkBuildDefines), the entry called once. The result is the
 * emitter's: words, per-word source positions, warnings, config events.
 */
import { type AssembleResult, compileKernel, type KernelOptions } from '../asm/kernel.ts';
import type { Arch } from '../encoding.ts';
import { llkBuildDefines, llkHeaders } from '../llk/headers.ts';

export type SfpiOptions = Omit<KernelOptions, 'arch'>;

export function compileSfpi(source: string, arch: Arch, opts: SfpiOptions = {}): AssembleResult {
  return compileKernel(source, {
    ...opts,
    arch,
    defines: { ...llkBuildDefines(arch), ...opts.defines },
    virtualFiles: { ...llkHeaders(arch), ...opts.virtualFiles },
  });
}
