/**
 * The AMX program format: one operation per line, `;`, `#` or `//` comments.
 *
 *   set                                             ; opcode 17, immediate 0 (clr: immediate 1)
 *   fma32 z_row=3 x_offset=0x40 mode=matrix x_enable=first:4
 *   fma32 0x0000000000000000                        ; a raw 64-bit operand
 *   AMX_FMA32(0x0000000000000000)                   ; as corsix/amx's aarch64.h spells it
 *   .data 0x10000 f32 1.0, 2.0, -0.5                ; place values in memory (little-endian)
 *   .space 0x20000 4096                             ; map zeroed memory
 *
 * Field names and values are those of encoding.ts; unknown names and bad values are BadInput
 * errors with line:col. The disassembler prints every active field by name, so that
 * assemble(disassemble(op)) reproduces the operand exactly (ignored bits go in `ignored=`).
 */
import { type Budget, defaultBudget } from '../budget.ts';
import { AxsimError, badInput, nearestName } from '../errors.ts';
import {
  activeFields,
  decode,
  distinctFieldNames,
  encode,
  encodeRaw,
  fieldIndex,
  formatFields,
  type InsnDef,
  insnByName,
  insnFor,
  MNEMONICS,
  parseNumber,
  parseValue,
  scanFields,
} from './encoding.ts';
import { executeRaw } from './exec.ts';
import { evalExpr, looksLikeExpr, type Symbols } from './expr.ts';
import { bf16FromF32Bits, f16FromDouble, f32Bits } from './fp.ts';
import type { AmxState } from './state.ts';

export interface AmxOp {
  /** Mnemonic (set/clr included). */
  name: string;
  op: number;
  /** The 64-bit operand; for set/clr the immediate (0 / 1). */
  operand: bigint;
  line?: number;
}

export interface AmxDataBlock {
  addr: bigint;
  bytes: Uint8Array;
  line: number;
}

export interface AmxProgram {
  ops: AmxOp[];
  data: AmxDataBlock[];
}

const DATA_TYPES: Record<string, number> = {
  u8: 1,
  i8: 1,
  u16: 2,
  i16: 2,
  f16: 2,
  bf16: 2,
  u32: 4,
  i32: 4,
  f32: 4,
  u64: 8,
  i64: 8,
  f64: 8,
};

function stripComment(line: string): string {
  let cut = line.length;
  for (const mark of [';', '#', '//']) {
    const k = line.indexOf(mark);
    if (k >= 0 && k < cut) cut = k;
  }
  return line.slice(0, cut);
}

/** Nesting limit of `.rept` and the most operations one program may expand to. */
const MAX_REPT_DEPTH = 16;
const MAX_OPS = 1 << 24;
/** Heap bytes one assembled operation costs (measured: about 115), charged to the live-bytes limit. */
const OP_BYTES = 128;

export interface AmxAssembleOptions {
  /**
   * Resource limits (src/budget.ts; the defaults when absent): `.rept` iterations are charged to
   * `loops`, operations to `steps` (each runs once) and to `liveBytes` (128 bytes each), `.data` and
   * `.space` bytes to `liveBytes`; the wall clock is sampled with the steps.
   */
  budget?: Budget;
}

interface SrcLine {
  /** Text without its comment. */
  raw: string;
  line: number;
}

/**
 * Assembles program text. Besides instructions and `.data`/`.space`, the text may use
 * `.set NAME = EXPR` (or `.set NAME, EXPR`), labels (`NAME:` before a `.data`/`.space`, whose
 * address it names), `.rept COUNT[, VAR]` … `.endr` (the body COUNT times, VAR = 0 … COUNT-1) and
 * integer expressions (expr.ts) wherever a number goes.
 */
export function assemble(text: string, file?: string, opts: AmxAssembleOptions = {}): AmxProgram {
  const prog: AmxProgram = { ops: [], data: [] };
  const lines = text.includes('\n') ? text.split(/\r?\n/) : [text];
  const src: SrcLine[] = lines.map((l, i) => ({ raw: stripComment(l), line: i + 1 }));
  const ctx: AsmCtx = {
    file,
    symbols: new Map(),
    label: undefined,
    nextFree: 0x10000n,
    budget: opts.budget ?? defaultBudget(),
  };
  assembleLines(src, 0, src.length, prog, ctx, 0);
  if (ctx.label) {
    throw locErr(
      file,
      ctx.label.line,
      `label '${ctx.label.name}' names nothing`,
      ctx.label.col,
      'a label precedes a .data or .space directive',
    );
  }
  return prog;
}

