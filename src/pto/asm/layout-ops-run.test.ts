import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NpyArray } from '../../io/index.ts';
import { parsePtoAs, printModule, runProgram, verifyDiagnostics, verifyModule } from './index.ts';

// trowargmax (index and value outs), tconcat, tinterleave, ttri and tpartmul through the parser,
// verifier, printer and runner; expected values worked by hand from the pto-isa pages.

const TB = (dt: string, r: number, c: number, bl = 'row_major') =>
  `!pto.tile_buf<loc=vec, dtype=${dt}, rows=${r}, cols=${c}, v_row=${r}, v_col=${c}, blayout=${bl}, slayout=none_box, fractal=512, pad=0>`;
const PV = (dt: string, r: number, c: number) => `!pto.partition_tensor_view<${r}x${c}x${dt}>`;
const TV = (dt: string) => `!pto.tensor_view<?x?x${dt}>`;

function io(name: string, dt: string, r: number, c: number, load: boolean, tile = `%${name}_t`): string {
  const t = TB(dt, r, c);
  return [
    `%${name}_v = pto.make_tensor_view %${name}, shape = [%c${r}, %c${c}], strides = [%c${c}, %c1] : ${TV(dt)}`,
    `%${name}_p = pto.partition_view %${name}_v, offsets = [%c0, %c0], sizes = [%c${r}, %c${c}] : ${TV(dt)} -> ${PV(dt, r, c)}`,
    load
      ? `${tile} = pto.alloc_tile : ${t}\n  pto.tload ins(%${name}_p : ${PV(dt, r, c)}) outs(${tile} : ${t})`
      : '',
  ].join('\n  ');
}
const store = (name: string, dt: string, r: number, c: number, tile = `%${name}_t`) =>
  `pto.tstore ins(${tile} : ${TB(dt, r, c)}) outs(%${name}_p : ${PV(dt, r, c)})`;
const consts = `%c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n  %c4 = arith.constant 4 : index\n  %c8 = arith.constant 8 : index`;

function check(src: string) {
  const m = parsePtoAs(src);
  verifyModule(m);
  assert.equal(printModule(parsePtoAs(printModule(m))), printModule(m));
  return m;
}
const f4 = (v: number[]): NpyArray => ({ dtype: 'f4', shape: [v.length], data: Float32Array.from(v) });
const i4 = (v: number[]): NpyArray => ({ dtype: 'i4', shape: [v.length], data: Int32Array.from(v) });
const arr = (a: NpyArray) => Array.from(a.data as ArrayLike<number>);

test('pto.trowargmax: outs(%dst) and outs(%dst, %dstVal)', () => {
  const prog = `func.func @k(%a: !pto.ptr<f32>, %i: !pto.ptr<i32>, %v: !pto.ptr<f32>) {
  ${consts}
  ${io('a', 'f32', 2, 4, true)}
  ${io('i', 'i32', 2, 1, false)}
  ${io('v', 'f32', 2, 1, false)}
  %d = pto.alloc_tile : ${TB('i32', 2, 1)}
  %w = pto.alloc_tile : ${TB('f32', 2, 1)}
  pto.trowargmax ins(%a_t : ${TB('f32', 2, 4)}) outs(%d, %w : ${TB('i32', 2, 1)}, ${TB('f32', 2, 1)})
  ${store('i', 'i32', 2, 1, '%d')}
  ${store('v', 'f32', 2, 1, '%w')}
  return
}
`;
  const i = i4([-1, -1]);
  const v = f4([0, 0]);
  runProgram(check(prog), { a: f4([1, 9, 3, 9, -4, -2, -8, -3]), i, v });
  assert.deepEqual(arr(i), [1, 1]);
  assert.deepEqual(arr(v), [9, -2]);
});

