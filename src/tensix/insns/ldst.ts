/**
 * SFPLOAD, SFPSTORE (and the SFPLOAD part of SFPLOADMACRO): move 32 datums between Dst and an LReg,
 * then apply an ADDR_MOD to the RWCs.
 *
 * Follows tt-isa-documentation WormholeB0 SFPLOAD.md / SFPSTORE.md and the BlackholeA0 pages, with
 * ttsim's choices where it and the documents differ (SFPU-NOTES.md A2: storing FP32 flushes
 * denormals; C3: on Blackhole MOD0_FMT_INT32_SM does no conversion). Modes ttsim refuses (FP16
 * requested explicitly, INT8, INT16, HI16, LO16, INT32_ALL, ZERO, INT8_COMP) and odd addresses
 * follow the documents (the low address bit is unused), per generation (Blackhole's INT8 modes and
 * SFPU stack pointer). See docs/tensix.md.
 */
import { adjRow, bf16Shuffle, bf16Unshuffle, fp16Shuffle, fp16Unshuffle, fp32Shuffle } from '../dst.ts';
import { LANES, LC, type TensixState } from '../state.ts';

export const MOD0 = {
  SRCB: 0,
  FP16: 1,
  BF16: 2,
  FP32: 3,
  INT32: 4,
  INT8: 5,
  UINT16: 6,
  HI16: 7,
  INT16: 8,
  LO16: 9,
  INT32_ALL: 10,
  ZERO: 11,
  INT32_SM: 12,
  INT8_COMP: 13,
  LO16_ONLY: 14,
  HI16_ONLY: 15,
} as const;

/**
 * MOD0_FMT_SRCB resolved from the configuration (SFPLOAD.md): FP32 when the SFPU works in FP32,
 * otherwise BF16 for SrcB formats FP32, TF32, BF16, BFP8_B, BFP4_B, BFP2_B, INT32, INT16 and FP16 for
 * the rest. ttsim accepts only 0/5/6/7/9 (and 15 for stores) -> BF16 and 1 -> FP16; on those they agree.
 */
export function resolveSrcB(st: TensixState): number {
  if (st.sfpuFp32) return MOD0.FP32;
  switch (st.srcBFormat) {
    case 0:
    case 4:
    case 5:
    case 6:
    case 7:
    case 8:
    case 9:
    case 15:
      return MOD0.BF16;
    default:
      return MOD0.FP16;
  }
}

function signMagToTwos(x: number): number {
  return x & 0x80000000 ? -(x & 0x7fffffff) >>> 0 : x >>> 0;
}
function twosToSignMag(x: number): number {
  return x & 0x80000000 ? (0x80000000 | (-x & 0x7fffffff)) >>> 0 : x >>> 0;
}

/**
 * Dst row address of the transfer (before per-lane row/column): Imm10 + MATH_Offset plus the Dst
 * RWC and DEST_REGW_BASE; MOD0_FMT_INT32_ALL uses only their low 2 bits and, on Blackhole, the
 * SFPU stack pointer (RWCs.Sp + DEST_SP_BASE), which a load pre-decrements and a store
 * post-increments by SFPU_STACK_Incr (BlackholeA0 SFPLOAD.md / SFPSTORE.md).
 */
function transferAddr(st: TensixState, imm10: number, mod0: number, store: boolean): number {
  const p = st.params;
  const dstOff = st.rwcDst + (st.cfg[st.cfgIndex(p.destRegwBase)]! & 0xffff);
  let addr = imm10 + st.dstMathOffset;
  if (p.destSpBase < 0) {
    addr += mod0 === MOD0.INT32_ALL ? dstOff & 3 : dstOff;
  } else {
    const incr = st.threadCfg[p.sfpuStackIncr]! & 1023;
    if (mod0 === MOD0.INT32_ALL) {
      if (!store && st.rwcSp !== 0) st.rwcSp = (st.rwcSp - incr) & 1023;
      addr += st.rwcSp + (st.cfg[st.cfgIndex(p.destSpBase)]! & 0xffff) + (dstOff & 3);
      if (store) st.rwcSp = (st.rwcSp + incr) & 1023;
    } else {
      addr += dstOff + ((st.rwcSp + st.cfg[st.cfgIndex(p.destSpBase)]!) & 3);
    }
  }
  return addr & 1023;
}

const LOAD = 0;
const STORE = 1;
const STORE_FLUSH = 2;

