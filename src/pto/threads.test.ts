import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../errors.ts';
import type { WasmMemory } from '../wasm.ts';
import { createTile, execute, prepare, type Tile } from './index.ts';
import { configureThreads, simdF32Split, simdKernel, THREAD_MIN_ELEMS } from './simd.ts';
import { F32Threads } from './threads.ts';

// (the project's TypeScript lib declares no WebAssembly values)
const WA = (globalThis as unknown as { WebAssembly: { Memory: new (d: object) => WasmMemory } }).WebAssembly;

// Large f32 TADD/TSUB/TMUL/TDIV calls are split across worker threads (src/pto/threads.ts). Every
// element is computed by itself, so the result must be Math.fround of the double operation
// wherever it is computed, whichever thread runs which chunk, and nothing outside [0, n) may change.

const OPS = [
  (x: number, y: number) => x + y,
  (x: number, y: number) => x - y,
  (x: number, y: number) => x * y,
  (x: number, y: number) => x / y,
] as const;

/** Values with varied exponents and signs, subnormals, zeros, infinities and NaN among them. */
function values(len: number, seed: number): Float32Array {
  const special = [0, -0, 1.4e-45, -1.4e-45, 1.1754942e-38, 3.4028234663852886e38, -Infinity, Number.NaN];
  const out = new Float32Array(len);
  let s = seed >>> 0;
  for (let i = 0; i < len; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] =
      i % 97 === 5
        ? special[(s >>> 8) % special.length]!
        : ((s >>> 8) / 2 ** 24 - 0.5) * 2 ** ((s % 61) - 30);
  }
  return out;
}

function tile(len: number, data: Float32Array): Tile {
  return createTile({ dtype: 'f32', rows: 1, cols: len }, data);
}

/** Checks d[i] == fround(f(a[i], b[i])) for i < n and d[i] == before[i] for n <= i. */
function check(
  d: Float32Array,
  a: Float32Array,
  b: Float32Array,
  before: Float32Array,
  n: number,
  op: number,
) {
  for (let i = 0; i < d.length; i++) {
    const want = i < n ? Math.fround(OPS[op]!(a[i]!, b[i]!)) : before[i]!;
    const got = d[i]!;
    if (Number.isNaN(want) ? !Number.isNaN(got) : !Object.is(got, want)) {
      assert.fail(`op ${op}, n ${n}, element ${i}: ${got} instead of ${want}`);
    }
  }
}

async function running(workers: number): Promise<F32Threads> {
  const t = configureThreads({ workers });
  assert.ok(t, 'helper threads start on this host (Node.js, shared memory)');
  // workers start asynchronously: wait (no time limit asserted; node:test's own timeout applies)
  while (t.live() < workers) await new Promise((r) => setTimeout(r, 5));
  return t;
}

// lengths around the chunk size (16 384), the 256/64/16-byte blocks, and more chunks than a part holds
const LENGTHS = [1, 3, 64, 1000, 16383, 16384, 16385, 3 * 16384 + 17, 100_003, 16384 * 40 + 65];

test('split calls are exact at many lengths, run by the workers alone or together with the caller', async () => {
  const t = await running(2);
  const size = LENGTHS.at(-1)! + 64;
  const a = tile(size, values(size, 1));
  const b = tile(size, values(size, 2));
  const d = tile(size, values(size, 3));
  for (const n of LENGTHS) {
    for (let op = 0; op < 4; op++) {
      for (const callerWorks of [false, true]) {
        const before = d.f32().slice();
        const w0 = t.workerChunks();
        t.run(op, d.poolAddr, a.poolAddr, b.poolAddr, n, callerWorks);
        if (!callerWorks) assert.ok(t.workerChunks() > w0, 'the workers ran the chunks');
        check(d.f32(), a.f32(), b.f32(), before, n, op);
      }
    }
  }
  configureThreads(false);
});

