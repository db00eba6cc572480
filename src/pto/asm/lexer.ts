/**
 * Hand-written lexer for PTO-AS (generic MLIR text as the PTOAS assembler reads it). Tokens are
 * produced on demand so that the parser can switch to the few context-sensitive scans MLIR needs
 * (dimension lists such as `16x16xf32`, where `x` separates dimensions).
 */
import { badInput } from '../../errors.ts';

export type TokKind =
  | 'value' // %name
  | 'symbol' // @name
  | 'bang' // !dialect.type
  | 'hash' // #dialect.attr
  | 'ident' // bare identifier (may contain dots: pto.tadd, arith.constant)
  | 'int'
  | 'float'
  | 'string'
  | 'punct'
  | 'eof';

export interface Token {
  kind: TokKind;
  /** The text as written (strings without their quotes, escapes resolved). */
  text: string;
  line: number;
  col: number;
  /** Offset of the first character. */
  pos: number;
  /** Offset just past the last character. */
  end: number;
}

const PUNCT2 = ['->', '::'];
const PUNCT1 = '(){}[]<>,:=?*+-^|';

function isIdStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isIdChar(c: number): boolean {
  return isIdStart(c) || (c >= 48 && c <= 57) || c === 36 || c === 46;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
/** Characters allowed in %value and @symbol names (MLIR suffix-id). */
function isSuffixChar(c: number): boolean {
  return isIdStart(c) || isDigit(c) || c === 36 || c === 46 || c === 45;
}

/**
 * The value of an `int` token: decimal or hex, with an optional leading minus (`-0x1` is -1, as
 * MLIR's integer parser reads a minus before a hex literal; `BigInt('-0x1')` itself would throw).
 */
export function intValue(text: string): bigint {
  return text.charCodeAt(0) === 45 ? -BigInt(text.slice(1)) : BigInt(text);
}

export class Lexer {
  readonly src: string;
  readonly file: string | undefined;
  private pos = 0;
  private line = 1;
  private col = 1;
  private peeked: Token | undefined;
  private prev: Token | undefined;

  constructor(src: string, file?: string) {
    this.src = src;
    this.file = file;
    // A UTF-8 byte-order mark (as some editors write) is skipped, as the other front ends do.
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  /** Location for errors at a token. */
  loc(t: { line: number; col: number }): { file?: string; line: number; col: number } {
    return this.file === undefined
      ? { line: t.line, col: t.col }
      : { file: this.file, line: t.line, col: t.col };
  }

  error(t: { line: number; col: number }, message: string, hint?: string): never {
    throw badInput(message, { location: this.loc(t), hint });
  }

  private advance(n: number): void {
    for (let i = 0; i < n; i++) {
      if (this.src.charCodeAt(this.pos) === 10) {
        this.line++;
        this.col = 1;
      } else this.col++;
      this.pos++;
    }
  }

  private skipTrivia(): void {
    const s = this.src;
    for (;;) {
      const c = s.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.advance(1);
      else if (c === 47 && s.charCodeAt(this.pos + 1) === 47) {
        while (this.pos < s.length && s.charCodeAt(this.pos) !== 10) this.advance(1);
      } else return;
    }
  }

  peek(): Token {
    if (!this.peeked) this.peeked = this.scan();
    return this.peeked;
  }

  next(): Token {
    const t = this.peek();
    this.peeked = undefined;
    this.prev = t;
    return t;
  }

  /** The token the last `next()` returned. */
  prevToken(): Token {
    return this.prev ?? this.peek();
  }

  /** Rewinds so that `t` (a token this lexer produced) is the next token again. */
  reset(t: Token): void {
    this.peeked = undefined;
    this.pos = t.pos;
    this.line = t.line;
    this.col = t.col;
  }

  /** Is the token after the next one a `<` (looking at the text)? */
  peekIsAngle(): boolean {
    const t = this.peek();
    let p = t.end;
    while (p < this.src.length && /\s/.test(this.src[p]!)) p++;
    return this.src[p] === '<';
  }

  /** True if the next token is the punctuation `p` (does not consume). */
  isPunct(p: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.text === p;
  }

  /** Consumes punctuation `p` if present. */
  eatPunct(p: string): boolean {
    if (this.isPunct(p)) {
      this.next();
      return true;
    }
    return false;
  }

  private scan(): Token {
    this.skipTrivia();
    const s = this.src;
    const start = this.pos;
    const line = this.line;
    const col = this.col;
    // (no per-call closure here: closures created per token are costly under the tsx transform)
    if (start >= s.length) return this.mk('eof', '', line, col, start);
    const c = s.charCodeAt(start);
    if (c === 37 || c === 64) {
      // %value or @symbol
      let p = start + 1;
      if (s.charCodeAt(p) === 34 && c === 64) {
        // @"quoted symbol"
        const q = s.indexOf('"', p + 1);
        if (q < 0) this.error({ line, col }, 'unterminated quoted symbol name', 'close the name with "');
        const name = s.slice(p + 1, q);
        this.advance(q + 1 - start);
        return this.mk('symbol', name, line, col, start);
      }
      while (p < s.length && isSuffixChar(s.charCodeAt(p))) p++;
      // `%r#1`: one result of a multi-result op
      if (c === 37 && s[p] === '#' && isDigit(s.charCodeAt(p + 1))) {
        p++;
        while (p < s.length && isDigit(s.charCodeAt(p))) p++;
      }
      if (p === start + 1) {
        this.error(
          { line, col },
          `'${String.fromCharCode(c)}' must be followed by a name`,
          c === 37 ? 'write an SSA value name such as %0 or %arg0' : 'write a symbol name such as @kernel',
        );
      }
      const text = s.slice(start + 1, p);
      this.advance(p - start);
      return this.mk(c === 37 ? 'value' : 'symbol', text, line, col, start);
    }
    if (c === 33 || c === 35) {
      // !dialect.type or #dialect.attr
      let p = start + 1;
      while (p < s.length && isIdChar(s.charCodeAt(p))) p++;
      if (p === start + 1) {
        this.error(
          { line, col },
          `'${String.fromCharCode(c)}' must be followed by a dialect name`,
          c === 33 ? 'types look like !pto.tile_buf<...>' : 'attributes look like #pto<cmp lt>',
        );
      }
      const text = s.slice(start + 1, p);
      this.advance(p - start);
      return this.mk(c === 33 ? 'bang' : 'hash', text, line, col, start);
    }
    if (c === 34) {
      let p = start + 1;
      let out = '';
      for (;;) {
        if (p >= s.length || s.charCodeAt(p) === 10) {
          this.error({ line, col }, 'unterminated string literal', 'close the string with "');
        }
        const d = s.charCodeAt(p);
        if (d === 34) break;
        if (d === 92) {
          const e = s[p + 1];
          out += e === 'n' ? '\n' : e === 't' ? '\t' : (e ?? '');
          p += 2;
          continue;
        }
        out += s[p];
        p++;
      }
      this.advance(p + 1 - start);
      return this.mk('string', out, line, col, start);
    }
    if (isDigit(c) || (c === 45 && isDigit(s.charCodeAt(start + 1)))) {
      let p = start + (c === 45 ? 1 : 0);
      if (
        s.charCodeAt(p) === 48 &&
        (s[p + 1] === 'x' || s[p + 1] === 'X') &&
        /[0-9a-fA-F]/.test(s[p + 2] ?? '')
      ) {
        p += 2;
        while (p < s.length && /[0-9a-fA-F]/.test(s[p]!)) p++;
        const text = s.slice(start, p);
        this.advance(p - start);
        return this.mk('int', text, line, col, start);
      }
      while (p < s.length && isDigit(s.charCodeAt(p))) p++;
      let isFloat = false;
      if (s.charCodeAt(p) === 46 && isDigit(s.charCodeAt(p + 1))) {
        isFloat = true;
        p++;
        while (p < s.length && isDigit(s.charCodeAt(p))) p++;
      } else if (s.charCodeAt(p) === 46 && !isIdStart(s.charCodeAt(p + 1))) {
        isFloat = true;
        p++;
      }
      if ((s[p] === 'e' || s[p] === 'E') && /[-+0-9]/.test(s[p + 1] ?? '')) {
        let q = p + 1;
        if (s[q] === '-' || s[q] === '+') q++;
        if (isDigit(s.charCodeAt(q))) {
          isFloat = true;
          p = q;
          while (p < s.length && isDigit(s.charCodeAt(p))) p++;
        }
      }
      const text = s.slice(start, p);
      this.advance(p - start);
      return this.mk(isFloat ? 'float' : 'int', text, line, col, start);
    }
    if (isIdStart(c)) {
      let p = start + 1;
      while (p < s.length && isIdChar(s.charCodeAt(p))) p++;
      const text = s.slice(start, p);
      this.advance(p - start);
      return this.mk('ident', text, line, col, start);
    }
    for (const p2 of PUNCT2) {
      if (s.startsWith(p2, start)) {
        this.advance(2);
        return this.mk('punct', p2, line, col, start);
      }
    }
    if (PUNCT1.includes(s[start]!)) {
      this.advance(1);
      return this.mk('punct', s[start]!, line, col, start);
    }
    return this.error(
      { line, col },
      `unexpected character '${s[start]}'`,
      'PTO-AS uses MLIR syntax: %values, @symbols, pto.ops, !types and #attributes',
    );
  }

  private mk(kind: TokKind, text: string, line: number, col: number, start: number): Token {
    return { kind, text, line, col, pos: start, end: this.pos };
  }

  /**
   * Scans an MLIR dimension list at the current position: `(int|?) x` repeated, stopping before the
   * element type (e.g. `16x16x` of `16x16xf32`, or `?x?x`). Returns the dims (-1 for `?`); an empty
   * list when the text does not start with a dimension.
   */
  scanDims(): { dims: number[]; line: number; col: number } {
    if (this.peeked) this.reset(this.peeked);
    this.skipTrivia();
    const s = this.src;
    const line = this.line;
    const col = this.col;
    const dims: number[] = [];
    for (;;) {
      const save = { pos: this.pos, line: this.line, col: this.col };
      let p = this.pos;
      let dim: number;
      if (s[p] === '?') {
        p++;
        dim = -1;
      } else if (isDigit(s.charCodeAt(p))) {
        while (isDigit(s.charCodeAt(p))) p++;
        dim = Number(s.slice(this.pos, p));
      } else break;
      if (s[p] !== 'x') {
        // a bare number not followed by 'x' is not a dimension: leave it for the caller
        this.pos = save.pos;
        this.line = save.line;
        this.col = save.col;
        break;
      }
      p++;
      this.advance(p - this.pos);
      dims.push(dim);
    }
    return { dims, line, col };
  }
}
