/**
 * CLI start-up, before and after issue 15, in the same run: the TypeScript sources through tsx (how
 * `axsim` started before: `node --import tsx src/cli/main.ts`) against the compiled CLI the
 * installed command runs (`node dist/cli/main.js`, built first by this script). For each, the
 * median over RUNS processes of the wall time and of the CPU time (user + system, which the load
 * of other processes on the machine disturbs far less); `node -e 0` is the floor.
 * AXSIM_BEFORE=DIR adds a column for `node DIR/bin/axsim.js`: another checkout, e.g. the commit
 * before issue 15 (its bin registered tsx and imported every command group at start).
 * Run: node --import tsx bench/startup.bench.ts   Target (issue 15): < 250 ms for both commands.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 15);
const TARGET_MS = 250;

const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('npm run build failed');

// Printed by every measured process as it exits: its own CPU time in microseconds.
const CPU_HOOK = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('@cpu '+(u.user+u.system)+'\\n')})`;

interface Times {
  wall: number;
  cpu: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function measure(args: string[]): Times {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--import', CPU_HOOK, ...args], { cwd: root, encoding: 'utf8' });
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const m = r.stderr.match(/@cpu (\d+)/);
    if (r.status !== 0 || !m) throw new Error(`${args.join(' ')} failed:\n${r.stderr}`);
    cpu.push(Number(m[1]) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const fmt = (t: Times) => `${t.wall.toFixed(0)} ms (cpu ${t.cpu.toFixed(0)})`;
const floor = measure(['-e', '0']);
console.log(`node -e 0: ${fmt(floor)}; median of ${RUNS}; load average ${loadavg()[0]!.toFixed(1)}\n`);
const old = process.env.AXSIM_BEFORE;
console.log(
  `| command |${old ? ' AXSIM_BEFORE checkout |' : ''} tsx, sources | compiled dist/ | ratio before/after (wall, cpu) | < 250 ms (wall, cpu) |`,
);
console.log(`|---|${old ? '---|' : ''}---|---|---|---|`);
for (const cmd of [['--help'], ['numeric', 'decode', '0x7e', '--format', 'e4m3']]) {
  const orig = old ? measure([`${old}/bin/axsim.js`, ...cmd]) : undefined;
  const tsx = measure(['--import', 'tsx', 'src/cli/main.ts', ...cmd]);
  const dist = measure(['dist/cli/main.js', ...cmd]);
  const base = orig ?? tsx;
  const ratio = `${(base.wall / dist.wall).toFixed(1)}x, ${(base.cpu / dist.cpu).toFixed(1)}x`;
  const met = [dist.wall, dist.cpu].map((t) => (t < TARGET_MS ? 'yes' : 'NO')).join(', ');
  console.log(
    `| \`axsim ${cmd.join(' ')}\` |${orig ? ` ${fmt(orig)} |` : ''} ${fmt(tsx)} | ${fmt(dist)} | ${ratio} | ${met} |`,
  );
}
