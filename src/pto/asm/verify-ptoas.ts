/**
 * Verifier rules that follow ptoas @a56b18c3's own checks (hw-native-sys/PTOAS
 * lib/PTO/IR/PTO.cpp op verifiers, tools/ptoas/ptoas.cpp), so that `axsim pto check` rejects what
 * ptoas rejects. Arch-dependent rules apply only when the target arch is known (module
 * `pto.target_arch`, `--profile a2a3|a5`, or the corpus RUN line); each message names the op and
 * the rule as ptoas states it.
 */
import type { ErrorCategory } from '../../errors.ts';
import type { Attr, Func, GenericOp, Module, Op, Pos, TileBufType, Type } from './ast.ts';
import type { TileCall } from './call.ts';
import { genericAttr, genericResultTypes, genericTypes } from './generic.ts';
import { elemOf } from './types.ts';

export type Arch = 'a3' | 'a5';

export interface RuleHost {
  err(pos: Pos, message: string, hint: string, category?: ErrorCategory): void;
}

const tb = (t: Type | undefined): TileBufType | undefined => (t?.kind === 'tile_buf' ? t : undefined);
const el = (t: Type) => elemOf(t).name;
const nd = (t: TileBufType) => t.blayout === 'row_major' && t.slayout === 'none_box';

function word(a: Attr | undefined): string | undefined {
  if (!a) return undefined;
  if (a.kind === 'enum') return a.words[a.words.length - 1];
  if (a.kind === 'string') return a.value;
  if (a.kind === 'word') return a.value;
  return undefined;
}

