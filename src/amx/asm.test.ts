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
