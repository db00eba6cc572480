/**
 * Cross-lane movement: SFPTRANSP and SFPSHFT2 (tt-isa-documentation WormholeB0/BlackholeA0
 * SFPTRANSP.md, SFPSHFT2.md; spec 000 for SFPTRANSP).
 *
 * SFPTRANSP transposes, within each of the 8 columns of the 4x8 lane grid, the 4x4 block formed by
 * LReg[0..3] (and separately LReg[4..7]) x grid rows 0..3: LReg[i][8j + col] <-> LReg[j][8i + col].
 *
 * SFPSHFT2 SUBVEC_SHFLSHR1 (Mod1 4) on Wormhole has a hardware bug: lane 8k receives lane 8k+7 of the
 * VC value seen by the most recent SHFLROR1 / SHFLROR1_AND_COPY4 (Mod1 3 / 2) with VD < 12, instead
 * of 0; `st.shflVc0` keeps that hidden value. Blackhole writes 0 as intended.
 */
import { LANES, type TensixState } from '../state.ts';

export function sfptransp(st: TensixState, mask: number): void {
  const L = st.lreg;
  for (let base = 0; base < 8; base += 4) {
    for (let col = 0; col < 8; col++) {
      for (let i = 1; i < 4; i++) {
        for (let j = 0; j < i; j++) {
          const a = (base + i) * LANES + j * 8 + col; // LReg[base+i][j*8+col]
          const b = (base + j) * LANES + i * 8 + col; // LReg[base+j][i*8+col]
          const ij = L[a]!;
          const ji = L[b]!;
          if ((mask >>> (j * 8 + col)) & 1) L[a] = ji;
          if ((mask >>> (i * 8 + col)) & 1) L[b] = ij;
        }
      }
    }
  }
}

const tmp = new Uint32Array(LANES);

function rotateRight8(src: Uint32Array, srcBase: number, out: Uint32Array): void {
  for (let l = 0; l < LANES; l++) out[l] = l & 7 ? src[srcBase + l - 1]! : src[srcBase + l + 7]!;
}

/** SFPSHFT2. `vb` is the VB register of Mod1 5 (or 6, from the immediate), `imm` the signed imm12 of Mod1 6. */
export function sfpshft2(
  st: TensixState,
  mask: number,
  vd: number,
  vc: number,
  vb: number,
  mod1: number,
  imm: number,
): void {
  const L = st.lreg;
  switch (mod1) {
    case 0: // COPY4
      for (let l = 0; l < LANES; l++) {
        if (!((mask >>> l) & 1)) continue;
        L[l] = L[LANES + l]!;
        L[LANES + l] = L[2 * LANES + l]!;
        L[2 * LANES + l] = L[3 * LANES + l]!;
        L[3 * LANES + l] = 0;
      }
      return;
    case 1: {
      // SUBVEC_CHAINED_COPY4
      tmp.set(L.subarray(0, LANES));
      for (let l = 0; l < LANES; l++) {
        if (!((mask >>> l) & 1)) continue;
        L[l] = L[LANES + l]!;
        L[LANES + l] = L[2 * LANES + l]!;
        L[2 * LANES + l] = L[3 * LANES + l]!;
        L[3 * LANES + l] = l < 24 ? tmp[l + 8]! : 0;
      }
      return;
    }
    case 2: {
      // SUBVEC_SHFLROR1_AND_COPY4
      st.shflVc0.set(L.subarray(vc * LANES, vc * LANES + LANES));
      rotateRight8(L, vc * LANES, tmp);
      for (let l = 0; l < LANES; l++) {
        if (!((mask >>> l) & 1)) continue;
        L[l] = L[LANES + l]!;
        L[LANES + l] = L[2 * LANES + l]!;
        L[2 * LANES + l] = L[3 * LANES + l]!;
        L[3 * LANES + l] = tmp[l]!;
      }
      return;
    }
    case 3: {
      // SUBVEC_SHFLROR1
      st.shflVc0.set(L.subarray(vc * LANES, vc * LANES + LANES));
      rotateRight8(L, vc * LANES, tmp);
      for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[vd * LANES + l] = tmp[l]!;
      return;
    }
    case 4: {
      // SUBVEC_SHFLSHR1
      const wh = st.arch === 'wormhole';
      for (let l = 0; l < LANES; l++) tmp[l] = l & 7 ? L[vc * LANES + l - 1]! : wh ? st.shflVc0[l + 7]! : 0;
      for (let l = 0; l < LANES; l++) if ((mask >>> l) & 1) L[vd * LANES + l] = tmp[l]!;
      return;
    }
    default: {
      // 5: SHFT_LREG (amount from VC), 6: SHFT_IMM (amount from imm12)
      for (let l = 0; l < LANES; l++) {
        if (!((mask >>> l) & 1)) continue;
        const x = L[vb * LANES + l]!;
        const amt = mod1 === 5 ? L[vc * LANES + l]! | 0 : imm;
        L[vd * LANES + l] = amt >= 0 ? x << (amt & 31) : x >>> ((32 - (amt & 31)) & 31);
      }
    }
  }
}
