/**
 * TSORT32 and TMRGSORT (pto-isa tsort32.md / tmrgsort.md, include/pto/cpu/TSort32.hpp,
 * TMrgSort.hpp). Expected records are worked out by hand from the pages' rules (descending by value,
 * ties by the smaller index; 8-byte records), except the NaN orders, which come from a scratch
 * harness that ran g++ 12 libstdc++'s std::stable_sort with TSort32.hpp's comparator (see comments).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, type Tile } from './index.ts';

const f32 = (t: Tile, i: number) => new DataView(t.bytes.buffer, t.bytes.byteOffset).getFloat32(4 * i, true);
const u32 = (t: Tile, i: number) => new DataView(t.bytes.buffer, t.bytes.byteOffset).getUint32(4 * i, true);
const u16 = (t: Tile, i: number) => new DataView(t.bytes.buffer, t.bytes.byteOffset).getUint16(2 * i, true);

/** (value, index) records of an f32 dst, `n` of them from element `from`. */
function records(t: Tile, n: number, from = 0): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < n; k++) out.push([f32(t, from + 2 * k), u32(t, from + 2 * k + 1)]);
  return out;
}

function sortSetup(vals: number[], idx: number[], cols = 32, validCol = vals.length) {
  const src = createTile(
    { dtype: 'f32', rows: 1, cols, validCol },
    Float32Array.from({ length: cols }, (_, i) => vals[i] ?? 0),
  );
  const ix = createTile(
    { dtype: 'u32', rows: 1, cols, validCol },
    Uint32Array.from({ length: cols }, (_, i) => idx[i] ?? 0),
  );
  const dst = createTile({ dtype: 'f32', rows: 1, cols: 2 * cols }, new Float32Array(2 * cols).fill(-7));
  return { src, ix, dst };
}

test('TSORT32 f32: descending, equal values by the smaller index, tail block of 8 on cpu', () => {
  const { src, ix, dst } = sortSetup([2.5, -1, 7, 2.5, 0, 7, -3, 1], [10, 11, 12, 13, 14, 15, 16, 17], 32, 8);
  execute('TSORT32', { dst, src, idx: ix });
  assert.deepEqual(records(dst, 8), [
    [7, 12],
    [7, 15],
    [2.5, 10],
    [2.5, 13],
    [1, 17],
    [0, 14],
    [-1, 11],
    [-3, 16],
  ]);
  // the rest of dst is untouched
  assert.equal(f32(dst, 16), -7);
  assert.equal(f32(dst, 63), -7);
});

test('TSORT32: ties go by the index value, not by position', () => {
  const { src, ix, dst } = sortSetup([1, 1, 1, 1], [9, 3, 7, 1], 32, 4);
  execute('TSORT32', { dst, src, idx: ix });
  assert.deepEqual(records(dst, 4), [
    [1, 1],
    [1, 3],
    [1, 7],
    [1, 9],
  ]);
});

test('TSORT32 with NaN keys keeps libstdc++ stable_sort order', () => {
  const nan = Number.NaN;
  const vals = [
    3,
    nan,
    1,
    7,
    nan,
    2,
    7,
    0,
    -1,
    nan,
    5,
    4,
    4,
    nan,
    9,
    8,
    1,
    2,
    3,
    nan,
    6,
    0,
    11,
    10,
    nan,
    12,
    1,
    1,
    2,
    13,
    nan,
    -5,
  ];
  const { src, ix, dst } = sortSetup(
    vals,
    vals.map((_, k) => 100 + k),
  );
  execute('TSORT32', { dst, src, idx: ix });
  // g++ 12 / libstdc++ std::stable_sort with TSort32.hpp's comparator on these 32 pairs (harness
  // under /tmp/pgap, not committed) printed this index order:
  const want = [
    129, 125, 122, 123, 114, 115, 103, 120, 110, 100, 101, 118, 117, 102, 104, 106, 105, 116, 107, 108, 109,
    111, 112, 113, 119, 121, 124, 128, 126, 127, 130, 131,
  ];
  assert.deepEqual(
    records(dst, 32).map((r) => r[1]),
    want,
  );
});

