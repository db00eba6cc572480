import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { dirname, isAbsolute, join, normalize } from './paths.ts';

// node:path's posix functions are the reference; paths are built from the pieces that matter.
const seg = fc.constantFrom('', '.', '..', 'a', 'b', 'inc', 'x.h', '...', '.h');
const pathArb = fc
  .tuple(fc.boolean(), fc.array(seg, { maxLength: 6 }), fc.boolean())
  .map(([abs, segs, trail]) => `${abs ? '/' : ''}${segs.join('/')}${trail ? '/' : ''}`);

test('normalize, dirname, isAbsolute and join agree with node:path posix', () => {
  fc.assert(
    fc.property(pathArb, pathArb, (p, q) => {
      assert.equal(normalize(p), posix.normalize(p), `normalize(${JSON.stringify(p)})`);
      assert.equal(dirname(p), posix.dirname(p), `dirname(${JSON.stringify(p)})`);
      assert.equal(isAbsolute(p), posix.isAbsolute(p));
      assert.equal(join(p, q), posix.join(p, q), `join(${JSON.stringify(p)}, ${JSON.stringify(q)})`);
    }),
    { numRuns: 20000, seed: 15 },
  );
});
