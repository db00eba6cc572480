// The axsim playground (docs/playground.md): edit a program, run it in a worker on the library
// itself, look at lanes, tiles and timelines. This file is the shell: state, layout, keyboard.
import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { createEditor, type EditorHandle } from './editor.ts';
import { defaultOptions, EXAMPLES, loadInputs } from './examples.ts';
import type { ElementType, NumFormat } from './format.ts';
import type { AmxState, ErrorInfo, Isa, RunResult, StepState, TensixState } from './protocol.ts';
import { Runner } from './runner.ts';
import { decodeShared, encodeShared } from './url.ts';
import { AmxMemoryView, AmxPerfView, AmxRegsView } from './views/amx.tsx';
import { PtoCostView, PtoTilesView, PtoTraceView } from './views/pto.tsx';
import { StepField } from './views/StepField.tsx';
import { DiffView, DstView, LRegView, TimelineView } from './views/tensix.tsx';
import './style.css';

const TABS: Record<Isa, { id: string; label: string }[]> = {
  tensix: [
    { id: 'lregs', label: 'Lanes' },
    { id: 'dst', label: 'Dst tile' },
    { id: 'timeline', label: 'Timeline' },
    { id: 'diff', label: 'Diff' },
  ],
  amx: [
    { id: 'regs', label: 'Registers' },
    { id: 'memory', label: 'Memory' },
    { id: 'perf', label: 'Perf' },
  ],
  pto: [
    { id: 'tiles', label: 'Tiles' },
    { id: 'trace', label: 'Trace' },
    { id: 'cost', label: 'Cost' },
  ],
};

const FILE_EXT: Record<Isa, string> = { tensix: 'sfpu', amx: 'amx', pto: 'pto' };
const DEFAULT_EXAMPLE = 'tensix/relu.sfpu';
// `?limit=MS` changes the worker's time limit (for tests of the limit itself)
const limitParam = Number(new URLSearchParams(location.search).get('limit'));
const runner = new Runner(limitParam > 0 ? limitParam : undefined);
const inputCache = new Map<Isa, Promise<Record<string, Uint8Array>>>();

function inputsFor(isa: Isa): Promise<Record<string, Uint8Array>> {
  let p = inputCache.get(isa);
  if (!p) {
    p = loadInputs(isa);
    inputCache.set(isa, p);
  }
  return p;
}

