// The page's side of the worker: one request at a time, each with a time limit after which the
// worker is terminated and a fresh one started (the page never waits on a runaway program).
import type { ErrorInfo, FromWorker, RunRequest, RunResult, StepState, ToWorker } from './protocol.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export const TIME_LIMIT_MS = 10_000;

type Reply = { ok: true; result?: RunResult; state?: StepState } | { ok: false; error: ErrorInfo };

export class Runner {
  private worker: Worker;
  private next = 1;
  private pending = new Map<number, { resolve: (r: Reply) => void; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly limitMs = TIME_LIMIT_MS) {
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (ev: MessageEvent<FromWorker>) => {
      const p = this.pending.get(ev.data.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(ev.data.id);
      const d = ev.data;
      p.resolve(d.ok ? ('result' in d ? { ok: true, result: d.result } : { ok: true, state: d.state }) : d);
    };
    return w;
  }

  private send(msg: DistributiveOmit<ToWorker, 'id'>, limitMs: number): Promise<Reply> {
    const id = this.next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // a runaway: stop it and start a fresh worker for what comes next
        this.pending.delete(id);
        this.worker.terminate();
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.resolve({
            ok: false,
            error: { category: 'ResourceLimit', message: 'cancelled: the worker was restarted' },
          });
        }
        this.pending.clear();
        this.worker = this.spawn();
        resolve({
          ok: false,
          error: {
            category: 'ResourceLimit',
            message: `the run took longer than ${limitMs / 1000} s and was stopped`,
            hint: 'the page stays responsive: edit the program (a smaller .rept count, fewer loop iterations) and run again',
          },
        });
      }, limitMs);
      this.pending.set(id, { resolve, timer });
      this.worker.postMessage({ ...msg, id } as ToWorker);
    });
  }

  run(req: RunRequest, inputs: Record<string, Uint8Array>, limitMs = this.limitMs): Promise<Reply> {
    return this.send({ kind: 'run', req, inputs }, limitMs);
  }

  step(step: number, limitMs = this.limitMs): Promise<Reply> {
    return this.send({ kind: 'step', step }, limitMs);
  }
}
