/**
 * The package entry `axsim/pto`: the tile API of ./index.ts, the PTO-AS text tools as the `asm`
 * namespace (parser, printer, verifier, runner; ./asm/index.ts) and `PtoMachine`. Browser-safe:
 * reading a .pto file is `loadPtoProgram` in `axsim/io`.
 */
export * as asm from './asm/index.ts';
export * from './index.ts';
export { PtoMachine, type PtoRunOptions } from './machine.ts';
