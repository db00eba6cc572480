/**
 * `axsim numeric …` end to end: spawns bin/axsim.js. Expected codes are hand-computed from the
 * format definitions (bfloat16 = top half of fp32 with RNE on bit 15; binary16 max 65504 = 0x7bff,
 * 65520 ties to even -> Inf 0x7c00; 2^-20 = 16 * 2^-24 -> 0x0010; E4M3 max 448 = 0x7e).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseNpy } from '../io/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/axsim.js');
const values = join(root, 'examples/numeric/values.npy');
const axsim = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: root });
const dir = mkdtempSync(join(tmpdir(), 'axsim-cli-numeric-'));

test('convert the bundled example to bf16 (the CI command) prints a real table', () => {
  const r = axsim('numeric', 'convert', 'examples/numeric/values.npy', '--to', 'bf16', '--round', 'rne');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const row = (bits: string) => lines.find((l) => l.includes(bits))?.split(/\s+/);
  assert.match(lines[0]!, /24 values \(f4, shape \(24,\)\) -> bf16, round rne/);
  assert.deepEqual(row('0x3f808000')?.slice(2), ['0x3f808000', '0x3f80', '1', 'rounded']); // tie -> even
  assert.deepEqual(row('0x3f818000')?.slice(2), ['0x3f818000', '0x3f82', '1.015625', 'rounded']); // tie -> even (up)
  assert.deepEqual(row('0x7f7fffff')?.slice(3), ['0x7f80', 'Infinity', 'overflow->inf']);
  assert.deepEqual(row('0x7fc00000')?.slice(3), ['0x7fc0', 'NaN', 'nan']);
  assert.deepEqual(row('0x80000000')?.slice(1), ['-0', '0x80000000', '0x8000', '-0', 'exact']);
  assert.match(r.stdout, /^summary: .*\d+ exact/m);
});

test('convert to fp16 writes an .npy NumPy reads as float16; --json lists every value', () => {
  const out = join(dir, 'h.npy');
  const r = axsim('numeric', 'convert', values, '--to', 'fp16', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /wrote .*h\.npy \(<f2, shape \(24,\)\)/);
  const a = parseNpy(readFileSync(out));
  assert.equal(a.dtype, 'f2');
  const src = new Float32Array(parseNpy(readFileSync(values)).data as Float32Array);
  const codeOf = (v: number) => a.data[src.findIndex((x) => Object.is(x, v))];
  assert.equal(codeOf(65504), 0x7bff);
  assert.equal(codeOf(65520), 0x7c00);
  assert.equal(codeOf(1 + 2 ** -11), 0x3c00);
  assert.equal(codeOf(2 ** -20), 0x0010);
  assert.equal(codeOf(448), 0x5f00);
  assert.equal(a.data[src.findIndex((x) => Number.isNaN(x))], 0x7e00);
  // Feeding the binary16 output back in (an <f2 file): exact, no 'not exact in fp32' note.
  const back = axsim('numeric', 'convert', out, '--to', 'f32');
  assert.equal(back.status, 0, back.stderr);
  assert.match(back.stdout, /24 values \(f2, shape \(24,\)\) -> f32/);
  assert.doesNotMatch(back.stdout, /not exact/);
  assert.match(back.stdout, /\b65504\s+0x477fe000\s+0x477fe000\s+65504\s+exact/);
  const jo = join(dir, 'q.json');
  const w = axsim('numeric', 'convert', values, '--to', 'e4m3', '--out', jo, '--bits');
  assert.equal(w.status, 0, w.stderr);
  const codes = JSON.parse(readFileSync(jo, 'utf8')) as number[];
  assert.equal(codes.length, 24);
  assert.equal(codes[src.indexOf(448)], 0x7e);
  assert.equal(codes[src.indexOf(464)], 0x7e); // tie to even (448)
  assert.equal(codes[src.indexOf(65504)], 0x7f); // overflow -> NaN (non-saturating)
  assert.equal(codes[src.indexOf(1)], 0x38);
  const j = axsim('numeric', 'convert', values, '--to', 'e4m3', '--saturate', '--json');
  assert.equal(j.status, 0, j.stderr);
  const doc = JSON.parse(j.stdout) as { count: number; values: { input: string; code: string }[] };
  assert.equal(doc.count, 24);
  assert.equal(doc.values.length, 24);
  assert.equal(doc.values.find((v) => v.input === '65520')?.code, '0x7e'); // saturates to 448
  assert.equal(doc.values.find((v) => v.input === 'Infinity')?.code, '0x7e');
});

test('encode / decode single values', () => {
  const e = axsim('numeric', 'encode', '1/3', '--format', 'bf16');
  assert.equal(e.status, 0, e.stderr);
  assert.match(e.stdout, /-> bf16 \(rne\): 0x3eab {2}\[0 01111101 0101011\]/);
  const d = axsim('numeric', 'decode', '0x7e', '--format', 'e4m3');
  assert.equal(d.status, 0, d.stderr);
  assert.match(d.stdout, /= 448 /);
  const s = axsim(
    'numeric',
    'encode',
    '1.5',
    '--format',
    'e5m2',
    '--round',
    'stochastic',
    '--seed',
    '7',
    '--json',
  );
  assert.equal(JSON.parse(s.stdout).code, '0x3e'); // exact: no random word can change it
});

test('signmag: saturating encode and decode (sign bit + magnitude)', () => {
  let r = axsim('numeric', 'signmag', '-5', '--width', '8');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'signmag8 0x85 = -5');
  r = axsim('numeric', 'signmag', '-200', '--width', '8');
  assert.equal(r.stdout.trim(), 'signmag8 0xff = -127 (saturated from -200)');
  r = axsim('numeric', 'signmag', '0x80000001', '--decode');
  assert.equal(r.stdout.trim(), 'signmag32 0x80000001 = -1');
  r = axsim('numeric', 'signmag', '0x7ff', '--decode', '--width', '11', '--json');
  assert.deepEqual(JSON.parse(r.stdout), { width: 11, bits: '0x7ff', value: -1023, saturated: false });
  r = axsim('numeric', 'signmag', '1.5');
  assert.equal(r.status, 2);
});

test('malformed input, unknown names: exit 2 with a clear message', () => {
  const bad = join(dir, 'bad.npy');
  writeFileSync(bad, 'not numpy at all');
  let r = axsim('numeric', 'convert', bad, '--to', 'bf16');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /BadInput: .*bad\.npy: not a NumPy \.npy file/);
  assert.doesNotMatch(r.stderr, /at .*\.ts:\d+/);
  const trunc = join(dir, 'trunc.npy');
  writeFileSync(trunc, readFileSync(values).subarray(0, 140));
  r = axsim('numeric', 'convert', trunc, '--to', 'bf16');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /truncated data: shape \(24\) of <f4 needs 96 bytes, the file has 12/);
  r = axsim('numeric', 'convert', values, '--to', 'bf61');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown format 'bf61'[\s\S]*did you mean 'bf16'/);
  r = axsim('numeric', 'convert', values, '--to', 'bf16', '--round', 'stochastic');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /needs --seed/);
  r = axsim('numeric', 'decode', '0x1ff', '--format', 'e4m3');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /does not fit in e4m3's 8 bits/);
});
