/**
 * TGEMV / TGEMV_ACC / TGEMV_BIAS: matrix-vector products. The CPU simulator implements each as the
 * corresponding TMATMUL form (include/pto/cpu/TMatmul.hpp: TGEMV_IMPL calls TMATMUL_IMPL, and so
 * on), so they share the TMATMUL definitions, operands, checks and type lists
 * (docs/isa/tile/ops/matrix-and-matrix-vector/tgemv*.md).
 */
import type { OpDef } from '../op.ts';
import { MATMUL_OPS } from './matmul.ts';

const REF = 'pto-isa docs/isa/tile/ops/matrix-and-matrix-vector';

function alias(from: string, name: string, page: string): OpDef {
  const base = MATMUL_OPS.find((o) => o.name === from)!;
  return { ...base, name, summary: `${base.summary} (as ${from})`, ref: `${REF}/${page}.md` };
}

export const GEMV_OPS: readonly OpDef[] = [
  alias('TMATMUL', 'TGEMV', 'tgemv'),
  alias('TMATMUL_ACC', 'TGEMV_ACC', 'tgemv-acc'),
  alias('TMATMUL_BIAS', 'TGEMV_BIAS', 'tgemv-bias'),
];
