import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Budget } from '../budget.ts';
import { AxsimError } from '../errors.ts';
import type { asm } from './public.ts';
import { PtoMachine, readTile } from './public.ts';

// PtoMachine.run passes `trace` and `budget` through to the runner (the playground's op-by-op view).

const file = fileURLToPath(new URL('../../examples/pto/add-scalar.pto', import.meta.url));

function machine(): PtoMachine {
  const m = new PtoMachine('cpu');
  m.write('a', { dtype: 'f4', shape: [16, 16], data: Float32Array.from({ length: 256 }, (_, i) => i / 4) });
  m.write('c', { dtype: 'f4', shape: [16, 16], data: new Float32Array(256) });
  return m;
}

test('PtoMachine.run with trace: one event per tile instruction, inputs before and outputs after', () => {
  const m = machine();
  const events: asm.TraceEvent[] = [];
  const r = m.run(readFileSync(file, 'utf8'), { scalars: { s: 2 }, trace: (e) => events.push(e) });
  assert.deepEqual(
    events.map((e) => e.insn),
    ['TLOAD', 'TADDS', 'TSTORE'],
  );
  assert.equal(events.length, r.instructions);
  const adds = events[1]!;
  const x = adds.inputs.find((v) => v.kind === 'tile')!.tile!;
  const y = adds.outputs[0]!.tile!;
  assert.equal(readTile(x)[0]![5], 5 / 4);
  assert.equal(readTile(y)[1]![3], 19 / 4 + 2);
  assert.equal(adds.inputs.find((v) => v.kind === 'scalar')!.scalar, 2);
});

test('PtoMachine.run with a budget: a too-small element budget stops the run with ResourceLimit', () => {
  const m = machine();
  assert.throws(
    () => m.run(readFileSync(file, 'utf8'), { scalars: { s: 2 }, budget: new Budget({ elementOps: 10 }) }),
    (e) => e instanceof AxsimError && e.category === 'ResourceLimit',
  );
});
