/**
 * Integer, FP-field, conversion, configuration and Blackhole-only instructions. Expected values:
 * SFPU-NOTES.md (A1, A3, B4, B5, B10, C1) and values worked by hand from the functional models
 * (SFPABS.md, SFPSHFT.md, SFPAND.md, SFPDIVP2.md, SFPEXMAN.md, SFPSETEXP/MAN/SGN.md, SFPMOV.md,
 * SFPSTOCHRND_*.md, SFPCAST*.md, SFPCONFIG.md, SFPMUL24.md, SFPARECIP.md).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { exec, getL, hex, machine, setL, w } from '../testutil.ts';
import { RECIP_LUT } from './bh.ts';

const h = (xs: number[]) => xs.map(hex);

test('SFPABS float keeps only -NaN above 0xff800000, so -Inf becomes +Inf (A1); integer mode, INT32_MIN', () => {
  const st = machine();
  setL(st, 1, [0xff800000, 0xff800001, 0xffc00000, 0x80000000, 0x80000001, 0xbf800000]);
  exec(st, [w('SFPABS', { instr_mod1: 1, lreg_dest: 2, lreg_c: 1 })]);
  assert.deepEqual(h(getL(st, 2).slice(0, 6)), h([0x7f800000, 0xff800001, 0xffc00000, 0, 1, 0x3f800000]));
  setL(st, 1, [0x80000000, -5 >>> 0, 7, 0xffffffff]);
  exec(st, [w('SFPABS', { instr_mod1: 0, lreg_dest: 2, lreg_c: 1 })]);
  assert.deepEqual(h(getL(st, 2).slice(0, 4)), h([0x80000000, 5, 7, 1]));
});

test('SFPSHFT: immediate and register amounts, logical right shift; BH arithmetic and VC source (C1)', () => {
  const st = machine();
  setL(st, 0, 0x80000010);
  setL(st, 1, [-4 >>> 0, 4, 36, -36 >>> 0]);
  exec(st, [w('SFPSHFT', { instr_mod1: 0, lreg_dest: 0, lreg_c: 1 })]);
  assert.deepEqual(h(getL(st, 0).slice(0, 4)), h([0x08000001, 0x00000100, 0x00000100, 0x08000001]));
  setL(st, 2, 0x80000010);
  exec(st, [w('SFPSHFT', { instr_mod1: 1, lreg_dest: 2, imm12_math: 0xffc })]); // -4
  assert.equal(hex(getL(st, 2)[0]!), '0x08000001');
  const bh = machine('blackhole');
  setL(bh, 0, 0x80000010);
  setL(bh, 1, -4 >>> 0);
  exec(bh, [w('SFPSHFT', { instr_mod1: 2, lreg_dest: 0, lreg_c: 1 }, 'blackhole')]);
  assert.equal(hex(getL(bh, 0)[0]!), '0xf8000001');
  setL(bh, 3, 0x80000000);
  exec(bh, [w('SFPSHFT', { instr_mod1: 7, lreg_dest: 4, lreg_c: 3, imm12_math: 0xfff }, 'blackhole')]); // L4 = L3 >>a 1
  assert.equal(hex(getL(bh, 4)[0]!), '0xc0000000');
});

test('SFPAND/SFPOR/SFPXOR/SFPNOT; BH three-operand AND/OR (C1)', () => {
  const st = machine();
  setL(st, 0, 0xff00ff00);
  setL(st, 1, 0x0ff00ff0);
  setL(st, 2, 0xff00ff00);
  setL(st, 3, 0xff00ff00);
  exec(st, [
    w('SFPAND', { lreg_dest: 0, lreg_c: 1 }),
    w('SFPOR', { lreg_dest: 2, lreg_c: 1 }),
    w('SFPXOR', { lreg_dest: 3, lreg_c: 1 }),
    w('SFPNOT', { lreg_dest: 4, lreg_c: 1 }),
  ]);
  assert.deepEqual(
    h([getL(st, 0)[0]!, getL(st, 2)[0]!, getL(st, 3)[0]!, getL(st, 4)[0]!]),
    h([0x0f000f00, 0xfff0fff0, 0xf0f0f0f0, 0xf00ff00f]),
  );
  const bh = machine('blackhole');
  setL(bh, 1, 0xff00ff00);
  setL(bh, 2, 0x0ff00ff0);
  exec(bh, [w('SFPAND', { instr_mod1: 1, lreg_dest: 3, lreg_c: 2, imm12_math: 1 }, 'blackhole')]);
  assert.equal(hex(getL(bh, 3)[0]!), '0x0f000f00');
});

test('SFPDIVP2 wraps the exponent, Inf/NaN unchanged (B10); SFPEXMAN; SFPSETEXP/SETMAN/SETSGN', () => {
  const st = machine();
  setL(st, 1, [0x3f800000, 0x00800000, 0, 0x7f800000, 0xffc00001]);
  exec(st, [w('SFPDIVP2', { instr_mod1: 1, lreg_dest: 2, lreg_c: 1, imm12_math: 0xfff })]);
  assert.deepEqual(h(getL(st, 2).slice(0, 5)), h([0x3f000000, 0, 0x7f800000, 0x7f800000, 0xffc00001]));
  exec(st, [w('SFPDIVP2', { instr_mod1: 0, lreg_dest: 2, lreg_c: 1, imm12_math: 0x80 })]); // exponent := 128
  assert.equal(hex(getL(st, 2)[0]!), '0x40000000');
  setL(st, 3, 0xbfc00000);
  exec(st, [
    w('SFPEXMAN', { instr_mod1: 0, lreg_dest: 4, lreg_c: 3 }),
    w('SFPEXMAN', { instr_mod1: 1, lreg_dest: 5, lreg_c: 3 }),
  ]);
  assert.deepEqual(h([getL(st, 4)[0]!, getL(st, 5)[0]!]), h([0x00c00000, 0x00400000]));
  setL(st, 6, 0x00000081); // integer 129 as exponent source
  exec(st, [w('SFPSETEXP', { instr_mod1: 0, lreg_dest: 6, lreg_c: 3 })]); // sign/man of -1.5, exp 129
  assert.equal(hex(getL(st, 6)[0]!), '0xc0c00000');
  exec(st, [w('SFPSETEXP', { instr_mod1: 1, lreg_dest: 6, lreg_c: 3, imm12_math: 0x7e })]);
  assert.equal(hex(getL(st, 6)[0]!), '0xbf400000');
  setL(st, 7, 0x3f800000);
  exec(st, [w('SFPSETMAN', { instr_mod1: 1, lreg_dest: 7, lreg_c: 7, imm12_math: 0x800 })]); // man = 0x800 << 11
  assert.equal(hex(getL(st, 7)[0]!), '0x3fc00000');
  exec(st, [w('SFPSETSGN', { instr_mod1: 1, lreg_dest: 7, lreg_c: 7, imm12_math: 1 })]);
  assert.equal(hex(getL(st, 7)[0]!), '0xbfc00000');
});

test('PRNG: seeding (B4), SFPMOV from the PRNG, SFP_STOCH_RND advances it in nearest mode too (A3)', () => {
  const st = machine();
  st.seedPrng(0x12345678);
  assert.deepEqual(
    h([st.prng[0]!, st.prng[1]!, st.prng[2]!, st.prng[3]!, st.prng[31]!]),
    h([0x837ee01d, 0x0dfb8074, 0x37ee01d0, 0xdfb80742, 0x4e0d6479]),
  );
  const z = machine();
  z.seedPrng(0);
  assert.equal(hex(z.prng[0]!), '0xc5cf309e');
  exec(st, [
    w('SFPMOV', { instr_mod1: 8, lreg_dest: 0, lreg_c: 9 }),
    w('SFP_STOCH_RND', { instr_mod1: 1, lreg_dest: 2, lreg_src_c: 1, lreg_src_b: 1 }),
    w('SFPMOV', { instr_mod1: 8, lreg_dest: 3, lreg_c: 9 }),
  ]);
  assert.deepEqual(h([getL(st, 0)[0]!, getL(st, 3)[0]!]), h([0x837ee01d, 0xa0dfb807]));
  // SFPMOV negate and all-lanes mode
  st.useLaneFlags = 1;
  st.laneFlags = 1;
  setL(st, 4, 0x3f800000);
  setL(st, 5, 0);
  exec(st, [w('SFPMOV', { instr_mod1: 1, lreg_dest: 5, lreg_c: 4 })]);
  assert.deepEqual(h(getL(st, 5).slice(0, 2)), h([0xbf800000, 0]));
  exec(st, [w('SFPMOV', { instr_mod1: 2, lreg_dest: 5, lreg_c: 4 })]);
  assert.deepEqual(h(getL(st, 5).slice(0, 2)), h([0x3f800000, 0x3f800000]));
});

test('SFPCAST rounds ties to even, SFP_STOCH_RND ties away (B5); saturation of NaN/Inf', () => {
  const st = machine();
  setL(st, 0, [0x01000001, 0x01000003, 0x80000005, 0x80000000, 0]);
  exec(st, [w('SFPCAST', { lreg_dest: 1, lreg_src_c: 0 })]);
  assert.deepEqual(h(getL(st, 1).slice(0, 5)), h([0x4b800000, 0x4b800002, 0xc0a00000, 0x80000000, 0]));
  // FP32 -> INT8 (mod1 3, keeps sign): 0.5 -> 1, 1.5 -> 2, 2.5 -> 3, -1.5 -> -2, +qNaN -> 127, -Inf -> -127
  setL(
    st,
    2,
    [0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000, 0x7fc00000, 0xff800000, 0x3effffff, 0x437f8000],
  );
  exec(st, [w('SFP_STOCH_RND', { instr_mod1: 3, lreg_dest: 3, lreg_src_c: 2, lreg_src_b: 2 })]);
  assert.deepEqual(h(getL(st, 3).slice(0, 8)), h([1, 2, 3, 0x80000002, 0x7f, 0x8000007f, 0, 0x7f]));
  // FP32 -> UINT16 (mod1 6) drops the sign; 255.5 -> 256 via UINT8 clamps to 255 (mod1 2)
  exec(st, [w('SFP_STOCH_RND', { instr_mod1: 6, lreg_dest: 4, lreg_src_c: 2, lreg_src_b: 2 })]);
  assert.deepEqual(h(getL(st, 4).slice(0, 8)), h([1, 2, 3, 2, 65535, 65535, 0, 256]));
  exec(st, [w('SFP_STOCH_RND', { instr_mod1: 2, lreg_dest: 4, lreg_src_c: 2, lreg_src_b: 2 })]);
  assert.equal(getL(st, 4)[7], 255);
  // FP32 -> BF16 (mod1 1): ties away on the magnitude, denormal -> 0, Inf/NaN -> Inf
  setL(st, 5, [0x3f808000, 0x3f807fff, 0xbf808000, 0x00400000, 0x7fc00001, 0xff800001]);
  exec(st, [w('SFP_STOCH_RND', { instr_mod1: 1, lreg_dest: 6, lreg_src_c: 5, lreg_src_b: 5 })]);
  assert.deepEqual(
    h(getL(st, 6).slice(0, 6)),
    h([0x3f810000, 0x3f800000, 0xbf810000, 0, 0x7f800000, 0xff800000]),
  );
  // FP32 -> FP16A precision (mod1 0, docs): keeps 10 mantissa bits
  setL(st, 5, [0x3f801000, 0x3f800fff]);
  exec(st, [w('SFP_STOCH_RND', { instr_mod1: 0, lreg_dest: 6, lreg_src_c: 5, lreg_src_b: 5 })]);
  assert.deepEqual(h(getL(st, 6).slice(0, 2)), h([0x3f802000, 0x3f800000]));
});

test('stochastic rounding uses AdvancePRNG: SFP_STOCH_RND rnd_mode=1 (WH and BH formulas), SFPCAST mod1=1', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const st = machine(arch);
    st.prng.fill(1); // 23 PRNG bits = 1: any discarded bit rounds up
    st.prng[1] = 0x7fffff; // only an all-ones discard rounds up
    setL(st, 0, [0x3f800001, 0x3f80fffe, 0x3f80ffff]);
    st.prng[2] = 0x7fffff;
    exec(st, [
      w('SFP_STOCH_RND', { instr_mod1: 1, lreg_dest: 1, lreg_src_c: 0, lreg_src_b: 0, rnd_mode: 1 }, arch),
    ]);
    // WH: (discard << 7) >= bits, so 0xffff << 7 = 0x7fff80 does not reach 0x7fffff;
    // BH: discard >= bits >> 7 = 0xffff does (the two pages' formulas differ)
    const last = arch === 'wormhole' ? 0x3f800000 : 0x3f810000;
    assert.deepEqual(h(getL(st, 1).slice(0, 3)), h([0x3f810000, 0x3f800000, last]), arch);
  }
  const bh = machine('blackhole');
  setL(bh, 0, 0x3f80fffe);
  exec(bh, [
    w(
      'SFP_STOCH_RND',
      { instr_mod1: 1, lreg_dest: 1, lreg_src_c: 0, lreg_src_b: 0, rnd_mode: 2 },
      'blackhole',
    ),
  ]);
  assert.equal(hex(getL(bh, 1)[0]!), '0x3f800000'); // RND_ZERO: only 0xffff rounds up
  const st = machine();
  setL(st, 0, 0x01000001); // Norm & 0xfe = 0x80
  st.prng.fill(0);
  st.prng[1] = 0xffffffff;
  exec(st, [w('SFPCAST', { instr_mod1: 1, lreg_dest: 1, lreg_src_c: 0 })]);
  assert.deepEqual(h(getL(st, 1).slice(0, 2)), h([0x4b800001, 0x4b800000]));
});

test('SFP_STOCH_RND INT32 -> INT8/UINT8 with shift (mod1 4/5, +8 = Imm5), sign-magnitude in and out', () => {
  const st = machine();
  setL(st, 0, [1280, 1288, 0x8000012c, 0x80000008]);
  exec(st, [w('SFP_STOCH_RND', { instr_mod1: 13, lreg_dest: 1, lreg_src_c: 0, imm8_math: 4 })]);
  assert.deepEqual(h(getL(st, 1).slice(0, 4)), h([80, 81, 0x80000013, 0x80000001]));
  setL(st, 2, 1); // shift by L2 & 31 = 1
  exec(st, [w('SFP_STOCH_RND', { instr_mod1: 4, lreg_dest: 1, lreg_src_c: 0, lreg_src_b: 2 })]);
  assert.deepEqual(h(getL(st, 1).slice(0, 4)), h([255, 255, 150, 4]));
});

test("Blackhole SFPCAST modes 2 (abs) and 3 (two's complement -> sign-magnitude, C1)", () => {
  const st = machine('blackhole');
  setL(st, 0, [0xffffffff, 0xfffffffb, 0x80000001, 0x80000000, 5]);
  exec(st, [w('SFPCAST', { instr_mod1: 3, lreg_dest: 1, lreg_src_c: 0 }, 'blackhole')]);
  assert.deepEqual(h(getL(st, 1).slice(0, 5)), h([0x80000001, 0x80000005, 0xffffffff, 0x80000000, 5]));
  exec(st, [w('SFPCAST', { instr_mod1: 2, lreg_dest: 1, lreg_src_c: 0 }, 'blackhole')]);
  assert.deepEqual(h(getL(st, 1).slice(0, 5)), h([1, 5, 0x7fffffff, 0x80000000, 5]));
});

test('Blackhole SFPMUL24 (C1) and SFPARECIP (C1); the reciprocal table matches SFPARECIP.md', () => {
  const st = machine('blackhole');
  setL(st, 0, 0x3fc00000);
  exec(st, [
    w('SFPMUL24', { instr_mod1: 0, lreg_dest: 1, lreg_src_a: 0, lreg_src_b: 0, lreg_src_c: 9 }, 'blackhole'),
    w('SFPMUL24', { instr_mod1: 1, lreg_dest: 2, lreg_src_a: 0, lreg_src_b: 0, lreg_src_c: 9 }, 'blackhole'),
  ]);
  assert.deepEqual(h([getL(st, 1)[0]!, getL(st, 2)[0]!]), h([0, 0x00200000]));
  setL(
    st,
    3,
    [0x3f800000, 0x40000000, 0x3fc00000, 0xc0400000, 0x7e7fffff, 0x00800000, 0x7fc00000, 0x80000000],
  );
  exec(st, [w('SFPARECIP', { lreg_dest: 4, lreg_c: 3 }, 'blackhole')]);
  assert.deepEqual(
    h(getL(st, 4).slice(0, 8)),
    h([0x3f7f0000, 0x3eff0000, 0x3f2a0000, 0xbeaa0000, 0x00800000, 0x7e7f0000, 0, 0xff800000]),
  );
  // the 128 entries printed in BlackholeA0 SFPARECIP.md's ApproxRecip
  const documented = [
    127, 125, 123, 121, 119, 117, 116, 114, 112, 110, 109, 107, 105, 104, 102, 100, 99, 97, 96, 94, 93, 91,
    90, 88, 87, 85, 84, 83, 81, 80, 79, 77, 76, 75, 74, 72, 71, 70, 69, 68, 66, 65, 64, 63, 62, 61, 60, 59,
    58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 40, 39, 38, 37, 36, 35, 35,
    34, 33, 32, 31, 31, 30, 29, 28, 28, 27, 26, 25, 25, 24, 23, 23, 22, 21, 21, 20, 19, 19, 18, 17, 17, 16,
    15, 15, 14, 14, 13, 12, 12, 11, 11, 10, 9, 9, 8, 8, 7, 7, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0,
  ];
  assert.deepEqual([...RECIP_LUT], documented);
  // COND_RECIP (mod1 1): only where LReg[VB] < 0, result without sign
  setL(st, 5, [-1 >>> 0, 0]);
  setL(st, 6, 0xc0000000);
  exec(st, [w('SFPARECIP', { instr_mod1: 1, lreg_dest: 6, lreg_c: 6, imm12_math: 5 }, 'blackhole')]);
  assert.deepEqual(h(getL(st, 6).slice(0, 2)), h([0x3eff0000, 0xc0000000]));
});

test('SFPCONFIG: LReg[11..14], LoadMacroConfig, LaneConfig, per-lane LoadMacroConfig', () => {
  const st = machine();
  setL(st, 0, 0x3e800000);
  exec(st, [
    w('SFPCONFIG', { config_dest: 12 }),
    w('SFPCONFIG', { config_dest: 11, instr_mod1: 1 }),
    w('SFPCONFIG', { config_dest: 13, instr_mod1: 1 }),
    w('SFPCONFIG', { config_dest: 5, instr_mod1: 1, imm16_math: 0xbeef }),
    w('SFPCONFIG', { config_dest: 8, instr_mod1: 1, imm16_math: 0x123 }),
    w('SFPCONFIG', { config_dest: 8, instr_mod1: 3, imm16_math: 0x400 }), // OR
    w('SFPCONFIG', { config_dest: 15, instr_mod1: 1, imm16_math: 0x104 }),
    w('SFPCONFIG', { config_dest: 2 }),
  ]);
  assert.deepEqual(
    h([st.lreg[12 * 32]!, st.lreg[11 * 32 + 31]!, st.lreg[13 * 32]!]),
    h([0x3e800000, 0xbf800000, 0xbf2cc4c7]),
  );
  assert.deepEqual(
    [st.lmSequence[1], st.lmMisc, st.laneConfig, st.lmTemplates[2]],
    [0xbeef, 0x523, 0x104, 0x3e800000],
  );
  // LReg[11..14] are per lane: lanes whose lane&7 flag is clear keep their value
  st.laneConfig = 0;
  st.useLaneFlags = 1;
  st.laneFlags = 0b11;
  setL(st, 0, [1, 2, 3, 4, 5, 6, 7, 8]);
  exec(st, [w('SFPCONFIG', { config_dest: 14 })]);
  assert.deepEqual(
    Array.from(st.lreg.subarray(14 * 32, 14 * 32 + 10)),
    [1, 2, 0xbeb08ff9, 0xbeb08ff9, 0xbeb08ff9, 0xbeb08ff9, 0xbeb08ff9, 0xbeb08ff9, 1, 2],
  );
  // Sequence[1] is per lane too: lanes whose lane&7 flag is set take LReg[0][lane & 7], the others
  // keep 0xbeef; SFPMOV FROM_SPECIAL reads each lane's value back
  exec(st, [w('SFPCONFIG', { config_dest: 5 })]);
  assert.equal(st.lmSplit, 1);
  st.useLaneFlags = 0;
  exec(st, [
    w('SFPMOV', { instr_mod1: 8, lreg_dest: 1, lreg_c: 5 }),
    w('SFPMOV', { instr_mod1: 8, lreg_dest: 2, lreg_c: 8 }),
  ]);
  assert.deepEqual(getL(st, 1).slice(0, 10), [1, 2, 0xbeef, 0xbeef, 0xbeef, 0xbeef, 0xbeef, 0xbeef, 1, 2]);
  assert.deepEqual([getL(st, 2)[0], getL(st, 2)[31]], [0x523, 0x523]);
  // one value in every lane again: back to the shared copy
  exec(st, [w('SFPCONFIG', { config_dest: 5, instr_mod1: 1, imm16_math: 0x1234 })]);
  assert.deepEqual([st.lmSplit, st.lmSequence[1]], [0, 0x1234]);
});

test('backdoor template load (VD 12..15), DISABLE_BACKDOOR_LOAD, and the TEN-2932 erratum', () => {
  const st = machine();
  const tmpl = 0x840fffd3; // SFPMAD with VD = 13 and a mod1 that would be refused if executed
  exec(st, [tmpl]);
  assert.equal(hex(st.lmTemplates[1]!), hex(tmpl));
  // LaneEnabled does not gate the template write (it sits inside the execute branch of the models)
  st.useLaneFlags = 1;
  st.laneFlags = 0xffff;
  exec(st, [0x840123d0]);
  assert.deepEqual([hex(st.lmTemplates[1]!), st.lmSplit], [hex(0x840123d0), 0]);
  // with DISABLE_BACKDOOR_LOAD the word executes; a MAD into VD 13 writes nothing
  st.useLaneFlags = 0;
  st.laneConfig = 2;
  const before = st.lreg.slice();
  exec(st, [0x840123d0]);
  assert.deepEqual(st.lreg.subarray(0, 17 * 32), before.subarray(0, 17 * 32));
  assert.equal(hex(st.lmTemplates[1]!), hex(0x840123d0));
  // ENABLE_DEST_INDEX: results written to LReg[4..7] are undefined (ttsim: erratum TEN-2932)
  st.laneConfig = 4;
  exec(st, [w('SFPMAD', { lreg_dest: 1, lreg_src_a: 10, lreg_src_b: 10, lreg_src_c: 9 })]);
  assert.throws(
    () => exec(st, [w('SFPMAD', { lreg_dest: 5, lreg_src_a: 10, lreg_src_b: 10, lreg_src_c: 9 })]),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
  // the same check for the flag-stack instructions, which the run loop executes inline
  assert.throws(
    () => exec(st, [w('SFPPUSHC', { lreg_dest: 5 })]),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
});
