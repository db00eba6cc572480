/**
 * Walks a verified function: evaluates the scalar glue (arith.*, scf.for/if/yield), tracks tile
 * buffers with their runtime valid region and global-tensor views, and hands every tile op to a
 * hook. The runner (run.ts) executes tile ops on part 1's simulator through the hook; the cost
 * command prices them. Scalars are JS numbers (index and integers up to 2^53, floats rounded to
 * their type); anything outside that range is reported, not approximated.
 */
import { type Budget, limitError } from '../../budget.ts';
import { AxsimError, badInput, type ErrorLocation, unsupported } from '../../errors.ts';
import type { CallOp, Func, GenericOp, Module, Op, Pos, SyncOp, TileBufType, Type, Use } from './ast.ts';
import { type TileCall, tileCall } from './call.ts';
import { genericAttr, genericOperands, genericParen, genericResultTypes, genericUses } from './generic.ts';
import { printType } from './printer.ts';
import { asTileBuf, innerShape, isFloatType, subsetType, typesEqual } from './types.ts';

export interface TileValue {
  kind: 'tile';
  /** Static description (Level-1 tiles and memrefs are described as row-major vec buffers). */
  type: TileBufType;
  validRow: number;
  validCol: number;
  /** Identity of the underlying buffer: DPS ops write into it in place. */
  id: number;
  /** What the hooks attach (e.g. part 1's Tile). */
  handle: unknown;
  /** Byte address in the location's buffer memory (`alloc_tile addr = …`, `tassign`), when given. */
  addr?: number;
  /** A popped tile in its pipe's consumer slot (inside the reserved FIFO buffer, by design). */
  slot?: boolean;
}

export interface PtrValue {
  kind: 'ptr';
  /** Function argument name the pointer came from. */
  arg: string;
  elem: string;
  /** Elements past the argument's start (`pto.addptr`). */
  offset?: number;
}

export interface ViewValue {
  kind: 'view';
  arg: string;
  elem: string;
  /** Logical shape and element strides of the view, outermost first. */
  shape: number[];
  strides: number[];
  /** Element offset of the view's origin from the pointer. */
  offset: number;
}

export type RtValue =
  | { kind: 'int'; v: number; type: string }
  | { kind: 'float'; v: number; type: string }
  | TileValue
  | PtrValue
  | ViewValue;

export interface ExecHooks {
  /** A new tile buffer (alloc_tile, memref.alloc, a Level-1 result): return its handle. */
  alloc?(t: TileValue, op: Op, argName?: string): unknown;
  /** A tile op. `ins` are resolved operands; `out` the destination buffer (fresh for SSA results). */
  tile(
    call: TileCall,
    ins: RtValue[],
    out: TileValue | ViewValue,
    ctx: ExecContext,
    /** Further `outs(…)` values (tsort32's index tile, tmrgsort's tmp / executed list). */
    extraOuts: RtValue[],
  ): void;
  sync?(op: SyncOp, ctx: ExecContext): void;
  /** `pto.subset`: a handle for `child`, the window of `parent` at (rowOff, colOff). */
  subset?(parent: TileValue, child: TileValue, rowOff: number, colOff: number): unknown;
  /** `pto.treshape`: a handle for `to` sharing `from`'s storage. */
  reshape?(from: TileValue, to: TileValue): unknown;
  /** `pto.set_validshape`: `t.validRow` / `t.validCol` were just changed. */
  setValid?(t: TileValue): void;
  /** `pto.tassign %src, %addr`: `result` is a view of the same type at byte address `addr`. */
  assign?(src: TileValue, addr: number, result: TileValue): unknown;
  /**
   * `pto.reserve_buffer`: reserve `size` bytes of `loc` (at `base` when given, else where the
   * allocator puts it); returns the base address.
   */
  reserve?(loc: string, size: number, base: number | undefined, name: string, pos: Pos): number;
  /** `pto.tprint ins(%t)`: the value to print. */
  print?(v: RtValue, ctx: ExecContext): void;
  /**
   * A dense vector constant: store `values` (converted to `elem`) as a local array and return the
   * key views use for it (like a pointer argument's name).
   */
  constant?(name: string, elem: string, values: number[]): string;
  /** A GM -> GM copy of `src`'s elements into `dst` (same element count, row-major order). */
  copy?(dst: ViewValue, src: ViewValue, what: string): void;
  /** The cube <-> vector FIFOs; without them pipe ops are Unsupported. */
  pipe?: PipeHooks;
  /** The scheduler is about to resume `core` (its buffer memories become the current ones). */
  enterCore?(core: CoreInfo): void;
}

export interface ExecContext {
  /** Position of the op being executed. */
  pos: Pos;
  /** How many times control has reached this op before (loop iterations). */
  visit: number;
}

/** One core of a run: the entry's, or a cube / vector core a mixed entry launched. */
export interface CoreInfo {
  id: number;
  /** `pto.kernel_kind` of the function the core runs (undefined: the entry of a mixed kernel). */
  kind: 'cube' | 'vector' | undefined;
  /** Vector sub-block index (`pto.get_subblock_idx`) and count; cube cores: 0 of 1. */
  lane: number;
  lanes: number;
}

/** Direction of a cube <-> vector pipe transfer. */
export type PipeDir = 'c2v' | 'v2c';

/** A pipe as its init op describes it (PTOAS `initialize_l2g2l_pipe` / `initialize_l2l_pipe` / `a?c_initialize_pipe`). */
export interface PipeDesc {
  /** Peer inits with the same key are the two ends of one FIFO (flag base, direction mask, slots). */
  key: string;
  /** 1 = C2V, 2 = V2C, 3 = both. */
  dirMask: number;
  slotNum: number;
  slotSize: number;
  /** Slots of the consumer's local buffer (placement rotates through them). */
  localSlotNum: number;
  /** Consumer buffers: byte addresses in the vector core's Vec (C2V) / the cube core's Mat (V2C). */
  c2vBuf: number;
  v2cBuf: number;
  pos: Pos;
}

/**
 * The FIFO behind `tpush` / `tpop` / `tfree` (run.ts / pipes.ts implement it on tile bytes). `can*`
 * say whether the op could proceed now; a core that cannot is suspended until another core moves.
 */
export interface PipeHooks {
  canPush(p: PipeDesc, dir: PipeDir, core: CoreInfo, split: number): boolean;
  push(p: PipeDesc, dir: PipeDir, src: TileValue, core: CoreInfo, split: number): void;
  canPop(p: PipeDesc, dir: PipeDir, core: CoreInfo): boolean;
  pop(p: PipeDesc, dir: PipeDir, dst: TileValue, core: CoreInfo, split: number): void;
  free(p: PipeDesc, dir: PipeDir, core: CoreInfo): void;
}

/** Why a suspended core waits. */
export interface Wait {
  pos: Pos;
  what: string;
}

type Gen<T> = Generator<Wait, T, undefined>;

/** Op kinds executed as generators (they run regions or call, so a pipe wait may happen inside). */
const BLOCKING_KINDS = new Set<string>(['scf.for', 'scf.if', 'scf.while', 'section', 'func.call']);

/** The cube <-> vector pipe ops (PTOAS frontend and internal forms). */
export const PIPE_OPS: ReadonlySet<string> = new Set([
  'pto.initialize_l2g2l_pipe',
  'pto.initialize_l2l_pipe',
  'pto.aic_initialize_pipe',
  'pto.aiv_initialize_pipe',
  'pto.tpush',
  'pto.tpop',
  'pto.tfree',
  'pto.tpush_to_aiv',
  'pto.tpush_to_aic',
  'pto.tpop_from_aic',
  'pto.tpop_from_aiv',
  'pto.tfree_from_aic',
  'pto.tfree_from_aiv',
]);

function isPipeOp(op: Op): op is GenericOp {
  return op.kind === 'generic' && PIPE_OPS.has(op.name);
}

/** `pto.kernel_kind` of a function, if it has one. */
export function kernelKind(f: Func): 'cube' | 'vector' | undefined {
  const a = f.attrs?.find((x) => x.name === 'pto.kernel_kind');
  if (!a) return undefined;
  const text = JSON.stringify(a.value);
  return /\bcube\b/.test(text) ? 'cube' : /\bvector\b/.test(text) ? 'vector' : undefined;
}

/** Every op of a module, nested regions included. */
function* allOps(x: unknown): Generator<Op> {
  if (Array.isArray(x)) {
    for (const y of x) yield* allOps(y);
    return;
  }
  if (x === null || typeof x !== 'object') return;
  const o = x as { kind?: unknown; pos?: unknown };
  if (typeof o.kind === 'string' && o.pos) yield x as Op;
  for (const v of Object.values(x)) if (v !== null && typeof v === 'object') yield* allOps(v);
}

