import type { Command } from 'commander';

/** The `axsim amx …` command group. */
export function registerAmx(program: Command): Command {
  const group = program
    .command('amx')
    .description('Apple AMX: assemble, disassemble, run, performance model, conformance');
  return group;
}
