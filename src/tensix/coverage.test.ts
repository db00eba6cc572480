import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ARCHES, instructionSet } from './encoding.ts';

test('every instruction of the encoding table is exercised by a unit test under insns/', () => {
  const dir = fileURLToPath(new URL('./insns/', import.meta.url));
  const text = readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => readFileSync(dir + f, 'utf8'))
    .join('\n');
  const missing: string[] = [];
  for (const arch of ARCHES) {
    for (const d of instructionSet(arch)) {
      // NOP and STALLWAIT have no functional effect; they are covered by the encoding tests.
      if (d.name === 'NOP' || d.name === 'STALLWAIT' || d.name === 'SFPNOP') continue;
      if (!text.includes(`'${d.name}'`)) missing.push(`${arch} ${d.name}`);
    }
  }
  assert.deepEqual(missing, []);
});
