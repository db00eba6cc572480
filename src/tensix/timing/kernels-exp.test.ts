/**
 * tt-llk's Wormhole fast approximate exp (ckernel_sfpu_exp.h, Schraudolph's method) in
 * examples/tensix: the clamped form (CLAMP_NEGATIVE = true) and the unclamped SFPLOADMACRO + REPLAY
 * form (8 and 32 iterations), each with its DISABLE_SFPLOADMACRO form; and the Blackhole copies.
 *
 * Expected values come from the kernels' documented algorithm, computed here from the instruction
 * pages' functional models, not from axsim: y = max(y, -88.5) in SFPSWAP's sign-magnitude order
 * (clamped form only); m = SFPMAD(A, y, B - C) as RNE(FTZ(A*y + (B - C))) with Wormhole's +0 for
 * zero/denormal results (SFPU-NOTES B3) and a NaN carrying the product's sign (B2);
 * SFPSTOCHRND_FloatInt.md round-to-nearest (ties away) to UINT16 or INT16; then i << 15 (SFPSHFT /
 * SFPSHFT2), the sign restored by SFPSETSGN in the unclamped form; SFPSTORE FP32 flushes a denormal
 * to a signed zero (SFPU-NOTES A2). The exact fused sum differs from Wormhole's partially fused MAD
 * (SFPU-NOTES B1) only below its 26-bit product precision, which the integer rounding can only see
 * within 2^-12 of a half-integer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { f32ToBits } from '../../numeric/index.ts';
import { assemble } from '../asm/index.ts';
import type { Arch } from '../encoding.ts';
import { TensixMachine } from '../index.ts';
import { Op, S, STRIDE } from '../ops.ts';
import type { Program } from '../program.ts';
import { runTimed } from './engine.ts';

const dir = fileURLToPath(new URL('../../../examples/tensix/', import.meta.url));

// ---- the documented algorithm ----

const A = 0x43b8aa3b; // 256 / ln 2 as FP32 (the kernel's A_scaled with scale 1.0f)
const B_MINUS_C = 0x46fde9a3; // 32500.818359375
const THRESHOLD = 0xc2b10000; // -88.5

/** value = (-1)^s * m * 2^e; zero and denormals (treated as zero by SFPMAD) give m = 0. */
function parts(x: number): { s: number; m: bigint; e: number } {
  const s = x >>> 31;
  const ex = (x >>> 23) & 0xff;
  if (ex === 0) return { s, m: 0n, e: 0 };
  return { s, m: BigInt((x & 0x7fffff) | 0x800000), e: ex - 150 };
}

