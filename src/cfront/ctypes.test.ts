/**
 * Integer type identity in the C/C++ front end (types.ts): the expectations are worked out by hand
 * from the C++ standard (sections cited per case) and the two targets' ABIs — ilp32 is riscv32 GCC
 * (Tensix: int, long and pointers 32-bit, plain char unsigned per the RISC-V psABI), lp64 is Apple
 * arm64 (long 64-bit, plain char signed per Apple's ABI).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import type { Value } from './eval.ts';
import { loadProgram } from './index.ts';
import { builtinType, type IntType, typeName } from './types.ts';

type Model = 'ilp32' | 'lp64';
const MODELS: Model[] = ['ilp32', 'lp64'];

/** Runs `entry` with the tree walker (compile false) or the closure compiler where it applies. */
function run(src: string, entry: string, model: Model, compile = true): Value {
  const p = loadProgram(src, { file: 'k.cpp', model });
  if (!compile) (p.ev as { jit: unknown }).jit = undefined;
  return p.ev.callEntry(entry);
}
const int = (src: string, entry: string, model: Model, compile = true): bigint => {
  const v = run(src, entry, model, compile);
  assert.equal(v.k, 'int');
  return (v as { v: bigint }).v;
};
const both = (src: string, entry: string, model: Model): bigint => {
  const a = int(src, entry, model, false);
  assert.equal(int(src, entry, model, true), a, 'tree walker and compiled code agree');
  return a;
};

describe('types: integer types are distinct ([basic.fundamental])', () => {
  it('int / long / long long and the three chars are distinct types with their own names', () => {
    for (const m of MODELS) {
      const t = (n: string) => builtinType(n, m) as IntType;
      // int and long are different types even in ilp32 where both are 32-bit; long and long long
      // even in lp64 where both are 64-bit
      assert.notEqual(t('int'), t('long'));
      assert.notEqual(t('long'), t('long long'));
      assert.notEqual(t('unsigned int'), t('unsigned long'));
      assert.notEqual(t('char'), t('signed char'));
      assert.notEqual(t('char'), t('unsigned char'));
      assert.equal(typeName(t('long')), 'long');
      assert.equal(typeName(t('unsigned long')), 'unsigned long');
      assert.equal(t('long').bits, m === 'lp64' ? 64 : 32);
      // [conv.rank]: long long > long > int > short > signed char; char's rank = signed char's
      assert.ok(t('long long').rank > t('long').rank && t('long').rank > t('int').rank);
      assert.ok(t('int').rank > t('short').rank && t('short').rank > t('signed char').rank);
      assert.equal(t('char').rank, t('signed char').rank);
      assert.equal(t('unsigned long').rank, t('long').rank);
    }
  });
});

