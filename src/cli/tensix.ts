import { dirname } from 'node:path';
import type { Command } from 'commander';
import type { Budget, BudgetLimits, LimitName } from '../budget.ts';
import { AxsimError, badInput } from '../errors.ts';
import { encodeNpy, type NpyArray, readNpy } from '../io/index.ts';
import { bf16ToF32Bits, f32BitsToBf16 } from '../numeric/index.ts';
import { assemble, compileKernel, describeWord, describeWordAs } from '../tensix/asm/index.ts';
import { type Arch, byOpcode, parseArch } from '../tensix/encoding.ts';
import {
  type DstFormat,
  type DstView,
  decodeDstView,
  dstViewBase,
  makeSfpuRunner,
  parseDstFormat,
  parseDstView,
  TensixMachine,
} from '../tensix/index.ts';
import { applyHwConfigure, runCompiled } from '../tensix/llk/run.ts';
import { compileSfpi } from '../tensix/sfpi/compile.ts';
import { listingGroups, listingText } from '../tensix/sfpi/listing.ts';
import { formatSourceOf, type SourceMap, sourceMapOf, withSource } from '../tensix/source-map.ts';
import {
  type Hazard,
  parseHazardMode,
  runTimedProgram,
  summaryText,
  type TimedResult,
  timedJson,
  timelineText,
} from '../tensix/timing/index.ts';
import { ambiguityWarning, recordedArch, resolveArch, wordsHeader } from '../tensix/wordfile.ts';
import { action, addBudgetOptions, addConformanceCommand, budgetOf, printJson } from './common.ts';
import { readInputFile, writeOutputFile } from './files.ts';
import { collect, compileLlkFromCli, type LlkCliOptions } from './tensix-llk.ts';

/** The `axsim tensix …` command group. */
export function registerTensix(program: Command): Command {
  const group = program
    .command('tensix')
    .description('Tenstorrent Tensix Vector Unit (SFPU): assemble, disassemble, run, conformance');
  addAsmCommand(group);
  addDisasmCommand(group);
  addRunCommand(group);
  addCompileCommand(group);
  addConformanceCommand(group, 'Tensix SFPU', () => makeSfpuRunner());
  return group;
}

// ---- tensix asm / tensix disasm (docs/tensix-asm.md) ----

/**
 * The resource limits of the commands that assemble or compile kernel source and run words
 * (docs/reliability.md): the C++ evaluation (nesting, macro expansion, loops, statements, memory,
 * wall clock) and the compiled program (REPLAY expansion to `loops`, its records to `liveBytes`, its
 * length to `steps`). Loops default to the assembler's 2^20.
 */
const TENSIX_LIMITS: readonly LimitName[] = ['depth', 'exprSize', 'loops', 'steps', 'liveBytes', 'wallMs'];
const TENSIX_DEFAULTS: Partial<BudgetLimits> = { loops: 1 << 20 };
const tensixBudget = (opts: object): Budget => budgetOf(opts as Record<string, unknown>, TENSIX_DEFAULTS);

const hex32 = (w: number) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

function readInput(file: string): Buffer {
  return readInputFile(file);
}

/** `-D NAME=VALUE` options, collected. */
function collectDefine(v: string, prev: Record<string, bigint>): Record<string, bigint> {
  const m = /^([A-Za-z_][\w:]*)(?:=(.*))?$/.exec(v);
  if (!m) throw badInput(`--define ${v}: expected NAME=VALUE`);
  let value: bigint;
  try {
    value = m[2] === undefined ? 1n : BigInt(m[2].trim());
  } catch {
    throw badInput(`--define ${v}: the value must be an integer (decimal, 0x…, 0b… or 0o…)`);
  }
  return { ...prev, [m[1]!]: value };
}

function collectList(v: string, prev: string[]): string[] {
  return [...prev, v];
}

