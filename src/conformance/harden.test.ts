/** Issue 18: conformance input is validated, and the JSON Lines reader is linear in its input. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { makeSfpuRunner } from '../tensix/index.ts';
import { runConformance } from './harness.ts';
import { readJsonl } from './reader.ts';

const dir = mkdtempSync(join(tmpdir(), 'axsim-conf-'));

test('one 8 MB line in a gzip file is read in one linear pass, then the next line follows', async () => {
  // the old reader re-scanned the whole pending text for every 64 KiB chunk (27 s for 32 KB gzip)
  const big = `{"id":"big","pad":"${'a'.repeat(8 << 20)}"}`;
  const file = join(dir, 'long.jsonl.gz');
  writeFileSync(file, gzipSync(`${big}\n{"id":"next"}\n`));
  const recs: { line: number; id: unknown }[] = [];
  for await (const r of readJsonl(file)) recs.push({ line: r.line, id: (r.value as { id: unknown }).id });
  assert.deepEqual(recs, [
    { line: 1, id: 'big' },
    { line: 2, id: 'next' },
  ]);
});

test('lines split across chunks at every position still parse', async () => {
  const lines = Array.from({ length: 3000 }, (_, i) =>
    JSON.stringify({ id: `c${i}`, v: 'x'.repeat(i % 97) }),
  );
  const file = join(dir, 'many.jsonl');
  writeFileSync(file, `${lines.join('\r\n')}\n`);
  let n = 0;
  for await (const r of readJsonl(file)) assert.equal((r.value as { id: string }).id, `c${n++}`);
  assert.equal(n, 3000);
});

const LREG = Array.from({ length: 8 }, () => Array(32).fill(0));
const OK = { id: 'ok', arch: 'wh', words: ['0x8f000000'], in: { lreg: LREG }, out: { lreg: LREG } };

test('bad fields in a user vector file fail their case naming file:line and the field; the run goes on', async () => {
  const bad = [
    { ...OK, id: 'null-lreg-row', out: { lreg: [null, ...LREG.slice(1)] } },
    { ...OK, id: 'short-lreg', out: { lreg: LREG.slice(0, 3) } },
    { ...OK, id: 'string-cc', out: { cc: 'x' } },
    { ...OK, id: 'float-lane', out: { prng: [1.5] } },
    { ...OK, id: 'flag-stack', out: { flag_stack: [7] } },
    { ...OK, id: 'dst-row', out: { dst: { 99999: [1] } } },
    { ...OK, id: 'lm-null', out: { lm: null } },
  ];
  const file = join(dir, 'user.jsonl');
  writeFileSync(file, [OK, ...bad, OK].map((r) => JSON.stringify(r)).join('\n'));
  const report = await runConformance([file], makeSfpuRunner());
  assert.equal(report.passed, 2);
  assert.equal(report.failed, bad.length);
  const fails = report.cases.filter((c) => !c.pass);
  const want: [string, RegExp][] = [
    ['null-lreg-row', /out\.lreg\[0\] must be an array/],
    ['short-lreg', /out\.lreg must have 8 registers/],
    ['string-cc', /out\.cc must be an integer/],
    ['float-lane', /out\.prng must have 32 entries/],
    ['flag-stack', /out\.flag_stack\[0\] must be an array/],
    ['dst-row', /out\.dst row 99999 out of range/],
    ['lm-null', /out\.lm must be an object/],
  ];
  want.forEach(([id, re], k) => {
    assert.equal(fails[k]!.id, id);
    assert.equal(fails[k]!.line, k + 2);
    assert.equal(fails[k]!.file, file);
    assert.match(fails[k]!.diff!, /raised BadInput/);
    assert.match(fails[k]!.diff!, re, id);
  });
});

test('AMX, PTO and PTO-cost runners reject hostile fields with BadInput naming the field', async () => {
  const { makeAmxRunner } = await import('../amx/index.ts');
  const { makePtoRunner, registerCostRunner } = await import('../pto/index.ts');
  const { costCaseRunner } = await import('../pto/cost/index.ts');
  registerCostRunner(costCaseRunner);
  const amx = makeAmxRunner();
  const pto = makePtoRunner();
  const AMX = { id: 'a', gen: 'm1', op: 0, operand: '0x0', seed: '0x1', mem_base: '0x1000', changed: {} };
  const DST = {
    rows: 1,
    cols: 8,
    validRow: 1,
    validCol: 8,
    layout: 'RM',
    dtype: 'f32',
    data: '00'.repeat(32),
  };
  const cases: [(r: Record<string, unknown>) => unknown, Record<string, unknown>, RegExp][] = [
    [amx, { ...AMX, et: 'u8', ek: Number.POSITIVE_INFINITY }, /ek must be an integer/],
    [pto, { id: 'p', op: 7, tiles: { dst: DST }, status: 'ok' }, /instruction name must be a string/],
    [pto, { id: 'p', op: 'TADD', tiles: { dst: null }, status: 'ok' }, /dst must be an object/],
    [
      pto,
      { id: 'p', op: 'TADD', tiles: { dst: { ...DST, rows: 1.5 } }, status: 'ok' },
      /dst\.rows must be an integer/,
    ],
    [
      pto,
      {
        id: 'p',
        op: 'TADDS',
        tiles: { dst: DST, src: DST },
        scalars: { scalar: { dtype: 'f32', bits: 1.5 } },
        status: 'ok',
      },
      /scalar bits must be/,
    ],
    [
      pto,
      {
        arch: 'a2a3',
        model: 'cce_trace',
        op: 'TSUB',
        dtype: 'f32',
        rows: 1,
        cols: 8,
        validRow: 2 ** 32,
        validCol: 8,
        status: 'ok',
        cycles: 1,
      },
      /validRow must be an integer/,
    ],
    [
      pto,
      {
        arch: 'a2a3',
        model: 'cce_trace',
        op: 'TSUB',
        dtype: 'f32',
        rows: 1,
        cols: 8,
        validRow: 4,
        validCol: 8,
        status: 'ok',
        cycles: 1,
      },
      /exceeds rows x cols/,
    ],
  ];
  for (const [run, rec, re] of cases) {
    assert.throws(
      () => run(rec),
      (e: unknown) => (e as { category?: string }).category === 'BadInput' && re.test((e as Error).message),
      JSON.stringify(rec).slice(0, 80),
    );
  }
});
