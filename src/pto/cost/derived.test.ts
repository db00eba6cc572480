// Derived prices (issue 13): bf16 TLOAD / TSTORE, TEXPANDS, TCOLEXPANDMUL and TFILLPAD in every
// model. Expected cycles are worked out by hand: for the pto-isa model from the A2/A3 kernels'
// intrinsic sequences (npu/a2a3/TExpandS.hpp, TColExpandBinOp.hpp, TFillPad.hpp) with the stub
// constants (vector_dup / vcopy head 11, slope 1, tail 13; vmul 10 / 2 / 15; control 1; a
// pipe_barrier(PIPE_V) charges the pending tail and empties the queue); for the formula (a5, and
// the ops without a curve) and seed models from Perf-Sim's FallbackCycles (costmodel_provider.hpp).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parsePtoAs } from '../asm/parser.ts';
import { inp as workedExample } from './fixtures.ts';
import { costInstruction } from './index.ts';
import { perfSimFallbackCycles } from './perfsim.ts';
import { comparePerfSim } from './perfsim-compare.ts';
import type { CostInput, TileFacts } from './types.ts';

const facts = (
  rows: number,
  cols: number,
  validRow: number,
  validCol: number,
  vCol: number,
  pad = 0,
): TileFacts => ({
  loc: 'vec',
  dtype: 'f32',
  rows,
  cols,
  validRow,
  validCol,
  blayout: 'row_major',
  slayout: 'none_box',
  fractal: 512,
  pad,
  vCol,
});

/** The worked-example input (fixtures.ts) for `op`, with the given fields replaced. */
const inp = (op: string, extra: Partial<CostInput> = {}): CostInput => workedExample({ op, ...extra });

test('pto-isa model, derived TEXPANDS: count-mode vector_dup, one for a contiguous region, one per row otherwise', () => {
  // set_mask_count 1 + set_vector_mask 1 + vector_dup (repeat 0: head 11) + set_mask_norm 1 + full mask 1
  const full = costInstruction(
    'pto-isa',
    'a2a3',
    inp('TEXPANDS', { staticValidCol: 64, dst: facts(16, 64, 16, 64, 64) }),
  );
  assert.equal(full.cycles, 15);
  assert.equal(full.pendingVectorTail, 13);
  assert.equal(full.terms.filter((t) => t.name === 'vector_dup').length, 1);
  // dynamic valid 16x60: not contiguous, 16 dups (only the first pays the head): still 15 cycles
  const rows = costInstruction(
    'pto-isa',
    'a2a3',
    inp('TEXPANDS', { validCol: 60, dst: facts(16, 64, 16, 60, -1) }),
  );
  assert.equal(rows.cycles, 15);
  assert.equal(rows.terms.filter((t) => t.name === 'vector_dup').length, 16);
  // the count is the element count (8-bit types: half of it, duplicated as 16-bit pairs)
  const i8 = costInstruction(
    'pto-isa',
    'a2a3',
    inp('TEXPANDS', { dtype: 'i8', staticValidCol: 64, dst: facts(16, 64, 16, 64, 64) }),
  );
  assert.deepEqual(i8.terms.find((t) => t.name === 'set_vector_mask')?.args, [0, 512]);
});

test('pto-isa model, derived TCOLEXPANDMUL: vmul of validRow repeats per 256-byte chunk (norm mode), per row in count mode', () => {
  const tc = (rows: number, cols: number, vc: number, vCol: number) =>
    costInstruction(
      'pto-isa',
      'a2a3',
      inp('TCOLEXPANDMUL', {
        rows,
        cols,
        validCol: vc,
        dst: facts(rows, cols, rows, vc, vCol),
        src: facts(rows, cols, rows, vc, vCol),
      }),
    );
  // 16x64 f32: row stride 64 = one repeat: 1 chunk, vmul(16) = head 10 + 2*16 = 42
  assert.equal(tc(16, 64, 64, 64).cycles, 42);
  // 16x32: strides under one repeat: continuous mask (1) + vmul(16) 42 + full mask (1) = 44
  assert.equal(tc(16, 32, 32, 32).cycles, 44);
  // 16x128 with 100 valid (static): chunk of 64 (42), tail 36 under a mask: 1 + 32 (no head) + 1 = 76
  assert.equal(tc(16, 128, 100, 128).cycles, 76);
  // dynamic valid columns: count mode, 16 x vmul(repeat 0): 1 + 1 + 10 + 0*15 + 1 + 1 = 14
  assert.equal(tc(16, 64, 60, -1).cycles, 14);
});

