/**
 * Issue 18: the `--max-*` resource-limit flags of the Tensix and AMX commands (docs/reliability.md).
 * Each case is a small program of our own: over the limit it ends with `ResourceLimit` naming the
 * limit, the value reached and the source line; with the flag raised the same program runs.
 *
 * Limits whose default is cheap to cross (nesting depth 256, Tensix loops 2^20 via REPLAY, AMX
 * `.rept` loops 10^7) are crossed at their default. The others (steps 10^8, live bytes 1 GiB,
 * expression size 10^5 macro expansions, wall clock 600 s) would take minutes or gigabytes at their
 * default, so those cases lower the limit with the flag and show the default lets the program run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { registerAmx } from './amx.ts';
import { registerTensix } from './tensix.ts';

const dir = mkdtempSync(join(tmpdir(), 'axsim-budget-flags-'));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

type Write = typeof process.stdout.write;

/** Runs `axsim ARGS` in-process; returns the exit code it set (undefined = 0) and stderr. */
async function axsim(args: string[]): Promise<{ code: number | undefined; err: string }> {
  const p = new Command('axsim').exitOverride();
  registerTensix(p);
  registerAmx(p);
  let err = '';
  const out = process.stdout.write;
  const errw = process.stderr.write;
  process.stdout.write = ((s: string | Uint8Array, ...rest: unknown[]) =>
    typeof s === 'string'
      ? true
      : (out as (...a: unknown[]) => boolean).call(process.stdout, s, ...rest)) as Write;
  process.stderr.write = ((s: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof s !== 'string') return (errw as (...a: unknown[]) => boolean).call(process.stderr, s, ...rest);
    err += s;
    return true;
  }) as Write;
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await p.parseAsync(['node', 'axsim', ...args]);
  } finally {
    process.stdout.write = out;
    process.stderr.write = errw;
  }
  const code = process.exitCode as number | undefined;
  process.exitCode = before;
  return { code, err };
}

interface Case {
  what: string;
  /** The command line over the limit. */
  over: string[];
  /** `file:line` the error must name, and the message part: `<what> limit exceeded: V > MAX (name)`. */
  where: string;
  message: RegExp;
  flag: string;
  /** The command line that must run: the same program with the limit raised (or left at its default). */
  raised: string[];
}

const lines = (n: number, s: string) => Array.from({ length: n }, () => s).join('\n');

// ---- Tensix ----------------------------------------------------------------------------------

// 200 nested blocks: the C front end counts two levels per block (statement + compound), so the
// 257th level is reached at the 129th '{' (line 129).
const tDepth = file('depth.sfpu', `${lines(200, '{')}\nSFPNOP\n${lines(200, '}')}\n`);
// REPLAY: load 32 SFPNOPs into the buffer, then 16385 replays of 64 = 1048640 > 2^20 loop iterations;
// the limit is crossed by the last replay word (line 16418 of the word file).
const tReplay = file(
  'replay.hex',
  `${['0x04000201', ...Array<string>(32).fill('0x8f000000'), ...Array<string>(16385).fill('0x04000000')].join('\n')}\n`,
);
const tSteps = file('steps.sfpu', `${lines(200, 'SFPNOP')}\n`);
// a macro whose use expands 2^11 - 1 macros (an initializer of 2048 ones)
const tExpr = file(
  'expr.sfpu',
  `#define X0 1\n${Array.from({ length: 11 }, (_, i) => `#define X${i + 1} X${i}, X${i}`).join('\n')}\nint a[] = { X11 };\nSFPNOP\n`,
);
const tWall = file('wall.sfpu', 'int s = 0;\nfor (int i = 0; i < 200000; i++) {\n  s++;\n}\nSFPNOP\n');
const llkDepth = file(
  'deep_kernel.h',
  `inline void deep_kernel() {\n${lines(200, '{')}\nTTI_SFPNOP;\n${lines(200, '}')}\n}\n`,
);

