/**
 * The closure compiler of cfront ("decode once, execute many"): a function whose body stays in
 * plain scalar C — integer, floating-point and pointer locals that never have their address taken,
 * arithmetic, loads and stores through pointers, `if`/`for`/`while`/`do`, calls of other plain
 * functions and of host builtins in statement position — is translated once into a tree of
 * JavaScript closures over a slot array of numbers. Names are resolved to slots; types,
 * conversions and call targets are fixed when the function is compiled. Values are JavaScript
 * numbers: integers of at most 32 bits normalised to their type, 64-bit integers as two 32-bit
 * halves (the closure returns the low half and leaves the high half in `HI`), floats, and
 * pointers as addresses; so running compiled code allocates nothing per operation.
 *
 * It computes what the tree-walking evaluator (eval.ts) computes, with the same errors at the same
 * positions and the same budget charges (a step per statement and per call, a loop charge per
 * iteration, the depth limit); see docs/cfront.md "Compiled functions". Anything outside the
 * subset makes `get` return undefined and the evaluator runs the function as before, so the
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
import type { Evaluator, Frame, Scope, Unset, Value } from './eval.ts';
import { intToFloat } from './eval.ts';
import type { SrcLoc } from './lex.ts';
import {
  BOOL,
  type CType,
  charType,
  F32,
  F64,
  type IntType,
  intOf,
  isArithmetic,
  isInteger,
  type PtrType,
  sameType,
  VOID,
} from './types.ts';

/**
 * Slot 0..2: the return value (64-bit: low, high; float: value, NaN payload), then parameters and
 * locals (64-bit integers and floats take two slots, doubles three: value and payload halves).
 */
type Slots = number[];
type EFn = (s: Slots) => number;
type SFn = (s: Slots) => number;
/** A conversion of a raw value (`vh`: the high half of a 64-bit value). */
type Conv = (v: number, vh: number) => number;
/** A binary operator on raw operands already of its operand type. */
type Op = (x: number, xh: number, y: number, yh: number) => number;

/** The high half of the last 64-bit value a closure returned. */
let HI = 0;
/** The NaN payload of the last NaN an operation produced (undefined: JavaScript's NaN). */
const nan: { bits: bigint | undefined } = { bits: undefined };

const TWO32 = 4294967296;

/** Thrown while compiling: the function stays with the tree walker. */
class NotCompiled extends Error {}
function no(why: string): never {
  throw new NotCompiled(why);
}

interface CE {
  t: CType;
  f: EFn;
  /** The text of a string literal (kept on the pointer value builtins receive). */
  str?: string;
  /** Static: an integer constant (for `p == 0`). */
  konst?: bigint;
  /** An integer or pointer value read straight from this slot (64-bit: the high half in the next). */
  slot?: number;
}

/**
 * A local declared without an initialiser: slot `guard` is 0 until the local is first written, and
 * a read while it is 0 is the tree walker's uninitialised-read error (docs/cfront.md).
 */
interface Guard {
  guard: number;
  u: Unset;
}

type CL =
  | { kind: 'slot'; t: CType; slot: number; g?: Guard }
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
  init: Slots;
  /**
   * A slot array of a finished call, reused by the next (a local declared without an initialiser
   * is zeroed, and its guard slot cleared, where it is declared).
   */
  free: Slots | undefined;
  /** The frame pushed while running (reused when the function is not already running). */
  frame: Frame;
  active: number;
  paramSlots: number[];
  body: SFn;
  frameScope: Scope;
}

const is64 = (t: CType): boolean =>
  (t.k === 'int' && t.bits === 64) || (t.k === 'enum' && t.base.bits === 64);
const isSigned = (t: CType): boolean =>
  (t.k === 'int' && t.signed) || (t.k === 'enum' && t.base.signed) || t.k === 'float';
const slotsOf = (t: CType): number => (t.k === 'float' ? (t.bits === 32 ? 2 : 3) : is64(t) ? 2 : 1);

/** The halves of an exact integer-valued double in [-2^63, 2^64) (low half returned, high in HI). */
function split(r: number): number {
  const h = Math.floor(r / TWO32);
  HI = h >>> 0;
  return (r - h * TWO32) >>> 0;
}
function big(lo: number, hi: number, signed: boolean): bigint {
  const u = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
  return signed ? BigInt.asIntN(64, u) : u;
}
function fromBig(v: bigint): number {
  HI = Number(BigInt.asUintN(32, v >> 32n));
  return Number(BigInt.asUintN(32, v));
}
/** The value of a 64-bit integer as a double (rounded once, as Number(bigint)). */
const num64 = (lo: number, hi: number, signed: boolean): number => (signed ? hi | 0 : hi) * TWO32 + lo;

function add64(xl: number, xh: number, yl: number, yh: number): number {
  const l = xl + yl;
  HI = (xh + yh + (l > 0xffffffff ? 1 : 0)) >>> 0;
  return l >>> 0;
}
function sub64(xl: number, xh: number, yl: number, yh: number): number {
  const l = xl - yl;
  HI = (xh - yh - (l < 0 ? 1 : 0)) >>> 0;
  return l >>> 0;
}
function mul64(xl: number, xh: number, yl: number, yh: number): number {
  const a0 = xl & 0xffff;
  const a1 = xl >>> 16;
  const b0 = yl & 0xffff;
  const b1 = yl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const hi = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  HI = (hi + Math.imul(xl, yh) + Math.imul(xh, yl)) >>> 0;
  return ((mid & 0xffff) * 65536 + (p00 & 0xffff)) >>> 0;
}
function shl64(xl: number, xh: number, c: number): number {
  if (c === 0) {
    HI = xh;
    return xl;
  }
  if (c < 32) {
    HI = ((xh << c) | (xl >>> (32 - c))) >>> 0;
    return (xl << c) >>> 0;
  }
  HI = (xl << (c - 32)) >>> 0;
  return 0;
}
function shr64u(xl: number, xh: number, c: number): number {
  if (c === 0) {
    HI = xh;
    return xl;
  }
  if (c < 32) {
    HI = xh >>> c;
    return ((xl >>> c) | (xh << (32 - c))) >>> 0;
  }
  HI = 0;
  return xh >>> (c - 32);
}
function shr64s(xl: number, xh: number, c: number): number {
  if (c === 0) {
    HI = xh;
    return xl;
  }
  if (c < 32) {
    HI = ((xh | 0) >> c) >>> 0;
    return ((xl >>> c) | (xh << (32 - c))) >>> 0;
  }
  const r = ((xh | 0) >> (c - 32)) >>> 0;
  HI = ((xh | 0) >> 31) >>> 0;
  return r;
}

