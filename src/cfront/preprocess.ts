/**
 * The C preprocessor of cfront (C17 6.10 / C++17 [cpp]): conditional inclusion, `#include` through
 * a resolver (caller-provided virtual files first, then include directories on disk), object- and
 * function-like macros (variadic, `#`, `##`, `__VA_OPT__`, GNU `, ## __VA_ARGS__`), `#pragma once`,
 * `#error`/`#warning`, `_Pragma`, `__has_include`, `__FILE__`/`__LINE__`/`__COUNTER__`.
 *
 * Macro expansion follows the hide-set algorithm (Prosser): a token produced by expanding macro M
 * carries M in its hide set and is never expanded by M again. Every produced token keeps where it
 * was spelled and, through `use`, the outermost use site in the file being read, so errors and
 * emitted instructions point at the line the user wrote.
 */
import type { Budget } from '../budget.ts';
import { type AxsimError, badInput, type ErrorLocation, resourceLimit, unsupported } from '../errors.ts';
import { readTextFile } from '../host.ts';
import type { IncludeCache } from './include-cache.ts';
import { lex, type SrcLoc, stringValue, type Token, tokLoc } from './lex.ts';
import { dirname, isAbsolute, join, normalize } from './paths.ts';
import { systemHeader } from './system-headers.ts';

export interface PreprocessOptions {
  /** `-D NAME[=VALUE]`: value text (number/bigint converted), `true`/'' means 1. */
  defines?: Readonly<Record<string, string | number | bigint | boolean>>;
  /** Names to `#undef` after the defines (`-U`). */
  undefines?: readonly string[];
  /** Directories searched for `#include` (after the including file's own directory for "..."). */
  includeDirs?: readonly string[];
  /** path -> text, consulted before the disk for every include candidate. */
  virtualFiles?: Readonly<Record<string, string>>;
  /** Reads a file from disk (default: the host's file system, none in a browser); undefined when absent. */
  readFile?: (p: string) => string | undefined;
  /** Deepest include nesting (default 200). */
  maxIncludeDepth?: number;
  /** Most macro expansions in all (default 2e6), a guard against exponential macros. */
  maxExpansions?: number;
  /**
   * Most tokens in the preprocessed output (default 1e6; the largest tt-llk kernel and AMX C corpus
   * file preprocess to under 20 000): a guard against a macro with a long body used many times,
   * which stays under the expansion count while its output fills the memory.
   */
  maxTokens?: number;
  /** Predefine `__cplusplus` (default true: tt-llk headers are C++). */
  cplusplus?: boolean;
  /** Limits: nesting depth of includes, tokens one macro use may expand to (exprSize). */
  budget?: Budget;
  /** Serve axsim's bundled standard headers (`<cstdint>`, `<array>`, …) last (default true). */
  systemHeaders?: boolean;
  /** Reuses the preprocessing of included files across runs when the state is the same (include-cache.ts). */
  includeCache?: IncludeCache;
}

export interface PreprocessResult {
  tokens: Token[];
  /** Every file read, main file first. */
  files: string[];
  warnings: AxsimError[];
  /** The macros defined at the end (for tools and tests). */
  macros: ReadonlyMap<string, Macro>;
}

export interface Macro {
  name: string;
  /** undefined for object-like macros. */
  params?: string[];
  variadic: boolean;
  body: Token[];
  where: SrcLoc;
  /** Built-in dynamic macros (`__LINE__`, …). */
  builtin?: (at: Token) => Token[];
}

interface Cond {
  /** Some branch of this #if group was taken already. */
  taken: boolean;
  /** The current branch is active. */
  active: boolean;
  sawElse: boolean;
  at: Token;
}

const loc = (t: Token): ErrorLocation => {
  const l = tokLoc(t);
  return { file: l.file, line: l.line, col: l.col };
};

/** Token reader over one list with a push-back stack (expansion results are pushed back). */
class Stream {
  pos = 0;
  readonly back: Token[] = [];
  constructor(
    readonly toks: Token[],
    /** Stop at the end of the logical line (directives and #if expressions). */
    readonly eofTok: Token,
  ) {}
  next(): Token {
    if (this.back.length) return this.back.pop()!;
    if (this.pos < this.toks.length) return this.toks[this.pos++]!;
    return this.eofTok;
  }
  peek(): Token {
    if (this.back.length) return this.back[this.back.length - 1]!;
    return this.pos < this.toks.length ? this.toks[this.pos]! : this.eofTok;
  }
  unget(ts: readonly Token[]): void {
    for (let k = ts.length - 1; k >= 0; k--) this.back.push(ts[k]!);
  }
  /** The next token comes from the file (not from an expansion pushed back). */
  fromFile(): boolean {
    return this.back.length === 0;
  }
}

