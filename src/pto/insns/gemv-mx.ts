/**
 * TGEMV_MX (and its accumulate / bias forms): the CPU simulator's TGEMV_MX_IMPL overloads call the
 * matching TMATMUL_MX_IMPL (include/pto/cpu/TMatmul.hpp), so they share the TMATMUL_MX* definitions
 * (docs/isa/tile/ops/matrix-and-matrix-vector/tgemv-mx.md). axsim names the three overloads by their
 * TMATMUL_MX counterparts: TGEMV_MX, TGEMV_MX_ACC, TGEMV_MX_BIAS.
 */
import type { OpDef } from '../op.ts';
import { MX_OPS } from './mx.ts';

const REF = 'pto-isa docs/isa/tile/ops/matrix-and-matrix-vector/tgemv-mx.md';

function alias(from: string, name: string): OpDef {
  const base = MX_OPS.find((o) => o.name === from)!;
  return { ...base, name, summary: `${base.summary} (as ${from})`, ref: REF };
}

export const GEMV_MX_OPS: readonly OpDef[] = [
  alias('TMATMUL_MX', 'TGEMV_MX'),
  alias('TMATMUL_MX_ACC', 'TGEMV_MX_ACC'),
  alias('TMATMUL_MX_BIAS', 'TGEMV_MX_BIAS'),
];