/**
 * A mixed kernel for a module whose cube and vector kernels talk through pipes but which has no
 * `pto.entry` (PTOAS's lowering tests write the two sides as separate kernels): a function that
 * launches every cube kernel, then every vector kernel, on their own cores. Its arguments are the
 * kernels' arguments by name (a name the kernels give different types makes it undefined).
 * Undefined when the module has no pipes, has an entry, or lacks one of the two sides.
 */
export function mixedEntry(m: Module): Func | undefined {
  if (m.funcs.some((f) => f.attrs?.some((a) => a.name === 'pto.entry'))) return undefined;
  if (!new Shared(m).mixed) return undefined;
  const cube = m.funcs.filter((f) => kernelKind(f) === 'cube');
  const vector = m.funcs.filter((f) => kernelKind(f) === 'vector');
  if (!cube.length || !vector.length) return undefined;
  const args: Func['args'] = [];
  for (const f of [...cube, ...vector]) {
    for (const a of f.args) {
      const had = args.find((x) => x.use.name === a.use.name);
      if (!had) args.push(a);
      else if (!typesEqual(had.type, a.type)) return undefined;
    }
  }
  const pos = m.funcs[0]!.pos;
  const body: Op[] = [...cube, ...vector].map(
    (f): Op => ({
      kind: 'func.call',
      spelling: 'func.call',
      callee: f.name,
      args: f.args.map((a) => a.use),
      argTypes: f.args.map((a) => a.type),
      resultTypes: [],
      results: [],
      pos: f.pos,
    }),
  );
  body.push({ kind: 'return', pos, results: [], spelling: 'return', values: [], types: [] } as Op);
  const name = `mixed(${[...cube, ...vector].map((f) => f.name).join(',')})`;
  return { pos, name, args, resultTypes: [], hasArrow: false, visibility: undefined, attrs: undefined, body };
}

/** State the cores of one run share: ids, the cores launched, and pipe progress. */
class Shared {
  nextId = 1;
  nextCore = 1;
  /** Successful pipe transfers so far (the scheduler's progress measure). */
  events = 0;
  /** Does the module use pipes (then a mixed entry's kernel calls launch cores)? */
  readonly mixed: boolean;
  /** Vector cores per launch: 2 sub-blocks when some transfer splits a tile, else 1. */
  readonly vectorLanes: number;
  readonly launched: { ex: Exec; gen: Gen<RtValue[] | undefined> }[] = [];
  /** `pto.reserve_buffer` bases by function and name (for `import_reserved_buffer`). */
  readonly reserved = new Map<string, number>();
  /** Pipes the init ops created (a `!pto.pipe` value is an index here). */
  readonly pipes: PipeDesc[] = [];

  constructor(m: Module | undefined) {
    let mixed = false;
    let split = false;
    if (m) {
      for (const op of allOps(m.funcs)) {
        if (!isPipeOp(op)) continue;
        mixed = true;
        const a = genericAttr(op, 'split');
        if (a?.kind === 'int' && a.value !== 0n) split = true;
      }
    }
    this.mixed = mixed;
    this.vectorLanes = split ? 2 : 1;
  }
}

export interface ExecOptions {
  /** Upper bound on executed operations (guards against runaway loops). */
  maxSteps?: number;
  file?: string;
  /** The module the function belongs to (`func.call` looks its callee up here). */
  module?: Module;
  /**
   * Resource budget (src/budget.ts). The hooks charge element-operations and live bytes to it; a
   * loop whose body is straight-line is refused after its first iteration when the remaining
   * iterations would exceed the element-operation limit (each iteration then costs the same).
   */
  budget?: Budget;
}

/** Nesting limit of `func.call` (PTOAS rejects recursion; this guards the walker). */
const MAX_CALL_DEPTH = 64;

/** Ops that hold regions or call: a loop body containing one may cost differently per iteration. */
const REGION_OPS = new Set<string>(['scf.for', 'scf.if', 'scf.while', 'section', 'func.call', 'generic']);

class Exec {
  env = new Map<string, RtValue>();
  steps = 0;
  visits = new Map<Op, number>();
  /** The condition the last `scf.condition` evaluated. */
  lastCond = false;

  /** Frontend pipes (`aic_/aiv_initialize_pipe`): the function's C2V and V2C pipe. */
  front: { c2v?: PipeDesc; v2c?: PipeDesc } = {};
  /** Pops per pipe and direction on this core (consumer slot rotation). */
  pops = new Map<string, number>();
  /** The function this core runs (reserve_buffer names are per function). */
  func = '';

  constructor(
    readonly hooks: ExecHooks,
    readonly opts: ExecOptions,
    readonly shared: Shared = new Shared(opts.module),
    readonly core: CoreInfo = { id: 0, kind: undefined, lane: 0, lanes: 1 },
  ) {}

  get nextId(): number {
    return this.shared.nextId;
  }

  set nextId(n: number) {
    this.shared.nextId = n;
  }

  loc(pos: Pos): ErrorLocation {
    return this.opts.file === undefined ? { ...pos } : { file: this.opts.file, ...pos };
  }

  at(pos: Pos, e: AxsimError): AxsimError {
    return e.location ? e : e.at(this.opts.file === undefined ? pos : { file: this.opts.file, ...pos });
  }

  get(u: Use): RtValue {
    const v = this.env.get(u.name);
    if (!v)
      throw badInput(`use of undefined value %${u.name}`, {
        location: { line: u.pos.line, col: u.pos.col },
        hint: 'run `axsim pto check` first',
      });
    return v;
  }

  int(u: Use): number {
    const v = this.get(u);
    if (v.kind !== 'int') throw badInput(`%${u.name} is not an integer`, { location: u.pos });
    return v.v;
  }

  newTile(
    type: TileBufType,
    validRow: number,
    validCol: number,
    op: Op,
    argName?: string,
    addr?: number,
  ): TileValue {
    const t: TileValue = { kind: 'tile', type, validRow, validCol, id: this.nextId++, handle: undefined };
    if (addr !== undefined) t.addr = addr;
    t.handle = this.hooks.alloc?.(t, op, argName);
    return t;
  }

  *run(ops: Op[]): Gen<RtValue[] | undefined> {
    for (const op of ops) {
      if (++this.steps > (this.opts.maxSteps ?? 1_000_000)) {
        throw unsupported(`the program executes more than ${this.opts.maxSteps ?? 1_000_000} operations`, {
          location: op.pos,
          hint: 'reduce the loop trip counts',
        });
      }
      try {
        const r = BLOCKING_KINDS.has(op.kind) || isPipeOp(op) ? yield* this.region(op) : this.op(op);
        if (r) return r;
      } catch (e) {
        if (e instanceof AxsimError) throw this.at(op.pos, e);
        throw e;
      }
    }
    return undefined;
  }

  /**
   * Ops that run nested regions, call, or may block on a pipe: generators, so a core waiting for a
   * FIFO entry (tpop) or a free slot (tpush) suspends here and resumes where it stopped.
   */
  *region(op: Op): Gen<RtValue[] | undefined> {
    const def = (u: Use, v: RtValue) => this.env.set(u.name, v);
    switch (op.kind) {
      case 'scf.while': {
        let carried = op.inits.map((a) => this.get(a.init));
        let results: RtValue[] = [];
        for (;;) {
          op.inits.forEach((a, k) => {
            def(a.arg, carried[k]!);
          });
          this.lastCond = false;
          const fwd = (yield* this.run(op.before)) ?? [];
          if (!this.lastCond) {
            results = fwd;
            break;
          }
          op.afterArgs.forEach((a, k) => {
            def(a.use, fwd[k]!);
          });
          carried = (yield* this.run(op.after)) ?? carried;
        }
        op.results.forEach((r, k) => {
          def(r, results[k]!);
        });
        return undefined;
      }
      case 'scf.for': {
        const lb = this.int(op.lb);
        const ub = this.int(op.ub);
        const step = this.int(op.step);
        if (step <= 0)
          throw badInput(`scf.for: step must be positive, got ${step}`, { hint: 'use a positive step' });
        let carried = op.iterArgs.map((a) => this.get(a.init));
        const ivType = this.get(op.lb).kind === 'int' ? (this.get(op.lb) as { type: string }).type : 'index';
        const b = this.opts.budget;
        const project = b !== undefined && ub - lb > step && op.body.every((o) => !REGION_OPS.has(o.kind));
        for (let i = lb; i < ub; i += step) {
          def(op.iv, { kind: 'int', v: i, type: ivType });
          op.iterArgs.forEach((a, k) => {
            def(a.arg, carried[k]!);
          });
          const before = b?.elementOps ?? 0;
          const y = yield* this.run(op.body);
          if (op.iterArgs.length) carried = y ?? carried;
          if (project && i === lb) {
            const perIter = b.elementOps - before;
            const rest = Math.ceil((ub - lb) / step) - 1;
            if (perIter > 0 && !b.wouldFitElements(perIter * rest)) {
              throw limitError(
                'elementOps',
                b.elementOps + perIter * rest,
                b.limits.elementOps,
                this.loc(op.pos),
              );
            }
          }
        }
        op.results.forEach((r, k) => {
          def(r, carried[k]!);
        });
        return undefined;
      }
      case 'scf.if': {
        const c = this.int(op.cond);
        const body = c ? op.thenOps : (op.elseOps ?? []);
        const y = yield* this.run(body);
        op.results.forEach((r, k) => {
          def(r, y![k]!);
        });
        return undefined;
      }
      case 'section':
        yield* this.run(op.body);
        return undefined;
      case 'func.call':
        return yield* this.call(op);
      case 'generic':
        yield* this.pipeOp(op);
        return undefined;
      default:
        return this.op(op);
    }
  }

