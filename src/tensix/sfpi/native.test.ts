/**
 * The natives of the SFPI classes (native.ts) against the C++ they mirror (header.ts): the same SFPI
 * code compiled with the natives and with them off gives the same words, per-word source lines,
 * warnings and config events — or the same error (category, message, file:line:col). The snippets
 * reach every native with each kind of operand its parameters take (the class itself, a dst_reg
 * element, a constant register, s2vFloat16b, int / unsigned / float / double scalars, NaN, -0,
 * immediates wider than SFPIADD's 12 bits, INT_MIN), and the error paths of the builtins.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Budget } from '../../budget.ts';
import type { FuncDecl } from '../../cfront/ast.ts';
import { loadProgram } from '../../cfront/index.ts';
import { AxsimError } from '../../errors.ts';
import type { Arch } from '../encoding.ts';
import { llkHeaders } from '../llk/headers.ts';
import { compileSfpi } from './compile.ts';
import { keyOf, nativeKeys, SFPI_HEADER_FILE, setSfpiNatives, sfpiNative } from './native.ts';

/** Statements of a kernel body, one group per compile. */
const GROUPS: string[] = [
  // vFloat: constructors, assignment, arithmetic with each operand kind
  `vFloat a = dst_reg[0]; vFloat b = 1.5f; vFloat c = 2.5; vFloat d; d = a; vFloat e = vConst1; vFloat f = s2vFloat16b(0.75f);
   dst_reg[1] = a * b + c; dst_reg[2] = a - b; dst_reg[3] = -a; dst_reg[4] = a * 3.0f - 0.5f;
   dst_reg[5] = a * 2 + 1; dst_reg[6] = a * 2.0 + e; dst_reg[7] = f * a - (-0.0f); d = 4.0f; d = 0.25; d = dst_reg[1];
   dst_reg[8] = d + f; dst_reg[9] = a * vConstNeg1; dst_reg[10] = b - vConst0p8373;`,
  `vFloat a = dst_reg[0]; vFloat b = dst_reg[1]; a += b; a -= 0.5f; a *= b; a *= 1.25f; a += 3.0f; a -= b;
   b++; b--; dst_reg[2] = a; dst_reg[3] = b; a = a - __builtin_nanf("0x123"); dst_reg[4] = a * -__builtin_nanf("");`,
  // comparisons and v_if chains
  `vFloat a = dst_reg[0]; vFloat b = dst_reg[1];
   v_if (a < b) { a = b; } v_elseif (a >= 0.5f) { a = 0.0f; } v_elseif (a == 2) { a = -1.0f; } v_else { a = b * a; } v_endif;
   v_if (a <= 1.0f && b != a) { b = 1.0f; } v_endif; v_if (a > b || b < 0.0f) { b = a; } v_endif;
   v_if (a != 3.0f) { a += 1.0f; } v_endif; v_if (!(a == b)) { a = 2.0f; } v_endif;
   dst_reg[0] = a; dst_reg[1] = b;`,
  // dst_reg elements as operands and targets
  `vFloat a = dst_reg[0]; dst_reg[1] = dst_reg[0] * a; dst_reg[2] = dst_reg[0] + 1.0f; dst_reg[3] = dst_reg[1] - 2.0f;
   dst_reg[4] = -dst_reg[2]; dst_reg[5] = dst_reg[3] * 0.5f; dst_reg[6] = dst_reg[4] - a; dst_reg[7] = dst_reg[5] + a;
   dst_reg[8] = 1.0f; dst_reg[9] = 2.0; dst_reg[10] = 7; dst_reg[11] = 9u; dst_reg[12] = dst_reg[0];
   v_if (dst_reg[0] < 0.5f) { a = 1.0f; } v_elseif (dst_reg[1] >= a) { a = 2.0f; } v_endif;
   v_if (dst_reg[2] == a || dst_reg[3] != 1.0f || dst_reg[4] <= a || dst_reg[5] > 0.0f) { a = 3.0f; } v_endif;
   dst_reg[13] = a;`,
  // vInt / vUInt arithmetic, immediates of every width
  `vInt i = dst_reg[0]; vInt j = 5; vInt k; k = i; vUInt u = dst_reg[1]; vUInt w = 7u; vInt m = 3u;
   dst_reg[2] = i + j; dst_reg[3] = i + 100; dst_reg[4] = i - j; dst_reg[5] = i - 2047; dst_reg[6] = i + 5000;
   dst_reg[7] = i - 2049; dst_reg[8] = -i; dst_reg[9] = u + w; dst_reg[10] = u - 3u; dst_reg[11] = -u;
   k = 70000; k = 12u; w = 5; w = 0x80000000u; i += j; i += 9; i -= j; i -= 4096; u += w; u += 1u; u -= w; u -= 2u;
   i++; i--; u++; u--; dst_reg[12] = k + m; dst_reg[13] = i; dst_reg[14] = u; dst_reg[15] = i + (-2147483647 - 1);`,
  `vInt i = dst_reg[0]; vInt j = dst_reg[1]; vUInt u = dst_reg[2]; vUInt w = dst_reg[3];
   dst_reg[4] = i & j; dst_reg[5] = i | 0xff; dst_reg[6] = i ^ 3u; dst_reg[7] = u & w; dst_reg[8] = u | 1; dst_reg[9] = u ^ 6u;
   i &= j; i |= 4; i ^= 5u; u &= w; u |= 8; u ^= 9u; dst_reg[10] = ~i; dst_reg[11] = ~u;
   dst_reg[12] = i << 3; dst_reg[14] = u << 1; dst_reg[15] = u >> 4; i <<= 2; u <<= 5; u >>= 3;
   dst_reg[16] = i; dst_reg[17] = u; dst_reg[18] = u >> -3;`,
  // a vInt >> is Blackhole's only (an error on Wormhole, the same both ways)
  'vInt i = dst_reg[0]; dst_reg[1] = i >> 2; i >>= 1; dst_reg[2] = i;',
  `vInt i = dst_reg[0]; vInt j = dst_reg[1]; vUInt u = dst_reg[2]; vFloat a = dst_reg[3];
   v_if (i == j) { a = 1.0f; } v_elseif (i != 3) { a = 2.0f; } v_elseif (i < 5000) { a = 3.0f; } v_endif;
   v_if (i <= j && i > -7 && i >= -2048) { a = 4.0f; } v_endif; v_if (u >= 3u || u < 70000u || u == w_dummy()) { a = 5.0f; } v_endif;
   v_if (u != u && u > 2u && u <= 4u) { a = 6.0f; } v_endif; v_if (i < j || i > j || i >= j) { a = 7.0f; } v_endif;
   dst_reg[4] = a;`,
  // the library functions
  `vFloat a = dst_reg[0]; vFloat b = dst_reg[1]; vInt e = dst_reg[2];
   dst_reg[3] = setsgn(a, 0); dst_reg[4] = setsgn(a, 1); dst_reg[5] = setsgn(a, b); dst_reg[6] = setexp(a, 127u);
   dst_reg[7] = setexp(a, e); dst_reg[8] = addexp(a, 3); dst_reg[9] = addexp(a, -2); dst_reg[10] = exexp(a);
   dst_reg[11] = exexp_nodebias(b); dst_reg[12] = exman8(a); dst_reg[13] = exman9(b); dst_reg[14] = setman(a, 5);
   dst_reg[15] = setman(a, 0x1234u); dst_reg[16] = setman(a, e); dst_reg[17] = setman(a, -1); dst_reg[18] = setman(a, 0xfffu);
   dst_reg[19] = int32_to_float(e); dst_reg[20] = int32_to_float(e, 0); dst_reg[21] = abs(a); dst_reg[22] = abs(e);
   vUInt u = dst_reg[23]; dst_reg[24] = abs(u); dst_reg[25] = setexp(a, 0x1ffu); dst_reg[26] = reinterpret<vFloat>(e) * a;`,
];

