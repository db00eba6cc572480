/**
 * Pipe-queue state of the pto-isa A2/A3 model (PTO-NOTES §4.2): a vector intrinsic pays its
 * `head` only when the vector queue is empty, its `tail` stays pending until something flushes
 * the pipe (an in-kernel pipe_barrier, a wait/barrier between instructions, or the end of the
 * program). Consecutive vector instructions therefore share one head.
 */
export interface PipeState {
  /** True while vector work is queued (the next vector intrinsic skips its head). */
  vecBusy: boolean;
  /** Tail latency of the last vector intrinsic, not yet charged. */
  pending: number;
  /** Charges and clears the pending tail; returns the cycles charged. */
  flush(): number;
}

export function newPipeState(): PipeState {
  return {
    vecBusy: false,
    pending: 0,
    flush() {
      const p = this.pending;
      this.pending = 0;
      this.vecBusy = false;
      return p;
    },
  };
}
