/**
 * The syntax-level catalogue of PTO tile ops: each registered mnemonic (PTOAS spelling, dotted
 * where PTOAS dots it) with the kinds of its `ins(...)` operands and of its `outs(...)`.
 * Operand orders follow PTOAS `include/PTO/IR/PTOOps.td` @bba77f1 (the `arguments` lists), which
 * PTO-AS.md §3 summarises. Element-type and profile support is part 1's business (src/pto/).
 *
 * Kinds: `T` a tile (tile_buf / memref / Level-1 tile), `S` a scalar (builtin int/float/index),
 * `V` a partition view, `TS` either a tile or a scalar (tdivs), `A` any DPS operand (tile or
 * view), a trailing `?` marks an optional operand, `*` a variadic tail.
 */
export type OperandKind = 'T' | 'S' | 'V' | 'TS' | 'T?' | 'T*' | 'TS?' | 'S?' | 'A' | 'A*';

export type OpFamily =
  | 'binary'
  | 'ternary'
  | 'unary'
  | 'scalar'
  | 'compare'
  | 'select'
  | 'convert'
  | 'rowreduce'
  | 'colreduce'
  | 'rowexpand'
  | 'colexpand'
  | 'transpose'
  | 'matmul'
  | 'load'
  | 'store'
  | 'move'
  | 'fill'
  | 'misc';

export interface OpSig {
  /** PTOAS mnemonic without `pto.`. */
  mnemonic: string;
  /** The PTO instruction (pto_instr.hpp spelling): `tmatmul.acc` → `TMATMUL_ACC`. */
  insn: string;
  family: OpFamily;
  ins: OperandKind[];
  /** Kind of the single `outs` operand. */
  out: 'T' | 'V';
  /** Attribute dictionary placed inside `ins(...)` (tcmp, tcmps, tcvt). */
  attrsInIns?: boolean;
  /** The ops whose DPS form may also carry `-> type` results. */
  hasResult?: boolean;
  /** How many `outs(…)` operands the DPS form takes, [min, max] (default exactly one). */
  outs?: [number, number];
}