export class Preprocessor {
  readonly macros = new Map<string, Macro>();
  readonly warnings: AxsimError[] = [];
  readonly files: string[] = [];
  readonly once = new Set<string>();
  readonly out: Token[] = [];
  expansions = 0;
  /** Expansions since the last token read from the file itself. */
  fromUse = 0;
  counter = 0;
  includeDepth = 0;
  readonly maxExpansions: number;
  readonly maxTokens: number;
  /** Told of every include resolution (the include cache records what a file depended on). */
  onResolve?: (
    name: string,
    angled: boolean,
    fromFile: string,
    r: { path: string; text: string } | undefined,
  ) => void;

  constructor(readonly opts: PreprocessOptions = {}) {
    this.maxExpansions = opts.maxExpansions ?? 2_000_000;
    this.maxTokens = opts.maxTokens ?? 1_000_000;
    const builtin = (name: string, f: (at: Token) => Token[]) =>
      this.macros.set(name, {
        name,
        variadic: false,
        body: [],
        where: { file: '<built-in>', line: 0, col: 0 },
        builtin: f,
      });
    builtin('__LINE__', (at) => [mk(at, 'number', String(tokLoc(at).line))]);
    builtin('__FILE__', (at) => [mk(at, 'string', JSON.stringify(tokLoc(at).file))]);
    builtin('__COUNTER__', (at) => [mk(at, 'number', String(this.counter++))]);
    const pre: Record<string, string> = { __STDC__: '1', __axsim__: '1' };
    if (opts.cplusplus ?? true) pre.__cplusplus = '201703L';
    for (const [k, v] of Object.entries(pre)) this.defineText(k, v, '<built-in>');
    for (const [k, v] of Object.entries(opts.defines ?? {})) {
      const text = v === true || v === '' ? '1' : v === false ? '0' : String(v);
      this.defineText(k, text, '<command line>');
    }
    for (const k of opts.undefines ?? []) this.macros.delete(k);
  }

  /** `#define NAME text` from outside (`-D`); NAME may be `F(a,b)`. */
  defineText(name: string, text: string, file: string): void {
    const toks = lex(`${name} ${text}`, file);
    toks.pop();
    this.define(toks, toks[0]!);
  }

  run(text: string, file: string): PreprocessResult {
    this.file(text, file, undefined);
    const last = this.out[this.out.length - 1];
    // end of input: just after the last token
    const end = last ? tokLoc(last) : { file, line: 1, col: 1 };
    this.out.push({
      kind: 'eof',
      text: '',
      file: end.file,
      line: end.line,
      col: last && !last.use ? end.col + last.text.length : end.col,
      bol: true,
      space: false,
    });
    return { tokens: this.out, files: this.files, warnings: this.warnings, macros: this.macros };
  }

  file(text: string, file: string, from: Token | undefined): void {
    if (this.opts.budget) this.opts.budget.depth(this.includeDepth + 1, from ? loc(from) : { file });
    if (++this.includeDepth > (this.opts.maxIncludeDepth ?? 200)) {
      throw badInput(`#include nested more than ${this.opts.maxIncludeDepth ?? 200} deep`, {
        location: from ? loc(from) : { file },
        hint: 'a header that includes itself needs an include guard or #pragma once',
      });
    }
    this.files.push(file);
    const toks = lex(text, file);
    const eof = toks.pop()!;
    const s = new Stream(toks, eof);
    const conds: Cond[] = [];
    const active = () => conds.length === 0 || conds[conds.length - 1]!.active;
    for (;;) {
      const t = s.peek();
      if (t.kind === 'eof') break;
      if (t.bol && t.kind === 'punct' && t.text === '#' && s.fromFile()) {
        s.next();
        const line = this.restOfLine(s, t);
        this.directive(t, line, conds, file);
        continue;
      }
      if (!active()) {
        s.next();
        continue;
      }
      // tokens produced by one macro use in the file count against the expression-size limit
      if (s.fromFile()) this.fromUse = 0;
      this.expandNext(s, this.out);
      if (this.out.length > this.maxTokens) {
        throw resourceLimit(`preprocessed output exceeds ${this.maxTokens} tokens`, {
          location: loc(t),
          hint: 'a macro with a long body used many times; the limit is PreprocessOptions.maxTokens',
        });
      }
    }
    const open = conds[conds.length - 1];
    if (open)
      throw badInput(`#${open.at.text || 'if'} without a matching #endif`, { location: loc(open.at) });
    this.includeDepth--;
  }

