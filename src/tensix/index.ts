/**
 * Public API of axsim's Tenstorrent Tensix Vector Unit (SFPU) model, Wormhole B0 and Blackhole.
 *
 *   const m = new TensixMachine('wormhole');
 *   m.writeDstTile(0, bits, 'fp32');          // 1024 FP32 bit patterns, row-major 32x32
 *   m.run([0x7003c000, 0x7d000110, ...]);     // instruction words (or a compiled Program)
 *   const out = m.readDstTile(0, 'fp32');
 *   const snap = m.snapshot(); ... m.restore(snap);
 *
 * Everything is raw bit patterns in unsigned integers. Execution is sequential (each instruction
 * completes before the next), as in ttsim and the conformance vectors. Errors are AxsimError.
 */
import type { Budget } from '../budget.ts';
import { badInput } from '../errors.ts';
import type { NpyData } from '../io/npy.ts';
import { type AssembleOptions, assemble } from './asm/index.ts';
import {
  DST_FORMATS,
  type DstFormat,
  dstFormatRows,
  parseDstFormat,
  readDstElements,
  writeDstElements,
} from './dst.ts';
import { type DstView, decodeDstView, dstViewBase, parseDstView } from './dst-views.ts';
import { type Arch, parseArch } from './encoding.ts';
import { run, runRange } from './exec.ts';
import { compile, type Program } from './program.ts';
import { type SourceMap, sourceMapOf, withSource } from './source-map.ts';
import { type FlagStackPolicy, LANES, type TensixSnapshot, TensixState } from './state.ts';

export { makeSfpuRunner } from './conformance.ts';
export {
  DST_FORMATS,
  type DstFormat,
  dstFormatRows,
  fp32Shuffle,
  fp32Unshuffle,
  parseDstFormat,
  readDstElements,
  writeDstElements,
} from './dst.ts';
export {
  DST_VIEW_NAMES,
  DST_VIEWS,
  type DstView,
  decodeDstView,
  dstViewBase,
  parseDstView,
} from './dst-views.ts';
export * from './encoding.ts';
export { run as runProgram, runRange } from './exec.ts';
export { fmaBh, fmaWh } from './fma.ts';
export { compile, type Program } from './program.ts';
export {
  formatSourceOf,
  locationOf,
  type SourceLoc,
  type SourceMap,
  sourceMapOf,
  withSource,
} from './source-map.ts';
export {
  ARCH_PARAMS,
  type FlagStackPolicy,
  LANES,
  stepPrng,
  type TensixSnapshot,
  TensixState,
} from './state.ts';

/** Timed mode: the cycle model, SFPLOADMACRO scheduling and hazards (docs/tensix-timing.md). */
export {
  checkTimingRules,
  HAZARDS,
  type Hazard,
  type HazardId,
  runTimedProgram,
  summaryText,
  type TimedOptions,
  type TimedResult,
  timedJson,
  timelineText,
} from './timing/index.ts';

/** Elements per 32x32 tile; a tile is four 16x16 faces, each 16 Dst rows (64 rows per tile). */
export const TILE_ELEMENTS = 1024;
export const TILE_ROWS = 64;

export interface AddrMod {
  incr: number;
  cr?: boolean | number;
  clear?: boolean | number;
  cToCr?: boolean | number;
}

export interface TensixConfig {
  /** ALU_ACC_CTRL_SFPU_Fp32_enabled */
  sfpuFp32?: boolean;
  /** ALU_FORMAT_SPEC_REG1_SrcB format code (0 FP32, 1 FP16, 5 BF16, ...). */
  srcBFormat?: number;
  /** DEST_TARGET_REG_CFG_MATH_Offset */
  dstMathOffset?: number;
  /** ADDR_MOD_SET_Base (Wormhole only). */
  addrModSetBase?: number;
  /** RISCV_DEBUG_REG_DBG_FEATURE_DISABLE bit 11: 16-bit Dst accesses go to the high half of Dst32b rows. */
  dst16bHigh?: boolean;
  /** What SFPPUSHC/SFPPOPC do on overflow/underflow: 'error' (UndefinedBehaviour) or 'wrap'. */
  flagStackPolicy?: FlagStackPolicy;
}

export class TensixMachine {
  readonly state: TensixState;
  /** REPLAY buffer (frontend state; REPLAY is expanded when a program is compiled). */
  readonly replayBuffer = new Uint32Array(32);

  constructor(arch: Arch | string = 'wormhole') {
    this.state = new TensixState(parseArch(arch));
  }

  get arch(): Arch {
    return this.state.arch;
  }

