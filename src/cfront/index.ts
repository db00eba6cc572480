/**
 * cfront: the one C/C++ front end of axsim (docs/cfront.md), as named passes:
 *   preprocess (preprocess.ts) -> parse (parse.ts, AST in ast.ts) -> evaluate (eval.ts) -> an ISA
 *   emitter (Tensix: src/tensix/asm/kernel.ts; AMX C kernels reuse the same passes).
 * `loadProgram` runs the first two and returns an Evaluator ready to run top-level statements or
 * call an entry function.
 */
import type { Budget } from '../budget.ts';
import { defaultBudget } from '../budget.ts';
import { AxsimError, internalError } from '../errors.ts';
import type { TranslationUnit } from './ast.ts';
import { type EvalOptions, Evaluator, type Host } from './eval.ts';
import { type ParseOptions, Parser } from './parse.ts';
import { type PreprocessOptions, type PreprocessResult, preprocess } from './preprocess.ts';

export type { Decl, Expr, FuncDecl, Stmt, TranslationUnit, TypeSyntax } from './ast.ts';
export {
  type BuiltinCtx,
  type BuiltinFn,
  type EvalOptions,
  Evaluator,
  type Host,
  intToFloat,
  type LV,
  type Value,
} from './eval.ts';
export { lex, type SrcLoc, stringValue, type Token, tokLoc } from './lex.ts';
export { parseFloatLiteral, roundRational } from './literal.ts';
export { HEAP_BASE, Memory, type Region, type RegionHooks } from './memory.ts';
export { type ParseOptions, Parser, parse, typeText } from './parse.ts';
export { ParseMemo, type ParseMemoStats } from './parse-memo.ts';
export {
  type Macro,
  type PreprocessOptions,
  Preprocessor,
  type PreprocessResult,
  parseIntLiteral,
  preprocess,
} from './preprocess.ts';
export * as ctypes from './types.ts';

export interface LoadOptions extends PreprocessOptions {
  /** Name of the source for locations. */
  file?: string;
  budget?: Budget;
  model?: EvalOptions['model'];
  host?: Host;
  script?: boolean;
  statementHook?: ParseOptions['statementHook'];
  eagerBodies?: boolean;
  optionalSemicolon?: boolean;
  asmStatements?: boolean;
  vectorTypedef?: ParseOptions['vectorTypedef'];
  /** Reuse of parsed declarations across runs (parse-memo.ts); with a statementHook, needs hostKey. */
  parseMemo?: ParseOptions['memo'];
  hostKey?: ParseOptions['hostKey'];
}

export interface Program {
  pp: PreprocessResult;
  tu: TranslationUnit;
  parser: Parser;
  ev: Evaluator;
}

/** Preprocesses and parses `source`; returns the evaluator (nothing has run yet). */
export function loadProgram(source: string, opts: LoadOptions = {}): Program {
  const file = opts.file ?? '<input>';
  const budget = opts.budget ?? defaultBudget();
  try {
    const defines = { ...targetDefines(opts.model ?? 'ilp32'), ...opts.defines };
    const pp = preprocess(source, file, { ...opts, defines, budget });
    const parser = new Parser(pp.tokens, file, {
      script: opts.script,
      budget,
      statementHook: opts.statementHook,
      eagerBodies: opts.eagerBodies,
      optionalSemicolon: opts.optionalSemicolon,
      asmStatements: opts.asmStatements,
      vectorTypedef: opts.vectorTypedef,
      memo: opts.parseMemo,
      hostKey: opts.hostKey,
    });
    const tu = parser.translationUnit();
    const ev = new Evaluator(tu, parser, { model: opts.model, budget, host: opts.host, mainFile: file });
    return { pp, tu, parser, ev };
  } catch (e) {
    throw wrapInternal(e);
  }
}

/**
 * The macros the targets' compilers predefine about their integer types (what <climits> reads):
 * riscv32 GCC defines __CHAR_UNSIGNED__ (plain char is unsigned in the RISC-V psABI) and a 32-bit
 * __LONG_MAX__; Apple arm64 Clang a signed char and a 64-bit long.
 */
export function targetDefines(model: 'ilp32' | 'lp64'): Record<string, string> {
  return model === 'lp64'
    ? { __LONG_MAX__: '0x7fffffffffffffffL' }
    : { __CHAR_UNSIGNED__: '1', __LONG_MAX__: '0x7fffffffL' };
}

/** A non-AxsimError escaping a pass is a bug: report it as Internal (never a raw crash). */
export function wrapInternal(e: unknown): AxsimError {
  if (e instanceof AxsimError) return e;
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new AxsimError('ResourceLimit' as never, 'the program nests too deeply (host stack exhausted)', {
      cause: e,
    });
  }
  return internalError(`cfront failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
}
