import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { badInput } from '../errors.ts';
import {
  diagnosticError,
  type Profile,
  parsePtoAs,
  printModule,
  verifyDiagnostics,
  verifyModule,
} from '../pto/asm/index.ts';
import {
  COST_MODELS,
  type CostArch,
  type CostModelName,
  costCaseRunner,
  costFunction,
  costProgram,
  formatProgramCost,
} from '../pto/cost/index.ts';
import { makePtoRunner, PROFILES, registerCostRunner } from '../pto/index.ts';
import { action, addConformanceCommand, printJson } from './common.ts';

/** The `axsim pto …` command group. */
export function registerPto(program: Command): Command {
  const group = program.command('pto').description('Ascend PTO tile ISA: check, run, cost, conformance');
  addPtoCheckCommand(group);
  addPtoCostCommand(group);
  addPtoConformanceCommand(group);
  return group;
}

// ---- PTO-AS commands (part 2: src/pto/asm, src/pto/cost) ------------------------------------

/** `axsim pto check PROG`: parse and verify, print every diagnostic. */
export function addPtoCheckCommand(group: Command): Command {
  return group
    .command('check')
    .description('parse and verify a PTO-AS program (errors with line:col and a fix)')
    .argument('<prog>', 'PTO-AS file (.pto / .mlir)')
    .option('--profile <profile>', 'apply this profile’s support table: cpu | a2a3 | a5')
    .option('--strict', 'accept only what the PTOAS parser accepts (no short type spellings)')
    .option('--print', 'print the canonical form of the program')
    .action(
      action((prog: string, opts: { profile?: string; strict?: boolean; print?: boolean }) => {
        const profile = parseProfile(opts.profile, true);
        const text = readProgramText(prog);
        const m = parsePtoAs(text, { file: prog, strict: opts.strict });
        const diags = verifyDiagnostics(m, { file: prog, profile });
        if (diags.length > 0) {
          for (const d of diags.slice(1))
            process.stderr.write(`axsim: ${diagnosticError(d, prog).format()}\n`);
          throw diagnosticError(diags[0]!, prog);
        }
        if (opts.print) process.stdout.write(printModule(m));
        else {
          const ops = m.funcs.reduce((n, f) => n + f.body.length, 0);
          process.stdout.write(`${prog}: ok (${m.funcs.length} function(s), ${ops} top-level op(s))\n`);
        }
      }),
    );
}

/** `axsim pto cost PROG --model seed|pto-isa|formula --profile a2a3|a5 [--json]`. */
export function addPtoCostCommand(group: Command): Command {
  // pto-cost.jsonl.gz records in `axsim pto conformance` go to the cost models
  registerCostRunner(costCaseRunner);
  return group
    .command('cost')
    .description('estimate the cycles of a PTO-AS program, per instruction and in total')
    .argument('<prog>', 'PTO-AS file')
    .option('--model <model>', 'seed | pto-isa | formula', 'seed')
    .option('--profile <profile>', 'a2a3 | a5', 'a2a3')
    .option('--func <name>', 'function to cost (default: the first)')
    .option('--scalar <name=value...>', 'values of scalar function arguments')
    .option('--json', 'print the per-instruction breakdown as JSON')
    .action(
      action(
        (
          prog: string,
          opts: { model: string; profile: string; func?: string; scalar?: string[]; json?: boolean },
        ) => {
          if (!(COST_MODELS as readonly string[]).includes(opts.model)) {
            throw badInput(`unknown cost model '${opts.model}'`, {
              hint: `one of ${COST_MODELS.join(', ')}`,
            });
          }
          const arch = parseProfile(opts.profile, false) as CostArch;
          const m = parsePtoAs(readProgramText(prog), { file: prog });
          verifyModule(m, { file: prog });
          const model = opts.model as CostModelName;
          const res = costProgram(m, model, arch, costFunction(model, arch), {
            func: opts.func?.replace(/^@/, ''),
            file: prog,
            scalars: parseScalars(opts.scalar),
          });
          if (opts.json) printJson(res);
          else process.stdout.write(`${formatProgramCost(res)}\n`);
        },
      ),
    );
}

function parseProfile(p: string | undefined, allowCpu: boolean): Profile | undefined {
  if (p === undefined) return undefined;
  const ok = allowCpu ? ['cpu', 'a2a3', 'a5'] : ['a2a3', 'a5'];
  if (!ok.includes(p)) throw badInput(`unknown profile '${p}'`, { hint: `one of ${ok.join(', ')}` });
  return p as Profile;
}

function readProgramText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw badInput(`cannot read ${file}: ${(e as Error).message}`, { location: { file } });
  }
}

function parseScalars(list: string[] | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of list ?? []) {
    const m = /^%?([\w$.-]+)=(.+)$/.exec(s);
    if (!m || Number.isNaN(Number(m[2])))
      throw badInput(`bad --scalar '${s}'`, { hint: 'write NAME=NUMBER, e.g. --scalar arg1=2.5' });
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

// ---- part 1 (src/pto): reference vectors -------------------------------------------------

/** `axsim pto conformance FILE…`: pto.jsonl.gz-format vectors on the chosen profile (default cpu). */
export function addPtoConformanceCommand(group: Command): Command {
  return addConformanceCommand(
    group,
    'PTO',
    (opts) => {
      const profile = String(opts.profile ?? 'cpu') as Profile;
      if (!PROFILES.includes(profile))
        throw badInput(`unknown profile '${profile}'`, { hint: 'cpu, a2a3 or a5' });
      return makePtoRunner({ profile });
    },
    (c) =>
      c.option('--profile <profile>', 'target profile: cpu (the reference simulator) | a2a3 | a5', 'cpu'),
  );
}
