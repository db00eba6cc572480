/**
 * The LLK environment's headers: axsim's own definitions of the names tt-llk's SFPU kernels
 * (`tt_llk_{wormhole_b0,blackhole}/common/inc/sfpu/ckernel_sfpu_*.h`) take from the rest of tt-llk
 * and tt-metal, served to the C++ front end as virtual include files (docs/tensix-llk.md).
 *
 * Nothing here is copied: the values (register numbers, enum values, config-register indices) are
 * facts the hardware and the kernels agree on, written in our own shape (namespaces rather than
 * structs of statics, etc.). Instruction macros (`TTI_*`, `TT_*`, `TT_OP_*`), `lltt::replay/record`
 * and `sfpi::dst_reg++` are builtins of the Tensix emitter (src/cfront, src/tensix/asm), so
 * `ckernel_ops.h` and `lltt.h` only document that.
 *
 * Upstream pages whose behaviour these definitions reproduce (tenstorrent/tt-llk 36b092e8):
 *   common/inc/ckernel.h, ckernel_defs.h, ckernel_instr_params.h, ckernel_addrmod.h, llk_lib/llk_defs.h,
 *   tests/helpers/include/llk_sfpu_types.h; tt-metal hw/inc/.../tensix_types.h (DataFormat).
 */
import type { Arch } from '../encoding.ts';
import { SFPI_VECTOR_H } from '../sfpi/header.ts';
import { ARCH_PARAMS } from '../state.ts';

/** Config register (32-bit word index) the PRNG seed is written to: PRNG_SEED_Seed_Val_ADDR32. */
export const PRNG_SEED_ADDR32 = 186;
/** Base of the memory-mapped Tensix config space as the RISC-V sees it (TENSIX_CFG_BASE). */
export const TENSIX_CFG_BASE = 0xffef0000;

const STD_CSTDINT = `// axsim LLK environment: <cstdint> (fixed-width integer types, in std:: and globally)
#pragma once
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef unsigned int size_t;
namespace std {
using ::int8_t; using ::uint8_t; using ::int16_t; using ::uint16_t;
using ::int32_t; using ::uint32_t; using ::int64_t; using ::uint64_t; using ::size_t;
}
`;

/** Standard headers the kernels include; what they need of them is provided by the front end. */
const STD_EMPTY = (name: string) =>
  `// axsim LLK environment: <${name}> — the parts kernels use are provided by the C++ front end\n#pragma once\n#include <cstdint>\n`;

/** <type_traits>: the front end builds in is_same_v, is_integral_v & co.; this adds the one trait tt-llk's
 * kernels use that it lacks. cfront's classes have no user-declared copy/move constructors, copy
 * assignments or destructors (docs/cfront.md), so every type it accepts is trivially copyable. */
const TYPE_TRAITS = `// axsim LLK environment: <type_traits> (the other traits are built into the C++ front end)
#pragma once
#include <cstdint>
namespace std {
template <typename T> struct is_trivially_copyable { static constexpr bool value = true; };
template <typename T> constexpr bool is_trivially_copyable_v = is_trivially_copyable<T>::value;
}
`;

