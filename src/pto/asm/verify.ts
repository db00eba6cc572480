/**
 * The PTO-AS verifier: SSA well-formedness, operand counts and kinds per op, element-type
 * agreement (spec 002: "Verifier rejects type mismatches between source and destination tiles"),
 * shape / valid-region / layout rules, and the selected profile's support table. Every diagnostic
 * has the line:col of the offending text, names the op and says what would fix it.
 */
import { AxsimError, type ErrorCategory, nearestName } from '../../errors.ts';
import type { DType } from '../dtype.ts';
import type {
  CallOp,
  DpsOp,
  Func,
  GenericOp,
  Module,
  Op,
  Pos,
  SubsetOp,
  TileBufType,
  Type,
  Use,
} from './ast.ts';
import { attrWord, type TileCall, tileCall } from './call.ts';
import { genericImpliedResults, genericResultTypes, genericUses } from './generic.ts';
import { OP_SIGS } from './ops.ts';
import { CMP_MODES, ROUND_MODES } from './parser.ts';
import { printType } from './printer.ts';
import { profileSupport } from './support.ts';
import {
  dtypeOfName,
  elemOf,
  innerShape,
  isFloatType,
  isGlobalMemref,
  isIntType,
  isTileLike,
  isViewLike,
  subsetType,
  tileShape,
  typesEqual,
} from './types.ts';
import { GENERIC_RESULTS_OPTIONAL, verifyGenericOp } from './verify-generic.ts';
import { type Arch, ptoasGenericRules, ptoasModuleRules, ptoasTileRules } from './verify-ptoas.ts';

export type Profile = 'cpu' | 'a2a3' | 'a5';

export interface VerifyOptions {
  file?: string;
  /** Apply this target profile's dtype/layout support table (none: syntax and typing only). */
  profile?: Profile;
  /**
   * The ptoas target arch: turns on ptoas's own per-arch verifier rules (verify-ptoas.ts); without
   * it only the arch-independent ones apply. (`axsim pto check` passes the module's
   * `pto.target_arch`.)
   */
  arch?: Arch;
  /** ptoas `--pto-level` (level3: every alloc_tile needs an address). */
  level?: 'level1' | 'level2' | 'level3';
}

export interface Diagnostic {
  category: ErrorCategory;
  message: string;
  hint: string;
  line: number;
  col: number;
}

/** Ops whose optional last tile input is PTOAS's scratch (`tmp`) operand. */
const SCRATCH_LAST = new Set([
  'TREM',
  'TCVT',
  'TREMS',
  'TRSQRT',
  'TSEL',
  'TROWEXPANDADD',
  'TROWEXPANDSUB',
  'TROWEXPANDMUL',
  'TROWEXPANDDIV',
  'TROWEXPANDMAX',
  'TROWEXPANDMIN',
  'TROWEXPANDEXPDIF',
]);

const I1: Type = { kind: 'scalar', name: 'i1' };
const INDEX: Type = { kind: 'scalar', name: 'index' };

class Verifier {
  readonly diags: Diagnostic[] = [];
  private types = new Map<string, Type>();
  private defs = new Map<string, Pos>();
  /** Integer constants (arith.constant and casts of them), for pto.subset's type inference. */
  private consts = new Map<string, number>();
  /** Names defined in each open region, innermost last (the function body is the first). */
  private scopes: string[][] = [];
  private func!: Func;
  module!: Module;

  constructor(private readonly opts: VerifyOptions) {}

  typeOf(name: string): Type | undefined {
    return this.types.get(name);
  }

  err(pos: Pos, message: string, hint: string, category: ErrorCategory = 'BadInput'): void {
    this.diags.push({ category, message, hint, line: pos.line, col: pos.col });
  }

  define(u: Use, t: Type, what: string): void {
    const prev = this.defs.get(u.name);
    if (prev) {
      this.err(
        u.pos,
        `redefinition of SSA value %${u.name} (${what}); first defined at ${prev.line}:${prev.col}`,
        'give the new value a fresh name',
      );
      return;
    }
    this.defs.set(u.name, u.pos);
    this.types.set(u.name, t);
    this.scopes[this.scopes.length - 1]?.push(u.name);
  }

  /**
   * MLIR scoping: a value defined inside a region is visible only there (and in regions nested in
   * it), so sibling regions may reuse a name — as the MLIR printer does (`%arg4` in two loops).
   */
  enterScope(): void {
    this.scopes.push([]);
  }

  exitScope(): void {
    for (const n of this.scopes.pop() ?? []) {
      this.defs.delete(n);
      this.types.delete(n);
      this.consts.delete(n);
    }
  }

  /** Checks a use; returns its type (undefined when it is not defined). */
  use(u: Use, opName: string, expected?: Type): Type | undefined {
    const t = this.types.get(u.name);
    if (!t) {
      const near = nearestName(u.name, this.types.keys());
      this.err(
        u.pos,
        `${opName}: use of undefined value %${u.name}`,
        near ? `did you mean %${near}?` : 'define it earlier (an argument, alloc_tile, arith.constant, …)',
      );
      return undefined;
    }
    if (expected && !typesEqual(t, expected)) {
      this.err(
        u.pos,
        `${opName}: type mismatch: %${u.name} has type ${printType(t)} but is used as ${printType(expected)}`,
        `write the type %${u.name} was defined with`,
      );
    }
    return t;
  }

  /** `func.call @f(…)`: the callee exists in this module and the types match its signature. */
  call(op: CallOp): void {
    op.args.forEach((a, i) => {
      this.use(a, op.spelling, op.argTypes[i]);
    });
    const f = this.module.funcs.find((g) => g.name === op.callee);
    if (!f) {
      const near = nearestName(
        op.callee,
        this.module.funcs.map((g) => g.name),
      );
      this.err(
        op.pos,
        `${op.spelling}: no function @${op.callee} in this module`,
        near ? `did you mean @${near}?` : 'define the callee in the same module',
      );
    } else {
      const sigOk =
        f.args.length === op.argTypes.length &&
        f.args.every((a, i) => typesEqual(a.type, op.argTypes[i]!)) &&
        f.resultTypes.length === op.resultTypes.length &&
        f.resultTypes.every((t, i) => typesEqual(t, op.resultTypes[i]!));
      if (!sigOk) {
        this.err(
          op.pos,
          `${op.spelling} @${op.callee}: the call type (${op.argTypes.map(printType).join(', ')}) -> (${op.resultTypes
            .map(printType)
            .join(', ')}) does not match the callee's signature (${f.args
            .map((a) => printType(a.type))
            .join(', ')}) -> (${f.resultTypes.map(printType).join(', ')})`,
          `write the types @${op.callee} is declared with`,
        );
      }
    }
    op.results.forEach((r, i) => {
      const t = op.resultTypes[i];
      if (t) this.define(r, t, op.spelling);
    });
  }

