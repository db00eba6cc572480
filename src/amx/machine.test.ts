import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { AmxMachine } from './index.ts';

const X = Array.from({ length: 16 }, (_, i) => i + 1);
const Y = Array.from({ length: 16 }, (_, j) => 0.5 * (j + 1));
const PROGRAM = `set
.data 0x1000 f32 ${X.join(', ')}
.data 0x2000 f32 ${Y.join(', ')}
.space 0x3000 64
ldx reg=0 address=0x1000
ldy reg=0 address=0x2000
fma32 z_row=0 x_offset=0 y_offset=0 mode=matrix
stz z_row=4 address=0x3000`;

const f32 = (b: Uint8Array) => Array.from(new Float32Array(b.buffer, b.byteOffset, b.length / 4));

test('AmxMachine: load, run, read memory and registers (fma32 matrix: Z row 4j += x * y[j])', () => {
  const m = new AmxMachine('m2');
  assert.equal(m.gen, 'm2');
  m.run(m.load(PROGRAM));
  // f32 matrix mode writes row j of the 16x16 product to Z row 4j (corsix/amx fma.md); j = 1 here
  assert.deepEqual(
    f32(m.readMemory(0x3000, 64)),
    X.map((x) => x * Y[1]!),
  );
  const z = m.readRegister('z');
  assert.deepEqual(
    f32(z.subarray(4 * 3 * 64, 4 * 3 * 64 + 64)),
    X.map((x) => x * Y[3]!),
  );
  assert.deepEqual(f32(m.readRegister('x').subarray(0, 64)), X);
  z.fill(0); // a copy
  assert.equal(f32(m.readRegister('z').subarray(256, 320))[0], Y[1]);
});

test('AmxMachine: snapshot and restore cover registers, the enable flag and memory', () => {
  const m = new AmxMachine();
  m.run(PROGRAM);
  const snap = m.snapshot();
  m.writeMemory(0x3000, new Uint8Array(64).fill(7));
  m.writeRegister('y', new Uint8Array(4).fill(1), 8);
  m.run('clr');
  assert.equal(m.state.enabled, false);
  m.restore(snap);
  assert.equal(m.state.enabled, true);
  assert.deepEqual(
    f32(m.readMemory(0x3000, 64)),
    X.map((x) => x * Y[1]!),
  );
  assert.deepEqual(f32(m.readRegister('y').subarray(0, 64)), Y);
  // the snapshot is a copy: changing the machine again does not change it
  m.writeMemory(0x3000, new Uint8Array(64));
  m.restore(snap);
  assert.equal(f32(m.readMemory(0x3000, 4))[0], X[0]! * Y[1]!);
});

test('AmxMachine: reset drops memory and state; bad requests are BadInput errors', () => {
  const m = new AmxMachine('m1');
  m.run(PROGRAM);
  const snap = m.snapshot();
  m.reset();
  assert.equal(m.state.enabled, false);
  assert.ok(m.readRegister('z').every((b) => b === 0));
  const bad = (f: () => unknown, re: RegExp) =>
    assert.throws(f, (e) => e instanceof AxsimError && e.category === 'BadInput' && re.test(e.message));
  bad(() => m.readMemory(0x3000, 4), /unmapped/);
  bad(() => m.writeRegister('x', new Uint8Array(8), 510), /do not fit/);
  bad(() => m.readRegister('w' as 'x'), /unknown AMX register/);
  bad(() => new AmxMachine('m3').restore(snap), /m1 context cannot be restored on m3/);
  bad(() => new AmxMachine('m9'), /unknown AMX generation/);
});