/** Rules on one tile op (its resolved input types and destination type). */
export function ptoasTileRules(
  h: RuleHost,
  c: TileCall,
  ins: (Type | undefined)[],
  out: Type,
  arch: Arch | undefined,
): void {
  const pos = c.op.pos;
  const name = c.name;
  const attr = (n: string) => c.attrs.find((a) => a.name === n)?.value;
  switch (c.sig.insn) {
    case 'TCVT': {
      // TCvtOp::verify: same shape, same (static) valid shape
      const s = tb(ins[0]);
      const d = tb(out);
      if (s && d) {
        if (s.rows !== d.rows || s.cols !== d.cols) {
          h.err(
            pos,
            `${name}: expects src and dst to have compatible shapes (${s.rows}x${s.cols} vs ${d.rows}x${d.cols})`,
            'convert between tiles of one shape',
          );
        } else if (
          (s.vRow >= 0 && d.vRow >= 0 && s.vRow !== d.vRow) ||
          (s.vCol >= 0 && d.vCol >= 0 && s.vCol !== d.vCol)
        ) {
          h.err(
            pos,
            `${name}: expects src and dst to have the same valid_shape`,
            'give both tiles the same v_row/v_col',
          );
        }
      }
      return;
    }
    case 'TSTORE': {
      // TStoreOp::verify: a static partition view holds exactly the source's static valid elements.
      // axsim itself stores the valid region into a larger view; the rule is ptoas's, so it applies
      // when verifying for a ptoas target (an arch)
      const s = tb(ins[0]);
      if (
        arch &&
        s &&
        out.kind === 'partition_tensor_view' &&
        s.vRow > 0 &&
        s.vCol > 0 &&
        out.shape.every((x) => x > 0)
      ) {
        const n = out.shape.reduce((a, b) => a * b, 1);
        if (n !== s.vRow * s.vCol) {
          h.err(
            pos,
            `${name}: expects dst static element count (${n}) to match src valid element count (${s.vRow * s.vCol})`,
            'store into a partition of the valid region’s size',
          );
        }
      }
      return;
    }
    case 'TQUANT': {
      // TQuantOp::verify (structural, any arch)
      const q = word(attr('quant_type') ?? attr('quantType'));
      if (q === undefined) return;
      const d = el(out);
      const hasOffset = c.ins.length >= 3;
      if (q === 'INT8_SYM') {
        if (d !== 'i8' && d !== 'si8')
          h.err(
            pos,
            `${name}: expects dst element type i8 for INT8_SYM quantization`,
            'write into an i8 tile',
          );
        else if (hasOffset)
          h.err(pos, `${name}: INT8_SYM quantization must not have an offset operand`, 'drop the offset');
      } else if (q === 'INT8_ASYM') {
        if (d !== 'ui8')
          h.err(
            pos,
            `${name}: expects dst element type ui8 for INT8_ASYM quantization`,
            'write into a ui8 tile',
          );
        else if (!hasOffset)
          h.err(pos, `${name}: INT8_ASYM quantization requires an offset operand`, 'pass the offset tile');
      }
      return;
    }
    case 'TGET_SCALE_ADDR': {
      const d = tb(out);
      if (d && d.loc !== 'scaling')
        h.err(pos, `${name}: expects dst to be in the scaling address space`, 'use a loc=scaling tile');
      return;
    }
    case 'THISTOGRAM':
      if (arch === 'a3')
        h.err(pos, `${name}: thistogram is only supported on A5`, 'target a5', 'Unsupported');
      return;
    case 'TGEMV_MX':
    case 'TGEMV_MX_ACC':
    case 'TGEMV_MX_BIAS':
      if (arch === 'a3') {
        const n = name.slice(4);
        h.err(pos, `${name}: ${n} is only supported on A5 targets`, 'target a5', 'Unsupported');
      }
      return;
    case 'TRANDOM':
      if (arch === 'a3')
        h.err(pos, `${name}: trandom is only supported for A5 targets`, 'target a5', 'Unsupported');
      return;
    case 'TSEL': {
      if (arch !== 'a3') return;
      const ok = ['i16', 'i32', 'f16', 'f32'];
      const ts = [ins[1], ins[2], out].filter((t): t is Type => !!t);
      if (ts.some((t) => !ok.includes(el(t)))) {
        h.err(
          pos,
          `${name}: expects A2/A3 tsel src0, src1, and dst element type to be i16/i32/f16/f32`,
          'use a supported element type or target a5',
          'Unsupported',
        );
      }
      return;
    }
    case 'TGATHER': {
      // compare form: ins(%src, %kValue (scalar), %tmp) outs(%dst, %cdst)
      const k = ins[1];
      if (!k || k.kind !== 'scalar' || !ins[0]) return;
      const s = el(ins[0]);
      const cmp = word(attr('cmpMode')) ?? 'eq';
      if (arch === 'a3' && !(s === 'f16' || s === 'f32' || (s === 'i32' && cmp === 'eq'))) {
        h.err(
          pos,
          `${name}: expects A2/A3 compare-form tgather src element type to be f16/f32, or i32 when cmpMode=eq`,
          'use f16/f32 data',
        );
      } else if (arch === 'a5' && !['i16', 'i32', 'f16', 'f32'].includes(s)) {
        h.err(
          pos,
          `${name}: expects A5 compare-form tgather src element type to be i16/i32/f16/f32`,
          'use i16/i32/f16/f32 data',
        );
      }
      return;
    }
    case 'TINSERT': {
      const s = tb(ins[0]);
      const d = tb(out);
      if (!s || !d) return;
      if (arch === 'a3') {
        if (s.loc !== 'acc' || d.loc !== 'mat') {
          h.err(
            pos,
            `${name}: expects A2/A3 tinsert src to use loc=acc and dst to use loc=mat`,
            'insert an acc tile into a mat tile',
          );
        } else if (!(el(s) === 'f32' && (el(d) === 'f16' || el(d) === 'bf16'))) {
          h.err(
            pos,
            `${name}: expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16`,
            'insert f32 into f16/bf16',
          );
        }
      } else if (arch === 'a5') {
        const pair = `${s.loc}->${d.loc}`;
        if (!['acc->mat', 'vec->mat', 'vec->vec'].includes(pair)) {
          h.err(
            pos,
            `${name}: expects A5 tinsert to use a supported src/dst loc pair: acc->mat, vec->mat, or vec->vec`,
            `${pair} is not one of them`,
          );
        } else if (pair === 'vec->vec' && (!nd(s) || !nd(d))) {
          h.err(
            pos,
            `${name}: expects A5 vec->vec tinsert src/dst to use ND layout (blayout=row_major, slayout=none_box)`,
            'use row_major none_box tiles',
          );
        }
      }
      return;
    }
    case 'TEXTRACT': {
      const s = tb(ins[0]);
      const d = tb(out);
      if (arch === 'a5' && s && d && s.loc === 'vec' && d.loc === 'vec' && (!nd(s) || !nd(d))) {
        h.err(
          pos,
          `${name}: expects A5 vec->vec textract src/dst to use ND layout (blayout=row_major, slayout=none_box)`,
          'use row_major none_box tiles',
        );
      }
      return;
    }
    default:
      return;
  }
}

