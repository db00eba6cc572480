/**
 * Tokenizer for Tensix kernel source: the subset of C/C++ that SFPU kernels use to emit
 * instructions (macro calls, integer constant expressions, qualified names, `#define`), plus the
 * canonical `NAME field=value` lines and `.word` directives. Hand-written, one pass, positions kept
 * as 1-based line:col for error messages.
 */
import { badInput, type ErrorLocation } from '../../errors.ts';

export type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'directive' | 'preproc' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The source text of the token (for `preproc`: the whole directive line, `#` included). */
  text: string;
  /** For numbers: the literal's value. */
  value?: bigint;
  line: number;
  col: number;
}

/** Longest first, so that `<<` wins over `<`. */
const PUNCTS = [
  '<<=',
  '>>=',
  '::',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '(',
  ')',
  ',',
  ';',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '~',
  '!',
  '<',
  '>',
  '?',
  ':',
  '{',
  '}',
  '[',
  ']',
  '.',
];

const isIdentStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdentChar = (c: string) => isIdentStart(c) || (c >= '0' && c <= '9');
const isDigit = (c: string) => c >= '0' && c <= '9';

/** Parses a C integer literal (hex, binary, octal, decimal; digit separators `'`; u/l suffixes). */
function parseIntLiteral(text: string, loc: ErrorLocation): bigint {
  let body = text.replace(/'/g, '');
  const suffix = /([uU](ll|LL|l|L)?|(ll|LL|l|L)[uU]?)$/.exec(body);
  if (suffix) body = body.slice(0, body.length - suffix[0].length);
  let m: RegExpExecArray | null;
  if ((m = /^0[xX]([0-9a-fA-F]+)$/.exec(body))) return BigInt(`0x${m[1]}`);
  if ((m = /^0[bB]([01]+)$/.exec(body))) return BigInt(`0b${m[1]}`);
  if ((m = /^0([0-7]+)$/.exec(body))) return BigInt(`0o${m[1]}`);
  if (/^(0|[1-9][0-9]*)$/.test(body)) return BigInt(body);
  if (/^[0-9.]+([eE][-+]?[0-9]+)?[fF]?$/.test(body) && /[.eE]/.test(body)) {
    throw badInput(`floating-point literal '${text}' is not allowed here`, {
      location: loc,
      hint: 'instruction fields take integers; write a float immediate as its bit pattern, e.g. 0x3f80 for bf16 1.0',
    });
  }
  throw badInput(`malformed number '${text}'`, { location: loc });
}

export function tokenize(src: string, file?: string): Token[] {
  const toks: Token[] = [];
  // A UTF-8 byte-order mark, as some editors write, is not part of the text.
  let i = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let lineStart = i;
  /** True while only whitespace/comments have been seen on the current line (for `#` directives). */
  let atLineStart = true;
  const n = src.length;
  const loc = (at: number, l = line, ls = lineStart): ErrorLocation => ({ file, line: l, col: at - ls + 1 });
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      atLineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '\\' && (src[i + 1] === '\n' || (src[i + 1] === '\r' && src[i + 2] === '\n'))) {
      // Line continuation, as in multi-line macro invocations.
      i += src[i + 1] === '\n' ? 2 : 3;
      line++;
      lineStart = i;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const start = loc(i);
      i += 2;
      for (;;) {
        if (i >= n) throw badInput('unterminated /* comment', { location: start, hint: 'close it with */' });
        if (src[i] === '*' && src[i + 1] === '/') {
          i += 2;
          break;
        }
        if (src[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      continue;
    }
    const tokLine = line;
    const col = i - lineStart + 1;
    if (c === '#' && atLineStart) {
      // A preprocessor line, continuations included; comments inside it are removed later.
      let j = i;
      let text = '';
      while (j < n && src[j] !== '\n') {
        if (src[j] === '\\' && src[j + 1] === '\n') {
          text += ' ';
          j += 2;
          line++;
          lineStart = j;
          continue;
        }
        text += src[j];
        j++;
      }
      toks.push({ kind: 'preproc', text, line: tokLine, col });
      i = j;
      continue;
    }
    atLineStart = false;
    if (isIdentStart(c)) {
      let j = i + 1;
      for (;;) {
        while (j < n && isIdentChar(src[j]!)) j++;
        // Qualified names (p_sfpu::LREG0, ckernel::sfpu::x) are one token.
        if (src[j] === ':' && src[j + 1] === ':' && j + 2 < n && isIdentStart(src[j + 2]!)) {
          j += 3;
          continue;
        }
        break;
      }
      toks.push({ kind: 'ident', text: src.slice(i, j), line: tokLine, col });
      i = j;
      continue;
    }
    if (c === ':' && src[i + 1] === ':' && i + 2 < n && isIdentStart(src[i + 2]!)) {
      // A leading `::` (global namespace) is dropped.
      i += 2;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && (isIdentChar(src[j]!) || src[j] === '.' || src[j] === "'")) {
        // exponent signs of float literals belong to the literal (so that the error names it whole)
        if (
          (src[j] === 'e' || src[j] === 'E') &&
          (src[j + 1] === '+' || src[j + 1] === '-') &&
          !/^0[xX]/.test(src.slice(i, j))
        ) {
          j += 2;
          continue;
        }
        j++;
      }
      const text = src.slice(i, j);
      toks.push({ kind: 'number', text, value: parseIntLiteral(text, loc(i)), line: tokLine, col });
      i = j;
      continue;
    }
    if (c === '.' && isIdentStart(src[i + 1] ?? '')) {
      let j = i + 1;
      while (j < n && isIdentChar(src[j]!)) j++;
      toks.push({ kind: 'directive', text: src.slice(i, j), line: tokLine, col });
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      // String and character literals (in static_assert messages, say) are tokens; using one as a
      // value is an error in the expression parser.
      let j = i + 1;
      while (j < n && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      if (j >= n || src[j] !== c) {
        throw badInput(`unterminated ${c === '"' ? 'string' : 'character'} literal`, { location: loc(i) });
      }
      toks.push({ kind: 'string', text: src.slice(i, j + 1), line: tokLine, col });
      i = j + 1;
      continue;
    }
    const p = PUNCTS.find((s) => src.startsWith(s, i));
    if (!p) {
      throw badInput(`unexpected character '${c}'`, { location: loc(i) });
    }
    toks.push({ kind: 'punct', text: p, line: tokLine, col });
    i += p.length;
  }
  toks.push({ kind: 'eof', text: '', line, col: i - lineStart + 1 });
  return toks;
}
