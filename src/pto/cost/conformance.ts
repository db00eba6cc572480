/**
 * Case runner for pto-cost.jsonl.gz rows (format: shared/conformance/PTO-FORMAT.md, second half):
 * `cce_trace` rows against the `pto-isa` model (cycles, pendingVectorTail and the intrinsic list),
 * `formula` rows against the `formula` model for their arch. `unsupported` / `crash` rows must
 * raise Unsupported.
 */
import type { CaseOutcome } from '../../conformance/index.ts';
import { AxsimError, badInput } from '../../errors.ts';
import { ptoIsaCost } from './cce.ts';
import { formulaCost } from './formula.ts';
import { newPipeState } from './pipes.ts';
import type { CostArch, CostInput, CostTerm } from './types.ts';

const DTYPE: Record<string, string> = { float: 'f32', half: 'f16', int32_t: 'i32', int: 'i32' };

/** The cost input a row describes. */
/** Largest tile dimension (and element count) a cost row may give: far above any real tile. */
const MAX_DIM = 1 << 16;

export function costInputFromRow(r: Record<string, unknown>): CostInput {
  // Shapes are small integers; a user's row with 2^32 or 1.5 would run for minutes or throw deep
  // inside the trace builder, so each present number is checked here, naming the field.
  const num = (k: string) => {
    const v = r[k];
    if (typeof v !== 'number') return undefined;
    if (!Number.isInteger(v) || v < 0 || v > MAX_DIM)
      throw badInput(`${k} must be an integer 0..${MAX_DIM}, got ${v}`);
    return v;
  };
  const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : undefined);
  const inp: CostInput = {
    op: String(r.op),
    dtype: String(r.dtype),
    rows: num('rows') ?? num('M') ?? 0,
    cols: num('cols') ?? num('N') ?? 0,
    validRow: num('validRow') ?? num('rows') ?? 0,
    validCol: num('validCol') ?? num('cols') ?? 0,
    layout: str('layout'),
  };
  if (inp.rows * inp.cols > 1 << 24)
    throw badInput(`rows x cols ${inp.rows}x${inp.cols} is larger than any tile`);
  if (inp.validRow > inp.rows || inp.validCol > inp.cols) {
    throw badInput(
      `validRow x validCol ${inp.validRow}x${inp.validCol} exceeds rows x cols ${inp.rows}x${inp.cols}`,
    );
  }
  for (const k of ['M', 'K', 'N', 'validM', 'validK', 'validN', 'elements'] as const) {
    const v = num(k);
    if (v !== undefined) inp[k] = v;
  }
  for (const k of [
    'dstDtype',
    'roundMode',
    'satMode',
    'dstValid',
    'srcValid',
    'src1Valid',
    'gm',
    'form',
    'tileType',
    'shape',
  ] as const) {
    const v = str(k);
    if (v !== undefined) (inp as unknown as Record<string, string>)[k] = v;
  }
  // The generator's conventions that its rows do not repeat (visible in every trace): tile-scalar
  // ops use the scalar 3, compares use LT.
  if (/^T(ADD|SUB|MUL|DIV|MAX|MIN)S$|^TCMPS$/.test(inp.op)) inp.scalar = 3;
  if (inp.op === 'TCMP' || inp.op === 'TCMPS') inp.cmpMode = 'LT';
  const acc = str('accDtype');
  if (acc !== undefined) inp.accDtype = DTYPE[acc] ?? acc;
  return inp;
}

/** `name:cycles(args)` entries of a row's `cce` field. */
export function parseCceList(s: string): CostTerm[] {
  if (s === '') return [];
  return s.split(';').map((item) => {
    const m = /^([\w]+):(\d+)(?:\(([^)]*)\))?$/.exec(item);
    if (!m) return { name: item, cycles: Number.NaN };
    const t: CostTerm = { name: m[1]!, cycles: Number(m[2]) };
    if (m[3] !== undefined) t.args = m[3] === '' ? [] : m[3].split(',').map(Number);
    return t;
  });
}

