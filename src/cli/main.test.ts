import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../errors.ts';
import { exitCodeFor, reportError } from './common.ts';
import { buildProgram, GROUPS, requestedGroup } from './main.ts';

const bin = fileURLToPath(new URL('../../bin/axsim.js', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const axsim = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

test('--version prints the package version', () => {
  const r = axsim('--version');
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trim(), pkg.version);
});

test('--help lists the three ISA groups', () => {
  const r = axsim('--help');
  assert.equal(r.status, 0);
  for (const g of ['tensix', 'amx', 'pto', 'numeric']) assert.match(r.stdout, new RegExp(`\\n  ${g} `));
});

test('each lazily loaded group describes itself as its module does', async () => {
  const full = await buildProgram('all');
  const lazy = await buildProgram([]);
  assert.deepEqual(
    lazy.commands.map((c) => c.name()),
    full.commands.map((c) => c.name()),
  );
  for (const c of full.commands) {
    assert.equal(GROUPS[c.name()]?.description, c.description(), c.name());
    assert.ok(c.commands.length > 0, `${c.name()} has subcommands`);
  }
  // Only the group the arguments name is registered with its subcommands.
  const one = await buildProgram(['--debug', 'numeric', 'decode', '0x7e']);
  assert.deepEqual(
    one.commands.filter((c) => c.commands.length > 0).map((c) => c.name()),
    ['numeric'],
  );
});

test('requestedGroup finds the group after global options and after help', () => {
  assert.equal(requestedGroup(['--debug', 'pto', 'run']), 'pto');
  assert.equal(requestedGroup(['help', 'amx']), 'amx');
  assert.equal(requestedGroup(['--help']), undefined);
  assert.equal(requestedGroup(['frobnicate', 'tensix']), undefined);
});

test('an unknown command is rejected with a non-zero exit', () => {
  const r = axsim('frobnicate');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /unknown command 'frobnicate'/);
});

test('categorised errors map to exit codes: 2 for rejected input, 1 for bugs', () => {
  assert.equal(exitCodeFor(new AxsimError('BadInput', 'x')), 2);
  assert.equal(exitCodeFor(new AxsimError('UndefinedBehaviour', 'x')), 2);
  assert.equal(exitCodeFor(new AxsimError('Unsupported', 'x')), 2);
  assert.equal(exitCodeFor(new AxsimError('Internal', 'x')), 1);
  assert.equal(exitCodeFor(new TypeError('x')), 1);
});

test('reportError prints the category and location without a stack trace', () => {
  let out = '';
  const code = reportError(new AxsimError('BadInput', 'bad header', { location: { file: 'a.npy' } }), (s) => {
    out += s;
  });
  assert.equal(code, 2);
  assert.equal(out, 'axsim: a.npy: BadInput: bad header\n');
  out = '';
  reportError(new RangeError('boom'), (s) => {
    out += s;
  });
  assert.match(out, /^axsim: Internal: boom\n {2}\(this is a bug in axsim; rerun with --debug/);
  assert.doesNotMatch(out, /at .*\.ts/);
});