test('pto.tconcat, pto.tinterleave (two outs), pto.tpartmul, pto.ttri {upper}', () => {
  const T = TB('f32', 1, 4);
  const T8 = TB('f32', 1, 8);
  const prog = `func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %o: !pto.ptr<f32>, %x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %m: !pto.ptr<f32>, %t: !pto.ptr<f32>) {
  ${consts}
  ${io('a', 'f32', 1, 4, true)}
  ${io('b', 'f32', 1, 4, true)}
  ${io('o', 'f32', 1, 8, false)}
  ${io('x', 'f32', 1, 4, false)}
  ${io('y', 'f32', 1, 4, false)}
  ${io('m', 'f32', 1, 4, false)}
  ${io('t', 'f32', 2, 2, false)}
  %cat = pto.alloc_tile : ${T8}
  pto.tconcat ins(%a_t, %b_t : ${T}, ${T}) outs(%cat : ${T8})
  ${store('o', 'f32', 1, 8, '%cat')}
  %x0 = pto.alloc_tile : ${T}
  %x1 = pto.alloc_tile : ${T}
  pto.tinterleave ins(%a_t, %b_t : ${T}, ${T}) outs(%x0, %x1 : ${T}, ${T})
  ${store('x', 'f32', 1, 4, '%x0')}
  ${store('y', 'f32', 1, 4, '%x1')}
  %pm = pto.alloc_tile : ${T}
  pto.tpartmul ins(%a_t, %b_t : ${T}, ${T}) outs(%pm : ${T})
  ${store('m', 'f32', 1, 4, '%pm')}
  %diag = arith.constant 1 : i32
  %tri = pto.alloc_tile : ${TB('f32', 2, 2)}
  pto.ttri ins(%diag : i32) outs(%tri : ${TB('f32', 2, 2)}) {upper = true}
  ${store('t', 'f32', 2, 2, '%tri')}
  return
}
`;
  const o = f4(new Array(8).fill(0));
  const x = f4([0, 0, 0, 0]);
  const y = f4([0, 0, 0, 0]);
  const m = f4([0, 0, 0, 0]);
  const t = f4([9, 9, 9, 9]);
  runProgram(check(prog), { a: f4([1, 2, 3, 4]), b: f4([5, 6, 7, 8]), o, x, y, m, t });
  assert.deepEqual(arr(o), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(arr(x), [1, 5, 2, 6]);
  assert.deepEqual(arr(y), [3, 7, 4, 8]);
  assert.deepEqual(arr(m), [5, 12, 21, 32]);
  // upper, diagonal 1: dst(i, j) = j >= i + 1
  assert.deepEqual(arr(t), [0, 1, 0, 0]);
  // tinterleave needs both destinations
  const bad = prog.replace(`outs(%x0, %x1 : ${T}, ${T})`, `outs(%x0 : ${T})`);
  assert.match(verifyDiagnostics(parsePtoAs(bad))[0]!.message, /expects 2 outs/);
});

test('pto.tinsert ins(%src, %r, %c) and pto.tinsert_fp ins(%src, %fp, %r, %c)', () => {
  const S = TB('f32', 1, 4);
  const D = TB('f32', 2, 8);
  const prog = `func.func @k(%a: !pto.ptr<f32>, %o: !pto.ptr<f32>) {
  ${consts}
  ${io('a', 'f32', 1, 4, true)}
  ${io('o', 'f32', 2, 8, false)}
  %d = pto.alloc_tile : ${D}
  pto.tinsert ins(%a_t, %c1, %c4 : ${S}, index, index) outs(%d : ${D})
  pto.tinsert ins(%a_t, %c0, %c2 : ${S}, index, index) outs(%d : ${D})
  ${store('o', 'f32', 2, 8, '%d')}
  return
}
`;
  const o = f4(new Array(16).fill(-1));
  runProgram(check(prog), { a: f4([1, 2, 3, 4]), o });
  assert.deepEqual(arr(o), [0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]);
  const fpProg = `func.func @k(%a: !pto.ptr<i32>, %q: !pto.ptr<ui64>, %o: !pto.ptr<f16>) {
  ${consts}
  ${io('a', 'i32', 1, 4, true)}
  ${io('q', 'ui64', 1, 4, true)}
  ${io('o', 'f16', 1, 8, false)}
  %d = pto.alloc_tile : ${TB('f16', 1, 8)}
  pto.tinsert_fp ins(%a_t, %q_t, %c0, %c4 : ${TB('i32', 1, 4)}, ${TB('ui64', 1, 4)}, index, index) outs(%d : ${TB('f16', 1, 8)})
  ${store('o', 'f16', 1, 8, '%d')}
  return
}
`;
  const of: NpyArray = { dtype: 'f2', shape: [8], data: new Uint16Array(8) };
  // quant words = f32 bits of the scales 1, 0.5, 2, 0.25 (the m1 float in bits 13..31)
  const q: NpyArray = {
    dtype: 'u8',
    shape: [4],
    data: BigUint64Array.from([0x3f800000n, 0x3f000000n, 0x40000000n, 0x3e800000n]),
  };
  runProgram(check(fpProg), { a: i4([8, 8, 8, 8]), q, o: of });
  // f16 bits of 8, 4, 16, 2
  assert.deepEqual(Array.from(of.data as Uint16Array), [0, 0, 0, 0, 0x4800, 0x4400, 0x4c00, 0x4000]);
});

test('pto.tpartargmax (two outs), pto.tpairreducesum, pto.thistogram {byte}, pto.tprefetch', () => {
  const T = TB('f32', 1, 4);
  const I = TB('i32', 1, 4);
  const prog = `func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %o: !pto.ptr<f32>, %oi: !pto.ptr<i32>, %s: !pto.ptr<f32>, %h: !pto.ptr<ui16>, %hb: !pto.ptr<ui32>) {
  ${consts}
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  ${io('a', 'f32', 1, 4, true)}
  ${io('b', 'f32', 1, 4, false)}
  ${io('o', 'f32', 1, 4, false)}
  ${io('oi', 'i32', 1, 4, false)}
  ${io('s', 'f32', 1, 4, false)}
  ${io('h', 'ui16', 1, 4, true)}
  ${io('hb', 'ui32', 1, 256, false)}
  %b_t = pto.alloc_tile : ${T}
  pto.tprefetch ins(%b_p : ${PV('f32', 1, 4)}) outs(%b_t : ${T})
  %i0 = pto.alloc_tile : ${I}
  %i1 = pto.alloc_tile : ${I}
  %dv = pto.alloc_tile : ${T}
  %di = pto.alloc_tile : ${I}
  pto.tpartargmax ins(%a_t, %b_t, %i0, %i1 : ${T}, ${T}, ${I}, ${I}) outs(%dv, %di : ${T}, ${I})
  ${store('o', 'f32', 1, 4, '%dv')}
  ${store('oi', 'i32', 1, 4, '%di')}
  %ps = pto.alloc_tile : ${T}
  pto.tpairreducesum ins(%a_t : ${T}) outs(%ps : ${T})
  ${store('s', 'f32', 1, 4, '%ps')}
  %ix = pto.alloc_tile : ${TB('ui8', 1, 32)}
  %hist = pto.alloc_tile : ${TB('ui32', 1, 256)}
  pto.thistogram ins(%h_t, %ix : ${TB('ui16', 1, 4)}, ${TB('ui8', 1, 32)}) outs(%hist : ${TB('ui32', 1, 256)}) {byte = 1}
  ${store('hb', 'ui32', 1, 256, '%hist')}
  return
}
`;
  const o = f4([0, 0, 0, 0]);
  const oi = i4([9, 9, 9, 9]);
  const s = f4([9, 9, 9, 9]);
  const h: NpyArray = { dtype: 'u2', shape: [4], data: Uint16Array.from([0x0100, 0x0300, 0x0301, 0x0000]) };
  const hb: NpyArray = { dtype: 'u4', shape: [256], data: new Uint32Array(256) };
  runProgram(check(prog), { a: f4([1, 8, 3, 4]), b: f4([2, 2, 5, 4]), o, oi, s, h, hb });
  // max per element (src1 on ties); the index tiles are zero-filled fresh tiles
  assert.deepEqual(arr(o), [2, 8, 5, 4]);
  assert.deepEqual(arr(oi), [0, 0, 0, 0]);
  assert.deepEqual(arr(s), [9, 7, 0, 0]);
  const hist = arr(hb);
  // high bytes 1, 3, 3, 0: running counts 1 (bin 0), 2 (bin 1), 2 (bin 2), 4 (bin 3 on)
  assert.deepEqual([hist[0], hist[1], hist[2], hist[3], hist[255]], [1, 2, 2, 4, 4]);
});

test('pto.tquant {quantType = "INT8_SYM"} and pto.tdequant', () => {
  const prog = `func.func @k(%a: !pto.ptr<f32>, %q: !pto.ptr<i8>, %d: !pto.ptr<f32>) {
  ${consts}
  ${io('a', 'f32', 1, 4, true)}
  ${io('q', 'i8', 1, 4, false)}
  ${io('d', 'f32', 1, 4, false)}
  %sc = pto.alloc_tile : ${TB('f32', 1, 1)}
  %zero = pto.alloc_tile : ${TB('f32', 1, 1)}
  %two = arith.constant 2.0 : f32
  pto.texpands ins(%two : f32) outs(%sc : ${TB('f32', 1, 1)})
  %qt = pto.alloc_tile : ${TB('i8', 1, 4)}
  pto.tquant ins(%a_t, %sc : ${TB('f32', 1, 4)}, ${TB('f32', 1, 1)}) outs(%qt : ${TB('i8', 1, 4)}) {quantType = "INT8_SYM"}
  ${store('q', 'i8', 1, 4, '%qt')}
  %dq = pto.alloc_tile : ${TB('f32', 1, 4)}
  pto.tdequant ins(%qt, %sc, %zero : ${TB('i8', 1, 4)}, ${TB('f32', 1, 1)}, ${TB('f32', 1, 1)}) outs(%dq : ${TB('f32', 1, 4)})
  ${store('d', 'f32', 1, 4, '%dq')}
  return
}
`;
  const q: NpyArray = { dtype: 'i1', shape: [4], data: new Int8Array(4) };
  const d = f4([0, 0, 0, 0]);
  runProgram(check(prog), { a: f4([1.25, -0.75, 100, 0.2]), q, d });
  // 2.5 -> 2, -1.5 -> -2, 200 -> 127, 0.4 -> 0; then (q - 0) * 2
  assert.deepEqual(arr(q), [2, -2, 127, 0]);
  assert.deepEqual(arr(d), [4, -4, 254, 0]);
});

test('pto.tfusedmuladdrelu and pto.tadddeqrelu ins(%a, %b, %deqScale, %tmp)', () => {
  const F = TB('f32', 1, 4);
  const I = TB('i32', 1, 4);
  const H = TB('f16', 1, 4);
  const prog = `func.func @k(%a: !pto.ptr<f32>, %o: !pto.ptr<f32>, %x: !pto.ptr<i32>, %h: !pto.ptr<f16>) {
  ${consts}
  ${io('a', 'f32', 1, 4, true)}
  ${io('o', 'f32', 1, 4, false)}
  ${io('x', 'i32', 1, 4, true)}
  ${io('h', 'f16', 1, 4, false)}
  %d = pto.alloc_tile : ${F}
  %one = arith.constant 1.0 : f32
  pto.texpands ins(%one : f32) outs(%d : ${F})
  pto.tfusedmuladdrelu ins(%a_t, %a_t : ${F}, ${F}) outs(%d : ${F})
  ${store('o', 'f32', 1, 4, '%d')}
  %tmp = pto.alloc_tile : ${I}
  %hd = pto.alloc_tile : ${H}
  %q = arith.constant 0.25 : f32
  pto.tadddeqrelu ins(%x_t, %x_t, %q, %tmp : ${I}, ${I}, f32, ${I}) outs(%hd : ${H})
  ${store('h', 'f16', 1, 4, '%hd')}
  return
}
`;
  const o = f4([0, 0, 0, 0]);
  const h: NpyArray = { dtype: 'f2', shape: [4], data: new Uint16Array(4) };
  runProgram(check(prog), { a: f4([2, -3, 0.5, -0.25]), o, x: i4([8, -8, 2, 0]), h });
  // a * 1 + a, ReLU: 4, 0, 1, 0
  assert.deepEqual(arr(o), [4, 0, 1, 0]);
  // (x + x) * 0.25: 4, 0 (ReLU), 1, 0 -> f16 bits
  assert.deepEqual(Array.from(h.data as Uint16Array), [0x4400, 0, 0x3c00, 0]);
});

test('pto.trandom ins(%key, %counter) outs(%dst) {rounds = 10}', () => {
  const K = TB('ui32', 1, 8);
  const D = TB('ui32', 1, 8);
  const prog = `func.func @k(%o: !pto.ptr<ui32>) {
  ${consts}
  ${io('o', 'ui32', 1, 8, false)}
  %key = pto.alloc_tile : ${K}
  %ctr = pto.alloc_tile : ${K}
  %d = pto.alloc_tile : ${D}
  pto.trandom ins(%key, %ctr : ${K}, ${K}) outs(%d : ${D}) {rounds = 10}
  ${store('o', 'ui32', 1, 8, '%d')}
  return
}
`;
  const o: NpyArray = { dtype: 'u4', shape: [8], data: new Uint32Array(8) };
  runProgram(check(prog), { o });
  // zero key and counter: Philox-4x32-10's known answer word 0 at column 0
  assert.equal((o.data as Uint32Array)[0], 0x6627e8d5);
});

test('pto.tfusedmuladd, pto.tsubrelu, pto.tmuladddst (docs/isa spellings) reach part 1', () => {
  const F = TB('f32', 1, 4);
  const prog = `func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %z: !pto.ptr<f32>) {
  ${consts}
  ${io('a', 'f32', 1, 4, true)}
  ${io('b', 'f32', 1, 4, true)}
  ${io('x', 'f32', 1, 4, false)}
  ${io('y', 'f32', 1, 4, false)}
  ${io('z', 'f32', 1, 4, false)}
  %one = arith.constant 1.0 : f32
  %d1 = pto.alloc_tile : ${F}
  pto.texpands ins(%one : f32) outs(%d1 : ${F})
  pto.tfusedmuladd ins(%a_t, %b_t : ${F}, ${F}) outs(%d1 : ${F})
  ${store('x', 'f32', 1, 4, '%d1')}
  %d2 = pto.alloc_tile : ${F}
  pto.tsubrelu ins(%a_t, %b_t : ${F}, ${F}) outs(%d2 : ${F})
  ${store('y', 'f32', 1, 4, '%d2')}
  %d3 = pto.alloc_tile : ${F}
  pto.texpands ins(%one : f32) outs(%d3 : ${F})
  pto.tmuladddst ins(%a_t, %b_t : ${F}, ${F}) outs(%d3 : ${F})
  ${store('z', 'f32', 1, 4, '%d3')}
  return
}
`;
  const x = f4([0, 0, 0, 0]);
  const y = f4([0, 0, 0, 0]);
  const z = f4([0, 0, 0, 0]);
  runProgram(check(prog), { a: f4([1, 5, -2, 3]), b: f4([4, 2, 1, 3]), x, y, z });
  assert.deepEqual(arr(x), [5, 7, -1, 6]); // a * 1 + b
  assert.deepEqual(arr(y), [0, 3, 0, 0]); // max(a - b, 0)
  assert.deepEqual(arr(z), [5, 11, -1, 10]); // a * b + 1
});
