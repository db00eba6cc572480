/**
 * AMX encodings as data. The A64 instruction word is 0x00201000 | opcode << 5 | gpr (corsix/amx
 * aarch64.md); the 64-bit general-register operand carries the instruction's fields. Every field
 * of every instruction is declared here once (bit ranges, when it applies, what it means); decode,
 * encode, describe, the assembler and the disassembler are all derived from these tables.
 *
 * Field layouts follow corsix/amx's per-family pages (ldst.md, extr_*.md, fma.md, fms.md, mac16.md,
 * vecfp.md, matfp.md, vecint.md, matint.md, genlut.md, setclr.md). Bits that no active field covers
 * are "ignored" by the hardware; they are kept in a pseudo-field `ignored` so that decoding then
 * encoding reproduces every operand exactly.
 */
import { badInput, internalError, nearestName } from '../errors.ts';

export const AMX_WORD_BASE = 0x00201000;

/** A condition on the operand under which a field exists (e.g. "bit 26 = 1"). */
export interface Cond {
  text: string;
  test: (lo: number, hi: number) => boolean;
  /** For the common "bit N = V" conditions: [N, V] (lets the raw paths skip the closure call). */
  bit?: readonly [number, number];
}

export type FieldKind = 'uint' | 'hex' | 'bool' | 'enum' | 'mask7' | 'mask9';

export interface FieldDef {
  name: string;
  /** Bit ranges [pos, width], least significant part first; the value concatenates them. */
  parts: readonly (readonly [number, number])[];
  kind: FieldKind;
  doc: string;
  /** Names of enum values (kind 'enum'). */
  values?: Readonly<Record<number, string>>;
  /** The field exists only when all of these hold. */
  when?: readonly Cond[];
  /** A value-dependent explanation (gets the whole operand). */
  explain?: (v: number, lo: number, hi: number) => string;
}

export interface InsnDef {
  name: string;
  op: number;
  /** Bits this instruction requires (its decode variant), as [pos, width, value]. */
  fixed?: readonly (readonly [number, number, number])[];
  summary: string;
  /** corsix/amx page that the fields and semantics follow. */
  ref: string;
  fields: readonly FieldDef[];
}

// --- bit helpers ---------------------------------------------------------------------------------

function getBits(lo: number, hi: number, pos: number, width: number): number {
  let v = 0;
  for (let k = 0; k < width; k++) {
    const b = pos + k;
    const bit = b >= 32 ? (hi >>> (b - 32)) & 1 : (lo >>> b) & 1;
    v += bit * 2 ** k;
  }
  return v;
}

/** Field value (parts concatenated, low part first). Numbers up to 2^56 are exact for the pointer. */
export function fieldValue(f: FieldDef, lo: number, hi: number): number {
  let v = 0;
  let shift = 0;
  for (const [pos, width] of f.parts) {
    v += getBits(lo, hi, pos, width) * 2 ** shift;
    shift += width;
  }
  return v;
}

/** Exact field value for any width (the 56-bit address needs more than a double's 53 bits). */
export function fieldValueBig(f: FieldDef, operand: bigint): bigint {
  let v = 0n;
  let shift = 0n;
  for (const [pos, width] of f.parts) {
    v |= ((operand >> BigInt(pos)) & ((1n << BigInt(width)) - 1n)) << shift;
    shift += BigInt(width);
  }
  return v;
}

export function fieldWidth(f: FieldDef): number {
  let w = 0;
  for (const [, width] of f.parts) w += width;
  return w;
}

/** The operand bits a field occupies, as a bigint mask. */
export function fieldMask(f: FieldDef): bigint {
  let m = 0n;
  for (const [pos, width] of f.parts) m |= ((1n << BigInt(width)) - 1n) << BigInt(pos);
  return m;
}

const bitIs = (pos: number, value: number): Cond => ({
  text: `bit ${pos} = ${value}`,
  bit: [pos, value],
  test: (lo, hi) => (pos >= 32 ? (hi >>> (pos - 32)) & 1 : (lo >>> pos) & 1) === value,
});
const aluIs4: Cond = {
  text: 'ALU mode (bits 47-52) = 4 and bit 53 = 0',
  test: (_lo, hi) => ((hi >>> 21) & 1) === 0 && ((hi >>> 15) & 0x3f) === 4,
};
const aluNot4: Cond = {
  text: 'ALU mode (bits 47-52) != 4 or bit 53 = 1',
  test: (_lo, hi) => !(((hi >>> 21) & 1) === 0 && ((hi >>> 15) & 0x3f) === 4),
};

// --- field builders ------------------------------------------------------------------------------

function F(
  name: string,
  pos: number,
  width: number,
  kind: FieldKind,
  doc: string,
  extra: Partial<FieldDef> = {},
): FieldDef {
  return { name, parts: [[pos, width]], kind, doc, ...extra };
}

const xOffset = F('x_offset', 10, 9, 'hex', 'X offset in bytes into the 512-byte X pool (wraps around)');
const yOffset = F('y_offset', 0, 9, 'hex', 'Y offset in bytes into the 512-byte Y pool (wraps around)');
const address: FieldDef = {
  name: 'address',
  parts: [
    [0, 32],
    [32, 24],
  ],
  kind: 'hex',
  doc: 'memory address (bits 0-55 of the operand)',
};

function fmaFields(width: 16 | 32 | 64, sub: boolean, isMac: boolean): FieldDef[] {
  const lanes = 512 / width;
  const rowsEach = 64 / lanes;
  const fields: FieldDef[] = [
    F('mode', 63, 1, 'enum', 'vector (pointwise) or matrix (outer product)', {
      values: { 0: 'matrix', 1: 'vector' },
    }),
  ];
  if (isMac) {
    fields.push(
      F('z_i32', 62, 1, 'bool', 'matrix mode: Z is i32 over all 64 rows (interleaved pairs) instead of i16'),
    );
    fields.push(F('x_i8', 61, 1, 'bool', 'X lanes are i8 (low byte of each 16-bit lane) instead of i16'));
    fields.push(F('y_i8', 60, 1, 'bool', 'Y lanes are i8 (low byte of each 16-bit lane) instead of i16'));
    fields.push(F('shift', 55, 5, 'uint', 'right shift applied to x*y (arithmetic)'));
  } else if (width === 16) {
    fields.push(
      F('z_f32', 62, 1, 'bool', 'matrix mode: Z is f32 over all 64 rows (interleaved pairs) instead of f16'),
    );
  } else if (width === 32) {
    fields.push(F('x_f16', 61, 1, 'bool', 'X is f16 (low half of each 32-bit lane) instead of f32'));
    fields.push(F('y_f16', 60, 1, 'bool', 'Y is f16 (low half of each 32-bit lane) instead of f32'));
  }
  const sign = sub ? '-' : '+';
  fields.push(
    F('x_enable', 41, 7, 'mask7', 'X lane enable (mode bits 46-47, value bits 41-45)'),
    F(
      'y_enable',
      32,
      7,
      'mask7',
      'Y lane enable (mode bits 37-38, value bits 32-36); ignored in vector mode',
    ),
    F('skip_x', 29, 1, 'bool', 'skip the X input'),
    F('skip_y', 28, 1, 'bool', 'skip the Y input'),
    F('skip_z', 27, 1, 'bool', `skip the Z input (z = ${sign}x*y instead of z ${sign}= x*y)`),
    F('z_row', 20, 6, 'uint', 'Z row', {
      explain: (v, _lo, hi) => {
        if (hi >>> 31) return `row ${v} (vector mode)`;
        if (!isMac && width === 16 && (hi >>> 30) & 1)
          return 'ignored (f16 -> f32 matrix mode uses all 64 rows)';
        if (isMac && (hi >>> 30) & 1) return 'ignored (i16 -> i32 matrix mode uses all 64 rows)';
        const r = v % rowsEach;
        return `rows ${r},${r + rowsEach},${r + 2 * rowsEach},… (one row of each ${rowsEach}) in ${isMac ? 'i16' : `f${width}`} matrix mode`;
      },
    }),
    xOffset,
    yOffset,
  );
  return fields;
}

