/**
 * The instruction registry and the one entry point that runs an instruction by name:
 * binds operands, checks the profile's support tables, converts the scalar, applies the profile's
 * valid-region rule for source reads, and calls the family's execute function.
 */
import { AxsimError, badInput, internalError, nearestName, unsupported } from '../errors.ts';
import { anyArith, PROFILES, type Profile } from './arith.ts';
import { DTYPE_INFO, type DType, isDType } from './dtype.ts';
import { ARGREDUCE_OPS } from './insns/argreduce.ts';
import { BINARY_OPS } from './insns/binary.ts';
import { BITWISE_OPS } from './insns/bitwise.ts';
import { COMPARE_OPS } from './insns/compare.ts';
import { CONVERT_OPS } from './insns/convert.ts';
import { EXPAND_OPS } from './insns/expand.ts';
import { EXTRACT_OPS } from './insns/extract.ts';
import { FILLPAD_OPS } from './insns/fillpad.ts';
import { FIXPIPE_OPS } from './insns/fixpipe.ts';
import { FUSEDRELU_OPS } from './insns/fusedrelu.ts';
import { GATHER_OPS } from './insns/gather.ts';
import { GEMV_OPS } from './insns/gemv.ts';
import { GEMV_MX_OPS } from './insns/gemv-mx.ts';
import { HISTOGRAM_OPS } from './insns/histogram.ts';
import { IMG2COL_OPS } from './insns/img2col.ts';
import { MATMUL_OPS } from './insns/matmul.ts';
import { MEMORY_OPS, SYNC_OPS } from './insns/memory.ts';
import { MGATHER_OPS } from './insns/mgather.ts';
import { MX_OPS } from './insns/mx.ts';
import { PAIRSUM_OPS } from './insns/pairsum.ts';
import { PART_OPS } from './insns/part.ts';
import { PARTARG_OPS } from './insns/partarg.ts';
import { PREFETCH_OPS } from './insns/prefetch.ts';
import { QUANT_OPS } from './insns/quant.ts';
import { REARRANGE_OPS } from './insns/rearrange.ts';
import { REDUCE_OPS } from './insns/reduce.ts';
import { RESHAPE_OPS } from './insns/reshape.ts';
import { SCALAR_OPS } from './insns/scalar.ts';
import { SORT_OPS } from './insns/sort.ts';
import { SUBVIEW_OPS } from './insns/subview.ts';
import { TCI_OPS } from './insns/tci.ts';
import { TERNARY_OPS } from './insns/ternary.ts';
import { TRANDOM_OPS } from './insns/trandom.ts';
import { TRANS_OPS } from './insns/trans.ts';
import { TRI_OPS } from './insns/tri.ts';
import { UNARY_OPS } from './insns/unary.ts';
import { CTX_FREE, type ExecCtx, type OpDef, reject, type ScalarValue } from './op.ts';
import { PROFILE_SUPPORT } from './support.ts';
import { GlobalTensor, Tile } from './tile.ts';

const EXTRA: OpDef[] = [];

/** Every registered instruction, by name. */
export const OPS: Map<string, OpDef> = new Map();
function addAll(list: readonly OpDef[]): void {
  for (const op of list) {
    if (OPS.has(op.name)) throw new Error(`duplicate PTO op ${op.name}`);
    const sup = PROFILE_SUPPORT[op.name];
    OPS.set(op.name, sup ? { ...op, dtypes: { cpu: op.dtypes.cpu, a2a3: sup.a2a3, a5: sup.a5 } } : op);
  }
}
addAll(BINARY_OPS);
addAll(BITWISE_OPS);
addAll(TERNARY_OPS);
addAll(UNARY_OPS);
addAll(SCALAR_OPS);
addAll(COMPARE_OPS);
addAll(CONVERT_OPS);
addAll(REDUCE_OPS);
addAll(EXPAND_OPS);
addAll(TRANS_OPS);
addAll(MEMORY_OPS);
addAll(MATMUL_OPS);
addAll(SYNC_OPS);
// irregular / layout / matrix-vector instructions (pto-isa docs/isa/tile/ops/irregular-and-complex, …)
addAll(PART_OPS);
addAll(TCI_OPS);
addAll(GATHER_OPS);
addAll(FILLPAD_OPS);
addAll(EXTRACT_OPS);
addAll(GEMV_OPS);
addAll(MX_OPS);
addAll(FIXPIPE_OPS);
addAll(SORT_OPS);
addAll(MGATHER_OPS);
addAll(ARGREDUCE_OPS);
addAll(REARRANGE_OPS);
addAll(TRI_OPS);
addAll(PARTARG_OPS);
addAll(PAIRSUM_OPS);
addAll(HISTOGRAM_OPS);
addAll(PREFETCH_OPS);
addAll(QUANT_OPS);
addAll(GEMV_MX_OPS);
addAll(FUSEDRELU_OPS);
addAll(TRANDOM_OPS);
addAll(RESHAPE_OPS);
addAll(IMG2COL_OPS);
addAll(SUBVIEW_OPS);

