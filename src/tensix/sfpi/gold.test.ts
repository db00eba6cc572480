/**
 * The gold-listing comparison (gold.ts) on listings written here by hand in sfpi-gcc's `-S` syntax
 * (no sfpi text): replay expansion, NOP dropping, RISC-V detection, register renaming, the decoded
 * form of axsim's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encode } from '../encoding.ts';
import { compareListings, demangle, expandReplay, parseGold, wordsAsListing } from './gold.ts';
import { runGoldRiscv } from './goldrv.ts';

const LISTING = `	.text
	.globl	_Z3onev
_Z3onev:
	SFPLOAD	L2, 0, 0, 3
	TTREPLAY	0, 2, 1, 1
	SFPMUL	L2, L2, L2, L9, 0
	SFPNOP
	SFPSTORE	2, L2, 0, 3
	TTREPLAY	0, 2, 0, 0
	ret
	.size	_Z3onev, .-_Z3onev
_Z3twoi:
	bne	a0,zero,.L4
	SFPLOADI	L0, -255, 4
	ret
	.size	_Z3twoi, .-_Z3twoi
`;

describe('sfpi gold listings', () => {
  it('parses functions, expands TTREPLAY, drops SFPNOP, counts RISC-V code', () => {
    const fns = parseGold(LISTING);
    assert.deepEqual(
      fns.map((f) => [f.name, f.params, f.riscv, f.insns.map((i) => i.name)]),
      [
        ['one', 0, 0, ['SFPLOAD', 'SFPMUL', 'SFPSTORE', 'SFPMUL']], // the recording holds MUL and NOP
        ['two', 1, 1, ['SFPLOADI']],
      ],
    );
    // SHORT immediates print signed; compared as the 16-bit field
    assert.deepEqual(fns[1]!.insns[0]!.ops, ['L0', 0xff01, 4]);
  });
  it('a recording without execution only fills the slots', () => {
    const i = (name: string, ...ops: number[]) => ({ name, ops });
    assert.deepEqual(
      expandReplay([
        i('TTREPLAY', 4, 1, 0, 1),
        i('SFPCOMPC'),
        i('SFPNOP'),
        i('TTREPLAY', 4, 1, 0, 0),
        i('SFPNOP'),
      ]).map((x) => x.name),
      ['SFPCOMPC'],
    );
  });
  it('demangles plain functions', () => {
    assert.deepEqual(demangle('_Z10test_loadilm'), { name: 'test_loadi', params: 2 });
    assert.deepEqual(demangle('_Z3fooPi'), { name: 'foo', params: -1 });
    assert.deepEqual(demangle('_Z9test_loadim'), { name: 'test_load', params: 2 });
    assert.deepEqual(demangle('_Z8test_addv'), { name: 'test_add', params: 0 });
    assert.deepEqual(demangle('_Z13calculate_absILb0EEvv'), { name: 'calculate_abs<false>', params: 0 });
    assert.deepEqual(demangle('_Z14calculate_sqrtILb1ELi4ELi2EEvv'), {
      name: 'calculate_sqrt<true, 4, 2>',
      params: 0,
    });
    assert.deepEqual(demangle('_Z14calculate_compILb0EL8SfpuType8EEvm'), {
      name: 'calculate_comp<false, static_cast<SfpuType>(8)>',
      params: 1,
    });
    assert.deepEqual(demangle('_Z13calculate_logILb1ELb0EEvm.isra.0'), {
      name: '_Z13calculate_logILb1ELb0EEvm.isra.0',
      params: -1,
    });
  });
  it('compares up to a renaming of L0..L7 (constants must match), and says where they differ', () => {
    const g = parseGold(LISTING)[0]!.insns;
    const renamed = g.map((i) => ({ ...i, ops: i.ops.map((o) => (o === 'L2' ? 'L5' : o)) }));
    assert.equal(compareListings(g, renamed).verdict, 'identical');
    const constChanged = g.map((i) => ({ ...i, ops: i.ops.map((o) => (o === 'L9' ? 'L10' : o)) }));
    const c = compareListings(g, constChanged);
    assert.equal(c.verdict, 'differs');
    assert.match(c.detail!, /^#2: gold 'SFPMUL L2, L2, L2, L9, 0', axsim 'SFPMUL L5|L2/);
    const swapped = [g[0]!, g[2]!, g[1]!, g[3]!];
    assert.equal(compareListings(g, swapped).verdict, 'reordered');
  });
  it('compares by dataflow: any register choice computing the same values is identical', () => {
    const L = (t: string) => parseGold(`_Z1fv:\n${t}\n\t.size\t_Z1fv, .-_Z1fv\n`)[0]!.insns;
    // x = d0; y = d2; z = x * y; d4 = z + x  (registers chosen differently, and L3 reused)
    const g = L(`SFPLOAD L2, 0, 0, 3
      SFPLOAD L3, 2, 0, 3
      SFPMUL L3, L2, L3, L9, 0
      SFPADD L1, L10, L3, L2, 0
      SFPSTORE 4, L1, 0, 3`);
    const same = L(`SFPLOAD L0, 0, 0, 3
      SFPLOAD L1, 2, 0, 3
      SFPMUL L2, L0, L1, L9, 0
      SFPADD L0, L10, L2, L0, 0
      SFPSTORE 4, L0, 0, 3`);
    assert.equal(compareListings(g, same).verdict, 'identical');
    // the add reads y instead of z: another value, though every instruction has the same fields
    const other = L(`SFPLOAD L0, 0, 0, 3
      SFPLOAD L1, 2, 0, 3
      SFPMUL L2, L0, L1, L9, 0
      SFPADD L0, L10, L1, L0, 0
      SFPSTORE 4, L0, 0, 3`);
    assert.match(compareListings(g, other).detail!, /^#4:/);
    // in-place ADDI reads its destination: it must be the same value
    const addi = L(`SFPLOAD L0, 0, 0, 3\nSFPLOAD L1, 2, 0, 3\nSFPADDI L0, 16256, 0\nSFPSTORE 0, L0, 0, 3`);
    const addiOther = L(
      `SFPLOAD L0, 0, 0, 3\nSFPLOAD L1, 2, 0, 3\nSFPADDI L1, 16256, 0\nSFPSTORE 0, L1, 0, 3`,
    );
    assert.match(compareListings(addi, addiOther).detail!, /^#3:/);
  });
  it('a conditional write keeps old lanes: which old value matters once more lanes are enabled', () => {
    const L = (t: string) => parseGold(`_Z1fv:\n${t}\n\t.size\t_Z1fv, .-_Z1fv\n`)[0]!.insns;
    // v = d0; w = d2; if (v < 0) v = 1.0 (written over v's register); ENCC; store v
    const g = L(`SFPLOAD L0, 0, 0, 3
      SFPLOAD L1, 2, 0, 3
      SFPSTORE 6, L1, 0, 3
      SFPSETCC L0, 0, 0
      SFPLOADI L0, 16256, 0
      SFPENCC 3, 10
      SFPSTORE 0, L0, 0, 3`);
    // the 1.0 written over w's register instead: after the ENCC its other lanes hold w, not v
    const wrong = L(`SFPLOAD L0, 0, 0, 3
      SFPLOAD L1, 2, 0, 3
      SFPSTORE 6, L1, 0, 3
      SFPSETCC L0, 0, 0
      SFPLOADI L1, 16256, 0
      SFPENCC 3, 10
      SFPSTORE 0, L1, 0, 3`);
    assert.match(compareListings(g, wrong).detail!, /^#7:/);
    // read only under the same CC (stored before the ENCC): the kept lanes are never seen
    const g2 = [...g.slice(0, 5), g[6]!, g[5]!];
    const w2 = [...wrong.slice(0, 5), wrong[6]!, wrong[5]!];
    assert.equal(compareListings(g2, w2).verdict, 'identical');
  });
  it('SFPSETCC with Mod1 CLEAR (8) or IMM_BIT0 (1) does not read VC (SFPSETCC.md): not compared', () => {
    const L = (t: string) => parseGold(`_Z1fv:\n${t}\n\t.size\t_Z1fv, .-_Z1fv\n`)[0]!.insns;
    const two = 'SFPLOAD L0, 0, 0, 3\nSFPLOAD L1, 2, 0, 3\n';
    for (const mod of [12, 1]) {
      const v = compareListings(L(`${two}SFPSETCC L0, 1, ${mod}`), L(`${two}SFPSETCC L1, 1, ${mod}`)).verdict;
      assert.equal(v, 'identical', `mod ${mod}`);
    }
    // the register form reads it: another value is not identical
    assert.notEqual(
      compareListings(L(`${two}SFPSETCC L0, 0, 2`), L(`${two}SFPSETCC L1, 0, 2`)).verdict,
      'identical',
    );
  });
  it("SFPLUT's table is read from L0..L2 whatever the operands say", () => {
    const L = (t: string) => parseGold(`_Z1fv:\n${t}\n\t.size\t_Z1fv, .-_Z1fv\n`)[0]!.insns;
    const g = L(
      'SFPLOADI L0, 1, 2\nSFPLOADI L4, 2, 2\nSFPLOAD L3, 0, 0, 3\nSFPLUT L3, 4\nSFPSTORE 0, L3, 0, 3',
    );
    const t = L(
      'SFPLOADI L4, 1, 2\nSFPLOADI L0, 2, 2\nSFPLOAD L3, 0, 0, 3\nSFPLUT L3, 4\nSFPSTORE 0, L3, 0, 3',
    );
    assert.match(compareListings(g, t).detail!, /^#4:/);
  });
  it('runs a gold function with RISC-V code with its arguments bound (run-time words, branches)', () => {
    // SFPLOAD L3 at address (a0 & 0x3fff): the word 0x70000000 | lreg_ind 3 << 20 | addr, built at run
    // time and stored to the instruction buffer; then a branch on a0 picks one of two immediates
    const fn = parseGold(`_Z1fs:
	li	a5,16384
	addi	a5,a5,-1
	lui	a3,%hi(_ZN7ckernel13instrn_bufferE)
	and	a4,a0,a5
	li	a2, 1882193920	# 70300000
	lw	a3,%lo(_ZN7ckernel13instrn_bufferE)(a3)
	add	a4,a4,a2
	sw	a4, 0(a3)
	bne	a0,zero,.L4
	SFPLOADI	L0, 1, 4
	j	.L5
.L4:
	SFPLOADI	L0, 2, 4
.L5:
	SFPSTORE	0, L0, 12, 3
	ret
	.size	_Z1fs, .-_Z1fs
`)[0]!;
    assert.equal(fn.riscv, 10);
    const text = (a: number) =>
      runGoldRiscv(fn.lines, [a], 'wormhole').insns.map((i) => `${i.name} ${i.ops.join(', ')}`);
    // SFPLOAD's listing order: register, address, mod0, mode
    assert.deepEqual(text(7), ['SFPLOAD L3, 7, 0, 0', 'SFPLOADI L0, 2, 4', 'SFPSTORE 0, L0, 12, 3']);
    assert.deepEqual(text(0), ['SFPLOAD L3, 0, 0, 0', 'SFPLOADI L0, 1, 4', 'SFPSTORE 0, L0, 12, 3']);
    assert.equal(runGoldRiscv(fn.lines, [7], 'wormhole').built, 1);
    const call = parseGold('_Z1gv:\n\tcall\trand\n\tret\n\t.size\t_Z1gv, .-_Z1gv\n')[0]!;
    assert.throws(() => runGoldRiscv(call.lines, [], 'wormhole'), /calls another function \(rand\)/);
  });
  it("decodes a TTI_ macro's inline-asm .word (TRISC_OP_SWIZZLE undone) when given the arch", () => {
    // TTI_SFPMUL(0, 0, 0, 0, 0): TT_OP(0x86, 0) = 0x86000000, rotated left by 2 = 0x18000002 = 402653186
    const text = `_Z1fv:\n #APP\n\t.word (402653186)\n #NO_APP\n\tret\n\t.size\t_Z1fv, .-_Z1fv\n`;
    const fn = parseGold(text, 'wormhole')[0]!;
    assert.deepEqual(
      fn.insns.map((i) => `${i.name} ${i.ops.join(', ')}`),
      ['SFPMUL L0, L0, L0, L0, 0'],
    );
    assert.equal(parseGold(text)[0]!.insns.length, 0); // without the arch: skipped, as before
  });
  it("prints axsim's words in the listing's operand order", () => {
    const w = [
      encode('SFPLOAD', { lreg_ind: 2, instr_mod0: 0, sfpu_addr_mode: 3, dest_reg_addr: 4 }, 'wormhole'),
      encode(
        'SFPMAD',
        { lreg_src_a: 1, lreg_src_b: 11, lreg_src_c: 0, lreg_dest: 3, instr_mod1: 0 },
        'wormhole',
      ),
      encode('SFPIADD', { imm12_math: 0xfff, lreg_c: 0, lreg_dest: 1, instr_mod1: 9 }, 'wormhole'),
      encode('SFPNOP', {}, 'wormhole'),
      encode('SFPSTORE', { lreg_ind: 3, instr_mod0: 12, sfpu_addr_mode: 3, dest_reg_addr: 6 }, 'wormhole'),
    ];
    assert.deepEqual(
      wordsAsListing(w, 'wormhole').map((i) => `${i.name} ${i.ops.join(', ')}`),
      [
        'SFPLOAD L2, 4, 0, 3',
        'SFPMAD L3, L1, L11, L0, 0',
        'SFPIADD L1, L0, 4095, 9',
        'SFPSTORE 6, L3, 12, 3',
      ],
    );
  });
});
