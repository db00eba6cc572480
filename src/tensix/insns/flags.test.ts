/**
 * Lane flags, the flag stack and flag-setting instructions (SFPSETCC.md, SFPENCC.md, SFPPUSHC.md,
 * SFPPOPC.md, SFPCOMPC.md, SFPIADD.md, SFPLZ.md, SFPEXEXP.md; BlackholeA0 SFPLE.md, SFPGT.md,
 * SFPPUSHC.md; spec 003 on overflow/underflow; SFPU-NOTES A4, C1).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { exec, getL, hex, machine, setL, w } from '../testutil.ts';

const PUSH = (arch: 'wormhole' | 'blackhole' = 'wormhole', mod1 = 0) =>
  w('SFPPUSHC', { instr_mod1: mod1 }, arch);
const POP = (arch: 'wormhole' | 'blackhole' = 'wormhole', mod1 = 0) =>
  w('SFPPOPC', { instr_mod1: mod1 }, arch);

test('SFPSETCC modes refine LaneFlags in enabled lanes only; with flags disabled it clears them (docs)', () => {
  const st = machine();
  setL(st, 1, [5, 0, -3 >>> 0, 0x80000000]);
  st.useLaneFlags = 1;
  const cases: [number, number][] = [
    [0, 0x44444444 * 3], // < 0: lanes 2,3 of each 4
    [2, 0xdddddddd], // != 0
    [4, 0x33333333], // >= 0
    [6, 0x22222222], // == 0
  ];
  for (const [mod1, expect] of cases) {
    st.laneFlags = -1;
    exec(st, [w('SFPSETCC', { instr_mod1: mod1, lreg_c: 1 })]);
    assert.equal(hex(st.laneFlags), hex(expect >>> 0), `mod1=${mod1}`);
  }
  // refinement: previously disabled lanes stay as they are
  st.laneFlags = 0x0000ffff;
  exec(st, [w('SFPSETCC', { instr_mod1: 2, lreg_c: 1 })]);
  assert.equal(hex(st.laneFlags), hex(0x0000dddd));
  // IMM_BIT0 (bit 0) sets from Imm1; CLEAR (bit 3) clears
  st.laneFlags = 0x0f;
  exec(st, [w('SFPSETCC', { instr_mod1: 1, imm12_math: 0 })]);
  assert.equal(st.laneFlags, 0);
  st.laneFlags = 0x0f;
  exec(st, [w('SFPSETCC', { instr_mod1: 8 })]);
  assert.equal(st.laneFlags, 0);
  // UseLaneFlagsForLaneEnable false: every lane enabled, LaneFlags cleared (ttsim refuses this)
  st.useLaneFlags = 0;
  st.laneFlags = -1;
  exec(st, [w('SFPSETCC', { instr_mod1: 6, lreg_c: 1 })]);
  assert.equal(st.laneFlags, 0);
});

test('SFPENCC: Mod1 0 sets all flags; Mod1 10 takes enable and flags from Imm bits 0/1 (SFPU-NOTES A4); EC inverts', () => {
  const st = machine();
  st.laneFlags = 0x0f0f0f0f;
  exec(st, [w('SFPENCC', { instr_mod1: 10, imm12_math: 1 })]);
  assert.deepEqual([st.useLaneFlags, st.laneFlags], [1, 0]);
  exec(st, [w('SFPENCC', { instr_mod1: 10, imm12_math: 2 })]);
  assert.deepEqual([st.useLaneFlags, st.laneFlags], [0, -1]);
  exec(st, [w('SFPENCC', { instr_mod1: 1 })]); // EC: invert enable, flags all set
  assert.deepEqual([st.useLaneFlags, st.laneFlags], [1, -1]);
  st.laneFlags = 5;
  exec(st, [w('SFPENCC', { instr_mod1: 0 })]);
  assert.deepEqual([st.useLaneFlags, st.laneFlags], [1, -1]);
});

test('SIMT if/else/endif with nesting (SFPU-PERF workload (iv) masks)', () => {
  const st = machine();
  setL(
    st,
    0,
    Array.from({ length: 32 }, (_, l) => (l & 1 ? -(l + 1) : l + 1) >>> 0),
  );
  setL(
    st,
    1,
    Array.from({ length: 32 }, (_, l) => (l < 16 ? l : l - 32) >>> 0),
  );
  setL(
    st,
    3,
    Array.from({ length: 32 }, (_, l) => (l & 2 ? 0 : l + 100)),
  );
  st.useLaneFlags = 1;
  st.laneFlags = -1;
  exec(st, [PUSH(), w('SFPSETCC', { lreg_c: 0 })]);
  assert.equal(hex(st.laneFlags), '0xaaaaaaaa');
  exec(st, [w('SFPCOMPC')]);
  assert.equal(hex(st.laneFlags), '0x55555555');
  exec(st, [POP(), PUSH(), w('SFPSETCC', { instr_mod1: 4, lreg_c: 1 })]);
  assert.equal(hex(st.laneFlags), '0x0000ffff');
  exec(st, [PUSH(), w('SFPSETCC', { instr_mod1: 2, lreg_c: 3 })]);
  assert.equal(hex(st.laneFlags), '0x00003333');
  exec(st, [POP()]);
  assert.equal(hex(st.laneFlags), '0x0000ffff');
  exec(st, [w('SFPCOMPC')]);
  assert.equal(hex(st.laneFlags), '0xffff0000');
  exec(st, [POP()]);
  assert.deepEqual([st.useLaneFlags, st.laneFlags, st.stackSize], [1, -1, 0]);
});

test('flag stack: 8 entries; 9th push and empty pop are UndefinedBehaviour; "wrap" models spec 003', () => {
  const st = machine();
  st.useLaneFlags = 1;
  for (let k = 0; k < 8; k++) {
    st.laneFlags = 1 << k;
    exec(st, [PUSH()]);
  }
  assert.equal(st.stackSize, 8);
  assert.throws(
    () => exec(st, [PUSH()]),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour' && e.location?.index === 0,
  );
  for (let k = 7; k >= 0; k--) {
    exec(st, [POP()]);
    assert.equal(st.laneFlags, 1 << k);
  }
  assert.throws(
    () => exec(st, [POP()]),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
  // wrap policy: the 9th push overwrites entry 0, the counter keeps counting (4 bits)
  st.flagStackPolicy = 'wrap';
  for (let k = 0; k < 9; k++) {
    st.laneFlags = 1 << k;
    exec(st, [PUSH()]);
  }
  assert.deepEqual([st.stackSize, st.stackFlags[0]], [9, 1 << 8]);
  for (let k = 0; k < 7; k++) exec(st, [PUSH()]);
  assert.equal(st.stackSize, 0); // 16 pushes wrap the 4-bit counter
  exec(st, [POP()]); // underflow: counter 15, all lanes active
  assert.deepEqual([st.stackSize, st.useLaneFlags, st.laneFlags], [15, 0, -1]);
});

test('SFPPOPC Mod1 1..15: BooleanOp, invert, constants; the WH full-stack bug overwrites the bottom entry', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const st = machine(arch);
    st.useLaneFlags = 1;
    st.laneFlags = 0b1100;
    exec(st, [PUSH(arch)]);
    st.laneFlags = 0b1010;
    exec(st, [POP(arch, 3)]); // A && B
    assert.equal(st.laneFlags, 0b1000);
    st.laneFlags = 0b1010;
    exec(st, [POP(arch, 11)]); // A != B
    assert.equal(st.laneFlags, 0b0110);
    exec(st, [POP(arch, 13)]); // invert
    assert.equal(st.laneFlags, ~0b0110);
    exec(st, [POP(arch, 15)]);
    assert.deepEqual([st.useLaneFlags, st.laneFlags, st.stackSize], [1, 0, 1]);
    // full stack: WH copies the top to the bottom entry, BH does not
    for (let k = 1; k < 8; k++) {
      st.laneFlags = 0x100 << k;
      exec(st, [PUSH(arch)]);
    }
    exec(st, [POP(arch, 1)]);
    assert.equal(st.stackFlags[0], arch === 'wormhole' ? 0x100 << 7 : 0b1100, arch);
  }
});

test('Blackhole SFPPUSHC Mod1 != 0 rewrites the top entry; on WH it is a plain push', () => {
  const bh = machine('blackhole');
  bh.useLaneFlags = 1;
  bh.laneFlags = 0b1100;
  exec(bh, [PUSH('blackhole')]);
  bh.laneFlags = 0b1010;
  exec(bh, [PUSH('blackhole', 4)]); // top = top || flags
  assert.deepEqual([bh.stackSize, bh.stackFlags[0]], [1, 0b1110]);
  assert.throws(() => exec(machine('blackhole'), [PUSH('blackhole', 4)]), AxsimError);
  const wh = machine('wormhole');
  exec(wh, [PUSH('wormhole', 4)]);
  assert.equal(wh.stackSize, 1);
});

test('SFPCOMPC uses the top of the stack as context; with flags disabled it clears LaneFlags (docs)', () => {
  const st = machine();
  st.useLaneFlags = 1;
  st.laneFlags = 0x0000ffff;
  exec(st, [PUSH()]);
  st.laneFlags = 0x000000ff;
  exec(st, [w('SFPCOMPC')]);
  assert.equal(hex(st.laneFlags), '0x0000ff00');
  st.useLaneFlags = 0;
  exec(st, [w('SFPCOMPC')]);
  assert.equal(st.laneFlags, 0);
});

test('flag-setting SFPIADD (incl. INT32_MIN wrap), SFPLZ, SFPEXEXP', () => {
  const st = machine();
  st.useLaneFlags = 1;
  setL(st, 1, [0x7fffffff, 0x80000000, 5, 0]);
  setL(st, 2, [1, 0xffffffff, 0xfffffffb, 0]);
  st.laneFlags = -1;
  exec(st, [w('SFPIADD', { instr_mod1: 0, lreg_dest: 2, lreg_c: 1 })]); // L2 = L1 + L2, flags = < 0
  assert.deepEqual(getL(st, 2).slice(0, 4).map(hex), [
    '0x80000000',
    '0x7fffffff',
    '0x00000000',
    '0x00000000',
  ]);
  assert.equal(st.laneFlags & 0xf, 0b0001);
  st.laneFlags = -1;
  setL(st, 3, 10);
  exec(st, [w('SFPIADD', { instr_mod1: 9, lreg_dest: 3, lreg_c: 3, imm12_math: 0xff5 })]); // 10 - 11, flags = >= 0
  assert.equal(getL(st, 3)[0], 0xffffffff);
  assert.equal(st.laneFlags, 0);
  // SFPLZ: counts on the masked value, flags on != 0
  st.laneFlags = -1;
  setL(st, 4, [0x80000000, 1, 0, 0x00010000]);
  exec(st, [w('SFPLZ', { instr_mod1: 6, lreg_dest: 5, lreg_c: 4 })]); // NOSGN_MASK + CC_NE0
  assert.deepEqual(getL(st, 5).slice(0, 4), [32, 31, 32, 15]);
  assert.equal(st.laneFlags & 0xf, 0b1010);
  // SFPEXEXP mod1=10: exponent - 127, flags = >= 0
  st.laneFlags = -1;
  setL(st, 6, [0x3f800000, 0x3f000000, 0, 0x7f800000]);
  exec(st, [w('SFPEXEXP', { instr_mod1: 10, lreg_dest: 7, lreg_c: 6 })]);
  assert.deepEqual(getL(st, 7).slice(0, 4), [0, 0xffffffff, -127 >>> 0, 128]);
  assert.equal(st.laneFlags & 0xf, 0b1001);
});

test('Blackhole SFPLE / SFPGT in sign-magnitude total order (SFPU-NOTES C1), SET_VD, stack mutation', () => {
  const st = machine('blackhole');
  const d = [0x3f800000, 0x80000000, 0, 0x7fc00000, 0xff800000, 0xc0a00000];
  const c = [0x3f800000, 0, 0x80000000, 0x7f800000, 0xffc00000, 0xc0c00000];
  setL(st, 0, d);
  setL(st, 1, c);
  exec(st, [w('SFPLE', { instr_mod1: 8, lreg_dest: 0, lreg_c: 1 }, 'blackhole')]);
  assert.deepEqual(getL(st, 0).slice(0, 5).map(hex), [
    '0xffffffff',
    '0xffffffff',
    '0x00000000',
    '0x00000000',
    '0x00000000',
  ]);
  setL(st, 0, d);
  st.useLaneFlags = 1;
  st.laneFlags = -1;
  exec(st, [w('SFPGT', { instr_mod1: 1, lreg_dest: 0, lreg_c: 1 }, 'blackhole')]);
  assert.equal(st.laneFlags & 0x3f, 0b111100);
  // MUTATE_STACK (2) ANDs the comparison of all lanes into the top entry
  st.laneFlags = -1;
  exec(st, [PUSH('blackhole'), w('SFPGT', { instr_mod1: 2, lreg_dest: 0, lreg_c: 1 }, 'blackhole')]);
  assert.equal(st.stackFlags[0]! & 0x3f, 0b111100);
});
