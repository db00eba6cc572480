// Running the PTOAS-only ops the corpus uses (own fixtures): memref.reinterpret_cast views,
// pto.addptr, pto.set_ffts; expected element positions worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NpyArray } from '../../io/index.ts';
import { parsePtoAs } from './parser.ts';
import { runProgram } from './run.ts';

const T =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=8, v_row=2, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const f4 = (d: Float32Array): NpyArray => ({ dtype: 'f4', shape: [d.length], data: d });

test('memref.reinterpret_cast: offset / sizes / strides over the source buffer; addptr moves a pointer', () => {
  const src = `module {
  func.func @k(%s: memref<64xf32, #pto.address_space<gm>>, %o: !pto.ptr<f32>, %ffts: memref<256xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    pto.set_ffts %ffts : memref<256xi64>
    %r = memref.reinterpret_cast %s to offset: [%c5], sizes: [%c2, %c8], strides: [%c16, %c1] : memref<64xf32, #pto.address_space<gm>> to memref<2x8xf32, strided<[16, 1], offset: ?>, #pto.address_space<gm>>
    %t = pto.alloc_tile : ${T}
    pto.tload ins(%r : memref<2x8xf32, strided<[16, 1], offset: ?>, #pto.address_space<gm>>) outs(%t : ${T})
    %o2 = pto.addptr %o, %c8 : <f32> -> <f32>
    %ov = pto.make_tensor_view %o2, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>
    pto.tstore ins(%t : ${T}) outs(%op : !pto.partition_tensor_view<2x8xf32>)
    return
  }
}
`;
  const s = Float32Array.from({ length: 64 }, (_, i) => i);
  const o = new Float32Array(32).fill(-1);
  runProgram(parsePtoAs(src), {
    s: f4(s),
    o: f4(o),
    ffts: { dtype: 'i8', shape: [256], data: new BigInt64Array(256) },
  });
  // tile (r, c) = s[5 + 16 r + c]; stored at o[8 + 8 r + c]
  const want = Array.from({ length: 32 }, (_, i) =>
    i < 8 || i >= 24 ? -1 : 5 + 16 * Math.floor((i - 8) / 8) + ((i - 8) % 8),
  );
  assert.deepEqual(Array.from(o), want);
});
