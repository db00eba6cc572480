/**
 * SFPI library constructs (issue 12): s2vFloat16a/b, constant registers as values and operands, the
 * programmable constants written and read. Expected instruction sequences follow sfpi's headers
 * (sfpi_fp16.h: s2vFloat16a/b load with SFPLOADI_MOD0_FLOATA 1 / FLOATB 0; sfpi_imp.h
 * __vConstFloat::operator=: the value loaded then SFPCONFIG to LReg 12..14; sfpi_constants.h: the
 * constant LRegs 9 = 0.0, 10 = 1.0, 11 = -1.0, 12..14 programmable); values are worked out by hand.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { disassemble } from '../asm/index.ts';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { f32ToBits } from '../llk/checks.ts';
import { runLlkKernel } from '../llk/run.ts';
import { compileSfpi } from './compile.ts';
import { fp16aOfF32 } from './trace.ts';

const FILE = join(import.meta.dirname, '../../../test/fixtures/sfpi/lib.h');
const SOURCE = readFileSync(FILE, 'utf8');
const L = (n: number) => `p_sfpu::LREG${n}`;
const listing = (arch: Arch, entry: string) =>
  disassemble(compileSfpi(SOURCE, arch, { file: FILE, entry }).words, arch, { style: 'macro' });

/** Runs an entry over a tile whose element i is (i % 17) - 8, returns the FP32 result bits. */
async function run(arch: Arch, entry: string) {
  const m = new TensixMachine(arch);
  m.writeDstTile(
    0,
    Array.from({ length: 1024 }, (_, i) => f32ToBits((i % 17) - 8)),
    'fp32',
  );
  const r = await runLlkKernel(m, { source: SOURCE, file: FILE, entry });
  return { r, out: Array.from(m.readDstTile(0, 'fp32'), (b) => b >>> 0) };
}

describe('s2vFloat16a/b host conversion (sfpi_fp16.h)', () => {
  it('FP16A: exponent rebiased 127 -> 15, mantissa rounded half up, saturating, denormals', () => {
    assert.equal(fp16aOfF32(f32ToBits(1)), 0x3c00); // 2^0: exponent 15
    assert.equal(fp16aOfF32(f32ToBits(-1.5)), 0xbe00);
    assert.equal(fp16aOfF32(f32ToBits(1 + 2 ** -11)), 0x3c01); // exactly half an FP16A ulp: up
    assert.equal(fp16aOfF32(f32ToBits(1 + 2 ** -12)), 0x3c00); // a quarter: down
    assert.equal(fp16aOfF32(f32ToBits(65504)), 0x7bff); // largest IEEE half
    assert.equal(fp16aOfF32(f32ToBits(2 ** 17)), 0x7fff); // biased exponent 144 > 143: saturated
    assert.equal(fp16aOfF32(f32ToBits(2 ** -15)), 0x0200); // a denormal: 2^-15 = 512 * 2^-24
  });
});

