/**
 * sfpi-gcc's raw builtins (builtins.ts) on programs written here. Expected listings come from
 * sfpi-gcc's instruction patterns (rvtt-wh.md output templates, operand ties and immediate ranges,
 * rvtt-insn.h parameter lists), written in the listing form of gold.ts (`SFPLOAD L, addr, mod0, mode`).
 * Registers are compared up to renaming, as the gold corpus does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { compileSfpi } from './compile.ts';
import { compareListings, type GoldInsn, parseGold, wordsAsListing } from './gold.ts';

const VEC = 'typedef float v64sf __attribute__((vector_size(64*4)));\n';

function listing(body: string, arch: Arch = 'wormhole'): GoldInsn[] {
  const p = arch === 'wormhole' ? 'wh' : 'bh';
  const src = VEC + `void f() {\n${body.replace(/__W_/g, `__builtin_rvtt_${p}_`)}\n}\n`;
  return wordsAsListing(compileSfpi(src, arch, { file: 'raw.cc', entry: 'f' }).words, arch);
}

/** A hand-written expected sequence (listing syntax, one instruction per line). */
function expected(text: string): GoldInsn[] {
  const fn = parseGold(`_Z1fv:\n${text}\n\t.size\t_Z1fv, .-_Z1fv\n`);
  return fn[0]!.insns;
}

function same(body: string, want: string, arch: Arch = 'wormhole') {
  const got = listing(body, arch);
  const c = compareListings(expected(want), got);
  assert.equal(
    c.verdict,
    'identical',
    `${c.detail}\n${got.map((i) => `${i.name} ${i.ops.join(', ')}`).join('\n')}`,
  );
}

