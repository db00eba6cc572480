/**
 * Recursive-descent parser for PTO-AS. Grammar: PTOAS @bba77f1 (`PTOOps.td` assembly formats,
 * `PTOTypeDefs.cpp` tile_buf parser) as summarised in shared/conformance/PTO-AS.md; plus the
 * pto-isa manual's Level-1 SSA form and its assembly form (`tadd %d, %a, %b : T`), and, unless
 * `strict` is set, the manual's short type spellings `!pto.tile<f32, 16, 16>` /
 * `!pto.tile_buf<f32, 16, 16>`.
 *
 * Every error is a BadInput AxsimError at line:col with a hint saying what would fix it.
 */
import { type Budget, defaultBudget } from '../../budget.ts';
import { nearestName } from '../../errors.ts';
import {
  ADDRESS_SPACES,
  type AffineExpr,
  type Attr,
  BLAYOUTS,
  type Func,
  type FuncArg,
  type GenericItem,
  type IndexOperand,
  type Module,
  type NamedAttr,
  type Op,
  type Operand,
  type Pos,
  type ScalarType,
  SLAYOUTS,
  TILE_LOCS,
  type TileBufType,
  type Type,
  type Use,
} from './ast.ts';
import { intValue, Lexer, type Token } from './lexer.ts';
import { CUSTOM_PTO_OPS, knownPtoMnemonics, OP_SIGS } from './ops.ts';

export interface ParseOptions {
  /** File name for error locations. */
  file?: string;
  /** Reject the pto-isa manual's short type spellings (PTOAS accepts only the canonical forms). */
  strict?: boolean;
  /**
   * Also accept forms of older PTOAS samples that the current PTOAS parser rejects: the comma-less
   * `shape = […] strides = […]` and a tile type without its `!pto.tile_buf` prefix. Ignored when
   * `strict` is set.
   */
  legacy?: boolean;
  /** Resource limits (nesting depth of regions); the defaults of src/budget.ts when absent. */
  budget?: Budget;
  /**
   * The target architecture the text is parsed for (`a3` | `a5`, as `ptoas --pto-arch`). When not
   * given, `pto.target_arch = "…"` in the text selects it (PTOAS `detectTextualModuleArch`); with
   * neither, axsim keeps every type as written. With an arch, a `loc=left` tile buffer gets the
   * arch's fixed base layout (a3 row_major, a5 col_major), as PTOAS's type parser does.
   */
  arch?: 'a3' | 'a5';
}

/** `pto.target_arch = "a5"` anywhere in the text, as PTOAS's ptoas.cpp detects it. */
export function detectTargetArch(src: string): 'a3' | 'a5' | undefined {
  const m = /"?pto\.target_arch"?\s*=\s*"([A-Za-z0-9_]+)"/.exec(src);
  const a = m?.[1]?.toLowerCase();
  return a === 'a3' || a === 'a5' ? a : undefined;
}

/** ODS operand segments (PTOOps.td) of the DPS ops accepted in MLIR's generic op form. */
const GENERIC_FORM_SEGMENTS: Record<string, string[]> = {
  'pto.tmov': ['src', 'dst', 'fp', 'preQuantScalar'],
  'pto.tstore': ['src', 'dst', 'preQuantScalar'],
};

/** Hash attributes whose parameters are not simple words (kept as written). */
const RAW_HASH_ATTRS = new Set(['pto.tile_buf_config', 'pto.inferred_layout']);

/** Dialect types axsim carries through without a structure of their own (`!pto.pipe` …). */
const OTHER_TYPES = ['pto.pipe', 'pto.eventid_array', 'pto.async_session', 'pto.async_event'];

/**
 * Ops read in generic custom syntax (GenericOp): PTOAS ops whose meaning lives in the verifier /
 * runner, not in a grammar of their own.
 */
export const GENERIC_OPS = new Set([
  'memref.dealloc',
  'memref.reinterpret_cast',
  'pto.addptr',
  'pto.aic_initialize_pipe',
  'pto.aiv_initialize_pipe',
  'pto.bind_tile',
  'pto.build_async_session',
  'pto.declare_eventid_array',
  'pto.declare_tile',
  'pto.eventid_array_get',
  'pto.eventid_array_set',
  'pto.import_reserved_buffer',
  'pto.initialize_l2g2l_pipe',
  'pto.initialize_l2l_pipe',
  'pto.pointer_cast',
  'pto.reserve_buffer',
  'pto.set_ffts',
  'pto.set_flag_dyn',
  'pto.wait_flag_dyn',
  'pto.set_validshape',
  'pto.tassign',
  'pto.test_async_event',
  'pto.wait_async_event',
  'pto.tget_async',
  'pto.tput_async',
  'pto.tfree',
  'pto.tfree_from_aic',
  'pto.tfree_from_aiv',
  'pto.tpop',
  'pto.tpop_from_aic',
  'pto.tpop_from_aiv',
  'pto.tpush',
  'pto.tpush_to_aic',
  'pto.tpush_to_aiv',
]);

const SCALAR_RE =
  /^(index|i1|i4|i8|i16|i32|i64|ui8|ui16|ui32|ui64|si8|si16|si32|si64|f16|bf16|f32|f64|tf32|f8E4M3FN|f8E5M2|f8E4M3|f8E5M2FNUZ|f8E4M3FNUZ|f8e4m3|f8e5m2|hif8|f4E2M1FN|f6E2M3FN|f6E3M2FN|f8E8M0FNU)$/;

export const CMP_MODES = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const;
export const ROUND_MODES = ['NONE', 'RINT', 'ROUND', 'FLOOR', 'CEIL', 'TRUNC', 'ODD', 'CAST_RINT'] as const;
export const PIPE_EVENT_TYPES = [
  'TLOAD',
  'TSTORE_ACC',
  'TSTORE_VEC',
  'TMOV_M2L',
  'TMOV_M2S',
  'TMOV_M2B',
  'TMOV_M2V',
  'TMOV_V2M',
  'TMATMUL',
  'TVEC',
  'TVECWAIT_EVENT',
] as const;
export const PIPES = [
  'PIPE_S',
  'PIPE_V',
  'PIPE_M',
  'PIPE_MTE1',
  'PIPE_MTE2',
  'PIPE_MTE3',
  'PIPE_MTE4',
  'PIPE_MTE5',
  'PIPE_V2',
  'PIPE_FIX',
  'PIPE_ALL',
] as const;
/**
 * PTOAS's `#pto<kind value>` enum attributes (PTOAttrs.td EnumAttr<PTO_Dialect, …, "kind">) with
 * their spellings.
 */
export const PTO_ENUMS: Record<string, { what: string; values: readonly string[] }> = {
  cmp: { what: 'compare mode', values: CMP_MODES },
  round_mode: { what: 'round mode', values: ROUND_MODES },
  saturation_mode: { what: 'saturation mode', values: ['ON', 'OFF'] },
  st_phase: { what: 'store phase', values: ['unspecified', 'partial', 'final'] },
  atomic_type: { what: 'atomic type', values: ['atomic_none', 'atomic_add'] },
  relu_pre_mode: { what: 'relu pre mode', values: ['no_relu', 'normal_relu'] },
  gather_oob: { what: 'gather out-of-bounds mode', values: ['undefined', 'clamp', 'wrap', 'zero'] },
  scatter_atomic_op: { what: 'scatter atomic op', values: ['none', 'add', 'max', 'min'] },
  scatter_oob: { what: 'scatter out-of-bounds mode', values: ['undefined', 'skip', 'clamp', 'wrap'] },
  quant_type: { what: 'quantization type', values: ['INT8_SYM', 'INT8_ASYM'] },
};

/** PTOAS's `#pto.kind<value>` attributes (PTO_Attr<…, "kind"> with `<` params `>`). */
export const PTO_DOTTED_ENUMS: Record<string, readonly string[]> = {
  'pto.acc_to_vec_mode': ['single_mode_vec0', 'single_mode_vec1', 'dual_mode_split_m', 'dual_mode_split_n'],
  'pto.kernel_kind': ['cube', 'vector'],
  'pto.blayout': ['row_major', 'col_major'],
  'pto.slayout': ['none_box', 'row_major', 'col_major'],
  'pto.pad_value': ['null', 'zero', 'max', 'min'],
  'pto.compact_mode': ['null', 'normal', 'row_plus_one'],
};

export const CMPI_PREDICATES = ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge'] as const;
export const CMPF_PREDICATES = [
  'false',
  'oeq',
  'ogt',
  'oge',
  'olt',
  'ole',
  'one',
  'ord',
  'ueq',
  'ugt',
  'uge',
  'ult',
  'ule',
  'une',
  'uno',
  'true',
] as const;
export const ARITH_BINARY = [
  'addi',
  'subi',
  'muli',
  'divsi',
  'divui',
  'remsi',
  'remui',
  'ceildivsi',
  'ceildivui',
  'floordivsi',
  'maxsi',
  'minsi',
  'maxui',
  'minui',
  'andi',
  'ori',
  'xori',
  'shli',
  'shrsi',
  'shrui',
  'addf',
  'subf',
  'mulf',
  'divf',
  'maximumf',
  'minimumf',
  'maxnumf',
  'minnumf',
] as const;
export const ARITH_CASTS = [
  'index_cast',
  'index_castui',
  'sitofp',
  'uitofp',
  'fptosi',
  'fptoui',
  'extsi',
  'extui',
  'trunci',
  'extf',
  'truncf',
  'bitcast',
] as const;

const OTHER_OPS = [
  'return',
  'func.call',
  ...GENERIC_OPS,
  'func.return',
  'arith.constant',
  'arith.cmpi',
  'arith.cmpf',
  'arith.select',
  'scf.for',
  'scf.if',
  'scf.yield',
  'scf.while',
  'scf.condition',
  'memref.alloc',
  'memref.subview',
  'affine.apply',
  ...ARITH_BINARY.map((n) => `arith.${n}`),
  ...ARITH_CASTS.map((n) => `arith.${n}`),
];

class Parser {
  private readonly lx: Lexer;
  private readonly strict: boolean;
  private readonly legacy: boolean;
  private readonly arch: 'a3' | 'a5' | undefined;
  // the op being parsed (for the result-count checks; methods, not per-op closures)
  private curFirst!: Token;
  private curName!: Token;
  private curResults: Use[] = [];
  readonly noResults = (what: string): void => {
    if (this.curResults.length > 0) {
      this.fail(this.curFirst, `'${what}' has no results`, `remove '%${this.curResults[0]!.name} ='`);
    }
  };
  readonly oneResult = (what: string): void => {
    if (this.curResults.length !== 1) {
      this.fail(
        this.curFirst.kind === 'value' ? this.curFirst : this.curName,
        `'${what}' produces exactly one result`,
        `write '%r = ${what} …'`,
      );
    }
  };

  private readonly budget: Budget;
  /** Regions open around the current op; checked against the budget (the verifier, printer and
   * walker recurse over regions too, so the parser's check protects them all). */
  private depth = 0;

  constructor(src: string, opts: ParseOptions) {
    this.budget = opts.budget ?? defaultBudget();
    this.lx = new Lexer(src, opts.file);
    this.strict = opts.strict ?? false;
    this.legacy = !this.strict && (opts.legacy ?? false);
    this.arch = opts.arch ?? detectTargetArch(src);
  }

  // ---- helpers ---------------------------------------------------------------------------

  private pos(t: Token): Pos {
    return { line: t.line, col: t.col };
  }

  private describe(t: Token): string {
    switch (t.kind) {
      case 'eof':
        return 'end of input';
      case 'value':
        return `'%${t.text}'`;
      case 'symbol':
        return `'@${t.text}'`;
      case 'bang':
        return `'!${t.text}'`;
      case 'hash':
        return `'#${t.text}'`;
      case 'string':
        return `"${t.text}"`;
      default:
        return `'${t.text}'`;
    }
  }

