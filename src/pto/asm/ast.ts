/**
 * The PTO-AS syntax tree. Every node carries the 1-based line:col where it starts so that the
 * verifier and the runner can point at the text. Equality of two modules ignores positions
 * (see `stripLocations`), which is what the print → parse round trip is checked against.
 */

export interface Pos {
  line: number;
  col: number;
}

/** Locations of the ten-key tile buffer (PTOAS `loc=`), and the memref address spaces. */
export const TILE_LOCS = ['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling'] as const;
export type TileLoc = (typeof TILE_LOCS)[number];
export const BLAYOUTS = ['row_major', 'col_major'] as const;
export type BLayout = (typeof BLAYOUTS)[number];
export const SLAYOUTS = ['none_box', 'row_major', 'col_major'] as const;
export type SLayout = (typeof SLAYOUTS)[number];
/** PadValue enum order: Null, Zero, Max, Min (PTOAS parses `pad` as this integer). */
export const PAD_NAMES = ['null', 'zero', 'max', 'min'] as const;
export const ADDRESS_SPACES = ['gm', 'mat', 'left', 'right', 'acc', 'vec', 'bias', 'scaling'] as const;

/** A builtin scalar type: f32 f16 bf16 i1 i8 … ui8 … index, and fp8 spellings. */
export interface ScalarType {
  kind: 'scalar';
  name: string;
}

/** Level-1 value tile `!pto.tile<16x16xf32>`. */
export interface TileType {
  kind: 'tile';
  shape: number[];
  elem: ScalarType;
}

/** Level-2 buffer `!pto.tile_buf<loc=…, dtype=…, …, pad=…>`; -1 = dynamic valid dim (`?`). */
export interface TileBufType {
  kind: 'tile_buf';
  loc: TileLoc;
  dtype: ScalarType;
  rows: number;
  cols: number;
  vRow: number;
  vCol: number;
  blayout: BLayout;
  slayout: SLayout;
  fractal: number;
  pad: number;
  /**
   * PTOAS CompactMode (0 = Null, 1 = Normal, 2 = RowPlusOne); `compact=N` after `pad` in the long
   * form, `compact=N` in the compact form. Absent means 0.
   */
  compact?: number;
}

export interface PtrType {
  kind: 'ptr';
  elem: ScalarType;
}

/** `!pto.tensor_view<?x?xf32>` / `!pto.partition_tensor_view<16x16xf32>`; -1 = `?`. */
export interface ViewType {
  kind: 'tensor_view' | 'partition_tensor_view';
  shape: number[];
  elem: ScalarType;
}

/**
 * `memref<16x16xf16[, strided<[s0, s1], offset: o>][, #pto.address_space<vec>]>`. A memref in
 * `gm` is a global tensor (a view over a pointer argument's array); the others are tile buffers.
 */
export interface MemRefType {
  kind: 'memref';
  shape: number[];
  elem: ScalarType;
  space: string | undefined;
  /** MLIR strided layout: element strides and offset, -1 = `?`. */
  layout?: { strides: number[]; offset: number };
}

/** MLIR `vector<4xi16>`: tmrgsort's executed-count list (a function argument bound to an array). */
export interface VectorType {
  kind: 'vector';
  shape: number[];
  elem: ScalarType;
}

/**
 * Any other dialect type, kept as written: `!pto.pipe`, `!pto.eventid_array<4>`,
 * `!pto.async_session`, `!pto.async_event`, and the elided `<f32>` of `pto.addptr`.
 */
export interface OtherType {
  kind: 'other';
  text: string;
}

export type Type =
  | ScalarType
  | TileType
  | TileBufType
  | PtrType
  | ViewType
  | MemRefType
  | VectorType
  | OtherType;

/** Attribute values. `#pto<cmp lt>` is {kind:'enum', ns:'pto', words:['cmp','lt']}. */
export type Attr =
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'bool'; value: boolean }
  /** A unit attribute: `{hacc.entry}` (the name alone). */
  | { kind: 'unit' }
  | { kind: 'enum'; ns: string; words: string[] }
  | { kind: 'word'; value: string }
  | { kind: 'type'; type: Type }
  | { kind: 'typed'; value: Attr; type: Type }
  /** A symbol reference `@f` (e.g. `peer_func = @vector_kernel`). */
  | { kind: 'symbol'; name: string }
  /** An attribute kept as written (`#pto.tile_buf_config<blayout=1 : i32, …>`, `dense<…>`). */
  | { kind: 'raw'; text: string };

