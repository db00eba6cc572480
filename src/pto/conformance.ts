/**
 * Runs `pto.jsonl.gz` reference vectors (format: shared/conformance/PTO-FORMAT.md) on the `cpu`
 * profile. Records of the cost-model file (`pto-cost.jsonl.gz`, with a `model` field) belong to the
 * cost runner that part 2 registers with `registerCostRunner`; without one they are skipped.
 */
import type { CaseOutcome, CaseRunner } from '../conformance/index.ts';
import { AxsimError, badInput } from '../errors.ts';
import type { Profile } from './arith.ts';
import { DTYPE_INFO, type DType, isDType } from './dtype.ts';
import { execute, type Operand } from './registry.ts';
import { GlobalTensor, type NamedLayout, namedLayout, type PadValue, Tile } from './tile.ts';

type Rec = Record<string, unknown>;

let costRunner: CaseRunner | undefined;

/** Part 2 (src/pto/cost) registers the runner for cost-model records here. */
export function registerCostRunner(fn: CaseRunner | undefined): void {
  costRunner = fn;
}

export function hexToBytes(hex: string, what: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex))
    throw badInput(`${what}: data is not an even-length hex string`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i]!.toString(16).padStart(2, '0');
  return s;
}

const LAYOUTS = new Set(['RM', 'CM', 'LEFT', 'RIGHT', 'ACC', 'BIAS']);

/** Builds a tile or global tensor from a vector's operand object. */
export function operandFromJson(name: string, o: Rec): Operand {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw badInput(`${name} must be an object`);
  const dtype = o.dtype;
  if (!isDType(dtype)) throw badInput(`${name}: unknown dtype ${JSON.stringify(dtype)}`);
  if (o.kind === 'global') {
    const shape = o.shape as number[];
    const stride = o.stride as number[];
    if (!Array.isArray(shape) || !Array.isArray(stride))
      throw badInput(`${name}: a global needs shape and stride arrays`);
    const layout = o.layout as 'ND' | 'DN';
    const bytes = typeof o.data === 'string' ? hexToBytes(o.data, name) : undefined;
    return new GlobalTensor(dtype, shape, stride, layout, bytes);
  }
  for (const k of ['rows', 'cols', 'validRow', 'validCol'] as const) {
    const v = o[k];
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 1 << 24))
      throw badInput(`${name}.${k} must be an integer 0..2^24, got ${JSON.stringify(v)}`);
  }
  const layout = o.layout as string;
  if (!LAYOUTS.has(layout)) throw badInput(`${name}: unknown layout ${JSON.stringify(layout)}`);
  const pad = typeof o.pad === 'string' ? (o.pad.toLowerCase() as PadValue) : 'null';
  const data = typeof o.data === 'string' ? hexToBytes(o.data, name) : undefined;
  return new Tile(
    {
      dtype,
      rows: o.rows as number,
      cols: o.cols as number,
      validRow: o.validRow as number,
      validCol: o.validCol as number,
      ...namedLayout(layout as NamedLayout),
      pad,
    },
    data,
  );
}

/** Vector `scalars` -> instruction attributes. */
export function attrsFromJson(s: Rec): Record<string, unknown> {
  const a: Record<string, unknown> = {};
  const sc = s.scalar as Rec | undefined;
  if (sc) {
    a.scalar = { bits: sc.bits as string };
    a.scalarDtype = sc.dtype;
  }
  if (typeof s.order === 'string') a.order = s.order;
  if (typeof s.cmpMode === 'string') a.cmpMode = s.cmpMode;
  if (typeof s.roundMode === 'string') a.roundMode = s.roundMode;
  if (typeof s.satMode === 'string') a.satMode = s.satMode.startsWith('ON') ? 'ON' : 'OFF';
  if (typeof s.dstDtype === 'string') a.dstDtype = s.dstDtype;
  if (typeof s.accDtype === 'string') a.accDtype = s.accDtype;
  return a;
}