describe('templates: template argument identity ([temp.type])', () => {
  const FN = `template <typename T> int f() { return 1; }
template <> int f<long>() { return 2; }
int g() { return f<int>() * 100 + f<long>() * 10 + f<long long>(); }`;
  it('explicit specialisation f<long> is not chosen for f<int> or f<long long>', () => {
    // [temp.type]/1: f<int> and f<long> name the same specialisation only if int and long are the
    // same type — they never are; so f<int> is the primary (1), f<long> the specialisation (2),
    // f<long long> the primary (1), in both data models
    for (const m of MODELS) assert.equal(int(FN, 'g()', m), 121n);
  });
  const CLS = `template <typename T> struct S { static int v() { return 1; } };
template <> struct S<long> { static int v() { return 2; } };
int g() { return S<int>::v() * 100 + S<long>::v() * 10 + S<long long>::v(); }`;
  it('class template explicit specialisation S<long>', () => {
    for (const m of MODELS) assert.equal(int(CLS, 'g()', m), 121n);
  });
  it('S<int> and S<long> are two instances with their own statics', () => {
    // [temp.inst]: each specialisation has its own static data members and static locals
    const src = `template <typename T> struct C { static inline int n = 0; static int bump() { static int k = 0; return ++k; } };
template <typename T> int count() { static int k = 0; return ++k; }
int g() {
  C<int>::n = 5; C<long>::n = 7;
  C<int>::bump(); C<int>::bump(); count<int>(); count<int>();
  return C<int>::n * 10000 + C<long>::n * 1000 + C<long>::bump() * 100 + C<int>::bump() * 10 + count<long>();
}`;
    // C<int>::n 5, C<long>::n 7, C<long>::bump first call 1, C<int>::bump third call 3, count<long> 1
    for (const m of MODELS) assert.equal(int(src, 'g()', m), 57131n);
  });
  it('deduction keeps the argument type (1 is int, 1L long, 1LL long long)', () => {
    const src = `#include <type_traits>
template <typename T> int which(T) { return std::is_same_v<T, int> ? 1 : std::is_same_v<T, long> ? 2 : std::is_same_v<T, long long> ? 3 : 9; }
int g() { long x = 0; return which(1) * 1000 + which(1L) * 100 + which(1LL) * 10 + which(x); }`;
    // [lex.icon]: 1 int, 1L long, 1LL long long (all fit); x is declared long
    for (const m of MODELS) assert.equal(int(src, 'g()', m), 1232n);
  });
  it("std::is_same distinguishes the types; size_t and ptrdiff_t are the targets' typedefs", () => {
    const src = `#include <type_traits>
#include <cstddef>
int g() {
  return std::is_same_v<int, long> * 1000000 + std::is_same_v<long, long long> * 100000
    + std::is_same_v<char, signed char> * 10000 + std::is_same_v<char, unsigned char> * 1000
    + std::is_same_v<decltype(sizeof(int)), size_t> * 100 + std::is_same_v<size_t, unsigned long> * 10
    + std::is_same_v<ptrdiff_t, long>;
}`;
    // the first four are false everywhere; sizeof yields size_t ([expr.sizeof]); size_t / ptrdiff_t
    // are unsigned int / int on riscv32 and unsigned long / long on Apple arm64
    assert.equal(int(src, 'g()', 'ilp32'), 100n);
    assert.equal(int(src, 'g()', 'lp64'), 111n);
    const sz = 'int g() { return sizeof(size_t) * 100 + sizeof(ptrdiff_t) * 10 + sizeof(uintptr_t); }';
    assert.equal(int(sz, 'g()', 'ilp32'), 444n);
    assert.equal(int(sz, 'g()', 'lp64'), 888n);
  });
});

describe('overload resolution ([over.ics.rank], [over.match.best])', () => {
  const H = (arg: string) => `int h(int) { return 1; } int h(long) { return 2; }
int g() { ${arg} return h(x); }`;
  it('an exact match beats a conversion; a promotion beats a conversion', () => {
    for (const m of MODELS) {
      // int: h(int) Exact Match, h(long) Conversion -> h(int)
      assert.equal(int(H('int x = 3;'), 'g()', m), 1n);
      // long: h(long) Exact Match (even in ilp32, where long is 32-bit like int) -> h(long)
      assert.equal(int(H('long x = 3;'), 'g()', m), 2n);
      // short, char, bool: integral promotion to int ([conv.prom]) beats the conversion to long
      assert.equal(int(H('short x = 3;'), 'g()', m), 1n);
      assert.equal(int(H('char x = 3;'), 'g()', m), 1n);
      assert.equal(int(H('bool x = true;'), 'g()', m), 1n);
    }
  });
  it('unsigned int and long long arguments are ambiguous (two Conversions): an error, not a pick', () => {
    // unsigned -> int and unsigned -> long are both integral conversions ([conv.integral]): no
    // candidate is better ([over.match.best]), GCC: "call of overloaded 'h(unsigned int&)' is
    // ambiguous"; the same for long long
    for (const m of MODELS)
      for (const arg of ['unsigned x = 3;', 'long long x = 3;'])
        assert.throws(
          () => run(H(arg), 'g()', m),
          (e: unknown) =>
            e instanceof AxsimError &&
            /ambiguous/.test(e.message) &&
            /h\(int\) and h\(long\)/.test(e.message),
        );
  });
  it('float to double is a promotion, int to double a conversion', () => {
    const src = `int k(double) { return 1; } int k(int) { return 2; }
int g() { float f = 1; short s = 1; return k(f) * 10 + k(s); }`;
    // float -> double Promotion ([conv.fpprom]) beats float -> int Conversion; short -> int
    // Promotion beats short -> double Conversion
    for (const m of MODELS) assert.equal(int(src, 'g()', m), 12n);
  });
  it('enums: no conversion to an enum or from a scoped one; a fixed type is the better promotion', () => {
    const src = `enum E { e1 }; enum class S : int { s1 }; enum F : short { f1 };
int h(E) { return 1; } int h(long) { return 2; }
int k(short) { return 1; } int k(int) { return 2; }
int m(S) { return 1; } int m(long) { return 2; }
int g() { int i = 0; S s = S::s1; return h(i) * 100 + k(f1) * 10 + m(s); }`;
    // h(i): int does not convert to E implicitly, so h(long) (2). k(f1): F promotes to short (its
    // fixed type) and to int; [over.ics.rank]/4.2 prefers the former: k(short) (1). m(s): Exact (1)
    for (const m of MODELS) assert.equal(int(src, 'g()', m), 211n);
  });
  it('a redeclaration is not a rival', () => {
    const src =
      'int h(long); int h(long) { return 2; } int h(int) { return 1; } int g() { long x = 1; return h(x); }';
    for (const m of MODELS) assert.equal(int(src, 'g()', m), 2n);
  });
});