function addAsmCommand(group: Command): void {
  addBudgetOptions(group.command('asm'), TENSIX_LIMITS, TENSIX_DEFAULTS)
    .description(
      'assemble SFPU kernel source (tt-llk TTI_/TT_/TT_OP_ macro calls, canonical NAME field=value lines, .word) into instruction words',
    )
    .argument('<file>', "source file ('-' for standard input)")
    .option('--arch <arch>', 'wormhole (wh) or blackhole (bh)', 'wormhole')
    .option('--json', 'print {arch, words, lines, warnings} as JSON')
    .option('--hex', 'print only the words, one 0x… per line')
    .option('-o, --output <file>', 'also write the words as a little-endian binary file')
    .option(
      '-D, --define <name=value>',
      'define a constant (repeatable), e.g. -D INSTRUCTION_MODE=4',
      collectDefine,
      {},
    )
    .option(
      '--entry <call>',
      "run only this kernel function: a name, or a C++ call such as '_calculate_x_<false, 8>(0)' (the others run when it calls them)",
    )
    .option(
      '-I, --include <dir>',
      'search DIR for #include in C++ kernel files (repeatable)',
      collectList,
      [],
    )
    .action(
      action(
        (
          file: string,
          opts: {
            arch: string;
            json?: boolean;
            hex?: boolean;
            output?: string;
            define: Record<string, bigint>;
            entry?: string;
            include: string[];
          },
        ) => {
          const arch = parseArch(opts.arch);
          const budget = tensixBudget(opts);
          const src = readInput(file).toString('utf8');
          // Kernel header files (tt-llk .h) compile as C++ kernels: -D are preprocessor
          // definitions; .sfpu sources keep the assembler form (-D are named values).
          const r = /\.(h|hh|hpp|hxx)$/i.test(file)
            ? compileKernel(src, {
                arch,
                file,
                defines: opts.define,
                entry: opts.entry,
                includeDirs: opts.include,
                budget,
              })
            : assemble(src, arch, {
                file: file === '-' ? '<stdin>' : file,
                defines: opts.define,
                entry: opts.entry,
                budget,
              });
          if (opts.output) {
            const buf = Buffer.alloc(r.words.length * 4);
            r.words.forEach((w, k) => {
              buf.writeUInt32LE(w, k * 4);
            });
            writeOutputFile(opts.output, buf, [file]);
          }
          const name = file === '-' ? '<stdin>' : file;
          if (opts.json) {
            const sources = sourceMapOf(r, name);
            printJson({
              arch,
              words: [...r.words].map(hex32),
              lines: r.lines,
              sources: sources.map((x) => x ?? null),
              text: [...r.words].map((w) => describeWord(w, arch).text),
              warnings: r.warnings.map((w) => w.format()),
            });
            return;
          }
          for (const w of r.warnings) process.stderr.write(`axsim: warning: ${w.format()}\n`);
          const out = [...r.words].map((w, k) =>
            opts.hex ? hex32(w) : `${hex32(w)}  // line ${r.lines[k]}: ${describeWord(w, arch).text}`,
          );
          // The first line records the arch the words were assembled for (src/tensix/wordfile.ts).
          process.stdout.write(`${wordsHeader(arch)}\n${out.length ? `${out.join('\n')}\n` : ''}`);
        },
      ),
    );
}

// ---- tensix compile (docs/sfpi.md): an SFPI / C++ kernel's instructions under its source lines ----

function addCompileCommand(group: Command): void {
  group
    .command('compile')
    .description(
      "compile a C++ kernel (SFPI or TTI_ calls) in the LLK environment and print its instructions under the source lines they came from (Compiler Explorer's view)",
    )
    .argument('<file>', 'kernel source (.h / .cc / .cpp)')
    .requiredOption(
      '--entry <call>',
      "the function to compile: a name or a C++ call, e.g. 'calculate_relu<false, 8>'",
    )
    .option('--arch <arch>', 'wormhole (wh) or blackhole (bh)', 'wormhole')
    .option('--json', 'print {arch, entry, words, groups: [{file, line, source, insns}], warnings} as JSON')
    .option('-D, --define <name=value>', 'a preprocessor definition (repeatable)', collect, [])
    .option('-I, --include <dir>', 'search DIR for #include (repeatable)', collect, [])
    .action(
      action(
        (
          file: string,
          opts: { arch: string; entry: string; json?: boolean; define: string[]; include: string[] },
        ) => {
          const arch = parseArch(opts.arch);
          const src = readInput(file).toString('utf8');
          const defines: Record<string, string> = {};
          for (const d of opts.define) {
            const k = d.indexOf('=');
            defines[k < 0 ? d : d.slice(0, k)] = k < 0 ? '1' : d.slice(k + 1);
          }
          const dir = dirname(file);
          const r = compileSfpi(src, arch, {
            file,
            entry: opts.entry,
            defines,
            includeDirs: [dir, dirname(dir), ...opts.include],
          });
          const groups = listingGroups(r, arch, { [file]: src });
          if (opts.json) {
            printJson({
              arch,
              entry: opts.entry,
              words: [...r.words].map(hex32),
              groups: groups.map((g) => ({
                ...g,
                insns: g.insns.map((i) => ({ word: hex32(i.word), text: i.text })),
              })),
              warnings: r.warnings.map((w) => w.format()),
            });
            return;
          }
          for (const w of r.warnings) process.stderr.write(`axsim: warning: ${w.format()}\n`);
          process.stdout.write(`${listingText(groups)}\n`);
        },
      ),
    );
}

