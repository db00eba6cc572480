import type { Command } from 'commander';

/** The `axsim numeric …` command group: format conversions on .npy/JSON tensors. */
export function registerNumeric(program: Command): Command {
  const group = program
    .command('numeric')
    .description('exact numeric-format conversions (fp16, bf16, tf32, fp8, sign-magnitude)');
  return group;
}
