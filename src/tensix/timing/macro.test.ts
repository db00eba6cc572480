/**
 * SFPLOADMACRO, one scenario per rule of its functional model (tt-isa-documentation
 * WormholeB0/BlackholeA0 SFPLOADMACRO.md, spec 000). Expected states are derived by hand from the
 * model; the derivation is in each test's comments.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { assemble } from '../asm/index.ts';
import type { Arch } from '../encoding.ts';
import type { TensixMachine } from '../index.ts';
import {
  loadConst,
  loadMacro,
  machine,
  runSrc,
  scheduledOn,
  seqByte,
  setMisc,
  setSequence,
} from './testkit.ts';

const ARCHS: Arch[] = ['wormhole', 'blackhole'];
const INT32 = 4;
const FP32 = 3;

/** Dst row r, column c (32-bit view) holds 0x40000000 + 16r + c. */
function fillDst(m: TensixMachine, f: (i: number) => number = (i) => 0x40000000 + i): void {
  const v = new Uint32Array(64 * 16);
  for (let i = 0; i < v.length; i++) v[i] = f(i) >>> 0;
  m.writeDstRows(0, v, 'fp32');
}
// What SFPLOAD (INT32) reads from the fillDst pattern: lane l <- Row (Addr & ~3) + l/8,
// Col 2*(l & 7) + ((Addr >> 1) & 1) (SFPU-FORMAT.md addressing), i.e. 0x40000000 + 16*Row + Col:
/** Addr 0: rows 0..3, even columns. */
const AT_0 = [
  0x40000000,
  0x40000002,
  0x40000004,
  0x40000006,
  0x40000008,
  0x4000000a,
  0x4000000c,
  0x4000000e, // row 0, even columns
  0x40000010,
  0x40000012,
  0x40000014,
  0x40000016,
  0x40000018,
  0x4000001a,
  0x4000001c,
  0x4000001e, // row 1, even columns
  0x40000020,
  0x40000022,
  0x40000024,
  0x40000026,
  0x40000028,
  0x4000002a,
  0x4000002c,
  0x4000002e, // row 2, even columns
  0x40000030,
  0x40000032,
  0x40000034,
  0x40000036,
  0x40000038,
  0x4000003a,
  0x4000003c,
  0x4000003e, // row 3, even columns
];
/** Addr 2: rows 0..3, odd columns. */
const AT_2 = [
  0x40000001,
  0x40000003,
  0x40000005,
  0x40000007,
  0x40000009,
  0x4000000b,
  0x4000000d,
  0x4000000f, // row 0, odd columns
  0x40000011,
  0x40000013,
  0x40000015,
  0x40000017,
  0x40000019,
  0x4000001b,
  0x4000001d,
  0x4000001f, // row 1, odd columns
  0x40000021,
  0x40000023,
  0x40000025,
  0x40000027,
  0x40000029,
  0x4000002b,
  0x4000002d,
  0x4000002f, // row 2, odd columns
  0x40000031,
  0x40000033,
  0x40000035,
  0x40000037,
  0x40000039,
  0x4000003b,
  0x4000003d,
  0x4000003f, // row 3, odd columns
];
/** Addr 4: rows 4..7, even columns. */
const AT_4 = [
  0x40000040,
  0x40000042,
  0x40000044,
  0x40000046,
  0x40000048,
  0x4000004a,
  0x4000004c,
  0x4000004e, // row 4, even columns
  0x40000050,
  0x40000052,
  0x40000054,
  0x40000056,
  0x40000058,
  0x4000005a,
  0x4000005c,
  0x4000005e, // row 5, even columns
  0x40000060,
  0x40000062,
  0x40000064,
  0x40000066,
  0x40000068,
  0x4000006a,
  0x4000006c,
  0x4000006e, // row 6, even columns
  0x40000070,
  0x40000072,
  0x40000074,
  0x40000076,
  0x40000078,
  0x4000007a,
  0x4000007c,
  0x4000007e, // row 7, even columns
];
/** Observes Dst after a store: the 32 values at `addr`, by the same documented lane mapping. */
function storedAt(m: TensixMachine, addr: number): number[] {
  const rows = m.readDstRows(addr & ~3, 4 * 16, 'int32');
  const odd = (addr >> 1) & 1;
  return Array.from({ length: 32 }, (_, l) => rows[(l >> 3) * 16 + 2 * (l & 7) + odd]!);
}
const lreg = (m: TensixMachine, r: number) => [...m.lreg(r)];
const word = (src: string, arch: Arch) => assemble(src, arch).words[0]!;

