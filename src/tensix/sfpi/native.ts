/**
 * Native bodies for the hot members of axsim's SFPI vector classes (header.ts), so that a vector
 * operation costs one builtin call instead of a tree-walked C++ call chain (issue 12, compile speed).
 * The C++ text in header.ts stays the definition: each native here is chosen only for a function of
 * that text whose body is, token for token, the body written beside the native (`body`), and does what
 * that body does — the same `__sfpi_*` builtin calls with the same arguments in the same order, the
 * same field stores, the same result. Calls the body makes to other members (`*this + c`, `__set(o)`,
 * a conversion constructor) are followed by hand: each names the overload C++ picks for it. The
 * evaluator binds the parameters as for any call (Host.native, cfront/eval.ts), so conversions of the
 * arguments are the C++'s; functions without a native (and every call when natives are off) run the
 * C++. native.test.ts compiles the same SFPI code with and without natives and compares the words,
 * source lines and errors.
 */

import type { FuncDecl, TypeSyntax } from '../../cfront/ast.ts';
import type { Evaluator, NativeCall, NativeFn, Value } from '../../cfront/eval.ts';
import { lex } from '../../cfront/lex.ts';
import { F32 } from '../../cfront/types.ts';
import { NumArgs, type TracerApi } from './trace.ts';

/** The virtual include the LLK environment serves header.ts's text as. */
export const SFPI_HEADER_FILE = 'axsim_sfpi_vector.h';

