import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import { parsePtoAs, printModule, runProgram, verifyModule } from './index.ts';

// memref.subview on gm memref arguments and MLIR strided memref layouts (as the PTOAS samples
// write them). Expected values are computed here from MLIR's subview rule: element (i, j) of the
// subview is source element (o0 + i·s0, o1 + j·s1).

const TB =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=4, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const GM = 'memref<8x64xf32, #pto.address_space<gm>>';
const SA = 'memref<4x16xf32, strided<[64, 1], offset: ?>, #pto.address_space<gm>>';
const SB = 'memref<4x16xf32, strided<[128, 4], offset: ?>, #pto.address_space<gm>>';

const PROG = `func.func @k(%a: ${GM}, %b: ${GM}, %i: index) {
  %c16 = arith.constant 16 : index
  %off = arith.muli %i, %c16 : index
  %sa = memref.subview %a[2, %off] [4, 16] [1, 1]
    : ${GM} to ${SA}
  %sb = memref.subview %b[%i, 0] [4, 16] [2, 4] : ${GM} to ${SB}
  %t = pto.alloc_tile : ${TB}
  pto.tload ins(%sa : ${SA}) outs(%t : ${TB})
  pto.tstore ins(%t : ${TB}) outs(%sb : ${SB})
  return
}
`;

const f4 = (n: number, f: (i: number) => number): NpyArray => ({
  dtype: 'f4',
  shape: [8, 64],
  data: Float32Array.from({ length: n }, (_, i) => f(i)),
});

test('strided memref types and memref.subview parse, verify and print canonically', () => {
  const m = parsePtoAs(PROG);
  verifyModule(m);
  const p = printModule(m);
  assert.match(
    p,
    /%sa = memref\.subview %a\[2, %off\] \[4, 16\] \[1, 1\] : memref<8x64xf32, #pto\.address_space<gm>> to memref<4x16xf32, strided<\[64, 1\], offset: \?>, #pto\.address_space<gm>>/,
  );
  assert.equal(printModule(parsePtoAs(p)), p);
});

test('subviews with offsets and strides read and write the right elements of the bound arrays', () => {
  for (const i of [0, 1]) {
    const a = f4(512, (k) => k);
    const b = f4(512, () => -1);
    runProgram(parsePtoAs(PROG), { a, b, i });
    const B = b.data as Float32Array;
    for (let k = 0; k < 512; k++) {
      const r = Math.floor(k / 64);
      const c = k % 64;
      // %sb covers rows i, i+2, i+4, i+6 and columns 0, 4, …, 60; element (p, q) of the tile is
      // a(2 + p, 16·i + q)
      const inside = r >= i && (r - i) % 2 === 0 && (r - i) / 2 < 4 && c % 4 === 0;
      const want = inside ? (2 + (r - i) / 2) * 64 + 16 * i + c / 4 : -1;
      assert.equal(B[k], want, `i=${i} b(${r}, ${c})`);
    }
  }
});

test('a gm memref argument with a static strided layout is bound with those strides', () => {
  const T = 'memref<4x16xf32, strided<[32, 2], offset: 5>, #pto.address_space<gm>>';
  const prog = `func.func @k(%a: ${T}, %b: ${GM}) {
  %sb = memref.subview %b[0, 0] [4, 16] [1, 1] : ${GM} to ${SA}
  %t = pto.alloc_tile : ${TB}
  pto.tload ins(%a : ${T}) outs(%t : ${TB})
  pto.tstore ins(%t : ${TB}) outs(%sb : ${SA})
  return
}`;
  const a: NpyArray = { dtype: 'f4', shape: [160], data: Float32Array.from({ length: 160 }, (_, k) => k) };
  const b = f4(512, () => 0);
  runProgram(parsePtoAs(prog), { a, b });
  const B = b.data as Float32Array;
  for (let p = 0; p < 4; p++) for (let q = 0; q < 16; q++) assert.equal(B[p * 64 + q], 5 + 32 * p + 2 * q);
});

test('subview errors: wrong counts, size/type disagreement, non-gm source, out-of-range windows', () => {
  const bad = (body: string, re: RegExp) =>
    assert.throws(
      () => {
        const m = parsePtoAs(`func.func @k(%a: ${GM}, %i: index) {\n  ${body}\n  return\n}`);
        verifyModule(m);
        runProgram(m, { a: f4(512, () => 0), i: 7 });
      },
      (e: unknown) => e instanceof AxsimError && re.test(e.message),
      body,
    );
  bad(`%s = memref.subview %a[0] [4] [1] : ${GM} to ${SA}`, /needs 2 offsets, sizes and strides/);
  bad(`%s = memref.subview %a[0, 0] [4, 8] [1, 1] : ${GM} to ${SA}`, /size 8 of dim 1 disagrees/);
  bad(
    `%s = memref.subview %a[0, 0] [4, 16] [1, 1] : ${GM} to memref<4x16xf16, strided<[64, 1], offset: ?>, #pto.address_space<gm>>`,
    /must be a memref of the source's element type/,
  );
  bad(
    `%s = memref.subview %a[%i, 0] [4, 16] [1, 1] : ${GM} to ${SA}\n  %t = pto.alloc_tile : ${TB}\n  pto.tload ins(%s : ${SA}) outs(%t : ${TB})`,
    /dimension 0: offset 7, size 4/,
  );
  bad(`%s = memref.subview %a[0, 0] [4, 16] [1, 1] : memref<8x64xf32> to ${SA}`, /type mismatch/);
  assert.throws(
    () =>
      parsePtoAs(
        `func.func @k(%a: memref<4x16xf32, strided<[64], offset: 0>, #pto.address_space<gm>>) {\n  return\n}`,
      ),
    (e: unknown) =>
      e instanceof AxsimError && /2 dims but 1 strides/.test(e.message) && e.location?.line === 1,
  );
});
