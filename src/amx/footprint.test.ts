import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { executeRaw } from './exec.ts';
import { type AmxAccessSet, amxFootprint } from './footprint.ts';
import { AMX_GENS, type AmxGen, AmxState } from './state.ts';

// amxFootprint: the bytes an instruction reads and writes, from its operand fields. The expected
// sets below are worked out by hand from corsix/amx's pages (fma.md, ldst.md, extr_x.md,
// extr_y.md, genlut.md, matint.md) and written as explicit lists; the property test at the end
// checks the footprint against the executors on random states.

const B = (v: number | bigint, pos: number): bigint => BigInt(v) << BigInt(pos);

/** The flagged indices of a mask, as a sorted list. */
function on(mask: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) out.push(i);
  return out;
}

function range(from: number, n: number, step = 1): number[] {
  return Array.from({ length: n }, (_, k) => from + k * step);
}

/** Every byte of the rows listed (64 bytes each). */
function rows(list: number[]): number[] {
  return list.flatMap((r) => range(r * 64, 64)).sort((a, b) => a - b);
}

function empty(set: AmxAccessSet, except: ('x' | 'y' | 'z' | 'mem')[] = []): void {
  for (const k of ['x', 'y', 'z'] as const) if (!except.includes(k)) assert.deepEqual(on(set[k]), [], k);
  if (!except.includes('mem')) assert.deepEqual(set.mem, []);
}

test('fma32 vector mode: X lanes at x_offset, Y lanes at y_offset, one Z row (fma.md)', () => {
  // bit 63 vector, z_row 5 (bits 20-25), x_offset 0x40 (bits 10-18), y_offset 0x80 (bits 0-8)
  const operand = B(1, 63) | B(5, 20) | B(0x40, 10) | B(0x80, 0);
  const f = amxFootprint('m1', 12, operand);
  assert.deepEqual(on(f.reads.x), range(0x40, 64));
  assert.deepEqual(on(f.reads.y), range(0x80, 64));
  assert.deepEqual(on(f.reads.z), range(5 * 64, 64));
  assert.deepEqual(on(f.writes.z), range(5 * 64, 64));
  empty(f.writes, ['z']);
  assert.deepEqual(f.reads.mem, []);
  // X enable mode 2 (bits 46-47) "first N lanes", N = 4 (bits 41-45): lanes 0-3 = 16 bytes; and
  // skip_z (bit 27): z = x*y, Z is written but not read
  const g = amxFootprint('m1', 12, operand | B(2, 46) | B(4, 41) | B(1, 27));
  assert.deepEqual(on(g.reads.x), range(0x40, 16));
  assert.deepEqual(on(g.reads.y), range(0x80, 16));
  assert.deepEqual(on(g.reads.z), []);
  assert.deepEqual(on(g.writes.z), range(5 * 64, 16));
  // skip_x + skip_y (bits 29, 28): z unchanged, nothing read or written
  const n = amxFootprint('m1', 12, operand | B(3, 28));
  empty(n.reads);
  empty(n.writes);
});

test('fma32 matrix mode: every X lane, Y wrapping around the pool, rows z_row mod 4 + 4j (fma.md)', () => {
  // matrix mode, z_row 1, x_offset 0, y_offset 0x1f0: Y bytes 0x1f0..0x1ff then 0x000..0x02f
  const operand = B(1, 20) | B(0, 10) | B(0x1f0, 0);
  const f = amxFootprint('m1', 12, operand);
  assert.deepEqual(on(f.reads.x), range(0, 64));
  assert.deepEqual(on(f.reads.y), [...range(0, 48), ...range(0x1f0, 16)]);
  // Z[j * 4 + 1][i] for j, i in 0..15: rows 1, 5, 9, ..., 61
  const zrows = rows(range(1, 16, 4));
  assert.deepEqual(on(f.reads.z), zrows);
  assert.deepEqual(on(f.writes.z), zrows);
  // x_f16 (bit 61): X lanes are f16 in the low half of each 32-bit lane: bytes 4i, 4i+1
  const h = amxFootprint('m1', 12, operand | B(1, 61));
  assert.deepEqual(
    on(h.reads.x),
    range(0, 16).flatMap((i) => [4 * i, 4 * i + 1]),
  );
  // Y enable mode 1 "only lane N" (bits 37-38 = 1, N = 3 in bits 32-36): Z row 3*4+1 only
  const y1 = amxFootprint('m1', 12, operand | B(1, 37) | B(3, 32));
  assert.deepEqual(on(y1.reads.y), range(0x1fc, 4));
  assert.deepEqual(on(y1.writes.z), rows([13]));
});

