/**
 * One resource budget for every front end and engine. A hostile or merely unlucky input must end
 * with a categorised error naming the limit, the value reached and the source line — never a stack
 * overflow, an out-of-memory kill or a run of hours. Each limit has a documented default (below and
 * in docs/reliability.md) and a CLI flag to raise it (`--max-<limit>`, see `budgetOptions`).
 *
 * Front ends and engines take an optional `Budget`; when none is passed they use `defaultBudget()`
 * so library callers are protected too. Exceeding a limit throws `ResourceLimit`.
 */
import { AxsimError, type ErrorLocation, resourceLimit } from './errors.ts';

/** The bounded resources. Every field is a maximum; all are plain numbers (counts, bytes, ms). */
export interface BudgetLimits {
  /** Nesting depth of any recursive syntax: blocks, parentheses, `?:`, regions, includes, macros. */
  depth: number;
  /** Nodes in one expression (operators + operands), and tokens in one macro expansion. */
  exprSize: number;
  /** Loop iterations or unrolled copies, counted over the whole program (REPLAY expansion included). */
  loops: number;
  /** Instructions executed (or emitted) by one run. */
  steps: number;
  /** Element-operations: elements touched, summed over every executed instruction. */
  elementOps: number;
  /** Bytes of tiles, tensors and simulated memory alive at the same time. */
  liveBytes: number;
  /** Bits of any integer in constant evaluation (sign excluded). */
  intBits: number;
  /** Wall-clock milliseconds for one parse/assemble/run; 0 = unlimited. */
  wallMs: number;
}

/** The defaults: generous for every bundled example and reference vector, far below the point of harm. */
export const DEFAULT_LIMITS: Readonly<BudgetLimits> = Object.freeze({
  depth: 256,
  exprSize: 100_000,
  loops: 10_000_000,
  steps: 100_000_000,
  elementOps: 1_000_000_000,
  liveBytes: 1 << 30,
  intBits: 4096,
  wallMs: 600_000,
});

/** How each limit is named in messages, docs and CLI flags (`--max-<flag>`). */
export const LIMIT_INFO: Readonly<Record<keyof BudgetLimits, { flag: string; what: string }>> = Object.freeze(
  {
    depth: { flag: 'depth', what: 'nesting depth' },
    exprSize: { flag: 'expr-size', what: 'expression size' },
    loops: { flag: 'loops', what: 'loop iterations' },
    steps: { flag: 'steps', what: 'instruction steps' },
    elementOps: { flag: 'element-ops', what: 'element-operations' },
    liveBytes: { flag: 'live-bytes', what: 'live bytes' },
    intBits: { flag: 'int-bits', what: 'integer bits' },
    wallMs: { flag: 'wall-ms', what: 'wall-clock milliseconds' },
  },
);

export type LimitName = keyof BudgetLimits;

/** The error every limit throws: `ResourceLimit: <what> limit exceeded: <value> > <max>` plus a hint. */
export function limitError(
  name: LimitName,
  value: number | bigint,
  max: number,
  location?: ErrorLocation,
): AxsimError {
  const info = LIMIT_INFO[name];
  return resourceLimit(`${info.what} limit exceeded: ${value} > ${max} (${name})`, {
    location,
    hint: `raise it with --max-${info.flag} <n> if the input is meant to be this large`,
  });
}

/**
 * A budget: the limits plus the counters charged against them. One Budget per run (counters
 * accumulate); `child()` gives fresh counters under the same limits.
 */
export class Budget {
  readonly limits: Readonly<BudgetLimits>;
  /** Counters. Public for reports; charge through the methods so limits are checked. */
  steps = 0;
  loops = 0;
  elementOps = 0;
  liveBytes = 0;
  peakLiveBytes = 0;
  private readonly start: number;
  private clockTick = 0;

  constructor(limits: Partial<BudgetLimits> = {}) {
    const l: BudgetLimits = { ...DEFAULT_LIMITS };
    for (const [k, v] of Object.entries(limits) as [LimitName, number | undefined][]) {
      if (v === undefined) continue;
      if (!(Number.isFinite(v) || v === Number.POSITIVE_INFINITY) || v < 0) {
        throw new AxsimError('BadInput', `limit ${k} must be a non-negative number, got ${v}`);
      }
      l[k] = v;
    }
    this.limits = Object.freeze(l);
    this.start = Date.now();
  }

  /** The same limits with fresh counters and clock. */
  child(): Budget {
    return new Budget(this.limits);
  }

  /** Throws when `depth` (1 = outermost) exceeds the nesting limit. Call on entry to a nested construct. */
  depth(depth: number, location?: ErrorLocation): void {
    if (depth > this.limits.depth) throw limitError('depth', depth, this.limits.depth, location);
  }

  /** Throws when one expression (or expansion) reaches more than the size limit. */
  exprSize(size: number, location?: ErrorLocation): void {
    if (size > this.limits.exprSize) throw limitError('exprSize', size, this.limits.exprSize, location);
  }

  /** Charges `n` loop iterations / unrolled copies. */
  loop(n: number, location?: ErrorLocation): void {
    this.loops += n;
    if (this.loops > this.limits.loops) throw limitError('loops', this.loops, this.limits.loops, location);
  }