  /** The tokens after `#` up to the end of its logical line. */
  restOfLine(s: Stream, hash: Token): Token[] {
    const out: Token[] = [];
    while (s.peek().kind !== 'eof' && !(s.peek().bol && s.peek() !== hash)) out.push(s.next());
    return out;
  }

  directive(_hash: Token, line: Token[], conds: Cond[], file: string): void {
    const name = line[0];
    const top = conds[conds.length - 1];
    const active = !top || top.active;
    if (!name) return; // null directive
    const d = name.text;
    const args = line.slice(1);
    switch (d) {
      case 'if':
      case 'ifdef':
      case 'ifndef': {
        let v = false;
        if (active) {
          if (d === 'if') v = this.condition(args, name);
          else {
            const id = args[0];
            if (id?.kind !== 'ident') throw badInput(`#${d} needs a macro name`, { location: loc(name) });
            v = this.macros.has(id.text) === (d === 'ifdef');
          }
        }
        conds.push({ taken: v || !active, active: active && v, sawElse: false, at: name });
        return;
      }
      case 'elif':
      case 'elifdef':
      case 'elifndef':
      case 'else': {
        if (!top) throw badInput(`#${d} without #if`, { location: loc(name) });
        if (top.sawElse) throw badInput(`#${d} after #else`, { location: loc(name) });
        const outer = conds.length < 2 || conds[conds.length - 2]!.active;
        if (d === 'else') {
          top.sawElse = true;
          top.active = outer && !top.taken;
          top.taken = true;
          return;
        }
        if (top.taken || !outer) {
          top.active = false;
          return;
        }
        let v: boolean;
        if (d === 'elif') v = this.condition(args, name);
        else v = this.macros.has(args[0]?.text ?? '') === (d === 'elifdef');
        top.active = v;
        top.taken = v;
        return;
      }
      case 'endif':
        if (!top) throw badInput('#endif without #if', { location: loc(name) });
        conds.pop();
        return;
    }
    if (!active) return;
    switch (d) {
      case 'define':
        if (args[0]?.kind !== 'ident')
          throw badInput('#define needs a macro name', { location: loc(args[0] ?? name) });
        this.define(args, name);
        return;
      case 'undef':
        if (args[0]?.kind !== 'ident')
          throw badInput('#undef needs a macro name', { location: loc(args[0] ?? name) });
        this.macros.delete(args[0].text);
        return;
      case 'include':
      case 'include_next':
        this.include(args, name, file);
        return;
      case 'pragma':
        if (args[0]?.text === 'once') this.once.add(file);
        refusePack(args, name);
        // other pragmas (GCC unroll, diagnostic, …) do not change what the code computes
        return;
      case 'error':
        throw badInput(`#error ${args.map((k) => k.text).join(' ')}`, { location: loc(name) });
      case 'warning':
        this.warnings.push(
          badInput(`#warning ${args.map((k) => k.text).join(' ')}`, { location: loc(name) }),
        );
        return;
      case 'line':
        this.lineNotApplied(name);
        return;
      case 'ident':
      case 'sccs':
        return;
    }
    if (name.kind === 'number') {
      // `# 12 "file"` line markers (a preprocessor's output)
      this.lineNotApplied(name);
      return;
    }
    throw badInput(`unknown preprocessor directive #${d}`, { location: loc(name) });
  }

  /**
   * `#line` and `# N "file"` markers are not applied: locations (and `__LINE__`, `__FILE__`) stay the
   * physical ones of the file being read. Said once per file, so no location is silently remapped.
   */
  private lineNotApplied(at: Token): void {
    const l = loc(at);
    const file = l.file ?? '';
    if (this.lineWarned.has(file)) return;
    this.lineWarned.add(file);
    this.warnings.push(
      unsupported(
        '#line and line markers are not applied: locations after them are the physical ones of this file',
        {
          location: l,
          hint: 'errors, listings and __LINE__ / __FILE__ name the line of the text as read',
        },
      ),
    );
  }
  private readonly lineWarned = new Set<string>();

