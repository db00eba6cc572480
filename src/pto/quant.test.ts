/**
 * TQUANT (INT8_SYM / INT8_ASYM) and TDEQUANT (pto-isa tquant.md / tdequant.md, include/pto/cpu/
 * TQuant.hpp, TDeQuant.hpp), worked by hand: nearbyint rounds ties to even, clamps to the 8-bit
 * range, NaN converts to 0 (x86 cvttss2si gives 0x80000000, whose low byte is 0).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readTile } from './index.ts';

const isCat = (c: string) => (e: unknown) => e instanceof AxsimError && e.category === c;

test('TQUANT INT8_SYM: round-half-even of src * scale(row), clamped; NaN -> 0', () => {
  const src = createTile({ dtype: 'f32', rows: 2, cols: 8 }, [
    ...[1.5, 2.5, -2.5, 300, Number.NaN, -1000, 0.49, -0.5],
    ...[3, 5, -1, 7, 1, 0, 255, -255],
  ]);
  const scale = createTile({ dtype: 'f32', rows: 2, cols: 1, blayout: 'col' }, [1, 0.5]);
  const dst = createTile({ dtype: 'i8', rows: 2, cols: 8 });
  execute('TQUANT', { dst, src, scale }, { quantType: 'INT8_SYM' });
  assert.deepEqual(readTile(dst), [
    [2, 2, -2, 127, 0, -128, 0, 0],
    [2, 2, 0, 4, 0, 0, 127, -128],
  ]);
});

test('TQUANT INT8_ASYM: + offset(row) before rounding, into [0, 255]', () => {
  const src = createTile({ dtype: 'f32', rows: 1, cols: 4 }, [1.5, -200, 0.5, 127.5]);
  const scale = createTile({ dtype: 'f32', rows: 1, cols: 1 }, [1]);
  const offset = createTile({ dtype: 'f32', rows: 1, cols: 1 }, [128]);
  const dst = createTile({ dtype: 'u8', rows: 1, cols: 4 });
  execute('TQUANT', { dst, src, scale, offset }, { quantType: 'INT8_ASYM' });
  // 129.5 -> 130, -72 -> 0, 128.5 -> 128, 255.5 -> 256 -> 255
  assert.deepEqual(readTile(dst), [[130, 0, 128, 255]]);
  assert.throws(() => execute('TQUANT', { dst, src, scale }, { quantType: 'INT8_ASYM' }), isCat('BadInput'));
  assert.throws(
    () => execute('TQUANT', { dst, src, scale }, { quantType: 'INT8_SYM' }),
    isCat('Unsupported'),
  );
  assert.throws(() => execute('TQUANT', { dst, src, scale }, { quantType: 'MXFP8' }), isCat('Unsupported'));
});

test('TDEQUANT: (src - offset) * scale per row; one parameter column per dst column up to the last', () => {
  const src = createTile({ dtype: 'i8', rows: 2, cols: 4 }, [10, -3, 7, 1, 4, 4, 4, 4]);
  const scale = createTile({ dtype: 'f32', rows: 2, cols: 2 }, [0.5, 2, 1, 1]);
  const offset = createTile({ dtype: 'f32', rows: 2, cols: 2 }, [2, 0, 0, 1]);
  const dst = createTile({ dtype: 'f32', rows: 2, cols: 4 });
  execute('TDEQUANT', { dst, src, scale, offset }, {}, { profile: 'a2a3' });
  // row 0: c = 0 uses (0.5, 2): (10 - 2) * 0.5 = 4; c >= 1 use (2, 0): -6, 14, 2
  // row 1: c = 0 uses (1, 0): 4; c >= 1 use (1, 1): 3, 3, 3
  assert.deepEqual(readTile(dst), [
    [4, -6, 14, 2],
    [4, 3, 3, 3],
  ]);
});

test('TGEMV_MX / _ACC / _BIAS run as the TMATMUL_MX forms (TMatmul.hpp TGEMV_MX_IMPL)', () => {
  // e4m3 0x38 = 1, 0x40 = 2, E8M0 127 = 2^0: each c(i, j) = 64 * 1 * 2 = 128
  const a = createTile(
    { dtype: 'f8e4m3', rows: 16, cols: 64, layout: 'LEFT' },
    new Uint8Array(1024).fill(0x38),
  );
  const b = createTile(
    { dtype: 'f8e4m3', rows: 64, cols: 16, layout: 'RIGHT' },
    new Uint8Array(1024).fill(0x40),
  );
  const aScale = createTile({ dtype: 'u8', rows: 16, cols: 2, loc: 'scaling' }, new Uint8Array(32).fill(127));
  const bScale = createTile({ dtype: 'u8', rows: 2, cols: 16, loc: 'scaling' }, new Uint8Array(32).fill(127));
  const c = createTile({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' });
  execute('TGEMV_MX', { c, a, aScale, b, bScale });
  assert.equal(readTile(c)[3]![5], 128);
  const cin = createTile({ dtype: 'f32', rows: 16, cols: 16, layout: 'ACC' }, new Float32Array(256).fill(1));
  execute('TGEMV_MX_ACC', { c, cin, a, aScale, b, bScale });
  assert.equal(readTile(c)[0]![0], 129);
  const bias = createTile({ dtype: 'f32', rows: 1, cols: 16, layout: 'BIAS' }, new Float32Array(16).fill(-8));
  execute('TGEMV_MX_BIAS', { c, a, aScale, b, bScale, bias });
  assert.equal(readTile(c)[15]![15], 120);
});