/**
 * The fast path of a 32-bit SFPLOAD/SFPSTORE with all lanes enabled and no LaneConfig: lane
 * 8g + c is the Dst32b cell at row (Addr & ~3) + g, column 2c + ((Addr >> 1) & 1). The four rows of
 * an aligned group map to consecutive DstBits rows (AdjRow(r + k) = AdjRow(r) + k for r a multiple
 * of 4), high halves 128 cells before the low halves. `dir`: LOAD, STORE, or STORE_FLUSH (FP32:
 * denormals become signed zero).
 */
function transfer32AllLanes(st: TensixState, vd: number, addr: number, dir: number): void {
  const L = st.lreg;
  const dst = st.dst;
  const base = vd * LANES;
  const first = adjRow(addr & ~3) * 16 + ((addr >> 1) & 1);
  for (let g = 0; g < 4; g++) {
    const row = first + g * 16;
    for (let c = 0; c < 8; c++) {
      const a = row + 2 * c;
      const l = base + g * 8 + c;
      if (dir === LOAD) {
        const x = dst[a]!;
        L[l] = ((x & 0x8000) << 16) | ((x & 0xff) << 23) | ((x & 0x7f00) << 8) | dst[a + 128]!;
      } else {
        let d = L[l]!;
        if (dir === STORE_FLUSH && !(d & 0x7f800000)) d &= 0x80000000;
        dst[a] = ((d >>> 16) & 0x8000) | ((d & 0x7f0000) >>> 8) | ((d >>> 23) & 0xff);
        dst[a + 128] = d & 0xffff;
      }
    }
  }
}

/**
 * The first step of every SFPLOAD/SFPSTORE for the formats other than SRCB and INT32_ALL: the
 * transfer address, recorded as the last Dst access. The compiled path (jit.ts) calls it before
 * its written-out 32-bit all-lanes transfer (the code of {@link transfer32AllLanes}), then
 * {@link applyPartialAddrMod}: the same steps as `sfpload` / `sfpstore` take on their fast path.
 */
export function transferStart(st: TensixState, imm10: number, mod0: number, store: boolean): number {
  const addr = transferAddr(st, imm10, mod0, store);
  st.lastDstAddr = addr;
  st.lastDstStore = store ? 1 : 0;
  return addr;
}

/**
 * SFPLOAD: LReg[vd] <- Dst at (imm10 + RWC), format mod0; then ADDR_MOD `addrMod`.
 * `vd` >= 8 performs no LReg write (the address mode still applies).
 */
export function sfpload(
  st: TensixState,
  mask: number,
  vd: number,
  mod0: number,
  addrMod: number,
  imm10: number,
): void {
  if (mod0 === MOD0.SRCB) mod0 = resolveSrcB(st);
  const addr = transferAddr(st, imm10, mod0, false);
  st.lastDstAddr = addr;
  st.lastDstStore = 0;
  const lc = st.laneConfig;
  if (vd < 8 && mask === -1 && lc === 0 && (mod0 === MOD0.FP32 || mod0 === MOD0.INT32)) {
    transfer32AllLanes(st, vd, addr, LOAD);
    applyPartialAddrMod(st, addrMod);
    return;
  }
  if (vd < 8 && !(lc & LC.BLOCK_SFPU_RD_FROM_DEST)) {
    const L = st.lreg;
    const dst = st.dst;
    const base = vd * LANES;
    const rowBase = addr & ~3;
    const colOdd = (addr >> 1) & 1 || lc & LC.DEST_RD_COL_EXCHANGE ? 1 : 0;
    if (mod0 === MOD0.INT32_ALL) mask = st.groupLanes; // every lane (of the group), enabled or not
    const wh = st.arch === 'wormhole';
    for (let l = 0; l < LANES; l++) {
      if (!((mask >>> l) & 1)) continue;
      const row = rowBase + (l >> 3);
      const col = 2 * (l & 7) + colOdd;
      let v: number;
      if (mod0 === MOD0.FP32 || mod0 === MOD0.INT32 || mod0 === MOD0.INT32_ALL || mod0 === MOD0.INT32_SM) {
        const a = adjRow(row) * 16 + col;
        v = ((bf16Unshuffle(dst[a]!) << 16) | dst[a + 128]!) >>> 0;
        if (mod0 === MOD0.INT32_SM && wh) v = signMagToTwos(v);
      } else {
        // Dst16b[Row]: DstBits[Row], or with DBG_FEATURE_DISABLE bit 11 the high half of Dst32b[Row]
        const x = dst[(st.dst16bHigh ? adjRow(row) : row) * 16 + col]!;
        switch (mod0) {
          case MOD0.FP16: {
            const h = fp16Unshuffle(x);
            const s = h >>> 15;
            let e = (h >>> 10) & 31;
            let m = h & 0x3ff;
            if (lc & LC.ENABLE_FP16A_INF && e === 31 && m === 0x3ff) {
              e = 255;
              m = 0;
            } else if (e !== 0) e += 112;
            v = ((s << 31) | (e << 23) | (m << 13)) >>> 0;
            break;
          }
          case MOD0.BF16:
            v = (bf16Unshuffle(x) << 16) >>> 0;
            break;
          case MOD0.INT8: // WH: 7-bit magnitude; BH: 8-bit (SignMag9ToSignMag32)
            v = (((x >>> 15) << 31) | ((x >>> 5) & (wh ? 0x7f : 0xff))) >>> 0;
            break;
          case MOD0.UINT16:
          case MOD0.LO16:
            v = x;
            break;
          case MOD0.HI16:
            v = (x << 16) >>> 0;
            break;
          case MOD0.INT16:
            v = (((x >>> 15) << 31) | (x & 0x7fff)) >>> 0;
            break;
          case MOD0.ZERO:
            v = 0;
            break;
          case MOD0.INT8_COMP: {
            // WH converts to two's complement; BH (deprecated mode) does not
            const sm = (((x >>> 15) << 31) | ((x >>> 5) & 0x3ff)) >>> 0;
            v = wh ? signMagToTwos(sm) : sm;
            break;
          }
          case MOD0.LO16_ONLY:
            v = ((L[base + l]! & 0xffff0000) | x) >>> 0;
            break;
          default: // MOD0.HI16_ONLY
            v = ((x << 16) | (L[base + l]! & 0xffff)) >>> 0;
            break;
        }
      }
      L[base + l] = v;
      if (vd < 4 && lc & LC.ENABLE_DEST_INDEX && lc & LC.CAPTURE_DEFAULT_DEST_INDEX) {
        L[(vd + 4) * LANES + l] = (row << 4) | col;
      }
    }
  }
  applyPartialAddrMod(st, addrMod);
}