interface AsmCtx {
  file: string | undefined;
  symbols: Map<string, bigint>;
  /** A label waiting for the next data directive. */
  label: { name: string; line: number; col: number } | undefined;
  /** Where `.data`/`.space` without an address go: after every block so far, 128-byte aligned. */
  nextFree: bigint;
  budget: Budget;
}

const LABEL_RE = /^([A-Za-z_][A-Za-z0-9_]*)\s*:(?!\S*=)\s*/;

function assembleLines(
  src: SrcLine[],
  from: number,
  to: number,
  prog: AmxProgram,
  ctx: AsmCtx,
  depth: number,
): void {
  const { file } = ctx;
  for (let i = from; i < to; i++) {
    const { raw, line } = src[i]!;
    let body = raw.trim();
    if (body === '') continue;
    let col0 = raw.indexOf(body) + 1;
    try {
      if (body.includes(':')) {
        const lm = LABEL_RE.exec(body);
        if (lm && !/^[A-Za-z_][A-Za-z0-9_]*\s*:[0-9]/.test(body)) {
          if (ctx.label)
            throw locErr(
              file,
              line,
              `label '${ctx.label.name}' names nothing`,
              ctx.label.col,
              'a label precedes a .data or .space directive',
            );
          defineCheck(ctx, lm[1]!, line, col0);
          ctx.label = { name: lm[1]!, line, col: col0 };
          col0 += lm[0].length;
          body = body.slice(lm[0].length);
          if (body === '') continue;
        }
      }
      if (body.charCodeAt(0) === 46 /* . */) {
        const dm = /^(\.\S*)\s*([\s\S]*)$/.exec(body);
        if (!dm) throw locErr(file, line, 'expected a directive', col0);
        const dir = dm[1]!.toLowerCase();
        const args = dm[2]!;
        const argCol = col0 + body.length - args.length;
        if (dir === '.set' || dir === '.equ') {
          const sm = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:=|,)\s*(.*)$/.exec(args);
          if (!sm) throw locErr(file, line, `${dir} needs NAME = value`, argCol);
          const exprCol = argCol + args.length - sm[2]!.length;
          ctx.symbols.set(
            sm[1]!,
            evalExpr(sm[2]!, ctx.symbols, (m, c, h) => locErr(file, line, m, c, h), exprCol),
          );
          continue;
        }
        if (dir === '.rept') {
          const end = findEndr(src, i + 1, to);
          if (end < 0) throw locErr(file, line, '.rept without .endr', col0);
          if (depth >= MAX_REPT_DEPTH)
            throw locErr(file, line, `.rept nested deeper than ${MAX_REPT_DEPTH}`, col0);
          const rm = /^(.*?)(?:,\s*([A-Za-z_][A-Za-z0-9_]*))?\s*$/.exec(args)!;
          const count = evalExpr(rm[1]!, ctx.symbols, (m, c, h) => locErr(file, line, m, c, h), argCol);
          if (count < 0n || count > BigInt(MAX_OPS))
            throw locErr(file, line, `.rept count ${count} is outside 0-${MAX_OPS}`, argCol);
          for (let r = 0n; r < count; r++) {
            ctx.budget.loop(1, { file, line, col: col0 });
            if (rm[2]) ctx.symbols.set(rm[2], r);
            assembleLines(src, i + 1, end, prog, ctx, depth + 1);
          }
          i = end;
          continue;
        }
        if (dir === '.endr') throw locErr(file, line, '.endr without .rept', col0);
        const blk = parseDirective(body, line, col0, ctx);
        ctx.budget.alloc(blk.bytes.length, { file, line, col: col0 });
        prog.data.push(blk);
        continue;
      }
      if (ctx.label)
        throw locErr(
          file,
          line,
          `label '${ctx.label.name}' must name a .data or .space directive`,
          ctx.label.col,
          'labels give data addresses; use .set for numbers',
        );
      const op = parseOp(body, line, col0, file, ctx.symbols);
      ctx.budget.step(1, { file, line, col: col0 });
      ctx.budget.alloc(OP_BYTES, { file, line, col: col0 });
      prog.ops.push(op);
      if (prog.ops.length > MAX_OPS)
        throw locErr(file, line, `the program expands to more than ${MAX_OPS} operations`, col0);
    } catch (e) {
      if (e instanceof AxsimError && e.location === undefined) throw e.at({ file, line, col: col0 });
      throw e;
    }
  }
}

