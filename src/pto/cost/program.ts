/**
 * Costing a parsed PTO-AS program: walk the function with the scalar evaluator (so loop trip
 * counts and dynamic valid dims are the real ones), turn every executed tile op into a
 * `CostInput`, price it with the selected model, and aggregate per source op.
 */
import { AxsimError, unsupported } from '../../errors.ts';
import type { Module, TileBufType } from '../asm/ast.ts';
import { attrWord, type TileCall } from '../asm/call.ts';
import { execFunc, findFunc, type RtValue, type TileValue, type ViewValue } from '../asm/exec.ts';
import { dtypeOfName } from '../asm/types.ts';
import { newPipeState, type PipeState } from './pipes.ts';
import type { CostArch, CostInput, CostModelName, CostResult, TileFacts } from './types.ts';

export interface InstructionCost {
  line: number;
  col: number;
  /** PTO instruction (TADD …) or the ordering op's name. */
  op: string;
  /** Operand summary, e.g. "f32 16x64 valid 16x64 RM". */
  shape: string;
  /** Times this source op was executed. */
  count: number;
  /** Cycles summed over all executions; null when the model does not cover the op. */
  cycles: number | null;
  /** Cycles of the first execution (the typical per-execution figure). */
  first: number | null;
  path: string;
  /** pto-isa: the vector tail the first execution left pending (cycles + tail = isolated latency). */
  pendingVectorTail?: number;
  note?: string;
  terms?: CostResult['terms'];
}

export interface ProgramCost {
  model: CostModelName;
  arch: CostArch;
  func: string;
  instructions: InstructionCost[];
  /** Sum of the covered instructions' cycles. */
  total: number;
  /** pto-isa: the vector tail the last instruction left pending (not part of `total`). */
  finalTail: number;
  covered: number;
  uncovered: number;
  /** True when some executed op has no price: `total` is then a lower bound of the priced part. */
  partial: boolean;
  /** The ops the model did not price, once each, with the reason (`TFOO: reason`). */
  unpriced: string[];
  /** Known defects of the reference model that the figures reproduce (shown with the total). */
  warnings: string[];
}

/**
 * The formula model's transfers divide bytes by the arch table's GB/s figures as if they were
 * bytes per µs (pto-isa lightweight_costmodel.hpp; docs/pto-as.md decision 11): a ~1000x unit slip
 * that axsim reproduces for conformance and flags in every program total that contains one.
 */
export const FORMULA_TRANSFER_WARNING =
  'formula model: TLOAD/TSTORE cycles reproduce pto-isa lightweight_costmodel.hpp, which reads GB/s as bytes per µs — those rows are ~1000x too large (docs/pto-as.md, decision 11)';

export type CostFn = (inp: CostInput, state: PipeState) => CostResult;

const TILE_TYPE: Record<string, string> = {
  vec: 'VecTile',
  mat: 'MatTile',
  acc: 'AccTile',
  left: 'LeftTile',
  right: 'RightTile',
  bias: 'BiasTile',
  scaling: 'ScalingTile',
};

function layoutName(t: TileBufType): string {
  if (t.loc === 'left') return 'LEFT';
  if (t.loc === 'right') return 'RIGHT';
  if (t.loc === 'acc') return 'ACC';
  if (t.loc === 'bias') return 'BIAS';
  if (t.slayout !== 'none_box') return t.slayout === 'row_major' ? 'NZ' : 'ZN';
  return t.blayout === 'row_major' ? 'RM' : 'CM';
}

function dt(name: string): string {
  return dtypeOfName(name) ?? name;
}

function factsOf(v: TileValue): TileFacts {
  const t = v.type;
  return {
    loc: t.loc,
    dtype: dt(t.dtype.name),
    rows: t.rows,
    cols: t.cols,
    validRow: v.validRow,
    validCol: v.validCol,
    blayout: t.blayout,
    slayout: t.slayout,
    fractal: t.fractal,
    pad: t.pad,
    vRow: t.vRow,
    vCol: t.vCol,
  };
}

