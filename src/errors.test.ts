import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
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

test('nearest name: the row-bounded distance gives what the full distance gives', () => {
  // reference: the textbook full-matrix Levenshtein distance, and the first name at the least distance
  const full = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        d[i]![j] = Math.min(
          d[i - 1]![j]! + 1,
          d[i]![j - 1]! + 1,
          d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
    return d[a.length]![b.length]!;
  };
  const reference = (name: string, known: string[]): string | undefined => {
    const maxD = Math.max(2, Math.floor(name.length / 3));
    let best: string | undefined;
    let bestD = Number.POSITIVE_INFINITY;
    for (const k of known) {
      const d = full(name.toLowerCase(), k.toLowerCase());
      if (d < bestD) [best, bestD] = [k, d];
    }
    return bestD <= maxD ? best : undefined;
  };
  const word = fc.stringMatching(/^[abAB_]{0,12}$/);
  fc.assert(
    fc.property(word, fc.array(word, { maxLength: 12 }), (name, known) => {
      assert.equal(nearestName(name, known), reference(name, known));
      for (const k of known) assert.equal(editDistance(name, k), full(name, k));
    }),
    { numRuns: 2000 },
  );
});

test('ResourceLimit is a category of its own', () => {
  const e = new AxsimError('ResourceLimit', 'nesting depth limit exceeded: 300 > 256 (depth)');
  assert.equal(e.format(), 'ResourceLimit: nesting depth limit exceeded: 300 > 256 (depth)');
});
