/**
 * SFPU programs compiled to JavaScript: one specialised function per pre-decoded program (program.ts),
 * with register rows, modes and immediates as literals, so that running it does no dispatch and no
 * field reads. The interpreter (exec.ts `runInterpreted`) stays the reference: the generated code
 * either does exactly what the interpreter's LaneConfig-0 fast path does (the same instruction
 * function with the same arguments, or for the simplest instructions their all-lanes branch written
 * out) or calls `execRecord` on the record, as the interpreter does.
 *
 * Safety of the generated text: it is assembled only from the fixed templates in this file and the
 * integers of the pre-decoded records (every one goes through `int()`, which refuses anything that
 * is not an integer); no user text, name or string ever reaches it.
 *
 * Structure of the generated code (docs/performance-tensix.md, "compiled programs"):
 * - Control points: SFPCONFIG and template records (the only records that change LaneConfig) end a
 *   straight-line segment. Each segment tests `st.laneConfig` once: when it is non-zero (ROW_MASK,
 *   TEN-2932 checks, split lanes) the segment's records go through `execRecord` one by one, as the
 *   interpreter does; otherwise the specialised code runs.
 * - The lane mask (`UseLaneFlagsForLaneEnable ? LaneFlags : all`) is read afresh per instruction.
 * - Long programs are split into several functions of bounded size (V8 does not optimise very large
 *   functions); the top function calls them in order, `reps` times.
 * - A local `k` holds the index of the record that may throw next; an AxsimError is relocated to it
 *   (`relocate`, the interpreter's own error decoration).
 */
import type { Arch } from './encoding.ts';
import { sfpcompc, sfppopc, sfppushc } from './insns/flags.ts';
import { sfpshft } from './insns/intops.ts';
import { applyPartialAddrMod, sfpload, sfpstore, transferStart } from './insns/ldst.ts';
import { madLanesSimd, poolAddress } from './mad-simd.ts';
import { STRIDE } from './ops.ts';
import type { Program } from './program.ts';
import { IMM_ROW, LANES, type TensixState } from './state.ts';

export type CompiledProgram = (st: TensixState, code: Int32Array, reps: number) => void;

/** What the generated code needs from the interpreter (passed in, so this module does not import exec.ts). */
export interface JitHooks {
  execRecord(st: TensixState, code: Int32Array, o: number): void;
  /** Decorates an error raised by record `k` of `prog` as the interpreter does (returns it unchanged if not an AxsimError). */
  relocate(e: unknown, prog: Program, k: number): unknown;
}

/** The lane mask expression of the interpreter's fast path. */
const MASK = '(st.useLaneFlags ? st.laneFlags : -1)';
/** Upper bound on the generated source of one function (characters). */
const CHUNK_CHARS = 24_000;

function int(v: number): string {
  if (!Number.isInteger(v)) throw new Error(`internal: non-integer ${v} in generated code`);
  return String(v);
}

/** OR of 32 per-lane bit terms. */
function laneBits(f: (l: number) => string): string {
  const t: string[] = [];
  for (let l = 0; l < LANES; l++) t.push(f(l));
  return t.join(' | ');
}

/** `if all lanes enabled { fast } else { fallback(m) }` with the mask in `m`. */
function allOrMasked(fast: string, masked: string): string {
  return `{ const m = ${MASK}; if (m === -1) { ${fast} } else { ${masked} } }\n`;
}

/**
 * Statements writing `value(l)` to row offset `D` in every lane, and (in the else branch) only in the
 * lanes of the mask `m`, branch-free: the old value is kept where bit l of m is clear. Each lane
 * reads only lane l of its operands, so the lane order does not matter.
 */
function laneWrites(D: number, value: (l: number) => string): { all: string; masked: string } {
  let all = '';
  let masked = '';
  for (let l = 0; l < LANES; l++) {
    const at = `L[${int(D + l)}]`;
    all += `${at} = ${value(l)};`;
    masked += `{ const x = ${at}; ${at} = x ^ ((x ^ (${value(l)})) & ((m << ${31 - l}) >> 31)); }`;
  }
  return { all, masked };
}

/**
 * The code of record `i` for LaneConfig 0: the same effect as the interpreter's fast path. Records
 * that may throw set `k` first.
 */
