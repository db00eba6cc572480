/**
 * SFPTRANSP (spec 000 "Data Movement Diagram": for each column c, LReg[i][j*8+c] <-> LReg[j][i*8+c]
 * within LReg[0..3] and within LReg[4..7]), SFPSHFT2 modes (SFPSHFT2.md, SFPU-NOTES C1) and SFPSWAP
 * (SFPSWAP.md; SFPU-NOTES E for Mod1 9).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exec, getL, hex, machine, setL, w } from '../testutil.ts';

/** A value naming register r, grid row, column: 0xRRrc. */
const tag = (r: number, row: number, col: number) => (r << 8) | (row << 4) | col;

function fillTagged(st: ReturnType<typeof machine>): void {
  for (let r = 0; r < 8; r++) {
    const v: number[] = [];
    for (let l = 0; l < 32; l++) v.push(tag(r, l >> 3, l & 7));
    setL(st, r, v);
  }
}

test('SFPTRANSP reproduces the spec-000 diagram: after, LReg[base+i] row j = before LReg[base+j] row i', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const st = machine(arch);
    fillTagged(st);
    exec(st, [w('SFPTRANSP', {}, arch)]);
    for (const base of [0, 4]) {
      for (let i = 0; i < 4; i++) {
        for (let row = 0; row < 4; row++) {
          for (let col = 0; col < 8; col++) {
            // LReg[base+i] now holds "column i" of the 4x4 formed by LReg[base..base+3] x rows 0..3.
            assert.equal(st.lreg[(base + i) * 32 + row * 8 + col], tag(base + row, i, col));
          }
        }
      }
    }
    // transposing twice restores the registers (the double-transpose idiom)
    exec(st, [w('SFPTRANSP', {}, arch)]);
    for (let r = 0; r < 8; r++) assert.equal(st.lreg[r * 32 + 9], tag(r, 1, 1));
  }
});

test('SFPTRANSP with lane enables: each swap half is written only where its destination lane is enabled', () => {
  const st = machine('wormhole');
  fillTagged(st);
  st.useLaneFlags = 1;
  st.laneFlags = 0x000000ff; // only grid row 0 enabled
  exec(st, [w('SFPTRANSP')]);
  // row 0 of LReg[i] receives LReg[0][i*8+c] (its destination lanes are enabled) ...
  assert.equal(st.lreg[1 * 32 + 3], tag(0, 1, 3));
  assert.equal(st.lreg[3 * 32 + 7], tag(0, 3, 7));
  // ... but LReg[0] rows 1..3 keep their values (lanes 8..31 disabled)
  assert.equal(st.lreg[0 * 32 + 8 + 2], tag(0, 1, 2));
  assert.equal(st.lreg[2 * 32 + 16], tag(2, 2, 0));
});

test('SFPSHFT2 modes 0-3 and 5-6 (SFPSHFT2.md)', () => {
  const st = machine('wormhole');
  const lanes = (base: number) => Array.from({ length: 32 }, (_, l) => base + l);
  setL(st, 0, lanes(0x000));
  setL(st, 1, lanes(0x100));
  setL(st, 2, lanes(0x200));
  setL(st, 3, lanes(0x300));
  exec(st, [w('SFPSHFT2', { instr_mod1: 0 })]); // COPY4
  assert.deepEqual(
    [getL(st, 0)[5], getL(st, 1)[5], getL(st, 2)[5], getL(st, 3)[5]],
    [0x105, 0x205, 0x305, 0],
  );
  setL(st, 0, lanes(0x000));
  exec(st, [w('SFPSHFT2', { instr_mod1: 1 })]); // CHAINED_COPY4: L3 = original L0 moved 8 lanes left
  assert.deepEqual([getL(st, 3)[0], getL(st, 3)[23], getL(st, 3)[24]], [0x008, 0x01f, 0]);
  setL(st, 4, lanes(0x400));
  exec(st, [w('SFPSHFT2', { instr_mod1: 2, lreg_src_c: 4 })]); // SHFLROR1_AND_COPY4
  assert.deepEqual(
    [getL(st, 3)[0], getL(st, 3)[1], getL(st, 3)[8], getL(st, 3)[15]],
    [0x407, 0x400, 0x40f, 0x40e],
  );
  exec(st, [w('SFPSHFT2', { instr_mod1: 3, lreg_dest: 5, lreg_src_c: 4 })]); // SHFLROR1
  assert.deepEqual(getL(st, 5).slice(0, 9), [0x407, 0x400, 0x401, 0x402, 0x403, 0x404, 0x405, 0x406, 0x40f]);
  setL(st, 6, [3, -2 >>> 0, 33, 0]);
  setL(st, 7, 0x80000001);
  exec(st, [w('SFPSHFT2', { instr_mod1: 5, lreg_dest: 5, lreg_src_c: 6, imm12_math: 7 })]); // VB = L7, amounts L6
  assert.deepEqual(getL(st, 5).slice(0, 4).map(hex), [
    '0x00000008',
    '0x20000000',
    '0x00000002',
    '0x80000001',
  ]);
  setL(st, 2, 0x0000f000);
  exec(st, [w('SFPSHFT2', { instr_mod1: 6, lreg_dest: 5, imm12_math: 0xff2 })]); // VB = 2, shift by -14
  assert.equal(hex(getL(st, 5)[0]!), hex(0x0000f000 >>> 14));
});

