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
/** Character classes of the first 128 code units (0: none of these). */
const C_SPACE = 1; // space, \t, \v, \f
const C_ID = 2; // identifier start (letters, _); every code unit >= 128 is one too
const C_DIGIT = 3;
const C_PUNCT = 4; // the first character of a punctuator
const CLASS = new Uint8Array(128);
for (const c of ' \t\v\f') CLASS[c.charCodeAt(0)] = C_SPACE;
for (let c = 0; c < 128; c++)
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) CLASS[c] = C_ID;
  else if (c >= 48 && c <= 57) CLASS[c] = C_DIGIT;
for (const c of '{}[]()<>;:,.?!~+-*/%^&|=#@$\\`') CLASS[c.charCodeAt(0)] = C_PUNCT;
/** The multi-character punctuators of length 2 and 3 as numbers (code units in base 65536). */
const PUNCT2 = new Set<number>();
const PUNCT3 = new Set<number>();
for (const p of PUNCTS) {
  if (p.length === 2) PUNCT2.add(p.charCodeAt(0) * 65536 + p.charCodeAt(1));
  else if (p.length === 3) PUNCT3.add((p.charCodeAt(0) * 65536 + p.charCodeAt(1)) * 65536 + p.charCodeAt(2));
}
/** Identifier characters after the first (letters, digits, _, every code unit >= 128). */
const ID_REST = /[\w\x80-\uffff]*/y;
const STRING_PREFIX = /^(u8|u|U|L|u8R|uR|UR|LR|R)$/;
const CHAR_PREFIX = /^(u8|u|U|L)$/;

const isIdPart = (c: number) => (c < 128 ? CLASS[c] === C_ID || CLASS[c] === C_DIGIT : c >= 128); // NaN (past the end): no
const isDigit = (c: number) => c >= 48 && c <= 57;

/** The length of the punctuator at `s[i]` (longest first, as PUNCTS), 0 when there is none. */
function punctLength(s: string, i: number, c: number): number {
  if (c === 37 /* % */ && s.startsWith('%:%:', i)) return 4;
  const n = s.length;
  const k2 = c * 65536 + (i + 1 < n ? s.charCodeAt(i + 1) : 0);
  if (PUNCT3.has(k2 * 65536 + (i + 2 < n ? s.charCodeAt(i + 2) : 0))) return 3;
  if (PUNCT2.has(k2)) return 2;
  return c < 128 && CLASS[c] === C_PUNCT ? 1 : 0;
}

/**
 * Tokenises `text` (one file). Newlines are not tokens: `bol` marks the first token of each logical
 * line (a line continued with backslash-newline is one logical line).
 *
 * Speed (docs/performance-tensix.md, issue 12): the scan does little per character in JavaScript —
 * comments, whitespace runs and identifiers are skipped with indexOf and a sticky regular expression,
 * and a token's line and column come from a cursor over the newlines — so that the first files of a
 * process, lexed before the engine has optimised anything, cost little.
 */
