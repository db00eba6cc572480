/** Test helpers shared by the front end's pass tests (not part of the library). */
import assert from 'node:assert/strict';
import { AxsimError } from '../errors.ts';

/** Asserts that `fn` throws an AxsimError of `category` at line:col whose message contains/matches `text`. */
export function throwsAt(
  fn: () => unknown,
  line: number,
  col: number,
  text: string | RegExp,
  category = 'BadInput',
): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof AxsimError, String(e));
    assert.equal(e.category, category, e.format());
    assert.equal(e.location?.line, line, e.format());
    assert.equal(e.location?.col, col, e.format());
    if (typeof text === 'string') assert.ok(e.message.includes(text), e.format());
    else assert.match(e.message, text);
    return true;
  });
}
