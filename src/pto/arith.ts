/**
 * Element arithmetic with the semantics of the pto-isa CPU simulator's C++ (x86-64, clang):
 * each element type has a "compute domain" (the type C++ evaluates expressions in) and a store
 * conversion back to the element type.
 *
 * - f32: float arithmetic (every op rounds to binary32).
 * - f16 / bf16: `_Float16` / bfloat16 expressions are evaluated in float and rounded to the
 *   element type only when assigned (clang's excess-precision rule), so ops round to binary32 and
 *   `store` rounds to 16 bits.
 * - f8e4m3 / f8e5m2 (`MXType`): operators convert to double and return double; `store` is the
 *   simulator's truncating `MXType(double)` (cpu profile) or OCP round-to-nearest (a5 profile).
 * - 8/16-bit integers are promoted to int; 32-bit wrap; 64-bit use bigint. Wrapping at every step
 *   is equivalent for + - * (a ring homomorphism), and division/shift handle promotion explicitly.
 *   Division by zero and INT_MIN / -1 (x86 `idiv` traps) are raised as UndefinedBehaviour; shifts
 *   take the amount modulo the promoted width like the x86 instructions (the tile-scalar shift ops
 *   reject out-of-range amounts themselves, see insns/bitwise.ts).
 */
import { undefinedBehaviour } from '../errors.ts';
import { DTYPE_INFO, type DType } from './dtype.ts';
import {
  BF16_TABLE,
  castF64ToInt,
  cvt64,
  cvtU64,
  F16_TABLE,
  type Fp8Name,
  f32ToF16Bits,
  f64ToBf16Bits,
  f64ToF16Bits,
  MX_TABLE,
  mxEncode,
  OCP_TABLE,
  ocpEncode,
} from './hostcast.ts';
import { pin } from './simd.ts';
import type { Tile } from './tile.ts';

export type Profile = 'cpu' | 'a2a3' | 'a5';
export const PROFILES: readonly Profile[] = ['cpu', 'a2a3', 'a5'];

/** A typed view of a tile's bytes (the concrete array type depends on the element type). */
export type ElemView =
  | Float32Array
  | Uint16Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

export interface Arith<V> {
  readonly dtype: DType;
  readonly big: boolean;
  readonly zero: V;
  readonly one: V;
  view(bytes: Uint8Array): ElemView;
  load(v: ElemView, i: number): V;
  store(v: ElemView, i: number, x: V): void;
  add(a: V, b: V): V;
  sub(a: V, b: V): V;
  mul(a: V, b: V): V;
  /** `a / b`; integer division by zero or INT_MIN/-1 raise UndefinedBehaviour. */
  div(a: V, b: V): V;
  /** C++ `%` for integers, `static_cast<T>(fmod(a, b))` for floats. */
  rem(a: V, b: V): V;
  neg(a: V): V;
  lt(a: V, b: V): boolean;
  le(a: V, b: V): boolean;
  eq(a: V, b: V): boolean;
  and(a: V, b: V): V;
  or(a: V, b: V): V;
  xor(a: V, b: V): V;
  not(a: V): V;
  shl(a: V, b: V): V;
  shr(a: V, b: V): V;
  /** `static_cast<T>(double)` into the compute domain. */
  fromF64(x: number): V;
  /** `static_cast<double>(a)`. */
  toF64(a: V): number;
  /** The value after assignment to a variable of the element type. */
  round(a: V): V;
  /** True when a >= 0 (for the remainder sign fix-ups). */
  nonNeg(a: V): boolean;
}

const fr = Math.fround;

function bytesView<T extends object>(
  bytes: Uint8Array,
  C: new (b: ArrayBufferLike, o: number, n: number) => T,
  size: number,
): T {
  // a view of a pooled tile buffer keeps the block's byte view (and so the block) alive
  return pin(new C(bytes.buffer, bytes.byteOffset, bytes.byteLength / size), bytes);
}