for (const arch of ['wormhole', 'blackhole'] as const) {
  const am = arch === 'wormhole' ? 'ADDR_MOD_3' : 'ADDR_MOD_7';
  const nop = arch === 'wormhole' ? ['TTI_SFPNOP;'] : [];
  describe(`SFPI library constructs (${arch})`, () => {
    it('s2vFloat16a(pattern) is SFPLOADI FLOATA, s2vFloat16b(float) SFPLOADI FLOATB of its high half', () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::load_f16'), [
        `TTI_SFPLOADI(${L(0)}, 1, 0x3e00);`,
        `TTI_SFPLOADI(${L(1)}, 0, 0xbf40);`, // -0.75f = 0xbf400000
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPSTORE(${L(1)}, 0, ${am}, 2);`,
      ]);
    });
    it('vConstFloatPrgm0 = 2.5f then read as the MAD operand LReg 12', () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::scale_by_prgm0<1>'), [
        `TTI_SFPLOADI(${L(0)}, 0, 0x4020);`, // 2.5f = 0x40200000: low half zero, one FLOATB load
        'TTI_SFPCONFIG(0, 0xc, 0);', // LReg 12 = LReg 0
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPMUL(${L(0)}, ${L(12)}, p_sfpu::LCONST_0, ${L(0)}, 0);`, // v * c + 0.0 (SFPMUL = SFPMAD)
        ...nop,
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 0);`,
        'TTI_INCRWC(0, 2, 0, 0);',
      ]);
    });
    it('x * vConstFloatPrgm0 over a tile: every element x * 2.5 (exact for these inputs)', async () => {
      const { out, r } = await run(arch, 'axsim_sfpi_lib::scale_by_prgm0<8>');
      for (let i = 0; i < 1024; i++) assert.equal(out[i], f32ToBits(((i % 17) - 8) * 2.5), `element ${i}`);
      assert.deepEqual(r.hazards, []);
    });
    it('vConst1 / vConstNeg1 stored straight from their LRegs; v < vConst0 selects -1', async () => {
      const lst = listing(arch, 'axsim_sfpi_lib::const_select<1>');
      assert.equal(lst[1], `TTI_SFPSTORE(p_sfpu::LCONST_1, 0, ${am}, 0);`);
      assert.ok(lst.includes(`TTI_SFPSTORE(${L(11)}, 0, ${am}, 0);`));
      const { out } = await run(arch, 'axsim_sfpi_lib::const_select<8>');
      for (let i = 0; i < 1024; i++)
        assert.equal(out[i], f32ToBits((i % 17) - 8 < 0 ? -1 : 1), `element ${i}`);
    });
  });
}

/** Tile element (row-major 32x32, TensixMachine.writeDstTile's face layout) of Dst row `row`, column `col`. */
const tileIndex = (row: number, col: number) => {
  const face = row >> 4;
  return ((face >> 1) * 16 + (row & 15)) * 32 + (face & 1) * 16 + col;
};
/** The tile element lane `lane` of `dst_reg[k]` reads in face `f` (ISA SFPLOAD.md: address 2k selects rows
 * (2k & ~3) + lane / 8 and the even (or, for 2k & 2, odd) column (lane & 7) * 2; faces are 16 rows apart). */
const laneElem = (f: number, k: number, lane: number) =>
  tileIndex(16 * f + ((2 * k) & ~3) + (lane >> 3), (lane & 7) * 2 + ((2 * k) & 2 ? 1 : 0));
const inputBits = (e: number) => f32ToBits((e % 17) - 8);

/** Sign-magnitude order of FP32 patterns (SFPSWAP.md SignMagIsSmaller). */
const smLess = (a: number, b: number) => {
  const sa = a >>> 31;
  const sb = b >>> 31;
  if (sa !== sb) return sa === 1;
  return sa === 0 ? (a & 0x7fffffff) < (b & 0x7fffffff) : (a & 0x7fffffff) > (b & 0x7fffffff);
};

for (const arch of ['wormhole', 'blackhole'] as const) {
  const am = arch === 'wormhole' ? 'ADDR_MOD_3' : 'ADDR_MOD_7';
  describe(`SFPI library functions (${arch})`, () => {
    it("setsgn(v, imm) = SFPSETSGN imm; setsgn(v, vFloat) = SFPSETSGN in the sign source's register; addexp = SFPDIVP2 ADD", async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::sign_exp'), [
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPLOAD(${L(1)}, 0, ${am}, 2);`,
        `TTI_SFPSETSGN(1, ${L(0)}, ${L(2)}, 1);`, // imm 1, Mod1 1 (immediate)
        `TTI_SFPSTORE(${L(2)}, 0, ${am}, 4);`,
        // the copy of s into the result's register is dropped: s dies here, so both are LReg 1
        `TTI_SFPSETSGN(0, ${L(0)}, ${L(1)}, 0);`, // Mod1 0: sign from LReg[VD]
        `TTI_SFPSTORE(${L(1)}, 0, ${am}, 6);`,
        `TTI_SFPDIVP2(0xffd, ${L(0)}, ${L(0)}, 1);`, // -3 as 12 bits, Mod1 1 = ADD
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 8);`,
      ]);
      const { out } = await run(arch, 'axsim_sfpi_lib::sign_exp');
      for (let f = 0; f < 4; f++)
        for (let lane = 0; lane < 32; lane++) {
          const x = inputBits(laneElem(f, 0, lane));
          const s = inputBits(laneElem(f, 1, lane));
          assert.equal(
            out[laneElem(f, 2, lane)],
            (x | 0x80000000) >>> 0,
            `setsgn(x, 1) face ${f} lane ${lane}`,
          );
          assert.equal(
            out[laneElem(f, 3, lane)],
            ((x & 0x7fffffff) | (s & 0x80000000)) >>> 0,
            'setsgn(x, s)',
          );
          // exponent field + 0xfd mod 256 (wrapping, as SFPDIVP2.md; a zero's exponent 0 becomes 253)
          const e = (((x >>> 23) & 0xff) + 0xfd) & 0xff;
          assert.equal(out[laneElem(f, 4, lane)], ((x & 0x807fffff) | (e << 23)) >>> 0, 'addexp(x, -3)');
        }
    });
    it('vec_min_max = SFPSWAP VEC_MIN_MAX (+ SFPNOP): a gets the min, b the max, in sign-magnitude order', async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::min_max'), [
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPLOAD(${L(1)}, 0, ${am}, 2);`,
        `TTI_SFPSWAP(0, ${L(1)}, ${L(0)}, 1);`, // VC = b, VD = a, Mod1 1
        'TTI_SFPNOP;',
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPSTORE(${L(1)}, 0, ${am}, 2);`,
      ]);
      const { out } = await run(arch, 'axsim_sfpi_lib::min_max');
      for (let f = 0; f < 4; f++)
        for (let lane = 0; lane < 32; lane++) {
          const a = inputBits(laneElem(f, 0, lane));
          const b = inputBits(laneElem(f, 1, lane));
          const [lo, hi] = smLess(b, a) ? [b, a] : [a, b];
          assert.equal(out[laneElem(f, 0, lane)], lo, `min face ${f} lane ${lane}`);
          assert.equal(out[laneElem(f, 1, lane)], hi, `max face ${f} lane ${lane}`);
        }
    });
    it('vec_min_max with an unread result, 8 times in a loop: its LReg is reused (no spill); max(x, 0)', async () => {
      const words = listing(arch, 'axsim_sfpi_lib::clamp_low_loop<8>');
      assert.equal(words.filter((w) => w.startsWith('TTI_SFPSWAP')).length, 8);
      const { out } = await run(arch, 'axsim_sfpi_lib::clamp_low_loop<8>');
      for (let i = 0; i < 1024; i++)
        assert.equal(out[i], f32ToBits(Math.max((i % 17) - 8, 0)), `element ${i}`);
    });
    it('int32_to_uint8 / int32_to_int8 = SFP_STOCH_RND Mod1 4 | IMM8 / 5 (vector shift): values per lane by hand', async () => {
      const words = listing(arch, 'axsim_sfpi_lib::int_to_8bit');
      // SFP_STOCH_RND(rnd_mode, imm, VB, VC, VD, Mod1): uint8 with the immediate 2 (Mod1 4 | 8),
      // int8 with the shift in a register (Mod1 5), both round-to-nearest (rnd_mode 0)
      assert.ok(
        words.some((w) =>
          /^TTI_SFP_STOCH_RND\(0, 2, p_sfpu::LREG0, p_sfpu::LREG0, p_sfpu::LREG\d, 0xc\);$/.test(w),
        ),
        words.join('\n'),
      );
      assert.ok(
        words.some((w) =>
          /^TTI_SFP_STOCH_RND\(0, 0, p_sfpu::LREG\d, p_sfpu::LREG0, p_sfpu::LREG\d, 5\);$/.test(w),
        ),
        words.join('\n'),
      );
      const m = new TensixMachine(arch);
      // int32 elements -700..699 (two's complement in Dst; the vInt load makes them sign-magnitude)
      const v = (e: number) => ((e * 97) % 1400) - 700;
      m.writeDstTile(
        0,
        Array.from({ length: 1024 }, (_, e) => v(e) >>> 0),
        'int32',
      );
      await runLlkKernel(m, { source: SOURCE, file: FILE, entry: 'axsim_sfpi_lib::int_to_8bit' });
      const out = Array.from(m.readDstTile(0, 'int32'), (b) => b >>> 0);
      // the value's path, from the ISA pages: SFPLOAD / SFPSTORE MOD0_FMT_INT32_SM convert sign-magnitude
      // (Dst) <-> two's complement (LReg) on Wormhole and nothing on Blackhole (SFPU-NOTES C3);
      // SFP_STOCH_RND reads its input as sign-magnitude (SFPSTOCHRND_IntInt.md): |x| << 23 >> shift,
      // + 1 when the dropped bits are >= half, clamped (uint8: 0..255, sign dropped; int8: 0..127)
      const wh = arch === 'wormhole';
      const load = (p: number) => (wh && p & 0x80000000 ? -(p & 0x7fffffff) >>> 0 : p >>> 0);
      const store = (d: number) => (wh && d & 0x80000000 ? (0x80000000 | (-d & 0x7fffffff)) >>> 0 : d >>> 0);
      const stoch = (c: number, shift: number, unsigned: boolean) => {
        const mag0 = c & 0x7fffffff;
        const q = Math.floor(mag0 / 2 ** shift);
        let mag = q + ((mag0 - q * 2 ** shift) * 2 >= 2 ** shift ? 1 : 0);
        mag = Math.min(mag, unsigned ? 255 : 127);
        const sign = unsigned || mag === 0 ? 0 : c & 0x80000000;
        return (sign | mag) >>> 0;
      };
      for (let f = 0; f < 4; f++)
        for (let lane = 0; lane < 32; lane++) {
          const x = v(laneElem(f, 0, lane));
          const c = load(x >>> 0);
          assert.equal(
            out[laneElem(f, 0, lane)],
            store(stoch(c, 2, true)),
            `uint8 face ${f} lane ${lane} (x = ${x})`,
          );
          assert.equal(
            out[laneElem(f, 2, lane)],
            store(stoch(c, 1, false)),
            `int8 face ${f} lane ${lane} (x = ${x})`,
          );
        }
      // on Wormhole the chain is the plain maths: |x| / 4 rounded, clamped; x / 2 rounded, clamped
      if (wh) {
        assert.equal(out[laneElem(0, 0, 0)], Math.min(Math.round(Math.abs(v(laneElem(0, 0, 0))) / 4), 255));
      }
    });
    it('int32_to_uint8 with a descale beyond the 5-bit immediate is a located BadInput', () => {
      const src = `${SOURCE}\nnamespace axsim_sfpi_lib { inline void bad_descale() { sfpi::vInt x = sfpi::dst_reg[0]; sfpi::dst_reg[0] = sfpi::int32_to_uint8(x, 40, 0); } }\n`;
      assert.throws(
        () => compileSfpi(src, arch, { file: FILE, entry: 'axsim_sfpi_lib::bad_descale' }),
        (e: unknown) =>
          e instanceof AxsimError &&
          e.category === 'BadInput' &&
          /5-bit immediate/.test(e.message) &&
          e.location?.line === src.split('\n').length - 1,
      );
    });
    it('subvec_shflror1 / subvec_shflshr1 = SFPSHFT2 3 / 4, each followed by SFPNOP; lanes rotate / shift within eights', async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::shuffles'), [
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPSHFT2(0, ${L(0)}, ${L(1)}, 3);`,
        'TTI_SFPNOP;',
        `TTI_SFPSTORE(${L(1)}, 0, ${am}, 4);`,
        // the Wormhole SHFLSHR1 workaround sfpi-gcc emits on both arches (SFPSHFT2.md HardwareBug();
        // gold coverage.S subvec_shfl: SFPSHFT2 L9, L9, 0, 3 + SFPNOP)
        'TTI_SFPSHFT2(0, p_sfpu::LCONST_0, p_sfpu::LCONST_0, 3);',
        'TTI_SFPNOP;',
        `TTI_SFPSHFT2(0, ${L(0)}, ${L(0)}, 4);`,
        'TTI_SFPNOP;',
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 8);`,
      ]);
      // values (face 0): ror1 rotates each eight lanes right by one; shr1 shifts them and fills lane 8k
      // with 0 — on Wormhole too, thanks to the workaround (without it lane 8k would get lane 8k+7 of
      // the ror1's input)
      const out = await runOn(arch, 'axsim_sfpi_lib::shuffles', inputBits);
      for (let lane = 0; lane < 32; lane++) {
        const from = lane & 7 ? lane - 1 : lane + 7;
        assert.equal(out[laneElem(0, 2, lane)], inputBits(laneElem(0, 0, from)), `ror1 lane ${lane}`);
        const shr = lane & 7 ? inputBits(laneElem(0, 0, lane - 1)) : 0;
        assert.equal(out[laneElem(0, 4, lane)], shr, `shr1 lane ${lane}`);
      }
    });
  });
}

/** SFPLUT's 8-bit coefficient format (ISA SFPLUT.md Lut8ToFp32): sign, 3-bit negative exponent, 4-bit mantissa. */
const lut8 = (x: number) =>
  x === 0xff ? 0 : (x & 0x80 ? -1 : 1) * (1 + (x & 15) / 16) * 2 ** -((x >> 4) & 7);

for (const arch of ['wormhole', 'blackhole'] as const) {
  const am = arch === 'wormhole' ? 'ADDR_MOD_3' : 'ADDR_MOD_7';
  describe(`SFPI l_reg[] and lut (${arch})`, () => {
    it('lut with the table in LRegs 0..2 from l_reg[]: input placed in LReg 3, SFPLUT SGN_RETAIN + SFPNOP, no copies', async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::lut_table<1>'), [
        `TTI_SFPLOADI(${L(0)}, 2, 0x10);`,
        `TTI_SFPLOADI(${L(1)}, 2, 0x1000);`,
        `TTI_SFPLOADI(${L(2)}, 2, 0xff08);`,
        `TTI_SFPLOAD(${L(3)}, 0, ${am}, 0);`,
        `TTI_SFPLUT(${L(3)}, 4, 0);`,
        'TTI_SFPNOP;',
        `TTI_SFPSTORE(${L(3)}, 0, ${am}, 0);`,
        'TTI_INCRWC(0, 2, 0, 0);',
      ]);
      const { out } = await run(arch, 'axsim_sfpi_lib::lut_table<8>');
      const table = [0x0010, 0x1000, 0xff08];
      for (let i = 0; i < 1024; i++) {
        const x = (i % 17) - 8;
        const t = table[Math.abs(x) < 1 ? 0 : Math.abs(x) < 2 ? 1 : 2]!;
        const d = lut8(t >> 8) * Math.abs(x) + lut8(t & 0xff);
        assert.equal(out[i], f32ToBits(x < 0 ? -d : d), `element ${i} (x = ${x})`);
      }
    });
    it('l_reg[5] = v * v: the value copied into LReg 5 for the TTI_ code after it', async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::lreg_out'), [
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPMUL(${L(0)}, ${L(0)}, p_sfpu::LCONST_0, ${L(0)}, 0);`,
        ...(arch === 'wormhole' ? ['TTI_SFPNOP;'] : []),
        `TTI_SFPMOV(0, ${L(0)}, ${L(5)}, 2);`, // a register move: every lane (rvtt-wh.md sfpgccmov_cc)
        `TTI_SFPSTORE(${L(5)}, 0, ADDR_MOD_3, 2);`,
      ]);
    });
  });
}

