// Tensix views: the LReg lanes grid with lane enables and the CC (flag) stack, the Dst tile heat
// map, the sub-unit timeline of the cycle model, and the diff of two steps.
import { useState } from 'preact/hooks';
import { fmtBits32, heatOf, hex32, type NumFormat } from '../format.ts';
import type { TensixResult, TensixState, TimelineCell } from '../protocol.ts';
import { HeatGrid } from './HeatGrid.tsx';
import { StepField } from './StepField.tsx';

const LANES = 32;

export function FormatToggle(p: { value: NumFormat; onChange: (f: NumFormat) => void; id: string }) {
  return (
    <fieldset class="toggle" aria-label="number format">
      <legend>values as</legend>
      {(['float', 'hex', 'int'] as const).map((f) => (
        <label key={f}>
          <input
            type="radio"
            name={p.id}
            value={f}
            checked={p.value === f}
            onChange={() => p.onChange(f)}
            data-testid={`${p.id}-${f}`}
          />
          {f}
        </label>
      ))}
    </fieldset>
  );
}

/** LReg[0..7] x 32 lanes as a table: lanes down, registers across, enabled lanes marked. */
export function LRegView(p: { state: TensixState; fmt: NumFormat; setFmt: (f: NumFormat) => void }) {
  const s = p.state;
  return (
    <section class="view" aria-label="LRegs and lane flags" id="view-lregs">
      <div class="view-bar">
        <FormatToggle id="lreg-fmt" value={p.fmt} onChange={p.setFmt} />
        <span class="flags" data-testid="lane-flags">
          lane flags {p.state.useLaneFlags ? 'on' : 'off'} · LaneFlags {hex32(s.laneFlags)} · enabled{' '}
          {hex32(s.enabled)}
        </span>
      </div>
      <div class="lreg-wrap">
        <table class="lregs" data-step={s.step}>
          <caption>
            LReg 0 to 7 by lane 0 to 31 after step {s.step}, values as {p.fmt}; ● = lane enabled
          </caption>
          <thead>
            <tr>
              <th scope="col">lane</th>
              {Array.from({ length: 8 }, (_, r) => (
                <th key={r} scope="col">
                  L{r}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: LANES }, (_, l) => {
              const en = (s.enabled >>> l) & 1;
              return (
                <tr key={l} class={en ? 'lane on' : 'lane off'} data-lane-enabled={en}>
                  <th scope="row">
                    <span aria-hidden="true">{en ? '●' : '○'}</span> {l}
                    <span class="sr-only">{en ? ' enabled' : ' disabled'}</span>
                  </th>
                  {Array.from({ length: 8 }, (_, r) => {
                    const b = s.lreg[r * LANES + l]!;
                    return (
                      <td key={r} data-lreg={r} data-lane={l} data-bits={b >>> 0}>
                        {fmtBits32(b, p.fmt)}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
        <div class="ccstack">
          <h3>CC stack</h3>
          <p data-testid="stack-size">depth {s.stackSize}</p>
          <ol aria-label="CC (flag) stack entries, oldest first">
            {s.stack.length === 0 ? <li class="muted">empty</li> : null}
            {s.stack.map((e, k) => (
              <li key={k} data-testid="stack-entry">
                {hex32(e.flags)} {e.en ? 'enable' : 'no-enable'}
              </li>
            ))}
          </ol>
          <p>
            RWC Dst <span data-testid="rwc-dst">{s.rwcDst}</span>
          </p>
        </div>
      </div>
    </section>
  );
}

export function DstView(p: {
  state: TensixState;
  format: string;
  tile: number;
  setTile: (t: number) => void;
  fmt: NumFormat;
  setFmt: (f: NumFormat) => void;
}) {
  const s = p.state;
  const rows = new Set(s.touched?.rows ?? []);
  return (
    <section class="view" aria-label="Dst tile" id="view-dst" data-step={s.step}>
      <div class="view-bar">
        <FormatToggle id="dst-fmt" value={p.fmt} onChange={p.setFmt} />
        <label>
          tile{' '}
          <select
            value={p.tile}
            onChange={(e) => p.setTile(Number((e.target as HTMLSelectElement).value))}
            data-testid="dst-tile"
          >
            {Array.from({ length: 8 }, (_, t) => (
              <option key={t} value={t}>
                {t} (rows {t * 64}–{t * 64 + 63})
              </option>
            ))}
          </select>
        </label>
        <span data-testid="dst-touched">
          {s.touched
            ? `rows ${s.touched.rows[0]}–${s.touched.rows[3]} ${s.touched.store ? 'written (SFPSTORE)' : 'read (SFPLOAD)'} by step ${s.step}`
            : `step ${s.step}: no Dst access`}
        </span>
      </div>
      <HeatGrid
        id="dst-grid"
        label={`Dst tile ${p.tile} (${p.format} view: rows ${p.tile * 64}–${p.tile * 64 + 63} x 16 columns), step ${s.step}`}
        rows={64}
        cols={16}
        heat={s.dst.map((b) => heatOf(b, p.fmt))}
        text={(i) => fmtBits32(s.dst[i]!, p.fmt)}
        rowHighlight={new Set([...rows].map((r) => r - p.tile * 64))}
        raw={s.dst.map((b) => b >>> 0).join(' ')}
        cell={26}
        rowLabel={(r) => `Dst row ${p.tile * 64 + r}`}
      />
    </section>
  );
}

const UNIT_LABEL: Record<string, string> = {
  issue: 'issue',
  load: 'Load',
  simple: 'Simple',
  mad: 'MAD',
  round: 'Round',
  store: 'Store',
};

export function TimelineView(p: { result: TensixResult; onLine: (line: number) => void }) {
  const t = p.result.timeline;
  const cols = ['issue', ...t.units];
  const [cur, setCur] = useState({ cycle: 0, unit: 1 });
  if (t.error)
    return (
      <section class="view" id="view-timeline">
        <p class="error">cycle model: {t.error}</p>
      </section>
    );
  const byKey = new Map<string, TimelineCell[]>();
  for (const c of t.cells) {
    const k = `${c.cycle}:${c.unit}`;
    const list = byKey.get(k);
    if (list) list.push(c);
    else byKey.set(k, [c]);
  }
  const cw = 132;
  const rh = 18;
  const left = 48;
  const shown = Math.max(1, t.shown);
  const at = (cycle: number, unit: number) => byKey.get(`${cycle}:${cols[unit]}`)?.[0];
  const onKey = (e: KeyboardEvent) => {
    let { cycle, unit } = cur;
    if (e.key === 'ArrowDown') cycle++;
    else if (e.key === 'ArrowUp') cycle--;
    else if (e.key === 'ArrowRight') unit++;
    else if (e.key === 'ArrowLeft') unit--;
    else if (e.key === 'PageDown') cycle += 16;
    else if (e.key === 'PageUp') cycle -= 16;
    else if (e.key === 'Enter') {
      const c = at(cycle, unit);
      if (c?.line) p.onLine(c.line);
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    setCur({
      cycle: Math.max(0, Math.min(shown - 1, cycle)),
      unit: Math.max(0, Math.min(cols.length - 1, unit)),
    });
    const el = document.getElementById('tl-scroll');
    if (el) {
      const y = cycle * rh;
      if (y < el.scrollTop + rh || y > el.scrollTop + el.clientHeight - 2 * rh)
        el.scrollTop = Math.max(0, y - el.clientHeight / 2);
    }
  };
  const curCell = at(cur.cycle, cur.unit);
  return (
    <section class="view" aria-label="sub-unit timeline" id="view-timeline">
      <div class="view-bar">
        <span data-testid="timeline-summary">
          {p.result.arch}: {t.cycles} cycles · busy{' '}
          {t.units.map((u) => `${UNIT_LABEL[u]} ${t.busy[u] ?? 0}`).join(', ')} · hazards {t.hazardCount}
          {t.shown < t.cycles && !t.note ? ` · first ${t.shown} cycles shown` : ''}
          {t.note ? ` · ${t.note}` : ''}
        </span>
      </div>
      <div class="tl-head" style={{ width: `${left + cols.length * cw}px` }} aria-hidden="true">
        <span style={{ width: `${left}px` }}>t</span>
        {cols.map((u) => (
          <span key={u} style={{ width: `${cw}px` }}>
            {UNIT_LABEL[u]}
          </span>
        ))}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a cursor over an SVG drawing (up to 1500 cycles x 6 columns); a table of that size would be heavy */}
      <div
        id="tl-scroll"
        class="tl-scroll"
        tabIndex={0}
        role="grid"
        aria-label="timeline: cycles down, sub-units across; arrow keys move, Enter shows the source line"
        aria-describedby="tl-readout"
        onKeyDown={onKey}
      >
        <svg width={left + cols.length * cw} height={shown * rh} data-cycles={t.cycles} aria-hidden="true">
          {t.cells.map((c, i) => {
            const u = cols.indexOf(c.unit);
            const x = left + u * cw;
            const y = c.cycle * rh;
            return (
              // biome-ignore lint/a11y/noStaticElementInteractions: a mouse shortcut; the keyboard has the grid cursor and Enter
              <g
                key={i}
                class={`tl-cell${c.hazard ? ' hazard' : ''}${c.note ? ` ${c.note}` : ''}${c.scheduled ? ' sched' : ''}`}
                data-cycle={c.cycle}
                data-unit={c.unit}
                data-line={c.line}
                data-hazard={c.hazard ?? ''}
                onClick={() => {
                  setCur({ cycle: c.cycle, unit: u });
                  if (c.line) p.onLine(c.line);
                }}
              >
                <rect x={x + 1} y={y + 1} width={cw - 2} height={rh - 2} rx={3} />
                <text x={x + 5} y={y + 13}>
                  {c.text.length > 22 ? `${c.text.slice(0, 21)}…` : c.text}
                </text>
                <title>
                  {`cycle ${c.cycle}, ${UNIT_LABEL[c.unit]}: ${c.text}${c.line ? ` (line ${c.line})` : ''}${c.note ? ` — ${c.note}` : ''}${c.hazard ? ` — hazard ${c.hazard}` : ''}`}
                </title>
              </g>
            );
          })}
          {Array.from({ length: Math.ceil(shown / 4) }, (_, k) => (
            <text key={`t${k}`} x={4} y={k * 4 * rh + 13} class="muted">
              {k * 4}
            </text>
          ))}
          <rect
            class="tl-cursor"
            x={left + cur.unit * cw}
            y={cur.cycle * rh}
            width={cw}
            height={rh}
            fill="none"
          />
        </svg>
      </div>
      <div id="tl-readout" class="readout" aria-live="polite">
        cycle {cur.cycle}, {UNIT_LABEL[cols[cur.unit]!]}:{' '}
        {curCell
          ? `${curCell.text}${curCell.line ? ` — line ${curCell.line}` : ''}${curCell.hazard ? ` — hazard ${curCell.hazard}` : ''}`
          : 'idle'}
      </div>
      {t.hazards.length ? (
        <ul class="hazards" aria-label="hazards">
          {t.hazards.slice(0, 50).map((h, i) => (
            <li key={i} data-testid="hazard">
              <button type="button" class="linklike" onClick={() => h.line && p.onLine(h.line)}>
                cycle {h.cycle}, line {h.line || '?'}
              </button>{' '}
              <b>{h.id}</b>: {h.message}
              <div class="muted">
                {h.what}. Rule: {h.source}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted" data-testid="no-hazards">
          No hazards: the documented timing rules hold for this program.
        </p>
      )}
    </section>
  );
}

/** What changed between the states after step A and step B. */
export function DiffView(p: {
  a: TensixState | null;
  b: TensixState | null;
  steps: number;
  setA: (n: number) => void;
  setB: (n: number) => void;
  fmt: NumFormat;
}) {
  const rows: { what: string; before: string; after: string }[] = [];
  const { a, b } = p;
  if (a && b) {
    for (let r = 0; r < 8; r++)
      for (let l = 0; l < LANES; l++) {
        const x = a.lreg[r * LANES + l]!;
        const y = b.lreg[r * LANES + l]!;
        if (x !== y)
          rows.push({ what: `L${r} lane ${l}`, before: fmtBits32(x, p.fmt), after: fmtBits32(y, p.fmt) });
      }
    if (a.laneFlags !== b.laneFlags)
      rows.push({ what: 'LaneFlags', before: hex32(a.laneFlags), after: hex32(b.laneFlags) });
    if (a.useLaneFlags !== b.useLaneFlags)
      rows.push({ what: 'lane flags on', before: String(a.useLaneFlags), after: String(b.useLaneFlags) });
    if (a.stackSize !== b.stackSize)
      rows.push({ what: 'CC stack depth', before: String(a.stackSize), after: String(b.stackSize) });
    if (a.rwcDst !== b.rwcDst)
      rows.push({ what: 'RWC Dst', before: String(a.rwcDst), after: String(b.rwcDst) });
    for (let i = 0; i < a.dst.length; i++)
      if (a.dst[i] !== b.dst[i])
        rows.push({
          what: `Dst row ${i >> 4} col ${i & 15}`,
          before: fmtBits32(a.dst[i]!, p.fmt),
          after: fmtBits32(b.dst[i]!, p.fmt),
        });
  }
  return (
    <section class="view" aria-label="diff of two steps" id="view-diff">
      <div class="view-bar">
        <StepField label="from step" value={a?.step ?? 0} max={p.steps} onCommit={p.setA} testid="diff-a" />
        <StepField label="to step" value={b?.step ?? 0} max={p.steps} onCommit={p.setB} testid="diff-b" />
        <span data-testid="diff-count">{rows.length} changes</span>
      </div>
      <table class="diff">
        <thead>
          <tr>
            <th scope="col">state</th>
            <th scope="col">step {a?.step ?? '-'}</th>
            <th scope="col">step {b?.step ?? '-'}</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, 400).map((r) => (
            <tr key={r.what} data-what={r.what}>
              <td>{r.what}</td>
              <td>{r.before}</td>
              <td>{r.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > 400 ? <p class="muted">… {rows.length - 400} more</p> : null}
    </section>
  );
}