  /** Executes one op; returns yielded/returned values for terminators. */
  op(op: Op): RtValue[] | undefined {
    const def = (u: Use, v: RtValue) => this.env.set(u.name, v);
    switch (op.kind) {
      case 'return':
      case 'scf.yield':
        return op.values.map((v) => this.get(v));
      case 'scf.condition':
        this.lastCond = this.int(op.cond) !== 0;
        return op.values.map((v) => this.get(v));
      case 'arith.constant': {
        const t = op.type.kind === 'scalar' ? op.type.name : 'index';
        const a = op.value;
        if (a.kind === 'raw') {
          // `dense<[…]>` / `dense<v>` of a vector type: a small local array (tmrgsort's executed
          // list, MrgSortExecutedNumList{…} in the emitted C++), addressed like a bound argument
          const vt = op.type;
          const m = /^dense<\s*(\[[^\]]*\]|[-+0-9.eE]+)\s*>$/.exec(a.text.trim());
          if (vt.kind !== 'vector' || !m || !this.hooks.constant) {
            throw unsupported(`arith.constant ${a.text}: only dense vector constants are simulated`, {
              hint: 'bind the vector as a function argument (an array) instead',
            });
          }
          const n = vt.shape.reduce((x, y) => x * y, 1);
          const body = m[1]!;
          const vals = body.startsWith('[')
            ? body
                .slice(1, -1)
                .split(',')
                .filter((x) => x.trim() !== '')
                .map(Number)
            : Array<number>(n).fill(Number(body));
          if (vals.length !== n || vals.some((x) => !Number.isFinite(x))) {
            throw badInput(`arith.constant ${a.text}: ${vals.length} values for a vector of ${n}`);
          }
          const key = this.hooks.constant(op.results[0]!.name, vt.elem.name, vals);
          const shape = [...vt.shape];
          const strides = shape.map((_, i) => shape.slice(i + 1).reduce((x, y) => x * y, 1));
          def(op.results[0]!, { kind: 'view', arg: key, elem: vt.elem.name, shape, strides, offset: 0 });
          return undefined;
        }
        if (a.kind === 'bool') def(op.results[0]!, { kind: 'int', v: a.value ? 1 : 0, type: 'i1' });
        else if (a.kind === 'float' || isFloatType(op.type)) {
          const x = a.kind === 'float' ? Number(a.text) : a.kind === 'int' ? Number(a.value) : 0;
          def(op.results[0]!, { kind: 'float', v: roundFloat(x, t), type: t });
        } else if (a.kind === 'int') {
          if (a.value > BigInt(Number.MAX_SAFE_INTEGER) || a.value < BigInt(Number.MIN_SAFE_INTEGER)) {
            throw unsupported(
              `constant ${a.value} is outside the range the scalar evaluator handles exactly (±2^53)`,
            );
          }
          def(op.results[0]!, { kind: 'int', v: wrapInt(Number(a.value), t), type: t });
        }
        return undefined;
      }
      case 'arith.binary': {
        const a = this.get(op.lhs);
        const b = this.get(op.rhs);
        const t = op.type.kind === 'scalar' ? op.type.name : 'index';
        def(op.results[0]!, binary(op.name.slice(6), a, b, t));
        return undefined;
      }
      case 'affine.apply': {
        const d = op.dims.map((u) => this.int(u));
        const sy = op.syms.map((u) => this.int(u));
        def(op.results[0]!, { kind: 'int', v: evalAffine(op.expr, d, sy), type: 'index' });
        return undefined;
      }
      case 'arith.cast': {
        const a = this.get(op.operand);
        const to = op.to.kind === 'scalar' ? op.to.name : 'index';
        if (a.kind !== 'int' && a.kind !== 'float') throw badInput(`${op.name}: operand is not a scalar`);
        const isF = isFloatType(op.to);
        if (isF) def(op.results[0]!, { kind: 'float', v: roundFloat(a.v, to), type: to });
        else {
          if (a.kind === 'float' && !Number.isFinite(a.v))
            throw badInput(`${op.name}: cannot convert ${a.v} to ${to}`);
          const x = Math.trunc(a.v);
          const unsignedSrc = op.name === 'arith.index_castui' || op.name === 'arith.extui';
          def(op.results[0]!, {
            kind: 'int',
            v: wrapInt(unsignedSrc && x < 0 ? toUnsigned(x, a.type) : x, to),
            type: to,
          });
        }
        return undefined;
      }
      case 'arith.cmp': {
        const a = this.get(op.lhs);
        const b = this.get(op.rhs);
        if ((a.kind !== 'int' && a.kind !== 'float') || (b.kind !== 'int' && b.kind !== 'float')) {
          throw badInput(`${op.name}: operands must be scalars`);
        }
        def(op.results[0]!, { kind: 'int', v: compare(op.predicate, a.v, b.v, a.type) ? 1 : 0, type: 'i1' });
        return undefined;
      }
      case 'arith.select': {
        const c = this.int(op.cond);
        def(op.results[0]!, c ? this.get(op.a) : this.get(op.b));
        return undefined;
      }
      case 'memref.alloc': {
        const tb = asTileBuf(op.type)!;
        def(op.results[0]!, this.newTile(tb, tb.vRow, tb.vCol, op));
        return undefined;
      }
      case 'pto.alloc_tile': {
        const tb = op.type as TileBufType;
        const vr = op.validRow ? this.int(op.validRow) : tb.vRow;
        const vc = op.validCol ? this.int(op.validCol) : tb.vCol;
        if (vr < 0 || vc < 0 || vr > tb.rows || vc > tb.cols) {
          throw badInput(
            `pto.alloc_tile: valid region ${vr}x${vc} is outside the ${tb.rows}x${tb.cols} tile`,
            {
              hint: 'valid dims must be between 0 and the physical rows/cols',
            },
          );
        }
        const addr = op.addr ? this.int(op.addr) : undefined;
        def(op.results[0]!, this.newTile(tb, vr, vc, op, undefined, addr));
        return undefined;
      }
      case 'pto.subset': {
        const src = this.get(op.source);
        if (src.kind !== 'tile') throw badInput('pto.subset: the source is not a tile buffer');
        const [r0, c0] = op.offsets.map((u) => this.int(u)) as [number, number];
        const [R, C] = op.sizes as [number, number];
        const p = src.type;
        if (r0 < 0 || c0 < 0 || r0 + R > p.rows || c0 + C > p.cols) {
          throw badInput(
            `pto.subset: the ${R}x${C} window at (${r0}, ${c0}) leaves the ${p.rows}x${p.cols} parent tile`,
            { hint: 'keep offsets + sizes inside the parent' },
          );
        }
        const [ir, ic] = innerShape(p);
        if (r0 % ir || c0 % ic) {
          throw badInput(
            `pto.subset: offsets (${r0}, ${c0}) of a boxed tile must be multiples of its ${ir}x${ic} box`,
          );
        }
        // the verifier's result type, with runtime valid dims from the parent's (periodic rule)
        const explicit = op.type.kind === 'tile_buf' && !typesEqual(op.type, p) ? op.type : undefined;
        const tb = explicit ?? subsetType(p, [R, C], [undefined, undefined]);
        const period = (pv: number, off: number, size: number) =>
          pv > 0 ? Math.min(size, pv - (off % pv)) : 0;
        const vr = explicit && explicit.vRow >= 0 ? explicit.vRow : period(src.validRow, r0, R);
        const vc = explicit && explicit.vCol >= 0 ? explicit.vCol : period(src.validCol, c0, C);
        const t: TileValue = {
          kind: 'tile',
          type: tb,
          validRow: vr,
          validCol: vc,
          id: this.nextId++,
          handle: undefined,
        };
        t.handle = this.hooks.subset?.(src, t, r0, c0);
        def(op.results[0]!, t);
        return undefined;
      }
      case 'pto.make_tensor_view': {
        const p = this.get(op.ptr);
        if (p.kind !== 'ptr') throw badInput('pto.make_tensor_view: the base is not a pointer argument');
        const shape = op.shape.map((u) => this.int(u));
        const strides = op.strides.map((u) => this.int(u));
        if (shape.some((d) => d < 0) || strides.some((s) => s < 0)) {
          throw badInput('pto.make_tensor_view: negative shape or stride', {
            hint: 'sizes and strides are ≥ 0',
          });
        }
        def(op.results[0]!, {
          kind: 'view',
          arg: p.arg,
          elem: p.elem,
          shape,
          strides,
          offset: p.offset ?? 0,
        });
        return undefined;
      }
      case 'memref.subview': {
        const s = this.get(op.source);
        if (s.kind !== 'view') throw badInput('memref.subview: the source is not a gm memref');
        const val = (x: (typeof op.offsets)[number]) => ('use' in x ? this.int(x.use) : x.value);
        const offs = op.offsets.map(val);
        const sizes = op.sizes.map(val);
        const steps = op.strides.map(val);
        for (let i = 0; i < s.shape.length; i++) {
          const o = offs[i]!;
          const n = sizes[i]!;
          const st = steps[i]!;
          if (o < 0 || n < 0 || st < 1 || (n > 0 && o + (n - 1) * st >= s.shape[i]!)) {
            throw badInput(
              `memref.subview: dimension ${i}: offset ${o}, size ${n}, stride ${st} leave the source's ${s.shape[i]}`,
              { hint: 'keep the subview inside the source memref (strides ≥ 1)' },
            );
          }
        }
        const t = op.type;
        if (t.kind === 'memref') {
          t.shape.forEach((d, i) => {
            if (d >= 0 && sizes[i] !== d) {
              throw badInput(
                `memref.subview: size ${sizes[i]} of dimension ${i} disagrees with the result type's ${d}`,
                {
                  hint: `make the sizes match ${printType(t)}`,
                },
              );
            }
          });
        }
        def(op.results[0]!, {
          kind: 'view',
          arg: s.arg,
          elem: s.elem,
          shape: sizes,
          strides: s.strides.map((x, i) => x * steps[i]!),
          offset: s.offset + offs.reduce((a, o, i) => a + o * s.strides[i]!, 0),
        });
        return undefined;
      }
      case 'pto.partition_view': {
        const s = this.get(op.source);
        if (s.kind !== 'view') throw badInput('pto.partition_view: the source is not a tensor view');
        const offs = op.offsets.map((u) => this.int(u));
        const sizes = op.sizes.map((u) => this.int(u));
        for (let i = 0; i < s.shape.length; i++) {
          if (offs[i]! < 0 || sizes[i]! < 0 || offs[i]! + sizes[i]! > s.shape[i]!) {
            throw badInput(
              `pto.partition_view: dimension ${i}: offset ${offs[i]} + size ${sizes[i]} exceeds the view's ${s.shape[i]}`,
              { hint: 'keep the partition inside the tensor view' },
            );
          }
        }
        const t = op.type;
        if (t.kind === 'partition_tensor_view') {
          t.shape.forEach((d, i) => {
            if (d >= 0 && sizes[i] !== undefined && sizes[i] !== d) {
              throw badInput(
                `pto.partition_view: size ${sizes[i]} of dimension ${i} disagrees with the result type's ${d}`,
                {
                  hint: `make the sizes match ${printType(t)}`,
                },
              );
            }
          });
        }
        const offset = s.offset + offs.reduce((a, o, i) => a + o * s.strides[i]!, 0);
        def(op.results[0]!, {
          kind: 'view',
          arg: s.arg,
          elem: s.elem,
          shape: sizes,
          strides: s.strides,
          offset,
        });
        return undefined;
      }
      case 'sync':
        this.hooks.sync?.(op, this.ctx(op));
        return undefined;
      case 'pto.query': {
        // one block is simulated; sub-blocks are the vector cores of a mixed run (else 0 of 1)
        const sub = op.name.includes('subblock');
        const v = op.name.endsWith('_num') ? (sub ? this.core.lanes : 1) : sub ? this.core.lane : 0;
        def(op.results[0]!, { kind: 'int', v, type: 'i64' });
        return undefined;
      }
      case 'pto.treshape': {
        const src = this.get(op.source);
        const tb = asTileBuf(op.type);
        if (src.kind !== 'tile' || !tb) throw badInput('pto.treshape: the source is not a tile');
        // the same buffer seen with another shape (fully valid in its new shape)
        const t: TileValue = {
          kind: 'tile',
          type: tb,
          validRow: tb.vRow < 0 ? tb.rows : tb.vRow,
          validCol: tb.vCol < 0 ? tb.cols : tb.vCol,
          id: src.id,
          handle: undefined,
        };
        t.handle = this.hooks.reshape ? this.hooks.reshape(src, t) : src.handle;
        def(op.results[0]!, t);
        return undefined;
      }
      case 'generic':
        this.generic(op);
        return undefined;
      case 'dps':
      case 'ssa':
      case 'asm': {
        if (op.kind === 'dps' && op.outs.length === 0) {
          // pto.tprint / pto.tsync: no destination
          const vals = op.ins.map((i) => this.get(i.use));
          if (op.name === 'pto.tprint') this.hooks.print?.(vals[0]!, this.ctx(op));
          return undefined;
        }
        const call = tileCall(op)!;
        const ins = call.ins.map((i, k): RtValue => {
          if (i.use) return this.get(i.use);
          return immediate(i.imm!, call.ins[k]?.type);
        });
        let out: RtValue;
        if (call.outIsResult) {
          const tb = call.out.type ? asTileBuf(call.out.type) : undefined;
          if (!tb) throw badInput(`${call.name}: the result %${call.out.use.name} has no tile type`);
          out = this.newTile(tb, tb.vRow, tb.vCol, op);
          def(call.out.use, out);
        } else out = this.get(call.out.use);
        if (out.kind !== 'tile' && out.kind !== 'view')
          throw badInput(`${call.name}: the destination is not a tile or view`);
        const extra = call.extraOuts.map((o) => this.get(o.use));
        this.hooks.tile(call, ins, out, this.ctx(op), extra);
        // `%r = pto.tmatmul ins(…) outs(%c) -> T`: the result is the destination buffer
        if (op.kind === 'dps' && op.results.length) def(op.results[0]!, out);
        return undefined;
      }
    }
  }

  depth = 0;
  /** `pto.declare_eventid_array` contents, by the array's SSA name. */
  eventArrays = new Map<string, number[]>();

  aliasOf(name: string): string {
    return name;
  }

  /** `func.call`: the callee runs on its own environment; its results bind the call's. */
  *call(op: CallOp): Gen<undefined> {
    const f = this.opts.module?.funcs.find((g) => g.name === op.callee);
    if (!f) throw badInput(`func.call: no function @${op.callee} in the module`, { location: op.pos });
    if (this.depth >= MAX_CALL_DEPTH) {
      throw unsupported(`func.call @${op.callee}: calls nest deeper than ${MAX_CALL_DEPTH}`, {
        location: op.pos,
        hint: 'PTOAS rejects recursive calls',
      });
    }
    const args = op.args.map((a) => this.get(a));
    const kind = kernelKind(f);
    if (this.shared.mixed && this.core.kind === undefined && kind !== undefined) {
      // a mixed kernel's entry: the callee runs on its own core(s), concurrently with the others
      // (PTOAS compiles the entry for the cube and the vector cores; each runs the calls of its kind)
      this.launch(f, args, kind);
      return undefined;
    }
    const saved = this.env;
    const savedFunc = this.func;
    this.env = new Map();
    this.func = f.name;
    f.args.forEach((a, i) => {
      this.env.set(a.use.name, args[i]!);
    });
    this.depth++;
    let ret: RtValue[];
    try {
      ret = (yield* this.run(f.body)) ?? [];
    } finally {
      this.depth--;
      this.env = saved;
      this.func = savedFunc;
    }
    op.results.forEach((r, i) => {
      this.env.set(r.name, ret[i]!);
    });
    return undefined;
  }

  /** Starts `f` on a new cube core, or on each vector sub-block core. */
  launch(f: Func, args: RtValue[], kind: 'cube' | 'vector'): void {
    const lanes = kind === 'vector' ? this.shared.vectorLanes : 1;
    for (let lane = 0; lane < lanes; lane++) {
      const c = new Exec(this.hooks, this.opts, this.shared, {
        id: this.shared.nextCore++,
        kind,
        lane,
        lanes,
      });
      c.func = f.name;
      f.args.forEach((a, i) => {
        c.env.set(a.use.name, args[i]!);
      });
      this.shared.launched.push({ ex: c, gen: c.run(f.body) });
    }
  }

  /** Named operands of a frontend init: `(gm_slot_buffer = %g : T, c2v_consumer_buf = %c : i32, …)`. */
  named(op: GenericOp): Map<string, Use> {
    const out = new Map<string, Use>();
    const g = op.items.find((it) => it.k === 'group' && it.open === '(');
    if (g?.k !== 'group') return out;
    let name: string | undefined;
    for (const it of g.items) {
      if (it.k === 'word') name = it.text;
      else if (it.k === 'value' && name !== undefined) {
        out.set(name, it.use);
        name = undefined;
      }
    }
    return out;
  }

  intAttr(op: GenericOp, name: string): number | undefined {
    const a = genericAttr(op, name);
    return a?.kind === 'int' ? Number(a.value) : undefined;
  }

  /** The pipe a transfer op uses, and its direction. */
  transfer(op: GenericOp): { p: PipeDesc; dir: PipeDir; tile?: Use } {
    const uses = genericParen(op)?.uses ?? [];
    const front = (dir: PipeDir, who: string) => {
      const p = this.front[dir];
      if (!p) {
        throw badInput(
          `${op.name}: no ${who}_initialize_pipe with the ${dir.toUpperCase()} direction ran before it`,
          {
            hint: `initialize the pipe in this function first (dir_mask ${dir === 'c2v' ? '1 or 3' : '2 or 3'})`,
          },
        );
      }
      return p;
    };
    switch (op.name) {
      case 'pto.tpush_to_aiv':
        return { p: front('c2v', 'aic'), dir: 'c2v', tile: uses[0] };
      case 'pto.tpush_to_aic':
        return { p: front('v2c', 'aiv'), dir: 'v2c', tile: uses[0] };
      case 'pto.tpop_from_aic':
        return { p: front('c2v', 'aiv'), dir: 'c2v' };
      case 'pto.tpop_from_aiv':
        return { p: front('v2c', 'aic'), dir: 'v2c' };
      case 'pto.tfree_from_aic':
        return { p: front('c2v', 'aiv'), dir: 'c2v' };
      case 'pto.tfree_from_aiv':
        return { p: front('v2c', 'aic'), dir: 'v2c' };
    }
    // pto.tpush / tpop (%tile, %pipe) and tfree (%pipe)
    const pu = op.name === 'pto.tfree' ? uses[0] : uses[1];
    const pv = pu ? this.get(pu) : undefined;
    const p = pv?.kind === 'int' && pv.type === '!pto.pipe' ? this.shared.pipes[pv.v] : undefined;
    if (!p) throw badInput(`${op.name}: the pipe operand is not a pipe an init op created`);
    let dir: PipeDir = p.dirMask === 2 ? 'v2c' : 'c2v';
    if (p.dirMask === 3) {
      // DIR_BOTH: the tile says which way (pto-isa TPush.hpp: Acc/Mat produce C2V, Vec V2C; a Vec
      // consumer pops C2V, a Mat one V2C); tfree: the vector core frees C2V, the cube V2C
      const t = op.name === 'pto.tfree' ? undefined : this.get(uses[0]!);
      const loc = t?.kind === 'tile' ? t.type.loc : undefined;
      if (op.name === 'pto.tpush') dir = loc === 'vec' ? 'v2c' : 'c2v';
      else if (op.name === 'pto.tpop') dir = loc === 'vec' ? 'c2v' : 'v2c';
      else dir = this.core.kind === 'cube' ? 'v2c' : 'c2v';
    }
    return { p, dir, tile: op.name === 'pto.tfree' ? undefined : uses[0] };
  }

  /**
   * The pipe ops (docs/pto-as.md, "Cube <-> vector pipes"): inits describe the FIFO; tpush waits for
   * a free slot and copies the tile in; tpop waits for an entry and copies it into a tile placed in
   * the consumer's local slot; tfree releases the oldest popped entry. A NO_SPLIT transfer on vector
   * sub-block 1 does nothing (pto-isa CPU simulator: `IsInactiveNoSplitVecLane`).
   */
  *pipeOp(op: GenericOp): Gen<void> {
    const hooks = this.hooks.pipe;
    if (!hooks) {
      throw unsupported(`${op.name}: the cube <-> vector pipes are simulated by \`axsim pto run\` only`, {
        location: op.pos,
      });
    }
    if (op.name.endsWith('initialize_pipe') || op.name.startsWith('pto.initialize_')) {
      this.initPipe(op);
      return;
    }
    const split = this.intAttr(op, 'split') ?? 0;
    const { p, dir, tile } = this.transfer(op);
    const inactive = this.core.kind === 'vector' && this.core.lane !== 0 && split === 0;
    const wait = (what: string): Wait => ({
      pos: op.pos,
      what: `${op.name} at ${op.pos.line}:${op.pos.col} ${what}`,
    });
    if (op.name.startsWith('pto.tpush')) {
      const src = this.get(tile!);
      if (src.kind !== 'tile') throw badInput(`${op.name}: the pushed value is not a tile`);
      if (inactive) return;
      while (!hooks.canPush(p, dir, this.core, split)) yield wait('waits for a free FIFO slot');
      hooks.push(p, dir, src, this.core, split);
      this.shared.events++;
      return;
    }
    if (op.name.startsWith('pto.tfree')) {
      if (inactive) return;
      hooks.free(p, dir, this.core);
      this.shared.events++;
      return;
    }
    // tpop: the destination type (frontend: the result; internal: the declared tile)
    let type: TileBufType | undefined;
    let target: string;
    if (tile) {
      const d = this.get(tile);
      if (d.kind !== 'tile') throw badInput(`${op.name}: the destination is not a tile`);
      type = d.type;
      target = tile.name;
    } else {
      const rt = genericResultTypes(op)[0];
      type = rt ? asTileBuf(rt) : undefined;
      if (!type || !op.results[0]) throw badInput(`${op.name}: the popped tile has no tile type`);
      target = op.results[0].name;
    }
    const dyn = tile ? [] : (genericParen(op)?.uses ?? []);
    const vr = dyn[0] ? this.int(dyn[0]) : type.vRow < 0 ? type.rows : type.vRow;
    const vc = dyn[1] ? this.int(dyn[1]) : type.vCol < 0 ? type.cols : type.vCol;
    if (vr < 0 || vc < 0 || vr > type.rows || vc > type.cols) {
      throw badInput(`${op.name}: valid region ${vr}x${vc} is outside the ${type.rows}x${type.cols} tile`);
    }
    if (!inactive)
      while (!hooks.canPop(p, dir, this.core)) yield wait('waits for a tile no core has pushed yet');
    // the popped tile lives in the consumer's local FIFO buffer, slot by slot (pto-isa TPipe:
    // C2V_CONSUMER_BUF / V2C_CONSUMER_BUF + (index % local slots) * slot size)
    const k = `${p.key}/${dir}`;
    const n = this.pops.get(k) ?? 0;
    this.pops.set(k, n + 1);
    const addr = (dir === 'c2v' ? p.c2vBuf : p.v2cBuf) + (n % p.localSlotNum) * p.slotSize;
    const t: TileValue = {
      kind: 'tile',
      type,
      validRow: vr,
      validCol: vc,
      id: this.nextId++,
      handle: undefined,
      addr,
      slot: true,
    };
    t.handle = this.hooks.alloc?.(t, op);
    this.env.set(target, t);
    if (inactive) return;
    hooks.pop(p, dir, t, this.core, split);
    this.shared.events++;
  }

  /** `*_initialize_pipe`: a pipe descriptor (frontend inits set the function's implicit pipes). */
  initPipe(op: GenericOp): void {
    const dirMask = this.intAttr(op, 'dir_mask') ?? 1;
    const slotSize = this.intAttr(op, 'slot_size') ?? 0;
    // PTOAS (docs/designs/ptoas-tpush-tpop-design.md §4.4): 8 slots one way, 4 for DIR_BOTH
    const slotNum = this.intAttr(op, 'slot_num') ?? (dirMask === 3 ? 4 : 8);
    const localSlotNum = this.intAttr(op, 'local_slot_num') ?? slotNum;
    const flag = this.intAttr(op, 'flag_base') ?? 0;
    const val = (u: Use | undefined) => {
      if (!u) return 0;
      const v = this.get(u);
      return v.kind === 'int' ? v.v : 0;
    };
    let c2vBuf = 0;
    let v2cBuf = 0;
    const frontend = op.name === 'pto.aic_initialize_pipe' || op.name === 'pto.aiv_initialize_pipe';
    if (frontend) {
      const nm = this.named(op);
      c2vBuf = val(nm.get('c2v_consumer_buf'));
      v2cBuf = val(nm.get('v2c_consumer_buf'));
    } else {
      // l2g2l: (gm, local[, peer local]); l2l: (local[, peer local]) — local is the C2V buffer
      // for DIR_C2V / DIR_BOTH, the V2C buffer for DIR_V2C (design doc §5.2, §6.3)
      const uses = genericParen(op)?.uses ?? [];
      const locals = op.name === 'pto.initialize_l2g2l_pipe' ? uses.slice(1) : uses;
      if (dirMask === 2) v2cBuf = val(locals[0]);
      else {
        c2vBuf = val(locals[0]);
        v2cBuf = val(locals[1]);
      }
    }
    const p: PipeDesc = {
      key: `${frontend ? 'frontend' : `flag${flag}`}/dir${dirMask}/${slotNum}x${slotSize}`,
      dirMask,
      slotNum,
      slotSize,
      localSlotNum: Math.max(1, localSlotNum),
      c2vBuf,
      v2cBuf,
      pos: op.pos,
    };
    if (slotSize <= 0) throw badInput(`${op.name}: slot_size must be a positive byte count`);
    if (frontend) {
      if (dirMask & 1) this.front.c2v = p;
      if (dirMask & 2) this.front.v2c = p;
    }
    const r = op.results[0];
    if (r) {
      this.shared.pipes.push(p);
      this.env.set(r.name, { kind: 'int', v: this.shared.pipes.length - 1, type: '!pto.pipe' });
    }
  }

  /** Ops in generic custom syntax (see verify-generic.ts for their rules). */
  generic(op: GenericOp): void {
    const operands = genericOperands(op);
    switch (op.name) {
      case 'pto.set_validshape': {
        const t = this.get(operands[0]!);
        const vr = this.int(operands[1]!);
        const vc = this.int(operands[2]!);
        if (t.kind !== 'tile') throw badInput('pto.set_validshape: the source is not a tile');
        if (vr < 0 || vc < 0 || vr > t.type.rows || vc > t.type.cols) {
          throw badInput(
            `pto.set_validshape: valid region ${vr}x${vc} is outside the ${t.type.rows}x${t.type.cols} tile`,
            { hint: 'valid dims must be between 0 and the physical rows/cols' },
          );
        }
        t.validRow = vr;
        t.validCol = vc;
        this.hooks.setValid?.(t);
        return;
      }
      case 'pto.bind_tile': {
        // `%v = pto.bind_tile %buf, %vr, %vc {config = #pto.tile_buf_config<…>} : M -> M`: the same
        // bytes seen as a tile of the result type with the config's layouts and valid shape %vr x %vc
        const src = this.get(operands[0]!);
        if (src.kind !== 'tile') throw badInput('pto.bind_tile: the source is not a tile buffer');
        const rt = genericResultTypes(op)[0];
        const base = (rt && asTileBuf(rt)) ?? src.type;
        const cfg = genericAttr(op, 'config');
        const text = cfg?.kind === 'raw' ? cfg.text : '';
        const num = (k: string) => {
          const m = new RegExp(`\\b${k}\\s*=\\s*(\\d+)`).exec(text);
          return m ? Number(m[1]) : undefined;
        };
        const bl = num('blayout');
        const sl = num('slayout');
        const tb: TileBufType = {
          ...base,
          blayout: bl === undefined ? base.blayout : bl === 1 ? 'col_major' : 'row_major',
          slayout:
            sl === undefined
              ? base.slayout
              : ((['none_box', 'row_major', 'col_major'] as const)[sl] ?? base.slayout),
          fractal: num('s_fractal_size') ?? base.fractal,
          pad: num('pad') ?? base.pad,
        };
        const vr = operands[1] ? this.int(operands[1]) : tb.rows;
        const vc = operands[2] ? this.int(operands[2]) : tb.cols;
        if (vr < 0 || vc < 0 || vr > tb.rows || vc > tb.cols) {
          throw badInput(
            `pto.bind_tile: valid region ${vr}x${vc} is outside the ${tb.rows}x${tb.cols} tile`,
            {
              hint: 'valid dims must be between 0 and the physical rows/cols',
            },
          );
        }
        const t: TileValue = {
          kind: 'tile',
          type: tb,
          validRow: vr,
          validCol: vc,
          id: src.id,
          handle: undefined,
        };
        t.handle = this.hooks.reshape ? this.hooks.reshape(src, t) : src.handle;
        if (op.results[0]) this.env.set(op.results[0].name, t);
        return;
      }
      case 'pto.tassign': {
        const src = this.get(operands[0]!);
        const addr = this.int(operands[1]!);
        if (src.kind !== 'tile') throw badInput('pto.tassign: the source is not a tile');
        // without a memory (the cost walker) the tile is only renamed: its storage does not matter
        const t: TileValue = { ...src, id: this.nextId++, handle: src.handle, addr };
        if (this.hooks.assign) t.handle = this.hooks.assign(src, addr, t);
        this.env.set(operands[0]!.name, t);
        if (op.results[0]) this.env.set(op.results[0].name, t);
        return;
      }
      case 'pto.reserve_buffer': {
        const loc = genericAttr(op, 'location');
        const size = genericAttr(op, 'size');
        const base = genericAttr(op, 'base');
        const name = genericAttr(op, 'name');
        const auto = genericAttr(op, 'auto');
        // without a memory (the cost walker) the reservation is only its base address
        const reserve = this.hooks.reserve ?? ((_l: string, _s: number, b0: number | undefined) => b0 ?? 0);
        const b = reserve(
          loc?.kind === 'enum' ? loc.words[0]! : 'vec',
          size?.kind === 'int' ? Number(size.value) : 0,
          auto?.kind === 'bool' && auto.value
            ? undefined
            : base?.kind === 'int'
              ? Number(base.value)
              : undefined,
          name?.kind === 'string' ? name.value : '',
          op.pos,
        );
        if (op.results[0]) this.env.set(op.results[0].name, { kind: 'int', v: b, type: 'i32' });
        if (name?.kind === 'string') this.shared.reserved.set(`${this.func}/${name.value}`, b);
        return;
      }
      case 'memref.dealloc':
        return;
      case 'pto.set_ffts':
        // the FFTS base address for cross-core flags: ordering only, which the scheduler provides
        return;
      case 'pto.build_async_session': {
        // the DMA session (scratch tile + workspace): only a handle in the functional model
        if (op.results[0])
          this.env.set(op.results[0].name, { kind: 'int', v: 0, type: '!pto.async_session' });
        return;
      }
      case 'pto.tput_async':
      case 'pto.tget_async': {
        // GM -> GM copy, dst first (pto-isa comm TPUT_ASYNC / TGET_ASYNC). With one device the
        // remote memory is this one; the copy is done when issued, as the CPU simulator's
        // TPUT_ASYNC_IMPL (`Copy_Data`), so a later wait / test finds it complete
        const uses = genericParen(op)?.uses ?? [];
        const dst = uses[0] ? this.get(uses[0]) : undefined;
        const src = uses[1] ? this.get(uses[1]) : undefined;
        if (dst?.kind !== 'view' || src?.kind !== 'view')
          throw badInput(`${op.name}: dst and src must be global memrefs / views`);
        if (!this.hooks.copy) throw unsupported(`${op.name} is simulated by \`axsim pto run\` only`);
        this.hooks.copy(dst, src, op.name);
        if (op.results[0]) this.env.set(op.results[0].name, { kind: 'int', v: 1, type: '!pto.async_event' });
        return;
      }
      case 'pto.wait_async_event':
      case 'pto.test_async_event':
        // every transfer completed when it was issued
        if (op.results[0]) this.env.set(op.results[0].name, { kind: 'int', v: 1, type: 'i1' });
        return;
      case 'memref.reinterpret_cast': {
        // `memref.reinterpret_cast %m to offset: [o], sizes: [..], strides: [..]`: a view of the same
        // global buffer with the given element offset (from the buffer's start), sizes and strides
        const src = this.get(operands[0]!);
        if (src.kind !== 'view' && src.kind !== 'ptr')
          throw badInput('memref.reinterpret_cast: the source is not a global memref');
        const lists = new Map<string, number[]>();
        let key: string | undefined;
        for (const it of op.items) {
          if (it.k === 'word') key = it.text;
          else if (it.k === 'group' && it.open === '[' && key !== undefined) {
            const xs: number[] = [];
            for (const x of it.items) {
              if (x.k === 'value') xs.push(this.int(x.use));
              else if (x.k === 'attr' && x.attr.kind === 'int') xs.push(Number(x.attr.value));
            }
            lists.set(key, xs);
            key = undefined;
          }
        }
        const sizes = lists.get('sizes');
        const strides = lists.get('strides');
        const off = lists.get('offset')?.[0] ?? 0;
        if (
          !sizes ||
          !strides ||
          sizes.length !== strides.length ||
          sizes.some((d) => d < 0) ||
          strides.some((d) => d < 0)
        )
          throw badInput(
            'memref.reinterpret_cast: needs offset: [o], sizes: [...] and strides: [...] of one rank',
          );
        if (op.results[0])
          this.env.set(op.results[0].name, {
            kind: 'view',
            arg: src.arg,
            elem: src.elem,
            shape: sizes,
            strides,
            offset: off + (src.kind === 'ptr' ? (src.offset ?? 0) : 0),
          });
        return;
      }
      case 'pto.declare_tile': {
        // a tile without storage yet: pto.tpop (or tassign) gives it its bytes
        const rt = genericResultTypes(op)[0];
        const tb = rt ? asTileBuf(rt) : undefined;
        if (!tb || !op.results[0]) throw badInput('pto.declare_tile: the result is not a tile type');
        this.env.set(op.results[0].name, {
          kind: 'tile',
          type: tb,
          validRow: tb.vRow < 0 ? tb.rows : tb.vRow,
          validCol: tb.vCol < 0 ? tb.cols : tb.vCol,
          id: this.nextId++,
          handle: undefined,
        });
        return;
      }
      case 'pto.import_reserved_buffer': {
        // the peer function's reserved FIFO buffer address. It locates the peer's consumer slots,
        // which the peer core places its popped tiles in itself; the importer only passes it on
        const name = genericAttr(op, 'name');
        const peer = genericAttr(op, 'peer_func');
        const key = `${peer?.kind === 'symbol' ? peer.name : ''}/${name?.kind === 'string' ? name.value : ''}`;
        let v = this.shared.reserved.get(key);
        if (v === undefined) {
          const pf = this.opts.module?.funcs.find((g) => peer?.kind === 'symbol' && g.name === peer.name);
          for (const o of pf ? allOps(pf.body) : []) {
            if (o.kind !== 'generic' || o.name !== 'pto.reserve_buffer') continue;
            const n = genericAttr(o, 'name');
            const b = genericAttr(o, 'base');
            if (
              n?.kind === 'string' &&
              name?.kind === 'string' &&
              n.value === name.value &&
              b?.kind === 'int'
            )
              v = Number(b.value);
          }
        }
        if (op.results[0]) this.env.set(op.results[0].name, { kind: 'int', v: v ?? 0, type: 'i32' });
        return;
      }
      case 'pto.addptr': {
        // `%q = pto.addptr %p, %off : <T> -> <T>`: the pointer `off` elements further on
        const p = this.get(operands[0]!);
        const off = this.int(operands[1]!);
        if (p.kind !== 'ptr') throw badInput('pto.addptr: the base is not a pointer');
        if (op.results[0]) this.env.set(op.results[0].name, { ...p, offset: (p.offset ?? 0) + off });
        return;
      }
      case 'pto.declare_eventid_array': {
        // event ids only order pipes, which the functional model runs in program order: the array
        // just holds the ids the program stores in it
        const r = op.results[0];
        if (r) {
          this.eventArrays.set(r.name, []);
          this.env.set(r.name, { kind: 'int', v: 0, type: 'eventid_array' });
        }
        return;
      }
      case 'pto.eventid_array_set': {
        const [arr, idx, val] = [operands[0], ...genericUses(op).slice(1)];
        const a = arr ? this.eventArrays.get(this.aliasOf(arr.name)) : undefined;
        if (a && idx && val) a[this.int(idx)] = this.int(val);
        return;
      }
      case 'pto.eventid_array_get': {
        const [arr, idx] = [operands[0], genericUses(op)[1]];
        const a = arr ? this.eventArrays.get(this.aliasOf(arr.name)) : undefined;
        const r = op.results[0];
        if (r)
          this.env.set(r.name, { kind: 'int', v: a && idx ? (a[this.int(idx)] ?? 0) : 0, type: 'index' });
        return;
      }
      case 'pto.set_flag_dyn':
      case 'pto.wait_flag_dyn':
        // ordering only (as set_flag / wait_flag): the functional model runs in program order
        return;
      default:
        throw unsupported(`${op.name} is not simulated by axsim`, {
          location: op.pos,
          hint: GENERIC_UNSIMULATED_HINT[op.name] ?? 'see docs/pto-as.md for the ops axsim runs',
        });
    }
  }

  ctx(op: Op): ExecContext {
    const n = this.visits.get(op) ?? 0;
    this.visits.set(op, n + 1);
    return { pos: op.pos, visit: n };
  }
}