class FloatArith implements Arith<number> {
  readonly big = false;
  readonly zero = 0;
  readonly one = 1;
  constructor(
    readonly dtype: DType,
    /** compute-domain rounding (fround for f32/f16/bf16; identity for fp8 double arithmetic) */
    protected readonly r: (x: number) => number,
    protected readonly dec: ((code: number) => number) | null,
    protected readonly enc: ((x: number) => number) | null,
    protected readonly fromD: (x: number) => number,
    protected readonly size: number,
  ) {}
  view(bytes: Uint8Array): ElemView {
    if (this.size === 4) return bytesView(bytes, Float32Array, 4);
    if (this.size === 2) return bytesView(bytes, Uint16Array, 2);
    return bytes;
  }
  load(v: ElemView, i: number): number {
    const x = (v as Float32Array)[i]!;
    return this.dec === null ? x : this.dec(x);
  }
  store(v: ElemView, i: number, x: number): void {
    (v as Float32Array)[i] = this.enc === null ? x : this.enc(x);
  }
  add(a: number, b: number): number {
    return this.r(a + b);
  }
  sub(a: number, b: number): number {
    return this.r(a - b);
  }
  mul(a: number, b: number): number {
    return this.r(a * b);
  }
  div(a: number, b: number): number {
    return this.r(a / b);
  }
  rem(a: number, b: number): number {
    return this.fromD(a % b);
  }
  neg(a: number): number {
    return this.r(-a);
  }
  lt(a: number, b: number): boolean {
    return a < b;
  }
  le(a: number, b: number): boolean {
    return a <= b;
  }
  eq(a: number, b: number): boolean {
    return a === b;
  }
  and(): number {
    return noBitwise(this.dtype);
  }
  or(): number {
    return noBitwise(this.dtype);
  }
  xor(): number {
    return noBitwise(this.dtype);
  }
  not(): number {
    return noBitwise(this.dtype);
  }
  shl(): number {
    return noBitwise(this.dtype);
  }
  shr(): number {
    return noBitwise(this.dtype);
  }
  fromF64(x: number): number {
    return this.fromD(x);
  }
  toF64(a: number): number {
    return a;
  }
  round(a: number): number {
    return this.fromD(a);
  }
  nonNeg(a: number): boolean {
    return a >= 0;
  }
}

function noBitwise(d: DType): never {
  throw undefinedBehaviour(`bitwise operation on floating-point type ${d}`);
}

/**
 * The simulator's fp8 (`MXType`): values decode to double and operators return double. Decoding
 * is not injective (0x80 reads as +0; exponent-0 codes 4..7 re-encode differently), so a result
 * that C++ holds as an MXType (`static_cast<T>(double)` assigned straight to the tile) must keep its
 * code: `fromF64` remembers the code of the value it returns and the next `store` of that very
 * value writes the code.
 */
class MxArith extends FloatArith {
  private lastCode = -1;
  private lastVal = 0;
  private readonly table: Float64Array;
  private readonly name: Fp8Name;
  constructor(d: Fp8Name) {
    const t = MX_TABLE[d];
    super(
      d,
      (x) => x + 0,
      (c) => t[c]!,
      (x) => mxEncode(d, x),
      (x) => t[mxEncode(d, x)]!,
      1,
    );
    this.table = t;
    this.name = d;
  }
  override fromF64(x: number): number {
    const c = mxEncode(this.name, x);
    this.lastCode = c;
    this.lastVal = this.table[c]!;
    return this.lastVal;
  }
  override rem(a: number, b: number): number {
    return this.fromF64(a % b);
  }
  override store(v: ElemView, i: number, x: number): void {
    if (this.lastCode >= 0 && Object.is(x, this.lastVal)) v[i] = this.lastCode;
    else v[i] = mxEncode(this.name, x);
    this.lastCode = -1;
  }
}

