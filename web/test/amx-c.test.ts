import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type AmxCArray, runAmxC, zeroArray } from '../../src/amx/c/run.ts';
import { explainProgramCycles } from '../../src/amx/perf/index.ts';
import { AxsimError } from '../../src/errors.ts';
import { readNpy } from '../../src/io/index.ts';
import { chooseExample, open, ROOT, readText, type Session, settled, values } from './harness.ts';

// The playground's AMX C kernel mode: examples/amx/c/sgemm_fma32.c with the README's entry and
// arrays, run as `axsim amx run kernel.c --entry ... --arg ... --cycles` does; the registers, the
// arrays and the cycles the page shows are compared with runAmxC run here.

let s: Session;
before(async () => {
  s = await open();
  await settled(s.page);
  await chooseExample(s.page, 'amx/c/sgemm_fma32.c');
});
after(async () => {
  assert.deepEqual(s.problems, []);
  await s.close();
});

const FILE = 'c/sgemm_fma32.c';
const SOURCE = readText('examples/amx/c/sgemm_fma32.c');
const ENTRY = 'sgemm(64, 64, 16, A, B, C)';

function npyArg(name: string): AmxCArray {
  const a = readNpy(`${ROOT}examples/pto/${name}`);
  const d = a.data;
  return {
    dtype: a.dtype,
    shape: a.shape,
    bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice(),
  };
}

function library(source = SOURCE) {
  return runAmxC(source, {
    file: FILE,
    gen: 'm1',
    entry: ENTRY,
    args: { A: npyArg('A16x64.npy'), B: npyArg('B16x64.npy'), C: zeroArray('f4', [64, 64]) },
    trace: true,
  });
}

async function shownBytes(id: string): Promise<number[]> {
  return values(await s.page.getAttribute(`#${id} canvas`, 'data-raw')).map(Number);
}

test('sgemm_fma32.c (the README entry): Z, the C array and the cycles are runAmxC’s; C is Aᵀ·B', async () => {
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'ok');
  assert.equal(await s.page.inputValue('[data-testid=entry]'), ENTRY);
  const r = library();
  assert.deepEqual(await shownBytes('amx-z'), Array.from(r.state.z));
  await s.page.click('[data-testid=tab-memory]');
  const c = await shownBytes('amx-arr-C');
  assert.deepEqual(c, Array.from(r.arrays.C!.bytes));
  // independently (the file's header: C[n][m] = sum over k of A[k][m] * B[k][n]), to f32 precision
  const cf = new Float32Array(Uint8Array.from(c).buffer);
  const A = readNpy(`${ROOT}examples/pto/A16x64.npy`).data as Float32Array;
  const B = readNpy(`${ROOT}examples/pto/B16x64.npy`).data as Float32Array;
  for (const [n, m] of [
    [0, 0],
    [5, 17],
    [63, 63],
    [40, 3],
  ] as const) {
    let want = 0;
    let mag = 0;
    for (let k = 0; k < 16; k++) {
      want += A[k * 64 + m]! * B[k * 64 + n]!;
      mag += Math.abs(A[k * 64 + m]! * B[k * 64 + n]!);
    }
    assert.ok(
      Math.abs(cf[n * 64 + m]! - want) <= mag * 2 ** -20,
      `C[${n}][${m}] = ${cf[n * 64 + m]} vs ${want}`,
    );
  }
  await s.page.click('[data-testid=tab-perf]');
  const cycles = explainProgramCycles(r.ops).cycles;
  assert.match((await s.page.textContent('[data-testid=amx-cycles]')) ?? '', new RegExp(`^${cycles} cycles`));
});

test('a C compile error is underlined at the library’s line:col', async () => {
  const lines = SOURCE.split('\n');
  const at = lines.findIndex((l) => l.includes('void sgemm('));
  assert.ok(at > 0);
  lines[at] = lines[at]!.replace('int M,', 'int M,,');
  const bad = lines.join('\n');
  let err: AxsimError | undefined;
  try {
    library(bad);
  } catch (e) {
    err = e as AxsimError;
  }
  assert.ok(err instanceof AxsimError, String(err));
  assert.equal(err.location?.line, at + 1);
  const n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.click('.cm-content');
  await s.page.keyboard.press('Control+A');
  await s.page.keyboard.insertText(bad);
  await settled(s.page, n + 1);
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'error');
  assert.equal(await s.page.textContent('[data-testid=error-message]'), err.message);
  await s.page.keyboard.press('Control+Home');
  for (let k = 0; k < at; k++) await s.page.keyboard.press('ArrowDown');
  const range = s.page.locator('.cm-lintRange-error').first();
  await range.waitFor();
  assert.equal(await range.evaluate((e) => e.closest('.cm-line')?.textContent), lines[at]);
  const col = await range.evaluate((e) => {
    const line = e.closest('.cm-line')!;
    const r = document.createRange();
    r.setStart(line, 0);
    r.setEndBefore(e);
    return r.toString().length + 1;
  });
  assert.equal(col, err.location!.col ?? 1);
});
