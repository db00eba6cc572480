// The example gallery: the repository's examples/ directory, bundled at build time (each file is
// its own chunk, loaded when chosen), with the options each needs to run as its README says.
import type { Isa } from './protocol.ts';

const texts = import.meta.glob('../../examples/**/*.{sfpu,amx,pto}', {
  query: '?raw',
  import: 'default',
}) as Record<string, () => Promise<string>>;
const npys = import.meta.glob('../../examples/{tensix,pto}/*.npy', {
  query: '?inline',
  import: 'default',
}) as Record<string, () => Promise<string>>;

// C++ kernels (the LLK environment, docs/tensix-llk.md): the project's own SFPI fixture kernels
const kernels = import.meta.glob(['../../test/fixtures/sfpi/basic.h', '../../examples/amx/c/sgemm_fma32.c'], {
  query: '?raw',
  import: 'default',
}) as Record<string, () => Promise<string>>;

/** The entry each bundled C++ kernel runs (its `--entry`), by example path. */
const KERNEL_ENTRY: Record<string, string> = {
  'tensix/sfpi/basic.h': 'axsim_sfpi::calculate_clamp_m2_3<8>',
  // the README's `axsim amx run examples/amx/c/sgemm_fma32.c --entry ... --arg ...`
  'amx/c/sgemm_fma32.c': 'sgemm(64, 64, 16, A, B, C)',
};
const KERNEL_ARGS: Record<string, string> = {
  'amx/c/sgemm_fma32.c': 'A=A16x64.npy B=B16x64.npy C=f4:64x64',
};
/** The scalar reference each bundled AMX C kernel is compared with (docs/amx-c.md's `--ref`). */
const KERNEL_REF: Record<string, string> = {
  'amx/c/sgemm_fma32.c': 'sgemm_ref',
};

export interface Example {
  /** Path under examples/, e.g. tensix/relu.sfpu. */
  path: string;
  isa: Isa;
  name: string;
  load: () => Promise<string>;
}

const ISA_OF: Record<string, Isa> = { sfpu: 'tensix', amx: 'amx', pto: 'pto' };

export const EXAMPLES: Example[] = Object.entries(texts)
  .map(([k, load]) => {
    const path = k.replace(/^.*\/examples\//, '');
    const ext = path.slice(path.lastIndexOf('.') + 1);
    return { path, isa: ISA_OF[ext]!, name: path.slice(path.indexOf('/') + 1), load };
  })
  .concat(
    Object.entries(kernels).map(([k, load]): Example => {
      const base = k.slice(k.lastIndexOf('/') + 1);
      if (base.endsWith('.c'))
        return { path: `amx/c/${base}`, isa: 'amx', name: `c/${base} (C kernel)`, load };
      const path = `tensix/sfpi/${base}`;
      return { path, isa: 'tensix', name: `${path.slice(7)} (C++ kernel)`, load };
    }),
  )
  .sort((a, b) => a.path.localeCompare(b.path));

/** The arguments of examples/pto programs (examples/pto/README.md). */
const PTO_ARGS: Record<string, string> = {
  'pto/add.pto': 'a=A16x64.npy b=B16x64.npy c=zeros:16x64:f4',
  'pto/add-scalar.pto': 'a=A16x16.npy s=2.5 c=zeros:16x16:f4',
  'pto/softmax.pto': 'x=X16x128.npy y=zeros:16x128:f4',
  'pto/matmul.pto': 'a=A16x32f16.npy b=B32x16f16.npy c=zeros:16x16:f4',
  'pto/dynamic-valid.pto': 'x=X2x32.npy y=zeros:2x32:f4',
};

/** The options an example runs with by default. */
export function defaultOptions(isa: Isa, path?: string): Record<string, string> {
  const name = path ?? '';
  if (isa === 'tensix') {
    const entry = KERNEL_ENTRY[name];
    if (entry !== undefined) return { arch: 'wormhole', input: 'ramp-fp32', lang: 'cpp', entry };
    return {
      arch: /(^|\/)bh_/.test(name) ? 'blackhole' : 'wormhole',
      input: /int|uint/.test(name) ? 'ramp-int32' : 'tile.npy',
    };
  }
  if (isa === 'amx') {
    const entry = KERNEL_ENTRY[name];
    if (entry !== undefined)
      return {
        gen: 'm1',
        etype: 'f32',
        lang: 'c',
        entry,
        args: KERNEL_ARGS[name] ?? '',
        ref: KERNEL_REF[name] ?? '',
      };
    return { gen: 'm1', mem: '0x30000:4096', etype: 'f32' };
  }
  return { profile: 'cpu', cost: 'a2a3', args: PTO_ARGS[name] ?? '' };
}

/** The bundled input files (tile.npy and examples/pto/*.npy) as bytes, by file name. */
export async function loadInputs(isa: Isa): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  // AMX C kernels take examples/pto's arrays as arguments (as the README's CLI example does)
  const dir = isa === 'tensix' ? '/tensix/' : '/pto/';
  await Promise.all(
    Object.entries(npys)
      .filter(([k]) => k.includes(dir))
      .map(async ([k, load]) => {
        const url = await load();
        out[k.slice(k.lastIndexOf('/') + 1)] = new Uint8Array(await (await fetch(url)).arrayBuffer());
      }),
  );
  return out;
}