/** Groups whose compile fails (the same error both ways). */
const ERRORS: string[] = [
  'vFloat x; dst_reg[0] = x + 1.0f;', // used before it is given a value (vFloat::operator+(float))
  'vFloat x; vFloat y = dst_reg[0]; dst_reg[0] = y * x;',
  'vInt x; dst_reg[0] = x - 3;',
  'vFloat a = dst_reg[0]; v_if (a < 0.0f) { a = 1.0f; } v_endif; sfpi::__sfpi_cond(a < 1.0f);', // outside v_if
  'vFloat a = dst_reg[0]; dst_reg[1] = a * s2vFloat16b(0x12345);', // wider than SFPLOADI's 16 bits
];

const program = (body: string) =>
  `#include "sfpi.h"\nusing namespace sfpi;\ninline vUInt w_dummy() { return vUInt(1u); }\nvoid k() {\n${body}\n}\n`;

function outcome(source: string, arch: Arch, natives: boolean, virtualFiles: Record<string, string> = {}) {
  const was = setSfpiNatives(natives);
  const budget = new Budget();
  try {
    const r = compileSfpi(source, arch, { file: 'k.cpp', entry: 'k', budget, virtualFiles });
    return {
      steps: budget.steps,
      r: {
        words: Array.from(r.words),
        sources: r.sources,
        warnings: r.warnings.map((w) => [w.category, w.message, w.location]),
        events: r.events,
      },
    };
  } catch (e) {
    if (!(e instanceof AxsimError)) throw e;
    return { steps: budget.steps, r: { error: [e.category, e.message, e.location, e.hint] } };
  } finally {
    setSfpiNatives(was);
  }
}