/**
 * Words from text (`0x…` tokens, or bare 8-digit hex, separated by spaces, commas or newlines;
 * `//`, `#` and `;` start comments), or undefined when the text is not of that shape.
 */
export function parseWordList(text: string, lines?: number[]): number[] | undefined {
  const words: number[] = [];
  let n = 0;
  for (const line of text.split(/\r?\n/)) {
    n++;
    const body = line.replace(/(\/\/|#|;).*$/, '');
    for (const tok of body.split(/[\s,]+/)) {
      if (tok === '') continue;
      const m = /^0[xX]([0-9a-fA-F]{1,8})$/.exec(tok) ?? /^([0-9a-fA-F]{8})$/.exec(tok);
      if (!m) return undefined;
      words.push(Number.parseInt(m[1]!, 16));
      lines?.push(n);
    }
  }
  return words.length > 0 ? words : undefined;
}

/** Words read from a file, with the arch and source locations it records (if any). */
interface WordFile {
  words: number[];
  arch?: Arch;
  sources?: SourceMap;
}

/** The `tensix asm --json` form: {arch, words: ["0x…"], sources?: [{file, line, col}|null]}. */
function parseAsmJson(text: string, file: string): WordFile | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  let j: { arch?: unknown; words?: unknown; sources?: unknown };
  try {
    j = JSON.parse(text) as typeof j;
  } catch {
    return undefined;
  }
  if (!Array.isArray(j.words)) return undefined;
  const words = j.words.map((w, i) => {
    const v = typeof w === 'string' ? Number(w) : w;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff)
      throw badInput(`word ${i} (${JSON.stringify(w)}) is not a 32-bit word`, { location: { file } });
    return v;
  });
  const arch = typeof j.arch === 'string' ? parseArch(j.arch) : undefined;
  const sources = Array.isArray(j.sources)
    ? (j.sources as unknown[]).map((x) => {
        const o = x as { file?: unknown; line?: unknown; col?: unknown } | null;
        return o && typeof o.line === 'number'
          ? {
              line: o.line,
              ...(typeof o.file === 'string' ? { file: o.file } : {}),
              ...(typeof o.col === 'number' ? { col: o.col } : {}),
            }
          : undefined;
      })
    : undefined;
  return { words, arch, sources };
}

function readWords(file: string, mode: 'auto' | 'text' | 'binary'): WordFile {
  const buf = readInput(file);
  if (mode !== 'binary') {
    const isText = !buf.includes(0);
    const text = isText ? buf.toString('utf8') : '';
    const json = isText ? parseAsmJson(text, file) : undefined;
    if (json) return json;
    const lines: number[] = [];
    const words = isText ? parseWordList(text, lines) : undefined;
    if (words) return { words, arch: recordedArch(text), sources: lines.map((line) => ({ file, line })) };
    if (mode === 'text') {
      throw badInput('expected hex words (0x… separated by spaces, commas or newlines)', {
        location: { file },
      });
    }
  }
  if (buf.length % 4 !== 0) {
    throw badInput(`binary input is ${buf.length} bytes, not a whole number of 32-bit words`, {
      location: { file },
      hint: 'text input must be 0x… words; binary input is little-endian 32-bit words',
    });
  }
  const words: number[] = [];
  for (let k = 0; k < buf.length; k += 4) words.push(buf.readUInt32LE(k));
  return { words };
}

/** The arch for words from `what`: recorded, explicit or the default, warning when that is ambiguous. */
function archForWords(wf: WordFile, explicit: string | undefined, what: string): Arch {
  const { arch, defaulted } = resolveArch(wf.arch, explicit, what);
  if (defaulted) {
    const w = ambiguityWarning(wf.words, what);
    if (w) process.stderr.write(`axsim: warning: ${w}\n`);
  }
  return arch;
}

