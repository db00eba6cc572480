import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_INPUTS } from '../../../examples/pto/make-inputs.ts';
import { type NpyArray, readNpy } from '../../io/index.ts';
import { bitsToF32, fp16ToF32Bits } from '../../numeric/index.ts';
import { runProgram } from './index.ts';
import { loadProgram } from './load.ts';

// The run commands of examples/pto/README.md, executed as written (argument parsing done here
// in-process: FILE.npy, NUMBER, zeros:RxC:f4), with results checked against values computed in
// this file from the inputs.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(`${root}examples/pto/README.md`, 'utf8');

function runCommands(): string[][] {
  const block = /## Run[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((l) => l.includes(' pto run '))
    .map((l) => l.trim().split(/\s+/));
}

function argValue(v: string): NpyArray | number {
  const z = /^zeros:(\d+)x(\d+):f4$/.exec(v);
  if (z)
    return {
      dtype: 'f4',
      shape: [Number(z[1]), Number(z[2])],
      data: new Float32Array(Number(z[1]) * Number(z[2])),
    };
  if (/^-?[\d.]+$/.test(v)) return Number(v);
  return readNpy(`${root}${v}`);
}

const f32 = (a: NpyArray | number) => Array.from((a as NpyArray).data as Float32Array);
const f16 = (a: NpyArray | number) =>
  Array.from((a as NpyArray).data as Uint16Array).map((u) => bitsToF32(fp16ToF32Bits(u)));

const CHECK: Record<string, (args: Record<string, NpyArray | number>) => void> = {
  'add.pto': ({ a, b, c }) => {
    const A = f32(a!);
    const B = f32(b!);
    f32(c!).forEach((v, i) => {
      assert.equal(v, Math.fround(A[i]! + B[i]!), `c[${i}]`);
    });
  },
  'add-scalar.pto': ({ a, s, c }) => {
    const A = f32(a!);
    f32(c!).forEach((v, i) => {
      assert.equal(v, Math.fround(A[i]! + (s as number)), `c[${i}]`);
    });
  },
  'softmax.pto': ({ x, y }) => {
    const X = f32(x!);
    const Y = f32(y!);
    for (let r = 0; r < 16; r++) {
      const row = X.slice(r * 128, r * 128 + 128);
      const m = Math.max(...row);
      const e = row.map((v) => Math.exp(v - m));
      const s = e.reduce((p, q) => p + q, 0);
      for (let k = 0; k < 128; k++) assert.ok(Math.abs(Y[r * 128 + k]! - e[k]! / s) < 1e-6, `y(${r}, ${k})`);
    }
  },
  'matmul.pto': ({ a, b, c }) => {
    const A = f16(a!);
    const B = f16(b!);
    const C = f32(c!);
    for (let i = 0; i < 16; i++) {
      for (let j = 0; j < 16; j++) {
        let s = 0;
        for (let k = 0; k < 32; k++) s += A[i * 32 + k]! * B[k * 16 + j]!;
        // quarter-integer inputs: every product and partial sum is exact in f32
        assert.equal(C[i * 16 + j], 2 * s, `c(${i}, ${j})`);
      }
    }
  },
  'dynamic-valid.pto': ({ x, y }) => {
    const X = f32(x!);
    const Y = f32(y!);
    // iteration 1 has 31 valid columns: y's last element keeps its initial 0 although x's is positive
    assert.ok(X[63]! > 0);
    Y.forEach((v, i) => {
      assert.equal(v, i === 63 ? 0 : Math.max(0, X[i]!), `y[${i}]`);
    });
  },
};

test('examples/pto/README.md run commands work as written and give the expected values', () => {
  const cmds = runCommands();
  assert.equal(cmds.length, 5);
  for (const words of cmds) {
    const file = words[words.indexOf('run') + 1]!;
    const args: Record<string, NpyArray | number> = {};
    words.forEach((w, i) => {
      if (w === '--arg') {
        const [k, v] = words[i + 1]!.split('=') as [string, string];
        args[k] = argValue(v);
      }
    });
    runProgram(loadProgram(`${root}${file}`), args);
    CHECK[file.split('/').pop()!]!(args);
  }
});

test('the committed example inputs are what examples/pto/make-inputs.ts generates', () => {
  for (const [name, arr] of Object.entries(EXAMPLE_INPUTS)) {
    const got = readNpy(`${root}examples/pto/${name}`);
    assert.equal(got.dtype, arr.dtype, name);
    assert.deepEqual(got.shape, arr.shape, name);
    assert.deepEqual(
      Array.from(got.data as ArrayLike<number>),
      Array.from(arr.data as ArrayLike<number>),
      name,
    );
  }
});

test('the first README command through the real CLI (bin/axsim.js)', () => {
  const words = runCommands()[0]!;
  const r = spawnSync(process.execPath, [`${root}bin/axsim.js`, ...words.slice(words.indexOf('pto'))], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /@add: 4 tile instruction\(s\) executed/);
});
