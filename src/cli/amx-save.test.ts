/** `axsim amx run --save`: registers and memory written as .npy arrays (run as a user would). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readNpy } from '../io/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
function axsim(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'amx', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

// X row 0 = 1..16, Y row 0 = 2 everywhere; fma32 vector mode adds X * Y into Z row 1 (Z starts at
// zero, corsix fma.md), so Z row 1 = 2, 4, ..., 32, stored to 0x30000 by stz.
const PROG = [
  'set',
  '.data 0x10000 f32 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16',
  '.data 0x20000 f32 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2',
  '.space 0x30000 64',
  'ldx address=0x10000',
  'ldy address=0x20000',
  'fma32 mode=vector z_row=1',
  'stz z_row=1 address=0x30000',
].join('\n');

test('amx run --save: z as [64, 16] f4, memory with dtype and shape, x as i4 bits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-amx-save-'));
  const prog = join(dir, 'p.amx');
  writeFileSync(prog, PROG);
  const z = join(dir, 'z.npy');
  const c = join(dir, 'c.npy');
  const x = join(dir, 'x.npy');
  const r = axsim('run', prog, '--save', `z=${z}`, `mem:0x30000:64:f4:4x4=${c}`, `x:u4=${x}`, '--json');
  assert.equal(r.code, 0, r.err);
  const zs = readNpy(z);
  assert.equal(zs.dtype, 'f4');
  assert.deepEqual(zs.shape, [64, 16]);
  const want = Array.from({ length: 16 }, (_, i) => 2 * (i + 1));
  assert.deepEqual(Array.from(zs.data.subarray(16, 32) as Float32Array), want);
  assert.ok((zs.data as Float32Array).subarray(0, 16).every((v) => v === 0));
  const cs = readNpy(c);
  assert.deepEqual(cs.shape, [4, 4]);
  assert.deepEqual(Array.from(cs.data as Float32Array), want);
  const xs = readNpy(x);
  assert.equal(xs.dtype, 'u4');
  assert.deepEqual(xs.shape, [8, 16]);
  assert.equal((xs.data as Uint32Array)[0], 0x3f800000); // 1.0f
  assert.equal((xs.data as Uint32Array)[15], 0x41800000); // 16.0f
  // --save alone prints no register dump
  assert.doesNotMatch(r.out, /"z0"/);
});

test('amx run --save: malformed specs are BadInput errors naming the spec', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-amx-save-'));
  const prog = join(dir, 'p.amx');
  writeFileSync(prog, PROG);
  for (const [spec, what] of [
    ['z:f5=a.npy', /dtype 'f5'/],
    ['q=a.npy', /WHAT is x, y, z or mem/],
    ['z', /WHAT\[:DTYPE\]=FILE/],
    ['mem:0x30000:6:f4=a.npy', /6 bytes are not a whole number of f4/],
    ['mem:0x30000:64:f4:3x3=a.npy', /does not hold 16 f4 elements/],
    ['mem:0x30000:64:f4:4y4=a.npy', /is not like 32x32/],
    ['mem:zz:64=a.npy', /not an address/],
  ] as const) {
    const r = axsim('run', prog, '--save', spec.replace('a.npy', join(dir, 'a.npy')));
    assert.equal(r.code, 2, spec);
    assert.match(r.err, /BadInput/, spec);
    assert.match(r.err, what, spec);
  }
});
