import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { ptoIsaCost } from './cce.ts';
import { inp } from './fixtures.ts';
import { bandwidthCycles } from './trace.ts';

// Expected values are the worked examples of shared/conformance/PTO-NOTES.md §4.

test('TADD f32 16x64: one vadd of 16 repeats = 10 + 2*16 = 42, tail 14 pending', () => {
  const r = ptoIsaCost(inp({}));
  assert.equal(r.cycles, 42);
  assert.equal(r.pendingVectorTail, 14);
  assert.deepEqual(
    r.terms.map((t) => t.name),
    ['vadd'],
  );
});

test('small tile TADD f32 4x8: masked vadd of 4 repeats + 2 mask writes = 20', () => {
  assert.equal(ptoIsaCost(inp({ rows: 4, cols: 8, validRow: 4, validCol: 8 })).cycles, 20);
});

test('row-repeat mode TADD f32 16x128 valid 7x67: vadd(7) 24 + mask + vadd(7) 14 + mask = 40', () => {
  const r = ptoIsaCost(inp({ rows: 16, cols: 128, validRow: 7, validCol: 67 }));
  assert.equal(r.cycles, 40);
  assert.deepEqual(
    r.terms.map((t) => t.cycles),
    [24, 1, 14, 1],
  );
});

test('count mode: TADD f32 16x72 costs head + 4 control cycles = 14 whatever the size', () => {
  assert.equal(ptoIsaCost(inp({ rows: 16, cols: 72, validRow: 16, validCol: 72 })).cycles, 14);
  assert.equal(ptoIsaCost(inp({ rows: 128, cols: 128, validRow: 128, validCol: 128 })).cycles, 14);
  assert.equal(
    ptoIsaCost(inp({ dtype: 'f16', rows: 128, cols: 128, validRow: 128, validCol: 128 })).cycles,
    266,
  );
});

test('TROWSUM f32 16x64: 1+1+14+1+1+1 plus the flushed 32-cycle vcadd tail = 51, nothing pending', () => {
  const r = ptoIsaCost(inp({ op: 'TROWSUM' }));
  assert.equal(r.cycles, 51);
  assert.equal(r.pendingVectorTail, 0);
});

test('TLOAD / TSTORE 16x64 f32 (4096 B) cost 69 / 37 cycles; copies are floor(B/2^30/BW*1.85e9)', () => {
  assert.equal(ptoIsaCost(inp({ op: 'TLOAD', gm: 'ND contiguous' })).cycles, 69);
  assert.equal(ptoIsaCost(inp({ op: 'TSTORE', gm: 'ND contiguous' })).cycles, 37);
  // 4096 / 2^30 / 100.9 * 1.85e9 = 69.94…, / 188.46 → 37.44…
  assert.equal(bandwidthCycles(4096, 'GM_TO_UB'), 69);
  assert.equal(bandwidthCycles(4096, 'UB_TO_GM'), 37);
});

test('TMATMUL 64x64x64: f32 6 + 2*4*8*4 = 262, f16 6 + 4*4*4 = 70', () => {
  const mm = (dtype: string) =>
    ptoIsaCost(
      inp({ op: 'TMATMUL', dtype, M: 64, K: 64, N: 64, validM: 64, validK: 64, validN: 64, accDtype: 'f32' }),
    );
  assert.equal(mm('f32').cycles, 262);
  assert.equal(mm('f16').cycles, 70);
});

test('static valid shapes take the kernels compile-time continuous path (TADDS f32 16x16)', () => {
  // dynamic valid: row-repeat mode, 16 columns < one repeat, so mask + vadds(16 repeats) + mask
  // = 1 + (13 + 16) + 1 = 31; static: the 256 elements are 4 full repeats, vadds(4) = 13 + 4 = 17
  const base = inp({ op: 'TADDS', rows: 16, cols: 16, validRow: 16, validCol: 16 });
  assert.equal(ptoIsaCost(base).cycles, 31);
  assert.equal(ptoIsaCost({ ...base, staticValidCol: 16 }).cycles, 17);
});

