/**
 * Input generation for the fuzzers: grammar-aware mutation of seed inputs (token-level edits with a
 * dictionary drawn from the seeds, deep nesting, long lines, hostile characters and numbers) plus
 * plain random bytes. Everything is a pure function of the RNG, so `--seed S` and the input index
 * reproduce an input exactly.
 */

/** splitmix32-style generator: deterministic, fast, 32-bit state. */
export function makeRng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

/** The RNG for input `index` of a campaign with seed `seed` (independent of the other inputs). */
export function rngFor(seed: number, index: number): () => number {
  const r = makeRng((seed * 0x27d4eb2d) ^ Math.imul(index + 1, 0x165667b1));
  r();
  return r;
}

export type Rng = () => number;
export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
export const int = (r: Rng, n: number): number => Math.floor(r() * n);

/** Numbers at the edges of every integer and float format the front ends read. */
export const EDGE_NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '-0x1',
  '0x7fffffff',
  '0x80000000',
  '0xffffffff',
  '0x100000000',
  '4294967296',
  '-2147483649',
  '9007199254740993',
  '0xffffffffffffffff',
  '0x10000000000000000',
  '1e308',
  '1e309',
  '-1e-320',
  '4.9e-324',
  'nan',
  'inf',
  '-inf',
  'NaN',
  '1.',
  '.5',
  '1e',
  '0x',
  '0b102',
  '00',
  '1_000',
  '340282366920938463463374607431768211456',
  '-9223372036854775809',
  '65536',
  '255',
  '256',
  '1024',
  '99999999999',
  '1'.repeat(40),
];

/** Characters that break naive lexers. */
const HOSTILE = [
  '\0',
  '\r',
  '\r\n',
  '\n',
  '\t',
  '\ufeff',
  '\u2028',
  '\u00a0',
  '\u200b',
  '\ud800',
  '\uffff',
  '\\',
  '"',
  "'",
  '`',
  '/*',
  '*/',
  '//',
  '#',
  ';',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  '<',
  '>',
  '?',
  ':',
  ',',
  '.',
  '%',
  '@',
  '!',
  '=',
  '-',
  '+',
  '*',
  '&',
  '|',
  '^',
  '~',
  '\u00e9',
  '\u{1F600}',
];

/** Splits text into tokens (identifiers, numbers, white space runs, single other characters). */
export function tokenize(text: string): string[] {
  return text.match(/[A-Za-z_][\w.$]*|0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\s+|[\s\S]/g) ?? [];
}

const seedTokenCache = new Map<string, readonly string[]>();

/** tokenize(seed) as a fresh array, memoised (seeds are few and reused by every input). */
export function seedTokens(seed: string): string[] {
  let toks = seedTokenCache.get(seed);
  if (!toks) {
    toks = tokenize(seed);
    if (seedTokenCache.size < 4096) seedTokenCache.set(seed, toks);
  }
  return toks.slice();
}

/** A dictionary of tokens drawn from the seeds (identifiers, numbers, punctuation). */
export function dictionaryOf(seeds: readonly string[]): string[] {
  const set = new Set<string>();
  for (const s of seeds) for (const t of tokenize(s)) if (!/^\s+$/.test(t) && t.length < 64) set.add(t);
  return [...set];
}

/**
 * One grammar-aware mutation of a text seed: 1-8 token-level edits, sometimes a structural one
 * (deep nesting of a bracket pair found in the grammar, a long line, a duplicated block).
 */
export function mutateText(
  r: Rng,
  seed: string,
  dict: readonly string[],
  nesting: readonly [string, string][],
  /** `seed` is one of the front end's seeds: its tokens are memoised. */
  isSeed = false,
): string {
  const toks = isSeed ? seedTokens(seed) : tokenize(seed);
  mutateTokens(r, toks, dict, nesting);
  return toks.join('');
}

/**
 * mutateText on a token list, in place: several rounds of edits work on one list and join once
 * (re-tokenising a 150 KB text between rounds cost more than running most inputs).
 */