function evalAffine(e: import('./ast.ts').AffineExpr, d: number[], s: number[]): number {
  switch (e.kind) {
    case 'const':
      return e.value;
    case 'dim':
      return d[e.index] ?? 0;
    case 'sym':
      return s[e.index] ?? 0;
    case 'neg':
      return -evalAffine(e.arg, d, s);
    case 'bin': {
      const a = evalAffine(e.lhs, d, s);
      const b = evalAffine(e.rhs, d, s);
      let r: number;
      if (e.op === '+') r = a + b;
      else if (e.op === '-') r = a - b;
      else if (e.op === '*') r = a * b;
      else {
        if (b <= 0)
          throw badInput(`affine ${e.op} by ${b}`, {
            hint: 'floordiv, ceildiv and mod need a positive divisor',
          });
        r =
          e.op === 'floordiv' ? Math.floor(a / b) : e.op === 'ceildiv' ? Math.ceil(a / b) : ((a % b) + b) % b;
      }
      if (!Number.isSafeInteger(r)) throw unsupported('affine.apply result exceeds the exact integer range');
      return r;
    }
  }
}

function immediate(a: import('./ast.ts').Attr, t: Type | undefined): RtValue {
  const tn = t && t.kind === 'scalar' ? t.name : undefined;
  if (a.kind === 'float') return { kind: 'float', v: Number(a.text), type: tn ?? 'f32' };
  if (a.kind === 'int') {
    if (tn && /^(f|bf)/.test(tn)) return { kind: 'float', v: Number(a.value), type: tn };
    return { kind: 'int', v: Number(a.value), type: tn ?? 'i32' };
  }
  throw badInput('unsupported immediate operand');
}

