/**
 * The assembler's lookup tables, built once per arch from the data files: the tt-llk macro
 * definitions (`macros.data.ts`) and the named constants kernels pass to them (`constants.data.ts`).
 */
import { type Arch, parseArch } from '../encoding.ts';
import { BLACKHOLE_CONSTANTS, COMMON_CONSTANTS, WORMHOLE_CONSTANTS } from './constants.data.ts';
import { BLACKHOLE_MACROS, COMMON_MACROS, WORMHOLE_MACROS } from './macros.data.ts';

export interface MacroArg {
  /** The macro's parameter name (as in ckernel_ops.h). */
  readonly name: string;
  /** The bit at which the macro adds this argument into the word. */
  readonly shift: number;
  /** Bits available to it: up to the next higher argument's shift (or bit 23). */
  readonly width: number;
}

export interface MacroDef {
  /** The instruction name: `TT_OP_<name>`, `TT_<name>`, `TTI_<name>`. */
  readonly name: string;
  readonly opcode: number;
  /** In the macro's own argument order (highest bit first, as every tt-llk macro lists them). */
  readonly args: readonly MacroArg[];
}

export interface ArchTables {
  readonly macros: ReadonlyMap<string, MacroDef>;
  /** The macro of each opcode (ckernel_ops.h has one per opcode and arch). */
  readonly macroByOpcode: ReadonlyMap<number, MacroDef>;
  readonly constants: ReadonlyMap<string, bigint>;
}

function parseMacros(text: string): Map<string, MacroDef> {
  const out = new Map<string, MacroDef>();
  for (const row of text.split('\n')) {
    const parts = row.trim().split(/\s+/);
    if (parts[0] === '') continue;
    const [name, op, ...rest] = parts;
    const args = rest.map((a) => {
      const [argName, shift] = a.split(':');
      return { name: argName!, shift: Number(shift), width: 0 };
    });
    for (let k = 0; k < args.length; k++)
      args[k]!.width = (k === 0 ? 24 : args[k - 1]!.shift) - args[k]!.shift;
    out.set(name!, { name: name!, opcode: Number(op), args });
  }
  return out;
}

function parseConstants(text: string, into: Map<string, bigint>): void {
  for (const row of text.split('\n')) {
    const t = row.trim();
    if (t === '') continue;
    const eq = t.indexOf('=');
    into.set(t.slice(0, eq), BigInt(t.slice(eq + 1)));
  }
}

function build(arch: Arch): ArchTables {
  const constants = new Map<string, bigint>();
  parseConstants(COMMON_CONSTANTS, constants);
  parseConstants(arch === 'wormhole' ? WORMHOLE_CONSTANTS : BLACKHOLE_CONSTANTS, constants);
  // sfpi lltt.h: enum ExecBool : bool { NoExec, Exec }
  constants.set('lltt::NoExec', 0n);
  constants.set('lltt::Exec', 1n);
  const macros = parseMacros(COMMON_MACROS + (arch === 'wormhole' ? WORMHOLE_MACROS : BLACKHOLE_MACROS));
  const macroByOpcode = new Map([...macros.values()].map((m) => [m.opcode, m]));
  if (macroByOpcode.size !== macros.size) throw new Error(`macro table (${arch}): an opcode appears twice`);
  return { macros, macroByOpcode, constants };
}

const cache = new Map<Arch, ArchTables>();

export function archTables(arch: Arch): ArchTables {
  if (arch !== 'wormhole' && arch !== 'blackhole') arch = parseArch(String(arch));
  let t = cache.get(arch);
  if (!t) {
    t = build(arch);
    cache.set(arch, t);
  }
  return t;
}

/** Namespace qualifiers that kernels put in front of the constants; removed before lookup. */
const NAMESPACES = ['ckernel::sfpu::', 'ckernel::', 'sfpi::', 'sfpu::'];

export function stripNamespaces(name: string): string {
  for (;;) {
    const ns = NAMESPACES.find((p) => name.startsWith(p));
    if (!ns) return name;
    name = name.slice(ns.length);
  }
}