/** Adds instruction families (used by the family modules loaded after this one). */
export function registerOps(list: readonly OpDef[]): void {
  addAll(list);
  EXTRA.push(...list);
}

export function getOp(name: string): OpDef {
  if (typeof name !== 'string')
    throw badInput(`the instruction name must be a string, got ${JSON.stringify(name)}`);
  const op = OPS.get(name) ?? OPS.get(name.toUpperCase());
  if (op === undefined) {
    const near = nearestName(name, OPS.keys());
    throw badInput(`unknown PTO instruction '${name}'`, { hint: near ? `did you mean ${near}?` : undefined });
  }
  return op;
}

/** A scalar operand: a JS value (converted like a C++ cast), or the raw bits of the element type. */
export type ScalarInput = number | bigint | { bits: string | number | bigint };

export type Operand = Tile | GlobalTensor;

export interface ExecOptions {
  profile?: Profile;
  /**
   * Reads past the end of an operand's physical buffer (e.g. a TSEL mask stream longer than the
   * mask tile): 'error' (default) raises UndefinedBehaviour; 'zero' reads zero bytes, which is what
   * the reference harness's memory next to its tiles held when the conformance vectors were made.
   */
  outOfBoundsReads?: 'error' | 'zero';
}

/**
 * Runs one instruction. `operands` maps operand names (dst, src0, src1, src, mask, tmp, a, b, c,
 * bias, cin, tile, gm — see each OpDef) to tiles / global tensors, which are updated in place.
 * To run the same instruction on the same operands many times, `prepare` it once instead.
 */
export function execute(
  name: string,
  operands: Readonly<Record<string, Operand>>,
  attrs: Readonly<Record<string, unknown>> = NONE,
  opts: ExecOptions = NONE,
): void {
  const last = LAST.get(name);
  if (
    last !== undefined &&
    !last.busy &&
    isEmpty(attrs) &&
    plainOptions(opts) &&
    sameOperands(last, operands)
  ) {
    runLast(last, operands);
    return;
  }
  const b = bind(name, operands, attrs, opts);
  runBound(b);
  remember(name, b, operands, attrs, opts);
}

const NONE: Readonly<Record<string, never>> = Object.freeze({});

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** Options that bind like none at all: the cpu profile, out-of-bounds reads an error. */
function plainOptions(opts: ExecOptions): boolean {
  return (
    opts === NONE ||
    ((opts.profile === undefined || opts.profile === 'cpu') && opts.outOfBoundsReads !== 'zero')
  );
}

/**
 * `execute`'s memory of its last call per instruction name, for the common case of the same
 * instruction on the same tiles again (cpu profile, no attributes, tile operands only): the binding of `prepare`, recognised by the tiles' uids and valid regions, on which it
 * depends alone (attributes and options apart). It holds no reference to the tiles: they are put
 * into the bound context for the run and taken out after, so a tile that is dropped is collected
 * as before (its uid is never seen again).
 */
interface LastCall {
  op: OpDef;
  bound: Bound;
  fast: (() => void) | undefined;
  /** Whether `fast` reads nothing of the context (CTX_FREE): then the tiles are not put in. */
  ctxFree: boolean;
  /** The names of op.operands. */
  names: string[];
  /** Per op.operands entry: the tile's uid, or 0 when the operand was not given. */
  uids: number[];
  /** validRow, validCol per op.operands entry. */
  valid: number[];
  /** Operands given. */
  given: number;
  busy: boolean;
}
const LAST = new Map<string, LastCall>();