  define(args: Token[], at: Token): void {
    const nameTok = args[0]!;
    const name = nameTok.text;
    if (name === 'defined') throw badInput("'defined' cannot be a macro name", { location: loc(nameTok) });
    let k = 1;
    let params: string[] | undefined;
    let variadic = false;
    if (args[1] && args[1].text === '(' && !args[1].space) {
      params = [];
      k = 2;
      for (;;) {
        const t = args[k++];
        if (!t) throw badInput(`#define ${name}( without a matching ')'`, { location: loc(nameTok) });
        if (t.text === ')' && params.length === 0) break;
        if (t.text === '...') {
          variadic = true;
          params.push('__VA_ARGS__');
          if (args[k]?.text !== ')')
            throw badInput(`expected ')' after '...' in #define ${name}`, { location: loc(args[k] ?? t) });
          k++;
          break;
        }
        if (t.kind !== 'ident')
          throw badInput(`expected a parameter name in #define ${name} but found '${t.text}'`, {
            location: loc(t),
          });
        if (args[k]?.text === '...') {
          // GNU named variadic parameter `args...`
          variadic = true;
          params.push(t.text);
          k++;
          if (args[k]?.text !== ')')
            throw badInput(`expected ')' after '...' in #define ${name}`, { location: loc(args[k] ?? t) });
          k++;
          break;
        }
        params.push(t.text);
        const sep = args[k++];
        if (sep?.text === ')') break;
        if (sep?.text !== ',')
          throw badInput(`expected ',' or ')' in the parameters of #define ${name}`, {
            location: loc(sep ?? t),
          });
      }
    }
    const body = args.slice(k);
    if (body[0]?.text === '##' || (body.length && body[body.length - 1]!.text === '##')) {
      throw badInput("'##' cannot be at either end of a macro body", { location: loc(body[0]!) });
    }
    if (params) {
      for (let j = 0; j < body.length; j++) {
        if (
          body[j]!.text === '#' &&
          !(body[j + 1] && params.includes(body[j + 1]!.text)) &&
          body[j + 1]?.text !== '__VA_OPT__'
        ) {
          throw badInput(`'#' in #define ${name} is not followed by a parameter`, {
            location: loc(body[j]!),
          });
        }
      }
    }
    this.macros.set(name, {
      name,
      params,
      variadic,
      body,
      where: { file: at.file, line: at.line, col: at.col },
    });
  }

  include(args: Token[], at: Token, fromFile: string): void {
    let spec: { name: string; angled: boolean } | undefined = this.includeSpec(args);
    if (!spec) {
      // computed include: expand macros first
      const ex = this.expandList(args);
      spec = this.includeSpec(ex);
    }
    if (!spec) throw badInput('#include expects "FILE" or <FILE>', { location: loc(args[0] ?? at) });
    const found = this.resolve(spec.name, spec.angled, fromFile);
    if (!found) {
      throw badInput(`#include: cannot find ${spec.angled ? `<${spec.name}>` : `"${spec.name}"`}`, {
        location: loc(at),
        hint: `searched: ${this.candidates(spec.name, spec.angled, fromFile).join(', ') || '(no include directories)'}; pass -I DIR or provide it as a virtual file`,
      });
    }
    if (this.once.has(found.path)) return;
    if (this.opts.includeCache) this.opts.includeCache.include(this, found, at);
    else this.file(found.text, found.path, at);
  }

  includeSpec(args: Token[]): { name: string; angled: boolean } | undefined {
    if (args[0]?.kind === 'string') return { name: stringValue(args[0].text, loc(args[0])), angled: false };
    if (args[0]?.text === '<') {
      const end = args.findIndex((t) => t.text === '>');
      if (end < 0) return undefined;
      // rebuild the spelling between < and > (tokens may be separated by nothing)
      let s = '';
      for (let k = 1; k < end; k++) s += (args[k]!.space && k > 1 ? ' ' : '') + args[k]!.text;
      return { name: s, angled: true };
    }
    return undefined;
  }

  candidates(name: string, angled: boolean, fromFile: string): string[] {
    if (isAbsolute(name)) return [name];
    return [...new Set([...this.diskCandidates(name, angled, fromFile), normalize(name)])];
  }

  /** The paths looked for on disk: the including file's directory (for "…"), then the -I directories. */
  diskCandidates(name: string, angled: boolean, fromFile: string): string[] {
    if (isAbsolute(name)) return [name];
    const out: string[] = [];
    if (!angled) out.push(normalize(join(dirname(fromFile), name)));
    for (const d of this.opts.includeDirs ?? []) out.push(normalize(join(d, name)));
    return [...new Set(out)];
  }

  resolve(name: string, angled: boolean, fromFile: string): { path: string; text: string } | undefined {
    const r = this.findInclude(name, angled, fromFile);
    this.onResolve?.(name, angled, fromFile, r);
    return r;
  }

