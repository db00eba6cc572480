/**
 * `axsim numeric …`: exact numeric-format conversions on tensors (.npy / JSON) and single values.
 * A thin shell over src/numeric and src/io; see docs/numeric.md for the semantics.
 */
import type { Command } from 'commander';
import { badInput, nearestName } from '../errors.ts';
import {
  encodeNpy,
  formatJsonTensor,
  type NpyArray,
  type NpyData,
  parseJsonTensor,
  parseNpy,
} from '../io/index.ts';
import {
  bitsToF32,
  decimalToF32Bits,
  decodeToF32Bits,
  type EncodeOptions,
  encodeFromF32Bits,
  FORMATS,
  f32ToBits,
  f64ToF32Bits,
  fp16ToF32Bits,
  intToSignMag,
  type Minifloat,
  type NanPolicy,
  ROUND_MODES,
  type RoundMode,
  signMagToInt,
  type WidenRoundMode,
} from '../numeric/index.ts';
import { action, printJson } from './common.ts';
import { fsReason, writeOutputFile } from './files.ts';

const ALIASES: Record<string, string> = {
  fp16: 'fp16',
  f16: 'fp16',
  half: 'fp16',
  binary16: 'fp16',
  fp16a: 'fp16',
  bf16: 'bf16',
  bfloat16: 'bf16',
  fp16b: 'bf16',
  tf32: 'tf32',
  e4m3: 'e4m3',
  fp8e4m3: 'e4m3',
  e4m3fn: 'e4m3',
  e5m2: 'e5m2',
  fp8e5m2: 'e5m2',
  e3m2: 'e3m2',
  e2m3: 'e2m3',
  e2m1: 'e2m1',
  fp4: 'e2m1',
  f32: 'f32',
  fp32: 'f32',
  float32: 'f32',
};

function formatByName(name: string): Minifloat {
  const key = ALIASES[name.toLowerCase()];
  if (key === undefined) {
    const near = nearestName(name, Object.keys(ALIASES));
    throw badInput(`unknown format '${name}'`, {
      hint: `${near ? `did you mean '${near}'? ` : ''}formats: ${Object.keys(FORMATS).join(', ')}`,
    });
  }
  return FORMATS[key]!;
}

function roundByName(name: string): RoundMode {
  if ((ROUND_MODES as readonly string[]).includes(name)) return name as RoundMode;
  const near = nearestName(name, ROUND_MODES);
  throw badInput(`unknown rounding mode '${name}'`, {
    hint: `${near ? `did you mean '${near}'? ` : ''}modes: ${ROUND_MODES.join(', ')}`,
  });
}

function nanByName(name: string): NanPolicy {
  if (name === 'quiet' || name === 'preserve' || name === 'canonical') return name;
  throw badInput(`unknown NaN policy '${name}'`, { hint: 'use quiet, preserve or canonical' });
}

interface ConvOpts {
  round: string;
  saturate?: boolean;
  flushIn?: boolean;
  flushOut?: boolean;
  nan?: string;
  seed?: string;
}

/** Encoding options and a random-word source from the command-line options. */
function encodeSetup(o: ConvOpts): { mode: RoundMode; opts: EncodeOptions; nextRand: () => number } {
  const mode = roundByName(o.round);
  const opts: EncodeOptions = {
    saturate: Boolean(o.saturate),
    flushIn: Boolean(o.flushIn),
    flushOut: Boolean(o.flushOut),
    nan: nanByName(o.nan ?? 'quiet'),
  };
  let state = 0;
  if (mode === 'stochastic') {
    if (o.seed === undefined) {
      throw badInput('--round stochastic needs --seed N (the random words must be reproducible)');
    }
    const s = Number(o.seed);
    if (!Number.isInteger(s) || s < 1 || s > 0xffffffff)
      throw badInput(`--seed must be an integer in 1..2^32-1`);
    state = s;
  }
  // xorshift32: a documented, reproducible stream of random words for stochastic rounding.
  const nextRand = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  return { mode, opts, nextRand };
}

const hex = (v: number, bits: number) => `0x${(v >>> 0).toString(16).padStart(Math.ceil(bits / 4), '0')}`;

/** Exact-enough text for an fp32 value: JS's shortest round-trip form of the (exact) double. */
function f32Text(b: number): string {
  if ((b & 0x7fffffff) > 0x7f800000) return b >>> 31 ? '-NaN' : 'NaN';
  const v = bitsToF32(b);
  if (Object.is(v, -0)) return '-0';
  return String(v);
}

