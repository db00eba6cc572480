import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { AxsimError, badInput, resourceLimit } from '../errors.ts';

/** One vector is a few KiB; a line far longer is not a vector file (and JSON.parse would choke). */
const MAX_LINE = 64 << 20;

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
  // The current line's pieces: each chunk is scanned once for newlines, so reading is linear in
  // the input even when one line is megabytes long (re-scanning a growing string was quadratic).
  const pieces: string[] = [];
  let pieceBytes = 0;
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
      const text = decoder.write(chunk as Buffer);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        pieces.push(text.slice(start, nl));
        const rec = parse(pieces.join(''));
        pieces.length = 0;
        pieceBytes = 0;
        start = nl + 1;
        if (rec) yield rec;
      }
      if (start < text.length) {
        pieces.push(text.slice(start));
        pieceBytes += text.length - start;
        if (pieceBytes > MAX_LINE) {
          throw resourceLimit(`line ${line + 1} is longer than ${MAX_LINE} characters`, {
            location: { file, line: line + 1 },
          });
        }
      }
    }
    pieces.push(decoder.end());
    const last = parse(pieces.join(''));
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
