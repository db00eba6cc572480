/**
 * Optional WebAssembly SIMD kernels for the f32 elementwise fast path. f32x4.add/sub/mul are IEEE
 * binary32 operations with round-to-nearest-even and subnormals (like the C++ float operations of
 * the reference), so results are bit-identical except for which NaN comes out (compared as "any NaN").
 *
 * WebAssembly code can only address its own memory, so tiles created without caller-supplied bytes
 * take their buffers from a fixed-size (never grown, so views never detach) WebAssembly.Memory pool;
 * blocks return to per-size free lists when their tile is garbage-collected. Tiles built on caller
 * bytes, or when the pool is full or WebAssembly SIMD is unavailable, use the plain JS loops.
 */

const POOL_PAGES = 512; // 32 MiB
const MAX_BLOCK = 1 << 20;

// ---- a hand-assembled module: (func $k (param d a b n i32)) x3 for add, sub, mul ----

function body(op: number): number[] {
  // locals: 4 params (d, a, b, n elements) + 1 local i (byte offset)
  const simdOp = [0xfd, 0xe4 + op, 0x01]; // f32x4.add / sub / mul / div
  const f32Op = 0x92 + op; // f32.add / sub / mul / div
  const code = [
    0x01,
    0x01,
    0x7f, // one i32 local
    0x20,
    0x03,
    0x41,
    0x02,
    0x74,
    0x21,
    0x03, // n = n << 2 (bytes)
    0x02,
    0x40,
    0x03,
    0x40, // block loop
    0x20,
    0x04,
    0x41,
    0x10,
    0x6a,
    0x20,
    0x03,
    0x4b,
    0x0d,
    0x01, // if (i + 16 > n) break
    0x20,
    0x00,
    0x20,
    0x04,
    0x6a, // d + i
    0x20,
    0x01,
    0x20,
    0x04,
    0x6a,
    0xfd,
    0x00,
    0x00,
    0x00, // v128.load a + i
    0x20,
    0x02,
    0x20,
    0x04,
    0x6a,
    0xfd,
    0x00,
    0x00,
    0x00, // v128.load b + i
    ...simdOp,
    0xfd,
    0x0b,
    0x00,
    0x00, // v128.store
    0x20,
    0x04,
    0x41,
    0x10,
    0x6a,
    0x21,
    0x04, // i += 16
    0x0c,
    0x00,
    0x0b,
    0x0b, // br loop; end; end
    0x02,
    0x40,
    0x03,
    0x40, // block loop (scalar tail)
    0x20,
    0x04,
    0x20,
    0x03,
    0x4f,
    0x0d,
    0x01, // if (i >= n) break
    0x20,
    0x00,
    0x20,
    0x04,
    0x6a,
    0x20,
    0x01,
    0x20,
    0x04,
    0x6a,
    0x2a,
    0x02,
    0x00, // f32.load a + i
    0x20,
    0x02,
    0x20,
    0x04,
    0x6a,
    0x2a,
    0x02,
    0x00, // f32.load b + i
    f32Op,
    0x38,
    0x02,
    0x00, // f32.store
    0x20,
    0x04,
    0x41,
    0x04,
    0x6a,
    0x21,
    0x04, // i += 4
    0x0c,
    0x00,
    0x0b,
    0x0b,
    0x0b, // end of function
  ];
  return [...leb(code.length), ...code];
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

function moduleBytes(): Uint8Array {
  const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
  const bodies = [body(0), body(1), body(2), body(3)];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    ...section(2, [0x01, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]),
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
}
interface WasmApi {
  Memory: new (d: { initial: number; maximum: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
}

interface Simd {
  memory: WasmMemory;
  kernels: [Kernel, Kernel, Kernel, Kernel];
}

function init(): Simd | undefined {
  try {
    const W = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
    if (!W) return undefined;
    const memory = new W.Memory({ initial: POOL_PAGES, maximum: POOL_PAGES });
    const mod = new W.Module(moduleBytes());
    const inst = new W.Instance(mod, { e: { m: memory } });
    const ex = inst.exports as Record<string, Kernel>;
    return { memory, kernels: [ex.add!, ex.sub!, ex.mul!, ex.div!] };
  } catch {
    return undefined; // no WebAssembly SIMD on this host: JS loops only
  }
}

// Created on the first tile allocation, so that importing the library (e.g. the CLI running another
// ISA) does not reserve the pool.
let SIMD: Simd | undefined;
let POOL: ArrayBuffer | undefined;
let initialised = false;
function ensureInit(): void {
  if (initialised) return;
  initialised = true;
  SIMD = init();
  POOL = SIMD?.memory.buffer;
}

// ---- block allocator: power-of-two classes from 64 B to 1 MiB, bump pointer + free lists ----

let bump = 0;
const freeLists: number[][] = Array.from({ length: 21 }, () => []);
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
    if (bump + size > POOL.byteLength) return new Uint8Array(n);
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
  if (POOL !== undefined && bytes.buffer === POOL) keepAlive.set(view, bytes);
  return view;
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
  if (!SIMD || d.buffer !== POOL || a.buffer !== POOL || b.buffer !== POOL) return false;
  SIMD.kernels[op](d.byteOffset + od * 4, a.byteOffset + oa * 4, b.byteOffset + ob * 4, n);
  return true;
}