  /** Where `#include` NAME leads from `fromFile`, and its text. */
  findInclude(name: string, angled: boolean, fromFile: string): { path: string; text: string } | undefined {
    const vf = this.opts.virtualFiles ?? {};
    const cands = this.candidates(name, angled, fromFile);
    for (const c of cands) {
      if (Object.hasOwn(vf, c)) return { path: c, text: vf[c]! };
    }
    // a virtual file may also be named by the path the kernel writes (e.g. "sfpu/x.h")
    if (Object.hasOwn(vf, name)) return { path: name, text: vf[name]! };
    const read = this.opts.readFile ?? readTextFile;
    // the disk: the including file's directory (for "…") and the -I directories
    // (not cands.slice(0, -1): for a file with no directory the first candidate equals the bare name,
    // so the de-duplicated list's last entry was an -I directory's, which was then never read)
    const disk = this.diskCandidates(name, angled, fromFile);
    for (const c of disk) {
      const text = read(c);
      if (text !== undefined) return { path: c, text };
    }
    // axsim's own minimal standard headers (system-headers.ts), never the host's
    const sys = this.opts.systemHeaders === false ? undefined : systemHeader(name);
    if (sys !== undefined) return { path: `<${name}>`, text: sys };
    return undefined;
  }

  /** `#if` / `#elif`: defined(), __has_include(), macro expansion, then integer evaluation. */
  condition(args: Token[], at: Token): boolean {
    const pre: Token[] = [];
    for (let k = 0; k < args.length; k++) {
      const t = args[k]!;
      if (t.kind === 'ident' && t.text === 'defined') {
        let id = args[k + 1];
        let j = k + 1;
        if (id?.text === '(') {
          id = args[k + 2];
          if (args[k + 3]?.text !== ')')
            throw badInput("expected ')' after defined(NAME", { location: loc(args[k + 3] ?? t) });
          j = k + 3;
        }
        if (id?.kind !== 'ident') throw badInput("'defined' needs a macro name", { location: loc(t) });
        pre.push(mk(t, 'number', this.macros.has(id.text) ? '1' : '0'));
        k = j;
        continue;
      }
      if (t.kind === 'ident' && (t.text === '__has_include' || t.text === '__has_include_next')) {
        if (args[k + 1]?.text !== '(')
          throw badInput("expected '(' after __has_include", { location: loc(t) });
        let depth = 0;
        let j = k + 1;
        for (; j < args.length; j++) {
          if (args[j]!.text === '(') depth++;
          if (args[j]!.text === ')' && --depth === 0) break;
        }
        const spec = this.includeSpec(args.slice(k + 2, j));
        pre.push(mk(t, 'number', spec && this.resolve(spec.name, spec.angled, t.file) ? '1' : '0'));
        k = j;
        continue;
      }
      if (
        t.kind === 'ident' &&
        (t.text === '__has_builtin' || t.text === '__has_attribute' || t.text === '__has_cpp_attribute') &&
        args[k + 1]?.text === '('
      ) {
        const what = args[k + 2]?.text ?? '';
        const known = new Set(['__builtin_bit_cast', '__builtin_expect', 'always_inline', 'maybe_unused']);
        pre.push(mk(t, 'number', known.has(what) ? '1' : '0'));
        k += 3;
        continue;
      }
      pre.push(t);
    }
    const toks = this.expandList(pre);
    const ce = new CondExpr(toks, at);
    const v = ce.expr();
    if (ce.k < toks.length)
      throw badInput(`unexpected '${toks[ce.k]!.text}' in #${at.text}`, { location: loc(toks[ce.k]!) });
    return v !== 0n;
  }

  /** Fully macro-expands a finite token list. */
  expandList(toks: readonly Token[]): Token[] {
    const last = toks[toks.length - 1];
    const eof: Token = {
      kind: 'eof',
      text: '',
      file: last?.file ?? '',
      line: last?.line ?? 0,
      col: 0,
      bol: true,
      space: false,
    };
    const s = new Stream([...toks], eof);
    const out: Token[] = [];
    while (s.peek().kind !== 'eof') this.expandNext(s, out);
    return out;
  }

  /** Reads one token from `s`; a macro name is expanded (its result pushed back), others go to `out`. */
  expandNext(s: Stream, out: Token[]): void {
    const t = s.next();
    if (t.kind !== 'ident') {
      out.push(t);
      return;
    }
    if (t.text === '_Pragma' && s.peek().text === '(') {
      s.next();
      const str = s.next(); // the string
      if (str.kind === 'string') refusePack(lex(stringValue(str.text, loc(str)), tokLoc(str).file), str);
      const close = s.next();
      if (close.text !== ')') throw badInput('expected \')\' after _Pragma("…"', { location: loc(close) });
      return;
    }
    const m = this.macros.get(t.text);
    if (!m || t.hide?.has(t.text)) {
      out.push(t);
      return;
    }
    if (this.opts.budget) this.opts.budget.exprSize(++this.fromUse, loc(t));
    if (++this.expansions > this.maxExpansions) {
      throw badInput(`macro expansion exceeds ${this.maxExpansions} expansions`, {
        location: loc(t),
        hint: 'a macro that expands exponentially; the limit is PreprocessOptions.maxExpansions',
      });
    }
    if (m.builtin) {
      out.push(...m.builtin(t));
      return;
    }
    if (!m.params) {
      const hide = new Set(t.hide ?? []);
      hide.add(m.name);
      s.unget(this.subst(m, t, [], hide));
      return;
    }
    // function-like: only when followed by '('
    if (s.peek().text !== '(') {
      out.push(t);
      return;
    }
    s.next();
    const { args, close } = this.readArgs(s, m, t);
    const hide = new Set<string>();
    // hide set: (HS(name) ∩ HS(')')) ∪ {name}
    for (const h of t.hide ?? []) if (close.hide?.has(h)) hide.add(h);
    hide.add(m.name);
    s.unget(this.subst(m, t, args, hide));
  }

