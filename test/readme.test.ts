import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { root, runSnippet, tsBlocks } from './snippets.ts';

// The README's TypeScript snippets are documentation users copy; run each one as written, importing
// `axsim/...` from a project that has axsim installed (test/snippets.ts).
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const snippets = tsBlocks(readme);

test('the README has its library snippets, importing the package by name', () => {
  assert.ok(snippets.length >= 3, `found ${snippets.length} ts snippets`);
  for (const code of snippets) {
    for (const m of code.matchAll(/from '([^']+)'/g))
      assert.match(m[1]!, /^(node:|axsim(\/|$))/, `README imports ${m[1]}`);
  }
});

snippets.forEach((code, i) => {
  test(`README snippet ${i + 1} runs and its assertions hold`, () => {
    const r = runSnippet(`readme${i + 1}`, code);
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
