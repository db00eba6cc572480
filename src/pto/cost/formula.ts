/**
 * pto-isa's lightweight fitted estimator (`lightweight_costmodel.hpp`, `EstimateCycles`), for A2/A3
 * and A5 — the `formula` rows of pto-cost.jsonl.gz. Followed: pto-isa @3186c381
 * include/pto/costmodel/{lightweight_costmodel.hpp, a2a3/formula_costmodel/*, a5/vf_costmodel.hpp,
 * a5/formula_costmodel/formula_backend_vf.hpp}; PTO-NOTES §4.5.
 *
 * Where the reference "falls back to 0 with a warning", axsim raises Unsupported instead of
 * returning a silently meaningless 0.
 */
import { unsupported } from '../../errors.ts';
import { BYTES } from './bytes.ts';
import { A2A3_FORMULA_PARAMS, A5_FORMULA_PARAMS, FORMULA_PARAMS_SOURCE_A2A3 } from './formula-params.ts';
import { perfSimFallbackCycles, perfSimStage } from './perfsim.ts';
import type { CostArch, CostConstant, CostInput, CostResult } from './types.ts';

const LW = 'pto-isa @3186c381 include/pto/costmodel/lightweight_costmodel.hpp';

export const FORMULA_CONSTANTS = {
  frequencyMHz: {
    value: 1850,
    name: 'kMainFrequencyHz / 1e6',
    source: 'pto-isa include/pto/costmodel/arch_config.hpp',
  },
  madHead: {
    value: 6,
    name: 'kHeadCycles',
    source: 'a2a3/formula_costmodel/formula_backend_compute.hpp TryEstimateMadCycles',
  },
  madCyclesPerRepeatF32: { value: 2, source: 'formula_backend_compute.hpp (f32 A operand)' },
  madCyclesPerRepeatF16: { value: 1, source: 'formula_backend_compute.hpp (f16 A operand)' },
} as const satisfies Record<string, CostConstant>;

/**
 * Transfer bandwidths of the A2/A3 arch table (arch_config.hpp kA2A3ArchConfig). The lightweight
 * model divides bytes by these numbers as if they were bytes per µs (the table is in GB/s); the
 * conformance rows confirm that reading, so it is reproduced, not corrected.
 */
