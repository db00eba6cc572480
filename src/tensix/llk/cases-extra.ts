/**
 * Corpus cases for the tt-llk kernels whose output is not one element per input element: the
 * exponential moving average, Welford's running mean/M2 (left in LRegs), the row-major max pool,
 * the 4x2-subblock column max, row reshuffling (its row map read from L1) and the bitonic top-k
 * steps. Each definition is computed here from the input arrays, independently of the kernel; the
 * lane/row layouts they rely on are the documented ones (SFPLOAD: lane l reads Dst row
 * `addr + (l >> 3)`, column `2 * (l & 7)` (+1 for odd addresses); SFPTRANSP swaps row i of LReg j
 * with row j of LReg i within L0-3 and within L4-7).
 */
import * as K from './checks.ts';
import type { CorpusCase, Expected } from './corpus.ts';

/** Tile element index of row r, column c (row-major 32x32). */
const at = (r: number, c: number) => r * 32 + c;
/** Tile element index of Dst row d (0..63 within the tile) and column j (0..15). */
const dstAt = (d: number, j: number) => at((d >> 5) * 16 + (d & 15), ((d >> 4) & 1) * 16 + j);
const hex = (v: number) => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;
const isZero = (b: number) => (b & 0x7fffffff) === 0;
/** A flushed FP32 store result: denormals become a zero of the same sign (SFPU-NOTES A2). */
const flushed = (b: number) => (((b >>> 23) & 0xff) === 0 ? (b & 0x80000000) >>> 0 : b >>> 0);
/** The same FP32 bits, or both zeros. */
const sameF32 = (got: number, want: number) => got >>> 0 === flushed(want) || (isZero(got) && isZero(want));

/** FP32 values on a 1/1024 grid in [lo, hi): exact in BF16 only sometimes, never denormal. */
function gridInputs(lo: number, hi: number): (rng: K.Rng) => Uint32Array {
  return (rng) => {
    const v = new Uint32Array(1024);
    for (let i = 0; i < 1024; i++) v[i] = K.f32ToBits(lo + ((hi - lo) * rng.below(1 << 20)) / (1 << 20));
    return v;
  };
}

/** SFPSWAP's order: FP32 bit patterns compared as sign-magnitude integers (SFPSWAP.md). */
export function smLess(a: number, b: number): boolean {
  const sa = a >>> 31;
  const sb = b >>> 31;
  if (sa !== sb) return sa === 1;
  return sa === 0 ? (a & 0x7fffffff) < (b & 0x7fffffff) : (a & 0x7fffffff) > (b & 0x7fffffff);
}

/** The column an LReg lane holds after a block of four rows went through SFPLOAD (L0: columns 0-15
 * even, L1: odd, L2: 16-31 even, L3: odd) and SFPTRANSP: lane 8k+i of L_r is row r, column
 * `[2i, 2i+1, 16+2i, 17+2i][k]`. */
export const laneColumn = (lane: number) => ((lane >> 4) & 1) * 16 + 2 * (lane & 7) + ((lane >> 3) & 1);

// ---- exponential moving average --------------------------------------------------------------------

const ALPHA = 0x3f666666; // 0.9f
const BETA = 0x3dcccccd; // 0.1f

/** EMA down each column: ema_r = beta * x_r + round(alpha * ema_(r-1)), ema_(-1) = 0; the product alpha *
 * ema is rounded once (SFPMAD with + 0.0), then the second SFPMAD rounds beta * x + that once. */
export function emaTile(ins: Uint32Array[], first = 0): Expected[] {
  const out: Expected[] = new Array(1024);
  for (let c = 0; c < 32; c++) {
    let prev = first;
    for (let r = 0; r < 32; r++) {
      prev = K.madF32(BETA, ins[0]![at(r, c)]!, K.madF32(ALPHA, prev, 0));
      out[at(r, c)] = prev;
    }
  }
  return out;
}

// ---- Welford -----------------------------------------------------------------------------------------

/** One Welford step per column in FP32 as the kernel orders it: d = x - m; m' = d * (1/n) + m;
 * d2 = x - m'; M2' = d * d2 + M2 (each a single-rounding multiply-add), with 1/n the FP32 reciprocal. */