test('ops the A2/A3 cost-model build does not compile are Unsupported', () => {
  for (const op of ['TAND', 'TPRELU', 'TCOLEXPAND']) {
    assert.throws(
      () => ptoIsaCost(inp({ op })),
      (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
    );
  }
  assert.throws(
    () => ptoIsaCost(inp({ layout: 'CM' })),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

test('row expansion with a col-major column src1: vbrcb broadcast, barrier, then the binary op', () => {
  // vbrcb 2 repeats (16 rows / 8) costs 0 + its 18-cycle tail flushed by the barrier (+1); then
  // vsub over 128 columns = two 64-element chunks of 16 repeats: (10 + 32) + 32 -> 0 + 18 + 1 + 74 = 93
  const r = ptoIsaCost(
    inp({ op: 'TROWEXPANDSUB', rows: 16, cols: 128, validRow: 16, validCol: 128, src1ColMajor: true }),
  );
  assert.equal(r.cycles, 93);
  assert.deepEqual(
    r.terms.map((t) => t.name),
    ['vbrcb', 'pipe_barrier', 'vsub', 'vsub'],
  );
  assert.equal(r.pendingVectorTail, 14);
  // the one-block-per-row form skips the broadcast: 42 + 32 = 74
  assert.equal(
    ptoIsaCost(inp({ op: 'TROWEXPANDSUB', rows: 16, cols: 128, validRow: 16, validCol: 128 })).cycles,
    74,
  );
});

test('TROWSUM f32 64x128 static into a col-major column: the group-reduce shortcut', () => {
  // vcgadd(128) = 14 + 128, flushed tail 24 (+1 barrier); vadd(8) = 10 + 16, tail 14 (+1);
  // vcgadd(8) = 14 + 8, tail 24 (+1): 142 + 25 + 26 + 15 + 22 + 25 = 255
  const base = inp({ op: 'TROWSUM', rows: 64, cols: 128, validRow: 64, validCol: 128 });
  const r = ptoIsaCost({ ...base, dstColMajor: true, dstStaticValidCol: 1, srcStaticFull: true, dstCols: 1 });
  assert.deepEqual(
    r.terms.map((t) => `${t.name}:${t.cycles}`),
    ['vcgadd:142', 'pipe_barrier:1', 'vadd:26', 'pipe_barrier:1', 'vcgadd:22', 'pipe_barrier:1'],
  );
  assert.equal(r.cycles, 255);
  // a dynamic valid shape takes the general path instead
  assert.notEqual(ptoIsaCost({ ...base, dstColMajor: true, dstStaticValidCol: 1, dstCols: 1 }).cycles, 255);
});

test('TROWEXPAND static broadcast [16,1] → [16,8] f32: one vbrcb of 16/8 = 2 repeats', () => {
  const col = (rows: number, cols: number, blayout: string, vRow = rows, vCol = cols) => ({
    loc: 'vec',
    dtype: 'f32',
    rows,
    cols,
    validRow: rows,
    validCol: cols,
    blayout,
    slayout: 'none_box',
    fractal: 512,
    vRow,
    vCol,
  });
  const base = inp({ op: 'TROWEXPAND', rows: 16, cols: 8, validRow: 16, validCol: 8 });
  const r = ptoIsaCost({ ...base, src: col(16, 1, 'col_major'), dst: col(16, 8, 'row_major') });
  // vbrcb costs head 0 + slope 0 and leaves its 18-cycle tail pending, so the trace sums to 0 and
  // the fitted estimate is substituted: round(1.7596 · 16 · 8 + 33.4) = round(258.63) = 259
  assert.deepEqual(r.terms, [{ name: 'vbrcb', cycles: 0, args: [1, 8, 2] }]);
  assert.equal(r.pendingVectorTail, 18);
  assert.equal(r.cycles, 259);
  assert.match(r.path, /static broadcast/);
  // a row-major [1, 4096] source into [4096, 8]: 512 repeats in chunks of 254, 254, 4
  const big = inp({ op: 'TROWEXPAND', rows: 4096, cols: 8, validRow: 4096, validCol: 8 });
  const b = ptoIsaCost({ ...big, src: col(1, 4096, 'row_major'), dst: col(4096, 8, 'row_major') });
  assert.deepEqual(
    b.terms.map((x) => x.args![2]),
    [254, 254, 4],
  );
  // a dynamic valid shape, or a destination wider than one block, takes the per-row vector_dup path
  const dyn = ptoIsaCost({ ...base, src: col(16, 1, 'col_major'), dst: col(16, 8, 'row_major', 16, -1) });
  assert.ok(dyn.terms.some((x) => x.name === 'vector_dup'));
  const wide = inp({ op: 'TROWEXPAND', rows: 16, cols: 16, validRow: 16, validCol: 16 });
  assert.ok(
    ptoIsaCost({ ...wide, src: col(16, 1, 'col_major'), dst: col(16, 16, 'row_major') }).terms.some(
      (x) => x.name === 'vector_dup',
    ),
  );
});