/** Runs an entry over a tile whose element e holds `input(e)` (FP32 bits), returns the result bits. */
async function runOn(arch: Arch, entry: string, input: (e: number) => number) {
  const m = new TensixMachine(arch);
  m.writeDstTile(
    0,
    Array.from({ length: 1024 }, (_, e) => input(e)),
    'fp32',
  );
  await runLlkKernel(m, { source: SOURCE, file: FILE, entry });
  return Array.from(m.readDstTile(0, 'fp32'), (b) => b >>> 0);
}

for (const arch of ['wormhole', 'blackhole'] as const) {
  const am = arch === 'wormhole' ? 'ADDR_MOD_3' : 'ADDR_MOD_7';
  describe(`SFPI field and conversion functions (${arch})`, () => {
    it("exman9 = SFPEXMAN 1; setman(v, imm) = SFPSETMAN imm 1; setexp(v, vInt) = SFPSETEXP 0 in the exponent's register", async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::fields'), [
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 0);`,
        `TTI_SFPEXMAN(0, ${L(0)}, ${L(1)}, 1);`,
        `TTI_SFPSTORE(${L(1)}, 0xc, ${am}, 2);`, // a vInt: stored in the integer format
        `TTI_SFPSETMAN(0x400, ${L(0)}, ${L(1)}, 1);`,
        `TTI_SFPSTORE(${L(1)}, 0, ${am}, 4);`,
        `TTI_SFPEXEXP(0, ${L(0)}, ${L(1)}, 1);`,
        `TTI_SFPIADD(1, ${L(1)}, ${L(1)}, 5);`,
        `TTI_SFPSETEXP(0, ${L(0)}, ${L(1)}, 0);`,
        `TTI_SFPSTORE(${L(1)}, 0, ${am}, 6);`,
      ]);
      const out = await runOn(arch, 'axsim_sfpi_lib::fields', inputBits);
      for (let f = 0; f < 4; f++)
        for (let lane = 0; lane < 32; lane++) {
          const x = inputBits(laneElem(f, 0, lane));
          assert.equal(out[laneElem(f, 1, lane)], x & 0x7fffff, `exman9 face ${f} lane ${lane}`);
          // SFPSETMAN.md: the immediate is the top 12 of the 23 mantissa bits
          // a zero exponent makes it a denormal, which the FP32 store flushes to zero (SFPU-NOTES A2)
          const sm = (x >>> 23) & 0xff ? ((x & 0xff800000) | (0x400 << 11)) >>> 0 : (x & 0x80000000) >>> 0;
          assert.equal(out[laneElem(f, 2, lane)], sm, 'setman');
          const e = (((x >>> 23) & 0xff) + 1) & 0xff; // SFPSETEXP.md: the low 8 bits of the integer
          assert.equal(out[laneElem(f, 3, lane)], ((x & 0x807fffff) | (e << 23)) >>> 0, 'setexp');
        }
    });
    it('int32_to_float(i, 0) = SFPCAST 0 (nearest even); float_to_fp16b(f, 0) = SFP_STOCH_RND FP16B, not stochastic', async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::convert'), [
        `TTI_SFPLOAD(${L(0)}, 0xc, ${am}, 0);`,
        `TTI_SFPCAST(${L(0)}, ${L(0)}, 0);`,
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 2);`,
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 4);`,
        `TTI_SFP_STOCH_RND(0, 0, ${L(0)}, ${L(0)}, ${L(0)}, 1);`, // rnd_mode 0, src_b = src_c = f, Mod1 FP16B
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 6);`,
      ]);
      // integers in dst_reg[0]'s lanes, FP32 values with 16 bits to drop in dst_reg[2]'s
      const bits = new Array<number>(1024).fill(0);
      for (let f = 0; f < 4; f++)
        for (let lane = 0; lane < 32; lane++) {
          const e = f * 32 + lane;
          // non-negative: the sign-magnitude vs two's complement reading of negative integers differs
          // between the arches' SFPLOAD/SFPCAST (Blackhole: see typecast.h's sign-magnitude conversion)
          bits[laneElem(f, 0, lane)] = ((e * 2654435761) >>> (1 + (e % 7))) >>> 0;
          bits[laneElem(f, 2, lane)] = f32ToBits((e & 1 ? -1 : 1) * (1 + (e % 97) / 97 + (e % 5)));
        }
      const input = (e: number) => bits[e]!;
      const out = await runOn(arch, 'axsim_sfpi_lib::convert', input);
      for (let f = 0; f < 4; f++)
        for (let lane = 0; lane < 32; lane++) {
          const i = input(laneElem(f, 0, lane)) | 0;
          assert.equal(out[laneElem(f, 1, lane)], f32ToBits(Math.fround(i)), `int32_to_float(${i})`);
          const x = input(laneElem(f, 2, lane));
          // SFP_STOCH_RND's non-stochastic rounding: to nearest, ties away from zero (spec 003, SFPU-NOTES B5)
          const r = ((x & 0x7fffffff) + 0x8000) & 0x7fff0000;
          assert.equal(
            out[laneElem(f, 3, lane)],
            ((x & 0x80000000) | r) >>> 0,
            `float_to_fp16b(0x${x.toString(16)})`,
          );
        }
    });
  });
}

