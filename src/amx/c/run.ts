/**
 * Running AMX C kernels as written (issue 14): the source goes through the project's one C front
 * end (src/cfront: preprocess -> parse -> evaluate) with axsim's AMX header (header.ts); every
 * `AMX_*` call issues its instruction, with the operand the C code computed, to the exact emulator
 * in program order. C objects and AMX loads/stores share one flat memory (the evaluator's), so a
 * pointer cast to `uint64_t` is the address the AMX instruction reads.
 *
 *   const r = runAmxC(src, { entry: 'sgemm(32, 32, 64, A, B, C)', args: { A, B, C }, gen: 'm1' });
 *
 * Arrays bound by name are copied into the evaluator's memory (128-byte aligned, as AMX pair loads
 * need) and are read back after the call; in the entry expression their names become pointers of
 * the array's element type.
 */
import { type Budget, defaultBudget } from '../../budget.ts';
import {
  type BuiltinCtx,
  type BuiltinFn,
  type Evaluator,
  loadProgram,
  type Memory,
  type Parser,
  type Program,
  type SrcLoc,
  type Stmt,
  stringValue,
  type Value,
} from '../../cfront/index.ts';
import { AxsimError, badInput, type ErrorLocation, unsupported } from '../../errors.ts';
import { readTextFile } from '../../host.ts';
import { dtypeSize, type NpyDtype } from '../../io/index.ts';
import type { AmxOp } from '../asm.ts';
import { MNEMONICS } from '../encoding.ts';
import { executeRaw } from '../exec.ts';
import { type AmxGen, AmxMemory, AmxState } from '../state.ts';
import { AMX_VIRTUAL_FILES } from './header.ts';

/** A host array: its element type, shape and little-endian bytes (read back after the run). */
export interface AmxCArray {
  dtype: NpyDtype;
  shape: number[];
  bytes: Uint8Array;
}

export interface AmxCOptions {
  /** `f(args…)` with bound array names among the arguments, or a bare function name (`main`). */
  entry: string;
  gen?: AmxGen;
  file?: string;
  args?: Record<string, AmxCArray>;
  includeDirs?: string[];
  defines?: Record<string, string>;
  /** More virtual files (path -> text) beside axsim's AMX and standard headers. */
  virtualFiles?: Record<string, string>;
  budget?: Budget;
  /** Record every issued instruction (for the cycle model). */
  trace?: boolean;
  /**
   * Called with each instruction before it executes and the state it will execute on (steppers:
   * record the memory a load reads, snapshot registers). Must not change the state.
   */
  onIssue?: (op: number, operand: bigint, state: AmxState) => void;
  /** Called once the arrays are in the program's memory, before the entry runs, with their addresses. */
  onStart?: (addresses: Record<string, number>) => void;
  /**
   * Reuse the program a previous run of the same source loaded (default true; see `runAmxC`).
   * False always preprocesses, parses and compiles anew (and keeps nothing).
   */
  cache?: boolean;
}

export interface AmxCResult {
  state: AmxState;
  /** Instructions issued (set/clr included). */
  issued: number;
  /** With `trace`: the issued instructions in order. */
  ops: AmxOp[];
  /** The bound arrays after the run. */
  arrays: Record<string, AmxCArray>;
  /** Where each bound array lives in the program's memory (the address AMX operands use). */
  addresses: Record<string, number>;
  /** The entry's return value, when it returns an arithmetic value. */
  returned?: number | bigint;
  /** The run reused the program of an earlier run of the same source (not preprocessed, parsed or compiled again). */
  reused: boolean;
  /** The preprocessor's warnings (`#warning`, `#line` not applied), in source order. */
  warnings: AxsimError[];
}

const C_TYPE_OF: Record<NpyDtype, string> = {
  f2: 'unsigned short',
  f4: 'float',
  f8: 'double',
  i1: 'signed char',
  u1: 'unsigned char',
  i2: 'short',
  u2: 'unsigned short',
  i4: 'int',
  u4: 'unsigned int',
  i8: 'long long',
  u8: 'unsigned long long',
};

/**
 * AMX loads and stores go to the C program's memory: addresses are the evaluator's byte
 * addresses (below 2^32), so the high operand half must be zero.
 */
