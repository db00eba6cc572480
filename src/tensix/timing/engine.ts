/**
 * The cycle-level model of the Tensix Vector Unit (docs/tensix-timing.md).
 *
 * - The issuing thread presents at most one instruction per cycle (VectorUnit.md "Sub-units").
 *   Non-SFPU instructions (NOP, SETRWC, INCRWC, SETC16, STALLWAIT) take an issue slot but no
 *   sub-unit; REPLAY costs nothing when replaying, and one cycle per word it records without
 *   executing (REPLAY.md "Performance"), modelled from the gaps in Program.sourceIndex.
 * - Each SFPU instruction goes to its sub-unit (tables.ts). SFPLOADMACRO schedules up to four more
 *   (macro.ts); a scheduled instruction arriving at a sub-unit on the same cycle as a regular one wins
 *   and the regular one is discarded (and reported).
 * - Within a cycle every executing instruction reads the state as it was at the start of the cycle;
 *   results become visible `latency` cycles after the instruction's cycle (1 for most, 2 for the MAD
 *   family, SFPSWAP and SFPSHFT2 modes 2-4). An instruction that reads a result too early sees the old
 *   value (documents are silent on what it sees; axsim models "not yet written") and an
 *   `early-read` hazard is reported. Store (Dst write) takes effect before Load (Dst read) of the same
 *   cycle.
 * - Blackhole auto-stalls a regular instruction for one cycle when it reads the pending result of a
 *   regular MAD-family instruction (as the stall logic sees reads, incl. its documented detection
 *   bugs); both arches stall any non-SFPNOP instruction after a regular SFPSWAP; Blackhole also after
 *   SFPSHFT2 modes 2-4. Nothing scheduled by SFPLOADMACRO stalls or causes stalls.
 * - STALLWAIT blocks the thread until the Vector Unit has nothing scheduled or in flight, plus the
 *   documented one-cycle lag; it also satisfies the Matrix-Unit-to-Dst gap rule (B8/C7 usage).
 */
import { AxsimError, badInput, type ErrorLocation, internalError, unsupported } from '../../errors.ts';
import { type Arch, decode } from '../encoding.ts';
import { execRecord as execRecordImport } from '../exec.ts';
import {
  sfpcompc as sfpcompcImport,
  sfppopc as sfppopcImport,
  sfppushc as sfppushcImport,
  sfpsetcc as sfpsetccImport,
} from '../insns/flags.ts';
import {
  sfpand as sfpandImport,
  sfpiadd as sfpiaddImport,
  sfpnot as sfpnotImport,
  sfpor as sfporImport,
  sfpxor as sfpxorImport,
} from '../insns/intops.ts';
import { sfpload as sfploadImport, sfpstore as sfpstoreImport } from '../insns/ldst.ts';
import { Op as OpImport, S as SImport, STRIDE as STRIDE_IMPORT } from '../ops.ts';
import type { Program } from '../program.ts';
import { formatSourceOf, locationOf, type SourceMap } from '../source-map.ts';
import { IMM_ROW as IMM_ROW_IMPORT, LANES as LANES_IMPORT, LC, type TensixState } from '../state.ts';
import { type Deps, depsOf } from './deps.ts';
import { HAZARDS, type Hazard, type HazardId, type HazardMode, hazardError } from './hazards.ts';
import { buildScheduled, KIND_INSTRUCTIONS as KIND_INSTRUCTIONS_IMPORT, type Scheduled } from './macro.ts';
import { MAD_FAMILY, SHFT2_TWO_CYCLE_MODES, timingOf, U as UImport, UNITS, type Unit } from './tables.ts';

// Local copies of the imported constants: under the loaders the tests and benches use, an imported
// binding is a getter call on every use, which dominated the hot loop.
const Op = { ...OpImport };
const S = { ...SImport };
const U = { ...UImport };
const STRIDE = STRIDE_IMPORT;
const LANES = LANES_IMPORT;
const IMM_ROW = IMM_ROW_IMPORT;
const KIND_INSTRUCTIONS = KIND_INSTRUCTIONS_IMPORT;
const LC_DISABLE_BACKDOOR_LOAD = LC.DISABLE_BACKDOOR_LOAD;
const execRecord = execRecordImport;
const sfpload = sfploadImport;
const sfpstore = sfpstoreImport;
const sfppushc = sfppushcImport;
const sfppopc = sfppopcImport;
const sfpcompc = sfpcompcImport;
const sfpsetcc = sfpsetccImport;
const sfpiadd = sfpiaddImport;
const sfpand = sfpandImport;
const sfpor = sfporImport;
const sfpxor = sfpxorImport;
const sfpnot = sfpnotImport;

export interface TimedOptions {
  /** warn (default): report and continue as hardware would; strict: the first hazard throws; off. */
  hazards?: HazardMode;
  /** Record a per-cycle timeline (costs time and memory). */
  timeline?: boolean;
  /**
   * Matrix Unit (FPU) writes to Dst, for the 3-instruction gap rule: each is issued (taking one
   * issue slot) just before the instruction with this index in the source words; `rows` limits the
   * Dst rows written (default: all).
   */
  matrixDstWrites?: ReadonlyArray<number | { before: number; rows?: [number, number] }>;
  /** Give up after this many cycles (default: 50 million per repetition). */
  maxCycles?: number;
  /** Run the program this many times back to back (one continuous timeline; default 1). */
  reps?: number;
  /** Keep at most this many hazards in the list (all are counted; default 1000). */
  hazardLimit?: number;
  /**
   * Where each source word came from (assembler `sources` or `lines`, see source-map.ts): hazards,
   * errors and timeline rows then name file:line:col.
   */
  sources?: SourceMap;
}

export interface TimelineEntry {
  cycle: number;
  unit: Unit | 'issue';
  /** Index of the instruction in the source words (for a scheduled one: its SFPLOADMACRO's). */
  index: number;
  scheduled: boolean;
  text: string;
  /** 'discarded' (lost to a scheduled instruction), 'stall' (thread stalled this cycle). */
  note?: 'discarded' | 'stall';
  /** The statement that produced it (with a source map; for a scheduled one: its SFPLOADMACRO's). */
  loc?: ErrorLocation;
}

export interface TimedResult {
  arch: Arch;
  cycles: number;
  busy: Record<Unit, number>;
  ipc: Record<Unit, number>;
  /** Instructions presented by the thread (program records, incl. non-SFPU ones). */
  issued: number;
  /** Instructions that executed: issued minus discarded, plus scheduled ones that ran. */
  executed: number;
  scheduledExecuted: number;
  discarded: number;
  /** Scheduled instructions forgotten because a later SFPLOADMACRO scheduled one at the same delay. */
  forgotten: number;
  stallCycles: number;
  /** The first `hazardLimit` hazards, in order. */
  hazards: Hazard[];
  /** How many hazards there were in all. */
  hazardCount: number;
  /** Issue cycle of each program record (-1 if never issued). */
  issueCycle: Int32Array;
  timeline?: TimelineEntry[];
}

interface Pending {
  row: number;
  commitAt: number;
  values: Uint32Array;
  lanes: number;
  /** From a regular MAD-family instruction: Blackhole's stall logic tracks it. */
  stallable: boolean;
}

/** Per-record static information, computed once per program. */
interface Info {
  name: string;
  unit: number;
  latency: number;
  deps: Deps;
  sfpu: boolean;
  /** SFPNOP (does not stall after SFPSWAP / SFPSHFT2). */
  nop: boolean;
  madFamily: boolean;
  /** Regular SFPSWAP (both arches) or Blackhole SFPSHFT2 modes 2-4: the next non-SFPNOP stalls. */
  stallNext: boolean;
  shft2Two: boolean;
  /** Wormhole SFPSHFT2 mode 2-4: its mode (the next cycle's rules), else -1. */
  whShft2Mode: number;
  /** Can take the single-instruction path (no SFPLOADMACRO, STALLWAIT or SFPCONFIG). */
  simple: boolean;
  /** 1: SFPPUSHC (a push), 2: SFPPOPC (a pop), 0: neither (flag-stack hazard checks). */
  flagOp: number;
  /** Simple, one cycle, no rule for the next cycle, no template write or config: the tight loop's kind. */
  plain: boolean;
  /**
   * SFPLOAD, SFPSTORE or a NOP that is plain: it changes no lane flag and no state a two-cycle
   * instruction reads except (SFPLOAD) its own LReg, so it may run before the previous cycle's
   * two-cycle instruction when it must not see that result (see `held` in runTimed).
   */
  swappable: boolean;
}

