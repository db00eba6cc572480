/**
 * Exhaustive and randomised checks of the assembler against the reference vectors and the encoding
 * table: every conformance `asm` string (ttsim's field decode) assembles, in canonical form and as
 * the equivalent TTI_ macro call, to the record's word; disassembly round-trips.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readJsonl } from '../../conformance/index.ts';
import { requireConformanceFile } from '../../conformance/shared.ts';
import { AxsimError } from '../../errors.ts';
import { ARCHES, type Arch, encode, instructionSet } from '../encoding.ts';
import { archTables, assemble, disassemble } from './index.ts';

interface Pair {
  word: number;
  asm: string;
  id: string;
}

async function pairs(file: string, arch: string): Promise<Pair[]> {
  const out: Pair[] = [];
  for await (const { value } of readJsonl(file)) {
    const r = value as { id: string; arch: string; words: string[]; asm: string[] };
    if (r.arch !== arch) continue;
    r.words.forEach((w, k) => {
      out.push({ word: Number(w), asm: r.asm[k]!, id: r.id });
    });
  }
  return out;
}

/** `SFPMAD instr_mod1=0 lreg_dest=6 …` -> `TTI_SFPMAD(a, b, c, d, mod)` in the macro's order. */
function asMacroCall(asm: string, arch: Arch): string {
  const [name, ...rest] = asm.trim().split(/\s+/);
  const fields = new Map(rest.map((kv) => kv.split('=') as [string, string]));
  // `unused_bits` are not a macro argument: the caller ORs them in.
  fields.delete('unused_bits');
  const def = archTables(arch).macros.get(name!);
  assert.ok(def, `no TT_OP_${name} macro`);
  const args = def.args.map((a) => {
    const v = fields.get(a.name);
    fields.delete(a.name);
    return v ?? '0';
  });
  // Every field ttsim decodes must be an argument of the tt-llk macro, under the same name.
  assert.deepEqual(
    [...fields.keys()],
    [],
    `${asm}: fields not among TTI_${name}(${def.args.map((a) => a.name)})`,
  );
  return def.args.length === 0 ? `TTI_${name};` : `TTI_${name}(${args.join(', ')});`;
}

function checkAll(list: Pair[], arch: Arch, what: string): void {
  const canon = assemble(list.map((p) => p.asm).join('\n'), arch);
  const macro = assemble(list.map((p) => asMacroCall(p.asm, arch)).join('\n'), arch);
  const back = assemble(
    disassemble(
      Uint32Array.from(list, (p) => p.word),
      arch,
    ).join('\n'),
    arch,
  );
  let bad = 0;
  for (let k = 0; k < list.length; k++) {
    const p = list[k]!;
    const unused = Number(/unused_bits=(0x[0-9a-f]+)/.exec(p.asm)?.[1] ?? 0);
    if (
      canon.words[k] !== p.word ||
      (macro.words[k]! | unused) >>> 0 !== p.word ||
      back.words[k] !== p.word
    ) {
      if (bad++ < 5) {
        assert.fail(
          `${what} ${p.id}: ${p.asm} -> canonical 0x${canon.words[k]?.toString(16)}, macro 0x${macro.words[k]?.toString(16)}, ` +
            `disasm round trip 0x${back.words[k]?.toString(16)}, expected 0x${p.word.toString(16)}`,
        );
      }
    }
  }
  assert.equal(canon.words.length, list.length);
  assert.equal(macro.words.length, list.length);
}

const FILES = { wormhole: ['sfpu-wh.jsonl.gz', 'wh'], blackhole: ['sfpu-bh.jsonl.gz', 'bh'] } as const;

