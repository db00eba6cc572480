import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxsimError } from '../errors.ts';
import { instructionSet, type Program, TensixMachine } from './index.ts';
import { STRIDE } from './ops.ts';
import { compileWord } from './program.ts';

test('tiles: a 32x32 tile is four 16x16 faces = 64 Dst32b rows; read back equals written', () => {
  const m = new TensixMachine('wormhole');
  const t = new Uint32Array(1024);
  for (let i = 0; i < 1024; i++) t[i] = (0x3f800000 + i * 977) >>> 0;
  m.writeDstTile(3, t, 'fp32');
  assert.deepEqual(m.readDstTile(3, 'fp32'), t);
  // element (row 17, col 20) is in face 3 (bottom right), face row 1, column 4 -> Dst32b row 3*64+48+1
  assert.equal(m.readDstRows(3 * 64 + 48 + 1, 16, 'fp32')[4], t[17 * 32 + 20]);
  assert.equal(m.tiles('fp32'), 8);
  assert.equal(m.tiles('bf16'), 16);
  assert.throws(() => m.writeDstTile(8, t, 'fp32'), AxsimError);
  const b = new Uint32Array(1024).fill(0x3f80);
  m.writeDstTile(15, b, 'bf16');
  assert.deepEqual(m.readDstTile(15, 'bf16'), b);
  assert.equal(m.state.dst[15 * 64 * 16], 0x007f); // stored shuffled
});

test('snapshot / restore round-trip, and the run API', () => {
  const m = new TensixMachine('blackhole');
  m.setLreg(0, new Array(32).fill(0x3f800000));
  const snap = m.snapshot();
  m.run([0x84000010]); // SFPMAD L1 = L0 * L0 + L0 (VA=0, VB=0, VC=0) = 2.0
  assert.equal(m.lreg(1)[0], 0x40000000);
  m.restore(snap);
  assert.equal(m.lreg(1)[0], 0);
  const p = m.compile([0x84000010]);
  m.run(p, 3);
  assert.equal(m.lreg(1)[0], 0x40000000);
});

test('1e6 random instruction words execute or raise AxsimError, never anything else', () => {
  let s = 987654321;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  // Words are pre-decoded one by one into batches (a word that does not decode must raise an
  // AxsimError there); each batch runs as one program through the public run(), resuming after
  // any instruction that raises. The machine is reset before every batch. About half the words
  // raise, so stack capture is switched off while fuzzing (a failure names the word; run it alone
  // for the stack).
  const PER_ARCH = 500_000;
  const BATCH = 1000;
  const code = new Int32Array(BATCH * STRIDE);
  const words = new Uint32Array(BATCH);
  const index = Int32Array.from({ length: BATCH }, (_, i) => i);
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    fuzz();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  function fuzz(): void {
    for (const arch of ['wormhole', 'blackhole'] as const) {
      const m = new TensixMachine(arch);
      const defs = instructionSet(arch).filter((d) => d.name !== 'REPLAY');
      let ran = 0;
      let raised = 0;
      for (let done = 0; done < PER_ARCH; done += BATCH) {
        let n = 0;
        for (let i = 0; i < BATCH; i++) {
          const d = defs[next() % defs.length]!;
          const word = ((d.opcode << 24) | (next() & 0xffffff & ~(i & 1 ? d.reservedMask : 0))) >>> 0;
          try {
            compileWord(word, arch, code, n);
            words[n++] = word;
          } catch (e) {
            if (!(e instanceof AxsimError))
              throw new Error(`0x${word.toString(16)} (${arch}): ${(e as Error).message}`);
            assert.notEqual(e.category, 'Internal');
            raised++;
          }
        }
        m.reset();
        m.configure({ flagStackPolicy: 'wrap' });
        let k = 0;
        while (k < n) {
          const prog: Program = {
            arch,
            code: code.subarray(k * STRIDE, n * STRIDE),
            length: n - k,
            words: words.subarray(k, n),
            sourceIndex: index.subarray(k, n),
          };
          try {
            m.run(prog);
            ran += n - k;
            k = n;
          } catch (e) {
            if (!(e instanceof AxsimError))
              throw new Error(`${arch} batch at ${done}: ${(e as Error).message}`);
            assert.notEqual(e.category, 'Internal');
            const at = e.location?.index;
            assert.ok(typeof at === 'number' && at >= k && at < n, `error located at ${at}`);
            ran += at - k;
            raised++;
            k = at + 1;
          }
        }
      }
      assert.equal(ran + raised, PER_ARCH);
      assert.ok(ran > 100_000, `${arch}: only ${ran} words ran`);
    }
  }
});
