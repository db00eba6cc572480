/**
 * The evaluator's flat byte memory: little-endian, byte-addressed, made of regions. Variables,
 * temporaries and host-bound arrays live here, so pointers, arrays, unions and type punning
 * behave as on the target. A host may map a region whose stores call a hook (memory-mapped
 * configuration registers behind `volatile` pointers) and bind its own arrays (AMX kernels' matrices).
 * Address 0 is never mapped (null pointer dereferences are errors).
 */
import type { Budget } from '../budget.ts';
import { badInput, type ErrorLocation, undefinedBehaviour } from '../errors.ts';

export interface RegionHooks {
  /** Called after a store of `size` bytes at `addr` (the bytes are already in the region). */
  write?: (addr: number, size: number, region: Region) => void;
  /** Called before a load (may fill the bytes). */
  read?: (addr: number, size: number, region: Region) => void;
}

export interface Region {
  readonly name: string;
  readonly base: number;
  size: number;
  bytes: Uint8Array;
  view: DataView;
  readonly hooks?: RegionHooks;
  /** Grows on demand up to this size (the stack). */
  readonly max: number;
  readonly readOnly?: boolean;
}

export const STACK_BASE = 0x1000_0000;
export const GLOBAL_BASE = 0x2000_0000;
export const HEAP_BASE = 0x3000_0000;

export class Memory {
  readonly regions: Region[] = [];
  private last: Region | undefined;
  /** Stack pointer (next free byte of the stack region). */
  sp = STACK_BASE;
  gp = GLOBAL_BASE;
  hp = HEAP_BASE;
  readonly stack: Region;
  readonly globals: Region;
  readonly heap: Region;

  constructor(
    readonly budget: Budget | undefined,
    maxStack = 64 << 20,
  ) {
    this.stack = this.addRegion('stack', STACK_BASE, 1 << 16, maxStack);
    this.globals = this.addRegion('globals', GLOBAL_BASE, 1 << 12, 64 << 20);
    this.heap = this.addRegion('heap', HEAP_BASE, 1 << 12, 1 << 30);
  }

  private addRegion(name: string, base: number, size: number, max: number, hooks?: RegionHooks): Region {
    const bytes = new Uint8Array(size);
    const r: Region = { name, base, size, bytes, view: new DataView(bytes.buffer), hooks, max };
    this.regions.push(r);
    return r;
  }

  /** Maps `size` bytes at `base` whose accesses call `hooks` (e.g. configuration registers). */
  mapRegion(name: string, base: number, size: number, hooks?: RegionHooks): Region {
    for (const r of this.regions) {
      if (base < r.base + r.max && r.base < base + size)
        throw badInput(`memory region ${name} at 0x${base.toString(16)} overlaps ${r.name}`);
    }
    return this.addRegion(name, base, size, size, hooks);
  }

  /** Copies `data` into fresh heap memory (aligned to 64 bytes) and returns its address. */
  bind(data: Uint8Array, align = 64): number {
    const addr = this.heapAlloc(data.length, align);
    this.heap.bytes.set(data, addr - HEAP_BASE);
    return addr;
  }

  /**
   * Grows the heap once so that `size` more bytes (allocations and their alignment padding) fit
   * without regrowing: binding several large arrays then copies each once.
   */
  heapReserve(size: number): void {
    const need = this.hp - HEAP_BASE + size;
    const r = this.heap;
    if (need <= r.size) return;
    if (need > r.max) throw badInput(`${r.name} memory exhausted (${need} > ${r.max} bytes)`);
    this.grow(r, Math.min(Math.ceil(need / 4096) * 4096, r.max));
  }

  heapAlloc(size: number, align = 16): number {
    const addr = Math.ceil(this.hp / align) * align;
    this.ensure(this.heap, addr - HEAP_BASE + size);
    this.hp = addr + size;
    return addr;
  }

  /** Bytes of [addr, addr+size) (a view into the region: writes go through, no hooks). */
  view(addr: number, size: number): Uint8Array {
    const r = this.find(addr, size);
    return r.bytes.subarray(addr - r.base, addr - r.base + size);
  }

  private ensure(r: Region, need: number): void {
    if (need <= r.size) return;
    if (need > r.max) throw badInput(`${r.name} memory exhausted (${need} > ${r.max} bytes)`);
    let size = r.size;
    while (size < need) size *= 2;
    this.grow(r, Math.min(size, r.max));
  }

  private grow(r: Region, size: number): void {
    this.budget?.alloc(size - r.size);
    const bytes = new Uint8Array(size);
    bytes.set(r.bytes);
    r.bytes = bytes;
    r.view = new DataView(bytes.buffer);
    r.size = size;
  }

  /** Allocates on the stack (freed by resetting `sp`). */
  alloca(size: number, align: number): number {
    const addr = Math.ceil(this.sp / align) * align;
    this.ensure(this.stack, addr - STACK_BASE + size);
    this.sp = addr + Math.max(size, 0);
    return addr;
  }

  /** Allocates static storage (globals, static locals, string literals). */
  galloc(size: number, align: number): number {
    const addr = Math.ceil(this.gp / align) * align;
    this.ensure(this.globals, addr - GLOBAL_BASE + size);
    this.gp = addr + Math.max(size, 1);
    return addr;
  }

  find(addr: number, size: number, loc?: ErrorLocation): Region {
    const l = this.last;
    if (l && addr >= l.base && addr + size <= l.base + l.size) return l;
    for (const r of this.regions) {
      if (addr >= r.base && addr + size <= r.base + r.size) {
        this.last = r;
        return r;
      }
    }
    if (addr === 0 || (addr > 0 && addr < 4096))
      throw undefinedBehaviour('null pointer dereference', { location: loc });
    throw undefinedBehaviour(`access to unmapped memory at 0x${addr.toString(16)} (${size} bytes)`, {
      location: loc,
      hint: 'a pointer outside every variable, array and mapped region',
    });
  }

  /** Set while the evaluator takes an assignment's value from the bytes it just stored (no load). */
  hooksOff = false;

  read(addr: number, size: number, loc?: ErrorLocation): { r: Region; off: number } {
    const r = this.find(addr, size, loc);
    if (!this.hooksOff) r.hooks?.read?.(addr, size, r);
    return { r, off: addr - r.base };
  }

  /** The region holding [addr, addr+size), after its read hook (as `read`, without an allocation). */
  readRegion(addr: number, size: number, loc?: ErrorLocation): Region {
    const r = this.find(addr, size, loc);
    if (!this.hooksOff && r.hooks?.read) r.hooks.read(addr, size, r);
    return r;
  }

  /** After the bytes of a store are in place: the region's write hook. */
  wrote(r: Region, addr: number, size: number): void {
    r.hooks?.write?.(addr, size, r);
  }

  zero(addr: number, size: number): void {
    if (size <= 0) return;
    const r = this.find(addr, size);
    r.bytes.fill(0, addr - r.base, addr - r.base + size);
  }

  copy(dst: number, src: number, size: number, loc?: ErrorLocation): void {
    if (size <= 0) return;
    const s = this.find(src, size, loc);
    const d = this.find(dst, size, loc);
    d.bytes.set(s.bytes.subarray(src - s.base, src - s.base + size), dst - d.base);
    this.wrote(d, dst, size);
  }
}
