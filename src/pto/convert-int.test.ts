// TCVT into <= 32-bit integers on the ISA profiles (the Number path of insns/convert-isa.ts) against
// an independent bigint oracle written from tcvt.md: saturation ON clamps to the destination range,
// OFF keeps the value modulo 2^width; float sources round with the round mode first (RINT here).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createTile, execute, readTile } from './index.ts';

const oracle = (v: bigint, bits: number, signed: boolean, sat: boolean): bigint => {
  const lo = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const hi = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  if (sat) return v < lo ? lo : v > hi ? hi : v;
  return signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
};

test('a5 TCVT i32 -> i16 / u16 / u8 and u32 -> u8 / i16: clamp or wrap exactly', () => {
  const pairs = [
    ['i32', 'i16', 16, true],
    ['i32', 'u16', 16, false],
    ['i32', 'u8', 8, false],
    ['u32', 'u8', 8, false],
    ['u32', 'i16', 16, true],
  ] as const;
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 8, maxLength: 8 }),
      fc.boolean(),
      (vals, sat) => {
        for (const [s, d, bits, signed] of pairs) {
          const xs = s === 'u32' ? vals.map((v) => v >>> 0) : vals;
          const src = createTile({ dtype: s, rows: 1, cols: 8 }, xs);
          const dst = createTile({
            dtype: d,
            rows: 1,
            cols: 32 / (bits / 8), // one 32-byte row
          });
          dst.validCol = 8;
          execute(
            'TCVT',
            { dst, src },
            { roundMode: 'CAST_RINT', satMode: sat ? 'ON' : 'OFF' },
            { profile: 'a5' },
          );
          const got = readTile(dst)[0]!
            .slice(0, 8)
            .map((v) => BigInt(v as number));
          const want = xs.map((v) => oracle(BigInt(v), bits, signed, sat));
          assert.deepEqual(got, want, `${s}->${d} sat=${sat}`);
        }
      },
    ),
    { numRuns: 60 },
  );
});

test('a5 TCVT f16 -> i8 / u8 rounds half to even then clamps or wraps', () => {
  // f16 values 2.5, -2.5, 300, -129.5, 1000 (all exact in f16)
  const src = createTile({ dtype: 'f16', rows: 1, cols: 16 }, [
    2.5,
    -2.5,
    300,
    -129.5,
    1000,
    ...new Array(11).fill(0),
  ]);
  const run = (d: 'i8' | 'u8', sat: boolean) => {
    const dst = createTile({ dtype: d, rows: 1, cols: 32, validCol: 5 });
    execute('TCVT', { dst, src }, { roundMode: 'CAST_RINT', satMode: sat ? 'ON' : 'OFF' }, { profile: 'a5' });
    return readTile(dst)[0]!.slice(0, 5);
  };
  // RINT: 2, -2, 300, -130, 1000
  assert.deepEqual(run('i8', true), [2, -2, 127, -128, 127]);
  assert.deepEqual(run('i8', false), [2, -2, 300 - 256, -130 + 256, 1000 - 1024]);
  assert.deepEqual(run('u8', true), [2, 0, 255, 0, 255]);
  assert.deepEqual(run('u8', false), [2, 254, 44, 126, 232]);
});