/** Builds the cost-model input of one executed tile op. */
export function costInputOf(call: TileCall, ins: RtValue[], out: TileValue | ViewValue): CostInput {
  const insn = call.sig.insn;
  const tiles = ins.filter((v): v is TileValue => v.kind === 'tile');
  const fam = call.sig.family;
  let main: TileValue | undefined;
  if (fam === 'load') main = out.kind === 'tile' ? out : undefined;
  else if (fam === 'store' || fam === 'rowreduce' || fam === 'colreduce' || fam === 'transpose')
    main = tiles[0];
  else if (fam === 'convert') main = tiles[0];
  else main = out.kind === 'tile' ? out : tiles[0];
  if (fam === 'matmul') {
    const acc = insn.endsWith('_ACC');
    const a = tiles[acc ? 1 : 0];
    const b = tiles[acc ? 2 : 1];
    if (!a || !b || out.kind !== 'tile')
      throw unsupported(`${call.name}: cannot cost a matmul without left/right/acc tiles`);
    return {
      op: insn,
      dtype: dt(a.type.dtype.name),
      rows: out.type.rows,
      cols: out.type.cols,
      validRow: out.validRow,
      validCol: out.validCol,
      layout: 'ACC',
      M: a.type.rows,
      K: a.type.cols,
      N: b.type.cols,
      validM: a.validRow,
      validK: a.validCol,
      validN: b.validCol,
      accDtype: dt(out.type.dtype.name),
      rightValidRow: b.validRow,
    };
  }
  if (!main) throw unsupported(`${call.name}: no tile operand to cost`);
  const inp: CostInput = {
    op: insn,
    dtype: dt(main.type.dtype.name),
    rows: main.type.rows,
    cols: main.type.cols,
    validRow: main.validRow,
    validCol: main.validCol,
    layout: layoutName(main.type),
  };
  if (fam === 'convert' && out.kind === 'tile') inp.dstDtype = dt(out.type.dtype.name);
  if ((fam === 'rowreduce' || fam === 'colreduce' || fam === 'transpose') && out.kind === 'tile') {
    inp.dstValid = `${out.validRow}x${out.validCol}`;
    inp.dstCols = out.type.cols;
    if (out.type.blayout === 'col_major' && out.type.slayout === 'none_box') inp.dstColMajor = true;
    if (out.type.vCol >= 0) inp.dstStaticValidCol = out.type.vCol;
    if (main.type.vRow === main.type.rows && main.type.vCol === main.type.cols) inp.srcStaticFull = true;
    if (out.type.dtype.name !== main.type.dtype.name) inp.dstDtype = dt(out.type.dtype.name);
  }
  if (fam === 'compare' && out.kind === 'tile') inp.dstCols = out.type.cols;
  if (fam === 'rowexpand' && tiles[1]) {
    inp.src1Valid = `${tiles[1].validRow}x${tiles[1].validCol}`;
    if (tiles[1].type.blayout === 'col_major') inp.src1ColMajor = true;
  }
  if (fam === 'rowexpand' && insn === 'TROWEXPAND' && tiles[0] && out.kind === 'tile') {
    inp.srcValid = `${tiles[0].validRow}x${tiles[0].validCol}`;
    // the static shapes choose TRowExpandBrcb
    inp.src = factsOf(tiles[0]);
    inp.dst = factsOf(out);
  }
  // the derived kernels (cost/kernels/derived.ts) read the destination's and the full source's types
  if ((insn === 'TFILLPAD' || insn.startsWith('TCOLEXPAND') || insn === 'TEXPANDS') && out.kind === 'tile') {
    inp.dst = factsOf(out);
    const full = tiles.find((x) => x.validRow === out.validRow && x.validCol === out.validCol) ?? tiles[0];
    if (full) inp.src = factsOf(full);
  }
  // where the tiles live and how they are laid out chooses the cube-side copy paths
  if (insn === 'TMOV' && out.kind === 'tile' && tiles[0]) {
    inp.dst = factsOf(out);
    inp.src = factsOf(tiles[0]);
  } else if (fam === 'load' && out.kind === 'tile') inp.dst = factsOf(out);
  else if (fam === 'store' && tiles[0]) inp.src = factsOf(tiles[0]);
  const view = fam === 'load' ? ins[0] : fam === 'store' ? out : undefined;
  if (view && view.kind === 'view') {
    inp.gmShape = view.shape;
    inp.gmStrides = view.strides;
    inp.gmDtype = dt(view.elem);
    const st = view.strides;
    // ND when the innermost stride is 1: the global row stride is the next one out
    inp.gm =
      st.length >= 2 && st[st.length - 1] === 1
        ? `ND row stride ${st[st.length - 2]}`
        : `strides ${st.join(',')}`;
  }
  if (out.kind === 'tile' && tiles[0] && out.id === tiles[0].id) inp.inPlace = true;
  // compile-time valid columns: only when every tile operand declares the same static v_col
  const all = out.kind === 'tile' ? [...tiles, out] : tiles;
  const vcs = new Set(all.map((x) => x.type.vCol));
  if (vcs.size === 1 && main.type.vCol >= 0) inp.staticValidCol = main.type.vCol;
  // the lightweight transfer model is keyed by the tile type of the on-chip side
  if (fam === 'load' || fam === 'store' || insn === 'TMOV') {
    const side = fam === 'store' ? tiles[0] : out.kind === 'tile' ? out : undefined;
    if (side) {
      inp.tileType = TILE_TYPE[side.type.loc];
      inp.elements = side.validRow * side.validCol;
    }
  }
  const scalars = ins.filter((v) => v.kind === 'int' || v.kind === 'float');
  const sv = scalars[0];
  if (sv && (sv.kind === 'int' || sv.kind === 'float')) inp.scalar = sv.v;
  if (insn === 'TDIVS' && ins[0] && ins[0].kind !== 'tile') inp.scalarFirst = true;
  const cmp = attrWord(call.attrs, ['cmpMode', 'cmp']);
  if (cmp) inp.cmpMode = cmp.word.toUpperCase();
  const rm = attrWord(call.attrs, ['rmode', 'round', 'roundMode']);
  if (rm) {
    const w = rm.word.toUpperCase();
    inp.roundMode = w.startsWith('CAST_') ? w : w === 'NONE' ? 'CAST_NONE' : `CAST_${w}`;
  }
  return inp;
}

