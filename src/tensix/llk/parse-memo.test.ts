/**
 * The LLK environment's parsed declarations are reused across compiles (src/cfront/parse-memo.ts):
 * kernels that change what the environment's declarations mean (macros defined before the includes,
 * names that clash with the environment's, the environment included inside a namespace, state the
 * environment declares changed by the kernel) compile exactly as without the memo, in any order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { IncludeCache } from '../../cfront/include-cache.ts';
import { ParseMemo } from '../../cfront/parse-memo.ts';
import { AxsimError } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { compileLlk, type LlkRunOptions, loadKernelCompiler } from './run.ts';

const fixture = (p: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/${p}`, import.meta.url)), 'utf8');

/** A compile's whole result (or its error with category, message, location and hint), comparable. */
async function compileOutcome(arch: Arch, o: LlkRunOptions): Promise<string> {
  const compile = await loadKernelCompiler();
  try {
    const { compiled } = compileLlk(compile, new TensixMachine(arch), o);
    return JSON.stringify({
      words: [...compiled.words],
      sources: compiled.sources,
      events: compiled.events,
      warnings: compiled.warnings.map((w) => w.format()),
    });
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    return `error ${e.format()}`;
  }
}

const PROBE = 'ckernel::sfpu::_probe_add_one_<8>';
const RELU = 'axsim_sfpi::calculate_relu<false, 8>';

test('LLK parse memo: kernels that change the environment compile exactly as without the memo, in any order', async () => {
  const probe = fixture('llk/env_probe.h');
  const sfpi = fixture('sfpi/basic.h');
  const l1 = fixture('llk/l1_map.h');
  const kernel = (pre: string, body: string) => `${pre}#include "ckernel.h"\n${body}\n`;
  const cases: [string, Arch, LlkRunOptions][] = [
    ['probe', 'wormhole', { source: probe, file: 'probe.h', entry: PROBE }],
    ['relu', 'wormhole', { source: sfpi, file: 'basic.h', entry: RELU }],
    ['probe bh', 'blackhole', { source: probe, file: 'probe.h', entry: PROBE }],
    // macros defined before the includes: other tokens (include cache miss), other declarations
    [
      'macro',
      'wormhole',
      { source: `#define ADDR_MOD_3 ADDR_MOD_1\n${probe}`, file: 'probe.h', entry: PROBE },
    ],
    ['constexpr', 'wormhole', { source: `#define constexpr const\n${probe}`, file: 'probe.h', entry: PROBE }],
    // names that clash with the environment's, declared before it: a type where it has a constant,
    // a template where it has a namespace, a variable where it has a type
    ['type clash', 'wormhole', { source: `struct LREG0 {};\n${probe}`, file: 'probe.h', entry: PROBE }],
    [
      'template clash',
      'wormhole',
      { source: `template <int N> struct p_sfpu {};\n${probe}`, file: 'probe.h', entry: PROBE },
    ],
    ['var clash', 'wormhole', { source: `int vFloat = 1;\n${sfpi}`, file: 'basic.h', entry: RELU }],
    [
      'typedef clash',
      'wormhole',
      { source: `typedef int addr_mod_t;\n${probe}`, file: 'probe.h', entry: PROBE },
    ],
    // the environment included inside a namespace of the kernel's
    [
      'nested',
      'wormhole',
      {
        source: `namespace outer {\n#include "ckernel.h"\n}\nusing namespace outer;\ninline void k() { TTI_SFPNOP; }\n`,
        file: 'nested.h',
        entry: 'k',
        bare: true,
      },
    ],
    // the environment's namespaces reopened and its state changed by the kernel
    [
      'reopen',
      'wormhole',
      {
        source: kernel(
          'namespace ckernel { namespace sfpu { inline int extra() { return 3; } } }\n',
          'namespace ckernel { constexpr std::uint32_t LREG_MINE = p_sfpu::LREG2; }\n' +
            'inline void k() { TT_SFPLOADI(ckernel::LREG_MINE, 2, ckernel::sfpu::extra()); }',
        ),
        file: 'reopen.h',
        entry: 'k',
      },
    ],
    [
      'writes cfg',
      'wormhole',
      {
        source: kernel(
          '',
          'inline void k() { volatile std::uint32_t *c = ckernel::get_cfg_pointer(); c[186] = 7; TTI_SFPNOP; }',
        ),
        file: 'cfg.h',
        entry: 'k',
      },
    ],
    [
      'l1',
      'wormhole',
      {
        source: l1,
        file: 'l1.h',
        entry: '_calculate_from_l1_(0x2000)',
        memory: [
          {
            name: 'l1',
            base: 0x2000,
            bytes: Uint8Array.from([1, 2, 3, 4, 255, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 5, 255, 7, 9]),
          },
        ],
      },
    ],
    [
      'broken',
      'wormhole',
      { source: probe.replace('TTI_SFPADDI(0x3f80', 'TTI_SFPADDX(0x3f80'), file: 'probe.h', entry: PROBE },
    ],
    ['relu bh', 'blackhole', { source: sfpi, file: 'basic.h', entry: RELU }],
  ];
  const inc = new IncludeCache();
  const memo = new ParseMemo();
  const plain = new Map<string, string>();
  for (const [name, arch, o] of cases)
    plain.set(name, await compileOutcome(arch, { ...o, includeCache: false, parseMemo: false }));
  // every case after every other: forwards, backwards, then the clashing ones between plain ones
  const order = [...cases, ...[...cases].reverse(), ...cases.flatMap((c) => [cases[0]!, c])];
  for (const [name, arch, o] of order)
    assert.equal(
      await compileOutcome(arch, { ...o, includeCache: inc, parseMemo: memo }),
      plain.get(name),
      name,
    );
  const outcomes = [...plain.values()];
  // (the clashing names the kernel does not use leave its words as the probe's)
  assert.ok(new Set(outcomes).size >= 12, 'the cases compile differently');
  assert.ok(outcomes.filter((x) => !x.startsWith('error')).length >= 8, outcomes.join('\n').slice(0, 3000));
  const s = memo.stats();
  assert.ok(s.hits > order.length * 10, JSON.stringify(s));
});
