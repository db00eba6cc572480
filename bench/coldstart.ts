/**
 * Cold start (issue 17): in a fresh process, the wall time from creating the machine to the end of
 * its first 1000 instructions (the library modules already imported: their load time is
 * docs/performance-startup.md's subject). Run by bench/run.ts once per repetition, in a child
 * process each time:
 *
 *   node --import tsx bench/coldstart.ts sfpu|amx      prints {"ms": ..., "cpuMs": ..., "ok": true|false}
 *
 * (ms: wall time; cpuMs: the process's CPU time over the same span, which on a loaded machine does
 * not count the time spent waiting for a core, but does count V8's compiler threads.)
 *
 * SFPU: SFPU-PERF.md workload (ii) (MAD-heavy, 16 words) on Wormhole for 63 repetitions (1008
 * instructions), program compilation included, run as a caller would (`runProgram`, default mode).
 * AMX: AMX-PERF.md workload (a) (fma32 matrix) 1000 times through `executeRaw`. After the timing
 * each run is continued to the N of a published digest (SFPU (ii): 1000 repetitions; AMX (a):
 * 10^6) and the digest is checked, so the timed instructions are known to be the reference's.
 */
import { performance } from 'node:perf_hooks';
import { AmxState, executeRaw, fnv1a64 } from '../src/amx/index.ts';
import { compile, runProgram, TensixState } from '../src/tensix/index.ts';
import { AMX_WORKLOADS, setUp } from './amx-workloads.ts';
import { digest, SFPU_WORKLOADS } from './sfpu-workloads.ts';

const part = process.argv[2];
let ms = 0;
let cpuMs = 0;
let ok = false;
const c0 = process.cpuUsage();
const cpu = () => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
if (part === 'sfpu') {
  const w = SFPU_WORKLOADS.find((x) => x.id === '(ii)')!;
  const t0 = performance.now();
  const st = new TensixState('wormhole');
  w.init(st);
  const prog = compile(w.words, 'wormhole');
  runProgram(st, prog, 63);
  ms = performance.now() - t0;
  cpuMs = cpu();
  runProgram(st, prog, 1000 - 63);
  ok = digest(st) === w.digests[1000];
} else if (part === 'amx') {
  const w = AMX_WORKLOADS.find((x) => x.id === '(a)')!;
  const lo = Number(w.operand & 0xffffffffn);
  const hi = Number(w.operand >> 32n);
  const t0 = performance.now();
  const s: AmxState = setUp(w);
  for (let n = 0; n < 1000; n++) executeRaw(s, w.op, lo, hi);
  ms = performance.now() - t0;
  cpuMs = cpu();
  for (let n = 1000; n < 1_000_000; n++) executeRaw(s, w.op, lo, hi);
  ok = fnv1a64(s.registerImage()) === w.digest;
} else {
  throw new Error('usage: bench/coldstart.ts sfpu|amx');
}
console.log(JSON.stringify({ ms, cpuMs, ok }));