for (const arch of ['wormhole', 'blackhole'] as const) {
  const am = arch === 'wormhole' ? 'ADDR_MOD_3' : 'ADDR_MOD_7';
  it(`abs(vInt) = SFPABS INT (0), loaded and stored in the integer format (${arch})`, async () => {
    assert.deepEqual(listing(arch, 'axsim_sfpi_lib::int_abs'), [
      `TTI_SFPLOAD(${L(0)}, 0xc, ${am}, 0);`,
      `TTI_SFPABS(0, ${L(0)}, ${L(0)}, 0);`,
      `TTI_SFPSTORE(${L(0)}, 0xc, ${am}, 2);`,
    ]);
    const ints = (e: number) => ((e % 2 ? -1 : 1) * ((e * 7919) % 100000)) >>> 0;
    const out = await runOn(arch, 'axsim_sfpi_lib::int_abs', ints);
    for (let f = 0; f < 4; f++)
      for (let lane = 0; lane < 32; lane++) {
        const i = ints(laneElem(f, 0, lane)) | 0;
        assert.equal(out[laneElem(f, 1, lane)], Math.abs(i), `abs(${i}) face ${f} lane ${lane}`);
      }
  });
}

for (const arch of ['wormhole', 'blackhole'] as const) {
  describe(`lut2 three-register FP16 form (${arch})`, () => {
    for (const retain of [true, false]) {
      const entry = `axsim_sfpi_lib::lut2_fp16<${retain}, 8>`;
      it(`${retain ? 'lut2' : 'lut2_sign'}: LReg 7 = the result's register, SFPLUTFP32 ${retain ? 14 : 10}; every element`, async () => {
        // FP16_3ENTRY_TABLE (10) writes LReg[LReg[7] & 15] (SFPLUTFP32.md hardware bug), so LReg 7 is
        // loaded (USHORT) with the result's number right before, as sfpi-gcc does (gold coverage.S test_lut2a)
        const l = listing(arch, `axsim_sfpi_lib::lut2_fp16<${retain}, 1>`);
        const at = l.findIndex((x) => x.startsWith('TTI_SFPLUTFP32('));
        const m = /^TTI_SFPLUTFP32\(p_sfpu::LREG(\d), (0x[0-9a-f]+|\d+)\);$/.exec(l[at]!);
        assert.ok(m, l.join('\n'));
        assert.equal(Number(m[2]), retain ? 14 : 10);
        assert.equal(l[at - 1], `TTI_SFPLOADI(${L(7)}, 2, ${m[1]});`);
        assert.equal(l[at + 1], 'TTI_SFPNOP;');
        const { out } = await run(arch, entry);
        for (let i = 0; i < 1024; i++) {
          const x = ((i % 17) - 8) / 4;
          const b = Math.abs(x);
          const seg = b < 1 ? 0 : b < 2 ? 1 : 2;
          const d = [2, 4, 6][seg]! * b + [3, 5, 7][seg]!; // exact: b is a multiple of 1/4
          assert.equal(out[i], f32ToBits(retain && x < 0 ? -d : d), `element ${i} (x = ${x})`);
        }
      });
    }
  });
}

