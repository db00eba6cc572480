import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNpy } from '../../src/io/index.ts';
import { COST_MODELS, costFunction } from '../../src/pto/cost/index.ts';
import { costProgram } from '../../src/pto/cost/program.ts';
import type { asm } from '../../src/pto/public.ts';
import { PtoMachine, readTile } from '../../src/pto/public.ts';
import {
  chooseExample,
  pageForFile,
  ROOT,
  readText,
  shot,
  thrown,
  typeSource,
  underline,
  values,
} from './harness.ts';

// The PTO views in Chromium show the library's results: arrays, tiles, the trace and the costs read
// from the page are compared with PtoMachine / costProgram run here on the same program and inputs.

const s = pageForFile('pto/add.pto');

const npy = (f: string) => readNpy(`${ROOT}examples/pto/${f}`);

function run(file: string, args: Record<string, string>, scalars: Record<string, number> = {}) {
  const m = new PtoMachine('cpu');
  for (const [k, v] of Object.entries(args)) {
    const z = /^zeros:(\d+)x(\d+)$/.exec(v);
    m.write(
      k,
      z
        ? {
            dtype: 'f4',
            shape: [Number(z[1]), Number(z[2])],
            data: new Float32Array(Number(z[1]) * Number(z[2])),
          }
        : npy(v),
    );
  }
  const events: asm.TraceEvent[] = [];
  const module = m.load(readText(`examples/pto/${file}`), { file });
  const r = m.run(module, { scalars, trace: (e) => events.push(e) });
  return { m, r, events, module };
}

async function raw(id: string): Promise<number[]> {
  return values(await s.page.getAttribute(`#${id} canvas`, 'data-raw')).map(Number);
}

test('add.pto: the stored array and the tiles are the library result, and C = A + B', async () => {
  const { m, r } = run('add.pto', { a: 'A16x64.npy', b: 'B16x64.npy', c: 'zeros:16x64' });
  const c = await raw('array-c');
  assert.deepEqual(c, Array.from(m.read('c').data as Float32Array));
  const a = npy('A16x64.npy').data as Float32Array;
  const b = npy('B16x64.npy').data as Float32Array;
  assert.deepEqual(
    c,
    Array.from(a, (x, i) => Math.fround(x + b[i]!)),
  );
  for (const [name, t] of Object.entries(r.values))
    assert.deepEqual(await raw(`tile-${name}`), readTile(t).flat().map(Number));
  assert.match(
    (await s.page.textContent('[data-testid=pto-summary]')) ?? '',
    new RegExp(`^${r.instructions} tile instructions`),
  );
  await shot(s.page, 'pto-tiles');
});

test('trace: one row per executed tile instruction, with the outputs the runner traced', async () => {
  const { events } = run('add.pto', { a: 'A16x64.npy', b: 'B16x64.npy', c: 'zeros:16x64' });
  await s.page.click('[data-testid=tab-trace]');
  const rows = await s.page.$$eval('table.trace tbody tr', (els) =>
    els.map((e) => e.getAttribute('data-insn')),
  );
  assert.deepEqual(
    rows,
    events.map((e) => e.insn),
  );
  // select the TADD row: its output tile is the library's
  const k = events.findIndex((e) => e.insn === 'TADD');
  await s.page.click(`table.trace tbody tr:nth-child(${k + 1}) button`);
  await s.page.waitForSelector(`table.trace tbody tr:nth-child(${k + 1}).selected`);
  assert.deepEqual(await raw('trace-out-0'), readTile(events[k]!.outputs[0]!.tile!).flat().map(Number));
  assert.equal(
    await s.page.textContent('.cm-stepLine'),
    readText('examples/pto/add.pto').split('\n')[events[k]!.line - 1],
  );
  await shot(s.page, 'pto-trace');
});

test('cost: per-op cycles and totals of every model are costProgram’s; uncovered ops are marked', async () => {
  const { module } = run('add.pto', { a: 'A16x64.npy', b: 'B16x64.npy', c: 'zeros:16x64' });
  await s.page.click('[data-testid=tab-cost]');
  let uncovered = 0;
  for (const model of COST_MODELS) {
    const c = costProgram(module, model, 'a2a3', costFunction(model, 'a2a3'), { file: 'add.pto' });
    assert.equal(
      await s.page.getAttribute(`ul.totals li[data-model="${model}"]`, 'data-total'),
      String(c.total),
    );
    for (const row of c.instructions) {
      const shown = await s.page.getAttribute(
        `g[data-op="${row.line}:${row.col}"] g[data-model="${model}"]`,
        'data-cycles',
      );
      assert.equal(shown, row.cycles === null ? '' : String(row.cycles), `${model} ${row.op}`);
      if (row.cycles === null) uncovered++;
    }
  }
  // the seed model prices only the binary elementwise family: TLOAD/TSTORE are marked uncovered
  assert.ok(uncovered > 0);
  assert.equal(await s.page.locator('rect.uncovered').count(), uncovered);
  await shot(s.page, 'pto-cost');
});

test('a scalar argument and a valid region: dynamic-valid.pto and add-scalar.pto', async () => {
  await chooseExample(s.page, 'pto/add-scalar.pto');
  const { m } = run('add-scalar.pto', { a: 'A16x16.npy', c: 'zeros:16x16' }, { s: 2.5 });
  await s.page.click('[data-testid=tab-tiles]');
  assert.deepEqual(await raw('array-c'), Array.from(m.read('c').data as Float32Array));
  await chooseExample(s.page, 'pto/dynamic-valid.pto');
  const d = run('dynamic-valid.pto', { x: 'X2x32.npy', y: 'zeros:2x32' });
  assert.deepEqual(await raw('array-y'), Array.from(d.m.read('y').data as Float32Array));
  // every tile's figure names its valid region as the library's tile has it
  for (const [name, t] of Object.entries(d.r.values)) {
    const caption = await s.page.textContent(`#tile-${name} figcaption`);
    assert.ok(caption?.includes(`valid ${t.validRow}x${t.validCol}`), caption ?? '');
  }
});

test('a PTO-AS error is underlined at its line:col with the verifier’s message', async () => {
  const lines = readText('examples/pto/add-scalar.pto').split('\n');
  const at = lines.findIndex((l) => l.includes('pto.tadds'));
  lines[at] = lines[at]!.replace('pto.tadds', 'pto.taddz');
  const bad = lines.join('\n');
  const err = thrown(() => new PtoMachine('cpu').load(bad, { file: 'add-scalar.pto' }));
  assert.equal(err.location?.line, at + 1);
  await typeSource(s.page, bad);
  assert.equal(await s.page.textContent('[data-testid=error-message]'), err.message);
  assert.equal((await underline(s.page)).line, lines[at]);
});
