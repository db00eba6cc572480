// Tensix SFPU runs for the playground worker: the library's TensixMachine (functional mode, stepped
// with TensixMachine.step) and its cycle model (runTimedProgram) — nothing is computed here but
// the shape of the data the views draw.
import { badInput, unsupported } from '../../../src/errors.ts';
import { parseNpy } from '../../../src/io/npy.ts';
import { f32ToBits } from '../../../src/numeric/index.ts';
import { assemble, compileKernel, disassembleWord } from '../../../src/tensix/asm/index.ts';
import {
  byOpcode,
  HAZARDS,
  type HazardId,
  LANES,
  type Program,
  runTimedProgram,
  type SourceMap,
  sourceMapOf,
  TensixMachine,
  type TensixSnapshot,
  withSource,
} from '../../../src/tensix/index.ts';
import { inferLlkApi } from '../../../src/tensix/llk/driver.ts';
import { applyHwConfigure, compileLlk, type KernelCompiler } from '../../../src/tensix/llk/run.ts';
import { UNITS } from '../../../src/tensix/timing/index.ts';
import type { RunRequest, TensixRecord, TensixResult, TensixState, TimelineCell } from '../protocol.ts';

/** Cycles of the timeline sent to the page (the run itself is not cut). */
const TIMELINE_CYCLES = 1500;
/** Instructions whose text is sent with a run; the rest come with their step. */
const RECORD_TEXTS = 5000;
/** Programs longer than this run on the cycle model without recording a timeline. */
const TIMELINE_MAX_INSTRUCTIONS = 50_000;

/** The Dst inputs the playground offers (docs/playground.md). */
export const TENSIX_INPUTS = ['tile.npy', 'ramp-fp32', 'ramp-int32'] as const;

/**
 * The 1024 input elements (one 32x32 tile, row-major) and the Dst format they are written in:
 * `tile.npy` is examples/tensix/tile.npy (the README's CLI example), `ramp-fp32` is (i - 512) / 8
 * and `ramp-int32` is i - 512, for element i.
 */
export function tensixInput(
  input: string,
  tileNpy: Uint8Array | undefined,
): { bits: Uint32Array; format: 'fp32' | 'int32' } {
  if (input === 'ramp-int32')
    return { bits: Uint32Array.from({ length: 1024 }, (_, i) => (i - 512) >>> 0), format: 'int32' };
  if (input === 'ramp-fp32')
    return { bits: Uint32Array.from({ length: 1024 }, (_, i) => f32ToBits((i - 512) / 8)), format: 'fp32' };
  if (!tileNpy) throw new Error('tile.npy is not loaded');
  const a = parseNpy(tileNpy, 'tile.npy');
  return { bits: Uint32Array.from(a.data as Float32Array, (x) => f32ToBits(x)), format: 'fp32' };
}

interface Session {
  m: TensixMachine;
  p: Program;
  sources: SourceMap;
  start: TensixSnapshot & { replayBuffer: Uint32Array };
  format: 'fp32' | 'int32';
  steps: number;
}

let session: Session | undefined;
/** The Dst tile the views show (0..7 of the 32-bit view), from the run's options. */
let shownTile = 0;

export function tensixRun(req: RunRequest, inputs: Record<string, Uint8Array>): TensixResult {
  session = undefined;
  shownTile = Math.max(0, Math.min(7, Math.trunc(Number(req.options.tile ?? 0)) || 0));
  const arch = req.options.arch === 'blackhole' ? 'blackhole' : 'wormhole';
  const m = new TensixMachine(arch);
  const { bits, format } = tensixInput(req.options.input ?? 'tile.npy', inputs['tile.npy']);
  m.writeDstTile(0, bits, format);
  // as `axsim tensix run --dst` does for a 32-bit input: the SFPU in FP32, SrcB BF16
  m.configure({ sfpuFp32: true, srcBFormat: 5 });
  const asm =
    req.options.lang === 'cpp' ? compileCpp(m, req) : assemble(req.source, arch, { file: req.file });
  const sources = sourceMapOf(asm, req.file);
  let p: Program;
  try {
    p = m.compile(asm.words);
  } catch (e) {
    throw withSource(e, sources);
  }
  const start = m.snapshot();
  const usesLoadMacro = Array.from(asm.words).some((w) => byOpcode(w >>> 24, arch)?.name === 'SFPLOADMACRO');

  // The cycle model: the timeline, hazards and (for SFPLOADMACRO programs) the result.
  let timeline: TensixResult['timeline'];
  let timedFinal: TensixState | undefined;
  try {
    const record = p.length <= TIMELINE_MAX_INSTRUCTIONS;
    const r = runTimedProgram(m, p, { timeline: record, hazards: 'warn', sources });
    const hazardAt = new Map<string, string>();
    for (const h of r.hazards)
      if (!hazardAt.has(`${h.cycle}:${h.index}`)) hazardAt.set(`${h.cycle}:${h.index}`, h.id);
    const cells: TimelineCell[] = [];
    for (const e of r.timeline ?? []) {
      if (e.cycle >= TIMELINE_CYCLES) break;
      const hazard = hazardAt.get(`${e.cycle}:${e.index}`);
      cells.push({
        cycle: e.cycle,
        unit: e.unit,
        text: e.text,
        line: lineIn(e.loc, req.file),
        scheduled: e.scheduled,
        ...(e.note ? { note: e.note } : {}),
        ...(hazard ? { hazard } : {}),
      });
    }
    timeline = {
      cycles: r.cycles,
      units: [...UNITS],
      cells,
      shown: Math.min(r.cycles, TIMELINE_CYCLES),
      hazards: r.hazards.map((h) => ({
        id: h.id,
        cycle: h.cycle,
        line: lineIn(h.location, req.file),
        message: h.message,
        what: HAZARDS[h.id as HazardId].what,
        source: h.source,
      })),
      hazardCount: r.hazardCount,
      busy: { ...r.busy },
      ...(record
        ? {}
        : { note: `no timeline drawn for programs over ${TIMELINE_MAX_INSTRUCTIONS} instructions` }),
    };
    if (usesLoadMacro) timedFinal = view(m, format, p.length, null);
  } catch (e) {
    timeline = {
      cycles: 0,
      units: [...UNITS],
      cells: [],
      shown: 0,
      hazards: [],
      hazardCount: 0,
      busy: {},
      error: e instanceof Error ? e.message : String(e),
    };
    if (usesLoadMacro) throw withSource(e, sources);
  }
  m.restore(start);

  let final: TensixState;
  let steps = p.length;
  let stepNote: string | undefined;
  if (timedFinal) {
    final = timedFinal;
    steps = 0;
    stepNote =
      'SFPLOADMACRO schedules instructions on the cycle model, so this program runs there: see the timeline (the stepper steps the sequential mode only).';
  } else {
    m.run(p, 1, { sources });
    final = view(m, format, p.length, null);
  }
  // the text of the first instructions only: a big program (a million after .rept) stays cheap
  const records: TensixRecord[] = Array.from(p.words, (w, k) => ({
    text: k < RECORD_TEXTS ? disassembleWord(w, arch, { comments: false }) : '',
    line: lineIn(sources[p.sourceIndex[k]!], req.file),
  }));
  session = { m, p, sources, start, format, steps };
  return {
    isa: 'tensix',
    arch,
    format,
    tile: shownTile,
    steps,
    ...(stepNote ? { stepNote } : {}),
    records,
    final,
    timeline,
  };
}

