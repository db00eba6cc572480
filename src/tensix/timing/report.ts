/**
 * Renderings of a timed run: the pipeline table kernel authors draw by hand in tt-llk comments
 * (`t | Load | Simple | MAD | Round | Store`) and a JSON form (one record per instruction per
 * sub-unit with its cycle).
 */
import type { TimedResult, TimelineEntry } from './engine.ts';
import { HAZARDS } from './hazards.ts';
import { UNITS } from './tables.ts';

const HEAD = ['t', 'Load', 'Simple', 'MAD', 'Round', 'Store'];

/** The text table; non-SFPU instructions and stalls appear in the Load column in parentheses. */
export function timelineText(r: TimedResult, opts: { from?: number; to?: number } = {}): string {
  const tl = r.timeline ?? [];
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
    for (const e of byCycle.get(c) ?? []) {
      const col = e.unit === 'issue' ? 0 : UNITS.indexOf(e.unit);
      let t = e.unit === 'issue' ? `(${e.text})` : e.text;
      if (e.note === 'discarded') t = `${t} DISCARDED`;
      cells[col] = cells[col] ? `${cells[col]}; ${t}` : t;
    }
    rows.push([String(c), ...cells]);
  }
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((x, i) => x.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  const out = [line(HEAD), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
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
    lines.push(`    [${h.id}] cycle ${h.cycle}, instruction ${h.index}: ${h.message}`);
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