export interface NamedAttr {
  name: string;
  value: Attr;
}

/** An SSA use: `%name` with where it was written. */
export interface Use {
  name: string;
  pos: Pos;
}

/** An operand of the seed's assembly form or of Level-1 SSA: a value or an immediate. */
export type Operand = { kind: 'value'; use: Use } | { kind: 'imm'; value: Attr; pos: Pos };

interface OpBase {
  pos: Pos;
  /** Result names (`%r = …`), empty when the op has none; `%r:2 = …` binds `r#0`, `r#1`. */
  results: Use[];
  /** Set when the results were bound as a pack `%r:N`. */
  resultPack?: string;
}

/** Level-2 DPS: `pto.op ins(%a, %b [{attrs}] : T, T) outs(%d : T) [{attrs}] [-> T]`. */
export interface DpsOp extends OpBase {
  kind: 'dps';
  name: string;
  ins: { use: Use; type: Type }[];
  insAttrs: NamedAttr[] | undefined;
  outs: { use: Use; type: Type }[];
  attrs: NamedAttr[] | undefined;
  resultTypes: Type[];
}

/** Level-1 SSA: `%d = pto.op %a, %b [{attrs}] : (T, T) -> T`. */
export interface SsaOp extends OpBase {
  kind: 'ssa';
  name: string;
  operands: Operand[];
  attrs: NamedAttr[] | undefined;
  operandTypes: Type[];
  resultType: Type;
}

/**
 * The seed's assembly form: `tadd %dst, %src0, %src1 : T` or `%dst = tadd %src0, %src1 : T`,
 * attributes after `#` (`tcmps %dst, %src, 0 #cmp=gt`).
 */
export interface AsmOp extends OpBase {
  kind: 'asm';
  /** Mnemonic without a dialect prefix, lower case as written (`tadd`). */
  mnemonic: string;
  /** Written with the optional `pto.` prefix. */
  prefixed: boolean;
  operands: Operand[];
  /** The BNF requires `: type`; the manual's attribute examples omit it. */
  type: Type | undefined;
  hashAttrs: NamedAttr[];
}

export interface ConstantOp extends OpBase {
  kind: 'arith.constant';
  value: Attr;
  type: Type;
}

/** `arith.<binop> %a, %b : T` (addi, subi, muli, divsi, remsi, addf, …, minsi, maxsi, andi, ori). */
export interface ArithBinaryOp extends OpBase {
  kind: 'arith.binary';
  name: string;
  lhs: Use;
  rhs: Use;
  type: Type;
}

/** An affine expression: constants, dims `d0…`, symbols `s0…`, + - * floordiv ceildiv mod. */
export type AffineExpr =
  | { kind: 'const'; value: number }
  | { kind: 'dim'; index: number }
  | { kind: 'sym'; index: number }
  | { kind: 'neg'; arg: AffineExpr }
  | { kind: 'bin'; op: '+' | '-' | '*' | 'floordiv' | 'ceildiv' | 'mod'; lhs: AffineExpr; rhs: AffineExpr };

/** `%r = affine.apply affine_map<(d0)[s0] -> (d0 + s0 * 32)>(%i)[%j]`. */
export interface AffineApplyOp extends OpBase {
  kind: 'affine.apply';
  dimCount: number;
  symCount: number;
  expr: AffineExpr;
  dims: Use[];
  syms: Use[];
}

/** `arith.index_cast %x : i32 to index` and friends (`sitofp`, `extsi`, `trunci`, …). */
export interface CastOp extends OpBase {
  kind: 'arith.cast';
  name: string;
  operand: Use;
  from: Type;
  to: Type;
}

export interface CmpOp extends OpBase {
  kind: 'arith.cmp';
  name: 'arith.cmpi' | 'arith.cmpf';
  predicate: string;
  lhs: Use;
  rhs: Use;
  type: Type;
}

