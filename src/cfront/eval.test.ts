import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Budget } from '../budget.ts';
import type { BuiltinFn, Value } from './eval.ts';
import { loadProgram } from './index.ts';
import { throwsAt } from './testkit.ts';

const run = (src: string, entry: string, opts: Parameters<typeof loadProgram>[1] = {}) =>
  loadProgram(src, { file: 'k.cpp', ...opts }).ev.callEntry(entry);
const num = (v: Value) => {
  if (v.k === 'int') return v.v;
  if (v.k === 'float') return v.v;
  throw new Error(`not a number: ${v.k}`);
};
/** binary32 bits of a float value. */
const f32bits = (x: number) => {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x, true);
  return b.getUint32(0, true);
};

describe('eval: integers', () => {
  it('wraps to the exact width and signedness, with C conversions', () => {
    const src = `
unsigned a() { unsigned x = 0; return x - 1; }
int b() { unsigned char c = 250; c += 10; return c; }
long long c() { int x = -1; unsigned y = 1; return x < y; }  // -1 converts to UINT_MAX: false
int d() { signed char s = -128; return s / -1; }               // promoted to int: 128
unsigned long long e() { return 0xFFFFFFFFu + 1ull; }
int f() { return 7 / -2 * 10 + 7 % -2; }                       // C truncation: -30 + 1
int g() { return (unsigned short)0x12345; }
unsigned h() { return 1u << 31 >> 3; }
int i() { return -16 >> 2; }                                   // arithmetic shift (GCC)`;
    const p = loadProgram(src, { file: 'k.cpp' });
    assert.equal(num(p.ev.callEntry('a()')), 0xffffffffn);
    assert.equal(num(p.ev.callEntry('b()')), 4n);
    assert.equal(num(p.ev.callEntry('c()')), 0n);
    assert.equal(num(p.ev.callEntry('d()')), 128n);
    assert.equal(num(p.ev.callEntry('e()')), 0x100000000n);
    assert.equal(num(p.ev.callEntry('f()')), -29n);
    assert.equal(num(p.ev.callEntry('g()')), 0x2345n);
    assert.equal(num(p.ev.callEntry('h()')), 0x10000000n);
    assert.equal(num(p.ev.callEntry('i()')), -4n);
  });
  it('uses the data model: long is 32-bit on ilp32, 64-bit on lp64', () => {
    const src =
      'unsigned long f() { unsigned long x = 0; return x - 1; } int s() { return sizeof(long) * 10 + sizeof(void*); }';
    assert.equal(num(run(src, 'f()')), 0xffffffffn);
    assert.equal(num(run(src, 'f()', { model: 'lp64' })), 0xffffffffffffffffn);
    assert.equal(num(run(src, 's()')), 44n);
    assert.equal(num(run(src, 's()', { model: 'lp64' })), 88n);
  });
  it('reports undefined behaviour at the line', () => {
    const src =
      'int f(int d) {\n  return 10 / d;\n}\nint g(int s) { return 1 << s; }\nint h(float x) { return (int)x; }';
    throwsAt(() => run(src, 'f(0)'), 2, 13, 'division by zero', 'UndefinedBehaviour');
    throwsAt(() => run(src, 'g(32)'), 4, 25, 'shift by 32', 'UndefinedBehaviour');
    throwsAt(() => run(src, 'h(3e9f)'), 5, 25, 'out of range', 'UndefinedBehaviour');
  });
});

