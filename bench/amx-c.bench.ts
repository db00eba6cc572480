/**
 * Issue 14's speed row: the C layer's cost. The same 32 x 32 sgemm (examples/amx/c/sgemm_fma32.c,
 * K = 1024: 8,258 AMX instructions) is run (a) as C through the front end, with the AMX
 * instructions executed as the C code issues them, and (b) as the pre-assembled words of the
 * instructions (a) issued, executed back to back by executeRaw on the same data. Reports the
 * instruction rate of both and the ratio (target: the C layer adds < 2x). CPU time, median of 5
 * after 2 warm-up runs.
 *
 * Run: node --import tsx bench/amx-c.bench.ts [K]
 */
import { readFileSync } from 'node:fs';
import { runAmxC, zeroArray } from '../src/amx/c/run.ts';
import { AmxMemory, AmxState, executeRaw } from '../src/amx/index.ts';

const K = Number(process.argv[2] ?? 1024);
const src = readFileSync(new URL('../examples/amx/c/sgemm_fma32.c', import.meta.url), 'utf8');
const A = Float32Array.from({ length: K * 32 }, (_, i) => ((i % 7) - 3) / 4);
const B = Float32Array.from({ length: K * 32 }, (_, i) => ((i % 5) - 2) / 2);
const args = () => ({
  A: { dtype: 'f4' as const, shape: [K, 32], bytes: new Uint8Array(A.buffer.slice(0)) },
  B: { dtype: 'f4' as const, shape: [K, 32], bytes: new Uint8Array(B.buffer.slice(0)) },
  C: zeroArray('f4', [32, 32]),
});
const cpu = (f: () => void): number => {
  const t0 = process.cpuUsage();
  f();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// the trace of (a), and the memory image it ran on, for (b)
const first = runAmxC(src, { entry: `sgemm(32, 32, ${K}, A, B, C)`, args: args(), trace: true });
const n = first.ops.length;
const op = new Uint8Array(n);
const lo = new Uint32Array(n);
const hi = new Uint32Array(n);
first.ops.forEach((o, i) => {
  op[i] = o.op;
  lo[i] = Number(o.operand & 0xffffffffn);
  hi[i] = Number(o.operand >> 32n);
});
let minAddr = 2 ** 32;
let maxAddr = 0;
for (let i = 0; i < n; i++)
  if (op[i]! <= 7) {
    minAddr = Math.min(minAddr, lo[i]!);
    maxAddr = Math.max(maxAddr, lo[i]! + 128);
  }
const cTimes: number[] = [];
const wTimes: number[] = [];
for (let rep = 0; rep < 7; rep++) {
  cTimes.push(cpu(() => runAmxC(src, { entry: `sgemm(32, 32, ${K}, A, B, C)`, args: args() })));
  const mem = new AmxMemory();
  mem.map(BigInt(minAddr), maxAddr - minAddr);
  const s = new AmxState({ gen: 'm1', mem });
  wTimes.push(
    cpu(() => {
      for (let i = 0; i < n; i++) executeRaw(s, op[i]!, lo[i]!, hi[i]!);
    }),
  );
}
const c = median(cTimes.slice(2));
const w = median(wTimes.slice(2));
process.stdout.write(
  `| sgemm 32x32, K=${K} (${n} AMX instructions) | C: ${(c * 1e3).toFixed(1)} ms, ${(n / c / 1e3).toFixed(0)} k instr/s | words: ${(w * 1e3).toFixed(2)} ms, ${(n / w / 1e3).toFixed(0)} k instr/s | C / words: ${(c / w).toFixed(1)}x (target < 2x) |\n`,
);