/** The NaN payload slots of a float variable (-1: none). */
function putNaN(s: Slots, slot: number, double: boolean): void {
  const b = nan.bits;
  if (b === undefined) s[slot + 1] = -1;
  else if (double) {
    s[slot + 1] = Number(b >> 32n);
    s[slot + 2] = Number(b & 0xffffffffn);
  } else s[slot + 1] = Number(b);
}
function getNaN(s: Slots, slot: number, double: boolean): void {
  const p = s[slot + 1]!;
  nan.bits = p < 0 ? undefined : double ? (BigInt(p) << 32n) | BigInt(s[slot + 2]!) : BigInt(p);
}

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
      init: [],
      free: undefined,
      frame: { fn: f, ns: f.ns, retType: VOID, scope: frameScope },
      active: 0,
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
      fn.frame.retType = fc.ret;
      for (const p of f.params) {
        if (p.pack || !p.name) no('unnamed or pack parameter');
        const t = fc.scalarType(p.type, true);
        fn.params.push(t);
        fn.paramSlots.push(fc.declare(p.name, t));
      }
      fn.body = fc.stmt(body);
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
      if (is64(t)) s[slot + 1] = HI;
      else if (t.k === 'float' && Number.isNaN(s[slot]!)) putNaN(s, slot, t.bits === 64);
    });
    this.run(fn, s, at);
    const rt = fn.ret;
    if (rt.k === 'void') return { k: 'void' };
    if (rt.k === 'float' && Number.isNaN(s[0]!)) getNaN(s, 0, rt.bits === 64);
    return box(rt, s[0]!, s[1]!);
  }

  /** Runs a compiled body with its argument slots filled: frames, call stack, stack pointer, errors. */
  run(fn: Fn, s: Slots, at: SrcLoc): void {
    const ev = this.ev;
    if (ev.frames.length >= ev.budget.limits.depth) ev.budget.depth(ev.frames.length + 1, ev.loc(at));
    const frame =
      fn.active === 0 ? fn.frame : { fn: fn.decl, ns: fn.decl.ns, retType: fn.ret, scope: fn.frameScope };
    frame.callAt = at;
    fn.active++;
    ev.frames.push(frame);
    ev.callStack.push(ev.cur.file ? ev.cur : at);
    const sp = ev.mem.sp;
    const cur = ev.cur;
    try {
      const sig = fn.body(s);
      if (sig !== RETURN && fn.ret.k !== 'void') {
        if (fn.decl.name === 'main') {
          s[0] = 0;
          s[1] = 0;
        } else ev.ub(`${fn.decl.name} ends without returning a value`, fn.decl.at);
      }
    } catch (e) {
      if (e instanceof AxsimError && !e.location?.line) throw e.at(ev.loc(ev.cur));
      throw e;
    } finally {
      fn.active--;
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

/** A Value already of type `t` as a raw number (64-bit: the low half, the high half in HI; NaN payload in nan.bits). */
function unbox(v: Value, t: CType): number {
  switch (v.k) {
    case 'int':
      if (is64(t)) return fromBig(v.v);
      return Number(v.v);
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

/** A raw value of type `t` as a Value (`hi`: the high half of a 64-bit value; a NaN takes nan.bits). */
function box(t: CType, r: number, hi: number, str?: string): Value {
  switch (t.k) {
    case 'int':
    case 'bool':
    case 'enum':
      return { k: 'int', t, v: is64(t) ? big(r, hi, isSigned(t)) : BigInt(r) };
    case 'float':
      if (Number.isNaN(r) && nan.bits !== undefined) return { k: 'float', t, v: r, nan: nan.bits };
      return { k: 'float', t, v: r };
    case 'ptr':
      return str === undefined ? { k: 'ptr', t, addr: r } : { k: 'ptr', t, addr: r, str };
    default:
      return { k: 'void' };
  }
}

/** Normalisation of a number to an integer type of at most 32 bits (two's complement). */
function intNorm(t: CType): (v: number) => number {
  if (t.k === 'bool') return (v) => (v !== 0 ? 1 : 0);
  const it = intOf(t as IntType);
  switch (it.bits) {
    case 32:
      return it.signed ? (v) => v | 0 : (v) => v >>> 0;
    case 16:
      return it.signed ? (v) => (v << 16) >> 16 : (v) => v & 0xffff;
    case 8:
      return it.signed ? (v) => (v << 24) >> 24 : (v) => v & 0xff;
  }
  return no(`${it.bits}-bit integers`);
}

class FnCompiler {
  readonly ret: CType;
  private nslots = 3;
  readonly slotInit: Slots = [0, 0, 0];
  private scopes: Map<string, { slot: number; t: CType; g?: Guard }>[] = [new Map()];
  /** The tree walker's nesting depth (blocks, expressions) at the point being compiled. */
  private nest = 0;

  constructor(
    private readonly c: Compiler,
    private readonly ev: Evaluator,
    private readonly f: FuncDecl,
    private readonly scope: Scope,
  ) {
    if (f.ret.kind === 'auto') no('deduced return type');
    const rt = ev.resolveType(f.ret, scope);
    if (rt.k !== 'void') this.checkScalar(rt);
    this.ret = rt;
  }

  private checkScalar(t: CType): void {
    if (t.k === 'int' && t.bits > 64) no('wide integers');
    if (t.k === 'float' && t.bits === 16) no('_Float16 (the tree walker runs it)');
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
    const n = slotsOf(t);
    this.nslots += n;
    for (let k = 0; k < n; k++) this.slotInit.push(0);
    this.scopes[this.scopes.length - 1]!.set(name, { slot, t });
    return slot;
  }

  private local(name: string): { slot: number; t: CType; g?: Guard } | undefined {
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
    const at = st.at;
    switch (st.kind) {
      case 'expr': {
        // `x;` reads nothing (as the tree walker)
        const x = st.e;
        const e =
          x.kind === 'name' && x.parts.length === 1 && !x.global && this.local(x.parts[0]!.name)
            ? () => 0
            : this.expr(st.e, true).f;
        return (s) => {
          ev.cur = at;
          ev.budget.step(1);
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
          if (init) {
            parts.push(this.storeSlot(slot, t, init, d.at));
            continue;
          }
          // indeterminate until written (the tree walker marks its bytes unwritten): a guard slot,
          // cleared here; the value slots are zeroed as the tree walker zeroes the bytes
          const guard = this.nslots++;
          this.slotInit.push(0);
          this.scopes[this.scopes.length - 1]!.get(d.name)!.g = { guard, u: { name: d.name, t, at: d.at } };
          if (t.k === 'float')
            parts.push((s) => {
              s[slot] = 0;
              s[slot + 1] = -1;
              s[guard] = 0;
            });
          else if (is64(t))
            parts.push((s) => {
              s[slot] = 0;
              s[slot + 1] = 0;
              s[guard] = 0;
            });
          else
            parts.push((s) => {
              s[slot] = 0;
              s[guard] = 0;
            });
        }
        return (s) => {
          ev.cur = at;
          ev.budget.step(1);
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
          ev.budget.step(1);
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
          ev.budget.step(1);
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
          ev.budget.step(1);
          if (init) init(s);
          for (;;) {
            if (c && !c(s)) break;
            ev.budget.loop(1, LA);
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
          ev.budget.step(1);
          for (;;) {
            if (!c(s)) break;
            ev.budget.loop(1, LA);
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
          ev.budget.step(1);
          for (;;) {
            ev.budget.loop(1, LA);
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
          ev.budget.step(1);
          return sig;
        };
      }
      case 'empty':
        return () => {
          ev.cur = at;
          ev.budget.step(1);
          return NORMAL;
        };
      case 'return': {
        const rt = this.ret;
        if (!st.e) {
          if (rt.k !== 'void') no('return without a value');
          return () => {
            ev.cur = at;
            ev.budget.step(1);
            return RETURN;
          };
        }
        if (st.e.kind === 'init') no('return of a braced list');
        const e = this.expr(st.e, rt.k === 'void');
        if (rt.k === 'void') {
          const f = e.f;
          return (s) => {
            ev.cur = at;
            ev.budget.step(1);
            f(s);
            return RETURN;
          };
        }
        const store = this.storeSlot(0, rt, e, st.e.at);
        return (s) => {
          ev.cur = at;
          ev.budget.step(1);
          store(s);
          return RETURN;
        };
      }
      default:
        return no(`statement ${st.kind}`);
    }
  }

  /** `slot = convert(e)` (64-bit: both halves; float: the NaN payload slots). */
  private storeSlot(slot: number, t: CType, e: CE, at: SrcLoc): (s: Slots) => void {
    const f = this.convert(e, t, at, false).f;
    if (t.k === 'float') {
      const double = t.bits === 64;
      return (s) => {
        const v = f(s);
        s[slot] = v;
        if (Number.isNaN(v)) putNaN(s, slot, double);
      };
    }
    if (is64(t))
      return (s) => {
        s[slot] = f(s);
        s[slot + 1] = HI;
      };
    return (s) => {
      s[slot] = f(s);
    };
  }

  private truth(e: CE): (s: Slots) => boolean {
    const f = e.f;
    const t = e.t;
    if (is64(t))
      return (s) => {
        const v = f(s);
        return v !== 0 || HI !== 0;
      };
    if (t.k === 'int' || t.k === 'bool' || t.k === 'enum' || t.k === 'float' || t.k === 'ptr')
      return (s) => f(s) !== 0;
    return no(`a ${t.k} condition`);
  }

  // ---- conversions ----
  /** C's conversion of `e` to `to` (as Evaluator.convert), fixed at compile time. */
  convert(e: CE, to: CType, at: SrcLoc, explicit: boolean): CE {
    if (to.k === 'void') return { t: VOID, f: e.f };
    const c = this.conv(e.t, to, at, explicit, e.konst);
    if (!c) {
      const keep = e.slot !== undefined && (isInteger(to) || to.k === 'ptr') && is64(to) === is64(e.t);
      return { t: to, f: e.f, str: e.str, konst: e.konst, slot: keep ? e.slot : undefined };
    }
    // an integer constant converted to an integer type: converted now, by the evaluator's rules
    if (e.konst !== undefined && isInteger(to)) {
      const v = this.ev.convert({ k: 'int', t: e.t as IntType, v: e.konst }, to, at, explicit);
      if (v.k === 'int') return this.constant(to, v.v);
    }
    const f = e.f;
    return {
      t: to,
      f: (s) => {
        const v = f(s);
        return c(v, HI);
      },
    };
  }

  /** A raw conversion between two types; null when the raw value stays as it is. */
  private conv(from: CType, to: CType, at: SrcLoc, explicit: boolean, konst?: bigint): Conv | null {
    const ev = this.ev;
    if (sameType(from, to)) return null;
    const fromInt = from.k === 'int' || from.k === 'bool' || from.k === 'enum';
    const f64 = is64(from);
    const fs = isSigned(from);
    switch (to.k) {
      case 'int':
      case 'bool':
      case 'enum': {
        if (fromInt) {
          if (to.k === 'bool')
            return f64 ? (v, vh) => (v !== 0 || vh !== 0 ? 1 : 0) : (v) => (v !== 0 ? 1 : 0);
          if (is64(to)) {
            if (f64) return null;
            return fs
              ? (v) => {
                  HI = v < 0 ? 0xffffffff : 0;
                  return v >>> 0;
                }
              : (v) => {
                  HI = 0;
                  return v;
                };
          }
          const n = intNorm(to);
          if (
            !f64 &&
            intOf(to as IntType).bits === 32 &&
            isSigned(to) === fs &&
            from.k === 'int' &&
            from.bits === 32
          )
            return null;
          return (v) => n(v);
        }
        if (from.k === 'float') {
          if (to.k === 'bool') return (v) => (v !== 0 ? 1 : 0);
          const it = intOf(to as IntType);
          const toT = to;
          const slow = (v: number): never => {
            ev.convert(box(from, v, 0), toT, at, explicit);
            throw internalError('a float to integer conversion did not fail');
          };
          if (it.bits <= 32) {
            const lo = it.signed ? -(2 ** (it.bits - 1)) : 0;
            const hi = it.signed ? 2 ** (it.bits - 1) - 1 : 2 ** it.bits - 1;
            return (v) => {
              const tr = Math.trunc(v);
              if (!(tr >= lo && tr <= hi)) return slow(v);
              return tr === 0 ? 0 : tr;
            };
          }
          const lo = it.signed ? -(2 ** 63) : 0;
          const hi = it.signed ? 2 ** 63 : 2 ** 64;
          return (v) => {
            const tr = Math.trunc(v);
            if (!(tr >= lo && tr < hi)) return slow(v);
            return split(tr);
          };
        }
        if (from.k === 'ptr') {
          if (to.k === 'bool') return (v) => (v !== 0 ? 1 : 0);
          if (is64(to)) return (v) => split(v);
          const n = intNorm(to);
          return (v) => n(v % TWO32);
        }
        break;
      }
      case 'float': {
        if (from.k === 'float') {
          if (to.bits === 32)
            return (v) => {
              if (Number.isNaN(v)) {
                const p = nan.bits;
                if (p !== undefined)
                  nan.bits = ((p >> 32n) & 0x80000000n) | 0x7fc00000n | ((p >> 29n) & 0x3fffffn);
                return v;
              }
              return Math.fround(v);
            };
          return (v) => {
            if (Number.isNaN(v)) {
              const p = nan.bits;
              if (p !== undefined)
                nan.bits = ((p & 0x80000000n) << 32n) | 0x7ff8000000000000n | ((p & 0x3fffffn) << 29n);
            }
            return v;
          };
        }
        if (fromInt) {
          if (f64) {
            if (to.bits === 64) return (v, vh) => num64(v, vh, fs);
            return (v, vh) => {
              const x = num64(v, vh, fs);
              return Math.abs(x) < 2 ** 53 ? Math.fround(x) : intToFloat(big(v, vh, fs), 32);
            };
          }
          return to.bits === 32 ? (v) => Math.fround(v) : null;
        }
        break;
      }
      case 'ptr': {
        if (from.k === 'ptr') return null;
        if (fromInt) {
          if (!explicit) {
            if (konst === 0n) return () => 0;
            const toT = to;
            return (v, vh) => {
              if (v !== 0 || (f64 && vh !== 0)) ev.convert(box(from, v, vh), toT, at, false);
              return 0;
            };
          }
          if (f64) return (v, vh) => vh * TWO32 + v;
          if (ev.ptrSize === 4) return (v) => v >>> 0;
          return (v) => (v >= 0 ? v : TWO32 * TWO32 + v);
        }
        break;
      }
    }
    return no(`conversion from ${from.k} to ${to.k}`);
  }

  private promote(t: CType): CType {
    return this.ev.promote(t);
  }

  /** A raw 64-bit or 32-bit integer as a double (pointer offsets, shift counts). */
  private toNumber(t: CType): Conv {
    if (is64(t)) {
      const sg = isSigned(t);
      return (v, vh) => num64(v, vh, sg);
    }
    return (v) => v;
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

  private constant(t: CType, v: bigint): CE {
    if (is64(t)) {
      const lo = Number(BigInt.asUintN(32, v));
      const hi = Number(BigInt.asUintN(32, v >> 32n));
      return {
        t,
        konst: v,
        f: () => {
          HI = hi;
          return lo;
        },
      };
    }
    const n = Number(v);
    return { t, konst: v, f: () => n };
  }

  private exprInner(e: Expr, discard: boolean): CE {
    const ev = this.ev;
    switch (e.kind) {
      case 'int':
        return this.constant(ev.literalType(e), e.value);
      case 'float': {
        const v = e.value;
        return { t: e.single ? F32 : F64, f: () => v };
      }
      case 'bool':
        return this.constant(BOOL, e.value ? 1n : 0n);
      case 'char': {
        const c = ev.charLiteral(e) as { t: IntType; v: bigint };
        return this.constant(c.t, c.v);
      }
      case 'string': {
        let addr = -1;
        // the memory the address is in (a cached program runs again on a fresh memory)
        let where: unknown;
        const str = e.value;
        const scope = this.scope;
        return {
          t: { k: 'ptr', to: charType(ev.model) },
          str,
          f: () => {
            if (where !== ev.mem) {
              addr = (ev.eval(e, scope) as { addr: number }).addr;
              where = ev.mem;
            }
            return addr;
          },
        };
      }
      case 'name': {
        if (e.parts.length === 1 && !e.global) {
          const b = this.local(e.parts[0]!.name);
          if (b) return this.load({ kind: 'slot', t: b.t, slot: b.slot, g: b.g }, e.at);
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
        return this.constant(r.v.t, r.v.v);
      }
      case 'unary':
        return this.unary(e);
      case 'postfix':
        return this.incdec(this.lval(e.e), e.op === '++' ? 1 : -1, e.at, true);
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
          // `(void)x` reads nothing (as the tree walker: no lvalue-to-rvalue conversion)
          const x = e.e;
          if (x.kind === 'name' && x.parts.length === 1 && !x.global && this.local(x.parts[0]!.name))
            return { t: VOID, f: () => 0 };
          return { t: VOID, f: this.expr(e.e, true).f };
        }
        this.checkScalar(to);
        return this.convert(this.expr(e.e), to, e.at, true);
      }
      case 'sizeof': {
        if ((e as { pack?: boolean }).pack) no('sizeof...');
        let t: CType = e.type ? ev.resolveType(e.type, this.scope) : this.staticType(e.e!);
        if (t.k === 'ref') t = t.to;
        return this.constant(ev.sizeT, BigInt(e.align ? ev.alignOf(t) : ev.sizeOf(t)));
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

  private unary(e: Expr & { kind: 'unary' }): CE {
    switch (e.op) {
      case '*':
        return this.load(this.lval(e));
      case 'pre++':
      case 'pre--':
        return this.incdec(this.lval(e.e), e.op === 'pre++' ? 1 : -1, e.at, false);
      case '&':
        return no('address of');
    }
    const v = this.expr(e.e);
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
        if (a.konst !== undefined && isInteger(a.t))
          return this.constant(a.t, (this.ev.mkInt(a.t as IntType, -a.konst) as { v: bigint }).v);
        const f = a.f;
        if (a.t.k === 'float') {
          const sign = a.t.bits === 32 ? 0x80000000n : 1n << 63n;
          return {
            t: a.t,
            f: (s) => {
              const x = f(s);
              if (Number.isNaN(x)) {
                if (nan.bits !== undefined) nan.bits ^= sign;
                return x;
              }
              return -x;
            },
          };
        }
        if (is64(a.t))
          return {
            t: a.t,
            f: (s) => {
              const x = f(s);
              return sub64(0, 0, x, HI);
            },
          };
        const n = intNorm(a.t);
        return { t: a.t, f: (s) => n(-f(s)) };
      }
      case '~': {
        const a = this.arith(v, e.at);
        if (!isInteger(a.t)) no('~ on a non-integer');
        if (a.konst !== undefined)
          return this.constant(a.t, (this.ev.mkInt(a.t as IntType, ~a.konst) as { v: bigint }).v);
        const f = a.f;
        if (is64(a.t))
          return {
            t: a.t,
            f: (s) => {
              const x = f(s);
              HI = ~HI >>> 0;
              return ~x >>> 0;
            },
          };
        const n = intNorm(a.t);
        return { t: a.t, f: (s) => n(~f(s)) };
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
    const o = this.binop(op, a.t, b.t, e.at, e.b.at);
    const ca = this.convert(a, o.ta, e.at, false);
    const cb = this.convert(b, o.tb, e.b.at, false);
    const fa = ca.f;
    const fb = cb.f;
    const g = o.op;
    // integer constants: folded when both are (errors stay at run time), else held in the closure
    if (ca.konst !== undefined && cb.konst !== undefined && isInteger(o.t)) {
      try {
        const v = this.ev.binop(
          op,
          { k: 'int', t: a.t as IntType, v: a.konst! },
          { k: 'int', t: b.t as IntType, v: b.konst! },
          e.at,
          e.b.at,
        );
        if (v.k === 'int') return this.constant(o.t, v.v);
      } catch {
        // the operation fails when it runs
      }
    }
    const fast = this.fastBinary(op, o, ca, cb);
    if (fast) return fast;
    if (cb.konst !== undefined && o.tb.k !== 'ptr') {
      const y = fb(EMPTY);
      const yh = HI;
      return {
        t: o.t,
        f: (s) => {
          const x = fa(s);
          return g(x, HI, y, yh);
        },
      };
    }
    if (ca.konst !== undefined && o.ta.k !== 'ptr') {
      const x = fa(EMPTY);
      const xh = HI;
      return {
        t: o.t,
        f: (s) => {
          const y = fb(s);
          return g(x, xh, y, HI);
        },
      };
    }
    return {
      t: o.t,
      f: (s) => {
        const x = fa(s);
        const xh = HI;
        const y = fb(s);
        return g(x, xh, y, HI);
      },
    };
  }

  /**
   * Specialised closures for the common integer operators (the operation written into the closure,
   * operands read straight from a slot or held as a constant): the same results as `o.op`, with
   * fewer calls. Undefined when no specialisation applies.
   */
  private fastBinary(op: string, o: { ta: CType; tb: CType; t: CType }, ca: CE, cb: CE): CE | undefined {
    const t = o.t;
    // pointer + constant integer (a constant byte offset)
    if (o.ta.k === 'ptr' && isInteger(o.tb) && cb.konst !== undefined && (op === '+' || op === '-')) {
      const off = Number(cb.konst) * this.ev.sizeOf((o.ta as PtrType).to) * (op === '+' ? 1 : -1);
      if (!Number.isSafeInteger(off)) return undefined;
      const sa = ca.slot;
      if (sa !== undefined) return { t, f: (s) => s[sa]! + off };
      const fa = ca.f;
      return { t, f: (s) => fa(s) + off };
    }
    if (!isInteger(o.ta) || !isInteger(o.tb)) return undefined;
    const fa = ca.f;
    const fb = cb.f;
    const sa = ca.slot;
    const sb = cb.slot;
    const kb = cb.konst;
    if (is64(o.ta)) {
      if (op === '<<' || op === '>>') {
        if (kb === undefined || kb < 0n || kb > 63n) return undefined;
        const c = Number(kb);
        if (c === 0) return { t, f: fa, slot: sa };
        if (op === '<<') {
          if (c < 32)
            return {
              t,
              f: (s) => {
                const x = fa(s);
                HI = ((HI << c) | (x >>> (32 - c))) >>> 0;
                return (x << c) >>> 0;
              },
            };
          const d = c - 32;
          return {
            t,
            f: (s) => {
              HI = (fa(s) << d) >>> 0;
              return 0;
            },
          };
        }
        if (isSigned(o.ta)) return undefined;
        if (c < 32)
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const h = HI;
              HI = h >>> c;
              return ((x >>> c) | (h << (32 - c))) >>> 0;
            },
          };
        const d = c - 32;
        return {
          t,
          f: (s) => {
            fa(s);
            const r = HI >>> d;
            HI = 0;
            return r;
          },
        };
      }
      if (!is64(o.tb)) return undefined;
      if (kb !== undefined) {
        const y = Number(BigInt.asUintN(32, kb));
        const yh = Number(BigInt.asUintN(32, kb >> 32n));
        switch (op) {
          case '|':
            if (y === 0 && yh === 0) return { t, f: fa, slot: sa };
            if (sa !== undefined)
              return {
                t,
                f: (s) => {
                  HI = (s[sa + 1]! | yh) >>> 0;
                  return (s[sa]! | y) >>> 0;
                },
              };
            return {
              t,
              f: (s) => {
                const x = fa(s);
                HI = (HI | yh) >>> 0;
                return (x | y) >>> 0;
              },
            };
          case '&':
            if (sa !== undefined)
              return {
                t,
                f: (s) => {
                  HI = (s[sa + 1]! & yh) >>> 0;
                  return (s[sa]! & y) >>> 0;
                },
              };
            return {
              t,
              f: (s) => {
                const x = fa(s);
                HI = (HI & yh) >>> 0;
                return (x & y) >>> 0;
              },
            };
          case '^':
            return {
              t,
              f: (s) => {
                const x = fa(s);
                HI = (HI ^ yh) >>> 0;
                return (x ^ y) >>> 0;
              },
            };
          case '+':
            return {
              t,
              f: (s) => {
                const x = fa(s);
                return add64(x, HI, y, yh);
              },
            };
          case '-':
            return {
              t,
              f: (s) => {
                const x = fa(s);
                return sub64(x, HI, y, yh);
              },
            };
          case '*':
            return {
              t,
              f: (s) => {
                const x = fa(s);
                return mul64(x, HI, y, yh);
              },
            };
        }
        return undefined;
      }
      if (sb !== undefined)
        switch (op) {
          case '|':
            return {
              t,
              f: (s) => {
                const x = fa(s);
                HI = (HI | s[sb + 1]!) >>> 0;
                return (x | s[sb]!) >>> 0;
              },
            };
          case '&':
            return {
              t,
              f: (s) => {
                const x = fa(s);
                HI = (HI & s[sb + 1]!) >>> 0;
                return (x & s[sb]!) >>> 0;
              },
            };
        }
      switch (op) {
        case '|':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              HI = (xh | HI) >>> 0;
              return (x | y) >>> 0;
            },
          };
        case '&':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              HI = (xh & HI) >>> 0;
              return (x & y) >>> 0;
            },
          };
        case '^':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              HI = (xh ^ HI) >>> 0;
              return (x ^ y) >>> 0;
            },
          };
        case '+':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              return add64(x, xh, y, HI);
            },
          };
        case '-':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              return sub64(x, xh, y, HI);
            },
          };
        case '*':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              return mul64(x, xh, y, HI);
            },
          };
        case '==':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              return x === y && xh === HI ? 1 : 0;
            },
          };
        case '!=':
          return {
            t,
            f: (s) => {
              const x = fa(s);
              const xh = HI;
              const y = fb(s);
              return x !== y || xh !== HI ? 1 : 0;
            },
          };
      }
      return undefined;
    }
    // integers of at most 32 bits (already promoted: int or unsigned int, or bool for comparisons)
    if (o.ta.k === 'bool' || is64(o.tb) || intOf(o.ta as IntType).bits !== 32) return undefined;
    const signed = isSigned(o.ta);
    if (op === '<<' || op === '>>') {
      if (kb === undefined || kb < 0n || kb > 31n) return undefined;
      const c = Number(kb);
      if (op === '<<') return signed ? { t, f: (s) => fa(s) << c } : { t, f: (s) => (fa(s) << c) >>> 0 };
      return signed ? { t, f: (s) => fa(s) >> c } : { t, f: (s) => fa(s) >>> c };
    }
    if (kb !== undefined) {
      const y = Number(kb);
      if (sa !== undefined)
        switch (op) {
          case '<':
            return { t, f: (s) => (s[sa]! < y ? 1 : 0) };
          case '==':
            return { t, f: (s) => (s[sa]! === y ? 1 : 0) };
          case '!=':
            return { t, f: (s) => (s[sa]! !== y ? 1 : 0) };
          case '+':
            return signed ? { t, f: (s) => (s[sa]! + y) | 0 } : { t, f: (s) => (s[sa]! + y) >>> 0 };
          case '*':
            return signed
              ? { t, f: (s) => Math.imul(s[sa]!, y) }
              : { t, f: (s) => Math.imul(s[sa]!, y) >>> 0 };
        }
      switch (op) {
        case '+':
          return signed ? { t, f: (s) => (fa(s) + y) | 0 } : { t, f: (s) => (fa(s) + y) >>> 0 };
        case '-':
          return signed ? { t, f: (s) => (fa(s) - y) | 0 } : { t, f: (s) => (fa(s) - y) >>> 0 };
        case '*':
          return signed ? { t, f: (s) => Math.imul(fa(s), y) } : { t, f: (s) => Math.imul(fa(s), y) >>> 0 };
        case '&':
          return signed ? { t, f: (s) => fa(s) & y } : { t, f: (s) => (fa(s) & y) >>> 0 };
        case '|':
          return signed ? { t, f: (s) => fa(s) | y } : { t, f: (s) => (fa(s) | y) >>> 0 };
        case '<':
          return { t, f: (s) => (fa(s) < y ? 1 : 0) };
        case '==':
          return { t, f: (s) => (fa(s) === y ? 1 : 0) };
        case '!=':
          return { t, f: (s) => (fa(s) !== y ? 1 : 0) };
      }
      return undefined;
    }
    if (sa !== undefined && sb !== undefined)
      switch (op) {
        case '<':
          return { t, f: (s) => (s[sa]! < s[sb]! ? 1 : 0) };
        case '+':
          return signed ? { t, f: (s) => (s[sa]! + s[sb]!) | 0 } : { t, f: (s) => (s[sa]! + s[sb]!) >>> 0 };
      }
    if (sb !== undefined)
      switch (op) {
        case '+':
          return signed ? { t, f: (s) => (fa(s) + s[sb]!) | 0 } : { t, f: (s) => (fa(s) + s[sb]!) >>> 0 };
        case '*':
          return signed
            ? { t, f: (s) => Math.imul(fa(s), s[sb]!) }
            : { t, f: (s) => Math.imul(fa(s), s[sb]!) >>> 0 };
        case '<':
          return { t, f: (s) => (fa(s) < s[sb]! ? 1 : 0) };
      }
    switch (op) {
      case '+':
        return signed ? { t, f: (s) => (fa(s) + fb(s)) | 0 } : { t, f: (s) => (fa(s) + fb(s)) >>> 0 };
      case '-':
        return signed ? { t, f: (s) => (fa(s) - fb(s)) | 0 } : { t, f: (s) => (fa(s) - fb(s)) >>> 0 };
      case '*':
        return signed
          ? { t, f: (s) => Math.imul(fa(s), fb(s)) }
          : { t, f: (s) => Math.imul(fa(s), fb(s)) >>> 0 };
      case '&':
        return signed ? { t, f: (s) => fa(s) & fb(s) } : { t, f: (s) => (fa(s) & fb(s)) >>> 0 };
      case '|':
        return signed ? { t, f: (s) => fa(s) | fb(s) } : { t, f: (s) => (fa(s) | fb(s)) >>> 0 };
      case '<':
        return { t, f: (s) => (fa(s) < fb(s) ? 1 : 0) };
      case '==':
        return { t, f: (s) => (fa(s) === fb(s) ? 1 : 0) };
      case '!=':
        return { t, f: (s) => (fa(s) !== fb(s) ? 1 : 0) };
    }
    return undefined;
  }

  /**
   * The operator `op` on operands of types `ta` and `tb` (as Evaluator.binop): the types the
   * operands are converted to, the result type and the operation on converted raw operands.
   */
  private binop(
    op: string,
    ta: CType,
    tb: CType,
    at: SrcLoc,
    bAt: SrcLoc,
  ): { ta: CType; tb: CType; t: CType; op: Op } {
    const ev = this.ev;
    if (ta.k === 'ptr' || tb.k === 'ptr') return this.ptrOp(op, ta, tb, at);
    if (!isArithmetic(ta) || !isArithmetic(tb)) no(`operator${op} on ${ta.k} and ${tb.k}`);
    void bAt;
    if (op === '<<' || op === '>>') {
      const pa = this.promote(ta);
      const pb = this.promote(tb);
      if (!isInteger(pa) || !isInteger(pb)) no('shift of a non-integer');
      const bits = intOf(pa as IntType).bits;
      const signed = isSigned(pa);
      const cb64 = is64(pb);
      const sb = isSigned(pb);
      const bad = (c: number, ch: number): never =>
        ev.ub(
          `shift by ${cb64 ? big(c, ch, sb) : c} of a ${bits}-bit value`,
          at,
          'C++ [expr.shift]: the count must be in 0..width-1',
        );
      const count = cb64
        ? (c: number, ch: number) => {
            if (ch !== 0 || c >= bits) bad(c, ch);
            return c;
          }
        : (c: number, ch: number) => {
            if (c < 0 || c >= bits) bad(c, ch);
            return c;
          };
      let g: Op;
      if (is64(pa)) {
        if (op === '<<') g = (x, xh, y, yh) => shl64(x, xh, count(y, yh));
        else if (signed) g = (x, xh, y, yh) => shr64s(x, xh, count(y, yh));
        else g = (x, xh, y, yh) => shr64u(x, xh, count(y, yh));
      } else if (op === '<<')
        g = signed ? (x, _xh, y, yh) => x << count(y, yh) : (x, _xh, y, yh) => (x << count(y, yh)) >>> 0;
      else g = signed ? (x, _xh, y, yh) => x >> count(y, yh) : (x, _xh, y, yh) => x >>> count(y, yh);
      return { ta: pa, tb: pb, t: pa, op: g };
    }
    const t = ev.common(ta, tb);
    const cmp = compareOp(op, t);
    if (cmp) return { ta: t, tb: t, t: BOOL, op: cmp };
    if (t.k === 'float') {
      const single = t.bits === 32;
      const r = single
        ? (v: number) => {
            const w = Math.fround(v);
            if (Number.isNaN(w)) nan.bits = undefined;
            return w;
          }
        : (v: number) => {
            if (Number.isNaN(v)) nan.bits = undefined;
            return v;
          };
      let g: Op | undefined;
      switch (op) {
        case '+':
          g = (x, _xh, y) => r(x + y);
          break;
        case '-':
          g = (x, _xh, y) => r(x - y);
          break;
        case '*':
          g = (x, _xh, y) => r(x * y);
          break;
        case '/':
          g = (x, _xh, y) => r(x / y);
          break;
      }
      if (!g) return no(`operator${op} on floating-point values`);
      return { ta: t, tb: t, t, op: g };
    }
    const zero = () => ev.ub('division by zero', at);
    const signed = isSigned(t);
    let g: Op | undefined;
    if (is64(t)) {
      switch (op) {
        case '+':
          g = add64;
          break;
        case '-':
          g = sub64;
          break;
        case '*':
          g = mul64;
          break;
        case '/':
        case '%': {
          const div = op === '/';
          g = (x, xh, y, yh) => {
            if (y === 0 && yh === 0) zero();
            const p = big(x, xh, signed);
            const q = big(y, yh, signed);
            return fromBig(div ? p / q : p % q);
          };
          break;
        }
        case '&':
          g = (x, xh, y, yh) => {
            HI = (xh & yh) >>> 0;
            return (x & y) >>> 0;
          };
          break;
        case '|':
          g = (x, xh, y, yh) => {
            HI = (xh | yh) >>> 0;
            return (x | y) >>> 0;
          };
          break;
        case '^':
          g = (x, xh, y, yh) => {
            HI = (xh ^ yh) >>> 0;
            return (x ^ y) >>> 0;
          };
          break;
      }
    } else if (intOf(t as IntType).bits === 32) {
      if (signed)
        switch (op) {
          case '+':
            g = (x, _xh, y) => (x + y) | 0;
            break;
          case '-':
            g = (x, _xh, y) => (x - y) | 0;
            break;
          case '*':
            g = (x, _xh, y) => Math.imul(x, y);
            break;
          case '/':
            g = (x, _xh, y) => {
              if (y === 0) zero();
              return (x / y) | 0;
            };
            break;
          case '%':
            g = (x, _xh, y) => {
              if (y === 0) zero();
              return (x % y) | 0;
            };
            break;
          case '&':
            g = (x, _xh, y) => x & y;
            break;
          case '|':
            g = (x, _xh, y) => x | y;
            break;
          case '^':
            g = (x, _xh, y) => x ^ y;
            break;
        }
      else
        switch (op) {
          case '+':
            g = (x, _xh, y) => (x + y) >>> 0;
            break;
          case '-':
            g = (x, _xh, y) => (x - y) >>> 0;
            break;
          case '*':
            g = (x, _xh, y) => Math.imul(x, y) >>> 0;
            break;
          case '/':
            g = (x, _xh, y) => {
              if (y === 0) zero();
              return (x / y) >>> 0;
            };
            break;
          case '%':
            g = (x, _xh, y) => {
              if (y === 0) zero();
              return x % y;
            };
            break;
          case '&':
            g = (x, _xh, y) => (x & y) >>> 0;
            break;
          case '|':
            g = (x, _xh, y) => (x | y) >>> 0;
            break;
          case '^':
            g = (x, _xh, y) => (x ^ y) >>> 0;
            break;
        }
    }
    if (!g) return no(`operator${op} on ${t.k}`);
    return { ta: t, tb: t, t, op: g };
  }

  private ptrOp(op: string, ta: CType, tb: CType, at: SrcLoc): { ta: CType; tb: CType; t: CType; op: Op } {
    const ev = this.ev;
    if (ta.k === 'ptr' && tb.k === 'ptr') {
      if (op === '-') {
        const es = ev.sizeOf(ta.to) || 1;
        const t = ev.ptrdiffT;
        return {
          ta,
          tb,
          t,
          op: is64(t)
            ? (x, _xh, y) => split(Math.trunc((x - y) / es))
            : (x, _xh, y) => Math.trunc((x - y) / es) | 0,
        };
      }
      const cmp = compareOp(op, ta);
      if (cmp) return { ta, tb, t: BOOL, op: cmp };
      return no(`operator${op} on pointers`);
    }
    if (ta.k === 'ptr' && isInteger(tb) && (op === '+' || op === '-')) {
      const es = ev.sizeOf(ta.to) * (op === '+' ? 1 : -1);
      const n = this.toNumber(tb);
      return { ta, tb, t: ta, op: (x, _xh, y, yh) => x + n(y, yh) * es };
    }
    if (isInteger(ta) && tb.k === 'ptr' && op === '+') {
      const es = ev.sizeOf(tb.to);
      const n = this.toNumber(ta);
      return { ta, tb, t: tb, op: (x, xh, y) => y + n(x, xh) * es };
    }
    if (ta.k === 'ptr' && isInteger(tb) && (op === '==' || op === '!=')) {
      const eq = op === '==';
      return {
        ta,
        tb,
        t: BOOL,
        op: (x, _xh, y, yh) => {
          if (y !== 0 || (is64(tb) && yh !== 0)) ev.binop(op, box(ta, x, 0), box(tb, y, yh), at);
          return (x === 0) === eq ? 1 : 0;
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
          if (b) return { kind: 'slot', t: b.t, slot: b.slot, g: b.g };
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
            const a = f(s);
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
        if (to.k === 'void' || to.k === 'func') no('index of void* or a function pointer');
        this.checkScalar(to);
        const es = ev.sizeOf(to);
        const fb = base.f;
        const fi = idx.f;
        if (is64(idx.t)) {
          const sg = isSigned(idx.t);
          return {
            kind: 'mem',
            t: to,
            at: e.at,
            addr: (s) => {
              const b = fb(s);
              const i = fi(s);
              return b + num64(i, HI, sg) * es;
            },
          };
        }
        return { kind: 'mem', t: to, at: e.at, addr: (s) => fb(s) + fi(s) * es };
      }
    }
    return no(`an lvalue ${e.kind}`);
  }

  /** A read of `lv` (`at`: where, for the uninitialised-read error of a guarded local). */
  private load(lv: CL, at?: SrcLoc): CE {
    const t = lv.t;
    if (lv.kind === 'slot' && lv.g) {
      const f = this.load({ kind: 'slot', t, slot: lv.slot }).f;
      const { guard, u } = lv.g;
      const ev = this.ev;
      const L = at ? this.loc(at) : undefined;
      return {
        t,
        f: (s) => {
          if (s[guard] === 0) ev.uninitialisedRead(u, '', L ?? ev.loc(ev.cur));
          return f(s);
        },
      };
    }
    if (lv.kind === 'slot') {
      const slot = lv.slot;
      if (t.k === 'float') {
        const double = t.bits === 64;
        return {
          t,
          f: (s) => {
            const v = s[slot]!;
            if (Number.isNaN(v)) getNaN(s, slot, double);
            return v;
          },
        };
      }
      if (is64(t))
        return {
          t,
          slot,
          f: (s) => {
            HI = s[slot + 1]!;
            return s[slot]!;
          },
        };
      return { t, slot, f: (s) => s[slot]! };
    }
    const rd = this.reader(t, lv.at);
    const addr = lv.addr;
    return { t, f: (s) => rd(addr(s)) };
  }

  /** A load of type `t` from memory (region read hooks run, as Evaluator.load). */
  private reader(t: CType, at: SrcLoc): (addr: number) => number {
    const ev = this.ev;
    const L = this.loc(at);
    switch (t.k) {
      case 'bool':
        return (a) => {
          const r = ev.mem.readRegion(a, 1, L);
          return r.bytes[a - r.base] !== 0 ? 1 : 0;
        };
      case 'int':
      case 'enum': {
        const it = intOf(t);
        switch (it.bits) {
          case 8:
            return it.signed
              ? (a) => {
                  const r = ev.mem.readRegion(a, 1, L);
                  return r.view.getInt8(a - r.base);
                }
              : (a) => {
                  const r = ev.mem.readRegion(a, 1, L);
                  return r.bytes[a - r.base]!;
                };
          case 16:
            return it.signed
              ? (a) => {
                  const r = ev.mem.readRegion(a, 2, L);
                  return r.view.getInt16(a - r.base, true);
                }
              : (a) => {
                  const r = ev.mem.readRegion(a, 2, L);
                  return r.view.getUint16(a - r.base, true);
                };
          case 32:
            return it.signed
              ? (a) => {
                  const r = ev.mem.readRegion(a, 4, L);
                  return r.view.getInt32(a - r.base, true);
                }
              : (a) => {
                  const r = ev.mem.readRegion(a, 4, L);
                  return r.view.getUint32(a - r.base, true);
                };
          case 64:
            return (a) => {
              const r = ev.mem.readRegion(a, 8, L);
              const off = a - r.base;
              HI = r.view.getUint32(off + 4, true);
              return r.view.getUint32(off, true);
            };
        }
        break;
      }
      case 'float':
        if (t.bits === 32)
          return (a) => {
            const r = ev.mem.readRegion(a, 4, L);
            const v = r.view.getFloat32(a - r.base, true);
            if (Number.isNaN(v)) nan.bits = BigInt(r.view.getUint32(a - r.base, true));
            return v;
          };
        return (a) => {
          const r = ev.mem.readRegion(a, 8, L);
          const v = r.view.getFloat64(a - r.base, true);
          if (Number.isNaN(v)) nan.bits = r.view.getBigUint64(a - r.base, true);
          return v;
        };
      case 'ptr':
        if (this.ev.ptrSize === 8)
          return (a) => {
            const r = ev.mem.readRegion(a, 8, L);
            const off = a - r.base;
            return r.view.getUint32(off + 4, true) * TWO32 + r.view.getUint32(off, true);
          };
        return (a) => {
          const r = ev.mem.readRegion(a, 4, L);
          return r.view.getUint32(a - r.base, true);
        };
    }
    return no(`a load of ${t.k}`);
  }

  /** A store of a value already of type `t` (`vh`: high half of a 64-bit value; write hooks run). */
  private writer(t: CType, at: SrcLoc): (addr: number, v: number, vh: number) => void {
    const ev = this.ev;
    const L = this.loc(at);
    const n = this.ev.sizeOf(t);
    const put = ((): ((view: DataView, off: number, v: number, vh: number) => void) => {
      switch (t.k) {
        case 'bool':
          return (view, off, v) => view.setUint8(off, v);
        case 'int':
        case 'enum': {
          switch (intOf(t).bits) {
            case 8:
              return (view, off, v) => view.setUint8(off, v & 0xff);
            case 16:
              return (view, off, v) => view.setUint16(off, v & 0xffff, true);
            case 32:
              return (view, off, v) => view.setUint32(off, v >>> 0, true);
            case 64:
              return (view, off, v, vh) => {
                view.setUint32(off, v, true);
                view.setUint32(off + 4, vh, true);
              };
          }
          break;
        }
        case 'float':
          if (t.bits === 32)
            return (view, off, v) => {
              if (Number.isNaN(v) && nan.bits !== undefined) view.setUint32(off, Number(nan.bits), true);
              else view.setFloat32(off, v, true);
            };
          return (view, off, v) => {
            if (Number.isNaN(v) && nan.bits !== undefined) view.setBigUint64(off, nan.bits, true);
            else view.setFloat64(off, v, true);
          };
        case 'ptr':
          if (this.ev.ptrSize === 8)
            return (view, off, v) => {
              view.setUint32(off, v % TWO32, true);
              view.setUint32(off + 4, Math.floor(v / TWO32) % TWO32, true);
            };
          return (view, off, v) => view.setUint32(off, v >>> 0, true);
      }
      return no(`a store of ${t.k}`);
    })();
    return (a, v, vh) => {
      const r = ev.mem.find(a, n, L);
      put(r.view, a - r.base, v, vh);
      // write hooks, and the written-bytes shadow of a local not written before (memory.ts)
      if (r.hooks?.write || a < ev.mem.unsetTop) ev.mem.wrote(r, a, n);
    };
  }

  /** `slot = value` with a value already of the slot's type; returns the value. */
  private slotStore(lv: CL & { kind: 'slot' }): (s: Slots, v: number) => number {
    const slot = lv.slot;
    const t = lv.t;
    if (lv.g) {
      const st = this.slotStore({ kind: 'slot', t, slot });
      const guard = lv.g.guard;
      return (s, v) => {
        s[guard] = 1;
        return st(s, v);
      };
    }
    if (t.k === 'float') {
      const double = t.bits === 64;
      return (s, v) => {
        s[slot] = v;
        if (Number.isNaN(v)) putNaN(s, slot, double);
        return v;
      };
    }
    if (is64(t))
      return (s, v) => {
        s[slot] = v;
        s[slot + 1] = HI;
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
    const t = lv.t;
    const b = this.expr(e.b);
    const hiOut = is64(t);
    if (e.op === '=') {
      const fb = this.convert(b, t, e.at, false).f;
      if (lv.kind === 'slot') {
        const store = this.slotStore(lv);
        return { t, f: (s) => store(s, fb(s)) };
      }
      const addr = lv.addr;
      const w = this.writer(t, lv.at);
      return {
        t,
        f: (s) => {
          const a = addr(s);
          const v = fb(s);
          const vh = HI;
          w(a, v, vh);
          HI = vh;
          return v;
        },
      };
    }
    // x op= y: the object, then y, then the old value; the result converted back to x's type
    const o = this.binop(e.op.slice(0, -1), t, b.t, e.at, e.b.at);
    const ca = this.conv(t, o.ta, e.at, false);
    const fb = this.convert(b, o.tb, e.b.at, false).f;
    const back = this.conv(o.t, t, e.at, false);
    const g = o.op;
    const apply = (x: number, xh: number, y: number, yh: number): number => {
      if (ca) {
        x = ca(x, xh);
        xh = HI;
      }
      const r = g(x, xh, y, yh);
      return back ? back(r, HI) : r;
    };
    if (lv.kind === 'slot') {
      const store = this.slotStore(lv);
      const old = this.load(lv, e.at).f;
      return {
        t,
        f: (s) => {
          const y = fb(s);
          const yh = HI;
          const x = old(s);
          return store(s, apply(x, HI, y, yh));
        },
      };
    }
    const addr = lv.addr;
    const rd = this.reader(t, lv.at);
    const w = this.writer(t, lv.at);
    void hiOut;
    return {
      t,
      f: (s) => {
        const a = addr(s);
        const y = fb(s);
        const yh = HI;
        const x = rd(a);
        const v = apply(x, HI, y, yh);
        const vh = HI;
        w(a, v, vh);
        HI = vh;
        return v;
      },
    };
  }

  private incdec(lv: CL, d: 1 | -1, at: SrcLoc, post: boolean): CE {
    const t = lv.t;
    if (lv.kind === 'slot' && lv.g) {
      // reads first (the guard is set from then on)
      const f = this.incdec({ kind: 'slot', t, slot: lv.slot }, d, at, post).f;
      const { guard, u } = lv.g;
      const ev = this.ev;
      const L = this.loc(at);
      return {
        t,
        f: (s) => {
          if (s[guard] === 0) ev.uninitialisedRead(u, '', L);
          return f(s);
        },
      };
    }
    if (t.k === 'bool') no('++/-- on a bool');
    this.checkScalar(t);
    let next: Conv;
    if (t.k === 'float') {
      const single = t.bits === 32;
      next = (v) => {
        const w = single ? Math.fround(v + d) : v + d;
        if (Number.isNaN(w)) nan.bits = undefined;
        return w;
      };
    } else if (t.k === 'ptr') {
      const es = this.ev.sizeOf(t.to) * d;
      next = (v) => v + es;
    } else if (is64(t)) {
      const dl = d > 0 ? 1 : 0xffffffff;
      const dh = d > 0 ? 0 : 0xffffffff;
      next = (v, vh) => add64(v, vh, dl, dh);
    } else {
      const n = intNorm(t);
      next = (v) => n(v + d);
    }
    if (lv.kind === 'slot') {
      const slot = lv.slot;
      if (t.k === 'float') {
        const double = t.bits === 64;
        return {
          t,
          f: (s) => {
            const old = s[slot]!;
            if (Number.isNaN(old)) getNaN(s, slot, double);
            const keep = nan.bits;
            const v = next(old, 0);
            s[slot] = v;
            if (Number.isNaN(v)) putNaN(s, slot, double);
            if (post) {
              nan.bits = keep;
              return old;
            }
            return v;
          },
        };
      }
      if (is64(t))
        return {
          t,
          f: (s) => {
            const ol = s[slot]!;
            const oh = s[slot + 1]!;
            const v = next(ol, oh);
            s[slot] = v;
            s[slot + 1] = HI;
            if (post) {
              HI = oh;
              return ol;
            }
            return v;
          },
        };
      return post
        ? {
            t,
            f: (s) => {
              const old = s[slot]!;
              s[slot] = next(old, 0);
              return old;
            },
          }
        : {
            t,
            f: (s) => {
              const v = next(s[slot]!, 0);
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
        const oh = HI;
        const keep = nan.bits;
        const v = next(old, oh);
        const vh = HI;
        w(a, v, vh);
        if (post) {
          HI = oh;
          nan.bits = keep;
          return old;
        }
        HI = vh;
        return v;
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
    // parameter and result types, in the callee's namespace
    const ps: CType[] = [];
    let rt: CType;
    const cscope = ev.newScope();
    ev.frames.push({ fn: f, ns: f.ns, retType: VOID, scope: cscope });
    try {
      for (const p of f.params) {
        if (p.type.kind === 'ref' || p.pack || p.type.kind === 'auto') no('a reference or deduced parameter');
        let t = ev.resolveType(p.type, cscope);
        if (t.k === 'array') t = { k: 'ptr', to: t.of };
        this.checkScalar(t);
        ps.push(t);
      }
      if (f.ret.kind === 'auto' || f.ret.kind === 'ref') no('a deduced or reference result');
      rt = ev.resolveType(f.ret, cscope);
      if (rt.k !== 'void') this.checkScalar(rt);
    } finally {
      ev.frames.pop();
    }
    const args = e.args.map((a, k) => this.convert(this.expr(a), ps[k]!, at, false));
    const argF = args.map((a) => a.f);
    const n = argF.length;
    const target = this.c.callee(f);
    const inl = target ? this.inline(f, ps, rt, args, L, at) : undefined;
    if (inl) return inl;
    if (target) {
      const paramSlots = target.paramSlots;
      const kinds = ps.map((t) => (t.k === 'float' ? (t.bits === 64 ? 3 : 2) : is64(t) ? 1 : 0));
      const c = this.c;
      // the depth the tree walker would have reached at this call (each call level adds it)
      const D = this.nest;
      const rdouble = rt.k === 'float' && rt.bits === 64;
      return {
        t: rt,
        f: (s) => {
          let cs = target.free;
          if (cs) target.free = undefined;
          else cs = target.init.slice();
          for (let k = 0; k < n; k++) {
            const v = argF[k]!(s);
            const slot = paramSlots[k]!;
            cs[slot] = v;
            const kind = kinds[k]!;
            if (kind === 1) cs[slot + 1] = HI;
            else if (kind > 1 && Number.isNaN(v)) putNaN(cs, slot, kind === 3);
          }
          ev.budget.step(1, L);
          ev.depth += D;
          try {
            if (ev.depth > ev.budget.limits.depth) ev.budget.depth(ev.depth, L);
            c.run(target, cs, at);
          } finally {
            ev.depth -= D;
          }
          const v = cs[0]!;
          HI = cs[1]!;
          if (rt.k === 'float' && Number.isNaN(v)) getNaN(cs, 0, rdouble);
          target.free = cs;
          return v;
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
          vals.push({ v: box(ps[k]!, v, HI, args[k]!.str), lv: undefined, e: exprs[k] });
        }
        const v = ev.callFunctions(fns, undefined, vals, undefined, at, name);
        return rt.k === 'void' ? 0 : unbox(v, rt);
      },
    };
  }

  /**
   * A call of `{ return e; }` (a function of the same namespace whose result expression names only
   * its parameters and makes no calls), compiled into the caller: the parameters get slots of the
   * caller, and the call charges what a call charges (a step at the call, the depth checks, a step
   * for the body block and one for the return, each at its statement) without a frame of its own —
   * nothing in such a body can observe the frame stack.
   */
  private inline(
    f: FuncDecl,
    ps: CType[],
    rt: CType,
    args: CE[],
    L: ErrorLocation,
    at: SrcLoc,
  ): CE | undefined {
    if (rt.k === 'void' || f.ns.join('::') !== this.f.ns.join('::')) return undefined;
    const body = this.ev.parser.parseBody(f);
    if (body.kind !== 'block' || body.body.length !== 1) return undefined;
    const ret = body.body[0]!;
    if (ret.kind !== 'return' || !ret.e || ret.e.kind === 'init') return undefined;
    const names = new Set(f.params.map((p) => p.name!));
    if (!onlyNames(ret.e, names)) return undefined;
    const ev = this.ev;
    const saved = this.scopes;
    this.scopes = [new Map()];
    let e: CE;
    const slots: number[] = [];
    try {
      for (let k = 0; k < f.params.length; k++) slots.push(this.declare(f.params[k]!.name!, ps[k]!));
      e = this.convert(this.expr(ret.e), rt, ret.e.at, false);
    } catch (err) {
      if (err instanceof NotCompiled) return undefined;
      throw err;
    } finally {
      this.scopes = saved;
    }
    const argF = args.map((a) => a.f);
    const kinds = ps.map((t) => (t.k === 'float' ? (t.bits === 64 ? 3 : 2) : is64(t) ? 1 : 0));
    const n = argF.length;
    const D = this.nest;
    const blockAt = body.at;
    const retAt = ret.at;
    const fe = e.f;
    // constant arguments and a body that only computes: its value is computed now (the charges of
    // the call stay at run time; an operation that fails leaves it to run time)
    const folded =
      isInteger(rt) && args.every((a) => a.konst !== undefined) && pureExpr(ret.e)
        ? this.foldInline(argF, slots, kinds, fe)
        : undefined;
    if (folded) {
      const [lo, hi] = folded;
      return {
        t: rt,
        f: () => {
          ev.budget.step(1, L);
          const limit = ev.budget.limits.depth;
          if (ev.depth + D > limit) ev.budget.depth(ev.depth + D, L);
          if (ev.frames.length >= limit) ev.budget.depth(ev.frames.length + 1, ev.loc(at));
          const cur = ev.cur;
          try {
            ev.cur = blockAt;
            ev.budget.step(1);
            ev.cur = retAt;
            ev.budget.step(1);
          } finally {
            ev.cur = cur;
          }
          HI = hi;
          return lo;
        },
      };
    }
    return {
      t: rt,
      f: (s) => {
        for (let k = 0; k < n; k++) {
          const v = argF[k]!(s);
          const slot = slots[k]!;
          s[slot] = v;
          const kind = kinds[k]!;
          if (kind === 1) s[slot + 1] = HI;
          else if (kind > 1 && Number.isNaN(v)) putNaN(s, slot, kind === 3);
        }
        ev.budget.step(1, L);
        const limit = ev.budget.limits.depth;
        if (ev.depth + D > limit) ev.budget.depth(ev.depth + D, L);
        if (ev.frames.length >= limit) ev.budget.depth(ev.frames.length + 1, ev.loc(at));
        const cur = ev.cur;
        try {
          ev.cur = blockAt;
          ev.budget.step(1);
          ev.cur = retAt;
          ev.budget.step(1);
          return fe(s);
        } finally {
          ev.cur = cur;
        }
      },
    };
  }

  /** The value of an inlined pure body for constant arguments ([low, high]), or undefined when it fails. */
  private foldInline(argF: EFn[], slots: number[], kinds: number[], fe: EFn): [number, number] | undefined {
    const tmp: Slots = new Array(this.nslots).fill(0);
    try {
      for (let k = 0; k < argF.length; k++) {
        const v = argF[k]!(tmp);
        tmp[slots[k]!] = v;
        if (kinds[k] === 1) tmp[slots[k]! + 1] = HI;
      }
      const lo = fe(tmp);
      return [lo, HI];
    } catch {
      return undefined;
    }
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
        out.push(box(args[k]!.t, v, HI, args[k]!.str));
      }
      return out;
    };
    const L = this.loc(at);
    const located = (err: unknown): unknown =>
      err instanceof AxsimError && !err.location?.line ? err.at(L) : err;
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
          let v: Value;
          try {
            v = lib.f(ev, vals, at);
          } catch (err) {
            throw located(err);
          }
          return t.k === 'void' ? 0 : unbox(ev.convert(v, t, at, false), t);
        },
      };
    }
    const fn = ev.host.builtins?.get(name) ?? ev.host.builtinFor?.(name);
    if (!fn || !discard) no(`builtin ${name} in a value position`);
    const exprs = e.args;
    const end = e.end;
    const scope = this.scope;
    const halves = fn.halves;
    if (halves && args.every((a) => isInteger(a.t) || a.t.k === 'ptr')) {
      // integer and pointer arguments as 64-bit two's complement halves, without boxing
      const buf: number[] = new Array(2 * n).fill(0);
      const kinds = args.map((a) => (is64(a.t) ? 2 : a.t.k === 'ptr' ? 3 : isSigned(a.t) ? 1 : 0));
      return {
        t: VOID,
        f: (s) => {
          for (let k = 0; k < n; k++) {
            const v = argF[k]!(s);
            switch (kinds[k]) {
              case 0:
                buf[2 * k] = v;
                buf[2 * k + 1] = 0;
                break;
              case 1:
                buf[2 * k] = v >>> 0;
                buf[2 * k + 1] = v < 0 ? 0xffffffff : 0;
                break;
              case 2:
                buf[2 * k] = v;
                buf[2 * k + 1] = HI;
                break;
              default:
                buf[2 * k] = split(v);
                buf[2 * k + 1] = HI;
            }
          }
          ev.cur = at;
          try {
            halves(ev, at, buf);
          } catch (err) {
            throw located(err);
          }
          return 0;
        },
      };
    }
    return {
      t: VOID,
      f: (s) => {
        const vals = boxed(s);
        ev.cur = at;
        try {
          fn({ ev, name, args: vals, argExprs: exprs, targs: [], at, end, scope });
        } catch (err) {
          throw located(err);
        }
        return 0;
      },
    };
  }
}