function classify(f: Minifloat, inBits: number, code: number, outBits: number): string {
  const inNaN = (inBits & 0x7fffffff) > 0x7f800000;
  const outMag = outBits & 0x7fffffff;
  if (inNaN) return 'nan';
  if (outBits === inBits) return 'exact';
  const inMag = inBits & 0x7fffffff;
  if (outMag > 0x7f800000) return 'overflow->nan';
  if (outMag === 0x7f800000) return 'overflow->inf';
  if ((code & f.magMask) === f.maxFiniteCode && inMag > outMag)
    return inMag === 0x7f800000 ? 'inf->max' : 'overflow->max';
  if (outMag === 0) return 'underflow->0';
  return 'rounded';
}

/** Input element i as fp32 bits, rounded with `m` ('odd' when a second rounding follows). */
function inputToF32(a: NpyArray, i: number, m: WidenRoundMode): number {
  const d = a.data;
  switch (a.dtype) {
    case 'f4':
      return f32ToBits((d as Float32Array)[i]!);
    case 'f2':
      return fp16ToF32Bits((d as Uint16Array)[i]!);
    case 'i8':
    case 'u8':
      return decimalToF32Bits((d as BigInt64Array)[i]!.toString(), m);
    default:
      return f64ToF32Bits(Number((d as Float64Array)[i]!), m);
  }
}

function isExactInF32(a: NpyArray, i: number, b: number): boolean {
  // f4 inputs are fp32 already and f2 (binary16 bits) widen exactly.
  if (a.dtype === 'f4' || a.dtype === 'f2') return true;
  if ((b & 0x7fffffff) > 0x7f800000) return true; // NaN stays NaN
  const v = a.data[i]!;
  if (typeof v === 'bigint') return Number.isFinite(bitsToF32(b)) && BigInt(bitsToF32(b)) === v;
  return bitsToF32(b) === v;
}

function readTensor(path: string, bytes: Uint8Array): NpyArray {
  if (path.toLowerCase().endsWith('.json')) {
    const t = parseJsonTensor(new TextDecoder().decode(bytes), path);
    return { dtype: 'f8', shape: t.shape, data: t.values };
  }
  return parseNpy(bytes, path);
}

interface Row {
  index: number;
  input: string;
  inputBits: string;
  code: string;
  output: string;
  outputBits: string;
  status: string;
}

function printTable(rows: Row[], total: number, header: string[]) {
  const cols: (keyof Row)[] = ['index', 'input', 'inputBits', 'code', 'output', 'status'];
  const cells = rows.map((r) => cols.map((c) => String(r[c])));
  const widths = header.map((h, k) => Math.max(h.length, ...cells.map((c) => c[k]!.length)));
  const line = (c: string[]) =>
    c
      .map((s, k) => s.padEnd(widths[k]!))
      .join('  ')
      .trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
  if (total > rows.length) out.push(`... ${total - rows.length} more (use --limit or --json)`);
  process.stdout.write(`${out.join('\n')}\n`);
}

