/**
 * Integer constant expressions as kernels write them inside instruction macros:
 * `(-16) & 0xFFF`, `(MacroIndex << 2) | VDLo`, `p_sfpu::LREG0 + 1`, `(uint16_t)x`, `a ? b : c`.
 * Evaluated exactly (BigInt), with C operator precedence; casts to fixed-width types wrap as C does.
 * The caller checks that the final value fits the field it goes into.
 */
import { type AxsimError, badInput, type ErrorLocation, nearestName } from '../../errors.ts';
import type { Token } from './lexer.ts';
import { stripNamespaces } from './tables.ts';

/** Name lookup for identifiers: kernel constants plus the user's `#define`s and options. */
export interface Scope {
  /** Returns the value of a name as written (namespaces included), or undefined. */
  lookup(name: string): bigint | undefined;
  /** Every name that could be looked up, for "did you mean" hints. */
  names(): Iterable<string>;
  /**
   * For a function-like name (`TT_OP_SFPMAD`), parses its argument list from `parser` (positioned
   * just after the name) and returns its value; undefined when `name` is not such a function.
   */
  call?(name: string, parser: ExprParser): bigint | undefined;
  /** The values of a constant array, for `NAME[index]`. */
  array?(name: string): readonly bigint[] | undefined;
}

/** C integer types a cast may name, as [bits, signed]; `std::` is removed before lookup. */
const TYPES: Record<string, [number, boolean]> = {
  char: [8, true],
  'signed char': [8, true],
  'unsigned char': [8, false],
  short: [16, true],
  'short int': [16, true],
  'unsigned short': [16, false],
  'unsigned short int': [16, false],
  int: [32, true],
  signed: [32, true],
  'signed int': [32, true],
  unsigned: [32, false],
  'unsigned int': [32, false],
  long: [32, true],
  'unsigned long': [32, false],
  'long long': [64, true],
  'unsigned long long': [64, false],
  uint: [32, false],
  uint8_t: [8, false],
  uint16_t: [16, false],
  uint32_t: [32, false],
  uint64_t: [64, false],
  int8_t: [8, true],
  int16_t: [16, true],
  int32_t: [32, true],
  int64_t: [64, true],
  size_t: [32, false],
  bool: [1, false],
};
export const TYPE_WORDS = new Set(Object.keys(TYPES).flatMap((k) => k.split(' ')));

/** Wraps `v` as a C conversion to the type named by `words` would; unknown types leave it as is. */
export function convertTo(words: readonly string[], v: bigint): bigint {
  const t = TYPES[words.map((w) => w.replace(/^std::/, '')).join(' ')];
  if (!t) return v;
  if (t[0] === 1) return v !== 0n ? 1n : 0n;
  return t[1] ? BigInt.asIntN(t[0], v) : BigInt.asUintN(t[0], v);
}
const typeWord = (t: Token) => (t.kind === 'ident' ? t.text.replace(/^std::/, '') : undefined);

export class ExprParser {
  pos = 0;
  constructor(
    readonly toks: Token[],
    readonly scope: Scope,
    readonly file?: string,
  ) {}

