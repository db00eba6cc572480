/** Assembler forms for the replay buffer used by tt-llk kernels (lltt.h, ckernel.h load_replay_buf). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assemble } from '../asm/index.ts';

// TT_OP_REPLAY(start_idx, len, execute_while_loading, load_mode) =
// 0x04 << 24 | start_idx << 14 | len << 4 | execute_while_loading << 1 | load_mode
const replay = (start: number, len: number, exec: number, load: number) =>
  ((0x04 << 24) | (start << 14) | (len << 4) | (exec << 1) | load) >>> 0;

test('load_replay_buf(start, len, [..] { body }) is lltt::record then the body', () => {
  const src = `constexpr int y = 3;
load_replay_buf(0, 2, [y] { TTI_SFPNOP; TTI_SFPNOP; });
load_replay_buf<lltt::Exec>(4, 1, []
{
    TTI_SFPNOP;
});
lltt::replay(0, 2);`;
  const r = assemble(src, 'blackhole');
  assert.deepEqual(
    [...r.words],
    [replay(0, 2, 0, 1), 0x8f000000, 0x8f000000, replay(4, 1, 1, 1), 0x8f000000, replay(0, 2, 0, 0)],
  );
  assert.deepEqual(r.warnings, []);
});

test('a body whose length differs from len is a warning', () => {
  const r = assemble('load_replay_buf(0, 3, [] { TTI_SFPNOP; });', 'wormhole');
  assert.equal(r.words.length, 2);
  assert.match(r.warnings[0]!.message, /records 3 instructions but its body has 1/);
});
