/**
 * The compile listing (issue 12, `axsim tensix compile`): the words of a compiled kernel grouped by
 * the source line they came from, each group headed by that line's text — Compiler Explorer's view.
 * `listingJson` is the same for tools.
 */
import { disassembleWord } from '../asm/disassemble.ts';
import type { AssembleResult } from '../asm/kernel.ts';
import type { Arch } from '../encoding.ts';

export interface ListingGroup {
  file?: string;
  line?: number;
  /** The source line's text (when the file's text is known). */
  source?: string;
  /** The instructions of this group: tt-llk macro calls, and the words. */
  insns: { word: number; text: string }[];
}

/**
 * Groups consecutive words by their source position. `texts` gives the text of each file by name
 * (the main file at least); lines of files not given have no `source`.
 */
export function listingGroups(
  r: Pick<AssembleResult, 'words' | 'sources' | 'lines'>,
  arch: Arch,
  texts: Readonly<Record<string, string>>,
): ListingGroup[] {
  const lines = new Map(Object.entries(texts).map(([f, t]) => [f, t.split(/\r?\n/)]));
  const out: ListingGroup[] = [];
  for (let k = 0; k < r.words.length; k++) {
    const s = r.sources[k];
    const file = s?.file;
    const line = s?.line ?? (r.lines[k]! > 0 ? r.lines[k] : undefined);
    const last = out[out.length - 1];
    const text = disassembleWord(r.words[k]!, arch, { style: 'macro', comments: false });
    if (last && last.file === file && last.line === line) {
      last.insns.push({ word: r.words[k]!, text });
      continue;
    }
    const src = file !== undefined && line !== undefined ? lines.get(file)?.[line - 1] : undefined;
    out.push({
      ...(file !== undefined ? { file } : {}),
      ...(line !== undefined ? { line } : {}),
      ...(src !== undefined ? { source: src.trim() } : {}),
      insns: [{ word: r.words[k]!, text }],
    });
  }
  return out;
}

/** The listing as text: `// file:line: source` then the instructions, indented. */
export function listingText(groups: readonly ListingGroup[]): string {
  const out: string[] = [];
  for (const g of groups) {
    const where = g.line !== undefined ? `${g.file ?? ''}:${g.line}` : '(no source line)';
    out.push(`// ${where}${g.source !== undefined ? `: ${g.source}` : ''}`);
    for (const i of g.insns) out.push(`  ${i.text}`);
  }
  return out.join('\n');
}
