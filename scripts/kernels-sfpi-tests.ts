/**
 * `AXSIM_SFPI=/path/to/sfpi npm run kernels:sfpi-tests [-- --json] [-- --arch wormhole] [-- --file coverage]`:
 * compiles every function of sfpi's own compiler tests (tests/{wormhole,blackhole}/{sfpi,gcc}/*.cc) and
 * compares the instruction sequence with the gold listing (src/tensix/sfpi/gold.ts; table in
 * docs/sfpi-gold.md). The checkout must hold the tests (sfpi commit 0ede90d4, the last one whose gold
 * listings match its tests and headers).
 * `-- --kernels`: instead, runs kernels.cc's tests on axsim and compares the output with
 * gold/kernels_float and gold/kernels_int (src/tensix/sfpi/kernels.ts), per row and lane.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Arch } from '../src/tensix/encoding.ts';
import { compileSfpi } from '../src/tensix/sfpi/compile.ts';
import { goldSummary, goldTable, runGoldCorpus } from '../src/tensix/sfpi/gold.ts';
import { compareKernels, kernelsText, runKernelsTest } from '../src/tensix/sfpi/kernels.ts';

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
if (args.includes('--kernels')) {
  for (const arch of arches) {
    const r = runKernelsTest(root, arch);
    process.stdout.write(`## ${arch}\n\n| test | compiled and run |\n|---|---|\n`);
    for (const t of r.tests) process.stdout.write(`| ${t.call} | ${t.error ? `no: ${t.error}` : 'yes'} |\n`);
    for (const ints of [false, true]) {
      const name = `kernels_${ints ? 'int' : 'float'}`;
      const gold = readFileSync(join(root, 'tests', arch, 'sfpi', 'gold', name), 'utf8');
      const ours = kernelsText(r.bits, ints);
      const rows = compareKernels(ours, gold);
      const same = rows.filter((x) => x.lanes.length === 0).map((x) => x.row);
      process.stdout.write(
        `\n${name}: ${ours === gold ? 'reproduced exactly' : `${same.length} of ${rows.length} rows identical`}\n`,
      );
      for (const x of rows.filter((x) => x.lanes.length))
        process.stdout.write(
          `- row ${x.row}: ${x.lanes.length} of 32 lanes differ (lanes ${x.lanes.join(', ')})\n`,
        );
    }
    process.stdout.write('\n');
  }
  process.exit(0);
}
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
