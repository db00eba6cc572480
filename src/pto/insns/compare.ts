/**
 * Compare and select: TCMP TCMPS TSEL TSELS, with the bit-mask layouts of the pto-isa CPU simulator
 * (TCmp.h, TCmps.hpp, TSel.hpp, TSelS.hpp; see docs/pto.md "Masks").
 *
 * - TCMP zeroes the whole dst, then for each source valid row packs validCol(src) result bits
 *   LSB-first into ceil(validCol/8) bytes (32-bit words for a u32 dst), capped at dst.validCol.
 * - TCMPS compares in double for EQ/NE (|a-b| < 1e-9), packs Cols(src)/8 bytes per physical source
 *   row (all rows), and lays that byte stream out row-major with a pitch of dst.validCol.
 * - TSEL consumes the mask as one continuous bit stream over the dst valid region.
 * - TSELS reads bit c%8 of mask byte (r, c/8).
 */

import { badInput, undefinedBehaviour } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import { DTYPE_INFO } from '../dtype.ts';
import {
  ALL,
  CMP_MODES,
  type CmpMode,
  copyElem,
  type ExecCtx,
  type OpDef,
  off,
  per,
  reject,
  tileArith,
} from '../op.ts';
import type { Tile } from '../tile.ts';

const REF = 'pto-isa docs/isa/tile/ops';

function cmpMode(ctx: ExecCtx): CmpMode {
  const m = ctx.attrs.cmpMode ?? 'EQ';
  if (typeof m === 'number' && CMP_MODES[m] !== undefined) return CMP_MODES[m]!;
  if (typeof m === 'string' && (CMP_MODES as readonly string[]).includes(m.toUpperCase()))
    return m.toUpperCase() as CmpMode;
  throw badInput(`${ctx.op.name}: cmpMode ${JSON.stringify(m)} is not one of ${CMP_MODES.join(' ')}`);
}

function exact(A: ReturnType<typeof tileArith>, mode: CmpMode, a: unknown, b: unknown): number {
  switch (mode) {
    case 'EQ':
      return A.eq(a, b) ? 1 : 0;
    case 'NE':
      return A.eq(a, b) ? 0 : 1;
    case 'LT':
      return A.lt(a, b) ? 1 : 0;
    case 'LE':
      return A.le(a, b) ? 1 : 0;
    case 'GT':
      return A.lt(b, a) ? 1 : 0;
    case 'GE':
      return A.le(b, a) ? 1 : 0;
  }
}

/** TCmps.hpp CmpCall: EQ/NE with a 1e-9 tolerance in double, the others exact. */
function tolerant(A: ReturnType<typeof tileArith>, mode: CmpMode, a: unknown, b: unknown): number {
  if (mode === 'EQ' || mode === 'NE') {
    const x = A.toF64(a);
    const y = A.toF64(b);
    const diff = Math.abs(x - y);
    if (mode === 'EQ') return diff < 1e-9 ? 1 : 0;
    return Number.isNaN(x) || Number.isNaN(y) || diff > 1e-9 ? 1 : 0;
  }
  return exact(A, mode, a, b);
}

const U8_SRC = ['i32', 'f16', 'bf16', 'f32'];

function tcmp(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  // tcmp.md: on A2/A3 an int32_t compare ignores cmpMode and uses EQ
  const mode = ctx.profile === 'a2a3' && s0.dtype === 'i32' ? 'EQ' : cmpMode(ctx);
  const A = tileArith(ctx, 'src0');
  const D = anyArith(d.dtype, ctx.profile);
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  const dv = D.view(d.bytes);
  const bits = d.dtype === 'u32' ? 32 : 8;
  d.bytes.fill(0);
  const words = Math.min(Math.ceil(s0.validCol / bits), d.validCol);
  for (let r = 0; r < s0.validRow; r++) {
    for (let w = 0; w < words; w++) {
      let word = 0;
      for (let bit = 0; bit < bits && w * bits + bit < s0.validCol; bit++) {
        const c = w * bits + bit;
        word |= exact(A, mode, A.load(v0, off(s0, r, c)), A.load(v1, off(s1, r, c))) << bit;
      }
      D.store(dv, off(d, r, w), D.fromF64(word >>> 0));
    }
  }
}

