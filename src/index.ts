/**
 * The package entry `axsim`: the error type every part of axsim throws. The simulators are in their
 * own entry points, so that importing one ISA loads only that ISA:
 *
 *   axsim/tensix      TensixMachine, Dst formats, encodings, the cycle model (Wormhole B0, Blackhole)
 *   axsim/tensix/asm  the Tensix assembler and disassembler
 *   axsim/amx         AmxMachine, AmxState, the AMX assembler, encodings, execution
 *   axsim/pto         PtoMachine, tiles and tile instructions, PTO-AS text (`asm`)
 *   axsim/numeric     exact numeric formats and rounding
 *   axsim/io          .npy / JSON tensors and file readers (Node.js only)
 *
 * See docs/api.md.
 */
export {
  AxsimError,
  type ErrorCategory,
  type ErrorLocation,
  isAxsimError,
} from './errors.ts';
