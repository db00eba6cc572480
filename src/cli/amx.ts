import type { Command } from 'commander';
import { diffArrays, formatDiff } from '../amx/c/compare.ts';
import { type AmxCArray, runAmxC, zeroArray } from '../amx/c/run.ts';
import {
  type AmxProgram,
  AmxState,
  assemble,
  disassemble,
  makeAmxRunner,
  parseGen,
  runProgram,
} from '../amx/index.ts';
import {
  checkConfig,
  explainProgramCycles,
  FMA_TABLES,
  formatBreakdown,
  perfTableReport,
  predictGflops,
} from '../amx/perf/index.ts';
import type { Budget, LimitName } from '../budget.ts';
import { badInput } from '../errors.ts';
import { dtypeSize, encodeNpy, type NpyDtype, npyDataOf, readNpy } from '../io/index.ts';
import { action, addBudgetOptions, addConformanceCommand, budgetOf, printJson } from './common.ts';
import { readInputText, writeOutputFile } from './files.ts';

function readText(path: string): string {
  return readInputText(path);
}

function parseAddr(text: string, what: string): bigint {
  if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(text)) throw badInput(`${what}: '${text}' is not an address`);
  return BigInt(text);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function dump(s: AmxState, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  const rows = (arr: Uint8Array, n: number, prefix: string) => {
    for (let r = 0; r < n; r++) out[`${prefix}${r}`] = hex(arr.subarray(r * 64, r * 64 + 64));
  };
  if (what === 'x') rows(s.x, 8, 'x');
  else if (what === 'y') rows(s.y, 8, 'y');
  else if (what === 'z') rows(s.z, 64, 'z');
  else {
    const m = /^mem:([^:]+):([^:]+)$/.exec(what);
    if (!m) throw badInput(`--dump ${what}: use x, y, z or mem:ADDR:LEN`);
    const addr = parseAddr(m[1]!, '--dump');
    const len = Number(parseAddr(m[2]!, '--dump'));
    if (len === 0 || len > 1 << 24) throw badInput(`--dump ${what}: LEN must be 1 .. 2^24 bytes`);
    out[`mem:0x${addr.toString(16)}`] = hex(s.mem.readBytes(addr, len));
  }
  return out;
}

