/**
 * Resolved C/C++ types of the evaluator, with sizes and alignments of the target's data model:
 * `ilp32` (RISC-V rv32, the Tensix cores: int/long/pointers 32-bit) or `lp64` (AArch64, AMX hosts:
 * long and pointers 64-bit).
 */
import type { EnumDecl, FuncDecl, RecordDecl } from './ast.ts';

export type DataModel = 'ilp32' | 'lp64';

export interface IntType {
  k: 'int';
  bits: number;
  signed: boolean;
  /**
   * The type's canonical spelling ('char', 'signed char', 'long', 'unsigned long long', 'wchar_t', …).
   * With `bits`, the type's identity: C++ [basic.fundamental] makes `char`, `signed char` and
   * `unsigned char` three types, and `int`, `long`, `long long` distinct types even when their
   * sizes are equal (ilp32: int = long; lp64: long = long long).
   */
  name: string;
  /**
   * Integer conversion rank, C++ [conv.rank]: 1 the character types (char = signed char =
   * unsigned char), 2 short, 3 int, 4 long, 5 long long, 6 __int128; char8_t, char16_t, char32_t
   * and wchar_t have the rank of their underlying types.
   */
  rank: number;
}
export interface BoolType {
  k: 'bool';
}
export interface FloatType {
  k: 'float';
  /** 16: `_Float16` (binary16, arithmetic in binary16: FLT_EVAL_METHOD 0 as on arm64). */
  bits: 16 | 32 | 64;
}
export interface PtrType {
  k: 'ptr';
  to: CType;
}
export interface RefType {
  k: 'ref';
  to: CType;
}
export interface ArrayType {
  k: 'array';
  of: CType;
  n: number;
}
export interface Field {
  name: string;
  t: CType;
  offset: number;
  init?: import('./ast.ts').Expr;
}
export interface RecordType {
  k: 'record';
  name: string;
  decl: RecordDecl;
  /** Template arguments this instance was made with (name -> value or type). */
  bindings: Map<string, Binding>;
  fields: Field[];
  size: number;
  align: number;
  union: boolean;
  bases: RecordType[];
  /** Laid out (fields known). */
  complete: boolean;
}
export interface EnumType {
  k: 'enum';
  name: string;
  decl: EnumDecl;
  base: IntType;
  values: Map<string, bigint>;
}
export interface VoidType {
  k: 'void';
}
export interface NullptrType {
  k: 'nullptr';
}
export interface FuncType {
  k: 'func';
  ret: CType;
  params: CType[];
}

export type CType =
  | IntType
  | BoolType
  | FloatType
  | PtrType
  | RefType
  | ArrayType
  | RecordType
  | EnumType
  | VoidType
  | NullptrType
  | FuncType;

/** What a name is bound to in a scope. */
export type Binding =
  | { k: 'var'; t: CType; addr: number; constant?: boolean }
  | { k: 'value'; v: import('./eval.ts').Value }
  | { k: 'type'; t: CType }
  | { k: 'funcs'; fns: FuncDecl[] };

export const VOID: VoidType = { k: 'void' };
export const BOOL: BoolType = { k: 'bool' };
export const NULLPTR: NullptrType = { k: 'nullptr' };
export const F16: FloatType = { k: 'float', bits: 16 };
export const F32: FloatType = { k: 'float', bits: 32 };
export const F64: FloatType = { k: 'float', bits: 64 };

/** The integer types, interned by spelling and size: one object per distinct type of a data model. */
const ints = new Map<string, IntType>();
function named(name: string, bits: number, signed: boolean, rank: number): IntType {
  const key = `${name}/${bits}${signed ? '' : 'u'}`;
  let t = ints.get(key);
  if (!t) {
    t = { k: 'int', bits, signed, name, rank };
    ints.set(key, t);
  }
  return t;
}
/**
 * The standard integer type of a size and signedness that exists in both data models: signed
 * char, short, int, long long, __int128 (unsigned variants). `long` and plain `char` depend on the
 * data model: `builtinType`.
 */