  readArgs(s: Stream, m: Macro, at: Token): { args: Token[][]; close: Token } {
    const args: Token[][] = [[]];
    const commas: Token[] = [];
    let depth = 0;
    for (;;) {
      const t = s.next();
      if (t.kind === 'eof')
        throw badInput(`unterminated call of macro ${m.name}`, { location: loc(at), hint: "missing ')'" });
      if (t.bol && t.text === '#' && t.kind === 'punct' && s.fromFile())
        throw badInput(`a directive inside the arguments of macro ${m.name}`, { location: loc(t) });
      if (t.kind === 'punct' && t.text === '(') depth++;
      else if (t.kind === 'punct' && t.text === ')') {
        if (depth === 0) {
          const nparams = m.params!.length;
          if (args.length === 1 && args[0]!.length === 0 && nparams === 0) args.pop();
          if (m.variadic && args.length === nparams - 1) args.push([]);
          if (args.length !== nparams && !(m.variadic && args.length > nparams)) {
            throw badInput(`macro ${m.name} takes ${nparams} argument(s) but got ${args.length}`, {
              location: loc(at),
            });
          }
          if (m.variadic && args.length > nparams) {
            // fold the extra arguments (and their commas) into __VA_ARGS__
            const first = nparams - 1;
            const va: Token[] = [];
            for (let k = first; k < args.length; k++) {
              if (k > first) va.push(commas[k - 1]!);
              va.push(...args[k]!);
            }
            args.length = first;
            args.push(va);
          }
          return { args, close: t };
        }
        depth--;
      } else if (t.kind === 'punct' && t.text === ',' && depth === 0) {
        commas.push(t);
        args.push([]);
        continue;
      }
      args[args.length - 1]!.push(t);
    }
  }