function defineCheck(ctx: AsmCtx, name: string, line: number, col: number): void {
  if (ctx.symbols.has(name))
    throw locErr(
      ctx.file,
      line,
      `label '${name}' is already defined`,
      col,
      'labels are defined once; .set may redefine a symbol',
    );
}

/** Index of the `.endr` matching a `.rept` whose body starts at `from`, or -1. */
function findEndr(src: SrcLine[], from: number, to: number): number {
  let depth = 0;
  for (let j = from; j < to; j++) {
    const t = src[j]!.raw.trim().toLowerCase();
    if (/^\.rept(\s|$)/.test(t)) depth++;
    else if (/^\.endr(\s|$)/.test(t)) {
      if (depth === 0) return j;
      depth--;
    }
  }
  return -1;
}

const scratchLo = new Float64Array(64);
const scratchHi = new Float64Array(64);
const scratchOut = new Uint32Array(2);

function locErr(file: string | undefined, line: number, msg: string, col: number, hint?: string) {
  return badInput(msg, { location: { file, line, col }, hint });
}

/** Space and tab (other white space goes through the regular expressions). */
function isSpace(ch: number): boolean {
  return ch === 32 || ch === 9;
}

/**
 * `AMX_NAME ( args ) ;` split by hand: [whole, NAME, args] or null. (The regular expression
 * `^AMX_([A-Z0-9]+)\s*\(\s*(.*?)\s*\)\s*;?$` took 10 s on 5000 nested `AMX_LDX(`.)
 */
function macroCall(body: string): [string, string, string] | null {
  const open = body.indexOf('(');
  if (open < 0) return null;
  const name = body.slice(4, open).trimEnd();
  if (!/^[A-Za-z0-9]+$/.test(name)) return null;
  let end = body.length;
  const ws = (k: number) => /\s/.test(body[k - 1] ?? '');
  while (end > open && ws(end)) end--;
  if (body[end - 1] === ';') end--;
  while (end > open && ws(end)) end--;
  if (end <= open + 1 || body[end - 1] !== ')') return null;
  const args = body.slice(open + 1, end - 1).trim();
  if (/[\n\r\u2028\u2029]/.test(args)) return null; // `.` in the old pattern stopped at line ends
  return [body, name, args];
}

