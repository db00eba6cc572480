import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ARCHES, instructionSet } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { archTables, assemble, disassemble, type MacroArg } from './index.ts';

const dir = fileURLToPath(new URL('../../../examples/tensix/', import.meta.url));

/** Words each example must produce (counted from its source: statements x .rept counts). */
const EXPECTED: Record<string, { count: number; first: number[] }> = {
  // SFPENCC(3,0,0,EI_RI=10) = 0x8a00300a; SFPLOAD(L0, FP32=3, ADDR_MOD_3, 0) = 0x70<<24 | 3<<16 | 3<<14
  'relu.sfpu': { count: 1 + 32 * 6 + 1, first: [0x8a00300a, 0x7003c000, 0x7b000000, 0x71020000, 0x8a000000] },
  // SFPABS(0, L0, L0, FLOAT=1) = 0x7d000001
  'abs.sfpu': { count: 32 * 4, first: [0x7003c000, 0x7d000001, 0x7203c000] },
  // SFPLOAD INT32=4; SFPSHFT(1, 0, L0, 1) = 0x7a001001; SFPIADD(5, L0, L0, 1|4) = 0x79005005
  'int_scale_add.sfpu': { count: 32 * 5, first: [0x7004c000, 0x7a001001, 0x79005005, 0x7204c000] },
  // 8 loads, 2 x (SFPTRANSP + 6 SFPADD + 3 SFPNOP), 2 stores; SFPLOAD L1 at 4 = 0x7013c004
  'reduce_rows_sum.sfpu': { count: 8 + 2 * 10 + 2, first: [0x7003c000, 0x7013c004] },
};

/** The archs an example is for: `bh_…` Blackhole only, `wh_…` Wormhole only, others both. */
const archsOf = (f: string) =>
  f.startsWith('bh_') ? ['blackhole' as const] : f.startsWith('wh_') ? ['wormhole' as const] : ARCHES;

describe('examples/tensix', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.sfpu'));
  it('has the documented examples', () => {
    for (const f of Object.keys(EXPECTED)) assert.ok(files.includes(f), `examples/tensix/${f} is missing`);
  });
  for (const [f, e] of Object.entries(EXPECTED)) {
    it(`${f} gives the expected words`, () => {
      const r = assemble(readFileSync(dir + f, 'utf8'), 'wormhole', { file: f });
      assert.equal(r.words.length, e.count);
      assert.deepEqual([...r.words.slice(0, e.first.length)], e.first);
    });
  }
  for (const f of files) {
    for (const arch of archsOf(f)) {
      it(`${f} assembles on ${arch} without warnings and round-trips`, () => {
        const r = assemble(readFileSync(dir + f, 'utf8'), arch, { file: f });
        assert.ok(r.words.length > 0);
        assert.deepEqual(r.warnings, []);
        assert.deepEqual(assemble(disassemble(r.words, arch).join('\n'), arch).words, r.words);
      });
    }
  }
});

describe('macro table vs encoding table', () => {
  for (const arch of ARCHES) {
    it(`every ${arch} encoding field is the tt-llk macro argument of the same name at the same bit`, () => {
      const macros = archTables(arch).macros;
      const norm = (s: string) => s.replace(/_/g, '').toLowerCase();
      for (const def of instructionSet(arch)) {
        const m = macros.get(def.name);
        assert.ok(m, `no TT_OP_${def.name} in ckernel_ops.h data`);
        assert.equal(m.opcode, def.opcode, def.name);
        for (const f of def.fields) {
          const a: MacroArg | undefined = m.args.find((x) => norm(x.name) === norm(f.name));
          assert.ok(a, `${def.name}.${f.name} is not an argument of TT_OP_${def.name}`);
          assert.equal(a.shift, f.lo, `${def.name}.${f.name}`);
          assert.ok(a.width >= f.width, `${def.name}.${f.name}: macro argument narrower than the field`);
        }
      }
    });
  }
});

const f32bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const bitsf32 = (b: number) => new Float32Array(new Uint32Array([b]).buffer)[0]!;

/** Runs an example on a 32x32 tile (row-major, 1024 elements) and returns the tile afterwards. */
function runExample(
  file: string,
  arch: (typeof ARCHES)[number],
  tile: Uint32Array,
  fmt: string,
): Uint32Array {
  const m = new TensixMachine(arch);
  m.configure({ sfpuFp32: true });
  m.writeDstTile(0, tile, fmt);
  m.run(assemble(readFileSync(dir + file, 'utf8'), arch, { file }).words);
  return m.readDstTile(0, fmt);
}

describe('examples/tensix run (end to end with the executor)', () => {
  // finite values of both signs, and -0; expected results from the functions' definitions
  const xs = Float32Array.from({ length: 1024 }, (_, k) => (k === 5 ? -0 : ((k * 37) % 201) / 8 - 12.5));
  const tile = new Uint32Array(xs.buffer);
  for (const arch of ARCHES) {
    it(`relu.sfpu computes max(x, 0) (and +0 for -0) on ${arch}`, () => {
      const out = runExample('relu.sfpu', arch, tile, 'fp32');
      assert.deepEqual(
        [...out],
        [...xs].map((x) => (x < 0 || Object.is(x, -0) ? 0 : f32bits(x))),
      );
    });
    it(`abs.sfpu clears the sign on ${arch}`, () => {
      const out = runExample('abs.sfpu', arch, tile, 'fp32');
      assert.deepEqual(
        [...out],
        [...tile].map((b) => (b & 0x7fffffff) >>> 0),
      );
    });
    it(`int_scale_add.sfpu computes (x << 1) + 5, wrapping, on ${arch}`, () => {
      const ints = Uint32Array.from({ length: 1024 }, (_, k) => (k * 0x9e3779b1) >>> 0);
      ints[0] = 0x80000000;
      ints[1] = 0x7fffffff;
      const out = runExample('int_scale_add.sfpu', arch, ints, 'int32');
      assert.deepEqual(
        [...out],
        [...ints].map((x) => ((x << 1) + 5) >>> 0),
      );
    });
    it(`reduce_rows_sum.sfpu sums each column of face 0 into row 0 on ${arch}`, () => {
      const out = runExample('reduce_rows_sum.sfpu', arch, tile, 'fp32');
      const add = (a: number, b: number) => Math.fround(a + b); // SFPADD: a * 1.0 + b, one rounding
      for (let c = 0; c < 16; c++) {
        const row = (r: number) => xs[r * 32 + c]!;
        // the order the kernel adds in: rows 4j..4j+3 first, then the four partial sums
        const part = [0, 1, 2, 3].map((j) =>
          add(add(add(row(4 * j), row(4 * j + 1)), row(4 * j + 2)), row(4 * j + 3)),
        );
        const total = add(add(add(part[0]!, part[1]!), part[2]!), part[3]!);
        assert.equal(bitsf32(out[c]!), total, `column ${c}`);
      }
      // rows 4..15 of face 0 and the other faces are untouched
      for (let r = 4; r < 32; r++)
        for (let c = 0; c < 32; c++) assert.equal(out[r * 32 + c], tile[r * 32 + c]);
    });
  }
});
