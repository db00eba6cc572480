// The CodeMirror 6 editor: the language of the chosen ISA, errors as lint diagnostics (underlined
// at line:col with the message and hint), and the line of the current step highlighted.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { C_LANGUAGE, HIGHLIGHT, LANGUAGES } from './langs.ts';
import type { ErrorInfo, Isa } from './protocol.ts';

const setStepLine = StateEffect.define<number>();
const stepLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setStepLine)) continue;
      const n = e.value;
      if (n < 1 || n > tr.state.doc.lines) return Decoration.none;
      const line = tr.state.doc.line(n);
      return Decoration.set([Decoration.line({ class: 'cm-stepLine' }).range(line.from)]);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export interface EditorHandle {
  view: EditorView;
  setText(text: string): void;
  /** The language of `isa`; `c` picks C (the AMX C kernel mode). */
  setIsa(isa: Isa, c?: boolean): void;
  showError(e: ErrorInfo | null): void;
  markLine(line: number, scroll?: boolean): void;
}

export function createEditor(
  parent: HTMLElement,
  opts: { text: string; isa: Isa; onChange: (text: string) => void; onRun: () => void },
): EditorHandle {
  const lang = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.text,
      extensions: [
        lineNumbers(),
        history(),
        bracketMatching(),
        highlightActiveLine(),
        lintGutter(),
        stepLine,
        syntaxHighlighting(HIGHLIGHT),
        lang.of(LANGUAGES[opts.isa]),
        keymap.of([
          {
            key: 'Mod-Enter',
            run: () => {
              opts.onRun();
              return true;
            },
          },
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        EditorView.contentAttributes.of({ 'aria-label': 'program source' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) opts.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setIsa(isa, c = false) {
      view.dispatch({ effects: lang.reconfigure(c && isa === 'amx' ? C_LANGUAGE : LANGUAGES[isa]) });
    },
    showError(e) {
      const diags: Diagnostic[] = [];
      if (e) {
        const doc = view.state.doc;
        const n = e.line !== undefined && e.line >= 1 && e.line <= doc.lines ? e.line : 1;
        const line = doc.line(n);
        let from = e.col !== undefined ? Math.min(line.from + Math.max(e.col - 1, 0), line.to) : line.from;
        // underline from the column to the end of the token there (or the whole line without one)
        let to = line.to;
        if (e.col !== undefined) {
          const rest = doc.sliceString(from, line.to);
          const tok = /^[\w.:%@$#-]+/.exec(rest);
          to = tok ? from + tok[0].length : line.to;
        }
        if (to <= from) {
          from = line.from;
          to = Math.max(line.to, line.from);
        }
        diags.push({
          from,
          to,
          severity: 'error',
          message: `${e.category}: ${e.message}${e.hint ? `\nhint: ${e.hint}` : ''}`,
        });
      }
      view.dispatch(setDiagnostics(view.state, diags));
    },
    markLine(line, scroll = true) {
      const effects: StateEffect<unknown>[] = [setStepLine.of(line)];
      if (scroll && line >= 1 && line <= view.state.doc.lines) {
        effects.push(EditorView.scrollIntoView(view.state.doc.line(line).from, { y: 'center' }));
      }
      view.dispatch({ effects });
    },
  };
}