describe('SFPLOADMACRO: the SFPLOAD part', () => {
  for (const arch of ARCHS) {
    it(`${arch}: VD = VDHi:VDLo and the address from Imm9`, () => {
      const m = machine(arch);
      fillDst(m);
      const expected = AT_4; // Imm9 = 2 -> Imm10 = 4 | VDHi -> rows 4..7, even columns
      runSrc(m, loadMacro(0, 5, INT32, 0, 2));
      assert.deepEqual(lreg(m, 5), expected);
      assert.deepEqual(lreg(m, 1), new Array(32).fill(0));
    });
  }
});

describe('LoadMacroConfig writes', () => {
  for (const arch of ARCHS) {
    it(`${arch}: backdoor template load, DISABLE_BACKDOOR_LOAD, SFPCONFIG of Sequence and Misc`, () => {
      const m = machine(arch);
      runSrc(m, 'TTI_SFPNOT(0, 3, 12, 0);');
      assert.equal(m.state.lmTemplates[0], word('TTI_SFPNOT(0, 3, 12, 0);', arch));
      // LaneConfig.DISABLE_BACKDOOR_LOAD (bit 1): the VD = 13 instruction executes instead (writes nothing).
      runSrc(m, 'TTI_SFPCONFIG(2, 15, 1);\nTTI_SFPNOP;\nTTI_SFPNOT(0, 3, 13, 0);');
      assert.equal(m.state.lmTemplates[1], 0);
      runSrc(m, setSequence(2, 0x11, 0x22, 0x33, 0x44) + setMisc(3, 5, 9));
      assert.equal(m.state.lmSequence[2], 0x44332211);
      assert.equal(m.state.lmMisc, 0x953);
    });
  }
});

describe('VB / VC / VD overrides (Sequence bits 7 and 6)', () => {
  // Template[1] = SFPIADD VC=2, VD=13, CC_NONE: VD = VC + VB, where the model sets VB = Insn.VD (13)
  // when bit 7 is clear ("VB is None") and VB = VD when set. L2 = B, L13 = C, macro VD = 1 loads A.
  const B = 0x100;
  const C = 0x7000;
  for (const arch of ARCHS) {
    for (const [b7, b6] of [
      [false, false],
      [true, false],
      [true, true],
      [false, true],
    ] as const) {
      it(`${arch}: bit7=${+b7} bit6=${+b6}`, () => {
        const m = machine(arch);
        fillDst(m);
        const A = AT_0;
        const src =
          'TTI_SFPIADD(0, 2, 13, 4);\n' +
          loadConst(0, C) +
          'TTI_SFPCONFIG(0, 13, 0);\n' +
          setSequence(0, seqByte(5, 0, b7, b6)) +
          setMisc(0, 0, 0) +
          loadConst(2, B) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_SFPNOP;\nTTI_SFPNOP;\n';
        runSrc(m, src);
        // bit 7 clear: VC = 1 (A), VB = 13 (C); set: VB = 1 (A), VC = 2 (B). bit 6: VD = 16 else 1.
        const sum = A.map((a) => (a + (b7 ? B : C)) >>> 0);
        assert.deepEqual(lreg(m, b6 ? 16 : 1), sum);
        if (b6) assert.deepEqual(lreg(m, 1), A);
      });
    }
  }
});

