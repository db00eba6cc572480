/**
 * The PTO-AS runner: executes a verified function on part 1's simulator (src/pto/index.ts
 * `execute`). Pointer arguments are bound to `.npy` arrays (the arrays are the global memory the
 * views address, so TSTORE writes land in them); tile buffers are part-1 tiles created from their
 * `!pto.tile_buf` types; DPS ops write into the buffer named in `outs(...)`, so in-place forms
 * (`ins(%x, …) outs(%x)`) work; Level-1 SSA results are fresh tiles.
 */
import { type Budget, defaultBudget } from '../../budget.ts';
import { badInput, undefinedBehaviour, unsupported } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import {
  createTile,
  DTYPE_INFO,
  execute,
  GlobalTensor,
  getOp,
  type Operand,
  type Profile,
  prepare,
  readElement,
  TILE_LOCS,
  Tile,
  type TileLoc,
  type TileSpec,
  tileFromNpy,
} from '../index.ts';
import { invalidForReference } from '../op.ts';
import type { Func, Module, Op, TileBufType } from './ast.ts';
import { attrWord, type TileCall } from './call.ts';
import { execFunc, findFunc, mixedEntry, type RtValue, type TileValue, type ViewValue } from './exec.ts';
import { BufferMemory, overlaps, type Placement, samePlace } from './memory.ts';
import { PipeHub } from './pipes.ts';
import { dtypeOfName } from './types.ts';

export interface RunOptions {
  func?: string;
  /**
   * A function to run that is not one of the module's (`mixedEntry(m)`); overrides `func`. Without
   * `func` or `entry`, a module whose cube and vector kernels use pipes and that has no `pto.entry`
   * runs as `mixedEntry(m)`.
   */
  entry?: Func;
  profile?: Profile;
  file?: string;
  maxSteps?: number;
  /** Called after every tile instruction with copies of what it read and wrote. */
  trace?: (e: TraceEvent) => void;
  /** Resource budget: element-operations and live tile bytes (src/budget.ts defaults when absent). */
  budget?: Budget;
}

/** One operand of a traced instruction: a tile (a copy), a scalar, or a global view's values. */
export interface TraceValue {
  /** The SSA name (without `%`), or undefined for an immediate. */
  name: string | undefined;
  kind: 'tile' | 'scalar' | 'view';
  /** Tiles: a copy of the tile; views: the view's elements read into a row-major tile. */
  tile?: Tile;
  /** Where the tile lives (`UB[2048..2111]`) when it is in a buffer memory. */
  place?: string;
  scalar?: number;
  /** Views: the pointer argument and the element offset of the view's origin. */
  arg?: string;
  offset?: number;
}

export interface TraceEvent {
  /** 1-based line:col of the instruction. */
  line: number;
  col: number;
  /** As written (`pto.tadd`) and the instruction it runs (`TADD`). */
  op: string;
  insn: string;
  /** Values before the instruction (inputs) and after it (destinations). */
  inputs: TraceValue[];
  outputs: TraceValue[];
}

export interface RunResult {
  func: string;
  /** Executed tile instructions. */
  instructions: number;
  /** The pointer arguments' arrays (written in place) and which of them were stored to. */
  arrays: Record<string, NpyArray>;
  written: string[];
  /** Final contents of tile arguments (Level-1 / assembly-form programs). */
  tiles: Record<string, Tile>;
  /** Values the function returned (Level-1 results), in order; non-tiles are undefined. */
  results: (Tile | undefined)[];
  /** Every tile-valued SSA name's last value (loop bodies: the last iteration's). */
  values: Record<string, Tile>;
  /** What the run could not model exactly but did not change results (printed as notes). */
  notes: string[];
  /** What `pto.tprint` printed (one entry per execution: position, tile, valid region values). */
  printed: string[];
}

const PAD = ['null', 'zero', 'max', 'min'] as const;
/** On-chip buffers are at most a few hundred KiB; anything far larger is a typo, not a tile. */
const MAX_TILE_ELEMENTS = 1 << 24;

function specOf(tb: TileBufType, validRow: number, validCol: number): TileSpec {
  const dtype = dtypeOfName(tb.dtype.name);
  if (!dtype) throw unsupported(`tiles of element type ${tb.dtype.name} cannot be simulated`);
  if (tb.rows * tb.cols > MAX_TILE_ELEMENTS) {
    throw unsupported(
      `a ${tb.rows}x${tb.cols} tile is larger than the simulator's limit of ${MAX_TILE_ELEMENTS} elements`,
    );
  }
  return {
    dtype,
    rows: tb.rows,
    cols: tb.cols,
    loc: tb.loc,
    validRow,
    validCol,
    dynamic: tb.vRow < 0 || tb.vCol < 0,
    blayout: tb.blayout === 'row_major' ? 'row' : 'col',
    slayout: tb.slayout === 'none_box' ? 'none' : tb.slayout === 'row_major' ? 'row' : 'col',
    fractal: tb.fractal,
    pad: PAD[tb.pad] ?? 'null',
  };
}

function tileOf(tb: TileBufType, validRow: number, validCol: number, profile: Profile): Tile {
  return createTile(specOf(tb, validRow, validCol), undefined, { profile });
}

/** Bytes a tile of this type occupies in its buffer (pto-isa `TileStorageBytes`: rows*cols*sizeof). */
function storageBytes(tb: TileBufType): number {
  const d = dtypeOfName(tb.dtype.name);
  if (!d) throw unsupported(`tiles of element type ${tb.dtype.name} cannot be simulated`);
  return tb.rows * tb.cols * DTYPE_INFO[d].bytes;
}

