import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AxsimError } from '../../errors.ts';
import { assemble } from '../asm.ts';
import {
  allCells,
  checkConfig,
  explainProgramCycles,
  FMA_TABLES,
  formatBreakdown,
  isMeasured,
  KINDS,
  kindOf,
  MACHINE,
  predictGflops,
  predictProgramCycles,
} from './index.ts';

test('the model reproduces every cell of the seed M1 Max fma tables (median <= 10%, max <= 30%)', () => {
  const cells = allCells();
  assert.ok(cells.length >= 49 * 6, `only ${cells.length} cells`);
  const errs = cells.map((c) => c.relError).sort((a, b) => a - b);
  const median = errs[Math.floor(errs.length / 2)]!;
  const worst = [...cells].sort((a, b) => b.relError - a.relError).slice(0, 5);
  console.log(
    `perf model: ${cells.length} cells, median abs error ${(median * 100).toFixed(1)}%, worst cells:`,
  );
  for (const c of worst) {
    console.log(
      `  ${c.table} acc=${c.accumulators} threads=${c.threads}: predicted ${c.predicted.toFixed(1)} measured ${c.measured} (${(c.relError * 100).toFixed(1)}%)`,
    );
  }
  assert.ok(median <= 0.1, `median error ${median}`);
  assert.ok(worst[0]!.relError <= 0.3, `worst error ${worst[0]!.relError}`);
});

test('every parameter carries a source', () => {
  for (const p of Object.values(MACHINE)) assert.ok(p.source.length > 10);
  for (const k of Object.values(KINDS)) {
    assert.ok(k.latency.source.length > 10);
    assert.ok(k.throughput.source.length > 10);
  }
});

test('single-thread single-accumulator fma32 matrix is latency bound; enough vector accumulators saturate', () => {
  // 512 flop per instruction (fma.md): one accumulator gives 512 * GHz / L GFLOPS.
  const one = predictGflops('fma32-matrix', 1, 1);
  assert.ok(Math.abs(one - (512 * MACHINE.ghz.value) / KINDS['fma32-matrix']!.latency.value) < 1e-9);
  assert.ok(predictGflops('fma32-vector', 12, 1) === predictGflops('fma32-vector', 16, 1));
});

test('program cycles: a dependent chain costs latency, independent accumulators overlap', () => {
  const chain = assemble('fma32 z_row=0\nfma32 z_row=0\nfma32 z_row=0\nfma32 z_row=0').ops;
  const indep = assemble('fma32 z_row=0\nfma32 z_row=1\nfma32 z_row=2\nfma32 z_row=3').ops;
  assert.ok(predictProgramCycles(chain) > predictProgramCycles(indep));
  const L = KINDS['fma32-matrix']!.latency.value;
  assert.equal(predictProgramCycles(chain), Math.ceil(4 * L));
});

test('program cycles with threads: units shared as the GFLOPS model describes', () => {
  const L = KINDS['fma32-matrix']!.latency.value;
  const T = KINDS['fma32-matrix']!.throughput.value;
  const { gamma, eta2, ghz } = MACHINE;
  const chain = assemble('fma32 z_row=0\nfma32 z_row=0\nfma32 z_row=0\nfma32 z_row=0').ops;
  // 1-2 threads: one per unit, nothing shared; 3-4 threads: two per unit (k = 2)
  assert.equal(predictProgramCycles(chain, { threads: 2 }), Math.ceil(4 * L));
  assert.equal(predictProgramCycles(chain, { threads: 3 }), Math.ceil(4 * L * (1 + gamma.value)));
  // throughput-bound stream (4 accumulators, z_row 0-3, repeated): 4 threads need k / (eta2 T)
  // cycles per instruction each; the whole program's GFLOPS tends to predictGflops(…, 4, 4)
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++) lines.push(`fma32 z_row=${i & 3}`);
  const prog = assemble(lines.join('\n')).ops;
  const cycles = predictProgramCycles(prog, { threads: 4 });
  assert.ok(Math.abs(cycles / (4000 * (2 / (eta2.value * T))) - 1) < 0.01, `${cycles}`);
  const gflops = (4 * 4000 * 512 * ghz.value) / cycles;
  assert.ok(Math.abs(gflops / predictGflops('fma32-matrix', 4, 4) - 1) < 0.01);
  assert.throws(() => predictProgramCycles(chain, { threads: 0 }), /positive integer/);
});