function parseOp(
  body: string,
  line: number,
  col0: number,
  file: string | undefined,
  symbols: Symbols,
): AmxOp {
  // `AMX_NAME(…)` only when the line starts with AMX_ (skips the regex on the common form)
  const macro =
    body.length > 4 && (body.charCodeAt(3) === 95 || body.charCodeAt(3) === 0x5f) && /^amx_/i.test(body)
      ? macroCall(body)
      : null;
  let name: string;
  let rest: string;
  let restCol: number;
  if (macro) {
    name = macro[1]!.toLowerCase();
    rest = macro[2]!.trim();
    restCol = col0 + body.indexOf('(') + 1;
  } else {
    // the mnemonic runs to the first white space, the rest starts after the white space
    let e = 0;
    while (e < body.length && !isSpace(body.charCodeAt(e))) e++;
    let r = e;
    while (r < body.length && isSpace(body.charCodeAt(r))) r++;
    let plain = true;
    for (let k = 0; k < e; k++) {
      const ch = body.charCodeAt(k);
      if (ch < 0x21 || ch > 0x7e) plain = false;
    }
    if (!plain) {
      // other Unicode white space: the regex decides ([\s\S]: a lone \r or U+2028 in the operands
      // is not a line end here; the body is trimmed and non-empty, so the match cannot fail)
      const m = /^(\S+)\s*([\s\S]*)$/.exec(body);
      if (!m) throw locErr(file, line, 'expected an instruction', col0);
      name = m[1]!.toLowerCase();
      rest = m[2]!;
    } else {
      name = body.slice(0, e).toLowerCase();
      rest = body.slice(r);
    }
    restCol = col0 + body.length - rest.length;
  }
  if (name === 'set' || name === 'clr') {
    if (rest !== '') throw locErr(file, line, `${name} takes no operand`, restCol);
    return { name, op: 17, operand: name === 'set' ? 0n : 1n, line };
  }
  const def = insnByName(name);
  if (!def) {
    const near = nearestName(name, MNEMONICS);
    throw locErr(
      file,
      line,
      `unknown AMX instruction '${name}'`,
      col0,
      near ? `did you mean ${near}?` : undefined,
    );
  }
  if (rest === '') return { name, op: def.op, operand: encode(name, {}), line };
  const c0 = rest.charCodeAt(0);
  let num = c0 >= 48 && c0 <= 57 && !rest.includes('=') ? parseNumber(rest.toLowerCase()) : undefined;
  if (num === undefined && !rest.includes('=')) {
    // an operand expression, e.g. AMX_FMA32(1l << 27); negative values wrap as in C's uint64_t
    num = evalExpr(rest, symbols, (m, c, h) => locErr(file, line, m, c, h), restCol);
    if (num < 0n && num >= -(1n << 63n)) num = BigInt.asUintN(64, num);
  }
  if (num !== undefined) {
    if (num < 0n || num >= 1n << 64n)
      throw locErr(file, line, `operand ${rest} does not fit in 64 bits`, restCol);
    const [lo, hi] = [Number(num & 0xffffffffn), Number(num >> 32n)];
    const actual = insnFor(def.op, lo, hi);
    if (actual !== def) {
      throw locErr(
        file,
        line,
        `operand ${rest} encodes ${actual.name}, not ${def.name}`,
        restCol,
        'bits 26/27 select extrx/extrh and extry/extrv',
      );
    }
    return { name, op: def.op, operand: num, line };
  }
  const vLo = scratchLo;
  const vHi = scratchHi;
  const out = scratchOut;
  if (!scanFields(def, rest, vLo, vHi, ignored))
    parseFields(def, rest, restCol, (m, c, h) => locErr(file, line, m, c, h), line, file, symbols);
  try {
    encodeRaw(def, vLo, vHi, ignored[0]!, ignored[1]!, out);
  } catch (e) {
    if (e instanceof AxsimError) throw e.at({ file, line, col: restCol });
    throw e;
  }
  return { name, op: def.op, operand: (BigInt(out[1]!) << 32n) | BigInt(out[0]!), line };
}

const ignored = new Uint32Array(2);

