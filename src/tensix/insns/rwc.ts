/**
 * Issue-side instructions SFPU kernels use to address Dst: SETRWC, INCRWC (tt-isa-documentation
 * WormholeB0 SETRWC.md, INCRWC.md, RWCs.md) and SETC16, which writes the thread configuration that
 * holds the ADDR_MOD slots (SETC16.md; LLK's addr_mod_t::set() uses it), and RMWCIB, which writes the
 * configuration the SFPU reads (RMWCIB.md).
 */
import { undefinedBehaviour } from '../../errors.ts';
import type { TensixState } from '../state.ts';

/**
 * SETRWC: bit_mask (0 SrcA, 1 SrcB, 2 Dst, 3 FidelityPhase clear); rwc_cr (0 SrcACr, 1 SrcBCr,
 * 2 DstCr, 3 DstCtoCr). clear_ab_vld flips the SrcA/SrcB banks, which axsim does not model (no SFPU
 * effect).
 */
export function setrwc(st: TensixState, bitMask: number, cr: number, a: number, b: number, d: number): void {
  if (bitMask & 1) {
    const v = cr & 1 ? (a + st.rwcSrcACr) & 63 : a;
    st.rwcSrcA = st.rwcSrcACr = v;
  }
  if (bitMask & 2) {
    const v = cr & 2 ? (b + st.rwcSrcBCr) & 63 : b;
    st.rwcSrcB = st.rwcSrcBCr = v;
  }
  if (bitMask & 4 || cr & 8) {
    let v = d;
    if (cr & 8) v += st.rwcDst;
    else if (cr & 4) v += st.rwcDstCr;
    st.rwcDst = st.rwcDstCr = v & 1023;
  }
  if (bitMask & 8) st.fidelityPhase = 0;
}

/** INCRWC: add to SrcA/SrcB/Dst, each either directly or through its Cr counter (rwc_cr bits 0..2). */
export function incrwc(st: TensixState, cr: number, a: number, b: number, d: number): void {
  if (cr & 1) st.rwcSrcA = st.rwcSrcACr = (st.rwcSrcACr + a) & 63;
  else st.rwcSrcA = (st.rwcSrcA + a) & 63;
  if (cr & 2) st.rwcSrcB = st.rwcSrcBCr = (st.rwcSrcBCr + b) & 63;
  else st.rwcSrcB = (st.rwcSrcB + b) & 63;
  if (cr & 4) st.rwcDst = st.rwcDstCr = (st.rwcDstCr + d) & 1023;
  else st.rwcDst = (st.rwcDst + d) & 1023;
}

export function setc16(st: TensixState, reg: number, value: number): void {
  if (reg >= st.params.threadCfgSize) {
    throw undefinedBehaviour(
      `SETC16 register index ${reg} is beyond the ${st.params.threadCfgSize} thread registers`,
      {
        hint: 'SETC16.md: CfgIndex >= THD_STATE_SIZE is undefined behaviour',
      },
    );
  }
  st.threadCfg[reg] = value & 0xffff;
}

/** RMWCIB{byte}: read-modify-write one byte of a configuration register in the current bank (RMWCIB.md). */
export function rmwcib(st: TensixState, byte: number, reg: number, data: number, mask: number): void {
  if (reg >= st.params.cfgSize) {
    throw undefinedBehaviour(
      `RMWCIB${byte} register index ${reg} is beyond the configuration space (${st.params.cfgSize} registers)`,
    );
  }
  const k = st.cfgIndex(reg);
  const m = (mask & 0xff) << (8 * byte);
  st.cfg[k] = (st.cfg[k]! & ~m) | (((data & 0xff) << (8 * byte)) & m);
}
