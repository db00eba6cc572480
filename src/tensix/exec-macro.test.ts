/**
 * The functional mode refuses an SFPLOADMACRO whose Sequence schedules instructions (their result
 * depends on timing) and tells the user where to go instead: the timed mode, through the CLI
 * (`axsim tensix run --timeline` / `--hazards`) or the API (`runTimedProgram`). The hint's advice is
 * then followed and must work.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { assemble } from './asm/index.ts';
import { runTimedProgram, TensixMachine } from './index.ts';

// Sequence[0]: Simple = template 0 (SFPABS float of the loaded register, delay 0)
const SRC = `
TTI_SFPABS(0, 0, 12, 1);
TTI_SFPLOADI(0, 10, 4);
TTI_SFPLOADI(0, 8, 0);
TTI_SFPCONFIG(0, 4, 0);
TTI_SFPLOADMACRO(0, 3, 0, 0);
TTI_SFPNOP;
`;

test('functional run of a scheduling SFPLOADMACRO: Unsupported, pointing to the timed mode', () => {
  const words = assemble(SRC, 'wormhole').words;
  const m = new TensixMachine('wormhole');
  m.configure({ sfpuFp32: true });
  m.writeDstRows(0, new Array(16).fill(0xc0000000), 'fp32');
  let err: AxsimError | undefined;
  try {
    m.run(words);
  } catch (e) {
    if (e instanceof AxsimError) err = e;
    else throw e;
  }
  assert.ok(err, 'expected an AxsimError');
  assert.equal(err.category, 'Unsupported');
  assert.equal(err.location?.index, 4);
  assert.match(err.message, /SFPLOADMACRO macro 0 schedules instructions/);
  const text = err.format();
  for (const s of ['timed mode', 'axsim tensix run', '--timeline', '--hazards', 'runTimedProgram']) {
    assert.ok(text.includes(s), `the error should mention ${s}: ${text}`);
  }
  // following the hint: the timed mode runs it (SFPABS of -2.0 in LReg[0])
  const t = new TensixMachine('wormhole');
  t.configure({ sfpuFp32: true });
  t.writeDstRows(0, new Array(16).fill(0xc0000000), 'fp32');
  const r = runTimedProgram(t, words, { hazards: 'strict' });
  assert.equal(r.scheduledExecuted, 1);
  assert.equal(t.lreg(0)[0], 0x40000000);
});