  private fail(t: Token, message: string, hint?: string): never {
    return this.lx.error(t, message, hint);
  }

  private expectPunct(p: string, context: string, hint?: string): Token {
    const t = this.lx.next();
    if (t.kind !== 'punct' || t.text !== p) {
      this.fail(t, `expected '${p}' ${context}, found ${this.describe(t)}`, hint ?? `insert '${p}'`);
    }
    return t;
  }

  private expectKeyword(word: string, context: string, hint?: string): Token {
    const t = this.lx.next();
    if (t.kind !== 'ident' || t.text !== word) {
      this.fail(t, `expected '${word}' ${context}, found ${this.describe(t)}`, hint ?? `write '${word}'`);
    }
    return t;
  }

  private isKeyword(word: string): boolean {
    const t = this.lx.peek();
    return t.kind === 'ident' && t.text === word;
  }

  private expectValue(context: string): Use {
    const t = this.lx.next();
    if (t.kind !== 'value') {
      this.fail(t, `expected an SSA value (%name) ${context}, found ${this.describe(t)}`);
    }
    return { name: t.text, pos: this.pos(t) };
  }

  private expectInt(context: string, allowNegative = true): { value: number; tok: Token } {
    const t = this.lx.next();
    if (t.kind !== 'int') this.fail(t, `expected an integer ${context}, found ${this.describe(t)}`);
    const v = Number(t.text);
    if (!Number.isSafeInteger(v)) this.fail(t, `integer ${t.text} is out of range ${context}`);
    if (!allowNegative && v < 0) this.fail(t, `${context}: must be non-negative, found ${v}`);
    return { value: v, tok: t };
  }

  /** `%a, %b, …` until a token that is not a value (possibly empty). */
  private valueList(context: string): Use[] {
    const out: Use[] = [];
    if (this.lx.peek().kind !== 'value') return out;
    out.push(this.expectValue(context));
    while (this.lx.eatPunct(',')) out.push(this.expectValue(context));
    return out;
  }

  // ---- types -----------------------------------------------------------------------------

  private scalarFromIdent(t: Token): ScalarType {
    if (t.kind !== 'ident' || !SCALAR_RE.test(t.text)) {
      const near =
        t.kind === 'ident'
          ? nearestName(t.text, ['f32', 'f16', 'bf16', 'i8', 'i16', 'i32', 'index'])
          : undefined;
      this.fail(
        t,
        `expected an element type, found ${this.describe(t)}`,
        near
          ? `did you mean '${near}'?`
          : 'element types are builtin MLIR types: f32 f16 bf16 i8 i16 i32 i64 ui8 … index',
      );
    }
    return { kind: 'scalar', name: t.text };
  }

  parseType(): Type {
    const t0 = this.lx.peek();
    if (t0.kind === 'punct' && t0.text === '<' && this.legacy) {
      // MLIR lets a custom format elide the `!pto.tile_buf` prefix where the type is implied:
      // `ins(%a : <loc=vec, …>)` (seen in PTOAS samples)
      return this.parseTileBuf(t0, true);
    }
    const t = this.lx.next();
    if (t.kind === 'ident') {
      if (t.text === 'memref') return this.parseMemref(t);
      if (t.text === 'vector') {
        // vector<4xi16> (PTOAS TMrgSortOp's executed list)
        this.expectPunct('<', "after 'vector'");
        const { dims } = this.lx.scanDims();
        const elem = this.scalarFromIdent(this.lx.next());
        this.expectPunct('>', 'to close vector<…>');
        if (dims.length === 0 || dims.some((d) => d < 1))
          this.fail(t, 'vector types need static positive dims', 'e.g. vector<4xi16>');
        return { kind: 'vector', shape: dims, elem };
      }
      return this.scalarFromIdent(t);
    }
    if (t.kind === 'bang') {
      switch (t.text) {
        case 'pto.tile_buf':
          return this.parseTileBuf(t);
        case 'pto.tile':
          return this.parseTile(t);
        case 'pto.ptr': {
          this.expectPunct('<', 'after !pto.ptr');
          const e = this.scalarFromIdent(this.lx.next());
          this.expectPunct('>', 'to close !pto.ptr<…>');
          return { kind: 'ptr', elem: e };
        }
        case 'pto.tensor_view':
        case 'pto.partition_tensor_view': {
          this.expectPunct('<', `after !${t.text}`);
          const { dims } = this.lx.scanDims();
          const e = this.scalarFromIdent(this.lx.next());
          this.expectPunct('>', `to close !${t.text}<…>`);
          return {
            kind: t.text === 'pto.tensor_view' ? 'tensor_view' : 'partition_tensor_view',
            shape: dims,
            elem: e,
          };
        }
        default: {
          if (OTHER_TYPES.includes(t.text)) {
            return { kind: 'other', text: `!${t.text}${this.lx.isPunct('<') ? this.rawAngle() : ''}` };
          }
          const near = nearestName(t.text, [
            'pto.tile_buf',
            'pto.tile',
            'pto.ptr',
            'pto.tensor_view',
            'pto.partition_tensor_view',
          ]);
          this.fail(
            t,
            `unknown type '!${t.text}'`,
            near
              ? `did you mean '!${near}'?`
              : 'PTO types are !pto.tile_buf, !pto.tile, !pto.ptr, !pto.tensor_view, !pto.partition_tensor_view',
          );
        }
      }
    }
    return this.fail(t, `expected a type, found ${this.describe(t)}`, 'e.g. f32, index or !pto.tile_buf<…>');
  }

  private parseMemref(_t: Token): Type {
    this.expectPunct('<', "after 'memref'");
    const { dims } = this.lx.scanDims();
    const e = this.scalarFromIdent(this.lx.next());
    let space: string | undefined;
    let layout: { strides: number[]; offset: number } | undefined;
    const sizeOrDyn = (context: string): number => {
      const t = this.lx.peek();
      if (t.kind === 'punct' && t.text === '?') {
        this.lx.next();
        return -1;
      }
      return this.expectInt(context, false).value;
    };
    if (this.lx.peek().kind === 'punct' && this.lx.peek().text === ',') {
      const save = this.lx.peek();
      this.lx.next();
      const k = this.lx.peek();
      if (k.kind === 'ident' && k.text === 'strided') {
        // MLIR strided layout: strided<[s0, s1, …], offset: o> (`?` = dynamic)
        this.lx.next();
        this.expectPunct('<', "after 'strided'");
        this.expectPunct('[', 'to open the strides');
        const strides: number[] = [];
        if (!this.lx.eatPunct(']')) {
          strides.push(sizeOrDyn('as a stride'));
          while (this.lx.eatPunct(',')) strides.push(sizeOrDyn('as a stride'));
          this.expectPunct(']', 'to close the strides');
        }
        if (strides.length !== dims.length) {
          this.fail(
            save,
            `memref: ${dims.length} dims but ${strides.length} strides`,
            'give one stride per dim',
          );
        }
        let offset = 0;
        if (this.lx.eatPunct(',')) {
          this.expectKeyword('offset', 'in strided<…>');
          this.expectPunct(':', "after 'offset'");
          offset = sizeOrDyn('as the offset');
        }
        this.expectPunct('>', 'to close strided<…>');
        layout = { strides, offset };
      } else this.lx.reset(save);
    }
    if (this.lx.eatPunct(',')) {
      const h = this.lx.next();
      if (h.kind !== 'hash' || h.text !== 'pto.address_space') {
        this.fail(h, `expected '#pto.address_space<…>' in memref, found ${this.describe(h)}`);
      }
      this.expectPunct('<', 'after #pto.address_space');
      const w = this.lx.next();
      if (w.kind !== 'ident' || !(ADDRESS_SPACES as readonly string[]).includes(w.text)) {
        const near = w.kind === 'ident' ? nearestName(w.text, ADDRESS_SPACES) : undefined;
        this.fail(
          w,
          `unknown address space ${this.describe(w)}`,
          near ? `did you mean '${near}'?` : `one of ${ADDRESS_SPACES.join(', ')}`,
        );
      }
      space = w.text;
      this.expectPunct('>', 'to close #pto.address_space<…>');
    }
    this.expectPunct('>', 'to close memref<…>');
    return layout
      ? { kind: 'memref', shape: dims, elem: e, space, layout }
      : { kind: 'memref', shape: dims, elem: e, space };
  }

  private parseTile(t: Token): Type {
    this.expectPunct('<', 'after !pto.tile');
    const { dims } = this.lx.scanDims();
    const et = this.lx.next();
    const elem = this.scalarFromIdent(et);
    if (dims.length === 0) {
      // pto-isa manual short spelling: !pto.tile<f32, 16, 16>
      if (this.strict || !this.lx.isPunct(',')) {
        this.fail(
          et,
          '!pto.tile expects dims then element type',
          `write !pto.tile<16x16x${elem.name}> (dims 'x'-separated before the element type)`,
        );
      }
      const shape: number[] = [];
      while (this.lx.eatPunct(',')) shape.push(this.expectInt('as a tile dimension', false).value);
      this.expectPunct('>', 'to close !pto.tile<…>');
      return { kind: 'tile', shape, elem };
    }
    for (const d of dims)
      if (d < 0) this.fail(t, 'a Level-1 tile needs static dims', 'replace ? by a number');
    this.expectPunct('>', 'to close !pto.tile<…>');
    return { kind: 'tile', shape: dims, elem };
  }

