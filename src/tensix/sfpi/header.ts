/**
 * The SFPI vector classes as axsim's own C++ (served as the virtual include `axsim_sfpi_vector.h`,
 * included by the LLK environment's `sfpi.h`). Each operation calls an `__sfpi_*` builtin of the
 * tracer (src/tensix/sfpi/trace.ts), which records it in the SSA trace and returns the value's id;
 * the passes (src/tensix/sfpi/passes.ts) turn the trace into instructions. The names and the
 * behaviour follow tenstorrent/sfpi include/sfpi.h, sfpi_classes.h, sfpi_lib.h (docs/sfpi.md); the
 * text is ours. Constructs not compiled yet call `__sfpi_unsupported`, an Unsupported error at the
 * user's line.
 */
export const SFPI_VECTOR_H = `// axsim SFPI: vector types, dst_reg[] elements, constants, v_if (docs/sfpi.md)
// Every SFPI operand is {k, v}: k = 1 a traced value (v = its id), 2 a dst_reg element (v = row),
// 3 a constant LReg (v = its number). The builtins read the pair, so an operand reaching a
// function through any overload is still what it is.
#pragma once
namespace sfpi {
struct vFloat;
struct __vCond {
  int k;
  int v;
  __vCond operator&&(const __vCond o) const { __sfpi_unsupported("'&&' of SFPI conditions"); return *this; }
  __vCond operator||(const __vCond o) const { __sfpi_unsupported("'||' of SFPI conditions"); return *this; }
  __vCond operator!() const { __sfpi_unsupported("'!' of an SFPI condition"); return *this; }
};
struct __vDReg;
struct vFloat {
  int k;
  int v;
  vFloat() { k = 1; v = -1; }
  vFloat(const float f) { k = 1; v = __sfpi_fimm(f); }
  vFloat(const double f) { k = 1; v = __sfpi_fimm(static_cast<float>(f)); }
  vFloat(const __vDReg d) { k = 1; v = __sfpi_value(d.k, d.v); }
  vFloat &operator=(const vFloat o) { v = __sfpi_assign(k, v, o.k, o.v); k = 1; return *this; }
  vFloat &operator=(const float f) { vFloat o = f; return __set(o); }
  vFloat &operator=(const double f) { vFloat o = f; return __set(o); }
  vFloat &operator=(const __vDReg d) { vFloat o = d; return __set(o); }
  vFloat &__set(const vFloat o) { v = __sfpi_assign(k, v, o.k, o.v); k = 1; return *this; }
  vFloat operator-() const { vFloat r; r.v = __sfpi_op("neg", k, v, 0, -1); return r; }
  vFloat &operator+=(const vFloat b) { vFloat r; r.v = __sfpi_op("add", k, v, b.k, b.v); return __set(r); }
  vFloat &operator-=(const vFloat b) { vFloat r; r.v = __sfpi_op("sub", k, v, b.k, b.v); return __set(r); }
  vFloat &operator*=(const vFloat b) { vFloat r; r.v = __sfpi_op("mul", k, v, b.k, b.v); return __set(r); }
};
struct vInt {
  int k;
  int v;
  vInt() { k = 1; v = -1; }
  vInt(const int i) { __sfpi_unsupported("vInt"); }
  vInt(const __vDReg d) { __sfpi_unsupported("vInt loads from dst_reg"); }
};
struct vUInt {
  int k;
  int v;
  vUInt() { k = 1; v = -1; }
  vUInt(const unsigned int i) { __sfpi_unsupported("vUInt"); }
  vUInt(const __vDReg d) { __sfpi_unsupported("vUInt loads from dst_reg"); }
};
struct __vDReg {
  int k;
  int v;
  void operator=(const vFloat o) const { __sfpi_store(v, o.k, o.v); }
  void operator=(const float f) const { vFloat o = f; __sfpi_store(v, o.k, o.v); }
  void operator=(const double f) const { vFloat o = f; __sfpi_store(v, o.k, o.v); }
  void operator=(const __vDReg o) const { __sfpi_store(v, o.k, o.v); }
  void operator=(const vInt o) const { __sfpi_unsupported("vInt"); }
  void operator=(const vUInt o) const { __sfpi_unsupported("vUInt"); }
  vFloat operator-() const { vFloat r; r.v = __sfpi_op("neg", k, v, 0, -1); return r; }
};
struct __vConstFloat {
  int k;
  int v;
};
// The fixed constant registers (VectorUnit.md; sfpi_constants.h CREG_IDX_*): no instruction.
constexpr __vConstFloat vConst0p8373 = {3, 8}, vConst0 = {3, 9}, vConst1 = {3, 10}, vConstNeg1 = {3, 11};
inline vFloat __sfpi_mk(const int id) { vFloat r; r.v = id; return r; }
#define __SFPI_BIN(OP, NAME, TA, TB) \
  inline vFloat operator OP(const TA a, const TB b) { return __sfpi_mk(__sfpi_op(NAME, a.k, a.v, b.k, b.v)); }
#define __SFPI_BINF(OP, NAME, T) \
  inline vFloat operator OP(const T a, const float b) { vFloat c = b; return __sfpi_mk(__sfpi_op(NAME, a.k, a.v, c.k, c.v)); } \
  inline vFloat operator OP(const float a, const T b) { vFloat c = a; return __sfpi_mk(__sfpi_op(NAME, c.k, c.v, b.k, b.v)); }
#define __SFPI_OPS(OP, NAME) \
  __SFPI_BIN(OP, NAME, vFloat, vFloat) __SFPI_BIN(OP, NAME, vFloat, __vDReg) __SFPI_BIN(OP, NAME, __vDReg, vFloat) \
  __SFPI_BIN(OP, NAME, __vDReg, __vDReg) __SFPI_BIN(OP, NAME, vFloat, __vConstFloat) \
  __SFPI_BIN(OP, NAME, __vConstFloat, vFloat) __SFPI_BIN(OP, NAME, __vDReg, __vConstFloat) \
  __SFPI_BIN(OP, NAME, __vConstFloat, __vDReg) __SFPI_BINF(OP, NAME, vFloat) __SFPI_BINF(OP, NAME, __vDReg)
__SFPI_OPS(+, "add")
__SFPI_OPS(-, "sub")
__SFPI_OPS(*, "mul")
#define __SFPI_CMP(OP, NAME) \
  inline __vCond operator OP(const vFloat a, const vFloat b) { return __vCond{1, __sfpi_cmp(NAME, a.k, a.v, b.k, b.v)}; } \
  inline __vCond operator OP(const vFloat a, const float b) { return __vCond{1, __sfpi_cmpf(NAME, a.k, a.v, b)}; }
__SFPI_CMP(<, "lt")
__SFPI_CMP(<=, "le")
__SFPI_CMP(>, "gt")
__SFPI_CMP(>=, "ge")
__SFPI_CMP(==, "eq")
__SFPI_CMP(!=, "ne")
// Library (sfpi_lib.h): the functions compiled so far; the others are reported at their call.
inline vFloat abs(const vFloat a) { return __sfpi_mk(__sfpi_op("fabs", a.k, a.v, 0, -1)); }
inline vFloat setsgn(const vFloat a, const int sgn) { return __sfpi_mk(__sfpi_opi("setsgn", a.k, a.v, sgn)); }
inline vFloat setexp(const vFloat a, const unsigned int e) { return __sfpi_mk(__sfpi_opi("setexp", a.k, a.v, static_cast<int>(e))); }
inline vInt exexp(const vFloat a) { vInt r; r.v = __sfpi_op("exexp", a.k, a.v, 0, -1); return r; }
inline vInt exexp_nodebias(const vFloat a) { vInt r; r.v = __sfpi_op("exexp_nodebias", a.k, a.v, 0, -1); return r; }
}
// Predication (sfpi.h v_if family): control passes through every block; the tracer keeps the CC stack.
#define v_if(cond) { __sfpi_cc_if(); const sfpi::__vCond __sfpi_c = (cond); {
#define v_elseif(cond) } __sfpi_cc_elseif(); __sfpi_cc_cond(cond); {
#define v_else } __sfpi_cc_else(); {
#define v_endif } __sfpi_cc_endif(); }
#define v_block { __sfpi_unsupported("v_block"); {
#define v_endblock } }
#define v_and(cond) __sfpi_unsupported("v_and")
`;
