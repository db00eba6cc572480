import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffArrays, formatDiff } from './compare.ts';

const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

test('f32: ULP distance counts representable values between (across zero too)', () => {
  // 1 and its successor 1 + 2^-23 are one ULP apart; -2^-149 and +2^-149 two apart (through +-0)
  const got = new Float32Array([1, 1 + 2 ** -23, -(2 ** -149), 0, Number.NaN, 5]);
  const want = new Float32Array([1, 1, 2 ** -149, -0, Number.NaN, 3]);
  const d = diffArrays('C', 'f4', bytes(got), bytes(want));
  assert.equal(d.differing, 3);
  // 5 vs 3: 5 = 1.25 * 2^2, 3 = 1.5 * 2^1: 2^22 steps from 3 to 4 (half-binade) + 2^21 to 5
  assert.equal(d.maxUlp, 2 ** 22 + 2 ** 21);
  assert.equal(d.maxAbs, 2);
  assert.equal(d.worstIndex, 5);
  const nan = diffArrays('C', 'f4', bytes(new Float32Array([Number.NaN])), bytes(new Float32Array([0])));
  assert.equal(nan.maxUlp, Number.POSITIVE_INFINITY);
});

test('f64, f16 and integers', () => {
  const d64 = diffArrays(
    'D',
    'f8',
    bytes(new Float64Array([1 + 2 ** -52 * 3])),
    bytes(new Float64Array([1])),
  );
  assert.equal(d64.maxUlp, 3);
  // f16 0x3c01 is one ULP above 1.0 (0x3c00); abs difference 2^-10
  const d16 = diffArrays('H', 'f2', bytes(new Uint16Array([0x3c01])), bytes(new Uint16Array([0x3c00])));
  assert.deepEqual([d16.maxUlp, d16.maxAbs], [1, 2 ** -10]);
  const di = diffArrays('I', 'i4', bytes(new Int32Array([-5, 7])), bytes(new Int32Array([5, 7])));
  assert.deepEqual([di.differing, di.maxAbs, di.maxUlp], [1, 10, 10]);
  assert.match(formatDiff(di), /^I: 1 of 2 elements differ; max abs 10, max 10 \(first worst at index 0\)$/);
  assert.match(formatDiff(diffArrays('Z', 'u1', new Uint8Array(3), new Uint8Array(3))), /identical/);
  assert.throws(() => diffArrays('Z', 'u1', new Uint8Array(3), new Uint8Array(4)), /3 bytes against 4/);
});
