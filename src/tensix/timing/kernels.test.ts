/**
 * The tt-llk kernels of examples/tensix: each SFPLOADMACRO form leaves the same Dst bits as its
 * DISABLE_SFPLOADMACRO form on random inputs with ±0, ±Inf, NaN and denormals; the recip macro
 * forms reach 1, 3 and 5 cycles per 32 elements (the kernels' comments) with no hazard; and the
 * spec-000 claim (fast reciprocal: 1 row per cycle with SFPLOADMACRO, >= 3 serial) holds.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { assemble } from '../asm/index.ts';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { Op, S, STRIDE } from '../ops.ts';
import type { Program } from '../program.ts';
import { runTimed } from './engine.ts';

const dir = fileURLToPath(new URL('../../../examples/tensix/', import.meta.url));

interface Kernel {
  name: string;
  arch: Arch;
  fmt: 'fp32' | 'bf16';
  /** Cycles per 32 elements claimed by the kernel's comment (recip kernels). */
  perRow?: number;
  /**
   * 16-bit Dst rows (DstBits) where the forms differ by design; elsewhere they must be identical.
   * fp32_to_fp16b: the macro form's [a] stores write whole 32-bit cells at addresses 0..15 (16-bit
   * rows 0..31 in the 32-bit layout) with (x >> 16) & 1, which the FP32 store turns into +0 (1 is a
   * denormal); the BF16 stores of both forms then rewrite 16-bit rows 0..15. So 16-bit rows
   * 16..31 are 0 in the macro form and keep the input in the DISABLE form (see the example's header).
   */
  differs?: { rows: [number, number] };
}
const KERNELS: Kernel[] = [
  { name: 'bh_recip_fast_7b', arch: 'blackhole', fmt: 'fp32', perRow: 1 },
  { name: 'bh_recip_fast_8b_3c', arch: 'blackhole', fmt: 'bf16', perRow: 3 },
  { name: 'bh_recip_fast_24b_5c', arch: 'blackhole', fmt: 'fp32', perRow: 5 },
  { name: 'wh_typecast_uint16_to_fp32', arch: 'wormhole', fmt: 'fp32', perRow: 1 },
  { name: 'wh_typecast_uint16_to_fp16b', arch: 'wormhole', fmt: 'fp32', perRow: 1 },
  { name: 'wh_typecast_int32_to_fp32', arch: 'wormhole', fmt: 'fp32', perRow: 4 },
  { name: 'wh_typecast_uint32_to_fp32', arch: 'wormhole', fmt: 'fp32', perRow: 3 },
  { name: 'wh_typecast_uint16_to_uint32', arch: 'wormhole', fmt: 'fp32', perRow: 1 },
  { name: 'wh_typecast_uint32_to_uint16', arch: 'wormhole', fmt: 'fp32', perRow: 2 },
  { name: 'wh_typecast_int32_to_fp16b', arch: 'wormhole', fmt: 'fp32', perRow: 4 },
  // with LREG12 = -31 supplied by the example (tt-llk's init lacks it; see kernels-wh.test.ts)
  { name: 'wh_typecast_uint32_to_fp16b', arch: 'wormhole', fmt: 'fp32', perRow: 3 },
  {
    name: 'wh_typecast_fp32_to_fp16b',
    arch: 'wormhole',
    fmt: 'fp32',
    perRow: 3,
    differs: { rows: [16, 31] },
  },
];

const SPECIAL32 = [
  0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x00000001, 0x807fffff, 0x00800000,
];
const SPECIAL16 = [0, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x0001, 0x807f, 0x0080];

function compile(file: string, arch: Arch): { m: TensixMachine; prog: Program } {
  const m = new TensixMachine(arch);
  const words = assemble(readFileSync(dir + file, 'utf8'), arch, { file }).words;
  return { m, prog: m.compile(words) };
}

function setup(m: TensixMachine, k: Kernel, data: number[]): void {
  if (k.fmt === 'fp32') m.configure({ sfpuFp32: true });
  else m.configure({ sfpuFp32: false, srcBFormat: 5 });
  m.writeDstRows(0, data, k.fmt);
}