/** Round (-1)^s * m * 2^e (m > 0) to FP32, nearest even; below 2^-126 flushed to +0 (B3). */
function roundF32(s: number, m: bigint, e: number): number {
  const len = m.toString(2).length;
  let E = len - 1 + e;
  if (E < -126) return 0;
  let q: bigint;
  if (len > 24) {
    const sh = BigInt(len - 24);
    q = m >> sh;
    const rem = m & ((1n << sh) - 1n);
    const half = 1n << (sh - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    if (q === 1n << 24n) {
      q >>= 1n;
      E++;
    }
  } else q = m << BigInt(24 - len);
  if (E > 127) return ((s << 31) | 0x7f800000) >>> 0;
  return ((s << 31) | ((E + 127) << 23) | (Number(q) & 0x7fffff)) >>> 0;
}

/**
 * SFPMAD a * b + c on FP32 bit patterns (exact sum, then one rounding). A NaN result is
 * sign | 0x7f800001 with the product's sign on Wormhole (SFPU-NOTES B2), 0x7fc00000 on Blackhole (C2).
 */
function mad(a: number, b: number, c: number, arch: Arch = 'wormhole'): number {
  const nan = (x: number) => (x & 0x7fffffff) > 0x7f800000;
  const isInf = (x: number) => (x & 0x7fffffff) === 0x7f800000;
  const ps = (a ^ b) >>> 31;
  if (nan(a) || nan(b)) return arch === 'blackhole' ? 0x7fc00000 : ((ps << 31) | 0x7f800001) >>> 0;
  if (isInf(a) || isInf(b)) {
    if (isInf(c) && c >>> 31 !== ps) return 0x7f800001;
    return ((ps << 31) | 0x7f800000) >>> 0; // A and B - C are finite and non-zero here
  }
  if (isInf(c) || nan(c)) return c;
  const pa = parts(a);
  const pb = parts(b);
  const pc = parts(c);
  const pm = pa.m * pb.m;
  const pe = pa.e + pb.e;
  const e = pm === 0n ? pc.e : pc.m === 0n ? pe : Math.min(pe, pc.e);
  let sum = (ps ? -pm : pm) << BigInt(pe - e);
  if (pm === 0n) sum = 0n;
  sum += (pc.s ? -pc.m : pc.m) << BigInt(pc.e - e);
  if (sum === 0n) return 0;
  return sum < 0n ? roundF32(1, -sum, e) : roundF32(0, sum, e);
}

/** SFPSTOCHRND_FloatInt.md, round to nearest: FP32 -> sign-magnitude integer. */
function toInt(c: number, keepSign: boolean, max: number): number {
  let sign = keepSign ? c & 0x80000000 : 0;
  const exp = ((c >>> 23) & 0xff) - 127;
  let mag: number;
  if (exp < -1) {
    mag = 0;
    sign = 0;
  } else if (exp >= 16) mag = max;
  else {
    const man = 0x800000 | (c & 0x7fffff);
    const v = exp >= 0 ? man * 2 ** exp : Math.floor(man / 2);
    mag = Math.floor(v / 0x800000) + (v % 0x800000 >= 0x400000 ? 1 : 0);
    if (mag > max) mag = max;
    if (mag === 0) sign = 0;
  }
  return (sign | mag) >>> 0;
}

/** SFPSTORE FP32: a denormal becomes a zero of the same sign (A2). */
const storeF32 = (x: number) => (((x >>> 23) & 0xff) === 0 ? (x & 0x80000000) >>> 0 : x >>> 0);

/** SFPSWAP's order: sign-magnitude, so -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. */
function smLess(a: number, b: number): boolean {
  const sa = a >>> 31;
  const sb = b >>> 31;
  if (sa !== sb) return sa === 1;
  const ma = a & 0x7fffffff;
  const mb = b & 0x7fffffff;
  return sa === 0 ? ma < mb : ma > mb;
}

/** CLAMP_NEGATIVE = true: y = max(y, -88.5); uint16(A*y + (B-C)) << 15. */
function expClamped(y: number, arch: Arch = 'wormhole'): number {
  const x = smLess(y, THRESHOLD) ? THRESHOLD : y;
  return storeF32((toInt(mad(A, x, B_MINUS_C, arch), false, 65535) << 15) >>> 0);
}

/** CLAMP_NEGATIVE = false: i = int16(A*y + (B-C)); sign of i, exponent/mantissa of i << 15. */
function expUnclamped(y: number, arch: Arch = 'wormhole'): number {
  const i = toInt(mad(A, y, B_MINUS_C, arch), true, 32767);
  return storeF32(((i & 0x80000000) | ((i << 15) & 0x7fffffff)) >>> 0);
}

// ---- running the examples ----

function source(file: string): string {
  return readFileSync(dir + file, 'utf8');
}
function compile(src: string, file: string, arch: Arch = 'wormhole'): { m: TensixMachine; prog: Program } {
  const m = new TensixMachine(arch);
  return { m, prog: m.compile(assemble(src, arch, { file }).words) };
}
function load(m: TensixMachine, data: number[]): void {
  m.reset();
  m.configure({ sfpuFp32: true });
  m.writeDstRows(0, data, 'fp32');
}

const SPECIAL = [
  0,
  0x80000000,
  0x7f800000,
  0xff800000,
  0x7fc00000,
  0xffc00001,
  0x00000001,
  0x807fffff,
  0x00800000,
  THRESHOLD,
  0xc2b00000,
  0xc2b20000,
  0x3f800000,
  0xbf800000,
  0x3f3851ec /* 0.72 */,
  0x42b20000 /* 89 */,
];

function inputs(rows: number): fc.Arbitrary<number[]> {
  const elem = fc.oneof(
    fc.constantFrom(...SPECIAL),
    fc.integer({ min: 0, max: 0xffffffff }),
    // the range the kernel is for, and around its clamp
    fc.double({ min: -100, max: 100, noNaN: true }).map((x) => f32ToBits(x)),
    fc.double({ min: -89, max: -87, noNaN: true }).map((x) => f32ToBits(x)),
  );
  return fc.array(elem, { minLength: rows * 16, maxLength: rows * 16 }).map((a) => a.map((x) => x >>> 0));
}
const specials = (rows: number) =>
  Array.from({ length: rows * 16 }, (_, i) => SPECIAL[Math.floor(i / 16) % SPECIAL.length]!);

function hex(x: number): string {
  return `0x${(x >>> 0).toString(16).padStart(8, '0')}`;
}
function expectAll(
  out: ArrayLike<number>,
  data: number[],
  f: (y: number) => number,
  only?: (y: number) => boolean,
): void {
  for (let i = 0; i < data.length; i++) {
    if (only && !only(data[i]!)) continue;
    assert.equal(hex(out[i]!), hex(f(data[i]!)), `element ${i}, input ${hex(data[i]!)}`);
  }
}

/** Issue cycles of the program's SFPLOADMACRO records with the given macro index. */
function lmIssues(prog: Program, issue: Int32Array, macro: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < prog.length; i++) {
    const o = i * STRIDE;
    if (prog.code[o + S.OP] === Op.LOADMACRO && prog.code[o + S.AUX] === macro) out.push(issue[i]!);
  }
  return out;
}
const diffs = (a: number[]) => a.slice(1).map((x, i) => x - a[i]!);

