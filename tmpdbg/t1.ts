import { loadProgram } from '../src/cfront/index.ts';
const cases: [string, string][] = [
  [`template <typename T> int f() { return 1; }
template <> int f<long>() { return 2; }
int g() { return f<int>() * 10 + f<long>(); }`, 'g()'],
  [`template <typename T> struct S { static int v() { return 1; } };
template <> struct S<long> { static int v() { return 2; } };
int g() { return S<int>::v() * 10 + S<long>::v(); }`, 'g()'],
  [`int h(int) { return 1; } int h(long) { return 2; }
int g() { long x = 3; return h(3) * 10 + h(x); }`, 'g()'],
  [`template <typename T> int sz() { return sizeof(T); }
int g() { return sz<long long>() * 10 + sz<long>(); }`, 'g()'],
  [`struct foo { int a; }; typedef int foo; int g() { foo x = 3; return x; }`, 'g()'],
  [`int g() { unsigned u = 1; long l = -1; return (l < u) ? 1 : 0; }`, 'g()'],
];
for (const [src, e] of cases) {
  for (const model of ['ilp32', 'lp64'] as const) {
    try {
      const v = loadProgram(src, { file: 'k.cpp', model }).ev.callEntry(e) as { v: bigint };
      console.log(model, String(v.v), '|', src.slice(0, 60).replace(/\n/g, ' '));
    } catch (x) {
      console.log(model, 'ERR', (x as Error).message.slice(0, 100));
    }
  }
}
