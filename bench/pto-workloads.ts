/**
 * The PTO workloads of shared/perf/PTO-PERF.md (TADD f32 64x64 and 256x256 on RowMajor Vec tiles,
 * TMATMUL f32 64x64x64 on Left/Right/Acc tiles), shared by bench/pto.bench.ts and bench/run.ts.
 * PTO-PERF.md publishes no digest, so each workload carries its own result check, computed here
 * independently of axsim: TADD against Math.fround(a + b) element by element, TMATMUL against an
 * exact dot product (the inputs are multiples of 1/8 in [-2, 2], so every product and partial sum
 * is exact in binary32 and the order of the fmaf chain cannot matter).
 */
import { createTile, execute, prepare, readElement, type Tile } from '../src/pto/index.ts';

export function vecTile(n: number, seed: number): Tile {
  const data = new Float32Array(n * n);
  for (let i = 0; i < data.length; i++) data[i] = ((i * seed) % 97) / 16 - 3;
  return createTile({ dtype: 'f32', rows: n, cols: n }, data);
}

function mmValue(i: number, seed: number): number {
  return ((i * seed) % 31) / 8 - 2;
}

export function mmTile(layout: 'LEFT' | 'RIGHT' | 'ACC', seed: number): Tile {
  const data = new Float32Array(64 * 64);
  for (let i = 0; i < data.length; i++) data[i] = mmValue(i, seed);
  return createTile({ dtype: 'f32', rows: 64, cols: 64, layout }, data);
}

export interface PtoWorkload {
  name: string;
  /** Elements (TADD) or FLOPs (TMATMUL, 2*M*N*K) per call. */
  work: number;
  unit: string;
  /** PTO-PERF.md figures as printed (range, build). */
  refText: string;
  /** The fastest reference build's figure (middle of its range), in `unit`. */
  ref: number;
  refBuild: string;
  /** Acceptance target of the earlier issue (bench/pto.bench.ts). */
  target: number;
  /** Fresh operands; `run` is one call through the public `execute`, `check` verifies dst. */
  make: () => { run: () => void; check: () => boolean };
}

/** TADD f32 on three fresh n x n tiles: one call through `execute` (or a prepared instruction), and its check. */
export function taddCase(n: number, prepared = false): { run: () => void; check: () => boolean } {
  return tadd(n, prepared)();
}

function tadd(n: number, prepared = false): PtoWorkload['make'] {
  return () => {
    const a = vecTile(n, 7);
    const b = vecTile(n, 13);
    const d = vecTile(n, 1);
    const p = prepared ? prepare('TADD', { dst: d, src0: a, src1: b }) : undefined;
    return {
      run: p ? () => p.run() : () => execute('TADD', { dst: d, src0: a, src1: b }),
      check: () => {
        for (let r = 0; r < n; r++)
          for (let c = 0; c < n; c++) {
            const want = Math.fround((readElement(a, r, c) as number) + (readElement(b, r, c) as number));
            if (!Object.is(readElement(d, r, c), want)) return false;
          }
        return true;
      },
    };
  };
}

export const PTO_WORKLOADS: PtoWorkload[] = [
  {
    name: 'TADD f32 64x64',
    work: 64 * 64,
    unit: 'G elem/s',
    refText: '9.4-9.5 (clang) / 12.1-12.6 (1 thread)',
    ref: 12.35,
    refBuild: 'clang, single-threaded',
    target: 1.5,
    make: tadd(64),
  },
  {
    // The same calls through a prepared instruction (prepare once, then run(): no per-call
    // validation); not a separate workload of PTO-PERF.md, so the same reference.
    name: 'TADD f32 64x64, prepared',
    work: 64 * 64,
    unit: 'G elem/s',
    refText: '9.4-9.5 (clang) / 12.1-12.6 (1 thread)',
    ref: 12.35,
    refBuild: 'clang, single-threaded',
    target: 1.5,
    make: tadd(64, true),
  },
  {
    name: 'TADD f32 256x256',
    work: 256 * 256,
    unit: 'G elem/s',
    refText: '0.83-0.86 (default threads) / 5.6-5.7 (1 thread)',
    ref: 5.64,
    refBuild: 'clang, single-threaded',
    target: 0.85,
    make: tadd(256),
  },
  {
    name: 'TMATMUL f32 64x64x64',
    work: 2 * 64 * 64 * 64,
    unit: 'GFLOP/s',
    refText: '1.87-1.93 (2 threads) / 1.27-1.33 (1 thread)',
    ref: 1.9,
    refBuild: 'clang, 2 threads',
    target: 1.0,
    make: () => {
      const a = mmTile('LEFT', 3);
      const b = mmTile('RIGHT', 5);
      const c = mmTile('ACC', 1);
      return {
        run: () => execute('TMATMUL', { c, a, b }),
        check: () => {
          for (let i = 0; i < 64; i++)
            for (let j = 0; j < 64; j++) {
              let s = 0;
              for (let k = 0; k < 64; k++) s += mmValue(i * 64 + k, 3) * mmValue(k * 64 + j, 5);
              if (readElement(c, i, j) !== s) return false;
            }
          return true;
        },
      };
    },
  },
];