describe('references to another integer type ([dcl.init.ref]/5)', () => {
  it('a const reference binds a temporary; a plain one is an error', () => {
    // int and long are not reference-compatible (even where both are 32-bit): const long& r = i
    // binds a temporary holding the converted value, so a later i = 5 does not show through r
    const tmp = 'int g() { int i = 1; const long& r = i; i = 5; return r; }';
    const arg = 'long f(const long& x) { return x + 1; } int g() { int i = 1; return f(i); }';
    const same = 'int g() { long l = 1; long& r = l; r = 9; return l; }';
    for (const m of MODELS) {
      assert.equal(int(tmp, 'g()', m), 1n);
      assert.equal(int(arg, 'g()', m), 2n);
      assert.equal(int(same, 'g()', m), 9n);
      // long& to an int lvalue, unsigned& to an int lvalue: ill-formed (GCC: "cannot bind")
      for (const src of [
        'int g() { int i = 1; long& r = i; return r; }',
        'void f(unsigned& x) { x = 7; } int g() { int i = 1; f(i); return i; }',
      ])
        assert.throws(
          () => run(src, 'g()', m),
          (e: unknown) => e instanceof AxsimError && /cannot bind/.test(e.message),
        );
    }
  });
});

describe('usual arithmetic conversions ([expr.arith.conv]) and char signedness', () => {
  const T = `#include <type_traits>
int g() {
  long l = -1; unsigned u = 1; long long ll = -1; unsigned long ul = 1;
  return std::is_same_v<decltype(l + u), unsigned long> * 1000 + std::is_same_v<decltype(l + u), long> * 100
    + std::is_same_v<decltype(ll + ul), unsigned long long> * 10 + std::is_same_v<decltype(ll + ul), long long>;
}`;
  it('long + unsigned int, long long + unsigned long', () => {
    // ilp32: long (rank 4) vs unsigned int (rank 3): the unsigned rank is lower and long (32-bit)
    // cannot hold every unsigned int -> unsigned long. long long (64) vs unsigned long (32): long
    // long holds every unsigned long -> long long.
    assert.equal(int(T, 'g()', 'ilp32'), 1001n);
    // lp64: long (64) holds every unsigned int -> long. long long vs unsigned long: the unsigned
    // rank (4) is lower and long long cannot hold every 64-bit unsigned long -> unsigned long long.
    assert.equal(int(T, 'g()', 'lp64'), 110n);
  });
  it('comparisons follow the converted type', () => {
    const src = 'int g() { long l = -1; unsigned u = 1; return (l < u) ? 1 : 0; }';
    // ilp32: -1 becomes ULONG_MAX (4294967295) > 1 -> 0; lp64: long compares -1 < 1 -> 1
    assert.equal(both(src, 'g()', 'ilp32'), 0n);
    assert.equal(both(src, 'g()', 'lp64'), 1n);
  });
  it('plain char is unsigned on RISC-V, signed on Apple arm64', () => {
    const src = `#include <type_traits>
int g() { char c = '\\xff'; char d = 200; int sc = std::is_signed_v<char>;
  return (c < 0) * 10000 + sc * 1000 + (d + 0 > 0) * 100 + (d == 200) * 10 + (sizeof(c + c) == 4); }`;
    // RISC-V psABI: char is unsigned: c = 255, d = 200; char + char promotes to int (4 bytes)
    assert.equal(int(src, 'g()', 'ilp32'), 111n);
    // Apple arm64: char is signed: c = -1, d = -56
    assert.equal(int(src, 'g()', 'lp64'), 11001n);
    const v = 'int g() { char c = 200; return c; }';
    assert.equal(both(v, 'g()', 'ilp32'), 200n);
    assert.equal(both(v, 'g()', 'lp64'), -56n);
  });
  it("character literals, <climits> and numeric_limits follow char's signedness", () => {
    const src = `#include <climits>
#include <limits>
int g() { const char* s = "\\xff"; int mn = std::numeric_limits<char>::min(); int mx = std::numeric_limits<char>::max();
  return (CHAR_MIN == mn) * 100000 + (CHAR_MAX == mx) * 10000 + (mx == 255) * 1000 + (mn == -128) * 100 + (s[0] < 0) * 10 + ('\\x80' < 0); }`;
    // unsigned char range 0..255 on RISC-V, signed -128..127 on Apple arm64; a string's bytes are chars
    assert.equal(int(src, 'g()', 'ilp32'), 111000n);
    assert.equal(int(src, 'g()', 'lp64'), 110111n);
    const lim = `#include <climits>
long long g() { return (LONG_MAX == 2147483647L) * 100 + (ULONG_MAX == 4294967295UL) * 10 + (LONG_MIN < 0); }`;
    assert.equal(int(lim, 'g()', 'ilp32'), 111n);
    assert.equal(int(lim, 'g()', 'lp64'), 1n);
  });
  it('wchar_t, char16_t, char32_t: distinct types, promoted by their representation ([conv.prom]/2)', () => {
    const src = `#include <type_traits>
int g() {
  wchar_t w = L'a'; char16_t c = u'\\u00e9'; char32_t d = U'\\U0001F600';
  int t = std::is_same_v<wchar_t, int> + std::is_same_v<char32_t, unsigned int> + std::is_same_v<char16_t, unsigned short>;
  int p = std::is_same_v<decltype(+w), int> * 100 + std::is_same_v<decltype(+c), int> * 10 + std::is_same_v<decltype(+d), unsigned int>;
  return t * 10000 + p * 10 + (w == 97 && c == 0xe9 && d == 0x1F600 && sizeof(w) == 4 && sizeof(c) == 2 && sizeof(d) == 4);
}`;
    // none is the same type as its underlying type (t = 0); wchar_t (signed 32-bit) promotes to
    // int, char16_t to int, char32_t (unsigned 32-bit) to unsigned int
    for (const m of MODELS) assert.equal(int(src, 'g()', m), 1111n);
  });
  it('an unscoped enum without a fixed type promotes to the first type that holds its values ([conv.prom]/3)', () => {
    const src = `#include <type_traits>
enum E { a = 1, big = 0x10000000000 }; enum F { f1 = 0xffffffff }; enum G { g1 = -1, g2 = 0xffffffff };
int g() { int l = std::is_same_v<decltype(+big), long>; int ll = std::is_same_v<decltype(+big), long long>;
  int u = std::is_same_v<decltype(+f1), unsigned int>; return l * 1000 + ll * 100 + u * 10 + (sizeof(G) == 8); }`;
    // 2^40: not int, unsigned int; long in lp64 (64-bit), long long in ilp32 (long is 32-bit).
    // 0xffffffff: unsigned int. -1..0xffffffff: long in lp64, long long in ilp32: 8 bytes both
    assert.equal(int(src, 'g()', 'ilp32'), 111n);
    assert.equal(int(src, 'g()', 'lp64'), 1011n);
  });

  // The integer types of both models with bits, signedness and rank, written out independently of
  // types.ts ([basic.fundamental], [conv.rank]).
  const TYPES: { name: string; bits: Record<Model, number>; signed: Record<Model, boolean>; rank: number }[] =
    [
      { name: 'char', bits: { ilp32: 8, lp64: 8 }, signed: { ilp32: false, lp64: true }, rank: 1 },
      { name: 'signed char', bits: { ilp32: 8, lp64: 8 }, signed: { ilp32: true, lp64: true }, rank: 1 },
      { name: 'unsigned char', bits: { ilp32: 8, lp64: 8 }, signed: { ilp32: false, lp64: false }, rank: 1 },
      { name: 'short', bits: { ilp32: 16, lp64: 16 }, signed: { ilp32: true, lp64: true }, rank: 2 },
      {
        name: 'unsigned short',
        bits: { ilp32: 16, lp64: 16 },
        signed: { ilp32: false, lp64: false },
        rank: 2,
      },
      { name: 'int', bits: { ilp32: 32, lp64: 32 }, signed: { ilp32: true, lp64: true }, rank: 3 },
      { name: 'unsigned int', bits: { ilp32: 32, lp64: 32 }, signed: { ilp32: false, lp64: false }, rank: 3 },
      { name: 'long', bits: { ilp32: 32, lp64: 64 }, signed: { ilp32: true, lp64: true }, rank: 4 },
      {
        name: 'unsigned long',
        bits: { ilp32: 32, lp64: 64 },
        signed: { ilp32: false, lp64: false },
        rank: 4,
      },
      { name: 'long long', bits: { ilp32: 64, lp64: 64 }, signed: { ilp32: true, lp64: true }, rank: 5 },
      {
        name: 'unsigned long long',
        bits: { ilp32: 64, lp64: 64 },
        signed: { ilp32: false, lp64: false },
        rank: 5,
      },
    ];
  type TT = (typeof TYPES)[number];
  /** [conv.prom] then [expr.arith.conv]/1.5, from the table above. */
  const commonType = (a: TT, b: TT, m: Model): TT => {
    const byName = (n: string) => TYPES.find((t) => t.name === n)!;
    const prom = (t: TT) => (t.rank < 3 ? byName('int') : t);
    const pa = prom(a);
    const pb = prom(b);
    if (pa === pb) return pa;
    if (pa.signed[m] === pb.signed[m]) return pa.rank >= pb.rank ? pa : pb;
    const [u, s] = pa.signed[m] ? [pb, pa] : [pa, pb];
    if (u.rank >= s.rank) return u;
    if (s.bits[m] > u.bits[m]) return s;
    return byName(`unsigned ${s.name}`);
  };
  const wrap = (v: bigint, bits: number, signed: boolean) =>
    signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);

  it('the property below runs through the closure compiler too', () => {
    const p = loadProgram(
      'int lt(long a, unsigned b) { return a < b; } unsigned long long sub(char a, unsigned long b) { return (unsigned long long)(a - b); }',
      { file: 'k.cpp', model: 'ilp32' },
    );
    for (const d of p.ev.functionDecls()) assert.ok(p.ev.jit!.get(d.decl), d.name);
  });
  it('property: the type and value of a + b, a - b, a < b for random integer types and values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TYPES),
        fc.constantFrom(...TYPES),
        fc.bigInt(-(1n << 63n), (1n << 64n) - 1n),
        fc.bigInt(-(1n << 63n), (1n << 64n) - 1n),
        fc.constantFrom<Model>('ilp32', 'lp64'),
        (ta, tb, ra, rb, m) => {
          const a = wrap(ra, ta.bits[m], ta.signed[m]);
          const b = wrap(rb, tb.bits[m], tb.signed[m]);
          const c = commonType(ta, tb, m);
          const conv = (v: bigint) => wrap(v, c.bits[m], c.signed[m]);
          const sum = conv(conv(a) + conv(b));
          const less = conv(a) < conv(b) ? 1n : 0n;
          // the operands are made from unsigned long long bit patterns (a modular conversion)
          const lit = (t: TT, v: bigint) => `(${t.name})${BigInt.asUintN(64, v)}ULL`;
          const src = `auto add(${ta.name} a, ${tb.name} b) { return a + b; }
int lt(${ta.name} a, ${tb.name} b) { return a < b; }
unsigned long long sub(${ta.name} a, ${tb.name} b) { return (unsigned long long)(a - b); }`;
          const args = `(${lit(ta, a)}, ${lit(tb, b)})`;
          const v = run(src, `add${args}`, m, false) as { t: IntType; v: bigint };
          assert.equal(typeName(v.t), c.name, `${ta.name} + ${tb.name} (${m})`);
          assert.equal(v.v, sum, `${ta.name} ${a} + ${tb.name} ${b} (${m})`);
          // lt and sub run compiled (compile.ts) as well as tree-walked
          for (const compile of [false, true]) {
            assert.equal(int(src, `lt${args}`, m, compile), less);
            assert.equal(int(src, `sub${args}`, m, compile), BigInt.asUintN(64, conv(conv(a) - conv(b))));
          }
        },
      ),
      { numRuns: 150, seed: 9 },
    );
  });
});
