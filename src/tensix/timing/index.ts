/**
 * Public API of the Tensix Vector Unit cycle model (docs/tensix-timing.md).
 *
 *   const m = new TensixMachine('blackhole');
 *   const r = runTimedProgram(m, words, { timeline: true, hazards: 'warn' });
 *   r.cycles; r.busy.simple; r.hazards; timelineText(r);
 *
 * The sequential functional mode (TensixMachine.run) stays the default; this mode is explicit.
 */
import type { TensixMachine } from '../index.ts';
import type { Program } from '../program.ts';
import { runTimed, type TimedOptions, type TimedResult } from './engine.ts';

export { runTimed, type TimedOptions, type TimedResult, type TimelineEntry } from './engine.ts';
export {
  HAZARD_IDS,
  HAZARDS,
  type Hazard,
  type HazardId,
  type HazardMode,
  parseHazardMode,
} from './hazards.ts';
export { buildScheduled, KIND_CYCLES, KIND_INSTRUCTIONS, type Scheduled } from './macro.ts';
export { summaryText, timedJson, timelineText } from './report.ts';
export { canExecuteOn, type TimingEntry, timingOf, timingTable, UNITS, type Unit } from './tables.ts';

/** Runs words (or a compiled program) on a machine in timed mode. */
export function runTimedProgram(
  m: TensixMachine,
  program: ArrayLike<number> | Program,
  opts: TimedOptions = {},
): TimedResult {
  const p =
    (program as Program).code instanceof Int32Array
      ? (program as Program)
      : m.compile(program as ArrayLike<number>);
  return runTimed(m.state, p, opts);
}
