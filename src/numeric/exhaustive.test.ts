/**
 * Issue 2 acceptance: every binary16 / bfloat16 / E4M3 / E5M2 code (and every code of the other
 * small instances) decodes to the exact value and re-encodes to itself; NaNs follow the documented
 * policy. Expected values come from the field formulas (IEEE 754 §3.4, OCP OFP8 §3) and, for
 * binary16, from @petamoriken/float16's independent decoder.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getFloat16 } from '@petamoriken/float16';
import {
  BF16,
  bf16ToF32Bits,
  bitsToF32,
  decodeToF32Bits,
  E2M1,
  E2M3,
  E3M2,
  E4M3,
  E5M2,
  e4m3ToF32Bits,
  e5m2ToF32Bits,
  encodeFromF32Bits,
  FP16,
  f32BitsToBf16,
  f32BitsToE4m3,
  f32BitsToE5m2,
  f32BitsToFp16,
  fp16ToF32Bits,
  type Minifloat,
  type RoundMode,
  TF32,
  tf32ToF32Bits,
} from './index.ts';

/** Value of a code from the textbook field formula (exact in doubles for these widths). */
function formulaValue(c: number, expBits: number, manBits: number, bias: number): number {
  const s = Math.floor(c / 2 ** (expBits + manBits)) % 2 === 1 ? -1 : 1;
  const e = Math.floor(c / 2 ** manBits) % 2 ** expBits;
  const m = c % 2 ** manBits;
  if (e === 0) return s * m * 2 ** (1 - bias - manBits);
  return s * (1 + m / 2 ** manBits) * 2 ** (e - bias);
}

type Kind = 'finite' | 'inf' | 'nan';
function kindOf(c: number, f: { expBits: number; manBits: number; special: string }): Kind {
  const e = Math.floor(c / 2 ** f.manBits) % 2 ** f.expBits;
  const m = c % 2 ** f.manBits;
  const top = e === 2 ** f.expBits - 1;
  if (f.special === 'ieee' && top) return m === 0 ? 'inf' : 'nan';
  if (f.special === 'fn' && top && m === 2 ** f.manBits - 1) return 'nan';
  return 'finite';
}

const MODES: RoundMode[] = ['rne', 'rtz', 'rna', 'stochastic'];
const STOCH = { rand: 0xffffffff };

function exhaustive(
  f: Minifloat,
  decode: (c: number) => number,
  encode: (b: number, m: RoundMode, o?: object) => number,
) {
  const n = 2 ** f.width;
  const signBit = 2 ** (f.width - 1);
  const quiet = f.special === 'ieee' ? 2 ** (f.manBits - 1) : 0;
  let nanCount = 0;
  for (let c = 0; c < n; c++) {
    const bits = decode(c);
    const kind = kindOf(c, f);
    const neg = c >= signBit;
    assert.equal(bits >>> 31, neg ? 1 : 0, `${f.name} ${c}: sign`);
    if (kind === 'nan') {
      nanCount++;
      assert.ok((bits & 0x7fffffff) > 0x7f800000, `${f.name} ${c} decodes to a NaN`);
      if (f.special === 'ieee') {
        // Payload carried over bit for bit, left-aligned.
        const m = c % 2 ** f.manBits;
        assert.equal(bits & 0x7fffff, m * 2 ** (23 - f.manBits), `${f.name} ${c}: payload`);
        assert.equal(encode(bits, 'rne', { nan: 'preserve' }), c, `${f.name} ${c}: preserve`);
        assert.equal(encode(bits, 'rne'), c | quiet, `${f.name} ${c}: quiet`);
        assert.equal(encode(bits, 'rtz', { nan: 'canonical' }), f.nanCode, `${f.name} ${c}: canonical`);
      } else {
        assert.equal(encode(bits, 'rne'), c, `${f.name} ${c}: NaN keeps its sign`);
      }
      continue;
    }
    const want =
      kind === 'inf' ? (neg ? -Infinity : Infinity) : formulaValue(c, f.expBits, f.manBits, f.bias);
    assert.equal(bitsToF32(bits), want, `${f.name} code ${c} decodes exactly`);
    if (want === 0) assert.equal(bits, neg ? 0x80000000 : 0, `${f.name} ${c}: signed zero`);
    for (const mode of MODES) {
      const opts = mode === 'stochastic' ? { rand: 0xffffffff } : undefined;
      assert.equal(encode(bits, mode, opts), c, `${f.name} code ${c} re-encodes to itself (${mode})`);
    }
  }
  return nanCount;
}

