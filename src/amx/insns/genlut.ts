/**
 * genlut (opcode 22), per corsix/amx genlut.md. Modes 0-6 ("generate"): for each lane of a source
 * vector, find the first table lane v with table[v] > source lane and emit v - 1 as a packed 4- or
 * 5-bit index (all ones when none; f64 keeps only 3 bits), written to the low bytes of an X or Y
 * register with the rest zeroed. Modes 7-15 ("lookup"): an indexed load from the table register,
 * written to X, Y or Z. Bit 30 selects bf16 instead of f16 for mode 1 on M2+.
 */
import { indexedLoad, loadXY } from '../common.ts';
import { bf16ToF32Bits, F16_TO_F64, f32FromBits } from '../fp.ts';
import type { AmxState } from '../state.ts';

const src = new Uint8Array(64);
const s16 = new Uint16Array(src.buffer);
const s32 = new Uint32Array(src.buffer);
const sf32 = new Float32Array(src.buffer);
const sf64 = new Float64Array(src.buffer);
const tbl = new Uint8Array(64);
const t16 = new Uint16Array(tbl.buffer);
const t32 = new Uint32Array(tbl.buffer);
const tf32 = new Float32Array(tbl.buffer);
const tf64 = new Float64Array(tbl.buffer);
const idx = new Uint8Array(64);

// [ibits, ebits] per mode
export const MODES: readonly (readonly [number, number])[] = [
  [4, 32],
  [5, 16],
  [4, 64],
  [4, 32],
  [5, 16],
  [4, 32],
  [5, 16],
  [2, 32],
  [2, 16],
  [2, 8],
  [4, 64],
  [4, 32],
  [4, 16],
  [4, 8],
  [5, 16],
  [5, 8],
];

/** Lane value of the generate modes' element type, as a number that orders correctly. */
function key(mode: number, bf16: boolean, which: 0 | 1, i: number): number {
  const a16 = which === 0 ? s16 : t16;
  const a32 = which === 0 ? s32 : t32;
  switch (mode) {
    case 0:
      return (which === 0 ? sf32 : tf32)[i]!;
    case 1:
      return bf16 ? f32FromBits(bf16ToF32Bits(a16[i]!)) : F16_TO_F64[a16[i]!]!;
    case 2:
      return (which === 0 ? sf64 : tf64)[i]!;
    case 3:
      return a32[i]! | 0;
    case 4:
      return (a16[i]! << 16) >> 16;
    case 5:
      return a32[i]!;
    default:
      return a16[i]!;
  }
}

export function execGenlut(s: AmxState, lo: number, hi: number): void {
  const mode = (hi >>> 21) & 15;
  const source = (lo >>> 10) & 1 ? s.y : s.x;
  const tablePool = (hi >>> 27) & 1 ? s.y : s.x;
  const treg = (hi >>> 28) & 7;
  loadXY(src, source, lo & 0x1ff);
  const [ibits, ebits] = MODES[mode]!;
  let toZ = ((lo >>> 26) & 1) === 1;
  if (mode <= 6) {
    tbl.set(tablePool.subarray(treg * 64, treg * 64 + 64));
    const lanes = 512 / ebits;
    const bf16 = mode === 1 && s.ver >= 2 && ((lo >>> 30) & 1) === 1;
    const imask = ebits === 64 ? 7 : (1 << ibits) - 1;
    for (let i = 0; i < lanes; i++) {
      const sv = key(mode, bf16, 0, i);
      let v = 0;
      for (; v < lanes; v++) if (key(mode, bf16, 1, v) > sv) break;
      idx[i] = (v - 1) & imask;
    }
    src.fill(0);
    for (let i = 0; i < lanes; i++) {
      const bitPos = i * ibits;
      const word = idx[i]! << (bitPos & 7);
      src[bitPos >>> 3] = src[bitPos >>> 3]! | (word & 255);
      if (word > 255) src[(bitPos >>> 3) + 1] = src[(bitPos >>> 3) + 1]! | (word >>> 8);
    }
    toZ = false;
  } else {
    indexedLoad(src, tablePool, treg * 64, ibits, ebits);
  }
  if (toZ) s.z.set(src, ((lo >>> 20) & 63) * 64);
  else ((lo >>> 25) & 1 ? s.y : s.x).set(src, ((lo >>> 20) & 7) * 64);
}