function extrNewFields(horizontal: boolean): FieldDef[] {
  const newForm = bitIs(26, 1);
  const oldForm = bitIs(26, 0);
  const single = bitIs(31, 0);
  return [
    F(
      'form',
      26,
      1,
      'enum',
      'bit 26: 0 = plain move with 7-bit enable, 1 = lane-width modes with 9-bit enable',
      {
        values: { 0: 'move', 1: 'lanes' },
      },
    ),
    // form = move (26 = 0)
    F('lane_width', 28, 2, 'enum', 'lane width', {
      values: { 0: 'w64', 1: 'w32', 2: 'w16', 3: 'w16lo' },
      when: [oldForm],
    }),
    horizontal
      ? F('dst_offset', 10, 9, 'hex', 'destination byte offset into X', { when: [oldForm] })
      : F('dst_offset', 0, 9, 'hex', 'destination byte offset into Y', { when: [oldForm] }),
    horizontal
      ? F('x_enable', 41, 7, 'mask7', 'X lane enable', { when: [oldForm] })
      : F('y_enable', 32, 7, 'mask7', 'Y lane enable', { when: [oldForm] }),
    // form = lanes (26 = 1)
    {
      name: 'lane_mode',
      parts: [
        [11, 4],
        [63, 1],
      ],
      kind: 'uint',
      doc: 'lane-width mode: bits 11-14 plus bit 63 as bit 4 (0 u8, 8 u32, 9/10 u16 from u32 pairs, 11 u8 from u32, 13 u8 from u16, 17 f64, 24 f32, 25/26 f16|bf16 from f32 (M2+), other: 16-bit)',
      when: [newForm],
    },
    F('to_y', 10, 1, 'bool', 'destination is Y (else X)', { when: [newForm] }),
    F('dst_offset', 0, 9, 'hex', 'destination byte offset (M4 with multi: low 6 bits ignored)', {
      when: [newForm],
    }),
    F(
      horizontal ? 'z_row' : 'z_col',
      20,
      6,
      'uint',
      `${horizontal ? 'Z row' : 'Z column'}; with multi, its bit 5 (operand bit 25) asks for four vectors instead of two`,
      {
        when: [newForm],
      },
    ),
    F('multi', 31, 1, 'bool', 'M2+: repeat over 2 vectors (or 4 with bit 25)', { when: [newForm] }),
    F('enable', 32, 9, 'mask9', '9-bit lane enable (mode bits 38-40, value bits 32-37)', {
      when: [newForm, single],
    }),
    F('round', 54, 1, 'bool', 'rounding right shift', { when: [newForm, bitIs(63, 0)] }),
    F('saturate', 55, 1, 'bool', 'saturate instead of truncate', { when: [newForm, bitIs(63, 0)] }),
    F('signed_out', 56, 1, 'bool', 'signed saturation', { when: [newForm, bitIs(63, 0)] }),
    F('signed_z', 57, 1, 'bool', 'Z is signed', { when: [newForm, bitIs(63, 0)] }),
    F('shift', 58, 5, 'uint', 'right shift amount', { when: [newForm, bitIs(63, 0)] }),
    F('bf16', 62, 1, 'bool', 'narrow to bf16 instead of f16', { when: [newForm, bitIs(63, 1)] }),
    // form = move, z row/col
    F(horizontal ? 'z_row' : 'z_col', 20, 6, 'uint', horizontal ? 'Z row' : 'Z column', { when: [oldForm] }),
  ];
}

const indexedFields = (): FieldDef[] => [
  F('indexed', 53, 1, 'bool', 'indexed load of X or Y (RegisterFile.md "Indexed loads")'),
  F('idx_reg', 49, 3, 'uint', 'register indexed into', { when: [bitIs(53, 1)] }),
  F('idx_4bit', 48, 1, 'bool', 'indices are 4 bits (else 2)', { when: [bitIs(53, 1)] }),
  F('idx_y', 47, 1, 'bool', 'indexed load of Y (else X)', { when: [bitIs(53, 1)] }),
];

function fpLaneText(v: number): string {
  switch (v) {
    case 0:
      return 'X/Y bf16, Z bf16 (M2+; f16 on M1)';
    case 1:
      return 'X/Y bf16, Z f32 interleaved pair (M2+; f16 on M1)';
    case 3:
      return 'X/Y f16, Z f32 (interleaved pair of rows)';
    case 4:
      return 'X/Y/Z f32';
    case 7:
      return 'X/Y/Z f64';
    default:
      return 'X/Y/Z f16';
  }
}

function intLaneText(v: number, hi: number, matrix: boolean): string {
  const indexed = (hi >>> 21) & 1;
  const alu = indexed ? (matrix && (hi >>> 22) & 1 ? 8 : 0) : (hi >>> 15) & 0x3f;
  if (alu === 4) {
    const t: Record<number, string> = {
      3: 'Z i32, saturate to 16 bits',
      4: 'Z i32, saturate to 32 bits',
      10: 'Z i32, saturate to 8 bits',
      11: 'Z i16, saturate to 8 bits',
    };
    if (!matrix && v === 9) return 'Z i8, saturate to 8 bits';
    return t[v] ?? 'Z i16, saturate to 16 bits';
  }
  if (alu === 5 || alu === 6) return 'X/Y/Z i16 (lane mode ignored)';
  if (matrix && alu === 8) {
    if (v === 10) return 'X i8, Y i8 (every fourth lane), Z i32 (all rows)';
    if (v === 12) return 'M3+: X i8, Y i16, Z i32 (all rows); before M3 as the default';
    return 'X i8, Y i8 (even lanes), Z i16 (all rows)';
  }
  if (matrix && alu === 9) return v === 3 ? 'X/Y i16, Z i32 pairs' : v === 4 ? 'X/Y/Z i32' : 'X/Y/Z i16';
  if (matrix) return v === 3 ? 'X/Y i16, Z i32 (all rows, interleaved pairs)' : 'X/Y/Z i16';
  const t: Record<number, string> = {
    3: 'X/Y i16, Z i32 (interleaved pair)',
    10: 'X/Y i8, Z i32 (interleaved quartet)',
    11: 'X/Y i8, Z i16 (interleaved pair)',
    12: 'X i8, Y i16, Z i32',
    13: 'X i16, Y i8, Z i32',
  };
  return t[v] ?? 'X/Y/Z i16';
}

const ALU_TEXT: Record<string, string> = {
  fma: 'z + x*y',
  fms: 'z - x*y',
  select: 'x <= 0 ? 0 : y',
  min: 'min(x, z)',
  max: 'max(x, z)',
  mul: 'x*y (M2+)',
  addx: 'z + x (M2+)',
  addy: 'z + y (M2+)',
  mac: 'z + ((x*y) >> s)',
  msub: 'z - ((x*y) >> s)',
  add: 'z + ((x+y) >> s)',
  sub: 'z - ((x+y) >> s)',
  shift: 'z = sat(z >> s)',
  sqrdmlah: 'sat_i16(z + ((x*y*2 + 2^15) >> 16))',
  sqrdmlsh: 'sat_i16(z - ((x*y*2 + 2^15) >> 16))',
  mac8: 'z + ((x*y) >> s), 8-bit X/Y lane modes',
  popcnt: 'z + popcount(~(x ^ y))',
};

/** Plain-words meaning of a write-enable value. */
export function maskText(kind: FieldKind, v: number, width: number): string {
  const vb = kind === 'mask7' ? 5 : width - 3;
  const mode = Math.floor(v / 2 ** vb);
  const n = v % 2 ** vb;
  switch (mode) {
    case 0:
      if (n === 0) return 'all lanes';
      if (n === 1) return 'odd lanes';
      if (n === 2) return 'even lanes';
      if (kind === 'mask9' && n === 3) return 'all lanes, result forced to 0';
      if (kind === 'mask9' && n === 4) return 'all lanes, X forced to 0 (extr: all lanes)';
      if (kind === 'mask9' && n === 5) return 'all lanes, Y forced to 0 (extr: all lanes)';
      return 'no lanes';
    case 1:
      return `only lane ${n} (vecfp/vecint: all lanes, Y lane ${n} broadcast)`;
    case 2:
      return n === 0 ? 'all lanes' : `first ${n} lanes`;
    case 3:
      return n === 0 ? 'all lanes' : `last ${n} lanes`;
    case 4:
      return `first ${n} lanes (none when 0)`;
    case 5:
      return `last ${n} lanes (none when 0)`;
    default:
      return 'no lanes';
  }
}

