// Browser-safe helpers for the ISA runners (the harness itself reads files: node only).

/** Helper for runners: describe differing 32-bit words as hex, at most `max` of them. */
export function diffWords(
  what: string,
  expected: ArrayLike<number>,
  actual: ArrayLike<number>,
  max = 8,
): string[] {
  const lines: string[] = [];
  const n = Math.max(expected.length, actual.length);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e === a) continue;
    count++;
    if (lines.length < max) lines.push(`${what}[${i}]: expected ${hex32(e)}, got ${hex32(a)}`);
  }
  if (count > max) lines.push(`${what}: ${count - max} more differences`);
  return lines;
}

function hex32(v: number | undefined): string {
  return v === undefined ? '(missing)' : `0x${(v >>> 0).toString(16).padStart(8, '0')}`;
}
