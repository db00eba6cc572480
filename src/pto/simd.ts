/**
 * Optional WebAssembly SIMD kernels for the f32 elementwise fast path. f32x4.add/sub/mul are IEEE
 * binary32 operations with round-to-nearest-even and subnormals (like the C++ float operations of
 * the reference), so results are bit-identical except for which NaN comes out (compared as "any NaN").
 *
 * WebAssembly code can only address its own memory, so tiles created without caller-supplied bytes
 * take their buffers from a WebAssembly.Memory pool (src/wasm.ts `WasmPool`, power-of-two blocks);
 * blocks return to per-size free lists when their tile is garbage-collected. The pool is a shared
 * memory where the host allows one: it starts at
 * 32 MiB and grows on demand up to 1 GiB, and growing a shared memory leaves the views made before
 * valid (a plain memory's growth would detach them), so large tiles and many live tiles stay on the
 * fast path (issue 17: no cliff at 1024x1024 or with 100 live 512x512 tiles). Without shared
 * memory the pool is a fixed 32 MiB. Tiles built on caller bytes, blocks above 64 MiB, a full
 * pool, or a host without WebAssembly SIMD use the plain JS loops.
 */

import { leb, section, sleb, WASM_HEADER, WasmPool, wasmExports, wasmName } from '../wasm.ts';
import { F32Threads, type ThreadOptions } from './threads.ts';

/** Pages (64 KiB) of the pool at first; a shared pool grows on demand up to MAX_PAGES. */
const POOL_PAGES = 512; // 32 MiB
const MAX_PAGES = 16384; // 1 GiB
/** Largest pooled block (a 4096 x 4096 f32 tile). */
const MAX_BLOCK = 1 << 26;

// ---- a hand-assembled module: (func $k (param d a b n i32)) x4 for add, sub, mul, div ----

/**
 * Bytes per iteration of the loops, largest first: 256 (sixteen f32x4, memarg offsets 0..240),
 * then 64, then 16, then one f32 at a time. Each loop's overhead (three address increments, V8's
 * interrupt check on the back edge, the compare) is paid per block: 256-byte blocks make a 64x64
 * TADD about 20 % faster than 64-byte ones (docs/performance-pto.md, session 7).
 */
const BLOCKS = [256, 64, 16] as const;

// opcodes used below (WebAssembly core spec, binary format)
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const IF = [0x04, 0x40];
const ELSE = 0x05;
const END = 0x0b;
const BR_IF_OUT = [0x0d, 0x01]; // br_if 1: leave the enclosing block
const BR_LOOP = [0x0c, 0x00]; // br 0: next iteration
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_LT_U = 0x49;
const I32_GT_U = 0x4b;
const I32_LE_U = 0x4d;
const I32_GE_U = 0x4f;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_AND = 0x71;
const I32_OR = 0x72;
const I32_SHL = 0x74;
const GLOBAL_GET = 0x23;
const GLOBAL_SET = 0x24;

/**
 * Kernel `op` (0 add, 1 sub, 2 mul, 3 div): params d, a, b (byte addresses), n (elements).
 *
 * Every other call runs backwards (from the end down), the others forwards. A 64x64 f32 TADD
 * touches 48 KiB, as much as the L1 data cache of the machine the benchmarks run on: running the
 * same tiles forwards every time, the few lines other data takes evict, in LRU order, exactly the
 * lines the next call needs first, so every set that held one other line misses on all of its lines;
 * turning round finds the most recently used lines first (docs/performance-pto.md: about 20 % on
 * repeated 64x64 TADDs). The results do not depend on the order, since every element is read and
 * written by itself, unless d partly overlaps a or b (the same start is fine): then the kernel
 * always runs forwards.
 */
