/**
 * More tt-llk Wormhole kernels with SFPLOADMACRO and/or REPLAY (examples/tensix): where (general,
 * in-place and DISABLE forms), mul_int (both forms), reduce (row MAX, column MIN over two tiles,
 * column MAX over a 2x2 block, integer column SUM/AVG), cumsum, add_top_row, max pool with indices,
 * and checks of the int32/uint32 -> fp32 typecasts (their macro/DISABLE pairs are in
 * kernels.test.ts). Expected values are each kernel's definition computed here from the inputs, not
 * taken from axsim; where a DISABLE form exists the two forms must also agree. The kernels run in
 * strict hazard mode and reach the throughput their comments claim. One test documents a bug in
 * tt-llk's _init_typecast_uint32_to_fp16b_; the fp32 -> uint16 pair relies on WH SFPSWAP Mod1 15.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { assemble } from '../asm/index.ts';
import { TensixMachine } from '../index.ts';
import { Op, S, STRIDE } from '../ops.ts';
import type { Program } from '../program.ts';
import { runTimed } from './engine.ts';

const dir = fileURLToPath(new URL('../../../examples/tensix/', import.meta.url));

function compile(file: string): { m: TensixMachine; prog: Program } {
  const m = new TensixMachine('wormhole');
  return { m, prog: m.compile(assemble(readFileSync(dir + file, 'utf8'), 'wormhole', { file }).words) };
}

/** Issue cycles of the program's SFPLOADMACRO records with the given macro index. */
function lmIssues(prog: Program, issue: Int32Array, macro: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < prog.length; i++) {
    const o = i * STRIDE;
    if (prog.code[o + S.OP] === Op.LOADMACRO && prog.code[o + S.AUX] === macro) out.push(issue[i]!);
  }
  return out;
}
const diffs = (a: number[]) => a.slice(1).map((x, i) => x - a[i]!);

/** 32-bit Dst rows (of 16) of a 32x32 tile; the kernels work on face 0, its first 16 rows. */
const TILE = 64;
const FACE = 16;

describe('wh_where: out = cond != 0 ? a : b (ckernel_sfpu_where.h)', () => {
  const general = compile('wh_where.sfpu');
  const inplace = compile('wh_where_inplace.sfpu');
  const serial = compile('wh_where_nomacro.sfpu');
  // tiles 0..3 (cond, a, b, out), whole tiles of 32-bit words; cond is often 0, +-0 included
  const word = fc.oneof(
    fc.constantFrom(0, 0x80000000, 1, 0xffffffff),
    fc.integer({ min: 0, max: 0xffffffff }),
  );
  const tiles = fc.array(word, { minLength: 4 * TILE * 16, maxLength: 4 * TILE * 16 });

  function load(m: TensixMachine, data: number[]): void {
    m.reset();
    m.configure({ sfpuFp32: true });
    m.writeDstRows(0, data, 'int32');
  }
  /** The inputs with face 0 of tile `out` replaced by where(cond, a, b), element by element. */
  function expected(data: number[], out: number): number[] {
    const e = data.map((x) => x >>> 0);
    for (let i = 0; i < FACE * 16; i++) {
      const c = data[i]! >>> 0; // SFPSETCC LREG_EQ0 tests the 32-bit integer (SFPSETCC.md)
      e[out * TILE * 16 + i] = (c !== 0 ? data[TILE * 16 + i]! : data[2 * TILE * 16 + i]!) >>> 0;
    }
    return e;
  }

  it('all three forms compute it; the macro forms in strict mode, nothing discarded', () => {
    fc.assert(
      fc.property(tiles, (data) => {
        for (const [k, out] of [
          [general, 3],
          [inplace, 0],
          [serial, 3],
        ] as const) {
          load(k.m, data);
          const r = runTimed(k.m.state, k.prog, { hazards: 'strict' });
          assert.equal(r.discarded, 0);
          assert.deepEqual([...k.m.readDstRows(0, 4 * TILE * 16, 'int32')], expected(data, out));
        }
        // the DISABLE form in the functional mode too
        load(serial.m, data);
        serial.m.run(serial.prog);
        assert.deepEqual([...serial.m.readDstRows(0, 4 * TILE * 16, 'int32')], expected(data, 3));
      }),
      { numRuns: 20, seed: 21, endOnFailure: true },
    );
  });

  it('throughput as the comments claim: 4 cycles per 32 elements, 3 when writing over cond', () => {
    for (const [k, macro, per] of [
      [general, 1, 4],
      [inplace, 0, 3],
    ] as const) {
      load(k.m, new Array(4 * TILE * 16).fill(1));
      const r = runTimed(k.m.state, k.prog, { hazards: 'strict' });
      const lms = lmIssues(k.prog, r.issueCycle, macro);
      assert.equal(lms.length, 8);
      assert.deepEqual(diffs(lms), new Array(7).fill(per));
    }
  });
});

