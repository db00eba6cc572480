/**
 * SFPI library members of later sfpi versions that tt-metal's kernels use (copysgn, exexp / exman with
 * ExponentMode / MantissaMode, is_nan, l_reg[].in_use()) and the 2024 s2vFloat16(x, format) form
 * (docs/tensix-metal-corpus.md). Expected instructions follow sfpi's headers (tenstorrent/sfpi
 * include/sfpi_lib.h: copysgn = __builtin_rvtt_sfpsetsgn_v, exexp(v, Biased) = SFPEXEXP NODEBIAS,
 * exman(v, WithUnitBit) = SFPEXMAN PAD8 and exman(v) = PAD9, is_nan = exexp(v, Biased) >= 255 &&
 * exman(v) != 0; sfpi_classes.h in_use = `*this = *this`; sfpi_fp16.h of 2024: s2vFloat16(in, Format));
 * values come from the ISA's functional models (SFPSETSGN.md, SFPEXEXP.md, SFPEXMAN.md), worked out here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { disassemble } from '../asm/index.ts';
import { TensixMachine } from '../index.ts';
import { bitsToF32, f32ToBits } from '../llk/checks.ts';
import { runLlkKernel } from '../llk/run.ts';
import { compileSfpi } from './compile.ts';

const FILE = join(import.meta.dirname, '../../../test/fixtures/sfpi/later-lib.h');
const SOURCE = readFileSync(FILE, 'utf8');
const L = (n: number) => `p_sfpu::LREG${n}`;
const listing = (entry: string) =>
  disassemble(compileSfpi(SOURCE, 'wormhole', { file: FILE, entry }).words, 'wormhole', { style: 'macro' });

/** Normal FP32 values of both signs, ±0, ±Inf and NaNs (no denormals: how a load treats them is not at issue). */
function inputs(seed: number): number[] {
  const fixed = [
    0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3f800000, 0xbf800000,
  ];
  let s = seed >>> 0;
  return Array.from({ length: 1024 }, (_, i) => {
    if (i < fixed.length) return fixed[i]!;
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const e = 1 + (s % 254); // biased exponent 1..254
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s & 0x80000000) | (e << 23) | (s & 0x7fffff)) >>> 0;
  });
}

async function run(arch: 'wormhole' | 'blackhole', entry: string, tiles: number[][]) {
  const m = new TensixMachine(arch);
  for (const [i, t] of tiles.entries()) m.writeDstTile(i, t, 'int32');
  const r = await runLlkKernel(m, { source: SOURCE, file: FILE, entry });
  return { r, tile: (t: number) => Array.from(m.readDstTile(t, 'int32'), (b) => b >>> 0) };
}

