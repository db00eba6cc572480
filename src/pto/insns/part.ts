/**
 * TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN: elementwise ops over partially valid sources. Over the destination
 * valid region, an element valid in both sources gets the operator, one valid in only one source
 * copies that source's element, and one valid in neither gets 0 (pto-isa include/pto/cpu/TPartOp.hpp,
 * TPartAdd.hpp, TPartMax.hpp, TPartMin.hpp; docs/isa/tile/ops/irregular-and-complex/tpart*.md).
 * Max/min use std::max / std::min, which return a reference to one operand: its bytes are copied.
 */
import type { Arith } from '../arith.ts';
import type { DType } from '../dtype.ts';
import { copyElem, type ExecCtx, type OpDef, off, requireSameDType, tileArith } from '../op.ts';

const REF = 'pto-isa docs/isa/tile/ops/irregular-and-complex';
/** TPartCheck's static_assert list (the CPU simulator). */
const CPU_TYPES: readonly DType[] = ['i32', 'i16', 'f16', 'bf16', 'f32', 'i8', 'u8'];
/** tpartadd.md: "int32_t, int16_t, half, float" (A2/A3) and the longer A5 list. */
const A2A3_TYPES: readonly DType[] = ['i32', 'i16', 'f16', 'f32'];
const A5_TYPES: readonly DType[] = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f16', 'f32', 'bf16'];

/** How the "both valid" element is formed: a computed value, or which operand is copied. */
type Both =
  | { kind: 'value'; f: (A: Arith<unknown>, a: unknown, b: unknown) => unknown }
  | { kind: 'pick'; second: (A: Arith<unknown>, a: unknown, b: unknown) => boolean };

function partLoop(ctx: ExecCtx, both: Both): void {
  const d = ctx.tiles.dst!;
  const s0 = ctx.tiles.src0!;
  const s1 = ctx.tiles.src1!;
  const A = tileArith(ctx, 'dst');
  const dv = A.view(d.bytes);
  const v0 = A.view(s0.bytes);
  const v1 = A.view(s1.bytes);
  const n = d.elemBytes;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const o = off(d, r, c);
      const in0 = r < s0.validRow && c < s0.validCol;
      const in1 = r < s1.validRow && c < s1.validCol;
      if (in0 && in1) {
        const o0 = off(s0, r, c);
        const o1 = off(s1, r, c);
        const a = A.load(v0, o0);
        const b = A.load(v1, o1);
        if (both.kind === 'value') A.store(dv, o, both.f(A, a, b));
        else if (both.second(A, a, b)) copyElem(s1, o1, d, o);
        else copyElem(s0, o0, d, o);
      } else if (in0) {
        copyElem(s0, off(s0, r, c), d, o);
      } else if (in1) {
        copyElem(s1, off(s1, r, c), d, o);
      } else {
        d.bytes.fill(0, o * n, o * n + n);
      }
    }
  }
}

function part(name: string, summary: string, both: Both): OpDef {
  return {
    name,
    family: 'part',
    summary,
    ref: `${REF}/${name.toLowerCase()}.md`,
    operands: [
      { name: 'dst', kind: 'tile', out: true },
      { name: 'src0', kind: 'tile' },
      { name: 'src1', kind: 'tile' },
    ],
    attrs: [],
    dtypes: { cpu: CPU_TYPES, a2a3: A2A3_TYPES, a5: A5_TYPES },
    check: (ctx) => requireSameDType(ctx, ['dst', 'src0', 'src1']),
    exec: (ctx) => partLoop(ctx, both),
  };
}

export const PART_OPS: readonly OpDef[] = [
  part('TPARTADD', 'dst = src0 + src1 where both are valid, the valid one elsewhere, 0 outside both', {
    kind: 'value',
    f: (A, a, b) => A.add(a, b),
  }),
  // TPartMul.hpp: dst = src0 * src1 through the same TPartInstr walk
  part('TPARTMUL', 'dst = src0 * src1 where both are valid, the valid one elsewhere, 0 outside both', {
    kind: 'value',
    f: (A, a, b) => A.mul(a, b),
  }),
  part(
    'TPARTMAX',
    'dst = std::max(src0, src1) where both are valid, the valid one elsewhere, 0 outside both',
    {
      kind: 'pick',
      second: (A, a, b) => A.lt(a, b),
    },
  ),
  part(
    'TPARTMIN',
    'dst = std::min(src0, src1) where both are valid, the valid one elsewhere, 0 outside both',
    {
      kind: 'pick',
      second: (A, a, b) => A.lt(b, a),
    },
  ),
];
