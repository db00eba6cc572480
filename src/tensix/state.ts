/**
 * Architectural state of one Tensix Vector Unit (SFPU) and the Dst/RWC/ADDR_MOD state it uses, as
 * plain typed arrays of raw bits (tt-isa-documentation WormholeB0 LReg.md, VectorUnit.md, Dst.md,
 * RWCs.md, SFPCONFIG.md; spec 003 "Execution environment").
 *
 * Layout decisions (recorded in docs/tensix.md):
 * - `lreg` holds LReg[0..16] (17 × 32 lanes) plus one extra row, `SINK`, that never appears in any
 *   view: instructions whose documented write is dropped (VD 8..11) are pre-decoded to write there,
 *   so the hot loops need no per-lane check.
 * - LaneFlags is one u32 (bit l = lane l). UseLaneFlagsForLaneEnable and the flag stack are per
 *   lane in the documents but every instruction changes them uniformly, so one copy is exact.
 *   LaneConfig and LoadMacroConfig can differ between lanes (SFPCONFIG with some lanes or with
 *   differing LReg[0] lanes, template loads with mixed DISABLE_BACKDOOR_LOAD): they are one shared
 *   value while the lanes agree (the fast paths test only that) and per-lane arrays otherwise
 *   (`laneCfgLanes` with LC_SPLIT, `lmLanes` with `lmSplit`).
 * - The flag stack keeps the documented 8 entries and a 4-bit size counter (spec 003: pushing past
 *   8 overwrites earlier entries, the counter wraps at 16, popping at 0 underflows to 15).
 * - Dst is the raw DstBits[1024][16] (u16) storage; the 16- and 32-bit views are functions of it.
 * - The thread configuration registers that SETC16 writes are kept whole (`threadCfg`); ADDR_MOD
 *   slots, ADDR_MOD_SET_Base and DEST_TARGET_REG_CFG_MATH_Offset are read from there.
 */
import { badInput } from '../errors.ts';
import type { Arch } from './encoding.ts';
import { allocLregFile } from './mad-simd.ts';

export const LANES = 32;
/** Row index of the write-discard register in `lreg`. */
export const SINK = 17;
/** Row index of a scratch row for immediates fed to the FMA (never visible). */
export const IMM_ROW = 18;
export const LREG_ROWS = 19;
export const DST_ROWS = 1024;
export const DST_COLS = 16;

/** LReg[8] = 0.8373, LReg[9] = 0, LReg[10] = 1.0 (LReg.md); LReg[15][l] = 2l. */
export const CONST_08373 = 0x3f56594b;
/** ttsim's reset values of LReg[11..14] (SFPU-NOTES.md B7). */
export const RESET_PRGM_CONSTS = [0xbf800000, 0x3b000000, 0xbf2cc4c7, 0xbeb08ff9] as const;

/** LaneConfig bits (SFPCONFIG.md, "LaneConfig"). */
export const LC = {
  ENABLE_FP16A_INF: 1 << 0,
  DISABLE_BACKDOOR_LOAD: 1 << 1,
  ENABLE_DEST_INDEX: 1 << 2,
  CAPTURE_DEFAULT_DEST_INDEX: 1 << 3,
  BLOCK_DEST_WR_FROM_SFPU: 1 << 4,
  BLOCK_SFPU_RD_FROM_DEST: 1 << 5,
  DEST_RD_COL_EXCHANGE: 1 << 6,
  DEST_WR_COL_EXCHANGE: 1 << 7,
  EXCHANGE_SRCB_SRCC: 1 << 8,
  ROW_MASK_SHIFT: 12,
} as const;

/**
 * Marker bits above LaneConfig's 18 bits in `TensixState.laneConfig`. LC_SPLIT: the lanes hold
 * different LaneConfig values (the truth is then `laneCfgLanes`; the low 18 bits are lane 0's).
 * LC_GROUP: set by the execution core while it runs one group of lanes that share a LaneConfig
 * value (exec.ts `execSplit`); the record's lane mask is then ANDed with `groupMask`.
 */
