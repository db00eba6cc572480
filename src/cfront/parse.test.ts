import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Budget } from '../budget.ts';
import { AxsimError } from '../errors.ts';
import type { Decl, Expr, FuncDecl, Stmt } from './ast.ts';
import { type ParseOptions, parse } from './parse.ts';
import { preprocess } from './preprocess.ts';
import { throwsAt } from './testkit.ts';

const P = (src: string, opts: ParseOptions = {}) => {
  const pp = preprocess(src, 'k.h');
  return parse(pp.tokens, 'k.h', { eagerBodies: true, ...opts });
};

const func = (decls: Decl[], name: string): FuncDecl => {
  for (const d of decls) {
    if (d.kind === 'func' && d.name === name) return d;
    if (d.kind === 'namespace') {
      try {
        return func(d.decls, name);
      } catch {}
    }
  }
  throw new Error(`no ${name}`);
};

/** A compact rendering of expressions for structural assertions. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'int':
      return String(e.value);
    case 'float':
      return `${e.value}${e.single ? 'f' : ''}`;
    case 'name':
      return e.parts
        .map(
          (p) =>
            p.name + (p.targs ? `<${p.targs.map((a) => ('expr' in a ? show(a.expr) : 'T')).join(',')}>` : ''),
        )
        .join('::');
    case 'binary':
      return `(${show(e.a)} ${e.op} ${show(e.b)})`;
    case 'unary':
      return `(${e.op}${show(e.e)})`;
    case 'cond':
      return `(${show(e.c)} ? ${show(e.a)} : ${show(e.b)})`;
    case 'call':
      return `${show(e.fn)}(${e.args.map(show).join(', ')})`;
    case 'cast':
      return `${e.how}_cast(${show(e.e)})`;
    case 'member':
      return `${show(e.e)}${e.arrow ? '->' : '.'}${e.name}`;
    case 'init':
      return `{${e.items.map((i) => (i.designator ? `.${i.designator.map((d) => ('field' in d ? d.field : '[]')).join('.')}=` : '') + show(i.value)).join(', ')}}`;
    case 'assign':
      return `${show(e.a)} ${e.op} ${show(e.b)}`;
    case 'index':
      return `${show(e.e)}[${show(e.i)}]`;
    case 'postfix':
      return `${show(e.e)}${e.op}`;
    default:
      return e.kind;
  }
}
const exprOf = (s: Stmt): Expr => {
  assert.equal(s.kind, 'expr');
  return (s as Stmt & { kind: 'expr' }).e;
};

describe('parse: declarations', () => {
  it('reads namespaces, enums, enum classes, structs with methods, templates and specialisations', () => {
    const { tu } = P(`
namespace ckernel { namespace sfpu {
enum class Fmt : std::uint8_t { A, B = 4 };
enum { X = 1 << 2, Y };
struct S { int a = 1; static constexpr int K = 3; int get() const { return a + K; } S() = default; };
union U { float f; unsigned u; };
template <bool APPROX, int ITERATIONS = 8, typename T = float>
inline void calc(const int n, T *p, int &r, int def = 3) { }
template <>
inline void calc<true, 4>(const int n, float *p, int &r, int def) { }
void fwd(int);
} }`);
    const ns = tu.decls[0]!;
    assert.equal(ns.kind, 'namespace');
    const inner = (ns as { decls: Decl[] }).decls[0] as { kind: string; decls: Decl[] };
    const kinds = inner.decls.map((d) => d.kind);
    assert.deepEqual(kinds, ['enum', 'enum', 'record', 'record', 'func', 'func', 'func']);
    const en = inner.decls[0] as Decl & { kind: 'enum' };
    assert.equal(en.scoped, true);
    assert.deepEqual(
      en.values.map((v) => v.name),
      ['A', 'B'],
    );
    const calc = inner.decls[4] as FuncDecl;
    assert.deepEqual(
      calc.tparams!.map((p) => [p.name, p.isType]),
      [
        ['APPROX', false],
        ['ITERATIONS', false],
        ['T', true],
      ],
    );
    assert.deepEqual(
      calc.params.map((p) => p.name),
      ['n', 'p', 'r', 'def'],
    );
    assert.equal(calc.params[2]!.type.kind, 'ref');
    assert.equal(calc.params[1]!.type.kind, 'ptr');
    const spec = inner.decls[5] as FuncDecl;
    assert.equal(spec.tparams!.length, 0);
    assert.equal(spec.specArgs!.length, 2);
    const fwd = inner.decls[6] as FuncDecl;
    assert.equal(fwd.bodyToks, undefined);
  });

  it('refuses the attributes that change a layout or a type, at the attribute', () => {
    throwsAt(
      () => P('struct S { char c; int i; } __attribute__((packed));'),
      1,
      44,
      /attribute 'packed'/,
      'Unsupported',
    );
    throwsAt(
      () => P('struct [[gnu::packed]] S { char c; int i; };'),
      1,
      15,
      /attribute 'packed'/,
      'Unsupported',
    );
    throwsAt(
      () => P('float v4 __attribute__((always_inline, __vector_size__(16)));'),
      1,
      40,
      /attribute '__vector_size__'/,
      'Unsupported',
    );
    throwsAt(
      () => P('int x __attribute__((aligned));'),
      1,
      22,
      /'aligned' without an alignment/,
      'Unsupported',
    );
    // the ones that do not change what a program computes still parse
    P(
      '[[nodiscard, gnu::always_inline]] static inline int f() __attribute__((unused, noinline)) { return 1; }',
    );
  });

  it('skips attributes and access specifiers, reads typedef and using', () => {
    const { tu } = P(`
[[gnu::always_inline]] inline void f() __attribute__((noinline)) {}
typedef unsigned int uint;
using u32 = std::uint32_t;
using namespace ckernel;
class C { public: int x; private: int y; };`);
    assert.deepEqual(
      tu.decls.map((d) => d.kind),
      ['func', 'alias', 'alias', 'using-ns', 'record'],
    );
    const c = tu.decls[4] as Decl & { kind: 'record' };
    assert.deepEqual(
      c.members.map((m) => (m as { name?: string }).name),
      ['x', 'y'],
    );
  });

  it('keeps function bodies for later, so an unsupported body stops only its own function', () => {
    const pp = preprocess('void bad() { goto x; }\nvoid good() { return; }', 'k.h');
    const { tu, parser } = parse(pp.tokens, 'k.h');
    assert.equal(parser.parseBody(func(tu.decls, 'good')).kind, 'block');
    throwsAt(() => parser.parseBody(func(tu.decls, 'bad')), 1, 14, 'unsupported C++: goto', 'Unsupported');
  });
});

describe('parse: statements and expressions', () => {
  const body = (src: string) => {
    const { tu } = P(`void f() { ${src} }`);
    return (func(tu.decls, 'f').body as Stmt & { kind: 'block' }).body;
  };
  it('gives C precedence and associativity', () => {
    assert.equal(
      show(exprOf(body('a = b + c * d - e << 2 | f & g;')[0]!)),
      'a = ((((b + (c * d)) - e) << 2) | (f & g))',
    );
    assert.equal(show(exprOf(body('x = a ? b : c ? d : e;')[0]!)), 'x = (a ? b : (c ? d : e))');
    assert.equal(show(exprOf(body('x = -~!a++;')[0]!)), 'x = (-(~(!a++)))');
  });
  it('reads casts, sizeof, designated initialisers and member calls', () => {
    const s = body(`
x = (unsigned)y + static_cast<int>(z) + reinterpret_cast<float*>(p)[0];
y = __builtin_bit_cast(float, 0x3f800000u);
addr_mod_t{.srca = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_7);
n = sizeof(int) + sizeof x;`);
    assert.equal(show(exprOf(s[0]!)), 'x = ((c_cast(y) + static_cast(z)) + reinterpret_cast(p)[0])');
    assert.equal(show(exprOf(s[1]!)), 'y = bit_cast(1065353216)');
    assert.equal(show(exprOf(s[2]!)), '{.srca={.incr=0}, .dest={.incr=2}}.set(ADDR_MOD_7)');
    assert.equal(exprOf(s[3]!).kind, 'assign');
  });
  it('tells template arguments from comparisons', () => {
    const { tu } = P(`template <int N> int g() { return N; }
void f() { x = g<3>() + (a < b) + (c > d); y = a < b && c > d; }`);
    const s = (func(tu.decls, 'f').body as Stmt & { kind: 'block' }).body;
    assert.equal(show(exprOf(s[0]!)), 'x = ((g<3>() + (a < b)) + (c > d))');
    assert.equal(show(exprOf(s[1]!)), 'y = ((a < b) && (c > d))');
  });
  it('reads every statement form', () => {
    const s = body(`
for (int i = 0; i < 8; i++) { if constexpr (A) continue; else break; }
while (n--) {}
do { n++; } while (n < 3);
switch (m) { case 1: case 2: r = 1; break; default: r = 0; }
if (not APPROXIMATION_MODE) { return; }
int a[4] = {1, 2}, *p = a;
auto l = [&]() { TTI_SFPNOP; };
`);
    assert.deepEqual(
      s.map((x) => x.kind),
      ['for', 'while', 'do', 'switch', 'if', 'decl', 'decl'],
    );
  });
  it('reads float literals exactly, hex floats too', () => {
    const s = body('a = 1e-45F; b = 0x1.8p3f; c = 0.1;');
    const vals = s.map((x) => (exprOf(x) as Expr & { kind: 'assign' }).b as Expr & { kind: 'float' });
    assert.equal(vals[0]!.value, 2 ** -149);
    assert.equal(vals[1]!.value, 12);
    assert.equal(vals[2]!.value, 0.1);
    assert.equal(vals[0]!.single, true);
    assert.equal(vals[2]!.single, false);
  });
});

describe('parse: errors and limits', () => {
  it('names unsupported C++ with its position', () => {
    throwsAt(
      () => P('void f() {\n  try { } catch (...) {}\n}'),
      2,
      3,
      'unsupported C++: exceptions (try)',
      'Unsupported',
    );
    throwsAt(
      () => P('void f() { int *p = new int; }'),
      1,
      21,
      'unsupported C++: dynamic memory (new)',
      'Unsupported',
    );
    throwsAt(
      () => P('void f() { asm volatile("nop"); }'),
      1,
      12,
      'unsupported C++: inline assembly',
      'Unsupported',
    );
  });
  it('reports syntax errors at the token', () => {
    throwsAt(() => P('void f() { x = (1 + 2; }'), 1, 22, "expected ')'");
    throwsAt(() => P('int x = 3'), 1, 10, "expected ';'");
  });
  it('stops deep nesting with a ResourceLimit error, not a stack overflow', () => {
    const deep = `void f() { x = ${'('.repeat(5000)}1${')'.repeat(5000)}; }`;
    assert.throws(
      () => P(deep, { budget: new Budget({ depth: 200 }) }),
      (e: unknown) =>
        e instanceof AxsimError && e.category === 'ResourceLimit' && /nesting depth/.test(e.message),
    );
    const blocks = `void f() ${'{'.repeat(3000)}${'}'.repeat(3000)}`;
    assert.throws(
      () => P(blocks),
      (e: unknown) => e instanceof AxsimError && e.category === 'ResourceLimit',
    );
  });
});

describe('parse: declarations that look like calls', () => {
  it('reads T x(a, 1) as a variable with constructor arguments, T f(U &u) as a function', () => {
    const { tu } = P(`struct T { T(int a, int b) {} };
void g(int outer) { T tmp(outer, 1); T h(T &t, int n); }
void fwd(ns::Vec &v, std::uint32_t n);`);
    const g = func(tu.decls, 'g');
    const body = (g.body as Stmt & { kind: 'block' }).body;
    const d0 = (body[0] as Stmt & { kind: 'decl' }).decls[0]!;
    assert.equal(d0.kind, 'var');
    assert.equal((d0 as { ctorArgs?: unknown[] }).ctorArgs?.length, 2);
    assert.equal((body[1] as Stmt & { kind: 'decl' }).decls[0]!.kind, 'func');
    assert.equal(func(tu.decls, 'fwd').params.length, 2);
  });
});
