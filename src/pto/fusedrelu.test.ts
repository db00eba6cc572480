/**
 * TFUSEDMULADDRELU, TADDRELUCONV / TSUBRELUCONV and TADDDEQRELU (pto-isa TFUSEDMULADDRELU.md,
 * TADDReluConv.md, TSUBReluConv.md, TAddDeqRelu.md; include/pto/cpu/ElementOp.h, TAddDeqRelu.hpp),
 * worked by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readBits, readTile } from './index.ts';

const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;

test('TFUSEDMULADDRELU: ReLU(src0 * dst + src1); NaN and negatives give 0', () => {
  const dst = createTile({ dtype: 'f32', rows: 1, cols: 4 }, [2, -3, 1, Number.NaN]);
  const src0 = createTile({ dtype: 'f32', rows: 1, cols: 4 }, [3, 2, -1, 1]);
  const src1 = createTile({ dtype: 'f32', rows: 1, cols: 4 }, [1, 1, 0.5, 0]);
  execute('TFUSEDMULADDRELU', { dst, src0, src1 });
  assert.deepEqual(readTile(dst), [[7, 0, 0, 0]]);
});

test('TFUSEDMULADDRELU f16 rounds the product to half before the add (CpuSimRoundElement)', () => {
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> half 1 + 2^-9; + 2^-11 is a tie -> even: 1 + 2^-9 (0x3c02).
  // One rounding of the exact value would give 1 + 3 * 2^-10 (0x3c03).
  const x = 1 + 2 ** -10;
  const dst = createTile({ dtype: 'f16', rows: 1, cols: 1 }, [x]);
  const src0 = createTile({ dtype: 'f16', rows: 1, cols: 1 }, [x]);
  const src1 = createTile({ dtype: 'f16', rows: 1, cols: 1 }, [2 ** -11]);
  execute('TFUSEDMULADDRELU', { dst, src0, src1 });
  assert.equal(readBits(dst, 0, 0), 0x3c02);
});

test('TADDRELUCONV / TSUBRELUCONV on a5: sum in the source type, ReLU, saturating RNE conversion', () => {
  const run = (name: string, st: 'f32' | 'f16' | 'i16', dt: 'f16' | 'i8', a: number[], b: number[]) => {
    const src0 = createTile({ dtype: st, rows: 1, cols: 16 }, [...a, ...new Array(16 - a.length).fill(0)]);
    const src1 = createTile({ dtype: st, rows: 1, cols: 16 }, [...b, ...new Array(16 - b.length).fill(0)]);
    const dst = createTile({ dtype: dt, rows: 1, cols: 16 });
    execute(name, { dst, src0, src1 }, {}, { profile: 'a5' });
    return readTile(dst)[0]!.slice(0, a.length);
  };
  assert.deepEqual(run('TADDRELUCONV', 'f32', 'f16', [70000, -1, 0.5], [0, 0, 0.25]), [65504, 0, 0.75]);
  assert.deepEqual(run('TADDRELUCONV', 'f16', 'i8', [2, 3, 100], [0.5, 0.5, 100]), [2, 4, 127]);
  // i16: 30000 + 30000 wraps to -5536 -> 0
  assert.deepEqual(run('TADDRELUCONV', 'i16', 'i8', [30000, 100, 100], [30000, 20, 50]), [0, 120, 127]);
  assert.deepEqual(run('TSUBRELUCONV', 'i16', 'i8', [5, 100], [7, 1]), [0, 99]);
  const s = createTile({ dtype: 'f32', rows: 1, cols: 16 });
  const d = createTile({ dtype: 'f16', rows: 1, cols: 16 });
  assert.throws(() => execute('TADDRELUCONV', { dst: d, src0: s, src1: s }), isCat('Unsupported'));
  assert.throws(
    () =>
      execute(
        'TADDRELUCONV',
        { dst: createTile({ dtype: 'i8', rows: 1, cols: 16 }), src0: s, src1: s },
        {},
        { profile: 'a2a3' },
      ),
    isCat('Unsupported'),
  );
});

test('TADDDEQRELU: cpu converts to half with overflow to inf; a5 saturates', () => {
  const mk = () => ({
    src0: createTile({ dtype: 'i32', rows: 1, cols: 8 }, [100, -100, 2 ** 30, 2 ** 30, 0, 0, 0, 0]),
    src1: createTile({ dtype: 'i32', rows: 1, cols: 8 }, [28, 0, 2 ** 30, 0, 0, 0, 0, 0]),
    dst: createTile({ dtype: 'f16', rows: 1, cols: 8 }),
  });
  const c = mk();
  execute('TADDDEQRELU', c, { deqScale: 0.5 });
  // 64; -50 -> 0; 2^31 wraps to -2^31 -> 0; 2^29 -> inf (0x7c00)
  assert.deepEqual(
    [0, 1, 2, 3].map((k) => readBits(c.dst, 0, k)),
    [0x5400, 0, 0, 0x7c00],
  );
  const a = mk();
  execute('TADDDEQRELU', a, { deqScale: 0.5 }, { profile: 'a5' });
  assert.deepEqual(
    [0, 1, 2, 3].map((k) => readBits(a.dst, 0, k)),
    [0x5400, 0, 0, 0x7bff],
  );
  assert.throws(() => execute('TADDDEQRELU', mk()), isCat('BadInput'));
});
