import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../../errors.ts';
import { loadProgram } from '../asm/load.ts';
import { ptoIsaCost } from './cce.ts';
import { costFunction, costProgram } from './index.ts';
import { bandwidthCycles } from './trace.ts';
import type { CostInput, TileFacts } from './types.ts';

// Expected cycles are worked by hand from pto-isa @3186c381's A2/A3 kernels and cost stubs (no
// conformance row covers these paths). Every copy costs floor(bytes · 1.85e9 / (BW · 2^30)) with
// the bandwidths of PTO-NOTES §4.2 (GB/s, 1 GB = 2^30 B); control intrinsics cost 1; `mad` costs
// 6 + c·⌈m/16⌉·⌈k/(32/sizeof A)⌉·⌈n/16⌉ with c = 2 for f32 A, else 1.

const tile = (
  loc: string,
  dtype: string,
  rows: number,
  cols: number,
  blayout: string,
  slayout: string,
  o: Partial<TileFacts> = {},
): TileFacts => ({
  loc,
  dtype,
  rows,
  cols,
  validRow: rows,
  validCol: cols,
  blayout,
  slayout,
  fractal: 512,
  vCol: -1,
  ...o,
});
const NZ = ['col_major', 'row_major'] as const;
const ZN = ['row_major', 'col_major'] as const;

