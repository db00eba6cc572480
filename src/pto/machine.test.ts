import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import type { NpyArray } from '../io/index.ts';
import { PtoMachine } from './public.ts';

const ADD_SCALAR = readFileSync(new URL('../../examples/pto/add-scalar.pto', import.meta.url), 'utf8');
const f4 = (data: number[]): NpyArray => ({ dtype: 'f4', shape: [16, 16], data: Float32Array.from(data) });
const A = Array.from({ length: 256 }, (_, i) => i / 8 - 3);

test('PtoMachine: write arrays, run a kernel bound by argument name, read the result', () => {
  const m = new PtoMachine('cpu');
  const a = f4(A);
  m.write('a', a);
  m.write('c', f4(new Array(256).fill(0)));
  const prog = m.load(ADD_SCALAR, { file: 'add-scalar.pto' });
  const r = m.run(prog, { scalars: { s: 2.5 } });
  assert.deepEqual(r.written, ['c']);
  // every value i/8 - 3 + 2.5 is exact in f32
  assert.deepEqual(
    Array.from(m.read('c').data as Float32Array),
    A.map((x) => x + 2.5),
  );
  assert.deepEqual(Array.from(m.read('a').data as Float32Array), A);
  a.data[0] = 99; // write took a copy
  assert.equal(m.read('a').data[0], -3);
});

test('PtoMachine: snapshot and restore global memory; reset empties it', () => {
  const m = new PtoMachine('a5');
  m.write('a', f4(A));
  m.write('c', f4(new Array(256).fill(1)));
  const snap = m.snapshot();
  m.run(ADD_SCALAR, { scalars: { s: -1 } });
  assert.equal(m.read('c').data[0], -4);
  m.restore(snap);
  assert.equal(m.read('c').data[0], 1);
  m.reset();
  assert.equal(m.memory.size, 0);
});

test('PtoMachine: missing arrays, unknown arguments and profiles are BadInput errors', () => {
  const bad = (f: () => unknown, re: RegExp) =>
    assert.throws(f, (e) => e instanceof AxsimError && e.category === 'BadInput' && re.test(e.message));
  const m = new PtoMachine();
  bad(() => m.read('c'), /no array 'c'/);
  m.write('a', f4(A));
  bad(() => m.run(ADD_SCALAR, { scalars: { s: 1 } }), /pointer argument %c needs an array/);
  m.write('c', f4(A));
  bad(() => m.run(ADD_SCALAR, { scalars: { s: 1, t: 2 } }), /no argument %t/);
  bad(
    () => m.write('b', { dtype: 'f4', shape: [2, 2], data: new Float32Array(3) }),
    /has 4 elements, data has 3/,
  );
  bad(() => new PtoMachine('gpu'), /unknown PTO profile/);
});
