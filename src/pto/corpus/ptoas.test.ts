// The PTOAS corpus runner's pieces on the project's own fixtures (no PTOAS file is stored here).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { NpyArray } from '../../io/index.ts';
import { parsePtoAs } from '../asm/parser.ts';
import { runProgram } from '../asm/run.ts';
import { checkCorpusFile, corpusFiles, corpusInputs, entryFunc, expectation, inputShape } from './ptoas.ts';

test('expectation: lit RUN / CHECK conventions', () => {
  assert.deepEqual(expectation('module {}\n'), {
    verdict: 'accept',
    arch: 'a3',
    why: 'no RUN line (sample)',
  });
  assert.equal(expectation('// RUN: not ptoas --pto-arch=a5 %s 2>&1 | FileCheck %s\n').verdict, 'reject');
  assert.equal(expectation('// RUN: not ptoas --pto-arch=a5 %s\n').arch, 'a5');
  // a diagnostic checked without `not`
  assert.equal(
    expectation("// RUN: ptoas %s 2>&1 | FileCheck %s\n// CHECK: error: 'pto.x' op bad\n").verdict,
    'reject',
  );
  // CHECK-NOT: error is not an expected diagnostic; another prefix's error belongs to another RUN
  const two =
    '// RUN: ptoas --pto-arch=a5 %s | FileCheck %s --check-prefix=A5\n// RUN: not ptoas --pto-arch=a3 %s | FileCheck %s --check-prefix=A3\n// A5-NOT: error: x\n// A5: ok\n// A3: error: x\n';
  assert.deepEqual(expectation(two), { verdict: 'accept', arch: 'a5', why: 'RUN: ptoas' });
  // the module's arch when the command line gives none; --pto-level is kept
  const e = expectation(
    '// RUN: ptoas --pto-level=level3 %s\nmodule attributes {"pto.target_arch" = "a5"} {}\n',
  );
  assert.deepEqual([e.arch, e.level], ['a5', 'level3']);
});

test('checkCorpusFile on a directory of own fixtures: verdicts, line:col, a run', () => {
  const root = mkdtempSync(join(tmpdir(), 'axsim-ptoas-corpus-'));
  mkdirSync(join(root, 'test'));
  const T = '!pto.tile_buf<vec, 16x16xf32>';
  writeFileSync(
    join(root, 'test', 'ok.pto'),
    `// RUN: ptoas %s\nfunc.func @k() {\n  %a = pto.alloc_tile : ${T}\n  pto.tabs ins(%a : ${T}) outs(%a : ${T})\n  return\n}\n`,
  );
  writeFileSync(
    join(root, 'test', 'bad.pto'),
    `// RUN: not ptoas %s\nfunc.func @k() {\n  %a = pto.alloc_tile : ${T}\n  %h = pto.alloc_tile : !pto.tile_buf<vec, 16x8xf16>\n  pto.tcvt ins(%a : ${T}) outs(%h : !pto.tile_buf<vec, 16x8xf16>)\n  return\n}\n`,
  );
  writeFileSync(join(root, 'test', 'syntax.pto'), 'func.func @k() {\n  pto.nope\n  return\n}\n');
  assert.deepEqual(corpusFiles(root), ['test/bad.pto', 'test/ok.pto', 'test/syntax.pto']);
  const ok = checkCorpusFile(root, 'test/ok.pto');
  assert.deepEqual([ok.ptoas, ok.axsim, ok.ran], ['accept', 'accept', true]);
  const bad = checkCorpusFile(root, 'test/bad.pto');
  assert.deepEqual([bad.ptoas, bad.axsim, bad.ran], ['reject', 'reject', null]);
  assert.match(bad.detail, /^5:3: pto\.tcvt: expects src and dst to have compatible shapes/);
  const syn = checkCorpusFile(root, 'test/syntax.pto');
  assert.deepEqual([syn.ptoas, syn.axsim], ['accept', 'reject']);
  assert.match(syn.detail, /^2:3: unknown PTO operation 'pto\.nope'/);
});

