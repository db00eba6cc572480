/**
 * PTO element types: names, sizes and classes. Values are stored as raw little-endian bytes;
 * `kind` says how the simulator computes with them (see `arith.ts`).
 */
export type DType =
  | 'f32'
  | 'f16'
  | 'bf16'
  | 'i8'
  | 'i16'
  | 'i32'
  | 'i64'
  | 'u8'
  | 'u16'
  | 'u32'
  | 'u64'
  | 'f8e4m3'
  | 'f8e5m2';

export const DTYPES: readonly DType[] = [
  'f32',
  'f16',
  'bf16',
  'i8',
  'i16',
  'i32',
  'i64',
  'u8',
  'u16',
  'u32',
  'u64',
  'f8e4m3',
  'f8e5m2',
];

export interface DTypeInfo {
  readonly name: DType;
  readonly bytes: 1 | 2 | 4 | 8;
  readonly float: boolean;
  readonly signed: boolean;
  /** 64-bit integers compute with bigint. */
  readonly big: boolean;
  readonly fp8: boolean;
}

const info = (name: DType, bytes: 1 | 2 | 4 | 8, float: boolean, signed: boolean): DTypeInfo => ({
  name,
  bytes,
  float,
  signed,
  big: !float && bytes === 8,
  fp8: name === 'f8e4m3' || name === 'f8e5m2',
});

export const DTYPE_INFO: Readonly<Record<DType, DTypeInfo>> = {
  f32: info('f32', 4, true, true),
  f16: info('f16', 2, true, true),
  bf16: info('bf16', 2, true, true),
  i8: info('i8', 1, false, true),
  i16: info('i16', 2, false, true),
  i32: info('i32', 4, false, true),
  i64: info('i64', 8, false, true),
  u8: info('u8', 1, false, false),
  u16: info('u16', 2, false, false),
  u32: info('u32', 4, false, false),
  u64: info('u64', 8, false, false),
  f8e4m3: info('f8e4m3', 1, true, true),
  f8e5m2: info('f8e5m2', 1, true, true),
};

export function isDType(s: unknown): s is DType {
  return typeof s === 'string' && Object.hasOwn(DTYPE_INFO, s);
}

export const isIntegral = (d: DType): boolean => !DTYPE_INFO[d].float;
