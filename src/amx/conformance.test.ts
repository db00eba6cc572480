import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReport, runConformance } from '../conformance/index.ts';
import { requireConformanceFile } from '../conformance/shared.ts';
import { buildImage, runAmxCase, SplitMix64 } from './conformance.ts';
import { fnv1a64 } from './state.ts';

// Worked examples of AMX-FORMAT.md §3.5: splitmix64 outputs and image checksums.
test('state generator reproduces the worked examples of AMX-FORMAT.md', () => {
  const r = new SplitMix64(0x0123456789abcdefn);
  assert.equal(r.nextBig(), 0x157a3807a48faa9dn);
  assert.equal(r.nextBig(), 0xd573529b34a1d093n);
  assert.equal(r.nextBig(), 0x2f90b72e996dccben);
  const r42 = new SplitMix64(42n);
  assert.equal(r42.nextBig(), 0xbdd732262feb6e95n);
  assert.equal(fnv1a64(buildImage(0x0123456789abcdefn, 'none', 0)), 0xa3ce97b9a9303242n);
  assert.equal(fnv1a64(buildImage(0x0123456789abcdefn, 'f16', 2)), 0xd7c319cb99626470n);
  assert.equal(fnv1a64(buildImage(42n, 'f32', 1)), 0x9c2e454410439984n);
  assert.equal(fnv1a64(buildImage(7n, 'u8', 3)), 0xd49de2566c2313b2n);
  const img = buildImage(0x0123456789abcdefn, 'f16', 2);
  assert.equal(img[12], 0xff);
  assert.equal(img[13], 0xc5);
});

test('every vector in amx.jsonl.gz passes bit-exactly', async (t) => {
  const f = requireConformanceFile('amx.jsonl.gz');
  if (!f.path) {
    t.skip(f.skip);
    return;
  }
  const report = await runConformance([f.path], runAmxCase, { keepPassing: 0 });
  if (report.failed > 0) console.log(formatReport(report, 5));
  assert.ok(report.passed > 5000, `only ${report.passed} cases ran`);
  assert.equal(report.failed, 0);
});
