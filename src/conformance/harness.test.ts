import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { AxsimError, badInput } from '../errors.ts';
import { formatReport, readJsonl, reportJson, runConformance } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'axsim-conf-'));
function gz(name: string, lines: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, gzipSync(Buffer.from(lines.join('\n'))));
  return p;
}

// A toy runner: a case passes when a + b === sum.
const run = (r: Record<string, unknown>) => {
  if (r.kind === 'other') return { pass: false, skip: 'not mine' };
  if (r.kind === 'bad') throw badInput('bad case');
  const ok = (r.a as number) + (r.b as number) === r.sum;
  return ok
    ? { pass: true }
    : { pass: false, diff: `sum: expected ${r.sum}, got ${(r.a as number) + (r.b as number)}` };
};

test('streams gzip JSON lines and tallies pass/fail/skip', async () => {
  const f = gz('a.jsonl.gz', [
    '{"id":"c1","a":1,"b":2,"sum":3}',
    '',
    '{"id":"c2","a":1,"b":2,"sum":4}',
    '{"id":"c3","kind":"other"}',
    '{"id":"c4","kind":"bad"}',
  ]);
  const rep = await runConformance([f], run);
  assert.equal(rep.passed, 1);
  assert.equal(rep.failed, 2);
  assert.equal(rep.skipped, 1);
  const text = formatReport(rep);
  assert.match(text, /FAIL c2 .*a\.jsonl\.gz:3\)\n {2}sum: expected 4, got 3/);
  assert.match(text, /FAIL c4[^\n]*\n {2}raised BadInput: bad case/);
  assert.equal(text.split('\n').at(-1), '1 passed, 2 failed, 1 skipped');
  const doc = JSON.parse(reportJson(rep));
  assert.deepEqual(
    doc.cases.map((c: { id: string; pass: boolean }) => [c.id, c.pass]),
    [
      ['c1', true],
      ['c2', false],
      ['c4', false],
    ],
  );
});

test('filter and limit', async () => {
  const f = gz('b.jsonl.gz', [
    '{"id":"x1","a":1,"b":1,"sum":2}',
    '{"id":"y1","a":1,"b":1,"sum":2}',
    '{"id":"x2","a":0,"b":0,"sum":0}',
  ]);
  assert.equal((await runConformance([f], run, { filter: 'x' })).passed, 2);
  assert.equal((await runConformance([f], run, { limit: 1 })).passed, 1);
});

test('a malformed line is a BadInput naming file:line', async () => {
  const f = gz('c.jsonl.gz', ['{"id":"ok","a":0,"b":0,"sum":0}', '{not json']);
  await assert.rejects(
    async () => {
      for await (const _ of readJsonl(f)) {
        /* drain */
      }
    },
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput' && e.location?.line === 2,
  );
});

test('a truncated gzip file is a BadInput', async () => {
  const full = gzipSync(Buffer.from('{"id":"a"}\n'.repeat(2000)));
  const p = join(dir, 'trunc.jsonl.gz');
  writeFileSync(p, full.subarray(0, full.length >> 1));
  await assert.rejects(
    async () => {
      for await (const _ of readJsonl(p)) {
        /* drain */
      }
    },
    (e: unknown) =>
      e instanceof AxsimError && e.category === 'BadInput' && /truncated|unexpected end/i.test(e.format()),
  );
});

test('a missing file is a BadInput', async () => {
  await assert.rejects(
    async () => {
      for await (const _ of readJsonl(join(dir, 'nope.jsonl'))) {
        /* drain */
      }
    },
    (e: unknown) => e instanceof AxsimError && e.category === 'BadInput',
  );
});
