/**
 * The PTOAS test corpus as an agreement check (issue 13): for every `.pto` file of a
 * hw-native-sys/PTOAS checkout, ptoas's expected verdict (from the file's own lit RUN / CHECK
 * lines) against axsim's (`parsePtoAs` + `verifyDiagnostics` for the same target arch), and for
 * accepted programs a run on generated inputs. No PTOAS file is stored in this repository: the
 * runner reads a checkout given by a path (`AXSIM_PTOAS`).
 *
 * How ptoas's verdict is read (lit conventions of PTOAS/test): the first `// RUN:` line decides
 * the configuration (`--pto-arch`); `RUN: not ptoas …` expects a failure; a RUN line whose
 * FileCheck prefix (CHECK, or `--check-prefix=P`) checks an `error:` line expects a diagnostic.
 * Files without RUN lines (the samples) are expected to be accepted.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AxsimError } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import type { Func, Module } from '../asm/ast.ts';
import { execFunc, mixedEntry, type RtValue, type ViewValue } from '../asm/exec.ts';
import { parsePtoAs } from '../asm/parser.ts';
import { runProgram } from '../asm/run.ts';
import { type Profile, verifyDiagnostics } from '../asm/verify.ts';

export type Verdict = 'accept' | 'reject';

export interface Expectation {
  verdict: Verdict;
  arch: 'a3' | 'a5';
  level?: 'level1' | 'level2' | 'level3';
  /** What the expectation was read from. */
  why: string;
}

export interface CorpusRow {
  file: string;
  ptoas: Verdict;
  axsim: Verdict;
  /** Accepted programs: ran without error (true), failed (false); rejected ones: null. */
  ran: boolean | null;
  detail: string;
  /** The error category of axsim's rejection or of the failed run. */
  category?: string;
  arch: 'a3' | 'a5';
}

/** ptoas's expected verdict for a file's text (see the module comment). */
export function expectation(text: string): Expectation {
  const runs = [...text.matchAll(/^[ \t]*\/\/[ \t]*RUN:[ \t]*(.*)$/gm)].map((m) => m[1]!.trim());
  const first = runs[0];
  const archIn = (s: string) =>
    /--pto-arch[= ]\s*(a3|a5)\b/i.exec(s)?.[1]?.toLowerCase() as 'a3' | 'a5' | undefined;
  const textArch = /"?pto\.target_arch"?\s*=\s*"(a3|a5)"/i.exec(text)?.[1]?.toLowerCase() as
    | 'a3'
    | 'a5'
    | undefined;
  if (first === undefined) return { verdict: 'accept', arch: textArch ?? 'a3', why: 'no RUN line (sample)' };
  // ptoas: the command line's arch, else the module's, else a3 (tools/ptoas/ptoas.cpp)
  const arch = archIn(first) ?? textArch ?? 'a3';
  const level = /--pto-level[= ](level[123])\b/.exec(first)?.[1] as Expectation['level'];
  const r = (e: Omit<Expectation, 'level'>): Expectation => (level ? { ...e, level } : e);
  if (/^not\s+ptoas\b/.test(first)) return r({ verdict: 'reject', arch, why: 'RUN: not ptoas' });
  const prefix = /--check-prefix[= ](\w+)/.exec(first)?.[1] ?? 'CHECK';
  // CHECK, CHECK-NEXT, CHECK-SAME, … (not CHECK-NOT: an error that must not appear)
  const checks = [
    ...text.matchAll(new RegExp(`^[ \\t]*//[ \\t]*${prefix}(?:-(?!NOT)[A-Z]+)?:[ \\t]*(.*)$`, 'gm')),
  ].map((m) => m[1]!);
  if (checks.some((c) => /\berror:/.test(c)))
    return r({ verdict: 'reject', arch, why: `${prefix}: error: …` });
  return r({ verdict: 'accept', arch, why: 'RUN: ptoas' });
}

/** All `.pto` files of a checkout, relative paths, sorted (git's list when it is a repository). */
export function corpusFiles(root: string): string[] {
  try {
    const out = execFileSync('git', ['-C', root, 'ls-files', '*.pto'], { encoding: 'utf8' });
    const files = out.split('\n').filter((f) => f.endsWith('.pto'));
    if (files.length) return files.sort();
  } catch {
    // not a git checkout: walk the tree
  }
  const found: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      if (n === '.git' || n === 'node_modules') continue;
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.pto')) found.push(relative(root, p));
    }
  };
  walk(root);
  return found.sort();
}

const PROFILE_OF: Record<'a3' | 'a5', Profile> = { a3: 'a2a3', a5: 'a5' };

/** The function a run starts at: the `pto.entry` one, else the first that is not private. */
export function entryFunc(m: Module): Func | undefined {
  return (
    m.funcs.find((f) => f.attrs?.some((a) => a.name === 'pto.entry')) ??
    m.funcs.find((f) => f.visibility !== 'private') ??
    m.funcs[0]
  );
}