describe('sfpi raw builtins (sfpi-gcc __builtin_rvtt_*)', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`load, in-place ADDI, store (${arch})`, () => {
      // sfpload(ptr, mod0, mode, addr): SFPLOAD %0, addr, mod0, mode; sfpaddi writes over its operand
      same(
        `v64sf x = __W_sfpload(nullptr, 1, 0, 10, 0, 0);
         x = __W_sfpaddi(nullptr, x, 16256, 0, 0, 0);
         __W_sfpstore(nullptr, x, 0, 2, 1, 0, 0);`,
        `SFPLOAD L0, 10, 1, 0
         SFPADDI L0, 16256, 0
         SFPSTORE 1, L0, 0, 2`,
        arch,
      );
    });
  }

  it('non-destructive forms take a new register while the operand lives on', () => {
    // SFPDIVP2 %0, %3, imm, mod and SFPSETEXP %0, src, imm, 1: the source is read, not tied
    same(
      `v64sf z = __W_sfpload(nullptr, 1, 0, 30, 0, 0);
       v64sf x = __W_sfpdivp2(nullptr, 26, 0, 0, z, 0);
       v64sf y = __W_sfpsetexp_i(nullptr, 170, 0, 0, z);
       __W_sfpstore(nullptr, x, 0, 2, 1, 0, 0);
       __W_sfpstore(nullptr, y, 0, 2, 2, 0, 0);
       __W_sfpstore(nullptr, z, 0, 2, 3, 0, 0);`,
      `SFPLOAD L0, 30, 1, 0
       SFPDIVP2 L1, L0, 26, 0
       SFPSETEXP L2, L0, 170, 1
       SFPSTORE 1, L1, 0, 2
       SFPSTORE 2, L2, 0, 2
       SFPSTORE 3, L0, 0, 2`,
    );
  });

  it('MUL and ADD use the constant registers L9 (0.0) and L10 (1.0); MAD takes three sources', () => {
    same(
      `v64sf a = __builtin_rvtt_sfpassignlreg(1);
       v64sf b = __builtin_rvtt_sfpassignlreg(2);
       v64sf m = __W_sfpmul(a, b, 0);
       v64sf s = __W_sfpadd(a, b, 0);
       v64sf d = __W_sfpmad(a, b, m, 0);
       __W_sfpstore(nullptr, s, 0, 2, 0, 0, 0);
       __W_sfpstore(nullptr, d, 0, 2, 0, 0, 0);
       __W_sfpstore(nullptr, a, 0, 2, 1, 0, 0);
       __W_sfpstore(nullptr, b, 0, 2, 2, 0, 0);
       __W_sfpstore(nullptr, m, 0, 2, 3, 0, 0);`,
      `SFPMUL L3, L1, L2, L9, 0
       SFPADD L4, L10, L1, L2, 0
       SFPMAD L5, L1, L2, L3, 0
       SFPSTORE 0, L4, 0, 2
       SFPSTORE 0, L5, 0, 2
       SFPSTORE 1, L1, 0, 2
       SFPSTORE 2, L2, 0, 2
       SFPSTORE 3, L3, 0, 2`,
    );
  });

  it('sfpassignlreg of a constant register reads it in place; of L0..7 the value it holds', () => {
    same(
      `v64sf k = __builtin_rvtt_sfpassignlreg(13);
       __W_sfpstore(nullptr, k, 0, 2, 10, 0, 0);
       v64sf l = __builtin_rvtt_sfpassignlreg(5);
       __W_sfpstore(nullptr, l, 0, 2, 11, 0, 0);`,
      `SFPSTORE 10, L13, 0, 2
       SFPSTORE 11, L5, 0, 2`,
    );
  });

  it('an unused sfpxloadi goes, an unused load stays (its register is free again); the 32-bit FLOAT pseudo-mode is UPPER then LOWER', () => {
    same(
      `v64sf a = __W_sfpxloadi(nullptr, 0, 12, 0, 0);
       a = __W_sfpload(nullptr, 0, 0, 7, 0, 0);
       a = __W_sfpxloadi(nullptr, 18, 0x3faf0001, 0, 0);
       __W_sfpstore(nullptr, a, 0, 0, 0, 0, 0);`,
      `SFPLOAD L0, 7, 0, 0
       SFPLOADI L0, 16303, 8
       SFPLOADI L0, 1, 10
       SFPSTORE 0, L0, 0, 0`,
    );
  });

  it('xiadd_i: CC none is IADD mod 5; != adds SFPSETCC mod 2; the outermost push/pop becomes ENCC 3, 10', () => {
    // (an inner PUSHC/POPC pair stays when something lies between its POPC and the next one)
    same(
      `v64sf a = __W_sfpload(nullptr, 0, 0, 0, 0, 0);
       __W_sfppushc(0);
       v64sf b = __W_sfpxiadd_i(nullptr, a, 10, 0, 0, 4);
       __W_sfppushc(0);
       a = __W_sfpxiadd_i_lv(nullptr, a, b, -3, 0, 0, 0);
       __W_sfppopc(0);
       __W_sfpcompc();
       __W_sfppopc(0);
       __W_sfpstore(nullptr, a, 0, 0, 0, 0, 0);`,
      `SFPLOAD L0, 0, 0, 0
       SFPIADD L1, L0, 10, 5
       SFPSETCC L1, 0, 2
       SFPPUSHC 0
       SFPIADD L0, L1, -3, 5
       SFPPOPC 0
       SFPCOMPC
       SFPENCC 3, 10
       SFPSTORE 0, L0, 0, 0`,
    );
  });

  it('immediate SFPSHFT: VC is written L0 and not compared; the result overwrites its operand', () => {
    same(
      `v64sf a = __W_sfpload(nullptr, 0, 0, 0, 0, 0);
       a = __W_sfpshft_i(nullptr, a, -1, 0, 0);
       __W_sfpstore(nullptr, a, 0, 0, 0, 0, 0);`,
      `SFPLOAD L3, 0, 0, 0
       SFPSHFT L3, L5, -1, 1
       SFPSTORE 0, L3, 0, 0`,
    );
  });

  it('refuses immediates outside the field, vectors that are not builtin results, and a condb of no condition', () => {
    const err = (body: string, re: RegExp) =>
      assert.throws(
        () => listing(body),
        (e: unknown) => e instanceof AxsimError && re.test(e.message) && e.location?.line !== undefined,
      );
    err('v64sf x = __W_sfpload(nullptr, 0, 0, 0x4000, 0, 0);', /outside 0\.\.16383/);
    err(
      'v64sf x = __W_sfpload(nullptr, 0, 0, 1, 0, 0); __W_sfpstore(nullptr, x + 1, 0, 0, 0, 0, 0);',
      /not a vector value/,
    );
    err('int t = __builtin_rvtt_sfpxvif(); __builtin_rvtt_sfpxcondb(5, t);', /not a condition/);
  });

  it('a vector typedef is refused where the host does not model vector handles', async () => {
    const { loadProgram } = await import('../../cfront/index.ts');
    assert.throws(
      () => loadProgram(VEC, { file: 'v.cc' }),
      (e: unknown) => e instanceof AxsimError && /vector_size/.test(e.message),
    );
  });
});

