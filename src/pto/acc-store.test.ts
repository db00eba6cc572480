// TSTORE through the fix-pipe: an accumulator stored to another element type, ReLU, the atomic add
// and the pre-quant-scalar form (insns/acc-store.ts). Every expected bit pattern is worked out by
// hand below from pto-isa's CPU simulator loop (include/pto/cpu/TStore.hpp, common.hpp
// `ConvertStoreValue` / `quantize_element`) and IEEE round-to-nearest-even; the compile-time
// rejections are the static_asserts of npu/a2a3/TStore.hpp `CheckAcc2gm`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import type { Profile } from './arith.ts';
import { createTile, type DType, execute, GlobalTensor } from './index.ts';

const cat = (e: unknown, category: string): boolean => e instanceof AxsimError && e.category === category;
const BYTES: Record<string, number> = { f16: 2, bf16: 2, f32: 4, i32: 4, i8: 1, u8: 1, i16: 2 };

/** A 16x16 accumulator tile whose row 0 holds `vals` (row 0 of the Nz box is storage 0..15). */
function acc(dtype: 'f32' | 'i32', vals: number[]) {
  const data = new Array(256).fill(0);
  vals.forEach((v, i) => {
    data[i] = v;
  });
  return createTile({ dtype, rows: 16, cols: 16, layout: 'ACC', validRow: 1, validCol: vals.length }, data);
}

function gm(dtype: DType, n: number, init?: Uint8Array): GlobalTensor {
  const bytes = init ?? new Uint8Array(n * BYTES[dtype]!);
  return new GlobalTensor(dtype, [1, 1, 1, 1, n], [n, n, n, n, 1], 'ND', bytes);
}

const u16 = (g: GlobalTensor) =>
  Array.from(new Uint16Array(g.bytes.buffer, g.bytes.byteOffset, g.bytes.length / 2));
const i8 = (g: GlobalTensor) => Array.from(new Int8Array(g.bytes.buffer, g.bytes.byteOffset, g.bytes.length));

function store(
  tile: ReturnType<typeof acc>,
  g: GlobalTensor,
  attrs: Record<string, unknown> = {},
  profile: Profile = 'a2a3',
) {
  execute('TSTORE', { gm: g, tile }, attrs, { profile });
}

test('TSTORE acc f32 -> f16 / bf16: one rounding to nearest even (the fix-pipe F322F16 / F322BF16)', () => {
  // f16: 1 + 2^-11 is the tie between 1 (0x3c00) and 1 + 2^-10 (0x3c01) -> even 0x3c00;
  // 1 + 3*2^-12 lies above the tie -> 0x3c01; 65520 is the tie between 65504 and 2^16 -> +inf;
  // 3*2^-25 is 1.5 subnormal units (2^-24) -> even 2 units = 0x0002; -2.5 = 0xc100
  for (const profile of ['a2a3', 'a5', 'cpu'] as const) {
    const g = gm('f16', 5);
    store(acc('f32', [1 + 2 ** -11, 1 + 3 * 2 ** -12, 65520, 3 * 2 ** -25, -2.5]), g, {}, profile);
    assert.deepEqual(u16(g), [0x3c00, 0x3c01, 0x7c00, 0x0002, 0xc100], profile);
  }
  // bf16 (8-bit significand): 1 + 2^-8 ties to 1.0 = 0x3f80; 1 + 3*2^-9 -> 1 + 2^-7 = 0x3f81;
  // 1 + 3*2^-8 ties between 0x3f81 and 0x3f82 -> even 0x3f82; -0.5 = 0xbf00
  const b = gm('bf16', 4);
  store(acc('f32', [1 + 2 ** -8, 1 + 3 * 2 ** -9, 1 + 3 * 2 ** -8, -0.5]), b);
  assert.deepEqual(u16(b), [0x3f80, 0x3f81, 0x3f82, 0xbf00]);
});

test('TSTORE acc i32 -> f16 without quantisation: static_cast<half>(int) (allowed by CheckAcc2gm)', () => {
  // 2049 ties between 2048 (0x6800) and 2050 (0x6801) -> 0x6800; 2051 ties between 2050 and 2052
  // -> even 2052 = 0x6802; 70000 > 65520 -> +inf; -3 = 0xc200
  const g = gm('f16', 4);
  store(acc('i32', [2049, 2051, 70000, -3]), g);
  assert.deepEqual(u16(g), [0x6800, 0x6802, 0x7c00, 0xc200]);
});

test('TSTORE reluPreMode normal_relu: ReLU on the accumulator value, a NaN becomes 0', () => {
  const g = gm('f16', 3);
  store(acc('f32', [-3, Number.NaN, 0.75]), g, { reluPreMode: 'normal_relu' });
  assert.deepEqual(u16(g), [0x0000, 0x0000, 0x3a00]); // 0.75 = 0x3a00
  const h = gm('f16', 1);
  store(acc('i32', [-7]), h, { reluPreMode: 'normal_relu' });
  assert.deepEqual(u16(h), [0]);
});

