/**
 * Element types the A2/A3 and A5 implementations accept, per instruction, as the pto-isa manual
 * states them ("Target-Profile Restrictions" / "Implementation checks (A2A3|A5)" of each page under
 * docs/isa/tile/ops/**). Instructions whose page gives no list keep their family default
 * (op.ts `per`: spec 002's TADD table). The `cpu` profile is what the CPU simulator compiles and is
 * defined next to each instruction.
 */
import type { DType } from './dtype.ts';

export interface ProfileSupport {
  a2a3: readonly DType[];
  a5: readonly DType[];
  /** the page the lists come from */
  source: string;
}

const P = 'pto-isa docs/isa/tile/ops';
const I32_I16_F16_F32: readonly DType[] = ['i32', 'i16', 'f16', 'f32'];
const A5_MAXMIN: readonly DType[] = ['u32', 'i32', 'u16', 'i16', 'u8', 'i8', 'f32', 'f16'];
const INT_1_2: readonly DType[] = ['i8', 'u8', 'i16', 'u16'];
const INT_1_2_4: readonly DType[] = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32'];
const F: readonly DType[] = ['f32', 'f16'];

const t = (a2a3: readonly DType[], a5: readonly DType[], page: string): ProfileSupport => ({
  a2a3,
  a5,
  source: `${P}/${page}`,
});

