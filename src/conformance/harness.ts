import { AxsimError, badInput } from '../errors.ts';
import { readJsonl } from './reader.ts';

/** What one ISA's runner says about one case. */
export interface CaseOutcome {
  pass: boolean;
  /** A field-by-field description of what differed (when pass is false). */
  diff?: string;
  /** The case is not applicable to this runner (e.g. a cost row of another model); not counted. */
  skip?: string;
}

/** Runs one vector. Throwing an AxsimError fails the case with that message; anything else is a bug. */
export type CaseRunner = (record: Record<string, unknown>) => CaseOutcome;

export interface CaseReport {
  id: string;
  pass: boolean;
  diff?: string;
  file: string;
  line: number;
}

export interface ConformanceReport {
  passed: number;
  failed: number;
  skipped: number;
  cases: CaseReport[];
}

export interface ConformanceOptions {
  /** Only run cases whose id contains this text. */
  filter?: string;
  /** Keep at most this many case reports for passing cases (failures are always kept). */
  keepPassing?: number;
  /** Stop after this many cases (for quick checks). */
  limit?: number;
}

/** Runs every case of every file through `run` and tallies the results. */
export async function runConformance(
  files: readonly string[],
  run: CaseRunner,
  opts: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const report: ConformanceReport = { passed: 0, failed: 0, skipped: 0, cases: [] };
  const keep = opts.keepPassing ?? Number.POSITIVE_INFINITY;
  let seen = 0;
  outer: for (const file of files) {
    for await (const { line, value } of readJsonl(file)) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw badInput('a vector must be a JSON object', { location: { file, line } });
      }
      const rec = value as Record<string, unknown>;
      const id = typeof rec.id === 'string' ? rec.id : `${file}:${line}`;
      if (opts.filter && !id.includes(opts.filter)) continue;
      if (opts.limit !== undefined && seen >= opts.limit) break outer;
      seen++;
      let outcome: CaseOutcome;
      try {
        outcome = run(rec);
      } catch (e) {
        // A runner that throws anything but an AxsimError has a bug; the case fails (saying so) and
        // the run goes on, so one odd record cannot abort a whole file.
        outcome = {
          pass: false,
          diff:
            e instanceof AxsimError
              ? `raised ${e.format()}`
              : `raised Internal: ${(e as Error)?.message ?? String(e)} (a bug in axsim's runner)`,
        };
      }
      if (outcome.skip !== undefined) {
        report.skipped++;
        continue;
      }
      if (outcome.pass) {
        report.passed++;
        if (report.cases.length < keep) report.cases.push({ id, pass: true, file, line });
      } else {
        report.failed++;
        report.cases.push({ id, pass: false, diff: outcome.diff ?? '(no diff given)', file, line });
      }
    }
  }
  return report;
}

/** The text summary: the first failures with their diffs, then the `N passed, M failed` line. */
export function formatReport(report: ConformanceReport, maxFailures = 10): string {
  const out: string[] = [];
  const failures = report.cases.filter((c) => !c.pass);
  for (const c of failures.slice(0, maxFailures)) {
    out.push(`FAIL ${c.id} (${c.file}:${c.line})`);
    for (const l of (c.diff ?? '').split('\n')) out.push(`  ${l}`);
  }
  if (failures.length > maxFailures) out.push(`... and ${failures.length - maxFailures} more failures`);
  out.push(
    `${report.passed} passed, ${report.failed} failed${report.skipped ? `, ${report.skipped} skipped` : ''}`,
  );
  return out.join('\n');
}

/** The `--json` document: every case id with its result. */
export function reportJson(report: ConformanceReport): string {
  return JSON.stringify({
    passed: report.passed,
    failed: report.failed,
    skipped: report.skipped,
    cases: report.cases.map((c) =>
      c.pass ? { id: c.id, pass: true } : { id: c.id, pass: false, diff: c.diff },
    ),
  });
}

export { diffWords } from './diff.ts';
