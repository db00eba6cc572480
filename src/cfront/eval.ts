/**
 * The evaluator of cfront: runs the scalar C/C++ of a translation unit at compile time, as the
 * target core would (RISC-V rv32 for Tensix kernels, `ilp32`; AArch64 for AMX C, `lp64`):
 * - integers of exact width and signedness (BigInt), C's promotions and usual arithmetic
 *   conversions; signed overflow wraps (two's complement, as GCC's RISC-V code does in practice);
 *   division by zero, over-wide shifts and out-of-range float->int conversions are
 *   UndefinedBehaviour errors;
 * - binary32 (each operation rounded once: the double result of + - * / sqrt of two binary32
 *   values, rounded to binary32, is the correctly rounded binary32 result) and binary64;
 * - every object in a flat byte memory (`memory.ts`), so pointers, arrays, structs, unions and
 *   bit casts behave as on the target;
 * - functions, templates (type and non-type parameters, deduction, explicit specialisations),
 *   methods, constructors, lambdas, recursion;
 * - a host interface: builtins (name -> handler with evaluated arguments and the source location),
 *   fallback constants, statements the host parsed, and memory regions with write hooks.
 * Every limit (steps, loops, call and expression depth, memory) comes from the shared `Budget`.
 */
import { type Budget, defaultBudget } from '../budget.ts';
import {
  AxsimError,
  badInput,
  type ErrorLocation,
  internalError,
  nearestName,
  undefinedBehaviour,
  unsupported,
} from '../errors.ts';
import type {
  Decl,
  EnumDecl,
  Expr,
  FuncDecl,
  InitItem,
  NamePart,
  RecordDecl,
  Stmt,
  TArg,
  TypeSyntax,
  VarDecl,
} from './ast.ts';
import { Compiler } from './compile.ts';
import type { SrcLoc } from './lex.ts';
import { halfBits, halfValue, roundHalf, roundRational } from './literal.ts';
import { Memory } from './memory.ts';
import type { Parser } from './parse.ts';
import {
  type ArrayType,
  alignOf,
  type Binding,
  BOOL,
  builtinType,
  CHAR8,
  CHAR16,
  CHAR32,
  type CType,
  charType,
  type DataModel,
  type EnumType,
  F32,
  F64,
  type FloatType,
  I32,
  I64,
  type IntType,
  intOf,
  isArithmetic,
  isInteger,
  longType,
  NULLPTR,
  type PtrType,
  type RecordType,
  sameType,
  sizeOf,
  typeName,
  U8,
  U32,
  U64,
  unsignedOf,
  VOID,
  WCHAR,
} from './types.ts';

export type Value =
  | { k: 'int'; t: IntType | import('./types.ts').BoolType | EnumType; v: bigint }
  | { k: 'float'; t: FloatType; v: number; nan?: bigint }
  | { k: 'ptr'; t: PtrType | import('./types.ts').NullptrType; addr: number; str?: string }
  | { k: 'obj'; t: CType; addr: number }
  | { k: 'void' }
  | {
      k: 'fn';
      fns: FuncDecl[];
      targs?: TArg[];
      self?: LV;
      name: string;
      scope?: Scope;
      /** `S<3>::f`: the class instance named (its template parameters bind in the methods). */
      rec?: RecordType;
    }
  | { k: 'lambda'; node: Expr & { kind: 'lambda' }; env: Scope; frame: Frame }
  | { k: 'builtin'; name: string; targs?: TArg[]; self?: LV }
  | { k: 'type'; t: CType }
  /** A value only the host understands (e.g. SFPI vector values for issue 12). */
  | { k: 'host'; data: unknown; t?: CType };

export interface LV {
  t: CType;
  addr: number;
}

export interface BuiltinCtx {
  ev: Evaluator;
  name: string;
  args: Value[];
  argExprs: readonly Expr[];
  targs: readonly TArg[];
  /** The call expression's position. */
  at: SrcLoc;
  /** The position of the call's closing parenthesis. */
  end?: SrcLoc;
  scope: Scope;
}
export type BuiltinFn = ((ctx: BuiltinCtx) => Value | bigint | number | undefined | undefined) & {
  /**
   * Optional entry for compiled code (compile.ts) when every argument is an integer or a pointer
   * and the result is not used: argument k as a 64-bit two's complement value in two 32-bit halves,
   * `a[2k]` low and `a[2k+1]` high. The array is reused after the call returns.
   */
  halves?: (ev: Evaluator, at: SrcLoc, a: readonly number[]) => void;
};

export interface Host {
  /** Functions provided by the host, by name as written (namespace prefix optional). */
  builtins?: ReadonlyMap<string, BuiltinFn>;
  /** Called for builtin names not in `builtins` (e.g. a family `TTI_*`); undefined = not a builtin. */
  builtinFor?: (name: string) => BuiltinFn | undefined;
  /** Constants the host knows when no declaration defines the name (`p_sfpu::LREG0`). */
  lookupName?: (name: string) => bigint | undefined;
  /** Runs a statement the host's statement hook produced. */
  execExt?: (s: Stmt & { kind: 'ext' }, ev: Evaluator, scope: Scope) => void;
  /** A type for a name no declaration defines (e.g. enum names the host knows as constants). */
  typeFor?: (name: string) => CType | undefined;
  /** An error for an unknown name (e.g. "SFPI (issue 12)"), or undefined for the default. */
  unknownName?: (name: string, at: SrcLoc) => AxsimError | undefined;
  /**
   * A JavaScript body for a function of the host's own C++ text (asked once per function; undefined:
   * none). The evaluator binds the parameters as for any call and runs the native instead of the
   * C++ body, which it must mirror exactly: the same builtin calls with the same arguments in the
   * same order, the same stores, the same result (the SFPI vector classes, src/tensix/sfpi/native.ts).
   */
  native?: (f: FuncDecl, ev: Evaluator) => NativeFn | undefined;
}

/** A host's body for a function (Host.native): the result, or undefined for a void function. */
export type NativeFn = (c: NativeCall) => Value | undefined;

/**
 * One call of a native body: `this`'s fields and the bound parameters by position, builtin calls
 * and the result. Every object the natives see is a record of two 32-bit ints at offsets 0 and 4
 * (`k`, `v`; checked when the native is chosen).
 */
export class NativeCall {
  constructor(
    readonly ev: Evaluator,
    readonly f: FuncDecl,
    private readonly ret: CType,
    private readonly self: LV | undefined,
    /** The parameters' addresses and types as bound. */
    private readonly addrs: number[],
    private readonly types: CType[],
  ) {}
  private i32(addr: number): number {
    const r = this.ev.mem.readRegion(addr, 4);
    return r.view.getInt32(addr - r.base, true);
  }
  private w32(addr: number, v: number): void {
    const r = this.ev.mem.find(addr, 4);
    r.view.setInt32(addr - r.base, v, true);
    this.ev.mem.wrote(r, addr, 4);
  }
  /** this->k / this->v */
  k(): number {
    return this.i32(this.self!.addr);
  }
  v(): number {
    return this.i32(this.self!.addr + 4);
  }
  setK(x: number): void {
    this.w32(this.self!.addr, x);
  }
  setV(x: number): void {
    this.w32(this.self!.addr + 4, x);
  }
  /** Parameter i's fields (a record parameter). */
  pk(i: number): number {
    return this.i32(this.addrs[i]!);
  }
  pv(i: number): number {
    return this.i32(this.addrs[i]! + 4);
  }
  /** The user location builtins called from the body report (the call site in the main file). */
  readonly loc = () => {
    const u = this.ev.userLoc(this.f.at);
    return { file: u.file, line: u.line, col: u.col };
  };
  /** Parameter i's value (a scalar parameter), as the body would read it. */
  p(i: number): Value {
    return this.ev.load({ t: this.types[i]!, addr: this.addrs[i]! }, this.f.at);
  }
  /** Calls the host's builtin `name` as the body's call would (its location: in the host's text). */
  call(name: string, args: Value[]): Value | undefined {
    const ev = this.ev;
    const fn = ev.host.builtins?.get(name) ?? ev.host.builtinFor?.(name);
    if (!fn) return ev.fail(`unknown builtin ${name}`, this.f.at);
    const r = fn({
      ev,
      name,
      args,
      argExprs: [],
      targs: [],
      at: this.f.at,
      scope: ev.frames[ev.frames.length - 1]!.scope,
    });
    if (r === undefined) return undefined;
    if (typeof r === 'bigint') return { k: 'int', t: r >= 0n && r <= 0xffffffffn ? U32 : I64, v: r };
    if (typeof r === 'number') return { k: 'int', t: U32, v: BigInt(r) };
    return r;
  }
  /** A builtin's integer result as a number. */
  int(name: string, args: Value[]): number {
    const r = this.call(name, args);
    if (r?.k !== 'int') return this.ev.fail(`${name} did not return an integer`, this.f.at);
    return Number(BigInt.asIntN(32, r.v));
  }
  /** The function's result: a fresh object of its return type with fields (k, v). */
  obj(k: number, v: number): Value {
    const t = this.ret;
    const addr = this.ev.mem.alloca(8, 4);
    this.w32(addr, k);
    this.w32(addr + 4, v);
    return { k: 'obj', t, addr };
  }
}

export interface EvalOptions {
  model?: DataModel;
  budget?: Budget;
  host?: Host;
  /** The file whose lines are "user-visible" (see `userLoc`). */
  mainFile?: string;
  /**
   * Run functions of the plain scalar C subset as compiled closures (compile.ts; default true).
   * False runs everything on the tree walker (for differential tests).
   */
  compile?: boolean;
}

class Scope {
  readonly vars = new Map<string, Binding>();
  constructor(readonly parent?: Scope) {}
  get(name: string): Binding | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      const b = s.vars.get(name);
      if (b) return b;
    }
    return undefined;
  }
}

export type { Scope };

/** @internal */
export interface Frame {
  fn?: FuncDecl;
  ns: string[];
  record?: RecordType;
  thisAddr?: number;
  ret?: Value;
  retType: CType;
  callAt?: SrcLoc;
  /** Bottom scope (template bindings, parameters). */
  scope: Scope;
}

/** Control-flow signals of statement execution. */
const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
const RETURN = 3;
type Signal = 0 | 1 | 2 | 3;

type Entity =
  | { k: 'func'; decl: FuncDecl }
  | { k: 'record'; decl: RecordDecl }
  | { k: 'enum'; decl: EnumDecl }
  | { k: 'enumerator'; decl: EnumDecl; name: string }
  | { k: 'var'; decl: VarDecl; ns: string[]; record?: RecordDecl }
  | { k: 'alias'; decl: Decl & { kind: 'alias' } }
  | { k: 'using'; parts: NamePart[]; ns: string[] }
  | { k: 'ns' };

const SFPI_NAMES = new Set([
  'vFloat',
  'vInt',
  'vUInt',
  'vSMag',
  'vUInt16',
  'vBool',
  'dst_reg',
  'l_reg',
  'vConst0',
  'vConst1',
  'vConstNeg1',
  'vConst0p8373',
  'vConstFloatPrgm0',
  'vConstFloatPrgm1',
  'vConstFloatPrgm2',
  'vConstIntPrgm0',
  'vConstIntPrgm1',
  'vConstIntPrgm2',
  '__vCCCtrl',
  'v_if',
  'v_elseif',
  'v_else',
  'v_endif',
  'v_block',
  'v_endblock',
  'v_and',
  'setsgn',
  'exexp',
  'exman8',
  'exman9',
  'setexp',
  'setman',
  'lut',
  'lut2',
  'reinterpret',
  'int32_to_float',
  'float_to_fp16b',
  'abs',
  'sfpi_inline',
]);

const _hexAddr = (a: number) => `0x${a.toString(16)}`;

export class Evaluator {
  readonly model: DataModel;
  /** The budget charged while running (replaced by `resetForRun`). */
  budget: Budget;
  /** The program's memory (a fresh one for each `resetForRun`). */
  mem: Memory;
  readonly host: Host;
  readonly mainFile: string | undefined;
  /** Fully qualified name -> entities. */
  readonly table = new Map<string, Entity[]>();
  /** using-directives: (namespace where it appears, target as written). */
  readonly usings: { ns: string[]; target: string }[] = [];
  readonly frames: Frame[] = [];
  readonly globalsInit = new Map<VarDecl, LV>();
  readonly records = new Map<string, RecordType>();
  readonly enums = new Map<EnumDecl, EnumType>();
  readonly methods = new Map<RecordDecl, Map<string, FuncDecl[]>>();
  /** Static locals, by declaration and instance (staticLocalKey). */
  readonly staticLocals = new Map<VarDecl | string, LV>();
  private readonly staticLocalKeys = new WeakMap<VarDecl, number>();
  readonly strings = new Map<string, number>();
  /** Call sites, outermost first (for `userLoc`). */
  readonly callStack: SrcLoc[] = [];
  /** The statement being run. */
  cur: SrcLoc = { file: '', line: 0, col: 0 };
  depth = 0;
  readonly ptrSize: number;
  readonly sizeT: IntType;
  readonly ptrdiffT: IntType;

  constructor(
    readonly tu: import('./ast.ts').TranslationUnit,
    readonly parser: Parser,
    opts: EvalOptions = {},
  ) {
    this.model = opts.model ?? 'ilp32';
    this.budget = opts.budget ?? parser.budget ?? defaultBudget();
    this.mem = this.newMemory(this.budget);
    this.host = opts.host ?? {};
    this.mainFile = opts.mainFile ?? tu.file;
    this.ptrSize = this.model === 'lp64' ? 8 : 4;
    // <cstddef>'s size_t / ptrdiff_t of the target (types.ts): (unsigned) int on rv32, (unsigned) long on Apple arm64
    this.sizeT = builtinType('size_t', this.model) as IntType;
    this.ptrdiffT = builtinType('ptrdiff_t', this.model) as IntType;
    this.jit = opts.compile === false ? undefined : new Compiler(this);
    this.index(tu.decls, []);
  }

  /**
   * Makes this evaluator as it was before it first ran, for another run of the same program
   * (cached compiled programs, issue 14): a fresh memory, no initialised globals, static locals
   * or string literals, an empty call stack, and `budget` charged from now on (also by the
   * parser for function bodies parsed later). What is kept depends on the program text only:
   * the symbol table, parsed bodies, resolved types and the compiled closures.
   */
  resetForRun(budget: Budget): void {
    this.budget = budget;
    (this.parser as { budget: Budget }).budget = budget;
    this.mem = this.newMemory(budget);
    this.globalsInit.clear();
    this.staticLocals.clear();
    this.strings.clear();
    this.initializing.clear();
    this.globalValues.clear();
    this.recordStatics.clear();
    this.varTemplates.clear(); // their objects live in the old memory
    this.frames.length = 0;
    this.callStack.length = 0;
    this.depth = 0;
    this.cur = { file: '', line: 0, col: 0 };
  }

  /** The closure compiler (compile.ts), unless disabled. */
  readonly jit: Compiler | undefined;

  private newMemory(budget: Budget): Memory {
    const mem = new Memory(budget);
    mem.onUnset = (addr, size, loc) => {
      const o = mem.unsetOrigin(addr, size);
      const u = o?.what as Unset | undefined;
      if (!u) return this.uninitialisedRead(undefined, '', loc);
      return this.uninitialisedRead(u, this.memberPath(u.t, o!.offset), loc, o!.copied);
    };
    return mem;
  }

  /**
   * A read of a value never written (C++ [basic.indet]: an indeterminate value): UndefinedBehaviour
   * at the read, naming the local (and the member or element read) and where it is declared.
   */
  uninitialisedRead(
    u: Unset | undefined,
    path: string,
    loc: ErrorLocation | undefined,
    copied = false,
  ): never {
    if (!u)
      throw undefinedBehaviour('read of an uninitialised value', {
        location: loc,
        hint: 'the bytes belong to a local declared without an initialiser and are not written before this read',
      });
    const what = `${u.name}${path}`;
    throw undefinedBehaviour(`read of an uninitialised value${copied ? ' copied from' : ':'} '${what}'`, {
      location: loc,
      hint: `'${u.name}' is declared at ${u.at.file}:${u.at.line} without an initialiser${path ? `, and ${what} is not written before this read` : ' and is not written before this read'}`,
    });
  }

  /** `.field[index]…` naming the scalar at byte `off` of an object of type `t` ('' for the object itself). */
  private memberPath(t: CType, off: number): string {
    let s = '';
    for (let guard = 0; guard < 64; guard++) {
      if (t.k === 'array') {
        const es = this.sizeOf(t.of);
        if (es <= 0) break;
        const i = Math.floor(off / es);
        s += `[${i}]`;
        off -= i * es;
        t = t.of;
        continue;
      }
      if (t.k === 'record') {
        let f: { name: string; t: CType; offset: number } | undefined;
        for (const x of t.fields) if (x.offset <= off && off < x.offset + this.sizeOf(x.t)) f = x;
        if (!f) break;
        s += `.${f.name}`;
        off -= f.offset;
        t = f.t;
        continue;
      }
      break;
    }
    return s;
  }

  /** @internal A fresh empty scope (for compiled functions' frames). */
  newScope(): Scope {
    return new Scope();
  }

  /** @internal The library function `name` stands for, when the host does not provide it. */
  libraryFunction(
    name: string,
  ): { min: number; max: number; f: (ev: Evaluator, a: Value[], at: SrcLoc) => Value } | undefined {
    const lib = LIBRARY[name.replace(/^(::)?std::/, '')];
    if (!lib || this.host.builtins?.has(name)) return undefined;
    return lib;
  }

  // ---- symbol table ----
  private add(name: string, e: Entity): void {
    this.clearLookups();
    const l = this.table.get(name);
    if (l) l.push(e);
    else this.table.set(name, [e]);
  }

  private index(decls: Decl[], ns: string[], record?: RecordDecl): void {
    const q = (n: string) => [...ns, n].join('::');
    for (const d of decls) {
      switch (d.kind) {
        case 'namespace':
          this.add(q(d.name), { k: 'ns' });
          this.index(d.decls, [...ns, d.name]);
          break;
        case 'func': {
          if (record) {
            d.owner = record;
            this.addMethod(record, d);
            break;
          }
          const parts = d.parts.map((p) => p.name);
          if (parts.length > 1) {
            // `S::f` defined outside its class, or `ns::f`
            const owner = this.findRecordDecl(parts.slice(0, -1), ns);
            if (owner) {
              d.owner = owner;
              d.ns = [...owner.ns, owner.name];
              this.addMethod(owner, d);
              break;
            }
          }
          this.add([...ns, ...parts].join('::'), { k: 'func', decl: d });
          break;
        }
        case 'record':
          if (d.name) {
            const name = d.name.includes('::') ? d.name : q(d.name);
            const prev = this.table.get(name)?.find((e) => e.k === 'record') as
              | { decl: RecordDecl }
              | undefined;
            if (prev?.decl.forward && !d.forward && !d.specArgs) prev.decl = d;
            else if (!prev || (!d.forward && !prev.decl.specArgs)) this.add(name, { k: 'record', decl: d });
            else if (d.specArgs) this.add(name, { k: 'record', decl: d });
            if (!d.forward) this.index(d.members, [...ns, d.name.split('::').pop()!], d);
          }
          break;
        case 'enum':
          if (d.name) this.add(q(d.name), { k: 'enum', decl: d });
          for (const v of d.values) {
            if (d.name) this.add(q(`${d.name}::${v.name}`), { k: 'enumerator', decl: d, name: v.name });
            if (!d.scoped) this.add(q(v.name), { k: 'enumerator', decl: d, name: v.name });
          }
          break;
        case 'var':
          this.add(q(d.name), { k: 'var', decl: d, ns, record });
          break;
        case 'alias':
          this.add(q(d.name), { k: 'alias', decl: d });
          break;
        case 'using-ns':
          this.usings.push({ ns, target: d.parts.map((p) => p.name).join('::') });
          this.clearLookups();
          break;
        case 'using-decl': {
          const last = d.parts[d.parts.length - 1]!.name;
          this.add(q(last), { k: 'using', parts: d.parts, ns });
          break;
        }
        default:
          break;
      }
    }
  }

  private addMethod(rec: RecordDecl, f: FuncDecl): void {
    this.clearLookups(); // (the choices cached by candidate list)
    let m = this.methods.get(rec);
    if (!m) {
      m = new Map();
      this.methods.set(rec, m);
    }
    const list = m.get(f.name) ?? [];
    // an out-of-class definition completes the in-class declaration with the same parameters
    const decl = list.findIndex(
      (g) => !g.bodyToks && !g.body && g.params.length === f.params.length && !g.specArgs,
    );
    if (decl >= 0 && (f.bodyToks || f.body)) {
      f.isStatic ||= list[decl]!.isStatic;
      f.isCtor ||= list[decl]!.isCtor;
      if (!f.tparams && list[decl]!.tparams) f.tparams = list[decl]!.tparams;
      list[decl] = f;
    } else list.push(f);
    m.set(f.name, list);
  }

  private findRecordDecl(parts: string[], ns: string[]): RecordDecl | undefined {
    for (let i = ns.length; i >= 0; i--) {
      const name = [...ns.slice(0, i), ...parts].join('::');
      const e = this.table.get(name)?.find((x) => x.k === 'record');
      if (e) return (e as { decl: RecordDecl }).decl;
    }
    return undefined;
  }

  /** Namespaces visible from `ns` through using-directives (targets as qualified names). */
  private usingTargets(ns: string[]): string[] {
    const out: string[] = [];
    for (const u of this.usings) {
      if (u.ns.length <= ns.length && u.ns.every((p, k) => ns[k] === p)) {
        // the target may be relative to where the directive is
        for (let i = u.ns.length; i >= 0; i--) {
          const cand = [...u.ns.slice(0, i), u.target].join('::');
          if (this.table.has(cand)) {
            out.push(cand);
            break;
          }
          if (i === 0) out.push(u.target);
        }
      }
    }
    return out;
  }

  /**
   * lookupGlobal's answers by (global, ns, name): the table and the using-directives change only
   * while declarations are indexed or a using-directive is met, and each of those clears it.
   */
  private lookupCache = new WeakMap<string[], Map<string, { name: string; ents: Entity[] } | null>>();
  private readonly lookupCacheGlobal = new Map<string, { name: string; ents: Entity[] } | null>();
  private clearLookups(): void {
    this.lookupCache = new WeakMap();
    this.lookupCacheGlobal.clear();
    this.overloadMemo?.clear(); // (undefined while the fields are initialised)
    this.choices = new WeakMap();
    this.ctorLists = new WeakMap();
    this.fnLists = new WeakMap();
  }
  private fnLists = new WeakMap<Entity[], FuncDecl[]>();

  /** Entities for a qualified name as written, looked up from namespace `ns` outward. */
  lookupGlobal(parts: string[], ns: string[], global = false): { name: string; ents: Entity[] } | undefined {
    // keyed by the namespace path array itself (a frame's, a declaration's: the same array each
    // time) and the name; `::x` by the namespace path's text as well
    const tail = parts.length === 1 ? parts[0]! : parts.join('::');
    let m: Map<string, { name: string; ents: Entity[] } | null>;
    let key = tail;
    if (global) {
      m = this.lookupCacheGlobal;
      key = `${ns.join('::')}\u0000${tail}`;
    } else {
      let mm = this.lookupCache.get(ns);
      if (!mm) {
        mm = new Map();
        this.lookupCache.set(ns, mm);
      }
      m = mm;
    }
    const have = m.get(key);
    if (have !== undefined) return have ?? undefined;
    const r = this.lookupGlobalUncached(parts, ns, global);
    m.set(key, r ?? null);
    return r;
  }

