/**
 * The AMX reference-vector runner (format: shared/conformance/AMX-FORMAT.md): rebuilds each case's
 * 6,144-byte initial image from its seed (splitmix64 fill + edge-value overlay), places X, Y, Z and
 * the 1 KiB memory buffer, executes the one instruction on the case's generation and compares every
 * byte with the expected image.
 */
import { diffWords } from '../conformance/diff.ts';
import type { CaseOutcome, CaseRunner } from '../conformance/index.ts';
import { badInput } from '../errors.ts';
import { executeRaw } from './exec.ts';
import { type AmxGen, AmxMemory, AmxState, parseGen } from './state.ts';

// ------------------------------------------------------------------ splitmix64 on 32-bit halves ---

/** Low 64 bits of (aHi:aLo) * (bHi:bLo), returned through `out` as [lo, hi]. */
function mul64(aLo: number, aHi: number, bLo: number, bHi: number, out: Uint32Array): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const mid = a0 * b1 + a1 * b0; // < 2^33
  const t = a0 * b0 + (mid % 65536) * 65536; // < 2^33
  const lo = t >>> 0;
  const carry = Math.floor(t / 4294967296) + Math.floor(mid / 65536) + a1 * b1;
  const hi = (carry + Math.imul(aLo, bHi) + Math.imul(aHi, bLo)) >>> 0;
  out[0] = lo;
  out[1] = hi >>> 0;
}

export class SplitMix64 {
  private lo: number;
  private hi: number;
  private readonly tmp = new Uint32Array(2);
  /** The last output, as 32-bit halves. */
  outLo = 0;
  outHi = 0;

  constructor(seed: bigint) {
    this.lo = Number(seed & 0xffffffffn);
    this.hi = Number((seed >> 32n) & 0xffffffffn);
  }

  next(): void {
    // s += 0x9E3779B97F4A7C15
    let lo = this.lo + 0x7f4a7c15;
    const c = lo >= 4294967296 ? 1 : 0;
    lo >>>= 0;
    const hi = (this.hi + 0x9e3779b9 + c) >>> 0;
    this.lo = lo;
    this.hi = hi;
    // z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    let zl = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
    let zh = (hi ^ (hi >>> 30)) >>> 0;
    mul64(zl, zh, 0x1ce4e5b9, 0xbf58476d, this.tmp);
    zl = this.tmp[0]!;
    zh = this.tmp[1]!;
    // z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    zl = (zl ^ ((zl >>> 27) | (zh << 5))) >>> 0;
    zh = (zh ^ (zh >>> 27)) >>> 0;
    mul64(zl, zh, 0x133111eb, 0x94d049bb, this.tmp);
    zl = this.tmp[0]!;
    zh = this.tmp[1]!;
    // z ^ (z >> 31)
    this.outLo = (zl ^ ((zl >>> 31) | (zh << 1))) >>> 0;
    this.outHi = (zh ^ (zh >>> 31)) >>> 0;
  }

  nextBig(): bigint {
    this.next();
    return (BigInt(this.outHi) << 32n) | BigInt(this.outLo);
  }
}

// ------------------------------------------------------------------------------- edge tables ---