describe('LReg[16] and the Store sub-unit', () => {
  const notTemplate = 'TTI_SFPNOT(0, 0, 12, 0);\n';
  for (const arch of ARCHS) {
    it(`${arch}: a scheduled SFPNOT writes LReg[16], a scheduled SFPSTORE reads it`, () => {
      const m = machine(arch);
      fillDst(m);
      const A = AT_0;
      runSrc(
        m,
        notTemplate +
          setSequence(0, seqByte(4, 0, false, true), 0, 0, seqByte(3, 1, false, true)) +
          setMisc(0, 1, 0) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_SFPNOP;\nTTI_SFPNOP;\nTTI_SFPNOP;\n',
      );
      const notA = A.map((a) => ~a >>> 0);
      assert.deepEqual(lreg(m, 16), notA);
      assert.deepEqual(lreg(m, 1), A);
      assert.deepEqual(storedAt(m, 0), notA);
    });

    it(`${arch}: the store goes to SFPLOADMACRO's address, no ADDR_MOD, despite RWC changes`, () => {
      const m = machine(arch);
      fillDst(m);
      m.setAddrMod(0, { incr: 2 });
      const A = AT_0;
      const odd = AT_2;
      runSrc(
        m,
        notTemplate +
          setSequence(0, seqByte(4, 0, false, true), 0, 0, seqByte(3, 2, false, true)) +
          setMisc(0, 1, 0) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_INCRWC(0, 8, 0, 0);\nTTI_SFPNOP;\nTTI_SFPNOP;\nTTI_SFPNOP;\n',
      );
      assert.deepEqual(
        storedAt(m, 0),
        A.map((a) => ~a >>> 0),
      );
      assert.deepEqual(storedAt(m, 2), odd);
      // RWC: +2 by the load's ADDR_MOD, +8 by INCRWC, nothing by the store.
      assert.equal(m.state.rwcDst, 10);
    });

    for (const uses of [0, 1]) {
      it(`${arch}: store Mod0 = ${uses ? "SFPLOADMACRO's Mod0 (INT32)" : 'Misc.StoreMod0 (FP32)'}`, () => {
        const m = machine(arch);
        fillDst(m, () => 0xff800001); // ~x = 0x007ffffe, a denormal: FP32 stores flush it to +0
        runSrc(
          m,
          notTemplate +
            setSequence(0, seqByte(4, 0, false, true), 0, 0, seqByte(3, 1, false, true)) +
            setMisc(FP32, uses, 0) +
            loadMacro(0, 1, INT32, 0, 0) +
            'TTI_SFPNOP;\nTTI_SFPNOP;\nTTI_SFPNOP;\n',
        );
        assert.deepEqual(storedAt(m, 0), new Array(32).fill(uses ? 0x007ffffe : 0));
      });
    }
  }
});

describe('Sequence selectors', () => {
  for (const arch of ARCHS) {
    it(`${arch}: 2 = SFPNOP, 3 = SFPSTORE (bit 7 keeps its VD = 0, clear sets VD), 1 = undefined`, () => {
      const m = machine(arch);
      fillDst(m);
      const A = AT_0;
      const D = 0x12345678;
      const r = runSrc(
        m,
        setSequence(0, seqByte(2), 0, 0, seqByte(3, 0, true)) +
          setMisc(0, 1, 0) +
          loadConst(0, D) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_SFPNOP;\nTTI_SFPNOP;\n',
      );
      assert.deepEqual(storedAt(m, 0), new Array(32).fill(D)); // stored LReg[0]
      assert.deepEqual(lreg(m, 1), A);
      assert.equal(scheduledOn(r, 'simple')[0]?.text, '[1] nop');

      const m2 = machine(arch);
      fillDst(m2);
      runSrc(
        m2,
        'TTI_SFPNOT(0, 0, 12, 0);\n' +
          setSequence(0, seqByte(4, 0), 0, 0, seqByte(3, 1)) +
          setMisc(0, 1, 0) +
          loadConst(0, D) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_SFPNOP;\nTTI_SFPNOP;\nTTI_SFPNOP;\n',
      );
      // Simple: L1 = ~A at t+1; Store (VD = 1, bit 7 clear) at t+2 stores ~A, not D.
      assert.deepEqual(
        storedAt(m2, 0),
        A.map((a) => ~a >>> 0),
      );

      const m3 = machine(arch);
      assert.throws(
        () => runSrc(m3, setSequence(0, seqByte(1)) + loadMacro(0, 1, INT32, 0, 0)),
        (e: unknown) =>
          e instanceof AxsimError && e.category === 'UndefinedBehaviour' && /selector 1/.test(e.message),
      );
    });
  }
});

