import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { laneColumn, localSorted, merged, type Pair, rebuilt, welfordColumns } from './cases-extra.ts';

// Hand-worked values for the definitions the corpus checks use (the kernels themselves run only
// against a tt-llk checkout).
const F = (x: number) => {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x);
  return b.getUint32(0);
};
/** A column of 64 pairs with values v[p] (FP32 of small integers) and index p. */
const col = (vals: number[]): Pair[] => vals.map((v, p) => ({ v: F(v), x: p }));

describe('llk corpus definitions (cases-extra)', () => {
  it('lane -> column after SFPLOAD of L0..L3 and SFPTRANSP', () => {
    // lane 8k+i: k=0 even columns 0-14, k=1 odd 1-15, k=2 even 16-30, k=3 odd 17-31
    assert.deepEqual([0, 1, 7, 8, 9, 16, 23, 24, 31].map(laneColumn), [0, 2, 14, 1, 3, 16, 30, 17, 31]);
    assert.equal(new Set(Array.from({ length: 32 }, (_, l) => laneColumn(l))).size, 32);
  });
  it('Welford over 1, 2, 3, 4 (exact in FP32): mean 2.5, M2 5', () => {
    const tile = new Uint32Array(1024);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 32; c++) tile[r * 32 + c] = F(r + 1);
    const { mean, m2 } = welfordColumns([tile], [0, 1, 2, 3], 0);
    assert.equal(mean[7], F(2.5));
    assert.equal(m2[7], F(5));
  });
  it('top-k: local sort into alternating groups, merge pairs, rebuild', () => {
    const v = Array.from({ length: 64 }, (_, p) => (p * 37) % 64); // a permutation of 0..63
    const s = localSorted(16, 0)(col(v));
    // group 0 descending (ArgMax), group 1 ascending; indices travel with their values
    assert.deepEqual(
      s.slice(0, 16).map((q) => q.v),
      [...v.slice(0, 16)].sort((a, b) => b - a).map(F),
    );
    assert.deepEqual(
      s.slice(16, 32).map((q) => q.v),
      [...v.slice(16, 32)].sort((a, b) => a - b).map(F),
    );
    assert.equal(v[s[0]!.x], 60); // max of v[0..15] (0, 37, 10, 47, 20, 57, 30, 3, 40, 13, 50, 23, 60, ...) = 60, with its index
    // merge m=0, k=16: positions p and p+16 in blocks of 32: the larger first
    const m = merged(0, 16)(col(v));
    assert.equal(m[0]!.v, F(Math.max(v[0]!, v[16]!)));
    assert.equal(m[16]!.v, F(Math.min(v[0]!, v[16]!)));
    assert.equal(m[32]!.v, F(Math.max(v[32]!, v[48]!)));
    // merge m=1, k=16: only positions 0..15 with 32..47
    const m1 = merged(1, 16)(col(v));
    assert.equal(m1[5]!.v, F(Math.max(v[5]!, v[37]!)));
    assert.equal(m1[20]!.v, F(v[20]!)); // untouched
    // rebuild: groups at 0 and 32 sorted ascending then descending, the rest unchanged
    const r = rebuilt(1)(col(v));
    assert.deepEqual(
      r.slice(0, 16).map((q) => q.v),
      [...v.slice(0, 16)].sort((a, b) => a - b).map(F),
    );
    assert.deepEqual(
      r.slice(32, 48).map((q) => q.v),
      [...v.slice(32, 48)].sort((a, b) => b - a).map(F),
    );
    assert.deepEqual(r.slice(16, 32), col(v).slice(16, 32));
  });
});