export const PROFILE_SUPPORT: Readonly<Record<string, ProfileSupport>> = {
  TADD: t(
    ['f32', 'f16', 'bf16', 'i32', 'i16'],
    ['f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'u8', 'f8e4m3', 'f8e5m2'],
    'elementwise-tile-tile/tadd.md (spec 002)',
  ),
  TSUB: t(I32_I16_F16_F32, A5_MAXMIN, 'elementwise-tile-tile/tsub.md'),
  TMUL: t(
    I32_I16_F16_F32,
    ['i32', 'u32', 'f32', 'i16', 'u16', 'f16', 'bf16'],
    'elementwise-tile-tile/tmul.md',
  ),
  TDIV: t(['f16', 'f32'], ['i32', 'u32', 'f32', 'i16', 'u16', 'f16'], 'elementwise-tile-tile/tdiv.md'),
  TMAX: t(I32_I16_F16_F32, A5_MAXMIN, 'elementwise-tile-tile/tmax.md'),
  TMIN: t(I32_I16_F16_F32, A5_MAXMIN, 'elementwise-tile-tile/tmin.md'),
  TREM: t(['f32', 'i32'], ['f32', 'i32', 'u32', 'f16', 'i16', 'u16'], 'elementwise-tile-tile/trem.md'),
  TAND: t(INT_1_2, INT_1_2_4, 'elementwise-tile-tile/tand.md'),
  TOR: t(INT_1_2, INT_1_2_4, 'elementwise-tile-tile/tor.md'),
  TSHL: t(INT_1_2_4, INT_1_2_4, 'elementwise-tile-tile/tshl.md'),
  TSHR: t(INT_1_2_4, INT_1_2_4, 'elementwise-tile-tile/tshr.md'),
  TNOT: t(['i16', 'u16'], ['u32', 'i32', 'u16', 'i16', 'u8', 'i8'], 'elementwise-tile-tile/tnot.md'),
  TABS: t(F, ['f32', 'f16', 'i32', 'i16', 'i8'], 'elementwise-tile-tile/tabs.md'),
  TEXP: t(F, F, 'elementwise-tile-tile/texp.md'),
  TLOG: t(F, F, 'elementwise-tile-tile/tlog.md'),
  TSQRT: t(F, F, 'elementwise-tile-tile/tsqrt.md'),
  TRECIP: t(F, F, 'elementwise-tile-tile/trecip.md'),
  TRELU: t(['f16', 'f32', 'i32'], ['f16', 'f32', 'i32'], 'elementwise-tile-tile/trelu.md'),
  TCMP: t(
    ['i32', 'f16', 'f32'],
    ['u32', 'i32', 'u16', 'i16', 'u8', 'i8', 'f32', 'f16', 'bf16'],
    'elementwise-tile-tile/tcmp.md',
  ),
  TPOW: t([], ['f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'u8'], 'elementwise-tile-tile/tpow.md (A5 only)'),
  TADDS: t(
    I32_I16_F16_F32,
    ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f16', 'f32', 'bf16'],
    'tile-scalar-and-immediate/tadds.md',
  ),
  TSUBS: t(I32_I16_F16_F32, I32_I16_F16_F32, 'tile-scalar-and-immediate/tsubs.md'),
  TMULS: t(
    I32_I16_F16_F32,
    ['u16', 'i16', 'u32', 'i32', 'f16', 'f32', 'bf16'],
    'tile-scalar-and-immediate/tmuls.md',
  ),
  TDIVS: t(
    I32_I16_F16_F32,
    ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f16', 'f32'],
    'tile-scalar-and-immediate/tdivs.md',
  ),
  TMAXS: t(
    I32_I16_F16_F32,
    ['i32', 'u32', 'f32', 'i16', 'u16', 'f16', 'bf16', 'u8', 'i8'],
    'tile-scalar-and-immediate/tmaxs.md',
  ),
  TMINS: t(
    I32_I16_F16_F32,
    ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f16', 'f32', 'bf16'],
    'tile-scalar-and-immediate/tmins.md',
  ),
  TADDSC: t(I32_I16_F16_F32, I32_I16_F16_F32, 'tile-scalar-and-immediate/taddsc.md'),
  TSUBSC: t(I32_I16_F16_F32, I32_I16_F16_F32, 'tile-scalar-and-immediate/tsubsc.md'),
  TCMPS: t(
    ['i32', 'f32', 'f16', 'u16', 'i16'],
    ['i32', 'u32', 'f32', 'i16', 'u16', 'f16', 'u8', 'i8', 'bf16'],
    'tile-scalar-and-immediate/tcmps.md',
  ),
  TEXPANDS: t(
    ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f16', 'bf16', 'f32'],
    ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f16', 'f32'],
    'tile-scalar-and-immediate/texpands.md',
  ),
  TFMODS: t(['f32'], ['f16', 'f32', 'i16', 'u16', 'i32', 'u32'], 'tile-scalar-and-immediate/tfmods.md'),
  TREMS: t(['f32', 'i32'], ['f32', 'i32', 'u32', 'f16', 'i16', 'u16'], 'tile-scalar-and-immediate/trems.md'),
  TLRELU: t(F, F, 'tile-scalar-and-immediate/tlrelu.md'),
  TANDS: t(INT_1_2, INT_1_2_4, 'tile-scalar-and-immediate/tands.md (types of TEXPANDS and TAND)'),
  TORS: t(INT_1_2, INT_1_2_4, 'tile-scalar-and-immediate/tors.md (types of TEXPANDS and TOR)'),
  TSHLS: t(
    ['i32', 'i16', 'u32', 'u16'],
    ['i32', 'i16', 'i8', 'u32', 'u16', 'u8'],
    'tile-scalar-and-immediate/tshls.md',
  ),
  TSHRS: t(
    ['i32', 'i16', 'u32', 'u16'],
    ['i32', 'i16', 'i8', 'u32', 'u16', 'u8'],
    'tile-scalar-and-immediate/tshrs.md',
  ),
  TPOWS: t(
    [],
    ['f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'u8'],
    'tile-scalar-and-immediate/tpows.md (A5 only)',
  ),
};

/** TCVT source -> destination pairs per profile (docs/isa/tile/ops/elementwise-tile-tile/tcvt.md). */
export const TCVT_PAIRS: Readonly<Record<'a2a3' | 'a5', Readonly<Partial<Record<DType, readonly DType[]>>>>> =
  {
    a2a3: {
      f32: ['f16', 'f32', 'bf16', 'i16', 'i32', 'i64'],
      f16: ['f32', 'i32', 'i16', 'i8', 'u8'],
      bf16: ['f32', 'i32'],
      i16: ['f16', 'f32'],
      i32: ['f32', 'i16', 'i64', 'f16'],
      i64: ['f32', 'i32'],
      u8: ['f16'],
      i8: ['f16'],
    },
    a5: {
      f32: ['f32', 'f16', 'bf16', 'i16', 'i32', 'i64', 'f8e4m3', 'f8e5m2'],
      f16: ['f32', 'i32', 'i16', 'i8', 'u8'],
      bf16: ['f32', 'i32', 'f16'],
      i16: ['u8', 'f16', 'f32', 'u32', 'i32'],
      i32: ['f32', 'i16', 'u16', 'i64', 'u8'],
      i64: ['f32', 'i32'],
      u8: ['f16', 'u16'],
      i8: ['f16', 'i16', 'i32'],
      u32: ['u8', 'u16', 'i16'],
      f8e4m3: ['f32'],
      f8e5m2: ['f32'],
    },
  };
