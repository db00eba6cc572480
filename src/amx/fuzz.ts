/**
 * Fuzz loops shared by `fuzz.test.ts` (the per-commit sample) and `test/amx-fuzz-full.ts` (the full
 * 10^6 random operands per instruction, run from CI as a script). Each returns the number of cases
 * it ran and throws an Internal AxsimError naming the first failing operand. No node modules, so the
 * loops also run in a browser or Web Worker.
 *
 * - raw: 10^6 operands through decodeRaw/encodeRaw (the field tables and condition resolution the
 *   assembler uses): nothing throws, active fields do not overlap, encode(decode(op)) === op.
 * - text: operand -> disassembleOp -> assemble -> operand, exactly.
 * - exec: executeRaw on random states (all generations in turn); only AxsimError may escape.
 */
import { AxsimError, internalError } from '../errors.ts';
import { assemble, disassembleOp } from './asm.ts';
import { decodeRaw, encodeRaw, insnFor } from './encoding.ts';
import { executeRaw } from './exec.ts';
import { AmxState } from './state.ts';

/** A fuzz finding: axsim disagrees with itself, so a bug (Internal), not bad input. */
function fail(message: string): never {
  throw internalError(message);
}

/** The opcodes that take an operand (17 = set/clr takes a 5-bit immediate). */
export const OPERAND_OPS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 21, 22];

/** xorshift32: a fixed sequence, so that a failure reproduces. */
export function makeRng(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

const hex64 = (lo: number, hi: number) =>
  `0x${hi.toString(16).padStart(8, '0')}${lo.toString(16).padStart(8, '0')}`;

export function fuzzRaw(n: number, rnd: () => number, ops = OPERAND_OPS): number {
  const vLo = new Float64Array(64);
  const vHi = new Float64Array(64);
  const ign = new Uint32Array(2);
  const out = new Uint32Array(2);
  for (const op of ops) {
    for (let k = 0; k < n; k++) {
      const lo = rnd();
      const hi = rnd();
      const def = insnFor(op, lo, hi);
      decodeRaw(def, lo, hi, vLo, vHi, ign);
      encodeRaw(def, vLo, vHi, ign[0]!, ign[1]!, out);
      if (out[0] !== lo || out[1] !== hi)
        fail(`raw round trip: op ${op} operand ${hex64(lo, hi)} gave ${hex64(out[0]!, out[1]!)}`);
    }
  }
  return n * ops.length;
}

export function fuzzText(n: number, rnd: () => number, ops = OPERAND_OPS): number {
  for (const op of ops) {
    for (let k = 0; k < n; k++) {
      const lo = rnd();
      const hi = rnd();
      const v = (BigInt(hi) << 32n) | BigInt(lo);
      const text = disassembleOp(op, v);
      const back = assemble(text).ops[0]!;
      if (back.op !== op || back.operand !== v)
        fail(`text round trip: op ${op} operand ${hex64(lo, hi)}: '${text}' gave ${back.operand}`);
    }
  }
  return n * ops.length;
}

/**
 * n random operands per opcode (set/clr included), generations m1-m4 in turn, X/Y/Z re-randomised
 * every 64 executions; half of the load/store operands point into mapped memory.
 */
export function fuzzExec(n: number, rnd: () => number, ops = [...OPERAND_OPS, 17]): number {
  const gens = ['m1', 'm2', 'm3', 'm4'] as const;
  const states = gens.map((gen) => {
    const s = new AmxState({ gen });
    s.enabled = true;
    s.mem.map(0x40000n, 0x2000);
    return s;
  });
  for (const op of ops) {
    for (let k = 0; k < n; k++) {
      const s = states[k & 3]!;
      if ((k & 63) < 4) {
        for (let i = 0; i < 512; i++) {
          s.x[i] = rnd();
          s.y[i] = rnd();
        }
        for (let i = 0; i < 4096; i++) s.z[i] = rnd();
      }
      let lo = rnd();
      let hi = rnd();
      if (op <= 7 && (k & 4) === 0) {
        lo = (0x40000 + (lo & 0xf80)) >>> 0;
        hi &= 0xff000000;
      }
      try {
        executeRaw(s, op, lo, hi);
      } catch (e) {
        if (!(e instanceof AxsimError))
          fail(`execution on ${s.gen}: op ${op} operand ${hex64(lo, hi)} threw ${String(e)}`);
      }
      if (op === 17) s.enabled = true; // clr would turn the rest of the loop into "disabled" errors
    }
  }
  return n * ops.length;
}
