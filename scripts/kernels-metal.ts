/**
 * `AXSIM_TT_METAL_SFPU=/path AXSIM_TT_LLK=/path/to/tt-llk npm run kernels:metal [-- --json] [-- --arch wormhole]
 * [-- --file abs,sqrt]`: runs every public `calculate_*` / `_calculate_*_` function of tt-metal's SFPU kernel
 * files (a tt-metal checkout, or a directory with wormhole_b0/ and blackhole/ holding a sample of them) with
 * the LLK environment and tt-llk's headers, and prints the table (docs/tensix-metal-corpus.md), or one JSON array.
 */
import { existsSync } from 'node:fs';
import type { Arch } from '../src/tensix/encoding.ts';
import { metalSummary, metalTableMarkdown, runMetalCorpus } from '../src/tensix/llk/metal-corpus.ts';
import { loadKernelCompiler } from '../src/tensix/llk/run.ts';

const root = process.env.AXSIM_TT_METAL_SFPU;
const llk = process.env.AXSIM_TT_LLK;
if (!root || !existsSync(root) || !llk || !existsSync(`${llk}/tt_llk_wormhole_b0`)) {
  process.stderr.write(
    'set AXSIM_TT_METAL_SFPU to a tt-metal checkout (or a directory with wormhole_b0/ and blackhole/ kernel files)\n' +
      'and AXSIM_TT_LLK to a checkout of tenstorrent/tt-llk (e.g. commit 36b092e8)\n',
  );
  process.exit(2);
}
const args = process.argv.slice(2);
const ai = args.indexOf('--arch');
const arches: Arch[] = ai >= 0 ? [args[ai + 1] as Arch] : ['wormhole', 'blackhole'];
const fi = args.indexOf('--file');
const compile = await loadKernelCompiler();
const rows = runMetalCorpus(compile, root, llk, arches, fi >= 0 ? args[fi + 1]!.split(',') : undefined);
if (args.includes('--json')) process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
else
  process.stdout.write(
    `${metalTableMarkdown(rows, { [`${root.replace(/\/$/, '')}/`]: '<metal>/', [`${llk.replace(/\/$/, '')}/`]: '<tt-llk>/' })}\n\n${metalSummary(rows)}\n`,
  );