/** Do these ops allocate a buffer (placed in a buffer memory) rather than a Level-1 value? */
function allocatesBuffer(op: Op): boolean {
  return op.kind === 'pto.alloc_tile' || op.kind === 'memref.alloc';
}

function bytesOfArray(a: NpyArray): Uint8Array {
  const d = a.data as unknown as ArrayBufferView;
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

/** A GlobalTensor for a partition view: the arg's bytes from the view's origin, strides as given. */
function globalOf(v: ViewValue, arrays: Record<string, NpyArray>): GlobalTensor {
  const arr = arrays[v.arg];
  if (!arr)
    throw badInput(`pointer argument %${v.arg} is not bound`, { hint: `pass --arg ${v.arg}=FILE.npy` });
  const dtype = dtypeOfName(v.elem);
  if (!dtype) throw unsupported(`global tensors of ${v.elem} cannot be simulated`);
  if (v.shape.length > 5) throw unsupported('views of rank > 5 are not supported');
  const all = bytesOfArray(arr);
  const eb = Math.max(1, all.length / Math.max(1, arrayLength(arr)));
  const shape = [...Array(5 - v.shape.length).fill(1), ...v.shape];
  const inner = v.strides.length ? v.strides : [1];
  const outer = Math.max(1, ...inner.map((s, i) => s * (v.shape[i] ?? 1)));
  const stride = [...Array(5 - v.strides.length).fill(outer), ...v.strides];
  const start = v.offset * eb;
  if (start > all.length) {
    throw badInput(
      `the view of %${v.arg} starts at element ${v.offset}, past its ${arrayLength(arr)} elements`,
    );
  }
  return new GlobalTensor(dtype, shape, stride, 'ND', all.subarray(start));
}

function arrayLength(a: NpyArray): number {
  return a.shape.reduce((x, y) => x * y, 1);
}

const ROUND: Record<string, string> = {
  NONE: 'CAST_NONE',
  RINT: 'CAST_RINT',
  ROUND: 'CAST_ROUND',
  FLOOR: 'CAST_FLOOR',
  CEIL: 'CAST_CEIL',
  TRUNC: 'CAST_TRUNC',
  ODD: 'CAST_ODD',
  CAST_RINT: 'CAST_RINT',
};

/** Runs function `opts.func` (default: the first) of a verified module. */
export function runProgram(
  m: Module,
  args: Record<string, NpyArray | number>,
  opts: RunOptions = {},
): RunResult {
  const profile = opts.profile ?? 'cpu';
  // a module of cube and vector kernels joined by pipes, without an entry, runs as one mixed kernel
  const f = opts.entry ?? (opts.func === undefined ? mixedEntry(m) : undefined) ?? findFunc(m, opts.func);
  const arrays: Record<string, NpyArray> = {};
  const scalars: Record<string, number> = {};
  for (const a of f.args) {
    const v = args[a.use.name];
    if (
      a.type.kind === 'ptr' ||
      a.type.kind === 'vector' ||
      (a.type.kind === 'memref' && a.type.space === 'gm')
    ) {
      // pointers and gm memrefs are global memory: bound to arrays
      if (v === undefined || typeof v === 'number') {
        throw badInput(`pointer argument %${a.use.name} needs an array`, {
          hint: `pass --arg ${a.use.name}=FILE.npy`,
        });
      }
      arrays[a.use.name] = v;
    } else if (a.type.kind === 'scalar') {
      if (typeof v !== 'number') {
        throw badInput(`scalar argument %${a.use.name} needs a number`, {
          hint: `pass --arg ${a.use.name}=VALUE`,
        });
      }
      scalars[a.use.name] = v;
    }
  }
  for (const k of Object.keys(args)) {
    if (!f.args.some((a) => a.use.name === k)) {
      throw badInput(`@${f.name} has no argument %${k}`, {
        hint: `arguments: ${f.args.map((a) => `%${a.use.name}`).join(' ')}`,
      });
    }
  }
  const written = new Set<string>();
  let count = 0;
  // pto.subset windows: each child tile is a copy of its parent's window, refreshed before every op
  // that uses it and written back after every op that writes it (docs/pto.md, "pto.subset")
  const windows = new Map<Tile, { parent: Tile; r0: number; c0: number }>();
  const copyWindow = (child: Tile, toChild: boolean): void => {
    const w = windows.get(child)!;
    const n = child.elemBytes;
    // the part of the child inside the parent (a pto.subview destination may be as large as its source)
    const rows = Math.min(child.rows, w.parent.rows - w.r0);
    const cols = Math.min(child.cols, w.parent.cols - w.c0);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const co = child.offset(r, c) * n;
        const po = w.parent.offset(w.r0 + r, w.c0 + c) * n;
        if (toChild) for (let b = 0; b < n; b++) child.bytes[co + b] = w.parent.bytes[po + b]!;
        else for (let b = 0; b < n; b++) w.parent.bytes[po + b] = child.bytes[co + b]!;
      }
    }
  };
  const syncIn = (t: Tile): void => {
    const w = windows.get(t);
    if (!w) return;
    syncIn(w.parent);
    copyWindow(t, true);
  };
  const syncOut = (t: Tile): void => {
    const w = windows.get(t);
    if (!w) return;
    copyWindow(t, false);
    syncOut(w.parent);
  };
  const tileArgs: Record<string, Tile> = {};
  // tile storage: buffers live in the run's buffer memories (docs/pto-as.md, "Tile storage")
  // each core of a mixed (cube + vector) run has its own buffers; core 0 is the entry's
  let mem = new BufferMemory(profile);
  const mems = new Map<number, BufferMemory>([[0, mem]]);
  const pipes = new PipeHub((text) => {
    if (!notes.includes(text)) notes.push(text);
  });
  const places = new WeakMap<Tile, Placement>();
  const notes: string[] = [];
  const printed: string[] = [];
  const reserveSites = new Map<string, object>();
  const argSites = new Map<string, object>();
  const where = (pos: { line: number; col: number }) =>
    `${opts.file === undefined ? '' : `${opts.file}:`}${pos.line}:${pos.col}`;
  const placed = (t: TileValue, spec: TileSpec, site: object, at: string, what: string): Tile => {
    const loc = spec.loc ?? 'vec';
    const size = storageBytes(t.type);
    const p =
      t.addr !== undefined
        ? mem.check(loc, t.addr, size, at, what, t.slot === true)
        : mem.autoPlace(site, loc, size, at);
    if (!p) {
      if (!notes.some((n) => n.startsWith(at)))
        notes.push(
          `${at}: no room left in ${mem.spec(loc).name} for this ${size}-byte tile without an address; it has storage of its own (axsim does not reuse space by liveness as ptoas's planner does)`,
        );
      return new Tile(spec);
    }
    const tile = new Tile(spec, mem.view(loc, p.addr, size));
    places.set(tile, p);
    return tile;
  };
  const budget = opts.budget ?? defaultBudget();
  const locOf = (pos: { line: number; col: number }) =>
    opts.file === undefined ? pos : { file: opts.file, ...pos };
  // live tile bytes, per allocation site: a site executed again (in a loop) replaces its old tile
  const siteBytes = new Map<unknown, number>();
  const { env, returned } = execFunc(
    f,
    {
      alloc(t: TileValue, op, argName) {
        const dt = dtypeOfName(t.type.dtype.name);
        const bytes = t.type.rows * t.type.cols * (dt ? DTYPE_INFO[dt].bytes : 1);
        budget.free(siteBytes.get(op) ?? 0);
        siteBytes.set(op, 0);
        budget.alloc(bytes, locOf(op.pos));
        siteBytes.set(op, bytes);
        const v = argName === undefined ? undefined : args[argName];
        const argType = argName === undefined ? undefined : f.args.find((a) => a.use.name === argName)?.type;
        // buffers (alloc_tile, memref.alloc, tile_buf / memref arguments) live in buffer memory;
        // Level-1 values (`!pto.tile` results and arguments) are values with storage of their own
        const buffer =
          t.slot === true ||
          (argType !== undefined
            ? argType.kind === 'tile_buf' || argType.kind === 'memref'
            : allocatesBuffer(op));
        if (!buffer) {
          if (v !== undefined && typeof v !== 'number') {
            // a tile argument bound to an array: its values land at their logical (r, c)
            const dtype = dtypeOfName(t.type.dtype.name);
            if (!dtype) throw unsupported(`tiles of element type ${t.type.dtype.name} cannot be simulated`);
            return tileFromNpy(v, {
              dtype,
              rows: t.type.rows,
              cols: t.type.cols,
              validRow: t.validRow,
              validCol: t.validCol,
            });
          }
          return tileOf(t.type, t.validRow, t.validCol, profile);
        }
        const spec = specOf(t.type, t.validRow, t.validCol);
        let site: object = op;
        if (argName !== undefined) {
          site = argSites.get(argName) ?? {};
          argSites.set(argName, site);
        }
        const at = argName !== undefined ? `argument %${argName}` : where(op.pos);
        const tile = placed(
          t,
          spec,
          site,
          at,
          op.kind === 'memref.alloc' ? 'memref.alloc' : op.kind === 'generic' ? op.name : 'pto.alloc_tile',
        );
        if (v !== undefined && typeof v !== 'number') {
          const init = tileFromNpy(v, {
            ...spec,
            validRow: t.validRow,
            validCol: t.validCol,
          });
          tile.bytes.set(init.bytes);
        }
        return tile;
      },
      constant(name, elem, values) {
        // a local array, named so that it cannot clash with an argument
        const key = `${name} (constant)`;
        const bits = Number(/\d+$/.exec(elem)?.[0] ?? 0);
        const C =
          elem === 'f32'
            ? Float32Array
            : elem === 'f64'
              ? Float64Array
              : /^ui/.test(elem)
                ? bits === 8
                  ? Uint8Array
                  : bits === 16
                    ? Uint16Array
                    : Uint32Array
                : bits === 8
                  ? Int8Array
                  : bits === 16
                    ? Int16Array
                    : bits === 32
                      ? Int32Array
                      : undefined;
        if (!C) throw unsupported(`dense constants of ${elem} are not simulated`);
        // integers wrap to the element width, as MLIR reads 50000 : i16 as its 16-bit pattern
        const data = new C(values.length);
        data.set(values);
        const dtype =
          data instanceof Float32Array
            ? 'f4'
            : data instanceof Float64Array
              ? 'f8'
              : `${data instanceof Uint8Array || data instanceof Uint16Array || data instanceof Uint32Array ? 'u' : 'i'}${data.BYTES_PER_ELEMENT}`;
        arrays[key] = { dtype, shape: [values.length], data } as NpyArray;
        return key;
      },
      copy(dst, src, what) {
        copyViews(dst, src, arrays, what);
        written.add(dst.arg);
      },
      pipe: pipes,
      enterCore(core) {
        let m = mems.get(core.id);
        if (!m) {
          m = new BufferMemory(profile);
          mems.set(core.id, m);
        }
        mem = m;
      },
      setValid(t) {
        const tile = t.handle as Tile;
        tile.validRow = t.validRow;
        tile.validCol = t.validCol;
      },
      assign(_src, addr, result) {
        // pto.tassign: the tile (both names) is now the view of its type at `addr`
        result.addr = addr;
        const spec = specOf(result.type, result.validRow, result.validCol);
        return placed(result, spec, {}, 'pto.tassign', 'pto.tassign');
      },
      reserve(loc, size, base, name, pos) {
        if (!(TILE_LOCS as readonly string[]).includes(loc))
          throw badInput(`pto.reserve_buffer: '${loc}' is not an on-chip buffer location`, {
            hint: `one of ${TILE_LOCS.join(', ')}`,
          });
        const key = `${pos.line}:${pos.col}`;
        let site = reserveSites.get(key);
        if (!site) {
          site = {};
          reserveSites.set(key, site);
        }
        return mem.reserve(site, loc as TileLoc, size, base, `pto.reserve_buffer "${name}" at ${where(pos)}`)
          .addr;
      },
      print(v, ctx) {
        printed.push(
          formatTraceEvent(
            {
              line: ctx.pos.line,
              col: ctx.pos.col,
              op: 'pto.tprint',
              insn: 'TPRINT',
              inputs: [traceValue(undefined, v, arrays, places, mem)],
              outputs: [],
            },
            { file: opts.file, rows: 64, cols: 64 },
          ),
        );
      },
      reshape(from, to) {
        const src = from.handle as Tile;
        const t = tileOf(to.type, to.validRow, to.validCol, profile);
        if (t.bytes.length !== src.bytes.length) throw badInput('pto.treshape: the buffers differ in size');
        const r = new Tile(t.spec(), src.bytes);
        const p = places.get(src);
        if (p) places.set(r, p);
        const w = windows.get(src);
        if (w) windows.set(r, w);
        return r;
      },
      subset(parent, child, r0, c0) {
        const t = tileOf(child.type, child.validRow, child.validCol, profile);
        windows.set(t, { parent: parent.handle as Tile, r0, c0 });
        return t;
      },
      tile(call, ins, out, ctx, extraOuts) {
        count++;
        // charged before the work: one huge instruction is refused before it starts
        let n = elementsOf(out);
        for (const v of ins) n += elementsOf(v);
        for (const v of extraOuts) n += elementsOf(v);
        budget.elements(n, locOf(ctx.pos));
        if (call.sig.insn === 'TSUBVIEW' && out.kind === 'tile') {
          // pto.subview re-points the destination at the source's bytes (no data moves on the
          // device): the destination's own buffer bytes stay as they are; it becomes a window tile
          const t = out.handle as Tile;
          out.handle = new Tile(t.spec());
        }
        if (call.sig.insn === 'TGET_SCALE_ADDR' && out.kind === 'tile' && ins[0]?.kind === 'tile') {
          // TGET_SCALE_ADDR.md: Address(dst) = Address(src) >> SHIFT_MX_ADDR (4, npu/a5/utils.hpp):
          // the destination is rebound, no data moves (the CPU simulator aliases dst to src)
          if (profile !== 'a5')
            throw unsupported('TGET_SCALE_ADDR: A5 only (TGET_SCALE_ADDR.md: no A2/A3 implementation)');
          const p = places.get(ins[0].handle as Tile);
          if (!p) throw unsupported('TGET_SCALE_ADDR: the source tile has no place in a buffer memory');
          const spec = specOf(out.type, out.validRow, out.validCol);
          const at = where(ctx.pos);
          if (ins[0].addr !== undefined) {
            out.addr = p.addr >> 4;
            out.handle = placed(out, spec, {}, at, 'TGET_SCALE_ADDR');
          } else {
            // the source's address is axsim's own choice (no addr =): the scale tile gets a
            // region of its own rather than one derived from an arbitrary address
            out.addr = undefined;
            out.handle = placed(out, spec, ctx.pos, at, 'TGET_SCALE_ADDR');
            if (!notes.some((x) => x.startsWith(at)))
              notes.push(
                `${at}: TGET_SCALE_ADDR of a tile without an address: the scale tile is placed on its own (with an address it would be at the source's address >> 4)`,
              );
          }
          return;
        }
        if (windows.size)
          for (const v of [...ins, out, ...extraOuts]) if (v.kind === 'tile') syncIn(v.handle as Tile);
        const inputs = opts.trace ? traceValues(call, ins, arrays, places, mem) : undefined;
        execCall(call, ins, out, arrays, profile, extraOuts, places);
        if (opts.trace) {
          const outs: RtValue[] = [out, ...extraOuts];
          const names = [call.out.use.name, ...call.extraOuts.map((o) => o.use.name)];
          opts.trace({
            line: ctx.pos.line,
            col: ctx.pos.col,
            op: call.name,
            insn: call.sig.insn,
            inputs: inputs!,
            outputs: outs.map((v, i) => traceValue(names[i], v, arrays, places, mem)),
          });
        }
        if (call.sig.insn === 'TSUBVIEW' && ins[0]?.kind === 'tile' && out.kind === 'tile') {
          // pto.subview: from now on the destination is a live window of the source
          const [r0, c0] = ins.slice(1).map((v) => (v.kind === 'int' ? v.v : 0));
          windows.set(out.handle as Tile, { parent: ins[0].handle as Tile, r0: r0 ?? 0, c0: c0 ?? 0 });
          return;
        }
        if (windows.size)
          for (const v of [out, ...extraOuts]) if (v.kind === 'tile') syncOut(v.handle as Tile);
        if (out.kind === 'view') written.add(out.arg);
        for (const v of extraOuts) if (v.kind === 'view') written.add(v.arg);
      },
    },
    { file: opts.file, scalars, maxSteps: opts.maxSteps, module: m, budget },
  );
  for (const a of f.args) {
    const v = env.get(a.use.name);
    if (v?.kind === 'tile') tileArgs[a.use.name] = v.handle as Tile;
  }
  const values: Record<string, Tile> = {};
  for (const [k, v] of env) if (v.kind === 'tile') values[k] = v.handle as Tile;
  const results = returned.map((v) => (v.kind === 'tile' ? (v.handle as Tile) : undefined));
  return {
    func: f.name,
    instructions: count,
    arrays,
    written: [...written],
    tiles: tileArgs,
    results,
    values,
    notes,
    printed,
  };
}