  /** Resets to ttsim's reset state (lane flags disabled). */
  reset(): void {
    this.state.reset();
    this.replayBuffer.fill(0);
  }

  /**
   * Resource limits for compiling programs on this machine (REPLAY expansion, compiled size, the
   * instructions one run executes; src/budget.ts). Each compile is charged to a fresh child, so a
   * program compiled twice (the CLI's timing check) is not counted twice. Defaults when absent.
   */
  budget?: Budget;

  /** Pre-decodes instruction words (REPLAY expanded against this machine's replay buffer). */
  compile(words: ArrayLike<number>): Program {
    return compile(words, this.arch, { replayBuffer: this.replayBuffer, budget: this.budget?.child() });
  }

  /**
   * Assembles kernel text (tt-llk macro calls, canonical lines, `.word`; docs/tensix-asm.md) or takes
   * instruction words, and pre-decodes it for this machine: load once, run many times. Errors of a
   * program loaded from text, at load or at run time, name file:line:col.
   */
  load(source: string | ArrayLike<number>, opts: AssembleOptions = {}): Program {
    if (typeof source !== 'string') return this.compile(source);
    const asm = assemble(source, this.arch, opts);
    const sources = sourceMapOf(asm, opts.file);
    let p: Program;
    try {
      p = this.compile(asm.words);
    } catch (e) {
      throw withSource(e, sources);
    }
    loadedSources.set(p, sources);
    return p;
  }

  /**
   * Runs a program (words, text, or loaded/compiled) `reps` times. With `sources` (per source word,
   * e.g. `sourceMapOf(assemble(...))`; a program from `load` has its own) a run-time error names
   * file:line:col as well as the index.
   */
  run(program: ArrayLike<number> | Program | string, reps = 1, opts: { sources?: SourceMap } = {}): void {
    let p: Program | undefined;
    try {
      p = isProgram(program) ? program : this.load(program);
      run(this.state, p, reps);
    } catch (e) {
      throw withSource(e, opts.sources ?? (p && loadedSources.get(p)));
    }
  }

  /**
   * Runs instructions `from` .. `to - 1` of a loaded or compiled program (default: the one at
   * `from`), for steppers and debuggers: from a snapshot taken before the program, `step(p, 0, k)`
   * leaves the state a run would have after k instructions. The results are those of `run` (the
   * same execution core); errors name file:line:col as `run`'s do. Programs that need the cycle
   * model (SFPLOADMACRO schedules) are refused as by `run`.
   */
  step(program: Program, from: number, to = from + 1, opts: { sources?: SourceMap } = {}): void {
    try {
      runRange(this.state, program, from, to);
    } catch (e) {
      throw withSource(e, opts.sources ?? loadedSources.get(program));
    }
  }

  configure(cfg: TensixConfig): void {
    const st = this.state;
    if (cfg.sfpuFp32 !== undefined) st.sfpuFp32 = cfg.sfpuFp32 ? 1 : 0;
    if (cfg.srcBFormat !== undefined) st.srcBFormat = cfg.srcBFormat & 15;
    if (cfg.dstMathOffset !== undefined) st.dstMathOffset = cfg.dstMathOffset;
    if (cfg.addrModSetBase !== undefined) st.addrModSetBase = cfg.addrModSetBase;
    if (cfg.dst16bHigh !== undefined) st.dst16bHigh = cfg.dst16bHigh ? 1 : 0;
    if (cfg.flagStackPolicy !== undefined) st.flagStackPolicy = cfg.flagStackPolicy;
  }

  /** Configures ADDR_MOD_DST slot `i` (0..7) as LLK's addr_mod_t::set() does with SETC16. */
  setAddrMod(i: number, m: AddrMod): void {
    if (!Number.isInteger(i) || i < 0 || i > 7) throw badInput(`ADDR_MOD slot ${i} is not 0..7`);
    if (!Number.isInteger(m.incr)) throw badInput('ADDR_MOD incr must be an integer');
    this.state.setAddrMod(i, m.incr & 1023, m.cr ? 1 : 0, m.clear ? 1 : 0, m.cToCr ? 1 : 0);
  }

  getAddrMod(i: number): Required<AddrMod> {
    const [incr, cr, clear, cToCr] = this.state.getAddrMod(i);
    return { incr, cr: cr === 1, clear: clear === 1, cToCr: cToCr === 1 };
  }

  /** LReg[r] (r = 0..16) as 32 lanes of raw bits (a copy). */
  lreg(r: number): Uint32Array {
    if (!Number.isInteger(r) || r < 0 || r > 16) throw badInput(`LReg index ${r} is not 0..16`);
    return this.state.lreg.slice(r * LANES, (r + 1) * LANES);
  }

