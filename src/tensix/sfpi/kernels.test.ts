/**
 * The kernels.cc reproduction's printing and comparison (kernels.ts), on values worked out by hand:
 * glibc's `%4.6f` (six decimals, `nan` padded to four columns, the sign of -0 and of a NaN kept) and
 * `%04X`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareKernels, kernelsText, printfFloat, printfHex } from './kernels.ts';

describe('sfpi kernels.cc output format', () => {
  it('prints floats as glibc %4.6f', () => {
    assert.equal(printfFloat(0x3fa66666), '1.300000'); // 1.3f = 1.2999999523...
    assert.equal(printfFloat(0x80000000), '-0.000000');
    assert.equal(printfFloat(0xc1f80000), '-31.000000');
    assert.equal(printfFloat(0x47ff0000), '130560.000000');
    assert.equal(printfFloat(0x7fc00000), ' nan');
    assert.equal(printfFloat(0xffff8f80), '-nan'); // a NaN with the sign bit set
    assert.equal(printfFloat(0x38ff8000), '0.000122'); // 1.21831894e-4
  });
  it('prints bits as %04X', () => {
    assert.equal(printfHex(0), '0000');
    assert.equal(printfHex(0x3f80), '3F80');
    assert.equal(printfHex(0xffff8f80), 'FFFF8F80');
  });
  it('writes the program output and compares it lane by lane', () => {
    const rows = Array.from({ length: 18 }, (_, j) =>
      Array.from({ length: 32 }, (_, l) => (j === 0 ? l : 0)),
    );
    const text = kernelsText(rows, true);
    assert.ok(text.startsWith('Testing 1\nTesting 2\n'));
    assert.match(text, /\nRow: 0\n0000 0001 0002 /);
    assert.match(text, /\nRow: 17\n(0000 ){32}\n\n$/);
    const other = text.replace('Row: 0\n0000 0001 0002', 'Row: 0\n0000 0009 0002');
    const d = compareKernels(text, other);
    assert.deepEqual(
      d.filter((r) => r.lanes.length),
      [{ row: 0, lanes: [1] }],
    );
  });
});