/** Element-wise GM copy between two views of equal element count and type (row-major order). */
function copyViews(dst: ViewValue, src: ViewValue, arrays: Record<string, NpyArray>, what: string): void {
  const n = src.shape.reduce((a, b) => a * b, 1);
  if (dst.shape.reduce((a, b) => a * b, 1) !== n)
    throw badInput(`${what}: dst has ${dst.shape.join('x')} elements, src ${src.shape.join('x')}`);
  if (dst.elem !== src.elem)
    throw unsupported(`${what}: ${src.elem} -> ${dst.elem} would convert; the copy moves bytes`);
  const bytes = (v: ViewValue) => {
    const a = arrays[v.arg];
    if (!a) throw badInput(`${what}: %${v.arg} is not bound to an array`);
    return bytesOfArray(a);
  };
  const db = bytes(dst);
  const sb = bytes(src);
  const d = dtypeOfName(src.elem);
  if (!d) throw unsupported(`${what}: ${src.elem} elements cannot be simulated`);
  const eb = DTYPE_INFO[d].bytes;
  const at = (v: ViewValue, k: number, len: number) => {
    let off = v.offset;
    for (let i = v.shape.length - 1; i >= 0; i--) {
      const dim = v.shape[i]!;
      off += (k % dim) * v.strides[i]!;
      k = Math.floor(k / dim);
    }
    if ((off + 1) * eb > len) throw badInput(`${what}: element ${off} of %${v.arg} is past its array`);
    return off * eb;
  };
  const tmp = new Uint8Array(n * eb);
  for (let k = 0; k < n; k++) {
    const o = at(src, k, sb.length);
    tmp.set(sb.subarray(o, o + eb), k * eb);
  }
  for (let k = 0; k < n; k++) db.set(tmp.subarray(k * eb, k * eb + eb), at(dst, k, db.length));
}

