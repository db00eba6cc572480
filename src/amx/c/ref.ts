/**
 * `--ref FUNC` as a library call: runs FUNC, a scalar reference in the same file, with the entry's
 * arguments on fresh copies of the input arrays, and compares every array that the kernel or the
 * reference changed (diffArrays: differing elements, max abs, max ULP).
 */
import { badInput } from '../../errors.ts';
import { type ArrayDiff, diffArrays } from './compare.ts';
import { type AmxCOptions, type AmxCResult, runAmxC } from './run.ts';

/** The reference's call: the entry `f(args…)` with `f` replaced by `ref`. */
export function refEntry(entry: string, ref: string): string {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_:]*)/.exec(entry);
  if (!m || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(ref))
    throw badInput(`reference '${ref}': give the name of a function with the entry's parameters`, {
      hint: 'e.g. sgemm_ref for the entry sgemm(64, 64, 16, A, B, C)',
    });
  return `${ref}${entry.slice(m[0].length)}`;
}

/**
 * Runs the reference with `opts` (its `args` are the inputs as they were before the kernel ran;
 * runAmxC copies them into the program's memory) and compares with the kernel's result `kernel`.
 */
export function compareWithRef(
  source: string,
  opts: AmxCOptions,
  kernel: AmxCResult,
  ref: string,
): ArrayDiff[] {
  const args = opts.args ?? {};
  const r = runAmxC(source, { ...opts, entry: refEntry(opts.entry, ref), trace: false, onIssue: undefined });
  const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);
  return Object.keys(args)
    .filter(
      (n) => !same(kernel.arrays[n]!.bytes, args[n]!.bytes) || !same(r.arrays[n]!.bytes, args[n]!.bytes),
    )
    .map((n) => diffArrays(n, kernel.arrays[n]!.dtype, kernel.arrays[n]!.bytes, r.arrays[n]!.bytes));
}
