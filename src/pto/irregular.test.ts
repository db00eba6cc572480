// Irregular, layout and matrix-vector instructions: TPARTADD/MAX/MIN, TCI, TGATHER, TGATHERB,
// TSCATTER, TFILLPAD(_EXPAND), TEXTRACT, TGEMV*. Every expected value below is worked out by hand from
// the pto-isa pages (docs/isa/tile/ops/**) and the CPU simulator's documented loops
// (include/pto/cpu/TPartOp.hpp, TCI.hpp, TGather.hpp, TGatherB.hpp, TScatter.hpp, TFillPad.hpp,
// TExtract.hpp, TMatmul.hpp), never from running axsim.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import {
  createTile,
  execute,
  GlobalTensor,
  OPS,
  readBits,
  readTile,
  type Tile,
  type TileSpec,
} from './index.ts';

const cat = (e: unknown, category: string): boolean => e instanceof AxsimError && e.category === category;
const grid = (rows: number, cols: number, f: (r: number, c: number) => number): number[] =>
  Array.from({ length: rows * cols }, (_, i) => f(Math.floor(i / cols), i % cols));

test('TPARTADD: both valid -> sum, one valid -> copy, neither -> 0, outside dst valid unchanged', () => {
  const src0 = createTile(
    { dtype: 'f32', rows: 4, cols: 8, validRow: 2, validCol: 4 },
    grid(4, 8, (r, c) => 10 * r + c + 1),
  );
  const src1 = createTile(
    { dtype: 'f32', rows: 4, cols: 8, validRow: 3, validCol: 2 },
    grid(4, 8, () => 100),
  );
  const dst = createTile(
    { dtype: 'f32', rows: 4, cols: 8, validRow: 3, validCol: 4 },
    grid(4, 8, () => -1),
  );
  execute('TPARTADD', { dst, src0, src1 });
  assert.deepEqual(readTile(dst), [
    [101, 102, 3, 4, -1, -1, -1, -1],
    [111, 112, 13, 14, -1, -1, -1, -1],
    [100, 100, 0, 0, -1, -1, -1, -1],
    [-1, -1, -1, -1, -1, -1, -1, -1],
  ]);
});

test('TPARTADD wraps i8 and rounds f16 once (float sum, half store)', () => {
  const i8 = (v: number[]) =>
    createTile({ dtype: 'i8', rows: 1, cols: 32 }, [...v, ...new Array(32 - v.length).fill(0)]);
  const d8 = i8([]);
  execute('TPARTADD', { dst: d8, src0: i8([100, -100]), src1: i8([100, -100]) });
  assert.deepEqual(readTile(d8)[0]!.slice(0, 2), [-56, 56]); // 200 - 256, -200 + 256
  const h = (bits: number) =>
    createTile(
      { dtype: 'f16', rows: 1, cols: 16 },
      Uint16Array.from({ length: 16 }, () => bits),
    );
  const d16 = h(0xffff);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: nearest-even gives 1.0 (0x3c00)
  execute('TPARTADD', { dst: d16, src0: h(0x3c00), src1: h(0x1000) });
  assert.equal(readBits(d16, 0, 0), 0x3c00);
});

test('TPARTMAX / TPARTMIN copy the std::max / std::min operand (signed zeros) and pick values', () => {
  const f = (v: number[]) =>
    createTile({ dtype: 'f32', rows: 1, cols: 8 }, [...v, ...new Array(8 - v.length).fill(0)]);
  const a = f([-0, 0, -5, 7]);
  const b = f([0, -0, 3, 2]);
  const mx = f([]);
  const mn = f([]);
  execute('TPARTMAX', { dst: mx, src0: a, src1: b });
  execute('TPARTMIN', { dst: mn, src0: a, src1: b });
  // max(a, b) = a < b ? b : a; min(a, b) = b < a ? b : a: with equal zeros both return a
  assert.deepEqual(
    [0, 1].map((c) => readBits(mx, 0, c)),
    [0x80000000, 0],
  );
  assert.deepEqual(
    [0, 1].map((c) => readBits(mn, 0, c)),
    [0x80000000, 0],
  );
  assert.deepEqual(readTile(mx)[0]!.slice(2, 4), [3, 7]);
  assert.deepEqual(readTile(mn)[0]!.slice(2, 4), [-5, 2]);
  // u16 is outside the simulator's TPartCheck list
  const u = createTile({ dtype: 'u16', rows: 1, cols: 16 });
  assert.throws(
    () => execute('TPARTMAX', { dst: u, src0: u, src1: u }),
    (e) => cat(e, 'Unsupported'),
  );
});