for (const arch of ['wormhole', 'blackhole'] as const) {
  describe(`SFPI natives = the C++ of header.ts (${arch})`, () => {
    GROUPS.forEach((body, g) => {
      it(`group ${g + 1}: same words, sources, warnings; fewer evaluator steps`, () => {
        const src = program(body);
        const on = outcome(src, arch, true);
        const off = outcome(src, arch, false);
        assert.deepEqual(on.r, off.r);
        // (only the Wormhole vInt >> group fails, as sfpi does)
        if (!(arch === 'wormhole' && body.includes('i >> 2')))
          assert.ok(!('error' in off.r), `the C++ path failed: ${JSON.stringify(off.r)}`);
        assert.ok(on.steps < off.steps, `natives ran (steps ${on.steps} vs ${off.steps})`);
      });
    });
    ERRORS.forEach((body, g) => {
      it(`error ${g + 1}: the same error at the same place`, () => {
        const src = program(body);
        const on = outcome(src, arch, true);
        const off = outcome(src, arch, false);
        assert.ok('error' in off.r, 'the C++ path fails');
        assert.deepEqual(on.r, off.r);
      });
    });
    it('a kernel in an included file (no main-file call site): the C++ runs, same result', () => {
      const inc = { 'kern.h': `#pragma once\n${program(GROUPS[0]!).replace('void k()', 'inline void k()')}` };
      const src = '#include "kern.h"\n';
      const on = outcome(src, arch, true, inc);
      const off = outcome(src, arch, false, inc);
      assert.deepEqual(on.r, off.r);
    });
  });
}

describe('choosing the natives', () => {
  it('every native matches exactly one function of header.ts, token for token', () => {
    const prog = loadProgram('#include "sfpi.h"\n', {
      file: 'k.cpp',
      virtualFiles: llkHeaders('wormhole'),
      defines: { ARCH_WORMHOLE: 1 },
      model: 'ilp32',
      script: true,
    });
    const ev = prog.ev;
    const fns: FuncDecl[] = [];
    for (const m of ev.methods.values()) for (const fs of m.values()) fns.push(...fs);
    for (const { decl } of ev.functionDecls()) fns.push(decl);
    const matched = new Map<string, number>();
    for (const f of new Set(fns)) {
      if (f.at.file !== SFPI_HEADER_FILE) continue;
      if (sfpiNative(f, ev, new Map())) matched.set(keyOf(f), (matched.get(keyOf(f)) ?? 0) + 1);
    }
    const missing = nativeKeys().filter((k) => !matched.has(k));
    assert.deepEqual(missing, [], 'natives whose function or body is not in header.ts');
    for (const [k, n] of matched) assert.equal(n, 1, k);
  });
  it('a program macro that changes a member body turns its native off', () => {
    const prog = loadProgram('#define __sfpi_fimm(x) __sfpi_fimm((x) * 2)\n#include "sfpi.h"\n', {
      file: 'k.cpp',
      virtualFiles: llkHeaders('wormhole'),
      defines: { ARCH_WORMHOLE: 1 },
      model: 'ilp32',
      script: true,
    });
    const ev = prog.ev;
    const ctors = [...ev.methods.values()]
      .flatMap((m) => m.get('vFloat') ?? [])
      .filter((f) => keyOf(f) === 'vFloat::vFloat(float)');
    assert.equal(ctors.length, 1);
    assert.equal(sfpiNative(ctors[0]!, ev, new Map()), undefined);
  });
});
