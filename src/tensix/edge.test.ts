/**
 * Issue 18 differential sanity for the Tensix SFPU: SFPAND, SFPOR, SFPXOR, SFPNOT and SFPABS
 * (float and integer modes) on 32 lanes of edge values — signalling and quiet NaNs of both signs,
 * ±Inf, ±0, the smallest subnormal, INT32_MIN/MAX, all-ones — against an independent integer model
 * of each instruction's functional model (tt-isa-documentation SFPAND.md, SFPOR.md, SFPXOR.md,
 * SFPNOT.md, SFPABS.md with SFPU-NOTES A1). Every result is raw bits; no value is quieted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exec, getL, hex, machine, setL, w } from './testutil.ts';

const EDGE = [
  0x7fa00000, 0xffa00001, 0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x00000001,
  0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x7fffffff, 0xffffffff,
  0x80000000, 0x00000002, 0x55555555, 0xaaaaaaaa, 0x7f800001, 0xff800001, 0x12345678, 0xfedcba98, 0x0000ffff,
  0xffff0000, 0x40490fdb, 0xc0490fdb, 0x00400000, 0x80400000,
];
// the second operand: the same values in another order, so every lane pairs different kinds
const OTHER = EDGE.map((_, i) => EDGE[(i * 7 + 3) % 32]!);
const u = (x: number) => x >>> 0;

for (const arch of ['wormhole', 'blackhole'] as const) {
  test(`${arch}: SFPAND / SFPOR / SFPXOR / SFPNOT on edge bit patterns`, () => {
    const st = machine(arch);
    setL(st, 0, EDGE);
    setL(st, 1, OTHER);
    setL(st, 2, EDGE);
    setL(st, 3, EDGE);
    exec(st, [
      w('SFPAND', { lreg_dest: 0, lreg_c: 1 }, arch),
      w('SFPOR', { lreg_dest: 2, lreg_c: 1 }, arch),
      w('SFPXOR', { lreg_dest: 3, lreg_c: 1 }, arch),
      w('SFPNOT', { lreg_dest: 4, lreg_c: 1 }, arch),
    ]);
    assert.deepEqual(
      getL(st, 0).map(hex),
      EDGE.map((a, i) => hex(u(a & OTHER[i]!))),
      'SFPAND',
    );
    assert.deepEqual(
      getL(st, 2).map(hex),
      EDGE.map((a, i) => hex(u(a | OTHER[i]!))),
      'SFPOR',
    );
    assert.deepEqual(
      getL(st, 3).map(hex),
      EDGE.map((a, i) => hex(u(a ^ OTHER[i]!))),
      'SFPXOR',
    );
    assert.deepEqual(
      getL(st, 4).map(hex),
      OTHER.map((b) => hex(u(~b))),
      'SFPNOT',
    );
  });

  test(`${arch}: SFPABS float mode clears the sign except on a negative NaN; integer mode is |x| mod 2^32`, () => {
    const st = machine(arch);
    setL(st, 1, EDGE);
    exec(st, [
      w('SFPABS', { instr_mod1: 1, lreg_dest: 2, lreg_c: 1 }, arch),
      w('SFPABS', { instr_mod1: 0, lreg_dest: 3, lreg_c: 1 }, arch),
    ]);
    // float: a negative NaN (bits above 0xff800000) is kept as it is, anything else loses its sign
    // bit — so a positive signalling NaN stays signalling and -Inf becomes +Inf (SFPU-NOTES A1)
    const fabs = (b: number) => (u(b) > 0xff800000 ? u(b) : u(b & 0x7fffffff));
    // integer: two's complement magnitude, INT32_MIN stays 0x80000000
    const iabs = (b: number) => u((b | 0) < 0 ? -(b | 0) : b | 0);
    assert.deepEqual(
      getL(st, 2).map(hex),
      EDGE.map((b) => hex(fabs(b))),
      'SFPABS float',
    );
    assert.deepEqual(
      getL(st, 3).map(hex),
      EDGE.map((b) => hex(iabs(b))),
      'SFPABS int',
    );
    assert.equal(getL(st, 2)[0], 0x7fa00000, 'a signalling NaN is not quieted');
  });
}