class IntArith implements Arith<number> {
  readonly big = false;
  readonly zero = 0;
  readonly one = 1;
  private readonly bits: 8 | 16 | 32;
  private readonly signed: boolean;
  constructor(readonly dtype: DType) {
    this.bits = (DTYPE_INFO[dtype].bytes * 8) as 8 | 16 | 32;
    this.signed = DTYPE_INFO[dtype].signed;
  }
  view(bytes: Uint8Array): ElemView {
    switch (this.dtype) {
      case 'i8':
        return bytesView(bytes, Int8Array, 1);
      case 'u8':
        return bytes;
      case 'i16':
        return bytesView(bytes, Int16Array, 2);
      case 'u16':
        return bytesView(bytes, Uint16Array, 2);
      case 'i32':
        return bytesView(bytes, Int32Array, 4);
      default:
        return bytesView(bytes, Uint32Array, 4);
    }
  }
  private w(x: number): number {
    switch (this.bits) {
      case 8:
        return this.signed ? (x << 24) >> 24 : x & 0xff;
      case 16:
        return this.signed ? (x << 16) >> 16 : x & 0xffff;
      default:
        return this.signed ? x | 0 : x >>> 0;
    }
  }
  load(v: ElemView, i: number): number {
    return (v as Int32Array)[i]!;
  }
  store(v: ElemView, i: number, x: number): void {
    (v as Int32Array)[i] = x;
  }
  add(a: number, b: number): number {
    return this.w(a + b);
  }
  sub(a: number, b: number): number {
    return this.w(a - b);
  }
  mul(a: number, b: number): number {
    return this.bits === 32 ? this.w(Math.imul(a, b)) : this.w(a * b);
  }
  private checkDiv(a: number, b: number): void {
    if (b === 0)
      throw undefinedBehaviour(
        `integer division by zero (${this.dtype}); the reference simulator dies with SIGFPE`,
      );
    if (this.bits === 32 && this.signed && a === -2147483648 && b === -1) {
      throw undefinedBehaviour('INT_MIN / -1 on i32 overflows; the reference simulator dies with SIGFPE');
    }
  }
  div(a: number, b: number): number {
    this.checkDiv(a, b);
    return this.w(Math.trunc(a / b));
  }
  rem(a: number, b: number): number {
    this.checkDiv(a, b);
    return this.w(a % b);
  }
  neg(a: number): number {
    return this.w(-a);
  }
  lt(a: number, b: number): boolean {
    return a < b;
  }
  le(a: number, b: number): boolean {
    return a <= b;
  }
  eq(a: number, b: number): boolean {
    return a === b;
  }
  and(a: number, b: number): number {
    return this.w(a & b);
  }
  or(a: number, b: number): number {
    return this.w(a | b);
  }
  xor(a: number, b: number): number {
    return this.w(a ^ b);
  }
  not(a: number): number {
    return this.w(~a);
  }
  // 8/16-bit operands are promoted to 32-bit int. Amounts outside 0..31 are undefined in C++; the
  // reference build compiles to scalar x86 shl/sar/shr, which use the amount modulo 32 (docs/pto.md).
  shl(a: number, b: number): number {
    return this.w(a << (b & 31));
  }
  shr(a: number, b: number): number {
    return this.bits === 32 && !this.signed ? a >>> (b & 31) : this.w(a >> (b & 31));
  }
  fromF64(x: number): number {
    return castF64ToInt(this.bits, this.signed, x);
  }
  toF64(a: number): number {
    return a;
  }
  round(a: number): number {
    return a;
  }
  nonNeg(a: number): boolean {
    return a >= 0;
  }
}