describe('wh_mul_int: out = (a * b) & 0xffff on uint16 tiles (ckernel_sfpu_mul_int.h)', () => {
  const macro = compile('wh_mul_int.sfpu');
  const serial = compile('wh_mul_int_nomacro.sfpu');
  const u16 = fc.oneof(
    fc.constantFrom(0, 1, 0xff, 0x100, 0xffff, 0x8000),
    fc.integer({ min: 0, max: 0xffff }),
  );
  // tiles 0..2 (a, b, out) of 16-bit Dst words; out's old contents must be replaced in face 0 only
  const tiles = fc.array(u16, { minLength: 3 * TILE * 16, maxLength: 3 * TILE * 16 });

  function load(m: TensixMachine, data: number[]): void {
    m.reset();
    m.configure({ sfpuFp32: false });
    m.writeDstRows(0, data, 'raw16');
  }
  function expected(data: number[]): number[] {
    const e = data.slice();
    // the product of the two low 16-bit values, modulo 2^16 (a * b < 2^32 is exact in a double)
    for (let i = 0; i < FACE * 16; i++) e[2 * TILE * 16 + i] = (data[i]! * data[TILE * 16 + i]!) % 0x10000;
    return e;
  }

  it('both forms compute it, bit for bit; the macro form in strict mode, nothing discarded', () => {
    fc.assert(
      fc.property(tiles, (data) => {
        load(serial.m, data);
        serial.m.run(serial.prog);
        assert.deepEqual([...serial.m.readDstRows(0, 3 * TILE * 16, 'raw16')], expected(data));
        load(macro.m, data);
        const r = runTimed(macro.m.state, macro.prog, { hazards: 'strict' });
        assert.equal(r.discarded, 0);
        assert.deepEqual([...macro.m.readDstRows(0, 3 * TILE * 16, 'raw16')], expected(data));
        // and the DISABLE form on the cycle model too
        load(serial.m, data);
        runTimed(serial.m.state, serial.prog, { hazards: 'strict' });
        assert.deepEqual([...serial.m.readDstRows(0, 3 * TILE * 16, 'raw16')], expected(data));
      }),
      { numRuns: 20, seed: 22, endOnFailure: true },
    );
  });

  it('throughput as the comment claims: 12 cycles per input row', () => {
    load(macro.m, new Array(3 * TILE * 16).fill(3));
    const r = runTimed(macro.m.state, macro.prog, { hazards: 'strict', timeline: true });
    for (let k = 0; k < 4; k++)
      assert.deepEqual(
        diffs(lmIssues(macro.prog, r.issueCycle, k).filter((_, i) => k !== 1 || i % 2 === 0)),
        new Array(7).fill(12),
      );
  });
});

describe('engine fast path and template loads', () => {
  // Found with _init_mul_int_ (fixed in commit 6e9e5e7): without a timeline the engine's fast path
  // reported swap-shft2-follow ("SFPIADD on the cycle after SFPSHFT2 mode 2") for two backdoor
  // template loads, which execute nothing (the record's mode slot holds the template index, 2).
  it('two template loads (SFPSHFT2 then SFPIADD, VD 14 / 15) report no hazard, on both engine paths', () => {
    const words = assemble('TTI_SFPSHFT2(8, 0, 14, 6);\nTTI_SFPIADD(0, 5, 15, 4);\n', 'wormhole').words;
    for (const timeline of [true, false]) {
      const m = new TensixMachine('wormhole');
      const r = runTimed(m.state, m.compile(words), { hazards: 'warn', timeline });
      assert.deepEqual(
        r.hazards.map((h) => h.id),
        [],
        `timeline: ${timeline}`,
      );
    }
  });
});

