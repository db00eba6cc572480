/**
 * The package entry `axsim/io` (Node.js only): NumPy .npy and JSON tensors, and reading program
 * files (`loadPtoProgram`: read, parse and verify a PTO-AS file).
 */
export { loadProgram as loadPtoProgram } from '../pto/asm/load.ts';
export * from './index.ts';
