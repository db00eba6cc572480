/**
 * Timing data for the Tensix Vector Unit (SFPU): which sub-unit executes each instruction, its
 * latency and its issue rate, with the document each entry comes from. Everything in the cycle
 * model (engine.ts) reads these tables; nothing about timing is hard-coded elsewhere.
 *
 * Sources (tt-isa-documentation; the Blackhole pages are jasondavies/tt-isa-documentation):
 * - sub-units: SFPLOADMACRO.md, the four-column table "Simple / MAD / Round / Store", and
 *   "one load-style instruction (SFPLOAD or SFPLOADI or SFPLOADMACRO or SFPNOP)"; VectorUnit.md
 *   "Sub-units" (five sub-units, one instruction accepted per cycle from outside).
 * - latency / IPC: VectorUnit.md instruction table (IPC and Latency columns), per arch.
 * - stalls: each instruction page's "Instruction scheduling" section.
 */
import { type Arch, instructionSet } from '../encoding.ts';

export const UNITS = ['load', 'simple', 'mad', 'round', 'store'] as const;
export type Unit = (typeof UNITS)[number];
/** Unit numbers used in the hot loop; ISSUE = an instruction that never reaches the Vector Unit. */
export const U = { LOAD: 0, SIMPLE: 1, MAD: 2, ROUND: 3, STORE: 4, ISSUE: 5 } as const;

export interface TimingEntry {
  /** Sub-unit that executes the instruction (or 'issue' for non-SFPU instructions). */
  unit: Unit | 'issue';
  /** Cycles until the result is visible to a following instruction (1 = next cycle). */
  latency: number;
  /** Instructions per cycle as documented ('<= 1' entries auto-stall or need a NOP after them). */
  ipc: string;
  /** Where the entry comes from. */
  source: string;
}

const VU_WH = 'WormholeB0 VectorUnit.md instruction table';
const VU_BH = 'BlackholeA0 VectorUnit.md instruction table';
const COLS = 'SFPLOADMACRO.md sub-unit table';

const SIMPLE = [
  'SFPABS',
  'SFPAND',
  'SFPCAST',
  'SFPCOMPC',
  'SFPCONFIG',
  'SFPDIVP2',
  'SFPENCC',
  'SFPEXEXP',
  'SFPEXMAN',
  'SFPIADD',
  'SFPLZ',
  'SFPMOV',
  'SFPNOT',
  'SFPOR',
  'SFPPOPC',
  'SFPPUSHC',
  'SFPSETCC',
  'SFPSETEXP',
  'SFPSETMAN',
  'SFPSETSGN',
  'SFPSHFT',
  'SFPSWAP',
  'SFPTRANSP',
  'SFPXOR',
];
const SIMPLE_BH = ['SFPARECIP', 'SFPGT', 'SFPLE'];
const MAD = ['SFPADD', 'SFPADDI', 'SFPLUT', 'SFPLUTFP32', 'SFPMAD', 'SFPMUL', 'SFPMULI'];
const MAD_BH = ['SFPMUL24'];
const ROUND = ['SFPSHFT2', 'SFP_STOCH_RND'];
const LOAD = ['SFPLOAD', 'SFPLOADI', 'SFPLOADMACRO', 'SFPNOP'];
/** Instructions of the issuing thread that do not reach the Vector Unit (they take an issue slot). */
const ISSUE = ['NOP', 'SETRWC', 'INCRWC', 'SETC16', 'STALLWAIT', 'REPLAY'];

