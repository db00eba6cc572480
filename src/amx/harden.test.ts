/**
 * Issue 18 regressions for the AMX text front end and memory: each test holds its own reproducer.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../errors.ts';
import { assemble } from './asm.ts';
import { AmxState } from './state.ts';

function rejects(fn: () => unknown, re: RegExp): AxsimError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AxsimError, `expected an AxsimError, got ${e}`);
    assert.equal(e.category, 'BadInput');
    assert.match(e.message, re);
    return e;
  }
  assert.fail('expected an error');
}

test('a line of just `.`, `.` then a lone CR, and non-ASCII mnemonics with CR are BadInput with a line', () => {
  for (const [src, re] of [
    ['.', /unknown directive '\.'/],
    ['set\n.\r', /unknown directive '\.'/],
    ['\u00e9\rX\rY', /unknown AMX instruction '\u00e9'/],
    ['\u00e9\u2028x\u2028y', /unknown AMX instruction/],
    ['.data 0x1000 u8 1,\r2\r3', /is not an integer/],
  ] as const) {
    const e = rejects(() => assemble(src, 'a.s'), re);
    assert.equal(e.location?.file, 'a.s', JSON.stringify(src));
    assert.equal(typeof e.location?.line, 'number');
  }
  // a lone CR is white space, not a statement
  assert.deepEqual(assemble('\r', 'a.s'), { ops: [], data: [] });
});

test('.space / .data beyond the 56-bit address space err at their line (not later, without one)', () => {
  const a = rejects(() => assemble('set\n.space 0xffffffffffffff 16', 'a.s'), /beyond the 56-bit/);
  assert.deepEqual([a.location?.line, a.location?.col], [2, 8]);
  const b = rejects(() => assemble('.data 0xfffffffffffffe u32 1', 'a.s'), /beyond the 56-bit/);
  assert.equal(b.location?.line, 1);
  // the last byte of the space is fine
  assert.equal(assemble('.data 0xffffffffffffff u8 7').data[0]!.addr, (1n << 56n) - 1n);
});

test('float data: a long digit run without a match is rejected promptly; signed hex is signed', () => {
  // the old pattern backtracked quadratically on this (a 100 KB line took 20-45 s)
  rejects(() => assemble(`.data 0x1000 f32 ${'1'.repeat(100_000)}x`), /is not a number/);
  const p = assemble('.data 0x1000 f64 -0x10, +0x2, 0x3, 1.5e1, .25');
  assert.deepEqual(Array.from(new Float64Array(p.data[0]!.bytes.buffer)), [-16, 2, 3, 15, 0.25]);
});

test('deeply nested operand expressions are BadInput at their line, not a host stack overflow', () => {
  // fuzz campaign 2026-11-26, amx-text seed 2 input 10987: `.data (((…` 16 000 deep overflowed the stack
  for (const [src, col] of [
    [`set\n.data ${'('.repeat(20_000)}1${')'.repeat(20_000)} u8 1`, 263],
    [`set\n.set X = ${'-'.repeat(50_000)}1`, 266],
    [`set\n.set X = ${'(uint64_t)'.repeat(20_000)}1`, 2570], // 10 + 256 casts of 10 characters
  ] as const) {
    const e = rejects(() => assemble(src, 'a.s'), /expression nests more than 256 levels deep/);
    assert.deepEqual([e.location?.file, e.location?.line, e.location?.col], ['a.s', 2, col]);
  }
  // 256 levels are fine: ((…(7)…)) = 7, and -(-(…)) an even number of times
  const deep = assemble(`.set X = ${'('.repeat(255)}7${')'.repeat(255)}\n.data X u8 1`);
  assert.equal(deep.data[0]!.addr, 7n);
  assert.equal(assemble(`.set X = ${'-'.repeat(254)}9\n.data X u8 1`).data[0]!.addr, 9n);
});

test('memory reads at addresses with bits >= 56 are refused, not masked onto another address', () => {
  const s = new AmxState();
  s.mem.writeBytes(0x1000n, new Uint8Array([1, 2, 3]));
  assert.deepEqual(Array.from(s.mem.readBytes(0x1000n, 3)), [1, 2, 3]);
  rejects(() => s.mem.readBytes((1n << 56n) | 0x1000n, 3), /beyond the 56-bit address space/);
  rejects(() => s.mem.readBytes((1n << 56n) - 2n, 3), /beyond the 56-bit address space/);
});

const root = fileURLToPath(new URL('../..', import.meta.url));
test('amx run --dump/--save at a masked-looking address or a huge length exit 2 with BadInput', () => {
  const prog = join(mkdtempSync(join(tmpdir(), 'axsim-amx-')), 'p.s');
  writeFileSync(prog, '.data 0x1000 u8 1, 2, 3\nset\nclr\n');
  const base = ['--import', 'tsx', 'src/cli/main.ts', 'amx', 'run', prog];
  for (const extra of [
    ['--dump', 'mem:0x100000000001000:3'],
    ['--dump', 'mem:0x30000:99999999999'],
    ['--save', 'mem:0x100000000001000:3=/dev/null'],
  ]) {
    const r = spawnSync(process.execPath, [...base, ...extra], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 2, `${extra.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /BadInput/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('a 100 KB operand without `=` is one linear scan (was quadratic: 20 s), then BadInput', () => {
  rejects(() => assemble(`fma32 mode=vector ${'0x1,'.repeat(25_000)}`, 'a.s'), /expected field=value/);
});

test('5000 nested AMX_LDX( on one line is split by hand, not by a backtracking pattern (was 10 s)', () => {
  rejects(() => assemble(`${'AMX_LDX('.repeat(5000)}${')'.repeat(5000)}`, 'a.s'), /./);
  // the macro form itself still reads as before
  assert.equal(assemble('AMX_LDX ( 0x1000 ) ;').ops[0]!.operand, 0x1000n);
});
