import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError, badInput, editDistance, nearestName } from './errors.ts';

test('format puts location, category, message and hint in order', () => {
  const e = badInput('unknown instruction `SFPMADD`', {
    location: { file: 'k.s', line: 3, col: 5 },
    hint: 'did you mean SFPMAD?',
  });
  assert.equal(e.format(), 'k.s:3:5: BadInput: unknown instruction `SFPMADD`\n  hint: did you mean SFPMAD?');
  assert.ok(e instanceof AxsimError);
  assert.ok(e instanceof Error);
});

test('instruction-index locations', () => {
  const e = new AxsimError('UndefinedBehaviour', 'Store fed SFPNOP', { location: { index: 7 } });
  assert.equal(e.format(), '[instruction 7]: UndefinedBehaviour: Store fed SFPNOP');
  assert.equal(
    e.at({ file: 'p.s', index: 1 }).format(),
    'p.s [instruction 7]: UndefinedBehaviour: Store fed SFPNOP',
  );
});

test('edit distance and nearest name', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(nearestName('SFPMADD', ['SFPMAD', 'SFPADD', 'SFPLOAD']), 'SFPMAD');
  assert.equal(nearestName('zzzzzzzz', ['SFPMAD']), undefined);
});

test('nearest name: a huge identifier gets no suggestion and costs no quadratic scan', () => {
  // 1 MB identifier against a long candidate list: with the quadratic distance this took seconds.
  const huge = 'A'.repeat(1 << 20);
  const known = Array.from({ length: 2000 }, (_, i) => `NAME${i}`);
  known.push(huge.slice(0, 1 << 19));
  assert.equal(nearestName(huge, known), undefined);
  // Length difference prunes but does not change results for ordinary names.
  assert.equal(nearestName('SFPLOADI', ['SFPLOAD', 'SFPLOADMACRO']), 'SFPLOAD');
  assert.equal(nearestName('ab', ['abcdef']), undefined);
});

test('ResourceLimit is a category of its own', () => {
  const e = new AxsimError('ResourceLimit', 'nesting depth limit exceeded: 300 > 256 (depth)');
  assert.equal(e.format(), 'ResourceLimit: nesting depth limit exceeded: 300 > 256 (depth)');
});
