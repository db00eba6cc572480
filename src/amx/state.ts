import { badInput, nearestName } from '../errors.ts';
import { allocAmxRegisters } from './fma64-simd.ts';

/** Hardware generations; behaviour differences are listed in docs/amx.md (per corsix/amx). */
export type AmxGen = 'm1' | 'm2' | 'm3' | 'm4';
export const AMX_GENS: readonly AmxGen[] = ['m1', 'm2', 'm3', 'm4'];

export function parseGen(name: string): AmxGen {
  const g = name.toLowerCase();
  if ((AMX_GENS as readonly string[]).includes(g)) return g as AmxGen;
  const near = nearestName(name, AMX_GENS);
  throw badInput(`unknown AMX generation '${name}'`, {
    hint: `use one of ${AMX_GENS.join(', ')}${near ? ` (did you mean ${near}?)` : ''}`,
  });
}

const PAGE_BITS = 12;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

function hexAddr(lo: number, hi: number): string {
  return `0x${((BigInt(hi) << 32n) | BigInt(lo >>> 0)).toString(16)}`;
}

/**
 * A flat, little-endian, 56-bit byte-addressed memory, stored sparsely in 4 KiB pages. Pages exist
 * once mapped (or written through `writeBytes`); an AMX load or store that touches an unmapped page
 * is a BadInput error rather than silently reading zeros.
 *
 * Addresses are passed as (lo, hi) 32-bit halves in the hot paths (hi < 2^24) and as bigint in the
 * convenience API.
 */
export class AmxMemory {
  readonly pages = new Map<number, Uint8Array>();

  private key(lo: number, hi: number): number {
    return hi * 2 ** 20 + (lo >>> PAGE_BITS);
  }

  /** Makes [addr, addr+len) accessible (zero-filled where new). */
  map(addr: bigint, len: number): void {
    if (len <= 0) return;
    const start = addr & ~BigInt(PAGE_MASK);
    for (let a = start; a < addr + BigInt(len); a += BigInt(PAGE_SIZE)) {
      const lo = Number(a & 0xffffffffn);
      const hi = Number(a >> 32n);
      if (hi >= 1 << 24) throw badInput(`address ${hexAddr(lo, hi)} is beyond the 56-bit address space`);
      const k = this.key(lo, hi);
      if (!this.pages.has(k)) this.pages.set(k, new Uint8Array(PAGE_SIZE));
    }
  }

  private page(lo: number, hi: number, what: string): Uint8Array {
    const p = this.pages.get(this.key(lo, hi));
    if (p === undefined) {
      throw badInput(`AMX ${what} touches unmapped memory at ${hexAddr(lo, hi)}`, {
        hint: 'map the memory first (a .data/.space directive, --mem FILE.npy@ADDR, or AmxMemory.map)',
      });
    }
    return p;
  }

  /** Copies `len` bytes from memory at (lo, hi) to dst[dstOff..]. */
  read(lo: number, hi: number, dst: Uint8Array, dstOff: number, len: number): void {
    lo >>>= 0;
    while (len > 0) {
      const page = this.page(lo, hi, 'load');
      const off = lo & PAGE_MASK;
      const n = Math.min(len, PAGE_SIZE - off);
      dst.set(page.subarray(off, off + n), dstOff);
      dstOff += n;
      len -= n;
      lo += n;
      if (lo >= 2 ** 32) {
        lo -= 2 ** 32;
        hi = (hi + 1) & 0xffffff;
      }
    }
  }

  /** Copies `len` bytes from src[srcOff..] to memory at (lo, hi). */
  write(lo: number, hi: number, src: Uint8Array, srcOff: number, len: number): void {
    lo >>>= 0;
    while (len > 0) {
      const page = this.page(lo, hi, 'store');
      const off = lo & PAGE_MASK;
      const n = Math.min(len, PAGE_SIZE - off);
      page.set(src.subarray(srcOff, srcOff + n), off);
      srcOff += n;
      len -= n;
      lo += n;
      if (lo >= 2 ** 32) {
        lo -= 2 ** 32;
        hi = (hi + 1) & 0xffffff;
      }
    }
  }

  readBytes(addr: bigint, len: number): Uint8Array {
    // Masking an address with bits >= 56 would read (and label) another address's bytes.
    if (addr < 0n || addr + BigInt(len) > 1n << 56n) {
      throw badInput(`address range 0x${addr.toString(16)}+${len} is beyond the 56-bit address space`);
    }
    const out = new Uint8Array(len);
    this.read(Number(addr & 0xffffffffn), Number((addr >> 32n) & 0xffffffn), out, 0, len);
    return out;
  }

