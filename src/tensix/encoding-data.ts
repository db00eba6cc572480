/**
 * Tensix instruction encodings as data, for Wormhole B0 and Blackhole.
 *
 * One row per instruction: name, opcode (bits 31:24) and its fields as `name hi:lo`, listed from the
 * least significant bit up (the order ttsim's decoder prints them in). Where Blackhole differs, `bh`
 * holds its field list; `arch` restricts a row to one generation. Everything else (decoder, encoder,
 * disassembler, assembler) is derived from this table in `encoding.ts`.
 *
 * Sources:
 * - SFPU rows: field names and bit ranges of tenstorrent/ttsim `data/{wh,bh}/tensix_isa.json` (the names
 *   the conformance vectors' `asm` strings use), cross-checked with the encoding diagrams of
 *   tt-isa-documentation `WormholeB0/TensixTile/TensixCoprocessor/SFP*.md` and the BlackholeA0 pages.
 * - SETRWC, INCRWC, SETC16, RMWCIB0-3, STALLWAIT: ttsim `tensix_isa.json` (same names as tt-llk
 *   `ckernel_ops.h`).
 * - REPLAY: ttsim's JSON gives only start bits here, so the ranges follow tt-llk `TT_OP_REPLAY`
 *   (start_idx << 14, len << 4, execute_while_loading << 1, load_mode) with each field running up to
 *   the next one; bits 3:2 are unused.
 * - SFPLOADMACRO: the same fields as SFPLOAD (ttsim names). Its documented view (tt-isa-documentation
 *   SFPLOADMACRO.md) is lreg_ind = MacroIndex << 2 | VDLo and dest_reg_addr = Imm9 << 1 | VDHi; see
 *   `loadMacroView` in encoding.ts.
 */

export interface EncodingRow {
  name: string;
  opcode: number;
  /** Fields as `name hi:lo, …` (Wormhole, and Blackhole unless `bh` is given). */
  fields: string;
  /** Blackhole's field list when it differs. */
  bh?: string;
  /** Restricts the row to one generation. */
  arch?: 'wormhole' | 'blackhole';
  /** The execution unit, for documentation and for the timing model. */
  unit: 'sfpu' | 'matrix' | 'config' | 'frontend' | 'sync';
  /** The reference page that defines the instruction. */
  doc: string;
}

const LDST_WH = 'dest_reg_addr 9:0, sfpu_addr_mode 15:14, instr_mod0 19:16, lreg_ind 23:20';
const LDST_BH = 'dest_reg_addr 9:0, sfpu_addr_mode 15:13, instr_mod0 19:16, lreg_ind 23:20';
const MAD3 = 'instr_mod1 3:0, lreg_dest 7:4, lreg_src_c 11:8, lreg_src_b 15:12, lreg_src_a 19:16';
const RC = 'instr_mod1 3:0, lreg_dest 7:4, lreg_c 11:8';
const RC_IMM12 = 'instr_mod1 3:0, lreg_dest 7:4, lreg_c 11:8, imm12_math 23:12';
const IMM16 = 'instr_mod1 3:0, lreg_dest 7:4, imm16_math 23:8';
const SFPU = 'sfpu' as const;