function shapeText(inp: CostInput): string {
  if (inp.M !== undefined) return `${inp.dtype} ${inp.validM}x${inp.validK}x${inp.validN} → ${inp.accDtype}`;
  const v =
    inp.validRow === inp.rows && inp.validCol === inp.cols ? '' : ` valid ${inp.validRow}x${inp.validCol}`;
  return `${inp.dtype}${inp.dstDtype ? `→${inp.dstDtype}` : ''} ${inp.rows}x${inp.cols}${v} ${inp.layout ?? ''}`.trim();
}

/**
 * Prices function `funcName` (default: the first) of a verified module with `cost`.
 * Ops the model does not cover (it throws Unsupported) are listed with cycles = null.
 */
export function costProgram(
  m: Module,
  model: CostModelName,
  arch: CostArch,
  cost: CostFn,
  opts: { func?: string; file?: string; scalars?: Record<string, number>; maxSteps?: number } = {},
): ProgramCost {
  const f = findFunc(m, opts.func);
  const rows = new Map<string, InstructionCost>();
  const order: InstructionCost[] = [];
  const state = newPipeState();
  const row = (line: number, col: number, op: string, shape: string): InstructionCost => {
    const key = `${line}:${col}`;
    let r = rows.get(key);
    if (!r) {
      r = { line, col, op, shape, count: 0, cycles: 0, first: null, path: '' };
      rows.set(key, r);
      order.push(r);
    }
    return r;
  };
  execFunc(
    f,
    {
      tile(call, ins, out, ctx) {
        let inp: CostInput;
        try {
          inp = costInputOf(call, ins, out);
        } catch (e) {
          if (!(e instanceof AxsimError) || e.category !== 'Unsupported') throw e;
          const r = row(ctx.pos.line, ctx.pos.col, call.sig.insn, '');
          r.count++;
          r.cycles = null;
          r.note = e.message;
          return;
        }
        const r = row(ctx.pos.line, ctx.pos.col, inp.op, shapeText(inp));
        r.count++;
        try {
          const res = cost(inp, state);
          state.pending = res.pendingVectorTail;
          if (r.cycles !== null) r.cycles += res.cycles;
          if (r.first === null) {
            r.first = res.cycles;
            r.path = res.path;
            r.terms = res.terms;
            if (res.pendingVectorTail) r.pendingVectorTail = res.pendingVectorTail;
          }
        } catch (e) {
          if (!(e instanceof AxsimError) || e.category !== 'Unsupported') throw e;
          r.cycles = null;
          r.note = e.message;
        }
      },
      sync(op, ctx) {
        // Ordering ops are PTO instructions of their own: the pto-isa trace starts every
        // instruction with fresh pipe queues (trace.hpp BeginPtoInstr), so a tail left pending by
        // the previous instruction is dropped, never charged; they issue no intrinsics.
        const r = row(
          ctx.pos.line,
          ctx.pos.col,
          op.name,
          op.args
            .map((a) =>
              a.kind === 'enum'
                ? a.words.join(' ')
                : a.kind === 'word'
                  ? a.value
                  : a.kind === 'int'
                    ? String(a.value)
                    : '',
            )
            .join(', '),
        );
        r.count++;
        state.flush();
        r.first ??= 0;
        r.path = 'ordering (no intrinsics)';
      },
    },
    { file: opts.file, scalars: opts.scalars, maxSteps: opts.maxSteps, module: m },
  );
  // reported, not added: GetLastPtoInstrCycles never includes a tail left pending at the end
  const finalTail = state.flush();
  let total = 0;
  let covered = 0;
  let uncovered = 0;
  for (const r of order) {
    if (r.cycles === null) uncovered++;
    else {
      covered++;
      total += r.cycles;
    }
  }
  const unpriced: string[] = [];
  for (const r of order) {
    if (r.cycles !== null) continue;
    const item = `${r.op}: ${r.note ?? 'not priced'}`;
    if (!unpriced.includes(item)) unpriced.push(item);
  }
  const warnings: string[] = [];
  // only the lightweight transfer rows carry the slip (not the derived Perf-Sim fallback prices)
  if (
    model === 'formula' &&
    order.some(
      (r) => r.cycles !== null && (r.op === 'TLOAD' || r.op === 'TSTORE') && r.path.includes('transfer'),
    )
  )
    warnings.push(FORMULA_TRANSFER_WARNING);
  return {
    model,
    arch,
    func: f.name,
    instructions: order,
    total,
    finalTail,
    covered,
    uncovered,
    partial: uncovered > 0,
    unpriced,
    warnings,
  };
}

