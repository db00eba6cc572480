/**
 * TRANDOM (pto-isa trandom.md, include/pto/cpu/TRandom.hpp). Word 0 of lane 0 with counter 0 and key 0
 * is Philox-4x32-10's published known answer (Random123 kat_vectors: 6627e8d5 e169c58d bc57ac4c
 * 9b00dbd8, here at columns 0, 64, 128, 192 of row 0). The other expected words come from a scratch
 * harness that compiled the simulator's TRandom.hpp with g++ 12 (under /tmp/pgap, not committed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { createTile, execute, readBits } from './index.ts';

test('TRANDOM Philox-4x32-10: known answer and the simulator layout (2 x 128 tile, 70 valid columns)', () => {
  const dst = createTile({ dtype: 'u32', rows: 2, cols: 128, validCol: 70 });
  const key = createTile({ dtype: 'u32', rows: 1, cols: 8 }, [0, 0, 0, 0, 0, 0, 0, 0]);
  const counter = createTile({ dtype: 'u32', rows: 1, cols: 8 }, [0, 0, 0, 0, 0, 0, 0, 0]);
  execute('TRANDOM', { dst, key, counter });
  const at = (r: number, c: number) => Number(readBits(dst, r, c)) >>> 0;
  assert.equal(at(0, 0), 0x6627e8d5);
  assert.equal(at(0, 64), 0xe169c58d);
  // harness output (g++ 12 on TRandom.hpp): elements 1, 63, 65, 69, 128 (row 1 col 0), 129, 197
  assert.deepEqual(
    [at(0, 1), at(0, 63), at(0, 65), at(0, 69), at(1, 0), at(1, 1), at(1, 69)],
    [0xf8e4cca4, 0x09a704a6, 0x5cb200db, 0x071a9632, 0xaa9aa72f, 0xf6b6215b, 0x8017d0fe],
  );
  assert.equal(at(0, 70), 0); // outside the valid columns
});

test('TRANDOM 7 rounds with a key and counter (harness values)', () => {
  const dst = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 4 });
  const key = createTile({ dtype: 'u32', rows: 1, cols: 8 }, [0xa4093822, 0x299f31d0, 0, 0, 0, 0, 0, 0]);
  const counter = createTile(
    { dtype: 'u32', rows: 1, cols: 8 },
    [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0, 0, 0, 0],
  );
  execute('TRANDOM', { dst, key, counter }, { rounds: 7 });
  assert.deepEqual(
    [0, 1, 2, 3].map((c) => Number(readBits(dst, 0, c)) >>> 0),
    [0x4dfccaba, 0xdd093a12, 0x2767f2ab, 0xeac20ff9],
  );
  assert.throws(
    () => execute('TRANDOM', { dst, key, counter }, { rounds: 8 }),
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
  );
  assert.throws(
    () => execute('TRANDOM', { dst, key, counter }, {}, { profile: 'a2a3' }),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});
