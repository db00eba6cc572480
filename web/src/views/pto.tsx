// PTO views: every tile as a grid with its valid region outlined, the op-by-op trace, and the cost
// of each op under each cost model as bars (ops a model does not cover are marked).

import { fmtFloat } from '../format.ts';
import type { PtoResult, TileView } from '../protocol.ts';
import { HeatGrid } from './HeatGrid.tsx';

function num(v: number | string): number {
  return typeof v === 'number' ? v : Number(v);
}

function text(v: number | string): string {
  return typeof v === 'number' ? (Number.isInteger(v) ? String(v) : fmtFloat(v)) : v;
}

export function TileGrid(p: { t: TileView; id: string }) {
  const t = p.t;
  return (
    <HeatGrid
      id={p.id}
      label={`${t.name}: ${t.dtype} ${t.rows}x${t.cols}, valid ${t.validRow}x${t.validCol} (outlined)`}
      rows={t.rows}
      cols={t.cols}
      heat={t.values.map(num)}
      text={(i) => text(t.values[i]!)}
      outline={{ rows: t.validRow, cols: t.validCol }}
      raw={t.values.map(String).join(' ')}
      cell={Math.max(6, Math.min(22, Math.floor(560 / t.cols)))}
    />
  );
}

export function PtoTilesView(p: { result: PtoResult }) {
  const r = p.result;
  return (
    <section class="view" aria-label="PTO tiles and arrays" id="view-pto-tiles">
      <p data-testid="pto-summary">
        {r.instructions} tile instructions on profile {r.profile}
      </p>
      {r.notes.length ? (
        <ul class="muted">
          {r.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}
      <h3>Tiles (last value of each)</h3>
      <div class="tiles">
        {r.tiles.map((t) => (
          <TileGrid key={t.name} t={t} id={`tile-${t.name.slice(1)}`} />
        ))}
      </div>
      <h3>Global memory</h3>
      <div class="tiles">
        {r.arrays.map((a) => {
          const rows = a.shape.length >= 2 ? a.shape.slice(0, -1).reduce((x, y) => x * y, 1) : 1;
          const cols = a.shape.at(-1) ?? a.values.length;
          return (
            <HeatGrid
              key={a.name}
              id={`array-${a.name}`}
              label={`${a.name}: ${a.dtype} ${a.shape.join('x')}${a.written ? ' (stored to)' : ''}`}
              rows={rows}
              cols={cols}
              heat={a.values.map(num)}
              text={(i) => text(a.values[i]!)}
              raw={a.values.map(String).join(' ')}
              cell={Math.max(6, Math.min(22, Math.floor(560 / cols)))}
            />
          );
        })}
      </div>
    </section>
  );
}

export function PtoTraceView(p: {
  result: PtoResult;
  onLine: (n: number) => void;
  selected: number;
  select: (i: number) => void;
}) {
  const r = p.result;
  const sel = r.trace[p.selected];
  return (
    <section class="view" aria-label="op-by-op trace" id="view-pto-trace">
      <table class="trace">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">line</th>
            <th scope="col">op</th>
            <th scope="col">inputs</th>
            <th scope="col">outputs</th>
          </tr>
        </thead>
        <tbody>
          {r.trace.map((e, i) => (
            <tr key={i} class={i === p.selected ? 'selected' : ''} data-insn={e.insn}>
              <td>{i}</td>
              <td>
                <button
                  type="button"
                  class="linklike"
                  onClick={() => {
                    p.select(i);
                    p.onLine(e.line);
                  }}
                  aria-label={`op ${i}, ${e.insn} at line ${e.line}: show`}
                >
                  {e.line}:{e.col}
                </button>
              </td>
              <td>
                {e.op} ({e.insn})
              </td>
              <td>{e.inputs.join(', ')}</td>
              <td>{e.outputs.map((o) => `${o.name} ${o.dtype} ${o.validRow}x${o.validCol}`).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {sel ? (
        <div class="tiles">
          {sel.outputs.map((t, k) => (
            <TileGrid key={k} t={t} id={`trace-out-${k}`} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

const MODEL_CLASS: Record<string, string> = {
  seed: 'bar-seed',
  'pto-isa': 'bar-ptoisa',
  formula: 'bar-formula',
};

export function PtoCostView(p: { result: PtoResult; cost: string; setCost: (a: string) => void }) {
  const costs = p.result.costs;
  // one group of bars per source op (line:col), one bar per model
  const ops: { key: string; label: string }[] = [];
  for (const c of costs)
    for (const r of c.rows) {
      const key = `${r.line}:${r.col}`;
      if (!ops.some((o) => o.key === key)) ops.push({ key, label: `${r.op} (line ${r.line})` });
    }
  let max = 1;
  for (const c of costs) for (const r of c.rows) if (r.cycles !== null) max = Math.max(max, r.cycles);
  const w = 360;
  // logarithmic: the models differ by orders of magnitude (the formula model's transfers ~1000x)
  const len = (x: number) => (x <= 0 ? 1 : Math.max(2, (Math.log10(1 + x) / Math.log10(1 + max)) * w));
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
  const warnings = [...new Set(costs.flatMap((c) => c.warnings))];
  const bh = 12;
  const group = costs.length * bh + 10;
  return (
    <section class="view" aria-label="cost per op per model" id="view-pto-cost">
      <div class="view-bar">
        <label>
          cost arch{' '}
          <select
            value={p.cost}
            onChange={(e) => p.setCost((e.target as HTMLSelectElement).value)}
            data-testid="pto-cost-arch"
          >
            <option value="a2a3">a2a3</option>
            <option value="a5">a5</option>
          </select>
        </label>
        <span class="legend">
          {costs.map((c) => (
            <span key={c.model}>
              <span class={`sw ${MODEL_CLASS[c.model]}`} /> {c.model}{' '}
            </span>
          ))}
          <span class="sw uncovered" /> not modelled
        </span>
      </div>
      <ul class="totals">
        {costs.map((c) => (
          <li key={c.model} data-model={c.model} data-total={c.error ? '' : c.total}>
            {c.model}:{' '}
            {c.error ? (
              <span class="muted">{c.error}</span>
            ) : (
              `${fmt(c.total)} cycles${c.partial ? ' (PARTIAL: some ops not modelled)' : ''}`
            )}
          </li>
        ))}
      </ul>
      {warnings.map((x) => (
        <p key={x} class="warning">
          {x}
        </p>
      ))}
      <p class="muted">bar length: log scale</p>
      <svg
        width={200 + w + 90}
        height={ops.length * group + 8}
        role="img"
        aria-label="cycles per op, one bar per cost model"
      >
        {ops.map((o, i) => (
          <g key={o.key} data-op={o.key}>
            <text x={4} y={i * group + bh + 2}>
              {o.label.length > 28 ? `${o.label.slice(0, 27)}…` : o.label}
            </text>
            {costs.map((c, k) => {
              const r = c.rows.find((x) => `${x.line}:${x.col}` === o.key);
              const y = i * group + k * bh + 2;
              if (c.error) return null;
              if (!r || r.cycles === null) {
                return (
                  <g key={c.model} data-model={c.model} data-cycles="">
                    <rect x={200} y={y} width={60} height={bh - 2} class="uncovered" />
                    <text x={264} y={y + bh - 3} class="muted">
                      not modelled
                      <title>{r?.note ?? `${c.model}: this op is not covered`}</title>
                    </text>
                  </g>
                );
              }
              return (
                <g key={c.model} data-model={c.model} data-cycles={r.cycles}>
                  <rect x={200} y={y} width={len(r.cycles)} height={bh - 2} class={MODEL_CLASS[c.model]} />
                  <text x={204 + len(r.cycles)} y={y + bh - 3} class="muted">
                    {fmt(r.cycles)}
                  </text>
                </g>
              );
            })}
          </g>
        ))}
      </svg>
    </section>
  );
}