class CfrontAmxMemory extends AmxMemory {
  /** The instruction being executed (its location is made only for an error). */
  where: ErrorLocation | SrcLoc | undefined;
  constructor(readonly cmem: Memory) {
    super();
  }
  private check(lo: number, hi: number, len: number, what: string): void {
    if (hi !== 0) {
      const w = this.where;
      throw badInput(
        `AMX ${what} at 0x${((BigInt(hi) << 32n) | BigInt(lo >>> 0)).toString(16)}: not memory of the C program`,
        {
          location: w && { file: w.file, line: w.line, col: w.col },
          hint: 'the operand address must be a pointer the program owns',
        },
      );
    }
    void len;
  }
  override read(lo: number, hi: number, dst: Uint8Array, dstOff: number, len: number): void {
    this.check(lo, hi, len, 'load');
    dst.set(this.cmem.view(lo >>> 0, len), dstOff);
  }
  override write(lo: number, hi: number, src: Uint8Array, srcOff: number, len: number): void {
    this.check(lo, hi, len, 'store');
    this.cmem.view(lo >>> 0, len).set(src.subarray(srcOff, srcOff + len));
  }
  override readBytes(addr: bigint, len: number): Uint8Array {
    return this.cmem.view(Number(addr), len).slice();
  }
  override writeBytes(addr: bigint, bytes: Uint8Array): void {
    this.cmem.view(Number(addr), bytes.length).set(bytes);
  }
}

function intArg(v: Value, what: string, at: ErrorLocation): bigint {
  if (v.k === 'int') return v.v;
  if (v.k === 'ptr') return BigInt(v.addr);
  throw badInput(`${what} must be an integer (a uint64_t operand), not a ${v.k}`, { location: at });
}

/** Replaces bound array names in the entry text by typed pointer casts (token by token). */
function bindEntry(entry: string, addrs: Map<string, { addr: number; dtype: NpyDtype }>): string {
  return entry.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (name, off: number) => {
    const b = addrs.get(name);
    // not a member name (`.A`, `->A`) and not a bound name: left alone
    if (!b || /(\.|->)\s*$/.test(entry.slice(0, off))) return name;
    return `((${C_TYPE_OF[b.dtype]} *)${b.addr})`;
  });
}

function ptrArg(v: Value | undefined, what: string, at: ErrorLocation): number {
  if (v?.k === 'ptr') return v.addr;
  throw badInput(`${what} must be a pointer`, { location: at });
}

/** `__axsim_amx` plus the C library calls AMX kernels make, on the evaluator's memory. */
function libraryBuiltins(amx: BuiltinFn): Map<string, BuiltinFn> {
  const m = new Map<string, BuiltinFn>();
  m.set('__axsim_amx', amx);
  m.set('memcpy', (ctx) => {
    const at = ctx.ev.loc(ctx.at);
    const d = ptrArg(ctx.args[0], 'memcpy destination', at);
    const s = ptrArg(ctx.args[1], 'memcpy source', at);
    const n = Number(intArg(ctx.args[2]!, 'memcpy size', at));
    ctx.ev.mem.view(d, n).set(ctx.ev.mem.view(s, n).slice());
    return ctx.args[0];
  });
  m.set('memset', (ctx) => {
    const at = ctx.ev.loc(ctx.at);
    const d = ptrArg(ctx.args[0], 'memset destination', at);
    const v = Number(intArg(ctx.args[1]!, 'memset value', at) & 0xffn);
    const n = Number(intArg(ctx.args[2]!, 'memset size', at));
    ctx.ev.mem.view(d, n).fill(v);
    return ctx.args[0];
  });
  m.set('__axsim_assert_fail', (ctx) => {
    const text = ctx.args[0]?.k === 'ptr' ? (ctx.args[0].str ?? '') : '';
    throw badInput(`assertion failed: ${text}`, { location: ctx.ev.loc(ctx.at) });
  });
  m.set('abort', (ctx) => {
    throw badInput('abort() called', { location: ctx.ev.loc(ctx.at) });
  });
  return m;
}

/**
 * GNU inline assembly statements (`__asm__ volatile ("…" : outputs : inputs : clobbers);`) are
 * parsed here, not by the front end: AMX kernels use them for prefetch hints (BLIS's
 * `prfm PLDL1STRM, [%[a_next], 64*0]`), which change no architectural state and run as no-ops.
 * Any other instruction is an Unsupported error at the statement when it runs (AMX instructions
 * are written with the AMX_* names, which axsim's header provides).
 */