test('TSTORE atomicType atomic_add: dst += converted value in the destination type (vec and acc)', () => {
  // f16 1.0 + 0.5 = 1.5 (0x3e00); 2048 + 1 = 2049 rounds back to 2048 (0x6800) in half
  const init = new Uint8Array(new Uint16Array([0x3c00, 0x6800]).buffer);
  const g = gm('f16', 2, init);
  store(acc('f32', [0.5, 1]), g, { atomicType: 'atomic_add' });
  assert.deepEqual(u16(g), [0x3e00, 0x6800]);
  // a vec tile: i32 7 + 5 = 12, and the axsim spelling `atomic = add`
  const v = createTile({ dtype: 'i32', rows: 1, cols: 8, validCol: 2 }, [5, -1, 0, 0, 0, 0, 0, 0]);
  const gi = new GlobalTensor(
    'i32',
    [1, 1, 1, 1, 2],
    [2, 2, 2, 2, 1],
    'ND',
    new Uint8Array(new Int32Array([7, 7]).buffer),
  );
  execute('TSTORE', { gm: gi, tile: v }, { atomic: 'add' }, { profile: 'a2a3' });
  assert.deepEqual(Array.from(new Int32Array(gi.bytes.buffer, gi.bytes.byteOffset, 2)), [12, 6]);
});

/** A scalar quant word: float scale bits, offset (bits 37..45), sign (bit 46), shift (bits 32..35). */
const word = (scaleBits: number, offset = 0, signed = false, shift = 0): bigint =>
  BigInt(scaleBits) | (BigInt(shift) << 32n) | (BigInt(offset) << 37n) | (signed ? 1n << 46n : 0n);

test('TSTORE(dst, acc, preQuantScalar): DEQF16, REQ8 and QF322B8 as quantize_element computes them', () => {
  // DEQF16 (i32 -> f16), scale 0.25 (0x3e800000): 6 -> 1.5 (0x3e00); 10^6 -> 250000, clamped to 65504
  // (0x7bff); -2 -> -0.5 (0xb800)
  const g = gm('f16', 3);
  store(acc('i32', [6, 1_000_000, -2]), g, { preQuant: word(0x3e800000) });
  assert.deepEqual(u16(g), [0x3e00, 0x7bff, 0xb800]);
  // REQ8 (i32 -> i8), scale 0.5, offset 3, signed: 5 -> 2.5 + 3 = 5.5 -> nearbyint 6 (tie to even);
  // 3 -> 1.5 + 3 = 4.5 -> 4; -300 -> -150 + 3 = -147 -> clamp -128; 600 -> 303 -> clamp 127
  const q = gm('i8', 4);
  store(acc('i32', [5, 3, -300, 600]), q, { preQuant: word(0x3f000000, 3, true) });
  assert.deepEqual(i8(q), [6, 4, -128, 127]);
  // unsigned range [0, 255] (bit 46 clear): -10 -> -5 + 3 = -2 -> 0; the u8 300 -> 153
  const u = new GlobalTensor('u8', [1, 1, 1, 1, 2], [2, 2, 2, 2, 1], 'ND', new Uint8Array(2));
  store(acc('i32', [-10, 300]), u, { preQuant: word(0x3f000000, 3, false) });
  assert.deepEqual(Array.from(u.bytes), [0, 153]);
  // QF322B8 (f32 -> i8), scale 1, offset 0, signed: 2.5 -> 2, 3.5 -> 4, 200 -> 127; ReLU after: -4 -> 0
  const f = gm('i8', 4);
  store(acc('f32', [2.5, 3.5, 200, -4]), f, {
    preQuant: word(0x3f800000, 0, true),
    reluPreMode: 'normal_relu',
  });
  assert.deepEqual(i8(f), [2, 4, 127, 0]);
});

test('TSTORE pre-quant SHIFTS322S16 (cpu): int16(src >> (shift + 1))', () => {
  // shift field 3 -> >> 4: 0x12345 -> 0x1234 = 4660; -100 -> -7 (arithmetic shift, floor);
  // 0x7fffffff >> 4 = 0x07ffffff -> (int16_t) 0xffff = -1
  const g = gm('i16', 3);
  store(acc('i32', [0x12345, -100, 0x7fffffff]), g, { preQuant: word(0, 0, false, 3) }, 'cpu');
  assert.deepEqual(Array.from(new Int16Array(g.bytes.buffer, g.bytes.byteOffset, 3)), [4660, -7, -1]);
});

test('TSTORE forms the A2/A3 kernel static_asserts are BadInput naming the rule', () => {
  const bad = (f: () => void, rule: RegExp) =>
    assert.throws(
      f,
      (e) =>
        cat(e, 'BadInput') && rule.test((e as Error).message) && /TStore\.hpp/.test((e as Error).message),
    );
  // f32 accumulator with a pre-quant scalar to f16: A2/A3 allows int8 / uint8 only
  bad(() => store(acc('f32', [1]), gm('f16', 1), { preQuant: word(0x3f800000) }), /pre-quant scalar/);
  // no quantisation: the destination must be int32 / float / half / bfloat16
  bad(() => store(acc('f32', [1]), gm('i8', 1)), /int32_t\/float\/half\/bfloat16_t/);
  // ReLU on a vec tile
  const v = createTile({ dtype: 'f16', rows: 1, cols: 16 });
  bad(
    () =>
      execute('TSTORE', { gm: gm('f16', 16), tile: v }, { reluPreMode: 'normal_relu' }, { profile: 'a2a3' }),
    /only support Acc/,
  );
  // a vec tile still converts nothing
  assert.throws(
    () => execute('TSTORE', { gm: gm('i16', 16), tile: v }, {}, { profile: 'a2a3' }),
    (e) => cat(e, 'Unsupported'),
  );
});