describe('eval: floating point', () => {
  it('rounds each binary32 operation once, and keeps double as double', () => {
    const src = `
float a() { float x = 0.1f; return x + 0.2f; }
double b() { return 0.1 + 0.2; }
float c() { return 16777216.0f + 1.0f; }
float d() { return (float)16777217; }
float e() { float m = 3.4028235e38f; return m * 2.0f; }
float f() { return 1e-45F; }
int g() { return 0.1f == 0.1; }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    // 0.1f + 0.2f: exact sum of the two binary32 values rounded to binary32
    assert.equal(num(p.ev.callEntry('a()')), Math.fround(Math.fround(0.1) + Math.fround(0.2)));
    assert.equal(f32bits(num(p.ev.callEntry('a()')) as number), 0x3e99999a);
    assert.equal(num(p.ev.callEntry('b()')), 0.30000000000000004);
    assert.equal(num(p.ev.callEntry('c()')), 16777216);
    assert.equal(num(p.ev.callEntry('d()')), 16777216); // ties to even
    assert.equal(num(p.ev.callEntry('e()')), Number.POSITIVE_INFINITY);
    assert.equal(num(p.ev.callEntry('f()')), 2 ** -149);
    assert.equal(num(p.ev.callEntry('g()')), 0n); // 0.1f widened != 0.1
  });
  it('sqrt of a float: float in C++ (<cmath> overload), double in C (the argument is promoted)', () => {
    const src = 'double f() { float x = 2.0f; return sqrt(x); }';
    assert.equal(num(run(src, 'f()', { file: 'k.c' })), Math.sqrt(2));
    assert.equal(num(run(src, 'f()', { file: 'k.cpp' })), Math.fround(Math.sqrt(2)));
    assert.notEqual(Math.sqrt(2), Math.fround(Math.sqrt(2)));
  });
  it('__builtin_nanf gives a quiet NaN with the payload its string names', () => {
    const src = `
unsigned a() { return __builtin_bit_cast(unsigned, __builtin_nanf("")); }
unsigned b() { return __builtin_bit_cast(unsigned, __builtin_nanf("0x5")); }
unsigned c() { return __builtin_bit_cast(unsigned, __builtin_nanf("12")); }
unsigned d() { return __builtin_bit_cast(unsigned, __builtin_nanf("junk")); }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    // binary32 quiet NaN: exponent all ones (0x7f800000) | quiet bit 22 (0x400000) | payload
    assert.equal(num(p.ev.callEntry('a()')), 0x7fc00000n);
    assert.equal(num(p.ev.callEntry('b()')), BigInt(0x7f800000 + 0x400000 + 5));
    assert.equal(num(p.ev.callEntry('c()')), BigInt(0x7f800000 + 0x400000 + 12));
    throwsAt(() => p.ev.callEntry('d()'), 5, 52, /payload is not a number/);
  });
  it('bit-casts through __builtin_bit_cast, unions and memcpy-free punning, NaN payloads kept', () => {
    const src = `
union Converter { float f; unsigned u; static float as_float(unsigned v) { Converter c; c.u = v; return c.f; } };
unsigned a() { return __builtin_bit_cast(unsigned, -2.5f); }
unsigned b() { float f = Converter::as_float(0x7fa00001u); return __builtin_bit_cast(unsigned, f); }
float c() { return Converter::as_float(0x3f800000u) * 3.0f; }
unsigned d() { float x = 1.5f; return *reinterpret_cast<unsigned*>(&x); }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    assert.equal(num(p.ev.callEntry('a()')), 0xc0200000n);
    assert.equal(num(p.ev.callEntry('b()')), 0x7fa00001n);
    assert.equal(num(p.ev.callEntry('c()')), 3);
    assert.equal(num(p.ev.callEntry('d()')), 0x3fc00000n);
  });
});

describe('eval: objects, control flow and functions', () => {
  it('lays out structs and unions, runs methods, designated initialisers and default members', () => {
    const src = `
struct Inc { int incr = 0; int clr = 0; int cr = 0; };
struct addr_mod_t { Inc srca, srcb, dest; int bias = 5;
  unsigned pack() const { return (unsigned)(srca.incr | dest.incr << 4 | bias << 8); } };
struct P { char c; int i; short s; };
unsigned f() { return addr_mod_t{.srca = {.incr = 1}, .dest = {.incr = 2}}.pack(); }
int g() { return sizeof(P) * 100 + sizeof(addr_mod_t); }
int h() { P p{1, 2, 3}; P q = p; q.i += 10; return p.i * 100 + q.i; }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    assert.equal(num(p.ev.callEntry('f()')), 0x521n);
    assert.equal(num(p.ev.callEntry('g()')), 12n * 100n + 40n);
    assert.equal(num(p.ev.callEntry('h()')), 212n);
  });
  it('runs loops with break/continue, switch with fall-through, pointers and arrays', () => {
    const src = `
int f() {
  int a[8] = {};
  for (int i = 0; i < 8; i++) { if (i == 2) continue; if (i == 6) break; a[i] = i * i; }
  int *p = a + 3; *p += 100; p[1] = -1;
  int s = 0; for (int x : a) s += x;
  int k = 0; while (true) { if (++k >= 5) break; }
  do { k += 2; } while (k < 9);
  switch (k) { case 9: s += 1000; case 10: s += 10000; break; default: s += 100000; }
  return s + (int)(p - a);
}`;
    // a = {0,1,0,109,-1,25,0,0}: 134; k = 9: +11000; p - a = 3
    assert.equal(num(run(src, 'f()')), 134n + 11000n + 3n);
  });
  it('instantiates templates: explicit, deduced and default arguments, explicit specialisations', () => {
    const src = `
namespace ckernel { namespace sfpu {
template <bool APPROX, int ITERATIONS = 8> int calc(int x) { return APPROX ? x * ITERATIONS : -x; }
template <> int calc<true, 2>(int x) { return 1000 + x; }
template <typename T> T twice(T v) { return v + v; }
template <typename T, int N> struct Arr { T v[N]; int size() const { return N * sizeof(T); } };
} }
using namespace ckernel::sfpu;
int f() { return calc<true>(3) * 1000000 + calc<false, 4>(3) * 1000 + calc<true, 2>(3); }
float g() { return twice(1.25f) + twice<int>(3); }
int h() { Arr<short, 5> a; return a.size(); }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    assert.equal(num(p.ev.callEntry('f()')), 24n * 1000000n - 3000n + 1003n);
    assert.equal(num(p.ev.callEntry('g()')), 8.5);
    assert.equal(num(p.ev.callEntry('h()')), 10n);
    assert.equal(num(p.ev.callEntry('ckernel::sfpu::calc<true, 2>(5)')), 1005n);
  });
  it('uses enums and enum classes, constexpr globals, static locals, lambdas and recursion', () => {
    const src = `
enum class Mode : unsigned char { A = 3, B };
enum Plain { P0, P1 = 10, P2 };
constexpr int TABLE[3] = {Plain::P2, static_cast<int>(Mode::B), P1};
int counter() { static int n = 0; return ++n; }
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int f() { counter(); counter(); auto add = [&](int x) { return x + TABLE[0]; }; return add(counter()) + fib(10) * 100; }`;
    assert.equal(num(run(src, 'f()')), 3n + 11n + 5500n);
  });
  it('calls host builtins with evaluated arguments and the call position', () => {
    const seen: string[] = [];
    const emit: BuiltinFn = (c) => {
      seen.push(`${c.name}(${c.args.map((a) => String(num(a))).join(',')})@${c.at.line}:${c.at.col}`);
    };
    const src = 'void k(int n) {\n  for (int i = 0; i < n; i++)\n    emit(i * 2, 1.5f);\n}';
    const p = loadProgram(src, { file: 'k.cpp', host: { builtins: new Map([['emit', emit]]) } });
    p.ev.callEntry('k(3)');
    assert.deepEqual(seen, ['emit(0,1.5)@3:5', 'emit(2,1.5)@3:5', 'emit(4,1.5)@3:5']);
  });
  it('routes stores into a mapped region through its write hook (volatile registers)', () => {
    const writes: [number, number][] = [];
    const p = loadProgram(
      'void f() { volatile unsigned *cfg = (volatile unsigned *)0xFFEF0000; cfg[3] = 0x55; cfg[1] = cfg[3] + 1; }',
      { file: 'k.cpp' },
    );
    p.ev.mem.mapRegion('cfg', 0xffef0000, 0x100, {
      write: (addr, _size, r) => writes.push([(addr - r.base) / 4, r.view.getUint32(addr - r.base, true)]),
    });
    p.ev.callEntry('f()');
    assert.deepEqual(writes, [
      [3, 0x55],
      [1, 0x56],
    ]);
  });
});

describe('eval: errors and budgets', () => {
  it('names unknown names with a hint, and an SFPI name without the SFPI library', () => {
    throwsAt(() => run('int value = 3;\nint f() { return valeu; }', 'f()'), 2, 18, "unknown name 'valeu'");
    throwsAt(
      () => run('void f() {\n  sfpi::vFloat v = 1.0f;\n}', 'f()'),
      2,
      3,
      "SFPI: 'sfpi::vFloat' is not defined here",
      'Unsupported',
    );
  });
  it('names the missing template argument and wrong argument counts', () => {
    const src = 'template <int N> int f() { return N; }\nint g(int a, int b = 2) { return a + b; }';
    throwsAt(() => run(src, 'f()'), 1, 1, 'template parameter N has no value');
    throwsAt(() => run(src, 'g(1, 2, 3)'), 1, 1, 'no g takes 3 argument(s)');
    assert.equal(num(run(src, 'g(1)')), 3n);
  });
  it('stops runaway loops and recursion with ResourceLimit at the line', () => {
    throwsAt(
      () => run('void f() {\n  for (;;) {}\n}', 'f()', { budget: new Budget({ loops: 1000 }) }),
      2,
      3,
      'loop iterations limit exceeded',
      'ResourceLimit',
    );
    throwsAt(
      () => run('int r(int n) { return r(n + 1); }', 'r(0)', { budget: new Budget({ depth: 100 }) }),
      1,
      23, // the recursive call (compiled functions charge the depth at the call)
      'nesting depth limit exceeded',
      'ResourceLimit',
    );
  });
  it('reports null and out-of-bounds accesses', () => {
    throwsAt(
      () => run('int f() {\n  int *p = nullptr;\n  return *p;\n}', 'f()'),
      3,
      10,
      'null pointer dereference',
      'UndefinedBehaviour',
    );
    throwsAt(
      () => run('int f() { int a[2] = {1, 2};\n  return a[2]; }', 'f()'),
      2,
      12,
      'index 2 is outside a[0..1]',
      'UndefinedBehaviour',
    );
  });
});

describe('eval: library and the C++ the LLK headers use', () => {
  it('evaluates template arguments that name locals, global lambdas, std::bit_cast and std::array', () => {
    const src = `#include <array>
#include <cstdint>
#include <limits>
template <int N> int twice() { return 2 * N; }
constexpr auto hi16 = [](float x) constexpr { return static_cast<std::uint16_t>(__builtin_bit_cast(std::uint32_t, x) >> 16); };
int f() {
  constexpr int local = 21;
  std::array<int, 3> a{};
  a[1] = twice<local>();
  return a[1] + a.size() + hi16(-2.0f) + (std::bit_cast<std::uint32_t>(1.0f) >> 20) + std::min(3, 9) * std::max(2, 1);
}
unsigned g() { return std::numeric_limits<std::uint16_t>::max() + UINT8_MAX; }
unsigned h() { return std::bit_cast<std::uint32_t>(std::numeric_limits<float>::signaling_NaN()); }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    // GCC: __builtin_nansf("") = quiet bit (22) clear, bit 21 set
    assert.equal(num(p.ev.callEntry('h()')), 0x7fa00000n);
    // 42 + 3 + 0xc000 + 0x3f8 + 6
    assert.equal(num(p.ev.callEntry('f()')), 42n + 3n + 0xc000n + 0x3f8n + 6n);
    assert.equal(num(p.ev.callEntry('g()')), 65535n + 255n);
  });
  it('picks operator= overloads by argument type on a global object', () => {
    const src = `struct Prgm { unsigned bits = 0; int kind = 0;
  void operator=(const int v) { bits = (unsigned)v; kind = 1; }
  void operator=(const float v) { bits = __builtin_bit_cast(unsigned, v); kind = 2; } };
Prgm c0;
unsigned f() { c0 = 0xff; unsigned a = c0.bits + c0.kind * 0x1000; c0 = 0.5f; return a + c0.bits + c0.kind * 0x100000; }`;
    assert.equal(num(run(src, 'f()')), 0xffn + 0x1000n + 0x3f000000n + 0x200000n);
  });
  it('fails an assert at its line', () => {
    throwsAt(
      () => run('#include <cassert>\nvoid f(int n) {\n  assert(n > 3);\n}', 'f(2)'),
      3,
      3,
      'assertion failed: n > 3',
    );
  });
});

