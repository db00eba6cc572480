/**
 * Tensix instruction encodings, derived from the data table in `encoding-data.ts`.
 *
 * Exported API (all words are unsigned 32-bit integers; `arch` is 'wormhole' | 'blackhole'):
 * - `type Arch`, `ARCHES`, `parseArch(s)` — 'wh'/'bh' and the full names are accepted.
 * - `instructionSet(arch): readonly InsnDef[]` — every instruction of that generation.
 * - `lookup(name, arch): InsnDef` — by name (case-insensitive); unknown names throw BadInput with
 *   the nearest known name as hint.
 * - `byOpcode(opcode, arch): InsnDef | undefined`.
 * - `decode(word, arch): DecodedInsn` — `{ def, name, word, fields }` with every field's value by
 *   name. Throws AxsimError (never anything else): UndefinedBehaviour for an opcode the generation
 *   does not have, or for set bits outside the instruction's fields (as ttsim's decoder does;
 *   `decode(w, arch, { allowReserved: true })` skips that check, e.g. for template-load words, and
 *   then encode() of the result drops those bits).
 * - `encode(insn, fields, arch?): number` — `insn` is an InsnDef or a name (then `arch`, default
 *   'wormhole', picks the table). Missing fields are 0; unknown fields or values that do not fit
 *   throw BadInput naming the instruction and field. `encode(decode(w).def, decode(w).fields) === w`.
 * - `formatDecoded(d): string` — ttsim's form `NAME field=value …` (decimal values, fields from
 *   the least significant bit up, then `unused_bits=0x…` if any), as in the conformance vectors'
 *   `asm` strings.
 * - `fieldValue(word, f)`, `templateLoadSlot(word, arch)`, `loadMacroView(fields)`.
 */
import { badInput, nearestName, undefinedBehaviour } from '../errors.ts';
import { ENCODINGS, type EncodingRow } from './encoding-data.ts';

export type Arch = 'wormhole' | 'blackhole';
export const ARCHES: readonly Arch[] = ['wormhole', 'blackhole'];

export interface FieldDef {
  readonly name: string;
  readonly hi: number;
  readonly lo: number;
  readonly width: number;
  /** Mask of the field's value before shifting (width ones). */
  readonly valueMask: number;
  /** Mask of the field's bits in the word. */
  readonly wordMask: number;
}

export interface InsnDef {
  readonly name: string;
  readonly opcode: number;
  readonly arch: Arch;
  /** Fields from the least significant bit up. */
  readonly fields: readonly FieldDef[];
  /** Bits 23:0 that belong to no field; ttsim treats a set one as undefined behaviour. */
  readonly reservedMask: number;
  readonly unit: EncodingRow['unit'];
  readonly doc: string;
}

export interface DecodedInsn {
  readonly def: InsnDef;
  readonly name: string;
  readonly word: number;
  readonly fields: Readonly<Record<string, number>>;
  /** Bits set outside every field (only non-zero when decoded with `allowReserved`). */
  readonly unusedBits: number;
}

export function parseArch(s: string): Arch {
  const k = s.toLowerCase();
  if (k === 'wormhole' || k === 'wh' || k === 'wormhole_b0' || k === 'wormholeb0') return 'wormhole';
  if (k === 'blackhole' || k === 'bh') return 'blackhole';
  throw badInput(`unknown Tensix architecture '${s}'`, { hint: 'use wormhole (wh) or blackhole (bh)' });
}

function parseFields(name: string, spec: string): FieldDef[] {
  if (spec.trim() === '') return [];
  const out = spec.split(',').map((part) => {
    const m = /^\s*(\w+)\s+(\d+):(\d+)\s*$/.exec(part);
    if (!m) throw new Error(`encoding table: bad field '${part}' in ${name}`);
    const hi = Number(m[2]);
    const lo = Number(m[3]);
    if (hi < lo || hi > 23) throw new Error(`encoding table: bad range in ${name}.${m[1]}`);
    const width = hi - lo + 1;
    const valueMask = width === 32 ? 0xffffffff : (1 << width) - 1;
    return { name: m[1]!, hi, lo, width, valueMask, wordMask: (valueMask << lo) >>> 0 };
  });
  out.sort((a, b) => a.lo - b.lo);
  return out;
}

function build(arch: Arch): { list: InsnDef[]; byOp: (InsnDef | undefined)[]; byName: Map<string, InsnDef> } {
  const list: InsnDef[] = [];
  const byOp: (InsnDef | undefined)[] = new Array(256).fill(undefined);
  const byName = new Map<string, InsnDef>();
  for (const row of ENCODINGS) {
    if (row.arch && row.arch !== arch) continue;
    const fields = parseFields(row.name, arch === 'blackhole' && row.bh !== undefined ? row.bh : row.fields);
    let used = 0;
    for (const f of fields) {
      if (used & f.wordMask) throw new Error(`encoding table: overlapping fields in ${row.name}`);
      used |= f.wordMask;
    }
    const def: InsnDef = {
      name: row.name,
      opcode: row.opcode,
      arch,
      fields,
      reservedMask: 0xffffff & ~used,
      unit: row.unit,
      doc: row.doc,
    };
    if (byOp[row.opcode]) throw new Error(`encoding table: opcode 0x${row.opcode.toString(16)} used twice`);
    byOp[row.opcode] = def;
    byName.set(row.name.toUpperCase(), def);
    list.push(def);
  }
  return { list, byOp, byName };
}