export function mutateTokens(
  r: Rng,
  toks: string[],
  dict: readonly string[],
  nesting: readonly [string, string][],
  /** At most this many edits (1 = a light mutation that keeps most of the grammar intact). */
  maxEdits = 8,
): void {
  const edits = 1 + int(r, maxEdits);
  for (let e = 0; e < edits; e++) {
    const at = int(r, toks.length + 1);
    switch (int(r, 14)) {
      case 0:
        toks.splice(at, 1 + int(r, 3));
        break;
      case 1:
        toks.splice(at, 0, pick(r, dict.length ? dict : EDGE_NUMBERS));
        break;
      case 2:
        if (toks.length) toks[Math.min(at, toks.length - 1)] = pick(r, dict.length ? dict : EDGE_NUMBERS);
        break;
      case 3:
        toks.splice(at, 0, pick(r, EDGE_NUMBERS));
        break;
      case 4:
        if (toks.length) toks[Math.min(at, toks.length - 1)] = pick(r, EDGE_NUMBERS);
        break;
      case 5:
        toks.splice(at, 0, pick(r, HOSTILE));
        break;
      case 6: {
        // duplicate a slice (lines, blocks)
        const a = int(r, toks.length + 1);
        const b = Math.min(toks.length, a + 1 + int(r, 40));
        toks.splice(at, 0, ...toks.slice(a, b));
        break;
      }
      case 7: {
        // deep nesting with a bracket pair of this grammar
        if (!nesting.length) break;
        const [open, close] = pick(r, nesting);
        const depth = pick(r, [10, 100, 300, 1000, 5000]);
        toks.splice(at, 0, open.repeat(depth), close.repeat(int(r, 2) ? depth : int(r, depth + 1)));
        break;
      }
      case 8: {
        // a long token or line
        const len = pick(r, [1000, 10_000, 100_000]);
        const unit = pick(r, ['a', '1', 'x', ' ', ',', '0x1,', dict.length ? pick(r, dict) : 'z']);
        toks.splice(at, 0, unit.repeat(Math.ceil(len / unit.length)));
        break;
      }
      case 9: {
        // line endings and encodings
        const nl = pick(r, ['\r\n', '\r', '\n\n', '\u2028']);
        for (let k = 0; k < toks.length; k++)
          if (toks[k]!.includes('\n')) toks[k] = toks[k]!.replace(/\n/g, nl);
        break;
      }
      case 10:
        toks.unshift('\ufeff');
        break;
      case 11:
        toks.length = Math.min(toks.length, at);
        break;
      case 12: {
        // swap two tokens
        if (toks.length < 2) break;
        const a = int(r, toks.length);
        const b = int(r, toks.length);
        [toks[a], toks[b]] = [toks[b]!, toks[a]!];
        break;
      }
      default: {
        // change one character of a token
        if (!toks.length) break;
        const k = int(r, toks.length);
        const t = toks[k]!;
        const c = int(r, t.length + 1);
        toks[k] =
          t.slice(0, c) + String.fromCharCode(int(r, 2) ? 32 + int(r, 95) : int(r, 0x3000)) + t.slice(c + 1);
      }
    }
  }
}

