/**
 * The C/C++ parser of cfront: preprocessed tokens -> AST (`ast.ts`) with source positions.
 * Hand-written recursive descent with an explicit nesting budget (so deep input ends in a
 * ResourceLimit error, never a stack overflow). Types and expressions are told apart the way a
 * compiler does without full semantic analysis: names declared as types (struct/class/union/enum,
 * typedef, `using X =`, template type parameters) and the built-in type words are types; an
 * unknown name followed by another name (`vFloat x`) starts a declaration.
 *
 * Function bodies are parsed on first use (`parseBody`), so a file whose unused functions use C++
 * that cfront does not support still compiles the functions that are called.
 */
import { type Budget, defaultBudget } from '../budget.ts';
import { AxsimError, badInput, type ErrorLocation, unsupported } from '../errors.ts';
import type {
  Decl,
  EnumDecl,
  Expr,
  FuncDecl,
  InitItem,
  NamePart,
  Param,
  RecordDecl,
  Stmt,
  TArg,
  TParam,
  TranslationUnit,
  TypeSyntax,
  VarDecl,
} from './ast.ts';
import { type SrcLoc, stringValue, type Token, tokLoc, unescapeC } from './lex.ts';
import { parseFloatLiteral } from './literal.ts';
import { NameSet, type ParseMemo, type Recording } from './parse-memo.ts';
import { parseIntLiteral } from './preprocess.ts';

export interface ParseOptions {
  /** Top-level statements are allowed (the `.sfpu` script form). */
  script?: boolean;
  budget?: Budget;
  /**
   * Host statement forms, tried at the start of every statement (e.g. the Tensix emitter's
   * canonical `SFPMAD lreg_src_a=…` lines and `.word`): return a statement or undefined.
   */
  statementHook?: (p: Parser) => Stmt | undefined;
  /** Parse every function body at once (for tests and diagnostics). */
  eagerBodies?: boolean;
  /** Extra names to treat as types (e.g. from the host). */
  typeNames?: Iterable<string>;
  /**
   * An expression statement may end at the end of its line or before `}` without `;` (the `.sfpu`
   * assembler form, one instruction per line).
   */
  optionalSemicolon?: boolean;
  /** Parse GNU `asm(…)` statements into `ext` statements `{asm: template}` for the host. */
  asmStatements?: boolean;
  /**
   * A `typedef T name __attribute__((vector_size(N)))` names this built-in type instead of being
   * refused: the host carries vector values as handles of that type (the SFPI compiler's v64sf for
   * sfpi-gcc's raw `__builtin_rvtt_*` builtins, src/tensix/sfpi/builtins.ts). Unset: refused.
   */
  vectorTypedef?: string;
  /**
   * Reuse of parsed declarations across runs (parse-memo.ts): top-level declarations made of the
   * include cache's frozen tokens are recorded and replayed when the same tokens come in the same
   * parser state.
   */
  memo?: ParseMemo;
  /**
   * What the statement hook accepts, as a key (e.g. the emitter and its architecture): with a hook and
   * no key nothing is memoised; two hooks with one key must parse every statement alike.
   */
  hostKey?: string;
}

/** The built-in type words; a declaration's base type is any combination of them. */
const TYPE_WORDS = new Set([
  'void',
  'bool',
  'char',
  'short',
  'int',
  'long',
  'signed',
  'unsigned',
  'float',
  'double',
  '__int128',
  'wchar_t',
  'char8_t',
  'char16_t',
  'char32_t',
  '_Bool',
  '__fp16',
  '_Float16',
]);

/**
 * typedef names of <cstdint>/<cstddef> (also with `std::`), and a few kernel-world spellings. Those
 * whose type depends on the target stay as their own names: types.ts `builtinType` resolves them per
 * data model (size_t is unsigned int on riscv32, unsigned long on Apple arm64).
 */
export const STD_TYPEDEFS: Record<string, string> = {
  int8_t: 'signed char',
  int16_t: 'short',
  int32_t: 'int',
  int64_t: 'long long',
  uint8_t: 'unsigned char',
  uint16_t: 'unsigned short',
  uint32_t: 'unsigned int',
  uint64_t: 'unsigned long long',
  intptr_t: 'intptr_t',
  uintptr_t: 'uintptr_t',
  size_t: 'size_t',
  ssize_t: 'ssize_t',
  ptrdiff_t: 'ptrdiff_t',
  intmax_t: 'intmax_t',
  uintmax_t: 'uintmax_t',
  int_fast8_t: 'signed char',
  int_fast16_t: 'int',
  int_fast32_t: 'int',
  uint_fast8_t: 'unsigned char',
  uint_fast16_t: 'unsigned int',
  uint_fast32_t: 'unsigned int',
  int_least8_t: 'signed char',
  int_least16_t: 'short',
  int_least32_t: 'int',
  uint_least8_t: 'unsigned char',
  uint_least16_t: 'unsigned short',
  uint_least32_t: 'unsigned int',
  uint: 'unsigned int',
  u_int: 'unsigned int',
  ushort: 'unsigned short',
  uchar: 'unsigned char',
  ulong: 'unsigned long',
};

const SPECIFIERS = new Set([
  'static',
  'inline',
  'constexpr',
  'consteval',
  'constinit',
  'extern',
  'const',
  'volatile',
  'typedef',
  'friend',
  'virtual',
  'explicit',
  'mutable',
  'register',
  'thread_local',
  '__inline',
  '__inline__',
  '__restrict',
  '__restrict__',
  'restrict',
  '__volatile__',
  '__const',
  '__extension__',
  'typename',
  'noexcept',
]);

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']);
const BIN_PREC: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '<=>': 7.5,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};

/** Attributes whose effect (layout, type, scope exit) the evaluator does not model: refused. */
const UNMODELLED_ATTRIBUTES = new Set([
  'packed',
  'vector_size',
  'ext_vector_type',
  'mode',
  'cleanup',
  'transparent_union',
  'scalar_storage_order',
]);

export class Parser {
  pos = 0;
  readonly budget: Budget;
  depth = 0;
  /** Last components of names declared as types. */
  readonly typeNames: NameSet;
  /** Last components of names declared as templates (for `name<` in expressions). */
  readonly templateNames = new NameSet();
  /** Template type parameters in scope (a stack of frames). */
  readonly tparamFrames: Set<string>[] = [];
  ns: string[] = [];
  /** Functions whose bodies wait to be parsed. */
  readonly lazy: FuncDecl[] = [];
  /** `>` closes a template argument list here (not a comparison). */
  noGreater = 0;
  /** Set by a declarator that read `...` before its name (a function parameter pack). */
  declPack = false;
  /** The furthest token index `peek` has looked at (what a memo recording depends on). */
  hi = 0;
  /** The memo recording of the top-level declaration being parsed (ParseOptions.memo). */
  private recording: Recording | undefined;

  /** @param baseTypes type names of an enclosing parser this one also knows (exprFrom). */
  constructor(
    readonly toks: Token[],
    readonly file: string,
    readonly opts: ParseOptions = {},
    baseTypes?: NameSet,
  ) {
    this.typeNames = new NameSet(baseTypes);
    this.budget = opts.budget ?? defaultBudget();
    for (const n of opts.typeNames ?? []) this.typeNames.add(n);
    for (const n of [
      'underlying_type_t',
      'underlying_type',
      'std::bit_cast',
      'bit_cast',
      'std::numeric_limits',
      'numeric_limits',
      'std::array',
      'array',
      'std::is_same_v',
      'is_same_v',
      'std::is_same',
      'is_same',
    ])
      this.templateNames.add(n.replace(/^std::/, ''));
  }

  /** The alignment an attribute just read asks for (taken by the next variable). */
  pendingAlign: Expr | undefined;

  takeAlign(): Expr | undefined {
    const a = this.pendingAlign;
    this.pendingAlign = undefined;
    return a;
  }

  /** Parses a token slice as one expression (attribute arguments). */
  exprFrom(toks: Token[]): Expr | undefined {
    if (toks.length === 0) return undefined;
    const last = toks[toks.length - 1]!;
    // the sub-parser knows this parser's type names (not its template names), and adds its own
    const sub = new Parser(
      [...toks, { ...last, kind: 'eof', text: '' }],
      this.file,
      { budget: this.budget },
      this.typeNames,
    );
    return sub.assignment();
  }

  /** When set, tokens on later lines read as end of input (line-oriented host statements). */
  lineLimit: number | undefined;

  // ---- tokens ----
  peek(k = 0): Token {
    let i = this.pos + k;
    if (i >= this.toks.length) i = this.toks.length - 1;
    if (i > this.hi) this.hi = i;
    const t = this.toks[i]!;
    if (this.lineLimit !== undefined && tokLoc(t).line > this.lineLimit)
      return { ...t, kind: 'eof', text: '' };
    return t;
  }

