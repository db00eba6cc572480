/**
 * The Tensix assembler. One instruction per statement, in any of three forms that may be mixed:
 *  (a) tt-llk macro calls, `TTI_SFPMAD(p_sfpu::LREG1, p_sfpu::LREG0, p_sfpu::LCONST_neg1, p_sfpu::LREG1, 0);`
 *      (also `TT_…(…)` and `TT_OP_…(…)`), arguments in the macro's own order (`macros.data.ts`);
 *  (b) the canonical text the disassembler prints, `SFPMAD lreg_src_a=1 … instr_mod1=0`, fields by
 *      name in any order (`syntax.ts`, derived from the encoding table);
 *  (c) raw words, `.word 0x84067560`.
 * Plus `#define NAME expr` and `constexpr [type] NAME = expr;` for kernel-local constants, `.rept`,
 * `//` and `/* *\/` comments, and the C++ that surrounds instructions in tt-llk kernel functions
 * (`for` loops unrolled, `if constexpr`, blocks, `void` function bodies, sfpi's `dst_reg++`), all
 * evaluated at assembly time. See docs/tensix-asm.md.
 */
import {
  AxsimError,
  badInput,
  type ErrorLocation,
  nearestName,
  undefinedBehaviour,
  unsupported,
} from '../../errors.ts';
import {
  ARCHES,
  type Arch,
  byOpcode,
  type InsnDef,
  instructionSet,
  parseArch,
  templateLoadSlot,
} from '../encoding.ts';
import { convertTo, ExprParser, type Scope, TYPE_WORDS } from './expr.ts';
import { type Token, tokenize } from './lexer.ts';
import { normName, placeValue, type SyntaxField, syntaxOf, UNUSED_BITS } from './syntax.ts';
import { archTables, type MacroDef, stripNamespaces } from './tables.ts';

export interface AssembleOptions {
  /** File name for error locations. */
  file?: string;
  /** Extra named constants, as if `#define`d before the source (e.g. a kernel's template parameters). */
  defines?: Readonly<Record<string, number | bigint>>;
  /** The most words a program may have (default 2^22), a guard against runaway loops. */
  maxWords?: number;
  /**
   * Run only this function: `void` function definitions are then recorded, not run as they are
   * read, and the named one is run at the end (its parameters and template parameters come from
   * `defines`). Calls `name<targs…>(args…)` to recorded functions work either way.
   */
  entry?: string;
}

export interface AssembleResult {
  words: Uint32Array;
  /** The 1-based source line of the statement that produced each word. */
  lines: number[];
  /**
   * Words that were assembled as written but that the decoder will refuse: an opcode the encoding
   * table does not have for this arch, or bits set outside the instruction's fields (possible with
   * the macro and `.word` forms). Running them raises the error given here.
   */
  warnings: AxsimError[];
}

interface KernelFunction {
  name: string;
  head: Token;
  tparams: string[];
  params: { name: string; defaultTokens?: Token[] }[];
  /** Token index of the body's `{`. */
  bodyPos: number;
}

const MACRO_PREFIXES = ['TT_OP_', 'TTI_', 'TT_'] as const;
/** sfpi's Dst pointer; `dst_reg++` advances the Dst RWC. */
const DST_REG = new Set(['dst_reg', 'sfpi::dst_reg', 'ckernel::sfpi::dst_reg']);
/** Words that may start a `constexpr`/`const` declaration. */
const DECL_WORDS = new Set(['constexpr', 'const', 'static', 'inline', 'constinit']);

/** A bound on the program's size, so that a runaway loop cannot exhaust memory. */
const MAX_WORDS = 1 << 22;
/** A bound on loop and `.rept` iterations (an empty body produces no words). */
const MAX_REPEATS = 1 << 20;

const hex32 = (w: number) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

class Assembler {
  readonly p: ExprParser;
  readonly words: number[] = [];
  readonly lines: number[] = [];
  readonly warnings: AxsimError[] = [];
  readonly defines = new Map<string, bigint>();
  readonly tables;
  readonly insnNames: string[];
  /** Constant arrays (`constexpr std::uint32_t A[4] = {…};`). */
  readonly arrays = new Map<string, bigint[]>();
  /** `void` functions read so far, for calls and `entry`. */
  readonly functions = new Map<string, KernelFunction>();
  /** Template parameter names of the `template <…>` header just read, for the next function. */
  pendingTemplate: string[] = [];
  callDepth = 0;
  readonly insnByName: Map<string, InsnDef>;

  constructor(
    readonly src: string,
    readonly arch: Arch,
    readonly opts: AssembleOptions,
  ) {
    this.tables = archTables(arch);
    for (const [k, v] of Object.entries(opts.defines ?? {})) {
      if (typeof v !== 'bigint' && !Number.isSafeInteger(v)) {
        throw badInput(`define ${k} = ${String(v)} is not an integer`, { location: { file: opts.file } });
      }
      this.defines.set(k, BigInt(v));
    }
    const scope: Scope = {
      lookup: (name) => this.defines.get(name) ?? this.tables.constants.get(stripNamespaces(name)),
      names: () => [...this.defines.keys(), ...this.arrays.keys(), ...this.tables.constants.keys()],
      array: (name) => this.arrays.get(name),
      // `TT_OP_X(…)` is a value too (kernels build LoadMacroConfig templates from such words).
      call: (name, parser) => {
        if (name === 'lltt::replay_insn') {
          // lltt.h: (0x04 << 24) | (start << 14) | (length << 4), i.e. TT_OP_REPLAY(start, length, 0, 0)
          const m = this.macroName('TT_OP_REPLAY')!;
          parser.expect('(', 'after lltt::replay_insn');
          const a = { at: parser.peek(), v: parser.expression() };
          parser.expect(',', 'between the arguments of lltt::replay_insn');
          const b = { at: parser.peek(), v: parser.expression() };
          parser.expect(')', 'to close lltt::replay_insn(…)');
          const zero = { at: a.at, v: 0n };
          return BigInt(this.buildMacroWord(m, [a, b, zero, zero], parser));
        }
        const m =
          name.startsWith('TT_OP_') || name.startsWith('ckernel::TT_OP_') ? this.macroName(name) : undefined;
        return m ? BigInt(this.macroWord(m, parser)) : undefined;
      },
    };
    this.p = new ExprParser(tokenize(src, opts.file), scope, opts.file);
    this.insnNames = instructionSet(arch).map((d) => d.name);
    this.insnByName = new Map(instructionSet(arch).map((d) => [d.name, d]));
  }