function body(op: number): number[] {
  const simdOp = [0xfd, 0xe4 + op, 0x01]; // f32x4.add / sub / mul / div
  const f32Op = 0x92 + op; // f32.add / sub / mul / div
  const get = (l: number) => [0x20, l];
  const set = (l: number) => [0x21, l];
  const i32 = (v: number) => [I32_CONST, ...sleb(v)];
  const D = 0;
  const A = 1;
  const B = 2;
  const N = 3;
  // locals: 4 and 5 (i32); forwards 4 = end of the first loop's part, 5 = end;
  // backwards 4 = start (a's first address); before either, 5 = the length in bytes
  const L4 = 4;
  const L5 = 5;
  const advance = (bytes: number) => [D, A, B].flatMap((l) => [...get(l), ...i32(bytes), I32_ADD, ...set(l)]);
  const load = (l: number, off: number) => [...get(l), 0xfd, 0x00, 0x00, ...leb(off)]; // v128.load
  // d + off = (a + off) (op) (b + off), one f32x4
  const vec = (off: number) => [
    ...get(D),
    ...load(A, off),
    ...load(B, off),
    ...simdOp,
    0xfd,
    0x0b,
    0x00,
    ...leb(off),
  ];
  const vecs = (bytes: number) => Array.from({ length: bytes / 16 }, (_, i) => vec(16 * i)).flat();
  // d = a (op) b, one f32 (f32.load / f32.store align 4)
  const one = [...get(D), ...get(A), 0x2a, 0x02, 0x00, ...get(B), 0x2a, 0x02, 0x00, f32Op, 0x38, 0x02, 0x00];
  // block { loop { if (exit) break; work; continue } }
  const loop = (exit: number[], work: number[]) => [
    ...BLOCK,
    ...LOOP,
    ...exit,
    ...BR_IF_OUT,
    ...work,
    ...BR_LOOP,
    END,
    END,
  ];
  // x and d either start together or do not overlap: d == x || d + len <= x || x + len <= d
  const apart = (x: number) => [
    ...get(D),
    ...get(x),
    I32_EQ,
    ...[
      [D, x],
      [x, D],
    ].flatMap(([p, q]) => [...get(p!), ...get(L5), I32_ADD, ...get(q!), I32_LE_U, I32_OR]), // p + len <= q
  ];
  const first = BLOCKS[0];
  const forwards = [
    ...get(A),
    ...get(L5),
    ...i32(-first),
    I32_AND,
    I32_ADD,
    ...set(L4), // end of the first loop's part = a + (len & -first)
    ...get(A),
    ...get(L5),
    I32_ADD,
    ...set(L5), // end = a + len
    // while (a < end1) { first bytes }
    ...loop([...get(A), ...get(L4), I32_GE_U], [...vecs(first), ...advance(first)]),
    // while (a + bytes <= end) { bytes } for the smaller blocks
    ...BLOCKS.slice(1).flatMap((bytes) =>
      loop([...get(A), ...i32(bytes), I32_ADD, ...get(L5), I32_GT_U], [...vecs(bytes), ...advance(bytes)]),
    ),
    // while (a < end) one f32
    ...loop([...get(A), ...get(L5), I32_GE_U], [...one, ...advance(4)]),
  ];
  const backwards = [
    ...get(A),
    ...set(L4), // start = a
    ...[D, A, B].flatMap((l) => [...get(l), ...get(L5), I32_ADD, ...set(l)]), // all three at their ends
    // while (a - start >= bytes) { step back bytes; bytes }, largest blocks first
    ...BLOCKS.flatMap((bytes) =>
      loop([...get(A), ...get(L4), I32_SUB, ...i32(bytes), I32_LT_U], [...advance(-bytes), ...vecs(bytes)]),
    ),
    // while (a > start) { step back one f32; one f32 }
    ...loop([...get(A), ...get(L4), I32_LE_U], [...advance(-4), ...one]),
  ];
  const code = [
    0x01,
    0x02,
    0x7f, // two i32 locals
    ...get(N),
    ...i32(2),
    I32_SHL,
    ...set(L5), // len = 4n
    GLOBAL_GET,
    0,
    I32_EQZ,
    GLOBAL_SET,
    0, // turn round
    GLOBAL_GET,
    0,
    ...apart(A),
    I32_AND,
    ...apart(B),
    I32_AND,
    ...IF,
    ...backwards,
    ELSE,
    ...forwards,
    END,
    END, // end of function
  ];
  return [...leb(code.length), ...code];
}

