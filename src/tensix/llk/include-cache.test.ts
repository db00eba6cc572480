import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { IncludeCache } from '../../cfront/include-cache.ts';
import { AxsimError } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { compileLlk, type LlkRunOptions, loadKernelCompiler } from './run.ts';

const fixture = (p: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/${p}`, import.meta.url)), 'utf8');

/** A compile's whole result (or its error), comparable. */
async function compileOutcome(arch: Arch, o: LlkRunOptions): Promise<unknown> {
  const compile = await loadKernelCompiler();
  try {
    const { compiled, driver } = compileLlk(compile, new TensixMachine(arch), o);
    return {
      driver,
      words: [...compiled.words],
      sources: compiled.sources,
      events: compiled.events,
      warnings: compiled.warnings.map((w) => w.format()),
    };
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    return { error: e.format() };
  }
}

test('LLK include cache: kernels A, B, A, … compile exactly as without the cache (both arches, errors too)', async () => {
  const probe = fixture('llk/env_probe.h');
  const sfpi = fixture('sfpi/basic.h');
  const lib = fixture('sfpi/lib.h');
  // a macro defined before the environment's headers changes the state they are preprocessed in
  const redefined = `#define ADDR_MOD_3 ADDR_MOD_1\n${probe}`;
  const broken = probe.replace('TTI_SFPADDI(0x3f80', 'TTI_SFPADDX(0x3f80');
  const cases: [Arch, LlkRunOptions][] = [
    ['wormhole', { source: probe, file: 'probe.h', entry: 'ckernel::sfpu::_probe_add_one_<8>' }],
    ['wormhole', { source: sfpi, file: 'basic.h', entry: 'axsim_sfpi::calculate_relu<false, 8>' }],
    ['wormhole', { source: probe, file: 'probe.h', entry: 'ckernel::sfpu::_probe_add_one_<8>' }],
    ['blackhole', { source: probe, file: 'probe.h', entry: 'ckernel::sfpu::_probe_add_one_<8>' }],
    ['wormhole', { source: redefined, file: 'probe.h', entry: 'ckernel::sfpu::_probe_add_one_<8>' }],
    ['wormhole', { source: broken, file: 'probe.h', entry: 'ckernel::sfpu::_probe_add_one_<8>' }],
    ['wormhole', { source: lib, file: 'lib.h', entry: 'axsim_sfpi_lib::scale_by_prgm0<8>' }],
    ['blackhole', { source: sfpi, file: 'basic.h', entry: 'axsim_sfpi::calculate_relu<false, 8>' }],
    ['wormhole', { source: probe, file: 'probe.h', entry: 'ckernel::sfpu::_probe_add_one_<8>', bare: true }],
    ['wormhole', { source: probe, file: 'probe.h', entry: 'ckernel::sfpu::_probe_add_one_<8>' }],
    ['wormhole', { source: sfpi, file: 'basic.h', entry: 'axsim_sfpi::calculate_relu<false, 8>' }],
  ];
  const cache = new IncludeCache();
  const seen = new Set<string>();
  for (const [k, [arch, o]] of cases.entries()) {
    const cached = await compileOutcome(arch, { ...o, includeCache: cache });
    const plain = await compileOutcome(arch, { ...o, includeCache: false });
    assert.deepEqual(cached, plain, `case ${k}`);
    seen.add(JSON.stringify(plain));
  }
  assert.equal(seen.size, 8); // the repeated cases aside, every case differs
  assert.match(JSON.stringify([...seen]), /TTI_SFPADDX/);
  assert.ok(cache.stats().hits >= 10, JSON.stringify(cache.stats()));
});