export function intType(bits: number, signed: boolean): IntType {
  switch (bits) {
    case 8:
      return signed ? I8 : U8;
    case 16:
      return signed ? I16 : U16;
    case 32:
      return signed ? I32 : U32;
    case 64:
      return signed ? I64 : U64;
    case 128:
      return signed ? I128 : U128;
  }
  throw new Error(`no ${bits}-bit integer type`);
}
export const I8 = named('signed char', 8, true, 1);
export const U8 = named('unsigned char', 8, false, 1);
export const I16 = named('short', 16, true, 2);
export const U16 = named('unsigned short', 16, false, 2);
export const I32 = named('int', 32, true, 3);
export const U32 = named('unsigned int', 32, false, 3);
export const I64 = named('long long', 64, true, 5);
export const U64 = named('unsigned long long', 64, false, 5);
export const I128 = named('__int128', 128, true, 6);
export const U128 = named('unsigned __int128', 128, false, 6);
/**
 * Plain `char`: a type of its own ([basic.fundamental]) with the representation of signed or
 * unsigned char as the target's ABI says. RISC-V psABI (Tensix, ilp32): unsigned. Apple arm64
 * (the AMX hosts, lp64): signed — unlike Linux AArch64, whose char is unsigned.
 */
export const CHAR_U = named('char', 8, false, 1);
export const CHAR_S = named('char', 8, true, 1);
export function charType(model: DataModel): IntType {
  return model === 'lp64' ? CHAR_S : CHAR_U;
}
/** `long` / `unsigned long`: 32-bit in ilp32, 64-bit in lp64; rank above int, below long long. */
export function longType(model: DataModel, signed: boolean): IntType {
  return named(signed ? 'long' : 'unsigned long', model === 'lp64' ? 64 : 32, signed, 4);
}
/**
 * The character types beyond char (C++ [basic.fundamental]): distinct types with the
 * representation and rank of their underlying types. wchar_t is int (signed 32-bit) on both
 * targets (RISC-V psABI; Apple arm64); char16_t / char32_t: unsigned short / unsigned int (GCC's
 * and Clang's underlying types); char8_t: unsigned char.
 */
export const WCHAR = named('wchar_t', 32, true, 3);
export const CHAR8 = named('char8_t', 8, false, 1);
export const CHAR16 = named('char16_t', 16, false, 2);
export const CHAR32 = named('char32_t', 32, false, 3);
/**
 * The typedefs of <cstdint>/<cstddef> whose type differs between the targets (the parser keeps
 * them as these names; `builtinType` resolves them). ilp32 is riscv32-*-elf GCC with newlib:
 * size_t / ptrdiff_t / intptr_t are unsigned int / int, intmax_t is long long. lp64 is Apple
 * arm64: int64_t is long long, size_t / ptrdiff_t / intptr_t / intmax_t are (unsigned) long.
 *
 * Known deviation (docs/cfront.md): that toolchain's int32_t / uint32_t are `long` / `unsigned
 * long` (GCC's newlib-stdint.h; sfpi.h declares `vInt(int)` beside `vInt(int32_t)`, and the gold
 * builds mangle a uint32_t parameter as `m`), but axsim's SFPI and LLK environment headers
 * declare their overloads for int / unsigned int only, so ilp32 keeps int32_t = int and
 * uint32_t = unsigned int (and the least32 types) until those headers gain the int32_t overloads.
 */
const MODEL_TYPEDEFS: Record<string, Record<DataModel, string>> = {
  intptr_t: { ilp32: 'int', lp64: 'long' },
  uintptr_t: { ilp32: 'unsigned int', lp64: 'unsigned long' },
  size_t: { ilp32: 'unsigned int', lp64: 'unsigned long' },
  ssize_t: { ilp32: 'int', lp64: 'long' },
  ptrdiff_t: { ilp32: 'int', lp64: 'long' },
  intmax_t: { ilp32: 'long long', lp64: 'long' },
  uintmax_t: { ilp32: 'unsigned long long', lp64: 'unsigned long' },
};
/** Whether `name` is one of the model-dependent typedef names `builtinType` resolves. */
export function isModelTypedef(name: string): boolean {
  return Object.hasOwn(MODEL_TYPEDEFS, name);
}

/** The unsigned type of the same rank as a signed integer type ([expr.arith.conv]). */
export function unsignedOf(t: IntType): IntType {
  if (!t.signed) return t;
  switch (t.name) {
    case 'char':
    case 'signed char':
      return U8;
    case 'short':
    case 'int':
    case 'long':
    case 'long long':
    case '__int128':
      return named(`unsigned ${t.name}`, t.bits, false, t.rank);
  }
  // wchar_t: the unsigned type of its underlying type
  return intType(t.bits, false);
}

