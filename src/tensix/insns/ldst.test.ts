/**
 * SFPLOAD / SFPSTORE / SFPLOADMACRO's load part, addressing and ADDR_MOD updates, SETRWC, INCRWC,
 * SETC16 and REPLAY. Expected values: SFPU-FORMAT.md "Dst layout and SFPLOAD/SFPSTORE addressing",
 * SFPU-NOTES.md A2, B6, C3, E, and the functional models of SFPLOAD.md, SFPSTORE.md, RWCs.md,
 * SETRWC.md, INCRWC.md, REPLAY.md, SFPLOADMACRO.md.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { TensixMachine } from '../index.ts';
import { exec, execOn, getL, hex, machine, setL, w } from '../testutil.ts';

const LOAD = (f: Record<string, number>, arch: 'wormhole' | 'blackhole' = 'wormhole') =>
  w('SFPLOAD', f, arch);
const STORE = (f: Record<string, number>, arch: 'wormhole' | 'blackhole' = 'wormhole') =>
  w('SFPSTORE', f, arch);

test('SFPSTORE FP32 flushes denormals (A2), INT32 does not; the raw Dst cells', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const st = machine(arch);
    const vals = [
      0x00000005, 0x807fffff, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000, 0x80000005,
      0x000000ff,
    ];
    setL(st, 1, vals);
    exec(st, [STORE({ lreg_ind: 1, instr_mod0: 3 }, arch), LOAD({ lreg_ind: 2, instr_mod0: 4 }, arch)]);
    assert.deepEqual(
      getL(st, 2).slice(0, 9).map(hex),
      [0, 0x80000000, 0, 0x80000000, 0, 0x00800000, 0x3f800000, 0x80000000, 0].map(hex),
    );
    assert.deepEqual([st.dst[0], st.dst[8 * 16]], [0, 0]);
    exec(st, [
      STORE({ lreg_ind: 1, instr_mod0: 4, dest_reg_addr: 2 }, arch),
      LOAD({ lreg_ind: 3, instr_mod0: 4, dest_reg_addr: 2 }, arch),
    ]);
    assert.deepEqual(getL(st, 3).slice(0, 9), vals);
    assert.deepEqual([st.dst[1], st.dst[8 * 16 + 1]], [0x0000, 0x0005]); // odd column, low half in row 8
  }
});

test('addressing: Addr = RWC + Imm10 + MATH_Offset; lane l -> row (Addr & ~3) + l/8, column 2(l&7) + Addr bit 1', () => {
  const st = machine();
  st.rwcDst = 4;
  st.dstMathOffset = 0;
  setL(st, 0, 0x3f800000);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 2, dest_reg_addr: 2 })]); // BF16 at Addr 6: rows 4..7, odd columns
  const bf16One = 0x007f; // BF16 0x3f80 shuffled: sign | man(7) << 8 | exp(8)
  assert.equal(st.dst[5 * 16 + 3], bf16One); // lane 9
  assert.equal(st.dst[7 * 16 + 15], bf16One); // lane 31
  assert.equal(st.dst[5 * 16 + 2], 0); // even columns untouched
  // MATH_Offset adds in; Imm10's low bit is unused (the documents; ttsim refuses odd values)
  st.dstMathOffset = 8;
  st.rwcDst = 0;
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 2, dest_reg_addr: 1 })]);
  assert.equal(st.dst[8 * 16 + 0], bf16One);
  // 32-bit view: Dst32b row r uses DstBits rows AdjRow(r) and AdjRow(r)+8
  const m = new TensixMachine('wormhole');
  m.writeDstRows(9, [0x12345678], 'fp32');
  assert.deepEqual([m.state.dst[17 * 16], m.state.dst[25 * 16]], [0x3424 /* shuffled 0x1234 */, 0x5678]);
});