/** `UB[2048..2111]` for a tile in a buffer memory. */
function placeText(p: Placement | undefined): string | undefined {
  return p && `${p.space}[${p.addr}..${p.addr + p.size - 1}]`;
}

function traceValues(
  call: TileCall,
  ins: RtValue[],
  arrays: Record<string, NpyArray>,
  places: WeakMap<Tile, Placement>,
  mem: BufferMemory,
): TraceValue[] {
  return ins.map((v, i) => traceValue(call.ins[i]?.use?.name, v, arrays, places, mem));
}

/** A copy of one operand's current value for the trace. */
function traceValue(
  name: string | undefined,
  v: RtValue,
  arrays: Record<string, NpyArray>,
  places: WeakMap<Tile, Placement>,
  _mem: BufferMemory,
): TraceValue {
  if (v.kind === 'int' || v.kind === 'float') return { name, kind: 'scalar', scalar: v.v };
  if (v.kind === 'tile') {
    const t = v.handle as Tile;
    const place = placeText(places.get(t));
    return { name, kind: 'tile', tile: t.clone(), ...(place ? { place } : {}) };
  }
  if (v.kind === 'view') {
    const tv: TraceValue = { name, kind: 'view', arg: v.arg, offset: v.offset };
    const dtype = dtypeOfName(v.elem);
    if (!dtype || !arrays[v.arg] || v.shape.length === 0 || v.shape.some((d) => d <= 0)) return tv;
    const cols = v.shape[v.shape.length - 1]!;
    const rows = v.shape.slice(0, -1).reduce((a, b) => a * b, 1);
    if (rows * cols > MAX_TILE_ELEMENTS) return tv;
    try {
      const t = createTile({ dtype, rows, cols });
      execute('TLOAD', { tile: t, gm: globalOf(v, arrays) }, {}, { profile: 'cpu' });
      tv.tile = t;
    } catch {
      // a view the trace cannot read as one tile (e.g. past the array): name it only
    }
    return tv;
  }
  return { name, kind: 'scalar' };
}

