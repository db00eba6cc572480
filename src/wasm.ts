/**
 * Byte-level helpers for the small WebAssembly modules the project assembles itself (the SIMD
 * kernels of src/tensix/mad-simd.ts, src/amx/fma64-simd.ts and src/pto/simd.ts). Only the
 * project's own fixed templates are assembled; never user text.
 */

/** Unsigned LEB128 of a non-negative 32-bit integer. */
export function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** A module section: its id, the content's byte length, the content. */
export function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

/** A name (ASCII) as the binary format writes it: its length, then its bytes. */
export function wasmName(s: string): number[] {
  return [s.length, ...[...s].map((c) => c.charCodeAt(0))];
}

/** The magic number and version 1 that start every module. */
export const WASM_HEADER: readonly number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

// ---- hosting the modules: instances and the pools of memory their kernels work in ----

/** The members of a WebAssembly.Memory used here (the project's TypeScript lib has no WebAssembly declarations). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Memory: new (d: { initial: number; maximum: number; shared?: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
}

function host(): WasmApi | undefined {
  return (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
}

/**
 * Compiles and instantiates `bytes`, a module whose one import is the memory `e.m`; its exports,
 * or undefined where the host cannot (no WebAssembly, or no SIMD: the callers then run their
 * scalar paths).
 */
export function wasmExports(bytes: Uint8Array, memory: WasmMemory): Record<string, unknown> | undefined {
  const W = host();
  if (!W) return undefined;
  try {
    return new W.Instance(new W.Module(bytes), { e: { m: memory } }).exports;
  } catch {
    return undefined;
  }
}

/** 64 KiB, the unit of WebAssembly memory sizes. */
const PAGE = 65536;

/**
 * A WebAssembly memory handed out in blocks, for typed arrays that kernels read and write in place
 * (PTO tiles, AMX register files, SFPU LReg files). A block returns to the pool, for the next
 * request of the same size, once every view registered for it has been garbage-collected
 * ({@link WasmPool.recycle}). A shared memory grows on demand up to its maximum, since its growth
 * leaves the views made before valid; a plain memory's growth would detach them, so a plain pool
 * never grows.
 */
export class WasmPool {
  /** The memory's current buffer (a growing shared memory gets a new buffer object each time). */
  buffer: ArrayBuffer;
  private bump: number;
  private readonly free = new Map<number, number[]>();
  /** Every buffer object the memory has had (views made before a growth keep the older ones). */
  private readonly buffers = new Set<ArrayBufferLike>();
  private readonly registry: FinalizationRegistry<{ bytes: number; offset: number; live: number }>;

  private constructor(
    readonly memory: WasmMemory,
    readonly shared: boolean,
    private readonly initialPages: number,
    private readonly maxPages: number,
    reserved: number,
  ) {
    this.buffer = memory.buffer;
    this.buffers.add(this.buffer);
    this.bump = reserved;
    this.registry = new FinalizationRegistry((h) => {
      if (--h.live === 0) this.freeList(h.bytes).push(h.offset);
    });
  }

  /**
   * A pool of `pages` pages, growable to `maxPages` when `shared` (and the host gives a shared
   * memory), whose first `reserved` bytes are never handed out; undefined where the host has no
   * WebAssembly, refuses the memory (e.g. a shared one on a page that is not cross-origin isolated)
   * or has no FinalizationRegistry (blocks could never be recycled).
   */
  static create(
    pages: number,
    opts: { maxPages?: number; shared?: boolean; reserved?: number } = {},
  ): WasmPool | undefined {
    const W = host();
    if (!W || typeof FinalizationRegistry !== 'function') return undefined;
    const shared = opts.shared === true;
    const maxPages = shared ? Math.max(pages, opts.maxPages ?? pages) : pages;
    try {
      const memory = new W.Memory({ initial: pages, maximum: maxPages, shared });
      return new WasmPool(memory, shared, pages, maxPages, opts.reserved ?? 0);
    } catch {
      return undefined;
    }
  }

  /**
   * The byte offset of a block of `bytes` bytes (its contents are left as they were), or -1 when
   * the pool is full and cannot grow.
   */
  alloc(bytes: number): number {
    const reused = this.free.get(bytes)?.pop();
    if (reused !== undefined) return reused;
    if (this.bump + bytes > this.buffer.byteLength && !this.growTo(this.bump + bytes)) return -1;
    const offset = this.bump;
    this.bump += bytes;
    return offset;
  }

  /** Returns the block (`offset`, `bytes`) to the pool once every one of `views` has been collected. */
  recycle(offset: number, bytes: number, views: readonly object[]): void {
    const held = { bytes, offset, live: views.length };
    for (const v of views) this.registry.register(v, held);
  }

  /** Whether `buffer` is this pool's memory (any of its buffer objects). */
  owns(buffer: ArrayBufferLike): boolean {
    return this.buffers.has(buffer);
  }

  private freeList(bytes: number): number[] {
    let list = this.free.get(bytes);
    if (list === undefined) this.free.set(bytes, (list = []));
    return list;
  }

  /** Grows a shared pool to hold `end` bytes (by at least its initial size at a time); false when it cannot. */
  private growTo(end: number): boolean {
    if (!this.shared) return false;
    const pages = Math.ceil((end - this.buffer.byteLength) / PAGE);
    if (this.buffer.byteLength / PAGE + pages > this.maxPages) return false;
    try {
      this.memory.grow(
        Math.min(Math.max(pages, this.initialPages), this.maxPages - this.buffer.byteLength / PAGE),
      );
    } catch {
      try {
        this.memory.grow(pages);
      } catch {
        return false;
      }
    }
    this.buffer = this.memory.buffer;
    this.buffers.add(this.buffer);
    return true;
  }
}
