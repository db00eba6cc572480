/**
 * Runs documentation code blocks as a user of the package would: each snippet is written to a
 * temporary project whose node_modules/axsim links to this checkout, and run with Node.js + tsx.
 * The `axsim-source` export condition makes `axsim/...` resolve to the TypeScript sources (src/),
 * so the snippets test the current code without a build (.ci/run tests the built package).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The ```ts blocks of a Markdown text. */
export function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

let project: string | undefined;

function tempProject(): string {
  if (project) return project;
  const dir = mkdtempSync(join(tmpdir(), 'axsim-snippets-'));
  project = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root.replace(/\/$/, ''), join(dir, 'node_modules', 'axsim'), 'dir');
  return dir;
}

/**
 * Type-checks snippets as a strict TypeScript user of the package would (`tsc --noEmit`, `axsim/...`
 * resolved to the sources by the axsim-source condition); returns tsc's exit status and report.
 */
export function typecheckSnippets(snippets: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tempProject(), 'tsc-'));
  for (const [name, code] of Object.entries(snippets)) writeFileSync(join(dir, `${name}.ts`), code);
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    customConditions: ['axsim-source'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
  const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
  const r = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', cwd: dir });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** Runs one snippet; returns its exit status and stderr. */
export function runSnippet(name: string, code: string): { status: number | null; stderr: string } {
  const dir = tempProject();
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, code);
  const tsx = import.meta.resolve('tsx');
  const r = spawnSync(process.execPath, ['--conditions=axsim-source', '--import', tsx, file], {
    encoding: 'utf8',
    cwd: dir,
  });
  return { status: r.status, stderr: r.stderr };
}