export function welfordColumns(
  ins: Uint32Array[],
  rows: number[],
  firstIdx: number,
): { mean: number[]; m2: number[] } {
  const mean = new Array<number>(32).fill(0);
  const m2 = new Array<number>(32).fill(0);
  const NEG1 = 0xbf800000;
  rows.forEach((r, k) => {
    const recip = K.f32ToBits(Math.fround(1 / (firstIdx + k + 1)));
    for (let c = 0; c < 32; c++) {
      const x = ins[0]![at(r, c)]!;
      const d = K.madF32(NEG1, mean[c]!, x);
      const m = K.madF32(d, recip, mean[c]!);
      const d2 = K.madF32(NEG1, m, x);
      m2[c] = K.madF32(d, d2, m2[c]!);
      mean[c] = m;
    }
  });
  return { mean, m2 };
}

/** The kernel leaves the mean in LReg 4 and M2 in LReg 5, lane 8k+i = column laneColumn(lane). */
function welfordCheck(rows: number[], firstIdx = 0) {
  return (ins: Uint32Array[], _out: Uint32Array, m: { lreg(i: number): Uint32Array }): string | null => {
    const want = welfordColumns(ins, rows, firstIdx);
    for (const [lreg, name, vals] of [
      [4, 'mean', want.mean],
      [5, 'M2', want.m2],
    ] as const) {
      const got = m.lreg(lreg);
      for (let l = 0; l < 32; l++) {
        const c = laneColumn(l);
        if (!sameF32(got[l]!, vals[c]!))
          return `column ${c} ${name} (LReg ${lreg} lane ${l}): ${hex(got[l]!)}, expected ${hex(vals[c]!)}`;
      }
    }
    return null;
  };
}

/** The reciprocal table tt-metal passes: entry i = FP32 bits of 1/(i+1). */
const recipLut = (n: number) =>
  `std::array<std::uint32_t, ${n}>{{${Array.from({ length: n }, (_, i) => `${hex(K.f32ToBits(Math.fround(1 / (i + 1))))}u`).join(', ')}}}`;

const WELFORD_INIT = ['_program_welfords_replay_buffer_()', '_clear_previous_mean_and_m2_()'];
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

// ---- max pool, row-major layout -------------------------------------------------------------------------

/** Row-major max pool: Dst row 2k holds logical row k's columns 0-15, row 2k+1 its columns 16-31. The
 * result (max over the 32 logical rows in SFPSWAP's order, and the index word that came with it) lands
 * in logical row 0 = Dst rows 0 and 1 of the value and index tiles. */
function maxPoolRowMajorCheck(
  ins: Uint32Array[],
  _out: Uint32Array,
  m: { readDstTile(t: number, f: string): Uint32Array },
) {
  const vals = m.readDstTile(0, 'int32');
  const idx = m.readDstTile(1, 'int32');
  for (let h = 0; h < 2; h++) {
    for (let j = 0; j < 16; j++) {
      let best = h;
      for (let d = h; d < 64; d += 2) if (smLess(ins[0]![dstAt(best, j)]!, ins[0]![dstAt(d, j)]!)) best = d;
      const want = ins[0]![dstAt(best, j)]!;
      const got = vals[dstAt(h, j)]!;
      if (!sameF32(got, want))
        return `Dst row ${h} column ${j}: max ${hex(got)}, expected ${hex(want)} (Dst row ${best})`;
      const gi = idx[dstAt(h, j)]!;
      if (gi !== ins[1]![dstAt(best, j)])
        return `Dst row ${h} column ${j}: index ${hex(gi)}, expected ${hex(ins[1]![dstAt(best, j)]!)} (Dst row ${best})`;
    }
  }
  return null;
}

/** Values distinct within each Dst column (bits 25-30 carry the Dst row), so there are no ties. */
function distinctByRow(rng: K.Rng, t: number): Uint32Array {
  const v = new Uint32Array(1024);
  for (let d = 0; d < 64; d++)
    for (let j = 0; j < 16; j++)
      v[dstAt(d, j)] = t === 1 ? rng.next() : ((d << 25) ^ (rng.next() & 0x81ffffff)) >>> 0;
  return v;
}

