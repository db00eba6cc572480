/**
 * What TSTORE does to each element on its way to global memory: the fix-pipe's conversion of an
 * accumulator (Acc) tile, the pre-quant-scalar form `TSTORE(dst, acc, preQuantScalar)`, ReLU
 * (`reluPreMode`) and the atomic add (`atomicType`). Followed: pto-isa @3186c381
 * include/pto/cpu/TStore.hpp (`TStore`: per element `ConvertStoreValue`, then `SetElement` or
 * `AddToElement`), include/pto/cpu/common.hpp (`ConvertStoreValue`, `quantize_element`,
 * `extract_m1_from_quant<false>`, `GetScalarPreQuantMode`), the compile-time checks of
 * include/pto/npu/a2a3/TStore.hpp (`CheckAcc2gm`) and docs/isa/TSTORE.md ("ACC-to-GM dtype support").
 *
 *   plain:     v = ReLU?(src) then static_cast<D>(v) — f32 -> f16 / bf16 is one rounding to nearest
 *              even, i32 -> f16 the exact integer rounded once (the CPU simulator's NoQuant path;
 *              the device's F322F16 / F322BF16 fix-pipe modes round the same way);
 *   pre-quant: x = float(src) * scale (scale = the float in the word's low 32 bits), then per mode —
 *              QF322B8_PRE / REQ8: nearbyint(x + offset) clamped to [-128, 127] (bit 46 set) or
 *              [0, 255]; DEQF16: clamped to +-65504; QF322F16_PRE: finite values clamped to +-65504;
 *              QF322BF16_PRE: finite values clamped to +-FLT_MAX; SHIFTS322S16: int16(src >> (bits
 *              32..35 + 1)) — then ReLU? (on the float) and static_cast<D>. The simulator's task
 *              cookie (saturate-inf bit 48) is 0, so infinities and NaNs pass through.
 */
import type { Arith, Profile } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { invalidForReference, reject } from '../op.ts';
import type { Tile } from '../tile.ts';

const fr = Math.fround;
const F32_MAX = 3.4028234663852886e38;

/** std::clamp(v, lo, hi): v < lo ? lo : hi < v ? hi : v (a NaN passes through). */
export function clamp(v: number, lo: number, hi: number): number {
  if (v < lo) return lo;
  if (hi < v) return hi;
  return v;
}

/** std::nearbyint in the default rounding mode (ties to even); NaN and infinities pass through. */
export function roundHalfEven(v: number): number {
  if (!Number.isFinite(v)) return v;
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5 || (d === 0.5 && f % 2 !== 0)) return f + 1;
  return f;
}

/** GetScalarPreQuantMode (pto-isa cpu/common.hpp = npu/a2a3/common.hpp). */
export type ScalarQuantMode = 'QF322B8' | 'QF322F16' | 'QF322BF16' | 'REQ8' | 'DEQF16' | 'SHIFTS322S16';

export function scalarQuantMode(s: DType, d: DType): ScalarQuantMode | null {
  if (s === 'f32') {
    if (d === 'i8' || d === 'u8') return 'QF322B8';
    if (d === 'f16') return 'QF322F16';
    if (d === 'bf16') return 'QF322BF16';
  } else if (s === 'i32') {
    if (d === 'i8' || d === 'u8') return 'REQ8';
    if (d === 'f16') return 'DEQF16';
    if (d === 'i16') return 'SHIFTS322S16';
  }
  return null;
}

/** The scale of a scalar quant word (extract_m1_from_quant<false>): the float in bits 0..31. */
export function scalarScale(q: bigint): number {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, Number(q & 0xffffffffn), true);
  return dv.getFloat32(0, true);
}

/** quantize_element<D, S, mode, relu>(x, q) up to the final static_cast: the float result. */
export function quantizeScalar(mode: ScalarQuantMode, x: number, q: bigint, relu: boolean): number {
  let y: number;
  if (mode === 'SHIFTS322S16') {
    const shift = Number((q >> 32n) & 0xfn) + 1;
    // int32 >> shift, then (int16_t) truncation; the clamp to the int16 range is then a no-op
    y = ((x >> shift) << 16) >> 16;
  } else {
    y = fr(fr(x) * scalarScale(q));
    if (mode === 'QF322B8' || mode === 'REQ8') {
      const offset = Number((q >> 37n) & 0x1ffn);
      const signed = ((q >> 46n) & 1n) === 1n;
      y = clamp(roundHalfEven(fr(y + offset)), signed ? -128 : 0, signed ? 127 : 255);
    } else if (mode === 'DEQF16') {
      y = clamp(y, -65504, 65504);
    } else if (mode === 'QF322F16') {
      if (Number.isFinite(y)) y = clamp(y, -65504, 65504);
    } else if (Number.isFinite(y)) {
      y = clamp(y, -F32_MAX, F32_MAX);
    }
  }
  // ReLU(result_f): (val > 0) ? val : 0 (a NaN becomes 0)
  return relu && !(y > 0) ? 0 : y;
}

