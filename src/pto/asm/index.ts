/**
 * PTO-AS text: parser, canonical printer, verifier, and the program walker. Browser-safe: reading a
 * file is `loadProgram` in ./load.ts (node only).
 */
import type { Module } from './ast.ts';
import type { Profile } from './verify.ts';

export * from './ast.ts';
export { attrWord, type CallInput, type TileCall, tileCall } from './call.ts';
export {
  type ExecContext,
  type ExecHooks,
  execFunc,
  findFunc,
  type PtrValue,
  type RtValue,
  type TileValue,
  type ViewValue,
} from './exec.ts';
export { BUFFER_SPACES, BufferMemory, type Placement, type SpaceSpec } from './memory.ts';
export { OP_SIGS, type OperandKind, type OpFamily, type OpSig } from './ops.ts';
export { detectTargetArch, type ParseOptions, parsePtoAs, parseType } from './parser.ts';
export { printAttr, printModule, printType } from './printer.ts';
export {
  formatTraceEvent,
  type RunOptions,
  type RunResult,
  runProgram,
  type TraceEvent,
  type TraceValue,
} from './run.ts';
export { setSupportTable } from './support.ts';
export { asTileBuf, dtypeOfName, elemOf, tileShape } from './types.ts';
export {
  type Diagnostic,
  diagnosticError,
  type Profile,
  type VerifyOptions,
  verifyDiagnostics,
  verifyModule,
} from './verify.ts';

/**
 * The profile a module asks for with `module attributes {"pto.target_arch" = "a3" | "a5"}`
 * (a3 → `a2a3`, a5 → `a5`), or undefined. A command-line `--profile` overrides it.
 */
export function moduleProfile(m: Module): Profile | undefined {
  const a = m.attrs?.find((x) => x.name === 'pto.target_arch');
  const v = a?.value.kind === 'string' ? a.value.value.toLowerCase() : undefined;
  return v === 'a3' ? 'a2a3' : v === 'a5' ? 'a5' : undefined;
}
