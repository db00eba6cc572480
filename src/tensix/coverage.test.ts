/**
 * Every instruction of the encoding table must be executed by the unit tests under insns/: this
 * file loads those test files (their tests run here too), and testutil's `exec` counts each
 * instruction word that ran to completion. An instruction that only appears in a comment, a
 * name list or an error test does not count.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { ARCHES, instructionSet } from './encoding.ts';
import { executed } from './testutil.ts';

const dir = new URL('./insns/', import.meta.url);
for (const f of readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .sort()) {
  await import(new URL(f, dir).href);
}

test('every instruction of the encoding table is executed by a unit test under insns/, on each arch', () => {
  const missing: string[] = [];
  for (const arch of ARCHES) {
    for (const d of instructionSet(arch)) {
      // NOP and STALLWAIT have no functional effect; they are covered by the encoding tests.
      if (d.name === 'NOP' || d.name === 'STALLWAIT' || d.name === 'SFPNOP') continue;
      if (!executed[arch].has(d.name)) missing.push(`${arch} ${d.name}`);
    }
  }
  assert.deepEqual(missing, []);
});
