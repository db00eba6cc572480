/**
 * The C/C++ lexer of cfront: source text -> preprocessing tokens, each with its position
 * (file:line:col, 1-based). Comments become whitespace; backslash-newline continuations are
 * removed before tokenising (C phase 2) while positions keep pointing at the physical text.
 */
import { badInput, type ErrorLocation } from '../errors.ts';

export type TokKind = 'ident' | 'number' | 'string' | 'char' | 'punct' | 'eof';

/** A position in a source file (1-based line and column). */
export interface SrcLoc {
  file: string;
  line: number;
  col: number;
}

export interface Token {
  kind: TokKind;
  text: string;
  /** Where the token was spelled. */
  file: string;
  line: number;
  col: number;
  /** First token on its (logical) line. */
  bol: boolean;
  /** Whitespace before the token (for `#` stringification and `#define F(` vs `#define F (`). */
  space: boolean;
  /**
   * For tokens produced by macro expansion: the outermost use site (the macro name as written in
   * the file being read) and the chain of macros expanded, outermost first.
   */
  use?: SrcLoc;
  via?: readonly string[];
  /** Macro names that must not be expanded again in this token (C's "painted blue"). */
  hide?: ReadonlySet<string>;
}

/** The location to report for a token: its use site when it came from a macro. */
export function tokLoc(t: Token): SrcLoc {
  return t.use ?? { file: t.file, line: t.line, col: t.col };
}

const PUNCTS = [
  '%:%:',
  '...',
  '<<=',
  '>>=',
  '->*',
  '<=>',
  '::',
  '->',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '##',
  '.*',
  '%:',
];
/** PUNCTS by their first character code, longest first as in PUNCTS. */
const PUNCTS_BY_FIRST = new Map<number, string[]>();
for (const p of PUNCTS) {
  const c = p.charCodeAt(0);
  PUNCTS_BY_FIRST.set(c, [...(PUNCTS_BY_FIRST.get(c) ?? []), p]);
}
const SINGLE = new Set('{}[]()<>;:,.?!~+-*/%^&|=#@$\\`'.split(''));

const isIdStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Tokenises `text` (one file). Newlines are not tokens: `bol` marks the first token of each logical
 * line (a line continued with backslash-newline is one logical line).
 */
export function lex(text: string, file: string): Token[] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const n0 = text.length;
  // Physical positions of the characters. With continuations to splice or CRs to translate, every
  // character's line and column after splicing go in typed arrays (one linear pass). Otherwise the
  // text is the character stream and a token's position comes from a forward cursor over the
  // newlines (`advance`): the same numbers without two arrays the size of the text (filling them was
  // 40% of lexing a large file).
  let lines: Int32Array | undefined;
  let cols: Int32Array | undefined;
  let s: string;
  if (text.indexOf('\\') < 0 && text.indexOf('\r') < 0) {
    s = text;
  } else {
    lines = new Int32Array(n0);
    cols = new Int32Array(n0);
    const buf = new Uint16Array(n0);
    let m = 0;
    let line = 1;
    let col = 1;
    for (let i = 0; i < n0; i++) {
      const c = text.charCodeAt(i);
      if (c === 92 /* \\ */) {
        let j = i + 1;
        while (j < n0 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
        const d = text.charCodeAt(j);
        if (d === 10 || (d === 13 && text.charCodeAt(j + 1) === 10)) {
          i = d === 13 ? j + 1 : j;
          line++;
          col = 1;
          continue;
        }
      }
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) continue;
        buf[m] = 10;
        lines[m] = line;
        cols[m++] = col;
        line++;
        col = 1;
        continue;
      }
      buf[m] = c;
      lines[m] = line;
      cols[m++] = col;
      if (c === 10) {
        line++;
        col = 1;
      } else col++;
    }
    // String.fromCharCode keeps lone surrogates as they are (a UTF-16 decoder would replace them)
    const parts: string[] = [];
    for (let k = 0; k < m; k += 8192)
      parts.push(
        String.fromCharCode.apply(null, buf.subarray(k, Math.min(m, k + 8192)) as unknown as number[]),
      );
    s = parts.join('');
  }
  const out: Token[] = [];
  let bol = true;
  let space = false;
  let i = 0;
  const n = s.length;
  // the forward cursor (unspliced text; token starts only increase): `curLine` is the line that
  // starts at index `curBol`; `nextNl` is the first newline at or after `curBol` (-1: none)
  let curLine = 1;
  let curBol = 0;
  let nextNl = lines ? -1 : s.indexOf('\n');
  const advance = (k: number) => {
    while (nextNl >= 0 && nextNl < k) {
      curLine++;
      curBol = nextNl + 1;
      nextNl = s.indexOf('\n', curBol);
    }
  };
  /** Line and column of index k < n of the unspliced text (counted from the start). */
  const scanAt = (k: number) => {
    let line = 1;
    let bol = 0;
    for (let j = s.indexOf('\n'); j >= 0 && j < k; j = s.indexOf('\n', j + 1)) {
      line++;
      bol = j + 1;
    }
    return { line, col: k - bol + 1 };
  };
  /** Line and column of index k (errors, the end of the file); past the end: the next line. */
  const at = (k: number): { line: number; col: number } => {
    if (k < n) return lines ? { line: lines[k]!, col: cols![k]! } : scanAt(k);
    if (n === 0) return { line: 1, col: 1 };
    return { line: (lines ? lines[n - 1]! : scanAt(n - 1).line) + 1, col: 1 };
  };
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      bol = true;
      space = false;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 11 || c === 12) {
      space = true;
      i++;
      continue;
    }
    if (c === 47 && s.charCodeAt(i + 1) === 47) {
      const nl = s.indexOf('\n', i + 2);
      i = nl < 0 ? n : nl;
      space = true;
      continue;
    }
    if (c === 47 && s.charCodeAt(i + 1) === 42) {
      const end = s.indexOf('*/', i + 2);
      if (end < 0) throw badInput('unterminated /* comment', { location: { file, ...at(i) } });
      i = end + 2;
      space = true;
      continue;
    }
    const start = i;
    let kind: TokKind;
    if (isIdStart(c)) {
      while (i < n && isIdPart(s.charCodeAt(i))) i++;
      // string/char literal prefixes: u8"…", L'…', R"(…)"
      const q = s[i];
      const word = s.slice(start, i);
      if ((q === '"' || q === "'") && /^(u8|u|U|L|u8R|uR|UR|LR|R)$/.test(word)) {
        if (word.endsWith('R') && q === '"') {
          const open = s.indexOf('(', i);
          const delim = s.slice(i + 1, open);
          const close = s.indexOf(`)${delim}"`, open);
          if (open < 0 || close < 0)
            throw badInput('unterminated raw string literal', { location: { file, ...at(start) } });
          i = close + delim.length + 2;
        } else i = quoted(s, i, file, at);
        kind = q === '"' ? 'string' : 'char';
      } else kind = 'ident';
    } else if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
      // pp-number: digits, letters, _, ., ' (digit separator), and e+ e- p+ p-
      i++;
      while (i < n) {
        const d = s.charCodeAt(i);
        if ((d === 43 || d === 45) && /[eEpP]/.test(s[i - 1]!)) i++;
        else if (isIdPart(d) || d === 46) i++;
        else if (d === 39 && isIdPart(s.charCodeAt(i + 1))) i++;
        else break;
      }
      kind = 'number';
    } else if (c === 34 || c === 39) {
      i = quoted(s, i, file, at);
      kind = c === 34 ? 'string' : 'char';
    } else {
      let p: string | undefined;
      const cands = PUNCTS_BY_FIRST.get(c);
      if (cands)
        for (const q of cands)
          if (s.startsWith(q, i)) {
            p = q;
            break;
          }
      if (p) i += p.length;
      else if (SINGLE.has(s[i]!)) i++;
      else
        throw badInput(`unexpected character '${s[i]}'`, {
          location: { file, ...at(i) },
        });
      kind = 'punct';
    }
    let txt = s.slice(start, i);
    if (kind === 'punct') {
      if (txt === '%:') txt = '#';
      else if (txt === '%:%:') txt = '##';
    }
    let line: number;
    let col: number;
    if (lines) {
      line = lines[start]!;
      col = cols![start]!;
    } else {
      advance(start);
      line = curLine;
      col = start - curBol + 1;
    }
    out.push({ kind, text: txt, file, line, col, bol, space });
    bol = false;
    space = false;
  }
  const last = at(n);
  out.push({
    kind: 'eof',
    text: '',
    file,
    line: n === 0 ? 1 : last.line,
    col: n === 0 ? 1 : last.col,
    bol: true,
    space: false,
  });
  return out;
}