function instrParams(arch: Arch): string {
  return `// axsim LLK environment: instruction parameter names (tt-llk common/inc/ckernel_instr_params.h).
// Written as namespaces: p_sfpu::LREG0 and ckernel::p_sfpu::LREG0 both resolve.
#pragma once
#include <cstdint>
namespace ckernel {
namespace p_sfpu {
// LReg numbers: L0..L7 general, 8..10 fixed constants (0.8373, 0.0, 1.0), 11..14 programmable,
// 15 = lane id * 2 (VectorUnit.md).
constexpr std::uint32_t LREG0 = 0, LREG1 = 1, LREG2 = 2, LREG3 = 3;
constexpr std::uint32_t LREG4 = 4, LREG5 = 5, LREG6 = 6, LREG7 = 7;
constexpr std::uint32_t LCONST_0_8373 = 8, LCONST_0 = 9, LCONST_1 = 10;
constexpr std::uint32_t LREG11 = 11, LREG12 = 12, LREG13 = 13, LREG14 = 14, LCONST_neg1 = 11;
constexpr std::uint32_t LTILEID = 15;
// BF16 / FP16A bit patterns of 1.0 and 0, and SFPEXEXP exponent-width selectors.
constexpr std::uint32_t kCONST_1_FP16B = 0x3F80, kCONST_1_FP16A = 0x3C00, kCONST_0 = 0;
constexpr std::uint32_t kCONST_Exp_8Bit = 0, kCONST_Exp_5Bit = 1;
}
namespace p_sfpswap {
// SFPSWAP Mod1 values (SFPSWAP.md).
constexpr std::uint32_t UNCONDITIONALLY = 0, ALL_ROWS_MAX = 1, ROWS_01_MAX = 2, ROWS_02_MAX = 3;
constexpr std::uint32_t ROWS_03_MAX = 4, ROW_0_MAX = 5, ROW_1_MAX = 6, ROW_2_MAX = 5, ROW_3_MAX = 6;
}
namespace p_exp {
// Fixed-point helpers of the exponential kernels: 3 fraction bits, BF16 bias constants.
constexpr std::uint32_t FRAC_BITS = 3, C23_73 = 0x4340, ADJ_EXP = 0xBD3F;
}
namespace p_setrwc {
// SETRWC fields: clear bits (A, B), counter-reset set (A=1, B=2, D=4, F=8), CR bits.
constexpr std::uint32_t CLR_NONE = 0, CLR_A = 1, CLR_B = 2, CLR_AB = 3;
constexpr std::uint32_t SET_A = 1, SET_B = 2, SET_AB = 3, SET_D = 4, SET_AD = 5, SET_BD = 6, SET_ABD = 7;
constexpr std::uint32_t SET_F = 8, SET_A_F = 9, SET_B_F = 10, SET_AB_F = 11, SET_D_F = 12, SET_AD_F = 13;
constexpr std::uint32_t SET_BD_F = 14, SET_ABD_F = 15;
constexpr std::uint32_t CR_A = 1, CR_B = 2, CR_AB = 3, CR_D = 4, CR_AD = 5, CR_BD = 6, CR_ABD = 7;
constexpr std::uint32_t C_TO_CR_MODE = 8;
}
namespace p_stall {
// STALLWAIT condition / block masks (no functional effect in the SFPU model); the wait mask differs
// between the generations (Blackhole's field is narrower).
${
  arch === 'wormhole'
    ? `constexpr std::uint32_t NONE = 0, THCON = 1, UNPACK0 = 2, UNPACK1 = 4, UNPACK = 6;
constexpr std::uint32_t PACK0 = 8, PACK1 = 0x10, PACK2 = 0x20, PACK3 = 0x40, PACK = 0x78, MATH = 0x80;
constexpr std::uint32_t SRCA_CLR = 0x100, SRCB_CLR = 0x200, SRCA_VLD = 0x400, SRCB_VLD = 0x800;
constexpr std::uint32_t XMOV = 0x1000, TRISC_CFG = 0x2000, SFPU1 = 0x4000, WAIT_SFPU = 0x4000;`
    : `constexpr std::uint32_t NONE = 0, THCON = 1, UNPACK0 = 2, UNPACK1 = 4, UNPACK = 6;
constexpr std::uint32_t PACK0 = 8, PACK = 8, MATH = 0x10;
constexpr std::uint32_t SRCA_CLR = 0x20, SRCB_CLR = 0x40, SRCA_VLD = 0x80, SRCB_VLD = 0x100;
constexpr std::uint32_t XMOV = 0x200, TRISC_CFG = 0x400, SFPU1 = 0x800, WAIT_SFPU = 0x800, CFGEXU = 0x1000;`
}
constexpr std::uint32_t STALL_TDMA = 1, STALL_SYNC = 2, STALL_PACK = 4, STALL_UNPACK = 8;
constexpr std::uint32_t STALL_XMOV = 0x10, STALL_THCON = 0x20, STALL_MATH = 0x40, STALL_CFG = 0x80;
constexpr std::uint32_t STALL_SFPU = 0x100, STALL_THREAD = 0x1ff, STALL_ON_ZERO = 1, STALL_ON_MAX = 2;
}
}
`;
}

