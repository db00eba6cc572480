import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { badInput } from '../errors.ts';
import { type NpyArray, readNpy, writeNpy } from '../io/index.ts';
import { bf16ToF32Bits, f32BitsToBf16 } from '../numeric/index.ts';
import { assemble, describeWord, describeWordAs } from '../tensix/asm/index.ts';
import { type Arch, byOpcode, parseArch } from '../tensix/encoding.ts';
import { type DstFormat, makeSfpuRunner, parseDstFormat, TensixMachine } from '../tensix/index.ts';
import { locateError, runCompiled } from '../tensix/llk/run.ts';
import {
  parseHazardMode,
  runTimedProgram,
  summaryText,
  type TimedResult,
  timedJson,
  timelineText,
} from '../tensix/timing/index.ts';
import { action, addConformanceCommand, printJson } from './common.ts';
import { collect, compileLlkFromCli, type LlkCliOptions, llkWhere } from './tensix-llk.ts';

/** The `axsim tensix …` command group. */
export function registerTensix(program: Command): Command {
  const group = program
    .command('tensix')
    .description('Tenstorrent Tensix Vector Unit (SFPU): assemble, disassemble, run, conformance');
  addAsmCommand(group);
  addDisasmCommand(group);
  addRunCommand(group);
  addConformanceCommand(group, 'Tensix SFPU', () => makeSfpuRunner());
  return group;
}

// ---- tensix asm / tensix disasm (docs/tensix-asm.md) ----

const hex32 = (w: number) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

function readInput(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (e) {
    throw badInput(`cannot read ${file}: ${(e as Error).message}`, { location: { file } });
  }
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

function addAsmCommand(group: Command): void {
  group
    .command('asm')
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
    .option('--entry <function>', 'assemble only this kernel function (the others run when it calls them)')
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
          },
        ) => {
          const arch = parseArch(opts.arch);
          const src = readInput(file).toString('utf8');
          const r = assemble(src, arch, {
            file: file === '-' ? '<stdin>' : file,
            defines: opts.define,
            entry: opts.entry,
          });
          if (opts.output) {
            const buf = Buffer.alloc(r.words.length * 4);
            r.words.forEach((w, k) => {
              buf.writeUInt32LE(w, k * 4);
            });
            writeFileSync(opts.output, buf);
          }
          if (opts.json) {
            printJson({
              arch,
              words: [...r.words].map(hex32),
              lines: r.lines,
              text: [...r.words].map((w) => describeWord(w, arch).text),
              warnings: r.warnings.map((w) => w.format()),
            });
            return;
          }
          for (const w of r.warnings) process.stderr.write(`axsim: warning: ${w.format()}\n`);
          const out = [...r.words].map((w, k) =>
            opts.hex ? hex32(w) : `${hex32(w)}  // line ${r.lines[k]}: ${describeWord(w, arch).text}`,
          );
          process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
        },
      ),
    );
}

/**
 * Words from text (`0x…` tokens, or bare 8-digit hex, separated by spaces, commas or newlines;
 * `//`, `#` and `;` start comments), or undefined when the text is not of that shape.
 */
