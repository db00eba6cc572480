import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNpy } from '../../src/io/index.ts';
import { f32ToBits } from '../../src/numeric/index.ts';
import { assemble } from '../../src/tensix/asm/index.ts';
import { runTimedProgram, sourceMapOf, TensixMachine } from '../../src/tensix/index.ts';
import {
  chooseExample,
  pageForFile,
  ROOT,
  readText,
  settled,
  shot,
  shownLregs,
  thrown,
  typeSource,
  underline,
  values,
} from './harness.ts';

// The Tensix views in Chromium show the library's results: every number read from the page is
// compared with TensixMachine / runTimedProgram run here on the same program and input.

const s = pageForFile();

const TILE = Uint32Array.from(readNpy(`${ROOT}examples/tensix/tile.npy`).data as Float32Array, (x) =>
  f32ToBits(x),
);

/** The library's machine with the playground's tile.npy input, after `k` steps (or the whole run). */
function machine(src: string, arch: 'wormhole' | 'blackhole' = 'wormhole', k?: number): TensixMachine {
  const m = new TensixMachine(arch);
  m.writeDstTile(0, TILE, 'fp32');
  m.configure({ sfpuFp32: true, srcBFormat: 5 });
  const p = m.load(src);
  if (k === undefined) m.run(p);
  else m.step(p, 0, k);
  return m;
}

function libraryLregs(m: TensixMachine): number[] {
  return Array.from({ length: 8 }, (_, r) => Array.from(m.lreg(r))).flat();
}

async function shownDst(): Promise<number[]> {
  return values(await s.page.getAttribute('#dst-grid canvas', 'data-raw')).map(Number);
}

async function tab(id: string): Promise<void> {
  await s.page.click(`[data-testid=tab-${id}]`);
}

async function stepTo(k: number): Promise<void> {
  await s.page.fill('[data-testid=step]', String(k));
  await s.page.press('[data-testid=step]', 'Enter');
  await s.page.waitForSelector(`[data-step="${k}"]`);
}

test('relu.sfpu (the default example): LRegs and the Dst tile are the library result, and relu of the input', async () => {
  const src = readText('examples/tensix/relu.sfpu');
  assert.equal(await s.page.textContent('.cm-content'), src.replace(/\n/g, ''));
  const m = machine(src);
  assert.deepEqual(await shownLregs(s.page), libraryLregs(m));
  await shot(s.page, 'tensix-lanes');
  await tab('dst');
  const dst = await shownDst();
  assert.deepEqual(dst, Array.from(m.readDstRows(0, 1024, 'fp32')));
  // and independently: max(x, 0) as the example computes it (docs/tensix.md, SFPSTORE.md): lanes
  // with the sign bit set (-0 and negative NaNs too) become +0, and the FP32 store flushes denormals
  const want = Array.from(TILE, (b) => (b >>> 31 || (b & 0x7f800000) === 0 ? 0 : b));
  const tileShown = new TensixMachine('wormhole');
  tileShown.writeDstRows(0, dst, 'fp32');
  assert.deepEqual(Array.from(tileShown.readDstTile(0, 'fp32')), want);
  await shot(s.page, 'tensix-dst');
  // another tile of Dst: rows 64..127 (untouched by relu.sfpu: still the zeros of reset)
  let n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.selectOption('[data-testid=dst-tile]', '1');
  await settled(s.page, ++n);
  assert.deepEqual(await shownDst(), Array.from(m.readDstRows(64, 1024, 'fp32')));
  assert.match((await s.page.textContent('#dst-grid figcaption')) ?? '', /Dst tile 1 .*rows 64–127/);
  await s.page.selectOption('[data-testid=dst-tile]', '0');
  await settled(s.page, ++n);
});

test('int_scale_add.sfpu on the int32 ramp: Dst is the library result and (x << 1) + 5, shown as integers', async () => {
  await chooseExample(s.page, 'tensix/int_scale_add.sfpu');
  assert.equal(await s.page.inputValue('[data-testid=input]'), 'ramp-int32');
  const m = new TensixMachine('wormhole');
  const input = Uint32Array.from({ length: 1024 }, (_, i) => (i - 512) >>> 0);
  m.writeDstTile(0, input, 'int32');
  m.configure({ sfpuFp32: true, srcBFormat: 5 });
  m.run(m.load(readText('examples/tensix/int_scale_add.sfpu')));
  await tab('dst');
  assert.ok(await s.page.isChecked('[data-testid=dst-fmt-int]'));
  const dst = await shownDst();
  assert.deepEqual(dst, Array.from(m.readDstRows(0, 1024, 'int32')));
  const tile = new TensixMachine('wormhole');
  tile.writeDstRows(0, dst, 'int32');
  assert.deepEqual(
    Array.from(tile.readDstTile(0, 'int32')),
    Array.from(input, (x) => (((x | 0) * 2 + 5) | 0) >>> 0),
  );
  // the text shown is the signed integer
  const text = values(await s.page.getAttribute('#dst-grid canvas', 'data-values'));
  assert.deepEqual(
    text.map(Number),
    dst.map((b) => b | 0),
  );
  await chooseExample(s.page, 'tensix/relu.sfpu');
  await tab('lregs');
});