class BigArith implements Arith<bigint> {
  readonly big = true;
  readonly zero = 0n;
  readonly one = 1n;
  private readonly signed: boolean;
  constructor(readonly dtype: DType) {
    this.signed = dtype === 'i64';
  }
  view(bytes: Uint8Array): ElemView {
    return this.signed ? bytesView(bytes, BigInt64Array, 8) : bytesView(bytes, BigUint64Array, 8);
  }
  private w(x: bigint): bigint {
    return this.signed ? BigInt.asIntN(64, x) : BigInt.asUintN(64, x);
  }
  load(v: ElemView, i: number): bigint {
    return (v as BigInt64Array)[i]!;
  }
  store(v: ElemView, i: number, x: bigint): void {
    (v as BigInt64Array)[i] = x;
  }
  add(a: bigint, b: bigint): bigint {
    return this.w(a + b);
  }
  sub(a: bigint, b: bigint): bigint {
    return this.w(a - b);
  }
  mul(a: bigint, b: bigint): bigint {
    return this.w(a * b);
  }
  private checkDiv(a: bigint, b: bigint): void {
    if (b === 0n)
      throw undefinedBehaviour(
        `integer division by zero (${this.dtype}); the reference simulator dies with SIGFPE`,
      );
    if (this.signed && a === -(1n << 63n) && b === -1n) {
      throw undefinedBehaviour('INT64_MIN / -1 overflows; the reference simulator dies with SIGFPE');
    }
  }
  div(a: bigint, b: bigint): bigint {
    this.checkDiv(a, b);
    return this.w(a / b);
  }
  rem(a: bigint, b: bigint): bigint {
    this.checkDiv(a, b);
    return this.w(a % b);
  }
  neg(a: bigint): bigint {
    return this.w(-a);
  }
  lt(a: bigint, b: bigint): boolean {
    return a < b;
  }
  le(a: bigint, b: bigint): boolean {
    return a <= b;
  }
  eq(a: bigint, b: bigint): boolean {
    return a === b;
  }
  and(a: bigint, b: bigint): bigint {
    return this.w(a & b);
  }
  or(a: bigint, b: bigint): bigint {
    return this.w(a | b);
  }
  xor(a: bigint, b: bigint): bigint {
    return this.w(a ^ b);
  }
  not(a: bigint): bigint {
    return this.w(~a);
  }
  // x86 64-bit shifts use the amount modulo 64 (C++ leaves >= 64 and negative amounts undefined)
  shl(a: bigint, b: bigint): bigint {
    return this.w(a << (b & 63n));
  }
  shr(a: bigint, b: bigint): bigint {
    return a >> (b & 63n);
  }
  fromF64(x: number): bigint {
    return this.signed ? cvt64(x) : cvtU64(x);
  }
  toF64(a: bigint): number {
    return Number(a);
  }
  round(a: bigint): bigint {
    return a;
  }
  nonNeg(a: bigint): boolean {
    return a >= 0n;
  }
}

const id = (x: number) => x;

function makeArith(d: DType, profile: Profile): Arith<number> | Arith<bigint> {
  switch (d) {
    case 'f32':
      return new FloatArith(d, fr, null, null, fr, 4);
    case 'f16':
      return new FloatArith(
        d,
        fr,
        (c) => F16_TABLE[c]!,
        f32ToF16Bits,
        (x) => F16_TABLE[f64ToF16Bits(x)]!,
        2,
      );
    case 'bf16':
      return new FloatArith(
        d,
        fr,
        (c) => BF16_TABLE[c]!,
        f64ToBf16Bits,
        (x) => BF16_TABLE[f64ToBf16Bits(x)]!,
        2,
      );
    case 'f8e4m3':
    case 'f8e5m2': {
      if (profile === 'a5') {
        const t = OCP_TABLE[d];
        return new FloatArith(
          d,
          id,
          (c) => t[c]!,
          (x) => ocpEncode(d, x),
          (x) => t[ocpEncode(d, x)]!,
          1,
        );
      }
      return new MxArith(d);
    }
    case 'i64':
    case 'u64':
      return new BigArith(d);
    default:
      return new IntArith(d);
  }
}

const cache = new Map<string, Arith<number> | Arith<bigint>>();

/** The arithmetic of element type `d` under `profile` (cached). */
export function arithOf(d: DType, profile: Profile = 'cpu'): Arith<number> | Arith<bigint> {
  const key = `${d}/${profile === 'a5' ? 'a5' : 'cpu'}`;
  let a = cache.get(key);
  if (a === undefined) {
    a = makeArith(d, profile);
    cache.set(key, a);
  }
  return a;
}

/** Same, typed loosely for generic kernels that only pass values through the Arith itself. */
export function anyArith(d: DType, profile: Profile = 'cpu'): Arith<unknown> {
  return arithOf(d, profile) as unknown as Arith<unknown>;
}

/** Convenience: a tile's typed view. */
export function viewOf(t: Tile, profile: Profile = 'cpu'): ElemView {
  return arithOf(t.dtype, profile).view(t.bytes);
}
