import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { ptoIsaCost } from './cce.ts';
import { formatTerm } from './conformance.ts';
import { inp } from './fixtures.ts';
import type { CostInput } from './types.ts';

// Regression cases found by differential testing against pto-isa's A2/A3 cost model built locally
// (@3186c381, -D__COSTMODEL -D__NPU_ARCH__=2201, the conformance driver's tile conventions; see
// docs/pto-status.md "Differential testing of the cost models"). Every expected value below is the
// reference build's output for that input (cycles, pending vector tail, and the `cce` trace in the
// pto-cost.jsonl.gz spelling), not axsim's.

const trace = (i: CostInput) => {
  const r = ptoIsaCost(i);
  return { cycles: r.cycles, pending: r.pendingVectorTail, cce: r.terms.map(formatTerm).join(';') };
};

const unsupported = (i: CostInput) =>
  assert.throws(
    () => ptoIsaCost(i),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );

// colmajor_2Ux8 tiles (2U × 8, all operands col-major). TBinSOp.hpp has no layout static_assert and
// strides by Tile::RowStride, which is 1 for col-major tiles: 1 / (32/size) blocks = repeat stride 0.
test('TADDS f32 16x8 col-major runs (reference: 31 cycles, vadds repeat stride 0)', () => {
  const cm = { op: 'TADDS', rows: 16, cols: 8, validRow: 16, validCol: 8, layout: 'CM', scalar: 3 };
  assert.deepEqual(trace(inp(cm)), {
    cycles: 31,
    pending: 18,
    cce: 'set_vector_mask:1(0,255);vadds:29(1077936128,16,1,1,0,0);set_vector_mask:1',
  });
});

test('TADDS f16 32x8 col-major (reference: 47 cycles; 3.0 as half = 16896)', () => {
  const cm = {
    op: 'TADDS',
    dtype: 'f16',
    rows: 32,
    cols: 8,
    validRow: 32,
    validCol: 8,
    layout: 'CM',
    scalar: 3,
  };
  assert.deepEqual(trace(inp(cm)), {
    cycles: 47,
    pending: 18,
    cce: 'set_vector_mask:1(0,255);vadds:45(16896,32,1,1,0,0);set_vector_mask:1',
  });
});

test('TNEG i32 16x8 col-major is vmuls by -1 (reference: 29 cycles; the -1 argument is dropped)', () => {
  const cm = { op: 'TNEG', dtype: 'i32', rows: 16, cols: 8, validRow: 16, validCol: 8, layout: 'CM' };
  assert.deepEqual(trace(inp(cm)), {
    cycles: 29,
    pending: 15,
    cce: 'set_vector_mask:1(0,255);vmuls:27(16,1,1,0,0);set_vector_mask:1',
  });
});

test('TDIVS f32 16x8 and TRECIP f16 32x8 col-major (reference: 118 and 198 cycles)', () => {
  const cm = { rows: 16, cols: 8, validRow: 16, validCol: 8, layout: 'CM' };
  assert.deepEqual(trace(inp({ ...cm, op: 'TDIVS', scalar: 3 })), {
    cycles: 118,
    pending: 19,
    cce: 'set_vector_mask:1(0,255);vector_dup:27(1077936128,16,1,1,0,0);pipe_barrier:1(1);vdiv:75(16,1,1,1,0,0,0);set_vector_mask:1',
  });
  const h = { ...cm, op: 'TRECIP', dtype: 'f16', rows: 32, validRow: 32 };
  assert.deepEqual(trace(inp(h)), {
    cycles: 198,
    pending: 19,
    cce: 'set_vector_mask:1(0,255);vector_dup:43(15360,32,1,1,0,0);pipe_barrier:1(1);vdiv:139(32,1,1,1,0,0,0);set_vector_mask:1',
  });
  // integer TDIVS is the scalar loop whatever the layout: the fitted estimate (4) is substituted
  assert.equal(
    ptoIsaCost(inp({ ...cm, op: 'TDIVS', dtype: 'i16', rows: 32, validRow: 32, scalar: 3 })).cycles,
    4,
  );
});

