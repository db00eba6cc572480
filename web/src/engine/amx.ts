// Apple AMX runs for the playground worker: the library's AmxMachine (stepped with
// AmxMachine.step) and its cycle model (explainProgramCycles). Nothing is computed here but the
// shape of the data the views draw.
import { type AmxOp, type AmxProgram, disassembleOp } from '../../../src/amx/asm.ts';
import { formatDiff } from '../../../src/amx/c/compare.ts';
import { compareWithRef } from '../../../src/amx/c/ref.ts';
import { type AmxCArray, zeroArray } from '../../../src/amx/c/run.ts';
import { type AmxCStepper, runAmxCSteps } from '../../../src/amx/c/steps.ts';
import { type AmxMemRange, amxFootprint } from '../../../src/amx/footprint.ts';
import {
  type AmxGen,
  AmxMachine,
  type AmxSnapshot,
  type AmxState as LibState,
} from '../../../src/amx/index.ts';
import { explainProgramCycles, formatBreakdown } from '../../../src/amx/perf/index.ts';
import { badInput } from '../../../src/errors.ts';
import { type NpyDtype, parseNpy } from '../../../src/io/npy.ts';
import type { AmxResult, AmxState, RunRequest, TensixRecord } from '../protocol.ts';

/** Memory ranges to show: `ADDR:BYTES` separated by spaces or commas (hex or decimal). */
export function parseRanges(text: string): { addr: number; len: number }[] {
  const out: { addr: number; len: number }[] = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const m = /^(0x[0-9a-f]+|\d+):(0x[0-9a-f]+|\d+)$/i.exec(part);
    if (!m) throw new Error(`memory range '${part}': write ADDRESS:BYTES, e.g. 0x30000:4096`);
    const len = Number(m[2]);
    if (len < 1 || len > 1 << 16) throw new Error(`memory range '${part}': 1 to 65536 bytes`);
    out.push({ addr: Number(m[1]), len });
  }
  return out.slice(0, 8);
}

interface Session {
  kind: 'asm';
  m: AmxMachine;
  p: AmxProgram;
  start: AmxSnapshot;
  ranges: { addr: number; len: number }[];
}

interface CSession {
  kind: 'c';
  stepper: AmxCStepper;
  /** The arrays after the run, as the Memory view shows them. */
  memory: AmxState['memory'];
  addresses: Record<string, { addr: number; len: number }>;
}

let session: Session | CSession | undefined;

/** Instruction texts sent with the run; later ones come with their step. */
const RECORD_TEXTS = 5000;

/**
 * The arrays of a C kernel, as `axsim amx run kernel.c --arg` takes them: `NAME=FILE.npy` (one of
 * the bundled examples/pto/*.npy) or `NAME=DTYPE:SHAPE` (zeros, e.g. `C=f4:64x64`).
 */
export function parseCArgs(text: string, inputs: Record<string, Uint8Array>): Record<string, AmxCArray> {
  const out: Record<string, AmxCArray> = {};
  for (const spec of text.split(/\s+/).filter(Boolean)) {
    const eq = spec.indexOf('=');
    if (eq <= 0)
      throw badInput(`argument ${spec}: use NAME=FILE.npy or NAME=DTYPE:SHAPE (zeros, e.g. C=f4:32x32)`);
    const name = spec.slice(0, eq);
    const what = spec.slice(eq + 1);
    const z = /^(f2|f4|f8|i1|i2|i4|i8|u1|u2|u4|u8):([1-9][0-9]*(?:x[1-9][0-9]*)*)$/.exec(what);
    if (z) {
      out[name] = zeroArray(z[1] as NpyDtype, z[2]!.split('x').map(Number));
      continue;
    }
    const bytes = inputs[what];
    if (!bytes)
      throw badInput(`argument ${spec}: no bundled file ${what}`, {
        hint: `bundled: ${Object.keys(inputs).sort().join(', ')}`,
      });
    const a = parseNpy(bytes, what);
    const d = a.data;
    out[name] = {
      dtype: a.dtype,
      shape: a.shape,
      bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice(),
    };
  }
  return out;
}

/**
 * A C kernel (`options.lang === 'c'`) run as `axsim amx run kernel.c --entry ... --arg ... --cycles`
 * does, recorded for stepping (runAmxCSteps): a step shows the registers after k instructions and
 * marks the C line that issued instruction k.
 */
function amxRunC(req: RunRequest, inputs: Record<string, Uint8Array>): AmxResult {
  const gen = new AmxMachine(req.options.gen ?? 'm1').gen;
  const entry = (req.options.entry ?? '').trim() || 'main()';
  const args = parseCArgs(req.options.args ?? '', inputs);
  const { result: r, stepper, why } = runAmxCSteps(req.source, { file: req.file, gen, entry, args });
  const refName = (req.options.ref ?? '').trim();
  // the reference runs on fresh inputs (runAmxC copied `args` into the program's memory)
  const ref = refName
    ? {
        name: refName,
        arrays: compareWithRef(req.source, { file: req.file, gen, entry, args }, r, refName).map((d) => ({
          ...d,
          text: formatDiff(d),
        })),
      }
    : undefined;
  const memory: AmxState['memory'] = Object.entries(r.arrays).map(([name, a], k) => ({
    addr: k,
    name,
    dtype: a.dtype,
    shape: a.shape,
    bytes: Array.from(a.bytes),
  }));
  const addresses: CSession['addresses'] = {};
  for (const [name, a] of Object.entries(r.arrays))
    addresses[name] = { addr: r.addresses[name]!, len: a.bytes.length };
  if (stepper) session = { kind: 'c', stepper, memory, addresses };
  const final = regView(r.state, r.ops.length, r.ops[r.ops.length - 1], gen, addresses);
  return {
    isa: 'amx',
    gen,
    steps: stepper ? r.ops.length : 0,
    ...(why ? { stepNote: why } : {}),
    records: records(r.ops),
    final: { ...final, memory, cArrays: true },
    ...(ref ? { ref } : {}),
    perf: perf(r.ops),
  };
}

