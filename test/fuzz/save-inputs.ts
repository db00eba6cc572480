/**
 * `node --import tsx test/fuzz/save-inputs.ts FRONT SEED INDEX…`: writes the given generated inputs
 * to test/fuzz-corpus/FRONT/ (for failures found before `--save` existed, or found in a long run
 * whose workers were killed).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepare, ROOT } from './fronts.ts';
import { generate } from './worker.ts';

const [front, seed, ...indices] = process.argv.slice(2);
await prepare();
const dir = join(ROOT, 'test/fuzz-corpus', front!);
mkdirSync(dir, { recursive: true });
for (const i of indices) {
  const input = generate(front!, Number(seed), Number(i));
  const name = `${createHash('sha1').update(input).digest('hex').slice(0, 12)}.in`;
  writeFileSync(join(dir, name), input);
  process.stdout.write(
    `test/fuzz-corpus/${front}/${name} (${input.length} bytes, seed ${seed} input ${i})\n`,
  );
}