  /** The body of `m` with its arguments substituted, `#` and `##` applied, hide set added. */
  subst(m: Macro, at: Token, args: Token[][], hide: ReadonlySet<string>): Token[] {
    const params = m.params ?? [];
    const idx = (t: Token | undefined) => (t && t.kind === 'ident' ? params.indexOf(t.text) : -1);
    const expanded = new Map<number, Token[]>();
    const expandedArg = (k: number) => {
      let e = expanded.get(k);
      if (!e) {
        e = this.expandList(args[k]!);
        expanded.set(k, e);
      }
      return e;
    };
    const use = at.use ?? { file: at.file, line: at.line, col: at.col };
    const via = [...(at.via ?? []), m.name];
    const body = m.body;
    const vaIdx = m.variadic ? params.length - 1 : -1;
    const vaEmpty = () => vaIdx >= 0 && expandedArg(vaIdx).length === 0;
    // (a) #param, __VA_OPT__, argument substitution; '##' kept as a marker for (b)
    type Piece = { toks: Token[]; paste?: boolean; placemarker?: boolean; arg?: boolean };
    const pieces: Piece[] = [];
    for (let j = 0; j < body.length; j++) {
      const t = body[j]!;
      if (t.text === '##' && t.kind === 'punct') {
        pieces.push({ toks: [t], paste: true });
        continue;
      }
      if (params.length && t.text === '#' && t.kind === 'punct') {
        const k = idx(body[j + 1]);
        if (k >= 0) {
          pieces.push({ toks: [stringify(args[k]!, t)] });
          j++;
          continue;
        }
      }
      if (m.variadic && t.text === '__VA_OPT__' && body[j + 1]?.text === '(') {
        let depth = 0;
        let e = j + 1;
        for (; e < body.length; e++) {
          if (body[e]!.text === '(') depth++;
          if (body[e]!.text === ')' && --depth === 0) break;
        }
        const inner = body.slice(j + 2, e);
        if (!vaEmpty()) {
          const sub = this.subst({ ...m, body: inner }, at, args, new Set());
          pieces.push({ toks: sub.map((k) => ({ ...k, hide: k.hide })) });
        } else pieces.push({ toks: [], placemarker: true });
        j = e;
        continue;
      }
      const k = idx(t);
      if (k >= 0) {
        const prevPaste = pieces.length > 0 && pieces[pieces.length - 1]!.paste;
        const nextPaste = body[j + 1]?.text === '##';
        // GNU: `, ## __VA_ARGS__` drops the comma when the variable arguments are empty
        if (prevPaste && k === vaIdx && pieces.length >= 2) {
          const before = pieces[pieces.length - 2]!;
          const lastTok = before.toks[before.toks.length - 1];
          if (lastTok?.text === ',') {
            pieces.pop();
            if (args[k]!.length === 0) before.toks = before.toks.slice(0, -1);
            pieces.push({ toks: args[k]!.slice(), arg: true });
            continue;
          }
        }
        const raw = prevPaste || nextPaste;
        const toks = raw ? args[k]!.slice() : expandedArg(k).slice();
        pieces.push({ toks, placemarker: toks.length === 0, arg: true });
        continue;
      }
      pieces.push({ toks: [t] });
    }
    // (b) token pasting; tokens that came from arguments keep their own positions, the others
    // (the body's, pasted ones) are placed at the use site
    const flat: Token[] = [];
    const fromArg: boolean[] = [];
    for (let j = 0; j < pieces.length; j++) {
      const p = pieces[j]!;
      if (p.paste) {
        const right = pieces[++j];
        if (!right) break;
        const rt = right.toks;
        if (rt.length === 0) continue;
        const left = flat.pop();
        fromArg.pop();
        if (!left) {
          flat.push(...rt);
          for (const _ of rt) fromArg.push(right.arg === true);
          continue;
        }
        flat.push(paste(left, rt[0]!), ...rt.slice(1));
        fromArg.push(false);
        for (let q = 1; q < rt.length; q++) fromArg.push(right.arg === true);
        continue;
      }
      flat.push(...p.toks);
      for (const _ of p.toks) fromArg.push(p.arg === true);
    }
    // one object shape for every copy (a spread gave each token kind its own: slower property reads
    // in the parser, more garbage)
    const out: Token[] = new Array(flat.length);
    for (let k = 0; k < flat.length; k++) {
      const t = flat[k]!;
      const own = fromArg[k];
      out[k] = {
        kind: t.kind,
        text: t.text,
        file: t.file,
        line: t.line,
        col: t.col,
        bol: false,
        space: k === 0 ? at.space : t.space,
        use: own ? t.use : use,
        via: own ? t.via : via,
        hide: union(t.hide, hide),
      };
    }
    return out;
  }
}

function union(a: ReadonlySet<string> | undefined, b: ReadonlySet<string>): ReadonlySet<string> {
  if (!a || a.size === 0) return b;
  const s = new Set(a);
  for (const x of b) s.add(x);
  return s;
}

function mk(at: Token, kind: Token['kind'], text: string): Token {
  return {
    kind,
    text,
    file: at.file,
    line: at.line,
    col: at.col,
    bol: false,
    space: at.space,
    use: at.use,
    via: at.via,
    hide: undefined,
  };
}

