/**
 * JSON tensors: a (possibly nested, rectangular) array of numbers, or an object
 * {"shape": [...], "data": [...flat...]}. JSON has no NaN/Infinity, so the strings "NaN",
 * "Infinity", "+Infinity", "-Infinity" (also "inf", "-inf", "nan") stand for them, and "-0" for
 * negative zero is accepted. Writing uses the same spellings ("NaN", "Infinity", "-Infinity").
 */
import { readFileSync } from 'node:fs';
import { badInput } from '../errors.ts';

export interface JsonTensor {
  shape: number[];
  /** Row-major (C order) values. */
  values: Float64Array;
}

const SPECIAL: Record<string, number> = {
  nan: Number.NaN,
  infinity: Number.POSITIVE_INFINITY,
  '+infinity': Number.POSITIVE_INFINITY,
  '-infinity': Number.NEGATIVE_INFINITY,
  inf: Number.POSITIVE_INFINITY,
  '+inf': Number.POSITIVE_INFINITY,
  '-inf': Number.NEGATIVE_INFINITY,
  '-0': -0,
};

function scalar(v: unknown, where: string, name: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const s = SPECIAL[v.toLowerCase()];
    if (s !== undefined) return s;
  }
  throw badInput(`${name}: element ${where} is ${JSON.stringify(v)}, not a number`, {
    hint: 'use numbers, or the strings "NaN", "Infinity", "-Infinity"',
  });
}

/** Parses JSON text holding a tensor. `name` is used in error messages. */
export function parseJsonTensor(text: string, name = '<json>'): JsonTensor {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw badInput(`${name}: not valid JSON (${(e as Error).message})`);
  }
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const o = doc as Record<string, unknown>;
    const shape = o.shape;
    const data = o.data;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      throw badInput(`${name}: "shape" must be an array of non-negative integers`);
    }
    if (!Array.isArray(data)) throw badInput(`${name}: "data" must be a flat array of numbers`);
    const n = shape.reduce((a: number, d: number) => a * d, 1);
    if (data.length !== n) {
      throw badInput(`${name}: shape [${shape.join(', ')}] needs ${n} values, "data" has ${data.length}`);
    }
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = scalar(data[i], `[${i}]`, name);
    return { shape: shape as number[], values };
  }
  if (!Array.isArray(doc)) {
    return { shape: [], values: Float64Array.of(scalar(doc, '(scalar)', name)) };
  }
  // Nested arrays: the shape is read along the first elements, then every sub-array must match.
  const shape: number[] = [];
  let probe: unknown = doc;
  while (Array.isArray(probe)) {
    shape.push(probe.length);
    if (shape.length > 64) throw badInput(`${name}: more than 64 nested levels`);
    probe = probe[0];
  }
  const n = shape.reduce((a, d) => a * d, 1);
  const values = new Float64Array(n);
  let k = 0;
  const walk = (v: unknown, depth: number, where: string) => {
    if (depth === shape.length) {
      values[k++] = scalar(v, where, name);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[depth]) {
      throw badInput(`${name}: ragged array at ${where || 'top level'}: expected ${shape[depth]} elements`, {
        hint: 'every row must have the same length',
      });
    }
    for (let i = 0; i < v.length; i++) walk(v[i], depth + 1, `${where}[${i}]`);
  };
  walk(doc, 0, '');
  return { shape, values };
}

/** Reads a JSON tensor file; file-system errors become BadInput. */
export function readJsonTensor(path: string): JsonTensor {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw badInput(`cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
  return parseJsonTensor(text, path);
}

function jsonScalar(v: number | bigint): number | string {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return 'Infinity';
  if (v === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (Object.is(v, -0)) return '-0';
  return v;
}

/**
 * Nested-array JSON text of a tensor (C order). NaN/Inf/-0 become strings; 64-bit integers beyond
 * 2^53 become decimal strings.
 */
export function formatJsonTensor(shape: readonly number[], values: ArrayLike<number | bigint>): string {
  const n = shape.reduce((a, d) => a * d, 1);
  if (values.length !== n) {
    throw badInput(`shape [${shape.join(', ')}] needs ${n} values, got ${values.length}`);
  }
  if (shape.length === 0) return JSON.stringify(jsonScalar(values[0]!));
  let k = 0;
  const build = (depth: number): unknown[] => {
    const out: unknown[] = [];
    for (let i = 0; i < shape[depth]!; i++)
      out.push(depth + 1 === shape.length ? jsonScalar(values[k++]!) : build(depth + 1));
    return out;
  };
  return JSON.stringify(build(0));
}
