/**
 * The SFPI compiler (issue 12, first slice; docs/sfpi.md): the tracer (trace.ts) records the vector
 * operations the C++ performs, the passes (passes.ts) compile the trace, and the words go into the
 * Tensix emitter's stream in program order. `compileSfpi` is the library entry.
 */
import type { SrcLoc } from '../../cfront/lex.ts';
import type { AssembleResult, TensixEmitter } from '../asm/kernel.ts';
import { installRawBuiltins } from './builtins.ts';
import { compileTrace } from './passes.ts';
import { installTracer, Trace } from './trace.ts';

export { SFPI_VECTOR_H } from './header.ts';
export { combine, compileTrace, copies, immediates, lower, nops, regalloc, resolve } from './passes.ts';
export { Trace, type TraceOp } from './trace.ts';

/** The SFPI part of one Tensix emitter: its trace and the flush into the word stream. */
export class SfpiCompiler {
  readonly trace = new Trace();
  /** True while the compiled trace is being emitted (those words do not flush again). */
  emitting = false;

  constructor(private readonly em: TensixEmitter) {
    installTracer(
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

  /** Compiles what the trace holds and emits it; later uses of its values are reported. */
  flush(): void {
    if (this.emitting || this.trace.ops.length === 0) return;
    const ops = this.trace.take();
    const insns = compileTrace(ops, this.em.arch);
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

export type { AssembleResult };
