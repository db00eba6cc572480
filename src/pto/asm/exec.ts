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
import { genericAttr, genericOperands, genericResultTypes, genericUses } from './generic.ts';
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
}

export interface PtrValue {
  kind: 'ptr';
  /** Function argument name the pointer came from. */
  arg: string;
  elem: string;
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
}

export interface ExecContext {
  /** Position of the op being executed. */
  pos: Pos;
  /** How many times control has reached this op before (loop iterations). */
  visit: number;
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
  nextId = 1;
  visits = new Map<Op, number>();
  /** The condition the last `scf.condition` evaluated. */
  lastCond = false;

  constructor(
    readonly hooks: ExecHooks,
    readonly opts: ExecOptions,
  ) {}

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

  run(ops: Op[]): RtValue[] | undefined {
    for (const op of ops) {
      if (++this.steps > (this.opts.maxSteps ?? 1_000_000)) {
        throw unsupported(`the program executes more than ${this.opts.maxSteps ?? 1_000_000} operations`, {
          location: op.pos,
          hint: 'reduce the loop trip counts',
        });
      }
      try {
        const r = this.op(op);
        if (r) return r;
      } catch (e) {
        if (e instanceof AxsimError) throw this.at(op.pos, e);
        throw e;
      }
    }
    return undefined;
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
      case 'scf.while': {
        let carried = op.inits.map((a) => this.get(a.init));
        let results: RtValue[] = [];
        for (;;) {
          op.inits.forEach((a, k) => {
            def(a.arg, carried[k]!);
          });
          this.lastCond = false;
          const fwd = this.run(op.before) ?? [];
          if (!this.lastCond) {
            results = fwd;
            break;
          }
          op.afterArgs.forEach((a, k) => {
            def(a.use, fwd[k]!);
          });
          carried = this.run(op.after) ?? carried;
        }
        op.results.forEach((r, k) => {
          def(r, results[k]!);
        });
        return undefined;
      }
      case 'arith.constant': {
        const t = op.type.kind === 'scalar' ? op.type.name : 'index';
        const a = op.value;
        if (a.kind === 'raw') {
          throw unsupported(`arith.constant ${a.text}: vector constants are not simulated`, {
            hint: 'bind the vector as a function argument (an array) instead',
          });
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
          const y = this.run(op.body);
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
        const y = this.run(body);
        op.results.forEach((r, k) => {
          def(r, y![k]!);
        });
        return undefined;
      }
      case 'section':
        this.run(op.body);
        return undefined;
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
        def(op.results[0]!, { kind: 'view', arg: p.arg, elem: p.elem, shape, strides, offset: 0 });
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
      case 'pto.query':
        // one block with one sub-block is simulated: indices 0, counts 1
        def(op.results[0]!, { kind: 'int', v: op.name.endsWith('_num') ? 1 : 0, type: 'i64' });
        return undefined;
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
      case 'func.call':
        return this.call(op);
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
  call(op: CallOp): undefined {
    const f = this.opts.module?.funcs.find((g) => g.name === op.callee);
    if (!f) throw badInput(`func.call: no function @${op.callee} in the module`, { location: op.pos });
    if (this.depth >= MAX_CALL_DEPTH) {
      throw unsupported(`func.call @${op.callee}: calls nest deeper than ${MAX_CALL_DEPTH}`, {
        location: op.pos,
        hint: 'PTOAS rejects recursive calls',
      });
    }
    const args = op.args.map((a) => this.get(a));
    const saved = this.env;
    this.env = new Map();
    f.args.forEach((a, i) => {
      this.env.set(a.use.name, args[i]!);
    });
    this.depth++;
    let ret: RtValue[];
    try {
      ret = this.run(f.body) ?? [];
    } finally {
      this.depth--;
      this.env = saved;
    }
    op.results.forEach((r, i) => {
      this.env.set(r.name, ret[i]!);
    });
    return undefined;
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
        return;
      }
      case 'memref.dealloc':
        return;
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
const GENERIC_UNSIMULATED_HINT: Record<string, string> = {
  'pto.tpush': 'the tpush/tpop pipes move tiles between the cube and vector cores; axsim simulates one core',
  'pto.tpop': 'the tpush/tpop pipes move tiles between the cube and vector cores; axsim simulates one core',
};

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
  const returned = ex.run(f.body) ?? [];
  return { returned, env: ex.env };
}
