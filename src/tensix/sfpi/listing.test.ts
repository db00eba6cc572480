/** The compile listing: words grouped under the source line they came from (our own kernel). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSfpi } from './compile.ts';
import { listingGroups, listingText } from './listing.ts';

const SRC = [
  '#include "ckernel.h"',
  'using namespace sfpi;',
  'void k() {',
  '  vFloat x = dst_reg[0];',
  '  dst_reg[1] = x * x;',
  '}',
].join('\n');

describe('sfpi compile listing', () => {
  it('groups the words by source line, with the line text', () => {
    const r = compileSfpi(SRC, 'blackhole', { file: 'k.h', entry: 'k' });
    const g = listingGroups(r, 'blackhole', { 'k.h': SRC });
    assert.deepEqual(
      g.map((x) => [x.line, x.source, x.insns.map((i) => i.text.replace(/\(.*$/, ''))]),
      [
        [4, 'vFloat x = dst_reg[0];', ['TTI_SFPLOAD']],
        [5, 'dst_reg[1] = x * x;', ['TTI_SFPMUL', 'TTI_SFPSTORE']],
      ],
    );
    const text = listingText(g).split('\n');
    assert.equal(text[0], '// k.h:4: vFloat x = dst_reg[0];');
    assert.match(text[1]!, /^ {2}TTI_SFPLOAD\(p_sfpu::LREG0, 0, ADDR_MOD_7, 0\);$/);
  });
});
