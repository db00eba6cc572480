/** The `axsim amx …` commands, run as a user would (one process per command). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { requireConformanceFile } from '../conformance/shared.ts';
import { readNpy, writeNpy } from '../io/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
function axsim(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'amx', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

test('amx run: .data + --mem FILE.npy@ADDR, program result dumped from memory, --json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-amx-'));
  writeNpy(join(dir, 'x.npy'), {
    dtype: 'f4',
    shape: [16],
    data: Float32Array.from({ length: 16 }, (_, i) => i + 1),
  });
  const prog = join(dir, 'p.amx');
  writeFileSync(
    prog,
    [
      'set',
      '.data 0x20000 f32 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2',
      '.space 0x30000 64',
      'ldx address=0x10000',
      'ldy address=0x20000',
      'fma32 mode=vector z_row=1',
      'stz z_row=1 address=0x30000',
    ].join('\n'),
  );
  const r = axsim('run', prog, '--mem', `${join(dir, 'x.npy')}@0x10000`, '--dump', 'mem:0x30000:8', '--json');
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as Record<string, string>;
  // lanes 0 and 1: 1*2 = 2.0 (0x40000000), 2*2 = 4.0 (0x40800000), little-endian bytes
  assert.equal(doc['mem:0x30000'], '0000004000008040');
});

test('amx disasm prints every field with its meaning; amx asm prints AMX_*(operand) lines', () => {
  const r = axsim('disasm', '-e', 'fma32 0x880000310000');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^fma32 mode=matrix .*x_enable=first:4 .*z_row=3 x_offset=0x40 y_offset=0x0/m);
  assert.match(r.out, /z_row=3: rows 3,7,11,… \(one row of each 4\) in f32 matrix mode/);
  const dir = mkdtempSync(join(tmpdir(), 'axsim-amx-'));
  writeFileSync(join(dir, 'a.amx'), 'fma32 z_row=3 x_offset=0x40 x_enable=first:4\nset\n');
  const a = axsim('asm', join(dir, 'a.amx'));
  assert.equal(a.code, 0, a.err);
  assert.match(a.out, /AMX_FMA32\(0x0000880000310000\)/);
  assert.match(a.out, /AMX_SET\(\)/);
});

test('amx errors: unknown instruction with line:col and a hint, exit code 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-amx-'));
  writeFileSync(join(dir, 'bad.amx'), 'set\n  fmaa32 z_row=1\n');
  const r = axsim('run', join(dir, 'bad.amx'));
  assert.equal(r.code, 2);
  assert.match(r.err, /bad\.amx:2:3: BadInput: unknown AMX instruction 'fmaa32'/);
  assert.match(r.err, /did you mean fma32/);
});

test('amx perf --table prints predicted next to measured; amx conformance prints N passed, M failed', (t) => {
  const p = axsim('perf', '--table', 'fma32-matrix');
  assert.equal(p.code, 0, p.err);
  assert.match(p.out, /\| 1 \| \d+ \/ 367\.6 \(\d+%\)/);
  const f = requireConformanceFile('amx.jsonl.gz');
  if (!f.path) {
    t.skip(f.skip);
    return;
  }
  const c = axsim('conformance', f.path, '--filter', 'genlut-00');
  assert.equal(c.code, 0, c.err);
  assert.match(c.out, /^\d+ passed, 0 failed$/m);
});

test('amx run kernel.c: --entry, --arg .npy and zeros, --save, --ref, --cycles, C errors at line:col', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-amxc-'));
  // A (K x M) and B (K x N) with small dyadic values: every sum exact, so the kernel and its
  // scalar reference agree bit for bit and the saved C equals the plain product B^T A.
  const [M, N, K] = [32, 32, 4];
  const A = Float32Array.from({ length: K * M }, (_, i) => ((i * 7) % 9) - 4);
  const B = Float32Array.from({ length: K * N }, (_, i) => (((i * 5) % 7) - 3) / 2);
  writeNpy(join(dir, 'a.npy'), { dtype: 'f4', shape: [K, M], data: A });
  writeNpy(join(dir, 'b.npy'), { dtype: 'f4', shape: [K, N], data: B });
  const out = join(dir, 'c.npy');
  const r = axsim(
    'run',
    'examples/amx/c/sgemm_fma32.c',
    '--entry',
    `sgemm(${M}, ${N}, ${K}, A, B, C)`,
    '--arg',
    `A=${join(dir, 'a.npy')}`,
    `B=${join(dir, 'b.npy')}`,
    'C=f4:32x32',
    '--save',
    `C=${out}`,
    '--ref',
    'sgemm_ref',
    '--cycles',
    '--gen',
    'm3',
  );
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /issued: 98\n/); // set, 4 x (4 ld + 4 fma), 64 stz, clr
  assert.match(r.out, /ref sgemm_ref: C: identical to the reference \(1024 f4 elements\)/);
  assert.match(r.out, /\| fma32-matrix \| 16 \|/);
  assert.match(r.out, /ASSUMPTION/);
  const c = readNpy(out);
  assert.deepEqual(c.shape, [32, 32]);
  for (let n = 0; n < N; n++)
    for (let m = 0; m < M; m++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += A[k * M + m]! * B[k * N + n]!;
      assert.equal(c.data[n * M + m], s);
    }
  // a C error: line and column of the offending expression in the kernel file
  const bad = join(dir, 'bad.c');
  writeFileSync(bad, '#include "aarch64.h"\nvoid f(void) {\n  AMX_SET();\n  int x = y + 1;\n}\n');
  const e = axsim('run', bad, '--entry', 'f()');
  assert.notEqual(e.code, 0);
  assert.match(e.err, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: `));
  // .amx-only and C-only options are not mixed up
  assert.match(axsim('run', bad, '--mem', 'x.npy@0').err, /--mem/);
});