const T = (s: string): string[] => s.trim().split(/\s+/);
const EDGE: Record<string, string[]> = {
  u8: T('00 01 02 7e 7f 80 81 fe ff 40 3f c0 0f f0 55 aa'),
  u16: T(`0000 0001 0002 7fff 8000 8001 fffe ffff 007f 0080 00ff 0100 ff80 ff7f ff00 4000
    c000 3fff 7ffe 0101 5555 aaaa 00fe ff01`),
  u32: T(`00000000 00000001 00000002 7fffffff 80000000 80000001 fffffffe ffffffff
    00007fff 00008000 0000ffff 00010000 ffff8000 ffff7fff 0000007f 00000080
    000000ff 00000100 ffffff80 ffffff7f 7fff8000 00ff8000 3fffc000 007fffff
    00800000 ff800000 40000000 c0000000 55555555 aaaaaaaa 0001ffff fffe0000`),
  u64: T(`0000000000000000 0000000000000001 7fffffffffffffff 8000000000000000 8000000000000001
    ffffffffffffffff fffffffffffffffe 00000000ffffffff 0000000100000000 000000007fffffff
    0000000080000000 ffffffff80000000 ffffffff7fffffff 000000000000ffff 0000000000007fff
    ffffffffffff8000`),
  f16: T(`0000 8000 0001 8001 03ff 83ff 0400 8400 0200 3c00 bc00 3c01 bc01 3bff 4000 c000
    3800 3e00 4200 7bff fbff 7800 7bfe 7c00 fc00 7e00 fe00 7c01 fc01 7d55 7fff ffff
    1400 1000 0c00 1c00 5bff 5c00 6000 3555 4248 b555 2e66 0001 3c00 3c00`),
  bf16: T(`0000 8000 0001 8001 007f 807f 0080 8080 3f80 bf80 3f81 bf81 3f7f 4000 c000 3f00
    3fc0 7f7f ff7f 7f00 7f80 ff80 7fc0 ffc0 7f81 ff81 7fff ffff 3b80 3380 0100 4049
    3eab 3f80 3f80 0040`),
  f32: T(`00000000 80000000 00000001 80000001 007fffff 807fffff 00800000 80800000
    3f800000 bf800000 3f800001 bf800001 3f7fffff 40000000 c0000000 3f000000
    3fc00000 7f7fffff ff7fffff 7f000000 7f800000 ff800000 7fc00000 ffc00000
    7f800001 ff800001 7fbfffff 7fc00001 ffffffff 33800000 b3800000 34000000
    33000000 33000001 33c00000 387fc000 38800000 387fe000 477fe000 c77fe000
    477fefff 477ff000 c77ff000 3f801000 3f803000 3f801001 3f808000 3f818000
    3f808001 7f7f8000 7f7f7fff 4b000000 cb000000 3e800000 40490fdb 3eaaaaab
    3f800000 3f800000`),
  f64: T(`0000000000000000 8000000000000000 0000000000000001 8000000000000001 000fffffffffffff
    800fffffffffffff 0010000000000000 8010000000000000 3ff0000000000000 bff0000000000000
    3ff0000000000001 bff0000000000001 3fefffffffffffff 4000000000000000 c000000000000000
    3fe0000000000000 3ff8000000000000 7fefffffffffffff ffefffffffffffff 7ff0000000000000
    fff0000000000000 7ff8000000000000 fff8000000000000 7ff0000000000001 fff0000000000001
    7ff7ffffffffffff 7ff8000000000001 ffffffffffffffff 3ca0000000000000 3cb0000000000000
    3c90000000000000 4330000000000000 c330000000000000 0010000000000001 400921fb54442d18
    3fd5555555555555 3ff0000000000000 3ff0000000000000`),
};
const WIDTH: Record<string, number> = { u8: 1, u16: 2, f16: 2, bf16: 2, u32: 4, f32: 4, u64: 8, f64: 8 };
const FLOAT: Record<string, [number, number]> = {
  f16: [10, 15],
  bf16: [7, 127],
  f32: [23, 127],
  f64: [52, 1023],
};

/** Builds the 6,144-byte initial image of AMX-FORMAT.md §3 for (seed, et, ek). */
export function buildImage(seed: bigint, et: string, ek: number): Uint8Array {
  const img = new Uint8Array(6144);
  const rng = new SplitMix64(seed);
  for (let k = 0; k < 768; k++) {
    rng.next();
    const o = 8 * k;
    const lo = rng.outLo;
    const hi = rng.outHi;
    img[o] = lo & 255;
    img[o + 1] = (lo >>> 8) & 255;
    img[o + 2] = (lo >>> 16) & 255;
    img[o + 3] = lo >>> 24;
    img[o + 4] = hi & 255;
    img[o + 5] = (hi >>> 8) & 255;
    img[o + 6] = (hi >>> 16) & 255;
    img[o + 7] = hi >>> 24;
  }
  if (et === 'none') return img;
  const W = WIDTH[et];
  const table = EDGE[et];
  if (W === undefined || table === undefined) throw badInput(`unknown edge-value type '${et}'`);
  const B = 8 * W;
  const mask = 2 ** ek - 1;
  const fl = FLOAT[et];
  for (let off = 0; off < 6144; off += W) {
    const r = rng.nextBig();
    if (ek > 0 && (r & BigInt(mask)) !== 0n) continue;
    const kind = Number((r >> 4n) & 3n);
    let v: bigint;
    if (kind <= 1) {
      v = BigInt(`0x${table[Number((r >> 8n) & 0xffn) % table.length]}`);
    } else if (fl !== undefined) {
      const [M, E] = fl;
      let mant = (r >> 8n) & ((1n << BigInt(M)) - 1n);
      if (kind === 3) mant &= ~((1n << BigInt(M - 3)) - 1n);
      const e = BigInt(E - 4) + ((r >> 60n) & 7n);
      v = ((r >> 63n) << BigInt(B - 1)) | (e << BigInt(M)) | mant;
    } else if (kind === 2) {
      v = BigInt.asUintN(B, ((r >> 8n) & 15n) - 8n);
    } else {
      v = 1n << ((r >> 8n) & BigInt(B - 1));
      if (r >> 63n === 1n) v = BigInt.asUintN(B, (1n << BigInt(B)) - v);
    }
    for (let b = 0; b < W; b++) img[off + b] = Number((v >> BigInt(8 * b)) & 0xffn);
  }
  return img;
}