/**
 * SFPSTORE: Dst at (imm10 + RWC) <- LReg[vd] in format mod0; then ADDR_MOD `addrMod`.
 * `vd` may be 0..16 (constants are readable; 16 only from SFPLOADMACRO).
 */
export function sfpstore(
  st: TensixState,
  mask: number,
  vd: number,
  mod0: number,
  addrMod: number,
  imm10: number,
): void {
  if (mod0 === MOD0.SRCB) mod0 = resolveSrcB(st);
  const addr = transferAddr(st, imm10, mod0, true);
  st.lastDstAddr = addr;
  st.lastDstStore = 1;
  const lc = st.laneConfig;
  if (mask === -1 && lc === 0 && (mod0 === MOD0.FP32 || mod0 === MOD0.INT32)) {
    // FP32 flushes denormals to signed zero, INT32 stores the bits.
    transfer32AllLanes(st, vd, addr, mod0 === MOD0.FP32 ? STORE_FLUSH : STORE);
    applyPartialAddrMod(st, addrMod);
    return;
  }
  if (!(lc & LC.BLOCK_DEST_WR_FROM_SFPU)) {
    const L = st.lreg;
    const dst = st.dst;
    const base = vd * LANES;
    const rowBase = addr & ~3;
    const colOdd = (addr >> 1) & 1 || lc & LC.DEST_WR_COL_EXCHANGE ? 1 : 0;
    if (mod0 === MOD0.INT32_ALL) mask = st.groupLanes; // every lane (of the group), enabled or not
    const wh = st.arch === 'wormhole';
    for (let l = 0; l < LANES; l++) {
      if (!((mask >>> l) & 1)) continue;
      const row = rowBase + (l >> 3);
      const col = 2 * (l & 7) + colOdd;
      const d = L[base + l]!;
      let w32 = -1;
      let w16 = -1;
      switch (mod0) {
        case MOD0.FP16: {
          // ToFP16: flush below 2^-14 to signed zero, saturate above 65504-ish to the max pattern.
          const s = d >>> 31;
          let e = ((d >>> 23) & 0xff) - 112;
          let m = d & 0x7fffff;
          if (e <= 0) {
            e = 0;
            m = 0;
          } else if (e > 31) {
            e = 31;
            m = 0x7fffff;
          }
          w16 = fp16Shuffle((s << 15) | (e << 10) | (m >>> 13));
          break;
        }
        case MOD0.BF16:
          w16 = bf16Shuffle((d & 0x7f800000 ? d : d & 0x80000000) >>> 16);
          break;
        case MOD0.FP32:
          w32 = fp32Shuffle(d & 0x7f800000 ? d : d & 0x80000000);
          break;
        case MOD0.INT32:
        case MOD0.INT32_ALL:
          w32 = fp32Shuffle(d);
          break;
        case MOD0.INT32_SM:
          w32 = fp32Shuffle(wh ? twosToSignMag(d) : d);
          break;
        case MOD0.INT8:
          w16 = fp16Shuffle(((d >>> 31) << 15) | (16 << 10) | (d & 0x3ff));
          break;
        case MOD0.INT8_COMP: {
          const sm = wh ? twosToSignMag(d) : d; // BH: no conversion (deprecated mode)
          w16 = fp16Shuffle(((sm >>> 31) << 15) | (16 << 10) | (sm & 0x3ff));
          break;
        }
        case MOD0.LO16_ONLY:
        case MOD0.UINT16:
          w16 = d & 0xffff;
          break;
        case MOD0.HI16_ONLY:
          w16 = d >>> 16;
          break;
        case MOD0.INT16:
          w16 = ((d >>> 31) << 15) | (d & 0x7fff);
          break;
        case MOD0.LO16:
          w32 = ((d << 16) | (d >>> 16)) >>> 0;
          break;
        case MOD0.HI16:
          w32 = d;
          break;
        default: // MOD0.ZERO
          w16 = 0;
          break;
      }
      if (w16 >= 0) {
        if (st.dst16bHigh) {
          // the high half of Dst32b[Row]; the documents make the low half an UnpredictableValue:
          // axsim writes 0 there (docs/tensix.md)
          const a = adjRow(row) * 16 + col;
          dst[a] = w16;
          dst[a + 128] = 0;
        } else dst[row * 16 + col] = w16;
      } else {
        const a = adjRow(row) * 16 + col;
        dst[a] = w32 >>> 16;
        dst[a + 128] = w32 & 0xffff;
      }
    }
  }
  applyPartialAddrMod(st, addrMod);
}