export function parseWordList(text: string): number[] | undefined {
  const words: number[] = [];
  for (const line of text.split(/\r?\n/)) {
    const body = line.replace(/(\/\/|#|;).*$/, '');
    for (const tok of body.split(/[\s,]+/)) {
      if (tok === '') continue;
      const m = /^0[xX]([0-9a-fA-F]{1,8})$/.exec(tok) ?? /^([0-9a-fA-F]{8})$/.exec(tok);
      if (!m) return undefined;
      words.push(Number.parseInt(m[1]!, 16));
    }
  }
  return words.length > 0 ? words : undefined;
}

function readWords(file: string, mode: 'auto' | 'text' | 'binary'): number[] {
  const buf = readInput(file);
  if (mode !== 'binary') {
    const isText = !buf.includes(0);
    const words = isText ? parseWordList(buf.toString('utf8')) : undefined;
    if (words) return words;
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
  return words;
}

function addDisasmCommand(group: Command): void {
  group
    .command('disasm')
    .description('disassemble instruction words into canonical text that `tensix asm` reads back')
    .argument('[file]', "hex words as text, or a little-endian binary file ('-' for standard input)")
    .option('--words <list>', 'the words on the command line, e.g. 0x84067560,0x8f000000')
    .option('--arch <arch>', 'wormhole (wh) or blackhole (bh)', 'wormhole')
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
            arch: string;
            binary?: boolean;
            text?: boolean;
            json?: boolean;
            comments: boolean;
            macro?: boolean;
          },
        ) => {
          const arch: Arch = parseArch(opts.arch);
          if ((file === undefined) === (opts.words === undefined)) {
            throw badInput('give either a FILE or --words 0x…,0x…');
          }
          let words: number[];
          if (opts.words !== undefined) {
            const w = parseWordList(opts.words);
            if (!w) throw badInput(`--words ${opts.words}: expected 0x… words separated by commas`);
            words = w;
          } else {
            words = readWords(file!, opts.binary ? 'binary' : opts.text ? 'text' : 'auto');
          }
          const lines = words.map((w) => describeWordAs(w, arch, opts.macro ? 'macro' : 'canonical'));
          if (opts.json) {
            printJson(lines.map((l, index) => ({ index, word: hex32(words[index]!), ...l })));
            return;
          }
          const width = Math.max(0, ...lines.map((l) => l.text.length));
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
function readProgram(file: string, arch: Arch): number[] {
  const buf = readInput(file);
  if (!buf.includes(0)) {
    const text = buf.toString('utf8');
    const words = parseWordList(text);
    if (words) return words;
    return [...assemble(text, arch, { file }).words];
  }
  return readWords(file, 'binary');
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

function addRunCommand(group: Command): void {
  group
    .command('run')
    .description(
      'run an SFPU program on Dst data from a .npy file and write Dst back (sequential, bit-exact)',
    )
    .argument('<program>', 'assembly source, or instruction words (hex text or little-endian binary)')
    .option('--arch <arch>', 'wormhole (wh) or blackhole (bh)', 'wormhole')
    .option(
      '--dst <file>',
      'input .npy: (T,32,32) or (32,32) = tiles from tile 0; otherwise rows of 16 from row 0',
    )
    .option(
      '--dst-format <fmt>',
      'Dst element format: fp32, int32, fp16, bf16, raw16, raw32 (default from dtype)',
    )
    .option('--out <file>', 'write the same region of Dst, after the run, to this .npy')
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
      'timed mode: Matrix Unit writes to Dst issued just before these instruction indices, e.g. 0,12',
    )
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
    .action(
      action(
        async (
          file: string,
          opts: {
            arch: string;
            dst?: string;
            dstFormat?: string;
            out?: string;
            fp32Dest?: boolean;
            json?: boolean;
            timeline?: string | boolean;
            hazards?: string;
            matrixWrites?: string;
          } & LlkCliOptions,
        ) => {
          const arch = parseArch(opts.arch);
          const llk = opts.entry === undefined ? undefined : await compileLlkFromCli(file, arch, opts);
          const words = llk ? Array.from(llk.compiled.words) : readProgram(file, arch);
          const m = new TensixMachine(arch);
          m.state.useLaneFlags = 0;
          let region:
            | { fmt: DstFormat; tiles: boolean; shape: number[]; count: number; like: NpyArray }
            | undefined;
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
          const runTimedPhase = (): TimedResult => {
            const hazards = parseHazardMode(opts.hazards ?? 'warn');
            const matrixDstWrites = (opts.matrixWrites ?? '')
              .split(',')
              .filter((x) => x.trim() !== '')
              .map((x) => {
                const v = Number(x);
                if (!Number.isInteger(v) || v < 0)
                  throw badInput(`--matrix-writes: '${x}' is not an instruction index`);
                return v;
              });
            return runTimedProgram(m, words, { hazards, timeline: timeline !== undefined, matrixDstWrites });
          };
          const wantTimed = Boolean(timeline || opts.hazards || opts.matrixWrites || usesLoadMacro);
          if (llk?.compiled.events?.length) {
            // RISC-V config-register writes between words (init_prng_seed): run in chunks around them
            const r = runCompiled(m, llk.compiled, {
              timed: wantTimed,
              hazards: parseHazardMode(opts.hazards ?? 'warn'),
            });
            for (const h of r.hazards)
              process.stderr.write(`hazard ${h.id} at ${llkWhere(llk.compiled, h.index)}: ${h.message}\n`);
          } else if (llk) {
            try {
              if (wantTimed) timed = runTimedPhase();
              else m.run(words);
            } catch (e) {
              throw locateError(e, llk.compiled, 0);
            }
          } else if (wantTimed) timed = runTimedPhase();
          else m.run(words);
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
          let outBits: Uint32Array | undefined;
          if (region) {
            if (region.tiles) {
              outBits = new Uint32Array(region.count);
              for (let t = 0; t < region.count / 1024; t++)
                outBits.set(m.readDstTile(t, region.fmt), t * 1024);
            } else {
              outBits = m.readDstRows(0, region.count, region.fmt);
            }
            if (opts.out) writeNpy(opts.out, bitsToNpy(outBits, region.fmt, region.shape, region.like));
          } else if (opts.out) {
            throw badInput('--out needs --dst (it writes back the region --dst loaded)');
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
          };
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