  loc(t: Token): ErrorLocation {
    return this.p.loc(t);
  }

  run(): AssembleResult {
    const p = this.p;
    while (p.peek().kind !== 'eof') this.statement();
    if (this.opts.entry !== undefined) this.runEntry(this.opts.entry);
    const open = this.repts[this.repts.length - 1];
    if (open) throw badInput('.rept without a matching .endr', { location: this.loc(open.head) });
    return { words: Uint32Array.from(this.words), lines: this.lines, warnings: this.warnings };
  }

  /** Executes one statement (emitting its words). */
  statement(): void {
    const p = this.p;
    const t = p.peek();
    if (t.kind === 'punct' && t.text === ';') {
      p.next();
      return;
    }
    if (t.kind === 'punct' && t.text === '{') {
      this.block();
      return;
    }
    if (t.kind === 'preproc') {
      p.next();
      this.preprocessor(t);
      return;
    }
    if (t.kind === 'directive') {
      this.directive();
      return;
    }
    if (t.kind === 'punct' && t.text === '+' && p.isPunct('+', 1) && DST_REG.has(p.peek(2).text)) {
      this.dstRegIncrement();
      return;
    }
    if (t.kind === 'ident') {
      const macro = this.macroName(t.text);
      if (macro) {
        this.macroCall(macro);
        return;
      }
      switch (t.text) {
        case 'for':
          this.forStatement();
          return;
        case 'if':
          this.ifStatement();
          return;
        case 'namespace':
          // `namespace ckernel { … }`: the body is read as a block
          p.next();
          if (p.peek().kind === 'ident') p.next();
          this.block();
          return;
        case 'using':
        case 'static_assert':
          // compile-time only: nothing to emit
          this.skipStatement();
          return;
        case 'template':
          this.skipTemplateHeader();
          return;
      }
      if (DST_REG.has(t.text)) {
        this.dstRegIncrement();
        return;
      }
      if (t.text === 'lltt::replay' || t.text === 'lltt::record') {
        this.llttReplay();
        return;
      }
      if (t.text === 'load_replay_buf' || t.text === 'ckernel::load_replay_buf') {
        this.loadReplayBuf();
        return;
      }
      if (this.looksLikeFunction()) {
        this.functionDefinition();
        return;
      }
      const fn = this.functions.get(stripNamespaces(t.text));
      if (fn && (p.isPunct('(', 1) || p.isPunct('<', 1))) {
        this.callFunction(fn);
        return;
      }
      if (DECL_WORDS.has(t.text) || TYPE_WORDS.has(t.text.replace(/^std::/, '')) || t.text === 'auto') {
        this.declaration();
        return;
      }
      const def = this.insnByName.get(t.text.toUpperCase());
      if (def) {
        this.canonical(def);
        return;
      }
    }
    throw this.unexpectedStatement(t);
  }

  /** `{ statement… }` */
  block(): void {
    const p = this.p;
    const open = p.expect('{');
    while (!p.isPunct('}')) {
      if (p.peek().kind === 'eof') throw badInput("'{' without a matching '}'", { location: this.loc(open) });
      this.statement();
    }
    p.next();
  }

  /** Counts loop iterations and `.rept` repetitions against one budget. */
  countRepeat(at: Token): void {
    if (++this.replays > MAX_REPEATS) {
      throw badInput(`loops expand to more than ${MAX_REPEATS} repetitions`, { location: this.loc(at) });
    }
  }

  /**
   * `for ([type] VAR = expr; cond; step) statement`, unrolled; `step` is one of `VAR++`, `++VAR`,
   * `VAR--`, `--VAR`, `VAR += expr`, `VAR -= expr`. VAR is visible in the loop only.
   */
  forStatement(): void {
    const p = this.p;
    const head = p.next();
    p.expect('(', 'after for');
    while (p.peek().kind === 'ident' && p.peek(1).kind === 'ident') p.next(); // the type
    const varTok = p.next();
    if (varTok.kind !== 'ident') {
      throw badInput(`expected the loop variable but found ${p.describe(varTok)}`, {
        location: this.loc(varTok),
      });
    }
    const name = varTok.text;
    p.expect('=', `after the loop variable ${name}`);
    const had = this.defines.has(name);
    const saved = this.defines.get(name);
    try {
      this.defines.set(name, p.expression());
      p.expect(';', 'after the loop initialisation');
      const condPos = p.pos;
      p.expression();
      p.expect(';', 'after the loop condition');
      const stepPos = p.pos;
      this.loopStep(name, false);
      p.expect(')', 'to close the for header');
      const bodyPos = p.pos;
      for (;;) {
        p.pos = condPos;
        if (p.expression() === 0n) break;
        this.countRepeat(head);
        p.pos = bodyPos;
        this.statement();
        p.pos = stepPos;
        this.loopStep(name, true);
      }
      p.pos = bodyPos;
      this.skipStatement();
    } finally {
      if (had) this.defines.set(name, saved!);
      else this.defines.delete(name);
    }
  }

