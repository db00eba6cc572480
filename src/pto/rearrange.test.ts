/**
 * TCONCAT, TINTERLEAVE, TDEINTERLEAVE, TTRI and TPARTMUL (pto-isa tconcat.md, TINTERLEAVE.md,
 * TDEINTERLEAVE.md, TTRI.md, tpartmul.md and the CPU simulator's loops), worked by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';

const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;
const seq = (n: number, base = 0) => Array.from({ length: n }, (_, i) => base + i);

test('TCONCAT: valid columns of src0 then src1 per row', () => {
  const s0 = createTile({ dtype: 'i16', rows: 2, cols: 4, validCol: 3 }, seq(8, 10));
  const s1 = createTile({ dtype: 'i16', rows: 2, cols: 4, validCol: 2 }, seq(8, 20));
  const d = createTile({ dtype: 'i16', rows: 2, cols: 8, validCol: 5 }, new Array(16).fill(-1));
  execute('TCONCAT', { dst: d, src0: s0, src1: s1 });
  assert.deepEqual(readTile(d), [
    [10, 11, 12, 20, 21, -1, -1, -1],
    [14, 15, 16, 24, 25, -1, -1, -1],
  ]);
  // a2a3 / a5: dst valid columns must be the sum
  const bad = createTile({ dtype: 'i16', rows: 2, cols: 8, validCol: 6 });
  assert.throws(
    () => execute('TCONCAT', { dst: bad, src0: s0, src1: s1 }, {}, { profile: 'a5' }),
    isCat('BadInput'),
  );
});

test('TCONCAT index form: per-row counts = index / sizeof(index type); dstIdx = the raw sum (cpu) or clamped (a5)', () => {
  const s0 = createTile({ dtype: 'f32', rows: 2, cols: 4 }, seq(8));
  const s1 = createTile({ dtype: 'f32', rows: 2, cols: 4 }, seq(8, 100));
  // u16 index tiles: values in units of 2 (row 0: 2 and 3 elements; row 1: 4 and 4)
  const i0 = createTile({ dtype: 'u16', rows: 2, cols: 16 }, [
    4,
    ...new Array(15).fill(0),
    8,
    ...new Array(15).fill(0),
  ]);
  const i1 = createTile({ dtype: 'u16', rows: 2, cols: 16 }, [
    6,
    ...new Array(15).fill(0),
    8,
    ...new Array(15).fill(0),
  ]);
  const mk = () => ({
    d: createTile({ dtype: 'f32', rows: 2, cols: 8, validCol: 6 }, new Array(16).fill(-1)),
    di: createTile({ dtype: 'u16', rows: 2, cols: 16 }),
  });
  const c = mk();
  execute('TCONCAT', { dst: c.d, src0: s0, src1: s1, src0Idx: i0, src1Idx: i1, dstIdx: c.di });
  assert.deepEqual(readTile(c.d), [
    [0, 1, 100, 101, 102, -1, -1, -1],
    [4, 5, 6, 7, 104, 105, 106, 107], // cpu does not clamp to dst's 6 valid columns
  ]);
  assert.deepEqual([readTile(c.di)[0]![0], readTile(c.di)[1]![0]], [10, 16]);
  const a = mk();
  execute(
    'TCONCAT',
    { dst: a.d, src0: s0, src1: s1, src0Idx: i0, src1Idx: i1, dstIdx: a.di },
    {},
    { profile: 'a5' },
  );
  // a5: n0 = min(4, 6) = 4, n1 = min(4, 6 - 4) = 2; dstIdx = min(8, 6) * 2
  assert.deepEqual(readTile(a.d)[1], [4, 5, 6, 7, 104, 105, -1, -1]);
  assert.deepEqual([readTile(a.di)[0]![0], readTile(a.di)[1]![0]], [10, 12]);
});

test('TINTERLEAVE / TDEINTERLEAVE', () => {
  const s0 = createTile({ dtype: 'i32', rows: 1, cols: 4 }, [0, 1, 2, 3]);
  const s1 = createTile({ dtype: 'i32', rows: 1, cols: 4 }, [10, 11, 12, 13]);
  const d0 = createTile({ dtype: 'i32', rows: 1, cols: 4 });
  const d1 = createTile({ dtype: 'i32', rows: 1, cols: 4 });
  execute('TINTERLEAVE', { dst0: d0, dst1: d1, src0: s0, src1: s1 });
  // stream 0 10 1 11 2 12 3 13: first half to dst0, second half to dst1
  assert.deepEqual(readTile(d0)[0], [0, 10, 1, 11]);
  assert.deepEqual(readTile(d1)[0], [2, 12, 3, 13]);
  const e0 = createTile({ dtype: 'i32', rows: 1, cols: 4 });
  const e1 = createTile({ dtype: 'i32', rows: 1, cols: 4 });
  execute('TDEINTERLEAVE', { dst0: e0, dst1: e1, src0: d0, src1: d1 }, {}, { profile: 'a5' });
  assert.deepEqual(readTile(e0)[0], [0, 1, 2, 3]);
  assert.deepEqual(readTile(e1)[0], [10, 11, 12, 13]);
  const one = createTile({ dtype: 'i32', rows: 1, cols: 8 }, [0, 10, 1, 11, 2, 12, 3, 13]);
  execute('TDEINTERLEAVE', { dst0: e0, dst1: e1, src0: one });
  assert.deepEqual(readTile(e1)[0], [10, 11, 12, 13]);
  assert.throws(
    () => execute('TINTERLEAVE', { dst0: d0, dst1: d1, src0: s0, src1: s1 }, {}, { profile: 'a2a3' }),
    isCat('Unsupported'),
  );
  const odd = createTile({ dtype: 'i32', rows: 1, cols: 4, validCol: 3 });
  assert.throws(
    () => execute('TINTERLEAVE', { dst0: odd, dst1: d1, src0: s0, src1: s1 }, {}, { profile: 'a5' }),
    isCat('BadInput'),
  );
});

test('TTRI lower / upper with a diagonal offset', () => {
  const d = createTile({ dtype: 'f32', rows: 3, cols: 4, validCol: 3 }, new Array(12).fill(7));
  execute('TTRI', { dst: d }, { diagonal: 0 });
  assert.deepEqual(readTile(d), [
    [1, 0, 0, 7],
    [1, 1, 0, 7],
    [1, 1, 1, 7],
  ]);
  execute('TTRI', { dst: d }, { diagonal: 1, upper: true });
  assert.deepEqual(readTile(d), [
    [0, 1, 1, 7],
    [0, 0, 1, 7],
    [0, 0, 0, 7],
  ]);
  execute('TTRI', { dst: d }, { diagonal: -1 });
  assert.deepEqual(readTile(d), [
    [0, 0, 0, 7],
    [1, 0, 0, 7],
    [1, 1, 0, 7],
  ]);
  assert.throws(
    () => execute('TTRI', { dst: createTile({ dtype: 'i8', rows: 2, cols: 2 }) }),
    isCat('Unsupported'),
  );
});

test('TPARTMUL: product where both are valid, the valid one elsewhere, 0 outside both', () => {
  const a = createTile({ dtype: 'i32', rows: 2, cols: 2, validCol: 1 }, [2, 9, 3, 9]);
  const b = createTile({ dtype: 'i32', rows: 2, cols: 2, validRow: 1 }, [5, 6, 9, 9]);
  const d = createTile({ dtype: 'i32', rows: 2, cols: 2 }, [-1, -1, -1, -1]);
  execute('TPARTMUL', { dst: d, src0: a, src1: b });
  assert.deepEqual(readTile(d), [
    [10, 6],
    [3, 0],
  ]);
});
