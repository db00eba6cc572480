// Ascend PTO runs for the playground worker: the library's PtoMachine (with its op-by-op trace)
// and the three cost models (costProgram). Nothing is computed here but the shape of the data the
// views draw.
import { Budget } from '../../../src/budget.ts';
import { dtypeSize, type NpyArray, type NpyDtype, npyDataOf, parseNpy } from '../../../src/io/npy.ts';
import { COST_MODELS, costFunction } from '../../../src/pto/cost/index.ts';
import { costProgram } from '../../../src/pto/cost/program.ts';
import type { CostArch } from '../../../src/pto/cost/types.ts';
import { PtoMachine, readTile, type Tile } from '../../../src/pto/public.ts';
import type { PtoResult, PtoTraceRow, RunRequest, TileView } from '../protocol.ts';

const DTYPES: Record<string, NpyDtype> = {
  f4: 'f4',
  f2: 'f2',
  i4: 'i4',
  i2: 'i2',
  i1: 'i1',
  u1: 'u1',
  u2: 'u2',
  u4: 'u4',
};

/**
 * The program's arguments, as the CLI's `--arg` takes them: `NAME=FILE.npy` (a bundled example
 * input), `NAME=zeros:RxC:DTYPE` (an all-zero array) or `NAME=NUMBER` (a scalar).
 */
export function parseArgs(
  text: string,
  inputs: Record<string, Uint8Array>,
): { arrays: Record<string, NpyArray>; scalars: Record<string, number> } {
  const arrays: Record<string, NpyArray> = {};
  const scalars: Record<string, number> = {};
  for (const part of text.split(/\s+/).filter(Boolean)) {
    const m = /^%?([\w$.-]+)=(.+)$/.exec(part);
    if (!m) throw new Error(`argument '${part}': write NAME=FILE.npy, NAME=zeros:16x64:f4 or NAME=2.5`);
    const [, name, v] = m as unknown as [string, string, string];
    const z = /^zeros:(\d+)x(\d+):(\w+)$/.exec(v);
    if (v.endsWith('.npy')) {
      const bytes = inputs[v];
      if (!bytes) throw new Error(`argument ${name}: no bundled input ${v} (examples/pto/*.npy)`);
      arrays[name] = parseNpy(bytes, v);
    } else if (z) {
      const dtype = DTYPES[z[3]!];
      if (!dtype)
        throw new Error(`argument ${name}: dtype ${z[3]} is not one of ${Object.keys(DTYPES).join(', ')}`);
      const shape = [Number(z[1]), Number(z[2])];
      if (shape[0]! * shape[1]! > 1 << 20) throw new Error(`argument ${name}: at most 2^20 elements`);
      const n = shape[0]! * shape[1]!;
      arrays[name] = { dtype, shape, data: npyDataOf(dtype, new ArrayBuffer(n * dtypeSize(dtype)), n) };
    } else if (v.trim() !== '' && !Number.isNaN(Number(v))) {
      scalars[name] = Number(v);
    } else {
      throw new Error(`argument ${name}=${v}: not a .npy input, zeros:RxC:DTYPE or a number`);
    }
  }
  return { arrays, scalars };
}

function plain(v: number | bigint): number | string {
  return typeof v === 'bigint' ? v.toString() : v;
}

export function tileView(name: string, t: Tile): TileView {
  return {
    name,
    dtype: t.dtype,
    rows: t.rows,
    cols: t.cols,
    validRow: t.validRow,
    validCol: t.validCol,
    values: readTile(t).flat().map(plain),
  };
}

export function ptoRun(req: RunRequest, inputs: Record<string, Uint8Array>): PtoResult {
  const profile = req.options.profile ?? 'cpu';
  const m = new PtoMachine(profile);
  const { arrays, scalars } = parseArgs(req.options.args ?? '', inputs);
  for (const [k, a] of Object.entries(arrays)) m.write(k, a);
  const module = m.load(req.source, { file: req.file });
  const trace: PtoTraceRow[] = [];
  const budget = new Budget({ steps: 1_000_000, elementOps: 200_000_000, liveBytes: 256 << 20 });
  const r = m.run(module, {
    scalars,
    budget,
    maxSteps: 1_000_000,
    trace: (e) => {
      if (trace.length >= 2000) return;
      trace.push({
        line: e.line,
        col: e.col,
        op: e.op,
        insn: e.insn,
        inputs: e.inputs.map((v) =>
          v.kind === 'scalar'
            ? `${v.name ? `%${v.name} = ` : ''}${v.scalar}`
            : `%${v.name ?? '?'}${v.tile ? ` ${v.tile.dtype} ${v.tile.rows}x${v.tile.cols} valid ${v.tile.validRow}x${v.tile.validCol}` : ''}${v.place ? ` @ ${v.place}` : ''}${v.arg ? ` (${v.arg} + ${v.offset})` : ''}`,
        ),
        outputs: e.outputs.filter((v) => v.tile).map((v) => tileView(`%${v.name ?? '?'}`, v.tile!)),
      });
    },
  });
  const arch: CostArch = req.options.cost === 'a5' ? 'a5' : 'a2a3';
  const costs = COST_MODELS.map((model) => {
    try {
      const c = costProgram(module, model, arch, costFunction(model, arch), { scalars, file: req.file });
      return {
        model,
        arch,
        total: c.total,
        partial: c.partial,
        warnings: [...c.warnings],
        rows: c.instructions.map((i) => ({
          line: i.line,
          col: i.col,
          op: i.op,
          count: i.count,
          cycles: i.cycles,
          ...(i.note ? { note: i.note } : {}),
        })),
      };
    } catch (e) {
      return {
        model,
        arch,
        total: 0,
        partial: true,
        rows: [],
        warnings: [],
        error: e instanceof Error ? e.message : String(e),
      };
    }
  });
  return {
    isa: 'pto',
    profile,
    instructions: r.instructions,
    tiles: Object.entries(r.values).map(([k, t]) => tileView(`%${k}`, t)),
    trace,
    arrays: [...m.memory].map(([name, a]) => ({
      name,
      dtype: a.dtype,
      shape: [...a.shape],
      values: Array.from(a.data as ArrayLike<number | bigint>, plain),
      written: r.written.includes(name),
    })),
    costs,
    notes: [...r.notes, ...r.printed],
  };
}