  loopStep(name: string, apply: boolean): void {
    const p = this.p;
    const t = p.peek();
    const op = p.peek(1);
    const sign = (c: string) => (c === '+' ? 1n : -1n);
    const isStep = (k: Token) => k.kind === 'punct' && (k.text === '+' || k.text === '-');
    let delta: bigint | undefined;
    if (isStep(t) && p.isPunct(t.text, 1) && p.peek(2).text === name) {
      p.pos += 3;
      delta = sign(t.text);
    } else if (t.kind === 'ident' && t.text === name && isStep(op) && p.isPunct(op.text, 2)) {
      p.pos += 3;
      delta = sign(op.text);
    } else if (t.kind === 'ident' && t.text === name && isStep(op) && p.isPunct('=', 2)) {
      p.pos += 3;
      delta = sign(op.text) * p.expression();
    }
    if (delta === undefined) {
      throw badInput(
        `unsupported loop step: expected ${name}++, ++${name}, ${name}--, ${name} += n or ${name} -= n`,
        { location: this.loc(t) },
      );
    }
    if (apply) this.defines.set(name, this.defines.get(name)! + delta);
  }

  /** `if [constexpr] (cond) statement [else statement]`, with a constant condition. */
  ifStatement(): void {
    const p = this.p;
    p.next();
    if (p.peek().kind === 'ident' && p.peek().text === 'constexpr') p.next();
    p.expect('(', 'after if');
    const c = p.expression();
    p.expect(')', 'to close the if condition');
    if (c !== 0n) this.statement();
    else this.skipStatement();
    if (p.peek().kind === 'ident' && p.peek().text === 'else') {
      p.next();
      if (c !== 0n) this.skipStatement();
      else this.statement();
    }
  }

  /** sfpi's `dst_reg++` (and `dst_reg += n`) is `TTI_INCRWC(0, SFP_DESTREG_STRIDE * n, 0, 0)`. */
  dstRegIncrement(): void {
    const p = this.p;
    const head = p.peek();
    let n: bigint;
    if (p.isPunct('+')) {
      p.pos += 3;
      n = 1n;
    } else {
      p.next();
      if (p.isPunct('+') && p.isPunct('+', 1)) {
        p.pos += 2;
        n = 1n;
      } else if (p.isPunct('+') && p.isPunct('=', 1)) {
        p.pos += 2;
        n = p.expression();
      } else {
        throw badInput(`only ${head.text}++ and ${head.text} += n are supported`, {
          location: this.loc(p.peek()),
        });
      }
    }
    const incr = this.tables.macros.get('INCRWC')!;
    const rwcD = incr.args.find((a) => a.name === 'rwc_d')!;
    const v = (this.tables.constants.get('SFP_DESTREG_STRIDE') ?? 2n) * n;
    if (v < 0n || v >= 1n << BigInt(rwcD.width)) {
      throw badInput(`${head.text} += ${n} does not fit INCRWC's ${rwcD.width}-bit rwc_d`, {
        location: this.loc(head),
      });
    }
    this.emit(incr.opcode * 2 ** 24 + Number(v) * 2 ** rwcD.shift, head, true);
    if (p.isPunct(';')) p.next();
  }

  /**
   * sfpi's lltt.h: `lltt::replay(start, len)` is REPLAY(start, len, 0, 0) and
   * `lltt::record[<lltt::Exec>](start, len)` is REPLAY(start, len, exec, 1), with tt-llk's
   * TT_OP_REPLAY(start_idx, len, execute_while_loading, load_mode) layout.
   */
  llttReplay(): void {
    const p = this.p;
    const head = p.next();
    let exec: bigint = 0n;
    if (head.text === 'lltt::record' && p.isPunct('<')) {
      p.next();
      // a relational expression would swallow the closing '>': read one unary value
      const t = p.next();
      const v = t.kind === 'number' ? t.value : p.scope.lookup(t.text);
      if (v === undefined)
        throw badInput(`expected lltt::Exec or lltt::NoExec but found ${p.describe(t)}`, {
          location: this.loc(t),
        });
      exec = v;
      p.expect('>', 'to close lltt::record<…>');
    }
    p.expect('(', `after ${head.text}`);
    const startAt = p.peek();
    const start = p.expression();
    p.expect(',', `between the arguments of ${head.text}`);
    const lenAt = p.peek();
    const len = p.expression();
    p.expect(')', `to close ${head.text}(…)`);
    if (p.isPunct(';')) p.next();
    const m = this.macroName('TTI_REPLAY')!;
    const record = head.text === 'lltt::record';
    const byName: Record<string, { v: bigint; at: Token }> = {
      start_idx: { v: start, at: startAt },
      len: { v: len, at: lenAt },
      execute_while_loading: { v: exec, at: head },
      load_mode: { v: record ? 1n : 0n, at: head },
    };
    const values = m.def.args.map((a) => byName[a.name]!);
    this.emit(this.buildMacroWord(m, values, p), head, true);
  }

