// AMX views: X, Y (8 x 64 bytes) and Z (64 x 64 bytes) in a chosen element type with the cells the
// current operation read and wrote highlighted (the library's amxFootprint), the memory ranges as
// arrays, and the cycle model's breakdown.

import { ELEMENT_TYPES, type ElementType, elementSize, fmtElement, readElementLE } from '../format.ts';
import type { AmxResult, AmxState } from '../protocol.ts';
import { HeatGrid } from './HeatGrid.tsx';

export function ElementTypeSelect(p: { value: ElementType; onChange: (t: ElementType) => void }) {
  return (
    <label>
      element type{' '}
      <select
        value={p.value}
        onChange={(e) => p.onChange((e.target as HTMLSelectElement).value as ElementType)}
        data-testid="amx-etype"
      >
        {ELEMENT_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}

function RegGrid(p: {
  name: 'x' | 'y' | 'z';
  bytes: number[];
  written: number[];
  read: number[];
  t: ElementType;
  width: number;
}) {
  const esize = elementSize(p.t);
  const rows = p.bytes.length / 64;
  const cols = 64 / esize;
  const n = rows * cols;
  const values = Array.from({ length: n }, (_, i) => readElementLE(p.bytes, i, p.t));
  // an element is marked when any of its bytes was read / written
  const cells = new Set(p.written.map((b) => Math.floor(b / esize)));
  const reads = new Set(p.read.map((b) => Math.floor(b / esize)));
  const counts = [
    reads.size ? `${reads.size} elements read` : '',
    cells.size ? `${cells.size} elements written` : '',
  ].filter(Boolean);
  return (
    <HeatGrid
      id={`amx-${p.name}`}
      label={`${p.name.toUpperCase()} (${rows} x 64 bytes) as ${p.t}${counts.length ? `, ${counts.join(' and ')} by this step` : ''}`}
      rows={rows}
      cols={cols}
      heat={values}
      text={(i) => fmtElement(values[i]!, p.t)}
      cellHighlight={cells}
      cellRead={reads}
      raw={p.bytes.join(' ')}
      cell={Math.max(6, Math.min(34, Math.floor(p.width / cols)))}
      rowLabel={(r) => `${p.name}${r}`}
      colLabel={(c) => `element ${c}`}
    />
  );
}

export function AmxRegsView(p: { state: AmxState; t: ElementType; setT: (t: ElementType) => void }) {
  const s = p.state;
  return (
    <section class="view" aria-label="AMX registers" id="view-amx-regs" data-step={s.step}>
      <div class="view-bar">
        <ElementTypeSelect value={p.t} onChange={p.setT} />
        <span class="muted step-op" data-testid="amx-step-op" title={s.text}>
          step {s.step}
          {s.text ? `: ${s.text}` : ''}
        </span>
      </div>
      <p class="legend" data-testid="amx-legend">
        <span class="sw sw-read" aria-hidden="true" /> read by this step (dashed){' '}
        <span class="sw sw-written" aria-hidden="true" /> written by this step (solid)
      </p>
      {/* always one line, so that the grids keep their place from step to step */}
      <p class="muted one-line">
        <span data-testid="amx-mem-access">{s.memAccess.join('; ')}</span>
        {s.memAccess.length === 0 ? 'no memory access' : ''}
        {s.dataDependent ? ' · table bytes: the indices in the data choose among the marked ones' : ''}
      </p>
      <div class="amx-xy">
        <RegGrid name="x" bytes={s.x} written={s.written.x} read={s.read.x} t={p.t} width={380} />
        <RegGrid name="y" bytes={s.y} written={s.written.y} read={s.read.y} t={p.t} width={380} />
      </div>
      <RegGrid name="z" bytes={s.z} written={s.written.z} read={s.read.z} t={p.t} width={560} />
    </section>
  );
}

export function AmxMemoryView(p: {
  result: AmxResult;
  state: AmxState;
  t: ElementType;
  setT: (t: ElementType) => void;
  ranges: string;
  setRanges: (r: string) => void;
}) {
  const esize = elementSize(p.t);
  return (
    <section class="view" aria-label="AMX memory ranges" id="view-amx-mem">
      <div class="view-bar">
        <ElementTypeSelect value={p.t} onChange={p.setT} />
        {p.state.cArrays ? null : (
          <label>
            ranges{' '}
            <input
              value={p.ranges}
              onChange={(e) => p.setRanges((e.target as HTMLInputElement).value)}
              aria-label="memory ranges, ADDRESS:BYTES separated by spaces"
              data-testid="amx-ranges"
            />
          </label>
        )}
      </div>
      {p.result.ref ? (
        <section data-testid="amx-ref" aria-label={`comparison with the reference ${p.result.ref.name}`}>
          <p>
            compared with the reference <code>{p.result.ref.name}</code> (the same arguments, fresh inputs):
          </p>
          <ul>
            {p.result.ref.arrays.map((d) => (
              <li
                key={d.name}
                data-array={d.name}
                data-differing={d.differing}
                data-max-abs={d.maxAbs}
                data-max-ulp={d.maxUlp}
                class={d.differing ? 'ref-differs' : 'ref-same'}
              >
                {d.text}
              </li>
            ))}
            {p.result.ref.arrays.length === 0 ? <li>neither changed any array</li> : null}
          </ul>
        </section>
      ) : null}
      {p.state.cArrays ? (
        <p class="muted" data-testid="amx-mem-note">
          {p.state.memoryAfterRun
            ? "The arrays after the run (this run's array changes were too many to keep per step)."
            : `The arrays at step ${p.state.step}, as the next AMX instruction found them (C code run since included; after the last step, as the run left them).`}
        </p>
      ) : null}
      {p.state.memory.map((m) => {
        const n = Math.floor(m.bytes.length / esize);
        const cols = Math.max(1, Math.min(n, 128 / esize));
        const values = Array.from({ length: n }, (_, i) => readElementLE(m.bytes, i, p.t));
        return m.error ? (
          <p key={m.addr} class="error">
            0x{m.addr.toString(16)}: {m.error}
          </p>
        ) : (
          <HeatGrid
            key={m.addr}
            id={m.name !== undefined ? `amx-arr-${m.name}` : `amx-mem-${m.addr.toString(16)}`}
            label={
              m.name !== undefined
                ? `array ${m.name} (${m.dtype} ${m.shape?.join('x')}), ${m.bytes.length} bytes as ${p.t} (${cols} per row)`
                : `memory 0x${m.addr.toString(16)}, ${m.bytes.length} bytes as ${p.t} (${cols} per row)`
            }
            rows={Math.ceil(n / cols)}
            cols={cols}
            heat={values}
            text={(i) => (i < n ? fmtElement(values[i]!, p.t) : '')}
            raw={m.bytes.join(' ')}
            cell={Math.max(8, Math.floor(560 / cols))}
            rowLabel={(r) =>
              m.name !== undefined
                ? `${m.name}+${r * cols * esize}`
                : `0x${(m.addr + r * cols * esize).toString(16)}`
            }
          />
        );
      })}
    </section>
  );
}

export function AmxPerfView(p: { result: AmxResult }) {
  const k = p.result.perf.kinds;
  const max = Math.max(1, ...k.map((x) => x.issue + x.stall));
  const w = 420;
  return (
    <section class="view" aria-label="AMX cycle breakdown" id="view-amx-perf">
      <p data-testid="amx-cycles">
        {p.result.perf.cycles} cycles (the cycle model of src/amx/perf, M1 Max figures, one thread)
      </p>
      <svg
        width={140 + w + 80}
        height={k.length * 24 + 8}
        role="img"
        aria-label="issue and stall cycles per kind"
      >
        {k.map((x, i) => (
          <g key={x.kind} data-kind={x.kind} data-issue={x.issue} data-stall={x.stall}>
            <text x={4} y={i * 24 + 17}>
              {x.kind} ×{x.count}
            </text>
            <rect x={140} y={i * 24 + 4} width={(x.issue / max) * w} height={16} class="bar-issue" />
            <rect
              x={140 + (x.issue / max) * w}
              y={i * 24 + 4}
              width={(x.stall / max) * w}
              height={16}
              class="bar-stall"
            />
            <text x={140 + ((x.issue + x.stall) / max) * w + 4} y={i * 24 + 17} class="muted">
              {(x.issue + x.stall).toFixed(1)}
            </text>
          </g>
        ))}
      </svg>
      <p class="legend">
        <span class="sw bar-issue" /> issue <span class="sw bar-stall" /> waiting for an accumulator
      </p>
      <pre class="perf-text">{p.result.perf.text}</pre>
    </section>
  );
}
