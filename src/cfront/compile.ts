/**
 * The closure compiler of cfront ("decode once, execute many"): a function whose body stays in
 * plain scalar C — integer, floating-point and pointer locals that never have their address taken,
 * arithmetic, loads and stores through pointers, `if`/`for`/`while`/`do`, calls of other plain
 * functions and of host builtins in statement position — is translated once into a tree of
 * JavaScript closures over a slot array. Names are resolved to slots, types, conversions and call
 * targets are fixed when the function is compiled, and integers of at most 32 bits are JavaScript
 * numbers (64-bit ones stay BigInt), so running it allocates nothing per operation.
 *
 * It computes what the tree-walking evaluator (eval.ts) computes, with the same errors at the same
 * positions and the same budget charges (a step per statement and per call, a loop charge per
 * iteration, the frame-depth limit); see docs/cfront.md "Compiled functions". Anything outside the
 * subset makes `compile` return undefined and the evaluator runs the function as before, so the
 * subset can grow without changing what programs mean. No JavaScript source is generated: only
 * closures are made.
 *
 * One deliberate difference, the C rule the tree walker cannot apply without evaluating both arms:
 * `c ? a : b` with two arithmetic arms has the usual-arithmetic-conversion type of both arms here
 * (C17 6.5.15p5), where the tree walker converts only when it can see the other arm's type cheaply.
 *
 * NaN payloads: a NaN's bits travel beside the number in `nan.bits` (set by every operation that
 * yields a NaN, read only by the operations that keep a payload: loads, stores, conversions,
 * negation), as the evaluator's `Value.nan` does.
 */
import { AxsimError, type ErrorLocation, internalError } from '../errors.ts';
import type { Expr, FuncDecl, Stmt, TypeSyntax } from './ast.ts';
import type { Evaluator, Scope, Value } from './eval.ts';
import { intToFloat } from './eval.ts';
import type { SrcLoc } from './lex.ts';
import {
  BOOL,
  type CType,
  F32,
  F64,
  type FloatType,
  I8,
  type IntType,
  intOf,
  isArithmetic,
  isInteger,
  type PtrType,
  sameType,
  VOID,
} from './types.ts';

type Raw = number | bigint;
/** Slot 0/1: return value and its NaN payload; then parameters and locals. */
type Slots = Raw[];
type EFn = (s: Slots) => Raw;
type SFn = (s: Slots) => number;

/** The NaN payload of the last NaN an operation produced (undefined: JavaScript's NaN). */
const nan: { bits: bigint | undefined } = { bits: undefined };

/** Thrown while compiling: the function stays with the tree walker. */
class NotCompiled extends Error {}
function no(why: string): never {
  if (process.env.AXSIM_JIT_DEBUG) console.error(`not compiled: ${why}`);
  throw new NotCompiled(why);
}

interface CE {
  t: CType;
  f: EFn;
  /** The text of a string literal (kept on the pointer value builtins receive). */
  str?: string;
  /** Static: an integer constant (for `p == 0`). */
  konst?: Raw;
}

type CL =
  | { kind: 'slot'; t: CType; slot: number }
  | { kind: 'mem'; t: CType; addr: (s: Slots) => number; at: SrcLoc };

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
const RETURN = 3;

/** A compiled function. */
export interface CompiledFn {
  readonly decl: FuncDecl;
  readonly params: CType[];
  readonly ret: CType;
  /** Runs with arguments the evaluator evaluated; undefined when an argument is not a plain value. */
  callBoxed(args: readonly { v: Value }[], at: SrcLoc): Value | undefined;
}

interface Fn extends CompiledFn {
  nslots: number;
  init: Slots;
  paramSlots: number[];
  body: SFn;
  frameScope: Scope;
}

const isBig = (t: CType): boolean => (t.k === 'int' && t.bits > 32) || (t.k === 'enum' && t.base.bits > 32);

export class Compiler {
  private readonly fns = new Map<FuncDecl, Fn | null>();
  constructor(private readonly ev: Evaluator) {}

  /** The compiled form of `f`, compiling it on first use; undefined when outside the subset. */
  get(f: FuncDecl): CompiledFn | undefined {
    return this.compileFn(f) ?? undefined;
  }

  private compileFn(f: FuncDecl): Fn | null {
    const have = this.fns.get(f);
    if (have !== undefined) return have;
    if (f.tparams?.length || f.specArgs || f.owner || f.isCtor || f.variadic || !(f.body || f.bodyToks)) {
      this.fns.set(f, null);
      return null;
    }
    const ev = this.ev;
    let body: Stmt;
    try {
      body = ev.parser.parseBody(f);
    } catch {
      this.fns.set(f, null);
      return null;
    }
    const frameScope = ev.newScope();
    const fn: Fn = {
      decl: f,
      params: [],
      ret: VOID,
      nslots: 2,
      init: [],
      paramSlots: [],
      body: () => NORMAL,
      frameScope,
      callBoxed: () => undefined,
    };
    // recursion: calls of f inside its body see `fn` (filled below)
    this.fns.set(f, fn);
    ev.frames.push({ fn: f, ns: f.ns, retType: VOID, scope: frameScope });
    try {
      const fc = new FnCompiler(this, ev, f, frameScope);
      (fn as { ret: CType }).ret = fc.ret;
      for (const p of f.params) {
        if (p.pack || !p.name) no('unnamed or pack parameter');
        const t = fc.scalarType(p.type, true);
        fn.params.push(t);
        fn.paramSlots.push(fc.declare(p.name, t));
      }
      fn.body = fc.stmt(body);
      fn.nslots = fc.nslots;
      fn.init = fc.slotInit;
      fn.callBoxed = (args, at) => this.callBoxed(fn, args, at);
      return fn;
    } catch (e) {
      if (!(e instanceof NotCompiled) && !(e instanceof AxsimError)) throw e;
      this.fns.set(f, null);
      return null;
    } finally {
      ev.frames.pop();
    }
  }

  private callBoxed(fn: Fn, args: readonly { v: Value }[], at: SrcLoc): Value | undefined {
    const ev = this.ev;
    for (const a of args) if (a.v.k !== 'int' && a.v.k !== 'float' && a.v.k !== 'ptr') return undefined;
    const s = fn.init.slice();
    fn.params.forEach((t, k) => {
      const v = ev.convert(args[k]!.v, t, at, false);
      const slot = fn.paramSlots[k]!;
      s[slot] = unbox(v, t);
      if (t.k === 'float' && v.k === 'float' && v.nan !== undefined) s[slot + 1] = v.nan;
    });
    this.run(fn, s, at);
    return fn.ret.k === 'void' ? { k: 'void' } : box(fn.ret, s[0]!, undefined, s[1] as bigint | undefined);
  }

  /** Runs a compiled body with its argument slots filled: frames, call stack, stack pointer, errors. */
  run(fn: Fn, s: Slots, at: SrcLoc): void {
    const ev = this.ev;
    if (ev.frames.length >= ev.budget.limits.depth) ev.budget.depth(ev.frames.length + 1, ev.loc(at));
    ev.frames.push({ fn: fn.decl, ns: fn.decl.ns, retType: fn.ret, scope: fn.frameScope, callAt: at });
    ev.callStack.push(ev.cur.file ? ev.cur : at);
    const sp = ev.mem.sp;
    const cur = ev.cur;
    try {
      const sig = fn.body(s);
      if (sig !== RETURN && fn.ret.k !== 'void') {
        if (fn.decl.name === 'main') s[0] = 0;
        else ev.ub(`${fn.decl.name} ends without returning a value`, fn.decl.at);
      }
    } catch (e) {
      if (e instanceof AxsimError && !e.location?.line) throw e.at(ev.loc(ev.cur));
      throw e;
    } finally {
      ev.mem.sp = sp;
      ev.frames.pop();
      ev.callStack.pop();
      ev.cur = cur;
    }
  }

