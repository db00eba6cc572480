/**
 * `node --import tsx scripts/perfsim-table.ts FILE.pto...`: per source op of each program's entry,
 * axsim's `pto-isa` and `formula` (A2/A3) cycles next to pto-isa Perf-Sim's per-op duration
 * (src/pto/cost/perfsim-compare.ts), as the Markdown rows of docs/pto-as.md "Perf-Sim as an anchor".
 */
import { readFileSync } from 'node:fs';
import { parsePtoAs } from '../src/pto/asm/parser.ts';
import { comparePerfSim } from '../src/pto/cost/perfsim-compare.ts';

const fmt = (v: number | null) => (v === null ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(2));
process.stdout.write(
  '| program | line | op | operands | axsim pto-isa | Perf-Sim | axsim formula |\n|---|---|---|---|---|---|---|\n',
);
for (const file of process.argv.slice(2)) {
  const rows = comparePerfSim(parsePtoAs(readFileSync(file, 'utf8'), { file }));
  const name = file.split('/').slice(-2).join('/');
  for (const r of rows) {
    const derived = r.ptoIsaPath.startsWith('derived') ? ' (derived)' : '';
    process.stdout.write(
      `| ${name} | ${r.line} | ${r.op} | ${r.shape} | ${fmt(r.ptoIsa)}${derived} | ${fmt(r.perfSim)} | ${fmt(r.formula)} |\n`,
    );
  }
}