/**
 * ApplyPartialAddrMod (RWCs.md): advance the Dst/SrcA/SrcB RWCs by ADDR_MOD slot `addrMod`
 * (WH: 2 bits, +4 when ExtraAddrModBit or ADDR_MOD_SET_Base; BH: 3 bits), not FidelityPhase.
 * Priority within Dst follows the document: Clear, then CToCR, then CR (ttsim refuses
 * Clear+CToCR and CR+CToCR; where it accepts a combination the two agree).
 */
export function applyPartialAddrMod(st: TensixState, addrMod: number): void {
  applyAddrMod(st, addrMod, false);
}

export function applyAddrMod(st: TensixState, addrMod: number, updateFidelity: boolean): void {
  const p = st.params;
  let i = addrMod;
  if (p.addrModSetBase >= 0 && (st.extraAddrModBit || st.threadCfg[p.addrModSetBase]! & 1)) i += 4;
  i &= 7;
  const cfg = st.threadCfg;
  const ab = cfg[p.addrModAb + i * p.addrModAbStride]!;
  if (ab) {
    if (ab & 0x80) st.rwcSrcA = st.rwcSrcACr = 0;
    else if (ab & 0x40) st.rwcSrcA = st.rwcSrcACr = (st.rwcSrcACr + (ab & 63)) & 63;
    else st.rwcSrcA = (st.rwcSrcA + (ab & 63)) & 63;
    if (ab & 0x8000) st.rwcSrcB = st.rwcSrcBCr = 0;
    else if (ab & 0x4000) st.rwcSrcB = st.rwcSrcBCr = (st.rwcSrcBCr + ((ab >> 8) & 63)) & 63;
    else st.rwcSrcB = (st.rwcSrcB + ((ab >> 8) & 63)) & 63;
  }
  const d = cfg[p.addrModDst + i]!;
  const incr = d & 1023;
  if (d & 0x800) st.rwcDst = st.rwcDstCr = 0;
  else if (d & 0x1000) st.rwcDst = st.rwcDstCr = (st.rwcDst + incr) & 1023;
  else if (d & 0x400) st.rwcDst = st.rwcDstCr = (st.rwcDstCr + incr) & 1023;
  else st.rwcDst = (st.rwcDst + incr) & 1023;
  if (updateFidelity) {
    if (d & 0x8000) st.fidelityPhase = 0;
    else st.fidelityPhase = (st.fidelityPhase + ((d >> 13) & 3)) & 3;
  }
  if (p.addrModSetBase >= 0) {
    const b = cfg[p.addrModBias + i]!;
    if (b & 0x10) st.extraAddrModBit = 0;
    else if (b & 3) st.extraAddrModBit ^= 1;
  }
}