/** The general field parser (any spelling the format allows), with located error messages. */
function parseFields(
  def: InsnDef,
  rest: string,
  restCol: number,
  err: (msg: string, col: number, hint?: string) => AxsimError,
  line: number,
  file: string | undefined,
  symbols: Symbols,
): void {
  const names = distinctFieldNames(def);
  const vLo = scratchLo;
  const vHi = scratchHi;
  vLo.fill(Number.NaN, 0, names.length);
  let ignLo = 0;
  let ignHi = 0;
  let sawIgnored = false;
  // Sticky: each field=value must follow the previous one after white space only (anything else
  // is reported by the check after the loop). A global search for the next `=` re-scanned a long
  // `=`-less token from every position: quadratic (a 100 KB operand took 20 s).
  const re = /(\s*)(\S+?)=(\S+)/y;
  let consumed = 0;
  re.lastIndex = 0;
  for (let m = re.exec(rest); m !== null; m = re.exec(rest)) {
    const keyAt = m.index + m[1]!.length;
    consumed = m.index + m[0].length;
    let valueText = m[3]!;
    // an expression value may contain spaces: `address=A + 64 * 2` runs on while an operator
    // joins the next word (or the parentheses are open)
    for (;;) {
      const more = /^\s+(\S+)/.exec(rest.slice(consumed));
      if (!more) break;
      const joins =
        /[-+*/%&|^<>(~!]$/.test(valueText) || /^[-+*/%&|^<>)]/.test(more[1]!) || openParens(valueText) > 0;
      if (!joins) break;
      valueText += more[0];
      consumed += more[0].length;
    }
    re.lastIndex = consumed;
    const key = m[2]!.toLowerCase();
    const col = restCol + keyAt;
    if (key === 'ignored') {
      const v = parseNumber(m[3]!.toLowerCase());
      if (v === undefined || v >= 1n << 64n) throw err(`ignored=${m[3]} is not a 64-bit number`, col);
      if (sawIgnored) throw err(`field '${key}' given twice`, col);
      sawIgnored = true;
      ignLo = Number(v & 0xffffffffn);
      ignHi = Number(v >> 32n);
      continue;
    }
    const { index, field, width } = fieldIndex(def, key);
    if (index < 0 || field === undefined) {
      const near = nearestName(key, [...names, 'ignored']);
      throw err(`${def.name} has no field '${key}'`, col, near ? `did you mean ${near}?` : undefined);
    }
    if (!Number.isNaN(vLo[index]!)) throw err(`field '${key}' given twice`, col);
    let bv: bigint;
    const valCol = col + m[2]!.length + 1;
    try {
      bv = parseValue(field, valueText);
    } catch (e) {
      if (!(e instanceof AxsimError)) throw e;
      const bareWord = /^[A-Za-z_][A-Za-z0-9_]*$/.test(valueText);
      if (!looksLikeExpr(valueText) || (bareWord && !symbols.has(valueText)))
        throw e.at({ file, line, col: valCol });
      bv = evalExpr(valueText, symbols, err, valCol);
    }
    if (bv < 0n) throw err(`${def.name} field ${key}=${valueText} is negative (${bv})`, col);
    if (bv >= 1n << BigInt(width))
      throw err(`${def.name} field ${key}=${valueText} does not fit in ${width} bits`, col);
    vLo[index] = Number(bv & 0xffffffffn);
    vHi[index] = Number(bv >> 32n);
  }
  if (rest.slice(consumed).trim() !== '')
    throw err(`expected field=value, found '${rest.slice(consumed).trim()}'`, restCol + consumed);
  ignored[0] = ignLo;
  ignored[1] = ignHi;
}

function openParens(t: string): number {
  let n = 0;
  for (const ch of t) n += ch === '(' ? 1 : ch === ')' ? -1 : 0;
  return n;
}

function parseDirective(body: string, line: number, col0: number, ctx: AsmCtx): AmxDataBlock {
  const { file, symbols } = ctx;
  const blk = parseDataBlock(body, line, col0, file, symbols, ctx.nextFree);
  if (ctx.label) {
    ctx.symbols.set(ctx.label.name, blk.addr);
    ctx.label = undefined;
  }
  const end = blk.addr + BigInt(blk.bytes.length);
  const aligned = (end + 127n) & ~127n;
  if (aligned > ctx.nextFree) ctx.nextFree = aligned;
  return blk;
}