  /** For a call site: the compiled callee, or null. */
  callee(f: FuncDecl): Fn | null {
    return this.compileFn(f);
  }
}

function unbox(v: Value, t: CType): Raw {
  switch (v.k) {
    case 'int':
      return isBig(t) ? v.v : Number(v.v);
    case 'float':
      if (v.nan !== undefined) nan.bits = v.nan;
      else if (Number.isNaN(v.v)) nan.bits = undefined;
      return v.v;
    case 'ptr':
      return v.addr;
    default:
      return no('not a scalar');
  }
}

function box(t: CType, r: Raw, str?: string, nanBits?: bigint): Value {
  switch (t.k) {
    case 'int':
    case 'bool':
    case 'enum':
      return { k: 'int', t, v: typeof r === 'bigint' ? r : BigInt(r) };
    case 'float': {
      const v = r as number;
      if (Number.isNaN(v) && nanBits !== undefined) return { k: 'float', t, v, nan: nanBits };
      return { k: 'float', t, v };
    }
    case 'ptr':
      return str === undefined ? { k: 'ptr', t, addr: r as number } : { k: 'ptr', t, addr: r as number, str };
    default:
      return { k: 'void' };
  }
}

/** Integer normalisation to a type (C's conversion to an integer type, two's complement). */
function intNorm(t: CType): ((v: number) => number) | ((v: bigint) => bigint) {
  if (t.k === 'bool') return (v: number) => (v !== 0 ? 1 : 0);
  const it = intOf(t as IntType);
  if (it.bits === 64)
    return it.signed ? (v: bigint) => BigInt.asIntN(64, v) : (v: bigint) => BigInt.asUintN(64, v);
  switch (it.bits) {
    case 32:
      return it.signed ? (v: number) => v | 0 : (v: number) => v >>> 0;
    case 16:
      return it.signed ? (v: number) => (v << 16) >> 16 : (v: number) => v & 0xffff;
    case 8:
      return it.signed ? (v: number) => (v << 24) >> 24 : (v: number) => v & 0xff;
  }
  return no(`${it.bits}-bit integers`);
}

class FnCompiler {
  readonly ret: CType;
  nslots = 2;
  readonly slotInit: Slots = [0, 0];
  private readonly scopes: Map<string, { slot: number; t: CType }>[] = [new Map()];
  private readonly at: SrcLoc;
  /** The tree walker's nesting depth (blocks, expressions) at the point being compiled. */
  private nest = 0;

  constructor(
    private readonly c: Compiler,
    private readonly ev: Evaluator,
    private readonly f: FuncDecl,
    private readonly scope: Scope,
  ) {
    this.at = f.at;
    if (f.ret.kind === 'auto') no('deduced return type');
    const rt = ev.resolveType(f.ret, scope);
    if (rt.k !== 'void') this.checkScalar(rt);
    this.ret = rt;
    this.slotInit[0] = isBig(rt) ? 0n : 0;
  }

  private checkScalar(t: CType): void {
    if (t.k === 'int' && t.bits > 64) no('wide integers');
    if (t.k === 'enum' && t.base.bits > 64) no('wide enums');
    if (t.k !== 'int' && t.k !== 'bool' && t.k !== 'enum' && t.k !== 'float' && t.k !== 'ptr')
      no(`a ${t.k} variable`);
  }

  scalarType(ts: TypeSyntax, param = false): CType {
    if (ts.kind === 'auto' || ts.kind === 'ref' || ts.kind === 'decltype') no(`${ts.kind} type`);
    let t = this.ev.resolveType(ts, this.scope);
    if (param && t.k === 'array') t = { k: 'ptr', to: t.of };
    this.checkScalar(t);
    return t;
  }

  declare(name: string, t: CType): number {
    const slot = this.nslots;
    this.nslots += t.k === 'float' ? 2 : 1;
    this.slotInit.push(isBig(t) ? 0n : 0);
    if (t.k === 'float') this.slotInit.push(0);
    this.scopes[this.scopes.length - 1]!.set(name, { slot, t });
    return slot;
  }

