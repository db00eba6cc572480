/**
 * SFPLUT and SFPLUTFP32: the range tables of spec 003 ("For SFPLUT, the table ranges are: ...",
 * and the FP16_3ENTRY / FP32_3ENTRY / FP16_6ENTRY_TABLE1 / TABLE2 tables), reproduced by making
 * every table entry's multiplicand 0 and its addend a distinct value, so the result names the entry
 * that was selected; plus Lut8ToFp32/Lut16ToFp32 values from SFPLUT.md / SFPLUTFP32.md.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exec, getL, hex, machine, setL, w } from '../testutil.ts';
import { lut8ToFp32, lut16ToFp32 } from './mad.ts';

const F = { half: 0x3f000000, one: 0x3f800000, two: 0x40000000, three: 0x40400000, four: 0x40800000 };
const below = (x: number) => x - 1; // previous float (positive x)

test('Lut8ToFp32 and Lut16ToFp32 decode as the documents tabulate', () => {
  assert.equal(hex(lut8ToFp32(0x00)), '0x3f800000'); // 1.0 (exp bits 000)
  assert.equal(hex(lut8ToFp32(0x0f)), hex(0x3ff80000)); // 1.9375
  assert.equal(hex(lut8ToFp32(0x10)), '0x3f000000'); // 0.5
  assert.equal(hex(lut8ToFp32(0x70)), hex(0x3c000000)); // 0.0078125
  assert.equal(hex(lut8ToFp32(0x80)), '0xbf800000'); // -1
  assert.equal(lut8ToFp32(0xff), 0); // the table's single 0
  assert.equal(hex(lut8ToFp32(0x7f)), hex(0x3c780000)); // +0.0151367
  assert.equal(hex(lut16ToFp32(0x3c00)), '0x3f800000');
  assert.equal(lut16ToFp32(0x7c00), 0); // +Inf pattern -> +0
  assert.equal(hex(lut16ToFp32(0xfc00)), '0x80000000'); // -Inf pattern -> -0
  assert.equal(hex(lut16ToFp32(0xfe00)), '0x80400000'); // -NaN pattern -> a denormal the MAD reads as -0
  assert.equal(hex(lut16ToFp32(0x0000)), hex(0x38000000)); // exp 0 is not denormal: 2^-15
  assert.equal(hex(lut16ToFp32(0x8001)), hex(0xb8002000));
});

test('SFPLUT table ranges (spec 003): |L3| < 1 -> L0, < 2 -> L1, else L2; SGN_RETAIN copies L3 sign', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    const st = machine(arch);
    // entry = (a << 8) | c with a = 0xff (0.0) and c = 1.0 / 0.5 / 0.25
    setL(st, 0, 0xff00);
    setL(st, 1, 0xff10);
    setL(st, 2, 0xff20);
    const l3 = [below(F.one), F.one, below(F.two), F.two, 0x7f7fffff, 0xbfc00000, 0, 0x80800000];
    setL(st, 3, l3);
    exec(st, [w('SFPLUT', { lreg_ind: 4, instr_mod0: 4 }, arch)]);
    // c is positive; SGN_RETAIN puts L3's sign on the result
    assert.deepEqual(getL(st, 4).slice(0, 8).map(hex), [
      '0x3f800000',
      '0x3f000000',
      '0x3f000000',
      '0x3e800000',
      '0x3e800000',
      '0xbf000000',
      '0x3f800000',
      '0xbf800000',
    ]);
    // without SGN_RETAIN (docs; ttsim only implements mod0=4): a = 1.0, c = 0 -> |L3|
    setL(st, 0, 0x00ff);
    exec(st, [w('SFPLUT', { lreg_ind: 5, instr_mod0: 0 }, arch)]);
    assert.equal(hex(getL(st, 5)[6]!), '0x00000000');
    setL(st, 3, 0xbf000000);
    exec(st, [w('SFPLUT', { lreg_ind: 5, instr_mod0: 0 }, arch)]);
    assert.equal(hex(getL(st, 5)[0]!), '0x3f000000');
  }
});

function fp16Entries(st: ReturnType<typeof machine>): void {
  // a = 0 in every entry (Lut16 exponent 31), c = 1..6 (FP16 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600)
  setL(st, 0, 0x7c007c00);
  setL(st, 1, 0x7c007c00);
  setL(st, 2, 0x7c007c00);
  setL(st, 4, 0x40003c00);
  setL(st, 5, 0x44004200);
  setL(st, 6, 0x46004500);
}
const ONE_TO_SIX = [0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x40a00000, 0x40c00000];

test('SFPLUTFP32 FP16_6ENTRY_TABLE1 (mod1=2) and TABLE2 (mod1=3) ranges (spec 003)', () => {
  const st = machine('wormhole');
  const l3 = [
    below(F.half),
    F.half,
    below(F.one),
    F.one,
    0x3fc00000,
    below(F.two),
    F.two,
    below(F.three),
    F.three,
    below(F.four),
    F.four,
  ];
  const t1 = [0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 5];
  const t2 = [0, 1, 1, 2, 3, 3, 4, 4, 4, 4, 5];
  for (const [mod1, table] of [
    [2, t1],
    [3, t2],
  ] as const) {
    fp16Entries(st);
    setL(st, 3, l3);
    exec(st, [w('SFPLUTFP32', { instr_mod1: mod1, lreg_dest: 7 })]);
    assert.deepEqual(
      getL(st, 7).slice(0, l3.length).map(hex),
      table.map((k) => hex(ONE_TO_SIX[k]!)),
      `mod1=${mod1}`,
    );
  }
});

test('SFPLUTFP32 FP16_3ENTRY_TABLE (mod1=10, also INDIRECT_VD) and FP32_3ENTRY_TABLE (mod1=0), SGN_RETAIN', () => {
  const st = machine('wormhole');
  setL(st, 0, 0x7c003c00); // a = 0, c = 1
  setL(st, 1, 0x7c004000); // c = 2
  setL(st, 2, 0x7c004200); // c = 3
  setL(st, 3, [below(F.one), F.one, below(F.two), F.two]);
  setL(st, 7, 5); // INDIRECT_VD: result goes to L5
  exec(st, [w('SFPLUTFP32', { instr_mod1: 10, lreg_dest: 6 })]);
  assert.deepEqual(getL(st, 5).slice(0, 4).map(hex), [
    '0x3f800000',
    '0x40000000',
    '0x40000000',
    '0x40400000',
  ]);
  // FP32 table: a = L0..L2 (0), c = L4..L6
  setL(st, 0, 0);
  setL(st, 1, 0);
  setL(st, 2, 0);
  setL(st, 4, 0x3f800000);
  setL(st, 5, 0x40000000);
  setL(st, 6, 0x40400000);
  setL(st, 3, [0xbf7fffff, F.one, 0xc0000000, F.two]);
  exec(st, [w('SFPLUTFP32', { instr_mod1: 4, lreg_dest: 7 })]); // FP32 table + SGN_RETAIN
  assert.deepEqual(getL(st, 7).slice(0, 4).map(hex), [
    '0xbf800000',
    '0x40000000',
    '0xc0400000',
    '0x40400000',
  ]);
});
