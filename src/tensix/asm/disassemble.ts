/**
 * The Tensix disassembler: each word becomes one line of canonical text (`syntax.ts`), which the
 * assembler reads back to the same word. Bits set outside the instruction's fields are shown as
 * `unused_bits=0x…` (as ttsim prints them); a word whose opcode the arch does not have is printed
 * as `.word 0x…` with a comment, so that every 32-bit word round-trips.
 */
import { AxsimError, badInput } from '../../errors.ts';
import { type Arch, byOpcode, templateLoadSlot } from '../encoding.ts';
import { formatValue, printedFields, sliceValue, UNUSED_BITS } from './syntax.ts';

export interface DisassembleOptions {
  /** Add `// …` notes (undecodable words, template loads). Default true. */
  comments?: boolean;
}

const hex32 = (w: number) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

/** A word's canonical text and, where something is worth saying about it, a note. */
export function describeWord(word: number, arch: Arch): { text: string; note?: string } {
  if (typeof word !== 'number' || !Number.isInteger(word) || word < 0 || word > 0xffffffff) {
    throw badInput(`instruction word ${String(word)} is not a 32-bit unsigned integer`);
  }
  const def = byOpcode(word >>> 24, arch);
  if (!def) {
    return {
      text: `.word ${hex32(word)}`,
      note: `no ${arch} instruction has opcode 0x${(word >>> 24).toString(16)}`,
    };
  }
  let text = def.name;
  for (const f of printedFields(def)) text += ` ${f.name}=${formatValue(sliceValue(word, f), f.width)}`;
  const stray = (word & def.reservedMask) >>> 0;
  if (stray) text += ` ${UNUSED_BITS}=0x${stray.toString(16)}`;
  const slot = templateLoadSlot(word, arch);
  if (slot >= 0)
    return { text, note: `VD >= 12: stored as LoadMacroConfig instruction template ${slot}, not executed` };
  if (stray) return { text, note: 'bits outside the fields are set: the decoder treats this as undefined' };
  return { text };
}

export function disassembleWord(word: number, arch: Arch, opts: DisassembleOptions = {}): string {
  const { text, note } = describeWord(word, arch);
  return note && (opts.comments ?? true) ? `${text}  // ${note}` : text;
}

/** One line per word. Throws only BadInput, and only for values that are not 32-bit words. */
export function disassemble(words: ArrayLike<number>, arch: Arch, opts: DisassembleOptions = {}): string[] {
  const out = new Array<string>(words.length);
  for (let k = 0; k < words.length; k++) {
    try {
      out[k] = disassembleWord(words[k]!, arch, opts);
    } catch (e) {
      throw e instanceof AxsimError ? e.at({ index: k }) : e;
    }
  }
  return out;
}
