/**
 * `PtoMachine`: PTO-AS programs against a global memory of named arrays, behind the verbs every
 * axsim machine has (docs/api.md): create, `load` (text -> verified module), `run`, `read`/`write`
 * of memory, `snapshot`/`restore`, `reset`. A kernel's pointer (global-memory) arguments are bound
 * by name to the arrays written under that name; scalar arguments are passed to `run`. It wraps the
 * PTO-AS parser, verifier and runner (./asm); nothing here computes on its own.
 */

import type { Budget } from '../budget.ts';
import { badInput } from '../errors.ts';
import type { NpyArray } from '../io/index.ts';
import { PROFILES, type Profile } from './arith.ts';
import type { Module } from './asm/ast.ts';
import { findFunc } from './asm/exec.ts';
import { type ParseOptions, parsePtoAs } from './asm/parser.ts';
import { type RunResult, runProgram, type TraceEvent } from './asm/run.ts';
import { verifyModule } from './asm/verify.ts';
import { tileToNpy } from './index.ts';

export interface PtoRunOptions {
  /** The function to run (default: the first). */
  func?: string;
  /** Values of the function's scalar arguments, by name. */
  scalars?: Record<string, number>;
  /** Guard against runaway loops (see RunOptions). */
  maxSteps?: number;
  /** Called after every tile instruction with copies of what it read and wrote (see RunOptions). */
  trace?: (e: TraceEvent) => void;
  /** Resource budget (src/budget.ts defaults when absent). */
  budget?: Budget;
}

function copyArray(a: NpyArray): NpyArray {
  return { dtype: a.dtype, shape: [...a.shape], data: a.data.slice() as NpyArray['data'] };
}

export class PtoMachine {
  readonly profile: Profile;
  /** Global memory: the arrays pointer arguments bind to, by argument name. */
  readonly memory = new Map<string, NpyArray>();

  constructor(profile: Profile | string = 'cpu') {
    if (!(PROFILES as readonly string[]).includes(profile)) {
      throw badInput(`unknown PTO profile '${profile}'`, { hint: `profiles: ${PROFILES.join(', ')}` });
    }
    this.profile = profile as Profile;
  }

  /** Empties global memory. */
  reset(): void {
    this.memory.clear();
  }

  /** Parses PTO-AS text (docs/pto-as.md) and verifies it against this machine's profile. */
  load(source: string, opts: ParseOptions = {}): Module {
    const m = parsePtoAs(source, opts);
    verifyModule(m, { file: opts.file, profile: this.profile });
    return m;
  }

  /**
   * Runs a function of a module (or of text, loaded first). Each pointer argument is the array in
   * memory under its name, updated in place (the result says which were stored to); a tile argument
   * starts from the array of its name, which then receives the tile's final contents.
   */
  run(program: Module | string, opts: PtoRunOptions = {}): RunResult {
    const m = typeof program === 'string' ? this.load(program) : program;
    const f = findFunc(m, opts.func);
    const args: Record<string, NpyArray | number> = {};
    for (const a of f.args) {
      const name = a.use.name;
      const v = opts.scalars?.[name] ?? this.memory.get(name);
      if (v !== undefined) args[name] = v;
    }
    for (const k of Object.keys(opts.scalars ?? {})) {
      if (!(k in args)) throw badInput(`@${f.name} has no argument %${k}`);
    }
    const r = runProgram(m, args, {
      func: opts.func,
      profile: this.profile,
      maxSteps: opts.maxSteps,
      trace: opts.trace,
      budget: opts.budget,
    });
    // tile arguments (Level-1 / assembly-form kernels) started from the array of their name
    for (const [name, tile] of Object.entries(r.tiles))
      if (this.memory.has(name)) this.memory.set(name, tileToNpy(tile));
    return r;
  }

  /** The array in memory under `name` (the machine's own; it changes when a program stores to it). */
  read(name: string): NpyArray {
    const a = this.memory.get(name);
    if (!a) {
      throw badInput(`no array '${name}' in memory`, {
        hint: this.memory.size ? `arrays: ${[...this.memory.keys()].join(', ')}` : 'write one first',
      });
    }
    return a;
  }

  /** Puts an array in memory under `name` (a copy, so the caller's array is never changed). */
  write(name: string, array: NpyArray): void {
    let n = 1;
    for (const d of array.shape) n *= d;
    if (n !== array.data.length) {
      throw badInput(
        `array '${name}': shape ${array.shape.join('x')} has ${n} elements, data has ${array.data.length}`,
      );
    }
    this.memory.set(name, copyArray(array));
  }

  snapshot(): ReadonlyMap<string, NpyArray> {
    return new Map([...this.memory].map(([k, a]) => [k, copyArray(a)]));
  }

  restore(snap: ReadonlyMap<string, NpyArray>): void {
    this.memory.clear();
    for (const [k, a] of snap) this.memory.set(k, copyArray(a));
  }
}
