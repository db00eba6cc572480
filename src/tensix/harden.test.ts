/** Issue 18 regressions for the Tensix words path: REPLAY expansion is bounded by the budget. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Budget, DEFAULT_LIMITS } from '../budget.ts';
import { AxsimError } from '../errors.ts';
import { compile } from './program.ts';

// REPLAY (opcode 0x04): load_mode bit 0, len bits 13:4 (0 means 64), start_idx bits 23:14
const REPLAY_LOAD_32 = (0x04 << 24) | (32 << 4) | 1;
const REPLAY_ALL = 0x04 << 24; // start 0, len 0 -> 64 instructions from the buffer
const SFPNOP = 0x8f000000;

function program(replays: number): number[] {
  return [REPLAY_LOAD_32, ...Array(32).fill(SFPNOP), ...Array(replays).fill(REPLAY_ALL)];
}

function limit(fn: () => unknown): AxsimError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof AxsimError, String(e));
    return e;
  }
  assert.fail('expected a ResourceLimit');
}

test('REPLAY expansion is charged to the loop budget and refused at the REPLAY that crosses it', () => {
  // 15 REPLAYs of 64 = 960 fit in 1000; the 16th (source word 33 + 15) makes 1024
  const e = limit(() => compile(program(16), 'wormhole', { budget: new Budget({ loops: 1000 }) }));
  assert.equal(e.category, 'ResourceLimit');
  assert.match(e.message, /loop iterations limit exceeded: 1024 > 1000/);
  assert.equal(e.location?.index, 33 + 15);
  const p = compile(program(15), 'wormhole', { budget: new Budget({ loops: 1000 }) });
  assert.equal(p.length, 15 * 64);
});

test('a program that REPLAYs itself past the default limits is refused, not an out-of-memory kill', () => {
  const replays = Math.ceil(DEFAULT_LIMITS.loops / 64) + 1;
  const e = limit(() => compile(program(replays), 'wormhole'));
  assert.equal(e.category, 'ResourceLimit');
  assert.match(e.message, /loop iterations|live bytes/);
});

test('compiled-program memory counts against live bytes', () => {
  const e = limit(() => compile(program(100), 'wormhole', { budget: new Budget({ liveBytes: 64 * 1024 }) }));
  assert.match(e.message, /live bytes limit exceeded/);
});
