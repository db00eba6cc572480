/**
 * The AMX fuzz acceptance at full size (issue 5): 10^6 random operands per instruction through the
 * raw decoder/encoder, the text round trip assemble(disassembleOp(op)) === op, and execution on
 * random states (only AxsimError may escape). Too slow for the per-commit test suite (about
 * 22 x 10^6 text round trips at ~4 us each), so CI runs it as a script:
 *
 *   node --import tsx test/amx-fuzz-full.ts [N]      # N defaults to 1000000; exit code 1 on failure
 */
import { fuzzExec, fuzzRaw, fuzzText, makeRng } from '../src/amx/fuzz.ts';

const n = Number(process.argv[2] ?? 1_000_000);
if (!Number.isInteger(n) || n < 1) {
  console.error(`usage: amx-fuzz-full.ts [N]  (got '${process.argv[2]}')`);
  process.exit(2);
}
const parts: [string, (n: number, rnd: () => number) => number, number][] = [
  ['raw decode/encode round trip', fuzzRaw, 0x2545f491],
  ['text round trip', fuzzText, 0x1b873593],
  ['execution throws only AxsimError', fuzzExec, 0x85ebca6b],
];
let failed = false;
for (const [what, run, seed] of parts) {
  const t0 = process.cpuUsage();
  try {
    const cases = run(n, makeRng(seed));
    const u = process.cpuUsage(t0);
    console.log(
      `ok   ${what}: ${cases} cases (${n} per instruction), ${((u.user + u.system) / 1e6).toFixed(1)} s CPU`,
    );
  } catch (e) {
    failed = true;
    console.log(`FAIL ${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
process.exitCode = failed ? 1 : 0;
