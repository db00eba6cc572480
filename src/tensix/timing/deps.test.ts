/**
 * Read sets (deps.ts) of instructions whose operand fields are not all read: SFPSHFT reads VC only
 * in its register form (SFPSHFT.md; BH ARG_IMM_USE_VC reads VC instead of VB), SFP_STOCH_RND reads
 * VB only in its IntInt flavour without UseImm5 (SFPSTOCHRND_*.md). tt-llk's Wormhole exp macro
 * templates (SFPSHFT(15, 0, 15, 1), SFP_STOCH_RND(0, 0, 0, 0, 14, 14)) leave VC / VB = LReg[0] in
 * those unread fields while LReg[0] is being written by a scheduled SFPMAD; no early read may be
 * reported for them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assemble } from '../asm/index.ts';
import type { Arch } from '../encoding.ts';
import { STRIDE } from '../ops.ts';
import { compile } from '../program.ts';
import { depsOf } from './deps.ts';
import { loadConst, machine, runSrc } from './testkit.ts';

function reads(src: string, arch: Arch = 'wormhole'): number {
  const p = compile(assemble(src, arch).words, arch);
  return depsOf(p.code, (p.length - 1) * STRIDE).reads;
}

describe('deps: read sets', () => {
  it('SFPSHFT: immediate form reads only VD; register form VD and VC; BH USE_VC reads only VC', () => {
    assert.equal(reads('TTI_SFPSHFT(15, 0, 2, 1);'), 1 << 2);
    assert.equal(reads('TTI_SFPSHFT(0, 0, 2, 0);'), (1 << 2) | 1);
    assert.equal(reads('TTI_SFPSHFT(3, 5, 2, 5);', 'blackhole'), 1 << 5);
  });
  it('SFP_STOCH_RND: VB only for INT32 -> INT8 without Imm5', () => {
    for (const mod1 of [1, 6, 7, 14, 15])
      assert.equal(reads(`TTI_SFP_STOCH_RND(0, 0, 3, 2, 1, ${mod1});`), 1 << 2);
    assert.equal(reads('TTI_SFP_STOCH_RND(0, 0, 3, 2, 1, 4);'), (1 << 2) | (1 << 3));
    assert.equal(reads('TTI_SFP_STOCH_RND(0, 4, 3, 2, 1, 13);'), 1 << 2);
  });
});

describe('deps: no early read through an unread field (Wormhole)', () => {
  // SFPMAD writes LReg[0] (two cycles); the next instruction names LReg[0] in a field it does not read.
  const mad = `${loadConst(1, 0x3f800000)}TTI_SFPMAD(1, 1, 9, 0, 0);\n`;
  const cases: [string, string, boolean][] = [
    ['SFPSHFT immediate, VC = 0', 'TTI_SFPSHFT(15, 0, 2, 1);', false],
    ['SFPSHFT register, VC = 0', 'TTI_SFPSHFT(0, 0, 2, 0);', true],
    ['SFP_STOCH_RND FP32 -> UINT16, VB = 0', 'TTI_SFP_STOCH_RND(0, 0, 0, 2, 3, 14);', false],
    ['SFP_STOCH_RND INT32 -> UINT8 by VB = 0', 'TTI_SFP_STOCH_RND(0, 0, 0, 2, 3, 4);', true],
  ];
  for (const [what, insn, hazard] of cases) {
    it(`${what}: ${hazard ? 'early-read' : 'none'}`, () => {
      const r = runSrc(machine('wormhole'), mad + insn);
      assert.deepEqual(
        r.hazards.map((h) => h.id),
        hazard ? ['early-read'] : [],
      );
    });
  }
});
