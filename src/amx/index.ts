/** Apple AMX: the public API of axsim's AMX simulator. */

export { buildImage, makeAmxRunner, runAmxCase, SplitMix64 } from './conformance.ts';
export { execute, executeRaw } from './exec.ts';
export { AMX_GENS, type AmxGen, AmxMemory, AmxState, fnv1a64, parseGen } from './state.ts';
