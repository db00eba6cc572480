import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import {
  DTYPES,
  execute,
  GlobalTensor,
  type NamedLayout,
  OPS,
  type Operand,
  type Profile,
  Tile,
} from './index.ts';
import { namedLayout } from './tile.ts';

// Any instruction on any operands, attributes and profile either runs or raises an AxsimError —
// never a TypeError / RangeError (working agreement: no crash on bad input).
const ops = [...OPS.values()];
const LAYOUTS: NamedLayout[] = ['RM', 'CM', 'LEFT', 'RIGHT', 'ACC', 'BIAS'];

const tileArb = fc
  .record({
    dtype: fc.constantFrom(...DTYPES),
    layout: fc.constantFrom(...LAYOUTS),
    rows: fc.constantFrom(1, 2, 4, 8, 16, 32),
    cols: fc.constantFrom(1, 8, 16, 32, 64),
    vr: fc.double({ min: 0, max: 1, noNaN: true }),
    vc: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer({ min: 0, max: 255 }),
  })
  .map((s): Tile | null => {
    try {
      const t = new Tile({
        dtype: s.dtype,
        rows: s.rows,
        cols: s.cols,
        validRow: Math.round(s.vr * s.rows),
        validCol: Math.round(s.vc * s.cols),
        ...namedLayout(s.layout),
      });
      for (let i = 0; i < t.bytes.length; i++) t.bytes[i] = (i * 37 + s.seed) & 0xff;
      return t;
    } catch (e) {
      if (e instanceof AxsimError) return null;
      throw e;
    }
  });

const globalArb = fc
  .record({
    dtype: fc.constantFrom(...DTYPES),
    rows: fc.integer({ min: 1, max: 8 }),
    cols: fc.integer({ min: 1, max: 40 }),
    dn: fc.boolean(),
  })
  .map(
    (g) =>
      new GlobalTensor(
        g.dtype,
        [1, 1, 1, g.rows, g.cols],
        [1, 1, 1, g.dn ? 1 : g.cols, g.dn ? g.rows : 1],
        g.dn ? 'DN' : 'ND',
      ),
  );

const attrArb = fc.record({
  scalar: fc.oneof(fc.double(), fc.integer(), fc.constant(undefined)),
  cmpMode: fc.constantFrom('EQ', 'NE', 'LT', 'LE', 'GT', 'GE', 'XX', 7),
  roundMode: fc.constantFrom('CAST_RINT', 'CAST_ODD', 'CAST_NONE', 'CAST_FLOOR', 'bogus', 3),
  satMode: fc.constantFrom('ON', 'OFF'),
  order: fc.constantFrom('scalar_first', 'tile_first'),
});

test('random instructions never escape with a non-AxsimError', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...ops),
      fc.array(tileArb, { minLength: 6, maxLength: 6 }),
      globalArb,
      attrArb,
      fc.constantFrom<Profile>('cpu', 'a2a3', 'a5'),
      fc.boolean(),
      (op, tiles, g, attrs, profile, sameShape) => {
        const operands: Record<string, Operand> = {};
        let k = 0;
        for (const spec of op.operands) {
          if (spec.kind === 'global') operands[spec.name] = g;
          else {
            const t = tiles[k++] ?? null;
            if (t) operands[spec.name] = sameShape && k > 1 && tiles[0] ? tiles[0].clone() : t;
          }
        }
        try {
          execute(op.name, operands, attrs, { profile });
        } catch (e) {
          if (!(e instanceof AxsimError)) throw e;
          assert.notEqual(e.category, 'Internal', e.message);
        }
      },
    ),
    { numRuns: 3000 },
  );
});
