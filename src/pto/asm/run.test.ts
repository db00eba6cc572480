import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import { readTile } from '../index.ts';
import { ACCEPT, AFFINE_PROGRAM, WHILE_PROGRAM } from './fixtures.ts';
import { findFunc, parsePtoAs, printModule, runProgram, verifyDiagnostics, verifyModule } from './index.ts';
import { loadProgram } from './load.ts';

const ex = (name: string) => fileURLToPath(new URL(`../../../examples/pto/${name}`, import.meta.url));
const f4 = (shape: number[], fill: (i: number) => number): NpyArray => ({
  dtype: 'f4',
  shape,
  data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => fill(i)),
});

test('examples/pto/add.pto: C = A + B through load/add/store (f32 sums rounded once)', () => {
  const a = f4([16, 64], (i) => i * 0.1);
  const b = f4([16, 64], (i) => 1000 - i / 3);
  const c = f4([16, 64], () => 0);
  const r = runProgram(loadProgram(ex('add.pto')), { a, b, c });
  assert.equal(r.instructions, 4);
  assert.deepEqual(r.written, ['c']);
  const A = a.data as Float32Array;
  const B = b.data as Float32Array;
  const C = c.data as Float32Array;
  for (let i = 0; i < 1024; i++) assert.equal(C[i], Math.fround(A[i]! + B[i]!), `element ${i}`);
});

test('examples/pto/add-scalar.pto: the scalar argument reaches TADDS', () => {
  const a = f4([16, 16], (i) => i);
  const c = f4([16, 16], () => -1);
  runProgram(loadProgram(ex('add-scalar.pto')), { a, s: 2.5, c });
  assert.deepEqual(Array.from((c.data as Float32Array).slice(0, 3)), [2.5, 3.5, 4.5]);
  assert.equal((c.data as Float32Array)[255], 257.5);
});

test('examples/pto/softmax.pto: rows of the result sum to 1 and follow exp(x - max) / sum', () => {
  const x = f4([16, 128], (i) => Math.sin(i) * 4);
  const y = f4([16, 128], () => 0);
  runProgram(loadProgram(ex('softmax.pto')), { x, y });
  const X = x.data as Float32Array;
  const Y = y.data as Float32Array;
  for (let r = 0; r < 16; r++) {
    const row = Array.from(X.slice(r * 128, r * 128 + 128));
    const mx = Math.max(...row);
    const e = row.map((v) => Math.exp(v - mx));
    const s = e.reduce((p, q) => p + q, 0);
    let sum = 0;
    for (let c = 0; c < 128; c++) {
      sum += Y[r * 128 + c]!;
      assert.ok(Math.abs(Y[r * 128 + c]! - e[c]! / s) < 1e-6, `(${r}, ${c})`);
    }
    assert.ok(Math.abs(sum - 1) < 1e-5);
  }
});

test('examples/pto/matmul.pto: ones(16x32) x twos(32x16), twice accumulated = 128 everywhere', () => {
  const a: NpyArray = { dtype: 'f2', shape: [16, 32], data: new Uint16Array(512).fill(0x3c00) };
  const b: NpyArray = { dtype: 'f2', shape: [32, 16], data: new Uint16Array(512).fill(0x4000) };
  const c = f4([16, 16], () => 0);
  const r = runProgram(loadProgram(ex('matmul.pto')), { a, b, c });
  assert.equal(r.instructions, 7);
  assert.ok(Array.from(c.data as Float32Array).every((v) => v === 128));
});

test('examples/pto/dynamic-valid.pto: the second iteration stores only 31 valid columns', () => {
  const x = f4([2, 32], (i) => (i % 3) - 1);
  const y = f4([2, 32], () => 9);
  runProgram(loadProgram(ex('dynamic-valid.pto')), { x, y });
  const Y = y.data as Float32Array;
  for (let i = 0; i < 63; i++) assert.equal(Y[i], Math.max(0, (i % 3) - 1), `element ${i}`);
  assert.equal(Y[63], 9); // column 31 of row 1 is outside the valid region: untouched
});

