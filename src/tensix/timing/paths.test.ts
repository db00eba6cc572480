/**
 * The engine's single-instruction fast path (taken when nothing is scheduled and no timeline is
 * recorded) must agree with the general per-cycle path (forced by recording a timeline) on cycles,
 * stalls, hazards and the final state, for random programs of two-cycle, stalling and ordinary
 * instructions on both arches.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assemble } from '../asm/index.ts';
import { TensixMachine } from '../index.ts';
import { runTimed } from './engine.ts';

const MENU = [
  'TTI_SFPMAD(1, 2, 3, 4, 0);',
  'TTI_SFPMAD(4, 4, 9, 1, 0);',
  'TTI_SFPMOV(0, 4, 5, 0);',
  'TTI_SFPIADD(0, 1, 2, 4);',
  'TTI_SFPSWAP(0, 1, 2, 1);',
  'TTI_SFPSHFT2(0, 1, 3, 3);',
  'TTI_SFPSHFT2(0, 1, 2, 2);',
  'TTI_SFPNOP;',
  'TTI_NOP;',
  'TTI_SFPLOAD(1, 3, 0, 0);',
  'TTI_SFPSTORE(4, 3, 0, 4);',
  'TTI_SFPABS(0, 2, 3, 0);',
  'TTI_SFPADDI(0x3f80, 2, 0);',
  'TTI_SFPPUSHC(0, 0, 0, 0);',
  'TTI_SFPPOPC(0, 0, 0, 0);',
  'TTI_SFPLOADI(2, 0, 0x4000);',
  'TTI_SFPAND(0, 1, 2, 0);',
  // A store reading the row the second SFPMAD writes, and lane flags (half the lanes negative), so
  // early reads happen with some lanes disabled.
  'TTI_SFPSTORE(1, 3, 0, 8);',
  'TTI_SFPENCC(3, 0, 0, 10);',
  'TTI_SFPSETCC(0, 0, 0, 0);',
  'TTI_SFPENCC(0, 0, 0, 0);',
];

const PAIRS = [
  'TTI_SFPMAD(1, 2, 3, 4, 0); TTI_SFPSTORE(4, 3, 0, 4);',
  'TTI_SFPMAD(4, 4, 9, 1, 0); TTI_SFPSTORE(1, 3, 0, 8);',
  'TTI_SFPMAD(1, 2, 3, 4, 0); TTI_SFPLOAD(5, 3, 0, 0);',
  'TTI_SFPMAD(1, 2, 3, 4, 0); TTI_SFPLOAD(4, 3, 0, 0);',
  'TTI_SFPMAD(1, 2, 3, 4, 0); TTI_SFPSTORE(4, 3, 0, 4); TTI_SFPSTORE(4, 3, 0, 8);',
  'TTI_SFPSWAP(0, 1, 2, 1); TTI_SFPSTORE(2, 3, 0, 4);',
  'TTI_SFPSHFT2(0, 1, 2, 2); TTI_SFPSTORE(2, 3, 0, 4);',
];

describe('fast path == general path', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(arch, () => {
      const words = MENU.map((s) => assemble(s, arch).words[0]!);
      // Pairs that put a two-cycle result in front of a load or store (reading it early or not).
      const chunks = [
        ...words.map((w) => [w]),
        ...PAIRS.map((p) => [...assemble(p, arch).words]),
        ...PAIRS.map((p) => [...assemble(p, arch).words]),
      ];
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 0, max: chunks.length - 1 }), { minLength: 1, maxLength: 30 }),
          (idx) => {
            const prog = idx.flatMap((i) => chunks[i]!);
            const run = (timeline: boolean) => {
              const m = new TensixMachine(arch);
              m.configure({ sfpuFp32: true });
              for (let r = 0; r < 8; r++)
                m.setLreg(
                  r,
                  Array.from(
                    { length: 32 },
                    (_, l) => ((l & 1 ? 0xbf800000 : 0x3f800000) + r * 0x100000 + l) >>> 0,
                  ),
                );
              const res = runTimed(m.state, m.compile(prog), { timeline, reps: 2 });
              return { res, snap: m.snapshot() };
            };
            const a = run(false);
            const b = run(true);
            assert.equal(a.res.cycles, b.res.cycles);
            assert.equal(a.res.stallCycles, b.res.stallCycles);
            assert.equal(a.res.executed, b.res.executed);
            assert.deepEqual(
              a.res.hazards.map((h) => [h.id, h.cycle, h.index]),
              b.res.hazards.map((h) => [h.id, h.cycle, h.index]),
            );
            assert.deepEqual(a.res.issueCycle, b.res.issueCycle);
            assert.deepEqual(a.snap, b.snap);
          },
        ),
        { numRuns: 200, seed: 7 },
      );
    });
  }
});
