/**
 * `compileSfpi(source, arch, opts)`: an SFPI kernel file compiled in the LLK environment (its
 * `ckernel.h`/`sfpi.h` served by src/tensix/llk/headers.ts), the entry called once. The result is the
 * emitter's: words, per-word source positions, warnings, config events.
 */
import { type AssembleResult, compileKernel, type KernelOptions } from '../asm/kernel.ts';
import type { Arch } from '../encoding.ts';
import { llkHeaders } from '../llk/headers.ts';

export type SfpiOptions = Omit<KernelOptions, 'arch'>;

export function compileSfpi(source: string, arch: Arch, opts: SfpiOptions = {}): AssembleResult {
  return compileKernel(source, {
    ...opts,
    arch,
    defines: { [arch === 'wormhole' ? 'ARCH_WORMHOLE' : 'ARCH_BLACKHOLE']: 1, ...opts.defines },
    virtualFiles: { ...llkHeaders(arch), ...opts.virtualFiles },
  });
}
