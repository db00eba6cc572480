/**
 * Decoder / assembler fuzzing. The cheap loop runs 10^6 random operands per opcode through the raw
 * decoder and encoder (the same field tables and condition-resolution algorithm the assembler
 * uses): nothing may throw, active fields may not overlap, and encode(decode(op)) must give the
 * operand back bit for bit. A smaller sample goes through the full text path
 * (disassembleOp -> assemble) and through execution on a random state, where the only acceptable
 * failure is an AxsimError.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { assemble, disassembleOp } from './asm.ts';
import { decodeRaw, encodeRaw, insnFor } from './encoding.ts';
import { executeRaw } from './exec.ts';
import { AmxState } from './state.ts';

const OPS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 21, 22];
const N = Number(process.env.AMX_FUZZ_N ?? 1_000_000);

let seed = 0x2545f491;
function rnd(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}

test(`raw decode/encode round trip on ${N} random operands per opcode`, () => {
  const vLo = new Float64Array(64);
  const vHi = new Float64Array(64);
  const ign = new Uint32Array(2);
  const out = new Uint32Array(2);
  for (const op of OPS) {
    let bad = 0;
    let firstBad = '';
    for (let n = 0; n < N; n++) {
      const lo = rnd();
      const hi = rnd();
      const def = insnFor(op, lo, hi);
      decodeRaw(def, lo, hi, vLo, vHi, ign);
      encodeRaw(def, vLo, vHi, ign[0]!, ign[1]!, out);
      if (out[0] !== lo || out[1] !== hi) {
        if (bad++ === 0)
          firstBad = `op ${op} operand 0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')}`;
      }
    }
    assert.equal(bad, 0, firstBad);
  }
});

const TEXT_N = Number(process.env.AMX_FUZZ_TEXT_N ?? 2000);

test(`text round trip assemble(disassembleOp(op)) === op on ${TEXT_N} random operands per opcode`, () => {
  for (const op of OPS) {
    for (let n = 0; n < TEXT_N; n++) {
      const v = (BigInt(rnd()) << 32n) | BigInt(rnd());
      const text = disassembleOp(op, v);
      const back = assemble(text).ops[0]!;
      assert.equal(back.op, op);
      assert.equal(back.operand, v, text);
    }
  }
  assert.equal(assemble(disassembleOp(17, 0n)).ops[0]!.operand, 0n);
  assert.equal(assemble(disassembleOp(17, 1n)).ops[0]!.operand, 1n);
});

test('execution of random operands on random states throws nothing but AxsimError', () => {
  for (const gen of ['m1', 'm2', 'm3', 'm4'] as const) {
    const s = new AmxState({ gen });
    s.enabled = true;
    s.mem.map(0x40000n, 0x2000);
    for (const op of OPS) {
      for (let n = 0; n < 1000; n++) {
        if (n % 50 === 0) {
          for (let i = 0; i < 512; i++) {
            s.x[i] = rnd();
            s.y[i] = rnd();
          }
          for (let i = 0; i < 4096; i++) s.z[i] = rnd();
        }
        let lo = rnd();
        let hi = rnd();
        if (op <= 7 && n % 2 === 0) {
          // point half of the memory operations into mapped memory
          lo = (0x40000 + (lo & 0xf80)) >>> 0;
          hi &= 0xff000000;
        }
        try {
          executeRaw(s, op, lo, hi);
        } catch (e) {
          if (!(e instanceof AxsimError)) throw e;
        }
      }
    }
  }
});
