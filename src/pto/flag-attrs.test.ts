/**
 * Every `flag` attribute (TCI descending, TMRGSORT exhausted, TTRI upper, ...) must be a boolean:
 * anything else used to read as "off" and the instruction ran with its default without a word.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';
import { OPS } from './registry.ts';

test('every flag attribute of every instruction refuses a non-boolean before running', () => {
  let checked = 0;
  for (const op of OPS.values()) {
    for (const a of op.attrs) {
      if (a.kind !== 'flag') continue;
      checked++;
      assert.throws(
        () => execute(op.name, {}, { [a.name]: 1 }),
        (e: unknown) =>
          e instanceof AxsimError &&
          e.category === 'BadInput' &&
          e.message.includes(`${a.name} must be true or false`),
        `${op.name} ${a.name}=1`,
      );
    }
  }
  assert.ok(checked >= 5, `only ${checked} flag attributes found`);
});

test('TCI descending: true counts down, 1 is refused (it used to count up)', () => {
  // pto-isa docs/isa/TCI.md: dst_k = S + k ascending, S - k descending
  const dst = createTile({ dtype: 'i32', rows: 1, cols: 8 });
  execute('TCI', { dst }, { scalar: 10, descending: true });
  assert.deepEqual(readTile(dst)[0], [10, 9, 8, 7, 6, 5, 4, 3]);
  assert.throws(
    () => execute('TCI', { dst }, { scalar: 10, descending: 1 }),
    (e: unknown) => e instanceof AxsimError && /descending must be true or false/.test(e.message),
  );
});
