import { unsupported } from '../../errors.ts';
import type { AmxState } from '../state.ts';

export function execVecint(_s: AmxState, _lo: number, _hi: number): void {
  throw unsupported('vecint is not implemented yet');
}
