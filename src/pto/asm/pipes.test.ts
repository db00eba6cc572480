// Cube <-> vector pipes (PTOAS tpush / tpop / tfree) on the project's own fixtures: a cube core
// computes A x I (the identity, so the accumulator holds A exactly in f32), pushes it, and the
// vector core(s) pop and store it. Expected values are A itself, built in the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import { createTile } from '../index.ts';
import { mixedEntry, type PipeDesc, type TileValue } from './exec.ts';
import { parsePtoAs } from './parser.ts';
import { PipeHub } from './pipes.ts';
import { runProgram } from './run.ts';

const MAT =
  'loc=mat, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0';
const LEFT =
  'loc=left, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=row_major, fractal=512, pad=0';
const RIGHT =
  'loc=right, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0';
const ACC =
  'loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0';
const vec = (r: number) =>
  `loc=vec, dtype=f32, rows=${r}, cols=16, v_row=${r}, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0`;
const T = (s: string) => `!pto.tile_buf<${s}>`;

/** The cube side: for i in [0, n): acc = A_i x I (A_i = rows 16i.. of %a), pushed to the vector side. */
function cube(n: number, push: string, init: string): string {
  return `  func.func private @cube(%a: !pto.ptr<f32>, %eye: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %cn = arith.constant ${n} : index
    %rows = arith.constant ${16 * n} : index
${init}
    %ma = pto.alloc_tile : ${T(MAT)}
    %mi = pto.alloc_tile : ${T(MAT)}
    %l = pto.alloc_tile : ${T(LEFT)}
    %r = pto.alloc_tile : ${T(RIGHT)}
    %acc = pto.alloc_tile : ${T(ACC)}
    %av = pto.make_tensor_view %a, shape = [%rows, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %ev = pto.make_tensor_view %eye, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %ep = pto.partition_view %ev, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
    pto.tload ins(%ep : !pto.partition_tensor_view<16x16xf32>) outs(%mi : ${T(MAT)})
    pto.tmov ins(%mi : ${T(MAT)}) outs(%r : ${T(RIGHT)})
    scf.for %i = %c0 to %cn step %c1 {
      %row = arith.muli %i, %c16 : index
      %ap = pto.partition_view %av, offsets = [%row, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
      pto.tload ins(%ap : !pto.partition_tensor_view<16x16xf32>) outs(%ma : ${T(MAT)})
      pto.tmov ins(%ma : ${T(MAT)}) outs(%l : ${T(LEFT)})
      pto.tmatmul ins(%l, %r : ${T(LEFT)}, ${T(RIGHT)}) outs(%acc : ${T(ACC)})
      ${push}
    }
    return
  }
`;
}

const FRONT_INIT_C = `    %buf = pto.import_reserved_buffer {name = "fifo", peer_func = @vector} -> i32
    %z = arith.constant 0 : i32
    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024} (gm_slot_buffer = %out : !pto.ptr<f32>, c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %z : i32)`;
const FRONT_INIT_V = `    %buf = pto.reserve_buffer {name = "fifo", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32
    %z = arith.constant 0 : i32
    pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 1024} (gm_slot_buffer = %out : !pto.ptr<f32>, c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %z : i32)`;

/** The vector side: pops n tiles of `rows` rows and stores tile i at rows 16i + subblock * rows of %out. */
function vector(n: number, rows: number, split: number, free: boolean): string {
  return `  func.func private @vector(%a: !pto.ptr<f32>, %eye: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %crows = arith.constant ${rows} : index
    %cn = arith.constant ${n} : index
    %all = arith.constant ${16 * n} : index
${FRONT_INIT_V}
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %half = arith.muli %sbi, %crows : index
    %ov = pto.make_tensor_view %out, shape = [%all, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    scf.for %i = %c0 to %cn step %c1 {
      %t = pto.tpop_from_aic {split = ${split}} -> ${T(vec(rows))}
      %row0 = arith.muli %i, %c16 : index
      %row = arith.addi %row0, %half : index
      %op = pto.partition_view %ov, offsets = [%row, %c0], sizes = [%crows, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<${rows}x16xf32>
      pto.tstore ins(%t : ${T(vec(rows))}) outs(%op : !pto.partition_tensor_view<${rows}x16xf32>)
      ${free ? `pto.tfree_from_aic {split = ${split}}` : ''}
    }
    return
  }
`;
}