/**
 * Operands of one instruction that share bytes (docs/pto-as.md, "Tile storage"): a source that
 * overlaps a destination is read as it was before the instruction (the in-place forms' read-then-
 * write order) — through the destination tile itself when it is the same view of the same bytes,
 * else through a copy; a scratch (`tmp`) operand must not overlap any other operand (pto-isa: "tmp
 * must not overlap dst or src", tprelu.md / txor.md), since the device kernels write it while the
 * sources are still being read.
 */
function resolveAliasing(
  def: ReturnType<typeof getOp>,
  operands: Record<string, Operand>,
  places: WeakMap<Tile, Placement>,
): void {
  const outs: { name: string; tile: Tile; p: Placement }[] = [];
  for (const spec of def.operands) {
    const t = operands[spec.name];
    const p = t instanceof Tile ? places.get(t) : undefined;
    if (spec.out && t instanceof Tile && p) outs.push({ name: spec.name, tile: t, p });
  }
  for (const spec of def.operands) {
    if (spec.out) continue;
    const t = operands[spec.name];
    if (!(t instanceof Tile)) continue;
    const p = places.get(t);
    if (!p) continue;
    if (spec.scratch) {
      for (const o of def.operands) {
        const u = operands[o.name];
        const q = o.name !== spec.name && u instanceof Tile ? places.get(u) : undefined;
        if (q && overlaps(p, q)) {
          throw undefinedBehaviour(
            `${def.name}: the scratch operand ${spec.name} (${placeText(p)}) overlaps ${o.name} (${placeText(q)})`,
            { hint: 'pto-isa: tmp must not overlap dst or the sources; place it in bytes of its own' },
          );
        }
      }
      continue;
    }
    for (const o of outs) {
      if (o.tile === t || !overlaps(p, o.p)) continue;
      const same =
        samePlace(p, o.p) &&
        t.dtype === o.tile.dtype &&
        t.rows === o.tile.rows &&
        t.cols === o.tile.cols &&
        t.blayout === o.tile.blayout &&
        t.slayout === o.tile.slayout &&
        t.fractal === o.tile.fractal &&
        t.validRow === o.tile.validRow &&
        t.validCol === o.tile.validCol;
      operands[spec.name] = same ? o.tile : t.clone();
      break;
    }
  }
}