let enabled = true;
/** Turns the natives off (tests compare both ways); returns the previous setting. */
export function setSfpiNatives(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** Calls the tracer's builtin `name` as the body's call would (its arguments as numbers): its int result. */
const B = (c: NativeCall, t: TracerApi, name: string, args: (number | string | Value)[]): number => {
  const r = t.get(name)!(new NumArgs(args, c.loc));
  return r?.k === 'int' ? Number(BigInt.asIntN(32, r.v)) : Number.NaN;
};
/** A scalar parameter's value as a 32-bit int (`static_cast<int>(x)` of an int or unsigned int). */
const i32 = (v: Value): number => (v.k === 'int' ? Number(BigInt.asIntN(32, v.v)) : Number.NaN);

// the builtins the bodies call, as the body calls them
const op = (c: NativeCall, t: TracerApi, name: string, ak: number, av: number, bk: number, bv: number) =>
  B(c, t, '__sfpi_op', [name, ak, av, bk, bv]);
const opi = (c: NativeCall, t: TracerApi, name: string, ak: number, av: number, imm: number) =>
  B(c, t, '__sfpi_opi', [name, ak, av, imm]);
const fimm = (c: NativeCall, t: TracerApi, f: Value) => B(c, t, '__sfpi_fimm', [f]);
const iimm = (c: NativeCall, t: TracerApi, i: number, signed: number) => B(c, t, '__sfpi_iimm', [i, signed]);
const assign = (c: NativeCall, t: TracerApi, name: string, ok: number, ov: number) =>
  B(c, t, name, [c.k(), c.v(), ok, ov]);
/** `static_cast<float>(d)` of a double parameter. */
const toF32 = (c: NativeCall, d: Value) => c.ev.convert(d, F32, c.f.at, true);
/** `-x` of a float or int value (cfront's unary minus). */
const neg = (c: NativeCall, x: Value) => c.ev.negate(x, c.f.at);

/** A native body: the call, and the tracer's builtins of the emitter running it. */
type Body = (c: NativeCall, t: TracerApi) => Value | undefined;

interface Native {
  /** The C++ body (with braces) this native mirrors, as header.ts writes it (macro arguments substituted). */
  body: string;
  fn: Body;
}

/** Natives by `Class::name(param types) const` (see `keyOf`). */
const NATIVES = new Map<string, Native>();
const def = (key: string, body: string, fn: Body) => NATIVES.set(key, { body, fn });

// ---- vFloat (tag 1) ----
/** `__set(o)` / `operator=(const vFloat o)`: the variable takes o's value; the result is *this. */
const setF = (c: NativeCall, t: TracerApi, ok: number, ov: number): Value => {
  const nv = assign(c, t, '__sfpi_assign', ok, ov);
  c.setV(nv);
  c.setK(1);
  return c.obj(1, nv);
};
def('vFloat::vFloat()', '{ k = 1; v = -1; }', (c, _t) => {
  c.setK(1);
  c.setV(-1);
  return undefined;
});
def('vFloat::vFloat(float)', '{ k = 1; v = __sfpi_fimm(f); }', (c, t) => {
  c.setK(1);
  c.setV(fimm(c, t, c.p(0)));
  return undefined;
});
def('vFloat::vFloat(double)', '{ k = 1; v = __sfpi_fimm(static_cast<float>(f)); }', (c, t) => {
  c.setK(1);
  c.setV(fimm(c, t, toF32(c, c.p(0))));
  return undefined;
});
def('vFloat::vFloat(__vDReg)', '{ k = 1; v = __sfpi_value(d.k, d.v); }', (c, t) => {
  c.setK(1);
  c.setV(B(c, t, '__sfpi_value', [c.pk(0), c.pv(0)]));
  return undefined;
});
def('vFloat::operator=(vFloat)', '{ v = __sfpi_assign(k, v, o.k, o.v); k = 1; return *this; }', (c, t) =>
  setF(c, t, c.pk(0), c.pv(0)),
);
def('vFloat::__set(vFloat)', '{ v = __sfpi_assign(k, v, o.k, o.v); k = 1; return *this; }', (c, t) =>
  setF(c, t, c.pk(0), c.pv(0)),
);
// vFloat o = f (vFloat(const float)); __set(o)
def('vFloat::operator=(float)', '{ vFloat o = f; return __set(o); }', (c, t) =>
  setF(c, t, 1, fimm(c, t, c.p(0))),
);
def('vFloat::operator=(double)', '{ vFloat o = f; return __set(o); }', (c, t) =>
  setF(c, t, 1, fimm(c, t, toF32(c, c.p(0)))),
);
def('vFloat::operator-() const', '{ vFloat r; r.v = __sfpi_op("neg", k, v, 0, -1); return r; }', (c, t) =>
  c.obj(1, op(c, t, 'neg', c.k(), c.v(), 0, -1)),
);
for (const [sym, name] of [
  ['+', 'add'],
  ['-', 'sub'],
  ['*', 'mul'],
] as const) {
  def(
    `vFloat::operator${sym}(vFloat) const`,
    `{ vFloat r; r.v = __sfpi_op("${name}", k, v, b.k, b.v); return r; }`,
    (c, t) => c.obj(1, op(c, t, name, c.k(), c.v(), c.pk(0), c.pv(0))),
  );
  // vFloat c = b (or -b); *this + c (or *): operator+(const vFloat) / operator*(const vFloat)
  if (sym === '-')
    def('vFloat::operator-(float) const', '{ vFloat c = -b; return *this + c; }', (c, t) => {
      const id = fimm(c, t, neg(c, c.p(0)));
      return c.obj(1, op(c, t, 'add', c.k(), c.v(), 1, id));
    });
  else
    def(`vFloat::operator${sym}(float) const`, `{ vFloat c = b; return *this ${sym} c; }`, (c, t) => {
      const id = fimm(c, t, c.p(0));
      return c.obj(1, op(c, t, name, c.k(), c.v(), 1, id));
    });
  // r = this op b; __set(r)
  def(
    `vFloat::operator${sym}=(vFloat)`,
    `{ vFloat r; r.v = __sfpi_op("${name}", k, v, b.k, b.v); return __set(r); }`,
    (c, t) => setF(c, t, 1, op(c, t, name, c.k(), c.v(), c.pk(0), c.pv(0))),
  );
  // vFloat c = b; *this op= c
  def(`vFloat::operator${sym}=(float)`, `{ vFloat c = b; return *this ${sym}= c; }`, (c, t) => {
    const id = fimm(c, t, c.p(0));
    return setF(c, t, 1, op(c, t, name, c.k(), c.v(), 1, id));
  });
}
for (const cmp of ['<', '<=', '>', '>=', '==', '!='] as const) {
  const name = { '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '==': 'eq', '!=': 'ne' }[cmp];
  def(
    `vFloat::operator${cmp}(vFloat) const`,
    `{ return __vCond{4, __sfpi_cmp("${name}", k, v, b.k, b.v)}; }`,
    (c, t) => c.obj(4, B(c, t, '__sfpi_cmp', [name, c.k(), c.v(), c.pk(0), c.pv(0)])),
  );
  def(
    `vFloat::operator${cmp}(float) const`,
    `{ return __vCond{4, __sfpi_cmpf("${name}", k, v, b)}; }`,
    (c, t) => c.obj(4, B(c, t, '__sfpi_cmpf', [name, c.k(), c.v(), c.p(0)])),
  );
  // __vDReg: vFloat a = *this (vFloat(const __vDReg)); a cmp b
  for (const [pt, bf] of [
    ['vFloat', '__sfpi_cmp'],
    ['float', '__sfpi_cmpf'],
  ] as const)
    def(`__vDReg::operator${cmp}(${pt}) const`, `{ vFloat a = *this; return a ${cmp} b; }`, (c, t) => {
      const a = B(c, t, '__sfpi_value', [c.k(), c.v()]);
      const b = pt === 'vFloat' ? [c.pk(0), c.pv(0)] : [c.p(0)];
      return c.obj(4, B(c, t, bf, [name, 1, a, ...b]));
    });
}

// ---- __vDReg (a dst_reg element: tag 2, v = its row) ----
const store = (c: NativeCall, t: TracerApi, ok: number, ov: number) => {
  B(c, t, '__sfpi_store', [c.v(), ok, ov]);
  return undefined;
};
def('__vDReg::operator=(__vAny) const', '{ __sfpi_store(v, o.k, o.v); }', (c, t) =>
  store(c, t, c.pk(0), c.pv(0)),
);
def('__vDReg::operator=(__vDReg) const', '{ __sfpi_store(v, o.k, o.v); }', (c, t) =>
  store(c, t, c.pk(0), c.pv(0)),
);
def('__vDReg::operator=(float) const', '{ vFloat o = f; __sfpi_store(v, o.k, o.v); }', (c, t) =>
  store(c, t, 1, fimm(c, t, c.p(0))),
);
def('__vDReg::operator=(double) const', '{ vFloat o = f; __sfpi_store(v, o.k, o.v); }', (c, t) =>
  store(c, t, 1, fimm(c, t, toF32(c, c.p(0)))),
);
def('__vDReg::operator=(int) const', '{ vInt o = i; __sfpi_store(v, o.k, o.v); }', (c, t) =>
  store(c, t, 5, iimm(c, t, i32(c.p(0)), 1)),
);
def('__vDReg::operator=(unsigned int) const', '{ vUInt o = i; __sfpi_store(v, o.k, o.v); }', (c, t) =>
  store(c, t, 5, iimm(c, t, i32(c.p(0)), 0)),
);
def('__vDReg::operator-() const', '{ vFloat r; r.v = __sfpi_op("neg", k, v, 0, -1); return r; }', (c, t) =>
  c.obj(1, op(c, t, 'neg', c.k(), c.v(), 0, -1)),
);
for (const [sym, name] of [
  ['+', 'add'],
  ['-', 'sub'],
  ['*', 'mul'],
] as const) {
  // vFloat a = *this (vFloat(const __vDReg)); a op b
  def(`__vDReg::operator${sym}(vFloat) const`, `{ vFloat a = *this; return a ${sym} b; }`, (c, t) => {
    const a = B(c, t, '__sfpi_value', [c.k(), c.v()]);
    return c.obj(1, op(c, t, name, 1, a, c.pk(0), c.pv(0)));
  });
  // ... a op b with a float b: vFloat::operator op(const float)
  def(`__vDReg::operator${sym}(float) const`, `{ vFloat a = *this; return a ${sym} b; }`, (c, t) => {
    const a = B(c, t, '__sfpi_value', [c.k(), c.v()]);
    const id = fimm(c, t, sym === '-' ? neg(c, c.p(0)) : c.p(0));
    return c.obj(1, op(c, t, sym === '-' ? 'add' : name, 1, a, 1, id));
  });
}

// ---- __vConstFloat (a constant register: tag 3) ----
// vFloat a = *this (vFloat(const __vDReg) from the {3, n} pair); a op b
for (const [sym, name] of [
  ['+', 'add'],
  ['-', 'sub'],
  ['*', 'mul'],
] as const)
  def(`__vConstFloat::operator${sym}(vFloat) const`, `{ vFloat a = *this; return a ${sym} b; }`, (c, t) => {
    const a = B(c, t, '__sfpi_value', [c.k(), c.v()]);
    return c.obj(1, op(c, t, name, 1, a, c.pk(0), c.pv(0)));
  });

// ---- vInt / vUInt (tag 5; header.ts __SFPI_INT_CLASS(T, SIGNED, IMMT)) ----
for (const [T, SIGNED, IMMT] of [
  ['vInt', 1, 'int'],
  ['vUInt', 0, 'unsigned int'],
] as const) {
  const setI = (c: NativeCall, t: TracerApi, ok: number, ov: number): Value => {
    const nv = assign(c, t, '__sfpi_iassign', ok, ov);
    c.setV(nv);
    c.setK(5);
    return c.obj(5, nv);
  };
  /** T x = i: T(const int) (signed immediate) / T(const unsigned int) */
  const fromInt = (c: NativeCall, t: TracerApi, i: Value, signed: number) => iimm(c, t, i32(i), signed);
  def(`${T}::${T}()`, '{ k = 5; v = -1; }', (c, _t) => {
    c.setK(5);
    c.setV(-1);
    return undefined;
  });
  def(`${T}::${T}(int)`, '{ k = 5; v = __sfpi_iimm(i, 1); }', (c, t) => {
    c.setK(5);
    c.setV(iimm(c, t, i32(c.p(0)), 1));
    return undefined;
  });
  def(`${T}::${T}(unsigned int)`, '{ k = 5; v = __sfpi_iimm(static_cast<int>(i), 0); }', (c, t) => {
    c.setK(5);
    c.setV(iimm(c, t, i32(c.p(0)), 0));
    return undefined;
  });
  def(`${T}::${T}(__vDReg)`, '{ k = 5; v = __sfpi_ivalue(d.k, d.v); }', (c, t) => {
    c.setK(5);
    c.setV(B(c, t, '__sfpi_ivalue', [c.pk(0), c.pv(0)]));
    return undefined;
  });
  def(`${T}::operator=(${T})`, '{ v = __sfpi_iassign(k, v, o.k, o.v); k = 5; return *this; }', (c, t) =>
    setI(c, t, c.pk(0), c.pv(0)),
  );
  def(`${T}::__set(${T})`, '{ v = __sfpi_iassign(k, v, o.k, o.v); k = 5; return *this; }', (c, t) =>
    setI(c, t, c.pk(0), c.pv(0)),
  );
  def(`${T}::operator=(int)`, `{ ${T} o = i; return __set(o); }`, (c, t) =>
    setI(c, t, 5, fromInt(c, t, c.p(0), 1)),
  );
  def(`${T}::operator=(unsigned int)`, `{ ${T} o = i; return __set(o); }`, (c, t) =>
    setI(c, t, 5, fromInt(c, t, c.p(0), 0)),
  );
  def(`${T}::__mk(int) const`, `{ ${T} r; r.v = id; return r; }`, (c, _t) => c.obj(5, i32(c.p(0))));
  // x + b: iadd with the operands in sfpi's order (b, this)
  const add = (c: NativeCall, t: TracerApi, bk: number, bv: number) => op(c, t, 'iadd', bk, bv, c.k(), c.v());
  const addImm = (c: NativeCall, t: TracerApi, b: number) => opi(c, t, 'iaddi', c.k(), c.v(), b);
  const subImm = (c: NativeCall, t: TracerApi, b: number) => opi(c, t, 'iaddi', c.k(), c.v(), -b | 0);
  def(`${T}::operator+(${T}) const`, '{ return __mk(__sfpi_op("iadd", b.k, b.v, k, v)); }', (c, t) =>
    c.obj(5, add(c, t, c.pk(0), c.pv(0))),
  );
  def(
    `${T}::operator+(${IMMT}) const`,
    '{ return __mk(__sfpi_opi("iaddi", k, v, static_cast<int>(b))); }',
    (c, t) => c.obj(5, addImm(c, t, i32(c.p(0)))),
  );
  def(`${T}::operator-(${T}) const`, '{ return __mk(__sfpi_op("isub", b.k, b.v, k, v)); }', (c, t) =>
    c.obj(5, op(c, t, 'isub', c.pk(0), c.pv(0), c.k(), c.v())),
  );
  def(
    `${T}::operator-(${IMMT}) const`,
    '{ return __mk(__sfpi_opi("iaddi", k, v, -static_cast<int>(b))); }',
    (c, t) => c.obj(5, subImm(c, t, i32(c.p(0)))),
  );
  // T z = 0 (T(const int)); z - *this (operator-(const T))
  def(`${T}::operator-() const`, `{ ${T} z = 0; return z - *this; }`, (c, t) => {
    const z = iimm(c, t, 0, 1);
    return c.obj(5, op(c, t, 'isub', c.k(), c.v(), 5, z));
  });
  def(`${T}::operator+=(${T})`, '{ return __set(__mk(__sfpi_op("iadd", k, v, b.k, b.v))); }', (c, t) =>
    setI(c, t, 5, op(c, t, 'iadd', c.k(), c.v(), c.pk(0), c.pv(0))),
  );
  def(`${T}::operator+=(${IMMT})`, '{ return __set(*this + b); }', (c, t) =>
    setI(c, t, 5, addImm(c, t, i32(c.p(0)))),
  );
  def(`${T}::operator-=(${T})`, '{ return __set(__mk(__sfpi_op("isub", b.k, b.v, k, v))); }', (c, t) =>
    setI(c, t, 5, op(c, t, 'isub', c.pk(0), c.pv(0), c.k(), c.v())),
  );
  def(`${T}::operator-=(${IMMT})`, '{ return __set(*this - b); }', (c, t) =>
    setI(c, t, 5, subImm(c, t, i32(c.p(0)))),
  );
  for (const [sym, name] of [
    ['&', 'and'],
    ['|', 'or'],
    ['^', 'xor'],
  ] as const) {
    const bit = (c: NativeCall, t: TracerApi, bk: number, bv: number) => op(c, t, name, c.k(), c.v(), bk, bv);
    def(
      `${T}::operator${sym}(${T}) const`,
      `{ return __mk(__sfpi_op("${name}", k, v, b.k, b.v)); }`,
      (c, t) => c.obj(5, bit(c, t, c.pk(0), c.pv(0))),
    );
    // T c = b (T(const int) / T(const unsigned int)); *this op c
    def(`${T}::operator${sym}(int) const`, `{ ${T} c = b; return *this ${sym} c; }`, (c, t) =>
      c.obj(5, bit(c, t, 5, fromInt(c, t, c.p(0), 1))),
    );
    def(`${T}::operator${sym}(unsigned int) const`, `{ ${T} c = b; return *this ${sym} c; }`, (c, t) =>
      c.obj(5, bit(c, t, 5, fromInt(c, t, c.p(0), 0))),
    );
    def(`${T}::operator${sym}=(${T})`, `{ return __set(*this ${sym} b); }`, (c, t) =>
      setI(c, t, 5, bit(c, t, c.pk(0), c.pv(0))),
    );
    def(`${T}::operator${sym}=(int)`, `{ return __set(*this ${sym} b); }`, (c, t) =>
      setI(c, t, 5, bit(c, t, 5, fromInt(c, t, c.p(0), 1))),
    );
    def(`${T}::operator${sym}=(unsigned int)`, `{ return __set(*this ${sym} b); }`, (c, t) =>
      setI(c, t, 5, bit(c, t, 5, fromInt(c, t, c.p(0), 0))),
    );
  }
  def(`${T}::operator~() const`, '{ return __mk(__sfpi_op("not", k, v, 0, -1)); }', (c, t) =>
    c.obj(5, op(c, t, 'not', c.k(), c.v(), 0, -1)),
  );
  def(`${T}::operator<<(int) const`, '{ return __mk(__sfpi_opi("shli", k, v, amt)); }', (c, t) =>
    c.obj(5, opi(c, t, 'shli', c.k(), c.v(), i32(c.p(0)))),
  );
  def(`${T}::operator<<=(int)`, '{ return __set(*this << amt); }', (c, t) =>
    setI(c, t, 5, opi(c, t, 'shli', c.k(), c.v(), i32(c.p(0)))),
  );
  const sr = SIGNED ? 'sari' : 'shli';
  def(
    `${T}::operator>>(int) const`,
    `{ return __mk(__sfpi_opi(${SIGNED} ? "sari" : "shli", k, v, -amt)); }`,
    (c, t) => c.obj(5, opi(c, t, sr, c.k(), c.v(), -i32(c.p(0)) | 0)),
  );
  def(`${T}::operator>>=(int)`, '{ return __set(*this >> amt); }', (c, t) =>
    setI(c, t, 5, opi(c, t, sr, c.k(), c.v(), -i32(c.p(0)) | 0)),
  );
  // x++ / x--: __set(*this + 1): operator+(const IMMT)
  def(`${T}::operator++(int)`, '{ return __set(*this + 1); }', (c, t) => setI(c, t, 5, addImm(c, t, 1)));
  def(`${T}::operator--(int)`, '{ return __set(*this - 1); }', (c, t) => setI(c, t, 5, subImm(c, t, 1)));
  for (const cmp of ['==', '!=', '<', '<=', '>', '>='] as const) {
    const name = { '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '==': 'eq', '!=': 'ne' }[cmp];
    def(
      `${T}::operator${cmp}(${T}) const`,
      `{ return __vCond{4, __sfpi_icmp("${name}", k, v, b.k, b.v)}; }`,
      (c, t) => c.obj(4, B(c, t, '__sfpi_icmp', [name, c.k(), c.v(), c.pk(0), c.pv(0)])),
    );
    def(
      `${T}::operator${cmp}(${IMMT}) const`,
      `{ return __vCond{4, __sfpi_icmpi("${name}", k, v, static_cast<int>(b))}; }`,
      (c, t) => c.obj(4, B(c, t, '__sfpi_icmpi', [name, c.k(), c.v(), i32(c.p(0))])),
    );
  }
}

// ---- free functions ----
def('::__sfpi_cond(__vCond)', '{ __sfpi_cc_cond(c.k, c.v); }', (c, t) => {
  B(c, t, '__sfpi_cc_cond', [c.pk(0), c.pv(0)]);
  return undefined;
});
def('::__sfpi_mk(int)', '{ vFloat r; r.v = id; return r; }', (c, _t) => c.obj(1, i32(c.p(0))));
def('::setsgn(vFloat,int)', '{ return __sfpi_mk(__sfpi_opi("setsgn", a.k, a.v, sgn)); }', (c, t) =>
  c.obj(1, opi(c, t, 'setsgn', c.pk(0), c.pv(0), i32(c.p(1)))),
);
def(
  '::setexp(vFloat,unsigned int)',
  '{ return __sfpi_mk(__sfpi_opi("setexp", a.k, a.v, static_cast<int>(e))); }',
  (c, t) => c.obj(1, opi(c, t, 'setexp', c.pk(0), c.pv(0), i32(c.p(1)))),
);
def('::addexp(vFloat,int)', '{ return __sfpi_mk(__sfpi_opi("addexp", a.k, a.v, e)); }', (c, t) =>
  c.obj(1, opi(c, t, 'addexp', c.pk(0), c.pv(0), i32(c.p(1)))),
);
for (const name of ['exexp', 'exexp_nodebias', 'exman8', 'exman9'])
  def(`::${name}(vFloat)`, `{ vInt r; r.v = __sfpi_op("${name}", a.k, a.v, 0, -1); return r; }`, (c, t) =>
    c.obj(5, op(c, t, name, c.pk(0), c.pv(0), 0, -1)),
  );
for (const [fn, name, p] of [
  ['setsgn', 'setsgn_v', 's'],
  ['setexp', 'setexp_v', 'e'],
  ['setman', 'setman_v', 'm'],
] as const) {
  const pt = fn === 'setsgn' ? 'vFloat' : 'vInt';
  def(
    `::${fn}(vFloat,${pt})`,
    `{ return __sfpi_mk(__sfpi_op("${name}", a.k, a.v, ${p}.k, ${p}.v)); }`,
    (c, t) => c.obj(1, op(c, t, name, c.pk(0), c.pv(0), c.pk(1), c.pv(1))),
  );
}
/** setman(const vFloat a, const unsigned int m) */
const setmanImm = (c: NativeCall, t: TracerApi, m: number) => {
  if (m >>> 0 <= 0xfff) return c.obj(1, opi(c, t, 'setman', c.pk(0), c.pv(0), m | 0));
  const u = iimm(c, t, m | 0, 0); // vUInt t = m (vUInt(const unsigned int))
  return c.obj(1, op(c, t, 'setman_v', c.pk(0), c.pv(0), 5, u));
};
def(
  '::setman(vFloat,unsigned int)',
  '{ if (m <= 0xfff) return __sfpi_mk(__sfpi_opi("setman", a.k, a.v, static_cast<int>(m))); vUInt t = m; return __sfpi_mk(__sfpi_op("setman_v", a.k, a.v, t.k, t.v)); }',
  (c, t) => setmanImm(c, t, i32(c.p(0 + 1))),
);
// setman(a, static_cast<unsigned int>(m)): the unsigned overload
def('::setman(vFloat,int)', '{ return setman(a, static_cast<unsigned int>(m)); }', (c, t) =>
  setmanImm(c, t, i32(c.p(1))),
);
def(
  '::int32_to_float(vInt,int)',
  '{ return __sfpi_mk(__sfpi_opi("cast", a.k, a.v, round_mode ? 1 : 0)); }',
  (c, t) => c.obj(1, opi(c, t, 'cast', c.pk(0), c.pv(0), i32(c.p(1)) !== 0 ? 1 : 0)),
);
def(
  '::abs(__vAny)',
  '{ if (a.k == 5) { vFloat r; r.k = 5; r.v = __sfpi_op("iabs", a.k, a.v, 0, -1); return r; } return __sfpi_mk(__sfpi_op("fabs", a.k, a.v, 0, -1)); }',
  (c, t) =>
    c.pk(0) === 5
      ? c.obj(5, op(c, t, 'iabs', c.pk(0), c.pv(0), 0, -1))
      : c.obj(1, op(c, t, 'fabs', c.pk(0), c.pv(0), 0, -1)),
);

// ---- choosing a native ----
const spell = (t: TypeSyntax): string =>
  t.kind === 'builtin'
    ? t.name
    : t.kind === 'named' && t.parts.every((p) => !p.targs)
      ? t.parts.map((p) => p.name).join('::')
      : `?${t.kind}`;

/** `Class::name(param types)[ const]` of a function (the NATIVES key). */
export function keyOf(f: FuncDecl): string {
  return `${f.owner ? f.owner.name : ''}::${f.name}(${f.params.map((p) => spell(p.type)).join(',')})${f.isConst ? ' const' : ''}`;
}

const bodyTokens = new Map<string, string>();
function tokensOf(text: string): string {
  let t = bodyTokens.get(text);
  if (t === undefined) {
    t = lex(text, '<native>')
      .filter((x) => x.kind !== 'eof')
      .map((x) => x.text)
      .join(' ');
    bodyTokens.set(text, t);
  }
  return t;
}

/**
 * Host.native for the SFPI classes: the native of a function declared in header.ts's text (the virtual
 * include), when its body's tokens (after preprocessing, so no macro of the program changed them) are
 * the native's `body`.
 */
export function sfpiNative(f: FuncDecl, ev: Evaluator, api: TracerApi): NativeFn | undefined {
  if (!enabled || f.at.file !== SFPI_HEADER_FILE || !f.bodyToks) return undefined;
  const n = NATIVES.get(keyOf(f));
  if (!n) return undefined;
  // the body's tokens: `{` at start .. the matching `}` at end
  const toks = ev.parser.toks.slice(f.bodyToks.start, f.bodyToks.end + 1);
  if (toks.map((x) => x.text).join(' ') !== tokensOf(n.body)) return undefined;
  const fn = n.fn;
  return (c) => fn(c, api);
}

/** The natives' keys (for tests). */
export function nativeKeys(): string[] {
  return [...NATIVES.keys()];
}
