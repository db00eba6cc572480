import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AxsimError } from '../../errors.ts';
import { parseNpy } from '../../io/npy.ts';
import { type AmxCArray, runAmxC, zeroArray } from './run.ts';
import { runAmxCSteps } from './steps.ts';

// runAmxCSteps / AmxCStepper.stateAt: the registers after k instructions of a C kernel, compared
// with the registers of the live run at that instruction (runAmxC's issue hook, before op k runs)
// and, for a kernel that rewrites its buffer from C between loads, with values worked out by hand.

const root = fileURLToPath(new URL('../../../', import.meta.url));

function npy(name: string): AmxCArray {
  const a = parseNpy(readFileSync(`${root}examples/pto/${name}`), name);
  const d = a.data;
  return {
    dtype: a.dtype,
    shape: a.shape,
    bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice(),
  };
}

test('sgemm_fma32.c: stateAt(k) equals the live run’s registers before instruction k, for k across checkpoints', () => {
  const src = readFileSync(`${root}examples/amx/c/sgemm_fma32.c`, 'utf8');
  const args = () => ({ A: npy('A16x64.npy'), B: npy('B16x64.npy'), C: zeroArray('f4', [64, 64]) });
  const opts = { file: 'sgemm_fma32.c', entry: 'sgemm(64, 64, 16, A, B, C)' };
  const { result, stepper } = runAmxCSteps(src, { ...opts, args: args() });
  assert.ok(stepper);
  const n = result.ops.length;
  assert.equal(n, 4 * (16 * 8 + 64) + 2);
  const want = new Set([0, 1, 7, 255, 256, 257, 511, 512, 600, n - 1]);
  const live = new Map<number, { x: Uint8Array; y: Uint8Array; z: Uint8Array; enabled: boolean }>();
  let i = 0;
  let addr: Record<string, number> = {};
  const liveC = new Map<number, Uint8Array>();
  runAmxC(src, {
    ...opts,
    args: args(),
    onStart: (a) => {
      addr = a;
    },
    onIssue: (_op, _operand, s) => {
      if (want.has(i)) {
        live.set(i, { x: s.x.slice(), y: s.y.slice(), z: s.z.slice(), enabled: s.enabled });
        liveC.set(i, s.mem.readBytes(BigInt(addr.C!), 64 * 64 * 4));
      }
      i++;
    },
  });
  assert.equal(live.size, want.size);
  for (const [k, l] of live) {
    const s = stepper.stateAt(k);
    assert.deepEqual([s.x, s.y, s.z, s.enabled], [l.x, l.y, l.z, l.enabled], `k = ${k}`);
  }
  // the C array as the live run had it when instruction k + 1 was issued
  for (const [k, c] of liveC) assert.deepEqual(stepper.arraysAt(k).C, c, `C at ${k}`);
  assert.deepEqual(stepper.arraysAt(n).C, result.arrays.C!.bytes);
  const end = stepper.stateAt(n);
  assert.deepEqual(
    [end.x, end.y, end.z, end.enabled],
    [result.state.x, result.state.y, result.state.z, false],
  );
  assert.ok(stepper.ops.every((o) => typeof o.line === 'number' && o.line > 0));
  assert.throws(() => stepper.stateAt(n + 1), AxsimError);
});

test('a buffer rewritten by C between loads: each ldx sees the bytes of its own time', () => {
  const src = [
    '#include <stdint.h>',
    '#include "aarch64.h"',
    'void k(float *buf) {',
    '  AMX_SET();',
    '  for (int i = 0; i < 3; i++) {',
    '    for (int j = 0; j < 16; j++) buf[j] = (float)(i * 16 + j);',
    '    AMX_LDX((uint64_t)buf | ((uint64_t)i << 56));',
    '  }',
    '  AMX_CLR();',
    '}',
  ].join('\n');
  const { result, stepper } = runAmxCSteps(src, { entry: 'k(buf)', args: { buf: zeroArray('f4', [16]) } });
  assert.ok(stepper);
  assert.deepEqual(
    stepper.ops.map((o) => [o.name, o.line]),
    [
      ['set', 4],
      ['ldx', 7],
      ['ldx', 7],
      ['ldx', 7],
      ['clr', 9],
    ],
  );
  const row = (x: Uint8Array, r: number) => Array.from(new Float32Array(x.slice(r * 64, r * 64 + 64).buffer));
  const ramp = (i: number) => Array.from({ length: 16 }, (_, j) => i * 16 + j);
  const zeros = new Array(16).fill(0);
  const s2 = stepper.stateAt(2);
  assert.deepEqual([row(s2.x, 0), row(s2.x, 1), s2.enabled], [ramp(0), zeros, true]);
  const s4 = stepper.stateAt(4);
  assert.deepEqual([row(s4.x, 0), row(s4.x, 1), row(s4.x, 2)], [ramp(0), ramp(1), ramp(2)]);
  assert.equal(stepper.stateAt(5).enabled, false);
  assert.deepEqual(Array.from(new Float32Array(result.arrays.buf!.bytes.buffer)), ramp(2));
  // the buffer as each instruction found it: zeros before set, then the ramp C wrote before each ldx
  const buf = (k: number) => Array.from(new Float32Array(stepper.arraysAt(k).buf!.slice().buffer));
  assert.ok(stepper.hasArrays);
  assert.deepEqual(
    [buf(0), buf(1), buf(2), buf(3), buf(4), buf(5)],
    [zeros, ramp(0), ramp(1), ramp(2), ramp(2), ramp(2)],
  );
});

test('arrays over maxArrayWork are not kept per step; registers still step', () => {
  const { stepper } = runAmxCSteps(
    '#include "aarch64.h"\nvoid k(float *p) { AMX_SET(); p[0] = 1; AMX_CLR(); }',
    {
      entry: 'k(P)',
      args: { P: { dtype: 'f4', shape: [16], bytes: new Uint8Array(64) } },
      maxArrayWork: 10,
    },
  );
  assert.ok(stepper && !stepper.hasArrays);
  assert.throws(() => stepper.arraysAt(1), AxsimError);
  assert.equal(stepper.stateAt(1).enabled, true);
});

test('a recording over maxRecordBytes leaves stepping out and says why', () => {
  const src = '#include "aarch64.h"\nvoid k(void) { AMX_SET(); AMX_CLR(); }';
  const r = runAmxCSteps(src, { entry: 'k()', maxRecordBytes: 100 });
  assert.equal(r.stepper, undefined);
  assert.match(r.why ?? '', /more than 100 bytes/);
  assert.equal(r.result.ops.length, 2);
});

test("runAmxC: the preprocessor's warnings are in the result (#warning, a line marker not applied)", () => {
  const r = runAmxC('#warning old kernel\n# 7 "gen.c"\nint f(void) { return 3; }\n', {
    file: 'w.c',
    entry: 'f()',
    cache: false,
  });
  assert.equal(r.returned, 3n);
  assert.deepEqual(
    r.warnings.map((w) => [w.category, w.location?.file, w.location?.line]),
    [
      ['BadInput', 'w.c', 1],
      ['Unsupported', 'w.c', 2],
    ],
  );
});
