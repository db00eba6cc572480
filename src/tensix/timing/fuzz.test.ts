/**
 * Timed mode never fails with anything but AxsimError (and never Internal), whatever
 * LoadMacroConfig, templates and instruction mix a program sets up, on both arches.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AxsimError } from '../../errors.ts';
import { encode, instructionSet } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { runTimed } from './engine.ts';

describe('timed mode on random programs', () => {
  for (const arch of ['wormhole', 'blackhole'] as const) {
    it(`${arch}: only AxsimError, never Internal`, () => {
      const defs = instructionSet(arch).filter((d) => d.name !== 'REPLAY');
      const insn = fc
        .tuple(
          fc.integer({ min: 0, max: defs.length - 1 }),
          fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }),
        )
        .map(([i, vals]) => {
          const d = defs[i]!;
          const fields: Record<string, number> = {};
          d.fields.forEach((f, j) => {
            fields[f.name] = vals[j % vals.length]! & f.valueMask;
          });
          return encode(d.name, fields, arch);
        });
      // Bias towards macro activity: SFPCONFIG of Sequence/Misc/templates from LReg[0] and SFPLOADMACROs.
      const cfg = fc
        .integer({ min: 0, max: 0xffffffff })
        .map((v) => [
          encode('SFPLOADI', { lreg_ind: 0, instr_mod0: 10, imm16: v & 0xffff }, arch),
          encode('SFPLOADI', { lreg_ind: 0, instr_mod0: 8, imm16: v >>> 16 }, arch),
          encode('SFPCONFIG', { config_dest: (v >>> 7) % 9, instr_mod1: 0, imm16_math: 0 }, arch),
        ]);
      const macro = fc
        .integer({ min: 0, max: 0xffff })
        .map((v) =>
          encode(
            'SFPLOADMACRO',
            { lreg_ind: v & 15, instr_mod0: 3, sfpu_addr_mode: 0, dest_reg_addr: (v >>> 4) & 0x3ff },
            arch,
          ),
        );
      const prog = fc.array(
        fc.oneof(
          insn.map((w) => [w]),
          cfg,
          macro.map((w) => [w]),
        ),
        { minLength: 1, maxLength: 30 },
      );
      fc.assert(
        fc.property(prog, fc.boolean(), (parts, timeline) => {
          const words = parts.flat();
          const m = new TensixMachine(arch);
          m.state.flagStackPolicy = 'wrap';
          try {
            const p = m.compile(words);
            runTimed(m.state, p, { timeline, maxCycles: 10_000 });
          } catch (e) {
            assert.ok(e instanceof AxsimError, `not an AxsimError: ${e}`);
            assert.notEqual(e.category, 'Internal', e.message);
          }
        }),
        { numRuns: 400, seed: 3 },
      );
    });
  }
});
