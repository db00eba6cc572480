/**
 * Reuse of `#include` preprocessing across runs (PreprocessOptions.includeCache).
 *
 * A program that includes the same headers again and again (every kernel compiled in the LLK
 * environment includes the same ~40 KB of headers; a fuzz worker compiles thousands of kernels)
 * spends most of its preprocessing time re-lexing and re-expanding them. The cache records what
 * preprocessing one included file did — the tokens it appended, the files it read, its warnings,
 * the macro table and `#pragma once` set it left, the expansions it counted — and replays that the
 * next time the same file is included in the same state.
 *
 * It is exact: an entry is used only when everything the recorded run could observe is the same.
 *  - The key: the resolved path and text, the whole macro table (every macro's parameters, body
 *    tokens with their spellings and positions, in table order), the `#pragma once` set, the
 *    include depth, the expression-size count so far, the budget's depth and expression-size limits
 *    and the include-depth limit.
 *  - Every include the recorded run resolved (nested `#include`, `__has_include`) is resolved again
 *    and must give the same path and text (so a changed header on disk or a different set of
 *    virtual files is a miss, not a stale hit).
 *  - A run that used `__COUNTER__` or failed is not recorded; a hit that would pass the expansion
 *    limit runs the file for real (so the error is the one a run without the cache reports).
 * Cached tokens are frozen and shared: the parser never modifies a token (it replaces one in its
 * own array when it splits `>>`), and a write to one would throw rather than leak into a later run.
 */
import type { AxsimError } from '../errors.ts';
import type { Token } from './lex.ts';
import type { Macro, Preprocessor } from './preprocess.ts';

interface Dep {
  name: string;
  angled: boolean;
  from: string;
  path: string | undefined;
  text: string | undefined;
}

interface Entry {
  deps: Dep[];
  tokens: readonly Token[];
  files: readonly string[];
  warnings: readonly AxsimError[];
  /** The macro table after the file, in table order, with each macro's fingerprint id. */
  macros: readonly (readonly [string, Macro, number])[];
  once: readonly string[];
  expansions: number;
  fromUse: number;
}

export interface IncludeCacheStats {
  hits: number;
  misses: number;
  entries: number;
  tokens: number;
}

export class IncludeCache {
  private readonly entries = new Map<string, Entry>();
  private tokens = 0;
  /** Fingerprint id of each macro object (content-equal macros of different runs share an id). */
  private readonly macroId = new WeakMap<Macro, number>();
  private readonly ids = new Map<string, number>();
  private readonly textIds = new Map<string, number>();
  /** Ids are never reused (a forgotten fingerprint or text gets a new one: a miss, never a wrong hit). */
  private nextId = 1;
  /** Per running preprocessor: the dependency logs of the includes being recorded (outermost first). */
  private readonly recording = new WeakMap<Preprocessor, Dep[][]>();
  hits = 0;
  misses = 0;

  /**
   * @param maxTokens tokens held in all entries; past it the least recently used entries go (a bound on memory:
   *   a cached token costs 100-300 bytes with its hide set and use site; entries of nested includes
   *   share their token objects: a full cache of the LLK environment is about 50-80 MB of heap).
   */
  constructor(readonly maxTokens = 1 << 18) {}