function analyse(prog: Program, arch: Arch): Info[] {
  const out: Info[] = [];
  const cache = new Map<number, Info>();
  for (let k = 0; k < prog.length; k++) {
    const w = prog.words[k]!;
    const o = k * STRIDE;
    const hit = cache.get(w);
    if (hit && prog.code[o + S.OP] !== Op.TEMPLATE) {
      out.push(hit);
      continue;
    }
    let name: string;
    try {
      name = decode(w, arch, { allowReserved: true }).name;
    } catch {
      name = '?';
    }
    const op = prog.code[o + S.OP]!;
    const mod = prog.code[o + S.MOD]!;
    const t = timingOf(name, arch, name === 'SFPSHFT2' ? mod : 0);
    const unit = t ? (t.unit === 'issue' ? U.ISSUE : UNITS.indexOf(t.unit)) : U.ISSUE;
    // A backdoor template write of an SFPSHFT2 word executes nothing (its MOD slot is the template index).
    const shft2Two = op !== Op.TEMPLATE && name === 'SFPSHFT2' && SHFT2_TWO_CYCLE_MODES.has(mod);
    const info: Info = {
      name,
      unit,
      latency: op === Op.TEMPLATE ? 1 : (t?.latency ?? 1),
      deps: op === Op.TEMPLATE ? { reads: 0, writes: 0, stallReads: 0 } : depsOf(prog.code, o),
      sfpu: unit !== U.ISSUE,
      nop: name === 'SFPNOP',
      madFamily: op !== Op.TEMPLATE && MAD_FAMILY.has(name),
      // A backdoor template write does not execute, so it cannot cause a stall.
      stallNext: op !== Op.TEMPLATE && (name === 'SFPSWAP' || (arch === 'blackhole' && shft2Two)),
      shft2Two,
      whShft2Mode: arch === 'wormhole' && shft2Two ? mod : -1,
      simple: op !== Op.LOADMACRO && name !== 'STALLWAIT' && name !== 'SFPCONFIG',
      flagOp: op === Op.PUSHC ? 1 : op === Op.POPC ? 2 : 0,
      plain: false,
      swappable: false,
    };
    info.plain =
      info.simple &&
      info.latency === 1 &&
      !info.stallNext &&
      info.whShft2Mode < 0 &&
      op !== Op.TEMPLATE &&
      op !== Op.CONFIG;
    info.swappable = info.plain && info.flagOp === 0 && (op === Op.LOAD || op === Op.STORE || op === Op.NOP);
    cache.set(w, info);
    out.push(info);
  }
  return out;
}

/** One executing instruction within a cycle. */
interface Exec {
  unit: number;
  sched: Scheduled | undefined;
  k: number;
  name: string;
  deps: Deps;
  latency: number;
  vd: number;
}

/**
 * Order of execution within a cycle, by unit (load, simple, mad, round, store, issue). LReg writes
 * of a multi-instruction cycle are held back, so this only decides Dst (Store before Load) and lane
 * flags (Simple, the only sub-unit that sets them, last, so the others see the flags of the start
 * of the cycle).
 */
const EXEC_RANK = [1, 4, 3, 2, 0, 1];

/** WH SFPSHFT2 "Instruction scheduling": instructions not allowed on the cycle after modes 2-4. */
const SHFT2_FORBIDDEN_NEXT = new Set([
  'SFPABS',
  'SFPAND',
  'SFPCAST',
  'SFPDIVP2',
  'SFPEXEXP',
  'SFPEXMAN',
  'SFPIADD',
  'SFPLZ',
  'SFPMOV',
  'SFPNOT',
  'SFPOR',
  'SFPSETEXP',
  'SFPSETMAN',
  'SFPSETSGN',
  'SFPSHFT',
  'SFP_STOCH_RND',
  'SFPXOR',
]);

function rowsOf(mask: number): number[] {
  const r: number[] = [];
  for (let i = 0; i <= 16; i++) if ((mask >>> i) & 1) r.push(i);
  return r;
}

