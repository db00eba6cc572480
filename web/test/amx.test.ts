import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AmxMachine } from '../../src/amx/index.ts';
import { explainProgramCycles } from '../../src/amx/perf/index.ts';
import { AxsimError } from '../../src/errors.ts';
import { chooseExample, open, readText, type Session, settled, shot, values } from './harness.ts';

// The AMX views in Chromium show the library's results: registers, memory and cycles read from
// the page are compared with AmxMachine / explainProgramCycles run here on the same program.

let s: Session;
before(async () => {
  s = await open();
  await settled(s.page);
  await chooseExample(s.page, 'amx/matmul_f32.amx');
});
after(async () => {
  assert.deepEqual(s.problems, []);
  await s.close();
});

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

test('step back and forward: registers after k operations, and the Z cells operation k wrote', async () => {
  await s.page.click('[data-testid=tab-regs]');
  await s.page.click('[data-testid=step-first]');
  await s.page.waitForSelector('#view-amx-regs[data-step="0"]');
  assert.deepEqual(await shownBytes('amx-z'), new Array(4096).fill(0));
  // ops: set, ldx, ldy, fma32 (z_row 0) ...: step 4 executes the first fma32
  for (const k of [1, 2, 3, 4]) {
    await s.page.click('[data-testid=step-forward]');
    await s.page.waitForSelector(`#view-amx-regs[data-step="${k}"]`);
  }
  const m3 = machine(3);
  const m4 = machine(4);
  assert.deepEqual(await shownBytes('amx-z'), Array.from(m4.readRegister('z')));
  const z3 = m3.readRegister('z');
  const z4 = m4.readRegister('z');
  const changed = new Set<number>();
  for (let i = 0; i < 4096; i++) if (z3[i] !== z4[i]) changed.add(i >> 2); // f32 elements
  const shown = values(await s.page.getAttribute('#amx-z canvas', 'data-highlight-cells')).map(Number);
  assert.ok(changed.size > 0);
  assert.deepEqual(
    shown.sort((x, y) => x - y),
    [...changed].sort((x, y) => x - y),
  );
  assert.equal(await s.page.textContent('.cm-stepLine'), SRC().split('\n')[m4.load(SRC()).ops[3]!.line! - 1]);
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
  let err: AxsimError | undefined;
  try {
    new AmxMachine('m1').load(bad, { file: 'matmul_f32.amx' });
  } catch (e) {
    err = e as AxsimError;
  }
  assert.ok(err instanceof AxsimError && err.location?.line === at + 1, String(err));
  const n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.click('.cm-content');
  await s.page.keyboard.press('Control+A');
  await s.page.keyboard.insertText(bad);
  await settled(s.page, n + 1);
  assert.equal(await s.page.textContent('[data-testid=error-message]'), err.message);
  const range = s.page.locator('.cm-lintRange-error').first();
  await range.waitFor();
  assert.equal(await range.evaluate((e) => e.closest('.cm-line')?.textContent), lines[at]);
});