test('step back and forward: each step shows the library state after that many instructions', async () => {
  const src = readText('examples/tensix/relu.sfpu');
  await tab('lregs');
  await s.page.click('[data-testid=step-first]');
  await s.page.waitForSelector('[data-step="0"]');
  assert.deepEqual(await shownLregs(s.page), libraryLregs(machine(src, 'wormhole', 0)));
  for (const k of [1, 2, 3]) {
    await s.page.click('[data-testid=step-forward]');
    await s.page.waitForSelector(`[data-step="${k}"]`);
    assert.deepEqual(await shownLregs(s.page), libraryLregs(machine(src, 'wormhole', k)), `step ${k}`);
  }
  await s.page.click('[data-testid=step-back]');
  await s.page.waitForSelector('[data-step="2"]');
  assert.deepEqual(await shownLregs(s.page), libraryLregs(machine(src, 'wormhole', 2)));
  // step 2 is the first SFPLOAD: Dst rows 0..3 read, lane enables shown from the flags (SFPENCC on)
  await tab('dst');
  assert.equal(await s.page.getAttribute('#dst-grid canvas', 'data-highlight-rows'), '0 1 2 3');
  assert.match((await s.page.textContent('[data-testid=dst-touched]')) ?? '', /rows 0–3 read/);
  // the editor marks the source line of the instruction
  assert.equal(
    await s.page.textContent('.cm-stepLine'),
    'TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);',
  );
  // a later step: the store of the fifth row group (RWC advanced by INCRWC)
  // (records: SFPENCC, then per row group LOAD SETCC LOADI ENCC STORE INCRWC; group 5's STORE is
  // record 1 + 6 * 5 + 4, so step 36; the Dst RWC is 2 * 5 = 10, rows 8..11)
  await stepTo(36);
  const m = machine(src, 'wormhole', 36);
  assert.deepEqual(await shownDst(), Array.from(m.readDstRows(0, 1024, 'fp32')));
  assert.equal(await s.page.getAttribute('#dst-grid canvas', 'data-highlight-rows'), '8 9 10 11');
  await tab('diff');
  await s.page.waitForSelector('[data-testid=diff-count]');
  await shot(s.page, 'tensix-diff');
});

test('the diff of two steps lists exactly the state the library changed between them', async () => {
  const src = readText('examples/tensix/relu.sfpu');
  await tab('diff');
  // the default pair (fetched when the tab opens) first, so it cannot arrive after the one set here
  await s.page.waitForFunction(() =>
    [...document.querySelectorAll('table.diff thead th')].slice(1).every((t) => t.textContent !== 'step -'),
  );
  await s.page.fill('[data-testid=diff-a]', '2');
  await s.page.press('[data-testid=diff-a]', 'Enter');
  await s.page.waitForSelector('table.diff th:has-text("step 2")');
  // typed, not yet committed: the page redraws meanwhile (a step, Alt+→, whose reply arrives while
  // the field has the focus) and Enter still commits what was typed (the field keeps its draft)
  const shownStep = Number(await s.page.inputValue('[data-testid=step]'));
  await s.page.fill('[data-testid=diff-b]', '6');
  await s.page.keyboard.press('Alt+ArrowLeft');
  await s.page.waitForFunction(
    (k) => (document.querySelector('[data-testid=step]') as HTMLInputElement).value === String(k),
    shownStep - 1,
  );
  assert.equal(await s.page.inputValue('[data-testid=diff-b]'), '6');
  await s.page.press('[data-testid=diff-b]', 'Enter');
  await s.page.waitForSelector('table.diff th:has-text("step 6")');
  const a = machine(src, 'wormhole', 2);
  const b = machine(src, 'wormhole', 6);
  const want: string[] = [];
  for (let r = 0; r < 8; r++)
    for (let l = 0; l < 32; l++) if (a.lreg(r)[l] !== b.lreg(r)[l]) want.push(`L${r} lane ${l}`);
  if (a.state.laneFlags !== b.state.laneFlags) want.push('LaneFlags');
  if (a.state.rwcDst !== b.state.rwcDst) want.push('RWC Dst');
  const da = a.readDstRows(0, 1024, 'fp32');
  const db = b.readDstRows(0, 1024, 'fp32');
  for (let i = 0; i < 1024; i++) if (da[i] !== db[i]) want.push(`Dst row ${i >> 4} col ${i & 15}`);
  const shown = await s.page.$$eval('table.diff tbody tr', (rows) =>
    rows.map((r) => r.getAttribute('data-what')),
  );
  assert.ok(want.length > 0);
  assert.deepEqual(shown.sort(), want.sort());
});

