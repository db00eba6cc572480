import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ARCHES, instructionSet } from '../encoding.ts';
import { archTables, assemble, disassemble, type MacroArg } from './index.ts';

const dir = fileURLToPath(new URL('../../../examples/tensix/', import.meta.url));

/** Words each example must produce (counted from its source: statements x .rept counts). */
const EXPECTED: Record<string, { count: number; first: number[] }> = {
  // SFPENCC(3,0,0,EI_RI=10) = 0x8a00300a; SFPLOAD(L0, FP32=3, ADDR_MOD_3, 0) = 0x70<<24 | 3<<16 | 3<<14
  'relu.sfpu': { count: 1 + 32 * 6 + 1, first: [0x8a00300a, 0x7003c000, 0x7b000000, 0x71020000, 0x8a000000] },
  // SFPABS(0, L0, L0, FLOAT=1) = 0x7d000001
  'abs.sfpu': { count: 32 * 4, first: [0x7003c000, 0x7d000001, 0x7203c000] },
  // SFPLOAD INT32=4; SFPSHFT(1, 0, L0, 1) = 0x7a001001; SFPIADD(5, L0, L0, 1|4) = 0x79005005
  'int_scale_add.sfpu': { count: 32 * 5, first: [0x7004c000, 0x7a001001, 0x79005005, 0x7204c000] },
  // 8 loads, 2 x (SFPTRANSP + 6 SFPADD + 3 SFPNOP), 2 stores; SFPLOAD L1 at 4 = 0x7013c004
  'reduce_rows_sum.sfpu': { count: 8 + 2 * 10 + 2, first: [0x7003c000, 0x7013c004] },
};

describe('examples/tensix', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.sfpu'));
  it('has the documented examples', () => {
    assert.deepEqual(files.sort(), Object.keys(EXPECTED).sort());
  });
  for (const f of files) {
    for (const arch of ARCHES) {
      it(`${f} assembles on ${arch} without warnings and round-trips`, () => {
        const r = assemble(readFileSync(dir + f, 'utf8'), arch, { file: f });
        const e = EXPECTED[f]!;
        assert.equal(r.words.length, e.count);
        assert.deepEqual(r.warnings, []);
        if (arch === 'wormhole') assert.deepEqual([...r.words.slice(0, e.first.length)], e.first);
        assert.deepEqual(assemble(disassemble(r.words, arch).join('\n'), arch).words, r.words);
      });
    }
  }
});

describe('macro table vs encoding table', () => {
  for (const arch of ARCHES) {
    it(`every ${arch} encoding field is the tt-llk macro argument of the same name at the same bit`, () => {
      const macros = archTables(arch).macros;
      const norm = (s: string) => s.replace(/_/g, '').toLowerCase();
      for (const def of instructionSet(arch)) {
        const m = macros.get(def.name);
        assert.ok(m, `no TT_OP_${def.name} in ckernel_ops.h data`);
        assert.equal(m.opcode, def.opcode, def.name);
        for (const f of def.fields) {
          const a: MacroArg | undefined = m.args.find((x) => norm(x.name) === norm(f.name));
          assert.ok(a, `${def.name}.${f.name} is not an argument of TT_OP_${def.name}`);
          assert.equal(a.shift, f.lo, `${def.name}.${f.name}`);
          assert.ok(a.width >= f.width, `${def.name}.${f.name}: macro argument narrower than the field`);
        }
      }
    });
  }
});