  /**
   * tt-llk ckernel.h `load_replay_buf[<Exec>](start, len, [captures] { body })`: lltt::record(start,
   * len) followed by the body's instructions (the lambda is called once). A body that does not
   * produce exactly `len` instructions records other instructions too: reported as a warning.
   */
  loadReplayBuf(): void {
    const p = this.p;
    const head = p.next();
    let exec = 0n;
    if (p.isPunct('<')) {
      p.next();
      const t = p.next();
      const v = t.kind === 'number' ? t.value : p.scope.lookup(t.text);
      if (v === undefined)
        throw badInput(`expected lltt::Exec or lltt::NoExec but found ${p.describe(t)}`, {
          location: this.loc(t),
        });
      exec = v;
      p.expect('>', 'to close load_replay_buf<…>');
    }
    p.expect('(', 'after load_replay_buf');
    const startAt = p.peek();
    const start = p.expression();
    p.expect(',', 'between the arguments of load_replay_buf');
    const lenAt = p.peek();
    const len = p.expression();
    p.expect(',', 'before the lambda of load_replay_buf');
    const m = this.macroName('TTI_REPLAY')!;
    const byName: Record<string, { v: bigint; at: Token }> = {
      start_idx: { v: start, at: startAt },
      len: { v: len, at: lenAt },
      execute_while_loading: { v: exec, at: head },
      load_mode: { v: 1n, at: head },
    };
    this.emit(
      this.buildMacroWord(
        m,
        m.def.args.map((a) => byName[a.name]!),
        p,
      ),
      head,
      true,
    );
    // the lambda: [captures] (params)? { body }
    const open = p.expect('[', 'to start the lambda of load_replay_buf');
    for (let depth = 1; depth > 0; ) {
      const k = p.next();
      if (k.kind === 'eof') throw badInput("'[' without a matching ']'", { location: this.loc(open) });
      if (k.kind === 'punct' && k.text === '[') depth++;
      if (k.kind === 'punct' && k.text === ']') depth--;
    }
    if (p.isPunct('(')) {
      p.next();
      p.expect(')', 'load_replay_buf lambdas take no parameters here');
    }
    const before = this.words.length;
    this.block();
    const produced = this.words.length - before;
    p.expect(')', 'to close load_replay_buf(…)');
    if (p.isPunct(';')) p.next();
    const want = Number(len) & 63 || 64;
    if (produced !== want) {
      this.warnings.push(
        badInput(`load_replay_buf records ${want} instructions but its body has ${produced}`, {
          location: this.loc(head),
          hint: 'the replay buffer then also records the instructions after the call (REPLAY.md)',
        }),
      );
    }
  }

  /** `template <…>` before a function: skipped (template parameters come from defines). */
  skipTemplateHeader(): void {
    const p = this.p;
    p.next();
    const open = p.peek();
    const parts = this.angleArguments();
    if (parts === undefined)
      throw badInput("'template <' without a matching '>'", { location: this.loc(open) });
    // each parameter's name is its last identifier before any default (`int N = 8`)
    this.pendingTemplate = parts.map((toks) => {
      const eq = toks.findIndex((k) => k.kind === 'punct' && k.text === '=');
      const decl = eq < 0 ? toks : toks.slice(0, eq);
      return [...decl].reverse().find((k) => k.kind === 'ident')?.text ?? '';
    });
  }

  /**
   * At `<`: reads to the matching `>` and returns the tokens of each comma-separated part (commas
   * inside parentheses do not split); undefined when there is no matching `>`.
   */
  angleArguments(): Token[][] | undefined {
    const p = this.p;
    p.expect('<');
    const parts: Token[][] = [[]];
    let depth = 1;
    let parens = 0;
    for (;;) {
      const t = p.next();
      if (t.kind === 'eof') return undefined;
      if (t.kind === 'punct') {
        if (t.text === '(') parens++;
        if (t.text === ')') parens--;
        if (parens === 0 && t.text === '<') depth++;
        if (parens === 0 && (t.text === '>' || t.text === '>>')) {
          depth -= t.text.length;
          if (depth <= 0) break;
        }
        if (parens === 0 && depth === 1 && t.text === ',') {
          parts.push([]);
          continue;
        }
      }
      parts[parts.length - 1]!.push(t);
    }
    return parts[0]!.length === 0 && parts.length === 1 ? [] : parts;
  }

  /** Evaluates a token slice as one expression (positions as in the source). */
  evalTokens(toks: Token[], what: string): bigint {
    const end = toks[toks.length - 1] ?? this.p.peek();
    const sub = new ExprParser(
      [...toks, { kind: 'eof', text: '', line: end.line, col: end.col + end.text.length }],
      this.p.scope,
      this.opts.file,
    );
    const v = sub.expression();
    const after = sub.peek();
    if (after.kind !== 'eof')
      throw badInput(`unexpected ${sub.describe(after)} in ${what}`, { location: sub.loc(after) });
    return v;
  }

  /** At `[specifiers] void NAME (`? */
  looksLikeFunction(): boolean {
    const p = this.p;
    let k = 0;
    let sawVoid = false;
    while (p.peek(k).kind === 'ident') {
      if (p.peek(k).text === 'void') sawVoid = true;
      k++;
    }
    return sawVoid && k >= 2 && p.isPunct('(', k) && p.peek(k - 1).text !== 'void';
  }

