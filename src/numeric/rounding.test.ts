/**
 * Issue 2 acceptance: encode-from-fp32 agrees with an independent oracle on every fp32 value near
 * each rounding boundary (representable values and their fp32 neighbours, midpoints and their
 * neighbours, subnormal edges, overflow thresholds), both signs, for every rounding mode, with and
 * without saturation and denormal flushing. The oracle (testing/oracle.ts) enumerates the format's
 * values with BigInt and rounds by exact comparison. For binary16 RNE, @petamoriken/float16's
 * f16round is a second, external oracle.
 *
 * TF32 has 2^18 positive intervals; all of them are checked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { f16round } from '@petamoriken/float16';
import {
  BF16,
  bitsToF32,
  E2M1,
  E2M3,
  E3M2,
  E4M3,
  E5M2,
  type EncodeOptions,
  encodeFromF32Bits,
  FP16,
  f32BitsToBf16,
  f32BitsToE4m3,
  f32BitsToE5m2,
  f32BitsToFp16,
  f32BitsToTf32,
  fp16ToF32Bits,
  type Minifloat,
  type RoundMode,
  TF32,
} from './index.ts';
import {
  boundaryPoints,
  buildTable,
  type FormatTable,
  oracleEncode,
  oracleFrac32,
} from './testing/oracle.ts';

const DET_MODES: RoundMode[] = ['rne', 'rtz', 'rna'];

/** The public per-format function, so both it and the generic codec are checked. */
type Encoder = (b: number, m: RoundMode, o?: EncodeOptions) => number;
const PUBLIC = new Map<Minifloat, Encoder>([
  [FP16, f32BitsToFp16],
  [BF16, f32BitsToBf16],
  [E4M3, f32BitsToE4m3],
  [E5M2, f32BitsToE5m2],
  [TF32, (b, m, o) => f32BitsToTf32(b, m, o) >>> 13],
]);

function check(f: Minifloat, t: FormatTable, mags: number[], optionSets: object[]): number {
  const pub = PUBLIC.get(f);
  let n = 0;
  const fail = (what: string, b: number, got: number, want: number) =>
    assert.fail(
      `${f.name} ${what} fp32 0x${b.toString(16)}: got 0x${got.toString(16)}, oracle 0x${want.toString(16)}`,
    );
  for (const o of optionSets) {
    const noOpts = Object.keys(o).length === 0;
    const so: Record<string, unknown> = { ...o, rand: 0 };
    for (const mag of mags) {
      // Random words at the exact stochastic threshold (2^32 - frac rounds up, one less does not),
      // and the extremes.
      const frac = oracleFrac32(t, mag);
      const rands = frac > 0 ? [0, 2 ** 32 - frac, 2 ** 32 - frac - 1, 0xffffffff] : [0, 0xffffffff];
      for (const b of [mag, (mag + 0x80000000) >>> 0]) {
        for (const mode of DET_MODES) {
          const want = oracleEncode(t, b, mode, o);
          const got = encodeFromF32Bits(f, b, mode, o);
          if (got !== want) fail(`${mode} ${JSON.stringify(o)}`, b, got, want);
          if (pub) {
            const got2 = pub(b, mode, noOpts ? undefined : o);
            if (got2 !== want) fail(`public fn ${mode} ${JSON.stringify(o)}`, b, got2, want);
          }
          n++;
        }
        for (const rand of rands) {
          so.rand = rand;
          const want = oracleEncode(t, b, 'stochastic', so);
          const got = encodeFromF32Bits(f, b, 'stochastic', so);
          if (got !== want) fail(`stochastic ${JSON.stringify(so)}`, b, got, want);
          n++;
        }
      }
    }
  }
  return n;
}

const ALL_OPTIONS = [
  {},
  { saturate: true },
  { flushIn: true },
  { flushOut: true },
  { saturate: true, flushIn: true, flushOut: true },
];

function specOf(f: Minifloat) {
  return { expBits: f.expBits, manBits: f.manBits, bias: f.bias, special: f.special };
}

for (const f of [E4M3, E5M2, E3M2, E2M3, E2M1]) {
  test(`${f.name}: every boundary point, every mode and option set, agrees with the oracle`, () => {
    const t = buildTable(specOf(f));
    const n = check(f, t, boundaryPoints(t), ALL_OPTIONS);
    assert.ok(n > 1000);
  });
}

for (const f of [FP16, BF16]) {
  test(`${f.name}: every boundary point agrees with the oracle in every mode`, () => {
    const t = buildTable(specOf(f));
    const pts = boundaryPoints(t);
    check(f, t, pts, [{}]);
    // Options matter only for subnormals (flush) and overflow (saturate): all of those points.
    const sub = 2 ** f.manBits;
    const edgeCodes = [
      ...Array.from({ length: sub + 1 }, (_, c) => c),
      t.maxCode - 2,
      t.maxCode - 1,
      t.maxCode,
    ];
    check(f, t, boundaryPoints(t, edgeCodes), ALL_OPTIONS.slice(1));
  });
}

test('binary16 RNE agrees with @petamoriken/float16 f16round on every boundary point', () => {
  const t = buildTable(specOf(FP16));
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  for (const mag of boundaryPoints(t)) {
    for (const b of [mag, (mag + 0x80000000) >>> 0]) {
      u32[0] = b;
      const ref = f16round(f32[0]!);
      const got = bitsToF32(fp16ToF32Bits(f32BitsToFp16(b)));
      assert.equal(got, ref, `fp32 0x${b.toString(16)}`);
    }
  }
});

test('tf32: the boundary points of every interval agree with the oracle', () => {
  const t = buildTable(specOf(TF32));
  const per = 2 ** TF32.manBits;
  // Every one of the 2^18 code intervals: a few seconds, so no sampling.
  const codes = Array.from({ length: t.maxCode + 1 }, (_, c) => c);
  check(TF32, t, boundaryPoints(t, codes), [{}]);
  const edgeCodes = [...Array.from({ length: per + 1 }, (_, c) => c), t.maxCode - 1, t.maxCode];
  check(TF32, t, boundaryPoints(t, edgeCodes), ALL_OPTIONS.slice(1));
});
