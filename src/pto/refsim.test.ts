/**
 * Regression tests from differential runs against the pto-isa CPU simulator (docs/pto-status.md,
 * "Differential testing against the CPU simulator"). Unless a test says otherwise, every expected
 * value below is what the reference simulator (@3186c381, a clang 19 release build on x86-64) printed for
 * the same inputs, not axsim output.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTile, execute, readTile } from './index.ts';

const RM = (dtype: 'i16' | 'u16' | 'i64', cols: number, validCol: number, v: number | bigint) =>
  createTile(
    { dtype, rows: 2, cols, validRow: 2, validCol },
    Array.from({ length: 2 * cols }, () => v) as number[] | bigint[],
  );

test('16-bit tile-tile shifts: saturating vector body, amount mod 32 in the scalar remainder', () => {
  // 2x64 tiles, valid 2x15: columns 0..7 are the clang vector body, 8..14 the scalar remainder.
  const cases: [string, 'i16' | 'u16', number, number, number, number][] = [
    // op, dtype, x, amount, vector-body result, remainder result (reference output)
    ['TSHL', 'i16', -23131, 40, 0, -23296],
    ['TSHR', 'i16', -23131, 40, -1, -91],
    ['TSHR', 'u16', 42405, 40, 0, 165],
    ['TSHL', 'u16', 42405, 65535, 0, 0],
    // the vector body multiplies by a power of two built in float from the amount's low 9 bits
    ['TSHL', 'i16', -23131, -8957, -11560, 11560],
    ['TSHL', 'i16', 46, -32768, 46, 46],
    ['TSHL', 'u16', 47801, 58889, 29184, 29184],
  ];
  for (const [op, dtype, x, amount, vec, rem] of cases) {
    const dst = RM(dtype, 64, 15, 7);
    execute(op, { dst, src0: RM(dtype, 64, 15, x), src1: RM(dtype, 64, 15, amount) });
    const row = (readTile(dst) as number[][])[0]!.slice(0, 16);
    assert.deepEqual(row, [...Array(8).fill(vec), ...Array(7).fill(rem), 7], `${op} ${dtype} ${x} ${amount}`);
  }
  // negative amount, valid width 9: columns 0..7 vector (sign fill), column 8 scalar (-3 & 31 = 29)
  const dst = RM('i16', 64, 9, 7);
  execute('TSHR', { dst, src0: RM('i16', 64, 9, -23131), src1: RM('i16', 64, 9, -3) });
  assert.deepEqual((readTile(dst) as number[][])[0]!.slice(0, 10), [...Array(9).fill(-1), 7]);
});

test('i64 TSHR (arithmetic) is not vectorised: amount modulo 64 in every element', () => {
  const run = (x: bigint, amount: bigint) => {
    const dst = RM('i64', 8, 8, 7n);
    execute('TSHR', { dst, src0: RM('i64', 8, 8, x), src1: RM('i64', 8, 8, amount) });
    return (readTile(dst) as bigint[][])[0]!.slice(0, 8);
  };
  assert.deepEqual(run(-2n, -11n), Array(8).fill(-1n));
  assert.deepEqual(run(1341800168315773216n, -15n), Array(8).fill(2383n));
  // TSHL stays vectorised: psllq gives 0 for amounts >= 64 in the vector body
  const dst = RM('i64', 8, 8, 7n);
  execute('TSHL', { dst, src0: RM('i64', 8, 8, 3n), src1: RM('i64', 8, 8, 65n) });
  assert.deepEqual((readTile(dst) as bigint[][])[0]!.slice(0, 8), Array(8).fill(0n));
});

test('TCVT fp8 -> the same fp8 type copies the code without saturation, clamps to [0, 0] with it', () => {
  // reference: src codes 00..0b -> OFF: 00..0b unchanged (a C++ copy), ON: all 00 (SafeLimits of
  // MXType are [0, 0]); decode + encode would have turned e4m3 04..07 / e5m2 02..03 into other codes
  for (const dtype of ['f8e4m3', 'f8e5m2'] as const) {
    for (const [satMode, want] of [
      ['OFF', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
      ['ON', Array(12).fill(0)],
    ] as const) {
      const src = createTile(
        { dtype, rows: 1, cols: 32 },
        Uint8Array.from({ length: 32 }, (_, i) => i),
      );
      const dst = createTile({ dtype, rows: 1, cols: 32 });
      execute('TCVT', { dst, src }, { roundMode: 'CAST_RINT', satMode });
      assert.deepEqual([...dst.bytes.subarray(0, 12)], want, `${dtype} sat ${satMode}`);
    }
  }
});

test('TCOLMIN f32 -> f16 compares the raw f32 element with the f16 minimum', () => {
  // column [0.5, 0, -9.99994610111476e-41, 2]: -1e-40 < +0 in float, so the minimum becomes
  // half(-1e-40) = -0; converting first would compare -0 < +0 (false). Reference output: 0x8000.
  const col = [0.5, 0, -9.99994610111476e-41, 2];
  const src = createTile(
    { dtype: 'f32', rows: 4, cols: 8 },
    Float32Array.from({ length: 32 }, (_, i) => col[i >> 3]!),
  );
  const dst = createTile({ dtype: 'f16', rows: 1, cols: 16 });
  execute('TCOLMIN', { dst, src });
  assert.equal(dst.bytes[0]! | (dst.bytes[1]! << 8), 0x8000);
});
