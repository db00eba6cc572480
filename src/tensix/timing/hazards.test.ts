/**
 * Every hazard id: a program that triggers it and one that does not. Rules and sources: hazards.ts,
 * docs/tensix-timing.md.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { HAZARD_IDS, type HazardId } from './hazards.ts';
import { loadConst, loadMacro, machine, runSrc, seqByte, setMisc, setSequence } from './testkit.ts';

const INT32 = 4;
const covered = new Set<HazardId>();

function ids(arch: Arch, src: string, opts: Parameters<typeof runSrc>[2] = {}) {
  const m = machine(arch);
  const r = runSrc(m, src, opts);
  for (const h of r.hazards) covered.add(h.id);
  return { m, r, ids: r.hazards.map((h) => h.id) };
}

const ONE = 0x3f800000;
const TWO = 0x40000000;
const madThen = (between: string, reader: string) =>
  `${loadConst(1, ONE)}${loadConst(2, TWO)}TTI_SFPMAD(1, 2, 9, 3, 0);\n${between}${reader}`;

describe('hazard: early-read', () => {
  it('wormhole: reading an SFPMAD result on the next cycle sees the old value', () => {
    const a = ids('wormhole', madThen('', 'TTI_SFPMOV(0, 3, 4, 0);\n'));
    assert.deepEqual(a.ids, ['early-read']);
    assert.deepEqual([...a.m.lreg(4)], new Array(32).fill(0));
    const b = ids('wormhole', madThen('TTI_SFPNOP;\n', 'TTI_SFPMOV(0, 3, 4, 0);\n'));
    assert.deepEqual(b.ids, []);
    assert.deepEqual([...b.m.lreg(4)], new Array(32).fill(TWO));
  });
  it('blackhole: auto-stalls instead, except where the stall logic misses the read (SFPIADD VD)', () => {
    const a = ids('blackhole', madThen('', 'TTI_SFPMOV(0, 3, 4, 0);\n'));
    assert.deepEqual(a.ids, []);
    assert.equal(a.r.stallCycles, 1);
    assert.deepEqual([...a.m.lreg(4)], new Array(32).fill(TWO));
    // SFPIADD L3 = L5 + L3 (Mod1 CC_NONE): BlackholeA0 SFPMAD.md, the stall logic does not see the VD read.
    const b = ids('blackhole', madThen('', 'TTI_SFPIADD(0, 5, 3, 4);\n'));
    assert.deepEqual(b.ids, ['early-read']);
    assert.equal(b.r.stallCycles, 0);
    assert.deepEqual([...b.m.lreg(3)], new Array(32).fill(0)); // L5 (0) + old L3 (0)
    const c = ids('blackhole', madThen('TTI_SFPNOP;\n', 'TTI_SFPIADD(0, 5, 3, 4);\n'));
    assert.deepEqual(c.ids, []);
    assert.deepEqual([...c.m.lreg(3)], new Array(32).fill(TWO));
  });
});

describe('hazard: early-read inside one SFPLOADMACRO sequence (Blackhole)', () => {
  // MAD at t+1 (delay 0) writes VD = 1, landing at t+3; the Store of the same macro reads VD = 1.
  const cfg = (storeDelay: number) =>
    'TTI_SFPMAD(9, 9, 10, 12, 0);\n' +
    setSequence(0, 0, seqByte(4), 0, seqByte(3, storeDelay)) +
    setMisc(0, 1, 0) +
    loadMacro(0, 1, INT32, 0, 0) +
    'TTI_SFPNOP;\n'.repeat(4);
  it('a Store at t+2 consumes the SFPMAD result too early; at t+3 it does not', () => {
    assert.deepEqual(ids('blackhole', cfg(1)).ids, ['early-read']);
    assert.deepEqual(ids('blackhole', cfg(2)).ids, []);
  });
});

describe('hazard: swap-shft2-follow', () => {
  it('wormhole: SFPABS right after SFPSHFT2 SUBVEC_SHFLROR1', () => {
    assert.deepEqual(ids('wormhole', 'TTI_SFPSHFT2(0, 1, 2, 3);\nTTI_SFPABS(0, 5, 6, 0);\n').ids, [
      'swap-shft2-follow',
    ]);
    assert.deepEqual(
      ids('wormhole', 'TTI_SFPSHFT2(0, 1, 2, 3);\nTTI_SFPNOP;\nTTI_SFPABS(0, 5, 6, 0);\n').ids,
      [],
    );
  });
  it('blackhole: a scheduled SFPSWAP needs Simple idle or SFPNOP on the next cycle', () => {
    const cfg =
      'TTI_SFPSWAP(0, 10, 12, 1);\nTTI_SFPNOT(0, 0, 13, 0);\n' +
      setSequence(0, seqByte(4, 0, true), seqByte(2)) +
      setSequence(1, seqByte(5, 0, false, true)) +
      setMisc(0, 0, 0);
    const next = loadMacro(1, 2, INT32, 0, 0);
    assert.deepEqual(ids('blackhole', `${cfg}${loadMacro(0, 1, INT32, 0, 0)}${next}TTI_SFPNOP;\n`).ids, [
      'swap-shft2-follow',
    ]);
    assert.deepEqual(
      ids('blackhole', `${cfg}${loadMacro(0, 1, INT32, 0, 0)}TTI_SFPNOP;\n${next}TTI_SFPNOP;\n`).ids,
      [],
    );
  });
});

describe('hazard: simple-round-vd', () => {
  const cfg = (roundL16: boolean) =>
    'TTI_SFPNOT(0, 0, 12, 0);\nTTI_SFP_STOCH_RND(0, 0, 0, 0, 13, sfpi::SFPSTOCHRND_MOD1_FP32_TO_FP16B);\n' +
    setSequence(0, seqByte(4), 0, seqByte(5, 0, false, roundL16)) +
    setMisc(0, 0, 0) +
    loadMacro(0, 1, INT32, 0, 0) +
    'TTI_SFPNOP;\n';
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: Simple and Round both writing VD = 1 on one cycle; fine when Round writes LReg[16]`, () => {
      assert.deepEqual(ids(arch, cfg(false)).ids, ['simple-round-vd']);
      assert.deepEqual(ids(arch, cfg(true)).ids, []);
    });
  }
});

describe('hazard: swap-mad-not-nop', () => {
  const cfg = (madSel: number) =>
    'TTI_SFPSWAP(0, 10, 12, 1);\nTTI_SFPMAD(9, 9, 9, 13, 0);\n' +
    setSequence(0, seqByte(4, 0, true), seqByte(madSel)) +
    setMisc(0, 0, 0) +
    loadMacro(0, 1, INT32, 0, 0) +
    'TTI_SFPNOP;\nTTI_SFPNOP;\n';
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: scheduled SFPSWAP with SFPMAD on the MAD sub-unit; fine with SFPNOP there`, () => {
      assert.deepEqual(ids(arch, cfg(5)).ids, ['swap-mad-not-nop']);
      assert.deepEqual(ids(arch, cfg(2)).ids, []);
    });
  }
});

describe('hazard: matrix-dst-too-close', () => {
  it('needs 3 instructions between a marked Matrix Unit Dst write and SFPLOAD/SFPLOADMACRO', () => {
    const opts = { matrixDstWrites: [0] };
    const two = ids('wormhole', 'TTI_NOP;\nTTI_NOP;\nTTI_SFPLOAD(1, 3, 0, 0);\n', opts);
    assert.deepEqual(two.ids, ['matrix-dst-too-close']);
    assert.deepEqual(
      ids('wormhole', 'TTI_NOP;\nTTI_NOP;\nTTI_NOP;\nTTI_SFPLOAD(1, 3, 0, 0);\n', opts).ids,
      [],
    );
    // a write to other rows does not matter
    assert.deepEqual(
      ids('wormhole', 'TTI_SFPLOAD(1, 3, 0, 0);\n', { matrixDstWrites: [{ before: 0, rows: [64, 127] }] })
        .ids,
      [],
    );
    assert.deepEqual(ids('wormhole', loadMacro(0, 1, 3, 0, 0), opts).ids, ['matrix-dst-too-close']);
  });
});

describe('hazard: store-partial-lanes', () => {
  it('SFPCONFIG of a Sequence with only some lanes enabled makes the Store scheduled on some lanes', () => {
    const src = loadConst(0, 0x03000000);
    assert.throws(
      () => ids('wormhole', `${src}TTI_SFPCONFIG(0x0005, 4, 8);\n`, { hazards: 'strict' }),
      (e: unknown) => e instanceof AxsimError && /store-partial-lanes/.test(e.message),
    );
    covered.add('store-partial-lanes');
    assert.deepEqual(ids('wormhole', `${src}TTI_SFPCONFIG(0, 4, 0);\n`).ids, []);
  });
  it('an SFPLOADMACRO after such a split is refused on the cycle model, not run with lane 0 config', () => {
    const src = `${loadConst(0, 0x03000000)}TTI_SFPCONFIG(0x0005, 4, 8);\n${loadMacro(0, 0, INT32, 0, 0)}`;
    assert.throws(
      () => ids('wormhole', src, { hazards: 'off' }),
      (e: unknown) =>
        e instanceof AxsimError && e.category === 'Unsupported' && /differing between lanes/.test(e.message),
    );
  });
});

describe('hazard: regular-discarded', () => {
  it('a regular instruction loses to a scheduled one on its sub-unit', () => {
    const cfg =
      'TTI_SFPNOT(0, 0, 12, 0);\n' +
      setSequence(0, seqByte(4, 0, false, true)) +
      setMisc(0, 0, 0) +
      loadMacro(0, 1, INT32, 0, 0);
    assert.deepEqual(ids('wormhole', `${cfg}TTI_SFPNOT(0, 3, 4, 0);\n`).ids, ['regular-discarded']);
    assert.deepEqual(ids('wormhole', `${cfg}TTI_SFPLOADI(4, 2, 7);\n`).ids, []); // load sub-unit: no conflict
  });
});

describe('hazard: flag-stack-overflow / underflow', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: a 9th SFPPUSHC overflows (and the run continues); 8 do not`, () => {
      const a = ids(arch, 'TTI_SFPPUSHC(0, 0, 0, 0);\n'.repeat(9));
      assert.deepEqual(a.ids, ['flag-stack-overflow']);
      assert.equal(a.m.state.stackSize, 9);
      assert.deepEqual(ids(arch, 'TTI_SFPPUSHC(0, 0, 0, 0);\n'.repeat(8)).ids, []);
    });
    it(`${arch}: SFPPOPC on an empty stack underflows; after a push it does not`, () => {
      const a = ids(arch, 'TTI_SFPPOPC(0, 0, 0, 0);\n');
      assert.deepEqual(a.ids, ['flag-stack-underflow']);
      assert.equal(a.m.state.stackSize, 15);
      assert.deepEqual(ids(arch, 'TTI_SFPPUSHC(0, 0, 0, 0);\nTTI_SFPPOPC(0, 0, 0, 0);\n').ids, []);
    });
  }
});

describe('hazard: macro-pending-at-end', () => {
  it('instructions-kind entries need later SFPU instructions to count down', () => {
    const cfg =
      'TTI_SFPNOT(0, 0, 12, 0);\n' +
      setSequence(0, seqByte(4, 3, false, true)) +
      setMisc(0, 0, 1) +
      loadMacro(0, 1, INT32, 0, 0);
    assert.deepEqual(ids('wormhole', `${cfg}TTI_SFPNOP;\n`).ids, ['macro-pending-at-end']);
    assert.deepEqual(ids('wormhole', `${cfg}${'TTI_SFPNOP;\n'.repeat(3)}`).ids, []);
  });
});

describe('hazard: macro-write-lost', () => {
  // Macro 0: Simple = template 0 (SFPNOT into LReg[16]) two cycles after the load, reading the
  // macro's VD. A second SFPLOADMACRO into the same VD on the next cycle replaces the value before
  // the first sequence's SFPNOT reads it.
  const cfg = `TTI_SFPNOT(0, 0, 12, 0);\n${setSequence(0, seqByte(4, 2, false, true))}${setMisc(0, 0, 0)}`;
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: a second SFPLOADMACRO into the same LReg before the first sequence reads it`, () => {
      const a = ids(
        arch,
        `${cfg}${loadMacro(0, 1, INT32, 0, 0)}${loadMacro(0, 1, INT32, 0, 2)}TTI_SFPNOP;\n`,
      );
      assert.deepEqual(a.ids, ['macro-write-lost']);
      assert.equal(a.r.hazards[0]!.index, 6); // the second SFPLOADMACRO
      // the same with different LRegs: each sequence reads its own value
      assert.deepEqual(
        ids(arch, `${cfg}${loadMacro(0, 1, INT32, 0, 0)}${loadMacro(0, 2, INT32, 0, 2)}TTI_SFPNOP;\n`).ids,
        [],
      );
      // a regular SFPLOAD into the LReg also loses it; a regular computation that replaces it is data flow
      assert.deepEqual(
        ids(arch, `${cfg}${loadMacro(0, 1, INT32, 0, 0)}TTI_SFPLOAD(1, 4, 0, 8);\nTTI_SFPNOP;\n`).ids,
        ['macro-write-lost'],
      );
      assert.deepEqual(
        ids(arch, `${cfg}${loadMacro(0, 1, INT32, 0, 0)}TTI_SFPABS(0, 3, 1, 0);\nTTI_SFPNOP;\n`).ids,
        [],
      );
    });
  }
});

describe('hazard: macro-forgotten', () => {
  // Macro 0 schedules Simple at delay 2, macro 1 at delay 1 (or 2): issued on the next cycle, the
  // first's counter has counted down to 1, the value macro 1 schedules with: it is forgotten.
  const cfg = (delay1: number) =>
    'TTI_SFPNOT(0, 0, 12, 0);\n' +
    setSequence(0, seqByte(4, 2, false, true)) +
    setSequence(1, seqByte(4, delay1, false, true)) +
    setMisc(0, 0, 0) +
    loadMacro(0, 1, INT32, 0, 0) +
    loadMacro(1, 2, INT32, 0, 2) +
    'TTI_SFPNOP;\nTTI_SFPNOP;\n';
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: a later SFPLOADMACRO replaces a pending instruction with the same delay`, () => {
      const a = ids(arch, cfg(1));
      assert.deepEqual(a.ids, ['macro-forgotten']);
      assert.equal(a.r.forgotten, 1);
      const b = ids(arch, cfg(2));
      assert.deepEqual(b.ids, []);
      assert.equal(b.r.forgotten, 0);
    });
  }
});

describe('hazard: macro-insn-nop', () => {
  // Template 0 is SFPNOT, a Simple instruction: on the MAD sub-unit it executes as SFPNOP.
  const cfg = (sequence: string) =>
    `TTI_SFPNOT(0, 0, 12, 0);\n${sequence}${setMisc(0, 0, 0)}${loadMacro(0, 1, INT32, 0, 0)}TTI_SFPNOP;\n`;
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: a Simple template selected for the MAD sub-unit; fine on the Simple sub-unit`, () => {
      const a = ids(arch, cfg(setSequence(0, 0, seqByte(4, 0, false, true))));
      assert.deepEqual(a.ids, ['macro-insn-nop']);
      assert.deepEqual([...a.m.lreg(16)], new Array(32).fill(0)); // nothing was written
      assert.deepEqual(ids(arch, cfg(setSequence(0, seqByte(4, 0, false, true)))).ids, []);
    });
  }
});

describe('hazard: config-backdoor-next', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: a VD 12..15 instruction right after SFPCONFIG flips DISABLE_BACKDOOR_LOAD`, () => {
      assert.deepEqual(ids(arch, 'TTI_SFPCONFIG(2, 15, 1);\nTTI_SFPNOT(0, 3, 13, 0);\n').ids, [
        'config-backdoor-next',
      ]);
      assert.deepEqual(
        ids(arch, 'TTI_SFPCONFIG(2, 15, 1);\nTTI_SFPNOP;\nTTI_SFPNOT(0, 3, 13, 0);\n').ids,
        [],
      );
      // an SFPCONFIG that leaves the bit as it was
      assert.deepEqual(ids(arch, 'TTI_SFPCONFIG(0, 15, 1);\nTTI_SFPNOT(0, 3, 13, 0);\n').ids, []);
    });
  }
});

describe('hazard modes', () => {
  it('strict throws on the first hazard with its id and instruction index; off reports nothing', () => {
    const src = madThen('', 'TTI_SFPMOV(0, 3, 4, 0);\n');
    assert.throws(
      () => ids('wormhole', src, { hazards: 'strict' }),
      (e: unknown) =>
        e instanceof AxsimError && /^hazard early-read/.test(e.message) && e.location?.index === 5,
    );
    assert.deepEqual(ids('wormhole', src, { hazards: 'off' }).ids, []);
  });
  it('every hazard id has a triggering test above', () => {
    assert.deepEqual([...covered].sort(), [...HAZARD_IDS].sort());
  });
});