  dpsNoDest(op: DpsOp): void {
    const sig = OP_SIGS.get(op.name.slice(4));
    if (!sig || (sig.outs?.[0] ?? 1) > 0) {
      this.err(op.pos, `${op.name}: missing outs(…)`, 'write outs(%dst : type)');
      return;
    }
    if (op.ins.length === 0 || (op.name === 'pto.tprint' && op.ins.length !== 1)) {
      this.err(
        op.pos,
        `${op.name}: expects ${op.name === 'pto.tprint' ? 'one operand' : 'operands'} in ins(…)`,
        'see docs/pto-as.md',
      );
    }
    for (const i of op.ins) {
      const t = this.use(i.use, op.name, i.type);
      if (t && !isTileLike(t) && !isViewLike(t) && t.kind !== 'tensor_view') {
        this.err(
          i.use.pos,
          `${op.name}: operand %${i.use.name} must be a tile or a view, found ${printType(t)}`,
          'pass a tile buffer or a view',
        );
      }
    }
  }

  /** Ops in generic custom syntax: uses defined, results typed (by `-> T`), per-op rules. */
  generic(op: GenericOp): void {
    for (const u of genericUses(op)) this.use(u, op.name);
    ptoasGenericRules(this, op, this.arch);
    const written = genericResultTypes(op);
    const rts = written.length ? written : genericImpliedResults(op);
    verifyGenericOp(this, op);
    if (op.results.length > 0) {
      if (rts.length !== op.results.length) {
        this.err(
          op.pos,
          `${op.name}: binds ${op.results.length} result(s) but declares ${rts.length} result type(s)`,
          `write -> type after the operands of ${op.name}`,
        );
        return;
      }
      op.results.forEach((r, i) => {
        this.define(r, rts[i]!, op.name);
      });
    } else if (written.length > 0 && !GENERIC_RESULTS_OPTIONAL.has(op.name)) {
      this.err(op.pos, `${op.name}: declares a result type but binds no result`, `write %r = ${op.name} …`);
    }
  }

  get arch(): Arch | undefined {
    return this.opts.arch;
  }

  verifyModule(m: Module): void {
    this.module = m;
    ptoasModuleRules(this, m, { arch: this.arch, level: this.opts.level });
    const names = new Map<string, Pos>();
    for (const f of m.funcs) {
      const prev = names.get(f.name);
      if (prev) this.err(f.pos, `redefinition of function @${f.name}`, 'rename one of the functions');
      names.set(f.name, f.pos);
      this.verifyFunc(f);
    }
  }

  verifyFunc(f: Func): void {
    this.func = f;
    this.types = new Map();
    this.defs = new Map();
    this.consts = new Map();
    this.scopes = [[]];
    for (const a of f.args) this.define(a.use, a.type, 'function argument');
    this.region(f.body, 'func');
    const last = f.body[f.body.length - 1];
    if (last?.kind !== 'return') {
      this.err(
        last?.pos ?? f.pos,
        `func.func @${f.name}: the body must end with 'return'`,
        "add 'return' as the last operation",
      );
    }
  }

