/**
 * The SFPI vector classes as axsim's own C++ (served as the virtual include `axsim_sfpi_vector.h`,
 * included by the LLK environment's `sfpi.h`). Each operation calls an `__sfpi_*` builtin of the
 * tracer (src/tensix/sfpi/trace.ts), which records it in the SSA trace and returns the value's id;
 * the passes (src/tensix/sfpi/passes.ts) turn the trace into instructions. The names and the
 * behaviour follow tenstorrent/sfpi include/sfpi.h, sfpi_lib.h and the per-arch sfpi_imp.h
 * (docs/sfpi.md); the text is ours. Constructs not compiled yet call `__sfpi_unsupported`, an
 * Unsupported error at the user's line.
 *
 * Operators are class members: cfront picks a member operator by the class of the left operand, while
 * overloads that differ only in a record parameter type are not told apart (NOTES on cfront), so every
 * operand carries a tag the builtins read (see the comment at the top of the text).
 */
export const SFPI_VECTOR_H = `// axsim SFPI: vector types, dst_reg[] elements, constants, v_if (docs/sfpi.md)
// Every SFPI operand is {k, v}: k = 1 a traced float value, 5 a traced integer value (v = its id),
// 2 a dst_reg element (v = row), 3 a constant LReg (v = its number), 4 a condition (v = its id),
// 6 an l_reg[] element (v = the LReg), 7 / 8 an s2vFloat16b / s2vFloat16a (v = the 16-bit pattern).
// The builtins read the pair, so an operand reaching a function through any overload is still what it is.
#pragma once
namespace sfpi {
struct vFloat;
struct __vConstInt;
struct vInt;
struct vUInt;
struct __vDReg;
struct __vCond {
  int k;
  int v;
  __vCond operator&&(const __vCond o) const { return __vCond{4, __sfpi_cbool(1, k, v, o.k, o.v)}; }
  __vCond operator||(const __vCond o) const { return __vCond{4, __sfpi_cbool(2, k, v, o.k, o.v)}; }
  __vCond operator!() const { return __vCond{4, __sfpi_cbool(3, k, v, k, v)}; }
};
typedef __vCond vBool;
// s2vFloat16a/b (sfpi_fp16.h; sFloat16a/b in the 7.x spelling tt-llk uses): a 16-bit FP16A/FP16B
// pattern loaded with one SFPLOADI (mod0 FLOATA 1 / FLOATB 0). From an integer: the pattern as given;
// from a float: converted on the host (sfpi_fp16.h fp32_to_fp16a / fp32_to_fp16b: __sfpi_f16bits).
struct s2vFloat16 {
  int k;
  int v;
  // sfpi_fp16.h (sfpi 2024, the API older tt-metal kernels use): s2vFloat16(x, format), the format a
  // value of the nested enum (fp16a / fp16b); an integer is the pattern as given, a float is converted.
  enum Format { fp16a = 0, fp16b = 1 };
  s2vFloat16() {}
  s2vFloat16(const s2vFloat16 &o) { k = o.k; v = o.v; }
  s2vFloat16(const int in, const Format f = fp16b) { k = f == fp16a ? 8 : 7; v = in; }
  s2vFloat16(const unsigned int in, const Format f = fp16b) { k = f == fp16a ? 8 : 7; v = static_cast<int>(in); }
  s2vFloat16(const float in, const Format f = fp16b) { k = f == fp16a ? 8 : 7; v = __sfpi_f16bits(f == fp16a ? 1 : 0, in); }
  // sfpi_fp16.h get(): the 16-bit pattern, a scalar (kernels build packed LUT words from it)
  int get() const { return v; }
};
struct s2vFloat16a : s2vFloat16 {
  s2vFloat16a(const int in) { k = 8; v = in; }
  s2vFloat16a(const unsigned int in) { k = 8; v = static_cast<int>(in); }
  s2vFloat16a(const float in) { k = 8; v = __sfpi_f16bits(1, in); }
  s2vFloat16a(const double in) { k = 8; v = __sfpi_f16bits(1, static_cast<float>(in)); }
};
struct s2vFloat16b : s2vFloat16 {
  s2vFloat16b(const int in) { k = 7; v = in; }
  s2vFloat16b(const unsigned int in) { k = 7; v = static_cast<int>(in); }
  s2vFloat16b(const float in) { k = 7; v = __sfpi_f16bits(0, in); }
  s2vFloat16b(const double in) { k = 7; v = __sfpi_f16bits(0, static_cast<float>(in)); }
};
typedef s2vFloat16a sFloat16a;
typedef s2vFloat16b sFloat16b;
struct vFloat {
  int k;
  int v;
  vFloat() { k = 1; v = -1; }
  vFloat(const float f) { k = 1; v = __sfpi_fimm(f); }
  vFloat(const double f) { k = 1; v = __sfpi_fimm(static_cast<float>(f)); }
  vFloat(const __vDReg d) { k = 1; v = __sfpi_value(d.k, d.v); }
  vFloat operator=(const vFloat o) { v = __sfpi_assign(k, v, o.k, o.v); k = 1; return *this; }
  vFloat operator=(const float f) { vFloat o = f; return __set(o); }
  vFloat operator=(const double f) { vFloat o = f; return __set(o); }
  vFloat __set(const vFloat o) { v = __sfpi_assign(k, v, o.k, o.v); k = 1; return *this; }
  vFloat operator-() const { vFloat r; r.v = __sfpi_op("neg", k, v, 0, -1); return r; }
  vFloat operator+(const vFloat b) const { vFloat r; r.v = __sfpi_op("add", k, v, b.k, b.v); return r; }
  vFloat operator+(const float b) const { vFloat c = b; return *this + c; }
  vFloat operator-(const vFloat b) const { vFloat r; r.v = __sfpi_op("sub", k, v, b.k, b.v); return r; }
  vFloat operator-(const float b) const { vFloat c = -b; return *this + c; }
  vFloat operator*(const vFloat b) const { vFloat r; r.v = __sfpi_op("mul", k, v, b.k, b.v); return r; }
  vFloat operator*(const float b) const { vFloat c = b; return *this * c; }
  vFloat operator+=(const vFloat b) { vFloat r; r.v = __sfpi_op("add", k, v, b.k, b.v); return __set(r); }
  vFloat operator+=(const float b) { vFloat c = b; return *this += c; }
  vFloat operator-=(const vFloat b) { vFloat r; r.v = __sfpi_op("sub", k, v, b.k, b.v); return __set(r); }
  vFloat operator-=(const float b) { vFloat c = b; return *this -= c; }
  vFloat operator*=(const vFloat b) { vFloat r; r.v = __sfpi_op("mul", k, v, b.k, b.v); return __set(r); }
  vFloat operator*=(const float b) { vFloat c = b; return *this *= c; }
  // As sfpi.h defines them: x++ gives the new value and ++x the old one (sic)
  vFloat operator++(int) { return *this += 1.0f; }
  vFloat operator++() { vFloat t = *this; *this += 1.0f; return t; }
  vFloat operator--(int) { return *this -= 1.0f; }
  vFloat operator--() { vFloat t = *this; *this -= 1.0f; return t; }
  __vCond operator<(const vFloat b) const { return __vCond{4, __sfpi_cmp("lt", k, v, b.k, b.v)}; }
  __vCond operator<(const float b) const { return __vCond{4, __sfpi_cmpf("lt", k, v, b)}; }
  __vCond operator<=(const vFloat b) const { return __vCond{4, __sfpi_cmp("le", k, v, b.k, b.v)}; }
  __vCond operator<=(const float b) const { return __vCond{4, __sfpi_cmpf("le", k, v, b)}; }
  __vCond operator>(const vFloat b) const { return __vCond{4, __sfpi_cmp("gt", k, v, b.k, b.v)}; }
  __vCond operator>(const float b) const { return __vCond{4, __sfpi_cmpf("gt", k, v, b)}; }
  __vCond operator>=(const vFloat b) const { return __vCond{4, __sfpi_cmp("ge", k, v, b.k, b.v)}; }
  __vCond operator>=(const float b) const { return __vCond{4, __sfpi_cmpf("ge", k, v, b)}; }
  __vCond operator==(const vFloat b) const { return __vCond{4, __sfpi_cmp("eq", k, v, b.k, b.v)}; }
  __vCond operator==(const float b) const { return __vCond{4, __sfpi_cmpf("eq", k, v, b)}; }
  __vCond operator!=(const vFloat b) const { return __vCond{4, __sfpi_cmp("ne", k, v, b.k, b.v)}; }
  __vCond operator!=(const float b) const { return __vCond{4, __sfpi_cmpf("ne", k, v, b)}; }
};
// vInt / vUInt (sfpi.h __vIntBase): the same instructions for both except the immediate loads
// (SHORT vs USHORT) and >> (arithmetic on Blackhole for vInt, logical for vUInt). The operand order
// of the builtins is sfpi's (__builtin_rvtt_sfpxiadd_v(x, y): the result goes where x was).
#define __SFPI_INT_CLASS(T, SIGNED, IMMT) \\
struct T { \\
  int k; \\
  int v; \\
  T() { k = 5; v = -1; } \\
  T(const int i) { k = 5; v = __sfpi_iimm(i, 1); } \\
  T(const unsigned int i) { k = 5; v = __sfpi_iimm(static_cast<int>(i), 0); } \\
  T(const __vDReg d) { k = 5; v = __sfpi_ivalue(d.k, d.v); } \\
  T operator=(const T o) { v = __sfpi_iassign(k, v, o.k, o.v); k = 5; return *this; } \\
  T operator=(const int i) { T o = i; return __set(o); } \\
  T operator=(const unsigned int i) { T o = i; return __set(o); } \\
  T __set(const T o) { v = __sfpi_iassign(k, v, o.k, o.v); k = 5; return *this; } \\
  T __mk(const int id) const { T r; r.v = id; return r; } \\
  T operator+(const T b) const { return __mk(__sfpi_op("iadd", b.k, b.v, k, v)); } \\
  T operator+(const IMMT b) const { return __mk(__sfpi_opi("iaddi", k, v, static_cast<int>(b))); } \\
  T operator-(const T b) const { return __mk(__sfpi_op("isub", b.k, b.v, k, v)); } \\
  T operator-(const IMMT b) const { return __mk(__sfpi_opi("iaddi", k, v, -static_cast<int>(b))); } \\
  T operator-() const { T z = 0; return z - *this; } \\
  T operator+=(const T b) { return __set(__mk(__sfpi_op("iadd", k, v, b.k, b.v))); } \\
  /* sfpi's vInt += vConst*: its header subtracts (sfpi.h vInt::operator+=(__vConstIntBase)); kept as it is */ \\
  T operator+=(const __vConstInt b) { return __set(__mk(SIGNED ? __sfpi_op("isub", b.k, b.v, k, v) : __sfpi_op("iadd", b.k, b.v, k, v))); } \\
  T operator+=(const IMMT b) { return __set(*this + b); } \\
  T operator-=(const T b) { return __set(__mk(__sfpi_op("isub", b.k, b.v, k, v))); } \\
  T operator-=(const IMMT b) { return __set(*this - b); } \\
  T operator&(const T b) const { return __mk(__sfpi_op("and", k, v, b.k, b.v)); } \\
  T operator&(const int b) const { T c = b; return *this & c; } \\
  T operator&(const unsigned int b) const { T c = b; return *this & c; } \\
  T operator|(const T b) const { return __mk(__sfpi_op("or", k, v, b.k, b.v)); } \\
  T operator|(const int b) const { T c = b; return *this | c; } \\
  T operator|(const unsigned int b) const { T c = b; return *this | c; } \\
  T operator^(const T b) const { return __mk(__sfpi_op("xor", k, v, b.k, b.v)); } \\
  T operator^(const int b) const { T c = b; return *this ^ c; } \\
  T operator^(const unsigned int b) const { T c = b; return *this ^ c; } \\
  T operator&=(const T b) { return __set(*this & b); } \\
  T operator&=(const int b) { return __set(*this & b); } \\
  T operator&=(const unsigned int b) { return __set(*this & b); } \\
  T operator|=(const T b) { return __set(*this | b); } \\
  T operator|=(const int b) { return __set(*this | b); } \\
  T operator|=(const unsigned int b) { return __set(*this | b); } \\
  T operator^=(const T b) { return __set(*this ^ b); } \\
  T operator^=(const int b) { return __set(*this ^ b); } \\
  T operator^=(const unsigned int b) { return __set(*this ^ b); } \\
  T operator~() const { return __mk(__sfpi_op("not", k, v, 0, -1)); } \\
  T operator<<(const int amt) const { return __mk(__sfpi_opi("shli", k, v, amt)); } \\
  T operator<<(const T amt) const { return __mk(__sfpi_op("shl", k, v, amt.k, amt.v)); } \\
  T operator<<=(const int amt) { return __set(*this << amt); } \\
  T operator<<=(const T amt) { return __set(*this << amt); } \\
  T operator>>(const int amt) const { return __mk(__sfpi_opi(SIGNED ? "sari" : "shli", k, v, -amt)); } \\
  T operator>>(const T amt) const { T n = -amt; return __mk(__sfpi_op(SIGNED ? "sar" : "shl", k, v, n.k, n.v)); } \\
  T operator>>=(const int amt) { return __set(*this >> amt); } \\
  T operator>>=(const T amt) { return __set(*this >> amt); } \\
  T operator++(int) { return __set(*this + 1); } \\
  T operator++() { T t = *this; __set(*this + 1); return t; } \\
  T operator--(int) { return __set(*this - 1); } \\
  T operator--() { T t = *this; __set(*this - 1); return t; } \\
  __vCond operator==(const T b) const { return __vCond{4, __sfpi_icmp("eq", k, v, b.k, b.v)}; } \\
  __vCond operator==(const IMMT b) const { return __vCond{4, __sfpi_icmpi("eq", k, v, static_cast<int>(b))}; } \\
  __vCond operator!=(const T b) const { return __vCond{4, __sfpi_icmp("ne", k, v, b.k, b.v)}; } \\
  __vCond operator!=(const IMMT b) const { return __vCond{4, __sfpi_icmpi("ne", k, v, static_cast<int>(b))}; } \\
  __vCond operator<(const T b) const { return __vCond{4, __sfpi_icmp("lt", k, v, b.k, b.v)}; } \\
  __vCond operator<(const IMMT b) const { return __vCond{4, __sfpi_icmpi("lt", k, v, static_cast<int>(b))}; } \\
  __vCond operator<=(const T b) const { return __vCond{4, __sfpi_icmp("le", k, v, b.k, b.v)}; } \\
  __vCond operator<=(const IMMT b) const { return __vCond{4, __sfpi_icmpi("le", k, v, static_cast<int>(b))}; } \\
  __vCond operator>(const T b) const { return __vCond{4, __sfpi_icmp("gt", k, v, b.k, b.v)}; } \\
  __vCond operator>(const IMMT b) const { return __vCond{4, __sfpi_icmpi("gt", k, v, static_cast<int>(b))}; } \\
  __vCond operator>=(const T b) const { return __vCond{4, __sfpi_icmp("ge", k, v, b.k, b.v)}; } \\
  __vCond operator>=(const IMMT b) const { return __vCond{4, __sfpi_icmpi("ge", k, v, static_cast<int>(b))}; } \\
};
__SFPI_INT_CLASS(vInt, 1, int)
__SFPI_INT_CLASS(vUInt, 0, unsigned int)
#undef __SFPI_INT_CLASS
// Any vector operand, bound without a conversion (no constructors), so its tag survives.
struct __vAny {
  int k;
  int v;
};
struct __vDReg {
  int k;
  int v;
  // The stored format follows the value's tag: vFloat = the default (SRCB), vInt/vUInt = INT32_TO_SM
  // (sfpi_imp.h of the sfpi release the gold listings come from; docs/sfpi.md).
  void operator=(const __vAny o) const { __sfpi_store(v, o.k, o.v); }
  void operator=(const __vDReg o) const { __sfpi_store(v, o.k, o.v); }
  void operator=(const float f) const { vFloat o = f; __sfpi_store(v, o.k, o.v); }
  void operator=(const double f) const { vFloat o = f; __sfpi_store(v, o.k, o.v); }
  void operator=(const int i) const { vInt o = i; __sfpi_store(v, o.k, o.v); }
  void operator=(const unsigned int i) const { vUInt o = i; __sfpi_store(v, o.k, o.v); }
  vFloat operator-() const { vFloat r; r.v = __sfpi_op("neg", k, v, 0, -1); return r; }
  vFloat operator+(const vFloat b) const { vFloat a = *this; return a + b; }
  vFloat operator+(const float b) const { vFloat a = *this; return a + b; }
  vFloat operator-(const vFloat b) const { vFloat a = *this; return a - b; }
  vFloat operator-(const float b) const { vFloat a = *this; return a - b; }
  vFloat operator*(const vFloat b) const { vFloat a = *this; return a * b; }
  vFloat operator*(const float b) const { vFloat a = *this; return a * b; }
  __vCond operator<(const vFloat b) const { vFloat a = *this; return a < b; }
  __vCond operator<(const float b) const { vFloat a = *this; return a < b; }
  __vCond operator<=(const vFloat b) const { vFloat a = *this; return a <= b; }
  __vCond operator<=(const float b) const { vFloat a = *this; return a <= b; }
  __vCond operator>(const vFloat b) const { vFloat a = *this; return a > b; }
  __vCond operator>(const float b) const { vFloat a = *this; return a > b; }
  __vCond operator>=(const vFloat b) const { vFloat a = *this; return a >= b; }
  __vCond operator>=(const float b) const { vFloat a = *this; return a >= b; }
  __vCond operator==(const vFloat b) const { vFloat a = *this; return a == b; }
  __vCond operator==(const float b) const { vFloat a = *this; return a == b; }
  __vCond operator!=(const vFloat b) const { vFloat a = *this; return a != b; }
  __vCond operator!=(const float b) const { vFloat a = *this; return a != b; }
};
// A constant register. The programmable ones (LReg 12..14, vConst{Float,Int}Prgm0..2) are also
// assigned: the value is loaded into LReg 0 with SFPLOADI and copied with SFPCONFIG (sfpi_imp.h
// __vConstFloat::operator=). The load is sfpi-gcc's choice for a 32-bit value (gold coverage.S
// test_assign_prgm_const): FLOATB when the low half is zero, SHORT / USHORT for an int that fits,
// else UPPER then LOWER (a float that is exactly an FP16A value stays a pair here: the same bits). The words are issued directly, which flushes the SFPI trace first, so no
// traced value is live in LReg 0 then (docs/sfpi.md).
#define __SFPI_PRGM_ASSIGN \
  void __config() const { \
    if (v < 12 || v > 14) __sfpi_unsupported("assignment to a fixed constant register"); \
    TT_SFPCONFIG(0, v, 0); \
  } \
  void operator=(const float f) const { \
    const unsigned int bits = __builtin_bit_cast(unsigned int, f); \
    if ((bits & 0xFFFF) == 0) { TT_SFPLOADI(0, 0, bits >> 16); } \
    else { TT_SFPLOADI(0, 8, (bits >> 16) & 0xFFFF); TT_SFPLOADI(0, 10, bits & 0xFFFF); } \
    __config(); \
  } \
  void operator=(const double f) const { *this = static_cast<float>(f); } \
  void operator=(const int i) const { \
    const unsigned int bits = static_cast<unsigned int>(i); \
    if (i >= -32768 && i <= 32767) { TT_SFPLOADI(0, 4, bits & 0xFFFF); } \
    else if (bits <= 0xFFFF) { TT_SFPLOADI(0, 2, bits); } \
    else { TT_SFPLOADI(0, 8, (bits >> 16) & 0xFFFF); TT_SFPLOADI(0, 10, bits & 0xFFFF); } \
    __config(); \
  } \
  void operator=(const unsigned int i) const { *this = static_cast<int>(i); } \
  void operator=(const s2vFloat16 h) const { \
    TT_SFPLOADI(0, h.k == 8 ? 1 : 0, __sfpi_imm16(h.v)); \
    __config(); \
  }
struct __vConstFloat {
  int k;
  int v;
  __SFPI_PRGM_ASSIGN
  vFloat operator+(const vFloat b) const { vFloat a = *this; return a + b; }
  vFloat operator-(const vFloat b) const { vFloat a = *this; return a - b; }
  vFloat operator*(const vFloat b) const { vFloat a = *this; return a * b; }
  __vCond operator<(const vFloat b) const { vFloat a = *this; return a < b; }
  __vCond operator<=(const vFloat b) const { vFloat a = *this; return a <= b; }
  __vCond operator>(const vFloat b) const { vFloat a = *this; return a > b; }
  __vCond operator>=(const vFloat b) const { vFloat a = *this; return a >= b; }
  __vCond operator==(const vFloat b) const { vFloat a = *this; return a == b; }
  __vCond operator!=(const vFloat b) const { vFloat a = *this; return a != b; }
};
struct __vConstInt {
  int k;
  int v;
  __SFPI_PRGM_ASSIGN
  vInt operator+(const vInt b) const { vInt a = *this; return a + b; }
  vInt operator+(const int b) const { vInt a = *this; return a + b; }
  vInt operator-(const vInt b) const { vInt a = *this; return a - b; }
  vInt operator-(const int b) const { vInt a = *this; return a - b; }
  vInt operator&(const vInt b) const { vInt a = *this; return a & b; }
  vInt operator|(const vInt b) const { vInt a = *this; return a | b; }
  vInt operator^(const vInt b) const { vInt a = *this; return a ^ b; }
  // sfpi.h __vConstIntBase: << is an SFPSHFT of a copy of the register; >> shifts it right as a vUInt
  vInt operator<<(const int amt) const { vInt a = *this; return a << amt; }
  vUInt operator>>(const int amt) const { vInt a = *this; vUInt u; u.v = a.v; return u >> amt; }
};
// l_reg[LRegs::LRegN] (sfpi.h __LReg): reading gives the value LReg N holds on entry (it stays in N);
// writing leaves a value in LReg N for what runs next.
enum class LRegs { LReg0 = 0, LReg1 = 1, LReg2 = 2, LReg3 = 3, LReg4 = 4, LReg5 = 5, LReg6 = 6, LReg7 = 7, LRegCount = 8 };
struct __vLReg {
  int k;
  int v;
  void operator=(const __vAny o) const { __sfpi_lwrite(v, o.k, o.v); }
  // in_use() (sfpi_classes.h, sfpi 2026: \`*this = *this\`): LReg N is written with what it holds, so the
  // value TTI_ code left there is live at this point and the register is not given to another value before.
  void in_use() const { __sfpi_lwrite(v, 6, v); }
};
struct __LReg {
  __vLReg operator[](const LRegs r) const { return __vLReg{6, static_cast<int>(r)}; }
};
constexpr __LReg l_reg = {};
// The fixed constant registers (VectorUnit.md; sfpi CREG_IDX_*): no instruction.
constexpr __vConstFloat vConst0p8373 = {3, 8}, vConst0 = {3, 9}, vConst1 = {3, 10}, vConstNeg1 = {3, 11};
constexpr __vConstInt vConstTileId = {3, 15};
constexpr __vConstFloat vConstFloatPrgm0 = {3, 12}, vConstFloatPrgm1 = {3, 13}, vConstFloatPrgm2 = {3, 14};
constexpr __vConstInt vConstIntPrgm0 = {3, 12}, vConstIntPrgm1 = {3, 13}, vConstIntPrgm2 = {3, 14};
#undef __SFPI_PRGM_ASSIGN
// reinterpret<T>(x) (sfpi_lib.h; the 7.x spelling): the same register seen as another type.
template <class T, class S> inline T reinterpret(const S s) { T r; r.v = __sfpi_rvalue(s.k, s.v); return r; }
// as<T>(x): the newer sfpi spelling of the same
template <class T, class S> inline T as(const S s) { T r; r.v = __sfpi_rvalue(s.k, s.v); return r; }
inline vFloat __sfpi_mk(const int id) { vFloat r; r.v = id; return r; }
// A float on the left of a vFloat operator (sfpi.h's free operators: + and * commute, - loads the
// scalar, a compare swaps its sides). The right operand binds as __vAny so its tag survives; an integer
// vector there (int on the left of a vInt / vUInt) is not compiled yet and says so at the user's line.
inline vFloat __sfpi_lhs_f(const __vAny b) {
  if (b.k == 5) __sfpi_unsupported("a scalar on the left of an integer vector operator");
  vFloat r; r.k = b.k; r.v = b.v; return r;
}
// An int on the left (sfpi.h: int32_t op vInt / vUInt): an integer vector computes in integers (the result
// keeps the integer tag), a float vector takes the int as a float.
inline vFloat operator+(const int a, const __vAny b) {
  if (b.k == 5) { vInt x; x.v = b.v; vInt r = x + a; vFloat o; o.k = 5; o.v = r.v; return o; }
  return __sfpi_lhs_f(b) + static_cast<float>(a);
}
inline vFloat operator-(const int a, const __vAny b) {
  if (b.k == 5) { vInt x; x.v = b.v; vInt c = a; vInt r = c - x; vFloat o; o.k = 5; o.v = r.v; return o; }
  vFloat c = static_cast<float>(a); return c - __sfpi_lhs_f(b);
}
// An int on the left of a vInt / vUInt bitwise operator or compare (sfpi.h's free operators): & | ^
// commute, a compare swaps its sides (gold coverage.S test_bitwise, test_icmp_i_rev).
#define __SFPI_INT_LHS(T, S) \
  inline T operator&(const int a, const T b) { return b & static_cast<S>(a); } \
  inline T operator|(const int a, const T b) { return b | a; } \
  inline T operator^(const int a, const T b) { return b ^ a; } \
  inline __vCond operator==(const int a, const T b) { return b == a; } \
  inline __vCond operator!=(const int a, const T b) { return b != a; } \
  inline __vCond operator<(const int a, const T b) { return b > a; } \
  inline __vCond operator<=(const int a, const T b) { return b >= a; } \
  inline __vCond operator>(const int a, const T b) { return b < a; } \
  inline __vCond operator>=(const int a, const T b) { return b <= a; }
__SFPI_INT_LHS(vInt, int)
__SFPI_INT_LHS(vUInt, unsigned int)
#undef __SFPI_INT_LHS
inline vFloat operator+(const float a, const __vAny b) { return __sfpi_lhs_f(b) + a; }
inline vFloat operator*(const float a, const __vAny b) { return __sfpi_lhs_f(b) * a; }
inline vFloat operator-(const float a, const __vAny b) { vFloat c = a; return c - __sfpi_lhs_f(b); }
inline __vCond operator==(const float a, const __vAny b) { return __sfpi_lhs_f(b) == a; }
inline __vCond operator!=(const float a, const __vAny b) { return __sfpi_lhs_f(b) != a; }
inline __vCond operator<(const float a, const __vAny b) { return __sfpi_lhs_f(b) > a; }
inline __vCond operator<=(const float a, const __vAny b) { return __sfpi_lhs_f(b) >= a; }
inline __vCond operator>(const float a, const __vAny b) { return __sfpi_lhs_f(b) < a; }
inline __vCond operator>=(const float a, const __vAny b) { return __sfpi_lhs_f(b) <= a; }
inline void __sfpi_cond(const __vCond c) { __sfpi_cc_cond(c.k, c.v); }
// Library (sfpi_lib.h): the functions compiled so far; the others are reported at their call.
// abs: SFPABS FLOAT (1) for a vFloat, INT (0) for a vInt. Overloads on vFloat / vInt are not told apart
// by axsim's C++ front end, so the operand's tag decides and an integer result keeps the integer tag.
inline vFloat abs(const __vAny a) {
  if (a.k == 5) { vFloat r; r.k = 5; r.v = __sfpi_op("iabs", a.k, a.v, 0, -1); return r; }
  return __sfpi_mk(__sfpi_op("fabs", a.k, a.v, 0, -1));
}
// sfpi_lib.h abs(vInt) returns a vInt: integer operators apply to the result (abs(v) + 1 is SFPIADD;
// gold coverage.S test_abs). An exact vInt operand takes this overload.
inline vInt abs(const vInt a) { vInt r; r.v = __sfpi_op("iabs", a.k, a.v, 0, -1); return r; }
inline vFloat setsgn(const vFloat a, const int sgn) { return __sfpi_mk(__sfpi_opi("setsgn", a.k, a.v, sgn)); }
inline vFloat setexp(const vFloat a, const unsigned int e) { return __sfpi_mk(__sfpi_opi("setexp", a.k, a.v, static_cast<int>(e))); }
inline vInt exexp(const vFloat a) { vInt r; r.v = __sfpi_op("exexp", a.k, a.v, 0, -1); return r; }
inline vInt exexp_nodebias(const vFloat a) { vInt r; r.v = __sfpi_op("exexp_nodebias", a.k, a.v, 0, -1); return r; }
// sfpi_lib.h: addexp = SFPDIVP2 ADD (exponent += imm, wrapping, Inf/NaN kept); setsgn(v, vFloat) takes the
// sign of the second operand (SFPSETSGN register form); vec_min_max / vec_swap = SFPSWAP VEC_MIN_MAX / SWAP,
// both variables rewritten in place; subvec_shflror1 / subvec_shflshr1 = SFPSHFT2 SUBVEC_SHFLROR1 (3) /
// SUBVEC_SHFLSHR1 (4); approx_recip / approx_exp (Blackhole) = SFPARECIP RECIP (0) or COND_RECIP (1) / EXP (2);
// lut / lut_sign = SFPLUT (table in LRegs 0..2, input in LReg 3; SGN_RETAIN 4 / SGN_UPDATE 0).
inline vFloat setsgn(const vFloat a, const vFloat s) { return __sfpi_mk(__sfpi_op("setsgn_v", a.k, a.v, s.k, s.v)); }
// copysgn(v, sgn) (sfpi_lib.h of later sfpi versions; the register form of setsgn under its new name):
// v's magnitude with sgn's sign bit, SFPSETSGN register form. sfpi accepts a float (or vSMag) v and a
// float or integer sgn; for an integer v it returns a vSMag, a type axsim does not model: said at the call.
inline vFloat copysgn(const __vAny a, const __vAny s) {
  if (a.k == 5) __sfpi_unsupported("copysgn of an integer vector (sfpi returns a vSMag, which axsim does not model)");
  return __sfpi_mk(__sfpi_op("setsgn_v", a.k, a.v, s.k, s.v));
}
// ExponentMode / MantissaMode (later sfpi_lib.h): exexp(v, Biased) = SFPEXEXP NODEBIAS (exexp_nodebias),
// exman(v[, FractionOnly]) = SFPEXMAN PAD9 (exman9), exman(v, WithUnitBit / ImplicitOne) = PAD8 (exman8).
// sfpi's exman returns a vMag (an unsigned magnitude); here a vInt: the field is below 2^24, so the
// integer operations kernels apply to it (shifts, adds, compares) give the same bits.
enum class ExponentMode { Unbiased = 0, Biased = 1 };
enum class MantissaMode { FractionOnly = 0, WithUnitBit = 1, ImplicitOne = 1 };
inline vInt exexp(const vFloat a, const ExponentMode m) {
  vInt r; r.v = __sfpi_op(m == ExponentMode::Biased ? "exexp_nodebias" : "exexp", a.k, a.v, 0, -1); return r;
}
inline vInt exman(const vFloat a) { vInt r; r.v = __sfpi_op("exman9", a.k, a.v, 0, -1); return r; }
inline vInt exman(const vFloat a, const MantissaMode m) {
  vInt r; r.v = __sfpi_op(m == MantissaMode::FractionOnly ? "exman9" : "exman8", a.k, a.v, 0, -1); return r;
}
// is_nan(v) (later sfpi_lib.h): biased exponent 255 and a non-zero fraction, as sfpi composes it.
inline __vCond is_nan(const vFloat v) { return exexp(v, ExponentMode::Biased) >= 255 && exman(v) != 0; }
inline vFloat addexp(const vFloat a, const int e) { return __sfpi_mk(__sfpi_opi("addexp", a.k, a.v, e)); }
inline void vec_min_max(vFloat &a, vFloat &b) {
  const int r = __sfpi_swap(1, a.k, a.v, b.k, b.v);
  a.k = 1; a.v = r; b.k = 1; b.v = r + 1;
}
inline void vec_swap(vFloat &a, vFloat &b) {
  const int r = __sfpi_swap(0, a.k, a.v, b.k, b.v);
  a.k = 1; a.v = r; b.k = 1; b.v = r + 1;
}
// rand(): a vector of random bits from each lane's PRNG, advancing it — SFPMOV FROM_SPECIAL (Mod1 8) of
// source 9 (sfpi_lib.h of later sfpi versions: __builtin_rvtt_sfpreadconfig(SFPCONFIG_SRC_RAND = 9), defined
// for Blackhole only; SFPMOV.md: case 9, AdvancePRNG()).
#ifdef ARCH_BLACKHOLE
inline vInt rand() { vInt r; r.v = __sfpi_rand(); return r; }
#else
inline vInt rand() { __sfpi_bad("rand() exists on Blackhole only (sfpi_lib.h defines it for Blackhole)"); return vInt(); }
#endif
// subvec_transp = SFPTRANSP: the four variables (in LRegs 0..3, rewritten in place) exchange their
// 8-lane subvectors as a 4x4 transpose (sfpi_lib.h; SFPTRANSP.md). One overload per class: the tag says
// whether each variable holds a float or an integer afterwards.
#define __SFPI_TRANSP(T, K) \
inline void subvec_transp(T &a, T &b, T &c, T &d) { \
  const int r = __sfpi_transp(a.k, a.v, b.k, b.v, c.k, c.v, d.k, d.v); \
  a.k = K; a.v = r; b.k = K; b.v = r + 1; c.k = K; c.v = r + 2; d.k = K; d.v = r + 3; \
}
__SFPI_TRANSP(vFloat, 1)
__SFPI_TRANSP(vInt, 5)
__SFPI_TRANSP(vUInt, 5)
#undef __SFPI_TRANSP
inline vFloat subvec_shflror1(const vFloat a) { return __sfpi_mk(__sfpi_op("shflror1", a.k, a.v, 0, -1)); }
inline vFloat subvec_shflshr1(const vFloat a) { return __sfpi_mk(__sfpi_op("shflshr1", a.k, a.v, 0, -1)); }
template <bool uncond = true>
inline vFloat approx_recip(const vFloat a) { return __sfpi_mk(__sfpi_op(uncond ? "arecip" : "arecip_cond", a.k, a.v, 0, -1)); }
inline vFloat approx_exp(const vFloat a) { return __sfpi_mk(__sfpi_op("aexp", a.k, a.v, 0, -1)); }
// exman8 / exman9 = SFPEXMAN PAD8 (0) / PAD9 (1); setexp / setman with a vector = SFPSETEXP / SFPSETMAN
// register form in the exponent's / mantissa's register (copied first when it lives on); setman with an
// immediate: SFPSETMAN imm12 when it fits 12 bits, else the value is loaded and the register form used
// (gold coverage.S); int32_to_float = SFPCAST (round_mode 0 RNE, else stochastic); float_to_* =
// SFP_STOCH_RND (round_mode 0 to even, else stochastic; Mod1 FP16A 0, FP16B 1, UINT8 2, INT8 3, UINT16 6,
// INT16 7); lz / lz_nosgn = SFPLZ 0 / 4; shft = SFPSHFT (a left shift by a signed amount).
inline vInt exman8(const vFloat a) { vInt r; r.v = __sfpi_op("exman8", a.k, a.v, 0, -1); return r; }
inline vInt exman9(const vFloat a) { vInt r; r.v = __sfpi_op("exman9", a.k, a.v, 0, -1); return r; }
inline vFloat setexp(const vFloat a, const vInt e) { return __sfpi_mk(__sfpi_op("setexp_v", a.k, a.v, e.k, e.v)); }
inline vFloat setman(const vFloat a, const vInt m) { return __sfpi_mk(__sfpi_op("setman_v", a.k, a.v, m.k, m.v)); }
inline vFloat setman(const vFloat a, const unsigned int m) {
  if (m <= 0xfff) return __sfpi_mk(__sfpi_opi("setman", a.k, a.v, static_cast<int>(m)));
  vUInt t = m;
  return __sfpi_mk(__sfpi_op("setman_v", a.k, a.v, t.k, t.v));
}
inline vFloat setman(const vFloat a, const int m) { return setman(a, static_cast<unsigned int>(m)); }
inline vFloat int32_to_float(const vInt a, const int round_mode = 1) {
  return __sfpi_mk(__sfpi_opi("cast", a.k, a.v, round_mode ? 1 : 0));
}
// RoundMode (later sfpi_lib.h) as the rounding argument: on Wormhole / Blackhole Nearest = NearestAway and the
// deprecated NearestEven are one value, which selects SFPCAST RNE / SFP_STOCH_RND's round-to-nearest (the old
// round_mode 0); NearestStochastic the stochastic forms (round_mode 1).
enum class RoundMode { NearestAway = 0, Nearest = 0, NearestEven = 0, NearestStochastic = 1 };
inline vFloat int32_to_float(const vInt a, const RoundMode m) {
  return int32_to_float(a, m == RoundMode::NearestStochastic ? 1 : 0);
}
#define __SFPI_STOCH(NAME, MOD) \\
  inline vUInt NAME(const vFloat a, const int round_mode = 1) { \\
    vUInt r; r.v = __sfpi_opi("stoch", a.k, a.v, (MOD) | (round_mode ? 0x10 : 0)); return r; \\
  } \\
  inline vUInt NAME(const vFloat a, const RoundMode m) { return NAME(a, m == RoundMode::NearestStochastic ? 1 : 0); }
__SFPI_STOCH(float_to_fp16a, 0)
__SFPI_STOCH(float_to_fp16b, 1)
__SFPI_STOCH(float_to_uint8, 2)
__SFPI_STOCH(float_to_int8, 3)
__SFPI_STOCH(float_to_uint16, 6)
__SFPI_STOCH(float_to_int16, 7)
#undef __SFPI_STOCH
// int32_to_uint8 / int32_to_int8 (sfpi_lib.h): SFP_STOCH_RND Mod1 INT32_TO_UINT8 4 / INT32_TO_INT8 5 on the
// sign-magnitude integer, |x| shifted right by descale (an immediate: Mod1 | IMM8 8; or a vector's low
// 5 bits), rounded (round_mode 0: half away from zero, else stochastic) and clamped to 0..255 / +-127
inline vUInt int32_to_uint8(const vInt in, const unsigned int descale, const int round_mode = 1) {
  vUInt r; r.v = __sfpi_opi("istoch", in.k, in.v, 4 | 8 | (round_mode ? 0x10 : 0) | (static_cast<int>(descale) << 8)); return r;
}
inline vUInt int32_to_int8(const vInt in, const unsigned int descale, const int round_mode = 1) {
  vUInt r; r.v = __sfpi_opi("istoch", in.k, in.v, 5 | 8 | (round_mode ? 0x10 : 0) | (static_cast<int>(descale) << 8)); return r;
}
inline vUInt int32_to_uint8(const vInt in, const vUInt descale, const int round_mode = 1) {
  vUInt r; r.v = __sfpi_op(round_mode ? "i2u8s" : "i2u8", in.k, in.v, descale.k, descale.v); return r;
}
inline vUInt int32_to_int8(const vInt in, const vUInt descale, const int round_mode = 1) {
  vUInt r; r.v = __sfpi_op(round_mode ? "i2i8s" : "i2i8", in.k, in.v, descale.k, descale.v); return r;
}
inline vInt lz(const __vAny a) { vInt r; r.v = __sfpi_op("lz", a.k, a.v, 0, -1); return r; }
inline vInt lz_nosgn(const __vAny a) { vInt r; r.v = __sfpi_op("lz_nosgn", a.k, a.v, 0, -1); return r; }
inline vUInt shft(const vUInt v, const vInt amt) { return v << amt; }
inline vUInt shft(const vUInt v, const int amt) { return v << amt; }
// lut2 / lut2_sign = SFPLUTFP32: the six-register forms, table in LRegs 0..2 and 4..6, input in LReg 3;
// FP32 entries (vFloat: Mod0 FP32_3ENTRY 0) or FP16 pairs (vUInt: FP16_6ENTRY_TABLE1 2 for mode 1, else
// TABLE2 3), | SGN_RETAIN 4 for lut2. (The three-register FP16 form is below.) The six-register forms differ
// only in the operands' type, which axsim's C++ front end does not tell apart in overloads: the tag of
// the first table operand decides (5 = an integer vector: FP16 pairs).
inline vFloat __sfpi_lut2f(const int mod, const vFloat v, const __vAny a0, const __vAny a1, const __vAny a2,
                           const __vAny b0, const __vAny b1, const __vAny b2) {
  return __sfpi_mk(__sfpi_lut2(mod, v.k, v.v, a0.k, a0.v, a1.k, a1.v, a2.k, a2.v, b0.k, b0.v, b1.k, b1.v, b2.k, b2.v));
}
#define __SFPI_LUT2(NAME, SGN) \\
  inline vFloat NAME(const vFloat v, const __vAny a0, const __vAny a1, const __vAny a2, const __vAny b0, \\
                     const __vAny b1, const __vAny b2) { \\
    return __sfpi_lut2f((a0.k == 5 ? 2 : 0) | (SGN), v, a0, a1, a2, b0, b1, b2); \\
  } \\
  inline vFloat NAME(const vFloat v, const __vAny a0, const __vAny a1, const __vAny a2, const __vAny b0, \\
                     const __vAny b1, const __vAny b2, const int mode) { \\
    if (a0.k != 5) __sfpi_unsupported("lut2 with FP32 table entries and a mode"); \\
    return __sfpi_lut2f((mode == 1 ? 2 : 3) | (SGN), v, a0, a1, a2, b0, b1, b2); \\
  }
__SFPI_LUT2(lut2, 4)
__SFPI_LUT2(lut2_sign, 0)
#undef __SFPI_LUT2
// The three-register form: FP16 pairs (slope high, offset low) in LRegs 0..2, input in LReg 3 —
// SFPLUTFP32 FP16_3ENTRY_TABLE (10) | SGN_RETAIN (4) for lut2, 10 for lut2_sign (sfpi_lib.h).
inline vFloat lut2(const vFloat v, const vUInt l0, const vUInt l1, const vUInt l2) {
  return __sfpi_mk(__sfpi_lut2_3(14, v.k, v.v, l0.k, l0.v, l1.k, l1.v, l2.k, l2.v));
}
inline vFloat lut2_sign(const vFloat v, const vUInt l0, const vUInt l1, const vUInt l2) {
  return __sfpi_mk(__sfpi_lut2_3(10, v.k, v.v, l0.k, l0.v, l1.k, l1.v, l2.k, l2.v));
}
inline vFloat lut(const vFloat v, const vUInt l0, const vUInt l1, const vUInt l2) {
  return __sfpi_mk(__sfpi_lut(4, v.k, v.v, l0.k, l0.v, l1.k, l1.v, l2.k, l2.v));
}
inline vFloat lut_sign(const vFloat v, const vUInt l0, const vUInt l1, const vUInt l2) {
  return __sfpi_mk(__sfpi_lut(0, v.k, v.v, l0.k, l0.v, l1.k, l1.v, l2.k, l2.v));
}
}
// The library functions tt-llk calls unqualified from ckernel::sfpu (found there by argument-dependent
// lookup, which axsim's C++ front end does not do yet): made visible at global scope.
using sfpi::lut;
using sfpi::lut_sign;
using sfpi::setsgn;
using sfpi::setexp;
using sfpi::exexp;
using sfpi::exexp_nodebias;
using sfpi::exman;
using sfpi::copysgn;
using sfpi::addexp;
using sfpi::vec_min_max;
using sfpi::lut2;
using sfpi::lut2_sign;
using sfpi::exman8;
using sfpi::exman9;
using sfpi::setman;
using sfpi::int32_to_float;
using sfpi::float_to_fp16a;
using sfpi::float_to_fp16b;
using sfpi::float_to_int16;
using sfpi::float_to_uint16;
using sfpi::int32_to_int8;
using sfpi::int32_to_uint8;
// Predication (sfpi.h v_if family): control passes through every block; the tracer keeps the CC stack.
#define v_if(cond) { __sfpi_cc_if(); sfpi::__sfpi_cond((cond)); {
#define v_elseif(cond) } __sfpi_cc_elseif(); sfpi::__sfpi_cond((cond)); {
#define v_else } __sfpi_cc_else(); {
#define v_endif } __sfpi_cc_endif(); }
// v_block opens a CC level without a condition; each v_and narrows it; v_endblock pops it.
#define v_block { __sfpi_cc_if(); {
#define v_and(cond) sfpi::__sfpi_cond((cond))
#define v_endblock } __sfpi_cc_endif(); }
`;
