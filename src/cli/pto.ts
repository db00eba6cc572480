import type { Command } from 'commander';

/** The `axsim pto …` command group. */
export function registerPto(program: Command): Command {
  const group = program.command('pto').description('Ascend PTO tile ISA: check, run, cost, conformance');
  return group;
}