export function runTimed(st: TensixState, prog: Program, opts: TimedOptions = {}): TimedResult {
  if (prog.arch !== st.arch) throw unsupported(`program compiled for ${prog.arch}, machine is ${st.arch}`);
  const arch = st.arch;
  const mode: HazardMode = opts.hazards ?? 'warn';
  const wantTimeline = opts.timeline === true;
  const reps = opts.reps ?? 1;
  if (!Number.isInteger(reps) || reps < 0) throw badInput(`reps ${reps} is not a non-negative integer`);
  const maxCycles = opts.maxCycles ?? 50_000_000 * Math.max(1, reps);
  const infos = analyse(prog, arch);
  const n = prog.length;
  const code = prog.code;
  const L = st.lreg;
  const hazards: Hazard[] = [];
  const timeline: TimelineEntry[] = [];
  const busy = [0, 0, 0, 0, 0];
  const issueCycle = new Int32Array(n).fill(-1);
  let issued = 0;
  let executed = 0;
  let scheduledExecuted = 0;
  let discarded = 0;
  let forgotten = 0;
  let stallCycles = 0;

  // Matrix Unit writes: before-index (in source words) -> rows
  const matrix = new Map<number, [number, number]>();
  for (const m of opts.matrixDstWrites ?? []) {
    const before = typeof m === 'number' ? m : m.before;
    if (!Number.isInteger(before) || before < 0) throw badInput(`matrix write index ${before} is not valid`);
    matrix.set(before, typeof m === 'number' ? [0, 1023] : (m.rows ?? [0, 1023]));
  }
  let matrixRows: [number, number] | undefined;
  let sinceMatrix = 1 << 30;

  const hazardLimit = opts.hazardLimit ?? 1000;
  let hazardCount = 0;
  const sources = opts.sources;
  const report = (id: HazardId, cycle: number, index: number, message: string) => {
    if (mode === 'off') return;
    const h: Hazard = { id, cycle, index, message, source: HAZARDS[id].source };
    if (sources && index >= 0) h.location = locationOf(sources, index);
    if (mode === 'strict') throw hazardError(h);
    hazardCount++;
    if (hazards.length < hazardLimit) hazards.push(h);
  };

  const pending: Pending[] = [];
  const queue: Scheduled[] = [];
  const fired: (Scheduled | undefined)[] = [undefined, undefined, undefined, undefined, undefined];
  const execs: Exec[] = [];
  const saved = new Uint32Array(17 * LANES);
  const rwcSave = new Uint32Array(8);

  const wh = arch === 'wormhole';
  const checks = mode !== 'off';
  /** Frontend cycles with nothing emitted before the record after k (REPLAY recording), wrap included. */
  const gapAfter = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    gapAfter[i] =
      i + 1 < n ? Math.max(0, prog.sourceIndex[i + 1]! - prog.sourceIndex[i]! - 1) : prog.sourceIndex[0]!;
  }
  let cycle = 0;
  let k = reps === 0 ? n : 0;
  let rep = 0;
  let gap = n > 0 ? prog.sourceIndex[0]! : 0;
  const pool: Pending[] = [];
  // What executed on the previous cycle that constrains this one (SFPSWAP / two-cycle SFPSHFT2).
  let prevShft2Mode = -1;
  let prevShft2Sched = false;
  let prevSwapSched = false;
  let curK = -1;
  /** Cycle of the last SFPCONFIG that changed LaneConfig.DISABLE_BACKDOOR_LOAD. */
  let backdoorFlip = -2;
  /** The cycle by which everything executed so far has its results visible. */
  let lastDone = 0;
  let stallNextPending = false; // previous cycle issued an instruction that stalls the next non-NOP
  let stallwaitBlocked = false;
  /** Source index whose Matrix Unit mark was issued in this repetition (-1: none). */
  let matrixDoneFor = -1;
  /**
   * A two-cycle instruction (record offset) whose execution is held until the next instruction has
   * run (-1: none). Used when the next instruction is `swappable`, must see the old value of the
   * rows being written (an early read), writes nothing the held one reads or writes, and cannot
   * stall: running it first and the held one after gives exactly the state the cycle rules give
   * (the held result is visible from the cycle after next on), without saving and restoring rows.
   */
  let held = -1;
  let heldK = -1;

  const enabled = () => st.enabledMask();

  /** Runs `fn` with LReg rows in `writes` captured, then defers the changes to `commitAt`. */
  let capLanes = 0;
  const capture = (writes: number) => {
    for (let m = writes; m !== 0; m &= m - 1) {
      const base = (31 - Math.clz32(m & -m)) * LANES;
      for (let l = 0; l < LANES; l++) saved[base + l] = L[base + l]!;
    }
    capLanes = st.laneConfig === 0 ? (st.useLaneFlags ? st.laneFlags : -1) : st.enabledMask();
  };
  /** After an instruction ran on captured rows: move its changes to in-flight writes landing at `commitAt`. */
  const defer = (writes: number, commitAt: number, stallable: boolean) => {
    for (let m = writes; m !== 0; m &= m - 1) {
      const r = 31 - Math.clz32(m & -m);
      const base = r * LANES;
      // Lanes written: every enabled lane (a write of an unchanged value still lands later), except
      // for per-lane destinations (indirect VD: all eight rows in the set), where only changes count.
      let lanes = writes === 0xff ? 0 : capLanes;
      const p = pool.pop() ?? {
        row: 0,
        commitAt: 0,
        values: new Uint32Array(LANES),
        lanes: 0,
        stallable: false,
      };
      // One pass: note the changed lanes, move the new values to the entry, put the old ones back.
      const vals = p.values;
      for (let l = 0; l < LANES; l++) {
        const nv = L[base + l]!;
        const ov = saved[base + l]!;
        if (nv !== ov) {
          lanes |= 1 << l;
          L[base + l] = ov;
        }
        vals[l] = nv;
      }
      if (lanes === 0) {
        pool.push(p);
        continue;
      }
      p.row = r;
      p.commitAt = commitAt;
      p.lanes = lanes;
      p.stallable = stallable;
      pending.push(p);
      if (commitAt < nextCommit) nextCommit = commitAt;
    }
  };
  const deferred = (writes: number, commitAt: number, stallable: boolean, fn: () => void) => {
    capture(writes);
    fn();
    defer(writes, commitAt, stallable);
  };

  /**
   * Rows written by two-cycle instructions still in flight (by write set, not by whether the value
   * changed): all of them, and those Blackhole's stall logic tracks (regular MAD family).
   */
  let pmAll = 0;
  let pmStall = 0;
  const ifMask = new Int32Array(64);
  const ifUntil = new Int32Array(64);
  const ifStall = new Uint8Array(64);
  /** The cycle of the SFPLOADMACRO that scheduled the writer (-1: a regular instruction). */
  const ifOwner = new Int32Array(64);
  let ifCount = 0;
  let ifNextEnd = 1 << 30;
  const expireInflight = (force: boolean) => {
    if (!force && cycle < ifNextEnd) return;
    let j = 0;
    pmAll = 0;
    pmStall = 0;
    ifNextEnd = 1 << 30;
    for (let i = 0; i < ifCount; i++) {
      if (ifUntil[i]! <= cycle) continue;
      ifMask[j] = ifMask[i]!;
      ifUntil[j] = ifUntil[i]!;
      ifStall[j] = ifStall[i]!;
      ifOwner[j] = ifOwner[i]!;
      pmAll |= ifMask[j]!;
      if (ifStall[j]) pmStall |= ifMask[j]!;
      if (ifUntil[j]! < ifNextEnd) ifNextEnd = ifUntil[j]!;
      j++;
    }
    ifCount = j;
  };
  const addInflight = (mask: number, until: number, stallable: boolean, owner = -1) => {
    if (mask === 0) return;
    if (ifCount === 64) expireInflight(true);
    ifMask[ifCount] = mask;
    ifUntil[ifCount] = until;
    ifStall[ifCount] = stallable ? 1 : 0;
    ifOwner[ifCount] = owner;
    ifCount++;
    pmAll |= mask;
    if (stallable) pmStall |= mask;
    if (until < ifNextEnd) ifNextEnd = until;
  };
  let nextCommit = 1 << 30;
  const recomputePending = () => {
    nextCommit = 1 << 30;
    for (const p of pending) if (p.commitAt < nextCommit) nextCommit = p.commitAt;
  };
  const commitPending = () => {
    if (cycle < nextCommit) return;
    for (let i = 0; i < pending.length; ) {
      const p = pending[i]!;
      if (p.commitAt <= cycle) {
        const base = p.row * LANES;
        const lanes = p.lanes;
        if (lanes === -1) for (let l = 0; l < LANES; l++) L[base + l] = p.values[l]!;
        else for (let l = 0; l < LANES; l++) if ((lanes >>> l) & 1) L[base + l] = p.values[l]!;
        pending[i] = pending[pending.length - 1]!;
        pending.pop();
        pool.push(p);
      } else i++;
    }
    recomputePending();
  };

  const pendingRows = (stallableOnly: boolean): number => (stallableOnly ? pmStall : pmAll);

  const srcIndex = (kk: number) => (kk >= 0 && kk < n ? prog.sourceIndex[kk]! : -1);

  /*
   * SFPLOADMACRO data-loss tracking (`macro-write-lost`), per LReg lane: who wrote the value there
   * (owner = the cycle of the SFPLOADMACRO whose load or scheduled instruction wrote it; -1 anything
   * else). When a value a sequence wrote is replaced, before anything read it, by another
   * sequence's load or scheduled instruction, or by a regular SFPLOAD/SFPLOADI, the lane remembers
   * the loss; if a scheduled instruction of the first sequence then reads that lane, it computes
   * on a value that is not its own: reported (this is what reusing one LReg across SFPLOADMACRO
   * iterations does). A value read before it is replaced was used (tt-llk's in-place where: the
   * sequence's SFPSETCC reads the condition, then other loads fill the LReg its store writes back);
   * regular computing instructions that replace a sequence's value are deliberate data flow and
   * clear the mark. Writes land `latency` cycles after their cycle, in issue order. Starts with the first
   * SFPLOADMACRO; while writes are in flight or marks are set the engine stays off its fast paths.
   */
  let trackOn = false;
  const SCHED_BIT = 0x40000000;
  let lostAny = 0; // number of lanes with a loss mark
  const laneOwner = new Int32Array(17 * LANES).fill(-1);
  const laneLost = new Int32Array(17 * LANES).fill(-1);
  const laneLostBy = new Int32Array(17 * LANES).fill(-1);
  /** Per LReg: lanes read since the last write landed there (a value read before it is replaced was used). */
  const laneRead = new Int32Array(17);
  interface WriteEvent {
    at: number;
    mask: number;
    lanes: number;
    owner: number;
    k: number;
    /** The write may replace another sequence's value without that being deliberate data flow. */
    counts: boolean;
    /** An SFPLOADMACRO's own load (not a scheduled instruction). */
    load: boolean;
  }
  const wevs: WriteEvent[] = [];
  const landWrites = (upTo: number) => {
    let j = 0;
    for (let i = 0; i < wevs.length; i++) {
      const e = wevs[i]!;
      if (e.at > upTo) {
        wevs[j++] = e;
        continue;
      }
      for (let m = e.mask; m !== 0; m &= m - 1) {
        const r = 31 - Math.clz32(m & -m);
        const base = r * LANES;
        const read = laneRead[r]!;
        laneRead[r] = read & ~e.lanes;
        for (let l = 0; l < LANES; l++) {
          if (!((e.lanes >>> l) & 1)) continue;
          const a = base + l;
          const prev = laneOwner[a]!;
          if (laneLost[a]! >= 0) {
            lostAny--;
            laneLost[a] = -1;
          }
          if (e.counts && prev >= 0 && prev !== e.owner && !((read >>> l) & 1)) {
            laneLost[a] = prev;
            laneLostBy[a] = e.owner >= 0 && !e.load ? e.k | SCHED_BIT : e.k;
            lostAny++;
          }
          laneOwner[a] = e.owner;
        }
      }
    }
    wevs.length = j;
  };
  /** A scheduled instruction of sequence `owner` reads `reads` in `lanes`: any lost value of its own? */
  const checkOwnReads = (s: Scheduled, reads: number, lanes: number) => {
    for (let m = reads; m !== 0; m &= m - 1) {
      const r = 31 - Math.clz32(m & -m);
      const base = r * LANES;
      let lost = 0;
      let by = -1;
      for (let l = 0; l < LANES; l++) {
        if ((lanes >>> l) & 1 && laneLost[base + l] === s.scheduledAt) {
          lost |= 1 << l;
          if (by < 0) by = laneLostBy[base + l]!;
          laneLost[base + l] = -1;
          lostAny--;
        }
      }
      if (lost === 0) continue;
      const byK = by & ~SCHED_BIT;
      const byName =
        byK < 0 || byK >= n
          ? '?'
          : by & SCHED_BIT
            ? 'an instruction scheduled by the SFPLOADMACRO'
            : infos[byK]!.name === 'SFPLOADMACRO'
              ? 'the load of the SFPLOADMACRO'
              : infos[byK]!.name;
      report(
        'macro-write-lost',
        cycle,
        srcIndex(byK),
        `${byName} at ${formatSourceOf(sources, srcIndex(byK))} replaced the value in LReg[${r}] (lanes 0x${(lost >>> 0).toString(16)}) that the SFPLOADMACRO at ${formatSourceOf(sources, srcIndex(s.index))} wrote for its own ${s.name}, which reads the replaced value now`,
      );
    }
  };
  /** With nothing scheduled and nothing in flight no sequence can read a mark any more: drop them. */
  const dropLossMarks = (): boolean => {
    if (queue.length > 0 || wevs.length > 0) return false;
    laneLost.fill(-1);
    lostAny = 0;
    return true;
  };
  const noteExec = (ex: Exec, isLoadMacro: boolean) => {
    const s = ex.sched;
    const rd = ex.deps.reads;
    if (rd !== 0) {
      const en = enabled();
      if (s && lostAny > 0) checkOwnReads(s, rd, en);
      for (let m = rd; m !== 0; m &= m - 1) laneRead[31 - Math.clz32(m & -m)]! |= en;
    }
    const w = ex.deps.writes;
    // one row, or SFPSWAP's two; TRANSP and indirect writes name a set conservatively: not tracked
    if (w === 0 || ((w & (w - 1)) !== 0 && ex.name !== 'SFPSWAP')) return;
    const owner = s ? s.scheduledAt : isLoadMacro ? cycle : -1;
    const regularLoad = !s && (ex.name === 'SFPLOAD' || ex.name === 'SFPLOADI');
    wevs.push({
      at: cycle + ex.latency,
      mask: w,
      lanes: enabled(),
      owner,
      k: ex.k,
      counts: owner >= 0 || regularLoad,
      load: isLoadMacro,
    });
  };

  const runScheduled = (s: Scheduled) => {
    if (s.unit === U.STORE) {
      // Address as computed by SFPLOADMACRO; no ADDR_MOD (SFPLOADMACRO.md Store considerations).
      rwcSave[0] = st.rwcDst;
      rwcSave[1] = st.rwcDstCr;
      rwcSave[2] = st.rwcSrcA;
      rwcSave[3] = st.rwcSrcACr;
      rwcSave[4] = st.rwcSrcB;
      rwcSave[5] = st.rwcSrcBCr;
      rwcSave[6] = st.dstMathOffset;
      rwcSave[7] = st.fidelityPhase;
      st.rwcDst = s.storeRwc;
      st.dstMathOffset = s.storeOffset;
      try {
        sfpstore(st, enabled(), s.rec[S.VD]!, s.rec[S.MOD]!, 0, s.rec[S.IMM]!);
      } finally {
        st.rwcDst = rwcSave[0]!;
        st.rwcDstCr = rwcSave[1]!;
        st.rwcSrcA = rwcSave[2]!;
        st.rwcSrcACr = rwcSave[3]!;
        st.rwcSrcB = rwcSave[4]!;
        st.rwcSrcBCr = rwcSave[5]!;
        st.dstMathOffset = rwcSave[6]!;
        st.fidelityPhase = rwcSave[7]!;
      }
      return;
    }
    if (s.precopyFrom >= 0) {
      const vd = s.rec[S.VD]!;
      const vdBase = vd * LANES;
      const old = L.slice(vdBase, vdBase + LANES);
      const vcIsVd = s.rec[S.VC] === vd && s.rec[S.OP] !== Op.MULI && s.rec[S.OP] !== Op.ADDI;
      if (vcIsVd) {
        L.set(old, IMM_ROW * LANES);
        s.rec[S.VC] = IMM_ROW;
      }
      L.copyWithin(vdBase, s.precopyFrom * LANES, s.precopyFrom * LANES + LANES);
      const mask = enabled();
      try {
        execRecord(st, s.rec, 0);
      } finally {
        if (vcIsVd) s.rec[S.VC] = vd;
        for (let l = 0; l < LANES; l++) if (!((mask >>> l) & 1)) L[vdBase + l] = old[l]!;
      }
      return;
    }
    execRecord(st, s.rec, 0);
  };

  const runLoadMacro = (kk: number) => {
    const o = kk * STRIDE;
    const vd = code[o + S.VD]!;
    const mod0 = code[o + S.MOD]!;
    const addrMod = code[o + S.VA]!;
    const imm10 = code[o + S.IMM]!;
    const macro = code[o + S.AUX]! & 3;
    const rwc = st.rwcDst;
    const off = st.dstMathOffset;
    if (st.lmSplit) {
      // The functional core keeps LoadMacroConfig per lane once lanes disagree; the scheduler below
      // reads one shared copy, so it would silently run lane 0's templates for every lane.
      throw unsupported(
        'SFPLOADMACRO on the cycle model with LoadMacroConfig differing between lanes is not modelled',
        { hint: 'configure every lane alike (SFPCONFIG with all lanes enabled) before timed runs' },
      );
    }
    // The SFPLOAD part uses Mod0 = the instruction's Mod0 (SFPLOADMACRO.md: "executes as per SFPLOAD").
    sfpload(st, enabled(), vd, mod0, addrMod, imm10);
    const seq = st.lmSequence[macro]!;
    for (let i = 0; i < 4; i++) {
      const bits = (seq >>> (8 * i)) & 255;
      const delay = (bits >>> 3) & 7;
      // Spec 000's order: a zero selector schedules nothing and forgets nothing (see macro.ts).
      if ((bits & 7) !== 0 && delay !== 7) {
        for (let q = queue.length - 1; q >= 0; q--) {
          const e = queue[q]!;
          if (e.unit === i + 1 && e.counter === delay) {
            queue.splice(q, 1);
            forgotten++;
            report(
              'macro-forgotten',
              cycle,
              srcIndex(kk),
              `${e.name} scheduled on the ${UNITS[e.unit]} sub-unit by the SFPLOADMACRO at ${formatSourceOf(sources, srcIndex(e.index))} was forgotten before it executed: this SFPLOADMACRO scheduled one there with the same delay (${delay})`,
            );
          }
        }
      }
      const s = buildScheduled(st, i, macro, vd, mod0, bits);
      if (!s) continue;
      if (s.demoted)
        report(
          'macro-insn-nop',
          cycle,
          srcIndex(kk),
          `macro ${macro} selects ${s.demoted} for the ${UNITS[s.unit]} sub-unit, which cannot execute it: it runs as SFPNOP`,
        );
      s.scheduledAt = cycle;
      s.index = kk;
      if (delay === 0) s.readyAt = cycle + 1;
      if (s.unit === U.STORE) {
        s.storeRwc = rwc;
        s.storeOffset = off;
        s.rec[S.IMM] = imm10;
      }
      if (wantTimeline) s.text = schedText(s);
      queue.push(s);
    }
  };

  try {
    while (k < n || queue.length > 0 || pending.length > 0) {
      if (cycle >= maxCycles) throw badInput(`the timed run exceeded ${maxCycles} cycles`);
      if (ifCount > 0) expireInflight(false);
      if (pending.length > 0) {
        commitPending();
        if (k >= n && queue.length === 0 && pending.length === 0) break;
      }
      if (
        queue.length === 0 &&
        k < n &&
        gap === 0 &&
        !wantTimeline &&
        !stallwaitBlocked &&
        matrix.size === 0 &&
        infos[k]!.simple &&
        !(trackOn && (lostAny > 0 || wevs.length > 0) && !dropLossMarks())
      ) {
        // Fast path: one regular instruction, nothing scheduled by SFPLOADMACRO. Same rules as below.
        // It stays here (a burst) while the next cycle qualifies too: nothing it runs schedules,
        // blocks the thread or marks a Matrix Unit write, so only k, gap and the record can change.
        for (;;) {
          if (
            held < 0 &&
            pending.length === 0 &&
            ifCount === 0 &&
            pmAll === 0 &&
            prevShft2Mode < 0 &&
            !prevSwapSched &&
            !stallNextPending &&
            st.laneConfig === 0
          ) {
            // Tight loop: one-cycle instructions with nothing in flight, nothing deferred and no rule
            // from the previous cycle, so no stall, hazard or deferral can arise; the bookkeeping is
            // kept in locals and written back after. The common instructions are dispatched here,
            // saving a call, exactly as exec.ts run() does (with LaneConfig 0, which none of them
            // changes, the record's AUX is irrelevant to them; op ids: ops.ts, literals so that the
            // switch is a jump table).
            let c = cycle;
            let kk = k;
            let cnt = 0;
            while (c < maxCycles) {
              const info = infos[kk]!;
              if (!info.plain) break;
              const fo = info.flagOp;
              if (fo !== 0 && (fo === 1 ? st.stackSize >= 8 : st.stackSize === 0)) break;
              const o = kk * STRIDE;
              curK = kk;
              issueCycle[kk] = c;
              cnt++;
              if (info.unit !== U.ISSUE) busy[info.unit]!++;
              const g = gapAfter[kk]!;
              kk++;
              if (kk === n && ++rep < reps) kk = 0;
              if (kk < n) gap = g;
              switch (code[o]!) {
                case 1: // LOAD
                  sfpload(
                    st,
                    st.useLaneFlags ? st.laneFlags : -1,
                    code[o + S.VD]!,
                    code[o + S.MOD]!,
                    code[o + S.VA]!,
                    code[o + S.IMM]!,
                  );
                  break;
                case 2: // STORE
                  sfpstore(
                    st,
                    st.useLaneFlags ? st.laneFlags : -1,
                    code[o + S.VD]!,
                    code[o + S.MOD]!,
                    code[o + S.VA]!,
                    code[o + S.IMM]!,
                  );
                  break;
                case 26: // PUSHC
                  sfppushc(st, code[o + S.MOD]!);
                  break;
                case 27: // POPC
                  sfppopc(st, code[o + S.MOD]!);
                  break;
                case 29: // COMPC
                  sfpcompc(st);
                  break;
                case 13: {
                  // IADD
                  const vd = code[o + S.VD]!;
                  sfpiadd(
                    st,
                    st.useLaneFlags ? st.laneFlags : -1,
                    vd,
                    code[o + S.VC]!,
                    code[o + S.MOD]!,
                    code[o + S.IMM]!,
                    vd < 8,
                  );
                  break;
                }
                case 15: // SETCC
                  sfpsetcc(
                    st,
                    st.useLaneFlags ? st.laneFlags : -1,
                    code[o + S.VC]!,
                    code[o + S.MOD]!,
                    code[o + S.IMM]!,
                  );
                  break;
                case 18: // AND
                  sfpand(
                    st,
                    st.useLaneFlags ? st.laneFlags : -1,
                    code[o + S.VD]!,
                    code[o + S.VB]!,
                    code[o + S.VC]!,
                  );
                  break;
                case 19: // OR
                  sfpor(
                    st,
                    st.useLaneFlags ? st.laneFlags : -1,
                    code[o + S.VD]!,
                    code[o + S.VB]!,
                    code[o + S.VC]!,
                  );
                  break;
                case 20: // XOR
                  sfpxor(st, st.useLaneFlags ? st.laneFlags : -1, code[o + S.VD]!, code[o + S.VC]!);
                  break;
                case 21: // NOT
                  sfpnot(st, st.useLaneFlags ? st.laneFlags : -1, code[o + S.VD]!, code[o + S.VC]!);
                  break;
                default:
                  execRecord(st, code, o);
              }
              c++;
              if (kk >= n || gap !== 0) break;
            }
            if (cnt > 0) {
              cycle = c;
              k = kk;
              issued += cnt;
              executed += cnt;
              sinceMatrix += cnt;
              if (c > lastDone) lastDone = c;
              prevShft2Sched = false;
              if (k >= n || gap !== 0 || cycle >= maxCycles) break;
            }
            if (!infos[k]!.simple) break;
          }
          const info = infos[k]!;
          if (
            info.sfpu &&
            ((stallNextPending && !info.nop) || (!wh && (pmStall & info.deps.stallReads) !== 0))
          ) {
            stallNextPending = false;
            stallCycles++;
          } else {
            stallNextPending = info.stallNext;
            const kk = k;
            const o = kk * STRIDE;
            curK = kk;
            issueCycle[kk] = cycle;
            issued++;
            executed++;
            sinceMatrix++;
            if (info.unit !== U.ISSUE) busy[info.unit]!++;
            k++;
            if (k === n && ++rep < reps) k = 0;
            if (k < n) gap = gapAfter[kk]!;
            if (checks) {
              if (pmAll !== 0) {
                const early = (wh ? pmAll : pmStall) & info.deps.reads;
                if (early !== 0) earlyRead(cycle, kk, info.name, false, early);
              }
              if (prevShft2Mode >= 0 || prevSwapSched)
                follow(cycle, kk, info.name, info.unit, info.latency, info.deps.writes);
              if (backdoorFlip === cycle - 1 && code[o + S.OP] === Op.TEMPLATE) backdoorNext(cycle, kk);
            }
            const latency = info.latency;
            if (cycle + latency > lastDone) lastDone = cycle + latency;
            const w = info.deps.writes;
            if (pending.length > 0 && w !== 0) supersedeRow(w, info.unit, cycle + latency);
            const fo = info.flagOp;
            if (fo !== 0 && (fo === 1 ? st.stackSize >= 8 : st.stackSize === 0))
              flagStack(kk, fo === 1 ? Op.PUSHC : Op.POPC);
            else if (latency > 1) {
              addInflight(w, cycle + latency, info.madFamily);
              const nx = k < n && gap === 0 ? infos[k]! : undefined;
              let clash = false; // an older in-flight value would land on these rows after us
              for (const p of pending) if ((w >>> p.row) & 1) clash = true;
              if (!clash && nx?.simple && ((nx.deps.reads | nx.deps.stallReads) & w) === 0) {
                // Nothing can observe the in-flight window: the next instruction (the only one on the
                // next cycle) neither reads nor stalls on these rows, and a write of its own wins anyway.
                execRecord(st, code, o);
              } else if (
                !clash &&
                held < 0 &&
                pending.length === 0 &&
                nx?.swappable &&
                !info.stallNext &&
                (nx.deps.writes & (info.deps.reads | w)) === 0 &&
                (wh || (pmStall & nx.deps.stallReads) === 0)
              ) {
                // The next instruction reads these rows early (it must see the old values) but cannot
                // stall and changes nothing this one depends on: run it first, then this one.
                held = o;
                heldK = kk;
              } else {
                capture(w);
                execRecord(st, code, o);
                defer(w, cycle + latency, info.madFamily);
              }
            } else {
              execRecord(st, code, o);
              if (held >= 0) {
                // This was the instruction the held one waited for (it is swappable: one cycle, no
                // flag-stack op), so the held result is now applied, before the next cycle.
                curK = heldK;
                execRecord(st, code, held);
                held = -1;
              }
            }
            prevShft2Mode = info.whShft2Mode;
            prevShft2Sched = false;
            prevSwapSched = false;
          }
          cycle++;
          // The outer loop's head for the next cycle (k < n keeps its condition true).
          if (k >= n || gap !== 0 || !infos[k]!.simple || cycle >= maxCycles) break;
          if (ifCount > 0) expireInflight(false);
          if (pending.length > 0) commitPending();
        }
        continue;
      }
      if (held >= 0) throw internalError('a held two-cycle result left the single-instruction path');
      if (trackOn && wevs.length > 0) landWrites(cycle);
      // Scheduled instructions that execute this cycle.
      let nFired = 0;
      for (let q = queue.length - 1; q >= 0; q--) {
        const e = queue[q]!;
        if (e.readyAt === cycle) {
          const other = fired[e.unit];
          if (other) {
            // Two scheduled instructions reached one sub-unit on one cycle: one of them is lost.
            forgotten++;
            report(
              'macro-forgotten',
              cycle,
              srcIndex(e.index),
              `${e.name} and ${other.name} (SFPLOADMACROs at ${formatSourceOf(sources, srcIndex(e.index))} and ${formatSourceOf(sources, srcIndex(other.index))}) reached the ${UNITS[e.unit]} sub-unit on the same cycle; only one executes`,
            );
          }
          fired[e.unit] = e;
          nFired++;
          queue.splice(q, 1);
        }
      }
      if (nFired === 0 && k >= n && queue.length > 0) {
        // Nothing ready: either cycle-kind entries still counting, or instruction-kind ones that
        // will never count down again.
        const anyInstr = queue.some((e) => e.kind === KIND_INSTRUCTIONS);
        if (anyInstr && queue.every((e) => e.readyAt < 0)) {
          for (const e of queue) {
            report(
              'macro-pending-at-end',
              cycle,
              srcIndex(e.index),
              `${e.name} scheduled on the ${UNITS[e.unit]} sub-unit by instruction ${srcIndex(e.index)} still waits ${e.counter} instruction(s)`,
            );
          }
          queue.length = 0;
          if (pending.length === 0) break;
        }
      }

      // The thread's instruction for this cycle.
      let reg = -1;
      let regInfo: Info | undefined;
      let note: 'stall' | undefined;
      let issuedSfpu = false;
      if (k < n) {
        const src = prog.sourceIndex[k]!;
        if (gap > 0) {
          gap--; // REPLAY recording or header: the frontend emits nothing this cycle
        } else if (matrix.has(src) && matrixDoneFor !== src) {
          matrixDoneFor = src;
          matrixRows = matrix.get(src);
          sinceMatrix = 0;
          if (wantTimeline)
            timeline.push({
              cycle,
              unit: 'issue',
              index: src,
              scheduled: false,
              text: 'Matrix Unit write to Dst',
            });
        } else if (stallwaitBlocked) {
          // Idle: nothing scheduled, nothing executing from a schedule, nothing in flight. The block
          // lifts one cycle after the condition is met (STALLWAIT.md).
          if (queue.length === 0 && nFired === 0 && pending.length === 0 && ifCount === 0)
            stallwaitBlocked = false;
          note = 'stall';
          stallCycles++;
        } else {
          const info = infos[k]!;
          let stall = false;
          if (info.sfpu) {
            if (stallNextPending && info.name !== 'SFPNOP') stall = true;
            else if (arch === 'blackhole' && (pendingRows(true) & info.deps.stallReads) !== 0) stall = true;
          }
          stallNextPending = false;
          if (stall) {
            note = 'stall';
            stallCycles++;
          } else {
            reg = k;
            regInfo = info;
            issueCycle[k] = cycle;
            issued++;
            sinceMatrix++;
            k++;
            if (k === n && ++rep < reps) {
              k = 0;
              matrixDoneFor = -1;
            }
            if (k < n) gap = k === 0 ? prog.sourceIndex[0]! : Math.max(0, prog.sourceIndex[k]! - src - 1);
            issuedSfpu = info.sfpu;
            if (info.stallNext) stallNextPending = true;
          }
        }
      }
      if (note === 'stall' && wantTimeline) {
        timeline.push({
          cycle,
          unit: 'issue',
          index: srcIndex(k),
          scheduled: false,
          text: 'stall',
          note: 'stall',
        });
      }

      // Delay counters (SFPLOADMACRO.md): instruction kind if ANY outstanding entry has it. The
      // count-down happens as the cycle's instruction is issued, before an SFPLOADMACRO issued in
      // this cycle forgets and schedules (so a delay-1 entry from the previous cycle is at 0 by then).
      if (queue.length > 0) {
        let anyInstr = false;
        for (const e of queue) if (e.kind === KIND_INSTRUCTIONS) anyInstr = true;
        if (anyInstr ? issuedSfpu : true) {
          for (const e of queue) {
            if (e.readyAt >= 0) continue;
            e.counter--;
            if (e.counter <= 0) {
              e.counter = 0;
              e.readyAt = cycle + 1;
            }
          }
        }
      }

      // Who executes this cycle.
      execs.length = 0;
      for (let u = U.STORE; u >= U.SIMPLE; u--) {
        const s = fired[u];
        if (s)
          execs.push({
            unit: u,
            sched: s,
            k: s.index,
            name: s.name,
            deps: s.deps,
            latency: s.latency,
            vd: s.vd,
          });
      }
      if (reg >= 0 && regInfo) {
        const u = regInfo.unit;
        if (u !== U.ISSUE && u !== U.LOAD && fired[u]) {
          discarded++;
          report(
            'regular-discarded',
            cycle,
            srcIndex(reg),
            `${regInfo.name} was discarded: ${fired[u]!.name} scheduled by SFPLOADMACRO (instruction ${srcIndex(fired[u]!.index)}) reached the ${UNITS[u]} sub-unit on the same cycle`,
          );
          if (wantTimeline) {
            timeline.push({
              cycle,
              unit: UNITS[u]!,
              index: srcIndex(reg),
              scheduled: false,
              text: regularText(regInfo, code, reg * STRIDE),
              note: 'discarded',
            });
          }
          reg = -1;
        } else {
          const ex: Exec = {
            unit: u,
            sched: undefined,
            k: reg,
            name: regInfo.name,
            deps: regInfo.deps,
            latency: regInfo.latency,
            vd: code[reg * STRIDE + S.VD]!,
          };
          // keep the execution order (EXEC_RANK)
          let at = execs.length;
          while (at > 0 && EXEC_RANK[execs[at - 1]!.unit]! > EXEC_RANK[u]!) at--;
          execs.splice(at, 0, ex);
        }
      }

      if (mode !== 'off' && execs.length > 0) checkHazards(cycle);

      // Execute.
      const multi = execs.length > 1;
      if (checks) {
        for (const ex of execs) {
          const lm = !ex.sched && code[ex.k * STRIDE + S.OP] === Op.LOADMACRO;
          if (lm) trackOn = true;
          if (trackOn) noteExec(ex, lm);
        }
      }
      for (const ex of execs) {
        const commitAt = cycle + ex.latency;
        if (commitAt > lastDone) lastDone = commitAt;
        if (pending.length > 0 && ex.deps.writes !== 0) supersede(ex, commitAt);
        if (ex.latency > 1) {
          addInflight(
            ex.deps.writes,
            commitAt,
            !ex.sched && infos[ex.k]!.madFamily,
            ex.sched ? ex.sched.scheduledAt : -1,
          );
        }
        if (ex.sched) {
          const s = ex.sched;
          curK = s.index;
          if (ex.latency > 1 || multi) deferred(ex.deps.writes, commitAt, false, () => runScheduled(s));
          else runScheduled(s);
          scheduledExecuted++;
          executed++;
          busy[ex.unit]!++;
          if (wantTimeline)
            timeline.push({
              cycle,
              unit: UNITS[ex.unit]!,
              index: srcIndex(s.index),
              scheduled: true,
              text: s.text,
            });
          continue;
        }
        const o = ex.k * STRIDE;
        const info = infos[ex.k]!;
        const op = code[o + S.OP]!;
        const run = () => {
          if (op === Op.LOADMACRO) runLoadMacro(ex.k);
          else if (op === Op.PUSHC || op === Op.POPC) flagStack(ex.k, op);
          else if (op === Op.CONFIG) {
            const before = st.laneConfig & LC_DISABLE_BACKDOOR_LOAD;
            execRecord(st, code, o);
            if ((st.laneConfig & LC_DISABLE_BACKDOOR_LOAD) !== before) backdoorFlip = cycle;
          } else execRecord(st, code, o);
        };
        if (info.name === 'STALLWAIT') {
          stallwaitBlocked = true;
          sinceMatrix = 1 << 30;
        }
        curK = ex.k;
        if (ex.latency > 1 || (multi && ex.unit !== U.ISSUE)) {
          deferred(ex.deps.writes, commitAt, info.madFamily, run);
        } else run();
        executed++;
        if (ex.unit !== U.ISSUE) busy[ex.unit]!++;
        if (wantTimeline) {
          timeline.push({
            cycle,
            unit: ex.unit === U.ISSUE ? 'issue' : UNITS[ex.unit]!,
            index: srcIndex(ex.k),
            scheduled: false,
            text: regularText(info, code, o),
          });
        }
      }
      prevShft2Mode = -1;
      prevShft2Sched = false;
      prevSwapSched = false;
      for (const ex of execs) {
        if (ex.name === 'SFPSHFT2' && ex.latency === 2) {
          // WH: the software rules apply after any; BH: only scheduled ones (regular ones auto-stall).
          if (arch === 'wormhole' || ex.sched) {
            prevShft2Mode = ex.sched ? ex.sched.rec[S.MOD]! : code[ex.k * STRIDE + S.MOD]!;
            prevShft2Sched = ex.sched !== undefined;
          }
        } else if (ex.name === 'SFPSWAP' && ex.sched && arch === 'blackhole') prevSwapSched = true;
      }
      for (let u = 0; u < 5; u++) fired[u] = undefined;

      cycle++;
    }
  } catch (e) {
    if (e instanceof AxsimError && e.location?.index === undefined && curK >= 0) {
      throw e.at(locationOf(sources, srcIndex(curK)));
    }
    if (
      e instanceof AxsimError &&
      e.location?.index !== undefined &&
      e.location.line === undefined &&
      sources
    ) {
      throw e.at(locationOf(sources, e.location.index));
    }
    throw e;
  } finally {
    for (let u = 0; u < 5; u++) fired[u] = undefined;
  }

  if (trackOn && wevs.length > 0) landWrites(1 << 30);
  if (wantTimeline && sources)
    for (const e of timeline) if (e.index >= 0) e.loc = locationOf(sources, e.index);
  const total = Math.max(cycle, lastDone);
  const b = Object.fromEntries(UNITS.map((u, i) => [u, busy[i]!])) as Record<Unit, number>;
  const ipc = Object.fromEntries(UNITS.map((u, i) => [u, total ? busy[i]! / total : 0])) as Record<
    Unit,
    number
  >;
  return {
    arch,
    cycles: total,
    busy: b,
    ipc,
    issued,
    executed,
    scheduledExecuted,
    discarded,
    forgotten,
    stallCycles,
    hazards,
    hazardCount,
    issueCycle,
    ...(wantTimeline ? { timeline } : {}),
  };

  /**
   * A write that lands no earlier than an older in-flight write to the same LReg wins (program
   * order): the older write loses the lanes this instruction writes. The documents are silent on
   * two writes landing together; docs/tensix-timing.md records the choice.
   */
  function supersede(ex: Exec, commitAt: number): void {
    supersedeRow(ex.deps.writes, ex.unit, commitAt);
  }
  function supersedeRow(w: number, unit: number, commitAt: number): void {
    if ((w & (w - 1)) !== 0) return; // several rows (TRANSP, indirect VD): keep both, the later commit wins
    const row = 31 - Math.clz32(w);
    const lanes = unit === U.STORE ? 0 : enabled();
    for (const p of pending) if (p.row === row && p.commitAt === commitAt) p.lanes &= ~lanes;
    recomputePending();
  }

  function flagStack(kk: number, op: number): void {
    const o = kk * STRIDE;
    const mod1 = code[o + S.MOD]!;
    const idx = srcIndex(kk);
    let bad: HazardId | undefined;
    if (op === Op.PUSHC && (arch === 'wormhole' || mod1 === 0) && st.stackSize >= 8)
      bad = 'flag-stack-overflow';
    if (op === Op.POPC && mod1 === 0 && st.stackSize === 0) bad = 'flag-stack-underflow';
    if (!bad) {
      execRecord(st, code, o);
      return;
    }
    report(bad, cycle, idx, HAZARDS[bad].what);
    // Continue as the hardware does (spec 003): wrap instead of refusing.
    const policy = st.flagStackPolicy;
    if (mode === 'off' && policy === 'error') {
      execRecord(st, code, o); // the functional policy decides
      return;
    }
    st.flagStackPolicy = 'wrap';
    try {
      execRecord(st, code, o);
    } finally {
      st.flagStackPolicy = policy;
    }
  }

  function checkHazards(c: number): void {
    // Wormhole: reading any location a two-cycle instruction is still writing breaks the documented
    // rule. Blackhole documents only "consuming" a scheduled result too early, which axsim cannot
    // tell from reading the old value on purpose (tt-llk's recip 24b_5c does that), so there only a
    // regular instruction reading a regular result the stall logic missed is reported.
    const pendAll = pendingRows(false);
    const pendRegular = pendingRows(true);
    let simple: Exec | undefined;
    let round: Exec | undefined;
    let mad: Exec | undefined;
    for (const ex of execs) {
      const idx = srcIndex(ex.k);
      if (ex.unit === U.SIMPLE) simple = ex;
      else if (ex.unit === U.ROUND) round = ex;
      else if (ex.unit === U.MAD) mad = ex;
      const early =
        (arch === 'wormhole' ? pendAll : ex.sched ? ownRows(ex.sched.scheduledAt) : pendRegular) &
        ex.deps.reads;
      if (early !== 0) earlyRead(c, ex.k, ex.name, ex.sched !== undefined, early);
      if (prevShft2Mode >= 0 || prevSwapSched) follow(c, ex.k, ex.name, ex.unit, ex.latency, ex.deps.writes);
      if (!ex.sched && backdoorFlip === c - 1 && code[ex.k * STRIDE + S.OP] === Op.TEMPLATE)
        backdoorNext(c, ex.k);
      if (
        !ex.sched &&
        (ex.name === 'SFPLOAD' || ex.name === 'SFPLOADMACRO') &&
        sinceMatrix < 4 &&
        matrixRows
      ) {
        const o = ex.k * STRIDE;
        const addr = (code[o + S.IMM]! + st.dstMathOffset + st.rwcDst) & 1020;
        if (addr + 3 >= matrixRows[0] && addr <= matrixRows[1]) {
          report(
            'matrix-dst-too-close',
            c,
            idx,
            `${ex.name} reads Dst row ${addr} only ${sinceMatrix - 1} instruction(s) after a Matrix Unit write to Dst (3 needed)`,
          );
        }
      }
      if (ex.name === 'SFPCONFIG' && !ex.sched) checkStoreLanes(ex, c);
    }
    // (†) Simple and Round on the same cycle.
    if (
      simple &&
      round &&
      simple.name !== 'SFPNOP' &&
      round.name !== 'SFPNOP' &&
      simple.deps.writes &&
      round.deps.writes
    ) {
      const a = simple.vd;
      const b = round.vd;
      const ok16 = (a === 16) !== (b === 16);
      const okSplit = arch === 'wormhole' && ((a < 4 && b >= 4 && b < 8) || (b < 4 && a >= 4 && a < 8));
      if (!ok16 && !okSplit) {
        report(
          'simple-round-vd',
          c,
          srcIndex(simple.k),
          `${simple.name} (Simple, VD=${a}) and ${round.name} (Round, VD=${b}) write on the same cycle`,
        );
      }
    }
    // (‡) scheduled SFPSWAP on Simple needs the MAD sub-unit idle or on SFPNOP.
    if (simple?.sched && simple.name === 'SFPSWAP' && mad && mad.name !== 'SFPNOP') {
      report(
        'swap-mad-not-nop',
        c,
        srcIndex(simple.k),
        `SFPSWAP on the Simple sub-unit while the MAD sub-unit executes ${mad.name}`,
      );
    }
  }

  function backdoorNext(c: number, kk: number): void {
    report(
      'config-backdoor-next',
      c,
      srcIndex(kk),
      'an instruction with VD 12..15 right after an SFPCONFIG that changed LaneConfig.DISABLE_BACKDOOR_LOAD may see either value (template write or execution)',
    );
  }

  /**
   * Rows in flight from instructions scheduled by the same SFPLOADMACRO: reading them is consuming
   * that sequence's own result too early (BlackholeA0 SFPMAD.md caution for SFPLOADMACRO sequences).
   */
  function ownRows(owner: number): number {
    let m = 0;
    for (let i = 0; i < ifCount; i++) if (ifOwner[i] === owner && ifUntil[i]! > cycle) m |= ifMask[i]!;
    return m;
  }

  function earlyRead(c: number, kk: number, name: string, sched: boolean, rows: number): void {
    if (mode === 'warn' && hazards.length >= hazardLimit) {
      hazardCount++; // counted, not listed: skip building the message
      return;
    }
    report(
      'early-read',
      c,
      srcIndex(kk),
      `${sched ? 'scheduled ' : ''}${name} reads ${rowsOf(rows)
        .map((r) => `LReg[${r}]`)
        .join(', ')} before the two-cycle result written there is visible (it sees the old value)`,
    );
  }

  /** Rules for the cycle after SFPSWAP / a two-cycle SFPSHFT2, for one instruction executing now. */
  function follow(c: number, kk: number, name: string, unit: number, latency: number, writes: number): void {
    if (name === 'SFPNOP' || unit === U.ISSUE) return;
    if (arch === 'blackhole') {
      // BH SFPLOADMACRO.md (‡): Simple and Round idle or SFPNOP after a scheduled SFPSWAP;
      // BH SFPSHFT2.md: an idle cycle after a scheduled SFPSHFT2 of modes 2-4.
      const bad = prevShft2Sched || (prevSwapSched && (unit === U.SIMPLE || unit === U.ROUND));
      if (bad) {
        report(
          'swap-shft2-follow',
          c,
          srcIndex(kk),
          `${name} executes on the cycle after a scheduled ${prevShft2Sched ? 'SFPSHFT2' : 'SFPSWAP'}, which needs ${prevShft2Sched ? 'an idle cycle' : 'Simple and Round idle or SFPNOP'}`,
        );
      }
      return;
    }
    if (prevShft2Mode < 0) return;
    const forbidden =
      SHFT2_FORBIDDEN_NEXT.has(name) ||
      (name === 'SFPSHFT2' && latency === 1) ||
      (prevShft2Mode === 2 && (writes & 0xe) !== 0);
    if (forbidden) {
      report(
        'swap-shft2-follow',
        c,
        srcIndex(kk),
        `${name} on the cycle after SFPSHFT2 mode ${prevShft2Mode} (WormholeB0 SFPSHFT2.md forbids it)`,
      );
    }
  }

  function checkStoreLanes(ex: Exec, c: number): void {
    const o = ex.k * STRIDE;
    const vd = code[o + S.VD]!;
    if (vd < 4 || vd > 7) return;
    const mod1 = code[o + S.MOD]!;
    const imm = code[o + S.IMM]!;
    // Lanes taking part (SFPCONFIG.md): lane & 7 picks the LReg[0] lane and the Imm16 enable bit.
    let lanesOn = 0;
    for (let l = 0; l < 8; l++) {
      if (mod1 & 8 && !((imm >>> (l * 2)) & 1)) continue;
      if (st.useLaneFlags && !((st.laneFlags >>> l) & 1)) continue;
      lanesOn |= 1 << l;
    }
    const cur = (st.lmSequence[vd - 4]! >>> 24) & 7;
    let withStore = 0;
    for (let l = 0; l < 8; l++) {
      const v = (lanesOn >>> l) & 1 ? (mod1 & 1 ? imm & 0xffff : L[l]!) : st.lmSequence[vd - 4]!;
      const sel = (mod1 & 1 && (lanesOn >>> l) & 1 ? 0 : (v >>> 24) & 7) || ((lanesOn >>> l) & 1 ? 0 : cur);
      if (sel !== 0) withStore |= 1 << l;
    }
    if (withStore !== 0 && withStore !== 0xff) {
      report(
        'store-partial-lanes',
        c,
        srcIndex(ex.k),
        `SFPCONFIG of Sequence[${vd - 4}] leaves the Store sub-unit scheduled on lanes 0x${withStore.toString(16)} (of lane & 7) only`,
      );
    }
  }
}

