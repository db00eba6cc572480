import assert from 'node:assert/strict';
import { test } from 'node:test';
import { f32ToBits } from '../../src/numeric/index.ts';
import { compileKernel } from '../../src/tensix/asm/index.ts';
import { TensixMachine } from '../../src/tensix/index.ts';
import { compileLlk, type KernelCompiler, runLlkKernel } from '../../src/tensix/llk/run.ts';
import {
  chooseExample,
  pageForFile,
  readText,
  settled,
  shot,
  thrown,
  typeSource,
  underline,
  values,
} from './harness.ts';

// The playground's C++ kernel mode (Tensix, the LLK environment): the bundled SFPI fixture kernel
// compiled and run as `axsim tensix run kernel.h --entry ...` does; the Dst the page shows is
// compared with runLlkKernel run here on the same source, entry and input, and with the kernel's
// function computed by hand.

const s = pageForFile();

const PATH = 'tensix/sfpi/basic.h';
const FILE = 'sfpi/basic.h';
const SOURCE = readText('test/fixtures/sfpi/basic.h');
/** The playground's `ramp-fp32` input: element i is (i - 512) / 8 (exact in binary32). */
const ramp = (i: number) => (i - 512) / 8;

/** The library's run of `entry` on the ramp, as the CLI runs a kernel with --dst of 32-bit data. */
async function library(source: string, entry: string): Promise<TensixMachine> {
  const m = new TensixMachine('wormhole');
  m.writeDstTile(
    0,
    Array.from({ length: 1024 }, (_, i) => f32ToBits(ramp(i))),
    'fp32',
  );
  m.configure({ sfpuFp32: true, srcBFormat: 5 });
  await runLlkKernel(m, { source, file: FILE, entry }, compileKernel as KernelCompiler);
  return m;
}

async function shownDst(): Promise<number[]> {
  await s.page.click('[data-testid=tab-dst]');
  return values(await s.page.getAttribute('#dst-grid canvas', 'data-raw')).map(Number);
}

/** The tile (row-major 32x32 elements) of Dst rows shown, through the library's tile layout. */
function asTile(rows: number[]): number[] {
  const t = new TensixMachine('wormhole');
  t.writeDstRows(0, rows, 'fp32');
  return Array.from(t.readDstTile(0, 'fp32'), (b) => b >>> 0);
}

test('the SFPI example (basic.h, clamp to [-2, 3]): Dst is runLlkKernel’s result and the clamp of the input', async () => {
  await chooseExample(s.page, PATH);
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'ok');
  assert.equal(await s.page.inputValue('[data-testid=lang]'), 'cpp');
  const entry = await s.page.inputValue('[data-testid=entry]');
  assert.equal(entry, 'axsim_sfpi::calculate_clamp_m2_3<8>');
  const m = await library(SOURCE, entry);
  const dst = await shownDst();
  assert.deepEqual(dst, Array.from(m.readDstRows(0, 1024, 'fp32')));
  // independently: the kernel's definition, x < -2 ? -2 : min(x, 3), on every element
  assert.deepEqual(
    asTile(dst),
    Array.from({ length: 1024 }, (_, i) => {
      const x = ramp(i);
      return f32ToBits(x < -2 ? -2 : Math.min(x, 3));
    }),
  );
  await shot(s.page, 'kernel-dst');
});

test('the entry field is part of the run (and of the link): another entry of the same file', async () => {
  const n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  const entry = 'axsim_sfpi::calculate_poly<8>(1.5f)';
  await s.page.fill('[data-testid=entry]', entry);
  await s.page.press('[data-testid=entry]', 'Enter');
  await settled(s.page, n + 1);
  const m = await library(SOURCE, entry);
  const dst = await shownDst();
  assert.deepEqual(dst, Array.from(m.readDstRows(0, 1024, 'fp32')));
  // x * 1.5 + 0.25 is exact for x = k/8, |k| <= 512
  assert.deepEqual(
    asTile(dst),
    Array.from({ length: 1024 }, (_, i) => f32ToBits(ramp(i) * 1.5 + 0.25)),
  );
  // the shared link reproduces the entry in a fresh page
  const url = s.page.url();
  assert.match(url, /#r=/);
  const p2 = await s.context.newPage();
  await p2.goto(url);
  await settled(p2);
  assert.equal(await p2.inputValue('[data-testid=entry]'), entry);
  assert.equal(await p2.inputValue('[data-testid=lang]'), 'cpp');
  await p2.close();
});

test('a C++ compile error is underlined at the library’s line:col', async () => {
  const lines = SOURCE.split('\n');
  const at = lines.findIndex((l) => l.includes('v_if (v < -2.0f)'));
  assert.ok(at > 0);
  lines[at] = lines[at]!.replace('v < -2.0f', 'v < -2.0f +');
  const bad = lines.join('\n');
  const err = thrown(() =>
    compileLlk(compileKernel as KernelCompiler, new TensixMachine('wormhole'), {
      source: bad,
      file: FILE,
      entry: 'axsim_sfpi::calculate_clamp_m2_3<8>',
    }),
  );
  assert.equal(err.location?.file, FILE);
  assert.equal(err.location?.line, at + 1);
  // back to the clamp entry, then the broken source
  let n = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.fill('[data-testid=entry]', 'axsim_sfpi::calculate_clamp_m2_3<8>');
  await s.page.press('[data-testid=entry]', 'Enter');
  await settled(s.page, ++n);
  await typeSource(s.page, bad);
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'error');
  assert.equal(await s.page.textContent('[data-testid=error-message]'), err.message);
  // the editor draws the lines in view only: move the cursor (not the text) to the error's line
  await s.page.keyboard.press('Control+Home');
  for (let k = 0; k < at; k++) await s.page.keyboard.press('ArrowDown');
  const u = await underline(s.page);
  assert.equal(u.line, lines[at]);
  assert.equal(u.col, err.location!.col ?? 1);
});