test('SFPSHFT2 SUBVEC_SHFLSHR1 (mode 4): BH shifts in 0; WH shows the hardware bug (last ROR1 operand)', () => {
  const bh = machine('blackhole');
  setL(
    bh,
    1,
    Array.from({ length: 32 }, (_, l) => 0x100 + l),
  );
  exec(bh, [w('SFPSHFT2', { instr_mod1: 4, lreg_dest: 2, lreg_src_c: 1 }, 'blackhole')]);
  assert.deepEqual(getL(bh, 2).slice(0, 9), [0, 0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0]);
  const wh = machine('wormhole');
  setL(
    wh,
    1,
    Array.from({ length: 32 }, (_, l) => 0x100 + l),
  );
  setL(
    wh,
    3,
    Array.from({ length: 32 }, (_, l) => 0x300 + l),
  );
  exec(wh, [
    w('SFPSHFT2', { instr_mod1: 3, lreg_dest: 4, lreg_src_c: 3 }), // ROR1 observes L3
    w('SFPSHFT2', { instr_mod1: 4, lreg_dest: 2, lreg_src_c: 1 }),
  ]);
  // lane 8k gets vc0[8k + 7] = L3[8k + 7] instead of 0
  assert.deepEqual([getL(wh, 2)[0], getL(wh, 2)[1], getL(wh, 2)[8]], [0x307, 0x100, 0x30f]);
  // the documented work-around: ROR1 with VD = VC = 9 makes vc0 zero
  exec(wh, [
    w('SFPSHFT2', { instr_mod1: 3, lreg_dest: 9, lreg_src_c: 9 }),
    w('SFPSHFT2', { instr_mod1: 4, lreg_dest: 2, lreg_src_c: 1 }),
  ]);
  assert.deepEqual([getL(wh, 2)[0], getL(wh, 2)[8]], [0, 0]);
});

test('SFPSWAP: swap, min/max in the sign-magnitude total order, subvector modes, argmin/argmax', () => {
  const order = [
    0xffc00000, 0xff800000, 0xbf800000, 0x80000001, 0x80000000, 0, 1, 0x3f800000, 0x7f800000, 0x7fc00000,
  ];
  const st = machine('wormhole');
  // every ordered pair (i, j): VD = order[i], VC = order[j]
  const d: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < order.length; i++)
    for (let j = 0; j < 3; j++) {
      d.push(order[i]!);
      c.push(order[(i + 3 + j) % order.length]!);
    }
  setL(st, 0, d.slice(0, 30));
  setL(st, 1, c.slice(0, 30));
  exec(st, [w('SFPSWAP', { instr_mod1: 1, lreg_dest: 0, lreg_src_c: 1 })]);
  const rank = (x: number) => order.indexOf(x);
  for (let l = 0; l < 30; l++) {
    assert.equal(rank(getL(st, 0)[l]!), Math.min(rank(d[l]!), rank(c[l]!)), `lane ${l}`);
    assert.equal(rank(getL(st, 1)[l]!), Math.max(rank(d[l]!), rank(c[l]!)), `lane ${l}`);
  }
  // Mod1 0: unconditional swap; Mod1 2: lanes 0-15 min, 16-31 max; Mod1 9: max in every lane
  setL(st, 2, 5);
  setL(st, 3, 7);
  exec(st, [w('SFPSWAP', { instr_mod1: 0, lreg_dest: 2, lreg_src_c: 3 })]);
  assert.deepEqual([getL(st, 2)[0], getL(st, 3)[0]], [7, 5]);
  exec(st, [w('SFPSWAP', { instr_mod1: 2, lreg_dest: 2, lreg_src_c: 3 })]);
  assert.deepEqual([getL(st, 2)[0], getL(st, 2)[16]], [5, 7]);
  setL(st, 2, 0x80000000);
  setL(st, 3, 0);
  exec(st, [w('SFPSWAP', { instr_mod1: 9, lreg_dest: 2, lreg_src_c: 3 })]); // SFPU-NOTES E: VD=-0,VC=+0
  assert.deepEqual([getL(st, 2)[0], getL(st, 3)[0]], [0, 0x80000000]);
  // Mod1 10-15 on both arches: as Mod1 9 (WormholeB0 SFPSWAP.md: NonContractual "current silicon
  // behavior"; BlackholeA0 SFPSWAP.md: the default case). VD = max(0x3f800000, -2.0), VC = min.
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const s2 = machine(arch);
    for (let m = 10; m <= 15; m++) {
      setL(s2, 2, 0xc0000000);
      setL(s2, 3, 0x3f800000);
      exec(s2, [w('SFPSWAP', { instr_mod1: m, lreg_dest: 2, lreg_src_c: 3 }, arch)]);
      assert.deepEqual([getL(s2, 2)[5], getL(s2, 3)[5]], [0x3f800000, 0xc0000000], `${arch} Mod1 ${m}`);
    }
  }
  // EXCHANGE_SRCB_SRCC inverts; ENABLE_DEST_INDEX swaps LReg[4+] indices with the values
  st.laneConfig = 0x104;
  setL(st, 0, 3);
  setL(st, 1, 9);
  setL(st, 4, 100);
  setL(st, 5, 101);
  exec(st, [w('SFPSWAP', { instr_mod1: 1, lreg_dest: 0, lreg_src_c: 1 })]); // inverted: VD gets max
  assert.deepEqual([getL(st, 0)[0], getL(st, 1)[0], getL(st, 4)[0], getL(st, 5)[0]], [9, 3, 101, 100]);
});
