/**
 * The SFPI compiler (issue 12, first slice; docs/sfpi.md): the tracer (trace.ts) records the vector
 * operations the C++ performs, the passes (passes.ts) compile the trace, and the words go into the
 * Tensix emitter's stream in program order. `compileSfpi` is the library entry.
 */
import type { SrcLoc } from '../../cfront/lex.ts';
import type { AssembleResult, TensixEmitter } from '../asm/kernel.ts';
import type { Arch } from '../encoding.ts';
import { Op, STRIDE } from '../ops.ts';
import { compileWord } from '../program.ts';
import { depsOf } from '../timing/deps.ts';
import { installRawBuiltins } from './builtins.ts';
import { compileTrace, ttiPieces } from './passes.ts';
import { installTracer, Trace, type TraceOp, type TracerApi, type Tti } from './trace.ts';
import { TraceMemo } from './trace-memo.ts';

export { SFPI_VECTOR_H } from './header.ts';
export { combine, compileTrace, copies, immediates, lower, nops, regalloc, resolve } from './passes.ts';
export { Trace, type TraceOp } from './trace.ts';
export { setSfpiTraceMemo, sfpiTraceMemoHits, shiftEquivalent } from './trace-memo.ts';

/** The SFPI part of one Tensix emitter: its trace and the flush into the word stream. */
export class SfpiCompiler {
  readonly trace = new Trace();
  /** The tracer's builtins, for the native bodies of the SFPI classes (native.ts). */
  readonly api: TracerApi;
  /** True while the compiled trace is being emitted (those words do not flush again). */
  emitting = false;
  /** The last trace piece compiled (the next face's is usually the same code again: trace-memo.ts). */
  private readonly memo = new TraceMemo<FlushInsn[]>();

  constructor(private readonly em: TensixEmitter) {
    this.api = installTracer(
      em.builtins,
      this.trace,
      (at) => (em.ev ? em.ev.userLoc(at) : at),
      (n) => this.incrwcWord(n),
    );
    installRawBuiltins(em.builtins, this.trace, em.arch, (at) => (em.ev ? em.ev.userLoc(at) : at));
  }

  private incrwcWord(n: number): number {
    const m = this.em.macroName('TTI_INCRWC')!;
    const at = { file: '<sfpi>', line: 0, col: 0 } as SrcLoc;
    return this.em.buildMacroWord(m, [
      { v: 0n, at },
      { v: BigInt(n), at },
      { v: 0n, at },
      { v: 0n, at },
    ]);
  }

  /** A word that must stay in order with the traced SFPI operations (the Dst counter step). */
  raw(word: number, at: SrcLoc): void {
    const u = this.em.ev ? this.em.ev.userLoc(at) : at;
    this.trace.push({ k: 'raw', word, at: { file: u.file, line: u.line, col: u.col } });
  }

  /**
   * A TTI_ word written while SFPI operations are traced: kept in the trace, in order, with the LRegs
   * it reads and writes, so SFPI values may live across it (returns false when the trace is empty or
   * the word's register effects are not known statically: then the trace is compiled before it).
   */
  defer(word: number, at: SrcLoc): boolean {
    if (this.emitting || this.trace.ops.length === 0) return false;
    const tti = ttiEffects(word, this.em.arch);
    if (!tti) return false;
    const u = this.em.ev ? this.em.ev.userLoc(at) : at;
    this.trace.push({ k: 'raw', word: word >>> 0, at: { file: u.file, line: u.line, col: u.col }, tti });
    return true;
  }

  /**
   * The passes over one flushed trace, in pieces at the TTI_ words with known effects that no value
   * lives across (each such word kept in order between them); a piece that is the previous one with
   * its ids moved (the next face) reuses its instructions (trace-memo.ts).
   */
  private compile(ops: readonly TraceOp[]): FlushInsn[] {
    const piece = (p: readonly TraceOp[]) => this.memo.get(p, (q) => compileTrace(q, this.em.arch));
    return ops.some((o) => o.k === 'raw' && o.tti)
      ? ttiPieces(ops).flatMap((p) =>
          p.length === 1 && p[0]!.k === 'raw' && p[0]!.tti
            ? [{ name: '.word', args: [p[0]!.word], at: p[0]!.at }]
            : piece(p),
        )
      : piece(ops);
  }

  /** Compiles what the trace holds and emits it; later uses of its values are reported. */
  flush(): void {
    if (this.emitting || this.trace.ops.length === 0) return;
    const insns = this.compile(this.trace.take());
    this.emitting = true;
    try {
      for (const i of insns) {
        if (i.name === '.word') {
          this.em.emit(i.args[0]!, i.at as SrcLoc, true, true);
          continue;
        }
        const m = this.em.macroName(`TTI_${i.name}`);
        if (!m) throw new Error(`sfpi: no instruction ${i.name} on ${this.em.arch}`);
        const at = i.at as SrcLoc;
        this.em.emit(
          this.em.buildMacroWord(
            m,
            i.args.map((v) => ({ v: BigInt(v), at })),
          ),
          at,
          true,
          true,
        );
      }
    } finally {
      this.emitting = false;
    }
  }
}

type FlushInsn = { name: string; args: number[]; at: unknown };

/**
 * The LRegs 0..7 a word reads and writes, from its decoded form (timing/deps.ts), or undefined when
 * they are not known statically: SFPLOADMACRO and template loads (macro-scheduled instructions), REPLAY.
 */
export function ttiEffects(word: number, arch: Arch): Tti | undefined {
  const rec = new Int32Array(STRIDE);
  try {
    compileWord(word >>> 0, arch, rec, 0);
  } catch {
    return undefined;
  }
  const op = rec[0]!;
  if (op === Op.TEMPLATE || op === Op.LOADMACRO || op === Op.REPLAY) return undefined;
  const d = depsOf(rec, 0);
  return { reads: d.reads & 0xff, writes: d.writes & 0xff, stallReads: d.stallReads & 0xff };
}

export type { AssembleResult };