const F32 = new Float32Array(1);
function roundFloat(x: number, t: string): number {
  if (t === 'f32') {
    F32[0] = x;
    return F32[0];
  }
  return x;
}

function bitsOf(t: string): number {
  if (t === 'index') return 64;
  const m = /(\d+)$/.exec(t);
  return m ? Number(m[1]) : 64;
}

function wrapInt(x: number, t: string): number {
  const bits = bitsOf(t);
  if (bits >= 53) {
    if (!Number.isSafeInteger(x))
      throw unsupported(`integer ${x} exceeds the exact range of the scalar evaluator`);
    return x;
  }
  if (t === 'i1') return x & 1;
  const m = 2 ** bits;
  let r = ((x % m) + m) % m;
  if (!t.startsWith('u') && r >= m / 2) r -= m;
  return r;
}

function toUnsigned(x: number, t: string): number {
  const bits = bitsOf(t);
  return bits >= 53 ? x : x + 2 ** bits;
}

function binary(name: string, a: RtValue, b: RtValue, t: string): RtValue {
  if ((a.kind !== 'int' && a.kind !== 'float') || (b.kind !== 'int' && b.kind !== 'float')) {
    throw badInput(`arith.${name}: operands must be scalars`);
  }
  const x = a.v;
  const y = b.v;
  if (name.endsWith('f')) {
    let r: number;
    switch (name) {
      case 'addf':
        r = x + y;
        break;
      case 'subf':
        r = x - y;
        break;
      case 'mulf':
        r = x * y;
        break;
      case 'divf':
        r = x / y;
        break;
      case 'maximumf':
      case 'maxnumf':
        r = Math.max(x, y);
        break;
      default:
        r = Math.min(x, y);
    }
    return { kind: 'float', v: roundFloat(r, t), type: t };
  }
  const uns = name.endsWith('ui');
  const ux = uns && x < 0 ? toUnsigned(x, t) : x;
  const uy = uns && y < 0 ? toUnsigned(y, t) : y;
  const needNonZero = () => {
    if (y === 0) throw badInput(`arith.${name}: division by zero`, { hint: 'the divisor must be non-zero' });
  };
  let r: number;
  switch (name) {
    case 'addi':
      r = x + y;
      break;
    case 'subi':
      r = x - y;
      break;
    case 'muli':
      r = x * y;
      break;
    case 'divsi':
      needNonZero();
      r = Math.trunc(x / y);
      break;
    case 'divui':
      needNonZero();
      r = Math.trunc(ux / uy);
      break;
    case 'remsi':
      needNonZero();
      r = x % y;
      break;
    case 'remui':
      needNonZero();
      r = ux % uy;
      break;
    case 'ceildivsi':
    case 'ceildivui':
      needNonZero();
      r = Math.ceil(ux / uy);
      break;
    case 'floordivsi':
      needNonZero();
      r = Math.floor(x / y);
      break;
    case 'maxsi':
      r = Math.max(x, y);
      break;
    case 'minsi':
      r = Math.min(x, y);
      break;
    case 'maxui':
      r = ux >= uy ? x : y;
      break;
    case 'minui':
      r = ux <= uy ? x : y;
      break;
    case 'andi':
    case 'ori':
    case 'xori':
    case 'shli':
    case 'shrsi':
    case 'shrui': {
      const bits = bitsOf(t);
      if (bits > 32) throw unsupported(`arith.${name} on ${t} is not supported by the scalar evaluator`);
      if ((name === 'shli' || name.startsWith('shr')) && (y < 0 || y >= bits)) {
        throw badInput(`arith.${name}: shift amount ${y} is not below the width ${bits}`, {
          hint: 'MLIR makes this poison',
        });
      }
      r =
        name === 'andi'
          ? x & y
          : name === 'ori'
            ? x | y
            : name === 'xori'
              ? x ^ y
              : name === 'shli'
                ? x << y
                : name === 'shrsi'
                  ? x >> y
                  : (ux >>> 0) >>> y;
      break;
    }
    default:
      throw unsupported(`arith.${name} is not evaluated`);
  }
  if (!Number.isSafeInteger(r))
    throw unsupported(`arith.${name}: result exceeds the exact range of the scalar evaluator`);
  return { kind: 'int', v: wrapInt(r, t), type: t };
}