const TENSIX: Case[] = [
  {
    what: 'tensix asm: nesting depth over the default 256',
    over: ['tensix', 'asm', tDepth],
    where: `${tDepth}:129:1`,
    message: /nesting depth limit exceeded: 257 > 256 \(depth\)/,
    flag: '--max-depth',
    raised: ['tensix', 'asm', tDepth, '--max-depth', '500'],
  },
  {
    what: 'tensix run: REPLAY expansion over the default 2^20 loop iterations',
    over: ['tensix', 'run', tReplay, '--no-timing-check'],
    where: `${tReplay}:16418`,
    message: /loop iterations limit exceeded: 1048640 > 1048576 \(loops\)/,
    flag: '--max-loops',
    raised: ['tensix', 'run', tReplay, '--no-timing-check', '--max-loops', '2000000'],
  },
  {
    what: 'tensix asm: instruction steps (statements evaluated) over --max-steps 100',
    over: ['tensix', 'asm', tSteps, '--max-steps', '100'],
    where: `${tSteps}:101:1`,
    message: /instruction steps limit exceeded: 101 > 100 \(steps\)/,
    flag: '--max-steps',
    raised: ['tensix', 'asm', tSteps],
  },
  {
    what: 'tensix run: the compiled program (56 bytes per instruction) over --max-live-bytes 10000',
    over: ['tensix', 'run', tSteps, '--max-live-bytes', '10000'],
    where: `${tSteps}:1:1`,
    message: /live bytes limit exceeded: 11200 > 10000 \(liveBytes\)/,
    flag: '--max-live-bytes',
    raised: ['tensix', 'run', tSteps, '--max-live-bytes', '11200'],
  },
  {
    what: 'tensix asm: macro expansions of one use over --max-expr-size 1000',
    over: ['tensix', 'asm', tExpr, '--max-expr-size', '1000'],
    where: `${tExpr}:13:13`,
    message: /expression size limit exceeded: 1001 > 1000 \(exprSize\)/,
    flag: '--max-expr-size',
    raised: ['tensix', 'asm', tExpr],
  },
  {
    what: 'tensix asm: a 200000-iteration loop over --max-wall-ms 1',
    over: ['tensix', 'asm', tWall, '--max-wall-ms', '1'],
    where: `${tWall}:3:3`,
    message: /wall-clock milliseconds limit exceeded: \d+ > 1 \(wallMs\)/,
    flag: '--max-wall-ms',
    raised: ['tensix', 'asm', tWall],
  },
  {
    what: 'tensix run kernel.h --entry (LLK environment): nesting depth over the default',
    over: ['tensix', 'run', llkDepth, '--entry', 'deep_kernel', '--bare', '--no-timing-check'],
    where: `${llkDepth}:129:1`,
    message: /nesting depth limit exceeded: 257 > 256 \(depth\)/,
    flag: '--max-depth',
    raised: [
      'tensix',
      'run',
      llkDepth,
      '--entry',
      'deep_kernel',
      '--bare',
      '--no-timing-check',
      '--max-depth',
      '500',
    ],
  },
];

// ---- AMX -------------------------------------------------------------------------------------

const aLoops = file('loops.amx', '.rept 10000001\n.endr\nset\nclr\n');
const aSteps = file('steps.amx', 'set\n.rept 200\nfma32 mode=vector z_row=1\n.endr\nclr\n');
const aLive = file('live.amx', 'set\n.space 0x1000 4096\nclr\n');
const cDepth = file(
  'depth.c',
  `int main(void) {\n  int s = 0;\n${lines(200, '{')}\ns++;\n${lines(200, '}')}\n  return s;\n}\n`,
);
const cLoops = file(
  'loops.c',
  'int main(void) {\n  long s = 0;\n  for (long i = 0; i < 2000; i++)\n    s += i;\n  return (int)(s & 255);\n}\n',
);
const cLive = file('live.c', 'int main(void) {\n  char buf[100000];\n  buf[0] = 1;\n  return buf[0];\n}\n');
const cExpr = file(
  'expr.c',
  `#define X0 1\n${Array.from({ length: 11 }, (_, i) => `#define X${i + 1} X${i}, X${i}`).join('\n')}\nint main(void) {\n  int a[] = { X11 };\n  return a[5];\n}\n`,
);
const cWall = file(
  'wall.c',
  'int main(void) {\n  long s = 0;\n  for (long i = 0; i < 300000; i++)\n    s += i;\n  return (int)(s & 255);\n}\n',
);

