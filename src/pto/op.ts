/**
 * Instructions as data: each PTO instruction is an `OpDef` naming its operands (tiles / global
 * tensors, which are written), its attributes (scalar, compare mode, round mode ...), the element
 * types each target profile accepts, the reference page it implements, and its execute function.
 * The part-2 verifier reads the same tables.
 */
import { badInput, undefinedBehaviour, unsupported } from '../errors.ts';
import { type Arith, anyArith, type ElemView, type Profile } from './arith.ts';
import { DTYPE_INFO, DTYPES, type DType } from './dtype.ts';
import type { GlobalTensor, Tile } from './tile.ts';

export type OperandKind = 'tile' | 'global';
export interface OperandSpec {
  name: string;
  kind: OperandKind;
  /** written by the instruction (dst), read-modify-write when `inout` */
  out?: boolean;
  inout?: boolean;
  /** scratch operand the functional model never touches (pto-isa `tmp`) */
  scratch?: boolean;
  optional?: boolean;
}

export type AttrKind =
  | 'scalar'
  | 'cmpMode'
  | 'roundMode'
  | 'satMode'
  | 'order'
  | 'dtype'
  | 'events'
  /** a boolean switch (TCI descending) */
  | 'flag'
  /** a non-negative integer (TEXTRACT indexRow / indexCol) */
  | 'index'
  /** a named element-selection pattern (TGATHER maskPattern) */
  | 'pattern'
  /** a plain number attribute (TADDDEQRELU deqScale) */
  | 'number';
export interface AttrSpec {
  name: string;
  kind: AttrKind;
  optional?: boolean;
  values?: readonly string[];
}

export const CMP_MODES = ['EQ', 'NE', 'LT', 'LE', 'GT', 'GE'] as const;
export type CmpMode = (typeof CMP_MODES)[number];
export const ROUND_MODES = [
  'CAST_NONE',
  'CAST_RINT',
  'CAST_ROUND',
  'CAST_FLOOR',
  'CAST_CEIL',
  'CAST_TRUNC',
  'CAST_ODD',
] as const;
export type PtoRoundMode = (typeof ROUND_MODES)[number];

/** Scalar attribute as passed to an instruction: already in the element type's compute domain. */
export type ScalarValue = number | bigint;

export interface ExecCtx {
  op: OpDef;
  profile: Profile;
  tiles: Record<string, Tile>;
  globals: Record<string, GlobalTensor>;
  attrs: Record<string, unknown>;
  /** The `scalar` attribute converted to the primary element type (when the op has one). */
  scalar: ScalarValue | undefined;
  /** ExecOptions.outOfBoundsReads === 'zero' */
  zeroOutOfBounds: boolean;
}

export interface OpDef {
  name: string;
  family: string;
  summary: string;
  /** pto-isa page(s) this follows */
  ref: string;
  operands: readonly OperandSpec[];
  attrs: readonly AttrSpec[];
  /** Element types of the primary operand accepted per profile (cpu = what the simulator compiles). */
  dtypes: Readonly<Record<Profile, readonly DType[]>>;
  /** Name of the operand whose dtype is "the" dtype of the op (default: first tile operand). */
  primary?: string;
  /** Extra static checks (layouts, type pairs); throw Unsupported/BadInput. */
  check?(ctx: ExecCtx): void;
  exec(ctx: ExecCtx): void;
  /**
   * For a prepared instruction (registry `prepare`): `exec` specialised to the bound operands
   * (their element types, shapes, layouts, valid regions and buffers, which a rebind follows), or
   * undefined when the op has no specialised form for them. Called once per bind; the function it
   * returns must write exactly what `exec(ctx)` would, reading the tiles' contents on every call.
   */
  specialise?(ctx: ExecCtx): (() => void) | undefined;
}

/**
 * Specialised runs (OpDef.specialise) that read nothing of their ExecCtx when they run, only
 * values fixed when they were made (addresses, lengths); registry `execute` then does not put the
 * operands into the context for them.
 */
export const CTX_FREE: WeakSet<() => void> = new WeakSet();

