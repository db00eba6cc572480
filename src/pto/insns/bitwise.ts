/**
 * Bitwise and shift ops, tile-tile and tile-scalar: TAND TOR TXOR TNOT TSHL TSHR, TANDS TORS TXORS
 * TSHLS TSHRS. Integer types only (the simulator's C++ is ill-formed for float and fp8 operands).
 * Shifts follow C++ after integer promotion: 8/16-bit values shift as 32-bit ints (a shift by >= their
 * width gives 0), 32/64-bit shifts by >= the width or by a negative amount are undefined.
 */
import { undefinedBehaviour } from '../../errors.ts';
import { anyArith } from '../arith.ts';
import { DTYPE_INFO } from '../dtype.ts';
import { type ExecCtx, INTS, type OpDef, type OperandSpec, off, per, reject } from '../op.ts';
import { binaryLoop, unaryLoop } from './kernels.ts';

/**
 * 64-bit shifts as the optimised reference build computes them: clang vectorises the inner loop of a
 * NoneBox tile (2 x i64 lanes, interleaved twice) with SSE2 psllq/psrlq, which give 0 for amounts
 * >= 64; the scalar remainder (inner index >= floor(n/4)*4) uses x86 shl/shr, which take the amount
 * modulo 64. Observed in pto.jsonl.gz (TSHR/u64/mismatch_src1_smaller). The tile-tile arithmetic
 * right shift (i64 TSHR) is not vectorised (SSE2 has no per-lane 64-bit sar): every element uses
 * `sar` with the amount modulo 64 (differential runs against the CPU simulator, docs/pto-status.md;
 * e.g. -2 >> -11 = -1). The tile-scalar forms only run with amounts in 0..63 (checkScalarShift).
 */
function shift64(ctx: ExecCtx, left: boolean, srcName: string, amountName: string | null): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles[srcName]!;
  const t = amountName ? ctx.tiles[amountName]! : null;
  const A = anyArith(d.dtype, ctx.profile);
  const dv = A.view(d.bytes);
  const sv = A.view(s.bytes);
  const tv = t ? A.view(t.bytes) : null;
  const signed = d.dtype === 'i64';
  const boxed = d.slayout !== 'none';
  const rowInner = d.blayout === 'row';
  const inner = rowInner ? d.validCol : d.validRow;
  const vecEnd = boxed || (signed && !left) ? 0 : Math.floor(inner / 4) * 4;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const a = A.load(sv, off(s, r, c)) as bigint;
      const b = (t && tv ? A.load(tv, off(t, r, c)) : ctx.scalar) as bigint;
      const k = rowInner ? c : r;
      const amount = BigInt.asUintN(64, b);
      let out: bigint;
      if (k < vecEnd && amount >= 64n) out = 0n;
      else if (left) out = a << (amount & 63n);
      else out = a >> (amount & 63n);
      A.store(dv, off(d, r, c), signed ? BigInt.asIntN(64, out) : BigInt.asUintN(64, out));
    }
  }
}

/**
 * 16-bit tile-tile shifts as the optimised reference build computes them. clang vectorises the inner
 * loop 8 elements at a time; the scalar remainder (inner index >= floor(n/8)*8) shifts the promoted
 * int with the amount modulo 32 (x86 shl/sar/shr). In the vector body (SSE2 has no per-lane shift):
 * - `<<` is a 16-bit multiply by 2^amount, the power built in float: bits ((amount & 0x1ff) << 23) +
 *   0x3f800000, truncated to int32 by cvttps2dq (NaN / out of range -> 0x80000000), low 16 bits.
 *   So amounts 16..31 and most others give 0, 0x8000 gives x, 0xdd03 multiplies by -8.
 * - `>>` shifts the promoted 32-bit lanes one count at a time (psrad/psrld take the whole count):
 *   an amount outside 0..31 as an unsigned 32-bit value gives the sign fill (i16) or 0 (u16).
 * Measured on the CPU simulator (clang release build, differential runs; docs/pto-status.md): src0 = -23131,
 * src1 = 40 everywhere in a 2x64 i16 tile of valid width 15: TSHL gives 0 in columns 0..7 and
 * (-23131 << 8) truncated = -23296 in columns 8..14. 8-bit and 32-bit shifts use the amount modulo
 * 32 everywhere.
 */
const P2F = new Float32Array(1);
const P2U = new Uint32Array(P2F.buffer);
/** The 16-bit lane multiplier clang builds for `x << amount` (see shift16). */
function pow2Lane(amount: number): number {
  P2U[0] = ((amount & 0x1ff) << 23) + 0x3f800000;
  const f = P2F[0]!;
  return f > -2147483649 && f < 2147483648 ? Math.trunc(f) & 0xffff : 0;
}

function shift16(ctx: ExecCtx, left: boolean): void {
  const d = ctx.tiles.dst!;
  const s = ctx.tiles.src0!;
  const t = ctx.tiles.src1!;
  const A = anyArith(d.dtype, ctx.profile);
  const dv = A.view(d.bytes);
  const sv = A.view(s.bytes);
  const tv = A.view(t.bytes);
  const signed = d.dtype === 'i16';
  const rowInner = d.blayout === 'row';
  const inner = rowInner ? d.validCol : d.validRow;
  const vecEnd = d.slayout !== 'none' ? 0 : Math.floor(inner / 8) * 8;
  for (let r = 0; r < d.validRow; r++) {
    for (let c = 0; c < d.validCol; c++) {
      const a = A.load(sv, off(s, r, c)) as number;
      const b = A.load(tv, off(t, r, c)) as number;
      let out: number;
      if ((rowInner ? c : r) >= vecEnd) out = (left ? A.shl(a, b) : A.shr(a, b)) as number;
      else if (left) out = Math.imul(a, pow2Lane(b));
      else if ((b & 0xffff) < 16) out = a >> (b & 15);
      else out = signed && a < 0 ? -1 : 0;
      A.store(dv, off(d, r, c), out);
    }
  }
}