function stringify(arg: Token[], at: Token): Token {
  let s = '';
  arg.forEach((t, k) => {
    if (k > 0 && t.space) s += ' ';
    s +=
      t.kind === 'string' || t.kind === 'char' ? t.text.replace(/\\/g, '\\\\').replace(/"/g, '\\"') : t.text;
  });
  return { ...at, kind: 'string', text: `"${s}"` };
}

function paste(a: Token, b: Token): Token {
  const text = a.text + b.text;
  const toks = lex(text, a.file);
  toks.pop();
  if (toks.length !== 1) {
    throw badInput(`pasting '${a.text}' and '${b.text}' does not give a valid token`, { location: loc(a) });
  }
  return { ...a, kind: toks[0]!.kind, text: toks[0]!.text };
}

/** Integer constant expressions of `#if` (intmax_t = 64-bit; identifiers left over are 0). */
class CondExpr {
  k = 0;
  constructor(
    readonly t: Token[],
    readonly at: Token,
  ) {}
  peek(): string {
    return this.t[this.k]?.text ?? '';
  }
  fail(msg: string): never {
    throw badInput(msg, { location: loc(this.t[this.k] ?? this.at) });
  }
  expr(): bigint {
    const c = this.binary(0);
    if (this.peek() === '?') {
      this.k++;
      const a = this.expr();
      if (this.peek() !== ':') this.fail(`expected ':' in #${this.at.text}`);
      this.k++;
      const b = this.expr();
      return c !== 0n ? a : b;
    }
    return c;
  }
  static readonly PREC: Record<string, number> = {
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
    '<<': 8,
    '>>': 8,
    '+': 9,
    '-': 9,
    '*': 10,
    '/': 10,
    '%': 10,
  };
  binary(min: number): bigint {
    let a = this.unary();
    for (;;) {
      const op = this.peek();
      const p = CondExpr.PREC[op];
      if (p === undefined || p <= min || this.t[this.k]!.kind !== 'punct') return a;
      const opTok = this.t[this.k]!;
      this.k++;
      const b = this.binary(p);
      a = BigInt.asIntN(64, this.apply(op, a, b, opTok));
    }
  }
  apply(op: string, a: bigint, b: bigint, at: Token): bigint {
    const B = (x: boolean) => (x ? 1n : 0n);
    switch (op) {
      case '||':
        return B(a !== 0n || b !== 0n);
      case '&&':
        return B(a !== 0n && b !== 0n);
      case '|':
        return a | b;
      case '^':
        return a ^ b;
      case '&':
        return a & b;
      case '==':
        return B(a === b);
      case '!=':
        return B(a !== b);
      case '<':
        return B(a < b);
      case '>':
        return B(a > b);
      case '<=':
        return B(a <= b);
      case '>=':
        return B(a >= b);
      case '<<':
        return a << b;
      case '>>':
        return a >> b;
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '/':
      case '%':
        if (b === 0n) throw badInput(`division by zero in #if`, { location: loc(at) });
        return op === '/' ? a / b : a % b;
    }
    return 0n;
  }
  unary(): bigint {
    const t = this.t[this.k];
    if (!t) this.fail(`expected a value in #${this.at.text}`);
    this.k++;
    if (t.kind === 'punct') {
      switch (t.text) {
        case '(': {
          const v = this.expr();
          if (this.peek() !== ')') this.fail(`expected ')' in #${this.at.text}`);
          this.k++;
          return v;
        }
        case '!':
          return this.unary() === 0n ? 1n : 0n;
        case '-':
          return BigInt.asIntN(64, -this.unary());
        case '+':
          return this.unary();
        case '~':
          return BigInt.asIntN(64, ~this.unary());
      }
    }
    if (t.kind === 'number') {
      const v = parseIntLiteral(t.text);
      if (v === undefined)
        throw badInput(`'${t.text}' is not an integer in #${this.at.text}`, { location: loc(t) });
      return BigInt.asIntN(64, v.value);
    }
    if (t.kind === 'char')
      return BigInt(
        stringValue(t.text.replace(/^(u8|u|U|L)?'/, '"').replace(/'$/, '"'), loc(t)).charCodeAt(0) || 0,
      );
    if (t.kind === 'ident') return t.text === 'true' ? 1n : 0n;
    return this.fail(`unexpected '${t.text}' in #${this.at.text}`);
  }
}

/** An integer literal's value and suffix (`0x1F`, `10u`, `0b101`, `1'000`, `077`), or undefined. */
export function parseIntLiteral(
  text: string,
): { value: bigint; unsigned: boolean; longs: number } | undefined {
  const m =
    /^(0[xX][0-9a-fA-F']+|0[bB][01']+|0[0-7']*|[1-9][0-9']*)([uU]?(?:ll|LL|l|L|z|Z)?|(?:ll|LL|l|L|z|Z)[uU])$/.exec(
      text,
    );
  if (!m) return undefined;
  const digits = m[1]!.replace(/'/g, '');
  let value: bigint;
  if (/^0[bB]/.test(digits)) value = BigInt(digits);
  else if (/^0[xX]/.test(digits)) value = BigInt(digits);
  else if (digits.length > 1 && digits[0] === '0') value = BigInt(`0o${digits.slice(1)}`);
  else value = BigInt(digits);
  const suffix = m[2]!;
  return { value, unsigned: /[uU]/.test(suffix), longs: (suffix.match(/[lL]/g) ?? []).length };
}

/** Preprocesses `text` (named `file`); throws AxsimError at file:line:col. */
/**
 * `#pragma pack(N)` / `pack(push, N)` changes struct layout, which axsim does not model: refused at
 * the pragma rather than laid out with natural alignment (`pack()`, `pack(pop)`, `pack(push)` are
 * harmless and pass).
 */
function refusePack(args: Token[], at: Token): void {
  if (args[0]?.text !== 'pack') return;
  if (args.some((a) => a.kind === 'number'))
    throw unsupported('#pragma pack: packed struct layout is not modelled', {
      location: loc(at),
      hint: 'remove the pragma and lay the struct out with explicit padding',
    });
}

export function preprocess(text: string, file: string, opts: PreprocessOptions = {}): PreprocessResult {
  return new Preprocessor(opts).run(text, file);
}
