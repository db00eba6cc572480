/**
 * `axsim tensix compile kernel.h --entry ...` (docs/sfpi.md): the listing under the source lines, its
 * JSON form, and the README's SFPI example (its commands run; its listing is what the command prints).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readNpy } from '../io/index.ts';
import { runTensixCli as cli } from '../tensix/cli-testkit.ts';

const ROOT = join(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README's SFPI block: the two commands and the listing that follows them. */
const block =
  /```sh\n(npx axsim tensix run test\/fixtures\/sfpi[^\n]*)\n(npx axsim tensix compile [^\n]*)\n```\n\n```text\n([\s\S]*?)```/.exec(
    README,
  )!;
/** Splits a README command line into arguments (single-quoted arguments kept whole). */
const argv = (cmd: string) =>
  [...cmd.replace(/^npx axsim /, '').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);

describe('tensix compile', () => {
  it("prints the README's listing for the README's command", async () => {
    assert.ok(block, 'the README has the SFPI example');
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const r = await cli(argv(block[2]!));
      assert.equal(r.code, undefined, r.err);
      assert.equal(r.out, block[3]);
    } finally {
      process.chdir(cwd);
    }
  });
  it("the README's run command clamps every element to [-2, 3]", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axsim-sfpi-cli-'));
    const out = join(dir, 'clamp.npy');
    const args = argv(block[1]!).map((a) =>
      a === 'clamp.npy' ? out : a.startsWith('test/') || a.startsWith('examples/') ? join(ROOT, a) : a,
    );
    const r = await cli(args);
    assert.equal(r.code, undefined, r.err);
    const input = readNpy(join(ROOT, 'examples/tensix/tile.npy')).data as Float32Array;
    const o = readNpy(out).data as Float32Array;
    // finite normal inputs and zeros (the tile also holds NaN, infinities, whose SFPU compares are
    // sign-based, and subnormals, which the SFPU flushes to zero)
    let n = 0;
    for (let i = 0; i < 1024; i++) {
      const x = input[i]!;
      if (!Number.isFinite(x) || (x !== 0 && Math.abs(x) < 2 ** -126)) continue;
      n++;
      assert.equal(o[i], Math.min(3, Math.max(-2, input[i]!)), `element ${i}`);
    }
    assert.ok(n > 900);
  });
  it('--json: the words and the groups with their source text', async () => {
    const r = await cli([
      'tensix',
      'compile',
      join(ROOT, 'test/fixtures/sfpi/basic.h'),
      '--entry',
      'axsim_sfpi::calculate_neg_abs<false, 1>',
      '--arch',
      'bh',
      '--json',
    ]);
    assert.equal(r.code, undefined, r.err);
    const j = JSON.parse(r.out) as {
      arch: string;
      words: string[];
      groups: { source?: string; insns: { text: string }[] }[];
    };
    assert.equal(j.arch, 'blackhole');
    assert.deepEqual(
      j.groups.map((g) => [g.source, g.insns.map((i) => i.text.replace(/\(.*$/, ''))]),
      [
        ['vFloat v = dst_reg[0];', ['TTI_SFPLOAD']],
        ['dst_reg[0] = -abs(v);', ['TTI_SFPABS', 'TTI_SFPMOV', 'TTI_SFPSTORE']],
        ['dst_reg++;', ['TTI_INCRWC']],
      ],
    );
    assert.equal(j.words.length, 5);
  });
  it('an SFPI construct that is not compiled is an error at its line', async () => {
    const r = await cli([
      'tensix',
      'compile',
      join(ROOT, 'test/fixtures/sfpi/basic.h'),
      '--entry',
      'axsim_sfpi::nine_live',
    ]);
    assert.notEqual(r.code, undefined);
    assert.match(r.err, /basic\.h:\d+:\d+.*register spill/);
  });
});
