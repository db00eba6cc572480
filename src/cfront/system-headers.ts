/**
 * The C and C++ standard headers cfront serves when neither the caller's virtual files nor the
 * include directories have them: axsim's own minimal definitions (never a host's headers). The
 * fixed-width typedefs, `std::numeric_limits`, `std::is_same_v` & co. and the library functions
 * (`std::min`, `memcpy`, `sqrt`, …) are built into the parser and evaluator; these texts add the
 * macros and the few class templates programs spell out.
 */

const LIMITS = `#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#ifdef __CHAR_UNSIGNED__
#define CHAR_MIN 0
#define CHAR_MAX UCHAR_MAX
#else
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#endif
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295u
#ifdef __LONG_MAX__
#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-__LONG_MAX__ - 1L)
#define ULONG_MAX (__LONG_MAX__ * 2UL + 1UL)
#endif
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
`;

const STDINT = `#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT64_MAX 9223372036854775807LL
#define UINT64_MAX 18446744073709551615ULL
#define INT8_C(x) x
#define INT16_C(x) x
#define INT32_C(x) x
#define INT64_C(x) x##LL
#define UINT8_C(x) x
#define UINT16_C(x) x
#define UINT32_C(x) x##u
#define UINT64_C(x) x##ULL
`;

const FLOAT = `#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
#define FLT_EPSILON 1.19209290e-07F
#define FLT_TRUE_MIN 1.40129846e-45F
#define FLT_MANT_DIG 24
#define FLT_MAX_EXP 128
#define FLT_MIN_EXP (-125)
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define DBL_MANT_DIG 53
`;

const ASSERT = `#ifdef NDEBUG
#define assert(x) ((void)0)
#else
#define assert(x) ((x) ? (void)0 : __axsim_assert_fail(#x))
#endif
`;

const ARRAY = `namespace std {
template <typename T, unsigned int N>
struct array {
  T _M_elems[N];
  constexpr T &operator[](unsigned int i) { return _M_elems[i]; }
  constexpr unsigned int size() const { return N; }
  constexpr T *data() { return _M_elems; }
  constexpr T &front() { return _M_elems[0]; }
  constexpr T &back() { return _M_elems[N - 1]; }
};
}
`;

const MATH = `#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define HUGE_VALF __builtin_inff()
#define HUGE_VAL __builtin_inf()
#define M_PI 3.14159265358979323846
#define M_LN2 0.69314718055994530942
#define M_LOG2E 1.4426950408889634074
#define M_SQRT2 1.41421356237309504880
`;

const texts: Record<string, string> = {
  cstdint: STDINT,
  'stdint.h': STDINT,
  cinttypes: STDINT,
  'inttypes.h': STDINT,
  climits: LIMITS,
  'limits.h': LIMITS,
  cfloat: FLOAT,
  'float.h': FLOAT,
  cassert: ASSERT,
  'assert.h': ASSERT,
  array: ARRAY,
  cmath: MATH,
  'math.h': MATH,
  cstddef: '',
  'stddef.h': '',
  'stdbool.h': '',
  type_traits: '',
  limits: '',
  utility: '',
  algorithm: '',
  bit: '',
  cstring: '',
  'string.h': '',
  cstdlib: '',
  'stdlib.h': '',
  cstdio: '',
  'stdio.h': '',
  initializer_list: '',
  tuple: '',
  functional: '',
  numeric: '',
  iterator: '',
};

/** The bundled header named `name` (as written in `#include <…>`), or undefined. */
export function systemHeader(name: string): string | undefined {
  const t = texts[name];
  return t === undefined ? undefined : `#pragma once\n${t}`;
}

export const SYSTEM_HEADERS: readonly string[] = Object.keys(texts);