const FP_ALU = { 0: 'fma', 1: 'fms', 4: 'select', 5: 'min', 7: 'max', 10: 'mul', 11: 'addx', 12: 'addy' };
const INT_ALU = {
  0: 'mac',
  1: 'msub',
  2: 'add',
  3: 'sub',
  4: 'shift',
  5: 'sqrdmlah',
  6: 'sqrdmlsh',
  8: 'mac8',
  9: 'popcnt',
  10: 'mul',
  11: 'addx',
  12: 'addy',
};

function vecFields(fp: boolean): FieldDef[] {
  const single = bitIs(31, 0);
  const multi = bitIs(31, 1);
  const f: FieldDef[] = [];
  if (!fp) {
    f.push(F('signed_x', 63, 1, 'bool', 'X is signed', { when: [aluNot4] }));
    f.push(F('signed_z', 63, 1, 'bool', 'Z is signed', { when: [aluIs4] }));
    f.push(F('shift', 58, 5, 'uint', 'right shift amount (ignored in ALU modes 5, 6)'));
  }
  f.push(F('must_be_zero', 54, 3, 'uint', 'must be zero (otherwise the instruction does nothing)'));
  f.push(...indexedFields());
  f.push(
    F('alu', 47, 6, 'enum', 'ALU mode', { values: fp ? FP_ALU : INT_ALU, when: [bitIs(53, 0)] }),
    F('lane_mode', 42, 4, 'uint', 'lane-width mode', {
      explain: (v, _lo, hi) => `lane-width mode: ${fp ? fpLaneText(v) : intLaneText(v, hi, false)}`,
    }),
    F('multi', 31, 1, 'bool', 'M2+: repeat over 2 vectors (or 4 with bit 25)'),
    F(
      'bcast',
      32,
      3,
      'uint',
      'broadcast mode for multi (0 consecutive, 1 zero result, 2/3 same X/Y, 4/5 zero X/Y, 6/7 lane 0 of X/Y)',
      {
        when: [multi],
      },
    ),
    fp
      ? {
          name: 'enable',
          parts: [
            [32, 5],
            [38, 3],
          ],
          kind: 'mask9',
          doc: 'write enable (mode bits 38-40, value bits 32-36; mode 1 broadcasts Y lane N)',
          when: [single],
        }
      : F(
          'enable',
          32,
          9,
          'mask9',
          'write enable (mode bits 38-40, value bits 32-37; mode 1 broadcasts Y lane N)',
          {
            when: [single],
          },
        ),
  );
  if (fp) {
    f.push(F('x_shuffle', 29, 2, 'uint', 'X shuffle S0-S3'));
  } else {
    f.push(F('saturate', 30, 1, 'bool', 'saturate Z', { when: [aluIs4] }));
    f.push(F('round', 29, 1, 'bool', 'rounding right shift', { when: [aluIs4] }));
    f.push(F('x_shuffle', 29, 2, 'uint', 'X shuffle S0-S3', { when: [aluNot4] }));
  }
  f.push(F('y_shuffle', 27, 2, 'uint', 'Y shuffle S0-S3'));
  if (!fp) {
    f.push(F('signed_out', 26, 1, 'bool', 'signed saturation', { when: [aluIs4] }));
    f.push(F('signed_y', 26, 1, 'bool', 'Y is signed', { when: [aluNot4] }));
  }
  f.push(
    F(
      'z_row',
      20,
      6,
      'uint',
      'Z row; with multi, its bit 5 (operand bit 25) asks for four vectors instead of two, and the top bit or two are ignored',
    ),
    xOffset,
    yOffset,
  );
  return f;
}

function matFields(fp: boolean): FieldDef[] {
  const f: FieldDef[] = [];
  if (fp) {
    f.push({
      name: 'y_enable',
      parts: [
        [58, 6],
        [23, 3],
      ],
      kind: 'mask9',
      doc: 'Y write enable (value bits 58-63, mode bits 23-25)',
    });
    f.push(F('must_be_zero', 54, 3, 'uint', 'must be zero (otherwise the instruction does nothing)'));
  } else {
    f.push(F('signed_x', 63, 1, 'bool', 'X is signed', { when: [aluNot4] }));
    f.push(F('signed_z', 63, 1, 'bool', 'Z is signed', { when: [aluIs4] }));
    f.push(F('shift', 58, 5, 'uint', 'right shift amount (ignored in ALU modes 5, 6, 9)'));
    f.push(F('must_be_zero', 55, 2, 'uint', 'must be zero (otherwise the instruction does nothing)'));
    f.push(F('alu8', 54, 1, 'bool', 'indexed form: ALU mode 8 instead of 0', { when: [bitIs(53, 1)] }));
    f.push(F('must_be_zero54', 54, 1, 'uint', 'must be zero when not indexed', { when: [bitIs(53, 0)] }));
  }
  f.push(...indexedFields());
  f.push(
    F('alu', 47, 6, 'enum', 'ALU mode', { values: fp ? FP_ALU : INT_ALU, when: [bitIs(53, 0)] }),
    F('lane_mode', 42, 4, 'uint', 'lane-width mode', {
      explain: (v, _lo, hi) => `lane-width mode: ${fp ? fpLaneText(v) : intLaneText(v, hi, true)}`,
    }),
  );
  if (fp) {
    f.push({
      name: 'x_enable',
      parts: [
        [32, 5],
        [38, 3],
      ],
      kind: 'mask9',
      doc: 'X write enable (mode bits 38-40, value bits 32-36)',
    });
    f.push(F('x_shuffle', 29, 2, 'uint', 'X shuffle S0-S3'));
  } else {
    f.push(
      F('enable', 32, 9, 'mask9', 'X or Y write enable (see enable_y; mode bits 38-40, value bits 32-37)'),
    );
    f.push(F('saturate', 30, 1, 'bool', 'saturate Z', { when: [aluIs4] }));
    f.push(F('round', 29, 1, 'bool', 'rounding right shift', { when: [aluIs4] }));
    f.push(F('x_shuffle', 29, 2, 'uint', 'X shuffle S0-S3', { when: [aluNot4] }));
  }
  f.push(F('y_shuffle', 27, 2, 'uint', 'Y shuffle S0-S3'));
  if (!fp) {
    f.push(F('signed_out', 26, 1, 'bool', 'signed saturation', { when: [aluIs4] }));
    f.push(F('signed_y', 26, 1, 'bool', 'Y is signed', { when: [aluNot4] }));
    f.push(F('enable_y', 25, 1, 'bool', 'the enable applies to Y (else X)'));
    f.push(F('z_row', 20, 2, 'uint', 'Z row (low bits; high bits ignored in some lane modes)'));
  } else {
    f.push(F('z_row', 20, 3, 'uint', 'Z row (high bits ignored in some lane modes)'));
  }
  f.push(xOffset, yOffset);
  return f;
}