const SAVE_DTYPES: readonly NpyDtype[] = ['f2', 'f4', 'f8', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8'];

/**
 * `--save WHAT[:DTYPE]=FILE.npy`: x, y or z (rows of 64 bytes) or mem:ADDR:LEN[:DTYPE[:RxC...]],
 * written as an .npy array of DTYPE (default f4 for registers, u1 for memory) of shape
 * [rows, 64 / size] for registers, RxC... or [LEN / size] for memory.
 * The bytes are AMX's little-endian memory image, reinterpreted, never converted.
 */
export function saveSpec(
  s: AmxState,
  spec: string,
  inputs: readonly string[] = [],
): { file: string; dtype: NpyDtype; shape: number[] } {
  const eq = spec.lastIndexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw badInput(`--save ${spec}: use WHAT[:DTYPE]=FILE.npy`);
  const file = spec.slice(eq + 1);
  const parts = spec.slice(0, eq).split(':');
  let bytes: Uint8Array;
  let rowBytes = 0;
  let dtype: NpyDtype;
  let rest: string[];
  if (parts[0] === 'x' || parts[0] === 'y' || parts[0] === 'z') {
    const reg = parts[0] === 'x' ? s.x : parts[0] === 'y' ? s.y : s.z;
    bytes = reg.slice();
    rowBytes = 64;
    dtype = 'f4';
    rest = parts.slice(1);
  } else if (parts[0] === 'mem' && parts.length >= 3) {
    const addr = parseAddr(parts[1]!, '--save');
    const len = Number(parseAddr(parts[2]!, '--save'));
    if (len === 0 || len > 1 << 30) throw badInput(`--save ${spec}: LEN must be 1 .. 2^30 bytes`);
    bytes = s.mem.readBytes(addr, len).slice();
    dtype = 'u1';
    rest = parts.slice(3);
  } else throw badInput(`--save ${spec}: WHAT is x, y, z or mem:ADDR:LEN`);
  let dims: number[] | undefined;
  if (rowBytes === 0 && rest.length === 2) {
    if (!/^[1-9][0-9]*(x[1-9][0-9]*)*$/.test(rest[1]!))
      throw badInput(`--save ${spec}: shape '${rest[1]}' is not like 32x32`);
    dims = rest[1]!.split('x').map(Number);
    rest = rest.slice(0, 1);
  }
  if (rest.length > 1)
    throw badInput(`--save ${spec}: use WHAT[:DTYPE]=FILE.npy or mem:ADDR:LEN:DTYPE:RxC=FILE.npy`);
  if (rest.length === 1) {
    const d = rest[0] as NpyDtype;
    if (!SAVE_DTYPES.includes(d))
      throw badInput(`--save ${spec}: dtype '${rest[0]}' is not one of ${SAVE_DTYPES.join(', ')}`);
    dtype = d;
  }
  const size = dtypeSize(dtype);
  if (bytes.length % size !== 0)
    throw badInput(`--save ${spec}: ${bytes.length} bytes are not a whole number of ${dtype} elements`);
  const shape = rowBytes ? [bytes.length / rowBytes, rowBytes / size] : (dims ?? [bytes.length / size]);
  if (dims && dims.reduce((a, b) => a * b, 1) !== bytes.length / size)
    throw badInput(
      `--save ${spec}: shape ${dims.join('x')} does not hold ${bytes.length / size} ${dtype} elements`,
    );
  writeOutputFile(
    file,
    encodeNpy({ dtype, shape, data: npyDataOf(dtype, bytes.buffer as ArrayBuffer, bytes.length / size) }),
    inputs,
  );
  return { file, dtype, shape };
}

const C_SOURCE = /\.(c|h|cc|cpp)$/i;

/**
 * The resource limits of `amx run` / `amx asm` (docs/reliability.md): a C kernel's evaluation
 * (nesting, macro expansion, loops, statements, memory, wall clock); an .amx program's `.rept`
 * iterations (loops), operations (steps, and 128 bytes each of live bytes) and `.data`/`.space`/`--mem`
 * bytes (live bytes).
 */
const AMX_LIMITS: readonly LimitName[] = ['depth', 'exprSize', 'loops', 'steps', 'liveBytes', 'wallMs'];
const AMX_ASM_LIMITS: readonly LimitName[] = ['loops', 'steps', 'liveBytes', 'wallMs'];
const amxBudget = (opts: object): Budget => budgetOf(opts as Record<string, unknown>);

/** `--arg NAME=FILE.npy` or `--arg NAME=DTYPE:SHAPE` (zeros, e.g. C=f4:32x32). */
function argSpec(spec: string): [string, AmxCArray] {
  const eq = spec.indexOf('=');
  if (eq <= 0)
    throw badInput(`--arg ${spec}: use NAME=FILE.npy or NAME=DTYPE:SHAPE (zeros, e.g. C=f4:32x32)`);
  const name = spec.slice(0, eq);
  const what = spec.slice(eq + 1);
  const z = /^(f2|f4|f8|i1|i2|i4|i8|u1|u2|u4|u8):([1-9][0-9]*(?:x[1-9][0-9]*)*)$/.exec(what);
  if (z) return [name, zeroArray(z[1] as NpyDtype, z[2]!.split('x').map(Number))];
  const arr = readNpy(what);
  const d = arr.data;
  return [
    name,
    {
      dtype: arr.dtype,
      shape: arr.shape,
      bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice(),
    },
  ];
}

interface CRunOpts {
  gen: string;
  entry?: string;
  arg?: string[];
  save?: string[];
  ref?: string;
  include?: string[];
  define?: string[];
  json?: boolean;
  cycles?: boolean;
  threads: string;
}

/** `axsim amx run kernel.c --entry 'f(…)' --arg A=a.npy … [--save C=c.npy] [--ref f_ref] [--cycles]`. */
function runC(path: string, opts: CRunOpts & { mem?: string[]; dump?: string[] }): void {
  for (const o of ['mem', 'dump'] as const)
    if (opts[o] !== undefined)
      throw badInput(`--${o} applies to .amx programs; a C kernel's arrays are --arg / --save`);
  const gen = parseGen(opts.gen);
  const entry = opts.entry ?? 'main()';
  const source = readText(path);
  const args = Object.fromEntries((opts.arg ?? []).map(argSpec));
  const inputs = [path, ...(opts.arg ?? []).map((a) => a.slice(a.indexOf('=') + 1))];
  const defines: Record<string, string> = {};
  for (const d of opts.define ?? []) {
    const k = d.indexOf('=');
    defines[k < 0 ? d : d.slice(0, k)] = k < 0 ? '1' : d.slice(k + 1);
  }
  const budget = () => amxBudget(opts);
  const common = { file: path, gen, includeDirs: opts.include, defines };
  const r = runAmxC(source, { ...common, entry, args, trace: opts.cycles, budget: budget() });
  const result: Record<string, unknown> = { gen, entry, issued: r.issued };
  if (r.warnings.length > 0) result.warnings = r.warnings.map((w) => w.format());
  if (r.returned !== undefined)
    result.returned = typeof r.returned === 'bigint' ? r.returned.toString() : r.returned;
  const saved: { name: string; file: string; dtype: string; shape: number[] }[] = [];
  for (const spec of opts.save ?? []) {
    const eq = spec.indexOf('=');
    const name = eq > 0 ? spec.slice(0, eq) : '';
    const a = r.arrays[name];
    if (!a)
      throw badInput(
        `--save ${spec}: use NAME=FILE.npy with NAME one of the --arg arrays (${Object.keys(args).join(', ') || 'none'})`,
      );
    const file = spec.slice(eq + 1);
    const copy = a.bytes.slice();
    writeOutputFile(
      file,
      encodeNpy({
        dtype: a.dtype,
        shape: a.shape,
        data: npyDataOf(a.dtype, copy.buffer as ArrayBuffer, copy.length / dtypeSize(a.dtype)),
      }),
      inputs,
    );
    saved.push({ name, file, dtype: a.dtype, shape: a.shape });
  }
  if (saved.length > 0) result.saved = saved;
  if (opts.ref) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_:]*)/.exec(entry);
    if (!m || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.ref))
      throw badInput(`--ref ${opts.ref}: give the name of a function with the entry's parameters`);
    const refEntry = `${opts.ref}${entry.slice(m[0].length)}`;
    const fresh = Object.fromEntries((opts.arg ?? []).map(argSpec));
    const ref = runAmxC(source, { ...common, entry: refEntry, args: fresh, budget: budget() });
    // compare the arrays saved, or else every array the kernel or the reference changed
    const names =
      saved.length > 0
        ? saved.map((x) => x.name)
        : Object.keys(args).filter((n) => {
            const init = args[n]!.bytes;
            return (
              Buffer.compare(r.arrays[n]!.bytes, init) !== 0 ||
              Buffer.compare(ref.arrays[n]!.bytes, init) !== 0
            );
          });
    result.ref = names.map((n) =>
      diffArrays(n, r.arrays[n]!.dtype, r.arrays[n]!.bytes, ref.arrays[n]!.bytes),
    );
  }
  let breakdown: ReturnType<typeof explainProgramCycles> | undefined;
  if (opts.cycles) {
    if (!/^[0-9]+$/.test(opts.threads))
      throw badInput(`--threads must be a positive integer, got '${opts.threads}'`);
    breakdown = explainProgramCycles(r.ops, { threads: Number(opts.threads) });
    result.cycles = breakdown.cycles;
    if (opts.json) result.breakdown = breakdown;
  }
  if (opts.json) {
    printJson(result);
    return;
  }
  for (const w of r.warnings) process.stderr.write(`axsim: warning: ${w.format()}\n`);
  for (const [k, v] of Object.entries(result)) {
    if (k === 'cycles' || k === 'ref' || k === 'warnings') continue;
    process.stdout.write(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}\n`);
  }
  for (const d of (result.ref as ReturnType<typeof diffArrays>[] | undefined) ?? [])
    process.stdout.write(`ref ${opts.ref}: ${formatDiff(d)}\n`);
  if (breakdown) process.stdout.write(`${formatBreakdown(breakdown)}\n`);
}

/** The `axsim amx …` command group. */
export function registerAmx(program: Command): Command {
  const group = program
    .command('amx')
    .description('Apple AMX: assemble, disassemble, run, performance model, conformance');

  addBudgetOptions(
    group
      .command('run')
      .description(
        'run an AMX program (.amx text) or a C kernel (.c: --entry, --arg, --save, --ref; docs/amx-c.md)',
      )
      .argument('<prog>', 'program file: .amx text (docs/amx.md) or C source (docs/amx-c.md)')
      .option('--entry <call>', "C: the call to run, e.g. 'sgemm(32, 32, 64, A, B, C)' (default main())")
      .option(
        '--arg <spec...>',
        'C: bind an array: NAME=FILE.npy, or NAME=DTYPE:SHAPE for zeros (C=f4:32x32)',
      )
      .option(
        '--ref <function>',
        'C: also run this scalar reference with the same arguments and compare (max abs / ULP)',
      )
      .option('-I, --include <dir...>', 'C: include directories')
      .option('-D, --define <name=value...>', 'C: preprocessor definitions')
      .option('--gen <gen>', 'hardware generation m1|m2|m3|m4', 'm1')
      .option('--mem <spec...>', 'load FILE.npy@ADDR into memory (raw little-endian array data)')
      .option('--dump <what...>', 'x, y, z or mem:ADDR:LEN (default z)')
      .option(
        '--save <spec...>',
        'C: NAME=FILE.npy writes a bound array back. .amx: WHAT[:DTYPE]=FILE.npy: WHAT is x, y, z or mem:ADDR:LEN; DTYPE f2|f4|f8|i1..i8|u1..u8 (default f4 for registers, u1 for memory); memory may add a shape, mem:ADDR:LEN:f4:32x32',
      )
      .option('--json', 'print one JSON document')
      .option('--cycles', 'also print the performance model estimate and its per-kind breakdown')
      .option(
        '--threads <n>',
        'with --cycles: threads running the program at once (they share the units)',
        '1',
      )
      .action(
        action(
          (
            prog: string,
            opts: {
              gen: string;
              mem?: string[];
              dump?: string[];
              save?: string[];
              json?: boolean;
              cycles?: boolean;
              threads: string;
            } & CRunOpts,
          ) => {
            if (C_SOURCE.test(prog)) {
              runC(prog, opts);
              return;
            }
            for (const o of ['entry', 'arg', 'ref', 'include', 'define'] as const)
              if (opts[o] !== undefined)
                throw badInput(`--${o} applies to C kernels (.c files), not ${prog}`);
            const gen = parseGen(opts.gen);
            const budget = amxBudget(opts);
            const p = assemble(readText(prog), prog, { budget });
            const s = new AmxState({ gen });
            s.requireEnabled = true;
            for (const spec of opts.mem ?? []) {
              const at = spec.lastIndexOf('@');
              if (at < 0) throw badInput(`--mem ${spec}: use FILE.npy@ADDR`);
              const arr = readNpy(spec.slice(0, at));
              const d = arr.data;
              budget.alloc(d.byteLength, { file: spec.slice(0, at) });
              s.mem.writeBytes(
                parseAddr(spec.slice(at + 1), '--mem'),
                new Uint8Array(d.buffer, d.byteOffset, d.byteLength),
              );
            }
            runProgram(p, s);
            const result: Record<string, unknown> = { gen, ops: p.ops.length, enabled: s.enabled };
            const inputs = [prog, ...(opts.mem ?? []).map((m) => m.slice(0, m.lastIndexOf('@')))];
            const saved = (opts.save ?? []).map((spec) => saveSpec(s, spec, inputs));
            if (saved.length > 0) result.saved = saved;
            for (const w of opts.dump ?? (saved.length > 0 ? [] : ['z'])) Object.assign(result, dump(s, w));
            let breakdown: ReturnType<typeof explainProgramCycles> | undefined;
            if (opts.cycles) {
              if (!/^[0-9]+$/.test(opts.threads))
                throw badInput(`--threads must be a positive integer, got '${opts.threads}'`);
              breakdown = explainProgramCycles(p.ops, { threads: Number(opts.threads) });
              result.cycles = breakdown.cycles;
              if (opts.json) result.breakdown = breakdown;
            }
            if (opts.json) printJson(result);
            else {
              for (const [k, v] of Object.entries(result)) {
                if (k === 'cycles') continue;
                process.stdout.write(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}\n`);
              }
              if (breakdown) process.stdout.write(`${formatBreakdown(breakdown)}\n`);
            }
          },
        ),
      ),
    AMX_LIMITS,
  );

  addBudgetOptions(group.command('asm'), AMX_ASM_LIMITS)
    .description('assemble a program and print each operation as opcode, A64 word and 64-bit operand')
    .argument('<prog>', 'program file')
    .option('--json', 'print JSON')
    .action(
      action((prog: string, opts: { json?: boolean }) => {
        const p = assemble(readText(prog), prog, { budget: amxBudget(opts) });
        const rows = p.ops.map((o) => ({
          line: o.line,
          name: o.name,
          op: o.op,
          word: `0x${(0x00201000 | (o.op << 5) | (o.op === 17 ? Number(o.operand) : 0)).toString(16).padStart(8, '0')}`,
          operand: o.op === 17 ? null : `0x${o.operand.toString(16).padStart(16, '0')}`,
        }));
        if (opts.json)
          printJson({
            ops: rows,
            data: p.data.map((d) => ({ addr: `0x${d.addr.toString(16)}`, bytes: d.bytes.length })),
          });
        else {
          for (const r of rows) {
            const c = r.operand
              ? `AMX_${r.name.toUpperCase()}(${r.operand})`
              : `AMX_${r.name.toUpperCase()}()`;
            process.stdout.write(
              `${c.padEnd(36)} ; word ${r.word}${r.op === 17 ? '' : ' + gpr'}, line ${r.line}\n`,
            );
          }
        }
      }),
    );

  group
    .command('disasm')
    .description('print each operation with every field by name and its meaning')
    .argument('[prog]', 'program file (raw operands, AMX_*(...) lines or named fields)')
    .option('-e, --expr <line...>', 'disassemble these lines instead of a file, e.g. -e "fma32 0x1234"')
    .option('--brief', 'only the canonical one-line form')
    .action(
      action((prog: string | undefined, opts: { expr?: string[]; brief?: boolean }) => {
        let p: AmxProgram;
        if (opts.expr) p = assemble(opts.expr.join('\n'), '<expr>');
        else if (prog) p = assemble(readText(prog), prog);
        else throw badInput('give a program file or -e "LINE"');
        process.stdout.write(`${disassemble(p, { verbose: !opts.brief })}\n`);
      }),
    );

  group
    .command('perf')
    .description('performance model: predicted vs measured M1 Max GFLOPS tables')
    .option('--table <name>', `one of ${Object.keys(FMA_TABLES).join(', ')} (default: all)`)
    .option('--kind <name>', 'predict one configuration of this kind (same names as --table)')
    .option('--accumulators <n>', 'Z accumulators per thread (with --kind)', '1')
    .option('--threads <n>', 'threads (with --kind)', '1')
    .option('--json', 'print JSON')
    .action(
      action(
        (opts: { table?: string; kind?: string; accumulators: string; threads: string; json?: boolean }) => {
          if (opts.kind) {
            const acc = Number(opts.accumulators);
            const thr = Number(opts.threads);
            if (!Number.isInteger(acc) || acc < 1 || !Number.isInteger(thr) || thr < 1) {
              throw badInput('--accumulators and --threads must be positive integers');
            }
            const warnings = checkConfig(opts.kind, acc, thr);
            const gflops = predictGflops(opts.kind, acc, thr);
            if (opts.json) printJson({ kind: opts.kind, accumulators: acc, threads: thr, gflops, warnings });
            else {
              process.stdout.write(
                `${opts.kind}: ${acc} accumulator(s) x ${thr} thread(s): ${gflops.toFixed(1)} G(FL)OPS (M1 Max model; ${FMA_TABLES[opts.kind]?.source ?? ''})\n`,
              );
              for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
            }
            return;
          }
          const names = opts.table ? [opts.table] : Object.keys(FMA_TABLES);
          for (const n of names) {
            const rep = perfTableReport(n);
            if (opts.json) printJson(rep);
            else process.stdout.write(`${rep.text}\n`);
          }
        },
      ),
    );

  addConformanceCommand(group, 'AMX', () => makeAmxRunner());
  return group;
}