// ------------------------------------------------------------------ dtype sets

/** Every element type (dtype.ts `DTYPES`, in the same order). */
export const ALL: readonly DType[] = DTYPES;
export const INTS: readonly DType[] = ['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64'];
/** What the A2/A3 vector kernels accept for elementwise arithmetic (spec 002 TADD table). */
export const A2A3_ELEM: readonly DType[] = ['f32', 'f16', 'bf16', 'i32', 'i16'];
/** A5 adds 8-bit integers and fp8 (spec 002 TADD table). */
export const A5_ELEM: readonly DType[] = ['f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'u8', 'f8e4m3', 'f8e5m2'];

export function per(
  cpu: readonly DType[],
  extra?: Partial<Record<Profile, readonly DType[]>>,
): Record<Profile, readonly DType[]> {
  return {
    cpu,
    a2a3: extra?.a2a3 ?? cpu.filter((d) => A2A3_ELEM.includes(d)),
    a5: extra?.a5 ?? cpu.filter((d) => A5_ELEM.includes(d)),
  };
}

// ------------------------------------------------------------------ errors

/** The rejection the reference toolchain gives at compile time: names op, dtype and reason. */
export function reject(op: string, dtype: string, reason: string, profile: Profile = 'cpu'): never {
  throw unsupported(`${op}: ${dtype} is not supported on the ${profile} profile: ${reason}`);
}

/**
 * A program the reference cannot build for the device (a static_assert or a missing declaration in
 * pto-isa): BadInput naming the rule and the reference file — not Unsupported, which means axsim
 * lacks something the reference defines.
 */
export function invalidForReference(op: string, rule: string, ref: string, hint?: string): never {
  throw badInput(`${op}: the reference rejects this program at compile time: ${rule} (${ref})`, {
    hint: hint ?? 'the program is invalid for the device; change the operands to what the rule allows',
  });
}

// ------------------------------------------------------------------ element access helpers

export interface Acc {
  t: Tile;
  v: ElemView;
}

export function acc(A: Arith<unknown>, t: Tile): Acc {
  return { t, v: A.view(t.bytes) };
}

/** Physical element offset of (r, c), raising UndefinedBehaviour when it lies outside the buffer. */
export function off(t: Tile, r: number, c: number): number {
  const o = t.offset(r, c);
  if (o >= t.numel || o < 0) {
    throw undefinedBehaviour(
      `element (${r}, ${c}) lies outside the ${t.rows}x${t.cols} physical buffer of ${t.describe()}`,
      { hint: 'the reference simulator would read or write memory outside the tile' },
    );
  }
  return o;
}

/** Copies one element's raw bytes (C++ returns a reference to the chosen operand, e.g. std::max). */
export function copyElem(src: Tile, so: number, dst: Tile, dOff: number): void {
  const n = src.elemBytes;
  const s = so * n;
  const d = dOff * n;
  for (let k = 0; k < n; k++) dst.bytes[d + k] = src.bytes[s + k]!;
}

export function tileArith(ctx: ExecCtx, name: string): Arith<unknown> {
  return anyArith(ctx.tiles[name]!.dtype, ctx.profile);
}

export function isFloat(d: DType): boolean {
  return DTYPE_INFO[d].float;
}

export function requireSameDType(ctx: ExecCtx, names: readonly string[]): void {
  const d0 = ctx.tiles[names[0]!]!.dtype;
  for (const n of names.slice(1)) {
    const t = ctx.tiles[n];
    if (t && t.dtype !== d0) {
      throw badInput(`${ctx.op.name}: ${n} has element type ${t.dtype} but ${names[0]} has ${d0}`, {
        hint: 'all operands of this instruction share one element type',
      });
    }
  }
}

export function requireRowMajor(ctx: ExecCtx, names: readonly string[], why: string): void {
  for (const n of names) {
    const t = ctx.tiles[n];
    if (t && t.blayout !== 'row') reject(ctx.op.name, `${t.dtype}(ColMajor)`, why, ctx.profile);
  }
}