/**
 * Whether `operands` are the tiles of the last call, with the same valid regions, and nothing
 * else (an operand name the op does not have must fail as before).
 */
function sameOperands(last: LastCall, operands: Readonly<Record<string, Operand>>): boolean {
  const names = last.names;
  let n = 0;
  for (const k in operands) {
    const v = operands[k];
    if (v === undefined) continue;
    let i = 0;
    while (i < names.length && names[i] !== k) i++;
    if (
      i === names.length ||
      !(v instanceof Tile) ||
      v.uid !== last.uids[i] ||
      v.validRow !== last.valid[2 * i] ||
      v.validCol !== last.valid[2 * i + 1]
    ) {
      return false;
    }
    n++;
  }
  return n === last.given;
}

function runLast(last: LastCall, operands: Readonly<Record<string, Operand>>): void {
  const f = last.fast;
  if (f !== undefined && last.ctxFree) {
    f();
    return;
  }
  const names = last.names;
  const tiles = last.bound.ctx.tiles;
  for (let i = 0; i < names.length; i++)
    if (last.uids[i] !== 0) tiles[names[i]!] = operands[names[i]!] as Tile;
  last.busy = true;
  try {
    if (f !== undefined) f();
    else runBound(last.bound);
  } finally {
    last.busy = false;
    forget(last);
  }
}

/** Takes the tiles out of the bound context (see LastCall). */
function forget(last: LastCall): void {
  const names = last.names;
  const tiles = last.bound.ctx.tiles as Record<string, Tile | undefined>;
  for (let i = 0; i < names.length; i++) if (last.uids[i] !== 0) tiles[names[i]!] = undefined;
}

function remember(
  name: string,
  b: Bound,
  operands: Readonly<Record<string, Operand>>,
  attrs: Readonly<Record<string, unknown>>,
  opts: ExecOptions,
): void {
  if (b.ones !== null || !isEmpty(attrs) || !plainOptions(opts)) return;
  // the caller's (empty) attribute object could gain keys later: the binding keeps its own
  b.ctx.attrs = NONE;
  const specs = b.op.operands;
  if (specs.length === 0 || specs.some((s) => s.kind !== 'tile')) return;
  let last = LAST.get(name);
  if (last?.busy) return;
  if (last === undefined || last.op !== b.op) {
    const names = specs.map((o) => o.name);
    last = {
      op: b.op,
      bound: b,
      fast: undefined,
      ctxFree: false,
      names,
      uids: [],
      valid: [],
      given: 0,
      busy: false,
    };
    LAST.set(name, last);
  }
  last.bound = b;
  last.fast = specialised(b);
  last.ctxFree = last.fast !== undefined && CTX_FREE.has(last.fast);
  let given = 0;
  for (let i = 0; i < specs.length; i++) {
    const t = operands[specs[i]!.name] as Tile | undefined;
    last.uids[i] = t === undefined ? 0 : t.uid;
    last.valid[2 * i] = t === undefined ? 0 : t.validRow;
    last.valid[2 * i + 1] = t === undefined ? 0 : t.validCol;
    if (t !== undefined) given++;
  }
  last.given = given;
  forget(last);
}

/**
 * An instruction bound to its operands and validated once (`prepare`): `run()` does what
 * `execute` with the same arguments does, without the name lookup, operand binding, support-table,
 * attribute and scalar checks, which depend only on the operands' element types, shapes, layouts
 * and valid regions and on the attributes. The tiles' contents are read on every run. If a tile's
 * valid region changes after `prepare` (Tile.setValid), the next `run()` validates again first.
 */
export interface PreparedInstruction {
  readonly op: OpDef;
  run(): void;
}