/** Integers as they are; the formula model's transfer estimates are fractional (2 decimals). */
function fmtCycles(c: number): string {
  return Number.isInteger(c) ? String(c) : c.toFixed(2);
}

/** The table `axsim pto cost` prints. */
export function formatProgramCost(p: ProgramCost): string {
  const head = ['line:col', 'op', 'operands', 'count', 'cycles', 'path'];
  const body = p.instructions.map((r) => [
    `${r.line}:${r.col}`,
    r.op,
    r.shape,
    String(r.count),
    r.cycles === null ? '—' : fmtCycles(r.cycles),
    r.cycles === null ? `not modelled: ${r.note ?? ''}` : r.path,
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i === 3 || i === 4 ? c.padStart(w[i]!) : c.padEnd(w[i]!)))
      .join('  ')
      .trimEnd();
  const lines = [`@${p.func}: model ${p.model}, profile ${p.arch}`, fmt(head), ...body.map(fmt)];
  if (p.finalTail)
    lines.push(`vector tail still pending after the last instruction: ${p.finalTail} (not in the total)`);
  lines.push(
    `total: ${fmtCycles(p.total)} cycles${p.partial ? ` — PARTIAL: ${p.covered} op(s) priced, ${p.uncovered} not priced by the ${p.model} model (left out of the total)` : ''}`,
  );
  for (const u of p.unpriced) lines.push(`  not priced: ${u}`);
  for (const w of p.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}
