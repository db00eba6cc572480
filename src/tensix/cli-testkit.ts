/** Test helper: runs `axsim tensix …` in-process (src/cli/tensix.ts), capturing what it prints. */
import { Command } from 'commander';
import { registerTensix } from '../cli/tensix.ts';

type Write = typeof process.stdout.write;

/** Replaces `stream.write` so that strings go to `sink`; Buffers (the test runner's protocol) pass through. */
function capture(stream: NodeJS.WriteStream, sink: (s: string) => void): () => void {
  const write = stream.write.bind(stream);
  stream.write = ((s: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof s !== 'string') return (write as (...a: unknown[]) => boolean)(s, ...rest);
    sink(s);
    return true;
  }) as Write;
  return () => {
    stream.write = write;
  };
}

/** Runs the tensix command group with `args`; returns stdout, stderr and the exit code it set. */
export async function runTensixCli(
  args: string[],
): Promise<{ out: string; err: string; code: number | undefined }> {
  const p = new Command('axsim').exitOverride();
  registerTensix(p);
  let out = '';
  let err = '';
  const restoreOut = capture(process.stdout, (s) => {
    out += s;
  });
  const restoreErr = capture(process.stderr, (s) => {
    err += s;
  });
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await p.parseAsync(['node', 'axsim', ...args]);
  } finally {
    restoreOut();
    restoreErr();
  }
  const code = process.exitCode as number | undefined;
  process.exitCode = before;
  return { out, err, code };
}
