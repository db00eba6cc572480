import { unsupported } from '../../errors.ts';
import type { AmxState } from '../state.ts';

export function execGenlut(_s: AmxState, _lo: number, _hi: number): void {
  throw unsupported('genlut is not implemented yet');
}
