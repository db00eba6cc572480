/**
 * The instructions added in session 3 with random operands, attributes and profiles: each call
 * returns or raises an AxsimError, never a TypeError / RangeError and never the Internal category
 * (working agreement: no crash on bad input). Small tiles keep the run fast.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import { createTile, execute, GlobalTensor, OPS, type Operand, type Profile, type Tile } from './index.ts';
import type { TileSpec } from './tile.ts';

const NAMES = [
  'TSORT32',
  'TMRGSORT',
  'MGATHER',
  'MSCATTER',
  'TGATHER',
  'TROWARGMAX',
  'TCOLARGMIN',
  'TPARTMUL',
  'TPARTARGMAX',
  'TCONCAT',
  'TINTERLEAVE',
  'TDEINTERLEAVE',
  'TTRI',
  'TINSERT',
  'TEXTRACT_FP',
  'TINSERT_FP',
  'TFILLPAD_INPLACE',
  'TPAIRREDUCESUM',
  'THISTOGRAM',
  'TPREFETCH',
  'TQUANT',
  'TDEQUANT',
  'TGEMV_MX',
  'TFUSEDMULADDRELU',
  'TADDRELUCONV',
  'TADDDEQRELU',
  'TRANDOM',
  'TRESHAPE',
  'TIMG2COL',
];

const DTYPES = [
  'f32',
  'f16',
  'bf16',
  'i8',
  'u8',
  'i16',
  'u16',
  'i32',
  'u32',
  'i64',
  'u64',
  'f8e4m3',
] as const;
const LAYOUTS = ['RM', 'CM', 'LEFT', 'RIGHT', 'ACC', 'BIAS'] as const;

const tileArb = fc
  .record({
    dtype: fc.constantFrom(...DTYPES),
    layout: fc.constantFrom(...LAYOUTS),
    rows: fc.constantFrom(1, 2, 4, 16),
    cols: fc.constantFrom(1, 4, 8, 32, 64),
    vr: fc.double({ min: 0, max: 1, noNaN: true }),
    vc: fc.double({ min: 0, max: 1, noNaN: true }),
    pad: fc.constantFrom('null', 'zero', 'max'),
    seed: fc.integer({ min: 0, max: 255 }),
  })
  .map((s): Tile | null => {
    try {
      const t = createTile({
        dtype: s.dtype,
        rows: s.rows,
        cols: s.cols,
        layout: s.layout,
        pad: s.pad as TileSpec['pad'],
        validRow: Math.round(s.vr * s.rows),
        validCol: Math.round(s.vc * s.cols),
      });
      for (let i = 0; i < t.bytes.length; i++) t.bytes[i] = (i * 29 + s.seed) & 0xff;
      return t;
    } catch (e) {
      if (e instanceof AxsimError) return null;
      throw e;
    }
  });

const globalArb = fc
  .record({
    dtype: fc.constantFrom(...DTYPES),
    rows: fc.integer({ min: 1, max: 6 }),
    cols: fc.integer({ min: 1, max: 40 }),
  })
  .map((g) => new GlobalTensor(g.dtype, [1, 1, 1, g.rows, g.cols], [1, 1, 1, g.cols, 1]));

const attrArb = fc.record(
  {
    blockLen: fc.constantFrom(0, 2, 4, 64, -1, 1.5, 'x'),
    exhausted: fc.constantFrom(true, false, 'true', 3),
    coalesce: fc.constantFrom('row', 'elem', 'diag'),
    oob: fc.constantFrom('undefined', 'clamp', 'wrap', 'zero', 'skip', 'nope'),
    atomic: fc.constantFrom('none', 'add', 'max', 'min', 'xor'),
    conflict: fc.constantFrom('last', 'default'),
    cmpMode: fc.constantFrom('GT', 'EQ', 'LT'),
    offset: fc.constantFrom(0, 5, -3, 2 ** 33),
    diagonal: fc.constantFrom(0, 2, -5, 1.5),
    upper: fc.constantFrom(true, false, 2),
    indexRow: fc.constantFrom(0, 1, 3, 70000),
    indexCol: fc.constantFrom(0, 2, 9),
    byte: fc.constantFrom(0, 1, 2, 3, 4),
    quantType: fc.constantFrom('INT8_SYM', 'INT8_ASYM', 'MXFP8', 'zz'),
    deqScale: fc.constantFrom(0.5, Number.NaN, 'a'),
    rounds: fc.constantFrom(7, 10, 8),
    posM: fc.constantFrom(0, 3),
    posK: fc.constantFrom(0, 5),
    conv: fc.constantFrom(
      undefined,
      {
        layout: 'NC1HWC0',
        shape: [1, 1, 3, 3, 2],
        stride: [1, 1],
        dilation: [1, 1],
        filter: [2, 2],
        pad: [0, 0, 1, 0],
      },
      {
        layout: 'NDC1HWC0',
        shape: [1, 2, 1, 2, 2, 4],
        stride: [2, 1],
        dilation: [1, 2],
        filter: [1, 1],
        pad: [1, 1, 1, 1],
      },
      { layout: 'NC1HWC0', shape: [1, 1], stride: [1, 1] },
    ),
    scalar: fc.constantFrom(undefined, 0, 7),
  },
  { requiredKeys: [] },
);

test('session-3 instructions with random operands: a result or an AxsimError, never Internal', () => {
  const ops = NAMES.map((n) => OPS.get(n)!);
  assert.ok(ops.every((o) => o !== undefined));
  fc.assert(
    fc.property(
      fc.constantFrom(...ops),
      fc.array(tileArb, { minLength: 7, maxLength: 7 }),
      globalArb,
      attrArb,
      fc.constantFrom<Profile>('cpu', 'a2a3', 'a5'),
      (op, tiles, g, attrs, profile) => {
        const operands: Record<string, Operand> = {};
        let k = 0;
        for (const spec of op.operands) {
          if (spec.kind === 'global') operands[spec.name] = g;
          else {
            const t = tiles[k++];
            if (t) operands[spec.name] = t;
          }
        }
        try {
          execute(op.name, operands, attrs, { profile });
        } catch (e) {
          if (!(e instanceof AxsimError)) throw e;
          assert.notEqual(e.category, 'Internal', `${op.name}: ${e.message}`);
        }
      },
    ),
    { numRuns: 4000 },
  );
});

// Mostly well-formed calls, so the execute paths (not only the checks) see random shapes and valid
// regions: data operands share one element type from the op's list, index-like operands are 32-bit
// integer tiles, everything is a RowMajor vec tile.
const INDEX_LIKE = /idx|Idx|indices|indexes|offset|kValue|cdst|executed|key|counter/;

test('session-3 instructions with mostly well-formed random operands: never Internal', () => {
  const ops = NAMES.map((n) => OPS.get(n)!);
  const shapeArb = fc.record({
    rows: fc.constantFrom(1, 2, 3),
    cols: fc.constantFrom(8, 32, 64),
    vr: fc.double({ min: 0, max: 1, noNaN: true }),
    vc: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer({ min: 0, max: 255 }),
  });
  fc.assert(
    fc.property(
      fc.constantFrom(...ops),
      fc.nat(),
      fc.array(shapeArb, { minLength: 7, maxLength: 7 }),
      fc.boolean(),
      attrArb,
      fc.constantFrom<Profile>('cpu', 'a2a3', 'a5'),
      (op, pick, shapes, idx16, attrs, profile) => {
        const list = op.dtypes[profile].length ? op.dtypes[profile] : op.dtypes.cpu;
        const dtype = list[pick % list.length]!;
        const operands: Record<string, Operand> = {};
        let k = 0;
        for (const spec of op.operands) {
          if (spec.kind === 'global') {
            operands[spec.name] = new GlobalTensor(dtype, [1, 1, 1, 4, 64], [1, 1, 1, 64, 1]);
            continue;
          }
          const s = shapes[k++]!;
          const dt = INDEX_LIKE.test(spec.name)
            ? idx16
              ? 'u16'
              : 'u32'
            : spec.name === 'fp'
              ? 'u64'
              : dtype;
          const t = createTile({
            dtype: dt,
            rows: s.rows,
            cols: s.cols,
            validRow: Math.round(s.vr * s.rows),
            validCol: Math.round(s.vc * s.cols),
          });
          for (let i = 0; i < t.bytes.length; i++) t.bytes[i] = (i * 41 + s.seed) & 0x3f;
          operands[spec.name] = t;
        }
        try {
          execute(op.name, operands, attrs, { profile });
        } catch (e) {
          if (!(e instanceof AxsimError)) throw e;
          assert.notEqual(e.category, 'Internal', `${op.name}: ${e.message}`);
        }
      },
    ),
    { numRuns: 3000 },
  );
});
