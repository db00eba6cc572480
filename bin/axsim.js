#!/usr/bin/env node
// Entry point installed as `axsim`: runs the compiled CLI in dist/ (built by `npm run build`, which
// `prepare` runs). In a checkout (src/ present) whose build is missing or older than any source
// file, it runs the TypeScript sources through tsx instead (a dev dependency), so it never runs
// stale code; AXSIM_FROM_SOURCE=1 forces that.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyCliV8Flags } from './v8-flags.js';

applyCliV8Flags();

const src = fileURLToPath(new URL('../src', import.meta.url));

/** True when some .ts file under `dir` was modified after `time` (ms). */
function newerThan(dir, time) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory() ? newerThan(p, time) : e.name.endsWith('.ts') && statSync(p).mtimeMs > time)
      return true;
  }
  return false;
}

function useSource() {
  if (!existsSync(src)) return false; // an installed package: dist/ only
  if (process.env.AXSIM_FROM_SOURCE === '1') return true;
  const built = new URL('../dist/.built', import.meta.url);
  if (!existsSync(built)) return true;
  return newerThan(src, statSync(built).mtimeMs);
}

if (useSource()) {
  const { register } = await import('tsx/esm/api');
  register();
  await (await import('../src/cli/main.ts')).main(process.argv);
} else {
  await (await import('../dist/cli/main.js')).main(process.argv);
}
