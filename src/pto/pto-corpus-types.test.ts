// Element-type forms the PTOAS corpus uses that pto-isa allows (issue 13): each checked against
// values computed independently here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, globalFromNpy, readElement } from './index.ts';

/** f16 bits of a value that f16 represents exactly (|x| a small dyadic rational). */
function f16Bits(x: number): number {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  let m = Math.abs(x);
  let e = 0;
  while (m >= 2) {
    m /= 2;
    e++;
  }
  while (m < 1) {
    m *= 2;
    e--;
  }
  const frac = (m - 1) * 1024;
  assert.ok(Number.isInteger(frac) && e >= -14 && e <= 15, `${x} is not an exact f16 normal`);
  return sign | ((e + 15) << 10) | frac;
}

test('TAXPY with an f32 dst and an f16 src (taxpy.md: src0 widened to FP32): dst + src*a rounded once', () => {
  for (const profile of ['cpu', 'a2a3', 'a5'] as const) {
    // src = k/8 - 3 (exact f16), a = 1.5, dst = 2^24 + 2k (f32: even integers above 2^24 are exact)
    const src = createTile({ dtype: 'f16', rows: 2, cols: 16 }, undefined, { profile });
    const dst = createTile({ dtype: 'f32', rows: 2, cols: 16 }, undefined, { profile });
    const want: number[] = [];
    const sv = new DataView(src.bytes.buffer, src.bytes.byteOffset);
    const dv = new DataView(dst.bytes.buffer, dst.bytes.byteOffset);
    for (let k = 0; k < 32; k++) {
      const x = k / 8 - 3;
      const y = 2 ** 24 + 2 * k;
      sv.setUint16(k * 2, f16Bits(x), true);
      dv.setFloat32(k * 4, y, true);
      // exact sum, then round to f32 by hand: ulp(2^24..2^25) = 2, ties to even
      const exact = y + x * 1.5;
      const lo = Math.floor(exact / 2) * 2;
      const rem = exact - lo;
      want.push(rem < 1 ? lo : rem > 1 ? lo + 2 : (lo / 2) % 2 === 0 ? lo : lo + 2);
    }
    execute('TAXPY', { dst, src }, { scalar: 1.5 }, { profile });
    const got = Array.from({ length: 32 }, (_, k) => Number(readElement(dst, k >> 4, k & 15, profile)));
    assert.deepEqual(got, want, profile);
  }
  // the other mixed pair is illegal in pto-isa (a static_assert): refused
  const h = createTile({ dtype: 'f16', rows: 1, cols: 16 });
  const f = createTile({ dtype: 'f32', rows: 1, cols: 16 });
  assert.throws(
    () => execute('TAXPY', { dst: h, src: f }, { scalar: 1 }),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

test('TEXTRACT_FP with an f32 scaling tile (PTOAS declares them so): its bytes are the 64-bit quant words', () => {
  // word for column c: scale 2^(c%4 - 2) (m1 exponent 125 + c%4, fraction 0), signed i8 (bit 46)
  const words = Array.from({ length: 32 }, (_, c) => ((BigInt(125 + (c % 4)) << 10n) << 13n) | (1n << 46n));
  const fp = createTile({ dtype: 'f32', rows: 1, cols: 64, loc: 'scaling' }, undefined, { profile: 'a2a3' });
  const dv = new DataView(fp.bytes.buffer, fp.bytes.byteOffset, fp.bytes.byteLength);
  words.forEach((w, c) => {
    dv.setBigUint64(c * 8, w, true);
  });
  // acc src 16x32 f32 (col_major, NZ 16x16 boxes of 1024 B) holding r * 4 + c - 10
  const src = createTile(
    { dtype: 'f32', rows: 16, cols: 32, loc: 'acc', blayout: 'col', slayout: 'row', fractal: 1024 },
    undefined,
    { profile: 'a2a3' },
  );
  for (let r = 0; r < 16; r++)
    for (let c = 0; c < 32; c++)
      new DataView(src.bytes.buffer, src.bytes.byteOffset).setFloat32(
        src.offset(r, c) * 4,
        r * 4 + c - 10,
        true,
      );
  const dst = createTile(
    { dtype: 'i8', rows: 16, cols: 32, loc: 'mat', blayout: 'col', slayout: 'row', fractal: 512 },
    undefined,
    { profile: 'a2a3' },
  );
  execute('TEXTRACT_FP', { dst, src, fp }, { indexRow: 0, indexCol: 0 }, { profile: 'a2a3' });
  for (let r = 0; r < 16; r++) {
    for (let c = 0; c < 32; c++) {
      // x * 2^(c%4 - 2), ties to even, clamped to [-128, 127]
      const x = (r * 4 + c - 10) * 2 ** ((c % 4) - 2);
      const f = Math.floor(x);
      const near = x - f > 0.5 || (x - f === 0.5 && f % 2 !== 0) ? f + 1 : f;
      assert.equal(Number(readElement(dst, r, c, 'a2a3')), Math.max(-128, Math.min(127, near)), `${r},${c}`);
    }
  }
  // the cpu profile keeps the CPU simulator's typed quant vector: a u64 tile
  assert.throws(
    () => execute('TEXTRACT_FP', { dst, src, fp }, { indexRow: 0, indexCol: 0 }, { profile: 'cpu' }),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

test('TLOAD / TSTORE element types per TLOAD.md / TSTORE.md: 8-bit and unsigned integers on a2a3', () => {
  for (const [dtype, npy, Arr] of [
    ['i8', 'i1', Int8Array],
    ['u8', 'u1', Uint8Array],
    ['u32', 'u4', Uint32Array],
  ] as const) {
    const src = new Arr(64);
    for (let i = 0; i < 64; i++) src[i] = (i * 37 + 11) % 120;
    const dst = new Arr(64);
    const t = createTile({ dtype, rows: 2, cols: 32 }, undefined, { profile: 'a2a3' });
    execute(
      'TLOAD',
      { tile: t, gm: globalFromNpy({ dtype: npy, shape: [2, 32], data: src }) },
      {},
      { profile: 'a2a3' },
    );
    execute(
      'TSTORE',
      { gm: globalFromNpy({ dtype: npy, shape: [2, 32], data: dst }), tile: t },
      {},
      { profile: 'a2a3' },
    );
    assert.deepEqual(Array.from(dst), Array.from(src), dtype);
  }
  // fp8 is an A5 type for the moves (TSTORE.md's A5 list), not an A2/A3 one
  const f8 = createTile({ dtype: 'f8e4m3', rows: 1, cols: 32 });
  assert.throws(
    () =>
      execute(
        'TSTORE',
        {
          gm: globalFromNpy({ dtype: 'u1', shape: [1, 32], data: new Uint8Array(32) }, { dtype: 'f8e4m3' }),
          tile: f8,
        },
        {},
        { profile: 'a2a3' },
      ),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

test('A2/A3 TMOV Vec ND -> Vec NZ copies 32-byte blocks (npu/a2a3/TMov.hpp TMovToVec), no layout change', () => {
  const nz = { loc: 'vec' as const, blayout: 'col' as const, slayout: 'row' as const, fractal: 512 };
  const src = createTile(
    { dtype: 'f32', rows: 16, cols: 16 },
    Array.from({ length: 256 }, (_, i) => i),
  );
  const dst = createTile({ dtype: 'f32', rows: 16, cols: 16, ...nz });
  execute('TMOV', { dst, src }, {}, { profile: 'a2a3' });
  // same column count, all columns valid: one run of 16*16*4/32 = 32 blocks, the bytes verbatim; read
  // through the NZ layout (16x8 f32 boxes, boxes column-major): (r, c) is storage (c>>3)*128 + r*8 + (c&7)
  for (let r = 0; r < 16; r++)
    for (let c = 0; c < 16; c++) assert.equal(readElement(dst, r, c), (c >> 3) * 128 + r * 8 + (c & 7));
  // 4 valid columns: one block (8 f32) per row, dst element offset r * RowStride (1 for NZ), src r * 16;
  // later rows overwrite earlier ones: storage e < 15 holds src storage 16e (row e's first element),
  // e = 15..18 holds row 15's 4 valid elements 240..243, e = 19..22 its next 4 (outside the source's
  // valid region: all-one bits on a2a3, docs/pto.md), the rest keeps its 0
  const s4 = createTile(
    { dtype: 'f32', rows: 16, cols: 16, validCol: 4 },
    Array.from({ length: 256 }, (_, i) => i),
  );
  const d4 = createTile({ dtype: 'f32', rows: 16, cols: 16, validCol: 4, ...nz }, new Array(256).fill(0));
  execute('TMOV', { dst: d4, src: s4 }, {}, { profile: 'a2a3' });
  const raw = Array.from(new Float32Array(d4.bytes.buffer, d4.bytes.byteOffset, 256));
  assert.deepEqual(
    raw,
    Array.from({ length: 256 }, (_, e) => (e < 15 ? 16 * e : e <= 18 ? 225 + e : e <= 22 ? Number.NaN : 0)),
  );
  const bits = new Uint32Array(d4.bytes.buffer, d4.bytes.byteOffset, 256);
  assert.deepEqual(Array.from(bits.slice(19, 23)), [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
  // the A5 kernel converts the layout instead (TMovToVecNd2Nz): dst(r, c) = src(r, c)
  const d5 = createTile({ dtype: 'f32', rows: 16, cols: 16, ...nz });
  execute('TMOV', { dst: d5, src }, {}, { profile: 'a5' });
  assert.equal(readElement(d5, 3, 9), 3 * 16 + 9);
});
