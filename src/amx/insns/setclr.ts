/**
 * set / clr (opcode 17, 5-bit immediate 0 / 1), per corsix/amx setclr.md: set zeroes X, Y, Z and
 * enables AMX (a second set without clr raises an invalid-instruction exception); clr disables it.
 */
import { badInput } from '../../errors.ts';
import type { AmxState } from '../state.ts';

export function execSetClr(s: AmxState, imm: number): void {
  if (imm === 0) {
    if (s.enabled && s.requireEnabled) {
      throw badInput('set while AMX is already enabled', {
        hint: 'the hardware raises an invalid-instruction exception; issue clr first',
      });
    }
    s.clearRegisters();
    s.enabled = true;
  } else if (imm === 1) {
    s.enabled = false;
  } else {
    throw badInput(`opcode 17 immediate ${imm} is neither set (0) nor clr (1)`);
  }
}