for (const arch of ['wormhole', 'blackhole'] as const) {
  const am = arch === 'wormhole' ? 'ADDR_MOD_3' : 'ADDR_MOD_7';
  describe(`subvec_transp (${arch})`, () => {
    it('SFPTRANSP on the four values in LRegs 0..3, in place; each column transposed as 4x4 (SFPTRANSP.md)', async () => {
      assert.deepEqual(listing(arch, 'axsim_sfpi_lib::transp4'), [
        ...[0, 1, 2, 3].map((k) => `TTI_SFPLOAD(${L(k)}, 0, ${am}, ${2 * k});`),
        `TTI_SFPTRANSP(0, ${L(0)}, ${L(0)}, 0);`,
        ...[0, 1, 2, 3].map(
          (k) => `TTI_SFPSTORE(${L(k)}, 0, ${am}, ${k ? `0x${(2 * (k + 4)).toString(16)}` : 8});`,
        ),
      ]);
      const bits = (e: number) => f32ToBits(e + 0.5);
      const out = await runOn(arch, 'axsim_sfpi_lib::transp4', bits);
      // register i, lane 8j + col receives register j's lane 8i + col (Transpose4)
      for (let i = 0; i < 4; i++)
        for (let j = 0; j < 4; j++)
          for (let col = 0; col < 8; col++)
            assert.equal(
              out[laneElem(0, 4 + i, 8 * j + col)],
              bits(laneElem(0, j, 8 * i + col)),
              `register ${i} lane ${8 * j + col}`,
            );
    });
    it('a value live across it is a located error: SFPTRANSP also transposes LRegs 4..7', () => {
      const lines = SOURCE.split('\n');
      const start = lines.findIndex((l) => l.includes('inline void transp_live()'));
      const line = (t: string) => lines.findIndex((l, i) => i > start && l.includes(t)) + 1;
      assert.throws(
        () => compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi_lib::transp_live' }),
        (e: unknown) =>
          e instanceof AxsimError &&
          e.category === 'BadInput' &&
          /also transposes LRegs 4\.\.7/.test(e.message) &&
          e.message.includes(`made at line ${line('vFloat e =')}`) &&
          e.location?.line === line('subvec_transp(a, b, c, d)'),
      );
    });
  });
}

