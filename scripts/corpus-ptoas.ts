/**
 * `AXSIM_PTOAS=/path/to/PTOAS npm run corpus:ptoas [-- --json] [-- --no-run]`: axsim's accept /
 * reject verdict on every `.pto` file of a hw-native-sys/PTOAS checkout against ptoas's expected
 * verdict (read from each file's lit RUN / CHECK lines, src/pto/corpus/ptoas.ts), and a run of each
 * accepted program on generated inputs. Prints the Markdown table of docs/pto-corpus.md or, with
 * --json, one JSON array of {file, ptoas, axsim, ran, detail}. Exit 1 when agreement < 97 %.
 */
import { execFileSync } from 'node:child_process';
import { checkCorpusFile, corpusFiles } from '../src/pto/corpus/ptoas.ts';

const argv = process.argv.slice(2);
const root = process.env.AXSIM_PTOAS;
if (!root) {
  process.stderr.write('set AXSIM_PTOAS to a checkout of hw-native-sys/PTOAS\n');
  process.exit(2);
}
let commit = 'unknown';
try {
  commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  // not a git checkout
}
const rows = corpusFiles(root).map((f) => checkCorpusFile(root, f, { run: !argv.includes('--no-run') }));
const agree = rows.filter((r) => r.ptoas === r.axsim).length;
if (argv.includes('--json')) {
  process.stdout.write(
    `${JSON.stringify(
      rows.map((r) => ({ file: r.file, ptoas: r.ptoas, axsim: r.axsim, ran: r.ran, detail: r.detail })),
      null,
      1,
    )}\n`,
  );
} else {
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const ranOk = rows.filter((r) => r.ran === true).length;
  const ranBad = rows.filter((r) => r.ran === false);
  const lines = [
    `PTOAS ${commit}: ${rows.length} files, verdicts agree on ${agree} (${((100 * agree) / rows.length).toFixed(1)} %); accepted programs run: ${ranOk} ok, ${ranBad.length} failed (${ranBad.filter((r) => r.category === 'Unsupported').length} Unsupported, ${ranBad.filter((r) => r.category === 'Internal').length} Internal)`,
    '',
    '| file | arch | ptoas | axsim | ran | detail |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.file} | ${r.arch} | ${r.ptoas} | ${r.axsim}${r.ptoas === r.axsim ? '' : ' **(differs)**'} | ${r.ran === null ? '–' : r.ran ? 'yes' : 'no'} | ${esc(r.detail)} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
process.exit(agree >= 0.97 * rows.length ? 0 : 1);