/** A deterministic generator (xorshift32) for the run inputs. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

/** Elements of a pointer argument no view of the walk reaches (still gets a few, never 0). */
const GM_MIN_ELEMS = 1024;
/**
 * Pointer arrays are capped at this many elements (the Qwen3 decode weights reach 2^27.6 bf16
 * elements: 8192 x 25600); a view past the cap is the run's BadInput.
 */
const GM_MAX_ELEMS = 1 << 28;
/** Random elements generated per argument; longer arrays repeat them (filling 2^28 is slow). */
const GM_RANDOM_ELEMS = 1 << 20;
/** Integer scalar values tried, in order, until the program's scalar glue walks without BadInput. */
const INT_CANDIDATES = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024] as const;

/** What a dry walk of a function learnt: the elements each pointer argument's views reach. */
export interface InputShape {
  /** Integer / index scalar value every integer argument gets. */
  intValue: number;
  /** Pointer argument -> elements its views span (origin offset + extent), at least 1. */
  extents: Record<string, number>;
  /** The walk's own error, when no candidate walked cleanly. */
  error?: string;
  /** Tile instructions the walk reached. */
  reached: number;
}

/** Elements a view reaches from its pointer's start: offset + Σ (size - 1) * stride + 1. */
function viewReach(v: ViewValue): number {
  if (v.shape.some((d) => d <= 0)) return 0;
  return v.offset + v.shape.reduce((a, d, i) => a + (d - 1) * (v.strides[i] ?? 0), 0) + 1;
}

/**
 * Walks `f` without executing tile instructions (the scalar glue, views and control flow only) to
 * learn what inputs fit it: integer scalars take the first of INT_CANDIDATES for which the walk
 * raises no BadInput (a view outside its tensor, a loop over a zero count that a later view
 * needs, …), and each pointer argument is sized to the furthest element any tile instruction's view
 * of it reaches. Programs whose walk needs something the dry walk cannot give (pipes, calls into
 * unsupported ops) keep what was learnt up to that point.
 */
export function inputShape(m: Module, f: Func): InputShape {
  let best: InputShape | undefined;
  for (const iv of INT_CANDIDATES) {
    const extents: Record<string, number> = {};
    const scalars: Record<string, number> = {};
    for (const a of f.args)
      if (a.type.kind === 'scalar') scalars[a.use.name] = isFloatName(a.type.name) ? 0.5 : iv;
    const note = (v: RtValue) => {
      if (v.kind !== 'view') return;
      extents[v.arg] = Math.max(extents[v.arg] ?? 0, viewReach(v));
    };
    let error: string | undefined;
    let clean = true;
    let reached = 0;
    try {
      execFunc(
        f,
        {
          tile(_call, ins, out, _ctx, extra) {
            reached++;
            for (const v of [...ins, out, ...extra]) note(v);
          },
          // pipes move no data in the dry walk and never wait
          pipe: {
            canPush: () => true,
            push() {},
            canPop: () => true,
            pop() {},
            free() {},
          },
        },
        { scalars, module: m, maxSteps: 200_000 },
      );
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      // BadInput: these scalars do not fit the program; anything else: the dry walk's own limit
      clean = !(e instanceof AxsimError && e.category === 'BadInput');
    }
    const shape: InputShape = { intValue: iv, extents, reached, ...(error === undefined ? {} : { error }) };
    if (clean) return shape;
    // none walks cleanly: the one that gets furthest (the first such)
    if (!best || reached > best.reached) best = shape;
  }
  return best!;
}

/** Repeats the first `k` elements of `d` through the whole array. */
function repeat(
  d: { length: number; copyWithin(t: number, s: number, e: number): unknown },
  k: number,
): void {
  for (let len = k; len < d.length; len *= 2) d.copyWithin(len, 0, Math.min(len, d.length - len));
}

function isFloatName(t: string): boolean {
  return /^(f|bf)/.test(t);
}

/**
 * Inputs for a run: integer / index scalars from `inputShape` (the first value the program's own
 * views accept, 0 when it accepts 0), float scalars 0.5, and each pointer / gm memref argument an
 * array of random values in [-1, 1) (integers in [-8, 8)) as long as the furthest element its views
 * reach (gm memrefs: their static shape). The values exercise the program; they are not a reference
 * computation (that is the Qwen3 check's job).
 */