test('ldx / ldy / stz: single, pair and (M2+) four registers, wrapping the register index (ldst.md)', () => {
  const addr = 0x12345680n;
  // ldx reg 7 pair (bit 62): X rows 7 and 0, 128 bytes of memory
  const a = amxFootprint('m1', 0, addr | B(7, 56) | B(1, 62));
  assert.deepEqual(on(a.writes.x), rows([0, 7]));
  assert.deepEqual(a.reads.mem, [{ addr, len: 128 }]);
  empty(a.reads, ['mem']);
  empty(a.writes, ['x']);
  // ldy reg 5, pair + bit 60: four registers on M2 (5, 6, 7, 0), still a pair on M1 (5, 6)
  const quad = addr | B(5, 56) | B(1, 62) | B(1, 60);
  const m2 = amxFootprint('m2', 1, quad);
  assert.deepEqual(on(m2.writes.y), rows([0, 5, 6, 7]));
  assert.deepEqual(m2.reads.mem, [{ addr, len: 256 }]);
  const m1 = amxFootprint('m1', 1, quad);
  assert.deepEqual(on(m1.writes.y), rows([5, 6]));
  assert.deepEqual(m1.reads.mem, [{ addr, len: 128 }]);
  // M3 bit 61 spreads them: four registers 5, 7, 1, 3; a pair 5, 1
  assert.deepEqual(on(amxFootprint('m3', 1, quad | B(1, 61)).writes.y), rows([1, 3, 5, 7]));
  assert.deepEqual(on(amxFootprint('m3', 1, addr | B(5, 56) | B(1, 62) | B(1, 61)).writes.y), rows([1, 5]));
  // a single ldx: one register, 64 bytes
  const s = amxFootprint('m1', 0, addr | B(2, 56));
  assert.deepEqual(on(s.writes.x), rows([2]));
  assert.deepEqual(s.reads.mem, [{ addr, len: 64 }]);
  // stz reg 63 pair: Z rows 63 and 0 are read, 128 bytes of memory written
  const z = amxFootprint('m1', 5, addr | B(63, 56) | B(1, 62));
  assert.deepEqual(on(z.reads.z), rows([0, 63]));
  assert.deepEqual(z.writes.mem, [{ addr, len: 128 }]);
  empty(z.reads, ['z']);
  empty(z.writes, ['mem']);
});

test('extrx / extry: a whole register from Y to X / X to Y (extr_x.md, extr_y.md)', () => {
  // extrx: bit 27 = 1, bit 26 = 0, Y register in bits 20-22, X register in bits 16-18
  const x = amxFootprint('m1', 8, B(1, 27) | B(3, 20) | B(6, 16));
  assert.deepEqual(on(x.reads.y), rows([3]));
  assert.deepEqual(on(x.writes.x), rows([6]));
  empty(x.reads, ['y']);
  empty(x.writes, ['x']);
  // extry: X register in bits 20-22, Y register in bits 6-8
  const y = amxFootprint('m1', 9, B(1, 27) | B(4, 20) | B(1, 6));
  assert.deepEqual(on(y.reads.x), rows([4]));
  assert.deepEqual(on(y.writes.y), rows([1]));
  empty(y.reads, ['x']);
  empty(y.writes, ['y']);
});

