/**
 * Issue 18 regressions for the Tensix assembler (the cfront-based front end): nesting and
 * `#define` growth end in a ResourceLimit naming the limit and the line, not a stack overflow or
 * minutes of BigInt growth.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { assemble } from './asm/index.ts';

function limit(src: string): AxsimError {
  try {
    assemble(src, 'wormhole', { file: 'k.sfpu' });
  } catch (e) {
    assert.ok(e instanceof AxsimError, `expected an AxsimError, got ${e}`);
    assert.equal(e.category, 'ResourceLimit', e.message);
    return e;
  }
  assert.fail('expected a ResourceLimit');
}

test('9000 nested ?: is a depth limit on line 1, not a stack overflow', () => {
  const e = limit(`int x = ${'1?'.repeat(9000)}1${':0'.repeat(9000)};\nTTI_SFPNOP;\n`);
  assert.match(e.message, /nesting depth limit exceeded: 257 > 256/);
  assert.equal(e.location?.line, 1);
});

test('4000 nested braces / if / for / namespace are a depth limit', () => {
  for (const [open, close] of [
    ['{', '}'],
    ['if (1) {', '}'],
    ['for (int i = 0; i < 1; i++) {', '}'],
    ['namespace a {', '}'],
  ]) {
    const e = limit(`void f() {\n${open.repeat(4000)}${close.repeat(4000)}\n}\nTTI_SFPNOP;\n`);
    assert.match(e.message, /nesting depth limit exceeded/, open);
  }
});

test('a #define squaring chain stops at a limit instead of growing for a minute', () => {
  let src = '#define A0 2\n';
  for (let i = 1; i < 40; i++) src += `#define A${i} (A${i - 1}*A${i - 1})\n`;
  src += 'int x = A39;\nTTI_SFPNOP;\n';
  const e = limit(src);
  assert.match(e.message, /limit exceeded/);
  assert.equal(e.location?.line, 41);
});
