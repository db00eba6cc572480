/**
 * The one place where browser-safe code may reach the host's file system. There is no `node:`
 * import here: under Node.js (>= 20.16) the `fs` module comes from `process.getBuiltinModule`,
 * looked up through `globalThis` when first needed; in a browser or Web Worker there is none, and
 * every read reports the file as absent. Node-only code (CLI, io, conformance) imports `node:fs`
 * directly instead.
 */
import type * as Fs from 'node:fs';

type GetBuiltin = (id: string) => unknown;

let fs: typeof Fs | null | undefined;

/** Node.js's fs module, or undefined outside Node.js. */
export function hostFs(): typeof Fs | undefined {
  if (fs === undefined) {
    const proc = (globalThis as { process?: { getBuiltinModule?: GetBuiltin } }).process;
    fs = (proc?.getBuiltinModule?.('node:fs') as typeof Fs | undefined) ?? null;
  }
  return fs ?? undefined;
}

/** A text file's contents (UTF-8), or undefined when it does not exist or there is no file system. */
export function readTextFile(path: string): string | undefined {
  const f = hostFs();
  if (!f) return undefined;
  try {
    return f.statSync(path).isFile() ? f.readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
