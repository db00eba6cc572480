import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { assemble, describeOp, disassembleOp } from './asm.ts';
import { decodeWord, encode, encodeWord } from './encoding.ts';

function err(text: string): AxsimError {
  try {
    assemble(text, 'p.amx');
  } catch (e) {
    if (e instanceof AxsimError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

test('the issue example assembles to the operand fma.md describes', () => {
  const p = assemble('fma32 z_row=3 x_offset=0x40 y_offset=0 mode=matrix x_enable=first:4');
  // z_row at bit 20, x_offset at bit 10, X enable mode 2 (first N) at bits 46-47 with N = 4 at 41-45
  assert.equal(p.ops[0]!.operand, (3n << 20n) | (0x40n << 10n) | (2n << 46n) | (4n << 41n));
  assert.equal(p.ops[0]!.op, 12);
});

test('raw operands, AMX_*(…) spelling, set/clr, comments', () => {
  const p = assemble(
    'AMX_FMA64(0x8000000000000000) ; c1\nfma64 0x8000000000000000 # c2\nAMX_SET()\nclr // c3',
  );
  assert.deepEqual(
    p.ops.map((o) => [o.name, o.op, o.operand]),
    [
      ['fma64', 10, 1n << 63n],
      ['fma64', 10, 1n << 63n],
      ['set', 17, 0n],
      ['clr', 17, 1n],
    ],
  );
});

test('.data places little-endian values; .space maps zeroed memory', () => {
  const p = assemble(
    '.data 0x100 f32 1.0, -2\n.data 0x200 i16 -1, 2\n.data 0x300 f16 1.5\n.data 0x400 bf16 1\n.space 0x1000 16',
  );
  assert.deepEqual(Array.from(p.data[0]!.bytes), [0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]);
  assert.deepEqual(Array.from(p.data[1]!.bytes), [0xff, 0xff, 2, 0]);
  assert.deepEqual(Array.from(p.data[2]!.bytes), [0x00, 0x3e]);
  assert.deepEqual(Array.from(p.data[3]!.bytes), [0x80, 0x3f]);
  assert.equal(p.data[4]!.bytes.length, 16);
});

test('errors carry line:col and hints', () => {
  let e = err('set\n  fmaa32 z_row=1');
  assert.equal(
    e.format(),
    "p.amx:2:3: BadInput: unknown AMX instruction 'fmaa32'\n  hint: did you mean fma32?",
  );
  e = err('fma32 z_roww=1');
  assert.equal(e.location?.col, 7);
  assert.match(e.message, /fma32 has no field 'z_roww'/);
  assert.equal(e.hint, 'did you mean z_row?');
  e = err('fma32 z_row=64');
  assert.match(e.message, /does not fit in 6 bits/);
  e = err('fma32 mode=diagonal');
  assert.match(e.message, /'diagonal' is not a value of mode/);
  e = err('.data 0x100 f33 1');
  assert.match(e.message, /unknown data type 'f33'/);
  assert.equal(e.hint, 'did you mean f32?');
  e = err('.data 0x100 u8 256');
  assert.match(e.message, /256 does not fit in u8/);
  e = err('extrh form=move shift=3');
  assert.match(e.message, /field 'shift' does not exist in this encoding/);
  e = err('extrh 0x8000000');
  assert.match(e.message, /encodes extrx, not extrh/);
  e = err('fma32 x_enable=sideways:3');
  assert.match(e.message, /is not a 7-bit enable/);
});

test('disassembly names every field; describeOp explains z_row for the mode', () => {
  const v = encode('fma16', { mode: 0n, z_f32: 1n });
  assert.match(disassembleOp(15, v), /^fma16 mode=matrix z_f32=1 /);
  assert.match(describeOp(15, v), /z_row=0: ignored \(f16 -> f32 matrix mode uses all 64 rows\)/);
  assert.match(
    describeOp(10, encode('fma64', { z_row: 9n })),
    /rows 1,9,17,… \(one row of each 8\) in f64 matrix mode/,
  );
});

test('A64 words: 0x00201000 | op << 5 | gpr', () => {
  assert.equal(encodeWord(12, 3), 0x00201183);
  assert.deepEqual(decodeWord(0x00201183), { op: 12, reg: 3 });
  assert.equal(encodeWord(17, 1), 0x00201221); // clr
  assert.throws(() => decodeWord(0xd503201f), /not an AMX instruction word/);
  assert.throws(() => decodeWord(0x002012e0), /opcode 23 is not defined/);
});

test('operand expressions as C spells them: AMX_FMA32(1l << 27), casts, suffixes', () => {
  const p = assemble(
    [
      'AMX_FMA32(1l << 27)',
      'AMX_FMA64((uint64_t)3 << 60 | 0x40ULL)',
      'fma16 (1 << 63) | (2 << 20)',
      'AMX_LDX(-1 & ~0xff)',
    ].join('\n'),
  );
  assert.deepEqual(
    p.ops.map((o) => o.operand),
    [1n << 27n, (3n << 60n) | 0x40n, (1n << 63n) | (2n << 20n), 0xffffffffffffff00n],
  );
});

test('.set symbols and expressions in field values (spaces allowed inside an expression)', () => {
  const p = assemble(
    '.set XR = 2\n.set YR, XR + 1\nfma32 x_offset=XR*64 y_offset=(YR << 6) z_row=1\nfma32 x_offset=XR * 64 + 8 z_row=YR',
  );
  // x_offset at bit 10, y_offset at bit 0, z_row at bit 20 (fma.md)
  assert.equal(p.ops[0]!.operand, (128n << 10n) | 192n | (1n << 20n));
  assert.equal(p.ops[1]!.operand, (136n << 10n) | (3n << 20n));
});

test('labels name data addresses; .data and .space without an address follow the data so far', () => {
  const p = assemble(
    [
      'A: .data 0x20000 f32 1, 2',
      'B:',
      '.data f32 3',
      'C: .space 256',
      'ldx reg=1 address=A + 64',
      'AMX_LDY((uint64_t)B | (1ull << 62))',
      'stz address=C z_row=2',
    ].join('\n'),
  );
  // B follows A's 8 bytes, rounded up to 128; C follows B's 4 bytes
  assert.deepEqual(
    p.data.map((d) => d.addr),
    [0x20000n, 0x20080n, 0x20100n],
  );
  assert.equal(p.ops[0]!.operand, (1n << 56n) | 0x20040n);
  assert.equal(p.ops[1]!.operand, (1n << 62n) | 0x20080n);
  assert.equal(p.ops[2]!.operand, (2n << 56n) | 0x20100n);
});

test('.rept COUNT[, VAR] … .endr repeats its body, nested, with .set accumulating', () => {
  const p = assemble(
    [
      '.set off = 0',
      '.rept 2, j',
      '.rept 3, i',
      'fma32 z_row=i + 4*j x_offset=off',
      '.set off = off + 64',
      '.endr',
      '.endr',
      '.rept 0',
      'fma32 z_row=63',
      '.endr',
    ].join('\n'),
  );
  const want: bigint[] = [];
  let off = 0n;
  for (let j = 0n; j < 2n; j++)
    for (let i = 0n; i < 3n; i++) {
      want.push(((i + 4n * j) << 20n) | (off << 10n));
      off += 64n;
    }
  assert.deepEqual(
    p.ops.map((o) => o.operand),
    want,
  );
  assert.equal(p.ops[5]!.line, 4);
});

test('expression and directive errors are located', () => {
  let e = err('.set a = 1\nfma32 z_row=b + 1');
  assert.match(e.message, /undefined symbol 'b'/);
  assert.deepEqual([e.location?.line, e.location?.col], [2, 13]);
  assert.equal(e.hint, 'did you mean a?');
  e = err('AMX_FMA32(1 << 65)');
  assert.match(e.message, /shift count 65/);
  e = err('AMX_FMA32(1 << 64)');
  assert.match(e.message, /does not fit in 64 bits/);
  e = err('.rept 3\nfma32 z_row=0');
  assert.match(e.message, /\.rept without \.endr/);
  e = err('.endr');
  assert.match(e.message, /\.endr without \.rept/);
  e = err('A:\nfma32 z_row=0');
  assert.match(e.message, /label 'A' must name a \.data or \.space/);
  e = err('A: .space 64\nA: .space 64');
  assert.match(e.message, /label 'A' is already defined/);
  e = err('fma32 z_row=3 - 4');
  assert.match(e.message, /is negative/);
  e = err('fma32 z_row=(1 + 2');
  assert.match(e.message, /missing '\)'/);
  e = err('.data 0x100 u8 1, 2 +');
  assert.match(e.message, /expression ends too early/);
  e = err('AMX_FMA32(12xyz)');
  assert.match(e.message, /not an integer/);
});