/** Rules on ops in generic syntax. */
export function ptoasGenericRules(h: RuleHost, op: GenericOp, _arch: Arch | undefined): void {
  switch (op.name) {
    case 'pto.tput_async':
    case 'pto.tget_async': {
      // TPutAsyncOp/TGetAsyncOp: both memrefs static, flat (1-D) GM buffers
      const ts = op.items.flatMap((it) => (it.k === 'group' ? it.items : [])).filter((x) => x.k === 'type');
      for (const it of ts) {
        const t = it.type;
        if (t.kind === 'memref' && (t.shape.length !== 1 || t.shape.some((x) => x < 0))) {
          h.err(
            op.pos,
            `${op.name}: expects ${t === ts[0]!.type ? 'dst' : 'src'} to be a static flat contiguous logical 1D GM memref`,
            'pass memref<Nx…, #pto.address_space<gm>>',
          );
          return;
        }
      }
      return;
    }
    case 'pto.tpop_from_aic':
    case 'pto.tpop_from_aiv': {
      // TPopFrom*Op::verify: valid_row/valid_col operands need a (?, ?) result
      const rt = genericResultTypes(op)[0];
      const hasValid = op.items.some(
        (it) => it.k === 'value' || (it.k === 'group' && it.items.some((x) => x.k === 'value')),
      );
      if (hasValid && rt?.kind === 'tile_buf' && (rt.vRow >= 0 || rt.vCol >= 0)) {
        h.err(
          op.pos,
          `${op.name}: expects tile result to have dynamic validShape (?, ?) when valid_row/valid_col operands are provided`,
          'write v_row=?, v_col=? in the result type',
        );
      }
      return;
    }
    default:
      void genericTypes;
      return;
  }
}

/** The entry function: the one marked `pto.entry`, else the only function of the module. */
function entryOf(m: Module): Func | undefined {
  return (
    m.funcs.find((f) => f.attrs?.some((a) => a.name === 'pto.entry')) ??
    (m.funcs.length === 1 ? m.funcs[0] : undefined)
  );
}

function walk(ops: Op[], f: (op: Op) => void): void {
  for (const op of ops) {
    f(op);
    for (const v of Object.values(op)) {
      if (
        Array.isArray(v) &&
        v.length &&
        typeof v[0] === 'object' &&
        v[0] !== null &&
        'kind' in v[0] &&
        'pos' in v[0] &&
        // operations only (they all have results); an operand list has kind/pos entries too
        Array.isArray((v[0] as { results?: unknown }).results)
      )
        walk(v as Op[], f);
    }
  }
}

export interface ModuleRuleOptions {
  arch?: Arch;
  /** `--pto-level` (ptoas: level3 = manual addresses). */
  level?: 'level1' | 'level2' | 'level3';
}

