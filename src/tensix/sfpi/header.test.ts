/**
 * SFPI header behaviour fixed against sfpi's headers and the gold listings' instruction choice:
 * integer abs, an int on the left of integer vector operators, programmable-constant loads, and
 * unused arithmetic kept (sfpi-gcc's SFPU patterns are unspec_volatile). Expected sequences are written
 * by hand in the listing form of gold.ts (registers compared up to renaming).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Arch } from '../encoding.ts';
import { compileSfpi } from './compile.ts';
import { compareListings, parseGold, wordsAsListing } from './gold.ts';

function same(body: string, want: string, arch: Arch = 'wormhole') {
  const src = `#include "sfpi.h"\nusing namespace sfpi;\nvoid f() {\n${body}\n}\n`;
  const got = wordsAsListing(Array.from(compileSfpi(src, arch, { file: 'h.cc', entry: 'f' }).words), arch);
  const exp = parseGold(`_Z1fv:\n${want}\n\t.size\t_Z1fv, .-_Z1fv\n`)[0]!.insns;
  const c = compareListings(exp, got);
  assert.equal(
    c.verdict,
    'identical',
    `${c.detail}\n${got.map((i) => `${i.name} ${i.ops.join(', ')}`).join('\n')}`,
  );
}

describe('sfpi header operators and library', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`abs(vInt) + 1 stays integer: SFPABS INT (0) then SFPIADD immediate, CC none (5) (${arch})`, () => {
      // sfpi_lib.h: abs(vInt) returns vInt; vInt + int is SFPIADD ARG_IMM | CC_NONE
      same(
        `vInt a = -5;
         vInt b = abs(a) + 1;
         dst_reg[0] = b;`,
        `SFPLOADI L0, -5, 4
         SFPABS L1, L0, 0
         SFPIADD L1, L1, 1, 5
         SFPSTORE 0, L1, 12, ${arch === 'wormhole' ? 3 : 7}`,
        arch,
      );
    });
  }

  it('an int on the left of & | ^ commutes; a vUInt takes it as uint32_t for & (USHORT 2), as vUInt(int) for | ^ (SHORT 4)', () => {
    // sfpi.h: vUInt::operator&(uint32_t); | and ^ take a vUInt, built from the int by vUInt(int32_t)
    same(
      `vInt a = 8;
       vUInt u = 9;
       a = 5 | a;
       u = 5 & u;
       u = 5 ^ u;
       dst_reg[0] = a;
       dst_reg[1] = u;`,
      `SFPLOADI L0, 8, 4
       SFPLOADI L1, 9, 4
       SFPLOADI L2, 5, 4
       SFPOR L0, L2
       SFPLOADI L2, 5, 2
       SFPAND L1, L2
       SFPLOADI L2, 5, 4
       SFPXOR L1, L2
       SFPSTORE 0, L0, 12, 3
       SFPSTORE 2, L1, 12, 3`,
    );
  });

  it('an int on the left of a compare swaps its sides: 3 < a is a > 3, i.e. a - 3 >= 0 and != 0', () => {
    // a > 3 lowers as (a - 3) with SFPIADD's CC_GTE0 (9 = ARG_IMM | GTE0), then SFPSETCC NE (2)
    same(
      `vInt a = 7;
       v_if (3 < a) { dst_reg[0] = a; }
       v_endif;`,
      `SFPLOADI L0, 7, 4
       SFPIADD L1, L0, -3, 9
       SFPSETCC L1, 0, 2
       SFPSTORE 0, L0, 12, 3
       SFPENCC 3, 10`,
    );
  });

  it('programmable constants load as sfpi-gcc does: FLOATB for a zero low half, SHORT for a small int, else UPPER then LOWER', () => {
    // 2.0f = 0x40000000; 0.1f = 0x3dcccccd; SFPCONFIG copies LReg 0 to LReg 12 / 13
    same(
      `vConstFloatPrgm0 = 2.0f;
       vConstFloatPrgm1 = 0.1f;
       vConstIntPrgm2 = -3;`,
      `SFPLOADI L0, 16384, 0
       SFPCONFIG 12, 0, 0
       SFPLOADI L0, 15820, 8
       SFPLOADI L0, 52429, 10
       SFPCONFIG 13, 0, 0
       SFPLOADI L0, -3, 4
       SFPCONFIG 14, 0, 0`,
    );
  });

  it('integer add / compare with an immediate beyond 12 bits: the value loaded (UPPER, LOWER), then the register form', () => {
    // 100000 = 0x186a0, 70000 = 0x11170; SFPIADD mod1 4 = ARG_LREG_DST | CC_NONE (VD = VC + VD);
    // a < 70000 as a - t with the 2's complement of VD (2) and CC_LT0 (0)
    same(
      `vInt a = dst_reg[0];
       a = a + 100000;
       v_if (a < 70000) { dst_reg[1] = a; }
       v_endif;`,
      `SFPLOAD L0, 0, 12, 3
       SFPLOADI L1, 1, 8
       SFPLOADI L1, 34464, 10
       SFPIADD L1, L0, 0, 4
       SFPLOADI L2, 1, 8
       SFPLOADI L2, 4464, 10
       SFPIADD L2, L1, 0, 2
       SFPSTORE 2, L1, 12, 3
       SFPENCC 3, 10`,
    );
  });

  it('an s2vFloat16b operand is an SFPADDI / SFPMULI immediate; an s2vFloat16a one is loaded', () => {
    // gold coverage.S test_muli_addi: a += s2vFloat16b(16.0f) is SFPADDI 0x4180; FLOATA stays SFPLOADI + SFPADD
    same(
      `vFloat a = dst_reg[0];
       a += s2vFloat16b(16.0f);
       a += s2vFloat16a(16.0f);
       a *= s2vFloat16b(16.0f);
       dst_reg[1] = a;`,
      `SFPLOAD L0, 0, 0, 3
       SFPADDI L0, 16768, 0
       SFPLOADI L1, 19456, 1
       SFPADD L0, L10, L0, L1, 0
       SFPMULI L0, 16768, 0
       SFPSTORE 2, L0, 0, 3`,
    );
  });

  it('an SFPLUT input made in place (SFPMULI on a product) has the product computed into LReg 3', () => {
    // gold ckernel.S calculate_gelu<false>: SFPMAD into L3, SFPMULI L3, then SFPLUT L3 (table in L0..L2)
    same(
      `vUInt l0 = l_reg[LRegs::LReg0];
       vUInt l1 = l_reg[LRegs::LReg1];
       vUInt l2 = l_reg[LRegs::LReg2];
       vFloat x = dst_reg[0];
       vFloat r = x * x;
       r *= s2vFloat16b(2.0f);
       r = lut(r, l0, l1, l2);
       dst_reg[0] = r;
       l_reg[LRegs::LReg0] = l0;
       l_reg[LRegs::LReg1] = l1;
       l_reg[LRegs::LReg2] = l2;`,
      `SFPLOAD L4, 0, 0, 3
       SFPMUL L3, L4, L4, L9, 0
       SFPMULI L3, 16384, 0
       SFPLUT L3, 4
       SFPSTORE 0, L3, 0, 3`,
    );
  });

  it('arithmetic whose result nobody reads is still emitted; an unused constant is not', () => {
    same(
      `vFloat x = dst_reg[0];
       vFloat unused = x * x;
       vFloat k = 3.0f;
       dst_reg[1] = x;`,
      `SFPLOAD L0, 0, 0, 3
       SFPMUL L1, L0, L0, L9, 0
       SFPSTORE 2, L0, 0, 3`,
    );
  });
});
