import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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