export interface StoreOptions {
  atomicAdd: boolean;
  relu: boolean;
  /** The 64-bit pre-quant word of TSTORE(dst, acc, preQuantScalar), when given. */
  preQuant: bigint | undefined;
}

/** Reads TSTORE's attributes (PTOAS names, and axsim's `atomic`). */
export function storeOptions(attrs: Readonly<Record<string, unknown>>): StoreOptions {
  const word = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
  const atomic = word(attrs.atomicType ?? attrs.atomic);
  const relu = word(attrs.reluPreMode);
  const pq = attrs.preQuant;
  return {
    atomicAdd: atomic === 'atomic_add' || atomic === 'add' || atomic === true,
    relu: relu === 'normal_relu',
    preQuant:
      pq === undefined
        ? undefined
        : typeof pq === 'bigint'
          ? BigInt.asUintN(64, pq)
          : BigInt.asUintN(64, BigInt(Math.trunc(Number(pq)))),
  };
}

const A2A3_PLAIN_ACC_DST: readonly DType[] = ['i32', 'f32', 'f16', 'bf16'];

/**
 * The compile-time rules of the reference for a TSTORE whose element types differ or that uses the
 * accumulator-only forms: BadInput when pto-isa static_asserts (the program cannot be built for the
 * device), Unsupported when pto-isa allows it but axsim does not model it.
 */
export function checkStore(t: Tile, gDtype: DType, o: StoreOptions, profile: Profile): void {
  const npu = profile !== 'cpu';
  if (t.loc !== 'acc') {
    if (npu && (o.relu || o.preQuant !== undefined))
      invalidForReference(
        'TSTORE',
        `${o.relu ? 'reluPreMode' : 'a pre-quant scalar'} on a ${t.loc} tile: static_assert "Source TileType only support Acc!"`,
        'pto-isa include/pto/npu/a2a3/TStore.hpp TSTORE_IMPL',
      );
    if (gDtype !== t.dtype)
      reject(
        'TSTORE',
        t.dtype,
        `global dtype ${gDtype} differs: TSTORE.md requires sizeof(tile dtype) == sizeof(global dtype) and converts nothing`,
        profile,
      );
    return;
  }
  if (!npu) return;
  const ref =
    'pto-isa include/pto/npu/a2a3/TStore.hpp CheckAcc2gm; docs/isa/TSTORE.md "ACC-to-GM dtype support"';
  if (t.dtype !== 'f32' && t.dtype !== 'i32')
    invalidForReference(
      'TSTORE',
      `an ${t.dtype} accumulator: "The input data type must be restricted to int32_t/float!"`,
      ref,
    );
  if (o.preQuant === undefined) {
    if (!A2A3_PLAIN_ACC_DST.includes(gDtype))
      invalidForReference(
        'TSTORE',
        `${t.dtype} accumulator -> ${gDtype} without quantisation: "The output data type must be restricted to int32_t/float/half/bfloat16_t!"`,
        ref,
      );
    return;
  }
  const allowed: readonly DType[] =
    profile === 'a5'
      ? t.dtype === 'f32'
        ? ['i8', 'u8', 'f16', 'bf16']
        : ['i8', 'u8', 'f16']
      : t.dtype === 'f32'
        ? ['i8', 'u8']
        : ['i8', 'u8', 'f16'];
  if (!allowed.includes(gDtype))
    invalidForReference(
      'TSTORE',
      `a pre-quant scalar store of an ${t.dtype} accumulator to ${gDtype}: the ${profile} table allows ${allowed.join(' / ')}`,
      ref,
    );
}

/** `ConvertStoreValue<D, S, mode, relu>(x, q)`: the value handed to the destination's store. */
export function convertStoreValue(x: number, s: DType, D: Arith<unknown>, o: StoreOptions): unknown {
  const mode = o.preQuant === undefined ? null : scalarQuantMode(s, D.dtype);
  if (mode) return D.fromF64(quantizeScalar(mode, x, o.preQuant!, o.relu));
  return D.fromF64(o.relu && !(x > 0) ? 0 : x);
}

/** Writes one converted element: plain store, or the atomic add in the destination's type. */
export function storeElement(
  D: Arith<unknown>,
  view: ReturnType<Arith<unknown>['view']>,
  i: number,
  v: unknown,
  add: boolean,
): void {
  D.store(view, i, add ? D.add(D.load(view, i), v) : v);
}
