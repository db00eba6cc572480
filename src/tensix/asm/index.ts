/**
 * The Tensix assembler and disassembler (docs/tensix-asm.md).
 * - `assemble(source, arch, {file?, defines?, entry?})` -> `{words, lines, warnings, sources, events}`
 *   (the `.sfpu` form), `compileKernel(source, {arch, entry?, defines?, includeDirs?, virtualFiles?})`
 *   (tt-llk kernel headers), both on the C/C++ front end in src/cfront/
 * - `disassemble(words, arch, {style?: 'canonical' | 'macro', comments?})` -> one line per word;
 *   `disassembleWord(word, arch, opts)`; `describeWordAs(word, arch, style)` -> `{text, note?}`.
 */

// The SFPI compiler (src/tensix/sfpi, docs/sfpi.md): SFPI kernels in the LLK environment.
export { compileSfpi, type SfpiOptions } from '../sfpi/compile.ts';
export {
  type DisassembleOptions,
  describeWord,
  describeWordAs,
  disassemble,
  disassembleWord,
  macroText,
} from './disassemble.ts';
export {
  type AssembleOptions,
  type AssembleResult,
  assemble,
  compileKernel,
  type KernelEvent,
  type KernelOptions,
  type SourcePos,
  TENSIX_CFG_BASE,
  TensixEmitter,
} from './kernel.ts';
export { archTables, type MacroArg, type MacroDef } from './tables.ts';
