import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../../errors.ts';
import { formulaCost, ptoIsaCost, seedCost } from './index.ts';
import type { CostInput } from './types.ts';

const OPS = [
  'TADD',
  'TSUB',
  'TMUL',
  'TDIV',
  'TMAX',
  'TMIN',
  'TEXP',
  'TLOG',
  'TSQRT',
  'TRSQRT',
  'TABS',
  'TRELU',
  'TNOT',
  'TADDS',
  'TSUBS',
  'TMULS',
  'TMAXS',
  'TMINS',
  'TNEG',
  'TDIVS',
  'TRECIP',
  'TCMP',
  'TCMPS',
  'TSEL',
  'TSELS',
  'TCVT',
  'TROWSUM',
  'TROWMAX',
  'TROWMIN',
  'TCOLSUM',
  'TCOLMAX',
  'TCOLMIN',
  'TROWEXPAND',
  'TROWEXPANDADD',
  'TROWEXPANDSUB',
  'TROWEXPANDMUL',
  'TROWEXPANDDIV',
  'TTRANS',
  'TLOAD',
  'TSTORE',
  'TMATMUL',
  'TMATMUL_ACC',
  'TAND',
  'TFOO',
];
const DTYPES = ['f32', 'f16', 'i32', 'i16', 'i8', 'u8', 'u16', 'u32', 'bf16', 'i64', 'f8e4m3'];
const DIMS = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 65, 100, 127, 128, 255, 256, 257, 300, 512, 1000];

test('random cost inputs give a finite non-negative cycle count or an AxsimError (never a crash)', () => {
  let x = 12345;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  let priced = 0;
  for (let n = 0; n < 5000; n++) {
    const rows = pick(DIMS);
    const cols = pick(DIMS);
    const inp: CostInput = {
      op: pick(OPS),
      dtype: pick(DTYPES),
      rows,
      cols,
      validRow: Math.min(rows, pick(DIMS)),
      validCol: Math.min(cols, pick(DIMS)),
      layout: pick(['RM', 'RM', 'CM']),
      dstDtype: pick(DTYPES),
      roundMode: pick(['CAST_RINT', 'CAST_TRUNC', 'CAST_ODD']),
      M: pick(DIMS),
      K: pick(DIMS),
      N: pick(DIMS),
      accDtype: pick(['f32', 'i32']),
      cmpMode: pick(['EQ', 'NE', 'LT', 'GE']),
      form: pick(['', 'tmp,isBinary=true', 'tmp,isBinary=false']),
      gm: pick(['ND contiguous', 'ND row stride 300', 'DN']),
      tileType: pick(['VecTile', 'MatTile', 'Unknown']),
      elements: pick(DIMS),
    };
    for (const f of [
      () => ptoIsaCost(inp),
      () => formulaCost(inp, 'a2a3'),
      () => formulaCost(inp, 'a5'),
      () => seedCost(inp),
    ]) {
      try {
        const r = f();
        assert.ok(Number.isFinite(r.cycles) && r.cycles >= 0, JSON.stringify(inp));
        priced++;
      } catch (e) {
        if (!(e instanceof AxsimError) || e.category === 'Internal') throw e;
      }
    }
  }
  assert.ok(priced > 1000);
});