function addDisasmCommand(group: Command): void {
  group
    .command('disasm')
    .description('disassemble instruction words into canonical text that `tensix asm` reads back')
    .argument('[file]', "hex words as text, or a little-endian binary file ('-' for standard input)")
    .option('--words <list>', 'the words on the command line, e.g. 0x84067560,0x8f000000')
    .option(
      '--arch <arch>',
      'wormhole (wh) or blackhole (bh); default: the arch the file records (asm --hex/--json), else wormhole',
    )
    .option('--binary', 'read FILE as little-endian binary even if it looks like text')
    .option('--text', 'read FILE as hex text only')
    .option('--json', 'print [{index, word, text, note?}] as JSON')
    .option('--no-comments', 'print only the instruction text, without the // index, word and notes')
    .option('--macro', 'print tt-llk macro calls (TTI_NAME(args…);) instead of canonical text')
    .action(
      action(
        (
          file: string | undefined,
          opts: {
            words?: string;
            arch?: string;
            binary?: boolean;
            text?: boolean;
            json?: boolean;
            comments: boolean;
            macro?: boolean;
          },
        ) => {
          if ((file === undefined) === (opts.words === undefined)) {
            throw badInput('give either a FILE or --words 0x…,0x…');
          }
          let wf: WordFile;
          if (opts.words !== undefined) {
            const w = parseWordList(opts.words);
            if (!w) throw badInput(`--words ${opts.words}: expected 0x… words separated by commas`);
            wf = { words: w };
          } else {
            wf = readWords(file!, opts.binary ? 'binary' : opts.text ? 'text' : 'auto');
          }
          const words = wf.words;
          const arch = archForWords(wf, opts.arch, file ?? '--words');
          const lines = words.map((w) => describeWordAs(w, arch, opts.macro ? 'macro' : 'canonical'));
          if (opts.json) {
            printJson(lines.map((l, index) => ({ index, word: hex32(words[index]!), ...l })));
            return;
          }
          // a loop, not Math.max(...lines): spreading ≥ 120k arguments overflows the stack
          let width = 0;
          for (const l of lines) if (l.text.length > width) width = l.text.length;
          const out = lines.map((l, k) =>
            opts.comments
              ? `${l.text.padEnd(width)}  // [${k}] ${hex32(words[k]!)}${l.note ? `: ${l.note}` : ''}`
              : l.text,
          );
          process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
        },
      ),
    );
}

// ---- tensix run (docs/tensix.md "CLI") ----

/** Reads a PROGRAM file: hex words (text or binary) when it looks like that, else assembly text. */
function readProgram(
  file: string,
  explicitArch: string | undefined,
  budget: Budget,
): WordFile & { arch: Arch } {
  const buf = readInput(file);
  if (!buf.includes(0)) {
    const text = buf.toString('utf8');
    const json = parseAsmJson(text, file);
    const lines: number[] = [];
    const words = json ? undefined : parseWordList(text, lines);
    if (json || words) {
      const wf: WordFile = json ?? {
        words: words!,
        arch: recordedArch(text),
        sources: lines.map((line) => ({ file, line })),
      };
      return { ...wf, arch: archForWords(wf, explicitArch, file) };
    }
    const arch = explicitArch !== undefined ? parseArch(explicitArch) : 'wormhole';
    const r = assemble(text, arch, { file, budget });
    return { words: [...r.words], arch, sources: sourceMapOf(r, file) };
  }
  const wf = readWords(file, 'binary');
  return { ...wf, arch: archForWords(wf, explicitArch, file) };
}

const DEFAULT_FORMAT: Partial<Record<NpyArray['dtype'], DstFormat>> = {
  f4: 'fp32',
  f2: 'fp16',
  i4: 'int32',
  u4: 'raw32',
  u2: 'raw16',
};

