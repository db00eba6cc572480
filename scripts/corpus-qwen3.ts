/**
 * `AXSIM_PTOAS=/path/to/PTOAS npm run corpus:qwen3 [-- --json] [--profile cpu] [--only 0,8] [--a5]`:
 * runs the Qwen3 decode samples of a hw-native-sys/PTOAS checkout on random inputs and compares
 * each with its independent double-precision reference (src/pto/corpus/qwen3.ts). Prints a
 * Markdown table (docs/pto-qwen3.md) or, with --json, one JSON array; exit 1 on any mismatch/error.
 */
import { execFileSync } from 'node:child_process';
import type { Profile } from '../src/pto/arith.ts';
import {
  QWEN3_CASES,
  QWEN3_DIR,
  QWEN3_DIR_A5,
  type Qwen3Result,
  runQwen3Case,
} from '../src/pto/corpus/qwen3.ts';

const argv = process.argv.slice(2);
const root = process.env.AXSIM_PTOAS;
if (!root) {
  process.stderr.write('set AXSIM_PTOAS to a checkout of hw-native-sys/PTOAS\n');
  process.exit(2);
}
const opt = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
// --a5: the Qwen3DecodeA5 copies (profile a5 unless --profile says otherwise)
const a5 = argv.includes('--a5');
const dir = a5 ? QWEN3_DIR_A5 : QWEN3_DIR;
const profile = (opt('--profile') ?? (a5 ? 'a5' : 'a2a3')) as Profile;
const only = opt('--only')?.split(',').map(Number);
let commit = 'unknown';
try {
  commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  // not a git checkout: the table says "unknown"
}
const results: (Qwen3Result & { ms: number })[] = [];
for (const c of QWEN3_CASES) {
  if (only && !only.includes(c.n)) continue;
  const t0 = Date.now();
  const r = runQwen3Case(root, c, { profile, dir });
  results.push({ ...r, ms: Date.now() - t0 });
  if (!argv.includes('--json'))
    process.stderr.write(`qwen3_decode_incore_${c.n}: ${r.status} (${Date.now() - t0} ms) ${r.detail}\n`);
}
if (argv.includes('--json'))
  process.stdout.write(`${JSON.stringify({ commit, profile, results }, null, 1)}\n`);
else {
  const lines = [
    `PTOAS ${commit}, ${dir}, profile ${profile}`,
    '',
    '| # | computes | scalars | instrs | compared | unchanged | worst err/bound | result |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.n} | ${r.what} | ${r.scalars} | ${r.instructions} | ${r.checked} | ${r.unchanged} | ${r.worst === 0 ? '0' : r.worst.toPrecision(2)} | ${r.status}${r.status === 'match' ? '' : `: ${r.detail.replace(/\|/g, '\\|')}`} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
process.exit(results.every((r) => r.status === 'match') ? 0 : 1);