test('FP16 through MOD0_FMT_SRCB (srcb_fmt=1): ToFP16 saturation and flushing (B6), SFPLOADI FP16 (E)', () => {
  const st = machine();
  st.srcBFormat = 1;
  const vals = [
    0x7f800000, 0xff800000, 0x7fc00000, 0x47800000, 0x477fe000, 0x38800000, 0x38000000, 0x3f800000,
  ];
  setL(st, 0, vals);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 0 }), LOAD({ lreg_ind: 1, instr_mod0: 0 })]);
  assert.deepEqual(getL(st, 1).slice(0, 8).map(hex), [
    '0x47ffe000', // +Inf -> max pattern -> 131008.0
    '0xc7ffe000',
    '0x47ffe000', // NaN too
    '0x47800000', // 65536.0 -> exponent 31, mantissa 0
    '0x477fe000', // 65504.0 exact
    '0x38800000', // 2^-14 exactly representable
    '0x00000000', // 2^-15, below 2^-14 -> 0
    '0x3f800000',
  ]);
  exec(st, [
    w('SFPLOADI', { lreg_ind: 2, instr_mod0: 1, imm16: 0x7c00 }),
    w('SFPLOADI', { lreg_ind: 3, instr_mod0: 1, imm16: 0x0000 }),
    w('SFPLOADI', { lreg_ind: 4, instr_mod0: 4, imm16: 0x8001 }),
    w('SFPLOADI', { lreg_ind: 5, instr_mod0: 2, imm16: 0x8001 }),
    w('SFPLOADI', { lreg_ind: 5, instr_mod0: 8, imm16: 0xabcd }),
  ]);
  assert.deepEqual([getL(st, 2)[0], getL(st, 3)[0], getL(st, 4)[0], getL(st, 5)[0]].map(hex), [
    '0x47800000',
    '0x38000000',
    '0xffff8001',
    '0xabcd8001',
  ]);
});

test('MOD0_FMT_INT32_SM converts on WH and not on BH (C3); 16-bit modes', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const st = machine(arch);
    setL(st, 0, 0xffffffff);
    exec(st, [STORE({ lreg_ind: 0, instr_mod0: 12 }, arch)]);
    const raw = ((st.dst[0]! << 16) | st.dst[128]!) >>> 0;
    assert.equal(hex(raw), arch === 'wormhole' ? '0x80000001' : '0xffffffff', arch);
    exec(st, [LOAD({ lreg_ind: 1, instr_mod0: 12 }, arch)]);
    assert.equal(getL(st, 1)[0], 0xffffffff);
  }
  const st = machine();
  setL(st, 0, 0x12348765);
  setL(st, 1, 0xaaaabbbb);
  exec(st, [
    STORE({ lreg_ind: 0, instr_mod0: 6 }), // UINT16: low half
    LOAD({ lreg_ind: 1, instr_mod0: 14 }), // LO16_ONLY: keep L1's high half
  ]);
  assert.equal(hex(getL(st, 1)[0]!), '0xaaaa8765');
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 15 }), LOAD({ lreg_ind: 1, instr_mod0: 15 })]); // HI16_ONLY both ways
  assert.equal(hex(getL(st, 1)[0]!), '0x12348765');
  // INT8 modes (docs): sign + 7/10-bit magnitude, stored with the fixed FP16 exponent 16
  setL(st, 2, -5 >>> 0);
  exec(st, [STORE({ lreg_ind: 2, instr_mod0: 13 }), LOAD({ lreg_ind: 3, instr_mod0: 13 })]);
  assert.equal(getL(st, 3)[0], -5 >>> 0);
});