const table: [
  string,
  OpFamily,
  string,
  ('T' | 'V')?,
  { attrsInIns?: boolean; hasResult?: boolean; outs?: [number, number]; insn?: string }?,
][] = [
  // binary tile-tile
  ['tadd', 'binary', 'T T'],
  ['tsub', 'binary', 'T T'],
  ['tmul', 'binary', 'T T'],
  ['tdiv', 'binary', 'T T'],
  ['tmax', 'binary', 'T T'],
  ['tmin', 'binary', 'T T'],
  // PTOAS TRemOp / TRemSOp take a scratch tile: ins(%src0, %src1, %tmp); the manual's form has none
  ['trem', 'binary', 'T T T?'],
  ['tfmod', 'binary', 'T T'],
  ['tpow', 'binary', 'T T'],
  ['tand', 'binary', 'T T'],
  ['tor', 'binary', 'T T'],
  ['txor', 'binary', 'T T'],
  ['tshl', 'binary', 'T T'],
  ['tshr', 'binary', 'T T'],
  ['tpartadd', 'binary', 'T T'],
  ['tpartmax', 'binary', 'T T'],
  ['tpartmin', 'binary', 'T T'],
  ['tprelu', 'binary', 'T T T'],
  // ternary
  ['taddc', 'ternary', 'T T T'],
  ['tsubc', 'ternary', 'T T T'],
  ['taddsc', 'ternary', 'T S T'],
  ['tsubsc', 'ternary', 'T S T'],
  // unary
  ['tabs', 'unary', 'T'],
  ['tneg', 'unary', 'T'],
  ['tnot', 'unary', 'T'],
  ['texp', 'unary', 'T'],
  ['tlog', 'unary', 'T'],
  ['tsqrt', 'unary', 'T'],
  ['trsqrt', 'unary', 'T T?'],
  ['trecip', 'unary', 'T'],
  ['trelu', 'unary', 'T'],
  // tile-scalar
  ['tadds', 'scalar', 'T S'],
  ['tsubs', 'scalar', 'T S'],
  ['tmuls', 'scalar', 'T S'],
  ['tdivs', 'scalar', 'TS TS'],
  ['tmaxs', 'scalar', 'T S'],
  ['tmins', 'scalar', 'T S'],
  ['trems', 'scalar', 'T S T?'],
  ['tfmods', 'scalar', 'T S'],
  ['tpows', 'scalar', 'T S'],
  ['tands', 'scalar', 'T S'],
  ['tors', 'scalar', 'T S'],
  ['txors', 'scalar', 'T S'],
  ['tshls', 'scalar', 'T S'],
  ['tshrs', 'scalar', 'T S'],
  ['tlrelu', 'scalar', 'T S'],
  // taxpy.md: dst += src · scalar (dst is also read)
  ['taxpy', 'scalar', 'T S'],
  ['texpands', 'fill', 'S'],
  // PTOAS TCIOp: `ins($S attr-dict : type($S))` — {descending = …} sits inside ins(…)
  ['tci', 'fill', 'S', 'T', { attrsInIns: true }],
  // compare / select
  ['tcmp', 'compare', 'T T', 'T', { attrsInIns: true }],
  ['tcmps', 'compare', 'T S', 'T', { attrsInIns: true }],
  // PTOAS TSelOp: ins(%mask, %src0, %src1, %tmp)
  ['tsel', 'select', 'T T T T?'],
  ['tsels', 'select', 'T T S'],
  // conversion
  // PTOAS TCvtOp: ins(%src[, %tmp] {attrs} : T[, U])
  ['tcvt', 'convert', 'T T?', 'T', { attrsInIns: true }],
  // reductions
  ['trowsum', 'rowreduce', 'T T'],
  ['trowmax', 'rowreduce', 'T T'],
  ['trowmin', 'rowreduce', 'T T'],
  ['trowprod', 'rowreduce', 'T T'],
  ['tcolsum', 'colreduce', 'T T?'],
  ['tcolmax', 'colreduce', 'T'],
  ['tcolmin', 'colreduce', 'T'],
  ['tcolprod', 'colreduce', 'T'],
  // expansions
  ['trowexpand', 'rowexpand', 'T'],
  ['trowexpandadd', 'rowexpand', 'T T T?'],
  ['trowexpandsub', 'rowexpand', 'T T T?'],
  ['trowexpandmul', 'rowexpand', 'T T T?'],
  ['trowexpanddiv', 'rowexpand', 'T T T?'],
  ['trowexpandmax', 'rowexpand', 'T T T?'],
  ['trowexpandmin', 'rowexpand', 'T T T?'],
  ['trowexpandexpdif', 'rowexpand', 'T T T?'],
  ['tcolexpand', 'colexpand', 'T'],
  // pto-isa docs/isa/tile/ops/reduce-and-expand/tcolexpand*.md: ins(%src0, %src1 : …) outs(%dst : …)
  ['tcolexpandadd', 'colexpand', 'T T'],
  ['tcolexpandsub', 'colexpand', 'T T'],
  ['tcolexpandmul', 'colexpand', 'T T'],
  ['tcolexpanddiv', 'colexpand', 'T T'],
  ['tcolexpandmax', 'colexpand', 'T T'],
  ['tcolexpandmin', 'colexpand', 'T T'],
  ['tcolexpandexpdif', 'colexpand', 'T T'],
  // layout
  ['ttrans', 'transpose', 'T T'],
  ['tfillpad', 'move', 'T'],
  ['tfillpad_expand', 'move', 'T'],
  ['textract', 'move', 'T S S'],
  // tinsert.md / TEXTRACT_FP.md / TINSERT_FP.md: ins(%src[, %fp], %indexRow, %indexCol : …)
  ['tinsert', 'move', 'T S S'],
  ['textract_fp', 'move', 'T T S S'],
  ['tinsert_fp', 'move', 'T T S S'],
  ['tfillpad_inplace', 'move', 'T'],
  // PTOAS TGatherOp: index form ins(%src, %indices : …) or mask form ins(%src, {maskPattern = …} : …)
  // PTOAS TGatherOp also has up to three extra operands (indices / tmp / kValue), outs(%dst[, %cdst])
  // (index: ins(%src, %indices[, %tmp]); compare: ins(%src, %kValue, %tmp) outs(%dst, %cdst) {offset})
  ['tgather', 'move', 'T TS? T?', 'T', { attrsInIns: true, outs: [1, 2] }],
  ['tgatherb', 'move', 'T T'],
  ['tscatter', 'move', 'T T'],
  // cube
  ['tmatmul', 'matmul', 'T T', 'T', { hasResult: true }],
  ['tmatmul.acc', 'matmul', 'T T T', 'T', { hasResult: true }],
  ['tmatmul.bias', 'matmul', 'T T T', 'T', { hasResult: true }],
  ['tmatmul.mx', 'matmul', 'T T T T', 'T', { hasResult: true }],
  ['tmatmul.mx.acc', 'matmul', 'T T T T T', 'T', { hasResult: true }],
  ['tmatmul.mx.bias', 'matmul', 'T T T T T', 'T', { hasResult: true }],
  ['tgemv', 'matmul', 'T T', 'T', { hasResult: true }],
  ['tgemv.acc', 'matmul', 'T T T', 'T', { hasResult: true }],
  ['tgemv.bias', 'matmul', 'T T T', 'T', { hasResult: true }],
  // tgemv-mx.md: pto.tgemv.mx ins(%a, %a_scale, %b, %b_scale) outs(%acc); .acc / .bias as for tmatmul.mx
  ['tgemv.mx', 'matmul', 'T T T T', 'T', { hasResult: true }],
  ['tgemv.mx.acc', 'matmul', 'T T T T T', 'T', { hasResult: true }],
  ['tgemv.mx.bias', 'matmul', 'T T T T T', 'T', { hasResult: true }],
  // data movement
  ['tload', 'load', 'V', 'T'],
  // PTOAS TStoreOp / TMovOp: optional fix-pipe operands ins(%src : T[, %fp : F][, %preQuant : i64])
  ['tstore', 'store', 'T S?', 'V', { hasResult: true }],
  ['tstore_fp', 'store', 'T T', 'V'],
  ['tmov', 'move', 'T TS? S?', 'T', { hasResult: true }],
  ['tmov.fp', 'move', 'T T'],
  // sorting (PTOAS TSort32Op / TMrgSortOp; pto-isa tsort32.md / tmrgsort.md). tsort32: the manual's
  // ins(%src, %idx) outs(%dst) or PTOAS's ins(%src) outs(%dst, %idx). tmrgsort: ins(%src, %blockLen)
  // outs(%dst), or 2–4 lists ins(%s0, …, %s3 {exhausted = false}) outs(%dst[, %tmp][, %executed]).
  ['tsort32', 'misc', 'T T? T?', 'T', { outs: [1, 2] }],
  // PTOAS @a56b18c3 format 2 puts the scratch tile last in ins: ins(%s0, …, %tmp) outs(%dst, %executed)
  ['tmrgsort', 'misc', 'T TS T? T? T?', 'T', { attrsInIns: true, outs: [1, 3] }],
  // arg reductions (trowargmax.md …): ins(%src[, %tmp]) outs(%dst[, %dstVal]) — the index tile
  // first; axsim's order for the value form, which has no PTO-AS spelling in the references
  ['trowargmax', 'misc', 'T T?', 'T', { outs: [1, 2] }],
  ['trowargmin', 'misc', 'T T?', 'T', { outs: [1, 2] }],
  ['tcolargmax', 'misc', 'T T?', 'T', { outs: [1, 2] }],
  ['tcolargmin', 'misc', 'T T?', 'T', { outs: [1, 2] }],
  ['tpartmul', 'binary', 'T T'],
  // tconcat.md: ins(%src0, %src1[, %src0Idx, %src1Idx]) outs(%dst[, %dstIdx])
  ['tconcat', 'misc', 'T T T? T?', 'T', { outs: [1, 2] }],
  // TINTERLEAVE.md / TDEINTERLEAVE.md: outs(%dst0, %dst1)
  ['tinterleave', 'misc', 'T T', 'T', { outs: [2, 2] }],
  ['tdeinterleave', 'misc', 'T T?', 'T', { outs: [2, 2] }],
  // TTRI.md: ins(%diagonal : i32) outs(%dst) [{upper = true}] (lower by default)
  ['ttri', 'misc', 'S', 'T', { attrsInIns: true }],
  // TPARTARGMAX.md: ins(%src0Val, %src1Val, %src0Idx, %src1Idx) outs(%dstVal, %dstIdx)
  ['tpartargmax', 'misc', 'T T T T', 'T', { outs: [2, 2] }],
  ['tpartargmin', 'misc', 'T T T T', 'T', { outs: [2, 2] }],
  ['tpairreducesum', 'misc', 'T'],
  // THISTOGRAM.md gives no operand list: ins(%src, %idx) outs(%dst) {byte = k}
  ['thistogram', 'misc', 'T T'],
  // tprefetch.md: ins(%src : view) outs(%dst : tile)
  ['tprefetch', 'load', 'V', 'T'],
  // tquant.md / tdequant.md (integer forms): ins(%src, %scale[, %offset]) outs(%dst) {quantType = "INT8_SYM"}
  ['tquant', 'misc', 'T T T?'],
  ['tdequant', 'misc', 'T T T'],
  // docs/isa/TFUSEDMULADD.md, TSUBRELU.md, TMULADDDST.md: ins(%src0, %src1) outs(%dst) (dst is also read
  // by tfusedmuladd / tmuladddst)
  ['tfusedmuladd', 'binary', 'T T'],
  ['tsubrelu', 'binary', 'T T'],
  ['tmuladddst', 'binary', 'T T'],
  // fused ReLU forms (TFUSEDMULADDRELU.md, TADDReluConv.md, TSUBReluConv.md, TAddDeqRelu.md)
  ['tfusedmuladdrelu', 'binary', 'T T'],
  ['taddreluconv', 'misc', 'T T'],
  ['tsubreluconv', 'misc', 'T T'],
  ['tadddeqrelu', 'misc', 'T T S T?'],
  // trandom.md: ins(%key, %counter : tile_buf, tile_buf) outs(%dst) [{rounds = 7}]
  // PTOAS TRandomOp: six integer scalars ins(%key0, %key1, %c0, %c1, %c2, %c3 {rounds = N} : …)
  ['trandom', 'misc', 'TS TS S? S? S? S?', 'T', { attrsInIns: true }],
  // subview.md: pto.subview ins(%src, %rowIdx, %colIdx : T, i16, i16) outs(%dst : T) -> TSUBVIEW
  ['subview', 'misc', 'T S S', 'T', { insn: 'TSUBVIEW' }],
  // indexed global memory access (PTOAS MGatherOp / MScatterOp; mgather.md / mscatter.md)
  ['mgather', 'misc', 'V T', 'T'],
  ['mscatter', 'misc', 'T T', 'V'],
  // PTOAS TPrintOp / TSyncOp (no destination), TPackOp, TGetScaleAddrOp
  ['tprint', 'misc', 'A', 'T', { outs: [0, 0] }],
  ['tsync', 'misc', 'A*', 'T', { outs: [0, 0] }],
  ['tpack', 'misc', 'T'],
  ['tget_scale_addr', 'misc', 'T'],
];

