// Honest cost totals (issue 13 item 6): a total that leaves ops out says PARTIAL and lists them;
// the formula model's inherited transfer unit slip is flagged whenever a total contains a transfer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parsePtoAs } from '../asm/parser.ts';
import { costFunction } from './index.ts';
import { costProgram, FORMULA_TRANSFER_WARNING, formatProgramCost } from './program.ts';

const softmax = parsePtoAs(
  readFileSync(new URL('../../../examples/pto/softmax.pto', import.meta.url), 'utf8'),
);
const T = '!pto.tile_buf<vec, 16x64xf32>';
const addOnly = parsePtoAs(
  `func.func @k() {\n  %a = pto.alloc_tile : ${T}\n  pto.tadd ins(%a, %a : ${T}, ${T}) outs(%a : ${T})\n  return\n}\n`,
);

test('seed: a program with ops outside the model is a PARTIAL total listing each of them once', () => {
  const p = costProgram(softmax, 'seed', 'a2a3', costFunction('seed', 'a2a3'));
  assert.equal(p.partial, true);
  const ops = p.unpriced.map((u) => u.split(':')[0]);
  for (const op of ['TROWMAX', 'TEXP']) assert.ok(ops.includes(op), op);
  // TLOAD / TSTORE have a derived price (Perf-Sim's fallback), marked as such in the path
  for (const op of ['TLOAD', 'TSTORE']) {
    assert.ok(!ops.includes(op), op);
    assert.match(p.instructions.find((r) => r.op === op)!.path, /^derived: Perf-Sim/);
  }
  assert.equal(new Set(ops).size, ops.length);
  const text = formatProgramCost(p);
  assert.match(text, /PARTIAL: \d+ op\(s\) priced, \d+ not priced by the seed model/);
  assert.match(text, /not priced: TEXP: /);
  // one binary op only: complete, no warning; 16x64 f32 is spec 002's 2575 cycles
  const q = costProgram(addOnly, 'seed', 'a2a3', costFunction('seed', 'a2a3'));
  assert.deepEqual([q.partial, q.unpriced, q.warnings, q.total], [false, [], [], 2575]);
  assert.doesNotMatch(formatProgramCost(q), /PARTIAL|warning/);
});

test('formula: the inherited ~1000x TLOAD/TSTORE unit slip is flagged in the output', () => {
  const p = costProgram(softmax, 'formula', 'a2a3', costFunction('formula', 'a2a3'));
  assert.deepEqual(p.warnings, [FORMULA_TRANSFER_WARNING]);
  assert.match(formatProgramCost(p), /warning: formula model: TLOAD\/TSTORE .* ~1000x too large/);
  const q = costProgram(addOnly, 'formula', 'a2a3', costFunction('formula', 'a2a3'));
  assert.deepEqual(q.warnings, []);
});