async function convertAction(
  input: string,
  o: ConvOpts & { to: string; out?: string; json?: boolean; bits?: boolean; limit: string },
) {
  const { readFileSync } = await import('node:fs');
  const f = formatByName(o.to);
  const { mode, opts, nextRand } = encodeSetup(o);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(input);
  } catch (e) {
    throw badInput(`cannot read ${input}: ${fsReason(e)}`);
  }
  const a = readTensor(input, bytes);
  const n = a.data.length;
  const limit = Number(o.limit);
  if (!Number.isInteger(limit) || limit < 0)
    throw badInput(`--limit must be a non-negative integer, got '${o.limit}'`);
  // The target f32 rounds the input directly; other targets go through fp32 rounded to odd,
  // which makes the two-step conversion exact for rne/rtz/rna (docs/numeric.md).
  const isF32 = f.name === 'f32';
  const widen: WidenRoundMode = isF32 ? (mode === 'stochastic' ? 'rne' : mode) : 'odd';
  if (isF32 && mode === 'stochastic') throw badInput('stochastic rounding into f32 is not supported');
  const codes = new Uint32Array(n);
  const outBits = new Uint32Array(n);
  const counts: Record<string, number> = {};
  let inexactInputs = 0;
  const rows: Row[] = [];
  const all: Row[] = [];
  const codeBits = f.width;
  for (let i = 0; i < n; i++) {
    const inBits = inputToF32(a, i, widen);
    if (!isExactInF32(a, i, inBits)) inexactInputs++;
    if (mode === 'stochastic') opts.rand = nextRand();
    const code = isF32 ? inBits : encodeFromF32Bits(f, inBits, mode, opts);
    const ob = decodeToF32Bits(f, code);
    codes[i] = code;
    outBits[i] = ob;
    const status = isF32 ? (isExactInF32(a, i, inBits) ? 'exact' : 'rounded') : classify(f, inBits, code, ob);
    counts[status] = (counts[status] ?? 0) + 1;
    if (i < limit || o.json) {
      const v = a.data[i]!;
      const row: Row = {
        index: i,
        input:
          a.dtype === 'f4' || a.dtype === 'f2'
            ? f32Text(inBits)
            : typeof v === 'bigint'
              ? v.toString()
              : f32TextOfNumber(v),
        inputBits: hex(inBits, 32),
        code: hex(code, codeBits),
        output: f32Text(ob),
        outputBits: hex(ob, 32),
        status,
      };
      if (i < limit) rows.push(row);
      if (o.json) all.push(row);
    }
  }
  let written: string | undefined;
  if (o.out) {
    const asJson = o.out.toLowerCase().endsWith('.json');
    const arr = asJson ? undefined : outputArray(f, a.shape, codes, outBits, Boolean(o.bits));
    // JSON output: decoded values (or codes with --bits) as a nested array.
    const content = arr
      ? encodeNpy(arr)
      : formatJsonTensor(a.shape, o.bits ? codes : new Float32Array(outBits.buffer, 0, n));
    writeOutputFile(o.out, content, [input]);
    written = arr
      ? `${o.out} (${arr.data.BYTES_PER_ELEMENT === 1 ? '|' : '<'}${arr.dtype}, shape ${shapeText(a.shape)})`
      : `${o.out} (JSON ${o.bits ? 'codes' : 'values'}, shape ${shapeText(a.shape)})`;
  }
  const summary = Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  if (o.json) {
    printJson({
      input,
      dtype: a.dtype,
      shape: a.shape,
      to: f.name,
      round: mode,
      options: { saturate: opts.saturate, flushIn: opts.flushIn, flushOut: opts.flushOut, nan: opts.nan },
      count: n,
      inexactInputs,
      summary: counts,
      out: o.out ?? null,
      values: all,
    });
    return;
  }
  process.stdout.write(
    `${input}: ${n} values (${a.dtype}, shape ${shapeText(a.shape)}) -> ${f.name}, round ${mode}` +
      `${opts.saturate ? ', saturate' : ''}${opts.flushIn ? ', flush-in' : ''}${opts.flushOut ? ', flush-out' : ''}\n`,
  );
  printTable(rows, n, ['#', 'input', 'fp32 bits', `${f.name} code`, `${f.name} value`, 'status']);
  process.stdout.write(`summary: ${summary || 'no values'}\n`);
  if (inexactInputs > 0) {
    process.stdout.write(
      `note: ${inexactInputs} input values are not exact in fp32; shown rounded (the conversion used the exact value)\n`,
    );
  }
  if (written) process.stdout.write(`wrote ${written}\n`);
}

const shapeText = (s: number[]) => (s.length === 1 ? `(${s[0]},)` : `(${s.join(', ')})`);

function f32TextOfNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (Object.is(v, -0)) return '-0';
  return String(v);
}

/** Output array: decoded values (fp16 as <f2, others as <f4), or raw codes with --bits. */
function outputArray(
  f: Minifloat,
  shape: number[],
  codes: Uint32Array,
  outBits: Uint32Array,
  bits: boolean,
): NpyArray {
  const n = codes.length;
  if (f.name === 'fp16') return { dtype: 'f2', shape, data: Uint16Array.from(codes) };
  if (!bits || f.name === 'f32') {
    return { dtype: 'f4', shape, data: new Float32Array(outBits.buffer, 0, n) };
  }
  let data: NpyData;
  if (f.width <= 8) data = Uint8Array.from(codes);
  else if (f.width <= 16) data = Uint16Array.from(codes);
  else data = f.name === 'tf32' ? codes.map((c) => (c << 13) >>> 0) : codes;
  const dtype = f.width <= 8 ? 'u1' : f.width <= 16 ? 'u2' : 'u4';
  return { dtype, shape, data };
}

function fieldsText(f: Minifloat, code: number): string {
  const bin = (code >>> 0).toString(2).padStart(f.width, '0');
  return `${bin[0]} ${bin.slice(1, 1 + f.expBits)} ${bin.slice(1 + f.expBits)}`;
}