test('binary16: all 65,536 codes decode exactly (vs formula and @petamoriken/float16) and re-encode', () => {
  const nans = exhaustive(FP16, fp16ToF32Bits, f32BitsToFp16);
  assert.equal(nans, 2 * 1023);
  const dv = new DataView(new ArrayBuffer(2));
  for (let c = 0; c < 65536; c++) {
    dv.setUint16(0, c);
    const ref = getFloat16(dv, 0);
    const got = bitsToF32(fp16ToF32Bits(c));
    if (Number.isNaN(ref)) assert.ok(Number.isNaN(got));
    else assert.equal(got, ref, `binary16 ${c}`);
  }
});

test('bfloat16: all 65,536 codes decode exactly and re-encode', () => {
  const nans = exhaustive(BF16, bf16ToF32Bits, f32BitsToBf16);
  assert.equal(nans, 2 * 127);
  // bfloat16 is the top half of fp32, so decoding is a 16-bit shift, NaN payloads included.
  for (let c = 0; c < 65536; c++) assert.equal(bf16ToF32Bits(c), (c * 65536) >>> 0);
});

test('OCP E4M3: all 256 codes decode exactly and re-encode; 448 max, only S.1111.111 is NaN', () => {
  assert.equal(exhaustive(E4M3, e4m3ToF32Bits, f32BitsToE4m3), 2);
  // OCP OFP8 rev 1.0 Table 1: max normal 448 = S.1111.110, min normal 2^-6, min subnormal 2^-9.
  assert.equal(bitsToF32(e4m3ToF32Bits(0x7e)), 448);
  assert.equal(bitsToF32(e4m3ToF32Bits(0xfe)), -448);
  assert.equal(bitsToF32(e4m3ToF32Bits(0x08)), 2 ** -6);
  assert.equal(bitsToF32(e4m3ToF32Bits(0x07)), 0.875 * 2 ** -6);
  assert.equal(bitsToF32(e4m3ToF32Bits(0x01)), 2 ** -9);
});

test('OCP E5M2: all 256 codes decode exactly and re-encode; IEEE-like Inf and NaN', () => {
  assert.equal(exhaustive(E5M2, e5m2ToF32Bits, f32BitsToE5m2), 6);
  // OCP OFP8 rev 1.0 Table 1: max normal 57344 = S.11110.11, min subnormal 2^-16, Inf S.11111.00.
  assert.equal(bitsToF32(e5m2ToF32Bits(0x7b)), 57344);
  assert.equal(bitsToF32(e5m2ToF32Bits(0x04)), 2 ** -14);
  assert.equal(bitsToF32(e5m2ToF32Bits(0x01)), 2 ** -16);
  assert.equal(e5m2ToF32Bits(0xfc), 0xff800000);
});

test('OCP MX fp6 E3M2 / E2M3 and fp4 E2M1: all codes decode exactly and re-encode', () => {
  for (const f of [E3M2, E2M3, E2M1]) {
    assert.equal(
      exhaustive(
        f,
        (c) => decodeToF32Bits(f, c),
        (b, m, o) => encodeFromF32Bits(f, b, m, o),
      ),
      0,
    );
  }
  // OCP MX v1.0 Table: E2M1 max 6.0, E3M2 max 28.0, E2M3 max 7.5.
  assert.equal(bitsToF32(decodeToF32Bits(E2M1, 0x7)), 6);
  assert.equal(bitsToF32(decodeToF32Bits(E3M2, 0x1f)), 28);
  assert.equal(bitsToF32(decodeToF32Bits(E2M3, 0x1f)), 7.5);
});

test('TF32: every 19-bit code decodes exactly; finite codes re-encode in every mode', () => {
  for (let c = 0; c < 2 ** 19; c++) {
    const bits = tf32ToF32Bits(c);
    // TF32 is fp32 with the low 13 mantissa bits dropped.
    assert.equal(bits, (c * 8192) >>> 0);
    if (kindOf(c, TF32) === 'nan') continue;
    assert.equal(encodeFromF32Bits(TF32, bits, 'rne'), c);
    assert.equal(encodeFromF32Bits(TF32, bits, 'rtz'), c);
    assert.equal(encodeFromF32Bits(TF32, bits, 'rna'), c);
    assert.equal(encodeFromF32Bits(TF32, bits, 'stochastic', STOCH), c);
  }
});

test('flush-on-decode turns every subnormal code into signed zero', () => {
  for (const [f, dec] of [
    [FP16, fp16ToF32Bits],
    [BF16, bf16ToF32Bits],
    [E4M3, e4m3ToF32Bits],
    [E5M2, e5m2ToF32Bits],
  ] as const) {
    for (let m = 1; m < 2 ** f.manBits; m++) {
      assert.equal(dec(m, { flushIn: true }), 0, `${f.name} +sub ${m}`);
      assert.equal(dec((2 ** f.signShift + m) >>> 0, { flushIn: true }), 0x80000000, `${f.name} -sub ${m}`);
      assert.notEqual(dec(m), 0);
    }
  }
});
