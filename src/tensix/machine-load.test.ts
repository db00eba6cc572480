import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { bitsToF32, f32ToBits } from '../numeric/index.ts';
import { TensixMachine } from './index.ts';

// |x| over one 32x32 fp32 tile: 32 rows of 32 lanes per iteration of the loop (docs/tensix-asm.md).
const ABS = `.rept 32
  TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
  TTI_SFPABS(0, p_sfpu::LREG0, p_sfpu::LREG0, 1);
  TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
  TTI_INCRWC(0, 2, 0, 0);
.endr`;

test('TensixMachine.load assembles text once; run takes the loaded program, text or words', () => {
  const input = Uint32Array.from({ length: 1024 }, (_, i) => f32ToBits(i - 700));
  const want = Array.from({ length: 1024 }, (_, i) => Math.abs(i - 700));
  const m = new TensixMachine('blackhole');
  const p = m.load(ABS);
  assert.equal(p.length, 128);
  for (const prog of [p, ABS, p.words]) {
    m.reset();
    m.writeDstTile(0, input);
    m.run(prog);
    assert.deepEqual(Array.from(m.readDstTile(0), bitsToF32), want);
  }
});

test('TensixMachine: errors of a program loaded from text name the source line', () => {
  const m = new TensixMachine('wormhole');
  assert.throws(
    () => m.load('SFPNOP\nSFPNOP\n.word 0xffffffff\n', { file: 'k.sfpu' }),
    (e) => e instanceof AxsimError && e.location?.file === 'k.sfpu' && e.location.line === 3,
  );
  assert.throws(
    () => m.run([0x02000000, 0xffffffff]),
    (e) => e instanceof AxsimError && e.location?.index === 1 && e.location.line === undefined,
  );
});
