import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assemble, runProgram } from './asm.ts';
import { AmxState } from './state.ts';

const K = 4;
// The data formula written in the example files' headers.
const a = (k: number, r: number) => (((32 * k + r) % 13) - 6) / 8;
const b = (k: number, c: number) => (((32 * k + c) % 11) - 5) / 8;

/**
 * Plain TypeScript matmul with the hardware's rounding: one f32 rounding per multiply-add, in k
 * order. With these operands (multiples of 1/8, |v| <= 0.75, K = 4) every a*b + c is exact in
 * double, so Math.fround of the double expression is that single rounding.
 */
function reference(): Float32Array {
  const c = new Float32Array(32 * 32);
  for (let k = 0; k < K; k++) {
    for (let r = 0; r < 32; r++) {
      for (let col = 0; col < 32; col++)
        c[r * 32 + col] = Math.fround(a(k, r) * b(k, col) + c[r * 32 + col]!);
    }
  }
  return c;
}

function runExample(name: string): Float32Array {
  const url = new URL(`../../examples/amx/${name}`, import.meta.url);
  const prog = assemble(readFileSync(url, 'utf8'), name);
  const s = new AmxState({ gen: 'm1' });
  s.requireEnabled = true;
  runProgram(prog, s);
  const bytes = s.mem.readBytes(0x30000n, 4096);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 4096));
}

test('examples/amx/matmul_f32.amx computes the 32x32 tile of a plain matmul', () => {
  assert.deepEqual(Array.from(runExample('matmul_f32.amx')), Array.from(reference()));
});

test('examples/amx/matmul_f16_f32.amx (f16 panels, f32 accumulation) computes the same tile', () => {
  const ref = reference();
  const got = runExample('matmul_f16_f32.amx');
  assert.deepEqual(Array.from(got), Array.from(ref));
  // Spot check one element by hand: C[0][0] = sum_k a(k,0) b(k,0).
  let c00 = 0;
  for (let k = 0; k < K; k++) c00 += a(k, 0) * b(k, 0);
  assert.equal(got[0], c00);
});