test('TCI: start + j / start - j over validCol of row 0, wrapping in the element type', () => {
  const t = (dtype: TileSpec['dtype'], fill: number) =>
    createTile({ dtype, rows: 1, cols: 16, validRow: 1, validCol: 4 }, new Array(16).fill(fill));
  const a = t('i32', 9);
  execute('TCI', { dst: a }, { scalar: 5 });
  assert.deepEqual(readTile(a)[0]!.slice(0, 6), [5, 6, 7, 8, 9, 9]);
  const b = t('u16', 9);
  execute('TCI', { dst: b }, { scalar: 1, descending: true });
  assert.deepEqual(readTile(b)[0]!.slice(0, 5), [1, 0, 65535, 65534, 9]);
  const c = t('i16', 0);
  execute('TCI', { dst: c }, { scalar: 32766 });
  assert.deepEqual(readTile(c)[0]!.slice(0, 4), [32766, 32767, -32768, -32767]);
  // the simulator only compiles one-row tiles; A2/A3 lists 16/32-bit integers only
  const two = createTile({ dtype: 'i32', rows: 2, cols: 8 });
  assert.throws(
    () => execute('TCI', { dst: two }, { scalar: 0 }),
    (e) => cat(e, 'Unsupported') && /1-row/.test(String(e)),
  );
  const i8 = createTile({ dtype: 'i8', rows: 1, cols: 32 });
  assert.throws(
    () => execute('TCI', { dst: i8 }, { scalar: 0 }, { profile: 'a2a3' }),
    (e) => cat(e, 'Unsupported'),
  );
});

test('TGATHER (indices): flat source index per element, out-of-range -> 0 on cpu, UB on a5', () => {
  for (const blayout of ['row', 'col'] as const) {
    const src = createTile(
      { dtype: 'i32', rows: 2, cols: 8, blayout },
      grid(2, 8, (r, c) => 100 * r + c),
    );
    const indices = createTile({ dtype: 'i32', rows: 1, cols: 8 }, [0, 9, 15, 16, -1, 7, 8, 3]);
    const dst = createTile({ dtype: 'i32', rows: 1, cols: 8 }, new Array(8).fill(-7));
    execute('TGATHER', { dst, src, indices });
    // 9 -> (1, 1), 15 -> (1, 7), 16 and -1 are outside the 16 elements, 8 -> (1, 0)
    assert.deepEqual(readTile(dst), [[0, 101, 107, 0, 0, 7, 100, 3]], blayout);
  }
  const src = createTile(
    { dtype: 'i32', rows: 2, cols: 8 },
    grid(2, 8, (r, c) => 100 * r + c),
  );
  const dst = createTile({ dtype: 'i32', rows: 1, cols: 8 });
  const bad = createTile({ dtype: 'i32', rows: 1, cols: 8 }, [0, 1, 2, 3, 4, 5, 6, 16]);
  assert.throws(
    () => execute('TGATHER', { dst, src, indices: bad }, {}, { profile: 'a5' }),
    (e) => cat(e, 'UndefinedBehaviour'),
  );
  const f32idx = createTile({ dtype: 'f32', rows: 1, cols: 8 });
  assert.throws(
    () => execute('TGATHER', { dst, src, indices: f32idx }),
    (e) => cat(e, 'Unsupported'),
  );
});

test('TGATHER (mask pattern): selected columns packed from dst element 0; col axis packs rows', () => {
  const src = createTile(
    { dtype: 'f32', rows: 4, cols: 8 },
    grid(4, 8, (r, c) => 10 * r + c),
  );
  const dst = createTile({ dtype: 'f32', rows: 2, cols: 8 }, new Array(16).fill(-1));
  src.validRow = 2;
  execute('TGATHER', { dst, src }, { maskPattern: 'P0101' });
  assert.deepEqual(readTile(dst), [
    [0, 2, 4, 6, 10, 12, 14, 16],
    [-1, -1, -1, -1, -1, -1, -1, -1],
  ]);
  src.validRow = 4;
  const d2 = createTile({ dtype: 'f32', rows: 1, cols: 8 });
  execute('TGATHER', { dst: d2, src }, { maskPattern: 'P1000', axis: 'col' }); // rows with r % 4 == 3
  assert.deepEqual(readTile(d2), [[30, 31, 32, 33, 34, 35, 36, 37]]);
});