// ---- reshuffle rows -------------------------------------------------------------------------------------

const L1_ADDR = 0x20000;
/** The row map: mostly valid destinations (with repeats, so some rows accumulate twice), some 255
 * (skip) and one out-of-range value above 31 (also skipped by the kernel's `>= 32` test). */
function rowMap(): number[] {
  const map: number[] = [];
  for (let i = 0; i < 32; i++) map.push(i % 7 === 3 ? 255 : i === 20 ? 40 : (i * 11 + 5) % 32);
  map[31] = map[0]!; // a repeat
  return map;
}

/** output[map[i]] += input[i] for i = 0..31 in order, each an FP32 add with one rounding (SFPADD). */
export function reshuffleExpect(ins: Uint32Array[]): Expected[] {
  const out = Array.from(ins[1]!, (b) => b as Expected);
  const map = rowMap();
  for (let i = 0; i < 32; i++) {
    const dr = map[i]!;
    if (dr >= 32) continue;
    for (let c = 0; c < 32; c++) out[at(dr, c)] = K.addF32(ins[0]![at(i, c)]!, out[at(dr, c)] as number);
  }
  return out;
}

// ---- 4x2 subblock column max ---------------------------------------------------------------------------

const SUBBLOCK_H = 3;
/** `_calculate_reduce_max_col_subblock_4x2_(h)` on a block of h tile rows x 2 tile columns of BF16 data
 * (16-bit Dst, tile (i, j) at Dst tile 2i + j): it leaves, in LReg 0 / LReg 1, the maximum (in SFPSWAP's
 * sign-magnitude order) of each column over the h tiles of tile column 0 / 1 and the value the
 * prologue left there (-Inf); lane l holds column laneColumn(l). BF16 is compared as its FP32 widening. */
function subblockMaxCheck(ins: Uint32Array[], _out: Uint32Array, m: { lreg(i: number): Uint32Array }) {
  for (let tc = 0; tc < 2; tc++) {
    const got = m.lreg(tc);
    for (let l = 0; l < 32; l++) {
      const c = laneColumn(l);
      let best = 0xff800000;
      for (let i = 0; i < SUBBLOCK_H; i++)
        for (let r = 0; r < 32; r++) {
          const v = (ins[2 * i + tc]![at(r, c)]! << 16) >>> 0;
          if (smLess(best, v)) best = v;
        }
      if (got[l] !== best)
        return `tile column ${tc}, column ${c} (LReg ${tc} lane ${l}): ${hex(got[l]!)}, expected ${hex(best)}`;
    }
  }
  return null;
}

// ---- bitonic top-k ----------------------------------------------------------------------------------------

/**
 * tt-metal's topk (ttnn reduction/topk compute kernel) transposes the input, so each of the 32 Dst
 * columns holds one 64-long sequence: position p is value tile p >> 5 (tiles 0, 1), row p & 31, and its
 * index word is at the same place of tiles 2, 3. Order is SFPSWAP's (sign-magnitude on the bits);
 * `ArgMax` (0) puts the larger value first. Index tracking (SFPU control bit 2, set by _init_topk) makes
 * every index move with its value.
 */
const pos = (p: number, c: number) => ({ tile: p >> 5, i: at(p & 31, c) });

/** Distinct normal FP32 values (no ties, nothing a store would flush), both signs, one +0 and one -0. */
function topkInputs(rng: K.Rng, t: number): Uint32Array {
  const v = new Uint32Array(1024);
  for (let i = 0; i < 1024; i++) {
    if (t >= 2)
      v[i] = rng.next(); // index words
    else v[i] = ((rng.next() & 0x807fffff) | ((64 + rng.below(128)) << 23)) >>> 0;
  }
  if (t === 0) {
    v[at(3, 5)] = 0;
    v[at(9, 5)] = 0x80000000;
  }
  return v;
}

