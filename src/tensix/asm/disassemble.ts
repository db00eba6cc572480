/**
 * The Tensix disassembler: each word becomes one line of canonical text (`syntax.ts`), which the
 * assembler reads back to the same word. Bits set outside the instruction's fields are shown as
 * `unused_bits=0x…` (as ttsim prints them); a word whose opcode the arch does not have is printed
 * as `.word 0x…` with a comment, so that every 32-bit word round-trips.
 */
import { AxsimError, badInput } from '../../errors.ts';
import { type Arch, byOpcode, parseArch, templateLoadSlot } from '../encoding.ts';
import { formatValue, printedFields, sliceValue, UNUSED_BITS } from './syntax.ts';
import { archTables, type MacroArg } from './tables.ts';

export interface DisassembleOptions {
  /** Add `// …` notes (undecodable words, template loads). Default true. */
  comments?: boolean;
  /**
   * `canonical` (default): `NAME field=value …`; `macro`: the tt-llk call `TTI_NAME(args…);` that
   * gives the word, arguments in the macro's order (the word's bits at each argument's shift).
   */
  style?: 'canonical' | 'macro';
}

const hex32 = (w: number) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

/** A word's canonical text and, where something is worth saying about it, a note. */
export function describeWord(word: number, arch: Arch): { text: string; note?: string } {
  if (arch !== 'wormhole' && arch !== 'blackhole') arch = parseArch(String(arch));
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

/** p_sfpu names of the LReg numbers (ckernel_instr_params.h); 11 is printed as LREG11. */
const LREG_NAMES = [
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => `p_sfpu::LREG${k}`),
  'p_sfpu::LCONST_0_8373',
  'p_sfpu::LCONST_0',
  'p_sfpu::LCONST_1',
  'p_sfpu::LREG11',
  'p_sfpu::LREG12',
  'p_sfpu::LREG13',
  'p_sfpu::LREG14',
  'p_sfpu::LTILEID',
];

function macroArgText(name: string, a: MacroArg, v: number): string {
  if (a.name.startsWith('lreg_') && v < 16 && name !== 'SFPLOADMACRO') return LREG_NAMES[v]!;
  if (a.name === 'sfpu_addr_mode') return `ADDR_MOD_${v}`;
  return v < 10 ? String(v) : `0x${v.toString(16)}`;
}

/**
 * The word as a tt-llk macro call, derived from the macro table alone; undefined when no macro has
 * its opcode or when it has set bits below the lowest argument.
 */
export function macroText(word: number, arch: Arch): string | undefined {
  if (arch !== 'wormhole' && arch !== 'blackhole') arch = parseArch(String(arch));
  const def = archTables(arch).macroByOpcode.get(word >>> 24);
  if (!def) return undefined;
  const low = def.args.length ? def.args[def.args.length - 1]!.shift : 24;
  if ((word & 0xffffff) % 2 ** low !== 0) return undefined;
  if (def.args.length === 0) return `TTI_${def.name};`;
  const args = def.args.map((a) => macroArgText(def.name, a, (word >>> a.shift) & (2 ** a.width - 1)));
  return `TTI_${def.name}(${args.join(', ')});`;
}

/** The word in the given style (see DisassembleOptions.style), with its note if any. */
export function describeWordAs(
  word: number,
  arch: Arch,
  style: DisassembleOptions['style'] = 'canonical',
): { text: string; note?: string } {
  const described = describeWord(word, arch);
  if (style !== 'macro') return described;
  const macro = macroText(word, arch);
  if (macro === undefined) {
    return {
      text: described.text,
      note: `no tt-llk macro gives this word${described.note ? `; ${described.note}` : ''}`,
    };
  }
  if (!byOpcode(word >>> 24, arch)) {
    return { text: macro, note: `not in axsim's ${arch} encoding table: assembles, but cannot run` };
  }
  return described.note ? { text: macro, note: described.note } : { text: macro };
}

export function disassembleWord(word: number, arch: Arch, opts: DisassembleOptions = {}): string {
  const { text, note } = describeWordAs(word, arch, opts.style);
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