function regName(r: number): string {
  return `L${r}`;
}

/** Timeline text of a regular instruction. */
function regularText(info: Info, code: Int32Array, o: number): string {
  const name = info.name.replace(/^SFP_?/, '').toLowerCase();
  const op = code[o + S.OP]!;
  if (op === Op.SETC16) return `SETC16 cfg[${code[o + S.MOD]!}] = ${code[o + S.IMM]!}`;
  if (info.unit === U.ISSUE) return info.name;
  if (op === Op.LOADMACRO) return `[${code[o + S.VD]!}] macro ${code[o + S.AUX]! & 3}`;
  if (op === Op.LOAD) return `${regName(code[o + S.VD]!)} = load`;
  if (op === Op.STORE) return `store ${regName(code[o + S.VD]!)}`;
  if (op === Op.NOP) return name === 'nop' ? 'nop' : name;
  if (op === Op.TEMPLATE) return `template[${code[o + S.MOD]!}] = ${name}`;
  if (op === Op.LOADI) {
    const imm = `0x${(code[o + S.IMM]! & 0xffff).toString(16)}`;
    const m = code[o + S.MOD]!;
    return `${regName(code[o + S.VD]!)}${m === 8 ? '.hi' : m === 10 ? '.lo' : ''} = ${imm}`;
  }
  if (op === Op.CONFIG) {
    const d = code[o + S.VD]!;
    const what =
      d < 4
        ? `Template[${d}]`
        : d < 8
          ? `Sequence[${d - 4}]`
          : d === 8
            ? 'Misc'
            : d === 15
              ? 'LaneConfig'
              : `L${d}`;
    const imm = code[o + S.MOD]! & 1 && d >= 4;
    return `${what} = ${imm ? `0x${(code[o + S.IMM]! & 0xffff).toString(16)}` : 'L0'}`;
  }
  const w = info.deps.writes;
  const reads = rowsOf(info.deps.reads).map(regName).join(', ');
  const dst = w ? `${rowsOf(w).map(regName).join(',')} = ` : '';
  return `${dst}${name}(${reads})`;
}

/** Timeline text of a scheduled instruction, in the `[x] L16 = op([x])` notation of tt-llk comments. */
function schedText(s: Scheduled): string {
  const m = s.macroVd;
  const show = (r: number) => (r === m ? `[${m}]` : r === 16 ? 'L16' : `L${r}`);
  const name = s.name.replace(/^SFP_?/, '').toLowerCase();
  if (s.unit === U.STORE) return `[${m}] store ${s.vd === m ? '' : show(s.vd)}`.trimEnd();
  if (s.name === 'SFPNOP') return `[${m}] nop`;
  const dst = s.vd === 16 ? `[${m}] L16` : s.vd === m ? `[${m}]` : `[${m}] L${s.vd}`;
  const reads = rowsOf(s.deps.reads).map(show).join(', ');
  return s.deps.writes ? `${dst} = ${name}(${reads})` : `[${m}] ${name}(${reads})`;
}
