/**
 * The vector-mode fma64/fms64 hot path in WebAssembly SIMD (issue 17): the eight lanes
 * z[i] = (+|-)x[i] * y[i] + z[i] as 4 x f64x2, for the case fp.ts `fma64` handles by its first test:
 * every X and Y value is a binary32 value (its f32 round trip gives it back), so each product is
 * exact in binary64 and one rounding of p + z is the fused result. The kernel tests all sixteen
 * values first and, if any is not a binary32 value (or is a NaN), writes nothing and returns 1: the
 * caller then runs the scalar lane loop (fp.ts, which stays the reference). NaN results are stored
 * as the default NaN (the scalar path's `F64_DEFAULT_NAN_HI` pattern), so no lane depends on the
 * host's NaN bits.
 *
 * For the kernel to read the registers in place, an AmxState's X, Y and Z live in the kernel's
 * WebAssembly memory (a fixed pool of 4 MiB, never grown, so the views never detach; blocks are
 * recycled when the state's views are garbage-collected). When the pool is full, or there is no
 * WebAssembly SIMD, the registers are ordinary arrays and the scalar path runs. The module is
 * assembled here from bytes, as src/tensix/mad-simd.ts and src/pto/simd.ts do.
 */
import { leb, section, WASM_HEADER, WasmPool, wasmExports, wasmName } from '../wasm.ts';

const simd = (sub: number): number[] => [0xfd, ...leb(sub)];
const get = (l: number): number[] => [0x20, l];
const set = (l: number): number[] => [0x21, l];
/** v128.load from the address in local `a` plus `off` (alignment hint 16). */
const load = (a: number, off: number): number[] => [...get(a), ...simd(0x00), 4, ...leb(off)];

// WebAssembly SIMD opcodes used
const V128_CONST = 0x0c;
const V128_STORE = 0x0b;
const I64X2_SPLAT = 0x12;
const F64X2_EQ = 0x47;
const F64X2_NE = 0x48;
const V128_AND = 0x4e;
const V128_XOR = 0x51;
const V128_BITSELECT = 0x52;
const F32X4_DEMOTE_F64X2_ZERO = 0x5e;
const F64X2_PROMOTE_LOW_F32X4 = 0x5f;
const I64X2_ALL_TRUE = 0xc3;
const F64X2_ADD = 0xf0;
const F64X2_MUL = 0xf2;

/** The kernel: params x, y, z (byte addresses), neg (0/1); returns 0 when done, 1 when not handled. */
function kernelBody(): number[] {
  // locals: 0 x, 1 y, 2 z, 3 neg (i32 params); 4 acc / r, 5 sign mask, 6-9 X pairs, 10-13 Y pairs (v128)
  const c: number[] = [];
  // sign mask: i64x2.splat(neg << 63), XORed into X (fms negates x, as -x in the scalar path)
  c.push(...get(3), 0xad, 0x42, 63, 0x86, ...simd(I64X2_SPLAT), ...set(5));
  for (let k = 0; k < 4; k++) {
    c.push(...load(0, 16 * k), ...get(5), ...simd(V128_XOR), ...set(6 + k));
    c.push(...load(1, 16 * k), ...set(10 + k));
  }
  // acc = AND over the sixteen values of (promote(demote(v)) == v): binary32 values only (a NaN
  // compares unequal; a value out of f32 range demotes to an infinity or zero and fails too)
  c.push(...simd(V128_CONST), ...new Array<number>(16).fill(0xff), ...set(4));
  for (let v = 6; v < 14; v++) {
    c.push(...get(4), ...get(v), ...simd(F32X4_DEMOTE_F64X2_ZERO), ...simd(F64X2_PROMOTE_LOW_F32X4));
    c.push(...get(v), ...simd(F64X2_EQ), ...simd(V128_AND), ...set(4));
  }
  // if (!all_true(acc)) return 1
  c.push(...get(4), ...simd(I64X2_ALL_TRUE), 0x45, 0x04, 0x40, 0x41, 1, 0x0f, 0x0b);
  const defaultNan = [...simd(V128_CONST), 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f];
  for (let k = 0; k < 4; k++) {
    // r = x * y + z; z = r != r ? default NaN : r
    c.push(...get(2)); // store address
    c.push(
      ...get(6 + k),
      ...get(10 + k),
      ...simd(F64X2_MUL),
      ...load(2, 16 * k),
      ...simd(F64X2_ADD),
      ...set(4),
    );
    c.push(...defaultNan, ...get(4), ...get(4), ...get(4), ...simd(F64X2_NE), ...simd(V128_BITSELECT));
    c.push(...simd(V128_STORE), 4, ...leb(16 * k));
  }
  c.push(0x41, 0, 0x0b); // return 0
  const body = [0x01, 10, 0x7b, ...c]; // 10 v128 locals
  return [...leb(body.length), ...body];
}