function compare(p: string, x: number, y: number, t: string): boolean {
  const u = (v: number) => (v < 0 ? toUnsigned(v, t) : v);
  switch (p) {
    case 'eq':
    case 'oeq':
    case 'ueq':
      return x === y;
    case 'ne':
    case 'one':
    case 'une':
      return x !== y;
    case 'slt':
    case 'olt':
    case 'ult':
      return p === 'ult' && !t.startsWith('f') ? u(x) < u(y) : x < y;
    case 'sle':
    case 'ole':
    case 'ule':
      return p === 'ule' && !t.startsWith('f') ? u(x) <= u(y) : x <= y;
    case 'sgt':
    case 'ogt':
    case 'ugt':
      return p === 'ugt' && !t.startsWith('f') ? u(x) > u(y) : x > y;
    case 'sge':
    case 'oge':
    case 'uge':
      return p === 'uge' && !t.startsWith('f') ? u(x) >= u(y) : x >= y;
    case 'true':
      return true;
    case 'false':
      return false;
    case 'ord':
      return !Number.isNaN(x) && !Number.isNaN(y);
    case 'uno':
      return Number.isNaN(x) || Number.isNaN(y);
    default:
      return false;
  }
}

/** Binds a function's arguments: scalars by value, pointers by name, tiles as fresh buffers. */
/** Why the generic ops axsim parses but does not run are not run. */
const GENERIC_UNSIMULATED_HINT: Record<string, string> = {};