export interface SelectOp extends OpBase {
  kind: 'arith.select';
  cond: Use;
  a: Use;
  b: Use;
  type: Type;
}

export interface ForOp extends OpBase {
  kind: 'scf.for';
  iv: Use;
  lb: Use;
  ub: Use;
  step: Use;
  iterArgs: { arg: Use; init: Use }[];
  iterTypes: Type[];
  body: Op[];
}

export interface IfOp extends OpBase {
  kind: 'scf.if';
  cond: Use;
  resultTypes: Type[];
  thenOps: Op[];
  elseOps: Op[] | undefined;
}

/**
 * `%r:2 = scf.while (%i = %a, %j = %b) : (T, U) -> (T, U) { … scf.condition(%c) %x, %y : T, U }
 * do { ^bb0(%x2: T, %y2: U): … scf.yield … }`.
 */
export interface WhileOp extends OpBase {
  kind: 'scf.while';
  inits: { arg: Use; init: Use }[];
  argTypes: Type[];
  resultTypes: Type[];
  before: Op[];
  /** Block arguments of the `do` region (`^bb0(%x: T, …)`), and the label as written. */
  afterLabel: string | undefined;
  afterArgs: FuncArg[];
  after: Op[];
}

/** `scf.condition(%c) %a, %b : T, U` — ends the `before` region of scf.while. */
export interface ConditionOp extends OpBase {
  kind: 'scf.condition';
  cond: Use;
  values: Use[];
  types: Type[];
}

export interface YieldOp extends OpBase {
  kind: 'scf.yield';
  values: Use[];
  types: Type[];
}

export interface ReturnOp extends OpBase {
  kind: 'return';
  /** `return` or `func.return` as written. */
  spelling: 'return' | 'func.return';
  values: Use[];
  types: Type[];
}

export interface MakeTensorViewOp extends OpBase {
  kind: 'pto.make_tensor_view';
  ptr: Use;
  shape: Use[];
  strides: Use[];
  /** `{layout = #pto.layout<nd>}` before the type. */
  attrs: NamedAttr[] | undefined;
  type: Type;
}

export interface PartitionViewOp extends OpBase {
  kind: 'pto.partition_view';
  source: Use;
  offsets: Use[];
  sizes: Use[];
  sourceType: Type;
  type: Type;
}

export interface AllocTileOp extends OpBase {
  kind: 'pto.alloc_tile';
  addr: Use | undefined;
  validRow: Use | undefined;
  validCol: Use | undefined;
  type: Type;
}

/** `%s = pto.subset %tile[%r, %c] sizes [32, 32] : T`. */
export interface SubsetOp extends OpBase {
  kind: 'pto.subset';
  source: Use;
  offsets: Use[];
  sizes: number[];
  type: Type;
}

/** `%i = pto.get_block_idx` and friends (block / sub-block index and count, i64 results). */
export interface QueryOp extends OpBase {
  kind: 'pto.query';
  name: 'pto.get_block_idx' | 'pto.get_subblock_idx' | 'pto.get_block_num' | 'pto.get_subblock_num';
  attrs: NamedAttr[] | undefined;
}

/** `%r = pto.treshape %src : T -> U` — the same buffer seen with another shape. */
export interface ReshapeOp extends OpBase {
  kind: 'pto.treshape';
  source: Use;
  sourceType: Type;
  type: Type;
}

/** An index operand written as an SSA value or an integer literal. */
export type IndexOperand = { use: Use } | { value: number };

/** `%v = memref.subview %src[offsets] [sizes] [strides] : memref<…> to memref<…>` (MLIR memref). */
export interface SubviewOp extends OpBase {
  kind: 'memref.subview';
  source: Use;
  offsets: IndexOperand[];
  sizes: IndexOperand[];
  strides: IndexOperand[];
  sourceType: Type;
  type: Type;
}

/** `memref.alloc() : memref<…>`. */
export interface MemrefAllocOp extends OpBase {
  kind: 'memref.alloc';
  type: Type;
}

