/**
 * Optional WebAssembly SIMD kernels for the f32 elementwise fast path. f32x4.add/sub/mul are IEEE
 * binary32 operations with round-to-nearest-even and subnormals (like the C++ float operations of
 * the reference), so results are bit-identical except for which NaN comes out (compared as "any NaN").
 *
 * WebAssembly code can only address its own memory, so tiles created without caller-supplied bytes
 * take their buffers from a WebAssembly.Memory pool; blocks return to per-size free lists when their
 * tile is garbage-collected. The pool is a shared memory where the host allows one: it starts at
 * 32 MiB and grows on demand up to 1 GiB, and growing a shared memory leaves the views made before
 * valid (a plain memory's growth would detach them), so large tiles and many live tiles stay on the
 * fast path (issue 17: no cliff at 1024x1024 or with 100 live 512x512 tiles). Without shared
 * memory the pool is a fixed 32 MiB. Tiles built on caller bytes, blocks above 64 MiB, a full
 * pool, or a host without WebAssembly SIMD use the plain JS loops.
 */
import { leb, section, sleb, WASM_HEADER, wasmName } from '../wasm.ts';

/** Pages (64 KiB) of the pool at first; a shared pool grows on demand up to MAX_PAGES. */
const POOL_PAGES = 512; // 32 MiB
const MAX_PAGES = 16384; // 1 GiB
/** Largest pooled block (a 4096 x 4096 f32 tile). */
const MAX_BLOCK = 1 << 26;

// ---- a hand-assembled module: (func $k (param d a b n i32)) x3 for add, sub, mul ----

function body(op: number): number[] {
  // params d, a, b (byte addresses), n (elements); locals 4 = end of the 64-byte part, 5 = end.
  // The three addresses advance together: 64 bytes (four f32x4, memarg offsets 0..48) per
  // iteration, then 16 bytes, then one f32 at a time.
  const simdOp = [0xfd, 0xe4 + op, 0x01]; // f32x4.add / sub / mul / div
  const f32Op = 0x92 + op; // f32.add / sub / mul / div
  const get = (l: number) => [0x20, l];
  const set = (l: number) => [0x21, l];
  const advance = (bytes: number) =>
    [0, 1, 2].flatMap((l) => [...get(l), 0x41, ...sleb(bytes), 0x6a, ...set(l)]);
  const vec = (off: number) => [
    ...get(0),
    ...get(1),
    0xfd,
    0x00,
    0x00,
    ...leb(off), // v128.load a + off
    ...get(2),
    0xfd,
    0x00,
    0x00,
    ...leb(off), // v128.load b + off
    ...simdOp,
    0xfd,
    0x0b,
    0x00,
    ...leb(off), // v128.store d + off
  ];
  const code = [
    0x01,
    0x02,
    0x7f, // two i32 locals
    ...get(1),
    ...get(3),
    0x41,
    2,
    0x74,
    0x6a,
    ...set(5), // end = a + 4n
    ...get(1),
    ...get(3),
    0x41,
    2,
    0x74,
    0x41,
    ...sleb(-64),
    0x71,
    0x6a,
    ...set(4), // end64 = a + (4n & ~63)
    0x02,
    0x40,
    0x03,
    0x40,
    ...get(1),
    ...get(4),
    0x4f,
    0x0d,
    0x01, // if (a >= end64) break
    ...vec(0),
    ...vec(16),
    ...vec(32),
    ...vec(48),
    ...advance(64),
    0x0c,
    0x00,
    0x0b,
    0x0b,
    0x02,
    0x40,
    0x03,
    0x40,
    ...get(1),
    0x41,
    16,
    0x6a,
    ...get(5),
    0x4b,
    0x0d,
    0x01, // if (a + 16 > end) break
    ...vec(0),
    ...advance(16),
    0x0c,
    0x00,
    0x0b,
    0x0b,
    0x02,
    0x40,
    0x03,
    0x40,
    ...get(1),
    ...get(5),
    0x4f,
    0x0d,
    0x01, // if (a >= end) break
    ...get(0),
    ...get(1),
    0x2a,
    0x02,
    0x00, // f32.load a
    ...get(2),
    0x2a,
    0x02,
    0x00, // f32.load b
    f32Op,
    0x38,
    0x02,
    0x00, // f32.store d
    ...advance(4),
    0x0c,
    0x00,
    0x0b,
    0x0b,
    0x0b, // end of function
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
    ...section(7, [
      0x04,
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
    ]),
    ...section(10, [0x04, ...bodies.flat()]),
  ]);
}

type Kernel = (d: number, a: number, b: number, n: number) => void;

// The project's TypeScript lib has no WebAssembly declarations: the few members used, typed here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (d: { initial: number; maximum: number; shared?: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
}

interface Simd {
  memory: WasmMemory;
  /** A shared memory grows without detaching the views made before (a plain one would detach them). */
  shared: boolean;
  kernels: [Kernel, Kernel, Kernel, Kernel];
}