function parseAsm(p: Parser): Stmt | undefined {
  const t = p.peek();
  if (t.kind !== 'ident' || (t.text !== 'asm' && t.text !== '__asm__' && t.text !== '__asm'))
    return undefined;
  const at = p.at(t);
  p.next();
  while (p.peek().kind === 'ident' && /^(volatile|__volatile__|inline|goto)$/.test(p.peek().text)) p.next();
  p.expect('(', 'after asm');
  let template = '';
  while (p.peek().kind === 'string') {
    const s = p.next();
    template += stringValue(s.text, p.loc(s));
  }
  // operands and clobbers: skipped up to the matching parenthesis
  let depth = 1;
  while (depth > 0) {
    const u = p.next();
    if (u.kind === 'eof') p.fail('unterminated asm statement', t);
    if (u.text === '(') depth++;
    else if (u.text === ')') depth--;
  }
  p.expect(';', 'after asm');
  return { kind: 'ext', data: { asm: template }, at };
}

const PREFETCH_ONLY = /^\s*(prfm\s[^;\n]*)?$/i;

function execAsm(s: Stmt & { kind: 'ext' }, ev: { loc: (at: Stmt['at']) => ErrorLocation }): void {
  const d = s.data as { asm?: string } | undefined;
  const lines = (d?.asm ?? '').split(/\n|;/);
  if (d?.asm === undefined || !lines.every((l) => PREFETCH_ONLY.test(l)))
    throw unsupported(`inline assembly: ${JSON.stringify(d?.asm ?? '')}`, {
      location: ev.loc(s.at),
      hint: 'axsim runs prefetch hints (prfm) as no-ops; write AMX instructions with the AMX_* names of aarch64.h / amx.h',
    });
}

/** What the AMX builtins of a program act on: the run in progress. */
interface AmxRun {
  state: AmxState;
  amem: CfrontAmxMemory;
  trace: boolean;
  onIssue: AmxCOptions['onIssue'];
  ops: AmxOp[];
  issued: number;
}

/**
 * A loaded program kept for the next run of the same text (issue 14: decode once, execute many).
 * Its builtins act on `box.run`, the run in progress; `probes` are the files the preprocessor
 * looked for on disk, with what it found (undefined: absent), checked again before reuse.
 */
interface CachedProgram {
  prog: Program;
  box: { run: AmxRun | undefined };
  probes: Map<string, string | undefined>;
}

/** Programs by source text and preprocessing options, most recently used last. */
const programs = new Map<string, CachedProgram>();
const MAX_PROGRAMS = 8;

/** Issues one instruction (operand as 32-bit halves) of the run in progress; `at` names it in errors. */
function issue(run: AmxRun, op: number, lo: number, hi: number, at: SrcLoc): void {
  run.amem.where = at;
  if (run.onIssue) run.onIssue(op, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0), run.state);
  try {
    executeRaw(run.state, op, lo, hi);
  } catch (e) {
    if (e instanceof AxsimError) {
      const name = op === 17 ? (lo === 0 && hi === 0 ? 'set' : 'clr') : (MNEMONICS[op] ?? `op ${op}`);
      if (e.location) throw e;
      throw new AxsimError(e.category, `AMX ${name}: ${e.message}`, {
        location: { file: at.file, line: at.line, col: at.col },
        hint: e.hint,
      });
    }
    throw e;
  }
  run.issued++;
  if (run.trace) {
    const operand = (BigInt(hi) << 32n) | BigInt(lo);
    run.ops.push({
      name: op === 17 ? (operand === 0n ? 'set' : 'clr') : (MNEMONICS[op] ?? ''),
      op,
      operand,
      line: at.line,
    });
  }
}

/** Preprocesses and parses `source` with the AMX builtins acting on `box.run`. */
function loadAmxProgram(source: string, opts: AmxCOptions, budget: Budget): CachedProgram {
  const box: { run: AmxRun | undefined } = { run: undefined };
  const amx = (ctx: BuiltinCtx): undefined => {
    const where = ctx.ev.loc(ctx.at);
    if (ctx.args.length !== 2) throw badInput('__axsim_amx takes (opcode, operand)', { location: where });
    const op = Number(intArg(ctx.args[0]!, 'the AMX opcode', where));
    const operand = BigInt.asUintN(64, intArg(ctx.args[1]!, 'the AMX operand', where));
    issue(box.run!, op, Number(operand & 0xffffffffn), Number(operand >> 32n), ctx.at);
    return undefined;
  };
  // compiled C passes the arguments as 32-bit halves (no BigInt on the hot path)
  amx.halves = (ev: Evaluator, at: SrcLoc, a: readonly number[]): void => {
    if (a.length !== 4) throw badInput('__axsim_amx takes (opcode, operand)', { location: ev.loc(at) });
    // the opcode as intArg reads it: the signed 64-bit value as a number
    const op = a[1]! >= 0x80000000 ? (a[1]! - 4294967296) * 4294967296 + a[0]! : a[1]! * 4294967296 + a[0]!;
    issue(box.run!, op, a[2]!, a[3]!, at);
  };
  const probes = new Map<string, string | undefined>();
  const prog = loadProgram(source, {
    file: opts.file ?? '<input>',
    model: 'lp64',
    budget,
    includeDirs: opts.includeDirs,
    defines: opts.defines,
    virtualFiles: { ...AMX_VIRTUAL_FILES, ...opts.virtualFiles },
    readFile: (path) => {
      const text = readTextFile(path);
      probes.set(path, text);
      return text;
    },
    statementHook: parseAsm,
    host: { builtins: libraryBuiltins(amx), execExt: (st, ev) => execAsm(st, ev) },
  });
  return { prog, box, probes };
}