const AMX: Case[] = [
  {
    what: 'amx run .amx: .rept iterations over the default 10^7 loop iterations',
    over: ['amx', 'run', aLoops],
    where: `${aLoops}:1:1`,
    message: /loop iterations limit exceeded: 10000001 > 10000000 \(loops\)/,
    flag: '--max-loops',
    raised: ['amx', 'run', aLoops, '--max-loops', '10000001'],
  },
  {
    what: 'amx run .amx: operations over --max-steps 100',
    over: ['amx', 'run', aSteps, '--max-steps', '100'],
    where: `${aSteps}:3:1`,
    message: /instruction steps limit exceeded: 101 > 100 \(steps\)/,
    flag: '--max-steps',
    raised: ['amx', 'run', aSteps],
  },
  {
    what: 'amx asm: .space bytes over --max-live-bytes 4000',
    over: ['amx', 'asm', aLive, '--max-live-bytes', '4000'],
    where: `${aLive}:2:1`,
    message: /live bytes limit exceeded: 4224 > 4000 \(liveBytes\)/,
    flag: '--max-live-bytes',
    raised: ['amx', 'asm', aLive],
  },
  {
    what: 'amx run kernel.c: nesting depth over the default 256',
    over: ['amx', 'run', cDepth],
    where: `${cDepth}:130:1`,
    message: /nesting depth limit exceeded: 257 > 256 \(depth\)/,
    flag: '--max-depth',
    raised: ['amx', 'run', cDepth, '--max-depth', '500'],
  },
  {
    what: 'amx run kernel.c: loop iterations over --max-loops 1000',
    over: ['amx', 'run', cLoops, '--max-loops', '1000'],
    where: `${cLoops}:3:3`,
    message: /loop iterations limit exceeded: 1001 > 1000 \(loops\)/,
    flag: '--max-loops',
    raised: ['amx', 'run', cLoops],
  },
  {
    what: 'amx run kernel.c: statements over --max-steps 1000',
    over: ['amx', 'run', cLoops, '--max-steps', '1000'],
    where: `${cLoops}:4:5`,
    message: /instruction steps limit exceeded: 1001 > 1000 \(steps\)/,
    flag: '--max-steps',
    raised: ['amx', 'run', cLoops, '--max-steps', '100000'],
  },
  {
    what: 'amx run kernel.c: a 100000-byte local array over --max-live-bytes 50000',
    over: ['amx', 'run', cLive, '--max-live-bytes', '50000'],
    where: `${cLive}:2:3`,
    message: /live bytes limit exceeded: \d+ > 50000 \(liveBytes\)/,
    flag: '--max-live-bytes',
    raised: ['amx', 'run', cLive],
  },
  {
    what: 'amx run kernel.c: macro expansions of one use over --max-expr-size 1000',
    over: ['amx', 'run', cExpr, '--max-expr-size', '1000'],
    where: `${cExpr}:14:15`,
    message: /expression size limit exceeded: 1001 > 1000 \(exprSize\)/,
    flag: '--max-expr-size',
    raised: ['amx', 'run', cExpr],
  },
  {
    what: 'amx run kernel.c: a 300000-iteration loop over --max-wall-ms 1',
    over: ['amx', 'run', cWall, '--max-wall-ms', '1'],
    where: `${cWall}:4:5`,
    message: /wall-clock milliseconds limit exceeded: \d+ > 1 \(wallMs\)/,
    flag: '--max-wall-ms',
    raised: ['amx', 'run', cWall],
  },
];

for (const [group, cases] of [
  ['Tensix', TENSIX],
  ['AMX', AMX],
] as const) {
  describe(`${group} commands: --max-* flags`, () => {
    for (const c of cases) {
      it(c.what, async () => {
        const o = await axsim(c.over);
        assert.equal(o.code, 2, o.err);
        const first = o.err.split('\n')[0]!;
        assert.ok(first.startsWith(`axsim: ${c.where}`), `location ${c.where} in: ${first}`);
        assert.match(first, /ResourceLimit: /);
        assert.match(first, c.message);
        assert.match(o.err, new RegExp(`hint: raise it with ${c.flag} <n>`));
        const r = await axsim(c.raised);
        assert.equal(r.code, undefined, r.err);
      });
    }
  });
}

describe('help lists the flags and defaults of each command', () => {
  it('tensix asm / run: six limits, loops default 2^20; amx run: six; amx asm: four', async () => {
    const p = new Command('axsim');
    registerTensix(p);
    registerAmx(p);
    const help = (g: string, c: string) =>
      p.commands
        .find((x) => x.name() === g)!
        .commands.find((x) => x.name() === c)!
        .helpInformation();
    for (const c of ['asm', 'run']) {
      const h = help('tensix', c);
      assert.match(h, /--max-loops <n>\s+limit on loop iterations \(default 1048576\)/);
      for (const f of ['depth', 'expr-size', 'steps', 'live-bytes', 'wall-ms'])
        assert.match(h, new RegExp(`--max-${f} <n>`));
      assert.doesNotMatch(h, /--max-element-ops|--max-int-bits/);
    }
    const run = help('amx', 'run');
    for (const f of ['depth', 'expr-size', 'loops', 'steps', 'live-bytes', 'wall-ms'])
      assert.match(run, new RegExp(`--max-${f} <n>`));
    const asm = help('amx', 'asm');
    for (const f of ['loops', 'steps', 'live-bytes', 'wall-ms'])
      assert.match(asm, new RegExp(`--max-${f} <n>`));
    assert.doesNotMatch(asm, /--max-depth/);
  });
});
