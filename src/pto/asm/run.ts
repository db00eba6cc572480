/**
 * The PTO-AS runner: executes a verified function on part 1's simulator (src/pto/index.ts
 * `execute`). Pointer arguments are bound to `.npy` arrays (the arrays are the global memory the
 * views address, so TSTORE writes land in them); tile buffers are part-1 tiles created from their
 * `!pto.tile_buf` types; DPS ops write into the buffer named in `outs(...)`, so in-place forms
 * (`ins(%x, …) outs(%x)`) work; Level-1 SSA results are fresh tiles.
 */
import { badInput, unsupported } from '../../errors.ts';
import type { NpyArray } from '../../io/index.ts';
import {
  createTile,
  execute,
  GlobalTensor,
  getOp,
  type Operand,
  type Profile,
  Tile,
  tileFromNpy,
} from '../index.ts';
import type { Module, TileBufType } from './ast.ts';
import { attrWord, type TileCall } from './call.ts';
import { execFunc, findFunc, type RtValue, type TileValue, type ViewValue } from './exec.ts';
import { dtypeOfName } from './types.ts';

export interface RunOptions {
  func?: string;
  profile?: Profile;
  file?: string;
  maxSteps?: number;
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
}

const PAD = ['null', 'zero', 'max', 'min'] as const;
/** On-chip buffers are at most a few hundred KiB; anything far larger is a typo, not a tile. */
const MAX_TILE_ELEMENTS = 1 << 24;

function tileOf(tb: TileBufType, validRow: number, validCol: number, profile: Profile): Tile {
  const dtype = dtypeOfName(tb.dtype.name);
  if (!dtype) throw unsupported(`tiles of element type ${tb.dtype.name} cannot be simulated`);
  if (tb.rows * tb.cols > MAX_TILE_ELEMENTS) {
    throw unsupported(
      `a ${tb.rows}x${tb.cols} tile is larger than the simulator's limit of ${MAX_TILE_ELEMENTS} elements`,
    );
  }
  return createTile(
    {
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
    },
    undefined,
    { profile },
  );
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
  const f = findFunc(m, opts.func);
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
  const { env } = execFunc(
    f,
    {
      alloc(t: TileValue, _op, argName) {
        const v = argName === undefined ? undefined : args[argName];
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
      },
      reshape(from, to) {
        const src = from.handle as Tile;
        const t = tileOf(to.type, to.validRow, to.validCol, profile);
        if (t.bytes.length !== src.bytes.length) throw badInput('pto.treshape: the buffers differ in size');
        return new Tile(t.spec(), src.bytes);
      },
      subset(parent, child, r0, c0) {
        const t = tileOf(child.type, child.validRow, child.validCol, profile);
        windows.set(t, { parent: parent.handle as Tile, r0, c0 });
        return t;
      },
      tile(call, ins, out, _ctx, extraOuts) {
        count++;
        if (windows.size)
          for (const v of [...ins, out, ...extraOuts]) if (v.kind === 'tile') syncIn(v.handle as Tile);
        execCall(call, ins, out, arrays, profile, extraOuts);
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
    { file: opts.file, scalars, maxSteps: opts.maxSteps },
  );
  for (const a of f.args) {
    const v = env.get(a.use.name);
    if (v?.kind === 'tile') tileArgs[a.use.name] = v.handle as Tile;
  }
  return { func: f.name, instructions: count, arrays, written: [...written], tiles: tileArgs };
}

/** Maps one tile op onto part 1's `execute(name, operands, attrs)`. */
function execCall(
  call: TileCall,
  ins: RtValue[],
  out: TileValue | ViewValue,
  arrays: Record<string, NpyArray>,
  profile: Profile,
  extraOuts: RtValue[] = [],
): void {
  const insn = call.sig.insn;
  let def: ReturnType<typeof getOp>;
  try {
    def = getOp(insn);
  } catch {
    throw unsupported(`${call.name} (${insn}) has no functional model in axsim yet`);
  }
  const operands: Record<string, Operand> = {};
  const attrs: Record<string, unknown> = {};
  const asOperand = (v: RtValue): Operand => {
    if (v.kind === 'tile') return v.handle as Tile;
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
  if (insn === 'TSUBVIEW') {
    attrs.rowIdx = scalars[0];
    attrs.colIdx = scalars[1];
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
  const sat = attrWord(call.attrs, ['sat', 'satMode']);
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
  execute(insn, operands, attrs, { profile });
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
