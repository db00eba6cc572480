/**
 * The canonical text form of one instruction, `NAME field=value …`, derived from the encoding table
 * (`../encoding.ts`): every field by its ttsim name, highest bits first (the order in which the
 * tt-llk macros list their arguments). SFPLOADMACRO is shown in its documented view
 * (tt-isa-documentation WormholeB0 SFPLOADMACRO.md, "Syntax"): `macro_index`, the combined
 * destination register `vd` = VDHi:VDLo, `instr_mod0`, `sfpu_addr_mode`, and `imm9`.
 */
import type { FieldDef, InsnDef } from '../encoding.ts';

/** One slice `field[hi:lo]` of a raw encoding field (bit positions within the field's value). */
export interface FieldSlice {
  readonly field: FieldDef;
  readonly hi: number;
  readonly lo: number;
}

/** A field as written in canonical text: the concatenation of slices, most significant first. */
export interface SyntaxField {
  readonly name: string;
  readonly width: number;
  readonly slices: readonly FieldSlice[];
}

/**
 * Views that differ from "one syntax field per encoding field", as data: view field name ->
 * slices `field[hi:lo]` (msb first); `*` stands for the field's top bit.
 */
const VIEWS: Record<string, readonly (readonly [string, ...string[]])[]> = {
  SFPLOADMACRO: [
    ['macro_index', 'lreg_ind[3:2]'],
    ['vd', 'dest_reg_addr[0:0]', 'lreg_ind[1:0]'],
    ['instr_mod0', 'instr_mod0[*:0]'],
    ['sfpu_addr_mode', 'sfpu_addr_mode[*:0]'],
    ['imm9', 'dest_reg_addr[*:1]'],
  ],
};

/**
 * The pseudo-field for set bits that belong to no field, written in place (`unused_bits=0xfe9000`),
 * as ttsim prints them (the conformance vectors' template-load words have them).
 */
export const UNUSED_BITS = 'unused_bits';

/** Field names compare without case and underscores, so `VD`, `vd`, `MacroIndex` all work. */
export const normName = (s: string) => s.replace(/_/g, '').toLowerCase();

const cache = new WeakMap<InsnDef, { plain: SyntaxField[]; view?: SyntaxField[] }>();

function plainFields(def: InsnDef): SyntaxField[] {
  return [...def.fields]
    .sort((a, b) => b.lo - a.lo)
    .map((f) => ({ name: f.name, width: f.width, slices: [{ field: f, hi: f.width - 1, lo: 0 }] }));
}

function viewFields(def: InsnDef): SyntaxField[] | undefined {
  const spec = VIEWS[def.name];
  if (!spec) return undefined;
  return spec.map(([name, ...parts]) => {
    const slices = parts.map((p) => {
      const m = /^(\w+)\[(\*|\d+):(\d+)\]$/.exec(p)!;
      const field = def.fields.find((f) => f.name === m[1]);
      if (!field) throw new Error(`asm view of ${def.name}: no field ${m[1]}`);
      return { field, hi: m[2] === '*' ? field.width - 1 : Number(m[2]), lo: Number(m[3]) };
    });
    return { name, width: slices.reduce((w, s) => w + s.hi - s.lo + 1, 0), slices };
  });
}

export function syntaxOf(def: InsnDef): { plain: SyntaxField[]; view?: SyntaxField[] } {
  let s = cache.get(def);
  if (!s) {
    s = { plain: plainFields(def), view: viewFields(def) };
    cache.set(def, s);
  }
  return s;
}

/** The fields the disassembler prints: the view where there is one. */
export function printedFields(def: InsnDef): SyntaxField[] {
  const s = syntaxOf(def);
  return s.view ?? s.plain;
}

export function sliceValue(word: number, sf: SyntaxField): number {
  let v = 0;
  for (const s of sf.slices) {
    const fv = (word >>> s.field.lo) & s.field.valueMask;
    const w = s.hi - s.lo + 1;
    v = v * 2 ** w + ((fv >>> s.lo) & ((1 << w) - 1));
  }
  return v;
}

/** The word bits contributed by syntax field `sf` holding `v` (which must fit `sf.width`). */
export function placeValue(v: number, sf: SyntaxField): number {
  let word = 0;
  let rest = v;
  for (let k = sf.slices.length - 1; k >= 0; k--) {
    const s = sf.slices[k]!;
    const w = s.hi - s.lo + 1;
    const part = rest % 2 ** w;
    rest = Math.floor(rest / 2 ** w);
    word |= part << (s.field.lo + s.lo);
  }
  return word >>> 0;
}

export function formatValue(v: number, width: number): string {
  return width <= 4 || v < 10 ? String(v) : `0x${v.toString(16)}`;
}
