// The simulator worker: every run and step happens here, off the page's thread, so a long or
// runaway program never freezes the page (the page also terminates this worker after a time
// limit). The library's own resource budget (src/budget.ts) bounds each run.
import { AxsimError } from '../../src/errors.ts';
import { amxRun, amxStep } from './engine/amx.ts';
import { ptoRun } from './engine/pto.ts';
import { tensixRun, tensixStep } from './engine/tensix.ts';
import type { ErrorInfo, FromWorker, Isa, ToWorker } from './protocol.ts';

const ctx = self as unknown as {
  onmessage: ((ev: MessageEvent<ToWorker>) => void) | null;
  postMessage(m: FromWorker): void;
};

let lastIsa: Isa | undefined;

let lastFile: string | undefined;

/**
 * The error as the page shows it. A location in another file than the edited one (a header of the
 * LLK environment, say) is named in the message instead of underlining the edited file.
 */
export function errorInfo(e: unknown, file?: string): ErrorInfo {
  if (e instanceof AxsimError) {
    const loc = e.location;
    const elsewhere = loc?.file !== undefined && file !== undefined && loc.file !== file;
    return {
      category: e.category,
      message:
        elsewhere && loc?.line !== undefined
          ? `${loc.file}:${loc.line}${loc.col !== undefined ? `:${loc.col}` : ''}: ${e.message}`
          : e.message,
      ...(e.hint ? { hint: e.hint } : {}),
      ...(!elsewhere && loc?.line !== undefined ? { line: loc.line } : {}),
      ...(!elsewhere && loc?.col !== undefined ? { col: loc.col } : {}),
    };
  }
  // not an AxsimError: a bug in axsim or the playground, shown as such
  return { category: 'Internal', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

ctx.onmessage = (ev) => {
  const msg = ev.data;
  try {
    if (msg.kind === 'run') {
      lastIsa = msg.req.isa;
      lastFile = msg.req.file;
      const result =
        msg.req.isa === 'tensix'
          ? tensixRun(msg.req, msg.inputs)
          : msg.req.isa === 'amx'
            ? amxRun(msg.req, msg.inputs)
            : ptoRun(msg.req, msg.inputs);
      ctx.postMessage({ id: msg.id, ok: true, result });
    } else {
      const state = lastIsa === 'amx' ? amxStep(msg.step) : tensixStep(msg.step);
      ctx.postMessage({ id: msg.id, ok: true, state });
    }
  } catch (e) {
    ctx.postMessage({ id: msg.id, ok: false, error: errorInfo(e, lastFile) });
  }
};
