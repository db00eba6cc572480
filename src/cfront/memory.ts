/**
 * The evaluator's flat byte memory: little-endian, byte-addressed, made of regions. Variables,
 * temporaries and host-bound arrays live here, so pointers, arrays, unions and type punning
 * behave as on the target. A host may map a region whose stores call a hook (memory-mapped
 * configuration registers behind `volatile` pointers) and bind its own arrays (AMX kernels' matrices).
 * Address 0 is never mapped (null pointer dereferences are errors).
 *
 * Automatic storage has a written-bytes shadow: the bytes of a local declared without an
 * initialiser are marked unwritten (`markUnset`), every store, copy, zeroing or host write through
 * `view` clears the mark (a copy carries the source's marks along), and a load of a marked byte
 * calls `onUnset` (the evaluator's UndefinedBehaviour error naming the object). Only stack loads
 * below `unsetTop` look at the shadow, and `unsetTop` drops to the stack's base whenever no byte is
 * marked (the marked bytes are counted), so a program whose locals are written right after their
 * declaration (constructors, out-parameters) pays one compare per load.
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

/** Bytes [lo, hi) hold (a copy of) part of the object at `base` that `what` describes (for diagnostics). */
interface UnsetMark {
  lo: number;
  hi: number;
  base: number;
  what: unknown;
  /** The bytes are a copy (an aggregate copied or returned), not the object itself. */
  copied: boolean;
}

