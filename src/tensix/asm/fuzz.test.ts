/** Malformed source never crashes the assembler: it returns or throws an AxsimError. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../../errors.ts';
import { assemble } from './index.ts';

const PIECES = [
  'TTI_SFPMAD',
  'TT_OP_SFPLOADI',
  'TTI_SFPNOP',
  'SFPMAD',
  'SFPLOADMACRO',
  'lreg_dest',
  'vd',
  'unused_bits',
  '=',
  '(',
  ')',
  ',',
  ';',
  '\n',
  ' ',
  '0x7f',
  '-1',
  '4096',
  '1e5',
  '1.5',
  "'",
  '"',
  'p_sfpu::LREG1',
  'sfpi::',
  '::',
  '<<',
  '>>',
  '?',
  ':',
  '~',
  '!',
  '(uint16_t)',
  'static_cast<int8_t>(',
  '.word',
  '.rept',
  '.endr',
  '#define X',
  '#',
  '\\\n',
  '/*',
  '*/',
  '//',
  '{',
  'constexpr int',
  'for (int i = 0; i < 3; i++)',
  'for (',
  'if (1)',
  'if constexpr (0)',
  'else',
  'dst_reg++',
  'sfpi::dst_reg += 2',
  'namespace ckernel',
  'template <int N>',
  'inline void f(int x)',
  'f(1);',
  'f<2>(',
  'constexpr int A[2] = {1, 2};',
  'A[',
  ']',
  'i',
];

describe('assembler fuzz', () => {
  it('token soup and random text only ever raise AxsimError', () => {
    const soup = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(
        fc.oneof(soup, fc.string({ maxLength: 60 })),
        fc.constantFrom('wormhole', 'blackhole'),
        (src, arch) => {
          try {
            assemble(src, arch as 'wormhole' | 'blackhole');
          } catch (e) {
            assert.ok(e instanceof AxsimError, `${JSON.stringify(src)}: ${String(e)}`);
            assert.notEqual(e.category, 'Internal', `${JSON.stringify(src)}: ${e.format()}`);
          }
        },
      ),
      { numRuns: 10000 },
    );
  });
  it('runaway .rept expansion is bounded', () => {
    assert.throws(
      () => assemble('.rept 65536\n.rept 65536\n.endr\n.endr', 'wormhole'),
      (e: unknown) =>
        e instanceof AxsimError &&
        e.category === 'ResourceLimit' &&
        /loop iterations limit exceeded/.test(e.message),
    );
  });
  it('the program size is bounded', () => {
    const src = (n: number) => `for (int i = 0; i < 100; i++) { .rept ${n} \n SFPNOP \n .endr }`;
    assert.throws(
      () => assemble(src(11), 'wormhole', { maxWords: 1000 }),
      (e: unknown) =>
        e instanceof AxsimError && e.category === 'BadInput' && /more than 1000 words/.test(e.message),
    );
    assert.equal(assemble(src(10), 'wormhole', { maxWords: 1000 }).words.length, 1000);
  });
  it('recursion is bounded', () => {
    assert.throws(
      () => assemble('inline void f() { SFPNOP\n f(); }', 'wormhole'),
      (e: unknown) =>
        e instanceof AxsimError &&
        e.category === 'ResourceLimit' &&
        /nesting depth limit exceeded/.test(e.message),
    );
  });
  it('deep nesting is a ResourceLimit error, not a stack overflow', () => {
    const deep = `.word ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    assert.throws(
      () => assemble(deep, 'wormhole'),
      (e: unknown) =>
        e instanceof AxsimError &&
        e.category === 'ResourceLimit' &&
        /nesting depth limit exceeded/.test(e.message),
    );
    assert.throws(
      () => assemble(`.word ${'-'.repeat(5000)}1`, 'wormhole'),
      (e: unknown) => e instanceof AxsimError && e.category === 'ResourceLimit',
    );
  });
});
