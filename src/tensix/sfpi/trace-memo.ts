/**
 * The trace memo (docs/sfpi.md "Compile speed"): the LLK driver calls a kernel once per face, so one
 * compile traces the same SFPI code four times, each with fresh value ids, and compiles it in pieces
 * between the face steps (index.ts). A piece that is the previously compiled one with every value id
 * moved by one constant gets that piece's instructions instead of running the passes again.
 *
 * Exact: the passes see a trace's kinds, operations, immediates and source locations, which must be
 * equal field by field, and its value ids only through equality and order (maps keyed by id, `a < b`),
 * which adding one constant to every id keeps. Ids below 0 mean "none" and must be equal; ids at or
 * above ID_LIMIT are refused, so a shifted id never meets the ids the passes make for their own
 * copies (from 10^9, passes.ts). A field not known to hold ids is compared exactly, so a new kind of
 * op can only make the memo miss, never hit wrongly.
 */
import type { TraceOp } from './trace.ts';

/** Fields whose numbers (or arrays of numbers, or `[field, id]` pairs: vregs) are value ids. */
const ID_FIELDS = new Set([
  'id',
  'src',
  'a',
  'b',
  'c',
  'old',
  'ida',
  'idb',
  'ids',
  'srcs',
  'v',
  'l',
  'tied',
  'vregs',
]);
/** Subtrees compared exactly whatever their keys (immediate fields by name, register masks, locations). */
const EXACT_FIELDS = new Set(['fields', 'tti', 'at', 'want']);
const ID_LIMIT = 100_000_000;

interface Shift {
  d: number | undefined;
}

function same(x: unknown, y: unknown, s: Shift, ids: boolean): boolean {
  if (typeof x === 'number') {
    if (typeof y !== 'number') return false;
    if (!ids || x < 0 || y < 0) return x === y;
    if (x >= ID_LIMIT || y >= ID_LIMIT) return false;
    if (s.d === undefined) s.d = y - x;
    return y - x === s.d;
  }
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!same(x[i], y[i], s, ids)) return false;
    return true;
  }
  if (x !== null && typeof x === 'object') {
    if (y === null || typeof y !== 'object' || Array.isArray(y)) return false;
    const kx = Object.keys(x);
    if (kx.length !== Object.keys(y).length) return false;
    for (const k of kx) {
      if (!Object.hasOwn(y, k)) return false;
      const exact = EXACT_FIELDS.has(k);
      const v = (x as Record<string, unknown>)[k];
      const w = (y as Record<string, unknown>)[k];
      if (!same(v, w, exact ? { d: 0 } : s, !exact && ID_FIELDS.has(k))) return false;
    }
    return true;
  }
  return x === y;
}

/**
 * True when `b` is `a` with one constant added to every value id (the constant may be 0), every
 * other field equal.
 */
export function shiftEquivalent(a: readonly TraceOp[], b: readonly TraceOp[]): boolean {
  if (a.length !== b.length) return false;
  const s: Shift = { d: undefined };
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i], s, false)) return false;
  return true;
}

let enabled = true;
let hits = 0;
/** How many flushes the memo answered in this process (tests check it is used). */
export function sfpiTraceMemoHits(): number {
  return hits;
}
/** Turns the memo off (tests compare both ways); returns the previous setting. */
export function setSfpiTraceMemo(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** One emitter's memo: the last trace compiled and its result. */
export class TraceMemo<R> {
  private last: { ops: readonly TraceOp[]; result: R } | undefined;

  /** `compile(ops)`, or the last result when `ops` is the last trace shifted. */
  get(ops: readonly TraceOp[], compile: (ops: readonly TraceOp[]) => R): R {
    const l = this.last;
    if (enabled && l && shiftEquivalent(l.ops, ops)) {
      hits++;
      return l.result;
    }
    const result = compile(ops);
    this.last = { ops, result };
    return result;
  }
}