  private lookupGlobalUncached(
    parts: string[],
    ns: string[],
    global: boolean,
  ): { name: string; ents: Entity[] } | undefined {
    const tail = parts.join('::');
    const starts = global
      ? [[] as string[]]
      : Array.from({ length: ns.length + 1 }, (_, i) => ns.slice(0, ns.length - i));
    for (const pre of starts) {
      const name = pre.length ? `${pre.join('::')}::${tail}` : tail;
      const e = this.table.get(name);
      if (e) return { name, ents: this.followUsing(e) };
      // through using-directives of that scope
    }
    const seen = new Set<string>();
    for (const t of this.usingTargets(ns)) {
      if (seen.has(t)) continue;
      seen.add(t);
      const name = `${t}::${tail}`;
      const e = this.table.get(name);
      if (e) return { name, ents: this.followUsing(e) };
    }
    // a name inside a namespace reached by a using-directive on a parent part (`sfpu::x` after `using namespace ckernel`)
    return undefined;
  }

  private followUsing(ents: Entity[]): Entity[] {
    const out: Entity[] = [];
    for (const e of ents) {
      if (e.k === 'using') {
        const r = this.lookupGlobal(
          e.parts.map((p) => p.name),
          e.ns.slice(0, -0 || undefined),
        );
        if (r) out.push(...r.ents.filter((x) => x.k !== 'using'));
      } else out.push(e);
    }
    return out;
  }

  // ---- locations ----
  loc(at: SrcLoc = this.cur): ErrorLocation {
    return { file: at.file, line: at.line, col: at.col };
  }

  /** The innermost position in the main file: `at` itself, or the call site that led to it. */
  userLoc(at: SrcLoc): SrcLoc {
    if (this.mainFile === undefined || at.file === this.mainFile) return at;
    for (let k = this.callStack.length - 1; k >= 0; k--) {
      if (this.callStack[k]!.file === this.mainFile) return this.callStack[k]!;
    }
    return at;
  }

  fail(msg: string, at: SrcLoc = this.cur, hint?: string): never {
    throw badInput(msg, { location: this.loc(at), hint });
  }
  unsupported(what: string, at: SrcLoc = this.cur, hint?: string): never {
    throw unsupported(`unsupported C++: ${what}`, { location: this.loc(at), hint });
  }
  ub(msg: string, at: SrcLoc = this.cur, hint?: string): never {
    throw undefinedBehaviour(msg, { location: this.loc(at), hint });
  }

