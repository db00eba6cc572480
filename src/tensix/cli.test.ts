import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { requireConformanceFile } from '../conformance/shared.ts';
import { readNpy, writeNpy } from '../io/index.ts';
import { runTensixCli } from './cli-testkit.ts';

const dir = mkdtempSync(join(tmpdir(), 'axsim-tensix-cli-'));
const repo = fileURLToPath(new URL('../../', import.meta.url));

const cli = runTensixCli;

test('tensix run: ReLU example over one FP32 tile gives max(x, 0) bit for bit', async () => {
  const x = new Float32Array(1024);
  for (let i = 0; i < 1024; i++) x[i] = (i - 512) / 7;
  x[5] = -0;
  const inp = join(dir, 'in.npy');
  const outp = join(dir, 'out.npy');
  writeNpy(inp, { dtype: 'f4', shape: [1, 32, 32], data: x });
  const r = await cli([
    'tensix',
    'run',
    join(repo, 'examples/tensix/relu.sfpu'),
    '--dst',
    inp,
    '--out',
    outp,
  ]);
  assert.equal(r.code, undefined, r.out);
  assert.match(r.out, /ran \d+ instructions/);
  const y = readNpy(outp);
  assert.deepEqual(y.shape, [1, 32, 32]);
  const yb = new Uint32Array((y.data as Float32Array).buffer);
  const xb = new Uint32Array(x.buffer);
  for (let i = 0; i < 1024; i++) {
    // negative (sign bit set) -> +0, everything else unchanged
    assert.equal(yb[i], xb[i]! >>> 31 ? 0 : xb[i], `element ${i}`);
  }
});

test('tensix run: raw words and --json summary; tensix conformance on a small file', async () => {
  const prog = join(dir, 'p.hex');
  // SFPLOADI L1 = 0x3f80 (bf16 1.0); SFPMOV L2 = -L1
  writeFileSync(prog, '0x71103f80 0x7c000121\n');
  const r = await cli(['tensix', 'run', prog, '--json']);
  const j = JSON.parse(r.out);
  assert.deepEqual(j.lregChanged, ['L1', 'L2']);
  assert.equal(j.lreg[2][0], 0xbf800000);
  const f = requireConformanceFile('sfpu-wh.jsonl.gz');
  if (f.path) {
    const c = await cli(['tensix', 'conformance', f.path, '--filter', 'SFPNOP']);
    assert.match(c.out, /^\d+ passed, 0 failed$/m);
    assert.equal(c.code, undefined);
  }
});
