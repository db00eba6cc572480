import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readJsonl } from '../conformance/index.ts';
import { requireConformanceFile } from '../conformance/shared.ts';
import { AxsimError } from '../errors.ts';
import { makePtoRunner, registerCostRunner } from './conformance.ts';
import { createTile, execute, OPS, readTile, Tile } from './index.ts';

// Every vector of shared/conformance/pto.jsonl.gz, with the acceptance conditions of issue 6:
// ok & !ub -> whole physical buffers byte for byte (alt_out accepted, NaN as any NaN);
// crash -> UndefinedBehaviour; compile_error -> Unsupported/BadInput naming op and dtype.
test('every vector in pto.jsonl.gz meets its acceptance condition on the cpu profile', async (t) => {
  const f = requireConformanceFile('pto.jsonl.gz');
  if (!f.path) {
    t.skip(f.skip);
    return;
  }
  const run = makePtoRunner({ profile: 'cpu' });
  const tally = { ok: 0, ub: 0, crash: 0, compile_error: 0 };
  const failures: string[] = [];
  const seen = new Set<string>();
  for await (const { value } of readJsonl(f.path)) {
    const rec = value as Record<string, unknown>;
    if (rec.status === 'ok') seen.add(String(rec.op));
    let res: { pass: boolean; diff?: string };
    try {
      res = run(rec);
    } catch (e) {
      if (!(e instanceof AxsimError)) throw e;
      res = { pass: false, diff: `raised ${e.format()}` };
    }
    const kind =
      rec.status === 'ok' ? (rec.ub === true ? 'ub' : 'ok') : (rec.status as 'crash' | 'compile_error');
    tally[kind]++;
    if (res.pass) continue;
    failures.push(`${String(rec.id)} [${kind}]: ${(res.diff ?? '').split('\n').slice(0, 3).join(' | ')}`);
  }
  if (failures.length) console.log(failures.slice(0, 20).join('\n'));
  assert.ok(tally.ok > 2000 && tally.crash > 10 && tally.compile_error > 400, JSON.stringify(tally));
  assert.deepEqual(failures, []);
  // every registered instruction is exercised by a vector, or by the unit tests named here
  const unitTested = new Set([
    ...['TMOV', 'TSYNC', 'RECORD_EVENT', 'WAIT_EVENT', 'BARRIER', 'TCOLEXPANDSUB'],
    // no vectors in the share: hand-worked cases in irregular.test.ts
    ...['TPARTADD', 'TPARTMAX', 'TPARTMIN', 'TCI', 'TGATHER', 'TGATHERB', 'TSCATTER'],
    ...['TFILLPAD', 'TFILLPAD_EXPAND', 'TEXTRACT', 'TGEMV', 'TGEMV_ACC', 'TGEMV_BIAS'],
    ...['TMATMUL_MX', 'TMATMUL_MX_ACC', 'TMATMUL_MX_BIAS', 'TSTORE_FP', 'TMOV_FP'],
    // session 3 (no vectors either): sort.test.ts, mgather.test.ts, argreduce.test.ts,
    // rearrange.test.ts, insert.test.ts
    ...['TSORT32', 'TMRGSORT', 'MGATHER', 'MSCATTER', 'TROWARGMAX', 'TROWARGMIN', 'TCOLARGMAX'],
    ...['TCOLARGMIN', 'TCONCAT', 'TINTERLEAVE', 'TDEINTERLEAVE', 'TTRI', 'TPARTMUL', 'TINSERT'],
    ...['TEXTRACT_FP', 'TINSERT_FP', 'TFILLPAD_INPLACE'],
    // misc-ops.test.ts
    ...['TPARTARGMAX', 'TPARTARGMIN', 'TPAIRREDUCESUM', 'THISTOGRAM', 'TPREFETCH'],
    // quant.test.ts
    ...['TQUANT', 'TDEQUANT', 'TGEMV_MX', 'TGEMV_MX_ACC', 'TGEMV_MX_BIAS'],
    // fusedrelu.test.ts
    ...['TFUSEDMULADDRELU', 'TADDRELUCONV', 'TSUBRELUCONV', 'TADDDEQRELU', 'TRANDOM'],
    ...['TRESHAPE', 'SYNCALL', 'TIMG2COL', 'TSUBVIEW', 'TPREFETCH_ASYNC'],
  ]);
  const untested = [...OPS.keys()].filter((n) => !seen.has(n) && !unitTested.has(n));
  assert.deepEqual(untested, []);
});