/** The .npy elements as raw bit patterns of the Dst format (bf16 from float32 rounds to nearest even). */
function npyToBits(a: NpyArray, fmt: DstFormat): Uint32Array {
  const n = a.data.length;
  const out = new Uint32Array(n);
  const d = a.data;
  const as32 = () => new Uint32Array(d.buffer, d.byteOffset, n);
  if (
    (fmt === 'fp32' || fmt === 'int32' || fmt === 'raw32') &&
    (a.dtype === 'f4' || a.dtype === 'i4' || a.dtype === 'u4')
  ) {
    out.set(as32());
  } else if (
    (fmt === 'fp16' || fmt === 'raw16' || fmt === 'bf16') &&
    (a.dtype === 'f2' || a.dtype === 'u2')
  ) {
    out.set(d as Uint16Array);
  } else if (fmt === 'bf16' && a.dtype === 'f4') {
    const b = as32();
    for (let i = 0; i < n; i++) out[i] = f32BitsToBf16(b[i]!, 'rne');
  } else {
    throw badInput(`a ${a.dtype} array cannot be loaded as Dst format ${fmt}`, {
      hint: 'fp32: f4/i4/u4; int32/raw32: i4/u4/f4; fp16/raw16: f2/u2; bf16: f4 (rounded) or u2 (bits)',
    });
  }
  return out;
}

function bitsToNpy(bits: Uint32Array, fmt: DstFormat, shape: number[], like: NpyArray): NpyArray {
  const n = bits.length;
  switch (fmt) {
    case 'fp32':
      return { dtype: 'f4', shape, data: new Float32Array(bits.buffer.slice(0, n * 4)) };
    case 'int32':
      return { dtype: 'i4', shape, data: new Int32Array(bits.buffer.slice(0, n * 4)) };
    case 'raw32':
      return { dtype: 'u4', shape, data: bits.slice() };
    case 'bf16': {
      if (like.dtype === 'u2') return { dtype: 'u2', shape, data: Uint16Array.from(bits) };
      const w = new Uint32Array(n);
      for (let i = 0; i < n; i++) w[i] = bf16ToF32Bits(bits[i]!);
      return { dtype: 'f4', shape, data: new Float32Array(w.buffer) };
    }
    case 'fp16':
      return { dtype: 'f2', shape, data: Uint16Array.from(bits) };
    default:
      return { dtype: 'u2', shape, data: Uint16Array.from(bits) };
  }
}

/** `--matrix-writes 0,12,@40`: word indices, or `@LINE` = before the first word from source line LINE. */
function parseMatrixWrites(list: string | undefined, sources: SourceMap | undefined): number[] {
  return (list ?? '')
    .split(',')
    .filter((x) => x.trim() !== '')
    .map((x) => {
      const t = x.trim();
      if (t.startsWith('@')) {
        const line = Number(t.slice(1));
        const at = Number.isInteger(line) ? (sources ?? []).findIndex((s) => s?.line === line) : -1;
        if (at < 0) throw badInput(`--matrix-writes: no instruction comes from source line ${t.slice(1)}`);
        return at;
      }
      const v = Number(t);
      if (!Number.isInteger(v) || v < 0)
        throw badInput(`--matrix-writes: '${x}' is not an instruction index or @LINE`);
      return v;
    });
}

/** One line per hazard: `file:line:col: hazard id (cycle c): message`. */
function hazardLine(h: Hazard, sources: SourceMap | undefined): string {
  return `${formatSourceOf(sources, h.index)}: hazard ${h.id} (cycle ${h.cycle}): ${h.message}`;
}