function parseDataBlock(
  body: string,
  line: number,
  col0: number,
  file: string | undefined,
  symbols: Symbols,
  nextFree: bigint,
): AmxDataBlock {
  const err = (msg: string, col: number, hint?: string) =>
    badInput(msg, { location: { file, line, col }, hint });
  // `.` alone or followed by a lone \r must reach the "unknown directive" error, not a failed match
  const m = /^(\.\S*)\s*([\s\S]*)$/.exec(body);
  if (!m) throw err('expected a directive', col0, 'use .data ADDR TYPE values… or .space ADDR LEN');
  const dir = m[1]!.toLowerCase();
  const args = m[2]!;
  const argCol = col0 + body.length - args.length;
  const num = (text: string, col: number): bigint => {
    const plain = parseNumber(text.trim().toLowerCase());
    return plain ?? evalExpr(text, symbols, err, col);
  };
  if (dir === '.space') {
    // .space ADDR LEN, .space ADDR, LEN, or .space LEN (placed after the data so far)
    const parts = args.includes(',') ? args.split(',') : args.trim().split(/\s+/);
    if (args.trim() === '' || parts.length > 2) throw err('.space needs ADDR LEN (or LEN)', argCol);
    const lenText = parts[parts.length - 1]!;
    const len = num(lenText, argCol + args.lastIndexOf(lenText.trim()));
    const addr = parts.length === 2 ? num(parts[0]!, argCol) : nextFree;
    if (len < 0n || len > 1n << 24n) throw err('.space length must be 0 .. 16 MiB', argCol);
    if (addr < 0n || addr + len > 1n << 56n)
      throw err(`.space ${args.trim()} reaches beyond the 56-bit address space`, argCol);
    return { addr, bytes: new Uint8Array(Number(len)), line };
  }
  if (dir !== '.data')
    throw err(
      `unknown directive '${dir}'`,
      col0,
      'use .data [ADDR] TYPE values…, .space [ADDR] LEN, .set NAME = value, .rept N[, VAR] … .endr',
    );
  // .data [ADDR-EXPR] TYPE values: the type is the first word that names one
  const words =
    /^([\s\S]*?)(?:^|\s)(u8|i8|u16|i16|f16|bf16|u32|i32|f32|u64|i64|f64)(?:\s+|$)([\s\S]*)$/i.exec(args);
  let dm: [string, string, string, string];
  if (words) {
    dm = [args, words[1]!.trim(), words[2]!, words[3]!];
  } else {
    const g = /^(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(args);
    if (!g) throw err('.data needs [ADDR] TYPE value, value, …', argCol);
    dm = [args, g[1]!, g[2]!, g[3]!];
  }
  const addr = dm[1] === '' ? nextFree : num(dm[1], argCol);
  if (addr < 0n || addr >= 1n << 56n) throw err(`bad address '${dm[1]}'`, argCol);
  const type = dm[2]!.toLowerCase();
  const width = DATA_TYPES[type];
  if (width === undefined) {
    const near = nearestName(type, Object.keys(DATA_TYPES));
    throw err(
      `unknown data type '${dm[2]}'`,
      argCol + args.indexOf(dm[2]),
      near ? `did you mean ${near}?` : undefined,
    );
  }
  const items = dm[3].trim() === '' ? [] : dm[3].split(',');
  const bytes = new Uint8Array(items.length * width);
  const dv = new DataView(bytes.buffer);
  let col = argCol + args.length - dm[3].length;
  items.forEach((item, k) => {
    const t = item.trim();
    const c = col + item.indexOf(t);
    col += item.length + 1;
    const off = k * width;
    if (type.startsWith('f') || type === 'bf16') {
      const v = parseFloatStrict(t);
      if (v === undefined) throw err(`'${t}' is not a number`, c);
      if (type === 'f64') dv.setFloat64(off, v, true);
      else if (type === 'f32') dv.setUint32(off, f32Bits(Math.fround(v)), true);
      else if (type === 'f16') dv.setUint16(off, f16FromDouble(v), true);
      else dv.setUint16(off, bf16FromF32Bits(f32Bits(Math.fround(v))), true);
      return;
    }
    let v: bigint;
    if (/^[+-]?[0-9][0-9_]*$/.test(t)) v = BigInt(t.replace(/_/g, ''));
    else if (t === '' || (!looksLikeExpr(t) && !/^0[xb]/i.test(t))) throw err(`'${t}' is not an integer`, c);
    else v = evalExpr(t, symbols, err, c);
    const bits = BigInt(width * 8);
    if (v < -(1n << (bits - 1n)) || v >= 1n << bits) throw err(`${t} does not fit in ${type}`, c);
    const u = BigInt.asUintN(width * 8, v);
    for (let b = 0; b < width; b++) bytes[off + b] = Number((u >> BigInt(8 * b)) & 0xffn);
  });
  if (addr + BigInt(bytes.length) > 1n << 56n)
    throw err(`.data at ${dm[1]} reaches beyond the 56-bit address space`, argCol);
  return { addr, bytes, line };
}

function parseFloatStrict(t: string): number | undefined {
  const s = t.toLowerCase();
  if (s === 'inf' || s === '+inf') return Number.POSITIVE_INFINITY;
  if (s === '-inf') return Number.NEGATIVE_INFINITY;
  if (s === 'nan') return Number.NaN;
  // `\d+(\.\d*)?`, not `\d+\.?\d*`: the latter splits a digit run in quadratically many ways when
  // the match fails (a 100 KB line took 20-45 s).
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/.test(s)) return Number(s);
  // Number() reads unsigned hex only (Number('-0x10') is NaN): apply the sign ourselves.
  const hx = /^([+-]?)0x([0-9a-f]+)$/.exec(s);
  if (!hx) return undefined;
  const v = Number(`0x${hx[2]}`);
  return hx[1] === '-' ? -v : v;
}

