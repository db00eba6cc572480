import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../../errors.ts';
import { parsePtoAs, verifyModule } from '../asm/index.ts';
import { inp } from './fixtures.ts';
import { costFunction, costProgram, SEED_CONSTANTS, seedCost } from './index.ts';

// Expected values are worked by hand from spec 002 "A2/A3 Throughput": 14 + C + 2R + (R-1)*18.

test('spec 002 worked example: 16x64 f32 RowMajor TADD = 14 + 19 + 256 + 2286 = 2575', () => {
  const r = seedCost(inp({}));
  assert.equal(r.cycles, 2575);
  assert.deepEqual(
    r.terms.map((t) => t.cycles),
    [14, 19, 256, 2286],
  );
  assert.equal(r.path, 'continuous');
});

test('INT completion constant is 17: 16x64 i32 = 14 + 17 + 256 + 2286 = 2573', () => {
  assert.equal(seedCost(inp({ dtype: 'i32' })).cycles, 2573);
  assert.equal(seedCost(inp({ dtype: 'i16' })).cycles, 2573);
  assert.equal(SEED_CONSTANTS.completionInt.value, 17);
});

test('continuous path: R = ceil(validRow*validCol/8)', () => {
  // 2x8 full: R = 2 -> 14 + 19 + 4 + 18 = 55
  assert.equal(seedCost(inp({ rows: 2, cols: 8, validRow: 2, validCol: 8 })).cycles, 55);
  // 3x12 full: 36/8 = 4.5 -> R = 5 -> 14 + 19 + 10 + 72 = 115
  assert.equal(seedCost(inp({ rows: 3, cols: 12, validRow: 3, validCol: 12 })).cycles, 115);
  // 1x8: R = 1 -> 14 + 19 + 2 + 0 = 35
  assert.equal(seedCost(inp({ rows: 1, cols: 8, validRow: 1, validCol: 8 })).cycles, 35);
});

test('small-tile path (cols < 8): one repeat per row, R = validRow', () => {
  // 4x4 f32, valid 4x4: R = 4 -> 14 + 19 + 8 + 54 = 95
  const r = seedCost(inp({ rows: 4, cols: 4, validRow: 4, validCol: 4 }));
  assert.equal(r.cycles, 95);
  assert.match(r.path, /small/);
  // valid 3x2 of a 4x4 tile: R = 3 -> 14 + 19 + 6 + 36 = 75
  assert.equal(seedCost(inp({ rows: 4, cols: 4, validRow: 3, validCol: 2 })).cycles, 75);
});

test('general path (validCol < cols): R = validRow * ceil(validCol/8)', () => {
  // valid 10x20 of 16x64: R = 10*3 = 30 -> 14 + 19 + 60 + 29*18 = 615
  const r = seedCost(inp({ validRow: 10, validCol: 20 }));
  assert.equal(r.cycles, 615);
  assert.equal(r.path, 'general');
});

test('ColMajor walks columns: R = validCol * ceil(validRow/8)', () => {
  // valid 10x5 of a 16x64 col-major tile: R = 5*2 = 10 -> 14 + 19 + 20 + 162 = 215
  assert.equal(seedCost(inp({ layout: 'CM', validRow: 10, validCol: 5 })).cycles, 215);
});

test('an empty valid region issues nothing; non-binary ops are Unsupported', () => {
  assert.equal(seedCost(inp({ validRow: 0 })).cycles, 0);
  assert.throws(
    () => seedCost(inp({ op: 'TEXP' })),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported',
  );
});

const TB =
  '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

test('costing a parsed program: the 16x64 TADD is 2575 cycles under the seed model', () => {
  const m = parsePtoAs(`func.func @k() {
    %a = pto.alloc_tile : ${TB}
    %b = pto.alloc_tile : ${TB}
    %c = pto.alloc_tile : ${TB}
    pto.tadd ins(%a, %b : ${TB}, ${TB}) outs(%c : ${TB})
    return
  }`);
  verifyModule(m);
  const r = costProgram(m, 'seed', 'a2a3', costFunction('seed', 'a2a3'));
  assert.equal(r.total, 2575);
  assert.equal(r.instructions.length, 1);
});

test('axsim pto cost examples/pto/add.pto --model seed reports the 2575-cycle TADD', () => {
  const bin = fileURLToPath(new URL('../../../bin/axsim.js', import.meta.url));
  const prog = fileURLToPath(new URL('../../../examples/pto/add.pto', import.meta.url));
  const r = spawnSync(process.execPath, [bin, 'pto', 'cost', prog, '--model', 'seed', '--json'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { instructions: { op: string; cycles: number | null }[]; total: number };
  assert.equal(j.instructions.find((i) => i.op === 'TADD')?.cycles, 2575);
  // plus the derived transfer prices (Perf-Sim FallbackCycles: 3 + 2 * 1024 / 64 = 35 each, x3)
  assert.equal(j.total, 2575 + 3 * 35);
});

test('every binary tile-tile elementwise op is priced with the same formula; other families are outside the model', () => {
  // 16x64: FP 14 + 19 + 256 + 2286 = 2575, INT 14 + 17 + 256 + 2286 = 2573
  for (const op of ['TADD', 'TSUB', 'TMUL', 'TDIV', 'TMAX', 'TMIN', 'TREM', 'TFMOD', 'TPOW', 'TPRELU']) {
    assert.equal(seedCost(inp({ op })).cycles, 2575, op);
  }
  for (const op of ['TAND', 'TOR', 'TXOR', 'TSHL', 'TSHR']) {
    assert.equal(seedCost(inp({ op, dtype: 'i16' })).cycles, 2573, op);
  }
  for (const op of ['TADDS', 'TEXP', 'TADDC', 'TCMP', 'TSEL', 'TPARTADD', 'TROWSUM', 'TLOAD', 'TMATMUL']) {
    assert.throws(
      () => seedCost(inp({ op })),
      (e: unknown) =>
        e instanceof AxsimError && e.category === 'Unsupported' && /outside the seed model/.test(e.message),
      op,
    );
  }
});

test('a program with TPRELU and TAND: both priced under seed, TADDS listed as not covered', () => {
  const TI =
    '!pto.tile_buf<loc=vec, dtype=i16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const m = parsePtoAs(`func.func @k() {
    %a = pto.alloc_tile : ${TB}
    %b = pto.alloc_tile : ${TB}
    %t = pto.alloc_tile : ${TB}
    %c = pto.alloc_tile : ${TB}
    %x = pto.alloc_tile : ${TI}
    %y = pto.alloc_tile : ${TI}
    %s = arith.constant 1.0 : f32
    pto.tprelu ins(%a, %b, %t : ${TB}, ${TB}, ${TB}) outs(%c : ${TB})
    pto.tand ins(%x, %y : ${TI}, ${TI}) outs(%x : ${TI})
    pto.tadds ins(%a, %s : ${TB}, f32) outs(%c : ${TB})
    return
  }`);
  verifyModule(m);
  const r = costProgram(m, 'seed', 'a2a3', costFunction('seed', 'a2a3'));
  assert.deepEqual(
    r.instructions.map((i) => `${i.op}:${i.cycles}`),
    ['TPRELU:2575', 'TAND:2573', 'TADDS:null'],
  );
  assert.equal(r.total, 2575 + 2573);
  assert.match(r.instructions[2]!.note ?? '', /outside the seed model/);
});
