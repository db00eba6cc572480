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
/** Per-kind fits with the shared parameters held fixed (src/amx/perf/fit.ts, least worst-case error). */
const FIT_PAGE = (page: string) =>
  `fitted (src/amx/perf/fit.ts) to the M1 Max table of corsix/amx ${page}.md, shared parameters fixed`;

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
  /** Performance cores: each AMX-using thread needs a P-core (the AMX context is per core). */
  pCores: {
    value: 8,
    source:
      'M1 Max: 8 performance cores in 2 clusters of 4 (+ 2 efficiency cores; Apple M1 Max specifications)',
  },
  /** The measurements cover 1..6 threads (fma.md, mac16.md, matfp.md, vecfp.md). */
  measuredThreads: { value: 6, source: 'corsix/amx perf.c runs 1..6 threads' },
  /** Effective latency growth per extra thread sharing one unit: L_k = L * (1 + gamma (k - 1)). */
  gamma: { value: 0.3, source: FIT },
  /** Throughput kept when 2 / 3 threads share one unit. */
  eta2: { value: 0.9, source: FIT },
  eta3: { value: 1.0, source: FIT },
} as const;

/** True when a kind's figures come from a published measurement rather than an assumption. */
export function isMeasured(p: KindParams): boolean {
  return !p.latency.source.startsWith('assumption') && !p.throughput.source.startsWith('assumption');
}

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
  'mac16-matrix-i8': {
    latency: { value: 5.1, source: FIT_PAGE('mac16') },
    throughput: { value: 0.48, source: FIT_PAGE('mac16') },
  },
  'mac16-matrix-i16': {
    latency: { value: 4.65, source: FIT_PAGE('mac16') },
    throughput: { value: 0.22, source: FIT_PAGE('mac16') },
  },
  'mac16-matrix-i8-i32z': {
    latency: { value: 3.5, source: FIT_PAGE('mac16') },
    throughput: { value: 0.23, source: FIT_PAGE('mac16') },
  },
  'mac16-matrix-i16-i32z': {
    latency: { value: 3.5, source: FIT_PAGE('mac16') },
    throughput: { value: 0.22, source: FIT_PAGE('mac16') },
  },
  'mac16-vector-i8': {
    latency: { value: 4.2, source: FIT_PAGE('mac16') },
    throughput: { value: 1.9, source: FIT_PAGE('mac16') },
  },
  'mac16-vector-i16': {
    latency: { value: 4.7, source: FIT_PAGE('mac16') },
    throughput: { value: 1.11, source: FIT_PAGE('mac16') },
  },
  'matfp-f16': {
    latency: { value: 5.05, source: FIT_PAGE('matfp') },
    throughput: { value: 0.48, source: FIT_PAGE('matfp') },
  },
  'matfp-f16-f32z': {
    latency: { value: 3.5, source: FIT_PAGE('matfp') },
    throughput: { value: 0.25, source: FIT_PAGE('matfp') },
  },
  'matfp-f32': {
    latency: { value: 4.55, source: FIT_PAGE('matfp') },
    throughput: { value: 0.9, source: FIT_PAGE('matfp') },
  },
  'matfp-f64': {
    latency: { value: 4.45, source: FIT_PAGE('matfp') },
    throughput: { value: 0.99, source: FIT_PAGE('matfp') },
  },
  'vecfp-f16': {
    latency: { value: 4.4, source: FIT_PAGE('vecfp') },
    throughput: { value: 1.91, source: FIT_PAGE('vecfp') },
  },
  'vecfp-f16-f32z': {
    latency: { value: 4.75, source: FIT_PAGE('vecfp') },
    throughput: { value: 1.09, source: FIT_PAGE('vecfp') },
  },
  'vecfp-f32': {
    latency: { value: 4.55, source: FIT_PAGE('vecfp') },
    throughput: { value: 1.99, source: FIT_PAGE('vecfp') },
  },
  'vecfp-f64': {
    latency: { value: 4.25, source: FIT_PAGE('vecfp') },
    throughput: { value: 1.86, source: FIT_PAGE('vecfp') },
  },
  // No published measurement (seed or corsix/amx): assumptions, used only by the program-cycle
  // estimate and marked as such in its breakdown.
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
  extr: {
    latency: { value: 4, source: 'assumption (no published measurement): like a vector op' },
    throughput: { value: 1, source: 'assumption (no published measurement)' },
  },
  matint: {
    latency: { value: 4.65, source: 'assumption (no published measurement): as mac16 matrix i16' },
    throughput: { value: 0.22, source: 'assumption (no published measurement): as mac16 matrix i16' },
  },
  vecint: {
    latency: { value: 4.7, source: 'assumption (no published measurement): as mac16 vector i16' },
    throughput: { value: 1.11, source: 'assumption (no published measurement): as mac16 vector i16' },
  },
  genlut: {
    latency: { value: 4, source: 'assumption (no published measurement)' },
    throughput: { value: 1, source: 'assumption (no published measurement)' },
  },
  other: {
    latency: { value: 4, source: 'assumption: like the vector FMA forms (no measurement in the seed)' },
    throughput: { value: 1, source: 'assumption (no measurement in the seed)' },
  },
};