/** Validates `name(operands, attrs)` as `execute` would (same errors), once; see PreparedInstruction. */
export function prepare(
  name: string,
  operands: Readonly<Record<string, Operand>>,
  attrs: Readonly<Record<string, unknown>> = {},
  opts: ExecOptions = {},
): PreparedInstruction {
  const ops: Record<string, Operand> = { ...operands };
  const at: Record<string, unknown> = { ...attrs };
  const options: ExecOptions = { ...opts };
  let bound = bind(name, ops, at, options);
  let fast = specialised(bound);
  const tiles = Object.values(ops).filter((v): v is Tile => v instanceof Tile);
  const nt = tiles.length;
  const valid = new Int32Array(nt * 2);
  const snapshot = () => {
    for (let i = 0; i < nt; i++) {
      valid[2 * i] = tiles[i]!.validRow;
      valid[2 * i + 1] = tiles[i]!.validCol;
    }
  };
  snapshot();
  const rebind = () => {
    bound = bind(name, ops, at, options);
    fast = specialised(bound);
    snapshot();
  };
  return {
    op: bound.op,
    run(): void {
      for (let i = 0; i < nt; i++) {
        const t = tiles[i]!;
        if (t.validRow !== valid[2 * i] || t.validCol !== valid[2 * i + 1]) {
          rebind();
          break;
        }
      }
      const f = fast;
      if (f !== undefined) f();
      else runBound(bound);
    },
  };
}

/**
 * The op's specialised run for a bound instruction (OpDef.specialise), when it has one and no
 * per-run work is left around it: on the A2/A3 and A5 profiles, only when every source covers its
 * whole tile (then the all-ones copy of runBound is the tile itself).
 */
function specialised(b: Bound): (() => void) | undefined {
  if (b.op.specialise === undefined) return undefined;
  if (b.ones !== null) {
    for (const n of b.ones) {
      const t = b.base[n]!;
      if (t.validRow !== t.rows || t.validCol !== t.cols) return undefined;
    }
  }
  return b.op.specialise(b.ctx);
}

interface Bound {
  op: OpDef;
  ctx: ExecCtx;
  /** The operand tiles as bound (before the A2/A3/A5 all-ones copies of the sources). */
  base: Record<string, Tile>;
  /** Source operands that read all-one bits outside their valid region (non-cpu profiles). */
  ones: string[] | null;
  /** Whether a non-AxsimError from the kernel is reported as an internal error. */
  wrap: boolean;
}

/** Everything `execute` checks before running: operands bound, support tables, scalar, op.check. */

/**
 * The data-movement instructions whose pto-isa kernels take Vec tiles in the column-major layouts
 * (the exceptions to spec 002's "isRowMajor for vector tiles"): TLOAD and TSTORE copy ND2ND, DN2DN
 * and NZ2NZ on A2/A3 and A5 (pto-isa include/pto/common/arch/memory/tload_common.hpp "TLOAD(VecTile,
 * GlobalTensor) only support ND2ND/DN2DN/NZ2NZ", tstore_common.hpp "only support ND/DN/NZ", and the
 * A5 register/tload_common.hpp Vec DN2DN / NZ2NZ paths); A5 TMOV turns a Vec ND tile into Vec NZ
 * (npu/a5/TMov.hpp `TMovToVecNd2Nz`); A2/A3 TMOV Vec -> Vec copies 32-byte blocks whatever the
 * layouts (npu/a2a3/TMov.hpp `TMovToVec`). Every other instruction keeps the row-major rule.
 */
function layoutMoveAllowed(
  insn: string,
  operand: string,
  tiles: Record<string, Tile>,
  profile: string,
): boolean {
  if (insn === 'TLOAD' || insn === 'TSTORE') return true;
  // A2/A3 TMOV Vec -> Vec is TMovToVec, a copy of 32-byte blocks whatever the layouts (memory.ts)
  if (insn === 'TMOV' && profile === 'a2a3') return tiles.src?.loc === 'vec' && tiles.dst?.loc === 'vec';
  if (insn === 'TMOV' && profile === 'a5' && operand === 'dst') {
    const src = tiles.src;
    const dst = tiles.dst;
    return (
      src !== undefined &&
      dst !== undefined &&
      src.loc === 'vec' &&
      src.blayout === 'row' &&
      src.slayout === 'none' &&
      dst.blayout === 'col' &&
      dst.slayout === 'row'
    );
  }
  return false;
}

