// Which code the `axsim` command runs (bin/axsim.js; the bench's "as the CLI runs it" rows use the
// same rule): the compiled dist/ (built by `npm run build`, which `prepare` runs), or in a checkout
// (src/ present) whose build is missing or older than any source file the TypeScript sources through
// tsx, so it never runs stale code; AXSIM_FROM_SOURCE=1 forces the sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

/** True when the command runs src/ through tsx, false when it runs dist/. */
export function useSource() {
  if (!existsSync(src)) return false; // an installed package: dist/ only
  if (process.env.AXSIM_FROM_SOURCE === '1') return true;
  const built = new URL('../dist/.built', import.meta.url);
  if (!existsSync(built)) return true;
  return newerThan(src, statSync(built).mtimeMs);
}
