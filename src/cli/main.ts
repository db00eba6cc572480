import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { cliState, runCli } from './common.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * The command groups. Each group's module (and the simulator behind it) is imported only when the
 * command line names that group, so `axsim --help` and `axsim numeric …` start without loading
 * every ISA. `description` must equal the one the module's register function gives its group
 * (src/cli/main.test.ts checks).
 */
export const GROUPS: Record<string, { description: string; load: () => Promise<(p: Command) => void> }> = {
  numeric: {
    description: 'exact numeric-format conversions (fp16, bf16, tf32, fp8, sign-magnitude)',
    load: async () => (await import('./numeric.ts')).registerNumeric,
  },
  tensix: {
    description: 'Tenstorrent Tensix Vector Unit (SFPU): assemble, disassemble, run, conformance',
    load: async () => (await import('./tensix.ts')).registerTensix,
  },
  amx: {
    description: 'Apple AMX: assemble, disassemble, run, performance model, conformance',
    load: async () => (await import('./amx.ts')).registerAmx,
  },
  pto: {
    description: 'Ascend PTO tile ISA: check, run, cost, conformance',
    load: async () => (await import('./pto.ts')).registerPto,
  },
};

/** The group an argument list asks for (`axsim [global options] GROUP …`, `axsim help GROUP`). */
export function requestedGroup(args: readonly string[]): string | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  const g = words[0] === 'help' ? words[1] : words[0];
  return g !== undefined && Object.hasOwn(GROUPS, g) ? g : undefined;
}

/**
 * The CLI for `args` (argv without node and the script): the requested group fully registered,
 * the others as entries that only describe themselves (enough for `axsim --help`). With
 * `args === 'all'`, every group is registered fully.
 */
export async function buildProgram(args: readonly string[] | 'all'): Promise<Command> {
  const program = new Command('axsim')
    .description(
      'Bit-exact simulators for AI-accelerator instruction sets: Tenstorrent Tensix SFPU, Apple AMX, Ascend PTO tiles',
    )
    .version(pkg.version, '-V, --version')
    .option('--debug', 'show stack traces for errors')
    .showHelpAfterError()
    .hook('preAction', (cmd) => {
      cliState.debug = Boolean(cmd.optsWithGlobals().debug);
    });
  const wanted = args === 'all' ? undefined : requestedGroup(args);
  for (const [name, g] of Object.entries(GROUPS)) {
    if (args === 'all' || name === wanted) (await g.load())(program);
    else program.command(name).description(g.description);
  }
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await runCli(await buildProgram(argv.slice(2)), argv);
}

// Run when started as a script (`node src/cli/main.ts …`); bin/axsim.js imports it and calls main.
const script = process.argv[1];
if (script && pathToFileURL(realpathSync(script)).href === import.meta.url) await main(process.argv);
