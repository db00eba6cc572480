import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { AxsimError, badInput } from '../errors.ts';

export interface JsonlRecord {
  /** 1-based line number in the (decompressed) file. */
  line: number;
  value: unknown;
}

/**
 * Streams the records of a JSON Lines file, gzip-compressed when the name ends in `.gz`, without
 * loading the file whole. Blank lines are skipped. A line that is not JSON, a truncated gzip stream
 * or an unreadable file is a BadInput error naming the file (and line).
 */
export async function* readJsonl(file: string): AsyncGenerator<JsonlRecord> {
  const raw = createReadStream(file);
  // pipeline() destroys every stage with the first error, so the loop below sees it as a rejection.
  const source = file.endsWith('.gz') ? pipeline(raw, createGunzip(), () => {}) : raw;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let line = 0;
  const parse = (text: string): JsonlRecord | undefined => {
    line++;
    if (text.trim() === '') return undefined;
    try {
      return { line, value: JSON.parse(text) };
    } catch (e) {
      throw badInput(`not a JSON line: ${(e as Error).message}`, { location: { file, line } });
    }
  };
  try {
    for await (const chunk of source) {
      pending += decoder.write(chunk as Buffer);
      let nl = pending.indexOf('\n');
      while (nl >= 0) {
        const rec = parse(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
        if (rec) yield rec;
        nl = pending.indexOf('\n');
      }
    }
    pending += decoder.end();
    const last = parse(pending);
    if (last) yield last;
  } catch (e) {
    if (e instanceof AxsimError) throw e;
    const msg = (e as Error).message ?? String(e);
    throw badInput(`cannot read ${file}: ${msg}`, {
      location: { file, line: line + 1 },
      hint: file.endsWith('.gz') ? 'the file may be truncated or not gzip-compressed' : undefined,
      cause: e,
    });
  } finally {
    raw.destroy();
  }
}
