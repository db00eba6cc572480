import { unsupported } from '../../errors.ts';
import type { AmxState } from '../state.ts';

export function execMatint(_s: AmxState, _lo: number, _hi: number): void {
  throw unsupported('matint is not implemented yet');
}
