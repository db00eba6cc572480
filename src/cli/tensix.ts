import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { badInput } from '../errors.ts';
import { assemble, describeWord, describeWordAs } from '../tensix/asm/index.ts';
import { type Arch, parseArch } from '../tensix/encoding.ts';
import { action, printJson } from './common.ts';

/** The `axsim tensix …` command group. */
export function registerTensix(program: Command): Command {
  const group = program
    .command('tensix')
    .description('Tenstorrent Tensix Vector Unit (SFPU): assemble, disassemble, run, conformance');
  addAsmCommand(group);
  addDisasmCommand(group);
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
          },
        ) => {
          const arch = parseArch(opts.arch);
          const src = readInput(file).toString('utf8');
          const r = assemble(src, arch, { file: file === '-' ? '<stdin>' : file, defines: opts.define });
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
