/**
 * Renderings of a timed run: the pipeline table kernel authors draw by hand in tt-llk comments
 * (`t | Load | Simple | MAD | Round | Store`) and a JSON form (one record per instruction per
 * sub-unit with its cycle).
 */
import { type ErrorLocation, formatLocation } from '../../errors.ts';
import type { TimedResult, TimelineEntry } from './engine.ts';
import { HAZARDS } from './hazards.ts';
import { UNITS } from './tables.ts';

const HEAD = ['t', 'Load', 'Simple', 'MAD', 'Round', 'Store'];

/** `file:line:col` (without the instruction index), or '' when the location has no line. */
function where(loc: ErrorLocation | undefined, dropFile?: string): string {
  if (!loc || loc.line === undefined) return '';
  return formatLocation({ ...loc, index: undefined, file: loc.file === dropFile ? undefined : loc.file });
}

/**
 * The text table; non-SFPU instructions and stalls appear in the Load column in parentheses. With
 * source locations (TimedOptions.sources) a last column names the statements each row's entries came
 * from (`line:col`, the file in the column head when all come from one file).
 */
export function timelineText(r: TimedResult, opts: { from?: number; to?: number } = {}): string {
  const tl = r.timeline ?? [];
  const files = new Set(tl.filter((e) => e.loc?.line !== undefined).map((e) => e.loc!.file));
  const withSource = files.size > 0;
  const oneFile = files.size === 1 ? [...files][0] : undefined;
  const head = withSource ? [...HEAD, oneFile !== undefined ? `source (${oneFile})` : 'source'] : HEAD;
  const from = opts.from ?? 0;
  const to = Math.min(opts.to ?? r.cycles, r.cycles);
  const rows: string[][] = [];
  const byCycle = new Map<number, TimelineEntry[]>();
  for (const e of tl) {
    if (e.cycle < from || e.cycle >= to) continue;
    let a = byCycle.get(e.cycle);
    if (!a) byCycle.set(e.cycle, (a = []));
    a.push(e);
  }
  for (let c = from; c < to; c++) {
    const cells = ['', '', '', '', ''];
    const srcs: string[] = [];
    for (const e of byCycle.get(c) ?? []) {
      const w = where(e.loc, oneFile);
      if (w && !srcs.includes(w)) srcs.push(w);
      const col = e.unit === 'issue' ? 0 : UNITS.indexOf(e.unit);
      let t = e.unit === 'issue' ? `(${e.text})` : e.text;
      if (e.note === 'discarded') t = `${t} DISCARDED`;
      cells[col] = cells[col] ? `${cells[col]}; ${t}` : t;
    }
    rows.push(withSource ? [String(c), ...cells, srcs.join(', ')] : [String(c), ...cells]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((x, i) => x.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
  return `${out.join('\n')}\n`;
}

/** A one-paragraph summary: cycles, per-sub-unit busy/IPC, issued vs executed, hazards. */
export function summaryText(r: TimedResult): string {
  const units = UNITS.map((u) => `${u} ${r.busy[u]} (${r.ipc[u].toFixed(2)})`).join(', ');
  const lines = [
    `${r.arch}: ${r.cycles} cycles; issued ${r.issued}, executed ${r.executed} (${r.scheduledExecuted} scheduled by SFPLOADMACRO), discarded ${r.discarded}, stall cycles ${r.stallCycles}`,
    `  busy cycles (IPC): ${units}`,
    `  hazards: ${r.hazardCount === 0 ? 'none' : r.hazardCount}`,
  ];
  for (const h of r.hazards.slice(0, 20)) {
    const at = where(h.location);
    lines.push(
      `    [${h.id}] cycle ${h.cycle}, ${at ? `${at} [instruction ${h.index}]` : `instruction ${h.index}`}: ${h.message}`,
    );
  }
  if (r.hazardCount > 20) lines.push(`    … ${r.hazardCount - 20} more`);
  return `${lines.join('\n')}\n`;
}

/** JSON-ready form: summary plus the timeline records. */
export function timedJson(r: TimedResult): Record<string, unknown> {
  return {
    arch: r.arch,
    cycles: r.cycles,
    busy: r.busy,
    ipc: r.ipc,
    issued: r.issued,
    executed: r.executed,
    scheduledExecuted: r.scheduledExecuted,
    discarded: r.discarded,
    forgotten: r.forgotten,
    stallCycles: r.stallCycles,
    hazardCount: r.hazardCount,
    hazards: r.hazards.map((h) => ({ ...h, what: HAZARDS[h.id].what })),
    timeline: r.timeline ?? null,
  };
}
