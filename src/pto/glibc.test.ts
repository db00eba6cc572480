/**
 * glibc exp / pow replicas. Expected bit patterns were printed by glibc 2.36's libm (x86-64, FMA
 * build selected on an FMA + AVX2 CPU) for the same arguments — the library the reference simulator
 * links — and are the cases where it differs from the correctly rounded result; the fma64 cases are
 * worked by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fma64, glibcExp, glibcPow } from './glibc.ts';
import { createTile, execute, readTile } from './index.ts';
import { crExp, crPow } from './libm.ts';

const bits = (x: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(x);
  return b.toString('hex');
};

test('fma64 rounds a * b + c once', () => {
  // (1 + 2^-27)^2 = 1 + 2^-26 + 2^-54: rounding the product first would lose the 2^-54
  const a = 1 + 2 ** -27;
  assert.equal(fma64(a, a, -(1 + 2 ** -26)), 2 ** -54);
  // (1 + 2^-52)^2 - 3 * 2^-53 = 1 + 2^-53 + 2^-104: just above the tie, so it rounds up
  const b = 1 + 2 ** -52;
  assert.equal(fma64(b, b, -3 * 2 ** -53), 1 + 2 ** -52);
  // same tie from below: 1 + 2^-53 - 2^-104 rounds down
  assert.equal(fma64(1 - 2 ** -53, 1 + 2 ** -51, -(2 ** -52)), 1);
  assert.equal(fma64(3, 5, 7), 22);
  assert.equal(fma64(-2, 0.5, 1), 0);
});

test('glibc exp: values where glibc and the correctly rounded result differ', () => {
  assert.equal(bits(glibcExp(556)), '72119c88be195115');
  assert.notEqual(bits(crExp(556)), '72119c88be195115');
  assert.equal(bits(glibcExp(-488)), '13ef3aa7a8605559');
  assert.equal(bits(glibcExp(-286)), '2624f476c6d7ca23');
  // half inputs (f16 0x1594, 0x18a0, 0x2649)
  assert.equal(bits(glibcExp(0.001361846923828125)), '3ff00594f9097002');
  assert.equal(bits(glibcExp(0.00225830078125)), '3ff00942ad03fbbe');
  assert.equal(bits(glibcExp(0.0245513916015625)), '3ff065cea0b47b08');
});

test('glibc exp: special values', () => {
  assert.equal(glibcExp(0), 1);
  assert.equal(glibcExp(Number.NEGATIVE_INFINITY), 0);
  assert.equal(glibcExp(Number.POSITIVE_INFINITY), Number.POSITIVE_INFINITY);
  assert.ok(Number.isNaN(glibcExp(Number.NaN)));
  assert.equal(glibcExp(710), Number.POSITIVE_INFINITY);
  assert.equal(glibcExp(-746), 0);
  assert.equal(glibcExp(-745), 5e-324); // the smallest subnormal
  assert.equal(glibcExp(1e-300), 1);
});

test('glibc pow: integer powers where glibc differs from the correctly rounded result', () => {
  const cases: [number, number, string][] = [
    [-99, 8, '4340642834a61550'],
    [-63, 9, 'c34bc56f81a6e11f'],
    [-41, 10, '4347d7eb340fb569'],
    [-29, 11, 'c345ac264554f032'],
    [-17, 13, 'c3419814a3a69769'],
    [-7, 19, 'c3443f9e0d2d93ec'],
  ];
  for (const [x, y, want] of cases) assert.equal(bits(glibcPow(x, y)), want, `pow(${x}, ${y})`);
  assert.notEqual(bits(crPow(-99, 8)), '4340642834a61550');
});

test('glibc pow: C special cases', () => {
  assert.equal(glibcPow(Number.NaN, 0), 1);
  assert.equal(glibcPow(1, Number.NaN), 1);
  assert.ok(Number.isNaN(glibcPow(-2, 0.5)));
  assert.equal(glibcPow(-1, Number.POSITIVE_INFINITY), 1);
  assert.equal(glibcPow(0.5, Number.POSITIVE_INFINITY), 0);
  assert.equal(glibcPow(2, Number.NEGATIVE_INFINITY), 0);
  assert.ok(Object.is(glibcPow(-0, 3), -0));
  assert.equal(glibcPow(-0, -3), Number.NEGATIVE_INFINITY);
  assert.equal(glibcPow(0, -2), Number.POSITIVE_INFINITY);
  assert.equal(glibcPow(Number.NEGATIVE_INFINITY, 3), Number.NEGATIVE_INFINITY);
  assert.equal(glibcPow(-2, 3), -8);
  assert.equal(glibcPow(2, 1024), Number.POSITIVE_INFINITY);
  assert.equal(glibcPow(2, -1074), 5e-324);
  assert.equal(glibcPow(5e-324, 0.5), 2.2227587494850775e-162);
});

test('glibc exp / pow stay within one ulp of the correctly rounded result', () => {
  const ulp = (x: number) => {
    const e = Math.floor(Math.log2(Math.abs(x)));
    return 2 ** Math.max(e - 52, -1074);
  };
  fc.assert(
    fc.property(fc.double({ min: -700, max: 700, noNaN: true }), (x) => {
      const g = glibcExp(x);
      return Math.abs(g - crExp(x)) <= ulp(g);
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(
      fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
      fc.double({ min: -50, max: 50, noNaN: true }),
      (x, y) => {
        const g = glibcPow(x, y);
        if (g === 0 || !Number.isFinite(g)) return true;
        return Math.abs(g - crPow(x, y)) <= ulp(g);
      },
    ),
    { numRuns: 2000 },
  );
});

test('TPOWS i64 shows every bit of pow: (-99)^8 as glibc rounds it', () => {
  // glibc's pow(-99, 8) = 0x4340642834a61550 = 9227446944279200 (the exact power ends in ...201)
  const src = createTile({ dtype: 'i64', rows: 1, cols: 4, validRow: 1, validCol: 1 }, [-99n, 0n, 0n, 0n]);
  const dst = createTile({ dtype: 'i64', rows: 1, cols: 4, validRow: 1, validCol: 1 });
  execute('TPOWS', { dst, src }, { scalar: 8n });
  assert.equal((readTile(dst) as bigint[][])[0]![0], 9227446944279200n);
});