const REF = 'pto-isa docs/isa/tile/ops';

/**
 * A scalar shift amount outside 0..31 (0..63 for 64-bit types) is undefined behaviour in C++ after
 * integer promotion, and the optimised reference vectorises the scalar loop (SSE shifts saturate)
 * while its remainder runs x86 scalar code (amount modulo the width): the bytes are not a property
 * of the instruction, so the scalar forms raise UndefinedBehaviour (the tile-tile forms reproduce
 * the reference build, see shift64).
 */
function checkScalarShift(ctx: ExecCtx): void {
  const s = ctx.scalar!;
  const lim = typeof s === 'bigint' ? 64n : 32;
  if (typeof s === 'bigint' ? s < 0n || s >= (lim as bigint) : s < 0 || s >= (lim as number)) {
    throw undefinedBehaviour(
      `${ctx.op.name}: shift amount ${s} is outside 0..${Number(lim) - 1} (undefined in C++)`,
    );
  }
}
/**
 * Every source must have dst's element type: the loops above read all operands through dst's view,
 * and the simulator's templates static_assert one element type (ElementTileOp.h, TBinSOps.hpp).
 * Without this check a mismatch reinterpreted the source bytes (a silently wrong answer) or, for
 * 64-bit dst, crashed inside the BigInt arithmetic.
 */
function sameElementType(ctx: ExecCtx): void {
  const d = ctx.tiles.dst!.dtype;
  for (const n of ['src', 'src0', 'src1']) {
    const t = ctx.tiles[n];
    if (t && t.dtype !== d)
      reject(ctx.op.name, d, `${n} (${t.dtype}) must have dst's element type`, ctx.profile);
  }
}
const T3: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true },
  { name: 'src0', kind: 'tile' },
  { name: 'src1', kind: 'tile' },
];
const T3TMP: readonly OperandSpec[] = [...T3, { name: 'tmp', kind: 'tile', scratch: true, optional: true }];
const TS: readonly OperandSpec[] = [
  { name: 'dst', kind: 'tile', out: true },
  { name: 'src', kind: 'tile' },
];
const TSTMP: readonly OperandSpec[] = [...TS, { name: 'tmp', kind: 'tile', scratch: true, optional: true }];
const SCALAR = [{ name: 'scalar', kind: 'scalar' as const }];
const ints = per(INTS, { a2a3: ['i16', 'i32', 'u16', 'u32'], a5: ['i8', 'i16', 'i32', 'u8', 'u16', 'u32'] });

type F = Parameters<typeof binaryLoop>[3];
function tt(name: string, sym: string, f: F, tmp = false): OpDef {
  return {
    name,
    family: 'bitwise',
    summary: `dst = src0 ${sym} src1`,
    ref: `${REF}/elementwise-tile-tile/${name.toLowerCase()}.md`,
    operands: tmp ? T3TMP : T3,
    attrs: [],
    dtypes: ints,
    check: sameElementType,
    exec:
      name === 'TSHL' || name === 'TSHR'
        ? (ctx) =>
            anyArith(ctx.tiles.dst!.dtype).big
              ? shift64(ctx, name === 'TSHL', 'src0', 'src1')
              : DTYPE_INFO[ctx.tiles.dst!.dtype].bytes === 2
                ? shift16(ctx, name === 'TSHL')
                : binaryLoop(ctx, 'src0', 'src1', f)
        : (ctx) => binaryLoop(ctx, 'src0', 'src1', f),
  };
}
function ts(name: string, sym: string, f: F, tmp = false): OpDef {
  return {
    name,
    family: 'bitwise',
    summary: `dst = src ${sym} scalar`,
    ref: `${REF}/elementwise-tile-scalar/${name.toLowerCase()}.md`,
    operands: tmp ? TSTMP : TS,
    attrs: SCALAR,
    dtypes: ints,
    check: sameElementType,
    exec: (ctx) => {
      if (name === 'TSHLS' || name === 'TSHRS') checkScalarShift(ctx);
      if ((name === 'TSHLS' || name === 'TSHRS') && anyArith(ctx.tiles.dst!.dtype).big) {
        shift64(ctx, name === 'TSHLS', 'src', null);
        return;
      }
      const s = ctx.scalar;
      unaryLoop(ctx, 'src', (A, a) => f(A, a, s));
    },
  };
}

export const BITWISE_OPS: readonly OpDef[] = [
  tt('TAND', '&', (A, a, b) => A.and(a, b)),
  tt('TOR', '|', (A, a, b) => A.or(a, b)),
  tt('TXOR', '^', (A, a, b) => A.xor(a, b), true),
  tt('TSHL', '<<', (A, a, b) => A.shl(a, b)),
  tt('TSHR', '>>', (A, a, b) => A.shr(a, b)),
  {
    name: 'TNOT',
    family: 'bitwise',
    summary: 'dst = ~src',
    ref: `${REF}/elementwise-tile-tile/tnot.md`,
    operands: TS,
    attrs: [],
    dtypes: ints,
    check: sameElementType,
    exec: (ctx) => unaryLoop(ctx, 'src', (A, a) => A.not(a)),
  },
  ts('TANDS', '&', (A, a, b) => A.and(a, b)),
  ts('TORS', '|', (A, a, b) => A.or(a, b)),
  ts('TXORS', '^', (A, a, b) => A.xor(a, b), true),
  ts('TSHLS', '<<', (A, a, b) => A.shl(a, b)),
  ts('TSHRS', '>>', (A, a, b) => A.shr(a, b)),
];