/** Rows (of 16) the kernels touch: one face. */
const N = 256;

function inputs(fmt: 'fp32' | 'bf16'): fc.Arbitrary<number[]> {
  const special = fmt === 'fp32' ? SPECIAL32 : SPECIAL16;
  const any = fmt === 'fp32' ? fc.integer({ min: 0, max: 0xffffffff }) : fc.integer({ min: 0, max: 0xffff });
  // ordinary magnitudes too, so that the reciprocal's Newton steps matter
  const normal =
    fmt === 'fp32'
      ? fc.integer({ min: 0x00800000, max: 0x7f7fffff }).map((x) => x | 0)
      : fc.integer({ min: 0x0080, max: 0x7f7f });
  const elem = fc.oneof(
    fc.constantFrom(...special),
    any,
    normal,
    normal.map((x) => (x | (fmt === 'fp32' ? 0x80000000 : 0x8000)) >>> 0),
  );
  return fc.array(elem, { minLength: N, maxLength: N }).map((a) => a.map((x) => x >>> 0));
}

describe('macro form == DISABLE_SFPLOADMACRO form (Dst bits)', () => {
  for (const k of KERNELS) {
    it(`${k.name} (${k.arch}, ${k.fmt} Dst)`, () => {
      const macro = compile(`${k.name}.sfpu`, k.arch);
      const serial = compile(`${k.name}_nomacro.sfpu`, k.arch);
      const specials = (k.fmt === 'fp32' ? SPECIAL32 : SPECIAL16)
        .flatMap((x) => new Array(28).fill(x))
        .slice(0, N);
      const check = (data: number[]) => {
        macro.m.reset();
        serial.m.reset();
        setup(macro.m, k, data);
        setup(serial.m, k, data);
        const r = runTimed(macro.m.state, macro.prog, { hazards: 'strict' });
        assert.equal(r.discarded, 0);
        serial.m.run(serial.prog); // the sequential functional mode
        if (k.differs) {
          const [lo, hi] = k.differs.rows;
          const a = macro.m.state.dst;
          const b = serial.m.state.dst;
          const input = new TensixMachine(k.arch);
          setup(input, k, data);
          for (let i = 0; i < a.length; i++) {
            const row = i >> 4;
            if (row >= lo && row <= hi) {
              assert.equal(a[i], 0, `macro form, 16-bit row ${row}`);
              assert.equal(b[i], input.state.dst[i], `DISABLE form keeps the input, 16-bit row ${row}`);
            } else assert.equal(a[i], b[i], `16-bit Dst cell ${i}`);
          }
        } else assert.deepEqual(macro.m.state.dst, serial.m.state.dst);
        // the DISABLE form in timed mode computes the same as in functional mode
        const t = new TensixMachine(k.arch);
        setup(t, k, data);
        runTimed(t.state, serial.prog, { hazards: 'strict' });
        assert.deepEqual(t.state.dst, serial.m.state.dst);
      };
      check(specials);
      fc.assert(fc.property(inputs(k.fmt), check), { numRuns: 25, seed: 4 });
    });
  }
});

/** Issue cycles of the program's SFPLOADMACRO records with macro index 0. */
function macro0Issues(prog: Program, issue: Int32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < prog.length; i++) {
    const o = i * STRIDE;
    if (prog.code[o + S.OP] === Op.LOADMACRO && (prog.code[o + S.AUX]! & 3) === 0) out.push(issue[i]!);
  }
  return out;
}
const diffs = (a: number[]) => a.slice(1).map((x, i) => x - a[i]!);