test('perf rejects configurations the hardware does not have, naming the rule', () => {
  assert.throws(
    () => predictGflops('fma32-matrix', 5, 1),
    (e: AxsimError) => /at most 4/.test(e.message) && /one Z row of each four/.test(e.hint ?? ''),
  );
  assert.throws(() => checkConfig('fma64-matrix', 9, 1), /at most 8/);
  assert.throws(() => checkConfig('fma16-matrix-f32z', 2, 1), /at most 1/);
  assert.throws(
    () => predictGflops('fma32-matrix', 4, 9),
    (e: AxsimError) => /9 threads exceed the M1 Max's 8 performance cores/.test(e.message),
  );
  assert.deepEqual(checkConfig('fma32-matrix', 4, 6), []);
  assert.match(checkConfig('fma32-matrix', 4, 8).join(), /beyond the measured 1-6/);
  assert.match(checkConfig('fma64-matrix', 8, 1).join(), /^$/);
});

test('the tables beyond fma (mac16, matfp, vecfp) are fitted within the same bounds', () => {
  for (const name of ['mac16-matrix-i8', 'mac16-vector-i16', 'matfp-f32', 'vecfp-f64']) {
    const cells = allCells().filter((c) => c.table === name);
    assert.ok(cells.length >= 6, name);
    assert.ok(Math.max(...cells.map((c) => c.relError)) <= 0.3, name);
  }
  // kinds from operands: mac16 i8 x i8 -> i32 matrix (bits 62, 61, 60), matfp f32 lanes (4 << 42)
  assert.equal(kindOf(14, 7n << 60n), 'mac16-matrix-i8-i32z');
  assert.equal(kindOf(14, (1n << 63n) | (1n << 60n)), 'mac16-vector-i16');
  assert.equal(kindOf(21, 4n << 42n), 'matfp-f32');
  assert.equal(kindOf(19, 3n << 42n), 'vecfp-f16-f32z');
  assert.equal(kindOf(20, 0n), 'matint');
  assert.equal(isMeasured(KINDS.matint!), false);
  assert.equal(isMeasured(KINDS['matfp-f32']!), true);
});

test('breakdown: a chain on one accumulator is latency-bound and the parts sum to the total', () => {
  const L = KINDS['fma32-matrix']!.latency.value;
  const T = KINDS['fma32-matrix']!.throughput.value;
  const b = explainProgramCycles(assemble('.rept 4\nfma32 z_row=0\n.endr').ops);
  const k = b.kinds[0]!;
  // issue i waits for i-1's result: starts at 0, L, 2L, 3L; each takes 1/T of the slot
  assert.equal(k.count, 4);
  assert.ok(Math.abs(k.issueCycles - 4 / T) < 1e-9);
  assert.ok(Math.abs(k.stallCycles - 3 * (L - 1 / T)) < 1e-9);
  assert.equal(k.bound, 'latency');
  assert.ok(Math.abs(b.total - 4 * L) < 1e-9);
  assert.ok(Math.abs(k.issueCycles + k.stallCycles + b.drainCycles - b.total) < 1e-9);
  assert.equal(k.accumulators, 1);
  assert.equal(k.maxAccumulators, 4);
  assert.equal(k.accumulatorsToSaturate, Math.ceil(L * T));
  assert.match(b.notes.join(), /fma32-matrix: 1 accumulator\(s\) allow/);
  assert.equal(k.measured, true);
  assert.match(k.source, /seed spec 001/);
});