function bind(
  name: string,
  operands: Readonly<Record<string, Operand>>,
  attrs: Readonly<Record<string, unknown>>,
  opts: ExecOptions,
): Bound {
  const op = getOp(name);
  checkAttrs(op, attrs);
  const profile = opts.profile ?? 'cpu';
  if (!PROFILES.includes(profile))
    throw badInput(`unknown profile '${String(profile)}'`, { hint: 'cpu, a2a3 or a5' });
  const tiles: Record<string, Tile> = {};
  const globals: Record<string, GlobalTensor> = {};
  for (const spec of op.operands) {
    const v = operands[spec.name];
    if (v === undefined) {
      if (spec.optional || spec.scratch) continue;
      throw badInput(`${op.name}: missing operand '${spec.name}'`, {
        hint: `${op.name} takes ${op.operands.map((o) => o.name).join(', ')}`,
      });
    }
    if (spec.kind === 'tile') {
      if (!(v instanceof Tile)) throw badInput(`${op.name}: operand '${spec.name}' must be a tile`);
      tiles[spec.name] = v;
    } else {
      if (!(v instanceof GlobalTensor))
        throw badInput(`${op.name}: operand '${spec.name}' must be a GlobalTensor`);
      globals[spec.name] = v;
    }
  }
  for (const k in operands) {
    if (operands[k] !== undefined && tiles[k] === undefined && globals[k] === undefined) {
      throw badInput(`${op.name} has no operand '${k}'`, {
        hint: `${op.name} takes ${op.operands.map((o) => o.name).join(', ')}`,
      });
    }
  }
  if (op.operands.length === 0) {
    // ordering ops: nothing to check or compute in the functional model
    return {
      op,
      ctx: { op, profile, tiles, globals, attrs, scalar: undefined, zeroOutOfBounds: false },
      base: tiles,
      ones: null,
      wrap: false,
    };
  }
  const primaryName =
    op.primary ?? op.operands.find((o) => o.kind === 'tile' && !o.scratch)?.name ?? op.operands[0]!.name;
  const primary = tiles[primaryName] ?? globals[primaryName];
  const dtype: DType = primary!.dtype;
  const layoutTag =
    primary instanceof Tile && primary.blayout === 'col' && primary.slayout === 'none' ? '(ColMajor)' : '';
  if (!op.dtypes[profile].includes(dtype)) {
    reject(op.name, `${dtype}${layoutTag}`, dtypeReason(op, dtype, profile), profile);
  }
  if (profile !== 'cpu') {
    // spec 002 (Target-Profile Restrictions): A2/A3 and A5 require isRowMajor for vector tiles
    for (const [n, t] of Object.entries(tiles)) {
      // (a one-column ColMajor tile is the "DN" vector the reduction pages allow)
      const scratch = op.operands.find((o) => o.name === n)?.scratch;
      if (
        t.loc === 'vec' &&
        t.blayout !== 'row' &&
        t.cols !== 1 &&
        !scratch &&
        !layoutMoveAllowed(op.name, n, tiles, profile)
      ) {
        throw unsupported(
          `${op.name}: ${dtype}(ColMajor) operand '${n}' is not supported on ${profile}: RowMajor only`,
        );
      }
    }
  }
  const ctx: ExecCtx = {
    op,
    profile,
    tiles,
    globals,
    attrs,
    scalar: undefined,
    zeroOutOfBounds: opts.outOfBoundsReads === 'zero',
  };
  const scalarSpec = op.attrs.find((a) => a.kind === 'scalar');
  if (scalarSpec && !(scalarSpec.optional && attrs.scalar === undefined)) {
    const raw = attrs.scalar as ScalarInput | undefined;
    if (raw === undefined) throw badInput(`${op.name}: missing attribute 'scalar'`);
    const sd = (isDType(attrs.scalarDtype) ? attrs.scalarDtype : dtype) as DType;
    const { value, bytes } = convertScalar(raw, sd, profile);
    ctx.scalar = value;
    ctx.attrs = { ...attrs, scalarBytes: bytes };
  }
  op.check?.(ctx);
  let ones: string[] | null = null;
  if (profile !== 'cpu') {
    // spec 002: source lanes outside their valid region read all-one bits on A2/A3 and A5 (applied
    // on every run, from the sources' contents at that time)
    ones = [];
    for (const spec of op.operands) {
      const t = tiles[spec.name];
      if (t && !spec.out && !spec.scratch) ones.push(spec.name);
    }
  }
  return { op, ctx, base: tiles, ones, wrap: true };
}

