import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { createTile, execute, prepare, Tile } from './index.ts';
import { simdF32At } from './simd.ts';

// The f32 TADD/TSUB/TMUL fast paths (WebAssembly SIMD on pooled tiles, JS loops otherwise) must give
// the binary32 result of the C++ float operation: Math.fround of the double result, which is exact
// for one + - * of two floats. NaN compares as any NaN.
const f32 = fc.oneof(
  fc.float({ noDefaultInfinity: false }),
  fc.constantFrom(0, -0, 1.4e-45, -1.4e-45, 1.1754942e-38, 3.4028234663852886e38, Number.NaN),
);

for (const [op, f] of [
  ['TADD', (a: number, b: number) => a + b],
  ['TSUB', (a: number, b: number) => a - b],
  ['TMUL', (a: number, b: number) => a * b],
  ['TDIV', (a: number, b: number) => a / b],
] as const) {
  test(`${op} f32 fast paths match the binary32 operation`, () => {
    fc.assert(
      fc.property(
        fc.array(f32, { minLength: 64, maxLength: 64 }),
        fc.array(f32, { minLength: 64, maxLength: 64 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 16 }),
        fc.boolean(),
        fc.boolean(),
        (xs, ys, vr, vc, callerBytes, prepared) => {
          const mk = (v: number[]) => {
            if (!callerBytes) return createTile({ dtype: 'f32', rows: 4, cols: 16 }, Float32Array.from(v));
            const b = new Uint8Array(Float32Array.from(v).buffer);
            return new Tile({ dtype: 'f32', rows: 4, cols: 16 }, b);
          };
          const a = mk(xs);
          const b = mk(ys);
          const d = createTile(
            { dtype: 'f32', rows: 4, cols: 16, validRow: vr, validCol: vc },
            new Float32Array(64).fill(7),
          );
          // a prepared instruction runs the op's specialised form (one kernel call when contiguous)
          if (prepared) prepare(op, { dst: d, src0: a, src1: b }).run();
          else execute(op, { dst: d, src0: a, src1: b });
          const got = d.f32();
          for (let r = 0; r < 4; r++) {
            for (let c = 0; c < 16; c++) {
              const i = r * 16 + c;
              const want = r < vr && c < vc ? Math.fround(f(Math.fround(xs[i]!), Math.fround(ys[i]!))) : 7;
              if (Number.isNaN(want)) assert.ok(Number.isNaN(got[i]!), `${op} (${r},${c})`);
              else assert.ok(Object.is(got[i], want), `${op} (${r},${c}): ${got[i]} vs ${want}`);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
}

// The kernel runs 256-byte, 64-byte and 16-byte blocks, then single elements, forwards and (every
// other call) backwards: every length from 0 to 300 elements in both directions, at element offsets
// that put the three arrays at different alignments, must give Math.fround of the double result
// everywhere in [0, n) and leave everything outside it untouched.
test('the f32 SIMD kernels are exact at every length and offset', () => {
  const ops = [
    (x: number, y: number) => x + y,
    (x: number, y: number) => x - y,
    (x: number, y: number) => x * y,
    (x: number, y: number) => x / y,
  ] as const;
  const mk = (seed: number) =>
    createTile(
      { dtype: 'f32', rows: 1, cols: 320 },
      Float32Array.from({ length: 320 }, (_, i) => (((i + 1) * seed) % 101) / 8 - 6 + (i % 7) * 1e-3),
    );
  const a = mk(7);
  const b = mk(13);
  const d = mk(1);
  assert.ok(a.poolAddr >= 0 && b.poolAddr >= 0 && d.poolAddr >= 0, 'tiles in the SIMD pool');
  const av = a.f32();
  const bv = b.f32();
  const dv = d.f32();
  for (let op = 0; op < 4; op++) {
    for (let n = 0; n <= 300; n++) {
      const od = n % 5;
      const oa = (n * 3) % 7;
      const ob = (n * 5) % 11;
      for (let turn = 0; turn < 2; turn++) {
        dv.fill(-99);
        simdF32At(op as 0 | 1 | 2 | 3, d.poolAddr + 4 * od, a.poolAddr + 4 * oa, b.poolAddr + 4 * ob, n);
        for (let i = 0; i < 320; i++) {
          const want =
            i >= od && i < od + n ? Math.fround(ops[op]!(av[oa + i - od]!, bv[ob + i - od]!)) : -99;
          if (!Object.is(dv[i], want))
            assert.fail(`op ${op} n ${n} turn ${turn} element ${i}: ${dv[i]} vs ${want}`);
        }
      }
    }
  }
});

// d may start inside a (PTO-AS tiles at explicit addresses can overlap): then the result depends on
// the order, and the kernel must always run forwards, four elements at a time in ascending order,
// then the last n % 4 one by one, as before it ran backwards on other calls. d == a (in place) may
// run either way. Checked against that order written out here, on both turns.
test('the f32 SIMD kernels keep the forward order when d overlaps a source', () => {
  const t = createTile({ dtype: 'f32', rows: 1, cols: 512 });
  const b = createTile(
    { dtype: 'f32', rows: 1, cols: 512 },
    Float32Array.from({ length: 512 }, (_, i) => (i % 13) - 6),
  );
  const mem = t.f32();
  const bv = b.f32();
  for (const shift of [-9, -4, -1, 0, 1, 3, 4, 5, 17, 64, 65]) {
    for (const n of [7, 64, 100, 203]) {
      for (let turn = 0; turn < 2; turn++) {
        const init = Float32Array.from({ length: 512 }, (_, i) => ((i * 7) % 29) - 14);
        const oa = 100;
        const od = oa + shift;
        const want = Float32Array.from(init);
        let i = 0;
        for (; i + 4 <= n; i += 4) {
          const x = [0, 1, 2, 3].map((k) => Math.fround(want[oa + i + k]! + bv[i + k]!));
          for (let k = 0; k < 4; k++) want[od + i + k] = x[k]!;
        }
        for (; i < n; i++) want[od + i] = Math.fround(want[oa + i]! + bv[i]!);
        mem.set(init);
        simdF32At(0, t.poolAddr + 4 * od, t.poolAddr + 4 * oa, b.poolAddr, n);
        assert.deepEqual(mem, want, `shift ${shift} n ${n} turn ${turn}`);
      }
    }
  }
});

// Pool blocks are recycled only when no view of them is reachable: a caller keeping `tile.bytes`
// or `tile.f32()` after dropping the tile must never see the block handed to another tile.
test('pooled buffers stay valid while any view of them is reachable', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const keepBytes = createTile({ dtype: 'f32', rows: 4, cols: 16 }, new Float32Array(64).fill(3)).bytes;
  const keepF32 = createTile({ dtype: 'f32', rows: 4, cols: 16 }, new Float32Array(64).fill(5)).f32();
  for (let round = 0; round < 3; round++) {
    gc();
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 200; i++)
      createTile({ dtype: 'f32', rows: 4, cols: 16 }, new Float32Array(64).fill(-1));
  }
  assert.ok(new Float32Array(keepBytes.buffer, keepBytes.byteOffset, 64).every((x) => x === 3));
  assert.ok(keepF32.every((x) => x === 5));
});