describe('eval: alignment and asm statements', () => {
  it('honours alignas and __attribute__((aligned(N))) on variables', () => {
    const src = `unsigned long f() {
  char pad = 1;
  __attribute__((aligned(256))) float a[4];
  char pad2 = 2;
  alignas(128) unsigned char b[3];
  float c[2] __attribute__((aligned(64)));
  return ((unsigned long)a % 256) + ((unsigned long)b % 128) + ((unsigned long)c % 64) + pad + pad2;
}`;
    assert.equal(num(run(src, 'f()', { model: 'lp64' })), 3n);
  });
  it('hands GNU asm statements to the host when asked, and says unsupported otherwise', () => {
    const seen: string[] = [];
    const src =
      'void f(const float *a) {\n  __asm__ volatile("prfm PLDL1STRM, [%[a], 64]" : : [a] "r"(a) : "memory");\n}';
    const p = loadProgram(src, {
      file: 'k.c',
      asmStatements: true,
      host: { execExt: (s) => void seen.push((s.data as { asm: string }).asm) },
    });
    p.ev.callEntry('f(nullptr)');
    assert.deepEqual(seen, ['prfm PLDL1STRM, [%[a], 64]']);
    throwsAt(() => run(src, 'f(nullptr)'), 2, 3, 'unsupported C++: inline assembly', 'Unsupported');
  });
});

