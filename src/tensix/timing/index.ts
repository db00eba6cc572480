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

/**
 * What the sequential `TensixMachine.run` does not see: runs `program` on the cycle model from the
 * machine's current state (hazards 'warn'), compares the Dst it leaves with the sequential run's,
 * and puts the machine back as it was. `axsim tensix run` prints the result as warnings.
 */
export function checkTimingRules(
  m: TensixMachine,
  program: ArrayLike<number>,
  opts: Pick<TimedOptions, 'sources' | 'matrixDstWrites' | 'hazardLimit'> = {},
): { hazards: TimedResult['hazards']; hazardCount: number; dstCellsDiffer: number } {
  const start = m.snapshot();
  try {
    const t = runTimedProgram(m, program, { ...opts, hazards: 'warn' });
    const timedDst = m.state.dst.slice();
    m.restore(start);
    m.run(program);
    let differ = 0;
    for (let i = 0; i < timedDst.length; i++) if (timedDst[i] !== m.state.dst[i]) differ++;
    return { hazards: t.hazards, hazardCount: t.hazardCount, dstCellsDiffer: differ };
  } finally {
    m.restore(start);
  }
}