test('ADDR_MOD updates after SFPLOAD/SFPSTORE: incr, CR, Clear, CToCR and their priority', () => {
  const st = machine();
  const run1 = (incr: number, cr: number, clr: number, c2cr: number) => {
    st.setAddrMod(0, incr, cr, clr, c2cr);
    st.rwcDst = 10;
    st.rwcDstCr = 4;
    exec(st, [LOAD({ lreg_ind: 0, instr_mod0: 3, sfpu_addr_mode: 0 })]);
    return [st.rwcDst, st.rwcDstCr];
  };
  assert.deepEqual(run1(2, 0, 0, 0), [12, 4]);
  assert.deepEqual(run1(2, 1, 0, 0), [6, 6]);
  assert.deepEqual(run1(2, 0, 0, 1), [12, 12]);
  assert.deepEqual(run1(2, 0, 1, 0), [0, 0]);
  assert.deepEqual(run1(2, 0, 1, 1), [0, 0]); // Clear wins (RWCs.md; ttsim refuses)
  assert.deepEqual(run1(2, 1, 0, 1), [12, 12]); // CToCR wins over CR
  assert.deepEqual(run1(1023, 0, 0, 0), [9, 4]); // 10-bit wrap = -1
  // WH ADDR_MOD_SET_Base selects slots 4..7; BH has 3 AddrMod bits
  st.setAddrMod(5, 6, 0, 0, 0);
  st.addrModSetBase = 1;
  st.rwcDst = 0;
  exec(st, [LOAD({ lreg_ind: 0, instr_mod0: 3, sfpu_addr_mode: 1 })]);
  assert.equal(st.rwcDst, 6);
  const bh = machine('blackhole');
  bh.setAddrMod(6, 4, 0, 0, 0);
  exec(bh, [LOAD({ lreg_ind: 0, instr_mod0: 3, sfpu_addr_mode: 6 }, 'blackhole')]);
  assert.equal(bh.rwcDst, 4);
});

test('SETC16 configures ADDR_MOD slots as LLK addr_mod_t::set() does; SETRWC / INCRWC', () => {
  for (const [arch, reg] of [
    ['wormhole', 23],
    ['blackhole', 28],
  ] as const) {
    const st = machine(arch);
    // ADDR_MOD_DST_SEC2: DestIncr = 2, DestCR = 0 -> value 2
    exec(st, [w('SETC16', { setc16_reg: reg + 2, setc16_value: 2 }, arch)]);
    assert.deepEqual(st.getAddrMod(2), [2, 0, 0, 0]);
    exec(st, [LOAD({ lreg_ind: 0, instr_mod0: 3, sfpu_addr_mode: arch === 'wormhole' ? 2 : 2 }, arch)]);
    assert.equal(st.rwcDst, 2);
    assert.throws(() => exec(st, [w('SETC16', { setc16_reg: 200 }, arch)]), AxsimError);
  }
  const st = machine();
  exec(st, [w('SETRWC', { bit_mask: 4, rwc_d: 8 })]);
  assert.deepEqual([st.rwcDst, st.rwcDstCr], [8, 8]);
  exec(st, [w('INCRWC', { rwc_d: 2 })]);
  assert.deepEqual([st.rwcDst, st.rwcDstCr], [10, 8]);
  exec(st, [w('INCRWC', { rwc_d: 4, rwc_cr: 4 })]); // DstCr: Cr += 4, Dst = Cr
  assert.deepEqual([st.rwcDst, st.rwcDstCr], [12, 12]);
  exec(st, [w('SETRWC', { bit_mask: 4, rwc_d: 2, rwc_cr: 4 })]); // DstCr: value += Dst_Cr
  assert.deepEqual([st.rwcDst, st.rwcDstCr], [14, 14]);
  exec(st, [w('SETRWC', { rwc_d: 1, rwc_cr: 8 })]); // DstCtoCr: value += Dst
  assert.deepEqual([st.rwcDst, st.rwcDstCr], [15, 15]);
  st.fidelityPhase = 3;
  exec(st, [w('SETRWC', { bit_mask: 8 })]);
  assert.equal(st.fidelityPhase, 0);
});

