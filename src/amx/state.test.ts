import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { execute } from './exec.ts';
import { AmxMemory, AmxState, fnv1a64, parseGen } from './state.ts';

test('memory: pages, accesses that cross a page and the 2^32 boundary, unmapped access is BadInput', () => {
  const m = new AmxMemory();
  const base = 0xffffffe0n; // 32 bytes below 2^32
  const bytes = Uint8Array.from({ length: 64 }, (_, i) => i + 1);
  m.writeBytes(base, bytes);
  assert.deepEqual(Array.from(m.readBytes(base, 64)), Array.from(bytes));
  assert.deepEqual(Array.from(m.readBytes(0x100000000n, 2)), [33, 34]);
  assert.throws(
    () => m.readBytes(0x5000n, 1),
    (e: unknown) =>
      e instanceof AxsimError && e.category === 'BadInput' && /unmapped memory at 0x5000/.test(e.message),
  );
  // ldx across the boundary: operand = pointer only (register 0)
  const s = new AmxState({ mem: m });
  execute(s, 0, base);
  assert.deepEqual(Array.from(s.x.subarray(0, 64)), Array.from(bytes));
});

test('set zeroes the registers and enables; clr disables; requireEnabled faults like the hardware', () => {
  const s = new AmxState({ gen: parseGen('M3') });
  s.x.fill(7);
  s.requireEnabled = true;
  assert.throws(() => execute(s, 12, 0n), /while AMX is disabled/);
  execute(s, 17, 0n);
  assert.equal(s.enabled, true);
  assert.equal(s.x[0], 0);
  assert.throws(() => execute(s, 17, 0n), /already enabled/);
  execute(s, 17, 1n);
  assert.equal(s.enabled, false);
  s.requireEnabled = false;
  assert.throws(() => execute(s, 23, 0n), /opcode 23 does not exist/);
  assert.throws(() => parseGen('m5'), /unknown AMX generation/);
});

test('misaligned pair load is UndefinedBehaviour (ldst.md: pairs must be 128-byte aligned)', () => {
  const s = new AmxState();
  s.mem.map(0x1000n, 4096);
  assert.throws(
    () => execute(s, 0, (1n << 62n) | 0x1040n),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
});

test('FNV-1a-64 matches the AMX-FORMAT.md definition on a small input', () => {
  // h = 0xcbf29ce484222325; h = (h ^ b) * 0x100000001b3 per byte, computed here with BigInt
  const data = Uint8Array.from([0, 1, 2, 255, 128]);
  let h = 0xcbf29ce484222325n;
  for (const b of data) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  assert.equal(fnv1a64(data), h);
});

test('conformance runner rejects malformed records with BadInput', async () => {
  const { runAmxCase } = await import('./conformance.ts');
  const base = {
    id: 'x',
    gen: 'm1',
    op: 0,
    operand: '0x0000000000001000',
    seed: '0x1',
    mem_base: '0x1000',
    et: 'none',
    ek: 0,
  };
  const bad = [
    { ...base, changed: { x: { 9: '00'.repeat(64) }, y: {}, z: {}, mem: {} } },
    { ...base, changed: { x: {}, y: {}, z: {}, mem: { 10: '00'.repeat(64) } } },
    { ...base, changed: { x: { 0: 'zz' }, y: {}, z: {}, mem: {} } },
    { ...base, gen: 'm9', changed: { x: {}, y: {}, z: {}, mem: {} } },
    { ...base, operand: 12, changed: { x: {}, y: {}, z: {}, mem: {} } },
  ];
  for (const rec of bad)
    assert.throws(
      () => runAmxCase(rec),
      (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
    );
});
