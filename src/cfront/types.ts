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
  name: string;
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

const ints = new Map<string, IntType>();
export function intType(bits: number, signed: boolean, name?: string): IntType {
  const key = `${signed ? 'i' : 'u'}${bits}`;
  let t = ints.get(key);
  if (!t) {
    t = { k: 'int', bits, signed, name: name ?? `${signed ? '' : 'unsigned '}int${bits}` };
    ints.set(key, t);
  }
  return t;
}
export const I8 = intType(8, true, 'signed char');
export const U8 = intType(8, false, 'unsigned char');
export const I16 = intType(16, true, 'short');
export const U16 = intType(16, false, 'unsigned short');
export const I32 = intType(32, true, 'int');
export const U32 = intType(32, false, 'unsigned int');
export const I64 = intType(64, true, 'long long');
export const U64 = intType(64, false, 'unsigned long long');
export const I128 = intType(128, true, '__int128');
export const U128 = intType(128, false, 'unsigned __int128');

/** The type of a built-in type name (as `parse.ts` normalises them). */
export function builtinType(name: string, model: DataModel): CType | undefined {
  const long = model === 'lp64' ? 64 : 32;
  switch (name) {
    case 'void':
      return VOID;
    case 'bool':
      return BOOL;
    case 'char':
    case 'signed char':
      return I8;
    case 'unsigned char':
      return U8;
    case 'short':
      return I16;
    case 'unsigned short':
      return U16;
    case 'int':
      return I32;
    case 'unsigned int':
      return U32;
    case 'long':
      return intType(long, true, 'long');
    case 'unsigned long':
      return intType(long, false, 'unsigned long');
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
      return a.bits === (b as IntType).bits && a.signed === (b as IntType).signed;
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