describe('ckernel_sfpu_reduce.h row MAX, column MIN over two tiles, column MAX over a 2x2 block', () => {
  /** SFPSWAP's order (SFPSWAP.md): sign-magnitude, -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. */
  const less = (a: number, b: number) => {
    const sa = a >>> 31;
    const sb = b >>> 31;
    if (sa !== sb) return sa === 1;
    const ma = a & 0x7fffffff;
    const mb = b & 0x7fffffff;
    return sa === 0 ? ma < mb : ma > mb;
  };
  /** SFPSTORE FP32 flushes a denormal to a zero of the same sign (SFPU-NOTES A2). */
  const flush = (x: number) => (((x >>> 23) & 0xff) === 0 ? (x & 0x80000000) >>> 0 : x >>> 0);
  const elem = fc.oneof(
    fc.constantFrom(0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x00000001, 0x807fffff),
    fc.integer({ min: 0, max: 0xffffffff }),
  );
  it('wh_reduce_row_max.sfpu: column 0 of each row holds the row maximum, columns 16..31 untouched; strict', () => {
    const k = compile('wh_reduce_row_max.sfpu');
    fc.assert(
      fc.property(fc.array(elem, { minLength: 1024, maxLength: 1024 }), (tile) => {
        k.m.reset();
        k.m.configure({ sfpuFp32: true });
        k.m.writeDstTile(0, tile, 'fp32');
        const r = runTimed(k.m.state, k.prog, { hazards: 'strict' });
        assert.equal(r.discarded, 0);
        const out = k.m.readDstTile(0, 'fp32');
        for (let row = 0; row < 32; row++) {
          let best = tile[row * 32]! >>> 0;
          for (let c = 1; c < 32; c++)
            if (less(best, tile[row * 32 + c]! >>> 0)) best = tile[row * 32 + c]! >>> 0;
          assert.equal(out[row * 32], flush(best), `row ${row}`);
          for (let c = 16; c < 32; c++)
            assert.equal(out[row * 32 + c], tile[row * 32 + c]! >>> 0, `row ${row} col ${c}`);
        }
      }),
      { numRuns: 15, seed: 25, endOnFailure: true },
    );
  });
  for (const [file, tiles, pick, what] of [
    ['wh_reduce_col_min_2tiles.sfpu', 2, [0, 1], 'min'],
    ['wh_reduce_col_max_2x2.sfpu', 4, [0, 2], 'max'],
  ] as const) {
    it(`${file}: row 0 of tile 0 holds each column ${what} over tiles ${pick.join(' and ')}; strict, no discard`, () => {
      const k = compile(file);
      fc.assert(
        fc.property(fc.array(elem, { minLength: tiles * 1024, maxLength: tiles * 1024 }), (data) => {
          k.m.reset();
          k.m.configure({ sfpuFp32: true });
          for (let t = 0; t < tiles; t++) k.m.writeDstTile(t, data.slice(t * 1024, (t + 1) * 1024), 'fp32');
          const r = runTimed(k.m.state, k.prog, { hazards: 'strict' });
          assert.equal(r.discarded, 0);
          const out = k.m.readDstTile(0, 'fp32');
          for (let c = 0; c < 32; c++) {
            let best = data[pick[0] * 1024 + c]! >>> 0;
            for (const t of pick)
              for (let row = 0; row < 32; row++) {
                const x = data[t * 1024 + row * 32 + c]! >>> 0;
                if (what === 'min' ? less(x, best) : less(best, x)) best = x;
              }
            assert.equal(out[c], flush(best), `column ${c}`);
          }
        }),
        { numRuns: 15, seed: 23, endOnFailure: true },
      );
    });
  }
});

describe('ckernel_sfpu_typecast.h Int32/UInt32 -> FP32 (both forms also compared in kernels.test.ts)', () => {
  const f32 = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
  // SFPCAST rounds to nearest even (SFPCAST.md), as Math.fround does from the exact double.
  const int32ToF32 = (x: number) => f32(Math.fround(x | 0));
  // UInt32: the low 31 bits are cast, then 2^31 is added by an SFPMAD (one more rounding).
  const uint32ToF32 = (x: number) => {
    const lo = Math.fround((x >>> 0) % 0x80000000);
    return f32(x >>> 31 ? Math.fround(lo + 0x80000000) : lo);
  };
  const word = fc.oneof(
    fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0x01000001, 0x81000003),
    fc.integer({ min: 0, max: 0xffffffff }),
  );
  for (const [file, f] of [
    ['wh_typecast_int32_to_fp32', int32ToF32],
    ['wh_typecast_uint32_to_fp32', uint32ToF32],
  ] as const) {
    it(`${file}: both forms give the kernel's conversion`, () => {
      const macro = compile(`${file}.sfpu`);
      const serial = compile(`${file}_nomacro.sfpu`);
      fc.assert(
        fc.property(fc.array(word, { minLength: FACE * 16, maxLength: FACE * 16 }), (data) => {
          for (const [k, timed] of [
            [macro, true],
            [serial, false],
          ] as const) {
            k.m.reset();
            k.m.configure({ sfpuFp32: true });
            k.m.writeDstRows(0, data, 'int32');
            if (timed) runTimed(k.m.state, k.prog, { hazards: 'strict' });
            else k.m.run(k.prog);
            const out = k.m.readDstRows(0, FACE * 16, 'fp32');
            for (let i = 0; i < FACE * 16; i++) assert.equal(out[i], f(data[i]!), `${file} element ${i}`);
          }
        }),
        { numRuns: 20, seed: 24, endOnFailure: true },
      );
    });
  }
});