function emitRecord(code: Int32Array, i: number, arch: Arch): string {
  const o = i * STRIDE;
  const op = code[o]!;
  const vd = code[o + 1]!;
  const vc = code[o + 2]!;
  const vb = code[o + 3]!;
  const va = code[o + 4]!;
  const mod = code[o + 5]!;
  const imm = code[o + 6]!;
  const D = vd * LANES;
  const C = vc * LANES;
  const B = vb * LANES;
  switch (op) {
    case 0: // NOP
      return '';
    case 26: // PUSHC (flags.ts sfppushc): a push (Wormhole, or Blackhole Mod1 0) written out; a full stack calls it
      if (arch === 'wormhole' || mod === 0) {
        return `{ const n = st.stackSize; if (n >= 8 && st.flagStackPolicy === 'error') { k = ${int(i)}; sfppushc(st, ${int(mod)}); } else { const j = n & 7; st.stackEn[j] = st.useLaneFlags; st.stackFlags[j] = st.laneFlags; st.stackSize = (n + 1) & 15; } }\n`;
      }
      return `k = ${int(i)}; sfppushc(st, ${int(mod)});\n`;
    case 27: // POPC (flags.ts sfppopc): Mod1 0 on a non-empty stack written out
      if (mod === 0) {
        return `{ const n = st.stackSize; if (n === 0) { k = ${int(i)}; sfppopc(st, 0); } else { const t = (n - 1) & 7; st.useLaneFlags = st.stackEn[t]; st.laneFlags = st.stackFlags[t] | 0; st.stackSize = (n - 1) & 15; } }\n`;
      }
      return `k = ${int(i)}; sfppopc(st, ${int(mod)});\n`;
    case 29: // COMPC (flags.ts sfpcompc)
      return '{ const n = st.stackSize; const t = (n - 1) & 7; const te = n !== 0 ? st.stackEn[t] : 1; const tf = n !== 0 ? st.stackFlags[t] | 0 : -1; st.laneFlags = te && st.useLaneFlags ? tf & ~st.laneFlags : 0; }\n';
    case 13: {
      // IADD (intops.ts sfpiadd): flags (VD < 8 only) from the sign bits of all lanes of VD, of
      // which the mask keeps the enabled ones
      const flags = vd < 8;
      const w = laneWrites(
        D,
        mod & 1
          ? (l) => `L[${int(C + l)}] + ${int(imm)}`
          : mod & 2
            ? (l) => `L[${int(C + l)}] - L[${int(D + l)}]`
            : (l) => `L[${int(C + l)}] + L[${int(D + l)}]`,
      );
      let tail = '';
      if (flags) {
        const inv = mod & 8 ? ' ^ -1' : '';
        const next =
          mod & 4 ? `f${inv}` : `(${laneBits((l) => `((L[${int(D + l)}] >>> 31) << ${l})`)})${inv}`;
        tail = `{ const f = st.laneFlags; st.laneFlags = (f & ~m) | ((${next}) & m); }`;
      }
      return `{ const m = ${MASK}; if (m === -1) { ${w.all} } else { ${w.masked} } ${tail} }\n`;
    }
    case 14: // SHFT (intops.ts sfpshft)
      if ((mod & 7) === 1) {
        const w =
          imm >= 0
            ? laneWrites(D, (l) => `L[${int(D + l)}] << ${int(imm & 31)}`)
            : laneWrites(D, (l) => `L[${int(D + l)}] >>> ${int((32 - (imm & 31)) & 31)}`);
        return allOrMasked(w.all, w.masked);
      }
      return `sfpshft(st, ${MASK}, ${int(vd)}, ${int(vc)}, ${int(mod)}, ${int(imm)});\n`;
    case 15: {
      // SETCC (flags.ts sfpsetcc): the condition over all 32 lanes (lanes outside the mask are
      // masked off afterwards, so evaluating them changes nothing)
      if (mod & 8) return `{ const m = ${MASK}; st.laneFlags = st.laneFlags & ~m; }\n`;
      let cond: string;
      if (mod & 1) cond = `st.useLaneFlags ? ${imm !== 0 ? -1 : 0} : 0`;
      else if (mod === 0 || mod === 4) {
        const bits = laneBits((l) => `((L[${int(C + l)}] >>> 31) << ${l})`);
        cond = `st.useLaneFlags && m !== 0 ? ${mod === 0 ? '' : '~'}(${bits}) : 0`;
      } else {
        const bits = laneBits((l) => `(+(L[${int(C + l)}] === 0) << ${l})`);
        cond = `st.useLaneFlags && m !== 0 ? ${mod === 6 ? '' : '~'}(${bits}) : 0`;
      }
      return `{ const m = ${MASK}; const c = ${cond}; st.laneFlags = (st.laneFlags & ~m) | (c & m); }\n`;
    }
    case 18: // AND
    case 19: {
      // OR
      const sym = op === 18 ? '&' : '|';
      const w = laneWrites(D, (l) => `L[${int(B + l)}] ${sym} L[${int(C + l)}]`);
      return allOrMasked(w.all, w.masked);
    }
    case 20: {
      // XOR
      const w = laneWrites(D, (l) => `L[${int(D + l)}] ^ L[${int(C + l)}]`);
      return allOrMasked(w.all, w.masked);
    }
    case 21: {
      // NOT
      const w = laneWrites(D, (l) => `~L[${int(C + l)}]`);
      return allOrMasked(w.all, w.masked);
    }
    case 6: {
      // MAD (insns/mad.ts sfpmad), normal lanes in WebAssembly SIMD (mad-simd.ts)
      const A = va * LANES;
      const args = `${int(A)}, 1, ${int(B)}, 1, ${int(C)}, 1, ${int(D)}`;
      if (arch === 'wormhole') return `madLanesSimd(L, LA, ${MASK}, ${args}, 0, 1);\n`;
      return `madLanesSimd(L, LA, ${MASK}, ${args}, ${int(mod)}, 0);\n`;
    }
    case 7: // MULI: VD = imm * VD + LReg[9] (insns/mad.ts madImmediate)
    case 8: {
      // ADDI: VD = imm * LReg[10] + VD
      const b = op === 7 ? vd : 10;
      const c = op === 7 ? 9 : vd;
      const I = IMM_ROW * LANES;
      const args = `${int(I)}, 0, ${int(b * LANES)}, ${b === vd ? 1 : 0}, ${int(c * LANES)}, ${c === vd ? 1 : 0}, ${int(D)}`;
      const call =
        arch === 'wormhole'
          ? `madLanesSimd(L, LA, ${MASK}, ${args}, 0, 1)`
          : `madLanesSimd(L, LA, ${MASK}, ${args}, 0, 0)`;
      return `L[${int(I)}] = ${int(imm)}; ${call};\n`;
    }
    case 1: // LOAD
      if (vd < 8 && (mod === 3 || mod === 4)) return transfer32(i, vd, mod, va, imm, false);
      return `k = ${int(i)}; sfpload(st, ${MASK}, ${int(vd)}, ${int(mod)}, ${int(va)}, ${int(imm)});\n`;
    case 2: // STORE
      if (mod === 3 || mod === 4) return transfer32(i, vd, mod, va, imm, true);
      return `k = ${int(i)}; sfpstore(st, ${MASK}, ${int(vd)}, ${int(mod)}, ${int(va)}, ${int(imm)});\n`;
    default:
      return `k = ${int(i)}; execRecord(st, code, ${int(o)});\n`;
  }
}

