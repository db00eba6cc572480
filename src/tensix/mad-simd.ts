/**
 * The SFPU multiply-add's normal-number path in WebAssembly SIMD: 32 lanes as 8 x i32x4, branch-free,
 * the same integer algorithm as the scalar model (fma.ts `madLanesWh` / `madLanesAny`, which stay
 * the reference). Lanes outside the path (a NaN, Inf, zero or denormal A or B, an Inf or NaN C, a
 * product exponent outside 0..254, a zero sum, a result exponent field outside 1..254) are reported
 * in a bit mask and recomputed by the scalar model, so every lane's bits are the scalar model's.
 *
 * Per lane (fma.ts describes the rules): the 48-bit significand product comes from
 * i64x2.extmul (exact), is cut to 26 fraction bits with a sticky bit; the operand with the smaller
 * exponent is shifted right by the difference with the "semi-sticky" rule (a variable shift built
 * from five fixed shifts and selects, as SIMD has no per-lane shift); the sum is normalised with the
 * leading-bit position read from an exact f32 conversion and a multiply by 2^shift; Wormhole drops
 * bit 1 of a sum that carried two bits; one round-to-nearest-even.
 *
 * The module is assembled here from bytes (no toolchain), as src/pto/simd.ts does. Without
 * WebAssembly SIMD the callers use the scalar model.
 */

import { leb, section, sleb, WASM_HEADER, WasmPool, wasmExports, wasmName } from '../wasm.ts';
import { madLanesAny, madLanesWh } from './fma.ts';

type E = number[];

const simd = (sub: number): E => [0xfd, ...leb(sub)];
const bin =
  (sub: number) =>
  (a: E, b: E): E => [...a, ...b, ...simd(sub)];
const un =
  (sub: number) =>
  (a: E): E => [...a, ...simd(sub)];
const shiftOp =
  (sub: number) =>
  (a: E, n: number): E => [...a, 0x41, ...sleb(n), ...simd(sub)];

// i32x4 / v128 / i64x2 operations used (WebAssembly SIMD opcode numbers)
const eq = bin(0x37);
const ne = bin(0x38);
const gtS = bin(0x3b);
const gtU = bin(0x3c);
const geS = bin(0x3f);
const and = bin(0x4e);
const andnot = bin(0x4f); // a & ~b
const or = bin(0x50);
const xor = bin(0x51);
const bitselect = (a: E, b: E, m: E): E => [...a, ...b, ...m, ...simd(0x52)]; // (a & m) | (b & ~m)
const abs = un(0xa0);
const bitmask = un(0xa4);
const shl = shiftOp(0xab);
const shrS = shiftOp(0xac);
const shrU = shiftOp(0xad);
const add = bin(0xae);
const sub = bin(0xb1);
const mul = bin(0xb5);
const minS = bin(0xb6);
const maxS = bin(0xb8);
const extmulLowU = bin(0xde);
const extmulHighU = bin(0xdf);

const convertS = un(0xfa);

function c32(v: number): E {
  const b: number[] = [];
  for (let k = 0; k < 4; k++) for (let i = 0; i < 4; i++) b.push((v >>> (8 * i)) & 0xff);
  return [...simd(0x0c), ...b];
}
function c32x4(a: number, b: number, c: number, d: number): E {
  const out: number[] = [];
  for (const v of [a, b, c, d]) for (let i = 0; i < 4; i++) out.push((v >>> (8 * i)) & 0xff);
  return [...simd(0x0c), ...out];
}
/** The high 32 bits of each 64-bit lane of a and b, as one i32x4 (a's two, then b's two). */
function narrowHigh(a: E, b: E): E {
  return [...a, ...b, ...simd(0x0d), 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31];
}
/** (u * v) >> 32 per lane (unsigned 32 x 32 -> 64-bit products). */
function mulHigh(u: E, v: E): E {
  return narrowHigh(extmulLowU(u, v), extmulHighU(u, v));
}

// locals: 0-3 = byte addresses of the A, B, C and D rows, 4 = wh (1 on Wormhole), 5 = lane mask,
// 6 = broadcast flags (bit r: operand r is lane 0 of its row in every lane) (i32 params);
// 7 = special-lane accumulator (i32); 8 = carry bit to drop, 9-11 = broadcast selectors, 12-14 =
// broadcast values (v128); 15.. = v128 temporaries
const V128 = 0x7b;
const ACC = 7;
const FIRST_V128 = 15;
let nextLocal = FIRST_V128;
const get = (l: number): E => [0x20, ...leb(l)];
const set = (l: number, e: E): E => [...e, 0x21, ...leb(l)];
function local(): number {
  return nextLocal++;
}
const load = (row: number, off: number): E => [...get(row), ...simd(0x00), 4, ...leb(off)];
const store = (off: number, e: E): E => [...get(3), ...e, ...simd(0x0b), 4, ...leb(off)];

