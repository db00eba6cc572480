/**
 * Instructions that behave on Blackhole as on Wormhole (SFPU-NOTES.md lists no Blackhole change for
 * them in section C, and section E finds ttsim matching the documents), run on Blackhole. Expected
 * values are worked by hand from the functional models of the WormholeB0 pages named in each test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { TensixMachine } from '../index.ts';
import { exec, execOn, getL, hex, machine, setL, w } from '../testutil.ts';

const BH = 'blackhole';
const h = (xs: number[]) => xs.map(hex);

test('Blackhole SFPABS (float and integer), SFPOR, SFPXOR, SFPNOT (SFPABS.md, SFPOR.md, SFPXOR.md, SFPNOT.md)', () => {
  const st = machine(BH);
  // float mode clears the sign (a denormal is not flushed; +Inf stays)
  setL(st, 1, [0xc0490fdb, 0x80000001, 0x7f800000]);
  exec(st, [w('SFPABS', { instr_mod1: 1, lreg_dest: 2, lreg_c: 1 }, BH)]);
  assert.deepEqual(h(getL(st, 2).slice(0, 3)), h([0x40490fdb, 0x00000001, 0x7f800000]));
  // integer mode: two's complement absolute value, INT32_MIN unchanged
  setL(st, 1, [-7 >>> 0, 0x80000000, 9]);
  exec(st, [w('SFPABS', { instr_mod1: 0, lreg_dest: 2, lreg_c: 1 }, BH)]);
  assert.deepEqual(h(getL(st, 2).slice(0, 3)), h([7, 0x80000000, 9]));
  // 0x12345678 | 0x0f0f0f0f = 0x1f3f5f7f; ^ = 0x1d3b5977; ~0x0f0f0f0f = 0xf0f0f0f0
  setL(st, 3, 0x12345678);
  setL(st, 4, 0x0f0f0f0f);
  setL(st, 5, 0x12345678);
  exec(st, [
    w('SFPOR', { lreg_dest: 3, lreg_c: 4 }, BH),
    w('SFPXOR', { lreg_dest: 5, lreg_c: 4 }, BH),
    w('SFPNOT', { lreg_dest: 6, lreg_c: 4 }, BH),
  ]);
  assert.deepEqual(
    h([getL(st, 3)[0]!, getL(st, 5)[0]!, getL(st, 6)[0]!]),
    h([0x1f3f5f7f, 0x1d3b5977, 0xf0f0f0f0]),
  );
});

test('Blackhole SFPIADD, SFPLZ, SFPEXEXP (SFPIADD.md, SFPLZ.md, SFPEXEXP.md)', () => {
  const st = machine(BH);
  // Mod1 5 = ARG_IMM | CC_NONE: VD = VC + SignExtend(Imm12); 100 + (-32) = 68
  setL(st, 1, 100);
  exec(st, [w('SFPIADD', { instr_mod1: 5, lreg_dest: 2, lreg_c: 1, imm12_math: 0xfe0 }, BH)]);
  assert.equal(getL(st, 2)[0], 68);
  // Mod1 4 = CC_NONE, register form: VD = VC + VD; 100 + (-256) = -156
  setL(st, 3, 0xffffff00);
  exec(st, [w('SFPIADD', { instr_mod1: 4, lreg_dest: 3, lreg_c: 1 }, BH)]);
  assert.equal(hex(getL(st, 3)[0]!), '0xffffff64');
  // leading zeros of the whole word
  setL(st, 4, [0x00010000, 0, 0x80000000, 1]);
  exec(st, [w('SFPLZ', { instr_mod1: 0, lreg_dest: 5, lreg_c: 4 }, BH)]);
  assert.deepEqual(getL(st, 5).slice(0, 4), [15, 32, 0, 31]);
  // exponent - 127 (Mod1 0), the biased exponent (Mod1 1 = NODEBIAS): 4.0, 0.5, -1.5
  setL(st, 6, [0x40800000, 0x3f000000, 0xbfc00000]);
  exec(st, [w('SFPEXEXP', { instr_mod1: 0, lreg_dest: 7, lreg_c: 6 }, BH)]);
  assert.deepEqual(h(getL(st, 7).slice(0, 3)), h([2, 0xffffffff, 0]));
  exec(st, [w('SFPEXEXP', { instr_mod1: 1, lreg_dest: 7, lreg_c: 6 }, BH)]);
  assert.deepEqual(getL(st, 7).slice(0, 3), [129, 126, 127]);
});

test('Blackhole SFPDIVP2, SFPEXMAN, SFPSETEXP, SFPSETMAN, SFPSETSGN (the FP-field pages)', () => {
  const st = machine(BH);
  // SFPDIVP2 Mod1 1: exponent + SignExtend(Imm8) = -1, so 1.0 -> 0.5; Inf is left alone
  setL(st, 1, [0x3f800000, 0x7f800000]);
  exec(st, [w('SFPDIVP2', { instr_mod1: 1, lreg_dest: 2, lreg_c: 1, imm12_math: 0xfff }, BH)]);
  assert.deepEqual(h(getL(st, 2).slice(0, 2)), h([0x3f000000, 0x7f800000]));
  // -1.5 = 0xbfc00000: mantissa 0x400000, with the implicit bit 0xc00000
  setL(st, 3, 0xbfc00000);
  exec(st, [
    w('SFPEXMAN', { instr_mod1: 0, lreg_dest: 4, lreg_c: 3 }, BH),
    w('SFPEXMAN', { instr_mod1: 1, lreg_dest: 5, lreg_c: 3 }, BH),
  ]);
  assert.deepEqual(h([getL(st, 4)[0]!, getL(st, 5)[0]!]), h([0x00c00000, 0x00400000]));
  // SFPSETEXP immediate: sign and mantissa of -1.5, exponent 126 -> 0x80000000 | 0x3f000000 | 0x400000
  exec(st, [w('SFPSETEXP', { instr_mod1: 1, lreg_dest: 6, lreg_c: 3, imm12_math: 0x7e }, BH)]);
  assert.equal(hex(getL(st, 6)[0]!), '0xbf400000');
  // SFPSETMAN immediate: mantissa = Imm12 << 11 = 0x400000 on 1.0 -> 1.5; SFPSETSGN immediate 1 -> -1.5
  setL(st, 7, 0x3f800000);
  exec(st, [w('SFPSETMAN', { instr_mod1: 1, lreg_dest: 7, lreg_c: 7, imm12_math: 0x800 }, BH)]);
  assert.equal(hex(getL(st, 7)[0]!), '0x3fc00000');
  exec(st, [w('SFPSETSGN', { instr_mod1: 1, lreg_dest: 7, lreg_c: 7, imm12_math: 1 }, BH)]);
  assert.equal(hex(getL(st, 7)[0]!), '0xbfc00000');
});

test('Blackhole SETRWC / INCRWC on RWC_Dst (SETRWC.md, INCRWC.md)', () => {
  const st = machine(BH);
  exec(st, [w('SETRWC', { bit_mask: 4, rwc_d: 8 }, BH)]); // Dst = Dst_Cr = 8
  assert.deepEqual([st.rwcDst, st.rwcDstCr], [8, 8]);
  exec(st, [w('INCRWC', { rwc_d: 2 }, BH)]); // Dst += 2
  assert.deepEqual([st.rwcDst, st.rwcDstCr], [10, 8]);
});

test('Blackhole SFPENCC, SFPSETCC, SFPPUSHC, SFPCOMPC (SFPENCC.md, SFPSETCC.md, SFPCOMPC.md)', () => {
  const st = machine(BH);
  // Mod1 10 with Imm 3: UseLaneFlagsForLaneEnable = Imm bit 0, LaneFlags = Imm bit 1 (SFPU-NOTES A4)
  exec(st, [w('SFPENCC', { instr_mod1: 10, imm12_math: 3 }, BH)]);
  assert.deepEqual([st.useLaneFlags, st.laneFlags], [1, -1]);
  // Mod1 0: LaneFlags = VC < 0; lanes 4k and 4k+3 hold negative values -> 0x9 in every nibble
  setL(st, 1, [0xffffffff, 1, 0, 0x80000000]);
  exec(st, [w('SFPSETCC', { instr_mod1: 0, lreg_c: 1 }, BH)]);
  assert.equal(hex(st.laneFlags), '0x99999999');
  // push; Mod1 6 (VC == 0) refines only the enabled lanes (4k, 4k+3), none of which is zero
  exec(st, [w('SFPPUSHC', {}, BH), w('SFPSETCC', { instr_mod1: 6, lreg_c: 1 }, BH)]);
  assert.equal(st.laneFlags, 0);
  // SFPCOMPC: LaneFlags = top-of-stack flags and not LaneFlags = 0x99999999
  exec(st, [w('SFPCOMPC', {}, BH)]);
  assert.equal(hex(st.laneFlags), '0x99999999');
  // Mod1 0: every flag set, enable unchanged
  exec(st, [w('SFPENCC', { instr_mod1: 0 }, BH)]);
  assert.deepEqual([st.useLaneFlags, st.laneFlags], [1, -1]);
});

test('Blackhole REPLAY: load with execute, then replay from the buffer (REPLAY.md)', () => {
  const m = new TensixMachine(BH);
  m.state.lreg.fill(0, 0, 32);
  const add2 = w('SFPIADD', { instr_mod1: 5, lreg_dest: 0, lreg_c: 0, imm12_math: 2 }, BH); // L0 += 2
  execOn(m, [
    w('REPLAY', { start_idx: 5, len: 3, execute_while_loading: 1, load_mode: 1 }, BH),
    add2,
    add2,
    add2,
  ]);
  assert.equal(m.lreg(0)[0], 6);
  execOn(m, [w('REPLAY', { start_idx: 5, len: 3 }, BH), w('REPLAY', { start_idx: 6, len: 1 }, BH)]); // 3 + 1 more
  assert.equal(m.lreg(0)[0], 14);
});

test('Blackhole SFPLUTFP32 FP32 3-entry table (SFPLUTFP32.md): i by |L3|, VD = L[i] * |L3| + L[4+i]', () => {
  const st = machine(BH);
  setL(st, 0, 0x40000000); // i = 0 (|x| < 1): 2.0 * |x| + 0.5
  setL(st, 4, 0x3f000000);
  setL(st, 1, 0x40400000); // i = 1 (|x| < 2): 3.0 * |x| + 1.0
  setL(st, 5, 0x3f800000);
  setL(st, 2, 0x3f000000); // i = 2: 0.5 * |x| - 1.0
  setL(st, 6, 0xbf800000);
  setL(st, 3, [0x3f000000, 0xbfc00000, 0x40800000]); // 0.5, -1.5, 4.0
  exec(st, [w('SFPLUTFP32', { instr_mod1: 0, lreg_dest: 7 }, BH)]);
  // 2 * 0.5 + 0.5 = 1.5; 3 * 1.5 + 1 = 5.5; 0.5 * 4 - 1 = 1.0 (all exact)
  assert.deepEqual(h(getL(st, 7).slice(0, 3)), h([0x3fc00000, 0x40b00000, 0x3f800000]));
  exec(st, [w('SFPLUTFP32', { instr_mod1: 4, lreg_dest: 7 }, BH)]); // SGN_RETAIN: L3's sign
  assert.deepEqual(h(getL(st, 7).slice(0, 3)), h([0x3fc00000, 0xc0b00000, 0x3f800000]));
});

test("Blackhole SFPLOADMACRO's load part: VD = VDHi << 2 | VDLo, address from Imm10 (SFPLOADMACRO.md)", () => {
  const st = machine(BH);
  st.dst[4 * 16 + 0] = 0x0080; // BF16 2.0 (shuffled sign | mantissa | exponent) at row 4, column 0
  st.dst[4 * 16 + 1] = 0x007f; // BF16 1.0 at row 4, column 1
  // lreg_ind = MacroIndex 1 << 2 | VDLo 3; dest_reg_addr = Imm9 << 1 | VDHi 0 -> VD 3.
  // dest_reg_addr 4: row 4, bit 1 clear -> even column 0; 6: odd column 1.
  exec(st, [w('SFPLOADMACRO', { lreg_ind: 0b0111, instr_mod0: 2, dest_reg_addr: 4 }, BH)]);
  assert.equal(hex(getL(st, 3)[0]!), '0x40000000');
  exec(st, [w('SFPLOADMACRO', { lreg_ind: 0b0111, instr_mod0: 2, dest_reg_addr: 6 }, BH)]);
  assert.equal(hex(getL(st, 3)[0]!), '0x3f800000');
});

test('Blackhole RMWCIB0-3: read-modify-write of one byte of a configuration register (RMWCIB.md)', () => {
  const st = machine(BH);
  // register 1: byte 3 bit 6 = bit 30 (ALU_ACC_CTRL_SFPU_Fp32_enabled); byte 2 bits 7:5 = bits 23:21
  // (the low three bits of ALU_FORMAT_SPEC_REG1_SrcB, bits 24:21)
  exec(st, [w('RMWCIB3', { cfg_reg_addr: 1, data: 0x40, mask: 0x40 }, BH)]);
  assert.deepEqual([st.sfpuFp32, st.srcBFormat], [1, 0]);
  exec(st, [
    w('RMWCIB2', { cfg_reg_addr: 1, data: 0x20, mask: 0xe0 }, BH), // bits 23:21 = 001
    w('RMWCIB3', { cfg_reg_addr: 1, data: 0, mask: 0x41 }, BH), // clears bits 30 and 24
  ]);
  assert.deepEqual([st.sfpuFp32, st.srcBFormat], [0, 1]);
  // bytes 0 and 1 of register 5: 0x12 under mask 0xff, then 0xab under mask 0x0f -> 0x0b12
  exec(st, [
    w('RMWCIB0', { cfg_reg_addr: 5, data: 0x12, mask: 0xff }, BH),
    w('RMWCIB1', { cfg_reg_addr: 5, data: 0xab, mask: 0x0f }, BH),
  ]);
  assert.equal(hex(st.cfg[st.cfgIndex(5)]!), '0x00000b12');
  // Blackhole has 223 configuration registers per bank
  assert.throws(
    () => exec(st, [w('RMWCIB0', { cfg_reg_addr: 230 }, BH)]),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
});