describe('sfpi raw builtins: the CC pseudo-builtins sfpi.h builds v_if from', () => {
  // sfpi_hw.h: SFPXCMP_MOD1_CC_LT 1, EQ 2, GTE 3, NE 4; SFPXBOOL_MOD1_AND 2. A compare against an
  // immediate is SFPIADD of -imm whose CC mode does the first LT0/GTE0 test; a float compare of two
  // vectors is SFPMAD y * -1.0 + x then SFPSETCC (gimple-rvtt-expand.cc; gold gcc smoke.S)
  it('sfpxvif / sfpxicmps / sfpxfcmpv / sfpxbool AND / sfpxcondb inside the outermost push', () => {
    same(
      `v64sf a = __W_sfpload(nullptr, 0, 1, 0, 0, 0);
       v64sf d = __W_sfpload(nullptr, 0, 1, 16, 0, 0);
       __W_sfppushc(0);
       int top = __builtin_rvtt_sfpxvif();
       int c1 = __builtin_rvtt_sfpxicmps(nullptr, a, 5, 0, 0, 1);
       int c2 = __W_sfpxfcmpv(a, d, 3);
       __builtin_rvtt_sfpxcondb(__builtin_rvtt_sfpxbool(2, c1, c2), top);
       __W_sfpstore(nullptr, a, 0, 2, 4, 0, 0);
       __W_sfppopc(0);`,
      `SFPLOAD L0, 0, 0, 1
       SFPLOAD L1, 16, 0, 1
       SFPIADD L2, L0, 4091, 1
       SFPMAD L3, L1, L11, L0, 0
       SFPSETCC L3, 0, 4
       SFPSTORE 4, L0, 0, 2
       SFPENCC 3, 10`,
    );
  });
  it('sfpxicmpv(x, y) subtracts into a copy of x: x < y is (y - x) > 0 (GTE0 in the SFPIADD, then NE0)', () => {
    same(
      `v64sf a = __W_sfpload(nullptr, 0, 1, 0, 0, 0);
       v64sf d = __W_sfpload(nullptr, 0, 1, 16, 0, 0);
       __W_sfppushc(0);
       int top = __builtin_rvtt_sfpxvif();
       __builtin_rvtt_sfpxcondb(__builtin_rvtt_sfpxicmpv(a, d, 1), top);
       __W_sfpstore(nullptr, a, 0, 2, 4, 0, 0);
       __W_sfppopc(0);`,
      `SFPLOAD L0, 0, 0, 1
       SFPLOAD L1, 16, 0, 1
       SFPMOV L2, L0, 0
       SFPIADD L2, L1, 0, 10
       SFPSETCC L2, 0, 2
       SFPSTORE 4, L0, 0, 2
       SFPENCC 3, 10`,
    );
  });
  it('sfpxcondi: the condition as a 0 / 1 value; sfpxfcmps against 0 tests the value itself', () => {
    same(
      `v64sf a = __W_sfpload(nullptr, 0, 1, 0, 0, 0);
       v64sf r = __builtin_rvtt_sfpxcondi(__W_sfpxfcmps(nullptr, a, 0, 0, 0, 2));
       __W_sfpstore(nullptr, r, 0, 2, 4, 0, 0);`,
      `SFPLOAD L0, 0, 0, 1
       SFPLOADI L1, 0, 4
       SFPSETCC L0, 0, 6
       SFPLOADI L1, 1, 4
       SFPENCC 3, 10
       SFPSTORE 4, L1, 0, 2`,
    );
  });
  it('sfpconfig_v reads LReg 0: its operand is made there while another value lives on', () => {
    same(
      `v64sf y = __W_sfpload(nullptr, 0, 1, 10, 0, 0);
       v64sf x = __W_sfpload(nullptr, 0, 1, 20, 0, 0);
       __W_sfpconfig_v(x, 12);
       __W_sfpstore(nullptr, y, 0, 2, 4, 0, 0);`,
      `SFPLOAD L1, 10, 0, 1
       SFPLOAD L0, 20, 0, 1
       SFPCONFIG 12, 0, 0
       SFPSTORE 4, L1, 0, 2`,
    );
  });
  it('a compare mode outside 1..6 is a located error', () => {
    assert.throws(
      () =>
        listing(
          `v64sf a = __W_sfpload(nullptr, 0, 1, 0, 0, 0);\nint c = __builtin_rvtt_sfpxicmps(nullptr, a, 0, 0, 0, 7);`,
        ),
      (e: unknown) => e instanceof AxsimError && /compare mode 7/.test(e.message) && e.location?.line === 4,
    );
  });
});