/**
 * Ordering ops with a bracketed argument list: `pto.record_event [...]`, `pto.wait_event [...]`,
 * `pto.get_buf[...]`, `pto.rls_buf[...]`; also `pto.barrier <PIPE_V>` (args = ['PIPE_V']).
 */
export interface SyncOp extends OpBase {
  kind: 'sync';
  name: string;
  args: Attr[];
  /** `pto.barrier <PIPE_V>` uses angle brackets; the others square brackets. */
  angle: boolean;
}

/** `pto.section.vector { … }` / `pto.section.cube { … }`. */
export interface SectionOp extends OpBase {
  kind: 'section';
  name: string;
  body: Op[];
}

/** `%r = func.call @f(%a, %b) : (T, U) -> V` (also `call`). */
export interface CallOp extends OpBase {
  kind: 'func.call';
  spelling: 'func.call' | 'call';
  callee: string;
  args: Use[];
  argTypes: Type[];
  resultTypes: Type[];
}

/**
 * One piece of an op in generic custom syntax (see GenericOp): values, literals, attribute
 * dictionaries, types after `:` / `->`, and bracketed groups of these.
 */
export type GenericItem =
  | { k: 'value'; use: Use }
  | { k: 'attr'; attr: Attr }
  | { k: 'dict'; attrs: NamedAttr[] }
  | { k: 'type'; type: Type }
  | { k: 'punct'; text: string }
  | { k: 'word'; text: string }
  | { k: 'group'; open: '(' | '[' | '<'; items: GenericItem[] };

/**
 * A PTO/memref op written in its own custom syntax that axsim reads structurally without a
 * dedicated grammar (`pto.set_validshape %t, %r, %c : T`, `pto.reserve_buffer {…} -> i32`,
 * `pto.tpush(%t, %pipe : T, !pto.pipe) {split = 0}`, …). The verifier and runner give each name
 * its meaning; `items` keep the text's structure for the printer.
 */
export interface GenericOp extends OpBase {
  kind: 'generic';
  name: string;
  items: GenericItem[];
}

export type Op =
  | CallOp
  | GenericOp
  | DpsOp
  | SsaOp
  | AsmOp
  | ConstantOp
  | ArithBinaryOp
  | AffineApplyOp
  | CastOp
  | CmpOp
  | SelectOp
  | ForOp
  | IfOp
  | WhileOp
  | ConditionOp
  | YieldOp
  | ReturnOp
  | MakeTensorViewOp
  | PartitionViewOp
  | AllocTileOp
  | SubsetOp
  | MemrefAllocOp
  | SubviewOp
  | QueryOp
  | ReshapeOp
  | SyncOp
  | SectionOp;

export interface FuncArg {
  use: Use;
  type: Type;
}

export interface Func {
  pos: Pos;
  name: string;
  args: FuncArg[];
  /** Result types; `hasArrow` records whether `-> ()` was written. */
  resultTypes: Type[];
  hasArrow: boolean;
  /** `private` / `public` / `nested` when written. */
  visibility: string | undefined;
  /** `attributes {…}` after the signature. */
  attrs: NamedAttr[] | undefined;
  body: Op[];
}

export interface Module {
  /** False when the functions were written without a surrounding `module { }`. */
  wrapped: boolean;
  name: string | undefined;
  /** `module attributes {…}`. */
  attrs: NamedAttr[] | undefined;
  funcs: Func[];
}

/** Deep copy without `pos` fields, for structural comparison of modules. */
export function stripLocations<T>(x: T): T {
  return JSON.parse(
    JSON.stringify(x, (k, v) => (k === 'pos' ? undefined : typeof v === 'bigint' ? `${v}n` : v)),
  ) as T;
}

/** Is this a 16-/32-bit etc. integer type name (`i8`, `ui16`, `si32`)? */
export function isIntegerName(name: string): boolean {
  return /^(u|s)?i\d+$/.test(name);
}
export function isFloatName(name: string): boolean {
  return /^(f16|bf16|f32|f64|tf32|f8E4M3FN|f8E5M2|f8e4m3|f8e5m2|f8E4M3|f8E5M2FNUZ|f8E4M3FNUZ)$/.test(name);
}