describe('later SFPI library members (tt-metal kernels)', () => {
  it('copysgn(x, y) = SFPSETSGN register form (Mod1 0) in the sign source register', () => {
    assert.deepEqual(listing('axsim_later_lib::copy_sign<1>'), [
      `TTI_SFPLOAD(${L(0)}, 0, ADDR_MOD_3, 0);`,
      `TTI_SFPLOAD(${L(1)}, 0, ADDR_MOD_3, 0x40);`, // dst_reg[32]: tile 1 (64 Dst rows on)
      `TTI_SFPSETSGN(0, ${L(0)}, ${L(1)}, 0);`,
      `TTI_SFPSTORE(${L(1)}, 0, ADDR_MOD_3, 0);`,
      'TTI_INCRWC(0, 2, 0, 0);',
    ]);
  });
  for (const arch of ['wormhole', 'blackhole'] as const)
    it(`copysgn over a tile: |x| with y's sign bit, every element (${arch})`, async () => {
      const x = inputs(1).map((b) => (((b >>> 23) & 0xff) === 0xff ? 0x40490fdb : b)); // finite x
      const y = inputs(2);
      const { r, tile } = await run(arch, 'axsim_later_lib::copy_sign<8>', [x, y]);
      const out = tile(0);
      for (let i = 0; i < 1024; i++)
        assert.equal(out[i], ((x[i]! & 0x7fffffff) | (y[i]! & 0x80000000)) >>> 0, `element ${i}`);
      assert.deepEqual(r.hazards, []);
    });

  it('exexp(x, Biased) = SFPEXEXP 1, exman(x, ImplicitOne) = SFPEXMAN 0, exman(x) = SFPEXMAN 1; is_nan composed', () => {
    assert.deepEqual(listing('axsim_later_lib::fields<1>'), [
      `TTI_SFPLOAD(${L(0)}, 0, ADDR_MOD_3, 0);`,
      `TTI_SFPEXEXP(0, ${L(0)}, ${L(1)}, 1);`,
      `TTI_SFPSTORE(${L(1)}, 0xc, ADDR_MOD_3, 0x40);`, // a vInt: the integer store format
      `TTI_SFPEXMAN(0, ${L(0)}, ${L(1)}, 0);`,
      `TTI_SFPSTORE(${L(1)}, 0xc, ADDR_MOD_3, 0x80);`,
      `TTI_SFPEXMAN(0, ${L(0)}, ${L(1)}, 1);`,
      `TTI_SFPSTORE(${L(1)}, 0xc, ADDR_MOD_3, 0xc0);`,
      `TTI_SFPLOADI(${L(1)}, 0, 0);`, // r = 0.0
      // is_nan: biased exponent - 255 >= 0 (SFPIADD imm -255, CC_GTE0), then fraction != 0 (SFPSETCC NE0)
      `TTI_SFPEXEXP(0, ${L(0)}, ${L(2)}, 1);`,
      `TTI_SFPEXMAN(0, ${L(0)}, ${L(0)}, 1);`,
      `TTI_SFPIADD(0xf01, ${L(2)}, ${L(2)}, 9);`,
      `TTI_SFPSETCC(0, ${L(0)}, ${L(0)}, 2);`,
      `TTI_SFPLOADI(${L(1)}, 0, 0x3f80);`,
      `TTI_SFPENCC(3, ${L(0)}, ${L(0)}, 0xa);`,
      `TTI_SFPSTORE(${L(1)}, 0, ADDR_MOD_3, 0);`,
      'TTI_INCRWC(0, 2, 0, 0);',
    ]);
  });
  for (const arch of ['wormhole', 'blackhole'] as const)
    it(`exponent / mantissa fields and is_nan over a tile, every element (${arch})`, async () => {
      const x = inputs(3);
      const { tile } = await run(arch, 'axsim_later_lib::fields<8>', [x]);
      const [nan, exp, man8, man9] = [tile(0), tile(1), tile(2), tile(3)];
      for (let i = 0; i < 1024; i++) {
        const b = x[i]!;
        assert.equal(exp[i], (b >>> 23) & 0xff, `exexp biased, element ${i}`);
        assert.equal(man8[i], (b & 0x7fffff) | 0x800000, `exman ImplicitOne, element ${i}`);
        assert.equal(man9[i], b & 0x7fffff, `exman, element ${i}`);
        assert.equal(nan[i], Number.isNaN(bitsToF32(b)) ? f32ToBits(1) : 0, `is_nan, element ${i}`);
      }
    });

  it('s2vFloat16(pattern, fp16a) = SFPLOADI FLOATA (1); s2vFloat16(float, fp16b) = SFPLOADI FLOATB (0) of its high half', () => {
    assert.deepEqual(listing('axsim_later_lib::load_f16_format'), [
      `TTI_SFPLOADI(${L(0)}, 1, 0x3e00);`,
      `TTI_SFPLOADI(${L(1)}, 0, 0xbf40);`, // -0.75f = 0xbf400000
      `TTI_SFPSTORE(${L(0)}, 0, ADDR_MOD_3, 0);`,
      `TTI_SFPSTORE(${L(1)}, 0, ADDR_MOD_3, 2);`,
    ]);
  });

  it('RoundMode::Nearest / NearestEven = rounding argument 0, NearestStochastic = 1 (int32_to_float, float_to_fp16b)', () => {
    const near = listing('axsim_later_lib::rounding_enum<0>');
    assert.deepEqual(near, listing('axsim_later_lib::rounding_int<0>'));
    assert.deepEqual(
      listing('axsim_later_lib::rounding_enum<1>'),
      listing('axsim_later_lib::rounding_int<1>'),
    );
    // SFPCAST Mod1 0 = RNE (SFPCAST.md); SFP_STOCH_RND FP32 -> FP16B (Mod1 1), round mode 0 (not stochastic)
    assert.ok(
      near.some((w) => /^TTI_SFPCAST\(p_sfpu::LREG\d, p_sfpu::LREG\d, 0\);$/.test(w)),
      near.join('\n'),
    );
    assert.ok(
      near.some((w) =>
        /^TTI_SFP_STOCH_RND\(0, 0, p_sfpu::LREG\d, p_sfpu::LREG\d, p_sfpu::LREG\d, 1\);$/.test(w),
      ),
      near.join('\n'),
    );
  });

  it('l_reg[LReg2].in_use(): no instruction, and no SFPI value is placed in LReg 2 before the TTI_ store of it', () => {
    const lst = listing('axsim_later_lib::keep_lreg2');
    assert.equal(lst[0], `TTI_SFPLOADI(${L(2)}, 0, 0x40e0);`);
    assert.equal(lst.at(-1), `TTI_SFPSTORE(${L(2)}, 0, ADDR_MOD_3, 2);`);
    // six values live at once (a, b, c, e, f, g): LRegs 0, 1, 3, 4, 5, 6 — LReg 2 is skipped
    for (const w of lst.slice(1, -1)) assert.ok(!w.includes(`${L(2)},`) && !w.includes(`${L(2)})`), w);
  });
  it('l_reg[LReg2].in_use(): the 7.0 the TTI_ code loaded reaches Dst row 2 (Wormhole)', async () => {
    const { tile } = await run('wormhole', 'axsim_later_lib::keep_lreg2', [
      inputs(4).map(() => f32ToBits(0.5)),
    ]);
    const out = tile(0);
    // dst_reg offset 2 of face 0: rows 0..3, odd columns (ISA SFPSTORE.md); every one of them holds 7.0
    for (let row = 0; row < 4; row++)
      for (let c = 1; c < 16; c += 2) assert.equal(out[row * 32 + c], f32ToBits(7), `row ${row} column ${c}`);
  });
});