describe("tt-llk's _init_typecast_uint32_to_fp16b_ does not set the LREG12 its loop shifts by", () => {
  // The loop's SFPSHFT2(v, LREG12, LREG7, SHFT_LREG) needs LREG12 = -31 (bit 31 of the input into
  // L7, the SFPMAD's indirect VA index); the init never writes LREG12. The example supplies it
  // between markers; without those lines LREG12 keeps its reset value (1/512, SFPU-NOTES B7: shift 0).
  const file = 'wh_typecast_uint32_to_fp16b.sfpu';
  const src = readFileSync(dir + file, 'utf8');
  const begin = src.indexOf('// ---- begin: LREG12 = -31 ----');
  const end = src.indexOf('// ---- end: LREG12 = -31 ----');
  it('with LREG12 = -31 both forms agree on inputs with bit 31 set; as tt-llk has it they do not', () => {
    assert.ok(begin > 0 && end > begin);
    const data = new Array(FACE * 16).fill(0x80000002);
    const serial = compile('wh_typecast_uint32_to_fp16b_nomacro.sfpu');
    serial.m.configure({ sfpuFp32: true });
    serial.m.writeDstRows(0, data, 'int32');
    serial.m.run(serial.prog);
    // 2^31 + 2 rounded to BF16 (ties away) is 2^31
    assert.ok(serial.m.readDstRows(0, FACE * 16, 'fp32').every((x) => x === 0x4f000000));
    for (const [text, same] of [
      [src, true],
      [src.slice(0, begin) + src.slice(end), false],
    ] as const) {
      const m = new TensixMachine('wormhole');
      m.configure({ sfpuFp32: true });
      m.writeDstRows(0, data, 'int32');
      runTimed(m.state, m.compile(assemble(text, 'wormhole').words), { hazards: 'strict' });
      const out = [...m.readDstRows(0, FACE * 16, 'fp32')];
      assert.equal(
        out.every((x) => x === 0x4f000000),
        same,
      );
    }
  });
});

describe('wh_cumsum: column prefix sums (ckernel_sfpu_cumsum.h)', () => {
  const bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
  const value = (b: number) => new Float32Array(new Uint32Array([b >>> 0]).buffer)[0]!;
  /** SFPADD on Wormhole: denormal inputs count as zero; zero and denormal results are +0 (SFPU-NOTES B3). */
  const add = (a: number, b: number) => {
    const v = (x: number) => (((x >>> 23) & 0xff) === 0 ? 0 : value(x));
    const r = bits(Math.fround(v(a) + v(b)));
    return ((r >>> 23) & 0xff) === 0 ? 0 : r;
  };
  // finite values, zeros and denormals, with magnitudes that cannot overflow in 32 additions
  const elem = fc.oneof(
    fc.constantFrom(0, 0x80000000, 0x00000001, 0x807fffff, 0x3f800000, 0xbf800000),
    fc.integer({ min: 0, max: 0x70ffffff }),
    fc.integer({ min: 0x80000000, max: 0xf0ffffff }),
    fc.double({ min: -1000, max: 1000, noNaN: true }).map((x) => bits(x)),
  );
  it('every element is the FP32 sum of its column down to it, in row order; strict', () => {
    const k = compile('wh_cumsum.sfpu');
    fc.assert(
      fc.property(fc.array(elem, { minLength: 1024, maxLength: 1024 }), (tile) => {
        k.m.reset();
        k.m.configure({ sfpuFp32: true });
        k.m.writeDstTile(0, tile, 'fp32');
        runTimed(k.m.state, k.prog, { hazards: 'strict' });
        const out = k.m.readDstTile(0, 'fp32');
        for (let c = 0; c < 32; c++) {
          let acc = 0;
          for (let r = 0; r < 32; r++) {
            acc = add(acc, tile[r * 32 + c]! >>> 0);
            assert.equal(out[r * 32 + c], acc, `row ${r} column ${c}`);
          }
        }
      }),
      { numRuns: 15, seed: 26, endOnFailure: true },
    );
  });
});