/** Byte-level mutation: flips, random runs, truncation, splices. */
export function mutateBytes(r: Rng, seed: Uint8Array): Uint8Array {
  let b = Uint8Array.from(seed);
  const edits = 1 + int(r, 6);
  for (let e = 0; e < edits; e++) {
    const at = int(r, b.length + 1);
    switch (int(r, 6)) {
      case 0:
        if (b.length) b[Math.min(at, b.length - 1)]! ^= 1 << int(r, 8);
        break;
      case 1:
        if (b.length) b[Math.min(at, b.length - 1)] = pick(r, [0, 0xff, 0x7f, 0x80, 0x20, 0x0a, int(r, 256)]);
        break;
      case 2:
        b = b.slice(0, at);
        break;
      case 3: {
        const run = new Uint8Array(1 + int(r, 64));
        for (let i = 0; i < run.length; i++) run[i] = int(r, 256);
        const nb = new Uint8Array(b.length + run.length);
        nb.set(b.subarray(0, at));
        nb.set(run, at);
        nb.set(b.subarray(at), at + run.length);
        b = nb;
        break;
      }
      case 4: {
        // overwrite 4 or 8 bytes with an edge integer
        const v = pick(r, [0, 0xffffffff, 0x7fffffff, 0x80000000, 1, 0x7fc00000, 0x7fa00000, 0xff800000]);
        for (let i = 0; i < 4 && at + i < b.length; i++) b[at + i] = (v >>> (8 * i)) & 0xff;
        break;
      }
      default: {
        const a = int(r, b.length + 1);
        const c = Math.min(b.length, a + int(r, 256));
        const nb = new Uint8Array(b.length + (c - a));
        nb.set(b.subarray(0, at));
        nb.set(b.subarray(a, c), at);
        nb.set(b.subarray(at), at + (c - a));
        b = nb;
      }
    }
  }
  return b;
}

/** Random bytes: sometimes printable, sometimes anything. */
export function randomBytes(r: Rng, max = 512): Uint8Array {
  const n = int(r, max);
  const b = new Uint8Array(n);
  const printable = r() < 0.5;
  for (let i = 0; i < n; i++) b[i] = printable ? 32 + int(r, 95) : int(r, 256);
  return b;
}

/**
 * JSON-structure mutation: replaces, removes or retypes one or more fields (deeply) of a parsed
 * record, with the hostile values a user's own vector file may contain.
 */
export function mutateJson(r: Rng, value: unknown): unknown {
  const v = structuredClone(value);
  const hostile = (): unknown =>
    pick(r, [
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 32,
      2 ** 53,
      -(2 ** 53),
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      '',
      'x',
      '0x',
      '-0x1',
      '0xffffffffffffffffffff',
      'zz',
      '1'.repeat(200),
      [],
      [null],
      {},
      { a: 1 },
      [[[]]],
      'nan',
      '1e999',
    ]);
  const paths: { obj: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (x: unknown, depth: number) => {
    if (depth > 6 || x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      if (x.length) {
        const k = int(r, x.length);
        paths.push({ obj: x, key: k });
        walk(x[k], depth + 1);
      }
      return;
    }
    for (const k of Object.keys(x)) {
      paths.push({ obj: x as Record<string, unknown>, key: k });
      walk((x as Record<string, unknown>)[k], depth + 1);
    }
  };
  walk(v, 0);
  const edits = 1 + int(r, 3);
  for (let e = 0; e < edits && paths.length; e++) {
    const { obj, key } = pick(r, paths);
    const cur = (obj as Record<string | number, unknown>)[key];
    switch (int(r, 5)) {
      case 0:
        if (Array.isArray(obj)) obj.splice(key as number, 1);
        else delete (obj as Record<string, unknown>)[key as string];
        break;
      case 1:
        if (typeof cur === 'number')
          (obj as Record<string | number, unknown>)[key] = pick(r, [
            cur + 1,
            -cur,
            cur * 2 ** 32,
            cur + 0.5,
            2 ** 32,
            2 ** 53,
          ]);
        else (obj as Record<string | number, unknown>)[key] = hostile();
        break;
      case 2:
        if (typeof cur === 'string' && cur.length)
          (obj as Record<string | number, unknown>)[key] =
            cur.slice(0, int(r, cur.length)) + pick(r, ['', 'g', 'ff', '0', '\u00e9']);
        else (obj as Record<string | number, unknown>)[key] = hostile();
        break;
      case 3:
        if (Array.isArray(cur))
          (obj as Record<string | number, unknown>)[key] = int(r, 2)
            ? cur.slice(0, int(r, cur.length + 1))
            : [...cur, ...cur];
        else (obj as Record<string | number, unknown>)[key] = hostile();
        break;
      default:
        (obj as Record<string | number, unknown>)[key] = hostile();
    }
  }
  return v;
}
