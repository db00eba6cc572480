import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { compareWithRef, refEntry } from './ref.ts';
import { type AmxCArray, runAmxC, zeroArray } from './run.ts';

// compareWithRef (the playground's and `--ref`'s comparison) on a kernel of our own: an AMX copy of
// 16 floats against a plain loop (identical) and against a loop that adds 1 to element 5.

const SRC = [
  '#include <stdint.h>',
  '#include "aarch64.h"',
  'void copy(const float *a, float *b) { AMX_SET(); AMX_LDX((uint64_t)a); AMX_STX((uint64_t)b); AMX_CLR(); }',
  'void copy_ref(const float *a, float *b) { for (int i = 0; i < 16; i++) b[i] = a[i]; }',
  'void copy_bad(const float *a, float *b) { for (int i = 0; i < 16; i++) b[i] = a[i]; b[5] = a[5] + 1.0f; }',
].join('\n');

function args(): Record<string, AmxCArray> {
  const a = new Float32Array(16).map((_, i) => i + 0.5);
  return { a: { dtype: 'f4', shape: [16], bytes: new Uint8Array(a.buffer) }, b: zeroArray('f4', [16]) };
}

test('only the changed array is compared; an exact reference gives no differences', () => {
  const opts = { entry: 'copy(a, b)', args: args() };
  const k = runAmxC(SRC, opts);
  const d = compareWithRef(SRC, opts, k, 'copy_ref');
  assert.deepEqual(
    d.map((x) => [x.name, x.elements, x.differing]),
    [['b', 16, 0]],
  );
});

test('one element off by 1.0: differing 1, max abs 1, 2^21 ULPs (5.5 and 6.5 are in [4, 8), ULP 2^-21)', () => {
  const opts = { entry: 'copy(a, b)', args: args() };
  const k = runAmxC(SRC, opts);
  const [d] = compareWithRef(SRC, opts, k, 'copy_bad');
  assert.deepEqual([d!.name, d!.differing, d!.maxAbs, d!.maxUlp, d!.worstIndex], ['b', 1, 1, 2 ** 21, 5]);
});

test('refEntry keeps the arguments and checks the name', () => {
  assert.equal(refEntry('sgemm(64, 64, 16, A, B, C)', 'sgemm_ref'), 'sgemm_ref(64, 64, 16, A, B, C)');
  assert.throws(() => refEntry('f(a)', 'not a name'), AxsimError);
});