  stats(): IncludeCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, tokens: this.tokens };
  }

  clear(): void {
    this.entries.clear();
    this.tokens = 0;
  }

  /** Preprocesses the included file `found` into `pp`, from the cache when the state allows. */
  include(pp: Preprocessor, found: { path: string; text: string }, at: Token): void {
    const logs = this.logsOf(pp);
    const key = this.key(pp, found);
    const e = this.entries.get(key);
    if (e && pp.expansions + e.expansions <= pp.maxExpansions && this.depsHold(pp, e.deps)) {
      this.hits++;
      // most recently used last: the entries evicted first are the ones not used for longest
      this.entries.delete(key);
      this.entries.set(key, e);
      for (const log of logs) for (const d of e.deps) log.push(d);
      this.apply(pp, e);
      return;
    }
    this.misses++;
    const out0 = pp.out.length;
    const files0 = pp.files.length;
    const warnings0 = pp.warnings.length;
    const expansions0 = pp.expansions;
    const counter0 = pp.counter;
    const deps: Dep[] = [];
    logs.push(deps);
    try {
      pp.file(found.text, found.path, at);
    } finally {
      logs.pop();
    }
    // the enclosing recordings depend on what this file resolved too
    for (const log of logs) for (const d of deps) log.push(d);
    if (pp.counter !== counter0) return; // __COUNTER__ depends on the state before: not recorded
    const tokens = pp.out.slice(out0);
    for (const t of tokens) Object.freeze(t);
    for (const [k, old] of this.entries) {
      if (this.tokens + tokens.length <= this.maxTokens) break;
      this.entries.delete(k);
      this.tokens -= old.tokens.length;
    }
    if (tokens.length > this.maxTokens) return;
    this.tokens += tokens.length;
    this.entries.set(key, {
      deps,
      tokens,
      files: pp.files.slice(files0),
      warnings: pp.warnings.slice(warnings0),
      macros: [...pp.macros].map(([k, m]) => [k, m, this.idOf(m)] as const),
      once: [...pp.once],
      expansions: pp.expansions - expansions0,
      fromUse: pp.fromUse,
    });
  }

  private logsOf(pp: Preprocessor): Dep[][] {
    let logs = this.recording.get(pp);
    if (!logs) {
      const l: Dep[][] = [];
      logs = l;
      this.recording.set(pp, l);
      pp.onResolve = (name, angled, from, r) => {
        if (l.length === 0) return;
        const d: Dep = { name, angled, from, path: r?.path, text: r?.text };
        for (const log of l) log.push(d);
      };
    }
    return logs;
  }

  private depsHold(pp: Preprocessor, deps: readonly Dep[]): boolean {
    for (const d of deps) {
      const r = pp.findInclude(d.name, d.angled, d.from);
      if (r?.path !== d.path || r?.text !== d.text) return false;
    }
    return true;
  }

  private apply(pp: Preprocessor, e: Entry): void {
    // in blocks (a call's arguments are bounded): ~3x faster than one push per token
    const toks = e.tokens;
    if (toks.length <= 16384) Array.prototype.push.apply(pp.out, toks as Token[]);
    else
      for (let i = 0; i < toks.length; i += 16384)
        Array.prototype.push.apply(pp.out, toks.slice(i, i + 16384));
    for (const f of e.files) pp.files.push(f);
    for (const w of e.warnings) pp.warnings.push(w);
    // keep this run's own macro objects where they are the same macro (its built-ins count for it)
    const mine = new Map<string, Macro>(pp.macros);
    pp.macros.clear();
    for (const [name, m, id] of e.macros) {
      const own = mine.get(name);
      pp.macros.set(name, own && this.idOf(own) === id ? own : m);
    }
    pp.once.clear();
    for (const f of e.once) pp.once.add(f);
    pp.expansions += e.expansions;
    pp.fromUse = e.fromUse;
  }

  private key(pp: Preprocessor, found: { path: string; text: string }): string {
    const limits = pp.opts.budget?.limits;
    const parts: (string | number)[] = [
      found.path,
      this.textId(found.text),
      pp.includeDepth,
      pp.fromUse,
      limits ? `${limits.depth},${limits.exprSize}` : '-',
      pp.opts.maxIncludeDepth ?? 200,
      'M',
    ];
    for (const m of pp.macros.values()) parts.push(this.idOf(m));
    parts.push('O');
    for (const f of pp.once) parts.push(f);
    return parts.join('\u0000');
  }

  private textId(text: string): number {
    let id = this.textIds.get(text);
    if (id === undefined) {
      if (this.textIds.size >= 4096) this.textIds.clear();
      id = this.nextId++;
      this.textIds.set(text, id);
    }
    return id;
  }

  /** An id per distinct macro content (name, parameters, body tokens with positions, definition site). */
  private idOf(m: Macro): number {
    let id = this.macroId.get(m);
    if (id !== undefined) return id;
    const fp = m.builtin
      ? `builtin ${m.name}`
      : JSON.stringify([
          m.name,
          m.params ?? null,
          m.variadic,
          m.where,
          m.body.map((t) => [
            t.kind,
            t.text,
            t.file,
            t.line,
            t.col,
            t.bol,
            t.space,
            t.use ?? null,
            t.via ?? null,
            t.hide ? [...t.hide] : null,
          ]),
        ]);
    id = this.ids.get(fp);
    if (id === undefined) {
      if (this.ids.size >= 1 << 16) this.ids.clear();
      id = this.nextId++;
      this.ids.set(fp, id);
    }
    this.macroId.set(m, id);
    return id;
  }
}
