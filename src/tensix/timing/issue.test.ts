/**
 * Issue-side timing: non-SFPU instructions take an issue slot, STALLWAIT waits for the Vector Unit
 * to drain (plus one cycle, STALLWAIT.md), REPLAY costs only when recording (REPLAY.md
 * "Performance"), and the Blackhole/Wormhole auto-stall difference.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadMacro, machine, runSrc, scheduledOn, seqByte, setMisc, setSequence } from './testkit.ts';

describe('issue slots', () => {
  it('NOP, SETRWC, INCRWC and SETC16 take one cycle each and are not SFPU instructions', () => {
    const r = runSrc(
      machine('wormhole'),
      'TTI_NOP;\nTTI_SETRWC(0, 0, 0, 0, 0, 4);\nTTI_INCRWC(0, 2, 0, 0);\nTTI_SETC16(30, 0);\nTTI_SFPNOP;\n',
    );
    assert.deepEqual([...r.issueCycle], [0, 1, 2, 3, 4]);
    assert.equal(r.cycles, 5);
    assert.deepEqual(r.busy, { load: 1, simple: 0, mad: 0, round: 0, store: 0 });
  });
});

describe('STALLWAIT', () => {
  it('blocks until nothing is scheduled or in flight, then one more cycle', () => {
    // macro at t schedules a cycles-kind SFPNOT with delay 3: it runs at t+4. STALLWAIT at t+1;
    // the Vector Unit is idle from t+5 on, so the block lifts for t+6.
    const r = runSrc(
      machine('wormhole'),
      'TTI_SFPNOT(0, 0, 12, 0);\n' +
        setSequence(0, seqByte(4, 3, false, true)) +
        setMisc(0, 0, 0) +
        loadMacro(0, 1, 4, 0, 0) +
        'TTI_STALLWAIT(0x100, 0x7f);\nTTI_SFPNOP;\n',
    );
    const n = r.issueCycle.length;
    const t = r.issueCycle[n - 3]!;
    assert.equal(r.issueCycle[n - 2], t + 1);
    assert.deepEqual(
      scheduledOn(r, 'simple').map((e) => e.cycle),
      [t + 4],
    );
    assert.equal(r.issueCycle[n - 1], t + 6);
    assert.equal(r.stallCycles, 4);
  });
  it('satisfies the Matrix-Unit-to-Dst gap', () => {
    const opts = { matrixDstWrites: [0] };
    assert.deepEqual(
      runSrc(machine('wormhole'), 'TTI_NOP;\nTTI_SFPLOAD(1, 3, 0, 0);\n', opts).hazards.map((h) => h.id),
      ['matrix-dst-too-close'],
    );
    assert.deepEqual(
      runSrc(machine('wormhole'), 'TTI_STALLWAIT(0x100, 0x7f);\nTTI_SFPLOAD(1, 3, 0, 0);\n', opts).hazards,
      [],
    );
  });
});

describe('REPLAY', () => {
  it('recording without executing costs 1 + len cycles; replaying costs nothing extra', () => {
    const r = runSrc(
      machine('wormhole'),
      'load_replay_buf(0, 2, [] { TTI_SFPNOP; TTI_SFPNOP; });\nlltt::replay(0, 2);\n',
    );
    assert.deepEqual([...r.issueCycle], [3, 4]);
    assert.equal(r.cycles, 5);
  });
  it('recording with Exec costs one cycle for the REPLAY only', () => {
    const r = runSrc(
      machine('wormhole'),
      'load_replay_buf<lltt::Exec>(0, 2, [] { TTI_SFPNOP; TTI_SFPNOP; });\nlltt::replay(0, 2);\n',
    );
    assert.deepEqual([...r.issueCycle], [1, 2, 3, 4]);
  });
});

describe('auto-stalls', () => {
  const madThenRead = 'TTI_SFPMAD(1, 2, 9, 3, 0);\nTTI_SFPMOV(0, 3, 4, 0);\n';
  it('Blackhole stalls a reader of a MAD result one cycle; Wormhole does not', () => {
    const bh = runSrc(machine('blackhole'), madThenRead);
    assert.deepEqual([...bh.issueCycle], [0, 2]);
    const wh = runSrc(machine('wormhole'), madThenRead);
    assert.deepEqual([...wh.issueCycle], [0, 1]);
  });
  it('both stall the instruction after SFPSWAP unless it is SFPNOP', () => {
    for (const arch of ['wormhole', 'blackhole'] as const) {
      assert.deepEqual(
        [...runSrc(machine(arch), 'TTI_SFPSWAP(0, 1, 2, 0);\nTTI_SFPMOV(0, 5, 6, 0);\n').issueCycle],
        [0, 2],
      );
      assert.deepEqual(
        [
          ...runSrc(machine(arch), 'TTI_SFPSWAP(0, 1, 2, 0);\nTTI_SFPNOP;\nTTI_SFPMOV(0, 5, 6, 0);\n')
            .issueCycle,
        ],
        [0, 1, 2],
      );
    }
  });
  it('nothing scheduled by SFPLOADMACRO stalls (a scheduled SFPMAD followed by a reader)', () => {
    // MAD template on the MAD sub-unit, delay 0: runs at t+1 writing VD = 1; the regular SFPMOV at
    // t+2 reads LReg[1] while that result is in flight and is not stalled (issued at t+2).
    const r = runSrc(
      machine('blackhole'),
      'TTI_SFPMAD(9, 9, 10, 12, 0);\n' +
        setSequence(0, 0, seqByte(4)) +
        setMisc(0, 0, 0) +
        loadMacro(0, 1, 4, 0, 0) +
        'TTI_SFPNOP;\nTTI_SFPMOV(0, 1, 6, 0);\n',
    );
    const n = r.issueCycle.length;
    assert.equal(r.issueCycle[n - 1]! - r.issueCycle[n - 3]!, 2);
    assert.equal(r.stallCycles, 0);
  });
});