describe('oracle sanity (hand-worked values)', () => {
  it('exp(0) = 32501 << 15, exp(1) ~ 2.7, -88.5 flushes to +0, +Inf and NaN saturate', () => {
    // 0*A + 32500.818359375 -> 32501 (0.818 rounds up) -> 0x7ef5 << 15 = 0x3f7a8000 (0.978)
    assert.equal(hex(expClamped(0)), '0x3f7a8000');
    // 1: 369.329925537109375 + 32500.818359375 = 32870.1482849121... -> 32870 = 0x8066 -> 0x40330000 (2.796875)
    assert.equal(hex(expClamped(0x3f800000)), '0x40330000');
    // -88.5 * A + (B - C) = -184.88...: UINT16 drops the sign, 185 << 15 is a denormal -> +0
    assert.equal(hex(expClamped(0xc3000000)), '0x00000000');
    assert.equal(hex(expClamped(0x7f800000)), '0x7fff8000');
    assert.equal(hex(expUnclamped(0x7fc00000)), '0x3fff8000');
    // unclamped -1: 32500.818359375 - 369.329925537109375 = 32131.488...: 32131 = 0x7d83 -> 0x3ec18000
    assert.equal(hex(expUnclamped(0xbf800000)), '0x3ec18000');
    // unclamped -100: -4432.17... -> int16 -4432 -> sign | 4432 << 15 = 0x88a80000
    assert.equal(hex(expUnclamped(0xc2c80000)), '0x88a80000');
  });
});

