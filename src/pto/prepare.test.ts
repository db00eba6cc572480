import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import { createTile, execute, prepare, type Tile } from './index.ts';

// prepare(name, operands, attrs, opts).run() must do exactly what execute(...) does with the same
// arguments: same bytes in every written tile, same errors, fresh reads of the sources on every run,
// and a new validation when a valid region changes after prepare.

type Case = {
  name: string;
  dtype: 'f32' | 'i32' | 'f16';
  rows: number;
  cols: number;
  vr: number;
  vc: number;
  profile: 'cpu' | 'a2a3' | 'a5';
  scalar: number;
  seeds: number[][];
};

const arbCase = fc
  .record({
    name: fc.constantFrom('TADD', 'TSUB', 'TMUL', 'TDIV', 'TMAX', 'TADDS', 'TMULS', 'TEXP', 'TABS'),
    dtype: fc.constantFrom('f32', 'i32', 'f16') as fc.Arbitrary<'f32' | 'i32' | 'f16'>,
    rows: fc.integer({ min: 1, max: 8 }),
    cols: fc.constantFrom(8, 16, 32),
    profile: fc.constantFrom('cpu', 'a2a3', 'a5') as fc.Arbitrary<'cpu' | 'a2a3' | 'a5'>,
    scalar: fc.integer({ min: -5, max: 5 }),
  })
  .chain((c) =>
    fc
      .record({
        vr: fc.integer({ min: 1, max: c.rows }),
        vc: fc.integer({ min: 1, max: c.cols }),
        seeds: fc.array(
          fc.array(fc.integer({ min: -64, max: 64 }), {
            minLength: c.rows * c.cols,
            maxLength: c.rows * c.cols,
          }),
          {
            minLength: 3,
            maxLength: 3,
          },
        ),
      })
      .map((v) => ({ ...c, ...v }) as Case),
  );

function tiles(c: Case): Record<string, Tile> {
  const mk = (k: number) =>
    createTile(
      { dtype: c.dtype, rows: c.rows, cols: c.cols, validRow: c.vr, validCol: c.vc },
      c.seeds[k]!.map((v) => (c.dtype === 'i32' ? v : v / 8)),
    );
  const unary = c.name === 'TADDS' || c.name === 'TMULS' || c.name === 'TEXP' || c.name === 'TABS';
  return unary ? { dst: mk(0), src: mk(1) } : { dst: mk(0), src0: mk(1), src1: mk(2) };
}

function clone(ts: Record<string, Tile>): Record<string, Tile> {
  return Object.fromEntries(Object.entries(ts).map(([k, t]) => [k, t.clone()]));
}

/** The outcome of running f: the error's kind and message, or null. */
function outcome(f: () => void): string | null {
  try {
    f();
    return null;
  } catch (e) {
    assert.ok(e instanceof AxsimError, `not an AxsimError: ${String(e)}`);
    return `${e.category}: ${e.message}`;
  }
}

test('prepare(...).run() equals execute(...) on random ops, types, shapes, valid regions, profiles', () => {
  fc.assert(
    fc.property(arbCase, (c) => {
      const attrs = c.name.endsWith('S') && c.name !== 'TABS' ? { scalar: c.scalar } : {};
      const a = tiles(c);
      const b = clone(a);
      const opts = { profile: c.profile };
      const viaExecute = outcome(() => execute(c.name, a, attrs, opts));
      let p: ReturnType<typeof prepare> | undefined;
      const viaPrepare = outcome(() => {
        p = prepare(c.name, b, attrs, opts);
        p.run();
      });
      assert.equal(viaPrepare, viaExecute);
      for (const k of Object.keys(a)) assert.deepEqual(b[k]!.bytes, a[k]!.bytes, k);
      if (p === undefined || viaExecute !== null) return;
      // a second run reads the sources' new contents
      for (const k of Object.keys(a)) {
        if (k === 'dst') continue;
        a[k]!.bytes.reverse();
        b[k]!.bytes.reverse();
      }
      assert.equal(
        outcome(() => p!.run()),
        outcome(() => execute(c.name, a, attrs, opts)),
      );
      for (const k of Object.keys(a)) assert.deepEqual(b[k]!.bytes, a[k]!.bytes, k);
    }),
    { numRuns: 400 },
  );
});

test('a valid region changed after prepare is validated and used on the next run', () => {
  const mk = () =>
    createTile(
      { dtype: 'f32', rows: 4, cols: 8 },
      Array.from({ length: 32 }, (_, i) => i),
    );
  const a = { dst: mk(), src0: mk(), src1: mk() };
  const b = { dst: mk(), src0: mk(), src1: mk() };
  const p = prepare('TADD', b);
  for (const t of [a, b]) t.dst.setValid(2, 3);
  p.run();
  execute('TADD', a);
  assert.deepEqual(b.dst.bytes, a.dst.bytes);
  // dst rows 2..3 keep their old values: only the 2x3 valid region was written
  assert.equal(new Float32Array(b.dst.bytes.buffer, b.dst.bytes.byteOffset, 32)[2 * 8], 16);
  assert.equal(new Float32Array(b.dst.bytes.buffer, b.dst.bytes.byteOffset, 32)[1 * 8 + 2], 20);
});

test('prepare reports the errors execute reports, before any run', () => {
  const t = createTile({ dtype: 'f32', rows: 4, cols: 8 });
  assert.throws(() => prepare('TADDD', { dst: t, src0: t, src1: t }), /unknown PTO instruction 'TADDD'/);
  assert.throws(() => prepare('TADD', { dst: t, src0: t }), /missing operand 'src1'/);
  const u = createTile({ dtype: 'f32', rows: 8, cols: 8 });
  assert.throws(() => prepare('TADD', { dst: t, src0: t, src1: u }), /same tile type/);
});
