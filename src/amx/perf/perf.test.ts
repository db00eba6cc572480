import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assemble } from '../asm.ts';
import { allCells, KINDS, MACHINE, predictGflops, predictProgramCycles } from './index.ts';

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

test('single-thread single-accumulator fma32 matrix is latency bound; four accumulators saturate', () => {
  // 512 flop per instruction (fma.md): one accumulator gives 512 * GHz / L GFLOPS.
  const one = predictGflops('fma32-matrix', 1, 1);
  assert.ok(Math.abs(one - (512 * MACHINE.ghz.value) / KINDS['fma32-matrix']!.latency.value) < 1e-9);
  assert.ok(predictGflops('fma32-matrix', 8, 1) === predictGflops('fma32-matrix', 16, 1));
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