test('split calls in place (d is a source) are exact', async () => {
  const t = await running(1);
  const n = 16384 * 5 + 33;
  for (let op = 0; op < 4; op++) {
    for (const which of ['a', 'b', 'ab'] as const) {
      const x = values(n, 10 + op);
      const y = values(n, 20 + op);
      const a = tile(n, x);
      const b = which === 'ab' ? a : tile(n, y);
      const d = which === 'b' ? b : a;
      const yy = which === 'ab' ? x : y;
      t.run(op, d.poolAddr, a.poolAddr, b.poolAddr, n, false);
      check(d.f32(), x, yy, x, n, op);
    }
  }
  configureThreads(false);
});

test('a d that partly overlaps a source is not split: the forward order is kept', async () => {
  await running(1);
  const n = THREAD_MIN_ELEMS + 100;
  const big = tile(n + 64, values(n + 64, 5));
  const b = tile(n, values(n, 6));
  const m = big.f32().slice();
  const y = b.f32();
  // d = a + 16 elements: element i reads a[i], written earlier as d[i - 16] when running forwards
  for (let i = 0; i < n; i++) m[i + 16] = Math.fround(m[i]! + y[i]!);
  simdF32Split(0, big.poolAddr + 64, big.poolAddr, b.poolAddr, n);
  const got = big.f32();
  for (let i = 0; i < m.length; i++) {
    if (!Object.is(got[i], m[i]) && !(Number.isNaN(got[i]!) && Number.isNaN(m[i]!))) {
      assert.fail(`element ${i}: ${got[i]} instead of ${m[i]}`);
    }
  }
  configureThreads(false);
});

test('the workers see tiles made after the shared memory grew', async () => {
  const probe = createTile({ dtype: 'f32', rows: 1, cols: 16 });
  const before = probe.bytes.buffer.byteLength;
  const t = await running(1);
  const n = 1024 * 1024;
  const keep: Tile[] = [];
  const mk = (seed: number) => tile(n, values(n, seed));
  let [a, b, d] = [mk(51), mk(52), mk(53)];
  // more 4 MiB tiles until d lies in memory the pool added after the workers started
  while (d.bytes.buffer.byteLength <= before && keep.length < 300) {
    keep.push(a, b, d);
    [a, b, d] = [mk(51), mk(52), mk(53)];
  }
  assert.ok(d.bytes.buffer.byteLength > before, 'the memory grew');
  const x = d.f32().slice();
  const w0 = t.workerChunks();
  t.run(0, d.poolAddr, a.poolAddr, b.poolAddr, n, false);
  assert.ok(t.workerChunks() > w0);
  check(d.f32(), a.f32(), b.f32(), x, n, 0);
  configureThreads(false);
});

test('TADD/TSUB/TMUL/TDIV on large tiles through execute and prepare match with and without threads', async () => {
  const rows = Math.ceil(THREAD_MIN_ELEMS / 512) + 3;
  const n = rows * 512;
  const x = values(n, 31);
  const y = values(n, 32);
  const results: Float32Array[] = [];
  for (const workers of [0, 1, 2]) {
    if (workers === 0) configureThreads(false);
    else await running(workers);
    for (const [op, name] of ['TADD', 'TSUB', 'TMUL', 'TDIV'].entries()) {
      const mk = (v: Float32Array) => createTile({ dtype: 'f32', rows, cols: 512 }, v);
      const a = mk(x);
      const b = mk(y);
      const d = mk(new Float32Array(n));
      execute(name, { dst: d, src0: a, src1: b });
      check(d.f32(), x, y, x, n, op);
      const d2 = mk(new Float32Array(n));
      const p = prepare(name, { dst: d2, src0: a, src1: b });
      p.run();
      p.run();
      check(d2.f32(), x, y, x, n, op);
      // in place through the public API
      execute(name, { dst: a, src0: a, src1: b });
      check(a.f32(), x, y, x, n, op);
      results.push(d.f32().slice());
    }
  }
  configureThreads(false);
  for (let i = 4; i < results.length; i++) assert.deepEqual(results[i], results[i % 4]);
});

