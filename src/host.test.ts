import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { hostFs, readTextFile } from './host.ts';

test('under Node.js the host file system is there: files read, absent paths and directories are undefined', () => {
  assert.ok(hostFs());
  const dir = mkdtempSync(join(tmpdir(), 'axsim-host-'));
  writeFileSync(join(dir, 'a.h'), '#define A 1\n');
  assert.equal(readTextFile(join(dir, 'a.h')), '#define A 1\n');
  assert.equal(readTextFile(join(dir, 'b.h')), undefined);
  assert.equal(readTextFile(dir), undefined);
});
