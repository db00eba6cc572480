import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AmxMachine, amxFootprint } from '../../src/amx/index.ts';
import { explainProgramCycles } from '../../src/amx/perf/index.ts';
import { pageForFile, readText, shot, thrown, typeSource, underline, values } from './harness.ts';

// The AMX views in Chromium show the library's results: registers, memory and cycles read from
// the page are compared with AmxMachine / explainProgramCycles run here on the same program.

const s = pageForFile('amx/matmul_f32.amx');

const SRC = () => readText('examples/amx/matmul_f32.amx');

function machine(k?: number): AmxMachine {
  const m = new AmxMachine('m1');
  const p = m.load(SRC(), { file: 'matmul_f32.amx' });
  if (k === undefined) m.run(p);
  else m.step(p, 0, k);
  return m;
}

async function shownBytes(id: string): Promise<number[]> {
  return values(await s.page.getAttribute(`#${id} canvas`, 'data-raw')).map(Number);
}

test('matmul_f32.amx: X, Y, Z and the C memory range are the library result; C is A·B', async () => {
  const m = machine();
  assert.deepEqual(await shownBytes('amx-x'), Array.from(m.readRegister('x')));
  assert.deepEqual(await shownBytes('amx-y'), Array.from(m.readRegister('y')));
  assert.deepEqual(await shownBytes('amx-z'), Array.from(m.readRegister('z')));
  // the f32 text the Z grid shows for Z row 0 is the library's Z row 0 read as f32
  const z = new Float32Array(m.readRegister('z').buffer);
  const zText = values(await s.page.getAttribute('#amx-z canvas', 'data-values'));
  assert.equal(zText.length, 64 * 16);
  for (let i = 0; i < 16; i++) assert.equal(Number(zText[i]), z[i]);
  await shot(s.page, 'amx-registers');
  await s.page.click('[data-testid=tab-memory]');
  const c = await shownBytes('amx-mem-30000');
  assert.deepEqual(c, Array.from(m.readMemory(0x30000, 4096)));
  // independently: C[r][c] = sum_k a[k][r] b[k][c] with the example's data (its header comment)
  const cf = new Float32Array(Uint8Array.from(c).buffer);
  const a = (k: number, r: number) => ((32 * k + r) % 13) - 6;
  const b = (k: number, col: number) => (((32 * k + col) % 11) - 5) / 8;
  for (const [r, col] of [
    [0, 0],
    [5, 17],
    [31, 31],
    [16, 3],
  ] as const) {
    let want = 0;
    for (let k = 0; k < 4; k++) want += (a(k, r) / 8) * b(k, col);
    assert.equal(cf[r * 32 + col], want, `C[${r}][${col}]`);
  }
  await shot(s.page, 'amx-memory');
});

test('perf: the cycles and per-kind bars are the cycle model’s', async () => {
  const m = new AmxMachine('m1');
  const b = explainProgramCycles(m.load(SRC()).ops);
  await s.page.click('[data-testid=tab-perf]');
  assert.match(
    (await s.page.textContent('[data-testid=amx-cycles]')) ?? '',
    new RegExp(`^${b.cycles} cycles`),
  );
  const bars = await s.page.$$eval('[data-kind]', (els) =>
    els.map((e) => [
      e.getAttribute('data-kind'),
      Number(e.getAttribute('data-issue')),
      Number(e.getAttribute('data-stall')),
    ]),
  );
  assert.deepEqual(
    bars,
    b.kinds.map((k) => [k.kind, k.issueCycles, k.stallCycles]),
  );
  await shot(s.page, 'amx-perf');
});

/** The element indices (f32: 4 bytes) of a byte mask, sorted. */
function elements(mask: Uint8Array, esize = 4): number[] {
  const out = new Set<number>();
  for (let i = 0; i < mask.length; i++) if (mask[i]) out.add(Math.floor(i / esize));
  return [...out].sort((x, y) => x - y);
}

async function marked(id: string, attr: 'data-highlight-cells' | 'data-read-cells'): Promise<number[]> {
  return values(await s.page.getAttribute(`#${id} canvas`, attr))
    .map(Number)
    .sort((x, y) => x - y);
}

