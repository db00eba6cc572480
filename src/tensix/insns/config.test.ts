/**
 * Per-lane LaneConfig and LoadMacroConfig (SFPCONFIG.md: lane l takes part when the Imm16 mask bit
 * and the LaneFlags of lane l & 7 allow it, and receives LReg[0][l & 7] or Imm16). Expected values
 * are worked by hand from SFPCONFIG.md, VectorUnit.md (ROW_MASK of LaneConfig[Lane & 7]),
 * SFPLOAD.md, SFPSTORE.md, SFPSWAP.md, SFPMOV.md and SFPMAD.md (backdoor branch).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../../errors.ts';
import { run } from '../exec.ts';
import { compile } from '../program.ts';
import type { TensixState } from '../state.ts';
import { LC_SPLIT } from '../state.ts';
import { exec, getL, hex, machine, setL, w } from '../testutil.ts';

/** SFPCONFIG LaneConfig := value (Imm16) in the lanes whose lane & 7 is in `lanes8` (via LaneFlags). */
function setLaneConfig(st: TensixState, lanes8: number, value: number): void {
  const [use, flags] = [st.useLaneFlags, st.laneFlags];
  st.useLaneFlags = 1;
  st.laneFlags = lanes8;
  exec(st, [w('SFPCONFIG', { config_dest: 15, instr_mod1: 1, imm16_math: value }, st.arch)]);
  st.useLaneFlags = use;
  st.laneFlags = flags;
}

test('LaneConfig per lane: SFPCONFIG with some lanes, SFPMOV reads each lane back, uniform again', () => {
  const st = machine();
  setLaneConfig(st, 0b0000_0101, 0x104);
  assert.ok(st.laneConfig & LC_SPLIT);
  assert.deepEqual(
    [st.laneConfigOf(0), st.laneConfigOf(1), st.laneConfigOf(2), st.laneConfigOf(26)],
    [0x104, 0, 0x104, 0x104],
  );
  exec(st, [w('SFPMOV', { instr_mod1: 8, lreg_dest: 1, lreg_c: 15 })]);
  assert.deepEqual(getL(st, 1).slice(0, 10), [0x104, 0, 0x104, 0, 0, 0, 0, 0, 0x104, 0]);
  // LaneConfig from LReg[0] lanes 0..7, in all lanes (values differ between lanes), then OR (Mod1 2)
  setL(st, 0, [0, 0x1, 0, 0, 0, 0, 0, 0x2]);
  exec(st, [
    w('SFPCONFIG', { config_dest: 15 }),
    w('SFPCONFIG', { config_dest: 15, instr_mod1: 3, imm16_math: 0x100 }),
  ]);
  assert.deepEqual([st.laneConfigOf(0), st.laneConfigOf(9), st.laneConfigOf(31)], [0x100, 0x101, 0x102]);
  // the same value everywhere: back to one shared LaneConfig (no LC_SPLIT)
  exec(st, [w('SFPCONFIG', { config_dest: 15, instr_mod1: 1, imm16_math: 0 })]);
  assert.equal(st.laneConfig, 0);
});

test('ROW_MASK is read from LaneConfig[Lane & 7]: only lane 8 is disabled', () => {
  const st = machine();
  setLaneConfig(st, 0b1, 0x2000); // lanes 0, 8, 16, 24 get ROW_MASK = 0b0010 (grid row 1)
  setL(st, 1, 5);
  exec(st, [w('SFPLOADI', { lreg_ind: 1, instr_mod0: 2, imm16: 9 })]);
  const l1 = getL(st, 1);
  assert.deepEqual([l1[0], l1[8], l1[9], l1[16], l1[24]], [9, 5, 9, 9, 9]);
  assert.equal(l1.filter((v) => v === 9).length, 31);
});