  /** Charges `n` executed instructions; also samples the wall clock every 4096 calls. */
  step(n = 1, location?: ErrorLocation): void {
    this.steps += n;
    if (this.steps > this.limits.steps) throw limitError('steps', this.steps, this.limits.steps, location);
    if ((++this.clockTick & 4095) === 0) this.clock(location);
  }

  /**
   * Charges `n` element-operations. Call before doing the work, so a huge instruction is refused
   * before it starts; `n` may be the product of a loop count and a tile size (refused up front).
   */
  elements(n: number, location?: ErrorLocation): void {
    this.elementOps += n;
    if (this.elementOps > this.limits.elementOps) {
      throw limitError('elementOps', this.elementOps, this.limits.elementOps, location);
    }
    if ((++this.clockTick & 255) === 0) this.clock(location);
  }

  /** Checks without charging that `n` more element-operations would fit (for refusing loops up front). */
  wouldFitElements(n: number): boolean {
    return this.elementOps + n <= this.limits.elementOps;
  }

  /** Charges an allocation of `n` bytes that stays alive until `free(n)`. */
  alloc(n: number, location?: ErrorLocation): void {
    const after = this.liveBytes + n;
    if (after > this.limits.liveBytes) throw limitError('liveBytes', after, this.limits.liveBytes, location);
    this.liveBytes = after;
    if (after > this.peakLiveBytes) this.peakLiveBytes = after;
  }

  free(n: number): void {
    this.liveBytes = Math.max(0, this.liveBytes - n);
  }

  /** Throws when a constant-evaluation integer has more bits than allowed. Returns `v`. */
  int(v: bigint, location?: ErrorLocation): bigint {
    const mag = v < 0n ? -v : v;
    // A quick bound first: most constants are small, and toString(2) on a huge value is itself costly.
    if (mag >> BigInt(this.limits.intBits) !== 0n) {
      throw limitError('intBits', bitLength(mag), this.limits.intBits, location);
    }
    return v;
  }

  /** Throws when the run has taken longer than the wall-clock limit. */
  clock(location?: ErrorLocation): void {
    const ms = this.limits.wallMs;
    if (ms <= 0 || ms === Number.POSITIVE_INFINITY) return;
    const spent = Date.now() - this.start;
    if (spent > ms) throw limitError('wallMs', spent, ms, location);
  }
}

/** Number of bits of a non-negative BigInt (0 for 0). */
export function bitLength(v: bigint): number {
  if (v < 0n) v = -v;
  if (v === 0n) return 0;
  // hex digits give the length in O(n) without building a binary string.
  const hex = v.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(Number.parseInt(hex[0]!, 16)));
}

/** A fresh budget with the default limits (for library callers that pass none). */
export function defaultBudget(): Budget {
  return new Budget();
}

/**
 * CLI glue: the `--max-*` options a command accepts. `names` are the limits that apply to what the
 * command runs (docs/reliability.md lists them per command); `defaults` are the command's own
 * defaults where they differ from DEFAULT_LIMITS (shown in its help). Kept free of a commander
 * import so the library does not depend on the CLI; `src/cli/common.ts` applies them.
 */
export function budgetOptionsFor(
  names: readonly LimitName[] = Object.keys(DEFAULT_LIMITS) as LimitName[],
  defaults: Partial<BudgetLimits> = {},
): { name: LimitName; flags: string; description: string }[] {
  return names.map((name) => ({
    name,
    flags: `--max-${LIMIT_INFO[name].flag} <n>`,
    description: `limit on ${LIMIT_INFO[name].what} (default ${defaults[name] ?? DEFAULT_LIMITS[name]})`,
  }));
}

/** Every limit's option (the `pto run` set). */
export const budgetOptions: readonly { name: LimitName; flags: string; description: string }[] =
  budgetOptionsFor();

/** The commander option key of a limit: `--max-element-ops` -> `maxElementOps`. */
function optionKey(name: LimitName): string {
  return `max${LIMIT_INFO[name].flag
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}`;
}

/**
 * Builds a Budget from parsed `--max-*` option values (strings as commander gives them); limits not
 * given take `defaults`, then DEFAULT_LIMITS.
 */
export function budgetFromOptions(
  opts: Record<string, unknown>,
  defaults: Partial<BudgetLimits> = {},
): Budget {
  const limits: Partial<BudgetLimits> = { ...defaults };
  for (const name of Object.keys(DEFAULT_LIMITS) as LimitName[]) {
    const raw = opts[optionKey(name)];
    if (raw === undefined) continue;
    const s = String(raw).trim().replace(/_/g, '');
    const v =
      s === 'inf' || s === 'Infinity'
        ? Number.POSITIVE_INFINITY
        : /^[0-9]+(e[0-9]+)?$/i.test(s)
          ? Number(s)
          : Number.NaN;
    if (Number.isNaN(v)) {
      throw new AxsimError(
        'BadInput',
        `--max-${LIMIT_INFO[name].flag} must be a non-negative integer or 'inf', got '${raw}'`,
      );
    }
    limits[name] = v;
  }
  return new Budget(limits);
}
