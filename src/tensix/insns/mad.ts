/**
 * The MAD-unit family: SFPMAD, SFPADD, SFPMUL (all "as per SFPMAD"), SFPMULI, SFPADDI, SFPLUT and
 * SFPLUTFP32 (tt-isa-documentation WormholeB0 SFPMAD.md, SFPMULI.md, SFPADDI.md, SFPLUT.md,
 * SFPLUTFP32.md; BlackholeA0 pages for the negation bits). Arithmetic is `fma.ts` (one MAD routine,
 * the generation a parameter).
 *
 * ttsim requires SFPADD to have VA or VB = LReg[10] (1.0) and SFPMUL to have VC = LReg[9] (0.0), and
 * then computes exactly the MAD with those operands; the documents define both as SFPMAD, so axsim
 * runs them as SFPMAD for any operands. Blackhole's Mod1 bit 0 negates the product (ttsim flips A,
 * the document flips B: the same product) and bit 1 negates C.
 */
import { fmaBh, fmaWh, madLanes } from '../fma.ts';
import { IMM_ROW, LANES, type TensixState } from '../state.ts';

export type Fma = (a: number, b: number, c: number) => number;
export function fmaFor(st: TensixState): Fma {
  return st.arch === 'wormhole' ? fmaWh : fmaBh;
}

/** VD = VA*VB + VC (neg: bit 0 negates the product, bit 1 negates C; Blackhole only). */
export function sfpmad(
  st: TensixState,
  mask: number,
  vd: number,
  va: number,
  vb: number,
  vc: number,
  neg: number,
): void {
  const L = st.lreg;
  const A = va * LANES;
  const B = vb * LANES;
  const C = vc * LANES;
  const D = vd * LANES;
  madLanes(L, mask, A, 1, B, 1, C, 1, D, st.arch === 'wormhole' ? 0 : neg, st.arch);
}

/**
 * The general form with SFPMAD_MOD1_INDIRECT_VA (4: VA = LReg[7] & 15 per lane) and
 * SFPMAD_MOD1_INDIRECT_VD (8: VD = LReg[7] & 15 per lane unless VD is 16); writes only to VD < 8 or 16.
 * `kind`: 0 = SFPMAD (a=LReg[VA], c=LReg[VC]), 1 = SFPMULI (a=imm, b=LReg[VD], c=0),
 * 2 = SFPADDI (a=imm, b=1.0, c=LReg[VD]).
 */
export function sfpmadGeneral(
  st: TensixState,
  mask: number,
  kind: number,
  vd: number,
  va: number,
  vb: number,
  vc: number,
  mod1: number,
  imm: number,
): void {
  const L = st.lreg;
  const fma = fmaFor(st);
  const bh = st.arch === 'blackhole';
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    let a: number;
    let b: number;
    let c: number;
    if (kind === 0) {
      const ra = mod1 & 4 ? L[7 * LANES + l]! & 15 : va;
      a = L[ra * LANES + l]!;
      b = L[vb * LANES + l]!;
      c = L[vc * LANES + l]!;
      if (bh && mod1 & 1) a ^= 0x80000000;
      if (bh && mod1 & 2) c ^= 0x80000000;
    } else if (kind === 1) {
      // SFPMULI: d = imm * c + 0 with c = LReg[VD] (BH bit 1 negates c)
      a = imm;
      b = L[vd * LANES + l]!;
      if (bh && mod1 & 2) b ^= 0x80000000;
      c = 0;
    } else {
      // SFPADDI: d = imm * 1 + c with c = LReg[VD] (BH bit 1 negates c)
      a = imm;
      b = 0x3f800000;
      c = L[vd * LANES + l]!;
      if (bh && mod1 & 2) c ^= 0x80000000;
    }
    const r = fma(a, b, c);
    const t = mod1 & 8 && vd !== 16 ? L[7 * LANES + l]! & 15 : vd;
    if (t < 8 || t === 16) L[t * LANES + l] = r;
  }
}

/**
 * VD = imm * LReg[b] + LReg[c], each of b and c either VD itself (stride 1) or a constant register
 * broadcast (stride 0). The immediate sits in the scratch row (state.ts IMM_ROW).
 */
function madImmediate(st: TensixState, mask: number, vd: number, imm: number, b: number, c: number): void {
  const L = st.lreg;
  const I = IMM_ROW * LANES;
  L[I] = imm;
  madLanes(L, mask, I, 0, b * LANES, b === vd ? 1 : 0, c * LANES, c === vd ? 1 : 0, vd * LANES, 0, st.arch);
}

/** SFPMULI: VD = bf16(imm16) * VD + 0 (LReg[9]). */
export function sfpmuli(st: TensixState, mask: number, vd: number, imm: number): void {
  madImmediate(st, mask, vd, imm, vd, 9);
}

