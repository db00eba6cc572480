import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import { parsePtoAs, printModule, runProgram, verifyDiagnostics, verifyModule } from './index.ts';

// pto.tsort32 (both spellings), pto.tmrgsort (PTOAS format 1 and format 2 with its vector<4xi16>
// executed list), pto.mgather and pto.mscatter through the parser, verifier, printer and runner.
// Expected values are worked by hand from tsort32.md / tmrgsort.md / mgather.md / mscatter.md.

const TB = (dt: string, r: number, c: number, vc = c) =>
  `!pto.tile_buf<loc=vec, dtype=${dt}, rows=${r}, cols=${c}, v_row=${r}, v_col=${vc}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
const PV = (dt: string, r: number, c: number) => `!pto.partition_tensor_view<${r}x${c}x${dt}>`;
const TV = (dt: string) => `!pto.tensor_view<?x?x${dt}>`;

/** `%p_NAME`: a partition view of pointer argument %NAME of shape r x c. */
function view(name: string, dt: string, r: number, c: number): string {
  return [
    `%v_${name} = pto.make_tensor_view %${name}, shape = [%c${r}, %c${c}], strides = [%c${c}, %c1] : ${TV(dt)}`,
    `%p_${name} = pto.partition_view %v_${name}, offsets = [%c0, %c0], sizes = [%c${r}, %c${c}] : ${TV(dt)} -> ${PV(dt, r, c)}`,
  ].join('\n  ');
}

function consts(...ns: number[]): string {
  return [...new Set([0, 1, ...ns])].map((n) => `%c${n} = arith.constant ${n} : index`).join('\n  ');
}

function check(src: string): ReturnType<typeof parsePtoAs> {
  const m = parsePtoAs(src);
  verifyModule(m);
  assert.equal(printModule(parsePtoAs(printModule(m))), printModule(m));
  return m;
}

const f4 = (vals: number[]): NpyArray => ({
  dtype: 'f4',
  shape: [vals.length],
  data: Float32Array.from(vals),
});
const u4 = (vals: number[]): NpyArray => ({
  dtype: 'u4',
  shape: [vals.length],
  data: Uint32Array.from(vals),
});
const f32of = (a: NpyArray) => Array.from(a.data as Float32Array);
const u32of = (a: NpyArray) => {
  const d = a.data as Float32Array;
  return Array.from(new Uint32Array(d.buffer, d.byteOffset, d.length));
};

function sortProgram(ptoasForm: boolean): string {
  const op = ptoasForm
    ? `pto.tsort32 ins(%s : ${TB('f32', 1, 32)}) outs(%d, %i : ${TB('f32', 1, 64)}, ${TB('ui32', 1, 32)})`
    : `pto.tsort32 ins(%s, %i : ${TB('f32', 1, 32)}, ${TB('ui32', 1, 32)}) outs(%d : ${TB('f32', 1, 64)})`;
  return `func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<ui32>, %o: !pto.ptr<f32>) {
  ${consts(32, 64)}
  ${view('a', 'f32', 1, 32)}
  ${view('b', 'ui32', 1, 32)}
  ${view('o', 'f32', 1, 64)}
  %s = pto.alloc_tile : ${TB('f32', 1, 32)}
  %i = pto.alloc_tile : ${TB('ui32', 1, 32)}
  %d = pto.alloc_tile : ${TB('f32', 1, 64)}
  pto.tload ins(%p_a : ${PV('f32', 1, 32)}) outs(%s : ${TB('f32', 1, 32)})
  pto.tload ins(%p_b : ${PV('ui32', 1, 32)}) outs(%i : ${TB('ui32', 1, 32)})
  ${op}
  pto.tstore ins(%d : ${TB('f32', 1, 64)}) outs(%p_o : ${PV('f32', 1, 64)})
  return
}
`;
}

test('pto.tsort32: the manual form ins(%src, %idx) and PTOAS form outs(%dst, %idx) sort the same way', () => {
  // values 32 - (k % 8) * 4: 8 distinct values, each 4 times; indices 1000 + k
  const vals = Array.from({ length: 32 }, (_, k) => 32 - (k % 8) * 4);
  for (const form of [false, true]) {
    const o = f4(new Array(64).fill(0));
    runProgram(check(sortProgram(form)), { a: f4(vals), b: u4(vals.map((_, k) => 1000 + k)), o });
    const got = f32of(o);
    const idx = u32of(o);
    // the four 32s come first (k = 0, 8, 16, 24), then the 28s (k = 1, 9, 17, 25), ...
    assert.deepEqual(
      [got[0], idx[1], got[2], idx[3], got[6], idx[7], got[8], idx[9]],
      [32, 1000, 32, 1008, 32, 1024, 28, 1001],
    );
    assert.deepEqual([got[62], idx[63]], [4, 1031]);
  }
});

test('pto.tmrgsort format 1: ins(%src, %blockLen : tile, i32) merges four blocks', () => {
  // 1x16 f32 = 8 records; blockLen 4 elements (2 records); blocks [(4,0),(1,1)] [(3,2),(2,3)] …
  const prog = `func.func @k(%a: !pto.ptr<f32>, %o: !pto.ptr<f32>) {
  ${consts(16)}
  %bl = arith.constant 4 : i32
  ${view('a', 'f32', 1, 16)}
  ${view('o', 'f32', 1, 16)}
  %s = pto.alloc_tile : ${TB('f32', 1, 16)}
  %d = pto.alloc_tile : ${TB('f32', 1, 16)}
  pto.tload ins(%p_a : ${PV('f32', 1, 16)}) outs(%s : ${TB('f32', 1, 16)})
  pto.tmrgsort ins(%s, %bl : ${TB('f32', 1, 16)}, i32) outs(%d : ${TB('f32', 1, 16)})
  pto.tstore ins(%d : ${TB('f32', 1, 16)}) outs(%p_o : ${PV('f32', 1, 16)})
  return
}
`;
  const a = f4([4, 0, 1, 0, 3, 0, 2, 0, 8, 0, 5, 0, 7, 0, 6, 0]);
  const o = f4(new Array(16).fill(-1));
  runProgram(check(prog), { a, o });
  // keys only (the index words are 0): 8 7 6 5 4 3 2 1
  assert.deepEqual(
    f32of(o).filter((_, i) => i % 2 === 0),
    [8, 7, 6, 5, 4, 3, 2, 1],
  );
});

test('pto.tmrgsort format 2: four lists, outs(%dst, %tmp, %executed : …, vector<4xi16>) with exhausted', () => {
  const L = TB('f32', 1, 4);
  const D = TB('f32', 1, 16);
  const prog = `func.func @k(%a: !pto.ptr<f32>, %o: !pto.ptr<f32>, %ex: vector<4xi16>) {
  ${consts(4, 16)}
  ${view('a', 'f32', 1, 16)}
  ${view('o', 'f32', 1, 16)}
  %w = pto.alloc_tile : ${D}
  pto.tload ins(%p_a : ${PV('f32', 1, 16)}) outs(%w : ${D})
  %l0 = pto.alloc_tile : ${L}
  %l1 = pto.alloc_tile : ${L}
  %l2 = pto.alloc_tile : ${L}
  %l3 = pto.alloc_tile : ${L}
  %d = pto.alloc_tile : ${D}
  %t = pto.alloc_tile : ${D}
  pto.textract ins(%w, %c0, %c0 : ${D}, index, index) outs(%l0 : ${L})
  pto.textract ins(%w, %c0, %c4 : ${D}, index, index) outs(%l1 : ${L})
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  pto.textract ins(%w, %c0, %c8 : ${D}, index, index) outs(%l2 : ${L})
  pto.textract ins(%w, %c0, %c12 : ${D}, index, index) outs(%l3 : ${L})
  pto.tmrgsort ins(%l0, %l1, %l2, %l3 {exhausted = true} : ${L}, ${L}, ${L}, ${L}) outs(%d, %t, %ex : ${D}, ${D}, vector<4xi16>)
  pto.tstore ins(%d : ${D}) outs(%p_o : ${PV('f32', 1, 16)})
  return
}
`;
  // lists of two records each: l0 (9,·)(1,·)  l1 (8,·)(7,·)  l2 (6,·)(5,·)  l3 (4,·)(3,·)
  const a = f4([9, 0, 1, 0, 8, 0, 7, 0, 6, 0, 5, 0, 4, 0, 3, 0]);
  const o = f4(new Array(16).fill(-1));
  const ex: NpyArray = { dtype: 'i2', shape: [4], data: new Int16Array(4) };
  const r = runProgram(check(prog), { a, o, ex });
  // 9 8 7 (l1 used up -> stop with exhausted): 1 from l0, 2 from l1; the rest of the (freshly
  // allocated, zero) dst tile is stored as it was
  assert.deepEqual(
    f32of(o).filter((_, i) => i % 2 === 0),
    [9, 8, 7, 0, 0, 0, 0, 0],
  );
  assert.deepEqual(Array.from(ex.data as Int16Array), [1, 2, 0, 0]);
  assert.ok(r.written.includes('ex'));
});

test('pto.mgather / pto.mscatter: element gather from a view, scatter back through the same indices', () => {
  const T = TB('f32', 1, 8);
  const I = TB('i32', 1, 8);
  const prog = `func.func @k(%tab: !pto.ptr<f32>, %ix: !pto.ptr<i32>, %o: !pto.ptr<f32>, %o2: !pto.ptr<f32>) {
  ${consts(8)}
  ${view('tab', 'f32', 1, 8)}
  ${view('ix', 'i32', 1, 8)}
  ${view('o', 'f32', 1, 8)}
  ${view('o2', 'f32', 1, 8)}
  %i = pto.alloc_tile : ${I}
  %d = pto.alloc_tile : ${T}
  pto.tload ins(%p_ix : ${PV('i32', 1, 8)}) outs(%i : ${I})
  pto.mgather ins(%p_tab, %i : ${PV('f32', 1, 8)}, ${I}) outs(%d : ${T})
  pto.tstore ins(%d : ${T}) outs(%p_o : ${PV('f32', 1, 8)})
  pto.mscatter ins(%d, %i : ${T}, ${I}) outs(%p_o2 : ${PV('f32', 1, 8)})
  return
}
`;
  const tab = f4([10, 11, 12, 13, 14, 15, 16, 17]);
  const ix: NpyArray = { dtype: 'i4', shape: [8], data: Int32Array.from([7, 6, 5, 4, 0, 0, 1, 1]) };
  const o = f4(new Array(8).fill(0));
  const o2 = f4(new Array(8).fill(-1));
  runProgram(check(prog), { tab, ix, o, o2 });
  assert.deepEqual(f32of(o), [17, 16, 15, 14, 10, 10, 11, 11]);
  // o2[idx[j]] = d[j]; slots 2 and 3 are never written
  assert.deepEqual(f32of(o2), [10, 11, -1, -1, 14, 15, 16, 17]);
});

test('the verifier checks the outs count and the tsort32 / tmrgsort forms', () => {
  const T = TB('f32', 1, 32);
  const wrap = (body: string) =>
    `func.func @k() {\n  %a = pto.alloc_tile : ${T}\n  %b = pto.alloc_tile : ${T}\n  %i = pto.alloc_tile : ${TB('ui32', 1, 32)}\n  %n = arith.constant 64 : i32\n  ${body}\n  return\n}\n`;
  const diag = (body: string) => verifyDiagnostics(parsePtoAs(wrap(body))).map((d) => d.message);
  assert.match(diag(`pto.tadd ins(%a, %a : ${T}, ${T}) outs(%b, %a : ${T}, ${T})`)[0]!, /outs operand/);
  assert.match(
    diag(
      `pto.tsort32 ins(%a, %i : ${T}, ${TB('ui32', 1, 32)}) outs(%b, %i : ${T}, ${TB('ui32', 1, 32)})`,
    )[0]!,
    /index tile once/,
  );
  assert.match(diag(`pto.tmrgsort ins(%a, %n : ${T}, i32) outs(%b, %a : ${T}, ${T})`)[0]!, /either ins/);
  assert.match(
    diag(`pto.tmrgsort ins(%a, %n {exhausted = true} : ${T}, i32) outs(%b : ${T})`)[0]!,
    /exhausted belongs/,
  );
  assert.deepEqual(diag(`pto.tmrgsort ins(%a, %n : ${T}, i32) outs(%b : ${T})`), []);
  // running the whole thing still needs valid operands: an i16 tile list is rejected by part 1
  const bad = `func.func @k() {\n  %a = pto.alloc_tile : ${TB('i16', 1, 32)}\n  %n = arith.constant 3 : i32\n  pto.tmrgsort ins(%a, %n : ${TB('i16', 1, 32)}, i32) outs(%a : ${TB('i16', 1, 32)})\n  return\n}\n`;
  assert.throws(
    () => runProgram(parsePtoAs(bad), {}, { profile: 'a5' }),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

test('pto.tmrgsort with a dense vector constant as its executed list (a local array the op writes)', () => {
  const L = TB('f32', 1, 4);
  const D = TB('f32', 1, 16);
  const prog = `func.func @k(%a: !pto.ptr<f32>, %o: !pto.ptr<f32>) {
  ${consts(4, 8, 12, 16)}
  %ex = arith.constant dense<[50000, 7, -1, 0]> : vector<4xi16>
  %z = arith.constant dense<0> : vector<4xi16>
  ${view('a', 'f32', 1, 16)}
  ${view('o', 'f32', 1, 16)}
  %w = pto.alloc_tile : ${D}
  pto.tload ins(%p_a : ${PV('f32', 1, 16)}) outs(%w : ${D})
  %l0 = pto.alloc_tile : ${L}
  %l1 = pto.alloc_tile : ${L}
  %l2 = pto.alloc_tile : ${L}
  %l3 = pto.alloc_tile : ${L}
  %d = pto.alloc_tile : ${D}
  %t = pto.alloc_tile : ${D}
  pto.textract ins(%w, %c0, %c0 : ${D}, index, index) outs(%l0 : ${L})
  pto.textract ins(%w, %c0, %c4 : ${D}, index, index) outs(%l1 : ${L})
  pto.textract ins(%w, %c0, %c8 : ${D}, index, index) outs(%l2 : ${L})
  pto.textract ins(%w, %c0, %c12 : ${D}, index, index) outs(%l3 : ${L})
  pto.tmrgsort ins(%l0, %l1, %l2, %l3 {exhausted = true} : ${L}, ${L}, ${L}, ${L}) outs(%d, %t, %ex : ${D}, ${D}, vector<4xi16>)
  pto.tstore ins(%d : ${D}) outs(%p_o : ${PV('f32', 1, 16)})
  return
}
`;
  // the same lists as above: 9 8 7, then l1 is used up (1 record from l0, 2 from l1)
  const a = f4([9, 0, 1, 0, 8, 0, 7, 0, 6, 0, 5, 0, 4, 0, 3, 0]);
  const o = f4(new Array(16).fill(-1));
  const r = runProgram(check(prog), { a, o });
  assert.deepEqual(
    f32of(o).filter((_, i) => i % 2 === 0),
    [9, 8, 7, 0, 0, 0, 0, 0],
  );
  // the op overwrote the constant's initial [50000 -> -15536, 7, -1, 0]; the splat stayed 0s
  assert.deepEqual(Array.from(r.arrays['ex (constant)']!.data as Int16Array), [1, 2, 0, 0]);
  assert.deepEqual(Array.from(r.arrays['z (constant)']!.data as Int16Array), [0, 0, 0, 0]);
  // values as written, wrapped to i16 (50000 - 65536)
  const only = runProgram(
    check('func.func @k() {\n  %v = arith.constant dense<[50000, 7, -1, 0]> : vector<4xi16>\n  return\n}\n'),
    {},
  );
  assert.deepEqual(Array.from(only.arrays['v (constant)']!.data as Int16Array), [50000 - 65536, 7, -1, 0]);
});
