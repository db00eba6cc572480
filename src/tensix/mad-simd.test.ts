/**
 * The SIMD multiply-add (mad-simd.ts) against the bit-exact scalar model (fma.ts), lane for lane:
 * random operands, the special values, and operands built to land on the model's boundary cases
 * (rounding ties and near-ties, cancellation, carries into the next binade, exponent differences
 * around the 24..31-bit alignment limits, results at the edges of the normal range). Both the
 * in-place path (LReg file in the kernel's memory) and the copy path, every mask, broadcast strides
 * and Blackhole's negation bits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { madLanesAny, madLanesWh } from './fma.ts';
import { allocLregFile, madLanesSimd, poolAddress, simdAvailable } from './mad-simd.ts';
import { LREG_ROWS } from './state.ts';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function bitsOf(x: number): number {
  f32[0] = x;
  return u32[0]!;
}
function floatOf(b: number): number {
  u32[0] = b;
  return f32[0]!;
}

const SPECIAL = [
  0, 0x80000000, 1, 0x807fffff, 0x7fffff, 0x800000, 0x80800000, 0x3f800000, 0xbf800000, 0x7f7fffff,
  0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xff800001, 0x00ffffff, 0x3f7fffff, 0x3f800001, 0x33800000,
  0x4b800000, 0x00800001, 0x01000000, 0x7f000000,
];

/** One lane's operands (x, y, z) as raw bits. */
const normal = (lo: number, hi: number) =>
  fc
    .tuple(fc.boolean(), fc.integer({ min: lo, max: hi }), fc.integer({ min: 0, max: 0x7fffff }))
    .map(([neg, e, m]) => ((neg ? 0x80000000 : 0) | (e << 23) | m) >>> 0);

const lane: fc.Arbitrary<[number, number, number]> = fc.oneof(
  // anything
  fc.tuple(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff })),
  // specials mixed with normals
  fc.tuple(
    fc.oneof(fc.constantFrom(...SPECIAL), normal(1, 254)),
    fc.oneof(fc.constantFrom(...SPECIAL), normal(1, 254)),
    fc.oneof(fc.constantFrom(...SPECIAL), normal(0, 255)),
  ),
  // z near -(x*y): cancellation, and z near x*y rounded: ties and carries, with exponent offsets
  fc
    .tuple(
      normal(100, 154),
      normal(100, 154),
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -34, max: 34 }),
      fc.boolean(),
    )
    .map(([x, y, ulps, k, neg]): [number, number, number] => {
      const p = Math.fround(floatOf(x) * floatOf(y));
      let zb = (bitsOf(p * 2 ** k) + ulps) >>> 0;
      if (neg) zb ^= 0x80000000;
      return [x, y, zb];
    }),
  // products and sums at the edges of the normal range
  fc.tuple(normal(1, 20), normal(100, 130), normal(0, 30)),
  fc.tuple(normal(230, 254), normal(120, 140), normal(230, 254)),
  // small significands (exact products, exact ties after alignment)
  fc
    .tuple(
      fc.nat({ max: 255 }),
      fc.nat({ max: 255 }),
      fc.nat({ max: 0xffff }),
      fc.integer({ min: 110, max: 150 }),
    )
    .map(([a, b, c, e]): [number, number, number] => [
      ((e << 23) | (a << 15)) >>> 0,
      ((127 << 23) | (b << 15)) >>> 0,
      ((((e + (c & 31) - 16) & 255) << 23) | ((c >>> 5) << 16) | (c & 0x8000 ? 0x80000000 : 0)) >>> 0,
    ]),
);

const WORDS = LREG_ROWS * 32;