function bytes16(b: number[]): E {
  return [...simd(0x0c), ...b];
}
/** i8x16.swizzle(table, index): byte i = table[index[i]], or 0 when index[i] >= 16. */
const swizzle = (table: E, index: E): E => [...table, ...index, ...simd(0x0e)];
const subBytes = bin(0x71); // i8x16.sub (wrapping)

/**
 * 2^v per lane for v in 0..30 (and 0 for v < 0 or v > 31, only on lanes whose result is not used),
 * by table lookup: the low byte of v in all four bytes of its lane, minus 0, 8, 16, 24, indexes a
 * table of 1 << k for k = 0..7 (zeros from 8 on; a negative difference wraps to >= 16, which also
 * reads 0). Three byte operations, where a float conversion (trunc_sat) costs about seven on x64.
 */
function pow2(v: E): E {
  const spread = swizzle(v, bytes16([0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12]));
  const index = subBytes(spread, bytes16([0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24]));
  return swizzle(bytes16([1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0]), index);
}

function kernelBody(): E {
  nextLocal = FIRST_V128;
  const x = local();
  const y = local();
  const z = local();
  const xe = local();
  const ye = local();
  const ze = local();
  const pe = local();
  const sp = local();
  const pSign = local();
  const zSign = local();
  const pm = local();
  const zm = local();
  const ge = local();
  const e = local();
  const dd = local();
  const small = local();
  const q = local();
  const back = local();
  const en = local();
  const al = local();
  const sum = local();
  const s = local();
  const big = local();
  const sh = local();
  const sn = local();
  const xm = local();
  const ym = local();
  const code: E = [];
  // the carry bit that Wormhole's normalising right shift loses: 2 on Wormhole, 0 on Blackhole
  code.push(...set(8, [...get(4), 0x41, 1, 0x74, ...simd(0x11)])); // i32x4.splat(wh << 1)
  for (let r = 0; r < 3; r++) {
    // selector: all ones when operand r is broadcast; value: lane 0 of its row in every lane
    code.push(...set(9 + r, [0x41, 0, ...get(6), 0x41, r, 0x76, 0x41, 1, 0x71, 0x6b, ...simd(0x11)]));
    code.push(...set(12 + r, [...get(r), ...simd(0x09), 2, 0])); // v128.load32_splat
  }
  const operand = (r: number, o: number): E => bitselect(get(12 + r), load(r, o), get(9 + r));
  for (let k = 0; k < 8; k++) {
    const o = 16 * k;
    code.push(
      ...set(x, operand(0, o)),
      ...set(y, operand(1, o)),
      ...set(z, operand(2, o)),
      ...set(xe, and(shrU(get(x), 23), c32(255))),
      ...set(ye, and(shrU(get(y), 23), c32(255))),
      ...set(ze, and(shrU(get(z), 23), c32(255))),
      ...set(pe, sub(add(get(xe), get(ye)), c32(127))),
      // outside the path: A or B exponent 0 or 255, C exponent 255, product exponent < 0 or > 254
      ...set(
        sp,
        or(
          or(gtU(sub(get(xe), c32(1)), c32(253)), gtU(sub(get(ye), c32(1)), c32(253))),
          or(eq(get(ze), c32(255)), gtU(get(pe), c32(254))), // pe < 0 is a huge unsigned value
        ),
      ),
      ...set(pSign, shrS(xor(get(x), get(y)), 31)),
      ...set(zSign, shrS(get(z), 31)),
      ...set(xm, or(and(get(x), c32(0x7fffff)), c32(0x800000))),
      ...set(ym, or(and(get(y), c32(0x7fffff)), c32(0x800000))),
      // product: 48 bits exact in 64-bit lanes; keep bits 47..20, sticky from bits 19..0
      // product: bits 47..20 of the exact 48-bit product, as the high half of (xm << 8) * (ym << 4);
      // sticky bit from bits 19..0, which the low half of xm * ym holds
      ...set(
        pm,
        or(
          mulHigh(shl(get(xm), 8), shl(get(ym), 4)),
          and(ne(and(mul(get(xm), get(ym)), c32(0xfffff)), c32(0)), c32(1)),
        ),
      ),
      ...set(zm, andnot(shl(or(and(get(z), c32(0x7fffff)), c32(0x800000)), 3), eq(get(ze), c32(0)))),
      // align the operand with the smaller exponent (ge: the product's is not smaller)
      ...set(ge, geS(get(pe), get(ze))),
      ...set(e, maxS(get(pe), get(ze))),
      // shifts of 29 and more leave nothing of a value below 2^29 (q = 0, no sticky bit either)
      ...set(dd, minS(abs(sub(get(pe), get(ze))), c32(29))),
      ...set(small, bitselect(get(zm), get(pm), get(ge))),
      // small * 2^(32 - dd) as a 64-bit product of (small << 3) and 2^(29 - dd): its high half is
      // small >> dd, its low half holds the bits shifted out (non-zero when any was set)
      ...set(back, pow2(sub(c32(29), get(dd)))),
      ...set(small, shl(get(small), 3)),
      ...set(q, mulHigh(get(small), get(back))),
      ...set(al, or(get(q), and(and(ne(mul(get(small), get(back)), c32(0)), ne(get(q), c32(0))), c32(1)))),
      ...set(pm, bitselect(get(pm), get(al), get(ge))),
      ...set(zm, bitselect(get(al), get(zm), get(ge))),
      ...set(sum, add(sub(xor(get(pm), get(pSign)), get(pSign)), sub(xor(get(zm), get(zSign)), get(zSign)))),
      ...set(sp, or(get(sp), eq(get(sum), c32(0)))),
      ...set(s, abs(get(sum))),
      ...set(s, andnot(get(s), and(gtS(get(s), c32(0x0fffffff)), get(8)))),
      // leading-bit position from the exponent of an exact f32 conversion: of s, or when s >= 2^24 of
      // s without its low 5 bits (24 significant bits at most, same leading bit)
      ...set(big, gtS(get(s), c32(0xffffff))),
      ...set(sh, sub(c32(28 + 127), shrU(convertS(andnot(get(s), and(get(big), c32(31)))), 23))),
      // s << sh as s * 2^sh (2^sh by table lookup, pow2; sh is 0..28)
      ...set(sn, mul(get(s), pow2(get(sh)))),
      ...set(e, add(get(e), sub(c32(2), get(sh)))),
      ...set(sp, or(get(sp), gtU(sub(get(e), c32(1)), c32(253)))), // e outside 1..254
      // enabled lanes of this group that are on the path take the result; the others keep D
      ...set(
        en,
        andnot(
          ne(and([...get(5), 0x41, ...sleb(4 * k), 0x76, ...simd(0x11)], c32x4(1, 2, 4, 8)), c32(0)),
          get(sp),
        ),
      ),
      ...store(
        o,
        bitselect(
          or(
            add(
              shl(sub(get(e), c32(1)), 23),
              shrU(add(add(get(sn), c32(15)), and(shrU(get(sn), 5), c32(1))), 5),
            ),
            and(shrS(get(sum), 31), c32(0x80000000 | 0)),
          ),
          load(3, o),
          get(en),
        ),
      ),
      // special |= bitmask(sp) << 4k
      ...get(ACC),
      ...bitmask(get(sp)),
      0x41,
      ...sleb(4 * k),
      0x74, // i32.shl
      0x72, // i32.or
      0x21,
      ACC,
    );
  }
  code.push(...get(ACC), 0x0b);
  const locals = [0x02, 0x01, 0x7f, ...leb(nextLocal - 8), V128];
  const body = [...locals, ...code];
  return [...leb(body.length), ...body];
}

