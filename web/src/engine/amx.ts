// Apple AMX runs for the playground worker: the library's AmxMachine (stepped with
// AmxMachine.step) and its cycle model (explainProgramCycles). Nothing is computed here but the
// shape of the data the views draw.
import { type AmxProgram, disassembleOp } from '../../../src/amx/asm.ts';
import { type AmxCArray, runAmxC, zeroArray } from '../../../src/amx/c/run.ts';
import { AmxMachine, type AmxSnapshot } from '../../../src/amx/index.ts';
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
  m: AmxMachine;
  p: AmxProgram;
  start: AmxSnapshot;
  ranges: { addr: number; len: number }[];
}

let session: Session | undefined;

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

/** A C kernel (`options.lang === 'c'`) run as `axsim amx run kernel.c --entry ... --arg ... --cycles`. */
function amxRunC(req: RunRequest, inputs: Record<string, Uint8Array>): AmxResult {
  const gen = new AmxMachine(req.options.gen ?? 'm1').gen;
  const entry = (req.options.entry ?? '').trim() || 'main()';
  const args = parseCArgs(req.options.args ?? '', inputs);
  const r = runAmxC(req.source, { file: req.file, gen, entry, args, trace: true });
  const b = explainProgramCycles(r.ops);
  const st = r.state;
  return {
    isa: 'amx',
    gen,
    steps: 0,
    records: [],
    final: {
      isa: 'amx',
      step: 0,
      x: Array.from(st.x),
      y: Array.from(st.y),
      z: Array.from(st.z),
      written: { x: [], y: [], z: [] },
      memory: Object.entries(r.arrays).map(([name, a], k) => ({
        addr: k,
        name,
        dtype: a.dtype,
        shape: a.shape,
        bytes: Array.from(a.bytes),
      })),
    },
    perf: {
      text: formatBreakdown(b),
      cycles: b.cycles,
      kinds: b.kinds.map((k) => ({
        kind: k.kind,
        count: k.count,
        issue: k.issueCycles,
        stall: k.stallCycles,
      })),
    },
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
  const final = view(m, p.ops.length, ranges, null);
  const b = explainProgramCycles(p.ops);
  session = { m, p, start, ranges };
  return {
    isa: 'amx',
    gen: m.gen,
    steps: p.ops.length,
    records: p.ops.map((o): TensixRecord => ({ text: disassembleOp(o.op, o.operand), line: o.line ?? 0 })),
    final,
    perf: {
      text: formatBreakdown(b),
      cycles: b.cycles,
      kinds: b.kinds.map((k) => ({
        kind: k.kind,
        count: k.count,
        issue: k.issueCycles,
        stall: k.stallCycles,
      })),
    },
  };
}

/** The state after `k` operations of the last run, with the bytes operation k changed. */
export function amxStep(k: number): AmxState {
  const s = session;
  if (!s) throw new Error('nothing has run yet');
  const { m, p } = s;
  m.restore(s.start);
  if (k <= 0) return view(m, 0, s.ranges, null);
  m.step(p, 0, k - 1);
  const before = m.snapshot();
  m.step(p, k - 1, k);
  return view(m, k, s.ranges, before);
}

function changed(a: Uint8Array, b: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

function view(
  m: AmxMachine,
  step: number,
  ranges: { addr: number; len: number }[],
  before: AmxSnapshot | null,
): AmxState {
  const s = m.state;
  return {
    isa: 'amx',
    step,
    x: Array.from(s.x),
    y: Array.from(s.y),
    z: Array.from(s.z),
    written: before
      ? { x: changed(before.x, s.x), y: changed(before.y, s.y), z: changed(before.z, s.z) }
      : { x: [], y: [], z: [] },
    memory: ranges.map(({ addr, len }) => {
      try {
        return { addr, bytes: Array.from(m.readMemory(addr, len)) };
      } catch (e) {
        return { addr, bytes: [], error: e instanceof Error ? e.message : String(e) };
      }
    }),
  };
}