describe('eval: function pointers', () => {
  it('stores functions in pointers and arrays of pointers, and calls through them', () => {
    const src = `int add1(int x) { return x + 1; }
int dbl(int x) { return 2 * x; }
int apply(int (*f)(int), int v) { return f(v); }
int f() {
  int (*ops[2])(int) = {add1, &dbl};
  int (*p)(int) = dbl;
  return ops[0](10) * 1000 + ops[1](10) * 10 + (*p)(1) + apply(add1, 100) * 100000;
}`;
    assert.equal(num(run(src, 'f()')), 11n * 1000n + 200n + 2n + 101n * 100000n);
    throwsAt(
      () => run('int f() {\n  int (*p)(int) = nullptr;\n  return p(1);\n}', 'f()'),
      3,
      10,
      'null function pointer',
      'UndefinedBehaviour',
    );
  });
});

describe('eval: classes defined where they are used, brace elision', () => {
  it("gives a local union in a function template its template's parameter types", () => {
    const src = `template <typename To, typename From>
inline To bc(const From& from) {
  union { From f; To t; } u;
  u.f = from;
  return u.t;
}
unsigned f1() { return bc<unsigned>(1.0f); }
double f2() { return bc<double>(0x3ff8000000000000ull); }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    assert.equal(num(p.ev.callEntry('f1()')), 0x3f800000n); // binary32 1.0: exponent 127, mantissa 0
    assert.equal(num(p.ev.callEntry('f2()')), 1.5); // binary64 0x3ff8...: 1 + 1/2
  });
  it('initialises an array member from the following initialisers when its braces are left out', () => {
    const src = `#include <array>
#include <cstdint>
struct A { unsigned v[3]; int w; };
int f3() { A a{1u, 2u, 3u, 4}; return a.v[0] * 1000 + a.v[1] * 100 + a.v[2] * 10 + a.w; }
int f4() { auto x = std::array<std::uint32_t, 2>{1u, 2u}; return x[0] * 10 + x[1]; }
int f5() { A a{1u, 2u}; return a.v[0] * 1000 + a.v[1] * 100 + a.v[2] * 10 + a.w; }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    assert.equal(num(p.ev.callEntry('f3()')), 1234n);
    assert.equal(num(p.ev.callEntry('f4()')), 12n);
    assert.equal(num(p.ev.callEntry('f5()')), 1200n); // the rest zero-initialised
  });
});

