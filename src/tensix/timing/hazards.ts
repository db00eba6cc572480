/**
 * Hazard diagnostics of the cycle model: stable ids, what each means and the rule's source.
 * docs/tensix-timing.md lists the same table.
 */
import { AxsimError, type ErrorLocation } from '../../errors.ts';

export const HAZARDS = {
  'early-read': {
    what: 'an instruction read an LReg whose two-cycle result (MAD family, SFPSWAP, SFPSHFT2 modes 2-4) was not yet written; it saw the old value',
    source:
      'WormholeB0 SFPMAD.md/SFPADD.md/SFPMUL.md/SFPMULI.md/SFPADDI.md/SFPLUT.md/SFPLUTFP32.md "Instruction scheduling"; BlackholeA0 SFPMAD.md (no auto-stall for SFPLOADMACRO sequences; stall-logic detection bugs)',
  },
  'swap-shft2-follow': {
    what: 'SFPSWAP or a two-cycle SFPSHFT2 mode was not followed as required on the next cycle',
    source:
      'WormholeB0 SFPSHFT2.md "Instruction scheduling"; BlackholeA0 SFPLOADMACRO.md (‡) and SFPSHFT2.md/SFPSWAP.md cautions',
  },
  'simple-round-vd': {
    what: 'the Simple and Round sub-units wrote on the same cycle without exactly one VD == 16 (Wormhole also accepts one VD < 4 and the other 4 <= VD < 8)',
    source: 'SFPLOADMACRO.md (†), both arches',
  },
  'swap-mad-not-nop': {
    what: 'SFPSWAP executed on the Simple sub-unit from SFPLOADMACRO while the MAD sub-unit executed something other than SFPNOP',
    source: 'SFPLOADMACRO.md (‡)',
  },
  'matrix-dst-too-close': {
    what: 'fewer than 3 unrelated Tensix instructions between a Matrix Unit write to Dst and an SFPLOAD/SFPLOADMACRO reading it',
    source: 'SFPLOADMACRO.md and SFPLOAD.md "Instruction scheduling"; spec 000 "Scheduling Constraints" 1',
  },
  'store-partial-lanes': {
    what: 'an SFPCONFIG made the Store sub-unit scheduled on some lanes but not all',
    source: 'SFPLOADMACRO.md "extra considerations for StoreSubUnit"',
  },
  'regular-discarded': {
    what: 'a regular Vector Unit instruction reached a sub-unit on the same cycle as an SFPLOADMACRO-scheduled one and was discarded',
    source: 'SFPLOADMACRO.md functional model (last paragraph); spec 000 "Scheduling Constraints" 3',
  },
  'flag-stack-overflow': {
    what: 'SFPPUSHC pushed onto a full (8-entry) flag stack; the oldest entry is overwritten',
    source: 'SFPPUSHC.md; spec 003 flag stack',
  },
  'flag-stack-underflow': {
    what: 'SFPPOPC popped an empty flag stack; the size counter underflows',
    source: 'SFPPOPC.md; spec 003 flag stack',
  },
  'config-backdoor-next': {
    what: 'an instruction with VD 12..15 right after an SFPCONFIG that changed LaneConfig.DISABLE_BACKDOOR_LOAD: it may observe the old or the new value (axsim uses the new one)',
    source: 'SFPCONFIG.md "Instruction scheduling" (both arches)',
  },
  'macro-write-lost': {
    what: 'a value an SFPLOADMACRO sequence wrote to an LReg (its load or a scheduled instruction) was overwritten by another instruction before anything read it',
    source:
      'SFPLOADMACRO.md functional model (scheduled instructions read and write LRegs on the cycle they execute; nothing preserves a value across a later write); VectorUnit.md LReg',
  },
  'macro-forgotten': {
    what: 'an instruction SFPLOADMACRO had scheduled was forgotten: a later SFPLOADMACRO scheduled one on the same sub-unit with the same delay before it executed',
    source: 'SFPLOADMACRO.md functional model ("forget" of a pending instruction with the same delay)',
  },
  'macro-insn-nop': {
    what: 'an SFPLOADMACRO sequence selected an instruction template for a sub-unit that cannot execute it; the sub-unit executes SFPNOP instead',
    source:
      'SFPLOADMACRO.md functional model ("if the instruction cannot be executed by the sub-unit, it becomes SFPNOP") and its column table',
  },
  'macro-pending-at-end': {
    what: 'the program ended with SFPLOADMACRO-scheduled instructions that wait for further instructions (WaitForElapsedInstructions) and never executed',
    source: 'SFPLOADMACRO.md delay counting',
  },
} as const;

export type HazardId = keyof typeof HAZARDS;
export const HAZARD_IDS = Object.keys(HAZARDS) as HazardId[];
export type HazardMode = 'warn' | 'strict' | 'off';

export interface Hazard {
  id: HazardId;
  /** Cycle (0-based) at which it happened. */
  cycle: number;
  /** Index of the instruction in the source words (-1 if none). */
  index: number;
  message: string;
  source: string;
  /** Where the instruction came from (file:line:col when the run had a source map). */
  location?: ErrorLocation;
}

export function parseHazardMode(s: string): HazardMode {
  if (s === 'warn' || s === 'strict' || s === 'off') return s;
  throw new AxsimError('BadInput', `hazard mode '${s}' is not warn, strict or off`);
}

/** The error strict mode throws for the first hazard. */
export function hazardError(h: Hazard): AxsimError {
  return new AxsimError('UndefinedBehaviour', `hazard ${h.id} at cycle ${h.cycle}: ${h.message}`, {
    location: h.location ?? (h.index >= 0 ? { index: h.index } : undefined),
    hint: `rule: ${h.source}`,
  });
}