/** Module-level rules: entry signature, recursion, manual reservation, level-3 addresses. */
export function ptoasModuleRules(h: RuleHost, m: Module, opts: ModuleRuleOptions): void {
  // (a ptoas rule: axsim's Level-1 functions return their result tiles, so only for a ptoas target)
  const e = entryOf(m);
  if (opts.arch && e && e.resultTypes.length > 0) {
    h.err(
      e.pos,
      `func.func @${e.name}: PTO entry functions must return void`,
      'return results through pointer arguments',
    );
  }
  // recursion (ptoas: "recursive function calls are not supported for EmitC C++ emission")
  const calls = new Map<string, { callee: string; pos: Pos }[]>();
  for (const f of m.funcs) {
    const cs: { callee: string; pos: Pos }[] = [];
    walk(f.body, (op) => {
      if (op.kind === 'func.call') cs.push({ callee: op.callee, pos: op.pos });
    });
    calls.set(f.name, cs);
  }
  const state = new Map<string, 1 | 2>();
  const visit = (n: string): { callee: string; pos: Pos } | undefined => {
    state.set(n, 1);
    for (const c of calls.get(n) ?? []) {
      const s = state.get(c.callee);
      if (s === 1) return c;
      if (s === undefined && calls.has(c.callee)) {
        const r = visit(c.callee);
        if (r) return r;
      }
    }
    state.set(n, 2);
    return undefined;
  };
  for (const f of m.funcs) {
    if (state.has(f.name)) continue;
    const r = visit(f.name);
    if (r) {
      h.err(
        r.pos,
        `func.call @${r.callee}: recursive function calls are not supported for EmitC C++ emission`,
        'remove the cycle of calls',
      );
      break;
    }
  }
  pipeRules(h, m);
  for (const f of m.funcs) {
    let manual: GenericOp | undefined;
    walk(f.body, (op) => {
      if (op.kind === 'generic' && op.name === 'pto.reserve_buffer') {
        const a = genericAttr(op, 'auto');
        if (a?.kind === 'bool' && !a.value) manual = op;
      }
    });
    walk(f.body, (op) => {
      if (manual && op.kind === 'memref.alloc') {
        h.err(
          op.pos,
          'memref.alloc: cannot use pto.reserve_buffer with auto = false when local memref.alloc still requires PlanMemory allocation',
          'give every buffer an address, or reserve with auto = true',
        );
        manual = undefined;
      }
      if (opts.level === 'level3' && op.kind === 'pto.alloc_tile' && !op.addr) {
        h.err(
          op.pos,
          "pto.alloc_tile: requires 'addr' operand when --pto-level=level3",
          'write pto.alloc_tile addr = %a : …',
        );
      }
    });
  }
}

const INIT_PIPES = new Set([
  'pto.initialize_l2l_pipe',
  'pto.initialize_l2g2l_pipe',
  'pto.aic_initialize_pipe',
  'pto.aiv_initialize_pipe',
]);
/** The front-end pipe users (their pipe is implied by the function's init op). */
const PIPE_USERS = /^pto\.(tpush|tpop|tfree)(_to_aiv|_to_aic|_from_aic|_from_aiv)$/;

function intAttr(op: GenericOp, n: string): number | undefined {
  const a = genericAttr(op, n);
  return a?.kind === 'int'
    ? Number(a.value)
    : a?.kind === 'typed' && a.value.kind === 'int'
      ? Number(a.value.value)
      : undefined;
}

/**
 * The cube/vector pipe set-up rules of ptoas's reserved-buffer resolution and pipe lowering
 * (PTOAS lib/PTO/Transforms: a pipe init's local buffer comes from pto.reserve_buffer /
 * import_reserved_buffer unless flag_base is explicit; a reserved buffer shared with a peer
 * function needs a pipe init on both sides; one split mode per peer group; `nosplit = false`
 * cannot serve users with split = 0).
 */
