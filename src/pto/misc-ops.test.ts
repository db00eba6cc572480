/**
 * TPARTARGMAX/MIN, TPAIRREDUCESUM, THISTOGRAM and TPREFETCH (pto-isa TPARTARGMAX.md,
 * TPairReduceSum.md, THISTOGRAM.md, tprefetch.md and the CPU simulator's loops), worked by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, GlobalTensor, readTile } from './index.ts';

const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;

test('TPARTARGMAX / TPARTARGMIN: pairs from the chosen source, src1 on ties, zeros outside both', () => {
  for (const [name, v00, want00] of [
    ['TPARTARGMAX', 5, [5, 20]],
    ['TPARTARGMIN', 5, [5, 20]],
    ['TPARTARGMAX', 6, [6, 10]],
    ['TPARTARGMIN', 6, [5, 20]],
  ] as const) {
    const s0 = createTile({ dtype: 'f32', rows: 2, cols: 2, validCol: 1 }, [v00, 99, 1, 99]);
    const s1 = createTile({ dtype: 'f32', rows: 2, cols: 2, validRow: 1 }, [5, 7, 99, 99]);
    const i0 = createTile({ dtype: 'i32', rows: 2, cols: 2 }, [10, 11, 12, 13]);
    const i1 = createTile({ dtype: 'i32', rows: 2, cols: 2 }, [20, 21, 22, 23]);
    const dst = createTile({ dtype: 'f32', rows: 2, cols: 2 }, [-1, -1, -1, -1]);
    const dstIdx = createTile({ dtype: 'i32', rows: 2, cols: 2 }, [-1, -1, -1, -1]);
    execute(name, { dst, dstIdx, src0: s0, src1: s1, src0Idx: i0, src1Idx: i1 });
    assert.deepEqual(
      [readTile(dst)[0]![0], readTile(dstIdx)[0]![0]],
      [...want00],
      `${name} with src0(0,0) = ${v00}`,
    );
    assert.deepEqual(readTile(dst), [
      [want00[0], 7],
      [1, 0],
    ]);
    assert.deepEqual(readTile(dstIdx), [
      [want00[1], 21],
      [12, 0],
    ]);
  }
});

test('TPAIRREDUCESUM: pair sums, the odd tail + 0 (so -0 -> +0), the rest of dst zeroed', () => {
  const src = createTile(
    { dtype: 'f32', rows: 2, cols: 8, validRow: 1, validCol: 5 },
    [1, 2, 3, 4, -0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9],
  );
  const dst = createTile(
    { dtype: 'f32', rows: 2, cols: 8, validRow: 1, validCol: 5 },
    new Array(16).fill(-1),
  );
  execute('TPAIRREDUCESUM', { dst, src });
  const t = readTile(dst);
  assert.deepEqual(t, [
    [3, 7, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
  ]);
  assert.ok(Object.is(t[0]![2], 0)); // +0, not -0
  assert.throws(
    () =>
      execute('TPAIRREDUCESUM', { dst: createTile({ dtype: 'f32', rows: 1, cols: 8, validCol: 0 }), src }),
    isCat('UndefinedBehaviour'),
  );
});

test('THISTOGRAM: cumulative counts of the chosen byte with the cascaded filters', () => {
  const src16 = createTile({ dtype: 'u16', rows: 1, cols: 16, validCol: 4 }, [
    0x0100,
    0x0105,
    0x0200,
    0xff00,
    ...new Array(12).fill(0),
  ]);
  const idx = createTile({ dtype: 'u8', rows: 1, cols: 32 }, [1, ...new Array(31).fill(0)]);
  const dst = createTile({ dtype: 'u32', rows: 1, cols: 256 });
  execute('THISTOGRAM', { dst, src: src16, idx }, { byte: 1 });
  const h = readTile(dst)[0]!;
  assert.deepEqual([h[0], h[1], h[2], h[3], h[254], h[255]], [0, 2, 3, 3, 3, 4]);
  execute('THISTOGRAM', { dst, src: src16, idx }, { byte: 0 });
  // only 0x0100 and 0x0105 have high byte 1: low bytes 0x00 and 0x05
  const l = readTile(dst)[0]!;
  assert.deepEqual([l[0], l[4], l[5], l[255]], [1, 1, 2, 2]);
  const src32 = createTile(
    { dtype: 'u32', rows: 1, cols: 8, validCol: 3 },
    [0xab010000, 0xab020000, 0xac010000, 0, 0, 0, 0, 0],
  );
  const idx3 = createTile({ dtype: 'u8', rows: 3, cols: 32 }, [0xab, ...new Array(95).fill(0)]);
  execute('THISTOGRAM', { dst, src: src32, idx: idx3 }, { byte: 2 });
  const w = readTile(dst)[0]!;
  assert.deepEqual([w[0], w[1], w[2], w[255]], [0, 1, 2, 2]);
  assert.throws(() => execute('THISTOGRAM', { dst, src: src16, idx }, { byte: 2 }), isCat('Unsupported'));
  assert.throws(
    () => execute('THISTOGRAM', { dst, src: src16, idx }, {}, { profile: 'a2a3' }),
    isCat('Unsupported'),
  );
});

test('TPREFETCH: cpu copies raw element r*Cols + c of the tensor; a5 maps through the strides like TLOAD', () => {
  const mk = () =>
    new GlobalTensor(
      'f32',
      [1, 1, 1, 2, 8],
      [16, 16, 16, 8, 1],
      'ND',
      new Uint8Array(Float32Array.from({ length: 16 }, (_, i) => i).buffer),
    );
  const t = createTile({ dtype: 'f32', rows: 2, cols: 4 });
  execute('TPREFETCH', { dst: t, src: mk() });
  assert.deepEqual(readTile(t), [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ]);
  execute('TPREFETCH', { dst: t, src: mk() }, {}, { profile: 'a5' });
  // TPREFETCH_ASYNC only warms the L2 cache: nothing changes
  const g = mk();
  const before = Array.from(g.bytes);
  execute('TPREFETCH_ASYNC', { src: g });
  assert.deepEqual(Array.from(g.bytes), before);
  assert.deepEqual(readTile(t), [
    [0, 1, 2, 3],
    [8, 9, 10, 11],
  ]);
});

test('TRESHAPE copies the bytes under the new tile type; incompatible pairs are rejected; SYNCALL is a no-op', () => {
  const src = createTile(
    { dtype: 'f16', rows: 1, cols: 16 },
    Array.from({ length: 16 }, (_, i) => i),
  );
  const dst = createTile({ dtype: 'bf16', rows: 2, cols: 8 });
  execute('TRESHAPE', { dst, src });
  assert.deepEqual(Array.from(dst.bytes), Array.from(src.bytes));
  assert.throws(
    () => execute('TRESHAPE', { dst: createTile({ dtype: 'i16', rows: 2, cols: 8 }), src }),
    isCat('Unsupported'),
  );
  assert.throws(
    () => execute('TRESHAPE', { dst: createTile({ dtype: 'f16', rows: 1, cols: 8 }), src }),
    isCat('Unsupported'),
  );
  execute('SYNCALL', {});
});

test('TIMG2COL: 3x3 map, 2 channels (C0), 2x2 filter; then a top pad row with pad value 7', () => {
  // NC1HWC0 = [1, 1, 3, 3, 2]: element (h, w, c0) at raw offset (h*3 + w)*2 + c0 holds 10h + w + 100c0
  const raw = new Array(32).fill(0);
  for (let h = 0; h < 3; h++)
    for (let w = 0; w < 3; w++)
      for (let c0 = 0; c0 < 2; c0++) raw[(h * 3 + w) * 2 + c0] = 10 * h + w + 100 * c0;
  const src = createTile({ dtype: 'f16', rows: 2, cols: 16, loc: 'mat' }, raw);
  const conv = {
    layout: 'NC1HWC0',
    shape: [1, 1, 3, 3, 2],
    stride: [1, 1],
    dilation: [1, 1],
    filter: [2, 2],
    pad: [0, 0, 0, 0],
  };
  const dst = createTile({ dtype: 'f16', rows: 16, cols: 16, layout: 'LEFT', validRow: 4, validCol: 8 });
  execute('TIMG2COL', { dst, src }, { conv });
  // row m = output position (m / 2, m % 2); column k = (kernel i, j) * 2 + c0
  const t = readTile(dst, { valid: true });
  assert.deepEqual(t[0], [0, 100, 1, 101, 10, 110, 11, 111]);
  assert.deepEqual(t[3], [11, 111, 12, 112, 21, 121, 22, 122]);
  // pad top 1: outH = 3; output row 0 reads input row -1 for kernel row 0 -> pad value
  execute('TIMG2COL', { dst, src }, { conv: { ...conv, pad: [0, 0, 1, 0] }, scalar: 7 });
  const p = readTile(dst, { valid: true });
  assert.deepEqual(p[0], [7, 7, 7, 7, 0, 100, 1, 101]);
  // posK = 4 shifts the columns by two kernel positions
  execute('TIMG2COL', { dst, src }, { conv, posK: 4 });
  assert.deepEqual(readTile(dst, { valid: true })[0]!.slice(0, 4), [10, 110, 11, 111]);
  assert.throws(() => execute('TIMG2COL', { dst, src }, {}), isCat('BadInput'));
});

test('TSUBVIEW in the library copies the window (dst(i, j) = src(r + i, c + j) over dst valid)', () => {
  const src = createTile({ dtype: 'i32', rows: 2, cols: 4 }, [0, 1, 2, 3, 4, 5, 6, 7]);
  const dst = createTile({ dtype: 'i32', rows: 2, cols: 4, validRow: 1, validCol: 2 }, new Array(8).fill(-1));
  execute('TSUBVIEW', { dst, src }, { rowIdx: 1, colIdx: 1 });
  assert.deepEqual(readTile(dst), [
    [5, 6, -1, -1],
    [-1, -1, -1, -1],
  ]);
  assert.throws(
    () => execute('TSUBVIEW', { dst: createTile({ dtype: 'i32', rows: 2, cols: 4, loc: 'mat' }), src }),
    isCat('Unsupported'),
  );
});