const LDXY = (name: string, op: number, pool: string): InsnDef => ({
  name,
  op,
  summary: `${pool}[reg] = memory[address] (64 bytes, or 128/256 with multiple)`,
  ref: 'ldst.md',
  fields: [
    F(
      'multiple',
      62,
      1,
      'bool',
      'load 2 registers (or 4 with four on M2+); address must be 128-byte aligned',
    ),
    F('non_consecutive', 61, 1, 'bool', 'M3+: with multiple, registers n, n+4 (or n, n+2, n+4, n+6)'),
    F('four', 60, 1, 'bool', 'M2+: with multiple, four registers instead of two'),
    F('reg', 56, 3, 'uint', `${pool} register index`),
    address,
  ],
});
const STXY = (name: string, op: number, pool: string): InsnDef => ({
  name,
  op,
  summary: `memory[address] = ${pool}[reg] (64 bytes, or 128 with pair)`,
  ref: 'ldst.md',
  fields: [
    F('pair', 62, 1, 'bool', 'store registers reg and reg+1 (128 bytes, 128-byte aligned)'),
    F('reg', 56, 3, 'uint', `${pool} register index`),
    address,
  ],
});
const LDSTZ = (name: string, op: number, load: boolean): InsnDef => ({
  name,
  op,
  summary: load ? 'z[z_row] = memory[address]' : 'memory[address] = z[z_row]',
  ref: 'ldst.md',
  fields: [
    F('pair', 62, 1, 'bool', 'rows z_row and z_row+1 (128 bytes, 128-byte aligned)'),
    F('z_row', 56, 6, 'uint', 'Z row'),
    address,
  ],
});
const LDSTZI = (name: string, op: number, load: boolean): InsnDef => ({
  name,
  op,
  summary: load
    ? 'interleaved: memory u32 lane i -> Z row (2*z_row | i&1), half selected by half'
    : 'interleaved: Z row pair half -> memory',
  ref: 'ldst.md',
  fields: [
    F('z_row', 57, 5, 'uint', 'Z row pair (rows 2n and 2n+1)'),
    F('half', 56, 1, 'enum', 'which half of the pair', { values: { 0: 'left', 1: 'right' } }),
    address,
  ],
});

/** extrx / extry (bit 27 = 1, bit 26 = 0): copy register src (bits 20-22) to register dst. */
const EXTR_XY = (name: string, op: number, dst: string, dstPos: number, src: string): InsnDef => ({
  name,
  op,
  fixed: [
    [26, 1, 0],
    [27, 1, 1],
  ],
  summary: `${dst}[${dst}_reg] = ${src}[${src}_reg]`,
  ref: `extr_${dst}.md`,
  fields: [
    F(`${src}_reg`, 20, 3, 'uint', `source ${src.toUpperCase()} register`),
    F(`${dst}_reg`, dstPos, 3, 'uint', `destination ${dst.toUpperCase()} register`),
  ],
});

/** Every AMX instruction (set and clr are opcode 17 with an immediate, not an operand). */
export const INSNS: readonly InsnDef[] = [
  LDXY('ldx', 0, 'x'),
  LDXY('ldy', 1, 'y'),
  STXY('stx', 2, 'x'),
  STXY('sty', 3, 'y'),
  LDSTZ('ldz', 4, true),
  LDSTZ('stz', 5, false),
  LDSTZI('ldzi', 6, true),
  LDSTZI('stzi', 7, false),
  EXTR_XY('extrx', 8, 'x', 16, 'y'),
  { name: 'extrh', op: 8, summary: 'x or y = f(Z row)', ref: 'extr_h.md', fields: extrNewFields(true) },
  EXTR_XY('extry', 9, 'y', 6, 'x'),
  { name: 'extrv', op: 9, summary: 'x or y = f(Z column)', ref: 'extr_v.md', fields: extrNewFields(false) },
  { name: 'fma64', op: 10, summary: 'z += x*y (f64)', ref: 'fma.md', fields: fmaFields(64, false, false) },
  { name: 'fms64', op: 11, summary: 'z -= x*y (f64)', ref: 'fms.md', fields: fmaFields(64, true, false) },
  {
    name: 'fma32',
    op: 12,
    summary: 'z += x*y (f32, X/Y optionally f16)',
    ref: 'fma.md',
    fields: fmaFields(32, false, false),
  },
  {
    name: 'fms32',
    op: 13,
    summary: 'z -= x*y (f32, X/Y optionally f16)',
    ref: 'fms.md',
    fields: fmaFields(32, true, false),
  },
  {
    name: 'mac16',
    op: 14,
    summary: 'z += (x*y) >> s (i16, Z optionally i32)',
    ref: 'mac16.md',
    fields: fmaFields(16, false, true),
  },
  {
    name: 'fma16',
    op: 15,
    summary: 'z += x*y (f16, Z optionally f32)',
    ref: 'fma.md',
    fields: fmaFields(16, false, false),
  },
  {
    name: 'fms16',
    op: 16,
    summary: 'z -= x*y (f16, Z optionally f32)',
    ref: 'fms.md',
    fields: fmaFields(16, true, false),
  },
  {
    name: 'vecint',
    op: 18,
    summary: 'z[_][i] +/-= f(x[i], y[i]) (integer)',
    ref: 'vecint.md',
    fields: vecFields(false),
  },
  {
    name: 'vecfp',
    op: 19,
    summary: 'z[_][i] +/-= f(x[i], y[i]) (floating point)',
    ref: 'vecfp.md',
    fields: vecFields(true),
  },
  {
    name: 'matint',
    op: 20,
    summary: 'z[j][i] +/-= f(x[i], y[j]) (integer)',
    ref: 'matint.md',
    fields: matFields(false),
  },
  {
    name: 'matfp',
    op: 21,
    summary: 'z[j][i] +/-= f(x[i], y[j]) (floating point)',
    ref: 'matfp.md',
    fields: matFields(true),
  },
  {
    name: 'genlut',
    op: 22,
    summary: 'generate table indices (modes 0-6) or look them up (modes 7-15)',
    ref: 'genlut.md',
    fields: [
      F('table_reg', 60, 3, 'uint', 'table register index'),
      F('table_y', 59, 1, 'bool', 'table is in Y (else X)'),
      F('mode', 53, 4, 'uint', 'mode: 0-6 generate from f32 f16/bf16 f64 i32 i16 u32 u16; 7-15 lookup'),
      F('bf16', 30, 1, 'bool', 'M2+: mode 1 compares bf16 instead of f16', {
        when: [{ text: 'mode = 1', test: (_l, h) => ((h >>> 21) & 15) === 1 }],
      }),
      F('dest_z', 26, 1, 'bool', 'destination is Z (lookup modes only)'),
      F('dest_y', 25, 1, 'bool', 'destination is Y (else X)', { when: [bitIs(26, 0)] }),
      F('dest_reg', 20, 3, 'uint', 'destination X/Y register', { when: [bitIs(26, 0)] }),
      {
        name: 'dest_reg',
        parts: [
          [20, 3],
          [23, 3],
        ],
        kind: 'uint',
        doc: 'destination register (Z row 0-63 in lookup modes; generate modes use the low 3 bits as X/Y register)',
        when: [bitIs(26, 1)],
      },
      F('source_y', 10, 1, 'bool', 'source is Y (else X)'),
      F('source_offset', 0, 9, 'hex', 'source byte offset'),
    ],
  },
];

export const SET_CLR = { name: ['set', 'clr'], op: 17 } as const;

const byName = new Map(INSNS.map((d) => [d.name, d]));
const BY_OP: (InsnDef | undefined)[] = [];
for (const d of INSNS) if (BY_OP[d.op] === undefined) BY_OP[d.op] = d;
export const MNEMONICS: readonly string[] = [...INSNS.map((d) => d.name), 'set', 'clr'];

export function insnByName(name: string): InsnDef | undefined {
  return byName.get(name.toLowerCase());
}

/** The instruction definition for an opcode and operand (opcodes 8 and 9 split on bits 26/27). */
export function insnFor(op: number, lo: number, _hi: number): InsnDef {
  if (op === 8 || op === 9) {
    const isXY = ((lo >>> 27) & 1) === 1 && ((lo >>> 26) & 1) === 0;
    return byName.get(op === 8 ? (isXY ? 'extrx' : 'extrh') : isXY ? 'extry' : 'extrv')!;
  }
  const d = BY_OP[op];
  if (d === undefined)
    throw badInput(`AMX opcode ${op} has no operand fields`, {
      hint: 'opcodes 0-16 and 18-22 take an operand',
    });
  return d;
}

