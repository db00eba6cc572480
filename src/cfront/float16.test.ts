/**
 * `_Float16` (IEEE 754 binary16) in the C front end: encodings from the standard's format (1 sign
 * bit, 5 exponent bits biased by 15, 10 fraction bits), rounding to nearest with ties to even, and
 * arithmetic in binary16 (each operation rounded once, FLT_EVAL_METHOD 0 as on arm64).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Value } from './eval.ts';
import { loadProgram } from './index.ts';
import { halfBits, halfValue, roundHalf } from './literal.ts';

test('binary16 encodings and rounding', () => {
  // encodings worked from the format: value = (-1)^s * 2^(e-15) * (1 + f/1024), subnormal 2^-14 * f/1024
  const known: [number, number][] = [
    [0x3c00, 1],
    [0xc000, -2],
    [0x7bff, 65504],
    [0x0400, 2 ** -14],
    [0x03ff, 2 ** -14 - 2 ** -24],
    [0x0001, 2 ** -24],
    [0x3555, 1365 * 2 ** -12], // 1/3 rounded: 0x155 = 341, (1024 + 341) * 2^(13 - 25)
    [0x7c00, Number.POSITIVE_INFINITY],
    [0xfc00, Number.NEGATIVE_INFINITY],
    [0x8000, -0],
  ];
  for (const [h, v] of known) {
    assert.ok(Object.is(halfValue(h), v), `value of 0x${h.toString(16)}`);
    assert.equal(halfBits(v), h, `bits of ${v}`);
  }
  assert.equal(halfBits(roundHalf(1 / 3)), 0x3555);
  assert.equal(roundHalf(65519), 65504); // below the midpoint 65520
  assert.equal(roundHalf(65520), Number.POSITIVE_INFINITY);
  assert.equal(roundHalf(2 ** -25), 0); // a tie between 0 and 2^-24: to even (0)
  assert.equal(roundHalf(3 * 2 ** -25), 2 ** -23); // a tie between 2^-24 and 2^-23: to even
  assert.equal(roundHalf(2049), 2048); // spacing 2 above 2048: tie to even
  assert.equal(roundHalf(2051), 2052);
  // every encoding round-trips; every double rounds to a nearest encoding (ties to the even one)
  for (let h = 0; h < 0x10000; h++) {
    const v = halfValue(h);
    if (Number.isNaN(v)) continue;
    assert.equal(halfBits(v), h);
    assert.ok(Object.is(roundHalf(v), v));
  }
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0x7bfe }), fc.double({ min: 0, max: 1, noNaN: true }), (h, t) => {
      // a point between the neighbours h and h + 1 (positive, finite)
      const lo = halfValue(h);
      const hi = halfValue(h + 1);
      const v = lo + (hi - lo) * t;
      const r = roundHalf(v);
      const want = v - lo < hi - v ? lo : v - lo > hi - v ? hi : h % 2 === 0 ? lo : hi;
      assert.equal(r, want);
      assert.equal(roundHalf(-v), -want);
    }),
    { numRuns: 2000 },
  );
});

test('_Float16 in C: storage, conversions and arithmetic in binary16', () => {
  const src = `
typedef union { _Float16 h; unsigned short u; } H;
unsigned bits(double d) { H x; x.h = d; return x.u; }
double third(void) { _Float16 a = 1, b = 3; _Float16 c = a / b; return c; }
double add(double p, double q) { _Float16 a = p, b = q; return a + b; }
double mul(double p, double q) { _Float16 a = p, b = q; _Float16 c = a * b; return c; }
int sz(void) { return sizeof(_Float16) * 10 + _Alignof(_Float16); }
float widen(unsigned short u) { H x; x.u = u; return x.h; }
unsigned narrow(float f) { H x; x.h = (_Float16)f; return x.u; }
int toint(double d) { _Float16 a = d; return (int)a; }
typedef union { _Float16 f16[32]; float f32[16]; } Reg;
int regsize(void) { return sizeof(Reg); }
`;
  const ev = loadProgram(src, { file: 'h.c', model: 'lp64' }).ev;
  const run = (e: string): Value => ev.callEntry(e);
  const int = (e: string) => (run(e) as { v: bigint }).v;
  const num = (e: string) => (run(e) as { v: number }).v;
  assert.equal(int('bits(1.0/3)'), 0x3555n);
  assert.equal(num('third()'), 1365 * 2 ** -12);
  assert.equal(num('add(2048, 1)'), 2048); // 2049 is a tie: to even
  assert.equal(num('add(2048, 3)'), 2052);
  assert.equal(num('add(65504, 16)'), Number.POSITIVE_INFINITY); // 65520 overflows
  assert.equal(num('mul(0.1, 0.1)'), roundHalf(roundHalf(0.1) * roundHalf(0.1)));
  assert.equal(int('sz()'), 22n);
  assert.equal(int('bits(65519.0)'), 0x7bffn);
  assert.equal(int('bits(-0.0)'), 0x8000n);
  assert.equal(int('bits(1e-30)'), 0n);
  assert.equal(int('toint(-7.9)'), -7n);
  assert.equal(int('regsize()'), 64n);
  // NaNs keep their sign and high payload bits (quiet) across widths
  const w = run('widen(0xfe01u)') as { v: number; nan?: bigint };
  assert.ok(Number.isNaN(w.v));
  assert.equal(w.nan, 0xffc02000n);
  assert.equal(int('narrow(widen(0xfe01u))'), 0xfe01n);
  // functions with _Float16 stay with the tree walker
  const f = ev.functionDecls().find((d) => d.name === 'third')!.decl;
  assert.equal(ev.jit!.get(f), undefined);
});