function isNaNAt(d: DType, b: Uint8Array, i: number): boolean {
  switch (d) {
    case 'f32': {
      const hi = b[i + 3]! & 0x7f;
      const e = (hi << 1) | (b[i + 2]! >> 7);
      return e === 0xff && ((b[i + 2]! & 0x7f) | b[i + 1]! | b[i]!) !== 0;
    }
    case 'f16': {
      const h = b[i]! | (b[i + 1]! << 8);
      return (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
    }
    case 'bf16': {
      const h = b[i]! | (b[i + 1]! << 8);
      return (h & 0x7f80) === 0x7f80 && (h & 0x7f) !== 0;
    }
    default:
      return false;
  }
}

/** Compares a whole physical buffer; NaN matches any NaN (PTO-FORMAT.md "How a consumer should compare"). */
export function compareBuffers(what: string, d: DType, expected: Uint8Array, actual: Uint8Array): string[] {
  const n = DTYPE_INFO[d].bytes;
  const lines: string[] = [];
  if (expected.length !== actual.length)
    return [`${what}: expected ${expected.length} bytes, got ${actual.length}`];
  let count = 0;
  for (let i = 0; i < expected.length; i += n) {
    let same = true;
    for (let k = 0; k < n; k++) if (expected[i + k] !== actual[i + k]) same = false;
    if (same || (isNaNAt(d, expected, i) && isNaNAt(d, actual, i))) continue;
    count++;
    if (lines.length < 8) {
      const e = bytesToHex(expected.subarray(i, i + n));
      const a = bytesToHex(actual.subarray(i, i + n));
      lines.push(`${what}[${i / n}]: expected ${e}, got ${a} (little-endian bytes)`);
    }
  }
  if (count > 8) lines.push(`${what}: ${count - 8} more differing elements`);
  return lines;
}

function compareOut(out: Rec, ops: Record<string, Operand>): string[] {
  const lines: string[] = [];
  if (typeof out !== 'object' || out === null || Array.isArray(out)) throw badInput('out must be an object');
  for (const [name, o] of Object.entries(out)) {
    if (typeof o !== 'object' || o === null || Array.isArray(o))
      throw badInput(`out.${name} must be an object`);
    const exp = o as Rec;
    const act = ops[name];
    if (act === undefined) {
      lines.push(`${name}: no such operand`);
      continue;
    }
    if (typeof exp.data !== 'string') continue;
    lines.push(...compareBuffers(name, act.dtype, hexToBytes(exp.data, name), act.bytes));
  }
  return lines;
}

export interface PtoRunnerOptions {
  profile?: Profile;
  /** How reads past an operand buffer behave (see ExecOptions); the runner defaults to 'zero'. */
  outOfBoundsReads?: 'error' | 'zero';
}

/** The case runner for `axsim pto conformance` and the test suite. */
export function makePtoRunner(opts: PtoRunnerOptions = {}): CaseRunner {
  const profile = opts.profile ?? 'cpu';
  const xo = { profile, outOfBoundsReads: opts.outOfBoundsReads ?? 'zero' } as const;
  return (rec: Rec): CaseOutcome => {
    if (typeof rec.model === 'string') {
      return costRunner
        ? costRunner(rec)
        : { pass: false, skip: 'cost-model record (no cost runner registered)' };
    }
    const op = rec.op as string;
    const status = rec.status as string;
    const tilesJson = (rec.tiles ?? {}) as Rec;
    const build = (): Record<string, Operand> => {
      const ops: Record<string, Operand> = {};
      for (const [name, o] of Object.entries(tilesJson)) ops[name] = operandFromJson(name, o as Rec);
      return ops;
    };
    const attrs = attrsFromJson((rec.scalars ?? {}) as Rec);
    const dtype = String(rec.dtype);
    if (status === 'compile_error') {
      try {
        execute(op, build(), attrs, xo);
      } catch (e) {
        if (e instanceof AxsimError && (e.category === 'Unsupported' || e.category === 'BadInput')) {
          const m = e.message;
          const named = m.includes(op) && m.includes(dtype);
          return named
            ? { pass: true }
            : { pass: false, diff: `rejected, but the message does not name ${op} and ${dtype}: ${m}` };
        }
        if (e instanceof AxsimError)
          return { pass: false, diff: `expected a compile-time rejection, got ${e.format()}` };
        throw e;
      }
      return {
        pass: false,
        diff: `expected ${op}/${dtype} to be rejected (reference: ${String(rec.error)}), but it ran`,
      };
    }
    if (status === 'crash') {
      try {
        execute(op, build(), attrs, xo);
      } catch (e) {
        if (e instanceof AxsimError && e.category === 'UndefinedBehaviour') return { pass: true };
        if (e instanceof AxsimError)
          return { pass: false, diff: `expected UndefinedBehaviour, got ${e.format()}` };
        throw e;
      }
      return {
        pass: false,
        diff: `expected UndefinedBehaviour (reference crashed: ${String(rec.error)}), but it ran`,
      };
    }
    const ops = build();
    try {
      execute(op, ops, attrs, xo);
    } catch (e) {
      if (rec.ub === true && e instanceof AxsimError && e.category === 'UndefinedBehaviour')
        return { pass: true };
      throw e;
    }
    const out = (rec.out ?? {}) as Rec;
    const diff = compareOut(out, ops);
    if (diff.length === 0) return { pass: true };
    if (rec.alt_out && compareOut(rec.alt_out as Rec, ops).length === 0) return { pass: true };
    return { pass: false, diff: diff.join('\n') };
  };
}