function records(ops: readonly AmxOp[]): TensixRecord[] {
  return ops.map((o, k) => ({
    text: k < RECORD_TEXTS ? disassembleOp(o.op, o.operand) : '',
    line: o.line ?? 0,
  }));
}

function perf(ops: readonly AmxOp[]): AmxResult['perf'] {
  const b = explainProgramCycles(ops);
  return {
    text: formatBreakdown(b),
    cycles: b.cycles,
    kinds: b.kinds.map((k) => ({
      kind: k.kind,
      count: k.count,
      issue: k.issueCycles,
      stall: k.stallCycles,
    })),
  };
}

export function amxRun(req: RunRequest, inputs: Record<string, Uint8Array> = {}): AmxResult {
  session = undefined;
  if (req.options.lang === 'c') return amxRunC(req, inputs);
  const m = new AmxMachine(req.options.gen ?? 'm1');
  const ranges = parseRanges(req.options.mem ?? '');
  const p = m.load(req.source, { file: req.file });
  const start = m.snapshot();
  m.run(p);
  session = { kind: 'asm', m, p, start, ranges };
  return {
    isa: 'amx',
    gen: m.gen,
    steps: p.ops.length,
    records: records(p.ops),
    final: asmView(m, p.ops.length, p.ops[p.ops.length - 1], ranges),
    perf: perf(p.ops),
  };
}

/**
 * The state after `k` operations of the last run, with the bytes operation k read and wrote (the
 * library's amxFootprint of that operation).
 */
export function amxStep(k: number): AmxState {
  const s = session;
  if (!s) throw new Error('nothing has run yet');
  if (s.kind === 'c') {
    const st = s.stepper.stateAt(k);
    const v = regView(st, k, k > 0 ? s.stepper.ops[k - 1] : undefined, st.gen, s.addresses);
    if (!s.stepper.hasArrays) return { ...v, memory: s.memory, cArrays: true, memoryAfterRun: true };
    const now = s.stepper.arraysAt(k);
    const memory = s.memory.map((m) => ({ ...m, bytes: Array.from(now[m.name!]!) }));
    return { ...v, memory, cArrays: true };
  }
  const { m, p } = s;
  m.restore(s.start);
  m.step(p, 0, k);
  return asmView(m, k, k > 0 ? p.ops[k - 1] : undefined, s.ranges);
}

function flagged(mask: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) out.push(i);
  return out;
}

function hex(v: number | bigint): string {
  return `0x${v.toString(16)}`;
}

/** A memory range as text: the array it falls in (C kernels) or its address. */
function rangeText(r: AmxMemRange, arrays?: Record<string, { addr: number; len: number }>): string {
  const a = Number(r.addr);
  for (const [name, x] of Object.entries(arrays ?? {}))
    if (a >= x.addr && a < x.addr + x.len) return `${name} + ${a - x.addr} (${r.len} bytes)`;
  return `${hex(r.addr)} (${r.len} bytes)`;
}

/** Registers after `step` operations and what operation `step` (`op`) read and wrote. */
function regView(
  st: LibState,
  step: number,
  op: AmxOp | undefined,
  gen: AmxGen,
  arrays?: Record<string, { addr: number; len: number }>,
): AmxState {
  const none = { x: [], y: [], z: [] };
  const f = op && amxFootprint(gen, op.op, op.operand);
  return {
    isa: 'amx',
    step,
    x: Array.from(st.x),
    y: Array.from(st.y),
    z: Array.from(st.z),
    written: f ? { x: flagged(f.writes.x), y: flagged(f.writes.y), z: flagged(f.writes.z) } : none,
    read: f ? { x: flagged(f.reads.x), y: flagged(f.reads.y), z: flagged(f.reads.z) } : none,
    memAccess: f
      ? [
          ...f.reads.mem.map((r) => `reads memory ${rangeText(r, arrays)}`),
          ...f.writes.mem.map((r) => `writes memory ${rangeText(r, arrays)}`),
        ]
      : [],
    dataDependent: f?.dataDependent ?? false,
    ...(op ? { text: disassembleOp(op.op, op.operand) } : {}),
    memory: [],
  };
}

function asmView(
  m: AmxMachine,
  step: number,
  op: AmxOp | undefined,
  ranges: { addr: number; len: number }[],
): AmxState {
  return {
    ...regView(m.state, step, op, m.gen),
    memory: ranges.map(({ addr, len }) => {
      try {
        return { addr, bytes: Array.from(m.readMemory(addr, len)) };
      } catch (e) {
        return { addr, bytes: [], error: e instanceof Error ? e.message : String(e) };
      }
    }),
  };
}
