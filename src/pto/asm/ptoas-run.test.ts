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

/** C = A x B on the cube, stored from the accumulator with `store` (A 16x32, B 32x32). */
function accStoreProgram(
  ab: 'f16' | 'i8',
  accT: 'f32' | 'i32',
  out: 'f16',
  store: string,
  pre: string,
): string {
  const tb = (loc: string, d: string, r: number, c: number, bl: string, sl: string, f: number) =>
    `!pto.tile_buf<loc=${loc}, dtype=${d}, rows=${r}, cols=${c}, v_row=${r}, v_col=${c}, blayout=${bl}, slayout=${sl}, fractal=${f}, pad=0>`;
  const MA = tb('mat', ab, 16, 32, 'col_major', 'row_major', 512);
  const MB = tb('mat', ab, 32, 32, 'col_major', 'row_major', 512);
  const L = tb('left', ab, 16, 32, 'col_major', 'row_major', 512);
  const R = tb('right', ab, 32, 32, 'row_major', 'col_major', 512);
  const C = tb('acc', accT, 16, 32, 'col_major', 'row_major', 1024);
  return `module {
  func.func @k(%a: !pto.ptr<${ab}>, %b: !pto.ptr<${ab}>, %c: !pto.ptr<${out}>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    ${pre}
    %va = pto.make_tensor_view %a, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?x${ab}>
    %vb = pto.make_tensor_view %b, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?x${ab}>
    %vc = pto.make_tensor_view %c, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?x${out}>
    %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?x${ab}> -> !pto.partition_tensor_view<16x32x${ab}>
    %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c32, %c32] : !pto.tensor_view<?x?x${ab}> -> !pto.partition_tensor_view<32x32x${ab}>
    %pc = pto.partition_view %vc, offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?x${out}> -> !pto.partition_tensor_view<16x32x${out}>
    %ma = pto.alloc_tile : ${MA}
    %mb = pto.alloc_tile : ${MB}
    %l = pto.alloc_tile : ${L}
    %r = pto.alloc_tile : ${R}
    %acc = pto.alloc_tile : ${C}
    pto.tload ins(%pa : !pto.partition_tensor_view<16x32x${ab}>) outs(%ma : ${MA})
    pto.tload ins(%pb : !pto.partition_tensor_view<32x32x${ab}>) outs(%mb : ${MB})
    pto.tmov ins(%ma : ${MA}) outs(%l : ${L})
    pto.tmov ins(%mb : ${MB}) outs(%r : ${R})
    pto.tmatmul ins(%l, %r : ${L}, ${R}) outs(%acc : ${C})
    ${store.replaceAll('$C', C).replaceAll('$OUT', `!pto.partition_tensor_view<16x32x${out}>`)}
    return
  }
}
`;
}

test('tstore from an accumulator: f32 -> f16 with reluPreMode and atomicType; i32 -> f16 with a pre-quant scalar', () => {
  const A = Array.from({ length: 16 * 32 }, (_, i) => ((i * 7) % 9) - 4);
  const B = Array.from({ length: 32 * 32 }, (_, i) => ((i * 5) % 7) - 3);
  const prod = (i: number, j: number) => {
    let s = 0;
    for (let k = 0; k < 32; k++) s += A[i * 32 + k]! * B[k * 32 + j]!;
    return s;
  };
  // f16 halves of small integers are exact: f16 bits of an integer |n| <= 2048 via the float
  const half = (n: number) => {
    if (n === 0) return 0;
    const e = Math.floor(Math.log2(Math.abs(n)));
    return (n < 0 ? 0x8000 : 0) | ((e + 15) << 10) | ((Math.abs(n) / 2 ** e - 1) * 1024);
  };
  const f16in = (xs: number[]): NpyArray => ({
    dtype: 'f2',
    shape: [xs.length],
    data: Uint16Array.from(xs.map(half)),
  });
  const c = new Uint16Array(512).fill(half(100));
  const store1 = `pto.tstore ins(%acc : $C) outs(%pc : $OUT) {atomicType = #pto<atomic_type atomic_add>, reluPreMode = #pto<relu_pre_mode normal_relu>}`;
  runProgram(
    parsePtoAs(accStoreProgram('f16', 'f32', 'f16', store1, '')),
    { a: f16in(A), b: f16in(B), c: { dtype: 'f2', shape: [512], data: c } },
    { profile: 'a2a3' },
  );
  // every |C| <= 32 * 4 * 3 = 384, so 100 + max(C, 0) is an exact half
  assert.deepEqual(
    Array.from(c),
    Array.from({ length: 512 }, (_, i) => half(100 + Math.max(prod(i >> 5, i % 32), 0))),
  );
  // i8 operands, i32 accumulator, DEQF16 with scale 0.5 (0x3f000000): C / 2 is an exact half
  const i8 = (xs: number[]): NpyArray => ({ dtype: 'i1', shape: [xs.length], data: Int8Array.from(xs) });
  const d = new Uint16Array(512);
  const store2 = `pto.tstore ins(%acc, %pre : $C, i64) outs(%pc : $OUT)`;
  runProgram(
    parsePtoAs(accStoreProgram('i8', 'i32', 'f16', store2, '%pre = arith.constant 1056964608 : i64')),
    { a: i8(A), b: i8(B), c: { dtype: 'f2', shape: [512], data: d } },
    { profile: 'a2a3' },
  );
  const halfOf = (x: number) =>
    Number.isInteger(x) ? half(x) : (half(x * 2) & 0x8000) | (half(Math.abs(x * 2)) - 0x400);
  assert.deepEqual(
    Array.from(d),
    Array.from({ length: 512 }, (_, i) => halfOf(prod(i >> 5, i % 32) / 2)),
  );
});
