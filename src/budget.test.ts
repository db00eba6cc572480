import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Budget, bitLength, budgetFromOptions, budgetOptions, DEFAULT_LIMITS } from './budget.ts';
import { AxsimError } from './errors.ts';

function limitErr(fn: () => unknown): AxsimError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    return e;
  }
  assert.fail('expected a ResourceLimit error');
}

test('every limit has a positive default and a --max- flag', () => {
  for (const [k, v] of Object.entries(DEFAULT_LIMITS)) assert.ok(v > 0, k);
  assert.equal(budgetOptions.length, Object.keys(DEFAULT_LIMITS).length);
  assert.ok(budgetOptions.every((o) => o.flags.startsWith('--max-')));
});

test('depth: the error names the limit, the value and the location', () => {
  const b = new Budget({ depth: 3 });
  b.depth(3);
  const e = limitErr(() => b.depth(4, { file: 'k.s', line: 9, col: 2 }));
  assert.equal(e.category, 'ResourceLimit');
  assert.equal(
    e.format(),
    'k.s:9:2: ResourceLimit: nesting depth limit exceeded: 4 > 3 (depth)\n  hint: raise it with --max-depth <n> if the input is meant to be this large',
  );
});

test('counters accumulate: steps, loops, element-operations', () => {
  const b = new Budget({ steps: 10, loops: 5, elementOps: 100 });
  for (let i = 0; i < 10; i++) b.step();
  assert.match(limitErr(() => b.step()).message, /instruction steps limit exceeded: 11 > 10/);
  b.loop(5);
  assert.match(limitErr(() => b.loop(1)).message, /loop iterations limit exceeded: 6 > 5/);
  assert.equal(b.wouldFitElements(100), true);
  assert.equal(b.wouldFitElements(101), false);
  // 10^6 iterations x 16M elements is refused up front, in one charge.
  assert.match(limitErr(() => b.elements(1e6 * 16 * 2 ** 20)).message, /element-operations limit exceeded/);
});

test('live bytes are charged and freed; the peak is recorded', () => {
  const b = new Budget({ liveBytes: 1000 });
  b.alloc(600);
  b.free(600);
  b.alloc(900);
  assert.equal(b.peakLiveBytes, 900);
  const e = limitErr(() => b.alloc(101, { line: 4 }));
  assert.match(e.message, /live bytes limit exceeded: 1001 > 1000/);
  assert.equal(e.location?.line, 4);
  assert.equal(b.liveBytes, 900, 'a refused allocation is not charged');
});

test('integer magnitude: bit length against the limit, both signs', () => {
  const b = new Budget({ intBits: 64 });
  assert.equal(b.int((1n << 64n) - 1n), (1n << 64n) - 1n);
  assert.equal(b.int(-((1n << 64n) - 1n)), -((1n << 64n) - 1n));
  assert.match(limitErr(() => b.int(1n << 64n)).message, /integer bits limit exceeded: 65 > 64/);
  assert.match(limitErr(() => b.int(-(1n << 100n))).message, /101 > 64/);
});

test('bitLength agrees with the binary string length', () => {
  for (const v of [0n, 1n, 2n, 3n, 255n, 256n, (1n << 200n) + 12345n, -(1n << 70n)]) {
    const mag = v < 0n ? -v : v;
    assert.equal(bitLength(v), mag === 0n ? 0 : mag.toString(2).length, String(v));
  }
});

test('wall clock: a zero-length limit in the past throws, 0 means unlimited', async () => {
  const b = new Budget({ wallMs: 1 });
  await new Promise((r) => setTimeout(r, 5));
  assert.match(limitErr(() => b.clock()).message, /wall-clock milliseconds limit exceeded/);
  new Budget({ wallMs: 0 }).clock();
});

test('budgetFromOptions parses --max-* values and rejects junk as BadInput', () => {
  const b = budgetFromOptions({ maxDepth: '12', maxElementOps: '1e6', maxLiveBytes: 'inf' });
  assert.equal(b.limits.depth, 12);
  assert.equal(b.limits.elementOps, 1e6);
  assert.equal(b.limits.liveBytes, Number.POSITIVE_INFINITY);
  assert.equal(b.limits.steps, DEFAULT_LIMITS.steps);
  const e = limitErr(() => budgetFromOptions({ maxSteps: '-3' }));
  assert.equal(e.category, 'BadInput');
  assert.match(e.message, /--max-steps/);
});

test('child budgets share limits and start fresh counters', () => {
  const b = new Budget({ steps: 2 });
  b.step(2);
  const c = b.child();
  assert.equal(c.limits.steps, 2);
  assert.equal(c.steps, 0);
});
