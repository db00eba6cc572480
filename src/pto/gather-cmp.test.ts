/**
 * TGATHER's comparison form (tgather.md: dst = indices of the matching elements per row, cdst = the
 * per-row match count; index = offset + i·src.cols + j as the A2/A3 kernel numbers them). Expected
 * values worked by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';

const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;

function setup(k: number[]) {
  const src = createTile(
    { dtype: 'f32', rows: 2, cols: 8, validCol: 6 },
    [1, 5, 3, 7, 5, 0, 99, 99, 9, 9, 2, 9, 1, 1, 99, 99],
  );
  const kValue = createTile({ dtype: 'u32', rows: 1, cols: 8 }, [...k, 0, 0, 0, 0, 0, 0]);
  const cdst = createTile({ dtype: 'i32', rows: 1, cols: 8 }, new Array(8).fill(-1));
  const dst = createTile({ dtype: 'u32', rows: 2, cols: 8 }, new Array(16).fill(7));
  return { src, kValue, cdst, dst };
}

test('TGATHER compare GT: indices offset + i*cols + j of the elements above the row threshold', () => {
  for (const profile of ['a2a3', 'a5'] as const) {
    const { src, kValue, cdst, dst } = setup([4, 8]);
    execute('TGATHER', { dst, src, kValue, cdst }, { cmpMode: 'GT', offset: 100 }, { profile });
    assert.deepEqual(readTile(dst), [
      [101, 103, 104, 7, 7, 7, 7, 7],
      [108, 109, 111, 7, 7, 7, 7, 7],
    ]);
    assert.deepEqual(readTile(cdst)[0], [3, 3, -1, -1, -1, -1, -1, -1]);
  }
});

test('TGATHER compare EQ', () => {
  const { src, kValue, cdst, dst } = setup([5, 9]);
  execute('TGATHER', { dst, src, kValue, cdst }, { cmpMode: 'EQ' }, { profile: 'a2a3' });
  assert.deepEqual(readTile(dst)[0]!.slice(0, 3), [1, 4, 7]);
  assert.deepEqual(readTile(dst)[1]!.slice(0, 4), [8, 9, 11, 7]);
  assert.deepEqual(readTile(cdst)[0]!.slice(0, 2), [2, 3]);
});

test('TGATHER compare form: cpu has no such overload; bad modes and types are rejected', () => {
  const { src, kValue, cdst, dst } = setup([4, 8]);
  assert.throws(
    () => execute('TGATHER', { dst, src, kValue, cdst }, { cmpMode: 'GT' }),
    isCat('Unsupported'),
  );
  assert.throws(
    () => execute('TGATHER', { dst, src, kValue, cdst }, { cmpMode: 'LT' }, { profile: 'a5' }),
    isCat('Unsupported'),
  );
  assert.throws(
    () => execute('TGATHER', { dst, src, kValue }, { cmpMode: 'GT' }, { profile: 'a5' }),
    isCat('BadInput'),
  );
  const fk = createTile({ dtype: 'f32', rows: 1, cols: 8 });
  assert.throws(
    () => execute('TGATHER', { dst, src, kValue: fk, cdst }, { cmpMode: 'GT' }, { profile: 'a2a3' }),
    isCat('Unsupported'),
  );
  const isrc = createTile({ dtype: 'i32', rows: 2, cols: 8 });
  assert.throws(
    () => execute('TGATHER', { dst, src: isrc, kValue, cdst }, { cmpMode: 'GT' }, { profile: 'a2a3' }),
    isCat('Unsupported'),
  );
  const fdst = createTile({ dtype: 'f32', rows: 2, cols: 8 });
  assert.throws(
    () => execute('TGATHER', { dst: fdst, src, kValue, cdst }, { cmpMode: 'GT' }, { profile: 'a5' }),
    isCat('Unsupported'),
  );
});