test('inputShape: integer scalars the views accept, pointer arrays as long as the views reach', () => {
  // %n sizes the tensor; a 16-element partition needs n >= 16, so 0, 1, 2, 4, 8 fail and 16 is
  // chosen. The loop visits rows 0..n-1 of a [n, 32] view of %src at stride 40 (a padded row): the
  // last row's 16 elements at column 8 end at (n-1)*40 + 8 + 16 = 15*40 + 24 = 624 elements.
  const T = '!pto.tile_buf<vec, 1x16xf32>';
  const src = `func.func @k(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %v = pto.make_tensor_view %src, shape = [%n, %c32], strides = [%c40, %c1] : !pto.tensor_view<?x?xf32>
  %w = pto.make_tensor_view %dst, shape = [%n], strides = [%c1] : !pto.tensor_view<?xf32>
  %q = pto.partition_view %w, offsets = [%c0], sizes = [%c16] : !pto.tensor_view<?xf32> -> !pto.partition_tensor_view<16xf32>
  %t = pto.alloc_tile : ${T}
  scf.for %i = %c0 to %n step %c1 {
    %p = pto.partition_view %v, offsets = [%i, %c8], sizes = [%c1, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    pto.tload ins(%p : !pto.partition_tensor_view<1x16xf32>) outs(%t : ${T})
  }
  pto.tstore ins(%t : ${T}) outs(%q : !pto.partition_tensor_view<16xf32>)
  return
}
`;
  const m = parsePtoAs(src);
  const f = entryFunc(m)!;
  const s = inputShape(m, f);
  assert.equal(s.intValue, 16);
  assert.deepEqual(s.extents, { src: 15 * 40 + 8 + 16, dst: 16 });
  assert.equal(s.error, undefined);
  const args = corpusInputs(f, 1, s)!;
  assert.equal(args.n, 16);
  // at least 1024 elements each (GM_MIN_ELEMS): more than the views reach
  assert.equal((args.src as NpyArray).shape[0], 1024);
  const r = runProgram(m, args);
  assert.equal(r.instructions, 17);
  // the stored row is the last loaded one: row 15, columns 8..23 of the padded [16, 40] source
  const got = Array.from((args.dst as { data: Float32Array }).data.subarray(0, 16));
  const want = Array.from((args.src as { data: Float32Array }).data.subarray(15 * 40 + 8, 15 * 40 + 24));
  assert.deepEqual(got, want);
});

test('inputShape: when no value walks cleanly, the one that gets furthest', () => {
  // every candidate ends in BadInput: n = 0, 1 at the 2-element partition of an n-element view;
  // n = 2 loads (valid 1x32) and then fails the second alloc (valid 1x33); n >= 4 fails the first
  // alloc (valid 1x34 and more) before any load. n = 2 is the one that reaches a tile instruction.
  const T = '!pto.tile_buf<vec, 1x32xf32, valid=1x?>';
  const src = `func.func @k(%src: !pto.ptr<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c30 = arith.constant 30 : index
  %c31 = arith.constant 31 : index
  %v = pto.make_tensor_view %src, shape = [%n], strides = [%c1] : !pto.tensor_view<?xf32>
  %p = pto.partition_view %v, offsets = [%c0], sizes = [%c2] : !pto.tensor_view<?xf32> -> !pto.partition_tensor_view<2xf32>
  %vc = arith.addi %n, %c30 : index
  %t = pto.alloc_tile valid_col = %vc : ${T}
  pto.tload ins(%p : !pto.partition_tensor_view<2xf32>) outs(%t : ${T})
  %vc2 = arith.addi %n, %c31 : index
  %u = pto.alloc_tile valid_col = %vc2 : ${T}
  return
}
`;
  const m = parsePtoAs(src);
  const s = inputShape(m, entryFunc(m)!);
  assert.equal(s.intValue, 2);
  assert.equal(s.reached, 1);
  assert.match(s.error ?? '', /valid region 1x33 is outside the 1x32 tile/);
});
