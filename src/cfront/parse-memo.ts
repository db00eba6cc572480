/**
 * Reuse of parsed declarations across runs (ParseOptions.memo): the parsed-environment cache.
 *
 * A process that compiles many programs in the same environment (every kernel compiled in the LLK
 * environment includes the same ~40 KB of headers; a fuzz worker compiles thousands of kernels)
 * spends most of its parse time re-parsing the environment's declarations. The include cache
 * (include-cache.ts) already replays the same frozen token objects for those headers; this memo
 * records what parsing one top-level declaration made of them and replays it the next time the
 * parser meets the same token objects in the same state.
 *
 * It is exact: an entry is used only when everything the recorded parse could observe is the same.
 *  - The tokens: the same objects (identity, not spelling) from the declaration's first token
 *    through the furthest token the parse looked at (Parser.peek). Only frozen tokens (the include
 *    cache's) are recorded, so a program's own text never matches another program's.
 *  - The parser's state: the nesting depth, the namespace, the template parameters in scope, the
 *    `>` mode, the line limit, a pending parameter pack, the budget's depth limit, the options that
 *    change parsing (script, optional `;`, asm statements, vector typedefs, eager bodies) and the
 *    host's statement forms (`hostKey`: a parse with a statement hook and no key is not recorded).
 *  - The type and template names: every query the recorded parse made of the names known before it
 *    (`Parser.typeNames.has`, `templateNames.has`, also by the host's statement hook and by
 *    sub-parsers of attribute arguments), with its answer; a replay needs the same answers.
 * A replay then does what the parse did: it advances past the same tokens, makes the same
 * replacements in the token array (a `>>` split in two), adds the same type and template names,
 * leaves the same pending alignment, queues the same lazily parsed bodies, and appends copies of the
 * same declarations.
 *
 * The declarations are shared between runs except where a run changes them: the parser sets a
 * function's body when it is first called, the evaluator sets a function's owner, namespace and
 * flags. So every function declaration, and every node that (through any path) leads to one
 * (namespaces, records, arrays of members), is copied per replay, with the function's body tokens
 * moved to where they are in this run's token array; every other node (types, expressions,
 * parameters, ...) is shared and frozen, so a change to it would throw instead of leaking into
 * another run. A parse that fails is not recorded.
 */
import type { Decl, Expr, FuncDecl } from './ast.ts';
import type { Token } from './lex.ts';

interface Entry {
  key: string;
  /** The token objects the parse looked at, from its first one (identity is checked). */
  toks: readonly Token[];
  /** Tokens consumed (the parser's position advances by this). */
  consumed: number;
  /** Replacements made in the token array (offset from the first token, new token). */
  writes: readonly (readonly [number, Token])[];
  /** Queries of the names known before the parse, with their answers. */
  typeQ: readonly (readonly [string, boolean])[];
  tmplQ: readonly (readonly [string, boolean])[];
  typeAdds: readonly string[];
  tmplAdds: readonly string[];
  /** The declarations appended (templates: copied per replay where `copied` says). */
  decls: readonly Decl[];
  /** Functions queued for lazy body parsing, in order (templates). */
  lazy: readonly FuncDecl[];
  /**
   * Template objects a replay copies (functions and everything leading to one), each with where
   * its children to copy are (array indices or property names).
   */
  plans: Plans;
  /** The parser's position when recorded (function bodies' token ranges move with the replay). */
  start: number;
  pendingAlign: Expr | undefined;
  declPack: boolean;
}

export interface ParseMemoStats {
  hits: number;
  misses: number;
  entries: number;
  tokens: number;
}

/** The recording of one top-level declaration (Parser internals). */
export interface Recording {
  start: number;
  key: string;
  outStart: number;
  lazyStart: number;
  /** Original tokens at positions the parse replaced (absolute index -> token before). */
  originals: Map<number, Token>;
  writes: [number, Token][];
}

/** A set of names the parser knows (types, templates) that logs queries while a parse is recorded. */
export class NameSet {
  private readonly own = new Set<string>();
  /** While recording: first queries answered by the names known before the recording. */
  log: Map<string, boolean> | undefined;
  /** While recording: names added. */
  added: Set<string> | undefined;

  /** `base`: names also known (a sub-parser sees its parent's names; its own additions stay its own). */
  constructor(private readonly base?: NameSet) {}

  has(name: string): boolean {
    const r = this.own.has(name) || (this.base?.has(name) ?? false);
    const log = this.log;
    if (log !== undefined && !log.has(name) && !this.added!.has(name)) log.set(name, r);
    return r;
  }

  add(name: string): void {
    if (this.added !== undefined) this.added.add(name);
    this.own.add(name);
  }

  startLog(): void {
    this.log = new Map();
    this.added = new Set();
  }

  stopLog(): { log: [string, boolean][]; added: string[] } {
    const r = { log: [...this.log!], added: [...this.added!] };
    this.log = undefined;
    this.added = undefined;
    return r;
  }
}

