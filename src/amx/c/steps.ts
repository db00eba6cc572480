/**
 * Stepping through an AMX C kernel after it ran: `runAmxCSteps` runs the kernel once (runAmxC with
 * its issue hook) and records what a replay needs — the instructions, the bytes each load read from
 * the program's memory (C code may write that memory between AMX instructions, so re-reading it
 * later would be wrong) and the registers every CHECKPOINT instructions. `stateAt(k)` then rebuilds
 * X, Y, Z and the set/clr flag after k instructions by replaying at most CHECKPOINT instructions from
 * the nearest checkpoint on a fresh AmxState, with the recorded load bytes as its memory.
 * It also records the bound arrays before each instruction (the changes since the previous one, so C
 * code's own writes are kept too); `arraysAt(k)` gives them as they were when instruction k + 1 was
 * issued (after the run for k = the count).
 */
import { badInput } from '../../errors.ts';
import type { AmxOp } from '../asm.ts';
import { executeRaw } from '../exec.ts';
import { amxMemoryAccess } from '../footprint.ts';
import { type AmxGen, AmxState } from '../state.ts';
import { type AmxCOptions, type AmxCResult, runAmxC } from './run.ts';

const CHECKPOINT = 256;

export class AmxCStepper {
  constructor(
    readonly gen: AmxGen,
    /** The issued instructions in order, each with its C source line. */
    readonly ops: readonly AmxOp[],
    private readonly loads: ReadonlyMap<number, Uint8Array>,
    /** Register image (X, Y, Z: 5120 bytes) and the enabled flag before instruction c * CHECKPOINT. */
    private readonly checkpoints: readonly { regs: Uint8Array; enabled: boolean }[],
    /** Each array at the start and its changes before instruction i (absent: arrays not kept). */
    private readonly arrays?: {
      start: Record<string, Uint8Array>;
      changes: { i: number; name: string; off: number; bytes: Uint8Array }[];
      final: Record<string, Uint8Array>;
    },
  ) {}

  /** Whether `arraysAt` is available (the recording of array changes stayed under its limit). */
  get hasArrays(): boolean {
    return this.arrays !== undefined;
  }

  /**
   * The bound arrays after `k` instructions, as they were when instruction k + 1 was issued (C code
   * that ran after instruction k included); the arrays after the run for k = the count.
   */
  arraysAt(k: number): Record<string, Uint8Array> {
    if (!Number.isInteger(k) || k < 0 || k > this.ops.length)
      throw badInput(`step ${k} is not between 0 and ${this.ops.length}`);
    const a = this.arrays;
    if (!a) throw badInput('the array changes of this run were not recorded (too large)');
    const out: Record<string, Uint8Array> = {};
    if (k === this.ops.length) {
      for (const [n, b] of Object.entries(a.final)) out[n] = b.slice();
      return out;
    }
    for (const [n, b] of Object.entries(a.start)) out[n] = b.slice();
    for (const c of a.changes) {
      if (c.i > k) break;
      out[c.name]!.set(c.bytes, c.off);
    }
    return out;
  }

  /**
   * The registers after `k` instructions (0 = before the first). The state's memory holds only the
   * bytes the replayed loads read and the replayed stores wrote; the program's memory is not kept.
   */
  stateAt(k: number): AmxState {
    if (!Number.isInteger(k) || k < 0 || k > this.ops.length)
      throw badInput(`step ${k} is not between 0 and ${this.ops.length}`);
    const s = new AmxState({ gen: this.gen });
    const c = Math.min(Math.floor(k / CHECKPOINT), this.checkpoints.length - 1);
    if (c < 0) return s;
    const cp = this.checkpoints[c]!;
    s.x.set(cp.regs.subarray(0, 512));
    s.y.set(cp.regs.subarray(512, 1024));
    s.z.set(cp.regs.subarray(1024, 5120));
    s.enabled = cp.enabled;
    for (let i = c * CHECKPOINT; i < k; i++) {
      const o = this.ops[i]!;
      const m = amxMemoryAccess(this.gen, o.op, o.operand);
      if (m.read) s.mem.writeBytes(m.read.addr, this.loads.get(i)!);
      if (m.write) s.mem.map(m.write.addr, m.write.len);
      executeRaw(s, o.op, Number(o.operand & 0xffffffffn), Number(o.operand >> 32n));
    }
    return s;
  }
}

