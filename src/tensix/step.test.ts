import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../errors.ts';
import { readNpy } from '../io/index.ts';
import { bitsToF32, f32ToBits } from '../numeric/index.ts';
import { TensixMachine } from './index.ts';

// TensixMachine.step (exec.ts runRange): the stepping API the playground (web/) uses. Stepping a
// program one instruction at a time must leave exactly the state `run` leaves, and lastDstAddr
// names the Dst row address a load/store used (imm10 + the Dst RWC, SFPLOAD.md).

const dir = fileURLToPath(new URL('../../examples/tensix/', import.meta.url));
const tile = readNpy(`${dir}tile.npy`).data as Float32Array;
const tileBits = Uint32Array.from(tile, (x) => f32ToBits(x));

test('step through every sequential example equals run (same LRegs, flags, stack, Dst)', () => {
  let stepped = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.sfpu'))) {
    const arch = f.startsWith('bh_') ? 'blackhole' : 'wormhole';
    const a = new TensixMachine(arch);
    const b = new TensixMachine(arch);
    for (const m of [a, b]) {
      m.writeDstTile(0, tileBits);
      m.configure({ sfpuFp32: true });
    }
    const p = a.load(readFileSync(`${dir}${f}`, 'utf8'), { file: f });
    try {
      a.run(p);
    } catch (e) {
      // SFPLOADMACRO schedules need the cycle model; step must refuse them the same way
      assert.ok(e instanceof AxsimError && e.category === 'Unsupported', `${f}: ${e}`);
      assert.throws(
        () => b.step(p, 0, p.length),
        (x) => x instanceof AxsimError && x.category === 'Unsupported',
      );
      continue;
    }
    for (let k = 0; k < p.length; k++) b.step(p, k);
    const sa = a.snapshot();
    const sb = b.snapshot();
    assert.deepEqual(sb.lreg, sa.lreg, f);
    assert.deepEqual(sb.dst, sa.dst, f);
    assert.deepEqual(
      [sb.laneFlags, sb.useLaneFlags, sb.stackSize],
      [sa.laneFlags, sa.useLaneFlags, sa.stackSize],
      f,
    );
    assert.deepEqual(sb.rwc, sa.rwc, f);
    stepped++;
  }
  assert.ok(stepped >= 20, `stepped ${stepped} examples`);
});

test('step(p, 0, k) from a snapshot is the state after k instructions; ranges are checked', () => {
  const m = new TensixMachine('wormhole');
  m.writeDstRows(0, [f32ToBits(-2), f32ToBits(3)], 'fp32');
  const p = m.load('TTI_SFPLOAD(0, 3, 3, 0);\nTTI_SFPABS(0, 0, 0, 1);\nTTI_SFPSTORE(0, 3, 3, 0);');
  const start = m.snapshot();
  m.step(p, 0, 2);
  assert.equal(bitsToF32(m.lreg(0)[0]!), 2); // |-2| in LReg0 lane 0
  assert.equal(bitsToF32(m.readDstRows(0, 1, 'fp32')[0]!), -2); // not stored yet
  m.step(p, 2);
  assert.equal(bitsToF32(m.readDstRows(0, 1, 'fp32')[0]!), 2);
  m.restore(start);
  m.step(p, 0, 3);
  assert.equal(bitsToF32(m.readDstRows(0, 1, 'fp32')[0]!), 2);
  for (const [from, to] of [
    [-1, 1],
    [0, 4],
    [2, 1],
    [0.5, 1],
  ] as const)
    assert.throws(
      () => m.step(p, from, to),
      (e) => e instanceof AxsimError && e.category === 'BadInput',
    );
});

test('lastDstAddr: imm10 + Dst RWC of the last transfer, and whether it stored', () => {
  const m = new TensixMachine('wormhole');
  const p = m.load(
    'TTI_SFPLOAD(0, 3, 3, 8);\nTTI_INCRWC(0, 2, 0, 0);\nTTI_SFPSTORE(0, 3, 3, 12);\nTTI_SFPABS(0, 0, 0, 1);',
  );
  m.state.lastDstAddr = -1;
  m.step(p, 0);
  assert.deepEqual([m.state.lastDstAddr, m.state.lastDstStore], [8, 0]);
  m.step(p, 1);
  m.step(p, 2);
  assert.deepEqual([m.state.lastDstAddr, m.state.lastDstStore], [14, 1]); // 12 + RWC 2
  m.state.lastDstAddr = -1;
  m.step(p, 3);
  assert.equal(m.state.lastDstAddr, -1); // SFPABS does not touch Dst
});

test('step errors name the source line, as run does', () => {
  const m = new TensixMachine('wormhole');
  const p = m.load('SFPNOP\nSFPNOP\nTTI_SFPPOPC(0, 0, 0, 0);\n', { file: 'k.sfpu' });
  assert.throws(
    () => m.step(p, 0, 3),
    (e) => e instanceof AxsimError && e.location?.line === 3 && e.location.file === 'k.sfpu',
  );
});
