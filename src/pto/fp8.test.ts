import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { execute, type Profile, Tile } from './index.ts';

// fp8, both encodings, both directions, all 256 codes, per profile, through TCVT.
//
// cpu profile (PTO-FORMAT.md "Element encodings", PTO-NOTES §2 fp8): the simulator's MXType — sign,
// E exponent bits, M mantissa bits, bias 7 / 15, no Inf/NaN codes (every exponent is a finite
// normal, exponent 0 is subnormal), and 0x80 reads as +0. Encoding truncates the mantissa; an
// exponent that lands on 0 keeps the truncated fraction bits without the implicit one (so the codes
// 4..7 of E4M3 / 2..3 of E5M2 do not survive a round trip), zero of either sign encodes as 0x00.
// a5 profile: OCP FP8 (E4M3 "FN": 0x7f/0xff NaN, no Inf; E5M2: IEEE-like with Inf and NaN).
// a2a3: no fp8 at all.

type Fmt = { name: 'f8e4m3' | 'f8e5m2'; E: number; M: number; bias: number };
const FMTS: Fmt[] = [
  { name: 'f8e4m3', E: 4, M: 3, bias: 7 },
  { name: 'f8e5m2', E: 5, M: 2, bias: 15 },
];

function f32(x: number): number {
  const b = Buffer.alloc(4);
  b.writeFloatLE(x);
  return b.readUInt32LE(0);
}

/** The value of a code written out from the format description (independent of the simulator code). */
function value(f: Fmt, code: number, profile: Profile): number {
  const s = code >> 7 ? -1 : 1;
  const e = (code >> f.M) & ((1 << f.E) - 1);
  const m = code & ((1 << f.M) - 1);
  if (profile === 'a5') {
    if (f.name === 'f8e4m3' && e === 15 && m === 7) return Number.NaN;
    if (f.name === 'f8e5m2' && e === 31) return m === 0 ? s * Number.POSITIVE_INFINITY : Number.NaN;
  } else if (code === 0x80) {
    return 0;
  }
  if (e === 0) return s * m * 2 ** (1 - f.bias - f.M);
  return s * (1 + m / 2 ** f.M) * 2 ** (e - f.bias);
}

function codesTile(f: Fmt): Tile {
  const t = new Tile({ dtype: f.name, rows: 8, cols: 32 });
  for (let i = 0; i < 256; i++) t.bytes[i] = i;
  return t;
}

function decodeAll(f: Fmt, profile: Profile): Uint32Array {
  const dst = new Tile({ dtype: 'f32', rows: 8, cols: 32 });
  execute('TCVT', { dst, src: codesTile(f) }, { roundMode: 'CAST_RINT', satMode: 'OFF' }, { profile });
  return new Uint32Array(dst.bytes.buffer, dst.bytes.byteOffset, 256);
}

for (const profile of ['cpu', 'a5'] as const) {
  for (const f of FMTS) {
    test(`${f.name} -> f32, all 256 codes (${profile})`, () => {
      const got = decodeAll(f, profile);
      for (let c = 0; c < 256; c++) {
        const v = value(f, c, profile);
        if (Number.isNaN(v))
          assert.ok((got[c]! & 0x7fffffff) > 0x7f800000, `code ${c.toString(16)} should be NaN`);
        else assert.equal(got[c], f32(v), `code 0x${c.toString(16)}`);
      }
    });

    test(`f32 -> ${f.name}, all 256 code values (${profile})`, () => {
      const src = new Tile({ dtype: 'f32', rows: 8, cols: 32 });
      const sv = new Float32Array(src.bytes.buffer, src.bytes.byteOffset, src.numel);
      for (let c = 0; c < 256; c++) sv[c] = value(f, c, profile);
      const dst = new Tile({ dtype: f.name, rows: 8, cols: 32 });
      execute('TCVT', { dst, src }, { roundMode: 'CAST_RINT', satMode: 'OFF' }, { profile });
      for (let c = 0; c < 256; c++) {
        const got = dst.bytes[c]!;
        const v = value(f, c, profile);
        let want = c;
        if (profile === 'cpu') {
          const e = (c >> f.M) & ((1 << f.E) - 1);
          const m = c & ((1 << f.M) - 1);
          const sign = c & 0x80;
          if (v === 0)
            want = 0; // +0 and the 0x80 code both encode as 0x00
          else if (e === 0 && m >= 1 << (f.M - 1)) {
            // exponent field 0 after re-biasing: the fraction bits of v / 2^(1-bias) - 1 stay
            const frac = (Math.abs(v) / 2 ** -f.bias - 1) * 2 ** f.M;
            want = sign | frac;
          }
          assert.equal(got, want, `code 0x${c.toString(16)} (value ${v})`);
        } else if (Number.isNaN(v)) {
          assert.ok(
            Number.isNaN(value(f, got, profile)),
            `NaN code 0x${c.toString(16)} -> 0x${got.toString(16)}`,
          );
        } else {
          assert.equal(got, want, `code 0x${c.toString(16)} (value ${v})`);
        }
      }
    });
  }
}

test('cpu fp8 encoding truncates and wraps the exponent (PTO-NOTES §2)', () => {
  const src = new Tile({ dtype: 'f32', rows: 1, cols: 8 });
  const sv = new Float32Array(src.bytes.buffer, src.bytes.byteOffset, src.numel);
  // 1/512 + (-448) = -447.998..: truncation gives -416 (1.101b * 2^8 -> code 1 1111 101 = 0xfd)
  sv.set([1 / 512 + -448, 1.9, 512, -0, 2 ** -10]);
  const dst = new Tile({ dtype: 'f8e4m3', rows: 1, cols: 32 });
  execute('TCVT', { dst, src }, { roundMode: 'CAST_RINT', satMode: 'OFF' }, { profile: 'cpu' });
  // 1.9 = 1.111..b -> mantissa 111, exponent 7 -> 0x3f; 512 = 2^9: exponent 16 wraps to 0 -> 0x00;
  // -0 -> 0x00; 2^-10: exponent -3 -> (1000b >> 4) = 0 -> 0x00
  assert.deepEqual([...dst.bytes.subarray(0, 5)], [0xfd, 0x3f, 0x00, 0x00, 0x00]);
});

test('a2a3 has no fp8 types', () => {
  const f = FMTS[0]!;
  const dst = new Tile({ dtype: 'f32', rows: 8, cols: 32 });
  assert.throws(
    () => execute('TCVT', { dst, src: codesTile(f) }, { roundMode: 'CAST_RINT' }, { profile: 'a2a3' }),
    (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported' && e.message.includes('f8e4m3'),
  );
});