/**
 * SFPLOAD / SFPSTORE in format FP32 (3) or INT32 (4) (a load to LReg 0..7): with all lanes enabled,
 * ldst.ts's fast path written out (transfer32AllLanes: lane 8g + c is the Dst32b cell at row
 * (Addr & ~3) + g, column 2c + ((Addr >> 1) & 1), high half 128 cells before the low half; an FP32
 * store flushes denormals to signed zero), else the instruction function.
 */
function transfer32(
  i: number,
  vd: number,
  mod: number,
  addrMod: number,
  imm: number,
  store: boolean,
): string {
  const name = `${store ? 'st' : 'ld'}${int(vd)}_${int(mod)}`;
  if (!helpers.has(name)) {
    const D = vd * LANES;
    let lanes = '';
    for (let g = 0; g < 4; g++) {
      for (let c = 0; c < 8; c++) {
        const off = g * 16 + 2 * c;
        const l = D + g * 8 + c;
        if (!store) {
          lanes += `x = T[f + ${int(off)}]; L[${int(l)}] = ((x & 0x8000) << 16) | ((x & 0xff) << 23) | ((x & 0x7f00) << 8) | T[f + ${int(off + 128)}];\n`;
        } else {
          const d =
            mod === 3 ? `((x = L[${int(l)}] | 0) & 0x7f800000 ? x : x & 0x80000000)` : `L[${int(l)}] | 0`;
          lanes += `x = ${d}; T[f + ${int(off)}] = ((x >>> 16) & 0x8000) | ((x & 0x7f0000) >>> 8) | ((x >>> 23) & 0xff); T[f + ${int(off + 128)}] = x & 0xffff;\n`;
        }
      }
    }
    const fn = store ? 'sfpstore' : 'sfpload';
    helpers.set(
      name,
      `function ${name}(st, L, m, addrMod, imm) {\nif (m !== -1) { ${fn}(st, m, ${int(vd)}, ${int(mod)}, addrMod, imm); return; }\nconst a = transferStart(st, imm, ${int(mod)}, ${store}); const r = a & ~3; const f = ((((r & 0x1f8) << 1) | (r & 0x207)) << 4) + ((a >> 1) & 1); const T = st.dst; let x = 0;\n${lanes}applyPartialAddrMod(st, addrMod);\n}\n`,
    );
  }
  return `k = ${int(i)}; ${name}(st, L, ${MASK}, ${int(addrMod)}, ${int(imm)});\n`;
}