describe('SIMD multiply-add against the scalar model', () => {
  it('WebAssembly SIMD is available on this host (the fast path under test)', () => {
    assert.equal(simdAvailable(), true);
    assert.ok(poolAddress(allocLregFile(WORDS)) >= 0);
  });

  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: bit-identical on random and boundary operands (3000 x 32 lanes, both paths)`, () => {
      const inPool = allocLregFile(WORDS);
      const plain = new Uint32Array(WORDS);
      const ref = new Uint32Array(WORDS);
      fc.assert(
        fc.property(
          fc.array(lane, { minLength: 32, maxLength: 32 }),
          fc.oneof(fc.constant(-1), fc.integer()),
          fc.integer({ min: 0, max: 3 }),
          fc.integer({ min: 0, max: 7 }),
          fc.integer({ min: 0, max: 2 }),
          (lanes, mask, flip, strides, alias) => {
            // rows: A = 0, B = 1, C = 2, D = 3 (or aliased onto A / C when all strides are 1)
            ref.fill(0x5a5a5a5a);
            for (let l = 0; l < 32; l++) {
              ref[l] = lanes[l]![0];
              ref[32 + l] = lanes[l]![1];
              ref[64 + l] = lanes[l]![2];
            }
            const sa = strides & 1 ? 0 : 1;
            const sb = strides & 2 ? 0 : 1;
            const sc = strides & 4 ? 0 : 1;
            const d = strides === 0 && alias === 1 ? 0 : strides === 0 && alias === 2 ? 64 : 96;
            inPool.set(ref);
            plain.set(ref);
            if (arch === 'wormhole') {
              madLanesWh(ref, mask, 0, sa, 32, sb, 64, sc, d);
              madLanesSimd(inPool, poolAddress(inPool), mask, 0, sa, 32, sb, 64, sc, d, 0, 1);
              madLanesSimd(plain, -1, mask, 0, sa, 32, sb, 64, sc, d, 0, 1);
            } else {
              madLanesAny(ref, mask, 0, sa, 32, sb, 64, sc, d, flip, true);
              madLanesSimd(inPool, poolAddress(inPool), mask, 0, sa, 32, sb, 64, sc, d, flip, 0);
              madLanesSimd(plain, -1, mask, 0, sa, 32, sb, 64, sc, d, flip, 0);
            }
            for (let i = 0; i < 5 * 32; i++) {
              if (inPool[i] !== ref[i] || plain[i] !== ref[i]) {
                const l = i & 31;
                assert.fail(
                  `word ${i}: scalar 0x${ref[i]!.toString(16)}, in place 0x${inPool[i]!.toString(16)}, copied 0x${plain[i]!.toString(16)} (lane ${l}: ${lanes[l]!.map((v) => `0x${v.toString(16)}`).join(' ')})`,
                );
              }
            }
          },
        ),
        { numRuns: 3000, seed: arch === 'wormhole' ? 1 : 2 },
      );
    });
  }

  it('a tie rounds to even; a sticky bit survives a cancellation (worked by hand from B1)', () => {
    // Lane 0: 1.5 * (1 + 2^-23) = 1.5 + 2^-23 + 2^-24: a tie between 1.5 + 2^-23 (odd) and
    // 1.5 + 2^-22 (even), rounded to even: 0x3fc00002.
    // Lane 1: (1 + 2^-23)^2 - 1. The product 1 + 2^-22 + 2^-46 is kept with 26 fraction bits, the
    // 2^-46 as a sticky bit worth 2^-26; minus 1 leaves 2^-22 + 2^-26 (exact, normalised):
    // exponent field 127 - 22 = 105, fraction 2^-4 = 0x080000: 0x34880000.
    for (const inPool of [true, false]) {
      const L = inPool ? allocLregFile(WORDS) : new Uint32Array(WORDS);
      for (let l = 0; l < 32; l++) {
        L[l] = l & 1 ? 0x3f800001 : 0x3fc00000;
        L[32 + l] = 0x3f800001;
        L[64 + l] = l & 1 ? 0xbf800000 : 0;
      }
      const S = L.slice();
      madLanesSimd(L, poolAddress(L), -1, 0, 1, 32, 1, 64, 1, 96, 0, 1);
      madLanesWh(S, -1, 0, 1, 32, 1, 64, 1, 96);
      for (const R of [L, S]) {
        assert.equal(R[96], 0x3fc00002);
        assert.equal(R[97], 0x34880000);
      }
    }
  });
});