  private get frame(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  // ---- running ----
  /** Runs the top-level statements (script mode) in order; declarations are already indexed. */
  runTopLevel(opts: { onFunction?: (f: FuncDecl) => void } = {}): void {
    const frame: Frame = { ns: [], retType: VOID, scope: new Scope() };
    this.frames.push(frame);
    try {
      this.runDecls(this.tu.decls, frame.scope, [], opts.onFunction);
    } finally {
      this.frames.pop();
    }
  }

  private runDecls(decls: Decl[], scope: Scope, ns: string[], onFunction?: (f: FuncDecl) => void): void {
    for (const d of decls) {
      if (d.kind === 'func' && onFunction && (d.bodyToks || d.body) && !d.owner) {
        this.frame.ns = ns;
        onFunction(d);
      } else if (d.kind === 'stmt') {
        this.frame.ns = ns;
        const sig = this.exec(d.s, scope);
        if (sig === RETURN) return;
        if (sig !== NORMAL) this.fail(`${sig === BREAK ? 'break' : 'continue'} outside a loop`, d.at);
      } else if (d.kind === 'namespace') this.runDecls(d.decls, scope, [...ns, d.name], onFunction);
      else if (d.kind === 'static_assert') {
        this.frame.ns = ns;
        this.staticAssert(d.e, d.msg, d.at, scope);
      }
    }
  }

  /**
   * Evaluates an entry such as `f`, `f<1, true>`, `ns::f<false, 8>(3, 1.0f)`: a bare name is called
   * with its default (template) arguments.
   */
  callEntry(entry: string, file = '<entry>'): Value {
    const { lex } = require_lex();
    const toks = lex(entry, file);
    const p = this.parser;
    const saved = { toks: p.toks, pos: p.pos };
    // parse with the file's knowledge of types and templates
    (p as unknown as { toks: typeof toks }).toks = toks;
    p.pos = 0;
    let e: Expr;
    try {
      e = p.expression();
      if (p.peek().kind !== 'eof') p.fail(`unexpected ${p.describe(p.peek())} in the entry '${entry}'`);
    } finally {
      (p as unknown as { toks: typeof toks }).toks = saved.toks;
      p.pos = saved.pos;
    }
    const frame: Frame = { ns: [], retType: VOID, scope: new Scope() };
    this.frames.push(frame);
    try {
      if (e.kind !== 'call') {
        const v = this.eval(e, frame.scope);
        if (v.k !== 'fn' && v.k !== 'builtin' && v.k !== 'lambda') return v;
        e = { kind: 'call', fn: e, args: [], at: e.at };
      }
      return this.eval(e, frame.scope);
    } finally {
      this.frames.pop();
    }
  }

  /** The functions of the translation unit (qualified names), for hints and corpus tools. */
  functionNames(): string[] {
    const out: string[] = [];
    for (const [name, ents] of this.table) if (ents.some((e) => e.k === 'func')) out.push(name);
    return out;
  }

  functionDecls(): { name: string; decl: FuncDecl }[] {
    const out: { name: string; decl: FuncDecl }[] = [];
    for (const [name, ents] of this.table)
      for (const e of ents) if (e.k === 'func') out.push({ name, decl: e.decl });
    return out;
  }

  // ---- statements ----
  exec(s: Stmt, scope: Scope): Signal {
    this.cur = s.at;
    try {
      return this.execInner(s, scope);
    } catch (err) {
      // limits are charged without a location in the hot path: name the statement here
      if (err instanceof AxsimError && !err.location?.line) throw err.at(this.loc(s.at));
      throw err;
    }
  }

  private execInner(s: Stmt, scope: Scope): Signal {
    this.budget.step(1);
    switch (s.kind) {
      case 'expr':
        // `x;` names x without reading it (a discarded-value expression, C++ [expr.context]/2)
        if (s.e.kind === 'name' && this.lookupName(s.e, scope).lv) return NORMAL;
        this.eval(s.e, scope);
        return NORMAL;
      case 'decl':
        for (const d of s.decls) this.localDecl(d, scope);
        return NORMAL;
      case 'block': {
        const inner = new Scope(scope);
        const sp = this.mem.sp;
        this.enter(s.at);
        try {
          for (const t of s.body) {
            const sig = this.exec(t, inner);
            if (sig !== NORMAL) return sig;
          }
          return NORMAL;
        } finally {
          this.mem.sp = sp;
          this.depth--;
        }
      }
      case 'if': {
        const inner = new Scope(scope);
        if (s.init) this.exec(s.init, inner);
        const c = this.truth(this.eval(s.c, inner), s.c.at);
        if (c) return this.exec(s.then, inner);
        if (s.else) return this.exec(s.else, inner);
        return NORMAL;
      }
      case 'for': {
        const inner = new Scope(scope);
        const sp = this.mem.sp;
        try {
          if (s.init) this.exec(s.init, inner);
          for (;;) {
            if (s.c && !this.truth(this.eval(s.c, inner), s.c.at)) break;
            this.budget.loop(1);
            const sig = this.exec(s.body, inner);
            if (sig === BREAK) break;
            if (sig === RETURN) return sig;
            if (s.step) {
              this.cur = s.step.at;
              this.eval(s.step, inner);
            }
          }
          return NORMAL;
        } finally {
          this.mem.sp = sp;
        }
      }
      case 'range-for': {
        const inner = new Scope(scope);
        const range = this.lval(s.range, inner);
        if (range.t.k !== 'array')
          this.unsupported(`range-for over ${typeName(range.t)} (arrays only)`, s.range.at);
        const arr = range.t as ArrayType;
        const es = this.sizeOf(arr.of);
        for (let k = 0; k < arr.n; k++) {
          this.budget.loop(1);
          const body = new Scope(inner);
          const elem: LV = { t: arr.of, addr: range.addr + k * es };
          const dt = this.resolveType(s.decl.type, body);
          if (dt.k === 'ref') body.vars.set(s.decl.name, { k: 'var', t: dt.to, addr: elem.addr });
          else {
            const t = dt.k === 'void' ? arr.of : dt;
            const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
            this.store({ t, addr }, this.load(elem), s.at);
            body.vars.set(s.decl.name, { k: 'var', t, addr });
          }
          const sig = this.exec(s.body, body);
          if (sig === BREAK) break;
          if (sig === RETURN) return sig;
        }
        return NORMAL;
      }
      case 'while':
        for (;;) {
          if (!this.truth(this.eval(s.c, scope), s.c.at)) break;
          this.budget.loop(1);
          const sig = this.exec(s.body, scope);
          if (sig === BREAK) break;
          if (sig === RETURN) return sig;
        }
        return NORMAL;
      case 'do':
        for (;;) {
          this.budget.loop(1);
          const sig = this.exec(s.body, scope);
          if (sig === BREAK) break;
          if (sig === RETURN) return sig;
          if (!this.truth(this.eval(s.c, scope), s.c.at)) break;
        }
        return NORMAL;
      case 'switch':
        return this.switchStmt(s, scope);
      case 'case':
      case 'default':
        return NORMAL;
      case 'break':
        return BREAK;
      case 'continue':
        return CONTINUE;
      case 'return': {
        const f = this.frame;
        if (s.e) {
          if (f.retType.k === 'ref') {
            const lv = this.lval(s.e, scope);
            f.ret = { k: 'ptr', t: { k: 'ptr', to: lv.t }, addr: lv.addr };
          } else if (s.e.kind === 'init' && !s.e.type) {
            const t = f.retType;
            const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
            this.initObject({ t, addr }, s.e, scope);
            f.ret = this.load({ t, addr });
          } else {
            const v = this.eval(s.e, scope);
            f.ret =
              f.retType === AUTO_RET
                ? v
                : f.retType.k === 'void'
                  ? { k: 'void' }
                  : this.convert(v, f.retType, s.e.at, false);
          }
        } else f.ret = { k: 'void' };
        return RETURN;
      }
      case 'empty':
        return NORMAL;
      case 'ext':
        if (!this.host.execExt) this.fail('a host statement with no host to run it', s.at);
        this.host.execExt(s, this, scope);
        return NORMAL;
    }
    return NORMAL;
  }

  /** Runs a list of statements (the body of an `ext` statement, e.g. `.rept`). */
  execList(body: Stmt[], scope?: Scope): void {
    const sc = scope ?? this.frame.scope;
    for (const t of body) {
      const sig = this.exec(t, sc);
      if (sig !== NORMAL) this.fail('break/continue/return inside a repeated block', t.at);
    }
  }

  /** The scope top-level statements run in (for hosts). */
  get topScope(): Scope {
    return this.frame.scope;
  }

  private switchStmt(s: Stmt & { kind: 'switch' }, scope: Scope): Signal {
    const v = this.eval(s.c, scope);
    if (v.k !== 'int') this.fail('switch needs an integer or enum value', s.c.at);
    const body = s.body.kind === 'block' ? s.body.body : [s.body];
    const inner = new Scope(scope);
    let start = -1;
    let dflt = -1;
    for (let k = 0; k < body.length; k++) {
      const b = body[k]!;
      if (b.kind === 'default') dflt = k;
      if (b.kind === 'case') {
        const c = this.eval(b.value, inner);
        if (c.k !== 'int') this.fail('case needs an integer constant', b.value.at);
        if (b.hi) {
          const hi = this.eval(b.hi, inner);
          if (hi.k === 'int' && v.v >= c.v && v.v <= hi.v) {
            start = k;
            break;
          }
        } else if (
          c.v === BigInt.asIntN(64, v.v) ||
          c.v === v.v ||
          BigInt.asUintN(intOf(v.t as IntType).bits, c.v) === BigInt.asUintN(intOf(v.t as IntType).bits, v.v)
        ) {
          start = k;
          break;
        }
      }
    }
    if (start < 0) start = dflt;
    if (start < 0) return NORMAL;
    const sp = this.mem.sp;
    try {
      for (let k = start; k < body.length; k++) {
        const sig = this.exec(body[k]!, inner);
        if (sig === BREAK) return NORMAL;
        if (sig !== NORMAL) return sig;
      }
    } finally {
      this.mem.sp = sp;
    }
    return NORMAL;
  }

  private staticAssert(e: Expr, msg: string | undefined, at: SrcLoc, scope: Scope): void {
    const v = this.eval(e, scope);
    if (!this.truth(v, at)) this.fail(`static_assert failed${msg ? `: ${msg}` : ''}`, at);
  }

  private localDecl(d: Decl, scope: Scope): void {
    switch (d.kind) {
      case 'var':
        this.varDecl(d, scope);
        return;
      case 'static_assert':
        this.staticAssert(d.e, d.msg, d.at, scope);
        return;
      case 'alias':
        scope.vars.set(d.name, { k: 'type', t: this.resolveType(d.type, scope) });
        return;
      case 'record':
      case 'enum':
        // local types: visible by name in this scope
        if (d.name) {
          if (d.kind === 'enum') {
            const et = this.enumType(d, scope);
            scope.vars.set(d.name, { k: 'type', t: et });
            if (!d.scoped)
              for (const [n, v] of et.values) scope.vars.set(n, { k: 'value', v: { k: 'int', t: et, v } });
          } else scope.vars.set(d.name, { k: 'type', t: this.instantiateLocal(d, scope) });
        }
        return;
      case 'using-ns': {
        // a using-directive in a function body, met again on every call: recorded once
        const target = d.parts.map((p) => p.name).join('::');
        const ns = this.frame.ns;
        if (
          !this.usings.some(
            (u) => u.target === target && u.ns.length === ns.length && u.ns.every((p, k) => p === ns[k]),
          )
        ) {
          this.usings.push({ ns, target });
          this.clearLookups();
        }
        return;
      }
      case 'using-decl':
      case 'nothing':
        return;
      case 'func':
        return;
      default:
        this.unsupported(`a local ${d.kind} declaration`, d.at);
    }
  }

  /**
   * A static local's identity: its declaration, in a template (or a member of a class template)
   * also the instance — C++ [temp.inst]: `f<int>` and `f<long>`, `S<int>::g` and `S<long>::g`
   * each have their own. Outside templates: the declaration itself.
   */
  private staticLocalKey(d: VarDecl): VarDecl | string {
    const fr = this.frame;
    const tps = fr.fn?.tparams;
    if (!tps?.length && !fr.record?.bindings.size) return d;
    let id = this.staticLocalKeys.get(d);
    if (id === undefined) {
      id = this.nextObjId++;
      this.staticLocalKeys.set(d, id);
    }
    let key = `${id}|${fr.record ? this.objId(fr.record) : ''}|`;
    for (const p of tps ?? []) {
      const b = fr.scope.vars.get(p.name);
      key += `${b ? this.bindingKey(b) : '?'},`;
    }
    return key;
  }

  private varDecl(d: VarDecl, scope: Scope): void {
    if (d.static && this.frames.length > 0) {
      const key = this.staticLocalKey(d);
      let lv = this.staticLocals.get(key);
      if (!lv) {
        lv = this.allocVar(d, scope, true);
        this.staticLocals.set(key, lv);
      }
      scope.vars.set(d.name, { k: 'var', t: lv.t, addr: lv.addr });
      return;
    }
    if (d.extern) return;
    if (d.type.kind === 'auto' && d.init && d.init.kind !== 'init') {
      // `auto x = e;`: e is evaluated once; functions and lambdas are bound as values
      const v = this.eval(d.init, scope);
      if (v.k === 'fn' || v.k === 'lambda' || v.k === 'builtin' || v.k === 'host' || v.k === 'type') {
        scope.vars.set(d.name, { k: 'value', v });
        return;
      }
      let t = this.valueType(v);
      if (t.k === 'array') t = { k: 'ptr', to: t.of };
      if (t.k === 'void') this.fail(`variable ${d.name} of type void`, d.at);
      const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
      this.store({ t, addr }, t.k === 'ptr' && v.k === 'obj' ? this.decay(v, d.at) : v, d.at);
      scope.vars.set(d.name, { k: 'var', t, addr });
      return;
    }
    const lv = this.allocVar(d, scope, false);
    scope.vars.set(d.name, { k: 'var', t: lv.t, addr: lv.addr });
  }

  /** Allocates and initialises a variable; references bind to their initialiser's object. */
  private allocVar(d: VarDecl, scope: Scope, statik: boolean): LV {
    let t = this.resolveType(d.type, scope, d.init);
    if (t.k === 'ref') {
      if (!d.init) this.fail(`reference ${d.name} needs an initialiser`, d.at);
      const target = this.bindRef(t.to, d.init, scope, plainLvalueRef(d.type));
      return target;
    }
    if (t.k === 'array' && t.n < 0) {
      // `T a[] = {…}` / `char s[] = "…"`
      const n =
        d.init?.kind === 'init'
          ? this.initCount(d.init)
          : d.init?.kind === 'string'
            ? d.init.value.length + 1
            : -1;
      if (n < 0) this.fail(`array ${d.name} needs a size or an initialiser`, d.at);
      t = { k: 'array', of: t.of, n };
    }
    if (t.k === 'void') this.fail(`variable ${d.name} of type void`, d.at);
    const size = this.sizeOf(t);
    let align = this.alignOf(t);
    if (d.align) {
      const a = Number(this.intValue(this.eval(d.align, scope), d.align.at));
      if (a <= 0 || (a & (a - 1)) !== 0 || a > 1 << 16)
        this.fail(`alignment ${a} is not a power of two up to 65536`, d.align.at);
      align = Math.max(align, a);
    }
    const addr = statik ? this.mem.galloc(size, align) : this.mem.alloca(size, align);
    const lv: LV = { t, addr };
    this.mem.zero(addr, size);
    // automatic storage without an initialiser is indeterminate (C++ [dcl.init]/12, [basic.indet]);
    // so are the members a constructor leaves alone: marked unwritten until something stores them
    if (!statik && (d.init || d.ctorArgs ? this.ctorInitialised(t, d.init) : true))
      this.mem.markUnset(addr, size, { name: d.name, t, at: d.at } satisfies Unset);
    if (d.ctorArgs)
      this.construct(
        lv,
        d.ctorArgs.map((a) => this.evalArg(a, scope)),
        d.at,
      );
    else if (d.init) this.initObject(lv, d.init, scope);
    else if (t.k === 'record' || t.k === 'array') this.defaultConstruct(lv, d.at);
    return lv;
  }

  /**
   * Whether initialising an object of type `t` from `init` (or from `(args)`) runs a user-declared
   * constructor and nothing else, so members that constructor does not write stay indeterminate:
   * `T x(args)`, `T x{args}`, and `T x{}` / `T x = {}` when T's default constructor is user-provided
   * ([dcl.init]/8: value-initialisation is then default-initialisation). Not so for aggregate
   * initialisation (the rest is zeroed) and other value-initialisation, nor for copy-initialisation
   * from an expression (not checked: see docs/cfront.md).
   */
  private ctorInitialised(t: CType, init: Expr | undefined): boolean {
    if (t.k !== 'record') return false;
    if (init && init.kind !== 'init') return false;
    const cs = this.ctors(t);
    if (cs.length === 0) return false;
    if (init && init.items.length === 0)
      return cs.some((c) => (c.body || c.bodyToks) && c.params.every((p) => p.default || p.pack));
    return true;
  }

  private bindRef(to: CType, init: Expr, scope: Scope, plain = false): LV {
    if (this.isLvalueExpr(init)) {
      const lv = this.lval(init, scope);
      if (to.k === 'void' || to.k === 'record' || to.k === 'array' || sameType(to, lv.t))
        return { t: to.k === 'void' ? lv.t : lv.t, addr: lv.addr };
      if (plain) this.refMismatch(to, lv.t, init.at);
    }
    // a temporary (const T& = rvalue)
    const v = this.eval(init, scope);
    const t = to.k === 'void' ? this.valueType(v) : to;
    const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
    this.store({ t, addr }, v, init.at);
    return { t, addr };
  }

  private initCount(e: Expr & { kind: 'init' }): number {
    let n = 0;
    let k = 0;
    for (const it of e.items) {
      const d = it.designator?.[0];
      if (d && 'index' in d) {
        const v = this.eval(d.index, this.frame.scope);
        k = Number((v as { v: bigint }).v);
      }
      k++;
      n = Math.max(n, k);
    }
    return n;
  }

  // ---- objects ----
  /** Initialises the object at `lv` from an initialiser expression (`= x`, `{…}`, `"str"`). */
  initObject(lv: LV, init: Expr, scope: Scope): void {
    const t = lv.t;
    if (init.kind === 'init' && (!init.type || t.k !== 'record' || true)) {
      if (init.type) {
        // `T{…}` as an initialiser of a T: the same thing
        const it = this.resolveType(init.type, scope);
        if (!sameType(it, t) || t.k !== 'record') {
          const v = this.eval(init, scope);
          this.store(lv, v, init.at);
          return;
        }
      }
      this.initList(lv, init.items, scope, init.at);
      return;
    }
    if (t.k === 'array' && init.kind === 'string') {
      const bytes = new TextEncoder().encode(init.value);
      const v = this.mem.view(lv.addr, this.sizeOf(t));
      v.fill(0);
      v.set(bytes.subarray(0, v.length));
      return;
    }
    if (t.k === 'record') {
      const v = this.eval(init, scope);
      if (v.k === 'obj' && v.t.k === 'record' && (sameType(v.t, t) || this.isBaseOf(t, v.t))) {
        this.copyRecord(lv, v);
        return;
      }
      this.construct(lv, [{ v, lv: undefined, e: init }], init.at);
      return;
    }
    const v = this.eval(init, scope);
    this.store(lv, v, init.at);
  }

  private isBaseOf(base: RecordType, derived: CType): boolean {
    if (derived.k !== 'record') return false;
    return derived.bases.some((b) => sameType(b, base) || this.isBaseOf(base, b));
  }

  private copyRecord(dst: LV, v: Value & { k: 'obj' }): void {
    const size = Math.min(this.sizeOf(dst.t), this.sizeOf(v.t));
    if (dst.addr !== v.addr) this.mem.copy(dst.addr, v.addr, size);
  }

  private initList(lv: LV, items: InitItem[], scope: Scope, at: SrcLoc): void {
    const t = lv.t;
    if (t.k === 'array') {
      const es = this.sizeOf(t.of);
      let k = 0;
      for (const it of items) {
        if (it.designator?.length) {
          const d = it.designator[0]!;
          if (!('index' in d)) this.fail('a field designator in an array initialiser', at);
          k = Number(this.intValue(this.eval(d.index, scope), at));
          if (it.designator.length > 1) this.unsupported('nested designators in array initialisers', at);
        }
        if (k >= t.n) this.fail(`too many initialisers for an array of ${t.n}`, it.value.at);
        this.initObject({ t: t.of, addr: lv.addr + k * es }, it.value, scope);
        k++;
      }
      return;
    }
    if (t.k === 'record') {
      if (this.ctors(t).length > 0) {
        this.construct(
          lv,
          items.map((i) => this.evalArg(i.value, scope)),
          at,
        );
        return;
      }
      const fields = this.allFields(t);
      let k = 0;
      for (let ii = 0; ii < items.length; ii++) {
        const it = items[ii]!;
        let target: LV;
        if (it.designator?.length) {
          let cur: LV = lv;
          for (const d of it.designator) {
            if ('field' in d) {
              if (cur.t.k !== 'record') this.fail(`.${d.field} designates a field of a non-struct`, at);
              const f = this.allFields(cur.t).find((x) => x.name === d.field);
              if (!f) this.fail(`${typeName(cur.t)} has no field '${d.field}'`, it.value.at);
              if (cur === lv) k = fields.indexOf(f) + 1;
              cur = { t: f.t, addr: cur.addr + f.offset };
            } else {
              if (cur.t.k !== 'array') this.fail('[index] designates an element of a non-array', at);
              const i = Number(this.intValue(this.eval(d.index, scope), at));
              cur = { t: cur.t.of, addr: cur.addr + i * this.sizeOf(cur.t.of) };
            }
          }
          target = cur;
        } else {
          const f = fields[k++];
          if (!f) this.fail(`too many initialisers for ${typeName(t)}`, it.value.at);
          target = { t: f.t, addr: lv.addr + f.offset };
          if (t.union) k = fields.length;
          // brace elision (C++ [dcl.init.aggr]/16): an array member of scalars given without its
          // braces takes its elements from this and the following initialisers (`std::array<T, 2>{a, b}`)
          const ft = f.t;
          if (
            ft.k === 'array' &&
            ft.n > 0 &&
            (isArithmetic(ft.of) || ft.of.k === 'ptr') &&
            it.value.kind !== 'init' &&
            it.value.kind !== 'string'
          ) {
            const es = this.sizeOf(ft.of);
            let j = 0;
            for (; j < ft.n && ii < items.length && !items[ii]!.designator?.length; j++, ii++)
              this.initObject({ t: ft.of, addr: target.addr + j * es }, items[ii]!.value, scope);
            ii--;
            continue;
          }
        }
        this.initObject(target, it.value, scope);
      }
      // default member initialisers for the fields not given
      for (const f of fields.slice(k))
        if (
          f.init &&
          !items.some(
            (i) => i.designator?.[0] && 'field' in i.designator[0] && i.designator[0].field === f.name,
          )
        )
          this.initObject({ t: f.t, addr: lv.addr + f.offset }, f.init, this.recordScope(t));
      return;
    }
    // scalar `{x}` / `{}`
    if (items.length === 0) {
      this.mem.zero(lv.addr, this.sizeOf(t));
      return;
    }
    if (items.length > 1) this.fail(`too many initialisers for ${typeName(t)}`, items[1]!.value.at);
    this.initObject(lv, items[0]!.value, scope);
  }

  private allFields(t: RecordType): { name: string; t: CType; offset: number; init?: Expr }[] {
    this.complete(t);
    return t.fields;
  }

  /** The constructors of `t` (one array per member list while the table is unchanged: see `choices`). */
  private ctors(t: RecordType): FuncDecl[] {
    const all = this.methods.get(t.decl)?.get(t.decl.name.split('::').pop()!);
    if (!all) return [];
    let cs = this.ctorLists.get(all);
    if (!cs) {
      cs = all.filter((f) => f.isCtor);
      this.ctorLists.set(all, cs);
    }
    return cs;
  }
  private ctorLists = new WeakMap<FuncDecl[], FuncDecl[]>();

  /** Whether `t` declares a constructor callable without arguments. */
  private hasDefaultCtor(t: RecordType): boolean {
    return this.ctors(t).some((c) => c.params.every((p) => p.default || p.pack));
  }

  /**
   * Default-initialises the object at `lv` ([dcl.init]/7): constructors and default member
   * initialisers. `lenient`: a class with constructors but none callable without arguments is left
   * as it is (elements and members, where the tree walker did not construct before).
   */
  private defaultConstruct(lv: LV, at: SrcLoc, lenient = false): void {
    if (lv.t.k === 'array') {
      // each element of class type is default-constructed; scalars stay as they are
      let e = lv.t.of;
      while (e.k === 'array') e = e.of;
      if (e.k !== 'record') return;
      const es = this.sizeOf(lv.t.of);
      for (let k = 0; k < lv.t.n; k++)
        this.defaultConstruct({ t: lv.t.of, addr: lv.addr + k * es }, at, true);
      return;
    }
    if (lv.t.k !== 'record') return;
    const t = lv.t;
    const cs = this.ctors(t);
    if (cs.length) {
      if (!lenient || this.hasDefaultCtor(t)) this.construct(lv, [], at);
      return;
    }
    for (const f of this.allFields(t)) {
      if (f.init) this.initObject({ t: f.t, addr: lv.addr + f.offset }, f.init, this.recordScope(t));
      else if (f.t.k === 'record') this.defaultConstruct({ t: f.t, addr: lv.addr + f.offset }, at, lenient);
      else if (f.t.k === 'array') this.defaultConstruct({ t: f.t, addr: lv.addr + f.offset }, at, true);
    }
  }

  private recordScope(t: RecordType): Scope {
    const s = new Scope();
    for (const [k, b] of t.bindings) s.vars.set(k, b);
    return s;
  }

  /** Runs a constructor of the record at `lv` (or aggregate-initialises from the arguments). */
  construct(lv: LV, args: ArgVal[], at: SrcLoc): void {
    const t = lv.t;
    if (t.k !== 'record') {
      if (args.length === 0) {
        this.mem.zero(lv.addr, this.sizeOf(t));
        return;
      }
      this.store(lv, this.argValue(args[0]!), at);
      return;
    }
    const cs = this.ctors(t);
    if (cs.length === 0) {
      // copy or aggregate
      if (args.length === 1 && args[0]!.v.k === 'obj' && args[0]!.v.t.k === 'record') {
        this.copyRecord(lv, args[0]!.v as Value & { k: 'obj' });
        return;
      }
      if (args.length === 0) {
        this.defaultConstruct(lv, at);
        return;
      }
      const fields = this.allFields(t);
      args.forEach((a, k) => {
        const f = fields[k];
        if (!f) this.fail(`too many initialisers for ${typeName(t)}`, at);
        this.store({ t: f.t, addr: lv.addr + f.offset }, this.argValue(a), at);
      });
      return;
    }
    if (
      args.length === 1 &&
      args[0]!.v.k === 'obj' &&
      sameType(args[0]!.v.t, t) &&
      !cs.some((c) => c.params.length === 1 && this.isSelfRef(c, t))
    ) {
      this.copyRecord(lv, args[0]!.v as Value & { k: 'obj' });
      return;
    }
    this.callFunctions(cs, undefined, args, { t, addr: lv.addr }, at, `${t.name} constructor`, t);
  }

  private isSelfRef(c: FuncDecl, t: RecordType): boolean {
    const p = c.params[0]!.type;
    return (
      p.kind === 'ref' &&
      p.to.kind === 'named' &&
      p.to.parts[p.to.parts.length - 1]!.name === t.decl.name.split('::').pop()
    );
  }

  // ---- types ----
  /** Size of a complete type (records are laid out on first use). */
  sizeOf(t: CType): number {
    this.completeDeep(t);
    return sizeOf(t, this.model);
  }
  alignOf(t: CType): number {
    this.completeDeep(t);
    return alignOf(t, this.model);
  }
  private completeDeep(t: CType): void {
    while (t.k === 'array' || t.k === 'ref') t = t.k === 'array' ? t.of : t.to;
    if (t.k === 'record' && !t.complete) this.complete(t);
  }

  resolveType(ts: TypeSyntax, scope: Scope, init?: Expr): CType {
    switch (ts.kind) {
      case 'builtin': {
        const t = builtinType(ts.name, this.model);
        if (!t) this.unsupported(`type ${ts.name}`, ts.at);
        return t;
      }
      case 'ptr':
        return { k: 'ptr', to: this.resolveType(ts.to, scope) };
      case 'ref':
        return { k: 'ref', to: this.resolveType(ts.to, scope, init) };
      case 'array': {
        const of = this.resolveType(ts.of, scope);
        if (!ts.size) return { k: 'array', of, n: -1 };
        const n = Number(this.intValue(this.eval(ts.size, scope), ts.size.at));
        if (n < 0 || n > 1 << 28) this.fail(`array size ${n} is out of range`, ts.size.at);
        return { k: 'array', of, n };
      }
      case 'func':
        return {
          k: 'func',
          ret: this.resolveType(ts.ret, scope),
          params: ts.params.map((p) => this.resolveType(p, scope)),
        };
      case 'auto': {
        if (!init) return VOID; // deduced by the caller
        return this.exprType(init, scope);
      }
      case 'decltype':
        return this.exprType(ts.expr, scope);
      case 'record':
        if (ts.def.kind === 'enum') return this.enumType(ts.def, scope);
        return this.instantiateLocal(ts.def, scope);
      case 'named':
        return this.namedType(ts.parts, scope, ts.at, ts.global);
    }
  }

  /** The type of an expression, by evaluating it in a throw-away frame of memory. */
  private exprType(e: Expr, scope: Scope): CType {
    const sp = this.mem.sp;
    try {
      if (this.isLvalueExpr(e)) return this.lval(e, scope).t;
      return this.valueType(this.eval(e, scope));
    } finally {
      this.mem.sp = sp;
    }
  }

  valueType(v: Value): CType {
    switch (v.k) {
      case 'int':
      case 'float':
      case 'ptr':
      case 'obj':
        return v.t;
      case 'void':
        return VOID;
      case 'type':
        return v.t;
      default:
        return VOID;
    }
  }

  private namedType(parts: NamePart[], scope: Scope, at: SrcLoc, global?: boolean): CType {
    if (parts.length === 1 && !global) {
      const first = parts[0]!.name;
      const b = scope.get(first) ?? this.frame.scope.get(first);
      if (b?.k === 'type') return b.t;
    }
    const names = parts.map((p) => p.name);
    const full = names.join('::');
    if (names.length === 1 && !global) {
      const rec = this.frame.record;
      if (rec) {
        const bb = rec.bindings.get(names[0]!);
        if (bb?.k === 'type') return bb.t;
        const nested = this.lookupGlobal([rec.decl.name.split('::').pop()!, ...names], rec.decl.ns);
        if (nested) {
          const t = this.typeFromEntities(nested.ents, parts, scope, at);
          if (t) return t;
        }
      }
    }
    // `T::type` on a template parameter is not modelled
    if (full === 'nullptr_t' || full === 'std::nullptr_t') return NULLPTR;
    const r = this.lookupGlobal(names, this.frame.ns, global);
    if (r) {
      const t = this.typeFromEntities(r.ents, parts, scope, at);
      if (t) return t;
    }
    if (names.length > 1) {
      // `Rec<args>::Nested`
      const head = this.tryType(parts.slice(0, -1), scope, at);
      if (head?.k === 'record') {
        const inner = this.lookupGlobal(
          [...head.decl.ns, head.decl.name.split('::').pop()!, names[names.length - 1]!],
          [],
        );
        if (inner) {
          const t = this.withBindings(head, () =>
            this.typeFromEntities(inner.ents, parts.slice(-1), this.recordScope(head), at),
          );
          if (t) return t;
        }
      }
    }
    const last = names[names.length - 1]!;
    const ht = this.host.typeFor?.(full);
    if (ht) return ht;
    if (SFPI_NAMES.has(last) || names[0] === 'sfpi') throw this.sfpi(full, at);
    const err = this.host.unknownName?.(full, at);
    if (err) throw err;
    const near = nearestName(
      last,
      [...this.table.keys()].map((k) => k.split('::').pop()!),
    );
    this.fail(`unknown type '${full}'`, at, near ? `did you mean ${near}?` : undefined);
  }

  private tryType(parts: NamePart[], scope: Scope, at: SrcLoc): CType | undefined {
    try {
      return this.namedType(parts, scope, at);
    } catch (e) {
      if (e instanceof AxsimError) return undefined;
      throw e;
    }
  }

  private withBindings<T>(rec: RecordType, f: () => T): T {
    const frame: Frame = {
      ns: [...rec.decl.ns, rec.decl.name.split('::').pop()!],
      record: rec,
      retType: VOID,
      scope: this.recordScope(rec),
    };
    this.frames.push(frame);
    try {
      return f();
    } finally {
      this.frames.pop();
    }
  }

  private typeFromEntities(ents: Entity[], parts: NamePart[], scope: Scope, at: SrcLoc): CType | undefined {
    const last = parts[parts.length - 1]!;
    for (const e of ents) {
      if (e.k === 'record') {
        const targs = last.targs ? this.evalTArgs(last.targs, scope) : [];
        const recs = ents.filter((x) => x.k === 'record').map((x) => (x as { decl: RecordDecl }).decl);
        return this.instantiateBest(recs, targs, scope, at);
      }
      if (e.k === 'enum') return this.enumType(e.decl, scope);
      if (e.k === 'alias') {
        const a = e.decl;
        const s = new Scope();
        if (a.tparams) {
          const targs = last.targs ? this.evalTArgs(last.targs, scope) : [];
          a.tparams.forEach((p, k) => {
            const v = targs[k];
            if (v) s.vars.set(p.name, v);
          });
        }
        const frame: Frame = { ns: a.ns, retType: VOID, scope: s };
        this.frames.push(frame);
        try {
          return this.resolveType(a.type, s);
        } finally {
          this.frames.pop();
        }
      }
    }
    return undefined;
  }

  private sfpi(name: string, at: SrcLoc): AxsimError {
    return unsupported(
      `SFPI: '${name}' is not defined here: axsim's SFPI library (the LLK environment's sfpi.h) lacks it or is not included (later sfpi versions added names it does not model)`,
      {
        location: this.loc(at),
        hint: 'docs/sfpi-library.md lists what is modelled (src/tensix/sfpi/header.ts); docs/tensix-metal-corpus.md the later members tt-metal kernels use',
      },
    );
  }

  /** Template arguments evaluated: types as `type` bindings, values as `value` bindings. */
  evalTArgs(targs: TArg[], scope: Scope): Binding[] {
    return targs.map((a) => {
      if ('type' in a) {
        // a name that is a value parses as a type when unknown: try it as an expression
        if (a.type.kind === 'named' && !a.type.cv) {
          const t = this.tryType(a.type.parts, scope, a.type.at);
          if (t) return { k: 'type', t } as Binding;
          return {
            k: 'value',
            v: this.eval({ kind: 'name', parts: a.type.parts, at: a.type.at }, scope),
          } as Binding;
        }
        return { k: 'type', t: this.resolveType(a.type, scope) } as Binding;
      }
      const v = this.eval(a.expr, scope);
      if (v.k === 'type') return { k: 'type', t: v.t } as Binding;
      return { k: 'value', v } as Binding;
    });
  }

  private bindingKey(b: Binding): string {
    if (b.k === 'type') return `T:${typeName(b.t)}`;
    if (b.k === 'value') {
      const v = b.v;
      if (v.k === 'int') return `V:${v.v}`;
      if (v.k === 'float') return `F:${v.v}`;
      if (v.k === 'ptr') return `P:${v.addr}`;
      return `?:${v.k}`;
    }
    return '?';
  }

  private instantiateBest(recs: RecordDecl[], targs: Binding[], scope: Scope, at: SrcLoc): RecordType {
    // explicit/partial specialisations: only full specialisations with matching arguments
    const primary = recs.find((r) => !r.specArgs) ?? recs[0]!;
    if (targs.length || primary.tparams?.length) {
      const full = this.completeTArgs(primary, targs, scope, at);
      const key = full.map((b) => this.bindingKey(b)).join(',');
      for (const r of recs) {
        if (!r.specArgs || r.tparams?.length) continue;
        const sa = this.evalTArgs(r.specArgs, scope);
        if (sa.map((b) => this.bindingKey(b)).join(',') === key) return this.instantiate(r, [], scope);
      }
      // partial specialisations (C++17 [temp.class.spec.match]): the one whose pattern matches, the
      // most specialised first (fewest parameters of its own left to deduce)
      let best: { r: RecordDecl; args: Binding[] } | undefined;
      for (const r of recs) {
        if (!r.specArgs || !r.tparams?.length || r.forward) continue;
        const args = this.matchPartial(r, full, scope);
        if (args && (!best || r.tparams.length < best.r.tparams!.length)) best = { r, args };
      }
      if (best) return this.instantiate(best.r, best.args, scope);
      return this.instantiate(primary, full, scope);
    }
    return this.instantiate(primary, [], scope);
  }

  /**
   * Deduces a partial specialisation's own parameters from the arguments of a use: an argument
   * written as one of its parameters binds it (the same parameter twice must bind the same thing);
   * any other argument is evaluated with what is bound so far and must equal the use's. Returns the
   * bindings in the specialisation's parameter order, or undefined when it does not match.
   */
  private matchPartial(r: RecordDecl, full: Binding[], scope: Scope): Binding[] | undefined {
    const pats = r.specArgs!;
    if (pats.length !== full.length) return undefined;
    const own = new Map(r.tparams!.map((p) => [p.name, p]));
    const bound = new Map<string, Binding>();
    const nameOf = (a: TArg): string | undefined => {
      if ('type' in a) {
        const t = a.type;
        return t.kind === 'named' && !t.cv && !t.global && t.parts.length === 1 && !t.parts[0]!.targs
          ? t.parts[0]!.name
          : undefined;
      }
      const e = a.expr;
      return e.kind === 'name' && !e.global && e.parts.length === 1 && !e.parts[0]!.targs
        ? e.parts[0]!.name
        : undefined;
    };
    const deferred: number[] = [];
    for (let k = 0; k < pats.length; k++) {
      const n = nameOf(pats[k]!);
      if (n !== undefined && own.has(n)) {
        const prev = bound.get(n);
        if (prev && this.bindingKey(prev) !== this.bindingKey(full[k]!)) return undefined;
        bound.set(n, full[k]!);
      } else deferred.push(k);
    }
    if (deferred.length) {
      const s = new Scope(scope);
      for (const [n, b] of bound) s.vars.set(n, b);
      for (const k of deferred) {
        let b: Binding;
        try {
          b = this.evalTArgs([pats[k]!], s)[0]!;
        } catch (err) {
          // a pattern this matcher cannot read (`T*`, `Foo<T>` with T still free) is not a match
          if (err instanceof AxsimError) return undefined;
          throw err;
        }
        if (this.bindingKey(b) !== this.bindingKey(full[k]!)) return undefined;
      }
    }
    const out: Binding[] = [];
    for (const p of r.tparams!) {
      const b = bound.get(p.name);
      if (!b) return undefined;
      out.push(b);
    }
    return out;
  }

  private completeTArgs(
    rec: { tparams?: RecordDecl['tparams']; name: string },
    targs: Binding[],
    scope: Scope,
    at: SrcLoc,
  ): Binding[] {
    const tps = rec.tparams ?? [];
    const out = targs.slice();
    const s = new Scope(scope);
    tps.forEach((p, k) => {
      if (out[k]) {
        s.vars.set(p.name, out[k]!);
        return;
      }
      if (!p.default) this.fail(`${rec.name}: no value for template parameter ${p.name}`, at);
      const b = this.evalTArgs([p.default], s)[0]!;
      out[k] = b;
      s.vars.set(p.name, b);
    });
    return out;
  }

  /** The record type of `decl` with template arguments `targs` (laid out on first use). */
  /**
   * A class defined where it is used (`union { From f; To t; } u;`, a local `struct`): its members
   * see the type and value names of the enclosing scopes (a function template's parameters), so one
   * instance per set of those bindings.
   */
  private instantiateLocal(d: RecordDecl, scope: Scope): RecordType {
    if (d.tparams?.length) return this.instantiate(d, [], scope);
    const outer = new Map<string, Binding>();
    for (let sc: Scope | undefined = scope; sc; sc = sc.parent)
      for (const [k, b] of sc.vars) if ((b.k === 'type' || b.k === 'value') && !outer.has(k)) outer.set(k, b);
    if (outer.size === 0) return this.instantiate(d, [], scope);
    const names = [...outer.keys()].sort();
    const key = `local#${this.declId(d)}<${names.map((n) => `${n}=${this.bindingKey(outer.get(n)!)}`).join(',')}>`;
    let t = this.records.get(key);
    if (t) return t;
    t = {
      ...this.instantiate(d, [], scope),
      bindings: outer,
      fields: [],
      size: 0,
      align: 1,
      bases: [],
      complete: false,
    };
    this.records.set(key, t);
    return t;
  }

  /** instantiate(d, []) of a defined (not forward) record: its one RecordType, without the key string. */
  private readonly plainRecords = new Map<RecordDecl, RecordType>();

  instantiate(decl: RecordDecl, targs: Binding[], _scope: Scope): RecordType {
    const plain = targs.length === 0 && !decl.forward;
    if (plain) {
      const p = this.plainRecords.get(decl);
      if (p) return p;
    }
    let d = decl;
    if (d.forward) {
      const full = this.table
        .get([...d.ns, d.name].join('::'))
        ?.find(
          (e) =>
            e.k === 'record' &&
            !(e as { decl: RecordDecl }).decl.forward &&
            !(e as { decl: RecordDecl }).decl.specArgs,
        );
      if (full) d = (full as { decl: RecordDecl }).decl;
    }
    const key = `${d.ns.join('::')}::${d.name}<${targs.map((b) => this.bindingKey(b)).join(',')}>#${this.declId(d)}`;
    let t = this.records.get(key);
    if (t) {
      if (plain) this.plainRecords.set(decl, t);
      return t;
    }
    const bindings = new Map<string, Binding>();
    (d.tparams ?? []).forEach((p, k) => {
      if (targs[k]) bindings.set(p.name, targs[k]!);
    });
    t = {
      k: 'record',
      name:
        d.name +
        (targs.length
          ? `<${targs.map((b) => (b.k === 'type' ? typeName(b.t) : b.k === 'value' && b.v.k === 'int' ? String(b.v.v) : '…')).join(', ')}>`
          : ''),
      decl: d,
      bindings,
      fields: [],
      size: 0,
      align: 1,
      union: d.tag === 'union',
      bases: [],
      complete: false,
    };
    this.records.set(key, t);
    if (plain) this.plainRecords.set(decl, t);
    return t;
  }

  private ids = new WeakMap<object, number>();
  private nextId = 1;
  private declId(d: object): number {
    let id = this.ids.get(d);
    if (!id) {
      id = this.nextId++;
      this.ids.set(d, id);
    }
    return id;
  }

  /** Lays out a record's fields (bases first, then members in order; unions overlap). */
  complete(t: RecordType): void {
    if (t.complete) return;
    if (t.decl.forward) this.fail(`${t.name} is declared but not defined`, t.decl.at);
    t.complete = true;
    this.withBindings(t, () => {
      const scope = this.recordScope(t);
      let off = 0;
      let align = 1;
      for (const b of t.decl.bases) {
        const bt = this.resolveType(b, scope);
        if (bt.k !== 'record') this.fail(`base ${typeName(bt)} is not a class`, b.at);
        this.complete(bt);
        t.bases.push(bt);
        off = Math.ceil(off / bt.align) * bt.align;
        for (const f of bt.fields) t.fields.push({ ...f, offset: f.offset + off });
        off += bt.size;
        align = Math.max(align, bt.align);
      }
      for (const m of t.decl.members) {
        if (m.kind !== 'var' || m.static || m.constexpr) {
          if (m.kind === 'record' && !m.name && !m.forward) {
            // anonymous struct/union member: its fields are the record's
            const inner = this.instantiate(m, [], scope);
            this.complete(inner);
            const a = inner.align;
            const o = t.union ? 0 : Math.ceil(off / a) * a;
            for (const f of inner.fields) t.fields.push({ ...f, offset: f.offset + o });
            if (!t.union) off = o + inner.size;
            else off = Math.max(off, inner.size);
            align = Math.max(align, a);
          }
          continue;
        }
        const ft = this.resolveType(m.type, scope);
        if (ft.k === 'ref') this.unsupported('reference members', m.at);
        if (ft.k === 'array' && ft.n < 0) this.unsupported('flexible array members', m.at);
        const fa = this.alignOf(ft);
        const fs = this.sizeOf(ft);
        align = Math.max(align, fa);
        if (t.union) {
          t.fields.push({ name: m.name, t: ft, offset: 0, init: m.init });
          off = Math.max(off, fs);
        } else {
          off = Math.ceil(off / fa) * fa;
          t.fields.push({ name: m.name, t: ft, offset: off, init: m.init });
          off += fs;
        }
      }
      t.align = align;
      t.size = Math.max(1, Math.ceil(off / align) * align);
    });
  }

  enumType(d: EnumDecl, scope: Scope): EnumType {
    let t = this.enums.get(d);
    if (t) return t;
    let base: IntType = I32;
    if (d.underlying) {
      const u = this.resolveType(d.underlying, scope);
      if (u.k === 'int') base = u;
      else if (u.k === 'bool') base = U8;
      else this.fail('an enum underlying type must be an integer type', d.at);
    }
    t = { k: 'enum', name: d.name || '(anonymous enum)', decl: d, base, values: new Map() };
    this.enums.set(d, t);
    let next = 0n;
    const s = new Scope(scope);
    const frame: Frame = { ns: d.ns, retType: VOID, scope: s };
    this.frames.push(frame);
    try {
      for (const v of d.values) {
        const val = v.value ? this.intValue(this.eval(v.value, s), v.at) : next;
        t.values.set(v.name, val);
        s.vars.set(v.name, { k: 'value', v: { k: 'int', t: base, v: val } });
        next = val + 1n;
      }
    } finally {
      this.frames.pop();
    }
    if (!d.underlying) {
      // unscoped enums without a fixed type: int unless a value needs more
      const max = [...t.values.values()].reduce((a, b) => (a > b ? a : b), 0n);
      const min = [...t.values.values()].reduce((a, b) => (a < b ? a : b), 0n);
      // ([dcl.enum]/7, [conv.prom]/3): the first of int, unsigned int, long, unsigned long, long
      // long, unsigned long long that holds every value (lp64: long before long long)
      if (max > 0x7fffffffn || min < -0x80000000n) {
        const m = this.model;
        const cands = [U32, longType(m, true), longType(m, false), I64, U64];
        t.base =
          cands.find((c) => {
            const lo = c.signed ? -(1n << BigInt(c.bits - 1)) : 0n;
            const hi = c.signed ? (1n << BigInt(c.bits - 1)) - 1n : (1n << BigInt(c.bits)) - 1n;
            return min >= lo && max <= hi;
          }) ?? this.fail(`enum ${t.name}: its values do not fit in 64 bits`, d.at);
      }
    }
    return t;
  }

  // ---- values ----
  truth(v: Value, at: SrcLoc): boolean {
    switch (v.k) {
      case 'int':
        return v.v !== 0n;
      case 'float':
        return v.v !== 0 || v.nan !== undefined;
      case 'ptr':
        return v.addr !== 0;
      case 'fn':
      case 'lambda':
      case 'builtin':
        return true;
      default:
        return this.fail(`a ${v.k === 'obj' ? typeName(v.t) : v.k} value used as a condition`, at);
    }
  }

  intValue(v: Value, at: SrcLoc): bigint {
    if (v.k === 'int') return v.v;
    if (v.k === 'float') return (this.convertInt(v, I64, at) as { v: bigint }).v;
    if (v.k === 'ptr') return BigInt(v.addr);
    return this.fail(`expected an integer but found ${v.k === 'obj' ? typeName(v.t) : v.k}`, at);
  }

  mkInt(t: IntType | import('./types.ts').BoolType | EnumType, v: bigint): Value {
    const it = intOf(t);
    if (t.k === 'bool') return { k: 'int', t, v: v !== 0n ? 1n : 0n };
    return { k: 'int', t, v: it.signed ? BigInt.asIntN(it.bits, v) : BigInt.asUintN(it.bits, v) };
  }

  mkFloat(t: FloatType, v: number): Value {
    return { k: 'float', t, v: t.bits === 32 ? Math.fround(v) : t.bits === 16 ? roundHalf(v) : v };
  }

  /** Loads the object at `lv` (scalars by value; aggregates as `obj`). */
  load(lv: LV, at?: SrcLoc): Value {
    const t = lv.t;
    switch (t.k) {
      case 'int':
      case 'bool':
      case 'enum': {
        const it = intOf(t);
        const n = it.bits / 8;
        const { r, off } = this.mem.read(lv.addr, n, this.loc(at ?? this.cur));
        const dv = r.view;
        let v: bigint;
        switch (n) {
          case 1:
            v = BigInt(it.signed ? dv.getInt8(off) : dv.getUint8(off));
            break;
          case 2:
            v = BigInt(it.signed ? dv.getInt16(off, true) : dv.getUint16(off, true));
            break;
          case 4:
            v = BigInt(it.signed ? dv.getInt32(off, true) : dv.getUint32(off, true));
            break;
          case 8:
            v = it.signed ? dv.getBigInt64(off, true) : dv.getBigUint64(off, true);
            break;
          default: {
            const lo = dv.getBigUint64(off, true);
            const hi = dv.getBigUint64(off + 8, true);
            const u = (hi << 64n) | lo;
            v = it.signed ? BigInt.asIntN(128, u) : u;
          }
        }
        if (t.k === 'bool') return { k: 'int', t, v: v !== 0n ? 1n : 0n };
        return { k: 'int', t, v };
      }
      case 'float': {
        const { r, off } = this.mem.read(lv.addr, t.bits / 8, this.loc(at ?? this.cur));
        if (t.bits === 32) {
          const bits = r.view.getUint32(off, true);
          const v = r.view.getFloat32(off, true);
          return Number.isNaN(v) ? { k: 'float', t, v, nan: BigInt(bits) } : { k: 'float', t, v };
        }
        if (t.bits === 16) {
          const bits = r.view.getUint16(off, true);
          const v = halfValue(bits);
          return Number.isNaN(v) ? { k: 'float', t, v, nan: BigInt(bits) } : { k: 'float', t, v };
        }
        const bits = r.view.getBigUint64(off, true);
        const v = r.view.getFloat64(off, true);
        return Number.isNaN(v) ? { k: 'float', t, v, nan: bits } : { k: 'float', t, v };
      }
      case 'ptr':
      case 'nullptr': {
        const { r, off } = this.mem.read(lv.addr, this.ptrSize, this.loc(at ?? this.cur));
        const addr =
          this.ptrSize === 8 ? Number(r.view.getBigUint64(off, true)) : r.view.getUint32(off, true);
        return { k: 'ptr', t: t.k === 'ptr' ? t : NULLPTR, addr };
      }
      case 'record':
      case 'array':
        return { k: 'obj', t, addr: lv.addr };
      case 'ref':
        return this.load({ t: t.to, addr: lv.addr }, at);
      default:
        return this.fail(`cannot load a value of type ${typeName(t)}`, at);
    }
  }

  /** Converts `v` to the object's type and stores it. */
  store(lv: LV, v: Value, at: SrcLoc): void {
    const t = lv.t;
    if (t.k === 'record' || t.k === 'array') {
      if (v.k !== 'obj')
        this.fail(
          `cannot assign ${v.k === 'int' || v.k === 'float' ? typeName(v.t) : v.k} to ${typeName(t)}`,
          at,
        );
      this.copyRecord(lv, v);
      return;
    }
    const c = this.convert(v, t, at, false);
    this.storeRaw(lv, c, at);
  }

  private storeRaw(lv: LV, c: Value, at: SrcLoc): void {
    const t = lv.t;
    switch (t.k) {
      case 'int':
      case 'bool':
      case 'enum': {
        const it = intOf(t);
        const n = it.bits / 8;
        const r = this.mem.find(lv.addr, n, this.loc(at));
        const off = lv.addr - r.base;
        const v = (c as { v: bigint }).v;
        const dv = r.view;
        switch (n) {
          case 1:
            dv.setUint8(off, Number(BigInt.asUintN(8, v)));
            break;
          case 2:
            dv.setUint16(off, Number(BigInt.asUintN(16, v)), true);
            break;
          case 4:
            dv.setUint32(off, Number(BigInt.asUintN(32, v)), true);
            break;
          case 8:
            dv.setBigUint64(off, BigInt.asUintN(64, v), true);
            break;
          default:
            dv.setBigUint64(off, BigInt.asUintN(64, v), true);
            dv.setBigUint64(off + 8, BigInt.asUintN(64, v >> 64n), true);
        }
        this.mem.wrote(r, lv.addr, n);
        return;
      }
      case 'float': {
        const n = t.bits / 8;
        const r = this.mem.find(lv.addr, n, this.loc(at));
        const off = lv.addr - r.base;
        const f = c as Value & { k: 'float' };
        if (t.bits === 32) {
          if (f.nan !== undefined) r.view.setUint32(off, Number(f.nan), true);
          else r.view.setFloat32(off, f.v, true);
        } else if (t.bits === 16) {
          if (f.nan !== undefined) r.view.setUint16(off, Number(f.nan), true);
          else if (Number.isNaN(f.v)) r.view.setUint16(off, 0x7e00, true);
          else r.view.setUint16(off, halfBits(roundHalf(f.v)), true);
        } else if (f.nan !== undefined) r.view.setBigUint64(off, f.nan, true);
        else r.view.setFloat64(off, f.v, true);
        this.mem.wrote(r, lv.addr, n);
        return;
      }
      case 'ptr':
      case 'nullptr': {
        const r = this.mem.find(lv.addr, this.ptrSize, this.loc(at));
        const off = lv.addr - r.base;
        const a = (c as { addr: number }).addr;
        if (this.ptrSize === 8) r.view.setBigUint64(off, BigInt(a), true);
        else r.view.setUint32(off, a >>> 0, true);
        this.mem.wrote(r, lv.addr, this.ptrSize);
        return;
      }
      default:
        this.fail(`cannot store a value of type ${typeName(t)}`, at);
    }
  }

  // ---- conversions ----
  convert(v: Value, to: CType, at: SrcLoc, explicit: boolean): Value {
    switch (to.k) {
      case 'int':
      case 'bool':
      case 'enum':
        if (v.k === 'int') return this.mkInt(to, v.v);
        if (v.k === 'float') {
          if (to.k === 'bool') return { k: 'int', t: to, v: v.v !== 0 || v.nan !== undefined ? 1n : 0n };
          return this.convertInt(v, to, at);
        }
        if (v.k === 'ptr') {
          if (to.k === 'bool') return { k: 'int', t: to, v: v.addr !== 0 ? 1n : 0n };
          return this.mkInt(to, BigInt(v.addr));
        }
        if (v.k === 'obj' && v.t.k === 'record') return this.userConversion(v, to, at);
        if (v.k === 'obj' && v.t.k === 'array' && explicit) return this.mkInt(to, BigInt(v.addr));
        break;
      case 'float':
        if (v.k === 'float') {
          if (v.t.bits === to.bits) return v;
          if (v.nan !== undefined && (v.t.bits === 16 || to.bits === 16))
            return { k: 'float', t: to, v: Number.NaN, nan: nanBits(v.nan, v.t.bits, to.bits) };
          if (v.nan !== undefined) {
            // binary32 <-> binary64 NaN: keep sign and payload's high bits, quiet (IEEE 754 6.2.3)
            return to.bits === 64
              ? {
                  k: 'float',
                  t: to,
                  v: Number.NaN,
                  nan: ((v.nan & 0x80000000n) << 32n) | 0x7ff8000000000000n | ((v.nan & 0x3fffffn) << 29n),
                }
              : {
                  k: 'float',
                  t: to,
                  v: Number.NaN,
                  nan: ((v.nan >> 32n) & 0x80000000n) | 0x7fc00000n | ((v.nan >> 29n) & 0x3fffffn),
                };
          }
          return this.mkFloat(to, v.v);
        }
        if (v.k === 'int') return { k: 'float', t: to, v: intToFloat(v.v, to.bits) };
        if (v.k === 'obj' && v.t.k === 'record') return this.userConversion(v, to, at);
        break;
      case 'ptr':
        if (v.k === 'ptr') return { k: 'ptr', t: to, addr: v.addr, str: v.str };
        if (v.k === 'int') {
          if (!explicit && v.v !== 0n) this.fail(`an integer used as a pointer needs a cast`, at);
          return { k: 'ptr', t: to, addr: Number(BigInt.asUintN(this.ptrSize * 8, v.v)) };
        }
        if (v.k === 'obj' && v.t.k === 'array') return { k: 'ptr', t: to, addr: v.addr };
        if (v.k === 'fn' || v.k === 'lambda' || v.k === 'builtin')
          return { k: 'ptr', t: to, addr: this.functionAddress(v) };
        break;
      case 'nullptr':
        return { k: 'ptr', t: NULLPTR, addr: 0 };
      case 'record':
        if (v.k === 'obj') return v;
        {
          const addr = this.mem.alloca(this.sizeOf(to), this.alignOf(to));
          this.mem.zero(addr, this.sizeOf(to));
          this.construct({ t: to, addr }, [{ v, lv: undefined }], at);
          return { k: 'obj', t: to, addr };
        }
      case 'array':
        if (v.k === 'obj') return v;
        break;
      case 'ref':
        return this.convert(v, to.to, at, explicit);
      case 'void':
        return { k: 'void' };
      case 'func':
        if (v.k === 'fn' || v.k === 'lambda' || v.k === 'builtin') return v;
        break;
    }
    if (v.k === 'host') return v;
    return this.fail(`cannot convert ${this.describeValue(v)} to ${typeName(to)}`, at);
  }

  private userConversion(v: Value & { k: 'obj' }, to: CType, at: SrcLoc): Value {
    const rec = v.t as RecordType;
    const ms = this.methods.get(rec.decl);
    if (ms) {
      for (const [name, fns] of ms) {
        if (!name.startsWith('operator ')) continue;
        const r = this.callFunctions(fns, undefined, [], { t: rec, addr: v.addr }, at, name, rec);
        return this.convert(r, to, at, true);
      }
    }
    return this.fail(`cannot convert ${typeName(rec)} to ${typeName(to)}`, at);
  }

  describeValue(v: Value): string {
    switch (v.k) {
      case 'int':
      case 'float':
      case 'ptr':
      case 'obj':
        return typeName(v.t);
      case 'fn':
        return `function ${v.name}`;
      default:
        return v.k;
    }
  }

  private convertInt(
    v: Value & { k: 'float' },
    to: IntType | import('./types.ts').BoolType | EnumType,
    at: SrcLoc,
  ): Value {
    const it = intOf(to);
    if (v.nan !== undefined || !Number.isFinite(v.v))
      this.ub(
        `converting ${v.nan !== undefined ? 'NaN' : v.v} to ${typeName(to)}`,
        at,
        'C++ [conv.fpint]: the value must fit the integer type',
      );
    const tr = BigInt(Math.trunc(v.v));
    const lo = it.signed ? -(1n << BigInt(it.bits - 1)) : 0n;
    const hi = it.signed ? (1n << BigInt(it.bits - 1)) - 1n : (1n << BigInt(it.bits)) - 1n;
    if (tr < lo || tr > hi)
      this.ub(
        `converting ${v.v} to ${typeName(to)}: out of range`,
        at,
        'C++ [conv.fpint]: the truncated value must fit the integer type',
      );
    return this.mkInt(to, tr);
  }

  /** Integer promotion (C++ [conv.prom]). */
  /** @internal */
  promote(t: CType): CType {
    if (t.k === 'bool') return I32;
    if (t.k === 'enum') return t.base.bits < 32 ? I32 : t.base;
    if (t.k === 'int') {
      // rank below int: int holds all their values (8/16-bit)
      if (t.bits < 32) return I32;
      // wchar_t, char32_t: the first of int, unsigned int, long, … that holds all values ([conv.prom]/2)
      if (t.bits === 32 && t.rank === 3 && t !== I32 && t !== U32) return t.signed ? I32 : U32;
    }
    return t;
  }

  /** The common type of the usual arithmetic conversions. */
  /** @internal */
  common(a: CType, b: CType): CType {
    if (a.k === 'float' || b.k === 'float') {
      if (a.k === 'float' && b.k === 'float') return a.bits >= b.bits ? a : b;
      return a.k === 'float' ? a : b;
    }
    // C++ [expr.arith.conv]/1.5: promote both; the same type stays; the same signedness: the greater
    // rank ([conv.rank]); else the unsigned one when its rank is not less, else the signed one when
    // it holds every value of the unsigned one, else the unsigned type of the signed one's rank
    // (ilp32 long + unsigned int: unsigned long; lp64: long)
    const pa = this.promote(a) as IntType;
    const pb = this.promote(b) as IntType;
    if (sameType(pa, pb)) return pa;
    if (pa.signed === pb.signed) return pa.rank >= pb.rank ? pa : pb;
    const u = pa.signed ? pb : pa;
    const s = pa.signed ? pa : pb;
    if (u.rank >= s.rank) return u;
    if (s.bits > u.bits) return s;
    return unsignedOf(s);
  }

  // ---- expressions ----
  private enter(at: SrcLoc): void {
    if (++this.depth > this.budget.limits.depth) this.budget.depth(this.depth, this.loc(at));
  }

  isLvalueExpr(e: Expr): boolean {
    switch (e.kind) {
      case 'name':
      case 'index':
      case 'member':
        return true;
      case 'unary':
        return e.op === '*' || e.op === 'pre++' || e.op === 'pre--';
      case 'assign':
        return true;
      case 'cond':
        return this.isLvalueExpr(e.a) && this.isLvalueExpr(e.b);
      case 'call':
        return false;
      default:
        return false;
    }
  }

  /** The object an lvalue expression designates. */
  lval(e: Expr, scope: Scope): LV {
    this.enter(e.at);
    try {
      return this.lvalInner(e, scope);
    } finally {
      this.depth--;
    }
  }

  private lvalInner(e: Expr, scope: Scope): LV {
    switch (e.kind) {
      case 'name': {
        const r = this.lookupName(e, scope);
        if (r.lv) return r.lv;
        return this.materialize(r.v!, e.at);
      }
      case 'index': {
        const base = this.eval(e.e, scope);
        const i = this.eval(e.i, scope);
        if (base.k === 'obj' && base.t.k === 'record') {
          this.lastCallRef = false;
          const r = this.callOperator(base, '[]', [this.argOf(i, e.i)], e.at);
          if (r.k === 'ptr' && this.lastCallRef) {
            this.lastCallRef = false;
            return { t: (r.t as PtrType).to, addr: r.addr };
          }
          return this.materialize(r, e.at);
        }
        let p: Value = base;
        let idx: Value = i;
        if (i.k === 'ptr' || (i.k === 'obj' && i.t.k === 'array')) {
          p = i;
          idx = base;
        }
        const ptr = this.decay(p, e.at);
        const n = Number(this.intValue(idx, e.i.at));
        const to = (ptr.t as PtrType).to;
        if (p.k === 'obj' && p.t.k === 'array' && (n < 0 || n >= p.t.n)) {
          const what =
            e.e.kind === 'name'
              ? `${e.e.parts.map((q) => q.name).join('::')}[0..${p.t.n - 1}]`
              : `the array of ${p.t.n}`;
          this.ub(`index ${n} is outside ${what}`, e.i.at);
        }
        return { t: to, addr: ptr.addr + n * this.sizeOf(to) };
      }
      case 'member': {
        let obj: LV;
        if (e.arrow) {
          const p = this.eval(e.e, scope);
          if (p.k === 'obj' && p.t.k === 'record') {
            const r = this.callOperator(p, '->', [], e.at);
            obj = this.deref(r, e.at);
          } else obj = this.deref(p, e.at);
        } else
          obj = this.isLvalueExpr(e.e)
            ? this.lval(e.e, scope)
            : this.materialize(this.eval(e.e, scope), e.at);
        if (obj.t.k !== 'record') this.fail(`'.${e.name}' on a value of type ${typeName(obj.t)}`, e.at);
        const f = this.allFields(obj.t).find((x) => x.name === e.name);
        if (f) return { t: f.t, addr: obj.addr + f.offset };
        const st = this.staticMember(obj.t, e.name, e.at);
        if (st) return st;
        return this.fail(`${typeName(obj.t)} has no field '${e.name}'`, e.at, this.nearField(obj.t, e.name));
      }
      case 'unary':
        if (e.op === '*') return this.deref(this.eval(e.e, scope), e.at);
        if (e.op === 'pre++' || e.op === 'pre--') {
          const lv = this.lval(e.e, scope);
          this.incdec(lv, e.op === 'pre++' ? 1 : -1, e.at);
          return lv;
        }
        break;
      case 'assign': {
        this.eval(e, scope);
        return this.lval(e.a, scope);
      }
      case 'cond': {
        const c = this.truth(this.eval(e.c, scope), e.c.at);
        return this.lval(c ? e.a : e.b, scope);
      }
      case 'call': {
        this.lastCallRef = false;
        const v = this.call(e, scope);
        if (v.k === 'ptr' && this.lastCallRef) {
          this.lastCallRef = false;
          return { t: (v.t as PtrType).to, addr: v.addr };
        }
        return this.materialize(v, e.at);
      }
      case 'this':
        break;
      case 'cast':
        if (e.type.kind === 'ref') {
          const lv = this.lval(e.e, scope);
          return { t: this.resolveType(e.type.to, scope), addr: lv.addr };
        }
        break;
    }
    return this.materialize(this.eval(e, scope), e.at);
  }

  private nearField(t: RecordType, name: string): string | undefined {
    const n = nearestName(
      name,
      t.fields.map((f) => f.name),
    );
    return n ? `did you mean ${n}?` : undefined;
  }

  /** A temporary holding `v`. */
  materialize(v: Value, at: SrcLoc): LV {
    if (v.k === 'obj') return { t: v.t, addr: v.addr };
    if (v.k !== 'int' && v.k !== 'float' && v.k !== 'ptr')
      this.fail(`expected an object but found ${this.describeValue(v)}`, at);
    const t = v.t;
    const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
    this.storeRaw({ t, addr }, v, at);
    return { t, addr };
  }

  private deref(p: Value, at: SrcLoc): LV {
    const ptr = this.decay(p, at);
    if (ptr.addr === 0) this.ub('null pointer dereference', at);
    const to = (ptr.t as PtrType).to;
    if (to.k === 'void') this.fail('dereferencing a void*', at);
    return { t: to, addr: ptr.addr };
  }

  /** Arrays decay to pointers to their first element. */
  decay(v: Value, at: SrcLoc): Value & { k: 'ptr' } {
    if (v.k === 'ptr') return v;
    if (v.k === 'obj' && v.t.k === 'array') return { k: 'ptr', t: { k: 'ptr', to: v.t.of }, addr: v.addr };
    return this.fail(`expected a pointer or array but found ${this.describeValue(v)}`, at);
  }

  private lastCallRef = false;

  /** Evaluates an expression to an rvalue (aggregates as `obj` views of their memory). */
  eval(e: Expr, scope: Scope): Value {
    this.enter(e.at);
    try {
      const v = this.evalInner(e, scope);
      return v;
    } catch (err) {
      if (err instanceof AxsimError) {
        if (!err.location?.line) throw err.at(this.loc(e.at));
        throw err;
      }
      if (err instanceof RangeError && /call stack/i.test(String(err.message))) {
        throw badInput('the program nests too deeply for the evaluator', { location: this.loc(e.at) });
      }
      throw err;
    } finally {
      this.depth--;
    }
  }

  private evalInner(e: Expr, scope: Scope): Value {
    switch (e.kind) {
      case 'int': {
        let lt = this.literalTypes.get(e);
        if (!lt) {
          lt = this.literalType(e);
          this.literalTypes.set(e, lt);
        }
        return { k: 'int', t: lt, v: e.value };
      }
      case 'float':
        return { k: 'float', t: e.single ? F32 : F64, v: e.value };
      case 'bool':
        return { k: 'int', t: BOOL, v: e.value ? 1n : 0n };
      case 'char':
        return this.charLiteral(e);
      case 'string': {
        let addr = this.strings.get(e.value);
        if (addr === undefined) {
          const bytes = new TextEncoder().encode(e.value);
          addr = this.mem.galloc(bytes.length + 1, 1);
          this.mem.view(addr, bytes.length + 1).set([...bytes, 0]);
          this.strings.set(e.value, addr);
        }
        return { k: 'ptr', t: { k: 'ptr', to: charType(this.model) }, addr, str: e.value };
      }
      case 'nullptr':
        return { k: 'ptr', t: NULLPTR, addr: 0 };
      case 'this': {
        const f = this.frame;
        if (f.thisAddr === undefined || !f.record) this.fail("'this' outside a member function", e.at);
        return { k: 'ptr', t: { k: 'ptr', to: f.record }, addr: f.thisAddr };
      }
      case 'name': {
        const r = this.lookupName(e, scope);
        if (r.lv) return this.load(r.lv, e.at);
        return r.v!;
      }
      case 'unary':
        return this.unary(e, scope);
      case 'postfix': {
        const lv = this.lval(e.e, scope);
        const old = this.load(lv, e.at);
        if (lv.t.k === 'record') {
          return this.callOperator(old, e.op, [{ v: { k: 'int', t: I32, v: 0n }, lv: undefined }], e.at);
        }
        this.incdec(lv, e.op === '++' ? 1 : -1, e.at);
        return old;
      }
      case 'binary':
        return this.binary(e, scope);
      case 'assign':
        return this.assign(e, scope);
      case 'cond': {
        const c = this.truth(this.eval(e.c, scope), e.c.at);
        const a = c ? this.eval(e.a, scope) : undefined;
        const b = c ? undefined : this.eval(e.b, scope);
        const v = (a ?? b)!;
        // both arms convert to their common arithmetic type
        if (v.k === 'int' || v.k === 'float') {
          const other = this.peekType(c ? e.b : e.a, scope);
          if (other && isArithmetic(other) && isArithmetic(v.t))
            return this.convert(v, this.common(v.t, other), e.at, false);
        }
        return v;
      }
      case 'comma':
        this.eval(e.a, scope);
        return this.eval(e.b, scope);
      case 'call': {
        this.lastCallRef = false;
        const v = this.call(e, scope);
        if (this.lastCallRef && v.k === 'ptr') {
          this.lastCallRef = false;
          return this.load({ t: (v.t as PtrType).to, addr: v.addr }, e.at);
        }
        return v;
      }
      case 'index':
      case 'member': {
        if (e.kind === 'member') {
          // a method: bound function value
          const m = this.memberFunction(e, scope);
          if (m) return m;
        }
        return this.load(this.lval(e, scope), e.at);
      }
      case 'cast':
        return this.cast(e, scope);
      case 'sizeof': {
        let t: CType;
        if (e.type) t = this.resolveType(e.type, scope);
        else if ((e as { pack?: boolean }).pack) {
          const name = (e.e as { parts: NamePart[] }).parts[0]!.name;
          const elems = this.frame.fn?.packs?.get(name);
          if (!elems) this.fail(`sizeof...(${name}): '${name}' is not a parameter pack here`, e.at);
          return { k: 'int', t: this.sizeT, v: BigInt(elems.length) };
        } else t = this.exprType(e.e!, scope);
        if (t.k === 'ref') t = t.to;
        return { k: 'int', t: this.sizeT, v: BigInt(e.align ? this.alignOf(t) : this.sizeOf(t)) };
      }
      case 'init': {
        if (!e.type) this.fail('a braced list needs a type here', e.at);
        const t = this.resolveType(e.type, scope);
        const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
        this.mem.zero(addr, this.sizeOf(t));
        this.initList({ t, addr }, e.items, scope, e.at);
        return this.load({ t, addr }, e.at);
      }
      case 'construct': {
        const t = this.resolveType(e.type, scope);
        const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
        this.mem.zero(addr, this.sizeOf(t));
        this.construct({ t, addr }, this.callArgs(e.args, scope), e.at);
        return this.load({ t, addr }, e.at);
      }
      case 'lambda':
        return { k: 'lambda', node: e, env: scope, frame: this.frame };
      case 'builtin':
        return this.fail(`builtin ${e.name}`, e.at);
    }
  }

  private readonly literalTypes = new WeakMap<Expr, IntType>();
  /** Functions whose address was taken: pointer value FN_BASE + 16 * index. */
  private readonly fnTable: Value[] = [];

  functionAddress(v: Value): number {
    const key = v.k === 'fn' ? v.fns[0] : v.k === 'lambda' ? v.node : undefined;
    let k = this.fnTable.findIndex(
      (x) => (x.k === 'fn' ? x.fns[0] : x.k === 'lambda' ? x.node : x) === (key ?? v),
    );
    if (k < 0) {
      k = this.fnTable.length;
      this.fnTable.push(v);
    }
    return FN_BASE + 16 * k;
  }

  /**
   * C++ [lex.ccon]: a character literal's type and value. Plain: `char` (unsigned on RISC-V,
   * signed on Apple arm64: types.ts `charType`), its value the code unit as that type holds it;
   * u8 char8_t, u char16_t, U char32_t, L wchar_t.
   */
  /** @internal */
  charLiteral(e: Expr & { kind: 'char' }): Value {
    const t =
      e.prefix === 'u8'
        ? CHAR8
        : e.prefix === 'u'
          ? CHAR16
          : e.prefix === 'U'
            ? CHAR32
            : e.prefix === 'L'
              ? WCHAR
              : charType(this.model);
    const v = BigInt(e.value);
    // a code point the type cannot hold is ill-formed (u8, u) or a multi-unit literal (not modelled)
    if (t.bits < 32 && v >= 1n << BigInt(t.bits))
      this.unsupported(`character literal U+${e.value.toString(16).toUpperCase()} in a ${typeName(t)}`, e.at);
    return this.mkInt(t, v);
  }

  /** C++ [lex.icon]: the first of int, long, long long (unsigned variants for hex/octal/u) that fits. */
  /** @internal */
  literalType(e: Expr & { kind: 'int' }): IntType {
    const v = e.value;
    const dec = !/^0[xXbB0-7]/.test(e.text) || e.text === '0';
    const cands: IntType[] = [];
    const add = (t: IntType) => cands.push(t);
    if (e.longs === 0) {
      if (!e.unsigned) add(I32);
      if (!dec || e.unsigned) add(U32);
    }
    if (e.longs <= 1) {
      if (!e.unsigned) add(longType(this.model, true));
      if (!dec || e.unsigned) add(longType(this.model, false));
    }
    if (!e.unsigned) add(I64);
    if (!dec || e.unsigned) add(U64);
    for (const t of cands) {
      const max = t.signed ? (1n << BigInt(t.bits - 1)) - 1n : (1n << BigInt(t.bits)) - 1n;
      if (v <= max) return t;
    }
    return this.fail(`integer literal ${e.text} does not fit in 64 bits`, e.at);
  }

  /** The type of an expression without evaluating it when cheap (for `?:`), else undefined. */
  private peekType(e: Expr, scope: Scope): CType | undefined {
    switch (e.kind) {
      case 'int':
        return this.evalInner(e, scope).k === 'int'
          ? (this.evalInner(e, scope) as { t: CType }).t
          : undefined;
      case 'float':
        return e.single ? F32 : F64;
      case 'bool':
        return BOOL;
      case 'name': {
        try {
          const r = this.lookupName(e, scope);
          return r.lv ? r.lv.t : r.v && (r.v.k === 'int' || r.v.k === 'float') ? r.v.t : undefined;
        } catch {
          return undefined;
        }
      }
      case 'cast':
        try {
          return this.resolveType(e.type, scope);
        } catch {
          return undefined;
        }
      case 'char':
        return (this.evalInner(e, scope) as { t: CType }).t;
      // operators on operands whose types are visible: the result type binop/unary give
      case 'unary': {
        if (e.op === '!') return BOOL;
        if (e.op !== '-' && e.op !== '+' && e.op !== '~') return undefined;
        const t = this.peekType(e.e, scope);
        return t && isArithmetic(t) ? this.promote(t) : undefined;
      }
      case 'binary': {
        if (e.op === '&&' || e.op === '||') return BOOL;
        const ta = this.peekType(e.a, scope);
        if (!ta || !isArithmetic(ta)) return undefined;
        if (e.op === '<<' || e.op === '>>') return this.promote(ta);
        const tb = this.peekType(e.b, scope);
        if (!tb || !isArithmetic(tb)) return undefined;
        if (['<', '>', '<=', '>=', '==', '!='].includes(e.op)) return BOOL;
        return ['+', '-', '*', '/', '%', '&', '|', '^'].includes(e.op) ? this.common(ta, tb) : undefined;
      }
      case 'cond': {
        const ta = this.peekType(e.a, scope);
        const tb = ta && isArithmetic(ta) ? this.peekType(e.b, scope) : undefined;
        return ta && tb && isArithmetic(ta) && isArithmetic(tb) ? this.common(ta, tb) : undefined;
      }
      default:
        return undefined;
    }
  }

  private incdec(lv: LV, d: 1 | -1, at: SrcLoc): void {
    const old = this.load(lv, at);
    if (old.k === 'int') {
      if (lv.t.k === 'bool') this.fail('++/-- on a bool', at);
      this.storeRaw(lv, this.mkInt(old.t, old.v + BigInt(d)), at);
    } else if (old.k === 'float') this.storeRaw(lv, this.mkFloat(old.t, old.v + d), at);
    else if (old.k === 'ptr') {
      const to = (old.t as PtrType).to;
      this.storeRaw(lv, { ...old, addr: old.addr + d * this.sizeOf(to) }, at);
    } else if (old.k === 'obj' && old.t.k === 'record') {
      this.callOperator(old, d > 0 ? '++' : '--', [], at);
    } else this.fail(`++/-- on ${this.describeValue(old)}`, at);
  }

  private unary(e: Expr & { kind: 'unary' }, scope: Scope): Value {
    switch (e.op) {
      case '...':
        return this.unsupported("a pack expansion '...' other than in a call's arguments", e.at);
      case '&': {
        if (e.e.kind === 'name') {
          const r = this.lookupName(e.e, scope);
          if (!r.lv) {
            if (r.v && (r.v.k === 'fn' || r.v.k === 'builtin')) return r.v;
            this.fail('& of a value that is not an object', e.at);
          }
          return { k: 'ptr', t: { k: 'ptr', to: r.lv.t }, addr: r.lv.addr };
        }
        const lv = this.lval(e.e, scope);
        return { k: 'ptr', t: { k: 'ptr', to: lv.t }, addr: lv.addr };
      }
      case '*': {
        const p = this.eval(e.e, scope);
        // `(*fp)(x)`: dereferencing a function pointer gives the function back
        if (p.k === 'fn' || p.k === 'lambda' || (p.k === 'ptr' && p.t.k === 'ptr' && p.t.to.k === 'func'))
          return p;
        return this.load(this.deref(p, e.at), e.at);
      }
      case 'pre++':
      case 'pre--': {
        const lv = this.lval(e.e, scope);
        if (lv.t.k === 'record') return this.callOperator(this.load(lv), e.op.slice(3), [], e.at);
        this.incdec(lv, e.op === 'pre++' ? 1 : -1, e.at);
        return this.load(lv, e.at);
      }
    }
    const v = this.eval(e.e, scope);
    if (v.k === 'obj' && v.t.k === 'record') return this.callOperator(v, e.op, [], e.at);
    switch (e.op) {
      case '!':
        return { k: 'int', t: BOOL, v: this.truth(v, e.at) ? 0n : 1n };
      case '+':
        if (v.k === 'ptr') return v;
        return this.arith(v, e.at);
      case '-':
        return this.negate(v, e.at);
      case '~': {
        const a = this.arith(v, e.at);
        if (a.k !== 'int') this.fail(`~ on ${this.describeValue(a)}`, e.at);
        return this.mkInt(a.t, ~a.v);
      }
    }
    return this.fail(`unknown unary operator ${e.op}`, e.at);
  }

  /** `-v` of an arithmetic value (promoted; a NaN keeps its payload with the sign flipped). */
  negate(v: Value, at: SrcLoc): Value {
    const a = this.arith(v, at);
    if (a.k === 'float')
      return a.nan !== undefined
        ? { ...a, nan: a.nan ^ (a.t.bits === 32 ? 0x80000000n : a.t.bits === 16 ? 0x8000n : 1n << 63n) }
        : this.mkFloat(a.t, -a.v);
    return this.mkInt((a as { t: IntType }).t, -(a as { v: bigint }).v);
  }

  /** Promoted arithmetic value. */
  private arith(v: Value, at: SrcLoc): Value {
    if (v.k === 'int') return this.convert(v, this.promote(v.t), at, false);
    if (v.k === 'float') return v;
    return this.fail(`arithmetic on ${this.describeValue(v)}`, at);
  }

  private binary(e: Expr & { kind: 'binary' }, scope: Scope): Value {
    const op = e.op;
    if (op === '&&' || op === '||') {
      const av = this.eval(e.a, scope);
      // C++: a class operand calls its operator&& / operator|| (both operands evaluated, no short-circuit)
      if (av.k === 'obj' && av.t.k === 'record')
        return this.callOperator(av, op, [{ v: this.eval(e.b, scope), lv: undefined }], e.at);
      const a = this.truth(av, e.a.at);
      if (op === '&&' ? !a : a) return { k: 'int', t: BOOL, v: a ? 1n : 0n };
      return { k: 'int', t: BOOL, v: this.truth(this.eval(e.b, scope), e.b.at) ? 1n : 0n };
    }
    const a = this.eval(e.a, scope);
    const b = this.eval(e.b, scope);
    return this.binop(op, a, b, e.at, e.b.at);
  }

  binop(op: string, a: Value, b: Value, at: SrcLoc, bAt: SrcLoc = at): Value {
    if ((a.k === 'obj' && a.t.k === 'record') || (b.k === 'obj' && b.t.k === 'record')) {
      if (a.k === 'obj' && a.t.k === 'record') return this.callOperator(a, op, [{ v: b, lv: undefined }], at);
      // a class operand on the right only: a free operator (`2.0f * v`)
      const fns = b.k === 'obj' && b.t.k === 'record' ? this.freeOperator(op, b.t) : undefined;
      if (fns?.length && b.k === 'obj')
        return this.callFunctions(
          fns,
          undefined,
          [
            { v: a, lv: undefined },
            { v: b, lv: { t: b.t, addr: b.addr } },
          ],
          undefined,
          at,
          `operator${op}`,
        );
      return this.fail(`operator${op} with ${this.describeValue(b)} on the right`, at);
    }
    if (a.k === 'host' || b.k === 'host') return this.fail(`operator${op} on host values`, at);
    // pointers
    if (
      a.k === 'ptr' ||
      b.k === 'ptr' ||
      (a.k === 'obj' && a.t.k === 'array') ||
      (b.k === 'obj' && b.t.k === 'array')
    )
      return this.ptrOp(op, a, b, at);
    if ((a.k !== 'int' && a.k !== 'float') || (b.k !== 'int' && b.k !== 'float'))
      return this.fail(`operator${op} on ${this.describeValue(a)} and ${this.describeValue(b)}`, at);
    if (op === '<<' || op === '>>') {
      const pa = this.arith(a, at);
      const pb = this.arith(b, bAt);
      if (pa.k !== 'int' || pb.k !== 'int') this.fail(`shift of a non-integer`, at);
      const bits = intOf(pa.t as IntType).bits;
      if (pb.v < 0n || pb.v >= BigInt(bits))
        this.ub(
          `shift by ${pb.v} of a ${bits}-bit value`,
          at,
          'C++ [expr.shift]: the count must be in 0..width-1',
        );
      return this.mkInt(pa.t as IntType, op === '<<' ? pa.v << pb.v : pa.v >> pb.v);
    }
    const t = this.common(a.t, b.t);
    const x = this.convert(a, t, at, false);
    const y = this.convert(b, t, bAt, false);
    if (t.k === 'float') {
      const fx = x as Value & { k: 'float' };
      const fy = y as Value & { k: 'float' };
      const p = fx.v;
      const q = fy.v;
      switch (op) {
        case '+':
          return this.mkFloat(t, p + q);
        case '-':
          return this.mkFloat(t, p - q);
        case '*':
          return this.mkFloat(t, p * q);
        case '/':
          return this.mkFloat(t, p / q);
      }
      return compareValues(op, p, q) ?? this.fail(`operator${op} on floating-point values`, at);
    }
    const it = t as IntType;
    const p = (x as { v: bigint }).v;
    const q = (y as { v: bigint }).v;
    switch (op) {
      case '+':
        return this.mkInt(it, p + q);
      case '-':
        return this.mkInt(it, p - q);
      case '*':
        return this.mkInt(it, p * q);
      case '/':
      case '%':
        if (q === 0n) this.ub('division by zero', at);
        return this.mkInt(it, op === '/' ? p / q : p % q);
      case '&':
        return this.mkInt(it, p & q);
      case '|':
        return this.mkInt(it, p | q);
      case '^':
        return this.mkInt(it, p ^ q);
    }
    return compareValues(op, p, q) ?? this.fail(`operator${op}`, at);
  }

  private ptrOp(op: string, a: Value, b: Value, at: SrcLoc): Value {
    const isP = (v: Value) => v.k === 'ptr' || (v.k === 'obj' && v.t.k === 'array');
    if (isP(a) && isP(b)) {
      const pa = this.decay(a, at);
      const pb = this.decay(b, at);
      switch (op) {
        case '-': {
          const es = this.sizeOf((pa.t as PtrType).to) || 1;
          return { k: 'int', t: this.ptrdiffT, v: BigInt(Math.trunc((pa.addr - pb.addr) / es)) };
        }
        case '==':
          return bool(pa.addr === pb.addr);
        case '!=':
          return bool(pa.addr !== pb.addr);
        case '<':
          return bool(pa.addr < pb.addr);
        case '>':
          return bool(pa.addr > pb.addr);
        case '<=':
          return bool(pa.addr <= pb.addr);
        case '>=':
          return bool(pa.addr >= pb.addr);
      }
    } else if (isP(a) && b.k === 'int' && (op === '+' || op === '-')) {
      const pa = this.decay(a, at);
      const es = this.sizeOf((pa.t as PtrType).to);
      const n = Number(b.v);
      return { k: 'ptr', t: pa.t, addr: pa.addr + (op === '+' ? n : -n) * es };
    } else if (a.k === 'int' && isP(b) && op === '+') {
      return this.ptrOp('+', b, a, at);
    } else if (isP(a) && b.k === 'int' && (op === '==' || op === '!=') && b.v === 0n) {
      const pa = this.decay(a, at);
      return bool(op === '==' ? pa.addr === 0 : pa.addr !== 0);
    } else if (isP(a) && b.k === 'int' && (op === '&' || op === '|')) {
      return this.fail(`bitwise ${op} on a pointer needs a cast to an integer`, at);
    }
    return this.fail(`operator${op} on ${this.describeValue(a)} and ${this.describeValue(b)}`, at);
  }

  private assign(e: Expr & { kind: 'assign' }, scope: Scope): Value {
    const lv = this.lval(e.a, scope);
    if (lv.t.k === 'record') {
      if (e.op === '=') {
        if (e.b.kind === 'init' && !e.b.type) {
          const tmp: LV = { t: lv.t, addr: this.mem.alloca(this.sizeOf(lv.t), this.alignOf(lv.t)) };
          this.mem.zero(tmp.addr, this.sizeOf(lv.t));
          this.initList(tmp, e.b.items, scope, e.b.at);
          this.mem.copy(lv.addr, tmp.addr, this.sizeOf(lv.t));
          return this.load(lv);
        }
        const v = this.eval(e.b, scope);
        const ms = this.methods.get((lv.t as RecordType).decl)?.get('operator=');
        // a user-declared copy assignment (`operator=(T)`, `operator=(const T&)`) runs for an
        // object of the same type too (the SFPI classes record conditional assignments there)
        const recName = (lv.t as RecordType).decl.name;
        const isCopyAssign = (f: FuncDecl) => {
          if (f.params.length !== 1) return false;
          let t = f.params[0]!.type;
          if (t.kind === 'ref') t = t.to;
          return (
            t.kind === 'named' && t.parts.length === 1 && t.parts[0]!.name === recName && !t.parts[0]!.targs
          );
        };
        if (ms?.length && (!(v.k === 'obj' && sameType(v.t, lv.t)) || ms.some(isCopyAssign)))
          return this.callFunctions(
            ms,
            undefined,
            [this.argOf(v, e.b)],
            lv,
            e.at,
            'operator=',
            lv.t as RecordType,
          );
        if (v.k === 'obj' && v.t.k === 'record') this.copyRecord(lv, v);
        else this.store(lv, this.convert(v, lv.t, e.at, false), e.at);
        return this.storedValue(lv);
      }
      return this.callOperator(this.load(lv), e.op, [this.argOf(this.eval(e.b, scope), e.b)], e.at);
    }
    let v: Value;
    if (e.b.kind === 'init' && !e.b.type) {
      if (e.b.items.length > 1) this.fail('too many values in the braced list', e.b.at);
      v = e.b.items.length ? this.eval(e.b.items[0]!.value, scope) : { k: 'int', t: I32, v: 0n };
    } else v = this.eval(e.b, scope);
    if (e.op !== '=') {
      const old = this.load(lv, e.at);
      v = this.binop(e.op.slice(0, -1), old, v, e.at, e.b.at);
    }
    this.store(lv, v, e.at);
    return this.storedValue(lv, e.at);
  }

  /**
   * The value of an assignment: what was just stored, read back from the bytes without a load of
   * the object (a store to a memory-mapped register is not followed by a read of it, as in GCC).
   */
  private storedValue(lv: LV, at?: SrcLoc): Value {
    this.mem.hooksOff = true;
    try {
      return this.load(lv, at);
    } finally {
      this.mem.hooksOff = false;
    }
  }

  private cast(e: Expr & { kind: 'cast' }, scope: Scope): Value {
    const to = this.resolveType(e.type, scope);
    if (e.how === 'bit') {
      const v = this.eval(e.e, scope);
      const from = this.valueType(v);
      if (this.sizeOf(from) !== this.sizeOf(to))
        this.fail(
          `bit cast from ${typeName(from)} (${this.sizeOf(from)} bytes) to ${typeName(to)} (${this.sizeOf(to)} bytes)`,
          e.at,
        );
      const tmp = this.materialize(v, e.at);
      return this.load({ t: to, addr: tmp.addr }, e.at);
    }
    if (to.k === 'ref') {
      const lv = this.lval(e.e, scope);
      return this.load({ t: to.to, addr: lv.addr }, e.at);
    }
    // `(void)x` discards x without reading it (no lvalue-to-rvalue conversion, C++ [expr.context]/2)
    if (to.k === 'void' && e.e.kind === 'name' && this.lookupName(e.e, scope).lv) return { k: 'void' };
    const v = this.eval(e.e, scope);
    if (to.k === 'record' && v.k !== 'obj') {
      const addr = this.mem.alloca(this.sizeOf(to), this.alignOf(to));
      this.mem.zero(addr, this.sizeOf(to));
      this.construct({ t: to, addr }, [{ v, lv: undefined }], e.at);
      return this.load({ t: to, addr });
    }
    if (to.k === 'ptr' && v.k === 'obj' && v.t.k === 'array') return { k: 'ptr', t: to, addr: v.addr };
    return this.convert(v, to, e.at, true);
  }

  // ---- names ----
  /** A name's object (lv) or value (v). */
  lookupName(e: Expr & { kind: 'name' }, scope: Scope): { lv?: LV; v?: Value } {
    const parts = e.parts;
    const first = parts[0]!.name;
    if (parts.length === 1 && !e.global) {
      const b = scope.get(first);
      if (b) return this.fromBinding(b, e, scope);
      const f = this.frame;
      if (f.scope !== scope) {
        const fb = f.scope.get(first);
        if (fb) return this.fromBinding(fb, e, scope);
      }
      // members of the class of the running method
      if (f.record) {
        const rec = f.record;
        const tb = rec.bindings.get(first);
        if (tb) return this.fromBinding(tb, e, scope);
        if (f.thisAddr !== undefined) {
          const fl = this.allFields(rec).find((x) => x.name === first);
          if (fl) return { lv: { t: fl.t, addr: f.thisAddr + fl.offset } };
        }
        const m = this.findMethods(rec, first);
        if (m.length)
          return {
            v: {
              k: 'fn',
              fns: m,
              targs: parts[0]!.targs,
              name: first,
              self: f.thisAddr !== undefined ? { t: rec, addr: f.thisAddr } : undefined,
            },
          };
        const st = this.staticMember(rec, first, e.at);
        if (st) return { lv: st };
      }
    }
    // special library names
    const special = this.libraryName(e, scope);
    if (special) return { v: special };
    const names = parts.map((p) => p.name);
    // `Rec<args>::member`: the member of that instance (a specialisation has members of its own),
    // so the head type first; a plain `N::x` is looked up by name
    const templHead = names.length > 1 && parts.slice(0, -1).some((p) => p.targs);
    const r = templHead ? undefined : this.lookupGlobal(names, this.frame.ns, e.global);
    if (r) return this.fromEntities(r.name, r.ents, e, scope);
    // `Rec<…>::member` / `Enum::Value` where the head resolves to a type (records, enums, aliases)
    if (names.length > 1) {
      const head = parts.slice(0, -1);
      const ht = this.tryType(head, scope, e.at);
      const last = names[names.length - 1]!;
      if (ht?.k === 'enum') {
        const v = ht.values.get(last);
        if (v !== undefined) return { v: { k: 'int', t: ht, v } };
      }
      if (ht?.k === 'record') {
        const st = this.staticMember(ht, last, e.at);
        if (st) return { lv: st };
        const m = this.findMethods(ht, last);
        if (m.length)
          return {
            v: {
              k: 'fn',
              fns: m,
              targs: parts[parts.length - 1]!.targs,
              name: last,
              rec: m[0]!.owner === ht.decl ? ht : undefined,
            },
          };
        // an enumerator of an enum nested in the class
        const inner = this.lookupGlobal([...ht.decl.ns, ht.decl.name.split('::').pop()!, last], []);
        if (inner) return this.fromEntities(inner.name, inner.ents, e, scope);
      }
      if (templHead) {
        const g = this.lookupGlobal(names, this.frame.ns, e.global);
        if (g) return this.fromEntities(g.name, g.ents, e, scope);
      }
    }
    // the host's builtins and constants, then the library's
    const full = names.join('::');
    const bf = this.host.builtins?.get(full) ?? this.host.builtinFor?.(full);
    if (bf || LIBRARY[full.replace(/^std::/, '')] || full === 'std::bit_cast')
      return { v: { k: 'builtin', name: full, targs: parts[parts.length - 1]!.targs } };
    const hv = this.host.lookupName?.(full);
    if (hv !== undefined) return { v: { k: 'int', t: hv >= 0n && hv <= 0xffffffffn ? U32 : I64, v: hv } };
    if (SFPI_NAMES.has(names[names.length - 1]!) || first === 'sfpi') throw this.sfpi(full, e.at);
    const err = this.host.unknownName?.(full, e.at);
    if (err) throw err;
    const known = [...this.table.keys()].map((k) => k.split('::').pop()!);
    const near = nearestName(names[names.length - 1]!, known);
    return this.fail(`unknown name '${full}'`, e.at, near ? `did you mean ${near}?` : undefined);
  }

  private fromBinding(b: Binding, e: Expr & { kind: 'name' }, _scope: Scope): { lv?: LV; v?: Value } {
    switch (b.k) {
      case 'var':
        return { lv: { t: b.t, addr: b.addr } };
      case 'value':
        return { v: b.v };
      case 'type':
        return { v: { k: 'type', t: b.t } };
      case 'funcs':
        return { v: { k: 'fn', fns: b.fns, name: e.parts[0]!.name } };
    }
  }

  private fromEntities(
    name: string,
    ents: Entity[],
    e: Expr & { kind: 'name' },
    scope: Scope,
  ): { lv?: LV; v?: Value } {
    const last = e.parts[e.parts.length - 1]!;
    // one function list per entity list (the lookup cache's, unchanged until the table changes), so
    // that overload choices are found again by the list (`choices`)
    let fns = this.fnLists.get(ents);
    if (!fns) {
      fns = ents.filter((x) => x.k === 'func').map((x) => (x as { decl: FuncDecl }).decl);
      this.fnLists.set(ents, fns);
    }
    if (fns.length) return { v: { k: 'fn', fns, targs: last.targs, name } };
    for (const x of ents) {
      if (x.k === 'enumerator') {
        const et = this.enumType(x.decl, scope);
        return { v: { k: 'int', t: et, v: et.values.get(x.name)! } };
      }
      if (x.k === 'var') {
        const d = x.decl;
        if (d.tparams?.length) return { lv: this.varTemplate(d, x.ns, last.targs ?? [], scope, e.at) };
        if (d.type.kind === 'auto' && d.init && (d.init.kind === 'lambda' || d.init.kind === 'name')) {
          // `constexpr auto f = [](…) {…};` at namespace scope: a function value, not an object
          let v = this.globalValues.get(d);
          if (!v) {
            const frame: Frame = { ns: x.ns, retType: VOID, scope: new Scope() };
            this.frames.push(frame);
            try {
              v = this.eval(d.init, frame.scope);
            } finally {
              this.frames.pop();
            }
            if (v.k === 'lambda' || v.k === 'fn' || v.k === 'builtin') this.globalValues.set(d, v);
          }
          if (v.k === 'lambda' || v.k === 'fn' || v.k === 'builtin') return { v };
        }
        return { lv: this.globalVar(d, x.ns, x.record) };
      }
      if (x.k === 'record' || x.k === 'enum' || x.k === 'alias') {
        const t = this.typeFromEntities(ents, e.parts, scope, e.at);
        if (t) return { v: { k: 'type', t } };
      }
      if (x.k === 'ns') this.fail(`'${name}' is a namespace, not a value`, e.at);
    }
    return this.fail(`'${name}' is not a value`, e.at);
  }

  private findMethods(rec: RecordType, name: string): FuncDecl[] {
    const m = this.methods.get(rec.decl)?.get(name);
    if (m?.length) return m;
    this.complete(rec);
    for (const b of rec.bases) {
      const r = this.findMethods(b, name);
      if (r.length) return r;
    }
    return [];
  }

  private staticMember(rec: RecordType, name: string, _at: SrcLoc): LV | undefined {
    const d = rec.decl.members.find(
      (m) => m.kind === 'var' && m.name === name && (m.static || m.constexpr),
    ) as VarDecl | undefined;
    if (!d) {
      for (const b of rec.bases) {
        const r = this.staticMember(b, name, _at);
        if (r) return r;
      }
      return undefined;
    }
    return this.withBindings(rec, () =>
      this.globalVar(d, [...rec.decl.ns, rec.decl.name.split('::').pop()!], rec.decl, rec),
    );
  }

  private readonly initializing = new Set<VarDecl>();
  private readonly globalValues = new Map<VarDecl, Value>();
  private readonly recordStatics = new Map<string, LV>();

  private readonly varTemplates = new Map<string, LV>();

  /** An instance of a variable template (`ok_v<float>`): its own object per argument list, made on first use. */
  private varTemplate(d: VarDecl, ns: string[], targs: TArg[], scope: Scope, at: SrcLoc): LV {
    const full = this.completeTArgs(d, this.evalTArgs(targs, scope), scope, at);
    const key = `${this.declId(d)}<${full.map((b) => this.bindingKey(b)).join(',')}>`;
    const have = this.varTemplates.get(key);
    if (have) return have;
    const s = new Scope();
    d.tparams!.forEach((p, k) => {
      s.vars.set(p.name, full[k]!);
    });
    const frame: Frame = { ns, retType: VOID, scope: s };
    this.frames.push(frame);
    const sp = this.mem.sp;
    try {
      const lv = this.allocVar({ ...d, tparams: undefined }, s, true);
      this.varTemplates.set(key, lv);
      return lv;
    } finally {
      this.mem.sp = sp;
      this.frames.pop();
    }
  }

  /** A namespace-scope (or static member) variable, initialised on first use. */
  private globalVar(d: VarDecl, ns: string[], _record?: RecordDecl, rec?: RecordType): LV {
    const key = rec ? `${rec.name}#${this.declId(rec.decl)}::${d.name}` : undefined;
    const have = key ? this.recordStatics.get(key) : this.globalsInit.get(d);
    if (have) return have;
    if (this.initializing.has(d)) this.fail(`${d.name} is used in its own initialiser`, d.at);
    this.initializing.add(d);
    const frame: Frame = { ns, record: rec, retType: VOID, scope: rec ? this.recordScope(rec) : new Scope() };
    this.frames.push(frame);
    const sp = this.mem.sp;
    try {
      // an out-of-line definition `T S::x = …;` supplies the initialiser of a static member
      let init = d.init;
      if (!init && rec) {
        const def = this.table
          .get([...ns, d.name].join('::'))
          ?.find((x) => x.k === 'var' && (x as { decl: VarDecl }).decl !== d) as
          | { decl: VarDecl }
          | undefined;
        init = def?.decl.init;
      }
      const lv = this.allocVar({ ...d, init }, frame.scope, true);
      if (key) this.recordStatics.set(key, lv);
      else this.globalsInit.set(d, lv);
      return lv;
    } finally {
      this.mem.sp = sp;
      this.frames.pop();
      this.initializing.delete(d);
    }
  }

  /** `std::numeric_limits<T>::max()` and friends, `std::is_same_v<A,B>`, …: or undefined. */
  private libraryName(e: Expr & { kind: 'name' }, scope: Scope): Value | undefined {
    const names = e.parts.map((p) => p.name);
    const n0 = names[0] === 'std' ? names.slice(1) : names;
    const head = n0[0];
    if (head === 'numeric_limits' && n0.length === 2) {
      const targs = e.parts[e.parts.length - 2]!.targs;
      if (!targs?.length) return undefined;
      const tb = this.evalTArgs(targs, scope)[0]!;
      if (tb.k !== 'type') return undefined;
      return { k: 'builtin', name: `numeric_limits::${n0[1]}`, targs: targs };
    }
    if ((head === 'is_same_v' || head === 'is_same') && n0.length <= 2) {
      const targs = e.parts[e.parts.length - (n0.length === 2 ? 2 : 1)]!.targs;
      if (targs?.length !== 2) return undefined;
      const [a, b] = this.evalTArgs(targs, scope);
      return bool(a!.k === 'type' && b!.k === 'type' && sameType(a.t, b.t));
    }
    if (
      (head === 'is_integral_v' ||
        head === 'is_floating_point_v' ||
        head === 'is_signed_v' ||
        head === 'is_unsigned_v' ||
        head === 'is_enum_v') &&
      n0.length === 1
    ) {
      const targs = e.parts[e.parts.length - 1]!.targs;
      if (targs?.length !== 1) return undefined;
      const [a] = this.evalTArgs(targs, scope);
      if (a!.k !== 'type') return undefined;
      const t = a.t;
      switch (head) {
        case 'is_integral_v':
          return bool(t.k === 'int' || t.k === 'bool');
        case 'is_floating_point_v':
          return bool(t.k === 'float');
        case 'is_signed_v':
          return bool((t.k === 'int' && t.signed) || t.k === 'float');
        case 'is_unsigned_v':
          return bool((t.k === 'int' && !t.signed) || t.k === 'bool');
        case 'is_enum_v':
          return bool(t.k === 'enum');
      }
    }
    return undefined;
  }

  private memberFunction(e: Expr & { kind: 'member' }, scope: Scope): Value | undefined {
    let obj: LV;
    if (e.arrow) {
      const p = this.eval(e.e, scope);
      if (p.k !== 'ptr') return undefined;
      obj = this.deref(p, e.at);
    } else {
      if (this.isLvalueExpr(e.e)) obj = this.lval(e.e, scope);
      else {
        const v = this.eval(e.e, scope);
        if (v.k === 'host') return undefined;
        obj = this.materialize(v, e.at);
      }
    }
    if (obj.t.k !== 'record') return undefined;
    if (this.allFields(obj.t).some((f) => f.name === e.name)) return undefined;
    const m = this.findMethods(obj.t, e.name);
    if (!m.length) return undefined;
    return { k: 'fn', fns: m, targs: e.targs, name: e.name, self: obj };
  }

  // ---- calls ----
  evalArg(a: Expr, scope: Scope): ArgVal {
    if (a.kind === 'name') {
      const r = this.lookupName(a, scope);
      const lv = r.lv;
      if (lv)
        return lv.addr < this.mem.unsetTop ? this.lvalueArg(lv, a) : { v: this.load(lv, a.at), lv, e: a };
      return { v: r.v!, lv: undefined, e: a };
    }
    if (this.isLvalueExpr(a)) {
      const lv = this.lval(a, scope);
      return lv.addr < this.mem.unsetTop ? this.lvalueArg(lv, a) : { v: this.load(lv, a.at), lv, e: a };
    }
    return { v: this.eval(a, scope), lv: undefined, e: a };
  }

  /**
   * An lvalue argument below `unsetTop`. Binding it to a reference reads nothing, so an object not
   * written yet (an out-parameter) gets a placeholder value of its type, read for real only when
   * used as a value.
   */
  private lvalueArg(lv: LV, a: Expr): ArgVal {
    const t = lv.t;
    if (
      (t.k === 'int' || t.k === 'bool' || t.k === 'enum' || t.k === 'float' || t.k === 'ptr') &&
      this.mem.isUnset(lv.addr, this.sizeOf(t))
    ) {
      const v: Value =
        t.k === 'float'
          ? { k: 'float', t, v: 0 }
          : t.k === 'ptr'
            ? { k: 'ptr', t, addr: 0 }
            : this.mkInt(t, 0n);
      return { v, lv, e: a, unset: true };
    }
    return { v: this.load(lv, a.at), lv, e: a };
  }

  /** An argument's value, read now if `lvalueArg` deferred it (the read error, if still unwritten). */
  private argValue(a: ArgVal): Value {
    if (a.unset) {
      a.v = this.load(a.lv!, a.e?.at);
      a.unset = undefined;
    }
    return a.v;
  }

  private argOf(v: Value, e?: Expr): ArgVal {
    return { v, lv: undefined, e };
  }

  private call(e: Expr & { kind: 'call' }, scope: Scope): Value {
    const fe = e.fn;
    // member call: obj.f(…)
    let callee: Value;
    if (fe.kind === 'member') {
      const m = this.memberFunction(fe, scope);
      if (m) callee = m;
      else callee = this.eval(fe, scope);
    } else if (fe.kind === 'name') {
      const r = this.lookupName(fe, scope);
      callee = r.lv ? this.load(r.lv, fe.at) : r.v!;
    } else callee = this.eval(fe, scope);
    if (callee.k === 'builtin') return this.callBuiltin(callee, e, scope);
    // template arguments are evaluated where the call is written (they may name locals)
    if (callee.k === 'fn' && callee.targs && !callee.scope) callee = { ...callee, scope };
    const args = this.callArgs(e.args, scope);
    return this.callValue(callee, args, e.at);
  }

  /** Calls a function value (function, bound method, lambda, type as functional cast). */
  callValue(callee: Value, args: ArgVal[], at: SrcLoc): Value {
    switch (callee.k) {
      case 'fn':
        return this.callFunctions(
          callee.fns,
          callee.targs,
          args,
          callee.self,
          at,
          callee.name,
          callee.self?.t.k === 'record' ? (callee.self.t as RecordType) : callee.rec,
          callee.scope,
        );
      case 'lambda':
        return this.callLambda(callee, args, at);
      case 'type': {
        const t = callee.t;
        if (t.k === 'record') {
          const addr = this.mem.alloca(this.sizeOf(t), this.alignOf(t));
          this.mem.zero(addr, this.sizeOf(t));
          this.construct({ t, addr }, args, at);
          return this.load({ t, addr });
        }
        if (args.length === 0) return this.convert({ k: 'int', t: I32, v: 0n }, t, at, true);
        return this.convert(this.argValue(args[0]!), t, at, true);
      }
      case 'ptr': {
        const f = this.fnTable[(callee.addr - FN_BASE) / 16];
        if (callee.addr < FN_BASE || !f || (callee.addr - FN_BASE) % 16 !== 0) {
          if (callee.addr === 0) this.ub('call through a null function pointer', at);
          return this.fail(`0x${callee.addr.toString(16)} is not the address of a function`, at);
        }
        if (f.k === 'builtin')
          return this.fail(`calling the builtin ${f.name} through a pointer is not supported`, at);
        return this.callValue(f, args, at);
      }
      case 'obj':
        if (callee.t.k === 'record') return this.callOperator(callee, '()', args, at);
        break;
    }
    return this.fail(`${this.describeValue(callee)} is not a function`, at);
  }

  private callLambda(l: Value & { k: 'lambda' }, args: ArgVal[], at: SrcLoc): Value {
    const node = l.node;
    const scope = new Scope(l.env);
    const frame: Frame = {
      ns: l.frame.ns,
      record: l.frame.record,
      thisAddr: l.frame.thisAddr,
      retType: VOID,
      scope,
      callAt: at,
      fn: l.frame.fn,
    };
    // the return type is deduced: take whatever is returned
    (frame as { retType: CType }).retType = { k: 'void' };
    node.params.forEach((p, k) => {
      const a = args[k];
      if (!a) this.fail(`the lambda takes ${node.params.length} argument(s)`, at);
      this.bindParam(p.type, p.name, a, scope, at);
    });
    return this.runFrame(frame, node.body, at, true);
  }

  private runFrame(frame: Frame, body: Stmt, at: SrcLoc, deduceReturn = false): Value {
    if (this.frames.length >= this.budget.limits.depth) {
      this.budget.depth(this.frames.length + 1, this.loc(at));
    }
    this.frames.push(frame);
    this.callStack.push(this.cur.file ? this.cur : at);
    const sp = this.mem.sp;
    const cur = this.cur;
    try {
      if (deduceReturn) frame.retType = AUTO_RET;
      const sig = this.exec(body, frame.scope);
      void sig;
      const r = frame.ret ?? { k: 'void' };
      // an aggregate result must outlive this frame's stack: copy it to the caller's
      if (r.k === 'obj') {
        this.mem.sp = sp;
        const size = this.sizeOf(r.t);
        const tmp = this.mem.allocaCopy(r.addr, size, this.alignOf(r.t));
        return { k: 'obj', t: r.t, addr: tmp };
      }
      this.mem.sp = sp;
      return r;
    } catch (e) {
      this.mem.sp = sp;
      throw e;
    } finally {
      this.frames.pop();
      this.callStack.pop();
      this.cur = cur;
    }
  }

  /**
   * C++ [dcl.init.ref]/5: an lvalue of another integer type (int for a long&, even where both are
   * 32-bit; unsigned for an int&) is not reference-compatible: a const (or rvalue) reference binds
   * a temporary holding the converted value, a plain `T&` is ill-formed — an error here, as in GCC,
   * rather than a reference to the other object or to a temporary that writes would miss.
   */
  private refMismatch(to: CType, from: CType, at: SrcLoc): void {
    if (isInteger(to) && isInteger(from))
      this.fail(
        `cannot bind ${typeName(to)}& to an lvalue of type ${typeName(from)}`,
        at,
        `C++ [dcl.init.ref]: the types differ; declare the reference as ${typeName(from)}& or const ${typeName(to)}&`,
      );
  }

  private bindParam(pt: TypeSyntax, name: string | undefined, a: ArgVal, scope: Scope, at: SrcLoc): void {
    const t = this.resolveType(pt, scope, a.e);
    if (t.k === 'ref') {
      let target: LV;
      if (a.lv && (t.to.k === 'void' || sameType(t.to, a.lv.t) || t.to.k === 'record')) target = a.lv;
      else {
        if (a.lv && plainLvalueRef(pt)) this.refMismatch(t.to, a.lv.t, a.e?.at ?? at);
        const tt = t.to.k === 'void' ? this.valueType(a.v) : t.to;
        const addr = this.mem.alloca(this.sizeOf(tt), this.alignOf(tt));
        this.store({ t: tt, addr }, this.argValue(a), at);
        target = { t: tt, addr };
      }
      if (name) scope.vars.set(name, { k: 'var', t: target.t, addr: target.addr });
      return;
    }
    let vt = t;
    if (vt.k === 'void') vt = this.valueType(a.v) as typeof vt; // auto parameter
    if (vt.k === 'array') vt = { k: 'ptr', to: vt.of };
    if (a.v.k === 'fn' || a.v.k === 'lambda' || a.v.k === 'builtin' || a.v.k === 'host') {
      if (name) scope.vars.set(name, { k: 'value', v: a.v });
      return;
    }
    const addr = this.bindValue(vt, a, at);
    if (name) scope.vars.set(name, { k: 'var', t: vt, addr });
  }

  /** A by-value parameter of type `vt` initialised from `a`: its address. */
  private bindValue(vt: CType, a: ArgVal, at: SrcLoc): number {
    const addr = this.mem.alloca(this.sizeOf(vt), this.alignOf(vt));
    if (vt.k === 'record') {
      this.mem.zero(addr, this.sizeOf(vt));
      if (a.v.k === 'obj' && sameType(a.v.t, vt)) this.copyRecord({ t: vt, addr }, a.v);
      else this.construct({ t: vt, addr }, [a], at);
    } else this.store({ t: vt, addr }, this.argValue(a), at);
    return addr;
  }

  /** Call arguments; a pack expansion `pattern...` gives one argument per element of its pack(s). */
  private callArgs(args: Expr[], scope: Scope): ArgVal[] {
    const out: ArgVal[] = [];
    for (const a of args) {
      if (a.kind !== 'unary' || a.op !== '...') {
        out.push(this.evalArg(a, scope));
        continue;
      }
      const packs = this.frame.fn?.packs;
      const used = packs ? [...packs.keys()].filter((n) => namesIn(a.e, n)) : [];
      if (!packs || !used.length) this.fail("'...' after an expression that names no parameter pack", a.at);
      const n = packs.get(used[0]!)!.length;
      if (used.some((u) => packs.get(u)!.length !== n))
        this.fail(`the packs expanded together (${used.join(', ')}) have different lengths`, a.at);
      for (let i = 0; i < n; i++)
        out.push(this.evalArg(substNames(a.e, new Map(used.map((u) => [u, packs.get(u)![i]!]))), scope));
    }
    return out;
  }

  private readonly packInstances = new WeakMap<FuncDecl, Map<number, FuncDecl>>();

  /**
   * A function whose last parameter is a pack (`Ts... rest`, `const Ts&... rest`), instantiated for a
   * call with `n` arguments: the type pack becomes one type parameter per element (deduced like any
   * other), the parameter pack one parameter per element, and `packs` maps the pack names to those
   * element names (for `rest...` and `sizeof...(rest)` in the body). Undefined when `n` is too few.
   */
  private expandPack(f: FuncDecl, n: number, at: SrcLoc): FuncDecl | undefined {
    const k = f.params.findIndex((p) => p.pack);
    if (k < 0) return f;
    if (k !== f.params.length - 1)
      this.unsupported(`a function parameter pack that is not the last parameter (${f.name})`, at);
    const size = n - k;
    if (size < 0) return undefined;
    const pp = f.params[k]!;
    let ty = pp.type;
    while (ty.kind === 'ref') ty = ty.to;
    const tps = f.tparams ?? [];
    const ti =
      ty.kind === 'named' && ty.parts.length === 1 && !ty.parts[0]!.targs
        ? tps.findIndex((q) => q.pack && q.isType && q.name === (ty as { parts: NamePart[] }).parts[0]!.name)
        : -1;
    if (ti < 0)
      this.unsupported(`a function parameter pack whose type is not a type parameter pack (${f.name})`, at);
    let byN = this.packInstances.get(f);
    if (!byN) {
      byN = new Map();
      this.packInstances.set(f, byN);
    }
    const have = byN.get(size);
    if (have) return have;
    const tp = tps[ti]!;
    // element names no C++ identifier can spell
    const tnames = Array.from({ length: size }, (_, i) => `${tp.name}#${i}`);
    const pnames = Array.from({ length: size }, (_, i) => `${pp.name ?? 'pack'}#${i}`);
    const inst: FuncDecl = {
      ...f,
      tparams: [
        ...tps.slice(0, ti),
        ...tnames.map((name) => ({ isType: true, name, at: tp.at })),
        ...tps.slice(ti + 1),
      ],
      params: [
        ...f.params.slice(0, k),
        ...pnames.map((name, i) => ({
          type: substNames(pp.type, new Map([[tp.name, tnames[i]!]])),
          name,
          at: pp.at,
        })),
      ],
      packs: new Map([[tp.name, tnames], ...(pp.name ? [[pp.name, pnames] as [string, string[]]] : [])]),
    };
    byN.set(size, inst);
    return inst;
  }

  /** Overload resolution, template argument deduction and the call. */
  callFunctions(
    fns: FuncDecl[],
    targs: TArg[] | undefined,
    args: ArgVal[],
    self: LV | undefined,
    at: SrcLoc,
    name: string,
    rec?: RecordType,
    tscope?: Scope,
  ): Value {
    this.budget.step(1, this.loc(at));
    const given = fns;
    if (!targs) {
      const best = this.choiceFor(fns, args, rec);
      if (best) return this.invoke(best, new Map(), args, self, at, rec);
    }
    const explicit = targs ? this.evalTArgs(targs, tscope ?? this.frame.scope) : [];
    if (fns.some((f) => !f.variadic && this.paramShape(f).pack))
      fns = fns.flatMap((f) => {
        if (f.variadic || !f.params.some((p) => p.pack)) return [f];
        const inst = this.expandPack(f, args.length, at);
        return inst ? [inst] : [];
      });
    const cands = fns.filter((f) => {
      if (f.specArgs && !f.tparams?.length) return false; // explicit specialisations: chosen below
      const n = args.length;
      const shape = this.paramShape(f);
      if (n > f.params.length && !f.variadic && !shape.pack) return false;
      if (n < shape.need) return false;
      if (explicit.length > (f.tparams?.length ?? 0) && !f.tparams?.some((p) => p.pack)) return false;
      return true;
    });
    if (cands.length === 0) {
      const all = fns.filter((f) => !f.specArgs);
      const shape = all
        .map(
          (f) =>
            `${f.name}(${f.params.length} parameter(s)${f.tparams?.length ? `, ${f.tparams.length} template parameter(s)` : ''})`,
        )
        .join(', ');
      this.fail(
        `no ${name} takes ${args.length} argument(s)${explicit.length ? ` and ${explicit.length} template argument(s)` : ''}`,
        at,
        shape ? `candidates: ${shape}` : undefined,
      );
    }
    // prefer a definition with a body; among several, the best parameter-type match
    let best = cands[0]!;
    const memoKey = cands.length > 1 ? this.overloadKey(cands, explicit, args, rec) : undefined;
    const memo = memoKey !== undefined ? this.overloadMemo.get(memoKey) : undefined;
    if (memo) best = memo;
    else if (cands.length > 1) {
      let bestScore = -Infinity;
      // per candidate whose parameters and arguments are all arithmetic: the parameter types and the
      // rank of each argument's conversion, for the ambiguity check below
      const arith = new Map<FuncDecl, { pts: CType[]; ranks: number[] }>();
      for (const f of cands) {
        let s = f.bodyToks || f.body ? 0.5 : 0;
        if (f.params.length === args.length) s += 1;
        if (f.packs) s -= 0.25; // a non-variadic candidate is more specialised ([temp.deduct.partial])
        const pts: CType[] = [];
        const ranks: number[] = [];
        try {
          const tb = this.bindTemplate(f, explicit, args, at, rec, true);
          if (!tb) continue;
          const scope = this.templateScope(f, tb, rec);
          f.params.forEach((p, k) => {
            const a = args[k];
            if (!a) return;
            const pt = this.withFrame(f, rec, scope, () => this.resolveType(p.type, scope, a.e));
            const t = pt.k === 'ref' ? pt.to : pt;
            s += this.matchScore(t, a.v);
            const r = pt.k === 'ref' ? undefined : this.arithRank(t, this.valueType(a.v));
            if (r !== undefined) {
              pts.push(t);
              ranks.push(r);
            }
          });
        } catch (e) {
          if (!(e instanceof AxsimError)) throw e;
          continue;
        }
        if (
          !f.tparams?.length &&
          !f.variadic &&
          f.params.length === args.length &&
          ranks.length === args.length
        )
          arith.set(f, { pts, ranks });
        if (s > bestScore) {
          bestScore = s;
          best = f;
        }
      }
      this.checkAmbiguous(best, cands, arith, name, at);
      if (memoKey !== undefined) {
        if (this.overloadMemo.size >= 4096) this.overloadMemo.clear();
        this.overloadMemo.set(memoKey, best);
      }
    }
    if (!targs && fns === given && !best.tparams?.length && (cands.length === 1 || memoKey !== undefined))
      this.keepChoice(fns, args, rec, best);
    const tb = this.bindTemplate(best, explicit, args, at, rec, false)!;
    // an explicit specialisation for exactly these template arguments replaces the primary
    if (best.tparams?.length) {
      const key = best.tparams.map((p) => this.bindingKey(tb.get(p.name)!)).join(',');
      for (const f of fns) {
        if (!f.specArgs || f.tparams?.length || f === best) continue;
        const sa = this.evalTArgs(f.specArgs, this.templateScope(f, new Map(), rec));
        const full = this.completeSpecArgs(best, sa, at, rec);
        if (full.map((b) => this.bindingKey(b)).join(',') === key)
          return this.invoke(f, new Map(), args, self, at, rec);
      }
    }
    return this.invoke(best, tb, args, self, at, rec);
  }

  /**
   * Choices of a non-template function from a candidate list (callFunctions without explicit template
   * arguments), by the list's identity, the class and each argument's value kind and type (by
   * identity): what the overload memo's key names, without building it. Kept when the choice did not
   * depend on more — one candidate of the right arity, or a memoised choice — and the best has no
   * template parameters (its binding is then empty). The lists are the symbol table's (methods,
   * `ctors`), so the cache is cleared with the lookups when the table changes.
   */
  private choices = new WeakMap<
    FuncDecl[],
    { n: number; rec: RecordType | undefined; sig: unknown[]; best: FuncDecl }[]
  >();
  private choiceFor(fns: FuncDecl[], args: ArgVal[], rec: RecordType | undefined): FuncDecl | undefined {
    const list = this.choices.get(fns);
    if (!list) return undefined;
    outer: for (const c of list) {
      if (c.n !== fns.length || c.rec !== rec || c.sig.length !== 2 * args.length) continue;
      for (let k = 0; k < args.length; k++) {
        const v = args[k]!.v;
        if (c.sig[2 * k] !== v.k || c.sig[2 * k + 1] !== this.valueType(v)) continue outer;
      }
      return c.best;
    }
    return undefined;
  }
  private keepChoice(fns: FuncDecl[], args: ArgVal[], rec: RecordType | undefined, best: FuncDecl): void {
    const sig: unknown[] = [];
    for (const a of args) {
      const v = a.v;
      if (v.k !== 'int' && v.k !== 'float' && v.k !== 'obj' && v.k !== 'ptr') return;
      sig.push(v.k, v.t);
    }
    let list = this.choices.get(fns);
    if (!list) {
      list = [];
      this.choices.set(fns, list);
    }
    if (list.length >= 16) list.length = 0;
    list.push({ n: fns.length, rec, sig, best });
  }

  /**
   * Overload choices already made (callFunctions), by a key naming everything the choice reads: the
   * candidates, the explicit template arguments, each argument's value kind and type, the class.
   * The scoring resolves the candidates' parameter types in their own frames and binds their
   * template parameters from those, so for candidates whose parameter types are plain names
   * (no template arguments, auto, decltype or array sizes: nothing evaluated) and whose template
   * parameters have no defaults, the same key gives the same choice while the symbol table is
   * unchanged (cleared with the lookup cache). Objects are keyed by identity (`objId`), never by
   * spelling. Undefined: not memoised.
   */
  private overloadMemo = new Map<string, FuncDecl>();
  private readonly objIds = new WeakMap<object, number>();
  private nextObjId = 1;
  private objId(o: object): number {
    let id = this.objIds.get(o);
    if (!id) {
      id = this.nextObjId++;
      this.objIds.set(o, id);
    }
    return id;
  }
  private readonly memoable = new WeakMap<FuncDecl, boolean>();
  /** Per function: has a parameter pack; how many parameters have no default (and are no pack). */
  private readonly paramShapes = new WeakMap<FuncDecl, { pack: boolean; need: number }>();
  private paramShape(f: FuncDecl): { pack: boolean; need: number } {
    let r = this.paramShapes.get(f);
    if (!r) {
      r = { pack: f.params.some((p) => p.pack), need: f.params.filter((p) => !p.default && !p.pack).length };
      this.paramShapes.set(f, r);
    }
    return r;
  }

  private overloadKey(
    cands: FuncDecl[],
    explicit: Binding[],
    args: ArgVal[],
    rec: RecordType | undefined,
  ): string | undefined {
    let key = rec ? `r${this.objId(rec)}` : 'r';
    for (const f of cands) {
      let ok = this.memoable.get(f);
      if (ok === undefined) {
        ok =
          !f.variadic &&
          f.params.every((p) => !p.pack && plainTypeSyntax(p.type)) &&
          (f.tparams ?? []).every(
            (p) => !p.pack && !p.default && (p.isType || !p.type || plainTypeSyntax(p.type)),
          );
        this.memoable.set(f, ok);
      }
      if (!ok) return undefined;
      key += `,f${this.objId(f)}`;
    }
    key += '|';
    for (const b of explicit) {
      if (b.k === 'type') key += `,t${this.objId(b.t)}`;
      else if (b.k === 'value' && b.v.k === 'int') key += `,i${this.objId(b.v.t)}:${b.v.v}`;
      else return undefined;
    }
    key += '|';
    for (const a of args) {
      const v = a.v;
      const t = this.valueType(v);
      key += `,${v.k}${this.objId(t)}`;
    }
    return key;
  }

  private completeSpecArgs(primary: FuncDecl, sa: Binding[], _at: SrcLoc, rec?: RecordType): Binding[] {
    const out = sa.slice();
    const tps = primary.tparams ?? [];
    const s = this.templateScope(primary, new Map(), rec);
    tps.forEach((p, k) => {
      if (out[k]) s.vars.set(p.name, out[k]!);
      else if (p.default) {
        const b = this.withFrame(primary, rec, s, () => this.evalTArgs([p.default!], s)[0]!);
        out[k] = b;
        s.vars.set(p.name, b);
      }
    });
    return out;
  }

  /**
   * C++ [over.best.ics] / [over.ics.rank] for arithmetic types: the rank of the standard conversion
   * of an argument of type `vt` to a parameter of type `pt`: 3 Exact Match (the same type: int and
   * long are different types even when both are 32-bit), 2 Promotion ([conv.prom]: bool, char,
   * short, unscoped enums, wchar_t… to what they promote to; [conv.fpprom] float to double), 1
   * Conversion (every other integral, floating or floating-integral conversion); 2.5 an unscoped
   * enum with a fixed type to that type. Undefined when either type is not arithmetic or there is
   * no implicit conversion (to an enum, from a scoped enum).
   */
  private arithRank(pt: CType, vt: CType): number | undefined {
    if (!isArithmetic(pt) || !isArithmetic(vt)) return undefined;
    if (sameType(pt, vt)) return 3;
    // nothing converts to an enum implicitly, and a scoped enum to nothing ([conv.integral]/1)
    if (pt.k === 'enum' || (vt.k === 'enum' && vt.decl.scoped)) return undefined;
    // an unscoped enum with a fixed type: to that type is the better promotion ([over.ics.rank]/4.2)
    if (vt.k === 'enum' && vt.decl.underlying && sameType(vt.base, pt)) return 2.5;
    if (isInteger(vt) && pt.k === 'int' && sameType(this.promote(vt), pt)) return 2;
    if (vt.k === 'float' && pt.k === 'float' && vt.bits === 32 && pt.bits === 64) return 2;
    return 1;
  }

  /**
   * C++ [over.match.best]: the chosen candidate must be better than every other viable one. Checked
   * where the ranking above is exactly C++'s: `best` and the others non-template, non-variadic,
   * one by-value arithmetic parameter per argument. A candidate is better when no argument's
   * conversion is worse and one is better ([over.ics.rank]/4: Exact Match > Promotion >
   * Conversion); `h(int)` / `h(long)` called with an `unsigned` is two Conversions each:
   * ambiguous, an error as in GCC (never a silent pick). Redeclarations (the same parameter types)
   * are the same function. Not checked for axsim's own environment headers (files named `axsim_*`,
   * e.g. src/tensix/sfpi's `axsim_sfpi_vector.h`): their `vFloat(float)` / `vFloat(double)`
   * overloads stand for sfpi.h's single constructor reached by a user-defined conversion, and the
   * ranking above picks the first, as sfpi.h's conversion does.
   */
  private checkAmbiguous(
    best: FuncDecl,
    cands: FuncDecl[],
    arith: Map<FuncDecl, { pts: CType[]; ranks: number[] }>,
    name: string,
    at: SrcLoc,
  ): void {
    const b = arith.get(best);
    if (!b || isEnvironmentFile(best.at.file)) return;
    for (const f of cands) {
      if (f === best) continue;
      const o = arith.get(f);
      if (!o) continue;
      if (o.pts.every((t, k) => sameType(t, b.pts[k]!))) continue; // a redeclaration
      let better = false;
      let worse = false;
      for (let k = 0; k < b.ranks.length; k++) {
        if (b.ranks[k]! > o.ranks[k]!) better = true;
        else if (b.ranks[k]! < o.ranks[k]!) worse = true;
      }
      if (!better || worse) {
        const sig = (x: { pts: CType[] }) => `${best.name}(${x.pts.map(typeName).join(', ')})`;
        this.fail(
          `call of overloaded ${name} is ambiguous: ${sig(b)} and ${sig(o)} are equally good`,
          at,
          'C++ [over.match.best]: no candidate is better for every argument; cast an argument to the parameter type wanted',
        );
      }
    }
  }

  private matchScore(pt: CType, v: Value): number {
    const vt = this.valueType(v);
    if (pt.k === 'void') return 0.5;
    if (sameType(pt, vt)) return 3;
    // Promotion above Conversion ([over.ics.rank]); an integral or floating conversion above a
    // floating-integral one (not C++'s order: only where checkAmbiguous does not decide)
    const r = this.arithRank(pt, vt);
    if (r !== undefined) return r >= 2 ? r : pt.k === vt.k ? 1.5 : 1;
    if (pt.k === vt.k) return 2;
    if (isArithmetic(pt) && isArithmetic(vt)) return 1;
    if (pt.k === 'ptr' && (vt.k === 'ptr' || vt.k === 'nullptr' || vt.k === 'array')) return 1;
    if (pt.k === 'record' && v.k !== 'obj') return 0;
    return -10;
  }

  private withFrame<T>(f: FuncDecl, rec: RecordType | undefined, scope: Scope, g: () => T): T {
    this.frames.push({ fn: f, ns: f.ns, record: rec, retType: VOID, scope });
    try {
      return g();
    } finally {
      this.frames.pop();
    }
  }

  private templateScope(f: FuncDecl, tb: Map<string, Binding>, rec?: RecordType): Scope {
    const s = new Scope();
    if (rec) for (const [k, b] of rec.bindings) s.vars.set(k, b);
    for (const [k, b] of tb) s.vars.set(k, b);
    void f;
    return s;
  }

  /** Binds the template parameters of `f`: explicit arguments, deduction from the call, defaults. */
  private bindTemplate(
    f: FuncDecl,
    explicit: Binding[],
    args: ArgVal[],
    at: SrcLoc,
    rec: RecordType | undefined,
    quiet: boolean,
  ): Map<string, Binding> | undefined {
    const tb = new Map<string, Binding>();
    const tps = f.tparams ?? [];
    if (tps.some((p) => p.pack)) {
      if (quiet) return undefined;
      this.unsupported(`template parameter packs (${f.name})`, at);
    }
    tps.forEach((p, k) => {
      if (explicit[k]) tb.set(p.name, explicit[k]!);
    });
    // deduction: a parameter of type T, T&, const T&, T* from the argument's type
    f.params.forEach((p, k) => {
      const a = args[k];
      if (!a) return;
      let ty = p.type;
      let ptr = 0;
      for (;;) {
        if (ty.kind === 'ref') ty = ty.to;
        else if (ty.kind === 'ptr') {
          ty = ty.to;
          ptr++;
        } else break;
      }
      if (ty.kind !== 'named' || ty.parts.length !== 1) return;
      const tp = tps.find((q) => q.isType && q.name === (ty as { parts: NamePart[] }).parts[0]!.name);
      if (!tp || tb.has(tp.name)) return;
      let vt = this.valueType(a.v);
      if (a.v.k === 'obj' && a.v.t.k === 'array' && ptr > 0) vt = a.v.t.of;
      else for (let j = 0; j < ptr; j++) vt = vt.k === 'ptr' ? vt.to : vt;
      if (vt.k !== 'void') tb.set(tp.name, { k: 'type', t: vt });
    });
    if (tps.length === 0) return tb; // nothing below to bind or convert
    const scope = this.templateScope(f, tb, rec);
    for (const p of tps) {
      if (tb.has(p.name)) continue;
      if (!p.default) {
        if (quiet) return undefined;
        this.fail(
          `${f.name}: template parameter ${p.name} has no value`,
          at,
          `give it explicitly: ${f.name}<${tps.map((q) => q.name).join(', ')}>(…)`,
        );
      }
      const b = this.withFrame(f, rec, scope, () => this.evalTArgs([p.default!], scope)[0]!);
      tb.set(p.name, b);
      scope.vars.set(p.name, b);
    }
    // non-type parameters take their declared type
    for (const p of tps) {
      if (p.isType || !p.type) continue;
      const b = tb.get(p.name)!;
      if (b.k === 'value') {
        const t = this.withFrame(f, rec, scope, () => this.resolveType(p.type!, scope));
        if (t.k !== 'void') tb.set(p.name, { k: 'value', v: this.convert(b.v, t, at, true) });
      }
    }
    return tb;
  }

  private invoke(
    f: FuncDecl,
    tb: Map<string, Binding>,
    args: ArgVal[],
    self: LV | undefined,
    at: SrcLoc,
    rec?: RecordType,
  ): Value {
    if (!f.body && !f.bodyToks) {
      this.fail(`${f.name} is declared but not defined`, at, `declared at ${f.at.file}:${f.at.line}`);
    }
    if (this.host.native && tb.size === 0) {
      const nt = this.nativeOf(f);
      if (nt) {
        const r = this.callNative(nt, f, args, self, at, rec);
        if (r) {
          this.lastCallRef = false;
          return r;
        }
      }
    }
    const body = this.parser.parseBody(f);
    if (this.jit && tb.size === 0 && !self && !rec && !f.owner && args.length === f.params.length) {
      const cf = this.jit.get(f);
      // compiled parameters are scalars bound by value: a deferred argument is read here
      if (cf) for (const a of args) if (a.unset) this.argValue(a);
      const r = cf?.callBoxed(args, at);
      if (r) {
        this.lastCallRef = false;
        return r;
      }
    }
    const owner = rec ?? (f.owner ? this.ownerType(f, self) : undefined);
    const scope = this.templateScope(f, tb, owner);
    const frame: Frame = {
      fn: f,
      ns: f.ns,
      record: owner,
      thisAddr: self?.addr,
      retType: VOID,
      scope,
      callAt: at,
    };
    // parameters are evaluated in the caller's memory but bound in the callee's scope
    this.frames.push(frame);
    const sp = this.mem.sp;
    let pushed = true;
    try {
      frame.retType = f.isCtor ? VOID : this.resolveType(f.ret, scope);
      if (frame.retType.k === 'void' && f.ret.kind === 'auto') frame.retType = AUTO_RET;
      f.params.forEach((p, k) => {
        let a = args[k];
        if (!a) {
          if (!p.default) this.fail(`${f.name}: no value for parameter ${p.name ?? k + 1}`, at);
          a = this.evalArg(p.default, scope);
        }
        this.bindParam(p.type, p.name, a, scope, at);
      });
      if (f.isCtor && self && owner) this.runCtorInits(f, self, owner, scope, at);
      this.frames.pop();
      pushed = false;
      const r = this.runFrame(frame, body, at);
      if (frame.retType.k === 'ref' && r.k === 'ptr') {
        this.lastCallRef = true;
        return r;
      }
      this.lastCallRef = false;
      if (frame.retType.k === 'void' || frame.retType === AUTO_RET) return r;
      if (r.k === 'void') {
        if (f.name === 'main') return { k: 'int', t: I32, v: 0n };
        this.ub(`${f.name} ends without returning a value`, f.at);
      }
      return r;
    } finally {
      if (pushed) this.frames.pop();
      void sp;
    }
  }

  /** Per function: the host's native body with the resolved parameter and return types, or null. */
  private readonly natives = new WeakMap<FuncDecl, { fn: NativeFn; params: CType[]; ret: CType } | null>();

  /**
   * The host's native for `f` (Host.native), asked once: only for a non-template function of a
   * non-template class in a file other than the main one, with by-value parameters, whose record
   * parameters, `this` and result are records of two 32-bit ints (NativeCall reads them so).
   */
  private nativeOf(f: FuncDecl): { fn: NativeFn; params: CType[]; ret: CType } | null {
    let nt = this.natives.get(f);
    if (nt !== undefined) return nt;
    nt = null;
    const pair = (t: CType) =>
      t.k === 'record' &&
      this.sizeOf(t) === 8 &&
      t.fields.length === 2 &&
      t.fields.every((x, k) => x.t.k === 'int' && x.t.bits === 32 && x.t.signed && x.offset === 4 * k);
    if (
      f.at.file !== this.mainFile &&
      !f.tparams?.length &&
      !f.specArgs &&
      !f.owner?.tparams?.length &&
      !f.variadic &&
      !f.params.some((p) => p.pack)
    ) {
      const fn = this.host.native!(f, this);
      if (fn) {
        const owner = f.owner ? this.instantiate(f.owner, [], new Scope()) : undefined;
        const scope = this.templateScope(f, new Map(), owner);
        const types = this.withFrame(f, owner, scope, () => ({
          params: f.params.map((p) => this.resolveType(p.type, scope)),
          ret: f.isCtor ? VOID : this.resolveType(f.ret, scope),
        }));
        if (
          (!owner || pair(owner)) &&
          (types.ret.k === 'void' || pair(types.ret)) &&
          types.params.every((t) => t.k === 'int' || t.k === 'float' || pair(t))
        )
          nt = { fn, ...types };
      }
    }
    this.natives.set(f, nt);
    return nt;
  }

  /**
   * A call of a native body: the parameters are bound as `invoke` binds them (conversions and
   * constructors included), then the native runs where the body would, with the call site on the
   * call stack (so builtins report the same user location). Undefined (nothing done): the call
   * site is not under the main file, or the depth limit is reached — the C++ body runs instead.
   */
  private callNative(
    nt: { fn: NativeFn; params: CType[]; ret: CType },
    f: FuncDecl,
    args: ArgVal[],
    self: LV | undefined,
    at: SrcLoc,
    rec: RecordType | undefined,
  ): Value | undefined {
    const entry = this.cur.file ? this.cur : at;
    if (this.mainFile === undefined || this.frames.length >= this.budget.limits.depth) return undefined;
    if (entry.file !== this.mainFile) {
      let k = this.callStack.length - 1;
      while (k >= 0 && this.callStack[k]!.file !== this.mainFile) k--;
      if (k < 0) return undefined;
    }
    if (!!self !== !!f.owner || f.isStatic) return undefined;
    for (const a of args) if (a.v.k !== 'int' && a.v.k !== 'float' && a.v.k !== 'obj') return undefined;
    const owner = rec ?? (f.owner ? this.ownerType(f, self) : undefined);
    const scope = new Scope();
    const frame: Frame = {
      fn: f,
      ns: f.ns,
      record: owner,
      thisAddr: self?.addr,
      retType: nt.ret,
      scope,
      callAt: at,
    };
    this.budget.step(1);
    this.frames.push(frame);
    try {
      const addrs: number[] = [];
      for (let k = 0; k < f.params.length; k++) {
        const p = f.params[k]!;
        let a = args[k];
        if (!a) {
          if (!p.default) this.fail(`${f.name}: no value for parameter ${p.name ?? k + 1}`, at);
          a = this.evalArg(p.default, scope);
        }
        addrs.push(this.bindValue(nt.params[k]!, a, at));
      }
      this.callStack.push(entry);
      try {
        return nt.fn(new NativeCall(this, f, nt.ret, self, addrs, nt.params)) ?? { k: 'void' };
      } finally {
        this.callStack.pop();
      }
    } finally {
      this.frames.pop();
    }
  }

  /**
   * Calls `f` binding its template parameters and parameters by name from `get` (then their
   * defaults); a name with neither stays unbound, so using it is an "unknown name" error. This is
   * how the `.sfpu` script form runs a function definition as it is read.
   */
  callWith(f: FuncDecl, get: (name: string) => Value | undefined, at: SrcLoc = f.at): Value {
    const tb = new Map<string, Binding>();
    const scope = this.templateScope(f, tb);
    for (const p of f.tparams ?? []) {
      const v = get(p.name);
      let b: Binding | undefined;
      if (v) b = { k: 'value', v };
      else if (p.default)
        b = this.withFrame(f, undefined, scope, () => this.evalTArgs([p.default!], scope)[0]!);
      if (!b) continue;
      if (b.k === 'value' && !p.isType && p.type) {
        const t = this.withFrame(f, undefined, scope, () => this.resolveType(p.type!, scope));
        if (t.k !== 'void') b = { k: 'value', v: this.convert(b.v, t, at, true) };
      }
      scope.vars.set(p.name, b);
    }
    const body = this.parser.parseBody(f);
    const frame: Frame = { fn: f, ns: f.ns, retType: VOID, scope, callAt: at };
    this.frames.push(frame);
    try {
      frame.retType = this.resolveType(f.ret, scope);
      f.params.forEach((p) => {
        if (!p.name) return;
        const v = get(p.name);
        if (v) this.bindParam(p.type, p.name, { v, lv: undefined }, scope, at);
        else if (p.default) this.bindParam(p.type, p.name, this.evalArg(p.default, scope), scope, at);
      });
    } finally {
      this.frames.pop();
    }
    return this.runFrame(frame, body, at);
  }

  private ownerType(f: FuncDecl, self: LV | undefined): RecordType | undefined {
    if (self?.t.k === 'record') return self.t;
    return this.instantiate(f.owner!, [], new Scope());
  }

  private runCtorInits(f: FuncDecl, self: LV, rec: RecordType, scope: Scope, at: SrcLoc): void {
    const fields = this.allFields(rec);
    const given = new Set((f.inits ?? []).map((i) => i.name));
    // bases and members the mem-initialiser list does not name are default-initialised
    // ([class.base.init]/9): a base or member of class type runs its default constructor
    let basesEnd = 0;
    for (const b of rec.bases) {
      const off = Math.ceil(basesEnd / b.align) * b.align;
      basesEnd = off + b.size;
      if (!this.hasDefaultCtor(b)) continue;
      const bn = b.decl.name.split('::').pop();
      const named = (f.inits ?? []).some(
        (i) => !fields.some((x) => x.name === i.name) && i.name.split('::').pop()!.replace(/<.*$/, '') === bn,
      );
      if (!named) this.construct({ t: b, addr: self.addr + off }, [], at);
    }
    for (const fl of fields) {
      if (given.has(fl.name)) continue;
      if (fl.init) this.initObject({ t: fl.t, addr: self.addr + fl.offset }, fl.init, scope);
      else if (fl.offset >= basesEnd && (fl.t.k === 'record' || fl.t.k === 'array'))
        this.defaultConstruct({ t: fl.t, addr: self.addr + fl.offset }, at, true);
    }
    for (const init of f.inits ?? []) {
      const fl = fields.find((x) => x.name === init.name);
      if (!fl) {
        const base = rec.bases.find(
          (b) => b.decl.name.split('::').pop() === init.name.split('::').pop()!.replace(/<.*$/, ''),
        );
        if (base) {
          this.construct(
            { t: base, addr: self.addr },
            init.args.map((a) => this.evalArg(a, scope)),
            init.at,
          );
          continue;
        }
        this.fail(`${rec.name} has no field '${init.name}'`, init.at);
      }
      const lv: LV = { t: fl.t, addr: self.addr + fl.offset };
      if (init.args.length === 1 && init.args[0]!.kind === 'init') this.initObject(lv, init.args[0]!, scope);
      else
        this.construct(
          lv,
          init.args.map((a) => this.evalArg(a, scope)),
          at,
        );
    }
  }

  /**
   * Free `operator<op>` functions: from where the call is, then in the namespace of the operand's
   * class (argument-dependent lookup, C++ [basic.lookup.argdep]).
   */
  private freeOperator(op: string, rec: RecordType): FuncDecl[] | undefined {
    const free = (ns: string[]) =>
      this.lookupGlobal([`operator${op}`], ns)
        ?.ents.filter((x) => x.k === 'func')
        .map((x) => (x as { decl: FuncDecl }).decl);
    const here = free(this.frame.ns);
    return here?.length ? here : free(rec.decl.ns);
  }

  callOperator(obj: Value, op: string, args: ArgVal[], at: SrcLoc): Value {
    if (obj.k !== 'obj' || obj.t.k !== 'record')
      return this.fail(`operator${op} on ${this.describeValue(obj)}`, at);
    const ms = this.findMethods(obj.t, `operator${op}`);
    if (!ms.length) {
      const fns = this.freeOperator(op, obj.t);
      if (fns?.length)
        return this.callFunctions(
          fns,
          undefined,
          [{ v: obj, lv: { t: obj.t, addr: obj.addr } }, ...args],
          undefined,
          at,
          `operator${op}`,
        );
      return this.fail(`${typeName(obj.t)} has no operator${op}`, at);
    }
    return this.callFunctions(ms, undefined, args, { t: obj.t, addr: obj.addr }, at, `operator${op}`, obj.t);
  }

  // ---- builtins ----
  private callBuiltin(b: Value & { k: 'builtin' }, e: Expr & { kind: 'call' }, scope: Scope): Value {
    const name = b.name;
    const lib = this.libraryCall(name, b, e, scope);
    if (lib) return lib;
    const fn = this.host.builtins?.get(name) ?? this.host.builtinFor?.(name);
    if (!fn) return this.fail(`unknown builtin ${name}`, e.at);
    const args = e.args.map((a) => this.eval(a, scope));
    this.cur = e.at;
    const r = fn({
      ev: this,
      name,
      args,
      argExprs: e.args,
      targs: b.targs ?? [],
      at: e.at,
      end: e.end,
      scope,
    });
    if (r === undefined) return { k: 'void' };
    if (typeof r === 'bigint') return { k: 'int', t: r >= 0n && r <= 0xffffffffn ? U32 : I64, v: r };
    if (typeof r === 'number') return { k: 'int', t: U32, v: BigInt(r) };
    return r;
  }

  private libraryCall(
    name: string,
    b: Value & { k: 'builtin' },
    e: Expr & { kind: 'call' },
    scope: Scope,
  ): Value | undefined {
    if (name.startsWith('numeric_limits::')) {
      const tb = this.evalTArgs(b.targs!, scope)[0] as { k: 'type'; t: CType };
      return numericLimit(tb.t, name.slice(16), e.at, this);
    }
    if (name === 'std::bit_cast' && b.targs?.length === 1 && e.args.length === 1) {
      const tb = this.evalTArgs(b.targs, scope)[0]!;
      if (tb.k !== 'type') this.fail('std::bit_cast<T> needs a type', e.at);
      const v = this.eval(e.args[0]!, scope);
      const from = this.valueType(v);
      if (this.sizeOf(from) !== this.sizeOf(tb.t))
        this.fail(
          `bit cast from ${typeName(from)} (${this.sizeOf(from)} bytes) to ${typeName(tb.t)} (${this.sizeOf(tb.t)} bytes)`,
          e.at,
        );
      const tmp = this.materialize(v, e.at);
      return this.load({ t: tb.t, addr: tmp.addr }, e.at);
    }
    const lib = LIBRARY[name.replace(/^(::)?std::/, '')];
    if (!lib || this.host.builtins?.has(name)) return undefined;
    const args = e.args.map((a) => this.eval(a, scope));
    if (args.length < lib.min || args.length > lib.max)
      this.fail(
        `${name} takes ${lib.min === lib.max ? lib.min : `${lib.min}..${lib.max}`} argument(s)`,
        e.at,
      );
    return lib.f(this, args, e.at);
  }
}

interface ArgVal {
  v: Value;
  lv: LV | undefined;
  e?: Expr;
  /**
   * The lvalue holds bytes never written: `v` is a placeholder of its type, and using it as a value
   * (anything but binding a reference) is the read error (`argValue`).
   */
  unset?: true;
}

/** A local declared without an initialiser (what its marks in Memory name). */
export interface Unset {
  name: string;
  t: CType;
  at: SrcLoc;
}

/** Function "addresses" (below the data regions; never dereferenced as data). */
const FN_BASE = 0x0800_0000;

/** The return type of a function or lambda whose return type is deduced. */
const AUTO_RET: CType = { k: 'void' };

/** Library functions the evaluator provides when the program does not declare them. */
const LIBRARY: Record<
  string,
  { min: number; max: number; f: (ev: Evaluator, a: Value[], at: SrcLoc) => Value }
> = {
  to_underlying: {
    min: 1,
    max: 1,
    f: (ev, [v], at) => {
      if (v!.k !== 'int') return ev.fail('to_underlying needs an enum value', at);
      return ev.mkInt(v!.t.k === 'enum' ? v!.t.base : intOf(v!.t), v!.v);
    },
  },
  __builtin_expect: { min: 2, max: 2, f: (_ev, [v]) => v! },
  __axsim_assert_fail: {
    min: 1,
    max: 1,
    f: (ev, [m], at) =>
      ev.fail(`assertion failed: ${m!.k === 'ptr' && m!.str !== undefined ? m!.str : '?'}`, at),
  },
  __builtin_inff: { min: 0, max: 0, f: () => ({ k: 'float', t: F32, v: Number.POSITIVE_INFINITY }) },
  __builtin_inf: { min: 0, max: 0, f: () => ({ k: 'float', t: F64, v: Number.POSITIVE_INFINITY }) },
  // quiet NaN; a payload string (strtoull syntax, as GCC reads it) fills the low 22 mantissa bits
  __builtin_nanf: {
    min: 1,
    max: 1,
    f: (ev, [s], at) => {
      const text = s!.k === 'ptr' ? s!.str : undefined;
      if (text === undefined) return ev.fail('__builtin_nanf needs a string literal', at);
      const m = /^\s*(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
      if (text !== '' && !m)
        return ev.fail(
          `__builtin_nanf("${text}"): the payload is not a number`,
          at,
          'write "" or an integer such as "0x1"',
        );
      const p = m ? BigInt(/^0[0-7]+$/.test(m[1]!) ? `0o${m[1]!.slice(1)}` : m[1]!) : 0n;
      return { k: 'float', t: F32, v: Number.NaN, nan: 0x7fc00000n | (p & 0x3fffffn) };
    },
  },
  memcpy: {
    min: 3,
    max: 3,
    f: (ev, [d, s, n], at) => {
      const dp = ev.decay(d!, at);
      ev.mem.copy(dp.addr, ev.decay(s!, at).addr, Number(ev.intValue(n!, at)), ev.loc(at));
      return dp;
    },
  },
  memset: {
    min: 3,
    max: 3,
    f: (ev, [d, v, n], at) => {
      const dp = ev.decay(d!, at);
      const len = Number(ev.intValue(n!, at));
      if (len > 0) ev.mem.view(dp.addr, len).fill(Number(BigInt.asUintN(8, ev.intValue(v!, at))));
      return dp;
    },
  },
  sqrt: mathFn((x) => Math.sqrt(x)),
  sqrtf: mathFn((x) => Math.sqrt(x), true),
  fabs: mathFn((x) => Math.abs(x)),
  fabsf: mathFn((x) => Math.abs(x), true),
  floor: mathFn((x) => Math.floor(x)),
  floorf: mathFn((x) => Math.floor(x), true),
  ceil: mathFn((x) => Math.ceil(x)),
  ceilf: mathFn((x) => Math.ceil(x), true),
  trunc: mathFn((x) => Math.trunc(x)),
  truncf: mathFn((x) => Math.trunc(x), true),
  round: mathFn((x) => Math.sign(x) * Math.round(Math.abs(x))),
  roundf: mathFn((x) => Math.sign(x) * Math.round(Math.abs(x)), true),
  __builtin_assume: { min: 1, max: 1, f: () => ({ k: 'void' }) },
  __builtin_unreachable: {
    min: 0,
    max: 0,
    f: (ev, _a, at) => ev.ub('__builtin_unreachable() was reached', at),
  },
  min: { min: 2, max: 2, f: (ev, [a, b], at) => (ev.truth(ev.binop('<', b!, a!, at), at) ? b! : a!) },
  max: { min: 2, max: 2, f: (ev, [a, b], at) => (ev.truth(ev.binop('<', a!, b!, at), at) ? b! : a!) },
  abs: {
    min: 1,
    max: 1,
    f: (ev, [a], at) =>
      ev.truth(ev.binop('<', a!, { k: 'int', t: I32, v: 0n }, at), at)
        ? ev.binop('-', { k: 'int', t: I32, v: 0n }, a!, at)
        : a!,
  },
  __builtin_popcount: {
    min: 1,
    max: 1,
    f: (ev, [a], at) => ({
      k: 'int',
      t: I32,
      v: BigInt([...BigInt.asUintN(32, ev.intValue(a!, at)).toString(2)].filter((c) => c === '1').length),
    }),
  },
  __builtin_popcountll: {
    min: 1,
    max: 1,
    f: (ev, [a], at) => ({
      k: 'int',
      t: I32,
      v: BigInt([...BigInt.asUintN(64, ev.intValue(a!, at)).toString(2)].filter((c) => c === '1').length),
    }),
  },
  __builtin_clz: {
    min: 1,
    max: 1,
    f: (ev, [a], at) => {
      const v = BigInt.asUintN(32, ev.intValue(a!, at));
      if (v === 0n) ev.ub('__builtin_clz(0)', at);
      return { k: 'int', t: I32, v: BigInt(32 - v.toString(2).length) };
    },
  },
  __builtin_ctz: {
    min: 1,
    max: 1,
    f: (ev, [a], at) => {
      const v = BigInt.asUintN(32, ev.intValue(a!, at));
      if (v === 0n) ev.ub('__builtin_ctz(0)', at);
      const s = v.toString(2);
      return { k: 'int', t: I32, v: BigInt(s.length - 1 - s.lastIndexOf('1')) };
    },
  },
};

/** A correctly rounded math function of one argument (float arguments give float results). */
function mathFn(
  f: (x: number) => number,
  single = false,
): { min: number; max: number; f: (ev: Evaluator, a: Value[], at: SrcLoc) => Value } {
  return {
    min: 1,
    max: 1,
    f: (ev, [a], at) => {
      // C++ <cmath> has float overloads; C's sqrt/floor/... take and return double (a .c program)
      const cProgram = ev.mainFile?.endsWith('.c') === true;
      const t = single || (!cProgram && a!.k === 'float' && a!.t.bits === 32) ? F32 : F64;
      const x = ev.convert(a!, t, at, false) as Value & { k: 'float' };
      return ev.mkFloat(t, f(x.v));
    },
  };
}

/** The relational and equality operators on two values of one arithmetic type; undefined for others. */
function compareValues<T extends number | bigint>(op: string, p: T, q: T): Value | undefined {
  switch (op) {
    case '<':
      return bool(p < q);
    case '>':
      return bool(p > q);
    case '<=':
      return bool(p <= q);
    case '>=':
      return bool(p >= q);
    case '==':
      return bool(p === q);
    case '!=':
      return bool(p !== q);
  }
  return undefined;
}

/**
 * A NaN's encoding converted between binary16/32/64: the sign and the payload's high fraction
 * bits kept, quiet (IEEE 754 6.2.3; the binary32 <-> binary64 case as `convert` does it).
 */
function nanBits(n: bigint, from: 16 | 32 | 64, to: 16 | 32 | 64): bigint {
  // as binary64: sign and the 51 fraction bits below the quiet bit
  const sign = from === 16 ? (n >> 15n) & 1n : from === 32 ? (n >> 31n) & 1n : (n >> 63n) & 1n;
  const frac =
    from === 16 ? (n & 0x1ffn) << 42n : from === 32 ? (n & 0x3fffffn) << 29n : n & 0x7ffffffffffffn;
  if (to === 64) return (sign << 63n) | 0x7ff8000000000000n | frac;
  if (to === 32) return (sign << 31n) | 0x7fc00000n | (frac >> 29n);
  return (sign << 15n) | 0x7e00n | (frac >> 42n);
}

function bool(b: boolean): Value {
  return { k: 'int', t: BOOL, v: b ? 1n : 0n };
}

/** An integer converted to binary16/binary32/binary64, rounded once (ties to even). */
export function intToFloat(v: bigint, bits: 16 | 32 | 64): number {
  const mag = v < 0n ? -v : v;
  if (bits === 16) {
    // exact as a double below 2^53; from 65520 on every integer rounds to infinity
    const r = mag < 1n << 53n ? roundHalf(Number(mag)) : Number.POSITIVE_INFINITY;
    return v < 0n ? -r : r;
  }
  const limit = bits === 32 ? 1n << 24n : 1n << 53n;
  let r: number;
  if (mag <= limit) r = Number(mag);
  else r = roundRational(mag, 1n, 0, bits === 32);
  return v < 0n ? -r : r;
}

/** A parameter type naming only types, with nothing to evaluate (the overload memo's condition). */
function plainTypeSyntax(t: TypeSyntax): boolean {
  switch (t.kind) {
    case 'builtin':
      return true;
    case 'ptr':
    case 'ref':
      return plainTypeSyntax(t.to);
    case 'named':
      return t.parts.every((p) => !p.targs);
    default:
      return false;
  }
}

function numericLimit(t: CType, what: string, at: SrcLoc, ev: Evaluator): Value {
  if (t.k === 'int' || t.k === 'bool') {
    const it = t.k === 'bool' ? U8 : t;
    const max = it.signed ? (1n << BigInt(it.bits - 1)) - 1n : (1n << BigInt(it.bits)) - 1n;
    const min = it.signed ? -(1n << BigInt(it.bits - 1)) : 0n;
    switch (what) {
      case 'max':
        return ev.mkInt(t, t.k === 'bool' ? 1n : max);
      case 'min':
      case 'lowest':
        return ev.mkInt(t, min);
      case 'digits':
        return { k: 'int', t: I32, v: BigInt(it.signed ? it.bits - 1 : it.bits) };
    }
  }
  if (t.k === 'float' && t.bits === 16) {
    // binary16: max 65504, smallest normal 2^-14, epsilon 2^-10, smallest subnormal 2^-24
    switch (what) {
      case 'max':
        return { k: 'float', t, v: 65504 };
      case 'min':
        return { k: 'float', t, v: 2 ** -14 };
      case 'lowest':
        return { k: 'float', t, v: -65504 };
      case 'epsilon':
        return { k: 'float', t, v: 2 ** -10 };
      case 'infinity':
        return { k: 'float', t, v: Number.POSITIVE_INFINITY };
      case 'quiet_NaN':
        return { k: 'float', t, v: Number.NaN, nan: 0x7e00n };
      case 'denorm_min':
        return { k: 'float', t, v: 2 ** -24 };
    }
  }
  if (t.k === 'float') {
    const f32 = t.bits === 32;
    switch (what) {
      case 'max':
        return { k: 'float', t, v: f32 ? 3.4028234663852886e38 : Number.MAX_VALUE };
      case 'min':
        return { k: 'float', t, v: f32 ? 2 ** -126 : 2 ** -1022 };
      case 'lowest':
        return { k: 'float', t, v: f32 ? -3.4028234663852886e38 : -Number.MAX_VALUE };
      case 'epsilon':
        return { k: 'float', t, v: f32 ? 2 ** -23 : Number.EPSILON };
      case 'infinity':
        return { k: 'float', t, v: Number.POSITIVE_INFINITY };
      case 'quiet_NaN':
        return { k: 'float', t, v: Number.NaN, nan: f32 ? 0x7fc00000n : 0x7ff8000000000000n };
      case 'signaling_NaN':
        // GCC's __builtin_nans(""): quiet bit clear, the next mantissa bit set (IEEE 754 targets)
        return { k: 'float', t, v: Number.NaN, nan: f32 ? 0x7fa00000n : 0x7ff4000000000000n };
      case 'denorm_min':
        return { k: 'float', t, v: f32 ? 2 ** -149 : 5e-324 };
    }
  }
  return ev.fail(`std::numeric_limits<${typeName(t)}>::${what} is not supported`, at);
}

// lazy import to avoid a cycle at module load
/** Whether `e` (an AST subtree) names `name` (one-part name or type name). */
function namesIn(e: unknown, name: string): boolean {
  if (Array.isArray(e)) return e.some((x) => namesIn(x, name));
  if (!e || typeof e !== 'object') return false;
  const o = e as { kind?: string; parts?: NamePart[] };
  if (o.kind === 'record') return false;
  if ((o.kind === 'name' || o.kind === 'named') && o.parts?.length === 1 && o.parts[0]!.name === name)
    return true;
  return Object.values(o).some((x) => namesIn(x, name));
}

/** A copy of an AST subtree with one-part names renamed by `map` (a pack pattern for one element). */
function substNames<T>(e: T, map: Map<string, string>): T {
  if (Array.isArray(e)) return e.map((x) => substNames(x, map)) as T;
  if (!e || typeof e !== 'object' || e instanceof Map) return e;
  const o = e as { kind?: string; parts?: NamePart[] };
  if (o.kind === 'record') return e;
  if ((o.kind === 'name' || o.kind === 'named') && o.parts?.length === 1 && !o.parts[0]!.targs) {
    const to = map.get(o.parts[0]!.name);
    if (to) return { ...o, parts: [{ ...o.parts[0]!, name: to }] } as T;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = substNames(v, map);
  return out as T;
}

import * as lexModule from './lex.ts';

function require_lex() {
  return lexModule;
}

export { F32, F64, I32, I64, U32, U64 };
export function internal(msg: string): never {
  throw internalError(msg);
}

/** axsim's own environment headers (virtual include files named `axsim_*`), whose declarations model upstream ones. */
function isEnvironmentFile(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.startsWith('axsim_');
}

/** A reference type written as `T&` with T not const (its constness is visible in the syntax). */
function plainLvalueRef(t: TypeSyntax): boolean {
  return t.kind === 'ref' && !t.rvalue && !t.to.cv?.const && t.to.kind !== 'auto' && t.to.kind !== 'named';
}