  /** Runs `f` with tokens after line `line` hidden. */
  withinLine<T>(line: number, f: () => T): T {
    const saved = this.lineLimit;
    this.lineLimit = line;
    try {
      return f();
    } finally {
      this.lineLimit = saved;
    }
  }
  next(): Token {
    const t = this.peek();
    if (this.pos < this.toks.length - 1) this.pos++;
    return t;
  }
  is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.text === text && (t.kind === 'punct' || t.kind === 'ident');
  }
  isPunct(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.text === text;
  }
  accept(text: string): boolean {
    if (this.is(text)) {
      this.next();
      return true;
    }
    return false;
  }
  at(t: Token = this.peek()): SrcLoc {
    return tokLoc(t);
  }
  loc(t: Token = this.peek()): ErrorLocation {
    const l = tokLoc(t);
    return { file: l.file, line: l.line, col: l.col };
  }
  describe(t: Token): string {
    return t.kind === 'eof' ? 'end of input' : `'${t.text}'`;
  }
  expect(text: string, what?: string): Token {
    const t = this.peek();
    if (t.text === text && t.kind !== 'string' && t.kind !== 'char') return this.next();
    // `>>` closing two template argument lists: split it
    if (text === '>' && t.kind === 'punct' && (t.text === '>>' || t.text === '>=' || t.text === '>>=')) {
      const rest = t.text.slice(1);
      const r = this.recording;
      const split = { ...t, text: rest, col: t.col + 1, use: t.use };
      if (r) {
        if (!r.originals.has(this.pos)) r.originals.set(this.pos, t);
        r.writes.push([this.pos, split]);
      }
      this.toks[this.pos] = split;
      return { ...t, text: '>' };
    }
    throw badInput(`expected '${text}'${what ? ` ${what}` : ''} but found ${this.describe(t)}`, {
      location: this.loc(t),
    });
  }
  fail(msg: string, t: Token = this.peek(), hint?: string): never {
    throw badInput(msg, { location: this.loc(t), hint });
  }
  unsupported(what: string, t: Token = this.peek(), hint?: string): never {
    throw unsupported(`unsupported C++: ${what}`, { location: this.loc(t), hint });
  }
  enter(t: Token = this.peek()): void {
    this.depth++;
    this.budget.depth(this.depth, this.loc(t));
  }
  leave(): void {
    this.depth--;
  }

  // ---- translation unit ----
  translationUnit(): TranslationUnit {
    const decls: Decl[] = [];
    while (this.peek().kind !== 'eof') this.topLevel(decls);
    if (this.opts.eagerBodies) for (const f of this.lazy) this.parseBody(f);
    return { decls, file: this.file };
  }

  /** One declaration at namespace scope (or a statement in script mode) appended to `out`. */
  topLevel(out: Decl[]): void {
    const memo = this.opts.memo;
    if (memo !== undefined && this.recording === undefined && Object.isFrozen(this.toks[this.pos])) {
      const key = this.memoKey();
      if (key !== undefined) {
        if (memo.replay(this, key, out)) return;
        const r = memo.begin(this, key, out.length);
        if (r === undefined) {
          this.topLevelInner(out);
          return;
        }
        this.recording = r;
        let done: Decl[] | undefined;
        try {
          this.topLevelInner(out);
          done = out;
        } finally {
          this.recording = undefined;
          memo.end(this, r, done);
        }
        return;
      }
    }
    this.topLevelInner(out);
  }

  /** The parser state a memoised top-level declaration depends on (beyond tokens and names), or undefined. */
  private memoKey(): string | undefined {
    const o = this.opts;
    if (o.statementHook !== undefined && o.hostKey === undefined) return undefined;
    if (this.pendingAlign !== undefined || this.lineLimit !== undefined) return undefined;
    return JSON.stringify([
      o.hostKey ?? '',
      o.script === true,
      o.optionalSemicolon === true,
      o.asmStatements === true,
      o.vectorTypedef ?? '',
      o.eagerBodies === true,
      this.budget.limits.depth,
      this.depth,
      this.noGreater,
      this.declPack,
      this.ns,
      this.tparamFrames.map((f) => [...f]),
    ]);
  }

  private topLevelInner(out: Decl[]): void {
    const t = this.peek();
    if (this.opts.script && !this.startsDeclaration()) {
      const hook = this.opts.statementHook?.(this);
      const s = hook ?? this.statement();
      out.push({ kind: 'stmt', s, at: s.at });
      return;
    }
    if (this.opts.script && this.opts.statementHook) {
      const save = this.pos;
      const s = this.opts.statementHook(this);
      if (s) {
        out.push({ kind: 'stmt', s, at: s.at });
        return;
      }
      this.pos = save;
    }
    this.declaration(out, t);
  }

  /** Skips attributes `[[…]]`, `__attribute__((…))`, `alignas(…)`, `__declspec(…)`. */
  attributes(): void {
    for (;;) {
      if (this.isPunct('[') && this.isPunct('[', 1)) {
        this.next();
        const r = this.skipBalanced('[', ']');
        this.expect(']', "to close '[[' of the attribute");
        this.checkAttributes(this.toks.slice(r.start, r.end));
        continue;
      }
      const t = this.peek();
      if (
        t.kind === 'ident' &&
        (t.text === '__attribute__' ||
          t.text === '__attribute' ||
          t.text === 'alignas' ||
          t.text === '__declspec' ||
          t.text === '_Alignas')
      ) {
        this.next();
        if (this.isPunct('(')) {
          const r = this.skipBalanced('(', ')');
          // alignment requests matter to the memory layout: alignas(N), __attribute__((aligned(N)))
          const toks = this.toks.slice(r.start, r.end);
          if (
            t.text.startsWith('__attribute') &&
            toks[0]?.text === '(' &&
            toks[toks.length - 1]?.text === ')'
          )
            this.checkAttributes(toks.slice(1, -1));
          const k = toks.findIndex((x) => x.text === 'aligned' || x.text === '__aligned__');
          if (t.text === 'alignas' || t.text === '_Alignas') this.pendingAlign = this.exprFrom(toks);
          else if (k >= 0 && toks[k + 1]?.text === '(') {
            let depth = 0;
            let e = k + 1;
            for (; e < toks.length; e++) {
              if (toks[e]!.text === '(') depth++;
              if (toks[e]!.text === ')' && --depth === 0) break;
            }
            this.pendingAlign = this.exprFrom(toks.slice(k + 2, e));
          }
        }
        continue;
      }
      return;
    }
  }

  /**
   * Refuses the attributes that change a type or a layout the evaluator would otherwise get wrong
   * without a word (packed structs, vector types, mode(...), cleanup functions, a bare `aligned`).
   * `toks` is the comma-separated attribute list of one `[[...]]` or `__attribute__((...))`; the
   * other attributes (inlining, unused, likely, ...) do not change what a program computes.
   */
  checkAttributes(toks: Token[]): void {
    let depth = 0;
    let start = true;
    for (let i = 0; i < toks.length; i++) {
      const x = toks[i]!;
      if (x.kind === 'punct' && (x.text === '(' || x.text === '[' || x.text === '{')) depth++;
      else if (x.kind === 'punct' && (x.text === ')' || x.text === ']' || x.text === '}')) depth--;
      if (depth === 0 && x.kind === 'punct' && x.text === ',') {
        start = true;
        continue;
      }
      if (!start || depth !== 0 || x.kind !== 'ident') continue;
      start = false;
      if (x.text === 'using') continue; // [[using gnu: ...]]
      // gnu::packed / __packed__ / packed
      let name = x.text;
      let at = x;
      if (toks[i + 1]?.text === '::' && toks[i + 2]?.kind === 'ident') {
        at = toks[i + 2]!;
        name = at.text;
        i += 2;
      }
      const bare = name.replace(/^__(.*)__$/, '$1');
      const args = toks[i + 1]?.text === '(';
      if (UNMODELLED_ATTRIBUTES.has(bare))
        this.unsupported(
          `the attribute '${name}'`,
          at,
          'axsim does not model what it changes (layout or type); remove it or write the layout out',
        );
      if (bare === 'aligned' && !args)
        this.unsupported("'aligned' without an alignment", at, 'write aligned(N) or alignas(N)');
    }
  }

  skipBalanced(open: string, close: string): { start: number; end: number } {
    const first = this.expect(open);
    const start = this.pos;
    let depth = 1;
    for (;;) {
      const t = this.next();
      if (t.kind === 'eof') this.fail(`'${open}' without a matching '${close}'`, first);
      if (t.kind === 'punct' && t.text === open) depth++;
      else if (t.kind === 'punct' && t.text === close && --depth === 0) return { start, end: this.pos - 1 };
    }
  }

  /** Does the token stream here start a declaration (not an expression statement)? */
  startsDeclaration(): boolean {
    const t = this.peek();
    if (t.kind === 'punct') {
      if (t.text === '[' && this.isPunct('[', 1)) return true;
      if (t.text === '::') return this.typeAhead(0);
      return false;
    }
    if (t.kind !== 'ident') return false;
    if (
      ['not', 'compl', 'sizeof', 'alignof', 'return', 'new', 'delete', 'throw', 'co_await'].includes(t.text)
    )
      return false;
    switch (t.text) {
      case 'namespace':
      case 'template':
      case 'using':
      case 'typedef':
      case 'static_assert':
      case '_Static_assert':
      case 'struct':
      case 'class':
      case 'union':
      case 'enum':
      case 'extern':
      case 'auto':
      case 'decltype':
      case '__attribute__':
      case 'alignas':
      case 'public':
      case 'private':
      case 'protected':
        return true;
    }
    if (SPECIFIERS.has(t.text) && t.text !== 'noexcept') return true;
    if (TYPE_WORDS.has(t.text)) return true;
    return this.typeAhead(0);
  }

  /** At offset k: a (qualified, template) name that is a type, followed by what a declarator starts with. */
  typeAhead(k: number): boolean {
    let j = k;
    if (this.isPunct('::', j)) j++;
    let last = '';
    let full = '';
    for (;;) {
      const t = this.peek(j);
      if (t.kind !== 'ident') return false;
      last = t.text;
      full += t.text;
      j++;
      if (this.isPunct('<', j) && this.isTemplateName(full)) {
        const e = this.matchAngle(j);
        if (e < 0) return false;
        j = e + 1;
      }
      if (this.isPunct('::', j) && this.peek(j + 1).kind === 'ident') {
        full += '::';
        j++;
        continue;
      }
      break;
    }
    const known = this.isTypeName(full, last);
    const n = this.peek(j);
    if (n.kind === 'ident') {
      // `T name`, `T const`, or an unknown type followed by a declarator name
      if (n.text === 'const' || n.text === 'volatile') return true;
      if (SPECIFIERS.has(n.text) && !known) return false;
      if (n.text === 'operator') return true;
      return !['and', 'or', 'not', 'xor', 'bitand', 'bitor'].includes(n.text);
    }
    if (!known) return false;
    if (n.kind === 'punct' && (n.text === '*' || n.text === '&' || n.text === '&&')) {
      // `T * x`: a declaration when T is a type
      return true;
    }
    if (n.kind === 'punct' && n.text === '(' && this.isPunct('*', j + 1)) return true;
    return false;
  }

  /** Index of the `>` matching the `<` at offset k (relative), or -1. */
  matchAngle(k: number): number {
    let depth = 0;
    let parens = 0;
    for (let j = k; ; j++) {
      const t = this.peek(j);
      if (t.kind === 'eof') return -1;
      if (t.kind !== 'punct') continue;
      if (t.text === '(' || t.text === '[' || t.text === '{') parens++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (--parens < 0) return -1;
      } else if (parens === 0) {
        if (t.text === '<') depth++;
        else if (t.text === '>') {
          if (--depth === 0) return j;
        } else if (t.text === '>>') {
          depth -= 2;
          if (depth <= 0) return j;
        } else if (t.text === ';') return -1;
      }
    }
  }

  isTypeName(full: string, last: string): boolean {
    if (full.startsWith('std::') && STD_TYPEDEFS[full.slice(5)]) return true;
    if (STD_TYPEDEFS[full]) return true;
    if (this.typeNames.has(last)) return true;
    for (const f of this.tparamFrames) if (f.has(last)) return true;
    return false;
  }

  isTemplateName(full: string): boolean {
    const last = full.slice(full.lastIndexOf(':') + 1);
    return this.templateNames.has(last) || this.templateNames.has(full.replace(/^std::/, ''));
  }

  // ---- declarations ----
  declaration(out: Decl[], start: Token): void {
    this.enter(start);
    try {
      this.declarationInner(out, start);
    } finally {
      this.leave();
    }
  }

  declarationInner(out: Decl[], start: Token, tparams?: TParam[], inRecord?: RecordDecl): void {
    this.attributes();
    const t = this.peek();
    const at = this.at(t);
    if (t.kind === 'punct' && t.text === ';') {
      this.next();
      return;
    }
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'namespace': {
          this.next();
          const names: string[] = [];
          while (this.peek().kind === 'ident' && this.peek().text !== 'inline') {
            names.push(this.next().text);
            if (!this.accept('::')) break;
            this.accept('inline');
          }
          this.attributes();
          if (this.accept('=')) {
            // namespace alias: resolved like a using-directive
            const parts = this.qualifiedName().parts;
            this.expect(';', 'after the namespace alias');
            out.push({ kind: 'using-ns', parts, ns: [...this.ns, ...names], at });
            return;
          }
          const open = this.expect('{', 'to open the namespace');
          const saved = this.ns;
          this.ns = [...saved, ...names];
          const decls: Decl[] = [];
          while (!this.isPunct('}')) {
            if (this.peek().kind === 'eof') this.fail("'{' without a matching '}'", open);
            this.topLevel(decls);
          }
          this.next();
          this.ns = saved;
          let node: Decl = { kind: 'namespace', name: names[names.length - 1] ?? '', decls, at };
          for (let k = names.length - 2; k >= 0; k--)
            node = { kind: 'namespace', name: names[k]!, decls: [node], at };
          if (names.length === 0) out.push(...decls);
          else out.push(node);
          return;
        }
        case 'extern':
          if (this.peek(1).kind === 'string') {
            this.next();
            this.next();
            if (this.isPunct('{')) {
              this.next();
              while (!this.isPunct('}')) {
                if (this.peek().kind === 'eof') this.fail("'{' without a matching '}'", t);
                this.topLevel(out);
              }
              this.next();
              return;
            }
            this.declarationInner(out, start, tparams, inRecord);
            return;
          }
          break;
        case 'template': {
          this.next();
          if (!this.isPunct('<')) {
            // explicit instantiation `template void f<1>();` / `template struct S<1>;`: nothing to run
            this.skipToSemicolon();
            return;
          }
          const tp = this.templateParams();
          const frame = new Set(tp.filter((p) => p.isType).map((p) => p.name));
          this.tparamFrames.push(frame);
          try {
            this.declarationInner(out, start, tp, inRecord);
          } finally {
            this.tparamFrames.pop();
          }
          return;
        }
        case 'using':
          this.usingDecl(out, at, tparams);
          return;
        case 'typedef':
          this.next();
          this.typedefDecl(out, at);
          return;
        case 'static_assert':
        case '_Static_assert':
          out.push(this.staticAssert());
          return;
        case 'public':
        case 'private':
        case 'protected':
          if (this.isPunct(':', 1)) {
            this.next();
            this.next();
            return;
          }
          break;
        case 'friend':
          this.skipToSemicolon();
          return;
      }
    }
    this.simpleDeclaration(out, tparams, inRecord);
  }

  skipToSemicolon(): void {
    let depth = 0;
    for (;;) {
      const t = this.next();
      if (t.kind === 'eof') return;
      if (t.kind !== 'punct') continue;
      if (t.text === '(' || t.text === '{' || t.text === '[') depth++;
      else if (t.text === ')' || t.text === ']') depth--;
      else if (t.text === '}') {
        if (--depth <= 0 && this.isPunct(';')) {
          this.next();
          return;
        }
      } else if (t.text === ';' && depth <= 0) return;
    }
  }

  templateParams(): TParam[] {
    this.expect('<');
    const out: TParam[] = [];
    this.noGreater++;
    try {
      while (!this.isPunct('>') && !this.isPunct('>>')) {
        const t = this.peek();
        const at = this.at(t);
        if ((t.text === 'typename' || t.text === 'class') && t.kind === 'ident') {
          this.next();
          const pack = this.accept('...');
          const name = this.peek().kind === 'ident' ? this.next().text : '';
          let def: TArg | undefined;
          if (this.accept('=')) def = { type: this.typeName() };
          out.push({ isType: true, name, default: def, pack, at });
        } else if (t.text === 'template') {
          this.unsupported('template template parameters', t);
        } else {
          const base = this.declSpecifiers();
          const pack = this.accept('...');
          const d = this.declarator(base.type, true);
          let def: TArg | undefined;
          if (this.accept('=')) def = { expr: this.conditional() };
          out.push({ isType: false, name: d.name ?? '', type: d.type, default: def, pack, at });
        }
        if (!this.accept(',')) break;
      }
    } finally {
      this.noGreater--;
    }
    this.expect('>', 'to close the template parameter list');
    return out;
  }

  usingDecl(out: Decl[], at: SrcLoc, tparams?: TParam[]): void {
    this.next();
    if (this.accept('namespace')) {
      const q = this.qualifiedName();
      this.expect(';', 'after using namespace');
      out.push({ kind: 'using-ns', parts: q.parts, ns: this.ns, at });
      return;
    }
    if (this.peek().kind === 'ident' && this.isPunct('=', 1)) {
      const name = this.next().text;
      this.next();
      const type = this.typeName();
      this.expect(';', `after using ${name} = …`);
      this.typeNames.add(name);
      if (tparams) this.templateNames.add(name);
      out.push({ kind: 'alias', name, type, tparams, ns: this.ns, at });
      return;
    }
    this.accept('typename');
    const q = this.qualifiedName();
    this.expect(';', 'after the using-declaration');
    const last = q.parts[q.parts.length - 1]!.name;
    if (this.isTypeName(q.parts.map((p) => p.name).join('::'), last)) this.typeNames.add(last);
    out.push({ kind: 'using-decl', parts: q.parts, ns: this.ns, at });
  }

  typedefDecl(out: Decl[], at: SrcLoc): void {
    const base = this.declSpecifiers(out);
    for (;;) {
      const d = this.declarator(base.type);
      if (!d.name) this.fail('expected a name in the typedef');
      this.typeNames.add(d.name);
      const vec = this.vectorTypedefAttribute();
      out.push({ kind: 'alias', name: d.name, type: vec ?? d.type, ns: this.ns, at });
      if (!this.accept(',')) break;
    }
    this.expect(';', 'after the typedef');
  }

  /**
   * After a typedef's declarator: `__attribute__((vector_size(N)))` when the host models vector
   * handles (opts.vectorTypedef) gives the handle type; any other attribute is read as usual.
   */
  vectorTypedefAttribute(): TypeSyntax | undefined {
    const t = this.peek();
    if (t.kind !== 'ident' || t.text !== '__attribute__' || !this.isPunct('(', 1)) return undefined;
    const save = this.pos;
    this.next();
    const r = this.skipBalanced('(', ')');
    const toks = this.toks.slice(r.start, r.end);
    const name = this.opts.vectorTypedef;
    if (toks.some((x) => x.text === 'vector_size' || x.text === '__vector_size__')) {
      if (name) return { kind: 'builtin', name, at: tokLoc(t) };
      this.pos = save;
      this.attributes(); // refuses vector_size (Unsupported, at the attribute)
    }
    // other attributes after a typedef's name are not read (as before): the ';' is expected here
    this.pos = save;
    return undefined;
  }

  staticAssert(): Decl {
    const t = this.next();
    this.expect('(', `after ${t.text}`);
    const e = this.assignment();
    let msg: string | undefined;
    if (this.accept(',')) {
      msg = '';
      while (this.peek().kind === 'string') {
        const s = this.next();
        msg += stringValue(s.text, this.loc(s));
      }
    }
    this.expect(')', 'to close static_assert');
    this.accept(';');
    return { kind: 'static_assert', e, msg, at: this.at(t) };
  }

  /**
   * Declaration specifiers and the base type: returns the type and the storage flags. A struct,
   * union, class or enum defined here is appended to `out` (and named by the type).
   */
  declSpecifiers(out?: Decl[]): { type: TypeSyntax; flags: Set<string> } {
    const flags = new Set<string>();
    const words: string[] = [];
    let type: TypeSyntax | undefined;
    const first = this.peek();
    const cv: { const?: boolean; volatile?: boolean } = {};
    let unknownHead: Token | undefined;
    let flagsAtType = 0;
    for (;;) {
      this.attributes();
      const t = this.peek();
      if (t.kind !== 'ident' && !(t.kind === 'punct' && t.text === '::' && !type && words.length === 0))
        break;
      if (t.text === 'const' || t.text === '__const') {
        this.next();
        cv.const = true;
        continue;
      }
      if (t.text === 'volatile' || t.text === '__volatile__') {
        this.next();
        cv.volatile = true;
        continue;
      }
      if (SPECIFIERS.has(t.text) && t.text !== 'typename' && t.text !== 'noexcept') {
        this.next();
        flags.add(t.text);
        if (t.text === 'explicit' && this.isPunct('(')) this.skipBalanced('(', ')');
        continue;
      }
      if (type || words.length > 0) {
        if (TYPE_WORDS.has(t.text) && !type) {
          words.push(this.next().text);
          continue;
        }
        if (
          type?.kind === 'named' &&
          unknownHead &&
          (t.text === 'auto' || TYPE_WORDS.has(t.text) || flags.size > flagsAtType)
        ) {
          // `sfpi_inline static auto f()`: the first name is no type; most likely a macro the
          // headers included so far do not define
          const n = typeText(type);
          this.fail(
            `'${n}' is not a type here`,
            unknownHead,
            `is ${n} a macro defined in a header that is not included (yet)?`,
          );
        }
        break;
      }
      if (TYPE_WORDS.has(t.text)) {
        words.push(this.next().text);
        continue;
      }
      if (t.text === 'typename') {
        this.next();
        continue;
      }
      if (t.text === 'struct' || t.text === 'class' || t.text === 'union') {
        const rec = this.record(out);
        type = { kind: 'record', def: rec, at: rec.at };
        if (rec.name) type = { kind: 'named', parts: [{ name: rec.name }], at: rec.at };
        if (!rec.forward && !rec.name) type = { kind: 'record', def: rec, at: rec.at };
        continue;
      }
      if (t.text === 'enum') {
        const en = this.enumDecl(out);
        type = en.name
          ? { kind: 'named', parts: [{ name: en.name }], at: en.at }
          : { kind: 'record', def: en, at: en.at };
        continue;
      }
      if (t.text === 'auto') {
        this.next();
        type = { kind: 'auto', at: this.at(t) };
        continue;
      }
      if (t.text === 'decltype') {
        this.next();
        this.expect('(', 'after decltype');
        if (this.is('auto')) this.unsupported('decltype(auto)', t);
        const e = this.expression();
        this.expect(')', 'to close decltype');
        type = { kind: 'decltype', expr: e, at: this.at(t) };
        continue;
      }
      // a (qualified) type name
      const qt = this.peek();
      const q = this.qualifiedName();
      if (q.parts.length === 1 && !this.isTypeName(q.parts[0]!.name, q.parts[0]!.name)) {
        unknownHead = qt;
        flagsAtType = flags.size;
      }
      const full = q.parts.map((p) => p.name).join('::');
      const std = full.replace(/^std::/, '');
      if (STD_TYPEDEFS[std] && !q.parts.some((p) => p.targs))
        type = { kind: 'builtin', name: STD_TYPEDEFS[std]!, at: this.at(t) };
      else type = { kind: 'named', parts: q.parts, global: q.global, at: this.at(t) };
    }
    if (!type) {
      if (words.length === 0) {
        if (flags.size > 0 || cv.const || cv.volatile) {
          // `const x = 1;` (implicit int) is not C++; `unsigned` alone is handled above
          this.fail(`expected a type but found ${this.describe(this.peek())}`);
        }
        this.fail(`expected a declaration but found ${this.describe(this.peek())}`, first);
      }
      type = { kind: 'builtin', name: normaliseBuiltin(words, this, first), at: this.at(first) };
    }
    if (cv.const || cv.volatile) type = { ...type, cv: { ...type.cv, ...cv } };
    return { type, flags };
  }

  /** `struct/class/union [name] [: bases] { members } ` or a forward declaration / elaborated use. */
  record(out?: Decl[], tparams?: TParam[]): RecordDecl {
    const kw = this.next();
    const tag = kw.text as RecordDecl['tag'];
    this.attributes();
    let name = '';
    let specArgs: TArg[] | undefined;
    if (this.peek().kind === 'ident') {
      const q = this.qualifiedName();
      name = q.parts.map((p) => p.name).join('::');
      specArgs = q.parts[q.parts.length - 1]!.targs;
      this.typeNames.add(q.parts[q.parts.length - 1]!.name);
    }
    this.accept('final');
    const rec: RecordDecl = {
      kind: 'record',
      tag,
      name,
      tparams,
      specArgs,
      bases: [],
      members: [],
      forward: true,
      ns: this.ns,
      at: this.at(kw),
    };
    if (this.accept(':')) {
      for (;;) {
        while (['public', 'private', 'protected', 'virtual'].includes(this.peek().text)) this.next();
        rec.bases.push(this.typeName());
        if (!this.accept(',')) break;
      }
    }
    if (!this.isPunct('{')) {
      if (out && !this.isPunct(';') && !name) this.fail(`expected '{' after ${tag}`);
      if (out && this.isPunct(';') && name) out.push(rec);
      return rec;
    }
    rec.forward = false;
    this.next();
    const saved = this.ns;
    if (name) this.ns = [...saved, name];
    try {
      while (!this.isPunct('}')) {
        const t = this.peek();
        if (t.kind === 'eof') this.fail(`'{' of ${tag} ${name} without a matching '}'`, kw);
        this.memberDeclaration(rec, t);
      }
    } finally {
      this.ns = saved;
    }
    this.next();
    if (out) out.push(rec);
    return rec;
  }

  memberDeclaration(rec: RecordDecl, t: Token): void {
    this.enter(t);
    try {
      const before = rec.members.length;
      const list: Decl[] = [];
      this.declarationInner(list, t, undefined, rec);
      rec.members.push(...list);
      void before;
    } finally {
      this.leave();
    }
  }

  enumDecl(out?: Decl[]): EnumDecl {
    const kw = this.next();
    const scoped = this.accept('class') || this.accept('struct');
    this.attributes();
    let name = '';
    if (this.peek().kind === 'ident') {
      name = this.next().text;
      this.typeNames.add(name);
    }
    let underlying: TypeSyntax | undefined;
    if (this.accept(':')) underlying = this.typeName();
    const en: EnumDecl = {
      kind: 'enum',
      name,
      scoped,
      underlying,
      values: [],
      forward: true,
      ns: this.ns,
      at: this.at(kw),
    };
    if (this.isPunct('{')) {
      en.forward = false;
      this.next();
      while (!this.isPunct('}')) {
        const n = this.next();
        if (n.kind !== 'ident') this.fail(`expected an enumerator name but found ${this.describe(n)}`, n);
        this.attributes();
        let value: Expr | undefined;
        if (this.accept('=')) value = this.conditional();
        en.values.push({ name: n.text, value, at: this.at(n) });
        if (!this.accept(',')) break;
      }
      this.expect('}', `to close enum ${name}`);
    }
    if (out) out.push(en);
    return en;
  }

  /** Declarations after the specifiers: variables, functions (with bodies), fields. */
  simpleDeclaration(out: Decl[], tparams?: TParam[], inRecord?: RecordDecl): void {
    const _first = this.peek();
    // constructors / destructors / conversion operators inside a class (no base type)
    if (inRecord && this.isCtorStart(inRecord)) {
      this.ctorOrDtor(out, inRecord, tparams);
      return;
    }
    // out-of-class constructor `S::S(...)` / `S<T>::S(...)`
    const base = this.declSpecifiers(out);
    if (this.isPunct(';')) {
      // `struct S {…};`, `enum E {…};`
      this.next();
      if (tparams) {
        const last = out[out.length - 1];
        if (last && (last.kind === 'record' || last.kind === 'enum')) {
          if (last.kind === 'record') {
            last.tparams = tparams;
            this.templateNames.add(last.name.split('::').pop()!);
          }
        }
      }
      return;
    }
    if (tparams) {
      const last = out[out.length - 1];
      if (
        last?.kind === 'record' &&
        base.type.kind === 'named' &&
        last.name === base.type.parts[0]!.name &&
        !last.tparams
      ) {
        last.tparams = tparams;
        this.templateNames.add(last.name);
      }
    }
    for (let _n = 0; ; _n++) {
      const dt = this.peek();
      const d = this.declarator(base.type);
      if (d.func && !d.parts?.length) this.fail(`expected a name in the declaration`, dt);
      if (d.func) {
        const fn: FuncDecl = {
          kind: 'func',
          parts: d.parts!,
          name: d.parts![d.parts!.length - 1]!.name,
          tparams,
          specArgs:
            tparams && tparams.length === 0 ? (d.parts![d.parts!.length - 1]!.targs ?? []) : undefined,
          ret: d.func.ret,
          params: d.func.params,
          variadic: d.func.variadic,
          isStatic: base.flags.has('static'),
          isConst: d.func.isConst,
          isOperator: d.operator,
          ns: this.ns,
          at: this.at(dt),
        };
        this.pendingAlign = undefined; // a function's own attributes
        if (tparams && tparams.length > 0) this.templateNames.add(fn.name);
        if (tparams && tparams.length === 0) this.templateNames.add(fn.name);
        if (d.parts!.length >= 2) {
          // `S::S(…)` out-of-class constructor
          const cls = d.parts![d.parts!.length - 2]!.name;
          if (fn.name === cls) fn.isCtor = true;
        }
        if (this.isPunct(':') && fn.isCtor) fn.inits = this.memInits();
        if (this.isPunct('{')) {
          this.functionBody(fn);
          out.push(fn);
          return;
        }
        if (this.accept('=')) {
          this.next(); // 0, default, delete
        }
        out.push(fn);
        if (this.accept(',')) continue;
        this.expect(';', `after the declaration of ${fn.name}`);
        return;
      }
      if (!d.name) this.fail(`expected a name in the declaration but found ${this.describe(this.peek())}`);
      this.attributes();
      const v: VarDecl = {
        kind: 'var',
        name: d.name,
        align: this.takeAlign(),
        type: d.type,
        static: base.flags.has('static'),
        constexpr: base.flags.has('constexpr'),
        extern: base.flags.has('extern'),
        at: this.at(dt),
      };
      if (tparams?.length && !inRecord) {
        // a variable template `template <typename T> constexpr bool ok_v = …;`: one object per argument list
        v.tparams = tparams;
        this.templateNames.add(d.name);
      }
      if (inRecord && this.accept(':')) {
        this.unsupported('bit-fields', this.peek(-1 as number));
      }
      if (this.accept('=')) v.init = this.initializer();
      else if (this.isPunct('{')) v.init = this.initList();
      else if (this.isPunct('(')) {
        this.next();
        v.ctorArgs = [];
        if (!this.isPunct(')')) {
          for (;;) {
            v.ctorArgs.push(this.assignment());
            if (!this.accept(',')) break;
          }
        }
        this.expect(')', `to close the initialiser of ${d.name}`);
      }
      out.push(v);
      if (this.accept(',')) continue;
      this.expect(';', `after the declaration of ${d.name}`);
      return;
    }
  }

  isCtorStart(rec: RecordDecl): boolean {
    const short = rec.name.split('::').pop()!;
    let k = 0;
    while (['explicit', 'constexpr', 'inline', 'virtual'].includes(this.peek(k).text)) k++;
    if (this.isPunct('~', k) && this.peek(k + 1).text === short) return true;
    return this.peek(k).text === short && this.isPunct('(', k + 1);
  }

  ctorOrDtor(out: Decl[], _rec: RecordDecl, tparams?: TParam[]): void {
    while (['explicit', 'constexpr', 'inline', 'virtual'].includes(this.peek().text)) this.next();
    const dtor = this.accept('~');
    const nameTok = this.next();
    const f = this.paramList();
    const fn: FuncDecl = {
      kind: 'func',
      parts: [{ name: dtor ? `~${nameTok.text}` : nameTok.text }],
      name: dtor ? `~${nameTok.text}` : nameTok.text,
      tparams,
      ret: { kind: 'builtin', name: 'void', at: this.at(nameTok) },
      params: f.params,
      variadic: f.variadic,
      isCtor: !dtor,
      isDtor: dtor,
      ns: this.ns,
      at: this.at(nameTok),
    };
    while (this.peek().kind === 'ident' && ['noexcept', 'override', 'final'].includes(this.peek().text)) {
      this.next();
      if (this.isPunct('(')) this.skipBalanced('(', ')');
    }
    if (this.isPunct(':')) fn.inits = this.memInits();
    if (this.isPunct('{')) this.functionBody(fn);
    else {
      if (this.accept('=')) this.next();
      this.expect(';', `after the declaration of ${fn.name}`);
    }
    out.push(fn);
  }

  memInits(): { name: string; args: Expr[]; at: SrcLoc }[] {
    this.expect(':');
    const inits: { name: string; args: Expr[]; at: SrcLoc }[] = [];
    for (;;) {
      const t = this.peek();
      const q = this.qualifiedName();
      const name = q.parts.map((p) => p.name).join('::');
      const args: Expr[] = [];
      if (this.isPunct('{')) {
        const il = this.initList();
        if (il.kind === 'init') args.push(il);
      } else {
        this.expect('(', `after the member initialiser ${name}`);
        if (!this.isPunct(')')) {
          for (;;) {
            args.push(this.assignment());
            if (!this.accept(',')) break;
          }
        }
        this.expect(')', `to close the member initialiser ${name}`);
      }
      inits.push({ name, args, at: this.at(t) });
      if (!this.accept(',')) break;
    }
    return inits;
  }

  functionBody(fn: FuncDecl): void {
    const r = this.skipBalanced('{', '}');
    fn.bodyToks = { start: r.start - 1, end: r.end };
    this.lazy.push(fn);
  }

  /** Parses a lazily kept function body (once). */
  parseBody(fn: FuncDecl): Stmt {
    if (fn.body) return fn.body;
    if (!fn.bodyToks) throw badInput(`function ${fn.name} has no body`, { location: fn.at });
    const saved = this.pos;
    const savedNs = this.ns;
    const frames = this.tparamFrames.length;
    this.pos = fn.bodyToks.start;
    this.ns = fn.ns;
    if (fn.tparams) this.tparamFrames.push(new Set(fn.tparams.filter((p) => p.isType).map((p) => p.name)));
    if (fn.owner?.tparams)
      this.tparamFrames.push(new Set(fn.owner.tparams.filter((p) => p.isType).map((p) => p.name)));
    try {
      const body = this.block();
      fn.body = body;
      return body;
    } finally {
      this.pos = saved;
      this.ns = savedNs;
      this.tparamFrames.length = frames;
    }
  }

  /**
   * A declarator: pointer/reference operators, the name (possibly qualified, or `operator@`),
   * array and function suffixes. `abstract` allows no name (types in casts, parameters).
   */
  declarator(
    base: TypeSyntax,
    abstract = false,
  ): {
    type: TypeSyntax;
    name?: string;
    parts?: NamePart[];
    operator?: string;
    func?: { ret: TypeSyntax; params: Param[]; variadic: boolean; isConst: boolean };
  } {
    let type = base;
    this.attributes();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct') break;
      if (t.text === '*') {
        this.next();
        type = { kind: 'ptr', to: type, at: this.at(t) };
        const cv: { const?: boolean; volatile?: boolean } = {};
        while (
          ['const', 'volatile', '__restrict', '__restrict__', 'restrict', '__volatile__'].includes(
            this.peek().text,
          )
        ) {
          const w = this.next().text;
          if (w === 'const') cv.const = true;
          if (w.includes('volatile')) cv.volatile = true;
        }
        if (cv.const || cv.volatile) type = { ...type, cv };
        continue;
      }
      if (t.text === '&' || t.text === '&&') {
        this.next();
        type = { kind: 'ref', to: type, rvalue: t.text === '&&', at: this.at(t) };
        continue;
      }
      break;
    }
    if (this.accept('...')) this.declPack = true; // a function parameter pack `Args&&... args`
    this.attributes();
    let name: string | undefined;
    let parts: NamePart[] | undefined;
    let operator: string | undefined;
    if (this.isPunct('(') && (this.isPunct('*', 1) || this.isPunct('&', 1))) {
      // function pointer `T (*name)(params)` or pointer to array `T (*name)[N]`
      this.next();
      const inner = this.declarator({ kind: 'builtin', name: 'void', at: this.at() }, true);
      this.expect(')', 'to close the declarator');
      const suffixed = this.declaratorSuffix(type);
      // re-base the inner pointer chain on the suffixed type
      const rebase = (t: TypeSyntax): TypeSyntax => {
        if (t.kind === 'ptr') return { ...t, to: rebase(t.to) };
        if (t.kind === 'ref') return { ...t, to: rebase(t.to) };
        if (t.kind === 'array') return { ...t, of: rebase(t.of) };
        return suffixed.type;
      };
      return { type: rebase(inner.type), name: inner.name };
    }
    if (this.peek().kind === 'ident' || this.isPunct('::') || this.isPunct('~')) {
      if (this.is('operator')) {
        operator = this.operatorName();
        parts = [{ name: `operator${operator}` }];
        name = parts[0]!.name;
      } else if (this.isPunct('~')) {
        this.next();
        const n = this.next();
        parts = [{ name: `~${n.text}` }];
        name = parts[0]!.name;
      } else {
        const q = this.qualifiedName(true);
        parts = q.parts;
        if (this.is('operator')) {
          operator = this.operatorName();
          parts = [...parts, { name: `operator${operator}` }];
        } else if (this.isPunct('~')) {
          this.next();
          parts = [...parts, { name: `~${this.next().text}` }];
        }
        name = parts[parts.length - 1]!.name;
      }
    } else if (!abstract && !this.isPunct('(') && !this.isPunct('[')) {
      this.fail(`expected a name but found ${this.describe(this.peek())}`);
    }
    const s = this.declaratorSuffix(type);
    return { type: s.type, name, parts: parts ?? (name ? [{ name }] : undefined), operator, func: s.func };
  }

  operatorName(): string {
    const opTok = this.next();
    const t = this.next();
    if (t.kind === 'punct') {
      if (t.text === '(') {
        this.expect(')', 'in operator()');
        return '()';
      }
      if (t.text === '[') {
        this.expect(']', 'in operator[]');
        return '[]';
      }
      return t.text;
    }
    if (t.kind === 'ident') {
      // conversion operator `operator T()`
      this.pos--;
      const ty = this.typeName();
      return ` ${typeText(ty)}`;
    }
    return this.fail(`expected an operator after 'operator'`, opTok);
  }

  declaratorSuffix(type: TypeSyntax): {
    type: TypeSyntax;
    func?: { ret: TypeSyntax; params: Param[]; variadic: boolean; isConst: boolean };
  } {
    if (this.isPunct('(') && this.paramsAhead()) {
      const f = this.paramList();
      let isConst = false;
      for (;;) {
        const t = this.peek();
        if (t.text === 'const') isConst = true;
        else if (t.text === 'noexcept') {
          this.next();
          if (this.isPunct('(')) this.skipBalanced('(', ')');
          continue;
        } else if (!['volatile', 'override', 'final', '&', '&&'].includes(t.text)) break;
        this.next();
      }
      this.attributes();
      let ret = type;
      if (this.accept('->')) ret = this.typeName();
      return {
        type: { kind: 'func', ret, params: f.params.map((p) => p.type), at: ret.at },
        func: { ret, params: f.params, variadic: f.variadic, isConst },
      };
    }
    const dims: (Expr | undefined)[] = [];
    while (this.isPunct('[')) {
      this.next();
      dims.push(this.isPunct(']') ? undefined : this.assignment());
      this.expect(']', 'to close the array size');
    }
    for (let k = dims.length - 1; k >= 0; k--) type = { kind: 'array', of: type, size: dims[k], at: type.at };
    return { type };
  }

  /**
   * At `(` after a declarator name: a parameter list (a function declaration), not the arguments of
   * a direct initialisation `T x(a, 1)`? C++ prefers the declaration when it can be one.
   */
  paramsAhead(): boolean {
    const t = this.peek(1);
    if (t.kind === 'punct')
      return (
        t.text === ')' || t.text === '...' || (t.text === '[' && this.isPunct('[', 2)) || t.text === '::'
      );
    if (t.kind !== 'ident') return false;
    if (t.text === 'void' || SPECIFIERS.has(t.text) || TYPE_WORDS.has(t.text)) return true;
    if (['struct', 'class', 'union', 'enum', 'auto', 'decltype', '__attribute__'].includes(t.text))
      return true;
    const save = this.pos;
    this.next();
    try {
      if (this.startsDeclaration() || this.startsType()) return true;
      // `(ns::Type &name, …)` with a type not declared here: a name, pointer/reference marks, a name
      let j = 0;
      if (this.isPunct('::', j)) j++;
      while (this.peek(j).kind === 'ident' && this.isPunct('::', j + 1)) j += 2;
      if (this.peek(j).kind !== 'ident') return false;
      j++;
      if (this.isPunct('<', j)) {
        const e = this.matchAngle(j);
        if (e < 0) return false;
        j = e + 1;
      }
      let marks = 0;
      while (this.isPunct('*', j) || this.isPunct('&', j) || this.isPunct('&&', j) || this.is('const', j)) {
        j++;
        marks++;
      }
      return (
        marks > 0 && this.peek(j).kind === 'ident' && [',', ')', '=', '['].includes(this.peek(j + 1).text)
      );
    } finally {
      this.pos = save;
    }
  }

  paramList(): { params: Param[]; variadic: boolean } {
    this.expect('(');
    const params: Param[] = [];
    let variadic = false;
    if (this.is('void') && this.isPunct(')', 1)) {
      this.next();
      this.next();
      return { params, variadic };
    }
    while (!this.isPunct(')')) {
      const t = this.peek();
      if (this.accept('...')) {
        variadic = true;
        break;
      }
      this.attributes();
      const base = this.declSpecifiers();
      const pack = this.accept('...');
      this.declPack = false;
      const d = this.declarator(base.type, true);
      let def: Expr | undefined;
      if (this.accept('=')) def = this.initializer();
      let type = d.type;
      if (d.func) type = { kind: 'ptr', to: type, at: type.at };
      params.push({ type, name: d.name, default: def, at: this.at(t), pack: pack || this.declPack });
      this.declPack = false;
      if (!this.accept(',')) break;
    }
    this.expect(')', 'to close the parameter list');
    return { params, variadic };
  }

  /** A type-id: specifiers and an abstract declarator (`const int*`, `T&`, `uint32_t[4]`). */
  typeName(): TypeSyntax {
    const base = this.declSpecifiers();
    const d = this.declarator(base.type, true);
    if (d.name) this.fail(`unexpected name '${d.name}' in a type`);
    return d.type;
  }

  /** `a::b<args>::c`; `declaratorMode` stops before a template argument list of the last part if not a template. */
  qualifiedName(_declaratorMode = false): { parts: NamePart[]; global: boolean } {
    const global = this.accept('::');
    const parts: NamePart[] = [];
    let full = '';
    for (;;) {
      this.accept('template');
      const t = this.next();
      if (t.kind !== 'ident') this.fail(`expected a name but found ${this.describe(t)}`, t);
      const part: NamePart = { name: t.text };
      full += t.text;
      if (this.isPunct('<') && (this.isTemplateName(full) || this.looksLikeTemplateArgs()))
        part.targs = this.templateArgs();
      parts.push(part);
      if (this.isPunct('::') && (this.peek(1).kind === 'ident' || this.is('template', 1))) {
        this.next();
        full += '::';
        continue;
      }
      return { parts, global };
    }
  }

  /** After a name we do not know as a template: does `<…>` read as template arguments? */
  looksLikeTemplateArgs(): boolean {
    const e = this.matchAngle(0);
    if (e < 0) return false;
    const after = this.peek(e + 1);
    // `f<…>(`, `T<…>::`, `T<…>{`; `v<T>)` when the argument is a type
    if (after.kind !== 'punct' || this.peek(e).text !== '>') return false;
    if (['(', '::', '{'].includes(after.text)) return true;
    if ([')', ',', ';'].includes(after.text)) {
      const save = this.pos;
      this.next();
      try {
        return this.startsType();
      } finally {
        this.pos = save;
      }
    }
    return false;
  }

  templateArgs(): TArg[] {
    this.expect('<');
    const out: TArg[] = [];
    this.noGreater++;
    try {
      while (!this.isPunct('>') && !this.isPunct('>>')) {
        out.push(this.templateArg());
        this.accept('...');
        if (!this.accept(',')) break;
      }
    } finally {
      this.noGreater--;
    }
    this.expect('>', 'to close the template argument list');
    return out;
  }

  templateArg(): TArg {
    if (this.startsType()) return { type: this.typeName() };
    return { expr: this.conditional() };
  }

  /**
   * Looks ahead (consuming nothing) for a known type name, possibly `::`-qualified and with template
   * arguments; returns the look-ahead offset just past it, or undefined when none starts here.
   */
  scanTypeName(): { end: number } | undefined {
    let j = 0;
    if (this.isPunct('::', j)) j++;
    let full = '';
    let last = '';
    for (;;) {
      const k = this.peek(j);
      if (k.kind !== 'ident') return undefined;
      full += k.text;
      last = k.text;
      j++;
      if (this.isPunct('<', j) && this.isTemplateName(full)) {
        const e = this.matchAngle(j);
        if (e < 0) return undefined;
        j = e + 1;
      }
      if (this.isPunct('::', j) && this.peek(j + 1).kind === 'ident') {
        full += '::';
        j++;
        continue;
      }
      break;
    }
    return this.isTypeName(full, last) ? { end: j } : undefined;
  }

  /** A type-id starts here (for casts, sizeof, template arguments). */
  startsType(): boolean {
    const t = this.peek();
    if (t.kind !== 'ident' && !(t.kind === 'punct' && t.text === '::')) return false;
    if (
      TYPE_WORDS.has(t.text) ||
      ['const', 'volatile', 'struct', 'class', 'union', 'enum', 'typename', 'auto', 'decltype'].includes(
        t.text,
      )
    )
      return true;
    // a type name (possibly qualified/templated) not followed by what an expression continues with
    const name = this.scanTypeName();
    if (!name) return false;
    const n = this.peek(name.end);
    return n.kind === 'punct'
      ? [')', '*', '&', '&&', ',', '>', '>>', '[', '...'].includes(n.text)
      : n.text === 'const' || n.text === 'volatile';
  }

  initializer(): Expr {
    if (this.isPunct('{')) return this.initList();
    return this.assignment();
  }

  initList(type?: TypeSyntax): Expr {
    const open = this.expect('{');
    this.enter(open);
    try {
      const items: InitItem[] = [];
      while (!this.isPunct('}')) {
        const item: InitItem = { value: undefined as unknown as Expr };
        if (this.isPunct('.') && this.peek(1).kind === 'ident') {
          item.designator = [];
          while (this.isPunct('.') || this.isPunct('[')) {
            if (this.accept('.')) item.designator.push({ field: this.next().text });
            else {
              this.next();
              item.designator.push({ index: this.conditional() });
              this.expect(']', 'to close the designator');
            }
          }
          if (!this.accept('=') && !this.isPunct('{')) this.expect('=', 'after the designator');
        } else if (this.isPunct('[')) {
          item.designator = [];
          this.next();
          item.designator.push({ index: this.conditional() });
          this.expect(']', 'to close the designator');
          this.expect('=', 'after the designator');
        }
        item.value = this.initializer();
        items.push(item);
        this.accept('...');
        if (!this.accept(',')) break;
      }
      this.expect('}', 'to close the initialiser list');
      return { kind: 'init', type, items, at: this.at(open) };
    } finally {
      this.leave();
    }
  }

  // ---- statements ----
  block(): Stmt & { kind: 'block' } {
    const open = this.expect('{', 'to open a block');
    this.enter(open);
    try {
      const body: Stmt[] = [];
      while (!this.isPunct('}')) {
        if (this.peek().kind === 'eof') this.fail("'{' without a matching '}'", open);
        body.push(this.statement());
      }
      const close = this.next();
      return { kind: 'block', body, at: this.at(open), end: this.at(close) };
    } finally {
      this.leave();
    }
  }

  statement(): Stmt {
    const t = this.peek();
    this.enter(t);
    try {
      return this.statementInner();
    } finally {
      this.leave();
    }
  }

  statementInner(): Stmt {
    const hook = this.opts.statementHook?.(this);
    if (hook) return hook;
    this.attributes();
    const t = this.peek();
    const at = this.at(t);
    if (t.kind === 'punct') {
      if (t.text === '{') return this.block();
      if (t.text === ';') {
        this.next();
        return { kind: 'empty', at };
      }
    }
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'if': {
          this.next();
          const constexpr = this.accept('constexpr');
          if (this.is('consteval') || this.isPunct('!')) this.unsupported('if consteval', t);
          this.expect('(', 'after if');
          let init: Stmt | undefined;
          if (this.startsDeclaration()) {
            init = this.declStatement();
          }
          const c = this.expression();
          this.expect(')', 'to close the if condition');
          const then = this.statement();
          let els: Stmt | undefined;
          if (this.accept('else')) els = this.statement();
          return { kind: 'if', constexpr, init, c, then, else: els, at };
        }
        case 'for': {
          this.next();
          this.expect('(', 'after for');
          let init: Stmt | undefined;
          if (this.isPunct(';')) this.next();
          else if (this.startsDeclaration()) {
            // range-for `for (auto x : range)`
            const save = this.pos;
            const base = this.declSpecifiers();
            const d = this.declarator(base.type);
            if (this.isPunct(':') && d.name) {
              this.next();
              const range = this.expression();
              this.expect(')', 'to close the for header');
              const body = this.statement();
              return {
                kind: 'range-for',
                decl: { kind: 'var', name: d.name, type: d.type, at: this.at(t) },
                range,
                body,
                at,
              };
            }
            this.pos = save;
            init = this.declStatement();
          } else {
            init = { kind: 'expr', e: this.expression(), at: this.at() };
            this.expect(';', 'after the for initialisation');
          }
          const c = this.isPunct(';') ? undefined : this.expression();
          this.expect(';', 'after the for condition');
          const step = this.isPunct(')') ? undefined : this.expression();
          this.expect(')', 'to close the for header');
          const body = this.statement();
          return { kind: 'for', init, c, step, body, at };
        }
        case 'while': {
          this.next();
          this.expect('(', 'after while');
          const c = this.expression();
          this.expect(')', 'to close the while condition');
          return { kind: 'while', c, body: this.statement(), at };
        }
        case 'do': {
          this.next();
          const body = this.statement();
          this.expect('while', 'after the body of do');
          this.expect('(', 'after while');
          const c = this.expression();
          this.expect(')', 'to close the while condition');
          this.expect(';', 'after do … while (…)');
          return { kind: 'do', body, c, at };
        }
        case 'switch': {
          this.next();
          this.expect('(', 'after switch');
          const c = this.expression();
          this.expect(')', 'to close the switch condition');
          return { kind: 'switch', c, body: this.statement(), at };
        }
        case 'case': {
          this.next();
          const value = this.conditional();
          let hi: Expr | undefined;
          if (this.accept('...')) hi = this.conditional();
          this.expect(':', 'after the case value');
          return { kind: 'case', value, hi, at };
        }
        case 'default':
          if (this.isPunct(':', 1)) {
            this.next();
            this.next();
            return { kind: 'default', at };
          }
          break;
        case 'break':
        case 'continue':
          this.next();
          this.expect(';', `after ${t.text}`);
          return { kind: t.text, at };
        case 'return': {
          this.next();
          const e = this.isPunct(';') ? undefined : this.isPunct('{') ? this.initList() : this.expression();
          this.expect(';', 'after return');
          return { kind: 'return', e, at };
        }
        case 'goto':
          this.unsupported('goto', t);
          break;
        case 'try':
        case 'throw':
        case 'catch':
          this.unsupported(`exceptions (${t.text})`, t);
          break;
        case 'asm':
        case '__asm__':
        case '__asm':
          if (this.opts.asmStatements) return this.asmStatement();
          this.unsupported(
            'inline assembly (asm)',
            t,
            'axsim runs the C++ around instructions, not RISC-V assembly',
          );
          break;
        case 'co_await':
        case 'co_yield':
        case 'co_return':
          this.unsupported('coroutines', t);
          break;
      }
      if (
        this.peek(1).kind === 'punct' &&
        this.peek(1).text === ':' &&
        !this.isPunct('::', 1) &&
        !['public', 'private', 'protected'].includes(t.text)
      ) {
        this.unsupported(`labels ('${t.text}:')`, t);
      }
    }
    if (this.startsDeclaration()) return this.declStatement();
    const e = this.expression();
    this.endStatement();
    return { kind: 'expr', e, at };
  }

  /** The `;` after an expression statement (optional at the end of a line in the `.sfpu` form). */
  endStatement(): void {
    if (this.accept(';')) return;
    if (this.opts.optionalSemicolon) {
      const n = this.peek();
      const prev = this.toks[this.pos - 1];
      if (n.kind === 'eof' || (n.kind === 'punct' && n.text === '}')) return;
      if (prev && tokLoc(n).line > tokLoc(prev).line) return;
      throw badInput(`expected end of statement but found ${this.describe(n)}`, {
        location: this.loc(n),
        hint: 'one instruction per line (or separate them with ;)',
      });
    }
    this.expect(';', 'after the expression');
  }

  /**
   * GNU `asm [volatile] ("template" : outputs : inputs : clobbers);`: the template text goes to the
   * host (an ISA decides which templates it can accept); operands are kept as written.
   */
  asmStatement(): Stmt {
    const t = this.next();
    while (['volatile', '__volatile__', 'inline', 'goto'].includes(this.peek().text)) this.next();
    this.expect('(', `after ${t.text}`);
    let template = '';
    while (this.peek().kind === 'string') {
      const s = this.next();
      template += stringValue(s.text, this.loc(s));
    }
    const operands: string[] = [];
    let depth = 0;
    let cur = '';
    while (!(depth === 0 && this.isPunct(')'))) {
      const k = this.next();
      if (k.kind === 'eof') this.fail(`unterminated ${t.text}(…)`, t);
      if (k.text === '(') depth++;
      if (k.text === ')') depth--;
      cur += `${k.text} `;
      if (depth === 0 && k.text === ':') {
        operands.push(cur);
        cur = '';
      }
    }
    operands.push(cur);
    this.next();
    this.expect(';', `after ${t.text}(…)`);
    return { kind: 'ext', data: { asm: template, operands }, at: this.at(t) };
  }

  declStatement(): Stmt {
    const t = this.peek();
    const decls: Decl[] = [];
    this.declarationInner(decls, t);
    for (const d of decls) {
      if (d.kind === 'func' && d.bodyToks)
        this.unsupported('a function defined inside a function (use a lambda)', t);
    }
    return { kind: 'decl', decls, at: this.at(t) };
  }

  // ---- expressions ----
  expression(): Expr {
    let e = this.assignment();
    while (this.isPunct(',')) {
      const t = this.next();
      e = { kind: 'comma', a: e, b: this.assignment(), at: this.at(t) };
    }
    return e;
  }

  assignment(): Expr {
    const t = this.peek();
    this.enter(t);
    try {
      if (t.kind === 'ident' && t.text === 'throw') this.unsupported('exceptions (throw)', t);
      const a = this.conditional();
      const op = this.peek();
      if (op.kind === 'punct' && ASSIGN_OPS.has(op.text)) {
        this.next();
        const b = this.isPunct('{') ? this.initList() : this.assignment();
        return { kind: 'assign', op: op.text, a, b, at: this.at(op) };
      }
      return a;
    } finally {
      this.leave();
    }
  }

  conditional(): Expr {
    const c = this.binary(0);
    if (this.isPunct('?')) {
      const q = this.next();
      this.enter(q);
      try {
        const a = this.noGreater ? this.withGreater(() => this.expression()) : this.expression();
        this.expect(':', "in '?:'");
        const b = this.assignment();
        return { kind: 'cond', c, a, b, at: this.at(q) };
      } finally {
        this.leave();
      }
    }
    return c;
  }

  withGreater<T>(f: () => T): T {
    const saved = this.noGreater;
    this.noGreater = 0;
    try {
      return f();
    } finally {
      this.noGreater = saved;
    }
  }

  binary(min: number): Expr {
    let a = this.unary();
    for (;;) {
      const t = this.peek();
      let op = t.text;
      if (t.kind === 'ident') {
        const alt: Record<string, string> = {
          and: '&&',
          or: '||',
          bitand: '&',
          bitor: '|',
          xor: '^',
          not_eq: '!=',
        };
        if (!alt[op]) return a;
        op = alt[op]!;
      } else if (t.kind !== 'punct') return a;
      const p = BIN_PREC[op];
      if (p === undefined || p <= min) return a;
      if (this.noGreater && (op === '>' || op === '>>')) return a;
      this.next();
      this.enter(t);
      try {
        const b = this.binary(p);
        a = { kind: 'binary', op, a, b, at: this.at(t) };
      } finally {
        this.leave();
      }
    }
  }

  unary(): Expr {
    const t = this.peek();
    const at = this.at(t);
    this.enter(t);
    try {
      if (t.kind === 'punct') {
        switch (t.text) {
          case '++':
          case '--':
          case '+':
          case '-':
          case '!':
          case '~':
          case '*':
          case '&': {
            this.next();
            const e = this.unary();
            return { kind: 'unary', op: t.text === '++' || t.text === '--' ? `pre${t.text}` : t.text, e, at };
          }
          case '(':
            if (this.castAhead()) {
              this.next();
              const type = this.withGreater(() => this.typeName());
              this.expect(')', 'to close the cast');
              if (this.isPunct('{')) return this.postfix(this.initList(type));
              const e = this.unary();
              return { kind: 'cast', type, e, how: 'c', at };
            }
        }
      }
      if (t.kind === 'ident') {
        switch (t.text) {
          case 'not':
            this.next();
            return { kind: 'unary', op: '!', e: this.unary(), at };
          case 'compl':
            this.next();
            return { kind: 'unary', op: '~', e: this.unary(), at };
          case 'sizeof':
          case 'alignof':
          case '_Alignof':
          case '__alignof__': {
            this.next();
            const align = t.text !== 'sizeof';
            if (this.accept('...')) {
              this.expect('(');
              const n = this.next();
              this.expect(')');
              return {
                kind: 'sizeof',
                e: { kind: 'name', parts: [{ name: n.text }], at: this.at(n) },
                align: false,
                at,
                ...{ pack: true },
              };
            }
            if (this.isPunct('(')) {
              const save = this.pos;
              this.next();
              if (this.startsType()) {
                const type = this.withGreater(() => this.typeName());
                this.expect(')', `to close ${t.text}`);
                return { kind: 'sizeof', type, align, at };
              }
              this.pos = save;
            }
            return { kind: 'sizeof', e: this.unary(), align, at };
          }
          case 'new':
          case 'delete':
            this.unsupported(`dynamic memory (${t.text})`, t);
            break;
          case 'co_await':
            this.unsupported('coroutines', t);
            break;
        }
      }
      return this.postfix(this.primary());
    } finally {
      this.leave();
    }
  }

  /** `(` type `)` follows (a C-style cast or compound literal), not a parenthesised expression. */
  castAhead(): boolean {
    const save = this.pos;
    this.next();
    try {
      if (!this.startsType()) return false;
      // `(T)` then something that can start an operand
      const e = this.skipTypeAhead();
      if (e < 0) return false;
      const n = this.peek(e);
      if (n.kind !== 'punct' || n.text !== ')') return false;
      const after = this.peek(e + 1);
      if (after.kind === 'eof') return false;
      if (after.kind === 'punct')
        return ['(', '{', '-', '+', '!', '~', '*', '&', '++', '--', '::', '['].includes(after.text);
      return true;
    } finally {
      this.pos = save;
    }
  }

  /** Offset just past a type-id starting here (by trying to parse one), or -1. */
  skipTypeAhead(): number {
    const save = this.pos;
    try {
      this.withGreater(() => this.typeName());
      return this.pos - save;
    } catch (e) {
      if (e instanceof AxsimError) return -1;
      throw e;
    } finally {
      this.pos = save;
    }
  }

  primary(): Expr {
    const t = this.peek();
    const at = this.at(t);
    switch (t.kind) {
      case 'number': {
        this.next();
        const i = parseIntLiteral(t.text);
        if (i) return { kind: 'int', value: i.value, unsigned: i.unsigned, longs: i.longs, text: t.text, at };
        const f = parseFloatLiteral(t.text);
        if (f) {
          if (f.longDouble) this.unsupported('long double', t);
          return { kind: 'float', value: f.value, single: f.single, text: t.text, at };
        }
        if (/^[0-9.]/.test(t.text) && /_\w+$/.test(t.text))
          this.unsupported(`user-defined literal '${t.text}'`, t);
        return this.fail(`'${t.text}' is not a valid number`, t);
      }
      case 'string': {
        let value = '';
        while (this.peek().kind === 'string') {
          const s = this.next();
          value += stringValue(s.text, this.loc(s));
        }
        return { kind: 'string', value, at };
      }
      case 'char': {
        this.next();
        const m = /^(u8|u|U|L)?'(.*)'$/s.exec(t.text)!;
        const s = unescapeC(m[2]!, this.loc(t));
        const value = s.codePointAt(0)!;
        if (s.length !== 1 && !(s.length === 2 && value > 0xffff))
          this.unsupported(`multi-character literal ${t.text}`, t);
        return m[1]
          ? { kind: 'char', value, at, prefix: m[1] as 'u8' | 'u' | 'U' | 'L' }
          : { kind: 'char', value, at };
      }
      case 'punct':
        if (t.text === '(') {
          this.next();
          const e = this.withGreater(() => this.expression());
          this.expect(')', 'to close the parenthesis');
          return e;
        }
        if (t.text === '[') return this.lambda();
        if (t.text === '{') return this.initList();
        if (t.text === '::') return this.nameExpr();
        break;
      case 'ident':
        switch (t.text) {
          case 'true':
          case 'false':
            this.next();
            return { kind: 'bool', value: t.text === 'true', at };
          case 'nullptr':
          case 'NULL':
            this.next();
            return { kind: 'nullptr', at };
          case 'this':
            this.next();
            return { kind: 'this', at };
          case 'static_cast':
          case 'reinterpret_cast':
          case 'const_cast':
          case 'dynamic_cast': {
            this.next();
            if (t.text === 'dynamic_cast') this.unsupported('dynamic_cast', t);
            this.expect('<', `after ${t.text}`);
            this.noGreater++;
            let type: TypeSyntax;
            try {
              type = this.typeName();
            } finally {
              this.noGreater--;
            }
            this.expect('>', `to close ${t.text}<…>`);
            this.expect('(', `after ${t.text}<…>`);
            const e = this.withGreater(() => this.expression());
            this.expect(')', `to close ${t.text}`);
            return { kind: 'cast', type, e, how: t.text.replace('_cast', '') as 'static', at };
          }
          case '__builtin_bit_cast': {
            this.next();
            this.expect('(', 'after __builtin_bit_cast');
            const type = this.withGreater(() => this.typeName());
            this.expect(',', 'in __builtin_bit_cast(T, value)');
            const e = this.withGreater(() => this.assignment());
            this.expect(')', 'to close __builtin_bit_cast');
            return { kind: 'cast', type, e, how: 'bit', at };
          }
          case 'typeid':
            this.unsupported('typeid', t);
            break;
          case 'requires':
            this.unsupported('requires-expressions', t);
            break;
        }
        // `T(args)` / `T{…}` with T a type: functional cast or construction
        if (TYPE_WORDS.has(t.text) || this.startsTypeForFunctionalCast()) {
          const save = this.pos;
          const base = this.declSpecifiers();
          if (this.isPunct('(') || this.isPunct('{')) {
            const type = base.type;
            if (this.isPunct('{')) return this.initList(type);
            this.next();
            const args: Expr[] = [];
            if (!this.isPunct(')')) {
              for (;;) {
                args.push(this.withGreater(() => this.assignment()));
                if (!this.accept(',')) break;
              }
            }
            this.expect(')', 'to close the functional cast');
            if (type.kind === 'builtin' && args.length === 1)
              return { kind: 'cast', type, e: args[0]!, how: 'functional', at };
            return { kind: 'construct', type, args, at };
          }
          this.pos = save;
        }
        return this.nameExpr();
    }
    return this.fail(`expected an expression but found ${this.describe(t)}`, t);
  }

  /** A known type name followed by `(` or `{` (after its template arguments). */
  startsTypeForFunctionalCast(): boolean {
    const name = this.scanTypeName();
    return name !== undefined && (this.isPunct('(', name.end) || this.isPunct('{', name.end));
  }

  nameExpr(): Expr {
    const t = this.peek();
    const q = this.qualifiedName();
    if (this.isPunct('{')) {
      // `T{…}`: only a type can be followed by a braced list in an expression
      return this.initList({ kind: 'named', parts: q.parts, global: q.global, at: this.at(t) });
    }
    return { kind: 'name', parts: q.parts, global: q.global, at: this.at(t) };
  }

  lambda(): Expr {
    const open = this.next();
    let captureAll: '&' | '=' | '' = '';
    while (!this.isPunct(']')) {
      const c = this.next();
      if (c.kind === 'eof') this.fail("'[' without a matching ']'", open);
      if ((c.text === '&' || c.text === '=') && (this.isPunct(',') || this.isPunct(']')) && captureAll === '')
        captureAll = c.text as '&' | '=';
    }
    this.next();
    let params: Param[] = [];
    if (this.isPunct('(')) params = this.paramList().params;
    while (this.peek().kind === 'ident' && ['mutable', 'constexpr', 'noexcept'].includes(this.peek().text))
      this.next();
    this.attributes();
    if (this.accept('->')) this.typeName();
    const body = this.withGreater(() => this.block());
    return { kind: 'lambda', params, body, captureAll, at: this.at(open) };
  }

  postfix(e: Expr): Expr {
    let depth = 0;
    try {
      for (;;) {
        const t = this.peek();
        if (t.kind !== 'punct') return e;
        const at = this.at(t);
        switch (t.text) {
          case '(': {
            this.next();
            const args: Expr[] = [];
            if (!this.isPunct(')')) {
              for (;;) {
                args.push(this.withGreater(() => (this.isPunct('{') ? this.initList() : this.assignment())));
                // a pack expansion `f(args...)`: the pattern, expanded by the evaluator
                const dots = this.peek();
                if (this.accept('...'))
                  args.push({ kind: 'unary', op: '...', e: args.pop()!, at: this.at(dots) });
                if (!this.accept(',')) break;
              }
            }
            const close = this.peek();
            if (!this.isPunct(')'))
              this.fail(`expected ',' or ')' in the call but found ${this.describe(close)}`, close);
            this.next();
            e = { kind: 'call', fn: e, args, at: e.at, end: this.at(close) };
            break;
          }
          case '[': {
            this.next();
            const i = this.withGreater(() => this.expression());
            this.expect(']', 'to close the index');
            e = { kind: 'index', e, i, at };
            break;
          }
          case '.':
          case '->': {
            this.next();
            this.accept('template');
            const n = this.next();
            if (n.kind !== 'ident') this.fail(`expected a member name after '${t.text}'`, n);
            let name = n.text;
            if (name === 'operator') {
              this.pos--;
              name = `operator${this.operatorName()}`;
            }
            let targs: TArg[] | undefined;
            if (this.isPunct('<') && (this.templateNames.has(name) || this.looksLikeTemplateArgs()))
              targs = this.templateArgs();
            e = { kind: 'member', e, name, arrow: t.text === '->', targs, at };
            break;
          }
          case '++':
          case '--':
            this.next();
            e = { kind: 'postfix', op: t.text, e, at };
            break;
          default:
            return e;
        }
        this.enter(t);
        depth++;
      }
    } finally {
      this.depth -= depth;
    }
  }
}