  /** `[specifiers] void NAME(params) { body }`: the body is read; parameters need defines. */
  functionDefinition(): void {
    const p = this.p;
    while (!p.isPunct('(', 1)) p.next();
    const nameTok = p.next();
    // parameters: the last identifier of each comma-separated part; a default follows '='
    const params: KernelFunction['params'] = [];
    p.expect('(');
    let part: Token[] = [];
    let depth = 0;
    const flush = () => {
      const eq = part.findIndex((k) => k.kind === 'punct' && k.text === '=');
      const decl = eq < 0 ? part : part.slice(0, eq);
      const name = [...decl].reverse().find((k) => k.kind === 'ident' && k.text !== 'void');
      if (name) params.push({ name: name.text, defaultTokens: eq < 0 ? undefined : part.slice(eq + 1) });
      part = [];
    };
    for (;;) {
      const t = p.next();
      if (t.kind === 'eof') throw badInput("'(' without a matching ')'", { location: this.loc(nameTok) });
      if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) depth++;
      if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) {
        if (depth-- === 0) break;
      }
      if (depth === 0 && t.kind === 'punct' && t.text === ',') flush();
      else part.push(t);
    }
    flush();
    while (p.peek().kind === 'ident') p.next(); // const, noexcept, …
    if (!p.isPunct('{')) {
      throw badInput(`expected the function body '{' but found ${p.describe(p.peek())}`, {
        location: this.loc(p.peek()),
      });
    }
    const fn: KernelFunction = {
      name: nameTok.text,
      head: nameTok,
      tparams: this.pendingTemplate,
      params,
      bodyPos: p.pos,
    };
    this.pendingTemplate = [];
    this.functions.set(fn.name, fn);
    if (this.opts.entry !== undefined) {
      this.skipBalanced('{', '}');
      return;
    }
    try {
      this.block();
    } catch (e) {
      if (
        e instanceof AxsimError &&
        e.message.startsWith('unknown name') &&
        (fn.params.length || fn.tparams.length)
      ) {
        throw new AxsimError(e.category, e.message, {
          location: e.location,
          hint: `${e.hint ? `${e.hint}; ` : ''}${fn.name} runs as it is read: define its parameters (${[...fn.tparams, ...fn.params.map((q) => q.name)].join(', ')}) or choose the function to run (entry, --entry NAME)`,
        });
      }
      throw e;
    }
  }

  /** `name[<targs…>](args…);` of a function read earlier: its body, with the parameters bound. */
  callFunction(fn: KernelFunction): void {
    const p = this.p;
    const head = p.next();
    let targs: bigint[] = [];
    if (p.isPunct('<')) {
      const parts = this.angleArguments();
      if (parts === undefined)
        throw badInput(`'<' without a matching '>' in the call of ${fn.name}`, { location: this.loc(head) });
      targs = parts.map((toks) => this.evalTokens(toks, `a template argument of ${fn.name}`));
    }
    p.expect('(', `in the call of ${fn.name}`);
    const args: bigint[] = [];
    if (!p.isPunct(')')) {
      for (;;) {
        args.push(p.expression());
        if (!p.isPunct(',')) break;
        p.next();
      }
    }
    p.expect(')', `to close the call of ${fn.name}`);
    if (p.isPunct(';')) p.next();
    if (targs.length > fn.tparams.length || args.length > fn.params.length) {
      throw badInput(
        `${fn.name} takes ${fn.tparams.length} template and ${fn.params.length} function argument(s)`,
        {
          location: this.loc(head),
        },
      );
    }
    const bind = new Map<string, bigint>();
    fn.tparams.forEach((name, k) => {
      if (k < targs.length) bind.set(name, targs[k]!);
    });
    fn.params.forEach((q, k) => {
      if (k < args.length) bind.set(q.name, args[k]!);
      else if (q.defaultTokens)
        bind.set(q.name, this.evalTokens(q.defaultTokens, `the default of ${q.name}`));
      else throw badInput(`${fn.name}: no value for parameter ${q.name}`, { location: this.loc(head) });
    });
    this.runBody(fn, bind, head);
  }

  runBody(fn: KernelFunction, bind: Map<string, bigint>, at: Token): void {
    const p = this.p;
    if (++this.callDepth > 64)
      throw badInput('function calls nested more than 64 deep', { location: this.loc(at) });
    const saved = new Map<string, bigint | undefined>();
    for (const [k, v] of bind) {
      saved.set(k, this.defines.get(k));
      this.defines.set(k, v);
    }
    const back = p.pos;
    try {
      p.pos = fn.bodyPos;
      this.block();
    } finally {
      p.pos = back;
      this.callDepth--;
      for (const [k, v] of saved) {
        if (v === undefined) this.defines.delete(k);
        else this.defines.set(k, v);
      }
    }
  }

  runEntry(name: string): void {
    const fn = this.functions.get(name);
    if (!fn) {
      const near = nearestName(name, this.functions.keys());
      throw badInput(`no function '${name}' in the source`, {
        location: { file: this.opts.file },
        hint: near
          ? `did you mean ${near}?`
          : `the functions are: ${[...this.functions.keys()].join(', ') || '(none)'}`,
      });
    }
    const bind = new Map<string, bigint>();
    for (const q of fn.params) {
      if (!this.defines.has(q.name) && q.defaultTokens)
        bind.set(q.name, this.evalTokens(q.defaultTokens, `the default of ${q.name}`));
    }
    this.runBody(fn, bind, fn.head);
  }

  skipBalanced(open: string, close: string): void {
    const p = this.p;
    const start = p.expect(open);
    let depth = 1;
    while (depth > 0) {
      const t = p.next();
      if (t.kind === 'eof')
        throw badInput(`'${open}' without a matching '${close}'`, { location: this.loc(start) });
      if (t.kind === 'punct' && t.text === open) depth++;
      if (t.kind === 'punct' && t.text === close) depth--;
    }
  }

  /** Moves past one statement without executing it (the branch an `if` does not take). */
  skipStatement(): void {
    const p = this.p;
    const t = p.peek();
    if (t.kind === 'eof')
      throw badInput('expected a statement but found end of input', { location: this.loc(t) });
    if (t.kind === 'punct' && t.text === '{') {
      this.skipBalanced('{', '}');
      return;
    }
    if (t.kind === 'preproc') {
      p.next();
      return;
    }
    if (t.kind === 'ident' && (t.text === 'if' || t.text === 'for' || t.text === 'while')) {
      p.next();
      if (p.peek().kind === 'ident' && p.peek().text === 'constexpr') p.next();
      this.skipBalanced('(', ')');
      this.skipStatement();
      if (t.text === 'if' && p.peek().kind === 'ident' && p.peek().text === 'else') {
        p.next();
        this.skipStatement();
      }
      return;
    }
    if (t.kind === 'directive' && t.text === '.rept') {
      let depth = 0;
      for (;;) {
        const k = p.next();
        if (k.kind === 'eof') throw badInput('.rept without a matching .endr', { location: this.loc(t) });
        if (k.kind === 'directive' && k.text === '.rept') depth++;
        if (k.kind === 'directive' && k.text === '.endr' && --depth === 0) return;
      }
    }
    if (
      t.kind === 'directive' ||
      (t.kind === 'ident' && this.insnByName.has(t.text.toUpperCase()) && !p.isPunct('(', 1))
    ) {
      // line-oriented statements: to the end of the line (or a ';')
      p.next();
      while (p.peek().kind !== 'eof' && p.peek().line === t.line && !p.isPunct(';')) p.next();
      if (p.isPunct(';')) p.next();
      return;
    }
    if (t.kind === 'ident' && this.macroName(t.text)) {
      p.next();
      if (p.isPunct('(')) this.skipBalanced('(', ')');
      if (p.isPunct(';')) p.next();
      return;
    }
    // anything else: to the next ';' outside parentheses
    let depth = 0;
    for (;;) {
      const k = p.next();
      if (k.kind === 'eof') throw badInput("expected ';'", { location: this.loc(t) });
      if (k.kind === 'punct' && (k.text === '(' || k.text === '[')) depth++;
      if (k.kind === 'punct' && (k.text === ')' || k.text === ']')) depth--;
      if (k.kind === 'punct' && k.text === ';' && depth <= 0) return;
    }
  }

  unexpectedStatement(t: Token): AxsimError {
    if (t.kind === 'ident') {
      const other = ARCHES.find(
        (a) => a !== this.arch && instructionSet(a).some((d) => d.name === t.text.toUpperCase()),
      );
      if (other) {
        return badInput(`${t.text.toUpperCase()} is not a ${this.arch} instruction`, {
          location: this.loc(t),
          hint: `it exists on ${other}; pass --arch ${other}`,
        });
      }
      const known = [...this.insnNames, ...[...this.tables.macros.keys()].map((m) => `TTI_${m}`)];
      const near = nearestName(t.text, known);
      return badInput(`unknown instruction '${t.text}'`, {
        location: this.loc(t),
        hint: near
          ? `did you mean ${near}?`
          : 'statements are TTI_/TT_/TT_OP_ macro calls, canonical `NAME field=value …` lines, or .word',
      });
    }
    if (t.kind === 'punct' && (t.text === '{' || t.text === '}')) {
      return badInput(`unexpected '${t.text}': only straight-line instruction statements are accepted`, {
        location: this.loc(t),
        hint: 'unroll loops and remove the surrounding function; see docs/tensix-asm.md',
      });
    }
    return badInput(`expected an instruction but found ${this.p.describe(t)}`, { location: this.loc(t) });
  }

  /** `TTI_SFPMAD` -> the SFPMAD macro definition, or undefined when the name is not a macro form. */
  macroName(text: string): { def: MacroDef; form: string } | undefined {
    const name = text.replace(/^ckernel::/, '');
    for (const prefix of MACRO_PREFIXES) {
      if (!name.startsWith(prefix)) continue;
      const base = name.slice(prefix.length);
      const def = this.tables.macros.get(base);
      if (def) return { def, form: `${prefix}${base}` };
    }
    return undefined;
  }

  /** Checks that nothing else follows on the line of `last` (`;` is allowed). */
  endOfLine(last: Token): void {
    const t = this.p.peek();
    if (t.kind === 'punct' && t.text === ';') {
      this.p.next();
      return;
    }
    if (t.kind === 'eof' || t.line > last.line || (t.kind === 'punct' && t.text === '}')) return;
    throw badInput(`expected end of statement but found ${this.p.describe(t)}`, {
      location: this.loc(t),
      hint: 'one instruction per line (or separate them with ;)',
    });
  }

  emit(word: number, at: Token, checkDecodable: boolean): void {
    const max = this.opts.maxWords ?? MAX_WORDS;
    if (this.words.length >= max) {
      throw badInput(`the program has more than ${max} words`, { location: this.loc(at) });
    }
    this.words.push(word >>> 0);
    this.lines.push(at.line);
    if (!checkDecodable) return;
    const def = byOpcode(word >>> 24, this.arch);
    const location = this.loc(at);
    if (!def) {
      this.warnings.push(
        unsupported(
          `${hex32(word)}: opcode 0x${(word >>> 24).toString(16)} is not in axsim's ${this.arch} encoding table`,
          {
            location,
          },
        ),
      );
    } else if (word & def.reservedMask && templateLoadSlot(word, this.arch) < 0) {
      this.warnings.push(
        undefinedBehaviour(
          `${hex32(word)}: ${def.name} has bits set outside its fields (mask ${hex32(word & def.reservedMask)})`,
          { location, hint: 'the decoder requires unused bits to be zero' },
        ),
      );
    }
  }

  macroCall(m: { def: MacroDef; form: string }): void {
    const head = this.p.next();
    this.emit(this.macroWord(m, this.p), head, true);
    // the statement's ';' belongs to it (so that `if (c) TTI_X(…); else …` pairs up)
    if (this.p.isPunct(';')) this.p.next();
  }

  /**
   * Parses the argument list of a macro whose name was just consumed and returns the word
   * `TT_OP_<name>(args)` gives. Also used for `TT_OP_…(…)` inside expressions.
   */
  macroWord(m: { def: MacroDef; form: string }, p: ExprParser): number {
    const { def, form } = m;
    const values: { v: bigint; at: Token }[] = [];
    if (def.args.length === 0) {
      // TTI_SFPNOP takes no arguments; allow an empty pair of parentheses too.
      if (p.isPunct('(') && p.isPunct(')', 1)) {
        p.next();
        p.next();
      }
    } else {
      p.expect('(', `after ${form}`);
      if (!p.isPunct(')')) {
        for (;;) {
          const at = p.peek();
          values.push({ v: p.expression(), at });
          if (!p.isPunct(',')) break;
          p.next();
        }
      }
      const close = p.peek();
      if (!p.isPunct(')') || values.length !== def.args.length) {
        const where = values.length > def.args.length ? values[def.args.length]!.at : close;
        if (values.length !== def.args.length && (p.isPunct(')') || values.length > def.args.length)) {
          throw badInput(
            `${form} takes ${def.args.length} argument(s) (${def.args.map((a) => a.name).join(', ')}) but got ${values.length}`,
            { location: p.loc(where) },
          );
        }
        throw badInput(`expected ',' or ')' in ${form}(…) but found ${p.describe(close)}`, {
          location: p.loc(close),
        });
      }
      p.next();
    }
    return this.buildMacroWord(m, values, p);
  }

  /** The word of macro `m` applied to evaluated arguments (in its order), range-checked. */
  buildMacroWord(
    m: { def: MacroDef; form: string },
    values: { v: bigint; at: Token }[],
    p: ExprParser,
  ): number {
    const { def, form } = m;
    // TT_OP(opcode, params) = (opcode << 24) + params (tt-llk ckernel_ops.h); each argument must
    // stay within its bits, or it would silently add into the neighbouring argument.
    let word = BigInt(def.opcode) << 24n;
    def.args.forEach((a, k) => {
      const { v, at } = values[k]!;
      const max = (1n << BigInt(a.width)) - 1n;
      if (v < 0n || v > max) {
        const hi = a.shift + a.width - 1;
        throw badInput(
          `${form} argument ${k + 1} (${a.name}) = ${v} does not fit in its ${a.width} bit(s) ${hi}:${a.shift}`,
          {
            location: p.loc(at),
            hint:
              v < 0n
                ? `write a negative immediate as a two's-complement field value, e.g. (${v}) & 0x${max.toString(16)}`
                : `the largest value is ${max} (0x${max.toString(16)})${
                    k > 0 ? `; in C the excess would carry into ${def.args[k - 1]!.name}` : ''
                  }`,
          },
        );
      }
      word += v << BigInt(a.shift);
    });
    return Number(word);
  }

  canonical(def: InsnDef): void {
    const p = this.p;
    const head = p.next();
    let last = head;
    const given = new Map<string, { v: bigint; at: Token; nameTok: Token; name: string }>();
    while (p.peek().kind === 'ident' && p.peek().line === head.line && p.isPunct('=', 1)) {
      const nameTok = p.next();
      p.next();
      const at = p.peek();
      const v = p.expression();
      last = p.toks[p.pos - 1]!;
      const key = normName(nameTok.text);
      if (given.has(key))
        throw badInput(`${def.name}: field ${nameTok.text} given twice`, { location: this.loc(nameTok) });
      given.set(key, { v, at, nameTok, name: nameTok.text });
    }
    this.endOfLine(last);
    const syn = syntaxOf(def);
    // Use the documented view (SFPLOADMACRO) when any of its own names appear, else the raw fields.
    const viewOnly = syn.view?.filter((f) => !syn.plain.some((g) => normName(g.name) === normName(f.name)));
    const fields: SyntaxField[] =
      syn.view && viewOnly!.some((f) => given.has(normName(f.name))) ? syn.view : syn.plain;
    let word = (def.opcode << 24) >>> 0;
    // `unused_bits=0x…` (ttsim's decode of a word with bits set outside the fields, e.g. a
    // template load): those bits in place.
    const unused = given.get(normName(UNUSED_BITS));
    if (unused) {
      given.delete(normName(UNUSED_BITS));
      if (unused.v < 0n || (unused.v & ~BigInt(def.reservedMask)) !== 0n) {
        throw badInput(
          `${def.name} ${UNUSED_BITS} = 0x${unused.v.toString(16)} is not within its unused bits (mask 0x${def.reservedMask.toString(16)})`,
          { location: this.loc(unused.at) },
        );
      }
      word = (word | Number(unused.v)) >>> 0;
    }
    const known = new Set(fields.map((f) => normName(f.name)));
    for (const [key, g] of given) {
      if (known.has(key)) continue;
      const all = [...syn.plain, ...(syn.view ?? [])].map((f) => f.name);
      const near = nearestName(g.name, all);
      const mixing = all.some((n) => normName(n) === key);
      throw badInput(`${def.name} has no field '${g.name}'${mixing ? ' in this form' : ''}`, {
        location: this.loc(g.nameTok),
        hint: mixing
          ? `write either ${syn.view!.map((f) => f.name).join(' ')} or ${syn.plain.map((f) => f.name).join(' ')}, not a mix`
          : near && normName(near) !== key
            ? `did you mean ${near}?`
            : `its fields are: ${fields.map((f) => f.name).join(', ') || '(none)'}`,
      });
    }
    const missing = fields.filter((f) => !given.has(normName(f.name)));
    if (missing.length > 0) {
      throw badInput(`${def.name}: missing field(s) ${missing.map((f) => f.name).join(', ')}`, {
        location: this.loc(head),
        hint: 'the canonical form names every field; the macro forms (TTI_…) take positional arguments',
      });
    }
    for (const f of fields) {
      const g = given.get(normName(f.name))!;
      const max = 2 ** f.width - 1;
      if (g.v < 0n || g.v > BigInt(max)) {
        throw badInput(`${def.name} field ${f.name} = ${g.v} does not fit in ${f.width} bit(s)`, {
          location: this.loc(g.at),
          hint:
            g.v < 0n
              ? `write it as a two's-complement field value, e.g. (${g.v}) & 0x${max.toString(16)}`
              : `the largest value is ${max}`,
        });
      }
      word = (word | placeValue(Number(g.v), f)) >>> 0;
    }
    this.emit(word, head, unused !== undefined);
  }

  /** Open `.rept` blocks: where the body starts, how many more times to run it. */
  readonly repts: { head: Token; bodyPos: number; remaining: number }[] = [];
  /** Body repetitions so far, bounded like the word count (empty bodies produce no words). */
  replays = 0;

  directive(): void {
    const p = this.p;
    const t = p.next();
    if (t.text === '.rept') {
      this.rept(t);
      return;
    }
    if (t.text === '.endr') {
      this.endr(t);
      return;
    }
    if (t.text !== '.word' && t.text !== '.ttinsn') {
      const near = nearestName(t.text, ['.word', '.ttinsn', '.rept', '.endr']);
      throw badInput(`unknown directive '${t.text}'`, {
        location: this.loc(t),
        hint: near ? `did you mean ${near}?` : 'the directives are .word, .rept N and .endr',
      });
    }
    for (;;) {
      const at = p.peek();
      const v = p.expression();
      if (v < -(2n ** 31n) || v >= 2n ** 32n) {
        throw badInput(`${t.text} value ${v} does not fit in 32 bits`, { location: this.loc(at) });
      }
      this.emit(Number(BigInt.asUintN(32, v)), at, true);
      if (!p.isPunct(',')) break;
      p.next();
    }
    this.endOfLine(p.toks[p.pos - 1]!);
  }

  /** `.rept N` … `.endr` repeats the statements between them N times (as in GNU as). */
  rept(t: Token): void {
    const p = this.p;
    const at = p.peek();
    const n = p.expression();
    this.endOfLine(p.toks[p.pos - 1]!);
    if (n < 0n || n > 65536n)
      throw badInput(`.rept count ${n} is out of range 0..65536`, { location: this.loc(at) });
    if (n > 0n) {
      this.repts.push({ head: t, bodyPos: p.pos, remaining: Number(n) - 1 });
      return;
    }
    // .rept 0: skip to the matching .endr
    let depth = 1;
    for (;;) {
      const k = p.next();
      if (k.kind === 'eof') throw badInput('.rept without a matching .endr', { location: this.loc(t) });
      if (k.kind === 'directive' && k.text === '.rept') depth++;
      if (k.kind === 'directive' && k.text === '.endr' && --depth === 0) return;
    }
  }

  endr(t: Token): void {
    const top = this.repts[this.repts.length - 1];
    if (!top) throw badInput("'.endr' without a '.rept'", { location: this.loc(t) });
    if (top.remaining > 0) {
      top.remaining--;
      this.p.pos = top.bodyPos;
      this.countRepeat(top.head);
    } else {
      this.repts.pop();
      this.endOfLine(t);
    }
  }

  /** `constexpr [static] [const] [type…] NAME = expr;` */
  declaration(): void {
    const p = this.p;
    const typeWords: string[] = [];
    while (p.peek().kind === 'ident' && !p.isPunct('=', 1) && !p.isPunct('[', 1))
      typeWords.push(p.next().text);
    const name = p.next();
    if (name.kind !== 'ident')
      throw badInput(`expected a name in the declaration but found ${p.describe(name)}`, {
        location: this.loc(name),
      });
    if (p.isPunct('[')) {
      // constexpr type NAME[N] = {a, b, …};
      this.skipBalanced('[', ']');
      p.expect('=', `after ${name.text}[…]`);
      p.expect('{', `to start the values of ${name.text}`);
      const values: bigint[] = [];
      const type = typeWords.filter((w) => !DECL_WORDS.has(w));
      while (!p.isPunct('}')) {
        values.push(convertTo(type, p.expression()));
        if (!p.isPunct(',')) break;
        p.next();
      }
      p.expect('}', `to close the values of ${name.text}`);
      p.expect(';', `after the declaration of ${name.text}`);
      this.arrays.set(name.text, values);
      return;
    }
    p.expect('=', `after ${name.text} (only \`constexpr type NAME = value;\` declarations are accepted)`);
    const v = convertTo(
      typeWords.filter((w) => !DECL_WORDS.has(w)),
      p.expression(),
    );
    this.defines.set(name.text, v);
    if (!p.isPunct(';'))
      throw badInput(`expected ';' after the declaration of ${name.text} but found ${p.describe(p.peek())}`, {
        location: this.loc(p.peek()),
      });
    p.next();
  }

  preprocessor(t: Token): void {
    const text = t.text
      .replace(/\/\*.*?\*\//g, ' ')
      .replace(/\/\/.*$/, '')
      .trim();
    const m = /^#\s*(\w*)\s*(.*)$/s.exec(text)!;
    const [, directive, rest] = m;
    const location = this.loc(t);
    switch (directive) {
      case 'pragma':
      case '':
        return;
      case 'define': {
        const d = /^([A-Za-z_]\w*)(\()?\s*(.*)$/s.exec(rest!);
        if (!d) throw badInput('#define needs a name', { location });
        if (d[2]) {
          throw badInput(`function-like macro ${d[1]}(…) is not supported`, {
            location,
            hint: 'only `#define NAME value` with an integer constant expression',
          });
        }
        const body = d[3]!.trim();
        if (body === '') {
          this.defines.set(d[1]!, 1n);
          return;
        }
        // Evaluate the body with the current scope; its tokens report positions on this line.
        const sub = new ExprParser(
          tokenize(body, this.opts.file).map((k) => ({
            ...k,
            line: t.line,
            col: t.col + text.indexOf(body) + k.col - 1,
          })),
          this.p.scope,
          this.opts.file,
        );
        const v = sub.expression();
        const after = sub.peek();
        if (after.kind !== 'eof')
          throw badInput(`unexpected ${sub.describe(after)} in #define ${d[1]}`, {
            location: sub.loc(after),
          });
        this.defines.set(d[1]!, v);
        return;
      }
      case 'undef':
        this.defines.delete(rest!.trim());
        return;
      default:
        throw badInput(`preprocessor directive #${directive} is not supported`, {
          location,
          hint: 'only #define NAME value, #undef and #pragma (ignored) are accepted',
        });
    }
  }
}

/**
 * Assembles kernel source for `arch` into 32-bit Tensix instruction words (opcode in bits 31:24, as
 * ttsim and the conformance vectors hold them). Throws BadInput AxsimErrors with file:line:col.
 */
export function assemble(source: string, arch: Arch, opts: AssembleOptions = {}): AssembleResult {
  // JavaScript callers may pass 'wh'/'bh' or a typo: normalise or reject, never guess.
  if (arch !== 'wormhole' && arch !== 'blackhole') arch = parseArch(String(arch));
  if (typeof source !== 'string') throw badInput('assemble: the source must be a string');
  try {
    return new Assembler(source, arch, opts).run();
  } catch (e) {
    if (e instanceof AxsimError) throw e;
    throw new AxsimError('Internal', `assembler failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
}