describe('wh_exp_fast_approx (CLAMP_NEGATIVE = true)', () => {
  const macroSrc = source('wh_exp_fast_approx.sfpu');
  const macro = compile(macroSrc, 'wh_exp_fast_approx.sfpu');
  const serial = compile(source('wh_exp_fast_approx_nomacro.sfpu'), 'wh_exp_fast_approx_nomacro.sfpu');

  it('DISABLE form (functional mode) computes the documented algorithm', () => {
    const check = (data: number[]) => {
      load(serial.m, data);
      serial.m.run(serial.prog);
      expectAll(serial.m.readDstRows(0, 256, 'fp32'), data, expClamped);
    };
    check(specials(16));
    fc.assert(fc.property(inputs(16), check), { numRuns: 25, seed: 11 });
  });

  it('SFPLOADMACRO form computes it too, clamp included; strict, nothing discarded', () => {
    const check = (data: number[]) => {
      load(macro.m, data);
      const r = runTimed(macro.m.state, macro.prog, { hazards: 'strict' });
      assert.equal(r.discarded, 0);
      expectAll(macro.m.readDstRows(0, 256, 'fp32'), data, expClamped);
    };
    check(specials(16));
    fc.assert(fc.property(inputs(16), check), { numRuns: 25, seed: 12 });
  });

  // The sanitize macro schedules SFPSWAP(0, 0, 14, 1) without sequence bit 7: SFPLOADMACRO.md sets
  // VC = VD = the macro's VD and VB = the template's VD (14). tt-llk's comment says the larger of y
  // and LReg[14] = -88.5 ends up in the macro's VD: the scheduled SFPSWAP reads its VD operand
  // through VB (found with this kernel; modelled since commit 443d192). Before that, axsim swapped
  // the register with itself and nothing was clamped.
  it('SFPLOADMACRO form clamps inputs below -88.5 as its DISABLE form does', () => {
    const data = specials(16);
    load(macro.m, data);
    runTimed(macro.m.state, macro.prog, { hazards: 'strict' });
    expectAll(macro.m.readDstRows(0, 256, 'fp32'), data, expClamped);
  });

  it('the sanitize macro alone: Dst -100, 2, -Inf, -88 become -88.5, 2, -88.5, -88', () => {
    // _init_exponential_'s LREG[14], InstructionTemplate[0] (SFPSWAP(0, 0, 14, 1) via SFPCONFIG),
    // Sequence[1] (Simple: template 0, delay 0; Store: delay 2), then one macro-1 SFPLOADMACRO.
    const src = [
      'TTI_SETC16(2, 1);',
      'TTI_SETC16(23 + 7, 0);',
      'TTI_SFPLOADI(0, 0xA, 0x0000);',
      'TTI_SFPLOADI(0, 0x8, 0xc2b1);',
      'TTI_SFPCONFIG(0, 14, 0);',
      'TTI_SFPLOADI(0, 0xA, 0x00E1);',
      'TTI_SFPLOADI(0, 0x8, 0x9200);',
      'TTI_SFPCONFIG(0, 0, 0);',
      'TTI_SFPLOADI(0, 0xA, 0x0004);',
      'TTI_SFPLOADI(0, 0x8, 0x1300);',
      'TTI_SFPCONFIG(0, 5, 0);',
      'TTI_SFPCONFIG(0, 8, 1);',
      'TTI_SFPLOADMACRO(4, 0, 3, 0);',
      'TTI_SFPNOP;',
      'TTI_SFPNOP;',
      'TTI_SFPNOP;',
    ].join('\n');
    const k = compile(src, 'sanitize');
    load(k.m, [0xc2c80000, 0x40000000, 0xff800000, 0xc2b00000]);
    runTimed(k.m.state, k.prog, { hazards: 'strict' });
    assert.deepEqual([...k.m.readDstRows(0, 4, 'fp32')].map(hex), [
      '0xc2b10000',
      '0x40000000',
      '0xc2b10000',
      '0xc2b00000',
    ]);
  });

  it('throughput: sanitize every 2 cycles (SFPSWAP is not pipelined), compute every cycle; the one trailing SFPNOP is enough before the next face', () => {
    load(macro.m, specials(32));
    const r = runTimed(macro.m.state, macro.prog, { hazards: 'strict' });
    assert.deepEqual(diffs(lmIssues(macro.prog, r.issueCycle, 1)), new Array(7).fill(2));
    assert.deepEqual(diffs(lmIssues(macro.prog, r.issueCycle, 0)), new Array(7).fill(1));
    // the two phases back to back: the first compute LM right after the last sanitize LM
    assert.equal(lmIssues(macro.prog, r.issueCycle, 0)[0]! - lmIssues(macro.prog, r.issueCycle, 1)[7]!, 1);
    // Two faces, as _llk_math_eltwise_unary_sfpu_params_ runs them: the calculate function, then
    // SETRWC(CR_D, 8) twice (16 rows on), then the calculate function again.
    const at = macroSrc.indexOf('// ---- _calculate_exponential_');
    const body = macroSrc.slice(at);
    const next = 'TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);\n';
    const two = compile(macroSrc + next + next + body, 'two faces');
    const data = specials(32);
    load(two.m, data);
    const r2 = runTimed(two.m.state, two.prog, { hazards: 'strict' });
    assert.equal(r2.discarded, 0);
    expectAll(two.m.readDstRows(0, 512, 'fp32'), data, expClamped);
  });

  it('DISABLE form in timed mode: one early-read per iteration (SFP_STOCH_RND right after SFPMAD)', () => {
    load(serial.m, specials(16));
    const r = runTimed(serial.m.state, serial.prog, { hazards: 'warn' });
    assert.equal(r.hazards.length, 8);
    for (const h of r.hazards) {
      assert.equal(h.id, 'early-read');
      assert.match(h.message, /SFP_STOCH_RND reads LReg\[0\]/);
    }
  });
});