test('timeline: cycles, busy counts and cells with their source lines are the cycle model’s', async () => {
  await chooseExample(s.page, 'tensix/bh_recip_fast_7b.sfpu');
  const src = readText('examples/tensix/bh_recip_fast_7b.sfpu');
  const m = new TensixMachine('blackhole');
  m.writeDstTile(0, TILE, 'fp32');
  m.configure({ sfpuFp32: true, srcBFormat: 5 });
  const asm = assemble(src, 'blackhole', { file: 'bh_recip_fast_7b.sfpu' });
  const r = runTimedProgram(m, asm.words, { timeline: true, hazards: 'warn', sources: sourceMapOf(asm) });
  await tab('timeline');
  assert.equal(Number(await s.page.getAttribute('#view-timeline svg[data-cycles]', 'data-cycles')), r.cycles);
  const cells = await s.page.$$eval('.tl-cell', (els) =>
    els.map(
      (e) => `${e.getAttribute('data-cycle')}|${e.getAttribute('data-unit')}|${e.getAttribute('data-line')}`,
    ),
  );
  assert.deepEqual(
    cells,
    r.timeline!.map((e) => `${e.cycle}|${e.unit}|${e.loc?.line ?? 0}`),
  );
  const summary = (await s.page.textContent('[data-testid=timeline-summary]')) ?? '';
  assert.match(summary, new RegExp(`${r.cycles} cycles`));
  assert.match(summary, new RegExp(`Simple ${r.busy.simple}\\b`));
  // SFPLOADMACRO runs on the cycle model: the Dst shown is the timed run's
  await tab('dst');
  assert.deepEqual(await shownDst(), Array.from(m.readDstRows(0, 1024, 'fp32')));
  // keyboard: the timeline's cursor moves with the arrows and Enter marks the cell's source line
  await tab('timeline');
  await s.page.focus('#tl-scroll');
  for (let i = 0; i < 8; i++) await s.page.keyboard.press('ArrowDown');
  await s.page.keyboard.press('Enter');
  const cell8 = r.timeline!.find((e) => e.cycle === 8 && e.unit === 'load')!; // the cursor starts on Load
  assert.match((await s.page.textContent('#tl-readout')) ?? '', new RegExp(`line ${cell8.loc!.line}`));
  assert.equal(await s.page.textContent('.cm-stepLine'), src.split('\n')[cell8.loc!.line! - 1]!);
  await shot(s.page, 'tensix-timeline');
});

test('a hazard is marked in the timeline and explained, as the cycle model reports it', async () => {
  // Wormhole: SFPMAD's result is read on the next cycle (no stall on Wormhole): early-read
  const src = 'TTI_SFPMAD(0, 0, 0, 1, 0);\nTTI_SFPABS(0, 1, 2, 1);\n';
  const n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.selectOption('[data-testid=arch]', 'wormhole');
  await settled(s.page, n + 1);
  await typeSource(s.page, src);
  const m = new TensixMachine('wormhole');
  const asm = assemble(src, 'wormhole');
  const r = runTimedProgram(m, asm.words, { timeline: true, hazards: 'warn', sources: sourceMapOf(asm) });
  assert.ok(r.hazards.length > 0);
  await tab('timeline');
  const shown = await s.page.$$eval('[data-testid=hazard]', (els) => els.map((e) => e.textContent ?? ''));
  assert.equal(shown.length, r.hazards.length);
  for (const [i, h] of r.hazards.entries()) {
    assert.ok(shown[i]!.includes(h.id) && shown[i]!.includes(h.message), shown[i]);
    assert.ok(shown[i]!.includes(`line ${h.location!.line}`));
  }
  const marked = await s.page.$$eval('.tl-cell.hazard', (els) =>
    els.map((e) => e.getAttribute('data-hazard')),
  );
  assert.ok(marked.includes(r.hazards[0]!.id));
  await shot(s.page, 'tensix-hazard');
});

test('an error is underlined at its line:col with the library’s message and hint', async () => {
  const good = readText('examples/tensix/relu.sfpu');
  const lines = good.split('\n');
  lines[9] = 'TTI_SFPFROB(p_sfpu::LREG0, 1);';
  const bad = lines.join('\n');
  const err = thrown(() => assemble(bad, 'wormhole', { file: 'relu.sfpu' }));
  assert.equal(err.location?.line, 10);
  await typeSource(s.page, bad);
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'error');
  assert.equal(await s.page.textContent('[data-testid=error-message]'), err.message);
  assert.equal(await s.page.textContent('[data-testid=error-category]'), err.category);
  // the underline: a lint range on line 10 from the error's column
  const { range, line, col } = await underline(s.page);
  assert.equal(line, lines[9]);
  assert.equal(col, err.location!.col ?? 1);
  await range.hover();
  const tip = await s.page.locator('.cm-tooltip-lint').textContent();
  assert.ok(tip?.includes(err.message), tip ?? '');
  if (err.hint) assert.ok(tip?.includes(err.hint));
  await shot(s.page, 'tensix-error', 'page');
});
