/**
 * MGATHER / MSCATTER (pto-isa mgather.md / mscatter.md, include/pto/cpu/MGather.hpp, MScatter.hpp).
 * Every expected value is worked out by hand from the pages' formulas (dst(i,j) = table[idx(i,j)],
 * table rows at k·stride[3] + j·stride[4], OOB policies, last writer wins) and the simulator's
 * index conversion (size_t on cpu, uint32_t on the NPU pages).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, GlobalTensor, readTile } from './index.ts';

function f32Global(values: number[], shape: number[], stride: number[]): GlobalTensor {
  const bytes = new Uint8Array(Float32Array.from(values).buffer);
  return new GlobalTensor('f32', shape, stride, 'ND', bytes);
}
const gvals = (g: GlobalTensor) =>
  Array.from(new Float32Array(g.bytes.buffer, g.bytes.byteOffset, g.bytes.length / 4));
const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;

test('MGATHER elem: dst(i,j) = table[idx(i,j)] (the cpu default mode)', () => {
  const g = f32Global([10, 11, 12, 13, 14, 15, 16, 17], [1, 1, 1, 2, 4], [8, 8, 8, 4, 1]);
  const idx = createTile(
    { dtype: 'i32', rows: 2, cols: 8, validCol: 2 },
    [7, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 0, 0, 0, 0, 0],
  );
  const dst = createTile({ dtype: 'f32', rows: 2, cols: 8, validCol: 2 }, new Float32Array(16).fill(-1));
  execute('MGATHER', { dst, src: g, idx });
  assert.deepEqual(readTile(dst, { valid: true }), [
    [17, 10],
    [13, 15],
  ]);
  assert.equal(readTile(dst)[0]![2], -1); // outside the valid region: untouched
});

test('MGATHER out-of-range policies; wrap converts a negative index through size_t (cpu) or uint32_t (a5)', () => {
  // capacity 7: 2^64 - 1 = 1 (mod 7), 2^32 - 1 = 3 (mod 7)
  const g = () => f32Global([10, 11, 12, 13, 14, 15, 16], [1, 1, 1, 1, 7], [7, 7, 7, 7, 1]);
  const idx = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 2 }, [-1, 9, 0, 0, 0, 0, 0, 0]);
  const run = (oob: string, profile: 'cpu' | 'a5' = 'cpu') => {
    const dst = createTile({ dtype: 'f32', rows: 1, cols: 8, validCol: 2 }, new Float32Array(8).fill(-1));
    execute('MGATHER', { dst, src: g(), idx }, { oob, coalesce: 'elem' }, { profile });
    return readTile(dst, { valid: true })[0];
  };
  assert.deepEqual(run('clamp'), [16, 16]);
  assert.deepEqual(run('wrap'), [11, 12]); // 9 mod 7 = 2
  assert.deepEqual(run('wrap', 'a5'), [13, 12]);
  assert.deepEqual(run('zero'), [0, 0]);
  assert.throws(() => run('undefined'), isCat('UndefinedBehaviour'));
  assert.throws(() => run('bogus'), isCat('BadInput'));
});

test('MGATHER row: dst(r, :) = table row idx[r], rows at stride[3] (the a2a3/a5 default mode)', () => {
  // 3 rows of 4 elements with a row stride of 5: element (k, j) at 5k + j holds 100 + 5k + j
  const values = Array.from({ length: 15 }, (_, i) => 100 + i);
  const mk = () => f32Global(values, [1, 1, 1, 3, 4], [15, 15, 15, 5, 1]);
  const idx = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 2 }, [2, 0, 0, 0, 0, 0, 0, 0]);
  const want = [
    [110, 111, 112, 113],
    [100, 101, 102, 103],
  ];
  const dst = createTile({ dtype: 'f32', rows: 2, cols: 8, validCol: 4 });
  execute('MGATHER', { dst, src: mk(), idx }, { coalesce: 'row' });
  assert.deepEqual(readTile(dst, { valid: true }), want);
  const dst5 = createTile({ dtype: 'f32', rows: 2, cols: 8, validCol: 4 });
  execute('MGATHER', { dst: dst5, src: mk(), idx }, {}, { profile: 'a5' });
  assert.deepEqual(readTile(dst5, { valid: true }), want);
  // a5 row mode: the table rows must be packed to the tile's valid width
  const dst3 = createTile({ dtype: 'f32', rows: 2, cols: 8, validCol: 3 });
  assert.throws(
    () => execute('MGATHER', { dst: dst3, src: mk(), idx }, {}, { profile: 'a5' }),
    isCat('BadInput'),
  );
  // row 3 is outside the 3-row table: zero fills the row
  const idx3 = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 2 }, [3, 1, 0, 0, 0, 0, 0, 0]);
  execute('MGATHER', { dst, src: mk(), idx: idx3 }, { coalesce: 'row', oob: 'zero' });
  assert.deepEqual(readTile(dst, { valid: true }), [
    [0, 0, 0, 0],
    [105, 106, 107, 108],
  ]);
});

test('MGATHER rejects mismatched element sizes and non-integer indices', () => {
  const g = f32Global([1, 2], [1, 1, 1, 1, 2], [2, 2, 2, 2, 1]);
  const idx = createTile({ dtype: 'i32', rows: 1, cols: 8 });
  assert.throws(
    () => execute('MGATHER', { dst: createTile({ dtype: 'f16', rows: 1, cols: 16 }), src: g, idx }),
    isCat('Unsupported'),
  );
  assert.throws(
    () =>
      execute('MGATHER', {
        dst: createTile({ dtype: 'f32', rows: 1, cols: 8 }),
        src: g,
        idx: createTile({ dtype: 'f32', rows: 1, cols: 8 }),
      }),
    isCat('Unsupported'),
  );
  // a2a3: i16 indices are not allowed (i32 / u32 only)
  assert.throws(
    () =>
      execute(
        'MGATHER',
        {
          dst: createTile({ dtype: 'f32', rows: 1, cols: 8 }),
          src: g,
          idx: createTile({ dtype: 'i16', rows: 1, cols: 16 }),
        },
        {},
        { profile: 'a2a3' },
      ),
    isCat('Unsupported'),
  );
});

test('MSCATTER elem: last writer wins; atomic add / max accumulate; skip drops out-of-range writes', () => {
  const src = createTile({ dtype: 'f32', rows: 1, cols: 8, validCol: 4 }, [1, 2, 3, 4, 0, 0, 0, 0]);
  const idx = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 4 }, [0, 2, 0, 5, 0, 0, 0, 0]);
  const table = (fill: number) => f32Global(new Array(6).fill(fill), [1, 1, 1, 1, 6], [6, 6, 6, 6, 1]);
  const t1 = table(0);
  execute('MSCATTER', { dst: t1, src, idx });
  assert.deepEqual(gvals(t1), [3, 0, 2, 0, 0, 4]);
  const t2 = table(10);
  execute('MSCATTER', { dst: t2, src, idx }, { atomic: 'add', coalesce: 'elem' });
  assert.deepEqual(gvals(t2), [14, 10, 12, 10, 10, 14]);
  const src2 = createTile({ dtype: 'f32', rows: 1, cols: 8, validCol: 4 }, [1, 7, 3, 9, 0, 0, 0, 0]);
  const same = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 4 }, [1, 1, 1, 6, 0, 0, 0, 0]);
  const t3 = f32Global([0, 5, 0, 0, 0, 0], [1, 1, 1, 1, 6], [6, 6, 6, 6, 1]);
  execute('MSCATTER', { dst: t3, src: src2, idx: same }, { atomic: 'max', oob: 'skip' });
  assert.deepEqual(gvals(t3), [0, 7, 0, 0, 0, 0]); // max(5,1)=5, max(5,7)=7, max(7,3)=7; index 6 skipped
  const t4 = table(0);
  assert.throws(() => execute('MSCATTER', { dst: t4, src: src2, idx: same }), isCat('UndefinedBehaviour'));
  assert.throws(
    () => execute('MSCATTER', { dst: table(0), src, idx }, { atomic: 'add', conflict: 'last' }),
    isCat('Unsupported'),
  );
});

test('MSCATTER row atomic max: cpu compares with base[row] (MScatter.hpp), a5 with the destination element', () => {
  const mk = () => {
    const bytes = new Uint8Array(Int32Array.from([0, 50, 0, 1, 1, 1]).buffer);
    return new GlobalTensor('i32', [1, 1, 1, 2, 3], [6, 6, 6, 3, 1], 'ND', bytes);
  };
  const src = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 3 }, [4, 4, 4, 0, 0, 0, 0, 0]);
  const idx = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 1 }, [1, 0, 0, 0, 0, 0, 0, 0]);
  const ints = (g: GlobalTensor) => Array.from(new Int32Array(g.bytes.buffer, g.bytes.byteOffset, 6));
  const c = mk();
  execute('MSCATTER', { dst: c, src, idx }, { coalesce: 'row', atomic: 'max' });
  assert.deepEqual(ints(c), [0, 50, 0, 50, 50, 50]);
  const a = mk();
  execute('MSCATTER', { dst: a, src, idx }, { atomic: 'max' }, { profile: 'a5' });
  assert.deepEqual(ints(a), [0, 50, 0, 4, 4, 4]);
  // a2a3 has no atomic max
  assert.throws(
    () => execute('MSCATTER', { dst: mk(), src, idx }, { atomic: 'max' }, { profile: 'a2a3' }),
    isCat('Unsupported'),
  );
});
