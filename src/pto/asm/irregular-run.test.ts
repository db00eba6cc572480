// PTO-AS programs using the irregular / layout / matrix-vector ops reach part 1's functional models
// through the runner (tci with `descending`, textract's two index operands, tpartadd, tgather with an
// index tile, tfillpad_expand, tgemv). Expected values are worked by hand from the pto-isa pages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NpyArray } from '../../io/index.ts';
import { parsePtoAs, runProgram, verifyDiagnostics } from './index.ts';

const tb = (dtype: string, rows: number, cols: number, vr = rows, vc = cols, pad = 0) =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${vr}, v_col=${vc}, blayout=row_major, slayout=none_box, fractal=512, pad=${pad}>`;

/** A function loading `ins` (name -> [rows, cols, tile type]) and storing `out` after `body`. */
function program(
  elem: string,
  ins: Record<string, [number, number, string]>,
  out: [string, number, number, string],
  body: string,
): string {
  const args = [...Object.keys(ins), out[0]].map((n) => `%${n}: !pto.ptr<${elem}>`).join(', ');
  const lines: string[] = [];
  const view = (n: string, r: number, c: number, t: string, load: boolean) => {
    lines.push(
      `%r${n} = arith.constant ${r} : index`,
      `%c${n} = arith.constant ${c} : index`,
      `%v${n} = pto.make_tensor_view %${n}, shape = [%r${n}, %c${n}], strides = [%c${n}, %one] : !pto.tensor_view<?x?x${elem}>`,
      `%p${n} = pto.partition_view %v${n}, offsets = [%zero, %zero], sizes = [%r${n}, %c${n}] : !pto.tensor_view<?x?x${elem}> -> !pto.partition_tensor_view<${r}x${c}x${elem}>`,
      `%t${n} = pto.alloc_tile : ${t}`,
    );
    if (load)
      lines.push(`pto.tload ins(%p${n} : !pto.partition_tensor_view<${r}x${c}x${elem}>) outs(%t${n} : ${t})`);
  };
  for (const [n, [r, c, t]] of Object.entries(ins)) view(n, r, c, t, true);
  view(out[0], out[1], out[2], out[3], true);
  lines.push(body);
  lines.push(
    `pto.tstore ins(%t${out[0]} : ${out[3]}) outs(%p${out[0]} : !pto.partition_tensor_view<${out[1]}x${out[2]}x${elem}>)`,
  );
  return `module {\n func.func @k(${args}) {\n %zero = arith.constant 0 : index\n %one = arith.constant 1 : index\n ${lines.join('\n ')}\n return\n }\n}\n`;
}

const arr = (dtype: 'f4' | 'i4', shape: number[], f: (i: number) => number): NpyArray => {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = dtype === 'f4' ? new Float32Array(n) : new Int32Array(n);
  for (let i = 0; i < n; i++) data[i] = f(i);
  return { dtype, shape, data };
};

function run(src: string, args: Record<string, NpyArray | number>): void {
  const m = parsePtoAs(src);
  assert.deepEqual(
    verifyDiagnostics(m).map((d) => d.message),
    [],
  );
  runProgram(m, args);
}

test('pto.tci with descending = true writes start - j', () => {
  const T = tb('i32', 1, 16, 1, 6);
  const src = program(
    'i32',
    {},
    ['o', 1, 16, T],
    `%s = arith.constant 3 : i32\n pto.tci ins(%s {descending = true} : i32) outs(%to : ${T})`,
  );
  const o = arr('i4', [1, 16], () => 99);
  run(src, { o });
  // tload fills the tile's valid region (1x6) and tstore writes the valid region back
  assert.deepEqual(Array.from(o.data as Int32Array).slice(0, 7), [3, 2, 1, 0, -1, -2, 99]);
});

test('pto.textract takes the window at (indexRow, indexCol)', () => {
  const S = tb('f32', 4, 8);
  const D = tb('f32', 2, 8, 2, 4);
  const src = program(
    'f32',
    { a: [4, 8, S] },
    ['o', 2, 8, D],
    `%i1 = arith.constant 1 : index\n %i3 = arith.constant 3 : index\n pto.textract ins(%ta, %i1, %i3 : ${S}, index, index) outs(%to : ${D})`,
  );
  const a = arr('f4', [4, 8], (i) => 10 * Math.floor(i / 8) + (i % 8));
  const o = arr('f4', [2, 8], () => -1);
  run(src, { a, o });
  assert.deepEqual(
    Array.from(o.data as Float32Array),
    [13, 14, 15, 16, -1, -1, -1, -1, 23, 24, 25, 26, -1, -1, -1, -1],
  );
});

test('pto.tpartadd: sum where both valid, copy where one is', () => {
  const A = tb('f32', 2, 8, 2, 8);
  const B = tb('f32', 2, 8, 1, 8);
  const src = program(
    'f32',
    { a: [2, 8, A], b: [2, 8, B] },
    ['o', 2, 8, A],
    `pto.tpartadd ins(%ta, %tb : ${A}, ${B}) outs(%to : ${A})`,
  );
  const a = arr('f4', [2, 8], (i) => i);
  const b = arr('f4', [2, 8], () => 0.5);
  const o = arr('f4', [2, 8], () => 0);
  run(src, { a, b, o });
  // row 0: a + 0.5; row 1: b's valid region has one row, so a is copied
  assert.deepEqual(Array.from(o.data as Float32Array), [
    ...[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5],
    ...[8, 9, 10, 11, 12, 13, 14, 15],
  ]);
});

test('pto.tgather with an index tile and pto.tfillpad_expand', () => {
  const S = tb('i32', 2, 8);
  const D = tb('i32', 1, 8);
  const src = program(
    'i32',
    { a: [2, 8, S], ix: [1, 8, D] },
    ['o', 1, 8, D],
    `pto.tgather ins(%ta, %tix : ${S}, ${D}) outs(%to : ${D})`,
  );
  const a = arr('i4', [2, 8], (i) => 100 + i);
  const ix = arr('i4', [1, 8], (i) => [15, 0, 16, 8, -3, 1, 2, 9][i]!);
  const o = arr('i4', [1, 8], () => 0);
  run(src, { a, ix, o });
  assert.deepEqual(Array.from(o.data as Int32Array), [115, 100, 0, 108, 0, 101, 102, 109]);

  const small = tb('i32', 1, 8, 1, 3);
  const big = tb('i32', 2, 16, 2, 16, 3); // pad=3: Min
  const src2 = program(
    'i32',
    { a: [1, 8, small] },
    ['o', 2, 16, big],
    `pto.tfillpad_expand ins(%ta : ${small}) outs(%to : ${big})`,
  );
  const a2 = arr('i4', [1, 8], (i) => i + 1);
  const o2 = arr('i4', [2, 16], () => 0);
  run(src2, { a: a2, o: o2 });
  const m = -2147483648;
  assert.deepEqual(Array.from(o2.data as Int32Array), [1, 2, 3, ...new Array(29).fill(m)]);
});

test('pto.tmatmul.mx (E8M0 scale tiles), pto.tmov.fp and pto.tstore_fp run through the fix-pipe model', () => {
  const T = (loc: string, dt: string, r: number, c: number, bl: string, sl: string, fr = 512) =>
    `!pto.tile_buf<loc=${loc}, dtype=${dt}, rows=${r}, cols=${c}, v_row=${r}, v_col=${c}, blayout=${bl}, slayout=${sl}, fractal=${fr}, pad=0>`;
  const tiles: Record<string, [string, number, number, string]> = {
    a: ['f8E4M3FN', 16, 64, T('left', 'f8E4M3FN', 16, 64, 'col_major', 'row_major')],
    as: ['f8E8M0FNU', 16, 32, T('scaling', 'f8E8M0FNU', 16, 32, 'row_major', 'none_box')],
    b: ['f8E4M3FN', 64, 16, T('right', 'f8E4M3FN', 64, 16, 'row_major', 'col_major')],
    bs: ['f8E8M0FNU', 2, 16, T('scaling', 'f8E8M0FNU', 2, 16, 'row_major', 'none_box')],
    fp: ['ui64', 1, 16, T('scaling', 'ui64', 1, 16, 'row_major', 'none_box')],
    o: ['i8', 16, 16, T('vec', 'i8', 16, 16, 'row_major', 'none_box')],
  };
  const C = T('acc', 'f32', 16, 16, 'col_major', 'row_major', 1024);
  const lines: string[] = [];
  for (const [n, [e, r, c, t]] of Object.entries(tiles)) {
    lines.push(
      `%v${n} = pto.make_tensor_view %${n}, shape = [%c${r}, %c${c}], strides = [%c${c}, %c1] : !pto.tensor_view<?x?x${e}>`,
      `%p${n} = pto.partition_view %v${n}, offsets = [%c0, %c0], sizes = [%c${r}, %c${c}] : !pto.tensor_view<?x?x${e}> -> !pto.partition_tensor_view<${r}x${c}x${e}>`,
      `%t${n} = pto.alloc_tile : ${t}`,
    );
    if (n !== 'o')
      lines.push(`pto.tload ins(%p${n} : !pto.partition_tensor_view<${r}x${c}x${e}>) outs(%t${n} : ${t})`);
  }
  const t = (n: string) => tiles[n]![3];
  lines.push(
    `%v2 = pto.make_tensor_view %o2, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi8>`,
    `%p2 = pto.partition_view %v2, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xi8> -> !pto.partition_tensor_view<16x16xi8>`,
    `%acc = pto.alloc_tile : ${C}`,
    `pto.tmatmul.mx ins(%ta, %tas, %tb, %tbs : ${t('a')}, ${t('as')}, ${t('b')}, ${t('bs')}) outs(%acc : ${C})`,
    `pto.tmov.fp ins(%acc, %tfp : ${C}, ${t('fp')}) outs(%to : ${t('o')})`,
    `pto.tstore ins(%to : ${t('o')}) outs(%po : !pto.partition_tensor_view<16x16xi8>)`,
    `pto.tstore_fp ins(%acc, %tfp : ${C}, ${t('fp')}) outs(%p2 : !pto.partition_tensor_view<16x16xi8>)`,
  );
  const args = Object.entries(tiles)
    .map(([n, [e]]) => `%${n}: !pto.ptr<${e}>`)
    .concat('%o2: !pto.ptr<i8>')
    .join(', ');
  const consts = [0, 1, 2, 16, 32, 64].map((k) => `%c${k} = arith.constant ${k} : index`).join('\n ');
  const src = `module {\n func.func @mx(${args}) {\n ${consts}\n ${lines.join('\n ')}\n return\n }\n}\n`;
  const u1 = (shape: number[], v: number): NpyArray => ({
    dtype: 'u1',
    shape,
    data: new Uint8Array(shape[0]! * shape[1]!).fill(v),
  });
  // quant words: m1 = top bits of the f32 scale (0.5 = 0x3f000000, 1 = 0x3f800000), bit 46 = signed range
  const word = (bits: number) => (BigInt(bits) & 0xffffe000n) | (1n << 46n);
  const fp: NpyArray = {
    dtype: 'u8',
    shape: [1, 16],
    data: BigUint64Array.from({ length: 16 }, (_, i) => word(i === 1 ? 0x3f800000 : 0x3f000000)),
  };
  const o: NpyArray = { dtype: 'i1', shape: [16, 16], data: new Int8Array(256) };
  const o2: NpyArray = { dtype: 'i1', shape: [16, 16], data: new Int8Array(256) };
  // e4m3 0x38 = 1, 0x40 = 2; E8M0 127 = 1: every c(i, j) = 64 * 1 * 2 = 128
  run(src, {
    a: u1([16, 64], 0x38),
    as: u1([16, 32], 127),
    b: u1([64, 16], 0x40),
    bs: u1([2, 16], 127),
    fp,
    o,
    o2,
  });
  // tmov.fp picks the word by column: column 1 scales by 1 (128 -> 127), the others by 0.5 (64)
  const O = Array.from(o.data as Int8Array);
  assert.deepEqual(O.slice(0, 16), [64, 127, ...new Array(14).fill(64)]);
  assert.deepEqual(O.slice(240), [64, 127, ...new Array(14).fill(64)]);
  // tstore_fp from the ColMajor accumulator picks the word by row: row 1 is 127 throughout
  const O2 = Array.from(o2.data as Int8Array);
  assert.deepEqual(O2.slice(0, 16), new Array(16).fill(64));
  assert.deepEqual(O2.slice(16, 32), new Array(16).fill(127));
  assert.deepEqual(O2.slice(32, 48), new Array(16).fill(64));
});
