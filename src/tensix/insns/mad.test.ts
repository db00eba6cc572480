/**
 * SFPMAD family. Expected bit patterns are the ttsim results listed in SFPU-NOTES.md (A5, A6, B1-B3,
 * C1, C2) and values worked by hand from the functional models (SFPMAD.md, SFPMULI.md, SFPADDI.md).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Arch } from '../encoding.ts';
import { fmaBh, fmaWh } from '../fma.ts';
import { exec, getL, hex, machine, setL, w } from '../testutil.ts';

const INF = 0x7f800000;
const NINF = 0xff800000;

function mad(arch: Arch, a: number, b: number, c: number): number {
  return arch === 'wormhole' ? fmaWh(a, b, c) : fmaBh(a, b, c);
}

test('MAD single rounding (SFPU-NOTES B1): partial fusion, both archs', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    assert.equal(hex(mad(arch, 0x3f800001, 0x3f7fffff, 0xbf800000)), '0x33400000');
    assert.equal(hex(mad(arch, 0xc0b82000, 0xc195e41f, 0xc2d79d69)), '0xb7d80000');
    assert.equal(hex(mad(arch, 0x4b063be7, 0xc9e84d8e, 0x55739deb)), '0x4a580000');
    // ordinary exact cases: 1.5*2+0.25 = 3.25; 3*(2^-7) = 0.0234375
    assert.equal(hex(mad(arch, 0x3fc00000, 0x40000000, 0x3e800000)), '0x40500000');
    assert.equal(hex(mad(arch, 0x40400000, 0x3c000000, 0)), '0x3cc00000');
  }
  // Math.fround(a*b+c) rounds twice and gives something else for the first case:
  const f = new Float32Array([1 + 2 ** -23, 1 - 2 ** -24, -1]);
  const dbl = Math.fround(f[0]! * f[1]! + f[2]!);
  const u = new Uint32Array(new Float32Array([dbl]).buffer)[0]!;
  assert.notEqual(u, 0x33400000);
});

test('MAD product underflow drops the product (A6)', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    assert.equal(hex(mad(arch, 0xb3032b10, 0x8c1b3b28, 0x00800000)), '0x00800000');
    assert.equal(hex(mad(arch, 0x38eab5be, 0x06aa2c8e, 0x80800000)), '0x80800000');
  }
});

test('MAD NaN and infinity rules: WH payloads (B2, A5) vs BH canonical NaN (C2)', () => {
  const cases: [number, number, number, number, number][] = [
    // a, b, c, WH, BH
    [INF, 0, 0x3f800000, 0x7f800001, 0x7fc00000],
    [INF, 0x3f800000, NINF, 0x7f800001, 0x7fc00000],
    [0x7fc00000, 0x3f800000, 0, 0x7f800001, 0x7fc00000],
    [0x3f800000, 0x3f800000, 0x7fc00000, 0x7f800001, 0x7fc00000],
    [0xffc00001, 0x40000000, 0x3f800000, 0xff800001, 0x7fc00000],
    [0x3f800000, NINF, INF, 0xff800001, 0x7fc00000],
    [0xad02a33d, 0x7fffffff, 0xbf800000, 0xff82a33d, 0x7fc00000],
    [0x40490fdb, INF, NINF, 0x7f921fb7, 0x7fc00000],
    [0x7f7fffff, 0x7f7fffff, NINF, 0x7f800001, NINF],
    // finite * Inf and Inf + finite keep the infinity
    [0x40000000, NINF, 0x3f800000, NINF, NINF],
    [0x3f800000, 0x3f800000, INF, INF, INF],
  ];
  for (const [a, b, c, wh, bh] of cases) {
    assert.equal(hex(fmaWh(a, b, c)), hex(wh), `WH ${hex(a)}*${hex(b)}+${hex(c)}`);
    assert.equal(hex(fmaBh(a, b, c)), hex(bh), `BH ${hex(a)}*${hex(b)}+${hex(c)}`);
  }
});

test('MAD zeros and denormals: WH flushes to +0, BH keeps the sign and rounds first (B3, C2)', () => {
  assert.equal(fmaWh(0x80000000, 0x3f800000, 0x80000000), 0);
  assert.equal(fmaWh(0xbf800000, 0, 0x80000000), 0);
  assert.equal(fmaWh(0x00ffffff, 0x3f000000, 0), 0);
  assert.equal(hex(fmaBh(0x80000000, 0x3f800000, 0x80000000)), '0x80000000');
  assert.equal(hex(fmaBh(0xbf800000, 0, 0x80000000)), '0x80000000');
  assert.equal(hex(fmaBh(0x00ffffff, 0x3f000000, 0)), '0x00800000');
  assert.equal(hex(fmaBh(0x80ffffff, 0x3f000000, 0x80000000)), '0x80800000');
  // exact cancellation gives +0 on both
  assert.equal(fmaBh(0x3f800000, 0x3f800000, 0xbf800000), 0);
  assert.equal(fmaWh(0x3f800000, 0x3f800000, 0xbf800000), 0);
  // denormal inputs count as zero: denormal * 1 + 0 -> +0; 1 * 1 + denormal -> 1
  assert.equal(fmaWh(0x00400000, 0x3f800000, 0), 0);
  assert.equal(fmaBh(0x00400000, 0x3f800000, 0), 0);
  assert.equal(hex(fmaWh(0x3f800000, 0x3f800000, 0x007fffff)), '0x3f800000');
  // overflow to infinity
  assert.equal(hex(fmaWh(0x7f7fffff, 0x40000000, 0)), hex(INF));
  assert.equal(hex(fmaBh(0xff7fffff, 0x40000000, 0)), hex(NINF));
});

test('SFPMAD/SFPADD/SFPMUL/SFPMULI/SFPADDI instructions, lane masks, VD 8..11 drops the write', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const st = machine(arch);
    setL(st, 0, 0x3fc00000); // 1.5
    setL(st, 1, 0x40000000); // 2
    setL(st, 2, 0x3e800000); // 0.25
    setL(st, 3, 0x40400000); // 3
    exec(st, [
      w('SFPMAD', { lreg_dest: 4, lreg_src_a: 0, lreg_src_b: 1, lreg_src_c: 2 }, arch), // 3.25
      w('SFPADD', { lreg_dest: 5, lreg_src_a: 10, lreg_src_b: 0, lreg_src_c: 1 }, arch), // 3.5
      w('SFPMUL', { lreg_dest: 6, lreg_src_a: 0, lreg_src_b: 1, lreg_src_c: 9 }, arch), // 3
      w('SFPMULI', { lreg_dest: 3, imm16_math: 0x3c00 }, arch), // 3 * 2^-7
      w('SFPADDI', { lreg_dest: 2, imm16_math: 0x3f00 }, arch), // 0.25 + 0.5
      w('SFPMAD', { lreg_dest: 8, lreg_src_a: 0, lreg_src_b: 1, lreg_src_c: 2 }, arch), // dropped
    ]);
    assert.deepEqual(new Set(getL(st, 4)), new Set([0x40500000]));
    assert.deepEqual(new Set(getL(st, 5)), new Set([0x40600000]));
    assert.deepEqual(new Set(getL(st, 6)), new Set([0x40400000]));
    assert.deepEqual(new Set(getL(st, 3)), new Set([0x3cc00000]));
    assert.deepEqual(new Set(getL(st, 2)), new Set([0x3f400000]));
    assert.equal(st.lreg[8 * 32], 0x3f56594b);
    // lane mask: only even lanes
    st.useLaneFlags = 1;
    st.laneFlags = 0x55555555;
    setL(st, 7, 0);
    exec(st, [w('SFPMAD', { lreg_dest: 7, lreg_src_a: 0, lreg_src_b: 1, lreg_src_c: 9 }, arch)]);
    assert.deepEqual(getL(st, 7).slice(0, 4), [0x40400000, 0, 0x40400000, 0]);
  }
});

test('SFPADD/SFPMUL with any operands run as SFPMAD (docs; ttsim requires VA/VB = 10 or VC = 9)', () => {
  const st = machine('wormhole');
  setL(st, 0, 0x40000000);
  setL(st, 1, 0x40400000);
  setL(st, 2, 0x3f800000);
  exec(st, [
    w('SFPADD', { lreg_dest: 3, lreg_src_a: 0, lreg_src_b: 1, lreg_src_c: 2 }), // 2*3+1 = 7
    w('SFPMUL', { lreg_dest: 4, lreg_src_a: 0, lreg_src_b: 1, lreg_src_c: 2 }), // 7 as well
  ]);
  assert.equal(hex(getL(st, 3)[0]!), '0x40e00000');
  assert.equal(hex(getL(st, 4)[0]!), '0x40e00000');
});

test('Blackhole negation bits (C1): SFPMAD mod1=3, SFPADD mod1=1, SFPMUL mod1=1; WH rejects them', () => {
  const st = machine('blackhole');
  setL(st, 0, 0x3f800000);
  setL(st, 1, 0);
  exec(st, [
    w('SFPMAD', { instr_mod1: 3, lreg_dest: 2, lreg_src_a: 0, lreg_src_b: 0, lreg_src_c: 0 }, 'blackhole'),
    w('SFPMAD', { instr_mod1: 3, lreg_dest: 3, lreg_src_a: 1, lreg_src_b: 1, lreg_src_c: 1 }, 'blackhole'),
    w('SFPADD', { instr_mod1: 1, lreg_dest: 4, lreg_src_a: 10, lreg_src_b: 0, lreg_src_c: 9 }, 'blackhole'),
    w('SFPMUL', { instr_mod1: 1, lreg_dest: 5, lreg_src_a: 0, lreg_src_b: 0, lreg_src_c: 9 }, 'blackhole'),
  ]);
  assert.equal(hex(getL(st, 2)[0]!), '0xc0000000');
  assert.equal(hex(getL(st, 3)[0]!), '0x80000000');
  assert.equal(hex(getL(st, 4)[0]!), '0xbf800000');
  assert.equal(hex(getL(st, 5)[0]!), '0xbf800000');
  assert.throws(
    () => exec(machine('wormhole'), [w('SFPMAD', { instr_mod1: 1 })]),
    (e: unknown) => (e as { category?: string }).category === 'NonContractual',
  );
});

test('SFPMAD INDIRECT_VA / INDIRECT_VD (WormholeB0 SFPMAD.md; ttsim refuses them)', () => {
  const st = machine('wormhole');
  setL(st, 0, 0x40000000); // 2
  setL(st, 1, 0x40400000); // 3
  setL(st, 2, 0x3f800000); // 1
  setL(st, 7, [0, 1]); // lane-dependent register numbers
  exec(st, [w('SFPMAD', { instr_mod1: 4, lreg_dest: 4, lreg_src_a: 5, lreg_src_b: 2, lreg_src_c: 9 })]);
  assert.deepEqual(getL(st, 4).slice(0, 2), [0x40000000, 0x40400000]);
  setL(st, 7, [5, 6, 9]); // lane 2 targets a constant register: write dropped
  setL(st, 5, 0);
  setL(st, 6, 0);
  exec(st, [w('SFPMAD', { instr_mod1: 8, lreg_dest: 3, lreg_src_a: 0, lreg_src_b: 2, lreg_src_c: 9 })]);
  assert.deepEqual(
    [getL(st, 5)[0], getL(st, 6)[1], getL(st, 5)[2], getL(st, 6)[2]],
    [0x40000000, 0x40000000, 0, 0],
  );
  // SFPMULI with INDIRECT_VD
  setL(st, 7, 5);
  setL(st, 1, 0x40400000);
  exec(st, [w('SFPMULI', { instr_mod1: 8, lreg_dest: 1, imm16_math: 0x4000 })]); // L5 = 2 * L1
  assert.equal(hex(getL(st, 5)[0]!), '0x40c00000');
});
