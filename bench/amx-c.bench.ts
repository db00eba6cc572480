/**
 * Issue 14's speed row: the C layer's cost. The same 32 x 32 sgemm (examples/amx/c/sgemm_fma32.c,
 * K = 1024: 8,258 AMX instructions) is run (a) as C through the front end, with the AMX
 * instructions executed as the C code issues them, and (b) as the pre-assembled words of the
 * instructions (a) issued, executed back to back by executeRaw on the same data. Reports the
 * instruction rate of both and the ratio (target: the C layer adds < 2x). CPU time, median of 11
 * after 15 warm-up runs of each (the front end's own code needs that many runs to be compiled by
 * V8), interleaved (so machine load hits both alike).
 *
 * Rows: "whole run" counts everything (a) does — binding the arrays and running, with the
 * program (preprocessed, parsed, compiled to closures) kept by runAmxC from the previous run of the
 * same source; "steady state" is the rate once running: the time of the K run minus the time of a
 * K0 = 4 run, for (a) and (b) alike, over the instructions between; "program loaded anew" is the
 * whole run with `cache: false` (preprocess, parse and compile every time, fresh closures).
 *
 * Run: node --import tsx bench/amx-c.bench.ts [K]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { runAmxC, zeroArray } from '../src/amx/c/run.ts';
import { AmxMemory, AmxState, executeRaw } from '../src/amx/index.ts';

export interface AmxCRow {
  label: string;
  /** The C run's C equals the words run's C (bytes the STZ instructions stored). */
  sameResult: boolean;
  instructions: number;
  cMs: number;
  wordsMs: number;
  ratio: number;
}

const src = readFileSync(new URL('../examples/amx/c/sgemm_fma32.c', import.meta.url), 'utf8');
const cpu = (f: () => void): number => {
  const t0 = process.cpuUsage();
  f();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU seconds (median) of the C run and of the words run for one K, and the instruction count. */
function measure(
  K: number,
  reps: number,
  warm: number,
  cache = true,
): { c: number; w: number; n: number; same: boolean } {
  const A = Float32Array.from({ length: K * 32 }, (_, i) => ((i % 7) - 3) / 4);
  const B = Float32Array.from({ length: K * 32 }, (_, i) => ((i % 5) - 2) / 2);
  const args = () => ({
    A: { dtype: 'f4' as const, shape: [K, 32], bytes: new Uint8Array(A.buffer.slice(0)) },
    B: { dtype: 'f4' as const, shape: [K, 32], bytes: new Uint8Array(B.buffer.slice(0)) },
    C: zeroArray('f4', [32, 32]),
  });
  const entry = `sgemm(32, 32, ${K}, A, B, C)`;
  // the trace of (a), and the memory image it ran on, for (b)
  const first = runAmxC(src, { entry, args: args(), trace: true });
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
  let aBase = 2 ** 32;
  let bBase = 2 ** 32;
  for (let i = 0; i < n; i++) {
    if (op[i] === 0) aBase = Math.min(aBase, lo[i]!);
    if (op[i] === 1) bBase = Math.min(bBase, lo[i]!);
  }
  const cTimes: number[] = [];
  const wTimes: number[] = [];
  let same = true;
  for (let rep = 0; rep < warm + reps; rep++) {
    const a = args();
    cTimes.push(cpu(() => runAmxC(src, { entry, args: a, cache })));
    const mem = new AmxMemory();
    mem.map(BigInt(minAddr), maxAddr - minAddr);
    // the same data: A and B where the C run had them (the lowest LDX / LDY addresses)
    mem.writeBytes(BigInt(aBase), new Uint8Array(A.buffer));
    mem.writeBytes(BigInt(bBase), new Uint8Array(B.buffer));
    const s = new AmxState({ gen: 'm1', mem });
    wTimes.push(
      cpu(() => {
        for (let i = 0; i < n; i++) executeRaw(s, op[i]!, lo[i]!, hi[i]!);
      }),
    );
    if (rep === 0) {
      // every row an STZ stored, in the words run's memory, against the C run's C
      const cBytes = first.arrays.C!.bytes;
      let base = 2 ** 32;
      for (let i = 0; i < n; i++) if (op[i] === 5) base = Math.min(base, lo[i]!);
      for (let i = 0; i < n; i++) {
        if (op[i] !== 5) continue;
        const w = mem.readBytes(BigInt(lo[i]!), 64);
        const c = cBytes.subarray(lo[i]! - base, lo[i]! - base + 64);
        if (c.length !== 64 || w.some((x, k) => x !== c[k])) same = false;
      }
    }
  }
  return { c: median(cTimes.slice(warm)), w: median(wTimes.slice(warm)), n, same };
}

/**
 * The rows for sgemm with K: whole run and steady state with the program kept from the previous
 * run of the same source (runAmxC's default), and the whole run of a program loaded anew each
 * time (`cache: false`: preprocess, parse, compile, and V8 running fresh closures).
 */
export function amxCRows(K = 1024, reps = 11, warm = 15): AmxCRow[] {
  const big = measure(K, reps, warm);
  const small = measure(4, reps, warm);
  const cold = measure(K, reps, warm, false);
  const dn = big.n - small.n;
  const dc = big.c - small.c;
  const dw = big.w - small.w;
  return [
    {
      label: `sgemm 32x32 K=${K}, whole run`,
      sameResult: big.same,
      instructions: big.n,
      cMs: big.c * 1e3,
      wordsMs: big.w * 1e3,
      ratio: big.c / big.w,
    },
    {
      label: `sgemm 32x32 K=4..${K}, steady state`,
      sameResult: big.same && small.same,
      instructions: dn,
      cMs: dc * 1e3,
      wordsMs: dw * 1e3,
      ratio: dc / dw,
    },
    {
      label: `sgemm 32x32 K=${K}, whole run, program loaded anew`,
      sameResult: cold.same,
      instructions: cold.n,
      cMs: cold.c * 1e3,
      wordsMs: cold.w * 1e3,
      ratio: cold.c / cold.w,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const K = Number(process.argv[2] ?? 1024);
  process.stdout.write(`load average ${loadavg()[0]!.toFixed(1)}\n`);
  for (const r of amxCRows(K))
    process.stdout.write(
      `| ${r.label} (${r.instructions} AMX instructions) | C: ${r.cMs.toFixed(1)} ms, ${(r.instructions / r.cMs).toFixed(0)} k instr/s | words: ${r.wordsMs.toFixed(2)} ms, ${(r.instructions / r.wordsMs).toFixed(0)} k instr/s | C / words: ${r.ratio.toFixed(2)}x (target < 2x) |\n`,
    );
}