export type Pair = { v: number; x: number };
/** The (value, index) pair at position p of column c, from tiles as given (ins) or read back. */
const pairAt = (tiles: ArrayLike<number>[], p: number, c: number): Pair => {
  const { tile, i } = pos(p, c);
  return { v: tiles[tile]![i]!, x: tiles[tile + 2]![i]! };
};

/** Compares the machine's value/index tiles with `want(column) -> 64 expected pairs` (undefined: unchanged
 * positions are checked against the input). */
function topkCheck(want: (col: Pair[]) => Pair[], what: string) {
  return (ins: Uint32Array[], _out: Uint32Array, m: { readDstTile(t: number, f: string): Uint32Array }) => {
    const got = [0, 1, 2, 3].map((t) => m.readDstTile(t, 'int32'));
    for (let c = 0; c < 32; c++) {
      const col = Array.from({ length: 64 }, (_, p) => pairAt(ins, p, c));
      const w = want(col);
      for (let p = 0; p < 64; p++) {
        const g = pairAt(got, p, c);
        if (g.v !== w[p]!.v || g.x !== w[p]!.x)
          return `column ${c} position ${p} (${what}): value ${hex(g.v)} index ${hex(g.x)}, expected ${hex(w[p]!.v)} index ${hex(w[p]!.x)}`;
      }
    }
    return null;
  };
}

/** Sorted copy (SFPSWAP order), descending when `dir` is ArgMax (0). */
const sortPairs = (xs: Pair[], dir: number) =>
  [...xs].sort((a, b) => (smLess(a.v, b.v) ? -1 : smLess(b.v, a.v) ? 1 : 0) * (dir === 0 ? -1 : 1));

/** Local sort into groups of k: group g sorted in direction idir, then alternating. */
export const localSorted = (k: number, idir: number) => (col: Pair[]) => {
  const out: Pair[] = [];
  for (let g = 0; g < 64 / k; g++) out.push(...sortPairs(col.slice(g * k, (g + 1) * k), idir ^ (g & 1)));
  return out;
};

/** Merge step m, k: within blocks of 2 * dist (dist = min(32, k << m)), the first min(k, 32) positions
 * are compared with the ones dist further on: the larger pair first (top_min false). Blocks are visited
 * until max(64 >> m, 2 k) values were compared. */
export const merged = (m: number, k: number) => (col: Pair[]) => {
  const out = [...col];
  const km = Math.min(k, 32);
  const dist = Math.min(32, k << m);
  const blocks = Math.max(64 >> m, 2 * km) / (2 * km);
  for (let b = 0; b < blocks; b++)
    for (let p = b * 2 * dist; p < b * 2 * dist + km; p++) {
      const [a, z] = [out[p]!, out[p + dist]!];
      if (smLess(a.v, z.v)) [out[p], out[p + dist]] = [z, a];
    }
  return out;
};

/** Rebuild after merge step m (logk = 4, k = 16): the kept groups of 16 (at 0 and 2 * min(32, 16 << (m+1))
 * ...; for m = 0 at positions 0 and 32) are bitonic; each is sorted, the first in direction idir, the next
 * in the other; everything else is unchanged. */
export const rebuilt = (idir: number) => (col: Pair[]) => {
  const out = [...col];
  for (const [g, b] of [0, 32].entries()) out.splice(b, 16, ...sortPairs(col.slice(b, b + 16), idir ^ g));
  return out;
};

/** Inputs whose groups of 16 at positions 0 and 32 are bitonic (ascending then descending). */
function bitonicInputs(rng: K.Rng, t: number): Uint32Array {
  const v = topkInputs(rng, t);
  if (t >= 2) return v;
  const other = topkInputs(rng, 0);
  for (let c = 0; c < 32; c++) {
    for (const b of [0, 32]) {
      const vals = Array.from({ length: 16 }, (_, j) => pairAt([v, other, v, v], b + j, c).v);
      vals.sort((x, y) => (smLess(x, y) ? -1 : 1));
      const bit = [...vals.filter((_, j) => j % 2 === 0), ...vals.filter((_, j) => j % 2 === 1).reverse()];
      bit.forEach((x, j) => {
        const { tile, i } = pos(b + j, c);
        if (tile === t) v[i] = x;
      });
    }
  }
  return v;
}

