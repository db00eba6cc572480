// The PTOAS corpus runner's pieces on the project's own fixtures (no PTOAS file is stored here).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkCorpusFile, corpusFiles, expectation } from './ptoas.ts';

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