describe('eval: free operators', () => {
  it("finds them in the operand class's namespace, also with the class on the right only", () => {
    const src = `namespace N { struct V { int x; }; V operator+(V a, V b) { V r; r.x = a.x + b.x * 10; return r; }
V operator*(int k, V b) { V r; r.x = k * b.x + 1; return r; } }
namespace M { int f() { N::V a; a.x = 3; N::V b; b.x = 4; N::V c = a + b; return c.x; }
int g() { N::V b; b.x = 4; N::V c = 5 * b; return c.x; } }`;
    const p = loadProgram(src, { file: 'k.cpp' });
    assert.equal(num(p.ev.callEntry('M::f()')), 3n + 4n * 10n);
    assert.equal(num(p.ev.callEntry('M::g()')), 5n * 4n + 1n);
  });
});

describe('eval: && and || of class operands', () => {
  it("call the class's operator&& / operator|| with both operands evaluated (no short-circuit)", () => {
    const src = `
int n = 0;
struct C { int v; C operator&&(const C o) const { return C{v * 10 + o.v}; } C operator||(const C o) const { return C{v * 100 + o.v}; } };
C side(int x) { n++; return C{x}; }
int f() { C a{1}; C c = a && side(2); return c.v * 10 + n; }  // 12, then n = 1: the right side ran
int g() { C a{0}; C c = a || side(3); return c.v; }           // 3 (0 * 100 + 3), not short-circuited
int h() { int x = 0; return x && (1 / x); }                   // scalars still short-circuit: 0
`;
    assert.equal(num(run(src, 'f')!), 121n);
    assert.equal(num(run(src, 'g')!), 3n);
    assert.equal(num(run(src, 'h')!), 0n);
  });
});

