/**
 * Target-profile support for the verifier: may this instruction take this element type on this
 * profile? The per-op tables belong to part 1 (`OPS` of src/pto/index.ts, each OpDef's `dtypes`
 * per profile, for its primary operand); this module only reads them. Instructions part 1 has no
 * definition for fall back to the one table the spec gives: spec 002 "Target-Profile Restrictions"
 * for pto.tadd (A2/A3: f32 f16 bf16 i32 i16; A5 adds i8/u8 and fp8; CPU: all).
 */
import type { DType } from '../dtype.ts';
import { OPS } from '../index.ts';

export interface SupportResult {
  ok: boolean;
  reason?: string;
  hint?: string;
}

type SupportFn = (insn: string, dtype: DType, profile: 'cpu' | 'a2a3' | 'a5') => SupportResult | undefined;

let external: SupportFn | undefined;

/** Lets part 1 (or a test) install the full per-op support table. */
export function setSupportTable(fn: SupportFn | undefined): void {
  external = fn;
}

const SPEC_002_TADD: Record<'a2a3' | 'a5', readonly DType[]> = {
  a2a3: ['f32', 'f16', 'bf16', 'i32', 'i16'],
  a5: ['f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'u8', 'f8e4m3', 'f8e5m2'],
};

export function profileSupport(insn: string, dtype: DType, profile: 'cpu' | 'a2a3' | 'a5'): SupportResult {
  const ext = external?.(insn, dtype, profile);
  if (ext) return ext;
  const def = OPS.get(insn);
  if (def) {
    const list = def.dtypes[profile];
    if (list.includes(dtype)) return { ok: true };
    return {
      ok: false,
      reason: `element type ${dtype} is not supported by ${insn} on the ${profile} profile`,
      hint: `${profile} supports ${list.join(', ') || 'no element type'} for ${insn}`,
    };
  }
  if (profile === 'cpu' || insn !== 'TADD') return { ok: true };
  const list = SPEC_002_TADD[profile];
  if (list.includes(dtype)) return { ok: true };
  return {
    ok: false,
    reason: `element type ${dtype} is not supported on ${profile} (spec 002 Target-Profile Restrictions)`,
    hint: `${profile} supports ${list.join(', ')} for TADD`,
  };
}
