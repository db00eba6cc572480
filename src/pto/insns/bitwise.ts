/**
 * Bitwise and shift ops, tile-tile and tile-scalar: TAND TOR TXOR TNOT TSHL TSHR, TANDS TORS TXORS
 * TSHLS TSHRS. Integer types only (the simulator's C++ is ill-formed for float and fp8 operands).
 * Shifts follow C++ after integer promotion: 8/16-bit values shift as 32-bit ints (a shift by >= their
 * width gives 0), 32/64-bit shifts by >= the width or by a negative amount are undefined.
 */
import { INTS, type OpDef, type OperandSpec, per } from '../op.ts';
import { binaryLoop, unaryLoop } from './kernels.ts';

const REF = 'pto-isa docs/isa/tile/ops';
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
    exec: (ctx) => binaryLoop(ctx, 'src0', 'src1', f),
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
    exec: (ctx) => {
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
    exec: (ctx) => unaryLoop(ctx, 'src', (A, a) => A.not(a)),
  },
  ts('TANDS', '&', (A, a, b) => A.and(a, b)),
  ts('TORS', '|', (A, a, b) => A.or(a, b)),
  ts('TXORS', '^', (A, a, b) => A.xor(a, b), true),
  ts('TSHLS', '<<', (A, a, b) => A.shl(a, b)),
  ts('TSHRS', '>>', (A, a, b) => A.shr(a, b)),
];
