/**
 * Comparing a kernel's output arrays with a reference's (`axsim amx run --ref`): the largest
 * absolute difference and the largest distance in units in the last place, per array.
 *
 * The ULP distance of two floats is the number of representable values between them: the bit
 * patterns are mapped to a monotonic integer line (magnitude bits, negated for negative values, so
 * -0 and +0 are the same point), then subtracted. NaN against a number counts as an infinite
 * distance; two NaNs as equal.
 */
import { badInput } from '../../errors.ts';
import type { NpyDtype } from '../../io/index.ts';

export interface ArrayDiff {
  name: string;
  dtype: NpyDtype;
  elements: number;
  /** Elements whose values differ (bitwise for floats, except +0 / -0 and NaN / NaN). */
  differing: number;
  maxAbs: number;
  /** Largest ULP distance (floats) or absolute difference (integers); Infinity for NaN vs number. */
  maxUlp: number;
  /** Index of the first element with the largest ULP distance (-1 when all agree). */
  worstIndex: number;
}

function orderedF32(bits: number): number {
  return bits & 0x80000000 ? -(bits & 0x7fffffff) : bits;
}

function orderedF16(bits: number): number {
  return bits & 0x8000 ? -(bits & 0x7fff) : bits;
}

function orderedF64(bits: bigint): bigint {
  return bits & (1n << 63n) ? -(bits & ((1n << 63n) - 1n)) : bits;
}

function f16Value(h: number): number {
  const e = (h >>> 10) & 31;
  const m = h & 0x3ff;
  const s = h & 0x8000 ? -1 : 1;
  if (e === 31) return m ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * (e === 0 ? m * 2 ** -24 : (1024 + m) * 2 ** (e - 25));
}

/** Compares two little-endian images of the same array. */
export function diffArrays(name: string, dtype: NpyDtype, got: Uint8Array, want: Uint8Array): ArrayDiff {
  if (got.length !== want.length)
    throw badInput(`array ${name}: ${got.length} bytes against ${want.length} in the reference`);
  const dvG = new DataView(got.buffer, got.byteOffset, got.byteLength);
  const dvW = new DataView(want.buffer, want.byteOffset, want.byteLength);
  const size =
    dtype === 'f2' || dtype === 'i2' || dtype === 'u2'
      ? 2
      : dtype.endsWith('1')
        ? 1
        : dtype.endsWith('4')
          ? 4
          : 8;
  const n = got.length / size;
  const r: ArrayDiff = { name, dtype, elements: n, differing: 0, maxAbs: 0, maxUlp: 0, worstIndex: -1 };
  const note = (i: number, abs: number, ulp: number) => {
    r.differing++;
    if (abs > r.maxAbs || Number.isNaN(abs)) r.maxAbs = Number.isNaN(abs) ? Number.POSITIVE_INFINITY : abs;
    if (ulp > r.maxUlp) {
      r.maxUlp = ulp;
      r.worstIndex = i;
    } else if (r.worstIndex < 0) r.worstIndex = i;
  };
  for (let i = 0; i < n; i++) {
    const o = i * size;
    switch (dtype) {
      case 'f4': {
        const a = dvG.getUint32(o, true);
        const b = dvW.getUint32(o, true);
        if (a === b) break;
        const fa = dvG.getFloat32(o, true);
        const fb = dvW.getFloat32(o, true);
        if (fa === fb || (Number.isNaN(fa) && Number.isNaN(fb))) break;
        const nan = Number.isNaN(fa) || Number.isNaN(fb);
        note(i, Math.abs(fa - fb), nan ? Number.POSITIVE_INFINITY : Math.abs(orderedF32(a) - orderedF32(b)));
        break;
      }
      case 'f8': {
        const a = dvG.getBigUint64(o, true);
        const b = dvW.getBigUint64(o, true);
        if (a === b) break;
        const fa = dvG.getFloat64(o, true);
        const fb = dvW.getFloat64(o, true);
        if (fa === fb || (Number.isNaN(fa) && Number.isNaN(fb))) break;
        const nan = Number.isNaN(fa) || Number.isNaN(fb);
        const d = orderedF64(a) - orderedF64(b);
        note(i, Math.abs(fa - fb), nan ? Number.POSITIVE_INFINITY : Number(d < 0n ? -d : d));
        break;
      }
      case 'f2': {
        const a = dvG.getUint16(o, true);
        const b = dvW.getUint16(o, true);
        if (a === b) break;
        const fa = f16Value(a);
        const fb = f16Value(b);
        if (fa === fb || (Number.isNaN(fa) && Number.isNaN(fb))) break;
        const nan = Number.isNaN(fa) || Number.isNaN(fb);
        note(i, Math.abs(fa - fb), nan ? Number.POSITIVE_INFINITY : Math.abs(orderedF16(a) - orderedF16(b)));
        break;
      }
      default: {
        const signed = dtype.startsWith('i');
        let a: bigint;
        let b: bigint;
        if (size === 1) {
          a = BigInt(signed ? dvG.getInt8(o) : dvG.getUint8(o));
          b = BigInt(signed ? dvW.getInt8(o) : dvW.getUint8(o));
        } else if (size === 2) {
          a = BigInt(signed ? dvG.getInt16(o, true) : dvG.getUint16(o, true));
          b = BigInt(signed ? dvW.getInt16(o, true) : dvW.getUint16(o, true));
        } else if (size === 4) {
          a = BigInt(signed ? dvG.getInt32(o, true) : dvG.getUint32(o, true));
          b = BigInt(signed ? dvW.getInt32(o, true) : dvW.getUint32(o, true));
        } else {
          a = signed ? dvG.getBigInt64(o, true) : dvG.getBigUint64(o, true);
          b = signed ? dvW.getBigInt64(o, true) : dvW.getBigUint64(o, true);
        }
        if (a === b) break;
        const d = Number(a > b ? a - b : b - a);
        note(i, d, d);
      }
    }
  }
  return r;
}

/** One line per array, for the CLI. */
export function formatDiff(d: ArrayDiff): string {
  if (d.differing === 0) return `${d.name}: identical to the reference (${d.elements} ${d.dtype} elements)`;
  const unit = d.dtype.startsWith('f') ? ' ULP' : '';
  return `${d.name}: ${d.differing} of ${d.elements} elements differ; max abs ${d.maxAbs}, max ${d.maxUlp}${unit} (first worst at index ${d.worstIndex})`;
}
