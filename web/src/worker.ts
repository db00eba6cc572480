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

export function errorInfo(e: unknown): ErrorInfo {
  if (e instanceof AxsimError) {
    return {
      category: e.category,
      message: e.message,
      ...(e.hint ? { hint: e.hint } : {}),
      ...(e.location?.line !== undefined ? { line: e.location.line } : {}),
      ...(e.location?.col !== undefined ? { col: e.location.col } : {}),
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
      const result =
        msg.req.isa === 'tensix'
          ? tensixRun(msg.req, msg.inputs)
          : msg.req.isa === 'amx'
            ? amxRun(msg.req)
            : ptoRun(msg.req, msg.inputs);
      ctx.postMessage({ id: msg.id, ok: true, result });
    } else {
      const state = lastIsa === 'amx' ? amxStep(msg.step) : tensixStep(msg.step);
      ctx.postMessage({ id: msg.id, ok: true, state });
    }
  } catch (e) {
    ctx.postMessage({ id: msg.id, ok: false, error: errorInfo(e) });
  }
};