test('no helper threads where they cannot run: the caller computes every call', async () => {
  const k = simdKernel(0);
  assert.ok(k);
  const memory = new WA.Memory({ initial: 1, maximum: 1 });
  const bytes = new Uint8Array([0]);
  const dir = { value: 0 };
  // not a shared memory, zero workers
  assert.equal(F32Threads.start(bytes, memory, [k, k, k, k], dir, { workers: 1 }), undefined);
  // asked for (AXSIM_PTO_THREADS=3), but: no process.getBuiltinModule (a browser), one core,
  // worker_threads that fail to start
  const proc = globalThis.process as unknown as { getBuiltinModule: (id: string) => unknown };
  const real = proc.getBuiltinModule;
  const shared = new WA.Memory({ initial: 1, maximum: 2, shared: true });
  const fakes: Record<string, (id: string) => unknown> = {
    browser: () => undefined,
    oneCore: (id) => (id === 'node:os' ? { availableParallelism: () => 1, cpus: () => [0] } : real(id)),
    failing: (id) =>
      id === 'node:worker_threads'
        ? {
            Worker: class {
              constructor() {
                throw new Error('no threads here');
              }
            },
          }
        : real(id),
  };
  const env = process.env.AXSIM_PTO_THREADS;
  try {
    // by default (and with AXSIM_PTO_THREADS=auto) one worker per core but the calling one; none
    // with AXSIM_PTO_THREADS=0; a value that is neither a count nor `auto` is the user's error
    process.env.AXSIM_PTO_THREADS = '0';
    assert.equal(F32Threads.start(bytes, shared, [k, k, k, k], dir), undefined, 'AXSIM_PTO_THREADS=0');
    for (const bad of ['many', '-1', '2.5', '0x2', 'auto,2']) {
      process.env.AXSIM_PTO_THREADS = bad;
      assert.throws(
        () => F32Threads.start(bytes, shared, [k, k, k, k], dir),
        (e: unknown) =>
          e instanceof AxsimError &&
          e.category === 'BadInput' &&
          e.message.includes(`AXSIM_PTO_THREADS='${bad}'`),
        `AXSIM_PTO_THREADS=${bad}`,
      );
      // the caller's own count wins over the variable (nothing read)
      assert.equal(F32Threads.start(bytes, shared, [k, k, k, k], dir, { workers: 0 }), undefined);
    }
    for (const setting of [undefined, 'auto']) {
      if (setting === undefined) delete process.env.AXSIM_PTO_THREADS;
      else process.env.AXSIM_PTO_THREADS = setting;
      const t = F32Threads.start(bytes, shared, [k, k, k, k], dir);
      if (availableParallelism() >= 2) {
        assert.ok(t, `${setting ?? 'the default'} starts workers on this host`);
        assert.equal(t.workerCount, Math.min(availableParallelism() - 1, 7));
        await t.stop();
      } else {
        assert.equal(t, undefined, 'one core: none');
      }
    }
    process.env.AXSIM_PTO_THREADS = '3';
    for (const [what, fake] of Object.entries(fakes)) {
      proc.getBuiltinModule = fake;
      assert.equal(F32Threads.start(bytes, shared, [k, k, k, k], dir), undefined, what);
    }
  } finally {
    proc.getBuiltinModule = real;
    if (env === undefined) delete process.env.AXSIM_PTO_THREADS;
    else process.env.AXSIM_PTO_THREADS = env;
  }
  assert.equal(F32Threads.start(bytes, shared, [k, k, k, k], dir, { workers: 0 }), undefined);
  // forced fallback: the split entry point runs the kernel on the calling thread, exactly
  configureThreads(false);
  const n = THREAD_MIN_ELEMS + 7;
  const a = tile(n, values(n, 41));
  const b = tile(n, values(n, 42));
  const d = tile(n, values(n, 43));
  const before = d.f32().slice();
  simdF32Split(2, d.poolAddr, a.poolAddr, b.poolAddr, n);
  check(d.f32(), a.f32(), b.f32(), before, n, 2);
});

test('a process that used the helper threads exits by itself', () => {
  const simd = fileURLToPath(new URL('./simd.ts', import.meta.url));
  const script = `
    const s = await import(${JSON.stringify(simd)});
    const t = await s.configureThreads({ workers: 1 });
    while (t.live() < 1) await new Promise((r) => setTimeout(r, 5));
    console.log('ok');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.signal, null, 'not killed by the timeout: the workers did not keep it alive');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'ok');
});
