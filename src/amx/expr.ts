/**
 * Integer expressions of the `.amx` text form, with C's spelling so that operands can be pasted
 * from C (`AMX_FMA32(1l << 27)`, `(uint64_t)3 << 60`):
 *
 *   primary: NUMBER (decimal, 0x hex, 0b binary, `_` separators, C suffixes u/l/ll/ul/ull in any
 *            case), SYMBOL (`.set`, a data label, a `.rept` counter), `( expr )`, a C cast to an
 *            integer type (`(uint64_t)`, `(unsigned long long)`, ...), which is a no-op here
 *   unary:   - ~ + !
 *   binary:  * / %   + -   << >>   &   ^   |     (C precedence, left to right)
 *
 * Values are unbounded integers while evaluating; the user of the value decides its width (an
 * operand is taken modulo 2^64, a field must fit its bits). Shifts by a negative count or by more
 * than 64, and division by zero, are errors rather than C's undefined behaviour.
 */
import { type AxsimError, nearestName } from '../errors.ts';

export type Symbols = ReadonlyMap<string, bigint>;

const CAST_WORDS = new Set([
  'uint64_t',
  'int64_t',
  'uint32_t',
  'int32_t',
  'uint16_t',
  'int16_t',
  'uint8_t',
  'int8_t',
  'size_t',
  'uintptr_t',
  'unsigned',
  'signed',
  'long',
  'int',
  'short',
  'char',
]);

interface Tok {
  kind: 'num' | 'id' | 'op';
  text: string;
  value?: bigint;
  pos: number;
}

function tokenize(text: string, fail: (msg: string, pos: number, hint?: string) => AxsimError): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^(0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9][0-9_]*)([uUlL]*)/.exec(text.slice(i))!;
      const suffix = m[2]!.toLowerCase();
      if (suffix !== '' && !/^(u|l|ll|ul|ull|lu|llu)$/.test(suffix))
        throw fail(`bad integer suffix '${m[2]}'`, i + m[1]!.length);
      const after = text[i + m[0].length];
      if (after !== undefined && /[A-Za-z0-9_.]/.test(after))
        throw fail(`'${text.slice(i).split(/[\s()]/)[0]}' is not an integer`, i);
      toks.push({ kind: 'num', text: m[0], value: BigInt(m[1]!.replace(/_/g, '')), pos: i });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      toks.push({ kind: 'id', text: m[0], pos: i });
      i += m[0].length;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '<<' || two === '>>') {
      toks.push({ kind: 'op', text: two, pos: i });
      i += 2;
      continue;
    }
    if ('+-*/%&|^~!()'.includes(c)) {
      toks.push({ kind: 'op', text: c, pos: i });
      i++;
      continue;
    }
    throw fail(`unexpected '${c}' in expression`, i);
  }
  return toks;
}

const BINARY: Record<string, number> = {
  '*': 5,
  '/': 5,
  '%': 5,
  '+': 4,
  '-': 4,
  '<<': 3,
  '>>': 3,
  '&': 2,
  '^': 1,
  '|': 0,
};

/** Deepest nesting of parentheses, casts and prefix operators in one expression (the budget's default depth). */
export const MAX_NESTING = 256;

/**
 * Evaluates `text`; `col` is the column of text[0] (1-based) for error locations, which are
 * reported through `fail(message, column, hint)`.
 */
export function evalExpr(
  text: string,
  symbols: Symbols,
  fail: (msg: string, col: number, hint?: string) => AxsimError,
  col = 1,
): bigint {
  const f = (msg: string, pos: number, hint?: string) => fail(msg, col + pos, hint);
  const toks = tokenize(text, f);
  if (toks.length === 0) throw f('expected an expression', 0);
  let k = 0;
  let depth = 0;
  const peek = () => toks[k];
  const isCast = (): boolean => {
    // `(` integer-type words `)`, e.g. (uint64_t) or (unsigned long long)
    if (peek()?.text !== '(') return false;
    let j = k + 1;
    while (toks[j]?.kind === 'id' && CAST_WORDS.has(toks[j]!.text)) j++;
    return j > k + 1 && toks[j]?.text === ')';
  };
  // parentheses, casts and prefix operators recurse: bounded, so 10^4 of them are an error, not a
  // host stack overflow (fuzz campaign of issue 18, amx-text seed 2 input 10987)
  const unary = (): bigint => {
    if (++depth > MAX_NESTING) {
      throw f(
        `expression nests more than ${MAX_NESTING} levels deep`,
        peek()?.pos ?? text.length,
        'parentheses, casts and prefix operators count',
      );
    }
    const v = unaryInner();
    depth--;
    return v;
  };
  const unaryInner = (): bigint => {
    const t = peek();
    if (!t) throw f('expression ends too early', text.length);
    if (t.kind === 'op' && (t.text === '-' || t.text === '~' || t.text === '+' || t.text === '!')) {
      k++;
      const v = unary();
      if (t.text === '-') return -v;
      if (t.text === '~') return ~v;
      if (t.text === '!') return v === 0n ? 1n : 0n;
      return v;
    }
    if (isCast()) {
      while (peek()!.text !== ')') k++;
      k++;
      return unary();
    }
    if (t.text === '(') {
      k++;
      const v = binary(0);
      if (peek()?.text !== ')') throw f("missing ')'", peek()?.pos ?? text.length);
      k++;
      return v;
    }
    if (t.kind === 'num') {
      k++;
      return t.value!;
    }
    if (t.kind === 'id') {
      k++;
      const v = symbols.get(t.text);
      if (v === undefined) {
        const near = nearestName(t.text, [...symbols.keys()]);
        throw f(
          `undefined symbol '${t.text}'`,
          t.pos,
          near ? `did you mean ${near}?` : 'define it with .set NAME = value or a label',
        );
      }
      return v;
    }
    throw f(`unexpected '${t.text}'`, t.pos);
  };
  const binary = (minPrec: number): bigint => {
    let lhs = unary();
    for (;;) {
      const t = peek();
      if (t?.kind !== 'op') break;
      const prec = BINARY[t.text];
      if (prec === undefined || prec < minPrec) break;
      k++;
      const rhs = binary(prec + 1);
      lhs = apply(t, lhs, rhs);
    }
    return lhs;
  };
  const apply = (t: Tok, a: bigint, b: bigint): bigint => {
    switch (t.text) {
      case '*':
        return a * b;
      case '/':
      case '%':
        if (b === 0n) throw f('division by zero', t.pos);
        return t.text === '/' ? a / b : a % b;
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '<<':
      case '>>':
        if (b < 0n || b > 64n) throw f(`shift count ${b} is outside 0-64`, t.pos);
        return t.text === '<<' ? a << b : a >> b;
      case '&':
        return a & b;
      case '^':
        return a ^ b;
      default:
        return a | b;
    }
  };
  const v = binary(0);
  if (k < toks.length) throw f(`unexpected '${toks[k]!.text}'`, toks[k]!.pos);
  return v;
}

/** True when `text` needs the expression evaluator (anything but a plain number or word). */
export function looksLikeExpr(text: string): boolean {
  return /[()+\-*/%&|^~!<> \t]/.test(text) || /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) || /[uUlL]$/.test(text);
}
