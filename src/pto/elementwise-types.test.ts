/**
 * The elementwise families read every operand through dst's element view, and the CPU simulator's
 * templates static_assert one element type (include/pto/cpu/ElementTileOp.h, TBinSOps.hpp
 * CheckDstSrcTileData), so a source of another type is Unsupported. Before, it was reinterpreted
 * byte for byte: e.g. TADD f32 <- i32 sources 1, 2, ... gave denormals (the i32 bit patterns read
 * as floats), and a 64-bit dst crashed with a TypeError inside the BigInt arithmetic.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import type { DType } from './dtype.ts';
import { createTile, execute, readTile } from './index.ts';

const unsupported = (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported';
const ramp = (dtype: DType) =>
  createTile(
    { dtype, rows: 2, cols: 16 },
    Array.from({ length: 32 }, (_, i) => i + 1),
  );

test('tile-tile ops: a source of another element type is Unsupported (f32 fast path included)', () => {
  for (const op of ['TADD', 'TSUB', 'TMUL', 'TDIV', 'TMAX', 'TMIN', 'TPOW', 'TFMOD']) {
    for (const [dd, sd] of [
      ['f32', 'i32'],
      ['i32', 'f32'],
      ['i64', 'i32'],
      ['i16', 'u16'],
    ] as const) {
      assert.throws(
        () => execute(op, { dst: ramp(dd), src0: ramp(dd), src1: ramp(sd) }),
        unsupported,
        `${op} ${dd} ${sd}`,
      );
    }
  }
  assert.throws(
    () => execute('TADDC', { dst: ramp('f32'), src0: ramp('f32'), src1: ramp('f32'), src2: ramp('i32') }),
    unsupported,
  );
});

test('unary and tile-scalar ops: a source of another element type is Unsupported', () => {
  for (const op of ['TEXP', 'TNEG', 'TSQRT', 'TRELU']) {
    assert.throws(() => execute(op, { dst: ramp('f32'), src: ramp('i32') }), unsupported, op);
  }
  for (const op of ['TADDS', 'TMULS', 'TDIVS', 'TAXPY']) {
    assert.throws(() => execute(op, { dst: ramp('f32'), src: ramp('i32') }, { scalar: 2 }), unsupported, op);
    assert.throws(() => execute(op, { dst: ramp('i64'), src: ramp('i32') }, { scalar: 2 }), unsupported, op);
  }
});

test('matching element types still run (1..32 + 1..32 = 2..64)', () => {
  const dst = ramp('f32');
  execute('TADD', { dst, src0: ramp('f32'), src1: ramp('f32') });
  assert.deepEqual(
    readTile(dst)[0],
    Array.from({ length: 16 }, (_, i) => 2 * (i + 1)),
  );
});