describe('wh_exp_fast_approx_noclamp (CLAMP_NEGATIVE = false, SFPLOADMACRO + REPLAY)', () => {
  const serialSrc = source('wh_exp_fast_approx_noclamp_nomacro.sfpu');
  const serial = compile(serialSrc, 'wh_exp_fast_approx_noclamp_nomacro.sfpu');
  const macro = compile(source('wh_exp_fast_approx_noclamp.sfpu'), 'wh_exp_fast_approx_noclamp.sfpu');
  const macro32 = compile(source('wh_exp_fast_approx_noclamp_32.sfpu'), 'wh_exp_fast_approx_noclamp_32.sfpu');
  // The DISABLE form's loop runs ITERATIONS times: 32 covers the whole tile.
  const serial32 = compile(serialSrc.replace('d < 8', 'd < 32'), 'ITERATIONS = 32');

  for (const [name, m, s, rows] of [
    ['ITERATIONS = 8', macro, serial, 16],
    ['ITERATIONS = 32', macro32, serial32, 64],
  ] as const) {
    it(`${name}: both forms compute the documented algorithm, bit for bit; strict, nothing discarded`, () => {
      const check = (data: number[]) => {
        load(s.m, data);
        s.m.run(s.prog);
        expectAll(s.m.readDstRows(0, rows * 16, 'fp32'), data, expUnclamped);
        load(m.m, data);
        const r = runTimed(m.m.state, m.prog, { hazards: 'strict' });
        assert.equal(r.discarded, 0);
        assert.deepEqual(m.m.state.dst, s.m.state.dst);
      };
      check(specials(rows));
      fc.assert(fc.property(inputs(rows), check), { numRuns: rows === 16 ? 25 : 8, seed: 13 });
    });
  }

  it('throughput as the comments claim: 8 elements in ~20 cycles, 32 in ~68 (one SFPLOADMACRO every 2 cycles)', () => {
    for (const [m, n, claim] of [
      [macro, 8, 20],
      [macro32, 32, 68],
    ] as const) {
      load(m.m, specials(n * 2));
      const r = runTimed(m.m.state, m.prog, { hazards: 'strict', timeline: true });
      const lms = lmIssues(m.prog, r.issueCycle, 0).slice(-n); // the replayed ones (the record does not execute)
      assert.deepEqual(diffs(lms), new Array(n - 1).fill(2));
      // from the first SFPLOADMACRO to the last store: 2 per element plus the drain
      const stores = r.timeline!.filter((e) => e.scheduled && e.unit === 'store');
      assert.equal(stores.length, n);
      const span = stores.at(-1)!.cycle - lms[0]! + 1;
      assert.ok(span >= claim && span <= claim + 2, `${n} elements in ${span} cycles (claim ~${claim})`);
    }
  });

  it('DISABLE form in timed mode: one early-read per iteration (SFP_STOCH_RND right after SFPMAD)', () => {
    load(serial.m, specials(16));
    const r = runTimed(serial.m.state, serial.prog, { hazards: 'warn' });
    assert.deepEqual(
      r.hazards.map((h) => h.id),
      new Array(8).fill('early-read'),
    );
  });
});

describe('Blackhole: the same kernels (bh_exp_fast_approx*, tt_llk_blackhole ckernel_sfpu_exp.h)', () => {
  const bh = (f: string) => compile(source(`${f}.sfpu`), `${f}.sfpu`, 'blackhole');
  const macro = bh('bh_exp_fast_approx');
  const serial = bh('bh_exp_fast_approx_nomacro');
  const macroU = bh('bh_exp_fast_approx_noclamp');
  const serialU = bh('bh_exp_fast_approx_noclamp_nomacro');
  const ex = (y: number) => expClamped(y, 'blackhole');
  const exU = (y: number) => expUnclamped(y, 'blackhole');
  it('DISABLE forms compute the algorithm in both modes (the stall logic holds SFP_STOCH_RND back: no hazard)', () => {
    const check = (data: number[]) => {
      for (const [k, f] of [
        [serial, ex],
        [serialU, exU],
      ] as const) {
        load(k.m, data);
        k.m.run(k.prog);
        expectAll(k.m.readDstRows(0, 256, 'fp32'), data, f);
        load(k.m, data);
        const r = runTimed(k.m.state, k.prog, { hazards: 'strict' });
        assert.ok(r.stallCycles >= 8);
        expectAll(k.m.readDstRows(0, 256, 'fp32'), data, f);
      }
    };
    check(specials(16));
    fc.assert(fc.property(inputs(16), check), { numRuns: 15, seed: 14, endOnFailure: true });
  });
  it('SFPLOADMACRO forms compute the algorithm (clamp included); strict', () => {
    const check = (data: number[]) => {
      load(macroU.m, data);
      assert.equal(runTimed(macroU.m.state, macroU.prog, { hazards: 'strict' }).discarded, 0);
      expectAll(macroU.m.readDstRows(0, 256, 'fp32'), data, exU);
      load(macro.m, data);
      assert.equal(runTimed(macro.m.state, macro.prog, { hazards: 'strict' }).discarded, 0);
      expectAll(macro.m.readDstRows(0, 256, 'fp32'), data, ex);
    };
    check(specials(16));
    fc.assert(fc.property(inputs(16), check), { numRuns: 15, seed: 15, endOnFailure: true });
  });
});