function addRunCommand(group: Command): void {
  addBudgetOptions(group.command('run'), TENSIX_LIMITS, TENSIX_DEFAULTS)
    .description(
      'run an SFPU program on Dst data from a .npy file and write Dst back (sequential, bit-exact; the documented timing rules are checked on the cycle model and reported as warnings)',
    )
    .argument(
      '<program>',
      'assembly source, or instruction words (asm --hex text, asm --json, or little-endian binary)',
    )
    .option(
      '--arch <arch>',
      'wormhole (wh) or blackhole (bh); default: the arch a word file records, else wormhole',
    )
    .option(
      '--dst <file>',
      'input .npy: (T,32,32) or (32,32) = tiles from tile 0; otherwise rows of 16 from row 0',
    )
    .option(
      '--dst-format <fmt>',
      'Dst element format: fp32, int32, fp16, bf16, raw16, raw32 (default from dtype)',
    )
    .option('--out <file>', 'write the same region of Dst, after the run, to this .npy')
    .option(
      '--out-format <view>',
      'read Dst back as: fp32, fp16a (fp16), fp16b (bf16), int32, int32sm, uint32, uint16, int16, int8, raw16, raw32 (default: the input format)',
    )
    .option('--fp32-dest', 'set ALU_ACC_CTRL_SFPU_Fp32_enabled (default: on for 32-bit formats)')
    .option('--json', 'print the summary as JSON')
    .option(
      '--timeline [format]',
      'timed mode (docs/tensix-timing.md): print the pipeline as text (default) or json',
    )
    .option(
      '--hazards <mode>',
      'timed mode hazard checks: warn (default), strict (first one is an error), off',
    )
    .option(
      '--matrix-writes <list>',
      'timed mode: Matrix Unit writes to Dst issued just before these instruction indices (or @LINE: the first instruction of that source line), e.g. 0,12,@40',
    )
    .option('--no-timing-check', 'sequential mode: do not check the timing rules on the cycle model')
    .option(
      '--entry <call>',
      "C++ kernel file: the function to run, e.g. '_calculate_x_<false, 8>' (docs/tensix-llk.md)",
    )
    .option('--init <call>', 'C++ kernel file: an init call made before the kernel (repeatable)', collect, [])
    .option('-D, --define <name[=value]>', 'C++ kernel file: a preprocessor macro (repeatable)', collect, [])
    .option('-I, --include <dir>', 'C++ kernel file: an include directory (repeatable)', collect, [])
    .option('--seed <n>', 'LLK set-up: seed the PRNG (init_prng_seed) before the kernel')
    .option('--bare', 'no LLK set-up: run only the --init calls and the --entry call')
    .option('--api <kind>', 'LLK set-up: unary (default), binary or ternary SFPU API')
    .option(
      '--sfpu-type <name>',
      'LLK set-up: the SfpuType of the API init (ADDR_MOD_6); default from the file name',
    )
    .option('--vector-mode <mode>', 'LLK set-up: face loop rc (default), r, c, or none (one call)')
    .option('--dst-tile <n>', 'LLK set-up: the Dst tile the API selects (default 0)')
    .option(
      '--l1 <addr=file>',
      "C++ kernel file: map the file's bytes at this address for the RISC-V code (an L1 buffer; repeatable)",
      collect,
      [],
    )
    .option(
      '--data-format <name>',
      'LLK set-up: the data format _llk_math_hw_configure_ is given (Float32, UInt16, Int32, ...)',
    )
    .action(
      action(
        async (
          file: string,
          opts: {
            arch?: string;
            dst?: string;
            dstFormat?: string;
            out?: string;
            outFormat?: string;
            fp32Dest?: boolean;
            json?: boolean;
            timeline?: string | boolean;
            hazards?: string;
            matrixWrites?: string;
            timingCheck: boolean;
          } & LlkCliOptions,
        ) => {
          // A C++ kernel file with --entry compiles with the LLK environment (docs/tensix-llk.md);
          // anything else is assembly or words.
          const budget = tensixBudget(opts);
          const llkArch = opts.entry === undefined ? undefined : parseArch(opts.arch ?? 'wormhole');
          const llk = llkArch ? await compileLlkFromCli(file, llkArch, opts, budget) : undefined;
          const prog = llk
            ? {
                arch: llkArch!,
                words: Array.from(llk.compiled.words),
                sources: sourceMapOf({ sources: llk.compiled.sources }, file),
              }
            : readProgram(file, opts.arch, budget);
          const { arch, words, sources } = prog;
          // RISC-V config-register writes between words (init_prng_seed): run in chunks around them
          const chunked = (llk?.compiled.events?.length ?? 0) > 0;
          const m = new TensixMachine(arch);
          m.budget = budget;
          m.state.useLaneFlags = 0;
          let region:
            | { fmt: DstFormat; tiles: boolean; shape: number[]; count: number; like: NpyArray }
            | undefined;
          const outView: DstView | undefined = opts.outFormat ? parseDstView(opts.outFormat) : undefined;
          if (outView && !opts.out) throw badInput('--out-format needs --out');
          if (opts.dst) {
            const a = readNpy(opts.dst);
            const fmt = opts.dstFormat ? parseDstFormat(opts.dstFormat) : DEFAULT_FORMAT[a.dtype];
            if (!fmt) throw badInput(`no default Dst format for dtype ${a.dtype}; pass --dst-format`);
            const bits = npyToBits(a, fmt);
            const tiles = a.shape.length >= 2 && a.shape.at(-1) === 32 && a.shape.at(-2) === 32;
            if (tiles) {
              for (let t = 0; t < bits.length / 1024; t++)
                m.writeDstTile(t, bits.subarray(t * 1024, (t + 1) * 1024), fmt);
            } else {
              if (bits.length % 16 !== 0)
                throw badInput(`${bits.length} elements is not a whole number of 16-wide Dst rows`);
              m.writeDstRows(0, bits, fmt);
            }
            const wide = fmt === 'fp32' || fmt === 'int32' || fmt === 'raw32';
            m.configure({ sfpuFp32: opts.fp32Dest ?? wide, srcBFormat: fmt === 'fp16' ? 1 : 5 });
            region = { fmt, tiles, shape: a.shape, count: bits.length, like: a };
          } else if (opts.fp32Dest) {
            m.configure({ sfpuFp32: true });
          }
          if (llk && !opts.bare)
            applyHwConfigure(m, {
              fp32Dest: opts.dst ? m.state.sfpuFp32 === 1 : true,
              srcA: opts.dataFormat,
            });
          const before = m.snapshot();
          const timeline = opts.timeline === true ? 'text' : opts.timeline;
          if (timeline !== undefined && timeline !== 'text' && timeline !== 'json')
            throw badInput(`--timeline ${timeline}: use text or json`);
          let timed: TimedResult | undefined;
          // SFPLOADMACRO's scheduled instructions exist only on the cycle model, so a program that
          // uses it runs there even without --timeline (hazards reported, as with --hazards warn).
          const usesLoadMacro = Array.from(words).some(
            (w) => byOpcode(w >>> 24, arch)?.name === 'SFPLOADMACRO',
          );
          /** Sequential mode: the cycle model's hazards and whether its Dst differs (issue 11). */
          let check: { hazards: Hazard[]; count: number; dstCellsDiffer: number; error?: string } | undefined;
          /** The sequential run (in chunks around RISC-V config writes for an LLK kernel). */
          const runSequential = () => {
            if (chunked) runCompiled(m, llk!.compiled, { timed: false });
            else m.run(words);
          };
          /** A warn-mode cycle-model run's hazards (chunked runs report theirs per chunk). */
          const runCheck = (): { hazards: Hazard[]; count: number } => {
            if (chunked) {
              const r = runCompiled(m, llk!.compiled, { timed: true, hazards: 'warn' });
              return { hazards: r.hazards, count: r.hazards.length };
            }
            const t = runTimedProgram(m, words, { hazards: 'warn', sources });
            return { hazards: t.hazards, count: t.hazardCount };
          };
          try {
            if (timeline || opts.hazards || opts.matrixWrites || usesLoadMacro) {
              const hazards = parseHazardMode(opts.hazards ?? 'warn');
              if (chunked) {
                if (timeline || opts.matrixWrites)
                  throw badInput(
                    '--timeline and --matrix-writes need one timed run; this kernel writes config registers from the RISC-V side between its words',
                  );
                const r = runCompiled(m, llk!.compiled, { timed: true, hazards });
                check = { hazards: r.hazards, count: r.hazards.length, dstCellsDiffer: 0 };
              } else {
                const matrixDstWrites = parseMatrixWrites(opts.matrixWrites, sources);
                timed = runTimedProgram(m, words, {
                  hazards,
                  timeline: timeline !== undefined,
                  matrixDstWrites,
                  sources,
                });
              }
            } else {
              if (opts.timingCheck) {
                try {
                  const t = runCheck();
                  const timedDst = m.state.dst.slice();
                  m.restore(before);
                  runSequential();
                  let differ = 0;
                  for (let i = 0; i < timedDst.length; i++) if (timedDst[i] !== m.state.dst[i]) differ++;
                  check = { hazards: t.hazards, count: t.count, dstCellsDiffer: differ };
                } catch (e) {
                  // the sequential run decides what is an error; the check only adds warnings
                  m.restore(before);
                  runSequential();
                  check = {
                    hazards: [],
                    count: 0,
                    dstCellsDiffer: 0,
                    error: e instanceof Error ? e.message : String(e),
                  };
                }
              } else runSequential();
            }
          } catch (e) {
            // words without a source map (a binary file) still name the file
            const located = withSource(e, sources);
            throw located instanceof AxsimError && located.location?.file === undefined
              ? located.at({ file })
              : located;
          }
          if (llk) {
            for (const w of llk.compiled.warnings) process.stderr.write(`${w.format()}\n`);
            process.stderr.write(`${llk.note}\n`);
          }
          const after = m.snapshot();
          const lregChanged: number[] = [];
          for (let r = 0; r < 8; r++) {
            let lanes = 0;
            for (let l = 0; l < 32; l++) if (before.lreg[r * 32 + l] !== after.lreg[r * 32 + l]) lanes++;
            if (lanes) lregChanged.push(r);
          }
          let dstCells = 0;
          for (let i = 0; i < after.dst.length; i++) if (before.dst[i] !== after.dst[i]) dstCells++;
          if (region) {
            if (opts.out)
              writeOutputFile(opts.out, encodeNpy(regionToNpy(m, region, outView)), [
                file,
                ...(opts.dst ? [opts.dst] : []),
              ]);
          } else if (opts.out) {
            throw badInput('--out needs --dst (it writes back the region --dst loaded)');
          }
          const warnings: string[] = [];
          if (check) {
            for (const h of check.hazards.slice(0, 20)) warnings.push(hazardLine(h, sources));
            if (check.count > 20) warnings.push(`… ${check.count - 20} more hazards`);
            if (check.dstCellsDiffer > 0)
              warnings.push(
                `with the documented timing (the cycle model) ${check.dstCellsDiffer} Dst 16-bit cells end up different from this sequential result; see the hazards above (--timeline text shows the pipeline)`,
              );
            if (check.error) warnings.push(`the timing rules could not be checked: ${check.error}`);
          }
          const summary = {
            arch,
            instructions: words.length,
            lregChanged: lregChanged.map((r) => `L${r}`),
            dstRowsHalfwordsChanged: dstCells,
            laneFlags: `0x${(after.laneFlags >>> 0).toString(16)}`,
            useLaneFlags: Boolean(after.useLaneFlags),
            flagStackDepth: after.stackSize,
            rwcDst: after.rwc[0],
            rwcDstCr: after.rwc[1],
            out: opts.out ?? null,
            ...(check
              ? {
                  timingCheck: {
                    hazardCount: check.count,
                    hazards: check.hazards.map((h) => ({ ...h, at: formatSourceOf(sources, h.index) })),
                    dstCellsDiffer: check.dstCellsDiffer,
                    ...(check.error ? { error: check.error } : {}),
                  },
                }
              : {}),
          };
          for (const w of warnings) process.stderr.write(`axsim: warning: ${w}\n`);
          if (timed && (timeline === 'json' || opts.json)) {
            printJson({ ...summary, timing: timedJson(timed) });
            return;
          }
          if (opts.json) {
            printJson({
              ...summary,
              lreg: Array.from({ length: 8 }, (_, r) => [...after.lreg.subarray(r * 32, r * 32 + 32)]),
            });
            return;
          }
          process.stdout.write(
            `${arch}: ran ${words.length} instructions\n` +
              `  LRegs changed: ${summary.lregChanged.join(' ') || 'none'}\n` +
              `  Dst 16-bit cells changed: ${dstCells}\n` +
              `  flags: enable=${summary.useLaneFlags} LaneFlags=${summary.laneFlags} stack depth ${summary.flagStackDepth}\n` +
              `  RWC Dst=${summary.rwcDst} Dst_Cr=${summary.rwcDstCr}\n` +
              (opts.out ? `  wrote ${opts.out}\n` : '') +
              (check
                ? `  timing rules (cycle model): ${check.error ? 'not checked' : check.count === 0 ? 'no hazards' : `${check.count} hazard(s), see the warnings`}\n`
                : '') +
              (timed && !timeline && usesLoadMacro
                ? '  SFPLOADMACRO present: ran on the cycle model (--timeline text shows the pipeline)\n'
                : ''),
          );
          if (timed)
            process.stdout.write((timeline === 'text' ? timelineText(timed) : '') + summaryText(timed));
        },
      ),
    );
}

/** The region --dst loaded, read back in its format or in `view` (same tiles / same element count). */
function regionToNpy(
  m: TensixMachine,
  region: { fmt: DstFormat; tiles: boolean; shape: number[]; count: number; like: NpyArray },
  view: DstView | undefined,
): NpyArray {
  const fmt = view ? dstViewBase(view) : region.fmt;
  let bits: Uint32Array;
  if (region.tiles) {
    bits = new Uint32Array(region.count);
    for (let t = 0; t < region.count / 1024; t++) bits.set(m.readDstTile(t, fmt), t * 1024);
  } else {
    bits = m.readDstRows(0, region.count, fmt);
  }
  if (!view) return bitsToNpy(bits, region.fmt, region.shape, region.like);
  const { dtype, data } = decodeDstView(view, bits);
  return { dtype, shape: region.shape, data };
}
