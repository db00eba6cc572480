/**
 * `axsim tensix run` (issue 11): the sequential run checks the documented timing rules on the cycle
 * model and warns with the source line; word files record their arch; `--out-format` reads Dst back
 * in any of its views.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readNpy, writeNpy } from '../io/index.ts';
import { runTensixCli as cli } from '../tensix/cli-testkit.ts';

const dir = mkdtempSync(join(tmpdir(), 'axsim-run-check-'));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('sequential run: timing rules checked, warnings name the line', () => {
  // L1 = 1.0; L3 = L1 * L1 + 0 (SFPMAD, two cycles); L4 = L3; store L4 to Dst row 0.
  const body = (nop: boolean) =>
    'TTI_SFPLOADI(1, 0, 0x3f80);\n' +
    'TTI_SFPMAD(1, 1, 9, 3, 0);\n' +
    (nop ? 'TTI_SFPNOP;\n' : '') +
    'TTI_SFPMOV(0, 3, 4, 0);\n' +
    'TTI_SFPSTORE(4, 3, 0, 0);\n';
  it('wormhole, SFPNOP missing after SFPMAD: early-read at the reading line, and the Dst that differs', async () => {
    const f = file('nonop.sfpu', body(false));
    const r = await cli(['tensix', 'run', f]);
    assert.equal(r.code, undefined, r.err);
    assert.match(r.err, /nonop\.sfpu:3:1: hazard early-read \(cycle 2\): SFPMOV reads LReg\[3\]/);
    assert.match(r.err, /16-bit cells end up different from this sequential result/);
    assert.match(r.out, /timing rules \(cycle model\): 1 hazard/);
    const quiet = await cli(['tensix', 'run', f, '--no-timing-check']);
    assert.equal(quiet.err, '');
    const j = JSON.parse((await cli(['tensix', 'run', f, '--json'])).out) as {
      timingCheck: { hazardCount: number; hazards: { id: string; at: string }[] };
    };
    assert.equal(j.timingCheck.hazardCount, 1);
    assert.match(j.timingCheck.hazards[0]!.at, /nonop\.sfpu:3:1$/);
  });
  it('with the SFPNOP, or on Blackhole (which stalls), nothing to report', async () => {
    const ok = await cli(['tensix', 'run', file('nop.sfpu', body(true))]);
    assert.equal(ok.err, '');
    assert.match(ok.out, /timing rules \(cycle model\): no hazards/);
    const bh = await cli(['tensix', 'run', file('bh.sfpu', body(false)), '--arch', 'blackhole']);
    assert.equal(bh.err, '');
  });
  it('a run-time error names file:line', async () => {
    const r = await cli(['tensix', 'run', file('pop.sfpu', 'TTI_SFPNOP;\nTTI_SFPPOPC(0, 0, 0, 0);\n')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /pop\.sfpu:2:1 \[instruction 1\]: UndefinedBehaviour/);
  });
});

describe('word files record their arch', () => {
  // SFPLOAD L0, FP32, ADDR_MOD_6: Blackhole only (3-bit AddrMod, a different field layout); on
  // Wormhole the same word reads as ADDR_MOD_3.
  const src = file('bhwords.sfpu', 'TTI_SFPLOAD(0, 3, 6, 0);\nTTI_SFPPOPC(0, 0, 0, 0);\n');
  it('asm --hex writes the header; disasm and run use it; a conflicting --arch is an error', async () => {
    const a = await cli(['tensix', 'asm', src, '--hex', '--arch', 'blackhole']);
    assert.equal(a.out.split('\n')[0], '# axsim tensix words arch=blackhole');
    const hex = file('bh.hex', a.out);
    const d = await cli(['tensix', 'disasm', hex, '--no-comments']);
    assert.equal(d.err, '');
    assert.match(d.out, /^SFPLOAD .*sfpu_addr_mode=6/);
    const bad = await cli(['tensix', 'disasm', hex, '--arch', 'wormhole']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /records arch=blackhole but --arch wormhole/);
    const run = await cli(['tensix', 'run', hex, '--no-timing-check']);
    assert.match(run.err, /\[instruction 1\]: UndefinedBehaviour/); // SFPPOPC on an empty stack
  });
  it('words without a header are read as wormhole with a warning naming a word that differs', async () => {
    const a = await cli(['tensix', 'asm', src, '--hex', '--arch', 'blackhole']);
    const bare = file('bare.hex', a.out.split('\n').slice(1).join('\n'));
    const d = await cli(['tensix', 'disasm', bare, '--no-comments']);
    assert.match(d.err, /records no arch and is read as wormhole; word 0 means/);
    assert.match(d.out, /^SFPLOAD .*sfpu_addr_mode=3/); // the issue: ADDR_MOD_6 shown as ADDR_MOD_3
    // no warning when both arches read the words alike
    const same = await cli(['tensix', 'disasm', '--words', '0x8f000000']);
    assert.equal(same.err, '');
  });
  it('asm --json carries arch and sources: run names the source line of a run-time error', async () => {
    const j = await cli(['tensix', 'asm', src, '--json', '--arch', 'blackhole']);
    const jf = file('bh.json', j.out);
    const r = await cli(['tensix', 'run', jf, '--no-timing-check']);
    assert.match(r.err, /bhwords\.sfpu:2:1 \[instruction 1\]: UndefinedBehaviour/);
  });
});

describe('--out-format reads Dst back in any view, whatever the input format', () => {
  it('16-bit storage as int16, int8, uint16, fp16a, fp16b (Dst.md data types)', async () => {
    // raw16 input: the bit patterns as they sit in Dst16b
    const raw = [0x8005, 0x0005, 0x8000, 0x7fff, 0x8210, 0x0210, 0x3f80, 0xffff];
    const data = Uint16Array.from({ length: 16 }, (_, i) => raw[i % raw.length]!);
    const inp = join(dir, 'raw16.npy');
    writeNpy(inp, { dtype: 'u2', shape: [16], data });
    const prog = file('nop16.sfpu', 'TTI_SFPNOP;\n');
    const read = async (view: string) => {
      const out = join(dir, `o-${view}.npy`);
      const r = await cli(['tensix', 'run', prog, '--dst', inp, '--out', out, '--out-format', view]);
      assert.equal(r.code, undefined, r.err);
      return readNpy(out);
    };
    // Integer "16": sign bit 15, magnitude bits 14:0
    const int16 = await read('int16');
    assert.equal(int16.dtype, 'i2');
    assert.deepEqual([...int16.data].slice(0, 8), [-5, 5, 0, 32767, -528, 528, 16256, -32767]);
    // Integer "8": sign bit 15, magnitude bits 14:5
    const int8 = await read('int8');
    assert.deepEqual([...int8.data].slice(0, 8), [0, 0, 0, 1023, -16, 16, 508, -1023]);
    assert.deepEqual([...(await read('uint16')).data].slice(0, 8), raw);
    // FP16 storage Sign,Man(10),Exp(5) -> IEEE Sign,Exp,Man: 0x3f80 = man 0x1fc, exp 0 -> 0x01fc
    const fp16 = await read('fp16a');
    assert.equal(fp16.dtype, 'f2');
    assert.equal(fp16.data[6], 0x01fc);
    // BF16 storage Sign,Man(7),Exp(8) -> Sign,Exp,Man: 0x3f80 = man 0x3f, exp 0x80 -> 0x403f, as f4
    const bf = await read('fp16b');
    assert.equal(bf.dtype, 'f4');
    assert.equal(new Uint32Array(new Float32Array([bf.data[6] as number]).buffer)[0], 0x403f0000);
  });
  it('32-bit storage as int32sm, uint32, int32 from an fp32 input', async () => {
    const vals = [0x80000005, 0x00000005, 0x80000000, 0x7fffffff, 0xbf800000, 0x3f800000];
    const data = new Float32Array(Uint32Array.from({ length: 16 }, (_, i) => vals[i % vals.length]!).buffer);
    const inp = join(dir, 'f32.npy');
    writeNpy(inp, { dtype: 'f4', shape: [16], data });
    const prog = file('nop32.sfpu', 'TTI_SFPNOP;\n');
    const read = async (view: string) => {
      const out = join(dir, `p-${view}.npy`);
      await cli(['tensix', 'run', prog, '--dst', inp, '--out', out, '--out-format', view]);
      return readNpy(out);
    };
    const sm = await read('int32sm');
    assert.equal(sm.dtype, 'i4');
    assert.deepEqual([...sm.data].slice(0, 6), [-5, 5, 0, 0x7fffffff, -0x3f800000, 0x3f800000]);
    assert.deepEqual([...(await read('uint32')).data].slice(0, 6), vals);
    assert.deepEqual(
      [...(await read('int32')).data].slice(0, 6),
      vals.map((v) => v | 0),
    );
    const bad = await cli([
      'tensix',
      'run',
      prog,
      '--dst',
      inp,
      '--out',
      join(dir, 'x.npy'),
      '--out-format',
      'q8',
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown Dst view 'q8'/);
  });
});