/**
 * Preprocesses, parses and runs a C kernel; AMX instructions execute on a fresh state.
 *
 * The loaded program (parsed functions and their compiled closures) is kept for the next run of
 * the same source with the same preprocessing options, when the files it read from disk are
 * unchanged; that run starts from a fresh memory and budget (`Evaluator.resetForRun`), so it
 * computes what a first run computes, without preprocessing, parsing and compiling again (and
 * without charging those to its budget).
 */
export function runAmxC(source: string, opts: AmxCOptions): AmxCResult {
  const gen = opts.gen ?? 'm1';
  const budget = opts.budget ?? defaultBudget();
  const key = JSON.stringify([
    source,
    opts.file ?? '<input>',
    opts.includeDirs ?? [],
    Object.entries(opts.defines ?? {}),
    Object.entries(opts.virtualFiles ?? {}),
  ]);
  const useCache = opts.cache ?? true;
  let cached = useCache ? programs.get(key) : undefined;
  // in use by this run only (a failed run's evaluator is not reused)
  programs.delete(key);
  if (cached && [...cached.probes].some(([path, text]) => readTextFile(path) !== text)) cached = undefined;
  const reused = cached !== undefined;
  if (cached) cached.prog.ev.resetForRun(budget);
  else cached = loadAmxProgram(source, opts, budget);
  const { prog, box } = cached;
  const ev = prog.ev;
  const amem = new CfrontAmxMemory(ev.mem);
  const state = new AmxState({ gen, mem: amem });
  state.requireEnabled = true;
  const run: AmxRun = { state, amem, trace: opts.trace ?? false, onIssue: opts.onIssue, ops: [], issued: 0 };
  box.run = run;
  const addrs = new Map<string, { addr: number; dtype: NpyDtype }>();
  // one heap growth for all arrays (each copied once), 128 bytes of alignment slack per array
  let total = 0;
  for (const a of Object.values(opts.args ?? {})) total += a.bytes.length + 128;
  ev.mem.heapReserve(total);
  for (const [name, a] of Object.entries(opts.args ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw badInput(`array name '${name}' is not a C identifier`);
    const addr = ev.mem.bind(a.bytes, 128);
    addrs.set(name, { addr, dtype: a.dtype });
  }
  if (opts.onStart) opts.onStart(Object.fromEntries([...addrs].map(([n, a]) => [n, a.addr])));
  const v = ev.callEntry(bindEntry(opts.entry, addrs), '<entry>');
  box.run = undefined;
  const arrays: Record<string, AmxCArray> = {};
  const addresses: Record<string, number> = {};
  for (const [name, a] of Object.entries(opts.args ?? {})) {
    const { addr } = addrs.get(name)!;
    arrays[name] = { dtype: a.dtype, shape: a.shape, bytes: ev.mem.view(addr, a.bytes.length).slice() };
    addresses[name] = addr;
  }
  const returned = v.k === 'int' ? v.v : v.k === 'float' ? v.v : undefined;
  if (useCache) {
    // the kept program does not hold on to this run's memory (bound arrays) until its next run
    ev.resetForRun(budget);
    programs.set(key, cached);
    if (programs.size > MAX_PROGRAMS) programs.delete(programs.keys().next().value!);
  }
  return {
    state,
    issued: run.issued,
    ops: run.ops,
    arrays,
    addresses,
    returned,
    reused,
    warnings: prog.pp.warnings,
  };
}

/** A zero-filled host array of `dtype` and `shape` (for outputs). */
export function zeroArray(dtype: NpyDtype, shape: number[]): AmxCArray {
  return { dtype, shape, bytes: new Uint8Array(shape.reduce((a, b) => a * b, 1) * dtypeSize(dtype)) };
}
