/**
 * The Tensix assembler and disassembler (docs/tensix-asm.md).
 * - `assemble(source, arch, {file?, defines?})` -> `{words, lines, warnings}`
 * - `disassemble(words, arch, {style?: 'canonical' | 'macro', comments?})` -> one line per word;
 *   `disassembleWord(word, arch, opts)`; `describeWordAs(word, arch, style)` -> `{text, note?}`.
 */
export { type AssembleOptions, type AssembleResult, assemble } from './assemble.ts';
export {
  type DisassembleOptions,
  describeWord,
  describeWordAs,
  disassemble,
  disassembleWord,
  macroText,
} from './disassemble.ts';
export { archTables, type MacroArg, type MacroDef } from './tables.ts';