test('REPLAY: load (with execute) then replay from the buffer', () => {
  const m = new TensixMachine('wormhole');
  m.state.lreg.fill(0, 0, 32);
  const inc = w('SFPIADD', { instr_mod1: 5, lreg_dest: 0, lreg_c: 0, imm12_math: 1 });
  execOn(m, [w('REPLAY', { start_idx: 3, len: 2, execute_while_loading: 1, load_mode: 1 }), inc, inc]);
  assert.equal(m.lreg(0)[0], 2);
  execOn(m, [w('REPLAY', { start_idx: 3, len: 2 }), w('REPLAY', { start_idx: 4, len: 1 })]);
  assert.equal(m.lreg(0)[0], 5);
  execOn(m, [w('REPLAY', { start_idx: 0, len: 1, load_mode: 1 }), inc]); // load without execute
  assert.equal(m.lreg(0)[0], 5);
});

test('SFPLOADMACRO runs its SFPLOAD part (VD = VDHi<<2 | VDLo, Imm10); scheduling anything is Unsupported', () => {
  const st = machine();
  st.dst[4 * 16 + 1] = 0x007f; // BF16 1.0 at row 4, column 1
  st.dst[4 * 16 + 0] = 0x0080; // BF16 2.0 at row 4, column 0
  // lreg_ind = MacroIndex 1 << 2 | VDLo 2; dest_reg_addr = Imm9 2 << 1 | VDHi 1 -> VD 6, Imm10 5:
  // Addr 5 has bit 1 clear -> even columns (bit 0 unused)
  exec(st, [w('SFPLOADMACRO', { lreg_ind: 0b0110, instr_mod0: 2, dest_reg_addr: 5 })]);
  assert.equal(hex(getL(st, 6)[0]!), '0x40000000');
  exec(st, [w('SFPLOADMACRO', { lreg_ind: 0b0010, instr_mod0: 2, dest_reg_addr: 7 })]); // VD 6, odd columns
  assert.equal(hex(getL(st, 6)[0]!), '0x3f800000');
  st.lmSequence[1] = 0x0000_0004; // Simple unit: template 0 at delay 0
  assert.throws(
    () => exec(st, [w('SFPLOADMACRO', { lreg_ind: 0b0110, instr_mod0: 2, dest_reg_addr: 5 })]),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

test('remaining Dst formats (SFPLOAD.md / SFPSTORE.md supporting definitions)', () => {
  const st = machine();
  // INT16 (8): sign + 15-bit magnitude in a 16-bit cell
  setL(st, 0, [0x80001234, 0x00007fff]);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 8 }), LOAD({ lreg_ind: 1, instr_mod0: 8 })]);
  assert.deepEqual(h2(getL(st, 1).slice(0, 2)), h2([0x80001234, 0x00007fff]));
  assert.equal(st.dst[0], 0x9234);
  // HI16 (7): store writes the whole word to the 32-bit view, load reads a 16-bit cell into the high half
  setL(st, 0, 0x12345678);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 7, dest_reg_addr: 4 })]);
  assert.deepEqual([st.dst[4 * 16], st.dst[12 * 16]], [0x1234, 0x5678]); // Dst32b row 4 = DstBits rows 4 and 12
  // LO16 (9): store swaps the halves into the 32-bit view; load reads a 16-bit cell zero-extended
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 9, dest_reg_addr: 8 })]);
  assert.deepEqual([st.dst[16 * 16], st.dst[24 * 16]], [0x5678, 0x1234]);
  exec(st, [
    LOAD({ lreg_ind: 2, instr_mod0: 9, dest_reg_addr: 16 }),
    LOAD({ lreg_ind: 3, instr_mod0: 7, dest_reg_addr: 16 }),
  ]);
  assert.deepEqual(h2([getL(st, 2)[0]!, getL(st, 3)[0]!]), h2([0x5678, 0x56780000]));
  // ZERO (11)
  exec(st, [
    STORE({ lreg_ind: 0, instr_mod0: 11, dest_reg_addr: 16 }),
    LOAD({ lreg_ind: 4, instr_mod0: 11 }),
  ]);
  assert.deepEqual([st.dst[16 * 16], getL(st, 4)[0]], [0, 0]);
  // INT8 (5): sign + 7-bit magnitude read from bits 11:5 of the cell; store writes FP16 exponent 16
  setL(st, 0, [0x80000005, 0x0000007f]);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 5 }), LOAD({ lreg_ind: 5, instr_mod0: 5 })]);
  assert.deepEqual(h2(getL(st, 5).slice(0, 2)), h2([0x80000005, 0x0000007f]));
  // INT32_ALL (10) ignores the lane enables and uses only RWC & 3
  st.useLaneFlags = 1;
  st.laneFlags = 0;
  st.rwcDst = 6;
  setL(st, 0, 0xcafe0001);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 10 })]); // Addr = 0 + (6 & 3) = 2: odd columns of rows 0..3
  assert.deepEqual(
    [st.dst[1], st.dst[128 + 1]],
    [(0xcafe & 0x8000) | ((0xcafe & 0x7f) << 8) | ((0xcafe >> 7) & 0xff), 0x0001],
  );
});