export const LC_SPLIT = 1 << 18;
export const LC_GROUP = 1 << 19;
export const LC_BITS = 0x3ffff;
/** Rows of `lmLanes`: InstructionTemplate[0..3], Sequence[0..3], Misc. */
export const LM_ROWS = 9;

/** Per-generation constants: thread-config register indices (ttsim data/{wh,bh}/tensix_regs.json). */
export interface ArchParams {
  arch: Arch;
  /** Number of thread configuration registers (THD_STATE_SIZE). */
  threadCfgSize: number;
  /** ThreadConfig index of ADDR_MOD_DST_SEC0 (DestIncr 9:0, DestCR 10, DestClear 11, DestCToCR 12, FidelityIncr 14:13, FidelityClear 15). */
  addrModDst: number;
  /** ThreadConfig index of ADDR_MOD_AB_SEC0 and the stride between sections. */
  addrModAb: number;
  addrModAbStride: number;
  /** ThreadConfig index of ADDR_MOD_BIAS_SEC0 (BiasIncr 3:0, BiasClear 4). */
  addrModBias: number;
  /** ThreadConfig index of ADDR_MOD_SET_Base (WH only; -1 on BH). */
  addrModSetBase: number;
  /** ThreadConfig index of DEST_TARGET_REG_CFG_MATH_Offset (12 bits). */
  mathOffset: number;
  /** Width of the SFPLOAD/SFPSTORE AddrMod field. */
  addrModBits: number;
  /** Highest SFPU opcode. */
  maxSfpuOpcode: number;
  /** Configuration registers per state bank (the indices ttsim's tensix_regs.json instantiates). */
  cfgSize: number;
  /** ThreadConfig index of SFPU_STACK_Incr (BH only; -1 on WH). */
  sfpuStackIncr: number;
  /** Config index of DEST_REGW_BASE_Base, and of DEST_SP_BASE_Base (BH only; -1 on WH). */
  destRegwBase: number;
  destSpBase: number;
}

export const ARCH_PARAMS: Record<Arch, ArchParams> = {
  wormhole: {
    arch: 'wormhole',
    threadCfgSize: 57,
    addrModDst: 23,
    addrModAb: 7,
    addrModAbStride: 2,
    addrModBias: 48,
    addrModSetBase: 2,
    mathOffset: 1,
    addrModBits: 2,
    maxSfpuOpcode: 0x95,
    cfgSize: 187,
    sfpuStackIncr: -1,
    destRegwBase: 6,
    destSpBase: -1,
  },
  blackhole: {
    arch: 'blackhole',
    threadCfgSize: 68,
    addrModDst: 28,
    addrModAb: 12,
    addrModAbStride: 1,
    addrModBias: 47,
    addrModSetBase: -1,
    mathOffset: 1,
    addrModBits: 3,
    maxSfpuOpcode: 0x99,
    cfgSize: 223,
    sfpuStackIncr: 36,
    destRegwBase: 6,
    destSpBase: 7,
  },
};

/** What to do when the flag stack over- or underflows (documented as undefined behaviour). */
export type FlagStackPolicy = 'error' | 'wrap';