  peek(k = 0): Token {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)]!;
  }
  next(): Token {
    const t = this.peek();
    if (this.pos < this.toks.length - 1) this.pos++;
    return t;
  }
  loc(t: Token): ErrorLocation {
    return { file: this.file, line: t.line, col: t.col };
  }
  isPunct(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.text === text;
  }
  error(t: Token, message: string, hint?: string): AxsimError {
    return badInput(message, { location: this.loc(t), hint });
  }
  describe(t: Token): string {
    return t.kind === 'eof' ? 'end of input' : `'${t.text}'`;
  }
  expect(text: string, what?: string): Token {
    const t = this.peek();
    if (t.kind !== 'punct' || t.text !== text) {
      throw this.error(t, `expected '${text}'${what ? ` ${what}` : ''} but found ${this.describe(t)}`);
    }
    return this.next();
  }

  /** expression := conditional (the comma operator is not supported: commas separate arguments). */
  expression(): bigint {
    return this.conditional();
  }

  private conditional(): bigint {
    const c = this.binary(0);
    if (!this.isPunct('?')) return c;
    this.next();
    const a = this.expression();
    this.expect(':', "of '? :'");
    const b = this.conditional();
    return c !== 0n ? a : b;
  }

  private static readonly LEVELS: readonly (readonly string[])[] = [
    ['||'],
    ['&&'],
    ['|'],
    ['^'],
    ['&'],
    ['==', '!='],
    ['<', '<=', '>', '>='],
    ['<<', '>>'],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  private binary(level: number): bigint {
    if (level === ExprParser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    const ops = ExprParser.LEVELS[level]!;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct' || !ops.includes(t.text)) return left;
      this.next();
      const right = this.binary(level + 1);
      left = this.apply(t, left, right);
    }
  }

  private apply(op: Token, a: bigint, b: bigint): bigint {
    switch (op.text) {
      case '||':
        return a !== 0n || b !== 0n ? 1n : 0n;
      case '&&':
        return a !== 0n && b !== 0n ? 1n : 0n;
      case '|':
        return a | b;
      case '^':
        return a ^ b;
      case '&':
        return a & b;
      case '==':
        return a === b ? 1n : 0n;
      case '!=':
        return a !== b ? 1n : 0n;
      case '<':
        return a < b ? 1n : 0n;
      case '<=':
        return a <= b ? 1n : 0n;
      case '>':
        return a > b ? 1n : 0n;
      case '>=':
        return a >= b ? 1n : 0n;
      case '<<':
      case '>>':
        if (b < 0n || b > 63n) throw this.error(op, `shift count ${b} is out of range 0..63`);
        return op.text === '<<' ? a << b : a >> b;
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '/':
      case '%':
        if (b === 0n) throw this.error(op, 'division by zero');
        return op.text === '/' ? a / b : a % b;
    }
    throw this.error(op, `unknown operator '${op.text}'`);
  }

  /** If the tokens at the cursor are `( type-name )`, returns the type and its token count. */
  private castAhead(): { type: [number, boolean]; len: number } | undefined {
    if (!this.isPunct('(')) return undefined;
    const words: string[] = [];
    let k = 1;
    for (;;) {
      const w = typeWord(this.peek(k));
      if (w === undefined || !TYPE_WORDS.has(w)) break;
      words.push(w);
      k++;
    }
    if (words.length === 0 || !this.isPunct(')', k)) return undefined;
    const type = TYPES[words.join(' ')];
    return type ? { type, len: k + 1 } : undefined;
  }

  private static wrap(v: bigint, [bits, signed]: [number, boolean]): bigint {
    if (bits === 1) return v !== 0n ? 1n : 0n;
    return signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
  }

  /** Nesting depth of unary(); bounded so that deep input is an error, not a stack overflow. */
  private depth = 0;

  private unary(): bigint {
    if (++this.depth > 256) {
      throw this.error(this.peek(), 'expression nested too deeply (more than 256 levels)');
    }
    try {
      return this.unaryInner();
    } finally {
      this.depth--;
    }
  }

  private unaryInner(): bigint {
    const t = this.peek();
    if (t.kind === 'punct') {
      switch (t.text) {
        case '-':
          this.next();
          return -this.unary();
        case '+':
          this.next();
          return this.unary();
        case '~':
          this.next();
          return ~this.unary();
        case '!':
          this.next();
          return this.unary() === 0n ? 1n : 0n;
        case '(': {
          const cast = this.castAhead();
          if (cast) {
            this.pos += cast.len;
            return ExprParser.wrap(this.unary(), cast.type);
          }
          break;
        }
      }
    }
    return this.primary();
  }

  private primary(): bigint {
    const t = this.next();
    if (t.kind === 'number') return t.value!;
    if (t.kind === 'punct' && t.text === '(') {
      const v = this.expression();
      this.expect(')', 'to close the parenthesis');
      return v;
    }
    if (t.kind === 'ident') {
      if (t.text === 'true') return 1n;
      if (t.text === 'false') return 0n;
      if (t.text === 'static_cast' || t.text === 'std::static_cast') return this.staticCast(t);
      if ((t.text === 'to_underlying' || t.text === 'std::to_underlying') && this.isPunct('(')) {
        // an enum's value: the enums here are plain integers already
        this.next();
        const v = this.expression();
        this.expect(')', `to close ${t.text}(…)`);
        return v;
      }
      const c = this.scope.call?.(t.text, this);
      if (c !== undefined) return c;
      const arr = this.isPunct('[') ? this.scope.array?.(t.text) : undefined;
      if (arr) {
        this.next();
        const at = this.peek();
        const k = this.expression();
        this.expect(']', `to close ${t.text}[…]`);
        if (k < 0n || k >= BigInt(arr.length)) {
          throw this.error(at, `index ${k} is outside ${t.text}[0..${arr.length - 1}]`);
        }
        return arr[Number(k)]!;
      }
      const v = this.scope.lookup(t.text);
      if (v !== undefined) return v;
      if (this.isPunct('(')) {
        throw this.error(
          t,
          `function call '${t.text}(…)' is not supported in an instruction argument`,
          'write the value as a constant expression',
        );
      }
      const near = nearestName(stripNamespaces(t.text), this.scope.names());
      throw this.error(
        t,
        `unknown name '${t.text}'`,
        near
          ? `did you mean ${near}?`
          : 'only the tt-llk/sfpi constants and names you #define (or pass with --define) are known',
      );
    }
    if (t.kind === 'string') {
      throw this.error(
        t,
        `unexpected ${t.text.startsWith('"') ? 'string' : 'character'} literal ${t.text}`,
        'instruction arguments are integer constant expressions',
      );
    }
    throw this.error(t, `expected a value but found ${this.describe(t)}`);
  }

  private staticCast(at: Token): bigint {
    this.expect('<', 'after static_cast');
    const words: string[] = [];
    while (!this.isPunct('>')) {
      const w = typeWord(this.peek());
      if (w === undefined || !TYPE_WORDS.has(w))
        throw this.error(
          this.peek(),
          `expected an integer type name in static_cast but found ${this.describe(this.peek())}`,
        );
      words.push(w);
      this.next();
    }
    this.next();
    const type = TYPES[words.join(' ')];
    if (!type) throw this.error(at, `unknown integer type '${words.join(' ')}'`);
    this.expect('(', 'after static_cast<…>');
    const v = this.expression();
    this.expect(')', 'to close static_cast');
    return ExprParser.wrap(v, type);
  }
}
