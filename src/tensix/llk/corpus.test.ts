import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classify, stripComments } from './corpus.ts';

describe('llk corpus: classifying kernel files', () => {
  it('strips comments left to right: a //*** banner is a line comment, literals keep their text', () => {
    const src = '//*****\nint a; /* x\n y */ int b;\nconst char *s = "/* not */";\n';
    const out = stripComments(src);
    assert.equal(out.split('\n').length, src.split('\n').length);
    assert.match(out, /int a;/);
    assert.match(out, /int b;/);
    assert.match(out, /"\/\* not \*\/"/);
    assert.doesNotMatch(out, /\*\*\*/);
  });
  it('a banner comment before a function does not hide the functions after it', () => {
    const text = [
      '//**********',
      '// banner',
      'template <int N>',
      'inline void _init_thing_() { TTI_SFPNOP; /*unused*/ }',
      'inline void _calculate_thing_() { TTI_SFPNOP; }',
    ].join('\n');
    const c = classify('wormhole', '/x/ckernel_sfpu_thing.h', text);
    assert.deepEqual(
      c.functions.map((f) => [f.name, f.line, f.kind]),
      [
        ['_init_thing_', 4, 'tti'],
        ['_calculate_thing_', 5, 'tti'],
      ],
    );
  });
});