/** Elements an operand spans (allocated tile size, or a view's shape); scalars count 1. */
function elementsOf(v: RtValue): number {
  if (v.kind === 'tile') return v.type.rows * v.type.cols;
  if (v.kind === 'view') return v.shape.reduce((x, y) => x * y, 1);
  return 1;
}

/** Why an instruction has no model, when the reference itself defines none. */

/** The prepared instruction of a call site, with the operands and attributes it was prepared for. */
interface PreparedCall {
  keys: string[];
  values: unknown[];
  run: () => void;
}
const preparedCalls = new WeakMap<TileCall, PreparedCall>();

/**
 * `execute(insn, operands, attrs)` through a prepared instruction cached per call site (issue 17:
 * validation paid once, not on every iteration of a loop). Reused only while the call site's
 * operands are the same tiles and its attributes the same primitive values (compared by identity);
 * anything else prepares again. `prepare(...).run()` does what `execute` does (src/pto/prepare.test.ts),
 * and re-validates by itself when a tile's valid region changed.
 */
function runPrepared(
  call: TileCall,
  insn: string,
  operands: Record<string, Operand>,
  attrs: Record<string, unknown>,
  profile: Profile,
): void {
  const keys = [...Object.keys(operands), '|', ...Object.keys(attrs)];
  const values = [...Object.values(operands), profile, ...Object.values(attrs)];
  const cacheable = values.every((v, i) =>
    i < Object.keys(operands).length ? v instanceof Tile : v === null || typeof v !== 'object',
  );
  if (!cacheable) {
    execute(insn, operands, attrs, { profile });
    return;
  }
  const c = preparedCalls.get(call);
  if (
    c !== undefined &&
    c.keys.length === keys.length &&
    c.keys.every((k, i) => k === keys[i]) &&
    c.values.every((v, i) => Object.is(v, values[i]))
  ) {
    c.run();
    return;
  }
  const p = prepare(insn, operands, attrs, { profile });
  preparedCalls.set(call, { keys, values, run: () => p.run() });
  p.run();
}

