/**
 * SFPI kernels end to end (issue 12, first slice): our own fixture (test/fixtures/sfpi/basic.h),
 * compiled by the SFPI compiler and run in the LLK environment on both arches; Dst is compared with
 * each function computed by hand from its definition (exact: the inputs are small integers, so every
 * product and sum below is exact in binary32).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { disassemble } from '../asm/index.ts';
import type { Arch } from '../encoding.ts';
import { f32ToBits } from '../llk/checks.ts';
import { compileSfpi } from './compile.ts';
import { wordsAsListing } from './gold.ts';
import { runOnTile, tileInput } from './testkit.ts';

const FILE = join(import.meta.dirname, '../../../test/fixtures/sfpi/basic.h');
const SOURCE = readFileSync(FILE, 'utf8');
const input = tileInput;
const run = (arch: Arch, entry: string) => runOnTile(arch, SOURCE, FILE, entry);

const cases: [string, (x: number) => number][] = [
  ['axsim_sfpi::calculate_relu<false, 8>', (x) => Math.max(x, 0)],
  ['axsim_sfpi::calculate_neg_abs<false, 8>', (x) => -Math.abs(x)], // -|0| = -0: the sign bit flips
  ['axsim_sfpi::calculate_poly<8>(1.5f)', (x) => x * 1.5 + 0.25],
  ['axsim_sfpi::calculate_square_minus_one<8>', (x) => x * x - 1],
  ['axsim_sfpi::calculate_bands<8>', (x) => (x <= -3 ? -1 : x < 2 ? 0 : 1)],
  ['axsim_sfpi::calculate_clamp_m2_3<8>', (x) => (x < -2 ? -2 : Math.min(x, 3))],
  ['axsim_sfpi::calculate_and_block<8>', (x) => (x < 0 && x >= -1 ? 0 : x)],
  ['axsim_sfpi::calculate_scalar_left<8>', (x) => (x > 1 ? 2 + x : 0.5 * x + (3 - x))],
  ['axsim_sfpi::calculate_lreg_scale<8>', (x) => x * 2],
  ['axsim_sfpi::calculate_tti_across<8>', (x) => x * 5 * 2],
  ['axsim_sfpi::calculate_bool_tree<8>', (x) => ((x > 1 && x !== 4) || x === -5 ? x + 3 : x)],
  ['axsim_sfpi::calculate_many_leaves<8>', (x) => ([-7, -5, -3].includes(x) ? 64 : x)],
  [
    'axsim_sfpi::calculate_leaves_under_pressure<8>',
    (x) => {
      const inBand = (x >= -6 && x < -3) || (x >= 1 && x < 3) || (x >= 5 && x < 6) || (x >= 7 && x < 8);
      return (inBand ? 100 : 0) + 2 * x + (x + 1) + (x + 2) + (x + 3) + x;
    },
  ],
];
/** Cases whose expected output is computed on the input's bits (u32 in, u32 out). */
const bitCases: [string, (b: number) => number][] = [
  [
    'axsim_sfpi::calculate_int_halve<8>',
    (b) => {
      const m = b & 0x7fffffff;
      return m >= 0x800000 ? m - 0x800000 : m;
    },
  ],
  ['axsim_sfpi::calculate_top_byte<8>', (b) => (b & 0xff000000) >>> 0],
  ['axsim_sfpi::calculate_iabs_bits<8>', (b) => ((b | 0) < 0 ? -(b | 0) >>> 0 : b)],
  [
    'axsim_sfpi::calculate_int_left',
    (b) => {
      const r = (7 - (b | 0)) >>> 0; // 7 + (0 - bits), 32-bit wrapping
      return r & 0x7f800000 ? r : (r & 0x80000000) >>> 0; // the FP32 store flushes a denormal (7 for x = 0)
    },
  ],
  // x < 0: bits + 2^16; x >= 1.0 (bits >= 0x3f800000): bits + 2^23; else the bits
  [
    'axsim_sfpi::calculate_wide_imm<8>',
    (b) => ((b | 0) < 0 ? b + 0x10000 : b >= 0x3f800000 ? b + 0x800000 : b),
  ],
  ['axsim_sfpi::calculate_cond_value<8>', (b) => ((b >>> 31) + 5) << 23], // x < 0 is the sign bit here (no -0 in the input)
];