function mixed(cubeText: string, vectorText: string): string {
  return `module {
  func.func @entry(%a: !pto.ptr<f32>, %eye: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.entry} {
    func.call @cube(%a, %eye, %out) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    func.call @vector(%a, %eye, %out) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    return
  }
${cubeText}${vectorText}}
`;
}

/** A: small integers (exact in f32 through the matmul); I: the 16x16 identity; out: -1s. */
function inputs(n: number): { a: Float32Array; args: Record<string, NpyArray> } {
  const a = new Float32Array(16 * 16 * n);
  for (let i = 0; i < a.length; i++) a[i] = ((i * 7 + 3) % 17) - 8;
  const eye = new Float32Array(256);
  for (let i = 0; i < 16; i++) eye[i * 16 + i] = 1;
  const out = new Float32Array(16 * 16 * n).fill(-1);
  const f4 = (d: Float32Array): NpyArray => ({ dtype: 'f4', shape: [d.length], data: d });
  return { a, args: { a: f4(a), eye: f4(eye), out: f4(out) } };
}

const PUSH = (split: number) => `pto.tpush_to_aiv(%acc : ${T(ACC)}) {split = ${split}}`;

test('tpush_to_aiv / tpop_from_aic, no split: the vector core receives each accumulator in order', () => {
  for (const profile of ['a2a3', 'a5'] as const) {
    const n = 3;
    const m = parsePtoAs(mixed(cube(n, PUSH(0), FRONT_INIT_C), vector(n, 16, 0, true)));
    const { a, args } = inputs(n);
    const r = runProgram(m, args, { profile });
    assert.deepEqual(Array.from(r.arrays.out!.data as Float32Array), Array.from(a), profile);
  }
});

test('split TILE_UP_DOWN: two vector sub-blocks each pop their half of the pushed tile', () => {
  const n = 2;
  const m = parsePtoAs(mixed(cube(n, PUSH(1), FRONT_INIT_C), vector(n, 8, 1, true)));
  const { a, args } = inputs(n);
  const r = runProgram(m, args, { profile: 'a5' });
  // sub-block s stores rows 8s..8s+7 of each tile: together every row, each exactly once
  assert.deepEqual(Array.from(r.arrays.out!.data as Float32Array), Array.from(a));
});

test('a full FIFO makes the producer wait for tfree; no tfree at all is a reported deadlock', () => {
  // 10 pushes through the frontend pipe's 8 slots: the cube waits at push 9 until the vector frees
  const n = 10;
  const ok = parsePtoAs(mixed(cube(n, PUSH(0), FRONT_INIT_C), vector(n, 16, 0, true)));
  const { a, args } = inputs(n);
  const r = runProgram(ok, args, { profile: 'a2a3' });
  assert.deepEqual(Array.from(r.arrays.out!.data as Float32Array), Array.from(a));
  // without tfree the ninth push never finds a slot
  const stuck = parsePtoAs(mixed(cube(n, PUSH(0), FRONT_INIT_C), vector(n, 16, 0, false)));
  assert.throws(
    () => runProgram(stuck, inputs(n).args, { profile: 'a2a3' }),
    (e: unknown) =>
      e instanceof AxsimError &&
      e.category === 'BadInput' &&
      /deadlocks: .*cube core 1: pto\.tpush_to_aiv at \d+:\d+ waits for a free FIFO slot/.test(e.message),
  );
});