export class TensixState {
  readonly arch: Arch;
  readonly params: ArchParams;
  /**
   * LReg[r][lane] at index r*32 + lane, r = 0..16, plus the SINK and IMM rows. Allocated in the
   * WebAssembly memory of the SIMD multiply-add (mad-simd.ts) when there is room there, so that the
   * compiled path's MAD works on it in place; an ordinary array otherwise.
   */
  readonly lreg = allocLregFile(LREG_ROWS * LANES);
  /** LaneFlags, bit l = lane l, kept as an int32 (all lanes = -1). */
  laneFlags = 0;
  /** UseLaneFlagsForLaneEnable (0 or 1). */
  useLaneFlags = 0;
  /** FlagStack entries (LaneFlags, UseLaneFlagsForLaneEnable); entry k = k-th push. */
  readonly stackFlags = new Uint32Array(8);
  readonly stackEn = new Uint8Array(8);
  /** The 4-bit size counter; entries in use = min(stackSize, 8). */
  stackSize = 0;
  /**
   * LaneConfig (SFPCONFIG.md; one per lane in the documents). While every lane holds the same value
   * it is this number (the common case, which the fast paths test for 0); when lanes differ,
   * `LC_SPLIT` is set, the low 18 bits are lane 0's and `laneCfgLanes[lane]` holds each lane's.
   */
  laneConfig = 0;
  readonly laneCfgLanes = new Uint32Array(LANES);
  /** Lane mask for the group being run (valid while `laneConfig` has LC_GROUP). */
  groupMask = -1;
  /**
   * The lanes of that group before LaneEnabled (-1 outside a group): what the modes that ignore
   * LaneEnabled (MOD0_FMT_INT32_ALL, SFPMOV Mod1 2) use instead of all lanes.
   */
  groupLanes = -1;
  /**
   * LoadMacroConfig: InstructionTemplate[4], Sequence[4], Misc (12 bits), one per lane in the
   * documents. While all lanes agree (`lmSplit` 0) these three fields are the value; otherwise
   * `lmLanes[k * 32 + lane]` (k: templates 0-3, sequences 4-7, misc 8) holds each lane's and the
   * three fields mirror lane 0.
   */
  readonly lmTemplates = new Uint32Array(4);
  readonly lmSequence = new Uint32Array(4);
  lmMisc = 0;
  readonly lmLanes = new Uint32Array(LM_ROWS * LANES);
  lmSplit = 0;
  /**
   * Hidden state behind Wormhole's SFPSHFT2 SUBVEC_SHFLSHR1 bug: the VC value seen by the latest
   * SUBVEC_SHFLROR1(_AND_COPY4) (WormholeB0 SFPSHFT2.md).
   */
  readonly shflVc0 = new Uint32Array(LANES);
  /** Per-lane PRNG state (VectorUnit.md AdvancePRNG). */
  readonly prng = new Uint32Array(LANES);
  /** DstBits[row][col] at index row*16 + col. */
  readonly dst = new Uint16Array(DST_ROWS * DST_COLS);
  /** RWCs of the issuing thread (RWCs.md). */
  rwcDst = 0;
  rwcDstCr = 0;
  rwcSrcA = 0;
  rwcSrcACr = 0;
  rwcSrcB = 0;
  rwcSrcBCr = 0;
  fidelityPhase = 0;
  extraAddrModBit = 0;
  /** Blackhole's SFPU stack-pointer RWC (`RWCs.Sp`, used by MOD0_FMT_INT32_ALL). */
  rwcSp = 0;
  /**
   * For steppers and views (not architectural, not in snapshots): the Dst row address (before the
   * per-lane row, 0..1023) of the last SFPLOAD/SFPSTORE transfer, -1 for none; set the field to -1
   * before an instruction to learn which rows it reads or writes (rows `addr & ~3` .. `+ 3` of the
   * transfer's Dst view). `lastDstStore` is 1 when that transfer was a store.
   */
  lastDstAddr = -1;
  lastDstStore = 0;
  /** ThreadConfig of the issuing thread (written by SETC16). */
  readonly threadCfg: Uint32Array;
  /**
   * The thread-agnostic configuration (two banks, selected by ThreadConfig CFG_STATE_ID_StateID),
   * written by RMWCIB. The SFPU reads register 1: ALU_FORMAT_SPEC_REG1_SrcB (bits 24:21) and
   * ALU_ACC_CTRL_SFPU_Fp32_enabled (bit 30) (ttsim tensix_regs.json, the same on WH and BH).
   */
  readonly cfg: Uint32Array;
  /** What SFPPUSHC/SFPPOPC do on overflow/underflow. */
  flagStackPolicy: FlagStackPolicy = 'error';
  /**
   * Bit 11 of RISCV_DEBUG_REG_DBG_FEATURE_DISABLE (Dst.md): while set, `Dst16b[Row]` is the high
   * half of `Dst32b[Row]` (DstBits[Adj32(Row)]) instead of DstBits[Row]. tt-llk's
   * `_llk_math_hw_configure_` sets it for Int8/Int32 data and for UInt16 data with a 32-bit Dst.
   */
  dst16bHigh = 0;