describe('Delay counting', () => {
  const prologue = `TTI_SFPNOT(0, 0, 12, 0);\n`;
  for (const arch of ARCHS) {
    it(`${arch}: delay 0 runs on the next cycle; WaitForElapsedCycles counts cycles`, () => {
      const m = machine(arch);
      const r0 = runSrc(
        m,
        prologue +
          setSequence(0, seqByte(4, 0, false, true)) +
          setMisc(0, 0, 0) +
          loadMacro(0, 1, INT32, 0, 0),
      );
      const t0 = r0.issueCycle[r0.issueCycle.length - 1]!;
      assert.deepEqual(
        scheduledOn(r0, 'simple').map((e) => e.cycle),
        [t0 + 1],
      );
      // Delay 3, cycles kind: counts down on t+1, t+2, t+3 (Tensix NOPs are not SFPU instructions), runs at t+4.
      const r = runSrc(
        machine(arch),
        prologue +
          setSequence(0, seqByte(4, 3, false, true)) +
          setMisc(0, 0, 0) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_NOP;\n'.repeat(6),
      );
      const t = r.issueCycle[r.issueCycle.length - 7]!;
      assert.deepEqual(
        scheduledOn(r, 'simple').map((e) => e.cycle),
        [t + 4],
      );
    });

    it(`${arch}: WaitForElapsedInstructions counts SFPU instructions only`, () => {
      // macro at t; NOP x3 (t+1..t+3, no count); SFPNOP at t+4, t+5, t+6 count 3 -> 2 -> 1 -> 0; runs at t+7.
      const r = runSrc(
        machine(arch),
        prologue +
          setSequence(0, seqByte(4, 3, false, true)) +
          setMisc(0, 0, 1) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_NOP;\n'.repeat(3) +
          'TTI_SFPNOP;\n'.repeat(3),
      );
      const t = r.issueCycle[r.issueCycle.length - 7]!;
      assert.deepEqual(
        scheduledOn(r, 'simple').map((e) => e.cycle),
        [t + 7],
      );
    });

    it(`${arch}: once any outstanding instruction has the instructions kind, all count instructions`, () => {
      // Simple: cycles kind, delay 3; Store: instructions kind (UnitDelayKind bit 3), delay 5.
      // macro at t; NOP x4 at t+1..t+4: nothing counts (the store is outstanding);
      // SFPNOPs from t+5: Simple 3->0 at t+7 -> runs t+8; Store 5->0 at t+9 -> runs t+10.
      const r = runSrc(
        machine(arch),
        prologue +
          setSequence(0, seqByte(4, 3, false, true), 0, 0, seqByte(3, 5, false, true)) +
          setMisc(0, 1, 8) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_NOP;\n'.repeat(4) +
          'TTI_SFPNOP;\n'.repeat(6),
      );
      const t = r.issueCycle[r.issueCycle.length - 11]!;
      assert.deepEqual(
        scheduledOn(r, 'simple').map((e) => e.cycle),
        [t + 8],
      );
      assert.deepEqual(
        scheduledOn(r, 'store').map((e) => e.cycle),
        [t + 10],
      );
    });
  }
});

