// A grid of numbers drawn on a canvas as a heat map (negative blue, positive orange, scaled to the
// largest magnitude), with highlighted rows or cells and an optional outlined region. Keyboard:
// focus it and move a cursor with the arrow keys (Home/End, PageUp/PageDown); the cursor's value
// is announced. The numbers shown are also in `data-values` (one per cell, row-major) for tests
// and tools.
import { useEffect, useRef, useState } from 'preact/hooks';

export interface HeatGridProps {
  id: string;
  label: string;
  rows: number;
  cols: number;
  /** Colour value of each cell (row-major). */
  heat: ArrayLike<number>;
  /** Text of each cell (row-major), as shown in the readout and in data-values. */
  text: (i: number) => string;
  rowHighlight?: ReadonlySet<number>;
  /** Cells outlined solid in --hl-touch (written). */
  cellHighlight?: ReadonlySet<number>;
  /** Cells outlined dashed, inset, in --hl-read (read); a cell may be in both sets. */
  cellRead?: ReadonlySet<number>;
  /** Outline of the region [0, rows) x [0, cols) (a PTO tile's valid region). */
  outline?: { rows: number; cols: number };
  cell?: number;
  rowLabel?: (r: number) => string;
  colLabel?: (c: number) => string;
  /** Exact values for tests and tools (data-raw): raw bits, bytes or round-trip decimals. */
  raw?: string;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/** What the readout says about the cursor's cell: read and/or written by the step. */
function accessText(p: HeatGridProps, i: number): string {
  const r = p.cellRead?.has(i) ?? false;
  const w = p.cellHighlight?.has(i) ?? false;
  if (!p.cellRead) return '';
  return r && w ? ' (read and written)' : r ? ' (read)' : w ? ' (written)' : '';
}

export function HeatGrid(p: HeatGridProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [cur, setCur] = useState(0);
  const size = p.cell ?? Math.max(6, Math.min(20, Math.floor(560 / p.cols)));
  const cellH = Math.max(6, Math.min(size, Math.floor(640 / p.rows)));
  const n = p.rows * p.cols;
  const cursor = Math.min(cur, n - 1);

  useEffect(() => {
    const c = ref.current;
    if (!c) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = p.cols * size * dpr;
    c.height = p.rows * cellH * dpr;
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    // the colour scale: the 98th percentile of the finite magnitudes, so that a few huge values
    // (the test tile's 3e38) do not wash out the rest; larger ones get the full colour
    const mags: number[] = [];
    for (let i = 0; i < n; i++) {
      const v = p.heat[i]!;
      if (Number.isFinite(v) && v !== 0) mags.push(Math.abs(v));
    }
    mags.sort((a, b) => a - b);
    const max = mags.length ? mags[Math.min(mags.length - 1, Math.floor(mags.length * 0.98))]! : 0;
    const bg = cssVar('--grid-zero', '#f4f4f4');
    for (let i = 0; i < n; i++) {
      const v = p.heat[i]!;
      const r = Math.floor(i / p.cols);
      const col = i % p.cols;
      let fill = bg;
      if (Number.isNaN(v)) fill = '#888';
      else if (!Number.isFinite(v)) fill = v > 0 ? '#b30000' : '#00309a';
      else if (v !== 0 && max > 0) {
        const a = 0.15 + 0.85 * Math.min(1, Math.abs(v) / max);
        fill = v > 0 ? `rgba(230,110,20,${a})` : `rgba(40,100,220,${a})`;
      }
      g.fillStyle = fill;
      g.fillRect(col * size, r * cellH, size - (size > 8 ? 1 : 0), cellH - (cellH > 8 ? 1 : 0));
    }
    const hl = cssVar('--hl-touch', '#d0021b');
    g.lineWidth = 2;
    g.strokeStyle = hl;
    for (const r of p.rowHighlight ?? [])
      if (r >= 0 && r < p.rows) g.strokeRect(1, r * cellH + 1, p.cols * size - 2, cellH - 2);
    for (const i of p.cellHighlight ?? []) {
      if (i < 0 || i >= n) continue;
      g.strokeRect((i % p.cols) * size + 1, Math.floor(i / p.cols) * cellH + 1, size - 2, cellH - 2);
    }
    const rd = p.cellRead;
    if (rd?.size) {
      g.strokeStyle = cssVar('--hl-read', '#00796b');
      g.setLineDash([3, 2]);
      const inset = size >= 12 && cellH >= 12 ? 3.5 : 2;
      for (const i of rd) {
        if (i < 0 || i >= n) continue;
        g.strokeRect(
          (i % p.cols) * size + inset,
          Math.floor(i / p.cols) * cellH + inset,
          Math.max(1, size - 2 * inset),
          Math.max(1, cellH - 2 * inset),
        );
      }
      g.setLineDash([]);
    }
    if (p.outline) {
      g.setLineDash([4, 3]);
      g.strokeStyle = cssVar('--outline', '#222');
      g.strokeRect(1, 1, p.outline.cols * size - 2, p.outline.rows * cellH - 2);
      g.setLineDash([]);
    }
    // the keyboard cursor
    g.strokeStyle = cssVar('--cursor', '#000');
    g.lineWidth = 1.5;
    g.strokeRect(
      (cursor % p.cols) * size + 0.5,
      Math.floor(cursor / p.cols) * cellH + 0.5,
      size - 1,
      cellH - 1,
    );
  });

  const onKey = (e: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: p.cols,
      ArrowUp: -p.cols,
      PageDown: p.cols * 8,
      PageUp: -p.cols * 8,
    };
    let next = cursor;
    if (e.key in moves) next = cursor + moves[e.key]!;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n - 1;
    else return;
    e.preventDefault();
    setCur(Math.max(0, Math.min(n - 1, next)));
  };

  const onClick = (e: MouseEvent) => {
    const c = ref.current!;
    const b = c.getBoundingClientRect();
    const col = Math.floor((e.clientX - b.left) / size);
    const r = Math.floor((e.clientY - b.top) / cellH);
    if (col >= 0 && col < p.cols && r >= 0 && r < p.rows) setCur(r * p.cols + col);
  };

  const r = Math.floor(cursor / p.cols);
  const c = cursor % p.cols;
  const values = Array.from({ length: n }, (_, i) => p.text(i)).join(' ');
  return (
    <figure class="heat" id={p.id}>
      <figcaption>{p.label}</figcaption>
      <canvas
        ref={ref}
        tabIndex={0}
        role="img"
        aria-label={`${p.label}: ${p.rows} rows by ${p.cols} columns; arrow keys move the cursor`}
        aria-describedby={`${p.id}-readout`}
        data-rows={p.rows}
        data-cols={p.cols}
        data-values={values}
        data-raw={p.raw}
        data-highlight-rows={[...(p.rowHighlight ?? [])].join(' ')}
        data-highlight-cells={[...(p.cellHighlight ?? [])].join(' ')}
        data-read-cells={[...(p.cellRead ?? [])].join(' ')}
        style={{ width: `${p.cols * size}px`, height: `${p.rows * cellH}px` }}
        onKeyDown={onKey}
        onClick={onClick}
      />
      <div class="readout" id={`${p.id}-readout`} aria-live="polite">
        {p.rowLabel ? p.rowLabel(r) : `row ${r}`}, {p.colLabel ? p.colLabel(c) : `col ${c}`}:{' '}
        <b>{p.text(cursor)}</b>
        {accessText(p, cursor)}
      </div>
    </figure>
  );
}