  private parseTileBuf(_t: Token, bare = false): TileBufType {
    this.expectPunct('<', bare ? 'to open the tile buffer type' : 'after !pto.tile_buf');
    const first = this.lx.peek();
    if (first.kind === 'ident' && first.text !== 'loc' && SCALAR_RE.test(first.text)) {
      // pto-isa manual short spelling: !pto.tile_buf<f32, 16, 16>
      if (this.strict) {
        this.fail(
          first,
          '!pto.tile_buf needs the ten key=value items',
          'write !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>',
        );
      }
      const dtype = this.scalarFromIdent(this.lx.next());
      this.expectPunct(',', 'after the element type of a short !pto.tile_buf');
      const rows = this.expectInt('(rows)', false).value;
      this.expectPunct(',', 'after rows');
      const cols = this.expectInt('(cols)', false).value;
      this.expectPunct('>', 'to close !pto.tile_buf<…>');
      return {
        kind: 'tile_buf',
        loc: 'vec',
        dtype,
        rows,
        cols,
        vRow: rows,
        vCol: cols,
        blayout: 'row_major',
        slayout: 'none_box',
        fractal: 512,
        pad: 0,
      };
    }
    if (
      (first.kind === 'ident' || first.kind === 'string') &&
      first.text !== 'loc' &&
      (TILE_LOCS as readonly string[]).includes(first.text)
    ) {
      return this.resolveLeft(this.parseCompactTileBuf());
    }
    if (first.kind === 'ident' && first.text !== 'loc' && !bare) {
      const near = nearestName(first.text, TILE_LOCS);
      if (near) {
        this.fail(
          first,
          `unknown loc ${this.describe(first)}`,
          `did you mean '${near}'? loc is one of ${TILE_LOCS.join(', ')}`,
        );
      }
    }
    const keys = ['loc', 'dtype', 'rows', 'cols', 'v_row', 'v_col', 'blayout', 'slayout', 'fractal', 'pad'];
    const out: Partial<TileBufType> & { kind: 'tile_buf' } = { kind: 'tile_buf' };
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (i > 0) {
        const c = this.lx.next();
        if (c.kind !== 'punct' || c.text !== ',') {
          this.fail(
            c,
            `expected ',' then '${key}=' in !pto.tile_buf, found ${this.describe(c)}`,
            `the ten keys are mandatory and ordered: ${keys.join(', ')}`,
          );
        }
      }
      const k = this.lx.next();
      if (k.kind !== 'ident' || k.text !== key) {
        this.fail(
          k,
          `expected '${key}=' in !pto.tile_buf, found ${this.describe(k)}`,
          `the ten keys are mandatory and in this order: ${keys.join(', ')}`,
        );
      }
      this.expectPunct('=', `after '${key}'`);
      const v = this.lx.peek();
      switch (key) {
        case 'loc': {
          this.lx.next();
          const word = v.kind === 'ident' || v.kind === 'string' ? v.text : '';
          if (!(TILE_LOCS as readonly string[]).includes(word)) {
            const near = nearestName(word, TILE_LOCS);
            this.fail(
              v,
              `unknown loc ${this.describe(v)}`,
              `${near ? `did you mean '${near}'? ` : ''}loc is one of ${TILE_LOCS.join(', ')} (UB is 'vec', L1 is 'mat')`,
            );
          }
          out.loc = word as TileBufType['loc'];
          break;
        }
        case 'dtype': {
          const ty = this.parseType();
          if (ty.kind !== 'scalar') this.fail(v, 'dtype must be an element type', 'e.g. dtype=f32');
          out.dtype = ty;
          break;
        }
        case 'rows':
        case 'cols': {
          const n = this.expectInt(`for ${key}`);
          if (n.value < 0)
            this.fail(n.tok, 'rows/cols must be non-negative', `write a static size ≥ 0 for ${key}`);
          out[key] = n.value;
          break;
        }
        case 'v_row':
        case 'v_col': {
          let n: number;
          if (v.kind === 'punct' && v.text === '?') {
            this.lx.next();
            n = -1;
          } else {
            const r = this.expectInt(`for ${key}`);
            if (r.value < -1) {
              this.fail(r.tok, `${key} must be ?, -1 or ≥ 0`, 'use ? for a dynamic valid dim');
            }
            n = r.value;
          }
          if (key === 'v_row') out.vRow = n;
          else out.vCol = n;
          break;
        }
        case 'blayout':
        case 'slayout': {
          this.lx.next();
          const allowed: readonly string[] = key === 'blayout' ? BLAYOUTS : SLAYOUTS;
          const word = v.kind === 'ident' || v.kind === 'string' ? v.text : '';
          if (!allowed.includes(word)) {
            const near = nearestName(word.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(), allowed);
            this.fail(
              v,
              `unknown ${key} ${this.describe(v)}`,
              `${near ? `did you mean '${near}'? ` : ''}${key} is one of ${allowed.join(', ')}`,
            );
          }
          if (key === 'blayout') out.blayout = word as TileBufType['blayout'];
          else out.slayout = word as TileBufType['slayout'];
          break;
        }
        case 'fractal': {
          out.fractal = this.expectInt('for fractal', false).value;
          break;
        }
        case 'pad': {
          const p = this.lx.next();
          if (p.kind !== 'int' || !/^[0-3]$/.test(p.text)) {
            this.fail(
              p,
              `unknown pad ${this.describe(p)}`,
              'pad is an integer: 0 = Null, 1 = Zero, 2 = Max, 3 = Min',
            );
          }
          out.pad = Number(p.text);
          break;
        }
      }
    }
    if (this.lx.isPunct(',')) {
      // PTOAS: an optional `compact=N` after pad (CompactMode 0 Null, 1 Normal, 2 RowPlusOne)
      this.lx.next();
      this.expectKeyword('compact', "after 'pad' in !pto.tile_buf", "the only key after 'pad' is compact=N");
      this.expectPunct('=', "after 'compact'");
      const c = this.parseCompactMode();
      if (c !== 0) out.compact = c;
    }
    const close = this.lx.next();
    if (close.kind !== 'punct' || close.text !== '>') {
      this.fail(
        close,
        `expected '>' after pad in !pto.tile_buf, found ${this.describe(close)}`,
        "close the type with '>'",
      );
    }
    return this.resolveLeft(out as TileBufType);
  }

  private parseCompactMode(): number {
    const c = this.lx.next();
    if (c.kind !== 'int' || !/^[0-2]$/.test(c.text)) {
      this.fail(
        c,
        `unknown compact mode ${this.describe(c)}`,
        'compact is 0 (Null), 1 (Normal) or 2 (RowPlusOne)',
      );
    }
    return Number(c.text);
  }

  /** PTOAS `resolveTileBufBLayout`: with a known arch, `left` buffers take the arch's base layout. */
  private resolveLeft(t: TileBufType): TileBufType {
    if (t.loc !== 'left' || this.arch === undefined) return t;
    const bl = this.arch === 'a3' ? 'row_major' : 'col_major';
    return t.blayout === bl ? t : { ...t, blayout: bl };
  }

  /**
   * PTOAS's compact spelling (what ptoas prints): `!pto.tile_buf<vec, 16x16xf32[, valid=RxC]
   * [, blayout=…][, slayout=…][, fractal=N][, pad=N][, compact=N]>`; unnamed keys take the
   * defaults (row_major, none_box, 512, 0, 0), each key at most once, in any order.
   */
  private parseCompactTileBuf(): TileBufType {
    const locTok = this.lx.next();
    this.expectPunct(
      ',',
      'after the location of a compact !pto.tile_buf',
      'write !pto.tile_buf<vec, 16x16xf32>',
    );
    const dimsAt = this.lx.peek();
    const { dims } = this.lx.scanDims();
    if (dims.length !== 2 || dims.some((d) => d < 0)) {
      this.fail(
        dimsAt,
        'a compact !pto.tile_buf needs exactly two static dims before the element type',
        'write e.g. !pto.tile_buf<vec, 16x16xf32>',
      );
    }
    const dt = this.parseType();
    if (dt.kind !== 'scalar')
      this.fail(dimsAt, 'the element type of a tile buffer must be a scalar type', 'e.g. f32');
    const out: TileBufType = {
      kind: 'tile_buf',
      loc: locTok.text as TileBufType['loc'],
      dtype: dt,
      rows: dims[0]!,
      cols: dims[1]!,
      vRow: dims[0]!,
      vCol: dims[1]!,
      blayout: 'row_major',
      slayout: 'none_box',
      fractal: 512,
      pad: 0,
    };
    const seen = new Set<string>();
    while (this.lx.eatPunct(',')) {
      const k = this.lx.next();
      const keys = ['valid', 'blayout', 'slayout', 'fractal', 'pad', 'compact'];
      if (k.kind !== 'ident' || !keys.includes(k.text)) {
        const near = k.kind === 'ident' ? nearestName(k.text, keys) : undefined;
        this.fail(
          k,
          `unknown key ${this.describe(k)} in a compact !pto.tile_buf`,
          `${near ? `did you mean '${near}'? ` : ''}keys: ${keys.join(', ')}`,
        );
      }
      if (seen.has(k.text))
        this.fail(k, `duplicate ${k.text} in a compact !pto.tile_buf`, 'give each key once');
      seen.add(k.text);
      this.expectPunct('=', `after '${k.text}'`);
      const v = this.lx.peek();
      switch (k.text) {
        case 'valid': {
          const { dims: vd } = this.lx.scanDims();
          let last: number;
          if (this.lx.eatPunct('?')) last = -1;
          else last = this.expectInt('as a valid dim', false).value;
          if (vd.length !== 1) this.fail(v, 'valid must have exactly two dims', 'write valid=16x?');
          out.vRow = vd[0]!;
          out.vCol = last;
          break;
        }
        case 'blayout':
        case 'slayout': {
          this.lx.next();
          const allowed: readonly string[] = k.text === 'blayout' ? BLAYOUTS : SLAYOUTS;
          const word = v.kind === 'ident' || v.kind === 'string' ? v.text : '';
          if (!allowed.includes(word)) {
            const near = nearestName(word, allowed);
            this.fail(
              v,
              `unknown ${k.text} ${this.describe(v)}`,
              `${near ? `did you mean '${near}'? ` : ''}${k.text} is one of ${allowed.join(', ')}`,
            );
          }
          if (k.text === 'blayout') out.blayout = word as TileBufType['blayout'];
          else out.slayout = word as TileBufType['slayout'];
          break;
        }
        case 'fractal':
          out.fractal = this.expectInt('for fractal', false).value;
          break;
        case 'pad': {
          const p = this.lx.next();
          if (p.kind !== 'int' || !/^[0-3]$/.test(p.text)) {
            this.fail(
              p,
              `unknown pad ${this.describe(p)}`,
              'pad is an integer: 0 = Null, 1 = Zero, 2 = Max, 3 = Min',
            );
          }
          out.pad = Number(p.text);
          break;
        }
        case 'compact': {
          const c = this.parseCompactMode();
          if (c !== 0) out.compact = c;
          break;
        }
      }
    }
    this.expectPunct('>', 'to close !pto.tile_buf<…>');
    return out;
  }

  // ---- attributes --------------------------------------------------------------------------

  private parseAttrValue(validate = true): Attr {
    const t = this.lx.peek();
    if (t.kind === 'int') {
      this.lx.next();
      return this.maybeTyped({ kind: 'int', value: intValue(t.text) });
    }
    if (t.kind === 'float') {
      this.lx.next();
      return this.maybeTyped({ kind: 'float', text: t.text });
    }
    if (t.kind === 'string') {
      this.lx.next();
      return { kind: 'string', value: t.text };
    }
    if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false')) {
      this.lx.next();
      return { kind: 'bool', value: t.text === 'true' };
    }
    if (t.kind === 'hash') return this.parseHashAttr(validate);
    // PTOAS's elided enum spelling inside a dictionary: `location = <vec>`
    if (t.kind === 'punct' && t.text === '<') return this.parseSyncArg();
    if (t.kind === 'symbol') {
      this.lx.next();
      return { kind: 'symbol', name: t.text };
    }
    if (t.kind === 'ident' && (t.text === 'dense' || t.text === 'array') && this.lx.peekIsAngle()) {
      // builtin `dense<…>` / `array<i64: …>` attributes, kept as written
      this.lx.next();
      return this.maybeTyped({ kind: 'raw', text: `${t.text}${this.rawAngle()}` });
    }
    if (t.kind === 'bang' || (t.kind === 'ident' && (SCALAR_RE.test(t.text) || t.text === 'memref'))) {
      return { kind: 'type', type: this.parseType() };
    }
    if (t.kind === 'ident') {
      this.lx.next();
      return { kind: 'word', value: t.text };
    }
    return this.fail(t, `expected an attribute value, found ${this.describe(t)}`);
  }

  /** A balanced `<…>` kept as written (the next token must be `<`). */
  private rawAngle(): string {
    const open = this.expectPunct('<', 'to open the attribute parameters');
    let depth = 1;
    let end = open.end;
    while (depth > 0) {
      const t = this.lx.next();
      if (t.kind === 'eof') this.fail(open, "unbalanced '<' in an attribute", "close it with '>'");
      if (t.kind === 'punct' && t.text === '<') depth++;
      if (t.kind === 'punct' && t.text === '>') depth--;
      // `->` inside the parameters cannot close them
      end = t.end;
    }
    return this.lx.src.slice(open.pos, end).replace(/\s+/g, ' ');
  }

  private maybeTyped(a: Attr): Attr {
    if (this.lx.isPunct(':')) {
      // `{x = 1 : i32}` — typed literal inside an attribute dictionary
      this.lx.next();
      return { kind: 'typed', value: a, type: this.parseType() };
    }
    return a;
  }

  /** `#pto<cmp lt>`, `#pto<round_mode ROUND>`, `#pto.event<EVENT_ID0>`, `#pto.layout<nd>` … */
  private parseHashAttr(validate = true): Attr {
    const h = this.lx.next();
    const ns = h.text;
    if (RAW_HASH_ATTRS.has(ns)) return { kind: 'raw', text: `#${ns}${this.rawAngle()}` };
    this.expectPunct('<', `after '#${ns}'`);
    const words: string[] = [];
    for (;;) {
      const w = this.lx.next();
      if (w.kind === 'punct' && w.text === '>') break;
      if (w.kind === 'punct' && w.text === ',') continue;
      if (w.kind !== 'ident' && w.kind !== 'int') {
        this.fail(w, `unexpected ${this.describe(w)} inside '#${ns}<…>'`, "close the attribute with '>'");
      }
      words.push(w.text);
      if (words.length > 8) this.fail(w, `attribute '#${ns}<…>' is too long`, "close it with '>'");
    }
    if (validate) this.checkEnumAttr(h, ns, words);
    return { kind: 'enum', ns, words };
  }

  private checkEnumAttr(t: Token, ns: string, words: string[]): void {
    const oneOf = (what: string, value: string | undefined, allowed: readonly string[]) => {
      if (value === undefined || !allowed.includes(value)) {
        const near = value === undefined ? undefined : nearestName(value, allowed);
        this.fail(
          t,
          `unknown ${what} '${value ?? ''}'`,
          `${near ? `did you mean '${near}'? ` : ''}${what} is one of ${allowed.join(' ')}`,
        );
      }
    };
    if (ns === 'pto') {
      if (words.length !== 2)
        this.fail(t, `'#pto<…>' needs a kind and a value`, 'e.g. #pto<cmp lt> or #pto<round_mode RINT>');
      const e = PTO_ENUMS[words[0]!];
      if (e) oneOf(e.what, words[1], e.values);
      else if (words[0] !== 'pad_mode' && words[0] !== 'mask_pattern') {
        this.fail(
          t,
          `unknown '#pto<${words[0]} …>' attribute`,
          `the enum attributes are ${Object.keys(PTO_ENUMS)
            .map((k) => `'#pto<${k} …>'`)
            .join(', ')}`,
        );
      }
    } else if (ns === 'pto.pipe_event_type' || ns === 'pto.sync_op_type') {
      if (words.length !== 1) this.fail(t, 'expected one event type', 'e.g. #pto.pipe_event_type<TLOAD>');
      oneOf('pipe event type', words[0], PIPE_EVENT_TYPES);
    } else if (ns === 'pto.event') {
      if (words.length !== 1 || !/^EVENT_ID[0-7]$/.test(words[0]!)) {
        this.fail(t, `unknown event '${words.join(' ')}'`, 'events are EVENT_ID0 … EVENT_ID7');
      }
    } else if (ns === 'pto.address_space') {
      oneOf('address space', words[0], ADDRESS_SPACES);
    } else if (ns === 'pto.layout') {
      oneOf('layout', words[0], ['nd', 'dn', 'nz']);
    } else if (ns === 'pto.pipe') {
      oneOf('pipe', words[0], PIPES);
    } else if (PTO_DOTTED_ENUMS[ns]) {
      oneOf(ns.slice(4).replace(/_/g, ' '), words[0], PTO_DOTTED_ENUMS[ns]!);
    } else if (ns === 'pto.mask_pattern') {
      // PTOAS PTO_MaskPatternAttr (TGATHER's mask form)
      oneOf('mask pattern', words[0], ['P0101', 'P1010', 'P0001', 'P0010', 'P0100', 'P1000', 'P1111']);
    } else {
      this.fail(
        t,
        `unknown attribute '#${ns}'`,
        'known: #pto<cmp …>, #pto<round_mode …>, #pto.pipe_event_type<…>, #pto.event<…>, #pto.address_space<…>, #pto.layout<…>',
      );
    }
  }

  /** `{name = value, …}` (the opening brace is the next token). */
  private parseAttrDict(validate = true): NamedAttr[] {
    this.expectPunct('{', 'to open an attribute dictionary');
    const out: NamedAttr[] = [];
    if (this.lx.eatPunct('}')) return out;
    for (;;) {
      const k = this.lx.next();
      if (k.kind !== 'ident' && k.kind !== 'string') {
        this.fail(
          k,
          `expected an attribute name, found ${this.describe(k)}`,
          'attributes are written {name = value}',
        );
      }
      if (out.some((a) => a.name === k.text)) this.fail(k, `attribute '${k.text}' given twice`, 'remove one');
      let value: Attr = { kind: 'unit' };
      if (this.lx.eatPunct('=')) value = this.parseAttrValue(validate);
      out.push({ name: k.text, value });
      if (this.lx.eatPunct('}')) return out;
      this.expectPunct(',', 'between attributes', "separate attributes with ',' and close with '}'");
    }
  }

  // ---- module / func ---------------------------------------------------------------------

  parseModule(): Module {
    const t = this.lx.peek();
    if (t.kind === 'ident' && t.text === 'module') {
      this.lx.next();
      let name: string | undefined;
      if (this.lx.peek().kind === 'symbol') name = this.lx.next().text;
      let attrs: NamedAttr[] | undefined;
      if (this.isKeyword('attributes')) {
        this.lx.next();
        attrs = this.parseAttrDict(false);
      }
      this.expectPunct('{', 'to open the module body');
      const funcs: Func[] = [];
      while (!this.lx.isPunct('}')) {
        const n = this.lx.peek();
        if (n.kind === 'eof')
          this.fail(n, "missing '}' at the end of the module", "close the module with '}'");
        funcs.push(this.parseFunc());
      }
      this.lx.next();
      const e = this.lx.next();
      if (e.kind !== 'eof')
        this.fail(e, `unexpected ${this.describe(e)} after the module`, 'a file holds one module');
      return { wrapped: true, name, attrs, funcs };
    }
    const funcs: Func[] = [];
    while (this.lx.peek().kind !== 'eof') funcs.push(this.parseFunc());
    if (funcs.length === 0)
      this.fail(t, 'empty program', 'write module { func.func @name(...) { ... return } }');
    return { wrapped: false, name: undefined, attrs: undefined, funcs };
  }

  private parseFunc(): Func {
    const t = this.lx.next();
    if (t.kind !== 'ident' || t.text !== 'func.func') {
      const near = t.kind === 'ident' ? nearestName(t.text, ['func.func', 'module']) : undefined;
      this.fail(
        t,
        `expected 'func.func', found ${this.describe(t)}`,
        near ? `did you mean '${near}'?` : 'a module contains func.func @name(%arg: type, …) { … }',
      );
    }
    let visibility: string | undefined;
    const vis = this.lx.peek();
    if (vis.kind === 'ident' && (vis.text === 'private' || vis.text === 'public' || vis.text === 'nested')) {
      visibility = this.lx.next().text;
    }
    const n = this.lx.next();
    if (n.kind !== 'symbol') this.fail(n, `expected a function name (@name), found ${this.describe(n)}`);
    this.expectPunct('(', 'to open the argument list');
    const args: FuncArg[] = [];
    if (!this.lx.eatPunct(')')) {
      for (;;) {
        const use = this.expectValue('as a function argument');
        this.expectPunct(
          ':',
          `after argument %${use.name}`,
          'give each argument a type: %arg0: !pto.ptr<f32>',
        );
        args.push({ use, type: this.parseType() });
        if (this.lx.eatPunct(')')) break;
        this.expectPunct(',', 'between arguments', "separate arguments with ',' and close with ')'");
      }
    }
    let resultTypes: Type[] = [];
    let hasArrow = false;
    if (this.lx.eatPunct('->')) {
      hasArrow = true;
      resultTypes = this.parseTypeListMaybeParen();
    }
    let attrs: NamedAttr[] | undefined;
    if (this.isKeyword('attributes')) {
      this.lx.next();
      attrs = this.parseAttrDict(false);
    }
    this.expectPunct('{', 'to open the function body');
    const body = this.parseBlockBody();
    return { pos: this.pos(t), name: n.text, args, resultTypes, hasArrow, visibility, attrs, body };
  }

  /** `()`, `T`, or `(T, T)`. */
  private parseTypeListMaybeParen(): Type[] {
    if (this.lx.eatPunct('(')) {
      const out: Type[] = [];
      if (this.lx.eatPunct(')')) return out;
      for (;;) {
        out.push(this.parseType());
        if (this.lx.eatPunct(')')) return out;
        this.expectPunct(',', 'between types');
      }
    }
    return [this.parseType()];
  }

  /** Ops until the matching `}` (consumed). */
  private parseBlockBody(): Op[] {
    const ops: Op[] = [];
    const open = this.lx.peek();
    this.budget.depth(++this.depth, this.lx.loc(open));
    for (;;) {
      const t = this.lx.peek();
      if (t.kind === 'punct' && t.text === '}') {
        this.lx.next();
        this.depth--;
        return ops;
      }
      if (t.kind === 'eof') this.fail(t, "missing '}' to close a region", "close the block with '}'");
      ops.push(this.parseOp());
    }
  }

  // ---- ops --------------------------------------------------------------------------------

  private parseOp(): Op {
    const first = this.lx.peek();
    const results: Use[] = [];
    let resultPack: string | undefined;
    if (first.kind === 'value') {
      results.push(this.expectValue('as a result'));
      if (this.lx.isPunct(':')) {
        // `%r:2 = …` binds r#0 and r#1
        this.lx.next();
        const n = this.expectInt('as the result count', false);
        if (n.value < 1 || n.value > 64)
          this.fail(n.tok, `result count ${n.value} out of range`, 'write %r:N with 1 ≤ N ≤ 64');
        const base = results.pop()!;
        if (base.name.includes('#'))
          this.fail(first, `%${base.name} cannot name a result pack`, 'write %r:2 = …');
        resultPack = base.name;
        for (let i = 0; i < n.value; i++) results.push({ name: `${base.name}#${i}`, pos: base.pos });
      } else {
        while (this.lx.eatPunct(',')) results.push(this.expectValue('as a result'));
      }
      for (const r of results) {
        if (r.name.includes('#') && resultPack === undefined) {
          this.fail(first, `%${r.name} cannot be bound directly`, 'bind the pack as %r:N and use %r#i');
        }
      }
      this.expectPunct('=', 'after the result names', "results are bound with '%r = op …'");
    }
    const op = this.parseOpBody(first, results);
    if (resultPack !== undefined) op.resultPack = resultPack;
    return op;
  }

  private parseOpBody(first: Token, results: Use[]): Op {
    const nt = this.lx.next();
    if (nt.kind === 'string' && GENERIC_FORM_SEGMENTS[nt.text]) {
      return this.parseGenericForm(nt, this.pos(first.kind === 'value' ? first : nt), results);
    }
    if (nt.kind !== 'ident') {
      this.fail(nt, `expected an operation name, found ${this.describe(nt)}`, 'e.g. pto.tadd ins(…) outs(…)');
    }
    const pos = this.pos(first.kind === 'value' ? first : nt);
    const name = nt.text;
    const noResults = (what: string) => {
      if (results.length > 0) this.fail(first, `'${what}' has no results`, `remove '%${results[0]!.name} ='`);
    };
    const oneResult = (what: string) => {
      if (results.length !== 1) {
        this.fail(
          first.kind === 'value' ? first : nt,
          `'${what}' produces exactly one result`,
          `write '%r = ${what} …'`,
        );
      }
    };
    if (name === 'return' || name === 'func.return') {
      noResults(name);
      const values = this.valueList('in return');
      let types: Type[] = [];
      if (values.length > 0) {
        this.expectPunct(':', 'before the returned types');
        types = this.typeList(values.length, 'return');
      }
      return { kind: 'return', pos, results, spelling: name, values, types };
    }
    if (name === 'func.call' || name === 'call') return this.parseCall(name, pos, results);
    if (GENERIC_OPS.has(name)) return { kind: 'generic', pos, results, name, items: this.parseGeneric(nt) };
    if (name.startsWith('arith.')) return this.parseArith(name, nt, pos, results, oneResult);
    if (name === 'affine.apply') {
      oneResult(name);
      return this.parseAffineApply(pos, results);
    }
    if (name.startsWith('scf.')) return this.parseScf(name, nt, pos, results, noResults);
    if (name === 'memref.alloc') {
      oneResult(name);
      this.expectPunct('(', "after 'memref.alloc'");
      this.expectPunct(')', "after 'memref.alloc(' (dynamic sizes are not supported)");
      this.expectPunct(':', 'before the memref type');
      const ty = this.parseType();
      if (ty.kind !== 'memref') this.fail(nt, 'memref.alloc must produce a memref type', 'write : memref<…>');
      return { kind: 'memref.alloc', pos, results, type: ty };
    }
    if (name === 'memref.subview') {
      oneResult(name);
      const source = this.expectValue('as the subview source');
      const list = (what: string): IndexOperand[] => {
        this.expectPunct('[', `to open the subview ${what}`);
        const out: IndexOperand[] = [];
        if (this.lx.eatPunct(']')) return out;
        do {
          if (this.lx.peek().kind === 'value') out.push({ use: this.expectValue(`in the subview ${what}`) });
          else out.push({ value: this.expectInt(`in the subview ${what}`, false).value });
        } while (this.lx.eatPunct(','));
        this.expectPunct(']', `to close the subview ${what}`, `write [%a, 0] [16, 16] [1, 1]`);
        return out;
      };
      const offsets = list('offsets');
      const sizes = list('sizes');
      const strides = list('strides');
      this.expectPunct(':', 'before the source memref type');
      const sourceType = this.parseType();
      this.expectKeyword('to', 'between the subview source and result types');
      const type = this.parseType();
      return { kind: 'memref.subview', pos, results, source, offsets, sizes, strides, sourceType, type };
    }
    if (name.startsWith('pto.')) return this.parsePto(name.slice(4), nt, pos, results, oneResult, noResults);
    if (/^t[a-z_.]+$/.test(name) && OP_SIGS.has(name)) return this.parseAsmForm(name, nt, pos, results);
    const near = nearestName(name, [...knownPtoMnemonics(), ...OTHER_OPS, ...OP_SIGS.keys()]);
    return this.fail(
      nt,
      `unknown operation '${name}'`,
      near ? `did you mean '${near}'?` : 'PTO tile ops are spelled pto.<mnemonic> (e.g. pto.tadd)',
    );
  }

  /**
   * MLIR's generic op form of a DPS tile op: `"pto.tmov"(%src, %dst, %pre) <{operandSegmentSizes =
   * array<i32: 1, 1, 0, 1>, …}> : (T, U, i64) -> ()`. The segments (ODS operand order, PTOOps.td)
   * say which operand is the destination; the op becomes the DPS op it prints as.
   */
  private parseGenericForm(nt: Token, pos: Pos, results: Use[]): Op {
    const name = nt.text;
    const segNames = GENERIC_FORM_SEGMENTS[name]!;
    this.expectPunct('(', `after "${name}"`);
    const uses: Use[] = [];
    if (!this.lx.eatPunct(')')) {
      uses.push(...this.valueList(`in "${name}"(…)`));
      this.expectPunct(')', `to close the operands of "${name}"`);
    }
    let props: NamedAttr[] = [];
    if (this.lx.isPunct('<')) {
      this.lx.next();
      props = this.parseAttrDict();
      this.expectPunct('>', "to close the properties '<{…}>'");
    }
    const attrs = this.lx.isPunct('{') ? this.parseAttrDict() : [];
    this.expectPunct(':', 'before the function type of a generic op');
    this.expectPunct('(', 'to open the operand types');
    const types: Type[] = [];
    if (!this.lx.eatPunct(')')) {
      for (;;) {
        types.push(this.parseType());
        if (this.lx.eatPunct(')')) break;
        this.expectPunct(',', 'between operand types');
      }
    }
    this.expectPunct('->', 'before the result types');
    const resultTypes = this.parseTypeListMaybeParen();
    if (types.length !== uses.length)
      this.fail(
        nt,
        `"${name}": ${uses.length} operands but ${types.length} types`,
        'give one type per operand',
      );
    const seg = props.find((a) => a.name === 'operandSegmentSizes');
    const sizes =
      seg?.value.kind === 'raw'
        ? (seg.value.text.match(/-?\d+/g) ?? []).slice(1).map(Number)
        : segNames.map((_, i) => (i < uses.length ? 1 : 0));
    if (sizes.length !== segNames.length || sizes.reduce((a, b) => a + b, 0) !== uses.length) {
      this.fail(
        nt,
        `"${name}": operandSegmentSizes does not match its ${uses.length} operands`,
        `segments: ${segNames.join(', ')}`,
      );
    }
    const ins: { use: Use; type: Type }[] = [];
    const outs: { use: Use; type: Type }[] = [];
    let k = 0;
    sizes.forEach((n, i) => {
      for (let j = 0; j < n; j++, k++)
        (segNames[i] === 'dst' ? outs : ins).push({ use: uses[k]!, type: types[k]! });
    });
    const rest = [...props.filter((a) => a.name !== 'operandSegmentSizes'), ...attrs];
    return {
      kind: 'dps',
      pos,
      results,
      name,
      ins,
      insAttrs: undefined,
      outs,
      attrs: rest.length ? rest : undefined,
      resultTypes: resultTypes.filter(() => results.length > 0),
    };
  }

  /** `[%r =] func.call @f(%a, …) : (T, …) -> R | (R, …)`. */
  private parseCall(name: string, pos: Pos, results: Use[]): Op {
    const callee = this.lx.next();
    if (callee.kind !== 'symbol')
      this.fail(callee, `expected the callee (@name) after '${name}', found ${this.describe(callee)}`);
    this.expectPunct('(', 'to open the call arguments');
    const args: Use[] = [];
    if (!this.lx.eatPunct(')')) {
      args.push(...this.valueList('as a call argument'));
      this.expectPunct(')', 'to close the call arguments');
    }
    this.expectPunct(':', 'before the callee type', `write ${name} @${callee.text}(…) : (T, …) -> R`);
    this.expectPunct('(', 'to open the argument types');
    const argTypes: Type[] = [];
    if (!this.lx.eatPunct(')')) {
      for (;;) {
        argTypes.push(this.parseType());
        if (this.lx.eatPunct(')')) break;
        this.expectPunct(',', 'between argument types');
      }
    }
    if (argTypes.length !== args.length) {
      this.fail(
        callee,
        `${name} @${callee.text}: ${args.length} argument(s) but ${argTypes.length} type(s)`,
        'give one type per argument',
      );
    }
    this.expectPunct('->', 'before the result types', 'write -> () for a call without results');
    const resultTypes = this.parseTypeListMaybeParen();
    if (resultTypes.length !== results.length) {
      this.fail(
        callee,
        `${name} @${callee.text} returns ${resultTypes.length} value(s) but binds ${results.length}`,
        'bind one %result per result type',
      );
    }
    return {
      kind: 'func.call',
      pos,
      results,
      spelling: name as 'func.call' | 'call',
      callee: callee.text,
      args,
      argTypes,
      resultTypes,
    };
  }

  /**
   * The rest of an op in generic custom syntax: values, literals, `{attrs}`, `: types`,
   * `-> types` and bracketed groups, up to the end of the op (the op ends where a new line starts
   * with something that cannot continue it, at a `}` closing the region, or at the end of input).
   */
  private parseGeneric(nameTok: Token): GenericItem[] {
    let lastLine = nameTok.line;
    let last: Token = nameTok;
    const items: GenericItem[] = [];
    const CONT = new Set([':', '->', '{', '(', '[', ',', '=', '<']);
    for (;;) {
      const t = this.lx.peek();
      if (t.kind === 'eof' || (t.kind === 'punct' && (t.text === '}' || t.text === ')' || t.text === ']')))
        break;
      const lastCont = last.kind === 'punct' && [',', ':', '->', '='].includes(last.text);
      if (t.line > lastLine && !lastCont && !(t.kind === 'punct' && CONT.has(t.text))) {
        if (!(t.kind === 'ident' && ['to', 'ins', 'outs'].includes(t.text))) break;
      }
      items.push(this.genericItem(items));
      last = this.lastTok;
      lastLine = last.line;
    }
    return items;
  }

  private lastTok!: Token;

  private genericItem(prev: GenericItem[]): GenericItem {
    const t = this.lx.peek();
    const after = prev[prev.length - 1];
    const before = prev[prev.length - 2];
    const typePos =
      (after?.k === 'punct' && (after.text === ':' || after.text === '->')) ||
      (after?.k === 'punct' && after.text === ',' && before?.k === 'type') ||
      (after?.k === 'word' && after.text === 'to');
    const typeStart =
      t.kind === 'bang' ||
      (t.kind === 'ident' && (SCALAR_RE.test(t.text) || t.text === 'memref' || t.text === 'vector'));
    if (typePos && typeStart) {
      const ty = this.parseType();
      this.lastTok = this.lx.prevToken();
      // a type list continues after ','
      return { k: 'type', type: ty };
    }
    if (t.kind === 'value') {
      const use = this.expectValue('in the operation');
      this.lastTok = this.lx.prevToken();
      return { k: 'value', use };
    }
    if (t.kind === 'punct' && t.text === '{') {
      const attrs = this.parseAttrDict(false);
      this.lastTok = this.lx.prevToken();
      return { k: 'dict', attrs };
    }
    if (t.kind === 'punct' && t.text === '<' && typePos) {
      // an elided dialect type: `pto.addptr %p, %o : <f32> -> <f32>` (the !pto.ptr prefix elided)
      const raw = this.rawAngle();
      this.lastTok = this.lx.prevToken();
      const m = /^<\s*([A-Za-z0-9]+)\s*>$/.exec(raw);
      if (m && SCALAR_RE.test(m[1]!))
        return { k: 'type', type: { kind: 'ptr', elem: { kind: 'scalar', name: m[1]! } } };
      return { k: 'type', type: { kind: 'other', text: raw } };
    }
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) {
      const open = this.lx.next();
      const close = open.text === '(' ? ')' : ']';
      const items: GenericItem[] = [];
      this.budget.depth(++this.depth, this.lx.loc(open));
      for (;;) {
        const n = this.lx.peek();
        if (n.kind === 'punct' && n.text === close) {
          this.lastTok = this.lx.next();
          this.depth--;
          break;
        }
        if (n.kind === 'eof') this.fail(open, `unbalanced '${open.text}'`, `close it with '${close}'`);
        items.push(this.genericItem(items));
      }
      return { k: 'group', open: open.text as '(' | '[' | '<', items };
    }
    if (t.kind === 'punct' && t.text === '<') {
      // PTOAS's short enum spelling `<PIPE_V>` or a raw parameter list
      const a = this.parseSyncArg();
      this.lastTok = this.lx.prevToken();
      return { k: 'attr', attr: a };
    }
    if (t.kind === 'punct') {
      this.lastTok = this.lx.next();
      return { k: 'punct', text: t.text };
    }
    if (t.kind === 'ident' && !(t.text === 'true' || t.text === 'false' || t.text === 'dense')) {
      this.lastTok = this.lx.next();
      return { k: 'word', text: t.text };
    }
    const a = this.parseAttrValue(false);
    this.lastTok = this.lx.prevToken();
    return { k: 'attr', attr: a };
  }

  private parseAffineApply(pos: Pos, results: Use[]): Op {
    const kw = this.lx.next();
    if (kw.kind !== 'ident' || kw.text !== 'affine_map') {
      this.fail(
        kw,
        `expected 'affine_map<…>', found ${this.describe(kw)}`,
        'write affine.apply affine_map<(d0) -> (d0 * 32)>(%i)',
      );
    }
    this.expectPunct('<', "after 'affine_map'");
    const names = (open: string, close: string, prefix: string): number => {
      this.expectPunct(open, `to open the ${prefix === 'd' ? 'dimension' : 'symbol'} list`);
      let n = 0;
      if (this.lx.eatPunct(close)) return n;
      for (;;) {
        const t = this.lx.next();
        if (t.kind !== 'ident' || t.text !== `${prefix}${n}`) {
          this.fail(
            t,
            `expected ${prefix}${n}, found ${this.describe(t)}`,
            `name them ${prefix}0, ${prefix}1, … in order`,
          );
        }
        n++;
        if (n > 16) this.fail(t, 'too many affine identifiers', 'at most 16');
        if (this.lx.eatPunct(close)) return n;
        this.expectPunct(',', 'between affine identifiers');
      }
    };
    const dimCount = names('(', ')', 'd');
    const symCount = this.lx.isPunct('[') ? names('[', ']', 's') : 0;
    this.expectPunct('->', 'before the affine result');
    this.expectPunct('(', 'to open the affine result');
    const expr = this.affineExpr(dimCount, symCount, 0);
    this.expectPunct(')', 'to close the affine result', 'affine.apply takes a map with one result');
    this.expectPunct('>', 'to close affine_map<…>');
    this.expectPunct('(', 'to open the dimension operands');
    const dims = this.lx.isPunct(')') ? [] : this.valueList('as a dimension operand');
    this.expectPunct(')', 'to close the dimension operands');
    let syms: Use[] = [];
    if (this.lx.eatPunct('[')) {
      syms = this.lx.isPunct(']') ? [] : this.valueList('as a symbol operand');
      this.expectPunct(']', 'to close the symbol operands');
    }
    return { kind: 'affine.apply', pos, results, dimCount, symCount, expr, dims, syms };
  }

  /** Affine expression with the usual precedence: (+ -) < (* floordiv ceildiv mod) < unary. */
  private affineExpr(nd: number, ns: number, depth: number): AffineExpr {
    if (depth > 64)
      this.fail(this.lx.peek(), 'affine expression nested too deeply', 'simplify the expression');
    let lhs = this.affineTerm(nd, ns, depth);
    for (;;) {
      const t = this.lx.peek();
      if (t.kind === 'punct' && (t.text === '+' || t.text === '-')) {
        this.lx.next();
        lhs = { kind: 'bin', op: t.text, lhs, rhs: this.affineTerm(nd, ns, depth) };
      } else if (t.kind === 'int' && t.text.startsWith('-')) {
        // `x -3`: the lexer reads a negative literal; it is a subtraction here
        this.lx.next();
        lhs = { kind: 'bin', op: '-', lhs, rhs: { kind: 'const', value: Number(t.text.slice(1)) } };
      } else return lhs;
    }
  }

  private affineTerm(nd: number, ns: number, depth: number): AffineExpr {
    let lhs = this.affineFactor(nd, ns, depth);
    for (;;) {
      const t = this.lx.peek();
      const op =
        t.kind === 'punct' && t.text === '*'
          ? '*'
          : t.kind === 'ident' && (t.text === 'floordiv' || t.text === 'ceildiv' || t.text === 'mod')
            ? t.text
            : undefined;
      if (!op) return lhs;
      this.lx.next();
      lhs = { kind: 'bin', op, lhs, rhs: this.affineFactor(nd, ns, depth) };
    }
  }

  private affineFactor(nd: number, ns: number, depth: number): AffineExpr {
    const t = this.lx.next();
    if (t.kind === 'int') {
      const v = Number(t.text);
      if (!Number.isSafeInteger(v)) this.fail(t, `affine constant ${t.text} out of range`);
      return { kind: 'const', value: v };
    }
    if (t.kind === 'punct' && t.text === '-')
      return { kind: 'neg', arg: this.affineFactor(nd, ns, depth + 1) };
    if (t.kind === 'punct' && t.text === '(') {
      const e = this.affineExpr(nd, ns, depth + 1);
      this.expectPunct(')', 'to close the parenthesis');
      return e;
    }
    if (t.kind === 'ident') {
      const m = /^([ds])(\d+)$/.exec(t.text);
      if (m) {
        const i = Number(m[2]);
        const max = m[1] === 'd' ? nd : ns;
        if (i >= max)
          this.fail(
            t,
            `${t.text} is not declared in the affine map`,
            `declare it in the ${m[1] === 'd' ? '(d…)' : '[s…]'} list`,
          );
        return { kind: m[1] === 'd' ? 'dim' : 'sym', index: i };
      }
    }
    return this.fail(
      t,
      `expected an affine term, found ${this.describe(t)}`,
      'terms are integers, d0…, s0… or (…)',
    );
  }

  private typeList(n: number, what: string): Type[] {
    const out: Type[] = [this.parseType()];
    while (out.length < n) {
      const c = this.lx.peek();
      if (!(c.kind === 'punct' && c.text === ',')) {
        this.fail(c, `${what}: ${n} operands but ${out.length} type(s)`, 'give one type per operand');
      }
      this.lx.next();
      out.push(this.parseType());
    }
    return out;
  }

  private parseArith(name: string, nt: Token, pos: Pos, results: Use[], oneResult: (w: string) => void): Op {
    const short = name.slice(6);
    oneResult(name);
    if (short === 'constant') {
      const v = this.lx.peek();
      let value: Attr;
      if (v.kind === 'int') value = { kind: 'int', value: intValue(this.lx.next().text) };
      else if (v.kind === 'float') value = { kind: 'float', text: this.lx.next().text };
      else if (v.kind === 'ident' && (v.text === 'true' || v.text === 'false')) {
        this.lx.next();
        value = { kind: 'bool', value: v.text === 'true' };
      } else if (v.kind === 'ident' && v.text === 'dense' && this.lx.peekIsAngle()) {
        // a vector constant `dense<[1, 2, 3, 4]> : vector<4xi16>` (kept as written)
        this.lx.next();
        value = { kind: 'raw', text: `dense${this.rawAngle()}` };
      } else
        this.fail(
          v,
          `expected a constant value, found ${this.describe(v)}`,
          'e.g. arith.constant 16 : index',
        );
      let type: Type;
      if (value.kind === 'bool' && !this.lx.isPunct(':')) type = { kind: 'scalar', name: 'i1' };
      else {
        this.expectPunct(':', 'before the constant type', 'write arith.constant 16 : index');
        type = this.parseType();
      }
      if (value.kind === 'raw' && type.kind !== 'vector')
        this.fail(v, 'a dense constant needs a vector type', 'e.g. : vector<4xi16>');
      if (value.kind === 'raw') return { kind: 'arith.constant', pos, results, value, type };
      if (type.kind !== 'scalar')
        this.fail(v, 'arith.constant here needs a scalar type', 'e.g. : index, : i32, : f32');
      if (value.kind === 'float' && !/^(f|bf|tf)/.test(type.name)) {
        this.fail(
          v,
          `float literal ${v.text} with integer type ${type.name}`,
          'write an integer literal or a float type',
        );
      }
      return { kind: 'arith.constant', pos, results, value, type };
    }
    if (short === 'cmpi' || short === 'cmpf') {
      const p = this.lx.next();
      const allowed: readonly string[] = short === 'cmpi' ? CMPI_PREDICATES : CMPF_PREDICATES;
      const word = p.kind === 'ident' || p.kind === 'string' ? p.text : '';
      if (!allowed.includes(word)) {
        const near = nearestName(word, allowed);
        this.fail(
          p,
          `unknown ${name} predicate ${this.describe(p)}`,
          `${near ? `did you mean '${near}'? ` : ''}one of ${allowed.join(' ')}`,
        );
      }
      this.expectPunct(',', 'after the predicate');
      const lhs = this.expectValue(`in ${name}`);
      this.expectPunct(',', 'between operands');
      const rhs = this.expectValue(`in ${name}`);
      this.expectPunct(':', 'before the operand type');
      return {
        kind: 'arith.cmp',
        name: name as 'arith.cmpi',
        pos,
        results,
        predicate: word,
        lhs,
        rhs,
        type: this.parseType(),
      };
    }
    if (short === 'select') {
      const cond = this.expectValue('as the select condition');
      this.expectPunct(',', 'after the condition');
      const a = this.expectValue('in arith.select');
      this.expectPunct(',', 'between operands');
      const b = this.expectValue('in arith.select');
      this.expectPunct(':', 'before the type');
      return { kind: 'arith.select', pos, results, cond, a, b, type: this.parseType() };
    }
    if ((ARITH_CASTS as readonly string[]).includes(short)) {
      const operand = this.expectValue(`in ${name}`);
      this.expectPunct(':', 'before the source type');
      const from = this.parseType();
      this.expectKeyword('to', 'between the source and result types', `write ${name} %x : i32 to index`);
      return { kind: 'arith.cast', name, pos, results, operand, from, to: this.parseType() };
    }
    if ((ARITH_BINARY as readonly string[]).includes(short)) {
      const lhs = this.expectValue(`in ${name}`);
      this.expectPunct(',', 'between operands');
      const rhs = this.expectValue(`in ${name}`);
      this.expectPunct(':', 'before the type');
      return { kind: 'arith.binary', name, pos, results, lhs, rhs, type: this.parseType() };
    }
    const near = nearestName(
      name,
      OTHER_OPS.filter((o) => o.startsWith('arith.')),
    );
    return this.fail(nt, `unsupported arith op '${name}'`, near ? `did you mean '${near}'?` : undefined);
  }

  private parseScf(name: string, nt: Token, pos: Pos, results: Use[], noResults: (w: string) => void): Op {
    if (name === 'scf.for') {
      const iv = this.expectValue('as the loop variable');
      this.expectPunct('=', 'after the loop variable', 'write scf.for %i = %lb to %ub step %s { … }');
      const lb = this.expectValue('as the lower bound');
      this.expectKeyword('to', 'after the lower bound');
      const ub = this.expectValue('as the upper bound');
      this.expectKeyword('step', 'after the upper bound');
      const step = this.expectValue('as the step');
      const iterArgs: { arg: Use; init: Use }[] = [];
      let iterTypes: Type[] = [];
      if (this.isKeyword('iter_args')) {
        this.lx.next();
        this.expectPunct('(', "after 'iter_args'");
        for (;;) {
          const arg = this.expectValue('as an iteration argument');
          this.expectPunct('=', 'after the iteration argument');
          iterArgs.push({ arg, init: this.expectValue('as its initial value') });
          if (this.lx.eatPunct(')')) break;
          this.expectPunct(',', 'between iteration arguments');
        }
        this.expectPunct('->', 'before the loop result types');
        iterTypes = this.parseTypeListMaybeParen();
        if (iterTypes.length !== iterArgs.length) {
          this.fail(
            nt,
            `scf.for has ${iterArgs.length} iter_args but ${iterTypes.length} result types`,
            'give one type per iteration argument',
          );
        }
      }
      if (results.length !== iterArgs.length) {
        this.fail(
          nt,
          `scf.for returns ${iterArgs.length} value(s) but ${results.length} result name(s) are bound`,
          'bind one result per iter_arg',
        );
      }
      this.expectPunct('{', 'to open the loop body');
      const body = this.parseBlockBody();
      return { kind: 'scf.for', pos, results, iv, lb, ub, step, iterArgs, iterTypes, body };
    }
    if (name === 'scf.if') {
      const cond = this.expectValue('as the condition');
      let resultTypes: Type[] = [];
      if (this.lx.eatPunct('->')) resultTypes = this.parseTypeListMaybeParen();
      if (results.length !== resultTypes.length) {
        this.fail(
          nt,
          `scf.if returns ${resultTypes.length} value(s) but ${results.length} result name(s) are bound`,
          'match the -> (types) with the bound names',
        );
      }
      this.expectPunct('{', 'to open the then-region');
      const thenOps = this.parseBlockBody();
      let elseOps: Op[] | undefined;
      if (this.isKeyword('else')) {
        this.lx.next();
        this.expectPunct('{', 'to open the else-region');
        elseOps = this.parseBlockBody();
      }
      return { kind: 'scf.if', pos, results, cond, resultTypes, thenOps, elseOps };
    }
    if (name === 'scf.while') {
      this.expectPunct('(', "after 'scf.while'", 'write scf.while (%i = %init) : (T) -> (T) { … } do { … }');
      const inits: { arg: Use; init: Use }[] = [];
      if (!this.lx.eatPunct(')')) {
        for (;;) {
          const arg = this.expectValue('as a loop-carried value');
          this.expectPunct('=', 'after the loop-carried value');
          inits.push({ arg, init: this.expectValue('as its initial value') });
          if (this.lx.eatPunct(')')) break;
          this.expectPunct(',', 'between loop-carried values');
        }
      }
      this.expectPunct(':', 'before the scf.while types', 'write : (T, …) -> (T, …)');
      const argTypes = this.parseTypeListMaybeParen();
      this.expectPunct('->', 'before the result types');
      const resultTypes = this.parseTypeListMaybeParen();
      if (argTypes.length !== inits.length) {
        this.fail(
          nt,
          `scf.while has ${inits.length} loop-carried value(s) but ${argTypes.length} type(s)`,
          'give one type per value',
        );
      }
      if (results.length !== resultTypes.length) {
        this.fail(
          nt,
          `scf.while returns ${resultTypes.length} value(s) but ${results.length} result name(s) are bound`,
          'bind one result per type',
        );
      }
      this.expectPunct('{', 'to open the condition region');
      const before = this.parseBlockBody();
      this.expectKeyword('do', 'after the condition region', 'write } do { … }');
      this.expectPunct('{', "to open the 'do' region");
      let afterLabel: string | undefined;
      const afterArgs: FuncArg[] = [];
      if (this.lx.isPunct('^')) {
        this.lx.next();
        const l = this.lx.next();
        if (l.kind !== 'ident') this.fail(l, `expected a block label after '^', found ${this.describe(l)}`);
        afterLabel = l.text;
        if (this.lx.eatPunct('(')) {
          if (!this.lx.eatPunct(')')) {
            for (;;) {
              const use = this.expectValue('as a block argument');
              this.expectPunct(':', `after block argument %${use.name}`);
              afterArgs.push({ use, type: this.parseType() });
              if (this.lx.eatPunct(')')) break;
              this.expectPunct(',', 'between block arguments');
            }
          }
        }
        this.expectPunct(':', 'after the block label');
      }
      const after = this.parseBlockBody();
      return {
        kind: 'scf.while',
        pos,
        results,
        inits,
        argTypes,
        resultTypes,
        before,
        afterLabel,
        afterArgs,
        after,
      };
    }
    if (name === 'scf.condition') {
      noResults(name);
      this.expectPunct('(', "after 'scf.condition'");
      const cond = this.expectValue('as the condition');
      this.expectPunct(')', 'after the condition');
      const values = this.valueList('in scf.condition');
      let types: Type[] = [];
      if (values.length > 0) {
        this.expectPunct(':', 'before the forwarded types');
        types = this.typeList(values.length, 'scf.condition');
      }
      return { kind: 'scf.condition', pos, results, cond, values, types };
    }
    if (name === 'scf.yield') {
      noResults(name);
      const values = this.valueList('in scf.yield');
      let types: Type[] = [];
      if (values.length > 0) {
        this.expectPunct(':', 'before the yielded types');
        types = this.typeList(values.length, 'scf.yield');
      }
      return { kind: 'scf.yield', pos, results, values, types };
    }
    const near = nearestName(name, ['scf.for', 'scf.if', 'scf.yield']);
    return this.fail(
      nt,
      `unsupported scf op '${name}'`,
      near ? `did you mean '${near}'?` : 'supported: scf.for, scf.if, scf.yield',
    );
  }

  private bracketUses(open: string, close: string, what: string): Use[] {
    this.expectPunct(open, `to open ${what}`);
    if (this.lx.eatPunct(close)) return [];
    const out = this.valueList(`in ${what}`);
    this.expectPunct(close, `to close ${what}`, `write ${what} = [%a, %b]`);
    return out;
  }

  private parsePto(
    m: string,
    nt: Token,
    pos: Pos,
    results: Use[],
    oneResult: (w: string) => void,
    noResults: (w: string) => void,
  ): Op {
    const name = `pto.${m}`;
    switch (m) {
      case 'make_tensor_view': {
        oneResult(name);
        const ptr = this.expectValue('as the base pointer');
        this.expectPunct(',', 'after the pointer');
        this.expectKeyword('shape', 'in make_tensor_view');
        this.expectPunct('=', "after 'shape'");
        const shape = this.bracketUses('[', ']', 'shape');
        const c = this.lx.peek();
        const legacy = this.legacy && c.kind === 'ident' && c.text === 'strides';
        if (!legacy && !(c.kind === 'punct' && c.text === ',')) {
          this.fail(
            c,
            `expected ',' before 'strides', found ${this.describe(c)}`,
            'PTOAS requires a comma: shape = […], strides = […] (older samples without it: --legacy)',
          );
        }
        // (the comma-less spelling of older PTOAS samples is accepted with `legacy`)
        if (!legacy) this.lx.next();
        this.expectKeyword('strides', 'in make_tensor_view');
        this.expectPunct('=', "after 'strides'");
        const strides = this.bracketUses('[', ']', 'strides');
        const attrs = this.lx.isPunct('{') ? this.parseAttrDict() : undefined;
        this.expectPunct(':', 'before the result type');
        const tt = this.lx.peek();
        const type = this.parseType();
        if (type.kind !== 'tensor_view') {
          this.fail(
            tt,
            'make_tensor_view must produce a !pto.tensor_view',
            'write : !pto.tensor_view<?x?xf32>',
          );
        }
        return { kind: 'pto.make_tensor_view', pos, results, ptr, shape, strides, attrs, type };
      }
      case 'partition_view': {
        oneResult(name);
        const source = this.expectValue('as the source view');
        this.expectPunct(',', 'after the source view');
        this.expectKeyword('offsets', 'in partition_view');
        this.expectPunct('=', "after 'offsets'");
        const offsets = this.bracketUses('[', ']', 'offsets');
        this.expectPunct(',', "before 'sizes'");
        this.expectKeyword('sizes', 'in partition_view');
        this.expectPunct('=', "after 'sizes'");
        const sizes = this.bracketUses('[', ']', 'sizes');
        this.expectPunct(':', 'before the source type');
        const sourceType = this.parseType();
        this.expectPunct('->', 'before the result type');
        const rt = this.lx.peek();
        const type = this.parseType();
        if (type.kind !== 'partition_tensor_view') {
          this.fail(
            rt,
            'partition_view must produce a !pto.partition_tensor_view',
            'write -> !pto.partition_tensor_view<16x16xf32>',
          );
        }
        return { kind: 'pto.partition_view', pos, results, source, offsets, sizes, sourceType, type };
      }
      case 'alloc_tile': {
        oneResult(name);
        let addr: Use | undefined;
        let validRow: Use | undefined;
        let validCol: Use | undefined;
        const order = ['addr', 'valid_row', 'valid_col'];
        let at = 0;
        while (this.lx.peek().kind === 'ident') {
          const k = this.lx.next();
          const idx = order.indexOf(k.text);
          if (idx < at) {
            this.fail(
              k,
              `unexpected '${k.text}' in alloc_tile`,
              'optional operands come in the order addr = %a valid_row = %r valid_col = %c',
            );
          }
          at = idx + 1;
          this.expectPunct('=', `after '${k.text}'`);
          const v = this.expectValue(`for ${k.text}`);
          if (k.text === 'addr') addr = v;
          else if (k.text === 'valid_row') validRow = v;
          else validCol = v;
        }
        this.expectPunct(':', 'before the tile type', 'write pto.alloc_tile : !pto.tile_buf<…>');
        const tt = this.lx.peek();
        const type = this.parseType();
        if (type.kind !== 'tile_buf')
          this.fail(tt, 'alloc_tile must produce a !pto.tile_buf', 'write : !pto.tile_buf<loc=vec, …>');
        return { kind: 'pto.alloc_tile', pos, results, addr, validRow, validCol, type };
      }
      case 'subset': {
        oneResult(name);
        const source = this.expectValue('as the subset source');
        const offsets = this.bracketUses('[', ']', 'subset offsets');
        this.expectKeyword('sizes', 'in pto.subset');
        this.expectPunct('[', "after 'sizes'");
        const sizes: number[] = [this.expectInt('as a subset size', false).value];
        while (this.lx.eatPunct(',')) sizes.push(this.expectInt('as a subset size', false).value);
        this.expectPunct(']', 'to close sizes');
        this.expectPunct(':', 'before the type');
        return { kind: 'pto.subset', pos, results, source, offsets, sizes, type: this.parseType() };
      }
      case 'get_block_idx':
      case 'get_subblock_idx':
      case 'get_block_num':
      case 'get_subblock_num': {
        oneResult(name);
        const attrs = this.lx.isPunct('{') ? this.parseAttrDict() : undefined;
        return { kind: 'pto.query', pos, results, name: name as 'pto.get_block_idx', attrs };
      }
      case 'treshape': {
        oneResult(name);
        const source = this.expectValue('as the tile to reshape');
        this.expectPunct(':', 'before the source type', 'write %r = pto.treshape %t : T -> U');
        const sourceType = this.parseType();
        this.expectPunct('->', 'before the result type');
        return { kind: 'pto.treshape', pos, results, source, sourceType, type: this.parseType() };
      }
      case 'record_event':
      case 'wait_event':
      case 'set_flag':
      case 'wait_flag':
      case 'get_buf':
      case 'rls_buf': {
        noResults(name);
        this.expectPunct('[', `after '${name}'`, `write ${name} [#pto.pipe_event_type<…>, …]`);
        const args: Attr[] = [];
        if (!this.lx.eatPunct(']')) {
          for (;;) {
            args.push(this.parseSyncArg());
            if (this.lx.eatPunct(']')) break;
            this.expectPunct(',', `between ${name} arguments`);
          }
        }
        this.checkSyncArgs(nt, m, args);
        return { kind: 'sync', pos, results, name, args, angle: false };
      }
      case 'sync.set':
      case 'sync.wait': {
        noResults(name);
        this.expectPunct('<', `after '${name}'`, `write ${name} <PIPE_V>, 0`);
        const p = this.lx.next();
        if (p.kind !== 'ident' || !(PIPES as readonly string[]).includes(p.text)) {
          this.fail(p, `unknown pipe ${this.describe(p)}`, `pipes: ${PIPES.join(' ')}`);
        }
        this.expectPunct('>', 'to close the pipe');
        this.expectPunct(',', 'before the event id', `write ${name} <${p.text}>, 0`);
        const id = this.expectInt('as the event id', false);
        return {
          kind: 'sync',
          pos,
          results,
          name,
          args: [
            { kind: 'word', value: p.text },
            { kind: 'int', value: BigInt(id.value) },
          ],
          angle: true,
        };
      }
      case 'barrier': {
        noResults(name);
        this.expectPunct('<', "after 'pto.barrier'", 'write pto.barrier <PIPE_V>');
        const p = this.lx.next();
        if (p.kind !== 'ident' || !(PIPES as readonly string[]).includes(p.text)) {
          const near = p.kind === 'ident' ? nearestName(p.text, PIPES) : undefined;
          this.fail(
            p,
            `unknown pipe ${this.describe(p)}`,
            `${near ? `did you mean '${near}'? ` : ''}pipes: ${PIPES.join(' ')}`,
          );
        }
        this.expectPunct('>', 'to close the pipe');
        return { kind: 'sync', pos, results, name, args: [{ kind: 'word', value: p.text }], angle: true };
      }
      case 'section.vector':
      case 'section.cube': {
        noResults(name);
        this.expectPunct('{', `to open the ${name} region`);
        return { kind: 'section', pos, results, name, body: this.parseBlockBody() };
      }
    }
    const sig = OP_SIGS.get(m);
    if (!sig) {
      const near = nearestName(name, knownPtoMnemonics());
      this.fail(
        nt,
        `unknown PTO operation '${name}'`,
        near ? `did you mean '${near}'?` : 'see docs/pto-as.md for the registered mnemonics',
      );
    }
    if (this.isKeyword('ins')) return this.parseDps(name, nt, pos, results, sig.hasResult ?? false);
    if (results.length > 0) return this.parseSsa(name, pos, results);
    if (this.lx.peek().kind === 'value') return this.parseAsmForm(m, nt, pos, results, true);
    return this.fail(
      this.lx.peek(),
      `expected 'ins(' after '${name}', found ${this.describe(this.lx.peek())}`,
      `write ${name} ins(%src… : types) outs(%dst : type), or the SSA form %r = ${name} %a, … : (…) -> …`,
    );
  }

  /** A sync-op argument: an attribute, or PTOAS's short enum spelling `<TLOAD>` / `<PIPE_V>`. */
  private parseSyncArg(): Attr {
    const t = this.lx.peek();
    if (t.kind === 'punct' && t.text === '<') {
      this.lx.next();
      const w = this.lx.next();
      if (w.kind !== 'ident') this.fail(w, `expected an enum value inside <…>, found ${this.describe(w)}`);
      this.expectPunct('>', `to close <${w.text}`);
      return { kind: 'enum', ns: '', words: [w.text] };
    }
    return this.parseAttrValue();
  }

  private checkSyncArgs(nt: Token, m: string, args: Attr[]): void {
    const word = (a: Attr | undefined, ns: string) =>
      a?.kind === 'enum' && (a.ns === ns || a.ns === '') && a.words.length === 1 ? a.words[0]! : undefined;
    const isEvt = (a: Attr | undefined) =>
      (PIPE_EVENT_TYPES as readonly string[]).includes(
        word(a, 'pto.pipe_event_type') ?? word(a, 'pto.sync_op_type') ?? '',
      );
    const isId = (a: Attr | undefined) => /^EVENT_ID[0-7]$/.test(word(a, 'pto.event') ?? '');
    const isPipe = (a: Attr | undefined) => (PIPES as readonly string[]).includes(word(a, 'pto.pipe') ?? '');
    if (m === 'set_flag' || m === 'wait_flag') {
      if (!(args.length === 3 && isPipe(args[0]) && isPipe(args[1]) && isId(args[2]))) {
        this.fail(
          nt,
          `pto.${m} takes [source pipe, destination pipe, event id]`,
          `write pto.${m}[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]`,
        );
      }
      return;
    }
    if (m === 'record_event' || m === 'wait_event') {
      const ok = args.length === 3 && isEvt(args[0]) && isEvt(args[1]) && isId(args[2]);
      if (!ok) {
        this.fail(
          nt,
          `pto.${m} takes [source event type, destination event type, event id]`,
          `write pto.${m} [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID0>]`,
        );
      }
    } else {
      const ok =
        (args.length === 2 || args.length === 3) &&
        isEvt(args[0]) &&
        args.slice(1).every((a) => a.kind === 'int');
      if (!ok) {
        this.fail(
          nt,
          `pto.${m} takes [event type, buffer id[, mode]]`,
          `write pto.${m}[#pto.pipe_event_type<TLOAD>, 0]`,
        );
      }
    }
  }

  private parseDps(name: string, nt: Token, pos: Pos, results: Use[], hasResult: boolean): Op {
    this.lx.next(); // ins
    this.expectPunct('(', "after 'ins'");
    const insUses: Use[] = [];
    let insAttrs: NamedAttr[] | undefined;
    let types: Type[] = [];
    if (!this.lx.eatPunct(')')) {
      if (this.lx.peek().kind === 'value') {
        insUses.push(this.expectValue(`in ${name} ins`));
        while (this.lx.eatPunct(',')) {
          // PTOAS TGatherOp's mask form: ins(%src, {maskPattern = #pto.mask_pattern<P0101>} : T)
          if (this.lx.isPunct('{')) {
            insAttrs = this.parseAttrDict();
            break;
          }
          insUses.push(this.expectValue(`in ${name} ins`));
        }
      }
      if (insUses.length === 0)
        this.fail(
          this.lx.peek(),
          `expected an operand in ${name} ins(…), found ${this.describe(this.lx.peek())}`,
        );
      if (!insAttrs && this.lx.isPunct('{')) insAttrs = this.parseAttrDict();
      this.expectPunct(':', 'before the ins types', `write ins(%a, %b : T, T)`);
      types = this.typeList(insUses.length, `${name} ins`);
      while (this.lx.isPunct(',')) {
        // PTOAS's optional operands keep their own type: ins(%src : T, %preQuant : i64)
        const c = this.lx.next();
        if (this.lx.peek().kind !== 'value') {
          this.fail(
            c,
            `${name} ins: ${insUses.length} operands but more types`,
            'give exactly one type per operand',
          );
        }
        insUses.push(this.expectValue(`in ${name} ins`));
        this.expectPunct(':', `after an optional operand of ${name}`, 'write ins(%src : T, %x : i64)');
        types.push(this.parseType());
      }
      this.expectPunct(')', 'to close ins(…)');
    }
    const o = this.lx.peek();
    if ((OP_SIGS.get(name.slice(4))?.outs?.[0] ?? 1) === 0 && !(o.kind === 'ident' && o.text === 'outs')) {
      // ops without a destination (pto.tprint, pto.tsync)
      const attrs = this.lx.isPunct('{') ? this.parseAttrDict() : undefined;
      return {
        kind: 'dps',
        pos,
        results,
        name,
        ins: insUses.map((use, i) => ({ use, type: types[i]! })),
        insAttrs,
        outs: [],
        attrs,
        resultTypes: [],
      };
    }
    if (!(o.kind === 'ident' && o.text === 'outs')) {
      if (o.kind === 'punct' && o.text === '{') {
        this.fail(
          o,
          `${name}: attributes must sit inside ins(…) before ':'`,
          'write ins(%a, %b {cmpMode = #pto<cmp lt>} : T0, T1)',
        );
      }
      this.fail(
        o,
        `expected 'outs(' after ins(…) of ${name}, found ${this.describe(o)}`,
        'DPS ops need outs(%dst : type)',
      );
    }
    this.lx.next();
    this.expectPunct('(', "after 'outs'");
    const outUses = this.valueList(`in ${name} outs`);
    if (outUses.length === 0)
      this.fail(this.lx.peek(), `expected the destination in ${name} outs(…)`, 'write outs(%dst : type)');
    this.expectPunct(':', 'before the outs type');
    const outTypes = this.typeList(outUses.length, `${name} outs`);
    this.expectPunct(')', 'to close outs(…)');
    let attrs: NamedAttr[] | undefined;
    if (this.lx.isPunct('{')) attrs = this.parseAttrDict();
    const resultTypes: Type[] = [];
    if (this.lx.isPunct('->')) {
      const arrow = this.lx.next();
      if (!hasResult) this.fail(arrow, `${name} has no results`, "remove '-> type'");
      resultTypes.push(...this.parseTypeListMaybeParen());
    }
    if (results.length !== resultTypes.length) {
      this.fail(
        nt,
        `${name} binds ${results.length} result(s) but declares ${resultTypes.length} result type(s)`,
        'DPS ops write into outs(…); drop the result binding or add -> type',
      );
    }
    return {
      kind: 'dps',
      pos,
      results,
      name,
      ins: insUses.map((use, i) => ({ use, type: types[i]! })),
      insAttrs,
      outs: outUses.map((use, i) => ({ use, type: outTypes[i]! })),
      attrs,
      resultTypes,
    };
  }

  private parseOperand(context: string): Operand {
    const t = this.lx.peek();
    if (t.kind === 'value') return { kind: 'value', use: this.expectValue(context) };
    if (t.kind === 'int' || t.kind === 'float') {
      this.lx.next();
      return {
        kind: 'imm',
        value: t.kind === 'int' ? { kind: 'int', value: intValue(t.text) } : { kind: 'float', text: t.text },
        pos: this.pos(t),
      };
    }
    return this.fail(
      t,
      `expected an operand ${context}, found ${this.describe(t)}`,
      'operands are %values or numeric immediates',
    );
  }

  private parseSsa(name: string, pos: Pos, results: Use[]): Op {
    const operands: Operand[] = [this.parseOperand(`of ${name}`)];
    while (this.lx.eatPunct(',')) operands.push(this.parseOperand(`of ${name}`));
    let attrs: NamedAttr[] | undefined;
    if (this.lx.isPunct('{')) attrs = this.parseAttrDict();
    this.expectPunct(':', 'before the operand types', `write %r = ${name} %a, %b : (T, T) -> T`);
    this.expectPunct('(', 'to open the operand type list', `Level-1 types are written (T, T) -> T`);
    const operandTypes: Type[] = [];
    if (!this.lx.eatPunct(')')) {
      for (;;) {
        operandTypes.push(this.parseType());
        if (this.lx.eatPunct(')')) break;
        this.expectPunct(',', 'between operand types');
      }
    }
    if (operandTypes.length !== operands.length) {
      this.fail(
        this.lx.peek(),
        `${name}: ${operands.length} operands but ${operandTypes.length} types`,
        'give one type per operand',
      );
    }
    this.expectPunct('->', 'before the result type');
    const resultType = this.parseType();
    if (results.length !== 1)
      this.fail(this.lx.peek(), `${name} in SSA form produces one result`, 'bind exactly one %result');
    return { kind: 'ssa', pos, results, name, operands, attrs, operandTypes, resultType };
  }

  private parseAsmHashAttrs(into: NamedAttr[]): void {
    // attributes after '#': `#cmp=gt` — the lexer reads `#cmp` as a hash token
    while (this.lx.peek().kind === 'hash') {
      const h = this.lx.next();
      if (this.lx.isPunct('<'))
        this.fail(h, `unexpected attribute '#${h.text}<…>' in assembly form`, 'write #name=value');
      this.expectPunct('=', `after '#${h.text}'`, `write #${h.text}=value`);
      const v = this.lx.next();
      if (v.kind !== 'ident' && v.kind !== 'int' && v.kind !== 'string' && v.kind !== 'float') {
        this.fail(v, `expected a value for #${h.text}, found ${this.describe(v)}`);
      }
      if (into.some((a) => a.name === h.text))
        this.fail(h, `attribute '#${h.text}' given twice`, 'remove one');
      into.push({
        name: h.text,
        value:
          v.kind === 'int'
            ? { kind: 'int', value: intValue(v.text) }
            : v.kind === 'float'
              ? { kind: 'float', text: v.text }
              : v.kind === 'string'
                ? { kind: 'string', value: v.text }
                : { kind: 'word', value: v.text },
      });
    }
  }

  private parseAsmForm(mnemonic: string, nt: Token, pos: Pos, results: Use[], prefixed = false): Op {
    const operands: Operand[] = [this.parseOperand(`of ${mnemonic}`)];
    while (this.lx.eatPunct(',')) operands.push(this.parseOperand(`of ${mnemonic}`));
    const hashAttrs: NamedAttr[] = [];
    this.parseAsmHashAttrs(hashAttrs);
    let type: Type | undefined;
    if (hashAttrs.length === 0 || this.lx.isPunct(':')) {
      this.expectPunct(
        ':',
        'before the tile type',
        `write ${mnemonic} %dst, %src0, %src1 : !pto.tile<16x16xf32>`,
      );
      type = this.parseType();
      this.parseAsmHashAttrs(hashAttrs);
    }
    if (results.length > 1) this.fail(nt, `${mnemonic} binds one result at most`, 'bind one %dst');
    return { kind: 'asm', pos, results, mnemonic, prefixed, operands, type, hashAttrs };
  }
}

/** Parses PTO-AS text into a module. Throws BadInput with line:col on the first error. */
export function parsePtoAs(src: string, opts: ParseOptions = {}): Module {
  return new Parser(src, opts).parseModule();
}

/** Parses one type (e.g. for tests and the CLI). */
export function parseType(src: string, opts: ParseOptions = {}): Type {
  const p = new Parser(src, opts);
  return p.parseType();
}

export { CUSTOM_PTO_OPS };