function instantiate(W: WasmApi, shared: boolean): Simd {
  const memory = new W.Memory({ initial: POOL_PAGES, maximum: shared ? MAX_PAGES : POOL_PAGES, shared });
  const inst = new W.Instance(new W.Module(moduleBytes(shared)), { e: { m: memory } });
  const ex = inst.exports as Record<string, Kernel>;
  return { memory, shared, kernels: [ex.add!, ex.sub!, ex.mul!, ex.div!] };
}

function init(): Simd | undefined {
  const W = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!W) return undefined;
  try {
    return instantiate(W, true);
  } catch {
    // no shared WebAssembly memory here (e.g. a page without cross-origin isolation): a fixed pool
  }
  try {
    return instantiate(W, false);
  } catch {
    return undefined; // no WebAssembly SIMD on this host: JS loops only
  }
}

// Created on the first tile allocation, so that importing the library (e.g. the CLI running another
// ISA) does not reserve the pool.
let SIMD: Simd | undefined;
/** The pool's current buffer (a shared pool's grows: a new buffer object over the same memory). */
let POOL: ArrayBuffer | undefined;
/** Every buffer object the pool has had (views made before a growth keep the older ones). */
const POOL_BUFFERS = new Set<ArrayBufferLike>();
let initialised = false;
function ensureInit(): void {
  if (initialised) return;
  initialised = true;
  SIMD = init();
  POOL = SIMD?.memory.buffer;
  if (POOL) POOL_BUFFERS.add(POOL);
}

/** Grows a shared pool to hold `end` bytes; false when it cannot. */
function growTo(end: number): boolean {
  if (!SIMD?.shared || !POOL) return false;
  const pages = Math.ceil((end - POOL.byteLength) / 65536);
  if (POOL.byteLength / 65536 + pages > MAX_PAGES) return false;
  try {
    SIMD.memory.grow(Math.max(pages, POOL_PAGES));
  } catch {
    try {
      SIMD.memory.grow(pages);
    } catch {
      return false;
    }
  }
  POOL = SIMD.memory.buffer;
  POOL_BUFFERS.add(POOL);
  return true;
}

// ---- block allocator: power-of-two classes from 64 B to MAX_BLOCK, bump pointer + free lists ----

let bump = 0;
const freeLists: number[][] = Array.from({ length: 27 }, () => []);
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<[number, number]>(([cls, offset]) => freeLists[cls]!.push(offset))
    : undefined;

/** Zeroed bytes for a new tile: from the SIMD pool when possible, else a plain buffer. */
export function allocBytes(n: number, owner: object): Uint8Array {
  ensureInit();
  if (!POOL || !registry || n > MAX_BLOCK || n === 0) return new Uint8Array(n);
  let cls = 6;
  while (1 << cls < n) cls++;
  const size = 1 << cls;
  let offset = freeLists[cls]!.pop();
  if (offset === undefined) {
    if (bump + size > POOL.byteLength && !growTo(bump + size)) return new Uint8Array(n);
    offset = bump;
    bump += size;
  }
  const bytes = new Uint8Array(POOL, offset, n);
  bytes.fill(0);
  // The block is recycled when this byte view is collected (not the tile: a caller may keep
  // `tile.bytes` after dropping the tile). Other views of the block keep it alive via keepAlive.
  registry.register(bytes, [cls, offset]);
  void owner;
  return bytes;
}

const keepAlive = new WeakMap<object, Uint8Array>();

/** Makes `view` (another typed view of a pooled block) keep the block's byte view alive. */
export function pin<T extends object>(view: T, bytes: Uint8Array): T {
  if (POOL_BUFFERS.has(bytes.buffer)) keepAlive.set(view, bytes);
  return view;
}

/** The byte address of `bytes` in the pool when the kernels can use it, else -1. */
export function poolAddress(bytes: Uint8Array): number {
  ensureInit();
  return SIMD !== undefined && POOL_BUFFERS.has(bytes.buffer) ? bytes.byteOffset : -1;
}

/** d = a (op) b over n f32 elements at byte addresses d, a, b of the pool ({@link poolAddress}). */
export function simdF32At(op: 0 | 1 | 2 | 3, d: number, a: number, b: number, n: number): void {
  SIMD!.kernels[op](d, a, b, n);
}

/**
 * d = a (op) b over n f32 elements at byte offsets inside the pool; returns false when any of the
 * arrays is not in the pool (the caller then runs its JS loop).
 */
export function simdF32(
  op: 0 | 1 | 2 | 3,
  d: Float32Array,
  od: number,
  a: Float32Array,
  oa: number,
  b: Float32Array,
  ob: number,
  n: number,
): boolean {
  if (!SIMD || !POOL_BUFFERS.has(d.buffer) || !POOL_BUFFERS.has(a.buffer) || !POOL_BUFFERS.has(b.buffer)) {
    return false;
  }
  SIMD.kernels[op](d.byteOffset + od * 4, a.byteOffset + oa * 4, b.byteOffset + ob * 4, n);
  return true;
}