/** Maps one tile op onto part 1's `execute(name, operands, attrs)`. */
function execCall(
  call: TileCall,
  ins: RtValue[],
  out: TileValue | ViewValue,
  arrays: Record<string, NpyArray>,
  profile: Profile,
  extraOuts: RtValue[] = [],
  places?: WeakMap<Tile, Placement>,
): void {
  const insn = call.sig.insn;
  let def: ReturnType<typeof getOp>;
  try {
    def = getOp(insn);
  } catch {
    if (insn === 'TPACK')
      // PTOAS lowers pto.tpack to TPACK(dst, src), which pto-isa does not declare (docs/pto-as.md
      // decision 26)
      invalidForReference(
        call.name,
        'PTOAS lowers it to TPACK(dst, src), which pto-isa @3186c381 does not declare (no TPACK in include/pto/common/pto_instr.hpp or any backend), and tpack.md defines no semantics ("Semantics are instruction-specific")',
        'pto-isa docs/isa/tile/ops/layout-and-rearrangement/tpack.md; PTOAS lib/PTO/Transforms/PTOToEmitC.cpp PTOTPackToTPACK',
        'the program cannot be built for the device until pto-isa provides TPACK',
      );
    throw unsupported(`${call.name} (${insn}) has no functional model in axsim yet`);
  }
  const operands: Record<string, Operand> = {};
  const attrs: Record<string, unknown> = {};
  const asOperand = (v: RtValue): Operand => {
    if (v.kind === 'tile') {
      if (v.handle === undefined) {
        throw badInput(
          `${call.name}: a tile operand has no storage yet (pto.declare_tile without a pto.tpop into it)`,
          {
            hint: 'pop into the declared tile (or tassign it an address) before using it',
          },
        );
      }
      return v.handle as Tile;
    }
    if (v.kind === 'view') return globalOf(v, arrays);
    throw badInput(`${call.name}: expected a tile or a view operand`);
  };
  const outSpec = def.operands.find((o) => o.out);
  const inSpecs = def.operands.filter((o) => !o.out && !o.scratch);
  const scratch = def.operands.filter((o) => o.scratch);
  if (outSpec) operands[outSpec.name] = asOperand(out);
  let k = 0;
  let sawScalarFirst = false;
  let tiles = 0;
  const scalars: unknown[] = [];
  for (const v of ins) {
    if (v.kind === 'int' || v.kind === 'float') {
      attrs.scalar = v.v;
      scalars.push(v.v);
      if (tiles === 0) sawScalarFirst = true;
      continue;
    }
    tiles++;
    const spec = inSpecs[k];
    if (spec) {
      operands[spec.name] = asOperand(v);
      k++;
    } else if (scratch[0] && operands[scratch[0].name] === undefined) {
      operands[scratch[0].name] = asOperand(v);
    }
  }
  if (insn === 'TDIVS' && sawScalarFirst) attrs.order = 'scalar_first';
  if (insn === 'TRANDOM' && scalars.length === 6) {
    // PTOAS TRandomOp: ins(%key0, %key1, %c0, %c1, %c2, %c3 : i32 …) — the same words as the
    // manual's key (2 x u32) and counter (4 x u32) tiles
    const u32 = (xs: unknown[]) =>
      createTile(
        { dtype: 'u32', rows: 1, cols: 8 },
        Uint32Array.from({ length: 8 }, (_, i) => Number(xs[i] ?? 0) >>> 0),
      );
    operands.key = u32(scalars.slice(0, 2));
    operands.counter = u32(scalars.slice(2, 6));
  }
  if (insn === 'TGATHER') {
    // PTOAS TGatherOp: index form ins(%src, %indices, %tmp) outs(%dst); compare form
    // ins(%src, %kValue, %tmp) outs(%dst, %cdst) (lib/PTO/Transforms/PTOToEmitC.cpp)
    if (extraOuts.length === 0 && operands.kValue !== undefined && operands.tmp === undefined) {
      operands.tmp = operands.kValue;
      delete operands.kValue;
    }
    if (extraOuts.length > 0 && scalars.length > 0 && ins.filter((v) => v.kind === 'tile').length < 3) {
      // PTOAS emits TGATHER<…, CmpMode, offset>(dst, src, kScalar, cdst, tmp); pto-isa's only compare
      // overload takes k_value as a tile (it reads k_value.data()), so the C++ does not compile
      invalidForReference(
        call.name,
        "a scalar k_value in the comparison form: pto-isa's TGATHER(dst, src0, k_value, cdst, tmp, offset) takes k_value as a tile and its kernel reads k_value.data()",
        'pto-isa include/pto/common/pto_instr.hpp TGATHER; include/pto/npu/a2a3/TGather.hpp',
        'give k_value as a tile of per-row thresholds',
      );
    }
  }
  if (insn === 'TSUBVIEW') {
    attrs.rowIdx = scalars[0];
    attrs.colIdx = scalars[1];
  }
  if (insn === 'TSTORE') {
    // PTOAS TStoreOp: ins(%src[, %preQuantScalar : i64]); axsim's `atomic` spelling of atomicType
    if (scalars.length) attrs.preQuant = scalars[0];
    delete attrs.scalar;
    const at = attrWord(call.attrs, ['atomic']);
    if (at) attrs.atomic = at.word;
  }
  if (insn === 'TEXTRACT' || insn === 'TINSERT' || insn === 'TEXTRACT_FP' || insn === 'TINSERT_FP') {
    // ins(%src, %indexRow, %indexCol : …)
    attrs.indexRow = scalars[0];
    attrs.indexCol = scalars[1];
  }
  // TGATHER's mask form: ins(%src, {maskPattern = #pto.mask_pattern<P0101>} : …)
  const mp = attrWord(call.attrs, ['maskPattern']);
  if (mp && def.attrs.some((a) => a.name === 'maskPattern')) attrs.maskPattern = mp.word;
  const desc = call.attrs.find((a) => a.name === 'descending');
  if (desc && def.attrs.some((a) => a.name === 'descending'))
    attrs.descending = desc.value.kind === 'bool' ? desc.value.value : attrWord([desc], ['descending'])?.word;
  const cmp = attrWord(call.attrs, ['cmpMode', 'cmp']);
  if (def.attrs.some((a) => a.kind === 'cmpMode'))
    attrs.cmpMode = (cmp?.word ?? (insn === 'TCMPS' ? 'eq' : 'eq')).toUpperCase();
  const rm = attrWord(call.attrs, ['rmode', 'round', 'roundMode']);
  if (def.attrs.some((a) => a.kind === 'roundMode')) {
    const w = (rm?.word ?? 'CAST_RINT').toUpperCase();
    attrs.roundMode = ROUND[w] ?? w;
  }
  const sat = attrWord(call.attrs, ['sat', 'satMode', 'sat_mode']);
  if (sat) attrs.satMode = sat.word.toUpperCase();
  // enumerated / boolean attributes the library takes by name (coalesce, oob, atomic, exhausted, …)
  for (const a of def.attrs) {
    if ((a.kind !== 'pattern' && a.kind !== 'flag') || attrs[a.name] !== undefined) continue;
    const na = call.attrs.find((x) => x.name === a.name);
    if (!na) continue;
    attrs[a.name] = na.value.kind === 'bool' ? na.value.value : attrWord([na], [a.name])?.word;
  }
  for (const a of def.attrs) {
    // plain number attributes written in the dictionary ({rounds = 7})
    if (a.kind !== 'number' || attrs[a.name] !== undefined) continue;
    const na = call.attrs.find((x) => x.name === a.name);
    if (na?.value.kind === 'int') attrs[a.name] = Number(na.value.value);
    else if (na?.value.kind === 'float') attrs[a.name] = Number(na.value.text);
  }
  let executedView: ViewValue | undefined;
  if (insn !== 'TSORT32' && insn !== 'TMRGSORT') {
    // further outs(…) operands fill the instruction's further destinations in order
    const outSpecs = def.operands.filter((o) => o.out);
    extraOuts.forEach((v, i) => {
      const spec = outSpecs[i + 1];
      if (spec && v.kind === 'tile') operands[spec.name] = v.handle as Tile;
    });
  }
  if (insn === 'THISTOGRAM') {
    const b = call.attrs.find((a) => a.name === 'byte');
    if (b) attrs.byte = b.value.kind === 'int' ? Number(b.value.value) : attrWord([b], ['byte'])?.word;
  }
  if (insn === 'TADDDEQRELU') {
    // ins(%src0, %src1, %deqScale : …, f32, …)
    attrs.deqScale = scalars[0];
    delete attrs.scalar;
  }
  if (insn === 'TTRI') {
    // ins(%diagonal : i32)
    attrs.diagonal = scalars[0];
    delete attrs.scalar;
  }
  if (insn === 'TSORT32' && extraOuts[0]?.kind === 'tile') {
    // PTOAS TSort32Op: ins(%src) outs(%dst, %idx)
    operands.idx = extraOuts[0].handle as Tile;
  }
  if (insn === 'TMRGSORT') {
    if (scalars.length) {
      // format 1: ins(%src, %blockLen : T, i32)
      attrs.blockLen = scalars[0];
      delete attrs.scalar;
    }
    for (const v of extraOuts) {
      if (v.kind === 'view') executedView = v;
      else if (v.kind === 'tile' && operands.tmp === undefined) operands.tmp = v.handle as Tile;
      else if (v.kind === 'tile') operands.executed = v.handle as Tile;
    }
    if (executedView)
      operands.executed = createTile({ dtype: 'u16', rows: 1, cols: 4 }, undefined, { profile });
  }
  if (insn === 'TROWEXPAND' && ins[0]?.kind === 'tile' && out.kind === 'tile') {
    const bcast = rowBroadcastSource(ins[0], out);
    if (bcast) operands.src = bcast;
  }
  if (places) resolveAliasing(def, operands, places);
  runPrepared(call, insn, operands, attrs, profile);
  if (executedView) {
    // MrgSortExecutedNumList -> the vector<4xi16> argument's array
    const g = globalOf(executedView, arrays);
    if (g.bytes.length < 8 || (g.dtype !== 'i16' && g.dtype !== 'u16'))
      throw badInput(`${call.name}: the executed list must be a vector<4xi16> bound to 4 16-bit integers`);
    g.bytes.set((operands.executed as Tile).bytes.subarray(0, 8));
  }
}