/** The canonical spelling of a combination of built-in type words. */
function normaliseBuiltin(words: string[], p: Parser, at: Token): string {
  const count = (w: string) => words.filter((x) => x === w).length;
  const unsigned = count('unsigned') > 0;
  const signed = count('signed') > 0;
  const longs = count('long');
  if (count('float')) return 'float';
  if (count('double')) return longs ? 'long double' : 'double';
  if (count('void')) return 'void';
  if (count('bool') || count('_Bool')) return 'bool';
  if (count('_Float16')) return '_Float16';
  // ARM's storage-only type: arithmetic on it is done in float (not modelled)
  if (count('__fp16')) return p.unsupported('__fp16 (use _Float16)', at);
  if (count('__int128')) return unsigned ? 'unsigned __int128' : '__int128';
  // C++ [basic.fundamental]: char, signed char, unsigned char, wchar_t, char8_t, char16_t and
  // char32_t are distinct types (types.ts gives each its representation and rank)
  if (count('char')) return unsigned ? 'unsigned char' : signed ? 'signed char' : 'char';
  if (count('char8_t')) return 'char8_t';
  if (count('wchar_t')) return 'wchar_t';
  if (count('char32_t')) return 'char32_t';
  if (count('char16_t')) return 'char16_t';
  if (count('short')) return unsigned ? 'unsigned short' : 'short';
  if (longs >= 2) return unsigned ? 'unsigned long long' : 'long long';
  if (longs === 1) return unsigned ? 'unsigned long' : 'long';
  return unsigned ? 'unsigned int' : 'int';
}

