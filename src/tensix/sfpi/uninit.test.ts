/**
 * SFPI vector variables declared without an initialiser are the normal way of writing kernels
 * (`vFloat r; v_if (…) { r = …; } v_else { r = …; } v_endif;`): the class's default constructor
 * writes its handle, so they are not uninitialised reads (docs/cfront.md "Uninitialised reads").
 * A scalar local of the kernel's C++ read before it is written still is one, at the kernel's line.
 * Expected tiles are computed by hand from the definitions on small integers (exact in binary32).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxsimError } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { f32ToBits } from '../llk/checks.ts';
import { runOnTile, tileInput } from './testkit.ts';

const FILE = 'uninit_kernels.h';
const SOURCE = `#pragma once
#include "ckernel.h"
using namespace sfpi;
namespace axsim_uninit {
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_abs_plus() {
  for (int d = 0; d < ITERATIONS; d++) {
    vFloat v = dst_reg[0];
    vFloat r;
    vFloat rs[2];
    v_if (v < 0.0f) { r = -v; } v_else { r = v; } v_endif;
    rs[1] = r + 1.0f;
    dst_reg[0] = rs[1];
    dst_reg++;
  }
}
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_scaled() {
  int n;
  for (int d = 0; d < ITERATIONS; d++) {
    vFloat v = dst_reg[0];
    dst_reg[0] = v * static_cast<float>(n);
    dst_reg++;
  }
}
}
`;
const input = tileInput;
const run = async (arch: Arch, entry: string) => (await runOnTile(arch, SOURCE, FILE, entry)).out;

describe('SFPI kernels and uninitialised reads', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: vFloat locals and arrays declared without an initialiser are written by their constructor`, async () => {
      const out = await run(arch, 'axsim_uninit::calculate_abs_plus<false, 8>');
      // |x| + 1 on every element (the driver runs the entry over the whole tile)
      for (let i = 0; i < 1024; i++) {
        const want = Math.abs(input(i)) + 1;
        if (out[i] !== f32ToBits(want)) assert.fail(`element ${i}: ${out[i]!.toString(16)} != ${want}`);
      }
    });
  }
  it('a scalar local read before it is written is an error at its line in the kernel', async () => {
    await assert.rejects(run('wormhole', 'axsim_uninit::calculate_scaled<false, 8>'), (e: unknown) => {
      assert.ok(e instanceof AxsimError, String(e));
      assert.equal(e.category, 'UndefinedBehaviour', e.format());
      assert.equal(e.location?.file, FILE, e.format());
      // line 22 of SOURCE: `    dst_reg[0] = v * static_cast<float>(n);`, n at column 4 + 36 + 1
      assert.equal(e.location?.line, 22, e.format());
      assert.equal(e.location?.col, 41, e.format());
      assert.match(e.message, /uninitialised value: 'n'/);
      return true;
    });
  });
});