test('TCMP f32 16x8 / TCMPS i16 32x8 col-major sources: one compare per row (reference: 40 / 72)', () => {
  const a = trace(
    inp({ op: 'TCMP', rows: 16, cols: 8, validRow: 16, validCol: 8, layout: 'CM', cmpMode: 'LT' }),
  );
  assert.equal(a.cycles, 40);
  assert.equal(a.pending, 0);
  assert.ok(a.cce.startsWith('set_mask_norm:1;set_vector_mask:1;vcmpv_lt:8(1,1,1,1,8,8,8);vcmpv_lt:2(1,'));
  assert.equal(a.cce.split(';').length, 2 + 16);
  const s = { op: 'TCMPS', dtype: 'i16', rows: 32, cols: 8, validRow: 32, validCol: 8, layout: 'CM' };
  const b = trace(inp({ ...s, cmpMode: 'LT', scalar: 3 }));
  assert.equal(b.cycles, 72);
  assert.ok(b.cce.startsWith('set_mask_norm:1;set_vector_mask:1;vcmpvs_lt:8(3,1,1,1,8,8);vcmpvs_lt:2(3,'));
  assert.equal(b.cce.split(';').length, 2 + 32);
});

test('rejected like the reference build: TROWEXPAND into a col-major dst, TMATMUL i8 with K=16', () => {
  // TRowExpand.hpp: "Fix: TROWEXPAND dst layout must be ND!"
  unsupported(inp({ op: 'TROWEXPAND', rows: 16, cols: 8, validRow: 16, validCol: 8, layout: 'CM' }));
  // pto_tile.hpp: "Layout cols must be divisible by inner box cols" (i8 Left boxes are 16 x 32)
  const mm = { M: 16, K: 16, N: 16, validM: 1, validK: 1, validN: 1, accDtype: 'i32' };
  unsupported(inp({ op: 'TMATMUL', dtype: 'i8', layout: 'fractal', ...mm }));
  unsupported(inp({ op: 'TMATMUL_ACC', dtype: 'i8', layout: 'fractal', ...mm }));
});

// Random widening beyond the conformance grid (valid regions incl. empty ones, static valid shapes,
// 8-bit masks, one-column col-major stores); again every expected value is the reference's output.

test('an empty valid region: TADDS/TSUBS/TMINS/TDIVS issue nothing, the fitted estimate (2) is reported', () => {
  const e = { dtype: 'i16', rows: 62, cols: 96, validRow: 0, validCol: 96, scalar: 3 };
  assert.deepEqual(trace(inp({ ...e, op: 'TADDS' })), { cycles: 2, pending: 0, cce: '' });
  // TRECIP f16 7x32 valid 0x22 (recorded as TDIVS): 2; integer TRECIP takes TDIVS's fixed 4
  const r = { op: 'TRECIP', dtype: 'f16', rows: 7, cols: 32, validRow: 0, validCol: 22 };
  assert.deepEqual(trace(inp(r)), { cycles: 2, pending: 0, cce: '' });
  const ri = { op: 'TRECIP', dtype: 'i16', rows: 15, cols: 2320, validRow: 0, validCol: 1732 };
  assert.equal(ptoIsaCost(inp(ri)).cycles, 4);
});

test('TSTORE from a one-column col-major tile takes the DN burst scheme (reference: 5 and 2 cycles)', () => {
  // i8 64x1: a 64-byte burst costs 0 cycles, so the fitted estimate 3 + 64·2/64 = 5 is reported;
  // gmGap = (1 − 64)·1 as uint32
  const a = { op: 'TSTORE', dtype: 'i8', rows: 64, cols: 1, validRow: 64, validCol: 1, layout: 'CM' };
  assert.deepEqual(trace(inp({ ...a, gm: 'ND contiguous' })), {
    cycles: 5,
    pending: 0,
    cce: 'copy_ubuf_to_gm_align_b8:0(0,1,64,0,0,0,4294967233)',
  });
  const b = { op: 'TSTORE', dtype: 'i16', rows: 112, cols: 1, validRow: 112, validCol: 1, layout: 'CM' };
  assert.deepEqual(trace(inp({ ...b, gm: 'ND contiguous' })), {
    cycles: 2,
    pending: 0,
    cce: 'copy_ubuf_to_gm_align_b16:2(0,1,224,0,0,0,4294967074)',
  });
  // TLOAD has no one-column exception: "only support ND2ND/DN2DN/NZ2NZ!"
  unsupported(inp({ ...b, op: 'TLOAD', rows: 48, validRow: 17, gm: 'ND contiguous' }));
});

