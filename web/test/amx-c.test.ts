import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareWithRef } from '../../src/amx/c/ref.ts';
import { type AmxCArray, runAmxC, zeroArray } from '../../src/amx/c/run.ts';
import { amxFootprint } from '../../src/amx/footprint.ts';
import { explainProgramCycles } from '../../src/amx/perf/index.ts';
import type { AmxState } from '../../src/amx/state.ts';
import { readNpy } from '../../src/io/index.ts';
import {
  pageForFile,
  ROOT,
  readText,
  settled,
  shot,
  thrown,
  typeSource,
  underline,
  values,
} from './harness.ts';

// The playground's AMX C kernel mode: examples/amx/c/sgemm_fma32.c with the README's entry and
// arrays, run as `axsim amx run kernel.c --entry ... --arg ... --cycles` does; the registers, the
// arrays and the cycles the page shows are compared with runAmxC run here.

const s = pageForFile('amx/c/sgemm_fma32.c');

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
  // highlighted as C: the first line is a // comment, AMX_SET a keyword (the theme's colours)
  const colour = (text: string) =>
    s.page
      .locator('.cm-content span', { hasText: text })
      .first()
      .evaluate((e) => getComputedStyle(e).color);
  assert.equal(await colour('// fma32 GEMM'), 'rgb(106, 115, 125)'); // --hl-comment
  assert.equal(await colour('AMX_SET'), 'rgb(138, 43, 226)'); // --hl-keyword
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

test('ref sgemm_ref (docs/amx-c.md’s --ref): the comparison shown is the library’s and matches a float loop', async () => {
  await s.page.click('[data-testid=tab-memory]');
  assert.equal(await s.page.inputValue('[data-testid=ref]'), 'sgemm_ref');
  const li = s.page.locator('[data-testid=amx-ref] li[data-array=C]');
  await li.waitFor();
  const args = { A: npyArg('A16x64.npy'), B: npyArg('B16x64.npy'), C: zeroArray('f4', [64, 64]) };
  const opts = { file: FILE, gen: 'm1' as const, entry: ENTRY, args };
  const [d] = compareWithRef(SOURCE, opts, runAmxC(SOURCE, opts), 'sgemm_ref');
  const shown = {
    differing: Number(await li.getAttribute('data-differing')),
    maxAbs: Number(await li.getAttribute('data-max-abs')),
    maxUlp: Number(await li.getAttribute('data-max-ulp')),
  };
  assert.deepEqual(shown, { differing: d!.differing, maxAbs: d!.maxAbs, maxUlp: d!.maxUlp });
  // only C changed (A and B are inputs)
  assert.equal(await s.page.locator('[data-testid=amx-ref] li').count(), 1);
  // independently: sgemm_ref is the float loop s += A[k][m] * B[k][n] (each operation rounded to
  // f32); the page's C against that loop differs in the same elements by the same largest amount
  const c = new Float32Array(Uint8Array.from(await shownBytes('amx-arr-C')).buffer);
  const A = readNpy(`${ROOT}examples/pto/A16x64.npy`).data as Float32Array;
  const B = readNpy(`${ROOT}examples/pto/B16x64.npy`).data as Float32Array;
  let differing = 0;
  let maxAbs = 0;
  for (let n = 0; n < 64; n++)
    for (let m = 0; m < 64; m++) {
      let acc = 0;
      for (let k = 0; k < 16; k++) acc = Math.fround(acc + Math.fround(A[k * 64 + m]! * B[k * 64 + n]!));
      const got = c[n * 64 + m]!;
      if (got !== acc) {
        differing++;
        maxAbs = Math.max(maxAbs, Math.abs(got - acc));
      }
    }
  assert.deepEqual([shown.differing, shown.maxAbs], [differing, maxAbs]);
  // a reference that adds 1 to C[0][0]: one element differs, by 1
  const off = SOURCE.replace('C[n * M + m] = s;', 'C[n * M + m] = s + (n == 0 && m == 0 ? 1.0f : 0.0f);');
  assert.notEqual(off, SOURCE);
  const runs = Number(await s.page.getAttribute('[data-testid=status]', 'data-runs'));
  await s.page.click('.cm-content');
  await s.page.keyboard.press('Control+A');
  await s.page.keyboard.insertText(off);
  await settled(s.page, runs + 1);
  await s.page.locator('[data-testid=amx-ref] li[data-array=C][data-differing="1"]').waitFor();
  assert.equal(await li.getAttribute('data-max-abs'), '1');
  assert.match(
    (await li.textContent()) ?? '',
    /^C: 1 of 4096 elements differ; max abs 1, .*first worst at index 0/,
  );
  await shot(s.page, 'amx-c-ref');
  // the shared link reproduces the edited source, the entry, the arrays and the ref in a fresh page
  const p2 = await s.context.newPage();
  await p2.goto(s.page.url());
  await settled(p2);
  assert.deepEqual(
    [await p2.inputValue('[data-testid=lang]'), await p2.inputValue('[data-testid=entry]')],
    ['c', ENTRY],
  );
  assert.equal(await p2.inputValue('[data-testid=ref]'), 'sgemm_ref');
  await p2.click('[data-testid=tab-memory]');
  await p2.locator('[data-testid=amx-ref] li[data-array=C][data-differing="1"]').waitFor();
  await p2.close();
  await s.page.click('.cm-content');
  await s.page.keyboard.press('Control+A');
  await s.page.keyboard.insertText(SOURCE);
  await settled(s.page, runs + 2);
  await s.page.click('[data-testid=tab-regs]');
});

