/** Apple AMX: the public API of axsim's AMX simulator. */

export {
  type AmxDataBlock,
  type AmxOp,
  type AmxProgram,
  assemble,
  describeOp,
  disassemble,
  disassembleOp,
  runProgram,
} from './asm.ts';
export { buildImage, makeAmxRunner, runAmxCase, SplitMix64 } from './conformance.ts';
export {
  type Decoded,
  decode,
  decodeWord,
  encode,
  encodeWord,
  type FieldDef,
  INSNS,
  type InsnDef,
  insnFor,
  MNEMONICS,
} from './encoding.ts';
export { execute, executeRaw } from './exec.ts';
export {
  type AmxAccessSet,
  type AmxFootprint,
  type AmxMemRange,
  amxFootprint,
  amxMemoryAccess,
} from './footprint.ts';
export { AmxMachine, type AmxRegister, type AmxSnapshot } from './machine.ts';
export { AMX_GENS, type AmxGen, AmxMemory, AmxState, fnv1a64, parseGen } from './state.ts';