/**
 * A C++ kernel (SFPI or tt-llk style, `options.lang === 'cpp'`) compiled with the LLK environment
 * as `axsim tensix run kernel.h --entry ...` does (src/cli/tensix-llk.ts): the front end's
 * compileKernel, the environment's headers and set-up driver, the SFPU API inferred from the file
 * name, then `_llk_math_hw_configure_` (32-bit Dst, Float32) applied to the machine.
 */
function compileCpp(m: TensixMachine, req: RunRequest): { words: Uint32Array; sources?: SourceMap } {
  const entry = (req.options.entry ?? '').trim();
  if (entry === '')
    throw badInput('a C++ kernel needs an entry: the function to run', {
      hint: "e.g. axsim_sfpi::calculate_relu<false, 8> (the CLI's --entry)",
    });
  const inferred = inferLlkApi(req.file);
  const { compiled } = compileLlk(compileKernel as KernelCompiler, m, {
    source: req.source,
    file: req.file,
    entry,
    api: inferred?.api,
    sfpuType: inferred?.sfpuType,
  });
  if ((compiled.events?.length ?? 0) > 0)
    throw unsupported(
      'this kernel writes config registers from the RISC-V side between its words (e.g. init_prng_seed); the playground does not run such kernels yet',
      { hint: 'run it with `axsim tensix run kernel.h --entry ...`' },
    );
  applyHwConfigure(m, { fp32Dest: true });
  return { words: compiled.words, sources: compiled.sources };
}

/** The line of `loc` in the edited file (0 when the word comes from a header or the LLK driver). */
function lineIn(loc: { file?: string; line?: number } | undefined, file: string): number {
  if (!loc || (loc.file !== undefined && loc.file !== file)) return 0;
  return loc.line ?? 0;
}

/** The state after `k` instructions of the last run (the same machine, stepped from its start). */
export function tensixStep(k: number): TensixState {
  const s = session;
  if (!s) throw new Error('nothing has run yet');
  const { m, p } = s;
  m.restore(s.start);
  if (k <= 0) return view(m, s.format, 0, null);
  m.step(p, 0, k - 1, { sources: s.sources });
  m.state.lastDstAddr = -1;
  m.step(p, k - 1, k, { sources: s.sources });
  const a = m.state.lastDstAddr;
  const touched =
    a < 0 ? null : { rows: [0, 1, 2, 3].map((r) => (a & ~3) + r), store: m.state.lastDstStore === 1 };
  return {
    ...view(m, s.format, k, touched),
    text: disassembleWord(p.words[k - 1]!, p.arch, { comments: false }),
  };
}

function view(
  m: TensixMachine,
  format: 'fp32' | 'int32',
  step: number,
  touched: TensixState['touched'],
): TensixState {
  const st = m.state;
  const n = Math.min(st.stackSize, 8);
  return {
    isa: 'tensix',
    step,
    lreg: Array.from(st.lreg.subarray(0, 8 * LANES)),
    laneFlags: st.laneFlags >>> 0,
    useLaneFlags: st.useLaneFlags,
    enabled: st.enabledMask() >>> 0,
    stack: Array.from({ length: n }, (_, k) => ({ flags: st.stackFlags[k]! >>> 0, en: st.stackEn[k]! })),
    stackSize: st.stackSize,
    dst: Array.from(m.readDstRows(shownTile * 64, 1024, format)),
    rwcDst: st.rwcDst,
    touched,
  };
}