test('TSORT32 f16 records: [value, 0, index lo, index hi]; cpu places block b at column 64b (overlap), a5 at 128b', () => {
  const mk = () => {
    const vals = Array.from({ length: 64 }, (_, i) => (i < 32 ? i : 100 + i)); // ascending in both blocks
    const src = createTile({ dtype: 'f16', rows: 1, cols: 64 }, vals);
    const ix = createTile(
      { dtype: 'u32', rows: 1, cols: 64 },
      vals.map((_, i) => 0x10000 + i),
    );
    const dst = createTile({ dtype: 'f16', rows: 1, cols: 256 }, new Array(256).fill(0));
    return { src, ix, dst };
  };
  const h = (t: Tile, k: number) => u16(t, k);
  // f16 encodings: 31 = 0x4fc0, 163 = 0x5918, 132 = 0x5820
  {
    const { src, ix, dst } = mk();
    execute('TSORT32', { dst, src, idx: ix });
    // block 0: first record (31, 0x1001f) at halves 0..3
    assert.deepEqual([h(dst, 0), h(dst, 1), h(dst, 2), h(dst, 3)], [0x4fc0, 0, 0x001f, 0x0001]);
    // block 1 starts at half 64 (cpu: GetTileElementOffset(i, 2 * j)): its first record is (163, 0x1003f)
    assert.deepEqual([h(dst, 64), h(dst, 65), h(dst, 66), h(dst, 67)], [0x5918, 0, 0x003f, 0x0001]);
    // and its last record (132, 0x10020) ends at half 191
    assert.deepEqual([h(dst, 188), h(dst, 189), h(dst, 190), h(dst, 191)], [0x5820, 0, 0x0020, 0x0001]);
    assert.equal(h(dst, 192), 0);
  }
  {
    const { src, ix, dst } = mk();
    execute('TSORT32', { dst, src, idx: ix }, {}, { profile: 'a5' });
    // tsort32.md: block b at b * 32 * 4 halves
    assert.deepEqual([h(dst, 124), h(dst, 125), h(dst, 126), h(dst, 127)], [0, 0, 0x0000, 0x0001]);
    assert.deepEqual([h(dst, 128), h(dst, 129), h(dst, 130), h(dst, 131)], [0x5918, 0, 0x003f, 0x0001]);
  }
});

test('TSORT32 on a5: a tail needs tmp and is padded with -inf', () => {
  const { src, ix, dst } = sortSetup([5, 6], [1, 2], 32, 2);
  assert.throws(
    () => execute('TSORT32', { dst, src, idx: ix }, {}, { profile: 'a5' }),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
  );
  const tmp = createTile({ dtype: 'f32', rows: 1, cols: 32 });
  execute('TSORT32', { dst, src, idx: ix, tmp }, {}, { profile: 'a5' });
  assert.deepEqual(records(dst, 2), [
    [6, 2],
    [5, 1],
  ]);
  // padding records: -inf with the index tile's elements there, which read as all-one bits outside
  // its valid region on a5 (spec 002)
  assert.deepEqual(records(dst, 1, 4), [[Number.NEGATIVE_INFINITY, 0xffffffff]]);
});

