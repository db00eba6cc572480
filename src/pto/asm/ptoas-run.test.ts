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

test('async sessions: tput_async / tget_async copy GM to GM (dst first), events complete', () => {
  const M = (n: number) => `memref<${n}xf32, #pto.address_space<gm>>`;
  const src = `module {
  func.func @k(%a: ${M(8)}, %b: ${M(8)}, %c: ${M(8)}, %w: memref<64xi8, #pto.address_space<gm>>) {
    %s0 = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=64, v_row=1, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    %s = pto.build_async_session(%s0, %w : !pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=64, v_row=1, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>, memref<64xi8, #pto.address_space<gm>>) -> !pto.async_session
    %p = pto.tput_async(%b, %a, %s : ${M(8)}, ${M(8)}, !pto.async_session) -> !pto.async_event
    %ok = pto.wait_async_event(%p, %s : !pto.async_event, !pto.async_session) -> i1
    %g = pto.tget_async(%c, %b, %s : ${M(8)}, ${M(8)}, !pto.async_session) -> !pto.async_event
    %done = pto.test_async_event(%g, %s : !pto.async_event, !pto.async_session) -> i1
    return
  }
}
`;
  const a = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  const b = new Float32Array(8).fill(-1);
  const c = new Float32Array(8).fill(-2);
  const r = runProgram(parsePtoAs(src), {
    a: f4(a),
    b: f4(b),
    c: f4(c),
    w: { dtype: 'i1', shape: [64], data: new Int8Array(64) },
  });
  // b <- a (put), then c <- b (get): both hold a
  assert.deepEqual(Array.from(b), Array.from(a));
  assert.deepEqual(Array.from(c), Array.from(a));
  assert.deepEqual(r.written.sort(), ['b', 'c']);
});

test('TGET_SCALE_ADDR (a5): the scale tile is bound at the source address >> 4', () => {
  const L =
    '!pto.tile_buf<loc=left, dtype=f8E4M3, rows=16, cols=64, v_row=16, v_col=64, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
  const S =
    '!pto.tile_buf<loc=scaling, dtype=ui8, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const src = `module attributes {pto.target_arch = "a5"} {
  func.func @k() {
    %a = arith.constant 2048 : i64
    %b = arith.constant 128 : i64
    %l = pto.alloc_tile addr = %a : ${L}
    %s = pto.alloc_tile : ${S}
    %same = pto.alloc_tile addr = %b : ${S}
    pto.tget_scale_addr ins(%l : ${L}) outs(%s : ${S})
    return
  }
}
`;
  const r = runProgram(parsePtoAs(src), {}, { profile: 'a5' });
  // 2048 >> 4 = 128: %s now shares the bytes of the tile placed at 128 in the scaling memory
  const s = r.values.s!;
  const same = r.values.same!;
  assert.equal(s.bytes.buffer, same.bytes.buffer);
  assert.equal(s.bytes.byteOffset, same.bytes.byteOffset);
  assert.throws(() => runProgram(parsePtoAs(src), {}, { profile: 'a2a3' }), /A5 only/);
});

test('pto.tgather index form with a tmp operand (ins(%src, %indices, %tmp)): dst[i] = src[indices[i]]', () => {
  const F =
    '!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const I =
    '!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const view = (n: string, t: string) =>
    `%v${n} = pto.make_tensor_view %${n}, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?x${t}>
    %p${n} = pto.partition_view %v${n}, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?x${t}> -> !pto.partition_tensor_view<1x16x${t}>`;
  const src = `module {
  func.func @k(%s: !pto.ptr<f32>, %ix: !pto.ptr<i32>, %o: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    ${view('s', 'f32')}
    ${view('ix', 'i32')}
    ${view('o', 'f32')}
    %ts = pto.alloc_tile : ${F}
    %ti = pto.alloc_tile : ${I}
    %tmp = pto.alloc_tile : ${I}
    %d = pto.alloc_tile : ${F}
    pto.tload ins(%ps : !pto.partition_tensor_view<1x16xf32>) outs(%ts : ${F})
    pto.tload ins(%pix : !pto.partition_tensor_view<1x16xi32>) outs(%ti : ${I})
    pto.tgather ins(%ts, %ti, %tmp : ${F}, ${I}, ${I}) outs(%d : ${F})
    pto.tstore ins(%d : ${F}) outs(%po : !pto.partition_tensor_view<1x16xf32>)
    return
  }
}
`;
  const s = Float32Array.from({ length: 16 }, (_, i) => 100 + i);
  const ix = Int32Array.from({ length: 16 }, (_, i) => (i * 5 + 3) % 16);
  const o = new Float32Array(16);
  runProgram(
    parsePtoAs(src),
    { s: f4(s), ix: { dtype: 'i4', shape: [16], data: ix }, o: f4(o) },
    { profile: 'a2a3' },
  );
  assert.deepEqual(
    Array.from(o),
    Array.from(ix, (k) => 100 + k),
  );
});