for (const arch of ['wormhole', 'blackhole'] as const) {
  describe(`SFPI kernels run (${arch})`, () => {
    for (const [entry, f] of cases) {
      it(`${entry}: every element of the tile`, async () => {
        const { out, r } = await run(arch, entry);
        for (let i = 0; i < out.length; i++)
          assert.equal(out[i], f32ToBits(f(input(i))), `element ${i} (x = ${input(i)})`);
        assert.deepEqual(r.hazards, []);
      });
    }
    for (const [entry, f] of bitCases) {
      it(`${entry}: every element of the tile (bits)`, async () => {
        const { out, r } = await run(arch, entry);
        for (let i = 0; i < out.length; i++)
          assert.equal(out[i], f(f32ToBits(input(i)) >>> 0), `element ${i} (x = ${input(i)})`);
        assert.deepEqual(r.hazards, []);
      });
    }
    it('compileSfpi has the definitions of a tt-metal build, as runLlkKernel does (sfpi_inline, tt_l1_ptr, the arch macro)', async () => {
      // a helper header written as tt-llk writes some: `sfpi_inline` and `tt_l1_ptr` used before sfpi.h
      const src = [
        'template <typename T> sfpi_inline T twice(T x) { return x + x; }',
        'inline unsigned first_word(volatile tt_l1_ptr unsigned *p) { return p == nullptr ? 3u : 4u; }',
        '#include "sfpi.h"',
        '#ifdef ARCH_WORMHOLE',
        'constexpr int ARCH_CODE = 1;',
        '#endif',
        '#ifdef ARCH_BLACKHOLE',
        'constexpr int ARCH_CODE = 2;',
        '#endif',
        'inline void k() {',
        '  for (int d = 0; d < 8; d++) {',
        '    sfpi::vFloat v = sfpi::dst_reg[0];',
        '    sfpi::dst_reg[0] = twice(v) + float(first_word(nullptr) * ARCH_CODE);',
        '    sfpi::dst_reg++;',
        '  }',
        '}',
      ].join('\n');
      const c = compileSfpi(src, arch, { file: 'defs.h', entry: 'k' });
      const { r, out } = await runOnTile(arch, src, 'defs.h', 'k');
      // x + x + 3 * 1 (WH) or 3 * 2 (BH), exact for these small integers; every face ran
      const add = arch === 'wormhole' ? 3 : 6;
      for (let i = 0; i < out.length; i++)
        assert.equal(out[i], f32ToBits(2 * input(i) + add), `element ${i}`);
      // the kernel's own words are the same in both (runLlkKernel adds the driver's set-up around them)
      const kw = Array.from(c.words);
      const all = Array.from(r.words);
      assert.ok(kw.length > 0);
      assert.ok(
        all.some((_, i) => kw.every((w, j) => all[i + j] === w)),
        'compileSfpi words inside the run',
      );
    });
    it('select_probe: the instruction sequence worked out by hand (docs/sfpi.md lowering rules)', () => {
      const r = compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::select_probe' });
      const am = arch === 'wormhole' ? 'ADDR_MOD_3' : 'ADDR_MOD_7';
      const nop = arch === 'wormhole' ? ['TTI_SFPNOP;'] : [];
      const L = (n: number) => `p_sfpu::LREG${n}`;
      assert.deepEqual(disassemble(r.words, arch, { style: 'macro' }), [
        `TTI_SFPLOAD(${L(0)}, 0, ${am}, 0);`, // x
        `TTI_SFPLOAD(${L(1)}, 0, ${am}, 4);`, // c = dst_reg[2]
        `TTI_SFPLOADI(${L(2)}, 0, 0x3f80);`, // r = 1.0f (fp16b)
        `TTI_SFPLOADI(${L(3)}, 0, 0x40a0);`, // 5.0f
        `TTI_SFPSTORE(${L(3)}, 0, ${am}, 0);`,
        `TTI_SFPMAD(${L(1)}, p_sfpu::LREG11, ${L(0)}, ${L(3)}, 0);`, // x - c
        ...nop,
        `TTI_SFPSETCC(0, ${L(3)}, ${L(0)}, 4);`, // >= 0
        `TTI_SFPMOV(0, ${L(1)}, ${L(2)}, 0);`, // r = c
        `TTI_SFPCOMPC(0, ${L(0)}, ${L(0)}, 0);`,
        `TTI_SFPMAD(${L(0)}, ${L(1)}, p_sfpu::LCONST_1, ${L(2)}, 0);`, // r = x * c + 1 straight into r's LReg, under the CC
        `TTI_SFPENCC(3, ${L(0)}, ${L(0)}, 0xa);`,
        `TTI_SFPSTORE(${L(2)}, 0, ${am}, 2);`,
        `TTI_SFPSTORE(${L(0)}, 0, ${am}, 6);`,
      ]);
      const line = (text: string) => SOURCE.split('\n').findIndex((l) => l.includes(text)) + 1;
      assert.equal(r.lines[0], line('vFloat x = dst_reg[0];'));
      assert.equal(r.lines.at(-1), line('dst_reg[3] = x;'));
    });
    it('a compare / add with an immediate wider than 12 bits: SFPLOADI UPPER + LOWER, then the vector SFPIADD', () => {
      const r = compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::calculate_wide_imm<1>' });
      const l = wordsAsListing(Array.from(r.words), arch).map((i) => `${i.name} ${i.ops.join(', ')}`);
      // s == 0x80000000: the constant's halves (SFPLOADI_MOD0_UPPER 8, LOWER 10), s - const by SFPIADD
      // mode 6 (ARG_2SCOMP_LREG_DST 2 | CC_NONE 4), then SFPSETCC EQ0 (6) on the difference
      const k = l.findIndex((x) => /^SFPIADD L(\d), L\d, 0, 6$/.test(x));
      assert.ok(k >= 2, l.join('\n'));
      const d = /^SFPIADD L(\d)/.exec(l[k]!)![1];
      assert.deepEqual(l.slice(k - 2, k), [`SFPLOADI L${d}, 32768, 8`, `SFPLOADI L${d}, 0, 10`]);
      assert.equal(l[k + 1], `SFPSETCC L${d}, 0, 6`);
      // b >= 0x3f800000: the GTE0 test folded into SFPIADD's CC mode (2 | CC_GTE0 8 = 10)
      assert.ok(l.some((x) => /^SFPIADD L\d, L\d, 0, 10$/.test(x)));
      assert.ok(!l.some((x) => /^SFPIADD L\d, L\d, -?\d+, [15]$/.test(x)), 'no immediate-form SFPIADD');
    });
    it('v_and inside a v_if narrows the same CC level: SFPSETCC twice, no push', () => {
      const r = compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::uses_v_and' });
      const names = disassemble(r.words, arch, { style: 'macro' }).map((l) => l.replace(/\(.*$/, ''));
      assert.deepEqual(
        names.filter((n) => /SETCC|PUSHC|POPC|ENCC|COMPC/.test(n)),
        ['TTI_SFPSETCC', 'TTI_SFPSETCC', 'TTI_SFPENCC'], // v < 0 on v; v < -1 on the difference; the end
      );
    });
    it('l_reg[]: a read stays in its LReg (nothing else takes it), a write is a move into the LReg', () => {
      const r = compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::calculate_lreg_scale<2>' });
      // listing form: destination first (gold.ts)
      const l = wordsAsListing(Array.from(r.words), arch).map((i) => `${i.name} ${i.ops.join(', ')}`);
      assert.equal(l[0], 'SFPLOADI L0, 16384, 0'); // the TTI_ word: 2.0 into L0
      const lastRead = l.findLastIndex((x) => /^SFPMUL L\d, L\d, L0|^SFPMUL L\d, L0/.test(x));
      assert.ok(lastRead > 0);
      // until its last read, no SFPI instruction writes L0
      for (const x of l.slice(1, lastRead)) assert.doesNotMatch(x, /^SFP(LOAD|LOADI|MUL|MAD|MOV|ADD)\w* L0,/);
      // -v left in L3, after the loop, by sfpi-gcc's register move (all lanes: rvtt-wh.md sfpgccmov_cc, mod 2)
      assert.match(l.at(-1)!, /^SFPMOV L3, L\d, 2$/);
    });
    it('a value live across TTI_ words stays in an LReg neither word reads or writes', () => {
      const r = compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::calculate_tti_across<1>' });
      const l = wordsAsListing(Array.from(r.words), arch).map((i) => `${i.name} ${i.ops.join(', ')}`);
      const am = arch === 'wormhole' ? 3 : 7;
      // SFPMUL(0,0,0,0,0) reads and writes L0, SFPLOADI(1, ...) writes L1: x goes to L2, the first
      // LReg neither touches; two is l_reg[1], read where the word left it
      assert.deepEqual(l, [
        `SFPLOAD L2, 0, 0, ${am}`,
        'SFPMULI L2, 16544, 0', // 5.0f = 0x40a0 as fp16b
        'SFPMUL L0, L0, L0, L0, 0',
        'SFPLOADI L1, 16384, 0',
        'SFPMUL L2, L2, L1, L9, 0', // (SFPSTORE needs no NOP after a MAD: listing.test.ts)
        `SFPSTORE 0, L2, 0, ${am}`,
        'TTINCRWC 0, 2, 0, 0',
      ]);
    });
    it('nine values across a TTI_ word that writes an LReg: a located error at the word', () => {
      assert.throws(
        () => compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::tti_across_too_many' }),
        (e: unknown) => {
          assert.ok(e instanceof AxsimError, String(e));
          assert.match(e.message, /TTI_ word writes LReg 0, which holds an SFPI value still needed after it/);
          const line = SOURCE.split('\n').findIndex((x) => x.includes('TTI_SFPLOADI(0, 0, 0);')) + 1;
          assert.equal(e.location?.line, line);
          return true;
        },
      );
    });
    it('vBool holds a condition for a later v_if; as<T> is reinterpret<T> (no instruction)', () => {
      const r = compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::uses_vbool_as' });
      const l = wordsAsListing(Array.from(r.words), arch).map((i) => `${i.name} ${i.ops.join(', ')}`);
      const am = arch === 'wormhole' ? 3 : 7;
      assert.deepEqual(l, [
        `SFPLOAD L0, 0, 0, ${am}`,
        'SFPSETCC L0, 0, 0', // a < 0, evaluated at the v_if
        'SFPLOADI L0, 0, 0', // a = 0.0f straight into a's LReg, under the CC
        'SFPENCC 3, 10',
        `SFPSTORE 0, L0, 0, ${am}`,
      ]);
    });
    it('a vBool kept in a variable, run once per face by the LLK driver: each face its own condition', async () => {
      // uses_vbool_as reads and writes dst_reg[0] only: per face the 32 elements of SFPU row 0 (rows
      // 0..3 of the face, even columns; ISA SFPLOAD.md), x < 0 -> 0; every other element unchanged.
      // (The LLK sfpi.h once declared an empty sfpi::vBool struct that hid SFPI's typedef, so every
      // face after the first re-used the first face's condition.)
      const { out, r } = await run(arch, 'axsim_sfpi::uses_vbool_as');
      const touched = new Set<number>();
      for (let f = 0; f < 4; f++)
        for (let lane = 0; lane < 32; lane++) {
          const row = 16 * f + (lane >> 3);
          const col = (lane & 7) * 2;
          const fr = row >> 4;
          touched.add(((fr >> 1) * 16 + (row & 15)) * 32 + (fr & 1) * 16 + col);
        }
      assert.equal(touched.size, 128);
      for (let i = 0; i < out.length; i++) {
        const x = input(i);
        assert.equal(out[i], f32ToBits(touched.has(i) && x < 0 ? 0 : x), `element ${i} (x = ${x})`);
      }
      assert.deepEqual(r.hazards, []);
    });
    it('an int on the left of a vInt operator is Unsupported at its line (not silently a float add)', () => {
      assert.throws(
        () => compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::uses_int_left' }),
        (e: unknown) =>
          e instanceof AxsimError &&
          e.category === 'Unsupported' &&
          /scalar on the left of an integer vector operator/.test(e.message) &&
          e.location?.line === SOURCE.split('\n').findIndex((l) => l.includes('dst_reg[0] = 1 * i;')) + 1,
      );
    });
    it('8 live values compile; 9 are the register-spill error at the line that needs the 9th', () => {
      const ok = compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::eight_live' });
      assert.ok(ok.words.length > 8);
      assert.throws(
        () => compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::nine_live' }),
        (e: unknown) =>
          e instanceof AxsimError &&
          e.category === 'BadInput' &&
          /cannot store sfpu register \(register spill\)/.test(e.message) &&
          e.location?.line === SOURCE.split('\n').findIndex((l) => l.includes('vFloat a8 = dst_reg[8]')) + 1,
      );
    });
    it('a condition that needs a 9th LReg is the spill error at its v_if, naming what holds the eight', () => {
      const lines = SOURCE.split('\n');
      const start = lines.findIndex((l) => l.includes('inline void leaves_over_pressure()'));
      const lineOf = (text: string) => lines.findIndex((l, i) => i > start && l.includes(text)) + 1;
      assert.throws(
        () => compileSfpi(SOURCE, arch, { file: FILE, entry: 'axsim_sfpi::leaves_over_pressure' }),
        (e: unknown) => {
          if (!(e instanceof AxsimError) || e.category !== 'BadInput') return false;
          // v, a, b, c, e, f, r and the || flag hold the eight; the compare's literal is the ninth
          const held = [...e.message.matchAll(/L(\d) \w+ \(line (\d+)\)/g)].map((m) => Number(m[2]));
          const want = [
            'vFloat v =',
            'vFloat a =',
            'vFloat b =',
            'vFloat c =',
            'vFloat e =',
            'vFloat f =',
            'vFloat r =',
          ];
          return (
            /register spill/.test(e.message) &&
            e.location?.line === lineOf('v_if ((v >= -6.0f') &&
            held.length === 8 &&
            want.every((t) => held.includes(lineOf(t)))
          );
        },
      );
    });
  });
}
