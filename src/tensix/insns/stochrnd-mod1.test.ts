/**
 * SFP_STOCH_RND instr_mod1 bit 3 (UseImm5 / sfpi's SFPSTOCHRND_MOD1_IMM8) on the floating-point
 * flavours. The field is `UseImm5 << 3 | Mod1` (SFPSTOCHRND_IntInt.md syntax); Mod1 (bits 2:0)
 * selects the flavour and only the IntInt flavour reads UseImm5, so 8-11, 14 and 15 behave as
 * 0-3, 6 and 7 (docs/tensix.md, decisions). tt-llk's Wormhole `_init_exponential_` backdoor-loads
 * `TTI_SFP_STOCH_RND(0, 0, 0, 0, 14, 14)`. Expected values worked by hand from
 * SFPSTOCHRND_FloatInt.md / SFPSTOCHRND_FloatFloat.md (round to nearest: PRNGBits = 0x400000, so
 * ties go away from zero on the magnitude).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exec, getL, hex, machine, setL, w } from '../testutil.ts';

const h = (xs: number[]) => xs.map(hex);

// -0.5, 2.5, 65535.5, -Inf, +qNaN, 0.49999997, 300.75, -300.75
const IN = [0xbf000000, 0x40200000, 0x477fff80, 0xff800000, 0x7fc00000, 0x3effffff, 0x43966000, 0xc3966000];

for (const arch of ['wormhole', 'blackhole'] as const) {
  test(`${arch}: SFP_STOCH_RND mod1 14 = FP32_TO_UINT16, 15 = FP32_TO_INT16 (bit 3 ignored)`, () => {
    const st = machine(arch);
    setL(st, 2, IN);
    setL(st, 3, 7); // a VB the IntInt flavour would read as its shift; the float flavours must not
    // -0.5: Exp -1, Mag 0x400000 -> 0 + (0x400000 >= 0x400000) = 1, sign dropped (UINT16)
    // 2.5 -> 3; 65535.5 -> 65536 -> clamped; -Inf and NaN: Exp >= 16 -> maximum magnitude;
    // 0.49999997: Exp -2 -> 0; 300.75: Mag 0x96600000 >> 23 = 300, fraction 0x600000 -> 301
    exec(st, [w('SFP_STOCH_RND', { instr_mod1: 14, lreg_dest: 1, lreg_src_c: 2 }, arch)]);
    assert.deepEqual(h(getL(st, 1).slice(0, 8)), h([1, 3, 65535, 65535, 65535, 0, 301, 301]));
    // the same with a non-zero Imm5 and VB: FloatInt reads neither
    exec(st, [
      w('SFP_STOCH_RND', { instr_mod1: 14, lreg_dest: 4, lreg_src_c: 2, lreg_src_b: 3, imm8_math: 5 }, arch),
    ]);
    assert.deepEqual(getL(st, 4).slice(0, 8), getL(st, 1).slice(0, 8));
    // 15: keeps the sign, clamps to 32767
    exec(st, [w('SFP_STOCH_RND', { instr_mod1: 15, lreg_dest: 5, lreg_src_c: 2 }, arch)]);
    assert.deepEqual(
      h(getL(st, 5).slice(0, 8)),
      h([0x80000001, 3, 32767, 0x80007fff, 32767, 0, 301, 0x8000012d]),
    );
  });

  test(`${arch}: SFP_STOCH_RND mod1 8-11 = FP16A, FP16B, UINT8, INT8`, () => {
    const st = machine(arch);
    setL(st, 2, IN);
    exec(st, [w('SFP_STOCH_RND', { instr_mod1: 10, lreg_dest: 1, lreg_src_c: 2 }, arch)]);
    assert.deepEqual(h(getL(st, 1).slice(0, 8)), h([1, 3, 255, 255, 255, 0, 255, 255]));
    exec(st, [w('SFP_STOCH_RND', { instr_mod1: 11, lreg_dest: 1, lreg_src_c: 2 }, arch)]);
    assert.deepEqual(
      h(getL(st, 1).slice(0, 8)),
      h([0x80000001, 3, 127, 0x8000007f, 127, 0, 127, 0x8000007f]),
    );
    // FP16B keeps 7 mantissa bits: discard 0x8000 rounds up, 0x7fff does not; denormal -> 0;
    // Inf/NaN -> Inf of the same sign. FP16A keeps 10: discard 0x1000 rounds up.
    setL(st, 5, [0x3f808000, 0x3f807fff, 0xbf808000, 0x00400000, 0x7fc00001, 0x3f801000, 0x3f800fff]);
    exec(st, [w('SFP_STOCH_RND', { instr_mod1: 9, lreg_dest: 6, lreg_src_c: 5 }, arch)]);
    assert.deepEqual(h(getL(st, 6).slice(0, 5)), h([0x3f810000, 0x3f800000, 0xbf810000, 0, 0x7f800000]));
    exec(st, [w('SFP_STOCH_RND', { instr_mod1: 8, lreg_dest: 6, lreg_src_c: 5 }, arch)]);
    assert.deepEqual(h(getL(st, 6).slice(5, 7)), h([0x3f802000, 0x3f800000]));
  });
}