export function corpusInputs(
  f: Func,
  seed = 1,
  shape: InputShape = { intValue: 0, extents: {}, reached: 0 },
): Record<string, NpyArray | number> | undefined {
  const r = rng(seed);
  const args: Record<string, NpyArray | number> = {};
  for (const a of f.args) {
    const t = a.type;
    if (t.kind === 'scalar') {
      args[a.use.name] = isFloatName(t.name) ? 0.5 : shape.intValue;
      continue;
    }
    const elem = t.kind === 'ptr' || t.kind === 'memref' || t.kind === 'vector' ? t.elem.name : undefined;
    if (elem === undefined) return undefined;
    const n =
      t.kind === 'ptr'
        ? Math.min(GM_MAX_ELEMS, Math.max(GM_MIN_ELEMS, shape.extents[a.use.name] ?? 0))
        : (t as { shape: number[] }).shape.reduce((x, y) => x * Math.max(y, 1), 1);
    const float = isFloatName(elem);
    const k = Math.min(n, GM_RANDOM_ELEMS);
    if (elem === 'f32') {
      const d = new Float32Array(n);
      for (let i = 0; i < k; i++) d[i] = r() * 2 - 1;
      repeat(d, k);
      args[a.use.name] = { dtype: 'f4', shape: [n], data: d };
    } else if (elem === 'f16' || elem === 'bf16') {
      // raw 16-bit patterns of values in [-1, 1): sign, exponent below the bias, random mantissa
      const d = new Uint16Array(n);
      const bias = elem === 'f16' ? 15 : 127;
      const mant = elem === 'f16' ? 10 : 7;
      for (let i = 0; i < k; i++) {
        const e = bias - 1 - Math.floor(r() * 4);
        d[i] = ((r() < 0.5 ? 1 : 0) << 15) | (e << mant) | Math.floor(r() * (1 << mant));
      }
      repeat(d, k);
      args[a.use.name] = { dtype: 'f2', shape: [n], data: d } as NpyArray;
    } else if (!float && /^(u?i|si)(8|16|32|64)$/.test(elem)) {
      const bits = Number(elem.replace(/\D/g, ''));
      const uns = elem.startsWith('ui');
      if (bits === 64) {
        const d = uns ? new BigUint64Array(n) : new BigInt64Array(n);
        for (let i = 0; i < k; i++) d[i] = BigInt(Math.floor(r() * 16) - (uns ? 0 : 8));
        repeat(d, k);
        args[a.use.name] = { dtype: uns ? 'u8' : 'i8', shape: [n], data: d } as NpyArray;
      } else {
        const C =
          bits === 8
            ? uns
              ? Uint8Array
              : Int8Array
            : bits === 16
              ? uns
                ? Uint16Array
                : Int16Array
              : uns
                ? Uint32Array
                : Int32Array;
        const d = new C(n);
        for (let i = 0; i < k; i++) d[i] = Math.floor(r() * 16) - (uns ? 0 : 8);
        repeat(d, k);
        const dt = `${uns ? 'u' : 'i'}${bits / 8}`;
        args[a.use.name] = { dtype: dt, shape: [n], data: d } as NpyArray;
      }
    } else return undefined;
  }
  return args;
}

/** Checks one file: expected verdict, axsim's verdict, and a run when accepted. */
export function checkCorpusFile(root: string, file: string, opts: { run?: boolean } = {}): CorpusRow {
  const text = readFileSync(join(root, file), 'utf8');
  const exp = expectation(text);
  const row: CorpusRow = { file, ptoas: exp.verdict, axsim: 'accept', ran: null, detail: '', arch: exp.arch };
  let m: Module;
  try {
    m = parsePtoAs(text, { file, arch: exp.arch });
    // ptoas's rules for the arch; axsim's own pto-isa support tables are not ptoas's verdict
    const d = verifyDiagnostics(m, { file, arch: exp.arch, level: exp.level });
    if (d.length) {
      row.axsim = 'reject';
      row.category = d[0]!.category;
      row.detail = `${d[0]!.line}:${d[0]!.col}: ${d[0]!.message}`;
      return row;
    }
  } catch (e) {
    row.axsim = 'reject';
    if (e instanceof AxsimError) {
      row.category = e.category;
      const loc = e.location as { line?: number; col?: number } | undefined;
      row.detail = `${loc?.line ?? '?'}:${loc?.col ?? '?'}: ${e.message}`;
    } else {
      row.category = 'Internal';
      row.detail = `crash: ${String(e)}`;
    }
    return row;
  }
  if (opts.run === false) return row;
  // kernels that talk through pipes without an entry run together (one cube, the vector sub-blocks)
  const mixed = mixedEntry(m);
  const f = mixed ?? entryFunc(m);
  const args = f ? corpusInputs(f, 1, inputShape(m, f)) : undefined;
  if (!f || !args) {
    row.detail = 'not run: an argument type the runner cannot bind';
    return row;
  }
  try {
    const res = runProgram(m, args, {
      ...(mixed ? { entry: mixed } : { func: f.name }),
      profile: PROFILE_OF[exp.arch],
      file,
      maxSteps: 200_000,
    });
    row.ran = true;
    row.detail = `ran @${f.name}: ${res.instructions} tile instruction(s)`;
  } catch (e) {
    row.ran = false;
    if (e instanceof AxsimError) {
      row.category = e.category;
      const loc = e.location as { line?: number; col?: number } | undefined;
      row.detail = `run @${f.name}: ${loc?.line ?? '?'}:${loc?.col ?? '?'}: ${e.category}: ${e.message}`;
    } else {
      row.category = 'Internal';
      row.detail = `run @${f.name}: crash: ${String(e)}`;
    }
  }
  return row;
}