function initialTheme(): 'light' | 'dark' {
  const saved = localStorage.getItem('axsim-theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * A text field for one run option (entry, arrays, ref, arguments): committing it (Enter, blur)
 * reruns. What is typed is kept as a draft until then, so a run ending while the user types does
 * not redraw the field with the old value (see StepField).
 */
function TextOption(p: {
  label: string;
  name: string;
  cls?: string;
  placeholder?: string;
  ariaLabel?: string;
  options: Record<string, string>;
  set: (name: string, value: string) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <label>
      {p.label}{' '}
      <input
        class={p.cls ?? 'args'}
        value={draft ?? p.options[p.name] ?? ''}
        placeholder={p.placeholder}
        onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
        onChange={(e) => {
          setDraft(null);
          p.set(p.name, (e.target as HTMLInputElement).value);
        }}
        data-testid={p.name}
        aria-label={p.ariaLabel}
      />
    </label>
  );
}

function App() {
  const [isa, setIsa] = useState<Isa>('tensix');
  const [example, setExample] = useState<string | undefined>(undefined);
  const [options, setOptions] = useState<Record<string, string>>(defaultOptions('tensix', DEFAULT_EXAMPLE));
  const [result, setResult] = useState<RunResult | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [status, setStatus] = useState<'loading' | 'running' | 'ok' | 'error'>('loading');
  const [stepState, setStepState] = useState<StepState | null>(null);
  const [tab, setTab] = useState('lregs');
  const [theme, setTheme] = useState(initialTheme);
  const [fmt, setFmt] = useState<NumFormat>('float');
  const [etype, setEtype] = useState<ElementType>('f32');
  const [diffA, setDiffA] = useState<TensixState | null>(null);
  const [diffB, setDiffB] = useState<TensixState | null>(null);
  const [ptoSel, setPtoSel] = useState(0);
  const [runs, setRuns] = useState(0);
  const editorDiv = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorHandle | null>(null);
  // the latest values, for callbacks created once (editor, timers)
  const cur = useRef({ isa, example, options, source: '' });
  cur.current.isa = isa;
  cur.current.example = example;
  cur.current.options = options;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const generation = useRef(0);
  const isaNow = useRef<Isa>('tensix');

  // integer Dst data reads best as integers: follow the input's format when it changes
  const dataFormat = result?.isa === 'tensix' ? result.format : undefined;
  useEffect(() => {
    if (dataFormat) setFmt(dataFormat === 'int32' ? 'int' : 'float');
  }, [dataFormat]);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem('axsim-theme', theme);
  }, [theme]);

  const run = useCallback(async () => {
    clearTimeout(timer.current);
    const { isa, example, options, source } = cur.current;
    const gen = ++generation.current;
    setStatus('running');
    const ext =
      isa === 'tensix' && options.lang === 'cpp'
        ? 'h'
        : isa === 'amx' && options.lang === 'c'
          ? 'c'
          : FILE_EXT[isa];
    const file = example ? example.slice(example.indexOf('/') + 1) : `playground.${ext}`;
    const inputs = await inputsFor(isa);
    const reply = await runner.run({ isa, source, file, options }, inputs);
    if (gen !== generation.current) return; // a newer run was started meanwhile
    if (reply.ok && reply.result) {
      setResult(reply.result);
      setError(null);
      setStepState(null);
      setDiffA(null);
      setDiffB(null);
      setPtoSel(0);
      setStatus('ok');
      editor.current?.showError(null);
      editor.current?.markLine(0, false);
    } else if (!reply.ok) {
      setError(reply.error);
      setStatus('error');
      editor.current?.showError(reply.error);
    }
    setRuns((n) => n + 1);
    const hash = await encodeShared({ isa, example, source, options });
    history.replaceState(null, '', `#${hash}`);
  }, []);

  const schedule = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(run, 500);
  }, [run]);

  // start: the run in the URL, else the default example
  useEffect(() => {
    const ed = createEditor(editorDiv.current!, {
      text: '',
      isa: 'tensix',
      onChange: (text) => {
        cur.current.source = text;
        schedule();
      },
      onRun: () => void run(),
    });
    editor.current = ed;
    (async () => {
      const shared = await decodeShared(location.hash);
      if (shared) {
        await load(shared.isa, shared.example, shared.source, shared.options);
      } else {
        const ex = EXAMPLES.find((e) => e.path === DEFAULT_EXAMPLE) ?? EXAMPLES[0]!;
        await load(ex.isa, ex.path, await ex.load(), defaultOptions(ex.isa, ex.path));
      }
    })();
  }, []);

  async function load(nextIsa: Isa, path: string | undefined, text: string, opts: Record<string, string>) {
    cur.current = { isa: nextIsa, example: path, options: opts, source: text };
    setIsa(nextIsa);
    setExample(path);
    setOptions(opts);
    setTab(TABS[nextIsa][0]!.id);
    // the old views stay until the new run is in (no layout jump), unless they are another ISA's
    if (nextIsa !== isaNow.current) setResult(null);
    isaNow.current = nextIsa;
    editor.current?.setIsa(nextIsa, opts.lang === 'c');
    editor.current?.setText(text); // schedules a run through onChange
    clearTimeout(timer.current);
    await run();
  }

  const chooseExample = async (path: string) => {
    const ex = EXAMPLES.find((e) => e.path === path);
    if (ex) await load(ex.isa, ex.path, await ex.load(), defaultOptions(ex.isa, ex.path));
  };

  const setOption = (k: string, v: string) => {
    const next = { ...cur.current.options, [k]: v };
    cur.current.options = next;
    if (k === 'lang') editor.current?.setIsa(cur.current.isa, v === 'c');
    setOptions(next);
    void run();
  };

  const steps = result && result.isa !== 'pto' ? result.steps : 0;
  const shown: StepState | null = result && result.isa !== 'pto' ? (stepState ?? result.final) : null;
  const step = shown ? shown.step : 0;
  // The step a relative move (◀ ▶, Alt+←/→) starts from: the last step asked of the worker, not the
  // rendered one. A second press before the first reply has been drawn (or before the key listener
  // below has been re-registered with the new render's values) would otherwise ask for the same step
  // twice and the press would be lost.
  const stepBase = useRef({
    result: null as RunResult | null,
    shown: 0,
    askedOf: null as RunResult | null,
    asked: 0,
  });
  stepBase.current.result = result;
  stepBase.current.shown = step;

  const goStep = async (k: number) => {
    if (!result || result.isa === 'pto' || steps === 0) return;
    const target = Math.max(0, Math.min(steps, k));
    stepBase.current.askedOf = result;
    stepBase.current.asked = target;
    const reply = await runner.step(target);
    if (reply.ok && reply.state) {
      setStepState(reply.state);
      const rec = result.records[target - 1];
      editor.current?.markLine(rec?.line ?? 0);
    } else if (!reply.ok) {
      setError(reply.error);
      editor.current?.showError(reply.error);
    }
  };

  const stepBy = (d: number) => {
    const b = stepBase.current;
    return goStep((b.askedOf === b.result ? b.asked : b.shown) + d);
  };

  const fetchDiff = async (which: 'a' | 'b', k: number) => {
    const reply = await runner.step(Math.max(0, Math.min(steps, k)));
    if (reply.ok && reply.state && reply.state.isa === 'tensix')
      (which === 'a' ? setDiffA : setDiffB)(reply.state);
  };

  useEffect(() => {
    // default diff: the step before the current one and the current one
    if (tab === 'diff' && result?.isa === 'tensix' && steps > 0 && !diffA && !diffB) {
      void fetchDiff('a', Math.max(0, step - 1)).then(() => fetchDiff('b', step));
    }
  }, [tab, result, diffA, diffB]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey) return;
      if (e.key === 'ArrowRight') void stepBy(1);
      else if (e.key === 'ArrowLeft') void stepBy(-1);
      else return;
      e.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });

  const onTabKey = (e: KeyboardEvent) => {
    const tabs = TABS[isa];
    const i = tabs.findIndex((t) => t.id === tab);
    let j = i;
    if (e.key === 'ArrowRight') j = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') j = (i + tabs.length - 1) % tabs.length;
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = tabs.length - 1;
    else return;
    e.preventDefault();
    setTab(tabs[j]!.id);
    document.getElementById(`tab-${tabs[j]!.id}`)?.focus();
  };

  const onLine = (line: number) => editor.current?.markLine(line);
  const rec = result && result.isa !== 'pto' && step > 0 ? result.records[step - 1] : undefined;
  const currentLine = rec && {
    line: rec.line,
    text: (shown?.isa === 'tensix' || shown?.isa === 'amx' ? shown.text : undefined) || rec.text,
  };

  return (
    <div class="app">
      <header class="top">
        <h1>axsim playground</h1>
        <label>
          example{' '}
          <select
            value={example ?? ''}
            onChange={(e) => void chooseExample((e.target as HTMLSelectElement).value)}
            data-testid="example"
          >
            {example === undefined ? <option value="">(your program)</option> : null}
            {(['tensix', 'amx', 'pto'] as const).map((g) => (
              <optgroup
                key={g}
                label={g === 'tensix' ? 'Tensix SFPU' : g === 'amx' ? 'Apple AMX' : 'Ascend PTO'}
              >
                {EXAMPLES.filter((e) => e.isa === g).map((e) => (
                  <option key={e.path} value={e.path}>
                    {e.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          ISA{' '}
          <select
            value={isa}
            data-testid="isa"
            onChange={async (e) => {
              const next = (e.target as HTMLSelectElement).value as Isa;
              const ex = EXAMPLES.find((x) => x.isa === next)!;
              await load(next, ex.path, await ex.load(), defaultOptions(next, ex.path));
            }}
          >
            <option value="tensix">Tensix SFPU</option>
            <option value="amx">Apple AMX</option>
            <option value="pto">Ascend PTO</option>
          </select>
        </label>
        {isa === 'tensix' ? (
          <>
            <label>
              arch{' '}
              <select
                value={options.arch}
                onChange={(e) => setOption('arch', (e.target as HTMLSelectElement).value)}
                data-testid="arch"
              >
                <option value="wormhole">wormhole</option>
                <option value="blackhole">blackhole</option>
              </select>
            </label>
            <label>
              Dst input{' '}
              <select
                value={options.input}
                onChange={(e) => setOption('input', (e.target as HTMLSelectElement).value)}
                data-testid="input"
              >
                <option value="tile.npy">tile.npy (fp32)</option>
                <option value="ramp-fp32">(i − 512) / 8 (fp32)</option>
                <option value="ramp-int32">i − 512 (int32)</option>
              </select>
            </label>
            <label>
              source{' '}
              <select
                value={options.lang === 'cpp' ? 'cpp' : 'asm'}
                onChange={(e) => setOption('lang', (e.target as HTMLSelectElement).value)}
                data-testid="lang"
              >
                <option value="asm">assembly (.sfpu)</option>
                <option value="cpp">C++ kernel (SFPI / LLK)</option>
              </select>
            </label>
            {options.lang === 'cpp' ? (
              <TextOption
                label="entry"
                name="entry"
                placeholder="ns::fn<8>"
                options={options}
                set={setOption}
              />
            ) : null}
          </>
        ) : isa === 'amx' ? (
          <>
            <label>
              gen{' '}
              <select
                value={options.gen}
                onChange={(e) => setOption('gen', (e.target as HTMLSelectElement).value)}
                data-testid="gen"
              >
                {['m1', 'm2', 'm3', 'm4'].map((g) => (
                  <option key={g} value={g}>
                    {g}
                  </option>
                ))}
              </select>
            </label>
            <label>
              source{' '}
              <select
                value={options.lang === 'c' ? 'c' : 'asm'}
                onChange={(e) => setOption('lang', (e.target as HTMLSelectElement).value)}
                data-testid="lang"
              >
                <option value="asm">assembly (.amx)</option>
                <option value="c">C kernel</option>
              </select>
            </label>
            {options.lang === 'c' ? (
              <>
                <TextOption
                  label="entry"
                  name="entry"
                  placeholder="main()"
                  options={options}
                  set={setOption}
                />
                <TextOption
                  label="arrays"
                  name="args"
                  placeholder="A=A16x64.npy C=f4:64x64"
                  options={options}
                  set={setOption}
                />
                <TextOption
                  label="ref"
                  name="ref"
                  cls="ref"
                  placeholder="(none)"
                  ariaLabel="reference function to compare the arrays with (--ref)"
                  options={options}
                  set={setOption}
                />
              </>
            ) : null}
          </>
        ) : (
          <>
            <label>
              profile{' '}
              <select
                value={options.profile}
                onChange={(e) => setOption('profile', (e.target as HTMLSelectElement).value)}
                data-testid="profile"
              >
                {['cpu', 'a2a3', 'a5'].map((g) => (
                  <option key={g} value={g}>
                    {g}
                  </option>
                ))}
              </select>
            </label>
            <TextOption label="arguments" name="args" options={options} set={setOption} />
          </>
        )}
        <span class="spacer" />
        <button
          type="button"
          onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
          aria-label={`switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`}
          data-testid="theme"
        >
          {theme === 'dark' ? '☀ light' : '☾ dark'}
        </button>
      </header>
      <main class="main">
        <section class="left" aria-label="editor">
          <div class="toolbar" role="toolbar" aria-label="run and step">
            <button
              type="button"
              class="primary"
              onClick={() => void run()}
              data-testid="run"
              aria-keyshortcuts="Control+Enter"
            >
              ▶ Run
            </button>
            <button
              type="button"
              onClick={() => void goStep(0)}
              disabled={steps === 0}
              data-testid="step-first"
              aria-label="first step"
              title="first step"
            >
              «
            </button>
            <button
              type="button"
              onClick={() => void stepBy(-1)}
              disabled={steps === 0 || step === 0}
              data-testid="step-back"
              aria-label="step back"
              title="step back (Alt+←)"
              aria-keyshortcuts="Alt+ArrowLeft"
            >
              ◀
            </button>
            <button
              type="button"
              onClick={() => void stepBy(1)}
              disabled={steps === 0 || step >= steps}
              data-testid="step-forward"
              aria-label="step forward"
              title="step forward (Alt+→)"
              aria-keyshortcuts="Alt+ArrowRight"
            >
              ▶
            </button>
            <button
              type="button"
              onClick={() => void goStep(steps)}
              disabled={steps === 0}
              data-testid="step-last"
              aria-label="last step"
              title="last step"
            >
              »
            </button>
            <StepField
              label="step"
              class="stepbox"
              value={step}
              max={steps}
              disabled={steps === 0}
              onCommit={(k) => void goStep(k)}
              testid="step"
              ariaLabel={`step, 0 to ${steps}`}
            >
              {' '}
              / <span data-testid="steps">{steps}</span>
            </StepField>
          </div>
          <div class="editor" ref={editorDiv} />
          <div
            class={`status ${status}`}
            role="status"
            aria-live="polite"
            data-testid="status"
            data-status={status}
            data-runs={runs}
          >
            {status === 'running' || status === 'loading' ? (
              'running…'
            ) : error ? (
              <>
                <b data-testid="error-category">{error.category}</b>
                {error.line !== undefined
                  ? ` at line ${error.line}${error.col !== undefined ? `:${error.col}` : ''}`
                  : ''}
                : <span data-testid="error-message">{error.message}</span>
                {error.hint ? <div class="hint">hint: {error.hint}</div> : null}
              </>
            ) : result ? (
              <span>
                ok ·{' '}
                {result.isa === 'pto'
                  ? `${result.instructions} tile instructions`
                  : `${steps || result.records.length} instructions${currentLine ? ` · step ${step}: line ${currentLine.line}: ${currentLine.text}` : ''}`}
                {result.isa !== 'pto' && result.stepNote ? <div class="hint">{result.stepNote}</div> : null}
              </span>
            ) : null}
          </div>
        </section>
        <section class="right" aria-label="views">
          <div role="tablist" aria-label="views" class="tabs" onKeyDown={onTabKey}>
            {TABS[isa].map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls="panel"
                tabIndex={tab === t.id ? 0 : -1}
                onClick={() => setTab(t.id)}
                data-testid={`tab-${t.id}`}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div id="panel" role="tabpanel" aria-labelledby={`tab-${tab}`} class="panel" data-testid="panel">
            {!result ? (
              <p class="muted">{status === 'error' ? 'Fix the error to see the views.' : 'Running…'}</p>
            ) : result.isa === 'tensix' && shown?.isa === 'tensix' ? (
              tab === 'dst' ? (
                <DstView
                  state={shown}
                  format={result.format}
                  tile={result.tile}
                  setTile={(t) => setOption('tile', String(t))}
                  fmt={fmt}
                  setFmt={setFmt}
                />
              ) : tab === 'timeline' ? (
                <TimelineView result={result} onLine={onLine} />
              ) : tab === 'diff' ? (
                <DiffView
                  a={diffA}
                  b={diffB}
                  steps={steps}
                  setA={(n) => void fetchDiff('a', n)}
                  setB={(n) => void fetchDiff('b', n)}
                  fmt={fmt}
                />
              ) : (
                <LRegView state={shown} fmt={fmt} setFmt={setFmt} />
              )
            ) : result.isa === 'amx' && shown?.isa === 'amx' ? (
              tab === 'memory' ? (
                <AmxMemoryView
                  result={result}
                  state={shown as AmxState}
                  t={etype}
                  setT={setEtype}
                  ranges={options.mem ?? ''}
                  setRanges={(r) => setOption('mem', r)}
                />
              ) : tab === 'perf' ? (
                <AmxPerfView result={result} />
              ) : (
                <AmxRegsView state={shown as AmxState} t={etype} setT={setEtype} />
              )
            ) : result.isa === 'pto' ? (
              tab === 'trace' ? (
                <PtoTraceView result={result} onLine={onLine} selected={ptoSel} select={setPtoSel} />
              ) : tab === 'cost' ? (
                <PtoCostView
                  result={result}
                  cost={options.cost ?? 'a2a3'}
                  setCost={(a) => setOption('cost', a)}
                />
              ) : (
                <PtoTilesView result={result} />
              )
            ) : null}
          </div>
        </section>
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
