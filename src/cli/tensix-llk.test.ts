/**
 * `axsim tensix run kernel.h --entry ...` (docs/tensix-llk.md) on our own fixture kernel.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readNpy, writeNpy } from '../io/index.ts';
import { runTensixCli as cli } from '../tensix/cli-testkit.ts';

const dir = mkdtempSync(join(tmpdir(), 'axsim-llk-cli-'));
const KERNEL = join(import.meta.dirname, '../../test/fixtures/llk/env_probe.h');

describe('tensix run kernel.h --entry: the LLK environment from the CLI', () => {
  // a 32x32 FP32 tile of small integers (exact under +1 and *2)
  const input = Float32Array.from({ length: 1024 }, (_, i) => (i % 17) - 8);
  const inFile = join(dir, 'in.npy');
  writeNpy(inFile, { dtype: 'f4', shape: [32, 32], data: input });
  it('--sfpu-type typecast programs ADDR_MOD_6: every element + 1', async () => {
    const out = join(dir, 'out1.npy');
    const r = await cli([
      'tensix',
      'run',
      KERNEL,
      '--entry',
      '_probe_add_one_<8>',
      '--sfpu-type',
      'typecast',
      '--dst',
      inFile,
      '--out',
      out,
    ]);
    assert.equal(r.code, undefined, r.err);
    assert.match(r.err, /LLK set-up: unary SFPU API, SfpuType::typecast, faces rc/);
    const o = readNpy(out).data as Float32Array;
    for (let i = 0; i < 1024; i++) assert.equal(o[i], input[i]! + 1, `element ${i}`);
  });
  it('--init runs the op init first; --bare runs only the calls', async () => {
    const out = join(dir, 'out2.npy');
    const r = await cli([
      'tensix',
      'run',
      KERNEL,
      '--entry',
      '_probe_scale_<8>',
      '--init',
      '_init_probe_scale_()',
      '--dst',
      inFile,
      '--out',
      out,
    ]);
    assert.equal(r.code, undefined, r.err);
    const o = readNpy(out).data as Float32Array;
    for (let i = 0; i < 1024; i++) assert.equal(o[i], 2 * input[i]!);
    const bare = await cli([
      'tensix',
      'run',
      KERNEL,
      '--entry',
      '_probe_scale_<8>',
      '--bare',
      '--dst',
      inFile,
    ]);
    assert.match(bare.err, /LLK set-up: none \(--bare\)/);
  });
  it('a bad --vector-mode or an entry with two statements is a usage error', async () => {
    const a = await cli(['tensix', 'run', KERNEL, '--entry', '_probe_add_one_<8>', '--vector-mode', 'x']);
    assert.notEqual(a.code, undefined);
    assert.match(a.err, /--vector-mode x/);
    const b = await cli(['tensix', 'run', KERNEL, '--entry', 'a(); b()']);
    assert.match(b.err, /one C\+\+ call expression/);
  });
  it('--l1 ADDR=FILE maps bytes the kernel reads through a pointer (own fixture, reshuffle_rows shape)', async () => {
    const L1 = join(import.meta.dirname, '../../test/fixtures/llk/l1_map.h');
    const map = join(dir, 'map.bin');
    // a 16-byte header, then the table 5, 255 (skip), 200, 7
    writeFileSync(map, Uint8Array.from([...new Array(16).fill(0), 5, 255, 200, 7]));
    const out = join(dir, 'l1.npy');
    const zeros = join(dir, 'zeros.npy');
    writeNpy(zeros, { dtype: 'i4', shape: [32, 32], data: new Int32Array(1024) });
    const args = ['tensix', 'run', L1, '--entry', '_calculate_l1_to_dst_(0x20000u)', '--vector-mode', 'none'];
    const r = await cli([
      ...args,
      '--l1',
      `0x20000=${map}`,
      '--dst',
      zeros,
      '--out',
      out,
      '--out-format',
      'int32',
    ]);
    assert.equal(r.code, undefined, r.err);
    const o = readNpy(out).data as Int32Array;
    // entry i lands in tile rows 4i..4i+3 (face 0), even columns
    assert.deepEqual([o[0], o[2], o[3 * 32 + 14], o[1]], [5, 5, 5, 0]);
    assert.deepEqual([o[4 * 32], o[8 * 32], o[12 * 32 + 6]], [0, 200, 7]);
    // without the mapping the read is an error, not a number
    const e = await cli([...args, '--dst', zeros]);
    assert.notEqual(e.code, undefined);
    assert.match(e.err, /unmapped memory at 0x20010/);
  });
});
