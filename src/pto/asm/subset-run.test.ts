import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import { parsePtoAs, printModule, runProgram, verifyDiagnostics, verifyModule } from './index.ts';

// pto.subset (pto-isa docs/isa/tile/ops/view-and-tile-buf/subset.md, PTOAS SubsetOp): a window of a
// parent tile at runtime offsets with static sizes; writes through the window land in the parent.
// The type after ':' is the source's; the result's valid dims follow PTOAS's inference
// (min(size, pv - off mod pv) for constant offsets, dynamic otherwise). Expected values by hand.

const TB = (
  r: number,
  c: number,
  vr: number | '?' = r,
  vc: number | '?' = c,
  extra = 'blayout=row_major, slayout=none_box',
) =>
  `!pto.tile_buf<loc=vec, dtype=f32, rows=${r}, cols=${c}, v_row=${vr}, v_col=${vc}, ${extra}, fractal=512, pad=0>`;
const PV = '!pto.partition_tensor_view<4x8xf32>';
const TV = '!pto.tensor_view<?x?xf32>';

function prog(body: string, parent = TB(4, 8)): string {
  return `func.func @k(%a: !pto.ptr<f32>, %o: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %va = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c8, %c1] : ${TV}
  %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c4, %c8] : ${TV} -> ${PV}
  %vo = pto.make_tensor_view %o, shape = [%c4, %c8], strides = [%c8, %c1] : ${TV}
  %po = pto.partition_view %vo, offsets = [%c0, %c0], sizes = [%c4, %c8] : ${TV} -> ${PV}
  %p = pto.alloc_tile : ${parent}
  pto.tload ins(%pa : ${PV}) outs(%p : ${parent})
  ${body}
  pto.tstore ins(%p : ${parent}) outs(%po : ${PV})
  return
}
`;
}

const a = (): NpyArray => ({
  dtype: 'f4',
  shape: [4, 8],
  data: Float32Array.from({ length: 32 }, (_, i) => i),
});
const zeros = (): NpyArray => ({ dtype: 'f4', shape: [4, 8], data: new Float32Array(32) });

function run(src: string): number[] {
  const m = parsePtoAs(src);
  verifyModule(m);
  assert.equal(printModule(parsePtoAs(printModule(m))), printModule(m));
  const o = zeros();
  runProgram(m, { a: a(), o });
  return Array.from(o.data as Float32Array);
}

test('pto.subset: two 4x4 halves of a 4x8 tile; tadd through the windows writes the parent', () => {
  const H = TB(4, 4);
  const out = run(
    prog(`%l = pto.subset %p[%c0, %c0] sizes [4, 4] : ${TB(4, 8)}
  %r = pto.subset %p[%c0, %c4] sizes [4, 4] : ${TB(4, 8)}
  pto.tadd ins(%l, %r : ${H}, ${H}) outs(%l : ${H})`),
  );
  // left half (i, j) = a(i, j) + a(i, j + 4) = 16i + 2j + 4; the right half keeps a(i, j) = 8i + j
  const want = Array.from({ length: 32 }, (_, k) => {
    const i = Math.floor(k / 8);
    const j = k % 8;
    return j < 4 ? 16 * i + 2 * j + 4 : 8 * i + j;
  });
  assert.deepEqual(out, want);
});

test('pto.subset at a loop offset: the column offset is dynamic (v_col=?), the row offset constant', () => {
  const W = TB(4, 4, 4, '?');
  const out = run(
    prog(`scf.for %i = %c0 to %c2 step %c1 {
    %j = arith.muli %i, %c4 : index
    %s = pto.subset %p[%c0, %j] sizes [4, 4] : ${TB(4, 8)}
    %two = arith.constant 2.0 : f32
    pto.tmuls ins(%s, %two : ${W}, f32) outs(%s : ${W})
  }`),
  );
  assert.deepEqual(
    out,
    Array.from({ length: 32 }, (_, k) => 2 * k),
  );
});