export const BANDWIDTH: Record<string, CostConstant> = {
  GM_TO_UB: { value: 100.9, source: 'arch_config.hpp kA2A3ArchConfig' },
  GM_TO_L1: { value: 135.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  UB_TO_GM: { value: 188.46, source: 'arch_config.hpp kA2A3ArchConfig' },
  L1_TO_GM: { value: 32.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  UB_TO_UB: { value: 1024.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  L0C_TO_GM: { value: 70.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  L0C_TO_L1: { value: 128.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  L1_TO_L0A: { value: 441.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  L1_TO_L0B: { value: 220.5, source: 'arch_config.hpp kA2A3ArchConfig' },
  L1_TO_BT: { value: 32.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  L1_TO_FB: { value: 32.0, source: 'arch_config.hpp kA2A3ArchConfig' },
  L1_FILL: { value: 32.0, source: 'arch_config.hpp kA2A3ArchConfig' },
};

/** Transfer op × tile type → pipe (formula_backend_transfer.hpp TryResolveTransferPipe). */
const TRANSFER_PIPE: Record<string, Partial<Record<string, string>>> = {
  TLOAD: { VecTile: 'GM_TO_UB', MatTile: 'GM_TO_L1' },
  TSTORE: { VecTile: 'UB_TO_GM', MatTile: 'L1_TO_GM', AccTile: 'L0C_TO_GM' },
  TMOV: {
    VecTile: 'UB_TO_UB',
    MatTile: 'L0C_TO_L1',
    LeftTile: 'L1_TO_L0A',
    RightTile: 'L1_TO_L0B',
    BiasTile: 'L1_TO_BT',
    ScalingTile: 'L1_TO_FB',
  },
};

/** C++ std::llround for the non-negative values the model produces (≤ 0 → 0). */
function roundToCycles(v: number): number {
  return v <= 0 ? 0 : Math.round(v);
}

function ceilDiv(x: number, y: number): number {
  return y === 0 ? 0 : Math.floor((x + y - 1) / y);
}

/** Formula for an elementwise op on A2/A3: exact-cols table, TEXP/TSQRT wildcard. */
const A2A3_TABLE_OPS = new Set([
  'TSUB',
  'TMUL',
  'TADDS',
  'TDIVS',
  'TMULS',
  'TMINS',
  'TROWSUM',
  'TROWMAX',
  'TCOLSUM',
  'TCOLMAX',
  'TROWEXPAND',
]);
const A2A3_ANY_OPS = new Set(['TEXP', 'TSQRT']);

function lookupA2A3(op: string, dtype: string, cols: number): readonly [number, number] | undefined {
  if (cols > 0xffff) return undefined;
  for (const r of A2A3_FORMULA_PARAMS)
    if (r[0] === op && r[1] === dtype && r[2] === cols) return [r[3], r[4]];
  return undefined;
}

/** A2/A3 lightweight estimate; undefined where the reference returns 0 ("fallback"). */
export function a2a3FormulaCycles(
  inp: CostInput,
): { cycles: number; latencyUs?: number; path: string } | undefined {
  const op = inp.op;
  if (op === 'TLOAD' || op === 'TSTORE' || op === 'TMOV') {
    const size = BYTES[inp.dtype];
    const elements = inp.elements ?? inp.rows * inp.cols;
    const pipe = TRANSFER_PIPE[op]?.[inp.tileType ?? 'Unknown'];
    if (!size || elements <= 0 || !pipe) return undefined;
    const bw = BANDWIDTH[pipe]!.value;
    const latencyUs = (elements * size) / bw;
    return { cycles: latencyUs * FORMULA_CONSTANTS.frequencyMHz.value, latencyUs, path: `transfer ${pipe}` };
  }
  if (op === 'TMATMUL') {
    const m = inp.M ?? inp.rows;
    const k = inp.K ?? 0;
    const n = inp.N ?? inp.cols;
    if (m <= 0 || k <= 0 || n <= 0) return undefined;
    if (inp.dtype !== 'f32' && inp.dtype !== 'f16') return undefined;
    const kTile = 32 / BYTES[inp.dtype]!;
    const per = inp.dtype === 'f32' ? 2 : 1;
    return { cycles: 6 + per * ceilDiv(m, 16) * ceilDiv(k, kTile) * ceilDiv(n, 16), path: 'mad tiles' };
  }
  if (inp.rows <= 0 || inp.cols <= 0) return undefined;
  const dt = inp.dtype === 'f32' ? 'fp32' : inp.dtype === 'f16' ? 'fp16' : undefined;
  if (!dt) return undefined;
  let p: readonly [number, number] | undefined;
  if (A2A3_TABLE_OPS.has(op)) p = lookupA2A3(op, dt, inp.cols);
  else if (A2A3_ANY_OPS.has(op)) {
    p =
      lookupA2A3(op, dt, inp.cols) ??
      lookupA2A3(op, dt, 0) ??
      lookupA2A3(op, 'any', inp.cols) ??
      lookupA2A3(op, 'any', 0);
  }
  if (!p) return undefined;
  return {
    cycles: roundToCycles(p[0] * inp.rows * inp.cols + p[1]),
    path: `slope·rows·cols + bias (cols ${inp.cols})`,
  };
}

// ---- A5 (vf_costmodel.hpp) ----------------------------------------------------------------------

const A5_OPS = new Set([
  'TADD',
  'TSUB',
  'TMUL',
  'TDIV',
  'TRECIP',
  'TADDS',
  'TSUBS',
  'TMULS',
  'TDIVS',
  'TMINS',
  'TNEG',
  'TEXP',
  'TSQRT',
  'TRSQRT',
  'TLOG',
  'TRELU',
  'TNOT',
  'TCVT',
  'TSEL',
]);
const A5_DTYPE_KEY: Record<string, string> = {
  f32: 'fp32',
  f16: 'fp16',
  f8e4m3: 'fp8_e4m3',
  f8e5m2: 'fp8_e5m2',
  i8: 'int8',
  i16: 'int16',
  i32: 'int32',
  u8: 'uint8',
  u16: 'uint16',
  u32: 'uint32',
  bf16: 'bf16',
};
const A5_SCALAR_OPS = new Set(['TADDS', 'TSUBS', 'TMULS', 'TDIVS', 'TMINS', 'TMAXS', 'TNEG']);

function eprOf(key: string): number | undefined {
  if (key === 'fp4_e1m2' || key === 'fp4_e2m1' || key === 'int8' || key === 'uint8') return 256;
  if (key === 'fp16' || key === 'bf16' || key === 'int16' || key === 'uint16') return 128;
  if (['fp32', 'int32', 'uint32', 'fp8_e4m3', 'fp8_e5m2', 'hif8'].includes(key)) return 64;
  return undefined;
}

function cvtEpr(src: string, dst: string, path: '1D' | '2D'): number | undefined {
  if ((src === 'fp16' || src === 'bf16') && dst === 'fp32') return 64;
  if (path === '1D') return eprOf(src);
  if (
    (src === 'fp32' && ['fp16', 'bf16', 'fp8_e4m3', 'fp8_e5m2', 'hif8'].includes(dst)) ||
    ((src === 'fp16' || src === 'bf16') && ['fp16', 'fp4_e1m2', 'fp4_e2m1', 'hif8'].includes(dst))
  ) {
    return 128;
  }
  return eprOf(src);
}

function cvtParams(round: string, sat: string): string {
  if (round === 'CAST_NONE' && sat === 'ON') return 'CAST_RINT_SAT_ON_normal';
  if (round === 'CAST_RINT' && sat === 'ON') return 'CAST_RINT_SAT_ON_normal';
  if (round === 'CAST_TRUNC' && sat === 'OFF') return 'CAST_TRUNC_SAT_OFF_normal';
  return '';
}

/** A5 VF-curve estimate; undefined where the reference falls back to 0. */
export function a5FormulaCycles(inp: CostInput): { cycles: number; path: string } | undefined {
  const vr = inp.validRow > 0 ? inp.validRow : inp.rows;
  const vc = inp.validCol > 0 ? inp.validCol : inp.cols;
  if (vr <= 0 || vc <= 0 || !A5_OPS.has(inp.op)) return undefined;
  const src = A5_DTYPE_KEY[inp.dtype];
  if (!src) return undefined;
  const path: '1D' | '2D' = A5_SCALAR_OPS.has(inp.op)
    ? vc === inp.cols
      ? '1D'
      : '2D'
    : inp.rows === 1 || vc === inp.cols
      ? '1D'
      : '2D';
  let dst = 'none';
  let opParams = '';
  if (inp.op === 'TCVT') {
    const d = A5_DTYPE_KEY[inp.dstDtype ?? ''];
    if (!d) return undefined;
    dst = d;
    // the input struct defaults saturation to ON (CostModelInput.saturation_mode)
    opParams = cvtParams(inp.roundMode ?? 'CAST_NONE', inp.satMode === 'OFF' ? 'OFF' : 'ON');
  } else if (inp.op === 'TRECIP') opParams = 'default';
  const epr = inp.op === 'TCVT' ? cvtEpr(src, dst, path) : eprOf(src);
  if (!epr) return undefined;
  let loop: number;
  let outer: number;
  let inner: number;
  let tail: number;
  if (path === '1D') {
    inner = ceilDiv(vr * vc, epr);
    outer = 1;
    loop = inner;
    tail = (vr * vc) % epr;
  } else {
    inner = ceilDiv(vc, epr);
    outer = vr;
    loop = outer * inner;
    tail = vc % epr;
  }
  if (inp.op === 'TSEL') {
    if (inp.dtype === 'f32')
      opParams = path === '1D' ? (inner % 2 === 0 ? 'TSel_b32_even' : 'TSel_b32_odd') : 'TSel_b32';
    else if (inp.dtype === 'f16' || inp.dtype === 'i8') opParams = 'TSel_b16_8';
    else return undefined;
  }
  const impl =
    inp.op === 'TCVT'
      ? path === '1D'
        ? 'NO_POST_UPDATE'
        : 'POST_UPDATE'
      : inp.op === 'TSEL'
        ? path === '1D'
          ? 'NO_POST_UPDATE'
          : 'DEFAULT'
        : path === '1D'
          ? 'POST_UPDATE'
          : 'NO_POST_UPDATE';
  const tailKind = tail === 0 ? 'full' : 'tail';
  const row = A5_FORMULA_PARAMS.find(
    (r) =>
      r[0] === inp.op &&
      r[1] === src &&
      r[2] === dst &&
      r[3] === path &&
      r[4] === impl &&
      r[5] === tailKind &&
      r[6] === opParams,
  );
  if (!row) return undefined;
  const [p0, p1, p2] = [row[8], row[9], row[10]];
  let v: number;
  switch (row[7]) {
    case 'L':
      v = p0 * loop + p1;
      break;
    case 'R':
      v = p0 * loop + p1 * outer + p2;
      break;
    case 'T':
      v = p0 * loop + p1 * tail + p2;
      break;
    case 'N':
      v = (p0 * inner + p1) * outer + p2;
      break;
  }
  return { cycles: roundToCycles(v), path: `${path} ${impl} ${tailKind}${opParams ? ` ${opParams}` : ''}` };
}

/**
 * Ops the lightweight formula has no curve for that get a derived price (issue 13): the duration
 * pto-isa's Perf-Sim itself gives them when the formula returns 0 — `FallbackCycles` on the first
 * tile argument's valid rows x columns (cost/perfsim.ts).
 */
const PERFSIM_FALLBACK_OPS = new Set(['TEXPANDS', 'TCOLEXPANDMUL', 'TFILLPAD', 'TLOAD', 'TSTORE']);

/** The `formula` cost model. */
export function formulaCost(inp: CostInput, arch: CostArch, opts: { derived?: boolean } = {}): CostResult {
  let r: { cycles: number; path: string } | undefined =
    arch === 'a5' ? a5FormulaCycles(inp) : a2a3FormulaCycles(inp);
  if (!r && opts.derived && PERFSIM_FALLBACK_OPS.has(inp.op) && inp.M === undefined) {
    const cycles = perfSimFallbackCycles(inp.op, inp.validRow, inp.validCol);
    r = {
      cycles,
      path: `derived: Perf-Sim FallbackCycles (${perfSimStage(inp.op)}, ${inp.validRow}x${inp.validCol} elements; no fitted curve)`,
    };
  }
  if (!r) {
    throw unsupported(
      `formula model (${arch}): no fitted curve for ${inp.op} ${inp.dtype} ${inp.rows}x${inp.cols}`,
      {
        hint:
          arch === 'a2a3'
            ? `the A2/A3 table (${FORMULA_PARAMS_SOURCE_A2A3}) is keyed by exact column counts; try --model pto-isa`
            : 'the A5 curves cover TADD TSUB TMUL TDIVS TMINS TNEG TEXP TSQRT TRSQRT TRECIP TCVT TSEL',
      },
    );
  }
  return {
    cycles: r.cycles,
    pendingVectorTail: 0,
    terms: [{ name: r.path, cycles: r.cycles }],
    path: `formula: ${r.path}`,
  };
}

export { LW as FORMULA_SOURCE };