  setLreg(r: number, lanes: ArrayLike<number>): void {
    if (!Number.isInteger(r) || r < 0 || r > 7) throw badInput(`only LReg[0..7] are writable (got ${r})`);
    if (lanes.length !== LANES) throw badInput(`LReg needs ${LANES} lanes, got ${lanes.length}`);
    for (let l = 0; l < LANES; l++) this.state.lreg[r * LANES + l] = lanes[l]! >>> 0;
  }

  /** Reads `count` elements of Dst from row `row` of the format's view (see dst.ts). */
  readDstRows(row: number, count: number, fmt: DstFormat | string = 'fp32'): Uint32Array {
    return readDstElements(this.state.dst, parseDstFormat(fmt), row, count);
  }

  writeDstRows(row: number, values: ArrayLike<number>, fmt: DstFormat | string = 'fp32'): void {
    writeDstElements(this.state.dst, parseDstFormat(fmt), row, values);
  }

  /**
   * Reads `count` elements from row `row` in one of Dst's data-type views (dst-views.ts: fp32,
   * fp16a, fp16b, int32, int32sm, uint32, uint16, int16, int8, raw16, raw32), whatever format the
   * data was written in: Float32Array, Int32Array, Uint16Array (fp16a: half bits) ...
   */
  readDstView(row: number, count: number, view: DstView | string): NpyData {
    const v = parseDstView(view);
    return decodeDstView(v, this.readDstRows(row, count, dstViewBase(v))).data;
  }

  /** A row-major 32x32 tile in a Dst view (see readDstView); the tile index counts in the view's rows. */
  readDstTileView(tile: number, view: DstView | string): NpyData {
    const v = parseDstView(view);
    return decodeDstView(v, this.readDstTile(tile, dstViewBase(v))).data;
  }

  /** Number of 32x32 tiles Dst holds in a format: 8 in 32-bit formats, 16 in 16-bit formats. */
  tiles(fmt: DstFormat | string = 'fp32'): number {
    return dstFormatRows(parseDstFormat(fmt)) / TILE_ROWS;
  }

  /** Writes a row-major 32x32 tile (faces 0..3 = top-left, top-right, bottom-left, bottom-right). */
  writeDstTile(tile: number, values: ArrayLike<number>, fmt: DstFormat | string = 'fp32'): void {
    const f = parseDstFormat(fmt);
    this.checkTile(tile, f);
    if (values.length !== TILE_ELEMENTS)
      throw badInput(`a tile has ${TILE_ELEMENTS} elements, got ${values.length}`);
    const row16 = new Array<number>(16);
    for (let face = 0; face < 4; face++) {
      for (let r = 0; r < 16; r++) {
        const tr = (face >> 1) * 16 + r;
        for (let c = 0; c < 16; c++) row16[c] = values[tr * 32 + (face & 1) * 16 + c]!;
        writeDstElements(this.state.dst, f, tile * TILE_ROWS + face * 16 + r, row16);
      }
    }
  }

  readDstTile(tile: number, fmt: DstFormat | string = 'fp32'): Uint32Array {
    const f = parseDstFormat(fmt);
    this.checkTile(tile, f);
    const out = new Uint32Array(TILE_ELEMENTS);
    for (let face = 0; face < 4; face++) {
      for (let r = 0; r < 16; r++) {
        const row = readDstElements(this.state.dst, f, tile * TILE_ROWS + face * 16 + r, 16);
        const tr = (face >> 1) * 16 + r;
        out.set(row, tr * 32 + (face & 1) * 16);
      }
    }
    return out;
  }

  snapshot(): TensixSnapshot & { replayBuffer: Uint32Array } {
    return { ...this.state.snapshot(), replayBuffer: this.replayBuffer.slice() };
  }

  restore(s: TensixSnapshot & { replayBuffer?: Uint32Array }): void {
    this.state.restore(s);
    if (s.replayBuffer) this.replayBuffer.set(s.replayBuffer);
  }

  private checkTile(tile: number, f: DstFormat): void {
    const n = dstFormatRows(f) / TILE_ROWS;
    if (!Number.isInteger(tile) || tile < 0 || tile >= n) {
      throw badInput(`tile ${tile} is outside Dst (${n} tiles in ${f})`, {
        hint: `formats: ${DST_FORMATS.join(', ')}`,
      });
    }
  }
}

/** Source maps of programs loaded from text, for the locations of their run-time errors. */
const loadedSources = new WeakMap<Program, SourceMap>();

function isProgram(p: ArrayLike<number> | Program | string): p is Program {
  return typeof p === 'object' && (p as Program).code instanceof Int32Array;
}
