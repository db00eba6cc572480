import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sharedConformanceFile } from '../../conformance/shared.ts';
import { readNpy, writeNpy } from '../../io/index.ts';

const bin = fileURLToPath(new URL('../../../bin/axsim.js', import.meta.url));
const ex = (name: string) => fileURLToPath(new URL(`../../../examples/pto/${name}`, import.meta.url));
const axsim = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

test('axsim pto check: ok on an example, line:col + hint and exit 2 on a bad program', () => {
  const ok = axsim('pto', 'check', ex('softmax.pto'));
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /softmax\.pto: ok/);
  const dir = mkdtempSync(join(tmpdir(), 'axsim-pto-'));
  const bad = join(dir, 'bad.pto');
  writeFileSync(bad, 'func.func @k() {\n  pto.tmatmul_acc ins() outs(%x : f32)\n  return\n}\n');
  const r = axsim('pto', 'check', bad);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /bad\.pto:2:3: BadInput: unknown PTO operation 'pto\.tmatmul_acc'/);
  assert.match(r.stderr, /hint: did you mean 'pto\.tmatmul\.acc'\?/);
});

test('axsim pto cost prints a per-instruction table and a total for each model', () => {
  const seed = axsim('pto', 'cost', ex('add.pto'), '--model', 'seed');
  assert.equal(seed.status, 0, seed.stderr);
  assert.match(seed.stdout, /TADD\s+f32 16x64 RM\s+1\s+2575\s+continuous/);
  // + the derived transfer prices (Perf-Sim FallbackCycles 3 + 2 * 1024 / 64 = 35, two loads, one store)
  assert.match(seed.stdout, /TLOAD\s+f32 16x64 RM\s+1\s+35\s+derived: Perf-Sim/);
  assert.match(seed.stdout, /total: 2680 cycles/);
  const isa = axsim('pto', 'cost', ex('softmax.pto'), '--model', 'pto-isa');
  assert.equal(isa.status, 0, isa.stderr);
  // TLOAD of 16x128 f32 = 8192 B: floor(8192 / 2^30 / 100.9 GB/s * 1.85e9) = 139 (PTO-NOTES §4.2)
  assert.match(isa.stdout, /TLOAD\s+f32 16x128 RM\s+1\s+139\s/);
  assert.match(isa.stdout, /^total: \d+ cycles$/m);
  const a5 = axsim('pto', 'cost', ex('add.pto'), '--model', 'formula', '--profile', 'a5', '--json');
  assert.equal(a5.status, 0, a5.stderr);
  const j = JSON.parse(a5.stdout) as { arch: string; instructions: { op: string; cycles: number | null }[] };
  assert.equal(j.arch, 'a5');
  assert.ok(j.instructions.some((i) => i.op === 'TADD' && typeof i.cycles === 'number'));
  const wrong = axsim('pto', 'cost', ex('add.pto'), '--model', 'pto-isa', '--profile', 'a5');
  assert.equal(wrong.status, 2);
});

test('axsim pto run binds .npy arguments and writes the stored arrays with --out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-pto-'));
  const a = Float32Array.from({ length: 1024 }, (_, i) => i);
  const b = Float32Array.from({ length: 1024 }, () => 0.5);
  writeNpy(join(dir, 'a.npy'), { dtype: 'f4', shape: [16, 64], data: a });
  writeNpy(join(dir, 'b.npy'), { dtype: 'f4', shape: [16, 64], data: b });
  const out = join(dir, 'out');
  const r = axsim(
    'pto',
    'run',
    ex('add.pto'),
    '--arg',
    `a=${join(dir, 'a.npy')}`,
    '--arg',
    `b=${join(dir, 'b.npy')}`,
    '--arg',
    'c=zeros:16x64:f4',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /4 tile instruction\(s\) executed/);
  const c = readNpy(join(out, 'c.npy'));
  assert.deepEqual(c.shape, [16, 64]);
  assert.equal((c.data as Float32Array)[1023], 1023.5);
  const missing = axsim('pto', 'run', ex('add.pto'), '--arg', `a=${join(dir, 'a.npy')}`);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--arg b=FILE\.npy/);
});