test('LaneConfig bits for loads/stores: COL_EXCHANGE, BLOCK_*, FP16A_INF, CAPTURE_DEFAULT_DEST_INDEX, ROW_MASK', () => {
  const st = machine();
  setL(st, 0, 0x3f800000);
  st.laneConfig = 0x80; // DEST_WR_COL_EXCHANGE: stores always go to odd columns
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 2 })]);
  assert.deepEqual([st.dst[0], st.dst[1]], [0, 0x007f]);
  st.laneConfig = 0x40; // DEST_RD_COL_EXCHANGE
  exec(st, [LOAD({ lreg_ind: 1, instr_mod0: 2 })]);
  assert.equal(hex(getL(st, 1)[0]!), '0x3f800000');
  st.laneConfig = 0x10; // BLOCK_DEST_WR_FROM_SFPU
  setL(st, 0, 0x40000000);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 2, dest_reg_addr: 2 })]);
  assert.equal(st.dst[1], 0x007f);
  st.laneConfig = 0x20; // BLOCK_SFPU_RD_FROM_DEST
  setL(st, 1, 7);
  exec(st, [LOAD({ lreg_ind: 1, instr_mod0: 2, dest_reg_addr: 2 })]);
  assert.equal(getL(st, 1)[0], 7);
  st.laneConfig = 0x1; // ENABLE_FP16A_INF: the largest FP16 pattern reads as infinity
  st.dst[2] = 0xffff; // Sign, Man 0x3ff, Exp 0x1f (shuffled)
  exec(st, [LOAD({ lreg_ind: 2, instr_mod0: 1, dest_reg_addr: 0 })]);
  assert.equal(hex(getL(st, 2)[1]!), '0xff800000');
  st.laneConfig = 0xc; // ENABLE_DEST_INDEX + CAPTURE_DEFAULT_DEST_INDEX: LReg[VD+4] = row << 4 | column
  exec(st, [LOAD({ lreg_ind: 1, instr_mod0: 2, dest_reg_addr: 6 })]);
  assert.deepEqual([getL(st, 5)[0], getL(st, 5)[9]], [(4 << 4) | 1, (5 << 4) | 3]);
  st.laneConfig = 0x5000; // ROW_MASK bits 0 and 2: grid rows 0 and 2 disabled
  setL(st, 3, 0);
  exec(st, [w('SFPLOADI', { lreg_ind: 3, instr_mod0: 2, imm16: 9 })]);
  assert.deepEqual([getL(st, 3)[0], getL(st, 3)[8], getL(st, 3)[16], getL(st, 3)[24]], [0, 9, 0, 9]);
});

const h2 = (xs: number[]) => xs.map(hex);

