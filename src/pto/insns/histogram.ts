/**
 * THISTOGRAM (pto-isa docs/isa/THISTOGRAM.md, include/pto/cpu/THistogram.hpp): per source row, the
 * 256-bin histogram of byte `byte` (0 = LSB … 3) of the u16/u32 elements in the valid region, written
 * as running (cumulative) counts: dst(r, b) = number of elements whose byte is <= b. The simulator
 * writes the cumulative sums, like the A5 kernel's `chistv2`; the page's formula shows per-bin counts
 * (decision: cumulative on every profile, docs/pto.md). Filters (u8 `idx` tile): u16 with byte 0
 * counts only elements whose high byte equals idx(r, 0); u32 with byte k < 3 requires byte 3 =
 * idx(0, 0), and for k < 2 byte 2 = idx(1, 0), for k = 0 byte 1 = idx(2, 0). A u16 source takes byte
 * 0 or 1. Available on A5 (and the CPU simulator); not on A2/A3.
 */
import { badInput } from '../../errors.ts';
import { type ExecCtx, type OpDef, off, reject } from '../op.ts';

function histogram(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src!;
  const ix = ctx.tiles.idx!;
  const k = Number(ctx.attrs.byte ?? 0);
  const sv = new DataView(s.bytes.buffer, s.bytes.byteOffset, s.bytes.byteLength);
  const dv = new DataView(d.bytes.buffer, d.bytes.byteOffset, d.bytes.byteLength);
  const wide = s.dtype === 'u32';
  const idxAt = (r: number, c: number) => ix.bytes[off(ix, r, c)]!;
  const f3 = wide && k <= 2 ? idxAt(0, 0) : 0;
  const f2 = wide && k <= 1 ? idxAt(1, 0) : 0;
  const f1 = wide && k <= 0 ? idxAt(2, 0) : 0;
  const counts = new Uint32Array(256);
  for (let r = 0; r < s.validRow; r++) {
    counts.fill(0);
    const rowIdx = wide ? 0 : k === 0 ? idxAt(r, 0) : 0;
    for (let c = 0; c < s.validCol; c++) {
      const o = off(s, r, c);
      const v = wide ? sv.getUint32(4 * o, true) : sv.getUint16(2 * o, true);
      const byte = (v >>> (8 * k)) & 0xff;
      let pass = true;
      if (wide) {
        if (k <= 2 && v >>> 24 !== f3) pass = false;
        if (k <= 1 && ((v >>> 16) & 0xff) !== f2) pass = false;
        if (k <= 0 && ((v >>> 8) & 0xff) !== f1) pass = false;
      } else if (k === 0 && v >>> 8 !== rowIdx) pass = false;
      if (pass) counts[byte]!++;
    }
    let cum = 0;
    for (let b = 0; b < 256; b++) {
      cum = (cum + counts[b]!) >>> 0;
      dv.setUint32(4 * off(d, r, b), cum, true);
    }
  }
}

export const HISTOGRAM_OPS: readonly OpDef[] = [
  {
    name: 'THISTOGRAM',
    family: 'irregular',
    summary: 'dst(r, b) = running count of elements of row r whose byte `byte` is <= b (cascaded filters)',
    ref: 'pto-isa docs/isa/THISTOGRAM.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src', kind: 'tile' },
      { name: 'idx', kind: 'tile' },
    ],
    attrs: [{ name: 'byte', kind: 'index', optional: true }],
    primary: 'src',
    dtypes: { cpu: ['u16', 'u32'], a2a3: [], a5: ['u16', 'u32'] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const s = ctx.tiles.src!;
      const ix = ctx.tiles.idx!;
      const k = ctx.attrs.byte ?? 0;
      if (d.dtype !== 'u32') reject('THISTOGRAM', s.dtype, `the bins are u32, not ${d.dtype}`, ctx.profile);
      if (ix.dtype !== 'u8') reject('THISTOGRAM', s.dtype, `idx must be u8, not ${ix.dtype}`, ctx.profile);
      if (k !== 0 && k !== 1 && k !== 2 && k !== 3)
        throw badInput(`THISTOGRAM: byte ${String(k)} is not 0..3`);
      if (s.dtype === 'u16' && k > 1)
        reject('THISTOGRAM', s.dtype, 'a u16 source has bytes 0 and 1 only', ctx.profile);
      if (d.cols < 256 || d.rows < s.validRow)
        throw badInput(
          `THISTOGRAM: dst must hold 256 bins for each of ${s.validRow} rows, got ${d.describe()}`,
        );
      const needRows = s.dtype === 'u32' ? 3 - Number(k) : Number(k) === 0 ? s.validRow : 0;
      if (ix.rows < needRows)
        throw badInput(`THISTOGRAM: idx needs ${needRows} rows of filter bytes, got ${ix.rows}`);
    },
    exec: histogram,
  },
];
