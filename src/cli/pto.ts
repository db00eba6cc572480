import { join } from 'node:path';
import type { Command } from 'commander';
import type { Budget } from '../budget.ts';
import { badInput } from '../errors.ts';
import { encodeNpy, type NpyArray, type NpyDtype, readNpy } from '../io/index.ts';
import {
  detectTargetArch,
  diagnosticError,
  formatTraceEvent,
  moduleProfile,
  type Profile,
  parsePtoAs,
  printModule,
  runProgram,
  verifyDiagnostics,
  verifyModule,
} from '../pto/asm/index.ts';
import { notRunnable } from '../pto/asm/runnable.ts';
import { checkSync, type Race } from '../pto/asm/sync.ts';
import {
  COST_MODELS,
  type CostArch,
  type CostModelName,
  costCaseRunner,
  costFunction,
  costProgram,
  formatProgramCost,
} from '../pto/cost/index.ts';
import { makePtoRunner, PROFILES, registerCostRunner, type Tile, tileToNpy } from '../pto/index.ts';
import { action, addBudgetOptions, addConformanceCommand, budgetOf, printJson } from './common.ts';
import { prepareOutputDir, readInputText, writeOutputFile } from './files.ts';

/** The `axsim pto …` command group. */
export function registerPto(program: Command): Command {
  const group = program.command('pto').description('Ascend PTO tile ISA: check, run, cost, conformance');
  addPtoCheckCommand(group);
  addPtoCostCommand(group);
  addPtoRunCommand(group);
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
    .option('--legacy', 'also accept forms of older PTOAS samples (comma-less strides, bare <loc=…> types)')
    .option('--print', 'print the canonical form of the program')
    .option(
      '--sync',
      'check pipe synchronisation: races between pipes (manual mode) or the set/wait pairs to insert (no sync ops: auto mode)',
    )
    .action(
      action(
        (
          prog: string,
          opts: { profile?: string; strict?: boolean; legacy?: boolean; print?: boolean; sync?: boolean },
        ) => {
          const text = readProgramText(prog);
          const m = parsePtoAs(text, { file: prog, strict: opts.strict, legacy: opts.legacy });
          // `pto.target_arch` in the module selects the profile unless --profile overrides it
          const profile = parseProfile(opts.profile, true) ?? moduleProfile(m);
          const arch = detectTargetArch(text);
          const diags = verifyDiagnostics(m, { file: prog, profile, ...(arch ? { arch } : {}) });
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
          if (opts.sync) {
            const rep = checkSync(m);
            const at = (p: { line: number; col: number }) => `${prog}:${p.line}:${p.col}`;
            if (rep.mode === 'auto') {
              process.stdout.write(
                `sync (auto mode: the program has no sync ops): ${rep.inserted.length} set/wait pair(s) to insert\n`,
              );
              for (const i of rep.inserted)
                process.stdout.write(
                  `  pto.set_flag[<PIPE_${i.src}>, <PIPE_${i.dst}>, <EVENT_IDn>] after ${at(i.after)}; pto.wait_flag[…] before ${at(i.before)}\n`,
                );
            } else if (rep.races.length) {
              for (const r of rep.races.slice(1))
                process.stderr.write(`axsim: ${at(r.second.pos)}: ${raceMessage(r, prog)}\n`);
              const r = rep.races[0]!;
              throw badInput(raceMessage(r, prog), {
                location: { file: prog, line: r.second.pos.line, col: r.second.pos.col },
                hint: `add pto.set_flag[<PIPE_${r.first.pipe}>, <PIPE_${r.second.pipe}>, <EVENT_IDn>] after line ${r.first.pos.line} and the matching pto.wait_flag before line ${r.second.pos.line}`,
              });
            } else process.stdout.write('sync (manual mode): no race between pipes\n');
          }
          // verified, but `axsim pto run` would refuse these: say so now
          for (const n of notRunnable(m)) {
            process.stdout.write(
              `note: ${prog}:${n.pos.line}:${n.pos.col}: ${n.op} verifies but axsim cannot run it: ${n.reason}\n`,
            );
          }
        },
      ),
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
    .option('--profile <profile>', "a2a3 | a5 (default: the module's pto.target_arch, else a2a3)")
    .option('--func <name>', 'function to cost (default: the first)')
    .option('--scalar <name=value...>', 'values of scalar function arguments')
    .option('--json', 'print the per-instruction breakdown as JSON')
    .option('--legacy', 'also accept forms of older PTOAS samples')
    .action(
      action(
        (
          prog: string,
          opts: {
            model: string;
            profile?: string;
            func?: string;
            scalar?: string[];
            json?: boolean;
            legacy?: boolean;
          },
        ) => {
          if (!(COST_MODELS as readonly string[]).includes(opts.model)) {
            throw badInput(`unknown cost model '${opts.model}'`, {
              hint: `one of ${COST_MODELS.join(', ')}`,
            });
          }
          const m = parsePtoAs(readProgramText(prog), { file: prog, legacy: opts.legacy });
          const arch = (parseProfile(opts.profile, false) ?? moduleProfile(m) ?? 'a2a3') as CostArch;
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

function raceMessage(r: Race, prog: string): string {
  const what = r.kind === 'RAW' ? 'reads' : 'writes';
  return `race (${r.kind}) on ${r.resource}: ${r.second.op} (PIPE_${r.second.pipe}) ${what} it while ${r.first.op} at ${prog}:${r.first.pos.line}:${r.first.pos.col} (PIPE_${r.first.pipe}) may still be running: no set_flag/wait_flag orders PIPE_${r.first.pipe} before PIPE_${r.second.pipe}`;
}

function parseProfile(p: string | undefined, allowCpu: boolean): Profile | undefined {
  if (p === undefined) return undefined;
  const ok = allowCpu ? ['cpu', 'a2a3', 'a5'] : ['a2a3', 'a5'];
  if (!ok.includes(p)) throw badInput(`unknown profile '${p}'`, { hint: `one of ${ok.join(', ')}` });
  return p as Profile;
}

function readProgramText(file: string): string {
  return readInputText(file);
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

/** `axsim pto run PROG --arg NAME=FILE.npy … [--profile …] [--out DIR]`. */
export function addPtoRunCommand(group: Command): Command {
  return addBudgetOptions(group.command('run'))
    .description('execute a PTO-AS program on the simulator with arguments bound from .npy files')
    .argument('<prog>', 'PTO-AS file')
    .option(
      '--arg <name=value...>',
      'bind an argument: NAME=FILE.npy (pointer or tile), NAME=NUMBER (scalar), NAME=zeros:RxC:DTYPE (e.g. zeros:16x64:f4)',
    )
    .option('--profile <profile>', "cpu | a2a3 | a5 (default: the module's pto.target_arch, else cpu)")
    .option('--func <name>', 'function to run (default: the first)')
    .option(
      '--out <dir>',
      'write every array the program stored to, every tile argument and every returned tile as DIR/NAME.npy',
    )
    .option(
      '--save <name=file...>',
      'write one value as .npy: a pointer argument, a tile argument, `return` / `returnN` (Level-1 results) or any tile-valued SSA name (its last value; tiles: the valid region)',
    )
    .option('--trace', 'print every tile instruction with its inputs (before) and outputs (after)')
    .option('--json', 'print the written arrays as JSON')
    .option('--legacy', 'also accept forms of older PTOAS samples')
    .action(
      action(
        (
          prog: string,
          opts: {
            [budgetOption: string]: unknown;
            arg?: string[];
            profile?: string;
            func?: string;
            out?: string;
            save?: string[];
            trace?: boolean;
            json?: boolean;
            legacy?: boolean;
          },
        ) => {
          const budget = budgetOf(opts);
          const m = parsePtoAs(readProgramText(prog), { file: prog, legacy: opts.legacy, budget });
          const profile = parseProfile(opts.profile, true) ?? moduleProfile(m) ?? 'cpu';
          verifyModule(m, { file: prog, profile });
          const args: Record<string, NpyArray | number> = {};
          const inputs = [prog];
          for (const a of opts.arg ?? []) {
            const eq = a.indexOf('=');
            if (eq <= 0)
              throw badInput(`bad --arg '${a}'`, {
                hint: 'write NAME=FILE.npy, NAME=NUMBER or NAME=zeros:RxC:DTYPE',
              });
            const name = a.slice(0, eq).replace(/^%/, '');
            args[name] = argValue(a.slice(eq + 1), budget);
            if (!/^zeros:/.test(a.slice(eq + 1))) inputs.push(a.slice(eq + 1));
          }
          const saves = (opts.save ?? []).map((s) => {
            const eq = s.indexOf('=');
            if (eq <= 0) throw badInput(`bad --save '${s}'`, { hint: 'write NAME=FILE.npy' });
            return { name: s.slice(0, eq).replace(/^%/, ''), file: s.slice(eq + 1) };
          });
          const res = runProgram(m, args, {
            func: opts.func?.replace(/^@/, ''),
            profile,
            file: prog,
            budget,
            ...(opts.trace
              ? { trace: (e) => process.stdout.write(`${formatTraceEvent(e, { file: prog })}\n`) }
              : {}),
          });
          for (const n of res.notes) process.stderr.write(`note: ${n}\n`);
          for (const t of res.printed) process.stdout.write(`${t}\n`);
          const results: Record<string, Tile> = {};
          res.results.forEach((t, i) => {
            if (t) results[`return${i}`] = t;
          });
          if (res.results.length === 1 && res.results[0]) results.return = res.results[0];
          if (opts.out) {
            prepareOutputDir(opts.out);
            for (const name of res.written)
              writeOutputFile(join(opts.out, `${name}.npy`), encodeNpy(res.arrays[name]!), inputs);
            for (const [name, t] of Object.entries({ ...res.tiles, ...results })) {
              if (name === 'return' && res.results.length === 1) continue;
              writeOutputFile(
                join(opts.out, `${name}.npy`),
                encodeNpy(tileToNpy(t, { valid: true })),
                inputs,
              );
            }
          }
          for (const { name, file } of saves) {
            const arr = res.arrays[name];
            const t = res.tiles[name] ?? results[name] ?? res.values[name];
            if (arr) writeOutputFile(file, encodeNpy(arr), inputs);
            else if (t) writeOutputFile(file, encodeNpy(tileToNpy(t, { valid: true })), inputs);
            else {
              throw badInput(`--save ${name}: no pointer argument, tile or result of that name`, {
                hint: `values: ${[...Object.keys(res.arrays), ...Object.keys(results), ...Object.keys(res.values)].join(' ')}`,
              });
            }
          }
          if (opts.json) {
            printJson({
              func: res.func,
              instructions: res.instructions,
              written: Object.fromEntries(res.written.map((n) => [n, arrayToJson(res.arrays[n]!)])),
            });
            return;
          }
          const lines = [
            `@${res.func}: ${res.instructions} tile instruction(s) executed (profile ${profile})`,
          ];
          for (const n of res.written) {
            const arr = res.arrays[n]!;
            lines.push(
              `%${n}: ${arr.shape.join('x')} ${arr.dtype}${opts.out ? ` -> ${join(opts.out, `${n}.npy`)}` : ''}`,
            );
            if (!opts.out) lines.push(previewArray(arr));
          }
          // tile arguments (DPS writes land in them) and Level-1 results
          const shown = { ...res.tiles };
          res.results.forEach((t, i) => {
            if (t) shown[`return${i}`] = t;
          });
          for (const [n, t] of Object.entries(shown)) {
            const arr = tileToNpy(t, { valid: true });
            lines.push(
              `${n.startsWith('return') ? n : `%${n}`}: ${t.describe()}${opts.out ? ` -> ${join(opts.out, `${n}.npy`)}` : ''}`,
            );
            if (!opts.out) lines.push(previewArray(arr));
          }
          process.stdout.write(`${lines.join('\n')}\n`);
        },
      ),
    );
}

const NPY_DTYPES: readonly NpyDtype[] = ['f2', 'f4', 'f8', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8'];

function argValue(v: string, budget: Budget): NpyArray | number {
  const z = /^zeros:(\d+(?:x\d+)*):(\w+)$/.exec(v);
  if (z) {
    const shape = z[1]!.split('x').map(Number);
    const dt = z[2] as NpyDtype;
    if (!NPY_DTYPES.includes(dt))
      throw badInput(`unknown .npy dtype '${dt}'`, { hint: NPY_DTYPES.join(' ') });
    const n = shape.reduce((a, b) => a * b, 1);
    const size = dt.endsWith('8') && dt !== 'i8' && dt !== 'u8' ? 8 : Number(dt.slice(1));
    const byteCount = n * (dt === 'i8' || dt === 'u8' ? 8 : size);
    budget.alloc(byteCount); // zeros:100000x100000:f4 is a ResourceLimit, not a RangeError
    const bytes = new ArrayBuffer(byteCount);
    const data =
      dt === 'f4'
        ? new Float32Array(bytes)
        : dt === 'f8'
          ? new Float64Array(bytes)
          : dt === 'f2' || dt === 'u2'
            ? new Uint16Array(bytes)
            : dt === 'i1'
              ? new Int8Array(bytes)
              : dt === 'i2'
                ? new Int16Array(bytes)
                : dt === 'i4'
                  ? new Int32Array(bytes)
                  : dt === 'i8'
                    ? new BigInt64Array(bytes)
                    : dt === 'u4'
                      ? new Uint32Array(bytes)
                      : dt === 'u8'
                        ? new BigUint64Array(bytes)
                        : new Uint8Array(bytes);
    return { dtype: dt, shape, data } as NpyArray;
  }
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) || /^[-+]?(inf|infinity|nan)$/i.test(v)) {
    return Number(v.replace(/^([-+]?)inf(inity)?$/i, '$1Infinity'));
  }
  return readNpy(v);
}

function arrayToJson(a: NpyArray): unknown {
  const flat = Array.from(a.data as ArrayLike<number | bigint>, (x) =>
    typeof x === 'bigint' ? x.toString() : x,
  );
  return { dtype: a.dtype, shape: a.shape, data: flat };
}

function previewArray(a: NpyArray): string {
  const cols = a.shape.length >= 2 ? a.shape[a.shape.length - 1]! : (a.shape[0] ?? 0);
  const rows = a.shape.length >= 2 ? a.shape.slice(0, -1).reduce((x, y) => x * y, 1) : 1;
  const d = a.data as ArrayLike<number | bigint>;
  const out: string[] = [];
  for (let r = 0; r < Math.min(rows, 8); r++) {
    const cells: string[] = [];
    for (let c = 0; c < Math.min(cols, 8); c++) cells.push(String(d[r * cols + c]));
    out.push(`  [${cells.join(', ')}${cols > 8 ? ', …' : ''}]`);
  }
  if (rows > 8) out.push('  …');
  return out.join('\n');
}
