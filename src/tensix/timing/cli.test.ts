/** `axsim tensix run … --timeline text|json --hazards warn|strict|off` (src/cli/tensix.ts). */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runTensixCli } from '../cli-testkit.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'axsim-tensix-timing-cli-'));

const cli = runTensixCli;

test('run --timeline text prints the pipeline table of the recip 7b macro kernel', async () => {
  const { out, code } = await cli([
    'tensix',
    'run',
    join(repo, 'examples/tensix/bh_recip_fast_7b.sfpu'),
    '--arch',
    'blackhole',
    '--timeline',
    'text',
  ]);
  assert.equal(code, undefined);
  assert.match(
    out,
    /^t +\| Load +\| Simple +\| MAD +\| Round +\| Store +\| source \(.*bh_recip_fast_7b\.sfpu\)$/m,
  );
  // steady state: a load, the reciprocal of the previous row and the store of the one before
  assert.match(out, /\| \[0\] macro 0 +\| \[0\] L16 = arecip\(\[0\]\) +\| +\| +\| \[0\] store L16/);
  assert.match(out, /blackhole: 17 cycles; issued 17, executed 33 \(16 scheduled by SFPLOADMACRO\)/);
  assert.match(out, /hazards: none/);
});

test('run --timeline json gives one record per instruction per sub-unit', async () => {
  const { out } = await cli([
    'tensix',
    'run',
    join(repo, 'examples/tensix/bh_recip_fast_7b.sfpu'),
    '--arch',
    'bh',
    '--timeline',
    'json',
  ]);
  const j = JSON.parse(out) as {
    timing: { cycles: number; timeline: { unit: string; scheduled: boolean; cycle: number }[] };
  };
  assert.equal(j.timing.cycles, 17);
  const stores = j.timing.timeline.filter((e) => e.unit === 'store' && e.scheduled).map((e) => e.cycle);
  assert.deepEqual(stores, [9, 10, 11, 12, 13, 14, 15, 16]);
});

test('run --hazards strict fails on the first hazard; warn lists it', async () => {
  const f = join(dir, 'early.sfpu');
  writeFileSync(f, 'TTI_SFPLOADI(1, 0, 0x3f80);\nTTI_SFPMAD(1, 1, 9, 3, 0);\nTTI_SFPMOV(0, 3, 4, 0);\n');
  const strict = await cli(['tensix', 'run', f, '--hazards', 'strict']);
  assert.ok(strict.code !== undefined && strict.code !== 0);
  assert.match(strict.err, /hazard early-read/);
  const warn = await cli(['tensix', 'run', f, '--hazards', 'warn']);
  assert.equal(warn.code, undefined);
  assert.match(warn.out, /\[early-read\] cycle 2, .*early\.sfpu:3:1 \[instruction 2\]/);
  const off = await cli(['tensix', 'run', f, '--hazards', 'off']);
  assert.match(off.out, /hazards: none/);
  const bad = await cli(['tensix', 'run', f, '--hazards', 'loud']);
  assert.ok(bad.code !== undefined && bad.code !== 0);
});

test('run --matrix-writes marks Matrix Unit Dst writes for the 3-instruction rule', async () => {
  const f = join(dir, 'mw.sfpu');
  writeFileSync(f, 'TTI_NOP;\nTTI_SFPLOAD(1, 3, 0, 0);\n');
  const r = await cli(['tensix', 'run', f, '--matrix-writes', '0']);
  assert.match(r.out, /\[matrix-dst-too-close\] cycle 2, .*mw\.sfpu:2:1 \[instruction 1\]/);
  const ok = await cli(['tensix', 'run', f, '--matrix-writes', '1']);
  assert.match(ok.out, /\[matrix-dst-too-close\]/); // 0 instructions between
  const none = await cli(['tensix', 'run', f, '--hazards', 'warn']);
  assert.match(none.out, /hazards: none/);
  const bad = await cli(['tensix', 'run', f, '--matrix-writes', 'x']);
  assert.ok(bad.code !== undefined && bad.code !== 0);
});