export interface AmxCStepsResult {
  result: AmxCResult;
  /** Absent when the recording would pass `maxRecordBytes` (`why` says so). */
  stepper?: AmxCStepper;
  why?: string;
}

/**
 * runAmxC (with `trace`) that also records for stepping. The recording stops, and `stepper` is
 * left out, once the checkpoints and load bytes would pass `maxRecordBytes` (default 64 MiB).
 */
export function runAmxCSteps(
  source: string,
  opts: AmxCOptions & { maxRecordBytes?: number; maxArrayWork?: number },
): AmxCStepsResult {
  const gen = opts.gen ?? 'm1';
  const max = opts.maxRecordBytes ?? 64 * 2 ** 20;
  const loads = new Map<number, Uint8Array>();
  const checkpoints: { regs: Uint8Array; enabled: boolean }[] = [];
  let bytes = 0;
  let n = 0;
  let full = false;
  const outer = opts.onIssue;
  const onIssue = (op: number, operand: bigint, s: AmxState): void => {
    outer?.(op, operand, s);
    const i = n++;
    if (full) return;
    if (i % CHECKPOINT === 0) {
      const regs = new Uint8Array(5120);
      regs.set(s.x, 0);
      regs.set(s.y, 512);
      regs.set(s.z, 1024);
      checkpoints.push({ regs, enabled: s.enabled });
      bytes += 5120;
    }
    const m = amxMemoryAccess(gen, op, operand);
    if (m.read) {
      try {
        loads.set(i, s.mem.readBytes(m.read.addr, m.read.len));
        bytes += m.read.len;
      } catch {
        // not memory of the program: the load itself reports the located error
      }
    }
    if (bytes > max) full = true;
  };
  // the arrays: their bytes at the start, then before each instruction what changed since the last
  // look (byte runs); stopped (arrays after the run only) past maxArrayWork bytes compared
  let view: ((name: string) => Uint8Array) | undefined;
  const last: Record<string, Uint8Array> = {};
  const start: Record<string, Uint8Array> = {};
  const changes: { i: number; name: string; off: number; bytes: Uint8Array }[] = [];
  let arrayWork = 0;
  let arraysKept = true;
  const maxWork = opts.maxArrayWork ?? 5e7;
  const onStart = (addresses: Record<string, number>): void => {
    opts.onStart?.(addresses);
    const lens = Object.fromEntries(Object.entries(opts.args ?? {}).map(([n, a]) => [n, a.bytes.length]));
    for (const n of Object.keys(addresses)) start[n] = last[n] = new Uint8Array(lens[n]!);
    view = (n) => mem!.readBytes(BigInt(addresses[n]!), lens[n]!);
  };
  let mem: AmxState['mem'] | undefined;
  const look = (i: number): void => {
    for (const n of Object.keys(last)) {
      const now = view!(n);
      const was = last[n]!;
      arrayWork += now.length;
      for (let b = 0; b < now.length; b++) {
        if (now[b] === was[b]) continue;
        let e = b + 1;
        while (e < now.length && now[e] !== was[e]) e++;
        changes.push({ i, name: n, off: b, bytes: now.slice(b, e) });
        bytes += e - b + 32;
        b = e;
      }
      last[n] = now;
    }
    if (arrayWork > maxWork) arraysKept = false;
  };
  const withArrays = (op: number, operand: bigint, s: AmxState): void => {
    if (arraysKept) {
      mem = s.mem;
      if (n === 0) {
        for (const k of Object.keys(start)) {
          start[k] = view!(k);
          last[k] = start[k]!;
        }
      } else look(n);
    }
    onIssue(op, operand, s);
  };
  const result = runAmxC(source, { ...opts, trace: true, onIssue: withArrays, onStart });
  if (full)
    return {
      result,
      why: `stepping needs more than ${max} bytes of recording for ${result.ops.length} instructions`,
    };
  const final = Object.fromEntries(Object.entries(result.arrays).map(([k, a]) => [k, a.bytes]));
  return {
    result,
    stepper: new AmxCStepper(
      gen,
      result.ops,
      loads,
      checkpoints,
      arraysKept ? { start, changes, final } : undefined,
    ),
  };
}
