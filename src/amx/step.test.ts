import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../errors.ts';
import { AmxMachine } from './index.ts';

// AmxMachine.step (asm.ts runProgram with a range): the stepping API of the playground (web/).

const dir = fileURLToPath(new URL('../../examples/amx/', import.meta.url));

for (const f of ['matmul_f32.amx', 'matmul_f16_f32.amx']) {
  test(`${f}: stepping one operation at a time equals run (X, Y, Z, memory)`, () => {
    const a = new AmxMachine('m1');
    const b = new AmxMachine('m1');
    const p = a.load(readFileSync(`${dir}${f}`, 'utf8'), { file: f });
    a.run(p);
    for (let k = 0; k < p.ops.length; k++) b.step(p, k);
    const sa = a.snapshot();
    const sb = b.snapshot();
    assert.deepEqual([sb.x, sb.y, sb.z, sb.enabled], [sa.x, sa.y, sa.z, sa.enabled]);
    assert.deepEqual([...sb.pages.keys()].sort(), [...sa.pages.keys()].sort());
    for (const [k, page] of sa.pages) assert.deepEqual(sb.pages.get(k), page);
  });
}

test('step(p, 0, k): the .data blocks first, then k operations; ranges are checked', () => {
  const m = new AmxMachine('m1');
  const p = m.load(
    `set\n.data 0x1000 u8 ${Array.from({ length: 64 }, (_, i) => i + 1).join(', ')}\nldx reg=1 address=0x1000\nclr`,
  );
  const start = m.snapshot();
  m.step(p, 0, 1); // set; the data block is in memory, X untouched
  assert.equal(m.readMemory(0x1000, 1)[0], 1);
  assert.deepEqual(m.readRegister('x').subarray(64, 128), new Uint8Array(64));
  m.step(p, 1); // ldx: X row 1 (bytes 64..127) = memory at 0x1000
  assert.deepEqual(
    Array.from(m.readRegister('x').subarray(64, 128)),
    Array.from({ length: 64 }, (_, i) => i + 1),
  );
  m.restore(start);
  m.step(p, 0, 2);
  assert.equal(m.readRegister('x')[64 + 63], 64);
  for (const [from, to] of [
    [-1, 1],
    [0, 4],
    [2, 1],
  ] as const)
    assert.throws(
      () => m.step(p, from, to),
      (e) => e instanceof AxsimError && e.category === 'BadInput',
    );
});