/**
 * The trace drops arguments that look like host pointers (the tiles are not TASSIGNed, so buffer
 * addresses are host addresses). Values from 2^40 up are dropped; see docs/pto-as.md.
 */
export const TRACE_ARG_DROP_THRESHOLD = 2 ** 40;

export function formatTerm(t: CostTerm): string {
  const args = (t.args ?? []).filter((a) => a === null || a < TRACE_ARG_DROP_THRESHOLD);
  return `${t.name}:${t.cycles}${args.length ? `(${args.map((a) => (a === null ? '?' : String(a))).join(',')})` : ''}`;
}

function termsMatch(expected: CostTerm[], got: CostTerm[]): string | undefined {
  if (expected.length !== got.length) {
    return `intrinsic count: expected ${expected.length}, got ${got.length}\n  expected ${expected.map(formatTerm).join(';').slice(0, 400)}\n  got      ${got.map(formatTerm).join(';').slice(0, 400)}`;
  }
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i]!;
    const g = got[i]!;
    let gArgs = (g.args ?? []).filter((a) => a === null || a < TRACE_ARG_DROP_THRESHOLD);
    const eArgs = e.args ?? [];
    // an unknown argument (null) may also have been dropped by the trace (a wrapped negative value)
    if (gArgs.length === eArgs.length + 1 && gArgs.includes(null)) gArgs = gArgs.filter((a) => a !== null);
    const argsOk = gArgs.length === eArgs.length && gArgs.every((a, k) => a === null || a === eArgs[k]);
    if (e.name !== g.name || e.cycles !== g.cycles || !argsOk) {
      return `intrinsic ${i}: expected ${formatTerm(e)}, got ${formatTerm(g)}`;
    }
  }
  return undefined;
}

/**
 * The rows print doubles with 6 significant digits (C++ ostream default, ties to even on the
 * exact binary value); `got` matches when it rounds to the printed value.
 */
export function matchesPrinted6(printed: number, got: number): boolean {
  if (printed === got) return true;
  if (printed === 0 || !Number.isFinite(got)) return false;
  const unit = 10 ** (Math.floor(Math.log10(Math.abs(printed))) - 5);
  return Math.abs(got - printed) <= (unit / 2) * (1 + 1e-9);
}

export function costCaseRunner(r: Record<string, unknown>): CaseOutcome {
  const model = r.model;
  if (model !== 'cce_trace' && model !== 'formula')
    return { pass: false, skip: `not a cost row (model ${String(model)})` };
  const inp = costInputFromRow(r);
  const status = r.status;
  const run = () => {
    if (model === 'formula') return formulaCost(inp, String(r.arch) as CostArch);
    if (r.arch !== 'a2a3') throw new AxsimError('Unsupported', 'cce_trace rows exist for a2a3 only');
    return ptoIsaCost(inp, newPipeState());
  };
  if (status !== 'ok') {
    try {
      run();
    } catch (e) {
      if (e instanceof AxsimError && e.category === 'Unsupported') return { pass: true };
      throw e;
    }
    return { pass: false, diff: `status ${String(status)}: expected an Unsupported error, got a result` };
  }
  const res = run();
  const diffs: string[] = [];
  if (model === 'formula') {
    if (!matchesPrinted6(Number(r.cycles), res.cycles))
      diffs.push(`cycles: expected ${String(r.cycles)}, got ${res.cycles}`);
  } else {
    if (res.cycles !== r.cycles) diffs.push(`cycles: expected ${String(r.cycles)}, got ${res.cycles}`);
    if (typeof r.pendingVectorTail === 'number' && res.pendingVectorTail !== r.pendingVectorTail) {
      diffs.push(`pendingVectorTail: expected ${r.pendingVectorTail}, got ${res.pendingVectorTail}`);
    }
    if (typeof r.cce === 'string') {
      const d = termsMatch(parseCceList(r.cce), res.terms);
      if (d) diffs.push(d);
    }
  }
  return diffs.length ? { pass: false, diff: diffs.join('\n') } : { pass: true };
}