/** What the parser exposes to the memo (a structural view of Parser). */
export interface MemoParser {
  toks: Token[];
  pos: number;
  hi: number;
  readonly typeNames: NameSet;
  readonly templateNames: NameSet;
  readonly lazy: FuncDecl[];
  pendingAlign: Expr | undefined;
  declPack: boolean;
}

export class ParseMemo {
  private readonly byFirst = new Map<Token, Entry[]>();
  /** Entries, least recently used first. */
  private readonly lru = new Set<Entry>();
  private tokens = 0;
  /**
   * First tokens of declarations parsed once without recording: a declaration is recorded the second
   * time its first token object comes (the include cache's tokens of a state seen only once, e.g. a
   * program that redefines a macro the environment uses, would cost a recording and never be replayed).
   */
  private seen = new WeakSet<Token>();
  hits = 0;
  misses = 0;

  /**
   * @param maxTokens tokens (recorded ranges) held in all entries; past it the least recently used
   *   entries go. The declarations of a full LLK environment (one arch) are about 30 000 tokens and
   *   10-20 MB of syntax tree.
   */
  constructor(readonly maxTokens = 1 << 18) {}

  stats(): ParseMemoStats {
    return { hits: this.hits, misses: this.misses, entries: this.lru.size, tokens: this.tokens };
  }

  clear(): void {
    this.seen = new WeakSet();
    this.byFirst.clear();
    this.lru.clear();
    this.tokens = 0;
  }

  /** Replays a recorded parse of the declaration at p.pos into `out`, if one holds; true if done. */
  replay(p: MemoParser, key: string, out: Decl[]): boolean {
    const first = p.toks[p.pos]!;
    const list = this.byFirst.get(first);
    if (list === undefined) return false;
    const toks = p.toks;
    const pos = p.pos;
    search: for (const e of list) {
      if (e.key !== key) continue;
      const n = e.toks.length;
      // the last token (eof) is never frozen, so a recorded range always ends before it
      if (pos + n > toks.length - 1) continue;
      for (let i = 1; i < n; i++) if (toks[pos + i] !== e.toks[i]) continue search;
      for (const [name, v] of e.typeQ) if (p.typeNames.has(name) !== v) continue search;
      for (const [name, v] of e.tmplQ) if (p.templateNames.has(name) !== v) continue search;
      this.hits++;
      this.lru.delete(e);
      this.lru.add(e);
      for (const [off, t] of e.writes) toks[pos + off] = t;
      for (const name of e.typeAdds) p.typeNames.add(name);
      for (const name of e.tmplAdds) p.templateNames.add(name);
      const copies = new Map<object, unknown>();
      const shift = pos - e.start;
      for (const d of e.decls) out.push(copyNode(d, e.plans, copies, shift) as Decl);
      for (const f of e.lazy) p.lazy.push(copyNode(f, e.plans, copies, shift) as FuncDecl);
      p.pendingAlign = e.pendingAlign;
      p.declPack = e.declPack;
      p.pos = pos + e.consumed;
      if (pos + n - 1 > p.hi) p.hi = pos + n - 1;
      return true;
    }
    return false;
  }

  /**
   * Starts recording the parse of the declaration at p.pos, or returns undefined when its first
   * token is new (it is recorded if it comes again).
   */
  begin(p: MemoParser, key: string, outLength: number): Recording | undefined {
    this.misses++;
    const first = p.toks[p.pos]!;
    if (!this.seen.has(first)) {
      this.seen.add(first);
      return undefined;
    }
    p.hi = p.pos;
    p.typeNames.startLog();
    p.templateNames.startLog();
    return {
      start: p.pos,
      key,
      outStart: outLength,
      lazyStart: p.lazy.length,
      originals: new Map(),
      writes: [],
    };
  }

  /** Ends a recording (`out` = the array the declaration went to); stores it if it can ever hit. */
  end(p: MemoParser, r: Recording, out: Decl[] | undefined): void {
    const types = p.typeNames.stopLog();
    const tmpls = p.templateNames.stopLog();
    if (out === undefined) return; // the parse failed
    const n = p.hi - r.start + 1;
    if (n > this.maxTokens) return;
    const toks: Token[] = p.toks.slice(r.start, r.start + n);
    for (const [i, t] of r.originals) toks[i - r.start] = t;
    for (const t of toks) if (!Object.isFrozen(t)) return; // the program's own text: never seen again
    for (const [, t] of r.writes) Object.freeze(t);
    // templates: copies of the functions and what leads to them; the rest shared and frozen
    const roots: unknown[] = [...out.slice(r.outStart), ...p.lazy.slice(r.lazyStart)];
    const leads = new Set<object>();
    const seen = new Set<object>();
    for (const x of roots) markLeads(x, leads, seen);
    const plans: Plans = new Map();
    const copies = new Map<object, unknown>();
    const decls = out.slice(r.outStart).map((d) => template(d, leads, plans, copies) as Decl);
    const lazy = p.lazy.slice(r.lazyStart).map((f) => template(f, leads, plans, copies) as FuncDecl);
    // (the templates are not frozen: a frozen object is copied by a slow path, ~9 times slower; no
    // run ever gets a template, only its copies)
    const e: Entry = {
      key: r.key,
      toks,
      consumed: p.pos - r.start,
      writes: r.writes.map(([i, t]) => [i - r.start, t] as const),
      typeQ: types.log,
      tmplQ: tmpls.log,
      typeAdds: types.added,
      tmplAdds: tmpls.added,
      decls,
      lazy,
      plans,
      start: r.start,
      pendingAlign: p.pendingAlign,
      declPack: p.declPack,
    };
    for (const old of this.lru) {
      if (this.tokens + n <= this.maxTokens) break;
      this.drop(old);
    }
    this.tokens += n;
    this.lru.add(e);
    const list = this.byFirst.get(toks[0]!);
    if (list) list.push(e);
    else this.byFirst.set(toks[0]!, [e]);
  }