test('pto.subset valid dims: a window at offset 2 of a parent with 4 valid columns has 2 valid columns', () => {
  // parent 4x8 with v_col=4 (a ping/pong buffer): columns 4..7 are outside its valid region
  const P = TB(4, 8, 4, 4);
  const S = TB(4, 4, 4, 2);
  const src = prog(
    `%s = pto.subset %p[%c0, %c2] sizes [4, 4] : ${P}
  pto.tadds ins(%s, %one : ${S}, f32) outs(%s : ${S})`,
    P,
  ).replace('%p = pto.alloc_tile', '%one = arith.constant 100.0 : f32\n  %p = pto.alloc_tile');
  // a type with v_col=4 would not match the inferred v_col=2
  assert.match(verifyDiagnostics(parsePtoAs(src.replaceAll(S, TB(4, 4, 4, 4))))[0]!.message, /type mismatch/);
  const out = run(src);
  // TLOAD filled the 4 valid columns; columns 2, 3 got +100 (the window's 2 valid columns)
  const want = Array.from({ length: 32 }, (_, k) => {
    const j = k % 8;
    if (j >= 4) return 0;
    return j >= 2 ? k + 100 : k;
  });
  assert.deepEqual(out, want);
});

test('pto.subset errors: wrong type after the colon, windows leaving the parent, boxed alignment', () => {
  const diag = (body: string, parent = TB(4, 8)) =>
    verifyDiagnostics(parsePtoAs(prog(body, parent))).map((d) => d.message);
  assert.match(diag(`%s = pto.subset %p[%c0, %c0] sizes [4, 4] : ${TB(8, 8)}`)[0]!, /source's type/);
  assert.match(diag(`%s = pto.subset %p[%c0, %c8] sizes [4, 4] : ${TB(4, 8)}`)[0]!, /leaves the source/);
  assert.match(diag(`%s = pto.subset %p[%c0, %c0] sizes [4, 9] : ${TB(4, 8)}`)[0]!, /fit the 4x8 source/);
  // runtime: a dynamic offset that leaves the parent
  const m = parsePtoAs(
    prog(`%j = arith.muli %c4, %c2 : index
  %s = pto.subset %p[%c0, %j] sizes [4, 4] : ${TB(4, 8)}`),
  );
  verifyModule(m);
  assert.throws(
    () => runProgram(m, { a: a(), o: zeros() }),
    (e: unknown) =>
      e instanceof AxsimError && e.category === 'BadInput' && /leaves the 4x8 parent/.test(e.message),
  );
  // boxed (NZ) f16 32x32 tile: boxes 16x16, ColMajor base: keep all rows, column offsets multiple of 16
  const NZ = (r: number, c: number) =>
    `!pto.tile_buf<loc=mat, dtype=f16, rows=${r}, cols=${c}, v_row=${r}, v_col=${c}, blayout=col_major, slayout=row_major, fractal=512, pad=0>`;
  const boxed = (sub: string) =>
    verifyDiagnostics(
      parsePtoAs(
        `func.func @k() {\n  %c0 = arith.constant 0 : index\n  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n  %t = pto.alloc_tile : ${NZ(32, 32)}\n  ${sub}\n  return\n}\n`,
      ),
    ).map((d) => d.message);
  assert.deepEqual(boxed(`%s = pto.subset %t[%c0, %c16] sizes [32, 16] : ${NZ(32, 32)}`), []);
  assert.match(boxed(`%s = pto.subset %t[%c0, %c8] sizes [32, 16] : ${NZ(32, 32)}`)[0]!, /multiples/);
  assert.match(boxed(`%s = pto.subset %t[%c16, %c0] sizes [16, 16] : ${NZ(32, 32)}`)[0]!, /keeps all rows/);
});

test('pto.subview ins(%src, %r, %c : T, i16, i16) outs(%dst): dst stays a live window of src', () => {
  const V = TB(4, 8, 4, 4);
  const out = run(
    prog(`%r0 = arith.constant 0 : i16
  %c4s = arith.constant 4 : i16
  %v = pto.alloc_tile : ${V}
  pto.subview ins(%p, %r0, %c4s : ${TB(4, 8)}, i16, i16) outs(%v : ${V})
  %hundred = arith.constant 100.0 : f32
  pto.tadds ins(%v, %hundred : ${V}, f32) outs(%v : ${V})`),
  );
  // columns 4..7 of the parent (the view's 4 valid columns) got +100
  assert.deepEqual(
    out,
    Array.from({ length: 32 }, (_, k) => (k % 8 >= 4 ? k + 100 : k)),
  );
});