  constructor(arch: Arch) {
    this.arch = arch;
    this.params = ARCH_PARAMS[arch];
    this.threadCfg = new Uint32Array(this.params.threadCfgSize);
    this.cfg = new Uint32Array(2 * this.params.cfgSize);
    this.reset();
  }

  /** ttsim's reset state (SFPU-NOTES.md B7), except that lane flags start disabled as in the docs. */
  reset(): void {
    this.lreg.fill(0);
    this.writeFixedConstants();
    for (let i = 0; i < 4; i++) this.lreg.fill(RESET_PRGM_CONSTS[i]!, (11 + i) * LANES, (12 + i) * LANES);
    this.laneFlags = 0;
    this.useLaneFlags = 0;
    this.stackFlags.fill(0);
    this.stackEn.fill(0);
    this.stackSize = 0;
    this.laneConfig = 0;
    this.laneCfgLanes.fill(0);
    this.groupMask = -1;
    this.groupLanes = -1;
    this.lmTemplates.fill(0);
    this.lmSequence.fill(0);
    this.lmMisc = 0;
    this.lmLanes.fill(0);
    this.lmSplit = 0;
    this.prng.fill(0);
    this.shflVc0.fill(0);
    this.dst.fill(0);
    this.rwcDst = this.rwcDstCr = this.rwcSrcA = this.rwcSrcACr = this.rwcSrcB = this.rwcSrcBCr = 0;
    this.fidelityPhase = 0;
    this.extraAddrModBit = 0;
    this.rwcSp = 0;
    this.threadCfg.fill(0);
    this.cfg.fill(0);
    this.dst16bHigh = 0;
  }

  /** Index of configuration register `reg` in the current state bank. */
  cfgIndex(reg: number): number {
    return (this.threadCfg[0]! & 1) * this.params.cfgSize + reg;
  }

  /** ALU_ACC_CTRL_SFPU_Fp32_enabled (0/1) of the current configuration bank. */
  get sfpuFp32(): number {
    return (this.cfg[this.cfgIndex(1)]! >>> 30) & 1;
  }
  set sfpuFp32(v: number) {
    const k = this.cfgIndex(1);
    this.cfg[k] = (this.cfg[k]! & ~(1 << 30)) | ((v & 1) << 30);
  }

  /** ALU_FORMAT_SPEC_REG1_SrcB (4-bit format code) of the current configuration bank. */
  get srcBFormat(): number {
    return (this.cfg[this.cfgIndex(1)]! >>> 21) & 15;
  }
  set srcBFormat(v: number) {
    const k = this.cfgIndex(1);
    this.cfg[k] = (this.cfg[k]! & ~(15 << 21)) | ((v & 15) << 21);
  }

  writeFixedConstants(): void {
    const r = this.lreg;
    r.fill(CONST_08373, 8 * LANES, 9 * LANES);
    r.fill(0, 9 * LANES, 10 * LANES);
    r.fill(0x3f800000, 10 * LANES, 11 * LANES);
    for (let l = 0; l < LANES; l++) r[15 * LANES + l] = 2 * l;
  }