test('a consumer without a producer deadlocks at its tpop (line:col)', () => {
  const src = `module {
  func.func @v(%g: !pto.ptr<f32>, %buf: i32) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, local_slot_num = 8, flag_base = 0}(%g : !pto.ptr<f32>, %buf : i32) -> !pto.pipe
    %t = pto.declare_tile -> ${T(vec(16))}
    pto.tpop(%t, %p : ${T(vec(16))}, !pto.pipe) {split = 0}
    pto.tfree(%p : !pto.pipe) {split = 0}
    return
  }
}
`;
  const m = parsePtoAs(src);
  const g: NpyArray = { dtype: 'f4', shape: [256], data: new Float32Array(256) };
  assert.throws(
    () => runProgram(m, { g, buf: 0 }, { profile: 'a2a3' }),
    (e: unknown) =>
      e instanceof AxsimError &&
      e.category === 'BadInput' &&
      (e.location as { line: number }).line === 5 &&
      /the entry: pto\.tpop at 5:5 waits for a tile no core has pushed yet/.test(e.message),
  );
});

test('internal pipe ops: initialize_l2g2l_pipe + tpush / declare_tile + tpop / tfree, run as a mixed entry', () => {
  // two kernels without an entry (as PTOAS's lowering tests write them): mixedEntry launches both
  const init = `    %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 2, local_slot_num = 2, flag_base = 3}(%out : !pto.ptr<f32>, %z : i32) -> !pto.pipe`;
  const c = cube(
    4,
    `pto.tpush(%acc, %p : ${T(ACC)}, !pto.pipe) {split = 0}`,
    `    %z = arith.constant 0 : i32\n${init}`,
  ).replace('func.func private @cube', 'func.func @cube');
  const v = `  func.func @vector(%a: !pto.ptr<f32>, %eye: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i32
${init}
    %ov = pto.make_tensor_view %out, shape = [%c64, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %t = pto.declare_tile -> ${T(vec(16))}
      pto.tpop(%t, %p : ${T(vec(16))}, !pto.pipe) {split = 0}
      %row = arith.muli %i, %c16 : index
      %op = pto.partition_view %ov, offsets = [%row, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
      pto.tstore ins(%t : ${T(vec(16))}) outs(%op : !pto.partition_tensor_view<16x16xf32>)
      pto.tfree(%p : !pto.pipe) {split = 0}
    }
    return
  }
`;
  const m = parsePtoAs(`module {\n${c}${v}}\n`);
  const entry = mixedEntry(m);
  assert.ok(entry);
  assert.deepEqual(
    entry.args.map((x) => x.use.name),
    ['a', 'eye', 'out'],
  );
  const { a, args } = inputs(4);
  const r = runProgram(m, args, { entry, profile: 'a2a3' });
  assert.deepEqual(Array.from(r.arrays.out!.data as Float32Array), Array.from(a));
  // without func / entry, runProgram picks the mixed entry itself (as `axsim pto run` does)
  const again = inputs(4);
  const r2 = runProgram(m, again.args, { profile: 'a2a3' });
  assert.equal(r2.func, entry.name);
  assert.deepEqual(Array.from(again.args.out!.data as Float32Array), Array.from(again.a));
  // the popped tiles live in the consumer buffer's two slots (addresses 0 and 1024 of UB)
  assert.equal(r.notes.length, 0);
});