test('an 8-bit continuous mask of 203 lanes: the high word is (1 << (139 mod 64)) − 1 = 2047', () => {
  const c = { op: 'TCVT', dtype: 'i8', dstDtype: 'u8', roundMode: 'CAST_FLOOR', rows: 20, cols: 704 };
  assert.deepEqual(trace(inp({ ...c, validRow: 0, validCol: 203 })), {
    cycles: 4,
    pending: 0,
    cce: 'set_ctrl:1(0);set_vector_mask:1(2047);set_vector_mask:1;set_ctrl:1(0)',
  });
});

test('static valid shapes reach the compile-time paths of TDIVS and TNOT', () => {
  // TDIVS f16 21x32 static valid 18x32, scalar ÷ tile: norm mode 4 repeats + a 64-lane tail
  const d = { op: 'TDIVS', dtype: 'f16', rows: 21, cols: 32, validRow: 18, validCol: 32, staticValidCol: 32 };
  assert.deepEqual(trace(inp({ ...d, scalar: 3, scalarFirst: true })), {
    cycles: 88,
    pending: 19,
    cce: 'vector_dup:15(16896,4,1,1,8,0);pipe_barrier:1(1);vdiv:27(4,1,1,1,8,8,8);set_vector_mask:1(0);vector_dup:1(16896,1,1,1,8,0);pipe_barrier:1(1);vdiv:15(1,1,1,1,8,8,8);set_vector_mask:1',
  });
  // TNOT u32 178x368 static valid 1x368: seen as 16-bit lanes, 736 of them in count mode
  const n = {
    op: 'TNOT',
    dtype: 'u32',
    rows: 178,
    cols: 368,
    validRow: 1,
    validCol: 368,
    staticValidCol: 368,
  };
  assert.deepEqual(trace(inp(n)), {
    cycles: 12,
    pending: 12,
    cce: 'set_mask_count:1;set_vector_mask:1(0,736);vnot:8(0,1,1,8,8);set_mask_norm:1;set_vector_mask:1',
  });
});

test('integer TDIVS by a zero scalar crashes the reference build (SIGFPE) -> Unsupported', () => {
  unsupported(
    inp({ op: 'TDIVS', dtype: 'i16', rows: 16, cols: 2224, validRow: 16, validCol: 1903, scalar: 0 }),
  );
});

test('a col-major src1 of TROWEXPANDSUB is read from the vbrcb copy at TMP_UB_OFFSET (184 KiB)', () => {
  const s = { op: 'TROWEXPANDSUB', rows: 16, cols: 40, validRow: 16, validCol: 30, src1ColMajor: true };
  assert.deepEqual(trace(inp(s)), {
    cycles: 63,
    pending: 14,
    cce: 'vbrcb:0(188416,1,8,2);pipe_barrier:1(1);set_vector_mask:1(0,1073741823);vsub:42(188416,16,1,1,0,5,5,1);set_vector_mask:1',
  });
  // per-row count mode: src1 advances one 32-byte block per row
  const c = { op: 'TROWEXPANDSUB', rows: 56, cols: 304, validRow: 2, validCol: 304, src1ColMajor: true };
  assert.deepEqual(trace(inp(c)), {
    cycles: 33,
    pending: 14,
    cce: 'vbrcb:0(188416,1,8,1);pipe_barrier:1(1);set_mask_count:1;set_vector_mask:1(0,304);vsub:10(188416,0,1,1,0,8,8,0);vsub:0(188448,0,1,1,0,8,8,0);set_mask_norm:1;set_vector_mask:1',
  });
});