/** The fields of `def` that exist for this operand. */
export function activeFields(def: InsnDef, lo: number, hi: number): FieldDef[] {
  return def.fields.filter((f) => !f.when || f.when.every((c) => c.test(lo, hi)));
}

export interface DecodedField {
  name: string;
  value: bigint;
  text: string;
  meaning: string;
}

export interface Decoded {
  insn: InsnDef;
  op: number;
  fields: DecodedField[];
  /** Operand bits that no active field covers (the hardware ignores them). */
  ignored: bigint;
}

function split(operand: bigint): [number, number] {
  const v = BigInt.asUintN(64, operand);
  return [Number(v & 0xffffffffn), Number(v >> 32n)];
}

/** Decodes an operand into named fields (with formatted values and meanings). */
export function decode(op: number, operand: bigint): Decoded {
  const [lo, hi] = split(operand);
  const insn = insnFor(op, lo, hi);
  const fields = activeFields(insn, lo, hi);
  let covered = 0n;
  for (const [pos, width] of insn.fixed?.map((f) => [f[0], f[1]] as const) ?? []) {
    covered |= ((1n << BigInt(width)) - 1n) << BigInt(pos);
  }
  const out: DecodedField[] = [];
  for (const f of fields) {
    covered |= fieldMask(f);
    const value = fieldValueBig(f, BigInt.asUintN(64, operand));
    const small = Number(value);
    let meaning = f.doc;
    if (f.explain) meaning = f.explain(small, lo, hi);
    else if (f.kind === 'mask7' || f.kind === 'mask9')
      meaning = `${f.doc}: ${maskText(f.kind, small, fieldWidth(f))}`;
    else if (f.kind === 'enum' && f.values?.[small] && ALU_TEXT[f.values[small]!])
      meaning = `${f.doc}: ${ALU_TEXT[f.values[small]!]}`;
    out.push({ name: f.name, value, text: formatValue(f, value), meaning });
  }
  return { insn, op, fields: out, ignored: BigInt.asUintN(64, operand) & ~covered };
}

/** Builds an operand from field values (names as in the tables); unknown names are BadInput. */
export function encode(name: string, values: Readonly<Record<string, bigint | number>>): bigint {
  const def = insnByName(name);
  if (!def) {
    const near = nearestName(name, MNEMONICS);
    throw badInput(`unknown AMX instruction '${name}'`, { hint: near ? `did you mean ${near}?` : undefined });
  }
  const c = compiled(def);
  const vLo = new Float64Array(c.names.length).fill(Number.NaN);
  const vHi = new Float64Array(c.names.length);
  let ign = 0n;
  for (const [k, v] of Object.entries(values)) {
    const bv = BigInt(v);
    if (k === 'ignored') {
      ign = BigInt.asUintN(64, bv);
      continue;
    }
    const ni = c.names.indexOf(k);
    if (ni < 0) {
      const near = nearestName(k, [...c.names, 'ignored']);
      throw badInput(`${def.name} has no field '${k}'`, { hint: near ? `did you mean ${near}?` : undefined });
    }
    const width = c.widths[ni]!;
    if (bv < 0n || bv >= 1n << BigInt(width)) {
      throw badInput(`${def.name} field ${k}=${v} does not fit in ${width} bits`);
    }
    vLo[ni] = Number(bv & 0xffffffffn);
    vHi[ni] = Number(bv >> 32n);
  }
  const out = new Uint32Array(2);
  encodeRaw(def, vLo, vHi, Number(ign & 0xffffffffn), Number(ign >> 32n), out);
  return (BigInt(out[1]!) << 32n) | BigInt(out[0]!);
}

// --- the raw (allocation-light) encode / decode on 32-bit halves --------------------------------

interface Compiled {
  /** Distinct field names, in table order. */
  names: string[];
  /** Widest width per name. */
  widths: number[];
  /** Name index of each field. */
  nameIdx: Int32Array;
  fixedLo: number;
  fixedHi: number;
  fixedMaskLo: number;
  fixedMaskHi: number;
  /** Per field: operand bits it covers. */
  maskLo: Uint32Array;
  maskHi: Uint32Array;
  /** Per field: 1 when it is one contiguous range inside one 32-bit half (then half/shift/mask). */
  simple: Uint8Array;
  half: Uint8Array;
  shift: Uint8Array;
  mask: Uint32Array;
  /** Field k's conditions are entries condStart[k] .. condStart[k+1]-1 of the flat arrays. */
  condStart: Int32Array;
  /** Bit position of a "bit N = V" condition, or -1 when condFn must be called. */
  condPos: Int16Array;
  condVal: Uint8Array;
  condFn: ((lo: number, hi: number) => boolean)[];
  /** Text tables for the assembler / disassembler (built on first use, see textTables). */
  text: TextTables | undefined;
}
const compiledCache = new Map<InsnDef, Compiled>();
let lastDef: InsnDef | undefined;
let lastCompiled: Compiled | undefined;
function compiled(def: InsnDef): Compiled {
  if (def === lastDef) return lastCompiled!;
  let c = compiledCache.get(def);
  if (c) {
    lastDef = def;
    lastCompiled = c;
    return c;
  }
  const names: string[] = [];
  const widths: number[] = [];
  const nameIdx = new Int32Array(def.fields.length);
  def.fields.forEach((f, k) => {
    let ni = names.indexOf(f.name);
    if (ni < 0) {
      ni = names.length;
      names.push(f.name);
      widths.push(0);
    }
    widths[ni] = Math.max(widths[ni]!, fieldWidth(f));
    nameIdx[k] = ni;
  });
  const w = new Uint32Array(2);
  const m = new Uint32Array(2);
  for (const [pos, width, v] of def.fixed ?? []) {
    placeBits(w, pos, width, v);
    placeBits(m, pos, width, 0xffffffff);
  }
  const nf = def.fields.length;
  const maskLo = new Uint32Array(nf);
  const maskHi = new Uint32Array(nf);
  const simple = new Uint8Array(nf);
  const half = new Uint8Array(nf);
  const shift = new Uint8Array(nf);
  const mask = new Uint32Array(nf);
  def.fields.forEach((f, k) => {
    const fm = new Uint32Array(2);
    for (const [pos, width] of f.parts) placeBits(fm, pos, width, 0xffffffff);
    maskLo[k] = fm[0]!;
    maskHi[k] = fm[1]!;
    const p0 = f.parts[0]!;
    if (f.parts.length === 1 && p0[0] >> 5 === (p0[0] + p0[1] - 1) >> 5 && p0[1] < 32) {
      simple[k] = 1;
      half[k] = p0[0] >> 5;
      shift[k] = p0[0] & 31;
      mask[k] = (1 << p0[1]) - 1;
    }
  });
  const condStart = new Int32Array(nf + 1);
  const cp: number[] = [];
  const cv: number[] = [];
  const condFn: ((lo: number, hi: number) => boolean)[] = [];
  def.fields.forEach((f, k) => {
    condStart[k] = cp.length;
    for (const cd of f.when ?? []) {
      cp.push(cd.bit ? cd.bit[0] : -1);
      cv.push(cd.bit ? cd.bit[1] : 0);
      condFn.push(cd.test);
    }
  });
  condStart[nf] = cp.length;
  c = {
    condStart,
    condPos: Int16Array.from(cp),
    condVal: Uint8Array.from(cv),
    condFn,
    names,
    widths,
    nameIdx,
    fixedLo: w[0]!,
    fixedHi: w[1]!,
    fixedMaskLo: m[0]!,
    fixedMaskHi: m[1]!,
    maskLo,
    maskHi,
    simple,
    half,
    shift,
    mask,
    text: undefined,
  };
  compiledCache.set(def, c);
  return c;
}

/** Writes the low `width` bits of `bits` at operand bit `pos` (w = [lo, hi]). */
function placeBits(w: Uint32Array, pos: number, width: number, bits: number): void {
  while (width > 0) {
    const half = pos >= 32 ? 1 : 0;
    const p = pos & 31;
    const n = Math.min(width, 32 - p);
    const mask = n === 32 ? 0xffffffff : ((1 << n) - 1) >>> 0;
    w[half] = ((w[half]! & ~(mask << p)) | ((bits & mask) << p)) >>> 0;
    bits = n === 32 ? 0 : bits >>> n;
    pos += n;
    width -= n;
  }
}

