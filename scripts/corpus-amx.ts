/**
 * `AXSIM_AMX_CORPUS=/path/to/amx:/path/to/blis_apple npm run corpus:amx [-- --json] [-- --gen m1]`:
 * runs the public AMX C code of the checkouts given (corsix/amx, xrq-phys/blis_apple; the order
 * does not matter) unchanged through `axsim amx`'s C path and checks each result
 * (src/amx/c/corpus.ts). Prints the Markdown table of docs/amx-c-corpus.md, or JSON; exit 1 when
 * a case does not run or does not match.
 */
import { execFileSync } from 'node:child_process';
import { repoOf, runCorpus } from '../src/amx/c/corpus.ts';
import { AMX_GENS, parseGen } from '../src/amx/state.ts';

const argv = process.argv.slice(2);
const roots = (process.env.AXSIM_AMX_CORPUS ?? '').split(':').filter((r) => r !== '');
if (roots.length === 0) {
  process.stderr.write(
    'set AXSIM_AMX_CORPUS to checkouts of corsix/amx and/or xrq-phys/blis_apple, separated by ":"\n',
  );
  process.exit(2);
}
const gi = argv.indexOf('--gen');
const gens = gi >= 0 ? [parseGen(argv[gi + 1] ?? '')] : AMX_GENS;
const commits = roots.map((r) => {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['-C', r, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  return { repo: repoOf(r) ?? `unrecognised: ${r}`, commit };
});
const results = runCorpus(roots, gens);
if (argv.includes('--json')) process.stdout.write(`${JSON.stringify({ commits, results }, null, 1)}\n`);
else {
  const lines = [
    ...commits.map((c) => `${c.repo} at ${c.commit}`),
    '',
    '| repository | file | entry | what | gen | result | check |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.repo} | ${r.file} | \`${r.entry}\` | ${r.what} | ${r.gen} | ${r.status} | ${r.detail.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
process.exit(results.length > 0 && results.every((r) => r.status === 'ran unchanged, matches') ? 0 : 1);