/** Helper functions of the program being compiled (name -> source), shared by its chunks. */
let helpers = new Map<string, string>();

/** SFPCONFIG and template records: the records after which LaneConfig may differ. */
function isControlPoint(op: number): boolean {
  return op === 33 || op === 40;
}

/** The source of one segment: records [a, b), none but the last a control point. */
function emitSegment(code: Int32Array, a: number, b: number, arch: Arch): string {
  let fast = '';
  for (let i = a; i < b; i++) fast += emitRecord(code, i, arch);
  const slow = `for (k = ${int(a)}; k < ${int(b)}; k++) execRecord(st, code, k * ${STRIDE});`;
  return `if (st.laneConfig !== 0) { ${slow} } else {\n${fast}}\n`;
}

function chunkFunction(name: string, body: string): string {
  return `function ${name}(st, code, L, LA) {\nlet k = 0;\ntry {\n${body}} catch (e) { throw relocate(e, prog, k); }\n}\n`;
}

/** The JavaScript source of a program's compiled form (exported for tests and for reading). */
export function programSource(prog: Program): string {
  helpers = new Map();
  const code = prog.code;
  const n = prog.length;
  const chunks: string[] = [];
  let body = '';
  let a = 0;
  const flush = () => {
    if (body) chunks.push(chunkFunction(`c${chunks.length}`, body));
    body = '';
  };
  while (a < n) {
    // a segment ends after a control point, or when the chunk would grow too large
    let b = a;
    let size = 0;
    let seg = '';
    while (b < n) {
      const s = emitRecord(code, b, prog.arch);
      if (seg && size + s.length > CHUNK_CHARS) break;
      seg += s;
      size += s.length;
      b++;
      if (isControlPoint(code[(b - 1) * STRIDE]!)) break;
    }
    if (body && body.length + size > CHUNK_CHARS) flush();
    body += emitSegment(code, a, b, prog.arch);
    a = b;
  }
  flush();
  const calls = chunks.map((_, j) => `c${j}(st, code, L, LA);`).join(' ');
  // the LReg file and its address in the SIMD kernel's memory are fixed per machine: read once per
  // run (reading a typed array's .buffer per repetition cost 20 % of workload (i))
  return `'use strict';\n${[...helpers.values()].join('')}${chunks.join('')}return function run(st, code, reps) {\nconst L = st.lreg;\nconst LA = poolAddress(L);\nfor (let r = 0; r < reps; r++) { ${calls} }\n};\n`;
}

const cache = new WeakMap<Program, CompiledProgram | null>();

/** Whether `prog`'s compiled form has been generated (for tests of the 'auto' policy). */
export function isCompiled(prog: Program): boolean {
  return cache.get(prog) != null;
}

/**
 * The compiled form of `prog`, generated on first use and cached with the program. Returns null
 * when the host forbids code generation (e.g. `--disallow-code-generation-from-strings`); callers
 * then interpret.
 */
export function compiledProgram(prog: Program, hooks: JitHooks): CompiledProgram | null {
  let f = cache.get(prog);
  if (f !== undefined) return f;
  const src = programSource(prog);
  try {
    const make = new Function(
      'prog',
      'execRecord',
      'relocate',
      'sfppushc',
      'sfppopc',
      'sfpcompc',
      'sfpshft',
      'madLanesSimd',
      'poolAddress',
      'sfpload',
      'sfpstore',
      'transferStart',
      'applyPartialAddrMod',
      src,
    );
    f = make(
      prog,
      hooks.execRecord,
      hooks.relocate,
      sfppushc,
      sfppopc,
      sfpcompc,
      sfpshft,
      madLanesSimd,
      poolAddress,
      sfpload,
      sfpstore,
      transferStart,
      applyPartialAddrMod,
    ) as CompiledProgram;
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    f = null;
  }
  cache.set(prog, f);
  return f;
}