/** Reads `width` bits (<= 32) at operand bit `pos`. */
function takeBits(lo: number, hi: number, pos: number, width: number): number {
  let v = 0;
  let got = 0;
  while (got < width) {
    const word = pos >= 32 ? hi : lo;
    const p = pos & 31;
    const n = Math.min(width - got, 32 - p);
    const mask = n === 32 ? 0xffffffff : ((1 << n) - 1) >>> 0;
    v = (v | (((word >>> p) & mask) << got)) >>> 0;
    got += n;
    pos += n;
  }
  return v;
}

function setFieldRaw(w: Uint32Array, f: FieldDef, vLo: number, vHi: number): void {
  let vo = 0;
  const parts = f.parts;
  for (let q = 0; q < parts.length; q++) {
    const pos = parts[q]![0];
    const width = parts[q]![1];
    let bits: number;
    if (vo >= 32) bits = vHi >>> (vo - 32);
    else if (vo + width <= 32) bits = vLo >>> vo;
    else bits = (vLo >>> vo) | (vHi << (32 - vo));
    placeBits(w, pos, width, bits >>> 0);
    vo += width;
  }
}

/** Field value as (lo 32 bits, higher bits) in out[0], out[1]. */
function getFieldRaw(
  lo: number,
  hi: number,
  f: FieldDef,
  out: Float64Array,
  k: number,
  kh: Float64Array,
): void {
  let vLo = 0;
  let vHi = 0;
  let vo = 0;
  const parts = f.parts;
  for (let q = 0; q < parts.length; q++) {
    const pos = parts[q]![0];
    const width = parts[q]![1];
    const bits = takeBits(lo, hi, pos, width);
    if (vo >= 32) vHi = (vHi | (bits << (vo - 32))) >>> 0;
    else {
      vLo = (vLo | (bits << vo)) >>> 0;
      if (vo + width > 32) vHi = (vHi | (bits >>> (32 - vo))) >>> 0;
    }
    vo += width;
  }
  out[k] = vLo;
  kh[k] = vHi;
}

/** isActive on the compiled form (monomorphic; no property lookups on the field objects). */
function activeK(c: Compiled, k: number, lo: number, hi: number): boolean {
  const end = c.condStart[k + 1]!;
  for (let q = c.condStart[k]!; q < end; q++) {
    const pos = c.condPos[q]!;
    if (pos >= 0) {
      if (((pos >= 32 ? hi >>> (pos - 32) : lo >>> pos) & 1) !== c.condVal[q]) return false;
    } else if (!c.condFn[q]!(lo, hi)) return false;
  }
  return true;
}

const actPrev = new Uint8Array(64);
const actCur = new Uint8Array(64);

const rawW = new Uint32Array(2);
const rawMask = new Uint32Array(2);
const backLo = new Float64Array(64);
const backHi = new Float64Array(64);

/**
 * Decodes an operand into per-name field values (vLo/vHi indexed like the instruction's distinct
 * field names; NaN where the field does not exist for this operand) and the ignored bits
 * (ignored[0] = lo, ignored[1] = hi). Throws Internal if two active fields overlap.
 */
export function decodeRaw(
  def: InsnDef,
  lo: number,
  hi: number,
  vLo: Float64Array,
  vHi: Float64Array,
  ignored: Uint32Array,
): void {
  const c = compiled(def);
  vLo.fill(Number.NaN, 0, c.names.length);
  rawMask[0] = c.fixedMaskLo;
  rawMask[1] = c.fixedMaskHi;
  const fields = def.fields;
  for (let k = 0; k < fields.length; k++) {
    if (!activeK(c, k, lo, hi)) continue;
    const f = fields[k]!;
    const ml = c.maskLo[k]!;
    const mh = c.maskHi[k]!;
    if ((ml & rawMask[0]!) !== 0 || (mh & rawMask[1]!) !== 0) {
      throw internalError(`${def.name}: field ${f.name} overlaps another active field`);
    }
    rawMask[0] = (rawMask[0]! | ml) >>> 0;
    rawMask[1] = (rawMask[1]! | mh) >>> 0;
    const ni = c.nameIdx[k]!;
    if (c.simple[k] === 1) {
      vLo[ni] = ((c.half[k] === 1 ? hi : lo) >>> c.shift[k]!) & c.mask[k]!;
      vHi[ni] = 0;
    } else getFieldRaw(lo, hi, f, vLo, ni, vHi);
  }
  ignored[0] = (lo & ~rawMask[0]!) >>> 0;
  ignored[1] = (hi & ~rawMask[1]!) >>> 0;
}

/**
 * Builds an operand from per-name values (NaN = not given) plus ignored bits: the fixed bits and
 * ignored bits form the base; fields that exist only under conditions set by other fields are
 * resolved by rebuilding from the base with the fields active under the previous round's operand
 * until nothing changes. Result in out[0] (lo), out[1] (hi). Bad combinations are BadInput.
 */
export function encodeRaw(
  def: InsnDef,
  vLo: Float64Array,
  vHi: Float64Array,
  ignLo: number,
  ignHi: number,
  out: Uint32Array,
): void {
  const c = compiled(def);
  const baseLo = (c.fixedLo | ignLo) >>> 0;
  const baseHi = (c.fixedHi | ignHi) >>> 0;
  let lo = baseLo;
  let hi = baseHi;
  const fields = def.fields;
  const nf = fields.length;
  for (let k = 0; k < nf; k++) actPrev[k] = activeK(c, k, lo, hi) ? 1 : 0;
  for (let iter = 0; iter < 8; iter++) {
    rawW[0] = baseLo;
    rawW[1] = baseHi;
    for (let k = 0; k < nf; k++) {
      if (actPrev[k] === 0) continue;
      const ni = c.nameIdx[k]!;
      if (Number.isNaN(vLo[ni]!)) continue;
      if (c.simple[k] === 1) {
        const h = c.half[k]!;
        const sh = c.shift[k]!;
        const m = c.mask[k]!;
        rawW[h] = ((rawW[h]! & ~(m << sh)) | ((vLo[ni]! & m) << sh)) >>> 0;
      } else setFieldRaw(rawW, fields[k]!, vLo[ni]!, vHi[ni]!);
    }
    lo = rawW[0]!;
    hi = rawW[1]!;
    // Stop once the fields active under the result are the ones that built it.
    let same = true;
    for (let k = 0; k < nf; k++) {
      const a = activeK(c, k, lo, hi) ? 1 : 0;
      actCur[k] = a;
      if (a !== actPrev[k]) same = false;
    }
    if (same) break;
    for (let k = 0; k < nf; k++) actPrev[k] = actCur[k]!;
  }
  // every given name must exist in the result and read back as given
  const back = backLo;
  back.fill(Number.NaN, 0, c.names.length);
  for (let k = 0; k < nf; k++) {
    if (actCur[k] === 0) continue;
    const ni = c.nameIdx[k]!;
    if (c.simple[k] === 1) {
      back[ni] = ((c.half[k] === 1 ? hi : lo) >>> c.shift[k]!) & c.mask[k]!;
      backHi[ni] = 0;
    } else getFieldRaw(lo, hi, fields[k]!, back, ni, backHi);
  }
  for (let ni = 0; ni < c.names.length; ni++) {
    if (Number.isNaN(vLo[ni]!)) continue;
    const k = c.names[ni]!;
    if (Number.isNaN(back[ni]!)) {
      const conds = def.fields
        .filter((x) => x.name === k)
        .map((x) => (x.when ?? []).map((cd) => cd.text).join(' and '));
      throw badInput(`${def.name} field '${k}' does not exist in this encoding`, {
        hint: `it exists when ${conds.join(', or ')}`,
      });
    }
    if (back[ni] !== vLo[ni] || backHi[ni] !== vHi[ni]) {
      throw badInput(`${def.name} field '${k}' overlaps another field given a different value`);
    }
  }
  if (insnFor(def.op, lo, hi) !== def) {
    throw badInput(`these field values encode ${insnFor(def.op, lo, hi).name}, not ${def.name}`, {
      hint: 'bits 26/27 select between extrx/extrh (opcode 8) and extry/extrv (opcode 9)',
    });
  }
  out[0] = lo;
  out[1] = hi;
}

