/**
 * TEXTRACT / TINSERT `relu` must be a boolean: a truthy non-boolean (1, 'yes') used to be read as
 * "off" and the unrectified values were written without a word.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';

const src = () =>
  createTile(
    { dtype: 'f32', rows: 16, cols: 16 },
    Array.from({ length: 256 }, (_, i) => i - 128),
  );

test('TEXTRACT / TINSERT: relu other than true/false is BadInput; true clamps negatives to 0', () => {
  for (const op of ['TEXTRACT', 'TINSERT']) {
    for (const relu of [1, 'yes', 'true']) {
      assert.throws(
        () => execute(op, { dst: createTile({ dtype: 'f32', rows: 16, cols: 16 }), src: src() }, { relu }),
        (e: unknown) =>
          e instanceof AxsimError && e.category === 'BadInput' && /relu must be/.test(e.message),
        `${op} relu=${String(relu)}`,
      );
    }
  }
  const dst = createTile({ dtype: 'f32', rows: 16, cols: 16 });
  execute('TEXTRACT', { dst, src: src() }, { relu: true });
  // row 0 holds -128..-113: all negative -> 0
  assert.deepEqual(readTile(dst)[0], new Array(16).fill(0));
  execute('TEXTRACT', { dst, src: src() }, { relu: false });
  assert.equal(readTile(dst)[0]![0], -128);
});