describe('conformance asm strings <-> words', () => {
  for (const arch of ARCHES) {
    const [name, short] = FILES[arch];
    const f = requireConformanceFile(name);
    it(`every ${name} word assembles from its asm, as TTI_ macro, and through disassembly`, {
      skip: f.skip,
    }, async () => {
      const list = await pairs(f.path!, short);
      assert.ok(list.length > 10000, `only ${list.length} words`);
      checkAll(list, arch, name);
    });
    const rej = requireConformanceFile('sfpu-rejects.jsonl.gz');
    it(`every decodable ${short} word of sfpu-rejects.jsonl.gz round-trips the same way`, {
      skip: rej.skip,
    }, async () => {
      const all = await pairs(rej.path!, short);
      // ttsim prints stray bits as unused_bits only for template loads; for other words its asm
      // omits them, so those words cannot be written from their asm.
      const byOp = new Map(instructionSet(arch).map((d) => [d.opcode, d]));
      const list = all.filter((p) => {
        const d = byOp.get(p.word >>> 24);
        return d !== undefined && ((p.word & d.reservedMask) === 0 || p.asm.includes('unused_bits='));
      });
      assert.ok(list.length > 300, `only ${list.length} words`);
      checkAll(list, arch, 'sfpu-rejects.jsonl.gz');
      // and the others still disassemble to lines that assemble back
      const rest = Uint32Array.from(
        all.filter((p) => !list.includes(p)),
        (p) => p.word,
      );
      assert.deepEqual([...assemble(disassemble(rest, arch).join('\n'), arch).words], [...rest]);
    });
  }
});

/** A random word that decodes: a random instruction of the arch with random field values. */
function decodableWord(arch: Arch): fc.Arbitrary<number> {
  return fc
    .constantFrom(...instructionSet(arch))
    .chain((def) =>
      fc
        .tuple(...def.fields.map((f) => fc.integer({ min: 0, max: f.valueMask })))
        .map((vals) => encode(def, Object.fromEntries(def.fields.map((f, k) => [f.name, vals[k]!])))),
    );
}

describe('round-trip properties', () => {
  for (const arch of ARCHES) {
    it(`assemble(disassemble(w)) === w for 1e5 decodable ${arch} words, canonical and macro style`, () => {
      let n = 0;
      fc.assert(
        fc.property(fc.array(decodableWord(arch), { minLength: 2000, maxLength: 2000 }), (ws) => {
          const text = disassemble(ws, arch);
          assert.ok(
            !text.some((t) => t.startsWith('.word') || t.includes('unused_bits')),
            'not printed by fields',
          );
          const back = assemble(text.join('\n'), arch);
          assert.deepEqual([...back.words], ws);
          assert.deepEqual(back.warnings, []);
          const macro = disassemble(ws.slice(0, 200), arch, { style: 'macro' });
          assert.ok(
            macro.every((t) => t.startsWith('TTI_')),
            'a decodable word without a macro form',
          );
          assert.deepEqual([...assemble(macro.join('\n'), arch).words], ws.slice(0, 200));
          n += ws.length;
        }),
        { numRuns: 50 },
      );
      assert.ok(n >= 100000);
    });

    it(`disassemble never throws on 5e5 random ${arch} words, and every line assembles back`, () => {
      let n = 0;
      fc.assert(
        fc.property(fc.uint32Array({ minLength: 10000, maxLength: 10000 }), (ws) => {
          let text: string[];
          try {
            text = disassemble(ws, arch);
          } catch (e) {
            assert.ok(e instanceof AxsimError, `non-AxsimError thrown: ${String(e)}`);
            throw e;
          }
          n += ws.length;
          // a tenth of them go through the assembler too (it is the slower half)
          const some = text.slice(0, 1000);
          assert.deepEqual([...assemble(some.join('\n'), arch).words], [...ws.slice(0, 1000)]);
          // and so does the tt-llk macro style
          const macro = disassemble(ws.slice(1000, 2000), arch, { style: 'macro' });
          assert.deepEqual([...assemble(macro.join('\n'), arch).words], [...ws.slice(1000, 2000)]);
        }),
        { numRuns: 50 },
      );
      assert.ok(n >= 500000);
    });
  }
});