  /** The lanes enabled for ordinary instructions (VectorUnit.md IsLaneEnabled), bit l = lane l. */
  enabledMask(): number {
    let m = this.useLaneFlags ? this.laneFlags : -1;
    if (this.laneConfig & LC_SPLIT) {
      // VectorUnit.md: lane l is disabled when LaneConfig[l & 7].ROW_MASK has bit (l / 8).
      const lc = this.laneCfgLanes;
      for (let l = 0; l < LANES; l++) if ((lc[l & 7]! >>> (LC.ROW_MASK_SHIFT + (l >> 3))) & 1) m &= ~(1 << l);
      return m;
    }
    const rowMask = (this.laneConfig >>> LC.ROW_MASK_SHIFT) & 15;
    if (rowMask) {
      // ROW_MASK bit r disables grid row r (lanes 8r..8r+7).
      for (let r = 0; r < 4; r++) if ((rowMask >> r) & 1) m &= ~(0xff << (8 * r));
    }
    return m;
  }

  /** LaneConfig of one lane (18 bits). */
  laneConfigOf(lane: number): number {
    return this.laneConfig & LC_SPLIT ? this.laneCfgLanes[lane]! : this.laneConfig & LC_BITS;
  }

  /** LoadMacroConfig of one lane: k 0-3 InstructionTemplate[k], 4-7 Sequence[k - 4], 8 Misc. */
  loadMacroOf(k: number, lane: number): number {
    if (this.lmSplit) return this.lmLanes[k * LANES + lane]!;
    return k < 4 ? this.lmTemplates[k]! : k < 8 ? this.lmSequence[k - 4]! : this.lmMisc;
  }

  /** Reads ADDR_MOD_DST_SEC[i] as [DestIncr, DestCR, DestClear, DestCToCR]. */
  getAddrMod(i: number): [number, number, number, number] {
    const v = this.threadCfg[this.params.addrModDst + i]!;
    return [v & 1023, (v >> 10) & 1, (v >> 11) & 1, (v >> 12) & 1];
  }

  /** Writes ADDR_MOD_DST_SEC[i] (fidelity bits left as they were). */
  setAddrMod(i: number, incr: number, cr: number, clear: number, cToCr: number): void {
    const k = this.params.addrModDst + i;
    this.threadCfg[k] =
      (this.threadCfg[k]! & 0xe000) |
      (incr & 1023) |
      ((cr & 1) << 10) |
      ((clear & 1) << 11) |
      ((cToCr & 1) << 12);
  }

  get addrModSetBase(): number {
    return this.params.addrModSetBase < 0 ? 0 : this.threadCfg[this.params.addrModSetBase]! & 1;
  }
  set addrModSetBase(v: number) {
    if (this.params.addrModSetBase >= 0) this.threadCfg[this.params.addrModSetBase] = v & 1;
  }

  get dstMathOffset(): number {
    return this.threadCfg[this.params.mathOffset]! & 0xfff;
  }
  set dstMathOffset(v: number) {
    this.threadCfg[this.params.mathOffset] = v & 0xfff;
  }

  /** Seeds every lane's PRNG as writing PRNG_SEED_Seed_Val does in ttsim (SFPU-NOTES.md B4). */
  seedPrng(seed: number): void {
    let s = seed >>> 0;
    for (let i = 0; i < 32; i++) s = stepPrng(s);
    for (let i = 0; i < 32; i++) {
      s = stepPrng(stepPrng(s));
      this.prng[31 - i] = s;
    }
  }

  snapshot(): TensixSnapshot {
    return {
      arch: this.arch,
      lreg: this.lreg.slice(0, 17 * LANES),
      laneFlags: this.laneFlags >>> 0,
      useLaneFlags: this.useLaneFlags,
      stackFlags: this.stackFlags.slice(),
      stackEn: this.stackEn.slice(),
      stackSize: this.stackSize,
      laneConfig: this.laneConfig,
      laneCfgLanes: this.laneCfgLanes.slice(),
      lmLanes: this.lmSplit ? this.lmLanes.slice() : undefined,
      lmTemplates: this.lmTemplates.slice(),
      lmSequence: this.lmSequence.slice(),
      lmMisc: this.lmMisc,
      prng: this.prng.slice(),
      shflVc0: this.shflVc0.slice(),
      dst: this.dst.slice(),
      rwc: Uint32Array.of(
        this.rwcDst,
        this.rwcDstCr,
        this.rwcSrcA,
        this.rwcSrcACr,
        this.rwcSrcB,
        this.rwcSrcBCr,
        this.fidelityPhase,
        this.extraAddrModBit,
        this.rwcSp,
      ),
      threadCfg: this.threadCfg.slice(),
      cfg: this.cfg.slice(),
      dst16bHigh: this.dst16bHigh,
    };
  }

