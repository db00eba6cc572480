/**
 * Tile storage is memory: tiles of a PTO-AS run are views at byte addresses of their location's
 * buffer, so aliasing, partial overlap and reinterpretation behave as on the device. Every program
 * here is the project's own fixture; expectations are worked out by hand in the test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import { readTile } from '../index.ts';
import { parsePtoAs, runProgram, verifyModule } from './index.ts';
import { BUFFER_SPACES } from './memory.ts';
import type { TraceEvent } from './run.ts';

/** A row-major, fully valid vec tile_buf type. */
const vec = (dtype: string, rows: number, cols: number, loc = 'vec') =>
  `!pto.tile_buf<loc=${loc}, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
const pview = (dtype: string, rows: number, cols: number) =>
  `!pto.partition_tensor_view<${rows}x${cols}x${dtype}>`;

/** A function with one gm pointer per entry of `ptrs` (each viewed as rows x cols), and a body. */
function program(ptrs: [string, string, number, number][], body: string): string {
  const args = ptrs.map(([n, d]) => `%${n}: !pto.ptr<${d}>`).join(', ');
  const views = ptrs
    .map(
      ([
        n,
        d,
        r,
        c,
      ]) => `    %${n}_v = pto.make_tensor_view %${n}, shape = [%c${r}, %c${c}], strides = [%c${c}, %c1] : !pto.tensor_view<?x?x${d}>
    %${n}_p = pto.partition_view %${n}_v, offsets = [%c0, %c0], sizes = [%c${r}, %c${c}] : !pto.tensor_view<?x?x${d}> -> ${pview(d, r, c)}`,
    )
    .join('\n');
  const consts = new Set([0, 1, ...ptrs.flatMap(([, , r, c]) => [r, c])]);
  return `module {
  func.func @k(${args}) {
${[...consts].map((n) => `    %c${n} = arith.constant ${n} : index`).join('\n')}
${views}
${body}
    return
  }
}
`;
}

const run = (text: string, args: Record<string, NpyArray | number>, profile?: 'cpu' | 'a2a3' | 'a5') => {
  const m = parsePtoAs(text, { file: 'fixture.pto' });
  verifyModule(m, { file: 'fixture.pto', profile });
  return runProgram(m, args, { file: 'fixture.pto', profile });
};
const f32 = (n: number, fill: (i: number) => number = () => 0): NpyArray => ({
  dtype: 'f4',
  shape: [n],
  data: Float32Array.from({ length: n }, (_, i) => fill(i)),
});
const i32 = (n: number): NpyArray => ({ dtype: 'i4', shape: [n], data: new Int32Array(n) });

test('the issue probe: texpands 1.0 into %t1, tstore of %t2 at the same address stores 1s', () => {
  const text = program(
    [['out', 'f32', 1, 16]],
    `    %a = arith.constant 0 : i64
    %one = arith.constant 1.0 : f32
    %t1 = pto.alloc_tile addr = %a : ${vec('f32', 1, 16)}
    %t2 = pto.alloc_tile addr = %a : ${vec('f32', 1, 16)}
    pto.texpands ins(%one : f32) outs(%t1 : ${vec('f32', 1, 16)})
    pto.tstore ins(%t2 : ${vec('f32', 1, 16)}) outs(%out_p : ${pview('f32', 1, 16)})`,
  );
  for (const profile of ['cpu', 'a2a3', 'a5'] as const) {
    const out = f32(16, () => -7);
    run(text, { out }, profile);
    assert.deepEqual(Array.from(out.data as Float32Array), new Array(16).fill(1), profile);
  }
});

test('write through one name, read through another: a K-loop accumulator carried in one buffer', () => {
  // acc = 0; for k < 5: acc' = acc + x (acc and acc' are two alloc_tile names at address 512)
  const text = program(
    [
      ['x', 'f32', 2, 8],
      ['out', 'f32', 2, 8],
    ],
    `    %c5 = arith.constant 5 : index
    %a = arith.constant 512 : i64
    %b = arith.constant 0 : i64
    %zero = arith.constant 0.0 : f32
    %acc0 = pto.alloc_tile addr = %a : ${vec('f32', 2, 8)}
    pto.texpands ins(%zero : f32) outs(%acc0 : ${vec('f32', 2, 8)})
    scf.for %k = %c0 to %c5 step %c1 {
      %xt = pto.alloc_tile addr = %b : ${vec('f32', 2, 8)}
      pto.tload ins(%x_p : ${pview('f32', 2, 8)}) outs(%xt : ${vec('f32', 2, 8)})
      %acc = pto.alloc_tile addr = %a : ${vec('f32', 2, 8)}
      %acc_next = pto.alloc_tile addr = %a : ${vec('f32', 2, 8)}
      pto.tadd ins(%acc, %xt : ${vec('f32', 2, 8)}, ${vec('f32', 2, 8)}) outs(%acc_next : ${vec('f32', 2, 8)})
    }
    %res = pto.alloc_tile addr = %a : ${vec('f32', 2, 8)}
    pto.tstore ins(%res : ${vec('f32', 2, 8)}) outs(%out_p : ${pview('f32', 2, 8)})`,
  );
  const x = f32(16, (i) => i - 3.25);
  const out = f32(16);
  run(text, { x, out });
  // 5 exact additions of a quarter-integer (all sums exact in binary32)
  assert.deepEqual(
    Array.from(out.data as Float32Array),
    Array.from({ length: 16 }, (_, i) => 5 * (i - 3.25)),
  );
});

test('partial overlap: a 2x16 tile at byte 128 is rows 2..3 of a 4x16 tile at byte 0', () => {
  const text = program(
    [['out', 'f32', 4, 16]],
    `    %a0 = arith.constant 0 : i64
    %a128 = arith.constant 128 : i64
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %big = pto.alloc_tile addr = %a0 : ${vec('f32', 4, 16)}
    %half = pto.alloc_tile addr = %a128 : ${vec('f32', 2, 16)}
    pto.texpands ins(%one : f32) outs(%big : ${vec('f32', 4, 16)})
    pto.texpands ins(%two : f32) outs(%half : ${vec('f32', 2, 16)})
    pto.tstore ins(%big : ${vec('f32', 4, 16)}) outs(%out_p : ${pview('f32', 4, 16)})`,
  );
  const out = f32(64);
  run(text, { out });
  // 16 f32 = 64 bytes per row: byte 128 is the start of row 2
  assert.deepEqual(
    Array.from(out.data as Float32Array),
    Array.from({ length: 64 }, (_, i) => (i < 32 ? 1 : 2)),
  );
});

test('reinterpretation: an i32 view of f32 bytes reads the IEEE encodings, and back', () => {
  const text = program(
    [
      ['x', 'f32', 2, 8],
      ['bits', 'i32', 2, 8],
      ['back', 'f32', 2, 8],
    ],
    `    %a = arith.constant 1024 : i64
    %sh = arith.constant 1 : i32
    %tf = pto.alloc_tile addr = %a : ${vec('f32', 2, 8)}
    %ti = pto.alloc_tile addr = %a : ${vec('i32', 2, 8)}
    pto.tload ins(%x_p : ${pview('f32', 2, 8)}) outs(%tf : ${vec('f32', 2, 8)})
    pto.tstore ins(%ti : ${vec('i32', 2, 8)}) outs(%bits_p : ${pview('i32', 2, 8)})
    pto.tshls ins(%ti, %sh : ${vec('i32', 2, 8)}, i32) outs(%ti : ${vec('i32', 2, 8)})
    pto.tstore ins(%tf : ${vec('f32', 2, 8)}) outs(%back_p : ${pview('f32', 2, 8)})`,
  );
  const xs = [1, -2, 0.5, 3.140625, -0, 1e-3, 65504, -1e30, 7, 8, 9, 10, 11, 12, 13, 14];
  const x = f32(16, (i) => xs[i]!);
  const bits = i32(16);
  const back = f32(16);
  run(text, { x, bits, back });
  const X = new Float32Array(xs);
  const U = new Uint32Array(X.buffer);
  // the encodings, computed here from the IEEE bytes of the inputs
  assert.deepEqual(
    Array.from(bits.data as Int32Array),
    Array.from(U, (u) => u | 0),
  );
  // shifting the encoding left by one drops the sign and doubles the exponent field: read as f32
  const shifted = new Uint32Array(Array.from(U, (u) => (u << 1) >>> 0));
  assert.deepEqual(Array.from(back.data as Float32Array), Array.from(new Float32Array(shifted.buffer)));
});

test('in one instruction a source overlapping the destination is read as it was before', () => {
  // S = elements 0..31 at byte 0, D = 32 elements at byte 64 (elements 16..47): D = S + 100
  const text = program(
    [
      ['x', 'f32', 1, 64],
      ['out', 'f32', 1, 64],
    ],
    `    %a0 = arith.constant 0 : i64
    %a64 = arith.constant 64 : i64
    %h = arith.constant 100.0 : f32
    %all = pto.alloc_tile addr = %a0 : ${vec('f32', 1, 64)}
    %s = pto.alloc_tile addr = %a0 : ${vec('f32', 1, 32)}
    %d = pto.alloc_tile addr = %a64 : ${vec('f32', 1, 32)}
    pto.tload ins(%x_p : ${pview('f32', 1, 64)}) outs(%all : ${vec('f32', 1, 64)})
    pto.tadds ins(%s, %h : ${vec('f32', 1, 32)}, f32) outs(%d : ${vec('f32', 1, 32)})
    pto.tstore ins(%all : ${vec('f32', 1, 64)}) outs(%out_p : ${pview('f32', 1, 64)})`,
  );
  const x = f32(64, (i) => i);
  const out = f32(64);
  run(text, { x, out });
  const want = Array.from({ length: 64 }, (_, i) => (i < 16 ? i : i < 48 ? i - 16 + 100 : i));
  assert.deepEqual(Array.from(out.data as Float32Array), want);
});

test('tiles without an address get storage of their own (the allocator does not alias them)', () => {
  const text = program(
    [
      ['o1', 'f32', 1, 8],
      ['o2', 'f32', 1, 8],
    ],
    `    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %t1 = pto.alloc_tile : ${vec('f32', 1, 8)}
    %t2 = pto.alloc_tile : ${vec('f32', 1, 8)}
    pto.texpands ins(%one : f32) outs(%t1 : ${vec('f32', 1, 8)})
    pto.texpands ins(%two : f32) outs(%t2 : ${vec('f32', 1, 8)})
    pto.tstore ins(%t1 : ${vec('f32', 1, 8)}) outs(%o1_p : ${pview('f32', 1, 8)})
    pto.tstore ins(%t2 : ${vec('f32', 1, 8)}) outs(%o2_p : ${pview('f32', 1, 8)})`,
  );
  const o1 = f32(8);
  const o2 = f32(8);
  run(text, { o1, o2 });
  assert.deepEqual(Array.from(o1.data as Float32Array), new Array(8).fill(1));
  assert.deepEqual(Array.from(o2.data as Float32Array), new Array(8).fill(2));
});

test('different locations are different memories: a mat tile at address 0 does not alias UB 0', () => {
  const text = program(
    [['out', 'f32', 1, 8]],
    `    %a = arith.constant 0 : i64
    %one = arith.constant 1.0 : f32
    %v = pto.alloc_tile addr = %a : ${vec('f32', 1, 8)}
    %m = pto.alloc_tile addr = %a : ${vec('f32', 1, 8, 'mat')}
    pto.texpands ins(%one : f32) outs(%v : ${vec('f32', 1, 8)})
    pto.tmov ins(%m : ${vec('f32', 1, 8, 'mat')}) outs(%v : ${vec('f32', 1, 8)})
    pto.tstore ins(%v : ${vec('f32', 1, 8)}) outs(%out_p : ${pview('f32', 1, 8)})`,
  );
  const out = f32(8, () => 5);
  run(text, { out });
  // L1 starts zeroed: the copy from mat overwrote the 1s with 0s
  assert.deepEqual(Array.from(out.data as Float32Array), new Array(8).fill(0));
});

const expectError = (fn: () => unknown, kind: string, re: RegExp, line: number) => {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof AxsimError, String(e));
    assert.equal(e.category, kind, e.message);
    assert.match(e.message, re);
    assert.equal(e.location?.line, line, e.format());
    return true;
  });
};

test('misaligned and out-of-range addresses are BadInput naming the alloc_tile line', () => {
  const at = (addr: number, rows: number) =>
    program(
      [['out', 'f32', 1, 8]],
      `    %a = arith.constant ${addr} : i64
    %t = pto.alloc_tile addr = %a : ${vec('f32', rows, 8)}
    pto.tstore ins(%t : ${vec('f32', rows, 8)}) outs(%out_p : ${pview('f32', 1, 8)})`,
    );
  // the alloc_tile is on line 9 of the fixture (module, func, 3 constants, 2 view lines, %a)
  const line =
    at(0, 1)
      .split('\n')
      .findIndex((l) => l.includes('alloc_tile')) + 1;
  expectError(() => run(at(16, 1), { out: f32(8) }), 'BadInput', /not a multiple of 32 bytes/, line);
  for (const profile of ['cpu', 'a2a3', 'a5'] as const) {
    const size = BUFFER_SPACES[profile].vec.size;
    // the last 32 bytes of UB hold exactly one 1x8 f32 tile; a 2x8 tile there leaves the buffer
    run(at(size - 32, 1), { out: f32(8) }, profile);
    expectError(
      () => run(at(size - 32, 2), { out: f32(8) }, profile),
      'BadInput',
      /leave the \d+-byte UB/,
      line,
    );
    expectError(() => run(at(size, 1), { out: f32(8) }, profile), 'BadInput', /leave the/, line);
  }
  // a tile larger than the whole buffer (a2a3 UB is 192 KiB = 49152 f32)
  const huge = program(
    [['out', 'f32', 1, 8]],
    `    %a = arith.constant 0 : i64
    %t = pto.alloc_tile addr = %a : ${vec('f32', 256, 256)}`,
  );
  expectError(
    () => run(huge, { out: f32(8) }, 'a2a3'),
    'BadInput',
    /more than the whole 196608-byte UB/,
    line,
  );
});

test('a scratch (tmp) operand overlapping a source is UndefinedBehaviour naming the line', () => {
  const t = vec('f32', 4, 16);
  const col = `!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=1, v_row=4, v_col=1, blayout=col_major, slayout=none_box, fractal=512, pad=0>`;
  const text = (tmpAddr: number) =>
    program(
      [['out', 'f32', 1, 8]],
      `    %a0 = arith.constant 0 : i64
    %at = arith.constant ${tmpAddr} : i64
    %ad = arith.constant 4096 : i64
    %src = pto.alloc_tile addr = %a0 : ${t}
    %tmp = pto.alloc_tile addr = %at : ${t}
    %dst = pto.alloc_tile addr = %ad : ${col}
    pto.trowsum ins(%src, %tmp : ${t}, ${t}) outs(%dst : ${col})`,
    );
  run(text(256), { out: f32(8) });
  const line =
    text(128)
      .split('\n')
      .findIndex((l) => l.includes('pto.trowsum')) + 1;
  expectError(() => run(text(128), { out: f32(8) }), 'UndefinedBehaviour', /scratch operand tmp/, line);
});

test('trace: every instruction reports copies of what it read and wrote', () => {
  const text = program(
    [['out', 'f32', 1, 16]],
    `    %a = arith.constant 64 : i64
    %one = arith.constant 1.5 : f32
    %t1 = pto.alloc_tile addr = %a : ${vec('f32', 1, 16)}
    %t2 = pto.alloc_tile addr = %a : ${vec('f32', 1, 16)}
    pto.texpands ins(%one : f32) outs(%t1 : ${vec('f32', 1, 16)})
    pto.tmuls ins(%t2, %one : ${vec('f32', 1, 16)}, f32) outs(%t1 : ${vec('f32', 1, 16)})
    pto.tstore ins(%t2 : ${vec('f32', 1, 16)}) outs(%out_p : ${pview('f32', 1, 16)})`,
  );
  const events: TraceEvent[] = [];
  const m = parsePtoAs(text);
  verifyModule(m);
  const out = f32(16);
  runProgram(m, { out }, { trace: (e) => events.push(e) });
  assert.deepEqual(
    events.map((e) => e.insn),
    ['TEXPANDS', 'TMULS', 'TSTORE'],
  );
  const [ex, mul, st] = events as [TraceEvent, TraceEvent, TraceEvent];
  assert.equal(ex.inputs[0]!.scalar, 1.5);
  assert.equal(ex.outputs[0]!.name, 't1');
  assert.equal(ex.outputs[0]!.place, 'UB[64..127]');
  assert.deepEqual(readTile(ex.outputs[0]!.tile!)[0], new Array(16).fill(1.5));
  // the input copy is taken before the op, the output after: 1.5 in, 2.25 out
  assert.deepEqual(readTile(mul.inputs[0]!.tile!)[0], new Array(16).fill(1.5));
  assert.deepEqual(readTile(mul.outputs[0]!.tile!)[0], new Array(16).fill(2.25));
  assert.equal(st.outputs[0]!.kind, 'view');
  assert.equal(st.outputs[0]!.arg, 'out');
  assert.deepEqual(readTile(st.outputs[0]!.tile!)[0], new Array(16).fill(2.25));
});

test('pto.subview re-points the destination: its own bytes (and tiles aliasing them) stay unchanged', () => {
  const text = program(
    [
      ['o1', 'f32', 2, 16],
      ['o2', 'f32', 2, 16],
    ],
    `    %a0 = arith.constant 0 : i64
    %a1 = arith.constant 1024 : i64
    %r = arith.constant 2 : i16
    %c = arith.constant 0 : i16
    %one = arith.constant 1.0 : f32
    %seven = arith.constant 7.0 : f32
    %src = pto.alloc_tile addr = %a0 : ${vec('f32', 4, 16)}
    %dst = pto.alloc_tile addr = %a1 : ${vec('f32', 2, 16)}
    %other = pto.alloc_tile addr = %a1 : ${vec('f32', 2, 16)}
    pto.texpands ins(%one : f32) outs(%src : ${vec('f32', 4, 16)})
    pto.texpands ins(%seven : f32) outs(%other : ${vec('f32', 2, 16)})
    pto.subview ins(%src, %r, %c : ${vec('f32', 4, 16)}, i16, i16) outs(%dst : ${vec('f32', 2, 16)})
    pto.tstore ins(%other : ${vec('f32', 2, 16)}) outs(%o1_p : ${pview('f32', 2, 16)})
    pto.tstore ins(%dst : ${vec('f32', 2, 16)}) outs(%o2_p : ${pview('f32', 2, 16)})`,
  );
  const o1 = f32(32);
  const o2 = f32(32);
  run(text, { o1, o2 });
  assert.deepEqual(Array.from(o1.data as Float32Array), new Array(32).fill(7));
  assert.deepEqual(Array.from(o2.data as Float32Array), new Array(32).fill(1));
});

test('tiles without an address that no longer fit get storage of their own, with a note', () => {
  const big = vec('f32', 128, 256); // 128 KiB: two do not fit the 192 KiB UB of a2a3
  const text = program(
    [['out', 'f32', 1, 8]],
    `    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %t1 = pto.alloc_tile : ${big}
    %t2 = pto.alloc_tile : ${big}
    pto.texpands ins(%one : f32) outs(%t1 : ${big})
    pto.texpands ins(%two : f32) outs(%t2 : ${big})`,
  );
  const m = parsePtoAs(text);
  verifyModule(m, { profile: 'a2a3' });
  const r = runProgram(m, { out: f32(8) }, { profile: 'a2a3' });
  assert.equal(r.notes.length, 1);
  assert.match(r.notes[0]!, /^\d+:\d+: no room left in UB for this 131072-byte tile/);
  assert.ok(readTile(r.values.t1!).every((row) => row.every((x) => x === 1)));
  assert.ok(readTile(r.values.t2!).every((row) => row.every((x) => x === 2)));
  // on cpu (512 KiB UB) both fit
  assert.deepEqual(runProgram(m, { out: f32(8) }, { profile: 'cpu' }).notes, []);
});

test('pto.tassign re-places a tile (both names) at a new address; bad addresses name its line', () => {
  const T = vec('f32', 1, 16);
  const text = (addr: number) =>
    program(
      [
        ['o0', 'f32', 1, 16],
        ['o64', 'f32', 1, 16],
        ['ot', 'f32', 1, 16],
      ],
      `    %a0 = arith.constant 0 : i64
    %an = arith.constant ${addr} : i64
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %t = pto.alloc_tile addr = %a0 : ${T}
    pto.texpands ins(%one : f32) outs(%t : ${T})
    %t2 = pto.tassign %t, %an : ${T} -> ${T}
    pto.texpands ins(%two : f32) outs(%t2 : ${T})
    %at0 = pto.alloc_tile addr = %a0 : ${T}
    %at64 = pto.alloc_tile addr = %an : ${T}
    pto.tstore ins(%at0 : ${T}) outs(%o0_p : ${pview('f32', 1, 16)})
    pto.tstore ins(%at64 : ${T}) outs(%o64_p : ${pview('f32', 1, 16)})
    pto.tstore ins(%t : ${T}) outs(%ot_p : ${pview('f32', 1, 16)})`,
    );
  const [o0, o64, ot] = [f32(16), f32(16), f32(16)];
  run(text(64), { o0, o64, ot });
  assert.deepEqual(Array.from(o0.data as Float32Array), new Array(16).fill(1));
  assert.deepEqual(Array.from(o64.data as Float32Array), new Array(16).fill(2));
  // %t was rebound by the tassign (the emitted C++ re-points the one Tile variable)
  assert.deepEqual(Array.from(ot.data as Float32Array), new Array(16).fill(2));
  const line =
    text(48)
      .split('\n')
      .findIndex((l) => l.includes('pto.tassign')) + 1;
  expectError(() => run(text(48), { o0, o64, ot }), 'BadInput', /not a multiple of 32 bytes/, line);
});

test('pto.reserve_buffer: auto bases come from the allocator, explicit tiles may not overlap them', () => {
  const text = (tileAddr: number) =>
    program(
      [['out', 'i32', 1, 8]],
      `    %b = pto.reserve_buffer {name = "fifo", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32
    %a = arith.constant ${tileAddr} : i64
    %t = pto.alloc_tile addr = %a : ${vec('i32', 1, 8)}
    pto.texpands ins(%b : i32) outs(%t : ${vec('i32', 1, 8)})
    pto.tstore ins(%t : ${vec('i32', 1, 8)}) outs(%out_p : ${pview('i32', 1, 8)})`,
    );
  const out = i32(8);
  run(text(0), { out }, 'a2a3');
  // the top 8 KiB of the 192 KiB UB
  assert.deepEqual(Array.from(out.data as Int32Array), new Array(8).fill(196608 - 8192));
  const line =
    text(0)
      .split('\n')
      .findIndex((l) => l.includes('alloc_tile')) + 1;
  expectError(
    () => run(text(196608 - 4096), { out }, 'a2a3'),
    'BadInput',
    /overlap pto.reserve_buffer "fifo"/,
    line,
  );
});

test('pto.tprint: the run reports the tile and its values', () => {
  const T = vec('f32', 2, 4);
  const text = program(
    [['out', 'f32', 1, 8]],
    `    %a = arith.constant 0 : i64
    %h = arith.constant 0.5 : f32
    %t = pto.alloc_tile addr = %a : ${T}
    pto.texpands ins(%h : f32) outs(%t : ${T})
    pto.tprint ins(%t : ${T})`,
  );
  const r = run(text, { out: f32(8) });
  assert.equal(r.printed.length, 1);
  assert.match(
    r.printed[0]!,
    /pto\.tprint[\s\S]*Tile<vec, f32, 2x4[^\n]*UB\[0\.\.31\]\n {6}\[0\.5, 0\.5, 0\.5, 0\.5\]\n {6}\[0\.5, 0\.5, 0\.5, 0\.5\]/,
  );
});

test('pto.bind_tile: a tile view of a buffer (same bytes, its own valid shape)', () => {
  const M = 'memref<2x16xf32, #pto.address_space<vec>>';
  const text = program(
    [['out', 'f32', 2, 16]],
    `    %three = arith.constant 3.0 : f32
    %a = memref.alloc() : ${M}
    %av = pto.bind_tile %a, %c1, %c16 : ${M} -> ${M}
    pto.texpands ins(%three : f32) outs(%av : ${M})
    pto.tstore ins(%a : ${M}) outs(%out_p : ${pview('f32', 2, 16)})`,
  );
  const out = f32(32, () => -1);
  run(text, { out });
  // the view's valid region is row 0: row 1 keeps the buffer's initial zeros
  assert.deepEqual(
    Array.from(out.data as Float32Array),
    Array.from({ length: 32 }, (_, i) => (i < 16 ? 3 : 0)),
  );
});