test('RMWCIB writes the configuration the SFPU reads (ALU_ACC_CTRL_SFPU_Fp32_enabled, ALU_FORMAT_SPEC_REG1_SrcB)', () => {
  const st = machine();
  // register 1, byte 3, bit 6 = bit 30 (SFPU Fp32); byte 2 bits 5..8 -> SrcB in bits 24:21
  exec(st, [w('RMWCIB3', { cfg_reg_addr: 1, data: 0x40, mask: 0x40 })]);
  assert.equal(st.sfpuFp32, 1);
  exec(st, [
    w('RMWCIB2', { cfg_reg_addr: 1, data: 1 << 5, mask: 0xe0 }),
    w('RMWCIB3', { cfg_reg_addr: 1, data: 0, mask: 0x41 }),
  ]);
  assert.deepEqual([st.sfpuFp32, st.srcBFormat], [0, 1]); // SrcB = FP16, so MOD0_FMT_SRCB means FP16
  setL(st, 0, 0x3f800000);
  exec(st, [STORE({ lreg_ind: 0, instr_mod0: 0 })]);
  assert.equal(st.dst[0], 0x000f); // FP16 1.0 = 0x3c00, shuffled: man << 5 | exp
  // the other configuration bank (CFG_STATE_ID_StateID = 1) starts as zero
  exec(st, [w('SETC16', { setc16_reg: 0, setc16_value: 1 })]);
  assert.deepEqual([st.sfpuFp32, st.srcBFormat], [0, 0]);
  assert.throws(() => exec(st, [w('RMWCIB0', { cfg_reg_addr: 250 })]), AxsimError);
  exec(st, [
    w('RMWCIB1', { cfg_reg_addr: 5, data: 0xab, mask: 0x0f }),
    w('RMWCIB0', { cfg_reg_addr: 5, data: 0x12, mask: 0xff }),
  ]);
  assert.equal(hex(st.cfg[st.cfgIndex(5)]!), '0x00000b12');
});

test('Blackhole: INT8 reads an 8-bit magnitude, INT8_COMP does no conversion, INT32_ALL uses the SFPU stack pointer', () => {
  const wh = machine('wormhole');
  const bh = machine('blackhole');
  for (const st of [wh, bh]) st.dst[0] = 0x8000 | (0xc5 << 5); // sign, magnitude bits 12:5 = 0xc5
  exec(wh, [LOAD({ lreg_ind: 1, instr_mod0: 5 })]);
  exec(bh, [LOAD({ lreg_ind: 1, instr_mod0: 5 }, 'blackhole')]);
  assert.deepEqual([hex(getL(wh, 1)[0]!), hex(getL(bh, 1)[0]!)], ['0x80000045', '0x800000c5']);
  exec(wh, [LOAD({ lreg_ind: 2, instr_mod0: 13 })]);
  exec(bh, [LOAD({ lreg_ind: 2, instr_mod0: 13 }, 'blackhole')]);
  assert.deepEqual([hex(getL(wh, 2)[0]!), hex(getL(bh, 2)[0]!)], ['0xffffff3b', '0x800000c5']);
  // SFPU_STACK_Incr (thread register 36) = 4: a store goes to Sp then Sp += 4; a load pre-decrements
  exec(bh, [w('SETC16', { setc16_reg: 36, setc16_value: 4 }, 'blackhole')]);
  setL(bh, 0, 0x11111111);
  exec(bh, [STORE({ lreg_ind: 0, instr_mod0: 10 }, 'blackhole')]);
  setL(bh, 0, 0x22222222);
  exec(bh, [STORE({ lreg_ind: 0, instr_mod0: 10 }, 'blackhole')]);
  assert.equal(bh.rwcSp, 8);
  exec(bh, [
    LOAD({ lreg_ind: 3, instr_mod0: 10 }, 'blackhole'),
    LOAD({ lreg_ind: 4, instr_mod0: 10 }, 'blackhole'),
  ]);
  assert.deepEqual([hex(getL(bh, 3)[0]!), hex(getL(bh, 4)[0]!), bh.rwcSp], ['0x22222222', '0x11111111', 0]);
  // DEST_REGW_BASE_Base (config register 6, written with RMWCIB) is added to the Dst address
  const st = machine('wormhole');
  setL(st, 0, 0x3f800000);
  exec(st, [w('RMWCIB0', { cfg_reg_addr: 6, data: 8, mask: 0xff }), STORE({ lreg_ind: 0, instr_mod0: 2 })]);
  assert.equal(st.dst[8 * 16], 0x007f);
});
