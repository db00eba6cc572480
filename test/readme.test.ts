import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The README's TypeScript snippets are documentation users copy; run each one as written.
const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

test('the README has its library snippets', () => {
  assert.ok(snippets.length >= 3, `found ${snippets.length} ts snippets`);
});

const dir = mkdtempSync(join(root, 'node_modules', '.axsim-readme-'));
snippets.forEach((code, i) => {
  test(`README snippet ${i + 1} runs and its assertions hold`, () => {
    // Written inside the repository so that './src/...' imports resolve as they do for a reader.
    const file = join(dir, `snippet${i + 1}.ts`);
    writeFileSync(file, code.replaceAll("'./src/", `'${root}src/`));
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', cwd: root });
    assert.equal(r.status, 0, `snippet ${i + 1} failed:\n${r.stderr}`);
  });
});

test('.ci/run runs the README quick-start commands', () => {
  const quick = readme
    .match(/## Quick start[\s\S]*?```sh\n([\s\S]*?)```/)![1]!
    .trim()
    .split('\n');
  assert.equal(quick.length, 2, 'the quick start has exactly two commands');
  const ci = readFileSync(join(root, '.ci/run'), 'utf8');
  for (const cmd of quick)
    for (const part of cmd.split(' && ')) assert.ok(ci.includes(part), `.ci/run lacks: ${part}`);
});
