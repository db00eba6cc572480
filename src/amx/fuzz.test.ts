/**
 * Decoder / assembler / execution fuzzing (loops in fuzz.ts). Per commit: 10^6 random operands per
 * opcode through the raw decoder and encoder, 20,000 per opcode through the full text path
 * (disassembleOp -> assemble) and 2,000 per opcode through execution on random states. The full
 * 10^6 per instruction for the text path and execution runs as `test/amx-fuzz-full.ts`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assemble, disassembleOp } from './asm.ts';
import { fieldWidth, formatValue, INSNS, parseValue, scanFields } from './encoding.ts';
import { fuzzExec, fuzzRaw, fuzzText, makeRng } from './fuzz.ts';

const N = Number(process.env.AMX_FUZZ_N ?? 1_000_000);
const TEXT_N = Number(process.env.AMX_FUZZ_TEXT_N ?? 20_000);
const EXEC_N = Number(process.env.AMX_FUZZ_EXEC_N ?? 2000);

test(`raw decode/encode round trip on ${N} random operands per opcode`, () => {
  fuzzRaw(N, makeRng(0x2545f491));
});

test(`text round trip assemble(disassembleOp(op)) === op on ${TEXT_N} random operands per opcode`, () => {
  fuzzText(TEXT_N, makeRng(0x1b873593));
  assert.equal(assemble(disassembleOp(17, 0n)).ops[0]!.operand, 0n);
  assert.equal(assemble(disassembleOp(17, 1n)).ops[0]!.operand, 1n);
});

test('the fast field scanner reads every table text as parseValue does', () => {
  // scanFields answers from precomputed tables; where it answers, it must agree with the general
  // parser on the field the assembler parses that name with (the first of that name)
  const vLo = new Float64Array(64);
  const vHi = new Float64Array(64);
  const ign = new Uint32Array(2);
  let checked = 0;
  for (const def of INSNS) {
    const names = [...new Set(def.fields.map((f) => f.name))];
    names.forEach((name, ni) => {
      const f = def.fields.find((x) => x.name === name)!;
      const w = Math.min(fieldWidth(f), 10);
      for (let v = 0; v < 2 ** w; v++) {
        const text = formatValue(f, BigInt(v));
        if (!scanFields(def, `${name}=${text}`, vLo, vHi, ign)) continue;
        assert.equal(
          vLo[ni]! + vHi[ni]! * 2 ** 32,
          Number(parseValue(f, text)),
          `${def.name} ${name}=${text}`,
        );
        checked++;
      }
    });
  }
  assert.ok(checked > 10_000, `only ${checked} table texts checked`);
});

test(`execution of ${EXEC_N} random operands per instruction on random states throws nothing but AxsimError`, () => {
  fuzzExec(EXEC_N, makeRng(0x85ebca6b));
});