const EMPTY: Slots = [];

function compareOp(op: string, t: CType): Op | undefined {
  if (is64(t)) {
    if (isSigned(t))
      switch (op) {
        case '<':
          return (x, xh, y, yh) => ((xh | 0) < (yh | 0) || (xh === yh && x < y) ? 1 : 0);
        case '>':
          return (x, xh, y, yh) => ((xh | 0) > (yh | 0) || (xh === yh && x > y) ? 1 : 0);
        case '<=':
          return (x, xh, y, yh) => ((xh | 0) < (yh | 0) || (xh === yh && x <= y) ? 1 : 0);
        case '>=':
          return (x, xh, y, yh) => ((xh | 0) > (yh | 0) || (xh === yh && x >= y) ? 1 : 0);
      }
    else
      switch (op) {
        case '<':
          return (x, xh, y, yh) => (xh < yh || (xh === yh && x < y) ? 1 : 0);
        case '>':
          return (x, xh, y, yh) => (xh > yh || (xh === yh && x > y) ? 1 : 0);
        case '<=':
          return (x, xh, y, yh) => (xh < yh || (xh === yh && x <= y) ? 1 : 0);
        case '>=':
          return (x, xh, y, yh) => (xh > yh || (xh === yh && x >= y) ? 1 : 0);
      }
    switch (op) {
      case '==':
        return (x, xh, y, yh) => (x === y && xh === yh ? 1 : 0);
      case '!=':
        return (x, xh, y, yh) => (x !== y || xh !== yh ? 1 : 0);
    }
    return undefined;
  }
  switch (op) {
    case '<':
      return (x, _xh, y) => (x < y ? 1 : 0);
    case '>':
      return (x, _xh, y) => (x > y ? 1 : 0);
    case '<=':
      return (x, _xh, y) => (x <= y ? 1 : 0);
    case '>=':
      return (x, _xh, y) => (x >= y ? 1 : 0);
    case '==':
      return (x, _xh, y) => (x === y ? 1 : 0);
    case '!=':
      return (x, _xh, y) => (x !== y ? 1 : 0);
  }
  return undefined;
}