const TOPK = {
  file: 'topk',
  init: ['_init_topk()'],
  sfpuType: 'topk_local_sort',
  vectorMode: 'none' as const,
  inputs: ['fp32', 'fp32', 'int32', 'int32'] as ('fp32' | 'int32')[],
  gen: topkInputs,
  out: { tile: 0, view: 'raw32' as const },
};

export const EXTRA_CASES: CorpusCase[] = [
  ...(
    [
      [16, 3, 0],
      [32, 4, 1],
      [64, 5, 0],
    ] as const
  ).map(
    ([k, ph, idir]): CorpusCase => ({
      ...TOPK,
      covers: ['_bitonic_topk_phases_steps', '_init_topk'],
      entry: `_bitonic_topk_phases_steps<false, true>(${idir}, ${ph}, 0, 0, 0)`,
      tileCheck: topkCheck(localSorted(k, idir), `groups of ${k}`),
      what: `local sort of each 64-long column sequence into groups of ${k}, alternating, first ${idir ? 'ascending' : 'descending'}; indices follow`,
    }),
  ),
  ...(
    [
      [0, 16],
      [1, 16],
    ] as const
  ).map(
    ([mi, k]): CorpusCase => ({
      ...TOPK,
      covers: ['_bitonic_topk_merge', '_init_topk'],
      entry: `_bitonic_topk_merge<false, true, false>(${mi}, ${k})`,
      tileCheck: topkCheck(merged(mi, k), `merge m=${mi} k=${k}`),
      what: `merge m_iter ${mi}, k ${k}: pairwise max to the first of each pair ${Math.min(32, k << mi)} apart; indices follow`,
    }),
  ),
  {
    ...TOPK,
    covers: ['_bitonic_topk_rebuild', '_init_topk'],
    entry: '_bitonic_topk_rebuild<false, true>(true, 0, 16, 4, 0)',
    gen: bitonicInputs,
    tileCheck: topkCheck(rebuilt(1), 'rebuild m=0 k=16'),
    what: 'rebuild m_iter 0, k 16: the bitonic groups at 0 and 32 sorted (ascending, then descending), the rest unchanged',
  },
  {
    file: 'reduce_custom',
    covers: ['_calculate_reduce_max_col_subblock_4x2_', '_init_reduce_max_col_subblock_4x2_'],
    entry: `_calculate_reduce_max_col_subblock_4x2_<PoolType::MAX, REDUCE_COL, DataFormat::Float16_b>(${SUBBLOCK_H})`,
    init: [
      '_init_reduce_max_col_subblock_4x2_<DataFormat::Float16_b>()',
      '_reduce_max_col_subblock_4x2_prologue_()',
    ],
    vectorMode: 'none',
    fp32Dest: false,
    inputs: Array.from({ length: 2 * SUBBLOCK_H }, () => 'bf16' as const),
    out: { tile: 0, view: 'raw32' },
    tileCheck: subblockMaxCheck,
    what: `LReg 0/1 = column max over a ${SUBBLOCK_H}x2 block's tile columns 0/1 (BF16 in a 16-bit Dst, sign-magnitude order)`,
  },
  {
    file: 'ema',
    covers: ['_calculate_ema_tile_'],
    entry: '_calculate_ema_tile_()',
    init: [`_load_alpha_beta_(${hex(ALPHA)}u, ${hex(BETA)}u)`, '_clear_previous_output_()'],
    vectorMode: 'none',
    inputs: ['fp32', 'fp32'],
    gen: (rng, t) => (t === 0 ? gridInputs(-1000, 1000)(rng) : K.fp32Inputs(rng)),
    out: { tile: 1, view: 'raw32', float: true },
    expectTile: (ins) => emaTile(ins),
    what: "tile 1 = EMA down each column of tile 0, alpha 0.9, beta 0.1, from 0 (FP32, the kernel's two roundings per step)",
  },
  {
    file: 'welfords',
    covers: ['_calculate_welfords_tile_'],
    entry: `_calculate_welfords_tile_<32>(0, ${recipLut(32)})`,
    init: WELFORD_INIT,
    vectorMode: 'none',
    inputs: ['fp32'],
    gen: gridInputs(-100, 100),
    out: { tile: 0, view: 'raw32' },
    tileCheck: welfordCheck(range(0, 32)),
    what: 'LReg 4/5 = running mean / M2 of each column over rows 0-31 (Welford, FP32, 1/n from the table)',
  },
  {
    file: 'welfords',
    covers: ['_calculate_welfords_block_'],
    // block I=1, J=2 = tile rows 24..27, sample numbers 5.. (1/6, 1/7, ...)
    entry: `_calculate_welfords_block_<32, 1, 2>(5, ${recipLut(32)})`,
    init: WELFORD_INIT,
    vectorMode: 'none',
    inputs: ['fp32'],
    gen: gridInputs(-100, 100),
    out: { tile: 0, view: 'raw32' },
    tileCheck: welfordCheck(range(24, 28), 5),
    what: 'LReg 4/5 = mean / M2 after rows 24-27 as samples 6-9 (block I=1, J=2)',
  },
  {
    file: 'welfords',
    covers: ['_calculate_welfords_partial_tile_', '_calculate_welfords_block_w_offset_'],
    // rows 6..18 (13 rows): blocks (0,1) from row 2, (0,2), (0,3), (1,0) up to row 2
    entry: `_calculate_welfords_partial_tile_<32>(0, 6, 13, ${recipLut(32)})`,
    init: WELFORD_INIT,
    vectorMode: 'none',
    inputs: ['fp32'],
    gen: gridInputs(-100, 100),
    out: { tile: 0, view: 'raw32' },
    tileCheck: welfordCheck(range(6, 19)),
    what: 'LReg 4/5 = mean / M2 over rows 6-18 only (partial tile: blocks entered and left mid-way)',
  },
  {
    file: 'welfords',
    covers: ['_calculate_welfords_block_w_offset_'],
    entry: `_calculate_welfords_block_w_offset_<32, 0, 3>(__axsim_welford_idx, 13, 15, ${recipLut(32)})`,
    init: WELFORD_INIT,
    globals: ['std::uint32_t __axsim_welford_idx = 0'],
    vectorMode: 'none',
    inputs: ['fp32'],
    gen: gridInputs(-100, 100),
    out: { tile: 0, view: 'raw32' },
    tileCheck: welfordCheck(range(13, 15), 0),
    what: 'LReg 4/5 = mean / M2 over rows 13-14 of block I=0, J=3 (start_idx passed by reference)',
  },
  {
    file: 'max_pool_indices',
    covers: ['_calculate_max_pool_with_indices_generic_'],
    entry: '_calculate_max_pool_with_indices_generic_<false, true, 8>(0, 1, 0)',
    init: ['_init_max_pool_with_indices_<DataLayout::ROW_MAJOR>()'],
    vectorMode: 'none',
    inputs: ['fp32', 'int32'],
    gen: distinctByRow,
    out: { tile: 0, view: 'raw32' },
    tileCheck: maxPoolRowMajorCheck,
    what: 'row-major layout: logical row 0 = each column maximum over the 32 logical rows (sign-magnitude order) and its index',
  },
  {
    file: 'reshuffle_rows',
    covers: ['_calculate_reshuffle_rows_'],
    entry: `_calculate_reshuffle_rows_(${hex(L1_ADDR)}u)`,
    vectorMode: 'none',
    inputs: ['fp32', 'fp32'],
    gen: gridInputs(-1000, 1000),
    memory: () => {
      // a tile header of 16 bytes, then the row map (uint8[32])
      const bytes = new Uint8Array(16 + 32);
      bytes.set(rowMap(), 16);
      return [{ name: 'l1-row-map', base: L1_ADDR, bytes }];
    },
    out: { tile: 1, view: 'raw32', float: true },
    expectTile: reshuffleExpect,
    what: 'tile 1 row map[i] += tile 0 row i in order (map in L1: repeats, 255 and 40 skipped)',
  },
];
