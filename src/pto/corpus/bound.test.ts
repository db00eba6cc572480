import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  add,
  type Bounded,
  bf16Bits,
  bf16HalfUlp,
  bf16Value,
  div,
  dot,
  exact,
  exp,
  mul,
  sqrt,
  sub,
  sum,
  toBf16,
} from './bound.ts';

const f = Math.fround;
const within = (got: number, b: Bounded, what: string) =>
  assert.ok(Math.abs(got - b.v) <= b.e, `${what}: ${got} vs ${b.v} ± ${b.e}`);
const f32 = fc.float({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map(f);

test('bounds hold for binary32 evaluation of each operation and of chains', () => {
  fc.assert(
    fc.property(f32, f32, f32, (a, b, c) => {
      const A = exact(a);
      const B = exact(b);
      const C = exact(c);
      within(f(a + b), add(A, B), 'add');
      within(f(a - b), sub(A, B), 'sub');
      within(f(a * b), mul(A, B), 'mul');
      // a chain: (a*b + c) * a, every step rounded to binary32
      within(f(f(f(a * b) + c) * a), mul(add(mul(A, B), C), A), 'chain');
      if (Math.abs(b) > 1e-3) within(f(f(a + c) / b), div(add(A, C), B), 'div');
      within(f(Math.sqrt(f(a * a + 1))), sqrt(add(mul(A, A), exact(1))), 'sqrt');
      const x = a / 1e6;
      within(f(Math.exp(f(x - c / 1e6))), exp(sub(exact(x), exact(c / 1e6))), 'exp');
    }),
    { numRuns: 2000 },
  );
});

test('dot and sum bounds hold for binary32 accumulation in two different orders', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(f32, f32), { minLength: 1, maxLength: 300 }), (ps) => {
      const a = ps.map(([x]) => exact(x));
      const b = ps.map(([, y]) => exact(y));
      let fwd = 0;
      for (const [x, y] of ps) fwd = f(fwd + f(x * y));
      let rev = 0;
      for (let i = ps.length - 1; i >= 0; i--) rev = f(rev + f(ps[i]![0] * ps[i]![1]));
      const d = dot(a, b);
      within(fwd, d, 'dot forward');
      within(rev, d, 'dot reverse');
      let s = 0;
      for (const [x] of ps) s = f(s + x);
      within(s, sum(a), 'sum');
    }),
    { numRuns: 500 },
  );
});

test('bf16: bits round trip, RNE rounding and the half-ulp bound', () => {
  assert.equal(bf16Bits(1), 0x3f80);
  assert.equal(bf16Value(0x3f80), 1);
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even -> 1; 1 + 3*2^-8 rounds up to 1 + 2^-6
  assert.equal(bf16Value(bf16Bits(1 + 2 ** -8)), 1);
  assert.equal(bf16Value(bf16Bits(1 + 3 * 2 ** -8)), 1 + 2 ** -6);
  assert.equal(bf16HalfUlp(1), 2 ** -8);
  assert.equal(bf16HalfUlp(1.99), 2 ** -8);
  fc.assert(
    fc.property(f32, (x) => {
      within(bf16Value(bf16Bits(x)), toBf16(exact(x)), 'bf16');
    }),
    { numRuns: 2000 },
  );
});