export const ENCODINGS: readonly EncodingRow[] = [
  { name: 'NOP', opcode: 0x02, fields: '', unit: 'frontend', doc: 'tt-llk assembly.yaml NOP' },
  {
    name: 'REPLAY',
    opcode: 0x04,
    fields: 'load_mode 0:0, execute_while_loading 1:1, len 13:4, start_idx 23:14',
    unit: 'frontend',
    doc: 'WormholeB0/TensixTile/TensixCoprocessor/REPLAY.md',
  },
  {
    name: 'SETRWC',
    opcode: 0x37,
    fields: 'bit_mask 3:0, rwc_a 9:6, rwc_b 13:10, rwc_d 17:14, rwc_cr 21:18, clear_ab_vld 23:22',
    unit: 'matrix',
    doc: 'WormholeB0/TensixTile/TensixCoprocessor/SETRWC.md',
  },
  {
    name: 'INCRWC',
    opcode: 0x38,
    fields: 'rwc_a 9:6, rwc_b 13:10, rwc_d 17:14, rwc_cr 20:18',
    unit: 'matrix',
    doc: 'WormholeB0/TensixTile/TensixCoprocessor/INCRWC.md',
  },
  { name: 'SFPLOAD', opcode: 0x70, fields: LDST_WH, bh: LDST_BH, unit: SFPU, doc: 'SFPLOAD.md' },
  {
    name: 'SFPLOADI',
    opcode: 0x71,
    fields: 'imm16 15:0, instr_mod0 19:16, lreg_ind 23:20',
    unit: SFPU,
    doc: 'SFPLOADI.md',
  },
  { name: 'SFPSTORE', opcode: 0x72, fields: LDST_WH, bh: LDST_BH, unit: SFPU, doc: 'SFPSTORE.md' },
  { name: 'SFPLUT', opcode: 0x73, fields: 'instr_mod0 19:16, lreg_ind 23:20', unit: SFPU, doc: 'SFPLUT.md' },
  { name: 'SFPMULI', opcode: 0x74, fields: IMM16, unit: SFPU, doc: 'SFPMULI.md' },
  { name: 'SFPADDI', opcode: 0x75, fields: IMM16, unit: SFPU, doc: 'SFPADDI.md' },
  { name: 'SFPDIVP2', opcode: 0x76, fields: RC_IMM12, unit: SFPU, doc: 'SFPDIVP2.md' },
  { name: 'SFPEXEXP', opcode: 0x77, fields: RC, unit: SFPU, doc: 'SFPEXEXP.md' },
  { name: 'SFPEXMAN', opcode: 0x78, fields: RC, unit: SFPU, doc: 'SFPEXMAN.md' },
  { name: 'SFPIADD', opcode: 0x79, fields: RC_IMM12, unit: SFPU, doc: 'SFPIADD.md' },
  { name: 'SFPSHFT', opcode: 0x7a, fields: RC_IMM12, unit: SFPU, doc: 'SFPSHFT.md' },
  { name: 'SFPSETCC', opcode: 0x7b, fields: `${RC}, imm12_math 12:12`, unit: SFPU, doc: 'SFPSETCC.md' },
  { name: 'SFPMOV', opcode: 0x7c, fields: RC, unit: SFPU, doc: 'SFPMOV.md' },
  { name: 'SFPABS', opcode: 0x7d, fields: RC, unit: SFPU, doc: 'SFPABS.md' },
  { name: 'SFPAND', opcode: 0x7e, fields: `${RC}, imm12_math 15:12`, unit: SFPU, doc: 'SFPAND.md' },
  { name: 'SFPOR', opcode: 0x7f, fields: `${RC}, imm12_math 15:12`, unit: SFPU, doc: 'SFPOR.md' },
  { name: 'SFPNOT', opcode: 0x80, fields: 'lreg_dest 7:4, lreg_c 11:8', unit: SFPU, doc: 'SFPNOT.md' },
  { name: 'SFPLZ', opcode: 0x81, fields: RC, unit: SFPU, doc: 'SFPLZ.md' },
  { name: 'SFPSETEXP', opcode: 0x82, fields: `${RC}, imm12_math 19:12`, unit: SFPU, doc: 'SFPSETEXP.md' },
  { name: 'SFPSETMAN', opcode: 0x83, fields: RC_IMM12, unit: SFPU, doc: 'SFPSETMAN.md' },
  { name: 'SFPMAD', opcode: 0x84, fields: MAD3, unit: SFPU, doc: 'SFPMAD.md' },
  { name: 'SFPADD', opcode: 0x85, fields: MAD3, unit: SFPU, doc: 'SFPADD.md' },
  { name: 'SFPMUL', opcode: 0x86, fields: MAD3, unit: SFPU, doc: 'SFPMUL.md' },
  { name: 'SFPPUSHC', opcode: 0x87, fields: 'instr_mod1 3:0, lreg_dest 7:4', unit: SFPU, doc: 'SFPPUSHC.md' },
  { name: 'SFPPOPC', opcode: 0x88, fields: 'instr_mod1 3:0, lreg_dest 7:4', unit: SFPU, doc: 'SFPPOPC.md' },
  { name: 'SFPSETSGN', opcode: 0x89, fields: `${RC}, imm12_math 12:12`, unit: SFPU, doc: 'SFPSETSGN.md' },
  {
    name: 'SFPENCC',
    opcode: 0x8a,
    fields: 'instr_mod1 3:0, lreg_dest 7:4, imm12_math 13:12',
    unit: SFPU,
    doc: 'SFPENCC.md',
  },
  { name: 'SFPCOMPC', opcode: 0x8b, fields: 'lreg_dest 7:4', unit: SFPU, doc: 'SFPCOMPC.md' },
  { name: 'SFPTRANSP', opcode: 0x8c, fields: 'lreg_dest 7:4', unit: SFPU, doc: 'SFPTRANSP.md' },
  { name: 'SFPXOR', opcode: 0x8d, fields: 'lreg_dest 7:4, lreg_c 11:8', unit: SFPU, doc: 'SFPXOR.md' },
  {
    name: 'SFP_STOCH_RND',
    opcode: 0x8e,
    fields:
      'instr_mod1 3:0, lreg_dest 7:4, lreg_src_c 11:8, lreg_src_b 15:12, imm8_math 20:16, rnd_mode 21:21',
    bh: 'instr_mod1 3:0, lreg_dest 7:4, lreg_src_c 11:8, lreg_src_b 15:12, imm8_math 20:16, rnd_mode 22:21',
    unit: SFPU,
    doc: 'SFPSTOCHRND.md',
  },
  { name: 'SFPNOP', opcode: 0x8f, fields: '', unit: SFPU, doc: 'SFPNOP.md' },
  {
    name: 'SFPCAST',
    opcode: 0x90,
    fields: 'instr_mod1 3:0, lreg_dest 7:4, lreg_src_c 11:8',
    unit: SFPU,
    doc: 'SFPCAST.md',
  },
  {
    name: 'SFPCONFIG',
    opcode: 0x91,
    fields: 'instr_mod1 3:0, config_dest 7:4, imm16_math 23:8',
    unit: SFPU,
    doc: 'SFPCONFIG.md',
  },
  {
    name: 'SFPSWAP',
    opcode: 0x92,
    fields: 'instr_mod1 3:0, lreg_dest 7:4, lreg_src_c 11:8',
    unit: SFPU,
    doc: 'SFPSWAP.md',
  },
  { name: 'SFPLOADMACRO', opcode: 0x93, fields: LDST_WH, bh: LDST_BH, unit: SFPU, doc: 'SFPLOADMACRO.md' },
  {
    name: 'SFPSHFT2',
    opcode: 0x94,
    fields: 'instr_mod1 3:0, lreg_dest 7:4, lreg_src_c 11:8, imm12_math 23:12',
    unit: SFPU,
    doc: 'SFPSHFT2.md',
  },
  {
    name: 'SFPLUTFP32',
    opcode: 0x95,
    fields: 'instr_mod1 3:0, lreg_dest 7:4',
    unit: SFPU,
    doc: 'SFPLUTFP32.md',
  },
  { name: 'SFPLE', opcode: 0x96, fields: RC, arch: 'blackhole', unit: SFPU, doc: 'BlackholeA0 SFPLE.md' },
  { name: 'SFPGT', opcode: 0x97, fields: RC, arch: 'blackhole', unit: SFPU, doc: 'BlackholeA0 SFPGT.md' },
  {
    name: 'SFPMUL24',
    opcode: 0x98,
    fields: MAD3,
    arch: 'blackhole',
    unit: SFPU,
    doc: 'BlackholeA0 SFPMUL24.md',
  },
  {
    name: 'SFPARECIP',
    opcode: 0x99,
    fields: `${RC}, imm12_math 15:12`,
    arch: 'blackhole',
    unit: SFPU,
    doc: 'BlackholeA0 SFPARECIP.md',
  },
  {
    name: 'STALLWAIT',
    opcode: 0xa2,
    fields: 'wait_res 14:0, stall_res 23:15',
    bh: 'wait_res 11:0, stall_res 23:15',
    unit: 'sync',
    doc: 'WormholeB0/TensixTile/TensixCoprocessor/STALLWAIT.md',
  },
  ...[0, 1, 2, 3].map((n) => ({
    name: `RMWCIB${n}`,
    opcode: 0xb3 + n,
    fields: 'cfg_reg_addr 7:0, data 15:8, mask 23:16',
    unit: 'config' as const,
    doc: 'WormholeB0/TensixTile/TensixCoprocessor/RMWCIB.md',
  })),
  {
    name: 'SETC16',
    opcode: 0xb2,
    fields: 'setc16_value 15:0, setc16_reg 23:16',
    unit: 'config',
    doc: 'WormholeB0/TensixTile/TensixCoprocessor/SETC16.md',
  },
];