  /** Writes bytes, mapping the pages they need. */
  writeBytes(addr: bigint, bytes: Uint8Array): void {
    this.map(addr, bytes.length);
    this.write(Number(addr & 0xffffffffn), Number((addr >> 32n) & 0xffffffn), bytes, 0, bytes.length);
  }
}

/** A typed view of exactly the bytes of `b`. */
function view<T>(
  C: new (buffer: ArrayBuffer, byteOffset: number, length: number) => T & { BYTES_PER_ELEMENT: number },
  b: Uint8Array,
): T {
  const c = C as unknown as { BYTES_PER_ELEMENT: number };
  return new C(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength / c.BYTES_PER_ELEMENT);
}

/**
 * The architectural state of one AMX context: X and Y (8 x 64 bytes each, also viewed as one
 * 512-byte circular buffer), Z (64 x 64 bytes), the set/clr enabled flag, and the memory that
 * load/store operands address. All registers are raw little-endian bytes with typed views.
 */
export class AmxState {
  readonly gen: AmxGen;
  /** 1 for m1 … 4 for m4: the numeric form the executors test against. */
  readonly ver: number;
  /**
   * X, Y and Z live in the SIMD kernel's WebAssembly memory when there is room (fma64-simd.ts), so
   * they are views that need not start at byte 0 of their buffer: make other views of them with
   * their byteOffset and byteLength (e.g. `new Float64Array(s.z.buffer, s.z.byteOffset, 512)`).
   */
  private readonly regs = allocAmxRegisters();
  readonly x: Uint8Array = this.regs.x;
  readonly y: Uint8Array = this.regs.y;
  readonly z: Uint8Array = this.regs.z;
  /** Byte address of X in the kernel's memory (Y at +512, Z at +1024), or -1 (ordinary arrays). */
  readonly regAddr: number = this.regs.addr;
  readonly x32 = view(Uint32Array, this.x);
  readonly y32 = view(Uint32Array, this.y);
  readonly xf64 = view(Float64Array, this.x);
  readonly yf64 = view(Float64Array, this.y);
  readonly xf32 = view(Float32Array, this.x);
  readonly yf32 = view(Float32Array, this.y);
  readonly z16 = view(Uint16Array, this.z);
  readonly z32 = view(Uint32Array, this.z);
  readonly zf32 = view(Float32Array, this.z);
  readonly zf64 = view(Float64Array, this.z);
  readonly zi16 = view(Int16Array, this.z);
  readonly zi32 = view(Int32Array, this.z);
  /** True between `set` and `clr`. */
  enabled = false;
  /** When true, executing a data instruction while disabled is an error (the hardware faults). */
  requireEnabled = false;
  mem: AmxMemory;

  constructor(opts: { gen?: AmxGen; mem?: AmxMemory } = {}) {
    this.gen = opts.gen ?? 'm1';
    this.ver = AMX_GENS.indexOf(this.gen) + 1;
    this.mem = opts.mem ?? new AmxMemory();
  }

  /** Zeroes X, Y and Z. */
  clearRegisters(): void {
    this.x.fill(0);
    this.y.fill(0);
    this.z.fill(0);
  }

  /** The 5,120-byte register image in the order X rows 0-7, Y rows 0-7, Z rows 0-63. */
  registerImage(): Uint8Array {
    const out = new Uint8Array(5120);
    out.set(this.x, 0);
    out.set(this.y, 512);
    out.set(this.z, 1024);
    return out;
  }
}

/** FNV-1a-64 over bytes (used by AMX-PERF.md and AMX-FORMAT.md to fingerprint states). */
export function fnv1a64(bytes: Uint8Array): bigint {
  // Two 32-bit halves to avoid BigInt arithmetic per byte. prime = 0x100000001b3.
  let hLo = 0x84222325;
  let hHi = 0xcbf29ce4;
  for (let i = 0; i < bytes.length; i++) {
    hLo = (hLo ^ bytes[i]!) >>> 0;
    // (hHi:hLo) * 0x1b3 + ((hLo << 40) as 64-bit) ; 0x100000001b3 = 2^40 + 0x1b3
    const loProd = hLo * 0x1b3;
    const newLo = loProd >>> 0;
    const carry = Math.floor(loProd / 2 ** 32);
    const newHi = (Math.imul(hHi, 0x1b3) + carry + ((hLo << 8) >>> 0)) >>> 0;
    hLo = newLo;
    hHi = newHi;
  }
  return (BigInt(hHi) << 32n) | BigInt(hLo);
}