  private drop(e: Entry): void {
    this.lru.delete(e);
    this.tokens -= e.toks.length;
    const list = this.byFirst.get(e.toks[0]!)!;
    const k = list.indexOf(e);
    if (k >= 0) list.splice(k, 1);
    if (list.length === 0) this.byFirst.delete(e.toks[0]!);
  }
}

const isNode = (x: unknown): x is object =>
  typeof x === 'object' &&
  x !== null &&
  (Array.isArray(x) || Object.getPrototypeOf(x) === Object.prototype) &&
  !Object.isFrozen(x);

/**
 * Marks the syntax nodes that are functions or lead to one (through any property); freezes the
 * others. Host data of `ext` statements (the emitter's) is neither entered nor frozen; frozen
 * objects (tokens, shared nodes) are not entered.
 */
function markLeads(x: unknown, leads: Set<object>, seen: Set<object>): boolean {
  if (typeof x !== 'object' || x === null) return false;
  if (seen.has(x)) return leads.has(x);
  seen.add(x);
  if (!isNode(x)) return false;
  let lead = !Array.isArray(x) && (x as { kind?: unknown }).kind === 'func';
  if (Array.isArray(x)) {
    for (const v of x) if (markLeads(v, leads, seen)) lead = true;
  } else {
    const ext = (x as { kind?: unknown }).kind === 'ext';
    for (const k in x) {
      if (ext && k === 'data') continue;
      if (markLeads((x as Record<string, unknown>)[k], leads, seen)) lead = true;
    }
  }
  if (lead) leads.add(x);
  else Object.freeze(x);
  return lead;
}

type Plans = Map<object, readonly (number | string)[]>;

/**
 * The template of a live node (a copy of the nodes in `leads`, sharing the others) and its plan:
 * where the children that are copied too are.
 */
function template(
  x: unknown,
  leads: ReadonlySet<object>,
  plans: Plans,
  copies: Map<object, unknown>,
): unknown {
  if (typeof x !== 'object' || x === null || !leads.has(x)) return x;
  const done = copies.get(x);
  if (done !== undefined) return done;
  const plan: (number | string)[] = [];
  if (Array.isArray(x)) {
    const a: unknown[] = x.slice();
    copies.set(x, a);
    plans.set(a, plan);
    for (let i = 0; i < x.length; i++)
      if (leads.has(x[i])) {
        a[i] = template(x[i], leads, plans, copies);
        plan.push(i);
      }
    return a;
  }
  const o: Record<string, unknown> = { ...(x as Record<string, unknown>) };
  copies.set(x, o);
  plans.set(o, plan);
  for (const k in o)
    if (leads.has(o[k] as object)) {
      o[k] = template(o[k], leads, plans, copies);
      plan.push(k);
    }
  return o;
}

/**
 * A copy of template `x` for one run: the nodes with a plan are copied (once each, so shared nodes
 * stay shared), other values are shared. A function's body tokens move by `shift`.
 */
function copyNode(x: unknown, plans: Plans, copies: Map<object, unknown>, shift: number): unknown {
  const plan = typeof x === 'object' && x !== null ? plans.get(x) : undefined;
  if (plan === undefined) return x;
  const done = copies.get(x as object);
  if (done !== undefined) return done;
  if (Array.isArray(x)) {
    const a: unknown[] = x.slice();
    copies.set(x, a);
    for (const i of plan as number[]) a[i] = copyNode(x[i], plans, copies, shift);
    return a;
  }
  const t = x as Record<string, unknown>;
  const o: Record<string, unknown> = { ...t };
  copies.set(x as object, o);
  for (const k of plan as string[]) o[k] = copyNode(t[k], plans, copies, shift);
  if (o.kind === 'func') {
    const b = (x as FuncDecl).bodyToks;
    if (b) o.bodyToks = { start: b.start + shift, end: b.end + shift };
  }
  return o;
}
