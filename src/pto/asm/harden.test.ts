/**
 * Issue 18 regressions for the PTO-AS text front end: each test holds its own small reproducer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Budget } from '../../budget.ts';
import { AxsimError } from '../../errors.ts';
import { parsePtoAs, printModule, runProgram, verifyModule } from './index.ts';

const HEAD =
  'module {\n func.func @f() {\n %c0 = arith.constant 0 : index\n %c1 = arith.constant 1 : index\n %t = arith.constant true\n';
const TAIL = ' return\n }\n}\n';

function category(fn: () => unknown): AxsimError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AxsimError, `expected an AxsimError, got ${e}`);
    return e;
  }
  assert.fail('expected an error');
}

for (const [what, open] of [
  ['scf.if', 'scf.if %t {\n'],
  ['scf.for', 'scf.for %i = %c0 to %c1 step %c1 {\n'],
  ['pto.section', 'pto.section.vector {\n'],
] as const) {
  test(`1000 nested ${what} regions are a ResourceLimit naming the depth and the line, not a stack overflow`, () => {
    const src = HEAD + open.repeat(1000) + '}\n'.repeat(1000) + TAIL;
    const e = category(() => parsePtoAs(src, { file: 'deep.pto' }));
    assert.equal(e.category, 'ResourceLimit');
    assert.match(e.message, /nesting depth limit exceeded: 257 > 256/);
    assert.equal(e.location?.file, 'deep.pto');
    // the function body is region 1; nested region 257 opens on line 5 + 256 (the header is 5
    // lines) and the error points at the first token inside it
    assert.equal(e.location?.line, 5 + 256 + 1);
  });
}

test('nesting within the limit parses, verifies, prints and runs (the later passes recurse safely)', () => {
  let src = HEAD;
  for (let i = 0; i < 127; i++) src += `scf.for %i${i} = %c0 to %c1 step %c1 {\nscf.if %t {\n`;
  src += '}\n}\n'.repeat(127) + TAIL;
  const m = parsePtoAs(src);
  verifyModule(m);
  parsePtoAs(printModule(m));
  runProgram(m, {});
  // the limit is a budget parameter
  const e = category(() => parsePtoAs(src, { budget: new Budget({ depth: 100 }) }));
  assert.match(e.message, /101 > 100/);
});

test('arith.constant -0x1 is the integer -1 (minus before a hex literal), not a BigInt SyntaxError', () => {
  for (const [lit, want] of [
    ['-0x1', -1n],
    ['-0x1f', -31n],
    ['0x7fffffff', 2147483647n],
    ['-12', -12n],
  ] as const) {
    const m = parsePtoAs(`module {\n func.func @f() {\n %c0 = arith.constant ${lit} : i32\n return\n }\n}\n`);
    const op = m.funcs[0]!.body[0] as unknown as { value: { kind: string; value: bigint } };
    assert.deepEqual(op.value, { kind: 'int', value: want }, lit);
  }
});

test('a UTF-8 byte-order mark is accepted, and positions after it are unchanged', () => {
  const m = parsePtoAs('\ufeffmodule {\n func.func @f() {\n return\n }\n}\n');
  assert.equal(m.funcs.length, 1);
  const e = category(() => parsePtoAs('\ufeffbogus'));
  assert.deepEqual([e.location?.line, e.location?.col], [1, 1]);
});

const TB = (n: number) =>
  `!pto.tile_buf<loc=vec, dtype=f32, rows=${n}, cols=${n}, v_row=${n}, v_col=${n}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;

test('a loop of 10^6 TADDS is refused after its first iteration when the rest would exceed the element budget', () => {
  const src = `module {
  func.func @f(%s: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cN = arith.constant 1000000 : index
    %t0 = pto.alloc_tile : ${TB(16)}
    scf.for %i = %c0 to %cN step %c1 {
      pto.tadds ins(%t0, %s : ${TB(16)}, f32) outs(%t0 : ${TB(16)})
    }
    return
  }
}
`;
  const m = parsePtoAs(src, { file: 'loop.pto' });
  verifyModule(m);
  const budget = new Budget({ elementOps: 100_000 });
  const e = category(() => runProgram(m, { s: 1 }, { file: 'loop.pto', budget }));
  assert.equal(e.category, 'ResourceLimit');
  // one TADDS touches its 16x16 source, its 16x16 destination and the scalar: 513 element-operations
  const perIter = 16 * 16 * 2 + 1;
  assert.equal(budget.elementOps, perIter, 'only the first iteration ran');
  assert.match(e.message, new RegExp(`element-operations limit exceeded: ${perIter * 1_000_000} > 100000`));
  assert.deepEqual([e.location?.file, e.location?.line], ['loop.pto', 7]);
  // within the budget the same loop (10 iterations) runs and is charged exactly
  const small = parsePtoAs(src.replace('1000000', '10'));
  const b2 = new Budget({ elementOps: 100_000 });
  runProgram(small, { s: 1 }, { budget: b2 });
  assert.equal(b2.elementOps, 10 * perIter);
});

test('a loop whose body branches is stopped by the per-instruction charge, before the work', () => {
  const src = `module {
  func.func @f(%s: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cN = arith.constant 1000000 : index
    %t = arith.constant true
    %t0 = pto.alloc_tile : ${TB(16)}
    scf.for %i = %c0 to %cN step %c1 {
      scf.if %t {
        pto.tadds ins(%t0, %s : ${TB(16)}, f32) outs(%t0 : ${TB(16)})
      }
    }
    return
  }
}
`;
  const budget = new Budget({ elementOps: 5000 });
  const e = category(() => runProgram(parsePtoAs(src), { s: 1 }, { budget }));
  assert.equal(e.category, 'ResourceLimit');
  assert.equal(e.location?.line, 10);
  // 9 x 513 = 4617 fit; the 10th would make 5130
  assert.match(e.message, /5130 > 5000/);
});

test('live tile bytes: 64 large tiles are refused at the first one over the limit, naming its line', () => {
  let src = 'module {\n  func.func @f() {\n';
  for (let i = 0; i < 64; i++) src += `    %t${i} = pto.alloc_tile : ${TB(64)}\n`;
  src += '    return\n  }\n}\n';
  const m = parsePtoAs(src, { file: 'many.pto' });
  verifyModule(m);
  // a 64x64 f32 tile is 16384 bytes; 6 fit in 100000, the 7th (on line 2 + 7) does not
  const e = category(() =>
    runProgram(m, {}, { file: 'many.pto', budget: new Budget({ liveBytes: 100_000 }) }),
  );
  assert.equal(e.category, 'ResourceLimit');
  assert.match(e.message, /live bytes limit exceeded: 114688 > 100000/);
  assert.equal(e.location?.line, 9);
});

test('a tile allocated inside a loop replaces its previous self: live bytes do not grow per iteration', () => {
  const src = `module {
  func.func @f() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cN = arith.constant 100 : index
    scf.for %i = %c0 to %cN step %c1 {
      %t0 = pto.alloc_tile : ${TB(64)}
    }
    return
  }
}
`;
  const budget = new Budget({ liveBytes: 20_000 });
  runProgram(parsePtoAs(src), {}, { budget });
  assert.equal(budget.peakLiveBytes, 64 * 64 * 4);
});
