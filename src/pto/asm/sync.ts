/**
 * Synchronisation checking (issue 13 item 4). The Ascend core runs each pipe (MTE2 loads, V vector,
 * MTE1 L1 -> L0 moves, M cube, FIX accumulator moves/stores, MTE3 UB stores) in order but the pipes
 * run concurrently: a tile written on one pipe and then read (or overwritten) on another needs a
 * `set_flag[src, dst, id]` issued after the first op and a `wait_flag[src, dst, id]` before the
 * second (or `record_event` / `wait_event`, or `barrier <PIPE_ALL>`).
 *
 * Manual mode (the program has sync ops): every cross-pipe RAW / WAR / WAW on a tile or on global
 * memory that no sync orders is a race, reported with both lines. Auto mode (no sync ops, what
 * `ptoas --enable-insert-sync` starts from): the set/wait pairs that would order every such pair
 * are listed where they would go (axsim's minimal placement: the set right after the earlier op,
 * the wait right before the later one — ptoas's pass may merge or move them).
 *
 * The walk is static, in text order; loop bodies are walked twice so loop-carried hazards (the next
 * iteration's load over a tile the previous iteration still reads) show up. Aliases through
 * `pto.subset`, `pto.treshape`, `pto.tassign`, views and `alloc_tile addr = …` constants are
 * followed by name (tiles at the same constant address are one resource).
 */
import type { Attr, Module, Op, Pos } from './ast.ts';
import { tileCall } from './call.ts';
import { genericBracket, genericOperands } from './generic.ts';
import { isViewLike, tileShape } from './types.ts';

export type Pipe = 'MTE1' | 'MTE2' | 'MTE3' | 'V' | 'M' | 'FIX';

export interface Race {
  kind: 'RAW' | 'WAR' | 'WAW';
  resource: string;
  first: { pos: Pos; op: string; pipe: Pipe };
  second: { pos: Pos; op: string; pipe: Pipe };
}

export interface InsertedSync {
  /** `set_flag` goes right after this op, `wait_flag` right before `before`. */
  after: Pos;
  before: Pos;
  src: Pipe;
  dst: Pipe;
}

export interface SyncReport {
  mode: 'manual' | 'auto';
  races: Race[];
  inserted: InsertedSync[];
}

/** SyncOpType → pipe (PTOAS mapSyncOpTypeToPipe, lib/PTO/IR/PTOSyncUtils.cpp). */
const EVENT_PIPE: Record<string, Pipe> = {
  TLOAD: 'MTE2',
  TSTORE_VEC: 'MTE3',
  TSTORE_ACC: 'FIX',
  TMOV_M2L: 'MTE1',
  TMOV_M2B: 'MTE1',
  TMOV_M2S: 'FIX',
  TMOV_M2V: 'V',
  TMOV_V2M: 'FIX',
  TMATMUL: 'M',
  TVEC: 'V',
  TVECWAIT_EVENT: 'V',
};

function pipeWord(a: Attr | undefined): Pipe | 'ALL' | undefined {
  const w = a?.kind === 'enum' ? a.words[0] : a?.kind === 'word' ? a.value : undefined;
  if (!w) return undefined;
  if (w in EVENT_PIPE) return EVENT_PIPE[w];
  const p = w.replace(/^PIPE_/, '');
  if (p === 'ALL') return 'ALL';
  return (['MTE1', 'MTE2', 'MTE3', 'V', 'M', 'FIX'] as const).find((x) => x === p);
}

function eventWord(a: Attr | undefined): string {
  const w = a?.kind === 'enum' ? a.words[0] : a?.kind === 'int' ? String(a.value) : undefined;
  return w ?? '?';
}

