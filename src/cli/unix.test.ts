/**
 * Issue 18: the CLI behaves like a Unix tool. Each test runs `axsim` as a user would (a child
 * process) on its own small reproducer.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const NODE_ARGS = ['--import', 'tsx', 'src/cli/main.ts'];
const dir = mkdtempSync(join(tmpdir(), 'axsim-unix-'));

function axsim(args: string[], stdout?: number): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [...NODE_ARGS, ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', stdout ?? 'pipe', 'pipe'],
  });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr };
}

function noStack(err: string): void {
  assert.doesNotMatch(err, /\n\s+at [^\n]+:\d+:\d+\)?\n/, `no Node stack trace in:\n${err}`);
  assert.doesNotMatch(err, /Internal/, err);
}

test('usage errors exit 2 and show the usage line; help and --version exit 0', () => {
  for (const args of [['tensix', 'asm', '--bogus', 'x.s'], ['tensix', 'asm'], ['nosuchgroup'], ['tensix']]) {
    const r = axsim(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /Usage: axsim/);
  }
  assert.equal(axsim(['--version']).code, 0);
  assert.equal(axsim(['tensix', 'asm', '--help']).code, 0);
});

test('a bad -D value is a BadInput line, not a stack', () => {
  const r = axsim(['tensix', 'asm', '-D', '1bad=3', 'x.s']);
  assert.equal(r.code, 2);
  assert.match(r.err, /^axsim: BadInput: --define 1bad=3: expected NAME=VALUE/);
  noStack(r.err);
});

const src = join(dir, 'k.s');
writeFileSync(src, 'SFPNOP\n');

test('tensix asm -o: a missing directory, a directory, a full device and the input itself are BadInput naming the path', () => {
  const cases: [string, RegExp][] = [
    [join(dir, 'missing', 'x.bin'), /cannot write .*missing\/x\.bin: directory .*missing does not exist/],
    [dir, /cannot write .*: is a directory \(EISDIR\)/],
    ['/dev/full', /cannot write \/dev\/full: no space left on device \(ENOSPC\)/],
    [src, /output .*k\.s is the input file .*k\.s; refusing to overwrite it/],
  ];
  for (const [out, re] of cases) {
    if (out === '/dev/full' && !existsSync('/dev/full')) continue;
    const r = axsim(['tensix', 'asm', src, '-o', out]);
    assert.equal(r.code, 2, `${out}: ${r.err}`);
    assert.match(r.err, re);
    noStack(r.err);
  }
  assert.equal(readFileSync(src, 'utf8'), 'SFPNOP\n', 'the source is untouched');
  assert.equal(existsSync(join(dir, 'missing')), false, 'no parent directory was created');
});

test('reading a missing file names the path and the reason', () => {
  const r = axsim(['tensix', 'asm', join(dir, 'nope.s')]);
  assert.equal(r.code, 2);
  assert.match(r.err, /cannot read .*nope\.s: no such file or directory \(ENOENT\)/);
});

test('standard output on a full device: BadInput, status 2, no stack', {
  skip: !existsSync('/dev/full'),
}, () => {
  const fd = openSync('/dev/full', 'w');
  try {
    const r = axsim(['tensix', 'disasm', '--words', '0x8f000000'], fd);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /cannot write to standard output: no space left on device/);
    noStack(r.err);
  } finally {
    closeSync(fd);
  }
});

test('a reader that goes away (| head -1) ends the command quietly with status 0; 130k words disassemble', async () => {
  // 130k words: the disassembler's column width used Math.max(...lines), which overflowed the stack
  const words = join(dir, 'big.txt');
  writeFileSync(words, Array(130_000).fill('0x8f000000').join('\n'));
  const child = spawn(process.execPath, [...NODE_ARGS, 'tensix', 'disasm', words], { cwd: root });
  let err = '';
  let first = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  child.stdout.once('data', (d) => {
    first = String(d).split('\n')[0]!;
    child.stdout.destroy();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(first, 'SFPNOP  // [0] 0x8f000000');
  assert.equal(code, 0, err);
  assert.equal(err, '');
});

const PTO = `module {
  func.func @f(%c: !pto.ptr<f32>) {
    return
  }
}
`;

test('pto run --out onto an existing file, or under a missing parent, is BadInput and creates nothing', () => {
  const prog = join(dir, 'p.pto');
  writeFileSync(prog, PTO);
  const file = join(dir, 'afile');
  writeFileSync(file, 'keep');
  let r = axsim(['pto', 'run', prog, '--arg', 'c=zeros:2x2:f4', '--out', file]);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /cannot write into .*afile: it exists and is not a directory/);
  assert.equal(readFileSync(file, 'utf8'), 'keep');
  r = axsim(['pto', 'run', prog, '--arg', 'c=zeros:2x2:f4', '--out', join(dir, 'a', 'b', 'c')]);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /its parent directory does not exist/);
  assert.equal(existsSync(join(dir, 'a')), false);
  noStack(r.err);
});

test('pto run with zeros:100000x100000:f4 is a ResourceLimit on live bytes, not a RangeError', () => {
  const prog = join(dir, 'p2.pto');
  writeFileSync(prog, PTO);
  const r = axsim(['pto', 'run', prog, '--arg', 'c=zeros:100000x100000:f4']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /ResourceLimit: live bytes limit exceeded: 40000000000 > 1073741824/);
  assert.match(r.err, /--max-live-bytes/);
  noStack(r.err);
});

test('a PTO-AS file with a UTF-8 BOM is accepted by pto check', () => {
  const prog = join(dir, 'bom.pto');
  writeFileSync(prog, `\ufeff${PTO}`);
  const r = axsim(['pto', 'check', prog]);
  assert.equal(r.code, 0, r.err);
});