test('genlut: lookup reads the packed indices and the table lanes they can name; generate reads both whole (genlut.md)', () => {
  // mode 9 (bits 53-56): u2 indices, 64 lanes of 8 bits: 16 index bytes from source X at 0x10;
  // table Y (bit 59) register 3 (bits 60-62): a 2-bit index names lanes 0-3 = bytes 0-3;
  // destination Z (bit 26) row 7 (bits 20-25)
  const f = amxFootprint('m1', 22, B(9, 53) | B(1, 59) | B(3, 60) | B(1, 26) | B(7, 20) | B(0x10, 0));
  assert.deepEqual(on(f.reads.x), range(0x10, 16));
  assert.deepEqual(on(f.reads.y), range(3 * 64, 4));
  assert.deepEqual(on(f.writes.z), rows([7]));
  empty(f.writes, ['z']);
  assert.equal(f.dataDependent, true);
  // mode 11: u4 indices, 16 lanes of 32 bits: 8 index bytes, any of the 16 table lanes
  const g = amxFootprint('m1', 22, B(11, 53) | B(2, 60) | B(5, 20) | B(0x1fc, 0));
  assert.deepEqual(
    on(g.reads.x),
    [...range(0, 4), ...range(0x1fc, 4), ...rows([2])].sort((a, b) => a - b),
  );
  assert.deepEqual(on(g.writes.x), rows([5]));
  // mode 0 (generate, f32): the 64-byte source from Y (bit 10) at 0x40, the whole table X register
  // 1; the indices go to a whole X register (bit 25 = 0), register 2
  const gen = amxFootprint('m1', 22, B(0, 53) | B(1, 60) | B(1, 10) | B(2, 20) | B(0x40, 0));
  assert.deepEqual(on(gen.reads.y), range(0x40, 64));
  assert.deepEqual(on(gen.reads.x), rows([1]));
  assert.deepEqual(on(gen.writes.x), rows([2]));
  empty(gen.writes, ['x']);
});

test('matint: i8 x i8 -> i32 (mode 8, lane width 10) reads every fourth Y byte and all of Z (matint.md)', () => {
  // ALU mode 8 (bits 47-52), lane width mode 10 (bits 42-45): X i8 (64 lanes), Y i8 with only
  // every fourth lane used, Z i32 over all 64 rows: z[j + (i mod 4)][i div 4] += x[i] * y[j]
  const f = amxFootprint('m1', 20, B(8, 47) | B(10, 42) | B(0x40, 10) | B(0x100, 0));
  assert.deepEqual(on(f.reads.x), range(0x40, 64));
  assert.deepEqual(on(f.reads.y), range(0x100, 16, 4));
  assert.deepEqual(on(f.reads.z), range(0, 4096));
  assert.deepEqual(on(f.writes.z), range(0, 4096));
  // X enable mode 2 "first N" (bits 38-40), N = 8 lanes (bits 32-37): i = 0..7 -> Z i32 lanes
  // 0 and 1 of every row
  const g = amxFootprint('m1', 20, B(8, 47) | B(10, 42) | B(2, 38) | B(8, 32));
  assert.deepEqual(on(g.reads.x), range(0, 8));
  assert.deepEqual(
    on(g.writes.z),
    range(0, 64).flatMap((r) => range(r * 64, 8)),
  );
  // the same with bit 25: the enable applies to Y lanes; Y lanes 0 and 4 (N = 8 bytes of i8) ->
  // Z rows 0-7, all X lanes
  const y = amxFootprint('m1', 20, B(8, 47) | B(10, 42) | B(2, 38) | B(8, 32) | B(1, 25));
  assert.deepEqual(on(y.reads.y), [0, 4]);
  assert.deepEqual(on(y.reads.x), range(0, 64));
  assert.deepEqual(on(y.writes.z), rows(range(0, 8)));
  // ALU mode 7 is a no-op
  const n = amxFootprint('m1', 20, B(7, 47));
  empty(n.reads);
  empty(n.writes);
});

test('set writes every register, clr nothing', () => {
  const s = amxFootprint('m1', 17, 0n);
  assert.equal(on(s.writes.z).length, 4096);
  assert.equal(on(s.writes.x).length + on(s.writes.y).length, 1024);
  empty(s.reads);
  empty(amxFootprint('m1', 17, 1n).writes);
});

// ---- against the executors ---------------------------------------------------------------------

const WINDOW = 0x10000n;
const WINDOW_LEN = 0x2000;