/** The object an unwritten byte belongs to: what `markUnset` was given, and the byte's offset in it. */
export interface UnsetOrigin {
  what: unknown;
  offset: number;
  copied: boolean;
}

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
    this.shadow = new Uint8Array(this.stack.size);
  }

  // ---- the written-bytes shadow of the stack ----
  /** 1 for each stack byte of a local that has not been written since it was declared. */
  private shadow: Uint8Array;
  /** No stack byte at or above this address is marked unwritten (STACK_BASE: none is). */
  unsetTop = STACK_BASE;
  /** How many stack bytes are marked. */
  private unsetCount = 0;
  private marks: UnsetMark[] = [];
  /**
   * Called when a load reads a byte marked unwritten; throws (the evaluator names the object from
   * `unsetOrigin`). Without it the load is an UndefinedBehaviour error with a generic message.
   */
  onUnset: ((addr: number, size: number, loc: ErrorLocation | undefined) => never) | undefined;

  /**
   * Marks the `size` bytes of a fresh stack object at `addr` unwritten (a local declared without an
   * initialiser, before its constructors run); `what` describes it for the diagnostic.
   */
  markUnset(addr: number, size: number, what: unknown): void {
    if (size <= 0 || addr < STACK_BASE || addr + size > STACK_BASE + this.stack.size) return;
    const sh = this.shadow;
    let n = 0;
    for (let i = addr - STACK_BASE, end = i + size; i < end; i++)
      if (sh[i] === 0) {
        sh[i] = 1;
        n++;
      }
    this.unsetCount += n;
    if (addr + size > this.unsetTop) this.unsetTop = addr + size;
    this.pushMark(addr, addr + size, addr, what, false);
  }

  private pushMark(lo: number, hi: number, base: number, what: unknown, copied: boolean): void {
    const ms = this.marks;
    // the same bytes marked again (a copy in a loop) replace their mark
    for (let k = ms.length - 1; k >= 0 && k >= ms.length - 8; k--) {
      const m = ms[k]!;
      if (m.lo === lo && m.hi === hi) {
        m.base = base;
        m.what = what;
        m.copied = copied;
        return;
      }
    }
    if (ms.length >= 4096) ms.splice(0, 1024);
    ms.push({ lo, hi, base, what, copied });
  }

  /** Whether any of the bytes [addr, addr+size) is a stack byte marked unwritten. */
  isUnset(addr: number, size: number): boolean {
    if (addr >= this.unsetTop || addr < STACK_BASE) return false;
    const sh = this.shadow;
    const end = Math.min(addr + size, this.unsetTop) - STACK_BASE;
    for (let i = addr - STACK_BASE; i < end; i++) if (sh[i] !== 0) return true;
    return false;
  }

  /** The object the first unwritten byte of [addr, addr+size) belongs to, if it is still known. */
  unsetOrigin(addr: number, size: number): UnsetOrigin | undefined {
    const sh = this.shadow;
    let a = addr;
    while (a < addr + size && sh[a - STACK_BASE] === 0) a++;
    const ms = this.marks;
    for (let k = ms.length - 1; k >= 0; k--) {
      const m = ms[k]!;
      if (a >= m.lo && a < m.hi) return { what: m.what, offset: a - m.base, copied: m.copied };
    }
    return undefined;
  }

  private checkSet(addr: number, size: number, loc: ErrorLocation | undefined): void {
    if (!this.isUnset(addr, size)) return;
    if (this.onUnset) this.onUnset(addr, size, loc);
    throw undefinedBehaviour(`read of an uninitialised value (${size} bytes at 0x${addr.toString(16)})`, {
      location: loc,
      hint: 'a local declared without an initialiser is read before it is written',
    });
  }

  /** Clears the marks of [addr, addr+size) (the bytes were written). */
  private setWritten(addr: number, size: number): void {
    const sh = this.shadow;
    const hi = Math.min(addr + size, this.unsetTop) - STACK_BASE;
    let n = 0;
    for (let i = addr - STACK_BASE; i < hi; i++)
      if (sh[i] !== 0) {
        sh[i] = 0;
        n++;
      }
    if (n !== 0) this.uncount(n);
  }

  /** `n` marked bytes were cleared; with none left, nothing needs looking at any more. */
  private uncount(n: number): void {
    this.unsetCount -= n;
    if (this.unsetCount === 0) {
      this.unsetTop = STACK_BASE;
      this.marks.length = 0;
    }
  }

  /**
   * Stack memory from `addr` up is being allocated afresh: everything at or above it is dead or
   * new, so its marks go (the next local declared without an initialiser marks its bytes again).
   */
  private release(addr: number): void {
    const ms = this.marks;
    while (ms.length && ms[ms.length - 1]!.lo >= addr) ms.pop();
    this.setWritten(addr, this.unsetTop - addr);
    if (this.unsetCount !== 0) this.unsetTop = addr;
  }

  /** Copies the marks of stack bytes [src, src+size) to [dst, dst+size) (both on the stack). */
  private copyMarks(dst: number, src: number, size: number): void {
    const from = this.unsetOrigins(src, size);
    this.putShadow(dst, this.shadow.slice(src - STACK_BASE, src - STACK_BASE + size));
    for (const m of from) this.pushMark(m.lo + dst - src, m.hi + dst - src, m.base + dst - src, m.what, true);
  }

  /** Sets the shadow of [addr, addr+bits.length) to `bits`, keeping the count and `unsetTop`. */
  private putShadow(addr: number, bits: Uint8Array): void {
    const sh = this.shadow;
    const o = addr - STACK_BASE;
    let d = 0;
    let any = false;
    for (let i = 0; i < bits.length; i++) {
      d += bits[i]! - sh[o + i]!;
      if (bits[i] !== 0) any = true;
    }
    sh.set(bits, o);
    if (any && addr + bits.length > this.unsetTop) this.unsetTop = addr + bits.length;
    this.unsetCount += d;
    if (this.unsetCount === 0) this.uncount(0);
  }

  /** The marks overlapping [addr, addr+size), clipped to it. */
  private unsetOrigins(addr: number, size: number): UnsetMark[] {
    const out: UnsetMark[] = [];
    for (const m of this.marks) {
      const lo = Math.max(m.lo, addr);
      const hi = Math.min(m.hi, addr + size);
      if (lo < hi) out.push({ lo, hi, base: m.base, what: m.what, copied: m.copied });
    }
    return out;
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

  /**
   * Bytes of [addr, addr+size) (a view into the region: writes go through, no hooks). The caller
   * may write them (memset, a host's stores), so they count as written.
   */
  view(addr: number, size: number): Uint8Array {
    const r = this.find(addr, size);
    if (addr < this.unsetTop && r === this.stack) this.setWritten(addr, size);
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
    if (r === this.stack) {
      const sh = new Uint8Array(size);
      sh.set(this.shadow);
      this.shadow = sh;
    }
  }

  /** Allocates on the stack (freed by resetting `sp`). */
  alloca(size: number, align: number): number {
    const addr = Math.ceil(this.sp / align) * align;
    this.ensure(this.stack, addr - STACK_BASE + size);
    this.sp = addr + Math.max(size, 0);
    if (addr < this.unsetTop) this.release(addr);
    return addr;
  }

  /**
   * Allocates on the stack a copy of the `size` bytes at `src`, which may lie in the memory being
   * reallocated (an aggregate result leaving its callee's frame); unwritten bytes stay unwritten.
   */
  allocaCopy(src: number, size: number, align: number): number {
    const onStack = src >= STACK_BASE && src + size <= STACK_BASE + this.stack.size;
    const from = onStack && this.isUnset(src, size) ? this.unsetOrigins(src, size) : undefined;
    const sh = from ? this.shadow.slice(src - STACK_BASE, src - STACK_BASE + size) : undefined;
    const addr = this.alloca(size, align);
    if (addr !== src) {
      if (onStack) this.stack.bytes.copyWithin(addr - STACK_BASE, src - STACK_BASE, src - STACK_BASE + size);
      else this.copy(addr, src, size);
    }
    if (sh && from) {
      this.putShadow(addr, sh);
      for (const m of from)
        this.pushMark(m.lo + addr - src, m.hi + addr - src, m.base + addr - src, m.what, true);
    }
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

  /** A load's region and offset (after its read hook); reading an unwritten stack byte is an error. */
  read(addr: number, size: number, loc?: ErrorLocation): { r: Region; off: number } {
    const r = this.find(addr, size, loc);
    if (addr < this.unsetTop && r === this.stack) this.checkSet(addr, size, loc);
    if (!this.hooksOff) r.hooks?.read?.(addr, size, r);
    return { r, off: addr - r.base };
  }

  /** The region holding [addr, addr+size), after its read hook (as `read`, without an allocation). */
  readRegion(addr: number, size: number, loc?: ErrorLocation): Region {
    const r = this.find(addr, size, loc);
    if (addr < this.unsetTop && r === this.stack) this.checkSet(addr, size, loc);
    if (!this.hooksOff && r.hooks?.read) r.hooks.read(addr, size, r);
    return r;
  }

  /** After the bytes of a store are in place: they count as written; the region's write hook. */
  wrote(r: Region, addr: number, size: number): void {
    if (addr < this.unsetTop && r === this.stack) this.setWritten(addr, size);
    r.hooks?.write?.(addr, size, r);
  }

  zero(addr: number, size: number): void {
    if (size <= 0) return;
    const r = this.find(addr, size);
    r.bytes.fill(0, addr - r.base, addr - r.base + size);
    if (addr < this.unsetTop && r === this.stack) this.setWritten(addr, size);
  }

  /** Copies bytes (memcpy, aggregate copies): unwritten stack bytes stay unwritten in the copy. */
  copy(dst: number, src: number, size: number, loc?: ErrorLocation): void {
    if (size <= 0) return;
    const s = this.find(src, size, loc);
    const d = this.find(dst, size, loc);
    d.bytes.set(s.bytes.subarray(src - s.base, src - s.base + size), dst - d.base);
    if (d === this.stack && s === this.stack && src < this.unsetTop && this.isUnset(src, size))
      this.copyMarks(dst, src, size);
    else if (dst < this.unsetTop && d === this.stack) this.setWritten(dst, size);
    d.hooks?.write?.(dst, size, d);
  }
}