/**
 * TROWEXPAND's static broadcast (pto-isa a2a3/TRowExpand.hpp, `TRowExpandBrcb`): with b16/b32
 * elements, static full valid shapes, a one-row row-major source [1, M] and an [M, 32 B]
 * destination, the source's M contiguous elements are the per-row values (vbrcb copies element r
 * to row r's block). Read as the equivalent col-major [M, 1] column over the same bytes.
 */
function rowBroadcastSource(src: TileValue, dst: TileValue): Tile | undefined {
  const s = src.type;
  const d = dst.type;
  const t = src.handle as Tile;
  const size = t.bytes.length / (s.rows * s.cols);
  const full = (x: TileBufType) => x.vRow === x.rows && x.vCol === x.cols;
  if (s.blayout !== 'row_major' || s.slayout !== 'none_box' || s.rows !== 1 || s.rows === d.rows)
    return undefined;
  if ((size !== 2 && size !== 4) || !full(s) || !full(d) || s.cols !== d.rows || d.cols * size !== 32)
    return undefined;
  return new Tile(
    { ...t.spec(), rows: s.cols, cols: 1, validRow: s.cols, validCol: 1, blayout: 'col' },
    t.bytes,
  );
}

/**
 * One trace event as text: the instruction with its position, then each input (before) and output
 * (after) with the valid region's first rows and columns (`rows` x `cols`, default 4 x 8).
 */
export function formatTraceEvent(
  e: TraceEvent,
  opts: { file?: string; rows?: number; cols?: number } = {},
): string {
  const maxR = opts.rows ?? 4;
  const maxC = opts.cols ?? 8;
  const lines = [`${opts.file ? `${opts.file}:` : ''}${e.line}:${e.col}: ${e.op} (${e.insn})`];
  const show = (dir: string, v: TraceValue) => {
    const name = v.name === undefined ? '(immediate)' : `%${v.name}`;
    if (v.kind === 'scalar') {
      lines.push(`  ${dir} ${name} = ${v.scalar === undefined ? '?' : String(v.scalar)}`);
      return;
    }
    const head =
      v.kind === 'view'
        ? `  ${dir} ${name}: view of %${v.arg} at element ${v.offset}`
        : `  ${dir} ${name}: ${v.tile!.describe()}${v.place ? ` at ${v.place}` : ''}`;
    lines.push(head);
    const t = v.tile;
    if (!t) return;
    const vr = v.kind === 'view' ? t.rows : t.validRow;
    const vc = v.kind === 'view' ? t.cols : t.validCol;
    for (let r = 0; r < Math.min(vr, maxR); r++) {
      const cells: string[] = [];
      for (let c = 0; c < Math.min(vc, maxC); c++) cells.push(String(readElement(t, r, c)));
      lines.push(`      [${cells.join(', ')}${vc > maxC ? ', …' : ''}]`);
    }
    if (vr > maxR) lines.push('      …');
  };
  for (const v of e.inputs) show('in ', v);
  for (const v of e.outputs) show('out', v);
  return lines.join('\n');
}
