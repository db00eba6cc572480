/**
 * runAmxC keeps a loaded program for the next run of the same source (issue 14's speed point):
 * a reused program must compute what a first run computes — globals, static locals and string
 * literals start afresh, the budget is the new run's, and a header changed on disk is read again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Budget } from '../../budget.ts';
import { AxsimError } from '../../errors.ts';
import { runAmxC, zeroArray } from './run.ts';

// (the file name has a directory: "cfg.h" is then looked for in kern/ and in the -I directory)
const SRC = `#include <stdint.h>
#include "aarch64.h"
#include "cfg.h"
static int calls = 0;
const char *name = "abc";
int bump(void) { static int n = 0; n++; return n; }
int second(const char *s) { return s[1]; }
int lit(void) { return second("xyz"); }
int k(float *out) {
  calls++;
  int b = bump();
  out[0] = (float)(calls * 100 + b * 10 + SCALE);
  out[1] = (float)name[1];
  out[2] = (float)lit();
  AMX_SET();
  AMX_LDX((uint64_t)out);
  AMX_STX((uint64_t)(out + 16));
  AMX_CLR();
  return calls;
}
`;

const f32 = (b: Uint8Array) => new Float32Array(b.buffer, b.byteOffset, b.length / 4);

test('runAmxC: a reused program starts from a fresh state and sees changed headers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsim-amx-cache-'));
  try {
    writeFileSync(join(dir, 'cfg.h'), '#define SCALE 3\n');
    const run = (budget?: Budget) =>
      runAmxC(SRC, {
        file: 'kern/k.c',
        entry: 'k(out)',
        args: { out: zeroArray('f4', [32]) },
        includeDirs: [dir],
        budget,
      });
    const expect = (r: ReturnType<typeof run>, scale: number) => {
      const out = f32(r.arrays.out!.bytes);
      // first call of everything: calls = 1, n = 1; name[1] = 'b'; "xyz"[1] = 'y'
      assert.deepEqual([...out.subarray(0, 3)], [110 + scale, 98, 121]);
      // STX wrote the 16 floats LDX loaded
      assert.deepEqual([...out.subarray(16, 32)], [...out.subarray(0, 16)]);
      assert.equal(r.returned, 1n);
      assert.equal(r.issued, 4);
    };
    const first = run();
    expect(first, 3);
    const second = run();
    assert.equal(second.reused, true);
    expect(second, 3);
    // the header changed on disk: loaded again
    writeFileSync(join(dir, 'cfg.h'), '#define SCALE 7\n');
    const third = run();
    assert.equal(third.reused, false);
    expect(third, 7);
    // the run's own budget is charged (a tiny step limit stops the reused program), and a
    // program whose run failed is not kept
    assert.equal(run().reused, true);
    assert.throws(
      () => run(new Budget({ steps: 5 })),
      (e: unknown) =>
        e instanceof AxsimError && e.category === 'ResourceLimit' && e.location?.file === 'kern/k.c',
    );
    const after = run();
    assert.equal(after.reused, false);
    expect(after, 7);
    // cache: false loads anew
    const opts = { file: 'kern/k.c', entry: 'k(out)', includeDirs: [dir], cache: false };
    assert.equal(runAmxC(SRC, { ...opts, args: { out: zeroArray('f4', [32]) } }).reused, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