test('round trip on a5: vector -> cube (V2C, NZ vec tile into a Mat tile) and back (C2V)', () => {
  const NZ =
    'loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0';
  const src = `module {
  func.func @cube(%a: !pto.ptr<f32>, %eye: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %v2c = pto.reserve_buffer {name = "v2c", size = 4096, location = #pto.address_space<mat>, auto = true} -> i32
    %c2v = pto.import_reserved_buffer {name = "c2v", peer_func = @vector} -> i32
    pto.aic_initialize_pipe {dir_mask = 3, slot_size = 1024} (c2v_consumer_buf = %c2v : i32, v2c_consumer_buf = %v2c : i32)
    %mi = pto.alloc_tile : ${T(MAT)}
    %l = pto.alloc_tile : ${T(LEFT)}
    %r = pto.alloc_tile : ${T(RIGHT)}
    %acc = pto.alloc_tile : ${T(ACC)}
    %ev = pto.make_tensor_view %eye, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %ep = pto.partition_view %ev, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
    pto.tload ins(%ep : !pto.partition_tensor_view<16x16xf32>) outs(%mi : ${T(MAT)})
    pto.tmov ins(%mi : ${T(MAT)}) outs(%r : ${T(RIGHT)})
    %m = pto.tpop_from_aiv {split = 0} -> ${T(MAT)}
    pto.tmov ins(%m : ${T(MAT)}) outs(%l : ${T(LEFT)})
    pto.tfree_from_aiv {split = 0}
    pto.tmatmul ins(%l, %r : ${T(LEFT)}, ${T(RIGHT)}) outs(%acc : ${T(ACC)})
    pto.tpush_to_aiv(%acc : ${T(ACC)}) {split = 0}
    return
  }
  func.func @vector(%a: !pto.ptr<f32>, %eye: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c2v = pto.reserve_buffer {name = "c2v", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32
    %v2c = pto.import_reserved_buffer {name = "v2c", peer_func = @cube} -> i32
    pto.aiv_initialize_pipe {dir_mask = 3, slot_size = 1024} (c2v_consumer_buf = %c2v : i32, v2c_consumer_buf = %v2c : i32)
    %nd = pto.alloc_tile : ${T(vec(16))}
    %nz = pto.alloc_tile : ${T(NZ)}
    %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
    pto.tload ins(%ap : !pto.partition_tensor_view<16x16xf32>) outs(%nd : ${T(vec(16))})
    pto.tmov ins(%nd : ${T(vec(16))}) outs(%nz : ${T(NZ)})
    pto.tpush_to_aic(%nz : ${T(NZ)}) {split = 0}
    %back = pto.tpop_from_aic {split = 0} -> ${T(vec(16))}
    %ov = pto.make_tensor_view %out, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
    pto.tstore ins(%back : ${T(vec(16))}) outs(%op : !pto.partition_tensor_view<16x16xf32>)
    pto.tfree_from_aic {split = 0}
    return
  }
}
`;
  const m = parsePtoAs(src);
  const { a, args } = inputs(1);
  // the cube pops first: it waits until the vector core has pushed
  const r = runProgram(m, args, { entry: mixedEntry(m)!, profile: 'a5' });
  assert.deepEqual(Array.from(r.arrays.out!.data as Float32Array), Array.from(a));
  // on a2a3 the Vec ND -> NZ move is a byte copy (npu/a2a3/TMov.hpp TMovToVec): the NZ tile's (r, c)
  // is the ND storage element (c >> 3) * 128 + r * 8 + (c & 7) (16x8 f32 boxes, boxes column-major),
  // and that permuted matrix comes back through the identity matmul
  const b = inputs(1);
  runProgram(m, b.args, { entry: mixedEntry(m)!, profile: 'a2a3' });
  assert.deepEqual(
    Array.from(b.args.out!.data as Float32Array),
    Array.from({ length: 256 }, (_, i) => b.a[((i % 16) >> 3) * 128 + (i >> 4) * 8 + ((i % 16) & 7)]),
  );
});

test('V2C slot capacity: SlotSize, twice that on a DIR_BOTH pipe (CPU simulator LOCAL_SPLIT_COPIES)', () => {
  // a split V2C entry stacks the two 16x16 f32 halves: 32x16 x 4 bytes = 2048 bytes
  const tile = createTile({ dtype: 'f32', rows: 16, cols: 16 });
  const src = { kind: 'tile', handle: tile } as unknown as TileValue;
  const desc = (dirMask: number): PipeDesc => ({
    key: `k${dirMask}`,
    dirMask,
    slotNum: 2,
    slotSize: 1024,
    localSlotNum: 2,
    c2vBuf: 0,
    v2cBuf: 0,
    pos: { line: 1, col: 1 },
  });
  const lane = (l: number) => ({ id: 2 + l, kind: 'vector' as const, lane: l, lanes: 2 });
  const hub = new PipeHub(() => {});
  // V2C only: the local slot is SlotSize = 1024 bytes
  assert.throws(
    () => hub.push(desc(2), 'v2c', src, lane(0), 1),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput' && /1024-byte slot/.test(e.message),
  );
  // DIR_BOTH: 2 x 1024 bytes hold it; both halves go in
  hub.push(desc(3), 'v2c', src, lane(0), 1);
  hub.push(desc(3), 'v2c', src, lane(1), 1);
});