test('TGATHERB: 32-byte blocks at byte offsets; a block past the source end is skipped on cpu', () => {
  const src = createTile(
    { dtype: 'f32', rows: 1, cols: 32 },
    grid(1, 32, (_, c) => c),
  ); // 128 bytes
  const dst = createTile({ dtype: 'f32', rows: 2, cols: 16 }, new Array(32).fill(-1));
  // offset element of (row r, block b) is r * 8 + b
  const offset = createTile(
    { dtype: 'u32', rows: 2, cols: 8 },
    [64, 0, 0, 0, 0, 0, 0, 0, 100, 32, 0, 0, 0, 0, 0, 0],
  );
  execute('TGATHERB', { dst, src, offset });
  assert.deepEqual(readTile(dst), [
    [16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7],
    [-1, -1, -1, -1, -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, 15],
  ]);
});

test('TSCATTER: dst.flat[index] = src over the index valid region; an index outside dst is UB', () => {
  const dst = createTile({ dtype: 'i16', rows: 2, cols: 16 }, new Array(32).fill(-1));
  const src = createTile(
    { dtype: 'i16', rows: 1, cols: 16 },
    grid(1, 16, (_, c) => c + 1),
  );
  const indexes = createTile({ dtype: 'i16', rows: 1, cols: 16, validRow: 1, validCol: 4 }, [
    17,
    0,
    5,
    2,
    ...new Array(12).fill(0),
  ]);
  execute('TSCATTER', { dst, src, indexes });
  const flat = readTile(dst).flat();
  assert.deepEqual(flat.slice(0, 6), [2, -1, 4, -1, -1, 3]);
  assert.equal(flat[17], 1);
  assert.equal(flat.filter((v) => v === -1).length, 28);
  const neg = createTile(
    { dtype: 'i16', rows: 1, cols: 16, validRow: 1, validCol: 1 },
    new Array(16).fill(-1),
  );
  assert.throws(
    () => execute('TSCATTER', { dst, src, indexes: neg }),
    (e) => cat(e, 'UndefinedBehaviour'),
  );
});

test('TFILLPAD: src valid region, then the pad value of the profile over the whole dst tile', () => {
  const src = createTile(
    { dtype: 'f32', rows: 2, cols: 8, validRow: 1, validCol: 3 },
    grid(2, 8, (r, c) => 8 * r + c + 1),
  );
  for (const [profile, max] of [
    ['cpu', 0x7f800000], // numeric_limits<float>::infinity()
    ['a2a3', 0x7f7fffff], // documented: largest finite
  ] as const) {
    const dst = createTile({ dtype: 'f32', rows: 2, cols: 8, pad: 'max' });
    execute('TFILLPAD', { dst, src }, {}, { profile });
    const bits = [0, 1].flatMap((r) => Array.from({ length: 8 }, (_, c) => readBits(dst, r, c)));
    assert.deepEqual(bits.slice(0, 3), [0x3f800000, 0x40000000, 0x40400000], profile); // 1, 2, 3
    assert.ok(
      bits.slice(3).every((b) => b === max),
      profile,
    );
  }
  const i16 = createTile(
    { dtype: 'i16', rows: 1, cols: 16, validCol: 2 },
    grid(1, 16, (_, c) => c + 5),
  );
  const d16 = createTile({ dtype: 'i16', rows: 1, cols: 16, pad: 'min' });
  execute('TFILLPAD', { dst: d16, src: i16 });
  assert.deepEqual(readTile(d16)[0], [5, 6, ...new Array(14).fill(-32768)]);
  const nul = createTile({ dtype: 'f32', rows: 2, cols: 8 });
  assert.throws(
    () => execute('TFILLPAD', { dst: nul, src }),
    (e) => cat(e, 'Unsupported') && /Null/.test(String(e)),
  );
  const wide = createTile({ dtype: 'f32', rows: 2, cols: 16, pad: 'zero' });
  assert.throws(
    () => execute('TFILLPAD', { dst: wide, src }),
    (e) => cat(e, 'Unsupported'),
  );
});