test('SFPSWAP with EXCHANGE_SRCB_SRCC in lanes 1, 9, 17, 25 only; SFPLOAD with BLOCK_SFPU_RD_FROM_DEST in some lanes, ADDR_MOD once', () => {
  const st = machine();
  setLaneConfig(st, 0b10, 0x100);
  setL(st, 1, 0x3f800000); // VD = 1.0
  setL(st, 2, 0x40000000); // VC = 2.0
  exec(st, [w('SFPSWAP', { instr_mod1: 1, lreg_dest: 1, lreg_src_c: 2 })]); // VD gets the min ...
  const [d, c] = [getL(st, 1), getL(st, 2)];
  assert.deepEqual(
    h([d[0]!, c[0]!, d[1]!, c[1]!, d[25]!]),
    h([0x3f800000, 0x40000000, 0x40000000, 0x3f800000, 0x40000000]),
  );
  // ... except where EXCHANGE_SRCB_SRCC inverts the comparison
  st.reset();
  st.useLaneFlags = 0;
  setLaneConfig(st, 0b100, 0x20); // BLOCK_SFPU_RD_FROM_DEST in lanes 2, 10, 18, 26
  st.setAddrMod(1, 2, 0, 0, 0);
  setL(st, 3, 0x77);
  exec(st, [w('SFPLOAD', { lreg_ind: 3, instr_mod0: 4, sfpu_addr_mode: 1, dest_reg_addr: 0 })]);
  const l3 = getL(st, 3);
  assert.deepEqual([l3[0], l3[2], l3[10], l3[11]], [0, 0x77, 0x77, 0]);
  assert.equal(st.rwcDst, 2); // two groups ran, the RWC advanced once
});

test("MOD0_FMT_INT32_ALL ignores LaneEnabled but not a lane's BLOCK_SFPU_RD_FROM_DEST", () => {
  const st = machine();
  setLaneConfig(st, 0b100, 0x20); // lanes 2, 10, 18, 26 may not read Dst
  setL(st, 3, 0x77);
  st.useLaneFlags = 1;
  st.laneFlags = 0b1; // only lane 0 enabled: INT32_ALL loads every lane regardless (SFPLOAD.md)
  exec(st, [w('SFPLOAD', { lreg_ind: 3, instr_mod0: 10, dest_reg_addr: 0 })]);
  const l3 = getL(st, 3);
  assert.deepEqual([l3[0], l3[1], l3[2], l3[9], l3[10], l3[31]], [0, 0, 0x77, 0, 0x77, 0]);
  assert.equal(l3.filter((v) => v === 0x77).length, 4);
});

test('Blackhole: SFPCONFIG per lane, SFPLOADI, SFPSWAP with EXCHANGE_SRCB_SRCC in some lanes, SFPMOV reading LaneConfig', () => {
  const st = machine('blackhole');
  const bh = (name: string, f: Record<string, number>) => w(name, f, 'blackhole');
  setLaneConfig(st, 0b10, 0x100); // lanes 1, 9, 17, 25
  exec(st, [
    bh('SFPLOADI', { lreg_ind: 1, instr_mod0: 0, imm16: 0x3f80 }), // 1.0 (BF16 immediate)
    bh('SFPLOADI', { lreg_ind: 2, instr_mod0: 0, imm16: 0x4000 }), // 2.0
    bh('SFPSWAP', { instr_mod1: 1, lreg_dest: 1, lreg_src_c: 2 }),
    bh('SFPMOV', { instr_mod1: 8, lreg_dest: 3, lreg_c: 15 }),
  ]);
  const [d, c] = [getL(st, 1), getL(st, 2)];
  assert.deepEqual(h([d[0]!, c[0]!, d[9]!, c[9]!]), h([0x3f800000, 0x40000000, 0x40000000, 0x3f800000]));
  assert.deepEqual(getL(st, 3).slice(0, 3), [0, 0x100, 0]);
});

test('SFPSTORE with DEST_WR_COL_EXCHANGE in lanes 0, 8, 16, 24: those lanes write the odd column', () => {
  const st = machine();
  setLaneConfig(st, 0b1, 0x80);
  setL(st, 0, 0x3f800000);
  exec(st, [w('SFPSTORE', { lreg_ind: 0, instr_mod0: 4, dest_reg_addr: 0 })]);
  // FP32 1.0 shuffled: high half 0x007f (sign, mantissa hi, exponent), at row 0 columns 0..15
  assert.deepEqual([st.dst[0], st.dst[1], st.dst[2], st.dst[3]], [0, 0x007f, 0x007f, 0]);
});

