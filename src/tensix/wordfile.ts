/**
 * Instruction-word files and the arch they were assembled for. The same word can mean different
 * things on Wormhole and Blackhole (e.g. SFPLOAD's AddrMod is 2 bits on Wormhole and 3 on
 * Blackhole, so a Blackhole ADDR_MOD_6 reads as ADDR_MOD_3 plus a Mod0 bit on Wormhole), so
 * `tensix asm --hex` writes a first line
 *
 *     # axsim tensix words arch=blackhole
 *
 * (a comment to every reader of word lists), `asm --json` has `arch`, and `disasm`/`run` take the
 * arch from there. An explicit `--arch` that disagrees is an error; words with no recorded arch use
 * the default (wormhole) and a warning names the first word the two arches read differently.
 */
import { badInput } from '../errors.ts';
import { describeWord } from './asm/disassemble.ts';
import { type Arch, parseArch } from './encoding.ts';

export const WORDS_HEADER = '# axsim tensix words';

/** The header line for a word list of `arch`. */
export function wordsHeader(arch: Arch): string {
  return `${WORDS_HEADER} arch=${arch}`;
}

/** The arch a word-list text records (its header line), or undefined. */
export function recordedArch(text: string): Arch | undefined {
  for (const line of text.split(/\r?\n/, 8)) {
    const m = /^\s*#\s*axsim tensix words\b(.*)$/.exec(line);
    if (!m) continue;
    const a = /\barch=([A-Za-z0-9_]+)/.exec(m[1]!);
    if (!a) throw badInput(`${WORDS_HEADER} header without arch=…`);
    return parseArch(a[1]!);
  }
  return undefined;
}

/**
 * The arch to use: the recorded one, checked against an explicit `--arch`; else the explicit one;
 * else wormhole. `what` names the input in messages.
 */
export function resolveArch(
  recorded: Arch | undefined,
  explicit: string | undefined,
  what: string,
): { arch: Arch; defaulted: boolean } {
  const given = explicit !== undefined ? parseArch(explicit) : undefined;
  if (recorded && given && recorded !== given) {
    throw badInput(`${what} records arch=${recorded} but --arch ${given} was given`, {
      hint: 'the words were assembled for the recorded arch; drop --arch or re-assemble for the other one',
    });
  }
  const arch = recorded ?? given;
  return arch ? { arch, defaulted: false } : { arch: 'wormhole', defaulted: true };
}

/**
 * The first word whose meaning differs between the arches (decoded text), or undefined when every
 * word reads the same on both.
 */
export function firstArchDifference(
  words: ArrayLike<number>,
): { index: number; wormhole: string; blackhole: string } | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]! >>> 0;
    const wh = describeWord(w, 'wormhole').text;
    const bh = describeWord(w, 'blackhole').text;
    if (wh !== bh) return { index: i, wormhole: wh, blackhole: bh };
  }
  return undefined;
}

/** The warning for words without a recorded arch that the arches read differently (undefined: none). */
export function ambiguityWarning(words: ArrayLike<number>, what: string): string | undefined {
  const d = firstArchDifference(words);
  if (!d) return undefined;
  return (
    `${what} records no arch and is read as wormhole; word ${d.index} means '${d.wormhole}' on wormhole ` +
    `but '${d.blackhole}' on blackhole (pass --arch, or write words with \`tensix asm --hex\`, which records it)`
  );
}
