import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerAmx } from './amx.ts';
import { cliState } from './common.ts';
import { registerNumeric } from './numeric.ts';
import { registerPto } from './pto.ts';
import { registerTensix } from './tensix.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export function buildProgram(): Command {
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
  registerNumeric(program);
  registerTensix(program);
  registerAmx(program);
  registerPto(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}

await main(process.argv);