function inRanges(ranges: readonly { addr: bigint; len: number }[], a: bigint): boolean {
  return ranges.some((r) => a >= r.addr && a < r.addr + BigInt(r.len));
}

function stateFrom(gen: AmxGen, regs: Uint8Array, mem: Uint8Array): AmxState {
  const s = new AmxState({ gen });
  s.x.set(regs.subarray(0, 512));
  s.y.set(regs.subarray(512, 1024));
  s.z.set(regs.subarray(1024, 5120));
  s.mem.writeBytes(WINDOW, mem);
  return s;
}

function run(s: AmxState, op: number, operand: bigint): boolean {
  try {
    executeRaw(s, op, Number(operand & 0xffffffffn), Number(operand >> 32n));
    return true;
  } catch {
    return false;
  }
}

test('property: changing every byte outside the reads changes no result; only written bytes change', () => {
  const ops = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 21, 22];
  fc.assert(
    fc.property(
      fc.constantFrom(...AMX_GENS),
      fc.constantFrom(...ops),
      fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      fc.boolean(),
      fc.uint8Array({ minLength: 5120, maxLength: 5120 }),
      fc.uint8Array({ minLength: WINDOW_LEN, maxLength: WINDOW_LEN }),
      fc.integer({ min: 1, max: 255 }),
      (gen, op, raw, tame, regs, mem, flip) => {
        let operand = raw;
        if (op <= 7) {
          // an address inside the mapped window (64-byte steps: some pair moves are misaligned)
          operand = (raw & ~((1n << 56n) - 1n)) | (WINDOW + ((raw & 0x7fn) << 6n));
        } else if (tame) {
          // clear the must-be-zero bits 54-56 so that the vec/mat families do something
          operand &= ~(7n << 54n);
        }
        const f = amxFootprint(gen, op, operand);
        const a = stateFrom(gen, regs, mem);
        if (!run(a, op, operand)) return;
        // B: every byte that is not read is changed
        const regsB = regs.slice();
        const sets = [f.reads.x, f.reads.y, f.reads.z];
        const bases = [0, 512, 1024];
        for (let k = 0; k < 3; k++)
          for (let i = 0; i < sets[k]!.length; i++) if (!sets[k]![i]) regsB[bases[k]! + i]! ^= flip;
        const memB = mem.slice();
        for (let i = 0; i < WINDOW_LEN; i++) if (!inRanges(f.reads.mem, WINDOW + BigInt(i))) memB[i]! ^= flip;
        const b = stateFrom(gen, regsB, memB);
        assert.ok(run(b, op, operand), 'B runs');
        // each byte: written -> the same value as A's; not written -> unchanged in A and in B
        const wsets = [f.writes.x, f.writes.y, f.writes.z];
        const regsOf = (s: AmxState) => [s.x, s.y, s.z];
        const [ax, bx] = [regsOf(a), regsOf(b)];
        for (let k = 0; k < 3; k++) {
          for (let i = 0; i < wsets[k]!.length; i++) {
            const where = `${'xyz'[k]}[${i}] op ${op} operand 0x${operand.toString(16)} ${gen}`;
            if (wsets[k]![i]) assert.equal(bx[k]![i], ax[k]![i], `written ${where}`);
            else {
              assert.equal(ax[k]![i], regs[bases[k]! + i], `not written but changed: ${where}`);
              assert.equal(bx[k]![i], regsB[bases[k]! + i], `not written but changed (B): ${where}`);
            }
          }
        }
        const ma = a.mem.readBytes(WINDOW, WINDOW_LEN);
        const mb = b.mem.readBytes(WINDOW, WINDOW_LEN);
        for (let i = 0; i < WINDOW_LEN; i++) {
          if (inRanges(f.writes.mem, WINDOW + BigInt(i))) assert.equal(mb[i], ma[i], `mem ${i} written`);
          else {
            assert.equal(ma[i], mem[i], `mem ${i} not written but changed`);
            assert.equal(mb[i], memB[i], `mem ${i} not written but changed (B)`);
          }
        }
      },
    ),
    { numRuns: 3000, seed: 16 },
  );
});
