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
