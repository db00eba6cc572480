/**
 * Property tests (fast-check) of the integer and sign-magnitude helpers against BigInt reference
 * implementations written from the definitions (two's complement mod 2^32; sign-magnitude = sign
 * bit + magnitude; SFPSTORE ToSignMag / SFPLOAD SignMagToTwosComp per tt-isa-documentation
 * WormholeB0 SFPSTORE.md / SFPLOAD.md).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  addI32,
  addSatI32,
  addSatU32,
  addU32,
  clampSignMag32,
  clz32,
  ctz32,
  int32ToSignMag32,
  int32ToSignMag32Sat,
  intToSignMag,
  mulI32,
  mulU32,
  popcount32,
  saturateI,
  saturateU,
  shlMod32,
  shlSat,
  shraMod32,
  shraSat,
  shrlMod32,
  shrlSat,
  signMag32ToInt32,
  signMagToInt,
  subI32,
  subSatI32,
  subSatU32,
  subU32,
} from './index.ts';

const i32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const u32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const R = { numRuns: 2000 };

const wrapS = (v: bigint) => Number(BigInt.asIntN(32, v));
const wrapU = (v: bigint) => Number(BigInt.asUintN(32, v));
const clampB = (v: bigint, lo: bigint, hi: bigint) => Number(v < lo ? lo : v > hi ? hi : v);

test('wrapping i32/u32 add, sub, mul match BigInt mod 2^32', () => {
  fc.assert(
    fc.property(i32, i32, (a, b) => {
      assert.equal(addI32(a, b), wrapS(BigInt(a) + BigInt(b)));
      assert.equal(subI32(a, b), wrapS(BigInt(a) - BigInt(b)));
      assert.equal(mulI32(a, b), wrapS(BigInt(a) * BigInt(b)));
    }),
    R,
  );
  fc.assert(
    fc.property(u32, u32, (a, b) => {
      assert.equal(addU32(a, b), wrapU(BigInt(a) + BigInt(b)));
      assert.equal(subU32(a, b), wrapU(BigInt(a) - BigInt(b)));
      assert.equal(mulU32(a, b), wrapU(BigInt(a) * BigInt(b)));
    }),
    R,
  );
});

test('saturating arithmetic and saturation to iN / uN match BigInt clamps', () => {
  const I32_MIN = -(2n ** 31n);
  const I32_MAX = 2n ** 31n - 1n;
  fc.assert(
    fc.property(i32, i32, (a, b) => {
      assert.equal(addSatI32(a, b), clampB(BigInt(a) + BigInt(b), I32_MIN, I32_MAX));
      assert.equal(subSatI32(a, b), clampB(BigInt(a) - BigInt(b), I32_MIN, I32_MAX));
    }),
    R,
  );
  fc.assert(
    fc.property(u32, u32, (a, b) => {
      assert.equal(addSatU32(a, b), clampB(BigInt(a) + BigInt(b), 0n, 2n ** 32n - 1n));
      assert.equal(subSatU32(a, b), clampB(BigInt(a) - BigInt(b), 0n, 2n ** 32n - 1n));
    }),
    R,
  );
  fc.assert(
    fc.property(fc.maxSafeInteger(), fc.integer({ min: 1, max: 32 }), (v, n) => {
      const N = BigInt(n);
      assert.equal(saturateI(v, n), clampB(BigInt(v), -(2n ** (N - 1n)), 2n ** (N - 1n) - 1n));
      assert.equal(saturateU(v, n), clampB(BigInt(v), 0n, 2n ** N - 1n));
    }),
    R,
  );
});

test('clz / ctz / popcount match a BigInt bit scan', () => {
  fc.assert(
    fc.property(u32, (x) => {
      const s = BigInt(x).toString(2).padStart(32, '0');
      assert.equal(clz32(x), x === 0 ? 32 : s.indexOf('1'));
      assert.equal(ctz32(x), x === 0 ? 32 : 31 - s.lastIndexOf('1'));
      assert.equal(popcount32(x), [...s].filter((c) => c === '1').length);
    }),
    R,
  );
});

test('shifts: saturating-amount and mod-32 variants match BigInt shifts', () => {
  fc.assert(
    fc.property(u32, fc.integer({ min: 0, max: 100 }), (x, n) => {
      const X = BigInt(x);
      const N = BigInt(n);
      assert.equal(shlSat(x, n), wrapU(X << N));
      assert.equal(shrlSat(x, n), Number(X >> N));
      assert.equal(shraSat(x, n), Number(BigInt.asIntN(32, X) >> N));
      const M = BigInt(n % 32);
      assert.equal(shlMod32(x, n), wrapU(X << M));
      assert.equal(shrlMod32(x, n), Number(X >> M));
      assert.equal(shraMod32(x, n), Number(BigInt.asIntN(32, X) >> M));
    }),
    R,
  );
});

/** Reference sign-magnitude: sign bit at width-1, magnitude below it. */
function refSignMagToInt(bits: bigint, width: bigint): bigint {
  const field = bits & ((1n << width) - 1n);
  const mag = field & ((1n << (width - 1n)) - 1n);
  return field >> (width - 1n) === 1n ? -mag : mag;
}

