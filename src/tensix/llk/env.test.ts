/**
 * The LLK environment, step by step, on our own fixture kernel (test/fixtures/llk/env_probe.h).
 * Expected values are worked out by hand from the kernel and the step under test.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { f32ToBits } from './checks.ts';
import { type KernelCompiler, type LlkRunOptions, runLlkKernel } from './run.ts';

const FILE = join(import.meta.dirname, '../../../test/fixtures/llk/env_probe.h');
const SOURCE = readFileSync(FILE, 'utf8');
/** Element i of the input tile: the integer (i % 17) - 8, as FP32. */
const input = (i: number) => (i % 17) - 8;

const testCompiler: KernelCompiler | undefined = undefined; // the project's front end

async function run(
  arch: Arch,
  o: Omit<LlkRunOptions, 'source' | 'file'>,
  setup?: (m: TensixMachine) => void,
) {
  const m = new TensixMachine(arch);
  for (let t = 0; t < 2; t++)
    m.writeDstTile(
      t,
      Array.from({ length: 1024 }, (_, i) => f32ToBits(input(i) + 100 * t)),
      'fp32',
    );
  setup?.(m);
  const r = await runLlkKernel(m, { source: SOURCE, file: FILE, ...o }, testCompiler);
  return {
    m,
    r,
    out: (t = 0) =>
      Array.from(m.readDstTile(t, 'fp32'), (b) => new Float32Array(Uint32Array.of(b).buffer)[0]!),
  };
}

/** Tile element index -> (face, row in face, column in face). */
const where = (i: number) => {
  const r = i >> 5;
  const c = i & 31;
  return { face: (r >> 4) * 2 + (c >> 4), row: r & 15, col: c & 15 };
};

for (const arch of ['wormhole', 'blackhole'] as const) {
  describe(`LLK environment (${arch})`, () => {
    it('API init for an op type with ADDR_MOD_6 (+2) and the 4-face loop: every element + 1', async () => {
      const { out } = await run(arch, { entry: '_probe_add_one_<8>', sfpuType: 'typecast' });
      out().forEach((v, i) => {
        assert.equal(v, input(i) + 1, `element ${i}`);
      });
    });
    it('without that op type ADDR_MOD_6 is not programmed: 8 passes over rows 0-3, even columns', async () => {
      const { out } = await run(arch, { entry: '_probe_add_one_<8>' });
      out().forEach((v, i) => {
        const w = where(i);
        assert.equal(v, input(i) + (w.row < 4 && w.col % 2 === 0 ? 8 : 0), `element ${i}`);
      });
    });
    it('vector modes: r = faces 0 and 1, c = faces 0 and 2', async () => {
      for (const [mode, faces] of [
        ['r', [0, 1]],
        ['c', [0, 2]],
      ] as const) {
        const { out } = await run(arch, {
          entry: '_probe_add_one_<8>',
          sfpuType: 'typecast',
          vectorMode: mode,
        });
        out().forEach((v, i) => {
          assert.equal(v, input(i) + (faces.includes(where(i).face as 0) ? 1 : 0), `${mode} ${i}`);
        });
      }
    });
    it('the Dst tile the API selects (DEST_TARGET_REG_CFG_MATH_Offset = 64 for tile 1)', async () => {
      const { out } = await run(arch, { entry: '_probe_add_one_<8>', sfpuType: 'typecast', dstTile: 1 });
      out(0).forEach((v, i) => {
        assert.equal(v, input(i));
      });
      out(1).forEach((v, i) => {
        assert.equal(v, input(i) + 101);
      });
    });
    it('the firmware enables condition codes: only negative elements are zeroed; --bare does not', async () => {
      const env = await run(arch, { entry: '_probe_zero_negatives_<8>' });
      env.out().forEach((v, i) => {
        assert.equal(v, Math.max(input(i), 0), `element ${i}`);
      });
      // --bare also skips _llk_math_hw_configure_, so the test sets the FP32 Dst mode itself
      const bare = await run(arch, { entry: '_probe_zero_negatives_<8>', bare: true }, (m) =>
        m.configure({ sfpuFp32: true }),
      );
      // one call, no CC: the 8 iterations zero all 16 rows of face 0 and nothing else
      bare.out().forEach((v, i) => {
        assert.equal(v, where(i).face === 0 ? 0 : input(i), `bare ${i}`);
      });
    });
    it('the op init runs before the kernel (vConstFloatPrgm0 = 2.0f, then x * LReg[12])', async () => {
      const { out } = await run(arch, { entry: '_probe_scale_<8>', init: ['_init_probe_scale_()'] });
      out().forEach((v, i) => {
        assert.equal(v, 2 * input(i));
      });
    });
    it('--seed seeds the PRNG as writing PRNG_SEED_Seed_Val does', async () => {
      const a = await run(arch, { entry: '_probe_random_<8>', seed: 42 });
      const b = await run(arch, { entry: '_probe_random_<8>', seed: 43 });
      const ref = await run(arch, { entry: '_probe_random_<8>', bare: true }, (m) => m.state.seedPrng(42));
      const face0 = (m: TensixMachine) => Array.from(m.readDstRows(0, 256, 'int32'));
      assert.deepEqual(face0(a.m), face0(ref.m));
      assert.notDeepEqual(face0(a.m), face0(b.m));
      assert.equal(a.r.events.length, 1);
    });
    it('a run-time error names the kernel line of the instruction', async () => {
      const line = SOURCE.split('\n').findIndex((l) => l.includes('TTI_SFPPOPC')) + 1;
      await assert.rejects(
        run(arch, { entry: '_probe_bad_pop_', vectorMode: 'none' }),
        (e: unknown) => e instanceof AxsimError && e.location?.file === FILE && e.location.line === line,
      );
    });
  });
}