/** The pipe a tile op runs on, from its instruction and the locations of its operands. */
export function opPipe(insn: string, srcLoc: string | undefined, dstLoc: string | undefined): Pipe {
  if (insn === 'TLOAD' || insn === 'TPREFETCH' || insn === 'MGATHER') return 'MTE2';
  if (insn === 'TSTORE' || insn === 'TSTORE_FP' || insn === 'MSCATTER')
    return srcLoc === 'acc' ? 'FIX' : 'MTE3';
  if (/^T(MATMUL|GEMV)/.test(insn)) return 'M';
  if (
    insn === 'TMOV' ||
    insn === 'TMOV_FP' ||
    insn === 'TEXTRACT' ||
    insn === 'TINSERT' ||
    insn === 'TEXTRACT_FP' ||
    insn === 'TINSERT_FP'
  ) {
    if (srcLoc === 'acc') return 'FIX';
    if (srcLoc === 'mat') return 'MTE1';
    if (srcLoc === 'vec' && dstLoc === 'mat') return 'MTE3';
    return 'V';
  }
  return 'V';
}

interface Access {
  pipe: Pipe;
  time: number;
  pos: Pos;
  op: string;
}

/** Checks a module; see the module comment. */
export function checkSync(m: Module): SyncReport {
  let hasSync = false;
  const scan = (ops: Op[]) => {
    for (const op of ops) {
      if (op.kind === 'sync' && op.name !== 'pto.sync.set' && op.name !== 'pto.sync.wait') hasSync = true;
      if (op.kind === 'generic' && /^pto\.(set|wait)_flag_dyn$/.test(op.name)) hasSync = true;
      for (const v of Object.values(op))
        if (Array.isArray(v) && v[0] && typeof v[0] === 'object' && 'kind' in v[0]) scan(v as Op[]);
    }
  };
  for (const f of m.funcs) scan(f.body);
  const mode = hasSync ? 'manual' : 'auto';
  const races: Race[] = [];
  const inserted: InsertedSync[] = [];
  const seen = new Set<string>();
  for (const f of m.funcs) {
    let time = 0;
    const root = new Map<string, string>();
    const res = (name: string) => root.get(name) ?? name;
    for (const a of f.args) root.set(a.use.name, `%${a.use.name}`);
    const lastWrite = new Map<string, Access>();
    const reads = new Map<string, Access[]>();
    // synced[src][dst] = the time up to which src-pipe ops are ordered before dst-pipe ops
    const synced = new Map<string, number>();
    const pending = new Map<string, number>();
    const key = (s: Pipe, d: Pipe) => `${s}>${d}`;
    const ordered = (a: Access, pipe: Pipe) =>
      a.pipe === pipe || (synced.get(key(a.pipe, pipe)) ?? -1) > a.time;
    const hazard = (kind: Race['kind'], r: string, a: Access, b: Access) => {
      if (ordered(a, b.pipe)) return;
      const id = `${a.pos.line}:${a.pos.col}>${b.pos.line}:${b.pos.col}:${r}`;
      if (mode === 'auto') {
        // insert the pair and treat it as present from here on
        synced.set(key(a.pipe, b.pipe), Math.max(synced.get(key(a.pipe, b.pipe)) ?? -1, a.time + 1));
        if (!seen.has(id)) inserted.push({ after: a.pos, before: b.pos, src: a.pipe, dst: b.pipe });
      } else if (!seen.has(id)) {
        races.push({
          kind,
          resource: r,
          first: { pos: a.pos, op: a.op, pipe: a.pipe },
          second: { pos: b.pos, op: b.op, pipe: b.pipe },
        });
      }
      seen.add(id);
    };
    const access = (r: string, acc: Access, write: boolean) => {
      const w = lastWrite.get(r);
      if (w) hazard(write ? 'WAW' : 'RAW', r, w, acc);
      if (write) {
        for (const rd of reads.get(r) ?? []) hazard('WAR', r, rd, acc);
        lastWrite.set(r, acc);
        reads.set(r, []);
      } else reads.set(r, [...(reads.get(r) ?? []), acc]);
    };
    const syncOp = (what: 'set' | 'wait', args: Attr[]): void => {
      const s = pipeWord(args[0]);
      const d = pipeWord(args[1]);
      if (!s || !d || s === 'ALL' || d === 'ALL') return;
      const ev = eventWord(args[2]);
      const k = `${key(s, d)}#${ev}`;
      if (what === 'set') pending.set(k, time);
      else {
        const t =
          pending.get(k) ??
          (ev === '?'
            ? Math.max(-1, ...[...pending].filter(([x]) => x.startsWith(`${key(s, d)}#`)).map(([, v]) => v))
            : undefined);
        if (t !== undefined && t >= 0) synced.set(key(s, d), Math.max(synced.get(key(s, d)) ?? -1, t));
      }
    };
    const consts = new Map<string, string>();
    const walk = (ops: Op[]) => {
      for (const op of ops) {
        time++;
        switch (op.kind) {
          case 'arith.constant':
            if (op.value.kind === 'int') consts.set(op.results[0]!.name, String(op.value.value));
            break;
          case 'pto.alloc_tile': {
            const a = op.addr ? consts.get(op.addr.name) : undefined;
            root.set(
              op.results[0]!.name,
              a !== undefined
                ? `${op.type.kind === 'tile_buf' ? op.type.loc : '?'}@${a}`
                : `%${op.results[0]!.name}`,
            );
            break;
          }
          case 'pto.subset':
          case 'pto.treshape':
            root.set(op.results[0]!.name, res(op.source.name));
            break;
          case 'pto.make_tensor_view':
            root.set(op.results[0]!.name, res(op.ptr.name));
            break;
          case 'pto.partition_view':
          case 'memref.subview':
            root.set(op.results[0]!.name, res(op.source.name));
            break;
          case 'generic':
            if (op.name === 'pto.tassign' && op.results[0]) {
              const [t, addr] = genericOperands(op);
              const a = addr ? consts.get(addr.name) : undefined;
              root.set(op.results[0].name, a !== undefined ? `tassign@${a}` : res(t?.name ?? ''));
            }
            if (/^pto\.(set|wait)_flag_dyn$/.test(op.name)) {
              // [#pto.pipe<…>, #pto.pipe<…>, %eventId]: a run-time id matches any set of the pair
              const args = (genericBracket(op) ?? []).flatMap((x) => (x.k === 'attr' ? [x.attr] : []));
              syncOp(op.name.includes('set') ? 'set' : 'wait', args);
            }
            break;
          case 'sync': {
            if (op.name === 'pto.barrier') {
              if (pipeWord(op.args[0]) === 'ALL')
                for (const k of ['MTE1', 'MTE2', 'MTE3', 'V', 'M', 'FIX'])
                  for (const d of ['MTE1', 'MTE2', 'MTE3', 'V', 'M', 'FIX']) synced.set(`${k}>${d}`, time);
            } else if (op.name === 'pto.set_flag' || op.name === 'pto.record_event') syncOp('set', op.args);
            else if (op.name === 'pto.wait_flag' || op.name === 'pto.wait_event') syncOp('wait', op.args);
            break;
          }
          case 'dps':
          case 'ssa':
          case 'asm': {
            const c = tileCall(op);
            if (!c) break;
            const inT = c.ins.map((i) => i.type);
            const srcLoc = inT[0] ? tileShape(inT[0])?.loc : undefined;
            const dstLoc = c.out.type && !isViewLike(c.out.type) ? tileShape(c.out.type)?.loc : undefined;
            const acc: Access = { pipe: opPipe(c.sig.insn, srcLoc, dstLoc), time, pos: op.pos, op: c.name };
            for (const i of c.ins)
              if (i.use && i.type && i.type.kind !== 'scalar') access(res(i.use.name), acc, false);
            access(res(c.out.use.name), acc, true);
            for (const o of c.extraOuts) access(res(o.use.name), acc, true);
            if (op.results.length && c.op.kind === 'dps') root.set(op.results[0]!.name, res(c.out.use.name));
            break;
          }
          case 'scf.for':
            walk(op.body);
            walk(op.body);
            break;
          case 'scf.while':
            walk(op.before);
            walk(op.after);
            walk(op.before);
            walk(op.after);
            break;
          case 'scf.if':
            walk(op.thenOps);
            if (op.elseOps) walk(op.elseOps);
            break;
          case 'section':
            walk(op.body);
            break;
          default:
            break;
        }
      }
    };
    walk(f.body);
  }
  return { mode, races, inserted };
}
