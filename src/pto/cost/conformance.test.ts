import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readJsonl } from '../../conformance/index.ts';
import { requireConformanceFile } from '../../conformance/shared.ts';
import { AxsimError } from '../../errors.ts';
import { costCaseRunner, matchesPrinted6 } from './conformance.ts';

const file = requireConformanceFile('pto-cost.jsonl.gz');

async function runRows(pred: (r: Record<string, unknown>) => boolean) {
  let pass = 0;
  const failures: string[] = [];
  for await (const { line, value } of readJsonl(file.path!)) {
    const r = value as Record<string, unknown>;
    if (!pred(r)) continue;
    let ok = false;
    let diff = '';
    try {
      const o = costCaseRunner(r);
      ok = o.pass;
      diff = o.diff ?? '';
    } catch (e) {
      if (!(e instanceof AxsimError)) throw e;
      diff = `raised ${e.format()}`;
    }
    if (ok) pass++;
    else failures.push(`line ${line} ${String(r.op)} ${String(r.dtype)} ${String(r.shape ?? '')}: ${diff}`);
  }
  return { pass, failures };
}

test('every formula row of pto-cost.jsonl.gz (A2/A3 and A5) is reproduced', { skip: file.skip }, async () => {
  const { pass, failures } = await runRows((r) => r.model === 'formula');
  assert.deepEqual(failures.slice(0, 5), []);
  assert.ok(pass > 3000, `only ${pass} formula rows`);
});

test('every cce_trace row (ok: cycles, pendingVectorTail, intrinsic list; unsupported/crash: Unsupported) is reproduced', {
  skip: file.skip,
}, async () => {
  const { pass, failures } = await runRows((r) => r.model === 'cce_trace');
  assert.deepEqual(failures.slice(0, 5), []);
  assert.ok(pass > 3000, `only ${pass} cce_trace rows`);
});

test('printed-double comparison: 6 significant digits, either tie direction', () => {
  assert.ok(matchesPrinted6(28.9062, 28.90625));
  assert.ok(matchesPrinted6(40208, 40207.99));
  assert.ok(!matchesPrinted6(40208, 40206.9));
  assert.ok(matchesPrinted6(586.72, (32 / 100.9) * 1850));
});