test('axsim pto conformance runs pto-cost.jsonl.gz rows through the cost models', (t) => {
  const f = sharedConformanceFile('pto-cost.jsonl.gz');
  if (!f) return t.skip('pto-cost.jsonl.gz not found');
  const r = axsim('pto', 'conformance', f);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const m = /^(\d+) passed, 0 failed/m.exec(r.stdout);
  assert.ok(m && Number(m[1]) > 6000, r.stdout);
});

test('axsim pto run: Level-1 results, DPS writes into tile arguments, --save and --trace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-pto-'));
  const prog = join(dir, 'l1.pto');
  const T = '!pto.tile<2x4xf32>';
  const B =
    '!pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=4, v_row=2, v_col=4, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  writeFileSync(
    prog,
    `func.func @k(%a: ${T}, %b: ${T}, %d: ${B}) -> ${T} {
  %s = pto.tadd %a, %b : (${T}, ${T}) -> ${T}
  %p = pto.tmul %s, %a : (${T}, ${T}) -> ${T}
  %two = arith.constant 2.0 : f32
  pto.tmuls ins(%d, %two : ${B}, f32) outs(%d : ${B})
  return %p : ${T}
}
`,
  );
  const a = Float32Array.from({ length: 8 }, (_, i) => i + 1);
  const b = Float32Array.from({ length: 8 }, (_, i) => 0.5 * i);
  const d = Float32Array.from({ length: 8 }, (_, i) => -i);
  for (const [n, v] of [
    ['a', a],
    ['b', b],
    ['d', d],
  ] as const)
    writeNpy(join(dir, `${n}.npy`), { dtype: 'f4', shape: [2, 4], data: v });
  const r = axsim(
    'pto',
    'run',
    prog,
    ...['a', 'b', 'd'].flatMap((n) => ['--arg', `${n}=${join(dir, `${n}.npy`)}`]),
    '--save',
    `return=${join(dir, 'r.npy')}`,
    '--save',
    `%s=${join(dir, 's.npy')}`,
    '--save',
    `d=${join(dir, 'dout.npy')}`,
    '--trace',
  );
  assert.equal(r.status, 0, r.stderr);
  // (a + b) * a, sums and products of small multiples of 1/2: exact in f32
  const want = Array.from(a, (x, i) => (x + b[i]!) * x);
  assert.deepEqual(Array.from(readNpy(join(dir, 'r.npy')).data as Float32Array), want);
  assert.deepEqual(
    Array.from(readNpy(join(dir, 's.npy')).data as Float32Array),
    Array.from(a, (x, i) => x + b[i]!),
  );
  assert.deepEqual(
    Array.from(readNpy(join(dir, 'dout.npy')).data as Float32Array),
    Array.from(d, (x) => 2 * x),
  );
  // the trace names each instruction with its line and shows the inputs before and outputs after
  assert.match(
    r.stdout,
    /l1\.pto:2:3: pto\.tadd \(TADD\)\n {2}in {2}%a: Tile<vec, f32, 2x4[^\n]*\n {6}\[1, 2, 3, 4\]/,
  );
  assert.match(
    r.stdout,
    /l1\.pto:5:3: pto\.tmuls \(TMULS\)[\s\S]*?in {2}%two = 2[\s\S]*?out %d: [^\n]*\n {6}\[0, -2, -4, -6\]/,
  );
  // the summary lists the tile argument and the result
  assert.match(r.stdout, /%d: Tile<vec, f32, 2x4/);
  assert.match(r.stdout, /return0: Tile<vec, f32, 2x4/);
  const bad = axsim('pto', 'run', prog, '--save', `nope=${join(dir, 'x.npy')}`);
  assert.equal(bad.status, 2);
});