const base = (o: Partial<CostInput>): CostInput => ({
  op: 'TLOAD',
  dtype: 'f16',
  rows: 16,
  cols: 32,
  validRow: 16,
  validCol: 32,
  ...o,
});
const isUnsupported = (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported';
const trace = (r: ReturnType<typeof ptoIsaCost>) => r.terms.map((t) => `${t.name}:${t.cycles}`);

test('bandwidth floors used below, worked by hand', () => {
  // 1024 B: GM→L1 1024·1.85e9 / (135·2^30) = 13.07; L1→L0A (441) 4.0006; L1→L0B (220.5) 8.0013
  assert.equal(bandwidthCycles(1024, 'GM_TO_L1'), 13);
  assert.equal(bandwidthCycles(1024, 'L1_TO_L0A'), 4);
  assert.equal(bandwidthCycles(1024, 'L1_TO_L0B'), 8);
  // 512 B: L0C→GM (70) 12.60; L0C→L1 (128) 6.89
  assert.equal(bandwidthCycles(512, 'L0C_TO_GM'), 12);
  assert.equal(bandwidthCycles(512, 'L0C_TO_L1'), 6);
});

test('TLOAD ND → NZ mat f16 16x32: one nd2nz copy of 16·32·2 = 1024 B on GM→L1 = 13', () => {
  const r = ptoIsaCost(
    base({ dst: tile('mat', 'f16', 16, 32, ...NZ), gmShape: [16, 32], gmStrides: [32, 1] }),
  );
  assert.equal(r.cycles, 13);
  // (sid, ndNum, nValue = 16, dValue = 32, srcNdMatrixStride, srcDValue = row stride 32,
  //  dstNzC0Stride = tile rows 16, dstNzNStride, dstNzMatrixStride)
  assert.deepEqual(r.terms, [
    { name: 'copy_gm_to_cbuf_multi_nd2nz_b16', cycles: 13, args: [0, 1, 16, 32, 0, 32, 16, 1, 1] },
  ]);
});

test('TLOAD ND → ND mat f32 16x64: copy_gm_to_cbuf of 16 bursts of 8 blocks = 4096 B → 52', () => {
  // 4096·1.85e9 / (135·2^30) = 52.28; a row stride of 128 only changes the gap argument (64·4/32 = 8)
  const r = ptoIsaCost(
    base({
      dtype: 'f32',
      rows: 16,
      cols: 64,
      validCol: 64,
      dst: tile('mat', 'f32', 16, 64, 'row_major', 'none_box'),
      gmShape: [16, 64],
      gmStrides: [128, 1],
    }),
  );
  assert.equal(r.cycles, 52);
  assert.deepEqual(r.terms[0]!.args, [0, 16, 8, 8, 0, 0]);
});

test('TLOAD DN → ZN mat f16 32x16: nd2nz with n = 16 columns of d = 32 → 13; ND → ZN is rejected', () => {
  const dst = tile('mat', 'f16', 32, 16, ...ZN);
  const r = ptoIsaCost(
    base({ rows: 32, cols: 16, validRow: 32, validCol: 16, dst, gmShape: [32, 16], gmStrides: [1, 32] }),
  );
  assert.equal(r.cycles, 13);
  assert.deepEqual(r.terms[0]!.args, [0, 1, 16, 32, 0, 32, 16, 1, 1]);
  assert.throws(
    () => ptoIsaCost(base({ rows: 32, cols: 16, dst, gmShape: [32, 16], gmStrides: [16, 1] })),
    isUnsupported,
  );
});

test('TMOV mat → left f16 16x32 (same fractal): set_fmatrix 1 + img2colv2_cbuf_to_ca 1024 B (4) = 5', () => {
  const r = ptoIsaCost(
    base({
      op: 'TMOV',
      src: tile('mat', 'f16', 16, 32, ...NZ),
      dst: tile('left', 'f16', 16, 32, ...NZ),
    }),
  );
  assert.equal(r.cycles, 5);
  assert.deepEqual(trace(r), ['set_fmatrix:1', 'img2colv2_cbuf_to_ca:4']);
  // fmatrix config = srcRow | 1 << 16
  assert.deepEqual(r.terms[0]!.args, [16 + 65536]);
});

test('TMOV mat NZ → right ZN f16 32x16: transposing img2colv2_cbuf_to_cb = 1 + 8 = 9', () => {
  const r = ptoIsaCost(
    base({ op: 'TMOV', src: tile('mat', 'f16', 32, 16, ...NZ), dst: tile('right', 'f16', 32, 16, ...ZN) }),
  );
  assert.deepEqual(trace(r), ['set_fmatrix_b:1', 'img2colv2_cbuf_to_cb:8']);
  assert.equal(r.cycles, 9);
});

test('TMOV mat ZN → right ZN: load_cbuf_to_cb per fractal column or row (repeat·512 B on L1→L0B)', () => {
  const mv = (rows: number, cols: number) =>
    ptoIsaCost(
      base({
        op: 'TMOV',
        src: tile('mat', 'f16', rows, cols, ...ZN),
        dst: tile('right', 'f16', rows, cols, ...ZN),
      }),
    );
  // 32x16: dstRowNum = 32·2/32 = 2 ≥ dstColNum = 16/16 = 1 → one call, repeat 2 = 1024 B → 8
  assert.deepEqual(trace(mv(32, 16)), ['load_cbuf_to_cb:8']);
  // 64x64: 4 ≥ 4 → four calls of repeat 4 (2048 B → 16.003 → 16) = 64
  assert.equal(mv(64, 64).cycles, 64);
  assert.equal(mv(64, 64).terms.length, 4);
  // 32x64: dstRowNum 2 < dstColNum 4 → two calls (one per fractal row) of repeat 4 = 32
  assert.deepEqual(trace(mv(32, 64)), ['load_cbuf_to_cb:16', 'load_cbuf_to_cb:16']);
});

test('TMOV acc → mat f32 → f16 16x16: copy_matrix_cc_to_cbuf of 16·16·2 B on L0C→L1 = 6', () => {
  const r = ptoIsaCost(
    base({
      op: 'TMOV',
      src: tile('acc', 'f32', 16, 16, ...NZ, { fractal: 1024 }),
      dst: tile('mat', 'f16', 16, 16, ...NZ),
    }),
  );
  assert.equal(r.cycles, 6);
  // quant mode F322F16 = 1
  assert.deepEqual(r.terms[0]!.args, [0, 16, 16, 16, 16, 0, 1, 0, 0, 0]);
});

test('TMOV vec → vec f32 16x64: one 128-block UB copy (4096 B / 1024 GB/s = 6.89 → 6)', () => {
  const r = ptoIsaCost(
    base({
      op: 'TMOV',
      dtype: 'f32',
      src: tile('vec', 'f32', 16, 64, 'row_major', 'none_box'),
      dst: tile('vec', 'f32', 16, 64, 'row_major', 'none_box'),
    }),
  );
  assert.deepEqual(r.terms, [{ name: 'copy_ubuf_to_ubuf', cycles: 6, args: [0, 1, 128, 0, 0] }]);
});

test('TMOV vec → vec with 8 valid columns: 16 one-block copies price 0, so the fitted fallback (2 + 128/32 = 6) applies', () => {
  const v = tile('vec', 'f32', 16, 64, 'row_major', 'none_box', { validCol: 8 });
  const r = ptoIsaCost(base({ op: 'TMOV', dtype: 'f32', validRow: 16, validCol: 8, src: v, dst: v }));
  assert.equal(r.terms.length, 16);
  assert.equal(r.cycles, 6);
  assert.match(r.path, /fitted estimate/);
});

test('TMOV pairs A2/A3 has no path for (acc → vec, vec → mat) and shape changes are Unsupported', () => {
  const acc = tile('acc', 'f32', 16, 16, ...NZ, { fractal: 1024 });
  const vec = tile('vec', 'f32', 16, 16, 'row_major', 'none_box');
  assert.throws(() => ptoIsaCost(base({ op: 'TMOV', src: acc, dst: vec })), isUnsupported);
  assert.throws(
    () => ptoIsaCost(base({ op: 'TMOV', src: vec, dst: tile('mat', 'f32', 16, 16, ...NZ) })),
    isUnsupported,
  );
  assert.throws(
    () =>
      ptoIsaCost(base({ op: 'TMOV', src: vec, dst: tile('vec', 'f32', 16, 32, 'row_major', 'none_box') })),
    isUnsupported,
  );
});

test('TSTORE acc f32 16x16 → ND: set_nd_para 1 + copy_matrix_cc_to_gm 512 B (12) = 13, Xm/Xt registers', () => {
  const src = tile('acc', 'f32', 16, 16, ...NZ, { fractal: 1024 });
  const r = ptoIsaCost(
    base({
      op: 'TSTORE',
      dtype: 'f32',
      rows: 16,
      cols: 16,
      validCol: 16,
      src,
      gmShape: [16, 16],
      gmStrides: [16, 1],
    }),
  );
  assert.equal(r.cycles, 13);
  // Xm = n << 4 | m << 16 | row stride 16 << 32; Xt = src stride (Rows 16) | nz2nd enable << 43
  assert.deepEqual(r.terms[1], {
    name: 'copy_matrix_cc_to_gm',
    cycles: 12,
    args: [16 * 16 + 16 * 65536 + 16 * 2 ** 32, 16 + 2 ** 43],
  });
  // to an f16 tensor the quant mode F322F16 (1) goes to Xt bit 34
  const h = ptoIsaCost(
    base({ op: 'TSTORE', dtype: 'f32', src, gmShape: [16, 16], gmStrides: [16, 1], gmDtype: 'f16' }),
  );
  assert.equal(h.terms[1]!.args![1], 16 + 2 ** 34 + 2 ** 43);
  // 64x128: 64·128·2 = 16384 B → 403.27 → 403, + 1
  const big = tile('acc', 'f32', 64, 128, ...NZ, { fractal: 1024 });
  assert.equal(
    ptoIsaCost(base({ op: 'TSTORE', dtype: 'f32', src: big, gmShape: [64, 128], gmStrides: [128, 1] }))
      .cycles,
    404,
  );
});

test('TMATMUL_BIAS and TGEMV: the TMATMUL mad with bias / GEMV arguments', () => {
  const mm = { dtype: 'f16', M: 16, K: 32, N: 16, validM: 16, validK: 32, validN: 16, accDtype: 'f32' };
  // f16 16x32x16: 6 + 1·1·⌈32/16⌉·1 = 8; cmatrixSource = 1, cmatrixInitVal = 0
  const b = ptoIsaCost(base({ op: 'TMATMUL_BIAS', ...mm }));
  assert.deepEqual(b.terms, [{ name: 'mad', cycles: 8, args: [16, 32, 16, 0, 0, 1, 0] }]);
  // f32 64x64x64 with bias: 6 + 2·4·8·4 = 262
  assert.equal(
    ptoIsaCost(
      base({
        op: 'TMATMUL_BIAS',
        dtype: 'f32',
        M: 64,
        K: 64,
        N: 64,
        validM: 64,
        validK: 64,
        validN: 64,
        accDtype: 'f32',
      }),
    ).cycles,
    262,
  );
  // GEMV keeps m = 1 (TMATMUL would force 16); k is the right tile's valid rows
  const g = ptoIsaCost(base({ op: 'TGEMV', ...mm, validM: 1, rightValidRow: 32 }));
  assert.deepEqual(g.terms, [{ name: 'mad', cycles: 8, args: [1, 32, 16, 0, 0, 0, 1] }]);
  assert.deepEqual(
    ptoIsaCost(base({ op: 'TGEMV_ACC', ...mm, rightValidRow: 32 })).terms[0]!.args,
    [1, 32, 16, 0, 0, 0, 0],
  );
  assert.deepEqual(
    ptoIsaCost(base({ op: 'TGEMV_BIAS', ...mm, rightValidRow: 32 })).terms[0]!.args,
    [1, 32, 16, 0, 0, 1, 0],
  );
  assert.throws(() => ptoIsaCost(base({ op: 'TMATMUL_BIAS', ...mm, dtype: 'i8' })), isUnsupported);
});

test('examples/pto/matmul.pto under pto-isa: every instruction priced, 13 + 13 + 5 + 9 + 8 + 8 + 13 = 69', () => {
  const file = fileURLToPath(new URL('../../../examples/pto/matmul.pto', import.meta.url));
  const p = costProgram(loadProgram(file), 'pto-isa', 'a2a3', costFunction('pto-isa', 'a2a3'));
  assert.equal(p.uncovered, 0);
  assert.deepEqual(
    p.instructions.map((r) => `${r.op}:${r.first}`),
    ['TLOAD:13', 'TLOAD:13', 'TMOV:5', 'TMOV:9', 'TMATMUL:8', 'TMATMUL_ACC:8', 'TSTORE:13'],
  );
  assert.equal(p.total, 69);
});

test('TSTORE from mat tiles: copy_cbuf_to_gm of 32-byte bursts on L1→GM (32 GB/s)', () => {
  // ND f16 16x32: 16 bursts of 32·2/32 = 2 blocks = 1024 B; 1024·1.85e9 / (32·2^30) = 55.13 → 55
  const nd = ptoIsaCost(
    base({
      op: 'TSTORE',
      src: tile('mat', 'f16', 16, 32, 'row_major', 'none_box'),
      gmShape: [16, 32],
      gmStrides: [32, 1],
    }),
  );
  assert.deepEqual(nd.terms, [{ name: 'copy_cbuf_to_gm', cycles: 55, args: [0, 16, 2, 0, 0] }]);
  // DN f32 16x8 into a DN view [16, 8] with column stride 16: 8 bursts of 16·4/32 = 2 blocks = 512 B → 27
  const dn = ptoIsaCost(
    base({
      op: 'TSTORE',
      dtype: 'f32',
      src: tile('mat', 'f32', 16, 8, 'col_major', 'none_box'),
      gmShape: [16, 8],
      gmStrides: [1, 16],
    }),
  );
  assert.deepEqual(dn.terms, [{ name: 'copy_cbuf_to_gm', cycles: 27, args: [0, 8, 2, 0, 0] }]);
  // an NZ mat tile needs an NZ tensor, which a 2-D strided view is not
  assert.throws(
    () =>
      ptoIsaCost(
        base({ op: 'TSTORE', src: tile('mat', 'f16', 16, 32, ...NZ), gmShape: [16, 32], gmStrides: [32, 1] }),
      ),
    isUnsupported,
  );
});

test('transposing TMOV into left / right and TMOV into the bias table, worked by hand', () => {
  const mv = (src: TileFacts, dst: TileFacts) => ptoIsaCost(base({ op: 'TMOV', dtype: src.dtype, src, dst }));
  // f16 ZN mat → left (row_major fractals): set_fmatrix(srcCol | 1 << 16) + img2colv2_cbuf_to_ca of
  // 32·32·2 = 2048 B on L1→L0A: 2048·1.85e9 / (441·2^30) = 8.001 → 8
  const l16 = mv(tile('mat', 'f16', 32, 32, ...ZN), tile('left', 'f16', 32, 32, 'row_major', 'row_major'));
  assert.deepEqual(l16.terms, [
    { name: 'set_fmatrix', cycles: 1, args: [32 + 65536] },
    { name: 'img2colv2_cbuf_to_ca', cycles: 8, args: [32, 32, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 32] },
  ]);
  // i8 64x64: the compact transpose path, 32x32 fractal pairs: dstRowNum = dstColNum = 64/32 = 2, so
  // two load_cbuf_to_ca_transpose of repeat 2 (1024 B → 4 each), srcStride = 64/32 = 2,
  // dstGap = 2·2 − 1 = 3, dstFracGap = 1
  const l8 = mv(tile('mat', 'i8', 64, 64, ...ZN), tile('left', 'i8', 64, 64, 'row_major', 'row_major'));
  assert.deepEqual(l8.terms, [
    { name: 'load_cbuf_to_ca_transpose', cycles: 4, args: [0, 2, 2, 3, 0, 1] },
    { name: 'load_cbuf_to_ca_transpose', cycles: 4, args: [1, 2, 2, 3, 0, 1] },
  ]);
  // i8 NZ mat → right ZN 64x64: one load_cbuf_to_cb_transpose per 32-row band (2), repeat 2
  // (1024 B on L1→L0B → 8 each), srcStride = srcRows/32 = 2, dstGap 1
  const r8 = mv(tile('mat', 'i8', 64, 64, ...NZ), tile('right', 'i8', 64, 64, ...ZN));
  assert.deepEqual(
    r8.terms.map((t) => `${t.name}:${t.cycles}(${t.args!.join(',')})`),
    ['load_cbuf_to_cb_transpose:8(0,2,2,1,0,0)', 'load_cbuf_to_cb_transpose:8(1,2,2,1,0,0)'],
  );
  assert.equal(r8.cycles, 16);
  // bias: f32 1x64 = 4 bursts of 64 B = 256 B on L1→BT (32 GB/s): 13.78 → 13; f16 → f32 converts
  // (convControl 1) 2 bursts = 128 B → 6.89 → 6
  const row = (dtype: string, loc: string) => tile(loc, dtype, 1, 64, 'row_major', 'none_box');
  assert.deepEqual(mv(row('f32', 'mat'), row('f32', 'bias')).terms, [
    { name: 'copy_cbuf_to_bt', cycles: 13, args: [0, 1, 4, 0, 0] },
  ]);
  assert.deepEqual(mv(row('f16', 'mat'), row('f32', 'bias')).terms, [
    { name: 'copy_cbuf_to_bt', cycles: 6, args: [1, 1, 2, 0, 0] },
  ]);
  // a one-row row-major mat → left is the TExtractToAVector path the reference cost build cannot compile
  assert.throws(() => mv(row('f16', 'mat'), row('f16', 'left')), isUnsupported);
});
