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

/** Elements given to every pointer argument (views past them are the program's BadInput). */
const GM_ELEMS = 1 << 22;

/**
 * Inputs for a run: each pointer / gm memref argument an array of random values in [-1, 1)
 * (integers in [-8, 8)), scalars 0 (index/integers: offsets 0, loops over arguments skipped) or
 * 0.5 (floats). The values exercise the
 * program; they are not a reference computation (that is the Qwen3 check's job).
 */
export function corpusInputs(f: Func, seed = 1): Record<string, NpyArray | number> | undefined {
  const r = rng(seed);
  const args: Record<string, NpyArray | number> = {};
  for (const a of f.args) {
    const t = a.type;
    if (t.kind === 'scalar') {
      args[a.use.name] = /^(f|bf)/.test(t.name) ? 0.5 : 0;
      continue;
    }
    const elem = t.kind === 'ptr' || t.kind === 'memref' || t.kind === 'vector' ? t.elem.name : undefined;
    if (elem === undefined) return undefined;
    const n =
      t.kind === 'ptr' ? GM_ELEMS : (t as { shape: number[] }).shape.reduce((x, y) => x * Math.max(y, 1), 1);
    const float = /^(f|bf)/.test(elem);
    if (elem === 'f32') {
      const d = new Float32Array(n);
      for (let i = 0; i < n; i++) d[i] = r() * 2 - 1;
      args[a.use.name] = { dtype: 'f4', shape: [n], data: d };
    } else if (elem === 'f16' || elem === 'bf16') {
      // raw 16-bit patterns of values in [-1, 1): sign, exponent below the bias, random mantissa
      const d = new Uint16Array(n);
      const bias = elem === 'f16' ? 15 : 127;
      const mant = elem === 'f16' ? 10 : 7;
      for (let i = 0; i < n; i++) {
        const e = bias - 1 - Math.floor(r() * 4);
        d[i] = ((r() < 0.5 ? 1 : 0) << 15) | (e << mant) | Math.floor(r() * (1 << mant));
      }
      args[a.use.name] = { dtype: 'f2', shape: [n], data: d } as NpyArray;
    } else if (!float && /^(u?i|si)(8|16|32|64)$/.test(elem)) {
      const bits = Number(elem.replace(/\D/g, ''));
      const uns = elem.startsWith('ui');
      if (bits === 64) {
        const d = uns ? new BigUint64Array(n) : new BigInt64Array(n);
        for (let i = 0; i < n; i++) d[i] = BigInt(Math.floor(r() * 16) - (uns ? 0 : 8));
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
        for (let i = 0; i < n; i++) d[i] = Math.floor(r() * 16) - (uns ? 0 : 8);
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
  const f = entryFunc(m);
  const args = f ? corpusInputs(f) : undefined;
  if (!f || !args) {
    row.detail = 'not run: an argument type the runner cannot bind';
    return row;
  }
  try {
    const res = runProgram(m, args, { func: f.name, profile: PROFILE_OF[exp.arch], file, maxSteps: 200_000 });
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
