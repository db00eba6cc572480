/**
 * Issue 18: TNEG / TABS / TMAX / TMIN / TMAXS / TMINS on signalling NaNs and other f32 edge values,
 * against an independent integer model of what the pto-isa CPU simulator computes:
 *   TNEG  `dst = -src`                 (ElementOp OP_NEG; x86 negation is a sign-bit flip)
 *   TABS  `src < 0 ? -src : src`       (TAbs.hpp; false for NaN and -0, so those are copied)
 *   TMAX  `std::max(a, b)` = `a < b ? b : a`, TMIN `std::min(a, b)` = `b < a ? b : a` (references,
 *         so the chosen operand's bytes are copied); TMAXS/TMINS the same with the scalar.
 * None of these quiets a signalling NaN (0x7fa00000 stays 0x7fa00000).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTile, execute, type Tile } from './index.ts';

const SNAN = 0x7fa00000;
const VALUES = [
  SNAN,
  0xffa00001,
  0x7fc00000,
  0xffc00000,
  0x80000000,
  0x00000000,
  0x7f800000,
  0xff800000,
  0x00000001,
  0x80000001,
  0xbfc00000,
  0x3f800000,
  0x7f7fffff,
  0xff7fffff,
];

const SIGN = 0x80000000;
const isNaN32 = (b: number) => (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;
/** Order key of a non-NaN f32 (±0 equal): sign-magnitude to a signed integer. */
const key = (b: number) => ((b & SIGN) !== 0 ? -(b & 0x7fffffff) : b & 0x7fffffff);
/** IEEE `a < b` on bit patterns: false whenever either is NaN. */
const lt = (a: number, b: number) => !isNaN32(a) && !isNaN32(b) && key(a) < key(b);

function tileOf(bits: number[]): Tile {
  const t = createTile({ dtype: 'f32', rows: 1, cols: bits.length });
  const dv = new DataView(t.bytes.buffer, t.bytes.byteOffset);
  for (let i = 0; i < bits.length; i++) dv.setUint32(i * 4, bits[i]! >>> 0, true);
  return t;
}
function bitsOf(t: Tile): number[] {
  const dv = new DataView(t.bytes.buffer, t.bytes.byteOffset);
  return Array.from({ length: t.cols }, (_, i) => dv.getUint32(i * 4, true));
}
const hex = (xs: number[]) => xs.map((x) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`);

test('TNEG flips only the sign bit (a signalling NaN stays signalling)', () => {
  const dst = tileOf(VALUES.map(() => 0));
  execute('TNEG', { dst, src: tileOf(VALUES) });
  assert.deepEqual(hex(bitsOf(dst)), hex(VALUES.map((b) => (b ^ SIGN) >>> 0)));
  assert.equal(bitsOf(dst)[0], 0xffa00000);
});

test('TABS copies NaNs and -0 (src < 0 is false) and flips negative numbers', () => {
  const dst = tileOf(VALUES.map(() => 0));
  execute('TABS', { dst, src: tileOf(VALUES) });
  assert.deepEqual(hex(bitsOf(dst)), hex(VALUES.map((b) => (lt(b, 0) ? (b ^ SIGN) >>> 0 : b))));
  assert.equal(bitsOf(dst)[0], SNAN);
});

test('TMAX / TMIN copy the chosen operand, NaN payloads and signs included', () => {
  const a: number[] = [];
  const b: number[] = [];
  for (const x of VALUES)
    for (const y of VALUES) {
      a.push(x);
      b.push(y);
    }
  for (const [op, pick] of [
    ['TMAX', (x: number, y: number) => (lt(x, y) ? y : x)],
    ['TMIN', (x: number, y: number) => (lt(y, x) ? y : x)],
  ] as const) {
    const dst = tileOf(a.map(() => 0));
    execute(op, { dst, src0: tileOf(a), src1: tileOf(b) });
    assert.deepEqual(hex(bitsOf(dst)), hex(a.map((x, i) => pick(x, b[i]!))), op);
  }
});

test('TMAXS / TMINS with a finite scalar keep a signalling NaN element as it is', () => {
  for (const [op, pick] of [
    ['TMAXS', (x: number, s: number) => (lt(x, s) ? s : x)],
    ['TMINS', (x: number, s: number) => (lt(s, x) ? s : x)],
  ] as const) {
    const dst = tileOf(VALUES.map(() => 0));
    execute(op, { dst, src: tileOf(VALUES) }, { scalar: 1 });
    assert.deepEqual(hex(bitsOf(dst)), hex(VALUES.map((x) => pick(x, 0x3f800000))), op);
  }
});