function pipeRules(h: RuleHost, m: Module): void {
  interface FInfo {
    defs: Map<string, Op | 'arg'>;
    inits: GenericOp[];
    users: GenericOp[];
    reserves: Map<string, GenericOp>;
    imports: { name: string; peer: string; op: GenericOp }[];
  }
  const info = new Map<string, FInfo>();
  for (const f of m.funcs) {
    const fi: FInfo = { defs: new Map(), inits: [], users: [], reserves: new Map(), imports: [] };
    for (const a of f.args) fi.defs.set(a.use.name, 'arg');
    walk(f.body, (op) => {
      for (const r of op.results) fi.defs.set(r.name, op);
      if (op.kind !== 'generic') return;
      if (INIT_PIPES.has(op.name)) fi.inits.push(op);
      if (PIPE_USERS.test(op.name)) fi.users.push(op);
      const nm = genericAttr(op, 'name');
      if (op.name === 'pto.reserve_buffer' && nm?.kind === 'string') fi.reserves.set(nm.value, op);
      const peer = genericAttr(op, 'peer_func');
      if (op.name === 'pto.import_reserved_buffer' && nm?.kind === 'string' && peer?.kind === 'symbol')
        fi.imports.push({ name: nm.value, peer: peer.name, op });
    });
    info.set(f.name, fi);
  }
  for (const [fname, fi] of info) {
    for (const init of fi.inits) {
      if (init.name !== 'pto.initialize_l2l_pipe') continue;
      const local = init.items
        .flatMap((it) => (it.k === 'group' ? it.items : []))
        .find((x) => x.k === 'value');
      if (!local || local.k !== 'value' || genericAttr(init, 'flag_base')) continue;
      const d = fi.defs.get(local.use.name);
      const ok =
        d !== undefined &&
        d !== 'arg' &&
        d.kind === 'generic' &&
        (d.name === 'pto.reserve_buffer' || d.name === 'pto.import_reserved_buffer');
      if (!ok) {
        h.err(
          init.pos,
          `${init.name}: requires local_addr to come from pto.reserve_buffer or pto.import_reserved_buffer when 'flag_base' is not explicit`,
          'reserve the buffer, or give flag_base',
        );
        continue;
      }
      if (d.kind === 'generic' && d.name === 'pto.reserve_buffer') {
        const nm = genericAttr(d, 'name');
        for (const [pname, pi] of info) {
          if (pname === fname) continue;
          const imp = pi.imports.find(
            (x) => nm?.kind === 'string' && x.name === nm.value && x.peer === fname,
          );
          if (imp && pi.inits.length === 0) {
            h.err(
              init.pos,
              `${init.name}: requires a complete peer init pair when local_addr comes from pto.reserve_buffer or pto.import_reserved_buffer`,
              `@${pname} imports the buffer but initialises no pipe`,
            );
          }
        }
      }
    }
  }
  // peer groups: functions linked by import_reserved_buffer
  const group = new Map<string, string>();
  const find = (x: string): string => {
    const p = group.get(x) ?? x;
    if (p === x) return x;
    const r = find(p);
    group.set(x, r);
    return r;
  };
  for (const [fname, fi] of info)
    for (const imp of fi.imports) if (info.has(imp.peer)) group.set(find(fname), find(imp.peer));
  const byGroup = new Map<string, string[]>();
  for (const f of info.keys()) byGroup.set(find(f), [...(byGroup.get(find(f)) ?? []), f]);
  for (const fs of byGroup.values()) {
    const inits = fs.flatMap((f) => info.get(f)!.inits);
    const users = fs.flatMap((f) => info.get(f)!.users);
    if (!inits.length) continue;
    const splits = new Set(users.map((u) => intAttr(u, 'split') ?? 0));
    if (splits.size > 1) {
      h.err(
        inits[0]!.pos,
        `${inits[0]!.name}: conflicting pipe split usage across peer pipe init ops`,
        `the pipe users ask for split = ${[...splits].join(' and ')}`,
      );
      continue;
    }
    for (const init of inits) {
      const ns = genericAttr(init, 'nosplit');
      if (ns?.kind === 'bool' && !ns.value && splits.has(0) && users.length) {
        h.err(
          init.pos,
          `${init.name}: explicit 'nosplit = false' conflicts with downstream users that require split = 0`,
          'drop nosplit = false or split the users',
        );
        break;
      }
    }
  }
}
