/**
 * The one error type of axsim. Every failure that a user can cause (bad input), that the hardware
 * leaves undefined, that axsim does not support, or that the reference calls non-contractual is an
 * AxsimError with a category; anything else that escapes is a bug (category Internal).
 */
export type ErrorCategory =
  | 'BadInput'
  | 'UndefinedBehaviour'
  | 'Unsupported'
  | 'NonContractual'
  /** The input is well-formed but needs more of a bounded resource (src/budget.ts) than allowed. */
  | 'ResourceLimit'
  | 'Internal';

/** Where an error happened: a text position, an instruction index, or both. */
export interface ErrorLocation {
  file?: string;
  /** 1-based line in source text. */
  line?: number;
  /** 1-based column in source text. */
  col?: number;
  /** 0-based index of the instruction in the program being run or decoded. */
  index?: number;
}

export class AxsimError extends Error {
  readonly category: ErrorCategory;
  readonly location: ErrorLocation | undefined;
  /** What the user can do about it, if anything useful can be said. */
  readonly hint: string | undefined;

  constructor(
    category: ErrorCategory,
    message: string,
    opts: { location?: ErrorLocation; hint?: string; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AxsimError';
    this.category = category;
    this.location = opts.location;
    this.hint = opts.hint;
  }

  /** `file:line:col: Category: message (hint)` — the form the CLI prints. */
  format(): string {
    const where = formatLocation(this.location);
    const hint = this.hint ? `\n  hint: ${this.hint}` : '';
    return `${where ? `${where}: ` : ''}${this.category}: ${this.message}${hint}`;
  }

  /** Returns a copy of this error with location fields filled in where they were missing. */
  at(loc: ErrorLocation): AxsimError {
    const e = new AxsimError(this.category, this.message, {
      location: { ...loc, ...stripUndefined(this.location ?? {}) },
      hint: this.hint,
      cause: this.cause,
    });
    e.stack = this.stack;
    return e;
  }
}

function stripUndefined(loc: ErrorLocation): ErrorLocation {
  const out: ErrorLocation = {};
  for (const [k, v] of Object.entries(loc)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

export function formatLocation(loc: ErrorLocation | undefined): string {
  if (!loc) return '';
  let s = loc.file ?? '';
  if (loc.line !== undefined) {
    s += `${s ? ':' : ''}${loc.line}`;
    if (loc.col !== undefined) s += `:${loc.col}`;
  }
  if (loc.index !== undefined) s += `${s ? ' ' : ''}[instruction ${loc.index}]`;
  return s;
}

export const badInput = (
  message: string,
  opts?: { location?: ErrorLocation; hint?: string; cause?: unknown },
) => new AxsimError('BadInput', message, opts);
export const undefinedBehaviour = (message: string, opts?: { location?: ErrorLocation; hint?: string }) =>
  new AxsimError('UndefinedBehaviour', message, opts);
export const unsupported = (message: string, opts?: { location?: ErrorLocation; hint?: string }) =>
  new AxsimError('Unsupported', message, opts);
export const nonContractual = (message: string, opts?: { location?: ErrorLocation; hint?: string }) =>
  new AxsimError('NonContractual', message, opts);
export const resourceLimit = (message: string, opts?: { location?: ErrorLocation; hint?: string }) =>
  new AxsimError('ResourceLimit', message, opts);
export const internalError = (message: string, opts?: { location?: ErrorLocation; cause?: unknown }) =>
  new AxsimError('Internal', message, opts);

export function isAxsimError(e: unknown): e is AxsimError {
  return e instanceof AxsimError;
}

/** Levenshtein distance, for "did you mean" hints on unknown names. */
export function editDistance(a: string, b: string): number {
  return boundedDistance(a, b, Math.max(a.length, b.length));
}

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/**
 * The Levenshtein distance of `a` and `b` when it is at most `limit`, else some value > `limit`: a
 * row whose every entry exceeds the limit ends the computation (entries never decrease down a
 * column's diagonal), so far-off names cost a few rows instead of |a|·|b|.
 */
function boundedDistance(a: string, b: string, limit: number): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > limit) return limit + 1;
  if (rowA.length <= n) {
    rowA = new Int32Array(2 * n + 2);
    rowB = new Int32Array(2 * n + 2);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[n]!;
}

const MAX_SUGGEST_LENGTH = 256;

/** The known name nearest to `name` (case-insensitive), or undefined when nothing is close. */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  // Names longer than any real mnemonic or identifier get no suggestion: the distance is quadratic
  // and a 1 MB identifier would take seconds per known name.
  if (name.length > MAX_SUGGEST_LENGTH) return undefined;
  const lower = name.toLowerCase();
  const maxD = Math.max(2, Math.floor(name.length / 3));
  for (const k of known) {
    // The distance is at least the length difference: skip what cannot be close enough.
    if (Math.abs(k.length - name.length) > maxD || k.length > MAX_SUGGEST_LENGTH) continue;
    // a name farther than maxD, or no nearer than the best so far, is never the answer
    const d = boundedDistance(lower, k.toLowerCase(), Math.min(bestD - 1, maxD));
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  if (best === undefined) return undefined;
  return bestD <= maxD ? best : undefined;
}