function defs(): string {
  return `// axsim LLK environment: data formats and enums (tt-metal tensix_types.h, tt-llk ckernel_defs.h,
// llk_lib/llk_defs.h). Values are the hardware's format codes and the LLK API's enumerators.
#pragma once
#include <cstdint>
enum class DataFormat : std::uint8_t {
  Float32 = 0, Float16 = 1, Bfp8 = 2, Bfp4 = 3, Tf32 = 4, Float16_b = 5, Bfp8_b = 6, Bfp4_b = 7,
  Int32 = 8, UInt16 = 9, Lf8 = 10, Bfp2 = 11, Int8 = 14, Bfp2_b = 15, UInt32 = 24, Fp8_e4m3 = 0x1A,
  UInt8 = 30, RawUInt8 = 0xF0, RawUInt16 = 0xF1, RawUInt32 = 0xF2, Invalid = 0xFF
};
namespace ckernel {
enum class DataLayout { TILE = 0, ROW_MAJOR = 1 };
enum DstTileShape { Tile32x32 = 0, Tile32x16 = 1, Tile16x16 = 2 };
enum VectorMode { None = 0, R = 1, C = 2, RC = 4, RC_custom = 6, Invalid = 0xFF };
enum ReduceDim { REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR };
enum PoolType { SUM, AVG, MAX, MIN };
enum DstSync { SyncHalf = 0, SyncFull = 1 };
enum class ActivationType { Celu = 0, Elu = 1, Gelu = 2, Hardtanh = 3, Hardsigmoid = 4 };
enum class BinaryOp : std::uint8_t {
  ADD = 0, SUB = 1, MUL = 2, DIV = 3, RSUB = 4, POW = 5, XLOGY = 6, RSHFT = 7, LSHFT = 8, LOGICAL_RSHFT = 9,
  ADD_TOP_ROW = 10
};
// SFPLOAD / SFPSTORE InstrMod (SFPLOAD.md): the Dst element format of the access.
enum InstrModLoadStore {
  DEFAULT = 0, FP16A = 1, FP16B = 2, FP32 = 3, INT32 = 4, INT8 = 5, LO16 = 6, HI16 = 7,
  INT32_2S_COMP = 12, INT8_2S_COMP = 13, LO16_ONLY = 14, HI16_ONLY = 15
};
// SFPCAST Mod1 (Blackhole SFPCAST.md).
enum InstrModCast {
  INT32_TO_FP32_NEAREST_EVEN = 0, INT32_TO_FP32_STOCHASTIC = 1,
  INT32_2S_COMP_TO_INT_SIGN_MAGN = 2, INT_SIGN_MAGN_TO_INT32_2S_COMP = 3
};
enum SortDir : bool { ArgMax = false, ArgMin = true };
template <typename E>
constexpr std::uint32_t to_underlying(E e) { return static_cast<std::uint32_t>(e); }
constexpr std::uint32_t DstTileSizeLog2[3] = {6, 5, 4};
// The SFPLOAD/SFPSTORE format a Dst data format is accessed with (llk_defs.h).
template <DataFormat format>
constexpr InstrModLoadStore GetSfpLoadStoreInstrMod() {
  if (format == DataFormat::Float32 || format == DataFormat::Tf32) return InstrModLoadStore::FP32;
  if (format == DataFormat::Float16) return InstrModLoadStore::FP16A;
  if (format == DataFormat::Float16_b) return InstrModLoadStore::FP16B;
  if (format == DataFormat::Int8 || format == DataFormat::UInt8) return InstrModLoadStore::INT8;
  if (format == DataFormat::UInt16) return InstrModLoadStore::LO16;
  if (format == DataFormat::Int32 || format == DataFormat::UInt32) return InstrModLoadStore::INT32;
  return InstrModLoadStore::DEFAULT;
}
}
using ckernel::DataLayout;
`;
}