const TABLES = { wormhole: build('wormhole'), blackhole: build('blackhole') };

export function instructionSet(arch: Arch): readonly InsnDef[] {
  return TABLES[arch].list;
}

export function byOpcode(opcode: number, arch: Arch): InsnDef | undefined {
  return TABLES[arch].byOp[opcode & 0xff];
}

export function lookup(name: string, arch: Arch): InsnDef {
  const t = TABLES[arch];
  const def = t.byName.get(name.toUpperCase());
  if (def) return def;
  const other = TABLES[arch === 'wormhole' ? 'blackhole' : 'wormhole'].byName.get(name.toUpperCase());
  if (other)
    throw badInput(`${other.name} does not exist on ${arch}`, { hint: `it is a ${other.arch} instruction` });
  const near = nearestName(
    name,
    t.list.map((d) => d.name),
  );
  throw badInput(`unknown Tensix instruction '${name}'`, {
    hint: near ? `did you mean ${near}?` : undefined,
  });
}

export function fieldValue(word: number, f: FieldDef): number {
  return (word >>> f.lo) & f.valueMask;
}

function hex(w: number): string {
  return `0x${(w >>> 0).toString(16).padStart(8, '0')}`;
}

export function decode(word: number, arch: Arch, opts?: { allowReserved?: boolean }): DecodedInsn {
  if (!Number.isInteger(word) || word < 0 || word > 0xffffffff) {
    throw badInput(`instruction word ${word} is not a 32-bit unsigned integer`);
  }
  const def = TABLES[arch].byOp[word >>> 24];
  if (!def) {
    throw undefinedBehaviour(
      `${hex(word)}: no instruction with opcode 0x${(word >>> 24).toString(16)} on ${arch}`,
    );
  }
  const stray = word & def.reservedMask;
  if (stray && !opts?.allowReserved) {
    throw undefinedBehaviour(
      `${hex(word)}: ${def.name} has bits set outside its fields (mask ${hex(stray)})`,
      {
        hint: 'the decoder requires unused bits to be zero',
      },
    );
  }
  const fields: Record<string, number> = {};
  for (const f of def.fields) fields[f.name] = fieldValue(word, f);
  return { def, name: def.name, word: word >>> 0, fields, unusedBits: stray >>> 0 };
}

export function encode(
  insn: InsnDef | string,
  fields: Readonly<Record<string, number>>,
  arch: Arch = 'wormhole',
): number {
  const def = typeof insn === 'string' ? lookup(insn, arch) : insn;
  let word = def.opcode << 24;
  for (const key of Object.keys(fields)) {
    if (!def.fields.some((f) => f.name === key)) {
      const near = nearestName(
        key,
        def.fields.map((f) => f.name),
      );
      throw badInput(`${def.name} has no field '${key}'`, {
        hint: near
          ? `did you mean ${near}?`
          : `its fields are: ${def.fields.map((f) => f.name).join(', ') || '(none)'}`,
      });
    }
  }
  for (const f of def.fields) {
    const v = fields[f.name] ?? 0;
    if (!Number.isInteger(v) || v < 0 || v > f.valueMask) {
      throw badInput(
        `${def.name} field ${f.name} = ${v} does not fit in ${f.width} bit(s) (${f.hi}:${f.lo})`,
      );
    }
    word |= v << f.lo;
  }
  return word >>> 0;
}

export function formatDecoded(d: DecodedInsn): string {
  const parts = [d.name];
  for (const f of d.def.fields) parts.push(`${f.name}=${d.fields[f.name]}`);
  // ttsim's decoder prints stray bits of template-load words this way.
  if (d.unusedBits) parts.push(`unused_bits=0x${d.unusedBits.toString(16).padStart(6, '0')}`);
  return parts.join(' ');
}

/**
 * For opcodes 0x74..0x99 other than SFPCONFIG (0x91) and SFPLOADMACRO (0x93), a VD field (bits 7:4)
 * of 12..15 makes the word a LoadMacroConfig instruction-template write instead of an instruction
 * (SFPU-FORMAT.md "Backdoor template load"; tt-isa-documentation SFPLOADMACRO.md / SFPCONFIG.md).
 * Returns the template slot 0..3, or -1 when the word is an ordinary instruction.
 */
export function templateLoadSlot(word: number, arch: Arch): number {
  const op = word >>> 24;
  if (op < 0x74 || op === 0x91 || op === 0x93) return -1;
  if (op > (arch === 'blackhole' ? 0x99 : 0x95)) return -1;
  const vd = (word >>> 4) & 15;
  return vd >= 12 ? vd - 12 : -1;
}

/** The documented view of SFPLOADMACRO's fields (tt-isa-documentation SFPLOADMACRO.md, Syntax). */
export function loadMacroView(fields: Readonly<Record<string, number>>): {
  MacroIndex: number;
  VDLo: number;
  VDHi: number;
  Imm9: number;
  /** The LReg the SFPLOAD part writes: VDHi << 2 | VDLo. */
  VD: number;
  /** The Dst address offset of the SFPLOAD part: Imm9 << 1 | VDHi. */
  Imm10: number;
} {
  const lregInd = fields.lreg_ind ?? 0;
  const addr = fields.dest_reg_addr ?? 0;
  const VDLo = lregInd & 3;
  const VDHi = addr & 1;
  return {
    MacroIndex: lregInd >> 2,
    VDLo,
    VDHi,
    Imm9: addr >> 1,
    VD: (VDHi << 2) | VDLo,
    Imm10: addr,
  };
}