describe('Forget any instruction scheduled at the same delay', () => {
  // Template[0] = SFPNOT; Template[1] = SFPIADD imm 1 (Mod1 = ARG_IMM | CC_NONE): VD = VC + 1.
  const templates = 'TTI_SFPNOT(0, 0, 12, 0);\nTTI_SFPIADD(1, 0, 13, 5);\n';
  for (const arch of ARCHS) {
    it(`${arch}: a later macro at the same remaining delay replaces the earlier one`, () => {
      const m = machine(arch);
      fillDst(m);
      const A2 = AT_2;
      // M0 at t: NOT -> L16, delay 2. At t+1 its counter is 1 when M1 schedules IADD -> L16 with
      // delay 1: the NOT is forgotten; the IADD runs at t+3: L16 = A2 + 1.
      const r = runSrc(
        m,
        templates +
          setSequence(0, seqByte(4, 2, false, true)) +
          setSequence(1, seqByte(5, 1, false, true)) +
          setMisc(0, 0, 0) +
          loadMacro(0, 1, INT32, 0, 0) +
          loadMacro(1, 2, INT32, 0, 1) +
          'TTI_SFPNOP;\n'.repeat(3),
      );
      const t = r.issueCycle[r.issueCycle.length - 5]!;
      assert.equal(r.forgotten, 1);
      assert.deepEqual(
        scheduledOn(r, 'simple').map((e) => e.cycle),
        [t + 3],
      );
      assert.deepEqual(
        lreg(m, 16),
        A2.map((a) => (a + 1) >>> 0),
      );
    });

    it(`${arch}: a zero selector forgets nothing (spec 000 order)`, () => {
      const m = machine(arch);
      fillDst(m);
      const A = AT_0;
      const r = runSrc(
        m,
        templates +
          setSequence(0, seqByte(4, 2, false, true)) +
          setSequence(1, seqByte(0, 1)) +
          setMisc(0, 0, 0) +
          loadMacro(0, 1, INT32, 0, 0) +
          loadMacro(1, 2, INT32, 0, 1) +
          'TTI_SFPNOP;\n'.repeat(3),
      );
      assert.equal(r.forgotten, 0);
      assert.deepEqual(
        lreg(m, 16),
        A.map((a) => ~a >>> 0),
      );
    });
  }
});

describe('Sub-unit eligibility', () => {
  for (const arch of ARCHS) {
    it(`${arch}: an ineligible template becomes SFPNOP; the Store sub-unit fed anything else is undefined`, () => {
      const m = machine(arch);
      fillDst(m);
      const r = runSrc(
        m,
        'TTI_SFPMAD(0, 0, 0, 12, 0);\n' + // MAD-family template on the Simple sub-unit
          setSequence(0, seqByte(4, 0, false, true)) +
          setMisc(0, 0, 0) +
          loadMacro(0, 1, INT32, 0, 0) +
          'TTI_SFPNOP;\n',
      );
      assert.equal(scheduledOn(r, 'simple')[0]?.text, '[1] nop');
      assert.deepEqual(lreg(m, 16), new Array(32).fill(0));
      assert.throws(
        () =>
          runSrc(
            machine(arch),
            `TTI_SFPNOT(0, 0, 12, 0);\n${setSequence(0, 0, 0, 0, seqByte(4))}${loadMacro(0, 1, INT32, 0, 0)}`,
          ),
        (e: unknown) =>
          e instanceof AxsimError && e.category === 'UndefinedBehaviour' && /Store sub-unit/.test(e.message),
      );
    });
  }
});

describe('Scheduled vs regular instruction on the same sub-unit and cycle', () => {
  for (const arch of ARCHS) {
    it(`${arch}: the scheduled one wins, the regular one is discarded and reported`, () => {
      const m = machine(arch);
      fillDst(m);
      const src =
        'TTI_SFPNOT(0, 0, 12, 0);\n' +
        setSequence(0, seqByte(4, 0, false, true)) +
        setMisc(0, 0, 0) +
        loadConst(3, 0x0f0f0f0f) +
        loadMacro(0, 1, INT32, 0, 0);
      // Regular SFPNOT L4 = ~L3 on the cycle the scheduled SFPNOT reaches the Simple sub-unit.
      const r = runSrc(m, `${src}TTI_SFPNOT(0, 3, 4, 0);\n`);
      assert.equal(r.discarded, 1);
      assert.deepEqual(
        r.hazards.map((h) => h.id),
        ['regular-discarded'],
      );
      assert.deepEqual(lreg(m, 4), new Array(32).fill(0));
      // One SFPNOP later it is not discarded.
      const m2 = machine(arch);
      fillDst(m2);
      const r2 = runSrc(m2, `${src}TTI_SFPNOP;\nTTI_SFPNOT(0, 3, 4, 0);\n`);
      assert.equal(r2.discarded, 0);
      assert.deepEqual(lreg(m2, 4), new Array(32).fill(0xf0f0f0f0));
    });
  }
});
