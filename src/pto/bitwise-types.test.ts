/**
 * Bitwise and shift ops need one element type for dst and sources: the CPU simulator's templates
 * static_assert it (include/pto/cpu/ElementTileOp.h, TBinSOps.hpp), so a mismatch is Unsupported
 * rather than a reinterpretation of the source bytes or a crash in the 64-bit paths.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';

const unsupported = (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported';
const ramp = (dtype: 'i16' | 'i32' | 'u32' | 'i64', cols: number) =>
  createTile(
    { dtype, rows: 1, cols },
    Array.from({ length: cols }, (_, i) => i + 1),
  );

test('tile-tile bitwise/shift ops reject a source of another element type', () => {
  for (const op of ['TAND', 'TOR', 'TXOR', 'TSHL', 'TSHR']) {
    // 64-bit dst, 32-bit sources (the i64 shift path used to throw a TypeError here)
    assert.throws(
      () => execute(op, { dst: ramp('i64', 8), src0: ramp('i32', 16), src1: ramp('i32', 16) }),
      unsupported,
      op,
    );
    // same width, other signedness
    assert.throws(
      () => execute(op, { dst: ramp('i32', 8), src0: ramp('i32', 8), src1: ramp('u32', 8) }),
      unsupported,
      op,
    );
  }
  // 16-bit shift path
  assert.throws(
    () => execute('TSHL', { dst: ramp('i16', 16), src0: ramp('i16', 16), src1: ramp('i32', 16) }),
    unsupported,
  );
});

test('tile-scalar bitwise ops and TNOT reject a source of another element type', () => {
  for (const op of ['TANDS', 'TORS', 'TXORS', 'TSHLS', 'TSHRS']) {
    assert.throws(
      () => execute(op, { dst: ramp('i32', 8), src: ramp('i16', 16) }, { scalar: 1 }),
      unsupported,
      op,
    );
  }
  assert.throws(() => execute('TNOT', { dst: ramp('i32', 8), src: ramp('i16', 16) }), unsupported);
  // matching types still run: ~1 = -2
  const dst = ramp('i32', 8);
  execute('TNOT', { dst, src: ramp('i32', 8) });
  assert.deepEqual(readTile(dst)[0], [-2, -3, -4, -5, -6, -7, -8, -9]);
});