describe('eval: class template partial specialisation', () => {
  it('picks the partial specialisation whose pattern matches, deducing its own parameters', () => {
    const src = `
enum class Kind { A, B, C };
template <int N, Kind K> struct Impl;                                   // primary: declared only
template <int N> struct Impl<N, Kind::A> { static int apply(int x) { return x + N; } };
template <int N> struct Impl<N, Kind::B> { static int apply(int x, int y) { return x * N + y; } };
template <typename T, typename U> struct Same { static constexpr int v = 0; };
template <typename T> struct Same<T, T> { static constexpr int v = 1; };  // the same parameter twice
template <typename T> struct Same<T, char> { static constexpr int v = 2; };
template <> struct Impl<7, Kind::C> { static int apply() { return 77; } };   // full: chosen first
int f() { return Impl<3, Kind::A>::apply(10); }       // 13
int g() { return Impl<4, Kind::B>::apply(10, 2); }    // 42
int h() { return Same<int, int>::v * 100 + Same<int, short>::v * 10 + Same<short, char>::v; }  // 102
int k() { return Impl<7, Kind::C>::apply(); }
`;
    assert.equal(num(run(src, 'f')!), 13n);
    assert.equal(num(run(src, 'g')!), 42n);
    assert.equal(num(run(src, 'h')!), 102n);
    assert.equal(num(run(src, 'k')!), 77n);
  });
});

describe('eval: variable templates', () => {
  it('one object per argument list, its initialiser evaluated with the arguments bound', () => {
    const src = `#include <type_traits>
#include <cstdint>
template <typename T>
constexpr bool is_ok_v = std::is_same_v<T, float> || std::is_same_v<T, std::uint32_t>;
template <typename T, int N = 3>
constexpr int scaled = sizeof(T) * N;
template <typename T> void check(T) { static_assert(is_ok_v<T>, "T must be float or uint32_t"); }
int f() { return is_ok_v<float> * 100 + is_ok_v<std::uint32_t> * 10 + is_ok_v<int>; }   // 110
int g() { return scaled<short> * 100 + scaled<char, 5>; }                                 // 605
int h() { check(1.0f); return 1; }
int k() { check(1); return 1; }
`;
    assert.equal(num(run(src, 'f')!), 110n);
    assert.equal(num(run(src, 'g')!), 605n);
    assert.equal(num(run(src, 'h')!), 1n);
    assert.throws(() => run(src, 'k'), /static_assert failed: T must be float or uint32_t/);
  });
});

describe('eval: function parameter packs', () => {
  it('expands a pack into one parameter per argument; the non-variadic overload wins a tie', () => {
    const src = `
struct Poly {
  template <typename U> static constexpr auto eval(U x) { return U{0}; }
  template <typename U, typename C0> static constexpr auto eval(U x, C0 c0) { return c0; }
  template <typename U, typename C0, typename... Cs>
  static constexpr auto eval(U x, C0 c0, Cs... cs) { return c0 + x * eval(x, cs...); }
};
template <typename... Ts> int count(const Ts&... xs) { return sizeof...(xs) * 10 + sizeof...(Ts); }
int sq(int v) { return v * v; }
template <typename... Ts> int sum_sq(Ts... xs) { return add(sq(xs)...); }
template <typename... Ts> int add(Ts... xs);
int add() { return 0; }
template <typename T, typename... Ts> int add(T a, Ts... xs) { return a + add(xs...); }
double f() { return Poly::eval(2.0, 1.0, 3.0, 5.0); }          // 1 + 2 * (3 + 2 * 5) = 27
float g() { return Poly::eval(2.0f, 1.5f); }                   // the two-parameter overload: 1.5
int h() { return Poly::eval(7); }                             // 0
int k() { return count(1, 2.0, 'c') * 100 + count(); }        // 33 * 100 + 0
int m() { return sum_sq(1, 2, 3); }                           // 1 + 4 + 9
`;
    assert.equal(num(run(src, 'f')!), 27);
    assert.equal(num(run(src, 'g')!), 1.5);
    assert.equal(num(run(src, 'h')!), 0n);
    assert.equal(num(run(src, 'k')!), 3300n);
    assert.equal(num(run(src, 'm')!), 14n);
  });
});
