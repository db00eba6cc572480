/**
 * File-system access for the CLI, the way a Unix tool does it: every failure is a BadInput naming
 * the path and the reason (never a raw Node error), an output never overwrites one of the inputs,
 * and no parent directory is created unless the user asked for that directory.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { badInput } from '../errors.ts';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'a component of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EEXIST: 'already exists',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EPIPE: 'broken pipe',
};

/** A short human reason for a Node file-system error (`no such file or directory (ENOENT)`). */
export function fsReason(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string') return `${REASONS[code] ?? code.toLowerCase()} (${code})`;
  return e instanceof Error ? e.message : String(e);
}

/** Reads a file (`-` = standard input); failures are BadInput naming the path and the reason. */
export function readInputFile(path: string): Buffer {
  try {
    return readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    throw badInput(`cannot read ${path === '-' ? 'standard input' : path}: ${fsReason(e)}`, {
      location: path === '-' ? undefined : { file: path },
      cause: e,
    });
  }
}

/** Reads a text file as UTF-8 (`-` = standard input). */
export function readInputText(path: string): string {
  return readInputFile(path).toString('utf8');
}

function sameFile(a: string, b: string): boolean {
  if (a === '-' || b === '-') return false;
  if (resolve(a) === resolve(b)) return true;
  const sa = statSync(a, { throwIfNoEntry: false });
  const sb = statSync(b, { throwIfNoEntry: false });
  return sa !== undefined && sb !== undefined && sa.dev === sb.dev && sa.ino === sb.ino;
}

/**
 * Throws BadInput when writing `out` would overwrite one of `inputs` (same path, or the same file
 * through a link). Call before doing any work, so nothing is half-written.
 */
export function refuseOverwritingInputs(out: string, inputs: readonly string[], what = 'output'): void {
  for (const i of inputs) {
    if (sameFile(out, i)) {
      throw badInput(`${what} ${out} is the input file ${i}; refusing to overwrite it`, {
        hint: 'write the output to another file',
      });
    }
  }
}

/**
 * Writes an output file. The parent directory must already exist (it is not created); failures are
 * BadInput naming the path and the reason; `inputs` are the files this command read.
 */
export function writeOutputFile(
  path: string,
  data: Uint8Array | string,
  inputs: readonly string[] = [],
): void {
  refuseOverwritingInputs(path, inputs);
  const dir = dirname(resolve(path));
  const st = statSync(dir, { throwIfNoEntry: false });
  if (st === undefined) {
    throw badInput(`cannot write ${path}: directory ${dirname(path)} does not exist`, {
      hint: 'create the directory first (axsim does not create parent directories)',
    });
  }
  try {
    writeFileSync(path, data);
  } catch (e) {
    throw badInput(`cannot write ${path}: ${fsReason(e)}`, { cause: e });
  }
}

/**
 * Makes sure `dir` is a directory to write outputs into. The directory itself is created when
 * missing (the user named it), its parents are not.
 */
export function prepareOutputDir(dir: string): void {
  const st = statSync(dir, { throwIfNoEntry: false });
  if (st?.isDirectory()) return;
  if (st !== undefined) throw badInput(`cannot write into ${dir}: it exists and is not a directory`);
  try {
    mkdirSync(dir);
  } catch (e) {
    const parent = (e as { code?: string }).code === 'ENOENT';
    throw badInput(
      parent
        ? `cannot create ${dir}: its parent directory does not exist`
        : `cannot create ${dir}: ${fsReason(e)}`,
      {
        hint: parent ? 'create the parent directories first (axsim does not create them)' : undefined,
        cause: e,
      },
    );
  }
}
