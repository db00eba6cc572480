/**
 * `AXSIM_SFPI=/path/to/sfpi npm run kernels:sfpi-tests [-- --json] [-- --arch wormhole] [-- --file coverage]`:
 * compiles every function of sfpi's own compiler tests (tests/{wormhole,blackhole}/{sfpi,gcc}/*.cc) and
 * compares the instruction sequence with the gold listing (src/tensix/sfpi/gold.ts; table in
 * docs/sfpi-gold.md). The checkout must hold the tests (sfpi commit 0ede90d4, the last one whose gold
 * listings match its tests and headers).
 */
import { existsSync } from 'node:fs';
import type { Arch } from '../src/tensix/encoding.ts';
import { compileSfpi } from '../src/tensix/sfpi/compile.ts';
import { goldSummary, goldTable, runGoldCorpus } from '../src/tensix/sfpi/gold.ts';

const root = process.env.AXSIM_SFPI;
if (!root || !existsSync(`${root}/tests/wormhole/sfpi`)) {
  process.stderr.write(
    'set AXSIM_SFPI to a checkout of tenstorrent/sfpi that has tests/ (e.g. commit 0ede90d4)\n',
  );
  process.exit(2);
}
const args = process.argv.slice(2);
const ai = args.indexOf('--arch');
const arches: Arch[] = ai >= 0 ? [args[ai + 1] as Arch] : ['wormhole', 'blackhole'];
const fi = args.indexOf('--file');
const rows = runGoldCorpus(
  root,
  arches,
  (source, arch, file, entry, includeDirs) =>
    Array.from(
      compileSfpi(source, arch, {
        file,
        entry,
        includeDirs,
        virtualFiles: { 'stdio.h': '', 'stdlib.h': '', cstdio: '', cstdlib: '' },
      }).words,
    ),
  fi >= 0 ? args[fi + 1]!.split(',') : undefined,
);
if (args.includes('--json')) process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
else process.stdout.write(`${goldTable(rows)}\n\n${goldSummary(rows)}\n`);