function insnName(mnemonic: string): string {
  return mnemonic.toUpperCase().replace(/\./g, '_');
}

export const OP_SIGS: ReadonlyMap<string, OpSig> = new Map(
  table.map(([mnemonic, family, ins, out, extra]) => [
    mnemonic,
    {
      mnemonic,
      insn: extra?.insn ?? insnName(mnemonic),
      family,
      ins: ins.split(' ') as OperandKind[],
      out: out ?? 'T',
      ...(extra ?? {}),
    },
  ]),
);

/** Non-tile `pto.` ops with their own custom syntax (parsed by dedicated rules). */
export const CUSTOM_PTO_OPS = [
  'make_tensor_view',
  'partition_view',
  'alloc_tile',
  'subset',
  'treshape',
  'get_block_idx',
  'get_subblock_idx',
  'get_block_num',
  'get_subblock_num',
  'record_event',
  'wait_event',
  'set_flag',
  'wait_flag',
  'sync.set',
  'sync.wait',
  'get_buf',
  'rls_buf',
  'barrier',
  'section.vector',
  'section.cube',
] as const;

/** Every `pto.` mnemonic the parser knows, for "did you mean" hints. */
export function knownPtoMnemonics(): string[] {
  return [...OP_SIGS.keys(), ...CUSTOM_PTO_OPS].map((m) => `pto.${m}`);
}

/** Count range of a signature's ins operands: [min, max] (max = Infinity with a variadic tail). */
export function insArity(sig: OpSig): [number, number] {
  let min = 0;
  let max = 0;
  for (const k of sig.ins) {
    if (k === 'T*') return [min, Number.POSITIVE_INFINITY];
    max++;
    if (!k.endsWith('?')) min++;
  }
  return [min, max];
}