describe('sfpi raw builtins: SFPSHFT2 SHFLSHR1 and the three-register SFPLUTFP32', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`sfpshft2_e(v, 4) is preceded by SHFLROR1 of L9 into L9, the Wormhole lane-8k workaround (${arch})`, () => {
      // gold coverage.S subvec_shfl on both arches: SFPSHFT2 L9, L9, 0, 3 then the SHFLSHR1
      same(
        `v64sf a = __W_sfpload(nullptr, 0, 1, 0, 0, 0);
         v64sf b = __W_sfpshft2_e(a, 4);
         __W_sfpstore(nullptr, b, 0, 2, 4, 0, 0);`,
        `SFPLOAD L0, 0, 0, 1
         SFPSHFT2 L9, L9, 0, 3
         SFPSHFT2 L1, L0, 0, 4
         SFPSTORE 4, L1, 0, 2`,
        arch,
      );
    });
  }
  it('sfplutfp32_3r(l0, l1, l2, v, 14): table in L0..L2, input in L3, LReg 7 = the result register first', () => {
    same(
      `v64sf l0 = __W_sfpxloadi(nullptr, 2, 1, 0, 0);
       v64sf l1 = __W_sfpxloadi(nullptr, 2, 2, 0, 0);
       v64sf l2 = __W_sfpxloadi(nullptr, 2, 3, 0, 0);
       v64sf v = __W_sfpload(nullptr, 0, 1, 0, 0, 0);
       v64sf r = __W_sfplutfp32_3r(l0, l1, l2, v, 14);
       __W_sfpstore(nullptr, r, 0, 2, 4, 0, 0);`,
      `SFPLOADI L0, 1, 2
       SFPLOADI L1, 2, 2
       SFPLOADI L2, 3, 2
       SFPLOAD L3, 0, 0, 1
       SFPLOADI L7, 0, 2
       SFPLUTFP32 L0, 14
       SFPSTORE 4, L0, 0, 2`,
    );
  });
  it('Blackhole sfpmul24(_lv), sfparecip(_lv), sfpgt, sfple: one instruction each (rvtt-bh.md templates)', () => {
    // SFPMUL24 %0, a, b, mod with VC written as L0; SFPARECIP %0, src, 0, mod; SFPGT / SFPLE read and
    // write their one operand's register; the _lv forms write over the live value's register. The
    // outermost raw PUSHC is not pushed and its POPC is the SFPENCC 3, 10 (as for the other CC builtins)
    same(
      `v64sf a = __builtin_rvtt_sfpassignlreg(1);
       v64sf b = __builtin_rvtt_sfpassignlreg(2);
       v64sf d = __builtin_rvtt_sfpassignlreg(3);
       d = __W_sfpmul24(a, b, 0);
       d = __W_sfpmul24_lv(d, a, b, 1);
       a = __W_sfparecip(d, 1);
       d = __W_sfparecip_lv(d, a, 2);
       __W_sfpstore(nullptr, d, 0, 2, 20, 0, 0);
       __W_sfppushc(0);
       a = __W_sfpgt(d, 1);
       d = __W_sfple(a, 8);
       __W_sfpstore(nullptr, d, 0, 2, 20, 0, 0);
       __W_sfppopc(0);`,
      `SFPMUL24 L0, L1, L2, L0, 0
       SFPMUL24 L0, L1, L2, L0, 1
       SFPARECIP L1, L0, 0, 1
       SFPARECIP L0, L1, 0, 2
       SFPSTORE 20, L0, 0, 2
       SFPGT L0, L0, 0, 1
       SFPLE L0, L0, 0, 8
       SFPSTORE 20, L0, 0, 2
       SFPENCC 3, 10`,
      'blackhole',
    );
  });
  it('the Blackhole-only builtins are refused on Wormhole with a located error', () => {
    for (const b of ['sfpmul24(x, x, 0)', 'sfparecip(x, 0)', 'sfpgt(x, 1)', 'sfple(x, 1)']) {
      assert.throws(
        () => listing(`v64sf x = __W_sfpload(nullptr, 0, 2, 0, 0, 0);\n v64sf y = __W_${b};`, 'wormhole'),
        (e: unknown) => {
          assert.ok(e instanceof AxsimError, String(e));
          assert.match(e.message, /is a Blackhole instruction; sfpi-gcc has no such builtin for wormhole/);
          assert.equal(e.location?.line, 4, e.message);
          return true;
        },
      );
    }
  });
});
