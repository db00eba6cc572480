import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const axsim = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/axsim.js'), ...args], { encoding: 'utf8', cwd: root });

test('tensix run: a program with SFPLOADMACRO runs on the cycle model without --timeline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-macro-'));
  const tile = 'examples/tensix/tile.npy';
  const macro = axsim(
    'tensix',
    'run',
    'examples/tensix/bh_recip_fast_7b.sfpu',
    '--arch',
    'blackhole',
    '--dst',
    tile,
    '--out',
    join(dir, 'm.npy'),
  );
  assert.equal(macro.status, 0, macro.stderr);
  assert.match(macro.stdout, /SFPLOADMACRO present: ran on the cycle model/);
  assert.match(macro.stdout, /hazards: none/);
  // tt-llk's DISABLE_SFPLOADMACRO form of the same kernel is its definition of the result.
  const serial = axsim(
    'tensix',
    'run',
    'examples/tensix/bh_recip_fast_7b_nomacro.sfpu',
    '--arch',
    'blackhole',
    '--dst',
    tile,
    '--out',
    join(dir, 's.npy'),
  );
  assert.equal(serial.status, 0, serial.stderr);
  assert.doesNotMatch(serial.stdout, /SFPLOADMACRO present/);
  // the sequential run checks the timing rules on the cycle model all the same (issue 11)
  assert.match(serial.stdout, /timing rules \(cycle model\): no hazards/);
  assert.equal(serial.stderr, '');
  assert.deepEqual(readFileSync(join(dir, 'm.npy')), readFileSync(join(dir, 's.npy')));
});
