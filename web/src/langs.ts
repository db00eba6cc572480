// Syntax highlighting: small CodeMirror stream modes for the three input languages.
// Tensix: tt-llk TTI_* macro calls, canonical SFPU text and the .sfpu directives/C++ constants;
// AMX: the .amx text (docs/amx.md) and C kernels with the AMX_* macros; PTO: PTO-AS (MLIR-like,
// docs/pto-as.md).
import { HighlightStyle, StreamLanguage, type StreamParser, type StringStream } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import type { Isa } from './protocol.ts';

interface CState {
  comment: boolean;
}

const number = /^(0x[0-9a-fA-F]+|0b[01]+|[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)[uUlLfF]*/;

/**
 * White space and C comments (`//` to the end of the line, `/* ... *\/` over lines): the token's
 * style, or undefined when the stream is at neither.
 */
function cSpaceOrComment(s: StringStream, st: CState): string | null | undefined {
  if (st.comment) {
    if (s.skipTo('*/')) {
      s.next();
      s.next();
      st.comment = false;
    } else s.skipToEnd();
    return 'comment';
  }
  if (s.eatSpace()) return null;
  if (s.match('//')) {
    s.skipToEnd();
    return 'comment';
  }
  if (s.match('/*')) {
    st.comment = true;
    return 'comment';
  }
  return undefined;
}

const tensix: StreamParser<CState> = {
  name: 'tensix',
  startState: () => ({ comment: false }),
  token(s, st) {
    const c = cSpaceOrComment(s, st);
    if (c !== undefined) return c;
    if (s.match(/^#\s*\w+/)) return 'meta';
    if (s.match(/^\.(rept|endr|word|macro|endm)\b/)) return 'meta';
    if (s.match(/^TT(I|_OP)_\w+/)) return 'keyword';
    if (s.match(/^(SFP\w+|NOP|SETRWC|INCRWC|SETC16|STALLWAIT|REPLAY|RMWCIB\d?)\b/)) return 'keyword';
    // SFPI (C++ with vector types and predication macros)
    if (s.match(/^(v_if|v_elseif|v_else|v_endif|v_and|vFloat|vInt|vUInt|dst_reg|vConst\w*)\b/))
      return 'keyword';
    if (s.match(/^(constexpr|const|std::u?int\d+_t|u?int\d+_t|unsigned|int|auto|for|if|else|return)\b/))
      return 'typeName';
    if (s.match(/^(\w+::)+\w+/)) return 'atom';
    if (s.match(number)) return 'number';
    if (s.match(/^"([^"\\]|\\.)*"?/)) return 'string';
    if (s.match(/^\w+/)) return 'variableName';
    s.next();
    return 'punctuation';
  },
};

const amx: StreamParser<{ start: boolean }> = {
  name: 'amx',
  startState: () => ({ start: true }),
  token(s, st) {
    if (s.sol()) st.start = true;
    if (s.eatSpace()) return null;
    if (s.match(/^[;#]/)) {
      s.skipToEnd();
      return 'comment';
    }
    if (s.match(/^\.\w+/)) {
      st.start = false;
      return 'meta';
    }
    if (st.start && s.match(/^\w+/)) {
      st.start = false;
      return 'keyword';
    }
    if (s.match(/^\w+(?==)/)) return 'propertyName';
    if (s.match(/^-?(0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)/)) return 'number';
    if (s.match(/^(f16|f32|f64|bf16|u8|i8|u16|i16|u32|i32|u64|i64)\b/)) return 'typeName';
    if (s.match(/^\w+/)) return 'variableName';
    s.next();
    return 'punctuation';
  },
};

const pto: StreamParser<CState> = {
  name: 'pto',
  startState: () => ({ comment: false }),
  token(s) {
    if (s.eatSpace()) return null;
    if (s.match('//')) {
      s.skipToEnd();
      return 'comment';
    }
    if (s.match(/^(pto|arith|scf|func|memref)\.[\w.]+/)) return 'keyword';
    if (s.match(/^(module|ins|outs|return|to|step|iter_args|attributes)\b/)) return 'keyword';
    if (s.match(/^%[\w$.-]+/)) return 'variableName';
    if (s.match(/^@[\w$.-]+/)) return 'function(variableName)';
    if (s.match(/^![\w.]+/)) return 'typeName';
    if (s.match(/^#[\w.]+/)) return 'meta';
    if (s.match(/^(f16|f32|bf16|i1|i8|i16|i32|i64|ui8|ui16|ui32|index)\b/)) return 'typeName';
    if (s.match(/^-?(0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)/)) return 'number';
    if (s.match(/^"([^"\\]|\\.)*"?/)) return 'string';
    if (s.match(/^\w+/)) return 'propertyName';
    s.next();
    return 'punctuation';
  },
};

/** C kernels (AMX C mode): C with the AMX_* macros of axsim's aarch64.h as keywords. */
const cKernel: StreamParser<CState> = {
  name: 'c',
  startState: () => ({ comment: false }),
  token(s, st) {
    const c = cSpaceOrComment(s, st);
    if (c !== undefined) return c;
    if (s.match(/^#\s*\w+/)) return 'meta';
    if (s.match(/^AMX_\w+/)) return 'keyword';
    if (
      s.match(
        /^(if|else|for|while|do|return|break|continue|switch|case|default|goto|sizeof|static|inline|const|volatile|extern|typedef|struct|union|enum|restrict)\b/,
      )
    )
      return 'keyword';
    if (
      s.match(
        /^(void|char|short|int|long|float|double|signed|unsigned|_Bool|bool|size_t|u?int(8|16|32|64|ptr)_t)\b/,
      )
    )
      return 'typeName';
    if (s.match(number)) return 'number';
    if (s.match(/^"([^"\\]|\\.)*"?/) || s.match(/^<[\w./]+>/) || s.match(/^'([^'\\]|\\.)*'?/))
      return 'string';
    if (s.match(/^\w+/)) return 'variableName';
    s.next();
    return 'punctuation';
  },
};

export const LANGUAGES: Record<Isa, StreamLanguage<unknown>> = {
  tensix: StreamLanguage.define(tensix) as StreamLanguage<unknown>,
  amx: StreamLanguage.define(amx) as StreamLanguage<unknown>,
  pto: StreamLanguage.define(pto) as StreamLanguage<unknown>,
};

/** The AMX C kernel mode's language. */
export const C_LANGUAGE = StreamLanguage.define(cKernel) as StreamLanguage<unknown>;

/** Colours come from CSS variables, so the light and dark themes both apply. */
export const HIGHLIGHT = HighlightStyle.define([
  { tag: t.comment, color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: t.keyword, color: 'var(--hl-keyword)', fontWeight: '600' },
  { tag: t.meta, color: 'var(--hl-meta)' },
  { tag: t.number, color: 'var(--hl-number)' },
  { tag: t.string, color: 'var(--hl-string)' },
  { tag: t.typeName, color: 'var(--hl-type)' },
  { tag: t.atom, color: 'var(--hl-atom)' },
  { tag: [t.variableName, t.function(t.variableName)], color: 'var(--hl-var)' },
  { tag: t.propertyName, color: 'var(--hl-prop)' },
]);