test('pto-isa model, derived TFILLPAD: vcopy the rows, dup the pad right of row 0, vcopy it down, dup the rows below', () => {
  // src 16x64 valid 12x60, dst 16x64 valid 16x64, same pad value:
  //   set_mask_count 1, mask 1, vcopy(12) 11 + 12 = 23,
  //   PadRightSingleRow: set_mask_count 1, mask 1, vector_dup(1) 1 (queue busy), barrier 13 (tail) + 1,
  //   PadRightRemainingRows: vcopy(11) 11 + 11 = 22,
  //   PadBottomRows: mask 1, vector_dup(1) 1, then set_mask_norm 1 + full mask 1  -> 69
  const c = costInstruction(
    'pto-isa',
    'a2a3',
    inp('TFILLPAD', { dst: facts(16, 64, 16, 64, 64), src: facts(16, 64, 12, 60, -1) }),
  );
  assert.equal(c.cycles, 1 + 1 + 23 + 1 + 1 + 1 + 14 + 22 + 1 + 1 + 1 + 1);
  // different pad values add the 32-byte-block pad: set_mask_norm 1, mask 1, vector_dup(12) 12, barrier
  // (tail 13 + 1); the next vector_dup then pays its head (11 + 1)
  const p = costInstruction(
    'pto-isa',
    'a2a3',
    inp('TFILLPAD', { dst: facts(16, 64, 16, 64, 64, 2), src: facts(16, 64, 12, 60, -1, 0) }),
  );
  assert.equal(p.cycles, 1 + 1 + 23 + (1 + 1 + 12 + 14) + 1 + 1 + 12 + 14 + 22 + 1 + 1 + 1 + 1);
  // the lane mask of that pad dup: 60 valid of a 64-column row, 8 f32 per block -> lanes 4..7
  assert.deepEqual(p.terms.filter((t) => t.name === 'set_vector_mask')[1]?.args, [0, 0xf0]);
});

test('pto-isa model: bf16 TLOAD / TSTORE are priced as the 2-byte types (the copies depend on the size only)', () => {
  for (const op of ['TLOAD', 'TSTORE']) {
    const view = { gmShape: [1, 1, 1, 16, 64], gmStrides: [1024, 1024, 1024, 64, 1], gm: 'ND row stride 64' };
    const bf = costInstruction('pto-isa', 'a2a3', inp(op, { dtype: 'bf16', gmDtype: 'bf16', ...view }));
    const hf = costInstruction('pto-isa', 'a2a3', inp(op, { dtype: 'f16', gmDtype: 'f16', ...view }));
    assert.ok(bf.cycles > 0);
    assert.equal(bf.cycles, hf.cycles, op);
  }
});

test('formula (no curve) and seed: the derived price is Perf-Sim FallbackCycles on the first tile', () => {
  // Vector: 2 + elems / 32; GM (MTE2_AIV / MTE3): 3 + 2 elems / 64
  assert.equal(perfSimFallbackCycles('TEXPANDS', 16, 64), 2 + 32);
  assert.equal(perfSimFallbackCycles('TLOAD', 16, 64), 3 + 32);
  assert.equal(perfSimFallbackCycles('TSTORE', 1, 16), 3 + 0);
  for (const [model, arch] of [
    ['formula', 'a2a3'],
    ['formula', 'a5'],
    ['seed', 'a2a3'],
  ] as const) {
    for (const op of ['TEXPANDS', 'TCOLEXPANDMUL', 'TFILLPAD'])
      assert.equal(
        costInstruction(model, arch, inp(op, { validCol: 48 })).cycles,
        2 + 24,
        `${model} ${arch} ${op}`,
      );
  }
  // transfers: the a5 formula has no transfer curve and seed no transfer at all -> 3 + 2*768/64 = 27
  for (const [model, arch] of [
    ['formula', 'a5'],
    ['seed', 'a2a3'],
  ] as const)
    assert.equal(costInstruction(model, arch, inp('TLOAD', { dtype: 'bf16', validCol: 48 })).cycles, 27);
});

test('Perf-Sim anchor: its per-op duration is the reference build trace (axsim pto-isa without derived prices)', () => {
  const load = (f: string) =>
    parsePtoAs(readFileSync(new URL(`../../../examples/pto/${f}`, import.meta.url), 'utf8'));
  // softmax: every op is one the reference cost build compiles, so Perf-Sim schedules exactly the
  // trace cycles axsim reproduces (RecordInstr's estimate rules included)
  const soft = comparePerfSim(load('softmax.pto'));
  assert.ok(soft.length >= 7);
  for (const r of soft) assert.equal(r.perfSim, r.ptoIsa, `${r.op} ${r.line}`);
  // the derived prices: Perf-Sim cannot build TEXPANDS / TCOLEXPANDMUL / TFILLPAD (no _IMPL in the
  // cost build) nor a bfloat16 TLOAD (no bfloat16 on the host); axsim's hand-checked derived cycles
  const d = comparePerfSim(load('derived-prices.pto'));
  const at = (op: string) => d.find((r) => r.op === op)!;
  for (const op of ['TLOAD', 'TEXPANDS', 'TCOLEXPANDMUL', 'TFILLPAD', 'TSTORE'])
    assert.equal(at(op).perfSim, null, op);
  assert.equal(at('TEXPANDS').ptoIsa, 15);
  assert.equal(at('TCOLEXPANDMUL').ptoIsa, 42);
  assert.equal(at('TCOLEXPANDMUL').formula, 2 + 1024 / 32);
});