function tcmps(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1;
  // tcmps.md: on A2/A3 an int32_t compare only supports EQ (other modes fall back to EQ)
  const mode = ctx.profile === 'a2a3' && s0.dtype === 'i32' ? 'EQ' : cmpMode(ctx);
  // the 1e-9 tolerance of EQ/NE is the CPU simulator's; the ISA compares exactly
  const cmp = ctx.profile === 'cpu' ? tolerant : exact;
  const A = tileArith(ctx, 'src0');
  const D = anyArith(d.dtype, ctx.profile);
  const v0 = A.view(s0.bytes);
  const v1 = s1 ? A.view(s1.bytes) : undefined;
  const H = s0.rows;
  const W = s0.cols;
  const golden = new Uint8Array(H * W);
  for (let i = 0; i < s0.validRow; i++) {
    for (let j = 0; j < s0.validCol; j++) {
      const a = A.load(v0, off(s0, i, j));
      const b = s1 && v1 ? A.load(v1, off(s1, i, j)) : ctx.scalar;
      golden[i * W + j] = cmp(A, mode, a, b);
    }
  }
  const perRow = Math.floor(W / 8);
  const stream = new Uint8Array(H * perRow);
  for (let h = 0; h < H; h++) {
    for (let i = 0; i < perRow; i++) {
      let byte = 0;
      for (let bit = 0; bit < 8; bit++) byte |= golden[h * W + i * 8 + bit]! << bit;
      stream[h * perRow + i] = byte;
    }
  }
  d.bytes.fill(0);
  const pitch = d.validCol;
  if (pitch === 0) return;
  const dv = D.view(d.bytes);
  for (let c = 0; c < stream.length && c < d.numel; c++) {
    const i = Math.floor(c / pitch);
    const j = c % pitch;
    if (i < d.validRow) D.store(dv, off(d, i, j), D.fromF64(stream[c]!));
  }
}

function tsel(ctx: ExecCtx): void {
  if (ctx.profile !== 'cpu') {
    tselPerElement(ctx);
    return;
  }
  const d = ctx.tiles.dst!;
  const m = ctx.tiles.mask!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  let mr = 0;
  let mc = 0;
  let bitIdx = 0;
  for (let i = 0; i < d.validRow; i++) {
    for (let j = 0; j < d.validCol; j++) {
      // TSel.hpp indexes src0/src1 with the dst tile's offsets (one tile type)
      const o = off(d, i, j);
      const mo = m.offset(mr, mc);
      // TSel.hpp: (selMask[maskIdx] >> bitIdx) & 1 with bitIdx < 8 reads the element's low byte
      const bit = mo < m.numel || !ctx.zeroOutOfBounds ? maskBit(m, off(m, mr, mc), bitIdx) : 0;
      bitIdx++;
      if (bitIdx === 8) {
        bitIdx = 0;
        mc++;
        if (mc === m.validCol) {
          mr++;
          mc = 0;
        }
      }
      const src = bit & 1 ? s0 : s1;
      if (o >= src.numel)
        throw undefinedBehaviour(`TSEL: element ${o} of dst's layout lies outside a source buffer`);
      copyElem(src, o, d, o);
    }
  }
}

/**
 * Bit k of the little-endian mask element at element offset o, read from the raw bytes (the same
 * bit for every mask width, without loading 64-bit words as bigints).
 */
function maskBit(m: Tile, o: number, k: number): number {
  return (m.bytes[o * m.elemBytes + (k >>> 3)]! >>> (k & 7)) & 1;
}

/**
 * a2a3/a5: tsel.md selects by mask(i, j); the predicate is bit-packed per row like TCMP's output
 * (bit j%8 of mask byte (i, j/8)).
 */