/** The live run's registers before instruction k (= after k instructions), via runAmxC's hook. */
function liveAt(ks: number[]): Map<number, { x: number[]; y: number[]; z: number[]; c: number[] }> {
  const out = new Map<number, { x: number[]; y: number[]; z: number[]; c: number[] }>();
  let i = 0;
  let cAddr = 0;
  const take = (st: AmxState) => ({
    x: Array.from(st.x),
    y: Array.from(st.y),
    z: Array.from(st.z),
    c: Array.from(st.mem.readBytes(BigInt(cAddr), 64 * 64 * 4)),
  });
  const r = runAmxC(SOURCE, {
    file: FILE,
    gen: 'm1',
    entry: ENTRY,
    args: { A: npyArg('A16x64.npy'), B: npyArg('B16x64.npy'), C: zeroArray('f4', [64, 64]) },
    onStart: (a) => {
      cAddr = a.C!;
    },
    onIssue: (_op, _operand, st) => {
      if (ks.includes(i)) out.set(i, take(st));
      i++;
    },
  });
  if (ks.includes(i)) out.set(i, { ...take(r.state), c: Array.from(r.arrays.C!.bytes) });
  return out;
}

test('stepping through the C kernel: the views after k instructions are the live run’s registers; the step marks the C line and the footprint', async () => {
  const r = library();
  const n = r.ops.length;
  await s.page.click('[data-testid=tab-regs]');
  assert.equal(await s.page.textContent('[data-testid=steps]'), String(n));
  const ks = [0, 6, 7, 300, 257, n];
  const live = liveAt(ks);
  const lines = SOURCE.split('\n');
  for (const k of ks) {
    await s.page.fill('[data-testid=step]', String(k));
    await s.page.press('[data-testid=step]', 'Enter');
    await s.page.waitForSelector(`#view-amx-regs[data-step="${k}"]`);
    const l = live.get(k)!;
    assert.deepEqual(await shownBytes('amx-x'), l.x, `X after ${k}`);
    assert.deepEqual(await shownBytes('amx-y'), l.y, `Y after ${k}`);
    assert.deepEqual(await shownBytes('amx-z'), l.z, `Z after ${k}`);
    if (k === 0 || k === n) continue;
    const op = r.ops[k - 1]!;
    // the editor marks the C line that issued instruction k
    assert.equal(await s.page.textContent('.cm-stepLine'), lines[op.line! - 1]);
    const f = amxFootprint('m1', op.op, op.operand);
    const els = (m: Uint8Array) => {
      const out = new Set<number>();
      for (let i = 0; i < m.length; i++) if (m[i]) out.add(i >> 2);
      return [...out].sort((a, b) => a - b);
    };
    for (const reg of ['x', 'y', 'z'] as const) {
      const read = values(await s.page.getAttribute(`#amx-${reg} canvas`, 'data-read-cells')).map(Number);
      const wrote = values(await s.page.getAttribute(`#amx-${reg} canvas`, 'data-highlight-cells')).map(
        Number,
      );
      assert.deepEqual(
        read.sort((a, b) => a - b),
        els(f.reads[reg]),
        `step ${k} ${reg} read`,
      );
      assert.deepEqual(
        wrote.sort((a, b) => a - b),
        els(f.writes[reg]),
        `step ${k} ${reg} written`,
      );
    }
  }
  // step 6 is the first fma32 (set, then for k = 0: ldx, ldx, ldy, ldy, fma32 with skip_z): the
  // line of AMX_FMA32(fma32_operand(0, 0, 0) | first)
  await s.page.fill('[data-testid=step]', '5');
  await s.page.press('[data-testid=step]', 'Enter');
  await s.page.waitForSelector('#view-amx-regs[data-step="5"]');
  await s.page.click('[data-testid=step-forward]');
  await s.page.waitForSelector('#view-amx-regs[data-step="6"]');
  assert.match(
    (await s.page.textContent('.cm-stepLine')) ?? '',
    /AMX_FMA32\(fma32_operand\(0, 0, 0\) \| first\)/,
  );
  assert.match((await s.page.textContent('[data-testid=amx-step-op]')) ?? '', /fma32/);
  await shot(s.page, 'amx-c-step');
  // a load names the array and offset it reads: step 2 is AMX_LDX(PTR_ROW(a, 0)) with a = A
  await s.page.click('[data-testid=step-first]');
  await s.page.waitForSelector('#view-amx-regs[data-step="0"]');
  await s.page.click('[data-testid=step-forward]');
  await s.page.click('[data-testid=step-forward]');
  await s.page.waitForSelector('#view-amx-regs[data-step="2"]');
  assert.equal(await s.page.textContent('[data-testid=amx-mem-access]'), 'reads memory A + 0 (64 bytes)');
  // keyboard: Alt+→ steps forward from anywhere on the page (op 3: AMX_LDX(PTR_ROW(a + 16, 1)))
  await s.page.keyboard.press('Alt+ArrowRight');
  await s.page.waitForSelector('#view-amx-regs[data-step="3"]');
  assert.equal(await s.page.textContent('[data-testid=amx-mem-access]'), 'reads memory A + 64 (64 bytes)');
  // the arrays step too: C as the live run had it when instruction k + 1 was issued
  await s.page.click('[data-testid=tab-memory]');
  assert.ok(await s.page.isVisible('[data-testid=amx-mem-note]'));
  for (const k of [300, n]) {
    await s.page.fill('[data-testid=step]', String(k));
    await s.page.press('[data-testid=step]', 'Enter');
    await s.page.locator(`[data-testid=amx-mem-note]`, { hasText: `step ${k},` }).waitFor();
    assert.deepEqual(await shownBytes('amx-arr-C'), live.get(k)!.c, `C at step ${k}`);
  }
  assert.notDeepEqual(live.get(300)!.c, live.get(n)!.c);
  await s.page.click('[data-testid=tab-regs]');
});

test('a C compile error is underlined at the library’s line:col', async () => {
  const lines = SOURCE.split('\n');
  const at = lines.findIndex((l) => l.includes('void sgemm('));
  assert.ok(at > 0);
  lines[at] = lines[at]!.replace('int M,', 'int M,,');
  const bad = lines.join('\n');
  const err = thrown(() => library(bad));
  assert.equal(err.location?.line, at + 1);
  await typeSource(s.page, bad);
  assert.equal(await s.page.getAttribute('[data-testid=status]', 'data-status'), 'error');
  assert.equal(await s.page.textContent('[data-testid=error-message]'), err.message);
  await s.page.keyboard.press('Control+Home');
  for (let k = 0; k < at; k++) await s.page.keyboard.press('ArrowDown');
  const u = await underline(s.page);
  assert.equal(u.line, lines[at]);
  assert.equal(u.col, err.location!.col ?? 1);
});