test('step back and forward: registers after k operations; the cells operation k read and wrote are the library’s footprint', async () => {
  await s.page.click('[data-testid=tab-regs]');
  await s.page.click('[data-testid=step-first]');
  await s.page.waitForSelector('#view-amx-regs[data-step="0"]');
  assert.deepEqual(await shownBytes('amx-z'), new Array(4096).fill(0));
  const p = new AmxMachine('m1').load(SRC());
  // ops: set, ldx, ldy, fma32 (z_row 0), fma32 (z_row 1, x_offset 0x40) ...
  const boxes = new Set<string>();
  for (const k of [1, 2, 3, 4, 5]) {
    await s.page.click('[data-testid=step-forward]');
    await s.page.waitForSelector(`#view-amx-regs[data-step="${k}"]`);
    // the grids keep their place whatever the step shows (no layout shift)
    const box = await s.page.locator('#amx-z canvas').boundingBox();
    boxes.add(JSON.stringify(box));
    const op = p.ops[k - 1]!;
    const f = amxFootprint('m1', op.op, op.operand);
    for (const r of ['x', 'y', 'z'] as const) {
      assert.deepEqual(
        await marked(`amx-${r}`, 'data-read-cells'),
        elements(f.reads[r]),
        `step ${k} ${r} read`,
      );
      assert.deepEqual(
        await marked(`amx-${r}`, 'data-highlight-cells'),
        elements(f.writes[r]),
        `step ${k} ${r} written`,
      );
    }
    if (k === 2) {
      // ldx multiple=1 reg=0 address=0x20000: X rows 0 and 1, 128 bytes of memory (ldst.md)
      assert.deepEqual(
        await marked('amx-x', 'data-highlight-cells'),
        Array.from({ length: 32 }, (_, i) => i),
      );
      assert.equal(
        await s.page.textContent('[data-testid=amx-mem-access]'),
        'reads memory 0x20000 (128 bytes)',
      );
    }
    if (k === 5) {
      // fma32 z_row=1 x_offset=0x40 y_offset=0 (matrix): X f32 elements 16..31, Y 0..15, Z rows
      // 1, 5, ..., 61 read and written (fma.md), worked out by hand
      const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
      const zrows = range(0, 16).flatMap((j) => range((4 * j + 1) * 16, 16));
      assert.deepEqual(await marked('amx-x', 'data-read-cells'), range(16, 16));
      assert.deepEqual(await marked('amx-y', 'data-read-cells'), range(0, 16));
      assert.deepEqual(await marked('amx-z', 'data-read-cells'), zrows);
      assert.deepEqual(await marked('amx-z', 'data-highlight-cells'), zrows);
      assert.deepEqual(await marked('amx-x', 'data-highlight-cells'), []);
    }
  }
  assert.equal(boxes.size, 1, [...boxes].join(' / '));
  // every Z element that changed at step 4 is among the written ones
  const m3 = machine(3);
  const m4 = machine(4);
  const z3 = m3.readRegister('z');
  const z4 = m4.readRegister('z');
  const f4 = amxFootprint('m1', p.ops[3]!.op, p.ops[3]!.operand);
  for (let i = 0; i < 4096; i++) if (z3[i] !== z4[i]) assert.equal(f4.writes.z[i], 1, `Z byte ${i}`);
  await s.page.click('[data-testid=step-back]');
  await s.page.waitForSelector('#view-amx-regs[data-step="4"]');
  assert.deepEqual(await shownBytes('amx-z'), Array.from(z4));
  assert.equal(await s.page.textContent('.cm-stepLine'), SRC().split('\n')[p.ops[3]!.line! - 1]);
  // the readout of the cursor (Z element 0) says read and written, for screen readers
  await s.page.focus('#amx-z canvas');
  await s.page.keyboard.press('Home');
  assert.match((await s.page.textContent('#amx-z-readout')) ?? '', /\(read and written\)/);
  assert.match(
    (await s.page.textContent('[data-testid=amx-legend]')) ?? '',
    /read by this step.*written by this step/,
  );
  assert.match(
    (await s.page.getAttribute('#amx-z canvas', 'aria-label')) ?? '',
    /256 elements read and 256 elements written/,
  );
  await s.page.evaluate(() => document.getElementById('view-amx-regs')?.scrollIntoView());
  await shot(s.page, 'amx-footprint');
  await s.page.click('[data-testid=step-back]');
  await s.page.waitForSelector('#view-amx-regs[data-step="3"]');
  assert.deepEqual(await shownBytes('amx-x'), Array.from(m3.readRegister('x')));
  assert.deepEqual(await shownBytes('amx-z'), Array.from(z3));
});

test('an AMX error is underlined at its line with the library’s message', async () => {
  const lines = SRC().split('\n');
  const at = lines.findIndex((l) => l.startsWith('fma32'));
  lines[at] = 'fma32 z_row=0 x_offset=0x0 y_offsett=0x0';
  const bad = lines.join('\n');
  const err = thrown(() => new AmxMachine('m1').load(bad, { file: 'matmul_f32.amx' }));
  assert.equal(err.location?.line, at + 1);
  await typeSource(s.page, bad);
  assert.equal(await s.page.textContent('[data-testid=error-message]'), err.message);
  assert.equal((await underline(s.page)).line, lines[at]);
});
