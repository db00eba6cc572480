import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { DTYPES, type DType, execute, type Profile, Tile } from './index.ts';

// Valid-region semantics of TADD (spec 002 pto.tadd): the iteration domain is the destination's
// valid region; a source lane outside that source's valid region reads all-one bits on A2/A3 and
// A5, and whatever the buffer holds on the CPU simulator (PTO-NOTES §1). dst lanes outside dst's
// valid region are not written.
//
// Inputs: src0 holds 1 and src1 holds 2 in their valid lanes, zero bytes elsewhere; dst is filled
// with 0xCD. Expected bytes per element type, worked out by hand:
//   1 + 2 = 3 in every encoding; cpu stale reads give 0 + 2 = 2, 1 + 0 = 1, 0 + 0 = 0;
//   a2a3/a5 all-ones reads: integers are -1 (or 2^w - 1), so 0xFF..FF + 2 = 1, 1 + 0xFF..FF = 0,
//   0xFF..FF + 0xFF..FF = 0xFF..FE; f32/f16/bf16 all-ones is a NaN, so the sum is a NaN;
//   OCP fp8 (a5) 0xFF is NaN in both E4M3 and E5M2.

const THREE: Record<DType, string> = {
  f32: '00004040', // 3.0 = 1.5 * 2^1: exponent 128, mantissa 0x400000
  f16: '0042', // exponent 16, mantissa 0x200
  bf16: '4040',
  i8: '03',
  i16: '0300',
  i32: '03000000',
  i64: '0300000000000000',
  u8: '03',
  u16: '0300',
  u32: '03000000',
  u64: '0300000000000000',
  f8e4m3: '44', // 0 1000 100: 1.5 * 2^(8-7)
  f8e5m2: '42', // 0 10000 10: 1.5 * 2^(16-15)
};
const ONE: Record<DType, string> = {
  f32: '0000803f',
  f16: '003c',
  bf16: '803f',
  i8: '01',
  i16: '0100',
  i32: '01000000',
  i64: '0100000000000000',
  u8: '01',
  u16: '0100',
  u32: '01000000',
  u64: '0100000000000000',
  f8e4m3: '38', // 0 0111 000
  f8e5m2: '3c', // 0 01111 00
};
const TWO: Record<DType, string> = {
  f32: '00000040',
  f16: '0040',
  bf16: '0040',
  i8: '02',
  i16: '0200',
  i32: '02000000',
  i64: '0200000000000000',
  u8: '02',
  u16: '0200',
  u32: '02000000',
  u64: '0200000000000000',
  f8e4m3: '40',
  f8e5m2: '40',
};

const isFloat = (d: DType) => ['f32', 'f16', 'bf16', 'f8e4m3', 'f8e5m2'].includes(d);
const size = (d: DType) => THREE[d].length / 2;
const zeros = (d: DType) => '00'.repeat(size(d));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function isNaNHex(d: DType, h: string): boolean {
  const b = Buffer.from(h, 'hex');
  switch (d) {
    case 'f32': {
      const v = b.readUInt32LE(0);
      return (v & 0x7f800000) === 0x7f800000 && (v & 0x7fffff) !== 0;
    }
    case 'f16': {
      const v = b.readUInt16LE(0);
      return (v & 0x7c00) === 0x7c00 && (v & 0x3ff) !== 0;
    }
    case 'bf16': {
      const v = b.readUInt16LE(0);
      return (v & 0x7f80) === 0x7f80 && (v & 0x7f) !== 0;
    }
    case 'f8e4m3':
      return (b[0]! & 0x7f) === 0x7f;
    case 'f8e5m2':
      return (b[0]! & 0x7f) > 0x7c;
    default:
      return false;
  }
}

