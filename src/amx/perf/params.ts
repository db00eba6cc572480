/**
 * Performance-model parameters, each with where it comes from. Frequencies and unit counts are
 * facts about the M1 Max; latencies and throughputs were fitted (least worst-case relative error,
 * grid search over L in 3.5..5.5 cycles step 0.05 and T in 0.2..2.2 instr/cycle step 0.01, with the
 * shared parameters searched jointly) to the measured tables of corsix/amx fma.md (FMA_TABLES).
 */
export interface Param {
  value: number;
  source: string;
}

const FIT = 'fitted to corsix/amx fma.md M1 Max table (see src/amx/perf/params.ts header)';

export const MACHINE = {
  /** P-core clock while running AMX code. */
  ghz: {
    value: 3.228,
    source: 'M1 Max performance-core maximum clock (Apple silicon specifications, 3.228 GHz)',
  },
  /** AMX units: one per performance cluster. */
  units: {
    value: 2,
    source: 'M1 Max has two P-core clusters, each with its own AMX block (corsix/amx README)',
  },
  /** Effective latency growth per extra thread sharing one unit: L_k = L * (1 + gamma (k - 1)). */
  gamma: { value: 0.3, source: FIT },
  /** Throughput kept when 2 / 3 threads share one unit. */
  eta2: { value: 0.9, source: FIT },
  eta3: { value: 1.0, source: FIT },
} as const;

export interface KindParams {
  /** Cycles from issue until a dependent instruction on the same Z accumulator can issue. */
  latency: Param;
  /** Instructions per cycle one unit sustains for this kind. */
  throughput: Param;
}

/** Per instruction kind (fma/fms share a kind; mode and Z width matter). */
export const KINDS: Record<string, KindParams> = {
  'fma16-matrix': { latency: { value: 4.75, source: FIT }, throughput: { value: 0.45, source: FIT } },
  'fma16-matrix-f32z': { latency: { value: 3.5, source: FIT }, throughput: { value: 0.24, source: FIT } },
  'fma32-matrix': { latency: { value: 4.7, source: FIT }, throughput: { value: 0.88, source: FIT } },
  'fma64-matrix': { latency: { value: 4.15, source: FIT }, throughput: { value: 0.93, source: FIT } },
  'fma16-vector': { latency: { value: 4.4, source: FIT }, throughput: { value: 1.87, source: FIT } },
  'fma32-vector': { latency: { value: 4.55, source: FIT }, throughput: { value: 2.16, source: FIT } },
  'fma64-vector': { latency: { value: 4.65, source: FIT }, throughput: { value: 2.19, source: FIT } },
  // Not measured in the seed tables: assumptions, used only by the program-cycle estimate.
  load: {
    latency: {
      value: 4,
      source: 'assumption (no measurement in the seed): one load per cycle, result after 4',
    },
    throughput: { value: 1, source: 'assumption (no measurement in the seed)' },
  },
  store: {
    latency: { value: 1, source: 'assumption (no measurement in the seed)' },
    throughput: { value: 1, source: 'assumption (no measurement in the seed)' },
  },
  other: {
    latency: { value: 4, source: 'assumption: like the vector FMA forms (no measurement in the seed)' },
    throughput: { value: 1, source: 'assumption (no measurement in the seed)' },
  },
};
