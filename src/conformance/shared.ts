import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's reference vectors live in `shared/conformance/` beside the repository (or where
 * AXSIM_CONFORMANCE_DIR points). Returns the path of one file there, or undefined when absent.
 */
export function sharedConformanceFile(name: string): string | undefined {
  const dirs: string[] = [];
  if (process.env.AXSIM_CONFORMANCE_DIR) dirs.push(process.env.AXSIM_CONFORMANCE_DIR);
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  dirs.push(join(repo, '..', 'shared', 'conformance'), join(repo, 'shared', 'conformance'));
  for (const d of dirs) {
    const p = join(d, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * For tests: the file's path, or a reason to skip. Under CI (CI=true) a missing file is an error,
 * so that a misplaced shared/ folder cannot make the conformance tests pass by skipping.
 */
export function requireConformanceFile(name: string): { path?: string; skip?: string } {
  const path = sharedConformanceFile(name);
  if (path) return { path };
  const msg = `conformance file ${name} not found (looked in ../shared/conformance; set AXSIM_CONFORMANCE_DIR)`;
  if (process.env.CI) throw new Error(msg);
  return { skip: msg };
}
