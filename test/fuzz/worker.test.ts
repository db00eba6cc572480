import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Done, runInputs } from './worker.ts';

// A worker runs up to 10^6 inputs in one process. It must let the event loop turn between inputs:
// the library returns PTO SIMD pool blocks to their free lists from FinalizationRegistry callbacks,
// and the IPC channel writes queued outcome messages, only when it does (a pto-ptoas worker that
// never yielded grew to 1940 MB RSS over 10^6 inputs with a 15 MB live heap).
test('the fuzz worker lets the event loop turn between two inputs', async () => {
  // first load the front end's modules (a dynamic import waits for I/O, which turns the loop anyway)
  await runInputs('npy', 1, 0, 1, () => {});
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  const seen: { i: number; turned: boolean }[] = [];
  const done: Done[] = [];
  await runInputs(
    'npy',
    1,
    0,
    3,
    (d) => done.push(d),
    (i) => {
      seen.push({ i, turned });
      return true;
    },
  );
  assert.deepEqual(
    done.map((d) => d.done),
    [0, 1, 2],
  );
  // the first input starts in the same task; by the second, a macrotask queued before has run
  assert.deepEqual(seen, [
    { i: 0, turned: false },
    { i: 1, turned: true },
    { i: 2, turned: true },
  ]);
});

test('runInputs stops when before() says so, after the inputs it ran', async () => {
  const done: number[] = [];
  await runInputs(
    'npy',
    1,
    5,
    100,
    (d) => done.push(d.done),
    (i) => i < 7,
  );
  assert.deepEqual(done, [5, 6]);
});
