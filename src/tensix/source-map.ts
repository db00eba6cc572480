/**
 * Source locations of instruction words: which statement of which file produced word i. Run-time
 * errors, hazards and timeline rows use it to name `file:line:col` instead of `[instruction i]`
 * alone (issue 11). The map is indexed by the position of the word in the source words (the index
 * `Program.sourceIndex` and `AxsimError.location.index` use), so REPLAY expansion keeps it valid.
 *
 * The assembler gives per word either `sources: {file, line, col}[]` (the C/C++ front end) or
 * `lines: number[]` (the 1-based line only); `sourceMapOf` accepts both.
 */
import { AxsimError, type ErrorLocation, formatLocation } from '../errors.ts';

export interface SourceLoc {
  file?: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col?: number;
}

/** Per source word: where it came from (undefined: unknown, e.g. words read from a hex file). */
export type SourceMap = ReadonlyArray<SourceLoc | undefined>;

/**
 * The source map of an assembly result: its `sources` when it has them, else its `lines` with
 * `file` (the name the program was read from).
 */
export function sourceMapOf(
  r: { lines?: ReadonlyArray<number>; sources?: ReadonlyArray<SourceLoc | undefined> },
  file?: string,
): SourceMap {
  if (r.sources && r.sources.length > 0) {
    return r.sources.map((s) => (s ? { ...s, file: s.file ?? file } : undefined));
  }
  return (r.lines ?? []).map((line) => (line > 0 ? { file, line } : undefined));
}

/** The location of source word `index`: its file/line/col when known, and always the index. */
export function locationOf(sources: SourceMap | undefined, index: number): ErrorLocation {
  const s = index >= 0 ? sources?.[index] : undefined;
  if (!s) return { index };
  const loc: ErrorLocation = { index, line: s.line };
  if (s.file !== undefined) loc.file = s.file;
  if (s.col !== undefined) loc.col = s.col;
  return loc;
}

/** `file:line:col` (or `[instruction i]` when the word has no source). */
export function formatSourceOf(sources: SourceMap | undefined, index: number): string {
  const loc = locationOf(sources, index);
  if (loc.line === undefined) return formatLocation(loc);
  return formatLocation({ ...loc, index: undefined });
}

/**
 * An AxsimError whose location names an instruction index gains that word's file/line/col; any
 * other value is returned as it is.
 */
export function withSource<T>(e: T, sources: SourceMap | undefined): T | AxsimError {
  if (!sources || !(e instanceof AxsimError)) return e;
  const idx = e.location?.index;
  if (idx === undefined || e.location?.line !== undefined) return e;
  const loc = locationOf(sources, idx);
  return loc.line === undefined ? e : e.at(loc);
}
