import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { root, runSnippet, tsBlocks, typecheckSnippets } from './snippets.ts';

// Every example in docs/api.md runs as written, importing `axsim/...` from a project that has the
// package installed (test/snippets.ts), and its assertions hold.
const doc = readFileSync(join(root, 'docs/api.md'), 'utf8');
const blocks = tsBlocks(doc);

test('docs/api.md has an example for every entry point', () => {
  const imported = new Set(blocks.flatMap((b) => [...b.matchAll(/from '(axsim[^']*)'/g)].map((m) => m[1]!)));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  const entries = Object.keys(pkg.exports)
    .filter((k) => k !== './package.json')
    .map((k) => `axsim${k.slice(1)}`);
  assert.deepEqual([...imported].sort(), entries.sort());
});

blocks.forEach((code, i) => {
  const title = code.match(/from '(axsim[^']*)'/)?.[1] ?? '?';
  test(`docs/api.md example ${i + 1} (${title}) runs and its assertions hold`, () => {
    const r = runSnippet(`api${i + 1}`, code);
    assert.equal(r.status, 0, `example ${i + 1} failed:\n${r.stderr}`);
  });
});

test('the examples of docs/api.md and README.md type-check as a strict TypeScript user would', () => {
  const readme = tsBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
  const files = Object.fromEntries([
    ...blocks.map((code, i) => [`api${i + 1}`, code]),
    ...readme.map((code, i) => [`readme${i + 1}`, code]),
  ]);
  const r = typecheckSnippets(files);
  assert.equal(r.status, 0, r.out);
});
