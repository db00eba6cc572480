/**
 * TRANDOM (pto-isa docs/isa/tile/ops/irregular-and-complex/trandom.md, include/pto/cpu/TRandom.hpp):
 * counter-based random numbers, the Philox-4x32 block function (7 or 10 rounds: multipliers
 * 0xD2511F53 / 0xCD9E8D57, key bumps 0x9E3779B9 / 0xBB67AE85). For each valid row and each group of
 * 4·64 columns, lane l (0..63) runs the rounds on the 128-bit row counter + l with the 64-bit key; its
 * four output words go to columns group·256 + k·64 + l (k = 0..3) while they are inside the valid
 * columns; after each group the row counter advances by RowStride / 4. The key (2 words) and counter
 * (4 words) are u32 tiles read from their first elements (the PTO-AS form passes them as tiles). The
 * page calls the generator "ChaCha-like"; the simulator (and the A5 kernel it models) is Philox.
 */
import { badInput } from '../../errors.ts';
import { type ExecCtx, type OpDef, off, reject } from '../op.ts';

/** High and low 32 bits of a · b for 32-bit unsigned a, b. */
function mulhilo(a: number, b: number, out: Uint32Array, hiAt: number, loAt: number): void {
  const al = a & 0xffff;
  const ah = a >>> 16;
  const bl = b & 0xffff;
  const bh = b >>> 16;
  const ll = al * bl;
  const lh = al * bh;
  const hl = ah * bl;
  const hh = ah * bh;
  const mid = (ll >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  out[loAt] = ((mid & 0xffff) << 16) | (ll & 0xffff);
  out[hiAt] = hh + (lh >>> 16) + (hl >>> 16) + Math.floor(mid / 0x10000);
}

/** Philox-4x32 on counter `c` (modified in place) with key (k0, k1). */
export function philox(c: Uint32Array, k0: number, k1: number, rounds: number, t: Uint32Array): void {
  let a = k0 >>> 0;
  let b = k1 >>> 0;
  for (let i = 0; i < rounds; i++) {
    mulhilo(c[0]!, 0xd2511f53, t, 0, 1);
    mulhilo(c[2]!, 0xcd9e8d57, t, 2, 3);
    const n0 = (t[2]! ^ c[1]! ^ a) >>> 0;
    const n2 = (t[0]! ^ c[3]! ^ b) >>> 0;
    c[0] = n0;
    c[1] = t[3]!;
    c[2] = n2;
    c[3] = t[1]!;
    a = (a + 0x9e3779b9) >>> 0;
    b = (b + 0xbb67ae85) >>> 0;
  }
}

/** counter += v (128-bit, little-endian words). */
function increment(c: Uint32Array, v: number): void {
  let carry = v;
  for (let i = 0; i < 4 && carry !== 0; i++) {
    const s = c[i]! + carry;
    c[i] = s >>> 0;
    carry = Math.floor(s / 0x100000000);
  }
}

function words(t: { bytes: Uint8Array }, n: number): Uint32Array {
  const v = new DataView(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength);
  return Uint32Array.from({ length: n }, (_, i) => v.getUint32(4 * i, true));
}

function trandom(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!;
  const key = words(ctx.tiles.key!, 2);
  const row = words(ctx.tiles.counter!, 4);
  const rounds = Number(ctx.attrs.rounds ?? 10);
  const perRepeat = 64; // 256 bytes of 32-bit elements
  const group = 4 * perRepeat;
  const loops = Math.ceil(d.validCol / group);
  const step = Math.floor(d.cols / 4); // RowStride / kTrandomOnceRepeat
  const lane = new Uint32Array(4);
  const tmp = new Uint32Array(4);
  const dv = new DataView(d.bytes.buffer, d.bytes.byteOffset, d.bytes.byteLength);
  for (let r = 0; r < d.validRow; r++) {
    for (let g = 0; g < loops; g++) {
      for (let l = 0; l < perRepeat; l++) {
        lane.set(row);
        increment(lane, l);
        philox(lane, key[0]!, key[1]!, rounds, tmp);
        for (let k = 0; k < 4; k++) {
          const col = g * group + k * perRepeat + l;
          if (col < d.validCol) dv.setUint32(4 * off(d, r, col), lane[k]!, true);
        }
      }
      increment(row, step);
    }
  }
}

export const TRANDOM_OPS: readonly OpDef[] = [
  {
    name: 'TRANDOM',
    family: 'irregular',
    summary: 'dst = Philox-4x32 random words from key (2 x u32) and counter (4 x u32) tiles',
    ref: 'pto-isa docs/isa/tile/ops/irregular-and-complex/trandom.md',
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'key', kind: 'tile' },
      { name: 'counter', kind: 'tile' },
    ],
    attrs: [{ name: 'rounds', kind: 'number', optional: true }],
    primary: 'dst',
    dtypes: { cpu: ['i32', 'u32'], a2a3: [], a5: ['i32', 'u32'] },
    check: (ctx) => {
      const d = ctx.tiles.dst!;
      const r = ctx.attrs.rounds ?? 10;
      if (r !== 7 && r !== 10) throw badInput(`TRANDOM: rounds must be 7 or 10, got ${String(r)}`);
      if (d.blayout !== 'row')
        reject('TRANDOM', `${d.dtype}(ColMajor)`, 'TRANDOM only supports row major layout', ctx.profile);
      const k = ctx.tiles.key!;
      const c = ctx.tiles.counter!;
      if (k.bytes.length < 8 || c.bytes.length < 16 || k.elemBytes !== 4 || c.elemBytes !== 4)
        throw badInput('TRANDOM: key holds 2 and counter 4 32-bit words (u32 tiles)');
    },
    exec: trandom,
  },
];