describe('wh_add_top_row: rows 0-3 of tile 2 = tile 0 + tile 1 (ckernel_sfpu_add_top_row.h)', () => {
  const bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
  const value = (b: number) => new Float32Array(new Uint32Array([b >>> 0]).buffer)[0]!;
  const fadd = (a: number, b: number) => {
    const v = (x: number) => (((x >>> 23) & 0xff) === 0 ? 0 : value(x)); // WH SFPADD: denormal in = 0
    const r = bits(Math.fround(v(a) + v(b)));
    return ((r >>> 23) & 0xff) === 0 ? 0 : r; // zero / denormal result = +0 (SFPU-NOTES B3)
  };
  const finite = fc.oneof(
    fc.constantFrom(0, 0x80000000, 0x00000001, 0x3f800000, 0xbf800000),
    fc.integer({ min: 0, max: 0x7e7fffff }),
    fc.integer({ min: 0x80000000, max: 0xfe7fffff }),
  );
  const any = fc.integer({ min: 0, max: 0xffffffff });
  for (const [fmt, elem, f] of [
    ['fp32', finite, fadd],
    ['uint32', any, (a: number, b: number) => (a + b) >>> 0],
  ] as const) {
    it(`${fmt}: the sums computed directly, the rest of Dst unchanged; strict`, () => {
      const k = compile(`wh_add_top_row_${fmt}.sfpu`);
      fc.assert(
        fc.property(fc.array(elem, { minLength: 3 * 1024, maxLength: 3 * 1024 }), (data) => {
          k.m.reset();
          k.m.configure({ sfpuFp32: true });
          for (let t = 0; t < 3; t++)
            k.m.writeDstTile(t, data.slice(t * 1024, (t + 1) * 1024), fmt === 'fp32' ? 'fp32' : 'int32');
          runTimed(k.m.state, k.prog, { hazards: 'strict' });
          const out = k.m.readDstTile(2, fmt === 'fp32' ? 'fp32' : 'int32');
          for (let i = 0; i < 1024; i++) {
            const want = i < 4 * 32 ? f(data[i]! >>> 0, data[1024 + i]! >>> 0) : data[2048 + i]! >>> 0;
            assert.equal(out[i]! >>> 0, want, `element ${i}`);
          }
        }),
        { numRuns: 15, seed: 27, endOnFailure: true },
      );
    });
  }
});

describe('reduce column SUM (UInt32) and AVG (Int32) over a tile (ckernel_sfpu_reduce.h)', () => {
  const word = fc.oneof(
    fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0xffffffff),
    fc.integer({ min: 0, max: 0xffffffff }),
  );
  const colSum = (tile: number[], c: number) => {
    let s = 0;
    for (let r = 0; r < 32; r++) s = (s + tile[r * 32 + c]!) >>> 0; // SFPIADD: modulo 2^32
    return s;
  };
  // perform_int_average<INT32>: |s| (SFPABS integer; INT32_MIN stays) logically >> 5, negated back for s < 0
  const avg = (s: number) => {
    const mag = (s | 0) < 0 ? (-(s | 0) >>> 0) >>> 5 : s >>> 5;
    return (s | 0) < 0 ? -mag >>> 0 : mag;
  };
  for (const [file, f] of [
    ['wh_reduce_col_sum_uint32', (s: number) => s],
    ['wh_reduce_col_avg_int32', avg],
  ] as const) {
    it(`${file}: row 0 holds each column's result, rows 4..31 unchanged; strict`, () => {
      const k = compile(`${file}.sfpu`);
      fc.assert(
        fc.property(fc.array(word, { minLength: 1024, maxLength: 1024 }), (tile) => {
          k.m.reset();
          k.m.configure({ sfpuFp32: true });
          k.m.writeDstTile(0, tile, 'int32');
          runTimed(k.m.state, k.prog, { hazards: 'strict' });
          const out = k.m.readDstTile(0, 'int32');
          for (let c = 0; c < 32; c++) assert.equal(out[c]! >>> 0, f(colSum(tile, c)), `column ${c}`);
          for (let i = 4 * 32; i < 1024; i++) assert.equal(out[i]! >>> 0, tile[i]! >>> 0, `element ${i}`);
        }),
        { numRuns: 15, seed: 28, endOnFailure: true },
      );
    });
  }
});

