import { unsupported } from '../../errors.ts';
import type { AmxState } from '../state.ts';

export function execVecfp(_s: AmxState, _lo: number, _hi: number): void {
  throw unsupported('vecfp is not implemented yet');
}
