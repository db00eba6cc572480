import type { Command } from 'commander';

/** The `axsim tensix …` command group. */
export function registerTensix(program: Command): Command {
  const group = program
    .command('tensix')
    .description('Tenstorrent Tensix Vector Unit (SFPU): assemble, disassemble, run, conformance');
  return group;
}