/** Runs a bound instruction: the per-run part of `execute` (no validation left to do). */
function runBound(b: Bound): void {
  const { op, ctx } = b;
  if (b.ones !== null) {
    const t: Record<string, Tile> = { ...b.base };
    for (const n of b.ones) t[n] = onesOutsideValid(b.base[n]!);
    ctx.tiles = t;
  }
  if (!b.wrap) {
    op.exec(ctx);
    return;
  }
  try {
    op.exec(ctx);
  } catch (e) {
    if (e instanceof AxsimError) throw e;
    throw internalError(`${op.name}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
}

/**
 * A `flag` attribute must be a boolean: anything else (1, 'yes') used to read as "off". (Unknown
 * attribute names are not refused here: the conformance and PTO-AS runners pass shared extras.)
 */
function checkAttrs(op: OpDef, attrs: Readonly<Record<string, unknown>>): void {
  for (const spec of op.attrs) {
    const v = attrs[spec.name];
    if (spec.kind === 'flag' && v !== undefined && typeof v !== 'boolean')
      throw badInput(`${op.name}: ${spec.name} must be true or false, got ${String(v)}`);
  }
}

function dtypeReason(op: OpDef, d: DType, profile: Profile): string {
  if (op.family === 'bitwise' && DTYPE_INFO[d].float) return 'bitwise operators need an integer element type';
  if (profile === 'cpu') return `not in the element-type list the CPU simulator's ${op.name} accepts`;
  return `not in the ${profile} element-type table of ${op.name}`;
}

/** A copy of `t` whose elements outside the valid region hold all-one bits (0xFF bytes). */
export function onesOutsideValid(t: Tile): Tile {
  if (t.validRow === t.rows && t.validCol === t.cols) return t;
  const c = t.clone();
  const n = t.elemBytes;
  for (let r = 0; r < t.rows; r++) {
    for (let k = 0; k < t.cols; k++) {
      if (r < t.validRow && k < t.validCol) continue;
      const o = t.offset(r, k) * n;
      c.bytes.fill(0xff, o, o + n);
    }
  }
  return c;
}

/** Converts a scalar input to the compute-domain value of `d` and its raw little-endian bytes. */
export function convertScalar(
  s: ScalarInput,
  d: DType,
  profile: Profile,
): { value: ScalarValue; bytes: Uint8Array } {
  const A = anyArith(d, profile);
  const n = DTYPE_INFO[d].bytes;
  const bytes = new Uint8Array(8);
  const view = A.view(bytes);
  if (typeof s === 'object' && s !== null && 'bits' in s) {
    const b = s.bits;
    if (typeof b === 'string') {
      if (!/^[0-9a-fA-F]*$/.test(b) || b.length !== 2 * n) {
        throw badInput(`scalar bits '${b}' must be ${2 * n} hex digits (little-endian bytes of ${d})`);
      }
      for (let i = 0; i < n; i++) bytes[i] = Number.parseInt(b.slice(2 * i, 2 * i + 2), 16);
    } else {
      if (typeof b !== 'bigint' && !(typeof b === 'number' && Number.isSafeInteger(b)))
        throw badInput(`scalar bits must be a hex string or an integer, got ${JSON.stringify(b)}`);
      let v = BigInt(b);
      for (let i = 0; i < n; i++) {
        bytes[i] = Number(v & 0xffn);
        v >>= 8n;
      }
    }
    const value = A.load(view, 0) as ScalarValue;
    return { value, bytes: bytes.slice(0, n) };
  }
  let value: unknown;
  if (typeof s === 'bigint') {
    value = A.big ? (A.fromF64(0) as bigint) + 0n + s : A.fromF64(Number(s));
    if (A.big) value = DTYPE_INFO[d].signed ? BigInt.asIntN(64, s) : BigInt.asUintN(64, s);
  } else if (typeof s === 'number') {
    value = A.fromF64(s);
  } else {
    throw badInput(`scalar must be a number, a bigint or {bits}, got ${JSON.stringify(s)}`);
  }
  A.store(view, 0, value);
  return { value: A.load(view, 0) as ScalarValue, bytes: bytes.slice(0, n) };
}