/** A type as text (for messages). */
export function typeText(t: TypeSyntax): string {
  const cv = (t.cv?.const ? 'const ' : '') + (t.cv?.volatile ? 'volatile ' : '');
  switch (t.kind) {
    case 'builtin':
      return cv + t.name;
    case 'named':
      return (
        cv +
        t.parts
          .map(
            (p) =>
              p.name +
              (p.targs ? `<${p.targs.map((a) => ('type' in a ? typeText(a.type) : '…')).join(', ')}>` : ''),
          )
          .join('::')
      );
    case 'ptr':
      return `${typeText(t.to)}*${t.cv?.const ? ' const' : ''}`;
    case 'ref':
      return `${typeText(t.to)}${t.rvalue ? '&&' : '&'}`;
    case 'array':
      return `${typeText(t.of)}[]`;
    case 'func':
      return `${typeText(t.ret)}(…)`;
    case 'auto':
      return `${cv}auto`;
    case 'decltype':
      return 'decltype(…)';
    case 'record':
      return `${t.def.kind === 'enum' ? 'enum' : t.def.tag} ${t.def.name || '(anonymous)'}`;
  }
}

/** Parses preprocessed tokens into a translation unit (function bodies on demand: `parser.parseBody`). */
export function parse(
  tokens: Token[],
  file: string,
  opts: ParseOptions = {},
): { tu: TranslationUnit; parser: Parser } {
  const parser = new Parser(tokens, file, opts);
  return { tu: parser.translationUnit(), parser };
}
