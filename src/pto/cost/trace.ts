/**
 * The per-instruction trace of the pto-isa A2/A3 cost model (include/pto/costmodel/trace.hpp and
 * the cce_costmodel stubs): every intrinsic is recorded with its cycles and integer arguments;
 * vector intrinsics cost `slope·repeat`, plus `head` when the vector queue is empty, and leave their
 * `tail` pending until a barrier on the vector pipe flushes it (which also empties the queue).
 * Scalar/control intrinsics cost 1. Memory copies are priced by bandwidth on their own pipes.
 */
import { unsupported } from '../../errors.ts';
import type { CostConstant, CostTerm } from './types.ts';

/** Upper bound on the intrinsics one instruction may issue before the model gives up. */
const MAX_TRACE = 1_000_000;

const STUBS = 'pto-isa @3186c381 include/pto/costmodel/a2a3/cce_costmodel/cce_costmodel_vector_*.hpp';

/** Head / slope per repeat / tail of each vector intrinsic (PTO-NOTES §4.2 table). */
export const VEC_COST: Record<string, readonly [head: number, slope: number, tail: number]> = {
  vadd: [10, 2, 14],
  vsub: [10, 2, 14],
  vmax: [10, 2, 14],
  vmin: [10, 2, 14],
  vmul: [10, 2, 15],
  vdiv: [11, 4, 19],
  vand: [8, 2, 12],
  vor: [8, 2, 12],
  vnot: [8, 2, 12],
  vadds: [13, 1, 18],
  vmuls: [11, 1, 15],
  vmaxs: [10, 1, 13],
  vmins: [14, 1, 16],
  vabs: [13, 1, 16],
  vrelu: [10, 1, 13],
  vlrelu: [11, 1, 15],
  vexp: [13, 2, 18],
  vln: [13, 2, 20],
  vsqrt: [14, 2, 25],
  vrsqrt: [10, 1, 14],
  vsel: [13, 2, 14],
  vcopy: [11, 1, 13],
  vector_dup: [11, 1, 13],
  vcadd: [14, 7, 32],
  vcgadd: [14, 1, 24],
  vcgmax: [14, 1, 17],
  vcgmin: [14, 1, 17],
  vreducev2: [14, 14, 20],
  vbrcb: [0, 0, 18],
  vcmpv_ge: [14, 2, 22],
  vcmpv_ne: [14, 2, 22],
  vconv: [14, 2, 18],
  vgather: [24, 2, 0],
};
/** Intrinsics with the stub's default constants (EstimateLinearCycles defaults 6 / 2 / 0). */
export const VEC_DEFAULT: readonly [number, number, number] = [6, 2, 0];

export const TRACE_CONSTANTS = {
  controlCycles: { value: 1, name: 'EstimateConstCycles()', source: 'cce_costmodel_sync.hpp' },
  frequencyHz: { value: 1.85e9, name: 'kMainFrequencyHz', source: 'arch_config.hpp' },
  blockBytes: { value: 32, name: 'kBlockBytes', source: 'arch_config.hpp' },
  vecStubs: { value: 0, source: STUBS },
} as const satisfies Record<string, CostConstant>;

/** Bandwidths (GB/s with 1 GB = 2^30 B) of the A2/A3 arch table, per memory pipe. */
export const PIPE_BW: Record<string, number> = {
  GM_TO_UB: 100.9,
  GM_TO_L1: 135.0,
  UB_TO_GM: 188.46,
  L1_TO_GM: 32.0,
  UB_TO_UB: 1024.0,
  L0C_TO_GM: 70.0,
  L0C_TO_L1: 128.0,
  L1_TO_L0A: 441.0,
  L1_TO_L0B: 220.5,
  L1_TO_BT: 32.0,
  L1_TO_FB: 32.0,
  L1_FILL: 32.0,
};

/**
 * `floor(bytes / 2^30 / bw · 1.85e9)` computed exactly: the reference evaluates it in 80-bit long
 * double; an exact rational evaluation only differs from that on exact-integer boundaries, where
 * the exact value is the right one.
 */
export function bandwidthCycles(bytes: number, pipe: string): number {
  const bw = PIPE_BW[pipe]!;
  if (bytes <= 0) return 0;
  // bw as an exact binary fraction m / 2^k
  let m = bw;
  let k = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    k++;
  }
  const num = BigInt(bytes) * 1_850_000_000n * (1n << BigInt(k));
  const den = BigInt(m) * (1n << 30n);
  return Number(num / den);
}

