/**
 * `node --import tsx test/fuzz/digest.ts FRONT SEED FROM N [--out FILE] [--warm K]`: runs inputs
 * FROM .. FROM+N-1 of one front end in this process (as a fuzz worker does) and prints
 *  - a digest of every input's full outcome: category, message, location and hint (sha256 over
 *    one line per input; with --out, the lines themselves, for a diff),
 *  - the median and mean CPU time per input (user + system) after the first K inputs (warm-up,
 *    default 200), measured in blocks of 50 inputs.
 * Two code versions behave the same on these inputs exactly when their digests are equal (used to
 * check the parsed-environment cache of the LLK front ends, docs/reliability.md).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { AxsimError } from '../../src/errors.ts';
import { FRONTS, fuzzBudget, prepare } from './fronts.ts';
import { generate } from './worker.ts';

function outcomeLine(i: number, e: unknown): string {
  if (e === undefined) return `${i} ok`;
  if (e instanceof AxsimError) {
    const l = e.location;
    const loc = l ? `${l.file ?? ''}:${l.line ?? ''}:${l.col ?? ''}:${l.index ?? ''}` : '-';
    return `${i} ${e.category} ${JSON.stringify(e.message)} ${loc} ${JSON.stringify(e.hint ?? null)}`;
  }
  const err = e as Error;
  return `${i} crash ${err?.name}: ${JSON.stringify(String(err?.message ?? e))}`;
}

/** The LLK front ends' include cache and parse memo counters (how often the environment was reused). */
async function llkCacheStats(): Promise<Record<string, unknown>> {
  const { LLK_INCLUDE_CACHE, LLK_PARSE_MEMO } = await import('../../src/tensix/llk/run.ts');
  return { includeCache: LLK_INCLUDE_CACHE.stats(), parseMemo: LLK_PARSE_MEMO.stats() };
}

const args = process.argv.slice(2);
const opt = (k: string) => {
  const j = args.indexOf(k);
  if (j < 0) return undefined;
  const v = args[j + 1];
  args.splice(j, 2);
  return v;
};
const out = opt('--out');
const warm = Number(opt('--warm') ?? 200);
const [front, seedS, fromS, nS] = args;
if (!front || !FRONTS[front] || !seedS || !fromS || !nS) {
  process.stderr.write('usage: digest.ts FRONT SEED FROM N [--out FILE] [--warm K]\n');
  process.exit(2);
}
await prepare();
const f = FRONTS[front]!;
const lines: string[] = [];
const blocks: number[] = [];
const counts: Record<string, number> = {};
let t0 = 0;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let blockStart = 0;
const from = Number(fromS);
const n = Number(nS);
for (let k = 0; k < n; k++) {
  if (k === warm) t0 = cpu();
  if (k >= warm && (k - warm) % 50 === 0) blockStart = cpu();
  const i = from + k;
  const input = generate(front, Number(seedS), i);
  let err: unknown;
  try {
    await f.run(input, fuzzBudget());
  } catch (e) {
    err = e;
  }
  const line = outcomeLine(i, err);
  lines.push(line);
  const cat = line.split(' ')[1]!;
  counts[cat] = (counts[cat] ?? 0) + 1;
  if (k >= warm && (k - warm) % 50 === 49) blocks.push((cpu() - blockStart) / 50);
}
const measured = n - warm;
const total = measured > 0 ? cpu() - t0 : Number.NaN;
blocks.sort((a, b) => a - b);
const digest = createHash('sha256').update(lines.join('\n')).digest('hex');
if (out) writeFileSync(out, `${lines.join('\n')}\n`);
process.stdout.write(
  `${JSON.stringify({
    front,
    seed: Number(seedS),
    from,
    n,
    digest,
    counts,
    cpuMsPerInput: {
      mean: +(total / measured).toFixed(3),
      medianOfBlocks: +(blocks[blocks.length >> 1] ?? Number.NaN).toFixed(3),
    },
    rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20),
    ...(f.heavy ? await llkCacheStats() : {}),
  })}\n`,
);
