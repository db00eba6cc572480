import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { createTile, execute, Tile } from './index.ts';

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
        (xs, ys, vr, vc, callerBytes) => {
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
          execute(op, { dst: d, src0: a, src1: b });
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
