/**
 * Replays every saved fuzz reproducer (test/fuzz-corpus/<front>/*.in) through its front end under
 * the fuzz budget: each must end normally or with a categorised AxsimError — never a raw throw, an
 * Internal error, or a run past the budget.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FRONTS, prepare, ROOT } from './fuzz/fronts.ts';
import { runOne } from './fuzz/worker.ts';

const dir = join(ROOT, 'test/fuzz-corpus');

test('every saved fuzz reproducer ends with a result or a categorised error', async () => {
  await prepare();
  let n = 0;
  for (const front of readdirSync(dir).sort()) {
    assert.ok(FRONTS[front], `test/fuzz-corpus/${front}: no such front end in test/fuzz/fronts.ts`);
    for (const f of readdirSync(join(dir, front)).sort()) {
      const r = await runOne(front, new Uint8Array(readFileSync(join(dir, front, f))));
      assert.ok(!['crash', 'Internal'].includes(r.outcome), `${front}/${f}: ${r.outcome} ${r.sig ?? ''}`);
      n++;
    }
  }
  assert.ok(n > 0, 'the corpus is not empty');
});
