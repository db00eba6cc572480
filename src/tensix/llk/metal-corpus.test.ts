import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classify } from './corpus.ts';
import { genericEntry, isMetalPublic, METAL_CASES, splitTopLevel } from './metal-corpus.ts';

// our own text in the shape of a tt-metal kernel file (not a copied kernel)
const TEXT = `#pragma once
namespace ckernel::sfpu {
template <bool APPROXIMATION_MODE, bool is_fp32_dest_acc_en = false, int ITERATIONS = 8>
inline void calculate_thing(const uint slope, std::uint32_t dst_index_in0, std::uint32_t dst_index_out) {
  for (int d = 0; d < ITERATIONS; d++) { sfpi::vFloat v = sfpi::dst_reg[0]; sfpi::dst_reg[0] = v; sfpi::dst_reg++; }
}
template <bool APPROXIMATION_MODE, SomeOp OP, int ITERATIONS>
inline void calculate_op() { sfpi::vFloat v = sfpi::dst_reg[0]; }
sfpi_inline sfpi::vFloat calculate_body(sfpi::vFloat x) { return x; }
inline void thing_init() { }
}
`;

describe('metal corpus runner: functions and their generic calls', () => {
  const f = classify('wormhole', '/x/ckernel_sfpu_thing.h', TEXT, isMetalPublic);
  it('lists the public calculate_* functions with their template and parameter lists', () => {
    assert.deepEqual(
      f.functions.map((g) => g.name),
      ['calculate_thing', 'calculate_op', 'calculate_body'],
    );
    assert.equal(
      f.functions[0]!.template,
      'bool APPROXIMATION_MODE, bool is_fp32_dest_acc_en = false, int ITERATIONS = 8',
    );
    assert.equal(f.functions[2]!.template, undefined);
  });
  it('builds a call: APPROXIMATION_MODE false, the FP32-Dst flag true, ITERATIONS 8, Dst indices 0/0, a uint the bits of 1.0', () => {
    assert.deepEqual(genericEntry(f.functions[0]!), {
      entry: 'calculate_thing<false, true>(0x3f800000u, 0, 0)',
    });
  });
  it('says which template parameter it cannot choose, and that a function on SFPI vectors is a helper', () => {
    assert.deepEqual(genericEntry(f.functions[1]!), {
      missing: "template parameter 'SomeOp OP' has no default and no case chooses it",
    });
    assert.ok('helper' in genericEntry(f.functions[2]!));
  });
  it('splits at top-level commas only', () => {
    assert.deepEqual(splitTopLevel('a<b, c>, d(e, f), g'), ['a<b, c>', 'd(e, f)', 'g']);
  });
  it('every metal case reuses or states a definition (no case without a check)', () => {
    for (const c of METAL_CASES)
      assert.ok(c.expect || c.expectTile || c.tileCheck || c.sfpi, `${c.file} ${c.covers[0]} has a check`);
  });
});