function addrmod(arch: Arch): string {
  const p = ARCH_PARAMS[arch];
  const idx = (base: number, stride: number) =>
    Array.from({ length: 8 }, (_, i) => base + i * stride).join(', ');
  return `// axsim LLK environment: ADDR_MOD slots (tt-llk common/inc/ckernel_addrmod.h).
// addr_mod_t{...}.set(n) programs slot n with three SETC16 writes to the thread config registers
// ADDR_MOD_AB_SEC<n> (SrcA incr 5:0, cr 6, clr 7; SrcB in bits 15:8), ADDR_MOD_DST_SEC<n>
// (Dst incr 9:0, cr 10, clr 11, c_to_cr 12; fidelity incr 14:13, clr 15) and ADDR_MOD_BIAS_SEC<n>
// (incr 3:0, clr 4). Register indices: ${arch} (ttsim tensix_regs.json, src/tensix/state.ts).
#pragma once
#include <cstdint>
#include "ckernel_ops.h"
namespace ckernel {
constexpr std::uint8_t ADDR_MOD_0 = 0, ADDR_MOD_1 = 1, ADDR_MOD_2 = 2, ADDR_MOD_3 = 3;
constexpr std::uint8_t ADDR_MOD_4 = 4, ADDR_MOD_5 = 5, ADDR_MOD_6 = 6, ADDR_MOD_7 = 7;
constexpr std::uint32_t AXSIM_ADDR_MOD_AB_REG[8] = {${idx(p.addrModAb, p.addrModAbStride)}};
constexpr std::uint32_t AXSIM_ADDR_MOD_DST_REG[8] = {${idx(p.addrModDst, 1)}};
constexpr std::uint32_t AXSIM_ADDR_MOD_BIAS_REG[8] = {${idx(p.addrModBias, 1)}};
struct addr_mod_t {
  struct src_t {
    std::uint8_t incr = 0;
    std::uint8_t clr = 0;
    std::uint8_t cr = 0;
    constexpr std::uint32_t bits() const { return (incr & 0x3F) | ((cr & 1) << 6) | ((clr & 1) << 7); }
  };
  struct dest_t {
    std::int16_t incr = 0;
    std::uint8_t clr = 0;
    std::uint8_t cr = 0;
    std::uint8_t c_to_cr = 0;
    constexpr std::uint32_t bits() const {
      return (incr & 0x3FF) | ((cr & 1) << 10) | ((clr & 1) << 11) | ((c_to_cr & 1) << 12);
    }
  };
  struct fidelity_t {
    std::uint8_t incr = 0;
    std::uint8_t clr = 0;
    constexpr std::uint32_t bits() const { return (incr & 3) | ((clr & 1) << 2); }
  };
  struct bias_t {
    std::uint8_t incr = 0;
    std::uint8_t clr = 0;
    constexpr std::uint32_t bits() const { return (incr & 0xF) | ((clr & 1) << 4); }
  };
  src_t srca = {};
  src_t srcb = {};
  dest_t dest = {};
  fidelity_t fidelity = {};
  bias_t bias = {};
  src_t pack_ysrc = {};
  src_t pack_ydst = {};
  void set(const std::uint8_t slot) const {
    TT_SETC16(AXSIM_ADDR_MOD_AB_REG[slot], srca.bits() | (srcb.bits() << 8));
    TT_SETC16(AXSIM_ADDR_MOD_DST_REG[slot], dest.bits() | (fidelity.bits() << 13));
    TT_SETC16(AXSIM_ADDR_MOD_BIAS_REG[slot], bias.bits());
  }
};
}
`;
}