/** Whether `e` makes no calls and names nothing but `names` (and literals, operators, casts). */
function onlyNames(e: Expr, names: ReadonlySet<string>): boolean {
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'bool':
    case 'char':
      return true;
    case 'name':
      return e.parts.length === 1 && !e.global && names.has(e.parts[0]!.name);
    case 'unary':
    case 'postfix':
      return onlyNames(e.e, names);
    case 'binary':
    case 'assign':
    case 'comma':
      return onlyNames(e.a, names) && onlyNames(e.b, names);
    case 'cond':
      return onlyNames(e.c, names) && onlyNames(e.a, names) && onlyNames(e.b, names);
    case 'cast':
      return e.type.kind === 'builtin' && onlyNames(e.e, names);
    case 'index':
      return onlyNames(e.e, names) && onlyNames(e.i, names);
    default:
      return false;
  }
}

/** Whether `e` only computes from its operands (no loads, stores, increments or calls). */
function pureExpr(e: Expr): boolean {
  switch (e.kind) {
    case 'int':
    case 'bool':
    case 'char':
    case 'name':
      return true;
    case 'unary':
      return e.op !== '*' && e.op !== '&' && e.op !== 'pre++' && e.op !== 'pre--' && pureExpr(e.e);
    case 'binary':
    case 'comma':
      return pureExpr(e.a) && pureExpr(e.b);
    case 'cond':
      return pureExpr(e.c) && pureExpr(e.a) && pureExpr(e.b);
    case 'cast':
      return e.type.kind === 'builtin' && pureExpr(e.e);
    default:
      return false;
  }
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