export type ArgBinder = (arg: { name: string; type: Type }) => RtValue | undefined;

/** Finds a function by name (or the only/first one). */
export function findFunc(m: Module, name?: string): Func {
  if (name !== undefined) {
    const f = m.funcs.find((x) => x.name === name);
    if (!f)
      throw badInput(`no function @${name} in the program`, {
        hint: `functions: ${m.funcs.map((x) => `@${x.name}`).join(' ')}`,
      });
    return f;
  }
  if (m.funcs.length === 0) throw badInput('the program has no function');
  return m.funcs[0]!;
}

/**
 * Executes `f`. Pointer arguments become `ptr` values named after the argument, tile arguments
 * fresh buffers, scalar arguments come from `scalars` (default 0).
 */
export function execFunc(
  f: Func,
  hooks: ExecHooks,
  opts: ExecOptions & { scalars?: Record<string, number> } = {},
): { returned: RtValue[]; env: Map<string, RtValue> } {
  const ex = new Exec(hooks, opts);
  ex.func = f.name;
  for (const a of f.args) {
    const t = a.type;
    if (t.kind === 'ptr') ex.env.set(a.use.name, { kind: 'ptr', arg: a.use.name, elem: t.elem.name });
    else if (t.kind === 'vector') {
      // an MLIR vector argument (tmrgsort's executed list): memory bound to an array, like a gm memref
      const shape = [...t.shape];
      const strides = shape.map((_, i) => shape.slice(i + 1).reduce((x, y) => x * y, 1));
      ex.env.set(a.use.name, { kind: 'view', arg: a.use.name, elem: t.elem.name, shape, strides, offset: 0 });
    } else if (t.kind === 'memref' && t.space === 'gm') {
      // a global memref argument: a view over the argument's array, row-major unless its strided
      // layout gives static strides (and offset)
      const shape = t.shape;
      if (shape.some((d) => d < 0)) {
        throw unsupported(`argument %${a.use.name}: gm memrefs with dynamic dims cannot be bound`, {
          hint: 'give the memref a static shape',
        });
      }
      const rowMajor = shape.map((_, i) => shape.slice(i + 1).reduce((x, y) => x * y, 1));
      const lay = t.layout;
      if (lay && (lay.strides.some((x) => x < 0) || lay.offset < 0)) {
        throw unsupported(
          `argument %${a.use.name}: a strided layout with dynamic strides or offset cannot be bound`,
          {
            hint: 'bind a memref with static strides, or take a memref.subview of a static one',
          },
        );
      }
      ex.env.set(a.use.name, {
        kind: 'view',
        arg: a.use.name,
        elem: t.elem.name,
        shape: [...shape],
        strides: lay ? [...lay.strides] : rowMajor,
        offset: lay ? lay.offset : 0,
      });
    } else if (t.kind === 'scalar') {
      const v = opts.scalars?.[a.use.name] ?? 0;
      ex.env.set(
        a.use.name,
        isFloatType(t)
          ? { kind: 'float', v: roundFloat(v, t.name), type: t.name }
          : { kind: 'int', v: wrapInt(Math.trunc(v), t.name), type: t.name },
      );
    } else {
      const tb = asTileBuf(t);
      if (!tb) throw unsupported(`argument %${a.use.name} of type ${printType(t)} cannot be bound`);
      const tv = ex.newTile(
        tb,
        tb.vRow < 0 ? tb.rows : tb.vRow,
        tb.vCol < 0 ? tb.cols : tb.vCol,
        f.body[0] ??
          ({ kind: 'return', pos: f.pos, results: [], spelling: 'return', values: [], types: [] } as Op),
        a.use.name,
      );
      ex.env.set(a.use.name, tv);
    }
  }
  const returned = schedule(ex, ex.run(f.body)) ?? [];
  return { returned, env: ex.env };
}