function ckernelH(arch: Arch): string {
  const p = ARCH_PARAMS[arch];
  return `// axsim LLK environment: ckernel.h — the run-time helpers SFPU kernels call (tt-llk common/inc/ckernel.h).
#pragma once
#include <cstdint>
#include "ckernel_defs.h"
#include "ckernel_instr_params.h"
#include "ckernel_addrmod.h"
#include "ckernel_ops.h"
#include "llk_defs.h"
// tt-metal's compute build has SfpuType in scope before any sfpu/ kernel (isinf_isnan.h uses it unincluded)
#include "llk_sfpu_types.h"
#include "lltt.h"
#include "sfpi.h"
#define tt_reg_ptr
#define tt_l1_ptr
#define TT_ALWAYS_INLINE inline
// tt-llk's LLK_ASSERT is compiled out unless asserts are enabled; here a failed one is a warning at its line.
#define LLK_ASSERT(cond, msg) \
  do {                        \
    if (!(cond)) __axsim_warn("LLK_ASSERT failed: " msg); \
  } while (0)
#ifndef TENSIX_CFG_BASE
#define TENSIX_CFG_BASE 0x${TENSIX_CFG_BASE.toString(16).toUpperCase()}
#endif
// Config-register word indices (thread config for SETC16; global config for the RISC-V pointer).
#define PRNG_SEED_Seed_Val_ADDR32 ${PRNG_SEED_ADDR32}
#define ADDR_MOD_SET_Base_ADDR32 ${p.addrModSetBase < 0 ? 'AXSIM_NO_ADDR_MOD_SET_BASE_ON_BLACKHOLE' : p.addrModSetBase}
#define DEST_TARGET_REG_CFG_MATH_Offset_ADDR32 ${p.mathOffset}
namespace ckernel {
// Dst rows (16 values each) in 16-bit mode; half of it per sync half.
constexpr std::uint32_t DEST_REGISTER_FULL_SIZE = 1024;
constexpr std::uint32_t DEST_REGISTER_HALF_SIZE = 512;
// Which half of Dst the math thread works on (dest_offset_id in tt-llk); axsim runs from half 0.
inline std::uint32_t get_dest_buffer_base() { return 0; }
// Which of the two config banks this thread uses (ThreadConfig CFG_STATE_ID_StateID); always 0 here.
constexpr std::uint32_t cfg_state_id = 0;
// The RISC-V's pointer to the current config bank; stores through it are config-register writes
// (the emitter records them in the word stream, src/tensix/llk/run.ts applies them).
inline volatile std::uint32_t *get_cfg_pointer() {
  return reinterpret_cast<volatile std::uint32_t *>(TENSIX_CFG_BASE);
}
// Seeds every lane's PRNG: one write to PRNG_SEED_Seed_Val, then SFPNOPs while the seed spreads.
inline void init_prng_seed(const std::uint32_t seed) {
  volatile std::uint32_t *cfg = get_cfg_pointer();
  cfg[PRNG_SEED_Seed_Val_ADDR32] = seed;
  for (int i = 0; i < 600; i++) {
    TTI_SFPNOP;
  }
}
// Whether the replay buffer also executes what it records (tt-llk ckernel.h: ckernel::Exec / NoExec,
// used as load_replay_buf<Exec>(...)).
enum ExecBool : bool { NoExec, Exec };
// Loads the replay buffer: record(start, len) then the instructions the callable issues
// (tt-llk ckernel.h load_replay_buf).
template <ExecBool E = NoExec>
inline void load_replay_buf(std::uint32_t start, std::uint32_t len, auto callable) {
  lltt::record<lltt::ExecBool(E)>(start, len);
  callable();
}
inline constexpr bool is_valid_instruction_mode(InstrModLoadStore mode) {
  return mode == InstrModLoadStore::INT32_2S_COMP || mode == InstrModLoadStore::INT32 ||
         mode == InstrModLoadStore::LO16;
}
// Converts between sign-magnitude and two's complement in an LReg: SFPCAST does the conversion,
// SFPSETSGN then copies the sign of the source back (tt-llk ckernel.h, Blackhole).
inline void apply_sign_magnitude_conversion(std::uint32_t src, std::uint32_t dst, InstrModCast cast_mode) {
  TT_SFPCAST(src, dst, cast_mode);
  TT_SFPSETSGN(0, dst, src, 0);
}
}
`;
}

