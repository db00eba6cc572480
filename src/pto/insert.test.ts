/**
 * TINSERT, TEXTRACT_FP, TINSERT_FP and TFILLPAD_INPLACE (pto-isa tinsert.md, TEXTRACT_FP.md,
 * TINSERT_FP.md, tfillpad-inplace.md; include/pto/cpu/TInsert.hpp, TExtract.hpp, TFillPad.hpp),
 * worked by hand. Quant words: the scale is the 19-bit float in bits 13..31, so a word equal to the
 * f32 bits of 1.0 / 0.5 / 2.0 / 0.25 scales by that value (VDEQF16: i32 -> f16).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';

const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;
const words = () =>
  createTile({ dtype: 'u64', rows: 1, cols: 4 }, [0x3f800000n, 0x3f000000n, 0x40000000n, 0x3e800000n]);

test('TINSERT: src valid region into dst at (indexRow, indexCol), converting f32 -> f16', () => {
  const s = createTile(
    { dtype: 'f32', rows: 2, cols: 4, validCol: 2, loc: 'acc' },
    [1.5, 2.5, 9, 9, 3.5, -4, 9, 9],
  );
  const d = createTile({ dtype: 'f16', rows: 4, cols: 4, loc: 'mat' }, new Array(16).fill(0));
  execute('TINSERT', { dst: d, src: s }, { indexRow: 1, indexCol: 2 });
  assert.deepEqual(readTile(d), [
    [0, 0, 0, 0],
    [0, 0, 1.5, 2.5],
    [0, 0, 3.5, -4],
    [0, 0, 0, 0],
  ]);
  // a2a3: acc -> mat only, and the window must fit
  execute('TINSERT', { dst: d, src: s }, { indexRow: 2, indexCol: 2 }, { profile: 'a2a3' });
  assert.throws(
    () => execute('TINSERT', { dst: d, src: s }, { indexRow: 3 }, { profile: 'a2a3' }),
    isCat('BadInput'),
  );
  const v = createTile({ dtype: 'f16', rows: 2, cols: 4 });
  assert.throws(() => execute('TINSERT', { dst: d, src: v }, {}, { profile: 'a2a3' }), isCat('Unsupported'));
});

test('TEXTRACT_FP: quant word of the source column (indexCol + c)', () => {
  const s = createTile({ dtype: 'i32', rows: 2, cols: 4 }, [1, 2, 3, 4, 10, 20, 30, 40]);
  const d = createTile({ dtype: 'f16', rows: 1, cols: 2 });
  execute('TEXTRACT_FP', { dst: d, src: s, fp: words() }, { indexRow: 1, indexCol: 1 });
  // src(1, 1) * 0.5 = 10, src(1, 2) * 2 = 60
  assert.deepEqual(readTile(d), [[10, 60]]);
  // word 4 does not exist: the simulator indexes past its vector
  assert.throws(
    () =>
      execute(
        'TEXTRACT_FP',
        { dst: createTile({ dtype: 'f16', rows: 1, cols: 2 }), src: s, fp: words() },
        { indexCol: 3 },
      ),
    isCat('UndefinedBehaviour'),
  );
});

test('TINSERT_FP: quant word of the source column c, written at (indexRow + r, indexCol + c)', () => {
  const s = createTile({ dtype: 'i32', rows: 1, cols: 4, validCol: 3 }, [8, 8, 8, 8]);
  const d = createTile({ dtype: 'f16', rows: 2, cols: 8 }, new Array(16).fill(0));
  execute('TINSERT_FP', { dst: d, src: s, fp: words() }, { indexRow: 1, indexCol: 4 });
  assert.deepEqual(readTile(d)[1], [0, 0, 0, 0, 8, 4, 16, 0]);
});

test('TFILLPAD_INPLACE: pads a vec tile outside its valid region in place', () => {
  const t = createTile({ dtype: 'f32', rows: 2, cols: 2, validCol: 1, pad: 'max' }, [1, 7, 2, 7]);
  execute('TFILLPAD_INPLACE', { dst: t, src: t });
  // cpu: PadValue::Max for f32 is +inf (numeric_limits has_infinity)
  assert.deepEqual(readTile(t), [
    [1, Number.POSITIVE_INFINITY],
    [2, Number.POSITIVE_INFINITY],
  ]);
  const m = createTile({ dtype: 'f32', rows: 2, cols: 2, loc: 'mat', pad: 'zero' });
  assert.throws(() => execute('TFILLPAD_INPLACE', { dst: m, src: m }), isCat('Unsupported'));
});

test('TEXTRACT / TINSERT with relu (ReluPreMode::NormalRelu): val > 0 ? val : 0 before the store', () => {
  const s = createTile({ dtype: 'f32', rows: 1, cols: 4 }, [-1, 2.5, Number.NaN, -0]);
  const d = createTile({ dtype: 'f32', rows: 1, cols: 4 }, [9, 9, 9, 9]);
  execute('TEXTRACT', { dst: d, src: s }, { relu: true });
  assert.deepEqual(readTile(d), [[0, 2.5, 0, 0]]);
  assert.ok(Object.is(readTile(d)[0]![3], 0)); // -0 becomes +0
  const h = createTile({ dtype: 'f16', rows: 2, cols: 4 }, new Array(8).fill(7));
  execute('TINSERT', { dst: h, src: s }, { indexRow: 1, relu: true });
  assert.deepEqual(readTile(h), [
    [7, 7, 7, 7],
    [0, 2.5, 0, 0],
  ]);
  // without relu the values pass through
  execute('TEXTRACT', { dst: d, src: s });
  assert.deepEqual(readTile(d)[0]!.slice(0, 2), [-1, 2.5]);
});