/** Pipe enum values as the trace prints them (pipe_barrier(PIPE_V) → 1). */
export const PIPE_ID = {
  PIPE_S: 0,
  PIPE_V: 1,
  PIPE_M: 2,
  PIPE_MTE1: 3,
  PIPE_MTE2: 4,
  PIPE_MTE3: 5,
  PIPE_ALL: 6,
} as const;

const U64 = 2n ** 64n;
/** A trace argument as the recorder stores it (uint64; negative integers wrap). */
export function u64(v: number): number {
  if (v >= 0) return v;
  return Number(U64 + BigInt(v));
}

export class Trace {
  terms: CostTerm[] = [];
  cycles = 0;
  private vecQueued = false;
  private vecTail = 0;
  private vecPending = false;

  private rec(name: string, cycles: number, args: (number | null)[]): void {
    if (this.terms.length >= MAX_TRACE) {
      throw unsupported(`the instruction would issue more than ${MAX_TRACE} intrinsics`, {
        hint: 'price smaller tiles (the model enumerates every intrinsic)',
      });
    }
    this.cycles += cycles;
    this.terms.push({ name, cycles, args });
  }

  /** A vector intrinsic with `repeat` (as the uint8 the kernels pass) and its printed arguments. */
  vec(name: string, repeat: number, args: (number | null)[], cost?: readonly [number, number, number]): void {
    const [head, slope, tail] = cost ?? VEC_COST[name] ?? VEC_DEFAULT;
    const r = repeat & 0xff;
    let c = slope * r;
    if (!this.vecQueued) c += head;
    this.vecTail = tail;
    this.vecPending = tail !== 0;
    this.rec(name, c, args);
    this.vecQueued = true;
  }

  /** A 1-cycle scalar/control intrinsic (set_vector_mask, set_mask_count, set_ctrl, …). */
  ctl(name: string, ...args: number[]): void {
    this.rec(name, 1, args.map(u64));
  }

  mask(hi: number | bigint, lo: number | bigint): void {
    this.rec('set_vector_mask', 1, [toArg(hi), toArg(lo)]);
  }

  /** SetContinuousMask(n): the low n lanes (MASK_LEN 64 per word). */
  contMask(n: number): void {
    // utils.hpp SetContinuousMask shifts a uint64_t by n − 64; for n ≥ 128 (8-bit lanes) that is an
    // over-wide shift, which x86 performs modulo 64 (the reference trace shows 2^11 − 1 for n = 203)
    const hi = n > 64 ? ((1n << BigInt((n - 64) & 63)) - 1n) & (U64 - 1n) : 0n;
    const lo = n >= 64 ? U64 - 1n : (1n << BigInt(n)) - 1n;
    this.mask(hi, lo);
  }

  fullMask(): void {
    this.mask(U64 - 1n, U64 - 1n);
  }

  /** A copy on a memory pipe, priced by bandwidth. */
  mem(name: string, pipe: string, bytes: number, args: number[]): void {
    this.rec(name, bandwidthCycles(bytes, pipe), args.map(u64));
  }

  /** A cube-pipe intrinsic (mad): head only when the cube queue is empty; no tail. */
  cube(name: string, cycles: number, args: number[]): void {
    this.rec(name, cycles, args.map(u64));
  }

  /** pipe_barrier(pipe): flushes the pipe's pending tail (charged), empties its queue, costs 1. */
  barrier(pipe: keyof typeof PIPE_ID): void {
    if (pipe === 'PIPE_V' || pipe === 'PIPE_ALL') this.flushVector();
    this.rec('pipe_barrier', 1, [PIPE_ID[pipe]]);
  }

  flushVector(): void {
    if (this.vecPending) this.cycles += this.vecTail;
    this.vecTail = 0;
    this.vecPending = false;
    this.vecQueued = false;
  }

  pendingTail(): number {
    return this.vecPending ? this.vecTail : 0;
  }
}

function toArg(v: number | bigint): number {
  if (typeof v === 'bigint') return v >= 2n ** 53n ? Number.MAX_SAFE_INTEGER * 4 : Number(v);
  return u64(v);
}