test('Level-1 SSA and assembly-form programs run on tile arguments bound from arrays', () => {
  const m = parsePtoAs(`func.func @k(%d: !pto.tile<2x8xf32>, %a: !pto.tile<2x8xf32>, %b: !pto.tile<2x8xf32>) {
  %r = pto.tmul %a, %b : (!pto.tile<2x8xf32>, !pto.tile<2x8xf32>) -> !pto.tile<2x8xf32>
  tadd %d, %r, %a : !pto.tile<2x8xf32>
  return
}`);
  verifyModule(m);
  const a = f4([2, 8], (i) => i);
  const b = f4([2, 8], () => 3);
  const res = runProgram(m, { a, b });
  assert.deepEqual(readTile(res.tiles.d!)[1], [32, 36, 40, 44, 48, 52, 56, 60]);
});

test('argument errors are BadInput with a hint', () => {
  const m = loadProgram(ex('add.pto'));
  assert.throws(
    () => runProgram(m, { a: f4([16, 64], () => 0) }),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput' && /--arg b=/.test(e.hint ?? ''),
  );
  assert.throws(
    () => runProgram(m, { a: f4([2, 2], () => 0), b: f4([2, 2], () => 0), c: f4([2, 2], () => 0) }),
    (e: unknown) => e instanceof AxsimError && e.category !== 'Internal',
  );
});

test('accept examples with inputs run (add-scalar statement set, in-place tdivs)', () => {
  const fx = ACCEPT.find((f) => f.name.startsWith('10'))!;
  const m = parsePtoAs(fx.text);
  verifyModule(m);
  const r = runProgram(m, { c32_f: 2 });
  assert.equal(r.instructions, 1);
});

test('mutated example programs that still verify run to a result or an AxsimError', () => {
  const files = ['add', 'add-scalar', 'softmax', 'matmul', 'dynamic-valid'].map((f) =>
    loadProgram(ex(`${f}.pto`)),
  );
  const seeds = [
    ...files.map((m) => printModule(m)),
    ...ACCEPT.map((f) => printModule(parsePtoAs(f.text, { legacy: f.legacy }))),
  ];
  let x = 777;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const ALPHA = ' \n%()[]{},:=-?x0123456789abcdefv_';
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let ran = 0;
  try {
    for (let n = 0; n < 6000; n++) {
      let s = seeds[n % seeds.length]!;
      const i = Math.floor(rnd() * s.length);
      const c = ALPHA[Math.floor(rnd() * ALPHA.length)]!;
      s = rnd() < 0.5 ? s.slice(0, i) + c + s.slice(i + 1) : s.slice(0, i) + s.slice(i + 1);
      try {
        const m = parsePtoAs(s);
        if (verifyDiagnostics(m).length) continue;
        const args: Record<string, NpyArray | number> = {};
        for (const a of findFunc(m).args) {
          if (a.type.kind === 'ptr') {
            const n16 = a.type.elem.name === 'f16' || a.type.elem.name === 'bf16';
            args[a.use.name] = n16
              ? { dtype: 'u2', shape: [64, 256], data: new Uint16Array(64 * 256) }
              : f4([64, 256], () => 1);
          } else if (a.type.kind === 'scalar') args[a.use.name] = 1.5;
        }
        runProgram(m, args, { maxSteps: 10_000 });
        ran++;
      } catch (e) {
        if (!(e instanceof AxsimError) || e.category === 'Internal') {
          throw new Error(`mutant ${n}: ${String((e as Error)?.message ?? e)}\n---\n${s}`);
        }
      }
    }
  } finally {
    Error.stackTraceLimit = limit;
  }
  assert.ok(ran > 50, `only ${ran} mutants ran`);
});

test('scf.while: the body runs while the condition holds (three TADDS of 1)', () => {
  const m = parsePtoAs(WHILE_PROGRAM);
  verifyModule(m);
  const t = f4([2, 8], (i) => i);
  const r = runProgram(m, { t, one: 1 });
  assert.equal(r.instructions, 3);
  assert.deepEqual(readTile(r.tiles.t!)[0], [3, 4, 5, 6, 7, 8, 9, 10]);
});

test('affine.apply evaluates dims, symbols, precedence, floordiv / mod / ceildiv', () => {
  const m = parsePtoAs(AFFINE_PROGRAM);
  verifyModule(m);
  const t = f4([1, 8], () => 0.5);
  const r = runProgram(m, { t });
  // (7*3 + 5) floordiv 4 = 6; 7 mod 3 = 1; 10 ceildiv 4 = 3 -> 6 - 1 + 3 = 8
  assert.deepEqual(readTile(r.tiles.t!)[0], [8.5, 8.5, 8.5, 8.5, 8.5, 8.5, 8.5, 8.5]);
});