/** The module; `shared`: it imports a shared memory of up to MAX_PAGES pages. */
function moduleBytes(shared: boolean): Uint8Array {
  const name = wasmName;
  const bodies = [body(0), body(1), body(2), body(3)];
  return new Uint8Array([
    ...WASM_HEADER,
    ...section(1, [0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    ...section(2, [
      0x01,
      ...name('e'),
      ...name('m'),
      0x02,
      ...(shared ? [0x03, 0x01, ...leb(MAX_PAGES)] : [0x00, 0x01]),
    ]),
    ...section(3, [0x04, 0x00, 0x00, 0x00, 0x00]),
    ...section(6, [0x01, 0x7f, 0x01, I32_CONST, 0x00, END]), // the direction: mutable i32 = 0
    ...section(7, [
      0x05,
      ...name('add'),
      0x00,
      0x00,
      ...name('sub'),
      0x00,
      0x01,
      ...name('mul'),
      0x00,
      0x02,
      ...name('div'),
      0x00,
      0x03,
      ...name('dir'), // the direction (src/pto/threads.ts sets it per chunk)
      0x03,
      0x00,
    ]),
    ...section(10, [0x04, ...bodies.flat()]),
  ]);
}

type Kernel = (d: number, a: number, b: number, n: number) => void;

interface Simd {
  pool: WasmPool;
  kernels: [Kernel, Kernel, Kernel, Kernel];
  dir: { value: number };
  /** The module's bytes (for the helper threads; only when the pool is shared). */
  bytes: Uint8Array | undefined;
}

/** The pool (shared when the host allows, else fixed) and the kernels; undefined without WebAssembly SIMD. */
function init(): Simd | undefined {
  for (const shared of [true, false]) {
    const pool = WasmPool.create(POOL_PAGES, { maxPages: MAX_PAGES, shared });
    const bytes = moduleBytes(shared);
    const ex = pool && wasmExports(bytes, pool.memory);
    if (pool && ex) {
      const kernels = [ex.add, ex.sub, ex.mul, ex.div] as Simd['kernels'];
      return { pool, kernels, dir: ex.dir as Simd['dir'], bytes: pool.shared ? bytes : undefined };
    }
  }
  return undefined; // no WebAssembly SIMD on this host: JS loops only
}

// Created on the first tile allocation, so that importing the library (e.g. the CLI running another
// ISA) does not reserve the pool.
let SIMD: Simd | undefined;
let initialised = false;
function ensureInit(): Simd | undefined {
  if (!initialised) {
    initialised = true;
    SIMD = init();
  }
  return SIMD;
}

/** Zeroed bytes for a new tile: from the SIMD pool when possible (a power-of-two block), else a plain buffer. */
export function allocBytes(n: number, owner: object): Uint8Array {
  void owner;
  const pool = ensureInit()?.pool;
  if (!pool || n > MAX_BLOCK || n === 0) return new Uint8Array(n);
  let size = 64;
  while (size < n) size *= 2;
  const offset = pool.alloc(size);
  if (offset < 0) return new Uint8Array(n);
  const bytes = new Uint8Array(pool.buffer, offset, n);
  bytes.fill(0);
  // The block is recycled when this byte view is collected (not the tile: a caller may keep
  // `tile.bytes` after dropping the tile). Other views of the block keep it alive via keepAlive.
  pool.recycle(offset, size, [bytes]);
  return bytes;
}

const keepAlive = new WeakMap<object, Uint8Array>();

/** Makes `view` (another typed view of a pooled block) keep the block's byte view alive. */
export function pin<T extends object>(view: T, bytes: Uint8Array): T {
  if (SIMD?.pool.owns(bytes.buffer)) keepAlive.set(view, bytes);
  return view;
}

/** The byte address of `bytes` in the pool when the kernels can use it, else -1. */
export function poolAddress(bytes: Uint8Array): number {
  return ensureInit()?.pool.owns(bytes.buffer) ? bytes.byteOffset : -1;
}

/** d = a (op) b over n f32 elements at byte addresses d, a, b of the pool ({@link poolAddress}). */
export function simdF32At(op: 0 | 1 | 2 | 3, d: number, a: number, b: number, n: number): void {
  SIMD!.kernels[op](d, a, b, n);
}

/** The kernel d = a (op) b over n f32 elements at pool byte addresses, or undefined without SIMD. */
export function simdKernel(op: 0 | 1 | 2 | 3): Kernel | undefined {
  return ensureInit()?.kernels[op];
}

// ---- helper threads for large calls (src/pto/threads.ts) ----

/**
 * Elements from which one contiguous kernel call is split across helper threads (when there are
 * any, src/pto/threads.ts): the three f32 arrays then take 4 MiB or more, twice the 2 MiB L2 of a
 * core of the machine of docs/performance-pto.md. Below that a single core runs mostly from its
 * own cache (the kernel turns round on every call: 512x512, 3 MiB, ran at 3.5-5 G elem/s); above
 * it mostly from memory (724x724, 6 MiB: 3.2; 1024x1024, 12 MiB: 2.7; 2048x2048: 2.4-2.5), the
 * case where a second core adds bandwidth (the reference splits from 16 384 elements, but starts
 * threads per call).
 */
export const THREAD_MIN_ELEMS: number = Math.ceil((4 << 20) / 12);

let threads: F32Threads | undefined;
let threadsTried = false;

function helperThreads(): F32Threads | undefined {
  if (!threadsTried) {
    threadsTried = true;
    const s = ensureInit();
    if (s?.bytes) threads = F32Threads.start(s.bytes, s.pool.memory, s.kernels, s.dir);
  }
  return threads;
}

/**
 * For tests and benchmarks: `false` stops the helper threads (every call then runs on the calling
 * thread), options start new ones (`workers` unset: as AXSIM_PTO_THREADS says). Returns the new
 * threads, or undefined when there are none. The old workers end asynchronously.
 */
export function configureThreads(opts: ThreadOptions | false): F32Threads | undefined {
  const old = threads;
  threads = undefined;
  threadsTried = true;
  if (old) void old.stop();
  const s = ensureInit();
  if (opts !== false && s?.bytes) threads = F32Threads.start(s.bytes, s.pool.memory, s.kernels, s.dir, opts);
  return threads;
}

/**
 * d = a (op) b over n f32 elements at pool byte addresses, split across the helper threads when
 * there are any, n >= THREAD_MIN_ELEMS, and d and each source start together or are disjoint (the
 * condition under which the order of the elements cannot matter); otherwise one kernel call.
 */
export function simdF32Split(op: 0 | 1 | 2 | 3, d: number, a: number, b: number, n: number): void {
  const len = 4 * n;
  const t = n >= THREAD_MIN_ELEMS ? helperThreads() : undefined;
  if (
    t !== undefined &&
    (d === a || d + len <= a || a + len <= d) &&
    (d === b || d + len <= b || b + len <= d)
  ) {
    t.run(op, d, a, b, n);
  } else {
    SIMD!.kernels[op](d, a, b, n);
  }
}