  restore(s: TensixSnapshot): void {
    if (s.arch !== this.arch) throw badInput(`snapshot is for ${s.arch}, machine is ${this.arch}`);
    this.lreg.set(s.lreg);
    this.laneFlags = s.laneFlags | 0;
    this.useLaneFlags = s.useLaneFlags;
    this.stackFlags.set(s.stackFlags);
    this.stackEn.set(s.stackEn);
    this.stackSize = s.stackSize;
    this.laneConfig = s.laneConfig;
    if (s.laneCfgLanes) this.laneCfgLanes.set(s.laneCfgLanes);
    this.groupMask = -1;
    this.groupLanes = -1;
    this.lmTemplates.set(s.lmTemplates);
    this.lmSequence.set(s.lmSequence);
    this.lmMisc = s.lmMisc;
    this.lmSplit = s.lmLanes ? 1 : 0;
    if (s.lmLanes) this.lmLanes.set(s.lmLanes);
    this.prng.set(s.prng);
    this.shflVc0.set(s.shflVc0);
    this.dst.set(s.dst);
    [
      this.rwcDst,
      this.rwcDstCr,
      this.rwcSrcA,
      this.rwcSrcACr,
      this.rwcSrcB,
      this.rwcSrcBCr,
      this.fidelityPhase,
      this.extraAddrModBit,
    ] = s.rwc as unknown as number[];
    this.rwcSp = s.rwc[8] ?? 0;
    this.threadCfg.set(s.threadCfg);
    this.cfg.set(s.cfg);
    this.dst16bHigh = s.dst16bHigh ?? 0;
  }
}

/** A deep copy of the whole state (typed arrays of raw bits). */
export interface TensixSnapshot {
  arch: Arch;
  lreg: Uint32Array;
  laneFlags: number;
  useLaneFlags: number;
  stackFlags: Uint32Array;
  stackEn: Uint8Array;
  stackSize: number;
  /** LaneConfig; with LC_SPLIT set, `laneCfgLanes` holds each lane's value. */
  laneConfig: number;
  laneCfgLanes?: Uint32Array;
  /** Per-lane LoadMacroConfig rows (see `TensixState.lmLanes`), present only when lanes differ. */
  lmLanes?: Uint32Array;
  lmTemplates: Uint32Array;
  lmSequence: Uint32Array;
  lmMisc: number;
  prng: Uint32Array;
  shflVc0: Uint32Array;
  dst: Uint16Array;
  /** Dst, Dst_Cr, SrcA, SrcA_Cr, SrcB, SrcB_Cr, FidelityPhase, ExtraAddrModBit, Sp (BH). */
  rwc: Uint32Array;
  threadCfg: Uint32Array;
  /** Both configuration banks (RMWCIB-written registers). */
  cfg: Uint32Array;
  /** DBG_FEATURE_DISABLE bit 11 (absent in older snapshots: 0). */
  dst16bHigh?: number;
}

/** One step of a lane's LFSR (VectorUnit.md AdvancePRNG); returns the next state. */
export function stepPrng(s: number): number {
  let t = s & 0x80200003;
  // popcount of the four tap bits
  t = (t & 1) + ((t >>> 1) & 1) + ((t >>> 21) & 1) + (t >>> 31);
  return ((~t << 31) | (s >>> 1)) >>> 0;
}
