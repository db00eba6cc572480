/**
 * Shared shapes of the cost models. A model costs one PTO instruction given its operand facts
 * (`CostInput`, the fields of a pto-cost.jsonl.gz row) and returns cycles with a breakdown.
 */

/** A constant of a cost model, with the document it comes from. */
export interface CostConstant {
  value: number;
  /** The name the reference uses for it, if any. */
  name?: string;
  source: string;
}

/**
 * Static and runtime facts of one tile operand, for the kernels whose path depends on where a tile
 * lives and how it is laid out (TMOV between buffers, TLOAD into L1, TSTORE from L0C).
 */
export interface TileFacts {
  /** vec, mat, acc, left, right, bias, scaling (PTO-AS `loc=`). */
  loc: string;
  dtype: string;
  rows: number;
  cols: number;
  validRow: number;
  validCol: number;
  /** `blayout=` / `slayout=` spellings: row_major, col_major, none_box. */
  blayout: string;
  slayout: string;
  /** Fractal size in bytes (`fractal=`). */
  fractal: number;
  /** PadValue (`pad=`): 0 Null, 1 Zero, 2 Max, 3 Min. */
  pad?: number;
  /** Static valid row / column counts (`v_row=` / `v_col=`), -1 when dynamic. */
  vRow?: number;
  vCol: number;
}

/** One PTO instruction as the cost models see it (field names follow pto-cost.jsonl.gz rows). */
export interface CostInput {
  /** PTO instruction name, pto_instr.hpp spelling: TADD, TMATMUL_ACC, TLOAD … */
  op: string;
  /** Element type (axsim DType names: f32 f16 bf16 i8 … u32 …); for TCVT the source type. */
  dtype: string;
  /** The main tile's physical shape and valid region (dst for elementwise; src for reductions). */
  rows: number;
  cols: number;
  validRow: number;
  validCol: number;
  /** 'RM' (row-major, no boxes), 'CM' (col-major), or a boxed layout name. */
  layout?: string;
  dstDtype?: string;
  roundMode?: string;
  satMode?: string;
  /** Matmul dims (M×K times K×N) and valid dims. */
  M?: number;
  K?: number;
  N?: number;
  validM?: number;
  validK?: number;
  validN?: number;
  accDtype?: string;
  /** Other operand facts as the cost rows spell them, e.g. dstValid "16x1". */
  dstValid?: string;
  srcValid?: string;
  src1Valid?: string;
  /** TLOAD/TSTORE global view facts. */
  gm?: string;
  form?: string;
  /** Static column count of a reduction's destination tile (its row stride). */
  dstCols?: number;
  /**
   * Static valid column count of the operands' tile types (`v_col=` in `!pto.tile_buf`), when it
   * is static; absent = dynamic (`?`), as for every conformance row.
   */
  staticValidCol?: number;
  /** Row reductions: the destination is col-major (a rows × 1 column) with this static valid col. */
  dstColMajor?: boolean;
  dstStaticValidCol?: number;
  /** The source's valid shape is static and covers the whole tile. */
  srcStaticFull?: boolean;
  /** Row expansions: src1 is a col-major column (rows × 1) rather than one 32-byte block per row. */
  src1ColMajor?: boolean;
  /** TCMP/TCMPS compare mode (EQ NE LT LE GT GE). */
  cmpMode?: string;
  /** The destination buffer is the (first) source buffer. */
  inPlace?: boolean;
  /** TDIVS written scalar ÷ tile. */
  scalarFirst?: boolean;
  /** Scalar operand of tile-scalar ops, when known (only affects the trace arguments). */
  scalar?: number;
  /** The row's grid tag (informational). */
  shape?: string;
  /** TMOV: destination and source tiles; TLOAD: `dst`; TSTORE: `src`. Absent = vector tiles. */
  dst?: TileFacts;
  src?: TileFacts;
  /** TLOAD/TSTORE: the global view's shape and element strides (outermost first), element type. */
  gmShape?: number[];
  gmStrides?: number[];
  gmDtype?: string;
  /** TGEMV*: valid rows of the right (K×N) tile, the kernel's k. */
  rightValidRow?: number;
  /** Formula rows for transfers: tile type and element count. */
  tileType?: string;
  elements?: number;
}

/** One issued intrinsic (pto-isa model) or one term of a formula. */
export interface CostTerm {
  name: string;
  cycles: number;
  /** Integer arguments (repeat, strides, masks, burst sizes) as the trace lists them. */
  args?: (number | null)[];
}

export interface CostResult {
  cycles: number;
  /** pto-isa model: the vector-pipe tail left pending at the end of the instruction. */
  pendingVectorTail: number;
  terms: CostTerm[];
  /** Which path of the model was taken (e.g. "continuous", "small-tile", "count-mode"). */
  path: string;
}

export type CostModelName = 'seed' | 'pto-isa' | 'formula';
export type CostArch = 'a2a3' | 'a5';