/** Distinct field names of an instruction (the index order of decodeRaw / encodeRaw values). */
export function fieldNamesOf(def: InsnDef): readonly string[] {
  return compiled(def).names;
}

// --- value formatting / parsing ------------------------------------------------------------------

const MASK_MODES9 = ['pattern', 'lane', 'first', 'last', 'firstn', 'lastn', 'none6', 'none7'];
const PATTERN9 = ['all', 'odd', 'even', 'zeros', 'xzero', 'yzero'];

export function formatValue(f: FieldDef, big: bigint): string {
  if (f.kind === 'hex') return `0x${big.toString(16)}`;
  const v = Number(big);
  switch (f.kind) {
    case 'enum':
      return f.values?.[v] ?? String(v);
    case 'mask7': {
      const mode = v >>> 5;
      const n = v & 31;
      if (mode === 0) return n === 0 ? 'all' : n === 1 ? 'odd' : n === 2 ? 'even' : `none:${n}`;
      return `${MASK_MODES9[mode]}:${n}`;
    }
    case 'mask9': {
      const vb = fieldWidth(f) - 3;
      const mode = Math.floor(v / 2 ** vb);
      const n = v % 2 ** vb;
      if (mode === 0) return n < PATTERN9.length ? PATTERN9[n]! : `none:${n}`;
      return `${MASK_MODES9[mode]}:${n}`;
    }
    default:
      return String(v);
  }
}

/** Parses a field value written in the assembler (numbers, enum names, mask forms). */
export function parseValue(f: FieldDef, text: string): bigint {
  const t = text.trim().toLowerCase();
  const c0 = t.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57 && t.length <= 10 && SMALL_RE.test(t)) return BigInt(Number(t)); // common case
  const num = parseNumber(t);
  if (num !== undefined) return num;
  if (f.kind === 'bool' && (t === 'true' || t === 'false')) return t === 'true' ? 1n : 0n;
  if (f.kind === 'enum' && f.values) {
    for (const [k, name] of Object.entries(f.values)) if (name === t) return BigInt(k);
    const near = nearestName(t, Object.values(f.values));
    throw badInput(`'${text}' is not a value of ${f.name}`, {
      hint: `use a number or one of ${Object.values(f.values).join(', ')}${near ? ` (did you mean ${near}?)` : ''}`,
    });
  }
  if (f.kind === 'mask7' || f.kind === 'mask9') {
    const vb = f.kind === 'mask7' ? 5 : fieldWidth(f) - 3;
    const modes = f.kind === 'mask7' ? MASK_MODES9.slice(0, 4) : MASK_MODES9;
    const patterns = f.kind === 'mask7' ? PATTERN9.slice(0, 3) : PATTERN9;
    const pi = patterns.indexOf(t);
    if (pi >= 0) return BigInt(pi);
    const m = /^([a-z0-9]+):(\S+)$/.exec(t);
    if (m) {
      const n = parseNumber(m[2]!);
      let mode = m[1] === 'none' ? 0 : modes.indexOf(m[1]!);
      if (mode < 0 && /^m[0-7]$/.test(m[1]!)) mode = Number(m[1]!.slice(1));
      if (mode >= 0 && n !== undefined && n < 1n << BigInt(vb) && mode < 2 ** (fieldWidth(f) - vb)) {
        return (BigInt(mode) << BigInt(vb)) | n;
      }
    }
    throw badInput(`'${text}' is not a ${f.kind === 'mask7' ? '7' : '9'}-bit enable`, {
      hint: `write ${patterns.join('|')} or MODE:N with MODE one of ${modes.join(', ')} (or m0-m${2 ** (fieldWidth(f) - vb) - 1}) and N < ${2 ** vb}`,
    });
  }
  throw badInput(`'${text}' is not a number (field ${f.name})`);
}

export function parseNumber(t: string): bigint | undefined {
  const s = t.includes('_') ? t.replace(/_/g, '') : t;
  if (NUMBER_RE.test(s)) return BigInt(s);
  return undefined;
}
const NUMBER_RE = /^(?:0x[0-9a-f]+|0b[01]+|[0-9]+)$/i;
/** Numbers below 2^32 that Number() parses exactly: decimal up to 9 digits, hex up to 8 digits. */
const SMALL_RE = /^(?:0x[0-9a-f]{1,8}|[0-9]{1,9})$/;

/** The A64 instruction word of an AMX operation: 0x00201000 | op << 5 | gpr (or immediate). */
export function encodeWord(op: number, gprOrImm: number): number {
  if (!Number.isInteger(op) || op < 0 || op > 22) throw badInput(`AMX opcode ${op} is outside 0-22`);
  if (!Number.isInteger(gprOrImm) || gprOrImm < 0 || gprOrImm > 31)
    throw badInput(`register/immediate ${gprOrImm} is outside 0-31`);
  return (AMX_WORD_BASE | (op << 5) | gprOrImm) >>> 0;
}

/** Splits an A64 word into (opcode, gpr/immediate); a word outside the AMX space is BadInput. */
export function decodeWord(word: number): { op: number; reg: number } {
  if ((word & ~0x3ff) >>> 0 !== AMX_WORD_BASE) {
    throw badInput(`0x${(word >>> 0).toString(16).padStart(8, '0')} is not an AMX instruction word`, {
      hint: 'AMX words are 0x00201000 | op << 5 | reg',
    });
  }
  const op = (word >>> 5) & 31;
  if (op > 22) throw badInput(`AMX opcode ${op} is not defined (0-22)`);
  return { op, reg: word & 31 };
}

// --- fast text helpers used by the assembler / disassembler ---------------------------------------

const fmtLo = new Float64Array(64);
const fmtHi = new Float64Array(64);

function hexOf(vLo: number, vHi: number): string {
  return vHi === 0 ? `0x${vLo.toString(16)}` : `0x${vHi.toString(16)}${vLo.toString(16).padStart(8, '0')}`;
}

/** Fields up to this width get a precomputed value -> text table (and its inverse). */
const TABLE_BITS = 10;

/**
 * Per-instruction text tables, so that formatting and parsing the canonical form needs no BigInt
 * and no per-field string building beyond the concatenation itself: per field its ` name=` prefix
 * and (narrow fields) the text of every value; per distinct name its index and (narrow fields) the
 * inverse map text -> value, built from the field the assembler parses that name with (the first
 * field of that name, as fieldIndex). A text the map does not hold goes through parseValue.
 */
interface TextTables {
  prefix: string[];
  /** Per field: its name. */
  names: string[];
  /** Per field: value -> text, or null for wide or hex-wide fields. */
  format: (readonly string[] | null)[];
  /** Per field: 1 for kind 'hex' (formatted as 0x… when there is no table). */
  hex: Uint8Array;
  nameIdx: Map<string, number>;
  /**
   * Per distinct name: non-numeric text -> value for narrow fields (texts that two values share
   * are left out).
   */
  parse: (Map<string, number> | null)[];
  widths: number[];
}

