/**
 * The heavy fuzz front ends (tensix-llk, sfpi) reuse the LLK environment's preprocessed headers and
 * its parsed declarations from one input to the next (src/cfront/include-cache.ts, parse-memo.ts).
 * This replays fuzz inputs of both in an
 * interleaved order, each twice (A, B, …, then again in reverse: every input also runs after inputs
 * that put other states in the cache), and checks every outcome — the compiled words, or the error
 * with its category, message and location — against the same input compiled without the cache.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IncludeCache } from '../../src/cfront/include-cache.ts';
import { ParseMemo } from '../../src/cfront/parse-memo.ts';
import { AxsimError } from '../../src/errors.ts';
import { fuzzBudget, prepare, runLlkInput, variantOf } from './fronts.ts';
import { generate } from './worker.ts';

const dec = new TextDecoder();

async function outcome(
  input: Uint8Array,
  cache: { inc: IncludeCache; memo: ParseMemo } | false,
): Promise<string> {
  try {
    const words = await runLlkInput(
      dec.decode(input),
      fuzzBudget(),
      variantOf(input),
      cache && cache.inc,
      cache && cache.memo,
    );
    return `words ${[...words].join(',')}`;
  } catch (e) {
    return e instanceof AxsimError ? e.format() : `raw ${String(e)}`;
  }
}

test('fuzz inputs of tensix-llk and sfpi: the same outcome with the include cache and parse memo as without, in any order', async () => {
  await prepare();
  const inputs: Uint8Array[] = [];
  for (let i = 0; i < 24; i++) for (const front of ['tensix-llk', 'sfpi']) inputs.push(generate(front, 1, i));
  const plain = await Promise.all(inputs.map((x) => outcome(x, false)));
  const cache = { inc: new IncludeCache(), memo: new ParseMemo() };
  const order = [...inputs.keys(), ...[...inputs.keys()].reverse()];
  for (const k of order) assert.equal(await outcome(inputs[k]!, cache), plain[k], `input ${k}`);
  const s = cache.inc.stats();
  assert.ok(s.hits > inputs.length, JSON.stringify(s));
  const m = cache.memo.stats();
  assert.ok(m.hits > inputs.length * 10, JSON.stringify(m));
  // the inputs exercise more than the parser: some compile to words
  assert.ok(plain.filter((p) => p.startsWith('words')).length >= 4, plain.join('\n').slice(0, 2000));
});
