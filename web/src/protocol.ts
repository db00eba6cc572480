// Messages between the page and the simulator worker (worker.ts). Everything here is plain data
// (structured-clone safe); the numbers are the library's own results, never recomputed by the page.

export type Isa = 'tensix' | 'amx' | 'pto';

export interface RunRequest {
  isa: Isa;
  source: string;
  /** The file name errors are reported under (the example's name, or `playground.<ext>`). */
  file: string;
  /** ISA-specific options (arch, input, element type ...), as strings so they fit in the URL. */
  options: Record<string, string>;
}

/** An AxsimError (or any other failure) as the editor shows it. */
export interface ErrorInfo {
  category: string;
  message: string;
  hint?: string;
  line?: number;
  col?: number;
}

export type ToWorker =
  | { id: number; kind: 'run'; req: RunRequest; inputs: Record<string, Uint8Array> }
  | { id: number; kind: 'step'; step: number };

export type FromWorker =
  | { id: number; ok: true; result: RunResult }
  | { id: number; ok: true; state: StepState }
  | { id: number; ok: false; error: ErrorInfo };

export type RunResult = TensixResult | AmxResult | PtoResult;
export type StepState = TensixState | AmxState;

// ---- Tensix -----------------------------------------------------------------------------------

export interface TensixState {
  isa: 'tensix';
  /** Instructions executed so far (0 = before the program). */
  step: number;
  /** LReg[0..7], 32 lanes each, raw bits (index r * 32 + lane). */
  lreg: number[];
  laneFlags: number;
  useLaneFlags: number;
  /** The lanes enabled for the next instruction (bit l = lane l). */
  enabled: number;
  /** FlagStack entries in use, oldest first. */
  stack: { flags: number; en: number }[];
  stackSize: number;
  /** The shown Dst tile (TensixResult.tile) in the input's view: 64 rows x 16 columns, raw bits. */
  dst: number[];
  rwcDst: number;
  /** Dst rows (of the shown view) the last instruction loaded from or stored to. */
  touched: { rows: number[]; store: boolean } | null;
  /** The instruction the step executed (canonical text). */
  text?: string;
}

export interface TensixRecord {
  text: string;
  line: number;
}

export interface TimelineCell {
  cycle: number;
  unit: string;
  text: string;
  line: number;
  scheduled: boolean;
  note?: string;
  hazard?: string;
}

export interface HazardInfo {
  id: string;
  cycle: number;
  line: number;
  message: string;
  what: string;
  source: string;
}

export interface TensixResult {
  isa: 'tensix';
  arch: string;
  /** 'fp32' or 'int32': how the Dst tile and LRegs are read by default. */
  format: string;
  /** The Dst tile the views show (0..7). */
  tile: number;
  /** Instructions the stepper can step through (0 when the program needs the cycle model). */
  steps: number;
  /** Why stepping is unavailable, if it is. */
  stepNote?: string;
  records: TensixRecord[];
  final: TensixState;
  timeline: {
    cycles: number;
    units: string[];
    cells: TimelineCell[];
    /** Cycles shown (the timeline is cut after this many). */
    shown: number;
    hazards: HazardInfo[];
    hazardCount: number;
    busy: Record<string, number>;
    /** Why no timeline is drawn, if none is. */
    note?: string;
    error?: string;
  };
}

// ---- AMX ----------------------------------------------------------------------------------------

export interface AmxState {
  isa: 'amx';
  step: number;
  x: number[];
  y: number[];
  z: number[];
  /** Byte offsets the last operation wrote, per register file (the library's amxFootprint). */
  written: { x: number[]; y: number[]; z: number[] };
  /** Byte offsets the last operation read, per register file (amxFootprint). */
  read: { x: number[]; y: number[]; z: number[] };
  /** The last operation's memory reads and writes, as text. */
  memAccess: string[];
  /** Some reads depend on data (indexed loads, genlut): every byte the data could select is marked. */
  dataDependent: boolean;
  /** The instruction the step executed (canonical text). */
  text?: string;
  /** C kernels: the Memory view shows the bound arrays (not address ranges). */
  cArrays?: boolean;
  /** C kernels: the arrays are the ones after the run, whatever the step (not recorded per step). */
  memoryAfterRun?: boolean;
  /** Memory ranges (.amx), or a C kernel's arrays after the run (`name`, `dtype`, `shape`). */
  memory: {
    addr: number;
    bytes: number[];
    error?: string;
    name?: string;
    dtype?: string;
    shape?: number[];
  }[];
}

export interface AmxResult {
  isa: 'amx';
  gen: string;
  steps: number;
  /** Why stepping is unavailable, if it is. */
  stepNote?: string;
  records: TensixRecord[];
  final: AmxState;
  /** C kernels with `ref`: the reference function and each changed array compared with it. */
  ref?: {
    name: string;
    arrays: {
      name: string;
      dtype: string;
      elements: number;
      differing: number;
      maxAbs: number;
      maxUlp: number;
      worstIndex: number;
      text: string;
    }[];
  };
  perf: {
    text: string;
    cycles: number;
    kinds: { kind: string; count: number; issue: number; stall: number }[];
  };
}

// ---- PTO ----------------------------------------------------------------------------------------

export interface TileView {
  name: string;
  dtype: string;
  rows: number;
  cols: number;
  validRow: number;
  validCol: number;
  /** Row-major, the whole physical tile (numbers; 64-bit integers as decimal strings). */
  values: (number | string)[];
}

export interface PtoTraceRow {
  line: number;
  col: number;
  op: string;
  insn: string;
  inputs: string[];
  outputs: TileView[];
}

export interface PtoCostRow {
  line: number;
  col: number;
  op: string;
  count: number;
  cycles: number | null;
  note?: string;
}

export interface PtoResult {
  isa: 'pto';
  profile: string;
  instructions: number;
  tiles: TileView[];
  trace: PtoTraceRow[];
  arrays: { name: string; dtype: string; shape: number[]; values: (number | string)[]; written: boolean }[];
  costs: {
    model: string;
    arch: string;
    total: number;
    partial: boolean;
    rows: PtoCostRow[];
    /** Known defects of the reference model the figures reproduce (ProgramCost.warnings). */
    warnings: string[];
    error?: string;
  }[];
  notes: string[];
}