export function lex(text: string, file: string): Token[] {
  if (text.length > 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let s: string;
  // With continuations or carriage returns, the character stream is the text spliced, and the
  // physical position of every character is kept (splice()). Without (the common case), positions
  // come from the newline cursor below.
  let lines: Int32Array | undefined;
  let cols: Int32Array | undefined;
  if (text.indexOf('\\') < 0 && text.indexOf('\r') < 0) {
    s = text;
  } else {
    const sp = splice(text);
    s = sp.s;
    lines = sp.lines;
    cols = sp.cols;
  }
  const n = s.length;
  // the newline cursor (no splicing): `line` is the line of `lineStart`, `nextNl` the first newline
  // at or after it (n when none); moved forward to each token's start
  let line = 1;
  let lineStart = 0;
  let nextNl = s.indexOf('\n');
  if (nextNl < 0) nextNl = n;
  const at = (k: number) => {
    if (lines)
      return k < n ? { line: lines[k]!, col: cols![k]! } : { line: (n > 0 ? lines[n - 1]! : 0) + 1, col: 1 };
    // errors and the end: counted from the start
    let l = 1;
    let ls = 0;
    for (let p = s.indexOf('\n'); p >= 0 && p < Math.min(k, n); p = s.indexOf('\n', p + 1)) {
      l++;
      ls = p + 1;
    }
    if (k < n) return { line: l, col: k - ls + 1 };
    // past the end: the line after the last character's
    return { line: n > 0 && s.charCodeAt(n - 1) === 10 ? l : l + 1, col: 1 };
  };
  const out: Token[] = [];
  let bol = true;
  let space = false;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      bol = true;
      space = false;
      i++;
      continue;
    }
    const cls = c < 128 ? CLASS[c]! : C_ID;
    if (cls === C_SPACE) {
      i++;
      while (i < n) {
        const d = s.charCodeAt(i);
        if (d < 128 && CLASS[d] === C_SPACE) i++;
        else break;
      }
      space = true;
      continue;
    }
    // (no read past the end in the scan: the engine's optimised code would be thrown away there)
    const c1 = i + 1 < n ? s.charCodeAt(i + 1) : -1;
    if (c === 47 && c1 === 47) {
      const e = s.indexOf('\n', i + 2);
      i = e < 0 ? n : e;
      space = true;
      continue;
    }
    if (c === 47 && c1 === 42) {
      const end = s.indexOf('*/', i + 2);
      if (end < 0) throw badInput('unterminated /* comment', { location: { file, ...at(i) } });
      i = end + 2;
      space = true;
      continue;
    }
    const start = i;
    let kind: TokKind;
    if (cls === C_ID) {
      ID_REST.lastIndex = i + 1;
      ID_REST.test(s);
      i = ID_REST.lastIndex;
      // string/char literal prefixes: u8"…", L'…', R"(…)" — R (raw) prefixes strings only: `UR'x'`
      // is the identifier UR and then the character literal 'x', as in C++
      const q = i < n ? s.charCodeAt(i) : -1;
      if (
        (q === 34 && STRING_PREFIX.test(s.slice(start, i))) ||
        (q === 39 && CHAR_PREFIX.test(s.slice(start, i)))
      ) {
        if (s.charCodeAt(i - 1) === 82 /* R */) {
          const open = s.indexOf('(', i);
          const delim = s.slice(i + 1, open);
          const close = s.indexOf(`)${delim}"`, open);
          if (open < 0 || close < 0)
            throw badInput('unterminated raw string literal', { location: { file, ...at(start) } });
          i = close + delim.length + 2;
        } else i = quoted(s, i, file, at);
        kind = q === 34 ? 'string' : 'char';
      } else kind = 'ident';
    } else if (cls === C_DIGIT || (c === 46 && isDigit(c1))) {
      i = ppNumberEnd(s, i + 1);
      kind = 'number';
    } else if (c === 34 || c === 39) {
      i = quoted(s, i, file, at);
      kind = c === 34 ? 'string' : 'char';
    } else {
      const len = punctLength(s, i, c);
      if (len === 0)
        throw badInput(`unexpected character '${s[i]}'`, {
          location: { file, ...at(i) },
        });
      i += len;
      kind = 'punct';
    }
    let txt = s.slice(start, i);
    if (kind === 'punct' && txt.charCodeAt(0) === 37 /* % */) {
      if (txt === '%:') txt = '#';
      else if (txt === '%:%:') txt = '##';
    }
    // the position in `s` (for a spliced text, mapped to the physical one after the scan)
    while (nextNl < start) {
      line++;
      lineStart = nextNl + 1;
      nextNl = s.indexOf('\n', lineStart);
      if (nextNl < 0) nextNl = n;
    }
    const tl = line;
    const tc = start - lineStart + 1;
    // every token has all of Token's fields (one object shape for the preprocessor's and the
    // parser's property reads)
    out.push({
      kind,
      text: txt,
      file,
      line: tl,
      col: tc,
      bol,
      space,
      use: undefined,
      via: undefined,
      hide: undefined,
    });
    bol = false;
    space = false;
  }
  if (lines) physicalPositions(s, out, lines, cols!);
  const last = at(n);
  out.push({
    kind: 'eof',
    text: '',
    file,
    line: n === 0 ? 1 : last.line,
    col: n === 0 ? 1 : last.col,
    bol: true,
    space: false,
    use: undefined,
    via: undefined,
    hide: undefined,
  });
  return out;
}

/**
 * A spliced text's tokens (positions in `s` from the scan's newline cursor) given their physical
 * line and column: `lines`/`cols` of the character at each offset of `s`.
 */
function physicalPositions(s: string, out: Token[], lines: Int32Array, cols: Int32Array): void {
  const starts = [0];
  for (let p = s.indexOf('\n'); p >= 0; p = s.indexOf('\n', p + 1)) starts.push(p + 1);
  for (const t of out) {
    const k = starts[t.line - 1]! + t.col - 1;
    t.line = lines[k]!;
    t.col = cols[k]!;
  }
}

/**
 * Phase 2 of translation: backslash-newline continuations removed and lone carriage returns made
 * newlines, with the physical line and column of every character kept (typed arrays: one pass,
 * linear, no per-character allocation).
 */
function splice(text: string): { s: string; lines: Int32Array; cols: Int32Array } {
  const n0 = text.length;
  const lines = new Int32Array(n0);
  const cols = new Int32Array(n0);
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
  return { s: parts.join(''), lines, cols };
}

/** The end of a pp-number whose first character is before `i`: digits, letters, _, ., ' (digit separator), and e+ e- p+ p-. */
function ppNumberEnd(s: string, i: number): number {
  const n = s.length;
  while (i < n) {
    const d = s.charCodeAt(i);
    if (d === 43 || d === 45) {
      const e = s.charCodeAt(i - 1) | 32; // e/E, p/P
      if (e === 101 || e === 112) i++;
      else break;
    } else if (isIdPart(d) || d === 46) i++;
    else if (d === 39 && isIdPart(s.charCodeAt(i + 1))) i++;
    else break;
  }
  return i;
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
