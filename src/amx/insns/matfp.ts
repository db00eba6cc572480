import { unsupported } from '../../errors.ts';
import type { AmxState } from '../state.ts';

export function execMatfp(_s: AmxState, _lo: number, _hi: number): void {
  throw unsupported('matfp is not implemented yet');
}
