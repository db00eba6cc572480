import { type Command, CommanderError } from 'commander';
import {
  type Budget,
  type BudgetLimits,
  budgetFromOptions,
  budgetOptionsFor,
  type LimitName,
} from '../budget.ts';
import { type CaseRunner, formatReport, reportJson, runConformance } from '../conformance/index.ts';
import { AxsimError } from '../errors.ts';
import { fsReason } from './files.ts';

/** Set by `--debug` on the root command: show stack traces. */
export const cliState = { debug: false };

/**
 * Exit codes: 0 ok, 1 internal error (a bug in axsim), 2 the input was rejected (any other
 * category, ResourceLimit included, and usage errors), 3 conformance failures.
 */
export function exitCodeFor(e: unknown): number {
  return e instanceof AxsimError && e.category !== 'Internal' ? 2 : 1;
}

/** Prints an error the way the CLI does: categorised, without a stack unless --debug. */
export function reportError(e: unknown, write: (s: string) => void = (s) => process.stderr.write(s)): number {
  if (e instanceof AxsimError) {
    write(`axsim: ${e.format()}\n`);
    if (cliState.debug && e.stack) write(`${e.stack}\n`);
  } else {
    const err = e as Error;
    write(`axsim: Internal: ${err?.message ?? String(e)}\n`);
    write(
      cliState.debug && err?.stack
        ? `${err.stack}\n`
        : '  (this is a bug in axsim; rerun with --debug for the stack trace)\n',
    );
  }
  return exitCodeFor(e);
}

/** Wraps a command action so that errors are printed and set the exit code. */
export function action<A extends unknown[]>(
  fn: (...args: A) => unknown | Promise<unknown>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      process.exitCode = reportError(e);
    }
  };
}

/** Prints a JSON document on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Adds `conformance FILE…` to an ISA's command group: runs reference-vector files through the ISA's
 * case runner and prints `N passed, M failed` (or the --json document). Exit code 3 when any failed.
 */
export function addConformanceCommand(
  group: Command,
  isa: string,
  makeRunner: (opts: Record<string, unknown>) => CaseRunner,
  extra?: (c: Command) => void,
): Command {
  const cmd = group
    .command('conformance')
    .description(`run ${isa} reference-vector files (gzip JSON Lines) and report N passed, M failed`)
    .argument('<files...>', 'vector files (.jsonl or .jsonl.gz)')
    .option('--json', 'print one JSON document listing every case id with its result')
    .option('--filter <text>', 'only run cases whose id contains this text')
    .option('--max-failures <n>', 'how many failures to show in detail', '10');
  extra?.(cmd);
  cmd.action(
    action(async (files: string[], opts: Record<string, unknown>) => {
      const report = await runConformance(files, makeRunner(opts), {
        filter: opts.filter as string | undefined,
      });
      process.stdout.write(
        `${opts.json ? reportJson(report) : formatReport(report, Number(opts.maxFailures))}\n`,
      );
      if (report.failed > 0) process.exitCode = 3;
    }),
  );
  return cmd;
}

/**
 * Adds the `--max-*` resource-limit options (src/budget.ts) to a command that parses or runs
 * programs: `names` are the limits that apply to it (all when omitted), `defaults` its own defaults
 * where they differ from src/budget.ts's (pass the same to `budgetOf`).
 */
export function addBudgetOptions(
  cmd: Command,
  names?: readonly LimitName[],
  defaults: Partial<BudgetLimits> = {},
): Command {
  for (const o of budgetOptionsFor(names, defaults)) cmd.option(o.flags, o.description);
  return cmd;
}

/** The Budget the `--max-*` options of a command describe (`defaults`, then src/budget.ts's, where not given). */
export function budgetOf(opts: Record<string, unknown>, defaults: Partial<BudgetLimits> = {}): Budget {
  return budgetFromOptions(opts, defaults);
}

let guarded = false;

/**
 * Standard output the way Unix tools treat it: when the reader goes away (`axsim … | head -1`,
 * EPIPE) the command ends quietly with status 0; any other write failure (a full device) is one
 * BadInput line on stderr and status 2, never a Node stack.
 */
export function installStdioGuards(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on('error', (e: unknown) => {
    if ((e as { code?: string }).code === 'EPIPE') process.exit(0);
    try {
      process.stderr.write(`axsim: BadInput: cannot write to standard output: ${fsReason(e)}\n`);
    } finally {
      process.exit(2);
    }
  });
  process.stderr.on('error', () => process.exit(typeof process.exitCode === 'number' ? process.exitCode : 2));
}

/** Makes commander throw (instead of exiting) on usage errors, on `cmd` and all its subcommands. */
export function throwOnUsageErrors(cmd: Command): void {
  cmd.exitOverride();
  for (const c of cmd.commands) throwOnUsageErrors(c);
}

/**
 * Runs the CLI: usage errors (unknown option, missing argument, …) exit 2 after commander has
 * printed the error and the usage; help and --version exit 0; errors thrown while parsing options
 * (e.g. a bad `-D` value) are reported like errors in actions.
 */
export async function runCli(program: Command, argv: string[]): Promise<void> {
  installStdioGuards();
  throwOnUsageErrors(program);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) process.exitCode = e.exitCode === 0 ? 0 : 2;
    else process.exitCode = reportError(e);
  }
}