function moduleBytes(): Uint8Array {
  const name = wasmName;
  return new Uint8Array([
    ...WASM_HEADER,
    ...section(1, [0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]), // (i32 x 4) -> i32
    ...section(2, [0x01, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]), // memory import
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name('fma64'), 0x00, 0x00]),
    ...section(10, [0x01, ...kernelBody()]),
  ]);
}

type Kernel = (x: number, y: number, z: number, neg: number) => number;

/** Bytes of one register file: X (512), Y (512), Z (4096). */
export const AMX_REGISTER_BYTES = 5120;
const POOL_PAGES = 64; // 4 MiB: 819 live states; more get ordinary arrays (scalar path)

let pool: WasmPool | undefined;
let poolTried = false;
/** The kernel: undefined until first needed, null when unavailable. */
let kernel: Kernel | null | undefined;

function initPool(): void {
  if (poolTried) return;
  poolTried = true;
  pool = WasmPool.create(POOL_PAGES);
}

function getKernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  initPool();
  // no WebAssembly SIMD (or no pool): the scalar path runs
  kernel = pool ? ((wasmExports(moduleBytes(), pool.memory)?.fma64 as Kernel | undefined) ?? null) : null;
  return kernel;
}

/** Whether the SIMD kernel is in use on this host. */
export function fma64SimdAvailable(): boolean {
  return getKernel() !== null;
}

/**
 * Zeroed X, Y and Z byte arrays for a new AmxState, and their base address in the kernel's memory
 * (X at addr, Y at addr + 512, Z at addr + 1024), or -1 when they are ordinary arrays.
 */
export function allocAmxRegisters(): { x: Uint8Array; y: Uint8Array; z: Uint8Array; addr: number } {
  initPool();
  const offset = pool ? pool.alloc(AMX_REGISTER_BYTES) : -1;
  if (!pool || offset < 0) {
    return { x: new Uint8Array(512), y: new Uint8Array(512), z: new Uint8Array(4096), addr: -1 };
  }
  const x = new Uint8Array(pool.buffer, offset, 512);
  const y = new Uint8Array(pool.buffer, offset + 512, 512);
  const z = new Uint8Array(pool.buffer, offset + 1024, 4096);
  new Uint8Array(pool.buffer, offset, AMX_REGISTER_BYTES).fill(0);
  // the block returns to the pool when all three views have been collected
  pool.recycle(offset, AMX_REGISTER_BYTES, [x, y, z]);
  return { x, y, z, addr: offset };
}

/**
 * z[i] = (+|-)x[i] * y[i] + z[i] for eight f64 lanes at byte addresses x, y, z of the kernel's
 * memory (each lane rounded once); returns 0 when done, 1 when nothing was written because a value
 * is not a binary32 value or the kernel is unavailable.
 */
export function fma64Simd(x: number, y: number, z: number, neg: number): number {
  const k = kernel ?? getKernel();
  return k ? k(x, y, z, neg) : 1;
}
