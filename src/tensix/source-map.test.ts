import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { assemble } from './asm/index.ts';
import { TensixMachine } from './index.ts';
import { formatSourceOf, locationOf, sourceMapOf, withSource } from './source-map.ts';
import { checkTimingRules, runTimedProgram, timelineText } from './timing/index.ts';

test('sourceMapOf: per-word sources win over lines; lines get the file name', () => {
  const fromLines = sourceMapOf({ lines: [3, 0, 7] }, 'k.sfpu');
  assert.deepEqual(fromLines, [{ file: 'k.sfpu', line: 3 }, undefined, { file: 'k.sfpu', line: 7 }]);
  const fromSources = sourceMapOf(
    {
      lines: [1],
      sources: [
        { file: 'a.h', line: 12, col: 5 },
        { line: 4, col: 1 },
      ],
    },
    'main.cpp',
  );
  assert.deepEqual(fromSources, [
    { file: 'a.h', line: 12, col: 5 },
    { file: 'main.cpp', line: 4, col: 1 },
  ]);
  assert.deepEqual(locationOf(fromSources, 0), { index: 0, file: 'a.h', line: 12, col: 5 });
  assert.deepEqual(locationOf(fromSources, 9), { index: 9 });
  assert.equal(formatSourceOf(fromSources, 1), 'main.cpp:4:1');
  assert.equal(formatSourceOf(fromSources, 9), '[instruction 9]');
});

test('withSource adds file:line:col to an error that names an instruction index', () => {
  const e = new AxsimError('UndefinedBehaviour', 'boom', { location: { index: 1 } });
  const w = withSource(e, [undefined, { file: 'k.sfpu', line: 2, col: 3 }]) as AxsimError;
  assert.equal(w.format(), 'k.sfpu:2:3 [instruction 1]: UndefinedBehaviour: boom');
  assert.equal(withSource(e, undefined), e);
  assert.equal(withSource('x', []), 'x');
});

// Two words from lines 2 and 3 of the source; the second (SFPPOPC on an empty stack) raises.
const SRC = '// a kernel\nTTI_SFPNOP;\n  TTI_SFPPOPC(0, 0, 0, 0);\n';

test('run-time errors of the sequential and the timed run name the source line', () => {
  const r = assemble(SRC, 'wormhole', { file: 'pop.sfpu' });
  const sources = sourceMapOf(r, 'pop.sfpu');
  const m = new TensixMachine('wormhole');
  assert.throws(
    () => m.run(r.words, 1, { sources }),
    (e: unknown) =>
      e instanceof AxsimError && /^pop\.sfpu:3:3 \[instruction 1\]: UndefinedBehaviour/.test(e.format()),
  );
  const t = new TensixMachine('wormhole');
  assert.throws(
    () => runTimedProgram(t, r.words, { hazards: 'strict', sources }),
    (e: unknown) =>
      e instanceof AxsimError &&
      e.location?.line === 3 &&
      e.location.file === 'pop.sfpu' &&
      /flag-stack-underflow/.test(e.message),
  );
  // warn: the hazard carries the location and the timeline rows name their statements
  const w = runTimedProgram(new TensixMachine('wormhole'), r.words, { timeline: true, sources });
  assert.deepEqual(w.hazards[0]?.location, { index: 1, file: 'pop.sfpu', line: 3, col: 3 });
  assert.deepEqual(
    w.timeline?.map((e) => e.loc?.line),
    [2, 3],
  );
  const text = timelineText(w);
  assert.match(text, /^t +\| Load .*\| source \(pop\.sfpu\)$/m);
  assert.match(text, /^0 .*\| 2:1$/m);
  assert.match(text, /^1 .*\| 3:3$/m);
});

test('checkTimingRules: hazards of the cycle model and the Dst cells it changes, state untouched', () => {
  // L1 = 1.0; L3 = L1 * L1 (SFPMAD); store L3 on the next cycle (Wormhole: too early)
  const src = 'TTI_SFPLOADI(1, 0, 0x3f80);\nTTI_SFPMAD(1, 1, 9, 3, 0);\nTTI_SFPSTORE(3, 3, 0, 0);\n';
  const r = assemble(src, 'wormhole', { file: 'k.sfpu' });
  const m = new TensixMachine('wormhole');
  m.configure({ sfpuFp32: true });
  const before = m.snapshot();
  const c = checkTimingRules(m, r.words, { sources: sourceMapOf(r, 'k.sfpu') });
  assert.deepEqual(
    c.hazards.map((h) => [h.id, h.location?.line]),
    [['early-read', 3]],
  );
  // the store's 32 lanes = the even columns of Dst rows 0..3: 1.0 sequentially, 0 (the old
  // LReg[3]) with the timing; only the high 16-bit halves differ (1.0's low 16 bits are 0): 32 cells
  assert.equal(c.dstCellsDiffer, 32);
  assert.deepEqual(m.snapshot().dst, before.dst);
  const ok = assemble(src.replace('TTI_SFPSTORE', 'TTI_SFPNOP;\nTTI_SFPSTORE'), 'wormhole');
  assert.deepEqual(checkTimingRules(m, ok.words), { hazards: [], hazardCount: 0, dstCellsDiffer: 0 });
});