/** The type of a built-in type name (as `parse.ts` normalises them). */
export function builtinType(name: string, model: DataModel): CType | undefined {
  const td = MODEL_TYPEDEFS[name];
  if (td && Object.hasOwn(MODEL_TYPEDEFS, name)) return builtinType(td[model], model);
  switch (name) {
    case 'void':
      return VOID;
    case 'bool':
      return BOOL;
    case 'char':
      return charType(model);
    case 'signed char':
      return I8;
    case 'unsigned char':
      return U8;
    case 'wchar_t':
      return WCHAR;
    case 'char8_t':
      return CHAR8;
    case 'char16_t':
      return CHAR16;
    case 'char32_t':
      return CHAR32;
    case 'short':
      return I16;
    case 'unsigned short':
      return U16;
    case 'int':
      return I32;
    case 'unsigned int':
      return U32;
    case 'long':
      return longType(model, true);
    case 'unsigned long':
      return longType(model, false);
    case 'long long':
      return I64;
    case 'unsigned long long':
      return U64;
    case '__int128':
      return I128;
    case 'unsigned __int128':
      return U128;
    case '_Float16':
      return F16;
    case 'float':
      return F32;
    case 'double':
      return F64;
  }
  return undefined;
}

export function sizeOf(t: CType, model: DataModel): number {
  switch (t.k) {
    case 'int':
      return t.bits / 8;
    case 'bool':
      return 1;
    case 'float':
      return t.bits / 8;
    case 'ptr':
    case 'nullptr':
      return model === 'lp64' ? 8 : 4;
    case 'ref':
      return sizeOf(t.to, model);
    case 'array':
      return t.n * sizeOf(t.of, model);
    case 'record':
      return t.size;
    case 'enum':
      return t.base.bits / 8;
    case 'void':
    case 'func':
      return 1;
  }
}

export function alignOf(t: CType, model: DataModel): number {
  switch (t.k) {
    case 'array':
      return alignOf(t.of, model);
    case 'record':
      return t.align;
    case 'ref':
      return alignOf(t.to, model);
    case 'int':
      // rv32: 64-bit integers are 8-aligned too (RISC-V psABI); __int128 16
      return Math.min(t.bits / 8, 16);
    default:
      return sizeOf(t, model);
  }
}

export function isInteger(t: CType): t is IntType | BoolType | EnumType {
  return t.k === 'int' || t.k === 'bool' || t.k === 'enum';
}
export function isArithmetic(t: CType): boolean {
  return isInteger(t) || t.k === 'float';
}
export function isScalar(t: CType): boolean {
  return isArithmetic(t) || t.k === 'ptr' || t.k === 'nullptr';
}

/** The integer type that carries the bits of an integer-like type. */
export function intOf(t: IntType | BoolType | EnumType): IntType {
  if (t.k === 'int') return t;
  if (t.k === 'bool') return U8;
  return t.base;
}

export function typeName(t: CType): string {
  switch (t.k) {
    case 'int':
      return t.name;
    case 'bool':
      return 'bool';
    case 'float':
      return t.bits === 16 ? '_Float16' : t.bits === 32 ? 'float' : 'double';
    case 'ptr':
      return `${typeName(t.to)}*`;
    case 'ref':
      return `${typeName(t.to)}&`;
    case 'array':
      return `${typeName(t.of)}[${t.n}]`;
    case 'record':
      return t.name;
    case 'enum':
      return t.name;
    case 'void':
      return 'void';
    case 'nullptr':
      return 'std::nullptr_t';
    case 'func':
      return `${typeName(t.ret)}(${t.params.map(typeName).join(', ')})`;
  }
}

export function sameType(a: CType, b: CType): boolean {
  if (a === b) return true;
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'int':
      // by identity ([basic.fundamental]): int and long are distinct even when both are 32-bit
      return (
        a.name === (b as IntType).name && a.bits === (b as IntType).bits && a.signed === (b as IntType).signed
      );
    case 'float':
      return a.bits === (b as FloatType).bits;
    case 'ptr':
      return sameType(a.to, (b as PtrType).to);
    case 'ref':
      return sameType(a.to, (b as RefType).to);
    case 'array':
      return a.n === (b as ArrayType).n && sameType(a.of, (b as ArrayType).of);
    case 'record':
      return a.decl === (b as RecordType).decl && a.name === (b as RecordType).name;
    case 'enum':
      return a.decl === (b as EnumType).decl;
    default:
      return true;
  }
}