function textTables(def: InsnDef, c: Compiled): TextTables {
  if (c.text !== undefined) return c.text;
  const fields = def.fields;
  const prefix = fields.map((f) => ` ${f.name}=`);
  const format = fields.map((f) => {
    const w = fieldWidth(f);
    if (w > TABLE_BITS) return null;
    const tab: string[] = [];
    for (let v = 0; v < 2 ** w; v++) tab.push(formatValue(f, BigInt(v)));
    return tab;
  });
  const hex = Uint8Array.from(fields, (f) => (f.kind === 'hex' ? 1 : 0));
  const nameIdx = new Map(c.names.map((n, i) => [n, i] as const));
  const parse = c.names.map((n) => {
    const f = fields.find((x) => x.name === n)!;
    const w = fieldWidth(f);
    if (w > TABLE_BITS) return null;
    const m = new Map<string, number>();
    const dup = new Set<string>();
    for (let v = 0; v < 2 ** w; v++) {
      const t = formatValue(f, BigInt(v));
      const d = t.charCodeAt(0);
      if (d >= 48 && d <= 57) continue; // numbers are read directly
      if (m.has(t)) dup.add(t);
      m.set(t, v);
    }
    for (const t of dup) m.delete(t);
    return m;
  });
  c.text = { prefix, names: fields.map((f) => f.name), format, hex, nameIdx, parse, widths: c.widths };
  return c.text;
}

/**
 * `name field=value …` for an operand (the canonical disassembly): each active field once, in
 * table order, then `ignored=` when any ignored bit is set. One pass over the compiled tables.
 */
export function formatFields(op: number, lo: number, hi: number): string {
  const def = insnFor(op, lo, hi);
  const c = compiled(def);
  const t = textTables(def, c);
  let covLo = c.fixedMaskLo;
  let covHi = c.fixedMaskHi;
  let out = def.name;
  const nf = def.fields.length;
  for (let k = 0; k < nf; k++) {
    if (!activeK(c, k, lo, hi)) continue;
    const ml = c.maskLo[k]!;
    const mh = c.maskHi[k]!;
    if ((ml & covLo) !== 0 || (mh & covHi) !== 0)
      throw internalError(`${def.name}: field ${def.fields[k]!.name} overlaps another active field`);
    covLo |= ml;
    covHi |= mh;
    let vLo: number;
    let vHi = 0;
    if (c.simple[k] === 1) vLo = ((c.half[k] === 1 ? hi : lo) >>> c.shift[k]!) & c.mask[k]!;
    else {
      getFieldRaw(lo, hi, def.fields[k]!, fmtLo, 0, fmtHi);
      vLo = fmtLo[0]!;
      vHi = fmtHi[0]!;
    }
    const tab = t.format[k]!;
    out += t.prefix[k]! + (tab !== null ? tab[vLo]! : t.hex[k] === 1 ? hexOf(vLo, vHi) : String(vLo));
  }
  const igLo = (lo & ~covLo) >>> 0;
  const igHi = (hi & ~covHi) >>> 0;
  if (igLo !== 0 || igHi !== 0) out += ` ignored=${hexOf(igLo, igHi)}`;
  return out;
}

const HEX_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_DIGIT[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_DIGIT[97 + i] = 10 + i;
  HEX_DIGIT[65 + i] = 10 + i;
}

/**
 * Reads `0x` + 1-16 hex digits of text[start, end) into out[0] (low 32 bits), out[1] (high);
 * false when the text is anything else (the caller then takes the general path).
 */
function scanHex64(text: string, start: number, end: number, out: Float64Array): boolean {
  const n = end - start - 2;
  if (n < 1 || n > 16 || text.charCodeAt(start) !== 48 || text.charCodeAt(start + 1) !== 120) return false;
  let lo = 0;
  let hi = 0;
  for (let i = start + 2; i < end; i++) {
    const ch = text.charCodeAt(i);
    const d = ch < 128 ? HEX_DIGIT[ch]! : -1;
    if (d < 0) return false;
    hi = hi * 16 + (lo >>> 28);
    lo = ((lo << 4) | d) >>> 0;
  }
  out[0] = lo;
  out[1] = hi;
  return true;
}

/**
 * The value of field slot `ni` written as text[start, end), when it is a canonical text (a table
 * entry or, for hex fields, 0x…) that fits the field: out[0] = low 32 bits, out[1] = high bits,
 * true. Anything else returns false and the caller parses it with parseValue (same result, with
 * the error messages).
 */
function parseSlotFast(
  t: TextTables,
  ni: number,
  text: string,
  start: number,
  end: number,
  out: Float64Array,
): boolean {
  const w = t.widths[ni]!;
  const c0 = text.charCodeAt(start);
  if (c0 >= 48 && c0 <= 57) {
    // a number, whatever the field's kind (parseValue reads numbers first)
    if (c0 === 48 && end - start > 2 && text.charCodeAt(start + 1) === 120) {
      if (!scanHex64(text, start, end, out)) return false;
    } else {
      if (end - start > 15) return false;
      let v = 0;
      for (let i = start; i < end; i++) {
        const d = text.charCodeAt(i) - 48;
        if (d < 0 || d > 9) return false;
        v = v * 10 + d;
      }
      out[0] = v % 2 ** 32;
      out[1] = Math.floor(v / 2 ** 32);
    }
    return w >= 32 ? out[1]! < 2 ** (w - 32) : out[1] === 0 && out[0]! < 2 ** w;
  }
  const m = t.parse[ni];
  if (m === null || m === undefined) return false;
  const v = m.get(text.slice(start, end));
  if (v === undefined) return false;
  out[0] = v;
  out[1] = 0;
  return true;
}

/** Name index (in the instruction's distinct field names) and a representative field, or -1. */
export function fieldIndex(
  def: InsnDef,
  name: string,
): { index: number; field: FieldDef | undefined; width: number } {
  const c = compiled(def);
  const index = c.names.indexOf(name);
  if (index < 0) return { index, field: undefined, width: 0 };
  return { index, field: def.fields.find((f) => f.name === name), width: c.widths[index]! };
}

/** The distinct field names of an instruction. */
export function distinctFieldNames(def: InsnDef): readonly string[] {
  return compiled(def).names;
}

const valueScratch = new Float64Array(2);

/**
 * Reads the canonical named-field form (`key=value` tokens separated by spaces or tabs, exact field
 * names, numbers or table texts as values, each name once) by character codes into per-name values
 * (NaN = not given) and the ignored bits. Returns false at the first thing it does not handle; the
 * assembler's general parser then reads the text again (same results, plus the error messages).
 */
export function scanFields(
  def: InsnDef,
  rest: string,
  vLo: Float64Array,
  vHi: Float64Array,
  ign: Uint32Array,
): boolean {
  const c = compiled(def);
  const t = textTables(def, c);
  vLo.fill(Number.NaN, 0, c.names.length);
  ign[0] = 0;
  ign[1] = 0;
  let sawIgnored = false;
  const n = rest.length;
  const val = valueScratch;
  const nf = def.fields.length;
  let next = 0; // canonical text lists the fields in table order: try the next ones first
  let i = 0;
  for (;;) {
    let ch = 0;
    while (i < n && ((ch = rest.charCodeAt(i)) === 32 || ch === 9)) i++;
    if (i >= n) return true;
    const start = i;
    let eq = -1;
    while (i < n) {
      ch = rest.charCodeAt(i);
      if (ch === 32 || ch === 9) break;
      if (ch < 0x21 || ch > 0x7e) return false; // other white space / non-ASCII: the general path
      if (ch === 61 && eq < 0) eq = i;
      i++;
    }
    if (eq <= start || eq >= i - 1) return false;
    const klen = eq - start;
    let ni = -1;
    for (let k = next; k < nf; k++) {
      const nm = t.names[k]!;
      if (nm.length === klen && rest.startsWith(nm, start)) {
        ni = c.nameIdx[k]!;
        next = k + 1;
        break;
      }
    }
    if (ni < 0) {
      const key = rest.slice(start, eq);
      if (key === 'ignored') {
        if (sawIgnored || !scanHex64(rest, eq + 1, i, val)) return false;
        sawIgnored = true;
        ign[0] = val[0]!;
        ign[1] = val[1]!;
        continue;
      }
      ni = t.nameIdx.get(key) ?? -1;
      if (ni < 0) return false;
    }
    if (!Number.isNaN(vLo[ni]!)) return false;
    if (!parseSlotFast(t, ni, rest, eq + 1, i, val)) return false;
    vLo[ni] = val[0]!;
    vHi[ni] = val[1]!;
  }
}