/** One operation in canonical named-field form (what the assembler reads back). */
export function disassembleOp(op: number, operand: bigint): string {
  if (op === 17) {
    if (operand === 0n) return 'set';
    if (operand === 1n) return 'clr';
    throw badInput(`opcode 17 immediate ${operand} is neither set nor clr`);
  }
  const v = BigInt.asUintN(64, operand);
  return formatFields(op, Number(v & 0xffffffffn), Number(v >> 32n));
}

/** The canonical form followed by one comment line per field giving its meaning. */
export function describeOp(op: number, operand: bigint): string {
  if (op === 17)
    return `${disassembleOp(op, operand)}  ; ${operand === 0n ? 'enable AMX, zero X/Y/Z' : 'disable AMX'}`;
  const d = decode(op, operand);
  const v = BigInt.asUintN(64, operand);
  const lines = [
    `${disassembleOp(op, operand)}`,
    `  ; ${d.insn.name}: ${d.insn.summary} (corsix/amx ${d.insn.ref}); operand 0x${v.toString(16).padStart(16, '0')}, word 0x${(0x00201000 | (op << 5)).toString(16).padStart(8, '0')}+reg`,
  ];
  for (const f of d.fields) lines.push(`  ;   ${f.name}=${f.text}: ${f.meaning}`);
  if (d.ignored !== 0n) lines.push(`  ;   ignored=0x${d.ignored.toString(16)}: bits the instruction ignores`);
  return lines.join('\n');
}

/** Disassembles a program (data directives first, then the operations). */
export function disassemble(prog: AmxProgram, opts: { verbose?: boolean } = {}): string {
  const out: string[] = [];
  for (const blk of prog.data) {
    out.push(
      `.data 0x${blk.addr.toString(16)} u8 ${Array.from(blk.bytes, (b) => `0x${b.toString(16)}`).join(', ')}`,
    );
  }
  for (const o of prog.ops)
    out.push(opts.verbose ? describeOp(o.op, o.operand) : disassembleOp(o.op, o.operand));
  return out.join('\n');
}

/** Places the program's data in memory and executes its operations in order. */
export function runProgram(prog: AmxProgram, s: AmxState, range?: { from: number; to: number }): void {
  const from = range?.from ?? 0;
  const to = range?.to ?? prog.ops.length;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > prog.ops.length || from > to) {
    throw badInput(`operations ${from}..${to} are not a range of the program's ${prog.ops.length}`);
  }
  // the .data blocks are part of the program's start
  if (from === 0) for (const blk of prog.data) s.mem.writeBytes(blk.addr, blk.bytes);
  for (let index = from; index < to; index++) {
    const o = prog.ops[index]!;
    const v = BigInt.asUintN(64, o.operand);
    try {
      executeRaw(s, o.op, Number(v & 0xffffffffn), Number(v >> 32n));
    } catch (e) {
      if (e instanceof AxsimError) throw e.at({ index, line: o.line });
      throw e;
    }
  }
}

/** Field names of an instruction that exist for a given operand (for tools and tests). */
export function fieldNames(name: string, operand: bigint): string[] {
  const def = insnByName(name);
  if (!def) throw badInput(`unknown AMX instruction '${name}'`);
  const v = BigInt.asUintN(64, operand);
  return activeFields(def, Number(v & 0xffffffffn), Number(v >> 32n)).map((f) => f.name);
}
