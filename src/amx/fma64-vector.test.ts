import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fma64Exact } from './fp.ts';
import { AmxState, executeRaw } from './index.ts';

// fma64 / fms64 in vector mode (bit 63) with every lane enabled and aligned, non-wrapping X/Y
// offsets: the hot path of src/amx/insns/fma.ts, which tests operand exactness per lane and adds
// the exact product of binary32-valued operands with one rounding. Checked against the exact BigInt
// fused multiply-add (fma64Exact) lane by lane, NaN results as the default NaN 0x7ff8000000000000,
// on random rows that mix binary32 values (the fast case), arbitrary doubles, NaN, infinities,
// signed zeros and subnormals.
const special = fc.constantFrom(
  0,
  -0,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.NaN,
  5e-324,
  -2.5e-310,
  Number.MAX_VALUE,
);
const f32Valued = fc.float().map((v) => v as number);
const lane = fc.oneof(
  { arbitrary: f32Valued, weight: 4 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: special, weight: 1 },
);
const row = fc.oneof(
  fc.array(f32Valued, { minLength: 8, maxLength: 8 }),
  fc.array(lane, { minLength: 8, maxLength: 8 }),
);

const bits = new Float64Array(1);
const bitsU = new BigUint64Array(bits.buffer);
function f64Bits(v: number): bigint {
  if (Number.isNaN(v)) return 0x7ff8000000000000n;
  bits[0] = v;
  return bitsU[0]!;
}

test('fma64/fms64 vector mode (hot path) equals the exact fused multiply-add per lane', () => {
  fc.assert(
    fc.property(
      row,
      row,
      row,
      fc.integer({ min: 0, max: 7 }),
      fc.integer({ min: 0, max: 7 }),
      fc.integer({ min: 0, max: 63 }),
      fc.boolean(),
      (xs, ys, zs, xr, yr, zrow, fms) => {
        const s = new AmxState({ gen: 'm4' });
        s.enabled = true;
        const x = s.xf64;
        const y = s.yf64;
        const z = s.zf64;
        const zw = new BigUint64Array(s.z.buffer, s.z.byteOffset, 512);
        for (let i = 0; i < 8; i++) {
          x[xr * 8 + i] = xs[i]!;
          y[yr * 8 + i] = ys[i]!;
          z[zrow * 8 + i] = zs[i]!;
        }
        const lo = (zrow << 20) | ((xr * 64) << 10) | (yr * 64);
        executeRaw(s, fms ? 11 : 10, lo, 0x80000000);
        for (let i = 0; i < 8; i++) {
          const want = f64Bits(fma64Exact(fms ? -xs[i]! : xs[i]!, ys[i]!, zs[i]!));
          const got = zw[zrow * 8 + i]!;
          assert.equal(got, want, `lane ${i}: ${fms ? '-' : ''}${xs[i]} * ${ys[i]} + ${zs[i]}`);
        }
      },
    ),
    { numRuns: 3000 },
  );
});