test('TFILLPAD_EXPAND: a larger dst gets src valid values and pad elsewhere (f16 Max: 0 on cpu, 0x7bff on a5)', () => {
  const src = createTile(
    { dtype: 'f16', rows: 1, cols: 16 },
    Uint16Array.from({ length: 16 }, () => 0x4000),
  ); // 2.0
  for (const [profile, max] of [
    ['cpu', 0x0000],
    ['a5', 0x7bff],
  ] as const) {
    const dst = createTile({ dtype: 'f16', rows: 2, cols: 32, pad: 'max' });
    execute('TFILLPAD_EXPAND', { dst, src }, {}, { profile });
    for (let r = 0; r < 2; r++) {
      for (let c = 0; c < 32; c++)
        assert.equal(readBits(dst, r, c), r === 0 && c < 16 ? 0x4000 : max, `${profile} ${r},${c}`);
    }
  }
  const small = createTile({ dtype: 'f16', rows: 1, cols: 16, pad: 'zero' });
  const big = createTile({ dtype: 'f16', rows: 2, cols: 32 });
  assert.throws(
    () => execute('TFILLPAD_EXPAND', { dst: small, src: big }),
    (e) => cat(e, 'Unsupported'),
  );
});

test('TEXTRACT: the dst-sized window at (indexRow, indexCol); A2/A3 checks the window fits', () => {
  const src = createTile(
    { dtype: 'f32', rows: 4, cols: 8 },
    grid(4, 8, (r, c) => 10 * r + c),
  );
  const dst = createTile(
    { dtype: 'f32', rows: 2, cols: 8, validRow: 2, validCol: 4 },
    new Array(16).fill(-1),
  );
  execute('TEXTRACT', { dst, src }, { indexRow: 1, indexCol: 3 });
  assert.deepEqual(readTile(dst), [
    [13, 14, 15, 16, -1, -1, -1, -1],
    [23, 24, 25, 26, -1, -1, -1, -1],
  ]);
  // a2a3: indexCol + dst cols (8) must stay within src cols (8)
  assert.throws(
    () => execute('TEXTRACT', { dst, src }, { indexRow: 1, indexCol: 3 }, { profile: 'a2a3' }),
    (e) => cat(e, 'BadInput'),
  );
  // reading past the physical source is undefined behaviour
  assert.throws(
    () => execute('TEXTRACT', { dst, src }, { indexRow: 3, indexCol: 0 }),
    (e) => cat(e, 'UndefinedBehaviour'),
  );
});