/**
 * Runs the entry's core and every core it launches to completion, in program order within each
 * core: each runs until it finishes or waits on a pipe, then the next one (round robin, in launch
 * order). When a whole round moves no pipe and finishes no core, every remaining core waits on a
 * FIFO no other core will serve: the program deadlocks, and that is reported with each wait.
 */
function schedule(main: Exec, gen: Gen<RtValue[] | undefined>): RtValue[] | undefined {
  const sh = main.shared;
  const cores = [{ ex: main, gen }];
  const done = new Set<number>();
  const waits = new Map<number, Wait>();
  let result: RtValue[] | undefined;
  for (;;) {
    const before = sh.events;
    let moved = false;
    for (let i = 0; i < cores.length; i++) {
      if (done.has(i)) continue;
      const c = cores[i]!;
      main.hooks.enterCore?.(c.ex.core);
      const fresh = !waits.has(i);
      const r = c.gen.next();
      if (sh.launched.length) {
        cores.push(...sh.launched);
        sh.launched.length = 0;
      }
      if (r.done) {
        done.add(i);
        waits.delete(i);
        if (i === 0) result = r.value;
        moved = true;
      } else {
        waits.set(i, r.value);
        if (fresh) moved = true;
      }
    }
    if (done.size === cores.length) break;
    if (!moved && sh.events === before) {
      const list = [...waits.entries()].map(([i, w]) => `${coreName(cores[i]!.ex.core)}: ${w.what}`);
      throw badInput(`the program deadlocks: ${list.join('; ')}`, {
        location: [...waits.values()][0]!.pos,
        hint: 'every remaining core waits on a pipe that no other core pushes to or frees (a kernel run without its peer, or mismatched tpush / tpop counts)',
      });
    }
  }
  main.hooks.enterCore?.(main.core);
  return result;
}

function coreName(c: CoreInfo): string {
  if (c.kind === undefined) return 'the entry';
  return c.kind === 'cube' ? `cube core ${c.id}` : `vector core ${c.id} (sub-block ${c.lane})`;
}