test('sign-magnitude widths 8/11/16/32 (and others) decode and saturating-encode like BigInt', () => {
  const width = fc.constantFrom(8, 11, 16, 32, 2, 5, 24);
  fc.assert(
    fc.property(u32, width, (bits, w) => {
      const W = BigInt(w);
      const want = refSignMagToInt(BigInt(bits), W);
      const got = signMagToInt(bits, w);
      assert.equal(got, Number(want));
      assert.ok(!Object.is(got, -0), '-0 reads as +0');
    }),
    R,
  );
  fc.assert(
    fc.property(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), width, (v, w) => {
      const W = BigInt(w);
      const maxMag = (1n << (W - 1n)) - 1n;
      const V = BigInt(v);
      const mag = V < 0n ? -V : V;
      const want = (V < 0n ? 1n << (W - 1n) : 0n) | (mag > maxMag ? maxMag : mag);
      assert.equal(intToSignMag(v, w), Number(want));
      // Round trip for representable values.
      if (mag <= maxMag) assert.equal(signMagToInt(intToSignMag(v, w), w), v);
    }),
    R,
  );
});

test('signmag32 <-> int32 as SFPLOAD SignMagToTwosComp / SFPSTORE ToSignMag', () => {
  fc.assert(
    fc.property(u32, (bits) => {
      const B = BigInt(bits);
      const mag = B & 0x7fffffffn;
      const want = B >> 31n === 1n ? BigInt.asIntN(32, -mag) : mag;
      assert.equal(signMag32ToInt32(bits), Number(want));
    }),
    R,
  );
  fc.assert(
    fc.property(i32, (v) => {
      const V = BigInt.asUintN(32, BigInt(v));
      const sign = V & 0x80000000n;
      const mag = sign ? BigInt.asUintN(32, -V) : V;
      assert.equal(int32ToSignMag32(v), Number(sign | (mag & 0x7fffffffn)));
      const sat = v < 0 ? 0x80000000n | (-BigInt(v) > 0x7fffffffn ? 0x7fffffffn : -BigInt(v)) : BigInt(v);
      assert.equal(int32ToSignMag32Sat(v), Number(sat));
    }),
    R,
  );
  // The documented edge: -2^31 is outside ToSignMag's input range and comes out as -0.
  assert.equal(int32ToSignMag32(-(2 ** 31)), 0x80000000);
  assert.equal(int32ToSignMag32Sat(-(2 ** 31)), 0xffffffff);
  assert.equal(signMag32ToInt32(0x80000000), 0);
});

test('clampSignMag32 keeps the clamped magnitude in the low bits and normalises -0', () => {
  fc.assert(
    fc.property(u32, fc.constantFrom(127, 255, 32767, 65535), (bits, maxMag) => {
      const mag = Math.min(bits & 0x7fffffff, maxMag);
      const want = mag === 0 ? 0 : (bits >>> 31) * 2 ** 31 + mag;
      assert.equal(clampSignMag32(bits, maxMag), want);
    }),
    R,
  );
});