function hexToBytes(hex: string, what: string): Uint8Array {
  if (!/^[0-9a-f]{128}$/.test(hex)) throw badInput(`${what}: expected 128 lowercase hex digits`);
  const out = new Uint8Array(64);
  for (let i = 0; i < 64; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i]!.toString(16).padStart(2, '0');
  return s;
}

function big(v: unknown, what: string): bigint {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(v))
    throw badInput(`${what} must be a 0x-hex string`);
  return BigInt(v);
}

/** Runs one AMX vector (a parsed JSONL record). */
export function runAmxCase(rec: Record<string, unknown>): CaseOutcome {
  const gen: AmxGen = parseGen(String(rec.gen));
  const op = Number(rec.op);
  if (!Number.isInteger(op) || op < 0 || op > 22) throw badInput(`bad op ${String(rec.op)}`);
  const operand = big(rec.operand, 'operand');
  const seed = big(rec.seed, 'seed');
  const memBase = big(rec.mem_base, 'mem_base');
  const et = String(rec.et ?? 'none');
  const ek = Number(rec.ek ?? 0);
  if (!Number.isInteger(ek) || ek < 0 || ek > 32)
    throw badInput(`ek must be an integer 0..32, got ${String(rec.ek)}`);
  const img = buildImage(seed, et, ek);
  const mem = new AmxMemory();
  mem.writeBytes(memBase, img.subarray(5120, 6144));
  const s = new AmxState({ gen, mem });
  s.enabled = true;
  s.x.set(img.subarray(0, 512));
  s.y.set(img.subarray(512, 1024));
  s.z.set(img.subarray(1024, 5120));
  executeRaw(s, op, Number(operand & 0xffffffffn), Number(operand >> 32n));

  const expected = img.slice();
  const changed = rec.changed as Record<string, Record<string, string>> | undefined;
  if (!changed || typeof changed !== 'object') throw badInput('case has no "changed" object');
  const bases: Record<string, number> = { x: 0, y: 512, z: 1024, mem: 5120 };
  for (const key of ['x', 'y', 'z', 'mem']) {
    const rows = changed[key] ?? {};
    if (typeof rows !== 'object' || rows === null) throw badInput(`changed.${key} must be an object`);
    const limit = key === 'x' || key === 'y' ? 8 : key === 'z' ? 64 : 1024;
    for (const [k, hex] of Object.entries(rows)) {
      const n = Number(k);
      const ok = /^[0-9]+$/.test(k) && (key === 'mem' ? n % 64 === 0 && n < limit : n < limit);
      if (!ok) throw badInput(`changed.${key} has an invalid row key '${k}'`);
      if (typeof hex !== 'string') throw badInput(`changed.${key}.${k} must be a hex string`);
      const off = key === 'mem' ? bases[key]! + n : bases[key]! + 64 * n;
      expected.set(hexToBytes(hex, `changed.${key}.${k}`), off);
    }
  }
  const actual = new Uint8Array(6144);
  actual.set(s.x, 0);
  actual.set(s.y, 512);
  actual.set(s.z, 1024);
  actual.set(mem.readBytes(memBase, 1024), 5120);
  const diffs: string[] = [];
  let count = 0;
  for (let off = 0; off < 6144; off += 64) {
    let same = true;
    for (let i = off; i < off + 64; i++) {
      if (expected[i] !== actual[i]) {
        same = false;
        break;
      }
    }
    if (same) continue;
    count++;
    if (diffs.length < 6) {
      const where =
        off < 512
          ? `x[${off / 64}]`
          : off < 1024
            ? `y[${(off - 512) / 64}]`
            : off < 5120
              ? `z[${(off - 1024) / 64}]`
              : `mem+${off - 5120}`;
      const ew = new Uint32Array(expected.buffer.slice(off, off + 64));
      const aw = new Uint32Array(actual.buffer.slice(off, off + 64));
      const lanes = diffWords(`${where} u32 lane`, ew, aw, 4);
      diffs.push(
        `${where}:\n  expected ${toHex(expected.subarray(off, off + 64))}\n  got      ${toHex(actual.subarray(off, off + 64))}\n  ${lanes.join('\n  ')}`,
      );
    }
  }
  if (count === 0) return { pass: true };
  if (count > diffs.length) diffs.push(`(${count - diffs.length} more rows differ)`);
  return { pass: false, diff: diffs.join('\n') };
}

export function makeAmxRunner(): CaseRunner {
  return runAmxCase;
}