// TSEL consumes its mask as one bit stream over dst's valid region (PTO-NOTES "TSEL"); with a
// one-byte-wide mask the stream runs past the mask's last row. By default that is undefined
// behaviour; the conformance runner reads zero bytes there, as the reference harness did.
test('TSEL mask streams past the mask buffer: UndefinedBehaviour, or zero bytes on request', () => {
  const dst = new Tile({ dtype: 'u8', rows: 2, cols: 32, validRow: 2, validCol: 12 });
  const mask = new Tile({ dtype: 'u8', rows: 1, cols: 32, validRow: 1, validCol: 1 });
  mask.bytes[0] = 0b1010_0101;
  const src0 = new Tile({ dtype: 'u8', rows: 2, cols: 32 }, new Uint8Array(64).fill(0x11));
  const src1 = new Tile({ dtype: 'u8', rows: 2, cols: 32 }, new Uint8Array(64).fill(0x22));
  assert.throws(
    () => execute('TSEL', { dst, mask, src0, src1 }),
    (e: unknown) => e instanceof AxsimError && e.category === 'UndefinedBehaviour',
  );
  execute('TSEL', { dst, mask, src0, src1 }, {}, { outOfBoundsReads: 'zero' });
  // bits 0..7 of mask byte (0,0) = 1,0,1,0,0,1,0,1 for dst (0,0..7); the next mask row (outside
  // the buffer) reads 0, so everything after takes src1
  const want = [0x11, 0x22, 0x11, 0x22, 0x22, 0x11, 0x22, 0x11, 0x22, 0x22, 0x22, 0x22];
  assert.deepEqual([...dst.bytes.subarray(0, 12)], want);
  assert.deepEqual([...dst.bytes.subarray(32, 44)], new Array(12).fill(0x22));
});

test('cost-model records are skipped, or handed to the registered cost runner', () => {
  const run = makePtoRunner();
  const rec = { model: 'formula', op: 'TADD', arch: 'a2a3' };
  assert.ok(run(rec).skip);
  registerCostRunner((r) => ({ pass: r.op === 'TADD' }));
  try {
    assert.deepEqual(run(rec), { pass: true });
  } finally {
    registerCostRunner(undefined);
  }
});

test('TCOLEXPANDSUB and the tile-tile form of TCMPS', () => {
  const s0 = createTile(
    { dtype: 'i16', rows: 2, cols: 16 },
    Array.from({ length: 32 }, (_, i) => i),
  );
  const s1 = createTile(
    { dtype: 'i16', rows: 1, cols: 16 },
    Array.from({ length: 16 }, (_, i) => 100 * i),
  );
  const d = createTile({ dtype: 'i16', rows: 2, cols: 16, validRow: 2, validCol: 3 });
  execute('TCOLEXPANDSUB', { dst: d, src0: s0, src1: s1 });
  // dst[r, c] = src0[r, c] - src1[0, c] over dst's valid 2x3
  assert.deepEqual(readTile(d, { valid: true }), [
    [0, 1 - 100, 2 - 200],
    [16, 17 - 100, 18 - 200],
  ]);
  // TCMPS(dst, src0, src1 tile): LT bits of row 0 packed LSB first; Cols(src)/8 = 2 bytes per row
  const a = createTile(
    { dtype: 'f32', rows: 1, cols: 16 },
    Array.from({ length: 16 }, (_, i) => i),
  );
  const b = createTile({ dtype: 'f32', rows: 1, cols: 16 }, new Array(16).fill(5));
  const m = new Tile({ dtype: 'u8', rows: 1, cols: 32, validRow: 1, validCol: 2 });
  execute('TCMPS', { dst: m, src0: a, src1: b }, { cmpMode: 'LT' });
  assert.deepEqual([...m.bytes.subarray(0, 3)], [0b00011111, 0, 0]);
});
