// `npm run build` (also run by `prepare`, so by `npm ci` in a checkout and by `npm pack`): compiles
// the library and CLI entry points (tsconfig.build.json) to ESM JavaScript with .d.ts in dist/.
// dist/.built is given the time the build started; bin/axsim.js runs dist/ only while no source
// file is newer than that, so a checkout never runs a stale build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// An installed package ships dist/ and no sources: nothing to build (should npm run `prepare` there).
if (!existsSync(`${root}src`)) process.exit(0);
const started = new Date();
rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
if (r.status !== 0) {
  rmSync(`${root}dist`, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}
mkdirSync(`${root}dist`, { recursive: true });
writeFileSync(`${root}dist/.built`, `${started.toISOString()}\n`);
utimesSync(`${root}dist/.built`, started, started);