/** Two-cycle instructions (VectorUnit.md "2 cycles"); SFPSWAP and some SFPSHFT2 modes are "≤ 1" IPC. */
const TWO_CYCLE = new Set([
  'SFPADD',
  'SFPADDI',
  'SFPMAD',
  'SFPMUL',
  'SFPMULI',
  'SFPLUT',
  'SFPLUTFP32',
  'SFPMUL24',
  'SFPSWAP',
]);
/** The MAD-family results that Wormhole software must not read on the next cycle (each page's scheduling section). */
export const MAD_FAMILY = new Set([
  'SFPADD',
  'SFPADDI',
  'SFPMAD',
  'SFPMUL',
  'SFPMULI',
  'SFPLUT',
  'SFPLUTFP32',
  'SFPMUL24',
]);
/** SFPSHFT2 modes with a two-cycle latency: SUBVEC_SHFLROR1_AND_COPY4, SUBVEC_SHFLROR1, SUBVEC_SHFLSHR1. */
export const SHFT2_TWO_CYCLE_MODES = new Set([2, 3, 4]);

function build(arch: Arch): Map<string, TimingEntry> {
  const vu = arch === 'wormhole' ? VU_WH : VU_BH;
  const m = new Map<string, TimingEntry>();
  const add = (names: string[], unit: Unit | 'issue', source: string) => {
    for (const n of names) {
      const two = TWO_CYCLE.has(n);
      m.set(n, {
        unit,
        latency: two ? 2 : 1,
        ipc: n === 'SFPSWAP' ? '<= 1' : '1',
        source: unit === 'issue' ? source : `${source}; latency/IPC: ${vu} (${n})`,
      });
    }
  };
  add(LOAD, 'load', `${COLS} (load-style column)`);
  add(SIMPLE, 'simple', `${COLS} (Simple)`);
  add(MAD, 'mad', `${COLS} (MAD)`);
  add(ROUND, 'round', `${COLS} (Round)`);
  add(['SFPSTORE'], 'store', `${COLS} (Store)`);
  if (arch === 'blackhole') {
    add(SIMPLE_BH, 'simple', `BlackholeA0 ${COLS} (Simple)`);
    add(MAD_BH, 'mad', `BlackholeA0 ${COLS} (MAD)`);
  }
  add(
    ISSUE,
    'issue',
    'not a Vector Unit instruction: one issue slot of the thread (REPLAY.md, STALLWAIT.md)',
  );
  // Any other non-SFPU instruction of the encoding table (e.g. RMWCIB): one issue slot.
  for (const d of instructionSet(arch)) {
    if (d.unit !== 'sfpu' && !m.has(d.name)) {
      m.set(d.name, {
        unit: 'issue',
        latency: 1,
        ipc: '1',
        source: `encoding table unit '${d.unit}' (${d.doc}): not a Vector Unit instruction, one issue slot`,
      });
    }
  }
  return m;
}

const TABLES: Record<Arch, Map<string, TimingEntry>> = {
  wormhole: build('wormhole'),
  blackhole: build('blackhole'),
};

/** The timing entry of an instruction by name; `mod1` refines SFPSHFT2's per-mode latency. */
export function timingOf(name: string, arch: Arch, mod1 = 0): TimingEntry | undefined {
  const e = TABLES[arch].get(name);
  if (e && name === 'SFPSHFT2' && SHFT2_TWO_CYCLE_MODES.has(mod1)) {
    return {
      ...e,
      latency: 2,
      ipc: '<= 1',
      source: `${e.source}; mode ${mod1} is a "2 cycles, <= 1 IPC" row`,
    };
  }
  return e;
}

/** The whole table of an arch (for docs and tests). */
export function timingTable(arch: Arch): ReadonlyMap<string, TimingEntry> {
  return TABLES[arch];
}

/** May `name` be scheduled to sub-unit `unit` by SFPLOADMACRO (SFPLOADMACRO.md column table)? */
export function canExecuteOn(unit: Unit, name: string, arch: Arch): boolean {
  switch (unit) {
    case 'simple':
      return name === 'SFPNOP' || SIMPLE.includes(name) || (arch === 'blackhole' && SIMPLE_BH.includes(name));
    case 'mad':
      return name === 'SFPNOP' || MAD.includes(name) || (arch === 'blackhole' && MAD_BH.includes(name));
    case 'round':
      return name === 'SFPNOP' || ROUND.includes(name);
    case 'store':
      return name === 'SFPSTORE';
    default:
      return false;
  }
}
