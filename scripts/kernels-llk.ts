/**
 * `AXSIM_TT_LLK=/path/to/tt-llk npm run kernels:llk [-- --json] [-- --arch wormhole] [-- --file typecast,ema]`: runs every public
 * function of tt-llk's TTI-style and mixed SFPU kernel files with the LLK environment and prints the
 * table (docs/tensix-llk-corpus.md), or one JSON array with --json.
 */
import { existsSync } from 'node:fs';
import type { Arch } from '../src/tensix/encoding.ts';
import { runCorpus, summary, tableMarkdown } from '../src/tensix/llk/corpus.ts';
import { loadKernelCompiler } from '../src/tensix/llk/run.ts';

const root = process.env.AXSIM_TT_LLK;
if (!root || !existsSync(`${root}/tt_llk_wormhole_b0`)) {
  process.stderr.write('set AXSIM_TT_LLK to a checkout of tenstorrent/tt-llk (e.g. commit 36b092e8)\n');
  process.exit(2);
}
const args = process.argv.slice(2);
const ai = args.indexOf('--arch');
const arches: Arch[] = ai >= 0 ? [args[ai + 1] as Arch] : ['wormhole', 'blackhole'];
const compile = await loadKernelCompiler();
const fi = args.indexOf('--file');
const rows = runCorpus(compile, root, arches, fi >= 0 ? args[fi + 1]!.split(',') : undefined);
if (args.includes('--json')) process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
else process.stdout.write(`${tableMarkdown(rows)}\n\n${summary(rows)}\n`);
