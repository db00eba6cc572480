/**
 * CLI start-up, before and after issue 15, in the same run: the TypeScript sources through tsx (how
 * `axsim` started before: `node --import tsx src/cli/main.ts`) against the compiled CLI the
 * installed command runs (`node dist/cli/main.js`, built first by this script). Wall time of the
 * whole process, median of RUNS runs each; `node -e 0` is the floor.
 * AXSIM_BEFORE=DIR adds a column for `node DIR/bin/axsim.js`: another checkout, e.g. the commit
 * before issue 15 (its bin registered tsx and imported every command group at start).
 * Run: node --import tsx bench/startup.bench.ts   Target (issue 15): < 250 ms for both commands.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 15);
const TARGET_MS = 250;

const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('npm run build failed');

function median(args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const floor = median(['-e', '0']);
console.log(`node -e 0: ${floor.toFixed(0)} ms (median of ${RUNS})\n`);
const old = process.env.AXSIM_BEFORE;
console.log(
  `| command |${old ? ' checkout AXSIM_BEFORE |' : ''} tsx, sources | compiled dist/ | ratio before/after | < 250 ms |`,
);
console.log(`|---|${old ? '---|' : ''}---|---|---|---|`);
for (const cmd of [['--help'], ['numeric', 'decode', '0x7e', '--format', 'e4m3']]) {
  const origMs = old ? median([`${old}/bin/axsim.js`, ...cmd]) : undefined;
  const orig = origMs === undefined ? '' : `${origMs.toFixed(0)} ms |`;
  const before = median(['--import', 'tsx', 'src/cli/main.ts', ...cmd]);
  const after = median(['dist/cli/main.js', ...cmd]);
  const ratio = ((origMs ?? before) / after).toFixed(1);
  console.log(
    `| \`axsim ${cmd.join(' ')}\` |${orig} ${before.toFixed(0)} ms | ${after.toFixed(0)} ms | ${ratio}x | ${after < TARGET_MS ? 'yes' : 'NO'} |`,
  );
}
