/**
 * Executes one AMX instruction on a state: `op` is the 5-bit opcode (bits 5-9 of the A64 word) and
 * the 64-bit operand arrives as two 32-bit halves. set/clr (opcode 17) take their 5-bit immediate
 * in `lo`. Dispatch is a switch on the opcode so that it stays monomorphic and allocation-free.
 */
import { badInput } from '../errors.ts';
import { execExtrH, execExtrV } from './insns/extr.ts';
import { execFma16, execFma32, execFma64 } from './insns/fma.ts';
import { execGenlut } from './insns/genlut.ts';
import { execLdXY, execLdz, execLdzi, execStXY, execStz, execStzi } from './insns/ldst.ts';
import { execMac16 } from './insns/mac16.ts';
import { execMatfp } from './insns/matfp.ts';
import { execMatint } from './insns/matint.ts';
import { execSetClr } from './insns/setclr.ts';
import { execVecfp } from './insns/vecfp.ts';
import { execVecint } from './insns/vecint.ts';
import type { AmxState } from './state.ts';

export function executeRaw(s: AmxState, op: number, lo: number, hi: number): void {
  if (op === 17) {
    execSetClr(s, lo);
    return;
  }
  if (s.requireEnabled && !s.enabled) {
    throw badInput('AMX instruction executed while AMX is disabled', {
      hint: 'issue `set` first (the hardware raises an invalid-instruction exception otherwise)',
    });
  }
  switch (op) {
    case 0:
      execLdXY(s, s.x, lo, hi, 'ldx');
      break;
    case 1:
      execLdXY(s, s.y, lo, hi, 'ldy');
      break;
    case 2:
      execStXY(s, s.x, lo, hi, 'stx');
      break;
    case 3:
      execStXY(s, s.y, lo, hi, 'sty');
      break;
    case 4:
      execLdz(s, lo, hi);
      break;
    case 5:
      execStz(s, lo, hi);
      break;
    case 6:
      execLdzi(s, lo, hi);
      break;
    case 7:
      execStzi(s, lo, hi);
      break;
    case 8:
      execExtrH(s, lo, hi);
      break;
    case 9:
      execExtrV(s, lo, hi);
      break;
    case 10:
      execFma64(s, lo, hi, false);
      break;
    case 11:
      execFma64(s, lo, hi, true);
      break;
    case 12:
      execFma32(s, lo, hi, false);
      break;
    case 13:
      execFma32(s, lo, hi, true);
      break;
    case 14:
      execMac16(s, lo, hi);
      break;
    case 15:
      execFma16(s, lo, hi, false);
      break;
    case 16:
      execFma16(s, lo, hi, true);
      break;
    case 18:
      execVecint(s, lo, hi);
      break;
    case 19:
      execVecfp(s, lo, hi);
      break;
    case 20:
      execMatint(s, lo, hi);
      break;
    case 21:
      execMatfp(s, lo, hi);
      break;
    case 22:
      execGenlut(s, lo, hi);
      break;
    default:
      throw badInput(`AMX opcode ${op} does not exist`, { hint: 'opcodes 0-22 are defined' });
  }
}

/** Convenience form taking the operand as a bigint. */
export function execute(s: AmxState, op: number, operand: bigint): void {
  const v = BigInt.asUintN(64, operand);
  executeRaw(s, op, Number(v & 0xffffffffn), Number(v >> 32n));
}