function kindOf(f: Minifloat, code: number): string {
  const e = (code >>> f.manBits) & f.expAllOnes;
  const m = code & f.manMask;
  const mag = code & f.magMask;
  if (f.special === 'ieee' && e === f.expAllOnes)
    return m === 0 ? 'infinity' : m & f.quietBit ? 'quiet NaN' : 'signalling NaN';
  if (f.special === 'fn' && mag === f.nanCode) return 'NaN';
  if (mag === 0) return 'zero';
  if (e === 0) return 'subnormal';
  return 'normal';
}

function describe(f: Minifloat, code: number) {
  const ob = decodeToF32Bits(f, code);
  return {
    format: f.name,
    code: hex(code, f.width),
    fields: fieldsText(f, code),
    kind: kindOf(f, code),
    value: f32Text(ob),
    f32Bits: hex(ob, 32),
  };
}

function parseCode(text: string, f: Minifloat): number {
  const t = text.trim().toLowerCase();
  let v: number;
  if (/^0x[0-9a-f]+$/.test(t)) v = Number.parseInt(t.slice(2), 16);
  else if (/^0b[01]+$/.test(t)) v = Number.parseInt(t.slice(2), 2);
  else if (/^[0-9]+$/.test(t)) v = Number.parseInt(t, 10);
  else
    throw badInput(`'${text}' is not a bit pattern`, {
      hint: 'write it as hex (0x3f80), binary (0b0011...) or decimal',
    });
  if (!(v < 2 ** f.width)) throw badInput(`${text} does not fit in ${f.name}'s ${f.width} bits`);
  return v;
}

