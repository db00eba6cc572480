/**
 * The five AMX workloads of shared/perf/AMX-PERF.md (instruction, operand, initial state, published
 * FNV-1a-64 digest after 10^6 executions, C reference rate), shared by bench/amx.bench.ts and
 * bench/run.ts.
 */
import { AmxState } from '../src/amx/index.ts';
export interface AmxWorkload {
  id: string;
  what: string;
  op: number;
  operand: bigint;
  flopsPerInstr: number;
  init: (s: AmxState) => void;
  digest: bigint;
  /** The digest after 10^7 executions, where AMX-PERF.md publishes one ((c)). */
  digest10M?: bigint;
  refInstrPerSec: number;
  refGflops: number;
  target: number;
}

function fill(s: AmxState, lanes: number, kind: 'f32' | 'f16' | 'f64'): void {
  const x = new DataView(s.x.buffer, s.x.byteOffset, s.x.byteLength);
  const y = new DataView(s.y.buffer, s.y.byteOffset, s.y.byteLength);
  const bytes = 64 / lanes;
  for (let r = 0; r < 8; r++) {
    for (let k = 0; k < lanes; k++) {
      const n = lanes * r + k;
      const xv = ((n % 13) - 6) / 8;
      const yv = ((n % 11) - 5) / 8;
      const off = r * 64 + k * bytes;
      if (kind === 'f32') {
        x.setFloat32(off, xv, true);
        y.setFloat32(off, yv, true);
      } else if (kind === 'f64') {
        x.setFloat64(off, xv, true);
        y.setFloat64(off, yv, true);
      } else {
        x.setUint16(off, f16(xv), true);
        y.setUint16(off, f16(yv), true);
      }
    }
  }
}

/** Exact f16 bits of k/8 for |k| <= 6 (values of the workload). */
function f16(v: number): number {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  const m = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | m;
}

function fillInt(s: AmxState): void {
  for (let r = 0; r < 8; r++) {
    for (let k = 0; k < 64; k++) {
      s.x[r * 64 + k] = (7 * k + r) & 255;
      s.y[r * 64 + k] = (13 * k + r) & 255;
    }
  }
}

export const AMX_WORKLOADS: AmxWorkload[] = [
  {
    id: '(a)',
    what: 'fma32 matrix',
    op: 12,
    operand: 0n,
    flopsPerInstr: 512,
    init: (s) => fill(s, 16, 'f32'),
    digest: 0x1d6f00e952f2d043n,
    refInstrPerSec: 2.07e6,
    refGflops: 1.06,
    target: 1.0,
  },
  {
    id: '(b)',
    what: 'fma16 matrix, f32 Z',
    op: 15,
    operand: 0x4000000000000000n,
    flopsPerInstr: 2048,
    init: (s) => fill(s, 32, 'f16'),
    digest: 0x475abdcdb449661fn,
    refInstrPerSec: 2.45e5,
    refGflops: 0.5,
    target: 1.0,
  },
  {
    id: '(c)',
    what: 'fma64 vector',
    op: 10,
    operand: 0x8000000000000000n,
    flopsPerInstr: 16,
    init: (s) => fill(s, 8, 'f64'),
    digest: 0x2b97984bf8db0cfen,
    digest10M: 0xb46c4e6d9cfcf23fn,
    refInstrPerSec: 4.9e7,
    refGflops: 0.78,
    target: 0.25,
  },
  {
    id: '(d1)',
    what: 'matint i8*i8->i16',
    op: 20,
    operand: 0x8004000004000000n,
    flopsPerInstr: 4096,
    init: fillInt,
    digest: 0x22c861e513cbf1a5n,
    refInstrPerSec: 2.86e4,
    refGflops: 0.117,
    target: 1.0,
  },
  {
    id: '(d2)',
    what: 'matint i8*i8->i32',
    op: 20,
    operand: 0x8004280004000000n,
    flopsPerInstr: 2048,
    init: fillInt,
    digest: 0x2f58fadb66336759n,
    refInstrPerSec: 5.12e4,
    refGflops: 0.105,
    target: 1.0,
  },
];

export function setUp(w: AmxWorkload): AmxState {
  const s = new AmxState({ gen: 'm4' });
  s.enabled = true;
  w.init(s);
  return s;
}
