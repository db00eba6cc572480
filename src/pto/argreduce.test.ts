/**
 * TROWARGMAX/MIN and TCOLARGMAX/MIN (pto-isa trowargmax.md …, include/pto/cpu/TReduceIdx.hpp):
 * index of the first largest / smallest element, worked by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';

const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;
const src = () =>
  createTile({ dtype: 'f32', rows: 3, cols: 8, validCol: 4 }, [
    ...[1, 7, 7, -2, 99, 99, 99, 99],
    ...[Number.NaN, 3, 5, 4, 99, 99, 99, 99],
    ...[0, -0, -5, -5, 99, 99, 99, 99],
  ]);

test('TROWARGMAX / TROWARGMIN: first index on ties, a NaN first element stays, dstVal copies the element', () => {
  const d = createTile({ dtype: 'u32', rows: 3, cols: 1, blayout: 'col' }, [9, 9, 9]);
  const v = createTile({ dtype: 'f32', rows: 3, cols: 1, blayout: 'col' }, [9, 9, 9]);
  execute('TROWARGMAX', { dst: d, src: src(), dstVal: v });
  assert.deepEqual(readTile(d).flat(), [1, 0, 0]); // 7 at 1 (not 2); NaN at 0 is never replaced; 0 before -0
  assert.deepEqual(readTile(v).flat(), [7, Number.NaN, 0]);
  execute('TROWARGMIN', { dst: d, src: src(), dstVal: v });
  assert.deepEqual(readTile(d).flat(), [3, 0, 2]);
  assert.deepEqual(readTile(v).flat(), [-2, Number.NaN, -5]);
});

test('TCOLARGMAX / TCOLARGMIN over the valid rows, into row 0 of dst', () => {
  const d = createTile({ dtype: 'i32', rows: 1, cols: 8 }, new Array(8).fill(-1));
  execute('TCOLARGMAX', { dst: d, src: src() });
  // column 0: 1, NaN, 0 -> 1 stays (NaN > 1 is false, 0 > 1 false); column 1: 7, 3, -0 -> 0
  assert.deepEqual(readTile(d)[0], [0, 0, 0, 1, -1, -1, -1, -1]);
  execute('TCOLARGMIN', { dst: d, src: src() });
  // column 0: 1, NaN, 0 -> row 2; column 1: 7, 3, -0 -> row 2; column 2: 7, 5, -5 -> 2; column 3: -2, 4, -5 -> 2
  assert.deepEqual(readTile(d)[0], [2, 2, 2, 2, -1, -1, -1, -1]);
});

test('arg reductions reject non-integer index tiles and, on a2a3/a5, integer sources and bad shapes', () => {
  const f = createTile({ dtype: 'f32', rows: 3, cols: 1 });
  assert.throws(() => execute('TROWARGMAX', { dst: f, src: src() }), isCat('Unsupported'));
  const i = createTile({ dtype: 'i32', rows: 3, cols: 8 });
  const d = createTile({ dtype: 'i32', rows: 3, cols: 1, blayout: 'col' });
  assert.throws(() => execute('TROWARGMAX', { dst: d, src: i }, {}, { profile: 'a5' }), isCat('Unsupported'));
  const d2 = createTile({ dtype: 'i32', rows: 2, cols: 1, blayout: 'col' });
  assert.throws(
    () => execute('TROWARGMAX', { dst: d2, src: src() }, {}, { profile: 'a2a3' }),
    isCat('BadInput'),
  );
  // cpu: integer sources are allowed (the simulator takes any integral type)
  const s8 = createTile({ dtype: 'i8', rows: 1, cols: 4 }, [3, -9, 3, 2]);
  const d1 = createTile({ dtype: 'i32', rows: 1, cols: 1 });
  execute('TROWARGMIN', { dst: d1, src: s8 });
  assert.deepEqual(readTile(d1), [[1]]);
});
