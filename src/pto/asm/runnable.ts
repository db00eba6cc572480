/**
 * What `axsim pto check` reports beyond verification: ops that parse and verify but that the runner
 * cannot execute: any tile op whose instruction part 1 does not register (none at present; the list
 * stays computed so a new mnemonic without a model shows up). `pto.subset` runs since the runner
 * models sub-tile windows (docs/pto.md).
 */
import { OPS } from '../registry.ts';
import type { Module, Pos } from './ast.ts';
import { PIPE_OPS } from './exec.ts';
import { OP_SIGS } from './ops.ts';

/** Tile-op mnemonics the walker itself executes (no part-1 instruction): tprint, tsync. */
export const WALKER_INSNS: ReadonlySet<string> = new Set(['TPRINT', 'TSYNC']);

/** Ops in generic syntax the walker runs (exec.ts `generic`); the others are reported. */
export const RUN_GENERIC: ReadonlySet<string> = new Set([
  'pto.set_validshape',
  'pto.tassign',
  'pto.bind_tile',
  'pto.reserve_buffer',
  'memref.dealloc',
  'pto.declare_eventid_array',
  'pto.eventid_array_get',
  'pto.eventid_array_set',
  'pto.set_flag_dyn',
  'pto.wait_flag_dyn',
  'pto.declare_tile',
  'pto.import_reserved_buffer',
  'pto.set_ffts',
  'pto.addptr',
  'memref.reinterpret_cast',
  'pto.build_async_session',
  'pto.tput_async',
  'pto.tget_async',
  'pto.wait_async_event',
  'pto.test_async_event',
  ...PIPE_OPS,
]);

export interface NotRunnable {
  pos: Pos;
  op: string;
  reason: string;
}

function mnemonicOf(node: { kind?: unknown; name?: unknown; mnemonic?: unknown }): string | undefined {
  if (
    (node.kind === 'dps' || node.kind === 'ssa') &&
    typeof node.name === 'string' &&
    node.name.startsWith('pto.')
  )
    return node.name.slice(4);
  if (node.kind === 'asm' && typeof node.mnemonic === 'string') return node.mnemonic;
  return undefined;
}

/** Every op of the module (nested regions included) that `axsim pto run` would refuse. */
export function notRunnable(m: Module): NotRunnable[] {
  const out: NotRunnable[] = [];
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const y of x) visit(y);
      return;
    }
    if (x === null || typeof x !== 'object') return;
    const node = x as { kind?: unknown; pos?: Pos; name?: unknown; mnemonic?: unknown };
    const mn = node.pos ? mnemonicOf(node) : undefined;
    const sig = mn === undefined ? undefined : OP_SIGS.get(mn);
    if (sig && !OPS.has(sig.insn) && !WALKER_INSNS.has(sig.insn)) {
      out.push({ pos: node.pos!, op: `pto.${mn}`, reason: `${sig.insn} has no functional model in axsim` });
    }
    if (node.kind === 'generic' && typeof node.name === 'string' && !RUN_GENERIC.has(node.name)) {
      out.push({
        pos: node.pos!,
        op: node.name,
        reason: 'axsim parses and verifies this op but does not simulate it',
      });
    }
    for (const v of Object.values(x)) if (v !== null && typeof v === 'object') visit(v);
  };
  visit(m.funcs);
  return out.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
}