describe('rand() (Blackhole)', () => {
  // AdvancePRNG (tt-isa-documentation VectorUnit.md): the result is the lane's state; the new state is
  // (~popcount(state & 0x80200003) << 31) | (state >> 1). Written here from that page.
  const advance = (s: number) => {
    let taps = 0;
    for (const bit of [0, 1, 21, 31]) taps += (s >>> bit) & 1;
    return ((((~taps & 1) << 31) | (s >>> 1)) >>> 0) as number;
  };
  it('SFPMOV VD, 9, Mod1 8 (FROM_SPECIAL: the PRNG) per call; each lane draws its state, then advances', () => {
    const r = compileSfpi(SOURCE, 'blackhole', { file: FILE, entry: 'axsim_sfpi_lib::two_rand' });
    assert.deepEqual(disassemble(r.words, 'blackhole', { style: 'macro' }), [
      `TTI_SFPMOV(0, p_sfpu::LCONST_0, ${L(0)}, 8);`, // VC = 9 (printed as the constant register's name)
      `TTI_SFPMOV(0, p_sfpu::LCONST_0, ${L(1)}, 8);`,
      `TTI_SFPSTORE(${L(0)}, 0xc, ADDR_MOD_7, 0);`,
      `TTI_SFPXOR(0, ${L(0)}, ${L(1)}, 0);`,
      `TTI_SFPSTORE(${L(1)}, 0xc, ADDR_MOD_7, 4);`,
    ]);
    const m = new TensixMachine('blackhole');
    const seeds = Array.from({ length: 32 }, (_, l) => (Math.imul(0x9e3779b9, l + 1) ^ 0x5bd1e995) >>> 0);
    m.state.prng.set(seeds);
    m.run(Array.from(r.words));
    for (let l = 0; l < 32; l++) {
      const s0 = seeds[l]!;
      const s1 = advance(s0);
      assert.equal(m.state.lreg[l]! >>> 0, s0, `lane ${l}: first draw`);
      assert.equal(m.state.lreg[32 + l]! >>> 0, (s1 ^ s0) >>> 0, `lane ${l}: second draw ^ first`);
      assert.equal(m.state.prng[l], advance(s1), `lane ${l}: state advanced twice`);
    }
  });
  it('on Wormhole it is the user error sfpi gives (not defined there), at the line', () => {
    const line = SOURCE.split('\n').findIndex((l) => l.includes('sfpi::vInt a = sfpi::rand();')) + 1;
    assert.throws(
      () => compileSfpi(SOURCE, 'wormhole', { file: FILE, entry: 'axsim_sfpi_lib::two_rand' }),
      (e: unknown) =>
        e instanceof AxsimError &&
        e.category === 'BadInput' &&
        /Blackhole only/.test(e.message) &&
        e.location?.line === line,
    );
  });
});
