import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { AxsimError } from '../errors.ts';
import { createTile, execute, prepare, type Tile } from './index.ts';

// `execute` remembers its last binding per instruction name and reuses it when called again on
// the same tiles (registry.ts LastCall). Every call must still do what a fresh validation and run
// does — here `prepare(...).run()` made anew for each call, which never uses that memory — with the
// same errors, whatever the sequence: other tiles, a changed valid region, an operand too many or
// missing, attributes, options, tiles whose contents changed.

type Step = {
  name: 'TADD' | 'TSUB' | 'TMUL' | 'TMAX' | 'TEXP' | 'TADDS';
  ops: number[];
  extra: 'none' | 'unknown' | 'missing';
  setValid: [number, number, number] | null;
  opts: 'none' | 'cpu' | 'a5' | 'zero';
  poke: number;
};

const step: fc.Arbitrary<Step> = fc.record({
  name: fc.constantFrom('TADD', 'TSUB', 'TMUL', 'TMAX', 'TEXP', 'TADDS'),
  // indices into the tile pool (0-3 are 4x16 f32, 4 is 4x16 i32, 5 is 2x16 f32)
  ops: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 3, maxLength: 3 }),
  extra: fc.constantFrom('none', 'none', 'none', 'unknown', 'missing'),
  setValid: fc.option(
    fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom(16, 16, 5)),
    {
      freq: 4,
    },
  ),
  opts: fc.constantFrom('none', 'none', 'cpu', 'a5', 'zero'),
  poke: fc.integer({ min: 0, max: 5 }),
});

function pool(): Tile[] {
  const data = (k: number) => Array.from({ length: 64 }, (_, i) => ((i * (k + 3)) % 29) / 4 - 3);
  return [
    ...[0, 1, 2, 3].map((k) => createTile({ dtype: 'f32', rows: 4, cols: 16 }, data(k))),
    createTile({ dtype: 'i32', rows: 4, cols: 16 }, data(4).map(Math.round)),
    createTile({ dtype: 'f32', rows: 2, cols: 16 }, data(5).slice(0, 32)),
  ];
}

function outcome(f: () => void): string | null {
  try {
    f();
    return null;
  } catch (e) {
    assert.ok(e instanceof AxsimError, `not an AxsimError: ${String(e)}`);
    return `${e.category}: ${e.message}`;
  }
}

function call(s: Step, ts: Tile[], fresh: boolean): string | null {
  const unary = s.name === 'TEXP' || s.name === 'TADDS';
  const ops: Record<string, Tile> = unary
    ? { dst: ts[s.ops[0]!]!, src: ts[s.ops[1]!]! }
    : { dst: ts[s.ops[0]!]!, src0: ts[s.ops[1]!]!, src1: ts[s.ops[2]!]! };
  if (s.extra === 'unknown') ops.src9 = ts[s.ops[2]!]!;
  if (s.extra === 'missing') delete ops.dst;
  const attrs = s.name === 'TADDS' ? { scalar: 1.5 } : {};
  const opts =
    s.opts === 'none'
      ? undefined
      : s.opts === 'zero'
        ? { outOfBoundsReads: 'zero' as const }
        : { profile: s.opts };
  return outcome(() => (fresh ? prepare(s.name, ops, attrs, opts).run() : execute(s.name, ops, attrs, opts)));
}

test('execute with its remembered binding equals a fresh validation and run, over random call sequences', () => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
      const a = pool();
      const b = pool();
      const same = (s: Step) => {
        assert.equal(call(s, a, false), call(s, b, true));
        for (let i = 0; i < a.length; i++) assert.deepEqual(a[i]!.bytes, b[i]!.bytes, `tile ${i}`);
      };
      for (const s of steps) {
        // the plain call (remembered when it succeeds), then a change, then the step as drawn
        // right after it on the same tiles, then the plain call again
        const plain: Step = { ...s, extra: 'none', opts: 'none' };
        same(plain);
        if (s.setValid) {
          const [i, r, c] = s.setValid;
          for (const ts of [a, b]) {
            const t = ts[i]!;
            if (r <= t.rows && c <= t.cols) t.setValid(r, c);
          }
        }
        // new contents in one tile: a remembered binding must read them
        a[s.poke]!.bytes.reverse();
        b[s.poke]!.bytes.reverse();
        same(s);
        same(plain);
      }
    }),
    { numRuns: 300 },
  );
});

test('execute does not keep the tiles of its last call alive', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const refs: WeakRef<Tile>[] = [];
  (() => {
    const mk = () => createTile({ dtype: 'f32', rows: 64, cols: 64 });
    const ops = { dst: mk(), src0: mk(), src1: mk() };
    execute('TADD', ops);
    execute('TADD', ops);
    for (const t of Object.values(ops)) refs.push(new WeakRef(t));
  })();
  for (let i = 0; i < 20 && refs.some((r) => r.deref() !== undefined); i++) {
    await new Promise((r) => setTimeout(r, 0));
    gc();
  }
  assert.deepEqual(
    refs.map((r) => r.deref() === undefined),
    [true, true, true],
  );
});

test("a caller's attribute object that gains keys after the call does not reach the remembered binding", () => {
  const d = createTile({ dtype: 'f32', rows: 8, cols: 8 });
  const e = createTile({ dtype: 'f32', rows: 8, cols: 8 });
  const attrs: Record<string, unknown> = {};
  execute('TTRI', { dst: d }, attrs);
  attrs.upper = true;
  attrs.diagonal = 2;
  execute('TTRI', { dst: d });
  prepare('TTRI', { dst: e }).run();
  assert.deepEqual(d.bytes, e.bytes);
  // lower triangle with the main diagonal: (0, 1) is 0, (1, 0) is 1
  assert.deepEqual([d.f32()[1], d.f32()[8]], [0, 1]);
});
