// TLOAD / TSTORE through ND global views with gaps between rows (the whole-row copy path) and DN
// views (the per-element path): expected offsets written out by hand from pto-isa
// MapTileIndicesToGlobalOffset — ND: row r -> (dim2, dim3) = (floor(r / shape3), r % shape3), column c
// -> dim4; DN: row r -> dim3, column c -> (dim2, dim4) = (floor(c / shape4), c % shape4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, GlobalTensor, readTile } from './index.ts';

const f32Global = (shape: number[], stride: number[], n: number, layout: 'ND' | 'DN' = 'ND') => {
  const data = Float32Array.from({ length: n }, (_, i) => i);
  return new GlobalTensor('f32', shape, stride, layout, new Uint8Array(data.buffer));
};

test('TLOAD ND: rows from two dim-2 blocks of three rows, row pitch 10, block pitch 40; pad elsewhere', () => {
  const g = f32Global([1, 1, 2, 3, 8], [0, 0, 40, 10, 1], 80);
  const t = createTile(
    { dtype: 'f32', rows: 8, cols: 8, validRow: 6, validCol: 5, pad: 'zero' },
    new Array(64).fill(-1),
  );
  execute('TLOAD', { tile: t, gm: g });
  const want = Array.from({ length: 8 }, (_, r) =>
    Array.from({ length: 8 }, (_, c) => (r < 6 && c < 5 ? 40 * Math.floor(r / 3) + 10 * (r % 3) + c : 0)),
  );
  assert.deepEqual(readTile(t), want);
});

test('TSTORE ND writes only the valid region at the mapped offsets; DN maps columns over dims 2 and 4', () => {
  const t = createTile(
    { dtype: 'f32', rows: 8, cols: 8, validRow: 6, validCol: 5 },
    Array.from({ length: 64 }, (_, i) => 100 * Math.floor(i / 8) + (i % 8)),
  );
  const mem = new Float32Array(80).fill(-1);
  const g = new GlobalTensor('f32', [1, 1, 2, 3, 8], [0, 0, 40, 10, 1], 'ND', new Uint8Array(mem.buffer));
  execute('TSTORE', { gm: g, tile: t });
  const want = new Array(80).fill(-1);
  for (let r = 0; r < 6; r++)
    for (let c = 0; c < 5; c++) want[40 * Math.floor(r / 3) + 10 * (r % 3) + c] = 100 * r + c;
  assert.deepEqual(Array.from(mem), want);
  // DN: shape [1,1,2,4,3], strides [0,0,1,2,8]: (r, c) -> floor(c/3)*1 + r*2 + (c%3)*8
  const dn = f32Global([1, 1, 2, 4, 3], [0, 0, 1, 2, 8], 24, 'DN');
  const t2 = createTile({ dtype: 'f32', rows: 4, cols: 8, validRow: 4, validCol: 6 });
  execute('TLOAD', { tile: t2, gm: dn });
  for (let r = 0; r < 4; r++) {
    assert.deepEqual(
      readTile(t2)[r]!.slice(0, 6),
      Array.from({ length: 6 }, (_, c) => Math.floor(c / 3) + 2 * r + (c % 3) * 8),
    );
  }
});

test('TLOAD: a row that runs past the global memory is UndefinedBehaviour (not a short copy)', () => {
  const g = f32Global([1, 1, 1, 2, 8], [16, 16, 16, 8, 1], 16); // row 2 -> dim 0 index 1 -> offset 16
  const t = createTile({ dtype: 'f32', rows: 3, cols: 8 });
  // row 2 maps to offsets 16..23, past the 16 elements
  assert.throws(
    () => execute('TLOAD', { tile: t, gm: g }),
    (e) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
});