test('TSORT32 rejects wrong index type, mismatched dst type and unsupported dtypes', () => {
  const { src, dst } = sortSetup([1], [0]);
  const bad = createTile({ dtype: 'i32', rows: 1, cols: 32 });
  const isU = (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported';
  assert.throws(() => execute('TSORT32', { dst, src, idx: bad }), isU);
  const ix = createTile({ dtype: 'u32', rows: 1, cols: 32 });
  assert.throws(
    () => execute('TSORT32', { dst: createTile({ dtype: 'i32', rows: 1, cols: 64 }), src, idx: ix }),
    isU,
  );
  const s8 = createTile({ dtype: 'i8', rows: 1, cols: 32 });
  assert.throws(
    () => execute('TSORT32', { dst: createTile({ dtype: 'i8', rows: 1, cols: 64 }), src: s8, idx: ix }),
    isU,
  );
  const i16 = createTile({ dtype: 'i16', rows: 1, cols: 32 });
  assert.throws(
    () =>
      execute(
        'TSORT32',
        { dst: createTile({ dtype: 'i16', rows: 1, cols: 128 }), src: i16, idx: ix },
        {},
        { profile: 'a2a3' },
      ),
    isU,
  );
  const ix16 = createTile({ dtype: 'u32', rows: 1, cols: 16 });
  assert.throws(
    () => execute('TSORT32', { dst, src, idx: ix16 }),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
  );
});

/** An f32 1-row tile of records (value, index) given as pairs. */
function recTile(pairs: [number, number][], cols = 2 * pairs.length, validCol = cols): Tile {
  const t = createTile({ dtype: 'f32', rows: 1, cols, validCol });
  const v = new DataView(t.bytes.buffer, t.bytes.byteOffset);
  pairs.forEach(([x, i], k) => {
    v.setFloat32(8 * k, x, true);
    v.setUint32(8 * k + 4, i, true);
  });
  return t;
}

test('TMRGSORT single list: four sorted blocks of blockLen elements merge per group', () => {
  // blockLen 4 elements = 2 f32 records per block; one group of 4 blocks = 16 elements
  const src = recTile([
    [9, 0],
    [1, 1],
    [8, 2],
    [8, 3],
    [9, 4],
    [0, 5],
    [7, 6],
    [2, 7],
  ]);
  const dst = recTile(new Array(8).fill([-1, 99]));
  execute('TMRGSORT', { dst, src0: src }, { blockLen: 4 });
  // equal keys: the earlier block wins (a later block needs a strictly greater key)
  assert.deepEqual(records(dst, 8), [
    [9, 0],
    [9, 4],
    [8, 2],
    [8, 3],
    [7, 6],
    [2, 7],
    [1, 1],
    [0, 5],
  ]);
});

test('TMRGSORT single list: groups that do not fit dst valid columns are left alone; bad blockLen is a no-op on cpu', () => {
  const pairs: [number, number][] = Array.from({ length: 16 }, (_, k) => [16 - k, k]);
  const src = recTile(pairs);
  const dst = recTile(new Array(16).fill([-1, 99]), 32, 24); // one group of 16 elements fits in 24
  execute('TMRGSORT', { dst, src0: src }, { blockLen: 4 });
  assert.deepEqual(records(dst, 8), pairs.slice(0, 8)); // already sorted blocks in descending order
  assert.deepEqual(records(dst, 1, 16), [[-1, 99]]);
  const dst2 = recTile(new Array(16).fill([-1, 99]));
  execute('TMRGSORT', { dst: dst2, src0: src }, { blockLen: 3 }); // not a multiple of the 2-element record
  assert.deepEqual(records(dst2, 1), [[-1, 99]]);
  // a5: blockLen must be a multiple of 64 and src validCol = 4 * blockLen * repeat
  assert.throws(
    () => execute('TMRGSORT', { dst: dst2, src0: src }, { blockLen: 4 }, { profile: 'a5' }),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
  );
});

test('TMRGSORT lists: 3-way merge, executed counts, exhausted stops at the first used-up list', () => {
  const a = recTile([
    [10, 1],
    [5, 2],
  ]);
  const b = recTile([
    [9, 3],
    [6, 4],
    [1, 5],
  ]);
  const c = recTile([
    [10, 6],
    [0, 7],
  ]);
  const mk = () => recTile(new Array(8).fill([-1, 99]));
  const executed = createTile({ dtype: 'u16', rows: 1, cols: 16 });
  const dst = mk();
  execute('TMRGSORT', { dst, src0: a, src1: b, src2: c, executed });
  assert.deepEqual(records(dst, 7), [
    [10, 1],
    [10, 6],
    [9, 3],
    [6, 4],
    [5, 2],
    [1, 5],
    [0, 7],
  ]);
  assert.deepEqual(records(dst, 1, 14), [[-1, 99]]);
  assert.deepEqual([u16(executed, 0), u16(executed, 1), u16(executed, 2), u16(executed, 3)], [2, 3, 2, 0]);
  const dst2 = mk();
  execute('TMRGSORT', { dst: dst2, src0: a, src1: b, src2: c, executed }, { exhausted: true });
  // after (10,1) (10,6) (9,3) (6,4) (5,2) list a is used up
  assert.deepEqual(records(dst2, 5), [
    [10, 1],
    [10, 6],
    [9, 3],
    [6, 4],
    [5, 2],
  ]);
  assert.deepEqual(records(dst2, 1, 10), [[-1, 99]]);
  assert.deepEqual([u16(executed, 0), u16(executed, 1), u16(executed, 2), u16(executed, 3)], [2, 2, 1, 0]);
  // dst valid region bounds the output
  const dst3 = recTile(new Array(8).fill([-1, 99]), 16, 4);
  execute('TMRGSORT', { dst: dst3, src0: a, src1: b });
  assert.deepEqual(records(dst3, 3), [
    [10, 1],
    [9, 3],
    [-1, 99],
  ]);
});

test('TMRGSORT rejects multi-row tiles, mixed types and forms', () => {
  const a = recTile([[1, 1]], 8);
  const two = createTile({ dtype: 'f32', rows: 2, cols: 8 });
  const isBad = (e: unknown) => e instanceof AxsimError && e.category === 'BadInput';
  assert.throws(() => execute('TMRGSORT', { dst: two, src0: a }, { blockLen: 2 }), isBad);
  assert.throws(() => execute('TMRGSORT', { dst: a, src0: a }), isBad); // no blockLen, one list
  assert.throws(() => execute('TMRGSORT', { dst: a, src0: a, src1: a }, { blockLen: 2 }), isBad);
  const h = createTile({ dtype: 'f16', rows: 1, cols: 8 });
  assert.throws(
    () => execute('TMRGSORT', { dst: h, src0: a, src1: a }),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
  assert.throws(
    () =>
      execute('TMRGSORT', {
        dst: a,
        src0: a,
        src1: a,
        executed: createTile({ dtype: 'u16', rows: 1, cols: 2 }),
      }),
    isBad,
  );
});

test('TSORT32 on a2a3: a one-row index tile is broadcast to every source row (tsort32.md)', () => {
  const src = createTile(
    { dtype: 'f32', rows: 2, cols: 32 },
    Array.from({ length: 64 }, (_, i) => (i < 32 ? i : -i)),
  );
  const idx = createTile(
    { dtype: 'u32', rows: 1, cols: 32 },
    Array.from({ length: 32 }, (_, i) => 500 + i),
  );
  const dst = createTile({ dtype: 'f32', rows: 2, cols: 64 });
  execute('TSORT32', { dst, src, idx }, {}, { profile: 'a2a3' });
  // row 0 ascending 0..31 -> first record (31, 531); row 1 is -32..-63 -> first record (-32, 500)
  assert.deepEqual(records(dst, 1), [[31, 531]]);
  assert.deepEqual(records(dst, 1, 64), [[-32, 500]]);
});