test('TGEMV / TGEMV_BIAS run the TMATMUL forms: one row of A times B, bias over c valid region', () => {
  const a = createTile(
    { dtype: 'f32', rows: 16, cols: 8, layout: 'LEFT', validRow: 1 },
    grid(16, 8, (r, c) => (r === 0 ? c + 1 : 0)),
  );
  const b = createTile(
    { dtype: 'f32', rows: 8, cols: 16, layout: 'RIGHT' },
    grid(8, 16, (k, j) => (k === j % 8 ? 2 : 0)),
  );
  const c = createTile({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TGEMV', { c, a, b });
  // c(0, j) = sum_k a(0,k) b(k,j) = a(0, j % 8) * 2
  assert.deepEqual(
    readTile(c)[0],
    grid(1, 16, (_, j) => 2 * ((j % 8) + 1)),
  );
  const bias = createTile(
    { dtype: 'f32', rows: 1, cols: 16, layout: 'BIAS' },
    grid(1, 16, (_, j) => j),
  );
  const c2 = createTile({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TGEMV_BIAS', { c: c2, a, b, bias });
  assert.deepEqual(
    readTile(c2)[0],
    grid(1, 16, (_, j) => 2 * ((j % 8) + 1) + j),
  );
  assert.deepEqual(
    readTile(c2)[5],
    grid(1, 16, (_, j) => j),
  ); // rows the product does not write: 0 + bias
  const acc = createTile({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TGEMV_ACC', { c: acc, cin: c2, a, b });
  assert.deepEqual(
    readTile(acc)[0],
    grid(1, 16, (_, j) => 4 * ((j % 8) + 1) + j),
  );
});

test('TMATMUL_MX (cpu): fp8 products times E8M0 block scales, float accumulation rounded every step', () => {
  const codes = (rows: number, cols: number, f: (r: number, c: number) => number) =>
    Uint8Array.from(grid(rows, cols, f));
  const mk = (
    spec: TileSpec & { layout?: 'LEFT' | 'RIGHT' | 'ACC' | 'BIAS' },
    data?: Uint8Array | number[],
  ) => createTile(spec, data, { raw: true });
  // e4m3 codes (MXType: bias 7): 0x38 = 1, 0x40 = 2, 0x78 = 256, 0x18 = 2^-4, 0x10 = 2^-5
  const a = mk(
    { dtype: 'f8e4m3', rows: 16, cols: 64, layout: 'LEFT' },
    codes(16, 64, () => 0x38),
  );
  const b = mk(
    { dtype: 'f8e4m3', rows: 64, cols: 16, layout: 'RIGHT' },
    codes(64, 16, () => 0x40),
  );
  // scales: a group 0 -> 2^0, group 1 -> 2^1; b group 0 -> 2^0, group 1 -> 2^(j % 4 - 1)
  const aScale = mk(
    { dtype: 'u8', rows: 16, cols: 32 },
    codes(16, 32, (_, g) => (g === 0 ? 127 : 128)),
  );
  const bScale = mk(
    { dtype: 'u8', rows: 2, cols: 16 },
    codes(2, 16, (g, j) => (g === 0 ? 127 : 126 + (j % 4))),
  );
  const c = mk({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TMATMUL_MX', { c, a, aScale, b, bScale });
  // k < 32: 1 * 2 * 1 = 2 (sum 64); k >= 32: 1 * 2 * 2 * 2^(j%4 - 1) = 2^(j%4 + 1) (sum 32 * that)
  const want = grid(1, 16, (_, j) => 64 + 32 * 2 ** ((j % 4) + 1));
  assert.deepEqual(readTile(c)[7], want);
  const bias = mk(
    { dtype: 'f32', rows: 1, cols: 16, layout: 'BIAS' },
    grid(1, 16, (_, j) => j),
  );
  const cb = mk({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TMATMUL_MX_BIAS', { c: cb, a, aScale, b, bScale, bias });
  assert.deepEqual(
    readTile(cb)[0],
    want.map((v, j) => v + j),
  );
  const ca = mk({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TMATMUL_MX_ACC', { c: ca, cin: cb, a, aScale, b, bScale });
  assert.deepEqual(
    readTile(ca)[0],
    want.map((v, j) => 2 * v + j),
  );

  // 256 * 256 = 2^16 first, then 63 terms of 2^-4 * 2^-5 = 2^-9, each a quarter of the float ulp
  // at 2^16 (2^-7): every step rounds back to 2^16 (a single final rounding would give 65536.125)
  const a2 = mk(
    { dtype: 'f8e4m3', rows: 16, cols: 64, layout: 'LEFT' },
    codes(16, 64, (_, k) => (k === 0 ? 0x78 : 0x18)),
  );
  const b2 = mk(
    { dtype: 'f8e4m3', rows: 64, cols: 16, layout: 'RIGHT' },
    codes(64, 16, (k) => (k === 0 ? 0x78 : 0x10)),
  );
  const one = (r: number, cc: number) =>
    mk(
      { dtype: 'u8', rows: r, cols: cc },
      codes(r, cc, () => 127),
    );
  const c2 = mk({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TMATMUL_MX', { c: c2, a: a2, aScale: one(16, 32), b: b2, bScale: one(2, 16) });
  assert.equal(readBits(c2, 3, 5), 0x47800000); // 65536.0f
  // TMATMUL_MX.md: implemented on A5 (fp8 A/B, E8M0 scales, f32 C) — the same products there (the
  // OCP e4m3 codes used above mean the same values); A2/A3 have no MX matmul
  const c5 = mk({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TMATMUL_MX', { c: c5, a, aScale, b, bScale }, {}, { profile: 'a5' });
  assert.deepEqual(readTile(c5, { profile: 'a5' })[7], want);
  assert.throws(
    () =>
      execute(
        'TMATMUL_MX',
        { c: c2, a: a2, aScale: one(16, 32), b: b2, bScale: one(2, 16) },
        {},
        { profile: 'a2a3' },
      ),
    (e) => cat(e, 'Unsupported'),
  );
});

/** A vector quant word: m1 = the top 19 bits of an f32 scale, offset bits 37..45, sign bit 46. */
function quantWord(scaleBits: number, offset = 0, signed = true, shift = 0): bigint {
  return (
    (BigInt(scaleBits >>> 13) << 13n) |
    (BigInt(shift) << 32n) |
    (BigInt(offset) << 37n) |
    (signed ? 1n << 46n : 0n)
  );
}

test('TMOV_FP: f32 -> i8 per-column quant words (scale, offset, ties to even, clamp, then the int8 cast)', () => {
  const src = createTile({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC', validRow: 1, validCol: 5 }, [
    ...[5, 7, -20, 1000, 300],
    ...new Array(251).fill(0),
  ]);
  const fp = createTile({ dtype: 'u64', rows: 1, cols: 8, loc: 'scaling', validCol: 5 }, [
    quantWord(0x3f000000), // 0.5: 5 -> 2.5 -> 2 (ties to even)
    quantWord(0x3f000000), // 7 -> 3.5 -> 4
    quantWord(0x3fc00000, 10, false), // 1.5: -30 + 10 = -20 -> clamped to 0 (unsigned range)
    quantWord(0x3f800000), // 1: 1000 -> 127
    quantWord(0x3f800000, 3, false), // 300 + 3 -> 255, and (int8_t)255.0f = -1
    0n,
    0n,
    0n,
  ]);
  const dst = createTile({ dtype: 'i8', rows: 1, cols: 32, validCol: 5 }, new Array(32).fill(9));
  execute('TMOV_FP', { dst, src, fp });
  assert.deepEqual(readTile(dst)[0]!.slice(0, 6), [2, 4, 0, 127, -1, 9]);
  // i32 -> i16 shifts right by bits 32..35 + 1 and keeps the low 16 bits
  const si = createTile({ dtype: 'i32', rows: 16, cols: 16, layout: 'ACC', validRow: 1, validCol: 2 }, [
    ...[-100, 0x7fffffff],
    ...new Array(254).fill(0),
  ]);
  const f2 = createTile({ dtype: 'u64', rows: 1, cols: 4, validCol: 2 }, [
    quantWord(0, 0, true, 3),
    quantWord(0, 0, true, 3),
    0n,
    0n,
  ]);
  const d16 = createTile({ dtype: 'i16', rows: 1, cols: 16, validCol: 2 });
  execute('TMOV_FP', { dst: d16, src: si, fp: f2 });
  assert.deepEqual(readTile(d16)[0]!.slice(0, 2), [-7, -1]); // -100 >> 4 = -7; 0x07ffffff -> 0xffff
});

test('TSTORE_FP: i32 accumulator -> f16 (VDEQF16); a ColMajor source takes the quant word of its row', () => {
  const t = createTile({ dtype: 'i32', rows: 16, cols: 16, layout: 'ACC', validRow: 2, validCol: 2 }, [
    ...[1000, 1 << 20],
    ...new Array(14).fill(0),
    ...[3, -5],
    ...new Array(238).fill(0),
  ]);
  const fp = createTile({ dtype: 'u64', rows: 1, cols: 4, validCol: 2 }, [
    quantWord(0x3d800000),
    quantWord(0x3f800000),
    0n,
    0n,
  ]);
  const gm = new GlobalTensor('f16', [1, 1, 1, 2, 2], [4, 4, 4, 2, 1], 'ND', new Uint8Array(8));
  execute('TSTORE_FP', { gm, tile: t, fp });
  const half = Array.from(new Uint16Array(gm.bytes.buffer, gm.bytes.byteOffset, 4));
  // row 0 (word 0, scale 2^-4): 62.5 = 0x53d0, 65536 clamps to 65504 = 0x7bff; row 1 (scale 1): 3, -5
  assert.deepEqual(half, [0x53d0, 0x7bff, 0x4200, 0xc500]);
  const short = createTile({ dtype: 'u64', rows: 1, cols: 4, validCol: 1 }, [
    quantWord(0x3f800000),
    0n,
    0n,
    0n,
  ]);
  assert.throws(
    () => execute('TSTORE_FP', { gm, tile: t, fp: short }),
    (e) => cat(e, 'UndefinedBehaviour'),
  );
});

test('TSCATTER mask form: selected columns take the source read linearly (wrapping at src.cols), others 0', () => {
  const src = createTile(
    { dtype: 'f32', rows: 2, cols: 8, validRow: 2, validCol: 4 },
    grid(2, 8, (r, c) => 8 * r + c + 1),
  );
  const dst = createTile({ dtype: 'f32', rows: 2, cols: 8 }, new Array(16).fill(-1));
  execute('TSCATTER', { dst, src }, { maskPattern: 'P0101' });
  // the read position runs along src's physical row (8 columns), so row 1 of dst gets src(0, 4..7)
  assert.deepEqual(readTile(dst), [
    [1, 0, 2, 0, 3, 0, 4, 0],
    [5, 0, 6, 0, 7, 0, 8, 0],
  ]);
  const d2 = createTile({ dtype: 'f32', rows: 4, cols: 8 }, new Array(32).fill(-1));
  execute('TSCATTER', { dst: d2, src }, { maskPattern: 'P1010', axis: 'col' }); // rows with r % 2 == 1
  assert.deepEqual(readTile(d2), [
    new Array(8).fill(0),
    [1, 2, 3, 4, 5, 6, 7, 8],
    new Array(8).fill(0),
    [9, 10, 11, 12, 13, 14, 15, 16],
  ]);
  const i8 = createTile({ dtype: 'i8', rows: 1, cols: 32 });
  assert.throws(
    () => execute('TSCATTER', { dst: i8, src: i8 }, { maskPattern: 'P0101' }),
    (e) => cat(e, 'Unsupported'),
  );
});

test('TSEL (cpu) takes the stream bits from each mask element low byte, also for u64 masks', () => {
  // TSel.hpp: bit = (selMask[k] >> bitIdx) & 1, bitIdx 0..7: only the low byte of each element
  const mask = createTile({ dtype: 'u64', rows: 1, cols: 4, validCol: 1 }, [0x8000000000000005n, 0n, 0n, 0n]);
  const src0 = createTile({ dtype: 'f32', rows: 1, cols: 8 }, new Array(8).fill(1));
  const src1 = createTile({ dtype: 'f32', rows: 1, cols: 8 }, new Array(8).fill(2));
  const dst = createTile({ dtype: 'f32', rows: 1, cols: 8 });
  execute('TSEL', { dst, mask, src0, src1 });
  // low byte 0x05: bits 0 and 2 set
  assert.deepEqual(readTile(dst), [[1, 2, 1, 2, 2, 2, 2, 2]]);
});

test('the new instructions with random operands and attributes: a result or an AxsimError, never Internal', () => {
  const names = [
    'TPARTADD',
    'TPARTMAX',
    'TCI',
    'TGATHER',
    'TGATHERB',
    'TSCATTER',
    'TFILLPAD',
    'TFILLPAD_EXPAND',
    'TEXTRACT',
    'TGEMV_BIAS',
    'TMATMUL_MX_ACC',
    'TSTORE_FP',
    'TMOV_FP',
  ];
  const dtypes = ['f32', 'f16', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f8e4m3'] as const;
  const layouts = ['RM', 'CM', 'LEFT', 'RIGHT', 'ACC', 'BIAS'] as const;
  const tileArb = fc
    .record({
      dtype: fc.constantFrom(...dtypes),
      layout: fc.constantFrom(...layouts),
      rows: fc.constantFrom(1, 2, 16, 32),
      cols: fc.constantFrom(1, 8, 16, 64),
      vr: fc.double({ min: 0, max: 1, noNaN: true }),
      vc: fc.double({ min: 0, max: 1, noNaN: true }),
      pad: fc.constantFrom('null', 'zero', 'max', 'min'),
      seed: fc.integer({ min: 0, max: 255 }),
    })
    .map((s) => {
      try {
        const t = createTile({
          dtype: s.dtype,
          rows: s.rows,
          cols: s.cols,
          layout: s.layout,
          pad: s.pad as TileSpec['pad'],
          validRow: Math.round(s.vr * s.rows),
          validCol: Math.round(s.vc * s.cols),
        });
        for (let i = 0; i < t.bytes.length; i++) t.bytes[i] = (i * 53 + s.seed) & 0xff;
        return t;
      } catch (e) {
        if (e instanceof AxsimError) return undefined;
        throw e;
      }
    });
  const attrArb = fc.record({
    scalar: fc.oneof(fc.integer(), fc.double(), fc.constant(undefined)),
    descending: fc.oneof(fc.boolean(), fc.constant('true'), fc.constant(3)),
    maskPattern: fc.oneof(fc.constantFrom('P0101', 'P1000', 'P1111', 'PXXXX'), fc.constant(undefined)),
    axis: fc.constantFrom('row', 'col', 'diag'),
    indexRow: fc.oneof(fc.integer({ min: -3, max: 40 }), fc.double(), fc.constant(undefined)),
    indexCol: fc.oneof(fc.integer({ min: 0, max: 70 }), fc.constant(2n)),
  });
  fc.assert(
    fc.property(
      fc.constantFrom(...names),
      fc.array(tileArb, { minLength: 7, maxLength: 7 }),
      attrArb,
      fc.constantFrom('cpu', 'a2a3', 'a5'),
      fc.boolean(),
      (name, tiles, attrs, profile, omitLast) => {
        const op = OPS.get(name)!;
        const operands: Record<string, Tile | GlobalTensor> = {};
        let k = 0;
        for (const spec of op.operands) {
          if (spec.kind === 'global')
            operands[spec.name] = new GlobalTensor('f32', [1, 1, 1, 4, 8], [32, 32, 32, 8, 1]);
          else if (!(omitLast && spec.optional)) {
            const t = tiles[k++];
            if (t) operands[spec.name] = t;
          }
        }
        try {
          execute(name, operands, attrs, { profile: profile as 'cpu' });
        } catch (e) {
          if (!(e instanceof AxsimError)) throw e;
          assert.notEqual(e.category, 'Internal', e.message);
        }
      },
    ),
    { numRuns: 3000 },
  );
});

test('TMATMUL_MX with f16 scale tiles (PTOAS declares them): scales read by value, as the CPU simulator does', () => {
  const codes = (rows: number, cols: number, f: (r: number, c: number) => number) =>
    Uint8Array.from(grid(rows, cols, f));
  const mk = (spec: TileSpec & { layout?: 'LEFT' | 'RIGHT' | 'ACC' }, data?: Uint8Array | number[]) =>
    createTile(spec, data, { raw: true });
  const a = mk(
    { dtype: 'f8e4m3', rows: 16, cols: 64, layout: 'LEFT' },
    codes(16, 64, () => 0x38),
  ); // 1
  const b = mk(
    { dtype: 'f8e4m3', rows: 64, cols: 16, layout: 'RIGHT' },
    codes(64, 16, () => 0x38),
  );
  // aScale(i, 0) = i + 1, aScale(i, 1) = 3; bScale(0, j) = 2, bScale(1, j) = 0.25 (all exact halves)
  const aScale = createTile(
    { dtype: 'f16', rows: 16, cols: 16 },
    grid(16, 16, (i, g) => (g === 0 ? i + 1 : 3)),
  );
  const bScale = createTile(
    { dtype: 'f16', rows: 2, cols: 16 },
    grid(2, 16, (g) => (g === 0 ? 2 : 0.25)),
  );
  const c = mk({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TMATMUL_MX', { c, a, aScale, b, bScale }, {}, { profile: 'a5' });
  // C(i, j) = 32 * (i + 1) * 2 + 32 * 3 * 0.25 = 64 (i + 1) + 24
  assert.deepEqual(
    readTile(c, { profile: 'a5' }).map((row) => row[5]),
    grid(16, 1, (i) => 64 * (i + 1) + 24),
  );
  // CheckMadMxValid's static_asserts are BadInput: K a multiple of 64, the fractal layouts
  const a32 = mk(
    { dtype: 'f8e4m3', rows: 16, cols: 32, layout: 'LEFT' },
    codes(16, 32, () => 0x38),
  );
  const b32 = mk(
    { dtype: 'f8e4m3', rows: 32, cols: 16, layout: 'RIGHT' },
    codes(32, 16, () => 0x38),
  );
  assert.throws(
    () => execute('TMATMUL_MX', { c, a: a32, aScale, b: b32, bScale }, {}, { profile: 'a5' }),
    (e) => cat(e, 'BadInput') && /multiple of 64/.test(String(e)) && /CheckMadMxValid/.test(String(e)),
  );
  const cRow = createTile({ dtype: 'f32', rows: 16, cols: 16 });
  assert.throws(
    () => execute('TMATMUL_MX', { c: cRow, a, aScale, b, bScale }, {}, { profile: 'a5' }),
    (e) => cat(e, 'BadInput') && /Non-conforming matrix fractal/.test(String(e)),
  );
});
