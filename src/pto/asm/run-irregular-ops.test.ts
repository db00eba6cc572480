import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import { readTile } from '../index.ts';
import { parsePtoAs, printModule, runProgram, verifyModule } from './index.ts';

// Programs that reach TSELS, TGATHER (index and mask forms), TSCATTER, TCOLEXPAND*, TROWEXPANDEXPDIF
// and TAXPY through `runProgram`. Expected values are computed here from the instructions' stated
// semantics (pto-isa docs/isa/tile/ops pages), independently of the simulator.

const TB = (dt: string, r: number, c: number) =>
  `!pto.tile_buf<loc=vec, dtype=${dt}, rows=${r}, cols=${c}, v_row=${r}, v_col=${c}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
const PV = (dt: string, r: number, c: number) => `!pto.partition_tensor_view<${r}x${c}x${dt}>`;

interface Arg {
  name: string;
  dt: string;
  r: number;
  c: number;
}

/** A kernel loading each input arg into a tile, running `body`, storing tile %t_out to arg `out`. */
function kernel(inputs: Arg[], out: Arg, body: (t: (a: Arg) => string) => string, scalars = ''): string {
  const all = [...inputs, out];
  const lines: string[] = [];
  const dims = new Set<number>([0, 1]);
  for (const a of all) {
    dims.add(a.r);
    dims.add(a.c);
  }
  for (const d of dims) lines.push(`%c${d} = arith.constant ${d} : index`);
  for (const a of all) {
    const tv = `!pto.tensor_view<?x?x${a.dt}>`;
    lines.push(
      `%v_${a.name} = pto.make_tensor_view %${a.name}, shape = [%c${a.r}, %c${a.c}], strides = [%c${a.c}, %c1] : ${tv}`,
    );
    lines.push(
      `%p_${a.name} = pto.partition_view %v_${a.name}, offsets = [%c0, %c0], sizes = [%c${a.r}, %c${a.c}] : ${tv} -> ${PV(a.dt, a.r, a.c)}`,
    );
    lines.push(`%t_${a.name} = pto.alloc_tile : ${TB(a.dt, a.r, a.c)}`);
  }
  for (const a of all) {
    lines.push(
      `pto.tload ins(%p_${a.name} : ${PV(a.dt, a.r, a.c)}) outs(%t_${a.name} : ${TB(a.dt, a.r, a.c)})`,
    );
  }
  lines.push(body((a) => TB(a.dt, a.r, a.c)));
  lines.push(
    `pto.tstore ins(%t_${out.name} : ${TB(out.dt, out.r, out.c)}) outs(%p_${out.name} : ${PV(out.dt, out.r, out.c)})`,
  );
  const params = all.map((a) => `%${a.name}: !pto.ptr<${a.dt}>`).join(', ');
  return `func.func @k(${params}${scalars}) {\n  ${lines.join('\n  ')}\n  return\n}\n`;
}

function run(src: string, args: Record<string, NpyArray | number>): void {
  const m = parsePtoAs(src);
  verifyModule(m);
  // the canonical print re-parses to the same text
  assert.equal(printModule(parsePtoAs(printModule(m))), printModule(m));
  runProgram(m, args);
}

const f4 = (n: number, f: (i: number) => number): NpyArray => ({
  dtype: 'f4',
  shape: [n],
  data: Float32Array.from({ length: n }, (_, i) => f(i)),
});

test('pto.tsels: bit c%8 of mask byte (r, c/8) picks src, else the scalar', () => {
  const mask: Arg = { name: 'm', dt: 'ui8', r: 4, c: 32 };
  const src: Arg = { name: 'a', dt: 'f32', r: 4, c: 16 };
  const out: Arg = { name: 'o', dt: 'f32', r: 4, c: 16 };
  const prog = kernel(
    [mask, src],
    out,
    (t) => `pto.tsels ins(%t_m, %t_a, %s : ${t(mask)}, ${t(src)}, f32) outs(%t_o : ${t(out)})`,
    ', %s: f32',
  );
  const M = Uint8Array.from({ length: 128 }, (_, i) => (i * 37 + 11) & 0xff);
  const m: NpyArray = { dtype: 'u1', shape: [4, 32], data: M };
  const a = f4(64, (i) => i + 0.5);
  const o = f4(64, () => -7);
  run(prog, { m, a, o, s: 2.25 });
  const O = o.data as Float32Array;
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 16; c++) {
      const bit = (M[r * 32 + (c >> 3)]! >> (c & 7)) & 1;
      assert.equal(O[r * 16 + c], bit ? r * 16 + c + 0.5 : 2.25, `(${r}, ${c})`);
    }
  }
});

test('pto.tgather index form: dst(r, c) = src at flat index k = idx(r, c)', () => {
  const src: Arg = { name: 'a', dt: 'f32', r: 4, c: 16 };
  const idx: Arg = { name: 'i', dt: 'i32', r: 4, c: 16 };
  const out: Arg = { name: 'o', dt: 'f32', r: 4, c: 16 };
  const prog = kernel(
    [src, idx],
    out,
    (t) => `pto.tgather ins(%t_a, %t_i : ${t(src)}, ${t(idx)}) outs(%t_o : ${t(out)})`,
  );
  const K = Int32Array.from({ length: 64 }, (_, i) => (i * 29 + 5) % 64);
  const a = f4(64, (i) => 100 + i);
  const o = f4(64, () => 0);
  run(prog, { a, i: { dtype: 'i4', shape: [4, 16], data: K }, o });
  const O = o.data as Float32Array;
  for (let j = 0; j < 64; j++) assert.equal(O[j], 100 + K[j]!, `element ${j}`);
});

test('pto.tgather mask form P0101: the even columns of each row, packed from the first element', () => {
  const src: Arg = { name: 'a', dt: 'f32', r: 4, c: 16 };
  const out: Arg = { name: 'o', dt: 'f32', r: 4, c: 16 };
  const prog = kernel(
    [src],
    out,
    (t) =>
      `pto.tgather ins(%t_a, {maskPattern = #pto.mask_pattern<P0101>} : ${t(src)}) outs(%t_o : ${t(out)})`,
  );
  assert.match(
    printModule(parsePtoAs(prog)),
    /pto\.tgather ins\(%t_a, \{maskPattern = #pto\.mask_pattern<P0101>\} :/,
  );
  const a = f4(64, (i) => i);
  const o = f4(64, () => -1);
  run(prog, { a, o });
  const O = o.data as Float32Array;
  // 4 rows × 8 kept columns = 32 values: src(r, 2k) at position 8r + k; the rest keeps dst's load (-1)
  for (let j = 0; j < 32; j++) assert.equal(O[j], 16 * Math.floor(j / 8) + 2 * (j % 8), `element ${j}`);
  for (let j = 32; j < 64; j++) assert.equal(O[j], -1, `element ${j}`);
});

test('pto.tgather rejects both or neither of an index tile and a maskPattern (line:col)', () => {
  const T = TB('f32', 4, 16);
  const both = `func.func @k() {\n  %a = pto.alloc_tile : ${T}\n  %i = pto.alloc_tile : ${TB('i32', 4, 16)}\n  pto.tgather ins(%a, %i {maskPattern = #pto.mask_pattern<P0101>} : ${T}, ${TB('i32', 4, 16)}) outs(%a : ${T})\n  return\n}`;
  const at = (re: RegExp) => (e: unknown) =>
    e instanceof AxsimError && re.test(e.message) && e.location?.line === 4 && e.location?.col === 3;
  assert.throws(() => verifyModule(parsePtoAs(both)), at(/both an index tile and a maskPattern/));
  const neither = `func.func @k() {\n  %a = pto.alloc_tile : ${T}\n  %d = pto.alloc_tile : ${T}\n  pto.tgather ins(%a : ${T}) outs(%d : ${T})\n  return\n}`;
  assert.throws(() => verifyModule(parsePtoAs(neither)), at(/neither an index tile nor a maskPattern/));
});

test('pto.tscatter: dst.raw[idx(i, j)] = src(i, j)', () => {
  const src: Arg = { name: 'a', dt: 'f32', r: 4, c: 16 };
  const idx: Arg = { name: 'i', dt: 'i32', r: 4, c: 16 };
  const out: Arg = { name: 'o', dt: 'f32', r: 4, c: 16 };
  const prog = kernel(
    [src, idx],
    out,
    (t) => `pto.tscatter ins(%t_a, %t_i : ${t(src)}, ${t(idx)}) outs(%t_o : ${t(out)})`,
  );
  // a permutation of 0..63 (29 is coprime with 64)
  const K = Int32Array.from({ length: 64 }, (_, i) => (i * 29 + 5) % 64);
  const a = f4(64, (i) => i * 2);
  const o = f4(64, () => 0);
  run(prog, { a, i: { dtype: 'i4', shape: [4, 16], data: K }, o });
  const O = o.data as Float32Array;
  for (let j = 0; j < 64; j++) assert.equal(O[K[j]!], j * 2, `src element ${j}`);
});

test('pto.tcolexpandadd / pto.trowexpandexpdif / pto.taxpy reach the simulator', () => {
  const x: Arg = { name: 'x', dt: 'f32', r: 4, c: 16 };
  const y: Arg = { name: 'y', dt: 'f32', r: 4, c: 16 };
  const o: Arg = { name: 'o', dt: 'f32', r: 4, c: 16 };
  const data = () => ({ x: f4(64, (i) => i), y: f4(64, (i) => 1000 * (i % 16)), o: f4(64, () => 3) });
  // column expansion: dst(r, c) = x(r, c) + y(0, c)
  let d = data();
  run(
    kernel([x, y], o, (t) => `pto.tcolexpandadd ins(%t_x, %t_y : ${t(x)}, ${t(y)}) outs(%t_o : ${t(o)})`),
    d,
  );
  for (const [i, v] of (d.o.data as Float32Array).entries()) {
    assert.equal(v, i + 1000 * (i % 16), `colexpandadd ${i}`);
  }
  // row expansion of exp(x - y(r, ·)) with a per-row operand of one 32-byte block (8 f32, all = r)
  const y8: Arg = { name: 'y', dt: 'f32', r: 4, c: 8 };
  const xs = f4(64, (i) => (i % 16) / 4);
  const o2 = f4(64, () => 3);
  run(
    kernel(
      [x, y8],
      o,
      (t) => `pto.trowexpandexpdif ins(%t_x, %t_y : ${t(x)}, ${t(y8)}) outs(%t_o : ${t(o)})`,
    ),
    {
      x: xs,
      y: f4(32, (i) => Math.floor(i / 8)),
      o: o2,
    },
  );
  for (const [i, v] of (o2.data as Float32Array).entries()) {
    assert.equal(v, Math.fround(Math.exp((i % 16) / 4 - Math.floor(i / 16))), `expdif ${i}`);
  }
  // axpy: o = o + x · 0.5, with o loaded as 3
  d = data();
  run(
    kernel([x], o, (t) => `pto.taxpy ins(%t_x, %h : ${t(x)}, f32) outs(%t_o : ${t(o)})`, ', %h: f32'),
    { x: d.x, o: d.o, h: 0.5 },
  );
  for (const [i, v] of (d.o.data as Float32Array).entries()) {
    assert.equal(v, 3 + i * 0.5, `axpy ${i}`);
  }
});

test('pto.trowexpand static broadcast: a row-major [1, M] source fills row r of an [M, 32 B] destination with element r', () => {
  const T = (dt: string, r: number, c: number, bl = 'row_major') =>
    `!pto.tile_buf<loc=vec, dtype=${dt}, rows=${r}, cols=${c}, v_row=${r}, v_col=${c}, blayout=${bl}, slayout=none_box, fractal=512, pad=0>`;
  for (const [dt, npy, cols] of [
    ['f32', 'f4', 8],
    ['f16', 'f2', 16],
  ] as const) {
    for (const [st, shape] of [
      [T(dt, 1, 16), [1, 16]],
      [T(dt, 16, 1, 'col_major'), [16, 1]],
    ] as const) {
      const m = parsePtoAs(
        `func.func @k(%x: ${st}, %y: ${T(dt, 16, cols)}) {\n  pto.trowexpand ins(%x : ${st}) outs(%y : ${T(dt, 16, cols)})\n  return\n}`,
      );
      verifyModule(m);
      // values 1..16 (f16 bit patterns: 1.0 = 0x3c00 … 8.0 = 0x4800; 9..16 = 0x4880 + k·0x80)
      const f16 = [0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800];
      const data =
        npy === 'f4'
          ? Float32Array.from({ length: 16 }, (_, i) => i + 1)
          : Uint16Array.from({ length: 16 }, (_, i) => (i < 8 ? f16[i]! : 0x4880 + (i - 8) * 0x80));
      const r = runProgram(m, { x: { dtype: npy, shape: [...shape], data } });
      const rows = readTile(r.tiles.y!);
      rows.forEach((row, i) => {
        assert.deepEqual(row, Array(cols).fill(i + 1), `${dt} ${shape} row ${i}`);
      });
    }
  }
});