function llkDefs(): string {
  return `// axsim LLK environment: llk_defs.h — the enums live in ckernel_defs.h here.
#pragma once
#include "ckernel_defs.h"
`;
}

function sfpuTypes(): string {
  return `// axsim LLK environment: llk_sfpu_types.h — the SfpuType names the LLK API's init functions switch on
// (the subset whose ADDR_MOD set-up differs, see src/tensix/llk/driver.ts, plus the corpus's ops).
#pragma once
enum class SfpuType {
  unused, typecast, topk_local_sort, reciprocal, unary_max, unary_min, unary_max_int32, unary_min_int32,
  unary_max_uint32, unary_min_uint32, signbit, mul_int32, mul_uint16, max, min, max_int32, min_int32,
  max_uint32, min_uint32, add_int32, sub_int32, exponential, where, cumsum, reduce, dropout, quant,
  shift, bitwise, square, fill, rounding, max_pool_with_indices, add_top_row, reshuffle_rows, ema,
  welfords, lrelu, cast_fp32_to_fp16a,
  // the comparison / classification ops the SFPI kernels (comp.h, isinf_isnan.h) dispatch on
  equal_zero, not_equal_zero, less_than_zero, greater_than_equal_zero, greater_than_zero, less_than_equal_zero,
  unary_ne, unary_eq, unary_gt, unary_lt, unary_ge, unary_le, isinf, isposinf, isneginf, isnan, isfinite
};
`;
}

function sfpiH(): string {
  return `// axsim LLK environment: sfpi.h — the part of SFPI that TTI-style kernels use.
// - sfpi::SFP*_MOD* instruction-field constants: resolved by the emitter's constant table.
// - sfpi::dst_reg++ / dst_reg += n: an INCRWC of the Dst counter (builtin of the emitter).
// - sfpi::vConst{Int,Float}Prgm{0,1,2} (read and assigned), s2vFloat16a/b: axsim_sfpi_vector.h.
// Vector SFPI code (vFloat, vInt, v_if, dst_reg[i], ...): axsim_sfpi_vector.h, src/tensix/sfpi (issue 12).
#pragma once
#include <cstdint>
#include "ckernel_ops.h"
#ifndef sfpi_inline
#define sfpi_inline inline
#endif
// SFPI's vector types, dst_reg[] elements, constants and v_if: the SFPI compiler's (src/tensix/sfpi).
#include "axsim_sfpi_vector.h"
namespace sfpi {
// The Dst read/write counter as SFPI kernels step it: one SFPU row = 2 Dst rows (SFP_DESTREG_STRIDE),
// each step an INCRWC of the Dst RWC.
// (__sfpi_incrwc keeps the step in order with the traced SFPI operations.)
struct __axsim_dst_reg {
  void operator++(int) const { __sfpi_incrwc(2); }
  void operator++() const { __sfpi_incrwc(2); }
  void operator+=(const int n) const {
    for (int i = 0; i < n; i++) __sfpi_incrwc(2);
  }
  __vDReg operator[](const int i) const { return __vDReg{2, i}; }
};
constexpr __axsim_dst_reg dst_reg = {};
}
`;
}

const OPS_H = `// axsim LLK environment: ckernel_ops.h — TT_OP_<X>(...) (the word), TTI_<X>(...) and TT_<X>(...)
// (issue the word) are builtins of axsim's Tensix emitter for every instruction of the arch
// (src/tensix/asm/macros.data.ts), with each field range-checked. Nothing to declare here.
#pragma once
`;

const LLTT_H = `// axsim LLK environment: lltt.h — the replay buffer (sfpi include/lltt.h), over the REPLAY instruction
// (TT_OP_REPLAY(start, len, execute_while_loading, load_mode)).
#pragma once
#include <cstdint>
#include "ckernel_ops.h"
namespace lltt {
enum ExecBool : bool { NoExec, Exec };
// Records the next length instructions into replay slots start..; with Exec they also execute.
template <ExecBool E = NoExec>
inline void record(unsigned start, unsigned length) { TT_REPLAY(start, length, E ? 1 : 0, 1); }
// Issues replay slots start..start+length-1.
inline void replay(unsigned start, unsigned length) { TT_REPLAY(start, length, 0, 0); }
constexpr std::uint32_t replay_insn(unsigned start, unsigned length) {
  return (0x04u << 24) | (start << 14) | (length << 4);
}
}
`;

