/**
 * Array conversions: decode once per element, no allocation. Sources/destinations are typed-array
 * views of raw bit patterns (e.g. `new Uint32Array(float32Array.buffer)`).
 */
import { badInput } from '../errors.ts';
import { f32BitsToBf16Rne, f32BitsToE4m3Rne, f32BitsToFp16Rne } from './fast.ts';
import { BF16, E4M3, FP16 } from './formats.ts';
import {
  type DecodeOptions,
  decodeToF32Bits,
  type EncodeOptions,
  encodeFromF32Bits,
  type Minifloat,
  type RoundMode,
} from './minifloat.ts';

type BitArray = Uint8Array | Uint16Array | Uint32Array;

/** Encodes every fp32 pattern of `src` into `dst` (same length). Returns `dst`. */
export function encodeArray<T extends BitArray>(
  f: Minifloat,
  src: Uint32Array,
  dst: T,
  mode: RoundMode = 'rne',
  opts?: EncodeOptions,
): T {
  if (dst.length !== src.length) {
    throw badInput(`encodeArray: destination has ${dst.length} elements, source ${src.length}`);
  }
  if (dst.BYTES_PER_ELEMENT * 8 < f.width) {
    throw badInput(
      `encodeArray: ${f.name} codes are ${f.width} bits, destination holds ${dst.BYTES_PER_ELEMENT * 8}`,
    );
  }
  const n = src.length;
  if (mode === 'rne' && opts === undefined) {
    // Specialised loops for the hot conversions (same results as the generic codec), one function
    // per destination type so each loop stays monomorphic.
    if (f === FP16 && dst instanceof Uint16Array) return fp16Loop(src, dst) as T;
    if (f === BF16 && dst instanceof Uint16Array) return bf16Loop(src, dst) as T;
    if (f === E4M3 && dst instanceof Uint8Array) return e4m3Loop(src, dst) as T;
  }
  for (let i = 0; i < n; i++) dst[i] = encodeFromF32Bits(f, src[i]!, mode, opts);
  return dst;
}

function fp16Loop(src: Uint32Array, dst: Uint16Array): Uint16Array {
  for (let i = 0; i < src.length; i++) dst[i] = f32BitsToFp16Rne(src[i]!);
  return dst;
}
function bf16Loop(src: Uint32Array, dst: Uint16Array): Uint16Array {
  for (let i = 0; i < src.length; i++) dst[i] = f32BitsToBf16Rne(src[i]!, BF16);
  return dst;
}
function e4m3Loop(src: Uint32Array, dst: Uint8Array): Uint8Array {
  for (let i = 0; i < src.length; i++) dst[i] = f32BitsToE4m3Rne(src[i]!);
  return dst;
}

/** Decodes every code of `src` into fp32 patterns in `dst` (same length). Returns `dst`. */
export function decodeArray(
  f: Minifloat,
  src: BitArray,
  dst: Uint32Array,
  opts?: DecodeOptions,
): Uint32Array {
  if (dst.length !== src.length) {
    throw badInput(`decodeArray: destination has ${dst.length} elements, source ${src.length}`);
  }
  const n = src.length;
  for (let i = 0; i < n; i++) dst[i] = decodeToF32Bits(f, src[i]!, opts);
  return dst;
}