test('backdoor: lanes with DISABLE_BACKDOOR_LOAD execute, the others store the template (per-lane LoadMacroConfig)', () => {
  const st = machine();
  setLaneConfig(st, 0b1000, 0x2); // lanes 3, 11, 19, 27
  const word = 0x840123d0; // SFPMAD with VD = 13: a template load for slot 1, or a MAD writing nothing
  exec(st, [word]);
  assert.equal(st.lmSplit, 1);
  assert.deepEqual(
    [st.loadMacroOf(1, 0), st.loadMacroOf(1, 3), st.loadMacroOf(1, 11), st.loadMacroOf(1, 12)].map(hex),
    [word, 0, 0, word].map(hex),
  );
  assert.equal(st.lmTemplates[1], word); // the shared fields mirror lane 0
  exec(st, [w('SFPMOV', { instr_mod1: 8, lreg_dest: 2, lreg_c: 1 })]);
  assert.deepEqual(getL(st, 2).slice(0, 4).map(hex), [word, word, word, 0].map(hex));
  // snapshot/restore keeps the per-lane state
  const snap = st.snapshot();
  st.reset();
  st.restore(snap);
  assert.deepEqual([st.lmSplit, st.loadMacroOf(1, 3), st.laneConfigOf(3)], [1, 0, 2]);
  // a macro some lane would schedule is still the timing model's
  setL(st, 0, 0x4);
  exec(st, [w('SFPCONFIG', { config_dest: 4 })]);
  assert.throws(
    () => exec(st, [w('SFPLOADMACRO', { lreg_ind: 0, instr_mod0: 0, sfpu_addr_mode: 0, dest_reg_addr: 0 })]),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

const h = (xs: number[]) => xs.map(hex);

test('backdoor with mixed DISABLE_BACKDOOR_LOAD: SFPSTORE VD 12 stores in those lanes, the others take the template', () => {
  const st = machine();
  st.setAddrMod(0, 2, 0, 0, 0);
  setLaneConfig(st, 0b1, 0x2); // lanes 0, 8, 16, 24 execute VD >= 12 instructions
  const word = w('SFPSTORE', { lreg_ind: 12, instr_mod0: 3, sfpu_addr_mode: 0, dest_reg_addr: 0 });
  exec(st, [word]);
  // lane 0 stored LReg[12] = 0x3b000000 (reset value, SFPU-NOTES B7) as FP32 at row 0, column 0:
  // high half sign|mantissa[22:16]|exponent = 0x0076, low half 0; lane 1 (column 2) stored nothing
  assert.deepEqual([st.dst[0], st.dst[128], st.dst[2]], [0x0076, 0, 0]);
  assert.deepEqual([st.loadMacroOf(0, 0), st.loadMacroOf(0, 8)], [0, 0]);
  assert.deepEqual([hex(st.loadMacroOf(0, 1)), hex(st.loadMacroOf(0, 31))], [hex(word), hex(word)]);
  assert.equal(st.rwcDst, 2); // the executing lanes' SFPSTORE applied its ADDR_MOD once
});

test('a snapshot or a program of the other generation is BadInput', () => {
  const wh = machine('wormhole');
  const bh = machine('blackhole');
  const isBadInput = (e: unknown) => e instanceof AxsimError && e.category === 'BadInput';
  assert.throws(() => bh.restore(wh.snapshot()), isBadInput);
  assert.throws(() => run(bh, compile([w('SFPNOP')], 'wormhole')), isBadInput);
});

/**
 * Property: with LaneConfig differing between lanes, every lane ends as it would on a machine whose
 * single LaneConfig is that lane's (the documents' `LaneConfig[Lane]`), run with only that lane
 * enabled. Covers the instructions that read LaneConfig per lane; state is random.
 */
test('per-lane LaneConfig: each lane behaves as under its own uniform LaneConfig (property)', () => {
  const LOAD_STORE_MOD0 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15];
  const insn = fc.oneof(
    fc.record({
      name: fc.constantFrom('SFPLOAD', 'SFPSTORE'),
      lreg_ind: fc.integer({ min: 0, max: 7 }),
      instr_mod0: fc.constantFrom(...LOAD_STORE_MOD0),
      dest_reg_addr: fc.integer({ min: 0, max: 63 }).map((x) => x * 2),
      sfpu_addr_mode: fc.integer({ min: 0, max: 3 }),
    }),
    fc.record({
      name: fc.constant('SFPSWAP'),
      lreg_dest: fc.integer({ min: 0, max: 3 }),
      lreg_src_c: fc.integer({ min: 0, max: 3 }),
      instr_mod1: fc.integer({ min: 0, max: 9 }),
    }),
    fc.record({
      name: fc.constant('SFPMOV'),
      lreg_dest: fc.integer({ min: 0, max: 7 }),
      lreg_c: fc.constant(15),
      instr_mod1: fc.constant(8),
    }),
    fc.record({
      name: fc.constant('SFPLOADI'),
      lreg_ind: fc.integer({ min: 0, max: 7 }),
      instr_mod0: fc.constant(2),
      imm16: fc.integer({ min: 0, max: 0xffff }),
    }),
  );
  fc.assert(
    fc.property(
      fc.constantFrom('wormhole' as const, 'blackhole' as const),
      fc.array(fc.integer({ min: 0, max: 0x3ffff }), { minLength: 8, maxLength: 8 }),
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.boolean(),
      fc.integer({ min: 1, max: 0xffffffff }),
      insn,
      (arch, cfg8, flags, useFlags, seed, ins) => {
        const { name, ...fields } = ins as unknown as { name: string } & Record<string, number>;
        const word = w(name, fields, arch);
        const init = machine(arch);
        let s = seed >>> 0;
        const next = () => {
          s ^= s << 13;
          s ^= s >>> 17;
          s ^= s << 5;
          return s >>> 0;
        };
        for (let i = 0; i < 8 * 32; i++) init.lreg[i] = next();
        for (let i = 0; i < 256 * 16; i++) init.dst[i] = next() & 0xffff;
        init.setAddrMod(fields.sfpu_addr_mode ?? 0, 2, 0, 0, 0);
        const split = machine(arch);
        split.restore(init.snapshot());
        for (let l = 0; l < 32; l++) split.laneCfgLanes[l] = cfg8[l & 7]!;
        split.laneConfig = cfg8[0]! | LC_SPLIT;
        split.useLaneFlags = useFlags ? 1 : 0;
        split.laneFlags = flags | 0;
        let splitErr: unknown;
        try {
          exec(split, [word]);
        } catch (e) {
          splitErr = e;
        }
        const expected = machine(arch);
        expected.restore(init.snapshot());
        for (let l = 0; l < 32; l++) {
          const one = machine(arch);
          one.restore(init.snapshot());
          one.laneConfig = cfg8[l & 7]!;
          one.useLaneFlags = 1;
          one.laneFlags = (useFlags ? flags : -1) & (1 << l);
          try {
            exec(one, [word]);
          } catch (e) {
            // the same category of error must come out of the split run
            assert.ok(
              splitErr instanceof AxsimError && e instanceof AxsimError && splitErr.category === e.category,
            );
            return;
          }
          for (let i = 0; i < 17 * 32; i++) if (one.lreg[i] !== init.lreg[i]) expected.lreg[i] = one.lreg[i]!;
          for (let i = 0; i < one.dst.length; i++)
            if (one.dst[i] !== init.dst[i]) expected.dst[i] = one.dst[i]!;
          expected.rwcDst = one.rwcDst;
        }
        assert.equal(splitErr, undefined);
        assert.deepEqual(split.lreg.subarray(0, 17 * 32), expected.lreg.subarray(0, 17 * 32));
        assert.deepEqual(split.dst, expected.dst);
        assert.equal(split.rwcDst, expected.rwcDst);
      },
    ),
    { numRuns: 300 },
  );
});