/**
 * The definitions a tt-metal build has in force before any kernel header, for one arch: the arch
 * macro the build defines for the kernel's generation; `sfpi_inline` as sfpi.h defines it (tt-metal
 * includes sfpi.h before any kernel header, and some kernels use it before including it, e.g.
 * ckernel_sfpu_polyval.h); `tt_l1_ptr`, the L1 pointer attribute of tt-metal's risc_attribs.h
 * (reshuffle_rows uses it without including a header that has it). Every LLK compile starts from
 * these (compileLlk, compileSfpi, so `tensix run` and `tensix compile` see the same environment).
 */
export function llkBuildDefines(arch: Arch): Record<string, string | number> {
  return {
    [arch === 'wormhole' ? 'ARCH_WORMHOLE' : 'ARCH_BLACKHOLE']: 1,
    sfpi_inline: 'inline',
    tt_l1_ptr: ' ', // empty ('' would mean 1, as -D NAME does)
  };
}

/** tt-metal's firmware NoC API: older tt-metal SFPU kernels include it and use nothing of it (the SFPU
 * does no NoC transfers). Empty here, so a kernel that did call a NoC function fails at that call with
 * the name unknown. */
const NOC_NONBLOCKING_API_H = `// axsim LLK environment: noc_nonblocking_api.h — included by tt-metal SFPU kernels, used by none
// (no NoC functions are modelled: a call to one is an unknown name at its line).
#pragma once
#include <cstdint>
`;

/** tt-llk common/inc/cmath_common.h: the math-thread helpers tt-metal's SFPU init functions call
 * (`math::reset_counters(p_setrwc::SET_ABD_F)` resets the Src/Dst read-write counters with SETRWC).
 * The real header pulls in the firmware's globals (ckernel_globals.h -> risc_attribs.h); this one has
 * the two counter helpers and nothing else, so another name of it fails as unknown at its use. */
const CMATH_COMMON_H = `// axsim LLK environment: cmath_common.h — the counter helpers of tt-llk common/inc/cmath_common.h
#pragma once
#include <cstdint>
#include "ckernel.h"
namespace ckernel::math {
inline void reset_counters(const std::uint32_t setrwc) { TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, setrwc); }
inline void incr_counters(const std::uint32_t incr_a, const std::uint32_t incr_b, const std::uint32_t incr_d,
                          const std::uint32_t incr_cr) {
  TT_INCRWC(incr_cr, incr_d, incr_b, incr_a);
}
}
using namespace ckernel;
`;

/** The virtual include files for one arch: include name as written in the kernels -> text. */
export function llkHeaders(arch: Arch): Record<string, string> {
  const files: Record<string, string> = {
    cstdint: STD_CSTDINT,
    'stdint.h': STD_CSTDINT,
    'ckernel.h': ckernelH(arch),
    'ckernel_defs.h': defs(),
    'ckernel_instr_params.h': instrParams(arch),
    'ckernel_addrmod.h': addrmod(arch),
    'ckernel_ops.h': OPS_H,
    'llk_defs.h': llkDefs(),
    'llk_sfpu_types.h': sfpuTypes(),
    'lltt.h': LLTT_H,
    'sfpi.h': sfpiH(),
    'axsim_sfpi_vector.h': SFPI_VECTOR_H,
    'noc_nonblocking_api.h': NOC_NONBLOCKING_API_H,
    'cmath_common.h': CMATH_COMMON_H,
  };
  // <array>, <climits>, <cmath>: cfront's own (src/cfront/system-headers.ts)
  for (const n of ['limits', 'utility', 'algorithm']) files[n] = STD_EMPTY(n);
  files.type_traits = TYPE_TRAITS;
  return files;
}