  private local(name: string): { slot: number; t: CType } | undefined {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const b = this.scopes[k]!.get(name);
      if (b) return b;
    }
    return undefined;
  }

  private loc(at: SrcLoc): ErrorLocation {
    return this.ev.loc(at);
  }

  // ---- statements ----
  stmt(st: Stmt): SFn {
    const ev = this.ev;
    const budget = ev.budget;
    const at = st.at;
    switch (st.kind) {
      case 'expr': {
        const e = this.expr(st.e, true).f;
        return (s) => {
          ev.cur = at;
          budget.step(1);
          e(s);
          return NORMAL;
        };
      }
      case 'decl': {
        const parts: ((s: Slots) => void)[] = [];
        for (const d of st.decls) {
          if (d.kind !== 'var') no(`a local ${d.kind}`);
          if (d.static || d.extern || d.ctorArgs || d.align || d.constexpr)
            no('a static/extern/aligned local');
          let t: CType;
          let init: CE | undefined;
          if (d.type.kind === 'auto') {
            if (!d.init || d.init.kind === 'init') no('auto without an initialiser');
            init = this.expr(d.init);
            t = init.t;
            this.checkScalar(t);
          } else {
            t = this.scalarType(d.type);
            if (d.init) {
              if (d.init.kind === 'init') no('a braced initialiser');
              init = this.expr(d.init);
            }
          }
          // the initialiser does not see the variable it initialises (a slot from here on)
          const slot = this.declare(d.name, t);
          if (init) parts.push(this.storeSlot(slot, t, init, d.at));
        }
        return (s) => {
          ev.cur = at;
          budget.step(1);
          for (let k = 0; k < parts.length; k++) parts[k]!(s);
          return NORMAL;
        };
      }
      case 'block': {
        this.scopes.push(new Map());
        this.nest++;
        const body = st.body.map((x) => this.stmt(x));
        this.nest--;
        this.scopes.pop();
        const n = body.length;
        return (s) => {
          ev.cur = at;
          budget.step(1);
          for (let k = 0; k < n; k++) {
            const sig = body[k]!(s);
            if (sig !== NORMAL) return sig;
          }
          return NORMAL;
        };
      }
      case 'if': {
        if (st.init) no('if with an init-statement');
        this.scopes.push(new Map());
        const c = this.truth(this.expr(st.c));
        const th = this.stmt(st.then);
        const el = st.else ? this.stmt(st.else) : undefined;
        this.scopes.pop();
        return (s) => {
          ev.cur = at;
          budget.step(1);
          if (c(s)) return th(s);
          if (el) return el(s);
          return NORMAL;
        };
      }
      case 'for': {
        this.scopes.push(new Map());
        const init = st.init ? this.stmt(st.init) : undefined;
        const c = st.c ? this.truth(this.expr(st.c)) : undefined;
        const body = this.stmt(st.body);
        const step = st.step ? this.expr(st.step, true).f : undefined;
        const stepAt = st.step?.at;
        this.scopes.pop();
        const LA = this.loc(at);
        return (s) => {
          ev.cur = at;
          budget.step(1);
          if (init) init(s);
          for (;;) {
            if (c && !c(s)) break;
            budget.loop(1, LA);
            const sig = body(s);
            if (sig === BREAK) break;
            if (sig === RETURN) return sig;
            if (step) {
              ev.cur = stepAt!;
              step(s);
            }
          }
          return NORMAL;
        };
      }
      case 'while': {
        const c = this.truth(this.expr(st.c));
        const body = this.stmt(st.body);
        const LA = this.loc(at);
        return (s) => {
          ev.cur = at;
          budget.step(1);
          for (;;) {
            if (!c(s)) break;
            budget.loop(1, LA);
            const sig = body(s);
            if (sig === BREAK) break;
            if (sig === RETURN) return sig;
          }
          return NORMAL;
        };
      }
      case 'do': {
        const body = this.stmt(st.body);
        const c = this.truth(this.expr(st.c));
        const LA = this.loc(at);
        return (s) => {
          ev.cur = at;
          budget.step(1);
          for (;;) {
            budget.loop(1, LA);
            const sig = body(s);
            if (sig === BREAK) break;
            if (sig === RETURN) return sig;
            if (!c(s)) break;
          }
          return NORMAL;
        };
      }
      case 'break':
      case 'continue': {
        const sig = st.kind === 'break' ? BREAK : CONTINUE;
        return () => {
          ev.cur = at;
          budget.step(1);
          return sig;
        };
      }
      case 'empty':
        return () => {
          ev.cur = at;
          budget.step(1);
          return NORMAL;
        };
      case 'return': {
        const rt = this.ret;
        if (!st.e) {
          if (rt.k !== 'void') no('return without a value');
          return () => {
            ev.cur = at;
            budget.step(1);
            return RETURN;
          };
        }
        if (st.e.kind === 'init') no('return of a braced list');
        const e = this.expr(st.e, rt.k === 'void');
        if (rt.k === 'void') {
          const f = e.f;
          return (s) => {
            ev.cur = at;
            budget.step(1);
            f(s);
            return RETURN;
          };
        }
        const store = this.storeSlot(0, rt, e, st.e.at);
        return (s) => {
          ev.cur = at;
          budget.step(1);
          store(s);
          return RETURN;
        };
      }
      default:
        return no(`statement ${st.kind}`);
    }
  }

  /** `slot = convert(e)` (with the NaN payload slot of a float). */
  private storeSlot(slot: number, t: CType, e: CE, at: SrcLoc): (s: Slots) => void {
    const f = this.convert(e, t, at, false).f;
    if (t.k === 'float')
      return (s) => {
        const v = f(s) as number;
        s[slot] = v;
        if (Number.isNaN(v)) s[slot + 1] = nan.bits as bigint;
      };
    return (s) => {
      s[slot] = f(s);
    };
  }

  private truth(e: CE): (s: Slots) => boolean {
    const f = e.f;
    const t = e.t;
    if (isBig(t)) return (s) => (f(s) as bigint) !== 0n;
    if (t.k === 'int' || t.k === 'bool' || t.k === 'enum' || t.k === 'float' || t.k === 'ptr')
      return (s) => (f(s) as number) !== 0;
    return no(`a ${t.k} condition`);
  }

  // ---- conversions ----
  /** C's conversion of `e` to `to` (as Evaluator.convert), fixed at compile time. */
  convert(e: CE, to: CType, at: SrcLoc, explicit: boolean): CE {
    const from = e.t;
    const f = e.f;
    const ev = this.ev;
    if (to.k === 'void') return { t: VOID, f };
    if (sameType(from, to) && from.k !== 'enum') return { t: to, f, str: e.str, konst: e.konst };
    const fromInt = from.k === 'int' || from.k === 'bool' || from.k === 'enum';
    switch (to.k) {
      case 'int':
      case 'bool':
      case 'enum': {
        if (fromInt) {
          const fb = isBig(from);
          const tb = isBig(to);
          if (to.k === 'bool')
            return fb
              ? { t: to, f: (s) => ((f(s) as bigint) !== 0n ? 1 : 0) }
              : { t: to, f: (s) => ((f(s) as number) !== 0 ? 1 : 0) };
          const norm = intNorm(to);
          if (tb) {
            const n = norm as (v: bigint) => bigint;
            return fb ? { t: to, f: (s) => n(f(s) as bigint) } : { t: to, f: (s) => n(BigInt(f(s))) };
          }
          const n = norm as (v: number) => number;
          const bits = intOf(to as IntType).bits;
          const signed = intOf(to as IntType).signed;
          if (fb)
            return {
              t: to,
              f: signed
                ? (s) => Number(BigInt.asIntN(bits, f(s) as bigint))
                : (s) => Number(BigInt.asUintN(bits, f(s) as bigint)),
            };
          return { t: to, f: (s) => n(f(s) as number) };
        }
        if (from.k === 'float') {
          if (to.k === 'bool') return { t: to, f: (s) => ((f(s) as number) !== 0 ? 1 : 0) };
          const it = intOf(to as IntType);
          const toT = to;
          const slow = (v: number): never => {
            ev.convert(box(from, v, undefined, nan.bits), toT, at, explicit);
            throw internalError('a float to integer conversion did not fail');
          };
          if (it.bits <= 32) {
            const lo = it.signed ? -(2 ** (it.bits - 1)) : 0;
            const hi = it.signed ? 2 ** (it.bits - 1) - 1 : 2 ** it.bits - 1;
            return {
              t: to,
              f: (s) => {
                const v = f(s) as number;
                const tr = Math.trunc(v);
                if (!(tr >= lo && tr <= hi)) return slow(v);
                return tr === 0 ? 0 : tr;
              },
            };
          }
          const lo = it.signed ? -(1n << 63n) : 0n;
          const hi = it.signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
          return {
            t: to,
            f: (s) => {
              const v = f(s) as number;
              if (!Number.isFinite(v)) return slow(v);
              const tr = BigInt(Math.trunc(v));
              if (tr < lo || tr > hi) return slow(v);
              return tr;
            },
          };
        }
        if (from.k === 'ptr') {
          if (to.k === 'bool') return { t: to, f: (s) => ((f(s) as number) !== 0 ? 1 : 0) };
          if (isBig(to)) {
            const n = intNorm(to) as (v: bigint) => bigint;
            return { t: to, f: (s) => n(BigInt(f(s))) };
          }
          const it = intOf(to as IntType);
          const bits = it.bits;
          const signed = it.signed;
          return {
            t: to,
            f: signed
              ? (s) => Number(BigInt.asIntN(bits, BigInt(f(s))))
              : (s) => Number(BigInt.asUintN(bits, BigInt(f(s)))),
          };
        }
        break;
      }
      case 'float': {
        if (from.k === 'float') {
          if (from.bits === to.bits) return { t: to, f };
          if (to.bits === 32)
            return {
              t: to,
              f: (s) => {
                const v = f(s) as number;
                if (Number.isNaN(v)) {
                  const p = nan.bits;
                  if (p !== undefined)
                    nan.bits = ((p >> 32n) & 0x80000000n) | 0x7fc00000n | ((p >> 29n) & 0x3fffffn);
                  return v;
                }
                return Math.fround(v);
              },
            };
          return {
            t: to,
            f: (s) => {
              const v = f(s) as number;
              if (Number.isNaN(v)) {
                const p = nan.bits;
                if (p !== undefined)
                  nan.bits = ((p & 0x80000000n) << 32n) | 0x7ff8000000000000n | ((p & 0x3fffffn) << 29n);
              }
              return v;
            },
          };
        }
        if (fromInt) {
          const bits = to.bits;
          if (isBig(from)) return { t: to, f: (s) => intToFloat(f(s) as bigint, bits) };
          return bits === 32 ? { t: to, f: (s) => Math.fround(f(s) as number) } : { t: to, f };
        }
        break;
      }
      case 'ptr': {
        if (from.k === 'ptr') return { t: to, f, str: e.str };
        if (fromInt) {
          const pbits = ev.ptrSize * 8;
          if (!explicit) {
            if (e.konst !== undefined && (e.konst === 0 || e.konst === 0n)) return { t: to, f: () => 0 };
            const toT = to;
            return {
              t: to,
              f: (s) => {
                const v = f(s);
                if (v !== 0 && v !== 0n) ev.convert(box(from, v), toT, at, false);
                return 0;
              },
            };
          }
          if (isBig(from)) return { t: to, f: (s) => Number(BigInt.asUintN(pbits, f(s) as bigint)) };
          return {
            t: to,
            f: (s) => {
              const v = f(s) as number;
              return v >= 0 ? v : Number(BigInt.asUintN(pbits, BigInt(v)));
            },
          };
        }
        break;
      }
    }
    return no(`conversion from ${from.k} to ${to.k}`);
  }

  private promote(t: CType): CType {
    return this.ev.promote(t);
  }

  // ---- expressions ----
  /** Compiles an rvalue; `discard`: its value is not used (calls of builtins are allowed). */
  expr(e: Expr, discard = false): CE {
    this.nest++;
    try {
      return this.exprInner(e, discard);
    } finally {
      this.nest--;
    }
  }

  private exprInner(e: Expr, discard: boolean): CE {
    const ev = this.ev;
    switch (e.kind) {
      case 'int': {
        const t = ev.literalType(e);
        const v: Raw = t.bits > 32 ? e.value : Number(e.value);
        return { t, f: () => v, konst: v };
      }
      case 'float': {
        const v = e.value;
        return { t: e.single ? F32 : F64, f: () => v };
      }
      case 'bool': {
        const v = e.value ? 1 : 0;
        return { t: BOOL, f: () => v };
      }
      case 'char': {
        const v = e.value;
        return { t: I8, f: () => v, konst: v };
      }
      case 'string': {
        let addr = -1;
        const str = e.value;
        const scope = this.scope;
        return {
          t: { k: 'ptr', to: I8 },
          str,
          f: () => {
            if (addr < 0) addr = (ev.eval(e, scope) as { addr: number }).addr;
            return addr;
          },
        };
      }
      case 'name': {
        if (e.parts.length === 1 && !e.global) {
          const b = this.local(e.parts[0]!.name);
          if (b) return this.load({ kind: 'slot', t: b.t, slot: b.slot });
        }
        // a constant the program or the host defines (enumerators, host constants)
        this.notGlobalObject(e);
        let r: ReturnType<Evaluator['lookupName']>;
        try {
          r = ev.lookupName(e, this.scope);
        } catch {
          return no('a name the evaluator resolves when it runs');
        }
        if (r.lv || !r.v || r.v.k !== 'int') return no('a global object or function value');
        const v = r.v;
        const raw: Raw = isBig(v.t) ? v.v : Number(v.v);
        return { t: v.t, f: () => raw, konst: raw };
      }
      case 'unary':
        return this.unary(e, discard);
      case 'postfix': {
        const lv = this.lval(e.e);
        return this.incdec(lv, e.op === '++' ? 1 : -1, e.at, true);
      }
      case 'binary':
        return this.binary(e);
      case 'assign':
        return this.assign(e);
      case 'cond': {
        const c = this.truth(this.expr(e.c));
        let a = this.expr(e.a, discard);
        let b = this.expr(e.b, discard);
        if (isArithmetic(a.t) && isArithmetic(b.t)) {
          const t = ev.common(a.t, b.t);
          a = this.convert(a, t, e.at, false);
          b = this.convert(b, t, e.at, false);
        } else if (!(sameType(a.t, b.t) && (a.t.k === 'ptr' || a.t.k === 'void'))) no('?: of mixed types');
        const fa = a.f;
        const fb = b.f;
        return { t: a.t, f: (s) => (c(s) ? fa(s) : fb(s)) };
      }
      case 'comma': {
        const a = this.expr(e.a, true).f;
        const b = this.expr(e.b, discard);
        const fb = b.f;
        return {
          t: b.t,
          f: (s) => {
            a(s);
            return fb(s);
          },
        };
      }
      case 'call':
        return this.call(e, discard);
      case 'index':
        return this.load(this.lval(e));
      case 'cast': {
        if (e.how === 'bit' || e.how === 'const') no(`${e.how} cast`);
        if (e.type.kind === 'ref') no('cast to a reference');
        const to = ev.resolveType(e.type, this.scope);
        if (to.k === 'void') {
          const v = this.expr(e.e, true).f;
          return { t: VOID, f: v };
        }
        this.checkScalar(to);
        return this.convert(this.expr(e.e), to, e.at, true);
      }
      case 'sizeof': {
        if ((e as { pack?: boolean }).pack) no('sizeof...');
        let t: CType = e.type ? ev.resolveType(e.type, this.scope) : this.staticType(e.e!);
        if (t.k === 'ref') t = t.to;
        const n = e.align ? ev.alignOf(t) : ev.sizeOf(t);
        const raw: Raw = ev.sizeT.bits > 32 ? BigInt(n) : n;
        return { t: ev.sizeT, f: () => raw, konst: raw };
      }
      default:
        return no(`expression ${e.kind}`);
    }
  }

  /** Global objects are initialised on first use by the evaluator: not resolved at compile time. */
  private notGlobalObject(e: Expr & { kind: 'name' }): void {
    const r = this.ev.lookupGlobal(
      e.parts.map((p) => p.name),
      this.f.ns,
      e.global,
    );
    if (r?.ents.some((x) => x.k === 'var')) no('a global object');
  }

  private staticType(e: Expr): CType {
    if (e.kind === 'name' && e.parts.length === 1 && !e.global) {
      const b = this.local(e.parts[0]!.name);
      if (b) return b.t;
    }
    if (e.kind === 'index' || (e.kind === 'unary' && e.op === '*')) return this.lval(e).t;
    return this.expr(e).t;
  }

  private unary(e: Expr & { kind: 'unary' }, discard: boolean): CE {
    switch (e.op) {
      case '*': {
        return this.load(this.lval(e));
      }
      case 'pre++':
      case 'pre--': {
        const lv = this.lval(e.e);
        return this.incdec(lv, e.op === 'pre++' ? 1 : -1, e.at, false);
      }
      case '&':
        return no('address of');
    }
    const v = this.expr(e.e);
    void discard;
    const t = v.t;
    if (t.k !== 'int' && t.k !== 'bool' && t.k !== 'enum' && t.k !== 'float' && t.k !== 'ptr')
      no(`unary ${e.op} on ${t.k}`);
    switch (e.op) {
      case '!': {
        const c = this.truth(v);
        return { t: BOOL, f: (s) => (c(s) ? 0 : 1) };
      }
      case '+':
        if (t.k === 'ptr') return v;
        return this.arith(v, e.at);
      case '-': {
        const a = this.arith(v, e.at);
        const f = a.f;
        if (a.t.k === 'float') {
          const sign = a.t.bits === 32 ? 0x80000000n : 1n << 63n;
          return {
            t: a.t,
            f: (s) => {
              const x = f(s) as number;
              if (Number.isNaN(x)) {
                if (nan.bits !== undefined) nan.bits ^= sign;
                return x;
              }
              return -x;
            },
          };
        }
        if (a.t.k === 'ptr') no('- on a pointer');
        const norm = intNorm(a.t);
        if (isBig(a.t)) {
          const n = norm as (v: bigint) => bigint;
          return { t: a.t, f: (s) => n(-(f(s) as bigint)) };
        }
        const n = norm as (v: number) => number;
        return { t: a.t, f: (s) => n(-(f(s) as number)) };
      }
      case '~': {
        const a = this.arith(v, e.at);
        if (!isInteger(a.t)) no('~ on a non-integer');
        const f = a.f;
        const norm = intNorm(a.t);
        if (isBig(a.t)) {
          const n = norm as (v: bigint) => bigint;
          return { t: a.t, f: (s) => n(~(f(s) as bigint)) };
        }
        const n = norm as (v: number) => number;
        return { t: a.t, f: (s) => n(~(f(s) as number)) };
      }
    }
    return no(`unary ${e.op}`);
  }

  /** The promoted value (integer promotions; floats unchanged). */
  private arith(v: CE, at: SrcLoc): CE {
    if (isInteger(v.t)) return this.convert(v, this.promote(v.t), at, false);
    if (v.t.k === 'float') return v;
    return no(`arithmetic on ${v.t.k}`);
  }

  private binary(e: Expr & { kind: 'binary' }): CE {
    const op = e.op;
    if (op === '&&' || op === '||') {
      const a = this.truth(this.expr(e.a));
      const b = this.truth(this.expr(e.b));
      return op === '&&'
        ? { t: BOOL, f: (s) => (a(s) && b(s) ? 1 : 0) }
        : { t: BOOL, f: (s) => (a(s) || b(s) ? 1 : 0) };
    }
    const a = this.expr(e.a);
    const b = this.expr(e.b);
    const { t, op: g } = this.binop(op, a, b, e.at, e.b.at);
    const fa = a.f;
    const fb = b.f;
    return { t, f: (s) => g(fa(s), fb(s)) };
  }

  /** The operator `op` on values of the static types of `a` and `b` (as Evaluator.binop). */
  private binop(
    op: string,
    a: CE,
    b: CE,
    at: SrcLoc,
    bAt: SrcLoc,
  ): { t: CType; op: (x: Raw, y: Raw) => Raw } {
    const ev = this.ev;
    const ta = a.t;
    const tb = b.t;
    if (ta.k === 'ptr' || tb.k === 'ptr') return this.ptrOp(op, a, b, at);
    if (!isArithmetic(ta) || !isArithmetic(tb)) no(`operator${op} on ${ta.k} and ${tb.k}`);
    const L = this.loc(at);
    if (op === '<<' || op === '>>') {
      const pa = this.promote(ta);
      const pb = this.promote(tb);
      if (!isInteger(pa) || !isInteger(pb)) no('shift of a non-integer');
      const ca = this.convFn(ta, pa, at);
      const cb = this.convFn(tb, pb, bAt);
      const bits = intOf(pa as IntType).bits;
      const signed = intOf(pa as IntType).signed;
      const bigA = isBig(pa);
      const bigB = isBig(pb);
      const bad = (c: Raw): never =>
        ev.ub(
          `shift by ${c} of a ${bits}-bit value`,
          at,
          'C++ [expr.shift]: the count must be in 0..width-1',
        );
      const count = bigB
        ? (y: Raw) => {
            const c = cb(y) as bigint;
            if (c < 0n || c >= BigInt(bits)) bad(c);
            return Number(c);
          }
        : (y: Raw) => {
            const c = cb(y) as number;
            if (c < 0 || c >= bits) bad(c);
            return c;
          };
      void L;
      if (bigA) {
        const n = intNorm(pa) as (v: bigint) => bigint;
        return op === '<<'
          ? { t: pa, op: (x, y) => n((ca(x) as bigint) << BigInt(count(y))) }
          : { t: pa, op: (x, y) => (ca(x) as bigint) >> BigInt(count(y)) };
      }
      if (op === '<<')
        return signed
          ? { t: pa, op: (x, y) => (ca(x) as number) << count(y) }
          : { t: pa, op: (x, y) => ((ca(x) as number) << count(y)) >>> 0 };
      return signed
        ? { t: pa, op: (x, y) => (ca(x) as number) >> count(y) }
        : { t: pa, op: (x, y) => (ca(x) as number) >>> count(y) };
    }
    const t = ev.common(ta, tb);
    const ca = this.convFn(ta, t, at);
    const cb = this.convFn(tb, t, bAt);
    const cmp = compareOp(op);
    if (t.k === 'float') {
      if (cmp) return { t: BOOL, op: (x, y) => (cmp(ca(x), cb(y)) ? 1 : 0) };
      const single = t.bits === 32;
      const r = (v: number) => {
        const w = single ? Math.fround(v) : v;
        if (Number.isNaN(w)) nan.bits = undefined;
        return w;
      };
      switch (op) {
        case '+':
          return { t, op: (x, y) => r((ca(x) as number) + (cb(y) as number)) };
        case '-':
          return { t, op: (x, y) => r((ca(x) as number) - (cb(y) as number)) };
        case '*':
          return { t, op: (x, y) => r((ca(x) as number) * (cb(y) as number)) };
        case '/':
          return { t, op: (x, y) => r((ca(x) as number) / (cb(y) as number)) };
      }
      return no(`operator${op} on floating-point values`);
    }
    if (cmp) return { t: BOOL, op: (x, y) => (cmp(ca(x), cb(y)) ? 1 : 0) };
    const it = t as IntType;
    const zero = () => ev.ub('division by zero', at);
    if (isBig(it)) {
      const n = intNorm(it) as (v: bigint) => bigint;
      const A = ca as (x: Raw) => bigint;
      const B = cb as (x: Raw) => bigint;
      switch (op) {
        case '+':
          return { t, op: (x, y) => n(A(x) + B(y)) };
        case '-':
          return { t, op: (x, y) => n(A(x) - B(y)) };
        case '*':
          return { t, op: (x, y) => n(A(x) * B(y)) };
        case '/':
          return {
            t,
            op: (x, y) => {
              const p = A(x);
              const q = B(y);
              if (q === 0n) zero();
              return n(p / q);
            },
          };
        case '%':
          return {
            t,
            op: (x, y) => {
              const p = A(x);
              const q = B(y);
              if (q === 0n) zero();
              return n(p % q);
            },
          };
        case '&':
          return { t, op: (x, y) => n(A(x) & B(y)) };
        case '|':
          return { t, op: (x, y) => n(A(x) | B(y)) };
        case '^':
          return { t, op: (x, y) => n(A(x) ^ B(y)) };
      }
      return no(`operator${op}`);
    }
    if (it.bits !== 32) no(`${it.bits}-bit arithmetic`);
    const A = ca as (x: Raw) => number;
    const B = cb as (x: Raw) => number;
    if (it.signed)
      switch (op) {
        case '+':
          return { t, op: (x, y) => (A(x) + B(y)) | 0 };
        case '-':
          return { t, op: (x, y) => (A(x) - B(y)) | 0 };
        case '*':
          return { t, op: (x, y) => Math.imul(A(x), B(y)) };
        case '/':
          return {
            t,
            op: (x, y) => {
              const p = A(x);
              const q = B(y);
              if (q === 0) zero();
              return (p / q) | 0;
            },
          };
        case '%':
          return {
            t,
            op: (x, y) => {
              const p = A(x);
              const q = B(y);
              if (q === 0) zero();
              return (p % q) | 0;
            },
          };
        case '&':
          return { t, op: (x, y) => A(x) & B(y) };
        case '|':
          return { t, op: (x, y) => A(x) | B(y) };
        case '^':
          return { t, op: (x, y) => A(x) ^ B(y) };
      }
    else
      switch (op) {
        case '+':
          return { t, op: (x, y) => (A(x) + B(y)) >>> 0 };
        case '-':
          return { t, op: (x, y) => (A(x) - B(y)) >>> 0 };
        case '*':
          return { t, op: (x, y) => Math.imul(A(x), B(y)) >>> 0 };
        case '/':
          return {
            t,
            op: (x, y) => {
              const p = A(x);
              const q = B(y);
              if (q === 0) zero();
              return (p / q) >>> 0;
            },
          };
        case '%':
          return {
            t,
            op: (x, y) => {
              const p = A(x);
              const q = B(y);
              if (q === 0) zero();
              return p % q;
            },
          };
        case '&':
          return { t, op: (x, y) => (A(x) & B(y)) >>> 0 };
        case '|':
          return { t, op: (x, y) => (A(x) | B(y)) >>> 0 };
        case '^':
          return { t, op: (x, y) => (A(x) ^ B(y)) >>> 0 };
      }
    return no(`operator${op}`);
  }

  /** A raw conversion function between two types (identity when equal). */
  private convFn(from: CType, to: CType, at: SrcLoc): (x: Raw) => Raw {
    if (sameType(from, to) && from.k !== 'enum') return (x) => x;
    let cell: Raw = 0;
    const conv = this.convert({ t: from, f: () => cell }, to, at, false).f;
    return (x) => {
      cell = x;
      return conv(EMPTY);
    };
  }

  private ptrOp(op: string, a: CE, b: CE, at: SrcLoc): { t: CType; op: (x: Raw, y: Raw) => Raw } {
    const ev = this.ev;
    const ta = a.t;
    const tb = b.t;
    if (ta.k === 'ptr' && tb.k === 'ptr') {
      if (op === '-') {
        const es = ev.sizeOf(ta.to) || 1;
        const big = ev.ptrdiffT.bits > 32;
        return {
          t: ev.ptrdiffT,
          op: big
            ? (x, y) => BigInt(Math.trunc(((x as number) - (y as number)) / es))
            : (x, y) => Math.trunc(((x as number) - (y as number)) / es) | 0,
        };
      }
      const cmp = compareOp(op);
      if (cmp) return { t: BOOL, op: (x, y) => (cmp(x, y) ? 1 : 0) };
      return no(`operator${op} on pointers`);
    }
    if (ta.k === 'ptr' && isInteger(tb) && (op === '+' || op === '-')) {
      const es = ev.sizeOf(ta.to);
      const sign = op === '+' ? 1 : -1;
      return { t: ta, op: (x, y) => (x as number) + sign * Number(y) * es };
    }
    if (isInteger(ta) && tb.k === 'ptr' && op === '+') {
      const es = ev.sizeOf(tb.to);
      return { t: tb, op: (x, y) => (y as number) + Number(x) * es };
    }
    if (ta.k === 'ptr' && isInteger(tb) && (op === '==' || op === '!=')) {
      const eq = op === '==';
      return {
        t: BOOL,
        op: (x, y) => {
          if (y !== 0 && y !== 0n) ev.binop(op, box(ta, x), box(tb, y), at);
          return ((x as number) === 0) === eq ? 1 : 0;
        },
      };
    }
    return no(`operator${op} on ${ta.k} and ${tb.k}`);
  }

  // ---- lvalues ----
  private lval(e: Expr): CL {
    const ev = this.ev;
    switch (e.kind) {
      case 'name': {
        if (e.parts.length === 1 && !e.global) {
          const b = this.local(e.parts[0]!.name);
          if (b) return { kind: 'slot', t: b.t, slot: b.slot };
        }
        return no('a global object');
      }
      case 'unary': {
        if (e.op !== '*') break;
        const p = this.expr(e.e);
        if (p.t.k !== 'ptr') no('* of a non-pointer');
        const to = (p.t as PtrType).to;
        if (to.k === 'void' || to.k === 'func') no('* of void* or a function pointer');
        this.checkScalar(to);
        const f = p.f;
        const at = e.at;
        return {
          kind: 'mem',
          t: to,
          at,
          addr: (s) => {
            const a = f(s) as number;
            if (a === 0) ev.ub('null pointer dereference', at);
            return a;
          },
        };
      }
      case 'index': {
        let base = this.expr(e.e);
        let idx = this.expr(e.i);
        if (idx.t.k === 'ptr') [base, idx] = [idx, base];
        if (base.t.k !== 'ptr' || !isInteger(idx.t)) no('an index that is not pointer[integer]');
        const to = (base.t as PtrType).to;
        if (to.k === 'void') no('index of void*');
        this.checkScalar(to);
        const es = ev.sizeOf(to);
        const fb = base.f;
        const fi = idx.f;
        return { kind: 'mem', t: to, at: e.at, addr: (s) => (fb(s) as number) + Number(fi(s)) * es };
      }
    }
    return no(`an lvalue ${e.kind}`);
  }

  private load(lv: CL): CE {
    const t = lv.t;
    if (lv.kind === 'slot') {
      const slot = lv.slot;
      if (t.k === 'float')
        return {
          t,
          f: (s) => {
            const v = s[slot] as number;
            if (Number.isNaN(v)) nan.bits = s[slot + 1] as bigint | undefined;
            return v;
          },
        };
      return { t, f: (s) => s[slot]! };
    }
    const rd = this.reader(t, lv.at);
    const addr = lv.addr;
    return { t, f: (s) => rd(addr(s)) };
  }

  /** A load of type `t` from memory (region read hooks run, as Evaluator.load). */
  private reader(t: CType, at: SrcLoc): (addr: number) => Raw {
    const mem = this.ev.mem;
    const L = this.loc(at);
    switch (t.k) {
      case 'bool':
        return (a) => {
          const r = mem.readRegion(a, 1, L);
          return r.bytes[a - r.base] !== 0 ? 1 : 0;
        };
      case 'int':
      case 'enum': {
        const it = intOf(t);
        switch (it.bits) {
          case 8:
            return it.signed
              ? (a) => {
                  const r = mem.readRegion(a, 1, L);
                  return r.view.getInt8(a - r.base);
                }
              : (a) => {
                  const r = mem.readRegion(a, 1, L);
                  return r.bytes[a - r.base]!;
                };
          case 16:
            return it.signed
              ? (a) => {
                  const r = mem.readRegion(a, 2, L);
                  return r.view.getInt16(a - r.base, true);
                }
              : (a) => {
                  const r = mem.readRegion(a, 2, L);
                  return r.view.getUint16(a - r.base, true);
                };
          case 32:
            return it.signed
              ? (a) => {
                  const r = mem.readRegion(a, 4, L);
                  return r.view.getInt32(a - r.base, true);
                }
              : (a) => {
                  const r = mem.readRegion(a, 4, L);
                  return r.view.getUint32(a - r.base, true);
                };
          case 64:
            return it.signed
              ? (a) => {
                  const r = mem.readRegion(a, 8, L);
                  return r.view.getBigInt64(a - r.base, true);
                }
              : (a) => {
                  const r = mem.readRegion(a, 8, L);
                  return r.view.getBigUint64(a - r.base, true);
                };
        }
        break;
      }
      case 'float':
        if (t.bits === 32)
          return (a) => {
            const r = mem.readRegion(a, 4, L);
            const v = r.view.getFloat32(a - r.base, true);
            if (Number.isNaN(v)) nan.bits = BigInt(r.view.getUint32(a - r.base, true));
            return v;
          };
        return (a) => {
          const r = mem.readRegion(a, 8, L);
          const v = r.view.getFloat64(a - r.base, true);
          if (Number.isNaN(v)) nan.bits = r.view.getBigUint64(a - r.base, true);
          return v;
        };
      case 'ptr':
        if (this.ev.ptrSize === 8)
          return (a) => {
            const r = mem.readRegion(a, 8, L);
            return Number(r.view.getBigUint64(a - r.base, true));
          };
        return (a) => {
          const r = mem.readRegion(a, 4, L);
          return r.view.getUint32(a - r.base, true);
        };
    }
    return no(`a load of ${t.k}`);
  }

  /** A store of an already converted value of type `t` (region write hooks run). */
  private writer(t: CType, at: SrcLoc): (addr: number, v: Raw) => void {
    const mem = this.ev.mem;
    const L = this.loc(at);
    const n = this.ev.sizeOf(t);
    const put = ((): ((view: DataView, off: number, v: Raw) => void) => {
      switch (t.k) {
        case 'bool':
          return (view, off, v) => view.setUint8(off, v as number);
        case 'int':
        case 'enum': {
          const it = intOf(t);
          switch (it.bits) {
            case 8:
              return (view, off, v) => view.setUint8(off, (v as number) & 0xff);
            case 16:
              return (view, off, v) => view.setUint16(off, (v as number) & 0xffff, true);
            case 32:
              return (view, off, v) => view.setUint32(off, (v as number) >>> 0, true);
            case 64:
              return (view, off, v) => view.setBigUint64(off, BigInt.asUintN(64, v as bigint), true);
          }
          break;
        }
        case 'float':
          if (t.bits === 32)
            return (view, off, v) => {
              const x = v as number;
              if (Number.isNaN(x) && nan.bits !== undefined) view.setUint32(off, Number(nan.bits), true);
              else view.setFloat32(off, x, true);
            };
          return (view, off, v) => {
            const x = v as number;
            if (Number.isNaN(x) && nan.bits !== undefined) view.setBigUint64(off, nan.bits, true);
            else view.setFloat64(off, x, true);
          };
        case 'ptr':
          if (this.ev.ptrSize === 8) return (view, off, v) => view.setBigUint64(off, BigInt(v), true);
          return (view, off, v) => view.setUint32(off, (v as number) >>> 0, true);
      }
      return no(`a store of ${t.k}`);
    })();
    return (a, v) => {
      const r = mem.find(a, n, L);
      put(r.view, a - r.base, v);
      if (r.hooks?.write) mem.wrote(r, a, n);
    };
  }

  /** `slot = value` with value already of the slot's type; returns the value. */
  private storeTo(lv: CL & { kind: 'slot' }): (s: Slots, v: Raw) => Raw {
    const slot = lv.slot;
    if (lv.t.k === 'float')
      return (s, v) => {
        s[slot] = v;
        if (Number.isNaN(v)) s[slot + 1] = nan.bits as bigint;
        return v;
      };
    return (s, v) => {
      s[slot] = v;
      return v;
    };
  }

  private assign(e: Expr & { kind: 'assign' }): CE {
    if (e.b.kind === 'init') no('assignment of a braced list');
    const lv = this.lval(e.a);
    this.checkScalar(lv.t);
    const b = this.expr(e.b);
    const t = lv.t;
    const fb = b.f;
    if (lv.kind === 'slot') {
      const store = this.storeTo(lv);
      if (e.op === '=') {
        const cv = this.convert(b, t, e.at, false).f;
        return { t, f: (s) => store(s, cv(s)) };
      }
      const old = this.load(lv);
      const { t: rt, op } = this.binop(e.op.slice(0, -1), old, b, e.at, e.b.at);
      const back = this.convFn(rt, t, e.at);
      const fo = old.f;
      return {
        t,
        f: (s) => {
          const y = fb(s);
          return store(s, back(op(fo(s), y)));
        },
      };
    }
    // memory: the address first, then the value, then (op=) the old value
    const addr = lv.addr;
    const w = this.writer(t, lv.at);
    if (e.op === '=') {
      const cv = this.convFn(b.t, t, e.at);
      return {
        t,
        f: (s) => {
          const a = addr(s);
          const v = cv(fb(s));
          w(a, v);
          return v;
        },
      };
    }
    const rd = this.reader(t, lv.at);
    const { t: rt, op } = this.binop(e.op.slice(0, -1), { t, f: () => 0 }, b, e.at, e.b.at);
    const back = this.convFn(rt, t, e.at);
    return {
      t,
      f: (s) => {
        const a = addr(s);
        const y = fb(s);
        const v = back(op(rd(a), y));
        w(a, v);
        return v;
      },
    };
  }

  private incdec(lv: CL, d: 1 | -1, at: SrcLoc, post: boolean): CE {
    const t = lv.t;
    if (t.k === 'bool') no('++/-- on a bool');
    let next: (v: Raw) => Raw;
    if (t.k === 'float') {
      const single = t.bits === 32;
      next = (v) => {
        const w = single ? Math.fround((v as number) + d) : (v as number) + d;
        if (Number.isNaN(w)) nan.bits = undefined;
        return w;
      };
    } else if (t.k === 'ptr') {
      const es = this.ev.sizeOf(t.to) * d;
      next = (v) => (v as number) + es;
    } else if (isBig(t)) {
      const n = intNorm(t) as (v: bigint) => bigint;
      const dd = BigInt(d);
      next = (v) => n((v as bigint) + dd);
    } else {
      const n = intNorm(t) as (v: number) => number;
      next = (v) => n((v as number) + d);
    }
    if (lv.kind === 'slot') {
      const slot = lv.slot;
      if (t.k === 'float') {
        return {
          t,
          f: (s) => {
            const old = s[slot] as number;
            const payload = s[slot + 1] as bigint | undefined;
            const v = next(old);
            s[slot] = v;
            if (Number.isNaN(v)) s[slot + 1] = undefined as unknown as bigint;
            if (post && Number.isNaN(old)) nan.bits = payload;
            return post ? old : v;
          },
        };
      }
      return post
        ? {
            t,
            f: (s) => {
              const old = s[slot]!;
              s[slot] = next(old);
              return old;
            },
          }
        : {
            t,
            f: (s) => {
              const v = next(s[slot]!);
              s[slot] = v;
              return v;
            },
          };
    }
    const addr = lv.addr;
    const rd = this.reader(t, at);
    const w = this.writer(t, at);
    return {
      t,
      f: (s) => {
        const a = addr(s);
        const old = rd(a);
        const keep = nan.bits;
        const v = next(old);
        w(a, v);
        if (post && t.k === 'float' && Number.isNaN(old)) nan.bits = keep;
        return post ? old : v;
      },
    };
  }

  // ---- calls ----
  private call(e: Expr & { kind: 'call' }, discard: boolean): CE {
    const ev = this.ev;
    const fe = e.fn;
    if (fe.kind !== 'name') return no('a call of something other than a name');
    if (fe.parts.length === 1 && !fe.global && this.local(fe.parts[0]!.name)) no('a call through a local');
    if (fe.parts.some((p) => p.targs)) no('explicit template arguments');
    this.notGlobalObject(fe);
    let r: ReturnType<Evaluator['lookupName']>;
    try {
      r = ev.lookupName(fe, this.scope);
    } catch {
      return no('a callee the evaluator resolves when it runs');
    }
    const callee = r.v;
    if (r.lv || !callee) return no('a call through an object');
    const L = this.loc(e.at);
    const at = e.at;
    if (callee.k === 'builtin') return this.builtinCall(callee.name, e, discard);
    if (callee.k !== 'fn' || callee.self || callee.targs) return no(`a call of a ${callee.k}`);
    const f = this.pickFunction(callee.fns, e.args.length);
    // parameter types, in the callee's namespace
    const ps: CType[] = [];
    let rt: CType;
    ev.frames.push({ fn: f, ns: f.ns, retType: VOID, scope: ev.newScope() });
    try {
      for (const p of f.params) {
        if (p.type.kind === 'ref' || p.pack || p.type.kind === 'auto') no('a reference or deduced parameter');
        let t = ev.resolveType(p.type, ev.frames[ev.frames.length - 1]!.scope);
        if (t.k === 'array') t = { k: 'ptr', to: t.of };
        this.checkScalar(t);
        ps.push(t);
      }
      if (f.ret.kind === 'auto' || f.ret.kind === 'ref') no('a deduced or reference result');
      rt = ev.resolveType(f.ret, ev.frames[ev.frames.length - 1]!.scope);
      if (rt.k !== 'void') this.checkScalar(rt);
    } finally {
      ev.frames.pop();
    }
    const args = e.args.map((a, k) => this.convert(this.expr(a), ps[k]!, at, false));
    const argF = args.map((a) => a.f);
    const n = argF.length;
    const budget = ev.budget;
    const target = this.c.callee(f);
    if (target) {
      const paramSlots = target.paramSlots;
      // the depth the tree walker would have reached at this call (each call level adds it)
      const D = this.nest;
      const floats = ps.map((t) => t.k === 'float');
      const c = this.c;
      return {
        t: rt,
        f: (s) => {
          const cs = target.init.slice();
          for (let k = 0; k < n; k++) {
            const v = argF[k]!(s);
            const slot = paramSlots[k]!;
            cs[slot] = v;
            if (floats[k] && Number.isNaN(v)) cs[slot + 1] = nan.bits as bigint;
          }
          budget.step(1, L);
          ev.depth += D;
          try {
            if (ev.depth > budget.limits.depth) budget.depth(ev.depth, L);
            c.run(target, cs, at);
          } finally {
            ev.depth -= D;
          }
          if (rt.k === 'float') {
            const v = cs[0] as number;
            if (Number.isNaN(v)) nan.bits = cs[1] as bigint | undefined;
          }
          return cs[0]!;
        },
      };
    }
    // the tree walker runs it
    const fns = callee.fns;
    const name = callee.name;
    const exprs = e.args;
    return {
      t: rt,
      f: (s) => {
        const vals = [];
        for (let k = 0; k < n; k++) {
          const v = argF[k]!(s);
          vals.push({ v: box(ps[k]!, v, args[k]!.str, nan.bits), lv: undefined, e: exprs[k] });
        }
        const v = ev.callFunctions(fns, undefined, vals, undefined, at, name);
        return rt.k === 'void' ? 0 : unbox(v, rt);
      },
    };
  }

  /** The one function a call names (a declaration and its definition count as one). */
  private pickFunction(fns: FuncDecl[], nargs: number): FuncDecl {
    const defs = fns.filter((f) => f.body || f.bodyToks);
    if (defs.length !== 1) no('overloaded or undefined function');
    const f = defs[0]!;
    if (f.tparams?.length || f.specArgs || f.variadic || f.owner)
      no('a template, variadic or member function');
    if (f.params.length !== nargs) no('default arguments');
    for (const g of fns) {
      if (g === f) continue;
      if (g.tparams?.length || g.specArgs || g.variadic || g.params.length !== f.params.length)
        no('overloads');
      // a prototype: the same parameter types as written
      if (
        g.params.some(
          (p, k) => JSON.stringify(stripAt(p.type)) !== JSON.stringify(stripAt(f.params[k]!.type)),
        )
      )
        no('overloads');
    }
    return f;
  }

  private builtinCall(name: string, e: Expr & { kind: 'call' }, discard: boolean): CE {
    const ev = this.ev;
    const at = e.at;
    if (name.startsWith('numeric_limits::') || name === 'std::bit_cast') no('a library template');
    const lib = ev.libraryFunction(name);
    const args = e.args.map((a) => this.expr(a));
    const argF = args.map((a) => a.f);
    const n = args.length;
    const boxed = (s: Slots): Value[] => {
      const out: Value[] = [];
      for (let k = 0; k < n; k++) {
        const v = argF[k]!(s);
        out.push(box(args[k]!.t, v, args[k]!.str, nan.bits));
      }
      return out;
    };
    const L = this.loc(at);
    const guard = <T>(g: () => T): T => {
      try {
        return g();
      } catch (err) {
        if (err instanceof AxsimError && !err.location?.line) throw err.at(L);
        throw err;
      }
    };
    if (lib) {
      if (n < lib.min || n > lib.max) no('a library call with the wrong number of arguments');
      let rt: CType | undefined;
      if (name === '__builtin_expect') rt = args[0]!.t;
      if (!discard && !rt) no(`the value of ${name}`);
      const t = rt ?? VOID;
      return {
        t,
        f: (s) => {
          const vals = boxed(s);
          const v = guard(() => lib.f(ev, vals, at));
          return t.k === 'void' ? 0 : unbox(ev.convert(v, t, at, false), t);
        },
      };
    }
    const fn = ev.host.builtins?.get(name) ?? ev.host.builtinFor?.(name);
    if (!fn || !discard) no(`builtin ${name} in a value position`);
    const exprs = e.args;
    const end = e.end;
    const scope = this.scope;
    return {
      t: VOID,
      f: (s) => {
        const vals = boxed(s);
        ev.cur = at;
        guard(() => fn({ ev, name, args: vals, argExprs: exprs, targs: [], at, end, scope }));
        return 0;
      },
    };
  }
}

const EMPTY: Slots = [];

function compareOp(op: string): ((x: Raw, y: Raw) => boolean) | undefined {
  switch (op) {
    case '<':
      return (x, y) => x < y;
    case '>':
      return (x, y) => x > y;
    case '<=':
      return (x, y) => x <= y;
    case '>=':
      return (x, y) => x >= y;
    case '==':
      return (x, y) => x === y;
    case '!=':
      return (x, y) => x !== y;
  }
  return undefined;
}

function stripAt(t: unknown): unknown {
  if (Array.isArray(t)) return t.map(stripAt);
  if (t && typeof t === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(t)) if (k !== 'at') o[k] = stripAt(v);
    return o;
  }
  return typeof t === 'bigint' ? `${t}n` : t;
}

export type { FloatType };