/** SFPADDI: VD = bf16(imm16) * 1.0 (LReg[10]) + VD. */
export function sfpaddi(st: TensixState, mask: number, vd: number, imm: number): void {
  madImmediate(st, mask, vd, imm, 10, vd);
}

/** Lut8ToFp32 (SFPLUT.md): sign, 3-bit exponent below 127, 4-bit mantissa; 0xff is zero. */
export function lut8ToFp32(x: number): number {
  if (x === 0xff) return 0;
  return (((x >>> 7) << 31) | ((127 - ((x >>> 4) & 7)) << 23) | ((x & 15) << 19)) >>> 0;
}

/** Lut16ToFp32 (SFPLUTFP32.md): FP16-like, but exponent 31 means zero and there are no denormals. */
export function lut16ToFp32(x: number): number {
  const e = (x >>> 10) & 31;
  return (((x >>> 15) << 31) | ((e === 31 ? 0 : 112 + e) << 23) | ((x & 0x3ff) << 13)) >>> 0;
}

/**
 * SFPLUT: b = |L3|; coefficients from L0 (b < 1), L1 (b < 2) or L2; VD = a*b + c, with Mod0 bit 2
 * (SGN_RETAIN) copying L3's sign and bit 3 (INDIRECT_VD) taking VD from L7.
 */
export function sfplut(st: TensixState, mask: number, vd: number, mod0: number): void {
  const L = st.lreg;
  const fma = fmaFor(st);
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const l3 = L[3 * LANES + l]!;
    const b = l3 & 0x7fffffff;
    const coeffs = b < 0x3f800000 ? L[l]! : b < 0x40000000 ? L[LANES + l]! : L[2 * LANES + l]!;
    let d = fma(lut8ToFp32((coeffs >>> 8) & 0xff), b, lut8ToFp32(coeffs & 0xff));
    if (mod0 & 4) d = ((d & 0x7fffffff) | (l3 & 0x80000000)) >>> 0;
    const t = mod0 & 8 && vd !== 16 ? L[7 * LANES + l]! & 15 : vd;
    if (t < 8 || t === 16) L[t * LANES + l] = d;
  }
}

/**
 * SFPLUTFP32: b = |L3|, i = 0/1/2 for b < 1, < 2, otherwise. Mod1 & 2: FP16 tables — with
 * (Mod1 & 10) == 10 a 3-entry table (a, c = the halves of LReg[i]), otherwise a 6-entry table split
 * at 0.5, 1, 1.5, 2 and 3 (or 4 when (Mod1 & 3) == 3), a from LReg[i], c from LReg[4+i].
 * Without bit 1: FP32 a = LReg[i], c = LReg[4+i]. Bit 2 copies L3's sign, bit 3 = INDIRECT_VD.
 * (The WH page writes the 3-entry test as `Mod1 & 10`, which inside `Mod1 & 2` is always true; the
 * BH page and ttsim's mod1=2 behaviour show the intended `== 10`.)
 */
export function sfplutfp32(st: TensixState, mask: number, vd: number, mod1: number): void {
  const L = st.lreg;
  const fma = fmaFor(st);
  const cut = (mod1 & 3) === 3 ? 0x40800000 : 0x40400000;
  for (let l = 0; l < LANES; l++) {
    if (!((mask >>> l) & 1)) continue;
    const l3 = L[3 * LANES + l]!;
    const b = l3 & 0x7fffffff;
    const i = b < 0x3f800000 ? 0 : b < 0x40000000 ? 1 : 2;
    let a: number;
    let c: number;
    if (mod1 & 2) {
      if ((mod1 & 10) === 10) {
        const v = L[i * LANES + l]!;
        a = lut16ToFp32(v >>> 16);
        c = lut16ToFp32(v & 0xffff);
      } else {
        const j =
          b < 0x3f000000
            ? 0
            : b < 0x3f800000
              ? 16
              : b < 0x3fc00000
                ? 0
                : b < 0x40000000
                  ? 16
                  : b < cut
                    ? 0
                    : 16;
        a = lut16ToFp32((L[i * LANES + l]! >>> j) & 0xffff);
        c = lut16ToFp32((L[(4 + i) * LANES + l]! >>> j) & 0xffff);
      }
    } else {
      a = L[i * LANES + l]!;
      c = L[(4 + i) * LANES + l]!;
    }
    let d = fma(a, b, c);
    if (mod1 & 4) d = ((d & 0x7fffffff) | (l3 & 0x80000000)) >>> 0;
    const t = mod1 & 8 && vd !== 16 ? L[7 * LANES + l]! & 15 : vd;
    if (t < 8 || t === 16) L[t * LANES + l] = d;
  }
}
