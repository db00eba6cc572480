/**
 * Byte-level helpers for the small WebAssembly modules the project assembles itself (the SIMD
 * kernels of src/tensix/mad-simd.ts, src/amx/fma64-simd.ts and src/pto/simd.ts). Only the
 * project's own fixed templates are assembled; never user text.
 */

/** Unsigned LEB128 of a non-negative 32-bit integer. */
export function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** A module section: its id, the content's byte length, the content. */
export function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

/** A name (ASCII) as the binary format writes it: its length, then its bytes. */
export function wasmName(s: string): number[] {
  return [s.length, ...[...s].map((c) => c.charCodeAt(0))];
}

/** The magic number and version 1 that start every module. */
export const WASM_HEADER: readonly number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