function moduleBytes(): Uint8Array {
  const name = wasmName;
  return new Uint8Array([
    ...WASM_HEADER,
    ...section(1, [0x01, 0x60, 0x07, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]), // (i32 x 7) -> i32
    ...section(2, [0x01, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]), // memory import
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name('mad'), 0x00, 0x00]),
    ...section(10, [0x01, ...kernelBody()]),
  ]);
}

type Kernel = (a: number, b: number, c: number, d: number, wh: number, mask: number, bcast: number) => number;

/** Pool of LReg files in the kernel's memory (fixed size: never grown, so views never detach). */
const POOL_PAGES = 64; // 4 MiB: about 1,700 live machines; more use plain arrays (and copies)
/** Bytes 0..511: the rows of a call whose LReg file is not in the pool (copied in and out). */
const SCRATCH_BYTES = 512;

let pool: WasmPool | undefined;
let scratch: Uint32Array = new Uint32Array(0);
/** The kernel: undefined until first needed (assembling it costs milliseconds), null when unavailable. */
let kernel: Kernel | null | undefined;
let poolTried = false;

/** The memory (cheap: created at the first machine). */
function initPool(): void {
  if (poolTried) return;
  poolTried = true;
  pool = WasmPool.create(POOL_PAGES, { reserved: SCRATCH_BYTES });
  if (pool) scratch = new Uint32Array(pool.buffer, 0, SCRATCH_BYTES / 4);
}