describe('wh_max_pool_with_indices: argmax over rows 0..8 with ENABLE_DEST_INDEX (ckernel_sfpu_max_pool_indices.h)', () => {
  /** SFPSWAP's order (SFPSWAP.md): sign-magnitude. */
  const less = (a: number, b: number) => {
    const sa = a >>> 31;
    const sb = b >>> 31;
    if (sa !== sb) return sa === 1;
    return sa === 0 ? (a & 0x7fffffff) < (b & 0x7fffffff) : (a & 0x7fffffff) > (b & 0x7fffffff);
  };
  const flush = (x: number) => (((x >>> 23) & 0xff) === 0 ? (x & 0x80000000) >>> 0 : x >>> 0);
  const word = fc.integer({ min: 0, max: 0xffffffff });
  // rows 0..8 of each column distinct (no ties to break), the rest anything
  const pooled = fc.array(fc.uniqueArray(word, { minLength: 9, maxLength: 9 }), {
    minLength: 32,
    maxLength: 32,
  });
  const rest = fc.array(word, { minLength: 23 * 32, maxLength: 23 * 32 });
  const indices = fc.array(word, { minLength: 1024, maxLength: 1024 });
  it('row 0 holds each column maximum and the index that came with it; strict', () => {
    const k = compile('wh_max_pool_with_indices.sfpu');
    fc.assert(
      fc.property(pooled, rest, indices, (cols, tail, idx) => {
        const values = new Array<number>(1024);
        for (let r = 0; r < 9; r++) for (let c = 0; c < 32; c++) values[r * 32 + c] = cols[c]![r]!;
        for (let i = 9 * 32; i < 1024; i++) values[i] = tail[i - 9 * 32]!;
        k.m.reset();
        k.m.configure({ sfpuFp32: true });
        k.m.writeDstTile(0, values, 'fp32');
        k.m.writeDstTile(1, idx, 'int32');
        runTimed(k.m.state, k.prog, { hazards: 'strict' });
        const outV = k.m.readDstTile(0, 'fp32');
        const outI = k.m.readDstTile(1, 'int32');
        for (let c = 0; c < 32; c++) {
          let best = 0;
          for (let r = 1; r < 9; r++)
            if (less(values[best * 32 + c]! >>> 0, values[r * 32 + c]! >>> 0)) best = r;
          assert.equal(outV[c], flush(values[best * 32 + c]! >>> 0), `value, column ${c}`);
          assert.equal(outI[c]! >>> 0, idx[best * 32 + c]! >>> 0, `index, column ${c}`);
        }
      }),
      { numRuns: 15, seed: 29, endOnFailure: true },
    );
  });
});

describe('wh_typecast_fp32_to_uint16: Wormhole SFPSWAP Mod1 15 as Mod1 9 (docs/tensix.md)', () => {
  // tt-llk's macro form uses SFPSWAP(0, LCONST_0, 12, 0xf) as "VD = max(0, VD)"; the DISABLE form
  // uses Mod1 9 for the same step. WormholeB0 SFPSWAP.md gives Mod1 10-15 Mod1 9's meaning as the
  // current silicon behaviour, which axsim runs.
  it('both forms agree', () => {
    const macro = compile('wh_typecast_fp32_to_uint16.sfpu');
    const serial = compile('wh_typecast_fp32_to_uint16_nomacro.sfpu');
    // ±0, ±Inf, NaNs, denormals, ties, the clamp limits around 65535.5, then pseudo-random words
    const edges = [
      0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x00000001, 0x807fffff, 0x3f000000,
      0xbf000000, 0x3fc00000, 0x40200000, 0x477fff00, 0x477fff80, 0x477fffc0, 0x47800000, 0x4f800000,
      0xbf800000, 0x3f800000, 0x46fffe00,
    ];
    let x = 0x9e3779b9;
    const data = Array.from({ length: FACE * 16 }, (_, i) => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return i < edges.length ? edges[i]! : x;
    });
    for (const k of [macro, serial]) {
      k.m.configure({ sfpuFp32: true });
      k.m.writeDstRows(0, data, 'fp32');
    }
    serial.m.run(serial.prog);
    runTimed(macro.m.state, macro.prog, { hazards: 'strict' });
    assert.deepEqual(macro.m.state.dst, serial.m.state.dst);
  });
});
