/**
 * The Tensix assembler and disassembler (docs/tensix-asm.md).
 * - `assemble(source, arch, {file?, defines?})` -> `{words, lines, warnings}`
 * - `disassemble(words, arch)` -> one canonical text line per word; `disassembleWord(word, arch)`.
 */
export { type AssembleOptions, type AssembleResult, assemble } from './assemble.ts';
export { type DisassembleOptions, describeWord, disassemble, disassembleWord } from './disassemble.ts';
export { archTables, type MacroArg, type MacroDef } from './tables.ts';