/** BLIS-style 32x32 sgemm, K = 64, in the .amx text form: per k two X / two Y loads, 4 FMAs. */
function sgemm32(k: number): string {
  return [
    '.set A = 0x100000',
    '.set B = 0x200000',
    '.rept 16, i',
    'ldz z_row=4*i address=0x300000 + i * 128',
    '.endr',
    `.rept ${k}, kk`,
    'ldx reg=0 address=A + kk * 128',
    'ldx reg=1 address=A + kk * 128 + 64',
    'ldy reg=0 address=B + kk * 128',
    'ldy reg=1 address=B + kk * 128 + 64',
    'fma32 x_offset=0 y_offset=0 z_row=0',
    'fma32 x_offset=64 y_offset=0 z_row=1',
    'fma32 x_offset=0 y_offset=64 z_row=2',
    'fma32 x_offset=64 y_offset=64 z_row=3',
    '.endr',
    '.rept 64, r',
    'stz z_row=r address=0x400000 + r * 64',
    '.endr',
  ].join('\n');
}

test('32x32 sgemm breakdown: sums to the total; its fma32 figures match the seed within the stated error', () => {
  const ops = assemble(sgemm32(64)).ops;
  const stated = 0.3; // the model's stated worst-case error (docs/amx.md)
  for (let threads = 1; threads <= 6; threads++) {
    const b = explainProgramCycles(ops, { threads });
    const sum = b.kinds.reduce((a, k) => a + k.issueCycles + k.stallCycles, 0) + b.drainCycles;
    assert.ok(Math.abs(sum - b.total) < 1e-6, `threads ${threads}: ${sum} vs ${b.total}`);
    const f = b.kinds.find((k) => k.kind === 'fma32-matrix')!;
    assert.equal(f.count, 4 * 64);
    assert.equal(f.accumulators, 4);
    // the rate 4 accumulators allow, per thread, as GFLOPS for all threads: the seed's row 4
    const gflops = threads * f.rateLimit * 512 * MACHINE.ghz.value;
    const measured = FMA_TABLES['fma32-matrix']!.rows[3]![threads - 1]!;
    assert.ok(Math.abs(gflops / measured - 1) <= stated, `threads ${threads}: ${gflops} vs ${measured}`);
    // loads and stores (assumptions) only add time: the whole kernel is no faster than that
    const whole = (threads * 4 * 64 * 512 * MACHINE.ghz.value) / b.total;
    assert.ok(whole <= gflops + 1e-9);
    assert.equal(b.kinds.find((k) => k.kind === 'load')!.measured, false);
  }
  // 1 thread, the seed's cell 1475.0 GFLOPS: within that cell's own model error
  const one = explainProgramCycles(ops).kinds.find((k) => k.kind === 'fma32-matrix')!;
  const cell = allCells().find((c) => c.table === 'fma32-matrix' && c.accumulators === 4 && c.threads === 1)!;
  assert.ok(Math.abs(one.rateLimit * 512 * MACHINE.ghz.value - cell.predicted) < 1e-6);
  assert.ok(cell.relError < 0.1, `${cell.relError}`);
  assert.match(formatBreakdown(explainProgramCycles(ops)), /ASSUMPTION: assumption/);
});

test('a store of a Z row waits for the FMA that writes it (latency), not one that does not', () => {
  const L = KINDS['fma32-matrix']!.latency.value;
  const T = KINDS['fma32-matrix']!.throughput.value;
  // fma32 matrix z_row=1 writes rows 1, 5, 9, …: stz of row 5 waits L, stz of row 2 does not
  const dep = explainProgramCycles(assemble('fma32 z_row=1\nstz z_row=5 address=0x1000').ops);
  const indep = explainProgramCycles(assemble('fma32 z_row=1\nstz z_row=2 address=0x1000').ops);
  const st = (b: typeof dep) => b.kinds.find((k) => k.kind === 'store')!;
  assert.ok(Math.abs(st(dep).stallCycles - (L - 1 / T)) < 1e-9);
  assert.equal(st(indep).stallCycles, 0);
});