function filled(
  d: DType,
  rows: number,
  cols: number,
  vr: number,
  vc: number,
  inside: string,
  outside: string,
): Tile {
  const t = new Tile({ dtype: d, rows, cols, validRow: vr, validCol: vc });
  const n = size(d);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const h = r < vr && c < vc ? inside : outside;
      t.bytes.set(Buffer.from(h, 'hex'), (r * cols + c) * n);
    }
  }
  return t;
}

/** Expected element of dst at (r,c) given whether each source lane is valid. */
function expected(d: DType, profile: Profile, in0: boolean, in1: boolean): string | 'NaN' {
  if (in0 && in1) return THREE[d];
  if (profile === 'cpu') return in0 ? ONE[d] : in1 ? TWO[d] : zeros(d);
  if (isFloat(d)) return 'NaN';
  if (!in0 && !in1) return `fe${'ff'.repeat(size(d) - 1)}`;
  return in1 ? ONE[d] : zeros(d); // 0xFF..FF + 2 = 1; 1 + 0xFF..FF = 0
}

const SUPPORTED: Record<Profile, readonly DType[]> = {
  cpu: DTYPES,
  a2a3: ['f32', 'f16', 'bf16', 'i32', 'i16'],
  a5: ['f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'u8', 'f8e4m3', 'f8e5m2'],
};

const R = 4;
const C = 8;
type Shape = [number, number];
const CASES: Record<string, { dst: Shape; src0: Shape; src1: Shape }> = {
  'dst smaller than both sources': { dst: [2, 3], src0: [4, 8], src1: [4, 8] },
  'all equal': { dst: [3, 5], src0: [3, 5], src1: [3, 5] },
  'dst larger than both sources': { dst: [4, 8], src0: [2, 4], src1: [3, 2] },
  'dst larger than src0 only': { dst: [4, 8], src0: [1, 8], src1: [4, 8] },
  'dst larger than src1 only': { dst: [4, 8], src0: [4, 8], src1: [4, 5] },
};

for (const profile of ['cpu', 'a2a3', 'a5'] as const) {
  test(`TADD valid regions on the ${profile} profile, every element type`, () => {
    for (const d of DTYPES) {
      for (const [name, s] of Object.entries(CASES)) {
        const dst = filled(d, R, C, s.dst[0], s.dst[1], 'cd'.repeat(size(d)), 'cd'.repeat(size(d)));
        const src0 = filled(d, R, C, s.src0[0], s.src0[1], ONE[d], zeros(d));
        const src1 = filled(d, R, C, s.src1[0], s.src1[1], TWO[d], zeros(d));
        if (!SUPPORTED[profile].includes(d)) {
          assert.throws(
            () => execute('TADD', { dst, src0, src1 }, {}, { profile }),
            (e: unknown) =>
              e instanceof AxsimError &&
              e.category === 'Unsupported' &&
              /TADD/.test(e.message) &&
              e.message.includes(d),
            `${profile} ${d} should be Unsupported`,
          );
          continue;
        }
        execute('TADD', { dst, src0, src1 }, {}, { profile });
        const n = size(d);
        for (let r = 0; r < R; r++) {
          for (let c = 0; c < C; c++) {
            const got = hex(dst.bytes.subarray((r * C + c) * n, (r * C + c + 1) * n));
            const where = `${profile} ${d} ${name} (${r},${c})`;
            if (!(r < s.dst[0] && c < s.dst[1])) {
              assert.equal(got, 'cd'.repeat(n), `${where}: outside dst's valid region must be untouched`);
              continue;
            }
            const in0 = r < s.src0[0] && c < s.src0[1];
            const in1 = r < s.src1[0] && c < s.src1[1];
            const want = expected(d, profile, in0, in1);
            if (want === 'NaN') assert.ok(isNaNHex(d, got), `${where}: expected a NaN, got ${got}`);
            else assert.equal(got, want, where);
          }
        }
      }
    }
  });
}

// TMUL, same inputs: 1 * 2 = 2; cpu stale zero bytes give 0; all-ones reads give, for integers,
// 1 * 0xFF..FF = 0xFF..FF, 0xFF..FF * 2 = 0xFF..FE, 0xFF..FF * 0xFF..FF = 1 (mod 2^w); floats NaN.
// A2/A3 and A5 type lists from tmul.md.
const TMUL_SUPPORTED: Record<Profile, readonly DType[]> = {
  cpu: DTYPES,
  a2a3: ['i32', 'i16', 'f16', 'f32'],
  a5: ['i32', 'u32', 'f32', 'i16', 'u16', 'f16', 'bf16'],
};
function expectedMul(d: DType, profile: Profile, in0: boolean, in1: boolean): string | 'NaN' {
  if (in0 && in1) return TWO[d];
  if (profile === 'cpu') return zeros(d);
  if (isFloat(d)) return 'NaN';
  if (in0) return 'ff'.repeat(size(d));
  if (in1) return `fe${'ff'.repeat(size(d) - 1)}`;
  return ONE[d];
}

for (const profile of ['cpu', 'a2a3', 'a5'] as const) {
  test(`TMUL valid regions on the ${profile} profile, every element type`, () => {
    for (const d of DTYPES) {
      for (const [name, s] of Object.entries(CASES)) {
        const dst = filled(d, R, C, s.dst[0], s.dst[1], 'cd'.repeat(size(d)), 'cd'.repeat(size(d)));
        const src0 = filled(d, R, C, s.src0[0], s.src0[1], ONE[d], zeros(d));
        const src1 = filled(d, R, C, s.src1[0], s.src1[1], TWO[d], zeros(d));
        if (!TMUL_SUPPORTED[profile].includes(d)) {
          assert.throws(
            () => execute('TMUL', { dst, src0, src1 }, {}, { profile }),
            (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported' && e.message.includes(d),
          );
          continue;
        }
        execute('TMUL', { dst, src0, src1 }, {}, { profile });
        const n = size(d);
        for (let r = 0; r < R; r++) {
          for (let c = 0; c < C; c++) {
            const got = hex(dst.bytes.subarray((r * C + c) * n, (r * C + c + 1) * n));
            const where = `${profile} ${d} ${name} (${r},${c})`;
            if (!(r < s.dst[0] && c < s.dst[1])) {
              assert.equal(got, 'cd'.repeat(n), where);
              continue;
            }
            const want = expectedMul(
              d,
              profile,
              r < s.src0[0] && c < s.src0[1],
              r < s.src1[0] && c < s.src1[1],
            );
            if (want === 'NaN') assert.ok(isNaNHex(d, got), `${where}: expected a NaN, got ${got}`);
            else assert.equal(got, want, where);
          }
        }
      }
    }
  });
}

test('sources are not modified by the all-ones rule', () => {
  const src0 = filled('i32', 4, 8, 2, 2, ONE.i32, zeros('i32'));
  const src1 = filled('i32', 4, 8, 4, 8, TWO.i32, zeros('i32'));
  const dst = new Tile({ dtype: 'i32', rows: 4, cols: 8 });
  const before = hex(src0.bytes);
  execute('TADD', { dst, src0, src1 }, {}, { profile: 'a2a3' });
  assert.equal(hex(src0.bytes), before);
});

test('ColMajor operands are rejected on a2a3 and a5 (RowMajor only), accepted on cpu', () => {
  const mk = () => new Tile({ dtype: 'f32', rows: 8, cols: 4, blayout: 'col' });
  for (const profile of ['a2a3', 'a5'] as const) {
    assert.throws(
      () => execute('TADD', { dst: mk(), src0: mk(), src1: mk() }, {}, { profile }),
      (e: unknown) => e instanceof AxsimError && e.category === 'Unsupported' && /RowMajor/.test(e.message),
    );
  }
  execute('TADD', { dst: mk(), src0: mk(), src1: mk() }, {}, { profile: 'cpu' });
});