function quoted(
  s: string,
  i: number,
  file: string,
  at: (k: number) => { line: number; col: number },
): number {
  const q = s[i];
  const start = i;
  i++;
  while (i < s.length && s[i] !== q) {
    if (s[i] === '\\') i++;
    if (s[i] === '\n') break;
    i++;
  }
  if (s[i] !== q)
    throw badInput(`unterminated ${q === '"' ? 'string' : 'character'} literal`, {
      location: { file, ...at(start) },
    });
  return i + 1;
}

/**
 * The value of a C string literal's contents (escape sequences decoded). An ill-formed escape is
 * BadInput at `where` (the literal's location, when the caller has it).
 */
export function stringValue(text: string, where?: ErrorLocation): string {
  const m = /^(u8|u|U|L)?"(.*)"$/s.exec(text);
  if (!m) {
    const r = /^(?:u8|u|U|L)?R"([^(]*)\((.*)\)\1"$/s.exec(text);
    if (r) return r[2]!;
    return text;
  }
  return unescapeC(m[2]!, where);
}

/**
 * Decodes the escape sequences of a string or character literal's body. `\x` without hex digits,
 * `\u`/`\U` without 4/8 hex digits, and a universal character name that is not a Unicode scalar
 * value (a surrogate, or above 0x10FFFF) are ill-formed: BadInput at `where`.
 */
export function unescapeC(body: string, where?: ErrorLocation): string {
  return body.replace(/\\(x[0-9a-fA-F]+|[0-7]{1,3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/gs, (_, e: string) => {
    switch (e[0]) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
        return String.fromCharCode(Number.parseInt(e, 8));
      case 'x':
        if (e.length === 1)
          throw badInput('\\x used with no following hex digits', {
            ...(where ? { location: where } : {}),
            hint: 'write \\x41, or \\\\x for a backslash followed by x',
          });
        return String.fromCharCode(Number.parseInt(e.slice(1), 16));
      case 'u':
      case 'U': {
        const digits = e[0] === 'u' ? 4 : 8;
        if (e.length !== digits + 1)
          throw badInput(`incomplete universal character name \\${e[0]}: it needs ${digits} hex digits`, {
            ...(where ? { location: where } : {}),
          });
        const cp = Number.parseInt(e.slice(1), 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
          throw badInput(`\\${e} is not a valid universal character name (a surrogate or above U+10FFFF)`, {
            ...(where ? { location: where } : {}),
          });
        return String.fromCodePoint(cp);
      }
      case 'a':
        return '\x07';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case 'e':
        return '\x1b';
      default:
        return e;
    }
  });
}