function tselPerElement(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const m = ctx.tiles.mask!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const per = DTYPE_INFO[m.dtype].bytes * 8;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const bit = maskBit(m, off(m, r, Math.floor(c / per)), c % per);
      const src = bit ? s0 : s1;
      copyElem(src, off(src, r, c), d, off(d, r, c));
    }
  }
}

function tsels(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const m = ctx.tiles.mask!;
  const s = ctx.tiles.src!;
  const per = DTYPE_INFO[m.dtype].bytes * 8;
  const raw = ctx.attrs.scalarBytes as Uint8Array;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const bit = maskBit(m, off(m, r, Math.floor(c / per)), c % per);
      const o = off(d, r, c);
      if (bit) copyElem(s, off(s, r, c), d, o);
      else d.bytes.set(raw, o * d.elemBytes);
    }
  }
}

export const COMPARE_OPS: readonly OpDef[] = [
  {
    name: 'TCMP',
    family: 'compare',
    summary: 'dst mask bits = src0 <cmpMode> src1 (row-packed, dst zeroed first)',
    ref: `${REF}/elementwise-tile-tile/tcmp.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile' },
    ],
    attrs: [{ name: 'cmpMode', kind: 'cmpMode', values: CMP_MODES }],
    primary: 'src0',
    dtypes: per(['u32', 'i32', 'u16', 'i16', 'u8', 'i8', 'f32', 'f16', 'bf16']),
    check: (ctx) => {
      const d = ctx.tiles.dst!.dtype;
      const s = ctx.tiles.src0!.dtype;
      if (d !== 'u8' && d !== 'u32')
        reject('TCMP', s, `dst element type ${d} must be u8 or u32`, ctx.profile);
      if (d === 'u8' && !U8_SRC.includes(s))
        reject('TCMP', s, 'with a u8 dst the sources must be i32, f16 or f32', ctx.profile);
      if (ctx.tiles.src1!.dtype !== s)
        reject('TCMP', s, 'src0 and src1 must have the same type', ctx.profile);
      // tcmp.md: the output predicate is uint8_t on A2/A3 and uint32_t on A5
      const want = ctx.profile === 'a2a3' ? 'u8' : ctx.profile === 'a5' ? 'u32' : undefined;
      if (want && d !== want) {
        reject('TCMP', s, `the ${ctx.profile} predicate dst must be ${want}, not ${d}`, ctx.profile);
      }
    },
    exec: tcmp,
  },
  {
    name: 'TCMPS',
    family: 'compare',
    summary: 'dst mask bits = src0 <cmpMode> scalar (or src1); EQ/NE use |a-b| < 1e-9',
    ref: `${REF}/elementwise-tile-scalar/tcmps.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile', optional: true },
    ],
    attrs: [
      { name: 'scalar', kind: 'scalar', optional: true },
      { name: 'cmpMode', kind: 'cmpMode', values: CMP_MODES },
    ],
    primary: 'src0',
    dtypes: per(ALL),
    check: (ctx) => {
      if (!ctx.tiles.src1 && ctx.scalar === undefined)
        throw badInput('TCMPS needs a scalar attribute or a src1 tile');
    },
    exec: tcmps,
  },
  {
    name: 'TSEL',
    family: 'compare',
    summary: 'dst = mask bit ? src0 : src1 (mask read as one bit stream)',
    ref: `${REF}/elementwise-tile-tile/tsel.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'mask', kind: 'tile' },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile' },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
    ],
    attrs: [],
    dtypes: per(ALL),
    exec: tsel,
  },
  {
    name: 'TSELS',
    family: 'compare',
    summary: 'dst = mask bit (r, c) ? src : scalar',
    ref: `${REF}/elementwise-tile-scalar/tsels.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'mask', kind: 'tile' },
      { name: 'src', kind: 'tile' },
      { name: 'tmp', kind: 'tile', scratch: true, optional: true },
    ],
    attrs: [{ name: 'scalar', kind: 'scalar' }],
    dtypes: per(ALL),
    exec: tsels,
  },
];
