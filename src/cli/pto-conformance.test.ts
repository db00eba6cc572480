import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const main = new URL('./main.ts', import.meta.url).pathname;
const run = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', main, ...args], { encoding: 'utf8', timeout: 60_000 });

// A TADD vector worked by hand: 1.0 + 2.0 = 3.0 in the valid 1x2 region, dst bytes elsewhere kept.
const f32 = (xs: number[]) => Buffer.from(Float32Array.from(xs).buffer).toString('hex');
const tile = (data: string) => ({
  rows: 1,
  cols: 8,
  validRow: 1,
  validCol: 2,
  layout: 'RM',
  dtype: 'f32',
  data,
});
const good = {
  id: 'TADD/f32/hand',
  op: 'TADD',
  dtype: 'f32',
  tiles: {
    dst: tile('cd'.repeat(32)),
    src0: tile(f32(new Array(8).fill(1))),
    src1: tile(f32(new Array(8).fill(2))),
  },
  scalars: {},
  out: { dst: tile(f32([3, 3]) + 'cd'.repeat(24)) },
  status: 'ok',
};
const bad = { ...good, id: 'TADD/f32/wrong', out: { dst: tile(f32([3, 4]) + 'cd'.repeat(24)) } };
const rejected = { ...good, id: 'TAND/f32/hand', op: 'TAND', out: null, status: 'compile_error' };

test('axsim pto conformance: N passed, M failed, field diffs, --json, exit codes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-pto-cli-'));
  const file = join(dir, 'v.jsonl.gz');
  writeFileSync(file, gzipSync([good, rejected, bad].map((r) => JSON.stringify(r)).join('\n')));
  const r = run(['pto', 'conformance', file]);
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stdout, /FAIL TADD\/f32\/wrong/);
  assert.match(r.stdout, /dst\[1\]: expected 00008040, got 00004040/);
  assert.match(r.stdout, /2 passed, 1 failed/);
  const j = run(['pto', 'conformance', file, '--json', '--filter', 'hand']);
  assert.equal(j.status, 0, j.stderr);
  const doc = JSON.parse(j.stdout);
  assert.deepEqual(
    doc.cases.map((c: { id: string; pass: boolean }) => [c.id, c.pass]),
    [
      ['TADD/f32/hand', true],
      ['TAND/f32/hand', true],
    ],
  );
});