describe('steady-state throughput of the macro forms (as their comments claim)', () => {
  for (const k of KERNELS.filter((x) => x.perRow)) {
    it(`${k.name}: ${k.perRow} cycle(s) per 32 elements, no stall, no hazard`, () => {
      const { m, prog } = compile(`${k.name}.sfpu`, k.arch);
      setup(m, k, new Array(N).fill(k.fmt === 'fp32' ? 0x40400000 : 0x4040));
      const r = runTimed(m.state, prog, { hazards: 'strict' });
      assert.equal(r.hazards.length, 0);
      const d = diffs(macro0Issues(prog, r.issueCycle));
      assert.equal(d.length, 7); // 8 iterations
      assert.deepEqual(d, new Array(7).fill(k.perRow));
      // no stall once the loop has started
      const first = macro0Issues(prog, r.issueCycle)[0]!;
      const rt = runTimed(
        (() => {
          const m2 = new TensixMachine(k.arch);
          setup(m2, k, new Array(N).fill(0));
          return m2.state;
        })(),
        prog,
        { timeline: true },
      );
      assert.equal(rt.timeline!.filter((e) => e.note === 'stall' && e.cycle >= first).length, 0);
    });
  }
});

describe('spec 000: fast reciprocal, 1 row per cycle with SFPLOADMACRO vs >= 3 serial', () => {
  it('bh_recip_fast_7b', () => {
    const k = KERNELS[0]!;
    const macro = compile('bh_recip_fast_7b.sfpu', 'blackhole');
    setup(macro.m, k, new Array(N).fill(0x40000000));
    const rm = runTimed(macro.m.state, macro.prog, {});
    const perRowMacro = diffs(macro0Issues(macro.prog, rm.issueCycle));
    assert.ok(perRowMacro.every((d) => d === 1));
    const serial = compile('bh_recip_fast_7b_nomacro.sfpu', 'blackhole');
    setup(serial.m, k, new Array(N).fill(0x40000000));
    const rs = runTimed(serial.m.state, serial.prog, {});
    const loads: number[] = [];
    for (let i = 0; i < serial.prog.length; i++) {
      if (serial.prog.code[i * STRIDE + S.OP] === Op.LOAD) loads.push(rs.issueCycle[i]!);
    }
    assert.equal(loads.length, 8);
    assert.ok(diffs(loads).every((d) => d >= 3));
    // and the whole face: 8 rows of 32 in 8 issue cycles vs 24
    assert.equal(rm.busy.store, 8);
    assert.ok(rs.cycles - rm.cycles >= 8);
  });
});

describe('wh_reduce_col_max (no DISABLE form): column maxima of a tile', () => {
  /** SFPSWAP's order (SFPSWAP.md): sign-magnitude, -Inf < … < -0 < +0 < … < +Inf. */
  const greater = (a: number, b: number) => {
    const sa = a >>> 31;
    const sb = b >>> 31;
    if (sa !== sb) return sa === 0;
    const ma = a & 0x7fffffff;
    const mb = b & 0x7fffffff;
    return sa === 0 ? ma > mb : ma < mb;
  };
  // finite normals, ±0 and ±Inf (FP32 loads flush denormals; NaNs are left out of this check)
  const elem = fc.oneof(
    fc.constantFrom(0, 0x80000000, 0x7f800000, 0xff800000),
    fc.integer({ min: 0x00800000, max: 0x7f7fffff }),
    fc.integer({ min: 0x80800000, max: 0xff7fffff }),
  );
  it('row 0 of faces 0 and 1 holds each column maximum; no hazard', () => {
    const { m, prog } = compile('wh_reduce_col_max.sfpu', 'wormhole');
    fc.assert(
      fc.property(fc.array(elem, { minLength: 1024, maxLength: 1024 }), (tile) => {
        m.reset();
        m.configure({ sfpuFp32: true });
        m.writeDstTile(0, tile, 'fp32');
        const r = runTimed(m.state, prog, { hazards: 'strict' });
        assert.equal(r.discarded, 0);
        const out = m.readDstTile(0, 'fp32');
        for (let c = 0; c < 32; c++) {
          let mx = tile[c]! >>> 0;
          for (let row = 1; row < 32; row++)
            if (greater(tile[row * 32 + c]! >>> 0, mx)) mx = tile[row * 32 + c]! >>> 0;
          assert.equal(out[c], mx, `column ${c}`);
        }
      }),
      { numRuns: 30, seed: 9 },
    );
  });
});