  region(ops: Op[], kind: 'func' | 'for' | 'if' | 'section' | 'before', yieldTypes: Type[] = []): void {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const isLast = i === ops.length - 1;
      if (op.kind === 'return' && (kind !== 'func' || !isLast)) {
        this.err(
          op.pos,
          `'${op.spelling}' must be the last operation of the function body`,
          kind === 'func' ? 'remove the operations after it' : 'use scf.yield inside scf regions',
        );
      }
      if (op.kind === 'scf.condition') {
        if (kind !== 'before' || !isLast) {
          this.err(
            op.pos,
            "'scf.condition' must end the condition region of scf.while",
            'move it to the end of the region before do { … }',
          );
        } else if (
          op.types.length !== yieldTypes.length ||
          op.types.some((t, j) => !typesEqual(t, yieldTypes[j]!))
        ) {
          this.err(
            op.pos,
            `scf.condition forwards (${op.types.map(printType).join(', ')}) but the loop returns (${yieldTypes.map(printType).join(', ')})`,
            'forward one value of each result type',
          );
        }
      }
      if (op.kind === 'scf.yield') {
        if ((kind !== 'for' && kind !== 'if') || !isLast) {
          this.err(
            op.pos,
            "'scf.yield' must end an scf.for / scf.if region",
            'move it to the end of the loop or branch body',
          );
        } else if (
          op.types.length !== yieldTypes.length ||
          op.types.some((t, j) => !typesEqual(t, yieldTypes[j]!))
        ) {
          this.err(
            op.pos,
            `scf.yield yields (${op.types.map(printType).join(', ')}) but the region returns (${yieldTypes.map(printType).join(', ')})`,
            'yield one value of each result type',
          );
        }
      }
      this.op(op);
    }
    if (kind === 'before') {
      const last = ops[ops.length - 1];
      if (last?.kind !== 'scf.condition') {
        this.err(
          last?.pos ?? { line: 1, col: 1 },
          'the condition region of scf.while must end with scf.condition',
          'add scf.condition(%c) …',
        );
      }
    }
    if ((kind === 'for' || kind === 'if') && yieldTypes.length > 0) {
      const last = ops[ops.length - 1];
      if (last?.kind !== 'scf.yield') {
        this.err(
          last?.pos ?? { line: 1, col: 1 },
          'a region with results must end with scf.yield',
          'add scf.yield %v : T',
        );
      }
    }
  }

  op(op: Op): void {
    switch (op.kind) {
      case 'return': {
        op.values.forEach((v, i) => {
          this.use(v, op.spelling, op.types[i]);
        });
        const rt = this.func.resultTypes;
        if (op.types.length !== rt.length || op.types.some((t, i) => !typesEqual(t, rt[i]!))) {
          this.err(
            op.pos,
            `${op.spelling}: returns (${op.types.map(printType).join(', ')}) but @${this.func.name} declares (${rt.map(printType).join(', ')})`,
            'match the function signature',
          );
        }
        return;
      }
      case 'scf.condition':
        this.use(op.cond, 'scf.condition', I1);
        op.values.forEach((v, i) => {
          this.use(v, 'scf.condition', op.types[i]);
        });
        return;
      case 'scf.while': {
        op.inits.forEach((a, i) => {
          this.use(a.init, 'scf.while', op.argTypes[i]);
        });
        this.enterScope();
        op.inits.forEach((a, i) => {
          this.define(a.arg, op.argTypes[i]!, 'scf.while argument');
        });
        this.region(op.before, 'before', op.resultTypes);
        this.exitScope();
        if (
          op.afterArgs.length !== op.resultTypes.length ||
          op.afterArgs.some((a, i) => !typesEqual(a.type, op.resultTypes[i]!))
        ) {
          this.err(
            op.pos,
            "scf.while: the 'do' block arguments must match the forwarded values' types",
            `write ^bb0(${op.resultTypes.map((t, i) => `%x${i}: ${printType(t)}`).join(', ')}):`,
          );
        }
        this.enterScope();
        for (const a of op.afterArgs) this.define(a.use, a.type, 'block argument');
        this.region(op.after, 'for', op.argTypes);
        this.exitScope();
        op.results.forEach((r, i) => {
          this.define(r, op.resultTypes[i]!, 'scf.while result');
        });
        return;
      }
      case 'scf.yield':
        op.values.forEach((v, i) => {
          this.use(v, 'scf.yield', op.types[i]);
        });
        return;
      case 'arith.constant': {
        const t = op.type;
        if (op.value.kind === 'int' && t.kind === 'scalar') {
          if (isFloatType(t)) {
            // MLIR requires a float literal for float constants
            this.err(
              op.pos,
              `arith.constant: integer literal for float type ${t.name}`,
              `write ${op.value.value}.0 : ${t.name}`,
            );
          } else {
            const bits = t.name === 'index' ? 64 : Number(t.name.replace(/^(u|s)?i/, ''));
            const v = op.value.value;
            if (bits < 64 && (v >= 1n << BigInt(bits) || v < -(1n << BigInt(bits - 1)))) {
              this.err(
                op.pos,
                `arith.constant: ${v} does not fit in ${t.name}`,
                'use a wider type or a smaller value',
              );
            }
          }
        }
        if (op.value.kind === 'bool' && !(t.kind === 'scalar' && t.name === 'i1')) {
          this.err(op.pos, 'arith.constant: true/false need type i1', 'write arith.constant true');
        }
        this.define(op.results[0]!, t, 'arith.constant');
        if (op.value.kind === 'int' && !isFloatType(t))
          this.consts.set(op.results[0]!.name, Number(op.value.value));
        return;
      }
      case 'arith.binary': {
        this.use(op.lhs, op.name, op.type);
        this.use(op.rhs, op.name, op.type);
        const isF = op.name.endsWith('f') && !op.name.endsWith('ui');
        if (isF ? !isFloatType(op.type) : !isIntType(op.type)) {
          this.err(
            op.pos,
            `${op.name}: operand type ${printType(op.type)} is not ${isF ? 'a float' : 'an integer or index'} type`,
            isF ? 'use the i-suffixed op for integers' : 'use the f-suffixed op for floats',
          );
        }
        this.define(op.results[0]!, op.type, op.name);
        return;
      }
      case 'affine.apply':
        if (op.dims.length !== op.dimCount || op.syms.length !== op.symCount) {
          this.err(
            op.pos,
            `affine.apply: the map takes ${op.dimCount} dimension(s) and ${op.symCount} symbol(s), got ${op.dims.length} and ${op.syms.length}`,
            'pass one operand per d… in (…) and per s… in […]',
          );
        }
        for (const u of [...op.dims, ...op.syms]) this.use(u, 'affine.apply', INDEX);
        this.define(op.results[0]!, INDEX, 'affine.apply');
        return;
      case 'arith.cast':
        this.use(op.operand, op.name, op.from);
        if (op.from.kind !== 'scalar' || op.to.kind !== 'scalar') {
          this.err(op.pos, `${op.name}: casts take scalar types`, 'e.g. arith.index_cast %x : i32 to index');
        } else if (
          (op.name === 'arith.index_cast' || op.name === 'arith.index_castui') &&
          (op.from.name === 'index') === (op.to.name === 'index')
        ) {
          this.err(
            op.pos,
            `${op.name}: exactly one side must be index`,
            'cast between index and an integer type',
          );
        }
        this.define(op.results[0]!, op.to, op.name);
        {
          // PTOAS getConstIndex looks through index_cast / ext / trunc
          const c = this.consts.get(op.operand.name);
          if (c !== undefined && !isFloatType(op.to)) this.consts.set(op.results[0]!.name, c);
        }
        return;
      case 'arith.cmp':
        this.use(op.lhs, op.name, op.type);
        this.use(op.rhs, op.name, op.type);
        if (op.name === 'arith.cmpi' ? !isIntType(op.type) : !isFloatType(op.type)) {
          this.err(
            op.pos,
            `${op.name}: wrong operand type ${printType(op.type)}`,
            op.name === 'arith.cmpi'
              ? 'cmpi compares integers/index; use cmpf for floats'
              : 'cmpf compares floats',
          );
        }
        this.define(op.results[0]!, I1, op.name);
        return;
      case 'arith.select':
        this.use(op.cond, 'arith.select', I1);
        this.use(op.a, 'arith.select', op.type);
        this.use(op.b, 'arith.select', op.type);
        this.define(op.results[0]!, op.type, 'arith.select');
        return;
      case 'scf.for': {
        const lbT = this.use(op.lb, 'scf.for');
        this.use(op.ub, 'scf.for', lbT);
        this.use(op.step, 'scf.for', lbT);
        if (lbT && !isIntType(lbT))
          this.err(
            op.lb.pos,
            'scf.for: bounds must be index or integer values',
            'use arith.constant … : index',
          );
        op.iterArgs.forEach((a, i) => {
          this.use(a.init, 'scf.for iter_args', op.iterTypes[i]);
        });
        this.enterScope();
        this.define(op.iv, lbT ?? INDEX, 'loop variable');
        op.iterArgs.forEach((a, i) => {
          this.define(a.arg, op.iterTypes[i]!, 'iteration argument');
        });
        this.region(op.body, 'for', op.iterTypes);
        this.exitScope();
        op.results.forEach((r, i) => {
          this.define(r, op.iterTypes[i]!, 'scf.for result');
        });
        return;
      }
      case 'scf.if':
        this.use(op.cond, 'scf.if', I1);
        this.enterScope();
        this.region(op.thenOps, 'if', op.resultTypes);
        this.exitScope();
        if (op.elseOps) {
          this.enterScope();
          this.region(op.elseOps, 'if', op.resultTypes);
          this.exitScope();
        } else if (op.resultTypes.length > 0)
          this.err(op.pos, 'scf.if with results needs an else region', 'add else { scf.yield … }');
        op.results.forEach((r, i) => {
          this.define(r, op.resultTypes[i]!, 'scf.if result');
        });
        return;
      case 'section':
        this.enterScope();
        this.region(op.body, 'section');
        this.exitScope();
        return;
      case 'memref.subview': {
        const st = this.use(op.source, 'memref.subview');
        const rt = op.type;
        const idx = (xs: typeof op.offsets) => {
          for (const x of xs) if ('use' in x) this.use(x.use, 'memref.subview', INDEX);
        };
        idx(op.offsets);
        idx(op.sizes);
        idx(op.strides);
        if (st && !typesEqual(st, op.sourceType)) {
          this.err(
            op.source.pos,
            `memref.subview: type mismatch: %${op.source.name} has type ${printType(st)} but is used as ${printType(op.sourceType)}`,
            'write the source type as defined',
          );
        } else if (op.sourceType.kind !== 'memref' || !isGlobalMemref(op.sourceType)) {
          this.err(
            op.pos,
            'memref.subview: the source must be a gm memref',
            'take subviews of global memrefs',
          );
        } else if (
          rt.kind !== 'memref' ||
          rt.space !== op.sourceType.space ||
          rt.elem.name !== op.sourceType.elem.name
        ) {
          this.err(
            op.pos,
            `memref.subview: the result ${printType(rt)} must be a memref of the source's element type and address space`,
            `write to memref<…x${op.sourceType.elem.name}, strided<[…], offset: ?>, #pto.address_space<gm>>`,
          );
        } else {
          const rank = op.sourceType.shape.length;
          if (op.offsets.length !== rank || op.sizes.length !== rank || op.strides.length !== rank) {
            this.err(
              op.pos,
              `memref.subview: a rank-${rank} source needs ${rank} offsets, sizes and strides`,
              'give one of each per source dim',
            );
          } else if (rt.shape.length !== rank) {
            this.err(
              op.pos,
              `memref.subview: the result must have rank ${rank}`,
              'rank-reducing subviews are not supported',
            );
          } else {
            op.sizes.forEach((x, i) => {
              const d = rt.shape[i]!;
              if ('value' in x && d >= 0 && d !== x.value) {
                this.err(
                  op.pos,
                  `memref.subview: size ${x.value} of dim ${i} disagrees with the result type's ${d}`,
                  'make the result shape equal the static sizes',
                );
              }
            });
          }
        }
        this.define(op.results[0]!, rt, 'memref.subview');
        return;
      }
      case 'memref.alloc':
        this.define(op.results[0]!, op.type, 'memref.alloc');
        return;
      case 'pto.make_tensor_view': {
        const pt = this.use(op.ptr, 'pto.make_tensor_view');
        if (op.type.kind !== 'tensor_view') return;
        if (pt && pt.kind !== 'ptr' && pt.kind !== 'memref') {
          this.err(
            op.ptr.pos,
            `pto.make_tensor_view: %${op.ptr.name} is ${printType(pt)}, not a pointer`,
            'pass a !pto.ptr<…> function argument',
          );
        } else if (pt && elemOf(pt).name !== op.type.elem.name) {
          this.err(
            op.ptr.pos,
            `pto.make_tensor_view: type mismatch: pointer element ${elemOf(pt).name} vs view element ${op.type.elem.name}`,
            'use the same element type',
          );
        }
        const rank = op.type.shape.length;
        if (op.shape.length !== rank || op.strides.length !== rank) {
          this.err(
            op.pos,
            `pto.make_tensor_view: a rank-${rank} view needs ${rank} shape and ${rank} stride operands (got ${op.shape.length} and ${op.strides.length})`,
            'give one size and one stride per dimension',
          );
        }
        for (const u of [...op.shape, ...op.strides]) this.use(u, 'pto.make_tensor_view', INDEX);
        this.define(op.results[0]!, op.type, 'pto.make_tensor_view');
        return;
      }
      case 'pto.partition_view': {
        this.use(op.source, 'pto.partition_view', op.sourceType);
        if (op.sourceType.kind !== 'tensor_view') {
          this.err(
            op.pos,
            'pto.partition_view: the source must be a !pto.tensor_view',
            'partition the result of pto.make_tensor_view',
          );
        } else if (op.type.kind === 'partition_tensor_view') {
          if (op.sourceType.elem.name !== op.type.elem.name) {
            this.err(
              op.pos,
              `pto.partition_view: type mismatch: ${op.sourceType.elem.name} view partitioned as ${op.type.elem.name}`,
              'keep the element type',
            );
          }
          const rank = op.sourceType.shape.length;
          if (op.offsets.length !== rank || op.sizes.length !== rank) {
            this.err(
              op.pos,
              `pto.partition_view: a rank-${rank} view needs ${rank} offsets and ${rank} sizes`,
              'give one offset and one size per dimension',
            );
          }
        }
        for (const u of [...op.offsets, ...op.sizes]) this.use(u, 'pto.partition_view', INDEX);
        this.define(op.results[0]!, op.type, 'pto.partition_view');
        return;
      }
      case 'pto.alloc_tile': {
        const t = op.type;
        if (op.addr) this.use(op.addr, 'pto.alloc_tile');
        if (t.kind === 'tile_buf') {
          this.tileBufType(t, op.pos, 'pto.alloc_tile');
          for (const [u, dyn, key] of [
            [op.validRow, t.vRow < 0, 'valid_row'],
            [op.validCol, t.vCol < 0, 'valid_col'],
          ] as const) {
            if (u) this.use(u, 'pto.alloc_tile', INDEX);
            if (dyn && !u)
              this.err(
                op.pos,
                `pto.alloc_tile: the type has a dynamic ${key === 'valid_row' ? 'v_row' : 'v_col'} (?) but no ${key} operand`,
                `write pto.alloc_tile ${key} = %n : …`,
              );
            if (!dyn && u)
              this.err(
                u.pos,
                `pto.alloc_tile: ${key} given but the type's ${key === 'valid_row' ? 'v_row' : 'v_col'} is static`,
                `write ${key === 'valid_row' ? 'v_row' : 'v_col'}=? in the type, or drop ${key}`,
              );
          }
        }
        this.define(op.results[0]!, t, 'pto.alloc_tile');
        return;
      }
      case 'pto.subset': {
        const st = this.use(op.source, 'pto.subset');
        for (const u of op.offsets) this.use(u, 'pto.subset', INDEX);
        const result = this.subset(op, st);
        this.define(op.results[0]!, result ?? op.type, 'pto.subset');
        return;
      }
      case 'sync':
        return;
      case 'pto.query':
        this.define(op.results[0]!, { kind: 'scalar', name: 'i64' }, op.name);
        return;
      case 'pto.treshape': {
        const st = this.use(op.source, 'pto.treshape', op.sourceType);
        const a = tileShape(op.sourceType);
        const b = tileShape(op.type);
        if (!a || !b || !isTileLike(op.type)) {
          this.err(
            op.pos,
            'pto.treshape: source and result must be tiles',
            'reshape a !pto.tile_buf into another',
          );
        } else if (st) {
          if (elemOf(op.sourceType).name !== elemOf(op.type).name) {
            this.err(
              op.pos,
              `pto.treshape: type mismatch: ${elemOf(op.sourceType).name} reshaped as ${elemOf(op.type).name}`,
              'keep the element type',
            );
          } else if (a.rows * a.cols !== b.rows * b.cols) {
            this.err(
              op.pos,
              `pto.treshape: ${a.rows}x${a.cols} and ${b.rows}x${b.cols} hold different element counts`,
              'the reshaped tile must cover the same buffer',
            );
          }
        }
        this.define(op.results[0]!, op.type, 'pto.treshape');
        return;
      }
      case 'func.call':
        this.call(op);
        return;
      case 'generic':
        this.generic(op);
        return;
      case 'dps':
      case 'ssa':
      case 'asm': {
        if (op.kind === 'dps' && op.outs.length === 0) {
          // pto.tprint / pto.tsync: inputs only
          this.dpsNoDest(op);
          return;
        }
        const call = tileCall(op);
        if (!call) {
          this.err(
            op.pos,
            'assembly-form op without a destination operand',
            'write tadd %dst, %src0, %src1 : T',
          );
          return;
        }
        this.tileOp(call);
        return;
      }
    }
  }

  /**
   * `pto.subset %src[o0, o1] sizes [r, c] : T`. As in PTOAS, T is the source's type and the result
   * type is inferred (`subsetType`); a T whose rows×cols equal the sizes is also accepted and taken as
   * the result type (axsim's earlier reading). Boxed sources get PTOAS's alignment rules.
   */
  subset(op: SubsetOp, st: Type | undefined): TileBufType | undefined {
    const name = 'pto.subset';
    if (op.sizes.length !== 2 || op.offsets.length !== 2) {
      this.err(
        op.pos,
        `${name}: expects 2 offsets and 2 sizes`,
        'write %s = pto.subset %t[%i, %j] sizes [R, C] : T',
      );
      return undefined;
    }
    if (!st) return undefined;
    if (st.kind !== 'tile_buf') {
      this.err(
        op.source.pos,
        `${name}: the source must be a !pto.tile_buf`,
        'take a subset of an allocated tile',
      );
      return undefined;
    }
    const [r, c] = op.sizes as [number, number];
    if (r <= 0 || c <= 0 || r > st.rows || c > st.cols) {
      this.err(
        op.pos,
        `${name}: sizes [${r}, ${c}] must be positive and fit the ${st.rows}x${st.cols} source`,
        'choose sizes inside the parent tile',
      );
      return undefined;
    }
    const offs = op.offsets.map((u) => this.consts.get(u.name));
    for (let i = 0; i < 2; i++) {
      const o = offs[i];
      if (o !== undefined && (o < 0 || o + op.sizes[i]! > (i === 0 ? st.rows : st.cols)))
        this.err(
          op.offsets[i]!.pos,
          `${name}: offset ${o} + size ${op.sizes[i]} leaves the source's ${i === 0 ? st.rows : st.cols} ${i === 0 ? 'rows' : 'cols'}`,
          'keep the subset inside the parent tile',
        );
    }
    let result = subsetType(st, op.sizes, offs);
    const t = op.type;
    if (!typesEqual(t, st)) {
      if (
        t.kind === 'tile_buf' &&
        t.rows === r &&
        t.cols === c &&
        t.dtype.name === st.dtype.name &&
        t.loc === st.loc
      )
        result = t;
      else {
        this.err(
          op.pos,
          `${name}: the type after ':' is the source's type (PTOAS), but %${op.source.name} has type ${printType(st)}`,
          `write : ${printType(st)}`,
        );
        return undefined;
      }
    }
    if (st.slayout !== 'none_box') {
      const [ir, ic] = innerShape(st);
      const bad = (msg: string, hint: string) => this.err(op.pos, `${name}: ${msg}`, hint);
      if (r % ir || c % ic)
        bad(`boxed subset sizes must be multiples of the ${ir}x${ic} box`, 'align the sizes');
      if ((offs[0] ?? 0) % ir || (offs[1] ?? 0) % ic)
        bad(`boxed subset offsets must be multiples of the ${ir}x${ic} box`, 'align the offsets');
      if (st.blayout === 'row_major' && (c !== st.cols || offs[1] !== 0))
        bad(
          'a boxed RowMajor subset keeps all columns at a constant column offset 0',
          `write sizes [${r}, ${st.cols}]`,
        );
      if (st.blayout === 'col_major' && (r !== st.rows || offs[0] !== 0))
        bad(
          'a boxed ColMajor subset keeps all rows at a constant row offset 0',
          `write sizes [${st.rows}, ${c}]`,
        );
    }
    return result;
  }

  tileBufType(t: Type, pos: Pos, opName: string): void {
    if (t.kind !== 'tile_buf') return;
    if (t.vRow > t.rows || t.vCol > t.cols) {
      this.err(
        pos,
        `${opName}: valid region ${t.vRow}x${t.vCol} exceeds the physical tile ${t.rows}x${t.cols}`,
        'v_row ≤ rows and v_col ≤ cols',
      );
    }
    if (t.slayout !== 'none_box' && t.fractal !== 512 && t.fractal !== 1024) {
      this.err(
        pos,
        `${opName}: boxed tile with fractal=${t.fractal}`,
        'boxed layouts use fractal=512 (1024 for acc)',
      );
    }
    if (!dtypeOfName(t.dtype.name) && t.dtype.name !== 'i1') {
      this.err(
        pos,
        `${opName}: element type ${t.dtype.name} is not a PTO tile type`,
        'tiles hold f32 f16 bf16 i8 i16 i32 i64 ui8 ui16 ui32 ui64 or fp8',
        'Unsupported',
      );
    }
  }

  tileOp(c: TileCall): void {
    const { sig, name } = c;
    const pos = c.op.pos;
    const errorsBefore = this.diags.length;
    // operand count
    let min = 0;
    let max = 0;
    for (const k of sig.ins) {
      if (k === 'T*' || k === 'A*') max = Number.POSITIVE_INFINITY;
      else {
        max++;
        if (!k.endsWith('?')) min++;
      }
    }
    if (c.ins.length < min || c.ins.length > max) {
      const want = min === max ? `${min}` : `${min}..${max}`;
      this.err(
        pos,
        `${name}: expects ${want} input operand(s) (${sig.ins.join(', ')}), got ${c.ins.length}`,
        `see the operand order of ${name} in docs/pto-as.md`,
      );
      return;
    }
    if (c.op.kind === 'dps') {
      const [omin, omax] = sig.outs ?? [1, 1];
      const n = c.op.outs.length;
      if (n < omin || n > omax) {
        this.err(
          pos,
          `${name}: expects ${omin === omax ? omin : `${omin}..${omax}`} outs operand(s), got ${n}`,
          omax === 1 ? 'write outs(%dst : type)' : `see the forms of ${name} in docs/pto-as.md`,
        );
        return;
      }
    }
    for (const o of c.extraOuts) this.use(o.use, name, o.type);
    // resolve types and check kinds
    const types: (Type | undefined)[] = c.ins.map((i) => {
      if (i.use) return this.use(i.use, name, i.type);
      return i.type;
    });
    let outType: Type | undefined;
    if (c.outIsResult) {
      outType = c.out.type;
      if (outType) this.define(c.out.use, outType, name);
      else {
        this.err(
          pos,
          `${name}: the result %${c.out.use.name} needs a type`,
          `write %${c.out.use.name} = ${name} … : !pto.tile<…>`,
        );
        return;
      }
    } else {
      outType = this.use(c.out.use, name, c.out.type);
    }
    if (sig.insn === 'TDIVS') {
      const tiles = types.filter((t) => t && isTileLike(t)).length;
      if (tiles !== 1 || types.length !== 2) {
        this.err(
          pos,
          `${name}: exactly one input must be a tile and the other a scalar`,
          `write ins(%tile, %scalar : tile_buf, f32) or ins(%scalar, %tile : f32, tile_buf)`,
        );
      }
      if (c.op.kind === 'dps' && outType && outType.kind !== 'tile_buf') {
        this.err(
          c.out.use.pos,
          `${name}: outs must be a !pto.tile_buf, found ${printType(outType)}`,
          'write the destination as a tile buffer',
        );
      }
    } else {
      c.ins.forEach((inp, i) => {
        const k0 = sig.ins[Math.min(i, sig.ins.length - 1)]!;
        const k = k0 === 'S?' ? 'S' : k0 === 'TS?' ? 'TS' : k0;
        const t = types[i];
        if (!t && inp.imm) {
          if (k !== 'S')
            this.err(
              inp.pos,
              `${name}: operand ${i + 1} must be a ${k === 'V' ? 'partition view' : 'tile'}, found an immediate`,
              'pass an SSA value',
            );
          return;
        }
        if (!t) return;
        const ok =
          k === 'S'
            ? t.kind === 'scalar'
            : k === 'V'
              ? isViewLike(t)
              : k === 'TS'
                ? t.kind === 'scalar' || isTileLike(t)
                : k === 'A' || k === 'A*'
                  ? isTileLike(t) || isViewLike(t)
                  : isTileLike(t);
        if (!ok) {
          const want =
            k === 'S'
              ? 'a scalar'
              : k === 'V'
                ? 'a !pto.partition_tensor_view or a gm memref'
                : 'a tile (!pto.tile_buf / memref / !pto.tile)';
          this.err(
            inp.pos,
            `${name}: operand ${i + 1} must be ${want}, found ${printType(t)}`,
            `check the operand order of ${name}`,
          );
        }
      });
    }
    if (outType) {
      const ok = sig.out === 'V' ? isViewLike(outType) : isTileLike(outType);
      if (!ok) {
        this.err(
          c.out.use.pos,
          `${name}: the destination must be ${sig.out === 'V' ? 'a !pto.partition_tensor_view' : 'a tile'}, found ${printType(outType)}`,
          sig.out === 'V' ? 'store into a partition_view' : 'write into an allocated tile buffer',
        );
        return;
      }
    }
    for (const t of [...types, outType]) if (t) this.tileBufType(t, pos, name);
    this.attrs(c);
    let tileIns = c.ins.map((_, i) => types[i]).filter((t): t is Type => t !== undefined && isTileLike(t));
    // PTOAS's scratch operand (trem/trems/trsqrt/tsel/trowexpand*: the last input) takes no part
    // in the element-type and shape rules
    const mandatoryTiles = sig.ins.filter((k) => k === 'T').length;
    if (SCRATCH_LAST.has(sig.insn) && tileIns.length > mandatoryTiles)
      tileIns = tileIns.slice(0, mandatoryTiles);
    // the semantic rules assume well-formed operands: skip them after an operand error
    if (!outType || this.diags.length > errorsBefore) return;
    ptoasTileRules(this, c, types, outType, this.arch);
    if (this.diags.length > errorsBefore) return;
    const needTiles = sig.ins.filter((k) => k === 'T').length;
    if (tileIns.length < needTiles) return;
    this.semantics(c, tileIns, outType);
  }

  attrs(c: TileCall): void {
    const allowed: Record<string, string[]> = {
      TCMP: ['cmpMode', 'cmp'],
      TCMPS: ['cmpMode', 'cmp'],
      // axsim's spellings and PTOAS's attribute names (PTOOps.td @a56b18c3)
      TCVT: ['rmode', 'round', 'roundMode', 'sat', 'satMode', 'sat_mode'],
      TCOLSUM: ['isBinary'],
      TCI: ['descending'],
      TLOAD: ['pad_mode', 'init_out_buffer', 'layout'],
      TSTORE: ['atomic', 'atomicType', 'stPhase', 'reluPreMode', 'layout'],
      TMOV: ['accToVecMode', 'reluPreMode'],
      TGATHER: ['maskPattern', 'cmpMode', 'offset'],
      TMRGSORT: ['exhausted'],
      MGATHER: ['coalesce', 'oob', 'gatherOob'],
      MSCATTER: ['coalesce', 'oob', 'atomic', 'conflict', 'scatterAtomicOp', 'scatterOob'],
      TTRI: ['upper', 'upperOrLower'],
      THISTOGRAM: ['byte', 'isMSB'],
      TQUANT: ['quantType', 'quant_type'],
      TDEQUANT: ['quant_type'],
      TRANDOM: ['rounds'],
    };
    const ok = allowed[c.sig.insn] ?? [];
    if (c.sig.insn === 'TGATHER' && c.op.kind === 'dps') {
      // PTOAS TGatherOp: the index form and the mask form are mutually exclusive
      const mask = c.attrs.some((a) => a.name === 'maskPattern');
      const tiles = c.op.ins.length;
      if (mask === tiles >= 2) {
        this.err(
          c.op.pos,
          `${c.name}: ${mask ? 'both an index tile and a maskPattern' : 'neither an index tile nor a maskPattern'}`,
          'write ins(%src, %indices : S, I) or ins(%src, {maskPattern = #pto.mask_pattern<P0101>} : S)',
        );
      }
    }
    for (const a of c.attrs) {
      // dialect-prefixed names (`pto.inferred_layout`) are discardable attributes MLIR allows on any op
      if (!ok.includes(a.name) && a.name !== 'phase' && !a.name.includes('.')) {
        const near = nearestName(a.name, ok);
        this.err(
          c.op.pos,
          `${c.name}: unknown attribute '${a.name}'`,
          near
            ? `did you mean '${near}'?`
            : ok.length
              ? `${c.name} accepts ${ok.join(', ')}`
              : `${c.name} takes no attributes`,
        );
      }
    }
    if (c.op.kind === 'dps' && c.op.insAttrs && !c.sig.attrsInIns) {
      this.err(
        c.op.pos,
        `${c.name}: attributes inside ins(…) are only allowed on tcmp, tcmps, tcvt, tci and tgather`,
        'move the attribute dictionary after outs(…)',
      );
    }
    if (
      c.op.kind === 'dps' &&
      c.op.attrs &&
      c.sig.attrsInIns &&
      c.op.attrs.some((a) => ['cmpMode', 'rmode'].includes(a.name))
    ) {
      this.err(
        c.op.pos,
        `${c.name}: the attribute dictionary must sit inside ins(…) before ':'`,
        'write ins(%a, %b {cmpMode = #pto<cmp lt>} : T0, T1)',
      );
    }
    const cmp = attrWord(c.attrs, ['cmpMode', 'cmp']);
    if (cmp && !(CMP_MODES as readonly string[]).includes(cmp.word.toLowerCase())) {
      this.err(c.op.pos, `${c.name}: unknown compare mode '${cmp.word}'`, `one of ${CMP_MODES.join(' ')}`);
    }
    const rm = attrWord(c.attrs, ['rmode', 'round', 'roundMode']);
    if (rm && !(ROUND_MODES as readonly string[]).includes(rm.word.toUpperCase())) {
      this.err(c.op.pos, `${c.name}: unknown round mode '${rm.word}'`, `one of ${ROUND_MODES.join(' ')}`);
    }
  }

  semantics(c: TileCall, ins: Type[], out: Type): void {
    const { sig, name } = c;
    const pos = c.op.pos;
    const e = (t: Type) => elemOf(t).name;
    const sameElem = (ts: Type[], what: string) => {
      const first = ts[0];
      if (!first) return;
      for (const t of ts.slice(1)) {
        if (e(t) !== e(first)) {
          this.err(
            pos,
            `${name}: type mismatch: ${what} have element types ${ts.map(e).join(', ')}`,
            'all of them must have the same element type; convert with pto.tcvt first',
          );
          return;
        }
      }
    };
    const sameShape = (ts: Type[], what: string) => {
      const shapes = ts.map((t) => tileShape(t)).filter((s) => s !== undefined);
      const f = shapes[0];
      if (!f) return;
      if (shapes.some((s) => s.rows !== f.rows || s.cols !== f.cols)) {
        this.err(
          pos,
          `${name}: shape mismatch: ${what} are ${shapes.map((s) => `${s.rows}x${s.cols}`).join(', ')}`,
          'use tiles with the same physical rows×cols (valid regions may differ)',
        );
      }
    };
    const needLoc = (t: Type, locs: string[], role: string) => {
      const s = tileShape(t);
      if (s && !locs.includes(s.loc)) {
        this.err(
          pos,
          `${name}: the ${role} must be in ${locs.join('/')}, found loc=${s.loc}`,
          `allocate the ${role} with loc=${locs[0]}`,
        );
      }
    };
    const all = [...ins, out];
    switch (sig.family) {
      case 'binary':
      case 'ternary':
      case 'unary':
      case 'scalar':
      case 'select':
      case 'fill': {
        // TSEL (mask, src0, src1) and TSELS (mask, src, scalar): the mask is a predicate tile of
        // its own element type; the selected data and the destination agree
        const data = sig.family === 'select' ? [ins[1], ins[2], out].filter((t): t is Type => !!t) : all;
        // PTOAS TAxpyOp::verify: also src f16 into dst f32
        const axpyWiden =
          sig.insn === 'TAXPY' && elemOf(ins[0]!).name === 'f16' && elemOf(out).name === 'f32';
        if (!axpyWiden)
          sameElem(sig.insn === 'TPRELU' ? [ins[0]!, ins[1]!, out] : data, 'sources and destination');
        sameShape(sig.insn === 'TPRELU' ? [ins[0]!, ins[1]!, out] : data, 'sources and destination');
        for (const t of all) needLoc(t, ['vec'], 'operand');
        break;
      }
      case 'compare':
        sameElem(ins, 'the compared sources');
        sameShape([...ins, out], 'sources and destination');
        for (const t of all) needLoc(t, ['vec'], 'operand');
        break;
      case 'rowexpand':
      case 'colexpand':
        sameElem(all, 'sources and destination');
        for (const t of all) needLoc(t, ['vec'], 'operand');
        break;
      case 'rowreduce': {
        sameElem([ins[0]!, out], 'source and destination');
        const s = tileShape(ins[0]!)!;
        const d = tileShape(out)!;
        if (d.rows < s.rows && s.vRow >= 0 && d.rows < s.vRow) {
          this.err(
            pos,
            `${name}: the destination has ${d.rows} rows but the source has ${s.vRow} valid rows`,
            'give the destination (a rows×1 column) at least as many rows',
          );
        }
        for (const t of all) needLoc(t, ['vec'], 'operand');
        break;
      }
      case 'colreduce': {
        sameElem([ins[0]!, out], 'source and destination');
        const s = tileShape(ins[0]!)!;
        const d = tileShape(out)!;
        if (d.cols < s.cols && s.vCol >= 0 && d.cols < s.vCol) {
          this.err(
            pos,
            `${name}: the destination has ${d.cols} columns but the source has ${s.vCol} valid columns`,
            'give the destination (a 1×cols row) at least as many columns',
          );
        }
        for (const t of all) needLoc(t, ['vec'], 'operand');
        break;
      }
      case 'transpose':
        sameElem([ins[0]!, out], 'source and destination');
        break;
      case 'matmul': {
        const insn = sig.insn;
        const acc =
          insn === 'TMATMUL_ACC' ||
          insn === 'TGEMV_ACC' ||
          insn === 'TMATMUL_MX_ACC' ||
          insn === 'TGEMV_MX_ACC';
        // MX forms interleave the scale tiles: (a, a_scale, b, b_scale) after the optional c_in
        const mx = insn.startsWith('TMATMUL_MX') || insn.startsWith('TGEMV_MX');
        const k = acc ? 1 : 0;
        const [a, b] = mx ? [ins[k], ins[k + 2]] : [ins[k], ins[k + 1]];
        if (!a || !b) break;
        needLoc(a, ['left'], 'left operand');
        needLoc(b, ['right'], 'right operand');
        needLoc(out, ['acc'], 'destination');
        if (acc) needLoc(ins[0]!, ['acc'], 'accumulator input');
        // MX accepts mixed fp8 pairs (e4m3 x e5m2, TMatmul.hpp isSupportedFp8Combo)
        if (!mx) sameElem([a, b], 'left and right operands');
        const accE = e(out);
        const aE = e(a);
        const okAcc = /^(u|s)?i8$/.test(aE) ? accE === 'i32' : accE === 'f32';
        if (!okAcc) {
          this.err(
            pos,
            `${name}: type mismatch: ${aE} inputs accumulate into ${accE === 'i32' || /^(u|s)?i8$/.test(aE) ? 'i32' : 'f32'}, found ${accE}`,
            'use an f32 acc tile (i32 for i8 inputs)',
          );
        }
        const sa = tileShape(a)!;
        const sb = tileShape(b)!;
        const sc = tileShape(out)!;
        if (sa.cols !== sb.rows || sa.rows !== sc.rows || sb.cols !== sc.cols) {
          this.err(
            pos,
            `${name}: shape mismatch: left ${sa.rows}x${sa.cols} × right ${sb.rows}x${sb.cols} → acc ${sc.rows}x${sc.cols}`,
            'need left M×K, right K×N and acc M×N',
          );
        }
        break;
      }
      case 'load':
      case 'store': {
        const view = sig.family === 'load' ? ins[0] : out;
        const tile = sig.family === 'load' ? out : ins[0];
        const viewT = sig.family === 'load' ? c.ins[0]?.type : out;
        if (!tile) break;
        const vt = viewT ?? view;
        if (vt && (vt.kind === 'partition_tensor_view' || (vt.kind === 'memref' && isGlobalMemref(vt)))) {
          const te = e(tile);
          // tstore_fp converts through the fix-pipe (f32/i32 accumulator -> i8/u8/f16/i16 …), and so
          // does PTOAS's tstore from an accumulator (TStoreOp: acc -> gm with a quantizing fix-pipe)
          const accStore = sig.insn === 'TSTORE' && tileShape(tile)?.loc === 'acc';
          if (vt.elem.name !== te && sig.insn !== 'TSTORE_FP' && !accStore) {
            this.err(
              pos,
              `${name}: type mismatch: view element ${vt.elem.name} vs tile element ${te}`,
              'load/store between a view and a tile of the same element type',
            );
          }
          const s = tileShape(tile)!;
          const sh = vt.shape;
          const vr = sh.length >= 2 ? sh.slice(0, -1).reduce((x, y) => (x < 0 || y < 0 ? -1 : x * y), 1) : 1;
          const vc = sh[sh.length - 1] ?? 1;
          if ((vc >= 0 && vc > s.cols) || (vr >= 0 && vr > s.rows)) {
            this.err(
              pos,
              `${name}: the view is ${vr}x${vc} but the tile is only ${s.rows}x${s.cols}`,
              'partition the view to at most the tile shape',
            );
          }
        }
        break;
      }
      case 'misc':
        this.miscForms(c, ins, out);
        break;
      default:
        break;
    }
    this.profileRules(c, ins, out);
  }

  /** tsort32 / tmrgsort / mgather / mscatter: which form was written, element types. */
  miscForms(c: TileCall, ins: Type[], out: Type): void {
    const { sig, name } = c;
    const pos = c.op.pos;
    const e = (t: Type) => elemOf(t).name;
    const outs = c.op.kind === 'dps' ? c.op.outs.length : 1;
    const mismatch = (ts: Type[], what: string) => {
      if (ts.some((t) => e(t) !== e(ts[0]!)))
        this.err(
          pos,
          `${name}: type mismatch: ${what} have element types ${ts.map(e).join(', ')}`,
          'use one element type',
        );
    };
    if (sig.insn === 'TSORT32') {
      // the manual: ins(%src, %idx) outs(%dst); PTOAS: ins(%src) outs(%dst, %idx)
      // PTOAS @a56b18c3 also takes a scratch tile: ins(%src, %idx, %tmp) outs(%dst)
      if (c.ins.length + outs !== 3 && !(c.ins.length === 3 && outs === 1)) {
        this.err(
          pos,
          `${name}: give the index tile once, in ins(%src, %idx) or in outs(%dst, %idx)`,
          'write ins(%src, %idx : S, I) outs(%dst : D)',
        );
        return;
      }
      mismatch([ins[0]!, out], 'source and destination');
      return;
    }
    if (sig.insn === 'TMRGSORT') {
      const second = c.ins[1];
      const scalarForm = second !== undefined && (second.imm !== undefined || second.type?.kind === 'scalar');
      if (scalarForm ? c.ins.length !== 2 || outs !== 1 : c.ins.length < 2) {
        this.err(
          pos,
          `${name}: either ins(%src, %blockLen : T, i32) outs(%dst : T) or 2–4 lists ins(%s0, %s1, … : …) outs(%dst[, %tmp][, %executed] : …)`,
          'see tmrgsort.md',
        );
        return;
      }
      if (scalarForm && c.attrs.some((a) => a.name === 'exhausted'))
        this.err(pos, `${name}: exhausted belongs to the multi-list form`, 'drop {exhausted = …}');
      const tiles = [...ins, out];
      for (const o of c.extraOuts) if (o.type && isTileLike(o.type)) tiles.push(o.type);
      mismatch(tiles, 'the lists, tmp and destination');
      for (const o of c.extraOuts) {
        if (o.type && !isTileLike(o.type) && o.type.kind !== 'vector')
          this.err(
            pos,
            `${name}: outs after the destination are tiles or a vector<4xi16>`,
            'see tmrgsort.md',
          );
      }
      return;
    }
    if (sig.insn !== 'MGATHER' && sig.insn !== 'MSCATTER') return;
    // mgather: ins(%mem, %idx) outs(%dst); mscatter: ins(%src, %idx) outs(%mem)
    const mem = sig.insn === 'MGATHER' ? c.ins[0]?.type : out;
    const tile = sig.insn === 'MGATHER' ? out : ins[0];
    if (mem && tile) mismatch([tile, mem], 'the tile and the memory');
  }

  profileRules(c: TileCall, ins: Type[], out: Type): void {
    const profile = this.opts.profile;
    if (!profile) return;
    const pos = c.op.pos;
    const family = c.sig.family;
    const main =
      family === 'load' || c.sig.insn === 'MGATHER'
        ? out
        : family === 'matmul'
          ? (ins[c.sig.insn.endsWith('_ACC') ? 1 : 0] ?? out)
          : (ins[0] ?? out);
    const dtype = dtypeOfName(elemOf(main).name);
    if (!dtype) return;
    const r = profileSupport(c.sig.insn, dtype as DType, profile);
    if (!r.ok) {
      this.err(
        pos,
        `${c.name}: ${r.reason}`,
        r.hint ?? `use a dtype the ${profile} profile supports, or --profile cpu`,
        'Unsupported',
      );
    }
    if (profile !== 'cpu' && ['binary', 'unary', 'scalar', 'ternary', 'compare', 'select'].includes(family)) {
      // spec 002 Target-Profile Restrictions: "A2/A3 requires isRowMajor == true for all operands" (and A5)
      for (const t of [...ins, out]) {
        const s = tileShape(t);
        if (s && s.blayout !== 'row_major') {
          this.err(
            pos,
            `${c.name}: the ${profile} profile supports RowMajor tiles only, found blayout=${s.blayout}`,
            'use blayout=row_major (or --profile cpu)',
            'Unsupported',
          );
          break;
        }
      }
    }
  }
}

/** Verifies a module and returns every diagnostic (empty when it is valid). */
export function verifyDiagnostics(m: Module, opts: VerifyOptions = {}): Diagnostic[] {
  const v = new Verifier(opts);
  v.verifyModule(m);
  return v.diags.sort((a, b) => a.line - b.line || a.col - b.col);
}

/** Verifies a module; throws the first diagnostic as an AxsimError with its line:col. */
export function verifyModule(m: Module, opts: VerifyOptions = {}): void {
  const d = verifyDiagnostics(m, opts)[0];
  if (d) throw diagnosticError(d, opts.file);
}

export function diagnosticError(d: Diagnostic, file?: string): AxsimError {
  return new AxsimError(d.category, d.message, {
    location: file === undefined ? { line: d.line, col: d.col } : { file, line: d.line, col: d.col },
    hint: d.hint,
  });
}
