import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { QWEN3_CASES, QWEN3_DIR, runQwen3Case } from './qwen3.ts';

// The samples are hw-native-sys/PTOAS files (never committed): these tests run only when
// AXSIM_PTOAS points at a checkout. `npm run corpus:qwen3` runs all 17 (docs/pto-qwen3.md).
const root = process.env.AXSIM_PTOAS;
const have = root !== undefined && existsSync(join(root, QWEN3_DIR));

test('the quick Qwen3 decode samples match their double-precision references', (t) => {
  if (!have) return t.skip('AXSIM_PTOAS is not set to a PTOAS checkout');
  for (const n of [0, 3, 8, 10, 14, 16]) {
    const r = runQwen3Case(root!, QWEN3_CASES.find((c) => c.n === n)!);
    assert.equal(r.status, 'match', `${r.file}: ${r.detail}`);
    assert.ok(r.checked > 0 && r.worst <= 1);
  }
});

test('cases cover all 17 samples, one each', () => {
  assert.deepEqual(
    QWEN3_CASES.map((c) => c.n),
    Array.from({ length: 17 }, (_, i) => i),
  );
});

/** The project's own kernel with case 10's argument contract (out = acc + f32(hidden)), or a broken one. */
function residualKernel(op: 'tadd' | 'tsub'): string {
  const T = (d: string) =>
    `!pto.tile_buf<loc=vec, dtype=${d}, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const P = (d: string) => `!pto.partition_tensor_view<16x64x${d}>`;
  return `module {
  func.func @residual(%arg0: !pto.ptr<bf16>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>, %arg3: index, %arg4: index) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c8192 = arith.constant 8192 : index
    %c0 = arith.constant 0 : index
    %a0 = arith.constant 0 : i64
    %a1 = arith.constant 4096 : i64
    %a2 = arith.constant 8192 : i64
    %hv = pto.make_tensor_view %arg0, shape = [%c16, %c8192], strides = [%c8192, %c1] : !pto.tensor_view<?x?xbf16>
    %av = pto.make_tensor_view %arg1, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %ov = pto.make_tensor_view %arg2, shape = [%c16, %c8192], strides = [%c8192, %c1] : !pto.tensor_view<?x?xf32>
    %hp = pto.partition_view %hv, offsets = [%arg3, %arg4], sizes = [%c16, %c64] : !pto.tensor_view<?x?xbf16> -> ${P('bf16')}
    %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> ${P('f32')}
    %op = pto.partition_view %ov, offsets = [%c0, %arg4], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> ${P('f32')}
    %x = pto.alloc_tile addr = %a0 : ${T('f32')}
    pto.tload ins(%ap : ${P('f32')}) outs(%x : ${T('f32')})
    %h = pto.alloc_tile addr = %a1 : ${T('bf16')}
    pto.tload ins(%hp : ${P('bf16')}) outs(%h : ${T('bf16')})
    %hf = pto.alloc_tile addr = %a2 : ${T('f32')}
    pto.tcvt ins(%h : ${T('bf16')}) outs(%hf : ${T('f32')})
    %s = pto.alloc_tile addr = %a0 : ${T('f32')}
    pto.${op} ins(%x, %hf : ${T('f32')}, ${T('f32')}) outs(%s : ${T('f32')})
    pto.tstore ins(%s : ${T('f32')}) outs(%op : ${P('f32')})
    return
  }
}
`;
}

test('the comparison passes a correct kernel and fails a wrong one (own fixture, case 10 contract)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-qwen3-'));
  mkdirSync(join(dir, QWEN3_DIR), { recursive: true });
  const file = join(dir, QWEN3_DIR, 'qwen3_decode_incore_10.pto');
  const c10 = QWEN3_CASES.find((c) => c.n === 10)!;
  writeFileSync(file, residualKernel('tadd'));
  const ok = runQwen3Case(dir, c10);
  assert.equal(ok.status, 'match', ok.detail);
  assert.equal(ok.checked, 16 * 64);
  writeFileSync(file, residualKernel('tsub'));
  const bad = runQwen3Case(dir, c10);
  assert.equal(bad.status, 'mismatch');
  assert.match(bad.detail, /outside the bound/);
});