/** The kernel, assembled and compiled at its first use; null without WebAssembly SIMD. */
function getKernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  initPool();
  // no WebAssembly SIMD here: the scalar model runs every lane
  kernel = pool ? ((wasmExports(moduleBytes(), pool.memory)?.mad as Kernel | undefined) ?? null) : null;
  return kernel;
}

/** Whether the SIMD kernel is in use on this host. */
export function simdAvailable(): boolean {
  return getKernel() !== null;
}

/**
 * A zeroed Uint32Array of `words` words for a machine's LReg file: in the kernel's memory when
 * there is room (the kernel then works in place), else an ordinary array. The block returns to the
 * pool when the array is garbage-collected.
 */
export function allocLregFile(words: number): Uint32Array {
  initPool();
  const bytes = (words * 4 + 15) & ~15;
  const offset = pool ? pool.alloc(bytes) : -1;
  if (!pool || offset < 0) return new Uint32Array(words);
  const v = new Uint32Array(pool.buffer, offset, words);
  v.fill(0);
  pool.recycle(offset, bytes, [v]);
  return v;
}

/** The byte address of `L` in the kernel's memory, or -1 when it is an ordinary array. */
export function poolAddress(L: Uint32Array): number {
  return pool !== undefined && L.buffer === pool.buffer ? L.byteOffset : -1;
}

/**
 * fma.ts `madLanes`'s contract with the normal lanes in SIMD: Wormhole (`wh` 1, never negated, as
 * {@link madLanesWh}) or Blackhole (`wh` 0, as {@link madLanesAny}; flip: bit 0 negates A, bit 1
 * negates C). `addr` is {@link poolAddress}(L). Operand rows at a, b, c with strides sa, sb, sc
 * (1, or 0 for a broadcast row, which is never the destination). The lanes the kernel reports and
 * every lane on a host without the kernel go to the scalar model.
 */
export function madLanesSimd(
  L: Uint32Array,
  addr: number,
  mask: number,
  a: number,
  sa: number,
  b: number,
  sb: number,
  c: number,
  sc: number,
  d: number,
  flip: number,
  wh: 0 | 1,
): void {
  const k = kernel ?? getKernel();
  let slow = mask;
  if (k && addr >= 0 && flip === 0) {
    // in place (the compiled SFPU programs' case): the kernel reads the rows from L and writes the
    // normal lanes of d
    const bcast = (sa ^ 1) | ((sb ^ 1) << 1) | ((sc ^ 1) << 2);
    slow = k(addr + 4 * a, addr + 4 * b, addr + 4 * c, addr + 4 * d, wh, mask, bcast) & mask;
  } else if (k) {
    const r = ROWS;
    r[0] = a;
    r[1] = sa;
    r[2] = b;
    r[3] = sb;
    r[4] = c;
    r[5] = sc;
    slow = throughScratch(k, L, mask, d, flip, wh);
  }
  if (slow === 0) return;
  if (wh) madLanesWh(L, slow, a, sa, b, sb, c, sc, d);
  else madLanesAny(L, slow, a, sa, b, sb, c, sc, d, flip, true);
}

/** The operand rows of a {@link throughScratch} call: a, sa, b, sb, c, sc. */
const ROWS = new Int32Array(6);

/**
 * {@link madLanesSimd} on rows ({@link ROWS}) copied to the scratch rows, negations applied on the
 * way in: the normal lanes are written back to d; returns the lanes left to the scalar model. A
 * function of its own so that the in-place path stays small enough to be inlined into the compiled
 * programs.
 */
function throughScratch(k: Kernel, L: Uint32Array, mask: number, d: number, flip: number, wh: 0 | 1): number {
  const r = ROWS;
  const sa = r[1]!;
  const sb = r[3]!;
  const sc = r[5]!;
  const m = scratch;
  const negA = (flip & 1) << 31;
  const negC = (flip & 2) << 30;
  for (let l = 0, ia = r[0]!, ib = r[2]!, ic = r[4]!; l < 32; l++, ia += sa, ib += sb, ic += sc) {
    m[l] = L[ia]! ^ negA;
    m[32 + l] = L[ib]!;
    m[64 + l] = L[ic]! ^ negC;
  }
  const special = k(0, 128, 256, 384, wh, -1, 0);
  const fast = mask & ~special;
  if (fast === -1) for (let l = 0; l < 32; l++) L[d + l] = m[96 + l]!;
  else for (let l = 0; l < 32; l++) if ((fast >>> l) & 1) L[d + l] = m[96 + l]!;
  return special & mask;
}