export function registerNumeric(program: Command): Command {
  const group = program
    .command('numeric')
    .description('exact numeric-format conversions (fp16, bf16, tf32, fp8, sign-magnitude)');

  const addEncodeOptions = (c: Command) =>
    c
      .option('--round <mode>', `rounding: ${ROUND_MODES.join(', ')}`, 'rne')
      .option('--saturate', 'overflow (and ±Inf) to ±max finite instead of Inf/NaN')
      .option('--flush-in', 'read fp32 subnormal inputs as signed zero')
      .option('--flush-out', 'write subnormal results as signed zero')
      .option('--nan <policy>', 'NaN inputs: quiet, preserve or canonical', 'quiet')
      .option('--seed <n>', 'seed (1..2^32-1) of the xorshift32 random words for --round stochastic');

  addEncodeOptions(
    group
      .command('convert')
      .description('convert every value of a .npy (or .json) tensor to a format; print value, bits, result')
      .argument('<input>', 'input tensor: .npy (f2/f4/f8/int dtypes) or .json (nested array)')
      .requiredOption('--to <format>', `target format: ${Object.keys(FORMATS).join(', ')}`),
  )
    .option(
      '--out <file>',
      'write the results: .npy (values: fp16 as <f2, others as <f4) or .json (nested array)',
    )
    .option('--bits', 'with --out, write the raw codes (|u1, <u2, <u4; tf32 in the fp32 container)')
    .option('--limit <n>', 'table rows to print', '64')
    .option('--json', 'print one JSON document with every value')
    .action(action(convertAction));

  addEncodeOptions(
    group
      .command('encode')
      .description('encode one value (exact decimal, or fp32 bits with --f32-bits) into a format')
      .argument('<value>', 'decimal number (exact), inf, -inf, nan — or fp32 bits with --f32-bits')
      .requiredOption('--format <format>', `format: ${Object.keys(FORMATS).join(', ')}`),
  )
    .option('--f32-bits', 'VALUE is an fp32 bit pattern (hex 0x..., binary 0b... or decimal)')
    .option('--json', 'print a JSON document')
    .action(
      action((value: string, o: ConvOpts & { format: string; f32Bits?: boolean; json?: boolean }) => {
        const f = formatByName(o.format);
        const { mode, opts, nextRand } = encodeSetup(o);
        if (mode === 'stochastic') opts.rand = nextRand();
        const isF32 = f.name === 'f32';
        if (isF32 && mode === 'stochastic') throw badInput('stochastic rounding into f32 is not supported');
        let inBits: number;
        let exactInF32: boolean;
        if (o.f32Bits) {
          inBits = parseCode(value, FORMATS.f32!);
          exactInF32 = true;
        } else {
          inBits = decimalToF32Bits(value, isF32 ? (mode as WidenRoundMode) : 'odd');
          exactInF32 = decimalToF32Bits(value, 'rtz') === decimalToF32Bits(value, 'rna');
        }
        const code = isF32 ? inBits : encodeFromF32Bits(f, inBits, mode, opts);
        const d = describe(f, code);
        const status = isF32
          ? exactInF32
            ? 'exact'
            : 'rounded'
          : classify(f, inBits, code, decodeToF32Bits(f, code));
        const doc = { input: value, round: mode, ...d, status };
        if (o.json) return printJson(doc);
        process.stdout.write(
          `${value} -> ${f.name} (${mode}${opts.saturate ? ', saturate' : ''}): ${d.code}  [${d.fields}]  ${d.kind}  = ${d.value}  (${status})\n`,
        );
      }),
    );

  group
    .command('decode')
    .description('decode one bit pattern of a format to its exact value')
    .argument('<bits>', 'code as hex (0x3f80), binary (0b...) or decimal')
    .requiredOption('--format <format>', `format: ${Object.keys(FORMATS).join(', ')}`)
    .option('--flush-in', 'decode subnormal codes as signed zero')
    .option('--json', 'print a JSON document')
    .action(
      action((bits: string, o: { format: string; flushIn?: boolean; json?: boolean }) => {
        const f = formatByName(o.format);
        const code = parseCode(bits, f);
        const d = describe(f, code);
        if (o.flushIn) {
          const fb = decodeToF32Bits(f, code, { flushIn: true });
          d.value = f32Text(fb);
          d.f32Bits = hex(fb, 32);
        }
        if (o.json) return printJson(d);
        process.stdout.write(
          `${f.name} ${d.code}  [${d.fields}]  ${d.kind}  = ${d.value}  (fp32 ${d.f32Bits})\n`,
        );
      }),
    );

  group
    .command('signmag')
    .description('sign-magnitude integers: encode an integer (saturating) or, with --decode, decode bits')
    .argument('<value>', 'integer to encode, or with --decode a bit pattern (hex 0x..., 0b..., decimal)')
    .option('--width <n>', 'field width in bits (8, 11, 16, 32 as Tensix Dst uses them; 2..32)', '32')
    .option('--decode', 'VALUE is a sign-magnitude bit pattern; print the integer')
    .option('--json', 'print a JSON document')
    .action(
      action((value: string, o: { width: string; decode?: boolean; json?: boolean }) => {
        const width = Number(o.width);
        if (!Number.isInteger(width) || width < 2 || width > 32) {
          throw badInput(`--width must be an integer in 2..32, got '${o.width}'`);
        }
        let bits: number;
        let int: number;
        if (o.decode) {
          bits = parseCode(value, { name: `signmag${width}`, width } as Minifloat);
          int = signMagToInt(bits, width);
        } else {
          if (!/^[+-]?\d+$/.test(value.trim())) throw badInput(`'${value}' is not an integer`);
          const v = Number(value);
          if (!Number.isSafeInteger(v)) throw badInput(`'${value}' is beyond 2^53; give a smaller integer`);
          bits = intToSignMag(v, width);
          int = signMagToInt(bits, width);
        }
        const doc = {
          width,
          bits: hex(bits, width),
          value: int,
          saturated: !o.decode && int !== Number(value),
        };
        if (o.json) return printJson(doc);
        process.stdout.write(
          `signmag${width} ${doc.bits} = ${int}${doc.saturated ? ` (saturated from ${value})` : ''}\n`,
        );
      }),
    );

  group
    .command('formats')
    .description('list the formats with their parameters')
    .option('--json', 'print a JSON document')
    .action(
      action((o: { json?: boolean }) => {
        const list = Object.values(FORMATS).map((f) => {
          const maxBits = decodeToF32Bits(f, f.maxFiniteCode);
          const minSub = decodeToF32Bits(f, 1);
          return {
            name: f.name,
            bits: f.width,
            expBits: f.expBits,
            manBits: f.manBits,
            bias: f.bias,
            special: f.special,
            max: f32Text(maxBits),
            minNormal: f32Text(decodeToF32Bits(f, 2 ** f.manBits)),
            minSubnormal: f32Text(minSub),
          };
        });
        if (o.json) return printJson(list);
        for (const f of list) {
          process.stdout.write(
            `${f.name.padEnd(5)} ${String(f.bits).padStart(2)} bits  E${f.expBits}M${f.manBits} bias ${String(f.bias).padEnd(3)} ${f.special.padEnd(4)}  max ${f.max}  min normal ${f.minNormal}  min subnormal ${f.minSubnormal}\n`,
          );
        }
      }),
    );
  return group;
}
